# Sourced by the tests that run real hosts in network namespaces (test-st-host.sh,
# test-st-wire.sh, test-st-interop.sh, test-harp-host.sh): the frame they share.
#
# Before sourcing, a test sets NAME (its name in messages) and NAMESPACES (an array of the
# namespaces it will make); it may define on_fail (run before a failure exits, to show
# logs). It gets TMP and PIDS (set them as it goes), fail, skip, require_root, and a cleanup
# at exit that kills PIDS, deletes NAMESPACES and removes TMP (kept when KEEP is set).
# Exit codes: 0 passed, 1 failed, 77 skipped.

SKIP=77
TMP=
PIDS=()

fail() {
    echo "$NAME: FAIL: $*" >&2
    if declare -F on_fail >/dev/null; then
        on_fail >&2
    fi
    exit 1
}

skip() {
    echo "$NAME: SKIP: $*" >&2
    exit $SKIP
}

cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null
    done
    wait 2>/dev/null
    for ns in "${NAMESPACES[@]}"; do
        ip netns del "$ns" 2>/dev/null
    done
    [ -n "$TMP" ] && [ -z "${KEEP:-}" ] && rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# require_root WHAT: skip unless root and the ip command are here (WHAT: what needs root).
require_root() {
    [ "$(id -u)" -eq 0 ] || skip "needs root: $1 (run ./test.py as root)"
    command -v ip >/dev/null 2>&1 || skip "the ip command is missing (Debian: apt-get install iproute2)"
}
