/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of GsnFabricHelper's partitions of a fabric over MPI ranks: the blocks
 * (PartitionBlocks: fat trees by pod, tori by slab), the graph partitioner (PartitionGraph,
 * METIS: few cables cut, balanced work, every rank used, endpoints with their switches, the
 * same result every time), the automatic choice between them and the count of cables cut.
 * (Running across ranks is tools/test-mpi.sh's job.)
 */
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/test.h"

#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the number of cables whose two ends are on different ranks (counted here, not
/// by the code under test)
uint32_t
CablesCut(const GsnTopology& t, const std::vector<uint32_t>& ranks)
{
    uint32_t cut = 0;
    for (const GsnTopology::Cable& c : t.GetCables())
    {
        cut += ranks[c.a] != ranks[c.b] ? 1 : 0;
    }
    return cut;
}

/// \return per rank, the cabled ports of its elements (the work the partitioner balances)
std::vector<uint32_t>
PortsPerRank(const GsnTopology& t, const std::vector<uint32_t>& ranks, uint32_t n)
{
    std::vector<uint32_t> ports(n, 0);
    for (const GsnTopology::Cable& c : t.GetCables())
    {
        ++ports[ranks[c.a]];
        ++ports[ranks[c.b]];
    }
    return ports;
}

/// \return whether every cable between an endpoint and a switch stays on one rank
bool
EndpointsWithSwitches(const GsnTopology& t, const std::vector<uint32_t>& ranks)
{
    for (const GsnTopology::Cable& c : t.GetCables())
    {
        if (t.IsEndpoint(c.a) != t.IsEndpoint(c.b) && ranks[c.a] != ranks[c.b])
        {
            return false;
        }
    }
    return true;
}

/// \return the next free port of \p id (ports are taken in order)
uint32_t
NextPort(std::vector<uint32_t>& used, uint32_t id)
{
    if (used.size() <= id)
    {
        used.resize(id + 1, 0);
    }
    return used[id]++;
}

/**
 * Two clusters of four switches, each switch cabled to the three others of its cluster and to
 * two endpoints; the clusters joined by two cables (a0-b0, a1-b1). The elements of the two
 * clusters alternate in id order, so that no numbering hands the split out.
 */
GsnTopology
TwoClusters()
{
    GsnTopology t;
    std::vector<uint32_t> used;
    std::vector<uint32_t> a;
    std::vector<uint32_t> b;
    for (uint32_t i = 0; i < 4; ++i)
    {
        a.push_back(t.AddSwitch(8, "a" + std::to_string(i)));
        b.push_back(t.AddSwitch(8, "b" + std::to_string(i)));
    }
    for (const auto* cluster : {&a, &b})
    {
        for (uint32_t i = 0; i < 4; ++i)
        {
            for (uint32_t j = i + 1; j < 4; ++j)
            {
                const uint32_t x = (*cluster)[i];
                const uint32_t y = (*cluster)[j];
                t.Connect(x, NextPort(used, x), y, NextPort(used, y));
            }
        }
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        for (uint32_t s : {a[i], b[i]})
        {
            for (uint32_t e = 0; e < 2; ++e)
            {
                const uint32_t ep = t.AddEndpoint(t.GetElement(s).name + "e" + std::to_string(e));
                t.Connect(ep, NextPort(used, ep), s, NextPort(used, s));
            }
        }
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        t.Connect(a[i], NextPort(used, a[i]), b[i], NextPort(used, b[i]));
    }
    return t;
}

/**
 * An x by y torus whose endpoints are numbered in a shuffled order (a fixed permutation), as a
 * file written by hand might number them: blocks of endpoints are then scattered switches.
 */
GsnTopology
ShuffledTorus(uint32_t x, uint32_t y)
{
    GsnTopology t;
    std::vector<uint32_t> used;
    const auto sw = [x](uint32_t i, uint32_t j) { return i + x * j; };
    for (uint32_t j = 0; j < y; ++j)
    {
        for (uint32_t i = 0; i < x; ++i)
        {
            t.AddSwitch(5, "s" + std::to_string(i) + "_" + std::to_string(j));
        }
    }
    for (uint32_t j = 0; j < y; ++j)
    {
        for (uint32_t i = 0; i < x; ++i)
        {
            const uint32_t here = sw(i, j);
            const uint32_t right = sw((i + 1) % x, j);
            const uint32_t down = sw(i, (j + 1) % y);
            t.Connect(here, NextPort(used, here), right, NextPort(used, right));
            t.Connect(here, NextPort(used, here), down, NextPort(used, down));
        }
    }
    // Fisher-Yates with mt19937 (fully specified by the standard: the same order everywhere).
    std::vector<uint32_t> order(x * y);
    for (uint32_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::mt19937 rng(7);
    for (uint32_t i = uint32_t(order.size()) - 1; i > 0; --i)
    {
        std::swap(order[i], order[rng() % (i + 1)]);
    }
    for (uint32_t s : order)
    {
        const uint32_t ep = t.AddEndpoint("h" + t.GetElement(s).name);
        t.Connect(ep, 0, s, NextPort(used, s));
    }
    return t;
}

/// \return true (and say so) when the build has no graph partitioner: the case is skipped
bool
SkipWithoutMetis(const std::string& what)
{
    if (GsnFabricHelper::HasGraphPartitioner())
    {
        return false;
    }
    std::clog << "gsn-partition: SKIP " << what
              << ": this build has no graph partitioner (METIS, libmetis-dev)\n";
    return true;
}

/// \return the rank of the element named \p name
uint32_t
RankOf(const GsnTopology& t, const std::vector<uint32_t>& ranks, const std::string& name)
{
    for (uint32_t id = 0; id < t.GetNElements(); ++id)
    {
        if (t.GetElement(id).name == name)
        {
            return ranks[id];
        }
    }
    return 0xFFFFFFFF;
}

} // namespace

/// A fat tree splits by pod: a pod's endpoints, edge and aggregation switches share a rank.
class GsnPartitionFatTreeTestCase : public TestCase
{
  public:
    GsnPartitionFatTreeTestCase()
        : TestCase("fat tree k=4 on 2 and 4 ranks: by pod, only pod-to-core cables cut")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::FatTree(4);
        for (uint32_t ranks : {2u, 4u})
        {
            const std::vector<uint32_t> r = GsnFabricHelper::PartitionBlocks(t, ranks);
            NS_TEST_ASSERT_MSG_EQ(r.size(), t.GetNElements(), "one rank per element");
            for (uint32_t pod = 0; pod < 4; ++pod)
            {
                const uint32_t want = pod * ranks / 4;
                for (uint32_t i = 0; i < 2; ++i)
                {
                    const std::string suffix = std::to_string(pod) + "." + std::to_string(i);
                    NS_TEST_EXPECT_MSG_EQ(RankOf(t, r, "edge" + suffix), want, "edge " << suffix);
                    NS_TEST_EXPECT_MSG_EQ(RankOf(t, r, "agg" + suffix), want, "agg " << suffix);
                }
                for (uint32_t e = 0; e < 4; ++e)
                {
                    const std::string ep = "ep" + std::to_string(pod * 4 + e);
                    NS_TEST_EXPECT_MSG_EQ(RankOf(t, r, ep), want, ep);
                }
            }
            // Only cables between aggregation and core switches can cross: 16 of them, and
            // the core switches' own rank keeps those of its pods.
            const uint32_t cut = CablesCut(t, r);
            NS_TEST_EXPECT_MSG_GT(cut, 0u, ranks << " ranks cut some cable");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(cut, 16u, ranks << " ranks cut only pod-to-core cables");
            NS_TEST_EXPECT_MSG_EQ(std::set<uint32_t>(r.begin(), r.end()).size(),
                                  ranks,
                                  "every rank has an element");
        }
    }
};

