/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMicropacketQueue: the micropackets buffered at one input VC of a switch, each with the
 * time it may leave, stored as spans of consecutive Data micropackets.
 */
#ifndef GSN_MICROPACKET_QUEUE_H
#define GSN_MICROPACKET_QUEUE_H

#include "gsn-constants.h"
#include "gsn-micropacket.h"
#include "gsn-ring-buffer.h"

#include "ns3/nstime.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief A FIFO of micropackets with the earliest time each may leave.
 *
 * A switch input buffers a Message's micropackets one link slot apart; storing each would
 * cost a buffer place, a copy in and a copy out for every micropacket crossing the switch.
 * Consecutive Data micropackets of one Message that may leave one slot after another are
 * kept as one span instead (GsnMicropacket::FollowsInMessage()): the span's first
 * micropacket, the time it may leave and how many follow. Where the input link interleaves
 * VCs, a Message's micropackets come a whole number of slots apart: they are kept as one
 * span too, with that spacing (a strided span), which PopFollowing() takes one at a time as
 * if each were a span of its own. Pop() gives them back one by one,
 * as they were pushed, except for the link fields (TSEQ, RSEQ, credits, LCRC) that the
 * receiving port has consumed and the next link sets afresh.
 */
class GsnMicropacketQueue
{
  public:
    /// \return whether no micropacket is buffered
    bool IsEmpty() const
    {
        return m_size == 0;
    }

    /// \return how many micropackets are buffered
    uint32_t GetSize() const
    {
        return m_size;
    }

    /**
     * Buffer a micropacket behind the others.
     * \param mp the micropacket
     * \param ready the earliest time it may leave
     * \param counted whether it occupies a credit-accounted place
     */
    void Push(GsnMicropacket&& mp, const Time& ready, bool counted)
    {
        PushSpan(std::move(mp), 1, ready, counted);
    }

    /**
     * Buffer \p n micropackets of one Message behind the others: \p first and the n - 1
     * Data micropackets that follow it (GsnMicropacket::FollowsInMessage()), leaving one slot
     * after another, or \p stride slots. The same as pushing them one by one.
     * \param first the first micropacket (with n > 1 a Data micropacket that may start a
     *        span: GsnMicropacket::FollowsInMessage(first, 0))
     * \param n how many
     * \param ready the earliest time the first may leave
     * \param counted whether they occupy credit-accounted places
     * \param stride slots from one to the next (at least 1)
     */
    void PushSpan(GsnMicropacket&& first,
                  uint32_t n,
                  const Time& ready,
                  bool counted,
                  uint32_t stride = 1)
    {
        NS_ASSERT(n == 1 || first.FollowsInMessage(first, 0));
        NS_ASSERT(stride >= 1 && stride <= MAX_STRIDE);
        if (n > 1 && stride > 1)
        {
            // One by one, the second joins the first's span or starts one (which may split a
            // span of another stride); the others then join that span.
            GsnMicropacket second = first;
            second.AdvanceChunk();
            PushSpan(std::move(first), 1, ready, counted);
            PushSpan(std::move(second),
                     1,
                     ready + gsn::MicropacketTime() * int64_t(stride),
                     counted);
            if (n > 2)
            {
                Span& last = m_spans.back();
                NS_ASSERT(last.count == 1 || last.stride == stride);
                last.stride = uint16_t(stride);
                last.count += n - 2;
                m_size += n - 2;
            }
            return;
        }
        m_size += n;
        if (!m_spans.empty())
        {
            Span& last = m_spans.back();
            if (last.counted == counted && first.FollowsInMessage(last.first, last.count))
            {
                const int64_t slot = gsn::MicropacketTime().GetTimeStep();
                const int64_t after = ready.GetTimeStep() - last.LastReady(slot);
                if (after == slot && (last.stride == 1 || last.count == 1))
                {
                    last.stride = 1;
                    last.count += n; // one slot after the last
                    return;
                }
                if (after == slot)
                {
                    // A strided span's last one starts a span of consecutive ones with it.
                    --last.count;
                    GsnMicropacket split = last.first;
                    split.AdvanceChunks(last.count);
                    const Time at = TimeStep(last.LastReady(slot) + last.stride * slot);
                    Span& s = m_spans.push_back_slot();
                    s.first = std::move(split);
                    s.ready = at;
                    s.count = 1 + n;
                    s.stride = 1;
                    s.counted = counted;
                    return;
                }
                if (n == 1 && after > slot && after % slot == 0 && after / slot <= MAX_STRIDE &&
                    (last.count == 1 || after == last.stride * slot))
                {
                    last.stride = uint16_t(after / slot); // interleaved with other VCs
                    ++last.count;
                    return;
                }
            }
        }
        Span& s = m_spans.push_back_slot();
        s.first = std::move(first);
        s.ready = ready;
        s.count = n;
        s.stride = 1;
        s.counted = counted;
    }

