/*
 * st-header-test.cc: the 40-byte ST header codec: round trips for every op, fixed byte
 * vectors, and every decoder rejection.
 */
#include "st-header.h"

#include <boost/test/unit_test.hpp>
#include <vector>

using namespace ns3::st;

namespace
{

std::vector<uint8_t>
Bytes(const StHeader& h)
{
    std::vector<uint8_t> b(ST_HEADER_SIZE);
    h.Encode(b.data());
    return b;
}

StHeader
Filled(StOp op, uint32_t seed)
{
    StHeader h;
    h.op = op;
    h.flags = static_cast<uint16_t>(seed & 0xFF); // no FetchOp bits
    h.param = static_cast<uint16_t>(seed * 3);
    h.dPort = static_cast<uint16_t>(seed * 5);
    h.sPort = static_cast<uint16_t>(seed * 7);
    h.dKey = seed * 0x01010101u;
    h.checksum = static_cast<uint16_t>(seed * 11);
    h.mx = static_cast<uint16_t>(seed * 13);
    h.bufx = seed * 17;
    h.offset = seed * 19;
    h.sync = seed * 23;
    h.bNum = seed * 29;
    h.dId = seed * 31;
    h.sId = seed * 37;
    return h;
}

} // namespace

BOOST_AUTO_TEST_SUITE(st_header)

BOOST_AUTO_TEST_CASE(round_trip_every_op)
{
    const StOp ops[] = {StOp::Rc,
                        StOp::Ca,
                        StOp::Rd,
                        StOp::Da,
                        StOp::Dc,
                        StOp::Nop,
                        StOp::Rmr,
                        StOp::Mra,
                        StOp::Get,
                        StOp::Rts,
                        StOp::Ra,
                        StOp::Rtr,
                        StOp::Cts,
                        StOp::Data,
                        StOp::Rs,
                        StOp::Rsr,
                        StOp::End,
                        StOp::Ea};
    uint32_t seed = 1;
    for (StOp op : ops)
    {
        for (int k = 0; k < 20; ++k, seed = seed * 2654435761u + 1)
        {
            StHeader h = Filled(op, seed);
            auto b = Bytes(h);
            StHeader d;
            BOOST_REQUIRE(StHeader::Decode(b.data(), b.size(), d) == StDecodeStatus::Ok);
            BOOST_CHECK_MESSAGE(d == h, h.ToString() + " vs " + d.ToString());
            BOOST_CHECK_EQUAL(b[0] >> 3, static_cast<int>(op)); // Op in bits 15..11
        }
    }
}

BOOST_AUTO_TEST_CASE(fetchop_and_fc_round_trip)
{
    for (StFetchOp f : {StFetchOp::Increment, StFetchOp::Decrement, StFetchOp::Clear})
    {
        StHeader h;
        h.op = StOp::Get;
        h.param = 8;
        h.SetFetchOp(f);
        auto b = Bytes(h);
        StHeader d;
        BOOST_REQUIRE(StHeader::Decode(b.data(), b.size(), d) == StDecodeStatus::Ok);
        BOOST_CHECK(d.GetFetchOp() == f);
        BOOST_CHECK_EQUAL(d.Name(), "FETCHOP");
    }
    StHeader fc;
    fc.op = StOp::Get;
    fc.SetFetchOp(StFetchOp::Complete);
    auto b = Bytes(fc);
    BOOST_CHECK_EQUAL(b[0], 0xAF); // 0x15 << 3 | 0x7
    BOOST_CHECK_EQUAL(b[1], 0x00);
    StHeader d;
    BOOST_REQUIRE(StHeader::Decode(b.data(), b.size(), d) == StDecodeStatus::Ok);
    BOOST_CHECK_EQUAL(d.Name(), "FC");
}

