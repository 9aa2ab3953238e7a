/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-sequence-test-suite.cc: every sequence of the source document (SEED-GSN;
 * st-protocol-reference.rst, "Sequences in short") run through StProtocol over a GSN cable, checked
 * operation by operation from what the devices put on the wire (PhyTxBegin, decoded), with the VCs:
 * connection setup and refusal, teardown, crossing RDs, write (one block, several blocks under
 * CTS_req), read, RA reject, RA pause, persistent memory (RMR/MRA, PUT, GET, FETCHOP/FC, END/EA)
 * and RS/RSR.
 */
#include "st-test-harness.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::sttest;

namespace
{

/// RC/CA then RD/DA/DC; and a refused RC.
class StConnectSequenceTest : public TestCase
{
  public:
    StConnectSequenceTest()
        : TestCase("RC CA then RD DA DC on VC 0; RC to a closed port answered CA with R")
    {
    }

  private:
    void DoRun() override
    {
        {
            StPair s;
            NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connection established");
            NS_TEST_EXPECT_MSG_EQ(s.log.Ops(), ">RC <CA", "setup on the wire");
            const st::StEvent* acc = s.FindEvent(1, st::StEventType::ConnectionEstablished);
            NS_TEST_ASSERT_MSG_NE(acc, nullptr, "responder event");
            NS_TEST_EXPECT_MSG_EQ(acc->accepted, true, "accepted flag on the listening side");
            const st::StHeader& rc = s.log.ops[0].h;
            NS_TEST_EXPECT_MSG_EQ(rc.dPort, 0, "RC goes to Port 0");
            NS_TEST_EXPECT_MSG_EQ(rc.dKey, 5000u, "RC names the listened port (ULP-Port)");
            NS_TEST_EXPECT_MSG_EQ(rc.param, 255, "255 slots advertised by default");
            NS_TEST_EXPECT_MSG_EQ(rc.bufx, 14u, "Bufsize 14 by default");
            const st::StHeader& ca = s.log.ops[1].h;
            NS_TEST_EXPECT_MSG_EQ(ca.dKey, rc.offset, "CA echoes I_Key");
            NS_TEST_EXPECT_MSG_EQ(ca.sPort, acc->localPort, "CA from the VC's own port");
            NS_TEST_EXPECT_MSG_NE(ca.sPort, 5000, "a port of its own, not the service's");
            NS_TEST_EXPECT_MSG_EQ(acc->servicePort, 5000, "accepted for service 5000");
            NS_TEST_EXPECT_MSG_EQ(s.log.ops[0].vc, 0, "RC on VC 0");
            NS_TEST_EXPECT_MSG_EQ(s.log.ops[1].vc, 0, "CA on VC 0");
            NS_TEST_EXPECT_MSG_EQ(s.proto[0]->GetPeerAddress(s.conn[0]),
                                  s.ip[1],
                                  "the initiator knows its peer's address");

            s.proto[0]->Close(s.conn[0]);
            s.Run(MicroSeconds(50));
            NS_TEST_EXPECT_MSG_EQ(s.log.Ops(), ">RC <CA >RD <DA >DC", "teardown on the wire");
            NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::ConnectionClosed),
                                  1,
                                  "initiator closed");
            NS_TEST_EXPECT_MSG_EQ(s.CountEvents(1, st::StEventType::ConnectionClosed),
                                  1,
                                  "responder closed");
            for (const auto& o : s.log.ops)
            {
                NS_TEST_EXPECT_MSG_EQ(o.vc, 0, "connection management on VC 0");
            }
        }
        {
            StPair s;
            s.proto[0]->Connect(s.ip[1], 6000, s.Recorder(0));
            s.Run(MicroSeconds(50));
            NS_TEST_EXPECT_MSG_EQ(s.log.Ops(), ">RC <CA(R)", "refusal on the wire");
            NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::ConnectionRefused),
                                  1,
                                  "initiator told");
            NS_TEST_EXPECT_MSG_EQ(s.proto[1]->GetCounters().Get(st::StRxVerdict::NoListener),
                                  1,
                                  "counted at the responder");
        }
    }
};

/// Both sides send RD at the same time.
class StCrossingRdTest : public TestCase
{
  public:
    StCrossingRdTest()
        : TestCase("crossing RDs: each side answers DA and completes with DC")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        const std::size_t mark = s.log.ops.size();
        s.proto[0]->Close(s.conn[0]);
        s.proto[1]->Close(s.conn[1]);
        s.Run(MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(s.log.OpsOf(0, mark), "RD DA DC", "node 0's teardown");
        NS_TEST_EXPECT_MSG_EQ(s.log.OpsOf(1, mark), "RD DA DC", "node 1's teardown");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark].time, s.log.ops[mark + 1].time, "the RDs crossed");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(s.CountEvents(i, st::StEventType::ConnectionClosed),
                                  1,
                                  "closed once");
            NS_TEST_EXPECT_MSG_EQ(s.proto[i]->Find(s.conn[i])->GetState(),
                                  st::StConnState::Closed,
                                  "state CLOSED");
            NS_TEST_EXPECT_MSG_EQ(s.proto[i]->GetCounters().Dropped(), 0, "nothing dropped");
        }
    }
};

