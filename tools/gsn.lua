-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark / tshark dissectors for the pcap traces of the ns-3 gsn module.
--
--   gsn     GSN Message records, pcap link type LINKTYPE_USER0 (147), as GsnHelper writes
--           them: one record per Message from byte 0 of its Header micropacket:
--             M_len (4, big-endian) | D_ULA (6) | S_ULA (6) | LLC/SNAP (8) | payload
--           M_len counts the bytes after S_ULA, so a whole record is 16 + M_len bytes.
--           The payload goes to Wireshark's "ethertype" table (IPv4, ARP, ...); EtherType
--           0x8181 (Scheduled Transfer) goes to a dissector named "st" when one is loaded.
--   gsn     the same Message records behind a 4-byte pseudo-header, pcap link type
--           LINKTYPE_USER2 (149), GsnHelper's default (GsnPcapHeader):
--             VC (1) | direction (1: 0 sent by the traced endpoint, 1 received) | reserved (2)
--   gsn_mp  single micropackets, pcap link type LINKTYPE_USER1 (148), 40 bytes each as
--           GsnMicropacket::Serialize writes them (src/gsn/model/gsn-micropacket.h):
--             data (32) | VC(2) TYPE(4) T(1) E(1) | VCR(2) CR(6) | RSEQ | TSEQ | ECRC(16) |
--             LCRC(16)
--           with the LCRC checked (CRC-16/CCITT, initial value 0xFFFF, polynomial 0x1021,
--           not reflected, over bytes 0-37). GsnHelper writes them for switch ports.
--   st      Scheduled Transfer operations (EtherType 0x8181): the 40-byte ST header
--           (src/st/core/st-header.cc), big-endian:
--             OpFlags (2: Op 5 bits, flags 11 bits) | Param (2) | D_Port (2) | S_Port (2) |
--             D_Key (4) | Checksum (2) | Mx (2) | Bufx (4) | Offset (4) | Sync (4) |
--             B_num (4) | D_id (4) | S_id (4) | payload
--           each field also named by its meaning in the operation (RC's Mx is its EtherType,
--           CTS's Param its Blocksize, ...). Over GSN the gsn dissector hands it 0x8181
--           payloads; over Ethernet it is registered on the ethertype table for 0x8181.
--
-- Use:  tshark -X lua_script:tools/gsn.lua -r gsn-two-hosts-0-0.pcap -V
--       wireshark -X lua_script:tools/gsn.lua gsn-two-hosts-0-0.pcap
-- or copy the file into Wireshark's personal Lua plugin folder.
--
-- Display filter fields: gsn.vc gsn.direction gsn.mlen gsn.dst gsn.src gsn.addr gsn.llc.dsap
-- gsn.llc.ssap gsn.llc.control gsn.snap.oui gsn.ethertype gsn.record_len; gsn_mp.vc gsn_mp.type
-- gsn_mp.tail gsn_mp.error gsn_mp.vcr gsn_mp.cr gsn_mp.rseq gsn_mp.tseq gsn_mp.ecrc
-- gsn_mp.lcrc gsn_mp.lcrc.good gsn_mp.lcrc.calculated gsn_mp.data; st.op st.opname st.flags
-- st.flags.channel st.flags.reject st.flags.last st.flags.order st.flags.send_state
-- st.flags.interrupt st.flags.silent st.flags.fetchop st.param st.dport st.sport st.port
-- st.dkey st.checksum st.mx st.bufx st.offset st.sync st.bnum st.did st.sid st.tlen
-- st.payload_len

-- ------------------------------------------------------------------------------------------
-- Bit operations that work on every Lua Wireshark has shipped with (5.1 + bitop, 5.2 bit32,
-- 5.3/5.4 native operators; the latter are compiled at run time so that older Luas can still
-- parse this file).

local bxor, band, lshift, rshift
if bit32 then
    bxor, band, lshift, rshift = bit32.bxor, bit32.band, bit32.lshift, bit32.rshift
elseif bit then
    bxor, band, lshift, rshift = bit.bxor, bit.band, bit.lshift, bit.rshift
else
    local ops = load([[
        return function(a, b) return a ~ b end,
               function(a, b) return a & b end,
               function(a, n) return a << n end,
               function(a, n) return a >> n end
    ]])
    bxor, band, lshift, rshift = ops()
end

-- CRC-16/CCITT, MSB first, one table lookup per byte.
local crc_table = {}
for i = 0, 255 do
    local c = lshift(i, 8)
    for _ = 1, 8 do
        if band(c, 0x8000) ~= 0 then
            c = band(bxor(lshift(c, 1), 0x1021), 0xFFFF)
        else
            c = band(lshift(c, 1), 0xFFFF)
        end
    end
    crc_table[i] = c
end

local function crc16(tvb, offset, len, crc)
    crc = crc or 0xFFFF
    for i = offset, offset + len - 1 do
        local idx = band(bxor(rshift(crc, 8), tvb(i, 1):uint()), 0xFF)
        crc = band(bxor(lshift(crc, 8), crc_table[idx]), 0xFFFF)
    end
    return crc
end

-- ------------------------------------------------------------------------------------------
-- Shared names

local ETHERTYPE_ST = 0x8181

local ethertype_names = {
    [0x0800] = "IPv4",
    [0x0806] = "ARP/HARP",
    [0x86DD] = "IPv6",
    [0x8181] = "Scheduled Transfer",
    [0x88B5] = "Local experimental",
    [0x88B6] = "Local experimental",
}

local mp_type_names = {
    [0x2] = "Reset",
    [0x3] = "Reset_Ack",
    [0x4] = "Initialize",
    [0x5] = "Initialize_Ack",
    [0x7] = "Null",
    [0x8] = "Data",
    [0x9] = "Header",
    [0xA] = "Credit-only",
    [0xF] = "Admin",
}

local function mp_type_name(t)
    return mp_type_names[t] or "Reserved"
end

-- ------------------------------------------------------------------------------------------
-- gsn: Message records (LINKTYPE_USER0)

local gsn = Proto("gsn", "Gigabyte System Network (HIPPI-6400) Message")

local f_mlen = ProtoField.uint32("gsn.mlen", "M_len", base.DEC, nil, nil,
                                 "Message length after the addressing bytes")
local f_dst = ProtoField.ether("gsn.dst", "D_ULA", "Destination ULA")
local f_src = ProtoField.ether("gsn.src", "S_ULA", "Source ULA")
local f_addr = ProtoField.ether("gsn.addr", "ULA", "Source or destination ULA")
local f_dsap = ProtoField.uint8("gsn.llc.dsap", "DSAP", base.HEX)
local f_ssap = ProtoField.uint8("gsn.llc.ssap", "SSAP", base.HEX)
local f_control = ProtoField.uint8("gsn.llc.control", "Control", base.HEX)
local f_oui = ProtoField.uint24("gsn.snap.oui", "OUI", base.HEX)
local f_ethertype = ProtoField.uint16("gsn.ethertype", "EtherType", base.HEX, ethertype_names)
local f_reclen = ProtoField.uint32("gsn.record_len", "Record length", base.DEC, nil, nil,
                                   "Bytes in the pcap record (16 + M_len when intact)")
local f_payload8 = ProtoField.bytes("gsn.payload_head", "First payload bytes")
local direction_names = { [0] = "Sent", [1] = "Received" }
local f_vc = ProtoField.uint8("gsn.vc", "VC", base.DEC, nil, nil,
                              "Virtual channel of the Message (pseudo-header)")
local f_direction = ProtoField.uint8("gsn.direction", "Direction", base.DEC, direction_names,
                                     nil, "Sent or received by the traced endpoint")
local f_pseudo_reserved = ProtoField.uint16("gsn.pseudo.reserved", "Reserved", base.HEX)

gsn.fields = { f_mlen, f_dst, f_src, f_addr, f_dsap, f_ssap, f_control, f_oui, f_ethertype,
               f_reclen, f_payload8, f_vc, f_direction, f_pseudo_reserved }

local e_mlen = ProtoExpert.new("gsn.mlen.mismatch", "M_len does not match the record length",
                               expert.group.MALFORMED, expert.severity.ERROR)
local e_short = ProtoExpert.new("gsn.short", "Record too short for a GSN Message",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_llc = ProtoExpert.new("gsn.llc.bad", "Not an LLC/SNAP header (AA AA 03 00 00 00)",
                              expert.group.MALFORMED, expert.severity.WARN)
gsn.experts = { e_mlen, e_short, e_llc }

local ethertype_table = DissectorTable.get("ethertype")
local data_dissector = Dissector.get("data")

-- The "st" dissector, looked up when first needed: it may be loaded after this script.
local function find_st_dissector()
    local ok, d = pcall(Dissector.get, "st")
    if ok then
        return d
    end
    return nil
end

-- Add the addressing bytes (M_len, D_ULA, S_ULA) and, if present, the LLC/SNAP header of a
-- Message that starts at \p offset of \p tvb. Returns M_len, EtherType (nil if absent) and
-- whether the LLC/SNAP header has the expected fixed bytes.
local function add_message_head(tvb, offset, tree)
    local available = tvb:len() - offset
    local mlen = tvb(offset, 4):uint()
    tree:add(f_mlen, tvb(offset, 4))
    tree:add(f_dst, tvb(offset + 4, 6))
    tree:add(f_src, tvb(offset + 10, 6))
    local a = tree:add(f_addr, tvb(offset + 4, 6))
    a:set_hidden()
    a = tree:add(f_addr, tvb(offset + 10, 6))
    a:set_hidden()
    if available < 24 then
        return mlen, nil, false
    end
    local llc = tree:add(tvb(offset + 16, 8), "802.2 LLC/SNAP")
    llc:add(f_dsap, tvb(offset + 16, 1))
    llc:add(f_ssap, tvb(offset + 17, 1))
    llc:add(f_control, tvb(offset + 18, 1))
    llc:add(f_oui, tvb(offset + 19, 3))
    llc:add(f_ethertype, tvb(offset + 22, 2))
    local snap_ok = tvb(offset + 16, 1):uint() == 0xAA and tvb(offset + 17, 1):uint() == 0xAA
        and tvb(offset + 18, 1):uint() == 0x03 and tvb(offset + 19, 3):uint() == 0
    if not snap_ok then
        llc:add_proto_expert_info(e_llc)
    end
    return mlen, tvb(offset + 22, 2):uint(), snap_ok
end

-- Dissect a Message record; \p pseudo, if given, is the range of its pseudo-header
-- (link type 149). Returns the VC and direction of the pseudo-header (nil without one).
local function dissect_message(tvb, pinfo, root, pseudo)
    pinfo.cols.protocol = "GSN"
    local reported = tvb:reported_len()
    local tree = root:add(gsn, tvb(0, math.min(tvb:len(), 24)))
    if pseudo then
        local vc = pseudo(0, 1):uint()
        local dir = pseudo(1, 1):uint()
        local ph = tree:add(pseudo, string.format("Pseudo-header: VC %d, %s", vc,
                                                  direction_names[dir] or "unknown direction"))
        ph:add(f_vc, pseudo(0, 1))
        ph:add(f_direction, pseudo(1, 1))
        ph:add(f_pseudo_reserved, pseudo(2, 2))
        tree:append_text(string.format(", VC %d, %s", vc, direction_names[dir] or "?"))
    end
    if tvb:len() < 16 then
        tree:add_proto_expert_info(e_short,
            string.format("Record of %d bytes: a GSN Message needs at least 24", reported))
        pinfo.cols.info = "Malformed GSN Message"
        return
    end

    local mlen, ethertype, snap_ok = add_message_head(tvb, 0, tree)
    local rl = tree:add(f_reclen, reported)
    rl:set_generated()
    if 16 + mlen ~= reported then
        tree:add_proto_expert_info(e_mlen,
            string.format("M_len %d but the record holds %d bytes after S_ULA", mlen,
                          reported - 16))
    end

    local src = tvb(10, 6):ether()
    local dst = tvb(4, 6):ether()
    pinfo.dl_src = src
    pinfo.dl_dst = dst
    pinfo.src = src
    pinfo.dst = dst

    if ethertype == nil then
        tree:add_proto_expert_info(e_short,
            string.format("Record of %d bytes ends inside the LLC/SNAP header", reported))
        pinfo.cols.info = string.format("M_len=%d (truncated)", mlen)
        return
    end

    local etname = ethertype_names[ethertype] or string.format("0x%04x", ethertype)
    tree:append_text(string.format(", M_len %d, %s", mlen, etname))
    pinfo.cols.info = string.format("M_len=%d EtherType=0x%04x (%s)", mlen, ethertype, etname)

    if tvb:len() <= 24 then
        return
    end
    local payload = tvb(24):tvb()
    if not snap_ok then
        data_dissector:call(payload, pinfo, root)
        return
    end
    if ethertype == ETHERTYPE_ST then
        -- Wireshark's ethertype table gives 0x8181 to a spanning-tree variant; over GSN it is
        -- always Scheduled Transfer, so only a dissector named "st" gets it.
        local st = find_st_dissector()
        if st then
            st:call(payload, pinfo, root)
        else
            data_dissector:call(payload, pinfo, root)
        end
        return
    end
    local consumed = ethertype_table:try(ethertype, payload, pinfo, root)
    if not consumed or consumed == 0 then
        data_dissector:call(payload, pinfo, root)
    end
end

function gsn.dissector(tvb, pinfo, root)
    dissect_message(tvb, pinfo, root, nil)
end

-- gsn_vc: Message records behind the pseudo-header (LINKTYPE_USER2). The fields are the gsn
-- dissector's (gsn.vc, gsn.direction, then gsn.mlen ...).
local gsn_vc = Proto("gsn_vc", "Gigabyte System Network (HIPPI-6400) Message with VC")

local e_pseudo_short = ProtoExpert.new("gsn.pseudo.short",
                                       "Record too short for the 4-byte pseudo-header",
                                       expert.group.MALFORMED, expert.severity.ERROR)
gsn_vc.experts = { e_pseudo_short }

function gsn_vc.dissector(tvb, pinfo, root)
    if tvb:len() < 4 then
        pinfo.cols.protocol = "GSN"
        local t = root:add(gsn, tvb())
        t:add_proto_expert_info(e_pseudo_short)
        pinfo.cols.info = "Malformed GSN record"
        return
    end
    local vc = tvb(0, 1):uint()
    local dir = tvb(1, 1):uint()
    local rest
    if tvb:len() > 4 then
        rest = tvb(4):tvb()
    else
        rest = ByteArray.new():tvb("Empty Message")
    end
    dissect_message(rest, pinfo, root, tvb(0, 4))
    pinfo.cols.info:prepend(string.format("%s VC%d: ", dir == 1 and "Rx" or "Tx", vc))
end

-- ------------------------------------------------------------------------------------------
-- gsn_mp: micropacket records (LINKTYPE_USER1)

local gsn_mp = Proto("gsn_mp", "Gigabyte System Network (HIPPI-6400) micropacket")

local m_data = ProtoField.bytes("gsn_mp.data", "Data")
local m_vc = ProtoField.uint8("gsn_mp.vc", "VC", base.DEC, nil, 0xC0, "Virtual channel")
local m_type = ProtoField.uint8("gsn_mp.type", "TYPE", base.HEX, mp_type_names, 0x3C)
local m_tail = ProtoField.bool("gsn_mp.tail", "T (Tail)", 8, nil, 0x02,
                               "Last micropacket of a Message")
local m_error = ProtoField.bool("gsn_mp.error", "E (Error)", 8, nil, 0x01)
local m_vcr = ProtoField.uint8("gsn_mp.vcr", "VCR", base.DEC, nil, 0xC0,
                               "VC the returned credits are for (reverse link)")
local m_cr = ProtoField.uint8("gsn_mp.cr", "CR", base.DEC, nil, 0x3F,
                              "Credits returned (reverse link)")
local m_rseq = ProtoField.uint8("gsn_mp.rseq", "RSEQ", base.DEC, nil, nil,
                                "Last TSEQ received in order on the reverse link")
local m_tseq = ProtoField.uint8("gsn_mp.tseq", "TSEQ", base.DEC)
local m_handshake = ProtoField.uint8("gsn_mp.handshake", "Handshake number", base.DEC, nil, nil,
                                     "Reset/Initialize: the request's number, carried in TSEQ")
local m_ecrc = ProtoField.uint16("gsn_mp.ecrc", "ECRC", base.HEX, nil, nil,
                                 "End-to-end CRC of the Message up to this micropacket")
local m_lcrc = ProtoField.uint16("gsn_mp.lcrc", "LCRC", base.HEX)
local m_lcrc_calc = ProtoField.uint16("gsn_mp.lcrc.calculated", "Calculated LCRC", base.HEX)
local m_lcrc_good = ProtoField.bool("gsn_mp.lcrc.good", "LCRC good")
local m_trailer = ProtoField.bytes("gsn_mp.trailer", "Bytes after the micropacket")

gsn_mp.fields = { m_data, m_vc, m_type, m_tail, m_error, m_vcr, m_cr, m_rseq, m_tseq,
                  m_handshake, m_ecrc, m_lcrc, m_lcrc_calc, m_lcrc_good, m_trailer }

local e_lcrc = ProtoExpert.new("gsn_mp.lcrc.bad", "Bad LCRC", expert.group.CHECKSUM,
                               expert.severity.ERROR)
local e_mp_short = ProtoExpert.new("gsn_mp.short", "Record shorter than a 40-byte micropacket",
                                   expert.group.MALFORMED, expert.severity.ERROR)
local e_reserved = ProtoExpert.new("gsn_mp.type.reserved", "Reserved TYPE code",
                                   expert.group.PROTOCOL, expert.severity.WARN)
gsn_mp.experts = { e_lcrc, e_mp_short, e_reserved }

function gsn_mp.dissector(tvb, pinfo, root)
    pinfo.cols.protocol = "GSN-MP"
    local tree = root:add(gsn_mp, tvb(0, math.min(tvb:len(), 40)))
    if tvb:len() < 40 then
        tree:add_proto_expert_info(e_mp_short,
            string.format("Record of %d bytes", tvb:len()))
        pinfo.cols.info = "Malformed micropacket"
        return
    end

    local c0 = tvb(32, 1):uint()
    local c1 = tvb(33, 1):uint()
    local vc = rshift(c0, 6)
    local mtype = band(rshift(c0, 2), 0xF)
    local tail = band(c0, 0x02) ~= 0
    local err = band(c0, 0x01) ~= 0
    local vcr = rshift(c1, 6)
    local cr = band(c1, 0x3F)
    local rseq = tvb(34, 1):uint()
    local tseq = tvb(35, 1):uint()
    local lcrc = tvb(38, 2):uint()
    local computed = crc16(tvb, 0, 38)

    local data = tree:add(m_data, tvb(0, 32))
    if mtype == 0x9 then
        -- A Header micropacket holds the Message's addressing and LLC/SNAP header.
        add_message_head(tvb, 0, data)
    end
    local ctl = tree:add(tvb(32, 8), "Control")
    ctl:add(m_vc, tvb(32, 1))
    local ti = ctl:add(m_type, tvb(32, 1))
    if mp_type_names[mtype] == nil then
        ti:add_proto_expert_info(e_reserved)
    end
    ctl:add(m_tail, tvb(32, 1))
    ctl:add(m_error, tvb(32, 1))
    ctl:add(m_vcr, tvb(33, 1))
    ctl:add(m_cr, tvb(33, 1))
    ctl:add(m_rseq, tvb(34, 1))
    -- Link-control micropackets (Reset to Initialize_Ack) are not sequenced: their TSEQ field
    -- carries the handshake number (an acknowledgement, the number of the request it answers).
    local control = mtype >= 0x2 and mtype <= 0x5
    if control then
        ctl:add(m_handshake, tvb(35, 1))
    else
        ctl:add(m_tseq, tvb(35, 1))
    end
    ctl:add(m_ecrc, tvb(36, 2))
    local li = ctl:add(m_lcrc, tvb(38, 2))
    local calc = li:add(m_lcrc_calc, tvb(38, 2), computed)
    calc:set_generated()
    local good = li:add(m_lcrc_good, tvb(38, 2), computed == lcrc)
    good:set_generated()
    if computed == lcrc then
        li:append_text(" [correct]")
    else
        li:append_text(string.format(" [incorrect, should be 0x%04x]", computed))
        li:add_proto_expert_info(e_lcrc,
            string.format("Bad LCRC 0x%04x, computed 0x%04x", lcrc, computed))
    end
    if tvb:len() > 40 then
        tree:add(m_trailer, tvb(40))
    end

    local name = mp_type_name(mtype)
    tree:append_text(string.format(", %s, VC %d", name, vc))
    local info = string.format("%s VC=%d TSEQ=%d RSEQ=%d", name, vc, tseq, rseq)
    if control then
        info = string.format("%s #%d VC=%d RSEQ=%d", name, tseq, vc, rseq)
    end
    if cr > 0 then
        info = info .. string.format(" CR=%d@VC%d", cr, vcr)
    end
    if tail then
        info = info .. " T"
    end
    if err then
        info = info .. " E"
    end
    if computed ~= lcrc then
        info = info .. " [bad LCRC]"
    end
    pinfo.cols.info = info
end

-- ------------------------------------------------------------------------------------------
-- st: Scheduled Transfer operations (EtherType 0x8181), the 40-byte header of
-- src/st/core/st-header.cc

local st = Proto("st", "Scheduled Transfer")

local st_op_names = {
    [0x01] = "RC", [0x02] = "CA", [0x03] = "RD", [0x04] = "DA", [0x05] = "DC",
    [0x10] = "NOP", [0x13] = "RMR", [0x14] = "MRA", [0x15] = "GET", [0x16] = "RTS",
    [0x17] = "RA", [0x18] = "RTR", [0x1A] = "CTS", [0x1B] = "DATA", [0x1C] = "RS",
    [0x1D] = "RSR", [0x1E] = "END", [0x1F] = "EA",
}
local st_op_long = {
    [0x01] = "Request_Connection", [0x02] = "Connection_Answer",
    [0x03] = "Request_Disconnect", [0x04] = "Disconnect_Answer",
    [0x05] = "Disconnect_Complete", [0x10] = "No operation",
    [0x13] = "Request_Memory_Region", [0x14] = "Memory_Region_Available",
    [0x15] = "GET", [0x16] = "Request_To_Send", [0x17] = "Request_Answer",
    [0x18] = "Request_To_Receive", [0x1A] = "Clear_To_Send", [0x1B] = "DATA",
    [0x1C] = "Request_State", [0x1D] = "Request_State_Response", [0x1E] = "END",
    [0x1F] = "End_Ack",
}
local st_fetchop_names = {
    [0] = "None (GET)", [1] = "Increment", [2] = "Decrement", [3] = "Clear", [7] = "Complete (FC)",
}

local s_op = ProtoField.uint16("st.op", "Op", base.HEX, st_op_long, 0xF800)
local s_opname = ProtoField.string("st.opname", "Operation")
local s_flags = ProtoField.uint16("st.flags", "Flags", base.HEX, nil, 0x07FF)
local s_channel = ProtoField.uint16("st.flags.channel", "Data channel", base.DEC, nil, 0x0003)
local s_reject = ProtoField.bool("st.flags.reject", "R (Reject)", 16, nil, 0x0004)
local s_last = ProtoField.bool("st.flags.last", "L (Last)", 16, nil, 0x0008)
local s_order = ProtoField.bool("st.flags.order", "O (Out of order)", 16, nil, 0x0010)
local s_send_state = ProtoField.bool("st.flags.send_state", "S (Send_state)", 16, nil, 0x0020)
local s_interrupt = ProtoField.bool("st.flags.interrupt", "I (Interrupt)", 16, nil, 0x0040)
local s_silent = ProtoField.bool("st.flags.silent", "Silent", 16, nil, 0x0080)
local s_fetchop = ProtoField.uint16("st.flags.fetchop", "FetchOp", base.DEC, st_fetchop_names,
                                    0x0700)
local s_param = ProtoField.uint16("st.param", "Param", base.DEC)
local s_dport = ProtoField.uint16("st.dport", "D_Port", base.DEC, nil, nil,
                                  "ST port of the receiver of this operation")
local s_sport = ProtoField.uint16("st.sport", "S_Port", base.DEC, nil, nil,
                                  "ST port of the sender of this operation")
local s_port = ProtoField.uint16("st.port", "Port", base.DEC)
local s_dkey = ProtoField.uint32("st.dkey", "D_Key", base.HEX)
local s_checksum = ProtoField.uint16("st.checksum", "Checksum", base.HEX)
local s_mx = ProtoField.uint16("st.mx", "Mx", base.DEC)
local s_bufx = ProtoField.uint32("st.bufx", "Bufx", base.DEC)
local s_offset = ProtoField.uint32("st.offset", "Offset", base.DEC)
local s_sync = ProtoField.uint32("st.sync", "Sync", base.DEC)
local s_bnum = ProtoField.uint32("st.bnum", "B_num", base.DEC)
local s_did = ProtoField.uint32("st.did", "D_id", base.DEC)
local s_sid = ProtoField.uint32("st.sid", "S_id", base.DEC)
local s_tlen = ProtoField.uint64("st.tlen", "T_len", base.DEC, nil, nil,
                                 "Transfer length, bytes 24-31 (RTS, RTR, RMR)")
local s_payload_len = ProtoField.uint32("st.payload_len", "Payload length", base.DEC)

st.fields = { s_op, s_opname, s_flags, s_channel, s_reject, s_last, s_order, s_send_state,
              s_interrupt, s_silent, s_fetchop, s_param, s_dport, s_sport, s_port, s_dkey,
              s_checksum, s_mx, s_bufx, s_offset, s_sync, s_bnum, s_did, s_sid, s_tlen,
              s_payload_len }

local e_st_short = ProtoExpert.new("st.short", "Shorter than the 40-byte ST header",
                                   expert.group.MALFORMED, expert.severity.ERROR)
local e_st_op = ProtoExpert.new("st.op.unknown", "Opcode not defined by ST",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_st_local = ProtoExpert.new("st.op.local",
                                   "Opcode 0x06-0x09: IRIX-internal, never on the wire",
                                   expert.group.MALFORMED, expert.severity.ERROR)
local e_st_flags = ProtoExpert.new("st.flags.bad",
                                   "FetchOp field on a non-GET, or an undefined FetchOp",
                                   expert.group.MALFORMED, expert.severity.WARN)
local e_st_field = ProtoExpert.new("st.field.bad", "FETCHOP with a T_len other than 8",
                                   expert.group.MALFORMED, expert.severity.WARN)
st.experts = { e_st_short, e_st_op, e_st_local, e_st_flags, e_st_field }

-- What each field means in each operation (PROTOCOLS.md 3.4), by field name.
local role = {
    RC = { param = "I_Slots", dkey = "ULP-Port (RC to Port 0), else 0", mx = "EtherType", bufx = "I_Bufsize (log2)",
           offset = "I_Key", sync = "I_Max_STU (log2)", sid = "I_Port vector length" },
    CA = { param = "R_Slots", dkey = "I_Key", bufx = "R_Bufsize (log2)", offset = "R_Key",
           sync = "R_Max_STU (log2)", sid = "R_Port vector length" },
    RD = { dkey = "R_Key", offset = "I_Key" },
    DC = { dkey = "R_Key", offset = "I_Key" },
    DA = { dkey = "I_Key", offset = "R_Key" },
    RTS = { param = "CTS_req", dkey = "R_Key", mx = "Max_Block (log2)", sid = "I_id" },
    RA = { dkey = "I_Key", did = "I_id" },
    CTS = { param = "Blocksize (log2)", dkey = "I_Key", mx = "R_Mx", bufx = "R_Bufx",
            offset = "R_Offset", sync = "F_Offset", bnum = "B_num", did = "I_id",
            sid = "R_id" },
    DATA = { param = "STU_num", dkey = "R_Key", mx = "R_Mx", bufx = "R_Bufx",
             offset = "R_Offset", sync = "Sync", bnum = "B_num", did = "R_id",
             sid = "Opaque" },
    RTR = { dkey = "R_Key", sid = "I_id" },
    RMR = { dkey = "R_Key", sid = "I_id" },
    MRA = { dkey = "I_Key", mx = "R_Mx", bufx = "R_Bufx", offset = "R_Offset", did = "I_id",
            sid = "R_id" },
    GET = { param = "T_len", dkey = "R_Key", mx = "I_Mx", bufx = "R_Bufx", offset = "R_Offset",
            sync = "I_Bufx", bnum = "I_Offset", did = "R_id", sid = "G_id" },
    END = { dkey = "R_Key", did = "R_id", sid = "I_id" },
    EA = { dkey = "I_Key", did = "I_id", sid = "R_id" },
    RS = { dkey = "D_Key", sync = "Sync" },
    RSR = { param = "R_Slots", dkey = "D_Key", offset = "B_seq", sync = "Sync (echo)" },
}
role.FETCHOP = role.GET
role.FC = role.GET

local function st_name(op, flags)
    local name = st_op_names[op]
    if name == "GET" then
        local fo = rshift(band(flags, 0x0700), 8)
        if fo == 7 then
            return "FC"
        elseif fo ~= 0 then
            return "FETCHOP"
        end
    end
    return name
end

-- 64-bit T_len from two 32-bit words, as a decimal string (exact beyond 2^53 too).
local function tlen_string(hi, lo)
    if hi == 0 then
        return tostring(lo)
    end
    return tostring(UInt64.new(lo, hi))
end

function st.dissector(tvb, pinfo, root)
    pinfo.cols.protocol = "ST"
    local len = tvb:len()
    local tree = root:add(st, tvb(0, math.min(len, 40)))
    if len < 40 then
        tree:add_proto_expert_info(e_st_short, string.format("%d bytes", len))
        pinfo.cols.info = "Malformed ST operation"
        return len
    end
    local opflags = tvb(0, 2):uint()
    local op = rshift(opflags, 11)
    local flags = band(opflags, 0x07FF)
    local name = st_name(op, flags)
    local r = (name and role[name]) or {}

    local oi = tree:add(s_op, tvb(0, 2))
    if op >= 0x06 and op <= 0x09 then
        oi:add_proto_expert_info(e_st_local, string.format("Opcode 0x%02x", op))
    elseif not name then
        oi:add_proto_expert_info(e_st_op, string.format("Opcode 0x%02x", op))
    end
    local ni = tree:add(s_opname, tvb(0, 2), name or string.format("0x%02x", op))
    ni:set_generated()
    local fi = tree:add(s_flags, tvb(0, 2))
    fi:add(s_channel, tvb(0, 2))
    fi:add(s_reject, tvb(0, 2))
    fi:add(s_last, tvb(0, 2))
    fi:add(s_order, tvb(0, 2))
    fi:add(s_send_state, tvb(0, 2))
    fi:add(s_interrupt, tvb(0, 2))
    fi:add(s_silent, tvb(0, 2))
    local fo = rshift(band(flags, 0x0700), 8)
    local foi = fi:add(s_fetchop, tvb(0, 2))
    if (op ~= 0x15 and fo ~= 0) or (op == 0x15 and fo > 3 and fo ~= 7) then
        foi:add_proto_expert_info(e_st_flags)
    end

    local function field(f, offset, size, key)
        local item = tree:add(f, tvb(offset, size))
        if r[key] then
            item:append_text(" (" .. r[key] .. ")")
        end
        return item
    end
    local pi = field(s_param, 2, 2, "param")
    if op == 0x15 and fo >= 1 and fo <= 3 and tvb(2, 2):uint() ~= 8 then
        pi:add_proto_expert_info(e_st_field)
    end
    tree:add(s_dport, tvb(4, 2))
    tree:add(s_sport, tvb(6, 2))
    local pa = tree:add(s_port, tvb(4, 2))
    pa:set_hidden()
    pa = tree:add(s_port, tvb(6, 2))
    pa:set_hidden()
    field(s_dkey, 8, 4, "dkey")
    field(s_checksum, 12, 2, "checksum")
    local mi = field(s_mx, 14, 2, "mx")
    if name == "RC" then
        local et = tvb(14, 2):uint()
        mi:append_text(string.format(" 0x%04x %s", et, ethertype_names[et] or ""))
    end
    field(s_bufx, 16, 4, "bufx")
    field(s_offset, 20, 4, "offset")
    field(s_sync, 24, 4, "sync")
    field(s_bnum, 28, 4, "bnum")
    field(s_did, 32, 4, "did")
    field(s_sid, 36, 4, "sid")
    local tlen = nil
    if name == "RTS" or name == "RTR" or name == "RMR" then
        local ti = tree:add(s_tlen, tvb(24, 8))
        ti:set_generated()
        tlen = tlen_string(tvb(24, 4):uint(), tvb(28, 4):uint())
    end
    local pl = tree:add(s_payload_len, len - 40)
    pl:set_generated()

    local dport = tvb(4, 2):uint()
    local sport = tvb(6, 2):uint()
    local info = string.format("%s %d->%d", name or string.format("Op 0x%02x", op), sport, dport)
    local fl = {}
    if band(flags, 0x0004) ~= 0 then fl[#fl + 1] = "R" end
    if band(flags, 0x0008) ~= 0 then fl[#fl + 1] = "L" end
    if band(flags, 0x0010) ~= 0 then fl[#fl + 1] = "O" end
    if band(flags, 0x0020) ~= 0 then fl[#fl + 1] = "S" end
    if band(flags, 0x0040) ~= 0 then fl[#fl + 1] = "I" end
    if band(flags, 0x0080) ~= 0 then fl[#fl + 1] = "Silent" end
    local bnum = tvb(28, 4):uint()
    if name == "RC" or name == "CA" then
        info = info .. string.format(" Key=0x%08x Bufsize=2^%d", tvb(20, 4):uint(),
                                     tvb(16, 4):uint())
    elseif name == "RTS" then
        info = info .. string.format(" T_len=%s I_id=%d", tlen, tvb(36, 4):uint())
    elseif name == "RTR" or name == "RMR" then
        info = info .. string.format(" T_len=%s", tlen)
    elseif name == "CTS" then
        info = info .. string.format(" B_num=%d Bufx=%d Offset=%d Blocksize=2^%d", bnum,
                                     tvb(16, 4):uint(), tvb(20, 4):uint(), tvb(2, 2):uint())
    elseif name == "DATA" then
        info = info .. string.format(" B_num=%d Bufx=%d Offset=%d Len=%d", bnum,
                                     tvb(16, 4):uint(), tvb(20, 4):uint(), len - 40)
    elseif name == "RSR" then
        info = info .. string.format(" B_seq=%d Slots=%d", tvb(20, 4):uint(), tvb(2, 2):uint())
    elseif name == "GET" or name == "FETCHOP" or name == "FC" then
        info = info .. string.format(" T_len=%d", tvb(2, 2):uint())
    end
    if #fl > 0 then
        info = info .. " [" .. table.concat(fl, ",") .. "]"
    end
    tree:append_text(", " .. (name or "unknown operation"))
    pinfo.cols.info = info

    if len > 40 then
        data_dissector:call(tvb(40):tvb(), pinfo, root)
    end
    return len
end

-- ST over Ethernet (and anything else that looks up EtherType 0x8181).
ethertype_table:add(ETHERTYPE_ST, st)

-- ------------------------------------------------------------------------------------------
-- Registration on the link types. LINKTYPE_USER0/1 (147/148) are WTAP_ENCAP_USER0/1.

local function encap(name, fallback)
    if wtap_encaps and wtap_encaps[name] then
        return wtap_encaps[name]
    end
    if wtap and wtap[name] then
        return wtap[name]
    end
    return fallback
end

local wtap_table = DissectorTable.get("wtap_encap")
wtap_table:add(encap("USER0", 45), gsn)
wtap_table:add(encap("USER1", 46), gsn_mp)
wtap_table:add(encap("USER2", 47), gsn_vc)
