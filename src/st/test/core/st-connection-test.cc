/*
 * st-connection-test.cc: connection setup and teardown on a simulated wire: the RC/CA and
 * RD/DA/DC sequences, refusals, crossing RDs, retries of lost ops, and operations that must
 * be dropped and counted without touching the connection (wrong key, port, peer, opcode,
 * truncated header).
 */
#include "st-test-wire.h"

#include <boost/test/unit_test.hpp>
#include <memory>
#include <set>
#include <tuple>

using namespace ns3::st;
using namespace ns3::st::test;

BOOST_AUTO_TEST_SUITE(st_connection)

BOOST_AUTO_TEST_CASE(setup_negotiates_parameters)
{
    TestWire w;
    StConnParams pa;
    pa.slots = 40;
    pa.bufsize = 12;
    pa.maxStu = 20;
    pa.etherType = 0x0800;
    StConnParams pb;
    pb.slots = 77;
    pb.bufsize = 16;
    pb.maxStu = 13;
    auto [ia, ib] = w.Connect(5000, pa, pb);
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA");
    BOOST_REQUIRE(ib != 0);
    const StConnection* ca = w.a.Find(ia);
    const StConnection* cb = w.b.Find(ib);
    BOOST_CHECK(ca->GetState() == StConnState::Connected);
    BOOST_CHECK(cb->GetState() == StConnState::Connected);
    // A learned B's parameters and the other way round.
    BOOST_CHECK_EQUAL(ca->GetRemoteSlots(), 77);
    BOOST_CHECK_EQUAL(ca->GetRemoteBufsize(), 16);
    BOOST_CHECK_EQUAL(ca->GetRemoteMaxStu(), 13); // min(Max_STU, Bufsize) of B
    BOOST_CHECK_EQUAL(cb->GetRemoteSlots(), 40);
    BOOST_CHECK_EQUAL(cb->GetRemoteBufsize(), 12);
    BOOST_CHECK_EQUAL(cb->GetRemoteMaxStu(), 12); // min(20, 12)
    BOOST_CHECK_EQUAL(cb->GetEtherType(), 0x0800);
    BOOST_CHECK_EQUAL(ca->GetEtherType(), 0x0800);
    // Keys: each side's remote key is the other's local key, never 0.
    BOOST_CHECK(ca->GetLocalKey() != 0 && cb->GetLocalKey() != 0);
    BOOST_CHECK_EQUAL(ca->GetRemoteKey(), cb->GetLocalKey());
    BOOST_CHECK_EQUAL(cb->GetRemoteKey(), ca->GetLocalKey());
    // B gave the VC a port of its own; A learned it from the CA.
    BOOST_CHECK_EQUAL(cb->GetServicePort(), 5000);
    BOOST_CHECK_EQUAL(cb->GetLocalPort(), 49152);
    BOOST_CHECK_EQUAL(ca->GetRemotePort(), cb->GetLocalPort());
    BOOST_CHECK_EQUAL(cb->GetRemotePort(), ca->GetLocalPort());
    // RC fields on the wire: to Port 0, the service in the ULP-Port field (bytes 8..11).
    const StHeader& rc = w.trace[0].h;
    BOOST_CHECK_EQUAL(rc.dPort, 0);
    BOOST_CHECK_EQUAL(rc.dKey, 5000u);
    BOOST_CHECK_EQUAL(rc.param, 40);
    BOOST_CHECK_EQUAL(rc.mx, 0x0800);
    BOOST_CHECK_EQUAL(rc.bufx, 12u);
    BOOST_CHECK_EQUAL(rc.offset, ca->GetLocalKey());
    BOOST_CHECK_EQUAL(rc.sync, 12u);
    BOOST_CHECK_EQUAL(w.trace[0].vc, 0);
    const StHeader& cah = w.trace[1].h;
    BOOST_CHECK_EQUAL(cah.dKey, ca->GetLocalKey());
    BOOST_CHECK_EQUAL(cah.offset, cb->GetLocalKey());
    BOOST_CHECK(!cah.Has(StFlag::REJECT));
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::ConnectionEstablished) != nullptr);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Dropped() + w.b.GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(refused_without_listener)
{
    TestWire w;
    StConnId ia = 0;
    BOOST_REQUIRE(w.a.Connect(0, TestWire::ADDR_B, 6000, StConnParams(), ia) == StStatus::Ok);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA(R)");
    BOOST_CHECK(w.a.Find(ia)->GetState() == StConnState::Closed);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::ConnectionRefused) != nullptr);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::NoListener), 1u);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StStat::RejectsSent), 1u);
}

