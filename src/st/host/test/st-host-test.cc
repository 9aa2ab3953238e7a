/*
 * st-host-test.cc: unit tests of the Linux adaptation that need no network: the Ethernet
 * carriage of ST operations byte for byte as ns-3's CsmaNetDevice frames them (Ethernet II
 * 0x8181 padded to 60 bytes; a short DATA as 802.3 length + LLC/SNAP 0x8181), the decoder's
 * verdicts, MAC and peer conversions, the STU limit of an MTU, the data pattern of the test
 * programs, the hello and report, and the option parser's values. Boost.Test, no ns-3.
 */
#define BOOST_TEST_MODULE st_host
#include "st-ethernet-frame.h"
#include "st-header.h"
#include "st-host-stack.h"
#include "st-perf-protocol.h"

#include <boost/test/unit_test.hpp>
#include <vector>

using namespace ns3::st;

namespace
{
const StMac A = {0x02, 0, 0, 0, 0, 0x0a};
const StMac B = {0x02, 0, 0, 0, 0, 0x0b};

std::vector<uint8_t>
Op(StOp op, std::size_t len)
{
    std::vector<uint8_t> v(len);
    for (std::size_t i = 0; i < len; ++i)
    {
        v[i] = static_cast<uint8_t>(i + 1);
    }
    v[0] = static_cast<uint8_t>(static_cast<uint8_t>(op) << 3);
    return v;
}
} // namespace

BOOST_AUTO_TEST_CASE(control_op_is_ethernet_ii_padded_to_60)
{
    const auto op = Op(StOp::Cts, 40);
    std::vector<uint8_t> f;
    StEthernetFrame::Encode(B, A, op.data(), op.size(), f);
    BOOST_REQUIRE_EQUAL(f.size(), 60u); // 14 + 46: ns-3's CSMA DIX padding
    BOOST_CHECK(std::equal(B.begin(), B.end(), f.begin()));
    BOOST_CHECK(std::equal(A.begin(), A.end(), f.begin() + 6));
    BOOST_CHECK_EQUAL(f[12], 0x81);
    BOOST_CHECK_EQUAL(f[13], 0x81);
    BOOST_CHECK(std::equal(op.begin(), op.end(), f.begin() + 14));
    BOOST_CHECK(std::all_of(f.begin() + 54, f.end(), [](uint8_t b) { return b == 0; }));
    // Received: the engine gets the padding too (control operations tolerate it).
    StMac from{};
    std::size_t at = 0;
    std::size_t len = 0;
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), f.size(), B, from, at, len) ==
                StFrameVerdict::Ok);
    BOOST_CHECK(from == A);
    BOOST_CHECK_EQUAL(at, 14u);
    BOOST_CHECK_EQUAL(len, 46u);
}

BOOST_AUTO_TEST_CASE(short_data_is_llc_snap_with_exact_length)
{
    const auto op = Op(StOp::Data, 43); // 3 payload bytes: would need padding
    BOOST_CHECK(StEthernetFrame::NeedsLlc(op.data(), op.size()));
    std::vector<uint8_t> f;
    StEthernetFrame::Encode(B, A, op.data(), op.size(), f);
    BOOST_REQUIRE_EQUAL(f.size(), 65u);              // 14 + 8 + 43, above the minimum
    BOOST_CHECK_EQUAL((f[12] << 8) | f[13], 8 + 43); // 802.3 length: LLC/SNAP + operation
    const uint8_t snap[] = {0xAA, 0xAA, 0x03, 0, 0, 0, 0x81, 0x81};
    BOOST_CHECK(std::equal(std::begin(snap), std::end(snap), f.begin() + 14));
    BOOST_CHECK(std::equal(op.begin(), op.end(), f.begin() + 22));
    StMac from{};
    std::size_t at = 0;
    std::size_t len = 0;
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), f.size(), B, from, at, len) ==
                StFrameVerdict::Ok);
    BOOST_CHECK_EQUAL(at, 22u);
    BOOST_CHECK_EQUAL(len, 43u); // exactly, padding or not
    // A tiny DATA gets padding after LLC/SNAP, and still comes back exact.
    const auto tiny = Op(StOp::Data, 41);
    StEthernetFrame::Encode(B, A, tiny.data(), tiny.size(), f);
    BOOST_CHECK_EQUAL(f.size(), 63u);
    f.resize(70, 0); // a NIC padding further
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), f.size(), B, from, at, len) ==
                StFrameVerdict::Ok);
    BOOST_CHECK_EQUAL(len, 41u);
    // DATA of 46 bytes or more, and any control op, is Ethernet II.
    const auto big = Op(StOp::Data, 46);
    BOOST_CHECK(!StEthernetFrame::NeedsLlc(big.data(), big.size()));
    const auto rts = Op(StOp::Rts, 40);
    BOOST_CHECK(!StEthernetFrame::NeedsLlc(rts.data(), rts.size()));
}

