/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-switch.h"

#include "gsn-attribute-checker.h"
#include "gsn-message-header.h"
#include "gsn-now.h"
#include "gsn-switch-port.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnSwitch");

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

// ---------------------------------------------------------------------------------------
// Input side

void
GsnSwitch::ReceiveMicropacket(uint32_t port, GsnMicropacket&& mp)
{
    const uint8_t vc = mp.vc;
    InputVc& in = m_in[port][vc];
    if (mp.tail)
    {
        ++in.tails;
    }
    // Cut-through counts from the arrival, which is earlier than now for the micropackets
    // of a run that the port takes ahead of time.
    in.fifo.Push(std::move(mp), m_ports[port]->GetRxArrivalTime() + m_latency, true);
    switch (in.mode)
    {
    case Mode::IDLE:
        ProcessHead(port, vc);
        break;
    case Mode::DROPPING:
        DrainDrop(port, vc);
        ProcessHead(port, vc);
        break;
    case Mode::BROADCAST_WAIT:
        TryBroadcast(port, vc);
        break;
    case Mode::FORWARDING:
        if (in.fifo.GetSize() == 1)
        {
            WakeOutput(in.out, in.fifo.FrontReady()); // the output may be waiting for it
        }
        break;
    case Mode::WAITING:
    case Mode::DRAINING:
        break;
    }
}

bool
GsnSwitch::BuffersOnly(uint32_t port, uint8_t vc) const
{
    // What ReceiveMicropacket does besides buffering: nothing in these modes (with the
    // input's buffer not empty, a forwarding input wakes no output).
    const InputVc& in = m_in[port][vc];
    return in.mode == Mode::WAITING || in.mode == Mode::DRAINING ||
           (in.mode == Mode::FORWARDING && !in.fifo.IsEmpty());
}

void
GsnSwitch::ReceiveMicropacketSpan(uint32_t port, GsnMicropacket&& first, uint32_t n)
{
    NS_ASSERT(BuffersOnly(port, first.vc));
    InputVc& in = m_in[port][first.vc];
    in.fifo.PushSpan(std::move(first), n, m_ports[port]->GetRxArrivalTime() + m_latency, true);
}

GsnMicropacket
GsnSwitch::PopInput(uint32_t in, uint8_t vc, const Time& at)
{
    InputVc& input = m_in[in][vc];
    bool counted;
    GsnMicropacket mp = input.fifo.Pop(counted);
    if (mp.tail)
    {
        --input.tails;
    }
    if (counted)
    {
        m_ports[in]->ReleaseInput(vc, 1, at); // its credit goes back upstream
    }
    return mp;
}

void
GsnSwitch::ProcessHead(uint32_t in, uint8_t vc)
{
    InputVc& input = m_in[in][vc];
    while (input.mode == Mode::IDLE && !input.fifo.IsEmpty())
    {
        const GsnMicropacket& head = input.fifo.Front();
        if (head.GetType() != GsnMicropacketType::HEADER)
        {
            // The rest of a Message whose start was lost in a link reset.
            ++m_drops[size_t(GsnSwitchDropReason::STRAY_DATA)];
            ++m_counters[in][vc].dropsIn;
            m_dropTrace(in, vc, Mac48Address(), GsnSwitchDropReason::STRAY_DATA);
            PopInput(in, vc, gsn::Now());
            continue;
        }
        const Mac48Address dst = GsnMessageHeader::PeekDestination(head.Data());
        input.dst = dst;
        // Group ULAs (broadcast, and the multicast ULAs of IPv6 Neighbour Discovery and IP
        // multicast) are flooded over the broadcast tree: a GSN switch has no multicast
        // tables, so a group reaches every endpoint, which keeps the groups it joined.
        if (dst.IsGroup())
        {
            if (!m_broadcastCapable)
            {
                StartDrop(in, vc, GsnSwitchDropReason::NO_BROADCAST);
                continue;
            }
            input.mode = Mode::BROADCAST_WAIT;
            TryBroadcast(in, vc);
            continue;
        }
        const int32_t out = GetRoute(dst);
        if (out < 0)
        {
            StartDrop(in, vc, GsnSwitchDropReason::UNKNOWN_ULA);
            continue;
        }
        input.mode = Mode::WAITING;
        input.out = uint32_t(out);
        input.waitingSince = gsn::Now();
        Arbitrate(uint32_t(out), vc);
    }
}

void
GsnSwitch::StartDrop(uint32_t in, uint8_t vc, GsnSwitchDropReason reason)
{
    InputVc& input = m_in[in][vc];
    const Mac48Address dst = input.dst;
    NS_LOG_LOGIC(this << " drop at port " << in << " VC " << unsigned(vc) << " for " << dst << ": "
                      << GsnSwitchDropReasonName(reason));
    ++m_drops[size_t(reason)];
    ++m_counters[in][vc].dropsIn;
    m_dropTrace(in, vc, dst, reason);
    input.mode = Mode::DROPPING;
    DrainDrop(in, vc);
}

