/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Receive buffer places and credits: releases, credits returned, credits riding on runs.
// (GsnPortDevice is written in several files, one per part of the link layer; see
// gsn-port-device.cc for the list.)
#include "gsn-channel.h"
#include "gsn-now.h"
#include "gsn-port-device-private.h"
#include "gsn-port-event.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_PORT_DEVICE_LOG();

void
GsnPortDevice::ReleaseRxBuffer(uint8_t vc, uint32_t n, const Time& at)
{
    const Time now = gsn::Now(); // (a call under most schedulers: asked once)
    if (m_exactCredits && at > now)
    {
        // Freed in a later slot of a run chosen ahead: the credits exist from then. Those
        // that ride on this port's run under way from then are sent now (their places count
        // as free now, as those whose credits a run chosen ahead carries: a peer that does
        // not time credits counts them when it takes the run).
        const uint32_t put = PutLaterCreditsOnRun(vc, n, at);
        NS_ASSERT(m_rxOccupancy[vc] >= put);
        m_rxOccupancy[vc] -= put;
        n -= put;
        if (n == 0)
        {
            return;
        }
        m_laterReleases.Add(at, vc, n);
        // An idle transmitter must wake for them; a wake-up already due by then stays (a
        // later entry cannot bring it forward).
        const bool wakeCovers =
            m_dueCreditsTimer.pending && Time(m_dueCreditsTimer.event.GetTs()) <= at;
        if (!m_txBusy && !m_selecting && !wakeCovers)
        {
            ArmDueCreditsTimer();
        }
        return;
    }
    if (at == now && StartedIdleAt(now) && AmendCreditsOfSlotNow(vc, n))
    {
        return;
    }
    // (Here at is now, except in a run mode without ExactCredits, which counts places
    // freed in a later slot at once.)
    if (m_txBusy && m_runEnd == at && at == now)
    {
        // Freed as this port's next slot begins: the micropacket of that slot is chosen as
        // if before (micropacket by micropacket the order of the two events would decide),
        // so the credits ride from the slot after it (ApplyDueCredits(), ApplyReleasesAtSlot()).
        m_laterReleases.Add(m_runEnd, vc, n);
        return;
    }
    if (!m_txBusy && !m_selecting && m_placesFreedElsewhere && at == now &&
        m_state == LinkState::UP)
    {
        // Freed by another port's choice at this instant (a switch output taking a
        // micropacket of this input), this port idle: the credits go in a choice this port
        // makes at this instant only if nothing else would go (TransmitNext). That choice
        // waits for the instant's other events; whether one of them made this port choose
        // first, or it comes after, changes nothing.
        m_laterReleases.Add(at, vc, n);
        if (!m_heldChoiceTimer.pending)
        {
            HoldUntilAfterEvent(at);
        }
        return;
    }
    if (!m_laterReleases.empty())
    {
        ApplyDueReleases(now, false); // places freed earlier count first
    }
    if (m_owedTotal == 0)
    {
        m_oldestOwed = now;
    }
    FreeRxPlaces(vc, n);
    if (m_txBusy)
    {
        PutOwedCreditsOnRun();
    }
    if (MakeCreditOnlyDue(m_owedCredits[vc]))
    {
        NotifyTxReady();
    }
    else if (!m_txBusy && !m_selecting && !m_heldChoiceTimer.pending)
    {
        ArmIdleTimers(); // (a held choice arms them if it sends nothing)
    }
}

void
GsnPortDevice::ReleaseRxBufferSpan(uint8_t vc, uint32_t n, const Time& first, uint32_t stride)
{
    const Time slot = gsn::MicropacketTime() * int64_t(stride);
    if (StartedIdleAt(first) && first == gsn::Now())
    {
        // The first place counts in the micropacket of the slot that started now, as alone.
        ReleaseRxBuffer(vc, 1, first);
        if (n > 1)
        {
            ReleaseRxBufferSpan(vc, n - 1, first + slot, stride);
        }
        return;
    }
    const Time last = first + slot * int64_t(n - 1);
    if (ReleasesQuietly(last) || ReleasesIdleQuietly(vc, n) || ReleasesWhileHeld())
    {
        ReleaseRxBuffer(vc, n, first);
        return;
    }
    const Time now = gsn::Now();
    if (!m_exactCredits && m_txBusy && !(m_runEnd == now && first <= now && now <= last))
    {
        ReleaseRidingOnRun(&vc, 1, n);
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        ReleaseRxBuffer(vc, 1, first + slot * int64_t(i));
    }
}

