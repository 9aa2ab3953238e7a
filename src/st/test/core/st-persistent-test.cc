/*
 * st-persistent-test.cc: persistent memory on a simulated wire: RMR/MRA, PUT, GETs (several
 * outstanding), FETCHOP increment/decrement/clear with FC, atomicity when the FC is lost,
 * END/EA releasing a region, and FETCHOP/PUT on a released region.
 */
#include "st-test-wire.h"

#include <boost/test/unit_test.hpp>

using namespace ns3::st;
using namespace ns3::st::test;

namespace
{

struct Persistent
{
    TestWire w;
    StConnection* ca{nullptr};
    StConnection* cb{nullptr};
    Buffer region{8192, 0}; // B's exposed memory
    Buffer local{8192, 0};  // A's memory (TX and RX)
    uint32_t rid{0};        // A's handle of the region

    Persistent()
    {
        auto [ia, ib] = w.Connect();
        ca = w.a.Find(ia);
        cb = w.b.Find(ib);
        std::fill(region.bytes.begin(), region.bytes.end(), 0);
        std::fill(local.bytes.begin(), local.bytes.end(), 0);
        uint32_t h = 0;
        uint16_t mx = 0;
        cb->GetMemory().Map(StMemoryTable::PIN_RX | StMemoryTable::PIN_TX,
                            region.data(),
                            region.bytes.size(),
                            0,
                            -1,
                            h,
                            mx);
        ca->GetMemory().Map(StMemoryTable::PIN_RX | StMemoryTable::PIN_TX,
                            local.data(),
                            local.bytes.size(),
                            0,
                            -1,
                            h,
                            mx);
        cb->ExposeRegion(w.now, cb->GetMemory().Linear(0, 0), 4096);
        ca->RequestRegion(w.now, 4096, rid);
        w.Settle();
    }

    void SetWord(std::vector<uint8_t>& m, std::size_t at, uint64_t v)
    {
        for (int i = 7; i >= 0; --i, v >>= 8)
        {
            m[at + i] = static_cast<uint8_t>(v);
        }
    }

