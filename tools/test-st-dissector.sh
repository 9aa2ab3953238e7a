#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checks the pcap traces of a whole GSN fabric and the Scheduled Transfer dissector of
# tools/gsn.lua. It builds nothing: it runs the already built example st-bulk-transfer
# (two hosts through one switch, ST bulk writes) with every port traced, in both link modes,
# and reads the files with tshark and the dissector:
#
#   - the hosts' files (link type 149): every ST operation decoded (RC, CA, RTS, CTS, DATA ...),
#     what the client sent is what the server received, field by field, and the counts and
#     bytes are those the example reports; each Message's VC (pseudo-header) is the one ST
#     chose (DATA on its data channel, everything else on VC 0) and its direction is right;
#   - the switch ports' files (link type 148): micropackets both ways, good LCRCs, as many
#     Header micropackets each way as the host on that link sent and received Messages, each
#     received Header one constant delay after its host's record of sending it;
#   - every file in time order; the Run link mode gives the same ST operations at the hosts,
#     and the same Header and Data micropackets at the switch ports, as the micropacket mode;
#   - ST over Ethernet: st-over-ethernet's CSMA traces decode as eth:ethertype:st.
#
# Usage: tools/test-st-dissector.sh [BUILD_DIR]     (default: build/ at the repository root)
# Environment: TSHARK=path of tshark (default: tshark on PATH).
# Exit codes: 0 passed, 1 failed, 77 skipped (tshark missing, or its Lua support unusable).

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
LUA=$ROOT/tools/gsn.lua
TSHARK=${TSHARK:-tshark}
BULK=$BUILD/examples/st-bulk-transfer
ETHERNET=$BUILD/examples/st-over-ethernet
SKIP=77

fail() {
    echo "test-st-dissector: FAIL: $*" >&2
    exit 1
}

skip() {
    echo "test-st-dissector: SKIP: $*" >&2
    exit $SKIP
}

command -v "$TSHARK" >/dev/null 2>&1 || skip "tshark is not installed (Debian: apt-get install tshark)"
[ -r "$LUA" ] || fail "dissector $LUA not found"
for example in "$BULK" "$ETHERNET"; do
    [ -x "$example" ] || fail "$example not found: build the examples first (BUILD_DIR=$BUILD)"
done
if "$TSHARK" -v 2>/dev/null | grep -qi 'without Lua'; then
    skip "this tshark was built without Lua"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/st-dissector.XXXXXX") || fail "cannot create a temporary folder"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/home"

# 2 writes of 64 KiB in STUs of 4 KiB (Bufsize 12): 32 DATA operations, on data channel 2.
SIZE=65536
TRANSFERS=2
BUFSIZE=12
DATAVC=2
for mode in Micropacket Run; do
    mkdir -p "$TMP/$mode"
    (cd "$TMP/$mode" && "$BULK" --pcap=1 --size=$SIZE --transfers=$TRANSFERS --bufsize=$BUFSIZE \
        --linkMode=$mode --ns3::StProtocol::DataVc=$DATAVC \
        --ns3::PcapFileWrapper::NanosecMode=true >example.out 2>&1) ||
        fail "st-bulk-transfer --linkMode=$mode failed: $(cat "$TMP/$mode/example.out")"
done
(cd "$TMP" && "$ETHERNET" --pcap=1 --size=16384 --transfers=1 >ethernet.out 2>&1) ||
    fail "st-over-ethernet failed: $(cat "$TMP/ethernet.out")"
chmod -R a+rX "$TMP"

# How tshark is run (see tools/test-dissector.sh): as root, possibly as 'nobody'.
RUNAS=()
run_tshark() {
    HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
        "${RUNAS[@]}" "$TSHARK" -X "lua_script:$LUA" "$@"
}

