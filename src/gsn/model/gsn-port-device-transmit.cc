/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The transmitter: the choice of each slot's micropacket (selection order, credits taken
// along) and its sending, and the choice of a run's slots ahead, which shares the inlined
// steps of that choice; what else the run mode adds is in gsn-port-device-runs.cc.
// (GsnPortDevice is written in several files, one per part of the link layer; see
// gsn-port-device.cc for the list.)
#include "gsn-channel.h"
#include "gsn-now.h"
#include "gsn-port-device-private.h"
#include "gsn-port-event.h"
#include "gsn-slot-choice.h"

#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_PORT_DEVICE_LOG();

void
GsnPortDevice::NotifyTxReady()
{
    if (!m_txBusy)
    {
        TransmitNext();
    }
}

void
GsnPortDevice::NotifyTxReadyAfterEvents()
{
    if (!m_txBusy && !m_selecting && m_channel && !m_heldChoiceTimer.pending)
    {
        HoldUntilAfterEvent(gsn::Now());
    }
}

void
GsnPortDevice::TransmitNext()
{
    if (m_txBusy || m_selecting || !m_channel || m_heldChoiceTimer.pending)
    {
        return; // (held: the choice comes after the events pending at this instant)
    }
    const Time now = gsn::Now();
    m_slotTime = now;
    // What is due by now counts (ExactCredits: acknowledgements may move the deadline).
    // Applying it may notify this port, which the choice below covers.
    m_selecting = true;
    const bool slotFollows = m_runEnd == now; // back to back with the previous transmission
    // Places freed at this instant count only if nothing else goes (then in a Credit-only):
    // as a slot that follows begins, and always where other ports' choices free them (a
    // switch's outputs), whose order at one instant is not the model's.
    const bool releasesFollow = slotFollows || m_placesFreedElsewhere;
    ApplyDueCredits(now, releasesFollow);
    if (m_ackedAhead > 0)
    {
        ReleaseAckedThatLeft(); // (the run has left: all of them)
    }
    m_selecting = false;
    if (RetransmitDeadlinePassed(now))
    {
        ExpireRetransmitTimer(); // may reset the link, which sends at once
        if (m_txBusy)
        {
            return;
        }
    }
    // Choosing may call into the upper part, which may notify this port again (a switch
    // frees an input buffer of the same port); the choice under way covers that.
    m_selecting = true;
    m_slotTime = now;
    GsnMicropacket mp;
    // An idle port that would send a Null or a Credit-only waits for the other events of
    // this instant: one may free places whose credits make a Credit-only (which carries the
    // RSEQ too) due in this slot, or add to it, whichever of them happens to run first.
    // (Not a Credit-only that an arrival makes due at an endpoint, which frees each place as
    // its micropacket arrives: one arrival per instant, and it has come.)
    const bool mayHold = !slotFollows && m_heldChoice.MayHoldAt(now);
    // Places freed elsewhere at this instant and kept for it wait likewise (whatever else
    // this instant brings goes first).
    if (mayHold && (((m_placesFreedElsewhere || !m_arrivals.TakenAt(now)) && CreditOnlyIsNext()) ||
                    (releasesFollow && m_laterReleases.HasDue(now))))
    {
        HoldUntilAfterEvent(now);
        return;
    }
    // A held choice of a switch port that would send only credits waits once more, until the
    // held choices of the instant on its node's other ports are made (those held meanwhile too):
    // one of them may free places whose credits it carries, whichever was held first. (In the run
    // mode without ExactCredits, which times credits by runs anyway, only while other held
    // choices are pending: always, it cost a third more port calls.)
    // (The other holds are looked up only where they matter: the node's table is seldom in
    // the cache.)
    if (!slotFollows && !mayHold && m_placesFreedElsewhere)
    {
        const bool othersHeld = gsn::HeldChoice::PendingOn(NodeNumber(), now);
        if ((!m_heldChoice.HeldAgain() || othersHeld) &&
            (m_exactCredits || m_linkMode == LinkMode::MICROPACKET || othersHeld) &&
            CreditOnlyIsNext(true))
        {
            HoldUntilAfterEvent(now, true);
            return;
        }
    }
    const bool creditDue = m_creditDue; // (for AmendCreditsOfSlotNow())
    bool first = SelectMicropacket(mp, !mayHold);
    if (!first && m_slotStartCreditsAny && CountCreditsOfSlotStart())
    {
        // As the arrival of those credits would, had it come after this choice: before the
        // places it frees.
        first = SelectMicropacket(mp, !mayHold);
    }
    if (!first && slotFollows && CountTimedCreditsBy(now))
    {
        first = SelectMicropacket(mp, !mayHold); // (as just above, for timed credits)
    }
    if (!first && releasesFollow && m_laterReleases.HasDue(now) && ApplyReleasesAtSlot(now))
    {
        first = SelectMicropacket(mp);
    }
    if (!first && mayHold && NullDue())
    {
        HoldUntilAfterEvent(now);
        return;
    }
    if (!first)
    {
        if (releasesFollow && !slotFollows && m_laterReleases.HasDue(now))
        {
            ApplyDueReleases(now, false); // (this instant's choice is made: they count now)
        }
        m_selecting = false;
        ArmIdleTimers();
        return; // idle: nothing scheduled until something becomes due
    }
    PrepareToSend(mp);
    if (m_slotStartCreditsAny)
    {
        CountCreditsOfSlotStart(); // (for the following slots of a run too)
    }
    uint32_t n = 1;
    Time lastSlot;
    Ptr<GsnMicropacketRun> run = ChooseRun(mp, now, n, lastSlot);
    m_selecting = false;
    m_choosingAhead = false;
    ++m_counters.transmissions;
    const Time busyFor = lastSlot + gsn::MicropacketTime() - now;
    m_slotTime = now;
    m_txBusy = true;
    m_runStart = m_slotTime;
    m_startedIdle = !slotFollows;
    m_startCreditDue = creditDue;
    m_runLength = n;
    m_runEnd = now + busyFor;
    m_runWaitVcs = 0; // (the waits for the previous run are over)
    if (!run && m_linkMode == LinkMode::RUN && ExactAcks())
    {
        // Timed acknowledgements: a micropacket arriving at this instant, after this choice,
        // is acknowledged in this slot as micropacket by micropacket (where its arrival comes
        // first), by amending the RSEQ of a run (AmendRunAcks), here of one micropacket.
        run = Create<GsnMicropacketRun>();
        run->Append(std::move(mp));
    }
    m_txRun = run;
    if (run)
    {
        m_channel->TransmitRun(run, this);
    }
    else
    {
        TransmitSingle(mp, now);
    }
    if (run)
    {
        m_lastTxArrival = run->ArrivalOf(run->Size() - 1);
    }
    gsn::SchedulePortCallOnce(busyFor, this, &GsnPortDevice::TransmitComplete);
}