    uint64_t Word(const std::vector<uint8_t>& m, std::size_t at) const
    {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
        {
            v = (v << 8) | m[at + i];
        }
        return v;
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(st_persistent)

BOOST_AUTO_TEST_CASE(rmr_mra_put_get)
{
    Persistent p;
    BOOST_CHECK_EQUAL(p.w.Ops(), ">RC <CA >RMR <MRA");
    BOOST_CHECK(p.ca->IsRegionReady(p.rid));
    const StEvent* e = TestWire::FindEvent(p.w.eventsA, StEventType::RegionAvailable);
    BOOST_REQUIRE(e != nullptr);
    BOOST_CHECK_EQUAL(e->bytes, 4096u);
    BOOST_CHECK_EQUAL(p.w.trace[2].h.GetTLen(), 4096u);
    BOOST_CHECK_EQUAL(p.w.trace[3].h.dId, p.rid);

    // PUT 100 bytes at region offset 1000.
    for (int i = 0; i < 100; ++i)
    {
        p.local.bytes[i] = static_cast<uint8_t>(i + 1);
    }
    BOOST_REQUIRE(p.ca->Put(p.w.now, p.rid, 1000, 0, 100) == StStatus::Ok);
    p.w.Settle();
    BOOST_CHECK(std::equal(p.local.bytes.begin(),
                           p.local.bytes.begin() + 100,
                           p.region.bytes.begin() + 1000));
    BOOST_CHECK_EQUAL(p.region.bytes[999], 0);
    BOOST_CHECK_EQUAL(p.region.bytes[1100], 0);

    // Three GETs outstanding at once into different places of A's memory.
    for (int i = 0; i < 4096; ++i)
    {
        p.region.bytes[i] = static_cast<uint8_t>(i * 7);
    }
    uint32_t g1 = 0, g2 = 0, g3 = 0;
    BOOST_REQUIRE(p.ca->Get(p.w.now, p.rid, 0, 4096, 512, g1) == StStatus::Ok);
    BOOST_REQUIRE(p.ca->Get(p.w.now, p.rid, 512, 4096 + 512, 512, g2) == StStatus::Ok);
    BOOST_REQUIRE(p.ca->Get(p.w.now, p.rid, 3000, 6000, 1000, g3) == StStatus::Ok);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.w.Ops(), ">RC <CA >RMR <MRA >DATA >GET >GET >GET <DATA <DATA <DATA");
    BOOST_CHECK(std::equal(p.region.bytes.begin(),
                           p.region.bytes.begin() + 1024,
                           p.local.bytes.begin() + 4096));
    BOOST_CHECK(std::equal(p.region.bytes.begin() + 3000,
                           p.region.bytes.begin() + 4000,
                           p.local.bytes.begin() + 6000));
    BOOST_CHECK_EQUAL(TestWire::CountEvents(p.w.eventsA, StEventType::GetComplete), 3u);
    // GET fields: 16-bit T_len, R_id, G_id.
    const StHeader& get = p.w.trace[5].h;
    BOOST_CHECK_EQUAL(get.param, 512);
    BOOST_CHECK_EQUAL(get.sId, g1);
    BOOST_CHECK_EQUAL(get.bNum, 4096u % (1u << 14)); // I_Offset
    // Limits.
    uint32_t g = 0;
    BOOST_CHECK(p.ca->Get(p.w.now, p.rid, 0, 0, 70000, g) == StStatus::TooLarge);
    BOOST_CHECK(p.ca->Get(p.w.now, p.rid, 4000, 0, 200, g) == StStatus::TooLarge);
    BOOST_CHECK(p.ca->Put(p.w.now, p.rid, 4000, 0, 200) == StStatus::TooLarge);
    BOOST_CHECK(p.ca->Put(p.w.now, p.rid + 99, 0, 0, 10) == StStatus::NoSuchTransfer);
    BOOST_CHECK_EQUAL(p.w.a.GetCounters().Dropped() + p.w.b.GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(put_is_one_stu)
{
    // A Put is one data operation (one STU) [C] SEED-GSN: B's Bufsize (and so Max_STU) is
    // 2^10, so a Put of 1024 bytes goes as one DATA, and one of 1025 bytes, or one crossing
    // a Bufx entry of B, is refused (PutTooLarge), counted, and sends nothing.
    TestWire w;
    StConnParams pb;
    pb.bufsize = 10;
    auto [ia, ib] = w.Connect(5000, StConnParams(), pb);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer region{8192, 0};
    Buffer local{8192, 0};
    uint32_t h = 0;
    uint16_t mx = 0;
    cb->GetMemory().Map(StMemoryTable::PIN_RX, region.data(), region.bytes.size(), 0, -1, h, mx);
    ca->GetMemory().Map(StMemoryTable::PIN_TX, local.data(), local.bytes.size(), 0, -1, h, mx);
    for (std::size_t i = 0; i < local.bytes.size(); ++i)
    {
        local.bytes[i] = static_cast<uint8_t>(i * 3 + 1);
    }
    cb->ExposeRegion(w.now, cb->GetMemory().Linear(0, 0), 4096);
    uint32_t rid = 0;
    ca->RequestRegion(w.now, 4096, rid);
    w.Settle();
    BOOST_REQUIRE(ca->IsRegionReady(rid));
    BOOST_CHECK_EQUAL(ca->GetPutLimit(), 1024u);
    const std::size_t before = w.trace.size();
    BOOST_CHECK(ca->Put(w.now, rid, 0, 0, 1025) == StStatus::PutTooLarge);
    BOOST_CHECK(ca->Put(w.now, rid, 100, 0, 1000) == StStatus::PutTooLarge); // 2 Bufx entries
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StStat::PutsRefused), 2u);
    w.Settle();
    BOOST_CHECK_EQUAL(w.trace.size(), before);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::PutComplete) == nullptr);
    // The largest Puts: a whole Bufx entry, and the rest of one from an offset.
    BOOST_REQUIRE(ca->Put(w.now, rid, 1024, 0, 1024) == StStatus::Ok);
    BOOST_REQUIRE(ca->Put(w.now, rid, 100, 2000, 924) == StStatus::Ok);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RMR <MRA >DATA >DATA");
    BOOST_CHECK(
        std::equal(local.bytes.begin(), local.bytes.begin() + 1024, region.bytes.begin() + 1024));
    BOOST_CHECK(std::equal(local.bytes.begin() + 2000,
                           local.bytes.begin() + 2924,
                           region.bytes.begin() + 100));
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsA, StEventType::PutComplete), 2u);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StStat::PutsRefused), 2u);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Dropped() + w.b.GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(rmr_rejected_without_exposed_memory)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    uint32_t rid = 0;
    w.a.Find(ia)->RequestRegion(w.now, 100, rid);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RMR <RA(R)");
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferRejected) != nullptr);
    BOOST_CHECK(!w.a.Find(ia)->IsRegionReady(rid));
    (void)ib;
}

