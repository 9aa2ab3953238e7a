/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GsnSwitch is written in several files, one per role:
//  - gsn-switch.cc: attributes, trace sources, construction, ports, the routing table and
//    the counters;
//  - gsn-switch-forwarding.cc: input buffers, routing of Headers, arbitration of outputs,
//    what the ports take, drops, broadcast copies and a port's reset;
//  - gsn-switch-admin.cc: Admin micropackets (forwarding by path, the commands a switch
//    answers) and re-initialisation;
//  - gsn-switch-discovery.cc: discovery rounds (distance vector, or map sweeps and the
//    broadcast tree set up from the map).
#include "gsn-switch.h"

#include "gsn-attribute-checker.h"
#include "gsn-switch-port.h"
#include "gsn-switch-private.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnSwitch");

LogComponent&
gsn::SwitchLog()
{
    return g_log;
}

NS_OBJECT_ENSURE_REGISTERED(GsnSwitch);

const char*
GsnSwitchDropReasonName(GsnSwitchDropReason reason)
{
    switch (reason)
    {
    case GsnSwitchDropReason::UNKNOWN_ULA:
        return "UnknownUla";
    case GsnSwitchDropReason::NO_BROADCAST:
        return "NoBroadcast";
    case GsnSwitchDropReason::BROADCAST_TOO_LONG:
        return "BroadcastTooLong";
    case GsnSwitchDropReason::STRAY_DATA:
        return "StrayData";
    case GsnSwitchDropReason::CUT_BY_RESET:
        return "CutByReset";
    case GsnSwitchDropReason::COUNT:
        break;
    }
    return "Unknown";
}