BOOST_AUTO_TEST_CASE(teardown_rd_da_dc)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    BOOST_REQUIRE(w.a.Close(w.now, ia) == StStatus::Ok);
    BOOST_CHECK(w.a.Find(ia)->GetState() == StConnState::RdSent);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RD <DA >DC");
    BOOST_CHECK(w.a.Find(ia)->GetState() == StConnState::Closed);
    BOOST_CHECK(w.b.Find(ib)->GetState() == StConnState::Closed);
    const StEvent* ea = TestWire::FindEvent(w.eventsA, StEventType::ConnectionClosed);
    const StEvent* eb = TestWire::FindEvent(w.eventsB, StEventType::ConnectionClosed);
    BOOST_REQUIRE(ea && eb);
    BOOST_CHECK(ea->reason == StReason::Local);
    BOOST_CHECK(eb->reason == StReason::Peer);
    // RD/DA/DC carry the keys: RD {R_Key, I_Key}.
    BOOST_CHECK_EQUAL(w.trace[2].h.dKey, w.b.Find(ib)->GetLocalKey());
    BOOST_CHECK_EQUAL(w.trace[2].h.offset, w.a.Find(ia)->GetLocalKey());
    // The closed connections are forgotten after the linger time.
    w.Run();
    BOOST_CHECK(w.a.Find(ia) == nullptr);
    BOOST_CHECK(w.b.Find(ib) == nullptr);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Dropped() + w.b.GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(crossing_rds)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    w.a.Close(w.now, ia);
    w.b.Close(w.now, ib);
    w.Settle();
    // Both RDs cross; each side answers DA, then DC for the DA it got.
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RD <RD <DA >DA >DC <DC");
    BOOST_CHECK(w.a.Find(ia)->GetState() == StConnState::Closed);
    BOOST_CHECK(w.b.Find(ib)->GetState() == StConnState::Closed);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsA, StEventType::ConnectionClosed), 1u);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsB, StEventType::ConnectionClosed), 1u);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Dropped() + w.b.GetCounters().Dropped(), 0u);
    // No timer left running a retry.
    uint64_t before = w.a.GetCounters().Get(StStat::Retransmissions);
    w.Run();
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StStat::Retransmissions), before);
}

BOOST_AUTO_TEST_CASE(lost_rc_is_retried_after_one_second)
{
    TestWire w;
    int n = 0;
    w.drop = [&n](const WireRecord& r) { return r.h.op == StOp::Rc && n++ == 0; };
    w.b.Listen(5000);
    StConnId ia = 0;
    w.a.Connect(0, TestWire::ADDR_B, 5000, StConnParams(), ia);
    w.Run(3000000000ULL);
    BOOST_CHECK_EQUAL(w.Ops(), ">RCx >RC <CA");
    BOOST_CHECK_EQUAL(
        w.trace[1].time,
        1000000000ULL); // 1 s retry [U] st-protocol-reference.rst, "Timers and error handling"
    BOOST_CHECK(w.a.Find(ia)->GetState() == StConnState::Connected);
}

BOOST_AUTO_TEST_CASE(lost_ca_answered_again_for_duplicate_rc)
{
    TestWire w;
    int n = 0;
    w.drop = [&n](const WireRecord& r) { return r.h.op == StOp::Ca && n++ == 0; };
    w.b.Listen(5000);
    StConnId ia = 0;
    w.a.Connect(0, TestWire::ADDR_B, 5000, StConnParams(), ia);
    w.Run(3000000000ULL);
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CAx >RC <CA");
    BOOST_CHECK(w.a.Find(ia)->GetState() == StConnState::Connected);
    // Only one connection at B: the second RC was a duplicate.
    BOOST_CHECK_EQUAL(w.b.GetConnections().size(), 1u);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::Duplicate), 1u);
}

BOOST_AUTO_TEST_CASE(rc_gives_up_after_three_retries)
{
    TestWire w;
    w.drop = [](const WireRecord& r) { return r.h.op == StOp::Rc; };
    w.b.Listen(5000);
    StConnId ia = 0;
    w.a.Connect(0, TestWire::ADDR_B, 5000, StConnParams(), ia);
    w.Run(10000000000ULL);
    BOOST_CHECK_EQUAL(w.Count("RC", true), 4u); // 1 + 3 retries
    const StEvent* e = TestWire::FindEvent(w.eventsA, StEventType::ConnectionClosed);
    BOOST_REQUIRE(e != nullptr);
    BOOST_CHECK(e->reason == StReason::Timeout);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StStat::Timeouts), 1u);
}

