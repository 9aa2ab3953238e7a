/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the routing algorithms and the deadlock check: all-pairs reachability on
 * every builder's shape with every applicable algorithm, path lengths, up*-down* legality,
 * dimension order, fat-tree balance, and cycles found (or not) in the channel dependency graph.
 */
#include "ns3/gsn-deadlock-checker.h"
#include "ns3/gsn-dimension-order-routing.h"
#include "ns3/gsn-min-hop-routing.h"
#include "ns3/gsn-routing.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/gsn-up-down-routing.h"
#include "ns3/test.h"

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A topology with a name for messages.
struct Named
{
    std::string name; ///< for messages
    GsnTopology t;    ///< the topology
};

/// One of each shape, small enough for all-pairs checks of every algorithm.
std::vector<Named>
SmallShapes()
{
    using B = GsnTopologyBuilder;
    return {
        {"BackToBack", B::BackToBack()},
        {"Star(6)", B::Star(6)},
        {"TwoSwitchFigure132", B::TwoSwitchFigure132()},
        {"KaryNTree(2,3)", B::KaryNTree(2, 3)},
        {"KaryNTree(4,2)", B::KaryNTree(4, 2)},
        {"KaryNTree(3,3)", B::KaryNTree(3, 3)},
        {"FatTree(4)", B::FatTree(4)},
        {"FatTree(6)", B::FatTree(6)},
        {"Mesh2D(4,3)", B::Mesh2D(4, 3)},
        {"Mesh2D(3,3,2)", B::Mesh2D(3, 3, 2)},
        {"Torus2D(4,4)", B::Torus2D(4, 4)},
        {"Torus2D(5,3,2)", B::Torus2D(5, 3, 2)},
        {"Torus2D(2,3)", B::Torus2D(2, 3)},
        {"Ring(4)", B::Ring(4)},
        {"Ring(5,2)", B::Ring(5, 2)},
        {"Ring(2)", B::Ring(2)},
    };
}

/// \return true if dimension-order routing applies (switches on a grid)
bool
HasGrid(const GsnTopology& t)
{
    for (uint32_t s : t.GetSwitches())
    {
        if (t.GetElement(s).coords.empty())
        {
            return false;
        }
    }
    return true;
}

/// Hop distances from endpoint \p src to every element; only switches relay. (The test's
/// own breadth-first search, independent of the library's.)
std::vector<int32_t>
Distances(const GsnTopology& t, uint32_t src)
{
    std::vector<int32_t> dist(t.GetNElements(), -1);
    std::deque<uint32_t> queue{src};
    dist[src] = 0;
    while (!queue.empty())
    {
        const uint32_t x = queue.front();
        queue.pop_front();
        if (x != src && !t.IsSwitch(x))
        {
            continue;
        }
        for (uint32_t p = 0; p < t.GetElement(x).numPorts; ++p)
        {
            const auto peer = t.GetPeer(x, p);
            if (peer && dist[peer->first] < 0)
            {
                dist[peer->first] = dist[x] + 1;
                queue.push_back(peer->first);
            }
        }
    }
    return dist;
}

/// \return "" if every route of \p r reaches its destination without loop, else the first
///         pair that does not
std::string
CheckAllPairs(const GsnTopology& t, const GsnRoutingTables& r)
{
    const auto endpoints = t.GetEndpoints();
    std::vector<uint32_t> seen(t.GetNElements(), 0);
    uint32_t stamp = 0;
    for (uint32_t src : endpoints)
    {
        for (uint32_t dst : endpoints)
        {
            if (src == dst)
            {
                continue;
            }
            const auto hops = r.Route(t, src, dst);
            const std::string pair = t.GetElement(src).name + " to " + t.GetElement(dst).name;
            if (hops.empty() || hops.front() != std::make_pair(src, 0u))
            {
                return pair + ": no route";
            }
            ++stamp;
            for (const auto& [element, port] : hops)
            {
                if (seen[element] == stamp)
                {
                    return pair + ": loop";
                }
                seen[element] = stamp;
            }
            const auto last = t.GetPeer(hops.back().first, hops.back().second);
            if (!last || last->first != dst)
            {
                return pair + ": ends elsewhere";
            }
        }
    }
    return "";
}

