/*
 * st-state-test.cc: RS/RSR in their three kinds, duplicate RS, operation timeouts and
 * retries (1 s x 3, then teardown), and the Interrupt flag.
 */
#include "st-test-wire.h"

#include <boost/test/unit_test.hpp>

using namespace ns3::st;
using namespace ns3::st::test;

namespace
{

struct Pair
{
    TestWire w;
    StConnection* ca{nullptr};
    StConnection* cb{nullptr};

    explicit Pair(const StConfig& cfg = StConfig(), StConnParams pa = StConnParams())
        : w(cfg, cfg)
    {
        auto [ia, ib] = w.Connect(5000, pa);
        ca = w.a.Find(ia);
        cb = w.b.Find(ib);
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(st_state)

BOOST_AUTO_TEST_CASE(rs_three_kinds)
{
    StConnParams pa;
    pa.maxBlock = 10;
    pa.ctsReq = 1;
    Pair p(StConfig(), pa);
    Buffer src(4096, 1), dst(4096, 0);
    uint32_t h = 0;
    uint16_t mx = 0;
    p.ca->GetMemory().Map(StMemoryTable::PIN_TX, src.data(), 4096, 0, -1, h, mx);
    p.cb->GetMemory().Map(StMemoryTable::PIN_RX, dst.data(), 4096, 0, -1, h, mx);
    // Drop DATA of blocks 2 and 3, so the transfer stays open at B.
    p.w.drop = [](const WireRecord& r) { return r.h.op == StOp::Data && r.h.bNum >= 2; };
    p.cb->PostReceive(p.w.now, 0, 4096);
    uint32_t id = 0;
    p.ca->Write(p.w.now, 0, 4096, StWriteOptions(), id);
    p.w.Settle();

    uint32_t s1 = 0, s2 = 0, s3 = 0, s4 = 0;
    BOOST_REQUIRE(p.ca->RequestState(p.w.now, StStateKind::Slots, 0, 0, s1) == StStatus::Ok);
    BOOST_REQUIRE(p.ca->RequestState(p.w.now, StStateKind::Transfer, id, 0, s2) == StStatus::Ok);
    BOOST_REQUIRE(p.ca->RequestState(p.w.now, StStateKind::Block, id, 1, s3) == StStatus::Ok);
    BOOST_REQUIRE(p.ca->RequestState(p.w.now, StStateKind::Block, id, 2, s4) == StStatus::Ok);
    BOOST_CHECK(p.ca->RequestState(p.w.now, StStateKind::Block, id + 50, 2, s4) ==
                StStatus::NoSuchTransfer);
    p.w.Settle();
    std::vector<StHeader> rs, rsr;
    for (const auto& r : p.w.trace)
    {
        if (r.h.op == StOp::Rs && r.fromA)
            rs.push_back(r.h);
        if (r.h.op == StOp::Rsr && !r.fromA)
            rsr.push_back(r.h);
    }
    BOOST_REQUIRE_EQUAL(rsr.size(), 4u);
    BOOST_CHECK_EQUAL(rs[0].dId, ST_NONE32);  // kind 1 marker
    BOOST_CHECK_EQUAL(rs[1].bNum, ST_NONE32); // kind 2 marker
    BOOST_CHECK_EQUAL(rs[2].bNum, 1u);        // kind 3
    // Answers, matched by Sync.
    BOOST_CHECK_EQUAL(rsr[0].sync, s1);
    BOOST_CHECK_EQUAL(rsr[0].dId, ST_NONE32);
    BOOST_CHECK_EQUAL(rsr[1].sync, s2);
    BOOST_CHECK_EQUAL(rsr[1].offset, 1u); // B_seq: blocks 0 and 1 arrived
    BOOST_CHECK_EQUAL(rsr[1].bNum, ST_NONE32);
    BOOST_CHECK_EQUAL(rsr[1].dId, id);         // our id echoed
    BOOST_CHECK_EQUAL(rsr[2].bNum, 1u);        // block 1 arrived
    BOOST_CHECK_EQUAL(rsr[3].bNum, ST_NONE32); // block 2 did not
    BOOST_CHECK_EQUAL(rsr[3].offset, 1u);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(p.w.eventsA, StEventType::StateResponse), 4u);
}

// Under the seed's slot rule (the default) the resent RS takes a slot of its own; the cached
// RSR cannot report it, the next RSR does. Under the IRIX rule RS takes none.
BOOST_AUTO_TEST_CASE(duplicate_rs_answered_but_slots_counted_once)
{
    for (bool seedRule : {true, false})
    {
        StConfig cfg;
        cfg.rsRsrUseSlots = seedRule;
        Pair p(cfg);
        p.w.pollB = true;
        const uint32_t before = p.ca->GetTxSlotsLeft();
        int n = 0;
        p.w.drop = [&n](const WireRecord& r) { return r.h.op == StOp::Rsr && n++ == 0; };
        uint32_t s = 0;
        p.ca->RequestState(p.w.now, StStateKind::Slots, 0, 0, s);
        p.w.Run(p.w.now + 3000000000ULL);
        // The RSR was lost: the RS went again with the same Sync and got the cached answer.
        BOOST_CHECK_EQUAL(p.w.Count("RS", true), 2u);
        BOOST_CHECK_EQUAL(p.w.Count("RSR", false), 2u);
        BOOST_CHECK_EQUAL(p.w.b.GetCounters().Get(StRxVerdict::Duplicate), 1u);
        BOOST_CHECK_EQUAL(TestWire::CountEvents(p.w.eventsA, StEventType::StateResponse), 1u);
        BOOST_CHECK_EQUAL(p.ca->GetTxSlotsLeft(), seedRule ? before - 1 : before);
        if (seedRule)
        {
            p.ca->RequestState(p.w.now, StStateKind::Slots, 0, 0, s);
            p.w.Run(p.w.now + 3000000000ULL);
            BOOST_CHECK_EQUAL(p.ca->GetTxSlotsLeft(), before); // the next RSR returned it
        }
    }
}

BOOST_AUTO_TEST_CASE(unanswered_rts_retried_then_teardown)
{
    Pair p;
    Buffer src(100, 1);
    uint32_t h = 0;
    uint16_t mx = 0;
    p.ca->GetMemory().Map(StMemoryTable::PIN_TX, src.data(), 100, 0, -1, h, mx);
    p.w.drop = [](const WireRecord& r) { return r.h.op == StOp::Rts; };
    uint32_t id = 0;
    const uint64_t t0 = p.w.now;
    p.ca->Write(p.w.now, 0, 100, StWriteOptions(), id);
    p.w.Run(t0 + 10000000000ULL);
    std::vector<uint64_t> times;
    for (const auto& r : p.w.trace)
    {
        if (r.h.op == StOp::Rts)
        {
            times.push_back(r.time - t0);
        }
    }
    BOOST_REQUIRE_EQUAL(
        times.size(),
        4u); // first + 3 retries [U] st-protocol-reference.rst, "Timers and error handling"
    BOOST_CHECK_EQUAL(times[1], 1000000000ULL);
    BOOST_CHECK_EQUAL(times[2], 2000000000ULL);
    BOOST_CHECK_EQUAL(times[3], 3000000000ULL);
    // Then the VC is torn down: best-effort RD, B answers, both closed.
    BOOST_CHECK(p.ca->GetState() == StConnState::Closed);
    const StEvent* ab = TestWire::FindEvent(p.w.eventsA, StEventType::TransferAborted);
    const StEvent* cl = TestWire::FindEvent(p.w.eventsA, StEventType::ConnectionClosed);
    BOOST_REQUIRE(ab && cl);
    BOOST_CHECK(cl->reason == StReason::Timeout);
    BOOST_CHECK_EQUAL(p.w.a.GetCounters().Get(StStat::Timeouts), 1u);
    BOOST_CHECK_EQUAL(p.w.a.GetCounters().Get(StStat::Retransmissions), 3u);
    BOOST_CHECK(TestWire::FindEvent(p.w.eventsB, StEventType::ConnectionClosed) != nullptr);
}

BOOST_AUTO_TEST_CASE(timeouts_are_configurable)
{
    StConfig cfg;
    cfg.opTimeoutNs = 50000000; // 50 ms
    cfg.maxRetries = 1;
    Pair p(cfg);
    p.w.drop = [](const WireRecord& r) { return r.h.op == StOp::Rmr; };
    uint32_t id = 0;
    const uint64_t t0 = p.w.now;
    p.ca->RequestRegion(p.w.now, 64, id);
    p.w.Run(t0 + 1000000000ULL);
    BOOST_CHECK_EQUAL(p.w.Count("RMR", true), 2u);
    BOOST_CHECK(p.ca->GetState() == StConnState::Closed);
    BOOST_CHECK(p.w.a.PollTimeout() > t0 + 100000000ULL);
}

BOOST_AUTO_TEST_CASE(poll_timeout_reports_next_deadline)
{
    Pair p;
    BOOST_CHECK_EQUAL(p.w.a.PollTimeout(), ST_NEVER); // idle connected VC: no timer
    uint32_t id = 0;
    p.w.drop = [](const WireRecord&) { return true; };
    p.ca->RequestRegion(p.w.now, 64, id);
    BOOST_CHECK_EQUAL(p.w.a.PollTimeout(), p.w.now + 1000000000ULL);
}

BOOST_AUTO_TEST_CASE(interrupt_flag_on_every_op_when_configured)
{
    StConfig cfg;
    cfg.interrupt = true;
    Pair p(cfg);
    for (const auto& r : p.w.trace)
    {
        BOOST_CHECK(r.h.Has(StFlag::INTERRUPT));
    }
    BOOST_CHECK_EQUAL(p.w.trace.size(), 2u);
    // I set: the receiving side's ULP hears of each accepted operation of a connection (RS at
    // B, its RSR at A; set-up has events of its own).
    uint32_t s = 0;
    p.ca->RequestState(p.w.now, StStateKind::Slots, 0, 0, s);
    p.w.Settle();
    const StEvent* atB = TestWire::FindEvent(p.w.eventsB, StEventType::Interrupt);
    const StEvent* atA = TestWire::FindEvent(p.w.eventsA, StEventType::Interrupt);
    BOOST_REQUIRE(atB != nullptr && atA != nullptr);
    BOOST_CHECK_EQUAL(atB->header.op, StOp::Rs);
    BOOST_CHECK_EQUAL(atA->header.op, StOp::Rsr);
    // Without I, no such event.
    Pair q;
    BOOST_CHECK(TestWire::FindEvent(q.w.eventsA, StEventType::Interrupt) == nullptr);
    BOOST_CHECK(TestWire::FindEvent(q.w.eventsB, StEventType::Interrupt) == nullptr);
}

// The default is the seed's rule: an RS takes a slot, and its RSR gives it back.
BOOST_AUTO_TEST_CASE(seed_slot_rule_makes_rs_use_slots)
{
    Pair p{StConfig()};
    const uint32_t before = p.ca->GetTxSlotsLeft();
    uint32_t s = 0;
    p.ca->RequestState(p.w.now, StStateKind::Slots, 0, 0, s);
    BOOST_CHECK_EQUAL(p.ca->GetTxSlotsLeft(), before - 1);
    p.w.Settle();
    // The RSR gave back the slot the RS used.
    BOOST_CHECK_EQUAL(p.ca->GetTxSlotsLeft(), before);
}

// The IRIX rule, kept as an option: RS and RSR take no slot.
BOOST_AUTO_TEST_CASE(irix_slot_rule_keeps_rs_free)
{
    StConfig cfg;
    cfg.rsRsrUseSlots = false;
    Pair p(cfg);
    const uint32_t before = p.ca->GetTxSlotsLeft();
    uint32_t s = 0;
    p.ca->RequestState(p.w.now, StStateKind::Slots, 0, 0, s);
    BOOST_CHECK_EQUAL(p.ca->GetTxSlotsLeft(), before);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.ca->GetTxSlotsLeft(), before);
}

BOOST_AUTO_TEST_SUITE_END()
