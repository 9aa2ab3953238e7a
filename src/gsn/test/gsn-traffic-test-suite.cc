/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of the traffic generators and run statistics: the traffic header codec, the
 * destination choice of every pattern, offered load and latency on a link against queueing
 * theory, refusals, CSV and JSON output, determinism per seed, exact statistics of
 * hand-built records, and traffic across a switched fabric.
 */
#include "ns3/double.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-helper.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-port-device.h"
#include "ns3/gsn-remote-port.h"
#include "ns3/gsn-switch.h" // GsnFabric holds Ptr<GsnSwitch>
#include "ns3/gsn-topology-builder.h"
#include "ns3/gsn-traffic-generator.h"
#include "ns3/gsn-traffic-header.h"
#include "ns3/gsn-traffic-helper.h"
#include "ns3/gsn-traffic-stats.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// Generator attributes as name/value pairs.
using Attrs = std::vector<std::pair<std::string, std::string>>;

/// The link data rate, bit/s.
constexpr double RATE = GsnTrafficGenerator::LINK_DATA_RATE;

/// \return \p n fake endpoint ULAs
std::vector<Mac48Address>
FakeEndpoints(uint32_t n)
{
    std::vector<Mac48Address> ulas;
    for (uint32_t i = 0; i < n; ++i)
    {
        ulas.push_back(Mac48Address::Allocate());
    }
    return ulas;
}

/// \return a generator at \p index of \p n fake endpoints, with fixed streams
Ptr<GsnTrafficGenerator>
MakeGenerator(uint32_t index, uint32_t n, const Attrs& attrs, int64_t stream = 7)
{
    Ptr<GsnTrafficGenerator> g = CreateObject<GsnTrafficGenerator>();
    for (const auto& [name, value] : attrs)
    {
        g->SetAttribute(name, StringValue(value));
    }
    g->SetEndpoints(index, FakeEndpoints(n));
    g->AssignStreams(stream);
    return g;
}

/// \return how many standard deviations \p count is from a binomial(\p n, \p p) mean
double
Sigmas(double count, double n, double p)
{
    return std::abs(count - n * p) / std::sqrt(n * p * (1 - p));
}

/// What a run on one link produced.
struct LinkResult
{
    GsnTrafficSummary summary;        ///< over the window
    std::string csv;                  ///< WriteCsv
    std::string json;                 ///< WriteSummaryJson
    uint64_t sent{0};                 ///< whole run
    uint64_t delivered{0};            ///< whole run
    uint64_t anomalies{0};            ///< duplicates + out of order + misdelivered + stray
    uint64_t statsRefused{0};         ///< refusals the statistics saw
    uint64_t generated[2]{0, 0};      ///< per generator
    uint64_t genRefused[2]{0, 0};     ///< per generator
    uint64_t devRefused[2]{0, 0};     ///< per device (too long)
    uint64_t received[2]{0, 0};       ///< per generator
    uint64_t txDropTraces{0};         ///< TxDrop trace calls
    uint64_t sentOnVc[4]{0, 0, 0, 0}; ///< Messages accepted, by their GsnVcTag
    double meanInterval{0};           ///< generator 0's mean interval, ns
};

/// Count a trace call.
void
CountDrop(uint64_t* n, Ptr<const Packet>)
{
    ++*n;
}

/// Count an accepted Message by its VC.
void
CountSentOnVc(uint64_t* byVc, Ptr<const Packet> p)
{
    GsnVcTag tag;
    if (p->PeekPacketTag(tag) && tag.GetVc() < 4)
    {
        ++byVc[tag.GetVc()];
    }
}

/**
 * Two endpoints on one 10 m cable, a generator on each from 0 to \p appStop, statistics over
 * [\p windowStart, \p appStop), the simulation running to \p simStop to drain.
 */
LinkResult
RunLink(const Attrs& attrs, Time windowStart, Time appStop, Time simStop, int64_t stream = 1)
{
    NodeContainer nodes;
    nodes.Create(2);
    GsnHelper link;
    NetDeviceContainer devices = link.Install(nodes);
    link.AssignStreams(devices, 100);

    GsnTrafficHelper traffic;
    for (const auto& [name, value] : attrs)
    {
        traffic.SetAttribute(name, StringValue(value));
    }
    traffic.SetStatsAttribute("WindowStart", TimeValue(windowStart));
    traffic.SetStatsAttribute("WindowEnd", TimeValue(appStop));
    ApplicationContainer apps = traffic.Install(nodes);
    traffic.AssignStreams(apps, stream);
    apps.Start(Seconds(0));
    apps.Stop(appStop);
    Ptr<GsnTrafficStats> stats = traffic.GetStats();
    stats->AddLinks(devices);
    LinkResult r;
    for (uint32_t i = 0; i < 2; ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext("TxDrop",
                                                MakeBoundCallback(&CountDrop, &r.txDropTraces));
        apps.Get(i)->TraceConnectWithoutContext("Tx",
                                                MakeBoundCallback(&CountSentOnVc, r.sentOnVc));
    }
    Simulator::Stop(simStop);
    Simulator::Run();

    r.summary = stats->Summarize();
    std::ostringstream csv;
    stats->WriteCsv(csv);
    r.csv = csv.str();
    std::ostringstream json;
    stats->WriteSummaryJson(json);
    r.json = json.str();
    r.sent = stats->GetSent();
    r.delivered = stats->GetDelivered();
    r.anomalies = stats->GetDuplicates() + stats->GetOutOfOrder() + stats->GetMisdelivered() +
                  stats->GetStray();
    r.statsRefused = stats->GetRefused();
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<GsnTrafficGenerator> g = DynamicCast<GsnTrafficGenerator>(apps.Get(i));
        r.generated[i] = g->GetGenerated();
        r.genRefused[i] = g->GetRefused();
        r.received[i] = g->GetReceived();
        r.devRefused[i] =
            DynamicCast<GsnNetDevice>(devices.Get(i))->GetMessageCounters().txRefusedTooLong;
    }
    r.meanInterval =
        DynamicCast<GsnTrafficGenerator>(apps.Get(0))->GetMeanInterval().GetNanoSeconds();
    Simulator::Destroy();
    return r;
}

/// \return \p text parsed by nlohmann/json, strictly; on a syntax error null, and \p error
/// says why
nlohmann::json
ParseJson(const std::string& text, std::string& error)
{
    try
    {
        return nlohmann::json::parse(text);
    }
    catch (const nlohmann::json::exception& e)
    {
        error = e.what();
        return nlohmann::json();
    }
}

/// \return the lines of \p text
std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        lines.push_back(line);
    }
    return lines;
}

/// \return the comma-separated fields of \p line
std::vector<std::string>
Fields(const std::string& line)
{
    std::vector<std::string> fields(1);
    for (char c : line)
    {
        if (c == ',')
        {
            fields.emplace_back();
        }
        else
        {
            fields.back() += c;
        }
    }
    return fields;
}

/// \return a traffic header with the given fields
GsnTrafficHeader
MakeHeader(uint32_t src, uint32_t dst, uint64_t seq, int64_t sendNs, uint32_t bytes)
{
    GsnTrafficHeader h;
    h.SetSource(src);
    h.SetDestination(dst);
    h.SetSequence(seq);
    h.SetSendTime(NanoSeconds(sendNs));
    h.SetMessageSize(bytes);
    return h;
}

} // namespace

/// The header serializes to its documented big-endian layout and back.
class GsnTrafficHeaderTestCase : public TestCase
{
  public:
    GsnTrafficHeaderTestCase()
        : TestCase("Traffic header round trip is byte-exact and big-endian")
    {
    }

  private:
    void DoRun() override
    {
        const GsnTrafficHeader h = MakeHeader(0x01020304,
                                              0x05060708,
                                              0x1112131415161718ull,
                                              0x2122232425262728ll,
                                              0x31323334);
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 28u, "fixed size");
        Ptr<Packet> p = Create<Packet>(5);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 33u, "header in front of the payload");
        uint8_t bytes[33];
        p->CopyData(bytes, sizeof(bytes));
        const uint8_t expected[28] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x11, 0x12,
                                      0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22, 0x23, 0x24,
                                      0x25, 0x26, 0x27, 0x28, 0x31, 0x32, 0x33, 0x34};
        for (uint32_t i = 0; i < 28; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(bytes[i]), unsigned(expected[i]), "byte " << i);
        }
        GsnTrafficHeader back;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(back), 28u, "consumed");
        NS_TEST_ASSERT_MSG_EQ((back == h), true, "equal after the round trip");
        NS_TEST_ASSERT_MSG_EQ(back.GetSendTime(), NanoSeconds(0x2122232425262728ll), "time");

        // A negative time survives as two's complement.
        const GsnTrafficHeader negative = MakeHeader(0, 1, 2, -3, 28);
        Ptr<Packet> q = Create<Packet>();
        q->AddHeader(negative);
        uint8_t raw[28];
        q->CopyData(raw, sizeof(raw));
        NS_TEST_ASSERT_MSG_EQ(unsigned(raw[16]), 0xFFu, "sign bytes");
        NS_TEST_ASSERT_MSG_EQ(unsigned(raw[23]), 0xFDu, "-3");
        GsnTrafficHeader negativeBack;
        q->RemoveHeader(negativeBack);
        NS_TEST_ASSERT_MSG_EQ(negativeBack.GetSendTime(), NanoSeconds(-3), "negative time");
    }
};

