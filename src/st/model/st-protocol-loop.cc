/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The adapter loop: after every call into the engine its operations are sent and its
// events delivered (Flush), its one timer re-armed; frames received are handed in with the
// simulation time; operations go to their device (a GSN VC's queue or the device's),
// waiting in a backlog while the queue is full; what goes in and out is traced.
// (StProtocol is written in several files, one per part of the adapter; see
// st-protocol.cc for the list.)
#include "st-bypass-api.h"
#include "st-protocol-private.h"
#include "st-simulator-driver.h"

#include "ns3/csma-net-device.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-process-tag.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/simulator.h"

namespace ns3
{

ST_PROTOCOL_LOG();

namespace
{
/// The verdict Receive counted: the one whose counter moved.
st::StRxVerdict
VerdictOf(const st::StCounters& before, const st::StCounters& after)
{
    for (uint8_t v = 0; v < static_cast<uint8_t>(st::StRxVerdict::Count); ++v)
    {
        const auto verdict = static_cast<st::StRxVerdict>(v);
        if (after.Get(verdict) != before.Get(verdict))
        {
            return verdict;
        }
    }
    return st::StRxVerdict::Accepted;
}
} // namespace

void
StProtocol::Flush()
{
    if (m_flushing)
    {
        m_flushAgain = true;
        return;
    }
    st::StBypassStack& stack = GetStack();
    m_flushing = true;
    do
    {
        m_flushAgain = false;
        stack.Flush();
    } while (m_flushAgain);
    m_flushing = false;

    const uint64_t stalls = GetCounters().Get(st::StStat::SlotStalls);
    for (; m_lastSlotStalls < stalls; ++m_lastSlotStalls)
    {
        m_slotStallTrace(m_lastSlotStalls + 1);
    }
    ArmTimer();
    m_driver->NotifyProgress();
    if (m_bypass)
    {
        m_bypass->CheckPending();
    }
}

void
StProtocol::Kick()
{
    m_kickPending = false;
    Flush();
}

void
StProtocol::ArmTimer()
{
    const uint64_t next = GetEndpoint().PollTimeout();
    if (next == m_timerAt && m_timer.IsRunning())
    {
        return;
    }
    Simulator::Cancel(m_timer);
    m_timerAt = next;
    if (next == st::ST_NEVER)
    {
        return;
    }
    const uint64_t now = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    m_timer =
        Simulator::Schedule(NanoSeconds(next > now ? next - now : 0), &StProtocol::OnTimer, this);
}

void
StProtocol::OnTimer()
{
    m_timerAt = st::ST_NEVER;
    m_inTimer = true;
    GetEndpoint().HandleTimeout(static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()));
    Flush();
    m_inTimer = false;
}

void
StProtocol::Receive(Ptr<NetDevice> device,
                    Ptr<const Packet> packet,
                    uint16_t /* protocol */,
                    const Address& from,
                    const Address& /* to */,
                    NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << device << packet << from << packetType);
    if (packetType == NetDevice::PACKET_OTHERHOST)
    {
        ++m_adapter.rxOtherHost;
        return;
    }
    const uint32_t len = packet->GetSize();
    std::vector<uint8_t> bytes(len);
    packet->CopyData(bytes.data(), len);
    const st::StPeerAddress peer = MakePeer(device->GetIfIndex(), from);
    m_peerMac[peer] = from;
    ++m_adapter.rxFrames;

    st::StEndpoint& ep = GetEndpoint();
    const st::StCounters before = ep.GetCounters();
    ep.Receive(static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()), peer, bytes.data(), len);
    TraceRx(peer, bytes.data(), len, packet, before);
    Flush();
}