void
GsnPortDevice::ReleaseRxBufferWoven(const uint8_t* vcs,
                                    const uint32_t* offsets,
                                    uint32_t m,
                                    uint32_t rounds,
                                    const Time& first,
                                    uint32_t s)
{
    const Time slot = gsn::MicropacketTime();
    const Time now = gsn::Now();
    const Time firstFreed = first + slot * int64_t(offsets[0]);
    const Time last = first + slot * int64_t((rounds - 1) * s + offsets[m - 1]);
    if (!(StartedIdleAt(firstFreed) && firstFreed == now))
    {
        // Where each VC's places would only count (ReleaseRxBufferSpan()), the VCs' counts
        // add up in any order.
        bool idleQuietly = true;
        for (uint32_t j = 0; j < m; ++j)
        {
            idleQuietly = idleQuietly && ReleasesIdleQuietly(vcs[j], rounds);
        }
        if (ReleasesQuietly(last) || idleQuietly || ReleasesWhileHeld())
        {
            for (uint32_t j = 0; j < m; ++j)
            {
                ReleaseRxBuffer(vcs[j], rounds, first + slot * int64_t(offsets[j]));
            }
            return;
        }
        if (!m_exactCredits && m_txBusy && !(m_runEnd == now && firstFreed <= now && now <= last))
        {
            ReleaseRidingOnRun(vcs, m, rounds);
            return;
        }
    }
    for (uint32_t r = 0; r < rounds; ++r)
    {
        for (uint32_t j = 0; j < m; ++j)
        {
            ReleaseRxBuffer(vcs[j], 1, first + slot * int64_t(r * s + offsets[j]));
        }
    }
}

// An endpoint's port, idle, chose the micropacket of a slot starting now; a micropacket arriving at
// the same instant after that choice frees n places of vc. Where the arrival runs first, the places
// count in the choice: here the credits that micropacket carries are chosen again as they would
// have been then (the VC owed the most, up to the most one carries), on the micropacket itself,
// its copy for retransmission and what the channel carries, before it leaves. Whichever of the two
// events of the instant ns-3 runs first then changes nothing (as for the RSEQ, NoteAckOwed()).
// Returns false, changing nothing, where the slot's micropacket carries no credits (a Null, a
// retransmission) or has gone to the peer already (taken ahead).
bool
GsnPortDevice::AmendCreditsOfSlotNow(uint8_t vc, uint32_t n)
{
    const Time now = gsn::Now();
    const std::size_t i = m_retx.FirstLeavingAfter(now - TimeStep(1));
    if (i >= m_retx.size() || i < m_ackedAhead || m_retx.SlotOf(i) != now)
    {
        return false; // (not a new sequenced micropacket)
    }
    GsnMicropacket* sent = nullptr;
    if (!m_txRun)
    {
        sent = m_channel ? m_channel->MicropacketSentNow(this) : nullptr;
        if (!sent)
        {
            return false;
        }
    }
    // Its credits back to owed, the places freed, and the choice of its credits made again.
    GsnMicropacket& u = m_retx.Store(i);
    m_owedCredits[u.vcr] += u.cr;
    m_owedTotal += u.cr;
    const uint32_t before = m_owedTotal; // owed before the choice
    FreeRxPlaces(vc, n);
    PiggybackCredits(u); // (clears m_creditDue if nothing is left owed)
    const uint8_t x = u.vcr;
    const uint8_t c = u.cr;
    if (m_txRun)
    {
        NS_ASSERT(m_txRun->next == 0); // (it arrives a link delay from now)
        m_txRun->SetCredits(0, x, c);
    }
    else
    {
        sent->vcr = x;
        sent->cr = c;
    }
    if (m_owedTotal > 0)
    {
        if (before == 0)
        {
            m_oldestOwed = now;
        }
        m_creditDue = m_creditDue || m_startCreditDue;
    }
    return true;
}