void
GsnSwitch::DrainDrop(uint32_t in, uint8_t vc)
{
    InputVc& input = m_in[in][vc];
    while (input.mode == Mode::DROPPING && !input.fifo.IsEmpty())
    {
        if (PopInput(in, vc, gsn::Now()).tail)
        {
            input.mode = Mode::IDLE;
        }
    }
}

void
GsnSwitch::TryBroadcast(uint32_t in, uint8_t vc)
{
    InputVc& input = m_in[in][vc];
    if (input.tails == 0)
    {
        if (input.fifo.GetSize() >= m_ports[in]->GetRxBufferSize())
        {
            // The whole Message can never be held: it would block this input for ever.
            StartDrop(in, vc, GsnSwitchDropReason::BROADCAST_TOO_LONG);
        }
        return;
    }
    // Store and forward: the whole Message is here; copy it to every port of the tree.
    std::vector<GsnMicropacket> message;
    bool tail = false;
    while (!tail)
    {
        message.push_back(PopInput(in, vc, gsn::Now()));
        tail = message.back().tail;
    }
    ++m_counters[in][vc].broadcastsIn;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        // Not back where it came from, except to the originating endpoint itself: a host
        // learns from its own copy that the fabric broadcasts (RFC 2835 detection).
        const bool back = p == in;
        if ((!back && m_inTree[p]) || (back && m_neighbor[p] == NeighborType::ENDPOINT))
        {
            m_out[p][vc].replicas.push_back(message);
            Arbitrate(p, vc);
        }
    }
    input.mode = Mode::IDLE;
}

// ---------------------------------------------------------------------------------------
// Output side

void
GsnSwitch::Arbitrate(uint32_t out, uint8_t vc)
{
    OutputVc& output = m_out[out][vc];
    if (output.owner >= 0)
    {
        return;
    }
    const uint32_t sources = uint32_t(m_ports.size()) + 1; // every input and the replicas
    for (uint32_t k = 0; k < sources; ++k)
    {
        const uint32_t src = (output.rr + k) % sources;
        if (int32_t(src) == ReplicaOwner())
        {
            if (output.replicas.empty())
            {
                continue;
            }
            SetOwner(out, vc, ReplicaOwner());
            output.rr = (src + 1) % sources;
            WakeOutput(out, gsn::Now());
            return;
        }
        InputVc& input = m_in[src][vc];
        if (input.mode == Mode::WAITING && input.out == out)
        {
            SetOwner(out, vc, int32_t(src));
            output.rr = (src + 1) % sources;
            input.mode = Mode::FORWARDING;
            m_counters[src][vc].blockedIn += gsn::Now() - input.waitingSince;
            WakeOutput(out, input.fifo.FrontReady());
            return;
        }
    }
}

void
GsnSwitch::SetOwner(uint32_t out, uint8_t vc, int32_t owner)
{
    m_out[out][vc].owner = owner;
    m_ports[out]->SetOutputVcOwned(vc, owner >= 0); // the port asks only owned VCs
}

void
GsnSwitch::WakeOutput(uint32_t port, const Time& at)
{
    const Time now = gsn::Now();
    if (at <= now)
    {
        m_ports[port]->Kick();
        return;
    }
    EventId& e = m_wake[port];
    if (e.IsRunning() && Time(e.GetTs()) <= at)
    {
        return; // an earlier wake-up is due; the port will look again then
    }
    e.Cancel();
    e = Simulator::Schedule(at - now, &GsnSwitch::Wake, this, port);
}

void
GsnSwitch::Wake(uint32_t port)
{
    m_wake[port] = EventId(); // (lets go of the event object while it is in the cache)
    m_ports[port]->Kick();
}

bool
GsnSwitch::HasMicropacketFor(uint32_t port, uint8_t vc)
{
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0)
    {
        return false;
    }
    // The port may be choosing a later slot of a run. There it only asks, and looks again
    // when the run ends if the micropacket is not ready by then. A broadcast copy's Tail is
    // not taken ahead (a forwarded Message's is: the output VC is freed in its slot).
    const GsnSwitchPort& p = *m_ports[port];
    const Time& slot = p.GetSlotTime();
    const bool ahead = p.IsChoosingAhead();
    if (output.owner == ReplicaOwner())
    {
        return !(ahead && output.replicas.front()[output.replicaPos].tail);
    }
    const GsnMicropacketQueue* head = ForwardedHead(port, vc);
    if (!head)
    {
        return false; // the rest of the Message has not arrived yet
    }
    const Time& ready = head->FrontReady();
    if (ready > slot)
    {
        if (!ahead)
        {
            WakeOutput(port, ready);
        }
        return false;
    }
    return true;
}