BOOST_AUTO_TEST_CASE(lost_dc_and_da_recovered)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    int n = 0;
    w.drop = [&n](const WireRecord& r) { return r.h.op == StOp::Dc && n++ == 0; };
    w.a.Close(w.now, ia);
    w.Run(w.now + 5000000000ULL);
    // B retries its DA; A (closed, lingering) answers with DC again.
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RD <DA >DCx <DA >DC");
    BOOST_CHECK(w.b.Find(ib) == nullptr || w.b.Find(ib)->GetState() == StConnState::Closed);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsB, StEventType::ConnectionClosed), 1u);
}

/// Build a header addressed to B's connection with its real tuple, for the drop tests.
static StHeader
ToB(const TestWire& w, StConnId ia, StOp op)
{
    const StConnection* c = w.a.Find(ia);
    StHeader h;
    h.op = op;
    h.dPort = c->GetRemotePort();
    h.sPort = c->GetLocalPort();
    h.dKey = c->GetRemoteKey();
    return h;
}

static std::vector<uint8_t>
Enc(const StHeader& h, std::size_t extra = 0)
{
    std::vector<uint8_t> b(ST_HEADER_SIZE + extra);
    h.Encode(b.data());
    return b;
}

BOOST_AUTO_TEST_CASE(bad_ops_dropped_counted_state_intact)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    const StConnection* cb = w.b.Find(ib);
    const auto before = w.b.GetCounters();

    StHeader good = ToB(w, ia, StOp::Nop);

    StHeader wrongKey = good;
    wrongKey.op = StOp::Rd;
    wrongKey.dKey ^= 0x1;
    w.Inject(true, Enc(wrongKey));

    StHeader zeroKey = good;
    zeroKey.op = StOp::Rd;
    zeroKey.dKey = 0;
    w.Inject(true, Enc(zeroKey));

    StHeader wrongDPort = good;
    wrongDPort.op = StOp::Rd;
    wrongDPort.dPort += 1;
    w.Inject(true, Enc(wrongDPort));

    StHeader wrongSPort = good;
    wrongSPort.op = StOp::Rd;
    wrongSPort.sPort += 1;
    w.Inject(true, Enc(wrongSPort));

    StHeader rd = good;
    rd.op = StOp::Rd;
    rd.offset = w.a.Find(ia)->GetLocalKey();
    w.Inject(true, Enc(rd), 99); // right tuple, wrong peer address

    auto unknown = Enc(good);
    unknown[0] = 0x11 << 3;
    w.Inject(true, unknown);

    auto local = Enc(good);
    local[0] = 0x07 << 3;
    w.Inject(true, local);

    auto trunc = Enc(rd);
    trunc.resize(39);
    w.Inject(true, trunc);

    const auto& c = w.b.GetCounters();
    BOOST_CHECK_EQUAL(c.Get(StRxVerdict::UnknownKey) - before.Get(StRxVerdict::UnknownKey), 2u);
    BOOST_CHECK_EQUAL(c.Get(StRxVerdict::WrongPort), 2u);
    BOOST_CHECK_EQUAL(c.Get(StRxVerdict::WrongPeer), 1u);
    BOOST_CHECK_EQUAL(c.Get(StRxVerdict::UnknownOp), 1u);
    BOOST_CHECK_EQUAL(c.Get(StRxVerdict::LocalOp), 1u);
    BOOST_CHECK_EQUAL(c.Get(StRxVerdict::Truncated), 1u);
    BOOST_CHECK_EQUAL(c.Dropped() - before.Dropped(), 8u);
    BOOST_CHECK_EQUAL(c.TotalVerdicts(), c.Get(StStat::RxFrames));
    // Nothing answered, the connection did not move.
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA");
    BOOST_CHECK(cb->GetState() == StConnState::Connected);
    // And it still works: a real close goes through.
    w.a.Close(w.now, ia);
    w.Settle();
    BOOST_CHECK(w.b.Find(ib)->GetState() == StConnState::Closed);
}

