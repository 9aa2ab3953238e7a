/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IPv4 over GSN with HARP: ping, UDP and TCP across one switch, across two switches and
 * between LIS through the router J/H of the seed's figures 1-31 and 1-32, with FlowMonitor
 * accounting for every packet; no Ethernet ARP on any GSN wire; TCP bulk throughput over one
 * GSN hop against the link's payload rate.
 */
#include "harp-lis-plan.h"

#include "ns3/gsn-channel.h"
#include "ns3/harp-lis-channel.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::harptest;

namespace
{

/// UDP echo of \p count packets from \p from to \p to, starting at \p start.
void
UdpEcho(Network& net, const std::string& from, const std::string& to, Time start, uint32_t count)
{
    UdpEchoServerHelper server(9);
    ApplicationContainer s = server.Install(net.NodeOf(to));
    s.Start(Seconds(0));
    UdpEchoClientHelper client(net.Address(to), 9);
    client.SetAttribute("MaxPackets", UintegerValue(count));
    client.SetAttribute("Interval", TimeValue(MilliSeconds(20)));
    client.SetAttribute("PacketSize", UintegerValue(1024));
    ApplicationContainer c = client.Install(net.NodeOf(from));
    c.Start(start);
}

/// TCP bulk transfer of \p bytes from \p from to \p to; \return the sink
Ptr<PacketSink>
TcpBulk(Network& net, const std::string& from, const std::string& to, Time start, uint32_t bytes)
{
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 5000));
    ApplicationContainer s = sink.Install(net.NodeOf(to));
    s.Start(Seconds(0));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(net.Address(to), 5000));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    ApplicationContainer c = bulk.Install(net.NodeOf(from));
    c.Start(start);
    return DynamicCast<PacketSink>(s.Get(0));
}

/// Counts unicast Messages on a device whose source ULA is a given one.
struct SourceCounter
{
    Mac48Address source; ///< the ULA to count
    uint64_t count{0};   ///< unicast Messages from it
    uint64_t total{0};   ///< all Messages seen

    void Sniff(Ptr<const Packet> message)
    {
        uint8_t head[16];
        if (message->GetSize() < sizeof(head))
        {
            return;
        }
        message->CopyData(head, sizeof(head));
        Mac48Address to;
        to.CopyFrom(head + 4); // M_len(4) D_ULA(6) S_ULA(6)
        Mac48Address from;
        from.CopyFrom(head + 10);
        ++total;
        count += from == source && !to.IsBroadcast() ? 1 : 0;
    }
};

/// Records the TTLs of ICMP datagrams delivered locally.
struct TtlRecorder
{
    uint32_t icmp{0};    ///< ICMP datagrams delivered
    uint8_t minTtl{255}; ///< lowest TTL seen
    uint8_t maxTtl{0};   ///< highest TTL seen

    void Deliver(const Ipv4Header& header, Ptr<const Packet>, uint32_t)
    {
        if (header.GetProtocol() == 1)
        {
            ++icmp;
            minTtl = std::min(minTtl, header.GetTtl());
            maxTtl = std::max(maxTtl, header.GetTtl());
        }
    }
};

} // namespace

/**
 * Ping, UDP and TCP between two hosts of one LIS on one switch, on a broadcast fabric
 * (ARP-like HARP) or a non-broadcast one (through a server).
 */
class HarpIpOneSwitchTestCase : public TestCase
{
  public:
    /// \param broadcast whether the switch broadcasts
    explicit HarpIpOneSwitchTestCase(bool broadcast)
        : TestCase(std::string("ping UDP TCP across one switch, ") +
                   (broadcast ? "broadcast" : "non-broadcast") + " fabric"),
          m_broadcast(broadcast)
    {
    }