/// UniformRandom: never itself, every other endpoint equally often.
class GsnUniformPatternTestCase : public TestCase
{
  public:
    GsnUniformPatternTestCase()
        : TestCase("UniformRandom never picks itself and spreads evenly")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        const uint32_t self = 3;
        const uint32_t draws = 14000;
        Ptr<GsnTrafficGenerator> g = MakeGenerator(self, n, Attrs{{"Pattern", "UniformRandom"}});
        std::vector<uint32_t> count(n, 0);
        for (uint32_t k = 0; k < draws; ++k)
        {
            const uint32_t d = g->NextDestination();
            NS_TEST_ASSERT_MSG_LT(d, n, "a valid endpoint");
            ++count[d];
        }
        NS_TEST_ASSERT_MSG_EQ(count[self], 0u, "never itself");
        for (uint32_t d = 0; d < n; ++d)
        {
            if (d != self)
            {
                // Binomial counts: more than 5 sigma off has probability below 1e-6.
                NS_TEST_EXPECT_MSG_LT(Sigmas(count[d], draws, 1.0 / (n - 1)),
                                      5.0,
                                      "endpoint " << d << " drawn " << count[d] << " times");
            }
        }
        // A single endpoint has nobody to send to.
        Ptr<GsnTrafficGenerator> alone = MakeGenerator(0, 1, Attrs{{"Pattern", "UniformRandom"}});
        NS_TEST_ASSERT_MSG_EQ(alone->NextDestination(),
                              GsnTrafficGenerator::NO_DESTINATION,
                              "alone");
    }
};

/// Permutation: the helper's draw is a derangement, uniform, and the generator sticks to it.
class GsnPermutationPatternTestCase : public TestCase
{
  public:
    GsnPermutationPatternTestCase()
        : TestCase("Permutation is a uniformly drawn derangement that each sender keeps")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(11);
        for (uint32_t n : {2u, 3u, 8u, 100u})
        {
            const std::vector<uint32_t> p = GsnTrafficHelper::DrawPermutation(n, rng);
            NS_TEST_ASSERT_MSG_EQ(p.size(), n, "one destination per endpoint");
            std::set<uint32_t> seen(p.begin(), p.end());
            NS_TEST_ASSERT_MSG_EQ(seen.size(), n, "a bijection for n=" << n);
            NS_TEST_ASSERT_MSG_LT(*seen.rbegin(), n, "in range");
            for (uint32_t i = 0; i < n; ++i)
            {
                NS_TEST_ASSERT_MSG_NE(p[i], i, "no fixed point for n=" << n);
            }
        }
        // n = 3 has exactly two derangements, (1 2 0) and (2 0 1): both equally likely.
        uint32_t first = 0;
        const uint32_t draws = 1000;
        for (uint32_t k = 0; k < draws; ++k)
        {
            first += GsnTrafficHelper::DrawPermutation(3, rng)[0] == 1 ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_LT(Sigmas(first, draws, 0.5), 5.0, "(1 2 0) drawn " << first);

        Ptr<GsnTrafficGenerator> g = MakeGenerator(2, 8, Attrs{{"Pattern", "Permutation"}});
        g->SetPermutationDestination(5);
        for (int k = 0; k < 20; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(g->NextDestination(), 5u, "always the same destination");
        }
        g->SetPermutationDestination(2);
        NS_TEST_ASSERT_MSG_EQ(g->NextDestination(),
                              GsnTrafficGenerator::NO_DESTINATION,
                              "never itself");
    }
};

/// AllToAll: round robin over the others starting after itself.
class GsnAllToAllPatternTestCase : public TestCase
{
  public:
    GsnAllToAllPatternTestCase()
        : TestCase("AllToAll is a round robin over all other endpoints")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<GsnTrafficGenerator> g = MakeGenerator(2, 5, Attrs{{"Pattern", "AllToAll"}});
        const uint32_t expected[] = {3, 4, 0, 1, 3, 4, 0, 1, 3};
        for (uint32_t k = 0; k < 9; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(g->NextDestination(), expected[k], "step " << k);
        }
    }
};

/// Incast and HotSpot: the hot spot's share is as configured.
class GsnHotSpotPatternTestCase : public TestCase
{
  public:
    GsnHotSpotPatternTestCase()
        : TestCase("Incast sends everything to the hot spot; HotSpot sends it its fraction")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        const Attrs incast{{"Pattern", "Incast"}, {"HotSpot", "6"}};
        for (uint32_t self = 0; self < n; ++self)
        {
            Ptr<GsnTrafficGenerator> g = MakeGenerator(self, n, incast);
            const uint32_t d = g->NextDestination();
            NS_TEST_ASSERT_MSG_EQ(d,
                                  (self == 6 ? GsnTrafficGenerator::NO_DESTINATION : 6u),
                                  "endpoint " << self);
        }

        const double fraction = 0.3;
        const uint32_t draws = 20000;
        const Attrs hot{{"Pattern", "HotSpot"}, {"HotSpot", "0"}, {"HotSpotFraction", "0.3"}};
        Ptr<GsnTrafficGenerator> g = MakeGenerator(3, n, hot);
        std::vector<uint32_t> count(n, 0);
        for (uint32_t k = 0; k < draws; ++k)
        {
            ++count[g->NextDestination()];
        }
        NS_TEST_ASSERT_MSG_EQ(count[3], 0u, "never itself");
        NS_TEST_EXPECT_MSG_LT(Sigmas(count[0], draws, fraction),
                              5.0,
                              "hot spot drawn " << count[0] << " times");
        for (uint32_t d = 1; d < n; ++d)
        {
            if (d != 3)
            {
                NS_TEST_EXPECT_MSG_LT(Sigmas(count[d], draws, (1 - fraction) / (n - 2)),
                                      5.0,
                                      "endpoint " << d << " drawn " << count[d] << " times");
            }
        }
        // The hot spot itself sends uniformly to the others.
        Ptr<GsnTrafficGenerator> spot = MakeGenerator(0, n, hot);
        std::vector<uint32_t> spotCount(n, 0);
        for (uint32_t k = 0; k < 7000; ++k)
        {
            ++spotCount[spot->NextDestination()];
        }
        NS_TEST_ASSERT_MSG_EQ(spotCount[0], 0u, "the hot spot never sends to itself");
        for (uint32_t d = 1; d < n; ++d)
        {
            NS_TEST_EXPECT_MSG_LT(Sigmas(spotCount[d], 7000, 1.0 / (n - 1)),
                                  5.0,
                                  "from the hot spot to " << d);
        }
    }
};

/// The helper gives every endpoint its index, the ULAs, a permutation and shared statistics.
class GsnTrafficHelperTestCase : public TestCase
{
  public:
    GsnTrafficHelperTestCase()
        : TestCase("The helper wires eight endpoints and redraws the permutation per stream")
    {
    }

  private:
    /// \return the permutation destinations of \p apps
    static std::vector<uint32_t> Destinations(const ApplicationContainer& apps)
    {
        std::vector<uint32_t> d;
        for (uint32_t i = 0; i < apps.GetN(); ++i)
        {
            d.push_back(DynamicCast<GsnTrafficGenerator>(apps.Get(i))->GetPermutationDestination());
        }
        return d;
    }

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(8);
        GsnHelper link;
        NetDeviceContainer devices;
        for (uint32_t i = 0; i < 8; i += 2)
        {
            devices.Add(link.Install(nodes.Get(i), nodes.Get(i + 1)));
        }
        GsnTrafficHelper traffic;
        traffic.SetAttribute("Pattern", StringValue("Permutation"));
        ApplicationContainer apps = traffic.Install(nodes);
        NS_TEST_ASSERT_MSG_EQ(apps.GetN(), 8u, "one generator per endpoint");
        NS_TEST_ASSERT_MSG_EQ(traffic.GetStats()->GetEndpointCount(), 8u, "stats sized");
        for (uint32_t i = 0; i < 8; ++i)
        {
            Ptr<GsnTrafficGenerator> g = DynamicCast<GsnTrafficGenerator>(apps.Get(i));
            NS_TEST_ASSERT_MSG_EQ(g->GetIndex(), i, "index");
            NS_TEST_ASSERT_MSG_EQ(g->GetEndpointCount(), 8u, "all endpoints known");
            NS_TEST_ASSERT_MSG_EQ(g->GetDevice(), devices.Get(i), "its own device");
            NS_TEST_ASSERT_MSG_EQ(g->GetStats(), traffic.GetStats(), "shared statistics");
            NS_TEST_ASSERT_MSG_EQ(g->GetNode(), nodes.Get(i), "on its node");
        }
        const int64_t used = traffic.AssignStreams(apps, 50);
        NS_TEST_ASSERT_MSG_EQ(used, 1 + 8 * 5, "one stream for the permutation, five each");
        const std::vector<uint32_t> a = Destinations(apps);
        traffic.AssignStreams(apps, 50);
        const std::vector<uint32_t> b = Destinations(apps);
        traffic.AssignStreams(apps, 90);
        const std::vector<uint32_t> c = Destinations(apps);
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "same stream, same permutation");
        NS_TEST_ASSERT_MSG_EQ((a == c), false, "another stream, another permutation");
        std::set<uint32_t> targets(a.begin(), a.end());
        NS_TEST_ASSERT_MSG_EQ(targets.size(), 8u, "every endpoint receives from one sender");
        Simulator::Destroy();
    }
};

