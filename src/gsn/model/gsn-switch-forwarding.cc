/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Forwarding: input buffers, the routing of each Header, arbitration of the outputs, what
// the output ports take (micropacket by micropacket or ahead, in runs), drops, broadcast
// copies, and what a port's reset does to the Messages buffered at it.
// (GsnSwitch is written in several files, one per role; see gsn-switch.cc for the list.)
#include "gsn-message-header.h"
#include "gsn-now.h"
#include "gsn-switch-port.h"
#include "gsn-switch-private.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_SWITCH_LOG();

// ---------------------------------------------------------------------------------------
// Input side

void
GsnSwitch::ReceiveMicropacket(uint32_t port, GsnMicropacket&& mp)
{
    const uint8_t vc = mp.vc;
    InputVc& in = m_in[port][vc];
    if (mp.tail)
    {
        ++in.tails;
    }
    // Cut-through counts from the arrival, which is earlier than now for the micropackets
    // of a run that the port takes ahead of time.
    in.fifo.Push(std::move(mp), m_ports[port]->GetRxArrivalTime() + m_latency, true);
    switch (in.mode)
    {
    case Mode::IDLE:
        ProcessHead(port, vc);
        break;
    case Mode::DROPPING:
        DrainDrop(port, vc);
        ProcessHead(port, vc);
        break;
    case Mode::BROADCAST_WAIT:
        TryBroadcast(port, vc);
        break;
    case Mode::FORWARDING:
        if (in.fifo.GetSize() == 1)
        {
            WakeOutput(in.out, in.fifo.FrontReady()); // the output may be waiting for it
        }
        break;
    case Mode::WAITING:
    case Mode::DRAINING:
        break;
    }
}

bool
GsnSwitch::BuffersOnly(uint32_t port, uint8_t vc) const
{
    // What ReceiveMicropacket does besides buffering: nothing in these modes (with the
    // input's buffer not empty, a forwarding input wakes no output).
    const InputVc& in = m_in[port][vc];
    return in.mode == Mode::WAITING || in.mode == Mode::DRAINING ||
           (in.mode == Mode::FORWARDING && !in.fifo.IsEmpty());
}

void
GsnSwitch::ReceiveMicropacketSpan(uint32_t port,
                                  GsnMicropacket&& first,
                                  uint32_t n,
                                  uint32_t stride)
{
    NS_ASSERT(BuffersOnly(port, first.vc));
    InputVc& in = m_in[port][first.vc];
    in.fifo.PushSpan(std::move(first),
                     n,
                     m_ports[port]->GetRxArrivalTime() + m_latency,
                     true,
                     stride);
}

GsnMicropacket
GsnSwitch::PopInput(uint32_t in, uint8_t vc, const Time& at)
{
    InputVc& input = m_in[in][vc];
    bool counted;
    GsnMicropacket mp = input.fifo.Pop(counted);
    if (mp.tail)
    {
        --input.tails;
    }
    if (counted)
    {
        m_ports[in]->ReleaseInput(vc, 1, at); // its credit goes back upstream
    }
    return mp;
}

