#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# harpd and gsnarp on real Linux networking: three network namespaces (a HARP server and two
# clients) on a bridge in a fourth, made here and removed on every exit, HARP in 802.3 +
# LLC/SNAP frames (EtherType 0x0806) with the RFC's timers shortened by the options file:
#
#   - both clients register with the server (InARP), which lists them;
#   - with --kernel-requests the kernel's IP stack asks harpd for an address it must resolve:
#     the datagram leaves with the ULA HARP found, and no kernel ARP request (with tshark);
#   - a client resolves the other through the server (gsnarp HOST), and harpd writes the
#     mapping into the kernel's neighbour table; the server's static entry resolves too;
#   - gsnarp -s adds a static entry that outlives the cache lifetime and the re-registrations
#     unchanged (never aged, never overwritten), in HARP's table and the kernel's (PERMANENT),
#     and the host's IP stack sends to it (a UDP datagram seen on the bridge; with tshark);
#     gsnarp -d removes it and the address resolves to its real ULA again;
#   - aging: a client whose harpd stopped is forgotten by the server after the registration
#     lifetime, the other client then fails to resolve it (HARP_NAK) and its kernel entry goes;
#   - "fabric detect" without servers: broadcast found, resolution by broadcast request;
#   - errors: gsnarp without a daemon, a second harpd on the interface, harpd without
#     CAP_NET_RAW, a bad options line,
#     gsnarp -d of an address without a static entry (one line, exit status 1).
#
# Usage: tools/test-harp-host.sh [BUILD_DIR]     (default: build/ at the repository root)
# Exit codes: 0 passed, 1 failed, 77 skipped (not root, or no network namespaces here).

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
BIN=$BUILD/host
TAG=hph$$
BR=$TAG-br
NS=("$TAG-s" "$TAG-c1" "$TAG-c2")
IF=("${TAG}s" "${TAG}1" "${TAG}2")
IP=(10.182.0.1 10.182.0.2 10.182.0.3)
ULA=(02:00:00:00:0a:01 02:00:00:00:0a:02 02:00:00:00:0a:03)
NAME=test-harp-host
NAMESPACES=("${NS[@]}" "$BR")
on_fail() {
    for i in 0 1 2; do
        [ -f "$TMP/harpd$i.log" ] && { echo "--- harpd ${NS[$i]}"; tail -20 "$TMP/harpd$i.log"; }
    done
}
# shellcheck source=tools/netns-test-lib.sh
source "$ROOT/tools/netns-test-lib.sh"

require_root "network namespaces, a bridge and raw sockets"
for p in harpd gsnarp; do
    [ -x "$BIN/$p" ] || fail "$BIN/$p not found: build with GSN_ENABLE_HOST=ON (BUILD_DIR=$BUILD)"
done
ip netns add "$BR" 2>/dev/null || skip "cannot create network namespaces here"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/harp-host.XXXXXX") || fail "cannot create a temporary folder"
ip -n "$BR" link add br0 type bridge || fail "cannot create a bridge"
ip -n "$BR" link set br0 up
for i in 0 1 2; do
    ip netns add "${NS[$i]}" || fail "ip netns add"
    ip link add "${IF[$i]}" netns "${NS[$i]}" type veth peer name "p$i" netns "$BR" || fail "veth"
    ip -n "$BR" link set "p$i" master br0 up
    ip -n "${NS[$i]}" link set "${IF[$i]}" address "${ULA[$i]}"
    ip -n "${NS[$i]}" addr add "${IP[$i]}/24" dev "${IF[$i]}"
    ip -n "${NS[$i]}" link set "${IF[$i]}" up
done
for _ in $(seq 50); do
    up=0
    for i in 0 1 2; do
        ip -n "${NS[$i]}" link show "${IF[$i]}" | grep -q 'state UP' && up=$((up + 1))
    done
    [ $up = 3 ] && break
    sleep 0.1
done

