/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-deadlock-checker.h"
#include "ns3/gsn-mpi-helper.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-remote-port.h"
#include "ns3/gsn-switch-port.h"
#include "ns3/gsn-switch.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnFabricHelper");

Ptr<GsnNetDevice>
GsnFabric::GetEndpointDevice(uint32_t i) const
{
    return DynamicCast<GsnNetDevice>(endpointDevices.Get(i));
}

uint32_t
GsnFabric::GetEndpointIndex(const std::string& name) const
{
    for (uint32_t i = 0; i < endpointElements.size(); ++i)
    {
        if (topology.GetElement(endpointElements[i]).name == name)
        {
            return i;
        }
    }
    NS_ABORT_MSG("GsnFabric: no endpoint named \"" << name << "\"");
    return 0;
}

NetDeviceContainer
GsnFabric::GetAllPorts() const
{
    NetDeviceContainer all(endpointDevices);
    all.Add(switchPorts);
    return all;
}

uint32_t
GsnFabric::GetNLocalPorts() const
{
    const NetDeviceContainer all = GetAllPorts();
    uint32_t n = 0;
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        n += DynamicCast<GsnPortDevice>(all.Get(i)) ? 1 : 0;
    }
    return n;
}

bool
GsnFabric::SupportsBroadcast() const
{
    for (const auto& sw : switchObjects)
    {
        if (sw && !sw->IsBroadcastCapable())
        {
            return false;
        }
    }
    return true;
}

GsnFabricHelper::GsnFabricHelper()
    : m_routing("Auto"),
      m_deadlockCheck(true),
      m_discovery(false),
      m_adminBroadcastSetup(false),
      m_adminBroadcastTime(MicroSeconds(5)),
      m_nRanks(1),
      m_partitionMethod(AUTO)
{
    m_switchFactory.SetTypeId("ns3::GsnSwitch");
    m_switchPortFactory.SetTypeId("ns3::GsnSwitchPort");
    m_watchdogFactory.SetTypeId("ns3::GsnFabricWatchdog");
}

void
GsnFabricHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
GsnFabricHelper::SetSwitchPortAttribute(std::string name, const AttributeValue& value)
{
    m_switchPortFactory.Set(name, value);
}

void
GsnFabricHelper::SetLinkMode(const std::string& mode)
{
    NS_ABORT_MSG_IF(mode != "Micropacket" && mode != "Run",
                    "GsnFabricHelper::SetLinkMode: \"" << mode
                                                       << "\" is not a link mode (Micropacket "
                                                          "or Run)");
    SetDeviceAttribute("LinkMode", StringValue(mode));
    SetSwitchPortAttribute("LinkMode", StringValue(mode));
}

void
GsnFabricHelper::SetRoutingAlgorithm(const std::string& name)
{
    m_routing = name;
}

void
GsnFabricHelper::SetDeadlockCheck(bool check)
{
    m_deadlockCheck = check;
}

void
GsnFabricHelper::SetWatchdogAttribute(std::string name, const AttributeValue& value)
{
    m_watchdogFactory.Set(name, value);
}

void
GsnFabricHelper::SetDiscovery(bool discovery)
{
    m_discovery = discovery;
}

void
GsnFabricHelper::SetAdminBroadcastSetup(bool admin, Time at)
{
    m_adminBroadcastSetup = admin;
    m_adminBroadcastTime = at;
}

bool
GsnFabric::IsLocalEndpoint(uint32_t i) const
{
    return elementRanks.empty() || elementRanks[endpointElements[i]] == GsnMpiHelper::GetRank();
}

GsnFabric
GsnFabricHelper::Install(const GsnTopology& topology)
{
    try
    {
        return InstallOrThrow(topology);
    }
    catch (const std::invalid_argument& e)
    {
        NS_FATAL_ERROR("GsnFabricHelper: " << e.what());
    }
    return GsnFabric();
}