BOOST_AUTO_TEST_CASE(fetchop_increment_decrement_clear)
{
    Persistent p;
    p.SetWord(p.region.bytes, 64, 41);
    uint32_t g = 0;
    BOOST_REQUIRE(p.ca->FetchOp(p.w.now, p.rid, 64, 128, StFetchOp::Increment, g) == StStatus::Ok);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.w.Ops(), ">RC <CA >RMR <MRA >FETCHOP <DATA >FC");
    const StEvent* e = TestWire::FindEvent(p.w.eventsA, StEventType::FetchOpComplete);
    BOOST_REQUIRE(e != nullptr);
    BOOST_CHECK_EQUAL(e->value, 41u); // the old value
    BOOST_CHECK_EQUAL(p.Word(p.local.bytes, 128), 41u);
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 64), 42u); // applied on FC
    BOOST_CHECK_EQUAL(p.w.trace[4].h.param, 8);         // T_len 8
    BOOST_CHECK_EQUAL(p.w.trace[5].len, 48u);           // one 8-byte STU

    p.ca->FetchOp(p.w.now, p.rid, 64, 128, StFetchOp::Decrement, g);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 64), 41u);
    p.ca->FetchOp(p.w.now, p.rid, 64, 128, StFetchOp::Clear, g);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 64), 0u);
    BOOST_CHECK_EQUAL(p.Word(p.local.bytes, 128), 41u);
    p.ca->FetchOp(p.w.now, p.rid, 64, 128, StFetchOp::Decrement, g);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 64), UINT64_MAX); // wraps
    BOOST_CHECK(p.ca->FetchOp(p.w.now, p.rid, 4090, 128, StFetchOp::Increment, g) ==
                StStatus::TooLarge);
    BOOST_CHECK(p.ca->FetchOp(p.w.now, p.rid, 0, 128, StFetchOp::Complete, g) ==
                StStatus::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(fetchop_atomic_when_fc_is_lost)
{
    Persistent p;
    p.SetWord(p.region.bytes, 8, 100);
    int n = 0;
    p.w.drop = [&n](const WireRecord& r) { return r.h.Name() == "FC" && n++ == 0; };
    uint32_t g = 0;
    p.ca->FetchOp(p.w.now, p.rid, 8, 0, StFetchOp::Increment, g);
    p.w.Settle();
    // FC lost: the op is not applied yet.
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 8), 100u);
    p.w.Run(p.w.now + 5000000000ULL);
    // B resent the DATA after 1 s; A answered with FC again; applied exactly once.
    BOOST_CHECK_EQUAL(p.w.Ops(), ">RC <CA >RMR <MRA >FETCHOP <DATA >FCx <DATA >FC");
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 8), 101u);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(p.w.eventsA, StEventType::FetchOpComplete), 1u);
    BOOST_CHECK_EQUAL(p.w.b.GetCounters().Get(StStat::FetchOpResends), 1u);
    BOOST_CHECK_EQUAL(p.w.a.GetCounters().Get(StRxVerdict::Duplicate), 1u);
    // A second FETCHOP sees the single increment.
    p.w.drop = nullptr;
    p.ca->FetchOp(p.w.now, p.rid, 8, 0, StFetchOp::Increment, g);
    p.w.Settle();
    const StEvent* last = nullptr;
    for (const auto& e : p.w.eventsA)
    {
        if (e.type == StEventType::FetchOpComplete)
        {
            last = &e;
        }
    }
    BOOST_REQUIRE(last != nullptr);
    BOOST_CHECK_EQUAL(last->value, 101u);
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 8), 102u);
}