/// Offered load 0.5 on a link gives half the data rate, within the Poisson count spread.
class GsnOfferedLoadTestCase : public TestCase
{
  public:
    GsnOfferedLoadTestCase()
        : TestCase("Offered load 0.5 on a link delivers half the data rate")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t bytes = 1000;
        const Time start = MilliSeconds(1);
        const Time stop = MilliSeconds(20);
        const LinkResult r =
            RunLink(Attrs{{"Pattern", "UniformRandom"},
                          {"OfferedLoad", "0.5"},
                          {"MessageSize", "ns3::ConstantRandomVariable[Constant=1000]"}},
                    start,
                    stop,
                    MilliSeconds(21));
        const double window = (stop - start).GetSeconds();
        const double expected = 0.5 * RATE; // per direction, bit/s
        NS_TEST_ASSERT_MSG_EQ_TOL(r.meanInterval, bytes * 8 / expected * 1e9, 1, "mean gap, ns");
        // Messages in the window per direction are Poisson with mean m: the relative standard
        // deviation of the delivered rate is 1/sqrt(m). Allow 4 of them (the link itself adds
        // no loss: the drain checks below are exact).
        const double m = expected * window / (bytes * 8);
        const double tol = 4 / std::sqrt(m);
        for (const GsnEndpointSummary& e : r.summary.endpoints)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(e.rxThroughput / expected,
                                      1.0,
                                      tol,
                                      "endpoint " << e.index << " received " << e.rxThroughput);
            NS_TEST_EXPECT_MSG_EQ_TOL(e.txThroughput / expected,
                                      1.0,
                                      tol,
                                      "endpoint " << e.index << " sent " << e.txThroughput);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(r.summary.deliveredThroughput / (2 * expected),
                                  1.0,
                                  4 / std::sqrt(2 * m),
                                  "aggregate " << r.summary.deliveredThroughput);
        NS_TEST_ASSERT_MSG_EQ(r.delivered, r.sent, "everything sent arrived after the drain");
        NS_TEST_ASSERT_MSG_EQ(r.summary.undelivered, 0u, "nothing left undelivered");
        NS_TEST_ASSERT_MSG_EQ(r.anomalies, 0u, "no duplicate, reordering or stray");
        NS_TEST_ASSERT_MSG_EQ(r.statsRefused, 0u, "no refusal");
        NS_TEST_ASSERT_MSG_EQ(r.received[0] + r.received[1], r.delivered, "generators agree");

        // Each Message fills ceil((16 + 8 + 1000) / 32) = 32 micropackets; the link also
        // sends a few Credit-only and Null micropackets.
        const double dataShare = 0.5 * 32 * 32 / double(bytes);
        NS_TEST_ASSERT_MSG_EQ(r.summary.links.size(), 2u, "both ports watched");
        for (const GsnLinkSummary& l : r.summary.links)
        {
            NS_TEST_EXPECT_MSG_GT(l.utilisation, dataShare * (1 - tol), "port " << l.address);
            NS_TEST_EXPECT_MSG_LT(l.utilisation,
                                  dataShare * (1 + tol) + 0.02,
                                  "port " << l.address);
        }
    }
};

/// Latency on a link: ordered percentiles above the analytic minimum, mean as M/D/1 says.
class GsnLatencyDistributionTestCase : public TestCase
{
  public:
    GsnLatencyDistributionTestCase()
        : TestCase("Latency percentiles are ordered, above the minimum, mean as in M-D-1")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t bytes = 1000;
        const LinkResult r =
            RunLink(Attrs{{"OfferedLoad", "0.5"},
                          {"MessageSize", "ns3::ConstantRandomVariable[Constant=1000]"}},
                    MilliSeconds(1),
                    MilliSeconds(20),
                    MilliSeconds(21));
        const GsnLatencySummary& l = r.summary.latency;
        NS_TEST_ASSERT_MSG_GT(l.count, 10000u, "enough samples");
        // Serialization of ceil((16 + 8 + 1000) / 32) micropackets plus 10 m at 5 ns/m.
        const double micropackets = std::ceil((16.0 + 8.0 + bytes) / 32.0);
        const double service = micropackets * 40.0;
        const double minimum = service + 50.0;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(l.min, minimum, "no Message beats the wire");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(l.min, minimum + 80, "some Message finds the link idle");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(l.min, l.p50, "min <= p50");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(l.p50, l.p90, "p50 <= p90");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(l.p90, l.p99, "p90 <= p99");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(l.p99, l.p999, "p99 <= p99.9");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(l.p999, l.max, "p99.9 <= max");
        NS_TEST_ASSERT_MSG_LT(l.min, l.max, "queueing spreads the latency");
        NS_TEST_ASSERT_MSG_LT(l.ci95Low, l.mean, "interval below the mean");
        NS_TEST_ASSERT_MSG_GT(l.ci95High, l.mean, "interval above the mean");
        // Poisson arrivals, constant service S at utilisation rho: M/D/1 waits
        // rho * S / (2 (1 - rho)) on average (Pollaczek-Khinchine).
        const double rho = 0.5 * micropackets * 32 / bytes;
        const double mean = minimum + rho * service / (2 * (1 - rho));
        const double half = (l.ci95High - l.ci95Low) / 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(l.mean,
                                  mean,
                                  3 * half + 0.01 * mean,
                                  "mean latency (95% half-width " << half << " ns)");
    }
};

/// Refusals: a VC too small for the Messages refuses them all; a random VC some.
class GsnRefusalTestCase : public TestCase
{
  public:
    GsnRefusalTestCase()
        : TestCase("Messages a VC cannot carry are refused and counted; random VCs are drawn "
                   "among those that carry the Message")
    {
    }

  private:
    void DoRun() override
    {
        // VC 0 carries M_len <= 4096: 5000-byte Messages never fit.
        const std::string size = "ns3::ConstantRandomVariable[Constant=5000]";
        const LinkResult all =
            RunLink(Attrs{{"Vc", "0"}, {"MaxMessages", "20"}, {"MessageSize", size}},
                    Seconds(0),
                    MilliSeconds(5),
                    MilliSeconds(5));
        NS_TEST_ASSERT_MSG_EQ(all.sent, 0u, "nothing sent");
        NS_TEST_ASSERT_MSG_EQ(all.statsRefused, 40u, "every Message refused");
        NS_TEST_ASSERT_MSG_EQ(all.txDropTraces, 40u, "and traced");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(all.generated[i], 20u, "MaxMessages generated");
            NS_TEST_ASSERT_MSG_EQ(all.genRefused[i], all.devRefused[i], "device agrees");
        }

        const LinkResult some =
            RunLink(Attrs{{"Vc", "4"}, {"MaxMessages", "400"}, {"MessageSize", size}},
                    Seconds(0),
                    MilliSeconds(10),
                    MilliSeconds(10));
        uint64_t refused = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(some.generated[i], 400u, "MaxMessages generated");
            NS_TEST_ASSERT_MSG_EQ(some.genRefused[i], some.devRefused[i], "device agrees");
            refused += some.genRefused[i];
        }
        // A random VC is drawn among those that carry the Message: none refused.
        NS_TEST_ASSERT_MSG_EQ(refused, 0u, "no VC drawn that refuses the Message");
        NS_TEST_ASSERT_MSG_EQ(some.sent, 800u, "each Message sent");
        NS_TEST_ASSERT_MSG_EQ(some.sentOnVc[0], 0u, "never on VC 0");
        for (uint8_t vc = 1; vc < 4; ++vc)
        {
            NS_TEST_EXPECT_MSG_LT(Sigmas(some.sentOnVc[vc], 800, 1.0 / 3),
                                  5.0,
                                  "VCs 1 to 3 each drawn a third of the time: VC "
                                      << unsigned(vc) << " " << some.sentOnVc[vc]);
        }
        NS_TEST_ASSERT_MSG_EQ(some.delivered, some.sent, "all arrive");

        // Short Messages fit every VC: all four drawn.
        const LinkResult shortOnes =
            RunLink(Attrs{{"Vc", "4"},
                          {"MaxMessages", "400"},
                          {"MessageSize", "ns3::ConstantRandomVariable[Constant=1000]"}},
                    Seconds(0),
                    MilliSeconds(10),
                    MilliSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(shortOnes.sent, 800u, "each short Message sent");
        for (uint8_t vc = 0; vc < 4; ++vc)
        {
            NS_TEST_EXPECT_MSG_LT(Sigmas(shortOnes.sentOnVc[vc], 800, 0.25),
                                  5.0,
                                  "each VC drawn a quarter of the time: VC "
                                      << unsigned(vc) << " " << shortOnes.sentOnVc[vc]);
        }
    }
};

/// CSV and JSON output parse and agree with the counters.
class GsnOutputFormatTestCase : public TestCase
{
  public:
    GsnOutputFormatTestCase()
        : TestCase("CSV and JSON output parse and agree with the run")
    {
    }

