/*
 * st-transfer-test.cc: single-use data movements on a simulated wire: write and read
 * sequences, blocks and CTS_req, STU tiling, RA reject and pause, DATA outside its exposure,
 * END in the middle, slot exhaustion and replenishment, recovery of a lost DATA, 1 MiB
 * arriving byte-exact.
 */
#include "st-test-wire.h"

#include <boost/test/unit_test.hpp>

using namespace ns3::st;
using namespace ns3::st::test;

namespace
{

uint16_t
MapMem(StConnection* c, int flags, Buffer& b, uint32_t bufx)
{
    uint32_t h = 0;
    uint16_t mx = 0;
    StStatus s = c->GetMemory().Map(flags, b.data(), b.bytes.size(), bufx, -1, h, mx);
    BOOST_REQUIRE_MESSAGE(s == StStatus::Ok, StStatusName(s));
    return mx;
}

uint64_t
Lin(StConnection* c, uint32_t bufx, uint64_t off = 0)
{
    return c->GetMemory().Linear(bufx, off);
}

std::vector<uint8_t>
Enc(const StHeader& h, const std::vector<uint8_t>& data = {})
{
    std::vector<uint8_t> b(ST_HEADER_SIZE);
    h.Encode(b.data());
    b.insert(b.end(), data.begin(), data.end());
    return b;
}

/// A header from A's connection to B's with the right tuple.
StHeader
FromA(StConnection* ca, StOp op)
{
    StHeader h;
    h.op = op;
    h.dPort = ca->GetRemotePort();
    h.sPort = ca->GetLocalPort();
    h.dKey = ca->GetRemoteKey();
    return h;
}

} // namespace

BOOST_AUTO_TEST_SUITE(st_transfer)

BOOST_AUTO_TEST_CASE(write_single_block)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(3000, 1);
    Buffer dst(4096, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    BOOST_REQUIRE(cb->PostReceive(w.now, Lin(cb, 0), 4096) == StStatus::Ok);
    uint32_t id = 0;
    BOOST_REQUIRE(ca->Write(w.now, Lin(ca, 0), 3000, StWriteOptions(), id) == StStatus::Ok);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RTS <CTS >DATA <RSR");
    BOOST_CHECK(std::equal(src.bytes.begin(), src.bytes.end(), dst.bytes.begin()));
    BOOST_CHECK_EQUAL(dst.bytes[3000], 0);

    const StHeader& rts = w.trace[2].h;
    BOOST_CHECK_EQUAL(rts.param, 0);           // CTS_req: as negotiated in RC/CA
    BOOST_CHECK_EQUAL(w.trace[0].h.bNum, 64u); // ... the RC says 64
    BOOST_CHECK_EQUAL(rts.mx, 24);             // Max_Block
    BOOST_CHECK_EQUAL(rts.GetTLen(), 3000u);
    BOOST_CHECK(rts.Has(StFlag::SEND_STATE));
    BOOST_CHECK_EQUAL(rts.GetDataChannel(), 3);
    BOOST_CHECK_EQUAL(rts.sId, id);
    const StHeader& cts = w.trace[3].h;
    BOOST_CHECK_EQUAL(cts.dId, id); // I_id
    BOOST_CHECK_EQUAL(cts.bNum, 0u);
    BOOST_CHECK_EQUAL(cts.param, 24); // Blocksize = min(Max_Block, own)
    const WireRecord& data = w.trace[4];
    BOOST_CHECK_EQUAL(data.vc, 3);       // ST data channel 3 on GSN VC 3
    BOOST_CHECK_EQUAL(w.trace[3].vc, 0); // control on VC 0
    BOOST_CHECK_EQUAL(data.len, 40u + 3000u);
    BOOST_CHECK(data.h.Has(StFlag::LAST | StFlag::SEND_STATE));
    BOOST_CHECK(!data.h.Has(StFlag::SILENT)); // the final STU reaches the ULP
    BOOST_CHECK_EQUAL(data.h.dId, cts.sId);   // R_id
    BOOST_CHECK_EQUAL(data.h.mx, cts.mx);
    const StHeader& rsr = w.trace[5].h;
    BOOST_CHECK_EQUAL(rsr.sync, data.h.sync); // Sync echoed
    BOOST_CHECK_EQUAL(rsr.offset, 0u);        // B_seq: block 0
    BOOST_CHECK_EQUAL(rsr.bNum, ST_NONE32);   // transfer-state kind

    const StEvent* ea = TestWire::FindEvent(w.eventsA, StEventType::TransferComplete);
    const StEvent* eb = TestWire::FindEvent(w.eventsB, StEventType::TransferComplete);
    BOOST_REQUIRE(ea && eb);
    BOOST_CHECK(ea->role == StRole::Source);
    BOOST_CHECK(eb->role == StRole::Destination);
    BOOST_CHECK_EQUAL(eb->bytes, 3000u);
    BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::HeaderReceived) != nullptr);
    BOOST_CHECK_EQUAL(ca->GetActiveCount(), 0u);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Dropped() + w.b.GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(write_without_send_state_completes_on_last_data)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(100, 1), dst(256, 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), 256);
    StWriteOptions o;
    o.sendState = 0;
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), 100, o, id);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RTS <CTS >DATA");
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
}

