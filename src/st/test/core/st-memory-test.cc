/*
 * st-memory-test.cc: the Bufx/Mx table: st_map rules, Mx allocation and the protection
 * checks that keep operations inside mapped memory.
 */
#include "st-memory-region.h"

#include <boost/test/unit_test.hpp>
#include <limits>
#include <vector>

using namespace ns3::st;

BOOST_AUTO_TEST_SUITE(st_memory)

BOOST_AUTO_TEST_CASE(map_derives_and_checks_lengths)
{
    StMemoryTable t;
    BOOST_REQUIRE(t.SetBufsize(12) == StStatus::Ok); // 4 KiB entries
    std::vector<uint8_t> mem(10000);
    uint32_t h = 0;
    uint16_t mx = 0;
    // bufx_count -1: derived from len (3 entries).
    BOOST_CHECK(t.Map(StMemoryTable::PIN_RX, mem.data(), mem.size(), 10, -1, h, mx) ==
                StStatus::Ok);
    BOOST_CHECK_EQUAL(mx, 1);
    // Disagreeing len and count.
    BOOST_CHECK(t.Map(StMemoryTable::PIN_TX, mem.data(), mem.size(), 10, 2, h, mx) ==
                StStatus::InvalidArgument);
    // len "-1": derived from the count.
    std::vector<uint8_t> mem2(8192);
    BOOST_CHECK(t.Map(StMemoryTable::PIN_TX,
                      mem2.data(),
                      std::numeric_limits<uint64_t>::max(),
                      100,
                      2,
                      h,
                      mx) == StStatus::Ok);
    BOOST_CHECK_EQUAL(mx, 0); // TX only: no Mx
    BOOST_CHECK(t.Resolve(t.Linear(100, 0), 8192, StMemoryTable::PIN_TX) == mem2.data());
    BOOST_CHECK(t.Resolve(t.Linear(100, 1), 8192, StMemoryTable::PIN_TX) == nullptr);
    // Bad flags, null pointer.
    BOOST_CHECK(t.Map(0, mem.data(), 10, 0, -1, h, mx) == StStatus::InvalidArgument);
    BOOST_CHECK(t.Map(4, mem.data(), 10, 0, -1, h, mx) == StStatus::InvalidArgument);
    BOOST_CHECK(t.Map(1, nullptr, 10, 0, -1, h, mx) == StStatus::InvalidArgument);
    // Bufsize cannot change while mapped; below 2^8 never.
    BOOST_CHECK(t.SetBufsize(13) == StStatus::WrongState);
    StMemoryTable u;
    BOOST_CHECK(u.SetBufsize(7) == StStatus::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(overlap_rules)
{
    StMemoryTable t;
    t.SetBufsize(8);
    std::vector<uint8_t> a(1024), b(1024);
    uint32_t h1 = 0, h2 = 0, h3 = 0;
    uint16_t mx = 0;
    BOOST_CHECK(t.Map(StMemoryTable::PIN_TX, a.data(), 1024, 0, -1, h1, mx) == StStatus::Ok);
    // Same bufx, same memory, for receive: allowed [SEED-API].
    BOOST_CHECK(t.Map(StMemoryTable::PIN_RX, a.data(), 1024, 0, -1, h2, mx) == StStatus::Ok);
    // Same bufx, other memory: refused.
    BOOST_CHECK(t.Map(StMemoryTable::PIN_RX, b.data(), 1024, 2, -1, h3, mx) == StStatus::BufxInUse);
    // Same memory under other bufx: allowed.
    BOOST_CHECK(t.Map(StMemoryTable::PIN_RX, a.data(), 1024, 8, -1, h3, mx) == StStatus::Ok);
    BOOST_CHECK_EQUAL(mx, 2);
    BOOST_CHECK(t.Unmap(h2) == StStatus::Ok);
    BOOST_CHECK(t.Unmap(h2) == StStatus::InvalidArgument);
    // Mx 1 is free again.
    BOOST_CHECK(t.Map(StMemoryTable::PIN_RX, b.data(), 256, 20, 1, h2, mx) == StStatus::Ok);
    BOOST_CHECK_EQUAL(mx, 1);
}

BOOST_AUTO_TEST_CASE(bufx_range_limits_mappings)
{
    StMemoryTable t;
    t.SetBufsize(8);
    BOOST_CHECK(t.SetBufxRange(16, 4) == StStatus::Ok);
    std::vector<uint8_t> a(1024);
    uint32_t h = 0;
    uint16_t mx = 0;
    BOOST_CHECK(t.Map(1, a.data(), 1024, 15, -1, h, mx) == StStatus::InvalidArgument);
    BOOST_CHECK(t.Map(1, a.data(), 1024, 17, -1, h, mx) == StStatus::InvalidArgument);
    BOOST_CHECK(t.Map(1, a.data(), 1024, 16, -1, h, mx) == StStatus::Ok);
    BOOST_CHECK(t.SetBufxRange(17, 4) == StStatus::BufxInUse);
}

BOOST_AUTO_TEST_CASE(incoming_protection)
{
    StMemoryTable t;
    t.SetBufsize(10); // 1 KiB
    std::vector<uint8_t> mem(2500);
    uint32_t h = 0;
    uint16_t mx = 0;
    BOOST_REQUIRE(t.Map(StMemoryTable::PIN_RX, mem.data(), mem.size(), 4, -1, h, mx) ==
                  StStatus::Ok);
    StRxVerdict why;
    BOOST_CHECK(t.ResolveIncoming(mx, 4, 0, 1024, why) == mem.data());
    BOOST_CHECK(why == StRxVerdict::Accepted);
    BOOST_CHECK(t.ResolveIncoming(mx, 5, 100, 10, why) == mem.data() + 1124);
    // Crossing a Bufx boundary.
    BOOST_CHECK(t.ResolveIncoming(mx, 4, 1000, 100, why) == nullptr);
    BOOST_CHECK(why == StRxVerdict::OutsideMapping);
    // Offset beyond the entry.
    BOOST_CHECK(t.ResolveIncoming(mx, 4, 1024, 1, why) == nullptr);
    // Last, partial entry: 2500 - 2048 = 452 bytes.
    BOOST_CHECK(t.ResolveIncoming(mx, 6, 0, 452, why) != nullptr);
    BOOST_CHECK(t.ResolveIncoming(mx, 6, 0, 453, why) == nullptr);
    // Bufx outside the Mx, unknown Mx, Mx 0.
    BOOST_CHECK(t.ResolveIncoming(mx, 3, 0, 1, why) == nullptr);
    BOOST_CHECK(t.ResolveIncoming(mx, 7, 0, 1, why) == nullptr);
    BOOST_CHECK(t.ResolveIncoming(mx + 1, 4, 0, 1, why) == nullptr);
    BOOST_CHECK(t.ResolveIncoming(0, 4, 0, 1, why) == nullptr);
    // TX-only memory has no Mx and cannot be written by the peer.
    std::vector<uint8_t> tx(1024);
    uint16_t mx2 = 9;
    BOOST_REQUIRE(t.Map(StMemoryTable::PIN_TX, tx.data(), 1024, 20, -1, h, mx2) == StStatus::Ok);
    BOOST_CHECK_EQUAL(mx2, 0);
    BOOST_CHECK(t.Resolve(t.Linear(20, 0), 1024, StMemoryTable::PIN_RX) == nullptr);
    BOOST_CHECK(t.FindRx(t.Linear(20, 0), 10) == nullptr);
    BOOST_CHECK(t.FindRx(t.Linear(4, 10), 10) != nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
