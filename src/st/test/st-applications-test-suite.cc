/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-applications-test-suite.cc: the ST applications installed with their helpers: bulk
 * write (StBulkClient source, StServer sink) on GSN and on Ethernet, bulk read, the
 * PUT/GET/FETCHOP latency probe and the ping-pong; counts, bytes, patterns and traces.
 */
#include "st-test-harness.h"

using namespace ns3;
using namespace ns3::sttest;

namespace
{

/// Bulk writes, then bulk reads.
class StBulkTest : public TestCase
{
  public:
    /// \param link GSN or CSMA \param read reads instead of writes
    StBulkTest(StPair::Link link, bool read)
        : TestCase(std::string(read ? "bulk read" : "bulk write") +
                   (link == StPair::GSN ? " over GSN" : " over CSMA") +
                   ": every transfer completes with the test pattern"),
          m_link(link),
          m_read(read)
    {
    }

  private:
    void DoRun() override
    {
        StPair s(m_link);
        StServerHelper server(5000);
        server.SetAttribute("BufferSize", UintegerValue(262144));
        ApplicationContainer sa = server.Install(s.nodes.Get(1));
        StBulkClientHelper client(s.ip[1], 5000);
        client.SetAttribute("Mode", EnumValue(m_read ? StBulkClient::READ : StBulkClient::WRITE));
        client.SetAttribute("TransferSize", UintegerValue(m_link == StPair::GSN ? 262144 : 65536));
        client.SetAttribute("Transfers", UintegerValue(3));
        client.SetAttribute("Outstanding", UintegerValue(2));
        ApplicationContainer ca = client.Install(s.nodes.Get(0));
        sa.Start(Seconds(0));
        ca.Start(MicroSeconds(10));
        int traced = 0;
        ca.Get(0)->TraceConnectWithoutContext(
            "TransferComplete",
            Callback<void, uint64_t, Time>(
                [&traced](uint64_t, Time d) { traced += d.IsStrictlyPositive() ? 1 : 0; }));
        s.Run(MilliSeconds(50));
        Ptr<StBulkClient> c = DynamicCast<StBulkClient>(ca.Get(0));
        Ptr<StServer> srv = DynamicCast<StServer>(sa.Get(0));
        const uint64_t size = m_link == StPair::GSN ? 262144 : 65536;
        NS_TEST_EXPECT_MSG_EQ(c->GetCompleted(), 3, "three transfers");
        NS_TEST_EXPECT_MSG_EQ(c->GetBytes(), 3 * size, "bytes");
        NS_TEST_EXPECT_MSG_EQ(c->GetFailed(), 0, "none failed");
        NS_TEST_EXPECT_MSG_EQ(traced, 3, "TransferComplete fired per transfer");
        NS_TEST_EXPECT_MSG_EQ(srv->GetConnections(), 1, "one connection");
        NS_TEST_EXPECT_MSG_EQ(srv->GetTransfers(), 3, "three at the server");
        NS_TEST_EXPECT_MSG_EQ(srv->GetReceivedBytes(), (m_read ? 0 : 3 * size), "received");
        NS_TEST_EXPECT_MSG_EQ(srv->GetCorrupt() + c->GetCorrupt(), 0, "pattern intact");
        NS_TEST_EXPECT_MSG_GT(c->GetThroughput(), 0, "throughput measured");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count(m_read ? "RTR" : "RTS", 0), 3, "requests on the wire");
    }

    StPair::Link m_link; ///< link
    bool m_read;         ///< reads
};

