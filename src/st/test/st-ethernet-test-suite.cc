/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-ethernet-test-suite.cc: ST over Ethernet (ns-3 CSMA): EtherType 0x8181 right after the
 * MAC header, STUs no larger than the MTU allows, DATA shorter than the Ethernet minimum
 * delimited exactly (802.3 length + LLC/SNAP), FETCHOP atomic when the FC is lost (a
 * ReceiveListErrorModel drops it), and peers resolved through the node's ARP cache.
 */
#include "st-test-harness.h"

#include "ns3/internet-module.h"

using namespace ns3;
using namespace ns3::sttest;

namespace
{

/// A write over CSMA, tiled to the MTU.
class StEthernetWriteTest : public TestCase
{
  public:
    StEthernetWriteTest()
        : TestCase("write over CSMA: Ethernet II 0x8181, STUs of 1 KiB (MTU 1500), bytes exact")
    {
    }

  private:
    void DoRun() override
    {
        StPair s(StPair::CSMA);
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->Find(s.conn[0])->GetRemoteMaxStu(),
                              10,
                              "Max_STU fits the 1500-byte MTU");
        s.MapMemory(0, 5000, 1);
        s.MapMemory(1, 8192, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.proto[1]->PostReceive(s.conn[1], 0, 8192);
        uint32_t tid = 0;
        const std::size_t mark = s.log.ops.size();
        s.proto[0]->Write(s.conn[0], 0, 5000, tid);
        s.Run(MilliSeconds(5));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(false, mark), ">RTS <CTS <RSR", "control ops");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("DATA", 0), 5, "5000 bytes in 1 KiB STUs");
        uint32_t largest = 0;
        bool anyLlc = false;
        for (const auto& o : s.log.ops)
        {
            largest = std::max(largest, o.len);
            anyLlc = anyLlc || o.llc;
        }
        NS_TEST_EXPECT_MSG_EQ(largest, 40u + 1024u, "no frame above the MTU");
        NS_TEST_EXPECT_MSG_EQ(anyLlc, false, "all Ethernet II");
        NS_TEST_EXPECT_MSG_EQ(std::equal(s.mem[0].begin(), s.mem[0].end(), s.mem[1].begin()),
                              true,
                              "bytes exact");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][5000], 0, "nothing beyond");
        NS_TEST_EXPECT_MSG_EQ(s.log.notSt, 0, "no other traffic");
    }
};

/// A PUT of 3 bytes: its frame would be padded to 46 bytes.
class StEthernetShortDataTest : public TestCase
{
  public:
    StEthernetShortDataTest()
        : TestCase("a 3-byte PUT over CSMA is delimited by an 802.3 length and LLC-SNAP: "
                   "exactly 3 bytes land; control ops tolerate padding")
    {
    }

  private:
    void DoRun() override
    {
        StPair s(StPair::CSMA);
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 1024, 7);
        s.MapMemory(1, 1024, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.proto[1]->ExposeRegion(s.conn[1], 0, 16);
        uint32_t region = 0;
        s.proto[0]->RequestRegion(s.conn[0], 16, region);
        s.Run(MilliSeconds(1));
        const std::size_t mark = s.log.ops.size();
        NS_TEST_ASSERT_MSG_EQ(s.proto[0]->Put(s.conn[0], region, 13, 0, 3),
                              st::StStatus::Ok,
                              "PUT at the end of the region");
        s.Run(MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(s.log.ops.size(), mark + 1, "one frame");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark].llc, true, "LLC/SNAP framing");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark].len, 43u, "exact length on the wire");
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->GetAdapterCounters().txLlcFramed, 1, "counted");
        NS_TEST_EXPECT_MSG_EQ(s.proto[1]->GetCounters().Dropped(), 0, "accepted");
        NS_TEST_EXPECT_MSG_EQ(
            std::equal(s.mem[0].begin(), s.mem[0].begin() + 3, s.mem[1].begin() + 13),
            true,
            "the 3 bytes landed");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][16] + s.mem[1][17] + s.mem[1][18], 0, "not 6");
        bool controlPadded = false;
        for (const auto& o : s.log.ops)
        {
            controlPadded = controlPadded || (o.h.op == st::StOp::Rmr && o.len == 46);
        }
        NS_TEST_EXPECT_MSG_EQ(controlPadded, true, "RMR went padded to 46 bytes, and worked");
    }
};

