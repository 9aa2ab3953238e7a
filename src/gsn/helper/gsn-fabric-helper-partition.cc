/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnFabricHelper's partitions of a fabric over MPI ranks: blocks of endpoints (pods,
 * subtrees, slabs) and the graph partition by METIS (compiled where CMake found METIS:
 * GSN_HAVE_METIS, given to this file only).
 */
#include "gsn-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/gsn-mpi-helper.h"
#include "ns3/log.h"

#include <algorithm>
#include <deque>
#include <iostream>
#include <map>
#include <numeric>
#include <string>

#ifdef GSN_HAVE_METIS
#include <metis.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnFabricPartition");

namespace
{

/// \return whether a topology of this shape numbers its endpoints by pod, subtree, slab or
/// arc, so that blocks of endpoints cut few cables (every shape a builder records)
bool
HasBlocks(GsnTopology::Shape shape)
{
    return shape != GsnTopology::Shape::IRREGULAR;
}

#ifdef GSN_HAVE_METIS

/**
 * The graph the graph partitioner splits. An endpoint cannot leave its switch's rank (see
 * GsnFabricHelper::AssignRanks), so each endpoint is contracted into the element it is
 * cabled to: a vertex is a switch with its endpoints (or a lone endpoint, or the two
 * endpoints of a back-to-back cable). Simulation work is per port (each port runs its own
 * link slots, credits and acknowledgements), so a vertex weighs the cabled ports of its
 * elements; an edge weighs the cables between its two vertices.
 */
struct ContractedGraph
{
    std::vector<uint32_t> vertexOf;                  ///< per element, its vertex
    std::vector<uint64_t> weight;                    ///< per vertex, its cabled ports
    std::vector<std::map<uint32_t, uint64_t>> edges; ///< per vertex, neighbour -> cables
};

/// \param t a topology \return its contracted graph (vertices by their lowest element id)
ContractedGraph
Contract(const GsnTopology& t)
{
    const uint32_t n = t.GetNElements();
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    const auto find = [&parent](uint32_t x) {
        while (parent[x] != x)
        {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    };
    for (const GsnTopology::Cable& c : t.GetCables())
    {
        if (t.IsEndpoint(c.a) || t.IsEndpoint(c.b))
        {
            // (The lower id as root, so that vertices come in element order.)
            const uint32_t ra = find(c.a);
            const uint32_t rb = find(c.b);
            parent[std::max(ra, rb)] = std::min(ra, rb);
        }
    }
    ContractedGraph g;
    g.vertexOf.assign(n, 0);
    std::vector<uint32_t> vertexOfRoot(n, UINT32_MAX);
    for (uint32_t id = 0; id < n; ++id)
    {
        const uint32_t root = find(id);
        if (vertexOfRoot[root] == UINT32_MAX)
        {
            vertexOfRoot[root] = uint32_t(g.weight.size());
            g.weight.push_back(0);
        }
        g.vertexOf[id] = vertexOfRoot[root];
    }
    g.edges.resize(g.weight.size());
    for (const GsnTopology::Cable& c : t.GetCables())
    {
        const uint32_t va = g.vertexOf[c.a];
        const uint32_t vb = g.vertexOf[c.b];
        g.weight[va] += 1; // one cabled port at each end
        g.weight[vb] += 1;
        if (va != vb)
        {
            ++g.edges[va][vb];
            ++g.edges[vb][va];
        }
    }
    for (uint64_t& w : g.weight)
    {
        w = std::max<uint64_t>(w, 1); // (an element without cables still exists)
    }
    return g;
}

/**
 * Give every empty part a vertex, taken from the part with most vertices: the one whose
 * cables to its own part are fewest (METIS may leave a part empty when there are few vertices
 * per part; every rank needs an element).
 * \param g the graph \param parts number of parts \param part per vertex, its part
 */
void
FillEmptyParts(const ContractedGraph& g, uint32_t parts, std::vector<uint32_t>& part)
{
    for (uint32_t empty = 0; empty < parts; ++empty)
    {
        std::vector<uint32_t> count(parts, 0);
        for (uint32_t p : part)
        {
            ++count[p];
        }
        if (count[empty] > 0)
        {
            continue;
        }
        const uint32_t donor =
            uint32_t(std::max_element(count.begin(), count.end()) - count.begin());
        uint32_t best = UINT32_MAX;
        uint64_t bestInside = UINT64_MAX;
        for (uint32_t v = 0; v < part.size(); ++v)
        {
            if (part[v] != donor)
            {
                continue;
            }
            uint64_t inside = 0;
            for (const auto& [u, cables] : g.edges[v])
            {
                inside += part[u] == donor ? cables : 0;
            }
            if (inside < bestInside)
            {
                best = v;
                bestInside = inside;
            }
        }
        NS_LOG_INFO("part " << empty << " empty: vertex " << best << " moved from " << donor);
        part[best] = empty;
    }
}

/// One METIS run's result.
struct MetisResult
{
    std::vector<idx_t> part; ///< per vertex, its part
    idx_t cut{0};            ///< cables between parts
    uint64_t heaviest{0};    ///< weight of the heaviest part
};

/**
 * \param g the graph \param parts number of parts (> 1)
 * \param recursive METIS_PartGraphRecursive instead of METIS_PartGraphKway
 * \return METIS's partition
 */
MetisResult
RunMetis(const ContractedGraph& g, uint32_t parts, bool recursive)
{
    idx_t nv = idx_t(g.weight.size());
    idx_t ncon = 1;
    idx_t nparts = idx_t(parts);
    std::vector<idx_t> xadj{0};
    std::vector<idx_t> adjncy;
    std::vector<idx_t> adjwgt;
    std::vector<idx_t> vwgt;
    for (uint32_t v = 0; v < g.weight.size(); ++v)
    {
        vwgt.push_back(idx_t(g.weight[v]));
        for (const auto& [u, cables] : g.edges[v])
        {
            adjncy.push_back(idx_t(u));
            adjwgt.push_back(idx_t(cables));
        }
        xadj.push_back(idx_t(adjncy.size()));
    }
    // (A graph without edges: METIS still wants arrays to point at.)
    adjncy.push_back(0);
    adjwgt.push_back(0);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    // A fixed seed: the same topology gives the same partition on every rank and every run
    // (each rank partitions on its own, and the partitions must agree).
    options[METIS_OPTION_SEED] = 1;
    options[METIS_OPTION_NUMBERING] = 0;
    MetisResult r;
    r.part.assign(g.weight.size(), 0);
    const int status = (recursive ? METIS_PartGraphRecursive : METIS_PartGraphKway)(&nv,
                                                                                    &ncon,
                                                                                    xadj.data(),
                                                                                    adjncy.data(),
                                                                                    vwgt.data(),
                                                                                    nullptr,
                                                                                    adjwgt.data(),
                                                                                    &nparts,
                                                                                    nullptr,
                                                                                    nullptr,
                                                                                    options,
                                                                                    &r.cut,
                                                                                    r.part.data());
    NS_ABORT_MSG_UNLESS(status == METIS_OK,
                        "GsnFabricHelper::PartitionGraph: METIS_PartGraph"
                            << (recursive ? "Recursive" : "Kway") << " failed (status " << status
                            << ") on " << nv << " vertices in " << parts << " parts");
    std::vector<uint64_t> load(parts, 0);
    for (uint32_t v = 0; v < r.part.size(); ++v)
    {
        load[r.part[v]] += g.weight[v];
    }
    r.heaviest = *std::max_element(load.begin(), load.end());
    return r;
}

#endif

} // namespace

bool
GsnFabricHelper::HasGraphPartitioner()
{
#ifdef GSN_HAVE_METIS
    return true;
#else
    return false;
#endif
}

uint32_t
GsnFabricHelper::CountCutCables(const GsnTopology& topology, const std::vector<uint32_t>& ranks)
{
    NS_ABORT_MSG_UNLESS(ranks.size() == topology.GetNElements(),
                        "GsnFabricHelper::CountCutCables: " << ranks.size() << " ranks for "
                                                            << topology.GetNElements()
                                                            << " elements");
    uint32_t cut = 0;
    for (const GsnTopology::Cable& c : topology.GetCables())
    {
        cut += ranks[c.a] != ranks[c.b] ? 1 : 0;
    }
    return cut;
}

std::vector<uint32_t>
GsnFabricHelper::Partition(const GsnTopology& topology, uint32_t ranks, PartitionMethod method)
{
    NS_ABORT_MSG_IF(ranks == 0, "GsnFabricHelper::Partition: at least one rank");
    if (ranks == 1)
    {
        return std::vector<uint32_t>(topology.GetNElements(), 0);
    }
    if (method == AUTO && !HasBlocks(topology.GetShape()) && !HasGraphPartitioner() &&
        GsnMpiHelper::GetRank() == 0)
    {
        // A build without METIS still runs every topology, with more cables between ranks.
        // Every rank partitions alike: the first says so for all.
        std::cerr << "GsnFabricHelper: warning: no graph partitioner in this build (install "
                     "libmetis-dev and configure again): this irregular topology is split in "
                     "blocks of endpoints, which may cut many cables\n";
    }
    return ChooseMethod(topology, method) == GRAPH ? PartitionGraph(topology, ranks)
                                                   : PartitionBlocks(topology, ranks);
}

GsnFabricHelper::PartitionMethod
GsnFabricHelper::ChooseMethod(const GsnTopology& topology, PartitionMethod method)
{
    if (method != AUTO)
    {
        return method;
    }
    return HasBlocks(topology.GetShape()) || !HasGraphPartitioner() ? BLOCKS : GRAPH;
}

namespace
{

/// \return why PartitionGraph cannot split \p topology into \p ranks (ranks > 0), or ""
std::string
GraphProblem(const GsnTopology& topology, uint32_t ranks)
{
#ifndef GSN_HAVE_METIS
    (void)topology;
    (void)ranks;
    return "this build has no graph partitioner; install libmetis-dev (METIS) and configure "
           "the build again, or use the block partition";
#else
    const auto nv = uint32_t(Contract(topology).weight.size());
    if (nv < ranks)
    {
        return std::to_string(ranks) + " ranks for " + std::to_string(nv) +
               " groups of elements (a switch with its endpoints) that cannot be split; every "
               "rank needs one: use at most " +
               std::to_string(nv) + " ranks";
    }
    return "";
#endif
}

} // namespace

std::string
GsnFabricHelper::CheckPartition(const GsnTopology& topology, uint32_t ranks, PartitionMethod method)
{
    if (ranks == 0)
    {
        return "at least one rank";
    }
    // (One rank needs no partitioner; blocks always partition, and CheckRanks says when one
    // leaves a rank empty.)
    if (ranks == 1 || ChooseMethod(topology, method) != GRAPH)
    {
        return "";
    }
    return GraphProblem(topology, ranks);
}

std::vector<uint32_t>
GsnFabricHelper::PartitionGraph(const GsnTopology& topology, uint32_t ranks)
{
    NS_ABORT_MSG_IF(ranks == 0, "GsnFabricHelper::PartitionGraph: at least one rank");
    const std::string problem = GraphProblem(topology, ranks);
    NS_ABORT_MSG_UNLESS(problem.empty(), "GsnFabricHelper::PartitionGraph: " << problem);
#ifndef GSN_HAVE_METIS
    return {};
#else
    const ContractedGraph g = Contract(topology);
    const uint32_t nv = uint32_t(g.weight.size());
    std::vector<uint32_t> part(nv, 0);
    if (ranks > 1)
    {
        // METIS's manual recommends recursive bisection for fewer than 8 parts and k-way for
        // more; neither is better on every fabric (a k = 8 fat tree in 2: the same cut, the
        // recursive one better balanced), so both run (milliseconds) and the smaller cut
        // wins, then the lighter heaviest part, then k-way: deterministic, and never worse
        // than either alone.
        const MetisResult kway = RunMetis(g, ranks, false);
        const MetisResult recursive = RunMetis(g, ranks, true);
        const bool useRecursive = recursive.cut < kway.cut ||
                                  (recursive.cut == kway.cut && recursive.heaviest < kway.heaviest);
        const MetisResult& best = useRecursive ? recursive : kway;
        NS_LOG_INFO("k-way cut " << kway.cut << " heaviest " << kway.heaviest << ", recursive cut "
                                 << recursive.cut << " heaviest " << recursive.heaviest << ": "
                                 << (useRecursive ? "recursive" : "k-way"));
        for (uint32_t v = 0; v < nv; ++v)
        {
            part[v] = uint32_t(best.part[v]);
        }
        FillEmptyParts(g, ranks, part);
    }
    std::vector<uint32_t> rank(topology.GetNElements());
    for (uint32_t id = 0; id < rank.size(); ++id)
    {
        rank[id] = part[g.vertexOf[id]];
    }
    return rank;
#endif
}

std::vector<uint32_t>
GsnFabricHelper::PartitionBlocks(const GsnTopology& topology, uint32_t ranks)
{
    using Kind = GsnTopology::ElementKind;
    const uint32_t n = topology.GetNElements();
    constexpr uint32_t NONE = 0xFFFFFFFF;
    std::vector<uint32_t> rank(n, NONE);
    std::vector<uint32_t> endpoints;
    for (uint32_t id = 0; id < n; ++id)
    {
        if (topology.GetElement(id).kind == Kind::ENDPOINT)
        {
            endpoints.push_back(id);
        }
    }
    std::vector<uint32_t> block(n, 0); // an endpoint's block
    for (uint32_t i = 0; i < endpoints.size(); ++i)
    {
        block[endpoints[i]] = uint32_t(uint64_t(i) * ranks / endpoints.size());
    }
    const auto neighbours = [&topology](uint32_t id) {
        std::vector<uint32_t> out;
        for (uint32_t p = 0; p < topology.GetElement(id).numPorts; ++p)
        {
            if (auto peer = topology.GetPeer(id, p))
            {
                out.push_back(peer->first);
            }
        }
        return out;
    };
    // A switch with endpoints goes where most of them are; the others, breadth first from
    // those, where most of their placed neighbours are (ties to the lower rank).
    std::deque<uint32_t> queue;
    for (uint32_t id = 0; id < n; ++id)
    {
        if (topology.GetElement(id).kind != Kind::SWITCH)
        {
            continue;
        }
        std::vector<uint32_t> votes(ranks, 0);
        bool any = false;
        for (uint32_t peer : neighbours(id))
        {
            if (topology.GetElement(peer).kind == Kind::ENDPOINT)
            {
                ++votes[block[peer]];
                any = true;
            }
        }
        if (any)
        {
            rank[id] = uint32_t(std::max_element(votes.begin(), votes.end()) - votes.begin());
            queue.push_back(id);
        }
    }
    std::vector<bool> queued(n, false);
    for (uint32_t id : queue)
    {
        queued[id] = true;
    }
    while (!queue.empty())
    {
        const uint32_t id = queue.front();
        queue.pop_front();
        if (rank[id] == NONE)
        {
            std::vector<uint32_t> votes(ranks, 0);
            for (uint32_t peer : neighbours(id))
            {
                if (rank[peer] != NONE)
                {
                    ++votes[rank[peer]];
                }
            }
            rank[id] = uint32_t(std::max_element(votes.begin(), votes.end()) - votes.begin());
        }
        for (uint32_t peer : neighbours(id))
        {
            if (!queued[peer] && topology.GetElement(peer).kind == Kind::SWITCH)
            {
                queued[peer] = true;
                queue.push_back(peer);
            }
        }
    }
    // An endpoint goes with its switch (see AssignRanks); one cabled to endpoints only keeps
    // its block.
    for (uint32_t id : endpoints)
    {
        rank[id] = block[id];
        for (uint32_t peer : neighbours(id))
        {
            if (topology.GetElement(peer).kind == Kind::SWITCH && rank[peer] != NONE)
            {
                rank[id] = rank[peer];
            }
        }
    }
    for (uint32_t& r : rank)
    {
        r = r == NONE ? 0 : r; // (a switch no cable reaches)
    }
    return rank;
}

} // namespace ns3
