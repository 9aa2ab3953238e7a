/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-remote-port.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnRemotePort");

NS_OBJECT_ENSURE_REGISTERED(GsnRemotePort);

TypeId
GsnRemotePort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GsnRemotePort")
                            .SetParent<NetDevice>()
                            .SetGroupName("Gsn")
                            .AddConstructor<GsnRemotePort>();
    return tid;
}

GsnRemotePort::GsnRemotePort()
    : m_ifIndex(0),
      m_endpoint(false)
{
}

void
GsnRemotePort::Name(Ptr<Node> node, uint32_t ifIndex, Mac48Address address, bool endpoint)
{
    m_node = node;
    m_ifIndex = ifIndex;
    m_address = address;
    m_endpoint = endpoint;
}

bool
GsnRemotePort::IsEndpoint() const
{
    return m_endpoint;
}

void
GsnRemotePort::SetChannel(Ptr<Channel> channel)
{
    m_channel = channel;
}

void
GsnRemotePort::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    NetDevice::DoDispose();
}

void
GsnRemotePort::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
GsnRemotePort::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
GsnRemotePort::GetChannel() const
{
    return m_channel;
}

void
GsnRemotePort::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
GsnRemotePort::GetAddress() const
{
    return m_address;
}

bool
GsnRemotePort::SetMtu(const uint16_t)
{
    return false;
}

uint16_t
GsnRemotePort::GetMtu() const
{
    return 0;
}

bool
GsnRemotePort::IsLinkUp() const
{
    return false; // (not known on this rank)
}

void
GsnRemotePort::AddLinkChangeCallback(Callback<void>)
{
}

bool
GsnRemotePort::IsBroadcast() const
{
    return false;
}

Address
GsnRemotePort::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
GsnRemotePort::IsMulticast() const
{
    return false;
}

Address
GsnRemotePort::GetMulticast(Ipv4Address) const
{
    return Mac48Address::GetBroadcast();
}

Address
GsnRemotePort::GetMulticast(Ipv6Address) const
{
    return Mac48Address::GetBroadcast();
}

bool
GsnRemotePort::IsBridge() const
{
    return false;
}

bool
GsnRemotePort::IsPointToPoint() const
{
    return true;
}

bool
GsnRemotePort::Send(Ptr<Packet>, const Address&, uint16_t)
{
    NS_FATAL_ERROR("GsnRemotePort: port "
                   << m_ifIndex << " of node " << (m_node ? m_node->GetId() : 0)
                   << " is simulated by MPI rank " << (m_node ? m_node->GetSystemId() : 0)
                   << "; send from that rank (GsnFabric::IsLocalEndpoint)");
    return false;
}

bool
GsnRemotePort::SendFrom(Ptr<Packet> packet, const Address&, const Address& dest, uint16_t protocol)
{
    return Send(packet, dest, protocol);
}

Ptr<Node>
GsnRemotePort::GetNode() const
{
    return m_node;
}

void
GsnRemotePort::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
GsnRemotePort::NeedsArp() const
{
    return false;
}

void
GsnRemotePort::SetReceiveCallback(NetDevice::ReceiveCallback)
{
}

void
GsnRemotePort::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback)
{
}

bool
GsnRemotePort::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