// ReleaseRxBufferSpan() or ReleaseRxBufferWoven() where this port is busy, credits ride on its run
// without ExactCredits, and no place is freed as its next slot begins: the places of the m VCs
// vcs, rounds of each, freed in turns (vcs[0]'s, vcs[1]'s, ..., then again; with one VC a span),
// as one ReleaseRxBuffer() for each in that order, without what does nothing then.
void
GsnPortDevice::ReleaseRidingOnRun(const uint8_t* vcs, uint32_t m, uint32_t rounds)
{
    // ReleaseRxBuffer() for each place in turn, here: each counts now (no ExactCredits), none
    // is kept for the next slot, and the credits owed after each go on the run's next
    // micropacket without credits. Once the run has none left, the rest only count: the
    // Credit-only they may make due waits for the busy transmitter, as it would.
    const Time now = gsn::Now();
    if (!m_laterReleases.empty())
    {
        ApplyDueReleases(now, false); // places freed earlier count first
    }
    const uint32_t n = m * rounds;
    uint32_t freed = 0;
    if (CanPutCreditsOnRun(now))
    {
        std::size_t cursor = PUT_CURSOR_UNKNOWN;
        while (freed < n && cursor != m_retx.size())
        {
            if (m == 1 && m_owedTotal == 0 && cursor < m_ackedAhead)
            {
                freed += PutSpanOnAcknowledged(vcs[0], n - freed, cursor);
                continue;
            }
            if (m_owedTotal == 0)
            {
                m_oldestOwed = now;
            }
            FreeRxPlaces(vcs[freed % m], 1);
            PutOwedCreditsOnRun(&cursor);
            ++freed;
        }
    }
    if (freed < n)
    {
        if (m_owedTotal == 0)
        {
            m_oldestOwed = now;
        }
        for (uint32_t j = 0; j < m; ++j)
        {
            // (Of the places left, those of the j-th VC in turn.)
            const uint32_t k = (freed + m - 1 - j) / m * m + j;
            FreeRxPlaces(vcs[j], k < n ? (n - k + m - 1) / m : 0);
        }
    }
}

// ReleaseRidingOnRun() of one VC where nothing else is owed and the next rider (cursor) is
// acknowledged already: up to n places of vc, each credit on its own rider, as long as they are
// acknowledged ones. cursor: the next rider, updated. Returns how many places were freed.
uint32_t
GsnPortDevice::PutSpanOnAcknowledged(uint8_t vc, uint32_t n, std::size_t& cursor)
{
    // As n times FreeRxPlaces(vc, 1) and PutOwedCreditsOnRun(&cursor) with nothing else owed:
    // each place's credit goes alone on the next rider, here one acknowledged already (only
    // the peer needs it), a stretch of those that follow one another at a time.
    uint32_t put = 0;
    while (put < n && cursor < m_ackedAhead)
    {
        const GsnRetransmitBuffer::Stretch s = m_retx.RidersFrom(cursor);
        const uint32_t m = uint32_t(std::min<std::size_t>({n - put, s.n, m_ackedAhead - cursor}));
        NS_ASSERT(m > 0 && m_rxOccupancy[vc] >= m);
        m_rxOccupancy[vc] -= m;
        // (Micropackets that follow one another in the buffer do so in the run.)
        SendCreditsOnRun(s.slot, uint8_t(m_retx.FrontTseq() + cursor), vc, 1, m);
        put += m;
        m_ackedCreditsUpTo = cursor + m;
        cursor = NextRiderFrom(cursor + m);
    }
    m_oldestOwed = gsn::Now();
    m_creditDue = false; // (nothing owed)
    return put;
}

bool
GsnPortDevice::ReleasesQuietly(const Time& last) const
{
    // What ReleaseRxBuffer() does besides counting: keep timed places for later
    // (ExactCredits, later than now), put credits on a run under way, start a transmission
    // or timers (only where the transmitter is neither busy nor choosing). So: only while
    // choosing, not busy, and with ExactCredits only places freed by now.
    if (m_txBusy || !m_selecting)
    {
        return false;
    }
    return !m_exactCredits || last <= gsn::Now(); // (the time asked only where it matters)
}

