/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-robustness-test-suite.cc: bad frames injected raw on a GSN cable (wrong key, wrong port,
 * unknown opcode, truncated header, DATA outside its region or its mapping, FETCHOP on a
 * released region) are dropped or rejected and counted, never touch memory, and leave the
 * connection working; slot exhaustion and replenishment; END aborting a transfer in the
 * middle; a write on every data channel (whatever its VC's Message limit) completes or fails
 * with a reason, never stalls; connection keys come from ns-3's random streams.
 */
#include "st-test-harness.h"

#include <tuple>

using namespace ns3;
using namespace ns3::sttest;

namespace
{

/// Raw frames the engine must refuse.
class StBadFrameTest : public TestCase
{
  public:
    StBadFrameTest()
        : TestCase("wrong key, wrong port, unknown op, truncated, DATA outside its region, "
                   "FETCHOP on a released region: counted, memory and connection intact")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 4096, 1);
        s.MapMemory(1, 4096, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        std::vector<st::StRxVerdict> drops;
        s.proto[1]->TraceConnectWithoutContext(
            "RxDrop",
            Callback<void, Ptr<const Packet>, st::StRxVerdict>(
                [&drops](Ptr<const Packet>, st::StRxVerdict v) { drops.push_back(v); }));

        // Two regions of node 1: one stays exposed, one is released with END.
        s.proto[1]->ExposeRegion(s.conn[1], 0, 1024);
        s.proto[1]->ExposeRegion(s.conn[1], 2048, 1024);
        uint32_t keep = 0;
        uint32_t gone = 0;
        s.proto[0]->RequestRegion(s.conn[0], 1024, keep);
        s.proto[0]->RequestRegion(s.conn[0], 1024, gone);
        s.Run(MicroSeconds(50));
        const WireOp* mraKeep = nullptr;
        const WireOp* mraGone = nullptr;
        for (const auto& o : s.log.ops)
        {
            if (o.h.op == st::StOp::Mra)
            {
                (o.h.dId == keep ? mraKeep : mraGone) = &o;
            }
        }
        NS_TEST_ASSERT_MSG_NE(mraKeep, nullptr, "first region available");
        NS_TEST_ASSERT_MSG_NE(mraGone, nullptr, "second region available");
        const st::StHeader keepMra = mraKeep->h;
        const st::StHeader goneMra = mraGone->h;
        s.proto[0]->End(s.conn[0], gone);
        s.Run(MicroSeconds(50));
        NS_TEST_ASSERT_MSG_EQ(s.CountEvents(0, st::StEventType::EndComplete), 1, "released");

        const uint64_t before = s.proto[1]->GetCounters().Get(st::StStat::RxFrames);
        const std::size_t mark = s.log.ops.size();
        std::vector<uint8_t> payload(16, 0xEE);

        st::StHeader h = s.Header(0, st::StOp::Rs);
        h.dId = st::ST_NONE32;
        h.dKey ^= 0x5A5A5A5A; // wrong key
        s.Inject(0, StPair::Encode(h));
        h = s.Header(0, st::StOp::Rs);
        h.dId = st::ST_NONE32;
        h.dPort += 1; // wrong port
        s.Inject(0, StPair::Encode(h));
        h = s.Header(0, st::StOp::Rs);
        h.op = static_cast<st::StOp>(0x11); // unused opcode
        s.Inject(0, StPair::Encode(h));
        std::vector<uint8_t> truncated = StPair::Encode(s.Header(0, st::StOp::Rs));
        truncated.resize(20);
        s.Inject(0, truncated);

        // DATA for the kept region, past its end.
        h = s.Header(0, st::StOp::Data);
        h.flags = 3;
        h.mx = keepMra.mx;
        h.bufx = keepMra.bufx;
        h.offset = keepMra.offset + 1024 - 8;
        h.dId = keepMra.sId; // R_id
        h.sId = keep;
        s.Inject(0, StPair::Encode(h, payload), 3);
        // DATA inside the kept region but naming an Mx nobody mapped.
        h.offset = keepMra.offset;
        h.mx = static_cast<uint16_t>(keepMra.mx + 7);
        s.Inject(0, StPair::Encode(h, payload), 3);

        // FETCHOP on the released region.
        h = s.Header(0, st::StOp::Get);
        h.SetFetchOp(st::StFetchOp::Increment);
        h.param = 8;
        h.mx = 1;
        h.bufx = goneMra.bufx;
        h.offset = goneMra.offset;
        h.sync = 0;
        h.bNum = 3000;
        h.dId = goneMra.sId; // the released R_id
        h.sId = 0x777;
        s.Inject(0, StPair::Encode(h));
        s.Run(MicroSeconds(50));

        const st::StCounters& c = s.proto[1]->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StStat::RxFrames) - before, 7, "seven frames arrived");
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StRxVerdict::UnknownKey), 1, "wrong key counted");
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StRxVerdict::WrongPort), 1, "wrong port counted");
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StRxVerdict::UnknownOp), 1, "unknown op counted");
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StRxVerdict::Truncated), 1, "truncated counted");
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StRxVerdict::OutsideExposure), 1, "outside region");
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StRxVerdict::OutsideMapping), 1, "outside mapping");
        NS_TEST_EXPECT_MSG_EQ(c.Get(st::StRxVerdict::UnknownTransfer), 1, "released region");
        NS_TEST_EXPECT_MSG_EQ(drops.size(), 7, "RxDrop fired for every refused frame");
        // (DATA went on VC 3 and the rest on VC 0: their order on the wire interleaves.)
        NS_TEST_EXPECT_MSG_EQ(s.log.ops.size() - mark, 8, "seven frames and one answer");
        NS_TEST_EXPECT_MSG_EQ(s.log.OpsOf(1, mark),
                              "RA(R)",
                              "only the FETCHOP is answered: reject");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops.back().h.dId, 0x777u, "the RA names the FETCHOP's G_id");
        bool untouched = true;
        for (uint8_t b : s.mem[1])
        {
            untouched = untouched && b == 0;
        }
        NS_TEST_EXPECT_MSG_EQ(untouched, true, "no byte of node 1's memory was written");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(s.proto[i]->Find(s.conn[i])->GetState(),
                                  st::StConnState::Connected,
                                  "still connected");
        }

        // The connection still works: a PUT into the kept region lands.
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->Put(s.conn[0], keep, 8, 0, 100), st::StStatus::Ok, "PUT");
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(
            std::equal(s.mem[0].begin(), s.mem[0].begin() + 100, s.mem[1].begin() + 8),
            true,
            "PUT placed after the bad frames");
    }
};