GsnFabric
GsnFabricHelper::InstallOrThrow(const GsnTopology& topology, bool tables)
{
    const std::string problem = topology.Validate();
    NS_ABORT_MSG_UNLESS(problem.empty(), "GsnFabricHelper: impossible topology: " << problem);

    GsnFabric fabric;
    fabric.topology = topology;
    fabric.elementRanks = AssignRanks(topology);
    if (m_nRanks > 1 && !GsnMpiHelper::IsAvailable())
    {
        NS_FATAL_ERROR("GsnFabricHelper: the fabric is split over "
                       << m_nRanks
                       << " ranks, but this build has no ns-3 mpi module (GSN_ENABLE_MPI, or an "
                          "ns-3 tree configured with --enable-mpi)");
    }
    if (m_nRanks > 1 && GsnMpiHelper::GetSize() != m_nRanks)
    {
        // (Each rank builds its own elements: the others' would never run.)
        NS_FATAL_ERROR("GsnFabricHelper: the fabric is split over "
                       << m_nRanks << " ranks, but MPI runs " << GsnMpiHelper::GetSize()
                       << ": call GsnMpiHelper::Enable first, under mpirun -np " << m_nRanks);
    }
    // (MPI's rank: the simulator, which knows it too, may not exist yet.)
    const uint32_t here = GsnMpiHelper::GetRank();
    const auto isLocal = [&](uint32_t id) {
        return m_nRanks == 1 || fabric.elementRanks[id] == here;
    };
    // What is behind each switch port is the manager's knowledge; discovery learns it. The
    // routes are computed before anything is built, so that nothing is when they are refused.
    if (!m_discovery && tables)
    {
        std::vector<uint32_t> kept;
        for (uint32_t id = 0; id < topology.GetNElements(); ++id)
        {
            if (topology.IsSwitch(id) && isLocal(id))
            {
                kept.push_back(id);
            }
        }
        try
        {
            fabric.tables = ComputeRows(topology, kept, m_routing, m_deadlockCheck);
        }
        catch (const std::exception& e)
        {
            throw std::invalid_argument("routing " + m_routing + ": " + e.what());
        }
    }

    const uint32_t n = topology.GetNElements();
    std::vector<std::vector<Ptr<NetDevice>>> ports(n); // per element, per port

    for (uint32_t id = 0; id < n; ++id)
    {
        const GsnTopology::Element& e = topology.GetElement(id);
        // Every rank makes every node and draws every address, in the topology's order, so
        // that node numbers and ULAs agree; only its own elements get their objects, the
        // others' ports a GsnRemotePort naming them.
        Ptr<Node> node = CreateObject<Node>(fabric.elementRanks[id]);
        const bool local = isLocal(id);
        if (e.kind == GsnTopology::ElementKind::ENDPOINT)
        {
            const Mac48Address address = Mac48Address::Allocate();
            if (local)
            {
                Ptr<GsnNetDevice> device = m_deviceFactory.Create<GsnNetDevice>();
                device->SetAddress(address);
                node->AddDevice(device);
                m_hostAdapter.Install(device);
                ports[id].push_back(device);
            }
            else
            {
                ports[id].push_back(NameRemotePort(node, 0, address, true));
            }
            fabric.endpoints.Add(node);
            fabric.endpointDevices.Add(ports[id].back());
            fabric.endpointAddresses.push_back(address);
            fabric.endpointElements.push_back(id);
            continue;
        }
        const uint32_t index = uint32_t(fabric.switchObjects.size());
        Ptr<GsnSwitch> sw;
        if (local)
        {
            sw = m_switchFactory.Create<GsnSwitch>();
            const uint8_t a[6] = {0x02, 0x00, uint8_t(index >> 8), uint8_t(index), 0x00, 0x00};
            Mac48Address address;
            address.CopyFrom(a);
            sw->SetAttribute("ElementAddress", Mac48AddressValue(address));
            sw->SetAttribute("Discovery", BooleanValue(m_discovery));
            node->AggregateObject(sw);
        }
        for (uint32_t p = 0; p < e.numPorts; ++p)
        {
            const Mac48Address address = Mac48Address::Allocate();
            if (local)
            {
                Ptr<GsnSwitchPort> port = m_switchPortFactory.Create<GsnSwitchPort>();
                port->SetAddress(address);
                node->AddDevice(port);
                sw->AddPort(port);
                ports[id].push_back(port);
            }
            else
            {
                ports[id].push_back(NameRemotePort(node, p, address, false));
            }
            fabric.switchPorts.Add(ports[id].back());
        }
        fabric.switches.Add(node);
        fabric.switchObjects.push_back(sw); // (null for another rank's switch)
        fabric.switchElements.push_back(id);
    }

    for (const GsnTopology::Cable& c : topology.GetCables())
    {
        const bool localA = isLocal(c.a);
        const bool localB = isLocal(c.b);
        if (!localA && !localB)
        {
            continue; // another rank's cable
        }
        Ptr<GsnChannel> channel = CreateCable(c);
        if (fabric.elementRanks[c.a] != fabric.elementRanks[c.b])
        {
            channel = CreateRemoteCable(c, channel);
        }
        for (const auto& [id, port, local] :
             {std::make_tuple(c.a, c.aPort, localA), std::make_tuple(c.b, c.bPort, localB)})
        {
            if (local)
            {
                DynamicCast<GsnPortDevice>(ports[id][port])->Attach(channel);
            }
            else
            {
                channel->AttachRemote(DynamicCast<GsnRemotePort>(ports[id][port]));
            }
        }
    }

    if (!m_discovery)
    {
        ConfigureSwitches(fabric);
    }
    else if (!fabric.switchObjects.empty() &&
             fabric.switchObjects.front()->GetDiscoveryMethod() == GsnSwitch::DISTANCE_VECTOR)
    {
        // Distance-vector discovery builds no map to take a tree from: the helper sets it.
        InstallBroadcastTree(fabric);
    }
    if (m_adminBroadcastSetup)
    {
        // The manager on the first endpoint sets the tree up with Admin micropackets once
        // the links are up; until then no switch broadcasts.
        for (const auto& sw : fabric.switchObjects)
        {
            for (uint32_t p = 0; sw && p < sw->GetNPorts(); ++p)
            {
                sw->SetPortInBroadcastTree(p, false);
            }
        }
        if (!fabric.endpointElements.empty())
        {
            SetUpBroadcastByAdmin(fabric, 0, m_adminBroadcastTime);
        }
    }
    NoteFabricBroadcast(fabric);
    if (!fabric.switchObjects.empty())
    {
        // (Each rank watches its own switches.)
        std::vector<Ptr<GsnSwitch>> watched;
        std::vector<std::string> names;
        for (uint32_t s = 0; s < fabric.switchObjects.size(); ++s)
        {
            if (fabric.switchObjects[s])
            {
                watched.push_back(fabric.switchObjects[s]);
                names.push_back(topology.GetElement(fabric.switchElements[s]).name);
            }
        }
        fabric.watchdog = m_watchdogFactory.Create<GsnFabricWatchdog>();
        fabric.watchdog->Watch(watched, names);
    }
    return fabric;
}