cat >"$TMP/server.options" <<EOT
# The LIS's server; the seed's timers shortened for the test.
fabric nonbroadcast
server ${ULA[0]}
serve 10.182.0.0/24 ${IP[0]}
static 10.182.0.99 02:00:00:00:0a:99
registration-lifetime 3s
reregistration-interval 1s
registration-retry 500ms
request-timeout 300ms
request-retries 1
cache-lifetime 2s
EOT
cat >"$TMP/client.options" <<EOT
fabric nonbroadcast
server ${ULA[0]}
reregistration-interval 1s
registration-retry 500ms
request-timeout 300ms
request-retries 1
cache-lifetime 2s
EOT

start() { # start INDEX OPTIONS [HARPD OPTIONS...]
    local i=$1 options=$2
    shift 2
    ip netns exec "${NS[$i]}" "$BIN/harpd" -v -i "${IF[$i]}" -f "$options" --socket "$TMP/harpd$i.sock" \
        "$@" >"$TMP/harpd$i.log" 2>&1 &
    HARPD[$i]=$!
    PIDS+=("${HARPD[$i]}")
}
arp() { # arp INDEX ARGS...: gsnarp in that namespace
    local i=$1
    shift
    ip netns exec "${NS[$i]}" "$BIN/gsnarp" --socket "$TMP/harpd$i.sock" "$@"
}
neigh() { ip -n "${NS[$1]}" neigh show "$2" dev "${IF[$1]}"; }
eventually() { # eventually SECONDS COMMAND...: true once the command succeeds
    local end=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -ge $end ] && return 1
        sleep 0.2
    done
}
udp_from_client1() { ip netns exec "${NS[1]}" bash -c "echo ip >/dev/udp/$1/9" 2>/dev/null; }
capturing() { # capturing FILE: wait until the tshark writing its messages to FILE captures
    eventually 30 grep -q "Capturing on" "$1" || fail "tshark did not start capturing"
}

start 0 "$TMP/server.options"
start 1 "$TMP/client.options" --kernel-requests
start 2 "$TMP/client.options"

# --- Registration: the server lists both clients.
registered() { arp 0 -a | grep -q "server $1 at $2 registered"; }
eventually 5 registered "${IP[1]}" "${ULA[1]}" || fail "client 1 did not register"
eventually 5 registered "${IP[2]}" "${ULA[2]}" || fail "client 2 did not register"
echo "--- server table"
arp 0 -a

# --- The kernel's IP stack asks harpd (client 1 runs with --kernel-requests): a datagram to
# an address nobody resolved yet leaves with the ULA HARP found through the server, and the
# kernel sends no ARP request of its own (hardware type 1) for it.
if command -v tshark >/dev/null 2>&1; then
    mkdir -p "$TMP/home"
    # (Capturing from when tshark says so, for 8 s: tshark starts slowly on a loaded machine.)
    HOME=$TMP/home ip netns exec "$BR" tshark -q -i br0 -a duration:8 \
        -f "udp port 9 or arp or llc" -w "$TMP/kernel.pcap" >/dev/null 2>"$TMP/tshark1.err" &
    TSHARKPID=$!
    PIDS+=("$TSHARKPID")
    capturing "$TMP/tshark1.err"
    udp_from_client1 10.182.0.99
    # (Once more 2 s later, in case tshark said it captured a little before it did.)
    sleep 2
    udp_from_client1 10.182.0.99
    wait "$TSHARKPID"
    dst=$(HOME=$TMP/home tshark -r "$TMP/kernel.pcap" -Y udp -T fields -e eth.dst 2>/dev/null | head -1)
    [ "$dst" = "02:00:00:00:0a:99" ] || fail "the kernel's datagram to 10.182.0.99 went to '$dst'"
    kernel_arp=$(HOME=$TMP/home tshark -r "$TMP/kernel.pcap" \
        -Y "arp.hw.type == 1 && arp.dst.proto_ipv4 == 10.182.0.99" 2>/dev/null | wc -l)
    [ "$kernel_arp" = 0 ] || fail "the kernel sent $kernel_arp ARP requests of its own for 10.182.0.99"
    grep -q "kernel asks for 10.182.0.99" "$TMP/harpd1.log" || fail "harpd did not hear the kernel's request"
    echo "--- the kernel asked harpd for 10.182.0.99; its datagram went to $dst, no kernel ARP"