  private:
    void DoRun() override
    {
        const LinkResult r =
            RunLink(Attrs{{"MaxMessages", "50"},
                          {"MessageSize", "ns3::UniformRandomVariable[Min=100|Max=5000]"}},
                    Seconds(0),
                    MilliSeconds(2),
                    MilliSeconds(3));
        NS_TEST_ASSERT_MSG_EQ(r.sent, 100u, "fifty per endpoint");

        const std::vector<std::string> lines = Lines(r.csv);
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 101u, "header + one line per Message");
        NS_TEST_ASSERT_MSG_EQ(lines[0],
                              "source,destination,sequence,bytes,send_ns,arrival_ns,latency_ns",
                              "header line");
        uint64_t delivered = 0;
        for (size_t i = 1; i < lines.size(); ++i)
        {
            const std::vector<std::string> f = Fields(lines[i]);
            NS_TEST_ASSERT_MSG_EQ(f.size(), 7u, "seven fields: " << lines[i]);
            const uint32_t bytes = std::stoul(f[3]);
            NS_TEST_ASSERT_MSG_EQ((bytes >= 100 && bytes <= 5000), true, "size " << bytes);
            NS_TEST_ASSERT_MSG_NE(f[0], f[1], "never to itself");
            if (!f[5].empty())
            {
                ++delivered;
                NS_TEST_ASSERT_MSG_EQ(std::stoll(f[6]),
                                      std::stoll(f[5]) - std::stoll(f[4]),
                                      "latency = arrival - send");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(delivered, r.delivered, "delivered lines");

        std::string error;
        const nlohmann::json j = ParseJson(r.json, error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "JSON parses:\n" << r.json);
        try
        {
            CheckSummaryJson(j, r);
        }
        catch (const nlohmann::json::exception& e)
        {
            // (at() throws for a missing field, get() for a value of another type.)
            NS_TEST_ASSERT_MSG_EQ(std::string(e.what()), "", "the summary's fields:\n" << r.json);
        }
    }

    /// Check the JSON summary \p j against the run \p r.
    void CheckSummaryJson(const nlohmann::json& j, const LinkResult& r)
    {
        NS_TEST_ASSERT_MSG_EQ(j.is_object(), true, "an object");
        NS_TEST_ASSERT_MSG_EQ(j.at("messages").at("sent").get<double>(),
                              double(r.summary.sent),
                              "sent");
        NS_TEST_ASSERT_MSG_EQ(j.at("messages").at("delivered").get<double>(),
                              double(r.summary.delivered),
                              "delivered");
        NS_TEST_ASSERT_MSG_EQ(j.at("endpoints").size(), 2u, "two endpoints");
        NS_TEST_ASSERT_MSG_EQ(j.at("links").size(), 2u, "two ports");
        NS_TEST_ASSERT_MSG_EQ(j.at("links").at(0).at("address").is_string(), true, "ULA string");
        const nlohmann::json& latency = j.at("latency_ns");
        NS_TEST_ASSERT_MSG_EQ_TOL(latency.at("p99").get<double>(),
                                  r.summary.latency.p99,
                                  1e-6 * r.summary.latency.p99,
                                  "p99");
        NS_TEST_ASSERT_MSG_EQ(latency.at("count").get<double>(),
                              double(r.summary.latency.count),
                              "count");
        const char* latencyKeys[] =
            {"mean", "stddev", "min", "max", "p50", "p90", "p99", "p999", "ci95_low", "ci95_high"};
        for (const char* key : latencyKeys)
        {
            NS_TEST_ASSERT_MSG_EQ(latency.at(key).is_number(), true, key);
        }
        NS_TEST_ASSERT_MSG_EQ(j.at("throughput_bps").at("delivered").is_number(), true, "rate");
    }
};

/// Same seed, same run; another seed, other arrival times.
class GsnDeterminismTestCase : public TestCase
{
  public:
    GsnDeterminismTestCase()
        : TestCase("Same seed gives identical records, another seed other arrival times")
    {
    }

  private:
    /// \return the arrival times in \p csv
    static std::vector<std::string> Arrivals(const std::string& csv)
    {
        std::vector<std::string> a;
        for (const std::string& line : Lines(csv))
        {
            a.push_back(Fields(line)[5]);
        }
        return a;
    }

    void DoRun() override
    {
        const Attrs attrs{{"Vc", "4"},
                          {"OfferedLoad", "0.7"},
                          {"MessageSize", "ns3::UniformRandomVariable[Min=28|Max=8000]"}};
        const uint64_t run = RngSeedManager::GetRun();
        const auto once = [&attrs]() {
            return RunLink(attrs, Seconds(0), MilliSeconds(2), MilliSeconds(3), 1);
        };
        RngSeedManager::SetRun(1);
        const LinkResult a = once();
        const LinkResult b = once();
        RngSeedManager::SetRun(2);
        const LinkResult c = once();
        RngSeedManager::SetRun(run);
        NS_TEST_ASSERT_MSG_GT(a.sent, 100u, "a real run");
        NS_TEST_ASSERT_MSG_EQ(a.csv, b.csv, "identical records");
        NS_TEST_ASSERT_MSG_EQ(a.json, b.json, "identical summary");
        NS_TEST_ASSERT_MSG_EQ((Arrivals(a.csv) == Arrivals(c.csv)),
                              false,
                              "another run number, other arrival times");
        const LinkResult d = RunLink(attrs, Seconds(0), MilliSeconds(2), MilliSeconds(3), 500);
        NS_TEST_ASSERT_MSG_EQ((Arrivals(a.csv) == Arrivals(d.csv)),
                              false,
                              "other streams, other arrival times");
    }
};

/// Statistics of hand-built records are exact.
class GsnStatsExactTestCase : public TestCase
{
  public:
    GsnStatsExactTestCase()
        : TestCase("Statistics of hand-built records are exact")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<GsnTrafficStats> s = CreateObject<GsnTrafficStats>();
        s->SetEndpointCount(3);
        // Endpoint 0 sends ten 1000-byte Messages to 1, one per microsecond; their latencies
        // are a shuffle of 10, 20, ..., 100 ns.
        const int64_t latency[10] = {50, 10, 100, 30, 20, 90, 60, 40, 80, 70};
        for (uint64_t k = 0; k < 10; ++k)
        {
            s->RecordSent(0, k, 1, 1000, NanoSeconds(1000 * k));
        }
        for (uint64_t k = 0; k < 10; ++k)
        {
            const GsnTrafficHeader h = MakeHeader(0, 1, k, 1000 * k, 1000);
            NS_TEST_ASSERT_MSG_EQ(s->RecordArrival(1, h, NanoSeconds(1000 * k + latency[k])),
                                  true,
                                  "first arrival");
        }
        // Endpoint 1 sends one 500-byte Message to 0 that never arrives, and has one refused.
        s->RecordSent(1, 0, 0, 500, NanoSeconds(3000));
        s->RecordRefused(1);
        // Endpoint 2 sends two Messages to 0 at 20 and 21 us; the second arrives first.
        s->RecordSent(2, 0, 0, 200, MicroSeconds(20));
        s->RecordSent(2, 1, 0, 200, MicroSeconds(21));
        s->RecordArrival(0, MakeHeader(2, 0, 1, 21000, 200), MicroSeconds(22));
        s->RecordArrival(0, MakeHeader(2, 0, 0, 20000, 200), MicroSeconds(23));
        // A duplicate, a Message at the wrong endpoint, and two that match nothing sent.
        NS_TEST_ASSERT_MSG_EQ(
            s->RecordArrival(1, MakeHeader(0, 1, 3, 3000, 1000), MicroSeconds(30)),
            false,
            "duplicate");
        s->RecordArrival(2, MakeHeader(0, 1, 4, 4000, 1000), MicroSeconds(30));
        s->RecordArrival(1, MakeHeader(0, 1, 99, 4000, 1000), MicroSeconds(30));
        s->RecordArrival(1, MakeHeader(0, 1, 5, 5000, 999), MicroSeconds(30));

        NS_TEST_ASSERT_MSG_EQ(s->GetSent(), 13u, "sent");
        NS_TEST_ASSERT_MSG_EQ(s->GetDelivered(), 12u, "delivered");
        NS_TEST_ASSERT_MSG_EQ(s->GetDuplicates(), 1u, "duplicates");
        NS_TEST_ASSERT_MSG_EQ(s->GetOutOfOrder(), 1u, "out of order");
        NS_TEST_ASSERT_MSG_EQ(s->GetMisdelivered(), 1u, "misdelivered");
        NS_TEST_ASSERT_MSG_EQ(s->GetStray(), 2u, "stray");
        NS_TEST_ASSERT_MSG_EQ(s->GetRefused(), 1u, "refused");

