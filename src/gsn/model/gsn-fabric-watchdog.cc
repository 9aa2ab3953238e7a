/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-fabric-watchdog.h"

#include "gsn-channel.h"
#include "gsn-constants.h"
#include "gsn-switch-port.h"
#include "gsn-switch.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnFabricWatchdog");

NS_OBJECT_ENSURE_REGISTERED(GsnFabricWatchdog);

TypeId
GsnFabricWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnFabricWatchdog")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnFabricWatchdog>()
            .AddAttribute(
                "Enabled",
                "Whether the periodic deadlock check runs.",
                BooleanValue(true),
                MakeBooleanAccessor(&GsnFabricWatchdog::SetEnabled, &GsnFabricWatchdog::IsEnabled),
                MakeBooleanChecker())
            .AddAttribute("CheckInterval",
                          "Time between two checks (one event each).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&GsnFabricWatchdog::m_checkInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IdleCheckInterval",
                          "Longest time between two checks while no switch output holds a "
                          "Message: each check that finds the fabric idle doubles the "
                          "interval up to this, and the first one that finds a Message held "
                          "goes back to CheckInterval (so a sparse run of simulated hours costs "
                          "a few checks per second, and a deadlock after an idle stretch is "
                          "reported at most this much later).",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&GsnFabricWatchdog::m_idleCheckInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("StallTime",
                          "How long a switch output VC holding a Message must send no "
                          "micropacket to count as stalled. Keep it above the time credits "
                          "may take to come back (AckDelay, go-back-N recovery).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&GsnFabricWatchdog::m_stallTime),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Deadlock",
                            "A deadlock was found: its cycle of (switch node id, output "
                            "port, VC), each waiting for the next.",
                            MakeTraceSourceAccessor(&GsnFabricWatchdog::m_deadlockTrace),
                            "ns3::GsnFabricWatchdog::DeadlockTracedCallback");
    return tid;
}

GsnFabricWatchdog::GsnFabricWatchdog()
    : m_enabled(true)
{
    NS_LOG_FUNCTION(this);
}

GsnFabricWatchdog::~GsnFabricWatchdog()
{
    NS_LOG_FUNCTION(this);
}

void
GsnFabricWatchdog::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_switches.clear();
    Object::DoDispose();
}

void
GsnFabricWatchdog::SetEnabled(bool enabled)
{
    m_enabled = enabled;
    if (!enabled)
    {
        m_event.Cancel();
    }
    else
    {
        m_nextInterval = Time(0);
        ScheduleCheck();
    }
}

bool
GsnFabricWatchdog::IsEnabled() const
{
    return m_enabled;
}

void
GsnFabricWatchdog::Watch(const std::vector<Ptr<GsnSwitch>>& switches,
                         const std::vector<std::string>& names)
{
    NS_LOG_FUNCTION(this << switches.size());
    m_event.Cancel();
    m_switches = switches;
    m_names.assign(switches.size(), "");
    m_first.clear();
    m_peerSwitch.clear();
    m_peerPort.clear();
    m_nodeIds.clear();
    std::map<const GsnSwitch*, int32_t> indexOf;
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        indexOf[PeekPointer(switches[s])] = int32_t(s);
        Ptr<Node> node = switches[s]->GetObject<Node>();
        m_nodeIds.push_back(node ? node->GetId() : UINT32_MAX);
        m_names[s] = s < names.size() && !names[s].empty() ? names[s]
                                                           : "node" + std::to_string(m_nodeIds[s]);
    }
    uint32_t vertices = 0;
    for (const Ptr<GsnSwitch>& sw : switches)
    {
        m_first.push_back(vertices);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            // The far end of each cable, looked up once: the checks only follow indices.
            int32_t peerSwitch = -1;
            uint32_t peerPort = 0;
            Ptr<GsnSwitchPort> port = sw->GetPort(p);
            Ptr<GsnChannel> channel = port->GetCable();
            Ptr<GsnSwitchPort> peer =
                channel ? DynamicCast<GsnSwitchPort>(channel->GetPeer(port)) : nullptr;
            if (peer)
            {
                auto it = indexOf.find(PeekPointer(peer->GetNode()->GetObject<GsnSwitch>()));
                if (it != indexOf.end())
                {
                    peerSwitch = it->second;
                    peerPort = peer->GetPortIndex();
                }
            }
            m_peerSwitch.push_back(peerSwitch);
            m_peerPort.push_back(peerPort);
        }
        vertices += sw->GetNPorts() * gsn::NUM_VCS;
    }
    m_vertices.assign(vertices, Vertex{});
    m_nextInterval = Time(0); // every CheckInterval until a check finds the fabric idle
    const Time now = Simulator::Now();
    for (Vertex& v : m_vertices)
    {
        v.stillSince = now.GetTimeStep();
    }
    ScheduleCheck();
}

