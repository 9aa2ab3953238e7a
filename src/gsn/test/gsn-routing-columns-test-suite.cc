/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Routes one destination at a time: every algorithm gives each endpoint's column once and the
 * same routes as its whole tables, the deadlock check fed column by column judges as it does
 * on whole tables, Auto hands on the routes of the algorithm it chose, and
 * GsnFabricHelper::ComputeTables keeps the rows of the switches a process builds only.
 */
#include "ns3/gsn-deadlock-checker.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-routing.h"
#include "ns3/gsn-switch.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/test.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A topology, its name, and the algorithms that apply to it.
struct Case
{
    std::string name;                    ///< for messages
    GsnTopology t;                       ///< the topology
    std::vector<std::string> algorithms; ///< those that apply
    std::string autoPicks;               ///< the algorithm Auto's routes must equal
};

/// Two stars of two endpoints, not connected: each switch reaches only its own endpoints.
GsnTopology
TwoIslands()
{
    GsnTopology t;
    for (uint32_t island = 0; island < 2; ++island)
    {
        const uint32_t sw = t.AddSwitch(4);
        for (uint32_t i = 0; i < 2; ++i)
        {
            t.Connect(t.AddEndpoint(), 0, sw, i);
        }
    }
    return t;
}

std::vector<Case>
Cases()
{
    using B = GsnTopologyBuilder;
    return {
        {"TwoIslands", TwoIslands(), {"MinHop", "UpDown"}, "MinHop"},
        {"FatTree(4)", B::FatTree(4), {"MinHop", "UpDown"}, "MinHop"},
        {"KaryNTree(3,3)", B::KaryNTree(3, 3), {"MinHop", "UpDown"}, "MinHop"},
        {"Mesh2D(4,3)", B::Mesh2D(4, 3), {"MinHop", "UpDown", "DimensionOrder"}, "DimensionOrder"},
        {"Torus2D(4,4)", B::Torus2D(4, 4), {"MinHop", "UpDown", "DimensionOrder"}, "UpDown"},
        {"Ring(5,2)", B::Ring(5, 2), {"MinHop", "UpDown"}, "UpDown"},
    };
}

/// The routes of \p name on \p t, and the checker fed column by column as they came.
struct Streamed
{
    GsnRoutingTables tables;            ///< the columns put together
    std::map<uint32_t, uint32_t> given; ///< per endpoint, how many columns it got
    std::vector<std::pair<GsnDeadlockChecker::Channel, GsnDeadlockChecker::Channel>> deps;
    bool cyclic{false}; ///< the streamed checker found a cycle
};

Streamed
Stream(const GsnTopology& t, const std::string& name)
{
    Streamed s;
    s.tables.port.resize(t.GetNElements());
    for (uint32_t sw : t.GetSwitches())
    {
        s.tables.port[sw].assign(t.GetNElements(), -1);
    }
    GsnDeadlockChecker checker(t);
    GsnRouting::Create(name)->ComputeColumns(t, [&](uint32_t e, const std::vector<int32_t>& c) {
        ++s.given[e];
        for (uint32_t sw : t.GetSwitches())
        {
            s.tables.port[sw][e] = c[sw];
        }
        checker.AddRoutes(e, c);
    });
    s.deps = checker.GetDependencies();
    s.cyclic = !checker.FindCycle().empty();
    return s;
}

} // namespace

/// Every algorithm's columns: each endpoint once, the same routes and judgement as whole tables.
class GsnRouteColumnsTestCase : public TestCase
{
  public:
    GsnRouteColumnsTestCase()
        : TestCase("Routes one destination at a time: the same routes and the same judgement")
    {
    }