BOOST_AUTO_TEST_CASE(rc_with_zero_key_or_small_bufsize)
{
    TestWire w;
    w.b.Listen(5000);
    StHeader rc;
    rc.op = StOp::Rc;
    rc.dPort = 5000;
    rc.sPort = 40000;
    rc.bufx = 14;
    rc.offset = 0; // I_Key 0
    w.Inject(true, Enc(rc));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::BadField), 1u);
    BOOST_CHECK(w.b.GetConnections().empty());
    rc.offset = 1234;
    rc.bufx = 7; // below 2^8
    w.Inject(true, Enc(rc));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::BadField), 2u);
    BOOST_CHECK(w.b.GetConnections().empty());
    BOOST_CHECK_EQUAL(w.Ops(), "<CA(R)");
}

BOOST_AUTO_TEST_CASE(many_connections_demultiplexed_by_key)
{
    TestWire w;
    w.b.Listen(5000);
    std::vector<StConnId> ids;
    for (int i = 0; i < 5; ++i)
    {
        StConnId id = 0;
        BOOST_REQUIRE(w.a.Connect(w.now, TestWire::ADDR_B, 5000, StConnParams(), id) ==
                      StStatus::Ok);
        ids.push_back(id);
    }
    w.Settle();
    BOOST_CHECK_EQUAL(w.b.GetConnections().size(), 5u);
    std::set<uint32_t> localKeys;
    std::set<uint32_t> remoteKeys;
    for (StConnId id : ids)
    {
        BOOST_CHECK(w.a.Find(id)->GetState() == StConnState::Connected);
        localKeys.insert(w.a.Find(id)->GetLocalKey());
        remoteKeys.insert(w.a.Find(id)->GetRemoteKey());
    }
    // Keys are unique where they were given out.
    BOOST_CHECK_EQUAL(localKeys.size(), 5u);
    BOOST_CHECK_EQUAL(remoteKeys.size(), 5u);
    // Closing one leaves the others.
    w.a.Close(w.now, ids[2]);
    w.Settle();
    int open = 0;
    for (StConnId id : w.b.GetConnections())
    {
        open += w.b.Find(id)->GetState() == StConnState::Connected ? 1 : 0;
    }
    BOOST_CHECK_EQUAL(open, 4);
}

BOOST_AUTO_TEST_CASE(rc_naming_an_initiated_connection_is_dropped)
{
    // A's connection to B: an RC from B with that connection's ports and the key B gave
    // out is no retry of anything A sent (A sent the RC, not a CA): dropped, counted, and
    // never answered (A has no CA to repeat).
    TestWire w;
    auto [ia, ib] = w.Connect();
    const StConnection* ca = w.a.Find(ia);
    StHeader rc;
    rc.op = StOp::Rc;
    rc.dPort = ca->GetLocalPort();
    rc.sPort = ca->GetRemotePort();
    rc.param = 255;
    rc.bufx = 14;
    rc.offset = ca->GetRemoteKey();
    rc.sync = 14;
    std::vector<uint8_t> bytes(ST_HEADER_SIZE);
    rc.Encode(bytes.data());
    const std::size_t sent = w.trace.size();
    w.Inject(false, bytes);
    w.Settle();
    BOOST_CHECK_EQUAL(w.trace.size(), sent); // nothing sent, no all-zero NOP
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StRxVerdict::WrongState), 1u);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StRxVerdict::Duplicate), 0u);
    BOOST_CHECK(ca->GetState() == StConnState::Connected);
    BOOST_CHECK_EQUAL(w.a.GetConnections().size(), 1u);
    // The responder still answers the same RC (its own connection's) with its CA.
    const StConnection* cb = w.b.Find(ib);
    rc.dPort = 0; // the RC went to Port 0 naming the service
    rc.dKey = cb->GetServicePort();
    rc.sPort = cb->GetRemotePort();
    rc.offset = cb->GetRemoteKey();
    rc.Encode(bytes.data());
    w.Inject(true, bytes);
    w.Settle();
    BOOST_REQUIRE_EQUAL(w.trace.size(), sent + 1);
    BOOST_CHECK(w.trace.back().h == w.trace[1].h); // the CA it sent before
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::Duplicate), 1u);
}

