// harp-client.cc: the HARP client engine (see harp-client.h). Phases: Idle -> Detecting ->
// Operational (broadcast fabric) or Registration <-> Operational (non-broadcast fabric).
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
// Received frames

void
Client::HandleFrame(TimeNs now, const Ula& source, const std::vector<uint8_t>& bytes)
{
    HandleFrame(now, source, bytes.data(), bytes.size());
}

void
Client::HandleFrame(TimeNs now, const Ula& source, const uint8_t* data, std::size_t size)
{
    ReceiveFrame(m_stats, data, size, [&](const Message& m) { return Dispatch(now, source, m); });
}

RxOutcome
Client::Dispatch(TimeNs now, const Ula& source, const Message& message)
{
    if (m_phase == Phase::Idle)
    {
        return RxOutcome::Ignored();
    }
    switch (message.op)
    {
        case Op::ArpRequest:
            return OnArpRequest(now, source, message);
        case Op::ArpReply:
            return OnArpReply(now, source, message);
        case Op::InArpReply:
            return OnInArpReply(now, source, message);
        case Op::Nak:
            return OnNak(source, message);
        case Op::InArpRequest:
            // Registration requests are for servers; a server on this host has its own engine.
            return RxOutcome::Ignored();
    }
    return RxOutcome::Ignored();
}

bool
Client::IsUsableSender(const Message& message) const
{
    const Ipv4 ip = message.senderIp;
    return message.senderUla.IsUnicast() && !ip.IsAny() && !ip.IsLimitedBroadcast()
        && !ip.IsMulticast();
}

bool
Client::IsBroadcastOperational() const
{
    return m_phase == Phase::Operational && m_broadcast == true;
}

RxOutcome
Client::OnArpRequest(TimeNs now, const Ula& source, const Message& message)
{
    if (message.senderUla != source)
    {
        return RxOutcome::Dropped(DropReason::SenderMismatch);
    }
    if (message.senderUla == m_config.ula && message.senderIp == m_config.address)
    {
        // A copy of our own broadcast: during the self-test it proves the fabric broadcasts.
        if (m_phase == Phase::Detecting && message.targetIp == m_config.address)
        {
            m_detectionNext = kNever;
            SetFabric(now, true);
            return RxOutcome::Handled();
        }
        return RxOutcome::Ignored();
    }
    if (!IsUsableSender(message))
    {
        return RxOutcome::Dropped(DropReason::BadSender);
    }
    if (message.senderIp == m_config.address)
    {
        Report(EventType::AddressConflict, message.senderIp, message.senderUla, FailReason::None);
        return RxOutcome::Dropped(DropReason::AddressConflict);
    }
    // Only hosts of a broadcast fabric answer for themselves; elsewhere the servers answer.
    if (!IsBroadcastOperational() || message.targetIp != m_config.address)
    {
        return RxOutcome::Ignored();
    }
    if (!m_config.lis.IsHost(message.senderIp))
    {
        return RxOutcome::Dropped(DropReason::OutsideLis);
    }
    Message reply;
    reply.op = Op::ArpReply;
    reply.senderUla = m_config.ula;
    reply.senderIp = m_config.address;
    reply.targetUla = message.senderUla;
    reply.targetIp = message.senderIp;
    Send(source, reply);
    // RFC 826: the target of a request learns the requester (static entries stay as they are).
    const CacheEntry* entry = m_cache.Find(message.senderIp);
    if (entry == nullptr || !entry->isStatic)
    {
        if (m_pending.count(message.senderIp) != 0)
        {
            CompletePending(now, message.senderIp, message.senderUla);
        }
        else
        {
            m_cache.Update(message.senderIp, message.senderUla, Later(now, m_config.cacheLifetime));
        }
    }
    return RxOutcome::Handled();
}