/// Few slots: the sender stalls, asks with RS, and goes on when RSR returns slots.
class StSlotTest : public TestCase
{
  public:
    StSlotTest()
        : TestCase("slot exhaustion and replenishment: 40 GETs against 8 slots")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        s.proto[1]->SetAttribute("Slots", UintegerValue(8));
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        uint64_t stalls = 0;
        s.proto[0]->TraceConnectWithoutContext(
            "SlotStall",
            Callback<void, uint64_t>([&stalls](uint64_t n) { stalls = n; }));
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->Find(s.conn[0])->GetRemoteSlots(), 8, "8 advertised");
        s.MapMemory(0, 8192, 0);
        s.MapMemory(1, 4096, 4);
        s.proto[1]->ExposeRegion(s.conn[1], 0, 4096);
        uint32_t region = 0;
        s.proto[0]->RequestRegion(s.conn[0], 4096, region);
        s.Run(MicroSeconds(50));
        const std::size_t mark = s.log.ops.size();
        for (uint32_t k = 0; k < 40; ++k)
        {
            uint32_t gid = 0;
            NS_TEST_ASSERT_MSG_EQ(
                s.proto[0]->Get(s.conn[0], region, k * 64, 4096 + k * 64, 64, gid),
                st::StStatus::Ok,
                "GET queued");
        }
        NS_TEST_EXPECT_MSG_GT(s.proto[0]->Find(s.conn[0])->GetBlockedCount(), 0, "blocked");
        s.Run(MilliSeconds(5));
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::GetComplete), 40, "all GETs");
        NS_TEST_EXPECT_MSG_GT(stalls, 0, "SlotStall fired");
        NS_TEST_EXPECT_MSG_GT(s.log.Count("RS", 0), 0, "RS asked for slots");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("RSR", 1), s.log.Count("RS", 0), "each RS answered");
        NS_TEST_EXPECT_MSG_EQ(s.proto[1]->GetCounters().Get(st::StRxVerdict::SlotOverrun),
                              0,
                              "never more than advertised");
        // Headers that take a slot, sent by node 0 between two RSRs: never more than 8.
        int used = 0;
        int maxUsed = 0;
        for (std::size_t i = mark; i < s.log.ops.size(); ++i)
        {
            const WireOp& o = s.log.ops[i];
            if (o.node == 0 && o.h.UsesSlot(false))
            {
                maxUsed = std::max(maxUsed, ++used);
            }
            else if (o.node == 1 && o.h.op == st::StOp::Rsr)
            {
                used -= o.h.param; // R_Slots freed since the last RSR
            }
        }
        NS_TEST_EXPECT_MSG_LT_OR_EQ(maxUsed, 8, "slots in use never above 8");
        NS_TEST_EXPECT_MSG_EQ(
            std::equal(s.mem[1].begin(), s.mem[1].begin() + 2560, s.mem[0].begin() + 4096),
            true,
            "GET data exact");
    }
};

