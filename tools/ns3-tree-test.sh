#!/usr/bin/env bash
# Builds the gsn, st and harp modules inside an ns-3.37 source tree, as most ns-3 users build
# them (ns-3's default build profile, with ns-3's asserts on), and runs ns-3's own test.py on
# the tree: the test suites of every module built and the examples listed in the three modules'
# test/examples-to-run.py (ns-3's own examples are not built).
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

fetch_source() {
  if ! "$top/tools/fetch-ns3-source.sh" "$work"; then
    say "error: no ns-3.37 source tree in $work" >&2
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
if [[ ! -f cmake-cache/CMakeCache.txt ]] || ! grep -qx "NS3_ENABLED_MODULES:STRING=$modules" cmake-cache/CMakeCache.txt; then
  say "configuring (profile $profile, modules $modules and what they need)"
  ./ns3 configure --build-profile="$profile" --enable-tests --enable-examples \
    --enable-modules="$modules" --disable-python-bindings --disable-werror >/dev/null
fi
# What test.py runs: the test runner (every module's test library) and the examples that the
# three modules list in test/examples-to-run.py (test.py skips the examples not built).
examples=$(python3 - contrib/{gsn,st,harp}/test/examples-to-run.py <<'PY'
import runpy, sys
names = set()
for path in sys.argv[1:]:
    names.update(line[0].split()[0] for line in runpy.run_path(path).get("cpp_examples", []))
print(" ".join(sorted(names)))
PY
)
# (An example whose modules are not enabled has no target: ns-3 skips it at configuration.)
targets=$(cmake --build cmake-cache --target help 2>/dev/null | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p; s/^\([^: ]*\): .*/\1/p')
examples=$(for e in $examples; do grep -qx "$e" <<<"$targets" && echo "$e"; done | tr '\n' ' ')
say "building the test runner and examples ($examples) with $jobs jobs"
# shellcheck disable=SC2086
cmake --build cmake-cache -j "$jobs" --target test-runner $examples >build.log 2>&1 || {
  tail -n 60 build.log
  say "error: the build failed (the whole log: $tree/build.log)" >&2
  exit 1
}
say "built in $(($(date +%s) - start)) s"
# shellcheck disable=SC2086
./test.py --no-build --jobs="$jobs" ${GSN_NS3_TREE_TESTPY_ARGS:-}