/// \return Message of the exception of type E that \p f throws, or "" when none
template <typename E>
std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        return e.what();
    }
    return "";
}

/// Tables sending everything clockwise (port 0) around a Ring(n) built by the builder.
GsnRoutingTables
ClockwiseRingTables(const GsnTopology& ring)
{
    GsnRoutingTables r;
    r.port.resize(ring.GetNElements());
    for (uint32_t s : ring.GetSwitches())
    {
        r.port[s].assign(ring.GetNElements(), -1);
        for (uint32_t e : ring.GetEndpoints())
        {
            const auto attach = ring.GetPeer(e, 0);
            r.port[s][e] = attach->first == s ? int32_t(attach->second) : 0;
        }
    }
    return r;
}

} // namespace

/// Every route of one algorithm on one topology reaches its destination, loop-free.
class GsnRoutingReachabilityTestCase : public TestCase
{
  public:
    /**
     * \param shape the topology
     * \param algorithm the routing algorithm's name
     * \param check also run the deadlock check and expect no cycle
     */
    GsnRoutingReachabilityTestCase(Named shape, std::string algorithm, bool check)
        : TestCase("All pairs reachable: " + algorithm + " on " + shape.name),
          m_shape(std::move(shape)),
          m_algorithm(std::move(algorithm)),
          m_check(check)
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology& t = m_shape.t;
        const auto routing = GsnRouting::Create(m_algorithm);
        const GsnRoutingTables r = routing->Compute(t);
        NS_TEST_ASSERT_MSG_EQ(r.port.size(), t.GetNElements(), "one row per element");
        for (uint32_t id = 0; id < t.GetNElements(); ++id)
        {
            NS_TEST_EXPECT_MSG_EQ(r.port[id].size(),
                                  (t.IsSwitch(id) ? t.GetNElements() : 0),
                                  "row size of " << t.GetElement(id).name);
        }
        NS_TEST_EXPECT_MSG_EQ(CheckAllPairs(t, r), "", m_algorithm << " on " << m_shape.name);
        if (m_check)
        {
            const auto cycle = GsnDeadlockChecker::FindCycle(t, r);
            NS_TEST_EXPECT_MSG_EQ(cycle.size(),
                                  0u,
                                  "cycle " << GsnDeadlockChecker::DescribeCycle(t, cycle));
        }
    }

    Named m_shape;           ///< the topology
    std::string m_algorithm; ///< the algorithm
    bool m_check;            ///< expect acyclic tables
};

/// MinHop routes are as short as the topology allows.
class GsnMinHopShortestTestCase : public TestCase
{
  public:
    GsnMinHopShortestTestCase()
        : TestCase("MinHop path lengths equal breadth-first distances")
    {
    }

  private:
    void DoRun() override
    {
        for (const Named& s : SmallShapes())
        {
            const GsnRoutingTables r = GsnMinHopRouting().Compute(s.t);
            for (uint32_t src : s.t.GetEndpoints())
            {
                const auto dist = Distances(s.t, src);
                for (uint32_t dst : s.t.GetEndpoints())
                {
                    if (src != dst)
                    {
                        NS_TEST_ASSERT_MSG_EQ(int32_t(r.Route(s.t, src, dst).size()),
                                              dist[dst],
                                              s.name << " " << src << " to " << dst);
                    }
                }
            }
        }
    }
};

/// Up*-down* routes never go up after going down, and roots are chosen as documented.
class GsnUpDownLegalTestCase : public TestCase
{
  public:
    GsnUpDownLegalTestCase()
        : TestCase("UpDown routes are legal: never up after down")
    {
    }

  private:
    /// \return the number of illegal routes (a down hop followed later by an up hop)
    static uint32_t IllegalRoutes(const GsnTopology& t,
                                  const GsnRoutingTables& r,
                                  const std::vector<int32_t>& levels)
    {
        uint32_t illegal = 0;
        for (uint32_t src : t.GetEndpoints())
        {
            for (uint32_t dst : t.GetEndpoints())
            {
                bool wentDown = false;
                for (const auto& [element, port] : r.Route(t, src, dst))
                {
                    const uint32_t next = t.GetPeer(element, port)->first;
                    if (!t.IsSwitch(element) || !t.IsSwitch(next))
                    {
                        continue;
                    }
                    const bool up = GsnUpDownRouting::IsUp(levels, element, next);
                    if (up && wentDown)
                    {
                        ++illegal;
                        break;
                    }
                    wentDown = wentDown || !up;
                }
            }
        }
        return illegal;
    }

