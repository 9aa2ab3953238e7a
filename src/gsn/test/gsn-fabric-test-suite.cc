/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of whole fabrics built by GsnFabricHelper: every endpoint reaches every other
 * on every topology the builders make, with each applicable routing algorithm; random
 * traffic on a fat tree with link errors arrives exactly once with credits conserved.
 */
#include "gsn-fabric-harness.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/gsn-call-after-event.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-event-hint.h"
#include "ns3/gsn-now.h"
#include "ns3/gsn-quad-heap-scheduler.h"
#include "ns3/gsn-timing-wheel-scheduler.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/map-scheduler.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::gsntest;

/// All pairs exchange a Message in simulation.
class GsnAllPairsTestCase : public TestCase
{
  public:
    /// \param name label \param t topology \param routing algorithm name
    GsnAllPairsTestCase(std::string name, GsnTopology t, std::string routing)
        : TestCase("All pairs reachable on " + name + " with " + routing),
          m_topology(std::move(t)),
          m_routing(std::move(routing))
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        helper.SetRoutingAlgorithm(m_routing);
        FabricHarness h(helper, m_topology);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        Simulator::Schedule(MicroSeconds(5), [&h, n]() {
            for (uint32_t a = 0; a < n; ++a)
            {
                for (uint32_t b = 0; b < n; ++b)
                {
                    if (a != b)
                    {
                        h.Send(a, b, uint8_t((a + b) % 4), 200);
                    }
                }
            }
        });
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.sent, uint64_t(n) * (n - 1), "all sent");
        NS_TEST_ASSERT_MSG_EQ(h.AllDelivered(), true, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, h.sent, "exactly once");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact and in order");
        NS_TEST_ASSERT_MSG_EQ(h.AtRest(), true, "credits conserved");
    }

    GsnTopology m_topology; ///< the fabric
    std::string m_routing;  ///< algorithm
};

/// Random traffic with link errors on a fat tree.
class GsnFabricErrorsTestCase : public TestCase
{
  public:
    GsnFabricErrorsTestCase()
        : TestCase("Random traffic on a fat tree with link errors arrives exactly once")
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper helper;
        FabricHarness h(helper, GsnTopologyBuilder::FatTree(4));
        NetDeviceContainer all = h.fabric.GetAllPorts();
        GsnHelper::SetMicropacketErrorRate(all, 1e-4, 5000);
        std::mt19937 rng(21);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        for (int k = 0; k < 800; ++k)
        {
            const uint32_t from = rng() % n;
            uint32_t to = rng() % n;
            if (to == from)
            {
                to = (to + 1) % n;
            }
            const uint8_t vc = uint8_t(rng() % 4);
            const uint32_t size = vc == 0 ? 12 + rng() % 4000 : 12 + rng() % 30000;
            const Time at = NanoSeconds(5000 + rng() % 1000000);
            Simulator::Schedule(at, [&h, from, to, vc, size]() { h.Send(from, to, vc, size); });
        }
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        GsnLinkCounters total;
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            total += DynamicCast<GsnPortDevice>(all.Get(i))->GetLinkCounters();
        }
        const uint64_t lcrc = total.lcrcErrors;
        const uint64_t resets = total.linkResets;
        NS_TEST_ASSERT_MSG_EQ(h.sent, 800u, "all accepted");
        NS_TEST_ASSERT_MSG_GT(lcrc, 0u, "errors were injected");
        NS_TEST_ASSERT_MSG_EQ(resets, 0u, "go-back-N recovered without resets");
        NS_TEST_ASSERT_MSG_EQ(h.AllDelivered(), true, "every Message delivered");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, h.sent, "exactly once");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact and in order");
        NS_TEST_ASSERT_MSG_EQ(h.AtRest(), true, "credits conserved at the end");
    }
};

/// Delivery times are a function of the model alone, not of the order in which ns-3's event
/// schedulers keep events (each breaks ties of time by insertion order, but they differ in
/// what Simulator::Remove does: the model stops using it with the HeapScheduler).
class GsnSchedulerIndependenceTestCase : public TestCase
{
  public:
    /// \param linkMode LinkMode of every port
    explicit GsnSchedulerIndependenceTestCase(std::string linkMode)
        : TestCase("Delivery times are the same with every ns-3 scheduler, " + linkMode + " mode"),
          m_linkMode(std::move(linkMode))
    {
    }

