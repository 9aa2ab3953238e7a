/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of GsnFabricWatchdog on fabrics built by GsnFabricHelper: a ring routed minimum-hop
 * with the deadlock check off deadlocks under load and the watchdog reports its one cycle
 * once; the same traffic routed up*-down* reports none; a disabled watchdog says nothing; a
 * stall without a cycle is only counted; the checks never keep a simulation alive.
 */
#include "gsn-fabric-harness.h"

#include "ns3/boolean.h"
#include "ns3/gsn-fabric-watchdog.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/node-list.h"
#include "ns3/nstime.h"
#include "ns3/test.h"

#include <algorithm>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::gsntest;

namespace
{

/// Endpoints on the ring, Message size and VC of the ring scenarios.
constexpr uint32_t RING = 5;
constexpr uint32_t MESSAGE_BYTES = 60000;
constexpr uint8_t VC = 1;

/// What a ring scenario saw.
struct Outcome
{
    uint64_t sent{0};                                      ///< Messages accepted
    uint64_t delivered{0};                                 ///< Messages delivered
    bool allDelivered{false};                              ///< every one of them
    uint64_t deadlocks{0};                                 ///< watchdog counter
    uint64_t stalls{0};                                    ///< watchdog counter
    uint64_t checks{0};                                    ///< watchdog counter
    std::vector<std::vector<GsnFabricWatchdog::Hop>> seen; ///< Deadlock trace calls
    std::string description;                               ///< DescribeCycle of the first
    std::string err;                                       ///< what went to std::cerr
    std::vector<uint32_t> switchNodes;                     ///< node id of sw0, sw1, ...
    Time end;                                              ///< Now() after Run()
    Time lastDelivery;                                     ///< of the last Message
};

/// Records the Deadlock trace.
void
RecordCycle(std::vector<std::vector<GsnFabricWatchdog::Hop>>* seen,
            const std::vector<GsnFabricWatchdog::Hop>& cycle)
{
    seen->push_back(cycle);
}

/**
 * Ring(5), every endpoint i sending 60000-byte Messages on VC 1 to endpoint i + 2 (two hops
 * clockwise, the shortest way) at 90% of the link rate from 5 us to 1 ms.
 * \param routing "MinHop" (deadlock check off) or "UpDown"
 * \param enabled the watchdog's Enabled attribute
 * \param linkMode "Micropacket" or "Run"
 * \param stop when to stop, or zero to run until no event is left
 * \param burst one Message per endpoint instead of a stream
 */
Outcome
RunRing(const std::string& routing,
        bool enabled,
        const std::string& linkMode = "Micropacket",
        Time stop = MilliSeconds(3),
        bool burst = false)
{
    Outcome o;
    GsnFabricHelper helper;
    helper.SetRoutingAlgorithm(routing);
    helper.SetDeadlockCheck(routing != "MinHop");
    helper.SetLinkMode(linkMode);
    helper.SetWatchdogAttribute("Enabled", BooleanValue(enabled));
    FabricHarness h(helper, GsnTopologyBuilder::Ring(RING));
    for (uint32_t s = 0; s < h.fabric.switches.GetN(); ++s)
    {
        o.switchNodes.push_back(h.fabric.switches.Get(s)->GetId());
    }
    h.fabric.watchdog->TraceConnectWithoutContext("Deadlock",
                                                  MakeBoundCallback(&RecordCycle, &o.seen));
    // 60000 bytes at 90% of 800 MB/s of payload: one Message every 83.3 us per endpoint.
    const Time gap = NanoSeconds(uint64_t(MESSAGE_BYTES / (0.9 * 0.8)));
    for (Time at = MicroSeconds(5); at < MilliSeconds(1); at += gap)
    {
        for (uint32_t i = 0; i < RING; ++i)
        {
            Simulator::Schedule(at, [&h, i]() { h.Send(i, (i + 2) % RING, VC, MESSAGE_BYTES); });
        }
        if (burst)
        {
            break;
        }
    }
    std::ostringstream err;
    std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
    if (!stop.IsZero())
    {
        Simulator::Stop(stop);
    }
    Simulator::Run();
    std::cerr.rdbuf(old);
    o.err = err.str();
    o.end = Simulator::Now();
    o.sent = h.sent;
    o.delivered = h.delivered;
    o.allDelivered = h.AllDelivered();
    o.lastDelivery = h.arrivals.empty() ? Time(0) : h.arrivals.back();
    o.deadlocks = h.fabric.watchdog->GetDeadlocks();
    o.stalls = h.fabric.watchdog->GetStalls();
    o.checks = h.fabric.watchdog->GetChecks();
    if (!h.fabric.watchdog->GetCycles().empty())
    {
        o.description = h.fabric.watchdog->DescribeCycle(h.fabric.watchdog->GetCycles().front());
    }
    return o;
}

/// Records what each output of a reported cycle had sent when it was reported.
void
RecordSent(std::vector<uint64_t>* sent, const std::vector<GsnFabricWatchdog::Hop>& cycle)
{
    for (const GsnFabricWatchdog::Hop& h : cycle)
    {
        Ptr<GsnSwitch> sw = NodeList::GetNode(h.node)->GetObject<GsnSwitch>();
        sent->push_back(sw->GetCounters(h.port, h.vc).micropacketsOut);
    }
}

} // namespace

