/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GsnNetDevice is written in several files, one per role:
//  - gsn-net-device.cc: attributes, trace sources, set-up, the host adapter, the transmit
//    queues and the NetDevice API;
//  - gsn-net-device-transmit.cc: the send path (interceptors, VC choice, checks, LLC/SNAP
//    and addressing, queueing) and segmentation of Messages into micropackets;
//  - gsn-net-device-receive.cc: the receive path (reassembly, checks, hand-up);
//  - gsn-net-device-admin.cc: Admin micropackets (the endpoint's elements and discovery).
#include "gsn-net-device.h"

#include "gsn-attribute-checker.h"
#include "gsn-channel.h"
#include "gsn-net-device-private.h"
#include "gsn-remote-port.h"

#include "ns3/boolean.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnNetDevice");

LogComponent&
gsn::NetDeviceLog()
{
    return g_log;
}

NS_OBJECT_ENSURE_REGISTERED(GsnNetDevice);

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

} // namespace ns3
