/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of the GSN switch: cut-through timing, wormhole integrity, fair arbitration,
 * head-of-line blocking, unroutable Messages, broadcast, link resets at a switch port.
 */
#include "gsn-fabric-harness.h"

#include "ns3/boolean.h"
#include "ns3/error-model.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/pointer.h"
#include "ns3/test.h"

#include <random>
#include <set>

using namespace ns3;
using namespace ns3::gsntest;

/// A small Message crosses one switch at the analytic time.
class GsnSwitchLatencyTestCase : public TestCase
{
  public:
    GsnSwitchLatencyTestCase()
        : TestCase("A Message crosses a switch at serialization + propagation + cut-through")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::Star(4));
        // 24 payload bytes + 12-byte minimum are padded by the harness to 24: 48 bytes,
        // 2 micropackets. Both cables are 10 m (50 ns); cut-through 300 ns.
        Simulator::Schedule(MicroSeconds(10), [&h]() { h.Send(0, 2, 1, 24); });
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "delivered");
        const Time expected = MicroSeconds(10) + NanoSeconds(3 * 40 + 2 * 50 + 300);
        NS_TEST_ASSERT_MSG_EQ(h.arrivals.front(), expected, "arrival time");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact");
    }
};

/// Micropackets of two Messages never interleave on one (link, VC).
class GsnWormholeTestCase : public TestCase
{
  public:
    GsnWormholeTestCase()
        : TestCase("Wormhole: one Message at a time per link and VC")
    {
    }

  private:
    /// Per (port, VC): is a Message open on the wire?
    struct Watch
    {
        std::map<std::pair<const void*, uint8_t>, bool> open;
        uint64_t violations{0};
        uint64_t messages{0};
    };

    static void OnTx(Watch* w, const void* port, const GsnMicropacket& mp)
    {
        if (!mp.IsMessage())
        {
            return;
        }
        bool& open = w->open[{port, mp.vc}];
        if (mp.GetType() == GsnMicropacketType::HEADER)
        {
            w->violations += open ? 1 : 0;
            open = true;
        }
        else if (!open)
        {
            ++w->violations;
        }
        if (mp.tail)
        {
            open = false;
            ++w->messages;
        }
    }

    void DoRun() override
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::KaryNTree(2, 3));
        Watch watch;
        NetDeviceContainer all = h.fabric.GetAllPorts();
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            const void* key = PeekPointer(all.Get(i));
            all.Get(i)->TraceConnectWithoutContext(
                "MicropacketTx",
                MakeBoundCallback(&GsnWormholeTestCase::OnTx, &watch, key));
        }
        // Incast and cross traffic, same VC, long Messages: outputs are contended.
        std::mt19937 rng(9);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        for (int k = 0; k < 300; ++k)
        {
            const uint32_t from = rng() % n;
            uint32_t to = (k % 3 == 0) ? 0 : rng() % n;
            if (to == from)
            {
                to = (from + 1) % n;
            }
            const uint8_t vc = uint8_t(rng() % 2 + 1);
            const Time at = NanoSeconds(5000 + rng() % 200000);
            const uint32_t size = 100 + rng() % 6000;
            Simulator::Schedule(at, [&h, from, to, vc, size]() { h.Send(from, to, vc, size); });
        }
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.sent, 300u, "sent");
        NS_TEST_ASSERT_MSG_EQ(h.AllDelivered(), true, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact and in order");
        NS_TEST_ASSERT_MSG_GT(watch.messages, 600u, "Messages crossed several links");
        NS_TEST_ASSERT_MSG_EQ(watch.violations, 0u, "no interleaving within a VC");
        NS_TEST_ASSERT_MSG_EQ(h.AtRest(), true, "credits conserved, buffers empty");
        uint64_t blocked = 0;
        for (const auto& sw : h.fabric.switchObjects)
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                for (uint8_t vc = 0; vc < 4; ++vc)
                {
                    blocked += sw->GetCounters(p, vc).blockedIn.GetNanoSeconds();
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(blocked, 0u, "outputs were contended");
    }
};