/// A torus splits into slabs: each switch goes with its endpoints.
class GsnPartitionTorusTestCase : public TestCase
{
  public:
    GsnPartitionTorusTestCase()
        : TestCase("torus 4x4 on 2 ranks: two slabs, each switch with its endpoint")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::Torus2D(4, 4);
        const std::vector<uint32_t> r = GsnFabricHelper::PartitionBlocks(t, 2);
        uint32_t onRank1 = 0;
        for (const GsnTopology::Cable& c : t.GetCables())
        {
            const bool endpointCable =
                t.GetElement(c.a).kind == GsnTopology::ElementKind::ENDPOINT ||
                t.GetElement(c.b).kind == GsnTopology::ElementKind::ENDPOINT;
            if (endpointCable)
            {
                NS_TEST_EXPECT_MSG_EQ(r[c.a], r[c.b], "an endpoint and its switch share a rank");
            }
        }
        for (uint32_t id = 0; id < t.GetNElements(); ++id)
        {
            onRank1 += r[id];
        }
        NS_TEST_EXPECT_MSG_EQ(onRank1, t.GetNElements() / 2, "half the elements on each rank");
        // Two slabs of a 4x4 torus: 2 x 4 switch-to-switch cables cross.
        NS_TEST_EXPECT_MSG_EQ(CablesCut(t, r), 8u, "the cut between two slabs");
    }
};

