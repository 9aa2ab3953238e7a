/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of Admin micropackets (HIPPI-6400-SC): the payload codec, every command's response
 * at switches and endpoints, hop-count forwarding along a chain of elements, and fabric
 * discovery compared with the fabric manager's tables.
 */
#include "gsn-fabric-harness.h"

#include "ns3/boolean.h"
#include "ns3/gsn-admin.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>
#include <random>

using namespace ns3;
using namespace ns3::gsntest;

namespace
{

/// Collects the Admin responses an endpoint receives.
struct Responses
{
    std::vector<GsnAdminPayload> got;

    static void Add(Responses* r, const GsnAdminPayload& p)
    {
        r->got.push_back(p);
    }
};

/// What a switch holds when the response to a Reset reaches the requester.
struct ResetProbe
{
    Ptr<GsnSwitch> sw;             ///< the switch reset
    bool seen{false};              ///< the response came
    uint32_t routes{99};           ///< its routes then
    Mac48Address address;          ///< its element address then
    bool neighboursUnknown{false}; ///< it knew none of its neighbours then

    static void Seen(ResetProbe* r, const GsnAdminPayload& p)
    {
        if (p.GetCommand() != GsnAdminCommand::RESET || r->seen)
        {
            return;
        }
        r->seen = true;
        r->routes = r->sw->GetNRoutes();
        r->address = r->sw->GetElementAddress();
        r->neighboursUnknown = true;
        for (uint32_t i = 0; i < r->sw->GetNPorts(); ++i)
        {
            r->neighboursUnknown =
                r->neighboursUnknown && r->sw->GetNeighborType(i) == GsnElementType::UNKNOWN;
        }
    }
};

/// A request of \p command with hop count \p hops along \p path.
GsnAdminPayload
Request(GsnAdminCommand command, uint8_t hops = 0, std::vector<uint8_t> path = {})
{
    GsnAdminPayload p;
    p.command = uint8_t(command);
    p.hopCount = hops;
    for (size_t i = 0; i < path.size(); ++i)
    {
        p.path[i] = path[i];
    }
    return p;
}

} // namespace

/// The 32-byte layout.
class GsnAdminCodecTestCase : public TestCase
{
  public:
    GsnAdminCodecTestCase()
        : TestCase("Admin payload: fixed bytes and round trips")
    {
    }

  private:
    void DoRun() override
    {
        GsnAdminPayload p;
        p.hopCount = 2;
        p.command = uint8_t(GsnAdminCommand::PORT_REMAP);
        p.error = true;
        p.more = true;
        p.status = 3;
        p.transaction = 0x01020304;
        p.ula = Mac48Address("0a:0b:0c:0d:0e:0f");
        p.port = 0x1234;
        p.SetArg64(0x1122334455667788ull);
        p.pathIndex = 1;
        p.path = {7, 6, 5, 4, 3, 2, 1};
        uint8_t d[32];
        p.Serialize(d);
        const uint8_t expected[32] = {2,    0x09, 0x06, 3,    1,    2,    3,    4,
                                      0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x12, 0x34,
                                      0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                      1,    7,    6,    5,    4,    3,    2,    1};
        NS_TEST_ASSERT_MSG_EQ(std::memcmp(d, expected, 32), 0, "layout");
        GsnAdminPayload back = GsnAdminPayload::Deserialize(d);
        uint8_t again[32];
        back.Serialize(again);
        NS_TEST_ASSERT_MSG_EQ(std::memcmp(d, again, 32), 0, "round trip");
        NS_TEST_ASSERT_MSG_EQ(back.GetArg64(), 0x1122334455667788ull, "arg");
        // Any bytes decode and re-encode to themselves.
        std::mt19937 rng(2);
        for (int i = 0; i < 5000; ++i)
        {
            uint8_t r[32];
            for (auto& b : r)
            {
                b = uint8_t(rng());
            }
            r[2] &= 0x07; // flags has three defined bits
            uint8_t out[32];
            GsnAdminPayload::Deserialize(r).Serialize(out);
            NS_TEST_ASSERT_MSG_EQ(std::memcmp(r, out, 32), 0, "fuzz round trip");
        }
        GsnAdminPayload q = Request(GsnAdminCommand::PING);
        q.pathIndex = 2;
        q.MakeResponse(GsnAdminStatus::OK);
        NS_TEST_ASSERT_MSG_EQ(unsigned(q.command), 0x81u, "response bit");
        NS_TEST_ASSERT_MSG_EQ(unsigned(q.hopCount), 2u, "as many hops back");
    }
};