// Driving the link run by run: after mp, the first micropacket of a transmission starting now,
// was chosen and prepared, choose the following slots now, exactly as TransmitComplete would one
// by one if nothing arrived meanwhile; stop at the first slot with nothing to send (in the
// micropacket mode at once). Returns the run, or null while mp goes alone: the run object is made
// only when a second micropacket joins, and mp is then moved into it. n: how many were chosen;
// last: the last one's slot.
Ptr<GsnMicropacketRun>
GsnPortDevice::ChooseRun(GsnMicropacket& mp, const Time& now, uint32_t& n, Time& last)
{
    const uint32_t maxRun =
        m_linkMode != LinkMode::RUN ? 1 : std::min(m_maxRunLength, m_disturbedRuns.Cap());
    Ptr<GsnMicropacketRun> run;
    n = 1;
    GsnMicropacketType lastType = mp.GetType();
    bool lastTail = mp.tail;
    last = m_slotTime;
    m_choosingAhead = true;
    const Time slot = gsn::MicropacketTime();
    while (n < maxRun)
    {
        if (m_exactCredits && (lastTail || lastType == GsnMicropacketType::NULL_MP ||
                               lastType == GsnMicropacketType::CREDIT_ONLY))
        {
            // What goes after a Tail, a Null or a Credit-only is most often what arrives
            // meanwhile (the output VC granted to the next Message, a Header routed here), which
            // a slot chosen now would not see: choose it when it comes.
            break;
        }
        m_slotTime += slot;
        // What arrives before this slot, or is freed before it.
        ApplyDueCredits(m_slotTime, true, true);
        if (RetransmitDeadlinePassed(m_slotTime))
        {
            break; // the go-back-N timer expires in this slot: choose it when it comes
        }
        if (!m_exactCredits && lastType == GsnMicropacketType::CREDIT_ONLY && m_owedTotal > 0)
        {
            // Credit-only micropackets are going out anyway: let the remainder below
            // CreditReturnThreshold ride with them rather than wait for its timer (with
            // ExactCredits the credits of a later slot go in their own Credit-only when
            // they reach the threshold, as micropacket by micropacket).
            m_creditDue = true;
        }
        GsnMicropacket next;
        const uint64_t messageMicropackets = m_counters.txMessageMicropackets;
        bool chosen = SelectMicropacket(next);
        if (!chosen && CountTimedCreditsBy(m_slotTime))
        {
            chosen = SelectMicropacket(next); // (credits arriving as the slot begins)
        }
        if (!chosen && ApplyReleasesAtSlot(m_slotTime))
        {
            chosen = SelectMicropacket(next);
        }
        const Time idleFrom = m_slotTime;
        if (!chosen && BridgeIdleSlots())
        {
            chosen = SelectMicropacket(next);
        }
        if (!chosen)
        {
            break;
        }
        PrepareToSend(next);
        lastType = next.GetType();
        lastTail = next.tail;
        last = m_slotTime;
        if (!run)
        {
            run = Create<GsnMicropacketRun>();
            run->Append(std::move(mp)); // not used below once in a run
        }
        if (m_slotTime != idleFrom && run->departures.empty())
        {
            for (uint32_t k = 0; k < n; ++k)
            {
                run->departures.push_back(int64_t(k) * gsn::MICROPACKET_TIME_NS);
            }
        }
        if (!run->departures.empty())
        {
            run->departures.push_back((m_slotTime - now).GetNanoSeconds());
        }
        const bool following = next.GetType() == GsnMicropacketType::DATA && !next.tail &&
                               m_counters.txMessageMicropackets != messageMicropackets;
        const uint8_t vc = next.vc;
        run->Append(std::move(next));
        ++n;
        if (following && n < maxRun && MayChooseFollowingAhead(vc))
        {
            n += ChooseFollowingAhead(*run, vc, maxRun - n, now);
            last = m_slotTime;
        }
        else if (following && n < maxRun)
        {
            const uint32_t woven = ChooseWovenAhead(*run, maxRun - n, now);
            n += woven;
            last = woven > 0 ? m_slotTime : last;
        }
    }
    return run;
}