/// An endpoint always shares its switch's rank, even where the blocks split a switch's
/// endpoints (k = 4 fat tree on 3 ranks: edge switch edge2.1 has ep10 and ep11 of two blocks).
class GsnPartitionEndpointTestCase : public TestCase
{
  public:
    GsnPartitionEndpointTestCase()
        : TestCase("every endpoint on its switch's rank, every rank used")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::FatTree(4);
        const std::vector<uint32_t> r = GsnFabricHelper::PartitionBlocks(t, 3);
        for (const GsnTopology::Cable& c : t.GetCables())
        {
            if (t.GetElement(c.a).kind != t.GetElement(c.b).kind)
            {
                NS_TEST_EXPECT_MSG_EQ(r[c.a],
                                      r[c.b],
                                      t.GetElement(c.a).name << " and " << t.GetElement(c.b).name);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(RankOf(t, r, "ep11"), RankOf(t, r, "ep10"), "ep11 follows edge2.1");
        NS_TEST_EXPECT_MSG_EQ(std::set<uint32_t>(r.begin(), r.end()).size(), 3u, "3 ranks used");
    }
};

/// Two clusters joined by two cables: the graph partition in 2 cuts just those two and gives
/// each rank the same work.
class GsnPartitionGraphClustersTestCase : public TestCase
{
  public:
    GsnPartitionGraphClustersTestCase()
        : TestCase("graph partition of two clusters in 2: only the two joining cables cut")
    {
    }

  private:
    void DoRun() override
    {
        if (SkipWithoutMetis(GetName()))
        {
            return;
        }
        const GsnTopology t = TwoClusters();
        NS_TEST_ASSERT_MSG_EQ(t.Validate(), "", "the topology is valid");
        const std::vector<uint32_t> r = GsnFabricHelper::PartitionGraph(t, 2);
        NS_TEST_ASSERT_MSG_EQ(r.size(), t.GetNElements(), "one rank per element");
        const uint32_t blocks = CablesCut(t, GsnFabricHelper::PartitionBlocks(t, 2));
        NS_TEST_EXPECT_MSG_EQ(CablesCut(t, r),
                              2u,
                              "only the two cables between the clusters (blocks cut " << blocks
                                                                                      << ")");
        NS_TEST_EXPECT_MSG_EQ(GsnFabricHelper::CountCutCables(t, r), 2u, "CountCutCables agrees");
        for (uint32_t i = 1; i < 4; ++i)
        {
            const std::string ai = "a" + std::to_string(i);
            const std::string bi = "b" + std::to_string(i);
            NS_TEST_EXPECT_MSG_EQ(RankOf(t, r, ai), RankOf(t, r, "a0"), ai << " with a0");
            NS_TEST_EXPECT_MSG_EQ(RankOf(t, r, bi), RankOf(t, r, "b0"), bi << " with b0");
        }
        NS_TEST_EXPECT_MSG_NE(RankOf(t, r, "a0"), RankOf(t, r, "b0"), "the clusters apart");
        const std::vector<uint32_t> work = PortsPerRank(t, r, 2);
        NS_TEST_EXPECT_MSG_EQ(work[0], work[1], "the same work (cabled ports) on each rank");
        NS_TEST_EXPECT_MSG_EQ(EndpointsWithSwitches(t, r), true, "endpoints with their switch");
    }
};

/// On several topologies and every number of ranks from 2 to the number of switches: every
/// rank gets an element, every endpoint is on its switch's rank, the work is balanced, and
/// the same topology gives the same partition.
class GsnPartitionGraphRanksTestCase : public TestCase
{
  public:
    GsnPartitionGraphRanksTestCase()
        : TestCase("graph partition for 2..N ranks: every rank used, endpoints with switches, "
                   "balanced, the same twice")
    {
    }