RxOutcome
Client::OnArpReply(TimeNs now, const Ula& source, const Message& message)
{
    if (message.targetUla != m_config.ula || message.targetIp != m_config.address)
    {
        return RxOutcome::Dropped(DropReason::WrongTarget);
    }
    if (!IsUsableSender(message))
    {
        return RxOutcome::Dropped(DropReason::BadSender);
    }
    if (m_broadcast.value_or(false))
    {
        // On a broadcast fabric the owner answers for itself.
        if (source != message.senderUla)
        {
            return RxOutcome::Dropped(DropReason::SenderMismatch);
        }
    }
    else if (!FindServer(source))
    {
        return RxOutcome::Dropped(DropReason::UnsolicitedReply);
    }
    const CacheEntry* entry = m_cache.Find(message.senderIp);
    if (entry != nullptr && entry->isStatic)
    {
        return RxOutcome::Dropped(DropReason::StaticConflict);
    }
    if (m_pending.count(message.senderIp) == 0)
    {
        // RFC 826 merge: a reply confirming what we hold refreshes it (on a broadcast fabric the
        // answer often arrives after the owner's own request taught us the mapping). Anything
        // else was asked by nobody.
        if (entry == nullptr || entry->ula != message.senderUla)
        {
            return RxOutcome::Dropped(DropReason::UnsolicitedReply);
        }
        m_cache.Update(message.senderIp, message.senderUla, Later(now, m_config.cacheLifetime));
        return RxOutcome::Handled();
    }
    CompletePending(now, message.senderIp, message.senderUla);
    return RxOutcome::Handled();
}

RxOutcome
Client::OnInArpReply(TimeNs now, const Ula& source, const Message& message)
{
    const auto index = FindServer(source);
    const bool registering
        = m_phase == Phase::Registration || (m_phase == Phase::Operational && m_broadcast == false);
    if (!index || !registering)
    {
        return RxOutcome::Dropped(DropReason::UnsolicitedReply);
    }
    if (message.senderUla != source)
    {
        return RxOutcome::Dropped(DropReason::SenderMismatch);
    }
    if (message.targetUla != m_config.ula || message.targetIp != m_config.address)
    {
        return RxOutcome::Dropped(DropReason::WrongTarget);
    }
    if (!IsUsableSender(message))
    {
        return RxOutcome::Dropped(DropReason::BadSender);
    }
    if (!m_config.lis.IsHost(message.senderIp))
    {
        return RxOutcome::Dropped(DropReason::OutsideLis);
    }
    ServerInfo& server = m_servers[*index];
    const bool wasAlive = server.status == ServerStatus::Alive;
    server.address = message.senderIp;
    server.status = ServerStatus::Alive;
    server.awaiting = false;
    server.deadline = kNever;
    if (!wasAlive)
    {
        Report(EventType::ServerUp, server.address, server.ula, FailReason::None);
    }
    if (m_phase == Phase::Registration)
    {
        m_preferred = *index;
        EnterOperational(now);
    }
    return RxOutcome::Handled();
}

RxOutcome
Client::OnNak(const Ula& source, const Message& message)
{
    // HARP_NAK is our own request sent back by a server, op changed to 10.
    if (message.senderUla != m_config.ula || message.senderIp != m_config.address)
    {
        return RxOutcome::Dropped(DropReason::WrongTarget);
    }
    if (m_broadcast.value_or(false) || !FindServer(source)
        || m_pending.count(message.targetIp) == 0)
    {
        return RxOutcome::Dropped(DropReason::UnsolicitedReply);
    }
    FailPending(message.targetIp, FailReason::Nak);
    return RxOutcome::Handled();
}

// ---------------------------------------------------------------------------------------------
// Timers

void
Client::HandleTimeout(TimeNs now)
{
    RunDetection(now);
    if (IsRegistering() && now >= m_registrationNext)
    {
        SendRegistrations();
        m_registrationNext = Later(now, m_config.registrationRetry);
    }
    if (m_phase == Phase::Operational && m_broadcast == false)
    {
        RunServerDeadlines(now);
        if (m_phase == Phase::Operational && now >= m_reregistrationNext)
        {
            Reregister(now);
        }
    }
    RunPendingDeadlines(now);
    RunCacheExpiry(now);
}

void
Client::RunDetection(TimeNs now)
{
    if (m_phase != Phase::Detecting || now < m_detectionNext)
    {
        return;
    }
    if (m_probesSent < m_config.broadcastProbes)
    {
        SendProbe();
        ++m_probesSent;
        m_detectionNext = Later(now, m_config.probeInterval);
        return;
    }
    // No copy of any probe came back: the fabric does not broadcast.
    m_detectionNext = kNever;
    SetFabric(now, false);
}

