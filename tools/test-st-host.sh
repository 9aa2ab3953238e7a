#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The ST host programs on real Linux networking: two network namespaces joined by a veth pair
# (made here, removed on every exit), the engine over raw Ethernet (EtherType 0x8181):
#
#   - libst: a C program written against the Bypass API draft (st-seed-example) connects,
#     exchanges headers with optional payloads and writes 40000 bytes into mapped memory;
#   - st-bw: a 64 MiB write and a 64 MiB read arrive intact (checked by a stamped pattern);
#   - st-lat: PUT, GET and FETCHOP round trips, every reply checked;
#   - st-check: a GET with a wrong key, a PUT and a GET past the region are refused, and the
#     server counts them (its report, and st-stat on its published counters);
#   - with 1% of the frames dropped on both sides (tc netem when the kernel has it, else an
#     nftables netdev rule, else the programs' own --drop) the 64 MiB write and read still
#     complete intact, with retransmissions;
#   - errors a user can act on: no CAP_NET_RAW, no such interface, an interface down, an MTU
#     too small for the STU, a bad option (one line, exit status 1).
#
# Usage: tools/test-st-host.sh [BUILD_DIR]     (default: build/ at the repository root)
# Exit codes: 0 passed, 1 failed, 77 skipped (not root, or no network namespaces here).

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
BIN=$BUILD/host
TAG=sth$$
NSA=$TAG-a
NSB=$TAG-b
IFA=${TAG}a
IFB=${TAG}b
IPA=10.181.0.1
IPB=10.181.0.2
NAME=test-st-host
NAMESPACES=("$NSA" "$NSB")
# shellcheck source=tools/netns-test-lib.sh
source "$ROOT/tools/netns-test-lib.sh"

require_root "network namespaces, veth pairs and raw sockets"
for p in st-bw st-lat st-check st-stat st-seed-example; do
    [ -x "$BIN/$p" ] || fail "$BIN/$p not found: build with GSN_ENABLE_HOST=ON (BUILD_DIR=$BUILD)"
done
ip netns add "$NSA" 2>/dev/null || skip "cannot create network namespaces here"
ip netns add "$NSB" || fail "ip netns add $NSB"
ip link add "$IFA" netns "$NSA" type veth peer name "$IFB" netns "$NSB" || fail "cannot create a veth pair"
ip -n "$NSA" addr add $IPA/24 dev "$IFA"
ip -n "$NSB" addr add $IPB/24 dev "$IFB"
ip -n "$NSA" link set "$IFA" up
ip -n "$NSB" link set "$IFB" up
TMP=$(mktemp -d "${TMPDIR:-/tmp}/st-host.XXXXXX") || fail "cannot create a temporary folder"
export ST_STAT_DIR=$TMP

wait_up() {
    for _ in $(seq 50); do
        if ip -n "$NSA" link show "$IFA" | grep -q 'state UP' &&
            ip -n "$NSB" link show "$IFB" | grep -q 'state UP'; then
            return 0
        fi
        sleep 0.1
    done
    fail "the veth pair did not come up"
}
wait_up

A() { ip netns exec "$NSA" "$@"; }
B() { ip netns exec "$NSB" "$@"; }

# Start a server in B (st-bw -s --once ...); its output in $TMP/server.out.
server() {
    B timeout 60 "$@" >"$TMP/server.out" 2>&1 &
    SERVER=$!
    PIDS+=("$SERVER")
    sleep 0.3
}

# Run a client in A (its output in $TMP/client.out, shown on failure), then the server's end.
client() {
    local what=$1
    shift
    if ! A timeout 60 "$@" >"$TMP/client.out" 2>&1; then
        cat "$TMP/client.out" "$TMP/server.out" >&2
        fail "$what: the client failed"
    fi
    if ! wait "$SERVER"; then
        cat "$TMP/client.out" "$TMP/server.out" >&2
        fail "$what: the server failed"
    fi
    echo "--- $what"
    cat "$TMP/client.out"
}

# --- libst: the draft's C example, unchanged API.
B env ST_INTERFACE="$IFB" timeout 30 "$BIN/st-seed-example" server 3000 >"$TMP/server.out" 2>&1 &
SERVER=$!
PIDS+=("$SERVER")
sleep 0.3
client "libst (st-seed-example)" env ST_INTERFACE="$IFA" "$BIN/st-seed-example" client $IPB 3000
grep -q "verified" "$TMP/client.out" || fail "st-seed-example: no verified write"

# --- 64 MiB write and read.
BW="$BIN/st-bw -i $IFA --size=64M --count=1 --outstanding=1"
server "$BIN/st-bw" -s --once -q -i "$IFB"
client "st-bw write 64 MiB" $BW --mode=write $IPB
grep -q "verified: 1 of 1 transfers intact" "$TMP/client.out" || fail "64 MiB write not verified"
server "$BIN/st-bw" -s --once -q -i "$IFB"
client "st-bw read 64 MiB" $BW --mode=read $IPB
grep -q "verified: 1 of 1 transfers intact" "$TMP/client.out" || fail "64 MiB read not verified"

# --- PUT, GET, FETCHOP.
for mode in put get fetchop; do
    server "$BIN/st-lat" -s --once -q -i "$IFB"
    client "st-lat $mode" "$BIN/st-lat" -i "$IFA" --mode=$mode --count=200 --size=1024 $IPB
done

