/*
 * st-perf-session.cc: a managed connection of the test programs (see st-perf-session.h).
 */
#include "st-perf-session.h"

#include <cerrno>
#include <cstring>

namespace ns3
{
namespace st
{

StPerfSession::StPerfSession(StHostStack& host, uint64_t timeoutNs)
    : m_host(host),
      m_timeoutNs(timeoutNs)
{
}

StPerfSession::~StPerfSession()
{
    if (m_conn != 0)
    {
        m_host.GetStack().Bind(m_conn, nullptr);
    }
}

uint64_t
StPerfSession::Now()
{
    return m_host.GetDriver().Now();
}

void
StPerfSession::Bind(StConnId id)
{
    if (m_conn != 0)
    {
        m_host.GetStack().Bind(m_conn, nullptr);
    }
    m_conn = id;
    m_closed = false;
    m_events.clear();
    m_memory.clear();
    m_nextLinear = 0;
    m_host.GetStack().Bind(id, this);
}

StConnection&
StPerfSession::Conn()
{
    return *m_host.GetEndpoint().Find(m_conn);
}

void
StPerfSession::OnEvent(const StEvent& e)
{
    if (e.holdsSlot)
    {
        // The programs act on completions, not on single headers: the slot is free now.
        m_host.GetEndpoint().ReleaseSlot(e.conn);
    }
    if (e.type == StEventType::HeaderReceived)
    {
        return;
    }
    if (e.type == StEventType::ConnectionClosed || e.type == StEventType::ConnectionRefused)
    {
        m_closed = true;
    }
    m_events.push_back(e);
}

bool
StPerfSession::WaitUntil(const std::function<bool()>& done)
{
    const uint64_t deadline = m_timeoutNs == ST_NEVER ? ST_NEVER : Now() + m_timeoutNs;
    return m_host.GetStack().Pump(deadline, done);
}

bool
StPerfSession::NextEvent(StEvent& e)
{
    if (m_events.empty() && !WaitUntil([this]() { return !m_events.empty(); }))
    {
        return false;
    }
    e = m_events.front();
    m_events.pop_front();
    return true;
}

int
StPerfSession::Connect(const std::string& hostname, uint16_t port, std::string& error)
{
    StPeerAddress peer = 0;
    StResolveState r = StResolveState::InProgress;
    WaitUntil([&]() {
        r = m_host.GetDriver().ResolveStart(hostname.c_str(), peer);
        return r != StResolveState::InProgress;
    });
    if (r != StResolveState::Resolved)
    {
        error = "cannot resolve '" + hostname +
                "' to a MAC address on this interface (no ARP answer; give IP=MAC with --peer)";
        return EHOSTUNREACH;
    }
    StEndpoint& ep = m_host.GetEndpoint();
    StConnId id = 0;
    const StStatus s = ep.Connect(Now(), peer, port, ep.GetConfig().defaults, id);
    if (s != StStatus::Ok)
    {
        error = std::string("connect: ") + StStatusName(s);
        return s == StStatus::ChannelTooSmall ? EMSGSIZE : EINVAL;
    }
    Bind(id);
    StEvent e;
    while (NextEvent(e))
    {
        switch (e.type)
        {
        case StEventType::ConnectionEstablished:
            return 0;
        case StEventType::ConnectionRefused:
            error = "connection refused (nobody listens on port " + std::to_string(port) + ")";
            return ECONNREFUSED;
        case StEventType::ConnectionClosed:
            error = "no answer to the connection request (RC retried, then given up)";
            return ETIMEDOUT;
        default:
            break;
        }
    }
    error = "no answer to the connection request";
    return ETIMEDOUT;
}

int
StPerfSession::Listen(uint16_t port, std::string& error)
{
    StEndpoint& ep = m_host.GetEndpoint();
    const StStatus s = ep.Listen(port, ep.GetConfig().defaults);
    if (s != StStatus::Ok)
    {
        error = "cannot listen on port " + std::to_string(port) + ": " + StStatusName(s);
        return EADDRINUSE;
    }
    return 0;
}

int
StPerfSession::Accept(uint16_t port, uint64_t timeoutNs)
{
    auto& q = m_host.GetStack().Accepted(port);
    const uint64_t deadline = timeoutNs == ST_NEVER ? ST_NEVER : Now() + timeoutNs;
    if (!m_host.GetStack().Pump(deadline, [&q]() { return !q.empty(); }))
    {
        return ETIMEDOUT;
    }
    const StConnId id = q.front();
    q.pop_front();
    Bind(id);
    return 0;
}

uint8_t*
StPerfSession::Map(std::size_t len, int flags, uint64_t& linear)
{
    StConnection& c = Conn();
    const uint8_t bufsize = c.GetLocalParams().bufsize;
    const uint64_t entry = 1ULL << bufsize;
    const uint64_t entries = (len + entry - 1) / entry;
    // Whole Bufx entries, so mappings never share one.
    auto mem = std::make_unique<uint8_t[]>(static_cast<std::size_t>(entries * entry));
    std::memset(mem.get(), 0, static_cast<std::size_t>(entries * entry));
    uint32_t id = 0;
    uint16_t mx = 0;
    const auto bufx = static_cast<uint32_t>(m_nextLinear >> bufsize);
    if (c.GetMemory()
            .Map(flags, mem.get(), entries * entry, bufx, static_cast<int64_t>(entries), id, mx) !=
        StStatus::Ok)
    {
        return nullptr;
    }
    linear = m_nextLinear;
    m_nextLinear += entries * entry;
    m_memory.push_back(std::move(mem));
    return m_memory.back().get();
}

void
StPerfSession::Close()
{
    if (m_conn == 0 || m_closed)
    {
        return;
    }
    m_host.GetEndpoint().Close(Now(), m_conn);
    WaitUntil([this]() {
        const StConnection* c = m_host.GetEndpoint().Find(m_conn);
        return m_closed || c == nullptr || c->GetState() == StConnState::Closed;
    });
    m_closed = true;
}

} // namespace st
} // namespace ns3