/// MinHop on a ring deadlocks; the watchdog reports the clockwise cycle once.
class GsnWatchdogRingDeadlockTestCase : public TestCase
{
  public:
    /// \param linkMode the ports' link mode \param stop Simulator::Stop time, zero for none
    /// \param burst one Message per endpoint
    GsnWatchdogRingDeadlockTestCase(std::string linkMode, Time stop, bool burst)
        : TestCase("MinHop on a ring deadlocks and is reported once, " + linkMode + " mode" +
                   (stop.IsZero() ? ", run until no event is left" : "") +
                   (burst ? ", one Message each" : ", 90% load")),
          m_linkMode(std::move(linkMode)),
          m_stop(stop),
          m_burst(burst)
    {
    }

  private:
    void DoRun() override
    {
        const Outcome o = RunRing("MinHop", true, m_linkMode, m_stop, m_burst);
        NS_TEST_EXPECT_MSG_GT(o.sent, 0u, "Messages were sent");
        NS_TEST_EXPECT_MSG_LT(o.delivered, o.sent, "the fabric deadlocked");
        NS_TEST_EXPECT_MSG_EQ(o.deadlocks, 1u, "one deadlock counted");
        NS_TEST_EXPECT_MSG_EQ(o.seen.size(), 1u, "the trace fired once");
        // The cycle: every switch's clockwise output (port 0) on VC 1, in ring order, each
        // waiting for the next switch's input buffer. (The runner goes on after a failed
        // assertion: guard what follows.)
        const std::vector<GsnFabricWatchdog::Hop> cycle =
            o.seen.empty() ? std::vector<GsnFabricWatchdog::Hop>{} : o.seen.front();
        NS_TEST_EXPECT_MSG_EQ(cycle.size(), RING, "the cycle is the whole ring");
        for (uint32_t i = 0; i < cycle.size() && i < RING; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(cycle[i].node, o.switchNodes[i], "switch " << i);
            NS_TEST_EXPECT_MSG_EQ(cycle[i].port, 0u, "clockwise output of switch " << i);
            NS_TEST_EXPECT_MSG_EQ(unsigned(cycle[i].vc), unsigned(VC), "VC at switch " << i);
        }
        const std::string expected =
            "sw0:p0/vc1 -> sw1:p0/vc1 -> sw2:p0/vc1 -> sw3:p0/vc1 -> sw4:p0/vc1 -> sw0:p0/vc1";
        NS_TEST_EXPECT_MSG_EQ(o.description, expected, "named cycle");
        // One line on std::cerr, naming the cycle.
        NS_TEST_EXPECT_MSG_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1, o.err);
        NS_TEST_EXPECT_MSG_NE(o.err.find("GsnFabricWatchdog: deadlock"), std::string::npos, o.err);
        NS_TEST_EXPECT_MSG_NE(o.err.find(expected), std::string::npos, o.err);
        if (m_stop.IsZero())
        {
            // The checks stopped by themselves once the deadlock was reported.
            NS_TEST_EXPECT_MSG_LT(o.end, MilliSeconds(2), "Run() returned soon after");
        }
    }

    std::string m_linkMode; ///< link mode
    Time m_stop;            ///< stop time or zero
    bool m_burst;           ///< one Message per endpoint
};