void
GsnSwitch::ProcessHead(uint32_t in, uint8_t vc)
{
    InputVc& input = m_in[in][vc];
    while (input.mode == Mode::IDLE && !input.fifo.IsEmpty())
    {
        const GsnMicropacket& head = input.fifo.Front();
        if (head.GetType() != GsnMicropacketType::HEADER)
        {
            // The rest of a Message whose start was lost in a link reset.
            ++m_drops[size_t(GsnSwitchDropReason::STRAY_DATA)];
            ++m_counters[in][vc].dropsIn;
            m_dropTrace(in, vc, Mac48Address(), GsnSwitchDropReason::STRAY_DATA);
            PopInput(in, vc, gsn::Now());
            continue;
        }
        const Mac48Address dst = GsnMessageHeader::PeekDestination(head.Data());
        input.dst = dst;
        // Group ULAs (broadcast, and the multicast ULAs of IPv6 Neighbour Discovery and IP
        // multicast) are flooded over the broadcast tree: a GSN switch has no multicast
        // tables, so a group reaches every endpoint, which keeps the groups it joined.
        if (dst.IsGroup())
        {
            if (!m_broadcastCapable)
            {
                StartDrop(in, vc, GsnSwitchDropReason::NO_BROADCAST);
                continue;
            }
            input.mode = Mode::BROADCAST_WAIT;
            TryBroadcast(in, vc);
            continue;
        }
        const int32_t out = GetRoute(dst);
        if (out < 0)
        {
            StartDrop(in, vc, GsnSwitchDropReason::UNKNOWN_ULA);
            continue;
        }
        input.mode = Mode::WAITING;
        input.out = uint32_t(out);
        input.waitingSince = gsn::Now();
        Arbitrate(uint32_t(out), vc);
    }
}

void
GsnSwitch::StartDrop(uint32_t in, uint8_t vc, GsnSwitchDropReason reason)
{
    InputVc& input = m_in[in][vc];
    const Mac48Address dst = input.dst;
    NS_LOG_LOGIC(this << " drop at port " << in << " VC " << unsigned(vc) << " for " << dst << ": "
                      << GsnSwitchDropReasonName(reason));
    ++m_drops[size_t(reason)];
    ++m_counters[in][vc].dropsIn;
    m_dropTrace(in, vc, dst, reason);
    input.mode = Mode::DROPPING;
    DrainDrop(in, vc);
}

void
GsnSwitch::DrainDrop(uint32_t in, uint8_t vc)
{
    InputVc& input = m_in[in][vc];
    while (input.mode == Mode::DROPPING && !input.fifo.IsEmpty())
    {
        if (PopInput(in, vc, gsn::Now()).tail)
        {
            input.mode = Mode::IDLE;
        }
    }
}

void
GsnSwitch::TryBroadcast(uint32_t in, uint8_t vc)
{
    InputVc& input = m_in[in][vc];
    if (input.tails == 0)
    {
        if (input.fifo.GetSize() >= m_ports[in]->GetRxBufferSize())
        {
            // The whole Message can never be held: it would block this input for ever.
            StartDrop(in, vc, GsnSwitchDropReason::BROADCAST_TOO_LONG);
        }
        return;
    }
    // Store and forward: the whole Message is here; copy it to every port of the tree.
    std::vector<GsnMicropacket> message;
    bool tail = false;
    while (!tail)
    {
        message.push_back(PopInput(in, vc, gsn::Now()));
        tail = message.back().tail;
    }
    ++m_counters[in][vc].broadcastsIn;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        // Not back where it came from, except to the originating endpoint itself: a host
        // learns from its own copy that the fabric broadcasts (RFC 2835 detection).
        const bool back = p == in;
        if ((!back && m_inTree[p]) || (back && m_neighbor[p] == NeighborType::ENDPOINT))
        {
            m_out[p][vc].replicas.push_back(message);
            Arbitrate(p, vc);
        }
    }
    input.mode = Mode::IDLE;
}

// ---------------------------------------------------------------------------------------
// Output side

void
GsnSwitch::Arbitrate(uint32_t out, uint8_t vc)
{
    OutputVc& output = m_out[out][vc];
    if (output.owner >= 0)
    {
        RegrantWithinInstant(out, vc);
        return;
    }
    const uint32_t sources = uint32_t(m_ports.size()) + 1; // every input and the replicas
    for (uint32_t k = 0; k < sources; ++k)
    {
        const uint32_t src = (output.rr + k) % sources;
        if (!AsksFor(src, out, vc))
        {
            continue;
        }
        NoteGrant(out, vc);
        output.rr = (src + 1) % sources;
        if (int32_t(src) == ReplicaOwner())
        {
            SetOwner(out, vc, ReplicaOwner());
            WakeOutput(out, gsn::Now());
            return;
        }
        SetOwner(out, vc, int32_t(src));
        InputVc& input = m_in[src][vc];
        input.mode = Mode::FORWARDING;
        m_counters[src][vc].blockedIn += gsn::Now() - input.waitingSince;
        if (input.fifo.FrontReady() <= gsn::Now())
        {
            // An idle output chooses after this instant's pending events: another input
            // asking in one of them may come first (RegrantWithinInstant()).
            m_ports[out]->KickAfterEvents();
        }
        else
        {
            WakeOutput(out, input.fifo.FrontReady());
        }
        return;
    }
}