void
StProtocol::TraceRx(st::StPeerAddress peer,
                    const uint8_t* data,
                    uint32_t len,
                    Ptr<const Packet> p,
                    const st::StCounters& before)
{
    const st::StRxVerdict v = VerdictOf(before, GetEndpoint().GetCounters());
    st::StHeader h;
    const bool decoded = st::StHeader::Decode(data, len, h) == st::StDecodeStatus::Ok;
    if (decoded)
    {
        m_rxOpTrace(h, len);
    }
    if (v != st::StRxVerdict::Accepted)
    {
        NS_LOG_LOGIC("dropped: " << st::StRxVerdictName(v) << " "
                                 << (decoded ? h.ToString() : std::string("(undecodable)")));
        m_rxDropTrace(p, v);
        return;
    }
    if (decoded && h.op == st::StOp::Cts)
    {
        // A CTS names the source's id at @32 (I_id) and the destination's at @36 (R_id).
        const XferKey ours{peer, h.dPort, h.dId};
        auto it = m_lastXferOp.find(ours);
        if (it != m_lastXferOp.end())
        {
            m_ctsWaitTrace(Simulator::Now() - it->second);
            it->second = Simulator::Now();
        }
        m_peerIdToOurs[XferKey{peer, h.dPort, h.sId}] = h.dId;
    }
    else if (decoded && (h.op == st::StOp::Rsr || h.op == st::StOp::End || h.op == st::StOp::Ra) &&
             m_lastXferOp.size() > 4096)
    {
        // Bounded bookkeeping: forget the oldest half (keys grow with ids).
        auto half = std::next(m_lastXferOp.begin(), m_lastXferOp.size() / 2);
        m_lastXferOp.erase(m_lastXferOp.begin(), half);
        m_peerIdToOurs.clear();
    }
}

void
StProtocol::TraceTx(const st::StTransmit& t)
{
    st::StHeader h;
    if (st::StHeader::Decode(t.bytes.data(), t.bytes.size(), h) != st::StDecodeStatus::Ok)
    {
        return;
    }
    const uint32_t len = static_cast<uint32_t>(t.bytes.size() + t.virtualBytes);
    m_txOpTrace(h, len);
    if (m_inTimer)
    {
        m_retryTrace(h, len);
    }
    if (h.op == st::StOp::Rts)
    {
        // The source's id is at @36 of its RTS, for a write and for a read alike.
        m_lastXferOp[XferKey{t.peer, h.sPort, h.sId}] = Simulator::Now();
    }
    else if (h.op == st::StOp::Data)
    {
        auto ours = m_peerIdToOurs.find(XferKey{t.peer, h.sPort, h.dId});
        if (ours != m_peerIdToOurs.end())
        {
            m_lastXferOp[XferKey{t.peer, h.sPort, ours->second}] = Simulator::Now();
        }
    }
}

void
StProtocol::SendOnWire(const st::StTransmit& t)
{
    if (!m_flushing && !m_kickPending)
    {
        // Sent by a direct Bypass call (st_tx): re-arm the timer and complete waiting calls.
        m_kickPending = true;
        Simulator::ScheduleNow(&StProtocol::Kick, this);
    }
    auto mac = m_peerMac.find(t.peer);
    Ptr<NetDevice> dev = FindDevice(static_cast<uint32_t>(t.peer >> 48));
    if (mac == m_peerMac.end() || !dev)
    {
        ++m_adapter.txNoRoute;
        NS_LOG_WARN("no device/MAC for peer " << t.peer);
        return;
    }
    TraceTx(t);
    Ptr<Packet> p = Create<Packet>(t.bytes.data(), static_cast<uint32_t>(t.bytes.size()));
    if (t.virtualBytes > 0)
    {
        // Data of memory without bytes: zeros that take no memory (a packet's zero area).
        p->AddAtEnd(Create<Packet>(static_cast<uint32_t>(t.virtualBytes)));
    }
    Ptr<GsnNetDevice> gsnDevice = DynamicCast<GsnNetDevice>(dev);
    const bool gsn = gsnDevice != nullptr;
    if (gsn)
    {
        p->AddPacketTag(GsnVcTag(t.vc)); // ST data channel n on GSN VC n
        if (Ptr<GsnHostAdapter> host = gsnDevice->GetHostAdapter())
        {
            // The endpoint is one process of the host: its own OS-bypass command queue.
            uint16_t& process = m_hostProcess[dev->GetIfIndex()];
            if (process == 0 || !host->IsRegistered(process))
            {
                process = host->RegisterProcess();
            }
            // The command holds the ST header; only the payload is read from memory.
            p->AddPacketTag(GsnProcessTag(process, uint16_t(st::ST_HEADER_SIZE)));
        }
    }
    // Each GSN VC has its own queue; other devices one. Order is kept per queue.
    const auto key = std::make_pair(dev->GetIfIndex(), gsn ? t.vc : uint8_t(0));
    auto& backlog = m_backlog[key];
    if (!backlog.empty() || !HasRoom(dev, t.vc, p->GetSize()))
    {
        backlog.push_back(Backlogged{p, mac->second});
        ++m_adapter.txBacklogged;
        HookDrain(dev);
        return;
    }
    Transmit(dev, p, mac->second);
}

