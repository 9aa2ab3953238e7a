#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The wire bytes of the ST host programs are the simulator's: the same writes, made once by
# ns-3 (st-over-ethernet: StBulkClient to StServer over CSMA, traced to pcap) and once by the
# Linux host layer between two network namespaces (st-bw --plain, captured on the veth with
# tshark), decode with tools/gsn.lua to the same operations with the same header fields, in
# the same order, each way, times aside. Keys (random on both sides) are left out, and so is
# the teardown (the simulated client never closes); the simulator's frames carry an FCS, the
# captured ones do not (tshark is told which).
#
# Usage: tools/test-st-wire.sh [BUILD_DIR]     (default: build/ at the repository root)
# Exit codes: 0 passed, 1 failed, 77 skipped (not root, no tshark, no namespaces, or the
# examples are not built).

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd) || { echo "test-st-wire: FAIL: no build folder ${1:-$ROOT/build}" >&2; exit 1; }
BIN=$BUILD/host
EXAMPLE=$BUILD/examples/st-over-ethernet
LUA=$ROOT/tools/gsn.lua
TSHARK=${TSHARK:-tshark}
TAG=stw$$
NSA=$TAG-a
NSB=$TAG-b
IFA=${TAG}a
IFB=${TAG}b
SIZE=65536
TRANSFERS=2
NAME=test-st-wire
NAMESPACES=("$NSA" "$NSB")
# shellcheck source=tools/netns-test-lib.sh
source "$ROOT/tools/netns-test-lib.sh"

require_root "network namespaces and raw sockets"
command -v "$TSHARK" >/dev/null 2>&1 || skip "tshark is not installed (Debian: apt-get install tshark)"
[ -x "$EXAMPLE" ] || skip "$EXAMPLE is not built (GSN_ENABLE_EXAMPLES=OFF)"
[ -x "$BIN/st-bw" ] || fail "$BIN/st-bw not found: build with GSN_ENABLE_HOST=ON"
if "$TSHARK" -v 2>/dev/null | grep -qi 'without Lua'; then
    skip "this tshark was built without Lua"
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/st-wire.XXXXXX") || fail "cannot create a temporary folder"
mkdir -p "$TMP/home"
export HOME=$TMP/home # tshark's profile folder

# --- The simulator: host 0 (client) writes twice to host 1's StServer on port 5000.
(cd "$TMP" && "$EXAMPLE" --pcap=1 --size=$SIZE --transfers=$TRANSFERS >sim.out 2>&1) ||
    fail "st-over-ethernet failed: $(cat "$TMP/sim.out")"
SIM=$(ls "$TMP"/st-over-ethernet-0-*.pcap 2>/dev/null | head -1)
[ -n "$SIM" ] || fail "st-over-ethernet wrote no pcap of host 0"

# --- The host layer: the same writes between two namespaces, captured on the client's veth.
ip netns add "$NSA" 2>/dev/null || skip "cannot create network namespaces here"
ip netns add "$NSB" || fail "ip netns add"
ip link add "$IFA" netns "$NSA" type veth peer name "$IFB" netns "$NSB" || fail "veth"
ip -n "$NSA" addr add 192.168.1.1/24 dev "$IFA"
ip -n "$NSB" addr add 192.168.1.2/24 dev "$IFB"
ip -n "$NSA" link set "$IFA" up
ip -n "$NSB" link set "$IFB" up
for _ in $(seq 50); do
    ip -n "$NSA" link show "$IFA" | grep -q 'state UP' && ip -n "$NSB" link show "$IFB" | grep -q 'state UP' && break
    sleep 0.1
done
ip netns exec "$NSA" "$TSHARK" -q -i "$IFA" -w "$TMP/host.pcap" -f "ether proto 0x8181 or llc" \
    >"$TMP/capture.out" 2>&1 &
PIDS+=($!)
CAPTURE=$!
for _ in $(seq 100); do
    grep -q "Capturing on" "$TMP/capture.out" 2>/dev/null && break
    sleep 0.1
done
# The simulator's engine settings: blocks of 16 MiB, 64 CTSs, retries after 1 s.
SAME="--size=$SIZE --outstanding=1 --block=16M --cts=64 --op-timeout=1000 --retries=3 --plain -q"
ip netns exec "$NSB" timeout 30 "$BIN/st-bw" -s --once -i "$IFB" $SAME >"$TMP/server.out" 2>&1 &
SERVER=$!
PIDS+=($SERVER)
sleep 0.3
ip netns exec "$NSA" timeout 30 "$BIN/st-bw" -i "$IFA" $SAME --count=$TRANSFERS 192.168.1.2 \
    >"$TMP/client.out" 2>&1 || fail "st-bw --plain failed: $(cat "$TMP/client.out" "$TMP/server.out")"
wait $SERVER || fail "the st-bw --plain server failed: $(cat "$TMP/server.out")"
sleep 0.5
kill -INT $CAPTURE
wait $CAPTURE 2>/dev/null

# --- Decode both: the connection to service 5000 up to its teardown, keys left out. Its RC
# goes to Port 0 naming 5000 (bytes 8..11); the client's port then names the connection.
FIELDS="-e st.sport -e st.dport -e st.opname -e st.flags -e st.param -e st.mx -e st.bufx
    -e st.offset -e st.sync -e st.bnum -e st.did -e st.sid -e st.tlen -e st.payload_len"
decode() { # decode PCAP [tshark options]
    local pcap=$1
    shift
    local client
    client=$("$TSHARK" -r "$pcap" "$@" -X lua_script:"$LUA" -Y 'st.opname == "RC" && st.dkey == 5000' \
        -T fields -e st.sport 2>"$TMP/tshark.err" | head -1)
    [ -n "$client" ] || client=0
    "$TSHARK" -r "$pcap" "$@" -X lua_script:"$LUA" -Y "st && (st.dport == $client || st.sport == $client)" \
        -T fields -E separator='|' $FIELDS 2>"$TMP/tshark.err" |
        awk -F'|' -v OFS='|' '$3 == "RD" || $3 == "DA" || $3 == "DC" { exit } { if ($3 == "RC" || $3 == "CA") $8 = "key"; print }'
}
decode "$SIM" -o eth.fcs:always >"$TMP/sim.txt"
decode "$TMP/host.pcap" >"$TMP/host.txt"
sim_ops=$(wc -l <"$TMP/sim.txt")
host_ops=$(wc -l <"$TMP/host.txt")
data=$(grep -c "|DATA|" "$TMP/host.txt")
[ "$sim_ops" -gt 0 ] || fail "no ST operation decoded in the simulator's trace ($(cat "$TMP/tshark.err"))"
[ "$data" -eq $((SIZE / 1024 * TRANSFERS)) ] ||
    fail "the host sent $data DATA, expected $((SIZE / 1024 * TRANSFERS)) STUs of 1 KiB"
if ! diff "$TMP/sim.txt" "$TMP/host.txt" >"$TMP/diff.txt"; then
    head -20 "$TMP/diff.txt" >&2
    fail "the host's operations differ from the simulator's ($sim_ops vs $host_ops; < simulator, > host)"
fi
echo "test-st-wire: $host_ops operations, the same fields in the same order (simulator and host):"
cut -d'|' -f3 "$TMP/host.txt" | uniq -c | awk '{ printf "  %s x%d\n", $2, $1 }'
echo "test-st-wire: PASS"
exit 0