    /// \return how many spans hold the micropackets (what the buffer costs in memory)
    std::size_t GetSpanCount() const
    {
        return m_spans.size();
    }

    /// \return the first micropacket (the queue is not empty)
    const GsnMicropacket& Front() const
    {
        return m_spans.front().first;
    }

    /// \return when the first micropacket may leave (the queue is not empty)
    const Time& FrontReady() const
    {
        return m_spans.front().ready;
    }

    /**
     * Take the first micropacket (the queue is not empty).
     * \param[out] counted whether it occupied a credit-accounted place
     * \return the micropacket
     */
    GsnMicropacket Pop(bool& counted)
    {
        GsnMicropacket mp;
        Pop(mp, counted);
        return mp;
    }

    /**
     * Take the first micropacket (the queue is not empty) into \p mp.
     * \param[out] mp the micropacket
     * \param[out] counted whether it occupied a credit-accounted place
     */
    void Pop(GsnMicropacket& mp, bool& counted)
    {
        --m_size;
        Span& head = m_spans.front();
        counted = head.counted;
        if (head.count == 1)
        {
            mp = std::move(head.first);
            m_spans.pop_front_moved();
            return;
        }
        mp = head.first;
        head.first.AdvanceChunk();
        head.ready += gsn::MicropacketTime() * int64_t(head.stride);
        --head.count;
    }

    /**
     * Take at once up to \p max micropackets of the first span that hold a Data
     * micropacket not its Message's Tail, each leaving one slot after the one before: the
     * first micropacket and those following it (GsnMicropacket::FollowsInMessage()); of a
     * strided span, the first only.
     * \param max how many at most
     * \param[out] first the first taken, if any
     * \param[out] counted whether they occupied credit-accounted places
     * \return how many were taken (0 if the first micropacket is not such a Data one)
     */
    uint32_t PopFollowing(uint32_t max, GsnMicropacket& first, bool& counted)
    {
        Span& head = m_spans.front();
        if (!head.first.FollowsInMessage(head.first, 0))
        {
            return 0; // a Header, a Tail, or a micropacket kept as it is
        }
        return TakeFromHead(std::min(max, head.stride == 1 ? head.count : 1), first, counted);
    }

    /// \return the slots between the first span's micropackets (1: consecutive; the queue is
    /// not empty)
    uint32_t FrontStride() const
    {
        return m_spans.front().stride;
    }

    /**
     * Take at once up to \p max micropackets of the first span where it is a strided one
     * holding Data micropackets not their Message's Tail (FrontStride() > 1): each leaves
     * FrontStride() slots after the one before, from FrontReady().
     * \param max how many at most
     * \param[out] first the first taken, if any
     * \param[out] counted whether they occupied credit-accounted places
     * \return how many were taken (0 if the first span is not such a one)
     */
    uint32_t PopStrided(uint32_t max, GsnMicropacket& first, bool& counted)
    {
        Span& head = m_spans.front();
        if (head.stride == 1 || !head.first.FollowsInMessage(head.first, 0))
        {
            return 0;
        }
        return TakeFromHead(std::min(max, head.count), first, counted);
    }

