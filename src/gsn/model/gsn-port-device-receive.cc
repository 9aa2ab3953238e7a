/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The receiver: micropackets and runs arriving, taken ahead, and the acknowledgements they owe
// (what a run gives at once, in spans, is in gsn-port-device-spans.cc). (GsnPortDevice is written
// in several files, one per part of the link layer; see gsn-port-device.cc for the list.)
#include "gsn-channel.h"
#include "gsn-now.h"
#include "gsn-port-device-private.h"
#include "gsn-port-event.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_PORT_DEVICE_LOG();

// Apply the receive error model: a hit flips one bit, which the LCRC check then finds.
void
GsnPortDevice::ApplyErrorModel(GsnMicropacket& mp)
{
    if (!m_receiveErrorModel)
    {
        return;
    }
    uint8_t wire[gsn::MICROPACKET_BYTES];
    mp.SealLcrc(); // the bits the error model may hit, as on the wire
    mp.Serialize(wire);
    Ptr<Packet> p = Create<Packet>(wire, gsn::MICROPACKET_BYTES);
    if (m_receiveErrorModel->IsCorrupt(p))
    {
        // Flip one bit of the wire form; the LCRC check below then sees it.
        const uint32_t bit = m_corruptBit->GetInteger(0, gsn::MICROPACKET_BYTES * 8 - 1);
        wire[bit / 8] ^= uint8_t(1u << (bit % 8));
        mp = GsnMicropacket::Deserialize(wire);
    }
}

// Report a dropped micropacket mp. accepted: its TSEQ was accepted (a buffer overflow), so no copy
// will follow.
void
GsnPortDevice::DropMicropacket(const GsnMicropacket& mp, bool accepted)
{
    NS_LOG_LOGIC(this << " drop " << mp);
    if (m_rxRun && !accepted)
    {
        m_rxRun->rejected.push_back(m_rxIndex); // see TakeLateCredits
    }
    if (!m_micropacketDropTrace.IsEmpty())
    {
        GsnMicropacket seen = mp;
        if (seen.IsLcrcPending())
        {
            seen.SealLcrc();
        }
        m_micropacketDropTrace(seen);
    }
    if (!m_phyRxDropTrace.IsEmpty())
    {
        uint8_t wire[gsn::MICROPACKET_BYTES];
        mp.Serialize(wire);
        m_phyRxDropTrace(Create<Packet>(wire, gsn::MICROPACKET_BYTES));
    }
}

void
GsnPortDevice::ReceiveRun(Ptr<GsnMicropacketRun> run)
{
    const Time now = gsn::Now();
    m_arrivals.Take(now);
    const std::size_t size = run->Size();
    // What the micropackets make due (credits, acknowledgements) goes out together once
    // the run is taken, as one run the other way.
    m_selecting = true;
    // Acknowledgements kept from the peer's earlier runs are due by now: an idle port applies
    // them here rather than keep them until it sends. (Places other ports' choices freed at
    // this instant stay for this instant's choice, as in ApplyTakenAhead().)
    ApplyDueCredits(now, m_placesFreedElsewhere);
    if (run->next == 0)
    {
        run->rxClears = m_clears;
    }
    const bool quick = CanTakeQuickly();
    int lastRseq = -1; // the RSEQ last applied by TakeQuickly, -1 if none since ReceiveAt
    GsnMicropacket scratch;
    while (run->next < size)
    {
        const std::size_t k = run->next;
        const Time arrival = run->ArrivalOf(k);
        GsnMicropacket& mp = run->Take(k, scratch);
        if (arrival > now && (mp.GetType() == GsnMicropacketType::HEADER || mp.tail))
        {
            // A Message starts or ends here: take it at its own time.
            Simulator::Schedule(arrival - now, &GsnPortDevice::ReceiveRun, this, run);
            break;
        }
        ++run->next;
        m_rxRun = PeekPointer(run);
        m_rxIndex = uint32_t(k);
        m_rxAhead = arrival > now;
        // (The run is not read again up to next: its micropackets are moved out.)
        if (quick && IsQuickToTake(mp))
        {
            TakeQuickly(std::move(mp), arrival, lastRseq);
            TakeSpanQuickly(*run, lastRseq);
        }
        else
        {
            ReceiveAt(std::move(mp), arrival);
            lastRseq = -1;
        }
    }
    m_rxRun = nullptr;
    m_selecting = false;
    if (run->next == size)
    {
        run->ReleaseMicropackets(); // all taken (their state is kept in the run's other fields)
    }
    TransmitNext();
}