fi

# --- Resolution through the server, into the kernel's table.
out=$(arp 1 "${IP[2]}") || fail "client 1 cannot resolve ${IP[2]}: $out"
[ "$out" = "${IP[2]} at ${ULA[2]}" ] || fail "client 1 resolved '$out'"
neigh 1 "${IP[2]}" | grep -q "lladdr ${ULA[2]}" || fail "no kernel entry for ${IP[2]}: $(neigh 1 "${IP[2]}")"
out=$(arp 1 10.182.0.99) || fail "client 1 cannot resolve the server's static entry"
[ "$out" = "10.182.0.99 at 02:00:00:00:0a:99" ] || fail "the server's static entry resolved to '$out'"
echo "--- client 1 resolved ${IP[2]} and 10.182.0.99; kernel: $(neigh 1 "${IP[2]}")"

# --- Static entries: never aged, never overwritten.
arp 1 -s "${IP[2]}" 02:00:00:00:0a:77 || fail "gsnarp -s refused"
sleep 3 # beyond the cache lifetime, through re-registrations
arp 1 -a | grep -q "${IP[2]} at 02:00:00:00:0a:77 static" || fail "the static entry changed: $(arp 1 -a)"
[ "$(arp 1 "${IP[2]}")" = "${IP[2]} at 02:00:00:00:0a:77" ] || fail "the static entry was not used"
neigh 1 "${IP[2]}" | grep -q "lladdr 02:00:00:00:0a:77 PERMANENT" ||
    fail "kernel entry not the static one: $(neigh 1 "${IP[2]}")"
# The host's IP stack uses what harpd wrote: a datagram from client 1 to that address leaves
# with the static ULA as its destination (seen on the bridge, which floods it).
if command -v tshark >/dev/null 2>&1; then
    mkdir -p "$TMP/home"
    HOME=$TMP/home ip netns exec "$BR" tshark -q -i br0 -f "udp port 9" -c 1 -T fields -e eth.dst \
        >"$TMP/udp.out" 2>"$TMP/tshark2.err" &
    TSHARKPID=$!
    PIDS+=("$TSHARKPID")
    capturing "$TMP/tshark2.err"
    # (Sent again every half second until one is seen: tshark may say it captures a little
    # before it does, and this datagram leaves at once.)
    for _ in $(seq 20); do
        udp_from_client1 "${IP[2]}"
        for _ in 1 2 3 4 5; do
            [ -s "$TMP/udp.out" ] && break 2
            sleep 0.1
        done
    done
    kill "$TSHARKPID" 2>/dev/null
    [ "$(head -1 "$TMP/udp.out")" = "02:00:00:00:0a:77" ] ||
        fail "IP to ${IP[2]} did not go to the static ULA: '$(cat "$TMP/udp.out")'"
    echo "--- an IP datagram from client 1 to ${IP[2]} went to 02:00:00:00:0a:77 (harpd's entry)"
fi
arp 1 -d "${IP[2]}" || fail "gsnarp -d refused"
[ -z "$(neigh 1 "${IP[2]}")" ] || fail "gsnarp -d left the kernel entry: $(neigh 1 "${IP[2]}")"
[ "$(arp 1 "${IP[2]}")" = "${IP[2]} at ${ULA[2]}" ] || fail "after -d, ${IP[2]} did not resolve to its ULA"
echo "--- static entry kept for 3 s, then deleted; ${IP[2]} resolves to ${ULA[2]} again"

