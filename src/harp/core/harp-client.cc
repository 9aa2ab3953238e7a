// harp-client.cc: the HARP client engine of one interface (see harp-client.h): construction,
// the upper layer's interface (start, resolve, statics, the Poll* calls, inspection) and what
// every part uses to send and report (probe, InARP request, frame, event). Phases: Idle ->
// Detecting -> Operational (broadcast fabric) or Registration <-> Operational (non-broadcast
// fabric).
//
// Client is written in several files, one per part of the engine:
//  - harp-client.cc: the above;
//  - harp-client-receive.cc: frames received (ARP request and reply, InARP reply, NAK);
//  - harp-client-timers.cc: what happens when a deadline passes (detection, registration,
//    server answers, resolutions, cache expiry);
//  - harp-client-phases.cc: the fabric's kind set, phases entered, and the servers: one
//    picked, registration and re-registration;
//  - harp-client-pending.cc: resolutions in progress: started, sent, completed, failed.
#include "harp-client.h"

#include <algorithm>

namespace harp
{

Client::Client(ClientConfig config)
    : m_config(std::move(config))
{
    // Zero periods would make PollTimeout() ask for a wake-up at the current time forever.
    m_config.broadcastProbes = std::max<uint32_t>(m_config.broadcastProbes, 1);
    for (TimeNs* period : {&m_config.probeInterval,
                           &m_config.registrationRetry,
                           &m_config.requestTimeout,
                           &m_config.reregistrationInterval,
                           &m_config.cacheLifetime})
    {
        *period = std::max<TimeNs>(*period, kNanosecond);
    }
    for (const Ula& ula : m_config.servers)
    {
        if (!FindServer(ula))
        {
            ServerInfo server;
            server.ula = ula;
            m_servers.push_back(server);
        }
    }
    for (const StaticEntry& entry : m_config.statics)
    {
        AddStatic(entry.ip, entry.ula);
    }
}

// ---------------------------------------------------------------------------------------------
// Upper-layer interface

void
Client::Start(TimeNs now)
{
    if (m_phase != Phase::Idle)
    {
        return;
    }
    switch (m_config.mode)
    {
    case FabricMode::Detect:
        EnterPhase(Phase::Detecting);
        SendProbe();
        m_probesSent = 1;
        m_detectionNext = Later(now, m_config.probeInterval);
        break;
    case FabricMode::Broadcast:
        SetFabric(now, true);
        break;
    case FabricMode::NonBroadcast:
        SetFabric(now, false);
        break;
    }
}

std::optional<Ula>
Client::Resolve(TimeNs now, Ipv4 ip)
{
    if (ip == m_config.address)
    {
        return m_config.ula;
    }
    if (ip.IsLimitedBroadcast() || ip.IsMulticast() || m_config.lis.IsDirectedBroadcast(ip))
    {
        if (m_broadcast.value_or(false))
        {
            return Ula::Broadcast();
        }
        // PIBES (RFC 2835 §7.1) is not modelled: no broadcast on a non-broadcast fabric.
        Report(EventType::Unresolvable, ip, Ula(), FailReason::NoBroadcast);
        return std::nullopt;
    }
    if (!m_config.lis.IsHost(ip))
    {
        Report(EventType::Unresolvable, ip, Ula(), FailReason::OutsideLis);
        return std::nullopt;
    }
    if (const CacheEntry* entry = m_cache.Find(ip))
    {
        m_cache.MarkUsed(ip);
        return entry->ula;
    }
    if (m_pending.count(ip) != 0)
    {
        return std::nullopt;
    }
    if (m_broadcast == false && m_servers.empty())
    {
        Report(EventType::Unresolvable, ip, Ula(), FailReason::NoServer);
        return std::nullopt;
    }
    StartPending(now, ip, false);
    return std::nullopt;
}

std::optional<Ula>
Client::Lookup(Ipv4 ip) const
{
    if (ip == m_config.address)
    {
        return m_config.ula;
    }
    if (const CacheEntry* entry = m_cache.Find(ip))
    {
        return entry->ula;
    }
    return std::nullopt;
}

bool
Client::AddStatic(Ipv4 ip, Ula ula)
{
    if (!m_config.lis.IsHost(ip) || ip == m_config.address || !ula.IsUnicast())
    {
        return false;
    }
    m_cache.AddStatic(ip, ula);
    auto it = m_pending.find(ip);
    if (it != m_pending.end())
    {
        const bool revalidation = it->second.revalidation;
        m_pending.erase(it);
        if (!revalidation)
        {
            Report(EventType::Resolved, ip, ula, FailReason::None);
        }
    }
    return true;
}

bool
Client::RemoveStatic(Ipv4 ip)
{
    return m_cache.RemoveStatic(ip);
}

std::optional<Frame>
Client::PollTransmit()
{
    if (m_transmit.empty())
    {
        return std::nullopt;
    }
    Frame frame = std::move(m_transmit.front());
    m_transmit.pop_front();
    return frame;
}

std::optional<Event>
Client::PollEvent()
{
    if (m_events.empty())
    {
        return std::nullopt;
    }
    Event event = m_events.front();
    m_events.pop_front();
    return event;
}

std::optional<TimeNs>
Client::PollTimeout() const
{
    TimeNs next = kNever;
    switch (m_phase)
    {
    case Phase::Idle:
        break;
    case Phase::Detecting:
        next = m_detectionNext;
        break;
    case Phase::Registration:
        next = m_registrationNext;
        break;
    case Phase::Operational:
        if (m_broadcast == false)
        {
            next = IsRegistering() ? std::min(m_reregistrationNext, m_registrationNext)
                                   : m_reregistrationNext;
            for (const ServerInfo& server : m_servers)
            {
                if (server.awaiting)
                {
                    next = std::min(next, server.deadline);
                }
            }
        }
        break;
    }
    for (const auto& [ip, pending] : m_pending)
    {
        next = std::min(next, pending.deadline);
    }
    if (const auto expiry = m_cache.NextExpiry())
    {
        next = std::min(next, *expiry);
    }
    if (next == kNever)
    {
        return std::nullopt;
    }
    return next;
}

Phase
Client::GetPhase() const
{
    return m_phase;
}

std::optional<bool>
Client::IsBroadcastFabric() const
{
    return m_broadcast;
}

const std::vector<Client::ServerInfo>&
Client::GetServers() const
{
    return m_servers;
}

const Cache&
Client::GetCache() const
{
    return m_cache;
}

const Stats&
Client::GetStats() const
{
    return m_stats;
}

const ClientConfig&
Client::GetConfig() const
{
    return m_config;
}

std::size_t
Client::GetPendingCount() const
{
    return m_pending.size();
}

// ---------------------------------------------------------------------------------------------
// Output

void
Client::SendProbe()
{
    // A request for our own address to the broadcast ULA (RFC 2835 broadcast self-test).
    Message probe;
    probe.op = Op::ArpRequest;
    probe.senderUla = m_config.ula;
    probe.senderIp = m_config.address;
    probe.targetIp = m_config.address;
    Send(Ula::Broadcast(), probe);
}

void
Client::SendInArp(std::size_t server)
{
    // Carries our mapping, asks for the server's: tha is known, tpa is zero.
    Message request;
    request.op = Op::InArpRequest;
    request.senderUla = m_config.ula;
    request.senderIp = m_config.address;
    request.targetUla = m_servers[server].ula;
    Send(m_servers[server].ula, request);
}

void
Client::Send(const Ula& destination, const Message& message)
{
    m_transmit.push_back(Frame{destination, message.Serialize()});
    ++m_stats.txFrames;
}

void
Client::Emit(const Event& event)
{
    m_events.push_back(event);
}

void
Client::Report(EventType type, Ipv4 ip, const Ula& ula, FailReason reason)
{
    Event event;
    event.type = type;
    event.ip = ip;
    event.ula = ula;
    event.phase = m_phase;
    event.reason = reason;
    Emit(event);
}

} // namespace harp