// CTS_req is negotiated at set-up: RC and CA carry it, RTS carries 0 and the destination
// grants as many blocks as the source asked for then; with ctsReqInRts (IRIX) the RTS says it.
BOOST_AUTO_TEST_CASE(cts_req_negotiated_at_setup)
{
    for (bool inRts : {false, true})
    {
        StConfig cfg;
        cfg.ctsReqInRts = inRts;
        TestWire w(cfg, cfg);
        StConnParams pa;
        pa.maxBlock = 12; // 4 KiB blocks
        pa.ctsReq = 3;
        auto [ia, ib] = w.Connect(5000, pa, StConnParams());
        StConnection* ca = w.a.Find(ia);
        StConnection* cb = w.b.Find(ib);
        BOOST_CHECK_EQUAL(w.trace[0].h.bNum, 3u);  // RC
        BOOST_CHECK_EQUAL(w.trace[1].h.bNum, 64u); // CA: B's default
        BOOST_CHECK_EQUAL(cb->GetRemoteCtsReq(), 3);
        BOOST_CHECK_EQUAL(ca->GetRemoteCtsReq(), 64);
        const uint64_t len = 10 * 4096;
        Buffer src(len, 5), dst(len, 0);
        MapMem(ca, StMemoryTable::PIN_TX, src, 0);
        MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
        BOOST_REQUIRE(cb->PostReceive(w.now, Lin(cb, 0), len) == StStatus::Ok);
        w.pollA = true;
        uint32_t id = 0;
        ca->Write(w.now, Lin(ca, 0), len, StWriteOptions(), id);
        w.Pump();
        // The RTS and the first answer: 3 CTS at once, as negotiated.
        BOOST_CHECK_EQUAL(w.trace.back().h.op, StOp::Rts);
        BOOST_CHECK_EQUAL(w.trace.back().h.param, inRts ? 3 : 0);
        const std::size_t rts = w.trace.size() - 1;
        w.Step(); // the RTS arrives
        w.Pump();
        std::size_t cts = 0;
        for (std::size_t i = rts + 1; i < w.trace.size(); ++i)
        {
            cts += w.trace[i].h.op == StOp::Cts ? 1 : 0;
        }
        BOOST_CHECK_EQUAL(cts, 3u);
        w.Settle();
        BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
        BOOST_CHECK(src.bytes == dst.bytes);
    }
}