BOOST_AUTO_TEST_CASE(fixed_bytes_rc)
{
    // RC: I_Slots 255, R_Port 5000, I_Port 49152, EtherType 0x0800, Bufsize 14,
    // I_Key 0xDEADBEEF, Max_STU 14, O flag.
    StHeader rc;
    rc.op = StOp::Rc;
    rc.flags = StFlag::ORDER;
    rc.param = 255;
    rc.dPort = 5000;
    rc.sPort = 49152;
    rc.mx = 0x0800;
    rc.bufx = 14;
    rc.offset = 0xDEADBEEF;
    rc.sync = 14;
    const std::vector<uint8_t> expect = {
        0x08, 0x10, 0x00, 0xFF, 0x13, 0x88, 0xC0, 0x00, // OpFlags, I_Slots, R_Port, I_Port
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, // D_Key 0, checksum, EtherType
        0x00, 0x00, 0x00, 0x0E, 0xDE, 0xAD, 0xBE, 0xEF, // I_Bufsize, I_Key
        0x00, 0x00, 0x00, 0x0E, 0x00, 0x00, 0x00, 0x00, // I_Max_STU, -
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    BOOST_CHECK(Bytes(rc) == expect);
}

BOOST_AUTO_TEST_CASE(fixed_bytes_rts_tlen64)
{
    StHeader rts;
    rts.op = StOp::Rts;
    rts.flags = StFlag::SEND_STATE | 3; // S, data channel 3
    rts.param = 64;                     // CTS_req
    rts.dPort = 0x1234;
    rts.sPort = 0x5678;
    rts.dKey = 0x01020304;
    rts.mx = 24; // Max_Block
    rts.SetTLen(0x0000000100000010ULL);
    rts.sId = 7;
    const std::vector<uint8_t> expect = {
        0xB0, 0x23, 0x00, 0x40, 0x12, 0x34, 0x56, 0x78, 0x01, 0x02, 0x03, 0x04, 0x00, 0x00,
        0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07};
    BOOST_CHECK(Bytes(rts) == expect);
    StHeader d;
    BOOST_REQUIRE(StHeader::Decode(expect.data(), expect.size(), d) == StDecodeStatus::Ok);
    BOOST_CHECK_EQUAL(d.GetTLen(), 0x0000000100000010ULL);
    BOOST_CHECK_EQUAL(d.GetDataChannel(), 3);
}

BOOST_AUTO_TEST_CASE(fixed_bytes_data_and_rsr)
{
    StHeader d;
    d.op = StOp::Data;
    d.flags = StFlag::LAST | StFlag::SILENT | 2;
    d.param = 3; // STU_num
    d.mx = 5;
    d.bufx = 0x10;
    d.offset = 0x100;
    d.sync = 9;
    d.bNum = 2;
    d.dId = 0xAABBCCDD;
    d.sId = 0x11223344; // Opaque
    auto b = Bytes(d);
    BOOST_CHECK_EQUAL(b[0], 0xD8); // 0x1B << 3
    BOOST_CHECK_EQUAL(b[1], 0x8A);
    BOOST_CHECK_EQUAL(b[36], 0x11);
    BOOST_CHECK_EQUAL(b[39], 0x44);

    StHeader rsr;
    rsr.op = StOp::Rsr;
    rsr.param = 17;       // R_Slots
    rsr.offset = 4;       // B_seq
    rsr.sync = 0x0102;    // Sync echo
    rsr.bNum = ST_NONE32; // kind 2
    b = Bytes(rsr);
    BOOST_CHECK_EQUAL(b[0], 0xE8); // 0x1D << 3
    BOOST_CHECK_EQUAL(b[3], 17);
    BOOST_CHECK_EQUAL(b[23], 4);
    BOOST_CHECK_EQUAL(b[28], 0xFF);
    BOOST_CHECK_EQUAL(b[31], 0xFF);
}

BOOST_AUTO_TEST_CASE(decoder_rejections)
{
    StHeader h;
    h.op = StOp::Cts;
    auto b = Bytes(h);
    StHeader d;
    BOOST_CHECK(StHeader::Decode(b.data(), 39, d) == StDecodeStatus::Truncated);
    BOOST_CHECK(StHeader::Decode(nullptr, 40, d) == StDecodeStatus::Truncated);
    BOOST_CHECK(StHeader::Decode(b.data(), 0, d) == StDecodeStatus::Truncated);

    for (uint8_t op = 0; op < 32; ++op)
    {
        b[0] = static_cast<uint8_t>(op << 3);
        b[1] = 0;
        StDecodeStatus s = StHeader::Decode(b.data(), b.size(), d);
        if (op >= 6 && op <= 9)
        {
            BOOST_CHECK(s == StDecodeStatus::LocalOp);
        }
        else if (StOpIsWireOp(op))
        {
            BOOST_CHECK(s == StDecodeStatus::Ok || (op == 0x15 && s == StDecodeStatus::Ok));
        }
        else
        {
            BOOST_CHECK_MESSAGE(s == StDecodeStatus::UnknownOp, "op " << int(op));
        }
    }
    BOOST_CHECK(!StOpIsWireOp(0x00));
    BOOST_CHECK(!StOpIsWireOp(0x11));
    BOOST_CHECK(!StOpIsWireOp(0x12));
    BOOST_CHECK(!StOpIsWireOp(0x19));

    // FetchOp field on a non-GET.
    StHeader data;
    data.op = StOp::Data;
    b = Bytes(data);
    b[0] |= 0x01; // flag 0x100
    BOOST_CHECK(StHeader::Decode(b.data(), b.size(), d) == StDecodeStatus::BadFlags);

    // Undefined FetchOp values 4, 5, 6 on GET.
    for (uint8_t f : {4, 5, 6})
    {
        StHeader g;
        g.op = StOp::Get;
        g.param = 8;
        b = Bytes(g);
        b[0] = static_cast<uint8_t>((0x15 << 3) | f);
        BOOST_CHECK(StHeader::Decode(b.data(), b.size(), d) == StDecodeStatus::BadFlags);
    }

    // FETCHOP must move exactly 8 bytes.
    StHeader f;
    f.op = StOp::Get;
    f.SetFetchOp(StFetchOp::Increment);
    f.param = 4;
    b = Bytes(f);
    BOOST_CHECK(StHeader::Decode(b.data(), b.size(), d) == StDecodeStatus::BadField);
}

BOOST_AUTO_TEST_CASE(decode_leaves_output_untouched_on_error)
{
    StHeader d;
    d.op = StOp::Ea;
    d.sId = 99;
    std::vector<uint8_t> b(40, 0);
    b[0] = 0x11 << 3;
    BOOST_CHECK(StHeader::Decode(b.data(), b.size(), d) == StDecodeStatus::UnknownOp);
    BOOST_CHECK(d.op == StOp::Ea);
    BOOST_CHECK_EQUAL(d.sId, 99u);
}

BOOST_AUTO_TEST_CASE(slot_use_rules)
{
    StHeader h;
    h.op = StOp::Rc;
    BOOST_CHECK(!h.UsesSlot(false));
    BOOST_CHECK(!h.UsesSlot(true));
    h.op = StOp::Data;
    BOOST_CHECK(h.UsesSlot(false));
    h.flags = StFlag::SILENT;
    BOOST_CHECK(!h.UsesSlot(false));
    h.flags = 0;
    for (StOp op : {StOp::Rs, StOp::Rsr})
    {
        h.op = op;
        BOOST_CHECK(!h.UsesSlot(false)); // IRIX rule
        BOOST_CHECK(h.UsesSlot(true));   // seed rule
    }
    for (StOp op : {StOp::Ca, StOp::Rts, StOp::Cts, StOp::Get, StOp::End, StOp::Mra})
    {
        h.op = op;
        BOOST_CHECK(h.UsesSlot(false));
    }
}

BOOST_AUTO_TEST_SUITE_END()