/// Every command gets its response from a switch and from an endpoint.
class GsnAdminCommandsTestCase : public TestCase
{
  public:
    GsnAdminCommandsTestCase()
        : TestCase("Every Admin command gets its response")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::Star(3));
        Ptr<GsnNetDevice> e0 = h.fabric.GetEndpointDevice(0);
        Ptr<GsnSwitch> sw = h.fabric.switchObjects[0];
        Responses r;
        e0->TraceConnectWithoutContext("AdminResponse", MakeBoundCallback(&Responses::Add, &r));
        const Mac48Address e1 =
            Mac48Address::ConvertFrom(h.fabric.GetEndpointDevice(1)->GetAddress());
        const Mac48Address ghost("0a:00:00:00:00:01");

        std::vector<GsnAdminPayload> requests;
        requests.push_back(Request(GsnAdminCommand::PING));
        GsnAdminPayload setAddr = Request(GsnAdminCommand::SET_ELEMENT_ADDRESS);
        setAddr.ula = Mac48Address("02:00:00:42:00:00");
        requests.push_back(setAddr);
        GsnAdminPayload exchange = Request(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE);
        exchange.arg[0] = uint8_t(GsnElementType::ENDPOINT);
        exchange.ula = Mac48Address::ConvertFrom(e0->GetAddress());
        requests.push_back(exchange);
        requests.push_back(Request(GsnAdminCommand::ULA_REQUEST));
        GsnAdminPayload readPorts = Request(GsnAdminCommand::READ_REGISTER);
        readPorts.port = 1;
        requests.push_back(readPorts);
        GsnAdminPayload write = Request(GsnAdminCommand::WRITE_REGISTER);
        write.port = 0x12;
        write.SetArg64(0xCAFE);
        requests.push_back(write);
        GsnAdminPayload readBack = Request(GsnAdminCommand::READ_REGISTER);
        readBack.port = 0x12;
        requests.push_back(readBack);
        GsnAdminPayload writeRo = Request(GsnAdminCommand::WRITE_REGISTER);
        writeRo.port = 1;
        requests.push_back(writeRo);
        GsnAdminPayload remap = Request(GsnAdminCommand::PORT_REMAP);
        remap.ula = ghost;
        remap.port = 2;
        requests.push_back(remap);
        GsnAdminPayload map = Request(GsnAdminCommand::PORT_MAP_REQUEST);
        map.ula = e1;
        requests.push_back(map);
        requests.push_back(Request(GsnAdminCommand::ULA_LIST_REQUEST));
        GsnAdminPayload unknown;
        unknown.command = 0x55;
        requests.push_back(unknown);

        Simulator::Schedule(MicroSeconds(5), [&]() {
            for (const auto& q : requests)
            {
                e0->SendAdminRequest(q);
            }
        });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();

        // Responses come back in order; ULA_list answers with one per route: 3 endpoints
        // (e0 under the ULA it just asked for, which replaces its old one) and the remapped
        // ghost: 4 parts.
        NS_TEST_ASSERT_MSG_EQ(r.got.size(), requests.size() + 3, "one response each, 4 list parts");
        auto find = [&r](GsnAdminCommand c, uint32_t nth = 0) {
            for (const auto& p : r.got)
            {
                if (p.GetCommand() == c && nth-- == 0)
                {
                    return p;
                }
            }
            return GsnAdminPayload();
        };
        for (const auto& p : r.got)
        {
            NS_TEST_ASSERT_MSG_EQ(p.response, true, "response flag");
        }
        NS_TEST_ASSERT_MSG_EQ(unsigned(find(GsnAdminCommand::PING).status), 0u, "Ping OK");
        NS_TEST_ASSERT_MSG_EQ(sw->GetElementAddress(),
                              Mac48Address("02:00:00:42:00:00"),
                              "Set_element_address took effect");
        GsnAdminPayload ex = find(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE);
        NS_TEST_ASSERT_MSG_EQ(unsigned(ex.arg[0]), unsigned(GsnElementType::SWITCH), "a switch");
        GsnAdminPayload ula = find(GsnAdminCommand::ULA_REQUEST);
        NS_TEST_ASSERT_MSG_EQ(ula.ula, Mac48Address("02:00:42:00:00:00"), "assigned ULA");
        NS_TEST_ASSERT_MSG_EQ(find(GsnAdminCommand::READ_REGISTER).GetArg64(), 3u, "3 ports");
        NS_TEST_ASSERT_MSG_EQ(find(GsnAdminCommand::READ_REGISTER, 1).GetArg64(),
                              0xCAFEu,
                              "scratch register written and read back");
        NS_TEST_ASSERT_MSG_EQ(unsigned(find(GsnAdminCommand::WRITE_REGISTER, 1).status),
                              unsigned(GsnAdminStatus::BAD_ARGUMENT),
                              "a read-only register refuses writes");
        NS_TEST_ASSERT_MSG_EQ(sw->GetRoute(ghost), 2, "Port_remap changed the route");
        GsnAdminPayload mapped = find(GsnAdminCommand::PORT_MAP_REQUEST);
        NS_TEST_ASSERT_MSG_EQ(mapped.port, uint16_t(sw->GetRoute(e1)), "Port_map answer");
        uint32_t parts = 0;
        uint32_t last = 0;
        for (const auto& p : r.got)
        {
            if (p.GetCommand() == GsnAdminCommand::ULA_LIST_REQUEST)
            {
                ++parts;
                last = p.more ? 0 : 1;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(parts, 4u, "ULA list in four parts");
        NS_TEST_ASSERT_MSG_EQ(sw->GetRoute(ula.ula), 0, "e0 reached under its assigned ULA");
        NS_TEST_ASSERT_MSG_EQ(last, 1u, "the last part has no 'more' flag");
        GsnAdminPayload invalid = find(GsnAdminCommand::INVALID_COMMAND);
        NS_TEST_ASSERT_MSG_EQ(unsigned(invalid.arg[0]), 0x55u, "Invalid_command names the code");
        NS_TEST_ASSERT_MSG_EQ(unsigned(invalid.status),
                              unsigned(GsnAdminStatus::UNSUPPORTED),
                              "status unsupported");
    }
};