  private:
    void DoRun() override
    {
        Network net(GsnTopologyBuilder::Star(3), m_broadcast);
        net.Assign("ep0", "192.0.2.1");
        net.Assign("ep1", "192.0.2.2");
        net.Assign("ep2", "192.0.2.3");
        HarpHelper harp;
        harp.AddServer(net.Device("ep2"));
        net.InstallHarp(harp);
        Flows flows(net.nodes);

        net.Ping("ep0", "ep1", Seconds(5), Seconds(5));
        UdpEcho(net, "ep1", "ep0", Seconds(5), 50);
        Ptr<PacketSink> sink = TcpBulk(net, "ep0", "ep1", Seconds(5), 500000);
        Simulator::Stop(Seconds(12));
        Simulator::Run();

        for (const char* host : {"ep0", "ep1", "ep2"})
        {
            const harp::Client& client = net.Harp(host)->GetClient();
            NS_TEST_EXPECT_MSG_EQ((client.GetPhase() == harp::Phase::Operational),
                                  true,
                                  host << " is not operational");
            NS_TEST_EXPECT_MSG_EQ(client.IsBroadcastFabric().value_or(!m_broadcast),
                                  m_broadcast,
                                  host << " detected the wrong fabric");
        }
        NS_TEST_EXPECT_MSG_EQ(net.rtts, 5, "every echo request was answered");
        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), 500000, "TCP delivered every byte");
        NS_TEST_EXPECT_MSG_GT(flows.Count(), 3, "ping, UDP and TCP flows seen");
        NS_TEST_EXPECT_MSG_EQ(flows.Lost(), 0, "FlowMonitor counts no loss");
        NS_TEST_EXPECT_MSG_GT(net.arpFramesOnWire, 0, "HARP frames crossed the fabric");
        NS_TEST_EXPECT_MSG_EQ(net.nonHarpArpOnWire, 0, "no Ethernet ARP on the GSN wire");
        const HarpAdapterCounters& c = net.Harp("ep0")->GetCounters();
        NS_TEST_EXPECT_MSG_GT(c.arpRequestsIntercepted, 0, "ns-3's ARP asked HARP");
        NS_TEST_EXPECT_MSG_GT(c.arpCacheFills, 0, "HARP answered ns-3's ARP");
        if (m_broadcast)
        {
            // ns-3's ARP on ep1 never sees ep0's HARP request for ep1 (HARP takes every 0x0806
            // frame of the device), so it never answers one.
            NS_TEST_EXPECT_MSG_EQ(net.Harp("ep1")->GetCounters().arpRepliesSuppressed,
                                  0,
                                  "ns-3's ARP answered a HARP frame it should not see");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(net.Harp("ep2")->GetServer()->GetTable().GetSize(),
                                  3,
                                  "the server registered every host and itself");
        }
    }

    bool m_broadcast; ///< broadcast fabric
};

/**
 * Figure 1-32: A (on sw1) and E (on sw2) are in LIS_1: ping, UDP and TCP go straight across
 * the sw1-sw2 cable, without the router.
 */
class HarpIpTwoSwitchesTestCase : public TestCase
{
  public:
    /// \param broadcast whether the switches broadcast
    explicit HarpIpTwoSwitchesTestCase(bool broadcast)
        : TestCase(std::string("ping UDP TCP across two switches in one LIS, ") +
                   (broadcast ? "broadcast" : "non-broadcast") + " fabric"),
          m_broadcast(broadcast)
    {
    }

  private:
    void DoRun() override
    {
        Network net(GsnTopologyBuilder::TwoSwitchFigure132(), m_broadcast, {{"J", "H"}});
        HarpHelper harp;
        SetUpLis(net, harp, !m_broadcast);
        Flows flows(net.nodes);
        uint64_t interSwitch = 0;
        Ptr<GsnSwitch> sw1 = net.fabric.switchObjects[0];
        sw1->TraceConnectWithoutContext(
            "MessageForward",
            MakeBoundCallback(
                +[](uint64_t* n, uint32_t, uint32_t out, uint8_t, Mac48Address) {
                    *n += out == 7 ? 1 : 0;
                },
                &interSwitch));
        TtlRecorder ttl;
        net.NodeOf("A")->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "LocalDeliver",
            MakeCallback(&TtlRecorder::Deliver, &ttl));

        net.Ping("A", "E", Seconds(5), Seconds(4));
        UdpEcho(net, "E", "A", Seconds(5), 50);
        Ptr<PacketSink> sink = TcpBulk(net, "A", "E", Seconds(5), 300000);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(net.rtts, 4, "every echo request was answered");
        NS_TEST_EXPECT_MSG_EQ(ttl.minTtl, 64, "E's replies came straight (no router)");
        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), 300000, "TCP delivered every byte");
        NS_TEST_EXPECT_MSG_GT(interSwitch, 0, "traffic crossed the sw1-sw2 cable");
        NS_TEST_EXPECT_MSG_EQ(flows.Lost(), 0, "FlowMonitor counts no loss");
        NS_TEST_EXPECT_MSG_EQ(net.nonHarpArpOnWire, 0, "no Ethernet ARP on the GSN wire");
    }

    bool m_broadcast; ///< broadcast fabric
};

