/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Link bring-up and reset: the port does what GsnLinkBringUp says at each step of the
// Reset/Initialize handshake, and clears its link state. (GsnPortDevice is written in several
// files, one per part of the link layer; see gsn-port-device.cc for the list.)
#include "gsn-channel.h"
#include "gsn-now.h"
#include "gsn-port-device-private.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_PORT_DEVICE_LOG();

void
GsnPortDevice::ClearLinkState()
{
    ++m_clears;
    if (m_state == LinkState::UP)
    {
        TakeResetSnapshot(); // the first clearing of a reset
    }
    m_txCredits.fill(0);
    m_slotStartCredits.fill(0); // (credits of the old link state, kept for a slot's choice)
    m_slotStartCreditsAny = false;
    m_stalled.fill(false);
    m_retx.clear();
    m_ackedAhead = 0;
    m_ackedCreditsUpTo = 0;
    m_resendIndex = 0;
    m_nextTseq = 0;
    m_timeoutsWithoutProgress = 0;
    m_expectedTseq = 0;
    m_rseqSent = 0xFF; // (nothing accepted)
    m_rxUnacked = 0;
    m_ackDue = false;
    m_creditDue = false;
    m_rxGranted = false;
    m_rxOccupancy.fill(0);
    m_owedCredits.fill(0);
    m_owedTotal = 0;
    ClearKeptForLater();
}

void
GsnPortDevice::ClearKeptForLater()
{
    m_laterReleases.clear();
    m_laterCredits.clear();
    m_laterAcks.clear();
    m_laterArrivals.clear();
}

// At a reset of a link that was up: keep what the comparison with the peer needs, and compare once
// both ends have theirs (the accepted TSEQs are final then: each end drops what arrives after its
// own reset).
void
GsnPortDevice::TakeResetSnapshot()
{
    ReleaseAckedThatLeft(true); // (acknowledged: nothing to recover)
    ResetSnapshot& snap = m_resetSnapshot;
    snap.taken = true;
    snap.lastAccepted = uint8_t(m_expectedTseq - 1);
    snap.firstUnacked = m_retx.empty() ? m_nextTseq : m_retx.FrontTseq();
    snap.unacked = uint32_t(m_retx.size());
    snap.headers.clear();
    for (uint32_t i = 0; i < m_retx.size(); ++i)
    {
        const GsnMicropacket mp = m_retx.Get(i);
        if (mp.GetType() == GsnMicropacketType::HEADER)
        {
            snap.headers.emplace_back(i, mp, IsMessageBeingSent(mp));
        }
    }
    Ptr<GsnPortDevice> peer = m_channel ? m_channel->GetPeer(this) : nullptr;
    if (!peer || !peer->m_resetSnapshot.taken)
    {
        return; // the peer compares when it resets
    }
    CountLostInReset(*this, snap, peer->m_resetSnapshot.lastAccepted);
    CountLostInReset(*peer, peer->m_resetSnapshot, snap.lastAccepted);
    snap = ResetSnapshot();
    peer->m_resetSnapshot = ResetSnapshot();
}

// Count the Messages of sent whose Header the end that accepted up to peerLastAccepted did not get;
// sender is the port that sent them.
void
GsnPortDevice::CountLostInReset(GsnPortDevice& sender,
                                const ResetSnapshot& sent,
                                uint8_t peerLastAccepted)
{
    // As an RSEQ: the peer accepted the oldest `accepted` of the unacknowledged ones.
    uint32_t accepted = uint8_t(peerLastAccepted - sent.firstUnacked + 1);
    if (accepted > sent.unacked)
    {
        accepted = 0; // it accepted none of them
    }
    for (const auto& [index, header, beingSent] : sent.headers)
    {
        if (index < accepted)
        {
            continue; // the receiver has the Message, or counts it cut
        }
        ++sender.m_counters.messagesLostInReset;
        if (!beingSent)
        {
            sender.NotifyMessageLostInReset(header);
        }
    }
}

void
GsnPortDevice::ResetLink()
{
    NS_LOG_FUNCTION(this);
    ++m_counters.linkResets;
    BringUp(GsnLinkBringUp::Event::START);
}

void
GsnPortDevice::HandshakeTimeout()
{
    const gsn::TimerEventCount counted(m_counters);
    BringUp(GsnLinkBringUp::Event::TIMEOUT);
}

// Do what the handshake says for event (GsnLinkBringUp::Next()), in the order of its Step. number:
// the handshake number the micropacket of the event carries (its TSEQ).
void
GsnPortDevice::BringUp(GsnLinkBringUp::Event event, uint8_t number)
{
    const GsnLinkBringUp::Step step =
        GsnLinkBringUp::Next(m_state, event, number == m_handshakeNumber);
    if (step.clear)
    {
        ClearLinkState();
    }
    if (step.notifyReset)
    {
        NotifyLinkReset();
    }
    if (step.grantBuffers && !m_rxGranted)
    {
        // Grant the whole free receive buffer of every VC, all of it at once (the remainders
        // below CreditReturnThreshold too).
        m_rxGranted = true;
        for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
        {
            m_owedTotal -= m_owedCredits[vc];
            m_owedCredits[vc] = m_rxBufferSize - m_rxOccupancy[vc];
            m_owedTotal += m_owedCredits[vc];
        }
        m_creditDue = true;
    }
    if (step.reply)
    {
        SendControl(step.replyType, number); // (it acknowledges that request)
    }
    if (step.stopTimer)
    {
        m_handshakeEvent.Cancel();
    }
    if (step.changeState)
    {
        SetLinkState(step.next);
    }
    if (step.request)
    {
        if (step.renumber)
        {
            ++m_handshakeNumber;
        }
        SendControl(step.requestType, m_handshakeNumber);
    }
    if (step.restartTimer)
    {
        m_handshakeEvent.Cancel();
        m_handshakeEvent =
            Simulator::Schedule(GetRetransmitTimeout(), &GsnPortDevice::HandshakeTimeout, this);
    }
    if (step.transmit)
    {
        NotifyTxReady();
    }
}

void
GsnPortDevice::SetLinkState(LinkState state)
{
    const bool wasUp = m_state == LinkState::UP;
    m_state = state;
    if (wasUp != (state == LinkState::UP))
    {
        m_linkChangeCallbacks();
        if (state == LinkState::UP)
        {
            // A reset snapshot not compared by now never will be (the peer was not up).
            m_resetSnapshot = ResetSnapshot();
            NotifyLinkUp();
        }
    }
}

} // namespace ns3
