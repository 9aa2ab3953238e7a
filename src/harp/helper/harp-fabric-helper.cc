/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "harp-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-deadlock-checker.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-switch-port.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HarpFabricHelper");

HarpFabricHelper::HarpFabricHelper()
    : m_routing("Auto"),
      m_deadlockCheck(true)
{
}

void
HarpFabricHelper::AddHost(const std::vector<std::string>& endpoints)
{
    m_hosts.push_back(endpoints);
}

void
HarpFabricHelper::SetRoutingAlgorithm(const std::string& name)
{
    m_routing = name;
    GsnFabricHelper::SetRoutingAlgorithm(name);
}

void
HarpFabricHelper::SetDeadlockCheck(bool check)
{
    m_deadlockCheck = check;
    GsnFabricHelper::SetDeadlockCheck(check);
}

NodeContainer
HarpFabricHelper::GetHosts(const GsnFabric& fabric)
{
    NodeContainer hosts;
    std::vector<Ptr<Node>> seen;
    for (auto it = fabric.endpoints.Begin(); it != fabric.endpoints.End(); ++it)
    {
        if (std::find(seen.begin(), seen.end(), *it) == seen.end())
        {
            seen.push_back(*it);
            hosts.Add(*it);
        }
    }
    return hosts;
}

GsnFabric
HarpFabricHelper::Install(const GsnTopology& topology)
{
    const uint32_t n = topology.GetNElements();
    // Which host each grouped endpoint belongs to.
    std::vector<int32_t> hostOf(n, -1);
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        for (const std::string& name : m_hosts[h])
        {
            const std::optional<uint32_t> id = topology.FindElement(name);
            NS_ABORT_MSG_UNLESS(id && topology.IsEndpoint(*id),
                                "HarpFabricHelper: no endpoint named \"" << name << "\"");
            NS_ABORT_MSG_UNLESS(hostOf[*id] < 0,
                                "HarpFabricHelper: endpoint \"" << name << "\" is in two hosts");
            hostOf[*id] = int32_t(h);
        }
    }

    // The topology without the grouped endpoints: GsnFabricHelper builds that part.
    GsnTopology reduced;
    std::vector<uint32_t> reducedId(n, UINT32_MAX);
    for (uint32_t id = 0; id < n; ++id)
    {
        const GsnTopology::Element& e = topology.GetElement(id);
        if (topology.IsEndpoint(id))
        {
            if (hostOf[id] < 0)
            {
                reducedId[id] = reduced.AddEndpoint(e.name);
            }
        }
        else
        {
            reducedId[id] = reduced.AddSwitch(e.numPorts, e.name, e.coords);
        }
    }
    std::vector<GsnTopology::Cable> deferred;
    for (const GsnTopology::Cable& c : topology.GetCables())
    {
        if (hostOf[c.a] < 0 && hostOf[c.b] < 0)
        {
            reduced.Connect(reducedId[c.a],
                            c.aPort,
                            reducedId[c.b],
                            c.bPort,
                            c.lengthGiven ? std::optional<double>(c.lengthMeters) : std::nullopt);
        }
        else
        {
            deferred.push_back(c);
        }
    }
    // (Its routes would be the reduced topology's: the whole topology's come below.)
    const GsnFabric part = InstallOrThrow(reduced, false);

    // The hosts and their devices.
    std::vector<Ptr<Node>> hostNodes;
    for (std::size_t h = 0; h < m_hosts.size(); ++h)
    {
        hostNodes.push_back(CreateObject<Node>());
    }
    std::vector<Ptr<GsnNetDevice>> groupedDevice(n);
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        for (const std::string& name : m_hosts[h])
        {
            Ptr<GsnNetDevice> device = m_deviceFactory.Create<GsnNetDevice>();
            device->SetAddress(Mac48Address::Allocate());
            hostNodes[h]->AddDevice(device);
            groupedDevice[*topology.FindElement(name)] = device;
        }
    }

    // The whole fabric, in the topology's order.
    GsnFabric full;
    full.topology = topology;
    full.switchPorts = part.switchPorts;
    std::vector<int32_t> switchIndex(n, -1);
    uint32_t keptEndpoint = 0;
    for (uint32_t id = 0; id < n; ++id)
    {
        if (topology.IsEndpoint(id))
        {
            if (hostOf[id] < 0)
            {
                full.endpoints.Add(part.endpoints.Get(keptEndpoint));
                full.endpointDevices.Add(part.endpointDevices.Get(keptEndpoint));
                ++keptEndpoint;
            }
            else
            {
                full.endpoints.Add(hostNodes[hostOf[id]]);
                full.endpointDevices.Add(groupedDevice[id]);
            }
            full.endpointAddresses.push_back(Mac48Address::ConvertFrom(
                full.endpointDevices.Get(full.endpointDevices.GetN() - 1)->GetAddress()));
            full.endpointElements.push_back(id);
        }
        else
        {
            const uint32_t s = uint32_t(full.switchObjects.size());
            switchIndex[id] = int32_t(s);
            full.switches.Add(part.switches.Get(s));
            full.switchObjects.push_back(part.switchObjects[s]);
            full.switchElements.push_back(id);
        }
    }

    // Cables to the grouped endpoints.
    auto portOf = [&](uint32_t id, uint32_t port) -> Ptr<GsnPortDevice> {
        if (switchIndex[id] >= 0)
        {
            return full.switchObjects[switchIndex[id]]->GetPort(port);
        }
        const auto pos = std::find(full.endpointElements.begin(), full.endpointElements.end(), id);
        return full.GetEndpointDevice(uint32_t(pos - full.endpointElements.begin()));
    };
    auto noteNeighbour = [&](uint32_t id, uint32_t port, uint32_t peer) {
        if (switchIndex[id] < 0)
        {
            return;
        }
        Ptr<GsnSwitch> sw = full.switchObjects[switchIndex[id]];
        sw->SetNeighborType(port,
                            topology.IsEndpoint(peer) ? GsnElementType::ENDPOINT
                                                      : GsnElementType::SWITCH);
        if (topology.IsEndpoint(peer))
        {
            sw->SetPortInBroadcastTree(port, true);
        }
    };
    for (const GsnTopology::Cable& c : deferred)
    {
        Ptr<GsnChannel> channel = CreateCable(c);
        portOf(c.a, c.aPort)->Attach(channel);
        portOf(c.b, c.bPort)->Attach(channel);
        noteNeighbour(c.a, c.aPort, c.b);
        noteNeighbour(c.b, c.bPort, c.a);
    }

    // The manager's tables over the whole topology.
    try
    {
        ComputeTables(full, m_routing, m_deadlockCheck);
    }
    catch (const std::exception& e)
    {
        NS_FATAL_ERROR("HarpFabricHelper: routing " << m_routing << ": " << e.what());
    }
    InstallTables(full, full.tables);
    NoteFabricBroadcast(full);
    return full;
}

} // namespace ns3
