/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Go-back-N retransmission: the timer, RSEQs taken, and acknowledgements amended onto runs.
// (GsnPortDevice is written in several files, one per part of the link layer; see
// gsn-port-device.cc for the list.)
#include "gsn-channel.h"
#include "gsn-now.h"
#include "gsn-port-device-private.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_PORT_DEVICE_LOG();

Time
GsnPortDevice::GetRetransmitTimeout() const
{
    if (!m_retransmitTimeout.IsZero())
    {
        return m_retransmitTimeout;
    }
    const Time delay = m_channel ? m_channel->GetDelay() : Time(0);
    // In runs, the acknowledgements riding on the peer's run are as old as the run: the last
    // of MaxRunLength micropackets carries what was owed MaxRunLength - 1 slots before it
    // leaves (runs of one are acknowledged as micropacket by micropacket). With ExactCredits
    // they are amended to what micropacket by micropacket they would be.
    const int64_t runSlots =
        m_linkMode == LinkMode::RUN && !ExactAcks() ? int64_t(m_maxRunLength) - 1 : 0;
    return 2 * (delay + 20 * gsn::MicropacketTime()) + m_ackDelay +
           runSlots * gsn::MicropacketTime();
}

void
GsnPortDevice::ArmRetransmitTimer()
{
    // The deadline is checked whenever a slot's micropacket is chosen; the timer event is
    // needed only while the transmitter idles (ArmIdleTimers).
    if (m_retx.size() == 1)
    {
        m_rtxDeadline = m_slotTime + GetRetransmitTimeout();
    }
}

void
GsnPortDevice::RetransmitTimeout()
{
    const gsn::TimerEventCount counted(m_counters);
    m_rtxTimer.Clear();
    ApplyDueCredits(gsn::Now()); // acknowledgements that arrived meanwhile
    ReleaseAckedThatLeft();
    if (!RetransmitDeadlinePassed(gsn::Now()))
    {
        // Progress was made since the timer was set: wait for the new deadline (while the
        // transmitter is busy, its next choice checks the deadline).
        if (m_state == LinkState::UP && !m_retx.empty() && !m_txBusy)
        {
            Arm(m_rtxTimer, m_rtxDeadline - gsn::Now(), &GsnPortDevice::RetransmitTimeout);
        }
        return;
    }
    ExpireRetransmitTimer();
    NotifyTxReady();
}

void
GsnPortDevice::ExpireRetransmitTimer()
{
    ++m_counters.retransmitTimeouts;
    if (++m_timeoutsWithoutProgress >= m_maxRetransmitTries)
    {
        NS_LOG_WARN(this << " no acknowledgement after " << m_maxRetransmitTries
                         << " timeouts: resetting the link");
        ResetLink();
        return;
    }
    const std::size_t unacked = m_retx.size() - m_ackedAhead;
    NS_LOG_LOGIC(this << " go-back-N: resending " << unacked << " micropackets");
    m_retransmitTrace(uint32_t(unacked));
    m_resendIndex = uint32_t(m_ackedAhead);
    m_rtxDeadline = gsn::Now() + GetRetransmitTimeout();
}

// Let the acknowledged micropackets kept until their slot (m_ackedAhead) that have left by now
// leave the retransmission buffer; all of them if all (true at a reset). They are kept while the
// transmitter is busy: credits ride on the run's micropackets still to leave
// (PutOwedCreditsOnRun()), which a peer that took the run ahead may acknowledge at once and, with
// timed acknowledgements, this port applies up to the later slots it chooses.
void
GsnPortDevice::ReleaseAckedThatLeft(bool all)
{
    if (m_ackedAhead == 0)
    {
        return;
    }
    const std::size_t leave =
        all ? m_ackedAhead : std::min(m_ackedAhead, m_retx.FirstLeavingAfter(gsn::Now()));
    m_ackedAhead -= leave;
    DropOldestSent(leave);
}

