/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of fabric descriptions: the topology builders' shapes, cabling errors,
 * validation, and the text form (round trips, errors with line numbers, files).
 */
#include "ns3/gsn-topology-builder.h"
#include "ns3/gsn-topology.h"
#include "ns3/test.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the message of the std::invalid_argument \p f throws, or "" when it throws none
std::string
InvalidArgumentOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// \return true if \p text contains \p part
bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/// \return \p text parsed
GsnTopology
ParseText(const std::string& text)
{
    std::istringstream in(text);
    return GsnTopology::Parse(in);
}

/// \return the number of cabled ports of element \p id
uint32_t
CabledPorts(const GsnTopology& t, uint32_t id)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < t.GetElement(id).numPorts; ++p)
    {
        n += t.GetPeer(id, p).has_value();
    }
    return n;
}

/// \return "" if \p a and \p b have the same elements and cables, else the first difference
std::string
Difference(const GsnTopology& a, const GsnTopology& b)
{
    if (a.GetNElements() != b.GetNElements())
    {
        return "element count";
    }
    for (uint32_t id = 0; id < a.GetNElements(); ++id)
    {
        const auto& x = a.GetElement(id);
        const auto& y = b.GetElement(id);
        if (x.kind != y.kind || x.numPorts != y.numPorts || x.name != y.name ||
            x.coords != y.coords)
        {
            return "element " + std::to_string(id);
        }
    }
    if (a.GetCables().size() != b.GetCables().size())
    {
        return "cable count";
    }
    for (std::size_t i = 0; i < a.GetCables().size(); ++i)
    {
        const auto& x = a.GetCables()[i];
        const auto& y = b.GetCables()[i];
        if (x.a != y.a || x.aPort != y.aPort || x.b != y.b || x.bPort != y.bPort ||
            x.lengthMeters != y.lengthMeters || x.lengthGiven != y.lengthGiven)
        {
            return "cable " + std::to_string(i);
        }
    }
    return "";
}

/// A builder's product and what it should contain.
struct Shape
{
    std::string name;     ///< for messages
    GsnTopology t;        ///< the topology
    uint32_t endpoints;   ///< expected endpoints
    uint32_t switches;    ///< expected switches
    std::size_t cables;   ///< expected cables
    uint32_t switchPorts; ///< expected ports of every switch (0: not checked)
};

/// Every builder, small and large, with the counts the formulas give.
std::vector<Shape>
AllShapes()
{
    using B = GsnTopologyBuilder;
    return {
        {"BackToBack", B::BackToBack(), 2, 0, 1, 0},
        {"Star(5)", B::Star(5), 5, 1, 5, 5},
        {"Star(3,8)", B::Star(3, 8), 3, 1, 3, 8},
        {"TwoSwitchFigure132", B::TwoSwitchFigure132(), 11, 2, 12, 8},
        {"KaryNTree(2,3)", B::KaryNTree(2, 3), 8, 12, 24, 4},
        {"KaryNTree(4,2)", B::KaryNTree(4, 2), 16, 8, 32, 8},
        {"KaryNTree(3,1)", B::KaryNTree(3, 1), 3, 1, 3, 6},
        {"FatTree(2)", B::FatTree(2), 2, 5, 6, 2},
        {"FatTree(4)", B::FatTree(4), 16, 20, 48, 4},
        {"FatTree(16)", B::FatTree(16), 1024, 320, 3072, 16},
        {"Mesh2D(3,4)", B::Mesh2D(3, 4), 12, 12, 17 + 12, 5},
        {"Mesh2D(2,2,3)", B::Mesh2D(2, 2, 3), 12, 4, 4 + 12, 7},
        {"Mesh2D(1,1)", B::Mesh2D(1, 1), 1, 1, 1, 5},
        {"Torus2D(4,3)", B::Torus2D(4, 3), 12, 12, 24 + 12, 5},
        {"Torus2D(2,3)", B::Torus2D(2, 3), 6, 6, 6 + 6 + 6, 5},
        {"Torus2D(1,4)", B::Torus2D(1, 4), 4, 4, 4 + 4, 5},
        {"Ring(5)", B::Ring(5), 5, 5, 10, 3},
        {"Ring(4,2)", B::Ring(4, 2), 8, 4, 4 + 8, 4},
        {"Ring(2)", B::Ring(2), 2, 2, 2 + 2, 3},
        {"Ring(1)", B::Ring(1), 1, 1, 1, 3},
    };
}

} // namespace

