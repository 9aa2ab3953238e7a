/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of what the run mode keeps of the micropackets it sends: a run's RSEQs amended
 * while it is on the wire, runs that keep following micropackets as a count, and the
 * retransmission buffer, each against a list that stores every micropacket.
 */
#include "gsn-micropacket-test-util.h"

#include "ns3/gsn-message-segmenter.h"
#include "ns3/gsn-micropacket-run.h"
#include "ns3/gsn-micropacket.h"
#include "ns3/gsn-retransmit-buffer.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

using namespace ns3;
using gsntest::MakeMessage;
using gsntest::Segment;

/// A run's amended RSEQs (ExactCredits): each micropacket carries the newest amendment at or
/// before it, or the RSEQ it was chosen with; the arrival time of each micropacket.
class GsnRunRseqTestCase : public TestCase
{
  public:
    GsnRunRseqTestCase()
        : TestCase("Run: amended RSEQs and arrival times of its micropackets")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<GsnMicropacketRun> run = Create<GsnMicropacketRun>();
        run->micropackets.resize(10);
        run->firstArrival = NanoSeconds(1000);
        NS_TEST_ASSERT_MSG_EQ(run->RseqOf(0, 7), 7, "no amendment: as chosen");
        NS_TEST_ASSERT_MSG_EQ(run->RseqOf(9, 7), 7, "no amendment: as chosen (last)");
        // Amendments increase in k and in RSEQ; the RSEQ wraps at 256.
        run->AmendRseqFrom(2, 250);
        run->AmendRseqFrom(5, 255);
        run->AmendRseqFrom(6, 3);
        const uint8_t chosen = 240;
        const std::array<uint8_t, 10> expected{240, 240, 250, 250, 250, 255, 3, 3, 3, 3};
        for (std::size_t k = 0; k < expected.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(run->RseqOf(k, chosen)),
                                  unsigned(expected[k]),
                                  "micropacket " << k << " carries the newest amendment");
        }
        NS_TEST_ASSERT_MSG_EQ(run->laterRseq.size(), 3u, "three amendments, none in a row");
        // One per slot, each the next RSEQ (a span's acknowledgements): kept as one, read
        // as each; the last one amended again, and one that breaks the row.
        Ptr<GsnMicropacketRun> ramp = Create<GsnMicropacketRun>();
        ramp->micropackets.resize(12);
        for (uint8_t k = 1; k <= 6; ++k)
        {
            ramp->AmendRseqFrom(k, uint8_t(253 + k)); // 254, 255, 0, 1, 2, 3
        }
        NS_TEST_ASSERT_MSG_EQ(ramp->laterRseq.size(), 1u, "a row of amendments is one");
        ramp->AmendRseqFrom(6, 9);  // k = 6 again, not the next RSEQ: the row ends at 5
        ramp->AmendRseqFrom(7, 10); // and a new row starts at 6
        ramp->AmendRseqFrom(9, 20);
        NS_TEST_ASSERT_MSG_EQ(ramp->laterRseq.size(), 3u, "the row, the new one, the last");
        const std::array<uint8_t, 12> rows{200, 254, 255, 0, 1, 2, 9, 10, 10, 20, 20, 20};
        for (std::size_t k = 0; k < rows.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(ramp->RseqOf(k, 200)),
                                  unsigned(rows[k]),
                                  "micropacket " << k << " of the row");
        }
        // A row in one call reads as the amendments one by one, after amendments that it
        // continues, amends again, or leaves.
        for (uint32_t before = 0; before < 3; ++before)
        {
            Ptr<GsnMicropacketRun> one = Create<GsnMicropacketRun>();
            Ptr<GsnMicropacketRun> row = Create<GsnMicropacketRun>();
            one->micropackets.resize(16);
            row->micropackets.resize(16);
            for (Ptr<GsnMicropacketRun> r : {one, row})
            {
                r->AmendRseqFrom(1, 100);
                r->AmendRseqFrom(2 + before, uint8_t(101 + before)); // 2..4: ends at 2, 3, 4
            }
            for (uint32_t i = 0; i < 6; ++i)
            {
                one->AmendRseqFrom(4 + i, uint8_t(103 + i));
            }
            row->AmendRseqRow(4, 103, 6);
            for (std::size_t k = 0; k < 16; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(unsigned(row->RseqOf(k, 50)),
                                      unsigned(one->RseqOf(k, 50)),
                                      "a row after " << before << ": micropacket " << k);
            }
            NS_TEST_ASSERT_MSG_EQ(row->laterRseq.size(),
                                  one->laterRseq.size(),
                                  "a row after " << before << " keeps as many amendments");
        }
        // Back to back every 40 ns, or at the departures given.
        NS_TEST_ASSERT_MSG_EQ(run->ArrivalOf(3), NanoSeconds(1120), "back to back");
        run->departures = {0, 40, 200, 240, 280, 320, 360, 400, 440, 480};
        NS_TEST_ASSERT_MSG_EQ(run->ArrivalOf(2), NanoSeconds(1200), "after a gap");
        NS_TEST_ASSERT_MSG_EQ(run->ArrivalOf(9), NanoSeconds(1480), "the last");
    }
};