BOOST_AUTO_TEST_CASE(blocks_cts_req_and_tiling)
{
    TestWire w;
    StConnParams pa;
    pa.maxBlock = 14; // 16 KiB blocks asked for
    pa.ctsReq = 2;
    StConnParams pb;
    pb.bufsize = 12; // B's Bufx entries are 4 KiB: no STU may cross them
    auto [ia, ib] = w.Connect(5000, pa, pb);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    const uint64_t len = 40000;
    Buffer src(len, 3), dst(64 * 1024, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0xEE);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 8);
    // Post at offset 100 inside Bufx 8, so blocks straddle Bufx boundaries.
    BOOST_REQUIRE(cb->PostReceive(w.now, Lin(cb, 8, 100), 50000) == StStatus::Ok);
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), len, StWriteOptions(), id);
    w.Settle();

    BOOST_CHECK(std::equal(src.bytes.begin(), src.bytes.end(), dst.bytes.begin() + 100));
    BOOST_CHECK_EQUAL(dst.bytes[99], 0xEE);
    BOOST_CHECK_EQUAL(dst.bytes[100 + len], 0xEE);

    // 3 blocks; never more than CTS_req = 2 CTSs outstanding.
    BOOST_CHECK_EQUAL(w.Count("CTS", false), 3u);
    int outstanding = 0, maxOutstanding = 0;
    std::set<uint32_t> blocksWithData;
    int lastFlags = 0, sFlags = 0, nonSilent = 0;
    uint64_t bytes = 0;
    uint32_t expectStu = 0, curBlock = UINT32_MAX;
    for (const auto& r : w.trace)
    {
        if (r.h.op == StOp::Cts)
        {
            BOOST_CHECK_EQUAL(r.h.param, 14); // Blocksize
            maxOutstanding = std::max(maxOutstanding, ++outstanding);
        }
        if (r.h.op != StOp::Data)
        {
            continue;
        }
        const uint64_t n = r.len - ST_HEADER_SIZE;
        BOOST_CHECK_LE(n, 4096u);              // 2^min(Max_STU, Bufsize) of B
        BOOST_CHECK_LE(r.h.offset + n, 4096u); // never crosses a Bufx boundary
        if (r.h.bNum != curBlock)
        {
            curBlock = r.h.bNum;
            expectStu = 0;
        }
        BOOST_CHECK_EQUAL(r.h.param, expectStu++); // STU_num
        bytes += n;
        if (r.h.Has(StFlag::LAST))
        {
            ++lastFlags;
            --outstanding;
        }
        sFlags += r.h.Has(StFlag::SEND_STATE) ? 1 : 0;
        nonSilent += r.h.Has(StFlag::SILENT) ? 0 : 1;
        blocksWithData.insert(r.h.bNum);
    }
    BOOST_CHECK_EQUAL(maxOutstanding, 2);
    BOOST_CHECK_EQUAL(bytes, len);
    BOOST_CHECK_EQUAL(lastFlags, 3); // one L per block
    BOOST_CHECK_EQUAL(sFlags, 1);    // S on the very last STU
    BOOST_CHECK_EQUAL(nonSilent, 1); // only the final STU reaches the ULP
    BOOST_CHECK_EQUAL(blocksWithData.size(), 3u);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(write_one_mebibyte_byte_exact)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    const uint64_t len = 1 << 20;
    Buffer src(len, 9), dst(len, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), len);
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), len, StWriteOptions(), id);
    w.Settle();
    BOOST_CHECK(src.bytes == dst.bytes);
    BOOST_CHECK_EQUAL(w.Count("DATA", true), 64u); // 16 KiB STUs (Bufsize 14)
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StStat::RxDataBytes), len);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StStat::TxDataBytes), len);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
    BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::TransferComplete) != nullptr);
}

BOOST_AUTO_TEST_CASE(ra_reject_when_too_large)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(5000, 1), dst(4096, 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), 4096);
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), 5000, StWriteOptions(), id);
    w.Run(w.now + 5000000000ULL);
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RTS <RA(R)");
    const StEvent* e = TestWire::FindEvent(w.eventsA, StEventType::TransferRejected);
    BOOST_REQUIRE(e != nullptr);
    BOOST_CHECK_EQUAL(e->id, id);
    BOOST_CHECK_EQUAL(w.trace[3].h.dId, id);
    BOOST_CHECK_EQUAL(ca->GetActiveCount(), 0u);
}

