/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnRetransmitBuffer: the micropackets a port has sent and not yet seen acknowledged, for
 * go-back-N, with the slot each first left in.
 */
#ifndef GSN_RETRANSMIT_BUFFER_H
#define GSN_RETRANSMIT_BUFFER_H

#include "gsn-constants.h"
#include "gsn-micropacket.h"
#include "gsn-ring-buffer.h"

#include "ns3/assert.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Sent micropackets awaiting acknowledgement, oldest first, each with its slot.
 *
 * Micropacket i is read with Get() and SlotOf(). A port that sends many micropackets of one
 * Message back to back (the run link mode) keeps those that follow one another on the link
 * as a count on the first (AppendFollowing(), GsnMicropacket::FollowingOnLink()): no copy
 * per micropacket. Store() gives one its own place, to put credits on it.
 */
class GsnRetransmitBuffer
{
  public:
    /// \return true if nothing awaits acknowledgement
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return how many micropackets await acknowledgement
    std::size_t size() const
    {
        return m_size;
    }

    /// Forget everything (a link reset).
    void clear()
    {
        m_entries.clear();
        m_size = 0;
        m_hintEntry = NO_HINT;
        m_leavingKnown = false;
    }

    /**
     * \param mp a micropacket just sent \param slot the slot it left in
     */
    __attribute__((always_inline)) void Push(const GsnMicropacket& mp, const Time& slot)
    {
        Entry& e = m_entries.push_back_slot();
        e.mp = mp;
        e.slot = slot;
        e.following = 0;
        e.stride = 1;
        e.first = m_pushed++;
        ++m_size;
        m_leavingKnown = false;
    }

    /**
     * The last micropacket pushed is followed by \p n more of its Message in the next slots,
     * or one every \p stride slots: each GsnMicropacket::FollowingOnLink() of it.
     * \param n how many \param stride slots from one to the next
     */
    void AppendFollowing(uint32_t n, uint32_t stride = 1)
    {
        NS_ASSERT(!m_entries.empty() && stride >= 1 && stride <= UINT16_MAX);
        Entry& e = m_entries.back();
        NS_ASSERT(e.following == 0 || e.stride == stride);
        e.stride = uint16_t(stride);
        NS_ASSERT(e.following + n <= UINT8_MAX);
        e.following = uint16_t(e.following + n);
        m_size += n;
        m_pushed += n;
        m_leavingKnown = false;
    }

    /// \param i index from the oldest \return a copy of micropacket i
    GsnMicropacket Get(std::size_t i) const
    {
        const Place p = Locate(i);
        const GsnMicropacket& mp = m_entries[p.entry].mp;
        return p.offset == 0 ? mp : mp.FollowingOnLink(p.offset);
    }

    /// \param i index from the oldest \return the slot micropacket i first left in
    Time SlotOf(std::size_t i) const
    {
        const Place p = Locate(i);
        const Entry& e = m_entries[p.entry];
        return e.slot + gsn::MicropacketTime() * int64_t(p.offset * e.stride);
    }

    /**
     * \param i index from the oldest (at most size())
     * \return the index of the first micropacket from i on that carries no credits, size()
     *         if none
     */
    std::size_t FirstWithoutCredits(std::size_t i) const
    {
        return FirstTaking(i, [](const GsnMicropacket& x) { return x.cr == 0; });
    }

    /**
     * \param i index from the oldest (at most size())
     * \param vc a virtual channel
     * \return the index of the first micropacket from i on that carries no credits, or fewer
     *         than the most one carries of \p vc alone; size() if none
     */
    std::size_t FirstWithRoomFor(std::size_t i, uint8_t vc) const
    {
        return FirstTaking(i, [vc](const GsnMicropacket& x) {
            return x.cr == 0 || (x.vcr == vc && x.cr < gsn::MAX_CREDITS_PER_MICROPACKET);
        });
    }

    /// Micropackets that leave one after another, one slot apart or \c stride, and carry no
    /// credits.
    struct Stretch
    {
        Time slot;       ///< when the first leaves
        std::size_t n;   ///< how many (0: the first carries credits)
        uint32_t stride; ///< slots from one to the next
    };

    /// \param i index from the oldest \return the stretch of micropackets from i on to the
    /// end of i's place in the buffer (a stored one and those counted after it)
    Stretch RidersFrom(std::size_t i) const
    {
        const Place p = Locate(i);
        const Entry& e = m_entries[p.entry];
        const std::size_t n = p.offset == 0 && e.mp.cr != 0 ? 0 : 1 + e.following - p.offset;
        return {e.slot + gsn::MicropacketTime() * int64_t(p.offset * e.stride), n, e.stride};
    }

