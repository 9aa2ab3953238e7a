#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Simulator and real host together: ns-3's real-time scheduler runs a simulated ST host
# (build/examples/st-host-interop: an FdNetDevice on one end of a veth pair, IPv4 and ST,
# StServers on ports 5000 and 5001 with echo) in one network namespace; the Linux host layer
# in the other finds it through the kernel's ARP and talks to it: st-bw --plain writes to
# it, st-lat --plain writes to the echo port and checks every write that comes back.
#
# Usage: tools/test-st-interop.sh [BUILD_DIR]     (default: build/ at the repository root)
# Exit codes: 0 passed, 1 failed, 77 skipped (not root, no namespaces, or the example is not
# built: examples off, or no fd-net-device in this ns-3).

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
BIN=$BUILD/host
SIM=$BUILD/examples/st-host-interop
TAG=sti$$
NSA=$TAG-a
NSB=$TAG-b
IFA=${TAG}a
IFB=${TAG}b
NAME=test-st-interop
NAMESPACES=("$NSA" "$NSB")
on_fail() {
    [ -f "$TMP/sim.out" ] && { echo "--- simulator"; cat "$TMP/sim.out"; }
}
# shellcheck source=tools/netns-test-lib.sh
source "$ROOT/tools/netns-test-lib.sh"

require_root "network namespaces and raw sockets"
[ -x "$SIM" ] || skip "$SIM is not built (examples off, or this ns-3 has no fd-net-device)"
for p in st-bw st-lat; do
    [ -x "$BIN/$p" ] || fail "$BIN/$p not found: build with GSN_ENABLE_HOST=ON"
done
ip netns add "$NSA" 2>/dev/null || skip "cannot create network namespaces here"
ip netns add "$NSB" || fail "ip netns add"
ip link add "$IFA" netns "$NSA" type veth peer name "$IFB" netns "$NSB" || fail "veth"
ip -n "$NSA" addr add 10.184.0.1/24 dev "$IFA"
ip -n "$NSA" link set "$IFA" up
ip -n "$NSB" link set "$IFB" up
for _ in $(seq 50); do
    ip -n "$NSA" link show "$IFA" | grep -q 'state UP' && ip -n "$NSB" link show "$IFB" | grep -q 'state UP' && break
    sleep 0.1
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/st-interop.XXXXXX") || fail "cannot create a temporary folder"

# 8 writes of 64 KiB to port 5000 and 20 echoed writes of 1 KiB to port 5001: 28 transfers
# completed at the simulated host.
ip netns exec "$NSB" "$SIM" --interface="$IFB" --address=10.184.0.2/24 --duration=6 --expect=28 \
    >"$TMP/sim.out" 2>&1 &
SIMPID=$!
PIDS+=($SIMPID)
for _ in $(seq 100); do
    grep -q "simulated ST host" "$TMP/sim.out" 2>/dev/null && break
    sleep 0.1
done
sleep 0.5
ip netns exec "$NSA" timeout 30 "$BIN/st-bw" -i "$IFA" --plain --size=64K --count=8 --timeout=10000 10.184.0.2 \
    >"$TMP/bw.out" 2>&1 || fail "st-bw to the simulated host: $(cat "$TMP/bw.out")"
echo "--- st-bw --plain, real host -> simulated host"
cat "$TMP/bw.out"
ip netns exec "$NSA" timeout 30 "$BIN/st-lat" -i "$IFA" --plain --mode=write --size=1024 \
    --count=20 --warmup=0 --timeout=10000 -p 5001 10.184.0.2 >"$TMP/lat.out" 2>&1 ||
    fail "st-lat to the simulated echo: $(cat "$TMP/lat.out")"
echo "--- st-lat --plain, real host -> simulated host -> real host (each echo checked)"
cat "$TMP/lat.out"
wait $SIMPID || fail "the simulated host did not see every transfer"
echo "--- simulated host"
cat "$TMP/sim.out"
echo "test-st-interop: PASS"
exit 0