// A new Header/Data micropacket mp of vc was taken for m_slotTime: its VC, the credit it uses, the
// round robin, the credits it carries back.
__attribute__((always_inline)) inline void
GsnPortDevice::NoteMessageMicropacketTaken(uint8_t vc, GsnMicropacket& mp)
{
    mp.vc = vc;
    m_vcLastSlot[vc] = m_slotTime;
    --m_txCredits[vc];
    m_rrNext = uint8_t((vc + 1) % gsn::NUM_VCS);
    ++m_counters.txMessageMicropackets;
    PiggybackCredits(mp);
}

// Give the new sequenced mp its TSEQ and keep it until it is acknowledged (the caller arms the
// go-back-N timer).
__attribute__((always_inline)) inline void
GsnPortDevice::KeepForRetransmission(GsnMicropacket& mp)
{
    mp.tseq = m_nextTseq++;
    m_retx.Push(mp, m_slotTime);
    m_resendIndex = m_retx.size();
}

// Run mode: whether, after a new Data micropacket of vc chosen for m_slotTime,
// ChooseFollowingAhead() may find any: nothing else could be chosen or fall due. (Inlined: asked
// after every Data micropacket of a run, and with VCs interleaved mostly not.)
__attribute__((always_inline)) inline bool
GsnPortDevice::MayChooseFollowingAhead(uint8_t vc) const
{
    // One by one, each of these slots would apply nothing due (nothing is kept for later),
    // find no timeout (the go-back-N deadline is beyond them), no control, Admin or resent
    // micropacket, room in the window, every other VC stalled, a credit for vc, and take
    // vc's next micropacket if ready and not a Tail, which the upper part tells here.
    // Nothing of that changes meanwhile: the upper part's only other act, freeing the
    // places upstream, acts on nothing else (TakeFollowingMessageMicropackets()).
    // Credits arriving meanwhile for vc (sending: not stalled) or for a VC with nothing to
    // send change none of these choices but for vc's credit in each slot, counted here (they
    // count at the next slot chosen one by one, from their own time); those for another
    // stalled VC may.
    if (!m_controlQueue.empty() || !m_adminQueue.empty() || m_state != LinkState::UP ||
        m_resendIndex != m_retx.size() || !m_laterReleases.empty() || !m_laterAcks.empty() ||
        !m_laterArrivals.empty())
    {
        return false;
    }
    for (uint8_t w = 0; w < gsn::NUM_VCS; ++w)
    {
        if (w != vc && (m_messageVcs >> w & 1u) &&
            (!(m_txCredits[w] <= 0 && m_stalled[w]) || m_laterCredits.Total(w) > 0))
        {
            return false;
        }
    }
    return true;
}

