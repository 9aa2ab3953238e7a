/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::LaterAcks: the acknowledgements (RSEQs) a port took ahead of their arrival and applies
 * when its own choices reach that time. Part of GsnPortDevice's private state; not API.
 */
#ifndef GSN_LATER_ACKS_H
#define GSN_LATER_ACKS_H

#include "gsn-micropacket-run.h"
#include "gsn-ring-buffer.h"

#include "ns3/assert.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{
namespace gsn
{

/// An acknowledgement that arrives later, on a micropacket taken ahead of its arrival.
struct LaterAck
{
    Time at;                        ///< when its micropacket arrives
    const GsnMicropacketRun* run{}; ///< the run (for the RSEQ amended since), or none
    uint32_t index{0};              ///< the micropacket's index in the run
    uint8_t rseq{0};                ///< its RSEQ as chosen (final without a run)

    /// \return the RSEQ it carries
    uint8_t Rseq() const
    {
        return run ? run->RseqOf(index, rseq) : rseq;
    }
};

/**
 * \ingroup gsn
 * \brief The RSEQs a port took ahead of their arrival, in arrival order, until they count.
 *
 * In the run mode a port may take a run's micropackets before they arrive. The RSEQ each
 * carries acknowledges from its arrival, so the port keeps it here and applies it when its
 * own choices reach that time. While the peer is still sending the run, the peer may amend
 * the RSEQs of its later micropackets (acknowledgements it came to owe meanwhile): such an
 * entry refers to the run and reads its RSEQ there when applied, and the run is held (kept
 * alive, and told the receiver reads it) until the peer has sent all of it (RunFinished()).
 *
 * RSEQs only grow, so the entries due by a time apply as their last one does, from the
 * arrival of the first entry that carries that RSEQ (TakeDue()).
 */
class LaterAcks
{
  public:
    /// The RSEQ to apply and the arrival it counts from (TakeDue()).
    struct Due
    {
        uint8_t rseq; ///< the last RSEQ due
        Time from;    ///< when the first micropacket carrying it arrived
    };

    /// \return true if nothing is kept
    bool empty() const
    {
        return m_acks.empty();
    }

    /// \return how many entries are kept
    std::size_t size() const
    {
        return m_acks.size();
    }

    /// \param t a time \return true if an entry arrives by \p t
    bool HasDueBy(const Time& t) const
    {
        return !m_acks.empty() && m_acks.front().at <= t;
    }

    /// \return the earliest arrival kept (not empty)
    const Time& FirstArrival() const
    {
        return m_acks.front().at;
    }

    /**
     * Keep the RSEQ of a micropacket of a run the peer is still sending: it is read from the
     * run when applied (the peer may amend it until the run has left).
     * \param at its arrival \param run the run (held until RunFinished())
     * \param index its index in the run \param rseq its RSEQ as chosen
     */
    void AddOnLiveRun(const Time& at, GsnMicropacketRun* run, uint32_t index, uint8_t rseq)
    {
        Push(at, run, index, rseq);
        if (PeekPointer(m_liveRun) != run)
        {
            m_liveRun = run; // kept until it has left
            run->heldByReceiver = true;
        }
    }

    /**
     * Keep a final RSEQ (a run that has left, or a micropacket taken ahead on its own). The
     * same RSEQ as the last final one changes nothing and is not kept.
     * \param at its arrival \param index its index in its run \param rseq the RSEQ
     */
    void AddFinal(const Time& at, uint32_t index, uint8_t rseq)
    {
        if (!m_acks.empty() && !m_acks.back().run && m_acks.back().rseq == rseq)
        {
            return;
        }
        Push(at, nullptr, index, rseq);
    }

    /**
     * Take the entries that arrive by \p t (HasDueBy(t)).
     * \param t a time \return the RSEQ they apply and the arrival it counts from
     */
    Due TakeDue(const Time& t)
    {
        NS_ASSERT(HasDueBy(t));
        // Both found by bisection: the entries are in time order, and the last RSEQ is
        // carried by a suffix of them.
        std::size_t lo = 1;
        std::size_t hi = m_acks.size();
        while (lo < hi) // the count of entries due by t
        {
            const std::size_t mid = (lo + hi) / 2;
            if (m_acks[mid].at <= t)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        const std::size_t due = lo;
        const uint8_t rseq = m_acks[due - 1].Rseq();
        lo = 0;
        hi = due - 1;
        while (lo < hi) // the first of them carrying it
        {
            const std::size_t mid = (lo + hi) / 2;
            if (m_acks[mid].Rseq() == rseq)
            {
                hi = mid;
            }
            else
            {
                lo = mid + 1;
            }
        }
        const Time from = m_acks[lo].at;
        if (const GsnMicropacketRun* run = m_acks[due - 1].run)
        {
            run->ackApplied = m_acks[due - 1].index; // (its amendments reach it no more)
        }
        m_acks.pop_front(due);
        return {rseq, from};
    }

    /**
     * \param t a time \param rseq set to the RSEQ of the last entry arrived by \p t
     * \return true if one has
     */
    bool LastArrivedBy(const Time& t, uint8_t& rseq) const
    {
        for (std::size_t i = m_acks.size(); i-- > 0;)
        {
            if (m_acks[i].at <= t)
            {
                rseq = m_acks[i].Rseq();
                return true;
            }
        }
        return false;
    }

    /**
     * The peer has sent all of \p run: its entries (the last ones) take their final RSEQs,
     * and the run is let go.
     * \param run a run of the peer's
     */
    void RunFinished(const GsnMicropacketRun* run)
    {
        for (std::size_t i = m_acks.size(); i-- > 0;)
        {
            LaterAck& a = m_acks[i];
            if (a.run != run)
            {
                break; // (older entries are final already)
            }
            a.rseq = a.Rseq();
            a.run = nullptr;
        }
        if (PeekPointer(m_liveRun) == run)
        {
            m_liveRun = nullptr;
        }
    }

    /// Forget everything (a link reset).
    void clear()
    {
        m_acks.clear();
        m_liveRun = nullptr;
    }

  private:
    void Push(const Time& at, const GsnMicropacketRun* run, uint32_t index, uint8_t rseq)
    {
        LaterAck& a = m_acks.push_back_slot();
        a.at = at;
        a.run = run;
        a.index = index;
        a.rseq = rseq;
    }

    GsnRingBuffer<LaterAck, false> m_acks; ///< in arrival order
    Ptr<GsnMicropacketRun> m_liveRun;      ///< the peer's run entries refer to, while it is sent
};

} // namespace gsn
} // namespace ns3

#endif /* GSN_LATER_ACKS_H */