BOOST_AUTO_TEST_CASE(keys_random_unless_the_adapter_gives_a_source)
{
    // Default: the OS's random source. Two endpoints do not start with the same key, and
    // a new pair does not repeat the keys of the last one.
    auto run = [](const StConfig& cfg) {
        TestWire w(cfg, cfg);
        auto [ia, ib] = w.Connect();
        return std::make_tuple(w.a.Find(ia)->GetLocalKey(),
                               w.b.Find(ib)->GetLocalKey(),
                               w.a.Find(ia)->GetLocalPort());
    };
    auto first = run(StConfig());
    auto second = run(StConfig());
    BOOST_CHECK_NE(std::get<0>(first), std::get<1>(first));
    BOOST_CHECK(std::make_pair(std::get<0>(first), std::get<1>(first)) !=
                std::make_pair(std::get<0>(second), std::get<1>(second)));
    BOOST_CHECK_EQUAL(std::get<2>(first), 49152);
    // An adapter's source (a simulator's seeded generator) makes keys reproducible; 0 and
    // keys in use are skipped.
    auto seeded = [](uint32_t seed) {
        StConfig c;
        auto state = std::make_shared<uint32_t>(seed);
        c.keySource = [state]() {
            uint32_t v = *state;
            *state = *state * 1664525u + 1013904223u;
            return v % 3; // 0, 1 or 2: many repeats
        };
        return c;
    };
    BOOST_CHECK(run(seeded(7)) == run(seeded(7)));
    StEndpoint ep(seeded(1));
    std::set<uint32_t> keys;
    for (int i = 0; i < 2; ++i)
    {
        StConnId id = 0;
        BOOST_REQUIRE(ep.Connect(0, 2, 5000, StConnParams(), id) == StStatus::Ok);
        keys.insert(ep.Find(id)->GetLocalKey());
    }
    BOOST_CHECK(keys == (std::set<uint32_t>{1, 2}));
}

BOOST_AUTO_TEST_CASE(max_stu_fits_the_data_channel)
{
    // The adapter's interface carries STUs of at most 2^11 bytes on channel 0 and 2^16 on
    // the others (GSN: VC 0 limited to 4 KiB Messages, VCs 1-2 to 128 KiB).
    StConfig cfg;
    cfg.channelMaxStu = [](uint64_t, uint8_t channel) -> uint8_t { return channel == 0 ? 11 : 16; };
    TestWire w(cfg, cfg);
    StConnParams pa;
    pa.dataVc = 1;
    pa.bufsize = 17;
    StConnParams pb = pa;
    pb.dataVc = 0;
    auto [ia, ib] = w.Connect(5000, pa, pb);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    BOOST_REQUIRE(ca != nullptr && cb != nullptr);
    // Each side advertises min(Max_STU, Bufsize, what its data channel carries).
    BOOST_CHECK_EQUAL(w.trace[0].h.sync, 16u); // RC: A's channel 1
    BOOST_CHECK_EQUAL(w.trace[1].h.sync, 11u); // CA: B's channel 0
    const uint64_t len = 300000;
    Buffer ma(1 << 20, 3), mb(1 << 20, 5);
    uint32_t h = 0;
    uint16_t mx = 0;
    const int both = StMemoryTable::PIN_TX | StMemoryTable::PIN_RX;
    ca->GetMemory().Map(both, ma.data(), ma.bytes.size(), 0, -1, h, mx);
    cb->GetMemory().Map(both, mb.data(), mb.bytes.size(), 0, -1, h, mx);
    // A to B on A's channel 1: B's advertised Max_STU (2^11) applies.
    cb->PostReceive(w.now, 1 << 19, len);
    uint32_t id = 0;
    BOOST_REQUIRE(ca->Write(w.now, 0, len, StWriteOptions(), id) == StStatus::Ok);
    w.Settle();
    // B to A on B's channel 0: A advertised 2^16, but B's own channel carries 2^11.
    ca->PostReceive(w.now, 1 << 19, len);
    BOOST_REQUIRE(cb->Write(w.now, 0, len, StWriteOptions(), id) == StStatus::Ok);
    w.Settle();
    BOOST_CHECK(std::equal(ma.bytes.begin(), ma.bytes.begin() + len, mb.bytes.begin() + (1 << 19)));
    BOOST_CHECK(std::equal(mb.bytes.begin(), mb.bytes.begin() + len, ma.bytes.begin() + (1 << 19)));
    std::size_t data[2] = {0, 0};
    for (const auto& r : w.trace)
    {
        if (r.h.op == StOp::Data)
        {
            ++data[r.fromA ? 0 : 1];
            BOOST_CHECK_EQUAL(r.vc, r.fromA ? 1 : 0);
            BOOST_CHECK_LE(r.len - ST_HEADER_SIZE, 2048u);
        }
    }
    BOOST_CHECK_EQUAL(data[0], 147u); // 300000 bytes in 2 KiB STUs
    BOOST_CHECK_EQUAL(data[1], 147u);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsA, StEventType::TransferComplete), 2u);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsB, StEventType::TransferComplete), 2u);
}