// Run mode: after a new Data micropacket of vc chosen for m_slotTime, where
// MayChooseFollowingAhead(), choose for the slots that follow (at most room) the micropackets of
// its Message that SelectMicropacket() would choose one by one; append them to run (which started
// at start). Returns how many.
uint32_t
GsnPortDevice::ChooseFollowingAhead(GsnMicropacketRun& run,
                                    uint8_t vc,
                                    uint32_t room,
                                    const Time& start)
{
    NS_ASSERT(MayChooseFollowingAhead(vc));
    const Time slot = gsn::MicropacketTime();
    uint32_t k = RoomAhead(room, slot.GetTimeStep());
    k = m_laterCredits.Total(vc) == 0
            ? uint32_t(std::clamp<int64_t>(m_txCredits[vc], 0, k))
            : m_laterCredits.SlotsCovered(vc, m_txCredits[vc], m_slotTime + slot, slot, k);
    if (k == 0)
    {
        return 0;
    }
    GsnMicropacket mp;
    k = TakeFollowingMessageMicropackets(vc, k, m_slotTime + slot, 1, mp);
    if (k == 0)
    {
        return ChooseStridedAhead(run, vc, room); // (the next is not ready for the next slot)
    }
    uint32_t j = 0;
    for (; j < k && !CanAppendFollowing(); ++j)
    {
        m_slotTime += slot;
        GsnMicropacket next = mp;
        mp.AdvanceChunk();
        // As SelectMicropacket() does for a Message micropacket.
        NoteMessageMicropacketTaken(vc, next);
        KeepForRetransmission(next); // (the go-back-N timer runs: the ring held one before)
        PrepareToSend(next);
        if (!run.departures.empty())
        {
            run.departures.push_back((m_slotTime - start).GetNanoSeconds());
        }
        run.Append(std::move(next));
    }
    if (j < k)
    {
        AppendFollowing(run, vc, k - j);
    }
    return k;
}