/// The same traffic routed up*-down* does not deadlock, and nothing is reported.
class GsnWatchdogRingUpDownTestCase : public TestCase
{
  public:
    /// \param stop Simulator::Stop time, zero for none
    GsnWatchdogRingUpDownTestCase(Time stop)
        : TestCase(std::string("UpDown on the same ring and load: no deadlock reported") +
                   (stop.IsZero() ? ", run until no event is left" : "")),
          m_stop(stop)
    {
    }

  private:
    void DoRun() override
    {
        const Outcome o = RunRing("UpDown", true, "Micropacket", m_stop);
        NS_TEST_EXPECT_MSG_GT(o.sent, 0u, "Messages were sent");
        NS_TEST_EXPECT_MSG_EQ(o.allDelivered, true, "every Message delivered");
        NS_TEST_EXPECT_MSG_EQ(o.deadlocks, 0u, "no deadlock counted");
        NS_TEST_EXPECT_MSG_EQ(o.seen.size(), 0u, "no trace");
        NS_TEST_EXPECT_MSG_EQ(o.err, "", "nothing on std::cerr");
        NS_TEST_EXPECT_MSG_GT(o.checks, 0u, "the watchdog did check");
        if (m_stop.IsZero())
        {
            // The checks do not keep the simulation alive: at most one after the last
            // event of the fabric (an idle check costs one CheckInterval).
            NS_TEST_EXPECT_MSG_LT_OR_EQ(o.end - o.lastDelivery,
                                        MicroSeconds(60),
                                        "Run() ended soon after the last delivery");
        }
    }

    Time m_stop; ///< stop time or zero
};

/// Disabled, the watchdog reports nothing and runs no check, though the fabric deadlocks.
class GsnWatchdogDisabledTestCase : public TestCase
{
  public:
    GsnWatchdogDisabledTestCase()
        : TestCase("Disabled: the deadlocked ring is not reported")
    {
    }

  private:
    void DoRun() override
    {
        const Outcome o = RunRing("MinHop", false);
        NS_TEST_EXPECT_MSG_LT(o.delivered, o.sent, "the fabric deadlocked");
        NS_TEST_EXPECT_MSG_EQ(o.checks, 0u, "no check ran");
        NS_TEST_EXPECT_MSG_EQ(o.deadlocks, 0u, "no deadlock counted");
        NS_TEST_EXPECT_MSG_EQ(o.seen.size(), 0u, "no trace");
        NS_TEST_EXPECT_MSG_EQ(o.err, "", "nothing on std::cerr");
    }
};

/// An idle fabric is checked less and less often, and every CheckInterval again once busy.
class GsnWatchdogIdleTestCase : public TestCase
{
  public:
    GsnWatchdogIdleTestCase()
        : TestCase("Idle, checks back off to IdleCheckInterval; busy, every CheckInterval")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        helper.SetWatchdogAttribute("IdleCheckInterval", TimeValue(MilliSeconds(1)));
        FabricHarness h(helper, GsnTopologyBuilder::Star(2));
        // One second idle, then 10 ms of back-to-back Messages (75 us each).
        const uint32_t messages = 133;
        for (uint32_t k = 0; k < messages; ++k)
        {
            Simulator::Schedule(Seconds(1) + MicroSeconds(75) * k,
                                [&h]() { h.Send(0, 1, VC, MESSAGE_BYTES); });
        }
        uint64_t idleChecks = 0;
        Simulator::Schedule(Seconds(1) - NanoSeconds(1),
                            [&h, &idleChecks]() { idleChecks = h.fabric.watchdog->GetChecks(); });
        Simulator::Stop(Seconds(1.01));
        Simulator::Run();
        // 50 us doubled up to 1 ms: 5 checks reach it, then one a millisecond.
        NS_TEST_EXPECT_MSG_LT(idleChecks, 1010u, "idle checks (every 50 us: 20000)");
        NS_TEST_EXPECT_MSG_GT(idleChecks, 990u, "checks went on while idle");
        NS_TEST_EXPECT_MSG_GT(h.delivered, messages - 2, "the Messages arrived");
        // Busy from the first check after 1 s (at most 1 ms later): every 50 us again.
        NS_TEST_EXPECT_MSG_GT(h.fabric.watchdog->GetChecks(),
                              idleChecks + 150,
                              "busy: every CheckInterval");
    }
};