    void DoRun() override
    {
        uint32_t checkedHops = 0;
        for (const Named& s : SmallShapes())
        {
            GsnUpDownRouting updown;
            const auto levels = updown.ComputeLevels(s.t);
            const auto roots = updown.ChooseRoots(s.t);
            for (uint32_t root : roots)
            {
                NS_TEST_EXPECT_MSG_EQ(levels[root], 0, s.name << " root level");
            }
            for (uint32_t sw : s.t.GetSwitches())
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(levels[sw], 0, s.name << " every switch levelled");
                checkedHops += levels[sw];
            }
            NS_TEST_EXPECT_MSG_EQ(IllegalRoutes(s.t, updown.Compute(s.t), levels),
                                  0u,
                                  s.name << " illegal routes");
        }
        NS_TEST_EXPECT_MSG_GT(checkedHops, 0u, "the shapes have switches below their root");

        // The check above can fail: MinHop on a ring turns down then up somewhere.
        {
            const GsnTopology ring = GsnTopologyBuilder::Ring(6);
            const auto levels = GsnUpDownRouting().ComputeLevels(ring);
            NS_TEST_EXPECT_MSG_GT(IllegalRoutes(ring, GsnMinHopRouting().Compute(ring), levels),
                                  0u,
                                  "MinHop breaks the up-down rule on a ring");
        }

        // Root choice: a core of a fat tree; the centre of an odd mesh; settable.
        {
            const GsnTopology t = GsnTopologyBuilder::FatTree(4);
            const auto roots = GsnUpDownRouting().ChooseRoots(t);
            NS_TEST_ASSERT_MSG_EQ(roots.size(), 1u, "one root");
            NS_TEST_EXPECT_MSG_EQ(t.GetElement(roots[0]).name, "core0", "fat tree root");
        }
        {
            const GsnTopology t = GsnTopologyBuilder::Mesh2D(3, 3);
            const auto roots = GsnUpDownRouting().ChooseRoots(t);
            NS_TEST_EXPECT_MSG_EQ(t.GetElement(roots.at(0)).name, "sw1.1", "mesh centre");
            GsnUpDownRouting corner;
            corner.SetRoot(*t.FindElement("sw0.0"));
            const auto levels = corner.ComputeLevels(t);
            NS_TEST_EXPECT_MSG_EQ(levels[*t.FindElement("sw2.2")], 4, "far corner level");
            NS_TEST_EXPECT_MSG_EQ(CheckAllPairs(t, corner.Compute(t)), "", "corner root");
            NS_TEST_EXPECT_MSG_EQ(IllegalRoutes(t, corner.Compute(t), levels), 0u, "corner");
        }
        {
            // Several roots: all cores of a fat tree keep every shortest path.
            const GsnTopology t = GsnTopologyBuilder::FatTree(4);
            std::vector<uint32_t> cores;
            for (uint32_t sw : t.GetSwitches())
            {
                if (t.GetElement(sw).name.rfind("core", 0) == 0)
                {
                    cores.push_back(sw);
                }
            }
            const GsnUpDownRouting updown(cores);
            const GsnRoutingTables r = updown.Compute(t);
            NS_TEST_EXPECT_MSG_EQ(CheckAllPairs(t, r), "", "all cores as roots");
            NS_TEST_EXPECT_MSG_EQ(IllegalRoutes(t, r, updown.ComputeLevels(t)), 0u, "legal");
            for (uint32_t src : t.GetEndpoints())
            {
                const auto dist = Distances(t, src);
                for (uint32_t dst : t.GetEndpoints())
                {
                    if (src != dst)
                    {
                        NS_TEST_ASSERT_MSG_EQ(int32_t(r.Route(t, src, dst).size()),
                                              dist[dst],
                                              "shortest with all cores as roots");
                    }
                }
            }
        }
        {
            GsnUpDownRouting bad;
            bad.SetRoot(0); // an endpoint
            NS_TEST_EXPECT_MSG_NE(
                ErrorOf<std::invalid_argument>([&] { bad.Compute(GsnTopologyBuilder::Star(3)); }),
                "",
                "a root must be a switch");
        }
    }
};

