// harp-client-phases.cc: the client's phases and its servers: the fabric's kind set (which
// chooses the next phase), phases entered, a live server picked for a request, registration
// with the servers (InARP requests) and periodic re-registration.
// (Client is written in several files, one per part of the engine; see harp-client.cc for
// the list.)
#include "harp-client.h"

#include <algorithm>

namespace harp
{

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
    return m_phase == Phase::Operational && m_broadcast == false &&
           std::any_of(m_servers.begin(), m_servers.end(), [](const ServerInfo& server) {
               return server.status == ServerStatus::Unknown;
           });
}

bool
Client::AnyServerAlive() const
{
    return std::any_of(m_servers.begin(), m_servers.end(), [](const ServerInfo& server) {
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

} // namespace harp