FIRST=$(ls "$TMP"/Micropacket/*.pcap 2>/dev/null | head -1)
[ -n "$FIRST" ] || fail "st-bulk-transfer --pcap=1 wrote no pcap file"
lua_loaded() {
    local err
    err=$(run_tshark -r "$FIRST" -c 1 -T fields -e gsn.mlen 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -ne 0 ] || grep -q "aren't valid" <<<"$err"; then
        LAST_ERR=$err
        return 1
    fi
    return 0
}

LAST_ERR=
if ! lua_loaded; then
    if [ "$(id -u)" -eq 0 ]; then
        unprivileged=nobody
        if command -v setpriv >/dev/null 2>&1; then
            RUNAS=(setpriv --reuid="$(id -u $unprivileged)" --regid="$(id -g $unprivileged)"
                --clear-groups --)
        elif command -v runuser >/dev/null 2>&1; then
            RUNAS=(runuser -u $unprivileged --)
        fi
        if [ ${#RUNAS[@]} -eq 0 ] || ! lua_loaded; then
            skip "tshark does not load Lua scripts as root and could not run as '$unprivileged':" \
                "$LAST_ERR"
        fi
        echo "test-st-dissector: tshark refuses Lua as root; running it as '$unprivileged'"
    else
        skip "tshark does not load $LUA (Lua disabled in init.lua?): $LAST_ERR"
    fi
fi

linktype() {
    od -An -tu4 -j20 -N4 "$1" | tr -d ' '
}

# Every file in time order (pcap time stamps never go back).
in_time_order() {
    local back
    back=$(run_tshark -r "$1" -T fields -e frame.time_delta 2>/dev/null | grep -c '^-')
    [ "$back" -eq 0 ] || fail "$1: $back records earlier than the one before them"
}

# The ST fields compared between sender and receiver (everything but time and direction).
ST_FIELDS=(-e gsn.vc -e gsn.src -e gsn.dst -e st.opname -e st.flags -e st.param -e st.sport
    -e st.dport -e st.dkey -e st.checksum -e st.mx -e st.bufx -e st.offset -e st.sync -e st.bnum
    -e st.did -e st.sid -e st.payload_len -e st.flags.channel -e st.tlen)

check_mode() {
    local mode=$1 dir=$TMP/$1
    local hosts=() ports=() f
    for f in "$dir"/*.pcap; do
        case $(linktype "$f") in
        149) hosts+=("$f") ;;
        148) ports+=("$f") ;;
        *) fail "$f: link type $(linktype "$f"), expected 149 (host) or 148 (switch port)" ;;
        esac
        in_time_order "$f"
    done
    [ ${#hosts[@]} -eq 2 ] || fail "$mode: ${#hosts[@]} host files (link type 149), expected 2"
    [ ${#ports[@]} -eq 2 ] || fail "$mode: ${#ports[@]} switch port files (link type 148), expected 2"

    # Per host: time, direction, then the ST fields of every record.
    local h client= server=
    for h in "${hosts[@]}"; do
        run_tshark -r "$h" -T fields -E separator=' ' -E occurrence=f \
            -e frame.time_epoch -e gsn.direction "${ST_FIELDS[@]}" >"$h.txt" 2>"$TMP/err" ||
            fail "tshark failed on $h: $(cat "$TMP/err")"
        [ -s "$h.txt" ] || fail "$h: no records"
        experts=$(run_tshark -r "$h" -Y "gsn.mlen.mismatch || gsn.short || gsn.llc.bad || st.short || st.op.unknown || st.op.local || st.flags.bad || st.field.bad" 2>/dev/null | wc -l)
        [ "$experts" -eq 0 ] || fail "$h: $experts records flagged as malformed"
        # A record's direction: sent ones come from the host's own ULA.
        awk '$2 == 0 { own[$4] = 1 } $2 == 1 { other[$4] = 1 }
             END { n = 0; for (u in own) { n++; if (u in other) bad = 1 } exit (n != 1 || bad) }' "$h.txt" ||
            fail "$h: the records marked sent do not all come from one ULA, or some marked received do too"
        if awk '$2 == 0 && $6 == "RC" { found = 1 } END { exit !found }' "$h.txt"; then
            client=$h
        else
            server=$h
        fi
        # VC: DATA on its data channel (the flags' low two bits), the rest on VC 0.
        awk -v want=$DATAVC '$6 == "DATA" && ($3 != want || $21 != want) { print; bad = 1 }
             $6 != "DATA" && $3 != 0 { print; bad = 1 } END { exit bad }' "$h.txt" >"$TMP/err" ||
            fail "$h: Messages on the wrong VC: $(head -3 "$TMP/err")"
    done
    [ -n "$client" ] && [ -n "$server" ] || fail "$mode: no host sent an RC, or both did"

    # What ST did (the example's own report of host 0, the client).
    local ops bytes
    read -r ops bytes < <(sed -n 's/.*host 0 sent \([0-9]*\) ST operations, \([0-9]*\) data bytes.*/\1 \2/p' "$dir/example.out")
    [ -n "$ops" ] || fail "$mode: no 'host 0 sent' line in the example's output"
    local sent_ops sent_bytes data
    sent_ops=$(awk '$2 == 0' "$client.txt" | wc -l)
    sent_bytes=$(awk '$2 == 0 && $6 == "DATA" { s += $20 } END { print s + 0 }' "$client.txt")
    data=$(awk '$2 == 0 && $6 == "DATA" && $20 == 2^'$BUFSIZE "$client.txt" | wc -l)
    [ "$sent_ops" = "$ops" ] || fail "$mode: the client's file has $sent_ops ST operations sent, the example $ops"
    [ "$sent_bytes" = "$bytes" ] && [ "$bytes" = $((SIZE * TRANSFERS)) ] ||
        fail "$mode: DATA payload sent $sent_bytes bytes, the example $bytes, expected $((SIZE * TRANSFERS))"
    [ "$data" -eq $((SIZE * TRANSFERS >> BUFSIZE)) ] ||
        fail "$mode: $data DATA operations of 2^$BUFSIZE bytes, expected $((SIZE * TRANSFERS >> BUFSIZE))"
    local op
    for op in RC RTS DATA; do
        awk -v op=$op '$2 == 0 && $6 == op { f = 1 } END { exit !f }' "$client.txt" ||
            fail "$mode: the client sent no $op"
        awk -v op=$op '$2 == 1 && $6 == op { f = 1 } END { exit !f }' "$server.txt" ||
            fail "$mode: the server received no $op"
    done
    for op in CA CTS; do
        awk -v op=$op '$2 == 0 && $6 == op { f = 1 } END { exit !f }' "$server.txt" ||
            fail "$mode: the server sent no $op"
        awk -v op=$op '$2 == 1 && $6 == op { f = 1 } END { exit !f }' "$client.txt" ||
            fail "$mode: the client received no $op"
    done
    # The fields of what the example asked for: each RTS for SIZE bytes, the RC's Bufsize,
    # the DATA of a transfer into Bufx 0, 1, ... at offset 0, with the R_id of a CTS.
    # (Columns: 6 op, 14 Bufx, 15 Offset, 18 D_id, 19 S_id, 20 payload, 22 T_len.)
    local rts
    rts=$(awk -v n=$SIZE '$2 == 0 && $6 == "RTS" { if ($22 != n) bad = 1; k++ } END { print bad ? -1 : k + 0 }' "$client.txt")
    [ "$rts" = $TRANSFERS ] || fail "$mode: RTS T_len not $SIZE, or not $TRANSFERS RTS (got $rts)"
    awk -v b=$BUFSIZE '$2 == 0 && $6 == "RC" && $14 == b { f = 1 } END { exit !f }' "$client.txt" ||
        fail "$mode: the RC does not carry Bufsize $BUFSIZE"
    awk -v per=$((SIZE >> BUFSIZE)) '$2 == 0 && $6 == "DATA" { if ($14 != k % per || $15 != 0) bad = 1; k++ }
         END { exit bad }' "$client.txt" || fail "$mode: DATA not into Bufx 0, 1, ... at offset 0"
    diff <(awk '$2 == 1 && $6 == "CTS" { print $19 }' "$client.txt" | sort -u) \
        <(awk '$2 == 0 && $6 == "DATA" { print $18 }' "$client.txt" | sort -u) >/dev/null ||
        fail "$mode: the DATA's R_ids are not those of the CTSs"
    # Field by field: what one host sent is what the other received (per VC in order).
    local a b
    for a in "$client" "$server"; do
        b=$([ "$a" = "$client" ] && echo "$server" || echo "$client")
        diff <(awk '$2 == 0 { $1 = ""; $2 = ""; print }' "$a.txt" | sort -s -k1,1n) \
            <(awk '$2 == 1 { $1 = ""; $2 = ""; print }' "$b.txt" | sort -s -k1,1n) >"$TMP/err" ||
            fail "$mode: what $(basename "$a") sent differs from what $(basename "$b") received: $(head -5 "$TMP/err")"
    done

    # Switch ports: micropackets both ways, every LCRC good. The host on a port's link is the
    # ULA its Headers come from and go to.
    local p host ula rx_sent tx_recv
    for p in "${ports[@]}"; do
        run_tshark -r "$p" -T fields -E separator=' ' -E occurrence=f \
            -e frame.time_epoch -e gsn_mp.type -e gsn_mp.vc -e gsn.src -e gsn.dst \
            -e gsn_mp.lcrc.good >"$p.txt" 2>"$TMP/err" || fail "tshark failed on $p: $(cat "$TMP/err")"
        bad=$(awk '$NF != "1" && $NF != "True"' "$p.txt" | wc -l)
        [ "$bad" -eq 0 ] || fail "$p: $bad micropackets with a bad LCRC"
        types=$(awk '{ print $2 }' "$p.txt" | sort -u | tr '\n' ' ')
        for t in 0x08 0x09; do
            [[ $types == *$t* ]] || fail "$p: no micropacket of TYPE $t (types seen: $types)"
        done
        ula=
        for host in "$client" "$server"; do
            u=$(awk '$2 == 0 { print $4; exit }' "$host.txt")
            if awk -v u="$u" '$2 == "0x09" && $4 == u { f = 1 } END { exit !f }' "$p.txt"; then
                ula=$u
                break
            fi
        done
        [ -n "$ula" ] || fail "$p: no Header micropacket from either host"
        # Headers from the host: one per Message it sent, each a constant delay (cable and
        # one micropacket time) after the host's record of it.
        paste -d ' ' <(awk '$2 == 0 { print $1 }' "$host.txt") \
            <(awk -v u="$ula" '$2 == "0x09" && $4 == u { print $1 }' "$p.txt") >"$TMP/pairs"
        rx_sent=$(awk -v u="$ula" '$2 == "0x09" && $4 == u' "$p.txt" | wc -l)
        [ "$rx_sent" -eq "$(awk '$2 == 0' "$host.txt" | wc -l)" ] ||
            fail "$p: $rx_sent Headers from $ula, but its host sent $(awk '$2 == 0' "$host.txt" | wc -l) Messages"
        awk '{ d = sprintf("%.9f", $2 - $1); if (NR == 1) first = d; else if (d != first) { print NR, d, first; bad = 1 }
               if (d <= 0) bad = 1 } END { exit bad }' "$TMP/pairs" >"$TMP/err" ||
            fail "$p: Header arrivals not a constant delay after their host sent them: $(head -3 "$TMP/err")"
        # Headers to the host: one per Message it received, each before the host's record
        # (the arrival of its Tail).
        tx_recv=$(awk -v u="$ula" '$2 == "0x09" && $5 == u' "$p.txt" | wc -l)
        [ "$tx_recv" -eq "$(awk '$2 == 1' "$host.txt" | wc -l)" ] ||
            fail "$p: $tx_recv Headers to $ula, but its host received $(awk '$2 == 1' "$host.txt" | wc -l) Messages"
        paste -d ' ' <(awk -v u="$ula" '$2 == "0x09" && $5 == u { print $1 }' "$p.txt") \
            <(awk '$2 == 1 { print $1 }' "$host.txt") | awk '$2 <= $1 { bad = 1 } END { exit bad }' ||
            fail "$p: a Message reached $ula before the switch sent its Header"
    done
    echo "test-st-dissector: $mode: $sent_ops ST operations from the client, $data DATA," \
        "switch ports $(cat "${ports[@]/%/.txt}" | wc -l) micropackets"
}