void
GsnSwitch::NoteGrant(uint32_t out, uint8_t vc)
{
    const Time now = gsn::Now();
    if (m_grantsAt != now)
    {
        m_grantsAt = now;
        m_grantsOfInstant.clear();
    }
    // (Granted again after RegrantWithinInstant(), rr is back where the first grant started.)
    if (GrantOfInstant* grant = FindGrantOfInstant(out, vc))
    {
        grant->rrBefore = m_out[out][vc].rr;
        return;
    }
    m_grantsOfInstant.push_back({out, vc, m_out[out][vc].rr});
}

GsnSwitch::GrantOfInstant*
GsnSwitch::FindGrantOfInstant(uint32_t out, uint8_t vc)
{
    for (GrantOfInstant& grant : m_grantsOfInstant)
    {
        if (grant.out == out && grant.vc == vc)
        {
            return &grant;
        }
    }
    return nullptr;
}

bool
GsnSwitch::AsksFor(uint32_t src, uint32_t out, uint8_t vc) const
{
    if (int32_t(src) == ReplicaOwner())
    {
        return !m_out[out][vc].replicas.empty();
    }
    const InputVc& input = m_in[src][vc];
    return input.mode == Mode::WAITING && input.out == out;
}

void
GsnSwitch::RegrantWithinInstant(uint32_t out, uint8_t vc)
{
    OutputVc& output = m_out[out][vc];
    if (m_grantsAt != gsn::Now() || output.owner == ReplicaOwner())
    {
        return;
    }
    const GrantOfInstant* grant = FindGrantOfInstant(out, vc);
    const uint32_t owner = uint32_t(output.owner);
    InputVc& granted = m_in[owner][vc];
    if (!grant || granted.mode != Mode::FORWARDING ||
        granted.fifo.IsEmpty() || granted.fifo.Front().GetType() != GsnMicropacketType::HEADER)
    {
        return; // granted earlier, or its Message has begun to leave
    }
    const uint32_t sources = uint32_t(m_ports.size()) + 1;
    for (uint32_t src = grant->rrBefore; src != owner; src = (src + 1) % sources)
    {
        if (AsksFor(src, out, vc))
        {
            // Back to waiting (its blocked time so far is counted), and grant again.
            granted.mode = Mode::WAITING;
            granted.waitingSince = gsn::Now();
            output.rr = grant->rrBefore;
            SetOwner(out, vc, -1);
            Arbitrate(out, vc);
            return;
        }
    }
}

void
GsnSwitch::SetOwner(uint32_t out, uint8_t vc, int32_t owner)
{
    m_out[out][vc].owner = owner;
    m_ports[out]->SetOutputVcOwned(vc, owner >= 0); // the port asks only owned VCs
}

void
GsnSwitch::WakeOutput(uint32_t port, const Time& at)
{
    const Time now = gsn::Now();
    if (at <= now)
    {
        m_ports[port]->Kick();
        return;
    }
    EventId& e = m_wake[port];
    if (e.IsRunning() && Time(e.GetTs()) <= at)
    {
        return; // an earlier wake-up is due; the port will look again then
    }
    e.Cancel();
    e = Simulator::Schedule(at - now, &GsnSwitch::Wake, this, port);
}