/// END from the source after a few blocks of a write.
class StEndAbortTest : public TestCase
{
  public:
    StEndAbortTest()
        : TestCase("END aborts a write in the middle; EA; both sides told; next write works")
    {
    }

  private:
    void DoRun() override
    {
        StHelper h;
        h.SetAttribute("MaxBlock", UintegerValue(12)); // 4 KiB blocks
        h.SetAttribute("CtsReq", UintegerValue(1));    // one block per round trip
        StPair s(StPair::GSN, h);
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 65536, 2);
        s.MapMemory(1, 65536, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.proto[1]->PostReceive(s.conn[1], 0, 65536);
        uint32_t tid = 0;
        int dataSent = 0;
        Ptr<StProtocol> src = s.proto[0];
        const st::StConnId conn = s.conn[0];
        src->TraceConnectWithoutContext(
            "TxOp",
            Callback<void, const st::StHeader&, uint32_t>(
                [&dataSent, &tid, src, conn](const st::StHeader& h, uint32_t) {
                    if (h.op == st::StOp::Data && ++dataSent == 3)
                    {
                        Simulator::ScheduleNow([src, conn, &tid]() { src->End(conn, tid); });
                    }
                }));
        s.proto[0]->Write(s.conn[0], 0, 65536, tid);
        s.Run(MicroSeconds(500));
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("END", 0), 1, "END sent");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("EA", 1), 1, "EA answered");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("DATA", 0), 3, "no DATA after the END");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("RSR", 1), 0, "the transfer never completed");
        const st::StEvent* a0 = s.FindEvent(0, st::StEventType::TransferAborted);
        const st::StEvent* a1 = s.FindEvent(1, st::StEventType::TransferAborted);
        NS_TEST_ASSERT_MSG_NE(a0, nullptr, "source told");
        NS_TEST_ASSERT_MSG_NE(a1, nullptr, "destination told");
        NS_TEST_EXPECT_MSG_EQ(a1->reason, st::StReason::Peer, "by the peer");
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(1, st::StEventType::TransferComplete), 0, "aborted");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][3 * 4096], 0, "block 3 never written");

        // The connection goes on.
        s.proto[1]->PostReceive(s.conn[1], 0, 65536);
        s.proto[0]->Write(s.conn[0], 0, 8192, tid);
        s.Run(MicroSeconds(500));
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(1, st::StEventType::TransferComplete), 1, "next write");
        NS_TEST_EXPECT_MSG_EQ(
            std::equal(s.mem[0].begin(), s.mem[0].begin() + 8192, s.mem[1].begin()),
            true,
            "bytes exact");
    }
};

