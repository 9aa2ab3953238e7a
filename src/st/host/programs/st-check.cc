/*
 * st-check: a functional check of ST's persistent memory and of its protection between two
 * hosts, against the st-bw/st-lat server: RMR/MRA, PUT then GET (same bytes back), FETCHOP
 * increments (old values 0, 1, 2 ... and the word at the end), then three operations the
 * server must refuse, made by altering what this side's engine sends: a GET with a wrong
 * D_Key (dropped and counted; the engine's retry then succeeds), a PUT whose Offset points
 * past the region (dropped and counted, nothing written) and a GET past the region (RA with
 * R=1, counted). The server's report must show each refusal counted exactly, its memory
 * beyond the region untouched, and the region must read back unchanged. Exit 0 if all held.
 *
 *   st-check -i veth0 10.0.0.2      (server: st-bw -s -i veth1)
 */
#include "st-perf-program.h"

#include <algorithm>
#include <cstdio>

using namespace ns3::st;

namespace
{

constexpr uint64_t REGION = 4096;     // bytes of the region (one Bufx entry holds it and its guard)
constexpr std::size_t KEY_AT = 8;     // D_Key in the header
constexpr std::size_t OFFSET_AT = 20; // Offset (R_Offset of a GET, Offset of a DATA)

int g_failures = 0;

void
Expect(bool ok, const std::string& what)
{
    std::printf("%-62s %s\n", what.c_str(), ok ? "ok" : "FAILED");
    g_failures += ok ? 0 : 1;
}

uint32_t
Be32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

void
PutBe32(uint8_t* p, uint32_t v)
{
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
}

/// Alter the next operation with opcode \p op (once) by \p change.
void
TamperNext(StPerfProgram& prog, StOp op, std::function<void(uint8_t*)> change)
{
    auto armed = std::make_shared<bool>(true);
    prog.Host().GetDriver().SetTransmitHook([armed, op, change](StTransmit& t) {
        if (*armed && t.bytes.size() >= 40 && static_cast<StOp>(t.bytes[0] >> 3) == op)
        {
            *armed = false;
            change(t.bytes.data());
            // A sender that computes checksums would seal what it sends: the receiver must
            // refuse the operation for what it says, not for a checksum that no longer fits.
            if (t.bytes[12] != 0 || t.bytes[13] != 0) // 0: the sender computes none
            {
                StHeader::SealChecksum(t.bytes.data());
            }
        }
        return true;
    });
}

} // namespace