void
GsnSwitch::Wake(uint32_t port)
{
    m_wake[port] = EventId(); // (lets go of the event object while it is in the cache)
    m_ports[port]->Kick();
}

bool
GsnSwitch::HasMicropacketFor(uint32_t port, uint8_t vc)
{
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0)
    {
        return false;
    }
    // The port may be choosing a later slot of a run. There it only asks, and looks again
    // when the run ends if the micropacket is not ready by then. A broadcast copy's Tail is
    // not taken ahead (a forwarded Message's is: the output VC is freed in its slot).
    const GsnSwitchPort& p = *m_ports[port];
    const Time& slot = p.GetSlotTime();
    const bool ahead = p.IsChoosingAhead();
    if (output.owner == ReplicaOwner())
    {
        return !(ahead && output.replicas.front()[output.replicaPos].tail);
    }
    const GsnMicropacketQueue* head = ForwardedHead(port, vc);
    if (!head)
    {
        return false; // the rest of the Message has not arrived yet
    }
    const Time& ready = head->FrontReady();
    if (ready > slot)
    {
        if (!ahead)
        {
            WakeOutput(port, ready);
        }
        return false;
    }
    return true;
}

inline const GsnMicropacketQueue*
GsnSwitch::ForwardedHead(uint32_t port, uint8_t vc) const
{
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0 || output.owner == ReplicaOwner())
    {
        return nullptr;
    }
    const InputVc& input = m_in[output.owner][vc];
    if (input.mode != Mode::FORWARDING || input.out != port)
    {
        return nullptr; // its Tail has been taken (DRAINING): the rest is the next Message's
    }
    return input.fifo.IsEmpty() ? nullptr : &input.fifo;
}

Time
GsnSwitch::NextReadyFor(uint32_t port, uint8_t vc) const
{
    const GsnMicropacketQueue* head = ForwardedHead(port, vc);
    return head ? head->FrontReady() : Time::Max();
}

inline void
GsnSwitch::PullForwarded(uint32_t port, uint8_t vc, uint32_t in, GsnMicropacket& mp)
{
    // (PopInput(), here at hand: this is done for every micropacket a switch forwards.)
    ++m_counters[port][vc].micropacketsOut;
    InputVc& input = m_in[in][vc];
    bool counted;
    input.fifo.Pop(mp, counted);
    const bool tail = mp.tail;
    if (tail)
    {
        --input.tails;
    }
    if (counted)
    {
        // Its credit goes back upstream; it leaves in the slot being chosen.
        m_ports[in]->ReleaseInput(vc, 1, m_ports[port]->GetSlotTime());
    }
    if (tail)
    {
        EndForwarded(port, vc, in);
    }
}

void
GsnSwitch::PullMicropacketFor(uint32_t port, uint8_t vc, GsnMicropacket& mp)
{
    OutputVc& output = m_out[port][vc];
    NS_ASSERT(output.owner >= 0);
    if (output.owner == ReplicaOwner())
    {
        ++m_counters[port][vc].micropacketsOut;
        const std::vector<GsnMicropacket>& message = output.replicas.front();
        mp = message[output.replicaPos++];
        if (mp.tail)
        {
            const Mac48Address dst = GsnMessageHeader::PeekDestination(message.front().Data());
            output.replicas.pop_front();
            output.replicaPos = 0;
            ReleaseOutput(port, vc, port, dst);
            Arbitrate(port, vc);
        }
        return;
    }
    PullForwarded(port, vc, uint32_t(output.owner), mp);
}