/// Element and cable counts of every builder, and their validity.
class GsnTopologyBuilderCountsTestCase : public TestCase
{
  public:
    GsnTopologyBuilderCountsTestCase()
        : TestCase("Builders give the expected element and cable counts and validate")
    {
    }

  private:
    void DoRun() override
    {
        for (const Shape& s : AllShapes())
        {
            const GsnTopology& t = s.t;
            NS_TEST_EXPECT_MSG_EQ(t.Validate(), "", s.name << " validates");
            NS_TEST_EXPECT_MSG_EQ(t.GetEndpoints().size(), s.endpoints, s.name << " endpoints");
            NS_TEST_EXPECT_MSG_EQ(t.GetSwitches().size(), s.switches, s.name << " switches");
            NS_TEST_EXPECT_MSG_EQ(t.GetNElements(), s.endpoints + s.switches, s.name);
            NS_TEST_EXPECT_MSG_EQ(t.GetCables().size(), s.cables, s.name << " cables");
            for (uint32_t i = 0; i < s.endpoints; ++i)
            {
                // Builders put endpoint i at element i.
                NS_TEST_EXPECT_MSG_EQ(t.IsEndpoint(i), true, s.name << " endpoint " << i);
                NS_TEST_EXPECT_MSG_EQ(t.GetElement(i).numPorts, 1u, s.name);
            }
            for (uint32_t sw : t.GetSwitches())
            {
                if (s.switchPorts != 0)
                {
                    NS_TEST_EXPECT_MSG_EQ(t.GetElement(sw).numPorts, s.switchPorts, s.name);
                }
            }
            // Every cable is seen from both ends.
            for (std::size_t i = 0; i < t.GetCables().size(); ++i)
            {
                const auto& c = t.GetCables()[i];
                const auto fromA = t.GetPeer(c.a, c.aPort);
                const auto fromB = t.GetPeer(c.b, c.bPort);
                NS_TEST_ASSERT_MSG_EQ(fromA.has_value() && fromB.has_value(), true, s.name);
                NS_TEST_EXPECT_MSG_EQ((*fromA == std::make_pair(c.b, c.bPort)), true, s.name);
                NS_TEST_EXPECT_MSG_EQ((*fromB == std::make_pair(c.a, c.aPort)), true, s.name);
                NS_TEST_EXPECT_MSG_EQ(t.GetCableAt(c.a, c.aPort).value_or(9999), i, s.name);
                NS_TEST_EXPECT_MSG_EQ(c.lengthMeters, GsnTopology::DEFAULT_CABLE_LENGTH, s.name);
            }
        }
    }
};

/// Port-level structure of the shapes: what is cabled where.
class GsnTopologyBuilderStructureTestCase : public TestCase
{
  public:
    GsnTopologyBuilderStructureTestCase()
        : TestCase("Builders cable the documented ports")
    {
    }