uint32_t
GsnPortDevice::QuietReleases(uint8_t vc, const Time& from) const
{
    if (ReleasesQuietly(from))
    {
        return UINT32_MAX;
    }
    if (m_txBusy)
    {
        // Busy, credits riding on its run:
        // ReleaseRxBufferSpan() frees the places one by one, each putting its credit on the
        // run as alone; none starts a transmission or a timer, so the switch may take them
        // all at once.
        return UINT32_MAX;
    }
    if (ReleasesWhileHeld())
    {
        return UINT32_MAX;
    }
    // Idle: as many as keep the credits owed below the threshold (the one reaching it
    // starts a Credit-only, after which the transmitter is busy).
    return ReleasesIdleQuietly(vc, 1) ? m_creditReturnThreshold - 1 - m_owedCredits[vc] : 0;
}

// Count the buffer places freed by t (before it if slotFollows) as owed credits.
void
GsnPortDevice::ApplyDueReleases(const Time& t, bool slotFollows)
{
    while (slotFollows ? m_laterReleases.HasDueBefore(t) : m_laterReleases.HasDue(t))
    {
        const GsnTimedCredits::Entry e = m_laterReleases.front();
        m_laterReleases.pop_front();
        if (m_owedTotal == 0)
        {
            m_oldestOwed = e.at;
        }
        FreeRxPlaces(e.vc, e.n);
    }
}

// ApplyDueCredits() (in the header) when something is due. ApplyDueCredits(t, slotFollows) counts
// what takes effect by t: credits and acknowledgements that arrived, buffer places freed,
// acknowledgements owed for micropackets that arrived. Where a slot of this port at t follows its
// previous one (slotFollows, or the transmission on the wire ends at t), places freed at t itself
// count from the slot after it (see ReleaseRxBuffer()). With ExactCredits, where a slot at t
// follows a transmission of this port (creditsFollow: a later slot of a run chosen ahead, or the
// transmission on the wire ends at t), credits arriving at t itself count after that slot's choice,
// as micropacket by micropacket (ProcessCredits(), CountCreditsOfSlotStart(); the choice counts
// them and chooses again if nothing else goes, CountTimedCreditsBy()). Without ExactCredits credits
// are timed by runs anyway, and they count at once.
void
GsnPortDevice::ApplyDueCreditsNow(const Time& t, bool slotFollows, bool creditsFollow)
{
    ApplyDueReleases(t, slotFollows);
    CountTimedCreditsBy(creditsFollow ? t - TimeStep(1) : t);
    if (m_laterAcks.HasDueBy(t))
    {
        ApplyDueAcks(t);
    }
    while (!m_laterArrivals.empty() && m_laterArrivals.front() <= t)
    {
        // As NoteAckOwed at the arrival.
        if (m_rxUnacked++ == 0)
        {
            m_oldestUnacked = m_laterArrivals.front();
        }
        m_ackDue = m_ackDue || m_rxUnacked >= m_ackThreshold;
        m_laterArrivals.pop_front();
    }
}

// Apply the RSEQs kept for later that arrived before now: before the retransmission buffer is read
// while this port is busy (a Credit-only or Null taken ahead keeps its RSEQ until its arrival,
// TakeTimedRseq()).
void
GsnPortDevice::ApplyArrivedAcks()
{
    // (One arriving at this very instant counts after the instant's other events: the rule
    // settles the tie of its arrival, which micropacket by micropacket is an event of its
    // own, whatever the order of the events.)
    if (m_laterAcks.HasDueBy(gsn::Now() - TimeStep(1)))
    {
        ApplyDueAcks(gsn::Now() - TimeStep(1));
    }
}

void
GsnPortDevice::ApplyDueAcks(const Time& t)
{
    // RSEQs only grow: applying the last one due, from when it first arrived, leaves the
    // state that applying each in turn would.
    const gsn::LaterAcks::Due due = m_laterAcks.TakeDue(t);
    ProcessRseq(due.rseq, &due.from);
}