/// A long stall behind a busy output, without a cycle, is counted as a stall only.
class GsnWatchdogStallTestCase : public TestCase
{
  public:
    GsnWatchdogStallTestCase()
        : TestCase("A stall without a cycle is counted, not reported")
    {
    }

  private:
    void DoRun() override
    {
        // a -- s0 -- s1 -- c, and b on s1: a's Message to c waits at s1 behind b's, and
        // s0's output toward s1, without credits, sends nothing meanwhile.
        GsnTopology t;
        const uint32_t a = t.AddEndpoint("a");
        const uint32_t b = t.AddEndpoint("b");
        const uint32_t c = t.AddEndpoint("c");
        const uint32_t s0 = t.AddSwitch(2, "s0");
        const uint32_t s1 = t.AddSwitch(3, "s1");
        t.Connect(a, 0, s0, 0);
        t.Connect(s0, 1, s1, 0);
        t.Connect(b, 0, s1, 1);
        t.Connect(c, 0, s1, 2);
        GsnFabricHelper helper;
        helper.SetWatchdogAttribute("CheckInterval", TimeValue(MicroSeconds(5)));
        helper.SetWatchdogAttribute("StallTime", TimeValue(MicroSeconds(20)));
        FabricHarness h(helper, t);
        std::vector<std::vector<GsnFabricWatchdog::Hop>> seen;
        h.fabric.watchdog->TraceConnectWithoutContext("Deadlock",
                                                      MakeBoundCallback(&RecordCycle, &seen));
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            for (int k = 0; k < 3; ++k)
            {
                h.Send(1, 2, VC, MESSAGE_BYTES); // b to c, 75 us each
            }
        });
        Simulator::Schedule(MicroSeconds(6), [&h]() { h.Send(0, 2, VC, MESSAGE_BYTES); });
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(h.AllDelivered(), true, "every Message delivered");
        NS_TEST_EXPECT_MSG_EQ(h.delivered, 4u, "four Messages");
        NS_TEST_EXPECT_MSG_GT(h.fabric.watchdog->GetStalls(), 0u, "s0's output stalled");
        NS_TEST_EXPECT_MSG_EQ(h.fabric.watchdog->GetDeadlocks(), 0u, "no deadlock");
        NS_TEST_EXPECT_MSG_EQ(seen.size(), 0u, "no trace");
    }
};

/// Random traffic on a MinHop ring, each Message two hops either way on VC 1 or 2: whatever
/// deadlocks (each direction and VC may), every cycle reported is a chain of cables on one
/// VC, reported once, whose outputs never send again.
class GsnWatchdogRandomRingTestCase : public TestCase
{
  public:
    GsnWatchdogRandomRingTestCase()
        : TestCase("MinHop ring, random directions and VCs at 90% load: each cycle real, once")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        helper.SetRoutingAlgorithm("MinHop");
        helper.SetDeadlockCheck(false);
        FabricHarness h(helper, GsnTopologyBuilder::Ring(RING));
        std::vector<std::vector<GsnFabricWatchdog::Hop>> seen;
        h.fabric.watchdog->TraceConnectWithoutContext("Deadlock",
                                                      MakeBoundCallback(&RecordCycle, &seen));
        std::vector<uint64_t> sentWhenReported;
        h.fabric.watchdog->TraceConnectWithoutContext(
            "Deadlock",
            MakeBoundCallback(&RecordSent, &sentWhenReported));
        std::mt19937 rng(7);
        std::exponential_distribution<double> gapUs(0.9 * 0.8 / MESSAGE_BYTES * 1e6);
        for (uint32_t i = 0; i < RING; ++i)
        {
            for (double at = 5 + gapUs(rng); at < 1000; at += gapUs(rng))
            {
                const uint32_t to = (i + (rng() % 2 ? 2 : RING - 2)) % RING;
                const uint8_t vc = uint8_t(1 + rng() % 2);
                Simulator::Schedule(NanoSeconds(uint64_t(at * 1000)),
                                    [&h, i, to, vc]() { h.Send(i, to, vc, MESSAGE_BYTES); });
            }
        }
        std::ostringstream err;
        std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        std::cerr.rdbuf(old);

