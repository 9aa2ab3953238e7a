/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of GsnLayoutHelper: trees by level, grids by coordinates, every element placed
 * apart from the others, and the positions installed as mobility models.
 */
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-layout-helper.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/gsn-topology.h"
#include "ns3/mobility-model.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cmath>
#include <set>
#include <string>
#include <utility>

using namespace ns3;

namespace
{

/// \return how many elements share a position with another
uint32_t
Overlaps(const std::vector<Vector>& at)
{
    std::set<std::pair<double, double>> seen;
    uint32_t overlaps = 0;
    for (const Vector& v : at)
    {
        overlaps += seen.insert({v.x, v.y}).second ? 0 : 1;
    }
    return overlaps;
}

/// \return the ids of the elements whose name starts with \p prefix
std::vector<uint32_t>
Named(const GsnTopology& t, const std::string& prefix)
{
    std::vector<uint32_t> ids;
    for (uint32_t id = 0; id < t.GetNElements(); ++id)
    {
        if (t.GetElement(id).name.rfind(prefix, 0) == 0)
        {
            ids.push_back(id);
        }
    }
    return ids;
}

} // namespace

/// A fat tree is drawn by level: endpoints at the bottom, then edge, aggregation, core.
class GsnLayoutTreeTestCase : public TestCase
{
  public:
    GsnLayoutTreeTestCase()
        : TestCase("A fat tree is laid out by level, endpoints below their edge switch")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::FatTree(4);
        GsnLayoutHelper layout;
        layout.SetSpacing(5);
        const std::vector<Vector> at = layout.Compute(t);
        NS_TEST_ASSERT_MSG_EQ(at.size(), t.GetNElements(), "a position per element");
        NS_TEST_EXPECT_MSG_EQ(Overlaps(at), 0, "no two elements at the same place");
        // NetAnim's y axis points down: rows 30 (endpoints), 20, 10, 0 (core) with spacing 5.
        const std::vector<std::pair<std::string, double>> rows = {{"edge", 20},
                                                                  {"agg", 10},
                                                                  {"core", 0}};
        for (const auto& [prefix, y] : rows)
        {
            for (uint32_t id : Named(t, prefix))
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(at[id].y, y, 1e-9, t.GetElement(id).name);
            }
        }
        for (uint32_t e : t.GetEndpoints())
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(at[e].y, 30.0, 1e-9, "endpoints on the bottom row");
            // Under its edge switch: within one spacing of it.
            const auto edge = t.GetPeer(e, 0);
            NS_TEST_ASSERT_MSG_EQ(edge.has_value(), true, "cabled");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(std::abs(at[e].x - at[edge->first].x),
                                        5.0,
                                        t.GetElement(e).name << " far from its edge switch");
        }
    }
};

/// A torus is drawn as its grid, each endpoint just below its switch.
class GsnLayoutGridTestCase : public TestCase
{
  public:
    GsnLayoutGridTestCase()
        : TestCase("A torus is laid out on its grid, endpoints below their switch")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::Torus2D(3, 4, 2);
        GsnLayoutHelper layout;
        const std::vector<Vector> at = layout.Compute(t);
        NS_TEST_EXPECT_MSG_EQ(Overlaps(at), 0, "no two elements at the same place");
        for (uint32_t s : t.GetSwitches())
        {
            const std::vector<int32_t>& c = t.GetElement(s).coords;
            NS_TEST_EXPECT_MSG_EQ_TOL(at[s].x, c[0] * 20.0, 1e-9, "x from the first coordinate");
            NS_TEST_EXPECT_MSG_EQ_TOL(at[s].y, c[1] * 20.0, 1e-9, "y from the second");
        }
        for (uint32_t e : t.GetEndpoints())
        {
            const uint32_t s = t.GetPeer(e, 0)->first;
            NS_TEST_EXPECT_MSG_GT(at[e].y, at[s].y, "below its switch");
            NS_TEST_EXPECT_MSG_LT(at[e].y - at[s].y, 10.0, "closer than the next row");
        }
    }
};

/// Install gives each node of a fabric a mobility model at its element's position.
class GsnLayoutInstallTestCase : public TestCase
{
  public:
    GsnLayoutInstallTestCase()
        : TestCase("Install puts every node of a fabric at its element's position")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabric fabric = GsnFabricHelper().Install(GsnTopologyBuilder::KaryNTree(2, 3));
        GsnLayoutHelper layout;
        layout.Install(fabric);
        const std::vector<Vector> at = layout.Compute(fabric.topology);
        for (uint32_t i = 0; i < fabric.switches.GetN(); ++i)
        {
            Ptr<MobilityModel> m = fabric.switches.Get(i)->GetObject<MobilityModel>();
            NS_TEST_ASSERT_MSG_NE(m, nullptr, "switch node placed");
            NS_TEST_EXPECT_MSG_EQ(m->GetPosition(), at[fabric.switchElements[i]], "position");
        }
        for (uint32_t i = 0; i < fabric.endpoints.GetN(); ++i)
        {
            Ptr<MobilityModel> m = fabric.endpoints.Get(i)->GetObject<MobilityModel>();
            NS_TEST_ASSERT_MSG_NE(m, nullptr, "endpoint node placed");
            NS_TEST_EXPECT_MSG_EQ(m->GetPosition(), at[fabric.endpointElements[i]], "position");
        }
        Simulator::Destroy();
    }
};

/// The gsn-layout test suite.
class GsnLayoutTestSuite : public TestSuite
{
  public:
    GsnLayoutTestSuite()
        : TestSuite("gsn-layout", UNIT)
    {
        AddTestCase(new GsnLayoutTreeTestCase, TestCase::QUICK);
        AddTestCase(new GsnLayoutGridTestCase, TestCase::QUICK);
        AddTestCase(new GsnLayoutInstallTestCase, TestCase::QUICK);
    }
};

static GsnLayoutTestSuite g_gsnLayoutTestSuite; ///< the suite