/**
 * A 1 MiB write on data channel \p vc over GSN, with Bufx entries of 2^bufsize bytes: the
 * STUs must fit the VC's Message limit (MaxMessageBytesVc*, VC 0 4 KiB and VCs 1-2 128 KiB by
 * default), or the connection is refused with a reason. Either way it ends within a bounded
 * simulated time: a device refusing every DATA must not leave the transfer hanging.
 */
class StDataChannelTest : public TestCase
{
  public:
    /// \param vc data channel \param bufsize log2 of a Bufx \param vcLimit M_len limit to
    /// give the VC (0: the device's default) \param expectRefused the limit is too small
    StDataChannelTest(uint8_t vc, uint8_t bufsize, uint64_t vcLimit, bool expectRefused)
        : TestCase("1 MiB write on data channel " + std::to_string(vc) + " (Bufsize " +
                   std::to_string(bufsize) +
                   (vcLimit != 0 ? ", Message limit " + std::to_string(vcLimit) : "") + ") " +
                   (expectRefused ? "refused with a reason" : "completes")),
          m_vc(vc),
          m_bufsize(bufsize),
          m_vcLimit(vcLimit),
          m_expectRefused(expectRefused)
    {
    }

  private:
    void DoRun() override
    {
        StHelper st;
        st.SetAttribute("DataVc", UintegerValue(m_vc));
        st.SetAttribute("Bufsize", UintegerValue(m_bufsize));
        StPair s(StPair::GSN, st);
        if (m_vcLimit != 0)
        {
            for (uint32_t i = 0; i < 2; ++i)
            {
                s.devs.Get(i)->SetAttribute("MaxMessageBytesVc" + std::to_string(m_vc),
                                            UintegerValue(m_vcLimit));
            }
        }
        const uint64_t bytes = 1 << 20;
        s.proto[1]->Listen(5000, s.Recorder(1));
        const st::StStatus connected = s.proto[0]->Connect(s.ip[1], 5000, s.Recorder(0));
        s.Run(MicroSeconds(50));
        if (m_expectRefused)
        {
            NS_TEST_EXPECT_MSG_EQ(connected,
                                  st::StStatus::ChannelTooSmall,
                                  "Connect says why at once");
            NS_TEST_EXPECT_MSG_EQ(s.conn[0], 0, "no connection");
            NS_TEST_EXPECT_MSG_EQ(s.log.ops.size(), 0, "nothing sent");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(connected, st::StStatus::Ok, "Connect");
        NS_TEST_ASSERT_MSG_EQ((s.conn[0] != 0 && s.conn[1] != 0), true, "connected");
        s.MapMemory(0, bytes, 1);
        s.MapMemory(1, bytes, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.proto[1]->PostReceive(s.conn[1], 0, bytes);
        uint32_t tid = 0;
        NS_TEST_ASSERT_MSG_EQ(s.proto[0]->Write(s.conn[0], 0, bytes, tid),
                              st::StStatus::Ok,
                              "Write accepted");
        s.Run(MilliSeconds(20)); // about 1.4 ms at the link's rate
        const bool done = s.CountEvents(0, st::StEventType::TransferComplete) == 1 &&
                          s.CountEvents(1, st::StEventType::TransferComplete) == 1;
        const bool failed = s.CountEvents(0, st::StEventType::ConnectionClosed) +
                                s.CountEvents(0, st::StEventType::TransferAborted) +
                                s.CountEvents(0, st::StEventType::TransferRejected) >
                            0;
        NS_TEST_ASSERT_MSG_EQ((done || failed), true, "the write ended (it did not hang)");
        NS_TEST_EXPECT_MSG_EQ(done, true, "the write completed");
        NS_TEST_EXPECT_MSG_EQ(std::equal(s.mem[0].begin(), s.mem[0].end(), s.mem[1].begin()),
                              true,
                              "bytes exact");
        Ptr<GsnNetDevice> dev = DynamicCast<GsnNetDevice>(s.devs.Get(0));
        uint32_t stu = 0;
        for (const auto& o : s.log.ops)
        {
            if (o.h.op == st::StOp::Data)
            {
                NS_TEST_EXPECT_MSG_EQ(o.vc, m_vc, "DATA on its data channel");
                NS_TEST_EXPECT_MSG_EQ(dev->CarriesOnVc(o.len, m_vc), true, "DATA fits its VC");
                stu = std::max(stu, o.len - 40);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->GetAdapterCounters().txRefused,
                              0,
                              "no DATA refused by the device");
        // The largest power of two that fits, or the Bufx when smaller.
        uint32_t expect = 1u << m_bufsize;
        while (!dev->CarriesOnVc(40 + expect, m_vc))
        {
            expect >>= 1;
        }
        NS_TEST_EXPECT_MSG_EQ(stu, expect, "STU as large as the VC allows");
    }

    uint8_t m_vc;         ///< data channel
    uint8_t m_bufsize;    ///< log2 Bufx
    uint64_t m_vcLimit;   ///< Message limit given to the VC (0: default)
    bool m_expectRefused; ///< the connection cannot be made
};

/**
 * Connection keys come from ns-3's random number streams: two nodes do not draw the same
 * keys; with the streams fixed (StHelper::AssignStreams, since automatic stream numbers keep
 * growing within one process) the same seed and run give the same keys, another run others.
 */
class StKeyTest : public TestCase
{
  public:
    StKeyTest()
        : TestCase("keys: random per node, reproducible for a seed and run, AssignStreams")
    {
    }

  private:
    /// Keys of both sides of a connection made with \p run (\p stream >= 0: AssignStreams).
    std::tuple<uint32_t, uint32_t> Keys(uint64_t run, int64_t stream = -1)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(run);
        CreateObject<UniformRandomVariable>(); // moves automatic streams, not fixed ones
        StPair s;
        if (stream >= 0)
        {
            NS_TEST_EXPECT_MSG_EQ(StHelper::AssignStreams(s.nodes, stream), 2, "two streams");
        }
        if (!s.Connect())
        {
            return {0, 0};
        }
        return {s.proto[0]->Find(s.conn[0])->GetLocalKey(),
                s.proto[1]->Find(s.conn[1])->GetLocalKey()};
    }

    void DoRun() override
    {
        const uint32_t seed = RngSeedManager::GetSeed();
        const uint64_t run = RngSeedManager::GetRun();
        const auto automatic = Keys(1);
        NS_TEST_ASSERT_MSG_NE(std::get<0>(automatic), 0, "connected");
        NS_TEST_EXPECT_MSG_NE(std::get<0>(automatic),
                              std::get<1>(automatic),
                              "each node its own key");
        const auto first = Keys(1, 100);
        NS_TEST_EXPECT_MSG_NE(std::get<0>(first), std::get<1>(first), "each node its own key");
        NS_TEST_EXPECT_MSG_EQ((Keys(1, 100) == first), true, "same seed and run: same keys");
        const auto other = Keys(2, 100);
        NS_TEST_EXPECT_MSG_NE(std::get<0>(other), std::get<0>(first), "another run: other keys");
        NS_TEST_EXPECT_MSG_NE(std::get<1>(other), std::get<1>(first), "another run: other keys");
        RngSeedManager::SetSeed(seed);
        RngSeedManager::SetRun(run);
    }
};

} // namespace

/// Bad frames, slots, END.
class StRobustnessTestSuite : public TestSuite
{
  public:
    StRobustnessTestSuite()
        : TestSuite("st-robustness", SYSTEM)
    {
        AddTestCase(new StBadFrameTest, TestCase::QUICK);
        AddTestCase(new StSlotTest, TestCase::QUICK);
        AddTestCase(new StEndAbortTest, TestCase::QUICK);
        for (uint8_t vc = 0; vc < 4; ++vc)
        {
            AddTestCase(new StDataChannelTest(vc, 14, 0, false), TestCase::QUICK);
            AddTestCase(new StDataChannelTest(vc, 17, 0, false), TestCase::QUICK);
        }
        AddTestCase(new StDataChannelTest(2, 14, 200, true), TestCase::QUICK);
        AddTestCase(new StKeyTest, TestCase::QUICK);
    }
};

static StRobustnessTestSuite g_stRobustnessTestSuite; //!< registers the suite