# --- Aging: client 2 stops; the server forgets it, client 1 can no longer resolve it.
kill "${HARPD[2]}"
wait "${HARPD[2]}" || fail "harpd of client 2 did not end cleanly on SIGTERM (status $?)"
forgotten() { ! arp 0 -a | grep -q "server ${IP[2]} "; }
eventually 6 forgotten || fail "the server did not forget client 2: $(arp 0 -a)"
unresolvable() { ! arp 1 --timeout=3000 "${IP[2]}"; }
eventually 8 unresolvable || fail "client 1 still resolves ${IP[2]}: $(arp 1 -a)"
nokernel() { [ -z "$(neigh 1 "${IP[2]}")" ]; }
eventually 5 nokernel || fail "client 1's kernel entry for ${IP[2]} stayed: $(neigh 1 "${IP[2]}")"
echo "--- aging: server forgot ${IP[2]}; client 1: $(arp 1 "${IP[2]}" 2>&1)"

# --- A harpd that stops removes the dynamic entries it wrote (the server's static one,
# learned by client 1 through the server, is dynamic there), and ends cleanly.
arp 1 10.182.0.99 >/dev/null || fail "client 1 cannot resolve 10.182.0.99"
neigh 1 10.182.0.99 | grep -q "lladdr 02:00:00:00:0a:99" || fail "client 1 has no entry for 10.182.0.99"
kill "${HARPD[1]}"
wait "${HARPD[1]}" || fail "harpd of client 1 did not end cleanly on SIGTERM (status $?)"
[ -z "$(neigh 1 10.182.0.99)" ] || fail "harpd left its entry behind: $(neigh 1 10.182.0.99)"
echo "--- client 1's harpd stopped: its dynamic kernel entries removed"
start 1 "$TMP/client.options"
eventually 5 arp 1 -a || fail "client 1's harpd did not start again"

# --- Errors: one line, exit status 1.
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
expect_error "gsnarp -d without a static entry" "no static entry" arp 1 -d 10.182.0.50
expect_error "gsnarp without harpd" "no harpd answers" arp 2 -a
expect_error "a second harpd" "another harpd already serves" \
    ip netns exec "${NS[1]}" "$BIN/harpd" -i "${IF[1]}" -f "$TMP/client.options" --socket "$TMP/harpd1.sock"
chmod 755 "$TMP"
chmod 644 "$TMP/client.options"
expect_error "harpd without CAP_NET_RAW" "CAP_NET_RAW" \
    ip netns exec "${NS[2]}" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    --bounding-set=-all "$BIN/harpd" -i "${IF[2]}" -f "$TMP/client.options" --socket "$TMP/nocap.sock"
printf 'fabric sometimes\n' >"$TMP/bad.options"
expect_error "a bad options line" "options line 1" \
    ip netns exec "${NS[2]}" "$BIN/harpd" -i "${IF[2]}" -f "$TMP/bad.options" --socket "$TMP/bad.sock"

# --- A broadcast fabric: harpd with "fabric detect" and no server finds that Ethernet
# broadcasts (its own probe comes back) and resolves by broadcast ARP request.
printf 'fabric detect\nbroadcast-probes 2\nprobe-interval 200ms\n' >"$TMP/detect.options"
for i in 0 1 2; do
    kill "${HARPD[$i]}" 2>/dev/null
    wait "${HARPD[$i]}" 2>/dev/null
done
start 1 "$TMP/detect.options"
start 2 "$TMP/detect.options"
operational() { arp "$1" -a | grep -q "phase Operational"; }
eventually 5 operational 1 || fail "client 1 did not become operational by broadcast detection"
eventually 5 operational 2 || fail "client 2 did not become operational by broadcast detection"
grep -q "BroadcastDetected broadcast" "$TMP/harpd1.log" || fail "client 1 did not detect broadcast"
[ "$(arp 1 "${IP[2]}")" = "${IP[2]} at ${ULA[2]}" ] || fail "no resolution by broadcast"
echo "--- fabric detect: broadcast found, ${IP[2]} resolved by broadcast ARP"

echo "test-harp-host: PASS"
exit 0