bool
GsnPortDevice::CanTakeQuickly() const
{
    // Nothing may corrupt or watch the micropackets, and acknowledgements and credits are not
    // timed (TakeTimedRseq). None of this changes while a run is being taken. (Where an
    // acknowledgement owed rides on a run of this port, AcksRideOnRun(), each is amended
    // onto it in turn, as ReceiveAt would.)
    return ReceivesPlainly();
}

// mp is a micropacket of the run being taken: whether ReceiveAt would accept it in sequence into
// its VC's buffer.
bool
GsnPortDevice::IsQuickToTake(const GsnMicropacket& mp) const
{
    // A Header or Data micropacket in sequence with a place free in its VC's buffer: accepted,
    // as ReceiveSequenced would find.
    return mp.IsMessage() && mp.IsLcrcPending() && m_rxGranted && mp.tseq == m_expectedTseq &&
           m_rxOccupancy[mp.vc] < m_rxBufferSize;
}

// What ReceiveAt does with a micropacket that IsQuickToTake, without its general dispatch. mp: the
// micropacket (moved to the upper part); arrival: when its last bit arrives; lastRseq: the RSEQ
// this applied last in the same run, -1 if none (updated).
void
GsnPortDevice::TakeQuickly(GsnMicropacket&& mp, const Time& arrival, int& lastRseq)
{
    // The steps of ReceiveAt, ReceiveSequenced and NoteAckOwed that apply to a micropacket
    // that IsQuickToTake, in the same order, without their checks and dispatch.
    m_rxArrival = arrival;
    ++m_counters.rxMicropackets;
    // TakeRseq: the same RSEQ twice in a row changes nothing the second time.
    const uint8_t rseq = RseqInRun(mp.rseq);
    if (int(rseq) != lastRseq)
    {
        ProcessRseq(rseq, nullptr);
        lastRseq = rseq;
    }
    AcceptInSequence(mp);
    ++m_rxOccupancy[mp.vc];
    ReceiveMessageMicropacket(std::move(mp));
    if (AcksRideOnRun())
    {
        NoteAckOwed(true);
        return;
    }
    OweAck();
}

void
GsnPortDevice::Receive(GsnMicropacket mp)
{
    const Time now = gsn::Now(); // (asked once: a call under most schedulers)
    m_arrivals.Take(now);
    ApplyTakenAhead(); // the peer's earlier micropackets come first
    m_rxAhead = false;
    // As for a run (ReceiveRun): the transmitter chooses once the micropacket is taken, so
    // that what taking it makes due (credits of the place it frees) goes in the choice.
    m_selecting = true;
    ReceiveAt(mp, now);
    m_selecting = false;
    TransmitNext();
}

void
GsnPortDevice::ReceiveAt(GsnMicropacket mp, const Time& arrival)
{
    m_rxArrival = arrival;
    ApplyErrorModel(mp);
    if (!mp.LcrcIsGood())
    {
        ++m_counters.lcrcErrors;
        if (m_rxRun && !m_lateCreditsRxTrace.IsEmpty())
        {
            m_rxRun->corrupted.push_back(m_rxIndex); // (not shown by MicropacketRx)
        }
        DropMicropacket(mp);
        return;
    }
    ++m_counters.rxMicropackets;
    if (!m_micropacketRxTrace.IsEmpty())
    {
        // The RSEQ in effect: a run-mode peer amends those of a run's micropackets that leave
        // after an arrival, as micropacket by micropacket they would carry it.
        mp.rseq = RseqInRun(mp.rseq);
        mp.SealLcrc();
        m_micropacketRxTrace(mp);
    }
    switch (mp.GetType())
    {
    case GsnMicropacketType::RESET:
    case GsnMicropacketType::RESET_ACK:
    case GsnMicropacketType::INITIALIZE:
    case GsnMicropacketType::INITIALIZE_ACK: {
        GsnLinkBringUp::Event event;
        GsnLinkBringUp::EventOf(mp.GetType(), event);
        BringUp(event, mp.tseq);
        return;
    }
    case GsnMicropacketType::NULL_MP:
        TakeRseq(mp.rseq);
        return;
    case GsnMicropacketType::HEADER:
    case GsnMicropacketType::DATA:
    case GsnMicropacketType::CREDIT_ONLY:
    case GsnMicropacketType::ADMIN:
        ReceiveSequenced(mp);
        return;
    }
    ++m_counters.reservedType;
    DropMicropacket(mp);
}

// Count a micropacket accepted in sequence (TSEQ, counter, the credits it carries).
void
GsnPortDevice::AcceptInSequence(const GsnMicropacket& mp)
{
    ++m_expectedTseq;
    ++m_counters.rxAccepted;
    if (mp.cr > 0)
    {
        ProcessCredits(mp.vcr, mp.cr);
    }
}

