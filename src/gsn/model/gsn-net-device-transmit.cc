/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The send path: send interceptors, the VC of each packet, the checks a packet must pass,
// LLC/SNAP and addressing, the per-VC queues, the segmentation of Messages into the
// micropackets the port asks for, and the Messages a link reset cuts.
// (GsnNetDevice is written in several files, one per role; see gsn-net-device.cc for the
// list.)
#include "gsn-message-header.h"
#include "gsn-net-device-private.h"
#include "gsn-process-tag.h"
#include "gsn-vc-tag.h"

#include "ns3/llc-snap-header.h"

#include <algorithm>

namespace ns3
{

GSN_NET_DEVICE_LOG();

uint8_t
GsnNetDevice::SelectVc(Ptr<const Packet> packet, uint16_t protocolNumber) const
{
    GsnVcTag tag;
    if (packet->PeekPacketTag(tag))
    {
        return tag.GetVc() < gsn::NUM_VCS ? tag.GetVc() : uint8_t(gsn::NUM_VCS);
    }
    switch (protocolNumber)
    {
    case gsn::ETHERTYPE_IPV4:
        return m_ipVc;
    case gsn::ETHERTYPE_ARP:
        return m_arpVc;
    case gsn::ETHERTYPE_ST:
        return m_stVc;
    default:
        return m_defaultVc;
    }
}

bool
GsnNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, GetAddress(), dest, protocolNumber);
}

void
GsnNetDevice::SetSendInterceptor(uint16_t protocolNumber, SendInterceptor interceptor)
{
    if (interceptor.IsNull())
    {
        m_interceptors.erase(protocolNumber);
    }
    else
    {
        m_interceptors[protocolNumber] = interceptor;
    }
}

bool
GsnNetDevice::SendToWire(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return DoSend(packet, GetAddress(), dest, protocolNumber);
}

bool
GsnNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    auto it = m_interceptors.find(protocolNumber);
    if (it != m_interceptors.end())
    {
        return it->second(packet, dest, protocolNumber);
    }
    return DoSend(packet, source, dest, protocolNumber);
}

bool
GsnNetDevice::DoSend(Ptr<Packet> packet,
                     const Address& source,
                     const Address& dest,
                     uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    const uint8_t vc = SelectVc(packet, protocolNumber);
    if (vc >= gsn::NUM_VCS)
    {
        NS_LOG_WARN(this << " refused: GsnVcTag names no VC 0-3");
        ++m_msgCounters.txRefusedBadVc;
        m_macTxDropTrace(packet);
        return false;
    }
    const uint64_t mlen = MessageLength(packet->GetSize());
    if (!CarriesOnVc(packet->GetSize(), vc))
    {
        NS_LOG_WARN(this << " refused: a Message of " << mlen << " bytes (M_len) exceeds the "
                         << GetMaxMessageBytes(vc) << " bytes VC " << unsigned(vc)
                         << " allows (EBADVC)");
        ++m_msgCounters.txRefusedTooLong;
        m_macTxDropTrace(packet);
        return false;
    }
    if (packet->GetSize() > GetMtu() && IsBoundByMtu(protocolNumber))
    {
        NS_LOG_WARN(this << " refused: a " << packet->GetSize() << "-byte packet of EtherType 0x"
                         << std::hex << protocolNumber << std::dec << " exceeds the MTU of "
                         << GetMtu() << " bytes");
        ++m_msgCounters.txRefusedOverMtu;
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);

    Ptr<Packet> message = packet->Copy();
    LlcSnapHeader llc;
    llc.SetType(protocolNumber);
    message->AddHeader(llc);
    GsnMessageHeader addressing;
    addressing.SetMessageLength(uint32_t(mlen));
    addressing.SetDestination(Mac48Address::ConvertFrom(dest));
    addressing.SetSource(Mac48Address::ConvertFrom(source));
    message->AddHeader(addressing);

    if (!m_txQueue[vc]->Enqueue(message))
    {
        NS_LOG_WARN(this << " refused: VC " << unsigned(vc) << " transmit queue full");
        ++m_msgCounters.txQueueDrops;
        m_macTxDropTrace(packet);
        return false;
    }
    if (m_hostAdapter)
    {
        // The adapter writes the addressing and LLC/SNAP from the descriptor, and what an
        // OS-bypass command holds; its DMA reads the rest from host memory.
        uint16_t process = 0;
        uint32_t inlineBytes = gsn::MESSAGE_ADDRESS_BYTES + gsn::LLC_SNAP_BYTES;
        if (GsnHostAdapter::PathOf(protocolNumber) == GsnHostAdapter::BYPASS)
        {
            GsnProcessTag tag;
            if (packet->PeekPacketTag(tag))
            {
                process = tag.GetProcess();
                inlineBytes += tag.GetInlineBytes();
            }
            else
            {
                process = m_hostAdapter->GetDefaultProcess();
            }
        }
        m_hostAdapter->EnqueueTx(vc, message->GetSize(), protocolNumber, process, inlineBytes);
    }
    SetMessageVcHint(vc, true);
    NotifyTxReady();
    return true;
}

bool
GsnNetDevice::IsBoundByMtu(uint16_t protocolNumber)
{
    // The MTU is what network layers are told (RFC 2835's IP MTU); ST and other Message
    // users hand GSN Messages up to their VC's limit (ST over GSN has no STU bound).
    return protocolNumber == gsn::ETHERTYPE_IPV4 || protocolNumber == gsn::ETHERTYPE_ARP ||
           protocolNumber == gsn::ETHERTYPE_IPV6;
}