BOOST_AUTO_TEST_CASE(connection_refused_when_the_data_channel_is_too_small)
{
    StConfig small;
    small.channelMaxStu = [](uint64_t, uint8_t channel) -> uint8_t {
        return channel == 0 ? 7 : 16; // channel 0 carries less than 256 bytes of data
    };
    StConnParams on0;
    on0.dataVc = 0;
    // Initiator: Connect says why at once, nothing is sent.
    {
        TestWire w(small, StConfig());
        w.b.Listen(5000);
        StConnId id = 0;
        BOOST_CHECK(w.a.Connect(0, TestWire::ADDR_B, 5000, on0, id) == StStatus::ChannelTooSmall);
        w.Settle();
        BOOST_CHECK(w.trace.empty());
        BOOST_CHECK(w.a.Connect(0, TestWire::ADDR_B, 5000, StConnParams(), id) == StStatus::Ok);
        w.Settle();
        BOOST_CHECK(w.a.Find(id)->GetState() == StConnState::Connected);
        // A write on the too-small channel is refused too.
        uint32_t x = 0;
        StWriteOptions opt;
        opt.dataVc = 0;
        Buffer src(1000);
        uint32_t h = 0;
        uint16_t mx = 0;
        w.a.Find(id)->GetMemory().Map(StMemoryTable::PIN_TX, src.data(), 1000, 0, -1, h, mx);
        BOOST_CHECK(w.a.Find(id)->Write(w.now, 0, 1000, opt, x) == StStatus::ChannelTooSmall);
    }
    // Responder: its listener's data channel is too small: CA R=1, counted.
    {
        TestWire w(StConfig(), small);
        w.b.Listen(5000, on0);
        StConnId id = 0;
        w.a.Connect(0, TestWire::ADDR_B, 5000, StConnParams(), id);
        w.Settle();
        BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA(R)");
        BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::ConnectionRefused) != nullptr);
        BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::NoChannel), 1u);
        BOOST_CHECK(w.b.GetConnections().empty());
    }
}

// The header checksum: every op carries one (RFC 1071 over the 40 header bytes); a flipped
// bit in the RC's header is caught, counted and the RC ignored (the retry then connects); a
// 0 checksum ("not computed") passes; with headerChecksum off nothing is computed or checked.
BOOST_AUTO_TEST_CASE(header_checksum_sent_and_checked)
{
    {
        TestWire w;
        int mangled = 0;
        w.mangle = [&mangled](const WireRecord& r, std::vector<uint8_t>& bytes) {
            if (r.h.op == StOp::Rc && mangled++ == 0)
            {
                bytes[30] ^= 0x10; // a bit of the header, not of the checksum field
            }
        };
        auto [ia, ib] = w.Connect(5000, StConnParams(), StConnParams());
        (void)ia;
        BOOST_CHECK(ib == 0); // the first RC was dropped
        BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::BadChecksum), 1u);
        for (const WireRecord& r : w.trace)
        {
            BOOST_CHECK(r.h.checksum != 0); // every op sent carries a checksum
        }
        w.Run(3000000000ULL); // the RC is retried after its timeout
        BOOST_CHECK_EQUAL(w.Ops(), ">RC >RC <CA");
        BOOST_CHECK_EQUAL(w.b.GetConnections().size(), 1u);
    }
    {
        // A checksum of 0 means "not computed": accepted.
        TestWire w;
        w.mangle = [](const WireRecord&, std::vector<uint8_t>& bytes) {
            bytes[12] = 0;
            bytes[13] = 0;
        };
        auto [ia, ib] = w.Connect(5000, StConnParams(), StConnParams());
        (void)ia;
        BOOST_CHECK(ib != 0);
        BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::BadChecksum), 0u);
    }
    {
        // Turned off: 0 sent, a corrupted checksum field goes unnoticed.
        StConfig off;
        off.headerChecksum = false;
        TestWire w(off, off);
        w.mangle = [](const WireRecord&, std::vector<uint8_t>& bytes) { bytes[12] ^= 0x55; };
        auto [ia, ib] = w.Connect(5000, StConnParams(), StConnParams());
        (void)ia;
        BOOST_CHECK(ib != 0);
        BOOST_CHECK_EQUAL(w.trace[0].h.checksum, 0);
        BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::BadChecksum), 0u);
    }
    // The algorithm on fixed bytes: all-zero header sums to 0, sent as 0xFFFF; one word set.
    uint8_t header[ST_HEADER_SIZE] = {};
    BOOST_CHECK_EQUAL(StHeader::ComputeChecksum(header), 0xFFFF);
    header[0] = 0x12;
    header[1] = 0x34;
    BOOST_CHECK_EQUAL(StHeader::ComputeChecksum(header), 0xEDCB);
    StHeader::SealChecksum(header);
    BOOST_CHECK(StHeader::ChecksumOk(header));
    header[39] ^= 1;
    BOOST_CHECK(!StHeader::ChecksumOk(header));
}

