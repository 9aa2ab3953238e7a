/*
 * st-host-driver.cc: the Linux StDriver (see st-host-driver.h).
 */
#include "st-host-driver.h"

#include <algorithm>
#include <ctime>
#include <netdb.h>
#include <netinet/in.h>

namespace ns3
{
namespace st
{

StHostDriver::StHostDriver(StPacketSocket& socket, StNeighbourTable& neighbours)
    : m_socket(socket),
      m_neighbours(neighbours)
{
}

int
StHostDriver::Open(std::string& error)
{
    const int e = m_loop.Open(error);
    if (e != 0)
    {
        return e;
    }
    // Readiness only: Wait takes the frames itself.
    m_loop.Add(m_socket.GetFd(), [](uint32_t) {});
    return 0;
}

uint64_t
StHostDriver::Now()
{
    return StEventLoop::Now();
}

void
StHostDriver::Send(const StTransmit& t)
{
    if (m_transmitHook)
    {
        StTransmit copy = t;
        if (m_transmitHook(copy))
        {
            m_socket.Send(StEthernetFrame::FromPeer(copy.peer),
                          copy.bytes.data(),
                          copy.bytes.size());
        }
        return;
    }
    m_socket.Send(StEthernetFrame::FromPeer(t.peer), t.bytes.data(), t.bytes.size());
}

bool
StHostDriver::Wait(uint64_t deadlineNs, StPeerAddress& from, std::vector<uint8_t>& bytes)
{
    StMac mac{};
    uint64_t wake = deadlineNs;
    if (!m_asking.empty())
    {
        // st_connect is waiting for the kernel's ARP: return soon so that it looks again.
        wake = std::min(wake, Now() + RESOLVE_POLL_NS);
    }
    for (;;)
    {
        if (m_socket.Receive(mac, bytes))
        {
            from = StEthernetFrame::ToPeer(mac);
            return true;
        }
        const uint64_t now = Now();
        if (now >= wake)
        {
            return false;
        }
        m_loop.RunOnce(wake);
        if (m_idleHook)
        {
            m_idleHook();
        }
    }
}

StResolveState
StHostDriver::ResolveStart(const char* hostname, StPeerAddress& out)
{
    if (hostname == nullptr)
    {
        return StResolveState::Unknown;
    }
    StMac mac{};
    if (StEthernetFrame::ParseMac(hostname, mac))
    {
        out = StEthernetFrame::ToPeer(mac);
        return StResolveState::Resolved;
    }
    uint32_t ip = 0;
    if (!StNeighbourTable::ParseHost(hostname, ip))
    {
        return StResolveState::Unknown;
    }
    const std::string key = hostname;
    if (m_neighbours.Lookup(ip, mac))
    {
        m_asking.erase(key);
        out = StEthernetFrame::ToPeer(mac);
        return StResolveState::Resolved;
    }
    const uint64_t now = Now();
    auto it = m_asking.find(key);
    if (it == m_asking.end())
    {
        m_asking[key] = now;
        m_neighbours.Solicit(ip);
        return StResolveState::InProgress;
    }
    if (now - it->second >= m_resolveTimeoutNs)
    {
        m_asking.erase(it);
        return StResolveState::Unknown;
    }
    return StResolveState::InProgress;
}

bool
StHostDriver::ResolveService(const char* service, uint16_t& port)
{
    if (service == nullptr)
    {
        return false;
    }
    // IRIX took ST ports from the IP port space [C] IRIX-impl: a service's "st" entry first,
    // else its entry for any protocol.
    const servent* s = getservbyname(service, "st");
    if (s == nullptr)
    {
        s = getservbyname(service, nullptr);
    }
    if (s == nullptr)
    {
        return false;
    }
    port = ntohs(static_cast<uint16_t>(s->s_port));
    return port != 0;
}

bool
StHostDriver::Resolve(const char* hostname, StPeerAddress& out)
{
    for (;;)
    {
        switch (ResolveStart(hostname, out))
        {
        case StResolveState::Resolved:
            return true;
        case StResolveState::Unknown:
            return false;
        case StResolveState::InProgress:
            break;
        }
        const timespec pause{0, static_cast<long>(RESOLVE_POLL_NS)};
        nanosleep(&pause, nullptr);
    }
}

} // namespace st
} // namespace ns3
