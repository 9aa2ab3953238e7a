/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Cross-module system test: ST peers on a GSN fabric found through HARP. ST shares the
 * interface's IP address (seed 000); HarpHelper::ResolveStPeers makes StProtocol resolve
 * through HARP. Without it, ST finds only what IP's ARP cache happens to hold.
 */
#include "ns3/gsn-module.h"
#include "ns3/harp-module.h"
#include "ns3/internet-module.h"
#include "ns3/st-module.h"
#include "ns3/test.h"

#include <optional>
#include <vector>

using namespace ns3;

/// An ST write between two endpoints of a star, the peer resolved by HARP; without
/// HarpHelper::ResolveStPeers the peer stays unresolved.
class StOverHarpTestCase : public TestCase
{
  public:
    /// \param broadcast a broadcast-capable fabric (else one HARP server)
    /// \param wired whether HarpHelper::ResolveStPeers wires HARP into ST
    StOverHarpTestCase(bool broadcast, bool wired)
        : TestCase(std::string("ST peers resolved by HARP on a ") +
                   (broadcast ? "broadcast" : "non-broadcast") + " fabric" +
                   (wired ? "" : ": unresolved without ResolveStPeers")),
          m_broadcast(broadcast),
          m_wired(wired)
    {
    }

  private:
    void DoRun() override
    {
        GsnFabricHelper fabricHelper;
        fabricHelper.SetSwitchAttribute("BroadcastCapable", BooleanValue(m_broadcast));
        fabricHelper.SetDeviceAttribute("NeedsArp", BooleanValue(true));
        GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(3));
        InternetStackHelper internet;
        internet.Install(fabric.endpoints);
        Ipv4AddressHelper addresses("192.0.2.0", "255.255.255.224");
        Ipv4InterfaceContainer ifs = addresses.Assign(fabric.endpointDevices);
        HarpHelper harp;
        if (!m_broadcast)
        {
            harp.AddServer(fabric.endpointDevices.Get(1));
        }
        harp.Install(fabric.endpointDevices);
        StHelper st;
        st.Install(fabric.endpoints);
        if (m_wired)
        {
            HarpHelper::ResolveStPeers(fabric.endpoints);
        }

        std::vector<Ptr<StProtocol>> proto;
        uint32_t unresolved = 0;
        for (uint32_t i = 0; i < 3; ++i)
        {
            proto.push_back(fabric.endpoints.Get(i)->GetObject<StProtocol>());
            proto[i]->TraceConnectWithoutContext(
                "ResolveFailed",
                Callback<void, Ipv4Address>([&unresolved](Ipv4Address) { ++unresolved; }));
        }

        // Let HARP start (detection or registration), then connect 0 -> 2 by IP.
        st::StConnId conn[3] = {0, 0, 0};
        const uint32_t bytes = 256 * 1024;
        std::vector<uint8_t> src(bytes);
        std::vector<uint8_t> dst(bytes, 0);
        for (uint32_t k = 0; k < bytes; ++k)
        {
            src[k] = uint8_t(k * 7 + (k >> 9));
        }
        bool complete = false;
        auto recorder = [&conn](uint32_t i) {
            return StProtocol::EventCallback([&conn, i](const st::StEvent& e) {
                if (e.type == st::StEventType::ConnectionEstablished)
                {
                    conn[i] = e.conn;
                }
            });
        };
        proto[2]->Listen(5000, StProtocol::EventCallback([&](const st::StEvent& e) {
                             if (e.type == st::StEventType::ConnectionEstablished)
                             {
                                 conn[2] = e.conn;
                             }
                             if (e.type == st::StEventType::TransferComplete)
                             {
                                 complete = true;
                             }
                         }));
        Simulator::Schedule(Seconds(5),
                            [&]() { proto[0]->Connect(ifs.GetAddress(2), 5000, recorder(0)); });
        Simulator::Stop(Seconds(5) + MilliSeconds(5));
        Simulator::Run();
        if (!m_wired)
        {
            // ST looks only in IP's ARP cache, which holds nothing: no IP datagram was sent.
            NS_TEST_EXPECT_MSG_EQ(conn[0], 0u, "connected without a resolver");
            NS_TEST_EXPECT_MSG_EQ(unresolved, 1u, "the peer reported unresolved");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_NE(conn[0], 0u, "connected through a HARP-resolved peer");
        NS_TEST_ASSERT_MSG_NE(conn[2], 0u, "accepted");
        NS_TEST_ASSERT_MSG_EQ(unresolved, 0u, "no peer unresolved");
        Ptr<HarpProtocol> harp0 = fabric.endpoints.Get(0)->GetObject<HarpProtocol>();
        const std::optional<Mac48Address> held =
            harp0->Lookup(fabric.endpointDevices.Get(0), ifs.GetAddress(2));
        NS_TEST_ASSERT_MSG_EQ(held.has_value(), true, "HARP's table holds the peer ST resolved");
        NS_TEST_ASSERT_MSG_EQ(*held,
                              Mac48Address::ConvertFrom(fabric.endpointDevices.Get(2)->GetAddress()),
                              "the peer's ULA");

        uint32_t handle = 0;
        uint16_t mx = 0;
        proto[0]->Map(conn[0], st::StMemoryTable::PIN_TX, src.data(), bytes, 0, handle, mx);
        proto[2]->Map(conn[2], st::StMemoryTable::PIN_RX, dst.data(), bytes, 0, handle, mx);
        proto[2]->PostReceive(conn[2], 0, bytes);
        uint32_t tid = 0;
        const bool accepted = proto[0]->Write(conn[0], 0, bytes, tid) == st::StStatus::Ok;
        NS_TEST_ASSERT_MSG_EQ(accepted, true, "write accepted");
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(complete, true, "the write completed");
        NS_TEST_ASSERT_MSG_EQ((src == dst), true, "bytes arrived exactly");
        Simulator::Destroy();
    }

    bool m_broadcast; ///< fabric broadcasts
    bool m_wired;     ///< HarpHelper::ResolveStPeers called
};

/// The st-over-harp test suite.
class StOverHarpTestSuite : public TestSuite
{
  public:
    StOverHarpTestSuite()
        : TestSuite("st-over-harp", SYSTEM)
    {
        AddTestCase(new StOverHarpTestCase(true, true), TestCase::QUICK);
        AddTestCase(new StOverHarpTestCase(false, true), TestCase::QUICK);
        AddTestCase(new StOverHarpTestCase(false, false), TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static StOverHarpTestSuite g_stOverHarpTestSuite;