inline const GsnMicropacketQueue*
GsnSwitch::ForwardedHead(uint32_t port, uint8_t vc) const
{
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0 || output.owner == ReplicaOwner())
    {
        return nullptr;
    }
    const InputVc& input = m_in[output.owner][vc];
    if (input.mode != Mode::FORWARDING || input.out != port)
    {
        return nullptr; // its Tail has been taken (DRAINING): the rest is the next Message's
    }
    return input.fifo.IsEmpty() ? nullptr : &input.fifo;
}

Time
GsnSwitch::NextReadyFor(uint32_t port, uint8_t vc) const
{
    const GsnMicropacketQueue* head = ForwardedHead(port, vc);
    return head ? head->FrontReady() : Time::Max();
}

inline void
GsnSwitch::PullForwarded(uint32_t port, uint8_t vc, uint32_t in, GsnMicropacket& mp)
{
    // (PopInput(), here at hand: this is done for every micropacket a switch forwards.)
    ++m_counters[port][vc].micropacketsOut;
    InputVc& input = m_in[in][vc];
    bool counted;
    input.fifo.Pop(mp, counted);
    const bool tail = mp.tail;
    if (tail)
    {
        --input.tails;
    }
    if (counted)
    {
        // Its credit goes back upstream; it leaves in the slot being chosen.
        m_ports[in]->ReleaseInput(vc, 1, m_ports[port]->GetSlotTime());
    }
    if (tail)
    {
        EndForwarded(port, vc, in);
    }
}

void
GsnSwitch::PullMicropacketFor(uint32_t port, uint8_t vc, GsnMicropacket& mp)
{
    OutputVc& output = m_out[port][vc];
    NS_ASSERT(output.owner >= 0);
    if (output.owner == ReplicaOwner())
    {
        ++m_counters[port][vc].micropacketsOut;
        const std::vector<GsnMicropacket>& message = output.replicas.front();
        mp = message[output.replicaPos++];
        if (mp.tail)
        {
            const Mac48Address dst = GsnMessageHeader::PeekDestination(message.front().Data());
            output.replicas.pop_front();
            output.replicaPos = 0;
            ReleaseOutput(port, vc, port, dst);
            Arbitrate(port, vc);
        }
        return;
    }
    PullForwarded(port, vc, uint32_t(output.owner), mp);
}

bool
GsnSwitch::TakeMicropacketFor(uint32_t port, uint8_t vc, GsnMicropacket& mp)
{
    // HasMicropacketFor() and PullForwarded() with one look at the output and its input:
    // this is asked for every micropacket a switch forwards.
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0)
    {
        return false;
    }
    if (output.owner == ReplicaOwner())
    {
        if (!HasMicropacketFor(port, vc))
        {
            return false;
        }
        PullMicropacketFor(port, vc, mp);
        return true;
    }
    const InputVc& input = m_in[output.owner][vc];
    if (input.mode != Mode::FORWARDING || input.out != port || input.fifo.IsEmpty())
    {
        return false;
    }
    const GsnSwitchPort& p = *m_ports[port];
    const Time ready = input.fifo.FrontReady();
    if (ready > p.GetSlotTime())
    {
        if (!p.IsChoosingAhead())
        {
            WakeOutput(port, ready);
        }
        return false;
    }
    PullForwarded(port, vc, uint32_t(output.owner), mp);
    return true;
}

uint32_t
GsnSwitch::TakeFollowingFor(uint32_t port,
                            uint8_t vc,
                            uint32_t max,
                            const Time& slot,
                            GsnMicropacket& first)
{
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0 || output.owner == ReplicaOwner() || uint32_t(output.owner) == port)
    {
        return 0;
    }
    const uint32_t in = uint32_t(output.owner);
    InputVc& input = m_in[in][vc];
    if (input.mode != Mode::FORWARDING || input.out != port || input.fifo.IsEmpty() ||
        input.fifo.FrontReady() > slot)
    {
        return 0;
    }
    const uint32_t quiet = m_ports[in]->QuietInputReleases(vc, slot);
    if (quiet == 0)
    {
        return 0;
    }
    bool counted = false;
    const uint32_t n =
        input.fifo.PopFollowing(std::min(max, quiet), first, counted); // (never a Tail)
    m_counters[port][vc].micropacketsOut += n;
    if (n > 0 && counted)
    {
        m_ports[in]->ReleaseInputSpan(vc, n, slot);
    }
    return n;
}