/**
 * Figures 1-31 and 1-32: A (LIS_1) reaches C (LIS_2) only through the router J/H, although
 * both hang on the same switch; HARP refuses to resolve C from A.
 */
class HarpIpAcrossLisTestCase : public TestCase
{
  public:
    /**
     * \param twoSwitches figure 1-32 (else 1-31)
     * \param broadcast whether the switches broadcast
     */
    HarpIpAcrossLisTestCase(bool twoSwitches, bool broadcast)
        : TestCase(std::string("ping UDP TCP between LIS through the router, figure ") +
                   (twoSwitches ? "1-32" : "1-31") +
                   (broadcast ? ", broadcast" : ", non-broadcast") + " fabric"),
          m_twoSwitches(twoSwitches),
          m_broadcast(broadcast)
    {
    }

  private:
    void DoRun() override
    {
        Network net(m_twoSwitches ? GsnTopologyBuilder::TwoSwitchFigure132() : Figure131(),
                    m_broadcast,
                    {{"J", "H"}});
        HarpHelper harp;
        SetUpLis(net, harp, !m_broadcast);
        Flows flows(net.nodes);
        NS_TEST_ASSERT_MSG_EQ(net.NodeOf("J"), net.NodeOf("H"), "J and H are one router");

        TtlRecorder ttl;
        net.NodeOf("A")->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "LocalDeliver",
            MakeCallback(&TtlRecorder::Deliver, &ttl));
        uint64_t forwarded = 0;
        net.NodeOf("J")->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "UnicastForward",
            MakeBoundCallback(
                +[](uint64_t* n, const Ipv4Header&, Ptr<const Packet>, uint32_t) { ++*n; },
                &forwarded));
        SourceCounter fromA{Mac48Address::ConvertFrom(net.Device("A")->GetAddress())};
        net.Device("C")->TraceConnectWithoutContext("Sniffer",
                                                    MakeCallback(&SourceCounter::Sniff, &fromA));
        std::vector<std::pair<bool, harp::FailReason>> direct;
        net.Harp("A")->TraceConnectWithoutContext(
            "Unresolvable",
            MakeBoundCallback(
                +[](std::vector<std::pair<bool, harp::FailReason>>* v,
                    Ipv4Address,
                    harp::FailReason reason) {
                    v->push_back({true, reason});
                },
                &direct));
        // HARP itself refuses A -> C: another LIS.
        Simulator::Schedule(Seconds(4), [&net]() { net.Harp("A")->Resolve(net.Address("C")); });

        net.Ping("A", "C", Seconds(5), Seconds(4));
        UdpEcho(net, "C", "A", Seconds(5), 50);
        Ptr<PacketSink> sink = TcpBulk(net, "A", "C", Seconds(5), 300000);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(net.rtts, 4, "every echo request was answered");
        NS_TEST_EXPECT_MSG_EQ(ttl.maxTtl, 63, "C's replies crossed one router");
        NS_TEST_EXPECT_MSG_EQ(ttl.minTtl, 63, "C's replies crossed one router");
        NS_TEST_EXPECT_MSG_GT(forwarded, 100, "the router forwarded the traffic");
        NS_TEST_EXPECT_MSG_EQ(fromA.count, 0, "no Message went from A to C directly");
        NS_TEST_EXPECT_MSG_GT(fromA.total, 100, "C did get traffic");
        NS_TEST_ASSERT_MSG_EQ(direct.size(), 1, "A's direct resolution of C failed once");
        NS_TEST_EXPECT_MSG_EQ((direct[0].second == harp::FailReason::OutsideLis),
                              true,
                              "because C is outside A's LIS");
        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), 300000, "TCP delivered every byte");
        NS_TEST_EXPECT_MSG_EQ(flows.Lost(), 0, "FlowMonitor counts no loss");
        NS_TEST_EXPECT_MSG_EQ(net.nonHarpArpOnWire, 0, "no Ethernet ARP on the GSN wire");
    }

    bool m_twoSwitches; ///< figure 1-32
    bool m_broadcast;   ///< broadcast fabric
};

/// Runs \p f with std::cerr captured; \return what it printed.
std::string
CaptureCerr(const std::function<void()>& f)
{
    std::ostringstream captured;
    std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
    f();
    std::cerr.rdbuf(old);
    return captured.str();
}