void
GsnPortDevice::ReceiveSequenced(GsnMicropacket& mp)
{
    TakeRseq(mp.rseq);
    if (!m_rxGranted)
    {
        ++m_counters.notInitialized;
        DropMicropacket(mp);
        return;
    }
    if (mp.tseq != m_expectedTseq)
    {
        ++m_counters.outOfSequence;
        DropMicropacket(mp);
        if (uint8_t(m_expectedTseq - 1 - mp.tseq) < 128)
        {
            // A copy of one accepted already: the sender has not heard the acknowledgement
            // (it was lost, and this port, idle, sent no other). Acknowledge again, as a link
            // that fills idle slots with Nulls would; otherwise the sender times out until it
            // resets the link. (Later than expected: one was lost, the sender's timer acts.)
            NoteAckOwed(false);
        }
        return;
    }
    AcceptInSequence(mp);
    switch (mp.GetType())
    {
    case GsnMicropacketType::HEADER:
    case GsnMicropacketType::DATA:
        if (m_rxOccupancy[mp.vc] >= m_rxBufferSize &&
            m_rxOccupancy[mp.vc] - m_laterReleases.SumDue(mp.vc, m_rxArrival) >= m_rxBufferSize)
        {
            // The sender broke the credit rule; count it rather than overrun the buffer.
            ++m_counters.rxBufferOverflow;
            NS_LOG_ERROR(this << " VC " << unsigned(mp.vc) << " receive buffer overflow");
            DropMicropacket(mp, true);
            break;
        }
        ++m_rxOccupancy[mp.vc];
        ReceiveMessageMicropacket(std::move(mp)); // (not read below)
        break;
    case GsnMicropacketType::ADMIN:
        ReceiveAdminMicropacket(mp);
        break;
    default:
        break; // Credit-only: its credits were taken above
    }
    // Last, so that credits the upper part just freed ride on the same acknowledgement.
    NoteAckOwed(true);
}

void
GsnPortDevice::ReceiveAdminMicropacket(const GsnMicropacket& /* mp */)
{
    NS_LOG_LOGIC(this << " Admin micropacket ignored by this port");
}

// Apply credits from an accepted micropacket, or keep them until it arrives.
void
GsnPortDevice::ProcessCredits(uint8_t vc, uint8_t credits)
{
    if (m_txBusy && m_rxArrival == m_runEnd && !m_rxAhead)
    {
        // Arrived as this port's next slot begins: that slot is chosen as if before (where
        // the choice runs first, as it may across MPI ranks), so they count from just after
        // the choice (CountCreditsOfSlotStart()).
        m_slotStartCredits[vc] += credits;
        m_slotStartCreditsAny = true;
        return;
    }
    if ((m_exactCredits || m_timedTake) && m_rxAhead)
    {
        // A micropacket of a run taken ahead of its arrival: its credits exist from then.
        m_laterCredits.Add(m_rxArrival, vc, credits);
        return;
    }
    CountCredits(vc, credits, gsn::Now());
    NotifyTxReady();
}

// Count the credits that arrived as this slot began, after its choice. Returns true if there were
// any.
// Count the timed credits arriving by t. A slot's choice that found nothing to send counts those
// arriving as it began (ApplyDueCredits() left them for after it) and chooses again. Returns
// whether there were any.
bool
GsnPortDevice::CountTimedCreditsBy(const Time& t)
{
    bool any = false;
    while (m_laterCredits.HasDue(t))
    {
        // (A row's counts due together count as one: the first ends a stall.)
        const GsnTimedCredits::Entry e = m_laterCredits.TakeDue(t);
        CountCredits(e.vc, e.n, e.at);
        any = true;
    }
    return any;
}

bool
GsnPortDevice::CountCreditsOfSlotStart()
{
    m_slotStartCreditsAny = false;
    bool any = false;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (m_slotStartCredits[vc] > 0)
        {
            CountCredits(vc, m_slotStartCredits[vc], m_slotTime);
            m_slotStartCredits[vc] = 0;
            any = true;
        }
    }
    return any;
}

// Add n credits of vc that arrived at time at, ending a credit stall of the VC.
void
GsnPortDevice::CountCredits(uint8_t vc, uint32_t n, const Time& at)
{
    m_txCredits[vc] += int32_t(n);
    if (m_stalled[vc])
    {
        m_stalled[vc] = false;
        const Time waited = std::max(Time(0), at - m_stallStart[vc]);
        m_counters.creditStallTime[vc] += waited;
        m_creditStallTrace(vc, waited);
    }
}

