/*
 * st-lat: ST latency between two hosts, as ib_write_lat / ib_read_lat do it: a ping-pong of
 * single-use writes (the server writes every write back), or round trips of GET, FETCHOP or
 * PUT-then-GET on a region the server exposes (RMR/MRA). Prints the round-trip times (min,
 * mean, median, 99th percentile, max; the one-way time is half); every reply is checked
 * (echoed data, GET data, FETCHOP old values 0, 1, 2 ...). Exit status 0 when all were right.
 *
 *   st-lat -s -i veth1                               server (the same as st-bw's)
 *   st-lat -i veth0 --mode=write --size=64 10.0.0.2   client
 */
#include "st-perf-program.h"

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace ns3::st;

namespace
{

/// Wait for the next event of \p type (and \p id unless it is 0), failing on a rejection.
StEvent
WaitFor(StPerfProgram& prog, StEventType type, uint32_t id)
{
    for (;;)
    {
        const StEvent e = prog.Next();
        if (e.type == StEventType::TransferRejected)
        {
            prog.Fail("the server refused an operation (RA with R=1)");
        }
        if (e.type == type && (id == 0 || e.id == id))
        {
            return e;
        }
    }
}

uint64_t
BigEndian64(const uint8_t* p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}

} // namespace

int
main(int argc, char** argv)
{
    StCommandLine cmd("st-lat",
                      "st-lat: ST round-trip latency over raw Ethernet (EtherType 0x8181)\n"
                      "  server: st-lat -s -i IFACE [options]\n"
                      "  client: st-lat -i IFACE [--mode=write|get|fetchop|put] [--size=N] "
                      "[--count=N] SERVER");
    StPerfProgram prog("st-lat");
    std::string mode = "write";
    uint64_t size = 64;
    uint64_t count = 1000;
    uint64_t warmup = 10;
    prog.AddOptions(cmd);
    cmd.AddChoice("mode",
                  'm',
                  &mode,
                  {"write", "get", "fetchop", "put"},
                  "client: the round trip to time");
    cmd.AddNumber("size", 'S', &size, 1, 65535, "client: bytes per operation (FETCHOP: 8)");
    cmd.AddNumber("count", 'n', &count, 1, 10000000, "client: round trips timed");
    cmd.AddNumber("warmup", 0, &warmup, 0, 1000000, "client: round trips before timing");
    bool plain = false;
    cmd.AddFlag("plain",
                0,
                &plain,
                "client, --mode=write: the writes only (no hello, no report), against any "
                "server that writes each write back, such as ns-3's StServer with Echo");
    cmd.Parse(argc, argv);
    prog.Open(cmd);
    if (plain && (prog.server || mode != "write"))
    {
        cmd.Fail("--plain is for a client of --mode=write");
    }
    if (prog.server)
    {
        return prog.Serve();
    }
    if (mode == "fetchop")
    {
        size = 8;
    }

    prog.ConnectClient(cmd);
    StPerfSession& s = prog.Session();
    const uint64_t total = warmup + count;
    std::vector<double> rtt;
    rtt.reserve(count);
    uint64_t wrong = 0;
    StPerfHello hello;
    hello.size = size;
    hello.count = total;

    if (mode == "write")
    {
        hello.kind = StPerfKind::PingPong;
        if (!plain)
        {
            prog.SendHello(hello);
        }
        uint64_t base = 0;
        uint8_t* mem = s.Map(size, StMemoryTable::PIN_RX | StMemoryTable::PIN_TX, base);
        StPerfPattern::Fill(mem, size, 1);
        for (uint64_t i = 0; i < total; ++i)
        {
            s.Conn().PostReceive(s.Now(), base, size);
            const uint64_t t0 = s.Now();
            uint32_t id = 0;
            if (s.Conn().Write(t0, base, size, StWriteOptions(), id) != StStatus::Ok)
            {
                prog.Fail("cannot start a write");
            }
            for (;;)
            {
                const StEvent e = WaitFor(prog, StEventType::TransferComplete, 0);
                if (e.role == StRole::Destination)
                {
                    break; // the echo (our own write's completion may come before or after)
                }
            }
            const uint64_t t1 = s.Now();
            uint64_t stamp = 0;
            wrong += StPerfPattern::Check(mem, size, stamp) && (size < 8 || stamp == 1) ? 0 : 1;
            if (i >= warmup)
            {
                rtt.push_back(static_cast<double>(t1 - t0) * 1e-3);
            }
        }
    }
    else
    {
        // A region of the operation's size plus the FETCHOP word behind it.
        const uint64_t regionBytes = ((size + 7) & ~uint64_t(7)) + 8;
        hello.kind = StPerfKind::Memory;
        hello.size = regionBytes;
        prog.SendHello(hello);
        uint32_t region = 0;
        if (s.Conn().RequestRegion(s.Now(), regionBytes, region) != StStatus::Ok)
        {
            prog.Fail("cannot ask for a region");
        }
        WaitFor(prog, StEventType::RegionAvailable, region);
        uint64_t src = 0;
        uint64_t dst = 0;
        uint8_t* out = s.Map(regionBytes, StMemoryTable::PIN_TX, src);
        uint8_t* in = s.Map(regionBytes, StMemoryTable::PIN_RX, dst);
        StPerfPattern::Fill(out, size, 7);
        auto put = [&]() {
            const StStatus st = s.Conn().Put(s.Now(), region, 0, src, size);
            if (st == StStatus::PutTooLarge)
            {
                // A PUT is one STU (seed 000): no larger than the peer's Max_STU and Bufx.
                prog.Fail("cannot PUT " + std::to_string(size) + " bytes: a PUT is one STU, " +
                          std::to_string(s.Conn().GetPutLimit()) + " bytes at most here");
            }
            if (st != StStatus::Ok)
            {
                prog.Fail(std::string("cannot PUT: ") + StStatusName(st));
            }
            WaitFor(prog, StEventType::PutComplete, region);
        };
        auto get = [&]() {
            uint32_t gid = 0;
            std::fill(in, in + size, 0);
            if (s.Conn().Get(s.Now(), region, 0, dst, size, gid) != StStatus::Ok)
            {
                prog.Fail("cannot GET");
            }
            WaitFor(prog, StEventType::GetComplete, gid);
            wrong += std::equal(out, out + size, in) ? 0 : 1;
        };
        if (mode == "get")
        {
            put();
        }
        for (uint64_t i = 0; i < total; ++i)
        {
            const uint64_t t0 = s.Now();
            if (mode == "fetchop")
            {
                uint32_t gid = 0;
                if (s.Conn().FetchOp(t0, region, regionBytes - 8, dst, StFetchOp::Increment, gid) !=
                    StStatus::Ok)
                {
                    prog.Fail("cannot FETCHOP");
                }
                const StEvent e = WaitFor(prog, StEventType::FetchOpComplete, gid);
                wrong += e.value == i ? 0 : 1; // each increment sees the one before
            }
            else
            {
                if (mode == "put")
                {
                    put();
                }
                get();
            }
            if (i >= warmup)
            {
                rtt.push_back(static_cast<double>(s.Now() - t0) * 1e-3);
            }
        }
        if (mode == "fetchop")
        {
            // The word itself: every increment applied exactly once.
            uint32_t gid = 0;
            s.Conn().Get(s.Now(), region, regionBytes - 8, dst, 8, gid);
            WaitFor(prog, StEventType::GetComplete, gid);
            wrong += BigEndian64(in) == total ? 0 : 1;
        }
        StPerfReport report;
        if (!prog.ReadReport(report, true) || report.guardIntact != 1)
        {
            prog.Fail("the server's memory outside the region was written");
        }
    }
    s.Close();

    std::sort(rtt.begin(), rtt.end());
    double sum = 0;
    for (double v : rtt)
    {
        sum += v;
    }
    const auto at = [&rtt](double q) {
        return rtt[std::min(rtt.size() - 1, static_cast<std::size_t>(q * rtt.size()))];
    };
    if (!prog.quiet)
    {
        std::printf("%-8s %8s %8s %10s %10s %10s %10s %10s  (round trip, us)\n",
                    "mode",
                    "bytes",
                    "count",
                    "min",
                    "mean",
                    "median",
                    "p99",
                    "max");
    }
    std::printf("%-8s %8llu %8llu %10.2f %10.2f %10.2f %10.2f %10.2f\n",
                mode.c_str(),
                static_cast<unsigned long long>(size),
                static_cast<unsigned long long>(count),
                rtt.front(),
                sum / rtt.size(),
                at(0.5),
                at(0.99),
                rtt.back());
    if (wrong != 0)
    {
        std::fprintf(stderr,
                     "st-lat: %llu replies were wrong\n",
                     static_cast<unsigned long long>(wrong));
        return 1;
    }
    return 0;
}