/// A UDP echo client sending \p count requests of \p size bytes every \p interval.
Ptr<UdpEchoClient>
EchoBurst(Network& net,
          const std::string& from,
          const std::string& to,
          Time start,
          uint32_t count,
          Time interval,
          uint32_t* replies)
{
    UdpEchoServerHelper server(9);
    server.Install(net.NodeOf(to)).Start(Seconds(0));
    UdpEchoClientHelper client(net.Address(to), 9);
    client.SetAttribute("MaxPackets", UintegerValue(count));
    client.SetAttribute("Interval", TimeValue(interval));
    client.SetAttribute("PacketSize", UintegerValue(512));
    ApplicationContainer c = client.Install(net.NodeOf(from));
    c.Start(start);
    Ptr<UdpEchoClient> app = DynamicCast<UdpEchoClient>(c.Get(0));
    app->TraceConnectWithoutContext("Rx",
                                    MakeBoundCallback(
                                        +[](uint32_t* n, Ptr<const Packet>) { ++*n; },
                                        replies));
    return app;
}

/**
 * A run of 26 ms on a non-broadcast fabric the helper built: HARP knows the fabric from the
 * helper (FabricMode Auto) and delivers; with the self-test forced (Detect), which takes 3 s,
 * nothing is delivered and the end of the run says so (a warning and a counter).
 */
class HarpIpShortRunTestCase : public TestCase
{
  public:
    /// \param detect force FabricMode Detect (else the default, Auto)
    explicit HarpIpShortRunTestCase(bool detect)
        : TestCase(std::string("a 26 ms run on a non-broadcast fabric: ") +
                   (detect ? "Detect leaves datagrams unresolved and warns at the end"
                           : "the helper's fabric knowledge makes HARP deliver")),
          m_detect(detect)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HarpInterface> ep0;
        uint32_t replies = 0;
        std::string warning;
        {
            Network net(GsnTopologyBuilder::Star(3), false);
            NS_TEST_EXPECT_MSG_EQ(
                (net.Device("ep0")->GetFabricBroadcast() == GsnFabricBroadcast::NON_BROADCAST),
                true,
                "the fabric helper recorded a non-broadcast fabric");
            net.Assign("ep0", "192.0.2.1");
            net.Assign("ep1", "192.0.2.2");
            net.Assign("ep2", "192.0.2.3");
            HarpHelper harp;
            if (m_detect)
            {
                harp.SetAttribute("FabricMode", EnumValue(HarpProtocol::DETECT));
            }
            harp.AddServer(net.Device("ep2"));
            net.InstallHarp(harp);
            ep0 = net.Harp("ep0");
            EchoBurst(net, "ep0", "ep1", MilliSeconds(1), 20, MilliSeconds(1), &replies);
            Simulator::Stop(MilliSeconds(26));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ((ep0->GetPhase() == harp::Phase::Operational),
                                  !m_detect,
                                  "operational at once unless detecting");
            warning = CaptureCerr([]() { Simulator::Destroy(); });
        }
        const HarpAdapterCounters& c = ep0->GetCounters();
        if (m_detect)
        {
            NS_TEST_EXPECT_MSG_EQ(replies, 0, "nothing resolves in 26 ms of self-test");
            NS_TEST_EXPECT_MSG_EQ(c.datagramsUnresolvedAtEnd, 20, "every request waited");
            NS_TEST_EXPECT_MSG_EQ(c.nextHopsUnresolvedAtEnd, 1, "for one next hop");
            NS_TEST_EXPECT_MSG_NE(warning.find("20 datagram(s)"), std::string::npos, warning);
            NS_TEST_EXPECT_MSG_NE(warning.find("self-test"), std::string::npos, warning);
            NS_TEST_EXPECT_MSG_NE(warning.find("FabricMode"), std::string::npos, warning);
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(replies, 20, "every echo request answered within 26 ms");
            NS_TEST_EXPECT_MSG_EQ(c.datagramsUnresolvedAtEnd, 0, "nothing left waiting");
            NS_TEST_EXPECT_MSG_EQ(warning, "", "no warning");
        }
    }

    bool m_detect; ///< force the self-test
};

/**
 * A burst of 200 UDP echo requests sent before the first resolution completes: HARP's
 * helper set the node's ARP request jitter to zero and a pending queue that holds them, so
 * every one is answered (ns-3's defaults, 0-10 ms of jitter and a queue of 3, lost most).
 */