/// Reset ("initialize yourself") re-initialises a switch, with discovery on or off.
class GsnAdminResetTestCase : public TestCase
{
  public:
    /// \param discovery whether the switches discover the fabric \param method how
    GsnAdminResetTestCase(bool discovery, std::string method = "Map")
        : TestCase(std::string("Reset re-initialises a switch, discovery ") +
                   (discovery ? "on (" + method + ")" : std::string("off"))),
          m_discovery(discovery),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        helper.SetDiscovery(m_discovery);
        helper.SetSwitchAttribute("DiscoveryMethod", StringValue(m_method));
        helper.SetDeviceAttribute("AdminDiscovery", BooleanValue(m_discovery));
        FabricHarness h(helper, GsnTopologyBuilder::Star(3));
        Ptr<GsnNetDevice> e0 = h.fabric.GetEndpointDevice(0);
        Ptr<GsnSwitch> sw = h.fabric.switchObjects[0];
        const Mac48Address configured = sw->GetElementAddress();
        Responses r;
        e0->TraceConnectWithoutContext("AdminResponse", MakeBoundCallback(&Responses::Add, &r));
        const Time start = m_discovery ? MilliSeconds(2) : MicroSeconds(5);

        // State given by Admin before the Reset: an element address, a scratch register,
        // a route.
        GsnAdminPayload setAddr = Request(GsnAdminCommand::SET_ELEMENT_ADDRESS);
        setAddr.ula = Mac48Address("02:00:00:42:00:00");
        GsnAdminPayload write = Request(GsnAdminCommand::WRITE_REGISTER);
        write.port = 0x13;
        write.SetArg64(0xCAFE);
        GsnAdminPayload remap = Request(GsnAdminCommand::PORT_REMAP);
        remap.ula = Mac48Address("0a:00:00:00:00:01");
        remap.port = 2;
        Simulator::Schedule(start, [&]() {
            e0->SendAdminRequest(setAddr);
            e0->SendAdminRequest(write);
            e0->SendAdminRequest(remap);
        });
        uint32_t routesBefore = 0;
        Simulator::Schedule(start + MicroSeconds(10), [&]() {
            routesBefore = sw->GetNRoutes();
            e0->SendAdminRequest(Request(GsnAdminCommand::RESET));
        });
        // When the Reset's response reaches e0, nothing given before is left (and nothing
        // rediscovered yet: the switch's first probes are still on their way).
        ResetProbe probe;
        probe.sw = sw;
        e0->TraceConnectWithoutContext("AdminResponse",
                                       MakeBoundCallback(&ResetProbe::Seen, &probe));
        Simulator::Schedule(start + MicroSeconds(12), [&]() {
            GsnAdminPayload read = Request(GsnAdminCommand::READ_REGISTER);
            read.port = 0x13;
            e0->SendAdminRequest(read);
            if (!m_discovery)
            {
                h.Send(1, 2, 1, 100); // no route until the manager configures it: dropped
            }
        });
        if (!m_discovery)
        {
            // The fabric manager configures the switch again.
            Simulator::Schedule(start + MicroSeconds(20),
                                [&h]() { GsnFabricHelper::ConfigureSwitches(h.fabric); });
        }
        // Discovery finds the fabric again, or the manager configured it: delivered.
        const Time again = start + (m_discovery ? MilliSeconds(2) : MicroSeconds(30));
        Simulator::Schedule(again, [&h]() { h.Send(1, 2, 1, 100); });
        Simulator::Stop(again + MicroSeconds(50));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(sw->GetResets(), 1u, "the switch was re-initialised");
        NS_TEST_ASSERT_MSG_EQ(routesBefore, 4u, "3 endpoints and the remapped ULA");
        NS_TEST_ASSERT_MSG_EQ(probe.seen, true, "the Reset's response came back");
        NS_TEST_ASSERT_MSG_EQ(probe.routes, 0u, "routes forgotten");
        NS_TEST_ASSERT_MSG_EQ(probe.address, configured, "configured element address back");
        NS_TEST_ASSERT_MSG_EQ(probe.neighboursUnknown, true, "neighbours forgotten");
        GsnAdminPayload reset;
        GsnAdminPayload read;
        for (const auto& p : r.got)
        {
            if (p.GetCommand() == GsnAdminCommand::RESET)
            {
                reset = p;
            }
            if (p.GetCommand() == GsnAdminCommand::READ_REGISTER)
            {
                read = p;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(reset.response, true, "Reset answered");
        NS_TEST_ASSERT_MSG_EQ(unsigned(reset.status), 0u, "Reset OK");
        NS_TEST_ASSERT_MSG_EQ(read.response, true, "register read after the Reset");
        NS_TEST_ASSERT_MSG_EQ(read.GetArg64(), 0u, "scratch register cleared");
        NS_TEST_ASSERT_MSG_EQ(sw->GetDrops(GsnSwitchDropReason::UNKNOWN_ULA),
                              m_discovery ? 0u : 1u,
                              "the Message sent without routes was dropped");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "the Message sent later was delivered");
        NS_TEST_ASSERT_MSG_EQ(sw->GetNRoutes(), 3u, "a route to each endpoint again");
    }

    bool m_discovery;     ///< switches discover the fabric
    std::string m_method; ///< discovery method
};