        const GsnTrafficSummary w = s->Summarize(Seconds(0), MicroSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(w.sent, 11u, "sent in the window");
        NS_TEST_ASSERT_MSG_EQ(w.delivered, 10u, "arrived in the window");
        NS_TEST_ASSERT_MSG_EQ(w.undelivered, 1u, "the lost one");
        NS_TEST_ASSERT_MSG_EQ(w.bytesDelivered, 10000u, "bytes");
        NS_TEST_ASSERT_MSG_EQ_TOL(w.deliveredThroughput, 8e9, 1, "80000 bits in 10 us");
        NS_TEST_ASSERT_MSG_EQ_TOL(w.offeredThroughput, 8.4e9, 1, "84000 bits in 10 us");
        NS_TEST_ASSERT_MSG_EQ(w.endpoints.size(), 3u, "every endpoint");
        NS_TEST_ASSERT_MSG_EQ(w.endpoints[1].received, 10u, "endpoint 1 received");
        NS_TEST_ASSERT_MSG_EQ(w.endpoints[1].refused, 1u, "endpoint 1 refused");
        NS_TEST_ASSERT_MSG_EQ(w.endpoints[2].sent, 0u, "endpoint 2 silent in the window");
        NS_TEST_ASSERT_MSG_EQ_TOL(w.endpoints[1].rxThroughput, 8e9, 1, "per endpoint");

        const GsnLatencySummary& l = w.latency;
        NS_TEST_ASSERT_MSG_EQ(l.count, 10u, "samples");
        NS_TEST_ASSERT_MSG_EQ_TOL(l.mean, 55.0, 1e-9, "mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(l.stddev, std::sqrt(8250.0 / 9), 1e-9, "sample stddev");
        NS_TEST_ASSERT_MSG_EQ(l.min, 10.0, "min");
        NS_TEST_ASSERT_MSG_EQ(l.max, 100.0, "max");
        // Linear interpolation between order statistics at f * (n - 1).
        NS_TEST_ASSERT_MSG_EQ_TOL(l.p50, 55.0, 1e-9, "p50");
        NS_TEST_ASSERT_MSG_EQ_TOL(l.p90, 91.0, 1e-9, "p90");
        NS_TEST_ASSERT_MSG_EQ_TOL(l.p99, 99.1, 1e-9, "p99");
        NS_TEST_ASSERT_MSG_EQ_TOL(l.p999, 99.91, 1e-9, "p99.9");
        // Ten samples, fewer than the default 20 batches: the plain Student-t interval,
        // t(0.975, 9) = 2.2621571628.
        const double half = 2.2621571628 * std::sqrt(8250.0 / 9) / std::sqrt(10.0);
        NS_TEST_ASSERT_MSG_EQ_TOL(l.ci95Low, 55.0 - half, 1e-6, "CI low");
        NS_TEST_ASSERT_MSG_EQ_TOL(l.ci95High, 55.0 + half, 1e-6, "CI high");

        // Two batches of five: means 42 and 68.
        s->SetAttribute("Batches", UintegerValue(2));
        const GsnLatencySummary b = s->Summarize(Seconds(0), MicroSeconds(10)).latency;
        const double batchHalf = 12.7062047362 * std::sqrt(2 * 13.0 * 13.0) / std::sqrt(2.0);
        NS_TEST_ASSERT_MSG_EQ_TOL(b.ci95High, 55.0 + batchHalf, 1e-6, "batch-means interval");

        // A window that starts later keeps only what was sent in it.
        const GsnTrafficSummary later = s->Summarize(MicroSeconds(2), MicroSeconds(5));
        NS_TEST_ASSERT_MSG_EQ(later.latency.count, 3u, "Messages 2, 3, 4");
        NS_TEST_ASSERT_MSG_EQ_TOL(later.latency.mean, 50.0, 1e-9, "(100 + 30 + 20) / 3");
        NS_TEST_ASSERT_MSG_EQ(later.latency.p50, 30.0, "median");
        NS_TEST_ASSERT_MSG_EQ(later.sent, 4u, "with the lost one");

        // An empty window: NaN statistics, written as null.
        const GsnTrafficSummary empty = s->Summarize(MicroSeconds(50), MicroSeconds(60));
        NS_TEST_ASSERT_MSG_EQ(empty.latency.count, 0u, "no samples");
        NS_TEST_ASSERT_MSG_EQ(std::isnan(empty.latency.mean), true, "NaN mean");
        std::ostringstream json;
        GsnTrafficStats::WriteSummaryJson(json, empty);
        std::string error;
        const nlohmann::json j = ParseJson(json.str(), error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "JSON parses:\n" << json.str());
        NS_TEST_ASSERT_MSG_EQ(j.is_object() && j.contains("latency_ns") &&
                                  j["latency_ns"].contains("mean") &&
                                  j["latency_ns"]["mean"].is_null(),
                              true,
                              "null in JSON:\n"
                                  << json.str());

        std::ostringstream csv;
        s->WriteCsv(csv);
        const std::vector<std::string> lines = Lines(csv.str());
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 14u, "header and 13 Messages");
        NS_TEST_ASSERT_MSG_EQ(lines[3], "0,1,2,1000,2000,2100,100", "a delivered Message");
        NS_TEST_ASSERT_MSG_EQ(lines[11], "1,0,0,500,3000,,", "the lost Message");
        NS_TEST_ASSERT_MSG_EQ(lines[12], "2,0,0,200,20000,23000,3000", "reordered Message");

        const std::string path = CreateTempDirFilename("gsn-traffic.csv");
        s->WriteCsv(path);
        std::ifstream file(path);
        std::stringstream back;
        back << file.rdbuf();
        NS_TEST_ASSERT_MSG_EQ(back.str(), csv.str(), "the file holds the same CSV");

        std::ostringstream text;
        GsnTrafficStats::Print(text, w);
        NS_TEST_ASSERT_MSG_NE(text.str().find("11 sent, 10 delivered, 1 undelivered"),
                              std::string::npos,
                              "the text summary names the counts:\n"
                                  << text.str());
    }
};

/// Traffic across a switch: every Message once, utilisation and credit stalls from the ports.
class GsnFabricTrafficTestCase : public TestCase
{
  public:
    GsnFabricTrafficTestCase()
        : TestCase("AllToAll and Incast across a four-endpoint star")
    {
    }

  private:
    /// Run \p attrs on a star of four endpoints for 2 ms. \return the summary
    GsnTrafficSummary Run(const Attrs& attrs, Ptr<GsnTrafficStats>& stats)
    {
        GsnFabricHelper fabricHelper;
        GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(4));
        fabricHelper.AssignStreams(fabric, 10);
        GsnTrafficHelper traffic;
        for (const auto& [name, value] : attrs)
        {
            traffic.SetAttribute(name, StringValue(value));
        }
        traffic.SetStatsAttribute("WindowStart", TimeValue(MicroSeconds(200)));
        traffic.SetStatsAttribute("WindowEnd", TimeValue(MilliSeconds(2)));
        ApplicationContainer apps = traffic.Install(fabric.endpointDevices);
        traffic.AssignStreams(apps, 20);
        apps.Start(Seconds(0));
        apps.Stop(MilliSeconds(2));
        stats = traffic.GetStats();
        stats->AddLinks(fabric.GetAllPorts());
        Simulator::Stop(MilliSeconds(4));
        Simulator::Run();
        const GsnTrafficSummary s = stats->Summarize();
        Simulator::Destroy();
        return s;
    }

    void DoRun() override
    {
        Ptr<GsnTrafficStats> stats;
        const GsnTrafficSummary all =
            Run(Attrs{{"Pattern", "AllToAll"},
                      {"OfferedLoad", "0.3"},
                      {"MessageSize", "ns3::ConstantRandomVariable[Constant=2000]"}},
                stats);
        NS_TEST_ASSERT_MSG_GT(stats->GetSent(), 500u, "a real run");
        NS_TEST_ASSERT_MSG_EQ(stats->GetDelivered(), stats->GetSent(), "all delivered");
        NS_TEST_ASSERT_MSG_EQ(stats->GetDuplicates() + stats->GetMisdelivered() + stats->GetStray(),
                              0u,
                              "each once, where it was sent");
        NS_TEST_ASSERT_MSG_EQ(stats->GetOutOfOrder(), 0u, "in order on one VC");
        for (uint32_t src = 0; src < 4; ++src)
        {
            std::vector<uint32_t> perDestination(4, 0);
            for (const GsnTrafficRecord& r : stats->GetRecords(src))
            {
                ++perDestination[r.destination];
            }
            NS_TEST_ASSERT_MSG_EQ(perDestination[src], 0u, "never to itself");
            const auto [lo, hi] = std::minmax({perDestination[(src + 1) % 4],
                                               perDestination[(src + 2) % 4],
                                               perDestination[(src + 3) % 4]});
            NS_TEST_ASSERT_MSG_LT_OR_EQ(hi - lo, 1u, "round robin from " << src);
        }
        NS_TEST_ASSERT_MSG_EQ(all.links.size(), 8u, "four endpoint and four switch ports");
        NS_TEST_ASSERT_MSG_GT(all.meanUtilisation, 0.2, "the links carried the load");

        // Three senders at 0.6 each into one endpoint: its link is the bottleneck.
        const GsnTrafficSummary incast =
            Run(Attrs{{"Pattern", "Incast"},
                      {"HotSpot", "0"},
                      {"OfferedLoad", "0.6"},
                      {"MessageSize", "ns3::ConstantRandomVariable[Constant=8000]"}},
                stats);
        NS_TEST_ASSERT_MSG_EQ(incast.endpoints[0].sent, 0u, "the hot spot sends nothing");
        NS_TEST_ASSERT_MSG_EQ(incast.endpoints[1].received + incast.endpoints[2].received +
                                  incast.endpoints[3].received,
                              0u,
                              "only the hot spot receives");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(incast.endpoints[0].rxThroughput,
                                    RATE,
                                    "no more than the link rate");
        NS_TEST_ASSERT_MSG_GT(incast.endpoints[0].rxThroughput,
                              0.9 * RATE,
                              "the hot spot's link is saturated");
        NS_TEST_ASSERT_MSG_GT(incast.maxUtilisation, 0.95, "a saturated port");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(incast.maxUtilisation, 1.0001, "at most one per 40 ns");
        NS_TEST_ASSERT_MSG_GT(incast.totalCreditStallTime, Time(0), "senders waited for credit");
        NS_TEST_ASSERT_MSG_EQ(stats->GetDuplicates() + stats->GetMisdelivered() + stats->GetStray(),
                              0u,
                              "each once, where it was sent");
    }
};