  private:
    void DoRun() override
    {
        using B = GsnTopologyBuilder;
        {
            const GsnTopology t = B::TwoSwitchFigure132();
            const auto sw1 = t.FindElement("sw1");
            const auto sw2 = t.FindElement("sw2");
            NS_TEST_ASSERT_MSG_EQ((sw1 && sw2), true, "both switches named");
            const std::string first = "ABCD";
            const std::string second = "EFGHJKL";
            for (uint32_t i = 0; i < first.size(); ++i)
            {
                const auto host = t.FindElement(std::string(1, first[i]));
                NS_TEST_ASSERT_MSG_EQ(host.has_value(), true, first[i]);
                NS_TEST_EXPECT_MSG_EQ((t.GetPeer(*host, 0) == std::make_pair(*sw1, i)),
                                      true,
                                      first[i] << " on sw1");
            }
            for (uint32_t i = 0; i < second.size(); ++i)
            {
                const auto host = t.FindElement(std::string(1, second[i]));
                NS_TEST_ASSERT_MSG_EQ(host.has_value(), true, second[i]);
                NS_TEST_EXPECT_MSG_EQ((t.GetPeer(*host, 0) == std::make_pair(*sw2, i)),
                                      true,
                                      second[i] << " on sw2");
            }
            NS_TEST_EXPECT_MSG_EQ(t.FindElement("I").has_value(), false, "there is no I");
            NS_TEST_EXPECT_MSG_EQ((t.GetPeer(*sw1, 7) == std::make_pair(*sw2, 7u)), true, "trunk");
        }
        {
            // Fat tree: every switch port is used; endpoint numbering follows pods.
            const GsnTopology t = B::FatTree(4);
            for (uint32_t sw : t.GetSwitches())
            {
                NS_TEST_EXPECT_MSG_EQ(CabledPorts(t, sw), 4u, t.GetElement(sw).name);
            }
            const auto edge = t.FindElement("edge3.1");
            NS_TEST_ASSERT_MSG_EQ(edge.has_value(), true, "edge3.1 exists");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(15, 0)->first, *edge, "endpoint 15 on edge3.1");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(*t.FindElement("core3"), 2)->first,
                                  *t.FindElement("agg2.1"),
                                  "core 3 port 2 to pod 2 agg 1");
        }
        {
            // k-ary n-tree: only the top level's up ports are free.
            const GsnTopology t = B::KaryNTree(2, 3);
            for (uint32_t sw : t.GetSwitches())
            {
                const bool top = t.GetElement(sw).name.rfind("sw2.", 0) == 0;
                NS_TEST_EXPECT_MSG_EQ(CabledPorts(t, sw), (top ? 2u : 4u), t.GetElement(sw).name);
            }
            // Endpoint 5 = leaf 2, port 1; leaf sw0.2 up port 2+1 -> level 1 switch with digit 0
            // set to 1 = sw1.3, down port 0 (digit 0 of 2).
            NS_TEST_EXPECT_MSG_EQ((t.GetPeer(5, 0) == std::make_pair(*t.FindElement("sw0.2"), 1u)),
                                  true,
                                  "endpoint 5");
            NS_TEST_EXPECT_MSG_EQ((t.GetPeer(*t.FindElement("sw0.2"), 3) ==
                                   std::make_pair(*t.FindElement("sw1.3"), 0u)),
                                  true,
                                  "leaf up port");
        }
        {
            // Mesh: coordinates and the port of each direction.
            const GsnTopology t = B::Mesh2D(3, 2);
            const auto s = t.FindElement("sw1.0");
            NS_TEST_ASSERT_MSG_EQ(s.has_value(), true, "sw1.0 exists");
            NS_TEST_EXPECT_MSG_EQ((t.GetElement(*s).coords == std::vector<int32_t>{1, 0}),
                                  true,
                                  "coordinates");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(*s, 0)->first, *t.FindElement("sw2.0"), "+x");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(*s, 1)->first, *t.FindElement("sw0.0"), "-x");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(*s, 2)->first, *t.FindElement("sw1.1"), "+y");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(*s, 3).has_value(), false, "no -y on the border");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(*s, 4)->first, 1u, "endpoint 1 on switch 1");
        }
        {
            // Torus: the border wraps.
            const GsnTopology t = B::Torus2D(3, 2);
            const auto s = t.FindElement("sw0.0");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(*s, 1)->first, *t.FindElement("sw2.0"), "-x wraps");
        }
        {
            // Ring: port 0 clockwise, port 1 back, coordinates {i}.
            const GsnTopology t = B::Ring(4);
            const auto s3 = *t.FindElement("sw3");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(s3, 0)->first, *t.FindElement("sw0"), "clockwise");
            NS_TEST_EXPECT_MSG_EQ(t.GetPeer(s3, 1)->first, *t.FindElement("sw2"), "back");
            NS_TEST_EXPECT_MSG_EQ((t.GetElement(s3).coords == std::vector<int32_t>{3}),
                                  true,
                                  "ring coordinate");
        }
    }
};

