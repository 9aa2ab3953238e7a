/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-simulator-driver.h"

#include "st-name-table.h"
#include "st-protocol.h"

#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StSimulatorDriver");

namespace
{
bool g_blockingAllowed = false; //!< SetBlockingAllowed
bool g_inBlockingRun = false;   //!< some driver is inside its nested Simulator::Run
StSimulatorDriver::WaitFailureHandler g_waitFailure; //!< SetWaitFailureHandler
} // namespace

StSimulatorDriver::StSimulatorDriver(StProtocol* protocol)
    : m_protocol(protocol),
      m_waiting(false),
      m_progress(false)
{
}

StSimulatorDriver::~StSimulatorDriver()
{
    Simulator::Cancel(m_deadline);
}

void
StSimulatorDriver::SetBlockingAllowed(bool allowed)
{
    g_blockingAllowed = allowed;
}

bool
StSimulatorDriver::IsBlockingAllowed()
{
    return g_blockingAllowed;
}

void
StSimulatorDriver::SetWaitFailureHandler(WaitFailureHandler handler)
{
    g_waitFailure = std::move(handler);
}

void
StSimulatorDriver::Fail(const std::string& message)
{
    if (g_waitFailure)
    {
        g_waitFailure(message);
    }
    NS_FATAL_ERROR(message);
}

uint64_t
StSimulatorDriver::Now()
{
    return static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
}

void
StSimulatorDriver::Send(const st::StTransmit& t)
{
    m_protocol->SendOnWire(t);
}

void
StSimulatorDriver::NotifyProgress()
{
    if (m_waiting && !m_progress)
    {
        m_progress = true;
        Simulator::Stop(); // after the current event
    }
}

void
StSimulatorDriver::DeadlineReached()
{
    Simulator::Stop();
}

bool
StSimulatorDriver::Wait(uint64_t deadlineNs, st::StPeerAddress&, std::vector<uint8_t>&)
{
    const uint64_t now = Now();
    if (deadlineNs <= now)
    {
        return false; // a look without waiting: frames were already fed to the engine
    }
    if (!g_blockingAllowed || g_inBlockingRun)
    {
        Fail("a blocking ST Bypass routine would have to wait inside a simulation event; use "
             "the event-driven equivalent (StBypassApi: Connect, Accept, Rx, Flush, Close, "
             "Delete), or call StSimulatorDriver::SetBlockingAllowed(true) and call the "
             "routine outside Simulator::Run");
    }
    m_waiting = true;
    m_progress = false;
    g_inBlockingRun = true;
    if (deadlineNs != st::ST_NEVER)
    {
        m_deadline = Simulator::Schedule(NanoSeconds(deadlineNs - now),
                                         &StSimulatorDriver::DeadlineReached,
                                         this);
    }
    Simulator::Run();
    Simulator::Cancel(m_deadline);
    g_inBlockingRun = false;
    m_waiting = false;
    // Without a deadline only progress ends the run; anything else means that no event is
    // left (or the user's stop time came): the routine could never return.
    if (!m_progress && deadlineNs == st::ST_NEVER)
    {
        Fail("a blocking ST Bypass routine waits for ever: the simulation ran out of events "
             "(or was stopped) before the routine could return");
    }
    return false;
}

bool
StSimulatorDriver::ParseIpv4(const char* text, uint32_t& out)
{
    if (text == nullptr)
    {
        return false;
    }
    unsigned a = 0;
    unsigned b = 0;
    unsigned c = 0;
    unsigned d = 0;
    char tail = 0;
    if (std::sscanf(text, "%3u.%3u.%3u.%3u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 ||
        c > 255 || d > 255)
    {
        return false;
    }
    out = (a << 24) | (b << 16) | (c << 8) | d;
    return true;
}

bool
StSimulatorDriver::HostAddress(const char* hostname, uint32_t& bits) const
{
    if (hostname == nullptr)
    {
        return false;
    }
    if (ParseIpv4(hostname, bits))
    {
        return true;
    }
    // No /etc/hosts in a simulation: the node's name table, then the global one.
    Ipv4Address a;
    if (!StNameTable::ResolveHost(m_protocol->GetNode(), hostname, a))
    {
        return false;
    }
    bits = a.Get();
    return true;
}

bool
StSimulatorDriver::Resolve(const char* hostname, st::StPeerAddress& out)
{
    uint32_t bits = 0;
    if (!HostAddress(hostname, bits))
    {
        return false;
    }
    return m_protocol->ResolvePeer(Ipv4Address(bits), out);
}

st::StResolveState
StSimulatorDriver::ResolveStart(const char* hostname, st::StPeerAddress& out)
{
    uint32_t bits = 0;
    if (!HostAddress(hostname, bits))
    {
        return st::StResolveState::Unknown;
    }
    return m_protocol->ResolvePeerStart(Ipv4Address(bits), out);
}

bool
StSimulatorDriver::ResolveService(const char* service, uint16_t& port)
{
    return service != nullptr && StNameTable::ResolveService(m_protocol->GetNode(), service, port);
}

} // namespace ns3