BOOST_AUTO_TEST_CASE(ra_pause_then_cts_when_memory_posted)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(2000, 1), dst(4096, 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), 2000, StWriteOptions(), id);
    w.Run(w.now + 5000000000ULL); // a long pause: no RTS retry while paused
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RTS <RA");
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferPaused) != nullptr);
    cb->PostReceive(w.now, Lin(cb, 0), 4096);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA >RTS <RA <CTS >DATA <RSR");
    BOOST_CHECK(std::equal(src.bytes.begin(), src.bytes.end(), dst.bytes.begin()));
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
}

BOOST_AUTO_TEST_CASE(read_sequence)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer data(20000, 5), into(32768, 0);
    std::fill(into.bytes.begin(), into.bytes.end(), 0);
    MapMem(cb, StMemoryTable::PIN_TX, data, 0);
    MapMem(ca, StMemoryTable::PIN_RX, into, 0);
    BOOST_REQUIRE(cb->PostSend(w.now, Lin(cb, 0), 20000) == StStatus::Ok);
    uint32_t id = 0;
    BOOST_REQUIRE(ca->Read(w.now, Lin(ca, 0), 20000, id) == StStatus::Ok);
    w.Settle();
    // Roles swapped after the RTR: B is the source.
    BOOST_CHECK_EQUAL(w.Ops(false), ">RC <CA >RTR <RTS >CTS >RSR");
    BOOST_CHECK_EQUAL(w.Count("DATA", false), 2u); // 20000 bytes in 16 KiB STUs
    BOOST_CHECK(std::equal(data.bytes.begin(), data.bytes.end(), into.bytes.begin()));
    BOOST_CHECK_EQUAL(w.trace[3].h.dId, id); // the RTS names the RTR's I_id
    const StEvent* ea = TestWire::FindEvent(w.eventsA, StEventType::TransferComplete);
    const StEvent* eb = TestWire::FindEvent(w.eventsB, StEventType::TransferComplete);
    BOOST_REQUIRE(ea && eb);
    BOOST_CHECK_EQUAL(ea->id, id);
    BOOST_CHECK(ea->role == StRole::Destination);
    BOOST_CHECK(eb->role == StRole::Source);
}

BOOST_AUTO_TEST_CASE(read_paused_until_data_posted_and_rejected_when_short)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer data(1000, 5), into(4096, 0);
    MapMem(cb, StMemoryTable::PIN_TX, data, 0);
    MapMem(ca, StMemoryTable::PIN_RX, into, 0);
    uint32_t id = 0;
    ca->Read(w.now, Lin(ca, 0), 1000, id);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(false), ">RC <CA >RTR <RA");
    cb->PostSend(w.now, Lin(cb, 0), 1000);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(false), ">RC <CA >RTR <RA <RTS >CTS >RSR");
    BOOST_CHECK(std::equal(data.bytes.begin(), data.bytes.end(), into.bytes.begin()));
    // A read longer than what is posted: rejected.
    cb->PostSend(w.now, Lin(cb, 0), 500);
    uint32_t id2 = 0;
    ca->Read(w.now, Lin(ca, 0), 1000, id2);
    w.Settle();
    BOOST_CHECK_EQUAL(w.trace.back().h.op, StOp::Ra);
    BOOST_CHECK(w.trace.back().h.Has(StFlag::REJECT));
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferRejected) != nullptr);
}