BOOST_AUTO_TEST_CASE(rc_at_port_zero_gives_each_vc_its_own_port)
{
    // Two VCs from A to B's service 5000: both RCs go to Port 0 naming 5000, B gives each
    // VC a port of its own, and an operation of one VC carrying the other's port is
    // dropped by the verification tuple.
    TestWire w;
    w.b.Listen(5000);
    StConnId i1 = 0;
    StConnId i2 = 0;
    BOOST_REQUIRE(w.a.Connect(w.now, TestWire::ADDR_B, 5000, StConnParams(), i1) == StStatus::Ok);
    BOOST_REQUIRE(w.a.Connect(w.now, TestWire::ADDR_B, 5000, StConnParams(), i2) == StStatus::Ok);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC >RC <CA <CA");
    for (int k = 0; k < 2; ++k)
    {
        BOOST_CHECK_EQUAL(w.trace[k].h.dPort, 0);
        BOOST_CHECK_EQUAL(w.trace[k].h.dKey, 5000u);
    }
    std::vector<StConnId> accepted;
    for (const auto& e : w.eventsB)
    {
        if (e.type == StEventType::ConnectionEstablished && e.accepted)
        {
            BOOST_CHECK_EQUAL(e.servicePort, 5000);
            BOOST_CHECK_EQUAL(e.localPort, w.b.Find(e.conn)->GetLocalPort());
            accepted.push_back(e.conn);
        }
    }
    BOOST_REQUIRE_EQUAL(accepted.size(), 2u);
    const StConnection* b1 = w.b.Find(accepted[0]);
    const StConnection* b2 = w.b.Find(accepted[1]);
    BOOST_CHECK(b1->GetLocalPort() != b2->GetLocalPort());
    BOOST_CHECK(b1->GetLocalPort() != 5000 && b1->GetLocalPort() != 0);
    BOOST_CHECK(b2->GetLocalPort() != 5000 && b2->GetLocalPort() != 0);
    // The CAs came from the VCs' ports, and A took them as the remote ports.
    BOOST_CHECK_EQUAL(w.trace[2].h.sPort, b1->GetLocalPort());
    BOOST_CHECK_EQUAL(w.trace[3].h.sPort, b2->GetLocalPort());
    const StConnection* a1 = w.a.Find(i1);
    const StConnection* a2 = w.a.Find(i2);
    BOOST_CHECK(a1->GetState() == StConnState::Connected);
    BOOST_CHECK(a2->GetState() == StConnState::Connected);
    BOOST_CHECK_EQUAL(a1->GetRemotePort(), b1->GetLocalPort());
    BOOST_CHECK_EQUAL(a2->GetRemotePort(), b2->GetLocalPort());
    // An RS with VC 1's key but VC 2's port: not VC 1's tuple.
    StHeader rs;
    rs.op = StOp::Rs;
    rs.dPort = b2->GetLocalPort();
    rs.sPort = a1->GetLocalPort();
    rs.dKey = b1->GetLocalKey();
    rs.bNum = 0;
    rs.dId = 0xFFFFFFFF;
    std::vector<uint8_t> bytes(ST_HEADER_SIZE);
    rs.Encode(bytes.data());
    StHeader::SealChecksum(bytes.data());
    w.Inject(true, bytes);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::WrongPort), 1u);
    // With its own port it is VC 1's.
    rs.dPort = b1->GetLocalPort();
    rs.Encode(bytes.data());
    StHeader::SealChecksum(bytes.data());
    w.Inject(true, bytes);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::WrongPort), 1u);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::Accepted), 3u);
}