  private:
    void DoRun() override
    {
        for (const Case& c : Cases())
        {
            for (const std::string& name : c.algorithms)
            {
                const std::string where = c.name + " " + name;
                const Streamed s = Stream(c.t, name);
                const GsnRoutingTables whole = GsnRouting::Create(name)->Compute(c.t);
                NS_TEST_EXPECT_MSG_EQ(s.given.size(), c.t.GetEndpoints().size(), where);
                for (const auto& [e, n] : s.given)
                {
                    NS_TEST_EXPECT_MSG_EQ(c.t.IsEndpoint(e),
                                          true,
                                          where << ": a column per endpoint");
                    NS_TEST_EXPECT_MSG_EQ(n, 1u, where << ": endpoint " << e << " once");
                }
                NS_TEST_EXPECT_MSG_EQ((s.tables.port == whole.port), true, where << ": routes");
                if (c.name == "TwoIslands")
                {
                    // Compute() is built on the columns: judge these against the fabric.
                    for (uint32_t sw : c.t.GetSwitches())
                    {
                        for (uint32_t e : c.t.GetEndpoints())
                        {
                            const bool own = c.t.GetPeer(e, 0)->first == sw;
                            NS_TEST_EXPECT_MSG_EQ((s.tables.Get(sw, e) >= 0),
                                                  own,
                                                  where << ": switch " << sw << " to " << e);
                        }
                    }
                }
                NS_TEST_EXPECT_MSG_EQ((s.deps == GsnDeadlockChecker::Dependencies(c.t, whole)),
                                      true,
                                      where << ": dependencies");
                NS_TEST_EXPECT_MSG_EQ(s.cyclic,
                                      !GsnDeadlockChecker::FindCycle(c.t, whole).empty(),
                                      where << ": judgement");
            }
            const Streamed automatic = Stream(c.t, "Auto");
            NS_TEST_EXPECT_MSG_EQ(
                (automatic.tables.port == GsnRouting::Create(c.autoPicks)->Compute(c.t).port),
                true,
                c.name << ": Auto gives " << c.autoPicks << "'s routes");
            NS_TEST_EXPECT_MSG_EQ(automatic.cyclic, false, c.name << ": Auto is acyclic");
        }
        // A streamed check sees a cycle only once the routes that close it are in.
        const GsnTopology ring = GsnTopologyBuilder::Ring(5);
        GsnDeadlockChecker partial(ring);
        NS_TEST_EXPECT_MSG_EQ(partial.FindCycle().size(), 0u, "no routes, no cycle");
        NS_TEST_EXPECT_MSG_EQ(Stream(ring, "MinHop").cyclic, true, "MinHop on Ring(5)");
    }
};

/// GsnFabricHelper::ComputeTables keeps the rows of built switches and refuses cyclic routes.
class GsnComputeTablesTestCase : public TestCase
{
  public:
    GsnComputeTablesTestCase()
        : TestCase("ComputeTables keeps the rows of the switches built here")
    {
    }

  private:
    /// A fabric description with switch objects for the even-numbered switches only.
    static GsnFabric HalfBuilt(const GsnTopology& t)
    {
        GsnFabric fabric;
        fabric.topology = t;
        for (uint32_t sw : t.GetSwitches())
        {
            fabric.switchElements.push_back(sw);
            fabric.switchObjects.push_back(
                fabric.switchElements.size() % 2 == 1 ? CreateObject<GsnSwitch>() : nullptr);
        }
        return fabric;
    }

    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::FatTree(4);
        GsnFabric fabric = HalfBuilt(t);
        GsnFabricHelper::ComputeTables(fabric, "Auto", true);
        const GsnRoutingTables whole = GsnRouting::Create("MinHop")->Compute(t);
        NS_TEST_ASSERT_MSG_EQ(fabric.tables.port.size(), t.GetNElements(), "a row per element");
        for (uint32_t s = 0; s < fabric.switchElements.size(); ++s)
        {
            const uint32_t sw = fabric.switchElements[s];
            if (fabric.switchObjects[s])
            {
                NS_TEST_EXPECT_MSG_EQ((fabric.tables.port[sw] == whole.port[sw]),
                                      true,
                                      "switch " << sw << " built here: its whole row");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(fabric.tables.port[sw].size(),
                                      0u,
                                      "switch " << sw << " built elsewhere: no row");
            }
        }

        // Refused as the algorithm or the checker says.
        GsnFabric ring = HalfBuilt(GsnTopologyBuilder::Ring(5));
        std::string error;
        try
        {
            GsnFabricHelper::ComputeTables(ring, "MinHop", true);
        }
        catch (const std::runtime_error& e)
        {
            error = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(error.find("dependency cycle"), std::string::npos, error);
        error.clear();
        try
        {
            GsnFabricHelper::ComputeTables(ring, "MinHop", false);
        }
        catch (const std::exception& e)
        {
            error = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(error, "", "not checked: kept");
        try
        {
            GsnFabricHelper::ComputeTables(ring, "Shortest", true);
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(error.find("unknown routing algorithm"), std::string::npos, error);
    }
};

/// The gsn-routing-columns test suite.
class GsnRoutingColumnsTestSuite : public TestSuite
{
  public:
    GsnRoutingColumnsTestSuite()
        : TestSuite("gsn-routing-columns", UNIT)
    {
        AddTestCase(new GsnRouteColumnsTestCase, TestCase::QUICK);
        AddTestCase(new GsnComputeTablesTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnRoutingColumnsTestSuite g_gsnRoutingColumnsTestSuite;
