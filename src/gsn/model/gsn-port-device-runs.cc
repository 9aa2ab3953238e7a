/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// What the run mode adds around the choice of a run's slots: how long a run may be, idle
// slots bridged, Message micropackets that follow appended at once, runs disturbed by a VC
// waiting for their end, and micropackets a busy peer takes ahead of their arrival.
// (GsnPortDevice is written in several files, one per part of the link layer; see
// gsn-port-device.cc for the list.)
#include "gsn-channel.h"
#include "gsn-now.h"
#include "gsn-port-device-private.h"

#include <algorithm>

namespace ns3
{

GSN_PORT_DEVICE_LOG();

// Run mode, nothing to send at m_slotTime: move m_slotTime to when the upper part's next
// micropacket is ready, or a credit arrives for a VC that waits for one, if the run may wait for
// it. Returns true if moved.
bool
GsnPortDevice::BridgeIdleSlots()
{
    // Micropacket by micropacket, the port would idle from m_slotTime and be woken when the
    // upper part's next micropacket is ready, or by the credit a VC waits for. Where that time
    // is known and near, and no timer of this port would act before it, the run may go on from
    // there.
    if (!m_maxRunGap.IsStrictlyPositive())
    {
        return false; // off: no need to ask the upper part
    }
    Time ready = Time::Max();
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (!(m_messageVcs >> vc & 1u))
        {
            continue;
        }
        if (m_txCredits[vc] > 0)
        {
            ready = std::min(ready, NextMessageMicropacketTime(vc));
        }
        else if (m_txCredits[vc] == 0 && m_laterCredits.Total(vc) > 0)
        {
            // Out of credit, with credits for it riding on micropackets of the peer this port
            // has taken ahead: one by one the port would wake at their arrival
            // (ArmDueCreditsTimer()) and send then, or when the micropacket is ready.
            const Time credit = m_laterCredits.FirstOf(vc);
            ready = std::min(ready,
                             HasMessageMicropacket(vc)
                                 ? credit
                                 : std::max(credit, NextMessageMicropacketTime(vc)));
        }
    }
    if (ready <= m_slotTime || ready - m_slotTime > m_maxRunGap || m_state != LinkState::UP ||
        m_retx.size() >= m_retransmitWindow || RetransmitDeadlinePassed(ready))
    {
        return false;
    }
    // The acknowledgement and credit timers would send a Null or Credit-only meanwhile.
    const bool ackTimer = ExactAcks() ? NextAckDue() <= ready
                                      : m_rxUnacked > 0 && m_oldestUnacked + m_ackDelay <= ready;
    const bool creditTimer = m_owedTotal > 0 && m_oldestOwed + m_ackDelay <= ready;
    if (ackTimer || creditTimer)
    {
        return false;
    }
    m_slotTime = ready;
    ApplyDueCredits(m_slotTime);
    return true;
}

// Whether the micropackets ChooseFollowingAhead() takes next may go in run, the run being chosen,
// unstored (GsnMicropacketRun::AppendFollowing()).
bool
GsnPortDevice::CanAppendFollowing() const
{
    // Those after carry no credits (none owed; nothing frees places here meanwhile) and
    // the same RSEQ, and nobody watches them one by one.
    return m_owedTotal == 0 && m_micropacketTxTrace.IsEmpty() && !g_log.IsEnabled(LOG_LOGIC);
}

// Append n micropackets of vc's Message that follow the run's last one, unstored, one every stride
// slots, with what choosing each does here.
void
GsnPortDevice::AppendFollowing(GsnMicropacketRun& run, uint8_t vc, uint32_t n, uint32_t stride)
{
    // What NoteMessageMicropacketTaken, KeepForRetransmission and PrepareToSend do for each
    // of n micropackets that follow the last one of the run, at once; only the ring keeps
    // each (a retransmission sends them one by one). A run with departures keeps each one's.
    const GsnMicropacket& last = run.micropackets.back();
    NS_ASSERT(last.vc == vc && last.tseq == uint8_t(m_nextTseq - 1) && last.rseq == m_rseqSent);
    NS_ASSERT(stride == 1 || !run.departures.empty());
    const int64_t step = int64_t(stride) * gsn::MICROPACKET_TIME_NS;
    for (uint32_t j = 0; j < n && !run.departures.empty(); ++j)
    {
        run.departures.push_back(run.departures.back() + step);
    }
    m_slotTime += gsn::MicropacketTime() * int64_t(n * stride);
    m_nextTseq = uint8_t(m_nextTseq + n);
    m_retx.AppendFollowing(n, stride);
    run.AppendFollowing(n);
    m_resendIndex = m_retx.size();
    m_vcLastSlot[vc] = m_slotTime;
    m_txCredits[vc] -= int32_t(n);
    m_counters.txMessageMicropackets += n;
    m_counters.txMicropackets += n;
    m_rxUnacked = 0;
    m_ackDue = false;
}

