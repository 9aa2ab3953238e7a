/*
 * st-no-bytes-test.cc: memory that holds no bytes (StMemoryTable::NO_BYTES: length and
 * protection only, read as zeros, with an optional check at the destination) and
 * single-use transfers of unlimited length (T_len ST_TLEN_UNLIMITED, Table 1-9) that cycle
 * over the memory at both ends until an END.
 */
#include "st-test-wire.h"

#include <boost/test/unit_test.hpp>

using namespace ns3::st;
using namespace ns3::st::test;

namespace
{

constexpr int TX = StMemoryTable::PIN_TX;
constexpr int RX = StMemoryTable::PIN_RX;
constexpr int NB = StMemoryTable::NO_BYTES;
constexpr int CK = StMemoryTable::CHECK;

/// Map \p len bytes without bytes at Bufx \p bufx. \return the Mx
uint16_t
MapNoBytes(StConnection* c, int flags, uint64_t len, uint32_t bufx)
{
    uint32_t h = 0;
    uint16_t mx = 0;
    StStatus s = c->GetMemory().Map(flags | NB, nullptr, len, bufx, -1, h, mx);
    BOOST_REQUIRE_MESSAGE(s == StStatus::Ok, StStatusName(s));
    return mx;
}

/// Map buffer \p b at Bufx \p bufx. \return the Mx
uint16_t
MapReal(StConnection* c, int flags, Buffer& b, uint32_t bufx)
{
    uint32_t h = 0;
    uint16_t mx = 0;
    StStatus s = c->GetMemory().Map(flags, b.data(), b.bytes.size(), bufx, -1, h, mx);
    BOOST_REQUIRE_MESSAGE(s == StStatus::Ok, StStatusName(s));
    return mx;
}

uint64_t
Lin(StConnection* c, uint32_t bufx)
{
    return c->GetMemory().Linear(bufx, 0);
}

} // namespace

BOOST_AUTO_TEST_SUITE(st_no_bytes)

BOOST_AUTO_TEST_CASE(map_rules)
{
    StMemoryTable t;
    uint8_t byte = 0;
    uint32_t h = 0;
    uint16_t mx = 0;
    // Without bytes there is no pointer; with bytes there must be one; CHECK needs NO_BYTES.
    BOOST_CHECK(t.Map(TX | NB, &byte, 100, 0, -1, h, mx) == StStatus::InvalidArgument);
    BOOST_CHECK(t.Map(TX, nullptr, 100, 0, -1, h, mx) == StStatus::InvalidArgument);
    BOOST_CHECK(t.Map(RX | CK, &byte, 1, 0, -1, h, mx) == StStatus::InvalidArgument);
    BOOST_CHECK(t.Map(NB, nullptr, 100, 0, -1, h, mx) == StStatus::InvalidArgument);
    // 1 TiB costs nothing.
    const uint64_t tib = 1ULL << 40;
    BOOST_REQUIRE(t.Map(TX | RX | NB | CK, nullptr, tib, 0, -1, h, mx) == StStatus::Ok);
    BOOST_CHECK(mx != 0);
    const StMemRef r = t.Lookup(tib - 10, 10, TX);
    BOOST_CHECK(static_cast<bool>(r));
    BOOST_CHECK(r.HoldsNoBytes());
    BOOST_CHECK(r.ptr == nullptr);
    BOOST_CHECK(!t.Lookup(tib - 10, 11, TX));     // past the end
    BOOST_CHECK(t.Resolve(0, 10, TX) == nullptr); // no bytes to give
    StRxVerdict why = StRxVerdict::Accepted;
    BOOST_CHECK(t.LookupIncoming(mx, 5, 100, 200, why).HoldsNoBytes());
    BOOST_CHECK(why == StRxVerdict::Accepted);
    // Real memory over the same Bufx is refused; memory without bytes over the same range
    // (a TX and an RX mapping of it) is not.
    std::vector<uint8_t> real(1 << 14);
    BOOST_CHECK(t.Map(TX, real.data(), real.size(), 0, -1, h, mx) == StStatus::BufxInUse);
    BOOST_CHECK(t.Map(TX | NB, nullptr, 1 << 14, 0, -1, h, mx) == StStatus::Ok);
}

BOOST_AUTO_TEST_CASE(write_without_bytes_checked)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    const uint64_t len = (1 << 20) + 1000;
    MapNoBytes(ca, TX, len, 0);
    MapNoBytes(cb, RX | CK, len, 0);
    BOOST_REQUIRE(cb->PostReceive(w.now, Lin(cb, 0), len) == StStatus::Ok);
    uint32_t id = 0;
    BOOST_REQUIRE(ca->Write(w.now, Lin(ca, 0), len, StWriteOptions(), id) == StStatus::Ok);
    w.Settle();
    const StEvent* done = TestWire::FindEvent(w.eventsB, StEventType::TransferComplete);
    BOOST_REQUIRE(done != nullptr);
    BOOST_CHECK_EQUAL(done->bytes, len);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StStat::RxDataBytes), len);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StStat::PatternErrors), 0u);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StStat::TxDataBytes), len);
    // The DATA on the wire carry their whole payload (zeros the carrier appended).
    uint64_t onWire = 0;
    for (const auto& r : w.trace)
    {
        if (r.h.op == StOp::Data)
        {
            onWire += r.len - ST_HEADER_SIZE;
        }
    }
    BOOST_CHECK_EQUAL(onWire, len);
}