// Drop the n oldest micropackets from the retransmission buffer (acknowledged), moving the indices
// into it along.
void
GsnPortDevice::DropOldestSent(std::size_t n)
{
    if (n == 0)
    {
        return;
    }
    m_retx.PopFront(n);
    // (Indices into the buffer move with it.)
    m_ackedCreditsUpTo = m_ackedCreditsUpTo > n ? m_ackedCreditsUpTo - n : 0;
    m_resendIndex = m_resendIndex > n ? uint32_t(m_resendIndex - n) : 0;
}

// Apply an acknowledgement. rseq: the RSEQ received; at: when it arrived (the go-back-N timer
// restarts from then), null: now.
void
GsnPortDevice::ProcessRseq(uint8_t rseq, const Time* at)
{
    const std::size_t waiting = m_retx.size() - m_ackedAhead;
    if (waiting == 0)
    {
        return;
    }
    // RSEQ names the last TSEQ accepted; everything up to it leaves the buffer.
    const uint32_t n = uint8_t(rseq - FirstUnackedTseq() + 1);
    if (n == 0 || n > waiting)
    {
        return; // nothing new, or a stale value from before a reset
    }
    const std::size_t acked = m_ackedAhead + n;
    std::size_t leave = acked;
    if (m_txBusy)
    {
        // The peer took this run ahead and acknowledges micropackets still to leave: they
        // stay until their slot, so that credits freed meanwhile still ride on them, as
        // micropacket by micropacket on the next ones to leave.
        leave = std::min(acked, m_retx.FirstLeavingAfter(gsn::Now()));
    }
    DropOldestSent(leave);
    m_ackedAhead = acked - leave;
    if (m_retx.empty() && m_rtxTimer.pending && m_removeIsSafe)
    {
        // All acknowledged: the timer has nothing to guard. Removed rather than cancelled,
        // so that it costs no event (a window-limited link would wake once per window).
        Simulator::Remove(m_rtxTimer.event);
        m_rtxTimer.Clear();
    }
    m_timeoutsWithoutProgress = 0;
    // The oldest micropacket still waiting may have left after now, in a run chosen ahead.
    const Time t = at ? *at : gsn::Now();
    const Time from = m_retx.size() == m_ackedAhead ? t
                      : m_ackedAhead == 0           ? std::max(t, m_retx.FrontSlot())
                                                    : std::max(t, m_retx.SlotOf(m_ackedAhead));
    m_rtxDeadline = from + GetRetransmitTimeout();
    NotifyTxReady();
}

// The RSEQ of the micropacket being received: apply it, or with timed acknowledgements keep it
// until the micropacket arrives.
void
GsnPortDevice::TakeRseq(uint8_t rseq)
{
    if (TimesAcknowledgements() || m_timedTake)
    {
        TakeTimedRseq(rseq);
        return;
    }
    ProcessRseq(RseqInRun(rseq), nullptr);
}

// TakeRseq() with timed acknowledgements (ExactAcks() or ExactCredits).
void
GsnPortDevice::TakeTimedRseq(uint8_t rseq)
{
    // (Credits ride on the run's micropackets that wait in the retransmission buffer: what
    // the RSEQ acknowledges must stay there until its arrival, ApplyArrivedAcks(), so it is
    // kept below.)
    if (m_rxAhead)
    {
        // A micropacket of a run taken ahead of its arrival: it acknowledges from then. While
        // the run is being sent its RSEQs may still be amended: the entry refers to it, and
        // reads the RSEQ there when it is applied. After that, the same RSEQ again changes
        // nothing.
        if (m_rxRun && !m_rxRun->finished) // (TakeAhead: no run)
        {
            m_laterAcks.AddOnLiveRun(m_rxArrival, m_rxRun, m_rxIndex, rseq);
        }
        else
        {
            m_laterAcks.AddFinal(m_rxArrival, m_rxIndex, RseqInRun(rseq));
        }
        return;
    }
    // The earlier ones first (it arrives now); places other ports' choices free at its
    // arrival stay for that instant's choice (as in ApplyTakenAhead()).
    ApplyDueCredits(m_rxArrival, m_placesFreedElsewhere);
    ProcessRseq(RseqInRun(rseq), &m_rxArrival);
}