# --- Protection: wrong key and out-of-region offsets refused and counted.
server "$BIN/st-bw" -s --once -q --keep-stats -i "$IFB"
client "st-check" "$BIN/st-check" -i "$IFA" $IPB
grep -q "st-check: all checks passed" "$TMP/client.out" || fail "st-check did not pass"
unknown=$("$BIN/st-stat" --program=st-bw --get=rx.UnknownKey 2>/dev/null) || true
[ "$unknown" = 1 ] || fail "st-stat: the server's rx.UnknownKey is '$unknown', expected 1"
exposure=$("$BIN/st-stat" --program=st-bw --get=rx.OutsideExposure 2>/dev/null) || true
mapping=$("$BIN/st-stat" --program=st-bw --get=rx.OutsideMapping 2>/dev/null) || true
[ $((exposure + mapping)) -eq 2 ] ||
    fail "st-stat: the server counted $exposure + $mapping operations outside its region, expected 2"
echo "--- st-stat: server rx.UnknownKey=$unknown rx.OutsideExposure=$exposure rx.OutsideMapping=$mapping"

# --- Malformed frames: the fuzz corpus and random bytes replayed raw onto the veth while a
# server runs; it drops and counts them by reason, and still serves a transfer afterwards.
server "$BIN/st-bw" -s --once -q --keep-stats --stat-name=inject -i "$IFB"
MACB=$(ip -n "$NSB" link show "$IFB" | awk '/link\/ether/ { print $2 }')
A "$BIN/st-inject" -i "$IFA" --to="$MACB" --random=2000 "$ROOT"/fuzz/corpus/st-header-fuzzer/* \
    "$ROOT"/fuzz/corpus/st-endpoint-fuzzer/* >"$TMP/inject.out" 2>&1 || fail "st-inject: $(cat "$TMP/inject.out")"
client "st-bw write after the malformed frames" $BW --size=1M --mode=write $IPB
stat() { "$BIN/st-stat" --program=inject --get="$1" 2>/dev/null || echo 0; }
for reason in rx.Truncated rx.UnknownOp rx.UnknownKey frames.drop.BadLength; do
    [ "$(stat $reason)" -gt 0 ] || fail "the server counted no $reason drop ($(cat "$TMP/inject.out"))"
done
echo "--- $(cat "$TMP/inject.out"); server drops: rx.Truncated=$(stat rx.Truncated)" \
    "rx.UnknownOp=$(stat rx.UnknownOp) rx.LocalOp=$(stat rx.LocalOp) rx.BadFlags=$(stat rx.BadFlags)" \
    "rx.BadChecksum=$(stat rx.BadChecksum) rx.UnknownKey=$(stat rx.UnknownKey) frames.drop.BadLength=$(stat frames.drop.BadLength)"

# --- 1% loss: both directions.
LOSS=
if tc -n "$NSA" qdisc add dev "$IFA" root netem loss 1% 2>/dev/null &&
    tc -n "$NSB" qdisc add dev "$IFB" root netem loss 1% 2>/dev/null; then
    LOSS="tc netem loss 1%"
elif command -v nft >/dev/null 2>&1; then
    ok=1
    for side in "$NSA:$IFA" "$NSB:$IFB"; do
        ns=${side%%:*}
        dev=${side#*:}
        printf 'table netdev stloss {\n chain out { type filter hook egress device "%s" priority 0; numgen random mod 100 < 1 drop; }\n}\n' "$dev" |
            ip netns exec "$ns" nft -f - 2>/dev/null || ok=0
    done
    [ $ok = 1 ] && LOSS="nftables netdev egress, numgen random mod 100 < 1 drop (no netem in this kernel)"
fi
DROP=
if [ -z "$LOSS" ]; then
    LOSS="the programs' own --drop=10 (neither netem nor nftables here)"
    DROP=--drop=10
fi
echo "--- loss: $LOSS"
for mode in write read; do
    server "$BIN/st-bw" -s --once -q $DROP -i "$IFB"
    client "st-bw $mode 64 MiB with 1% loss" $BW $DROP --mode=$mode $IPB
    grep -q "verified: 1 of 1 transfers intact" "$TMP/client.out" || fail "$mode under loss not verified"
    retrans=$(awk '$1 == "'$mode'" { print $7 }' "$TMP/client.out")
    [ "${retrans:-0}" -gt 0 ] || fail "$mode under loss: no retransmission, so no frame was lost ($LOSS)"
done
ip netns exec "$NSA" nft flush ruleset 2>/dev/null
ip netns exec "$NSB" nft flush ruleset 2>/dev/null
tc -n "$NSA" qdisc del dev "$IFA" root 2>/dev/null
tc -n "$NSB" qdisc del dev "$IFB" root 2>/dev/null

# --- Errors a user can act on: one line naming the cause, exit status 1.
expect_error() {
    local what=$1 pattern=$2
    shift 2
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$what: exit status $rc, expected 1 ($out)"
    echo "$out" | grep -q -- "$pattern" || fail "$what: '$out' does not say '$pattern'"
    echo "--- $what: $out"
}
expect_error "no CAP_NET_RAW" "cap_net_raw+ep" \
    A setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
    "$BIN/st-bw" -s -i "$IFA"
expect_error "no such interface" "no network interface named" A "$BIN/st-bw" -s -i nosuch0
ip -n "$NSA" link set "$IFA" mtu 280
expect_error "MTU too small" "too small for ST" A "$BIN/st-bw" -s -i "$IFA"
ip -n "$NSA" link set "$IFA" mtu 1500
ip -n "$NSA" link set "$IFA" down
expect_error "interface down" "is down" A "$BIN/st-bw" -s -i "$IFA"
expect_error "bad option" "bad value 'x' for --size" "$BIN/st-bw" -i "$IFA" --size=x $IPB
expect_error "libst without an interface" "no network interface named" \
    A env ST_INTERFACE=nosuch0 "$BIN/st-seed-example" server 3000

echo "test-st-host: PASS"
exit 0