void
GsnSwitch::EndForwarded(uint32_t port, uint8_t vc, uint32_t in)
{
    m_in[in][vc].mode = Mode::DRAINING; // the Message is out of the input
    const GsnSwitchPort& p = *m_ports[port];
    const Time now = gsn::Now();
    if (p.IsChoosingAhead() && p.GetSlotTime() > now)
    {
        // Taken for a later slot of a run: the Message ends in that slot, and what its end
        // allows (the input's next Message, the next grant of this output VC) happens then,
        // as micropacket by micropacket. Until then the output VC stays held.
        Simulator::Schedule(p.GetSlotTime() - now,
                            &GsnSwitch::FinishMessage,
                            this,
                            port,
                            vc,
                            in,
                            m_in[in][vc].dst);
        return;
    }
    FinishMessage(port, vc, in, m_in[in][vc].dst);
}

void
GsnSwitch::ReleaseOutput(uint32_t out, uint8_t vc, uint32_t from, Mac48Address dst)
{
    ++m_counters[out][vc].messagesOut;
    m_forwardTrace(from, out, vc, dst);
    SetOwner(out, vc, -1);
}

void
GsnSwitch::FinishMessage(uint32_t out, uint8_t vc, uint32_t in, Mac48Address dst)
{
    ReleaseOutput(out, vc, in, dst);
    InputVc& input = m_in[in][vc];
    if (input.mode == Mode::DRAINING) // (a reset of the input may have restarted it already)
    {
        input.mode = Mode::IDLE;
        ProcessHead(in, vc); // the input's next Message asks for its output
    }
    Arbitrate(out, vc); // and this output goes to the next waiting input
}

