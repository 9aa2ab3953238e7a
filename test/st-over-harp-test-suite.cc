/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Cross-module system test: ST peers on a GSN fabric found through HARP. ST shares the
 * interface's IP address (seed 000); StProtocol's asynchronous resolver is HARP's.
 */
#include "ns3/gsn-module.h"
#include "ns3/harp-module.h"
#include "ns3/internet-module.h"
#include "ns3/st-module.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

namespace
{

/// StProtocol's asynchronous resolver, answered by the node's HARP.
StProtocol::AsyncResolver
HarpResolver(Ptr<HarpProtocol> harp, uint32_t* asked)
{
    return StProtocol::AsyncResolver([harp, asked](Ptr<NetDevice> device,
                                                   Ipv4Address ip,
                                                   StProtocol::ResolveDone done) {
        ++*asked;
        harp->ResolveAsync(device,
                           ip,
                           HarpInterface::ResolveCallback(
                               [done](Ipv4Address, bool ok, Mac48Address ula) { done(ok, ula); }));
    });
}

} // namespace

/// An ST write between two endpoints of a star, the peer resolved by HARP.
class StOverHarpTestCase : public TestCase
{
  public:
    /// \param broadcast a broadcast-capable fabric (else one HARP server)
    explicit StOverHarpTestCase(bool broadcast)
        : TestCase(std::string("ST peers resolved by HARP on a ") +
                   (broadcast ? "broadcast" : "non-broadcast") + " fabric"),
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

        uint32_t asked = 0;
        std::vector<Ptr<StProtocol>> proto;
        for (uint32_t i = 0; i < 3; ++i)
        {
            proto.push_back(fabric.endpoints.Get(i)->GetObject<StProtocol>());
            Ptr<HarpProtocol> h = fabric.endpoints.Get(i)->GetObject<HarpProtocol>();
            NS_TEST_ASSERT_MSG_NE(h, nullptr, "HARP installed");
            proto[i]->SetAsyncResolver(HarpResolver(h, &asked));
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
        NS_TEST_ASSERT_MSG_NE(conn[0], 0u, "connected through a HARP-resolved peer");
        NS_TEST_ASSERT_MSG_NE(conn[2], 0u, "accepted");
        NS_TEST_ASSERT_MSG_GT(asked, 0u, "the HARP resolver was asked");

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
};

/// The st-over-harp test suite.
class StOverHarpTestSuite : public TestSuite
{
  public:
    StOverHarpTestSuite()
        : TestSuite("st-over-harp", SYSTEM)
    {
        AddTestCase(new StOverHarpTestCase(true), TestCase::QUICK);
        AddTestCase(new StOverHarpTestCase(false), TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static StOverHarpTestSuite g_stOverHarpTestSuite;