  private:
    void DoRun() override
    {
        if (SkipWithoutMetis(GetName()))
        {
            return;
        }
        const std::vector<std::pair<std::string, GsnTopology>> topologies{
            {"fat tree k=4", GsnTopologyBuilder::FatTree(4)},
            {"torus 4x4", GsnTopologyBuilder::Torus2D(4, 4, 2)},
            {"two clusters", TwoClusters()},
            {"shuffled torus 5x5", ShuffledTorus(5, 5)},
        };
        for (const auto& [name, t] : topologies)
        {
            const uint32_t switches = uint32_t(t.GetSwitches().size());
            for (uint32_t n = 2; n <= switches; ++n)
            {
                const std::vector<uint32_t> r = GsnFabricHelper::PartitionGraph(t, n);
                NS_TEST_ASSERT_MSG_EQ(r.size(), t.GetNElements(), name << " " << n);
                std::vector<uint32_t> count(n, 0);
                for (uint32_t rank : r)
                {
                    NS_TEST_ASSERT_MSG_LT(rank, n, name << ": a rank out of range");
                    ++count[rank];
                }
                for (uint32_t k = 0; k < n; ++k)
                {
                    NS_TEST_EXPECT_MSG_GT(count[k], 0u, name << ", " << n << " ranks: rank " << k);
                }
                NS_TEST_EXPECT_MSG_EQ(EndpointsWithSwitches(t, r),
                                      true,
                                      name << ", " << n << " ranks: an endpoint off its switch");
                NS_TEST_EXPECT_MSG_EQ((r == GsnFabricHelper::PartitionGraph(t, n)),
                                      true,
                                      name << ", " << n
                                           << " ranks: another partition the "
                                              "second time");
                // Balance where the vertices are many per part: METIS's 3% tolerance, with
                // room for the granularity of a switch with its endpoints.
                if (n <= 4)
                {
                    const std::vector<uint32_t> work = PortsPerRank(t, r, n);
                    uint32_t total = 0;
                    uint32_t heaviest = 0;
                    for (uint32_t w : work)
                    {
                        total += w;
                        heaviest = std::max(heaviest, w);
                    }
                    NS_TEST_EXPECT_MSG_LT_OR_EQ(double(heaviest),
                                                1.25 * total / n,
                                                name << ", " << n << " ranks: the heaviest rank");
                }
            }
        }
    }
};

/// Where the endpoints' numbering says nothing of the structure (a shuffled torus), the graph
/// partition cuts far fewer cables than blocks of endpoints.
class GsnPartitionGraphVersusBlocksTestCase : public TestCase
{
  public:
    GsnPartitionGraphVersusBlocksTestCase()
        : TestCase("graph partition of a shuffled 6x6 torus cuts fewer cables than blocks")
    {
    }

