/*
 * st-bw: ST bulk throughput between two hosts, as ib_write_bw / ib_read_bw or iperf do it.
 * The server (-s) answers any client; the client writes (RTS/CTS/DATA) or reads (RTR)
 * --count transfers of --size bytes, --outstanding at a time, checks the data (the server
 * checks what it received, the client what it read) and prints the throughput. Exit status
 * 0 only when every transfer arrived intact.
 *
 *   st-bw -s -i veth1                        server
 *   st-bw -i veth0 --size=64M --count=4 10.0.0.2   client: writes
 *   st-bw -i veth0 --mode=read 10.0.0.2             client: reads
 */
#include "st-perf-program.h"

#include <cstdio>
#include <set>

using namespace ns3::st;

namespace
{

/// The server of --plain: memory posted for every write, until the client closes.
int
ServePlain(StPerfProgram& prog, uint64_t size, uint64_t slots)
{
    StPerfSession& s = prog.Session();
    std::string error;
    if (s.Listen(static_cast<uint16_t>(prog.port), error) != 0)
    {
        prog.Fail(error);
    }
    do
    {
        s.Accept(static_cast<uint16_t>(prog.port), ST_NEVER);
        uint64_t base = 0;
        if (s.Map(slots * size, StMemoryTable::PIN_RX, base) == nullptr)
        {
            prog.Fail("cannot map " + std::to_string(slots * size) + " bytes");
        }
        for (uint64_t i = 0; i < slots; ++i)
        {
            s.Conn().PostReceive(s.Now(), base + i * size, size);
        }
        uint64_t received = 0;
        StEvent e;
        while (!s.IsClosed())
        {
            if (!s.NextEvent(e))
            {
                continue; // a quiet client: plain mode has no end but the close
            }
            if (e.type == StEventType::TransferComplete && e.role == StRole::Destination)
            {
                ++received;
                s.Conn().PostReceive(s.Now(), e.address, size);
            }
        }
        if (!prog.quiet)
        {
            std::printf("st-bw: %llu writes of %llu bytes received\n",
                        static_cast<unsigned long long>(received),
                        static_cast<unsigned long long>(size));
            std::fflush(stdout);
        }
    } while (!prog.once);
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    StCommandLine cmd("st-bw",
                      "st-bw: ST bulk write/read throughput over raw Ethernet (EtherType 0x8181)\n"
                      "  server: st-bw -s -i IFACE [options]\n"
                      "  client: st-bw -i IFACE [--mode=write|read] [--size=N] [--count=N] "
                      "[--outstanding=N] SERVER");
    StPerfProgram prog("st-bw");
    std::string mode = "write";
    uint64_t size = 1 << 20;
    uint64_t count = 16;
    uint64_t outstanding = 2;
    bool noVerify = false;
    bool plain = false;
    prog.AddOptions(cmd);
    cmd.AddChoice("mode", 'm', &mode, {"write", "read"}, "client: what to measure");
    cmd.AddNumber("size", 'S', &size, 1, 1ULL << 32, "client: bytes per transfer");
    cmd.AddNumber("count", 'n', &count, 1, 1ULL << 32, "client: transfers");
    cmd.AddNumber("outstanding", 'o', &outstanding, 1, 64, "client: transfers in flight");
    cmd.AddFlag("no-verify", 0, &noVerify, "do not check the data");
    cmd.AddFlag("plain",
                0,
                &plain,
                "writes only, nothing else on the connection (no hello, no report, no "
                "check): the operations ns-3's StBulkClient and StServer exchange; the "
                "server needs --size and --outstanding too");
    cmd.Parse(argc, argv);
    prog.Open(cmd);
    if (plain && mode != "write")
    {
        cmd.Fail("--plain writes only (--mode=write)");
    }
    if (prog.server && plain)
    {
        return ServePlain(prog, size, outstanding);
    }
    if (prog.server)
    {
        return prog.Serve();
    }

    prog.ConnectClient(cmd);
    StPerfSession& s = prog.Session();
    StPerfHello hello;
    hello.kind = mode == "write" ? StPerfKind::Write : StPerfKind::Read;
    hello.size = size;
    hello.count = count;
    hello.outstanding = static_cast<uint32_t>(outstanding);
    hello.verify = noVerify || plain ? 0 : 1;
    if (!plain)
    {
        prog.SendHello(hello);
    }

    const bool write = hello.kind == StPerfKind::Write;
    const uint64_t slots = std::min(outstanding, count);
    uint64_t base = 0;
    uint8_t* mem = s.Map(slots * size, write ? StMemoryTable::PIN_TX : StMemoryTable::PIN_RX, base);
    if (mem == nullptr)
    {
        prog.Fail("cannot map " + std::to_string(slots * size) + " bytes");
    }
    const StCounters before = prog.Host().GetEndpoint().GetCounters();
    auto start = [&](uint64_t slot) {
        uint32_t id = 0;
        const StStatus st =
            write ? s.Conn().Write(s.Now(), base + slot * size, size, StWriteOptions(), id)
                  : s.Conn().Read(s.Now(), base + slot * size, size, id);
        if (st != StStatus::Ok)
        {
            prog.Fail(std::string("cannot start a transfer: ") + StStatusName(st));
        }
    };
    for (uint64_t i = 0; i < slots; ++i)
    {
        if (write)
        {
            StPerfPattern::Fill(mem + i * size, size, i);
        }
    }
    const uint64_t t0 = s.Now();
    for (uint64_t i = 0; i < slots; ++i)
    {
        start(i);
    }
    uint64_t next = slots;
    uint64_t done = 0;
    uint64_t damaged = 0;
    std::set<uint64_t> seen;
    while (done < count)
    {
        const StEvent e = prog.Next();
        if (e.type == StEventType::TransferRejected)
        {
            prog.Fail("the server refused a transfer (RA with R=1)");
        }
        if (e.type != StEventType::TransferComplete)
        {
            continue;
        }
        ++done;
        const uint64_t slot = (e.address - base) / size;
        if (!write && !noVerify)
        {
            uint64_t stamp = 0;
            const bool ok = StPerfPattern::Check(mem + slot * size, size, stamp) &&
                            (size < 8 || (stamp < count && seen.insert(stamp).second));
            damaged += ok ? 0 : 1;
        }
        if (next < count)
        {
            if (write)
            {
                StPerfPattern::Stamp(mem + slot * size, size, next);
            }
            ++next;
            start(slot);
        }
    }
    const uint64_t t1 = s.Now();
    StPerfReport report;
    report.good = count;
    if (!plain && !prog.ReadReport(report, false))
    {
        prog.Fail("cannot read the server's report");
    }
    const StCounters& after = prog.Host().GetEndpoint().GetCounters();
    s.Close();

    const double seconds = static_cast<double>(t1 - t0) * 1e-9;
    const double bytes = static_cast<double>(size) * static_cast<double>(count);
    const uint64_t retrans =
        after.Get(StStat::Retransmissions) - before.Get(StStat::Retransmissions);
    if (!prog.quiet)
    {
        std::printf("%-6s %12s %8s %10s %12s %10s %8s\n",
                    "mode",
                    "bytes",
                    "count",
                    "seconds",
                    "Gbit/s",
                    "MiB/s",
                    "retrans");
    }
    std::printf("%-6s %12llu %8llu %10.6f %12.3f %10.1f %8llu\n",
                mode.c_str(),
                static_cast<unsigned long long>(size),
                static_cast<unsigned long long>(count),
                seconds,
                bytes * 8 / seconds * 1e-9,
                bytes / seconds / (1 << 20),
                static_cast<unsigned long long>(retrans));
    const uint64_t bad =
        write ? report.bad + (report.good == count ? 0 : count - report.good) : damaged;
    if (!noVerify && !plain)
    {
        std::printf("verified: %llu of %llu transfers intact (%s)\n",
                    static_cast<unsigned long long>(count - std::min(bad, count)),
                    static_cast<unsigned long long>(count),
                    write ? "checked by the server" : "checked here");
    }
    if (bad != 0)
    {
        std::fprintf(stderr,
                     "st-bw: %llu transfers damaged or missing\n",
                     static_cast<unsigned long long>(bad));
        return 1;
    }
    return 0;
}
