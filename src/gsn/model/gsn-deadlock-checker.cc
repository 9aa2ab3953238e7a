/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-deadlock-checker.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Channels numbered densely: element e's port p is offset[e] + p.
struct ChannelIndex
{
    std::vector<uint32_t> offset;                     ///< per element, then the total
    std::vector<GsnDeadlockChecker::Channel> channel; ///< index -> channel
    std::vector<uint32_t> peer; ///< index -> element at the far end, or UINT32_MAX

    explicit ChannelIndex(const GsnTopology& t)
    {
        offset.reserve(t.GetNElements() + 1);
        for (uint32_t e = 0; e < t.GetNElements(); ++e)
        {
            offset.push_back(static_cast<uint32_t>(channel.size()));
            for (uint32_t p = 0; p < t.GetElement(e).numPorts; ++p)
            {
                channel.emplace_back(e, p);
                const auto far = t.GetPeer(e, p);
                peer.push_back(far ? far->first : UINT32_MAX);
            }
        }
        offset.push_back(static_cast<uint32_t>(channel.size()));
    }

    uint32_t operator()(uint32_t element, uint32_t port) const
    {
        return offset[element] + port;
    }
};

/**
 * Dependency edges as (from << 32 | to) of channel indices, sorted and unique. A channel
 * can only be followed by an output channel of the element it leads to, so the edges are kept
 * as one flag per (channel, output port of its far end): no duplicates to sort away.
 */
std::vector<uint64_t>
DependencyEdges(const GsnTopology& t, const GsnRoutingTables& r, const ChannelIndex& index)
{
    const auto nChannels = static_cast<uint32_t>(index.channel.size());
    std::vector<uint32_t> flagBase(nChannels + 1, 0);
    for (uint32_t c = 0; c < nChannels; ++c)
    {
        const uint32_t far = index.peer[c];
        const uint32_t fanOut =
            far != UINT32_MAX && t.IsSwitch(far) ? t.GetElement(far).numPorts : 0;
        flagBase[c + 1] = flagBase[c] + fanOut;
    }
    std::vector<bool> flag(flagBase[nChannels], false);

    const auto endpoints = t.GetEndpoints();
    // stamp[x] == dst + 1 once the route from switch x toward dst has been followed: every
    // later route reaching x continues the same way (the tables depend on dst only).
    std::vector<uint32_t> stamp(t.GetNElements(), 0);
    for (uint32_t dst : endpoints)
    {
        for (uint32_t src : endpoints)
        {
            if (src == dst)
            {
                continue;
            }
            uint32_t held = index(src, 0);
            for (uint32_t sw = index.peer[held]; sw != dst && t.IsSwitch(sw); sw = index.peer[held])
            {
                const int32_t out = r.Get(sw, dst);
                if (out < 0 || uint32_t(out) >= t.GetElement(sw).numPorts ||
                    index.peer[index(sw, out)] == UINT32_MAX)
                {
                    break;
                }
                flag[flagBase[held] + out] = true;
                if (stamp[sw] == dst + 1)
                {
                    break;
                }
                stamp[sw] = dst + 1;
                held = index(sw, out);
            }
        }
    }
    std::vector<uint64_t> edges;
    for (uint32_t c = 0; c < nChannels; ++c)
    {
        for (uint32_t out = 0; out < flagBase[c + 1] - flagBase[c]; ++out)
        {
            if (flag[flagBase[c] + out])
            {
                edges.push_back(uint64_t(c) << 32 | index(index.peer[c], out));
            }
        }
    }
    return edges;
}

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

/// Thrown by the visitor to stop the search at the first cycle.
struct CycleFound
{
    std::vector<Vertex> cycle; ///< vertices in dependency order
};

/// DFS visitor: remembers tree parents; a back edge closes a cycle through them.
class CycleVisitor : public boost::default_dfs_visitor
{
  public:
    explicit CycleVisitor(std::vector<Vertex>& parent)
        : m_parent(parent)
    {
    }

    void tree_edge(boost::graph_traits<Graph>::edge_descriptor e, const Graph& g)
    {
        m_parent[boost::target(e, g)] = boost::source(e, g);
    }

    void back_edge(boost::graph_traits<Graph>::edge_descriptor e, const Graph& g)
    {
        // target is on the DFS path above source: target -> ... -> source -> target.
        CycleFound found;
        const Vertex top = boost::target(e, g);
        for (Vertex v = boost::source(e, g); v != top; v = m_parent[v])
        {
            found.cycle.push_back(v);
        }
        found.cycle.push_back(top);
        std::reverse(found.cycle.begin(), found.cycle.end());
        throw found;
    }

  private:
    std::vector<Vertex>& m_parent; ///< DFS tree parent per vertex
};

} // namespace

std::vector<std::pair<GsnDeadlockChecker::Channel, GsnDeadlockChecker::Channel>>
GsnDeadlockChecker::Dependencies(const GsnTopology& t, const GsnRoutingTables& r)
{
    const ChannelIndex index(t);
    std::vector<std::pair<Channel, Channel>> result;
    for (uint64_t e : DependencyEdges(t, r, index))
    {
        result.emplace_back(index.channel[e >> 32], index.channel[e & 0xFFFFFFFFu]);
    }
    return result;
}

std::vector<GsnDeadlockChecker::Channel>
GsnDeadlockChecker::FindCycle(const GsnTopology& t, const GsnRoutingTables& r)
{
    const ChannelIndex index(t);
    const auto edges = DependencyEdges(t, r, index);
    Graph g(index.channel.size());
    for (uint64_t e : edges)
    {
        boost::add_edge(static_cast<Vertex>(e >> 32), static_cast<Vertex>(e & 0xFFFFFFFFu), g);
    }
    std::vector<Vertex> parent(boost::num_vertices(g));
    try
    {
        boost::depth_first_search(g, boost::visitor(CycleVisitor(parent)));
    }
    catch (const CycleFound& found)
    {
        std::vector<Channel> cycle;
        for (Vertex v : found.cycle)
        {
            cycle.push_back(index.channel[v]);
        }
        return cycle;
    }
    return {};
}

std::string
GsnDeadlockChecker::DescribeCycle(const GsnTopology& t, const std::vector<Channel>& cycle)
{
    std::string text;
    for (std::size_t i = 0; i <= cycle.size() && !cycle.empty(); ++i)
    {
        const Channel& c = cycle[i % cycle.size()];
        text += (i ? " -> " : "") + t.GetElement(c.first).name + ":p" + std::to_string(c.second);
    }
    return text;
}

void
GsnDeadlockChecker::Check(const GsnTopology& t, const GsnRoutingTables& r)
{
    const auto cycle = FindCycle(t, r);
    if (!cycle.empty())
    {
        throw std::runtime_error("routing tables can deadlock: channel dependency cycle " +
                                 DescribeCycle(t, cycle));
    }
}

} // namespace ns3
