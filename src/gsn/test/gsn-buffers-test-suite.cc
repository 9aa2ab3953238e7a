/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the buffers that hold micropackets: the ring buffer, a switch input's queue
 * (spans, strided spans, taking at once) and credits kept for later, each against a plain
 * model. Runs and the retransmission buffer are tested in gsn-runs-test-suite.cc.
 */
#include "gsn-micropacket-test-util.h"

#include "ns3/gsn-message-segmenter.h"
#include "ns3/gsn-micropacket-queue.h"
#include "ns3/gsn-micropacket.h"
#include "ns3/gsn-ring-buffer.h"
#include "ns3/gsn-timed-credits.h"
#include "ns3/test.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

using namespace ns3;
using gsntest::MakeMessage;
using gsntest::Segment;

/**
 * \param model timed counts, one entry each \param vc a virtual channel \param t a time
 * \return the counts of \p vc due by \p t, and all of them
 */
static std::pair<uint32_t, uint32_t>
ModelSums(const std::vector<GsnTimedCredits::Entry>& model, uint8_t vc, const Time& t)
{
    uint32_t due = 0;
    uint32_t total = 0;
    for (const auto& e : model)
    {
        due += e.vc == vc && e.at <= t ? e.n : 0;
        total += e.vc == vc ? e.n : 0;
    }
    return {due, total};
}

/// The run mode's credits for later times come out in time order, with the right sums.
class GsnTimedCreditsTestCase : public TestCase
{
  public:
    GsnTimedCreditsTestCase()
        : TestCase("Timed credits: time order, sums due, the time a threshold is reached")
    {
    }