/// An endpoint's own answers: Ping, Set_element_address, Read_register, Write_register.
class GsnAdminEndpointAnswersTestCase : public TestCase
{
  public:
    GsnAdminEndpointAnswersTestCase()
        : TestCase("An endpoint answers Ping, Set_element_address and its registers")
    {
    }

  private:
    void DoRun() override
    {
        // e0 - e1 back to back: hop 0 is e1.
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::BackToBack());
        Ptr<GsnNetDevice> e0 = h.fabric.GetEndpointDevice(0);
        Ptr<GsnNetDevice> e1 = h.fabric.GetEndpointDevice(1);
        Responses r;
        e0->TraceConnectWithoutContext("AdminResponse", MakeBoundCallback(&Responses::Add, &r));
        const Mac48Address element("02:00:00:77:00:00");

        std::vector<GsnAdminPayload> requests;
        GsnAdminPayload ping = Request(GsnAdminCommand::PING);
        ping.SetArg64(0x1234);
        requests.push_back(ping);
        GsnAdminPayload setAddr = Request(GsnAdminCommand::SET_ELEMENT_ADDRESS);
        setAddr.ula = element;
        requests.push_back(setAddr);
        for (uint16_t reg : {0, 1, 7})
        {
            GsnAdminPayload read = Request(GsnAdminCommand::READ_REGISTER);
            read.port = reg;
            requests.push_back(read);
        }
        GsnAdminPayload write = Request(GsnAdminCommand::WRITE_REGISTER);
        write.port = 0x12;
        write.SetArg64(0xBEEF);
        requests.push_back(write);
        GsnAdminPayload readBack = Request(GsnAdminCommand::READ_REGISTER);
        readBack.port = 0x12;
        requests.push_back(readBack);
        GsnAdminPayload writeType = Request(GsnAdminCommand::WRITE_REGISTER);
        writeType.port = 0;
        writeType.SetArg64(5);
        requests.push_back(writeType);
        GsnAdminPayload readType = Request(GsnAdminCommand::READ_REGISTER);
        readType.port = 0;
        requests.push_back(readType);

        std::vector<uint32_t> transactions;
        Simulator::Schedule(MicroSeconds(5), [&]() {
            for (const auto& q : requests)
            {
                transactions.push_back(e0->SendAdminRequest(q));
            }
        });
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();

        // The answer to each request, by transaction (discovery adds its own exchanges).
        auto answer = [&](std::size_t i) {
            for (const auto& p : r.got)
            {
                if (i < transactions.size() && p.transaction == transactions[i])
                {
                    return p;
                }
            }
            return GsnAdminPayload();
        };
        NS_TEST_ASSERT_MSG_EQ(transactions.size(), requests.size(), "all sent");
        for (std::size_t i = 0; i < requests.size(); ++i)
        {
            const GsnAdminPayload a = answer(i);
            NS_TEST_EXPECT_MSG_EQ(a.response, true, "request " << i << " answered");
            NS_TEST_EXPECT_MSG_EQ(unsigned(a.GetCommand()),
                                  unsigned(requests[i].GetCommand()),
                                  "request " << i << " answered with its own command");
        }
        const unsigned ok = unsigned(GsnAdminStatus::OK);
        NS_TEST_EXPECT_MSG_EQ(unsigned(answer(0).status), ok, "Ping OK");
        NS_TEST_EXPECT_MSG_EQ(answer(0).GetArg64(), 0x1234u, "Ping echoes its argument");
        NS_TEST_EXPECT_MSG_EQ(unsigned(answer(1).status), ok, "Set_element_address OK");
        NS_TEST_EXPECT_MSG_EQ(e1->GetElementAddress(), element, "the address was set");
        NS_TEST_EXPECT_MSG_EQ(unsigned(answer(2).status), ok, "register 0 readable");
        NS_TEST_EXPECT_MSG_EQ(answer(2).GetArg64(),
                              uint64_t(GsnElementType::ENDPOINT),
                              "register 0: an endpoint");
        NS_TEST_EXPECT_MSG_EQ(unsigned(answer(3).status), ok, "register 1 readable");
        NS_TEST_EXPECT_MSG_EQ(answer(3).GetArg64(), 1u, "register 1: one port");
        NS_TEST_EXPECT_MSG_EQ(unsigned(answer(4).status),
                              unsigned(GsnAdminStatus::BAD_ARGUMENT),
                              "register 7 does not exist");
        NS_TEST_EXPECT_MSG_EQ(unsigned(answer(5).status), ok, "scratch write OK");
        NS_TEST_EXPECT_MSG_EQ(answer(6).GetArg64(), 0xBEEFu, "scratch read back");
        NS_TEST_EXPECT_MSG_EQ(unsigned(answer(7).status),
                              unsigned(GsnAdminStatus::BAD_ARGUMENT),
                              "register 0 is read-only");
        NS_TEST_EXPECT_MSG_EQ(answer(8).GetArg64(),
                              uint64_t(GsnElementType::ENDPOINT),
                              "register 0 unchanged");
    }
};

/// Broadcast set up by a fabric manager with Admin micropackets (Broadcast_setup).
class GsnAdminBroadcastSetupTestCase : public TestCase
{
  public:
    GsnAdminBroadcastSetupTestCase()
        : TestCase("Broadcast set up with Admin micropackets by a fabric manager")
    {
    }