TypeId
GsnSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnSwitch")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnSwitch>()
            .AddAttribute(
                "CutThroughLatency",
                "Time from a micropacket's arrival to the earliest time it may leave "
                "(proposal: 300 ns; gsn-protocol-reference.rst 'Rates and timing').",
                TimeValue(NanoSeconds(300)),
                MakeTimeAccessor(&GsnSwitch::m_latency),
                MakeGsnChecker("ns3::GsnSwitch::CutThroughLatency", MakeTimeChecker(Time(0))))
            .AddAttribute("BroadcastCapable",
                          "Whether the switch replicates Messages sent to FF:FF:FF:FF:FF:FF; a "
                          "fabric supports broadcast only if all its switches do.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GsnSwitch::m_broadcastCapable),
                          MakeBooleanChecker())
            .AddAttribute("ElementAddress",
                          "The switch's element address; the ULAs it assigns to endpoints are "
                          "derived from it (locally administered; proposal, "
                          "gsn-protocol-reference.rst 'Admin micropacket format and commands').",
                          Mac48AddressValue(Mac48Address("02:00:00:00:00:00")),
                          MakeMac48AddressAccessor(&GsnSwitch::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("Discovery",
                          "Discover the fabric with Admin micropackets and fill the routing "
                          "table from it, instead of relying on a fabric manager.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsnSwitch::m_discovery),
                          MakeBooleanChecker())
            .AddAttribute(
                "DiscoveryStart",
                "When the first discovery round runs (links need a few microseconds "
                "to come up).",
                TimeValue(MicroSeconds(5)),
                MakeTimeAccessor(&GsnSwitch::m_discoveryStart),
                MakeGsnChecker("ns3::GsnSwitch::DiscoveryStart", MakeTimeChecker(Time(0))))
            .AddAttribute("DiscoveryInterval",
                          "Time between discovery rounds.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&GsnSwitch::m_discoveryInterval),
                          MakeGsnChecker("ns3::GsnSwitch::DiscoveryInterval",
                                         MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("DiscoveryQuietRounds",
                          "Discovery ends after this many rounds in a row changed nothing; "
                          "routes spread one switch hop per round, so it must exceed the "
                          "fabric's diameter in switch hops.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&GsnSwitch::m_discoveryQuietRounds),
                          MakeGsnChecker("ns3::GsnSwitch::DiscoveryQuietRounds",
                                         MakeUintegerChecker<uint32_t>(1)))
            .AddAttribute("DiscoveryMethod",
                          "How discovery fills the routing table. Map (the seed's): each "
                          "round probes the fabric hop by hop down every link until endpoints "
                          "answer, builds a map (spanning tree) of it and routes along the "
                          "map; the switch with the lowest element address sets up the "
                          "broadcast tree from its map with Admin micropackets. "
                          "DistanceVector: each round asks switch neighbours which ULAs they "
                          "reach and how far.",
                          EnumValue(GsnSwitch::MAP),
                          MakeEnumAccessor(&GsnSwitch::m_discoveryMethod),
                          MakeGsnEnumChecker("ns3::GsnSwitch::DiscoveryMethod",
                                             GsnSwitch::MAP,
                                             "Map",
                                             GsnSwitch::DISTANCE_VECTOR,
                                             "DistanceVector"))
            .AddAttribute("DiscoveryMaxRounds",
                          "Discovery rounds at most.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&GsnSwitch::m_discoveryMaxRounds),
                          MakeGsnChecker("ns3::GsnSwitch::DiscoveryMaxRounds",
                                         MakeUintegerChecker<uint32_t>(1)))
            .AddTraceSource("MessageForward",
                            "A Message's Tail left: input port, output port, VC, D_ULA.",
                            MakeTraceSourceAccessor(&GsnSwitch::m_forwardTrace),
                            "ns3::GsnSwitch::ForwardTracedCallback")
            .AddTraceSource("MessageDrop",
                            "A Message was dropped: input port, VC, D_ULA, reason.",
                            MakeTraceSourceAccessor(&GsnSwitch::m_dropTrace),
                            "ns3::GsnSwitch::DropTracedCallback")
            .AddTraceSource("Admin",
                            "An Admin micropacket was processed or forwarded: port, payload.",
                            MakeTraceSourceAccessor(&GsnSwitch::m_adminTrace),
                            "ns3::GsnSwitch::AdminTracedCallback");
    return tid;
}

GsnSwitch::GsnSwitch()
    : m_adminErrors(0),
      m_latency(NanoSeconds(300)),
      m_broadcastCapable(true),
      m_discovery(false),
      m_discoveryMaxRounds(64),
      m_discoveryQuietRounds(8),
      m_discoveryMethod(MAP),
      m_probesPending(0),
      m_sweeping(false),
      m_nextTransaction(1),
      m_resets(0),
      m_discoveryRounds(0),
      m_quietRounds(0),
      m_discoveryChanged(false),
      m_discoveryComplete(false)
{
}

GsnSwitch::~GsnSwitch()
{
}

void
GsnSwitch::DoInitialize()
{
    m_initialAddress = m_address; // what Reset returns to
    if (m_discovery)
    {
        m_discoveryEvent = Simulator::Schedule(m_discoveryStart, &GsnSwitch::DiscoveryRound, this);
    }
    Object::DoInitialize();
}

void
GsnSwitch::DoDispose()
{
    for (auto& e : m_wake)
    {
        e.Cancel();
    }
    m_discoveryEvent.Cancel();
    m_ports.clear();
    m_in.clear();
    m_out.clear();
    Object::DoDispose();
}

uint64_t
GsnSwitch::Key(Mac48Address ula)
{
    uint8_t b[6];
    ula.CopyTo(b);
    uint64_t k = 0;
    for (uint8_t x : b)
    {
        k = k << 8 | x;
    }
    return k;
}

uint32_t
GsnSwitch::AddPort(Ptr<GsnSwitchPort> port)
{
    const uint32_t index = uint32_t(m_ports.size());
    // Routes and Admin micropackets carry 16-bit port numbers.
    NS_ABORT_MSG_IF(index > 0xFFFF, "GsnSwitch::AddPort: a GSN switch has at most 65536 ports");
    m_ports.push_back(port);
    m_in.emplace_back();
    m_out.emplace_back();
    m_counters.emplace_back();
    m_wake.emplace_back();
    m_neighbor.push_back(NeighborType::UNKNOWN);
    m_inTree.push_back(false); // no broadcast until a fabric manager or discovery sets the tree
    m_endpointUla.emplace_back();
    m_assigned.push_back(false);
    port->SetSwitch(this, index);
    return index;
}

uint32_t
GsnSwitch::GetNPorts() const
{
    return uint32_t(m_ports.size());
}

Ptr<GsnSwitchPort>
GsnSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

void
GsnSwitch::SetRoute(Mac48Address ula, uint32_t port, uint8_t distance)
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(),
                        "GsnSwitch::SetRoute: port " << port << " of a " << m_ports.size()
                                                     << "-port switch");
    PutRoute(Route{Key(ula), uint16_t(port), distance});
}

std::size_t
GsnSwitch::RoutePlace(uint64_t ula) const
{
    // The port is in the low 16 bits, so the first key at or above ula << 16 is ula's.
    return std::size_t(std::lower_bound(m_routeKeys.begin(), m_routeKeys.end(), ula << 16) -
                       m_routeKeys.begin());
}

bool
GsnSwitch::IsRouteTo(std::size_t i, uint64_t ula) const
{
    return i < m_routeKeys.size() && m_routeKeys[i] >> 16 == ula;
}

GsnSwitch::Route
GsnSwitch::RouteAt(std::size_t i) const
{
    return Route{m_routeKeys[i] >> 16, uint16_t(m_routeKeys[i]), m_routeDistances[i]};
}

bool
GsnSwitch::FindRoute(uint64_t ula, Route& route) const
{
    const std::size_t i = RoutePlace(ula);
    if (!IsRouteTo(i, ula))
    {
        return false;
    }
    route = RouteAt(i);
    return true;
}

void
GsnSwitch::PutRoute(const Route& route)
{
    // Tables are mostly installed in ULA order, which appends.
    const std::size_t i = RoutePlace(route.ula);
    const uint64_t key = route.ula << 16 | route.port;
    if (IsRouteTo(i, route.ula))
    {
        m_routeKeys[i] = key;
        m_routeDistances[i] = route.distance;
    }
    else
    {
        m_routeKeys.insert(m_routeKeys.begin() + i, key);
        m_routeDistances.insert(m_routeDistances.begin() + i, route.distance);
    }
}

void
GsnSwitch::EraseRoute(uint64_t ula)
{
    const std::size_t i = RoutePlace(ula);
    if (IsRouteTo(i, ula))
    {
        m_routeKeys.erase(m_routeKeys.begin() + i);
        m_routeDistances.erase(m_routeDistances.begin() + i);
    }
}

int32_t
GsnSwitch::GetRoute(Mac48Address ula) const
{
    Route r;
    return FindRoute(Key(ula), r) ? int32_t(r.port) : -1;
}

uint32_t
GsnSwitch::GetNRoutes() const
{
    return uint32_t(m_routeKeys.size());
}

void
GsnSwitch::ClearRoutes()
{
    m_routeKeys.clear();
    m_routeDistances.clear();
}

void
GsnSwitch::SetNeighborType(uint32_t port, NeighborType type)
{
    m_neighbor.at(port) = type;
}

GsnSwitch::NeighborType
GsnSwitch::GetNeighborType(uint32_t port) const
{
    return m_neighbor.at(port);
}

void
GsnSwitch::SetPortInBroadcastTree(uint32_t port, bool inTree)
{
    m_inTree.at(port) = inTree;
}

bool
GsnSwitch::IsPortInBroadcastTree(uint32_t port) const
{
    return m_inTree.at(port);
}

bool
GsnSwitch::IsBroadcastCapable() const
{
    return m_broadcastCapable;
}

Mac48Address
GsnSwitch::GetElementAddress() const
{
    return m_address;
}

const GsnSwitchVcCounters&
GsnSwitch::GetCounters(uint32_t port, uint8_t vc) const
{
    return m_counters.at(port).at(vc);
}

uint64_t
GsnSwitch::GetDrops(GsnSwitchDropReason reason) const
{
    return m_drops.at(size_t(reason));
}

uint64_t
GsnSwitch::GetAdminErrors() const
{
    return m_adminErrors;
}

} // namespace ns3