bool
GsnSwitch::TakeMicropacketFor(uint32_t port, uint8_t vc, GsnMicropacket& mp)
{
    // HasMicropacketFor() and PullForwarded() with one look at the output and its input:
    // this is asked for every micropacket a switch forwards.
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0)
    {
        return false;
    }
    if (output.owner == ReplicaOwner())
    {
        if (!HasMicropacketFor(port, vc))
        {
            return false;
        }
        PullMicropacketFor(port, vc, mp);
        return true;
    }
    const InputVc& input = m_in[output.owner][vc];
    if (input.mode != Mode::FORWARDING || input.out != port || input.fifo.IsEmpty())
    {
        return false;
    }
    const GsnSwitchPort& p = *m_ports[port];
    const Time ready = input.fifo.FrontReady();
    if (ready > p.GetSlotTime())
    {
        if (!p.IsChoosingAhead())
        {
            WakeOutput(port, ready);
        }
        return false;
    }
    PullForwarded(port, vc, uint32_t(output.owner), mp);
    return true;
}

uint32_t
GsnSwitch::TakeFollowingFor(uint32_t port,
                            uint8_t vc,
                            uint32_t max,
                            const Time& slot,
                            uint32_t stride,
                            GsnMicropacket& first)
{
    const OutputVc& output = m_out[port][vc];
    if (output.owner < 0 || output.owner == ReplicaOwner() || uint32_t(output.owner) == port)
    {
        return 0;
    }
    const uint32_t in = uint32_t(output.owner);
    InputVc& input = m_in[in][vc];
    if (input.mode != Mode::FORWARDING || input.out != port || input.fifo.IsEmpty() ||
        (stride == 1 ? input.fifo.FrontReady() > slot
                     : input.fifo.FrontReady() != slot || input.fifo.FrontStride() != stride))
    {
        return 0;
    }
    const uint32_t quiet = m_ports[in]->QuietInputReleases(vc, slot);
    if (quiet == 0)
    {
        return 0;
    }
    bool counted = false;
    // (Never a Tail.)
    const uint32_t n = stride == 1 ? input.fifo.PopFollowing(std::min(max, quiet), first, counted)
                                   : input.fifo.PopStrided(std::min(max, quiet), first, counted);
    m_counters[port][vc].micropacketsOut += n;
    if (n > 0 && counted)
    {
        m_ports[in]->ReleaseInputSpan(vc, n, slot, stride);
    }
    return n;
}

uint32_t
GsnSwitch::TakeWovenFor(uint32_t port,
                        const uint8_t* vcs,
                        uint32_t s,
                        uint32_t maxRounds,
                        const Time& slot,
                        GsnMicropacket* firsts)
{
    NS_ASSERT(s >= 2 && s <= gsn::NUM_VCS);
    uint32_t inputs[gsn::NUM_VCS];
    uint32_t rounds = maxRounds;
    const Time step = gsn::MicropacketTime();
    for (uint32_t i = 0; i < s && rounds > 0; ++i)
    {
        const OutputVc& output = m_out[port][vcs[i]];
        if (output.owner < 0 || output.owner == ReplicaOwner() || uint32_t(output.owner) == port)
        {
            return 0;
        }
        const uint32_t in = uint32_t(output.owner);
        inputs[i] = in;
        const InputVc& input = m_in[in][vcs[i]];
        if (input.mode != Mode::FORWARDING || input.out != port || input.fifo.IsEmpty())
        {
            return 0;
        }
        const Time first = slot + step * int64_t(i);
        rounds = std::min({rounds,
                           input.fifo.CountReadyBy(first, s),
                           m_ports[in]->QuietInputReleases(vcs[i], first)});
    }
    if (rounds == 0)
    {
        return 0;
    }
    bool counted[gsn::NUM_VCS];
    for (uint32_t i = 0; i < s; ++i)
    {
        m_in[inputs[i]][vcs[i]].fifo.PopCounted(rounds, firsts[i], counted[i]);
        m_counters[port][vcs[i]].micropacketsOut += rounds;
    }
    // Their places upstream, each input's in the order of their slots: the VCs of one input
    // in turns (its credits ride on its run in that order), inputs apart.
    bool released[gsn::NUM_VCS] = {};
    for (uint32_t i = 0; i < s; ++i)
    {
        if (released[i] || !counted[i])
        {
            continue;
        }
        uint8_t same[gsn::NUM_VCS];
        uint32_t offsets[gsn::NUM_VCS];
        uint32_t m = 0;
        for (uint32_t j = i; j < s; ++j)
        {
            if (inputs[j] == inputs[i] && counted[j])
            {
                same[m] = vcs[j];
                offsets[m++] = j;
                released[j] = true;
            }
        }
        if (m == 1)
        {
            m_ports[inputs[i]]->ReleaseInputSpan(vcs[i], rounds, slot + step * int64_t(i), s);
        }
        else
        {
            m_ports[inputs[i]]->ReleaseInputWoven(same, offsets, m, rounds, slot, s);
        }
    }
    return rounds;
}

