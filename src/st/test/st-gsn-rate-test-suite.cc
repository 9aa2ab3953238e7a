/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-gsn-rate-test-suite.cc: an ST write of 1 MiB and more over one GSN cable (GsnHelper,
 * back to back) reaches at least 99% of the link's payload rate for its Message size:
 * 6.4 Gbit/s x STU bytes / (32 x micropackets of one DATA Message), where a DATA Message is
 * M_len(4) D_ULA(6) S_ULA(6) LLC/SNAP(8) + the 40-byte ST header + the STU. The rate is
 * measured from the Write call to the TransferComplete of the destination (RTS, CTS and
 * the pipeline fill included), in simulated time: the assertion is on the model, not on
 * the machine.
 */
#include "st-test-harness.h"

#include <cmath>

using namespace ns3;
using namespace ns3::sttest;

namespace
{

/// Bytes in front of an ST DATA's STU in a GSN Message: addressing, LLC/SNAP, ST header.
constexpr uint32_t DATA_MESSAGE_OVERHEAD = 16 + 8 + 40;

/// One write of \p bytes, and its rate against the analytic payload rate.
class StGsnRateTest : public TestCase
{
  public:
    /// \param bytes transfer size
    explicit StGsnRateTest(uint64_t bytes)
        : TestCase("ST write of " + std::to_string(bytes >> 10) +
                   " KiB over one GSN link reaches 99% of the payload rate of its Message size"),
          m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        NS_TEST_ASSERT_MSG_EQ(s.Connect(), true, "connected");
        s.MapMemory(0, m_bytes, 1);
        s.MapMemory(1, m_bytes, 0);
        std::fill(s.mem[1].begin(), s.mem[1].end(), 0);
        s.proto[1]->PostReceive(s.conn[1], 0, m_bytes);
        Time done;
        s.hook[1] = [&done](const st::StEvent& e) {
            if (e.type == st::StEventType::TransferComplete)
            {
                done = Simulator::Now();
            }
        };
        const Time start = Simulator::Now();
        uint32_t tid = 0;
        NS_TEST_ASSERT_MSG_EQ(s.proto[0]->Write(s.conn[0], 0, m_bytes, tid),
                              st::StStatus::Ok,
                              "Write accepted");
        s.Run(MilliSeconds(1) + NanoSeconds(static_cast<int64_t>(m_bytes * 8 / 5.0))); // > 5 Gbit/s
        NS_TEST_ASSERT_MSG_GT(done, start, "the destination completed");
        NS_TEST_EXPECT_MSG_EQ(std::equal(s.mem[0].begin(), s.mem[0].end(), s.mem[1].begin()),
                              true,
                              "bytes arrived exactly");

        uint32_t stu = 0;
        uint64_t dataOps = 0;
        for (const auto& o : s.log.ops)
        {
            if (o.h.op == st::StOp::Data)
            {
                stu = std::max(stu, o.len - 40);
                ++dataOps;
            }
        }
        const double micropackets = std::ceil((DATA_MESSAGE_OVERHEAD + stu) / 32.0);
        const double analytic = 6.4e9 * stu / (32.0 * micropackets);
        const double measured = m_bytes * 8.0 / (done - start).GetSeconds();
        std::ostringstream report;
        report << "ST write " << m_bytes << " bytes: " << dataOps << " DATA of " << stu
               << " bytes (" << micropackets << " micropackets each), "
               << (done - start).As(Time::US) << ", " << measured / 1e9
               << " Gbit/s = " << 100.0 * measured / analytic << "% of the analytic "
               << analytic / 1e9 << " Gbit/s";
        std::clog << report.str() << std::endl;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(measured, 0.99 * analytic, report.str());
        NS_TEST_EXPECT_MSG_EQ(s.proto[0]->GetAdapterCounters().txRefused, 0, "no frame refused");
    }

    uint64_t m_bytes; ///< transfer size
};

} // namespace

/// ST write throughput over one GSN link.
class StGsnRateTestSuite : public TestSuite
{
  public:
    StGsnRateTestSuite()
        : TestSuite("st-gsn-rate", SYSTEM)
    {
        AddTestCase(new StGsnRateTest(1 << 20), TestCase::QUICK);
        AddTestCase(new StGsnRateTest(16 << 20), TestCase::EXTENSIVE);
    }
};

static StGsnRateTestSuite g_stGsnRateTestSuite; //!< registers the suite