/// The channel dependency graph on a ring: cyclic with clockwise or MinHop routing, acyclic
/// with up*-down*.
class GsnDeadlockRingTestCase : public TestCase
{
  public:
    GsnDeadlockRingTestCase()
        : TestCase("Deadlock check rejects cyclic ring tables and accepts UpDown")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology ring = GsnTopologyBuilder::Ring(4);
        const GsnRoutingTables clockwise = ClockwiseRingTables(ring);
        NS_TEST_EXPECT_MSG_EQ(CheckAllPairs(ring, clockwise), "", "clockwise tables work");
        const auto cycle = GsnDeadlockChecker::FindCycle(ring, clockwise);
        NS_TEST_ASSERT_MSG_EQ(cycle.size(), 4u, "the cycle is the whole ring");
        for (std::size_t i = 0; i < cycle.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(cycle[i].second, 0u, "clockwise channels");
            // Each channel leads to the switch that sends the next one.
            const auto next = cycle[(i + 1) % cycle.size()];
            NS_TEST_EXPECT_MSG_EQ(ring.GetPeer(cycle[i].first, cycle[i].second)->first,
                                  next.first,
                                  "consecutive channels");
        }
        const std::string description = GsnDeadlockChecker::DescribeCycle(ring, cycle);
        NS_TEST_EXPECT_MSG_EQ(description,
                              "sw0:p0 -> sw1:p0 -> sw2:p0 -> sw3:p0 -> sw0:p0",
                              "named cycle");
        const std::string error =
            ErrorOf<std::runtime_error>([&] { GsnDeadlockChecker::Check(ring, clockwise); });
        NS_TEST_EXPECT_MSG_NE(error.find(description), std::string::npos, error);

        const GsnRoutingTables updown = GsnUpDownRouting().Compute(ring);
        NS_TEST_EXPECT_MSG_EQ(GsnDeadlockChecker::FindCycle(ring, updown).size(), 0u, "UpDown");
        NS_TEST_EXPECT_MSG_EQ(
            ErrorOf<std::runtime_error>([&] { GsnDeadlockChecker::Check(ring, updown); }),
            "",
            "Check accepts UpDown");

        // Odd rings have unique shortest paths all the way round: MinHop closes the cycle.
        for (uint32_t n : {5u, 7u})
        {
            const GsnTopology odd = GsnTopologyBuilder::Ring(n);
            NS_TEST_EXPECT_MSG_GT(
                GsnDeadlockChecker::FindCycle(odd, GsnMinHopRouting().Compute(odd)).size(),
                0u,
                "MinHop on Ring(" << n << ")");
            NS_TEST_EXPECT_MSG_EQ(
                GsnDeadlockChecker::FindCycle(odd, GsnUpDownRouting().Compute(odd)).size(),
                0u,
                "UpDown on Ring(" << n << ")");
        }
        // A routing loop is a cycle too: sw1 and sw2 send endpoint 0's traffic to each other.
        GsnRoutingTables loop = updown;
        loop.port[*ring.FindElement("sw1")][0] = 0;
        loop.port[*ring.FindElement("sw2")][0] = 1;
        NS_TEST_EXPECT_MSG_EQ(loop.Route(ring, 1, 0).size(), 0u, "looping route is empty");
        const auto loopCycle = GsnDeadlockChecker::FindCycle(ring, loop);
        const std::set<GsnDeadlockChecker::Channel> loopChannels(loopCycle.begin(),
                                                                 loopCycle.end());
        const std::set<GsnDeadlockChecker::Channel> expectedLoop{{*ring.FindElement("sw1"), 0},
                                                                 {*ring.FindElement("sw2"), 1}};
        NS_TEST_EXPECT_MSG_EQ((loopCycle.size() == 2 && loopChannels == expectedLoop),
                              true,
                              GsnDeadlockChecker::DescribeCycle(ring, loopCycle));
    }
};

/// The dependency graph itself, on a star.
class GsnDeadlockDependenciesTestCase : public TestCase
{
  public:
    GsnDeadlockDependenciesTestCase()
        : TestCase("Channel dependency graph of a star")
    {
    }