void
GsnFabricWatchdog::ScheduleCheck()
{
    if (m_enabled && !m_switches.empty() && !m_event.IsRunning())
    {
        // The event holds a reference: the watchdog lives as long as it checks, even if
        // whoever made it lets go of it.
        m_event = Simulator::Schedule(m_nextInterval.IsStrictlyPositive() ? m_nextInterval
                                                                          : m_checkInterval,
                                      &GsnFabricWatchdog::PeriodicCheck,
                                      Ptr<GsnFabricWatchdog>(this));
    }
}

void
GsnFabricWatchdog::PeriodicCheck()
{
    m_event = EventId();
    Check();
    // Idle (no output holds a Message): check less and less often; busy: every CheckInterval.
    const Time current = m_nextInterval.IsStrictlyPositive() ? m_nextInterval : m_checkInterval;
    m_nextInterval = m_held > 0
                         ? m_checkInterval
                         : std::max(m_checkInterval, std::min(2 * current, m_idleCheckInterval));
    // Alone in the simulator, go on only while a held output may still turn out stalled:
    // a deadlock is then reported, and Simulator::Run() still returns.
    if (Simulator::IsFinished() && m_mayStall == 0)
    {
        NS_LOG_LOGIC("nothing else is scheduled and nothing may still stall: checks stop");
        return;
    }
    ScheduleCheck();
}

void
GsnFabricWatchdog::Check()
{
    NS_LOG_FUNCTION(this);
    ++m_checks;
    m_mayStall = 0;
    m_held = 0;
    const Time now = Simulator::Now();
    std::vector<uint32_t> stalled;

    // Which held output VCs sent nothing for StallTime.
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const GsnSwitch& sw = *m_switches[s];
        const uint32_t nPorts = sw.GetNPorts();
        for (uint32_t p = 0; p < nPorts; ++p)
        {
            for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
            {
                const uint32_t i = m_first[s] + p * gsn::NUM_VCS + vc;
                Vertex& v = m_vertices[i];
                const uint64_t sent = sw.GetCounters(p, vc).micropacketsOut;
                v.next = -1;
                const bool held = sw.GetOutputOwner(p, vc) >= 0;
                m_held += held;
                if (!held || sent != v.sent)
                {
                    // Free, or moving: the stall clock restarts.
                    v.sent = sent;
                    v.stillSince = now.GetTimeStep();
                    v.stalled = false;
                    v.reported = false;
                    m_mayStall += held;
                    continue;
                }
                if (now - TimeStep(v.stillSince) < m_stallTime)
                {
                    ++m_mayStall;
                    continue;
                }
                if (!v.stalled)
                {
                    v.stalled = true;
                    ++m_stalls;
                    NS_LOG_INFO(m_names[s] << ":p" << p << "/vc" << unsigned(vc)
                                           << " stalled since "
                                           << TimeStep(v.stillSince).As(Time::US));
                }
                stalled.push_back(i);
            }
        }
    }
    if (stalled.empty())
    {
        return;
    }

    // The wait-for edges: a stalled output without credits waits for the input buffer at
    // the far end, which waits for the output its head Message is bound to.
    for (uint32_t i : stalled)
    {
        const uint32_t s =
            uint32_t(std::upper_bound(m_first.begin(), m_first.end(), i) - m_first.begin()) - 1;
        const uint32_t p = (i - m_first[s]) / gsn::NUM_VCS;
        const uint8_t vc = uint8_t((i - m_first[s]) % gsn::NUM_VCS);
        const uint32_t link = m_first[s] / gsn::NUM_VCS + p;
        const int32_t peer = m_peerSwitch[link];
        Ptr<GsnSwitchPort> port = m_switches[s]->GetPort(p);
        if (peer < 0 || port->GetTxCredits(vc) > 0 || !port->IsLinkUp())
        {
            NS_LOG_LOGIC(m_names[s] << ":p" << p << "/vc" << unsigned(vc) << " peer " << peer
                                    << " credits " << port->GetTxCredits(vc));
            continue;
        }
        const int32_t out = m_switches[peer]->GetInputHeadOutput(m_peerPort[link], vc);
        if (out < 0)
        {
            NS_LOG_LOGIC(m_names[s] << ":p" << p << "/vc" << unsigned(vc) << " head of "
                                    << m_names[peer] << ":p" << m_peerPort[link]
                                    << " bound for no output");
            continue;
        }
        const uint32_t j = m_first[peer] + uint32_t(out) * gsn::NUM_VCS + vc;
        NS_LOG_LOGIC(m_names[s] << ":p" << p << "/vc" << unsigned(vc) << " -> " << m_names[peer]
                                << ":p" << out << (m_vertices[j].stalled ? "" : " (moving)"));
        if (m_vertices[j].stalled)
        {
            m_vertices[i].next = int32_t(j);
        }
    }

    // Each vertex has at most one edge: walking from every vertex not yet reached finds
    // every cycle, each vertex reached once per check.
    const uint64_t firstWalk = m_walks + 1;
    for (uint32_t start : stalled)
    {
        if (m_vertices[start].walk >= firstWalk)
        {
            continue;
        }
        const uint64_t walk = ++m_walks;
        int32_t i = int32_t(start);
        while (i >= 0 && m_vertices[i].walk < firstWalk)
        {
            m_vertices[i].walk = walk;
            i = m_vertices[i].next;
        }
        if (i < 0 || m_vertices[i].walk != walk)
        {
            continue; // ends outside a cycle, or joins a walk seen before
        }
        std::vector<uint32_t> cycle;
        bool seen = false;
        const uint32_t entry = uint32_t(i);
        uint32_t k = entry;
        do
        {
            cycle.push_back(k);
            seen = seen || m_vertices[k].reported;
            k = uint32_t(m_vertices[k].next);
        } while (k != entry);
        if (!seen)
        {
            Report(cycle);
        }
    }
}

