/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of GsnFabricHelper's partition of a fabric over MPI ranks (PartitionBlocks): fat
 * trees by pod, tori by slab, every rank used, every cable between ranks counted. (Running
 * across ranks is tools/test-mpi.sh's job.)
 */
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/test.h"

#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the number of cables whose two ends are on different ranks
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
    }
};

/// Static instance registering the suite.
static GsnPartitionTestSuite g_gsnPartitionTestSuite;