void
GsnSwitch::EndForwarded(uint32_t port, uint8_t vc, uint32_t in)
{
    m_in[in][vc].mode = Mode::DRAINING; // the Message is out of the input
    const GsnSwitchPort& p = *m_ports[port];
    const Time now = gsn::Now();
    if (p.IsChoosingAhead() && p.GetSlotTime() > now)
    {
        // Taken for a later slot of a run: the Message ends in that slot, and what its end
        // allows (the input's next Message, the next grant of this output VC) happens then,
        // as micropacket by micropacket. Until then the output VC stays held.
        Simulator::Schedule(p.GetSlotTime() - now,
                            &GsnSwitch::FinishMessage,
                            this,
                            port,
                            vc,
                            in,
                            m_in[in][vc].dst);
        return;
    }
    FinishMessage(port, vc, in, m_in[in][vc].dst);
}

void
GsnSwitch::ReleaseOutput(uint32_t out, uint8_t vc, uint32_t from, Mac48Address dst)
{
    ++m_counters[out][vc].messagesOut;
    m_forwardTrace(from, out, vc, dst);
    SetOwner(out, vc, -1);
}

void
GsnSwitch::FinishMessage(uint32_t out, uint8_t vc, uint32_t in, Mac48Address dst)
{
    ReleaseOutput(out, vc, in, dst);
    InputVc& input = m_in[in][vc];
    if (input.mode == Mode::DRAINING) // (a reset of the input may have restarted it already)
    {
        input.mode = Mode::IDLE;
        ProcessHead(in, vc); // the input's next Message asks for its output
    }
    Arbitrate(out, vc); // and this output goes to the next waiting input
}

void
GsnSwitch::NotifyPortReset(uint32_t port)
{
    if (port >= m_in.size())
    {
        return;
    }
    // The port's link layer has forgotten its buffer; the micropackets in it are gone.
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        InputVc& input = m_in[port][vc];
        // Messages whose Header is still buffered here (waiting for their output, or queued
        // behind the one forwarded) are gone without anyone downstream knowing: count them.
        input.fifo.ForEachHeader([this, port, vc](const GsnMicropacket& mp) {
            const Mac48Address dst = GsnMessageHeader::PeekDestination(mp.Data());
            ++m_drops[size_t(GsnSwitchDropReason::CUT_BY_RESET)];
            ++m_counters[port][vc].dropsIn;
            m_dropTrace(port, vc, dst, GsnSwitchDropReason::CUT_BY_RESET);
        });
        input.fifo.Clear();
        input.tails = 0;
        if (input.mode == Mode::FORWARDING)
        {
            // Close the Message downstream with an error Tail, so nothing waits for ever.
            GsnMicropacket tail;
            tail.type = uint8_t(GsnMicropacketType::DATA);
            tail.vc = vc;
            tail.tail = true;
            tail.error = true;
            input.fifo.Push(std::move(tail), gsn::Now(), false);
            input.tails = 1;
            WakeOutput(input.out, gsn::Now());
        }
        else
        {
            input.mode = Mode::IDLE;
        }
    }
}

} // namespace ns3