Ptr<GsnRemotePort>
GsnFabricHelper::NameRemotePort(Ptr<Node> node,
                                uint32_t ifIndex,
                                Mac48Address address,
                                bool endpoint)
{
    Ptr<GsnRemotePort> port = CreateObject<GsnRemotePort>();
    port->Name(node, ifIndex, address, endpoint);
    return port;
}

void
GsnFabricHelper::SetRanks(uint32_t ranks)
{
    NS_ABORT_MSG_IF(ranks == 0, "GsnFabricHelper: SetRanks(0): at least one rank");
    m_nRanks = ranks;
}

void
GsnFabricHelper::SetPartitionMethod(PartitionMethod method)
{
    m_partitionMethod = method;
}

void
GsnFabricHelper::SetElementRanks(const std::vector<uint32_t>& ranks, uint32_t nRanks)
{
    SetRanks(nRanks);
    m_byHand = ranks;
}

std::vector<uint32_t>
GsnFabricHelper::AssignRanks(const GsnTopology& topology) const
{
    std::vector<uint32_t> ranks =
        m_byHand.empty() ? Partition(topology, m_nRanks, m_partitionMethod) : m_byHand;
    const std::string problem = CheckRanks(topology, ranks, m_nRanks);
    NS_ABORT_MSG_UNLESS(problem.empty(), "GsnFabricHelper: " << problem);
    return ranks;
}

