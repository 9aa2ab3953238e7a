/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// harp-interface-calls.cc: the calls of HarpInterface's users: resolution (IPv4 through the
// ARP cache, ST and users directly; asynchronous callers answered from
// harp-interface-engine.cc), static entries added and removed, the engines stopped and
// started.
// (HarpInterface is written in several files, one per part of the adapter; see
// harp-interface.cc for the list.)
#include "harp-address-conversion.h"
#include "harp-interface-private.h"

#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

HARP_INTERFACE_LOG();

// ---------------------------------------------------------------------------------------
// Resolution interface (IPv4 through the ARP cache, ST and users directly)

std::optional<Mac48Address>
HarpInterface::Resolve(Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << ip);
    if (!m_client)
    {
        return std::nullopt;
    }
    const std::optional<harp::Ula> hit = m_client->Resolve(Now(), ToHarpIpv4(ip));
    Drain();
    if (!hit)
    {
        return std::nullopt;
    }
    return FromHarpUla(*hit);
}

void
HarpInterface::ResolveAsync(Ipv4Address ip, ResolveCallback callback)
{
    NS_LOG_FUNCTION(this << ip);
    // Registered first: the resolution may fail at once (outside the LIS).
    m_waiting[ip].push_back(callback);
    if (!m_client)
    {
        FinishWaiting(ip, false, Mac48Address());
        return;
    }
    const std::optional<Mac48Address> hit = Resolve(ip);
    if (hit)
    {
        FinishWaiting(ip, true, *hit);
    }
}

std::optional<Mac48Address>
HarpInterface::Lookup(Ipv4Address ip) const
{
    if (!m_client)
    {
        return std::nullopt;
    }
    const std::optional<harp::Ula> ula = m_client->Lookup(ToHarpIpv4(ip));
    if (!ula)
    {
        return std::nullopt;
    }
    return FromHarpUla(*ula);
}

bool
HarpInterface::AddStatic(Ipv4Address ip, Mac48Address ula)
{
    NS_LOG_FUNCTION(this << ip << ula);
    bool taken = false;
    if (m_client)
    {
        taken = m_client->AddStatic(ToHarpIpv4(ip), ToHarpUla(ula)) || taken;
    }
    if (m_server)
    {
        taken = m_server->AddStatic(ToHarpIpv4(ip), ToHarpUla(ula)) || taken;
    }
    if (taken && m_client && m_client->Lookup(ToHarpIpv4(ip)))
    {
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, ula);
    }
    Drain();
    return taken;
}

bool
HarpInterface::RemoveStatic(Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << ip);
    bool removed = false;
    if (m_client)
    {
        removed = m_client->RemoveStatic(ToHarpIpv4(ip)) || removed;
    }
    if (m_server)
    {
        removed = m_server->RemoveStatic(ToHarpIpv4(ip)) || removed;
    }
    if (removed)
    {
        ForgetArpEntry(ip);
    }
    Drain();
    return removed;
}

// ---------------------------------------------------------------------------------------
// Engines starting and stopping

void
HarpInterface::StopServer()
{
    NS_LOG_FUNCTION(this);
    m_server.reset();
    RearmTimer();
}

void
HarpInterface::StartServer()
{
    NS_LOG_FUNCTION(this);
    if (!m_serverConfig || m_server)
    {
        return;
    }
    m_server = std::make_unique<harp::Server>(*m_serverConfig);
    Drain();
}

void
HarpInterface::StopClient()
{
    NS_LOG_FUNCTION(this);
    if (!m_client)
    {
        return;
    }
    m_client.reset();
    UpdateBroadcastEmulation();
    if (m_lastPhase != harp::Phase::Idle)
    {
        m_phaseTrace(m_lastPhase, harp::Phase::Idle);
        m_lastPhase = harp::Phase::Idle;
    }
    // Nobody will answer the callers any more.
    std::vector<Ipv4Address> waiting;
    for (const auto& entry : m_waiting)
    {
        waiting.push_back(entry.first);
    }
    for (Ipv4Address ip : waiting)
    {
        FinishWaiting(ip, false, Mac48Address());
    }
    RearmTimer();
}

void
HarpInterface::StartClient()
{
    NS_LOG_FUNCTION(this);
    if (m_client)
    {
        return;
    }
    m_client = std::make_unique<harp::Client>(m_clientConfig);
    Start();
}

} // namespace ns3