  private:
    /// The broadcast tree of every switch of \p fabric.
    static std::vector<std::vector<bool>> Trees(const GsnFabric& fabric)
    {
        std::vector<std::vector<bool>> trees;
        for (const auto& sw : fabric.switchObjects)
        {
            trees.emplace_back();
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                trees.back().push_back(sw->IsPortInBroadcastTree(p));
            }
        }
        return trees;
    }

    void Check(const GsnTopology& t, const std::string& name)
    {
        std::vector<std::vector<bool>> direct;
        {
            // The tree the helper writes into the switches directly.
            GsnFabricHelper helper;
            direct = Trees(helper.Install(t));
            Simulator::Destroy();
        }
        GsnFabricHelper helper;
        helper.SetAdminBroadcastSetup(true, MicroSeconds(5));
        FabricHarness h(helper, t);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        const uint32_t nSwitches = h.fabric.switchObjects.size();
        Responses r;
        Ptr<GsnNetDevice> manager = h.fabric.GetEndpointDevice(0);
        manager->TraceConnectWithoutContext("AdminResponse",
                                            MakeBoundCallback(&Responses::Add, &r));
        bool emptyBefore = true;
        Simulator::Schedule(MicroSeconds(4), [&]() {
            for (const auto& tree : Trees(h.fabric))
            {
                emptyBefore = emptyBefore && std::count(tree.begin(), tree.end(), true) == 0;
            }
        });
        std::vector<std::vector<bool>> admin;
        Simulator::Schedule(MicroSeconds(40), [&]() {
            admin = Trees(h.fabric);
            h.SendTo(n - 1, Mac48Address::GetBroadcast(), UINT32_MAX, 0, 40);
            // A mask naming a port the switch does not have changes nothing.
            GsnAdminPayload bad = Request(GsnAdminCommand::BROADCAST_SETUP);
            bad.port = uint16_t(h.fabric.switchObjects[0]->GetNPorts());
            bad.SetArg64(1);
            manager->SendAdminRequest(bad);
        });
        Simulator::Stop(MicroSeconds(150));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(emptyBefore, true, name << ": no tree before the set-up");
        NS_TEST_ASSERT_MSG_EQ((admin == direct), true, name << ": the manager's tree is set");
        NS_TEST_ASSERT_MSG_EQ((Trees(h.fabric) == direct),
                              true,
                              name << ": a bad mask changes nothing");
        uint32_t ok = 0;
        uint32_t refused = 0;
        for (const auto& p : r.got)
        {
            if (p.GetCommand() == GsnAdminCommand::BROADCAST_SETUP)
            {
                ok += p.status == uint8_t(GsnAdminStatus::OK) ? 1 : 0;
                refused += p.status == uint8_t(GsnAdminStatus::BAD_ARGUMENT) ? 1 : 0;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(ok, nSwitches, name << ": every switch answered OK");
        NS_TEST_ASSERT_MSG_EQ(refused, 1u, name << ": the bad mask was refused");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, n, name << ": one broadcast copy per endpoint");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.deliveredTo[i], 1u, name << ": endpoint " << i);
        }
    }

    void DoRun() override
    {
        Check(GsnTopologyBuilder::Mesh2D(3, 3), "3x3 mesh");
        Check(GsnTopologyBuilder::KaryNTree(2, 3), "2-ary 3-tree");
    }
};

