/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-switch-port.h"

#include "gsn-switch.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnSwitchPort");

NS_OBJECT_ENSURE_REGISTERED(GsnSwitchPort);

TypeId
GsnSwitchPort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GsnSwitchPort")
                            .SetParent<GsnPortDevice>()
                            .SetGroupName("Gsn")
                            .AddConstructor<GsnSwitchPort>();
    return tid;
}

GsnSwitchPort::GsnSwitchPort()
    : m_index(0)
{
}

GsnSwitchPort::~GsnSwitchPort()
{
}

void
GsnSwitchPort::DoDispose()
{
    m_switch = nullptr;
    GsnPortDevice::DoDispose();
}

void
GsnSwitchPort::SetSwitch(Ptr<GsnSwitch> sw, uint32_t index)
{
    m_switch = sw;
    m_index = index;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        SetMessageVcHint(vc, false); // no output VC is held yet
    }
}

bool
GsnSwitchPort::HasMessageMicropacket(uint8_t vc) const
{
    return m_switch && m_switch->HasMicropacketFor(m_index, vc);
}

Time
GsnSwitchPort::NextMessageMicropacketTime(uint8_t vc) const
{
    return m_switch ? m_switch->NextReadyFor(m_index, vc) : Time::Max();
}

void
GsnSwitchPort::PullMessageMicropacket(uint8_t vc, GsnMicropacket& mp)
{
    m_switch->PullMicropacketFor(m_index, vc, mp);
}

bool
GsnSwitchPort::TakeMessageMicropacket(uint8_t vc, GsnMicropacket& mp)
{
    return m_switch && m_switch->TakeMicropacketFor(m_index, vc, mp);
}

uint32_t
GsnSwitchPort::TakeFollowingMessageMicropackets(uint8_t vc,
                                                uint32_t max,
                                                const Time& slot,
                                                uint32_t stride,
                                                GsnMicropacket& first)
{
    return m_switch ? m_switch->TakeFollowingFor(m_index, vc, max, slot, stride, first) : 0;
}

uint32_t
GsnSwitchPort::TakeWovenMessageMicropackets(const uint8_t* vcs,
                                            uint32_t s,
                                            uint32_t maxRounds,
                                            const Time& slot,
                                            GsnMicropacket* firsts)
{
    return m_switch ? m_switch->TakeWovenFor(m_index, vcs, s, maxRounds, slot, firsts) : 0;
}

void
GsnSwitchPort::ReceiveMessageMicropacket(GsnMicropacket&& mp)
{
    m_switch->ReceiveMicropacket(m_index, std::move(mp));
}

bool
GsnSwitchPort::TakesMessageSpan(uint8_t vc) const
{
    return m_switch && m_switch->BuffersOnly(m_index, vc);
}

void
GsnSwitchPort::ReceiveMessageSpan(GsnMicropacket&& first, uint32_t n, uint32_t stride)
{
    m_switch->ReceiveMicropacketSpan(m_index, std::move(first), n, stride);
}

void
GsnSwitchPort::ReceiveAdminMicropacket(const GsnMicropacket& mp)
{
    m_switch->ReceiveAdmin(m_index, mp);
}

void
GsnSwitchPort::NotifyLinkReset()
{
    if (m_switch)
    {
        m_switch->NotifyPortReset(m_index);
    }
}

bool
GsnSwitchPort::IsBroadcast() const
{
    return false;
}

Address
GsnSwitchPort::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
GsnSwitchPort::IsMulticast() const
{
    return false;
}

Address
GsnSwitchPort::GetMulticast(Ipv4Address) const
{
    return Mac48Address::GetBroadcast();
}

Address
GsnSwitchPort::GetMulticast(Ipv6Address) const
{
    return Mac48Address::GetBroadcast();
}

bool
GsnSwitchPort::Send(Ptr<Packet>, const Address&, uint16_t)
{
    NS_LOG_WARN("a GSN switch port does not originate packets");
    return false;
}

bool
GsnSwitchPort::SendFrom(Ptr<Packet>, const Address&, const Address&, uint16_t)
{
    NS_LOG_WARN("a GSN switch port does not originate packets");
    return false;
}

bool
GsnSwitchPort::NeedsArp() const
{
    return false;
}

void
GsnSwitchPort::SetReceiveCallback(NetDevice::ReceiveCallback)
{
}

void
GsnSwitchPort::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback)
{
}

bool
GsnSwitchPort::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