BOOST_AUTO_TEST_CASE(rc_at_port_zero_irix_form_shares_the_service_port)
{
    // rcToPortZero false (IRIX): the RC goes to the service's port and the VCs a listener
    // accepts share it; a responder with the default answers that form too.
    StConfig irix;
    irix.rcToPortZero = false;
    TestWire w(irix, StConfig());
    w.b.Listen(5000);
    StConnId i1 = 0;
    StConnId i2 = 0;
    w.a.Connect(w.now, TestWire::ADDR_B, 5000, StConnParams(), i1);
    w.a.Connect(w.now, TestWire::ADDR_B, 5000, StConnParams(), i2);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC >RC <CA <CA");
    BOOST_CHECK_EQUAL(w.trace[0].h.dPort, 5000);
    BOOST_CHECK_EQUAL(w.trace[0].h.dKey, 0u);
    BOOST_CHECK_EQUAL(w.trace[2].h.sPort, 5000);
    BOOST_CHECK_EQUAL(w.a.Find(i1)->GetRemotePort(), 5000);
    BOOST_CHECK_EQUAL(w.a.Find(i2)->GetRemotePort(), 5000);
    BOOST_CHECK(w.a.Find(i2)->GetState() == StConnState::Connected);
    for (StConnId id : w.b.GetConnections())
    {
        BOOST_CHECK_EQUAL(w.b.Find(id)->GetLocalPort(), 5000);
    }
    BOOST_CHECK_EQUAL(w.a.GetCounters().Dropped() + w.b.GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(rc_at_port_zero_queue_drops_and_the_retry_connects)
{
    // Port 0 with one slot: a second RC while the first VC waits unclaimed is dropped
    // unanswered (Port0Full); once the upper layer claims the first, the RC's retry (1 s)
    // connects.
    StConfig one;
    one.port0Slots = 1;
    TestWire w(StConfig(), one);
    w.b.Listen(5000);
    StConnId i1 = 0;
    StConnId i2 = 0;
    w.a.Connect(w.now, TestWire::ADDR_B, 5000, StConnParams(), i1);
    w.Settle();
    w.a.Connect(w.now, TestWire::ADDR_B, 5000, StConnParams(), i2);
    w.Run(w.now + 500000000ULL);
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RC");
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::Port0Full), 1u);
    BOOST_CHECK(w.a.Find(i2)->GetState() == StConnState::RcSent);
    BOOST_CHECK_EQUAL(w.b.GetUnclaimed(), 1u);
    w.b.Claim(w.b.GetConnections().front());
    BOOST_CHECK_EQUAL(w.b.GetUnclaimed(), 0u);
    w.Run(w.now + 1000000000ULL);
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RC >RC <CA");
    BOOST_CHECK(w.a.Find(i2)->GetState() == StConnState::Connected);
    BOOST_CHECK_EQUAL(w.b.GetUnclaimed(), 1u);
}

BOOST_AUTO_TEST_CASE(rc_at_port_zero_is_not_a_service)
{
    TestWire w;
    BOOST_CHECK(w.b.Listen(0) == StStatus::InvalidArgument);
    StConnId id = 0;
    BOOST_CHECK(w.a.Connect(w.now, TestWire::ADDR_B, 0, StConnParams(), id) ==
                StStatus::InvalidArgument);
    BOOST_CHECK(w.trace.empty());
    // An RC at Port 0 naming no service (or more than 16 bits) is a bad field, unanswered.
    StHeader rc;
    rc.op = StOp::Rc;
    rc.sPort = 49152;
    rc.param = 255;
    rc.bufx = 14;
    rc.offset = 1234;
    rc.sync = 14;
    std::vector<uint8_t> bytes(ST_HEADER_SIZE);
    for (uint32_t service : {0u, 0x10000u})
    {
        rc.dKey = service;
        rc.Encode(bytes.data());
        StHeader::SealChecksum(bytes.data());
        w.Inject(true, bytes);
    }
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::BadField), 2u);
    BOOST_CHECK(w.trace.empty());
    // Naming a service nobody listens on: refused from Port 0.
    rc.dKey = 7000;
    rc.Encode(bytes.data());
    StHeader::SealChecksum(bytes.data());
    w.Inject(true, bytes);
    BOOST_CHECK_EQUAL(w.Ops(), "<CA(R)");
    BOOST_CHECK_EQUAL(w.trace[0].h.sPort, 0);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::NoListener), 1u);
}

BOOST_AUTO_TEST_SUITE_END()