class HarpIpBurstTestCase : public TestCase
{
  public:
    HarpIpBurstTestCase()
        : TestCase("200 UDP echo requests sent before resolution are all answered; ARP "
                   "jitter zero, pending queue large enough")
    {
    }

  private:
    void DoRun() override
    {
        Network net(GsnTopologyBuilder::Star(3), true);
        net.Assign("ep0", "192.0.2.1");
        net.Assign("ep1", "192.0.2.2");
        net.Assign("ep2", "192.0.2.3");
        HarpHelper harp;
        net.InstallHarp(harp);
        uint32_t replies = 0;
        // 200 requests within 2 us: all before the first resolution can come back.
        EchoBurst(net, "ep0", "ep1", MilliSeconds(1), 200, NanoSeconds(10), &replies);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(replies, 200, "every request of the burst answered");

        for (const char* host : {"ep0", "ep1"})
        {
            PointerValue jitter;
            net.NodeOf(host)->GetObject<ArpL3Protocol>()->GetAttribute("RequestJitter", jitter);
            Ptr<RandomVariableStream> rv = jitter.Get<RandomVariableStream>();
            double largest = 0;
            for (int i = 0; i < 100; ++i)
            {
                largest = std::max(largest, rv->GetValue());
            }
            NS_TEST_EXPECT_MSG_EQ(largest, 0.0, host << ": ARP request jitter is zero");
            UintegerValue pending;
            net.Harp(host)->GetArpCache()->GetAttribute("PendingQueueSize", pending);
            NS_TEST_EXPECT_MSG_EQ(pending.Get(), 1000, host << ": pending queue size");
        }
    }
};

/**
 * Ipv4GlobalRoutingHelper::PopulateRoutingTables on figure 1-31 (two LIS, router J/H) and no
 * static route: HARP reports each LIS as its members' channel, so global routing finds the
 * way between LIS through the router, and pings within and across LIS are answered.
 */
class HarpIpGlobalRoutingTestCase : public TestCase
{
  public:
    /// \param broadcast whether the switches broadcast (else HARP servers)
    HarpIpGlobalRoutingTestCase(bool broadcast)
        : TestCase(std::string("PopulateRoutingTables on a ") +
                   (broadcast ? "broadcast" : "non-broadcast") +
                   " GSN fabric: routes between LIS through the router, pings answered"),
          m_broadcast(broadcast)
    {
    }

  private:
    void DoRun() override
    {
        Network net(Figure131(), m_broadcast, {{"J", "H"}});
        HarpHelper harp;
        SetUpLis(net, harp, !m_broadcast, false);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();

        // Each interface reports its LIS: A, B, E, J, K, L and C, D, F, G, H.
        Ptr<HarpLisChannel> lis1 = DynamicCast<HarpLisChannel>(net.Device("A")->GetChannel());
        Ptr<HarpLisChannel> lis2 = DynamicCast<HarpLisChannel>(net.Device("C")->GetChannel());
        NS_TEST_ASSERT_MSG_NE(lis1, nullptr, "A's channel is its LIS");
        NS_TEST_ASSERT_MSG_NE(lis2, nullptr, "C's channel is its LIS");
        if (!lis1 || !lis2)
        {
            return; // the test runner continues after a failed assertion by default
        }
        NS_TEST_EXPECT_MSG_EQ(lis1->GetNDevices(), 6u, "LIS_1 members");
        NS_TEST_EXPECT_MSG_EQ(lis2->GetNDevices(), 5u, "LIS_2 members");
        NS_TEST_EXPECT_MSG_EQ(net.Device("J")->GetChannel(), lis1, "the router's J side");
        NS_TEST_EXPECT_MSG_EQ(net.Device("H")->GetChannel(), lis2, "the router's H side");
        NS_TEST_EXPECT_MSG_EQ(net.Device("A")->IsPointToPoint(), false, "a multi-access link");
        NS_TEST_EXPECT_MSG_NE(net.Device("A")->GetCable(), nullptr, "the cable is still there");

        // A's route to LIS_2 goes through J.
        Ptr<Ipv4> ipv4 = net.Device("A")->GetNode()->GetObject<Ipv4>();
        Ipv4Header probe;
        probe.SetDestination(Ipv4Address("192.0.2.35"));
        Socket::SocketErrno err;
        Ptr<Ipv4Route> route =
            ipv4->GetRoutingProtocol()->RouteOutput(nullptr, probe, nullptr, err);
        NS_TEST_ASSERT_MSG_NE(route, nullptr, "a route from A to C");
        NS_TEST_EXPECT_MSG_EQ((route ? route->GetGateway() : Ipv4Address()),
                              Ipv4Address("192.0.2.10"),
                              "through J");

        net.Ping("A", "C", Seconds(5), Seconds(3));
        net.Ping("A", "B", Seconds(5), Seconds(3));
        net.Ping("D", "L", Seconds(5), Seconds(3));
        Simulator::Stop(Seconds(9));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(net.rtts, 9, "pings within and across LIS answered");
    }