BOOST_AUTO_TEST_CASE(check_finds_bytes_that_are_not_zero)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(5000, 3); // a pattern with non-zero bytes
    MapReal(ca, TX, src, 0);
    MapNoBytes(cb, RX | CK, 5000, 0);
    BOOST_REQUIRE(cb->PostReceive(w.now, Lin(cb, 0), 5000) == StStatus::Ok);
    uint32_t id = 0;
    BOOST_REQUIRE(ca->Write(w.now, Lin(ca, 0), 5000, StWriteOptions(), id) == StStatus::Ok);
    w.Settle();
    BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::TransferComplete) != nullptr);
    const uint64_t nonZero = static_cast<uint64_t>(
        std::count_if(src.bytes.begin(), src.bytes.end(), [](uint8_t b) { return b != 0; }));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StStat::PatternErrors), nonZero);
}

BOOST_AUTO_TEST_CASE(no_bytes_into_real_memory_writes_zeros)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    MapNoBytes(ca, TX, 3000, 0);
    Buffer dst(4096, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0xFF);
    MapReal(cb, RX, dst, 0);
    BOOST_REQUIRE(cb->PostReceive(w.now, Lin(cb, 0), 4096) == StStatus::Ok);
    uint32_t id = 0;
    BOOST_REQUIRE(ca->Write(w.now, Lin(ca, 0), 3000, StWriteOptions(), id) == StStatus::Ok);
    w.Settle();
    BOOST_CHECK(
        std::all_of(dst.bytes.begin(), dst.bytes.begin() + 3000, [](uint8_t b) { return b == 0; }));
    BOOST_CHECK_EQUAL(dst.bytes[3000], 0xFF);
}

BOOST_AUTO_TEST_CASE(fetch_op_needs_bytes)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    MapNoBytes(ca, TX | RX, 1 << 14, 0);
    uint32_t gid = 0;
    // No region yet either, but memory without bytes is refused first: it holds no word.
    BOOST_CHECK(ca->FetchOp(w.now, 1, 0, Lin(ca, 0), StFetchOp::Increment, gid) != StStatus::Ok);
}

/// An unlimited write: block after block until the source ends it; each side completes.
void
UnlimitedWrite(bool realDestination)
{
    StConnParams p;
    p.maxBlock = 14; // 16 KiB blocks
    TestWire w;
    auto [ia, ib] = w.Connect(5000, p, p);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    const uint64_t ring = 4 << 14; // four blocks at each end
    MapNoBytes(ca, TX, ring, 0);
    Buffer dst(ring, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0xFF);
    if (realDestination)
    {
        MapReal(cb, RX, dst, 0);
    }
    else
    {
        MapNoBytes(cb, RX | CK, ring, 0);
    }
    BOOST_REQUIRE(cb->PostReceive(w.now, Lin(cb, 0), ring) == StStatus::Ok);
    StWriteOptions opt;
    opt.unlimited = true;
    uint32_t id = 0;
    BOOST_REQUIRE(ca->Write(w.now, Lin(ca, 0), ring, opt, id) == StStatus::Ok);
    const uint64_t target = 100 * ring; // far beyond the memory at either end
    int guard = 0;
    while (w.b.GetCounters().Get(StStat::RxDataBytes) < target && w.Step() && ++guard < 1000000)
    {
    }
    BOOST_REQUIRE_GE(w.b.GetCounters().Get(StStat::RxDataBytes), target);
    BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::TransferComplete) == nullptr);
    BOOST_CHECK_EQUAL(w.trace[2].h.op == StOp::Rts, true);
    BOOST_CHECK_EQUAL(w.trace[2].h.GetTLen(), ST_TLEN_UNLIMITED);
    // The destination never grants more blocks than its memory holds: four CTS before the
    // first DATA, although CTS_req is 64.
    int ctsBeforeData = 0;
    for (const auto& r : w.trace)
    {
        if (r.h.op == StOp::Data)
        {
            break;
        }
        ctsBeforeData += r.h.op == StOp::Cts;
    }
    BOOST_CHECK_EQUAL(ctsBeforeData, 4);
    BOOST_REQUIRE(ca->End(w.now, id) == StStatus::Ok);
    w.Settle();
    const StEvent* src = TestWire::FindEvent(w.eventsA, StEventType::TransferComplete);
    const StEvent* dstDone = TestWire::FindEvent(w.eventsB, StEventType::TransferComplete);
    BOOST_REQUIRE(src != nullptr);
    BOOST_REQUIRE(dstDone != nullptr);
    BOOST_CHECK_GE(src->bytes, target);
    BOOST_CHECK_EQUAL(dstDone->bytes, w.b.GetCounters().Get(StStat::RxDataBytes));
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsA, StEventType::TransferAborted), 0u);
    BOOST_CHECK_EQUAL(TestWire::CountEvents(w.eventsB, StEventType::TransferAborted), 0u);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StStat::PatternErrors), 0u);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Dropped(), 0u);
    if (realDestination)
    {
        BOOST_CHECK(
            std::all_of(dst.bytes.begin(), dst.bytes.end(), [](uint8_t b) { return b == 0; }));
    }
}

BOOST_AUTO_TEST_CASE(unlimited_write_without_bytes)
{
    UnlimitedWrite(false);
}

BOOST_AUTO_TEST_CASE(unlimited_write_into_real_memory)
{
    UnlimitedWrite(true);
}

BOOST_AUTO_TEST_SUITE_END()
