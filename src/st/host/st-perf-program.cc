/*
 * st-perf-program.cc: options, server and hello/report of the ST test programs (see
 * st-perf-program.h).
 */
#include "st-perf-program.h"

#include <cstdio>
#include <cstdlib>
#include <set>
#include <sys/random.h>

namespace ns3
{
namespace st
{

namespace
{
uint8_t
Log2(uint64_t v)
{
    uint8_t lg = 0;
    while ((2ULL << lg) <= v)
    {
        ++lg;
    }
    return lg;
}
} // namespace

StPerfProgram::StPerfProgram(const std::string& name)
    : m_name(name)
{
}

void
StPerfProgram::AddOptions(StCommandLine& cmd)
{
    cmd.AddFlag("server", 's', &server, "be the server (any st-bw, st-lat or st-check client)");
    cmd.AddFlag("once", '1', &once, "server: serve one client, exit 0 if its test ended intact");
    cmd.AddString("interface", 'i', &interface, "Ethernet interface (required)");
    cmd.AddNumber("port", 'p', &port, 1, 65535, "ST port");
    cmd.AddString("peer",
                  0,
                  &peers,
                  "static IP=MAC entries (comma-separated), used before the kernel's ARP table");
    cmd.AddNumber("timeout",
                  0,
                  &timeoutMs,
                  1,
                  3600000,
                  "ms a wait may last without progress before the test fails");
    cmd.AddNumber("op-timeout",
                  0,
                  &opTimeoutMs,
                  1,
                  60000,
                  "ms before an unanswered operation (RC, RTS, CTS, GET ...) is sent again");
    cmd.AddNumber("retries", 0, &retries, 0, 1000, "retries before the connection is torn down");
    cmd.AddNumber("block",
                  'b',
                  &block,
                  256,
                  1ULL << 30,
                  "bytes a CTS grants (rounded down to a power of 2)");
    cmd.AddNumber("cts", 0, &cts, 1, 65535, "CTSs outstanding per transfer");
    cmd.AddNumber("drop",
                  0,
                  &dropPermille,
                  0,
                  1000,
                  "drop this many of every 1000 frames sent (software loss, for tests)");
    cmd.AddFlag("quiet", 'q', &quiet, "print the figures only");
    cmd.AddString("stat-name", 0, &statName, "the name st-stat shows for this stack");
    cmd.AddFlag("keep-stats",
                0,
                &keepStats,
                "leave the counters for st-stat when the program ends");
}

void
StPerfProgram::Fail(const std::string& message)
{
    std::fprintf(stderr, "%s: %s\n", m_name.c_str(), message.c_str());
    std::exit(1);
}

void
StPerfProgram::Open(const StCommandLine& cmd)
{
    if (interface.empty())
    {
        cmd.Fail("--interface (-i) is required: the Ethernet interface ST runs on");
    }
    if (!server)
    {
        if (cmd.Positional().size() != 1)
        {
            cmd.Fail("a client needs the server's address (IPv4, host name or MAC); a server "
                     "needs -s");
        }
        host = cmd.Positional()[0];
    }
    else if (!cmd.Positional().empty())
    {
        cmd.Fail("unexpected argument '" + cmd.Positional()[0] + "' (the server takes none)");
    }
    StHostOptions o;
    o.interface = interface;
    o.peers = peers;
    o.program = statName.empty() ? m_name : statName;
    o.opTimeoutNs = opTimeoutMs * 1000000ULL;
    o.maxRetries = static_cast<uint32_t>(retries);
    o.maxBlock = Log2(block);
    o.ctsReq = static_cast<uint16_t>(cts);
    std::string error;
    if (m_host.Open(o, error) != 0)
    {
        Fail(error);
    }
    if (keepStats)
    {
        m_host.KeepCounters();
    }
    if (dropPermille > 0)
    {
        const uint64_t permille = dropPermille;
        m_host.GetDriver().SetTransmitHook([permille](StTransmit&) {
            uint16_t r = 0;
            getrandom(&r, sizeof(r), 0);
            return r % 1000 >= permille;
        });
    }
    m_session = std::make_unique<StPerfSession>(m_host, timeoutMs * 1000000ULL);
}

StEvent
StPerfProgram::Next()
{
    StEvent e;
    for (;;)
    {
        if (!m_session->NextEvent(e))
        {
            Fail("no progress for " + std::to_string(timeoutMs) + " ms (--timeout)");
        }
        switch (e.type)
        {
        case StEventType::ConnectionClosed:
            Fail("the connection closed (the peer went away or stopped answering)");
        case StEventType::TransferAborted:
            Fail("transfer or region " + std::to_string(e.id) +
                 " was aborted (END from the peer, or its retries ran out)");
        default:
            return e;
        }
    }
}

void
StPerfProgram::ConnectClient(const StCommandLine&)
{
    std::string error;
    if (m_session->Connect(host, static_cast<uint16_t>(port), error) != 0)
    {
        Fail(error);
    }
}

void
StPerfProgram::SendHello(const StPerfHello& hello)
{
    uint64_t lin = 0;
    uint8_t* mem = m_session->Map(ST_PERF_MESSAGE, StMemoryTable::PIN_TX, lin);
    hello.Encode(mem);
    uint32_t id = 0;
    if (m_session->Conn().Write(m_session->Now(), lin, ST_PERF_MESSAGE, StWriteOptions(), id) !=
        StStatus::Ok)
    {
        Fail("cannot send the hello");
    }
    for (;;)
    {
        const StEvent e = Next();
        if (e.type == StEventType::TransferComplete && e.id == id)
        {
            return;
        }
        if (e.type == StEventType::TransferRejected && e.id == id)
        {
            Fail("the server refused the hello");
        }
    }
}

bool
StPerfProgram::ReadReport(StPerfReport& report, bool sendDone)
{
    if (sendDone)
    {
        StPerfHello done;
        SendHello(done);
    }
    uint64_t lin = 0;
    uint8_t* mem = m_session->Map(ST_PERF_MESSAGE, StMemoryTable::PIN_RX, lin);
    uint32_t id = 0;
    if (m_session->Conn().Read(m_session->Now(), lin, ST_PERF_MESSAGE, id) != StStatus::Ok)
    {
        return false;
    }
    for (;;)
    {
        const StEvent e = Next();
        if (e.type == StEventType::TransferComplete && e.id == id)
        {
            return report.Decode(mem);
        }
        if (e.type == StEventType::TransferRejected && e.id == id)
        {
            return false;
        }
    }
}

int
StPerfProgram::Serve()
{
    std::string error;
    if (m_session->Listen(static_cast<uint16_t>(port), error) != 0)
    {
        Fail(error);
    }
    if (!quiet)
    {
        std::printf("%s: listening on %s port %llu\n",
                    m_name.c_str(),
                    interface.c_str(),
                    static_cast<unsigned long long>(port));
        std::fflush(stdout);
    }
    for (;;)
    {
        m_session->Accept(static_cast<uint16_t>(port), ST_NEVER);
        const bool ok = ServeOne();
        m_host.PublishCounters(true);
        if (once)
        {
            return ok ? 0 : 1;
        }
    }
}

bool
StPerfProgram::ServeOne()
{
    StPerfSession& s = *m_session;
    uint64_t lin = 0;
    uint8_t* hb = s.Map(ST_PERF_MESSAGE, StMemoryTable::PIN_RX, lin);
    s.Conn().PostReceive(s.Now(), lin, ST_PERF_MESSAGE);
    StPerfHello h;
    StEvent e;
    for (;;)
    {
        if (!s.NextEvent(e) || s.IsClosed())
        {
            std::fprintf(stderr, "%s: the client went away before its hello\n", m_name.c_str());
            return false;
        }
        if (e.type == StEventType::TransferComplete && e.role == StRole::Destination)
        {
            break;
        }
    }
    if (!h.Decode(hb) || h.size == 0 || h.outstanding == 0)
    {
        std::fprintf(stderr, "%s: the client's hello is malformed\n", m_name.c_str());
        s.Close();
        return false;
    }
    const StCounters before = m_host.GetEndpoint().GetCounters();
    StPerfReport r;
    switch (h.kind)
    {
    case StPerfKind::Write:
        ServeWrite(h, r);
        break;
    case StPerfKind::Read:
        ServeRead(h, r);
        break;
    case StPerfKind::PingPong:
        ServePingPong(h, r);
        break;
    case StPerfKind::Memory:
        ServeMemory(h, r);
        break;
    default:
        std::fprintf(stderr,
                     "%s: unknown test %u\n",
                     m_name.c_str(),
                     static_cast<unsigned>(h.kind));
        s.Close();
        return false;
    }
    const StCounters& after = m_host.GetEndpoint().GetCounters();
    r.unknownKey = after.Get(StRxVerdict::UnknownKey) - before.Get(StRxVerdict::UnknownKey);
    r.outsideMemory =
        after.Get(StRxVerdict::OutsideMapping) + after.Get(StRxVerdict::OutsideExposure) -
        before.Get(StRxVerdict::OutsideMapping) - before.Get(StRxVerdict::OutsideExposure);
    r.rejectsSent = after.Get(StStat::RejectsSent) - before.Get(StStat::RejectsSent);
    if (!s.IsClosed())
    {
        uint8_t* rb = s.Map(ST_PERF_MESSAGE, StMemoryTable::PIN_TX, lin);
        r.Encode(rb);
        s.Conn().PostSend(s.Now(), lin, ST_PERF_MESSAGE);
        // The client reads the report, then closes.
        s.WaitUntil([&s]() { return s.IsClosed(); });
    }
    if (!quiet)
    {
        std::printf("%s: test %u done: %llu intact, %llu damaged; rejected: %llu wrong key, "
                    "%llu outside memory, %llu RA(R=1) sent\n",
                    m_name.c_str(),
                    static_cast<unsigned>(h.kind),
                    static_cast<unsigned long long>(r.good),
                    static_cast<unsigned long long>(r.bad),
                    static_cast<unsigned long long>(r.unknownKey),
                    static_cast<unsigned long long>(r.outsideMemory),
                    static_cast<unsigned long long>(r.rejectsSent));
        std::fflush(stdout);
    }
    return r.bad == 0 && r.guardIntact == 1;
}

void
StPerfProgram::ServeWrite(const StPerfHello& h, StPerfReport& r)
{
    StPerfSession& s = *m_session;
    const uint64_t slots = std::min<uint64_t>(h.outstanding, h.count);
    uint64_t base = 0;
    uint8_t* mem = s.Map(slots * h.size, StMemoryTable::PIN_RX, base);
    if (mem == nullptr)
    {
        Fail("cannot map " + std::to_string(slots * h.size) + " bytes");
    }
    for (uint64_t i = 0; i < slots; ++i)
    {
        s.Conn().PostReceive(s.Now(), base + i * h.size, h.size);
    }
    uint64_t posted = slots;
    uint64_t received = 0;
    std::set<uint64_t> seen;
    StEvent e;
    while (received < h.count && s.NextEvent(e) && !s.IsClosed())
    {
        if (e.type != StEventType::TransferComplete || e.role != StRole::Destination)
        {
            continue;
        }
        ++received;
        const uint64_t slot = (e.address - base) / h.size;
        uint64_t stamp = 0;
        const bool intact =
            h.verify == 0 || (StPerfPattern::Check(mem + slot * h.size, h.size, stamp) &&
                              (h.size < 8 || (stamp < h.count && seen.insert(stamp).second)));
        ++(intact ? r.good : r.bad);
        if (posted < h.count)
        {
            s.Conn().PostReceive(s.Now(), base + slot * h.size, h.size);
            ++posted;
        }
    }
    r.bad += h.count - received; // missing ones
}

void
StPerfProgram::ServeRead(const StPerfHello& h, StPerfReport& r)
{
    StPerfSession& s = *m_session;
    const uint64_t slots = std::min<uint64_t>(h.outstanding, h.count);
    uint64_t base = 0;
    uint8_t* mem = s.Map(slots * h.size, StMemoryTable::PIN_TX, base);
    if (mem == nullptr)
    {
        Fail("cannot map " + std::to_string(slots * h.size) + " bytes");
    }
    for (uint64_t i = 0; i < slots; ++i)
    {
        StPerfPattern::Fill(mem + i * h.size, h.size, i);
        s.Conn().PostSend(s.Now(), base + i * h.size, h.size);
    }
    uint64_t next = slots;
    uint64_t sent = 0;
    StEvent e;
    while (sent < h.count && s.NextEvent(e) && !s.IsClosed())
    {
        if (e.type != StEventType::TransferComplete || e.role != StRole::Source)
        {
            continue;
        }
        ++sent;
        if (next < h.count)
        {
            const uint64_t slot = (e.address - base) / h.size;
            StPerfPattern::Stamp(mem + slot * h.size, h.size, next++);
            s.Conn().PostSend(s.Now(), base + slot * h.size, h.size);
        }
    }
    r.good = sent; // the client checks what it read
    r.bad = h.count - sent;
}

void
StPerfProgram::ServePingPong(const StPerfHello& h, StPerfReport& r)
{
    StPerfSession& s = *m_session;
    uint64_t base = 0;
    uint8_t* mem = s.Map(h.size, StMemoryTable::PIN_RX | StMemoryTable::PIN_TX, base);
    s.Conn().PostReceive(s.Now(), base, h.size);
    uint64_t echoed = 0;
    StEvent e;
    while (echoed < h.count && s.NextEvent(e) && !s.IsClosed())
    {
        if (e.type != StEventType::TransferComplete || e.role != StRole::Destination)
        {
            continue;
        }
        uint64_t stamp = 0;
        const bool intact = h.verify == 0 || StPerfPattern::Check(mem, h.size, stamp);
        ++(intact ? r.good : r.bad);
        // The next ping comes only after this pong arrived: post for it first.
        s.Conn().PostReceive(s.Now(), base, h.size);
        uint32_t id = 0;
        s.Conn().Write(s.Now(), base, h.size, StWriteOptions(), id);
        ++echoed;
    }
    r.bad += h.count - echoed;
}

void
StPerfProgram::ServeMemory(const StPerfHello& h, StPerfReport& r)
{
    StPerfSession& s = *m_session;
    // The region, then as many bytes again that are mapped but never exposed: a write that
    // lands there passed the mapping check but broke the region's bounds.
    uint64_t base = 0;
    uint8_t* mem = s.Map(2 * h.size, StMemoryTable::PIN_RX | StMemoryTable::PIN_TX, base);
    if (mem == nullptr)
    {
        Fail("cannot map the region");
    }
    std::fill(mem + h.size, mem + 2 * h.size, 0xEE);
    s.Conn().ExposeRegion(s.Now(), base, h.size);
    uint64_t dl = 0;
    s.Map(ST_PERF_MESSAGE, StMemoryTable::PIN_RX, dl);
    s.Conn().PostReceive(s.Now(), dl, ST_PERF_MESSAGE); // the client's "done"
    StEvent e;
    while (s.NextEvent(e) && !s.IsClosed())
    {
        if (e.type == StEventType::TransferComplete && e.role == StRole::Destination)
        {
            break;
        }
    }
    r.guardIntact =
        std::all_of(mem + h.size, mem + 2 * h.size, [](uint8_t b) { return b == 0xEE; }) ? 1 : 0;
    r.good = 1;
}

} // namespace st
} // namespace ns3