BOOST_AUTO_TEST_CASE(data_outside_its_exposure_is_rejected_and_never_written)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer dst(16384, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0x55);
    uint16_t mx = MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    // Only the first 4 KiB are exposed to the transfer.
    cb->PostReceive(w.now, Lin(cb, 0), 4096);
    StHeader rts = FromA(ca, StOp::Rts);
    rts.param = 1;
    rts.mx = 12;
    rts.SetTLen(4096);
    rts.sId = 77;
    w.Inject(true, Enc(rts));
    w.Settle();
    const StHeader& cts = w.trace.back().h;
    BOOST_REQUIRE(cts.op == StOp::Cts);
    const uint32_t rid = cts.sId;
    const auto dropped0 = w.b.GetCounters().Dropped();

    std::vector<uint8_t> payload(100, 0xAB);
    StHeader d = FromA(ca, StOp::Data);
    d.flags = 3;
    d.mx = mx;
    d.dId = rid;

    d.bufx = 1; // mapped, but beyond the exposed 4 KiB
    d.offset = 0;
    w.Inject(true, Enc(d, payload));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::OutsideExposure), 1u);

    d.bufx = 0;
    d.offset = 4050; // runs past the transfer's end (and the Bufx)
    w.Inject(true, Enc(d, payload));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::OutsideExposure), 2u);

    d.offset = 0;
    d.mx = mx + 5; // unknown Mx
    w.Inject(true, Enc(d, payload));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::OutsideMapping), 1u);

    d.mx = mx;
    d.dId = rid + 100; // unknown transfer
    w.Inject(true, Enc(d, payload));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::UnknownTransfer), 1u);

    BOOST_CHECK_EQUAL(w.b.GetCounters().Dropped() - dropped0, 4u);
    BOOST_CHECK(
        std::all_of(dst.bytes.begin(), dst.bytes.end(), [](uint8_t v) { return v == 0x55; }));
    BOOST_CHECK(cb->GetState() == StConnState::Connected);

    // The transfer itself still completes.
    std::vector<uint8_t> all(4096, 0x42);
    d.dId = rid;
    d.flags = 3 | StFlag::LAST;
    for (uint32_t k = 0; k < 4096; k += 1024)
    {
        d.offset = k;
        w.Inject(true, Enc(d, std::vector<uint8_t>(1024, 0x42)));
    }
    const StEvent* e = TestWire::FindEvent(w.eventsB, StEventType::TransferComplete);
    BOOST_REQUIRE(e != nullptr);
    BOOST_CHECK(std::all_of(dst.bytes.begin(), dst.bytes.begin() + 4096, [](uint8_t v) {
        return v == 0x42;
    }));
    BOOST_CHECK(std::all_of(dst.bytes.begin() + 4096, dst.bytes.end(), [](uint8_t v) {
        return v == 0x55;
    }));
}

BOOST_AUTO_TEST_CASE(end_aborts_a_write_midway)
{
    TestWire w;
    StConnParams pa;
    pa.maxBlock = 12; // 4 KiB blocks
    pa.ctsReq = 1;    // one block at a time: many round trips
    auto [ia, ib] = w.Connect(5000, pa);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(64 * 1024, 1), dst(64 * 1024, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), src.bytes.size());
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), src.bytes.size(), StWriteOptions(), id);
    // Run until two blocks have arrived.
    while (w.b.GetCounters().Get(StStat::RxDataBytes) < 8192 && w.Step())
    {
    }
    BOOST_REQUIRE(ca->End(w.now, id) == StStatus::Ok);
    const std::size_t endAt = w.trace.size();
    w.Settle();
    w.Run(w.now + 10000000000ULL);
    // After END: no more DATA from A, an EA from B, and nothing else.
    std::string tail;
    for (std::size_t i = endAt; i < w.trace.size(); ++i)
    {
        if (w.trace[i].h.op == StOp::Data && w.trace[i].fromA)
        {
            BOOST_FAIL("DATA after END");
        }
    }
    BOOST_CHECK_EQUAL(w.trace[endAt].h.op, StOp::End);
    BOOST_CHECK_EQUAL(w.trace[endAt].h.sId, id);
    BOOST_CHECK_EQUAL(w.trace.back().h.op, StOp::Ea);
    const StEvent* abA = TestWire::FindEvent(w.eventsA, StEventType::TransferAborted);
    const StEvent* abB = TestWire::FindEvent(w.eventsB, StEventType::TransferAborted);
    BOOST_REQUIRE(abA && abB);
    BOOST_CHECK(abA->reason == StReason::Local);
    BOOST_CHECK(abB->reason == StReason::Peer);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::EndComplete) != nullptr);
    BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::TransferComplete) == nullptr);
    BOOST_CHECK_EQUAL(ca->GetActiveCount(), 0u);
    BOOST_CHECK_EQUAL(cb->GetActiveCount(), 0u);
    BOOST_CHECK(ca->GetState() == StConnState::Connected); // END leaves the VC open
    BOOST_CHECK_LT(w.b.GetCounters().Get(StStat::RxDataBytes), src.bytes.size());
}