std::string
GsnFabricHelper::CheckRanks(const GsnTopology& topology,
                            const std::vector<uint32_t>& ranks,
                            uint32_t nRanks)
{
    const uint32_t n = topology.GetNElements();
    std::ostringstream problem;
    if (ranks.size() != n)
    {
        problem << "SetElementRanks gave " << ranks.size() << " ranks for a topology of " << n
                << " elements";
        return problem.str();
    }
    std::vector<uint32_t> count(nRanks, 0);
    for (uint32_t id = 0; id < n; ++id)
    {
        if (ranks[id] >= nRanks)
        {
            problem << "element " << topology.GetElement(id).name << " is given rank " << ranks[id]
                    << " of " << nRanks;
            return problem.str();
        }
        ++count[ranks[id]];
    }
    // ns-3's engines find the cables between ranks from the devices that are point to point;
    // an endpoint behind a switch is not (GsnNetDevice::IsPointToPoint), so its rank would
    // not see its cable: an endpoint shares its switch's rank.
    for (const GsnTopology::Cable& c : topology.GetCables())
    {
        const bool mixed = topology.GetElement(c.a).kind != topology.GetElement(c.b).kind;
        if (mixed && ranks[c.a] != ranks[c.b])
        {
            problem << "endpoint and switch " << topology.GetElement(c.a).name << " (rank "
                    << ranks[c.a] << ") and " << topology.GetElement(c.b).name << " (rank "
                    << ranks[c.b]
                    << ") are cabled on different ranks; an endpoint must be on its switch's "
                       "rank";
            return problem.str();
        }
    }
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        if (count[r] == 0)
        {
            problem << "rank " << r << " of " << nRanks << " has no element of the fabric (" << n
                    << " elements); use fewer ranks";
            return problem.str();
        }
    }
    return "";
}

Ptr<GsnChannel>
GsnFabricHelper::CreateRemoteCable(const GsnTopology::Cable& cable, Ptr<GsnChannel> local) const
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe("ns3::GsnRemoteChannel", &tid))
    {
        NS_FATAL_ERROR("GsnFabricHelper: the cable between "
                       << cable.a << " and " << cable.b
                       << " crosses MPI ranks, but this build has no ns-3 mpi module "
                          "(GSN_ENABLE_MPI, or an ns-3 tree configured with --enable-mpi)");
    }
    ObjectFactory factory = m_channelFactory;
    factory.SetTypeId(tid);
    Ptr<GsnChannel> channel = factory.Create<GsnChannel>();
    // The same cable as the local one would be.
    channel->SetAttribute("Length", DoubleValue(local->GetLength()));
    channel->SetAttribute("Medium", EnumValue(local->GetMedium()));
    return channel;
}

Ptr<GsnChannel>
GsnFabricHelper::CreateCable(const GsnTopology::Cable& cable) const
{
    Ptr<GsnChannel> channel = m_channelFactory.Create<GsnChannel>();
    if (cable.lengthGiven)
    {
        channel->SetAttribute("Length", DoubleValue(cable.lengthMeters));
        if (cable.lengthMeters > GsnChannel::GetMaxLength(GsnChannel::COPPER))
        {
            channel->SetAttribute("Medium", EnumValue(GsnChannel::FIBER));
        }
    }
    // Attach() refuses a length beyond the medium's limit, naming it.
    return channel;
}

void
GsnFabricHelper::ConfigureSwitches(GsnFabric& fabric)
{
    const GsnTopology& topology = fabric.topology;
    for (uint32_t s = 0; s < fabric.switchObjects.size(); ++s)
    {
        const uint32_t id = fabric.switchElements[s];
        for (uint32_t p = 0; fabric.switchObjects[s] && p < topology.GetElement(id).numPorts; ++p)
        {
            auto peer = topology.GetPeer(id, p);
            if (peer)
            {
                const bool endpoint =
                    topology.GetElement(peer->first).kind == GsnTopology::ElementKind::ENDPOINT;
                fabric.switchObjects[s]->SetNeighborType(p,
                                                         endpoint ? GsnElementType::ENDPOINT
                                                                  : GsnElementType::SWITCH);
            }
        }
    }
    InstallTables(fabric, fabric.tables);
    InstallBroadcastTree(fabric);
}

void
GsnFabricHelper::ComputeTables(GsnFabric& fabric, const std::string& routing, bool check)
{
    std::vector<uint32_t> kept;
    for (uint32_t s = 0; s < fabric.switchElements.size(); ++s)
    {
        if (s < fabric.switchObjects.size() && fabric.switchObjects[s])
        {
            kept.push_back(fabric.switchElements[s]);
        }
    }
    fabric.tables = ComputeRows(fabric.topology, kept, routing, check);
}