/// Bad builder arguments are refused.
class GsnTopologyBuilderArgumentsTestCase : public TestCase
{
  public:
    GsnTopologyBuilderArgumentsTestCase()
        : TestCase("Builders refuse impossible sizes")
    {
    }

  private:
    void DoRun() override
    {
        using B = GsnTopologyBuilder;
        const std::vector<std::pair<std::string, std::function<void()>>> cases = {
            {"Star(0)", [] { B::Star(0); }},
            {"Star(4,3)", [] { B::Star(4, 3); }},
            {"KaryNTree(1,3)", [] { B::KaryNTree(1, 3); }},
            {"KaryNTree(2,0)", [] { B::KaryNTree(2, 0); }},
            {"KaryNTree(64,8)", [] { B::KaryNTree(64, 8); }},
            {"FatTree(3)", [] { B::FatTree(3); }},
            {"FatTree(0)", [] { B::FatTree(0); }},
            {"Mesh2D(0,3)", [] { B::Mesh2D(0, 3); }},
            {"Mesh2D(2,2,0)", [] { B::Mesh2D(2, 2, 0); }},
            {"Torus2D(3,0)", [] { B::Torus2D(3, 0); }},
            {"Ring(0)", [] { B::Ring(0); }},
            {"Ring(3,0)", [] { B::Ring(3, 0); }},
        };
        for (const auto& [name, call] : cases)
        {
            NS_TEST_EXPECT_MSG_NE(InvalidArgumentOf(call), "", name << " throws");
        }
    }
};

/// A switch with one port (or none) is refused wherever a topology is made.
class GsnTopologyOnePortSwitchTestCase : public TestCase
{
  public:
    GsnTopologyOnePortSwitchTestCase()
        : TestCase("A switch of one port is refused by AddSwitch, the builders and the text form")
    {
    }