void
GsnSwitch::NotifyPortReset(uint32_t port)
{
    if (port >= m_in.size())
    {
        return;
    }
    // The port's link layer has forgotten its buffer; the micropackets in it are gone.
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        InputVc& input = m_in[port][vc];
        // Messages whose Header is still buffered here (waiting for their output, or queued
        // behind the one forwarded) are gone without anyone downstream knowing: count them.
        input.fifo.ForEachHeader([this, port, vc](const GsnMicropacket& mp) {
            const Mac48Address dst = GsnMessageHeader::PeekDestination(mp.Data());
            ++m_drops[size_t(GsnSwitchDropReason::CUT_BY_RESET)];
            ++m_counters[port][vc].dropsIn;
            m_dropTrace(port, vc, dst, GsnSwitchDropReason::CUT_BY_RESET);
        });
        input.fifo.Clear();
        input.tails = 0;
        if (input.mode == Mode::FORWARDING)
        {
            // Close the Message downstream with an error Tail, so nothing waits for ever.
            GsnMicropacket tail;
            tail.type = uint8_t(GsnMicropacketType::DATA);
            tail.vc = vc;
            tail.tail = true;
            tail.error = true;
            input.fifo.Push(std::move(tail), gsn::Now(), false);
            input.tails = 1;
            WakeOutput(input.out, gsn::Now());
        }
        else
        {
            input.mode = Mode::IDLE;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Admin micropackets (HIPPI-6400-SC) and discovery

Mac48Address
GsnSwitch::AssignedUla(uint32_t port) const
{
    // Locally administered: 02:<element address bytes 2-3>:<port 16 bits>:<element byte 5>.
    uint8_t a[6];
    m_address.CopyTo(a);
    uint8_t b[6] = {0x02, a[2], a[3], uint8_t(port >> 8), uint8_t(port), a[5]};
    Mac48Address ula;
    ula.CopyFrom(b);
    return ula;
}

void
GsnSwitch::LearnEndpoint(uint32_t port, Mac48Address ula, bool assigned)
{
    if (ula.IsBroadcast() || ula == Mac48Address())
    {
        return;
    }
    if (m_assigned[port] && !assigned)
    {
        return; // the endpoint asked for a ULA and uses it; older answers are stale
    }
    if (m_endpointUla[port] != Mac48Address() && m_endpointUla[port] != ula)
    {
        EraseRoute(Key(m_endpointUla[port])); // the endpoint changed its ULA
    }
    m_endpointUla[port] = ula;
    m_assigned[port] = m_assigned[port] || assigned;
    SetRoute(ula, port, 1);
}

void
GsnSwitch::SendAdmin(uint32_t port, const GsnAdminPayload& p)
{
    m_ports[port]->SendAdmin(p.ToMicropacket());
}

void
GsnSwitch::ReceiveAdmin(uint32_t port, const GsnMicropacket& mp)
{
    GsnAdminPayload p = GsnAdminPayload::Deserialize(mp.Data());
    m_adminTrace(port, p);
    if (p.hopCount == 0)
    {
        if (p.response)
        {
            ProcessAdminResponse(port, p);
        }
        else
        {
            ProcessAdminRequest(port, p);
        }
        return;
    }
    // Forward by the recorded path: a request takes the port its originator wrote and
    // leaves its arrival port in its place; a response walks the path back.
    uint32_t out = 0;
    if (!p.response)
    {
        if (p.pathIndex >= GsnAdminPayload::MAX_PATH || p.path[p.pathIndex] >= m_ports.size())
        {
            ++m_adminErrors;
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            SendAdmin(port, p);
            return;
        }
        out = p.path[p.pathIndex];
        if (!m_ports[out]->GetChannel())
        {
            // Nothing there: say so now rather than leave the request unanswered.
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            SendAdmin(port, p);
            return;
        }
        p.path[p.pathIndex] = uint8_t(port);
        ++p.pathIndex;
    }
    else
    {
        if (p.pathIndex == 0 || p.pathIndex > GsnAdminPayload::MAX_PATH ||
            p.path[p.pathIndex - 1] >= m_ports.size())
        {
            ++m_adminErrors; // a response with no way back: dropped
            return;
        }
        --p.pathIndex;
        out = p.path[p.pathIndex];
    }
    --p.hopCount;
    SendAdmin(out, p);
}

void
GsnSwitch::ProcessAdminRequest(uint32_t port, GsnAdminPayload p)
{
    const bool direct = p.pathIndex == 0; // the requester is this port's neighbour
    switch (p.GetCommand())
    {
    case GsnAdminCommand::PING:
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::SET_ELEMENT_ADDRESS:
        m_address = p.ula;
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::RESET:
        // Answer first (the response needs no state), then re-initialise.
        p.MakeResponse(GsnAdminStatus::OK);
        SendAdmin(port, p);
        Reinitialize();
        return;
    case GsnAdminCommand::EXCHANGE_ELEMENT_TYPE:
        if (direct)
        {
            m_neighbor[port] = static_cast<NeighborType>(p.arg[0]);
            if (m_neighbor[port] == NeighborType::ENDPOINT)
            {
                LearnEndpoint(port, p.ula, false);
            }
        }
        p.arg.fill(0);
        p.arg[0] = uint8_t(GsnElementType::SWITCH);
        p.arg[1] = uint8_t(m_ports.size() >> 8); // the map needs its ports
        p.arg[2] = uint8_t(m_ports.size());
        p.port = uint16_t(port); // and which one the way arrived at
        p.ula = m_address;
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::ULA_REQUEST:
        p.ula = AssignedUla(port);
        if (direct)
        {
            LearnEndpoint(port, p.ula, true);
        }
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::READ_REGISTER:
    case GsnAdminCommand::WRITE_REGISTER:
        m_registers.Answer(p, [this](uint16_t reg) -> std::optional<uint64_t> {
            switch (reg)
            {
            case 0:
                return uint64_t(GsnElementType::SWITCH);
            case 1:
                return m_ports.size();
            case 2:
                return uint64_t(m_latency.GetNanoSeconds());
            case 3:
                return m_broadcastCapable ? 1 : 0;
            case 4:
                return m_routeKeys.size();
            case 5:
                return BroadcastMask(0);
            }
            return std::nullopt;
        });
        break;
    case GsnAdminCommand::ULA_LIST_REQUEST:
        SendUlaList(port, p);
        return;
    case GsnAdminCommand::PORT_REMAP:
        if (p.port < m_ports.size())
        {
            SetRoute(p.ula, p.port, 0xFF);
            p.MakeResponse(GsnAdminStatus::OK);
        }
        else
        {
            p.MakeResponse(GsnAdminStatus::BAD_ARGUMENT);
        }
        break;
    case GsnAdminCommand::PORT_MAP_REQUEST: {
        const int32_t route = GetRoute(p.ula);
        p.port = route < 0 ? 0xFFFF : uint16_t(route);
        p.MakeResponse(route < 0 ? GsnAdminStatus::BAD_ARGUMENT : GsnAdminStatus::OK);
        break;
    }
    case GsnAdminCommand::BROADCAST_SETUP:
        p.MakeResponse(SetBroadcastMask(p.port, p.GetArg64()) ? GsnAdminStatus::OK
                                                              : GsnAdminStatus::BAD_ARGUMENT);
        break;
    case GsnAdminCommand::INVALID_COMMAND:
        ++m_adminErrors; // someone reports our request as invalid; nothing to answer
        return;
    default:
        p.MakeInvalidCommandResponse(); // unknown: answer Invalid_command naming the code
        break;
    }
    SendAdmin(port, p);
}

uint64_t
GsnSwitch::BroadcastMask(uint32_t first) const
{
    uint64_t mask = 0;
    for (uint32_t i = 0; i < 64 && first + i < m_ports.size(); ++i)
    {
        mask |= uint64_t(m_inTree[first + i] ? 1 : 0) << i;
    }
    return mask;
}

bool
GsnSwitch::SetBroadcastMask(uint32_t first, uint64_t mask)
{
    // A bit for a port the switch does not have refuses the whole request.
    for (uint32_t i = 0; i < 64; ++i)
    {
        if ((mask >> i & 1) != 0 && first + i >= m_ports.size())
        {
            ++m_adminErrors;
            return false;
        }
    }
    for (uint32_t i = 0; i < 64 && first + i < m_ports.size(); ++i)
    {
        m_inTree[first + i] = (mask >> i & 1) != 0;
    }
    return true;
}

void
GsnSwitch::SendUlaList(uint32_t port, GsnAdminPayload request)
{
    // One response per route (ULA in bytes 8-13, distance in byte 16, index in the port
    // field); "more" is set on all but the last. In ULA order, so that runs are reproducible.
    if (m_routeKeys.empty())
    {
        GsnAdminPayload p = request;
        p.ula = Mac48Address("00:00:00:00:00:00");
        p.port = 0xFFFF;
        p.MakeResponse(GsnAdminStatus::OK);
        SendAdmin(port, p);
        return;
    }
    for (uint32_t i = 0; i < m_routeKeys.size(); ++i)
    {
        const Route route = RouteAt(i);
        GsnAdminPayload p = request;
        uint8_t b[6];
        for (int k = 5; k >= 0; --k)
        {
            b[k] = uint8_t(route.ula >> (8 * (5 - k)));
        }
        p.ula.CopyFrom(b);
        p.port = uint16_t(i);
        p.arg.fill(0);
        // Distance from this switch, or 0xFF when a manager set the route without one.
        p.arg[0] = route.port == port ? 0xFF : route.distance;
        p.more = i + 1 < m_routeKeys.size();
        p.MakeResponse(GsnAdminStatus::OK);
        SendAdmin(port, p);
    }
}

void
GsnSwitch::ProcessAdminResponse(uint32_t port, const GsnAdminPayload& p)
{
    switch (p.GetCommand())
    {
    case GsnAdminCommand::EXCHANGE_ELEMENT_TYPE:
        if (m_discoveryMethod == MAP)
        {
            ProbeAnswered(p);
            break;
        }
        m_neighbor[port] = static_cast<NeighborType>(p.arg[0]);
        if (m_neighbor[port] == NeighborType::ENDPOINT && GetRoute(p.ula) != int32_t(port))
        {
            LearnEndpoint(port, p.ula, false);
            m_discoveryChanged = true;
        }
        break;
    case GsnAdminCommand::ULA_LIST_REQUEST: {
        // Distance-vector step: what the neighbour reaches in d hops, we reach in d + 1.
        if (p.port == 0xFFFF || p.arg[0] == 0xFF || p.ula == m_address)
        {
            break;
        }
        const uint8_t distance = uint8_t(std::min(254, p.arg[0] + 1));
        Route known;
        if (!FindRoute(Key(p.ula), known) || distance < known.distance)
        {
            PutRoute(Route{Key(p.ula), uint16_t(port), distance});
            m_discoveryChanged = true;
        }
        break;
    }
    default:
        break; // responses to requests a user sent through this switch are just traced
    }
}

void
GsnSwitch::Reinitialize()
{
    NS_LOG_INFO(this << " re-initialised" << (m_discovery ? ", discovery restarts" : ""));
    ++m_resets;
    ClearRoutes();
    std::fill(m_neighbor.begin(), m_neighbor.end(), NeighborType::UNKNOWN);
    std::fill(m_inTree.begin(), m_inTree.end(), false);
    std::fill(m_endpointUla.begin(), m_endpointUla.end(), Mac48Address());
    std::fill(m_assigned.begin(), m_assigned.end(), false);
    m_registers = GsnAdminRegisters();
    m_address = m_initialAddress;
    m_discoveryEvent.Cancel();
    m_discoveryComplete = false;
    m_discoveryRounds = 0;
    m_quietRounds = 0;
    m_sweeping = false;
    m_probes.clear();
    m_probesPending = 0;
    m_sweepMap.clear();
    m_map.clear();
    if (m_discovery)
    {
        // As at power-on: links are up already, so the first round may run at once.
        m_discoveryEvent = Simulator::ScheduleNow(&GsnSwitch::DiscoveryRound, this);
    }
}

uint32_t
GsnSwitch::GetResets() const
{
    return m_resets;
}

void
GsnSwitch::StartDiscovery()
{
    m_discoveryEvent.Cancel();
    m_discoveryRounds = 0;
    m_quietRounds = 0;
    m_discoveryComplete = false;
    DiscoveryRound();
}

bool
GsnSwitch::IsDiscoveryComplete() const
{
    return m_discoveryComplete;
}

GsnSwitch::DiscoveryMethod
GsnSwitch::GetDiscoveryMethod() const
{
    return m_discoveryMethod;
}

const std::vector<GsnSwitch::MapElement>&
GsnSwitch::GetMap() const
{
    return m_map;
}

void
GsnSwitch::DiscoveryRound()
{
    if (m_sweeping)
    {
        // A sweep still waiting for answers when the next round is due: abandon it.
        NS_LOG_WARN(this << " discovery sweep unfinished after DiscoveryInterval");
        m_sweeping = false;
        m_probes.clear();
        m_probesPending = 0;
        m_discoveryChanged = true;
    }
    // Knowledge spreads one switch hop per round: discovery ends after DiscoveryQuietRounds
    // rounds in a row changed nothing here (which must exceed the fabric's diameter).
    m_quietRounds = (m_discoveryRounds > 0 && !m_discoveryChanged) ? m_quietRounds + 1 : 0;
    if (m_quietRounds >= m_discoveryQuietRounds)
    {
        m_discoveryComplete = true;
        NS_LOG_INFO(this << " discovery complete after " << m_discoveryRounds << " rounds, "
                         << m_routeKeys.size() << " routes");
        return;
    }
    if (m_discoveryRounds >= m_discoveryMaxRounds)
    {
        NS_LOG_WARN(this << " discovery stopped after " << m_discoveryRounds << " rounds");
        return;
    }
    ++m_discoveryRounds;
    m_discoveryChanged = false;
    m_discoveryEvent = Simulator::Schedule(m_discoveryInterval, &GsnSwitch::DiscoveryRound, this);
    if (m_discoveryMethod == MAP)
    {
        StartSweep();
        return;
    }
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        if (!m_ports[port]->GetChannel())
        {
            continue;
        }
        GsnAdminPayload p;
        p.transaction = m_nextTransaction++;
        if (m_neighbor[port] == NeighborType::UNKNOWN)
        {
            p.command = uint8_t(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE);
            p.arg[0] = uint8_t(GsnElementType::SWITCH);
            p.ula = m_address;
            m_discoveryChanged = true; // not done while a neighbour is unknown
        }
        else if (m_neighbor[port] == NeighborType::SWITCH)
        {
            p.command = uint8_t(GsnAdminCommand::ULA_LIST_REQUEST);
        }
        else
        {
            continue;
        }
        SendAdmin(port, p);
    }
}

// ---------------------------------------------------------------------------------------
// Map discovery (seed 000: "The switch sends one such request to each hop ... down each of
// its links until an endpoint is reached ... the switch constructs a map (spanning tree) of
// its fabric"). A sweep probes breadth first, one level of hops at a time, so that each
// element enters the map by a shortest way; within a level the answers are taken in the
// order the probes were sent, so that the map does not depend on arrival order.

void
GsnSwitch::StartSweep()
{
    m_sweeping = true;
    m_probes.clear();
    m_probesPending = 0;
    MapElement self;
    self.type = GsnElementType::SWITCH;
    self.address = m_address;
    self.nPorts = uint32_t(m_ports.size());
    m_sweepMap.assign(1, self);
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        if (m_ports[port]->GetChannel())
        {
            SendProbe(port, {}, 0, port);
        }
    }
    if (m_probesPending == 0)
    {
        FinishSweep();
    }
}