// A slot at t that follows the previous one found nothing to send: count the places freed at t if
// that makes a Credit-only due in it (as if they had been freed after the choice, when the port
// went idle). Returns true if it does.
bool
GsnPortDevice::ApplyReleasesAtSlot(const Time& t)
{
    if (!m_laterReleases.HasDue(t))
    {
        return false;
    }
    // (Those freed before t count already: what is due by t was freed at t.)
    const std::array<uint32_t, gsn::NUM_VCS> freed = m_laterReleases.SumsDue(t);
    bool creditOnly = false;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS && !creditOnly; ++vc)
    {
        creditOnly = freed[vc] > 0 && MakeCreditOnlyDue(m_owedCredits[vc] + freed[vc]);
    }
    if (creditOnly)
    {
        ApplyDueReleases(t, false);
    }
    return creditOnly;
}

bool
GsnPortDevice::CanPutCreditsOnRun(const Time& from) const
{
    return m_txRun && from < m_runEnd && m_state == LinkState::UP && m_channel &&
           m_channel->PeerOf(this);
}

// Put cr credits of vc on each of count micropackets of the run on the wire that leave one slot
// after another from slot, the first with TSEQ tseq: the peer reads them from those it has not
// taken yet and counts them from their arrival for those it has.
void
GsnPortDevice::SendCreditsOnRun(const Time& slot,
                                uint8_t tseq,
                                uint8_t vc,
                                uint8_t cr,
                                uint32_t count,
                                uint8_t had)
{
    // (The buffer's copies, which a retransmission would send, carry them already, or are
    // acknowledged.)
    GsnMicropacketRun& run = *m_txRun;
    const std::size_t k = run.LeftBy((slot - m_runStart).GetNanoSeconds()) - 1;
    NS_ASSERT(k + count <= run.Size());
    // Those the peer has taken (the first ones) count from their arrival there; the others
    // it reads from the micropackets when it takes them.
    const uint32_t taken = k < run.next ? uint32_t(std::min<std::size_t>(count, run.next - k)) : 0;
    if (taken > 0)
    {
        m_channel->PeerOf(this)->TakeLateCredits(run, k, vc, cr, taken);
    }
    for (uint32_t j = taken; j < count; ++j)
    {
        NS_ASSERT(run.At(k + j).tseq == uint8_t(tseq + j));
        // (Its LCRC is pending: computed over the credits too.)
        run.SetCredits(k + j, vc, uint8_t(had + cr));
    }
}

// Run mode, a run on the wire: put the credits owed now on its micropackets that leave from now on
// and carry none. cursor: null, or the index of the run's first micropacket leaving from now on
// without credits as the call before found it (PUT_CURSOR_UNKNOWN: not yet), updated:
// ReleaseRidingOnRun() keeps it over its places freed one by one (nothing in between changes
// the retransmission buffer or the time, and the RSEQs that arrived before now are applied before
// the first search only), so that they cost one search rather than one each.
// NextRiderFrom(i) (in the header): the first micropacket from index i of m_retx on that credits
// may ride on: without credits, and for one acknowledged already (m_ackedAhead), not given credits
// since (m_ackedCreditsUpTo; its copy in the buffer is not changed, as it is never resent).
void
GsnPortDevice::PutOwedCreditsOnRun(std::size_t* cursor)
{
    const Time now = gsn::Now();
    if (m_owedTotal == 0 || !CanPutCreditsOnRun(now))
    {
        return;
    }
    if (!cursor || *cursor == PUT_CURSOR_UNKNOWN)
    {
        ApplyArrivedAcks(); // (what they acknowledge carries no more credits)
    }
    if (m_exactCredits)
    {
        for (std::size_t i = m_retx.FirstLeavingAfter(now); m_owedTotal > 0; ++i)
        {
            const uint8_t vc = MostOwedVc();
            i = RiderFor(i, vc);
            if (i == m_retx.size())
            {
                break;
            }
            const uint32_t n = std::min(m_owedCredits[vc], gsn::MAX_CREDITS_PER_MICROPACKET);
            const uint32_t put = PutCreditsOn(i, vc, n);
            m_owedCredits[vc] -= put;
            m_owedTotal -= put;
        }
        if (m_creditDue && m_owedTotal == 0)
        {
            m_creditDue = false; // (as PiggybackCredits())
        }
        return;
    }
    // Micropacket by micropacket they would ride on the next sequenced micropackets.
    // (One VC's credits per micropacket: those that carry some already are passed over. The
    // run's sequenced micropackets are the last ones in the buffer, in slot order.)
    std::size_t i = cursor && *cursor != PUT_CURSOR_UNKNOWN
                        ? *cursor
                        : NextRiderFrom(m_retx.FirstLeavingAfter(now));
    for (; i < m_retx.size() && m_owedTotal > 0; i = NextRiderFrom(i + 1))
    {
        if (i < m_ackedAhead)
        {
            // Acknowledged already, never resent: only the peer needs the credits.
            GsnMicropacket u;
            PiggybackCredits(u);
            SendCreditsOnRun(m_retx.SlotOf(i), uint8_t(m_retx.FrontTseq() + i), u.vcr, u.cr);
            m_ackedCreditsUpTo = i + 1;
            continue;
        }
        GsnMicropacket& u = m_retx.Store(i);
        PiggybackCredits(u);
        SendCreditsOnRun(m_retx.SlotOf(i), u.tseq, u.vcr, u.cr);
    }
    if (cursor)
    {
        *cursor = i; // (the next of a span's places goes on here)
    }
}