// Run mode: after a new Data micropacket of vc chosen for m_slotTime (the run's last, stored),
// where MayChooseFollowingAhead() and the next of its Message is not ready for the next slot: where
// the upper part has the following ones ready exactly one every stride slots from m_slotTime +
// stride slots (a switch output following an input that receives them so, their Message interleaved
// with others upstream), choose up to room of them at once, unstored. One by one, each slot between
// would find nothing to send and BridgeIdleSlots() would go on to the next one ready; here that
// holds as long as nothing is owed or kept for later (MayChooseFollowingAhead(), and no credits
// arriving for vc), and neither the go-back-N deadline nor the acknowledgement timer falls before
// the last. Returns how many.
uint32_t
GsnPortDevice::ChooseStridedAhead(GsnMicropacketRun& run, uint8_t vc, uint32_t room)
{
    NS_ASSERT(run.Locate(run.Size() - 1).offset == 0);
    if (!m_maxRunGap.IsStrictlyPositive() || m_rxUnacked > 0 || m_laterCredits.Total(vc) > 0 ||
        !CanAppendFollowing())
    {
        return 0;
    }
    const Time slot = gsn::MicropacketTime();
    const Time ready = NextMessageMicropacketTime(vc);
    if (ready == Time::Max() || ready <= m_slotTime + slot ||
        ready - m_slotTime - slot > m_maxRunGap)
    {
        return 0;
    }
    const int64_t gap = (ready - m_slotTime).GetTimeStep();
    if (gap % slot.GetTimeStep() != 0 || gap / slot.GetTimeStep() > UINT16_MAX)
    {
        return 0;
    }
    const uint32_t stride = uint32_t(gap / slot.GetTimeStep());
    const uint32_t k = uint32_t(std::clamp<int64_t>(m_txCredits[vc], 0, RoomAhead(room, gap)));
    if (k == 0)
    {
        return 0;
    }
    GsnMicropacket mp;
    const uint32_t taken = TakeFollowingMessageMicropackets(vc, k, ready, stride, mp);
    if (taken > 0)
    {
        if (run.departures.empty())
        {
            for (std::size_t j = 0; j < run.Size(); ++j)
            {
                run.departures.push_back(int64_t(j) * gsn::MICROPACKET_TIME_NS);
            }
        }
        AppendFollowing(run, vc, taken, stride);
    }
    return taken;
}

// Send a micropacket on its own: a Credit-only or Null that the peer need not see before its own
// transmission ends goes to it at once, timed from its arrival, without an event.
void
GsnPortDevice::TransmitSingle(const GsnMicropacket& mp, const Time& now)
{
    const Time arrival = now + m_channel->ArrivalDelay();
    // Half the run mode's transmissions are a Credit-only or a Null returning credits and
    // acknowledgements to a peer that is busy sending to this port: it would act on them only
    // when its run ends, so they need no arrival event. (Only once everything sent before
    // through the channel has arrived, so that the peer takes the micropackets in order.)
    const GsnMicropacketType type = mp.GetType();
    GsnPortDevice* peer = nullptr;
    if (m_linkMode == LinkMode::RUN &&
        (type == GsnMicropacketType::CREDIT_ONLY || type == GsnMicropacketType::NULL_MP) &&
        m_lastTxArrival < now)
    {
        peer = m_channel->PeerOf(this);
    }
    if (peer && peer->CanTakeAhead(arrival, mp))
    {
        peer->TakeAhead(mp, arrival);
        return;
    }
    m_lastTxArrival = arrival;
    m_channel->Transmit(mp, this);
}

