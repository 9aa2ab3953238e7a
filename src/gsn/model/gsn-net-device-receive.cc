/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The receive path: micropackets taken from the port (one by one or in spans), reassembly
// of Messages, their checks and drops, and the hand-up (through the host adapter, a
// receive interceptor or the NetDevice callbacks).
// (GsnNetDevice is written in several files, one per role; see gsn-net-device.cc for the
// list.)
#include "gsn-message-header.h"
#include "gsn-net-device-private.h"
#include "gsn-vc-tag.h"

#include <algorithm>

namespace ns3
{

GSN_NET_DEVICE_LOG();

namespace
{
/// The six fixed bytes of an LLC/SNAP header with OUI 0 (RFC 2835 4.1).
const uint8_t LLC_SNAP_PREFIX[6] = {0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00};
} // namespace

void
GsnNetDevice::SetReceiveInterceptor(uint16_t protocolNumber, ReceiveInterceptor interceptor)
{
    if (interceptor.IsNull())
    {
        m_receiveInterceptors.erase(protocolNumber);
    }
    else
    {
        m_receiveInterceptors[protocolNumber] = interceptor;
    }
}

void
GsnNetDevice::ReceiveMessageMicropacket(GsnMicropacket&& mp)
{
    // The host drains the buffer at link rate: the place is free when the micropacket has
    // arrived (later than now for one of a run taken ahead).
    ReleaseRxBuffer(mp.vc, 1, GetRxArrivalTime());
    Reassemble(mp);
}

bool
GsnNetDevice::TakesMessageSpan(uint8_t /* vc */) const
{
    return true; // (ReceiveMessageSpan takes any span as the micropackets one by one)
}

void
GsnNetDevice::ReceiveMessageSpan(GsnMicropacket&& first, uint32_t n, uint32_t stride)
{
    // As ReceiveMessageMicropacket() for each: the places are freed stride slots apart as
    // they arrive, and the data goes to the Message being reassembled (freeing a place does
    // nothing the reassembly sees).
    const uint8_t vc = first.vc;
    ReleaseRxBufferSpan(vc, n, GetRxArrivalTime(), stride);
    if (m_assembler[vc].PushSpan(first, n))
    {
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        Reassemble(first);
        first.AdvanceChunk();
    }
}

void
GsnNetDevice::Reassemble(const GsnMicropacket& mp)
{
    GsnMessageAssembler& assembler = m_assembler[mp.vc];
    assembler.SetMaxMessageLength(GetMaxMessageBytes(mp.vc));
    if (m_hostAdapter && mp.type == uint8_t(GsnMicropacketType::HEADER))
    {
        m_rxHeaderAt[mp.vc] = GetRxArrivalTime(); // the adapter starts on it as it comes
    }
    const GsnMessageAssembler::Result result = assembler.Push(mp);
    if (assembler.TakeDisplaced())
    {
        DropMessage(nullptr, GsnRxDropReason::HEADER_IN_MESSAGE);
    }
    if (result == GsnMessageAssembler::Result::DROPPED)
    {
        DropMessage(nullptr, assembler.GetDropReason());
    }
    else if (result == GsnMessageAssembler::Result::COMPLETE)
    {
        DeliverMessage(assembler.TakeMessage(), mp.vc);
    }
}

void
GsnNetDevice::DropMessage(Ptr<const Packet> message, GsnRxDropReason reason)
{
    NS_LOG_LOGIC(this << " Message dropped: " << GsnRxDropReasonName(reason));
    ++m_msgCounters.rxDrops[size_t(reason)];
    // Drops found during reassembly have no complete Message: listeners get an empty one.
    m_macRxDropTrace(message ? message : Ptr<const Packet>(Create<Packet>()), reason);
}

void
GsnNetDevice::DeliverMessage(Ptr<Packet> message, uint8_t vc)
{
    m_phyRxEndTrace(message);
    // The Message was rebuilt from wire bytes: read the addressing and LLC/SNAP from them,
    // and hand up a fragment holding just the payload.
    const uint32_t front = gsn::MESSAGE_ADDRESS_BYTES + gsn::LLC_SNAP_BYTES;
    uint8_t head[gsn::MESSAGE_ADDRESS_BYTES + gsn::LLC_SNAP_BYTES];
    message->CopyData(head, front);
    GsnMessageHeader addressing;
    {
        Buffer buffer;
        buffer.AddAtStart(gsn::MESSAGE_ADDRESS_BYTES);
        buffer.Begin().Write(head, gsn::MESSAGE_ADDRESS_BYTES);
        addressing.Deserialize(buffer.Begin());
    }
    const uint8_t* llcBytes = head + gsn::MESSAGE_ADDRESS_BYTES;
    if (!std::equal(std::begin(LLC_SNAP_PREFIX), std::end(LLC_SNAP_PREFIX), llcBytes))
    {
        DropMessage(message, GsnRxDropReason::BAD_LLC_SNAP);
        return;
    }
    const uint16_t protocol = uint16_t(llcBytes[6] << 8 | llcBytes[7]);
    Ptr<Packet> packet = message->CreateFragment(front, message->GetSize() - front);
    GsnVcTag vcTag;
    packet->RemovePacketTag(vcTag); // the sender's VC choice does not travel further up
    if (protocol == gsn::ETHERTYPE_ARP && !m_needsArp)
    {
        // ns-3's ARP must not see HARP frames on an interface that does not use it.
        DropMessage(message, GsnRxDropReason::NO_ARP);
        return;
    }

    const Mac48Address destination = addressing.GetDestination();
    const Mac48Address source = addressing.GetSource();
    PacketType type = NetDevice::PACKET_OTHERHOST;
    if (destination == Mac48Address::ConvertFrom(GetAddress()))
    {
        type = NetDevice::PACKET_HOST;
    }
    else if (destination.IsBroadcast())
    {
        type = NetDevice::PACKET_BROADCAST;
    }
    else if (destination.IsGroup())
    {
        type = NetDevice::PACKET_MULTICAST;
    }

    m_promiscSnifferTrace(message);
    m_promiscSnifferVcTrace(message, vc, true);
    if (type != NetDevice::PACKET_OTHERHOST)
    {
        m_snifferTrace(message);
        m_snifferVcTrace(message, vc, true);
    }
    if (!m_promiscRxCallback.IsNull())
    {
        m_macPromiscRxTrace(packet);
        m_promiscRxCallback(this, packet, protocol, source, destination, type);
    }
    if (type == NetDevice::PACKET_OTHERHOST)
    {
        if (m_promiscRxCallback.IsNull())
        {
            DropMessage(message, GsnRxDropReason::NOT_FOR_US);
        }
        return;
    }
    if (m_hostAdapter)
    {
        Callback<void> deliver([this, message, packet, protocol, source]() {
            HandUp(message, packet, protocol, source);
        });
        if (!m_hostAdapter->Receive(vc, message->GetSize(), protocol, m_rxHeaderAt[vc], deliver))
        {
            DropMessage(message, GsnRxDropReason::NO_RX_BUFFER);
        }
        return;
    }
    HandUp(message, packet, protocol, source);
}

void
GsnNetDevice::HandUp(Ptr<Packet> message,
                     Ptr<Packet> packet,
                     uint16_t protocol,
                     Mac48Address source)
{
    const auto interceptor = m_receiveInterceptors.find(protocol);
    if (interceptor != m_receiveInterceptors.end())
    {
        ++m_msgCounters.rxMessages;
        m_macRxTrace(packet);
        interceptor->second(packet, source);
        return;
    }
    if (protocol == gsn::ETHERTYPE_ARP && !IsWholeArp(packet))
    {
        // ns-3's ArpHeader reads as many bytes as the frame's address lengths say, even
        // past the end of a short frame.
        DropMessage(message, GsnRxDropReason::MALFORMED_ARP);
        return;
    }
    ++m_msgCounters.rxMessages;
    m_macRxTrace(packet);
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, protocol, source);
    }
}

bool
GsnNetDevice::IsWholeArp(Ptr<const Packet> frame)
{
    // hrd(2) pro(2) hln(1) pln(1) op(2), then two hardware and two protocol addresses.
    constexpr uint32_t FIXED = 8;
    uint8_t fixed[FIXED];
    if (frame->GetSize() < FIXED)
    {
        return false;
    }
    frame->CopyData(fixed, FIXED);
    return frame->GetSize() >= FIXED + 2 * (uint32_t(fixed[4]) + uint32_t(fixed[5]));
}

} // namespace ns3