// Returns whether RSEQs for the peer can be gathered now (into gather).
bool
GsnPortDevice::GatherPeerRseqs(PeerRseqs& gather) const
{
    GsnPortDevice* peer = m_channel ? m_channel->PeerOf(this) : nullptr;
    if (!peer || !peer->m_txBusy)
    {
        return false; // (the first RSEQ might start its transmitter)
    }
    peer->ApplyArrivedAcks();
    gather.peer = peer;
    gather.waiting = peer->m_retx.size() - peer->m_ackedAhead;
    gather.front = gather.waiting > 0 ? peer->FirstUnackedTseq() : 0;
    return true;
}

// Apply the RSEQs gathered in gather (one ProcessRseq() of the peer, if any).
void
GsnPortDevice::ApplyPeerRseqs(const PeerRseqs& gather)
{
    if (gather.any)
    {
        const Time at = gather.run->ArrivalOf(gather.k);
        gather.peer->ProcessRseq(gather.rseq, &at);
    }
}

// ExactAcks(): a micropacket arriving at arrival was accepted during a run of this port: its RSEQ
// goes with the run's first later slot, as micropacket by micropacket. Returns false if the run has
// no such slot. FirstSlotFrom(arrival) (in the header), for a time while this port's run is on the
// wire (m_txRun set): the index of the run's first micropacket leaving at arrival or later (Size()
// if none), the first that acknowledges what arrives then.
bool
GsnPortDevice::AmendRunAcks(const Time& arrival)
{
    if (!m_txBusy || !m_txRun || arrival >= m_runEnd || !m_channel)
    {
        return false;
    }
    const std::size_t k = FirstSlotFrom(arrival);
    if (k >= m_txRun->Size())
    {
        return false;
    }
    const uint8_t rseq = uint8_t(m_expectedTseq - 1); // all accepted arrived by then
    m_txRun->AmendRseqFrom(k, rseq);
    m_laterArrivals.clear();
    m_rxUnacked = 0;
    m_ackDue = false;
    if (int64_t(k) <= m_txRun->ackApplied || (!ExactAcks() && k < m_txRun->next))
    {
        AmendPeerRseq(rseq, k);
    }
    return true;
}

// AmendRunAcks(): the peer has taken micropacket k of this port's run already: it applies rseq now.
void
GsnPortDevice::AmendPeerRseq(uint8_t rseq, std::size_t k)
{
    // The peer chose ahead past micropacket k of the run with the RSEQ as it was: it applies
    // the amended one now, with its own time (its next choice is after it).
    if (GsnPortDevice* peer = m_channel->PeerOf(this))
    {
        peer->ApplyArrivedAcks(); // (earlier RSEQs first)
        const Time at = m_txRun->ArrivalOf(k);
        peer->ProcessRseq(rseq, &at);
    }
}

// ExactAcks(): when a Null becomes due (AckThreshold micropackets arrived unacknowledged, or the
// oldest waited AckDelay), counting those taken ahead from their arrival; Time::Max() if none is
// owed.
Time
GsnPortDevice::NextAckDue() const
{
    if (m_rxUnacked == 0 && m_laterArrivals.empty())
    {
        return Time::Max();
    }
    if (NullDue())
    {
        return gsn::Now();
    }
    // As micropacket by micropacket: when AckThreshold are owed, or the oldest has waited
    // AckDelay.
    const Time oldest = m_rxUnacked > 0 ? m_oldestUnacked : m_laterArrivals.front();
    Time due = oldest + m_ackDelay;
    const std::size_t more = m_ackThreshold - std::min(m_rxUnacked, m_ackThreshold);
    if (more > 0 && m_laterArrivals.size() >= more)
    {
        due = std::min(due, m_laterArrivals[more - 1]);
    }
    return due;
}

void
GsnPortDevice::AckRunFinished(const GsnMicropacketRun* run)
{
    m_laterAcks.RunFinished(run);
}

} // namespace ns3
