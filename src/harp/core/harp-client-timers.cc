// harp-client-timers.cc: what happens when a deadline of the client passes: the broadcast
// self-test probed again or concluded, registrations retried and renewed, a server that does
// not answer asked again then marked dead (registration again when none is left), resolutions
// retried or failed, cache entries expired (revalidated or removed).
// (Client is written in several files, one per part of the engine; see harp-client.cc for
// the list.)
#include "harp-client.h"

namespace harp
{

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

} // namespace harp