/// The run mode's waits in the link summary: none and not printed micropacket by micropacket;
/// in the run mode with short Messages on all VCs some, read up to each instant (a wait counts
/// from its first slot, its time only up to the reading) and, once the fabric is idle, equal
/// to the ports' counters.
class GsnRunWaitsStatsTestCase : public TestCase
{
  public:
    GsnRunWaitsStatsTestCase()
        : TestCase("Run waits in the link summary, read up to the instant")
    {
    }

  private:
    /// What the readings at each microsecond found.
    struct Readings
    {
        bool monotone{true};       ///< no port's count or time went down
        bool withinCounters{true}; ///< never more than the counters
        uint32_t partial{0};       ///< readings with a wait under way counted in part
    };

    /// Read every port's run waits now, compare with its previous reading in \p last, note
    /// what was found in \p r, and read again 1 us later until \p until.
    static void Read(NetDeviceContainer ports,
                     std::vector<std::pair<uint64_t, Time>>* last,
                     Readings* r,
                     Time until)
    {
        for (uint32_t i = 0; i < ports.GetN(); ++i)
        {
            Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(ports.Get(i));
            uint64_t waits = 0;
            Time time;
            port->GetRunWaitsUpToNow(waits, time);
            const GsnLinkCounters& c = port->GetLinkCounters();
            r->monotone = r->monotone && waits >= (*last)[i].first && time >= (*last)[i].second;
            r->withinCounters = r->withinCounters && waits <= c.runWaits && time <= c.runWaitTime;
            r->partial += time < c.runWaitTime ? 1 : 0;
            (*last)[i] = {waits, time};
        }
        if (Simulator::Now() + MicroSeconds(1) <= until)
        {
            Simulator::Schedule(MicroSeconds(1), &Read, ports, last, r, until);
        }
    }

    /// Run 4000-byte Messages on random VCs over a star of four in \p mode, the window from 0
    /// to after the fabric is idle. \return the summary; \p text its printed form
    GsnTrafficSummary Run(const std::string& mode,
                          std::string& text,
                          Readings& r,
                          uint64_t& counted,
                          Time& countedTime)
    {
        GsnFabricHelper fabricHelper;
        fabricHelper.SetLinkMode(mode);
        GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(4));
        fabricHelper.AssignStreams(fabric, 10);
        GsnTrafficHelper traffic;
        traffic.SetAttribute("Vc", StringValue("4"));
        traffic.SetAttribute("OfferedLoad", StringValue("0.5"));
        traffic.SetAttribute("MessageSize",
                             StringValue("ns3::ConstantRandomVariable[Constant=4000]"));
        traffic.SetStatsAttribute("WindowEnd", TimeValue(MilliSeconds(3)));
        ApplicationContainer apps = traffic.Install(fabric.endpointDevices);
        traffic.AssignStreams(apps, 20);
        apps.Start(Seconds(0));
        apps.Stop(MilliSeconds(1));
        Ptr<GsnTrafficStats> stats = traffic.GetStats();
        NetDeviceContainer ports = fabric.GetAllPorts();
        stats->AddLinks(ports);
        std::vector<std::pair<uint64_t, Time>> last(ports.GetN(), {0, Time(0)});
        Simulator::Schedule(MicroSeconds(1), &Read, ports, &last, &r, MilliSeconds(1));
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        const GsnTrafficSummary s = stats->Summarize();
        std::ostringstream os;
        GsnTrafficStats::Print(os, s, true);
        text = os.str();
        // The link readings survive a share (WriteShare() to MergeShares(), as across ranks).
        Ptr<GsnTrafficStats> merged = CreateObject<GsnTrafficStats>();
        merged->SetEndpointCount(4);
        merged->AddLinks(ports);
        merged->MergeShares({stats->WriteShare(0)});
        const GsnTrafficSummary m = merged->Summarize();
        for (size_t i = 0; i < s.links.size(); ++i)
        {
            const GsnLinkSummary& a = s.links[i];
            const GsnLinkSummary& b = m.links.at(i);
            const bool same = a.runMode == b.runMode && a.runWaits == b.runWaits &&
                              a.runWaitTime == b.runWaitTime &&
                              a.txMicropackets == b.txMicropackets &&
                              a.creditStallTime == b.creditStallTime;
            NS_TEST_EXPECT_MSG_EQ(same, true, "port " << i << " read the same through a share");
        }
        counted = 0;
        countedTime = Time(0);
        for (uint32_t i = 0; i < ports.GetN(); ++i)
        {
            const GsnLinkCounters& c = DynamicCast<GsnPortDevice>(ports.Get(i))->GetLinkCounters();
            counted += c.runWaits;
            countedTime += c.runWaitTime;
        }
        Simulator::Destroy();
        return s;
    }

    void DoRun() override
    {
        std::string text;
        Readings r;
        uint64_t counted = 0;
        Time countedTime;
        const GsnTrafficSummary ref = Run("Micropacket", text, r, counted, countedTime);
        NS_TEST_ASSERT_MSG_EQ(ref.runModeLinks, 0u, "no port in the run mode");
        NS_TEST_ASSERT_MSG_EQ(ref.totalRunWaits + counted, 0u, "no run, no wait");
        NS_TEST_ASSERT_MSG_EQ(text.find("run wait"), std::string::npos, "not printed:\n" << text);

        const GsnTrafficSummary run = Run("Run", text, r, counted, countedTime);
        NS_TEST_ASSERT_MSG_EQ(run.runModeLinks, 8u, "every port in the run mode");
        NS_TEST_ASSERT_MSG_GT(run.totalRunWaits, 0u, "short Messages on several VCs waited");
        NS_TEST_ASSERT_MSG_EQ(run.totalRunWaits, counted, "the counters, once all is over");
        NS_TEST_ASSERT_MSG_EQ(run.totalRunWaitTime, countedTime, "and their time");
        NS_TEST_ASSERT_MSG_NE(text.find(", run waits " + std::to_string(counted) + " ("),
                              std::string::npos,
                              "printed on the Links line:\n"
                                  << text);
        NS_TEST_ASSERT_MSG_NE(text.find(" run waits, "), std::string::npos, "and per port");
        NS_TEST_ASSERT_MSG_EQ(r.monotone, true, "readings never go down");
        NS_TEST_ASSERT_MSG_EQ(r.withinCounters, true, "readings never exceed the counters");
        NS_TEST_ASSERT_MSG_GT(r.partial, 0u, "waits under way count up to the reading only");
    }
};

/// Endpoints that another MPI rank simulates (named by GsnRemotePorts, as GsnFabric holds
/// them on a split fabric) are destinations only: no generator is made for them, and the
/// others draw the same Messages as when every endpoint has its generator (streams by
/// endpoint index, not by position among the generators made).
class GsnOtherRankEndpointsTestCase : public TestCase
{
  public:
    GsnOtherRankEndpointsTestCase()
        : TestCase("Traffic on a fabric whose endpoint 1 is another rank's")
    {
    }

  private:
    /// What endpoint \p src sent: (send time, destination, bytes) of each Message.
    using Sent = std::vector<std::tuple<int64_t, uint32_t, uint32_t>>;

    /// Uniform traffic on a four-endpoint star for 1 ms; endpoint 1 named by a
    /// GsnRemotePort if \p remote. \return what each endpoint sent
    std::vector<Sent> Run(bool remote)
    {
        GsnFabricHelper fabricHelper;
        GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(4));
        fabricHelper.AssignStreams(fabric, 10);
        NetDeviceContainer endpoints;
        for (uint32_t i = 0; i < 4; ++i)
        {
            if (remote && i == 1)
            {
                Ptr<GsnRemotePort> port = CreateObject<GsnRemotePort>();
                port->Name(fabric.endpoints.Get(1), 0, fabric.endpointAddresses[1], true);
                endpoints.Add(port);
                continue;
            }
            endpoints.Add(fabric.endpointDevices.Get(i));
        }
        GsnTrafficHelper traffic;
        traffic.SetAttribute("OfferedLoad", DoubleValue(0.3));
        traffic.SetAttribute("MessageSize",
                             StringValue("ns3::UniformRandomVariable[Min=1000|Max=9000]"));
        ApplicationContainer apps = traffic.Install(endpoints);
        NS_TEST_EXPECT_MSG_EQ(apps.GetN(), remote ? 3u : 4u, "generators of local endpoints");
        NS_TEST_EXPECT_MSG_EQ(traffic.AssignStreams(apps, 20),
                              int64_t(1 + 4 * GsnTrafficGenerator::STREAMS),
                              "streams for all four endpoints");
        apps.Start(Seconds(0));
        apps.Stop(MilliSeconds(1));
        Ptr<GsnTrafficStats> stats = traffic.GetStats();
        NetDeviceContainer links(endpoints);
        links.Add(fabric.switchPorts);
        stats->AddLinks(links);
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        const GsnTrafficSummary summary = stats->Summarize();
        NS_TEST_EXPECT_MSG_EQ(summary.links.size(), 8u, "another rank's port keeps its place");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(summary.links[1].utilisation),
                              remote,
                              "no reading of another rank's port");
        std::vector<Sent> sent(4);
        for (uint32_t src = 0; src < 4; ++src)
        {
            for (const GsnTrafficRecord& r : stats->GetRecords(src))
            {
                sent[src].emplace_back(r.sendNs, r.destination, r.bytes);
            }
        }
        Simulator::Destroy();
        return sent;
    }

    void DoRun() override
    {
        const std::vector<Sent> all = Run(false);
        const std::vector<Sent> split = Run(true);
        NS_TEST_ASSERT_MSG_EQ(split[1].size(), 0u, "endpoint 1 sends on its own rank");
        for (uint32_t src : {0u, 2u, 3u})
        {
            NS_TEST_ASSERT_MSG_GT(all[src].size(), 20u, "a real run");
            NS_TEST_EXPECT_MSG_EQ((split[src] == all[src]),
                                  true,
                                  "endpoint " << src << " sends the same Messages");
        }
    }
};

