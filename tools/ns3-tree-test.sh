#!/usr/bin/env bash
# Builds the gsn, st and harp modules inside an ns-3.37 source tree, as most ns-3 users build
# them (ns-3's default build profile, with ns-3's asserts on), and runs ns-3's own test.py on
# the tree: the test suites of every module built and the examples listed in the modules'
# test/examples-to-run.py.
#
# Usage: tools/ns3-tree-test.sh [WORK_DIR]           (default: build-ns3-tree)
#
# The source is Debian's ns3 source package of the installed release (apt-get source ns3),
# fetched once into WORK_DIR; a deb-src entry for bookworm is added when apt has none (as root,
# or through sudo). The three module folders are copied into the tree's contrib/ at every run,
# so the tree always builds the repository's current sources. Only the ns-3 modules that the
# three modules need are built (ns-3 resolves them from --enable-modules).
#
# Environment: GSN_NS3_TREE_PROFILE (default "default": ns-3's asserts and logging on),
# GSN_NS3_TREE_JOBS (default 2), GSN_NS3_TREE_TESTPY_ARGS (extra arguments for test.py).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$top/build-ns3-tree}")
profile=${GSN_NS3_TREE_PROFILE:-default}
jobs=${GSN_NS3_TREE_JOBS:-2}
modules="gsn;st;harp"

say() { printf 'ns3-tree-test: %s\n' "$*"; }

SUDO=()
[[ $(id -u) -ne 0 ]] && SUDO=(sudo)

fetch_source() {
  mkdir -p "$work"
  if compgen -G "$work/ns3-3.37/ns-3.37/ns3" >/dev/null; then
    return
  fi
  if ! apt-get source --print-uris ns3 2>/dev/null | grep -q "ns3_3.37"; then
    say "adding a deb-src entry for bookworm (/etc/apt/sources.list.d/gsn-deb-src.sources)"
    "${SUDO[@]}" tee /etc/apt/sources.list.d/gsn-deb-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    "${SUDO[@]}" apt-get update -qq
  fi
  say "fetching Debian's ns3 source package into $work"
  (cd "$work" && apt-get source --download-only ns3 >/dev/null 2>&1 &&
    dpkg-source -x ns3_3.37-*.dsc ns3-3.37 >/dev/null)
  if [[ ! -x "$work/ns3-3.37/ns-3.37/ns3" ]]; then
    say "error: no ns-3.37 tree in $work/ns3-3.37/ns-3.37 after apt-get source ns3" >&2
    exit 1
  fi
}

fetch_source
tree="$work/ns3-3.37/ns-3.37"
for m in gsn st harp; do
  rm -rf "$tree/contrib/$m"
  cp -r "$top/src/$m" "$tree/contrib/$m"
done

cd "$tree"
start=$(date +%s)
if [[ ! -f cmake-cache/CMakeCache.txt ]] || ! grep -q "NS3_ENABLED_MODULES:.*=$modules" cmake-cache/CMakeCache.txt; then
  say "configuring (profile $profile, modules $modules and what they need)"
  ./ns3 configure --build-profile="$profile" --enable-tests --enable-examples \
    --enable-modules="$modules" --disable-python-bindings --disable-werror >/dev/null
fi
say "building with $jobs jobs"
cmake --build cmake-cache -j "$jobs" >build.log 2>&1 || {
  tail -n 60 build.log
  say "error: the build failed (the whole log: $tree/build.log)" >&2
  exit 1
}
say "built in $(($(date +%s) - start)) s"
# shellcheck disable=SC2086
./test.py --no-build --jobs="$jobs" ${GSN_NS3_TREE_TESTPY_ARGS:-}