  private:
    void DoRun() override
    {
        const std::string why = "a switch has at least two ports";
        GsnTopology t;
        const std::string added = InvalidArgumentOf([&t] { t.AddSwitch(1, "s"); });
        NS_TEST_EXPECT_MSG_EQ(Contains(added, why), true, "AddSwitch(1): " << added);
        NS_TEST_EXPECT_MSG_EQ(Contains(added, "2..65535"), true, "the range: " << added);
        NS_TEST_EXPECT_MSG_EQ(t.GetNElements(), 0, "nothing added");
        NS_TEST_EXPECT_MSG_EQ(InvalidArgumentOf([&t] { t.AddSwitch(2, "s2"); }), "", "2 ports");

        const std::string star = InvalidArgumentOf([] { GsnTopologyBuilder::Star(1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(star, why), true, "Star(1): " << star);
        NS_TEST_EXPECT_MSG_EQ(InvalidArgumentOf([] { GsnTopologyBuilder::Star(1, 2); }),
                              "",
                              "Star(1, 2): one endpoint on a two-port switch");

        std::istringstream text("endpoint a\nswitch s 1\nlink a:0 s:0\n");
        const std::string parsed = InvalidArgumentOf([&text] { GsnTopology::Parse(text); });
        NS_TEST_EXPECT_MSG_EQ(Contains(parsed, "line 2: "), true, "the line: " << parsed);
        NS_TEST_EXPECT_MSG_EQ(Contains(parsed, why), true, "the reason: " << parsed);
    }
};

/// Connect() refuses every kind of bad cable and leaves the topology unchanged.
class GsnTopologyConnectErrorsTestCase : public TestCase
{
  public:
    GsnTopologyConnectErrorsTestCase()
        : TestCase("Connect and Add refuse bad cables and names with clear messages")
    {
    }

  private:
    void DoRun() override
    {
        GsnTopology t;
        const uint32_t a = t.AddEndpoint("a");
        const uint32_t s = t.AddSwitch(2, "s");
        const uint32_t u = t.AddSwitch(2);
        NS_TEST_EXPECT_MSG_EQ(t.GetElement(u).name, "sw2", "generated switch name");
        NS_TEST_EXPECT_MSG_EQ(t.GetElement(t.AddEndpoint()).name, "ep3", "generated name");
        t.Connect(a, 0, s, 0);

        const struct
        {
            std::string name;
            std::function<void()> call;
            std::string expected;
        } cases[] = {
            {"unknown element", [&] { t.Connect(a, 0, 99, 0); }, "unknown element 99"},
            {"port out of range", [&] { t.Connect(s, 2, u, 0); }, "port 2 of 's' is out of range"},
            {"endpoint port 1", [&] { t.Connect(u, 0, 3, 1); }, "port 1 of 'ep3' is out of range"},
            {"port already cabled",
             [&] { t.Connect(s, 0, u, 0); },
             "port 0 of 's' is already cabled"},
            {"self-loop", [&] { t.Connect(u, 0, u, 1); }, "to itself"},
            {"zero length", [&] { t.Connect(s, 1, u, 0, 0.0); }, "must be > 0"},
            {"negative length", [&] { t.Connect(s, 1, u, 0, -3.0); }, "must be > 0"},
            {"NaN length", [&] { t.Connect(s, 1, u, 0, std::nan("")); }, "must be > 0"},
            {"duplicate name", [&] { t.AddSwitch(4, "s"); }, "duplicate element name 's'"},
            {"name with a colon", [&] { t.AddEndpoint("x:1"); }, "invalid element name"},
            {"name with a blank", [&] { t.AddEndpoint("x y"); }, "invalid element name"},
            {"no ports", [&] { t.AddSwitch(0, "z"); }, "port count 0"},
        };

        for (const auto& c : cases)
        {
            const std::string what = InvalidArgumentOf(c.call);
            NS_TEST_EXPECT_MSG_EQ(Contains(what, c.expected),
                                  true,
                                  c.name << ": got '" << what << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(t.GetCables().size(), 1u, "failed calls add no cable");
        NS_TEST_EXPECT_MSG_EQ(t.GetNElements(), 4u, "failed calls add no element");
        NS_TEST_EXPECT_MSG_EQ(t.GetPeer(s, 1).has_value(), false, "port left free");
        // A free port still takes a good cable after the failures.
        t.Connect(s, 1, u, 0, 2.5);
        NS_TEST_EXPECT_MSG_EQ(t.GetCables().back().lengthMeters, 2.5, "length kept");
        NS_TEST_EXPECT_MSG_EQ(t.GetPeer(u, 5).has_value(), false, "no peer out of range");
        NS_TEST_EXPECT_MSG_EQ(t.GetPeer(42, 0).has_value(), false, "no peer of unknown id");
        NS_TEST_EXPECT_MSG_EQ(t.IsSwitch(42) || t.IsEndpoint(42), false, "unknown id");
        bool threw = false;
        try
        {
            t.GetElement(42);
        }
        catch (const std::out_of_range&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "GetElement of an unknown id throws");
    }
};

/// Validate() names what makes a fabric unusable.
class GsnTopologyValidateTestCase : public TestCase
{
  public:
    GsnTopologyValidateTestCase()
        : TestCase("Validate explains unusable fabrics")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(Contains(GsnTopology().Validate(), "no endpoint"), true, "empty");
        {
            GsnTopology t;
            t.AddSwitch(4, "s");
            NS_TEST_EXPECT_MSG_EQ(Contains(t.Validate(), "no endpoint"), true, "switch only");
        }
        {
            GsnTopology t;
            t.AddEndpoint("a");
            t.AddEndpoint("b");
            t.AddSwitch(4, "s");
            t.Connect(0, 0, 2, 0);
            NS_TEST_EXPECT_MSG_EQ(Contains(t.Validate(), "endpoint 'b' is not cabled"),
                                  true,
                                  t.Validate());
            t.Connect(1, 0, 2, 1);
            NS_TEST_EXPECT_MSG_EQ(t.Validate(), "", "now usable");
        }
        {
            // Endpoint to endpoint next to a switch: a dead end for the switch's hosts.
            GsnTopology t;
            t.AddEndpoint("a");
            t.AddEndpoint("b");
            t.AddEndpoint("c");
            t.AddSwitch(4, "s");
            t.Connect(0, 0, 1, 0);
            t.Connect(2, 0, 3, 0);
            NS_TEST_EXPECT_MSG_EQ(Contains(t.Validate(), "back to back"), true, t.Validate());
        }
        {
            GsnTopology t;
            t.AddEndpoint("a");
            t.AddEndpoint("b");
            t.AddSwitch(2, "s1");
            t.AddSwitch(2, "s2");
            t.Connect(0, 0, 2, 0);
            t.Connect(1, 0, 3, 0);
            NS_TEST_EXPECT_MSG_EQ(Contains(t.Validate(), "not connected"), true, t.Validate());
            t.Connect(2, 1, 3, 1);
            NS_TEST_EXPECT_MSG_EQ(t.Validate(), "", "joined");
            // A switch with no cable at all splits the fabric too.
            t.AddSwitch(2, "s3");
            NS_TEST_EXPECT_MSG_EQ(Contains(t.Validate(), "'s3'"), true, t.Validate());
        }
    }
};

/// ToText() and Parse() round-trip every builder, and Parse() reads hand-written text.
class GsnTopologyTextTestCase : public TestCase
{
  public:
    GsnTopologyTextTestCase()
        : TestCase("Text form: round trips and hand-written input")
    {
    }

  private:
    void DoRun() override
    {
        for (const Shape& s : AllShapes())
        {
            const std::string text = s.t.ToText();
            const GsnTopology back = ParseText(text);
            NS_TEST_EXPECT_MSG_EQ(Difference(s.t, back), "", s.name << " round trip");
            NS_TEST_EXPECT_MSG_EQ(back.ToText(), text, s.name << " same text");
        }
        const std::string text = "# two hosts on a switch\n"
                                 "\n"
                                 "endpoint h0   # first host\n"
                                 "\tendpoint h1\n"
                                 "switch s 4 7 -2\n"
                                 "link h0:0 s:3 2.5\n"
                                 "link s:1   h1:0\n"
                                 "link h0:0#not a cable\n";
        bool parsed = true;
        GsnTopology t;
        try
        {
            // The last line is a bad link: the comment leaves one word.
            t = ParseText(text);
        }
        catch (const std::invalid_argument& e)
        {
            parsed = false;
            NS_TEST_EXPECT_MSG_EQ(Contains(e.what(), "line 8:"), true, e.what());
        }
        NS_TEST_EXPECT_MSG_EQ(parsed, false, "the bad last line is caught");
        t = ParseText(text.substr(0, text.rfind("link h0:0#")));
        NS_TEST_ASSERT_MSG_EQ(t.GetNElements(), 3u, "three elements");
        NS_TEST_EXPECT_MSG_EQ(t.Validate(), "", "usable");
        const auto& sw = t.GetElement(*t.FindElement("s"));
        NS_TEST_EXPECT_MSG_EQ(sw.numPorts, 4u, "ports");
        NS_TEST_EXPECT_MSG_EQ((sw.coords == std::vector<int32_t>{7, -2}), true, "coordinates");
        NS_TEST_ASSERT_MSG_EQ(t.GetCables().size(), 2u, "two cables");
        NS_TEST_EXPECT_MSG_EQ(t.GetCables()[0].lengthMeters, 2.5, "given length");
        NS_TEST_EXPECT_MSG_EQ(t.GetCables()[1].lengthMeters,
                              GsnTopology::DEFAULT_CABLE_LENGTH,
                              "default length");
        NS_TEST_EXPECT_MSG_EQ((t.GetPeer(*t.FindElement("h1"), 0) == std::make_pair(2u, 1u)),
                              true,
                              "h1 on s:1");
        // Lengths that are not short decimals survive the round trip exactly.
        GsnTopology odd;
        odd.AddEndpoint();
        odd.AddEndpoint();
        odd.Connect(0, 0, 1, 0, 0.1 + 0.2);
        NS_TEST_EXPECT_MSG_EQ(ParseText(odd.ToText()).GetCables()[0].lengthMeters,
                              0.1 + 0.2,
                              "exact length");
    }
};

/// Parse() errors name the line and the problem.
class GsnTopologyParseErrorsTestCase : public TestCase
{
  public:
    GsnTopologyParseErrorsTestCase()
        : TestCase("Text form: errors name the line and the problem")
    {
    }

  private:
    void DoRun() override
    {
        const std::string head = "endpoint a\nswitch s 2\n"; // lines 1 and 2

        const struct
        {
            std::string text;
            std::string expected;
        } cases[] = {
            {head + "router r 4\n", "line 3: unknown statement 'router'"},
            {head + "endpoint\n", "line 3: expected 'endpoint NAME'"},
            {head + "endpoint b c\n", "line 3: expected 'endpoint NAME'"},
            {head + "switch t\n", "line 3: expected 'switch NAME PORTS"},
            {head + "switch t four\n", "line 3: bad port count 'four'"},
            {head + "switch t 0\n", "line 3: switch 't': port count 0"},
            {head + "switch t 4 1 x\n", "line 3: bad coordinate 'x'"},
            {head + "switch a 4\n", "line 3: duplicate element name 'a'"},
            {head + "link a:0\n", "line 3: expected 'link NAME:PORT NAME:PORT"},
            {head + "link a:0 s:0 1 2\n", "line 3: expected 'link"},
            {head + "link a s:0\n", "line 3: 'a' is not NAME:PORT"},
            {head + "link a:0 t:0\n", "line 3: unknown element 't'"},
            {head + "link a:x s:0\n", "line 3: bad port number in 'a:x'"},
            {head + "link a:0 s:-1\n", "line 3: bad port number in 's:-1'"},
            {head + "link a:0 s:2\n", "line 3: port 2 of 's' is out of range"},
            {head + "link a:0 s:0 ten\n", "line 3: bad cable length 'ten'"},
            {head + "link a:0 s:0 0\n", "line 3: cable length between 'a' and 's' must be > 0"},
            {head + "link a:0 s:0 inf\n", "line 3: bad cable length 'inf'"},
            {head + "link a:0 s:0\nlink s:0 a:0\n", "line 4: port 0 of 's' is already cabled"},
            {head + "# fine\n\nlink s:1 s:0\n", "line 5: cannot cable 's' to itself"},
        };

        for (const auto& c : cases)
        {
            const std::string what = InvalidArgumentOf([&] { ParseText(c.text); });
            NS_TEST_EXPECT_MSG_EQ(Contains(what, c.expected),
                                  true,
                                  "expected '" << c.expected << "', got '" << what << "'");
        }
    }
};

/// ReadFile() reads what ToText() wrote and names the file in its errors.
class GsnTopologyReadFileTestCase : public TestCase
{
  public:
    GsnTopologyReadFileTestCase()
        : TestCase("Text form: files")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTopology t = GsnTopologyBuilder::Torus2D(3, 3, 2);
        const std::string path = CreateTempDirFilename("torus.topo");
        {
            std::ofstream out(path);
            out << t.ToText();
        }
        const GsnTopology back = GsnTopology::ReadFile(path);
        NS_TEST_EXPECT_MSG_EQ(Difference(t, back), "", "file round trip");

        const std::string bad = CreateTempDirFilename("bad.topo");
        {
            std::ofstream out(bad);
            out << "endpoint a\nendpoint a\n";
        }
        const std::string what = InvalidArgumentOf([&] { GsnTopology::ReadFile(bad); });
        NS_TEST_EXPECT_MSG_EQ(Contains(what, bad + ": line 2: duplicate element name 'a'"),
                              true,
                              what);
        const std::string missing = CreateTempDirFilename("missing.topo");
        NS_TEST_EXPECT_MSG_EQ(
            Contains(InvalidArgumentOf([&] { GsnTopology::ReadFile(missing); }), missing),
            true,
            "missing file named");
        std::remove(path.c_str());
        std::remove(bad.c_str());
    }
};

/// The gsn-topology test suite.
class GsnTopologyTestSuite : public TestSuite
{
  public:
    GsnTopologyTestSuite()
        : TestSuite("gsn-topology", UNIT)
    {
        AddTestCase(new GsnTopologyBuilderCountsTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyBuilderStructureTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyBuilderArgumentsTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyConnectErrorsTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyOnePortSwitchTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyValidateTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyTextTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyParseErrorsTestCase, TestCase::QUICK);
        AddTestCase(new GsnTopologyReadFileTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnTopologyTestSuite g_gsnTopologyTestSuite;