  private:
    void DoRun() override
    {
        // Endpoint i's channel into the switch feeds the switch's port j for every j != i.
        const GsnTopology t = GsnTopologyBuilder::Star(3);
        const auto deps = GsnDeadlockChecker::Dependencies(t, GsnMinHopRouting().Compute(t));
        std::set<std::pair<GsnDeadlockChecker::Channel, GsnDeadlockChecker::Channel>> expected;
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t j = 0; j < 3; ++j)
            {
                if (i != j)
                {
                    expected.insert({{i, 0}, {3, j}});
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(deps.size(), expected.size(), "six dependencies");
        NS_TEST_EXPECT_MSG_EQ(
            (std::set<std::pair<GsnDeadlockChecker::Channel, GsnDeadlockChecker::Channel>>(
                 deps.begin(),
                 deps.end()) == expected),
            true,
            "the expected dependencies");
        // Two switches: a route through both makes the trunk depend on the far port.
        const GsnTopology f = GsnTopologyBuilder::TwoSwitchFigure132();
        const auto fdeps = GsnDeadlockChecker::Dependencies(f, GsnMinHopRouting().Compute(f));
        const GsnDeadlockChecker::Channel trunk{*f.FindElement("sw1"), 7};
        const GsnDeadlockChecker::Channel toL{*f.FindElement("sw2"), 6};
        bool found = false;
        for (const auto& d : fdeps)
        {
            found = found || (d.first == trunk && d.second == toL);
        }
        NS_TEST_EXPECT_MSG_EQ(found, true, "sw1:p7 -> sw2:p6 (A to L)");
        NS_TEST_EXPECT_MSG_EQ(GsnDeadlockChecker::DescribeCycle(f, {}), "", "empty cycle");
    }
};

/// Dimension-order routing: ordered, minimal and acyclic on meshes, cyclic on tori and rings.
class GsnDimensionOrderTestCase : public TestCase
{
  public:
    GsnDimensionOrderTestCase()
        : TestCase("DimensionOrder: acyclic on meshes, cyclic on tori, refused without a grid")
    {
    }

  private:
    /// \return the number of routes that correct a dimension after a higher one
    static uint32_t OutOfOrderRoutes(const GsnTopology& t, const GsnRoutingTables& r)
    {
        uint32_t bad = 0;
        for (uint32_t src : t.GetEndpoints())
        {
            for (uint32_t dst : t.GetEndpoints())
            {
                std::size_t highest = 0;
                for (const auto& [element, port] : r.Route(t, src, dst))
                {
                    const uint32_t next = t.GetPeer(element, port)->first;
                    if (!t.IsSwitch(element) || !t.IsSwitch(next))
                    {
                        continue;
                    }
                    const auto& a = t.GetElement(element).coords;
                    const auto& b = t.GetElement(next).coords;
                    std::size_t d = 0;
                    while (a[d] == b[d])
                    {
                        ++d;
                    }
                    if (d < highest)
                    {
                        ++bad;
                        break;
                    }
                    highest = d;
                }
            }
        }
        return bad;
    }

