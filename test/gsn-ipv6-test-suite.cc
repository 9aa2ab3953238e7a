/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IPv6 over a switched GSN fabric: Neighbour Discovery sends to multicast ULAs
 * (33:33:xx:xx:xx:xx), which a broadcast-capable fabric floods like a broadcast; a fabric
 * whose switches do not broadcast refuses them, counted (NoBroadcast); there HARP's broadcast
 * emulation carries them through its server (harp-broadcast).
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"

using namespace ns3;

/// UDP echo over IPv6 between endpoints of a star (through the switch).
class GsnIpv6TestCase : public TestCase
{
  public:
    /// \param broadcast whether the switch broadcasts
    GsnIpv6TestCase(bool broadcast)
        : TestCase(std::string("IPv6 UDP echo through a ") +
                   (broadcast ? "broadcast-capable switch: Neighbour Discovery resolves"
                              : "non-broadcast switch: multicast refused and counted")),
          m_broadcast(broadcast)
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper fabricHelper;
        fabricHelper.SetSwitchAttribute("BroadcastCapable", BooleanValue(m_broadcast));
        fabricHelper.SetDeviceAttribute("NeedsArp", BooleanValue(true));
        GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(3));
        // ns-3 delays each Neighbour Solicitation by up to 10 ms (as it jitters ARP), which
        // overflows the few packets its cache holds while resolving; none here.
        Config::SetDefault("ns3::Icmpv6L4Protocol::SolicitationJitter",
                           StringValue("ns3::ConstantRandomVariable[Constant=0]"));
        InternetStackHelper internet;
        internet.SetIpv4StackInstall(false);
        internet.Install(fabric.endpoints);
        Ipv6AddressHelper addresses;
        addresses.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer ifs = addresses.Assign(fabric.endpointDevices);

        UdpEchoServerHelper server(9);
        ApplicationContainer s = server.Install(fabric.endpoints.Get(2));
        s.Start(Seconds(0));
        UdpEchoClientHelper client(ifs.GetAddress(2, 1), 9);
        client.SetAttribute("MaxPackets", UintegerValue(5));
        client.SetAttribute("Interval", TimeValue(MilliSeconds(1)));
        client.SetAttribute("PacketSize", UintegerValue(1000));
        ApplicationContainer c = client.Install(fabric.endpoints.Get(0));
        c.Start(Seconds(2)); // after Duplicate Address Detection
        uint32_t echoed = 0;
        c.Get(0)->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>>([&echoed](Ptr<const Packet>) { ++echoed; }));
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        Ptr<GsnSwitch> sw = fabric.switches.Get(0)->GetObject<GsnSwitch>();
        const uint64_t refused = sw->GetDrops(GsnSwitchDropReason::NO_BROADCAST);
        if (m_broadcast)
        {
            NS_TEST_EXPECT_MSG_EQ(echoed, 5u, "every echo answered over IPv6");
            NS_TEST_EXPECT_MSG_EQ(refused, 0u, "nothing refused");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(echoed, 0u, "no resolution without broadcast");
            NS_TEST_EXPECT_MSG_GT(refused, 0u, "the multicast Messages refused, counted");
        }
        Simulator::Destroy();
    }

    bool m_broadcast; ///< switch broadcasts
};

/// The gsn-ipv6 test suite.
class GsnIpv6TestSuite : public TestSuite
{
  public:
    GsnIpv6TestSuite()
        : TestSuite("gsn-ipv6", SYSTEM)
    {
        AddTestCase(new GsnIpv6TestCase(true), TestCase::QUICK);
        AddTestCase(new GsnIpv6TestCase(false), TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnIpv6TestSuite g_gsnIpv6TestSuite;