/// Inputs competing for one output get it in turn.
class GsnFairArbitrationTestCase : public TestCase
{
  public:
    GsnFairArbitrationTestCase()
        : TestCase("Round-robin arbitration is fair between inputs")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::Star(4));
        // Three senders queue 30 Messages each for endpoint 3 at the same instant.
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            for (int k = 0; k < 30; ++k)
            {
                for (uint32_t from = 0; from < 3; ++from)
                {
                    h.Send(from, 3, 1, 2000);
                }
            }
        });
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 90u, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact");
        // In every window of three consecutive arrivals, each sender appears once.
        for (size_t i = 0; i + 3 <= h.order.size(); i += 3)
        {
            std::set<uint32_t> senders;
            for (size_t j = i; j < i + 3; ++j)
            {
                senders.insert(h.order[j].first);
            }
            NS_TEST_ASSERT_MSG_EQ(senders.size(), 3u, "round robin at arrival " << i);
        }
    }
};

/// A blocked Message holds back the next one of its input VC, not other VCs.
class GsnHeadOfLineTestCase : public TestCase
{
  public:
    GsnHeadOfLineTestCase()
        : TestCase("Head-of-line blocking within a VC, none across VCs")
    {
    }

  private:
    /// \return arrival time at endpoint 2 of the Message 0 -> 2 when the second Message
    /// travels on \p vc2.
    Time Run(uint8_t vc2)
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::Star(4));
        Time arrival;
        h.fabric.GetEndpointDevice(2)->TraceConnectWithoutContext(
            "MacRx",
            MakeBoundCallback(
                +[](Time* t, Ptr<const Packet>) { *t = Simulator::Now(); },
                &arrival));
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            h.Send(3, 1, 1, 120000); // keeps output 1's VC 1 busy for about 150 us
        });
        Simulator::Schedule(MicroSeconds(6), [&h, vc2]() {
            h.Send(0, 1, 1, 1000); // waits for output 1 at the switch
            h.Send(0, 2, vc2, 1000);
        });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        return arrival;
    }

    void DoRun() override
    {
        const Time sameVc = Run(1);
        const Time otherVc = Run(2);
        NS_TEST_ASSERT_MSG_GT(sameVc, MicroSeconds(100), "blocked behind the head Message");
        NS_TEST_ASSERT_MSG_LT(otherVc, MicroSeconds(10), "another VC passes");
    }
};

/// Messages for an unknown ULA are dropped at the switch and their credits come back.
class GsnUnknownUlaTestCase : public TestCase
{
  public:
    GsnUnknownUlaTestCase()
        : TestCase("A Message for an unknown ULA is dropped, counted, and wedges nothing")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::Star(3));
        uint32_t traced = 0;
        h.fabric.switchObjects[0]->TraceConnectWithoutContext(
            "MessageDrop",
            MakeBoundCallback(
                +[](uint32_t* n, uint32_t, uint8_t, Mac48Address, GsnSwitchDropReason) { ++*n; },
                &traced));
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            h.SendTo(0, Mac48Address("0a:0b:0c:0d:0e:0f"), UINT32_MAX, 1, 30000);
            h.Send(0, 1, 1, 3000);
        });
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        Ptr<GsnSwitch> sw = h.fabric.switchObjects[0];
        NS_TEST_ASSERT_MSG_EQ(sw->GetDrops(GsnSwitchDropReason::UNKNOWN_ULA), 1u, "counted");
        NS_TEST_ASSERT_MSG_EQ(traced, 1u, "traced");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "the next Message still arrives");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact");
        NS_TEST_ASSERT_MSG_EQ(h.AtRest(), true, "all credits returned");
    }
};