namespace
{

/// \return whether a and b carry the same fields and data, with their LCRCs computed
bool
SameOnWire(GsnMicropacket a, GsnMicropacket b)
{
    a.SealLcrc();
    b.SealLcrc();
    return a == b;
}

/// Sends a Message's micropackets on a link as a port does: next TSEQ, an RSEQ, credits
/// on some; the ones that follow in the Message may be kept as a count (FollowingOnLink).
class LinkSender
{
  public:
    /// \param mps a Message's micropackets \param seed for the random choices
    LinkSender(std::vector<GsnMicropacket> mps, uint32_t seed)
        : m_mps(std::move(mps)),
          m_rng(seed)
    {
    }

    /// \return whether micropackets are left to send
    bool Left() const
    {
        return m_next < m_mps.size();
    }

    /// \return the next micropacket as sent, with or without credits
    GsnMicropacket SendOne()
    {
        GsnMicropacket mp = m_mps[m_next++];
        mp.tseq = m_tseq++;
        mp.rseq = m_rseq;
        mp.vcr = uint8_t(m_rng() % 4);
        mp.cr = m_rng() % 2 ? uint8_t(1 + m_rng() % 63) : 0;
        if (mp.cr == 0)
        {
            mp.vcr = 0;
        }
        return mp;
    }

    /// \param last the micropacket just sent \return how many after it may follow as a
    /// count (the rest of the Message's Data micropackets before its Tail)
    uint32_t FollowingRoom(const GsnMicropacket& last) const
    {
        if (!last.FollowsInMessage(last, 0) || m_next + 1 >= m_mps.size())
        {
            return 0;
        }
        return uint32_t(m_mps.size() - 1 - m_next);
    }

    /// \param last the micropacket just sent \param n how many follow it as a count
    /// \return them, one by one as a port would send them
    std::vector<GsnMicropacket> SendFollowing(const GsnMicropacket& last, uint32_t n)
    {
        std::vector<GsnMicropacket> sent;
        for (uint32_t j = 0; j < n; ++j)
        {
            GsnMicropacket mp = m_mps[m_next++];
            mp.vc = last.vc;
            mp.tseq = m_tseq++;
            mp.rseq = last.rseq;
            mp.vcr = 0;
            mp.cr = 0;
            sent.push_back(mp);
        }
        return sent;
    }

    /// \return the random generator
    std::mt19937& Rng()
    {
        return m_rng;
    }

  private:
    std::vector<GsnMicropacket> m_mps; ///< the Message
    std::size_t m_next{0};             ///< the next to send
    uint8_t m_tseq{250};               ///< (wraps soon)
    uint8_t m_rseq{17};                ///< the RSEQ they carry
    std::mt19937 m_rng;                ///< random choices
};

} // namespace

/// The retransmission buffer keeps what it is given, whether micropackets that follow one
/// another are stored or counted (leaving one slot apart or a few): against a list of every
/// micropacket, over random pushes, counts, acknowledgements and credits put on kept
/// micropackets.
class GsnRetransmitBufferTestCase : public TestCase
{
  public:
    GsnRetransmitBufferTestCase()
        : TestCase("Retransmission buffer: counted micropackets read, pop and take credits as "
                   "stored ones")
    {
    }