    void DoRun() override
    {
        GsnDimensionOrderRouting dor;
        for (const auto& t :
             {GsnTopologyBuilder::Mesh2D(4, 3), GsnTopologyBuilder::Mesh2D(3, 5, 2)})
        {
            const GsnRoutingTables r = dor.Compute(t);
            NS_TEST_EXPECT_MSG_EQ(GsnDeadlockChecker::FindCycle(t, r).size(), 0u, "mesh acyclic");
            NS_TEST_EXPECT_MSG_EQ(OutOfOrderRoutes(t, r), 0u, "x before y");
            for (uint32_t src : t.GetEndpoints())
            {
                const auto dist = Distances(t, src);
                for (uint32_t dst : t.GetEndpoints())
                {
                    if (src != dst)
                    {
                        NS_TEST_ASSERT_MSG_EQ(int32_t(r.Route(t, src, dst).size()),
                                              dist[dst],
                                              "minimal on a mesh");
                    }
                }
            }
        }
        // MinHop mixes XY and YX turns on a mesh: the order check can fail.
        {
            const GsnTopology t = GsnTopologyBuilder::Mesh2D(4, 4);
            NS_TEST_EXPECT_MSG_GT(OutOfOrderRoutes(t, GsnMinHopRouting().Compute(t)),
                                  0u,
                                  "MinHop is not dimension-ordered");
        }
        for (const auto& t : {GsnTopologyBuilder::Torus2D(4, 4),
                              GsnTopologyBuilder::Torus2D(5, 3),
                              GsnTopologyBuilder::Ring(5)})
        {
            const GsnRoutingTables r = dor.Compute(t);
            NS_TEST_EXPECT_MSG_EQ(CheckAllPairs(t, r), "", "torus reachable");
            NS_TEST_EXPECT_MSG_EQ(OutOfOrderRoutes(t, r), 0u, "torus dimension order");
            const auto cycle = GsnDeadlockChecker::FindCycle(t, r);
            NS_TEST_EXPECT_MSG_GT(cycle.size(), 0u, "torus ring cycle");
            // The cycle goes round one ring of the torus: every hop in the same dimension.
            std::set<std::size_t> dims;
            for (const auto& [element, port] : cycle)
            {
                const auto& a = t.GetElement(element).coords;
                const auto& b = t.GetElement(t.GetPeer(element, port)->first).coords;
                for (std::size_t d = 0; d < a.size() && d < b.size(); ++d)
                {
                    if (a[d] != b[d])
                    {
                        dims.insert(d);
                    }
                }
            }
            NS_TEST_EXPECT_MSG_EQ(dims.size(), 1u, GsnDeadlockChecker::DescribeCycle(t, cycle));
            NS_TEST_EXPECT_MSG_NE(
                ErrorOf<std::runtime_error>([&] { GsnDeadlockChecker::Check(t, r); }),
                "",
                "Check refuses the torus");
            // Shortest way round.
            for (uint32_t src : t.GetEndpoints())
            {
                const auto dist = Distances(t, src);
                for (uint32_t dst : t.GetEndpoints())
                {
                    if (src != dst)
                    {
                        NS_TEST_ASSERT_MSG_EQ(int32_t(r.Route(t, src, dst).size()),
                                              dist[dst],
                                              "minimal on a torus");
                    }
                }
            }
        }
        // Without a grid, DimensionOrder refuses.
        NS_TEST_EXPECT_MSG_NE(
            ErrorOf<std::invalid_argument>([&] { dor.Compute(GsnTopologyBuilder::FatTree(4)); }),
            "",
            "no coordinates");
        {
            GsnTopology t = GsnTopologyBuilder::Mesh2D(2, 2);
            t.AddSwitch(5, "extra", {5, 5});
            NS_TEST_EXPECT_MSG_NE(
                ErrorOf<std::invalid_argument>([&] { dor.Compute(t); }).find("do not fill a grid"),
                std::string::npos,
                "holes in the grid");
        }
        {
            GsnTopology t;
            t.AddSwitch(3, "s0", {0});
            t.AddSwitch(3, "s1", {0});
            t.AddSwitch(3, "s2", {2});
            NS_TEST_EXPECT_MSG_NE(
                ErrorOf<std::invalid_argument>([&] { dor.Compute(t); }).find("both at (0)"),
                std::string::npos,
                "two switches at one position");
        }
        {
            // A mesh missing a cable the route needs.
            GsnTopology t;
            for (uint32_t i = 0; i < 3; ++i)
            {
                t.AddEndpoint();
            }
            for (int32_t i = 0; i < 3; ++i)
            {
                t.AddSwitch(3, "s" + std::to_string(i), {i});
                t.Connect(uint32_t(i), 0, 3 + uint32_t(i), 2);
            }
            t.Connect(3, 0, 4, 1);
            t.Connect(5, 1, 3, 1); // s0 - s2 directly: s1 - s2 is missing
            NS_TEST_EXPECT_MSG_NE(ErrorOf<std::invalid_argument>([&] {
                                      dor.Compute(t);
                                  }).find("no cable to its neighbour"),
                                  std::string::npos,
                                  "missing cable");
        }
        NS_TEST_EXPECT_MSG_EQ(CheckAllPairs(GsnTopologyBuilder::BackToBack(),
                                            dor.Compute(GsnTopologyBuilder::BackToBack())),
                              "",
                              "back to back needs no grid");
    }
};

/// MinHop on fat trees: acyclic, and d-mod-k balanced (one top switch per destination).
class GsnFatTreeMinHopTestCase : public TestCase
{
  public:
    /// \param k the fat tree's switch ports
    explicit GsnFatTreeMinHopTestCase(uint32_t k)
        : TestCase("MinHop on FatTree(" + std::to_string(k) +
                   "): reachable, acyclic, one core per destination"),
          m_k(k)
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::FatTree(m_k);
        const GsnRoutingTables r = GsnMinHopRouting().Compute(t);
        NS_TEST_EXPECT_MSG_EQ(CheckAllPairs(t, r), "", "all pairs");
        const auto cycle = GsnDeadlockChecker::FindCycle(t, r);
        NS_TEST_EXPECT_MSG_EQ(cycle.size(), 0u, GsnDeadlockChecker::DescribeCycle(t, cycle));