/// FETCHOP whose FC the responder never sees the first time.
class StFetchOpLostFcTest : public TestCase
{
  public:
    StFetchOpLostFcTest()
        : TestCase("FETCHOP stays atomic when the FC is lost on Ethernet: DATA resent, FC "
                   "again, the word incremented once")
    {
    }

  private:
    void DoRun() override
    {
        StPair s(StPair::CSMA);
        // Frames node 1 receives: RC, RMR, FETCHOP, FC: the FC has receive index 3 (the
        // model counts from 0). The log below checks that the frame dropped was the FC.
        Ptr<ReceiveListErrorModel> em = CreateObject<ReceiveListErrorModel>();
        em->SetList({3});
        s.devs.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 1024, 0);
        s.MapMemory(1, 1024, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.mem[1][7] = 9; // big-endian 64-bit word at 0 holding 9
        s.proto[1]->ExposeRegion(s.conn[1], 0, 64);
        uint32_t region = 0;
        s.proto[0]->RequestRegion(s.conn[0], 64, region);
        s.Run(MilliSeconds(1));
        uint32_t gid = 0;
        std::vector<std::string> retries;
        s.proto[1]->TraceConnectWithoutContext(
            "Retry",
            Callback<void, const st::StHeader&, uint32_t>(
                [&retries](const st::StHeader& h, uint32_t) { retries.push_back(h.Name()); }));
        const std::size_t mark = s.log.ops.size();
        s.proto[0]->FetchOp(s.conn[0], region, 0, 512, st::StFetchOp::Increment, gid);
        s.Run(MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">FETCHOP <DATA >FCx", "the FC was lost");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][7], 9, "not applied without its FC");
        s.Run(Seconds(2)); // the responder's FETCHOP timeout (1 s) passes
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark),
                              ">FETCHOP <DATA >FCx <DATA >FC",
                              "DATA resent, FC again");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][7], 10, "incremented exactly once");
        NS_TEST_EXPECT_MSG_EQ(retries.size(), 1u, "Retry fired once at the responder");
        NS_TEST_EXPECT_MSG_EQ((retries.size() == 1 && retries[0] == "DATA"), true, "for the DATA");
        NS_TEST_EXPECT_MSG_EQ(s.proto[1]->GetCounters().Get(st::StStat::FetchOpResends),
                              1,
                              "one resend");
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->GetCounters().Get(st::StRxVerdict::Duplicate),
                              1,
                              "the initiator saw the resent DATA as a duplicate");
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::FetchOpComplete),
                              1,
                              "the old value delivered once");
        NS_TEST_EXPECT_MSG_EQ(s.FindEvent(0, st::StEventType::FetchOpComplete)->value,
                              9u,
                              "old value");
        NS_TEST_EXPECT_MSG_EQ(em->GetList().size(), 1, "the error model was used");

        // The next FETCHOP sees the single increment.
        s.proto[0]->FetchOp(s.conn[0], region, 0, 520, st::StFetchOp::Increment, gid);
        s.Run(MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::FetchOpComplete),
                              2,
                              "second FETCHOP completes");
        uint64_t second = 0;
        for (const auto& e : s.ev[0])
        {
            second = e.type == st::StEventType::FetchOpComplete ? e.value : second;
        }
        NS_TEST_EXPECT_MSG_EQ(second, 10u, "it sees 10");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][7], 11, "11 after two increments");
    }
};