/// The generator refuses sizes it cannot honour instead of raising them (more load than
/// asked) or deriving a 0 ns time between Messages.
class GsnGeneratorValidateTestCase : public TestCase
{
  public:
    GsnGeneratorValidateTestCase()
        : TestCase("The generator refuses Message sizes below its 28-byte header and means it "
                   "cannot derive")
    {
    }

  private:
    /// \return Validate() of a generator with \p attrs
    static std::string Check(const Attrs& attrs)
    {
        Ptr<GsnTrafficGenerator> g = CreateObject<GsnTrafficGenerator>();
        for (const auto& [name, value] : attrs)
        {
            g->SetAttribute(name, StringValue(value));
        }
        return g->Validate();
    }

    void DoRun() override
    {
        const std::string constant = "ns3::ConstantRandomVariable[Constant=";
        for (const char* bad : {"0", "1", "27", "-5"})
        {
            NS_TEST_EXPECT_MSG_NE(Check(Attrs{{"MessageSize", constant + bad + "]"}}),
                                  "",
                                  "a constant size of " << bad << " bytes is refused");
        }
        NS_TEST_EXPECT_MSG_EQ(Check(Attrs{{"MessageSize", constant + "28]"}}),
                              "",
                              "28 bytes, the header alone, is accepted");
        NS_TEST_EXPECT_MSG_EQ(Check(Attrs{}), "", "the default is accepted");
        NS_TEST_EXPECT_MSG_NE(
            Check(Attrs{{"MessageSize", "ns3::UniformRandomVariable[Min=10|Max=1000]"}}),
            "",
            "a uniform size that can be below 28 bytes is refused");
        NS_TEST_EXPECT_MSG_EQ(
            Check(Attrs{{"MessageSize", "ns3::UniformRandomVariable[Min=28|Max=1000]"}}),
            "",
            "a uniform size from 28 bytes is accepted");
        NS_TEST_EXPECT_MSG_EQ(
            Check(
                Attrs{{"MessageSize", "ns3::ExponentialRandomVariable[Mean=16384|Bound=131000]"}}),
            "",
            "an exponential size with a mean above 28 bytes is accepted");
        NS_TEST_EXPECT_MSG_NE(
            Check(Attrs{{"MessageSize", "ns3::ExponentialRandomVariable[Mean=10|Bound=0]"}}),
            "",
            "a mean size below 28 bytes is refused");
        NS_TEST_EXPECT_MSG_NE(
            Check(Attrs{{"MessageSize", "ns3::ExponentialRandomVariable[Mean=1000|Bound=0]"},
                        {"MeanMessageSize", "20"}}),
            "",
            "a MeanMessageSize below 28 bytes is refused");
        NS_TEST_EXPECT_MSG_NE(Check(Attrs{{"MessageSize", "ns3::ParetoRandomVariable"}}),
                              "",
                              "a mean that cannot be derived is refused, not aborted on");
        NS_TEST_EXPECT_MSG_EQ(
            Check(Attrs{{"MessageSize", "ns3::ParetoRandomVariable"}, {"MeanMessageSize", "500"}}),
            "",
            "with MeanMessageSize it is accepted");

        // The smallest accepted size at full load still leaves time between Messages.
        Ptr<GsnTrafficGenerator> g = CreateObject<GsnTrafficGenerator>();
        g->SetAttribute("MessageSize", StringValue(constant + "28]"));
        g->SetAttribute("OfferedLoad", DoubleValue(1.0));
        NS_TEST_EXPECT_MSG_EQ(g->GetMeanInterval(),
                              NanoSeconds(35),
                              "28 bytes at 6.4 Gbit/s: one Message every 35 ns");
    }
};

/// Lost Messages (dropped on the way) are counted apart from those still in flight, and a
/// run can be drained until nothing is in flight.
class GsnLostInFlightTestCase : public TestCase
{
  public:
    GsnLostInFlightTestCase()
        : TestCase("Lost and in-flight Messages are told apart; StopWhenDrained stops when "
                   "the fabric is empty or at its limit")
    {
    }

  private:
    /// What one star run gave.
    struct Result
    {
        uint64_t sent{0};        ///< Messages sent
        uint64_t delivered{0};   ///< Messages delivered
        uint64_t toCut{0};       ///< Messages sent to the endpoint without a route
        uint64_t lost{0};        ///< GetLost()
        uint64_t inFlight{0};    ///< GetInFlight()
        bool drained{false};     ///< IsDrained()
        Time drainStop;          ///< GetDrainStop()
        Time end;                ///< when the simulation ended
        GsnTrafficSummary whole; ///< summary over the whole run
    };

    /**
     * Four endpoints on a switch, 300 us of traffic at 0.5 load.
     * \param cutRoute the switch forgets the route to endpoint 3 (its Messages are dropped)
     * \param watchDrops connect the drop sources
     * \param drain stop with StopWhenDrained (limit 2 ms), else when the traffic stops
     * \return what it gave
     */
    static Result Run(bool cutRoute, bool watchDrops, bool drain)
    {
        const Time stop = MicroSeconds(300);
        GsnFabricHelper fabricHelper;
        GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(4));
        fabricHelper.AssignStreams(fabric, 10);
        if (cutRoute)
        {
            Ptr<GsnSwitch> sw = fabric.switchObjects[0];
            sw->ClearRoutes();
            for (uint32_t e = 0; e < 3; ++e)
            {
                const int32_t port =
                    fabric.tables.Get(fabric.switchElements[0], fabric.endpointElements[e]);
                sw->SetRoute(Mac48Address::ConvertFrom(fabric.endpointDevices.Get(e)->GetAddress()),
                             uint32_t(port));
            }
        }
        GsnTrafficHelper traffic;
        traffic.SetAttribute("OfferedLoad", DoubleValue(0.5));
        traffic.SetAttribute("MessageSize",
                             StringValue("ns3::ConstantRandomVariable[Constant=4000]"));
        ApplicationContainer apps = traffic.Install(fabric.endpointDevices);
        traffic.AssignStreams(apps, 20);
        apps.Start(MicroSeconds(5));
        apps.Stop(stop);
        Ptr<GsnTrafficStats> stats = traffic.GetStats();
        if (watchDrops)
        {
            stats->AddDropSources(fabric.endpointDevices, fabric.switches);
        }
        if (drain)
        {
            stats->StopWhenDrained(stop, MilliSeconds(2));
        }
        Simulator::Stop(drain ? MilliSeconds(50) : stop); // the backstop of a drain
        Simulator::Run();
        Result r;
        r.end = Simulator::Now();
        r.sent = stats->GetSent();
        r.delivered = stats->GetDelivered();
        for (uint32_t src = 0; src < 4; ++src)
        {
            for (const GsnTrafficRecord& record : stats->GetRecords(src))
            {
                r.toCut += record.destination == 3 ? 1 : 0;
            }
        }
        r.lost = stats->GetLost();
        r.inFlight = stats->GetInFlight();
        r.drained = stats->IsDrained();
        r.drainStop = stats->GetDrainStop();
        r.whole = stats->Summarize(Seconds(0), Simulator::Now() + NanoSeconds(1));
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        // Hand-built: one delivered, one dropped, two in flight; extra drops are capped.
        Ptr<GsnTrafficStats> stats = CreateObject<GsnTrafficStats>();
        stats->SetEndpointCount(2);
        for (uint64_t seq = 0; seq < 4; ++seq)
        {
            stats->RecordSent(0, seq, 1, 100, NanoSeconds(seq));
        }
        GsnTrafficHeader h;
        h.SetSource(0);
        h.SetDestination(1);
        h.SetSequence(0);
        h.SetSendTime(NanoSeconds(0));
        h.SetMessageSize(100);
        stats->RecordArrival(1, h, MicroSeconds(1));
        stats->RecordLost();
        NS_TEST_EXPECT_MSG_EQ(stats->GetLost(), 1u, "one lost");
        NS_TEST_EXPECT_MSG_EQ(stats->GetInFlight(), 2u, "two in flight");
        const GsnTrafficSummary s = stats->Summarize(Seconds(0), Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(s.lost, 1u, "summary: one lost");
        NS_TEST_EXPECT_MSG_EQ(s.inFlight, 2u, "summary: two in flight");
        NS_TEST_EXPECT_MSG_EQ(s.undelivered, 3u, "both undelivered");
        std::ostringstream json;
        GsnTrafficStats::WriteSummaryJson(json, s);
        NS_TEST_EXPECT_MSG_NE(json.str().find("\"lost\": 1, \"in_flight\": 2"),
                              std::string::npos,
                              "JSON has both: " << json.str());
        std::ostringstream text;
        GsnTrafficStats::Print(text, s, false);
        NS_TEST_EXPECT_MSG_NE(text.str().find("1 Messages lost"), std::string::npos, "printed");
        for (int i = 0; i < 5; ++i)
        {
            stats->RecordLost();
        }
        NS_TEST_EXPECT_MSG_EQ(stats->GetLost(), 3u, "capped at the undelivered");
        NS_TEST_EXPECT_MSG_EQ(stats->GetInFlight(), 0u, "nothing left in flight");

        // Stopped with the traffic: what did not arrive is in flight, nothing is lost.
        const Result cut = Run(false, true, false);
        NS_TEST_ASSERT_MSG_GT(cut.sent, 100u, "a real run");
        NS_TEST_EXPECT_MSG_EQ(cut.lost, 0u, "nothing dropped");
        NS_TEST_EXPECT_MSG_GT(cut.inFlight, 0u, "Messages still on the way at the stop");
        NS_TEST_EXPECT_MSG_EQ(cut.inFlight, cut.sent - cut.delivered, "all of them in flight");
        NS_TEST_EXPECT_MSG_EQ(cut.whole.undelivered, cut.inFlight, "summary agrees");

        // Drained: everything arrives and the run ends soon after the traffic.
        const Result full = Run(false, true, true);
        NS_TEST_EXPECT_MSG_EQ(full.drained, true, "drained");
        NS_TEST_EXPECT_MSG_EQ(full.delivered, full.sent, "all delivered");
        NS_TEST_EXPECT_MSG_EQ(full.lost + full.inFlight, 0u, "none lost or in flight");
        NS_TEST_EXPECT_MSG_LT(full.end, MicroSeconds(400), "stopped when empty: " << full.end);
        NS_TEST_EXPECT_MSG_EQ(full.end, full.drainStop, "by StopWhenDrained");

        // Endpoint 3 unreachable: its Messages are lost, the rest delivered, none in flight.
        const Result lost = Run(true, true, true);
        NS_TEST_ASSERT_MSG_GT(lost.toCut, 10u, "Messages to the cut endpoint");
        NS_TEST_EXPECT_MSG_EQ(lost.lost, lost.toCut, "each of them lost");
        NS_TEST_EXPECT_MSG_EQ(lost.delivered, lost.sent - lost.toCut, "the rest delivered");
        NS_TEST_EXPECT_MSG_EQ(lost.inFlight, 0u, "none in flight");
        NS_TEST_EXPECT_MSG_EQ(lost.drained, true, "drained");
        NS_TEST_EXPECT_MSG_EQ(lost.whole.lost, lost.toCut, "summary agrees");

        // Drops not watched: they look in flight, and the drain gives up at its limit.
        const Result blind = Run(true, false, true);
        NS_TEST_EXPECT_MSG_EQ(blind.lost, 0u, "no drop seen");
        NS_TEST_EXPECT_MSG_EQ(blind.inFlight, blind.toCut, "the dropped ones seem in flight");
        NS_TEST_EXPECT_MSG_EQ(blind.drained, false, "not drained");
        NS_TEST_EXPECT_MSG_EQ(blind.end, MicroSeconds(300) + MilliSeconds(2), "at the limit");
    }
};