/// An endpoint of two elements (link end and adapter logic): Admin enters by either port.
class GsnAdminEndpointElementsTestCase : public TestCase
{
  public:
    GsnAdminEndpointElementsTestCase()
        : TestCase("Admin enters a two-element endpoint from the fabric and from the host")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        helper.SetDeviceAttribute("AdminElements", UintegerValue(2));
        FabricHarness h(helper, GsnTopologyBuilder::BackToBack());
        Ptr<GsnNetDevice> e0 = h.fabric.GetEndpointDevice(0);
        Ptr<GsnNetDevice> e1 = h.fabric.GetEndpointDevice(1);
        Responses r;
        e0->TraceConnectWithoutContext("AdminResponse", MakeBoundCallback(&Responses::Add, &r));
        auto readIndex = [](uint8_t hops) {
            GsnAdminPayload q = Request(GsnAdminCommand::READ_REGISTER, hops);
            q.port = 6; // the element's place in its endpoint
            return q;
        };
        const Mac48Address x("02:00:00:00:0a:01");
        const Mac48Address y("02:00:00:00:0b:01");
        std::vector<uint32_t> link;
        std::vector<uint32_t> host;
        Simulator::Schedule(MicroSeconds(5), [&]() {
            // From e0's link-end element onto the link: hop 0 is e1's link end, hop 1 its
            // adapter logic, hop 2 nothing (the host is not an element).
            link.push_back(e0->SendAdminRequest(readIndex(0)));
            link.push_back(e0->SendAdminRequest(readIndex(1)));
            link.push_back(e0->SendAdminRequest(readIndex(2)));
            GsnAdminPayload set = Request(GsnAdminCommand::SET_ELEMENT_ADDRESS, 1);
            set.ula = x;
            link.push_back(e0->SendAdminRequest(set));
            // From e0's host, entering its adapter logic by the host-side port: hop 0 is that
            // element, 1 e0's link end, 2 e1's link end, 3 e1's adapter logic, 4 nothing.
            for (uint8_t hops = 0; hops <= 4; ++hops)
            {
                host.push_back(e0->SendAdminRequestFromHost(readIndex(hops)));
            }
            GsnAdminPayload setFar = Request(GsnAdminCommand::SET_ELEMENT_ADDRESS, 2);
            setFar.ula = y;
            host.push_back(e0->SendAdminRequestFromHost(setFar));
            GsnAdminPayload ports = Request(GsnAdminCommand::READ_REGISTER, 0);
            ports.port = 1;
            host.push_back(e0->SendAdminRequestFromHost(ports));
        });
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        auto answer = [&r](uint32_t transaction) {
            for (const auto& p : r.got)
            {
                if (p.transaction == transaction)
                {
                    return p;
                }
            }
            return GsnAdminPayload();
        };
        const unsigned ok = unsigned(GsnAdminStatus::OK);
        const unsigned noRoute = unsigned(GsnAdminStatus::NO_ROUTE);
        NS_TEST_ASSERT_MSG_EQ(r.got.size(), link.size() + host.size(), "every request answered");
        for (const auto& p : r.got)
        {
            NS_TEST_ASSERT_MSG_EQ(p.response, true, "a response");
            NS_TEST_ASSERT_MSG_EQ(unsigned(p.hopCount), 0u, "back where it was sent from");
        }
        NS_TEST_ASSERT_MSG_EQ(answer(link[0]).GetArg64(), 0u, "link hop 0: e1's link end");
        NS_TEST_ASSERT_MSG_EQ(answer(link[1]).GetArg64(), 1u, "link hop 1: e1's adapter logic");
        NS_TEST_ASSERT_MSG_EQ(unsigned(answer(link[2]).status), noRoute, "no element behind");
        NS_TEST_ASSERT_MSG_EQ(unsigned(answer(link[3]).status), ok, "set at hop 1");
        NS_TEST_ASSERT_MSG_EQ(e1->GetElementAddress(1), x, "e1's adapter logic got it");
        NS_TEST_ASSERT_MSG_EQ(answer(host[0]).GetArg64(), 1u, "host hop 0: e0's adapter logic");
        NS_TEST_ASSERT_MSG_EQ(answer(host[1]).GetArg64(), 0u, "host hop 1: e0's link end");
        NS_TEST_ASSERT_MSG_EQ(answer(host[2]).GetArg64(), 0u, "host hop 2: e1's link end");
        NS_TEST_ASSERT_MSG_EQ(answer(host[3]).GetArg64(), 1u, "host hop 3: e1's adapter logic");
        NS_TEST_ASSERT_MSG_EQ(unsigned(answer(host[4]).status), noRoute, "host hop 4: none");
        NS_TEST_ASSERT_MSG_EQ(unsigned(answer(host[5]).status), ok, "set at host hop 2");
        NS_TEST_ASSERT_MSG_EQ(e1->GetElementAddress(0), y, "e1's link end got it");
        NS_TEST_ASSERT_MSG_EQ(answer(host[6]).GetArg64(), 2u, "a two-port element");
        NS_TEST_ASSERT_MSG_EQ(e0->GetElementAddress(0), Mac48Address(), "e0's own unchanged");
        NS_TEST_ASSERT_MSG_EQ(e0->GetElementAddress(1), Mac48Address(), "e0's own unchanged");
    }
};

/// Hop counts along endpoint - switch - switch - endpoint, as in the seed's figures.
class GsnAdminHopCountTestCase : public TestCase
{
  public:
    GsnAdminHopCountTestCase()
        : TestCase("Hop count selects the element that processes the request")
    {
    }

