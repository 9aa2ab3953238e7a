// harp-client-pending.cc: resolutions in progress: one started (or an entry revalidated), its
// request sent (broadcast, or to a live server), those waiting for a phase sent when it
// comes, and each completed into the cache or failed with its reason.
// (Client is written in several files, one per part of the engine; see harp-client.cc for
// the list.)
#include "harp-client.h"

namespace harp
{

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

} // namespace harp