// Note that an acknowledgement is owed for the micropacket being received; accepted is false for a
// copy of one accepted already (its TSEQ adds nothing). AcksRideOnRun() (in the header): an
// acknowledgement owed while this port's transmitter is busy rides on its run under way from the
// slot after the arrival (here and in AmendRunAcks(): acknowledgements not timed).
void
GsnPortDevice::NoteAckOwed(bool accepted)
{
    if (accepted && m_rseqSent == uint8_t(m_expectedTseq - 1))
    {
        // Acknowledged already: the upper part, taking it, freed credits that went out at once
        // with its RSEQ.
        return;
    }
    if (!m_txRun && m_channel && m_channel->AmendRseqSentNow(this, uint8_t(m_expectedTseq - 1)))
    {
        // It arrived at the instant this port's slot starts, after the slot's choice: the
        // slot's micropacket still acknowledges it, as where the arrival runs first (in the
        // run mode too, for a micropacket sent alone: a run is amended below).
        m_rseqSent = uint8_t(m_expectedTseq - 1);
        m_rxUnacked = 0;
        m_ackDue = false;
        return;
    }
    if (AcksRideOnRun() && AmendRunAcks(m_rxArrival))
    {
        return; // rides on the run under way, from the slot after its arrival
    }
    // With timed acknowledgements, during a run of this port the acknowledgement rides on the
    // run's next slot; otherwise it is owed from the micropacket's arrival (so is that of a
    // micropacket taken ahead, TakeAhead).
    if (ExactAcks() && AmendRunAcks(m_rxArrival))
    {
        return;
    }
    // (A slot's RSEQ leaves out one accepted TSEQ per later arrival kept here, so a copy,
    // which adds no TSEQ, is owed from now instead.)
    if ((ExactAcks() || m_timedTake) && m_rxAhead && accepted)
    {
        m_laterArrivals.push_back(m_rxArrival);
        if (!m_txBusy && !m_selecting)
        {
            ArmIdleTimers();
        }
        return;
    }
    OweAck();
}

void
GsnPortDevice::OweAck()
{
    if (m_rxUnacked++ == 0)
    {
        m_oldestUnacked = gsn::Now();
    }
    if (m_rxUnacked >= m_ackThreshold)
    {
        m_ackDue = true;
        NotifyTxReady();
    }
    else if (!m_txBusy && !m_selecting)
    {
        ArmIdleTimers();
    }
}

// The transmitter has nothing to send: start the acknowledgement, credit and go-back-N timers for
// what is owed.
void
GsnPortDevice::ArmIdleTimers()
{
    // While the transmitter is busy, the micropacket it sends next carries the RSEQ and the
    // owed credits; the timers are needed only once it has nothing to send.
    const Time now = gsn::Now();
    // A timer whose work is already due (waiting for the link to come up) is not needed.
    // (With micropackets taken ahead still arriving, the due-credits timer wakes for both.)
    if (m_rxUnacked > 0 && !m_ackDue && !m_ackTimer.pending && m_laterArrivals.empty())
    {
        const Time due = std::max(now, m_oldestUnacked + m_ackDelay);
        Arm(m_ackTimer, due - now, &GsnPortDevice::AckTimeout);
    }
    if (!m_creditDue && m_owedTotal > 0 && !m_creditTimer.pending)
    {
        const Time due = std::max(now, m_oldestOwed + m_ackDelay);
        Arm(m_creditTimer, due - now, &GsnPortDevice::CreditTimeout);
    }
    if (m_state == LinkState::UP && !m_retx.empty() && !m_rtxTimer.pending)
    {
        const Time due = std::max(now, m_rtxDeadline);
        Arm(m_rtxTimer, due - now, &GsnPortDevice::RetransmitTimeout);
    }
    if (!m_laterReleases.empty() || !m_laterCredits.empty() || !m_laterArrivals.empty() ||
        !m_laterAcks.empty())
    {
        ArmDueCreditsTimer(); // (nothing to do unless something is kept for later)
    }
}

void
GsnPortDevice::AckTimeout()
{
    const gsn::TimerEventCount counted(m_counters);
    m_ackTimer.Clear();
    ApplyTakenAhead(); // arrivals taken ahead owe acknowledgements too
    if (m_rxUnacked == 0)
    {
        return;
    }
    // The timer is lazy: it acts only if the oldest unacknowledged micropacket has waited
    // AckDelay; under steady traffic the threshold or piggy-backing acknowledges first.
    if (ArmAgainIfNotDue(m_ackTimer, m_oldestUnacked + m_ackDelay, &GsnPortDevice::AckTimeout))
    {
        return;
    }
    m_ackDue = true;
    NotifyTxReady();
}

} // namespace ns3