  private:
    /// \return every Message's delivery time with \p scheduler
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>, Time> Run(
        const std::string& scheduler,
        uint64_t& events)
    {
        Simulator::Destroy(); // (a simulator made before would keep its scheduler)
        GlobalValue::Bind("SchedulerType", StringValue(scheduler));
        GsnFabricHelper helper;
        helper.SetLinkMode(m_linkMode);
        FabricHarness h(helper, GsnTopologyBuilder::KaryNTree(2, 3));
        std::mt19937 rng(5);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        for (int k = 0; k < 150; ++k)
        {
            const uint32_t from = rng() % n;
            const uint32_t to = (from + 1 + rng() % (n - 1)) % n;
            const uint8_t vc = uint8_t(rng() % 4);
            const uint32_t size = vc == 0 ? 12 + rng() % 4000 : 12 + rng() % 30000;
            const Time at = NanoSeconds(5000 + rng() % 300000);
            Simulator::Schedule(at, [&h, from, to, vc, size]() { h.Send(from, to, vc, size); });
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        events = Simulator::GetEventCount();
        NS_TEST_EXPECT_MSG_EQ(h.AllDelivered(), true, scheduler + ": every Message delivered");
        NS_TEST_EXPECT_MSG_EQ(h.errors, 0u, scheduler + ": intact and in order");
        return h.deliveredAt;
    }

    void DoRun() override
    {
        SchedulerGuard guard;
        uint64_t refEvents = 0;
        const auto ref = Run("ns3::MapScheduler", refEvents);
        NS_TEST_ASSERT_MSG_EQ(ref.size(), 150u, "all delivered with the MapScheduler");
        for (const std::string scheduler : {"ns3::HeapScheduler",
                                            "ns3::CalendarScheduler",
                                            "ns3::ListScheduler",
                                            "ns3::GsnQuadHeapScheduler",
                                            "ns3::GsnTimingWheelScheduler"})
        {
            for (const bool callsAfterEvent : {false, true})
            {
                if (callsAfterEvent && scheduler != "ns3::GsnTimingWheelScheduler")
                {
                    continue;
                }
                Config::SetDefault("ns3::GsnTimingWheelScheduler::CallsAfterEvent",
                                   BooleanValue(callsAfterEvent));
                uint64_t events = 0;
                const auto got = Run(scheduler, events);
                const std::string what =
                    scheduler + (callsAfterEvent ? " taking calls after events" : "");
                NS_TEST_ASSERT_MSG_EQ((got == ref), true, what + ": the same delivery times");
                if (callsAfterEvent)
                {
                    // Held Nulls go without an event of their own.
                    NS_TEST_ASSERT_MSG_LT(events, refEvents, what + ": fewer events");
                }
                else if (scheduler != "ns3::HeapScheduler")
                {
                    // (With the HeapScheduler, timers are cancelled instead of removed: their
                    // events still run, finding nothing to do.)
                    NS_TEST_ASSERT_MSG_EQ(events, refEvents, what + ": the same events");
                }
            }
        }
        Config::SetDefault("ns3::GsnTimingWheelScheduler::CallsAfterEvent", BooleanValue(true));
    }

    std::string m_linkMode; ///< LinkMode of every port
};

/// A gsn scheduler gives events in the order of ns-3's MapScheduler (time, then insertion),
/// through random insertions, removals and ties of time.
class GsnSchedulerOrderTestCase : public TestCase
{
  public:
    /// \param name what the scheduler is
    /// \param factory makes the scheduler
    GsnSchedulerOrderTestCase(const std::string& name, const ObjectFactory& factory)
        : TestCase(name + ": the MapScheduler's order through insertions and removals"),
          m_factory(factory)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Scheduler> ref = CreateObject<MapScheduler>();
        Ptr<Scheduler> heap = m_factory.Create<Scheduler>();
        std::vector<Scheduler::Event> pending; // inserted, neither run nor removed
        std::mt19937 rng(3);
        uint32_t uid = 0;
        uint64_t now = 0;
        uint32_t removed = 0;
        for (int step = 0; step < 200000; ++step)
        {
            const uint32_t r = rng() % 10;
            if (r < 5 || pending.empty())
            {
                Scheduler::Event ev;
                ev.impl = nullptr; // never run here
                // Few distinct times, so that ties are common.
                ev.key.m_ts = now + rng() % (step % 1000 < 500 ? 8 : 4000);
                ev.key.m_uid = uid++;
                ev.key.m_context = 0;
                ref->Insert(ev);
                const bool hinted = step % 3 == 0; // a hint changes no order
                if (hinted)
                {
                    gsn::HintNextEvent(&pending, 256);
                }
                heap->Insert(ev);
                if (hinted && DynamicCast<GsnTimingWheelScheduler>(heap))
                {
                    NS_TEST_ASSERT_MSG_EQ((gsn::g_eventHint.from == nullptr),
                                          true,
                                          "the hint goes with the event inserted next only");
                }
                gsn::g_eventHint = gsn::EventHint();
                pending.push_back(ev);
            }
            else if (r < 7)
            {
                const std::size_t i = rng() % pending.size();
                ref->Remove(pending[i]);
                heap->Remove(pending[i]);
                pending[i] = pending.back();
                pending.pop_back();
                ++removed;
            }
            else
            {
                const Scheduler::EventKey want = ref->PeekNext().key;
                NS_TEST_ASSERT_MSG_EQ(heap->PeekNext().key.m_uid, want.m_uid, "peek " << step);
                const Scheduler::Event got = heap->RemoveNext();
                ref->RemoveNext();
                NS_TEST_ASSERT_MSG_EQ(got.key.m_uid, want.m_uid, "next at step " << step);
                NS_TEST_ASSERT_MSG_EQ(got.key.m_ts, want.m_ts, "its time at step " << step);
                now = got.key.m_ts;
                pending.erase(
                    std::find_if(pending.begin(), pending.end(), [&got](const Scheduler::Event& e) {
                        return e.key.m_uid == got.key.m_uid;
                    }));
            }
            NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), ref->IsEmpty(), "emptiness at step " << step);
        }
        NS_TEST_ASSERT_MSG_GT(removed, 10000u, "removals exercised");
        while (!ref->IsEmpty())
        {
            NS_TEST_ASSERT_MSG_EQ(heap->RemoveNext().key.m_uid,
                                  ref->RemoveNext().key.m_uid,
                                  "drained in the same order");
        }
        NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), true, "both empty");
    }

    ObjectFactory m_factory; ///< makes the scheduler under test
};