    /**
     * \param slot the slot of the first
     * \param stride slots from one to the next
     * \return how many micropackets of the first span, holding Data micropackets not their
     *         Message's Tail, may leave one every \p stride slots from \p slot: each ready
     *         by its slot (0 if the first span is not such a one)
     */
    uint32_t CountReadyBy(const Time& slot, uint32_t stride) const
    {
        const Span& head = m_spans.front();
        if (head.ready > slot || !head.first.FollowsInMessage(head.first, 0))
        {
            return 0;
        }
        if (head.stride <= stride)
        {
            return head.count; // (each keeps the first's lead)
        }
        // Each falls behind its slot by the difference of the strides: count those not yet.
        const int64_t lag = int64_t(head.stride - stride) * gsn::MicropacketTime().GetTimeStep();
        const int64_t lead = (slot - head.ready).GetTimeStep();
        return uint32_t(std::min<int64_t>(head.count, lead / lag + 1));
    }

    /**
     * Take the first \p n micropackets of the first span, which CountReadyBy() counted.
     * \param n how many (at most what CountReadyBy() returned)
     * \param[out] first the first taken
     * \param[out] counted whether they occupied credit-accounted places
     * \return \p n
     */
    uint32_t PopCounted(uint32_t n, GsnMicropacket& first, bool& counted)
    {
        NS_ASSERT(n > 0 && n <= m_spans.front().count);
        return TakeFromHead(n, first, counted);
    }

    /**
     * Call f(mp) for every buffered Header micropacket, in order (a span holds Data only).
     * \param f the function
     */
    template <typename F>
    void ForEachHeader(F f) const
    {
        for (std::size_t i = 0; i < m_spans.size(); ++i)
        {
            if (m_spans[i].first.GetType() == GsnMicropacketType::HEADER)
            {
                f(m_spans[i].first);
            }
        }
    }

    /// Drop everything.
    void Clear()
    {
        m_spans.clear();
        m_size = 0;
    }

  private:
    /**
     * Take the first \p n (not more than it holds) micropackets of the first span.
     * \param n how many
     * \param[out] first the first taken
     * \param[out] counted whether they occupied credit-accounted places
     * \return \p n
     */
    uint32_t TakeFromHead(uint32_t n, GsnMicropacket& first, bool& counted)
    {
        Span& head = m_spans.front();
        counted = head.counted;
        first = head.first;
        m_size -= n;
        if (n == head.count)
        {
            m_spans.pop_front();
            return n;
        }
        head.first.AdvanceChunks(n);
        head.ready += gsn::MicropacketTime() * int64_t(n * head.stride);
        head.count -= n;
        return n;
    }

    /// Spacing of a strided span at most (slots): four VCs interleave every four slots; a
    /// wider one is kept too, as far as it fits.
    static constexpr int64_t MAX_STRIDE = 0xffff;

    /// Micropackets first, first advanced by one chunk, ... (count of them), leaving from
    /// ready one slot after another, or stride slots (a strided span).
    struct Span
    {
        GsnMicropacket first; ///< the first micropacket not yet taken
        Time ready;           ///< when it may leave
        uint32_t count;       ///< micropackets in the span, at least 1
        bool counted;         ///< they occupy credit-accounted places
        uint16_t stride;      ///< slots between them (1: consecutive)

        /// \param slot a slot, in time steps \return when the last may leave, in time steps
        int64_t LastReady(int64_t slot) const
        {
            return ready.GetTimeStep() + int64_t(count - 1) * stride * slot;
        }

        /// See GsnRingBuffer: a popped span lets go of the Message only.
        void Vacate()
        {
            first.Vacate();
        }
    };

    GsnRingBuffer<Span> m_spans; ///< in arrival order
    uint32_t m_size{0};          ///< micropackets in all spans
};

} // namespace ns3

#endif /* GSN_MICROPACKET_QUEUE_H */