  private:
    void DoRun() override
    {
        if (SkipWithoutMetis(GetName()))
        {
            return;
        }
        const GsnTopology t = ShuffledTorus(6, 6);
        for (uint32_t n : {2u, 4u})
        {
            const uint32_t blocks = CablesCut(t, GsnFabricHelper::PartitionBlocks(t, n));
            const uint32_t graph = CablesCut(t, GsnFabricHelper::PartitionGraph(t, n));
            std::ostringstream numbers;
            numbers << n << " ranks: blocks cut " << blocks << ", graph " << graph << " of "
                    << t.GetCables().size() << " cables";
            std::clog << "gsn-partition: shuffled 6x6 torus, " << numbers.str() << "\n";
            // The best cut of a 6x6 torus: 12 cables in 2 slabs, 24 in 4 quadrants.
            const uint32_t best = n == 2 ? 12 : 24;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(graph, best, numbers.str());
            NS_TEST_EXPECT_MSG_LT(2 * graph, blocks, numbers.str());
        }
    }
};

/// AUTO: blocks for what a builder made, the graph partitioner for anything else (a topology
/// read from text, or a built one changed by hand).
class GsnPartitionAutoTestCase : public TestCase
{
  public:
    GsnPartitionAutoTestCase()
        : TestCase("automatic choice: blocks for builders' shapes, graph for other topologies")
    {
    }

  private:
    void DoRun() override
    {
        using Helper = GsnFabricHelper;
        const GsnTopology fatTree = GsnTopologyBuilder::FatTree(4);
        const GsnTopology torus = GsnTopologyBuilder::Torus2D(4, 4);
        NS_TEST_EXPECT_MSG_EQ((fatTree.GetShape() == GsnTopology::Shape::FAT_TREE),
                              true,
                              "the builder records the fat tree");
        NS_TEST_EXPECT_MSG_EQ((torus.GetShape() == GsnTopology::Shape::TORUS),
                              true,
                              "the builder records the torus");
        for (const GsnTopology* t : {&fatTree, &torus})
        {
            NS_TEST_EXPECT_MSG_EQ(Helper::ChooseMethod(*t, Helper::AUTO), Helper::BLOCKS, "blocks");
            NS_TEST_EXPECT_MSG_EQ(
                (Helper::Partition(*t, 4, Helper::AUTO) == Helper::PartitionBlocks(*t, 4)),
                true,
                "AUTO partitions a builder's topology in blocks");
        }
        std::istringstream text(fatTree.ToText());
        const GsnTopology read = GsnTopology::Parse(text);
        GsnTopology changed = torus;
        changed.AddEndpoint("extra");
        for (const GsnTopology* t : std::initializer_list<const GsnTopology*>{&read, &changed})
        {
            NS_TEST_EXPECT_MSG_EQ((t->GetShape() == GsnTopology::Shape::IRREGULAR),
                                  true,
                                  "read from text or changed: irregular");
        }
        NS_TEST_EXPECT_MSG_EQ(Helper::ChooseMethod(read, Helper::BLOCKS), Helper::BLOCKS, "asked");
        if (SkipWithoutMetis("automatic choice of the graph partitioner"))
        {
            NS_TEST_EXPECT_MSG_EQ(Helper::ChooseMethod(read, Helper::AUTO),
                                  Helper::BLOCKS,
                                  "without METIS, AUTO falls back to blocks");
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(Helper::ChooseMethod(read, Helper::AUTO), Helper::GRAPH, "graph");
        NS_TEST_EXPECT_MSG_EQ(
            (Helper::Partition(read, 4, Helper::AUTO) == Helper::PartitionGraph(read, 4)),
            true,
            "AUTO partitions a topology read from text with the graph");
        NS_TEST_EXPECT_MSG_EQ(
            (Helper::Partition(read, 4, Helper::GRAPH) == Helper::PartitionGraph(read, 4)),
            true,
            "GRAPH is the graph partition");
        NS_TEST_EXPECT_MSG_EQ(
            (Helper::Partition(torus, 3, Helper::BLOCKS) == Helper::PartitionBlocks(torus, 3)),
            true,
            "BLOCKS is the block partition");
    }
};

/// CountCutCables counts the cables whose ends are on different ranks.
class GsnPartitionCountTestCase : public TestCase
{
  public:
    GsnPartitionCountTestCase()
        : TestCase("CountCutCables: the cables between ranks")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::Ring(4, 1); // 4 switches, 4 endpoints
        std::vector<uint32_t> r(t.GetNElements(), 0);
        NS_TEST_EXPECT_MSG_EQ(GsnFabricHelper::CountCutCables(t, r), 0u, "one rank: none");
        const uint32_t s2 = t.GetSwitches()[2];
        r[s2] = 1; // its two ring cables and its endpoint's cable cross
        NS_TEST_EXPECT_MSG_EQ(GsnFabricHelper::CountCutCables(t, r), 3u, "one switch apart");
        NS_TEST_EXPECT_MSG_EQ(GsnFabricHelper::CountCutCables(t, r), CablesCut(t, r), "agrees");
    }
};

/// CheckPartition and CheckRanks say, without aborting, what Partition() and Install() refuse.
class GsnPartitionChecksTestCase : public TestCase
{
  public:
    GsnPartitionChecksTestCase()
        : TestCase("CheckPartition and CheckRanks: the refusals, as text")
    {
    }