/// gsn::Now() is Simulator::Now() in every event, under a GsnTimingWheelScheduler, after
/// the simulator's scheduler is replaced by another one, and by ns-3's own.
class GsnPublishedTimeTestCase : public TestCase
{
  public:
    GsnPublishedTimeTestCase()
        : TestCase("gsn::Now() agrees with Simulator::Now() through scheduler changes")
    {
    }

  private:
    void Check()
    {
        ++m_checked;
        if (gsn::Now() != Simulator::Now())
        {
            ++m_wrong;
        }
    }

    void DoRun() override
    {
        SchedulerGuard guard;
        GlobalValue::Bind("SchedulerType", StringValue("ns3::GsnTimingWheelScheduler"));
        std::mt19937 rng(11);
        for (int k = 0; k < 20000; ++k)
        {
            // Within the wheel, beyond it, and ties.
            const Time at = NanoSeconds(k % 3 == 0 ? rng() % 200000 : rng() % 5000);
            Simulator::Schedule(at, &GsnPublishedTimeTestCase::Check, this);
        }
        auto replace = [](const std::string& type) {
            ObjectFactory factory;
            factory.SetTypeId(type);
            Simulator::SetScheduler(factory);
        };
        Simulator::Schedule(NanoSeconds(2500),
                            [replace]() { replace("ns3::GsnTimingWheelScheduler"); });
        Simulator::Schedule(NanoSeconds(100000), [replace]() { replace("ns3::MapScheduler"); });
        Simulator::Schedule(NanoSeconds(150000),
                            [replace]() { replace("ns3::GsnTimingWheelScheduler"); });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(m_checked, 20000u, "every event ran");
        NS_TEST_ASSERT_MSG_EQ(m_wrong, 0u, "gsn::Now() was Simulator::Now() in each");
        NS_TEST_ASSERT_MSG_EQ(gsn::Now(), Simulator::Now(), "and after the simulator is gone");
    }