// PutOwedCreditsOnRun() for n credits of vc whose places are freed at time at, later than now
// (ExactCredits). Returns how many were put on the run.
uint32_t
GsnPortDevice::PutLaterCreditsOnRun(uint8_t vc, uint32_t n, const Time& at)
{
    if (!CanPutCreditsOnRun(at))
    {
        return 0;
    }
    uint32_t put = 0;
    for (std::size_t i = RiderFor(m_retx.FirstLeavingAfter(at), vc); i < m_retx.size() && put < n;
         i = RiderFor(i + 1, vc))
    {
        put += PutCreditsOn(i, vc, n - put);
    }
    return put;
}

// ExactCredits: the index of the first micropacket of m_retx from i on that credits of vc owed
// before its slot ride on, as micropacket by micropacket: one without credits, or one carrying
// fewer than it may of vc (owed by its slot, they would have gone on it together).
std::size_t
GsnPortDevice::RiderFor(std::size_t i, uint8_t vc) const
{
    // (Acknowledged ones whose credits were sent without changing their copy, before
    // m_ackedCreditsUpTo, are passed over as carrying some.)
    return m_retx.FirstWithRoomFor(i < m_ackedAhead ? std::max(i, m_ackedCreditsUpTo) : i, vc);
}

// ExactCredits: put up to n credits of vc on micropacket i of m_retx (RiderFor()), with those of vc
// it carries. Returns how many were put.
uint32_t
GsnPortDevice::PutCreditsOn(std::size_t i, uint8_t vc, uint32_t n)
{
    GsnMicropacket& u = m_retx.Store(i);
    const uint8_t had = u.cr;
    NS_ASSERT(had == 0 || u.vcr == vc);
    const uint32_t put = std::min(n, gsn::MAX_CREDITS_PER_MICROPACKET - had);
    u.vcr = vc;
    u.cr = uint8_t(had + put);
    SendCreditsOnRun(m_retx.SlotOf(i), u.tseq, vc, uint8_t(put), 1, had);
    return put;
}