  private:
    void DoRun() override
    {
        using Helper = GsnFabricHelper;
        const GsnTopology t = GsnTopologyBuilder::FatTree(2); // 5 switches, 2 endpoints
        const std::vector<uint32_t> blocks = Helper::PartitionBlocks(t, 2);
        NS_TEST_EXPECT_MSG_EQ(Helper::CheckRanks(t, blocks, 2), "", "the blocks are usable");
        NS_TEST_EXPECT_MSG_EQ(Helper::CheckPartition(t, 0, Helper::BLOCKS),
                              "at least one rank",
                              "no rank");
        NS_TEST_EXPECT_MSG_EQ(Helper::CheckPartition(t, 6, Helper::BLOCKS), "", "blocks: any");
        NS_TEST_EXPECT_MSG_EQ(Helper::CheckPartition(t, 1, Helper::GRAPH), "", "one rank");
        const std::string graph = Helper::CheckPartition(t, 6, Helper::GRAPH);
        const std::string expected =
            Helper::HasGraphPartitioner() ? "use at most 5 ranks" : "no graph partitioner";
        NS_TEST_EXPECT_MSG_NE(graph.find(expected), std::string::npos, graph);
        if (Helper::HasGraphPartitioner())
        {
            NS_TEST_EXPECT_MSG_EQ(Helper::CheckPartition(t, 5, Helper::GRAPH), "", "5 groups");
        }
        const auto has = [](const std::string& problem, const std::string& text) {
            return problem.find(text) != std::string::npos;
        };
        NS_TEST_EXPECT_MSG_EQ(has(Helper::CheckRanks(t, {0, 1}, 2), "gave 2 ranks for a topology"),
                              true,
                              "one rank per element");
        std::vector<uint32_t> ranks(t.GetNElements(), 0);
        NS_TEST_EXPECT_MSG_EQ(has(Helper::CheckRanks(t, ranks, 2), "rank 1 of 2 has no element"),
                              true,
                              "an empty rank");
        ranks[0] = 2;
        NS_TEST_EXPECT_MSG_EQ(has(Helper::CheckRanks(t, ranks, 2), "is given rank 2 of 2"),
                              true,
                              "a rank out of range");
        ranks = blocks;
        const uint32_t ep0 = *t.FindElement("ep0");
        ranks[ep0] = 1 - ranks[ep0];
        NS_TEST_EXPECT_MSG_EQ(has(Helper::CheckRanks(t, ranks, 2), "must be on its switch's rank"),
                              true,
                              "an endpoint away from its switch");
    }
};

/// Test suite of the partition over ranks.
class GsnPartitionTestSuite : public TestSuite
{
  public:
    GsnPartitionTestSuite()
        : TestSuite("gsn-partition", UNIT)
    {
        AddTestCase(new GsnPartitionFatTreeTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionTorusTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionEndpointTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionGraphClustersTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionGraphRanksTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionGraphVersusBlocksTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionAutoTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionCountTestCase, TestCase::QUICK);
        AddTestCase(new GsnPartitionChecksTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnPartitionTestSuite g_gsnPartitionTestSuite;