void
Client::RunServerDeadlines(TimeNs now)
{
    for (std::size_t i = 0; i < m_servers.size(); ++i)
    {
        ServerInfo& server = m_servers[i];
        if (!server.awaiting || now < server.deadline)
        {
            continue;
        }
        if (server.attempts < 1 + m_config.requestRetries)
        {
            SendInArp(i);
            ++server.attempts;
            server.deadline = Later(now, m_config.requestTimeout);
            continue;
        }
        server.awaiting = false;
        server.deadline = kNever;
        if (server.status == ServerStatus::Alive)
        {
            Report(EventType::ServerDown, server.address, server.ula, FailReason::None);
        }
        server.status = ServerStatus::Dead;
    }
    if (!AnyServerAlive())
    {
        EnterRegistration(now);
    }
}

void
Client::RunPendingDeadlines(TimeNs now)
{
    std::vector<Ipv4> due;
    for (const auto& [ip, pending] : m_pending)
    {
        if (pending.deadline <= now)
        {
            due.push_back(ip);
        }
    }
    for (Ipv4 ip : due)
    {
        Pending& pending = m_pending[ip];
        if (pending.sent && pending.server && *pending.server == m_preferred && !m_servers.empty())
        {
            // The preferred server let us down: try the next live one from now on.
            m_preferred = (m_preferred + 1) % m_servers.size();
        }
        if (pending.attempts >= 1 + m_config.requestRetries)
        {
            FailPending(ip, FailReason::Timeout);
            continue;
        }
        ++pending.attempts;
        pending.deadline = Later(now, m_config.requestTimeout);
        SendPending(ip, pending);
    }
}

