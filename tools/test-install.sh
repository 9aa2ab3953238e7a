#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checks cmake --install and the installed CMake package: installs the already built project
# (BUILD_DIR) into a temporary prefix, builds the scenario project test/install-consumer
# against it with find_package(gsn-ns3), runs it, and checks that its Message arrived.
#
# When the build has the Python bindings, also checks the installed package ns: imported from
# the prefix (not the build tree), its extension module linked to the installed libraries,
# a short simulation run through it.
#
# Usage: tools/test-install.sh [BUILD_DIR]     (default: build/ at the repository root)
# Exit codes: 0 passed, 1 failed.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}

fail() {
    echo "test-install: FAIL: $*" >&2
    exit 1
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gsn-install.XXXXXX") || fail "cannot create a temporary folder"
trap 'rm -rf "$TMP"' EXIT

cmake --install "$BUILD" --prefix "$TMP/prefix" >"$TMP/install.log" 2>&1 ||
    { cat "$TMP/install.log"; fail "cmake --install $BUILD"; }
for f in lib/cmake/gsn-ns3/gsn-ns3-config.cmake include/ns3/gsn-module.h include/ns3/st-module.h \
    include/ns3/harp-module.h; do
    [ -e "$TMP/prefix/$f" ] || fail "not installed: $f"
done
cmake -S "$ROOT/test/install-consumer" -B "$TMP/consumer" -DCMAKE_PREFIX_PATH="$TMP/prefix" \
    >"$TMP/configure.log" 2>&1 || { cat "$TMP/configure.log"; fail "configuring the consumer"; }
cmake --build "$TMP/consumer" >"$TMP/build.log" 2>&1 ||
    { cat "$TMP/build.log"; fail "building the consumer against the installed package"; }
# The program must use the installed library, not the build tree's.
ldd "$TMP/consumer/two-endpoints" | grep -q "$TMP/prefix/lib" ||
    fail "the consumer does not link the installed library: $(ldd "$TMP/consumer/two-endpoints" | grep gsn)"
out=$("$TMP/consumer/two-endpoints" 2>&1) || fail "the consumer failed: $out"
echo "$out"
echo "$out" | grep -q "^received 4000 bytes" || fail "unexpected output: $out"

# The Python package, when the build has it.
if ls "$BUILD"/bindings/python/ns/_ns*.so >/dev/null 2>&1; then
    init=$(find "$TMP/prefix" -path '*/ns/__init__.py' | head -n 1)
    [ -n "$init" ] || fail "the Python package ns is not installed"
    site=$(dirname "$(dirname "$init")")
    python=$(sed -n 's/^GSN_PYTHON_EXECUTABLE:INTERNAL=//p' "$BUILD/CMakeCache.txt")
    module=$(ls "$site"/ns/_ns*.so)
    ldd "$module" | grep -q "$TMP/prefix/lib" ||
        fail "the installed Python module does not link the installed libraries"
    out=$(cd "$TMP" && PYTHONPATH="$site" "${python:-python3}" -c '
import ns
from ns import ns as n
print(ns.__file__)
f = n.gsn.GsnFabricHelper().Install(n.gsn.GsnTopologyBuilder.Star(2))
n.core.Simulator.Stop(n.core.MicroSeconds(20))
n.core.Simulator.Run()
print("links up:", all(d.IsLinkUp() for d in f.GetAllPorts()))
n.core.Simulator.Destroy()
' 2>&1) || fail "the installed Python package failed: $out"
    echo "$out"
    echo "$out" | grep -q "^$TMP/prefix/" || fail "ns was not imported from the prefix: $out"
    echo "$out" | grep -q "^links up: True" || fail "unexpected output: $out"
fi
echo "test-install: PASS"