    uint32_t m_checked{0}; ///< events run
    uint32_t m_wrong{0};   ///< events where the two differed
};

/// What a call after an event notes: its name and when it was made.
class NotedCall : public Object
{
  public:
    /// \param log where to note \param name what
    NotedCall(std::vector<std::string>* log, std::string name)
        : m_log(log),
          m_name(std::move(name))
    {
    }

    /// The call: notes the name and the time. \param call the NotedCall
    static void Note(Object* call)
    {
        const auto* c = static_cast<NotedCall*>(call);
        c->m_log->push_back(c->m_name + "@" + std::to_string(Simulator::Now().GetNanoSeconds()));
    }

    /// The call: notes, then takes a call noting the name with "+1". \param call the NotedCall
    static void NoteAndTakeAnother(Object* call)
    {
        Note(call);
        const auto* c = static_cast<NotedCall*>(call);
        gsn::CallAfterCurrentEvent(&Note, CreateObject<NotedCall>(c->m_log, c->m_name + "+1"));
    }

  private:
    std::vector<std::string>* m_log; ///< the log
    std::string m_name;              ///< what to note
};

/// gsn::CallAfterCurrentEvent() is made where an event scheduled with no delay would run.
class GsnCallAfterEventTestCase : public TestCase
{
  public:
    GsnCallAfterEventTestCase()
        : TestCase("A call after the current event runs where an event with no delay would")
    {
    }

  private:
    /// \return a call noting \p name in m_log
    Ptr<NotedCall> Noted(const std::string& name)
    {
        return CreateObject<NotedCall>(&m_log, name);
    }

    /// Schedule an event at \p at that notes \p name. \return its id
    EventId NoteAt(const Time& at, const std::string& name)
    {
        return Simulator::Schedule(at, [this, name]() {
            m_log.push_back(name + "@" + std::to_string(Simulator::Now().GetNanoSeconds()));
        });
    }

    /// \return whether a call noting \p name was taken
    bool Call(const std::string& name)
    {
        return gsn::CallAfterCurrentEvent(&NotedCall::Note, Noted(name));
    }

    void DoRun() override
    {
        SchedulerGuard guard;
        Simulator::Destroy();
        GlobalValue::Bind("SchedulerType", StringValue("ns3::GsnTimingWheelScheduler"));
        std::vector<bool> taken;
        // At 10 ns the call goes after the event pending at that time, before the one
        // scheduled after it.
        Simulator::Schedule(NanoSeconds(10), [this, &taken]() {
            m_log.push_back("a@10");
            NoteAt(Time(0), "before");
            taken.push_back(Call("queued"));
            NoteAt(Time(0), "after-a");
            m_log.push_back("a-end@10");
        });
        // At 20 ns a call takes another, made after it.
        Simulator::Schedule(NanoSeconds(20), [this, &taken]() {
            m_log.push_back("b@20");
            taken.push_back(
                gsn::CallAfterCurrentEvent(&NotedCall::NoteAndTakeAnother, Noted("chain")));
        });
        // An event scheduled with no delay after the call runs after it.
        Simulator::Schedule(NanoSeconds(25), [this, &taken]() {
            m_log.push_back("d@25");
            taken.push_back(Call("call"));
            NoteAt(Time(0), "after");
        });
        // The only event pending when a call is taken is removed: the call is still made.
        EventId last;
        Simulator::Schedule(NanoSeconds(30), [this, &taken, &last]() {
            m_log.push_back("c@30");
            taken.push_back(Call("lone"));
            Simulator::Remove(last);
        });
        last = NoteAt(NanoSeconds(40), "removed");
        Simulator::Run();
        const uint64_t events = Simulator::GetEventCount();
        Simulator::Destroy();
        const std::vector<std::string> expected = {"a@10",
                                                   "a-end@10",
                                                   "before@10",
                                                   "queued@10",
                                                   "after-a@10",
                                                   "b@20",
                                                   "chain@20",
                                                   "chain+1@20",
                                                   "d@25",
                                                   "call@25",
                                                   "after@25",
                                                   "c@30",
                                                   "lone@30"};
        NS_TEST_ASSERT_MSG_EQ((m_log == expected), true, "the calls in the order of events");
        NS_TEST_ASSERT_MSG_EQ((taken == std::vector<bool>{true, true, true, true}), true, "taken");
        // Seven events, and the event doing nothing that the scheduler scheduled behind the
        // lone call when the last event was removed (the simulator counts it in and out).
        NS_TEST_ASSERT_MSG_EQ(events, 8u, "the calls are not events");

        // Turned off, no call is taken.
        m_log.clear();
        Config::SetDefault("ns3::GsnTimingWheelScheduler::CallsAfterEvent", BooleanValue(false));
        bool offTaken = true;
        Simulator::Schedule(NanoSeconds(10), [this, &offTaken]() { offTaken = Call("off"); });
        NoteAt(NanoSeconds(20), "later");
        Simulator::Run();
        Simulator::Destroy();
        Config::SetDefault("ns3::GsnTimingWheelScheduler::CallsAfterEvent", BooleanValue(true));
        NS_TEST_ASSERT_MSG_EQ(offTaken, false, "CallsAfterEvent false: refused");
        NS_TEST_ASSERT_MSG_EQ(gsn::CallAfterCurrentEvent(&NotedCall::Note, Noted("none")),
                              false,
                              "no simulator running: refused");
    }

