/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-net-device.h"

#include "gsn-attribute-checker.h"
#include "gsn-channel.h"
#include "gsn-message-header.h"
#include "gsn-process-tag.h"
#include "gsn-remote-port.h"
#include "gsn-vc-tag.h"

#include "ns3/boolean.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/llc-snap-header.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnNetDevice");

NS_OBJECT_ENSURE_REGISTERED(GsnNetDevice);

namespace
{
/// The six fixed bytes of an LLC/SNAP header with OUI 0 (RFC 2835 4.1).
const uint8_t LLC_SNAP_PREFIX[6] = {0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00};
} // namespace

TypeId
GsnNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnNetDevice")
            .SetParent<GsnPortDevice>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnNetDevice>()
            .AddAttribute("TxQueueMaxSize",
                          "Size of each VC's transmit queue of Messages.",
                          QueueSizeValue(QueueSize("1000p")),
                          MakeQueueSizeAccessor(&GsnNetDevice::SetTxQueueMaxSize,
                                                &GsnNetDevice::GetTxQueueMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("MaxMessageBytesVc0",
                          "Largest M_len on VC 0 (control; proposal, gsn-protocol-reference.rst "
                          "'Virtual channel usage').",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&GsnNetDevice::m_maxMessageBytes0),
                          MakeGsnChecker("ns3::GsnNetDevice::MaxMessageBytesVc0",
                                         MakeUintegerChecker<uint64_t>(gsn::LLC_SNAP_BYTES,
                                                                       gsn::MAX_MESSAGE_LENGTH)))
            .AddAttribute("MaxMessageBytesVc1",
                          "Largest M_len on VC 1 (low latency; proposal, "
                          "gsn-protocol-reference.rst 'Virtual channel usage').",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&GsnNetDevice::m_maxMessageBytes1),
                          MakeGsnChecker("ns3::GsnNetDevice::MaxMessageBytesVc1",
                                         MakeUintegerChecker<uint64_t>(gsn::LLC_SNAP_BYTES,
                                                                       gsn::MAX_MESSAGE_LENGTH)))
            .AddAttribute("MaxMessageBytesVc2",
                          "Largest M_len on VC 2 (proposal, gsn-protocol-reference.rst 'Virtual "
                          "channel usage').",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&GsnNetDevice::m_maxMessageBytes2),
                          MakeGsnChecker("ns3::GsnNetDevice::MaxMessageBytesVc2",
                                         MakeUintegerChecker<uint64_t>(gsn::LLC_SNAP_BYTES,
                                                                       gsn::MAX_MESSAGE_LENGTH)))
            .AddAttribute("MaxMessageBytesVc3",
                          "Largest M_len on VC 3 (bulk; the 32-bit M_len limit).",
                          UintegerValue(gsn::MAX_MESSAGE_LENGTH),
                          MakeUintegerAccessor(&GsnNetDevice::m_maxMessageBytes3),
                          MakeGsnChecker("ns3::GsnNetDevice::MaxMessageBytesVc3",
                                         MakeUintegerChecker<uint64_t>(gsn::LLC_SNAP_BYTES,
                                                                       gsn::MAX_MESSAGE_LENGTH)))
            .AddAttribute("IpVc",
                          "VC of IP datagrams (EtherType 0x0800).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&GsnNetDevice::m_ipVc),
                          MakeGsnChecker("ns3::GsnNetDevice::IpVc",
                                         MakeUintegerChecker<uint8_t>(0, gsn::NUM_VCS - 1)))
            .AddAttribute("ArpVc",
                          "VC of ARP/HARP (EtherType 0x0806).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GsnNetDevice::m_arpVc),
                          MakeGsnChecker("ns3::GsnNetDevice::ArpVc",
                                         MakeUintegerChecker<uint8_t>(0, gsn::NUM_VCS - 1)))
            .AddAttribute("StVc",
                          "VC of ST operations (EtherType 0x8181) without a GsnVcTag; IRIX "
                          "sends every ST control operation on VC 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GsnNetDevice::m_stVc),
                          MakeGsnChecker("ns3::GsnNetDevice::StVc",
                                         MakeUintegerChecker<uint8_t>(0, gsn::NUM_VCS - 1)))
            .AddAttribute("DefaultVc",
                          "VC of other EtherTypes.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&GsnNetDevice::m_defaultVc),
                          MakeGsnChecker("ns3::GsnNetDevice::DefaultVc",
                                         MakeUintegerChecker<uint8_t>(0, gsn::NUM_VCS - 1)))
            .AddAttribute("NeedsArp",
                          "What NeedsArp() answers. False: IPv4 sends every datagram to the "
                          "broadcast ULA. The HARP helper sets it true and answers ns-3's ARP "
                          "with HARP through a send interceptor.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsnNetDevice::m_needsArp),
                          MakeBooleanChecker())
            .AddAttribute("AdminDiscovery",
                          "At link up, ask the neighbour what it is (Exchange_element_type) "
                          "and, if it is a switch, ask it for a ULA (ULA_request).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsnNetDevice::m_adminDiscovery),
                          MakeBooleanChecker())
            .AddAttribute(
                "AdminElements",
                "Admin elements in the endpoint, in a chain from the link (element "
                "0, e.g. the SuMAC link chip) to the host (e.g. the adapter logic); "
                "an Admin micropacket crosses one of them per hop, from either end.",
                UintegerValue(1),
                MakeUintegerAccessor(&GsnNetDevice::SetAdminElements,
                                     &GsnNetDevice::GetAdminElements),
                MakeGsnChecker("ns3::GsnNetDevice::AdminElements",
                               MakeUintegerChecker<uint32_t>(1, GsnAdminPayload::MAX_PATH)))
            .AddAttribute("AdoptAssignedUla",
                          "Use the ULA a switch assigns instead of the PROM (configured) one.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GsnNetDevice::m_adoptAssignedUla),
                          MakeBooleanChecker())
            .AddAttribute(
                "HostAdapter",
                "The host side of the endpoint (driver, DMA, host bus, interrupts); "
                "null: the Ideal host (GsnHostAdapterHelper installs one).",
                PointerValue(),
                MakePointerAccessor(&GsnNetDevice::SetHostAdapter, &GsnNetDevice::GetHostAdapter),
                MakePointerChecker<GsnHostAdapter>())
            .AddTraceSource("AdminRequest",
                            "An Admin request addressed to this endpoint was processed.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_adminRequestTrace),
                            "ns3::GsnNetDevice::AdminTracedCallback")
            .AddTraceSource("AdminResponse",
                            "An Admin response reached this endpoint.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_adminResponseTrace),
                            "ns3::GsnNetDevice::AdminTracedCallback")
            .AddTraceSource("MacTx",
                            "A packet was accepted by Send() for transmission.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "Send() refused a packet (too long for its VC, bad VC, queue "
                            "full).",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet addressed to this endpoint (or broadcast) was handed up.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A packet was handed to a promiscuous handler.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRxDrop",
                            "A received Message was dropped, with the reason.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_macRxDropTrace),
                            "ns3::GsnNetDevice::MessageDropTracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "The Header micropacket of a Message goes on the wire.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "The Tail micropacket of a Message goes on the wire.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "The Tail micropacket of a Message arrived and it reassembled.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Messages sent and received by this endpoint, as on the wire.",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Messages sent and received, as on the wire (promiscuous).",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("SnifferVc",
                            "What Sniffer gives, with the Message's VC and whether this "
                            "endpoint received it (false: sent it).",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_snifferVcTrace),
                            "ns3::GsnNetDevice::SnifferVcTracedCallback")
            .AddTraceSource("PromiscSnifferVc",
                            "What PromiscSniffer gives, with the Message's VC and whether "
                            "this endpoint received it (false: sent it).",
                            MakeTraceSourceAccessor(&GsnNetDevice::m_promiscSnifferVcTrace),
                            "ns3::GsnNetDevice::SnifferVcTracedCallback");
    return tid;
}