BOOST_AUTO_TEST_CASE(fetchop_applied_once_when_it_comes_again_after_its_fc)
{
    // A FETCHOP retransmitted by its initiator may arrive after the FC that applied it
    // (a slow path, a resend crossing the DATA). It must not be applied a second time:
    // not by serving it again (the initiator answers any DATA of that G_id with its FC),
    // nor by a repeated FC.
    Persistent p;
    p.SetWord(p.region.bytes, 16, 500);
    uint32_t g = 0;
    BOOST_REQUIRE(p.ca->FetchOp(p.w.now, p.rid, 16, 0, StFetchOp::Increment, g) == StStatus::Ok);
    p.w.Settle();
    BOOST_REQUIRE_EQUAL(p.w.Ops(), ">RC <CA >RMR <MRA >FETCHOP <DATA >FC");
    BOOST_REQUIRE_EQUAL(p.Word(p.region.bytes, 16), 501u);
    const StHeader fetchop = p.w.trace[4].h;
    const StHeader fc = p.w.trace[6].h;
    std::vector<uint8_t> bytes(ST_HEADER_SIZE);
    for (int i = 0; i < 3; ++i)
    {
        fetchop.Encode(bytes.data());
        p.w.Inject(true, bytes);
        p.w.Settle();
        fc.Encode(bytes.data());
        p.w.Inject(true, bytes);
        p.w.Settle();
    }
    p.w.Run(p.w.now + 10000000000ULL); // and no timer applies it later
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 16), 501u);
    BOOST_CHECK_EQUAL(p.w.b.GetCounters().Get(StRxVerdict::Duplicate), 6u);
    BOOST_CHECK_EQUAL(p.w.Ops(), ">RC <CA >RMR <MRA >FETCHOP <DATA >FC");
    BOOST_CHECK_EQUAL(TestWire::CountEvents(p.w.eventsA, StEventType::FetchOpComplete), 1u);
    // The next FETCHOP on the word sees the single increment.
    p.ca->FetchOp(p.w.now, p.rid, 16, 0, StFetchOp::Increment, g);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.Word(p.local.bytes, 0), 501u);
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 16), 502u);
}

BOOST_AUTO_TEST_CASE(concurrent_fetchops_on_one_word_serialize)
{
    Persistent p;
    p.SetWord(p.region.bytes, 0, 10);
    uint32_t g1 = 0, g2 = 0, g3 = 0;
    p.ca->FetchOp(p.w.now, p.rid, 0, 0, StFetchOp::Increment, g1);
    p.ca->FetchOp(p.w.now, p.rid, 0, 8, StFetchOp::Increment, g2);
    p.ca->FetchOp(p.w.now, p.rid, 0, 16, StFetchOp::Increment, g3);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 0), 13u);
    std::set<uint64_t> olds = {p.Word(p.local.bytes, 0),
                               p.Word(p.local.bytes, 8),
                               p.Word(p.local.bytes, 16)};
    BOOST_CHECK(olds == (std::set<uint64_t>{10, 11, 12}));
}

