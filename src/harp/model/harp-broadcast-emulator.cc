/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "harp-broadcast-emulator.h"

#include "harp-address-conversion.h"

#include "ns3/gsn-net-device.h"
#include "ns3/harp-server.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"

#include <iterator>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HarpBroadcastEmulator");

namespace
{
constexpr uint16_t IPV4_ETHERTYPE = 0x0800; ///< what the emulation carries: IPv4
constexpr uint16_t IPV6_ETHERTYPE = 0x86DD; ///< and IPv6
constexpr uint16_t ETHERTYPES[] = {IPV4_ETHERTYPE, IPV6_ETHERTYPE}; ///< both
} // namespace

HarpBroadcastEmulator::HarpBroadcastEmulator(Ptr<Node> node,
                                             Ptr<GsnNetDevice> device,
                                             ServerGetter server)
    : m_node(node),
      m_device(device),
      m_server(std::move(server))
{
}

HarpBroadcastEmulator::~HarpBroadcastEmulator()
{
    Stop();
}

void
HarpBroadcastEmulator::Start(Mac48Address emulationServer)
{
    NS_LOG_FUNCTION(this << emulationServer);
    Stop();
    m_emulation = emulationServer;
    m_active = true;
    for (uint16_t type : ETHERTYPES)
    {
        m_device->SetSendInterceptor(type, MakeCallback(&HarpBroadcastEmulator::Send, this));
        if (IsServer())
        {
            m_node->RegisterProtocolHandler(MakeCallback(&HarpBroadcastEmulator::Receive, this),
                                            type,
                                            m_device);
            m_handlerRegistered = true;
        }
    }
}

void
HarpBroadcastEmulator::Stop()
{
    if (!m_active)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_active = false;
    for (uint16_t type : ETHERTYPES)
    {
        m_device->SetSendInterceptor(type, GsnNetDevice::SendInterceptor());
    }
    if (m_handlerRegistered)
    {
        // ns-3 removes one registration per call: one per EtherType.
        for (std::size_t i = 0; i < std::size(ETHERTYPES); ++i)
        {
            m_node->UnregisterProtocolHandler(MakeCallback(&HarpBroadcastEmulator::Receive, this));
        }
        m_handlerRegistered = false;
    }
}

bool
HarpBroadcastEmulator::IsActive() const
{
    return m_active;
}

bool
HarpBroadcastEmulator::IsServer() const
{
    return m_active && m_emulation == Mac48Address::ConvertFrom(m_device->GetAddress());
}

const HarpBroadcastCounters&
HarpBroadcastEmulator::GetCounters() const
{
    return m_counters;
}

bool
HarpBroadcastEmulator::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocol)
{
    const Mac48Address to = Mac48Address::ConvertFrom(dest);
    if (!to.IsGroup())
    {
        return m_device->SendToWire(packet, dest, protocol);
    }
    if (IsServer())
    {
        Replicate(packet, protocol, Mac48Address::ConvertFrom(m_device->GetAddress()));
        return true;
    }
    ++m_counters.sentToServer;
    NS_LOG_LOGIC("IP group datagram to the emulation server " << m_emulation);
    return m_device->SendToWire(packet, m_emulation, protocol);
}

void
HarpBroadcastEmulator::Receive(Ptr<NetDevice>,
                               Ptr<const Packet> packet,
                               uint16_t protocol,
                               const Address& from,
                               const Address&,
                               NetDevice::PacketType type)
{
    // Only unicast frames carrying a group datagram are copied. A handler that is not
    // promiscuous gets no packet type from ns-3 (0); on a non-broadcast fabric what reaches
    // the device is then addressed to it.
    if (type != NetDevice::PACKET_HOST && type != NetDevice::PacketType(0))
    {
        return;
    }
    if (IsGroupDatagram(packet, protocol))
    {
        Replicate(packet, protocol, Mac48Address::ConvertFrom(from));
    }
}

bool
HarpBroadcastEmulator::IsGroupDatagram(Ptr<const Packet> datagram, uint16_t protocol) const
{
    if (protocol == IPV6_ETHERTYPE)
    {
        Ipv6Header ip6;
        return datagram->PeekHeader(ip6) != 0 && ip6.GetDestination().IsMulticast();
    }
    Ipv4Header ip;
    if (datagram->PeekHeader(ip) == 0)
    {
        return false;
    }
    const Ipv4Address to = ip.GetDestination();
    if (to.IsBroadcast() || to.IsMulticast())
    {
        return true;
    }
    const harp::Server* server = m_server();
    if (server)
    {
        for (const harp::ServedLis& lis : server->GetConfig().lis)
        {
            if (lis.subnet.IsDirectedBroadcast(ToHarpIpv4(to)))
            {
                return true;
            }
        }
    }
    return false;
}

void
HarpBroadcastEmulator::Replicate(Ptr<const Packet> datagram, uint16_t protocol, Mac48Address sender)
{
    const harp::Server* server = m_server();
    if (!server)
    {
        return;
    }
    // IPv4: the hosts of the source's LIS. IPv6: every registered host (no LIS).
    const harp::ServedLis* lis = nullptr;
    if (protocol == IPV4_ETHERTYPE)
    {
        Ipv4Header ip;
        if (datagram->PeekHeader(ip) == 0)
        {
            return;
        }
        const harp::Ipv4 source = ToHarpIpv4(ip.GetSource());
        for (const harp::ServedLis& served : server->GetConfig().lis)
        {
            if (served.subnet.Contains(source))
            {
                lis = &served;
                break;
            }
        }
        if (!lis)
        {
            ++m_counters.outsideServedLis;
            NS_LOG_LOGIC("group datagram from " << ip.GetSource() << ": in no LIS served here");
            return;
        }
    }
    ++m_counters.replicated;
    const Mac48Address self = Mac48Address::ConvertFrom(m_device->GetAddress());
    std::set<Mac48Address> hosts;
    for (const auto& [address, entry] : server->GetTable().GetEntries())
    {
        const Mac48Address ula = FromHarpUla(entry.ula);
        if ((!lis || lis->subnet.Contains(address)) && ula != sender && ula != self)
        {
            hosts.insert(ula);
        }
    }
    for (const Mac48Address& ula : hosts)
    {
        if (m_device->SendToWire(datagram->Copy(), ula, protocol))
        {
            ++m_counters.copiesSent;
        }
        else
        {
            ++m_counters.copiesRefused;
        }
    }
}

} // namespace ns3
