/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "harp-lis-channel.h"

#include "ns3/abort.h"
#include "ns3/gsn-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HarpLisChannel");

NS_OBJECT_ENSURE_REGISTERED(HarpLisChannel);

namespace
{
/// The LIS channels of the current simulation, by network and mask.
std::map<std::pair<uint32_t, uint32_t>, Ptr<HarpLisChannel>> g_lisChannels;

void
ForgetLisChannels()
{
    g_lisChannels.clear();
}
} // namespace

TypeId
HarpLisChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HarpLisChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Harp")
                            .AddConstructor<HarpLisChannel>();
    return tid;
}

HarpLisChannel::HarpLisChannel()
{
    NS_LOG_FUNCTION(this);
}

Ptr<HarpLisChannel>
HarpLisChannel::Get(Ipv4Address network, Ipv4Mask mask)
{
    const std::pair<uint32_t, uint32_t> key(network.CombineMask(mask).Get(), mask.Get());
    auto it = g_lisChannels.find(key);
    if (it != g_lisChannels.end())
    {
        return it->second;
    }
    if (g_lisChannels.empty())
    {
        // The registry lives as long as the simulation's nodes and channels do.
        Simulator::ScheduleDestroy(&ForgetLisChannels);
    }
    Ptr<HarpLisChannel> channel = CreateObject<HarpLisChannel>();
    channel->m_network = network.CombineMask(mask);
    channel->m_mask = mask;
    g_lisChannels[key] = channel;
    return channel;
}

void
HarpLisChannel::Attach(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    Ptr<GsnNetDevice> gsn = DynamicCast<GsnNetDevice>(device);
    NS_ABORT_MSG_UNLESS(gsn, "HarpLisChannel: only GSN interfaces join a LIS channel");
    if (std::find(m_devices.begin(), m_devices.end(), device) == m_devices.end())
    {
        m_devices.push_back(device);
    }
    gsn->SetLogicalChannel(this);
}

Ipv4Address
HarpLisChannel::GetNetwork() const
{
    return m_network;
}

Ipv4Mask
HarpLisChannel::GetMask() const
{
    return m_mask;
}

std::size_t
HarpLisChannel::GetNDevices() const
{
    return m_devices.size();
}

Ptr<NetDevice>
HarpLisChannel::GetDevice(std::size_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_devices.size(),
                        "HarpLisChannel::GetDevice: index " << i << " of " << m_devices.size());
    return m_devices[i];
}

void
HarpLisChannel::DoDispose()
{
    m_devices.clear();
    Channel::DoDispose();
}

} // namespace ns3