GsnRoutingTables
GsnFabricHelper::ComputeRows(const GsnTopology& t,
                             const std::vector<uint32_t>& kept,
                             const std::string& routing,
                             bool check)
{
    GsnRoutingTables tables;
    tables.port.assign(t.GetNElements(), {});
    for (uint32_t sw : kept)
    {
        tables.port[sw].assign(t.GetNElements(), -1);
    }
    std::unique_ptr<GsnDeadlockChecker> checker;
    if (check)
    {
        checker = std::make_unique<GsnDeadlockChecker>(t);
    }
    GsnRouting::Create(routing)->ComputeColumns(
        t,
        [&](uint32_t endpoint, const std::vector<int32_t>& column) {
            for (uint32_t sw : kept)
            {
                tables.port[sw][endpoint] = column[sw];
            }
            if (checker)
            {
                checker->AddRoutes(endpoint, column);
            }
        });
    if (checker)
    {
        checker->Check();
    }
    return tables;
}

void
GsnFabricHelper::InstallTables(GsnFabric& fabric, const GsnRoutingTables& tables)
{
    NS_ABORT_MSG_UNLESS(fabric.endpointAddresses.size() == fabric.endpointElements.size(),
                        "GsnFabricHelper::InstallTables: the fabric has "
                            << fabric.endpointAddresses.size() << " endpoint addresses for "
                            << fabric.endpointElements.size() << " endpoints");
    for (uint32_t s = 0; s < fabric.switchObjects.size(); ++s)
    {
        Ptr<GsnSwitch> sw = fabric.switchObjects[s];
        if (!sw)
        {
            continue; // another rank's
        }
        sw->ClearRoutes();
        for (uint32_t e = 0; e < fabric.endpointElements.size(); ++e)
        {
            const int32_t port = tables.Get(fabric.switchElements[s], fabric.endpointElements[e]);
            if (port >= 0)
            {
                sw->SetRoute(fabric.endpointAddresses[e], uint32_t(port), 0xFF);
            }
        }
    }
}

void
GsnFabricHelper::NoteFabricBroadcast(const GsnFabric& fabric)
{
    const GsnFabricBroadcast broadcast = fabric.SupportsBroadcast()
                                             ? GsnFabricBroadcast::BROADCAST
                                             : GsnFabricBroadcast::NON_BROADCAST;
    for (uint32_t i = 0; i < fabric.endpointDevices.GetN(); ++i)
    {
        if (Ptr<GsnNetDevice> device = fabric.GetEndpointDevice(i))
        {
            device->SetFabricBroadcast(broadcast);
        }
    }
}

std::vector<std::vector<bool>>
GsnFabricHelper::ComputeBroadcastTree(const GsnFabric& fabric)
{
    const GsnTopology& t = fabric.topology;
    std::vector<int32_t> switchIndex(t.GetNElements(), -1);
    std::vector<std::vector<bool>> tree(fabric.switchElements.size());
    for (uint32_t s = 0; s < fabric.switchElements.size(); ++s)
    {
        switchIndex[fabric.switchElements[s]] = int32_t(s);
        tree[s].assign(t.GetElement(fabric.switchElements[s]).numPorts, false);
    }
    if (fabric.switchElements.empty())
    {
        return tree;
    }
    // Breadth first over switches from the first one; endpoint ports are always in the tree.
    std::vector<bool> seen(t.GetNElements(), false);
    std::deque<uint32_t> queue{fabric.switchElements.front()};
    seen[fabric.switchElements.front()] = true;
    while (!queue.empty())
    {
        const uint32_t id = queue.front();
        queue.pop_front();
        for (uint32_t p = 0; p < t.GetElement(id).numPorts; ++p)
        {
            auto peer = t.GetPeer(id, p);
            if (!peer)
            {
                continue;
            }
            if (t.GetElement(peer->first).kind == GsnTopology::ElementKind::ENDPOINT)
            {
                tree[switchIndex[id]][p] = true;
            }
            else if (!seen[peer->first])
            {
                seen[peer->first] = true;
                tree[switchIndex[id]][p] = true;
                tree[switchIndex[peer->first]][peer->second] = true;
                queue.push_back(peer->first);
            }
        }
    }
    return tree;
}

void
GsnFabricHelper::InstallBroadcastTree(GsnFabric& fabric)
{
    const std::vector<std::vector<bool>> tree = ComputeBroadcastTree(fabric);
    for (uint32_t s = 0; s < tree.size(); ++s)
    {
        for (uint32_t p = 0; fabric.switchObjects[s] && p < tree[s].size(); ++p)
        {
            fabric.switchObjects[s]->SetPortInBroadcastTree(p, tree[s][p]);
        }
    }
}