BOOST_AUTO_TEST_CASE(decoder_verdicts)
{
    const auto op = Op(StOp::Nop, 40);
    std::vector<uint8_t> f;
    StEthernetFrame::Encode(B, A, op.data(), op.size(), f);
    StMac from{};
    std::size_t at = 0;
    std::size_t len = 0;
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), 10, B, from, at, len) == StFrameVerdict::Runt);
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), f.size(), A, from, at, len) ==
                StFrameVerdict::OwnFrame);
    const StMac c = {0x02, 0, 0, 0, 0, 0x0c};
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), f.size(), c, from, at, len) ==
                StFrameVerdict::OtherHost);
    std::vector<uint8_t> bcast = f;
    std::fill(bcast.begin(), bcast.begin() + 6, 0xFF);
    BOOST_CHECK(StEthernetFrame::Decode(bcast.data(), bcast.size(), c, from, at, len) ==
                StFrameVerdict::Ok);
    std::vector<uint8_t> ip = f;
    ip[12] = 0x08;
    ip[13] = 0x00;
    BOOST_CHECK(StEthernetFrame::Decode(ip.data(), ip.size(), B, from, at, len) ==
                StFrameVerdict::NotSt);
    const auto data = Op(StOp::Data, 41);
    StEthernetFrame::Encode(B, A, data.data(), data.size(), f);
    f[13] = 200; // longer than the frame
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), f.size(), B, from, at, len) ==
                StFrameVerdict::BadLength);
    f[13] = 49;
    f[20] = 0x08; // LLC/SNAP of another type
    BOOST_CHECK(StEthernetFrame::Decode(f.data(), f.size(), B, from, at, len) ==
                StFrameVerdict::NotSt);
}

BOOST_AUTO_TEST_CASE(macs_peers_and_mtus)
{
    StMac m{};
    BOOST_CHECK(StEthernetFrame::ParseMac("02:00:5e:10:20:ff", m));
    BOOST_CHECK_EQUAL(StEthernetFrame::FormatMac(m), "02:00:5e:10:20:ff");
    BOOST_CHECK_EQUAL(StEthernetFrame::ToPeer(m), 0x02005e1020ffULL);
    BOOST_CHECK(StEthernetFrame::FromPeer(0x02005e1020ffULL) == m);
    BOOST_CHECK(!StEthernetFrame::ParseMac("02:00:5e:10:20", m));
    BOOST_CHECK(!StEthernetFrame::ParseMac("02:00:5e:10:20:ff:", m));
    BOOST_CHECK(!StEthernetFrame::ParseMac("10.0.0.1", m));
    BOOST_CHECK_EQUAL(StHostStack::MaxStuForMtu(1500), 10); // 1024 + 40 <= 1500
    BOOST_CHECK_EQUAL(StHostStack::MaxStuForMtu(9000), 13);
    BOOST_CHECK_EQUAL(StHostStack::MaxStuForMtu(296), 8); // the smallest ST accepts
    BOOST_CHECK_EQUAL(StHostStack::MaxStuForMtu(295), 7); // refused (EMSGSIZE)
}

BOOST_AUTO_TEST_CASE(pattern_finds_damage_and_stale_pages)
{
    std::vector<uint8_t> buf(3 * 4096 + 13);
    StPerfPattern::Fill(buf.data(), buf.size(), 5);
    uint64_t stamp = 0;
    BOOST_CHECK(StPerfPattern::Check(buf.data(), buf.size(), stamp));
    BOOST_CHECK_EQUAL(stamp, 5u);
    StPerfPattern::Stamp(buf.data(), buf.size(), 6);
    BOOST_CHECK(StPerfPattern::Check(buf.data(), buf.size(), stamp));
    BOOST_CHECK_EQUAL(stamp, 6u);
    buf[4096 + 100] ^= 1; // one bit
    BOOST_CHECK(!StPerfPattern::Check(buf.data(), buf.size(), stamp));
    buf[4096 + 100] ^= 1;
    std::vector<uint8_t> old(buf.size());
    StPerfPattern::Fill(old.data(), old.size(), 5);
    std::copy(old.begin() + 8192, old.begin() + 12288, buf.begin() + 8192); // a stale page
    BOOST_CHECK(!StPerfPattern::Check(buf.data(), buf.size(), stamp));
    buf[buf.size() - 1] ^= 0x80; // the tail too
    StPerfPattern::Fill(buf.data(), buf.size(), 6);
    buf[buf.size() - 1] ^= 0x80;
    BOOST_CHECK(!StPerfPattern::Check(buf.data(), buf.size(), stamp));
}

BOOST_AUTO_TEST_CASE(hello_and_report_round_trip)
{
    uint8_t b[ST_PERF_MESSAGE];
    StPerfHello h;
    h.kind = StPerfKind::Read;
    h.size = 64ULL << 20;
    h.count = 3;
    h.outstanding = 2;
    h.verify = 1;
    h.Encode(b);
    StPerfHello g;
    BOOST_REQUIRE(g.Decode(b));
    BOOST_CHECK(g.kind == StPerfKind::Read);
    BOOST_CHECK_EQUAL(g.size, h.size);
    BOOST_CHECK_EQUAL(g.count, 3u);
    BOOST_CHECK_EQUAL(g.outstanding, 2u);
    StPerfReport r;
    BOOST_CHECK(!r.Decode(b)); // a hello is no report
    r.good = 7;
    r.unknownKey = 1;
    r.outsideMemory = 2;
    r.guardIntact = 0;
    r.Encode(b);
    StPerfReport q;
    BOOST_REQUIRE(q.Decode(b));
    BOOST_CHECK_EQUAL(q.good, 7u);
    BOOST_CHECK_EQUAL(q.unknownKey, 1u);
    BOOST_CHECK_EQUAL(q.outsideMemory, 2u);
    BOOST_CHECK_EQUAL(q.guardIntact, 0u);
}
