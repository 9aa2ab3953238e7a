/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-up-down-routing.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{

/// Cost of a switch with no legal route to the destination.
constexpr int32_t UNREACHABLE = std::numeric_limits<int32_t>::max();

/// Sources per SwitchDistances() call when every switch is a source (bounds memory).
constexpr std::size_t BFS_BATCH = 64;

} // namespace

GsnUpDownRouting::GsnUpDownRouting() = default;

GsnUpDownRouting::GsnUpDownRouting(std::vector<uint32_t> roots)
    : m_roots(std::move(roots))
{
}

void
GsnUpDownRouting::SetRoot(uint32_t sw)
{
    m_roots = {sw};
}

void
GsnUpDownRouting::SetRoots(std::vector<uint32_t> roots)
{
    m_roots = std::move(roots);
}

const std::vector<uint32_t>&
GsnUpDownRouting::GetRoots() const
{
    return m_roots;
}

std::string
GsnUpDownRouting::GetName() const
{
    return "UpDown";
}

bool
GsnUpDownRouting::IsUp(const std::vector<int32_t>& levels, uint32_t from, uint32_t to)
{
    return std::make_pair(levels[to], to) < std::make_pair(levels[from], from);
}

std::vector<uint32_t>
GsnUpDownRouting::AutomaticRoots(const GsnTopology& t)
{
    const auto switches = t.GetSwitches();
    // Endpoints per switch, for the total distance to the endpoints.
    std::vector<uint32_t> endpointsOn(t.GetNElements(), 0);
    for (uint32_t e : t.GetEndpoints())
    {
        const auto peer = t.GetPeer(e, 0);
        if (peer && t.IsSwitch(peer->first))
        {
            ++endpointsOn[peer->first];
        }
    }
    // Per switch: (component label = smallest switch id it reaches, key to minimise).
    using Key = std::tuple<int32_t, uint64_t, uint32_t>; // eccentricity, distance sum, id
    std::vector<uint32_t> label(t.GetNElements(), 0);
    std::vector<Key> key(t.GetNElements());
    for (std::size_t first = 0; first < switches.size(); first += BFS_BATCH)
    {
        const std::vector<uint32_t> batch(switches.begin() + first,
                                          switches.begin() +
                                              std::min(switches.size(), first + BFS_BATCH));
        const auto dist = SwitchDistances(t, batch);
        for (std::size_t i = 0; i < batch.size(); ++i)
        {
            int32_t eccentricity = 0;
            uint64_t sum = 0;
            uint32_t smallest = batch[i];
            for (uint32_t s : switches)
            {
                const int32_t d = dist[i][s];
                if (d < 0)
                {
                    continue;
                }
                eccentricity = std::max(eccentricity, d);
                sum += uint64_t(d + 1) * endpointsOn[s];
                smallest = std::min(smallest, s);
            }
            label[batch[i]] = smallest;
            key[batch[i]] = Key{eccentricity, sum, batch[i]};
        }
    }
    std::vector<uint32_t> roots;
    for (uint32_t s : switches)
    {
        if (label[s] != s)
        {
            continue; // s is not the first switch of its component
        }
        uint32_t best = s;
        for (uint32_t o : switches)
        {
            if (label[o] == s && key[o] < key[best])
            {
                best = o;
            }
        }
        roots.push_back(best);
    }
    return roots;
}

std::vector<uint32_t>
GsnUpDownRouting::ChooseRoots(const GsnTopology& t) const
{
    if (m_roots.empty())
    {
        return AutomaticRoots(t);
    }
    for (uint32_t r : m_roots)
    {
        if (!t.IsSwitch(r))
        {
            throw std::invalid_argument("UpDown: root " + std::to_string(r) +
                                        " is not a switch of the fabric");
        }
    }
    return m_roots;
}