std::string
GsnFabricHelper::AdminPaths(const GsnTopology& t,
                            uint32_t endpoint,
                            std::vector<std::vector<uint32_t>>& path)
{
    path.assign(t.GetNElements(), {});
    std::vector<uint32_t> order;
    const auto first = t.GetPeer(endpoint, 0);
    if (!first || t.GetElement(first->first).kind != GsnTopology::ElementKind::SWITCH)
    {
        return ""; // no switch to reach from there
    }
    // Breadth first, so each switch by a shortest way: the output port to take at each
    // forwarding switch, which an Admin request records.
    std::vector<bool> seen(t.GetNElements(), false);
    std::deque<uint32_t> queue{first->first};
    seen[first->first] = true;
    while (!queue.empty())
    {
        const uint32_t id = queue.front();
        queue.pop_front();
        if (path[id].size() > GsnAdminPayload::MAX_PATH)
        {
            std::ostringstream os;
            os << "switch " << t.GetElement(id).name << " is " << path[id].size()
               << " switch hops from endpoint " << t.GetElement(endpoint).name
               << "; an Admin request crosses at most " << GsnAdminPayload::MAX_PATH;
            return os.str();
        }
        for (uint32_t port = 0; port < t.GetElement(id).numPorts; ++port)
        {
            const auto peer = t.GetPeer(id, port);
            if (peer && t.GetElement(peer->first).kind == GsnTopology::ElementKind::SWITCH &&
                !seen[peer->first])
            {
                if (port > 0xFF)
                {
                    std::ostringstream os;
                    os << "port " << port << " of " << t.GetElement(id).name
                       << " cannot be named in an Admin path (at most 255)";
                    return os.str();
                }
                seen[peer->first] = true;
                path[peer->first] = path[id];
                path[peer->first].push_back(port);
                queue.push_back(peer->first);
            }
        }
    }
    return "";
}

uint32_t
GsnFabricHelper::SetUpBroadcastByAdmin(const GsnFabric& fabric, uint32_t manager, Time at)
{
    NS_ABORT_MSG_UNLESS(manager < fabric.endpointElements.size(),
                        "GsnFabricHelper::SetUpBroadcastByAdmin: no endpoint " << manager);
    std::vector<std::vector<uint32_t>> path;
    const std::string problem = AdminPaths(fabric.topology, fabric.endpointElements[manager], path);
    NS_ABORT_MSG_UNLESS(problem.empty(), "GsnFabricHelper::SetUpBroadcastByAdmin: " << problem);
    const auto first = fabric.topology.GetPeer(fabric.endpointElements[manager], 0);
    const std::vector<std::vector<bool>> tree = ComputeBroadcastTree(fabric);
    Ptr<GsnNetDevice> device = fabric.GetEndpointDevice(manager);
    uint32_t requests = 0;
    for (uint32_t s = 0; s < fabric.switchElements.size(); ++s)
    {
        const uint32_t id = fabric.switchElements[s];
        if (path[id].empty() && (!first || first->first != id))
        {
            continue; // not reachable from the manager
        }
        const std::vector<bool>& ports = tree[s];
        for (uint32_t base = 0; base < ports.size(); base += 64)
        {
            GsnAdminPayload p;
            p.command = uint8_t(GsnAdminCommand::BROADCAST_SETUP);
            p.hopCount = uint8_t(path[id].size());
            for (uint32_t k = 0; k < path[id].size(); ++k)
            {
                p.path[k] = uint8_t(path[id][k]);
            }
            p.port = uint16_t(base);
            uint64_t mask = 0;
            for (uint32_t i = 0; i < 64 && base + i < ports.size(); ++i)
            {
                mask |= uint64_t(ports[base + i] ? 1 : 0) << i;
            }
            p.SetArg64(mask);
            if (device) // (else the manager's rank sends it)
            {
                Simulator::Schedule(at, [device, p]() { device->SendAdminRequest(p); });
            }
            ++requests;
        }
    }
    return requests;
}

int64_t
GsnFabricHelper::AssignStreams(const GsnFabric& fabric, int64_t stream)
{
    return GsnHelper::AssignStreams(fabric.GetAllPorts(), stream);
}

} // namespace ns3