  private:
    void DoRun() override
    {
        // e0 - s0 (port 1) - (port 0) s1 (port 1) - e1
        GsnTopology t;
        const uint32_t e0 = t.AddEndpoint("e0");
        const uint32_t s0 = t.AddSwitch(2, "s0");
        const uint32_t s1 = t.AddSwitch(2, "s1");
        const uint32_t e1 = t.AddEndpoint("e1");
        t.Connect(e0, 0, s0, 0);
        t.Connect(s0, 1, s1, 0);
        t.Connect(s1, 1, e1, 0);
        GsnFabricHelper helper;
        FabricHarness h(helper, t);
        Ptr<GsnNetDevice> src = h.fabric.GetEndpointDevice(0);
        Responses r;
        src->TraceConnectWithoutContext("AdminResponse", MakeBoundCallback(&Responses::Add, &r));
        uint32_t processedAtE1 = 0;
        h.fabric.GetEndpointDevice(1)->TraceConnectWithoutContext(
            "AdminRequest",
            MakeBoundCallback(
                +[](uint32_t* n, const GsnAdminPayload&) { ++*n; },
                &processedAtE1));

        // Exchange_element_type answered by: hop 0 -> s0, hop 1 -> s1, hop 2 -> e1.
        Simulator::Schedule(MicroSeconds(5), [&]() {
            GsnAdminPayload q = Request(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE, 0);
            src->SendAdminRequest(q);
            src->SendAdminRequest(Request(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE, 1, {1}));
            src->SendAdminRequest(Request(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE, 2, {1, 1}));
            // hop 3 would go beyond e1: e1 answers that the hop cannot be taken.
            src->SendAdminRequest(Request(GsnAdminCommand::PING, 3, {1, 1, 0}));
            // hop 1 through a port s0 does not have: s0 answers no route.
            src->SendAdminRequest(Request(GsnAdminCommand::PING, 1, {9}));
        });
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(r.got.size(), 5u, "five responses came back to the originator");
        // Nearer elements answer first; put the responses in request order.
        std::sort(r.got.begin(), r.got.end(), [](const auto& a, const auto& b) {
            return a.transaction < b.transaction;
        });
        NS_TEST_ASSERT_MSG_EQ(unsigned(r.got[0].arg[0]), unsigned(GsnElementType::SWITCH), "hop 0");
        NS_TEST_ASSERT_MSG_EQ(r.got[0].ula,
                              h.fabric.switchObjects[0]->GetElementAddress(),
                              "hop 0 is s0");
        NS_TEST_ASSERT_MSG_EQ(r.got[1].ula,
                              h.fabric.switchObjects[1]->GetElementAddress(),
                              "hop 1 is s1");
        NS_TEST_ASSERT_MSG_EQ(unsigned(r.got[2].arg[0]),
                              unsigned(GsnElementType::ENDPOINT),
                              "hop 2 is e1");
        NS_TEST_ASSERT_MSG_EQ(
            r.got[2].ula,
            Mac48Address::ConvertFrom(h.fabric.GetEndpointDevice(1)->GetAddress()),
            "e1's ULA");
        NS_TEST_ASSERT_MSG_EQ(processedAtE1, 1u, "e1 processed exactly one request");
        NS_TEST_ASSERT_MSG_EQ(unsigned(r.got[3].status),
                              unsigned(GsnAdminStatus::NO_ROUTE),
                              "no element beyond an endpoint");
        NS_TEST_ASSERT_MSG_EQ(unsigned(r.got[4].status),
                              unsigned(GsnAdminStatus::NO_ROUTE),
                              "no such port");
        for (uint32_t i = 0; i < 5; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(r.got[i].transaction, i + 1, "transaction ids echoed");
            NS_TEST_ASSERT_MSG_EQ(unsigned(r.got[i].hopCount), 0u, "arrived with hop count 0");
        }
    }
};

/// Discovery builds working tables, equivalent to the fabric manager's.
class GsnDiscoveryTestCase : public TestCase
{
  public:
    /// \param name a label \param t the fabric \param method "Map" or "DistanceVector"
    GsnDiscoveryTestCase(std::string name, GsnTopology t, std::string method)
        : TestCase("Discovery (" + method + ") on " + name + " matches the fabric manager"),
          m_topology(std::move(t)),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        helper.SetDiscovery(true);
        helper.SetSwitchAttribute("DiscoveryMethod", StringValue(m_method));
        helper.SetDeviceAttribute("AdminDiscovery", BooleanValue(true));
        FabricHarness h(helper, m_topology);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        // After discovery every endpoint sends to every other.
        Simulator::Schedule(MilliSeconds(2), [&h, n]() {
            for (uint32_t a = 0; a < n; ++a)
            {
                for (uint32_t b = 0; b < n; ++b)
                {
                    if (a != b)
                    {
                        h.Send(a, b, 1, 100);
                    }
                }
            }
        });
        Simulator::Stop(MilliSeconds(4));
        Simulator::Run();
        for (const auto& sw : h.fabric.switchObjects)
        {
            NS_TEST_ASSERT_MSG_EQ(sw->IsDiscoveryComplete(), true, "discovery finished");
            NS_TEST_ASSERT_MSG_EQ(sw->GetNRoutes(), n, "a route to every endpoint");
            // The map holds every element once (a spanning tree: one parent each).
            const std::size_t mapped = m_method == "Map" ? m_topology.GetNElements() : 0;
            NS_TEST_ASSERT_MSG_EQ(sw->GetMap().size(), mapped, "every element in the map");
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            // Every endpoint learned it sits on a switch and took the ULA it assigned.
            Ptr<GsnNetDevice> d = h.fabric.GetEndpointDevice(i);
            NS_TEST_ASSERT_MSG_EQ(unsigned(d->GetNeighborType()),
                                  unsigned(GsnElementType::SWITCH),
                                  "neighbour is a switch");
            uint8_t b[6];
            Mac48Address::ConvertFrom(d->GetAddress()).CopyTo(b);
            NS_TEST_ASSERT_MSG_EQ(unsigned(b[0]), 2u, "assigned (locally administered) ULA");
        }
        NS_TEST_ASSERT_MSG_EQ(h.sent, uint64_t(n) * (n - 1), "all pairs sent");
        NS_TEST_ASSERT_MSG_EQ(h.AllDelivered(), true, "all pairs reachable");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact");