  private:
    void DoRun() override
    {
        const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
        for (uint32_t trial = 0; trial < 40; ++trial)
        {
            LinkSender sender(Segment(MakeMessage(3000 + 977 * trial, uint8_t(trial)), 2), trial);
            std::mt19937& rng = sender.Rng();
            GsnRetransmitBuffer buffer;
            std::deque<std::pair<GsnMicropacket, Time>> all; // every micropacket, stored
            Time now = NanoSeconds(1000);
            GsnMicropacket last;
            while (sender.Left() || !all.empty())
            {
                const uint32_t op = rng() % 8;
                if (op < 3 && sender.Left())
                {
                    now += slot * int64_t(1 + rng() % 3);
                    last = sender.SendOne();
                    buffer.Push(last, now);
                    all.emplace_back(last, now);
                }
                else if (op < 5 && !all.empty() && sender.FollowingRoom(last) > 0 &&
                         all.back().first.tseq == last.tseq)
                {
                    const uint32_t n = 1 + rng() % std::min(sender.FollowingRoom(last), 60u);
                    // (A switch output following an input whose link interleaves VCs sends
                    // them a few slots apart.)
                    const uint32_t stride = rng() % 2 == 0 ? 1 : 2 + rng() % 3;
                    buffer.AppendFollowing(n, stride);
                    for (const GsnMicropacket& mp : sender.SendFollowing(last, n))
                    {
                        now += slot * int64_t(stride);
                        all.emplace_back(mp, now);
                    }
                    last = GsnMicropacket(); // (a Push comes next)
                }
                else if (op == 5 && !all.empty())
                {
                    // Credits put on one without: it gets its own place.
                    const std::size_t i = rng() % all.size();
                    std::size_t without = i;
                    while (without < all.size() && all[without].first.cr != 0)
                    {
                        ++without;
                    }
                    NS_TEST_ASSERT_MSG_EQ(buffer.FirstWithoutCredits(i),
                                          without,
                                          "first without credits from " << i);
                    // Credits on it, or as a port puts them on a run: on the next few
                    // without, one after another.
                    const uint32_t row = rng() % 2 == 0 ? 1 : 1 + rng() % 6;
                    for (uint32_t r = 0; r < row && without < all.size(); ++r)
                    {
                        GsnMicropacket& kept = buffer.Store(without);
                        kept.vcr = 3;
                        kept.cr = 9;
                        all[without].first.vcr = 3;
                        all[without].first.cr = 9;
                        without = buffer.FirstWithoutCredits(without + 1);
                    }
                }
                else if (!all.empty())
                {
                    const std::size_t n = 1 + rng() % std::min<std::size_t>(all.size(), 80);
                    buffer.PopFront(n);
                    all.erase(all.begin(), all.begin() + n);
                }
                NS_TEST_ASSERT_MSG_EQ(buffer.size(), all.size(), "size, trial " << trial);
                NS_TEST_ASSERT_MSG_EQ(buffer.empty(), all.empty(), "empty");
                if (all.empty())
                {
                    continue;
                }
                NS_TEST_ASSERT_MSG_EQ(unsigned(buffer.FrontTseq()),
                                      unsigned(all.front().first.tseq),
                                      "front TSEQ");
                NS_TEST_ASSERT_MSG_EQ(buffer.FrontSlot(), all.front().second, "front slot");
                // In any order first (a search may start from the one found last).
                for (uint32_t r = 0; r < 8; ++r)
                {
                    const std::size_t i = rng() % all.size();
                    NS_TEST_ASSERT_MSG_EQ(SameOnWire(buffer.Get(i), all[i].first),
                                          true,
                                          "micropacket " << i << " out of order");
                    NS_TEST_ASSERT_MSG_EQ(buffer.SlotOf(i), all[i].second, "its slot");
                    // Those without credits that follow it in its place, evenly apart.
                    const GsnRetransmitBuffer::Stretch riders = buffer.RidersFrom(i);
                    NS_TEST_ASSERT_MSG_EQ(riders.slot, all[i].second, "riders' first slot");
                    NS_TEST_ASSERT_MSG_EQ((i + riders.n <= all.size()), true, "riders in it");
                    for (std::size_t j = 0; j < riders.n; ++j)
                    {
                        NS_TEST_ASSERT_MSG_EQ(unsigned(all[i + j].first.cr),
                                              0u,
                                              "a rider carries none");
                        NS_TEST_ASSERT_MSG_EQ(all[i + j].second,
                                              riders.slot + slot * int64_t(j * riders.stride),
                                              "rider " << j << "'s slot");
                    }
                }
                for (std::size_t i = 0; i < all.size(); ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(SameOnWire(buffer.Get(i), all[i].first),
                                          true,
                                          "micropacket " << i << ", trial " << trial);
                    NS_TEST_ASSERT_MSG_EQ(buffer.SlotOf(i), all[i].second, "slot of " << i);
                }
                // The first that left after a time, for times around every slot.
                for (std::size_t i = 0; i < all.size(); i += 1 + rng() % 7)
                {
                    const Time t = all[i].second + NanoSeconds(int64_t(rng() % 3) - 1);
                    std::size_t want = 0;
                    while (want < all.size() && all[want].second <= t)
                    {
                        ++want;
                    }
                    NS_TEST_ASSERT_MSG_EQ(buffer.FirstLeavingAfter(t), want, "after " << t);
                }
            }
        }
    }
};