  private:
    void DoRun() override
    {
        GsnTimedCredits q;
        std::vector<GsnTimedCredits::Entry> model; // kept sorted by time, stable
        std::mt19937 rng(11);
        int64_t now = 0;
        for (int step = 0; step < 20000; ++step)
        {
            if (rng() % 3 != 0)
            {
                // Mostly later than the last added, sometimes earlier (several outputs).
                const int64_t at = now + int64_t(rng() % 400);
                const GsnTimedCredits::Entry e{NanoSeconds(at),
                                               uint8_t(rng() % gsn::NUM_VCS),
                                               uint32_t(1 + rng() % 8)};
                q.Add(e.at, e.vc, e.n);
                auto place = std::upper_bound(
                    model.begin(),
                    model.end(),
                    e.at,
                    [](const Time& t, const GsnTimedCredits::Entry& x) { return t < x.at; });
                model.insert(place, e);
            }
            else
            {
                now += int64_t(rng() % 200);
                const Time t = NanoSeconds(now);
                while (q.HasDue(t))
                {
                    NS_TEST_ASSERT_MSG_EQ((!model.empty() && model.front().at <= t),
                                          true,
                                          "due only when the model has one due");
                    NS_TEST_ASSERT_MSG_EQ(q.front().at, model.front().at, "time order");
                    NS_TEST_ASSERT_MSG_EQ(unsigned(q.front().vc),
                                          unsigned(model.front().vc),
                                          "same-time order");
                    q.pop_front();
                    model.erase(model.begin());
                }
                NS_TEST_ASSERT_MSG_EQ((model.empty() || model.front().at > t),
                                      true,
                                      "nothing due left at step " << step);
            }
            NS_TEST_ASSERT_MSG_EQ(q.empty(), model.empty(), "empty at step " << step);
            const uint8_t vc = uint8_t(rng() % gsn::NUM_VCS);
            const Time t = NanoSeconds(now + int64_t(rng() % 400));
            const auto [due, total] = ModelSums(model, vc, t);
            NS_TEST_ASSERT_MSG_EQ(q.SumDue(vc, t), due, "sum due at step " << step);
            NS_TEST_ASSERT_MSG_EQ(q.Total(vc), total, "total at step " << step);
            std::array<uint32_t, gsn::NUM_VCS> counts{};
            const uint32_t threshold = 1 + rng() % 40;
            Time reached = Time::Max();
            for (const auto& e : model)
            {
                counts[e.vc] += e.n;
                if (counts[e.vc] >= threshold)
                {
                    reached = e.at;
                    break;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(q.FirstReaching({}, threshold),
                                  reached,
                                  "threshold time at step " << step);
        }
        q.clear();
        NS_TEST_ASSERT_MSG_EQ(q.empty(), true, "clear empties");
        NS_TEST_ASSERT_MSG_EQ(q.HasDue(Time::Max()), false, "nothing due after clear");
        NS_TEST_ASSERT_MSG_EQ(q.Total(0), 0u, "no totals after clear");
    }
};

/// Rows of credits (one per slot, riding on micropackets that follow one another): taken
/// together where due, they count as the single entries they stand for would.
class GsnTimedCreditRowsTestCase : public TestCase
{
  public:
    GsnTimedCreditRowsTestCase()
        : TestCase("Timed credits: rows count as their single entries, slots covered")
    {
    }

  private:
    void DoRun() override
    {
        GsnTimedCredits q;
        std::vector<GsnTimedCredits::Entry> model; // single entries, sorted by time
        std::mt19937 rng(23);
        const Time slot = NanoSeconds(40);
        int64_t now = 0;
        Time lastRowEnd[gsn::NUM_VCS];
        for (int step = 0; step < 20000; ++step)
        {
            const uint8_t vc = uint8_t(rng() % gsn::NUM_VCS);
            if (rng() % 3 != 0)
            {
                // A row, often going on from the last one of its VC (which then grows).
                const uint32_t count = 1 + rng() % 12;
                const Time at = rng() % 2 && lastRowEnd[vc] > NanoSeconds(now)
                                    ? lastRowEnd[vc] + slot
                                    : NanoSeconds(now + int64_t(rng() % 400));
                q.AddRow(at, slot, vc, 1, count);
                for (uint32_t i = 0; i < count; ++i)
                {
                    const GsnTimedCredits::Entry e{at + slot * int64_t(i), vc, 1};
                    model.insert(
                        std::upper_bound(model.begin(),
                                         model.end(),
                                         e.at,
                                         [](const Time& t, const GsnTimedCredits::Entry& x) {
                                             return t < x.at;
                                         }),
                        e);
                }
                lastRowEnd[vc] = at + slot * int64_t(count - 1);
            }
            else
            {
                now += int64_t(rng() % 300);
                const Time t = NanoSeconds(now);
                std::array<uint32_t, gsn::NUM_VCS> taken{};
                std::array<Time, gsn::NUM_VCS> firstTaken;
                firstTaken.fill(Time::Max());
                for (std::size_t guard = 0; q.HasDue(t); ++guard)
                {
                    NS_TEST_ASSERT_MSG_LT(guard, model.size(), "each take takes a count");
                    const GsnTimedCredits::Entry e = q.TakeDue(t);
                    NS_TEST_ASSERT_MSG_EQ((e.at <= t), true, "taken only when due");
                    taken[e.vc] += e.n;
                    firstTaken[e.vc] = std::min(firstTaken[e.vc], e.at);
                }
                std::array<uint32_t, gsn::NUM_VCS> due{};
                std::array<Time, gsn::NUM_VCS> firstDue;
                firstDue.fill(Time::Max());
                while (!model.empty() && model.front().at <= t)
                {
                    due[model.front().vc] += model.front().n;
                    firstDue[model.front().vc] =
                        std::min(firstDue[model.front().vc], model.front().at);
                    model.erase(model.begin());
                }
                for (uint8_t w = 0; w < gsn::NUM_VCS; ++w)
                {
                    NS_TEST_ASSERT_MSG_EQ(taken[w], due[w], "counts taken at step " << step);
                    NS_TEST_ASSERT_MSG_EQ(firstTaken[w], firstDue[w], "first one's time");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(q.empty(), model.empty(), "empty at step " << step);
            const Time t = NanoSeconds(now + int64_t(rng() % 400));
            const auto [due, total] = ModelSums(model, vc, t);
            NS_TEST_ASSERT_MSG_EQ(q.SumDue(vc, t), due, "sum due at step " << step);
            NS_TEST_ASSERT_MSG_EQ(q.Total(vc), total, "total at step " << step);
            // Slots covered, counted slot by slot from the single entries.
            const int64_t have = int64_t(rng() % 3) - 1;
            const uint32_t max = rng() % 40;
            uint32_t covered = 0;
            for (; covered < max; ++covered)
            {
                const Time s = t + slot * int64_t(covered);
                int64_t at = have - int64_t(covered);
                for (const auto& e : model)
                {
                    at += e.vc == vc && e.at <= s ? e.n : 0;
                }
                if (at < 1)
                {
                    break;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(q.SlotsCovered(vc, have, t, slot, max),
                                  covered,
                                  "slots covered at step " << step);
        }
    }
};

/// The FIFO behind link and switch queues keeps order through growth and wrap-around.
class GsnRingBufferTestCase : public TestCase
{
  public:
    GsnRingBufferTestCase()
        : TestCase("Ring buffer: FIFO order through growth, wrap-around and pooled storage")
    {
    }

  private:
    void DoRun() override
    {
        GsnRingBuffer<uint32_t> ring;
        std::deque<uint32_t> model;
        std::mt19937 rng(4);
        uint32_t next = 0;
        for (int step = 0; step < 100000; ++step)
        {
            const bool push = model.empty() || (rng() % 3 != 0);
            if (push)
            {
                if (rng() % 2 == 0)
                {
                    ring.push_back(next);
                }
                else
                {
                    ring.push_back_slot() = next; // filled in place
                }
                model.push_back(next);
                ++next;
            }
            else
            {
                const std::size_t n = 1 + rng() % std::min<std::size_t>(model.size(), 5);
                if (n == 1 && rng() % 2 == 0)
                {
                    ring.pop_front_moved();
                }
                else
                {
                    ring.pop_front(n);
                }
                model.erase(model.begin(), model.begin() + n);
            }
            NS_TEST_ASSERT_MSG_EQ(ring.size(), model.size(), "size at step " << step);
            if (!model.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(ring.front(), model.front(), "front at step " << step);
                NS_TEST_ASSERT_MSG_EQ(ring.back(), model.back(), "back at step " << step);
                const std::size_t i = rng() % model.size();
                NS_TEST_ASSERT_MSG_EQ(ring[i], model[i], "element " << i << " at step " << step);
            }
            if (step % 20000 == 19999)
            {
                ring.clear();
                model.clear();
                NS_TEST_ASSERT_MSG_EQ(ring.empty(), true, "clear empties");
            }
        }
        // A ring that empties keeps small storage and gives large storage back.
        GsnRingBuffer<uint32_t> small;
        for (uint32_t i = 0; i < 10; ++i)
        {
            small.push_back(i);
        }
        small.pop_front(10);
        NS_TEST_ASSERT_MSG_EQ(small.capacity(), 16u, "16 places kept");
        GsnRingBuffer<uint32_t> large;
        for (uint32_t i = 0; i < 100; ++i)
        {
            large.push_back(i);
        }
        NS_TEST_ASSERT_MSG_EQ(large.capacity(), 128u, "grown by doubling");
        large.pop_front(99);
        NS_TEST_ASSERT_MSG_EQ(large.capacity(), 128u, "kept while not empty");
        large.pop_front();
        NS_TEST_ASSERT_MSG_EQ(large.capacity(), 0u, "given back when empty");
        large.push_back(7);
        NS_TEST_ASSERT_MSG_EQ(large.front(), 7u, "usable again");
        // Removing several at once across the end of the ring keeps the order.
        GsnRingBuffer<uint32_t> wrap;
        for (uint32_t i = 0; i < 12; ++i)
        {
            wrap.push_back(i);
        }
        wrap.pop_front(10);
        for (uint32_t i = 12; i < 24; ++i)
        {
            wrap.push_back(i); // wraps around the 16 places
        }
        wrap.pop_front(5);
        NS_TEST_ASSERT_MSG_EQ(wrap.size(), 9u, "size after wrapping");
        for (uint32_t i = 0; i < wrap.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(wrap[i], 15u + i, "order after wrapping");
        }
    }
};

/// A switch input buffer gives its micropackets back in order with their times, however
/// it groups them into spans, and holds a Message's body as one span.
class GsnMicropacketQueueTestCase : public TestCase
{
  public:
    GsnMicropacketQueueTestCase()
        : TestCase("Micropacket queue: order, times and places through spans")
    {
    }

  private:
    struct Expected
    {
        GsnMicropacket mp;
        Time ready;
        bool counted;
    };

    void DoRun() override
    {
        // One Message arriving back to back: Header, one span of Data, Tail.
        {
            GsnMicropacketQueue q;
            GsnMessageSegmenter seg;
            seg.Start(MakeMessage(1000, 1), 1);
            Time t = NanoSeconds(100);
            while (seg.IsActive())
            {
                GsnMicropacket mp;
                seg.Next(mp);
                mp.SetLcrcPending();
                q.Push(std::move(mp), t, true);
                t += NanoSeconds(gsn::MICROPACKET_TIME_NS);
            }
            NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, body, Tail");
            NS_TEST_ASSERT_MSG_EQ(q.GetSize(), GsnMessageBytes::ChunksFor(1000), "all held");
        }
        // Several at once (PushSpan), extending a span or starting one, come out one by one.
        {
            GsnMicropacketQueue q;
            const std::vector<GsnMicropacket> mps = Segment(MakeMessage(1000, 2), 1);
            const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
            q.Push(GsnMicropacket(mps[0]), Seconds(0), true); // Header
            q.Push(GsnMicropacket(mps[1]), slot, true);
            q.PushSpan(GsnMicropacket(mps[2]), 10, 2 * slot, true);  // joins the span of mps[1]
            q.PushSpan(GsnMicropacket(mps[12]), 5, 20 * slot, true); // a gap: a new span
            NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, two spans");
            NS_TEST_ASSERT_MSG_EQ(q.GetSize(), 17u, "every micropacket counted");
            for (uint32_t k = 0; k < 17; ++k)
            {
                const Time want = k < 12 ? k * slot : (20 + (k - 12)) * slot;
                NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), want, "time of " << k);
                bool counted = false;
                const GsnMicropacket got = q.Pop(counted);
                NS_TEST_ASSERT_MSG_EQ(got.GetChunk(), k, "chunk " << k);
                NS_TEST_ASSERT_MSG_EQ(std::memcmp(got.Data(), mps[k].Data(), 32), 0, "data");
            }
            NS_TEST_ASSERT_MSG_EQ(q.IsEmpty(), true, "all taken");
        }
        // Random Messages, gaps, uncounted micropackets and pops in between, against a model.
        GsnMicropacketQueue q;
        std::deque<Expected> model;
        std::mt19937 rng(11);
        std::size_t pushed = 0;
        Time t = NanoSeconds(0);
        for (int m = 0; m < 200; ++m)
        {
            GsnMessageSegmenter seg;
            seg.Start(MakeMessage(8 + rng() % 3000, uint8_t(m)), 2);
            while (seg.IsActive())
            {
                GsnMicropacket mp;
                seg.Next(mp);
                if (rng() % 4 != 0)
                {
                    mp.SetLcrcPending(); // as a port passes it on (otherwise kept apart)
                }
                mp.tseq = uint8_t(pushed); // a link field: not kept
                const bool counted = rng() % 50 != 0;
                t += NanoSeconds(gsn::MICROPACKET_TIME_NS * (rng() % 10 == 0 ? 3 : 1));
                model.push_back({mp, t, counted});
                q.Push(std::move(mp), t, counted);
                ++pushed;
                while (!model.empty() && rng() % 3 == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), model.front().ready, "front time");
                    NS_TEST_ASSERT_MSG_EQ(q.Front().GetChunk(),
                                          model.front().mp.GetChunk(),
                                          "front chunk");
                    bool counted = false;
                    const GsnMicropacket got = q.Pop(counted);
                    const Expected& want = model.front();
                    NS_TEST_ASSERT_MSG_EQ(counted, want.counted, "place accounting");
                    NS_TEST_ASSERT_MSG_EQ(unsigned(got.type), unsigned(want.mp.type), "type");
                    NS_TEST_ASSERT_MSG_EQ(got.tail, want.mp.tail, "tail");
                    NS_TEST_ASSERT_MSG_EQ(got.GetChunk(), want.mp.GetChunk(), "chunk");
                    NS_TEST_ASSERT_MSG_EQ(got.GetEcrc(), want.mp.GetEcrc(), "ECRC");
                    NS_TEST_ASSERT_MSG_EQ(std::memcmp(got.Data(), want.mp.Data(), 32), 0, "data");
                    NS_TEST_ASSERT_MSG_EQ(got.IsLcrcPending(), want.mp.IsLcrcPending(), "flag");
                    model.pop_front();
                    NS_TEST_ASSERT_MSG_EQ(q.GetSize(), model.size(), "size");
                }
            }
        }
        uint32_t headers = 0;
        q.ForEachHeader([&headers](const GsnMicropacket& mp) {
            headers += mp.GetType() == GsnMicropacketType::HEADER;
        });
        uint32_t modelHeaders = 0;
        for (const Expected& e : model)
        {
            modelHeaders += e.mp.GetType() == GsnMicropacketType::HEADER;
        }
        NS_TEST_ASSERT_MSG_EQ(headers, modelHeaders, "every buffered Header seen");
        q.Clear();
        NS_TEST_ASSERT_MSG_EQ(q.IsEmpty(), true, "cleared");
    }
};

/**
 * \ingroup gsn-tests
 * \brief Micropackets taken at once for a run's following slots (GsnMessageSegmenter::NextData,
 * GsnMicropacketQueue::PopFollowing) are those taken one by one, never a Header or Tail.
 */
class GsnFollowingTestCase : public TestCase
{
  public:
    GsnFollowingTestCase()
        : TestCase("Data micropackets taken at once equal those taken one by one")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(3);
        for (uint32_t size : {8u, 40u, 100u, 1000u, 5000u})
        {
            // The segmenter.
            Ptr<Packet> msg = MakeMessage(size, uint8_t(size));
            GsnMessageSegmenter one;
            GsnMessageSegmenter many;
            one.Start(msg, 2);
            many.Start(msg, 2);
            GsnMicropacket unused;
            NS_TEST_ASSERT_MSG_EQ(many.NextData(10, unused), 0u, "not the Header");
            while (one.IsActive())
            {
                GsnMicropacket first;
                const uint32_t n = many.NextData(1 + rng() % 20, first);
                if (n == 0)
                {
                    GsnMicropacket a;
                    GsnMicropacket b;
                    one.Next(a);
                    many.Next(b);
                    NS_TEST_ASSERT_MSG_EQ((a == b), true, "one by one, size " << size);
                    continue;
                }
                for (uint32_t i = 0; i < n; ++i)
                {
                    GsnMicropacket a;
                    one.Next(a);
                    NS_TEST_ASSERT_MSG_EQ((a == first), true, "at once, size " << size);
                    NS_TEST_ASSERT_MSG_EQ(a.tail, false, "never the Tail");
                    first.AdvanceChunk();
                }
                NS_TEST_ASSERT_MSG_EQ(many.GetRemaining(), one.GetRemaining(), "same place");
            }
            NS_TEST_ASSERT_MSG_EQ(many.IsActive(), false, "both done");
        }
        // The queue: Header, a span of 30 Data, Tail.
        const std::vector<GsnMicropacket> mps = Segment(MakeMessage(1000, 9), 1);
        GsnMicropacketQueue q;
        const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
        for (std::size_t k = 0; k < mps.size(); ++k)
        {
            q.Push(GsnMicropacket(mps[k]), slot * int64_t(k + 1), true);
        }
        NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, body, Tail");
        GsnMicropacket first;
        bool counted = false;
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(5, first, counted), 0u, "not a Header");
        q.Pop(counted);
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(5, first, counted), 5u, "five");
        NS_TEST_ASSERT_MSG_EQ(counted, true, "counted places");
        NS_TEST_ASSERT_MSG_EQ(first.GetChunk(), 1u, "from the first Data");
        NS_TEST_ASSERT_MSG_EQ(std::memcmp(first.Data(), mps[1].Data(), 32), 0, "its data");
        NS_TEST_ASSERT_MSG_EQ(q.Front().GetChunk(), 6u, "the sixth next");
        NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), slot * int64_t(7), "and its time");
        const uint32_t body = uint32_t(mps.size()) - 2;
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(1000, first, counted),
                              body - 5,
                              "the rest of the body");
        NS_TEST_ASSERT_MSG_EQ(q.GetSize(), 1u, "the Tail left");
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(1000, first, counted), 0u, "not the Tail");
        NS_TEST_ASSERT_MSG_EQ(q.Pop(counted).tail, true, "the Tail");
    }
};