void
GsnSwitch::SendProbe(uint32_t first,
                     const std::vector<uint8_t>& path,
                     int32_t parent,
                     uint32_t parentPort)
{
    GsnAdminPayload p;
    p.command = uint8_t(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE);
    p.transaction = m_nextTransaction++;
    p.hopCount = uint8_t(path.size());
    std::copy(path.begin(), path.end(), p.path.begin());
    p.arg[0] = uint8_t(GsnElementType::SWITCH);
    p.ula = m_address;
    Probe& probe = m_probes[p.transaction];
    probe.found.firstPort = first;
    probe.found.path = path;
    probe.found.parent = parent;
    probe.found.parentPort = parentPort;
    ++m_probesPending;
    SendAdmin(first, p);
}

void
GsnSwitch::ProbeAnswered(const GsnAdminPayload& p)
{
    auto it = m_probes.find(p.transaction);
    if (!m_sweeping || it == m_probes.end() || it->second.answered)
    {
        return; // an answer to an abandoned sweep, or not ours
    }
    it->second.answered = true;
    it->second.response = p;
    if (--m_probesPending == 0)
    {
        FinishLevel();
    }
}

void
GsnSwitch::FinishLevel()
{
    std::map<uint32_t, Probe> level;
    level.swap(m_probes);
    for (const auto& entry : level)
    {
        const Probe& probe = entry.second;
        const GsnAdminPayload& r = probe.response;
        if (r.status != uint8_t(GsnAdminStatus::OK))
        {
            continue; // nothing there
        }
        MapElement e = probe.found;
        e.type = static_cast<GsnElementType>(r.arg[0]);
        e.address = r.ula;
        if (e.type != GsnElementType::SWITCH && e.type != GsnElementType::ENDPOINT)
        {
            continue;
        }
        e.nPorts = e.type == GsnElementType::SWITCH ? uint32_t(r.arg[1]) << 8 | r.arg[2] : 1;
        e.arrivalPort = e.type == GsnElementType::SWITCH ? r.port : 0;
        const bool known =
            std::any_of(m_sweepMap.begin(), m_sweepMap.end(), [&e](const MapElement& m) {
                return m.type == e.type && m.address == e.address;
            });
        if (known)
        {
            continue; // reached again by another way of the same length or longer: a cycle
        }
        m_sweepMap.push_back(e);
        if (e.type != GsnElementType::SWITCH)
        {
            continue;
        }
        if (e.path.size() >= GsnAdminPayload::MAX_PATH)
        {
            NS_LOG_WARN(this << " discovery: elements beyond " << e.address
                             << " are more hops away than an Admin path holds");
            continue;
        }
        const int32_t index = int32_t(m_sweepMap.size() - 1);
        for (uint32_t k = 0; k < e.nPorts && k <= 0xFF; ++k)
        {
            if (k != e.arrivalPort)
            {
                std::vector<uint8_t> path = e.path;
                path.push_back(uint8_t(k));
                SendProbe(e.firstPort, path, index, k);
            }
        }
    }
    if (m_probesPending == 0)
    {
        FinishSweep();
    }
}