/// A run reads the same micropackets whether those that follow one another are stored or
/// counted: every micropacket in and out of order, credits put on counted ones, and the
/// receiver's taking in order.
class GsnCompactRunTestCase : public TestCase
{
  public:
    GsnCompactRunTestCase()
        : TestCase("Run: counted micropackets read, take credits and are taken as stored ones")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t trial = 0; trial < 40; ++trial)
        {
            LinkSender sender(Segment(MakeMessage(2000 + 1311 * trial, uint8_t(trial)), 1),
                              100 + trial);
            std::mt19937& rng = sender.Rng();
            Ptr<GsnMicropacketRun> run = Create<GsnMicropacketRun>();
            std::vector<GsnMicropacket> all;
            while (sender.Left() && all.size() < 400)
            {
                GsnMicropacket mp = sender.SendOne();
                const GsnMicropacket last = mp;
                run->Append(std::move(mp));
                all.push_back(last);
                const uint32_t room = sender.FollowingRoom(last);
                if (room > 0 && rng() % 2)
                {
                    const uint32_t n = 1 + rng() % std::min(room, 50u);
                    run->AppendFollowing(n);
                    for (const GsnMicropacket& f : sender.SendFollowing(last, n))
                    {
                        all.push_back(f);
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(run->Size(), all.size(), "size, trial " << trial);
            // Read in random order (the place of the last read is kept for the next).
            for (uint32_t r = 0; r < 200; ++r)
            {
                const std::size_t k = rng() % all.size();
                NS_TEST_ASSERT_MSG_EQ(SameOnWire(run->At(k), all[k]), true, "at " << k);
            }
            // Credits put on micropackets, as while the run is on the wire.
            for (uint32_t c = 0; c < 10; ++c)
            {
                const std::size_t k = rng() % all.size();
                const uint8_t vcr = uint8_t(rng() % 4);
                const uint8_t cr = uint8_t(1 + rng() % 63);
                run->SetCredits(k, vcr, cr);
                all[k].vcr = vcr;
                all[k].cr = cr;
            }
            for (std::size_t k = 0; k < all.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(SameOnWire(run->At(k), all[k]), true, "credits " << k);
                const GsnMicropacketRun::Place p = run->Locate(k);
                if (p.offset > 0 && all[k].cr != 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(run->NextWithCredits(k), k, "counted with credits");
                }
                else if (p.offset > 0)
                {
                    NS_TEST_ASSERT_MSG_GT(run->NextWithCredits(k), k, "counted without");
                }
            }
            // The receiver takes them in order, moving from what it is given.
            GsnMicropacket scratch;
            for (std::size_t k = 0; k < all.size(); ++k)
            {
                GsnMicropacket taken = std::move(run->Take(k, scratch));
                NS_TEST_ASSERT_MSG_EQ(SameOnWire(taken, all[k]), true, "taken " << k);
            }
            run->ReleaseMicropackets();
            NS_TEST_ASSERT_MSG_EQ(run->Size(), all.size(), "size once released");
        }
    }
};

/// The gsn-runs test suite.
class GsnRunsTestSuite : public TestSuite
{
  public:
    GsnRunsTestSuite()
        : TestSuite("gsn-runs", UNIT)
    {
        AddTestCase(new GsnRunRseqTestCase, TestCase::QUICK);
        AddTestCase(new GsnCompactRunTestCase, TestCase::QUICK);
        AddTestCase(new GsnRetransmitBufferTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnRunsTestSuite g_gsnRunsTestSuite;