/**
 * \ingroup gsn-tests
 * \brief A switch input whose link interleaves VCs keeps a Message's micropackets, a whole
 * number of slots apart, as one strided span, whether they come one by one or several at once
 * (PushSpan() with a stride), and gives them back (Pop, PopFollowing, PopStrided) as a queue
 * of one-slot spans would.
 */
class GsnStridedSpanTestCase : public TestCase
{
  public:
    GsnStridedSpanTestCase()
        : TestCase("Micropacket queue: interleaved arrivals in strided spans, taken as before")
    {
    }

  private:
    /// The queue as spans of micropackets one slot apart only (the grouping PopFollowing()
    /// answers by): the chunk of each span's first, how many, when the first may leave.
    struct OneSlotSpan
    {
        GsnMicropacket first;
        uint32_t count;
        Time ready;
        bool counted;
    };

    void DoRun() override
    {
        const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
        // Two VCs interleaved slot by slot: the body is one span.
        {
            const std::vector<GsnMicropacket> mps = Segment(MakeMessage(3000, 4), 1);
            GsnMicropacketQueue q;
            for (std::size_t k = 0; k < mps.size(); ++k)
            {
                GsnMicropacket mp = mps[k];
                mp.SetLcrcPending();
                q.Push(std::move(mp), slot * int64_t(2 * k), true);
            }
            NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, strided body, Tail");
            for (std::size_t k = 0; k < mps.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), slot * int64_t(2 * k), "time of " << k);
                bool counted = false;
                NS_TEST_ASSERT_MSG_EQ(q.Pop(counted).GetChunk(), k, "chunk " << k);
            }
        }
        // Several at once three slots apart, the first one slot after the span before: it
        // ends that span, the others make a strided span of their own.
        {
            const std::vector<GsnMicropacket> mps = Segment(MakeMessage(3000, 5), 1);
            GsnMicropacketQueue q;
            std::vector<Time> at;
            for (std::size_t k = 0; k < 4; ++k)
            {
                GsnMicropacket mp = mps[k];
                mp.SetLcrcPending();
                at.push_back(slot * int64_t(k));
                q.Push(std::move(mp), at.back(), true);
            }
            GsnMicropacket mp = mps[4];
            mp.SetLcrcPending();
            q.PushSpan(std::move(mp), 6, slot * 4, true, 3);
            for (std::size_t j = 0; j < 6; ++j)
            {
                at.push_back(slot * int64_t(4 + 3 * j));
            }
            for (std::size_t k = 0; k < at.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), at[k], "time of " << k);
                bool counted = false;
                NS_TEST_ASSERT_MSG_EQ(q.Pop(counted).GetChunk(), k, "chunk " << k);
            }
        }
        // Random spacing (one slot, whole slots, other), pushes of several, Pop and
        // PopFollowing in between, against the one-slot grouping.
        std::mt19937 rng(17);
        GsnMicropacketQueue q;
        std::deque<OneSlotSpan> model;
        std::size_t modelSpansMax = 0;
        std::size_t spansMax = 0;
        Time t = NanoSeconds(0);
        for (int m = 0; m < 300; ++m)
        {
            const std::vector<GsnMicropacket> mps =
                Segment(MakeMessage(8 + rng() % 4000, uint8_t(m)), uint8_t(1 + m % 3));
            const uint32_t gap = 1 + rng() % 4; // this Message's usual spacing
            const bool counted = rng() % 8 != 0;
            for (std::size_t k = 0; k < mps.size();)
            {
                const uint32_t r = rng() % 20;
                const Time step = r == 0 ? slot + NanoSeconds(3) : slot * int64_t(r < 3 ? 1 : gap);
                t += step;
                uint32_t n = 1;
                uint32_t stride = 1;
                GsnMicropacket mp = mps[k];
                mp.SetLcrcPending();
                if (k + 1 < mps.size() && rng() % 5 == 0 && mp.FollowsInMessage(mp, 0))
                {
                    // Several at once (a run's span): Data that follow, one slot apart or
                    // the Message's spacing.
                    while (k + n + 1 < mps.size() && n < 1 + rng() % 12)
                    {
                        ++n;
                    }
                    stride = rng() % 2 == 0 ? 1 : gap;
                }
                // The model: one-slot spans only, the micropackets one by one.
                for (uint32_t j = 0; j < n; ++j)
                {
                    GsnMicropacket one = mp;
                    one.AdvanceChunks(j);
                    const Time at = t + slot * int64_t(j * stride);
                    if (!model.empty() && model.back().counted == counted &&
                        one.FollowsInMessage(model.back().first, model.back().count) &&
                        at == model.back().ready + slot * int64_t(model.back().count))
                    {
                        ++model.back().count;
                    }
                    else
                    {
                        model.push_back({one, 1, at, counted});
                    }
                }
                q.PushSpan(std::move(mp), n, t, counted, stride);
                k += n;
                t += slot * int64_t((n - 1) * stride);
                modelSpansMax = std::max(modelSpansMax, model.size());
                spansMax = std::max(spansMax, q.GetSpanCount());
                while (!model.empty() && rng() % 3 == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), model.front().ready, "front time");
                    OneSlotSpan& head = model.front();
                    NS_TEST_ASSERT_MSG_EQ(q.Front().GetChunk(), head.first.GetChunk(), "chunk");
                    bool c = false;
                    const uint32_t how = rng() % 5;
                    if (how == 4)
                    {
                        // Those of a strided span at once, each at its own time.
                        const uint32_t stride = q.FrontStride();
                        const Time from = q.FrontReady();
                        GsnMicropacket first;
                        const uint32_t max = 1 + rng() % 40;
                        const uint32_t got = q.PopStrided(max, first, c);
                        if (stride == 1 || !head.first.FollowsInMessage(head.first, 0))
                        {
                            NS_TEST_ASSERT_MSG_EQ(got, 0u, "not a strided span of Data");
                            continue;
                        }
                        NS_TEST_ASSERT_MSG_EQ((got >= 1 && got <= max), true, "taken at once");
                        NS_TEST_ASSERT_MSG_EQ(first.GetChunk(), head.first.GetChunk(), "first");
                        for (uint32_t j = 0; j < got; ++j)
                        {
                            NS_TEST_ASSERT_MSG_EQ(model.empty(), false, "more than pushed");
                            OneSlotSpan& h = model.front();
                            NS_TEST_ASSERT_MSG_EQ(h.ready,
                                                  from + slot * int64_t(j * stride),
                                                  "one every stride slots");
                            NS_TEST_ASSERT_MSG_EQ(h.first.GetChunk(),
                                                  first.GetChunk() + j,
                                                  "in order");
                            NS_TEST_ASSERT_MSG_EQ(h.first.tail, false, "never a Tail");
                            NS_TEST_ASSERT_MSG_EQ(c, h.counted, "places");
                            if (h.count > 1)
                            {
                                h.first.AdvanceChunk();
                            }
                            h.ready += slot;
                            if (--h.count == 0)
                            {
                                model.pop_front();
                            }
                        }
                        continue;
                    }
                    if (how % 2 == 0)
                    {
                        GsnMicropacket first;
                        const uint32_t max = 1 + rng() % 40;
                        const uint32_t want = head.first.FollowsInMessage(head.first, 0)
                                                  ? std::min(max, head.count)
                                                  : 0;
                        const uint32_t got = q.PopFollowing(max, first, c);
                        NS_TEST_ASSERT_MSG_EQ(got, want, "taken at once");
                        if (got == 0)
                        {
                            continue;
                        }
                        NS_TEST_ASSERT_MSG_EQ(first.GetChunk(), head.first.GetChunk(), "first");
                        NS_TEST_ASSERT_MSG_EQ(c, head.counted, "places");
                        head.first.AdvanceChunks(got);
                        head.ready += slot * int64_t(got);
                        head.count -= got;
                    }
                    else
                    {
                        const GsnMicropacket got = q.Pop(c);
                        NS_TEST_ASSERT_MSG_EQ(got.GetChunk(), head.first.GetChunk(), "popped");
                        NS_TEST_ASSERT_MSG_EQ(got.tail, head.first.tail, "tail");
                        NS_TEST_ASSERT_MSG_EQ(c, head.counted, "places");
                        if (head.count > 1)
                        {
                            head.first.AdvanceChunk();
                        }
                        head.ready += slot;
                        --head.count;
                    }
                    if (head.count == 0)
                    {
                        model.pop_front();
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_LT(spansMax * 5, modelSpansMax * 3, "strided spans hold them in fewer");
    }
};

/// The gsn-buffers test suite.
class GsnBuffersTestSuite : public TestSuite
{
  public:
    GsnBuffersTestSuite()
        : TestSuite("gsn-buffers", UNIT)
    {
        AddTestCase(new GsnRingBufferTestCase, TestCase::QUICK);
        AddTestCase(new GsnMicropacketQueueTestCase, TestCase::QUICK);
        AddTestCase(new GsnStridedSpanTestCase, TestCase::QUICK);
        AddTestCase(new GsnFollowingTestCase, TestCase::QUICK);
        AddTestCase(new GsnTimedCreditsTestCase, TestCase::QUICK);
        AddTestCase(new GsnTimedCreditRowsTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnBuffersTestSuite g_gsnBuffersTestSuite;
