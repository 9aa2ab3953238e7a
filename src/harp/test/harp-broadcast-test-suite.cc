/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IP broadcast and multicast on GSN with HARP: on a non-broadcast fabric the LIS's first HARP
 * server emulates them (RFC 2835 7.1, PIBES: hosts send them to the server, which copies them
 * to every registered host but the sender); with the emulation off the switch drops them,
 * counted; on a broadcast fabric the switch delivers them and no emulation runs. IPv6
 * (Neighbour Discovery's multicast) goes through the same server.
 */
#include "harp-test-network.h"

#include "ns3/gsn-switch.h"
#include "ns3/ipv6-address-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/test.h"
#include "ns3/udp-echo-helper.h"
#include "ns3/udp-socket-factory.h"

#include <map>

using namespace ns3;
using namespace ns3::harptest;

namespace
{

/// Send one 100-byte UDP datagram from \p node to \p to, port 9, out of \p device.
void
SendOne(Ptr<Node> node, Ptr<NetDevice> device, Ipv4Address to)
{
    Ptr<Socket> socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    socket->SetAllowBroadcast(true);
    socket->Bind();
    socket->BindToNetDevice(device);
    socket->SendTo(Create<Packet>(100), 0, InetSocketAddress(to, 9));
    socket->Close();
}

/**
 * ep0 sends to the limited broadcast, the LIS's directed broadcast and a link-local
 * multicast group; ep3 (the server) sends to the directed broadcast. Every other host of the
 * LIS gets each once; the sender gets its own only from a broadcast fabric.
 */
class HarpBroadcastTestCase : public TestCase
{
  public:
    /// \param broadcastFabric whether the switch broadcasts \param emulate BroadcastEmulation
    HarpBroadcastTestCase(bool broadcastFabric, bool emulate)
        : TestCase(std::string("IP broadcast and multicast, ") +
                   (broadcastFabric ? "broadcast fabric"
                                    : (emulate ? "non-broadcast fabric, emulated by the server"
                                               : "non-broadcast fabric, no emulation"))),
          m_broadcastFabric(broadcastFabric),
          m_emulate(emulate)
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::HarpProtocol::BroadcastEmulation", BooleanValue(m_emulate));
        Network net(GsnTopologyBuilder::Star(4), m_broadcastFabric);
        const char* names[] = {"ep0", "ep1", "ep2", "ep3"};
        for (int i = 0; i < 4; ++i)
        {
            net.Assign(names[i], "192.0.2." + std::to_string(i + 1));
        }
        HarpHelper harp;
        harp.AddServer(net.Device("ep3"));
        net.InstallHarp(harp);
        std::map<std::string, Ptr<PacketSink>> sinks;
        for (const char* name : names)
        {
            PacketSinkHelper sink("ns3::UdpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), 9));
            sinks[name] = DynamicCast<PacketSink>(sink.Install(net.NodeOf(name)).Get(0));
        }
        for (const char* to : {"255.255.255.255", "192.0.2.31", "224.0.0.251"})
        {
            Simulator::Schedule(Seconds(5),
                                &SendOne,
                                net.NodeOf("ep0"),
                                net.Device("ep0"),
                                Ipv4Address(to));
        }
        Simulator::Schedule(Seconds(6),
                            &SendOne,
                            net.NodeOf("ep3"),
                            net.Device("ep3"),
                            Ipv4Address("192.0.2.31"));
        Simulator::Stop(Seconds(8));
        Simulator::Run();

        const bool delivered = m_broadcastFabric || m_emulate;
        // A broadcast fabric gives the sender its own copy too (HARP's self-test relies on
        // it); the emulation copies to every host but the sender.
        const std::map<std::string, uint64_t> expected = {{"ep0", m_broadcastFabric ? 4 : 1},
                                                          {"ep1", 4},
                                                          {"ep2", 4},
                                                          {"ep3", m_broadcastFabric ? 4 : 3}};
        for (const auto& [name, count] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(sinks[name]->GetTotalRx(),
                                  (delivered ? count * 100 : 0),
                                  name << " received the wrong number of bytes");
        }
        const bool emulating = !m_broadcastFabric && m_emulate;
        for (const char* name : names)
        {
            NS_TEST_EXPECT_MSG_EQ(net.Harp(name)->IsEmulatingBroadcast(),
                                  emulating,
                                  name << ": emulation running or not");
        }
        const HarpBroadcastCounters& host = net.Harp("ep0")->GetBroadcastCounters();
        const HarpBroadcastCounters& server = net.Harp("ep3")->GetBroadcastCounters();
        NS_TEST_EXPECT_MSG_EQ(host.sentToServer, (emulating ? 3 : 0), "ep0 sent 3 to the server");
        NS_TEST_EXPECT_MSG_EQ(server.replicated, (emulating ? 4 : 0), "the server copied 4");
        NS_TEST_EXPECT_MSG_EQ(server.copiesSent,
                              (emulating ? 3 * 2 + 3 : 0),
                              "2 copies of each of ep0's, 3 of the server's own");
        const uint64_t dropped =
            net.fabric.switchObjects.at(0)->GetDrops(GsnSwitchDropReason::NO_BROADCAST);
        NS_TEST_EXPECT_MSG_EQ(dropped,
                              (delivered ? 0 : 4),
                              "the switch drops what is sent to the broadcast ULA");
        Config::Reset();
    }

    bool m_broadcastFabric; ///< the switch broadcasts
    bool m_emulate;         ///< BroadcastEmulation
};

/**
 * IPv6 UDP echo between dual-stack hosts through a non-broadcast switch: Neighbour Discovery's
 * multicast reaches the other hosts through the HARP server (IPv4 registers the hosts).
 */
class HarpBroadcastIpv6TestCase : public TestCase
{
  public:
    /// \param emulate BroadcastEmulation
    explicit HarpBroadcastIpv6TestCase(bool emulate)
        : TestCase(std::string("IPv6 through a non-broadcast switch, ") +
                   (emulate ? "Neighbour Discovery through the server" : "no emulation")),
          m_emulate(emulate)
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::HarpProtocol::BroadcastEmulation", BooleanValue(m_emulate));
        // ns-3 delays each Neighbour Solicitation by up to 10 ms; none here.
        Config::SetDefault("ns3::Icmpv6L4Protocol::SolicitationJitter",
                           StringValue("ns3::ConstantRandomVariable[Constant=0]"));
        Network net(GsnTopologyBuilder::Star(3), false);
        net.Assign("ep0", "192.0.2.1");
        net.Assign("ep1", "192.0.2.2");
        net.Assign("ep2", "192.0.2.3");
        HarpHelper harp;
        harp.AddServer(net.Device("ep2"));
        net.InstallHarp(harp);
        Ipv6AddressHelper v6;
        v6.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
        NetDeviceContainer devices;
        devices.Add(net.Device("ep0"));
        devices.Add(net.Device("ep1"));
        Ipv6InterfaceContainer ifs = v6.Assign(devices);

        UdpEchoServerHelper server(9);
        server.Install(net.NodeOf("ep1")).Start(Seconds(0));
        UdpEchoClientHelper client(ifs.GetAddress(1, 1), 9);
        client.SetAttribute("MaxPackets", UintegerValue(5));
        client.SetAttribute("Interval", TimeValue(MilliSeconds(1)));
        ApplicationContainer c = client.Install(net.NodeOf("ep0"));
        c.Start(Seconds(5)); // after HARP registration and Duplicate Address Detection
        uint32_t echoed = 0;
        c.Get(0)->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>>([&echoed](Ptr<const Packet>) { ++echoed; }));
        Simulator::Stop(Seconds(7));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(echoed, (m_emulate ? 5u : 0u), "IPv6 echoes answered");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(net.Harp("ep2")->GetBroadcastCounters().replicated,
                                    (m_emulate ? 1u : 0u),
                                    "the server copied Neighbour Discovery's multicast");
        const uint64_t refused =
            net.fabric.switchObjects.at(0)->GetDrops(GsnSwitchDropReason::NO_BROADCAST);
        NS_TEST_EXPECT_MSG_EQ((refused > 0), !m_emulate, "group Messages refused only without");
        Config::Reset();
    }

    bool m_emulate; ///< BroadcastEmulation
};

class HarpBroadcastTestSuite : public TestSuite
{
  public:
    HarpBroadcastTestSuite()
        : TestSuite("harp-broadcast", UNIT)
    {
        AddTestCase(new HarpBroadcastTestCase(false, true), TestCase::QUICK);
        AddTestCase(new HarpBroadcastTestCase(false, false), TestCase::QUICK);
        AddTestCase(new HarpBroadcastTestCase(true, true), TestCase::QUICK);
        AddTestCase(new HarpBroadcastIpv6TestCase(true), TestCase::QUICK);
        AddTestCase(new HarpBroadcastIpv6TestCase(false), TestCase::QUICK);
    }
};

/// The suite's one instance.
HarpBroadcastTestSuite g_harpBroadcastTestSuite;

} // namespace
