/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::ScheduledArrivals: the arrivals a channel scheduled at a port and whether the port has
 * taken them, so that a slot's end can let an arrival of its own instant run first. Part of
 * GsnPortDevice's private state; not API.
 */
#ifndef GSN_SCHEDULED_ARRIVALS_H
#define GSN_SCHEDULED_ARRIVALS_H

#include "gsn-ring-buffer.h"

#include "ns3/nstime.h"

#include <memory>

namespace ns3
{
namespace gsn
{

/**
 * \ingroup gsn
 * \brief The first arrivals a channel scheduled at one port, and when the port last took one.
 *
 * Micropacket by micropacket, what arrives at the instant a slot ends comes first (an arrival
 * is scheduled one cable delay ahead, a slot's end one slot ahead); a run's end, scheduled at
 * its start, asks PendingAt() to do the same. Without keeping every arrival only the last one
 * scheduled is known: enough where the run mode is not exact anyway, and it keeps no list
 * (every arrival kept took about 0.5 KiB more per endpoint of the loaded k = 16 fat tree).
 */
class ScheduledArrivals
{
  public:
    /**
     * The channel scheduled a transmission of the peer to arrive at \p at.
     * \param at the arrival of its first micropacket
     * \param keepAll keep it until taken (else only the last one scheduled is known)
     */
    void Note(const Time& at, bool keepAll)
    {
        m_last = at;
        if (keepAll)
        {
            if (!m_all)
            {
                m_all = std::make_unique<GsnRingBuffer<Time, false>>();
            }
            m_all->push_back(at);
        }
    }

    /**
     * The port took the arrival event of \p now (those scheduled by \p now are gone: taken,
     * or due now and being taken).
     * \param now the current time
     */
    void Take(const Time& now)
    {
        m_takenAt = now;
        while (m_all && !m_all->empty() && m_all->front() <= now)
        {
            m_all->pop_front();
        }
    }

    /// \param now the current time \return whether the port took an arrival event at \p now
    bool TakenAt(const Time& now) const
    {
        return m_takenAt == now;
    }

    /**
     * \param now the current time
     * \return whether an arrival scheduled at \p now has not been taken yet (keeping only the
     *         last: whether that one is at \p now and no arrival was taken at \p now)
     */
    bool PendingAt(const Time& now)
    {
        if (!m_all)
        {
            return m_last == now && m_takenAt != now;
        }
        while (!m_all->empty() && m_all->front() < now)
        {
            m_all->pop_front(); // (taken: every event before now has run)
        }
        return !m_all->empty() && m_all->front() == now;
    }

  private:
    Time m_last{Time::Min()};                          ///< the last arrival scheduled
    std::unique_ptr<GsnRingBuffer<Time, false>> m_all; ///< keepAll: those not taken, in order
    Time m_takenAt{Time::Min()};                       ///< when the last arrival event was taken
};

} // namespace gsn
} // namespace ns3

#endif /* GSN_SCHEDULED_ARRIVALS_H */
