/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-routing.h"

#include "gsn-deadlock-checker.h"
#include "gsn-dimension-order-routing.h"
#include "gsn-min-hop-routing.h"
#include "gsn-up-down-routing.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>
#include <stdexcept>

namespace ns3
{

int32_t
GsnRoutingTables::Get(uint32_t sw, uint32_t endpoint) const
{
    if (sw >= port.size() || endpoint >= port[sw].size())
    {
        return -1;
    }
    return port[sw][endpoint];
}

std::vector<std::pair<uint32_t, uint32_t>>
GsnRoutingTables::Route(const GsnTopology& t, uint32_t src, uint32_t dst) const
{
    std::vector<std::pair<uint32_t, uint32_t>> hops;
    if (src == dst || !t.IsEndpoint(src) || !t.IsEndpoint(dst))
    {
        return hops;
    }
    uint32_t element = src;
    uint32_t out = 0;
    // A loop-free route visits each element at most once.
    for (uint32_t n = 0; n < t.GetNElements(); ++n)
    {
        hops.emplace_back(element, out);
        const auto peer = t.GetPeer(element, out);
        if (!peer)
        {
            break;
        }
        element = peer->first;
        if (element == dst)
        {
            return hops;
        }
        if (!t.IsSwitch(element))
        {
            break;
        }
        const int32_t next = Get(element, dst);
        if (next < 0)
        {
            break;
        }
        out = static_cast<uint32_t>(next);
    }
    return {};
}

GsnRouting::~GsnRouting() = default;

GsnRoutingTables
GsnRouting::Compute(const GsnTopology& t) const
{
    GsnRoutingTables tables = EmptyTables(t);
    const auto switches = t.GetSwitches();
    ComputeColumns(t, [&](uint32_t e, const std::vector<int32_t>& column) {
        for (uint32_t s : switches)
        {
            tables.port[s][e] = column[s];
        }
    });
    return tables;
}

namespace
{

/**
 * "Auto": the first algorithm, in order of preference, whose tables are deadlock-free on the
 * given fabric. MinHop keeps every path shortest and balances fat trees; DimensionOrder is
 * shortest and acyclic on meshes; UpDown is acyclic everywhere.
 */
class GsnAutoRouting : public GsnRouting
{
  public:
    std::string GetName() const override
    {
        return "Auto";
    }

