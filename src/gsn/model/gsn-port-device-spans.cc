/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The receiver's spans: the micropackets of a run that taking them one by one would only count
// and buffer above, taken at once (one VC's, or several VCs' interleaved slot by slot), and the
// acknowledgements they owe. (GsnPortDevice is written in several files, one per part of the
// link layer; see gsn-port-device.cc for the list.)
#include "gsn-now.h"
#include "gsn-port-device-private.h"

#include "ns3/nstime.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ns3
{

GSN_PORT_DEVICE_LOG();

namespace
{

/**
 * \param run a run being received \param a the index of a span's first micropacket in it
 * \param every places in the run from one micropacket of a VC's span to the next
 * \return the time in ns from micropacket a to a + 1, where the span's micropackets then
 *         arrive a whole number of slots apart, at most UINT16_MAX (a stride the buffers
 *         keep); else 0
 */
int64_t
SpanSpacing(const GsnMicropacketRun& run, std::size_t a, std::size_t every)
{
    const int64_t spacing = run.departures.empty() ? gsn::MICROPACKET_TIME_NS
                                                   : run.departures[a + 1] - run.departures[a];
    if (spacing <= 0 || spacing % gsn::MICROPACKET_TIME_NS != 0 ||
        int64_t(every) * spacing / gsn::MICROPACKET_TIME_NS > UINT16_MAX)
    {
        return 0;
    }
    return spacing;
}

} // namespace

// After TakeQuickly, take the micropackets of the run that follow at once, as far as taking them
// one by one would only count them and buffer them above (Data of the Message taken last, back to
// back, in sequence, with room, no credits, the same RSEQ), if the upper part takes them as one
// span (ReceiveMessageSpan). run: the run being received (its next is advanced past what is taken);
// lastRseq: the RSEQ TakeQuickly applied last.
void
GsnPortDevice::TakeSpanQuickly(GsnMicropacketRun& run, int lastRseq)
{
    const std::size_t size = run.Size();
    const std::size_t a = run.next;
    if (a + 1 >= size)
    {
        return; // (a span of one saves nothing)
    }
    GsnMicropacket scratch;
    GsnMicropacket& first = run.Take(a, scratch);
    if (!first.FollowsInMessage(first, 0))
    {
        return;
    }
    // (With VCs interleaved slot by slot the next one is mostly of another VC, seen at once
    // where every micropacket of the run is stored: a span per VC, if any.)
    if (!run.IsCompact() && !run.micropackets[a + 1].FollowsInMessage(first, 1))
    {
        TakeWovenSpansQuickly(run, lastRseq);
        return;
    }
    if (!TakesMessageSpan(first.vc))
    {
        return;
    }
    // The micropackets that TakeQuickly would take with nothing to do but count them:
    // accepted in sequence with room in their VC's buffer, no credits, an RSEQ already
    // applied; and that the buffer above can keep as one span: Data of one Message, one
    // slot apart, or a whole number of slots (a switch output following an input that
    // receives them so, with VCs interleaved upstream).
    const uint8_t vc = first.vc;
    const std::size_t end = std::min(size, a + (m_rxBufferSize - m_rxOccupancy[vc]));
    // (Without amendments a micropacket's RSEQ is its own; without departures the run's
    // micropackets leave back to back.)
    const bool ownRseq = run.laterRseq.empty();
    const bool backToBack = run.departures.empty();
    const int64_t spacing = SpanSpacing(run, a, 1);
    if (spacing == 0)
    {
        return;
    }
    // Whether micropackets from..to - 1 of the run leave spacing apart, each after the one before.
    const auto evenly = [&run, backToBack, spacing](std::size_t from, std::size_t to) {
        for (std::size_t j = from; !backToBack && j < to; ++j)
        {
            if (run.departures[j] != run.departures[j - 1] + spacing)
            {
                return false;
            }
        }
        return true;
    };
    // Credits on micropackets of the span count now, per VC, before the span goes up
    // (ProcessCredits: untimed, and the transmitter is choosing; nothing the upper part does
    // meanwhile reads this port's transmit credits). A CreditStall sink would see its calls
    // in another order: then a micropacket with credits ends the span, as before.
    const bool spanCredits = m_creditStallTrace.IsEmpty();
    uint32_t creditsOf[gsn::NUM_VCS] = {}; // on the span's micropackets, per VC
    std::size_t b = a;
    // Micropacket b - 1 (once b > a): stored in the run, or a copy in held[] of one that is
    // not; the copies alternate so that b's does not overwrite it.
    const GsnMicropacket* before = nullptr;
    GsnMicropacket held[2];
    std::size_t next = 0; // the held[] place for the next copy
    while (b < end)
    {
        const GsnMicropacketRun::Place place = run.Locate(b);
        const GsnMicropacket& stored = run.micropackets[place.stored];
        if (place.offset > 0 && ownRseq && b > a)
        {
            // Not stored: it and those after it that follow the same stored one pass if
            // the one before did (AppendFollowing() made them so), up to one with credits.
            const std::size_t credits = run.NextWithCredits(b);
            if (credits > b)
            {
                const std::size_t to = std::min({end, b + place.left + 1, credits});
                if (evenly(b, to)) // (else one by one below)
                {
                    // (The last passed, to - 1, is not stored and carries no credits.)
                    held[next] = stored.FollowingOnLink(place.offset + uint32_t(to - 1 - b));
                    before = &held[next];
                    next ^= 1;
                    b = to;
                    continue;
                }
            }
        }
        const GsnMicropacket* mp = &stored;
        if (place.offset > 0)
        {
            held[next] = run.At(b);
            mp = &held[next];
            next ^= 1;
        }
        if ((mp->cr != 0 && (!spanCredits || mp->vcr >= gsn::NUM_VCS)) ||
            mp->tseq != uint8_t(m_expectedTseq + (b - a)) ||
            int(ownRseq ? mp->rseq : run.RseqOf(b, mp->rseq)) != lastRseq ||
            (b > a && (!mp->FollowsInMessage(*before, 1) || !evenly(b, b + 1))))
        {
            break;
        }
        creditsOf[mp->vcr] += mp->cr;
        before = mp;
        ++b;
    }
    const uint32_t n = uint32_t(b - a);
    if (n < 2)
    {
        return;
    }
    NS_ASSERT(m_selecting); // (ProcessCredits would notify the transmitter: nothing to do)
    for (uint8_t v = 0; v < gsn::NUM_VCS; ++v)
    {
        if (creditsOf[v] > 0)
        {
            CountCredits(v, creditsOf[v], gsn::Now());
        }
    }
    m_rxRun = &run;
    m_rxIndex = uint32_t(a);
    m_rxArrival = run.ArrivalOf(a);
    m_rxOccupancy[vc] += n; // (before: the upper part may free the places at once)
    ReceiveMessageSpan(std::move(run.Take(a, scratch)),
                       n,
                       uint32_t(spacing / gsn::MICROPACKET_TIME_NS));
    FinishSpans(run, a, b);
}

// After TakeQuickly, where the run's next micropackets interleave the Data of the Messages of
// s VCs slot by slot (a switch output serving inputs on several VCs, an endpoint sending on
// several), each the one of its Message that follows the micropacket s places before it: take
// them as one span per VC, as far as TakeQuickly one by one would only count them and buffer
// them above (as TakeSpanQuickly(), each VC's span stride slots apart). Only where the upper part
// frees no place as they arrive (a switch input): an endpoint frees each place on arrival, and
// whether those of one VC are freed before or between those of another may change what its
// transmitter does. run: the run being received; lastRseq: the RSEQ TakeQuickly applied last.
void
GsnPortDevice::TakeWovenSpansQuickly(GsnMicropacketRun& run, int lastRseq)
{
    if (!m_placesFreedElsewhere || run.IsCompact() || !m_creditStallTrace.IsEmpty())
    {
        return;
    }
    const std::size_t size = run.Size();
    const std::size_t a = run.next;
    const std::vector<GsnMicropacket>& mps = run.micropackets;
    // s: the first micropacket after a that follows it in its Message, with those between
    // Data of other VCs; each VC's buffer takes them as a span.
    std::size_t s = 0;
    uint8_t vcs = 0; // the VCs of the weave, bit per VC
    for (std::size_t j = 0; j <= gsn::NUM_VCS && a + j < size; ++j)
    {
        const GsnMicropacket& mp = mps[a + j];
        if (j >= 2 && mp.FollowsInMessage(mps[a], 1))
        {
            s = j;
            break;
        }
        if (!mp.FollowsInMessage(mp, 0) || (vcs >> mp.vc & 1u) || !TakesMessageSpan(mp.vc))
        {
            return;
        }
        vcs = uint8_t(vcs | 1u << mp.vc);
    }
    if (s == 0)
    {
        return;
    }
    const bool ownRseq = run.laterRseq.empty();
    const bool backToBack = run.departures.empty();
    const int64_t spacing = SpanSpacing(run, a, s);
    if (spacing == 0)
    {
        return;
    }
    // The micropackets that TakeQuickly would take with nothing to do but count them (see
    // TakeSpanQuickly()), the weave unbroken: each follows the one s places before it.
    std::array<uint32_t, gsn::NUM_VCS> count{};
    std::array<uint32_t, gsn::NUM_VCS> creditsOf{};
    std::size_t b = a;
    for (; b < size; ++b)
    {
        const GsnMicropacket& mp = mps[b];
        if ((b >= a + s && !mp.FollowsInMessage(mps[b - s], 1)) ||
            m_rxOccupancy[mp.vc] + count[mp.vc] >= m_rxBufferSize ||
            (mp.cr != 0 && mp.vcr >= gsn::NUM_VCS) ||
            mp.tseq != uint8_t(m_expectedTseq + (b - a)) ||
            int(ownRseq ? mp.rseq : run.RseqOf(b, mp.rseq)) != lastRseq ||
            (b > a && !backToBack && run.departures[b] != run.departures[b - 1] + spacing))
        {
            break;
        }
        ++count[mp.vc];
        if (mp.cr != 0)
        {
            creditsOf[mp.vcr] += mp.cr;
        }
    }
    if (b < a + 2 * s)
    {
        return; // (spans of one save nothing)
    }
    NS_ASSERT(m_selecting); // (as in TakeSpanQuickly())
    for (uint8_t v = 0; v < gsn::NUM_VCS; ++v)
    {
        if (creditsOf[v] > 0)
        {
            CountCredits(v, creditsOf[v], gsn::Now());
        }
    }
    // Each VC's span goes up in turn: the upper part only buffers them (TakesMessageSpan()),
    // so the order of its VCs' buffers changes nothing.
    m_rxRun = &run;
    GsnMicropacket scratch;
    const uint32_t stride = uint32_t(int64_t(s) * spacing / gsn::MICROPACKET_TIME_NS);
    for (std::size_t k = a; k < a + s; ++k)
    {
        const uint8_t vc = mps[k].vc;
        m_rxIndex = uint32_t(k);
        m_rxArrival = run.ArrivalOf(k);
        m_rxOccupancy[vc] += count[vc];
        ReceiveMessageSpan(std::move(run.Take(k, scratch)), count[vc], stride);
    }
    FinishSpans(run, a, b);
}

// The rest of what TakeQuickly does for each micropacket a to b - 1 of run, taken in spans, at
// once.
void
GsnPortDevice::FinishSpans(GsnMicropacketRun& run, std::size_t a, std::size_t b)
{
    const uint32_t n = uint32_t(b - a);
    run.next = b;
    m_rxIndex = uint32_t(b - 1);
    m_rxArrival = run.ArrivalOf(b - 1);
    m_rxAhead = m_rxArrival > gsn::Now();
    m_counters.rxMicropackets += n;
    m_counters.rxAccepted += n;
    if (AcksRideOnRun())
    {
        NoteSpanAcksOwed(run, a, n);
        return;
    }
    m_expectedTseq = uint8_t(m_expectedTseq + n);
    // OweAck n times (while a run is taken, the transmitter waits for its end).
    if (m_rxUnacked == 0)
    {
        m_oldestUnacked = gsn::Now();
    }
    m_rxUnacked += n;
    if (m_rxUnacked >= m_ackThreshold)
    {
        m_ackDue = true;
        NotifyTxReady();
    }
}

// AcksRideOnRun(): NoteAckOwed() for each of n micropackets of run just taken in a span, from index
// a, in turn (m_expectedTseq is the first one's TSEQ).
void
GsnPortDevice::NoteSpanAcksOwed(const GsnMicropacketRun& run, std::size_t a, uint32_t n)
{
    // NoteAckOwed for each in turn, with its arrival and TSEQ: amended onto this port's run
    // from the slot after it (or owed, arriving after the run). The RSEQs the peer applies
    // at once (it has taken this port's run past them) are gathered if they can be.
    PeerRseqs gathered;
    PeerRseqs* const gather = GatherPeerRseqs(gathered) ? &gathered : nullptr;
    const uint8_t first = m_expectedTseq;
    uint32_t i = 0;
    if (m_txRun && m_channel)
    {
        // AmendRunAcks for those arriving while the run is on the wire, in one loop: each
        // sets the RSEQ of the run's first slot from its arrival on (arrivals and slots
        // only grow).
        // (Times in time steps, as ArrivalOf() and GetNanoSeconds() find them, without a
        // Time per micropacket.)
        GsnMicropacketRun& mine = *m_txRun;
        const std::size_t size = mine.Size();
        const std::size_t takenAhead = mine.TakenByReceiver();
        // (The peer's transmitter is busy while they are gathered, so it acts on none of them
        // meanwhile; otherwise it acts on each at once, and that might change anything.)
        static const int64_t stepsPerNs = NanoSeconds(1).GetTimeStep();
        const int64_t firstArrival = run.firstArrival.GetTimeStep();
        const int64_t runStart = m_runStart.GetTimeStep();
        const int64_t runEnd = m_runEnd.GetTimeStep();
        bool amended = false;
        if (gather && run.departures.empty() && mine.departures.empty() &&
            uint8_t(m_rseqSent - first) >= n)
        {
            // Both back to back, none acknowledged already: micropacket i arrives one slot
            // after i - 1 and so amends the slot after, with the next RSEQ (one row), up to
            // the end of the run.
            const int64_t slot = gsn::MICROPACKET_TIME_NS * stepsPerNs;
            const int64_t arrival = firstArrival + int64_t(a) * slot;
            const int64_t ns = (arrival - runStart) / stepsPerNs - 1;
            const std::size_t k = mine.LeftBy(ns);
            if (ns >= 0 && arrival < runEnd && k < size)
            {
                const uint32_t row = uint32_t(std::min<int64_t>(
                    {int64_t(n), (runEnd - arrival + slot - 1) / slot, int64_t(size - k)}));
                mine.AmendRseqRow(k, first, row);
                amended = true;
                for (uint32_t j = 0; j < row && k + j < takenAhead; ++j)
                {
                    gather->Add(uint8_t(first + j), &mine, k + j);
                }
                i = row; // (the next arrives after the run, or is beyond it: the loop ends)
            }
        }
        for (; i < n; ++i)
        {
            const int64_t arrival = firstArrival + run.DepartureOf(a + i) * stepsPerNs;
            const uint8_t rseq = uint8_t(first + i); // all accepted arrived by then
            if (m_rseqSent == rseq)
            {
                continue; // acknowledged already
            }
            if (arrival >= runEnd)
            {
                break;
            }
            const std::size_t k = mine.LeftBy((arrival - runStart) / stepsPerNs - 1);
            if (k >= size)
            {
                break;
            }
            mine.AmendRseqFrom(k, rseq);
            amended = true;
            if (gather)
            {
                if (k < takenAhead)
                {
                    gather->Add(rseq, &mine, k);
                }
            }
            else if (k < mine.TakenByReceiver())
            {
                // (Read each time: the peer acts on each RSEQ at once.)
                AmendPeerRseq(rseq, k);
            }
        }
        if (amended)
        {
            m_laterArrivals.clear();
            m_rxUnacked = 0;
            m_ackDue = false;
        }
    }
    // The rest arrive after the run (or there is none): OweAck for each, the transmitter
    // busy (nothing is timed: not taken ahead, no ExactAcks).
    NS_ASSERT(m_txBusy && !m_timedTake && !ExactAcks());
    uint32_t owed = 0;
    for (; i < n; ++i)
    {
        owed += m_rseqSent != uint8_t(first + i);
    }
    if (owed > 0)
    {
        if (m_rxUnacked == 0)
        {
            m_oldestUnacked = gsn::Now();
        }
        m_rxUnacked += owed;
        m_ackDue = m_ackDue || m_rxUnacked >= m_ackThreshold;
    }
    m_expectedTseq = uint8_t(first + n);
    m_rxIndex = uint32_t(a + n - 1);
    m_rxArrival = run.ArrivalOf(a + n - 1);
    ApplyPeerRseqs(gathered);
}

} // namespace ns3