void
GsnPortDevice::NoteWaitingForRun(uint8_t vc)
{
    // Micropacket by micropacket it would go in the next slot, or after the VC's last one
    // in this run (a Message queued behind one whose Tail is in the run). If the run ends
    // by then anyway, nothing waits longer.
    const Time from = std::max(gsn::Now(), m_vcLastSlot[vc] + gsn::MicropacketTime());
    if (m_runEnd - from > gsn::MicropacketTime())
    {
        // (Without credit it would wait micropacket by micropacket too; a VC waits once per run.)
        if (GetTxCredits(vc) > 0 && !(m_runWaitVcs >> vc & 1u))
        {
            const Time wait = m_runEnd - from;
            ++m_counters.runWaits;
            m_counters.runWaitTime += wait;
            m_runWaitLength[vc] =
                uint32_t(std::min<int64_t>(wait.GetTimeStep(), UINT32_MAX)); // (4 s in ns)
            m_runWaitVcs |= uint8_t(1u << vc);
        }
        m_disturbedRuns.NoteDisturbed();
    }
}

void
GsnPortDevice::GetRunWaitsUpToNow(uint64_t& waits, Time& time) const
{
    waits = m_counters.runWaits;
    time = m_counters.runWaitTime;
    const Time now = gsn::Now();
    if (m_runEnd <= now)
    {
        return; // (the waits for that run are over)
    }
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (m_runWaitVcs >> vc & 1u)
        {
            const Time from = m_runEnd - TimeStep(m_runWaitLength[vc]);
            waits -= from >= now ? 1 : 0;
            time -= m_runEnd - std::max(from, now);
        }
    }
}

// Without timed acknowledgements, apply what TakeAhead kept that has arrived by now (timed ports
// wake for theirs, see ArmDueCreditsTimer, and are left as they are).
void
GsnPortDevice::ApplyTakenAhead()
{
    if (!TimesAcknowledgements())
    {
        // (Places other ports' choices freed at this instant stay for this instant's choice,
        // whether this arrival runs before those choices or after.)
        ApplyDueCredits(gsn::Now(), m_placesFreedElsewhere);
    }
}

// mp is a Credit-only or Null sent now, arriving at arrival. Returns whether this port, which is
// sending until after then, may take it now with its effects timed from arrival: the run mode's
// default timing (nothing else is timed), no receive error model, no MicropacketRx trace, and
// TakingAheadIsUnseen().
bool
GsnPortDevice::CanTakeAhead(const Time& arrival, const GsnMicropacket& mp) const
{
    if (!(m_txBusy && arrival < m_runEnd && !m_selecting && m_state == LinkState::UP &&
          m_rxGranted && m_linkMode == LinkMode::RUN && ReceivesPlainly()))
    {
        return false;
    }
    return TakingAheadIsUnseen(arrival, mp);
}

// Acknowledgements ride on runs: whether the acknowledgement mp is owed, amended onto this port's
// run now instead of at arrival, reaches only micropackets of the run that the peer takes after
// arrival.
bool
GsnPortDevice::TakingAheadIsUnseen(const Time& arrival, const GsnMicropacket& mp) const
{
    // The acknowledgement a Credit-only is owed amends this port's run from the slot after its
    // arrival (AmendRunAcks()), and the peer applies the amended RSEQ at once where it has
    // taken that slot already. Taken now, the amendment must reach
    // only slots the peer takes after the arrival (it takes the rest of the run from the
    // arrival of its next part on). The RSEQ itself waits for the arrival (TakeTimedRseq()).
    if (mp.GetType() != GsnMicropacketType::CREDIT_ONLY || !m_txRun)
    {
        return true; // (a Null is owed nothing; a micropacket sent alone is not amended)
    }
    const GsnMicropacketRun& run = *m_txRun;
    const std::size_t k = FirstSlotFrom(arrival);
    if (k >= run.Size())
    {
        return true;
    }
    const bool takenByArrival =
        k < run.TakenByReceiver() || (run.next < run.Size() && run.ArrivalOf(run.next) <= arrival);
    return !takenByArrival;
}

// Take mp, arriving at arrival, now (see CanTakeAhead()): its RSEQ, credits and the acknowledgement
// it is owed count from its arrival, as ExactCredits counts them.
void
GsnPortDevice::TakeAhead(GsnMicropacket mp, const Time& arrival)
{
    ++m_counters.rxTakenAhead;
    m_rxRun = nullptr;
    m_rxAhead = true;
    m_timedTake = true;
    ReceiveAt(std::move(mp), arrival);
    m_timedTake = false;
    m_rxAhead = false;
}

} // namespace ns3
