/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Cross-module system test: ST peers on a GSN fabric found through HARP. ST shares the
 * interface's IP address (seed 000); HarpHelper::ResolveStPeers makes StProtocol resolve
 * through HARP, for StProtocol's own calls and for the Bypass API's st_connect. Without it,
 * ST finds only what IP's ARP cache happens to hold.
 */
#include "ns3/gsn-module.h"
#include "ns3/harp-module.h"
#include "ns3/internet-module.h"
#include "ns3/st-module.h"
#include "ns3/test.h"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

/// Three endpoints on a star with IPv4, HARP and ST; ST's peers resolved by HARP if wired.
struct HarpStStar
{
    /// \param broadcast a broadcast-capable fabric (else one HARP server)
    /// \param wired whether HarpHelper::ResolveStPeers wires HARP into ST
    HarpStStar(bool broadcast, bool wired)
    {
        GsnFabricHelper fabricHelper;
        fabricHelper.SetSwitchAttribute("BroadcastCapable", BooleanValue(broadcast));
        fabricHelper.SetDeviceAttribute("NeedsArp", BooleanValue(true));
        fabric = fabricHelper.Install(GsnTopologyBuilder::Star(3));
        InternetStackHelper internet;
        internet.Install(fabric.endpoints);
        Ipv4AddressHelper addresses("192.0.2.0", "255.255.255.224");
        ifs = addresses.Assign(fabric.endpointDevices);
        HarpHelper harp;
        if (!broadcast)
        {
            harp.AddServer(fabric.endpointDevices.Get(1));
        }
        harp.Install(fabric.endpointDevices);
        StHelper st;
        st.Install(fabric.endpoints);
        if (wired)
        {
            HarpHelper::ResolveStPeers(fabric.endpoints);
        }
        for (uint32_t i = 0; i < 3; ++i)
        {
            proto.push_back(fabric.endpoints.Get(i)->GetObject<StProtocol>());
            proto[i]->TraceConnectWithoutContext(
                "ResolveFailed",
                Callback<void, Ipv4Address>([this](Ipv4Address) { ++unresolved; }));
        }
    }

    HarpStStar(const HarpStStar&) = delete;
    HarpStStar& operator=(const HarpStStar&) = delete;

    /// \param i an endpoint \return its IPv4 address as st_connect takes it
    std::string Host(uint32_t i) const
    {
        std::ostringstream os;
        os << ifs.GetAddress(i);
        return os.str();
    }

    /// Whether endpoint 0's HARP table holds endpoint 2's ULA.
    bool HarpHoldsPeer() const
    {
        Ptr<HarpProtocol> harp0 = fabric.endpoints.Get(0)->GetObject<HarpProtocol>();
        const std::optional<Mac48Address> held =
            harp0->Lookup(fabric.endpointDevices.Get(0), ifs.GetAddress(2));
        return held.has_value() &&
               *held == Mac48Address::ConvertFrom(fabric.endpointDevices.Get(2)->GetAddress());
    }

    GsnFabric fabric;                   ///< the star
    Ipv4InterfaceContainer ifs;         ///< the endpoints' addresses
    std::vector<Ptr<StProtocol>> proto; ///< ST on each endpoint
    uint32_t unresolved{0};             ///< ResolveFailed traces
};

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
        HarpStStar star(m_broadcast, m_wired);
        std::vector<Ptr<StProtocol>>& proto = star.proto;
        const uint32_t& unresolved = star.unresolved;

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
        Simulator::Schedule(Seconds(5), [&]() {
            proto[0]->Connect(star.ifs.GetAddress(2), 5000, recorder(0));
        });
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
        NS_TEST_ASSERT_MSG_EQ(star.HarpHoldsPeer(),
                              true,
                              "HARP's table holds the peer ST resolved");
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