check_mode Micropacket
check_mode Run

# Both modes: the same ST operations at the hosts, in the same order; at each switch port the
# same Header and Data micropackets (VC, TYPE, T, data), every one of them written in the Run
# mode too. (Their times may differ: with traffic both ways the Run mode is not exact.)
message_micropackets() {
    run_tshark -r "$1" -Y "gsn_mp.type == 0x8 || gsn_mp.type == 0x9" -T fields -E separator=' ' \
        -e gsn_mp.vc -e gsn_mp.type -e gsn_mp.tail -e gsn_mp.data 2>/dev/null | sort
}
for f in "$TMP"/Micropacket/*.pcap; do
    g=$TMP/Run/$(basename "$f")
    [ -f "$g.txt" ] || fail "Run mode wrote no $(basename "$f")"
    if [ "$(linktype "$f")" = 149 ]; then
        diff <(cut -d' ' -f2- "$f.txt") <(cut -d' ' -f2- "$g.txt") >"$TMP/err" ||
            fail "$(basename "$f"): other ST operations in the Run mode: $(head -5 "$TMP/err")"
    else
        message_micropackets "$f" >"$f.mp"
        message_micropackets "$g" >"$g.mp"
        [ -s "$f.mp" ] || fail "$(basename "$f"): no Header or Data micropacket"
        diff "$f.mp" "$g.mp" >"$TMP/err" ||
            fail "$(basename "$f"): other Header/Data micropackets in the Run mode ($(wc -l <"$f.mp") and $(wc -l <"$g.mp")): $(head -4 "$TMP/err")"
    fi
done

# ST over Ethernet: the st dissector on Wireshark's ethertype table.
eth=$(ls "$TMP"/st-over-ethernet-*.pcap 2>/dev/null | head -1)
[ -n "$eth" ] || fail "st-over-ethernet wrote no pcap file"
run_tshark -r "$eth" -Y st -T fields -E separator=' ' -e frame.protocols -e st.opname \
    >"$TMP/eth.txt" 2>"$TMP/err" || fail "tshark failed on $eth: $(cat "$TMP/err")"
[ -s "$TMP/eth.txt" ] || fail "$eth: no ST operation dissected"
awk '$1 !~ /^eth:ethertype:st(:data)?$/ { print; bad = 1 } END { exit bad }' "$TMP/eth.txt" >"$TMP/err" ||
    fail "$eth: ST frames not dissected as eth:ethertype:st: $(head -3 "$TMP/err")"
for op in RC CA RTS CTS DATA; do
    grep -q " $op\$" "$TMP/eth.txt" || fail "$eth: no $op operation dissected"
done

echo "test-st-dissector: PASS ($("$TSHARK" -v 2>/dev/null | head -1))"
exit 0