BOOST_AUTO_TEST_CASE(destination_ends_a_write)
{
    TestWire w;
    StConnParams pa;
    pa.maxBlock = 12;
    pa.ctsReq = 1;
    auto [ia, ib] = w.Connect(5000, pa);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(32768, 1), dst(32768, 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), 32768);
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), 32768, StWriteOptions(), id);
    while (w.b.GetCounters().Get(StStat::RxDataBytes) < 4096 && w.Step())
    {
    }
    // B's id for the transfer is in the CTS it sent.
    uint32_t rid = 0;
    for (const auto& r : w.trace)
    {
        if (r.h.op == StOp::Cts)
        {
            rid = r.h.sId;
        }
    }
    BOOST_REQUIRE(cb->End(w.now, rid) == StStatus::Ok);
    w.Settle();
    const StEvent* abA = TestWire::FindEvent(w.eventsA, StEventType::TransferAborted);
    BOOST_REQUIRE(abA != nullptr);
    BOOST_CHECK_EQUAL(abA->id, id);
    BOOST_CHECK(abA->reason == StReason::Peer);
    BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::EndComplete) != nullptr);
}

BOOST_AUTO_TEST_CASE(slot_exhaustion_and_replenishment)
{
    StConfig cfgA;
    cfgA.silentData = false; // every DATA takes a slot at B
    TestWire w(cfgA);
    StConnParams pb;
    pb.slots = 8;
    pb.bufsize = 10; // 1 KiB STUs
    auto [ia, ib] = w.Connect(5000, StConnParams(), pb);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    w.pollB = false; // B's upper layer does not take its headers yet
    Buffer src(16 * 1024, 1), dst(16 * 1024, 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), src.bytes.size());
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), src.bytes.size(), StWriteOptions(), id);
    w.Run(w.now + 100000000ULL); // 100 ms
    // A stalled: it never overran B's 8 slots, and asked for more with RS.
    BOOST_CHECK_GE(w.a.GetCounters().Get(StStat::SlotStalls), 1u);
    BOOST_CHECK_GT(ca->GetBlockedCount(), 0u);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::SlotOverrun), 0u);
    BOOST_CHECK_LE(cb->GetRxSlotsOutstanding(), 8u);
    BOOST_CHECK_GE(w.Count("RS", true), 1u);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) == nullptr);
    // B's upper layer takes its headers: slots come back through RSR R_Slots.
    w.pollB = true;
    w.Run(w.now + 1000000000ULL);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
    BOOST_CHECK(src.bytes == dst.bytes);
    BOOST_CHECK_EQUAL(ca->GetBlockedCount(), 0u);
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::SlotOverrun), 0u);
    uint64_t replenished = 0;
    for (const auto& r : w.trace)
    {
        if (r.h.op == StOp::Rsr && !r.fromA)
        {
            replenished += r.h.param;
        }
    }
    BOOST_CHECK_GE(replenished, 16u); // at least every DATA's slot came back
    BOOST_CHECK(ca->GetState() == StConnState::Connected);
}