BOOST_AUTO_TEST_CASE(end_releases_region_then_fetchop_rejected)
{
    Persistent p;
    BOOST_REQUIRE(p.ca->End(p.w.now, p.rid) == StStatus::Ok);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.w.Ops(), ">RC <CA >RMR <MRA >END <EA");
    BOOST_CHECK(TestWire::FindEvent(p.w.eventsA, StEventType::EndComplete) != nullptr);
    BOOST_CHECK(!p.ca->IsRegionReady(p.rid));
    BOOST_CHECK_EQUAL(p.cb->GetActiveCount(), 0u);
    uint32_t g = 0;
    BOOST_CHECK(p.ca->FetchOp(p.w.now, p.rid, 0, 0, StFetchOp::Increment, g) ==
                StStatus::NoSuchTransfer);

    // A peer that still sends a FETCHOP naming the released region is rejected, counted,
    // and the memory is untouched.
    p.SetWord(p.region.bytes, 0, 7);
    const StHeader& mra = p.w.trace[3].h;
    StHeader f;
    f.op = StOp::Get;
    f.SetFetchOp(StFetchOp::Increment);
    f.param = 8;
    f.dPort = p.ca->GetRemotePort();
    f.sPort = p.ca->GetLocalPort();
    f.dKey = p.ca->GetRemoteKey();
    f.bufx = mra.bufx;
    f.offset = mra.offset;
    f.dId = mra.sId; // the released R_id
    f.sId = 999;
    std::vector<uint8_t> bytes(40);
    f.Encode(bytes.data());
    p.w.Inject(true, bytes);
    p.w.Settle();
    BOOST_CHECK_EQUAL(p.w.b.GetCounters().Get(StRxVerdict::UnknownTransfer), 1u);
    BOOST_CHECK_EQUAL(p.w.trace.back().h.op, StOp::Ra);
    BOOST_CHECK(p.w.trace.back().h.Has(StFlag::REJECT));
    BOOST_CHECK_EQUAL(p.w.trace.back().h.dId, 999u);
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 0), 7u);
    // Same for a PUT (DATA) into the released region.
    StHeader d = f;
    d.op = StOp::Data;
    d.flags = 3;
    d.mx = mra.mx;
    d.sId = 0;
    std::vector<uint8_t> put(48, 0xFF);
    d.Encode(put.data());
    p.w.Inject(true, put);
    BOOST_CHECK_EQUAL(p.w.b.GetCounters().Get(StRxVerdict::UnknownTransfer), 2u);
    BOOST_CHECK_EQUAL(p.Word(p.region.bytes, 0), 7u);
    BOOST_CHECK(p.cb->GetState() == StConnState::Connected);
}

BOOST_AUTO_TEST_CASE(put_outside_region_rejected)
{
    Persistent p;
    const StHeader& mra = p.w.trace[3].h;
    StHeader d;
    d.op = StOp::Data;
    d.flags = 3;
    d.dPort = p.ca->GetRemotePort();
    d.sPort = p.ca->GetLocalPort();
    d.dKey = p.ca->GetRemoteKey();
    d.mx = mra.mx;
    d.bufx = mra.bufx;
    d.offset = 4096 - 4; // region is 4096 bytes: 8 bytes would run past it
    d.dId = mra.sId;
    std::vector<uint8_t> put(48, 0xFF);
    d.Encode(put.data());
    p.w.Inject(true, put);
    BOOST_CHECK_EQUAL(p.w.b.GetCounters().Get(StRxVerdict::OutsideExposure), 1u);
    BOOST_CHECK(std::all_of(p.region.bytes.begin(), p.region.bytes.end(), [](uint8_t v) {
        return v == 0;
    }));
}

BOOST_AUTO_TEST_SUITE_END()
