/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTimedCredits: credit changes that take effect at a known later time, in time order.
 */
#ifndef GSN_TIMED_CREDITS_H
#define GSN_TIMED_CREDITS_H

#include "gsn-constants.h"
#include "gsn-ring-buffer.h"

#include "ns3/assert.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Counts per VC that take effect at known later times, earliest first.
 *
 * In the run mode a port works ahead of time: it takes a run's micropackets when the first
 * arrives and a switch output chooses the micropackets of its later slots at once. What
 * that frees or brings (a receive-buffer place that a later slot empties, the credits a
 * micropacket of a run carries) belongs to that later time; the port keeps it here and
 * counts it when its own choices reach that time, so that no credit goes back or is used
 * before it exists.
 */
class GsnTimedCredits
{
  public:
    /// A count that takes effect at a time; a row (AddRow()) repeats it at later times.
    struct Entry
    {
        Time at;          ///< when it takes effect
        uint8_t vc;       ///< the virtual channel
        uint32_t n;       ///< how many
        uint32_t more{0}; ///< a row: as many more counts of n follow, one every step
        Time step{};      ///< a row: the time between them

        /// \return the time of the row's last count (at, if not a row)
        Time Last() const
        {
            return at + step * int64_t(more);
        }
    };

    /// \return true if nothing is waiting
    bool empty() const
    {
        return m_entries.empty();
    }

    /// \return the earliest entry (not empty)
    const Entry& front() const
    {
        return m_entries.front();
    }

    /// Forget the earliest entry (of a row, the earliest count).
    void pop_front()
    {
        TakeFromFront(1);
    }

    /**
     * Take the earliest entry, which is due by \p t; of a row, the counts due by \p t
     * together, as one entry at the time of the first.
     * \param t a time (HasDue(t)) \return what was taken
     */
    Entry TakeDue(const Time& t)
    {
        Entry e = m_entries.front();
        const uint32_t k = DueCounts(e, t);
        TakeFromFront(k);
        e.n *= k;
        e.more = 0;
        return e;
    }

    /// \param t a time \return true if an entry takes effect at or before \p t
    bool HasDue(const Time& t) const
    {
        return m_next <= t && !m_entries.empty(); // asked at every slot: mostly one comparison
    }

    /// \param t a time \return true if an entry takes effect before \p t
    bool HasDueBefore(const Time& t) const
    {
        return m_next < t && !m_entries.empty();
    }

    /// \param vc a virtual channel \return the counts of \p vc in all entries
    uint32_t Total(uint8_t vc) const
    {
        return m_total[vc];
    }

    /// \param vc a virtual channel \return when the first count of \p vc takes effect
    /// (Time::Max() if none waits)
    Time FirstOf(uint8_t vc) const
    {
        if (m_total[vc] == 0)
        {
            return Time::Max();
        }
        std::size_t i = 0; // (entries are in the order of their first counts)
        while (m_entries[i].vc != vc)
        {
            ++i;
        }
        return m_entries[i].at;
    }

    /**
     * Add a count; entries at the same time keep the order they were added in.
     * \param at when it takes effect
     * \param vc the virtual channel
     * \param n how many
     */
    void Add(const Time& at, uint8_t vc, uint32_t n)
    {
        Insert(Entry{at, vc, n});
    }

    /**
     * Add the count \p n at \p at and at each of the \p count - 1 times one \p step
     * apart after it, as one entry (credits riding on micropackets that follow one another).
     * \param at when the first takes effect \param step the time between them (positive)
     * \param vc the virtual channel \param n how many each \param count how many counts
     */
    void AddRow(const Time& at, const Time& step, uint8_t vc, uint32_t n, uint32_t count)
    {
        NS_ASSERT(count > 0 && step.IsStrictlyPositive());
        if (!m_entries.empty())
        {
            // The next of the last row (credits put on one rider after another): it grows.
            Entry& last = m_entries.back();
            if (last.vc == vc && last.n == n && at > last.at &&
                (last.more == 0 ? at - last.at == step : last.step == step) &&
                last.Last() + step == at)
            {
                last.step = step;
                last.more += count;
                m_total[vc] += n * count;
                return;
            }
        }
        Insert(Entry{at, vc, n, count - 1, step});
    }

    /// \param vc a virtual channel \param t a time \return the counts of \p vc due by \p t
    uint32_t SumDue(uint8_t vc, const Time& t) const
    {
        uint32_t sum = 0;
        for (std::size_t i = 0; i < m_entries.size() && m_entries[i].at <= t; ++i)
        {
            const Entry& e = m_entries[i];
            sum += e.vc == vc ? e.n * DueCounts(e, t) : 0;
        }
        return sum;
    }

    /// \param t a time \return the counts of each VC due by \p t (SumDue() of every VC, in
    /// one pass over the entries)
    std::array<uint32_t, gsn::NUM_VCS> SumsDue(const Time& t) const
    {
        std::array<uint32_t, gsn::NUM_VCS> sums{};
        for (std::size_t i = 0; i < m_entries.size() && m_entries[i].at <= t; ++i)
        {
            const Entry& e = m_entries[i];
            sums[e.vc] += e.n * DueCounts(e, t);
        }
        return sums;
    }