GsnNetDevice::GsnNetDevice()
    : m_maxMessageBytes0(4096),
      m_maxMessageBytes1(131072),
      m_maxMessageBytes2(131072),
      m_maxMessageBytes3(gsn::MAX_MESSAGE_LENGTH),
      m_txQueueMaxSize("1000p"),
      m_ipVc(1),
      m_arpVc(0),
      m_stVc(0),
      m_defaultVc(1),
      m_needsArp(false),
      m_adminDiscovery(false),
      m_adoptAssignedUla(true),
      m_neighborType(GsnElementType::UNKNOWN),
      m_elements(1),
      m_nextTransaction(1),
      m_adminErrors(0)
{
    SetPlacesFreedElsewhere(false); // each place is freed as its micropacket arrives
    NS_LOG_FUNCTION(this);
    for (auto& q : m_txQueue)
    {
        q = CreateObject<DropTailQueue<Packet>>();
        q->SetMaxSize(m_txQueueMaxSize);
    }
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        SetMessageVcHint(vc, false); // nothing queued yet: Send sets it
    }
}

GsnNetDevice::~GsnNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
GsnNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& q : m_txQueue)
    {
        q = nullptr;
    }
    m_interceptors.clear();
    m_receiveInterceptors.clear();
    m_logicalChannel = nullptr;
    if (m_hostAdapter)
    {
        m_hostAdapter->Dispose();
        m_hostAdapter = nullptr;
    }
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscRxCallback = MakeNullCallback<bool,
                                           Ptr<NetDevice>,
                                           Ptr<const Packet>,
                                           uint16_t,
                                           const Address&,
                                           const Address&,
                                           PacketType>();
    GsnPortDevice::DoDispose();
}