bool
GsnNetDevice::HasMessageMicropacket(uint8_t vc) const
{
    if (!m_hostAdapter)
    {
        return m_segmenter[vc].IsActive() || !m_txQueue[vc]->IsEmpty();
    }
    // The adapter may not have read the next micropacket from host memory yet.
    if (m_segmenter[vc].IsActive())
    {
        return m_hostAdapter->IsNextReady(vc, m_segmenter[vc].GetNext(), GetSlotTime());
    }
    return !m_txQueue[vc]->IsEmpty() && m_hostAdapter->IsHeadReady(vc, GetSlotTime());
}

Time
GsnNetDevice::NextMessageMicropacketTime(uint8_t vc) const
{
    if (!m_hostAdapter)
    {
        return Time::Max();
    }
    return m_hostAdapter->NextReadyTime(vc,
                                        m_segmenter[vc].IsActive() ? m_segmenter[vc].GetNext()
                                                                   : UINT32_MAX);
}

void
GsnNetDevice::PullMessageMicropacket(uint8_t vc, GsnMicropacket& mp)
{
    GsnMessageSegmenter& seg = m_segmenter[vc];
    if (!seg.IsActive())
    {
        Ptr<Packet> message = m_txQueue[vc]->Dequeue();
        NS_ASSERT(message);
        if (m_hostAdapter)
        {
            m_hostAdapter->StartSending(vc);
        }
        seg.Start(message, vc);
        ++m_msgCounters.txMessages;
        m_phyTxBeginTrace(message);
        m_snifferTrace(message);
        m_promiscSnifferTrace(message);
        m_snifferVcTrace(message, vc, false);
        m_promiscSnifferVcTrace(message, vc, false);
    }
    seg.Next(mp);
    if (!seg.IsActive())
    {
        m_phyTxEndTrace(seg.GetMessage());
        // Nothing more on this VC until Send queues a Message: the port stops asking.
        SetMessageVcHint(vc, !m_txQueue[vc]->IsEmpty());
    }
}

uint32_t
GsnNetDevice::TakeFollowingMessageMicropackets(uint8_t vc,
                                               uint32_t max,
                                               const Time& slot,
                                               uint32_t stride,
                                               GsnMicropacket& first)
{
    if (stride != 1)
    {
        return 0; // (the host's micropackets are ready from a time on, not one every few slots)
    }
    // PullMessageMicropacket() does nothing but segment for the micropackets before the
    // Tail: those the host has ready (all, without an adapter) may be taken at once.
    if (m_hostAdapter)
    {
        max = std::min(max, m_hostAdapter->ReadyFrom(vc, m_segmenter[vc].GetNext(), slot));
        if (max == 0)
        {
            return 0;
        }
    }
    return m_segmenter[vc].NextData(max, first);
}

uint32_t
GsnNetDevice::TakeWovenMessageMicropackets(const uint8_t* vcs,
                                           uint32_t s,
                                           uint32_t maxRounds,
                                           const Time& slot,
                                           GsnMicropacket* firsts)
{
    // As TakeFollowingMessageMicropackets() for each VC, the same number of each: VC vcs[i]'s
    // are in the adapter by their slots if they are by its first's, slot + i.
    uint32_t rounds = maxRounds;
    for (uint32_t i = 0; i < s && rounds > 0; ++i)
    {
        const GsnMessageSegmenter& seg = m_segmenter[vcs[i]];
        if (!seg.IsActive() || seg.GetNext() == 0)
        {
            return 0; // (the Header comes next)
        }
        rounds = std::min(rounds, seg.GetRemaining() - 1); // (not the Tail)
        if (m_hostAdapter && rounds > 0)
        {
            rounds = std::min(rounds,
                              m_hostAdapter->ReadyFrom(vcs[i],
                                                       seg.GetNext(),
                                                       slot + gsn::MicropacketTime() * int64_t(i)));
        }
    }
    for (uint32_t i = 0; i < s && rounds > 0; ++i)
    {
        m_segmenter[vcs[i]].NextData(rounds, firsts[i]);
    }
    return rounds;
}

void
GsnNetDevice::NotifyLinkReset()
{
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (m_segmenter[vc].IsActive())
        {
            ++m_msgCounters.txLostInReset;
            m_macTxDropTrace(m_segmenter[vc].GetMessage());
            m_segmenter[vc].Abort();
            if (m_hostAdapter)
            {
                m_hostAdapter->AbortSending(vc);
            }
        }
        if (m_assembler[vc].Reset())
        {
            DropMessage(nullptr, GsnRxDropReason::TRUNCATED);
        }
    }
}

bool
GsnNetDevice::IsMessageBeingSent(const GsnMicropacket& header) const
{
    const GsnMessageSegmenter& segmenter = m_segmenter[header.vc % gsn::NUM_VCS];
    return segmenter.IsActive() && header.GetOrigin() &&
           header.GetOrigin() == segmenter.GetMessage();
}

void
GsnNetDevice::NotifyMessageLostInReset(const GsnMicropacket& header)
{
    // Its micropackets had all left, none had been accepted: it is cut as one being sent is.
    ++m_msgCounters.txLostInReset;
    if (Ptr<const Packet> message = header.GetOrigin())
    {
        m_macTxDropTrace(message);
    }
}

} // namespace ns3