    bool m_broadcast; ///< switches broadcast
};

/// A refused HarpProtocol attribute value names what is allowed.
class HarpIpAttributeMessagesTestCase : public TestCase
{
  public:
    HarpIpAttributeMessagesTestCase()
        : TestCase("a refused HARP attribute value names the allowed names or range")
    {
    }

  private:
    void DoRun() override
    {
        bool ok = true;
        std::string text = CaptureCerr([&ok]() {
            ok = Config::SetDefaultFailSafe("ns3::HarpProtocol::FabricMode", StringValue("Bcast"));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "Bcast refused");
        NS_TEST_EXPECT_MSG_NE(text.find("ns3::HarpProtocol::FabricMode: \"Bcast\""),
                              std::string::npos,
                              text);
        NS_TEST_EXPECT_MSG_NE(text.find("one of Auto, Detect, Broadcast, NonBroadcast"),
                              std::string::npos,
                              text);
        text = CaptureCerr([&ok]() {
            ok = Config::SetDefaultFailSafe("ns3::HarpProtocol::BroadcastProbes", StringValue("0"));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "no probe refused");
        NS_TEST_EXPECT_MSG_NE(text.find("an integer of at least 1"), std::string::npos, text);
        text = CaptureCerr([&ok]() {
            ok = Config::SetDefaultFailSafe("ns3::HarpProtocol::ProbeInterval", StringValue("0s"));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "a zero interval refused");
        NS_TEST_EXPECT_MSG_NE(text.find("a time of at least"), std::string::npos, text);
    }
};

/**
 * TCP bulk throughput over one GSN hop (two hosts on one cable), reported against the link's
 * payload rate: 6.4 Gbit/s times the share of Message bytes in whole micropackets.
 */
class HarpIpTcpThroughputTestCase : public TestCase
{
  public:
    HarpIpTcpThroughputTestCase()
        : TestCase("TCP bulk throughput over one GSN hop")
    {
    }

  private:
    /// TCP segments that fill the 65280-byte MTU (IPv4 20 bytes, TCP with timestamps 32).
    static constexpr uint32_t SEGMENT = 65280 - 52;

    void FirstByte(Ptr<const Packet>, const Address&)
    {
        if (m_onFirst)
        {
            m_onFirst();
            m_onFirst = nullptr;
        }
    }

    std::function<void()> m_onFirst; ///< what the first byte starts

    void DoSetup() override
    {
        // Segments that fill the MTU, and windows for a 6.4 Gbit/s link.
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(SEGMENT));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(8 << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(8 << 20));
    }

    void DoTeardown() override
    {
        Config::Reset();
    }

    void DoRun() override
    {
        Network net(true);
        // Devices that already need ARP when IPv4 gets their address: ns-3 made the caches.
        net.Device("A")->SetAttribute("NeedsArp", BooleanValue(true));
        net.Device("B")->SetAttribute("NeedsArp", BooleanValue(true));
        net.Assign("A", "192.0.2.1");
        net.Assign("B", "192.0.2.2");
        // A cable between two hosts delivers a broadcast to the peer but sends no copy back:
        // the self-test would find no broadcast, and without servers nothing would resolve.
        HarpHelper harp;
        harp.SetAttribute("FabricMode", EnumValue(HarpProtocol::BROADCAST));
        net.InstallHarp(harp);
        Flows flows(net.nodes);
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 5000));
        ApplicationContainer s = sinkHelper.Install(net.NodeOf("B"));
        Ptr<PacketSink> sink = DynamicCast<PacketSink>(s.Get(0));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(net.Address("B"), 5000));
        bulk.SetAttribute("SendSize", UintegerValue(SEGMENT));
        ApplicationContainer c = bulk.Install(net.NodeOf("A"));
        c.Start(Seconds(1));
        c.Stop(Seconds(1) + MilliSeconds(60));
        // The window opens 5 ms after the first byte arrives (ns-3's ARP request jitter, up
        // to 10 ms per direction, delays the connection).
        const Time warmup = MilliSeconds(5);
        const Time window = MilliSeconds(20);
        Time first;
        uint64_t atWarmup = 0;
        uint64_t atEnd = 0;
        sink->TraceConnectWithoutContext(
            "Rx",
            MakeCallback(&HarpIpTcpThroughputTestCase::FirstByte, this));
        m_onFirst = [&]() {
            first = Simulator::Now();
            Simulator::Schedule(warmup, [&]() { atWarmup = sink->GetTotalRx(); });
            Simulator::Schedule(warmup + window, [&]() { atEnd = sink->GetTotalRx(); });
        };
        Simulator::Stop(Seconds(1.2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(first, Seconds(1), "the connection came up");
        NS_TEST_ASSERT_MSG_LT(first + warmup + window, Seconds(1.06), "within the transfer");
        const double goodput = double(atEnd - atWarmup) * 8 / window.GetSeconds();
        // In whole 32-byte micropackets of the Message: 16 bytes of addressing, 8 of LLC/SNAP,
        // the datagram (IPv4 header 20 bytes, TCP header with timestamps 32).
        auto rate = [](double payload, double datagram) {
            return 6.4e9 * payload / (32 * std::ceil((datagram + 24) / 32));
        };
        const double payloadRate = rate(65280, 65280);
        const double tcpCeiling = rate(SEGMENT, SEGMENT + 52.0);
        std::ostringstream report;
        report << "TCP goodput over one GSN hop: " << goodput / 1e9
               << " Gbit/s = " << 100 * goodput / payloadRate << "% of the link's IP payload rate ("
               << payloadRate / 1e9 << " Gbit/s), " << 100 * goodput / tcpCeiling
               << "% of the TCP payload ceiling";
        std::cout << report.str() << std::endl;
        NS_TEST_EXPECT_MSG_GT(goodput, 0.5 * payloadRate, report.str());
        NS_TEST_EXPECT_MSG_LT(goodput, 1.01 * tcpCeiling, "cannot exceed the link");
        NS_TEST_EXPECT_MSG_EQ(flows.Lost(), 0, "FlowMonitor counts no loss");
        NS_TEST_EXPECT_MSG_EQ(net.nonHarpArpOnWire, 0, "no Ethernet ARP on the GSN wire");
    }
};

/**
 * \ingroup harp
 * IPv4 over GSN resolved by HARP.
 */
class HarpIpTestSuite : public TestSuite
{
  public:
    HarpIpTestSuite()
        : TestSuite("harp-ip", SYSTEM)
    {
        AddTestCase(new HarpIpOneSwitchTestCase(true), TestCase::QUICK);
        AddTestCase(new HarpIpOneSwitchTestCase(false), TestCase::QUICK);
        AddTestCase(new HarpIpTwoSwitchesTestCase(true), TestCase::QUICK);
        AddTestCase(new HarpIpTwoSwitchesTestCase(false), TestCase::QUICK);
        AddTestCase(new HarpIpAcrossLisTestCase(false, true), TestCase::QUICK);
        AddTestCase(new HarpIpAcrossLisTestCase(false, false), TestCase::QUICK);
        AddTestCase(new HarpIpAcrossLisTestCase(true, true), TestCase::QUICK);
        AddTestCase(new HarpIpAcrossLisTestCase(true, false), TestCase::QUICK);
        AddTestCase(new HarpIpTcpThroughputTestCase, TestCase::QUICK);
        AddTestCase(new HarpIpShortRunTestCase(false), TestCase::QUICK);
        AddTestCase(new HarpIpShortRunTestCase(true), TestCase::QUICK);
        AddTestCase(new HarpIpBurstTestCase, TestCase::QUICK);
        AddTestCase(new HarpIpGlobalRoutingTestCase(false), TestCase::QUICK);
        AddTestCase(new HarpIpGlobalRoutingTestCase(true), TestCase::QUICK);
        AddTestCase(new HarpIpAttributeMessagesTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static HarpIpTestSuite g_harpIpTestSuite;