    std::vector<std::string> m_log; ///< what ran, and when
};

/// \return a factory of the scheduler type with the given attributes
ObjectFactory
SchedulerFactory(const std::string& type,
                 const std::vector<std::pair<std::string, std::string>>& attributes = {})
{
    ObjectFactory factory;
    factory.SetTypeId(type);
    for (const auto& [name, value] : attributes)
    {
        factory.Set(name, StringValue(value));
    }
    return factory;
}

/// The gsn-fabric test suite.
/// Cables without a length in the topology take GsnChannel's Length attribute.
class GsnCableLengthTestCase : public TestCase
{
  public:
    GsnCableLengthTestCase()
        : TestCase("GsnChannel::Length (Config::SetDefault) is honoured for cables without a "
                   "length; beyond 40 m of copper it is refused, naming the limit")
    {
    }

  private:
    /// \return the channel of endpoint \p i of \p fabric
    static Ptr<GsnChannel> ChannelOf(const GsnFabric& fabric, uint32_t i)
    {
        return DynamicCast<GsnNetDevice>(fabric.endpointDevices.Get(i))->GetCable();
    }

    void DoRun() override
    {
        Config::SetDefault("ns3::GsnChannel::Length", DoubleValue(30.0));
        // Built as the command line would: --ns3::GsnChannel::Length=30.
        GsnTopology t;
        const uint32_t a = t.AddEndpoint("a");
        const uint32_t b = t.AddEndpoint("b");
        const uint32_t c = t.AddEndpoint("c");
        const uint32_t sw = t.AddSwitch(3, "sw");
        t.Connect(a, 0, sw, 0);
        t.Connect(b, 0, sw, 1);
        t.Connect(c, 0, sw, 2, 5.0); // a length of its own
        GsnFabricHelper helper;
        GsnFabric fabric = helper.Install(t);
        NS_TEST_EXPECT_MSG_EQ_TOL(ChannelOf(fabric, 0)->GetLength(), 30.0, 1e-9, "default");
        NS_TEST_EXPECT_MSG_EQ(ChannelOf(fabric, 0)->GetDelay(), NanoSeconds(150), "5 ns/m");
        NS_TEST_EXPECT_MSG_EQ_TOL(ChannelOf(fabric, 1)->GetLength(), 30.0, 1e-9, "default");
        NS_TEST_EXPECT_MSG_EQ_TOL(ChannelOf(fabric, 2)->GetLength(), 5.0, 1e-9, "given");
        Simulator::Destroy();

        // A builder's cables, from the helper's channel attribute.
        GsnFabricHelper withAttribute;
        withAttribute.SetChannelAttribute("Length", DoubleValue(25.0));
        GsnFabric star = withAttribute.Install(GsnTopologyBuilder::Star(2));
        NS_TEST_EXPECT_MSG_EQ_TOL(ChannelOf(star, 1)->GetLength(), 25.0, 1e-9, "helper");
        Simulator::Destroy();
        Config::SetDefault("ns3::GsnChannel::Length", DoubleValue(10.0));

        // What Attach() refuses with: the medium's limit, and how to go beyond it.
        const std::string copper = GsnChannel::CheckLength(GsnChannel::COPPER, 100.0);
        NS_TEST_EXPECT_MSG_NE(copper.find("at most 40 m"), std::string::npos, copper);
        NS_TEST_EXPECT_MSG_NE(copper.find("Medium=Fiber"), std::string::npos, copper);
        NS_TEST_EXPECT_MSG_EQ(GsnChannel::CheckLength(GsnChannel::COPPER, 40.0), "", "40 m");
        NS_TEST_EXPECT_MSG_EQ(GsnChannel::CheckLength(GsnChannel::FIBER, 100.0), "", "fibre");
        NS_TEST_EXPECT_MSG_NE(GsnChannel::CheckLength(GsnChannel::FIBER, 1001.0),
                              "",
                              "1 km of fibre at most");
    }
};