// Under the IRIX rule, so that the RS itself needs no slot once the peer has overrun them.
BOOST_AUTO_TEST_CASE(slot_overrun_is_dropped_and_counted)
{
    StConfig irix;
    irix.rsRsrUseSlots = false;
    TestWire w(irix, irix);
    StConnParams pb;
    pb.slots = 3;
    auto [ia, ib] = w.Connect(5000, StConnParams(), pb);
    StConnection* ca = w.a.Find(ia);
    w.pollB = false;
    StHeader ea = FromA(ca, StOp::Ea); // slot-using, harmless (unknown END id: Duplicate)
    ea.dId = 12345;
    for (int i = 0; i < 5; ++i)
    {
        w.Inject(true, Enc(ea));
    }
    // The peer may use 3 slots until an RSR gives some back: 2 overruns.
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::SlotOverrun), 2u);
    // An RS (slots kind) is answered with the 3 slots freed since.
    StHeader rs = FromA(ca, StOp::Rs);
    rs.dId = ST_NONE32;
    rs.sync = 1;
    w.Inject(true, Enc(rs));
    BOOST_REQUIRE_EQUAL(w.trace.back().h.op, StOp::Rsr);
    BOOST_CHECK_EQUAL(w.trace.back().h.param, 3);
    BOOST_CHECK_EQUAL(w.trace.back().h.sync, 1u);
    BOOST_CHECK_EQUAL(w.trace.back().h.dId, ST_NONE32);
    for (int i = 0; i < 3; ++i)
    {
        w.Inject(true, Enc(ea));
    }
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::SlotOverrun), 2u);
    w.Inject(true, Enc(ea));
    BOOST_CHECK_EQUAL(w.b.GetCounters().Get(StRxVerdict::SlotOverrun), 3u);
    // Headers held by the ULP keep their slots: bypass connection, nobody polls.
    TestWire w2;
    StConnParams pbb;
    pbb.slots = 3;
    pbb.bypass = true;
    StConnParams pab;
    pab.bypass = true;
    auto [ja, jb] = w2.Connect(5000, pab, pbb);
    w2.pollB = false;
    StHeader rts = FromA(w2.a.Find(ja), StOp::Rts);
    for (int i = 0; i < 5; ++i)
    {
        w2.Inject(true, Enc(rts));
    }
    BOOST_CHECK_EQUAL(w2.b.GetCounters().Get(StRxVerdict::SlotOverrun), 2u);
    BOOST_CHECK_EQUAL(w2.b.Find(jb)->GetRxSlotsOutstanding(), 3u);
    BOOST_CHECK(w2.b.Find(jb)->GetState() == StConnState::Connected);
}

BOOST_AUTO_TEST_CASE(unlimited_slots_never_stall)
{
    StConfig cfgA;
    cfgA.silentData = false;
    TestWire w(cfgA);
    StConnParams pb;
    pb.slots = ST_SLOTS_UNLIMITED;
    pb.bufsize = 8;
    auto [ia, ib] = w.Connect(5000, StConnParams(), pb);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    w.pollB = false;
    Buffer src(64 * 1024, 1), dst(64 * 1024, 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), src.bytes.size());
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), src.bytes.size(), StWriteOptions(), id);
    w.Settle();
    BOOST_CHECK_EQUAL(w.trace[0].h.op, StOp::Rc);
    BOOST_CHECK_EQUAL(w.trace[1].h.param, ST_SLOTS_UNLIMITED);
    BOOST_CHECK_EQUAL(w.a.GetCounters().Get(StStat::SlotStalls), 0u);
    BOOST_CHECK_EQUAL(w.Count("RS", true), 0u);
    BOOST_CHECK(src.bytes == dst.bytes);
}

BOOST_AUTO_TEST_CASE(lost_data_recovered_by_cts_retry)
{
    TestWire w;
    StConnParams pa;
    pa.maxBlock = 12;
    auto [ia, ib] = w.Connect(5000, pa);
    StConnection* ca = w.a.Find(ia);
    StConnection* cb = w.b.Find(ib);
    Buffer src(16384, 2), dst(16384, 0);
    std::fill(dst.bytes.begin(), dst.bytes.end(), 0);
    MapMem(ca, StMemoryTable::PIN_TX, src, 0);
    MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
    cb->PostReceive(w.now, Lin(cb, 0), 16384);
    int n = 0;
    w.drop = [&n](const WireRecord& r) {
        return r.h.op == StOp::Data && r.h.bNum == 1 && n++ == 0;
    };
    uint32_t id = 0;
    ca->Write(w.now, Lin(ca, 0), 16384, StWriteOptions(), id);
    w.Run(w.now + 10000000000ULL);
    BOOST_CHECK(src.bytes == dst.bytes);
    BOOST_CHECK(TestWire::FindEvent(w.eventsA, StEventType::TransferComplete) != nullptr);
    BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::TransferComplete) != nullptr);
    BOOST_CHECK_GE(w.b.GetCounters().Get(StStat::Retransmissions), 1u); // the CTS again
    BOOST_CHECK_GE(w.a.GetCounters().Get(StStat::Retransmissions), 1u); // block 1 again
    BOOST_CHECK(ca->GetState() == StConnState::Connected);
}