// Run mode: after a new Data micropacket chosen for m_slotTime, where the round robin goes from one
// VC's Message to another's slot by slot (a switch output forwarding Messages of several VCs, from
// several inputs or one; an endpoint sending on several VCs): where the VCs that sent in the last
// slots, each in its turn, would go on so, each
// finding its next micropacket ready by its slot, choose whole turns of them at once, each stored.
// One by one, each of these slots would apply nothing due (nothing is kept for later), find no
// timeout (the go-back-N deadline is beyond them), no control, Admin or resent micropacket, room
// in the window, every other VC with a Message stalled (no credit, none coming), a credit for the
// VC whose turn it is, and take its next micropacket, ready and not a Tail, which the upper part
// tells here. Returns how many.
uint32_t
GsnPortDevice::ChooseWovenAhead(GsnMicropacketRun& run, uint32_t room, const Time& start)
{
    if (!m_controlQueue.empty() || !m_adminQueue.empty() || m_state != LinkState::UP ||
        m_resendIndex != m_retx.size() || !m_laterReleases.empty() || !m_laterAcks.empty() ||
        !m_laterArrivals.empty())
    {
        return 0;
    }
    const Time slot = gsn::MicropacketTime();
    // The VCs of the weave, in the order the round robin takes them from the next slot on.
    uint8_t vcs[gsn::NUM_VCS];
    uint32_t s = 0;
    int32_t credits = INT32_MAX;
    for (uint8_t i = 0; i < gsn::NUM_VCS; ++i)
    {
        const uint8_t vc = uint8_t((m_rrNext + i) % gsn::NUM_VCS);
        if (!(m_messageVcs >> vc & 1u))
        {
            continue;
        }
        if (m_laterCredits.Total(vc) > 0)
        {
            return 0;
        }
        if (m_txCredits[vc] <= 0)
        {
            if (!m_stalled[vc])
            {
                return 0; // (one by one, it might begin a credit stall)
            }
            continue;
        }
        vcs[s++] = vc;
        credits = std::min(credits, m_txCredits[vc]);
    }
    // Each sent in the last s slots: a weave under way (asked after most Data micropackets
    // of switch outputs: this is what keeps it cheap where there is none).
    for (uint32_t i = 0; i < s; ++i)
    {
        if (m_slotTime - m_vcLastSlot[vcs[i]] >= slot * int64_t(s))
        {
            return 0;
        }
    }
    if (s < 2)
    {
        return 0;
    }
    const uint32_t maxRounds = std::min(RoomAhead(room, slot.GetTimeStep()) / s, uint32_t(credits));
    if (maxRounds < 2)
    {
        return 0; // (one turn saves nothing)
    }
    GsnMicropacket firsts[gsn::NUM_VCS];
    const uint32_t rounds =
        TakeWovenMessageMicropackets(vcs, s, maxRounds, m_slotTime + slot, firsts);
    for (uint32_t r = 0; r < rounds; ++r)
    {
        for (uint32_t i = 0; i < s; ++i)
        {
            // As SelectMicropacket() does for a Message micropacket in its slot.
            m_slotTime += slot;
            GsnMicropacket next = firsts[i];
            firsts[i].AdvanceChunk();
            NoteMessageMicropacketTaken(vcs[i], next);
            KeepForRetransmission(next); // (the go-back-N timer runs: the ring held one before)
            PrepareToSend(next);
            if (!run.departures.empty())
            {
                run.departures.push_back((m_slotTime - start).GetNanoSeconds());
            }
            run.Append(std::move(next));
        }
    }
    return rounds * s;
}

// (Inlined: done for every micropacket sent, from TransmitNext() only; out of line,
// PrepareToSend() and SelectMicropacket() cost 6% more instructions.)
__attribute__((always_inline)) inline void
GsnPortDevice::PrepareToSend(GsnMicropacket& mp)
{
    // Every micropacket acknowledges all that has arrived by its slot (with ExactCredits, a
    // run taken ahead may still be arriving).
    mp.rseq = uint8_t(m_expectedTseq - 1 - m_laterArrivals.size());
    m_rseqSent = mp.rseq;
    m_rxUnacked = 0;
    m_ackDue = false;
    // The LCRC is computed where it can matter: at a receiver with an error model, or for
    // whoever watches the micropackets (CRC work was about a quarter of the run time). The
    // micropacket itself stays pending: a run's credits may still be put on it.
    mp.SetLcrcPending();
    ++m_counters.txMicropackets;
    NS_LOG_LOGIC(this << " tx " << mp << " in slot " << m_slotTime.GetNanoSeconds() << " ns");
    if (!m_micropacketTxTrace.IsEmpty())
    {
        GsnMicropacket seen = mp;
        seen.SealLcrc();
        m_micropacketTxTrace(seen);
    }
}