int
main(int argc, char** argv)
{
    StCommandLine cmd("st-check",
                      "st-check: PUT, GET, FETCHOP and memory protection against a st-bw/st-lat "
                      "server\n  st-check -i IFACE [options] SERVER");
    StPerfProgram prog("st-check");
    uint64_t fetchops = 10;
    prog.AddOptions(cmd);
    cmd.AddNumber("fetchops", 0, &fetchops, 1, 1000000, "FETCHOP increments");
    cmd.Parse(argc, argv);
    prog.Open(cmd);
    if (prog.server)
    {
        return prog.Serve();
    }
    prog.ConnectClient(cmd);
    StPerfSession& s = prog.Session();
    StPerfHello hello;
    hello.kind = StPerfKind::Memory;
    hello.size = REGION + 8; // the pattern, then the FETCHOP word
    hello.count = 1;
    prog.SendHello(hello);

    auto waitFor = [&prog](StEventType type, uint32_t id, bool* rejected = nullptr) {
        for (;;)
        {
            const StEvent e = prog.Next();
            if (e.type == StEventType::TransferRejected && rejected != nullptr)
            {
                *rejected = true;
                return e;
            }
            if (e.type == type && e.id == id)
            {
                return e;
            }
        }
    };
    uint32_t region = 0;
    s.Conn().RequestRegion(s.Now(), hello.size, region);
    waitFor(StEventType::RegionAvailable, region);
    Expect(true, "RMR answered with MRA");

    uint64_t src = 0;
    uint64_t dst = 0;
    uint8_t* out = s.Map(REGION, StMemoryTable::PIN_TX, src);
    uint8_t* in = s.Map(REGION, StMemoryTable::PIN_RX, dst);
    StPerfPattern::Fill(out, REGION, 3);
    // A PUT is one STU (seed 000): the region goes over in PUTs of the connection's limit,
    // and a PUT one byte longer is refused before anything is sent.
    const uint64_t stu = s.Conn().GetPutLimit();
    bool puts = true;
    for (uint64_t k = 0; k < REGION && puts; k += stu)
    {
        const uint64_t n = std::min(stu, REGION - k);
        puts = s.Conn().Put(s.Now(), region, k, src + k, n) == StStatus::Ok;
        if (puts)
        {
            waitFor(StEventType::PutComplete, region);
        }
    }
    Expect(puts, "the region PUT one STU at a time");
    if (stu < REGION)
    {
        Expect(s.Conn().Put(s.Now(), region, 0, src, stu + 1) == StStatus::PutTooLarge,
               "a PUT longer than one STU refused (PutTooLarge)");
    }
    uint32_t gid = 0;
    auto getBack = [&]() {
        std::fill(in, in + REGION, 0);
        s.Conn().Get(s.Now(), region, 0, dst, REGION, gid);
        waitFor(StEventType::GetComplete, gid);
        return std::equal(out, out + REGION, in);
    };
    Expect(getBack(), "PUTs of 4096 bytes, GET returns the same bytes");

    bool sequence = true;
    for (uint64_t i = 0; i < fetchops; ++i)
    {
        s.Conn().FetchOp(s.Now(), region, REGION, dst, StFetchOp::Increment, gid);
        sequence = sequence && waitFor(StEventType::FetchOpComplete, gid).value == i;
    }
    Expect(sequence, "FETCHOP increments return the old values 0, 1, 2 ...");
    s.Conn().Get(s.Now(), region, REGION, dst, 8, gid);
    waitFor(StEventType::GetComplete, gid);
    uint64_t word = 0;
    for (int i = 0; i < 8; ++i)
    {
        word = (word << 8) | in[i];
    }
    Expect(word == fetchops, "the FETCHOP word holds the number of increments");

    // A GET with a wrong D_Key: the server drops it; the engine's retry carries the right one.
    TamperNext(prog, StOp::Get, [](uint8_t* op) {
        PutBe32(op + KEY_AT, Be32(op + KEY_AT) ^ 0x5A5A5A5A);
    });
    Expect(getBack(), "GET with a wrong key dropped, its retry answered");

    // A PUT whose DATA names the bytes just past the region (mapped there, never exposed).
    StPerfPattern::Fill(out, REGION, 9);
    TamperNext(prog, StOp::Data, [](uint8_t* op) {
        PutBe32(op + OFFSET_AT, Be32(op + OFFSET_AT) + REGION);
    });
    s.Conn().Put(s.Now(), region, 0, src, 64);
    waitFor(StEventType::PutComplete, region);

    // A GET past the region: refused with RA R=1.
    TamperNext(prog, StOp::Get, [](uint8_t* op) {
        PutBe32(op + OFFSET_AT, Be32(op + OFFSET_AT) + REGION);
    });
    bool rejected = false;
    s.Conn().Get(s.Now(), region, 0, dst, 64, gid);
    waitFor(StEventType::GetComplete, gid, &rejected);
    Expect(rejected, "GET past the region refused (RA with R=1)");
    prog.Host().GetDriver().SetTransmitHook(nullptr);

    StPerfPattern::Fill(out, REGION, 3); // what the region must still hold
    Expect(getBack(), "the region is unchanged");

    StPerfReport report;
    const bool haveReport = prog.ReadReport(report, true);
    Expect(haveReport, "the server's report read back");
    Expect(report.unknownKey == 1,
           "server counted the wrong key once (rx.UnknownKey " + std::to_string(report.unknownKey) +
               ")");
    Expect(report.outsideMemory == 2,
           "server counted 2 operations outside the region (" +
               std::to_string(report.outsideMemory) + ")");
    Expect(report.rejectsSent >= 1, "server sent RA(R=1) for the GET past the region");
    Expect(report.guardIntact == 1, "server memory beyond the region never written");
    s.Close();
    std::printf("%s\n", g_failures == 0 ? "st-check: all checks passed" : "st-check: FAILED");
    return g_failures == 0 ? 0 : 1;
}