// The O flag: a destination that did not offer O (outOfOrder false) takes blocks in order
// only; with block 0's first STU lost, the STUs of blocks 1..3 are refused (OutOfOrder) and
// the CTS timer has every block sent again. With O (the default) they are placed at once.
BOOST_AUTO_TEST_CASE(blocks_in_order_only_without_o_flag)
{
    for (bool order : {false, true})
    {
        TestWire w;
        StConnParams pa;
        pa.maxBlock = 12; // 4 KiB blocks
        StConnParams pb;
        pb.outOfOrder = order;
        auto [ia, ib] = w.Connect(5000, pa, pb);
        BOOST_CHECK_EQUAL(w.trace[1].h.Has(StFlag::ORDER), order); // the CA says it
        StConnection* ca = w.a.Find(ia);
        StConnection* cb = w.b.Find(ib);
        Buffer src(16384, 4), dst(16384, 0);
        MapMem(ca, StMemoryTable::PIN_TX, src, 0);
        MapMem(cb, StMemoryTable::PIN_RX, dst, 0);
        cb->PostReceive(w.now, Lin(cb, 0), 16384);
        int n = 0;
        w.drop = [&n](const WireRecord& r) {
            return r.h.op == StOp::Data && r.h.bNum == 0 && n++ == 0;
        };
        uint32_t id = 0;
        ca->Write(w.now, Lin(ca, 0), 16384, StWriteOptions(), id);
        w.Run(w.now + 20000000000ULL);
        BOOST_CHECK(src.bytes == dst.bytes);
        BOOST_CHECK(TestWire::FindEvent(w.eventsB, StEventType::TransferComplete) != nullptr);
        const uint64_t refused = w.b.GetCounters().Get(StRxVerdict::OutOfOrder);
        if (order)
        {
            BOOST_CHECK_EQUAL(refused, 0u);
        }
        else
        {
            BOOST_CHECK_GE(refused, 3u);
        }
    }
}

BOOST_AUTO_TEST_CASE(write_refused_on_unmapped_memory)
{
    TestWire w;
    auto [ia, ib] = w.Connect();
    StConnection* ca = w.a.Find(ia);
    Buffer rx(4096, 0);
    MapMem(ca, StMemoryTable::PIN_RX, rx, 0); // RX only: cannot be sent from
    uint32_t id = 0;
    BOOST_CHECK(ca->Write(w.now, Lin(ca, 0), 100, StWriteOptions(), id) == StStatus::NotMapped);
    BOOST_CHECK(ca->Write(w.now, Lin(ca, 5), 100, StWriteOptions(), id) == StStatus::NotMapped);
    BOOST_CHECK(ca->Write(w.now, Lin(ca, 0), 0, StWriteOptions(), id) == StStatus::InvalidArgument);
    StWriteOptions bad;
    bad.dataVc = 4;
    Buffer tx(4096, 0);
    MapMem(ca, StMemoryTable::PIN_TX, tx, 10);
    BOOST_CHECK(ca->Write(w.now, Lin(ca, 10), 100, bad, id) == StStatus::InvalidArgument);
    w.Settle();
    BOOST_CHECK_EQUAL(w.Ops(), ">RC <CA");
}

BOOST_AUTO_TEST_SUITE_END()
