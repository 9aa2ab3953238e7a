/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-min-hop-routing.h"

namespace ns3
{

std::string
GsnMinHopRouting::GetName() const
{
    return "MinHop";
}

GsnRoutingTables
GsnMinHopRouting::Compute(const GsnTopology& t) const
{
    GsnRoutingTables tables = EmptyTables(t);
    const auto switches = t.GetSwitches();
    const auto rank = EndpointRanks(t);
    const auto nearCount = NearestEndpointCounts(t);
    const auto links = SwitchLinks(t);

    // Endpoints on the same switch share their distances: one BFS per such switch.
    std::vector<uint32_t> attach;
    std::vector<int32_t> attachIndex(t.GetNElements(), -1);
    for (uint32_t e : t.GetEndpoints())
    {
        const auto peer = t.GetPeer(e, 0);
        if (peer && t.IsSwitch(peer->first) && attachIndex[peer->first] < 0)
        {
            attachIndex[peer->first] = static_cast<int32_t>(attach.size());
            attach.push_back(peer->first);
        }
    }
    const auto dist = SwitchDistances(t, attach);

    std::vector<uint32_t> candidates;
    for (uint32_t e : t.GetEndpoints())
    {
        const auto peer = t.GetPeer(e, 0);
        if (!peer || !t.IsSwitch(peer->first))
        {
            continue;
        }
        const auto& d = dist[attachIndex[peer->first]];
        for (uint32_t s : switches)
        {
            if (s == peer->first)
            {
                tables.port[s][e] = static_cast<int32_t>(peer->second);
                continue;
            }
            if (d[s] < 0)
            {
                continue;
            }
            candidates.clear();
            for (const auto& [port, next] : links[s])
            {
                if (d[next] == d[s] - 1)
                {
                    candidates.push_back(port);
                }
            }
            const auto pick =
                SpreadChoice(rank[e], nearCount[s], static_cast<uint32_t>(candidates.size()));
            tables.port[s][e] = static_cast<int32_t>(candidates[pick]);
        }
    }
    return tables;
}

} // namespace ns3
