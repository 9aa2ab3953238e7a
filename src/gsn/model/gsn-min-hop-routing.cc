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

void
GsnMinHopRouting::ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const
{
    std::vector<int32_t> column(t.GetNElements(), -1);
    const auto switches = t.GetSwitches();
    const auto rank = EndpointRanks(t);
    const auto nearCount = NearestEndpointCounts(t);
    const auto links = SwitchLinks(t);

    // Endpoints on the same switch share their distances: one BFS per such switch, one at a
    // time.
    std::vector<uint32_t> attach;
    std::vector<std::vector<uint32_t>> endpointsOn(t.GetNElements());
    for (uint32_t e : t.GetEndpoints())
    {
        const auto peer = t.GetPeer(e, 0);
        if (peer && t.IsSwitch(peer->first))
        {
            if (endpointsOn[peer->first].empty())
            {
                attach.push_back(peer->first);
            }
            endpointsOn[peer->first].push_back(e);
        }
    }

    std::vector<uint32_t> candidates;
    ForEachSwitchDistances(t, attach, [&](uint32_t i, const std::vector<int32_t>& d) {
        const uint32_t target = attach[i];
        for (uint32_t e : endpointsOn[target])
        {
            for (uint32_t s : switches)
            {
                column[s] = -1;
                if (s == target)
                {
                    column[s] = static_cast<int32_t>(t.GetPeer(e, 0)->second);
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
                column[s] = static_cast<int32_t>(candidates[pick]);
            }
            sink(e, column);
        }
    });
}

} // namespace ns3