/// Single-use write, one block.
class StWriteSequenceTest : public TestCase
{
  public:
    StWriteSequenceTest()
        : TestCase("write: RTS CTS DATA RSR, control on VC 0, DATA on VC 3, bytes exact")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 3000, 1);
        s.MapMemory(1, 4096, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.proto[1]->PostReceive(s.conn[1], 0, 4096);
        uint32_t tid = 0;
        const std::size_t mark = s.log.ops.size();
        NS_TEST_ASSERT_MSG_EQ(s.proto[0]->Write(s.conn[0], 0, 3000, tid),
                              st::StStatus::Ok,
                              "Write accepted");
        s.Run(MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RTS <CTS >DATA <RSR", "write sequence");
        NS_TEST_ASSERT_MSG_EQ(s.log.ops.size(), mark + 4, "four ops");
        const WireOp& rts = s.log.ops[mark];
        const WireOp& cts = s.log.ops[mark + 1];
        const WireOp& data = s.log.ops[mark + 2];
        const WireOp& rsr = s.log.ops[mark + 3];
        NS_TEST_EXPECT_MSG_EQ(rts.h.GetTLen(), 3000u, "T_len");
        NS_TEST_EXPECT_MSG_EQ(rts.h.sId, tid, "I_id");
        NS_TEST_EXPECT_MSG_EQ(rts.h.GetDataChannel(), 3, "data channel 3 announced");
        NS_TEST_EXPECT_MSG_EQ(rts.h.Has(st::StFlag::SEND_STATE), true, "S on RTS");
        NS_TEST_EXPECT_MSG_EQ(cts.h.dId, tid, "CTS names I_id");
        NS_TEST_EXPECT_MSG_EQ(data.h.dId, cts.h.sId, "DATA names R_id");
        NS_TEST_EXPECT_MSG_EQ(data.len, 3040u, "DATA carries 3000 bytes");
        NS_TEST_EXPECT_MSG_EQ(data.vc, 3, "DATA on VC 3");
        NS_TEST_EXPECT_MSG_EQ(rts.vc + cts.vc + rsr.vc, 0, "control on VC 0");
        NS_TEST_EXPECT_MSG_EQ(rsr.h.sync, data.h.sync, "RSR echoes Sync");
        NS_TEST_EXPECT_MSG_EQ(std::equal(s.mem[0].begin(), s.mem[0].end(), s.mem[1].begin()),
                              true,
                              "bytes arrived exactly");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][3000], 0, "nothing written beyond");
        const st::StEvent* src = s.FindEvent(0, st::StEventType::TransferComplete);
        const st::StEvent* dst = s.FindEvent(1, st::StEventType::TransferComplete);
        NS_TEST_ASSERT_MSG_NE(src, nullptr, "source completes");
        NS_TEST_ASSERT_MSG_NE(dst, nullptr, "destination completes");
        NS_TEST_EXPECT_MSG_EQ(dst->bytes, 3000u, "bytes");
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(1, st::StEventType::HeaderReceived),
                              1,
                              "the last STU reaches the ULP");
    }
};

/// Several blocks under CTS_req.
class StMultiBlockWriteTest : public TestCase
{
  public:
    StMultiBlockWriteTest()
        : TestCase("write of 4 blocks with CTS_req 2: never more than 2 CTS outstanding")
    {
    }