        const GsnFabricWatchdog& w = *h.fabric.watchdog;
        NS_TEST_EXPECT_MSG_LT(h.delivered, h.sent, "the ring deadlocked");
        NS_TEST_EXPECT_MSG_GT(w.GetDeadlocks(), 0u, "deadlocks found");
        NS_TEST_EXPECT_MSG_EQ(seen.size(), w.GetDeadlocks(), "one trace per deadlock");
        NS_TEST_EXPECT_MSG_EQ(w.GetCycles().size(), w.GetDeadlocks(), "one cycle per deadlock");
        const std::string lines = err.str();
        NS_TEST_EXPECT_MSG_EQ(uint64_t(std::count(lines.begin(), lines.end(), '\n')),
                              w.GetDeadlocks(),
                              "one line per deadlock: " << lines);
        std::set<std::tuple<uint32_t, uint32_t, uint8_t>> hops;
        std::size_t n = 0;
        for (const auto& cycle : seen)
        {
            NS_TEST_EXPECT_MSG_GT(cycle.size(), 1u, w.DescribeCycle(cycle));
            for (std::size_t i = 0; i < cycle.size(); ++i)
            {
                const GsnFabricWatchdog::Hop& a = cycle[i];
                const GsnFabricWatchdog::Hop& b = cycle[(i + 1) % cycle.size()];
                NS_TEST_EXPECT_MSG_EQ(unsigned(a.vc), unsigned(b.vc), "one VC");
                NS_TEST_EXPECT_MSG_EQ(hops.insert({a.node, a.port, a.vc}).second,
                                      true,
                                      "reported once: " << w.DescribeCycle(cycle));
                // a's output port is cabled to b's switch
                Ptr<GsnSwitch> sw = NodeList::GetNode(a.node)->GetObject<GsnSwitch>();
                Ptr<GsnSwitchPort> port = sw->GetPort(a.port);
                Ptr<GsnChannel> channel = port->GetCable();
                NS_TEST_EXPECT_MSG_EQ(channel->GetPeer(port)->GetNode()->GetId(),
                                      b.node,
                                      "each waits for the next: " << w.DescribeCycle(cycle));
                // a deadlock: nothing more left that output until the end
                NS_TEST_EXPECT_MSG_EQ(sw->GetCounters(a.port, a.vc).micropacketsOut,
                                      sentWhenReported.at(n++),
                                      "never moved again: " << w.DescribeCycle(cycle));
            }
        }
    }
};

/// The watchdog's tests.
class GsnWatchdogTestSuite : public TestSuite
{
  public:
    GsnWatchdogTestSuite()
        : TestSuite("gsn-watchdog", SYSTEM)
    {
        AddTestCase(new GsnWatchdogRingDeadlockTestCase("Micropacket", MilliSeconds(3), false),
                    TestCase::QUICK);
        AddTestCase(new GsnWatchdogRingDeadlockTestCase("Run", MilliSeconds(3), false),
                    TestCase::QUICK);
        AddTestCase(new GsnWatchdogRingDeadlockTestCase("Micropacket", Time(0), true),
                    TestCase::QUICK);
        AddTestCase(new GsnWatchdogRingUpDownTestCase(MilliSeconds(20)), TestCase::QUICK);
        AddTestCase(new GsnWatchdogRingUpDownTestCase(Time(0)), TestCase::QUICK);
        AddTestCase(new GsnWatchdogDisabledTestCase, TestCase::QUICK);
        AddTestCase(new GsnWatchdogStallTestCase, TestCase::QUICK);
        AddTestCase(new GsnWatchdogIdleTestCase, TestCase::QUICK);
        AddTestCase(new GsnWatchdogRandomRingTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnWatchdogTestSuite g_gsnWatchdogTestSuite;
