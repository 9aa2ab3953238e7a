#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checks the Wireshark dissector tools/gsn.lua against the pcap traces the gsn module writes.
# It builds nothing: it runs the already built example gsn-two-hosts with pcap tracing in a
# temporary folder, reads the traces (link type 149: Messages behind the VC pseudo-header)
# with tshark and the dissector, and compares the fields with what the example sent. It also
# feeds the dissector hand-made records on link type 147 (a corrupted M_len, an IPv4 payload,
# an ST RTS and a truncated ST header) and micropacket records with a good and a bad LCRC.
# tools/test-st-dissector.sh checks the switch ports' traces and the st dissector on an ST
# example's traces.
#
# Usage: tools/test-dissector.sh [BUILD_DIR]     (default: build/ at the repository root)
# Environment: TSHARK=path of tshark (default: tshark on PATH).
# Exit codes: 0 passed, 1 failed, 77 skipped (tshark missing, or its Lua support unusable).

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
LUA=$ROOT/tools/gsn.lua
TSHARK=${TSHARK:-tshark}
EXAMPLE=$BUILD/examples/gsn-two-hosts
SKIP=77

fail() {
    echo "test-dissector: FAIL: $*" >&2
    exit 1
}

skip() {
    echo "test-dissector: SKIP: $*" >&2
    exit $SKIP
}

command -v "$TSHARK" >/dev/null 2>&1 || skip "tshark is not installed (Debian: apt-get install tshark)"
[ -r "$LUA" ] || fail "dissector $LUA not found"
[ -x "$EXAMPLE" ] || fail "$EXAMPLE not found: build the examples first (BUILD_DIR=$BUILD)"
if "$TSHARK" -v 2>/dev/null | grep -qi 'without Lua'; then
    skip "this tshark was built without Lua"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gsn-dissector.XXXXXX") || fail "cannot create a temporary folder"
trap 'rm -rf "$TMP"' EXIT
# A private HOME: no personal preferences, disabled protocols or plugins (an installed copy
# of gsn.lua would clash with the one loaded here) leak into the test.
mkdir -p "$TMP/home"

# ---------------------------------------------------------------------------------------
# 1. Traces from the example: 100-byte payloads on VC 2, so M_len = 8 (LLC/SNAP) + 100 = 108,
#    records of 4 (pseudo-header) + 16 + 108 bytes.

(cd "$TMP" && "$EXAMPLE" --pcap=1 --duration=200us --size=100 --vc=2 >example.out 2>&1) ||
    fail "gsn-two-hosts failed: $(cat "$TMP/example.out")"
for i in 0 1; do
    [ -s "$TMP/gsn-two-hosts-$i-0.pcap" ] || fail "gsn-two-hosts wrote no gsn-two-hosts-$i-0.pcap"
done

# How tshark is run. As root, tshark warns, and some Wireshark versions (or an init.lua with
# enable_lua/run_user_scripts_when_superuser off) refuse to run user Lua scripts; there is no
# -o preference to change that. Then tshark runs as an unprivileged user instead.
RUNAS=()
run_tshark() {
    HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
        "${RUNAS[@]}" "$TSHARK" -X "lua_script:$LUA" "$@"
}