/**
 * A run split over ranks: two shares (GsnTrafficStats::WriteShare) merged on "rank 0"
 * (MergeShares) give the one-process statistics, the arrivals seen on the other share
 * included. Four endpoints: 0 and 1 on rank 0, 2 and 3 on rank 1.
 */
class GsnStatsShareTestCase : public TestCase
{
  public:
    GsnStatsShareTestCase()
        : TestCase("Shares of a run split over ranks merge into the one-process statistics")
    {
    }

  private:
    /// One Message: source, sequence, destination, bytes, send and arrival times (ns; -1:
    /// never arrives).
    struct Message
    {
        uint32_t src;     ///< source
        uint64_t seq;     ///< sequence
        uint32_t dst;     ///< destination
        uint32_t bytes;   ///< size
        int64_t sendNs;   ///< send time
        int64_t arriveNs; ///< arrival time, or -1
    };

    /// \param s statistics \param m a Message \param sent record its sending
    /// \param arrived record its arrival
    static void Feed(Ptr<GsnTrafficStats> s, const Message& m, bool sent, bool arrived)
    {
        if (sent)
        {
            s->RecordSent(m.src, m.seq, m.dst, m.bytes, NanoSeconds(m.sendNs));
        }
        if (arrived && m.arriveNs >= 0)
        {
            s->RecordArrival(m.dst,
                             MakeHeader(m.src, m.dst, m.seq, m.sendNs, m.bytes),
                             NanoSeconds(m.arriveNs));
        }
    }

    /// \param s statistics \return its CSV and its printed summary
    static std::string Text(Ptr<GsnTrafficStats> s)
    {
        std::ostringstream os;
        s->WriteCsv(os);
        s->Print(os, true);
        return os.str();
    }

    void DoRun() override
    {
        const std::vector<Message> messages = {
            {0, 0, 2, 1000, 100, 900},  // rank 0 to rank 1
            {0, 1, 1, 2000, 200, 700},  // within rank 0
            {1, 0, 3, 500, 300, -1},    // lost on the way
            {2, 0, 0, 800, 150, 1150},  // rank 1 to rank 0
            {2, 1, 0, 800, 250, 1100},  // overtakes the previous one (out of order)
            {3, 0, 2, 300, 400, 650},   // within rank 1
            {3, 1, 1, 4000, 500, 5000}, // rank 1 to rank 0
        };
        const auto rankOf = [](uint32_t endpoint) { return endpoint < 2 ? 0 : 1; };
        Ptr<GsnTrafficStats> whole = CreateObject<GsnTrafficStats>();
        whole->SetEndpointCount(4);
        whole->SetAttribute("WindowEnd", TimeValue(MicroSeconds(10)));
        std::vector<Ptr<GsnTrafficStats>> share(2);
        for (auto& s : share)
        {
            s = CreateObject<GsnTrafficStats>();
            s->SetEndpointCount(4);
            s->SetAttribute("WindowEnd", TimeValue(MicroSeconds(10)));
            s->SetPartial(true);
        }
        // Sends first, then arrivals in time order, as a run would record them.
        for (const Message& m : messages)
        {
            Feed(whole, m, true, false);
            Feed(share[rankOf(m.src)], m, true, false);
        }
        std::vector<Message> byArrival = messages;
        std::stable_sort(byArrival.begin(), byArrival.end(), [](const auto& a, const auto& b) {
            return a.arriveNs < b.arriveNs;
        });
        for (const Message& m : byArrival)
        {
            Feed(whole, m, false, true);
            Feed(share[rankOf(m.dst)], m, false, true);
        }
        share[1]->RecordRefused(3);
        whole->RecordRefused(3);
        NS_TEST_ASSERT_MSG_NE(Text(share[0]), Text(whole), "a share alone is not the whole run");
        share[0]->MergeShares({share[1]->WriteShare(1)});
        NS_TEST_EXPECT_MSG_EQ(Text(share[0]), Text(whole), "merged shares: the whole run");
        NS_TEST_EXPECT_MSG_EQ(share[0]->GetDelivered(), 6u, "six Messages delivered");
    }
};

/// The gsn-traffic test suite.
class GsnTrafficTestSuite : public TestSuite
{
  public:
    GsnTrafficTestSuite()
        : TestSuite("gsn-traffic", SYSTEM)
    {
        AddTestCase(new GsnTrafficHeaderTestCase, TestCase::QUICK);
        AddTestCase(new GsnUniformPatternTestCase, TestCase::QUICK);
        AddTestCase(new GsnPermutationPatternTestCase, TestCase::QUICK);
        AddTestCase(new GsnAllToAllPatternTestCase, TestCase::QUICK);
        AddTestCase(new GsnHotSpotPatternTestCase, TestCase::QUICK);
        AddTestCase(new GsnTrafficHelperTestCase, TestCase::QUICK);
        AddTestCase(new GsnStatsExactTestCase, TestCase::QUICK);
        AddTestCase(new GsnOfferedLoadTestCase, TestCase::QUICK);
        AddTestCase(new GsnLatencyDistributionTestCase, TestCase::QUICK);
        AddTestCase(new GsnRefusalTestCase, TestCase::QUICK);
        AddTestCase(new GsnOtherRankEndpointsTestCase, TestCase::QUICK);
        AddTestCase(new GsnOutputFormatTestCase, TestCase::QUICK);
        AddTestCase(new GsnDeterminismTestCase, TestCase::QUICK);
        AddTestCase(new GsnFabricTrafficTestCase, TestCase::QUICK);
        AddTestCase(new GsnRunWaitsStatsTestCase, TestCase::QUICK);
        AddTestCase(new GsnGeneratorValidateTestCase, TestCase::QUICK);
        AddTestCase(new GsnLostInFlightTestCase, TestCase::QUICK);
        AddTestCase(new GsnStatsShareTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnTrafficTestSuite g_gsnTrafficTestSuite;