    /// \return the TSEQ of the oldest micropacket (not empty())
    uint8_t FrontTseq() const
    {
        return m_entries.front().mp.tseq;
    }

    /// \return the slot the oldest micropacket left in (not empty())
    const Time& FrontSlot() const
    {
        return m_entries.front().slot;
    }

    /// \param n how many of the oldest micropackets to drop (at most size())
    void PopFront(std::size_t n)
    {
        NS_ASSERT(n <= m_size);
        m_size -= n;
        m_hintEntry = NO_HINT;
        m_leavingKnown = false;
        std::size_t whole = 0;
        while (n > 0 && n > m_entries[whole].following)
        {
            n -= 1 + m_entries[whole].following;
            ++whole;
        }
        m_entries.pop_front(whole);
        if (n > 0)
        {
            // The oldest left is not stored: the one it follows becomes it.
            Entry& e = m_entries.front();
            e.mp = e.mp.FollowingOnLink(uint32_t(n));
            e.slot += gsn::MicropacketTime() * int64_t(n * e.stride);
            e.following = uint16_t(e.following - n);
            e.first += uint32_t(n);
        }
    }

    /**
     * Give micropacket i its own place, so that it can be changed (credits put on it).
     * \param i index from the oldest \return it
     */
    GsnMicropacket& Store(std::size_t i)
    {
        const Place p = Locate(i);
        if (p.offset == 0)
        {
            return m_entries[p.entry].mp;
        }
        Entry& e = m_entries[p.entry];
        const uint32_t after = e.following - p.offset; // those after i that follow e
        const Time step = gsn::MicropacketTime() * int64_t(e.stride);
        Entry mine{e.mp.FollowingOnLink(p.offset),
                   e.slot + step * int64_t(p.offset),
                   0,
                   e.stride,
                   e.first + p.offset};
        e.following = uint16_t(p.offset - 1);
        std::size_t at = p.entry + 1;
        Insert(at, std::move(mine));
        if (after > 0)
        {
            const Entry& m = m_entries[at];
            Insert(at + 1,
                   Entry{m.mp.FollowingOnLink(1),
                         m.slot + step,
                         uint16_t(after - 1),
                         m.stride,
                         m.first + 1});
        }
        m_hintEntry = at; // (credits go on the next ones in turn)
        m_hintFirst = i;
        return m_entries[at].mp;
    }

    /// \param t a time \return the index of the first micropacket that left after \p t
    /// (slots increase from the oldest), size() if none
    std::size_t FirstLeavingAfter(const Time& t) const
    {
        // (Asked again at the same time while nothing is pushed or popped: a switch output
        // choosing a run frees one place after another of the same input port at one
        // instant. Store() moves no micropacket's index or slot.)
        if (m_leavingKnown && m_leavingTime == t)
        {
            NS_ASSERT(m_leavingIndex == SearchFirstLeavingAfter(t));
            return m_leavingIndex;
        }
        m_leavingKnown = true;
        m_leavingTime = t;
        m_leavingIndex = SearchFirstLeavingAfter(t);
        return m_leavingIndex;
    }

  private:
    /**
     * \param i index from the oldest (at most size())
     * \param takes whether a stored micropacket may take credits (one counted after a stored
     *        one carries none and always may)
     * \return the index of the first micropacket from i on that may, size() if none
     */
    template <class Takes>
    std::size_t FirstTaking(std::size_t i, Takes takes) const
    {
        if (i >= m_size)
        {
            return m_size;
        }
        const Place p = Locate(i);
        if (p.offset > 0)
        {
            return i; // (a counted micropacket carries none)
        }
        for (std::size_t e = p.entry; e < m_entries.size(); ++e)
        {
            if (takes(m_entries[e].mp))
            {
                return i;
            }
            if (m_entries[e].following > 0)
            {
                return i + 1;
            }
            ++i;
        }
        return m_size;
    }