GsnFabricWatchdog::Hop
GsnFabricWatchdog::HopOf(uint32_t v) const
{
    const uint32_t s =
        uint32_t(std::upper_bound(m_first.begin(), m_first.end(), v) - m_first.begin()) - 1;
    return Hop{m_nodeIds[s],
               (v - m_first[s]) / gsn::NUM_VCS,
               uint8_t((v - m_first[s]) % gsn::NUM_VCS)};
}

void
GsnFabricWatchdog::Report(const std::vector<uint32_t>& cycle)
{
    // Start at the smallest vertex, so that the same deadlock reads the same every time.
    std::vector<uint32_t> ordered(cycle);
    std::rotate(ordered.begin(), std::min_element(ordered.begin(), ordered.end()), ordered.end());
    std::vector<Hop> hops;
    for (uint32_t v : ordered)
    {
        m_vertices[v].reported = true;
        hops.push_back(HopOf(v));
    }
    ++m_deadlocks;
    m_cycles.push_back(hops);
    std::ostringstream nodes;
    for (const Hop& h : hops)
    {
        nodes << (&h == &hops.front() ? "" : " ") << h.node;
    }
    const std::string description = DescribeCycle(hops);
    NS_LOG_WARN("deadlock: " << hops.size() << " switch outputs wait in a cycle: " << description);
    std::cerr << "GsnFabricWatchdog: deadlock at " << Simulator::Now().As(Time::US) << ": "
              << hops.size() << " switch outputs wait in a cycle (switch:port/VC, each for "
              << "the next one's input buffer): " << description << " (nodes " << nodes.str() << ")"
              << std::endl;
    m_deadlockTrace(hops);
}

std::string
GsnFabricWatchdog::DescribeCycle(const std::vector<Hop>& cycle) const
{
    std::ostringstream os;
    auto name = [this](const Hop& h) {
        for (uint32_t s = 0; s < m_nodeIds.size(); ++s)
        {
            if (m_nodeIds[s] == h.node)
            {
                return m_names[s];
            }
        }
        return "node" + std::to_string(h.node);
    };
    for (const Hop& h : cycle)
    {
        os << name(h) << ":p" << h.port << "/vc" << unsigned(h.vc) << " -> ";
    }
    if (!cycle.empty())
    {
        os << name(cycle.front()) << ":p" << cycle.front().port << "/vc"
           << unsigned(cycle.front().vc);
    }
    return os.str();
}

} // namespace ns3