lua_loaded() {
    local err
    err=$(run_tshark -r "$TMP/gsn-two-hosts-0-0.pcap" -c 1 -T fields -e gsn.mlen 2>&1 >/dev/null)
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
        chmod 755 "$TMP" "$TMP/home"
        chmod 644 "$TMP"/*.pcap
        if command -v setpriv >/dev/null 2>&1; then
            RUNAS=(setpriv --reuid="$(id -u $unprivileged)" --regid="$(id -g $unprivileged)"
                --clear-groups --)
        elif command -v runuser >/dev/null 2>&1; then
            RUNAS=(runuser -u $unprivileged --)
        fi
        if [ ${#RUNAS[@]} -eq 0 ] || ! lua_loaded; then
            skip "tshark does not load Lua scripts as root and could not run as '$unprivileged'" \
                "(set run_user_scripts_when_superuser = true in Wireshark's init.lua):" \
                "$LAST_ERR"
        fi
        echo "test-dissector: tshark refuses Lua as root; running it as '$unprivileged'"
    else
        skip "tshark does not load $LUA (Lua disabled in init.lua?): $LAST_ERR"
    fi
fi

ula0=00:00:00:00:00:01
ula1=00:00:00:00:00:02
for i in 0 1; do
    pcap=$TMP/gsn-two-hosts-$i-0.pcap
    own=$([ $i = 0 ] && echo $ula0 || echo $ula1)
    linktype=$(od -An -tu4 -j20 -N4 "$pcap" | tr -d ' ')
    [ "$linktype" = 149 ] || fail "$pcap: link type $linktype, expected 149 (LINKTYPE_USER2)"
    out=$(run_tshark -r "$pcap" -T fields -E separator=' ' \
        -e gsn.mlen -e gsn.dst -e gsn.src -e gsn.ethertype -e gsn.record_len \
        -e gsn.vc -e gsn.direction -e frame.len 2>"$TMP/err") ||
        fail "tshark failed on $pcap: $(cat "$TMP/err")"
    [ -n "$out" ] || fail "no records dissected in $pcap"
    n=0
    sent=0
    received=0
    while read -r mlen dst src etype reclen vc dir flen; do
        n=$((n + 1))
        [ "$mlen" = 108 ] || fail "$pcap record $n: M_len $mlen, expected 108"
        [ "$reclen" = 124 ] || fail "$pcap record $n: record length $reclen, expected 124"
        [ "$flen" = 128 ] || fail "$pcap record $n: frame length $flen, expected 4 + 124"
        [ "$etype" = 0x88b5 ] || fail "$pcap record $n: EtherType $etype, expected 0x88b5"
        [ "$vc" = 2 ] || fail "$pcap record $n: VC '$vc', expected 2 (--vc=2)"
        if [ "$src" = "$own" ]; then
            [ "$dir" = 0 ] || fail "$pcap record $n: sent by this host but direction '$dir'"
        else
            [ "$dir" = 1 ] || fail "$pcap record $n: received by this host but direction '$dir'"
        fi
        if [ "$src" = $ula0 ] && [ "$dst" = $ula1 ]; then
            sent=$((sent + 1))
        elif [ "$src" = $ula1 ] && [ "$dst" = $ula0 ]; then
            received=$((received + 1))
        else
            fail "$pcap record $n: S_ULA $src D_ULA $dst, expected $ula0 and $ula1 either way"
        fi
    done <<<"$out"
    # Three Messages each way in 200 us at the default 70 us interval.
    [ $sent -eq 3 ] && [ $received -eq 3 ] ||
        fail "$pcap: $sent records one way and $received the other, expected 3 and 3"
    experts=$(run_tshark -r "$pcap" -Y "gsn.mlen.mismatch || gsn.short || gsn.llc.bad" 2>/dev/null | wc -l)
    [ "$experts" -eq 0 ] || fail "$pcap: $experts records flagged as malformed"
done

# ---------------------------------------------------------------------------------------
# 2. Hand-made records.

# Write a pcap file: write_pcap FILE LINKTYPE HEX...  (one hex string per record)
le32() {
    printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $((($1 >> 8) & 255)))"
    printf "\\x$(printf %02x $((($1 >> 16) & 255)))\\x$(printf %02x $((($1 >> 24) & 255)))"
}
hex2bin() {
    printf '%b' "$(sed 's/../\\x&/g' <<<"$1")"
}
write_pcap() {
    local file=$1 linktype=$2 t=0 hex
    shift 2
    {
        printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00'
        le32 0
        le32 0
        le32 65535
        le32 "$linktype"
        for hex in "$@"; do
            t=$((t + 1))
            le32 0
            le32 $t
            le32 $((${#hex} / 2))
            le32 $((${#hex} / 2))
            hex2bin "$hex"
        done
    } >"$file"
}

# An IPv4 datagram (20-byte header, 192.0.2.1 -> 192.0.2.2, protocol 253) in a Message, then
# the same Message with a wrong M_len, then ST Messages (EtherType 0x8181): an RTS (flags S, I,
# data channel 3; CTS_req 64, ports 5001 -> 5000, R_Key 0x0a, Max_Block 24, T_len 2^32 + 5,
# I_id 7) and 12 bytes of a header.
ip=4500001400010000fdff0000c0000201c0000202
good_ip=0000001c000000000002000000000001aaaa030000000800$ip
bad_mlen=0000001d000000000002000000000001aaaa030000000800$ip
rts=b0630040138813890000000a00000018000000000000000000000001000000050000000000000007
st=00000030000000000002000000000001aaaa030000008181$rts
st_short=00000014000000000002000000000001aaaa030000008181b06300401388138900000000
write_pcap "$TMP/handmade.pcap" 147 "$good_ip" "$bad_mlen" "$st" "$st_short"
chmod 644 "$TMP/handmade.pcap"
out=$(run_tshark -r "$TMP/handmade.pcap" -T fields -E separator='|' -E occurrence=f \
    -e gsn.mlen -e gsn.ethertype -e ip.src -e ip.dst -e frame.protocols \
    2>"$TMP/err") || fail "tshark failed on hand-made records: $(cat "$TMP/err")"
mapfile -t lines <<<"$out"
IFS='|' read -r mlen etype isrc idst protos <<<"${lines[0]}"
[ "$mlen $etype $isrc $idst" = "28 0x0800 192.0.2.1 192.0.2.2" ] ||
    fail "IPv4 record: got '${lines[0]}'; expected M_len 28, EtherType 0x0800 and the IP addresses"
[[ $protos == *gsn:ip* ]] || fail "IPv4 record: protocols '$protos', expected the ip dissector"
[ "$(run_tshark -r "$TMP/handmade.pcap" -Y gsn.mlen.mismatch -T fields -e frame.number 2>/dev/null)" = 2 ] ||
    fail "a wrong M_len (record 2) was not flagged with gsn.mlen.mismatch (or a good one was)"
IFS='|' read -r mlen etype _ _ protos <<<"${lines[2]}"
[ "$mlen $etype" = "48 0x8181" ] || fail "ST record: got '${lines[2]}'"
# 0x8181 goes to the st dissector of gsn.lua (not to Wireshark's 0x8181 spanning tree).
[ "$protos" = gsn:st ] || fail "ST record: protocols '$protos', expected gsn:st"
out=$(run_tshark -r "$TMP/handmade.pcap" -Y "frame.number == 3" -T fields -E separator=' ' \
    -e st.opname -e st.flags.channel -e st.flags.send_state -e st.flags.interrupt -e st.param \
    -e st.sport -e st.dport -e st.dkey -e st.mx -e st.tlen -e st.sid -e st.payload_len \
    -e _ws.col.Info 2>"$TMP/err") || fail "tshark failed on the ST record: $(cat "$TMP/err")"
case "$out" in
"RTS 3 "[1T]*" "[1T]*" 64 5001 5000 0x0000000a 24 4294967301 7 0 RTS 5001->5000 T_len=4294967301 I_id=7 [S,I]") ;;
*) fail "ST RTS record: got '$out'" ;;
esac
[ "$(run_tshark -r "$TMP/handmade.pcap" -Y st.short -T fields -e frame.number 2>/dev/null)" = 4 ] ||
    fail "a truncated ST header (record 4) was not flagged with st.short (or a whole one was)"

# Micropacket records (LINKTYPE_USER1), as GsnMicropacket::Serialize writes them: a Header
# micropacket (VC 1, TSEQ 7, RSEQ 3, 63 credits for VC 2), a Credit-only micropacket
# whose data byte 5 was flipped after the LCRC was computed, and an Initialize_Ack answering
# Initialize number 6 (in TSEQ), RSEQ 255.
mp_header=00000030000000000002000000000001aaaa030000000800000000000000000064bf030740f36516
mp_bad=000000000010000000000000000000000000000000000000000000000000000028d1000a00002c67
mp_init_ack=00000000000000000000000000000000000000000000000000000000000000001400ff060000ab79
write_pcap "$TMP/micropackets.pcap" 148 "$mp_header" "$mp_bad" "$mp_init_ack"
chmod 644 "$TMP/micropackets.pcap"
out=$(run_tshark -r "$TMP/micropackets.pcap" -T fields -E separator=' ' \
    -e gsn_mp.type -e gsn_mp.vc -e gsn_mp.tseq -e gsn_mp.rseq -e gsn_mp.vcr -e gsn_mp.cr \
    -e gsn_mp.lcrc.good -e gsn.dst -e gsn_mp.handshake -e _ws.col.Info 2>"$TMP/err") ||
    fail "tshark failed on micropacket records: $(cat "$TMP/err")"
mapfile -t lines <<<"$out"
case "${lines[0]}" in
"0x09 1 7 3 2 63 "[1T]*" $ula1  Header VC=1 TSEQ=7 RSEQ=3 CR=63@VC2") ;;
*) fail "Header micropacket: got '${lines[0]}'" ;;
esac
case "${lines[1]}" in
"0x0a 0 10 0 3 17 "[0F]*) ;;
*) fail "corrupted Credit-only micropacket: got '${lines[1]}' (LCRC should be bad)" ;;
esac
case "${lines[2]}" in
"0x05 0  255 0 0 "[1T]*"  6 Initialize_Ack #6 VC=0 RSEQ=255") ;;
*) fail "Initialize_Ack: got '${lines[2]}' (handshake number 6, no TSEQ)" ;;
esac

echo "test-dissector: PASS ($("$TSHARK" -v 2>/dev/null | head -1))"
exit 0