/// Broadcast reaches every endpoint once, including the sender; never on a fabric with a
/// switch that does not broadcast.
class GsnBroadcastTestCase : public TestCase
{
  public:
    GsnBroadcastTestCase()
        : TestCase("Broadcast reaches every endpoint exactly once")
    {
    }

  private:
    void Check(const GsnTopology& t, const std::string& name)
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, t);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            h.SendTo(0, Mac48Address::GetBroadcast(), UINT32_MAX, 0, 40);
        });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.fabric.SupportsBroadcast(), true, name);
        NS_TEST_ASSERT_MSG_EQ(h.delivered, n, name << ": one copy per endpoint");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.deliveredTo[i], 1u, name << ": endpoint " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(h.AtRest(), true, name << ": at rest");
    }

    void DoRun() override
    {
        Check(GsnTopologyBuilder::Star(5), "star");
        Check(GsnTopologyBuilder::TwoSwitchFigure132(), "figure 1-32");
        Check(GsnTopologyBuilder::KaryNTree(2, 3), "2-ary 3-tree");
        Check(GsnTopologyBuilder::Mesh2D(3, 3), "3x3 mesh");

        // One switch that does not broadcast: the fabric does not, and nothing arrives.
        GsnFabricHelper helper;
        helper.SetSwitchAttribute("BroadcastCapable", BooleanValue(false));
        FabricHarness h(helper, GsnTopologyBuilder::Star(3));
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            h.SendTo(0, Mac48Address::GetBroadcast(), UINT32_MAX, 0, 40);
            h.Send(0, 1, 0, 40);
        });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.fabric.SupportsBroadcast(), false, "not broadcast-capable");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "only the unicast Message");
        NS_TEST_ASSERT_MSG_EQ(
            h.fabric.switchObjects[0]->GetDrops(GsnSwitchDropReason::NO_BROADCAST),
            1u,
            "the broadcast was refused and counted");
    }
};

/// A link reset at a switch port in the middle of a Message wedges nothing.
class GsnSwitchResetTestCase : public TestCase
{
  public:
    GsnSwitchResetTestCase()
        : TestCase("A link reset at a switch input mid-Message closes it and traffic resumes")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::Star(3));
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            h.Send(0, 1, 3, 100000); // about 125 us on the wire
        });
        // Reset the sender's link while the Message streams through the switch.
        Simulator::Schedule(MicroSeconds(40),
                            [&h]() { h.fabric.GetEndpointDevice(0)->ResetLink(); });
        Simulator::Schedule(MicroSeconds(300), [&h]() { h.Send(0, 1, 3, 5000); });
        Simulator::Stop(MicroSeconds(600));
        Simulator::Run();
        Ptr<GsnNetDevice> rx = h.fabric.GetEndpointDevice(1);
        const uint64_t cut = rx->GetMessageCounters().rxDrops[size_t(GsnRxDropReason::ERROR_FLAG)];
        NS_TEST_ASSERT_MSG_EQ(cut, 1u, "the cut Message arrives closed with the E bit");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "the later Message arrives");
        NS_TEST_ASSERT_MSG_EQ(h.AtRest(), true, "no credit lost");
    }
};

/// The gsn-switch test suite.
class GsnSwitchTestSuite : public TestSuite
{
  public:
    GsnSwitchTestSuite()
        : TestSuite("gsn-switch", SYSTEM)
    {
        AddTestCase(new GsnSwitchLatencyTestCase, TestCase::QUICK);
        AddTestCase(new GsnWormholeTestCase, TestCase::QUICK);
        AddTestCase(new GsnFairArbitrationTestCase, TestCase::QUICK);
        AddTestCase(new GsnHeadOfLineTestCase, TestCase::QUICK);
        AddTestCase(new GsnUnknownUlaTestCase, TestCase::QUICK);
        AddTestCase(new GsnBroadcastTestCase, TestCase::QUICK);
        AddTestCase(new GsnSwitchResetTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnSwitchTestSuite g_gsnSwitchTestSuite;