// The peer put n credits of vc on each of micropackets k to k + count - 1 of run, which this port
// has taken already: count them from their arrivals, for those this port accepted.
void
GsnPortDevice::TakeLateCredits(const GsnMicropacketRun& run,
                               std::size_t k,
                               uint8_t vc,
                               uint8_t n,
                               uint32_t count)
{
    if (run.rxClears != m_clears)
    {
        return; // taken before a reset: void
    }
    const Time slot = gsn::MicropacketTime();
    if (run.departures.empty() && run.rejected.empty() && m_lateCreditsRxTrace.IsEmpty())
    {
        // Back to back, all accepted: one slot apart (mostly the next slots after the last
        // ones taken: the row grows).
        m_laterCredits.AddRow(run.ArrivalOf(k), slot, vc, n, count);
    }
    else
    {
        for (std::size_t j = k; j < k + count; ++j)
        {
            const bool accepted = run.WasAccepted(j); // (if not, its retransmission carries them)
            // Traced where MicropacketRx showed the micropacket: a good LCRC (counted or not).
            if (!m_lateCreditsRxTrace.IsEmpty() && (accepted || !run.WasCorrupted(j)))
            {
                // (GetRxRun() names the micropacket to the trace's sinks.)
                GsnMicropacketRun* const received = m_rxRun;
                const uint32_t index = m_rxIndex;
                m_rxRun = const_cast<GsnMicropacketRun*>(&run);
                m_rxIndex = uint32_t(j);
                m_lateCreditsRxTrace(vc, n);
                m_rxRun = received;
                m_rxIndex = index;
            }
            if (accepted)
            {
                m_laterCredits.AddRow(run.ArrivalOf(j), slot, vc, n, 1);
            }
        }
    }
    if (!m_txBusy && !m_selecting)
    {
        ArmDueCreditsTimer(); // a VC out of credit goes on when they arrive
    }
}

// Idle: wake when what is kept for later needs the transmitter (credits of freed places to return,
// credits arriving for a VC that is out of them).
void
GsnPortDevice::ArmDueCreditsTimer()
{
    // When the transmitter, idle now, would act on what is kept for later: send the
    // credits of freed places (the threshold is reached, or the first waited AckDelay),
    // or go on with a VC that is out of credit when credits for it arrive.
    Time wake = Time::Max();
    if (!m_laterReleases.empty())
    {
        const Time first = m_laterReleases.front().at;
        wake = m_creditDue
                   ? first
                   : std::min(m_laterReleases.FirstReaching(m_owedCredits, m_creditReturnThreshold),
                              (m_owedTotal > 0 ? m_oldestOwed : first) + m_ackDelay);
    }
    if (!m_laterCredits.empty() &&
        std::find(m_stalled.begin(), m_stalled.end(), true) != m_stalled.end())
    {
        wake = std::min(wake, m_laterCredits.front().at);
    }
    // A Null for what arrives, and acknowledgements that open a full retransmission window.
    if (!m_laterArrivals.empty())
    {
        wake = std::min(wake, NextAckDue());
    }
    if (!m_laterAcks.empty() && m_retx.size() >= m_retransmitWindow)
    {
        wake = std::min(wake, m_laterAcks.FirstArrival());
    }
    if (wake == Time::Max())
    {
        return;
    }
    const Time now = gsn::Now();
    wake = std::max(wake, now);
    if (m_dueCreditsTimer.pending)
    {
        if (Time(m_dueCreditsTimer.event.GetTs()) <= wake)
        {
            return;
        }
        m_dueCreditsTimer.event.Cancel();
    }
    Arm(m_dueCreditsTimer, wake - now, &GsnPortDevice::DueCreditsTimeout);
}

void
GsnPortDevice::DueCreditsTimeout()
{
    const gsn::TimerEventCount counted(m_counters);
    m_dueCreditsTimer.Clear();
    // (Places freed elsewhere at this very instant: as TransmitNext counts them.)
    ApplyDueCredits(gsn::Now(), m_placesFreedElsewhere);
    if (m_owedTotal > 0 && m_oldestOwed + m_ackDelay <= gsn::Now())
    {
        m_creditDue = true; // as CreditTimeout would
    }
    if (m_rxUnacked > 0 && m_oldestUnacked + m_ackDelay <= gsn::Now())
    {
        m_ackDue = true; // as AckTimeout would
    }
    NotifyTxReady(); // if nothing goes, TransmitNext arms the timers for the next
}

void
GsnPortDevice::CreditTimeout()
{
    const gsn::TimerEventCount counted(m_counters);
    m_creditTimer.Clear();
    if (m_owedTotal == 0)
    {
        return;
    }
    // Lazy like AckTimeout: only credits owed for AckDelay force a Credit-only.
    if (ArmAgainIfNotDue(m_creditTimer, m_oldestOwed + m_ackDelay, &GsnPortDevice::CreditTimeout))
    {
        return;
    }
    m_creditDue = true;
    NotifyTxReady();
}

} // namespace ns3