/// The latency probe.
class StMemoryProbeTest : public TestCase
{
  public:
    StMemoryProbeTest()
        : TestCase("memory probe: PUT, GET, FETCHOP rounds; latencies; one-way PUT at the server")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        ApplicationContainer sa = StServerHelper(5000).Install(s.nodes.Get(1));
        StMemoryProbeHelper probe(s.ip[1], 5000);
        probe.SetAttribute("Iterations", UintegerValue(5));
        probe.SetAttribute("Size", UintegerValue(256));
        ApplicationContainer pa = probe.Install(s.nodes.Get(0));
        std::vector<Time> puts;
        sa.Get(0)->TraceConnectWithoutContext(
            "PutReceived",
            Callback<void, uint64_t, Time>([&puts](uint64_t, Time t) { puts.push_back(t); }));
        pa.Start(MicroSeconds(10));
        s.Run(MilliSeconds(5));
        Ptr<StMemoryProbe> p = DynamicCast<StMemoryProbe>(pa.Get(0));
        NS_TEST_EXPECT_MSG_EQ(p->GetRounds(), 5u, "five rounds");
        NS_TEST_EXPECT_MSG_EQ(p->GetPuts(), 5u, "five PUTs");
        NS_TEST_EXPECT_MSG_EQ(p->GetGetStats().count, 5u, "five GETs");
        NS_TEST_EXPECT_MSG_EQ(p->GetFetchOpStats().count, 5u, "five FETCHOPs");
        NS_TEST_EXPECT_MSG_EQ(p->GetLastFetchValue(), 4u, "the word counted 0..4");
        NS_TEST_ASSERT_MSG_EQ(puts.size(), 5u, "the server saw five time-stamped PUTs");
        NS_TEST_EXPECT_MSG_GT(puts[0], Time(0), "one-way PUT latency positive");
        NS_TEST_EXPECT_MSG_LT(puts[0], p->GetGetStats().min, "one way is below a GET round trip");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("FC", 0), 5, "an FC per FETCHOP");
    }
};

/// Ping-pong against an echoing server.
class StPingPongTest : public TestCase
{
  public:
    StPingPongTest()
        : TestCase("ping-pong: round trips of echoed writes")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        StServerHelper server(5000);
        server.SetAttribute("Echo", BooleanValue(true));
        server.SetAttribute("BufferSize", UintegerValue(65536));
        server.Install(s.nodes.Get(1));
        StPingPongHelper ping(s.ip[1], 5000);
        ping.SetAttribute("Iterations", UintegerValue(4));
        ping.SetAttribute("Size", UintegerValue(4096));
        ApplicationContainer pa = ping.Install(s.nodes.Get(0));
        int rtts = 0;
        pa.Get(0)->TraceConnectWithoutContext("Rtt",
                                              Callback<void, Time>([&rtts](Time) { ++rtts; }));
        pa.Start(MicroSeconds(10));
        s.Run(MilliSeconds(5));
        Ptr<StPingPong> p = DynamicCast<StPingPong>(pa.Get(0));
        NS_TEST_EXPECT_MSG_EQ(p->GetRounds(), 4u, "four round trips");
        NS_TEST_EXPECT_MSG_EQ(rtts, 4, "Rtt fired");
        NS_TEST_EXPECT_MSG_EQ(p->GetCorrupt(), 0, "echo intact");
        // Each way moves 4 KiB + 64 bytes of Message overhead: 130 micropackets of 40 ns.
        NS_TEST_EXPECT_MSG_GT(p->GetMinRtt(), NanoSeconds(2 * 130 * 40), "at least two transfers");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("RTS", 1), 4, "the server wrote back four times");
    }
};

} // namespace

/// The ST applications and their helpers.
class StApplicationsTestSuite : public TestSuite
{
  public:
    StApplicationsTestSuite()
        : TestSuite("st-applications", SYSTEM)
    {
        AddTestCase(new StBulkTest(StPair::GSN, false), TestCase::QUICK);
        AddTestCase(new StBulkTest(StPair::GSN, true), TestCase::QUICK);
        AddTestCase(new StBulkTest(StPair::CSMA, false), TestCase::QUICK);
        AddTestCase(new StMemoryProbeTest, TestCase::QUICK);
        AddTestCase(new StPingPongTest, TestCase::QUICK);
    }
};

static StApplicationsTestSuite g_stApplicationsTestSuite; //!< registers the suite