        // Every destination is reached from other pods through exactly one core; each core
        // serves the same number of destinations (k), so the core links share the load.
        std::map<uint32_t, uint32_t> perCore;
        const uint32_t perPod = m_k * m_k / 4;
        for (uint32_t dst : t.GetEndpoints())
        {
            std::set<uint32_t> cores;
            for (uint32_t src : t.GetEndpoints())
            {
                if (src / perPod == dst / perPod)
                {
                    continue;
                }
                for (const auto& hop : r.Route(t, src, dst))
                {
                    if (t.GetElement(hop.first).name.rfind("core", 0) == 0)
                    {
                        cores.insert(hop.first);
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(cores.size(), 1u, "one core toward endpoint " << dst);
            ++perCore[*cores.begin()];
        }
        NS_TEST_EXPECT_MSG_EQ(perCore.size(), perPod, "every core used");
        for (const auto& [core, n] : perCore)
        {
            NS_TEST_EXPECT_MSG_EQ(n, m_k, "destinations of " << t.GetElement(core).name);
        }
    }

    uint32_t m_k; ///< switch ports
};

/// Route() and Get() on hand-made tables, and the factory.
class GsnRoutingTablesTestCase : public TestCase
{
  public:
    GsnRoutingTablesTestCase()
        : TestCase("Route and Get handle missing routes; the factory knows the algorithms")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::TwoSwitchFigure132();
        GsnRoutingTables r = GsnMinHopRouting().Compute(t);
        const uint32_t a = *t.FindElement("A");
        const uint32_t l = *t.FindElement("L");
        const uint32_t sw1 = *t.FindElement("sw1");
        const uint32_t sw2 = *t.FindElement("sw2");
        const std::vector<std::pair<uint32_t, uint32_t>> expected{{a, 0}, {sw1, 7}, {sw2, 6}};
        NS_TEST_EXPECT_MSG_EQ((r.Route(t, a, l) == expected), true, "A to L");
        NS_TEST_EXPECT_MSG_EQ(r.Route(t, a, a).size(), 0u, "to itself");
        NS_TEST_EXPECT_MSG_EQ(r.Route(t, a, sw2).size(), 0u, "to a switch");
        NS_TEST_EXPECT_MSG_EQ(r.Route(t, sw1, l).size(), 0u, "from a switch");
        NS_TEST_EXPECT_MSG_EQ(r.Get(sw1, 999), -1, "unknown destination");
        NS_TEST_EXPECT_MSG_EQ(r.Get(a, l), -1, "endpoint rows are empty");
        NS_TEST_EXPECT_MSG_EQ(r.Get(sw2, l), 6, "L hangs on sw2 port 6");
        r.port[sw2][l] = -1;
        NS_TEST_EXPECT_MSG_EQ(r.Route(t, a, l).size(), 0u, "missing entry");
        r.port[sw2][l] = 7;
        NS_TEST_EXPECT_MSG_EQ(r.Route(t, a, l).size(), 0u, "ping-pong loop");
        r.port[sw2][l] = 6;
        r.port[sw1][l] = 5; // an uncabled port
        NS_TEST_EXPECT_MSG_EQ(r.Route(t, a, l).size(), 0u, "uncabled port");

        for (const auto& name : GsnRouting::GetNames())
        {
            NS_TEST_EXPECT_MSG_EQ(GsnRouting::Create(name)->GetName(), name, "factory");
        }
        const std::string error =
            ErrorOf<std::invalid_argument>([] { GsnRouting::Create("Valiant"); });
        NS_TEST_EXPECT_MSG_NE(error.find("'Valiant'"), std::string::npos, error);
        NS_TEST_EXPECT_MSG_NE(error.find("UpDown"), std::string::npos, "lists known names");

        // Auto: the first deadlock-free one of MinHop, DimensionOrder, UpDown.
        const auto automatic = GsnRouting::Create("Auto");

        const struct
        {
            GsnTopology t;
            std::string expected;
        } autoCases[] = {
            {GsnTopologyBuilder::FatTree(4), "MinHop"},
            {GsnTopologyBuilder::Mesh2D(3, 3), "DimensionOrder"},
            {GsnTopologyBuilder::Torus2D(4, 4), "UpDown"},
        };

        for (const auto& c : autoCases)
        {
            const GsnRoutingTables chosen = automatic->Compute(c.t);
            NS_TEST_EXPECT_MSG_EQ(
                (chosen.port == GsnRouting::Create(c.expected)->Compute(c.t).port),
                true,
                "Auto picks " << c.expected);
            NS_TEST_EXPECT_MSG_EQ(GsnDeadlockChecker::FindCycle(c.t, chosen).size(),
                                  0u,
                                  "Auto is acyclic");
        }

        // Unreachable endpoints get -1, not an exception.
        GsnTopology split;
        split.AddEndpoint("a");
        split.AddEndpoint("b");
        split.AddSwitch(2, "s1");
        split.AddSwitch(2, "s2");
        split.Connect(0, 0, 2, 0);
        split.Connect(1, 0, 3, 0);
        for (const auto& name : {"MinHop", "UpDown", "Auto"})
        {
            const GsnRoutingTables s = GsnRouting::Create(name)->Compute(split);
            NS_TEST_EXPECT_MSG_EQ(s.Get(2, 1), -1, name << ": no route across the gap");
            NS_TEST_EXPECT_MSG_EQ(s.Get(2, 0), 0, name << ": local endpoint");
            NS_TEST_EXPECT_MSG_EQ(s.Route(split, 0, 1).size(), 0u, name);
        }
    }
};

/// The gsn-routing test suite.
class GsnRoutingTestSuite : public TestSuite
{
  public:
    GsnRoutingTestSuite()
        : TestSuite("gsn-routing", UNIT)
    {
        for (const Named& s : SmallShapes())
        {
            const bool tree = s.name.rfind("Mesh", 0) != 0 && s.name.rfind("Torus", 0) != 0 &&
                              s.name.rfind("Ring", 0) != 0;
            AddTestCase(new GsnRoutingReachabilityTestCase(s, "MinHop", tree), TestCase::QUICK);
            AddTestCase(new GsnRoutingReachabilityTestCase(s, "UpDown", true), TestCase::QUICK);
            AddTestCase(new GsnRoutingReachabilityTestCase(s, "Auto", true), TestCase::QUICK);
            if (HasGrid(s.t) && !s.t.GetSwitches().empty())
            {
                const bool mesh = s.name.rfind("Mesh", 0) == 0;
                AddTestCase(new GsnRoutingReachabilityTestCase(s, "DimensionOrder", mesh),
                            TestCase::QUICK);
            }
        }
        AddTestCase(new GsnMinHopShortestTestCase, TestCase::QUICK);
        AddTestCase(new GsnUpDownLegalTestCase, TestCase::QUICK);
        AddTestCase(new GsnDeadlockRingTestCase, TestCase::QUICK);
        AddTestCase(new GsnDeadlockDependenciesTestCase, TestCase::QUICK);
        AddTestCase(new GsnDimensionOrderTestCase, TestCase::QUICK);
        AddTestCase(new GsnRoutingTablesTestCase, TestCase::QUICK);
        AddTestCase(new GsnFatTreeMinHopTestCase(4), TestCase::QUICK);
        AddTestCase(new GsnFatTreeMinHopTestCase(8), TestCase::QUICK);
        AddTestCase(new GsnFatTreeMinHopTestCase(16), TestCase::QUICK);
        const Named big{"FatTree(16)", GsnTopologyBuilder::FatTree(16)};
        AddTestCase(new GsnRoutingReachabilityTestCase(big, "MinHop", true), TestCase::QUICK);
        AddTestCase(new GsnRoutingReachabilityTestCase(big, "UpDown", true), TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnRoutingTestSuite g_gsnRoutingTestSuite;