/// The Bypass API's st_connect by IPv4 address, the peer resolved by HARP (a round trip to
/// the HARP server on a non-broadcast fabric) while the call waits; EHOSTUNREACH unwired.
class StBypassOverHarpTestCase : public TestCase
{
  public:
    /// \param blocking the blocking st_connect (else StBypassApi::Connect, event-driven)
    /// \param wired whether HarpHelper::ResolveStPeers wires HARP into ST
    StBypassOverHarpTestCase(bool blocking, bool wired)
        : TestCase(std::string(blocking ? "blocking st_connect" : "StBypassApi::Connect") +
                   (wired ? " resolves its peer through HARP"
                          : " answers EHOSTUNREACH without ResolveStPeers")),
          m_blocking(blocking),
          m_wired(wired)
    {
    }

  private:
    void DoRun() override
    {
        HarpStStar star(false, m_wired);
        Ptr<StBypassApi> client = star.proto[0]->GetBypass();
        Ptr<StBypassApi> server = star.proto[2]->GetBypass();
        st_chandle_t listener = nullptr;
        NS_TEST_ASSERT_MSG_EQ(server->Create(&listener), ST_OK, "st_create at the server");
        NS_TEST_ASSERT_MSG_EQ(st_listen(listener, nullptr, "5000"), ST_OK, "st_listen");
        int accepted = -1;
        server->Accept(listener, StBypassApi::DoneCallback([&accepted](int e) { accepted = e; }));
        st_chandle_t handle = nullptr;
        NS_TEST_ASSERT_MSG_EQ(client->Create(&handle), ST_OK, "st_create at the client");

        // HARP registers with its server first; nothing has resolved endpoint 2 yet.
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(star.HarpHoldsPeer(), false, "the peer is not known before");
        const Time start = Simulator::Now();
        int connected = -1;
        Time connectedAt;
        const std::string host = star.Host(2);
        if (m_blocking)
        {
            StSimulatorDriver::SetBlockingAllowed(true);
            connected = st_connect(handle, host.c_str(), "5000");
            connectedAt = Simulator::Now();
            StSimulatorDriver::SetBlockingAllowed(false);
        }
        else
        {
            client->Connect(handle, host, "5000", StBypassApi::DoneCallback([&](int e) {
                                connected = e;
                                connectedAt = Simulator::Now();
                            }));
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        if (!m_wired)
        {
            NS_TEST_EXPECT_MSG_EQ(connected, ST_EHOSTUNREACH, "no resolver: host unreachable");
            NS_TEST_EXPECT_MSG_EQ(star.unresolved, 1u, "the peer reported unresolved");
            NS_TEST_EXPECT_MSG_EQ(accepted, -1, "nothing reached the server");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(connected, ST_OK, "st_connect through a HARP-resolved peer");
        NS_TEST_EXPECT_MSG_EQ(accepted, ST_OK, "the server accepted");
        NS_TEST_EXPECT_MSG_EQ(star.unresolved, 0u, "no peer unresolved");
        NS_TEST_EXPECT_MSG_EQ(star.HarpHoldsPeer(), true, "HARP's table holds the peer");
        NS_TEST_EXPECT_MSG_GT(connectedAt, start, "resolution and RC/CA took simulated time");
        // The connection works: a NOP header reaches the server's st_rx.
        st_chandle_t conn = listener; // st_accept turned the listening handle into the connection
        st_header_t nop{};
        nop.opflags = static_cast<uint16_t>(static_cast<uint16_t>(st::StOp::Nop) << 11);
        NS_TEST_EXPECT_MSG_EQ(st_tx(handle, &nop, nullptr, 0, 0, 0), ST_OK, "st_tx NOP");
        int rx = -1;
        server->Rx(
            conn,
            Seconds(-1),
            StBypassApi::RxCallback([&rx](int e, const st_header_t&, const uint8_t*) { rx = e; }));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rx, ST_OK, "the server's st_rx got the NOP");
        Simulator::Destroy();
    }

    bool m_blocking; ///< blocking st_connect
    bool m_wired;    ///< HarpHelper::ResolveStPeers called
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
        AddTestCase(new StBypassOverHarpTestCase(false, true), TestCase::QUICK);
        AddTestCase(new StBypassOverHarpTestCase(true, true), TestCase::QUICK);
        AddTestCase(new StBypassOverHarpTestCase(false, false), TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static StOverHarpTestSuite g_stOverHarpTestSuite;