class GsnFabricTestSuite : public TestSuite
{
  public:
    GsnFabricTestSuite()
        : TestSuite("gsn-fabric", SYSTEM)
    {
        using B = GsnTopologyBuilder;
        AddTestCase(new GsnAllPairsTestCase("back-to-back", B::BackToBack(), "MinHop"),
                    TestCase::QUICK);
        for (const std::string routing : {"MinHop", "UpDown"})
        {
            AddTestCase(new GsnAllPairsTestCase("a star", B::Star(6), routing), TestCase::QUICK);
            AddTestCase(new GsnAllPairsTestCase("figure 1-32", B::TwoSwitchFigure132(), routing),
                        TestCase::QUICK);
            AddTestCase(new GsnAllPairsTestCase("a 2-ary 3-tree", B::KaryNTree(2, 3), routing),
                        TestCase::QUICK);
            AddTestCase(new GsnAllPairsTestCase("a 4-ary fat tree", B::FatTree(4), routing),
                        TestCase::QUICK);
        }
        AddTestCase(new GsnAllPairsTestCase("a 3x3 mesh", B::Mesh2D(3, 3), "DimensionOrder"),
                    TestCase::QUICK);
        AddTestCase(new GsnAllPairsTestCase("a 3x3 mesh", B::Mesh2D(3, 3), "UpDown"),
                    TestCase::QUICK);
        AddTestCase(new GsnAllPairsTestCase("a 4x4 torus", B::Torus2D(4, 4), "UpDown"),
                    TestCase::QUICK);
        AddTestCase(new GsnAllPairsTestCase("a ring of 5", B::Ring(5), "UpDown"), TestCase::QUICK);
        AddTestCase(new GsnFabricErrorsTestCase, TestCase::QUICK);
        AddTestCase(new GsnCableLengthTestCase, TestCase::QUICK);
        AddTestCase(new GsnSchedulerOrderTestCase("Quad-heap scheduler",
                                                  SchedulerFactory("ns3::GsnQuadHeapScheduler")),
                    TestCase::QUICK);
        // A small wheel: events beyond it, in the heap, and the wheel turning over.
        for (const std::string slots : {"64", "32768"})
        {
            AddTestCase(new GsnSchedulerOrderTestCase(
                            "Timing-wheel scheduler of " + slots + " slots",
                            SchedulerFactory("ns3::GsnTimingWheelScheduler",
                                             {{"WheelSlots", slots}, {"PublishTime", "false"}})),
                        TestCase::QUICK);
        }
        AddTestCase(new GsnPublishedTimeTestCase, TestCase::QUICK);
        AddTestCase(new GsnCallAfterEventTestCase, TestCase::QUICK);
        AddTestCase(new GsnSchedulerIndependenceTestCase("Micropacket"), TestCase::QUICK);
        AddTestCase(new GsnSchedulerIndependenceTestCase("Run"), TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnFabricTestSuite g_gsnFabricTestSuite;