  private:
    void DoRun() override
    {
        StHelper h;
        h.SetAttribute("MaxBlock", UintegerValue(12)); // 4 KiB blocks
        h.SetAttribute("CtsReq", UintegerValue(2));
        StPair s(StPair::GSN, h);
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 16384, 3);
        s.MapMemory(1, 16384, 0);
        s.proto[1]->PostReceive(s.conn[1], 0, 16384);
        uint32_t tid = 0;
        std::vector<Time> waits;
        s.proto[0]->TraceConnectWithoutContext("CtsWait", Callback<void, Time>([&waits](Time t) {
                                                   waits.push_back(t);
                                               }));
        const std::size_t mark = s.log.ops.size();
        s.proto[0]->Write(s.conn[0], 0, 16384, tid);
        s.Run(MicroSeconds(200));
        NS_TEST_EXPECT_MSG_EQ(waits.size(), 4u, "CtsWait fired for every CTS");
        NS_TEST_EXPECT_MSG_GT(waits.front(), Time(0), "the first CTS took a round trip");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("RTS", 0), 1, "one RTS");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("CTS", 1), 4, "one CTS per block");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("DATA", 0), 4, "one DATA per 4 KiB block");
        NS_TEST_EXPECT_MSG_EQ(s.log.Count("RSR", 1), 1, "final RSR");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark + 1].h.param, 12, "Blocksize 2^12");
        // Outstanding CTSs: granted by node 1 minus blocks that arrived (DATA with L).
        int outstanding = 0;
        int maxOutstanding = 0;
        std::vector<uint32_t> blocks;
        for (std::size_t i = mark; i < s.log.ops.size(); ++i)
        {
            const WireOp& o = s.log.ops[i];
            if (o.node == 1 && o.h.op == st::StOp::Cts)
            {
                maxOutstanding = std::max(maxOutstanding, ++outstanding);
                blocks.push_back(o.h.bNum);
            }
            else if (o.node == 0 && o.h.op == st::StOp::Data && o.h.Has(st::StFlag::LAST))
            {
                --outstanding;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(maxOutstanding, 2, "CTS_req respected");
        NS_TEST_EXPECT_MSG_EQ((blocks == std::vector<uint32_t>{0, 1, 2, 3}), true, "B_num order");
        NS_TEST_EXPECT_MSG_EQ(std::equal(s.mem[0].begin(), s.mem[0].end(), s.mem[1].begin()),
                              true,
                              "bytes arrived exactly");
    }
};

/// Read: RTR, then the write sequence with roles swapped.
class StReadSequenceTest : public TestCase
{
  public:
    StReadSequenceTest()
        : TestCase("read: RTR RTS CTS DATA RSR")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 8192, 0);
        std::fill(s.mem[0].begin(), s.mem[0].end(), 0);
        s.MapMemory(1, 5000, 9);
        s.proto[1]->PostSend(s.conn[1], 0, 5000);
        uint32_t tid = 0;
        const std::size_t mark = s.log.ops.size();
        NS_TEST_ASSERT_MSG_EQ(s.proto[0]->Read(s.conn[0], 0, 5000, tid),
                              st::StStatus::Ok,
                              "Read accepted");
        s.Run(MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RTR <RTS >CTS <DATA >RSR", "read sequence");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark + 1].h.dId, tid, "RTS answers the RTR's I_id");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark + 3].vc, 3, "DATA on VC 3");
        NS_TEST_EXPECT_MSG_EQ(std::equal(s.mem[1].begin(), s.mem[1].end(), s.mem[0].begin()),
                              true,
                              "bytes arrived exactly");
        const st::StEvent* e = s.FindEvent(0, st::StEventType::TransferComplete);
        NS_TEST_ASSERT_MSG_NE(e, nullptr, "reader completes");
        NS_TEST_EXPECT_MSG_EQ(e->role, st::StRole::Destination, "as destination");
    }
};

/// RA with R: reject; RA without R: pause, then CTS once memory is posted.
class StRequestAnswerTest : public TestCase
{
  public:
    StRequestAnswerTest()
        : TestCase("RA(R) rejects an RTS larger than the posted buffer; RA pauses until memory")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 8192, 1);
        s.MapMemory(1, 8192, 0);
        s.proto[1]->PostReceive(s.conn[1], 0, 1000);
        uint32_t tid = 0;
        std::size_t mark = s.log.ops.size();
        s.proto[0]->Write(s.conn[0], 0, 2000, tid);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RTS <RA(R)", "reject");
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::TransferRejected), 1, "told");

        // The posted buffer stays posted: a write that fits takes it.
        mark = s.log.ops.size();
        s.proto[0]->Write(s.conn[0], 0, 800, tid);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RTS <CTS >DATA <RSR", "fits");

        // Nothing posted now: pause.
        mark = s.log.ops.size();
        s.proto[0]->Write(s.conn[0], 0, 2000, tid);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RTS <RA", "pause");
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::TransferPaused), 1, "told");
        s.proto[1]->PostReceive(s.conn[1], 0, 8192);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RTS <RA <CTS >DATA <RSR", "resumed");
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::TransferComplete), 2, "done");
    }
};

