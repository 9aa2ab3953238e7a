/*
 * st-fuzz-test.cc: random and mutated operations thrown at connected endpoints: nothing
 * crashes, every frame gets exactly one verdict, and the endpoints stay usable.
 */
#include "st-test-wire.h"

#include <boost/test/unit_test.hpp>
#include <random>

using namespace ns3::st;
using namespace ns3::st::test;

BOOST_AUTO_TEST_SUITE(st_fuzz)

BOOST_AUTO_TEST_CASE(random_and_mutated_headers)
{
    TestWire w;
    StConnParams pb;
    pb.slots = 16;
    auto [ia, ib] = w.Connect(5000, StConnParams(), pb);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer memA(65536, 1), memB(65536, 2);
    uint32_t h = 0;
    uint16_t mx = 0;
    ca->GetMemory().Map(3, memA.data(), memA.bytes.size(), 0, -1, h, mx);
    cb->GetMemory().Map(3, memB.data(), memB.bytes.size(), 0, -1, h, mx);
    cb->PostReceive(w.now, 0, 32768);
    cb->ExposeRegion(w.now, 32768, 16384);
    uint32_t id = 0, rid = 0;
    ca->Write(w.now, 0, 20000, StWriteOptions(), id);
    ca->RequestRegion(w.now, 8192, rid);
    w.Settle();
    BOOST_REQUIRE(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);

    // Valid traffic seen so far is the seed corpus.
    std::vector<std::vector<uint8_t>> corpus;
    for (const auto& r : w.trace)
    {
        std::vector<uint8_t> b(ST_HEADER_SIZE);
        r.h.Encode(b.data());
        b.resize(r.len, 0x5A);
        corpus.push_back(b);
    }

    std::mt19937_64 rng(12345);
    const int N = 200000;
    for (int i = 0; i < N; ++i)
    {
        std::vector<uint8_t> b;
        switch (rng() % 4)
        {
        case 0: { // pure noise, any length
            b.resize(rng() % 120);
            for (auto& x : b)
            {
                x = static_cast<uint8_t>(rng());
            }
            break;
        }
        default: { // a real op with a few bytes flipped, sometimes truncated or extended
            b = corpus[rng() % corpus.size()];
            int flips = 1 + static_cast<int>(rng() % 4);
            for (int k = 0; k < flips && !b.empty(); ++k)
            {
                b[rng() % std::min<std::size_t>(b.size(), 40)] ^=
                    static_cast<uint8_t>(1u << (rng() % 8));
            }
            if (rng() % 8 == 0)
            {
                b.resize(rng() % (b.size() + 40));
            }
            break;
        }
        }
        bool toB = rng() % 2 == 0;
        if (b.size() >= ST_HEADER_SIZE && rng() % 4 != 0)
        {
            // Most garbage gets a valid header checksum, so it reaches the checks behind it.
            StHeader::SealChecksum(b.data());
        }
        w.Inject(toB, b, rng() % 16 == 0 ? 7 : 0);
        if (i % 1000 == 0)
        {
            w.Run(w.now + 10000000); // let timers and answers run
            w.trace.clear();
        }
    }
    w.Run(w.now + 100000000000ULL);

    for (StEndpoint* ep : {&w.a, &w.b})
    {
        const StCounters& c = ep->GetCounters();
        BOOST_CHECK_EQUAL(c.TotalVerdicts(), c.Get(StStat::RxFrames));
        BOOST_CHECK_GT(c.Dropped(), 0u);
    }
    // Most garbage is dropped before it reaches a connection.
    const StCounters& cb2 = w.b.GetCounters();
    BOOST_CHECK_GT(cb2.Get(StRxVerdict::UnknownOp) + cb2.Get(StRxVerdict::UnknownKey) +
                       cb2.Get(StRxVerdict::Truncated),
                   0u);
    // The endpoints still work: a new connection and a write go through.
    TestWire& ww = w;
    ww.trace.clear();
    ww.b.Listen(6000);
    StConnId na = 0;
    ww.a.Connect(ww.now, TestWire::ADDR_B, 6000, StConnParams(), na);
    ww.Settle();
    BOOST_CHECK(ww.a.Find(na) != nullptr);
    BOOST_CHECK(ww.a.Find(na)->GetState() == StConnState::Connected);
}

BOOST_AUTO_TEST_CASE(decoder_never_reads_past_the_buffer)
{
    std::mt19937 rng(7);
    for (int i = 0; i < 100000; ++i)
    {
        std::size_t n = rng() % 80;
        std::vector<uint8_t> b(n);
        for (auto& x : b)
        {
            x = static_cast<uint8_t>(rng());
        }
        StHeader h;
        StDecodeStatus s = StHeader::Decode(b.data(), b.size(), h);
        if (n < ST_HEADER_SIZE)
        {
            BOOST_REQUIRE(s == StDecodeStatus::Truncated);
        }
        else if (s == StDecodeStatus::Ok)
        {
            std::vector<uint8_t> e(ST_HEADER_SIZE);
            h.Encode(e.data());
            BOOST_REQUIRE(std::equal(e.begin(), e.end(), b.begin()));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
