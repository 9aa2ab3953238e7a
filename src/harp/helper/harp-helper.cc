/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "harp-helper.h"

#include "ns3/abort.h"
#include "ns3/gsn-net-device.h"
#include "ns3/harp-lis-channel.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/st-protocol.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HarpHelper");

HarpHelper::HarpHelper()
{
    m_factory.SetTypeId("ns3::HarpProtocol");
}

void
HarpHelper::SetAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
HarpHelper::AddServer(Ptr<NetDevice> device)
{
    NS_ABORT_MSG_UNLESS(DynamicCast<GsnNetDevice>(device),
                        "HarpHelper: a server must be a GSN device");
    if (std::find(m_serverDevices.begin(), m_serverDevices.end(), device) == m_serverDevices.end())
    {
        m_serverDevices.push_back(device);
    }
}

void
HarpHelper::AddServer(Ipv4Address network, Ipv4Mask mask, Mac48Address ula)
{
    m_extraServers.push_back({network.CombineMask(mask), mask, ula});
}

void
HarpHelper::AddStatic(Ipv4Address ip, Mac48Address ula)
{
    m_statics.push_back({ip, ula});
}

void
HarpHelper::SetOptions(const std::string& text)
{
    m_options = text;
}

void
HarpHelper::SetOptions(Ptr<NetDevice> device, const std::string& text)
{
    m_deviceOptions[device] = text;
}

std::string
HarpHelper::ReadOptionsFile(const std::string& path)
{
    std::ifstream in(path);
    NS_ABORT_MSG_UNLESS(in, "HarpHelper: cannot read " << path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<HarpHelper::LisServer>
HarpHelper::CollectServers() const
{
    std::vector<LisServer> servers;
    for (const Ptr<NetDevice>& device : m_serverDevices)
    {
        Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
        NS_ABORT_MSG_UNLESS(ipv4, "HarpHelper: a server's node has no IPv4");
        const int32_t index = ipv4->GetInterfaceForDevice(device);
        NS_ABORT_MSG_UNLESS(index >= 0, "HarpHelper: a server device has no IPv4 interface");
        for (uint32_t a = 0; a < ipv4->GetNAddresses(uint32_t(index)); ++a)
        {
            const Ipv4InterfaceAddress address = ipv4->GetAddress(uint32_t(index), a);
            servers.push_back({address.GetLocal().CombineMask(address.GetMask()),
                               address.GetMask(),
                               Mac48Address::ConvertFrom(device->GetAddress())});
        }
    }
    servers.insert(servers.end(), m_extraServers.begin(), m_extraServers.end());
    return servers;
}

Ptr<HarpProtocol>
HarpHelper::GetOrCreateProtocol(Ptr<Node> node) const
{
    Ptr<HarpProtocol> protocol = node->GetObject<HarpProtocol>();
    if (!protocol)
    {
        protocol = m_factory.Create<HarpProtocol>();
        node->AggregateObject(protocol);
    }
    return protocol;
}

Ptr<HarpInterface>
HarpHelper::InstallOne(Ptr<NetDevice> device, const std::vector<LisServer>& servers) const
{
    Ptr<GsnNetDevice> gsn = DynamicCast<GsnNetDevice>(device);
    NS_ABORT_MSG_UNLESS(gsn, "HarpHelper: HARP runs on GSN devices only");
    Ptr<Node> node = device->GetNode();
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    NS_ABORT_MSG_UNLESS(ipv4, "HarpHelper: install the internet stack first");
    const int32_t index = ipv4->GetInterfaceForDevice(device);
    NS_ABORT_MSG_UNLESS(index >= 0 && ipv4->GetNAddresses(uint32_t(index)) > 0,
                        "HarpHelper: assign an IPv4 address to the device first");
    const Ipv4InterfaceAddress primary = ipv4->GetAddress(uint32_t(index), 0);
    const Ipv4Address lis = primary.GetLocal().CombineMask(primary.GetMask());

    HarpInterfaceConfig config;
    for (const LisServer& server : servers)
    {
        if (server.network == lis && server.mask == primary.GetMask() &&
            std::find(config.servers.begin(), config.servers.end(), server.ula) ==
                config.servers.end())
        {
            config.servers.push_back(server.ula);
        }
    }
    config.statics = m_statics;
    config.server =
        std::find(m_serverDevices.begin(), m_serverDevices.end(), device) != m_serverDevices.end();
    config.options = m_options;
    const auto own = m_deviceOptions.find(device);
    if (own != m_deviceOptions.end())
    {
        config.options += "\n" + own->second;
    }
    Ptr<HarpInterface> installed = GetOrCreateProtocol(node)->AddInterface(gsn, config);
    // For ns-3's routing the LIS is the link: the interface reports its LIS as its channel.
    HarpLisChannel::Get(lis, primary.GetMask())->Attach(gsn);
    return installed;
}

HarpInterfaceContainer
HarpHelper::Install(const NetDeviceContainer& devices) const
{
    const std::vector<LisServer> servers = CollectServers();
    HarpInterfaceContainer installed;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        installed.Add(InstallOne(*it, servers));
    }
    return installed;
}

HarpInterfaceContainer
HarpHelper::Install(Ptr<Node> node) const
{
    NetDeviceContainer devices;
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = node->GetDevice(i);
        if (DynamicCast<GsnNetDevice>(device) && ipv4 && ipv4->GetInterfaceForDevice(device) >= 0)
        {
            devices.Add(device);
        }
    }
    return Install(devices);
}

HarpInterfaceContainer
HarpHelper::Install(const NodeContainer& nodes) const
{
    HarpInterfaceContainer installed;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        installed.Add(Install(*it));
    }
    return installed;
}

void
HarpHelper::PrintTables(const NodeContainer& nodes, std::ostream& os)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<HarpProtocol> protocol = (*it)->GetObject<HarpProtocol>();
        if (!protocol)
        {
            continue;
        }
        os << "Node " << (*it)->GetId() << ":\n";
        for (uint32_t i = 0; i < protocol->GetNInterfaces(); ++i)
        {
            protocol->GetInterface(i)->Print(os);
        }
    }
}

void
HarpHelper::ResolveStPeers(const NodeContainer& nodes)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<Node> node = *it;
        Ptr<StProtocol> st = node->GetObject<StProtocol>();
        Ptr<HarpProtocol> harp = node->GetObject<HarpProtocol>();
        NS_ABORT_MSG_UNLESS(st && harp,
                            "HarpHelper::ResolveStPeers: node " << node->GetId() << " runs "
                                                                << (st ? "no HARP" : "no ST")
                                                                << " (install both first)");
        st->SetAsyncResolver(StProtocol::AsyncResolver(
            [harp](Ptr<NetDevice> device, Ipv4Address ip, StProtocol::ResolveDone done) {
                harp->ResolveAsync(
                    device,
                    ip,
                    HarpInterface::ResolveCallback(
                        [done](Ipv4Address, bool ok, Mac48Address ula) { done(ok, ula); }));
            }));
    }
}

} // namespace ns3