bool
StProtocol::HasRoom(Ptr<NetDevice> dev, uint8_t vc, uint32_t bytes) const
{
    Ptr<Queue<Packet>> q;
    if (Ptr<GsnNetDevice> g = DynamicCast<GsnNetDevice>(dev))
    {
        q = g->GetTxQueue(vc);
    }
    else if (Ptr<CsmaNetDevice> c = DynamicCast<CsmaNetDevice>(dev))
    {
        q = c->GetQueue();
    }
    // Room for the frame with its link headers (GSN 24 bytes, Ethernet 18: 32 is enough).
    return !q || !q->WouldOverflow(1, bytes + 32);
}

void
StProtocol::HookDrain(Ptr<NetDevice> dev)
{
    const uint32_t ifIndex = dev->GetIfIndex();
    auto it = m_drainHooked.find(ifIndex);
    if (it == m_drainHooked.end())
    {
        // A frame leaving the queue makes room: GSN, CSMA and point-to-point devices all
        // fire PhyTxBegin when they take the next frame from their queue.
        Callback<void, Ptr<const Packet>> cb([this, ifIndex](Ptr<const Packet>) {
            if (!m_drainEvent[ifIndex].IsRunning())
            {
                m_drainEvent[ifIndex] = Simulator::ScheduleNow(&StProtocol::Drain, this, ifIndex);
            }
        });
        const bool hooked = dev->TraceConnectWithoutContext("PhyTxBegin", cb);
        if (hooked)
        {
            m_drainCb[ifIndex] = cb;
        }
        it = m_drainHooked.emplace(ifIndex, hooked).first;
    }
    if (!it->second && !m_drainEvent[ifIndex].IsRunning())
    {
        // No trace to wait for: look again a little later.
        m_drainEvent[ifIndex] =
            Simulator::Schedule(MicroSeconds(1), &StProtocol::Drain, this, ifIndex);
    }
}

void
StProtocol::Drain(uint32_t ifIndex)
{
    Ptr<NetDevice> dev = FindDevice(ifIndex);
    if (!dev)
    {
        return;
    }
    bool left = false;
    for (auto& [key, backlog] : m_backlog)
    {
        if (key.first != ifIndex)
        {
            continue;
        }
        while (!backlog.empty() && HasRoom(dev, key.second, backlog.front().packet->GetSize()))
        {
            Backlogged b = backlog.front();
            backlog.pop_front();
            Transmit(dev, b.packet, b.mac);
        }
        left = left || !backlog.empty();
    }
    if (left)
    {
        HookDrain(dev);
    }
}

void
StProtocol::Transmit(Ptr<NetDevice> dev, Ptr<Packet> p, const Address& mac)
{
    bool ok = false;
    Ptr<CsmaNetDevice> csma = DynamicCast<CsmaNetDevice>(dev);
    uint8_t first = 0;
    p->CopyData(&first, 1);
    if (csma && m_llcShortData && p->GetSize() < ETHERNET_MIN_PAYLOAD &&
        static_cast<st::StOp>(first >> 3) == st::StOp::Data)
    {
        // DATA has no length field: an 802.3 length delimits it exactly, so the receiver's
        // device strips the padding (LLC/SNAP carries type 0x8181, as on GSN).
        const CsmaNetDevice::EncapsulationMode mode = csma->GetEncapsulationMode();
        csma->SetEncapsulationMode(CsmaNetDevice::LLC);
        ok = csma->Send(p, mac, PROT_NUMBER);
        csma->SetEncapsulationMode(mode);
        ++m_adapter.txLlcFramed;
    }
    else
    {
        ok = dev->Send(p, mac, PROT_NUMBER);
    }
    if (ok)
    {
        ++m_adapter.txFrames;
    }
    else
    {
        ++m_adapter.txRefused;
        NS_LOG_WARN("device refused an ST operation of " << p->GetSize() << " bytes");
    }
}

} // namespace ns3