void
GsnPortDevice::TransmitComplete()
{
    // Micropacket by micropacket a slot's end is scheduled one slot ahead, an arrival one
    // link delay ahead: with a delay longer than a slot, what arrives at the instant a slot
    // ends comes first. A run's end was scheduled at its start: it lets such an arrival at
    // its instant run first, as the reference would.
    const Time now = gsn::Now();
    if (m_linkMode == LinkMode::RUN && m_arrivals.PendingAt(now) && m_channel &&
        m_channel->ArrivalDelay() > gsn::MicropacketTime())
    {
        ArmAfterCurrentEvent<&GsnPortDevice::m_slotEndTimer, &GsnPortDevice::EndTransmission>();
        return;
    }
    EndTransmission();
}

// The rest of TransmitComplete(), made after the events pending at its instant when an arrival at
// that instant is among them (the run mode; see TransmitComplete()).
void
GsnPortDevice::EndTransmission()
{
    m_slotEndTimer.Clear();
    if (m_linkMode == LinkMode::RUN)
    {
        m_disturbedRuns.RunEnded(m_disturbedRunLength, m_shortRuns, m_maxRunLength);
    }
    m_txBusy = false;
    if (m_txRun)
    {
        // No acknowledgement rides on it any more. The peer is told if it keeps entries that
        // refer to the run (in any mode of this port: the peer's settings decide that).
        m_txRun->finished = true;
        GsnPortDevice* peer =
            m_txRun->heldByReceiver && m_channel ? m_channel->PeerOf(this) : nullptr;
        if (peer)
        {
            peer->AckRunFinished(PeekPointer(m_txRun));
        }
    }
    m_txRun = nullptr;
    TransmitNext();
}

