/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Differential test of the two link modes: the same randomized traffic on the same fabric,
 * once micropacket by micropacket (the reference) and once in runs. Every Message must be
 * delivered in both, intact and in order, with credits conserved; the delivery times are
 * compared Message by Message and the largest difference is reported.
 */
#include "gsn-fabric-harness.h"

#include "ns3/error-model.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/pointer.h"
#include "ns3/test.h"

#include <iostream>
#include <random>

using namespace ns3;
using namespace ns3::gsntest;

namespace
{

/// One randomized scenario.
struct Scenario
{
    std::string name;       ///< label
    GsnTopology topology;   ///< the fabric
    uint32_t seed;          ///< traffic seed
    uint32_t messages;      ///< Messages sent
    uint32_t minBytes;      ///< smallest payload
    uint32_t maxBytes;      ///< largest payload
    double errorRate;       ///< micropacket error rate at every receiver (0: none)
    Time span;              ///< Messages start uniformly in [5 us, 5 us + span)
    uint32_t burstMessages; ///< plus one source sending this many 64 KiB Messages at once
    Time stop;              ///< end of the simulation
};

/// What one run produced.
struct Outcome
{
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>, Time> deliveredAt; ///< times
    uint64_t sent{0};         ///< Messages accepted
    uint64_t delivered{0};    ///< Messages delivered
    uint32_t errors{0};       ///< damaged or out of order
    bool allDelivered{false}; ///< none missing
    bool atRest{false};       ///< credits conserved at the end
    uint64_t events{0};       ///< simulator events
    uint64_t lcrcErrors{0};   ///< micropackets the error models hit
};

/// Run \p s with every port in \p mode.
Outcome
RunScenario(const Scenario& s, const std::string& mode)
{
    GsnFabricHelper helper;
    helper.SetLinkMode(mode);
    Outcome o;
    {
        FabricHarness h(helper, s.topology);
        NetDeviceContainer all = h.fabric.GetAllPorts();
        if (s.errorRate > 0)
        {
            int64_t stream = 7000;
            for (uint32_t i = 0; i < all.GetN(); ++i)
            {
                // One model per port, so that each draws its own sequence in both modes.
                Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
                em->SetRate(s.errorRate);
                em->AssignStreams(stream++);
                all.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
            }
        }
        std::mt19937 rng(s.seed);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        const uint64_t spanNs = uint64_t(s.span.GetNanoSeconds());
        for (uint32_t k = 0; k < s.messages; ++k)
        {
            const uint32_t from = rng() % n;
            const uint32_t to = (from + 1 + rng() % (n - 1)) % n;
            const uint8_t vc = uint8_t(rng() % 4);
            // Sizes spread over the decades from one micropacket to 64 KiB.
            const double u = std::uniform_real_distribution<double>(0, 1)(rng);
            uint32_t size = uint32_t(s.minBytes * std::pow(double(s.maxBytes) / s.minBytes, u));
            if (vc == 0)
            {
                size = std::min(size, 4000u); // VC 0 carries Messages up to 4 KiB
            }
            const Time at = NanoSeconds(5000 + int64_t(rng() % spanNs));
            if (getenv("GSN_DIFF_DEBUG") && mode == "Run")
            {
                std::cout << "send at " << at.GetNanoSeconds() << " " << from << "->" << to
                          << " vc " << unsigned(vc) << " " << size << std::endl;
            }
            Simulator::Schedule(at, [&h, from, to, vc, size]() { h.Send(from, to, vc, size); });
        }
        if (s.burstMessages > 0)
        {
            // A 1 MiB block as back-to-back 64 KiB Messages from endpoint 0 to the last one.
            Simulator::Schedule(MicroSeconds(5), [&h, &s, n]() {
                for (uint32_t k = 0; k < s.burstMessages; ++k)
                {
                    h.Send(0, n - 1, 1, 65000);
                }
            });
        }
        Simulator::Stop(s.stop);
        Simulator::Run();
        o.deliveredAt = h.deliveredAt;
        o.sent = h.sent;
        o.delivered = h.delivered;
        o.errors = h.errors;
        o.allDelivered = h.AllDelivered();
        o.atRest = h.AtRest();
        o.events = Simulator::GetEventCount();
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            o.lcrcErrors += DynamicCast<GsnPortDevice>(all.Get(i))->GetLinkCounters().lcrcErrors;
        }
    } // the harness destroys the simulator
    return o;
}

} // namespace