void
Client::RunCacheExpiry(TimeNs now)
{
    for (Ipv4 ip : m_cache.Expired(now))
    {
        const CacheEntry entry = *m_cache.Find(ip);
        if (m_pending.count(ip) != 0)
        {
            m_cache.SetExpiry(ip, kNever);
        }
        else if (entry.used || m_config.revalidateIdleEntries)
        {
            StartPending(now, ip, true);
        }
        else
        {
            m_cache.Erase(ip);
            Report(EventType::EntryRemoved, ip, entry.ula, FailReason::None);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Phases

void
Client::SetFabric(TimeNs now, bool broadcast)
{
    m_broadcast = broadcast;
    Emit(Event{EventType::BroadcastDetected, Ipv4(), Ula(), m_phase, broadcast, FailReason::None});
    if (broadcast)
    {
        EnterOperational(now);
    }
    else
    {
        EnterRegistration(now);
    }
}

void
Client::EnterPhase(Phase phase)
{
    if (m_phase == phase)
    {
        return;
    }
    m_phase = phase;
    Emit(Event{EventType::PhaseChanged, Ipv4(), Ula(), phase, false, FailReason::None});
}

void
Client::EnterRegistration(TimeNs now)
{
    EnterPhase(Phase::Registration);
    m_reregistrationNext = kNever;
    for (ServerInfo& server : m_servers)
    {
        server.awaiting = false;
        server.deadline = kNever;
    }
    if (m_servers.empty())
    {
        // Nothing to register with: only static entries can be used (RFC 2835).
        FailAllPending(FailReason::NoServer);
        m_registrationNext = kNever;
        return;
    }
    SendRegistrations();
    m_registrationNext = Later(now, m_config.registrationRetry);
}

void
Client::EnterOperational(TimeNs now)
{
    EnterPhase(Phase::Operational);
    // m_registrationNext stays: servers that never answered keep getting InARP requests.
    if (m_broadcast == false)
    {
        m_reregistrationNext = Later(now, m_config.reregistrationInterval);
    }
    FlushUnsentPending(now);
}

// ---------------------------------------------------------------------------------------------
// Servers

std::optional<std::size_t>
Client::FindServer(const Ula& ula) const
{
    for (std::size_t i = 0; i < m_servers.size(); ++i)
    {
        if (m_servers[i].ula == ula)
        {
            return i;
        }
    }
    return std::nullopt;
}

std::optional<std::size_t>
Client::PickServer()
{
    const std::size_t count = m_servers.size();
    for (std::size_t k = 0; k < count; ++k)
    {
        const std::size_t i = (m_preferred + k) % count;
        if (m_servers[i].status == ServerStatus::Alive)
        {
            m_preferred = i;
            return i;
        }
    }
    return std::nullopt;
}

bool
Client::IsRegistering() const
{
    if (m_phase == Phase::Registration)
    {
        return true;
    }
    return m_phase == Phase::Operational && m_broadcast == false
        && std::any_of(m_servers.begin(),
                       m_servers.end(),
                       [](const ServerInfo& server)
                       {
                           return server.status == ServerStatus::Unknown;
                       });
}

bool
Client::AnyServerAlive() const
{
    return std::any_of(m_servers.begin(),
                       m_servers.end(),
                       [](const ServerInfo& server)
                       {
                           return server.status == ServerStatus::Alive;
                       });
}

void
Client::SendRegistrations()
{
    // Registration phase: every server. Operational: those that never answered (a server
    // that stopped answering waits for the next re-registration).
    const bool all = m_phase == Phase::Registration;
    for (std::size_t i = 0; i < m_servers.size(); ++i)
    {
        const ServerStatus status = m_servers[i].status;
        if (all ? status != ServerStatus::Alive : status == ServerStatus::Unknown)
        {
            SendInArp(i);
        }
    }
}

void
Client::Reregister(TimeNs now)
{
    // Every configured server, dead ones included: a restarted server comes back this way.
    for (std::size_t i = 0; i < m_servers.size(); ++i)
    {
        ServerInfo& server = m_servers[i];
        SendInArp(i);
        server.awaiting = true;
        server.attempts = 1;
        server.deadline = Later(now, m_config.requestTimeout);
    }
    m_reregistrationNext = Later(now, m_config.reregistrationInterval);
}

// ---------------------------------------------------------------------------------------------
// Resolution in progress

void
Client::StartPending(TimeNs now, Ipv4 ip, bool revalidation)
{
    if (revalidation)
    {
        // The entry stays usable while it is being revalidated.
        m_cache.SetExpiry(ip, kNever);
    }
    Pending& pending = m_pending[ip];
    pending.revalidation = revalidation;
    pending.attempts = 1;
    pending.deadline = Later(now, m_config.requestTimeout);
    SendPending(ip, pending);
}

void
Client::SendPending(Ipv4 ip, Pending& pending)
{
    pending.sent = false;
    pending.server.reset();
    if (m_phase != Phase::Operational)
    {
        return;
    }
    Message request;
    request.op = Op::ArpRequest;
    request.senderUla = m_config.ula;
    request.senderIp = m_config.address;
    request.targetIp = ip;
    Ula destination = Ula::Broadcast();
    if (m_broadcast == true)
    {
        // Revalidation on a broadcast fabric asks the host itself (RFC 2835).
        const CacheEntry* entry = m_cache.Find(ip);
        if (pending.revalidation && entry != nullptr)
        {
            destination = entry->ula;
        }
    }
    else
    {
        const auto server = PickServer();
        if (!server)
        {
            return;
        }
        pending.server = server;
        destination = m_servers[*server].ula;
    }
    Send(destination, request);
    pending.sent = true;
}

void
Client::FlushUnsentPending(TimeNs now)
{
    for (auto& [ip, pending] : m_pending)
    {
        if (!pending.sent)
        {
            // A full attempt starts now that requests can go out.
            pending.deadline = Later(now, m_config.requestTimeout);
            SendPending(ip, pending);
        }
    }
}

void
Client::CompletePending(TimeNs now, Ipv4 ip, const Ula& ula)
{
    auto it = m_pending.find(ip);
    const bool revalidation = it != m_pending.end() && it->second.revalidation;
    if (it != m_pending.end())
    {
        m_pending.erase(it);
    }
    m_cache.Update(ip, ula, Later(now, m_config.cacheLifetime));
    const EventType type = revalidation ? EventType::Revalidated : EventType::Resolved;
    Report(type, ip, ula, FailReason::None);
}

void
Client::FailPending(Ipv4 ip, FailReason reason)
{
    auto it = m_pending.find(ip);
    if (it == m_pending.end())
    {
        return;
    }
    const bool revalidation = it->second.revalidation;
    m_pending.erase(it);
    if (!revalidation)
    {
        Report(EventType::Unresolvable, ip, Ula(), reason);
        return;
    }
    // No reply or a NAK: the address is unmappable and leaves the table (RFC 2835).
    const CacheEntry* entry = m_cache.Find(ip);
    if (entry != nullptr && !entry->isStatic)
    {
        const Ula ula = entry->ula;
        m_cache.Erase(ip);
        Report(EventType::EntryRemoved, ip, ula, reason);
    }
}

void
Client::FailAllPending(FailReason reason)
{
    std::vector<Ipv4> all;
    for (const auto& [ip, pending] : m_pending)
    {
        all.push_back(ip);
    }
    for (Ipv4 ip : all)
    {
        FailPending(ip, reason);
    }
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