/// Peers found through the IPv4 stack's ARP cache, no static table.
class StArpResolveTest : public TestCase
{
  public:
    StArpResolveTest()
        : TestCase("Connect resolves the peer through the node's ARP cache (NeighborCacheHelper); "
                   "an unknown address is refused")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        CsmaHelper csma;
        NetDeviceContainer devs = csma.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper ipv4("10.2.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ipv4.Assign(devs);
        NeighborCacheHelper neighbors;
        neighbors.PopulateNeighborCache();
        StHelper st;
        st.Install(nodes);
        Ptr<StProtocol> a = nodes.Get(0)->GetObject<StProtocol>();
        Ptr<StProtocol> b = nodes.Get(1)->GetObject<StProtocol>();
        NS_TEST_EXPECT_MSG_EQ(b->GetLocalAddress(), ifs.GetAddress(1), "ST uses the IP address");
        int established = 0;
        int refused = 0;
        auto cb = StProtocol::EventCallback([&](const st::StEvent& e) {
            established += e.type == st::StEventType::ConnectionEstablished;
            refused += e.type == st::StEventType::ConnectionRefused;
        });
        b->Listen(7000, cb);
        a->Connect(ifs.GetAddress(1), 7000, cb);
        a->Connect(Ipv4Address("10.2.0.99"), 7000, cb);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(established, 2, "both ends connected");
        const std::vector<st::StConnId> accepted = b->GetEndpoint().GetConnections();
        NS_TEST_ASSERT_MSG_EQ(accepted.size(), 1u, "one connection at the responder");
        NS_TEST_EXPECT_MSG_EQ(b->GetPeerAddress(accepted[0]),
                              ifs.GetAddress(0),
                              "the responder finds its peer's address in the ARP cache");
        NS_TEST_EXPECT_MSG_EQ(refused, 1, "the unknown address refused");
        NS_TEST_EXPECT_MSG_EQ(a->GetAdapterCounters().resolveFailed, 1, "counted");
        Simulator::Destroy();
    }
};

/// A resolver that answers later, as HARP would.
class StAsyncResolverTest : public TestCase
{
  public:
    StAsyncResolverTest()
        : TestCase("an asynchronous resolver (HARP's shape) is used when set: RC waits for it")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        Address mac1 = s.devs.Get(1)->GetAddress();
        int asked = 0;
        s.proto[0]->SetAsyncResolver(StProtocol::AsyncResolver(
            [&asked, mac1](Ptr<NetDevice>, Ipv4Address, StProtocol::ResolveDone done) {
                ++asked;
                Simulator::Schedule(MicroSeconds(30), [done, mac1]() { done(true, mac1); });
            }));
        s.proto[1]->Listen(5000, s.Recorder(1));
        st::StConnId id = 99;
        s.proto[0]->Connect(s.ip[1], 5000, s.Recorder(0), &id);
        NS_TEST_EXPECT_MSG_EQ(id, 0u, "no connection while resolving");
        s.Run(MicroSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(s.log.ops.size(), 0, "nothing sent before the answer");
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(asked, 1, "asked once");
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(), ">RC <CA", "connected after the answer");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(s.log.ops[0].time, MicroSeconds(30), "RC after 30 us");
    }
};

} // namespace

/// ST over Ethernet and address resolution.
class StEthernetTestSuite : public TestSuite
{
  public:
    StEthernetTestSuite()
        : TestSuite("st-ethernet", SYSTEM)
    {
        AddTestCase(new StEthernetWriteTest, TestCase::QUICK);
        AddTestCase(new StEthernetShortDataTest, TestCase::QUICK);
        AddTestCase(new StFetchOpLostFcTest, TestCase::QUICK);
        AddTestCase(new StArpResolveTest, TestCase::QUICK);
        AddTestCase(new StAsyncResolverTest, TestCase::QUICK);
    }
};

static StEthernetTestSuite g_stEthernetTestSuite; //!< registers the suite
