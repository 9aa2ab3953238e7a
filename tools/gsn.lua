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
--   gsn_mp  single micropackets, pcap link type LINKTYPE_USER1 (148), 40 bytes each as
--           GsnMicropacket::Serialize writes them (src/gsn/model/gsn-micropacket.h):
--             data (32) | VC(2) TYPE(4) T(1) E(1) | VCR(2) CR(6) | RSEQ | TSEQ | ECRC(16) |
--             LCRC(16)
--           with the LCRC checked (CRC-16/CCITT, initial value 0xFFFF, polynomial 0x1021,
--           not reflected, over bytes 0-37).
--
-- Use:  tshark -X lua_script:tools/gsn.lua -r gsn-two-hosts-0-0.pcap -V
--       wireshark -X lua_script:tools/gsn.lua gsn-two-hosts-0-0.pcap
-- or copy the file into Wireshark's personal Lua plugin folder.
--
-- Display filter fields: gsn.mlen gsn.dst gsn.src gsn.addr gsn.llc.dsap gsn.llc.ssap
-- gsn.llc.control gsn.snap.oui gsn.ethertype gsn.record_len; gsn_mp.vc gsn_mp.type
-- gsn_mp.tail gsn_mp.error gsn_mp.vcr gsn_mp.cr gsn_mp.rseq gsn_mp.tseq gsn_mp.ecrc
-- gsn_mp.lcrc gsn_mp.lcrc.good gsn_mp.lcrc.calculated gsn_mp.data

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

gsn.fields = { f_mlen, f_dst, f_src, f_addr, f_dsap, f_ssap, f_control, f_oui, f_ethertype,
               f_reclen, f_payload8 }

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

function gsn.dissector(tvb, pinfo, root)
    pinfo.cols.protocol = "GSN"
    local reported = tvb:reported_len()
    local tree = root:add(gsn, tvb(0, math.min(tvb:len(), 24)))
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
local m_ecrc = ProtoField.uint16("gsn_mp.ecrc", "ECRC", base.HEX, nil, nil,
                                 "End-to-end CRC of the Message up to this micropacket")
local m_lcrc = ProtoField.uint16("gsn_mp.lcrc", "LCRC", base.HEX)
local m_lcrc_calc = ProtoField.uint16("gsn_mp.lcrc.calculated", "Calculated LCRC", base.HEX)
local m_lcrc_good = ProtoField.bool("gsn_mp.lcrc.good", "LCRC good")
local m_trailer = ProtoField.bytes("gsn_mp.trailer", "Bytes after the micropacket")

gsn_mp.fields = { m_data, m_vc, m_type, m_tail, m_error, m_vcr, m_cr, m_rseq, m_tseq,
                  m_ecrc, m_lcrc, m_lcrc_calc, m_lcrc_good, m_trailer }

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
    ctl:add(m_tseq, tvb(35, 1))
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
