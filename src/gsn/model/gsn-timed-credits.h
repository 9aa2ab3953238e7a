/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTimedCredits: credit changes that take effect at a known later time, in time order.
 */
#ifndef GSN_TIMED_CREDITS_H
#define GSN_TIMED_CREDITS_H

#include "gsn-constants.h"
#include "gsn-ring-buffer.h"

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
    /// A count that takes effect at a time.
    struct Entry
    {
        Time at;    ///< when it takes effect
        uint8_t vc; ///< the virtual channel
        uint32_t n; ///< how many
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

    /// Forget the earliest entry.
    void pop_front()
    {
        m_total[m_entries.front().vc] -= m_entries.front().n;
        m_entries.pop_front();
        m_next = m_entries.empty() ? Time::Max() : m_entries.front().at;
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

    /**
     * Add a count; entries at the same time keep the order they were added in.
     * \param at when it takes effect
     * \param vc the virtual channel
     * \param n how many
     */
    void Add(const Time& at, uint8_t vc, uint32_t n)
    {
        m_entries.push_back(Entry{at, vc, n});
        m_total[vc] += n;
        m_next = std::min(m_next, at);
        // Mostly added in time order; otherwise move it back to its place.
        for (std::size_t i = m_entries.size() - 1; i > 0 && m_entries[i - 1].at > at; --i)
        {
            std::swap(m_entries[i - 1], m_entries[i]);
        }
    }

    /// \param vc a virtual channel \param t a time \return the counts of \p vc due by \p t
    uint32_t SumDue(uint8_t vc, const Time& t) const
    {
        uint32_t sum = 0;
        for (std::size_t i = 0; i < m_entries.size() && m_entries[i].at <= t; ++i)
        {
            sum += m_entries[i].vc == vc ? m_entries[i].n : 0;
        }
        return sum;
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
    GsnRingBuffer<Entry, false> m_entries;        ///< earliest first (mostly empty)
    std::array<uint32_t, gsn::NUM_VCS> m_total{}; ///< counts per VC in m_entries
    Time m_next{Time::Max()};                     ///< the earliest entry's time
};

} // namespace ns3

#endif /* GSN_TIMED_CREDITS_H */