void
GsnNetDevice::SetHostAdapter(Ptr<GsnHostAdapter> adapter)
{
    NS_LOG_FUNCTION(this << adapter);
    m_hostAdapter = adapter;
    if (adapter)
    {
        adapter->SetTransmitKick(MakeCallback(&GsnNetDevice::KickTransmit, this));
        adapter->Initialize();
    }
}

void
GsnNetDevice::KickTransmit()
{
    NotifyTxReady();
}

void
GsnNetDevice::SetTxQueueMaxSize(QueueSize size)
{
    m_txQueueMaxSize = size;
    for (auto& q : m_txQueue)
    {
        if (q)
        {
            q->SetMaxSize(size);
        }
    }
}

QueueSize
GsnNetDevice::GetTxQueueMaxSize() const
{
    return m_txQueueMaxSize;
}

Ptr<Queue<Packet>>
GsnNetDevice::GetTxQueue(uint8_t vc) const
{
    return m_txQueue.at(vc);
}

uint64_t
GsnNetDevice::GetMaxMessageBytes(uint8_t vc) const
{
    switch (vc)
    {
    case 0:
        return m_maxMessageBytes0;
    case 1:
        return m_maxMessageBytes1;
    case 2:
        return m_maxMessageBytes2;
    case 3:
        return m_maxMessageBytes3;
    }
    return 0;
}

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

// ---------------------------------------------------------------------------------------
// Transmit side

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

// ---------------------------------------------------------------------------------------
// Receive side