/// Both link modes deliver every Message of a scenario, at the same times.
class GsnLinkModeTestCase : public TestCase
{
  public:
    /// \param s the scenario \param tolerance largest delivery-time difference accepted
    GsnLinkModeTestCase(Scenario s, Time tolerance)
        : TestCase("Run mode vs micropacket mode: " + s.name),
          m_s(std::move(s)),
          m_tolerance(tolerance)
    {
    }

  private:
    void DoRun() override
    {
        const Outcome ref = RunScenario(m_s, "Micropacket");
        const Outcome run = RunScenario(m_s, "Run");
        for (const Outcome* o : {&ref, &run})
        {
            NS_TEST_ASSERT_MSG_EQ(o->sent, m_s.messages + m_s.burstMessages, "all accepted");
            NS_TEST_ASSERT_MSG_EQ(o->allDelivered, true, "every Message delivered");
            NS_TEST_ASSERT_MSG_EQ(o->delivered, o->sent, "exactly once");
            NS_TEST_ASSERT_MSG_EQ(o->errors, 0u, "intact and in order");
            NS_TEST_ASSERT_MSG_EQ(o->atRest, true, "credits conserved");
            if (m_s.errorRate > 0)
            {
                NS_TEST_ASSERT_MSG_GT(o->lcrcErrors, 0u, "errors were injected");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(run.deliveredAt.size(), ref.deliveredAt.size(), "same Messages");
        Time largest(0);
        uint64_t differing = 0;
        for (const auto& [key, t] : ref.deliveredAt)
        {
            auto it = run.deliveredAt.find(key);
            NS_TEST_ASSERT_MSG_EQ((it != run.deliveredAt.end()), true, "delivered in both");
            const Time d = Abs(it->second - t);
            if (getenv("GSN_DIFF_DEBUG"))
            {
                std::cout << std::get<0>(key) << "->" << std::get<1>(key) << " vc "
                          << unsigned(std::get<2>(key)) << " #" << std::get<3>(key) << " ref "
                          << t.GetNanoSeconds() << " run " << it->second.GetNanoSeconds()
                          << std::endl;
            }
            largest = std::max(largest, d);
            differing += d.IsZero() ? 0 : 1;
        }
        std::cout << "link modes, " << m_s.name << ": " << ref.deliveredAt.size()
                  << " Messages, largest delivery-time difference " << largest.As(Time::NS) << ", "
                  << differing << " differ; events " << ref.events << " -> " << run.events << " ("
                  << double(ref.events) / double(run.events) << "x)" << std::endl;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(largest, m_tolerance, "delivery times agree");
    }

    Scenario m_s;     ///< the scenario
    Time m_tolerance; ///< accepted difference
};

/// The gsn-link-mode test suite.
class GsnLinkModeTestSuite : public TestSuite
{
  public:
    GsnLinkModeTestSuite()
        : TestSuite("gsn-link-mode", SYSTEM)
    {
        using B = GsnTopologyBuilder;
        const Time exact(Seconds(1));
        auto add = [this](Scenario s, Time tolerance, TestCase::TestDuration d) {
            AddTestCase(new GsnLinkModeTestCase(std::move(s), tolerance), d);
        };
        add({"back-to-back, 64 KiB block",
             B::BackToBack(),
             1,
             0,
             32,
             32,
             0,
             MicroSeconds(1),
             16,
             MilliSeconds(5)},
            exact,
            TestCase::QUICK);
        for (uint32_t seed : {1u, 2u, 3u})
        {
            add({"star of 6, seed " + std::to_string(seed),
                 B::Star(6),
                 seed,
                 120,
                 12,
                 65000,
                 0,
                 MicroSeconds(400),
                 0,
                 MilliSeconds(20)},
                exact,
                TestCase::QUICK);
            add({"4-ary fat tree, seed " + std::to_string(seed),
                 B::FatTree(4),
                 seed,
                 300,
                 12,
                 65000,
                 0,
                 MicroSeconds(400),
                 16,
                 MilliSeconds(20)},
                exact,
                TestCase::QUICK);
            add({"2-ary 3-tree with link errors, seed " + std::to_string(seed),
                 B::KaryNTree(2, 3),
                 seed,
                 200,
                 12,
                 65000,
                 1e-4,
                 MicroSeconds(400),
                 0,
                 MilliSeconds(40)},
                exact,
                TestCase::QUICK);
        }
        add({"4x4 torus",
             B::Torus2D(4, 4),
             9,
             300,
             12,
             65000,
             0,
             MicroSeconds(400),
             0,
             MilliSeconds(20)},
            exact,
            TestCase::QUICK);
    }
};

static GsnLinkModeTestSuite g_gsnLinkModeTestSuite; ///< the suite