/// Persistent memory from RMR to END.
class StPersistentSequenceTest : public TestCase
{
  public:
    StPersistentSequenceTest()
        : TestCase("persistent memory: RMR MRA, PUT, GET, FETCHOP FC, END EA")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, 4096, 5);
        s.MapMemory(1, 4096, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.mem[1][1024 + 7] = 41; // a big-endian 64-bit word at 1024 holding 41
        s.proto[1]->ExposeRegion(s.conn[1], 0, 2048);
        uint32_t region = 0;
        std::size_t mark = s.log.ops.size();
        s.proto[0]->RequestRegion(s.conn[0], 2048, region);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RMR <MRA", "region");
        NS_TEST_ASSERT_MSG_EQ(s.CountEvents(0, st::StEventType::RegionAvailable), 1, "MRA");

        mark = s.log.ops.size();
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->Put(s.conn[0], region, 100, 0, 200),
                              st::StStatus::Ok,
                              "PUT");
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">DATA", "PUT is one DATA");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark].vc, 3, "on the data channel");
        NS_TEST_EXPECT_MSG_EQ(
            std::equal(s.mem[0].begin(), s.mem[0].begin() + 200, s.mem[1].begin() + 100),
            true,
            "PUT placed");

        uint32_t gid = 0;
        mark = s.log.ops.size();
        s.proto[0]->Get(s.conn[0], region, 100, 2048, 200, gid);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">GET <DATA", "GET");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark].h.param, 200, "GET T_len");
        NS_TEST_EXPECT_MSG_EQ(
            std::equal(s.mem[0].begin(), s.mem[0].begin() + 200, s.mem[0].begin() + 2048),
            true,
            "GET brought the bytes back");

        mark = s.log.ops.size();
        s.proto[0]->FetchOp(s.conn[0], region, 1024, 3000, st::StFetchOp::Increment, gid);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">FETCHOP <DATA >FC", "FETCHOP");
        const st::StEvent* f = s.FindEvent(0, st::StEventType::FetchOpComplete);
        NS_TEST_ASSERT_MSG_NE(f, nullptr, "old value delivered");
        NS_TEST_EXPECT_MSG_EQ(f->value, 41u, "old value");
        NS_TEST_EXPECT_MSG_EQ(s.mem[1][1024 + 7], 42, "incremented once the FC arrived");

        mark = s.log.ops.size();
        s.proto[0]->End(s.conn[0], region);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">END <EA", "END");
        NS_TEST_EXPECT_MSG_EQ(s.CountEvents(0, st::StEventType::EndComplete), 1, "EA");
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->GetCounters().Dropped() +
                                  s.proto[1]->GetCounters().Dropped(),
                              0,
                              "nothing dropped");
    }
};

/// RS/RSR in the three kinds.
class StStateSequenceTest : public TestCase
{
  public:
    StStateSequenceTest()
        : TestCase("RS RSR: slots kind, transfer kind and block kind")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        uint32_t sync = 0;
        std::size_t mark = s.log.ops.size();
        s.proto[0]->RequestState(s.conn[0], st::StStateKind::Slots, 0, 0, sync);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RS <RSR", "slots kind");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark].h.dId, st::ST_NONE32, "marked at @32");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark + 1].h.sync, sync, "Sync echoed");
        const st::StEvent* r = s.FindEvent(0, st::StEventType::StateResponse);
        NS_TEST_EXPECT_MSG_NE(r, nullptr, "the ULP gets the RSR");

        // A write still waiting for memory: the transfer kind and the block kind.
        s.MapMemory(0, 4096, 1);
        s.MapMemory(1, 4096, 0);
        uint32_t tid = 0;
        s.proto[0]->Write(s.conn[0], 0, 1000, tid);
        s.Run(MicroSeconds(50));
        mark = s.log.ops.size();
        s.proto[0]->RequestState(s.conn[0], st::StStateKind::Transfer, tid, 0, sync);
        s.proto[0]->RequestState(s.conn[0], st::StStateKind::Block, tid, 0, sync);
        s.Run(MicroSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(true, mark), ">RS >RS <RSR <RSR", "two kinds");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark].h.bNum, st::ST_NONE32, "transfer kind at @28");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark + 1].h.bNum, 0u, "block kind names block 0");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[mark + 3].h.bNum, st::ST_NONE32, "block 0 not arrived");
    }
};

} // namespace

/// The sequences of the source document, checked on the wire.
class StSequenceTestSuite : public TestSuite
{
  public:
    StSequenceTestSuite()
        : TestSuite("st-sequences", SYSTEM)
    {
        AddTestCase(new StConnectSequenceTest, TestCase::QUICK);
        AddTestCase(new StCrossingRdTest, TestCase::QUICK);
        AddTestCase(new StWriteSequenceTest, TestCase::QUICK);
        AddTestCase(new StMultiBlockWriteTest, TestCase::QUICK);
        AddTestCase(new StReadSequenceTest, TestCase::QUICK);
        AddTestCase(new StRequestAnswerTest, TestCase::QUICK);
        AddTestCase(new StPersistentSequenceTest, TestCase::QUICK);
        AddTestCase(new StStateSequenceTest, TestCase::QUICK);
    }
};

static StSequenceTestSuite g_stSequenceTestSuite; //!< registers the suite