uint32_t
GsnNetDevice::TakeFollowingMessageMicropackets(uint8_t vc,
                                               uint32_t max,
                                               const Time& slot,
                                               GsnMicropacket& first)
{
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
GsnNetDevice::ReceiveMessageSpan(GsnMicropacket&& first, uint32_t n)
{
    // As ReceiveMessageMicropacket() for each: the places are freed one slot apart as they
    // arrive, and the data goes to the Message being reassembled (freeing a place does
    // nothing the reassembly sees).
    const uint8_t vc = first.vc;
    ReleaseRxBufferSpan(vc, n, GetRxArrivalTime());
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

// ---------------------------------------------------------------------------------------
// NetDevice API of an endpoint

bool
GsnNetDevice::IsBroadcast() const
{
    return true;
}

bool
GsnNetDevice::IsPointToPoint() const
{
    if (m_logicalChannel)
    {
        return false;
    }
    Ptr<GsnChannel> cable = GetCable();
    if (!cable || cable->GetNDevices() < 2)
    {
        return false;
    }
    // (The far end may be another rank's endpoint, named by a GsnRemotePort.)
    Ptr<NetDevice> peer = cable->GetDevice(cable->GetDevice(0) == this ? 1 : 0);
    Ptr<GsnRemotePort> remote = DynamicCast<GsnRemotePort>(peer);
    return DynamicCast<GsnNetDevice>(peer) || (remote && remote->IsEndpoint());
}

Ptr<Channel>
GsnNetDevice::GetChannel() const
{
    if (m_logicalChannel)
    {
        return m_logicalChannel;
    }
    return GetCable();
}

void
GsnNetDevice::SetLogicalChannel(Ptr<Channel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_logicalChannel = channel;
}

Address
GsnNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
GsnNetDevice::IsMulticast() const
{
    return true;
}

Address
GsnNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
GsnNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
GsnNetDevice::NeedsArp() const
{
    return m_needsArp;
}

void
GsnNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
GsnNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
GsnNetDevice::SupportsSendFrom() const
{
    return true;
}

// ---------------------------------------------------------------------------------------
// Admin micropackets: an endpoint answers the required commands and starts its own
// discovery (what is my neighbour; if a switch, which ULA do I get).

uint32_t
GsnNetDevice::SendAdminRequest(GsnAdminPayload request)
{
    request.transaction = m_nextTransaction++;
    request.response = false;
    request.pathIndex = 0;
    SendAdminMicropacket(request.ToMicropacket());
    return request.transaction;
}

void
GsnNetDevice::NotifyLinkUp()
{
    if (m_adminDiscovery)
    {
        GsnAdminPayload p;
        p.command = uint8_t(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE);
        p.arg[0] = uint8_t(GsnElementType::ENDPOINT);
        p.ula = Mac48Address::ConvertFrom(GetAddress());
        SendAdminRequest(p);
    }
}

uint32_t
GsnNetDevice::SendAdminRequestFromHost(GsnAdminPayload request)
{
    request.transaction = m_nextTransaction++;
    request.response = false;
    request.pathIndex = 0;
    AdminArrives(uint32_t(m_elements.size() - 1), false, request);
    return request.transaction;
}

void
GsnNetDevice::SetAdminElements(uint32_t n)
{
    m_elements.resize(std::max<uint32_t>(n, 1));
}

uint32_t
GsnNetDevice::GetAdminElements() const
{
    return uint32_t(m_elements.size());
}

void
GsnNetDevice::ReceiveAdminMicropacket(const GsnMicropacket& mp)
{
    AdminArrives(0, true, GsnAdminPayload::Deserialize(mp.Data()));
}

void
GsnNetDevice::AdminOutward(uint32_t k, const GsnAdminPayload& p)
{
    if (k == 0)
    {
        SendAdminMicropacket(p.ToMicropacket());
        return;
    }
    AdminArrives(k - 1, false, p);
}

void
GsnNetDevice::AdminInward(uint32_t k, const GsnAdminPayload& p)
{
    if (k + 1 < m_elements.size())
    {
        AdminArrives(k + 1, true, p);
        return;
    }
    // The host: only a response that has crossed all the elements it must is its own.
    if (!p.response || p.hopCount != 0)
    {
        ++m_adminErrors;
        return;
    }
    m_adminResponseTrace(p);
}

void
GsnNetDevice::AdminArrives(uint32_t k, bool fromFabric, GsnAdminPayload p)
{
    const bool innermost = k + 1 == m_elements.size();
    if (p.response)
    {
        if (p.hopCount == 0)
        {
            if (k != 0 || !fromFabric)
            {
                ++m_adminErrors; // only the link-end element sends requests of its own
                return;
            }
            // The answer to a request the link-end element sent (SendAdminRequest, discovery).
            m_adminResponseTrace(p);
            ProcessAdminResponse(p);
            return;
        }
        // On its way back to its requester: out of the other port, one hop fewer.
        --p.hopCount;
        if (p.pathIndex > 0)
        {
            --p.pathIndex;
        }
        if (fromFabric)
        {
            AdminInward(k, p);
        }
        else
        {
            AdminOutward(k, p);
        }
        return;
    }
    if (p.hopCount != 0)
    {
        if (fromFabric && innermost)
        {
            // The innermost element's other port leads to the host, not to another element.
            ++m_adminErrors;
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            AdminOutward(k, p);
            return;
        }
        if (p.pathIndex >= GsnAdminPayload::MAX_PATH)
        {
            ++m_adminErrors; // the response could not find its way back
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            fromFabric ? AdminOutward(k, p) : AdminInward(k, p);
            return;
        }
        // Forward out of the other port; the recorded hop lets the response cross back.
        --p.hopCount;
        p.path[p.pathIndex++] = 0;
        fromFabric ? AdminInward(k, p) : AdminOutward(k, p);
        return;
    }
    m_adminRequestTrace(p);
    if (ProcessAdminRequest(k, fromFabric, p))
    {
        // A response leaves by the port its request came in by.
        fromFabric ? AdminOutward(k, p) : AdminInward(k, p);
    }
}

bool
GsnNetDevice::ProcessAdminRequest(uint32_t k, bool fromFabric, GsnAdminPayload& p)
{
    AdminElement& element = m_elements[k];
    const bool linkEnd = k == 0;
    switch (p.GetCommand())
    {
    case GsnAdminCommand::PING:
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::SET_ELEMENT_ADDRESS:
        element.address = p.ula;
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::RESET:
        // Answer first, then re-initialise: the element forgets its address and registers;
        // the link-end element also resets the link.
        p.MakeResponse(GsnAdminStatus::OK);
        fromFabric ? AdminOutward(k, p) : AdminInward(k, p);
        element = AdminElement();
        if (linkEnd)
        {
            Simulator::Schedule(MicroSeconds(1), &GsnPortDevice::ResetLink, this);
        }
        return false;
    case GsnAdminCommand::EXCHANGE_ELEMENT_TYPE:
        if (linkEnd && fromFabric && p.pathIndex == 0)
        {
            m_neighborType = static_cast<GsnElementType>(p.arg[0]);
        }
        p.arg.fill(0);
        p.arg[0] = uint8_t(GsnElementType::ENDPOINT);
        p.ula = Mac48Address::ConvertFrom(GetAddress());
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::READ_REGISTER:
    case GsnAdminCommand::WRITE_REGISTER: {
        const uint64_t ports = m_elements.size() == 1 ? 1 : 2; // one GSN port, or a chain
        element.registers.Answer(p, [ports, k](uint16_t reg) -> std::optional<uint64_t> {
            switch (reg)
            {
            case 0:
                return uint64_t(GsnElementType::ENDPOINT);
            case 1:
                return ports;
            case 6:
                return k; // position in the endpoint, 0 on the link
            }
            return std::nullopt;
        });
        break;
    }
    case GsnAdminCommand::INVALID_COMMAND:
        ++m_adminErrors;
        return false;
    default:
        // ULA assignment, lists and port maps are switch commands; anything else unknown.
        p.MakeInvalidCommandResponse();
        break;
    }
    return true;
}

void
GsnNetDevice::ProcessAdminResponse(const GsnAdminPayload& p)
{
    if (p.status != uint8_t(GsnAdminStatus::OK))
    {
        return;
    }
    if (p.GetCommand() == GsnAdminCommand::EXCHANGE_ELEMENT_TYPE && p.pathIndex == 0)
    {
        m_neighborType = static_cast<GsnElementType>(p.arg[0]);
        if (m_adminDiscovery && m_adoptAssignedUla && m_neighborType == GsnElementType::SWITCH)
        {
            GsnAdminPayload request;
            request.command = uint8_t(GsnAdminCommand::ULA_REQUEST);
            SendAdminRequest(request);
        }
        // Next to another endpoint the PROM ULA stays.
    }
    else if (p.GetCommand() == GsnAdminCommand::ULA_REQUEST && m_adoptAssignedUla &&
             m_adminDiscovery)
    {
        NS_LOG_INFO(this << " adopts the ULA " << p.ula << " assigned by its switch");
        SetAddress(p.ula);
    }
}

} // namespace ns3
