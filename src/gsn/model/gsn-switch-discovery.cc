/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Discovery: rounds that fill the routing table from Admin micropackets, either by
// distance vector (neighbours' ULA lists) or by map sweeps (probes hop by hop, the map,
// routes along it and the broadcast tree set up from it), and the responses they wait for.
// (GsnSwitch is written in several files, one per role; see gsn-switch.cc for the list.)
#include "gsn-switch-port.h"
#include "gsn-switch-private.h"

#include "ns3/channel.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_SWITCH_LOG();

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
