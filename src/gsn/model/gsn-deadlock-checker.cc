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

GsnDeadlockChecker::GsnDeadlockChecker(const GsnTopology& t)
    : m_t(t),
      m_endpoints(t.GetEndpoints())
{
    // Channels numbered densely: element e's port p is m_offset[e] + p.
    m_offset.reserve(t.GetNElements() + 1);
    for (uint32_t e = 0; e < t.GetNElements(); ++e)
    {
        m_offset.push_back(static_cast<uint32_t>(m_channel.size()));
        for (uint32_t p = 0; p < t.GetElement(e).numPorts; ++p)
        {
            m_channel.emplace_back(e, p);
            const auto far = t.GetPeer(e, p);
            m_peer.push_back(far ? far->first : UINT32_MAX);
        }
    }
    m_offset.push_back(static_cast<uint32_t>(m_channel.size()));
    const auto nChannels = static_cast<uint32_t>(m_channel.size());
    m_flagBase.assign(nChannels + 1, 0);
    for (uint32_t c = 0; c < nChannels; ++c)
    {
        const uint32_t far = m_peer[c];
        const uint32_t fanOut =
            far != UINT32_MAX && t.IsSwitch(far) ? t.GetElement(far).numPorts : 0;
        m_flagBase[c + 1] = m_flagBase[c] + fanOut;
    }
    m_flag.assign(m_flagBase[nChannels], false);
    m_stamp.assign(t.GetNElements(), 0);
}

void
GsnDeadlockChecker::AddRoutes(uint32_t dst, const std::vector<int32_t>& column)
{
    const GsnTopology& t = m_t;
    for (uint32_t src : m_endpoints)
    {
        if (src == dst)
        {
            continue;
        }
        // Follow the route from src. A switch already on a path toward dst has had its
        // dependencies from there on: the walk stops at it.
        uint32_t held = IndexOf(src, 0);
        for (uint32_t sw = m_peer[held]; sw != dst && t.IsSwitch(sw); sw = m_peer[held])
        {
            const int32_t out = sw < column.size() ? column[sw] : -1;
            if (out < 0 || uint32_t(out) >= t.GetElement(sw).numPorts ||
                m_peer[IndexOf(sw, out)] == UINT32_MAX)
            {
                break;
            }
            m_flag[m_flagBase[held] + out] = true;
            if (m_stamp[sw] == dst + 1)
            {
                break;
            }
            m_stamp[sw] = dst + 1;
            held = IndexOf(sw, out);
        }
    }
}

std::vector<uint64_t>
GsnDeadlockChecker::Edges() const
{
    std::vector<uint64_t> edges;
    for (uint32_t c = 0; c + 1 < m_flagBase.size(); ++c)
    {
        for (uint32_t out = 0; out < m_flagBase[c + 1] - m_flagBase[c]; ++out)
        {
            if (m_flag[m_flagBase[c] + out])
            {
                edges.push_back(uint64_t(c) << 32 | IndexOf(m_peer[c], out));
            }
        }
    }
    return edges;
}

std::vector<std::pair<GsnDeadlockChecker::Channel, GsnDeadlockChecker::Channel>>
GsnDeadlockChecker::GetDependencies() const
{
    std::vector<std::pair<Channel, Channel>> result;
    for (uint64_t e : Edges())
    {
        result.emplace_back(m_channel[e >> 32], m_channel[e & 0xFFFFFFFFu]);
    }
    return result;
}

std::vector<GsnDeadlockChecker::Channel>
GsnDeadlockChecker::FindCycle() const
{
    Graph g(m_channel.size());
    for (uint64_t e : Edges())
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
            cycle.push_back(m_channel[v]);
        }
        return cycle;
    }
    return {};
}

void
GsnDeadlockChecker::Check() const
{
    const auto cycle = FindCycle();
    if (!cycle.empty())
    {
        throw std::runtime_error("routing tables can deadlock: channel dependency cycle " +
                                 DescribeCycle(m_t, cycle));
    }
}

namespace
{

/// A checker given every endpoint's column of whole tables.
GsnDeadlockChecker
CheckerOf(const GsnTopology& t, const GsnRoutingTables& r)
{
    GsnDeadlockChecker checker(t);
    std::vector<int32_t> column(t.GetNElements(), -1);
    for (uint32_t dst : t.GetEndpoints())
    {
        for (uint32_t s = 0; s < t.GetNElements(); ++s)
        {
            column[s] = r.Get(s, dst);
        }
        checker.AddRoutes(dst, column);
    }
    return checker;
}

} // namespace

std::vector<std::pair<GsnDeadlockChecker::Channel, GsnDeadlockChecker::Channel>>
GsnDeadlockChecker::Dependencies(const GsnTopology& t, const GsnRoutingTables& r)
{
    return CheckerOf(t, r).GetDependencies();
}

std::vector<GsnDeadlockChecker::Channel>
GsnDeadlockChecker::FindCycle(const GsnTopology& t, const GsnRoutingTables& r)
{
    return CheckerOf(t, r).FindCycle();
}

void
GsnDeadlockChecker::Check(const GsnTopology& t, const GsnRoutingTables& r)
{
    CheckerOf(t, r).Check();
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
} // namespace ns3