void
GsnSwitch::FinishSweep()
{
    m_sweeping = false;
    m_map = m_sweepMap;
    // Routes: each endpoint of the map by the port its way starts at.
    std::vector<uint64_t> before = m_routeKeys;
    ClearRoutes();
    std::fill(m_neighbor.begin(), m_neighbor.end(), NeighborType::UNKNOWN);
    for (const MapElement& e : m_map)
    {
        if (e.parent == 0)
        {
            m_neighbor[e.firstPort] = e.type;
        }
        if (e.type == GsnElementType::ENDPOINT && e.parent >= 0)
        {
            PutRoute(Route{Key(e.address), uint16_t(e.firstPort), uint8_t(e.path.size() + 1)});
            if (e.parent == 0)
            {
                m_endpointUla[e.firstPort] = e.address;
            }
        }
    }
    if (m_routeKeys != before)
    {
        m_discoveryChanged = true;
    }
    // The root of the broadcast tree: the switch of lowest element address in the map.
    bool root = true;
    for (const MapElement& e : m_map)
    {
        if (e.type == GsnElementType::SWITCH && e.address < m_address)
        {
            root = false;
        }
    }
    if (root)
    {
        SetUpBroadcastFromMap();
    }
}

void
GsnSwitch::SetUpBroadcastFromMap()
{
    // The map's spanning tree: every link an element was found by, at both ends.
    std::vector<std::vector<uint8_t>> tree(m_map.size());
    for (uint32_t i = 0; i < m_map.size(); ++i)
    {
        tree[i].assign(m_map[i].type == GsnElementType::SWITCH ? m_map[i].nPorts : 0, 0);
    }
    for (uint32_t i = 1; i < m_map.size(); ++i)
    {
        const MapElement& e = m_map[i];
        tree[e.parent][e.parentPort] = 1;
        if (e.type == GsnElementType::SWITCH)
        {
            tree[i][e.arrivalPort] = 1;
        }
    }
    // Sent after every sweep, not only when the tree changed, so that a switch reset while
    // discovery runs gets its part again.
    for (uint32_t i = 0; i < m_map.size(); ++i)
    {
        const MapElement& e = m_map[i];
        for (uint32_t base = 0; base < tree[i].size(); base += 64)
        {
            uint64_t mask = 0;
            for (uint32_t k = 0; k < 64 && base + k < tree[i].size(); ++k)
            {
                mask |= uint64_t(tree[i][base + k]) << k;
            }
            if (i == 0)
            {
                SetBroadcastMask(base, mask); // this switch: no micropacket needed
                continue;
            }
            GsnAdminPayload p;
            p.command = uint8_t(GsnAdminCommand::BROADCAST_SETUP);
            p.transaction = m_nextTransaction++;
            p.hopCount = uint8_t(e.path.size());
            std::copy(e.path.begin(), e.path.end(), p.path.begin());
            p.port = uint16_t(base);
            p.SetArg64(mask);
            SendAdmin(e.firstPort, p);
        }
    }
}

} // namespace ns3