    /// FirstLeavingAfter() without its memory. \param t a time \return the index
    std::size_t SearchFirstLeavingAfter(const Time& t) const
    {
        // The last entry that left by t, found by halves (slots increase from the oldest
        // entry): a port asks at every place freed while its run is on the wire, and a run of
        // interleaved VCs stores each of its micropackets.
        std::size_t lo = 0;
        std::size_t hi = m_entries.size();
        while (lo < hi)
        {
            const std::size_t mid = (lo + hi) / 2;
            if (m_entries[mid].slot <= t)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        if (lo == 0)
        {
            return 0;
        }
        const Entry& x = m_entries[lo - 1];
        // (Steps of 40 ns slots, or of stride slots: those of this entry up to t have left.)
        const int64_t gone =
            (t - x.slot).GetTimeStep() / (gsn::MicropacketTime().GetTimeStep() * x.stride) + 1;
        return IndexOf(lo - 1) + std::size_t(std::min<int64_t>(gone, 1 + x.following));
    }

    /// A stored micropacket and how many follow it unstored.
    struct Entry
    {
        GsnMicropacket mp;     ///< as first sent
        Time slot;             ///< the slot it first left in (later than now inside a run)
        /// micropackets after it, each FollowingOnLink() of it (fewer than the 255 TSEQs)
        uint16_t following{0};
        uint16_t stride{1}; ///< slots from one micropacket of the entry to the next
        /// Its stored micropacket's number, counting every micropacket pushed (wrapping):
        /// its index is this less the oldest entry's (IndexOf())
        uint32_t first{0};

        /// See GsnRingBuffer: a popped entry lets go of the Message only.
        void Vacate()
        {
            mp.Vacate();
        }
    };

    /// Where micropacket i is: an entry and the places after its stored micropacket.
    struct Place
    {
        std::size_t entry; ///< index in m_entries
        uint32_t offset;   ///< 0: the stored micropacket
    };

    /// \param i index from the oldest \return where it is
    Place Locate(std::size_t i) const
    {
        NS_ASSERT(i < m_size);
        if (m_size == m_entries.size())
        {
            return {i, 0}; // every micropacket stored
        }
        if (m_hintEntry != NO_HINT && m_hintFirst <= i && i - m_hintFirst < 16)
        {
            // On from the entry found last (a port puts credits on one after another), a
            // few entries at most.
            return LocateFrom(i, m_hintEntry, m_hintFirst);
        }
        // By halves over the entries' numbers (the run under way, at the end, may hold
        // hundreds of entries).
        std::size_t lo = 1;
        std::size_t hi = m_entries.size();
        while (lo < hi) // the first entry after i's
        {
            const std::size_t mid = (lo + hi) / 2;
            if (IndexOf(mid) <= i)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return LocateFrom(i, lo - 1, IndexOf(lo - 1));
    }

    /**
     * Locate() from entry \p e on, whose stored micropacket is micropacket \p first (at
     * most \p i); keeps what it finds as the hint.
     * \param i index from the oldest \param e an entry \param first its index
     * \return where micropacket i is
     */
    Place LocateFrom(std::size_t i, std::size_t e, std::size_t first) const
    {
        while (i > first + m_entries[e].following)
        {
            first += 1 + m_entries[e].following;
            ++e;
        }
        m_hintEntry = e;
        m_hintFirst = first;
        return {e, uint32_t(i - first)};
    }

    /// \param e index in m_entries \return the index of its stored micropacket from the oldest
    std::size_t IndexOf(std::size_t e) const
    {
        return uint32_t(m_entries[e].first - m_entries.front().first);
    }

    /// \param at index in m_entries \param x entry to put there, moving those after it back
    void Insert(std::size_t at, Entry&& x)
    {
        m_hintEntry = NO_HINT; // (entries move: Store() finds it again)
        m_entries.push_back_slot() = std::move(x);
        for (std::size_t j = m_entries.size() - 1; j > at; --j)
        {
            std::swap(m_entries[j], m_entries[j - 1]);
        }
    }

    GsnRingBuffer<Entry> m_entries; ///< oldest first
    std::size_t m_size{0};          ///< micropackets in all entries
    uint32_t m_pushed{0};           ///< micropackets ever pushed (wrapping): the next one's number
    /// m_hintEntry when there is no hint
    static constexpr std::size_t NO_HINT = SIZE_MAX;
    /// Locate(): the entry found last, where a search for a later micropacket starts
    /// (NO_HINT once entries move or leave: Insert(), PopFront(), clear())
    mutable std::size_t m_hintEntry{NO_HINT};
    mutable std::size_t m_hintFirst{0}; ///< the index of its stored micropacket
    /// FirstLeavingAfter(): the last time asked and its answer, while m_leavingKnown (no
    /// micropacket pushed or popped since)
    mutable Time m_leavingTime;
    mutable std::size_t m_leavingIndex{0}; ///< see m_leavingTime
    mutable bool m_leavingKnown{false};    ///< see m_leavingTime
};

} // namespace ns3

#endif /* GSN_RETRANSMIT_BUFFER_H */