    /**
     * How many slots one after another can each use one count of \p vc: slot j (from 0)
     * at \p first + j x \p step has \p have plus the counts of \p vc due by its time, less
     * the j used before it (credits arriving while a VC sends).
     * \param vc a virtual channel \param have counts at hand \param first the first slot
     * \param step the time between slots \param max the most to look at
     * \return how many slots from the first have a count, at most \p max
     */
    uint32_t SlotsCovered(uint8_t vc,
                          int64_t have,
                          const Time& first,
                          const Time& step,
                          uint32_t max) const
    {
        if (m_total[vc] == 0)
        {
            return uint32_t(std::clamp<int64_t>(have, 0, max));
        }
        // The first slots use the counts at hand; after have + Total(vc) none is left.
        uint32_t j = uint32_t(std::clamp<int64_t>(have, 0, max));
        const int64_t most = have + int64_t(m_total[vc]);
        // SumDue(vc, t) as t grows: the entries due so far once each, a row's counts anew.
        std::size_t i = 0;
        uint32_t single = 0;               // counts of vc's entries due so far that are not rows
        std::array<std::size_t, 8> rows{}; // vc's rows due so far
        std::size_t nRows = 0;
        bool manyRows = false; // more than rows holds: SumDue() itself
        for (Time t = first + step * int64_t(j); j < max && int64_t(j) < most; ++j, t += step)
        {
            for (; i < m_entries.size() && m_entries[i].at <= t; ++i)
            {
                const Entry& e = m_entries[i];
                if (e.vc != vc)
                {
                    continue;
                }
                if (e.more == 0)
                {
                    single += e.n;
                }
                else if (nRows < rows.size())
                {
                    rows[nRows++] = i;
                }
                else
                {
                    manyRows = true;
                }
            }
            uint32_t due = single;
            for (std::size_t r = 0; r < nRows; ++r)
            {
                due += m_entries[rows[r]].n * DueCounts(m_entries[rows[r]], t);
            }
            due = manyRows ? SumDue(vc, t) : due;
            NS_ASSERT(due == SumDue(vc, t));
            if (have + due - int64_t(j) < 1)
            {
                break;
            }
        }
        return j;
    }

    /**
     * \param start counts per VC before the first entry
     * \param threshold a count
     * \return when some VC's count first reaches \p threshold, adding the entries in
     *         order, or Time::Max() if none does
     */
    Time FirstReaching(std::array<uint32_t, gsn::NUM_VCS> start, uint32_t threshold) const
    {
        for (std::size_t i = 0; i < m_entries.size(); ++i)
        {
            const Entry& e = m_entries[i];
            NS_ASSERT_MSG(e.more == 0, "rows are not ordered with the entries after them");
            start[e.vc] += e.n;
            if (start[e.vc] >= threshold)
            {
                return e.at;
            }
        }
        return Time::Max();
    }

    /// Forget everything.
    void clear()
    {
        m_entries.clear();
        m_total.fill(0);
        m_next = Time::Max();
    }

  private:
    /// \param e an entry \param t a time at or after e.at \return how many of its counts are
    /// due by t
    static uint32_t DueCounts(const Entry& e, const Time& t)
    {
        if (e.more == 0)
        {
            return 1;
        }
        const int64_t due = (t - e.at).GetTimeStep() / e.step.GetTimeStep() + 1;
        return uint32_t(std::min<int64_t>(due, int64_t(e.more) + 1));
    }

    /// \param e an entry to keep: after those at or before its time (mostly added in time
    /// order; otherwise it moves back to its place)
    void Insert(Entry&& e)
    {
        const Time at = e.at;
        m_total[e.vc] += e.n * (e.more + 1);
        m_next = std::min(m_next, at);
        m_entries.push_back(std::move(e));
        for (std::size_t i = m_entries.size() - 1; i > 0 && m_entries[i - 1].at > at; --i)
        {
            std::swap(m_entries[i - 1], m_entries[i]);
        }
    }

    /// Forget the first \p k counts of the earliest entry (at most all of them).
    /// \param k how many
    void TakeFromFront(uint32_t k)
    {
        Entry& e = m_entries.front();
        m_total[e.vc] -= e.n * k;
        if (k <= e.more)
        {
            e.more -= k;
            e.at += e.step * int64_t(k);
            MoveFrontBack(); // (a row's next count may come after later entries)
            return;
        }
        m_entries.pop_front();
        m_next = m_entries.empty() ? Time::Max() : m_entries.front().at;
    }

    /// The earliest entry, a row whose first count went, moves back to its place.
    void MoveFrontBack()
    {
        for (std::size_t i = 0; i + 1 < m_entries.size() && m_entries[i + 1].at < m_entries[i].at;
             ++i)
        {
            std::swap(m_entries[i], m_entries[i + 1]);
        }
        m_next = m_entries.front().at;
    }

    // (Storage given back when empty, although a switch input's idle port fills and empties
    // it at every instant (keeping it saves 2% of the micropacket mode's instructions): kept,
    // the rings of every port took the run mode with random VCs on the 1024-endpoint fat
    // tree from 99.5 to 104.5 KiB per endpoint, over the project's 100.)
    GsnRingBuffer<Entry, false> m_entries;        ///< earliest first (mostly empty)
    std::array<uint32_t, gsn::NUM_VCS> m_total{}; ///< counts per VC in m_entries
    Time m_next{Time::Max()};                     ///< the earliest entry's time
};

} // namespace ns3

#endif /* GSN_TIMED_CREDITS_H */