    void ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const override
    {
        for (const char* name : {"MinHop", "DimensionOrder"})
        {
            // Judged column by column, then computed again for the sink: the whole tables
            // are never held.
            const auto algorithm = Create(name);
            GsnDeadlockChecker checker(t);
            try
            {
                algorithm->ComputeColumns(t, [&checker](uint32_t e, const auto& column) {
                    checker.AddRoutes(e, column);
                });
            }
            catch (const std::invalid_argument&)
            {
                continue; // not applicable to this fabric: try the next one
            }
            if (checker.FindCycle().empty())
            {
                algorithm->ComputeColumns(t, sink);
                return;
            }
        }
        GsnUpDownRouting().ComputeColumns(t, sink);
    }
};

} // namespace

std::unique_ptr<GsnRouting>
GsnRouting::Create(const std::string& name)
{
    if (name == "MinHop")
    {
        return std::make_unique<GsnMinHopRouting>();
    }
    if (name == "UpDown")
    {
        return std::make_unique<GsnUpDownRouting>();
    }
    if (name == "DimensionOrder")
    {
        return std::make_unique<GsnDimensionOrderRouting>();
    }
    if (name == "Auto")
    {
        return std::make_unique<GsnAutoRouting>();
    }
    std::string known;
    for (const auto& n : GetNames())
    {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("unknown routing algorithm '" + name + "' (known: " + known + ")");
}

std::vector<std::string>
GsnRouting::GetNames()
{
    return {"MinHop", "UpDown", "DimensionOrder", "Auto"};
}

GsnRoutingTables
GsnRouting::EmptyTables(const GsnTopology& t)
{
    GsnRoutingTables tables;
    tables.port.resize(t.GetNElements());
    for (uint32_t s : t.GetSwitches())
    {
        tables.port[s].assign(t.GetNElements(), -1);
    }
    return tables;
}

void
GsnRouting::ForEachSwitchDistances(
    const GsnTopology& t,
    const std::vector<uint32_t>& sources,
    const std::function<void(uint32_t i, const std::vector<int32_t>& dist)>& f)
{
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    const uint32_t n = t.GetNElements();
    Graph g(n);
    for (const auto& c : t.GetCables())
    {
        if (t.IsSwitch(c.a) && t.IsSwitch(c.b))
        {
            boost::add_edge(c.a, c.b, g);
        }
    }
    std::vector<int32_t> dist(n);
    for (uint32_t i = 0; i < sources.size(); ++i)
    {
        const uint32_t s = sources[i];
        std::fill(dist.begin(), dist.end(), -1);
        if (t.IsSwitch(s))
        {
            dist[s] = 0;
            boost::breadth_first_search(
                g,
                boost::vertex(s, g),
                boost::visitor(boost::make_bfs_visitor(
                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
        }
        f(i, dist);
    }
}

std::vector<std::vector<int32_t>>
GsnRouting::SwitchDistances(const GsnTopology& t, const std::vector<uint32_t>& sources)
{
    std::vector<std::vector<int32_t>> result;
    result.reserve(sources.size());
    ForEachSwitchDistances(t, sources, [&result](uint32_t, const std::vector<int32_t>& dist) {
        result.push_back(dist);
    });
    return result;
}

std::vector<std::vector<std::pair<uint32_t, uint32_t>>>
GsnRouting::SwitchLinks(const GsnTopology& t)
{
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> links(t.GetNElements());
    for (uint32_t s : t.GetSwitches())
    {
        for (uint32_t p = 0; p < t.GetElement(s).numPorts; ++p)
        {
            const auto peer = t.GetPeer(s, p);
            if (peer && t.IsSwitch(peer->first))
            {
                links[s].emplace_back(p, peer->first);
            }
        }
    }
    return links;
}

std::vector<uint32_t>
GsnRouting::EndpointRanks(const GsnTopology& t)
{
    std::vector<uint32_t> rank(t.GetNElements(), std::numeric_limits<uint32_t>::max());
    const auto endpoints = t.GetEndpoints();
    for (uint32_t i = 0; i < endpoints.size(); ++i)
    {
        rank[endpoints[i]] = i;
    }
    return rank;
}

std::vector<uint32_t>
GsnRouting::NearestEndpointCounts(const GsnTopology& t)
{
    // Endpoints grouped by the switch they hang on: one BFS per such switch.
    std::vector<uint32_t> attach;
    std::vector<uint32_t> perAttach(t.GetNElements(), 0);
    for (uint32_t e : t.GetEndpoints())
    {
        const auto peer = t.GetPeer(e, 0);
        if (peer && t.IsSwitch(peer->first))
        {
            if (perAttach[peer->first]++ == 0)
            {
                attach.push_back(peer->first);
            }
        }
    }
    std::vector<int32_t> nearest(t.GetNElements(), std::numeric_limits<int32_t>::max());
    std::vector<uint32_t> count(t.GetNElements(), 0);
    const auto switches = t.GetSwitches();
    ForEachSwitchDistances(t, attach, [&](uint32_t i, const std::vector<int32_t>& dist) {
        for (uint32_t s : switches)
        {
            const int32_t d = dist[s];
            if (d < 0 || d > nearest[s])
            {
                continue;
            }
            if (d < nearest[s])
            {
                nearest[s] = d;
                count[s] = 0;
            }
            count[s] += perAttach[attach[i]];
        }
    });
    return count;
}

uint32_t
GsnRouting::SpreadChoice(uint32_t rank, uint32_t nearCount, uint32_t nCandidates)
{
    const uint32_t stride = std::max<uint32_t>(1, nearCount / nCandidates);
    return (rank / stride) % nCandidates;
}

} // namespace ns3