// Choose the micropacket to send now, into a default-constructed mp (left as it is when none is
// due); a Null only if nullAllowed. Returns false if none is due.
// (Inlined: see PrepareToSend().)
__attribute__((always_inline)) inline bool
GsnPortDevice::SelectMicropacket(GsnMicropacket& mp, bool nullAllowed)
{
    // The port's members as GsnSlotChoice reads them (a local class has the member
    // function's access).
    struct View
    {
        const GsnPortDevice& p; ///< the port
        bool nullAllowed;       ///< SelectMicropacket's argument

        bool ControlQueued() const
        {
            return !p.m_controlQueue.empty();
        }

        bool LinkUp() const
        {
            return p.m_state == LinkState::UP;
        }

        bool ResendPending() const
        {
            return p.m_resendIndex < p.m_retx.size();
        }

        bool WindowOpen() const
        {
            return p.m_retx.size() < p.m_retransmitWindow;
        }

        bool AdminQueued() const
        {
            return !p.m_adminQueue.empty();
        }

        uint8_t MessageVcs() const
        {
            return p.m_messageVcs;
        }

        uint8_t RrNext() const
        {
            return p.m_rrNext;
        }

        bool Stalled(uint8_t vc) const
        {
            return p.m_stalled[vc];
        }

        int32_t TxCredits(uint8_t vc) const
        {
            return p.m_txCredits[vc];
        }

        const std::array<uint32_t, gsn::NUM_VCS>& OwedCredits() const
        {
            return p.m_owedCredits;
        }

        uint32_t OwedTotal() const
        {
            return p.m_owedTotal;
        }

        uint32_t CreditReturnThreshold() const
        {
            return p.m_creditReturnThreshold;
        }

        bool CreditDue() const
        {
            return p.m_creditDue;
        }

        bool NullAllowed() const
        {
            return nullAllowed;
        }

        bool NullDue() const
        {
            return p.NullDue();
        }

        bool KeepAliveNulls() const
        {
            return p.m_keepAliveNulls;
        }
    };

    const GsnSlotChoice choice = GsnSlotChoice::Choose(
        View{*this, nullAllowed},
        [this](uint8_t vc) { return HasMessageMicropacket(vc); },
        [this, &mp](uint8_t vc) { return TakeMessageMicropacket(vc, mp); }); // (mp is fresh)
    for (uint32_t stalls = choice.newStalls; stalls != 0; stalls &= stalls - 1)
    {
        NoteCreditStall(uint8_t(__builtin_ctz(stalls)));
    }
    switch (choice.kind)
    {
    case GsnSlotChoice::NONE:
        return false;
    case GsnSlotChoice::CONTROL:
        mp = GsnMicropacket();
        mp.type = uint8_t(m_controlQueue.front().type);
        mp.tseq = m_controlQueue.front().number; // (not sequenced: TSEQ is free)
        m_controlQueue.pop_front();
        return true;
    case GsnSlotChoice::RETRANSMIT:
        mp = m_retx.Get(m_resendIndex++);
        ++m_counters.retransmitted;
        return true;
    case GsnSlotChoice::ADMIN:
        mp = m_adminQueue.front();
        m_adminQueue.pop_front();
        mp.type = uint8_t(GsnMicropacketType::ADMIN);
        PiggybackCredits(mp);
        break;
    case GsnSlotChoice::MESSAGE:
        NoteMessageMicropacketTaken(choice.vc, mp);
        break;
    case GsnSlotChoice::CREDIT_ONLY:
        mp = GsnMicropacket();
        mp.type = uint8_t(GsnMicropacketType::CREDIT_ONLY);
        PiggybackCredits(mp);
        ++m_counters.creditOnlySent;
        break;
    case GsnSlotChoice::NULL_MP:
        mp = GsnMicropacket();
        mp.type = uint8_t(GsnMicropacketType::NULL_MP);
        ++m_counters.nullSent;
        return true;
    case GsnSlotChoice::KEEP_ALIVE_NULL:
        // Nothing else for this slot: keep the link alive (micropacket mode only, checked
        // at initialisation), so the port never goes idle.
        mp = GsnMicropacket();
        mp.type = uint8_t(GsnMicropacketType::NULL_MP);
        ++m_counters.nullSent;
        ++m_counters.keepAliveNullSent;
        return true;
    }
    // A new sequenced micropacket.
    KeepForRetransmission(mp);
    ArmRetransmitTimer();
    return true;
}

uint8_t
GsnPortDevice::MostOwedVc() const
{
    return GsnSlotChoice::MostOwedVc(m_owedCredits, m_owedTotal);
}

void
GsnPortDevice::PiggybackCredits(GsnMicropacket& mp)
{
    const uint8_t vc = MostOwedVc();
    if (vc == gsn::NUM_VCS)
    {
        mp.vcr = 0;
        mp.cr = 0;
        return;
    }
    const uint32_t n = std::min(m_owedCredits[vc], gsn::MAX_CREDITS_PER_MICROPACKET);
    m_owedCredits[vc] -= n;
    m_owedTotal -= n;
    mp.vcr = vc;
    mp.cr = uint8_t(n);
    if (m_creditDue && m_owedTotal == 0)
    {
        m_creditDue = false; // everything owed at the timer's expiry is on its way
    }
}

void
GsnPortDevice::NoteCreditStall(uint8_t vc)
{
    if (m_exactCredits && m_slotTime > gsn::Now())
    {
        // Credits for this later slot may still be sent before it: a stall counts only
        // when the slot comes without them.
        return;
    }
    if (!m_stalled[vc])
    {
        m_stalled[vc] = true;
        m_stallStart[vc] = m_slotTime;
        ++m_counters.creditStalls[vc];
    }
}

void
GsnPortDevice::SendAdminMicropacket(const GsnMicropacket& mp)
{
    m_adminQueue.push_back(mp);
    NotifyTxReady();
}

void
GsnPortDevice::SendControl(GsnMicropacketType type, uint8_t number)
{
    m_controlQueue.push_back(gsn::QueuedControl{type, number});
    NotifyTxReady();
}

} // namespace ns3