        // The manager's min-hop tables give paths of the same length as discovery's.
        GsnRoutingTables manager = GsnRouting::Create("MinHop")->Compute(m_topology);
        for (uint32_t a = 0; a < n; ++a)
        {
            for (uint32_t b = 0; b < n; ++b)
            {
                if (a == b)
                {
                    continue;
                }
                const uint32_t ea = h.fabric.endpointElements[a];
                const uint32_t eb = h.fabric.endpointElements[b];
                const size_t managerHops = manager.Route(m_topology, ea, eb).size();
                // Walk the discovered tables.
                const Mac48Address dst =
                    Mac48Address::ConvertFrom(h.fabric.GetEndpointDevice(b)->GetAddress());
                auto peer = m_topology.GetPeer(ea, 0);
                NS_TEST_ASSERT_MSG_EQ(peer.has_value(), true, "endpoint cabled");
                uint32_t element = peer.value_or(std::make_pair(ea, 0u)).first;
                size_t hops = 1;
                while (m_topology.GetElement(element).kind == GsnTopology::ElementKind::SWITCH &&
                       hops < 64)
                {
                    const auto it = std::find(h.fabric.switchElements.begin(),
                                              h.fabric.switchElements.end(),
                                              element);
                    const auto s = size_t(it - h.fabric.switchElements.begin());
                    const int32_t port = h.fabric.switchObjects[s]->GetRoute(dst);
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(port, 0, "route present");
                    peer = m_topology.GetPeer(element, uint32_t(port));
                    NS_TEST_ASSERT_MSG_EQ(peer.has_value(), true, "route to a cabled port");
                    element = peer.value_or(std::make_pair(element, 0u)).first;
                    ++hops;
                }
                NS_TEST_ASSERT_MSG_EQ(element, eb, "discovered tables reach the endpoint");
                NS_TEST_ASSERT_MSG_EQ(hops, managerHops, "as short as the manager's route");
            }
        }
    }

    GsnTopology m_topology; ///< the fabric
    std::string m_method;   ///< discovery method
};

/// Map discovery sets up broadcast with Admin micropackets from the root of its map.
class GsnDiscoveryBroadcastTestCase : public TestCase
{
  public:
    GsnDiscoveryBroadcastTestCase()
        : TestCase("Map discovery sets up broadcast through Admin micropackets")
    {
    }

  private:
    /// Counts Broadcast_setup requests processed at a switch.
    static void Seen(uint32_t* n, uint32_t, const GsnAdminPayload& p)
    {
        if (p.GetCommand() == GsnAdminCommand::BROADCAST_SETUP && !p.response && p.hopCount == 0)
        {
            ++*n;
        }
    }

    void Check(const GsnTopology& t, const std::string& name)
    {
        GsnFabricHelper helper;
        helper.SetDiscovery(true);
        helper.SetDeviceAttribute("AdminDiscovery", BooleanValue(true));
        FabricHarness h(helper, t);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        std::vector<uint32_t> setups(h.fabric.switchObjects.size(), 0);
        for (uint32_t s = 0; s < setups.size(); ++s)
        {
            h.fabric.switchObjects[s]->TraceConnectWithoutContext(
                "Admin",
                MakeBoundCallback(&Seen, &setups[s]));
        }
        Simulator::Schedule(MilliSeconds(2), [&h, n]() {
            h.SendTo(n - 1, Mac48Address::GetBroadcast(), UINT32_MAX, 0, 40);
        });
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, n, name << ": one broadcast copy per endpoint");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.deliveredTo[i], 1u, name << ": endpoint " << i);
        }
        // The root (switch 0, the lowest element address) sets its own ports; every other
        // switch was set up by Admin micropackets.
        NS_TEST_ASSERT_MSG_EQ(setups[0], 0u, name << ": the root needs no micropacket");
        for (uint32_t s = 1; s < setups.size(); ++s)
        {
            NS_TEST_ASSERT_MSG_GT(setups[s], 0u, name << ": switch " << s << " set up by Admin");
        }
    }

    void DoRun() override
    {
        Check(GsnTopologyBuilder::Mesh2D(3, 3), "3x3 mesh");
        Check(GsnTopologyBuilder::KaryNTree(2, 3), "2-ary 3-tree");
    }
};

/// The gsn-admin test suite.
class GsnAdminTestSuite : public TestSuite
{
  public:
    GsnAdminTestSuite()
        : TestSuite("gsn-admin", SYSTEM)
    {
        AddTestCase(new GsnAdminCodecTestCase, TestCase::QUICK);
        AddTestCase(new GsnAdminCommandsTestCase, TestCase::QUICK);
        AddTestCase(new GsnAdminEndpointAnswersTestCase, TestCase::QUICK);
        AddTestCase(new GsnAdminResetTestCase(false), TestCase::QUICK);
        AddTestCase(new GsnAdminResetTestCase(true), TestCase::QUICK);
        AddTestCase(new GsnAdminResetTestCase(true, "DistanceVector"), TestCase::QUICK);
        AddTestCase(new GsnAdminBroadcastSetupTestCase, TestCase::QUICK);
        AddTestCase(new GsnAdminEndpointElementsTestCase, TestCase::QUICK);
        AddTestCase(new GsnAdminHopCountTestCase, TestCase::QUICK);
        for (const std::string method : {"Map", "DistanceVector"})
        {
            AddTestCase(new GsnDiscoveryTestCase("a star", GsnTopologyBuilder::Star(4), method),
                        TestCase::QUICK);
            AddTestCase(new GsnDiscoveryTestCase("figure 1-32",
                                                 GsnTopologyBuilder::TwoSwitchFigure132(),
                                                 method),
                        TestCase::QUICK);
            AddTestCase(new GsnDiscoveryTestCase("a 2-ary 3-tree",
                                                 GsnTopologyBuilder::KaryNTree(2, 3),
                                                 method),
                        TestCase::QUICK);
        }
        AddTestCase(new GsnDiscoveryTestCase("a 3x3 mesh", GsnTopologyBuilder::Mesh2D(3, 3), "Map"),
                    TestCase::QUICK);
        AddTestCase(new GsnDiscoveryBroadcastTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnAdminTestSuite g_gsnAdminTestSuite;