std::vector<int32_t>
GsnUpDownRouting::ComputeLevels(const GsnTopology& t) const
{
    const auto roots = ChooseRoots(t);
    std::vector<int32_t> levels(t.GetNElements(), -1);
    for (const auto& dist : SwitchDistances(t, roots))
    {
        for (uint32_t s = 0; s < dist.size(); ++s)
        {
            if (dist[s] >= 0 && (levels[s] < 0 || dist[s] < levels[s]))
            {
                levels[s] = dist[s];
            }
        }
    }
    return levels;
}

void
GsnUpDownRouting::ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const
{
    const auto levels = ComputeLevels(t);
    std::vector<int32_t> column(t.GetNElements(), -1);
    const auto rank = EndpointRanks(t);
    const auto nearCount = NearestEndpointCounts(t);
    const auto links = SwitchLinks(t);

    // The switches with a level, from the top down; an up neighbour comes before a switch.
    std::vector<uint32_t> order;
    for (uint32_t s : t.GetSwitches())
    {
        if (levels[s] >= 0)
        {
            order.push_back(s);
        }
    }
    std::sort(order.begin(), order.end(), [&levels](uint32_t a, uint32_t b) {
        return std::make_pair(levels[a], a) < std::make_pair(levels[b], b);
    });

    // Directed graph of the up hops. A BFS on it from a switch x finds, for every switch s,
    // the fewest down hops from s to x (the BFS walks those hops backwards).
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph up(t.GetNElements());
    for (const auto& c : t.GetCables())
    {
        if (levels.at(c.a) >= 0 && levels.at(c.b) >= 0 && t.IsSwitch(c.a) && t.IsSwitch(c.b))
        {
            IsUp(levels, c.a, c.b) ? boost::add_edge(c.a, c.b, up) : boost::add_edge(c.b, c.a, up);
        }
    }

    std::vector<std::vector<uint32_t>> endpointsOn(t.GetNElements());
    for (uint32_t e : t.GetEndpoints())
    {
        const auto peer = t.GetPeer(e, 0);
        if (peer && t.IsSwitch(peer->first))
        {
            endpointsOn[peer->first].push_back(e);
        }
    }

    std::vector<int32_t> down(t.GetNElements());
    std::vector<int32_t> cost(t.GetNElements());
    std::vector<uint32_t> candidates;
    for (uint32_t target : order)
    {
        const auto& endpoints = endpointsOn[target];
        if (endpoints.empty())
        {
            continue;
        }
        std::fill(down.begin(), down.end(), -1);
        down[target] = 0;
        boost::breadth_first_search(
            up,
            boost::vertex(target, up),
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(down.data(), boost::on_tree_edge()))));
        // Length of the route the tables give: down when possible, else the best up hop.
        for (uint32_t s : order)
        {
            cost[s] = down[s] >= 0 ? down[s] : UNREACHABLE;
            if (cost[s] != UNREACHABLE)
            {
                continue;
            }
            for (auto [it, end] = boost::adjacent_vertices(s, up); it != end; ++it)
            {
                if (cost[*it] != UNREACHABLE)
                {
                    cost[s] = std::min(cost[s], cost[*it] + 1);
                }
            }
        }
        for (uint32_t e : endpoints)
        {
            const uint32_t attachPort = t.GetPeer(e, 0)->second;
            for (uint32_t s : order)
            {
                column[s] = -1;
                if (s == target)
                {
                    column[s] = static_cast<int32_t>(attachPort);
                    continue;
                }
                if (cost[s] == UNREACHABLE)
                {
                    continue;
                }
                const bool goDown = down[s] >= 0;
                candidates.clear();
                for (const auto& [port, next] : links[s])
                {
                    if (IsUp(levels, s, next) == goDown)
                    {
                        continue;
                    }
                    const int32_t nextCost = goDown ? down[next] : cost[next];
                    if (nextCost >= 0 && nextCost == cost[s] - 1)
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
    }
}

} // namespace ns3
