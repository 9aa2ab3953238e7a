/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-traffic-generator.h"

#include "gsn-net-device.h"
#include "gsn-traffic-header.h"
#include "gsn-traffic-stats.h"
#include "gsn-vc-tag.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnTrafficGenerator");

NS_OBJECT_ENSURE_REGISTERED(GsnTrafficGenerator);

TypeId
GsnTrafficGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnTrafficGenerator")
            .SetParent<Application>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnTrafficGenerator>()
            .AddAttribute("Pattern",
                          "Who sends to whom.",
                          EnumValue(UNIFORM_RANDOM),
                          MakeEnumAccessor(&GsnTrafficGenerator::m_pattern),
                          MakeEnumChecker(UNIFORM_RANDOM,
                                          "UniformRandom",
                                          PERMUTATION,
                                          "Permutation",
                                          ALL_TO_ALL,
                                          "AllToAll",
                                          INCAST,
                                          "Incast",
                                          HOT_SPOT,
                                          "HotSpot"))
            .AddAttribute("OfferedLoad",
                          "Offered load as a fraction of the link data rate (6.4 Gbit/s).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&GsnTrafficGenerator::m_offeredLoad),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MessageSize",
                          "Payload bytes of each Message, traffic header included. A "
                          "Constant or Uniform variable must not go below the header's 28 "
                          "bytes (refused at start); lower draws of others are raised to it.",
                          StringValue("ns3::ConstantRandomVariable[Constant=60000]"),
                          MakePointerAccessor(&GsnTrafficGenerator::m_messageSize),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("MeanMessageSize",
                          "Mean of MessageSize in bytes, for the arrival rate; 0: derived "
                          "from a Constant, Uniform, Exponential or Normal MessageSize.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GsnTrafficGenerator::m_meanMessageSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Vc",
                          "Virtual channel of the Messages (0-3), or 4: drawn uniformly per "
                          "Message among the VCs whose Message limit on the device admits "
                          "it (GsnNetDevice::MaxMessageBytesVc0 etc.; by default VC 0 takes "
                          "Messages up to 4096 bytes with the LLC/SNAP header).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&GsnTrafficGenerator::m_vc),
                          MakeUintegerChecker<uint8_t>(0, RANDOM_VC))
            .AddAttribute("MaxMessages",
                          "Messages to generate, accepted or refused (0: no limit).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GsnTrafficGenerator::m_maxMessages),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EtherType",
                          "EtherType of the Messages (default: IEEE local experimental).",
                          UintegerValue(0x88B5),
                          MakeUintegerAccessor(&GsnTrafficGenerator::m_etherType),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("HotSpot",
                          "Index of the hot spot endpoint (Incast, HotSpot).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GsnTrafficGenerator::m_hotSpot),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HotSpotFraction",
                          "Share of each sender's Messages that go to the hot spot (HotSpot).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&GsnTrafficGenerator::m_hotSpotFraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddTraceSource("Tx",
                            "A Message was accepted by the device.",
                            MakeTraceSourceAccessor(&GsnTrafficGenerator::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("TxDrop",
                            "A Message was refused by the device.",
                            MakeTraceSourceAccessor(&GsnTrafficGenerator::m_txDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A Message arrived, with its latency (arrival - send).",
                            MakeTraceSourceAccessor(&GsnTrafficGenerator::m_rxTrace),
                            "ns3::GsnTrafficGenerator::RxTracedCallback");
    return tid;
}

GsnTrafficGenerator::GsnTrafficGenerator()
    : m_pattern(UNIFORM_RANDOM),
      m_offeredLoad(0.5),
      m_meanMessageSize(0),
      m_vc(3),
      m_maxMessages(0),
      m_etherType(0x88B5),
      m_hotSpot(0),
      m_hotSpotFraction(0.5),
      m_index(0),
      m_permutationDestination(NO_DESTINATION),
      m_interArrival(CreateObject<ExponentialRandomVariable>()),
      m_destinationRng(CreateObject<UniformRandomVariable>()),
      m_vcRng(CreateObject<UniformRandomVariable>()),
      m_hotSpotRng(CreateObject<UniformRandomVariable>()),
      m_meanIntervalNs(0),
      m_roundRobin(0),
      m_sequence(0),
      m_generated(0),
      m_refused(0),
      m_received(0)
{
    NS_LOG_FUNCTION(this);
}

GsnTrafficGenerator::~GsnTrafficGenerator()
{
    NS_LOG_FUNCTION(this);
}

void
GsnTrafficGenerator::SetEndpoints(uint32_t index, const std::vector<Mac48Address>& endpoints)
{
    SetEndpoints(index, std::make_shared<const std::vector<Mac48Address>>(endpoints));
}

void
GsnTrafficGenerator::SetEndpoints(uint32_t index,
                                  std::shared_ptr<const std::vector<Mac48Address>> endpoints)
{
    NS_LOG_FUNCTION(this << index << endpoints->size());
    NS_ABORT_MSG_UNLESS(index < endpoints->size(),
                        "GsnTrafficGenerator: index " << index << " outside the "
                                                      << endpoints->size() << " endpoints");
    m_index = index;
    m_endpoints = std::move(endpoints);
    m_roundRobin = 0;
}

uint32_t
GsnTrafficGenerator::GetIndex() const
{
    return m_index;
}

uint32_t
GsnTrafficGenerator::GetEndpointCount() const
{
    return m_endpoints ? uint32_t(m_endpoints->size()) : 0;
}

void
GsnTrafficGenerator::SetPermutationDestination(uint32_t destination)
{
    m_permutationDestination = destination;
}

uint32_t
GsnTrafficGenerator::GetPermutationDestination() const
{
    return m_permutationDestination;
}

void
GsnTrafficGenerator::SetStats(Ptr<GsnTrafficStats> stats)
{
    m_stats = stats;
}

Ptr<GsnTrafficStats>
GsnTrafficGenerator::GetStats() const
{
    return m_stats;
}

void
GsnTrafficGenerator::SetDevice(Ptr<GsnNetDevice> device)
{
    m_device = device;
}

Ptr<GsnNetDevice>
GsnTrafficGenerator::GetDevice() const
{
    return m_device;
}

uint64_t
GsnTrafficGenerator::GetGenerated() const
{
    return m_generated;
}

uint64_t
GsnTrafficGenerator::GetSent() const
{
    return m_sequence;
}

uint64_t
GsnTrafficGenerator::GetRefused() const
{
    return m_refused;
}

uint64_t
GsnTrafficGenerator::GetReceived() const
{
    return m_received;
}

int64_t
GsnTrafficGenerator::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_interArrival->SetStream(stream);
    m_destinationRng->SetStream(stream + 1);
    m_vcRng->SetStream(stream + 2);
    m_hotSpotRng->SetStream(stream + 3);
    if (m_messageSize)
    {
        m_messageSize->SetStream(stream + 4);
    }
    return STREAMS;
}

// ---------------------------------------------------------------------------------------
// Destinations

uint32_t
GsnTrafficGenerator::UniformOther(uint32_t excluded)
{
    // Draw among the endpoints other than this one and \p excluded, then skip those two.
    const uint32_t n = GetEndpointCount();
    const bool skipExcluded = excluded < n && excluded != m_index;
    const uint32_t choices = n - 1 - (skipExcluded ? 1 : 0);
    if (choices == 0)
    {
        return NO_DESTINATION;
    }
    uint32_t k = m_destinationRng->GetInteger(0, choices - 1);
    const uint32_t low = skipExcluded ? std::min(m_index, excluded) : m_index;
    const uint32_t high = skipExcluded ? std::max(m_index, excluded) : m_index;
    if (k >= low)
    {
        ++k;
    }
    if (skipExcluded && k >= high)
    {
        ++k;
    }
    return k;
}

bool
GsnTrafficGenerator::HasDestination() const
{
    const uint32_t n = GetEndpointCount();
    if (n < 2)
    {
        return false;
    }
    switch (m_pattern)
    {
    case PERMUTATION:
        return m_permutationDestination < n && m_permutationDestination != m_index;
    case INCAST:
        return m_hotSpot < n && m_hotSpot != m_index;
    default:
        return true;
    }
}

uint32_t
GsnTrafficGenerator::NextDestination()
{
    const uint32_t n = GetEndpointCount();
    if (n < 2)
    {
        return NO_DESTINATION;
    }
    const bool haveHotSpot = m_hotSpot < n && m_hotSpot != m_index;
    switch (m_pattern)
    {
    case UNIFORM_RANDOM:
        return UniformOther(NO_DESTINATION);
    case PERMUTATION:
        return HasDestination() ? m_permutationDestination : NO_DESTINATION;
    case ALL_TO_ALL: {
        const uint32_t destination = (m_index + 1 + m_roundRobin) % n;
        m_roundRobin = (m_roundRobin + 1) % (n - 1);
        return destination;
    }
    case INCAST:
        return HasDestination() ? m_hotSpot : NO_DESTINATION;
    case HOT_SPOT:
        if (!haveHotSpot)
        {
            return UniformOther(NO_DESTINATION); // the hot spot itself, or none configured
        }
        if (n == 2 || m_hotSpotRng->GetValue() < m_hotSpotFraction)
        {
            return m_hotSpot;
        }
        return UniformOther(m_hotSpot);
    }
    return NO_DESTINATION;
}

// ---------------------------------------------------------------------------------------
// Arrival process

bool
GsnTrafficGenerator::FindMeanMessageSize(double& mean) const
{
    if (m_meanMessageSize > 0)
    {
        mean = m_meanMessageSize;
        return true;
    }
    if (auto c = DynamicCast<ConstantRandomVariable>(m_messageSize))
    {
        mean = c->GetConstant();
        return true;
    }
    if (auto u = DynamicCast<UniformRandomVariable>(m_messageSize))
    {
        mean = (u->GetMin() + u->GetMax()) / 2;
        return true;
    }
    if (auto e = DynamicCast<ExponentialRandomVariable>(m_messageSize))
    {
        // ns-3 redraws values above the bound: the mean of the truncated distribution.
        const double m = e->GetMean();
        const double bound = e->GetBound();
        mean = bound > 0 ? m - bound / std::expm1(bound / m) : m;
        return true;
    }
    if (auto g = DynamicCast<NormalRandomVariable>(m_messageSize))
    {
        mean = g->GetMean(); // the bound is symmetric about the mean
        return true;
    }
    return false;
}

double
GsnTrafficGenerator::GetMeanMessageSize() const
{
    double mean = 0;
    NS_ABORT_MSG_UNLESS(FindMeanMessageSize(mean),
                        "GsnTrafficGenerator: set MeanMessageSize for a MessageSize of type "
                            << m_messageSize->GetInstanceTypeId().GetName());
    return mean;
}

std::string
GsnTrafficGenerator::Validate() const
{
    const double header = GsnTrafficHeader::SERIALIZED_SIZE;
    if (!m_messageSize)
    {
        return "no MessageSize";
    }
    // Every Message carries the header: a smaller size cannot be sent as asked, and raising
    // it would offer more load than the arrival rate was computed for.
    double least = header;
    if (auto c = DynamicCast<ConstantRandomVariable>(m_messageSize))
    {
        least = c->GetConstant();
    }
    else if (auto u = DynamicCast<UniformRandomVariable>(m_messageSize))
    {
        least = u->GetMin();
    }
    std::ostringstream why;
    if (!(least >= header))
    {
        why << "MessageSize can be " << least << " bytes, below the " << header
            << "-byte traffic header every Message carries";
        return why.str();
    }
    double mean = 0;
    if (!FindMeanMessageSize(mean))
    {
        return "set MeanMessageSize for a MessageSize of type " +
               m_messageSize->GetInstanceTypeId().GetName();
    }
    if (!(mean >= header) || mean > double(std::numeric_limits<uint32_t>::max()))
    {
        why << "the mean Message size " << mean << " bytes is outside " << header << " to "
            << std::numeric_limits<uint32_t>::max() << " bytes";
        return why.str();
    }
    return "";
}

Time
GsnTrafficGenerator::GetMeanInterval() const
{
    if (m_offeredLoad <= 0)
    {
        return Time::Max();
    }
    return NanoSeconds(
        int64_t(std::llround(GetMeanMessageSize() * 8 * 1e9 / (m_offeredLoad * LINK_DATA_RATE))));
}

uint32_t
GsnTrafficGenerator::DrawMessageSize()
{
    const double v = m_messageSize->GetValue();
    if (!(v >= GsnTrafficHeader::SERIALIZED_SIZE)) // also catches NaN
    {
        return GsnTrafficHeader::SERIALIZED_SIZE;
    }
    if (v >= double(std::numeric_limits<uint32_t>::max()))
    {
        return std::numeric_limits<uint32_t>::max();
    }
    return uint32_t(std::llround(v));
}

void
GsnTrafficGenerator::StartApplication()
{
    NS_LOG_FUNCTION(this);
    const std::string problem = Validate();
    NS_ABORT_MSG_UNLESS(problem.empty(), "GsnTrafficGenerator: " << problem);
    if (m_offeredLoad <= 0 || !HasDestination())
    {
        NS_LOG_INFO("endpoint " << m_index << " has nothing to send");
        return;
    }
    m_meanIntervalNs = GetMeanMessageSize() * 8 * 1e9 / (m_offeredLoad * LINK_DATA_RATE);
    ScheduleNext();
}

void
GsnTrafficGenerator::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_sendEvent.Cancel();
}

void
GsnTrafficGenerator::ScheduleNext()
{
    if (m_maxMessages > 0 && m_generated >= m_maxMessages)
    {
        return;
    }
    const double gapNs = m_interArrival->GetValue(m_meanIntervalNs, 0);
    m_sendEvent = Simulator::Schedule(NanoSeconds(int64_t(std::llround(gapNs))),
                                      &GsnTrafficGenerator::Generate,
                                      this);
}

void
GsnTrafficGenerator::Generate()
{
    const uint32_t destination = NextDestination();
    const uint32_t bytes = DrawMessageSize();
    const uint8_t vc = DrawVc(bytes);
    ++m_generated;
    if (destination != NO_DESTINATION)
    {
        Send(destination, bytes, vc);
    }
    ScheduleNext();
}

uint8_t
GsnTrafficGenerator::DrawVc(uint32_t bytes)
{
    if (m_vc < RANDOM_VC)
    {
        return m_vc;
    }
    // Only VCs that carry a Message this long (by default VC 0 takes none above 4096 bytes):
    // one that refuses it would turn a share of the offered load into refusals.
    uint8_t admitting[gsn::NUM_VCS];
    uint32_t n = 0;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (!m_device || m_device->CarriesOnVc(bytes, vc))
        {
            admitting[n++] = vc;
        }
    }
    if (n == 0)
    {
        return uint8_t(m_vcRng->GetInteger(0, gsn::NUM_VCS - 1)); // refused on any VC
    }
    return admitting[m_vcRng->GetInteger(0, n - 1)];
}

bool
GsnTrafficGenerator::Send(uint32_t destination, uint32_t bytes, uint8_t vc)
{
    NS_LOG_FUNCTION(this << destination << bytes << unsigned(vc));
    NS_ABORT_MSG_UNLESS(destination < GetEndpointCount(),
                        "GsnTrafficGenerator: no endpoint " << destination);
    NS_ABORT_MSG_UNLESS(m_device, "GsnTrafficGenerator: no GsnNetDevice on the node");
    NS_ABORT_MSG_UNLESS(bytes >= GsnTrafficHeader::SERIALIZED_SIZE,
                        "GsnTrafficGenerator::Send: " << bytes << " bytes cannot hold the "
                                                      << GsnTrafficHeader::SERIALIZED_SIZE
                                                      << "-byte traffic header");
    GsnTrafficHeader header;
    header.SetSource(m_index);
    header.SetDestination(destination);
    header.SetSequence(m_sequence);
    header.SetSendTime(Simulator::Now());
    header.SetMessageSize(bytes);
    Ptr<Packet> packet = Create<Packet>(bytes - GsnTrafficHeader::SERIALIZED_SIZE);
    packet->AddHeader(header);
    packet->AddPacketTag(GsnVcTag(vc));
    if (!m_device->Send(packet, (*m_endpoints)[destination], m_etherType))
    {
        NS_LOG_INFO("endpoint " << m_index << ": device refused " << bytes << " bytes on VC "
                                << unsigned(vc));
        ++m_refused;
        if (m_stats)
        {
            m_stats->RecordRefused(m_index);
        }
        m_txDropTrace(packet);
        return false;
    }
    if (m_stats)
    {
        m_stats->RecordSent(m_index, m_sequence, destination, bytes, Simulator::Now());
    }
    ++m_sequence;
    m_txTrace(packet);
    return true;
}

// ---------------------------------------------------------------------------------------
// Reception and lifetime

void
GsnTrafficGenerator::Receive(Ptr<NetDevice> /* device */,
                             Ptr<const Packet> packet,
                             uint16_t protocol,
                             const Address& from,
                             const Address& /* to */,
                             NetDevice::PacketType /* type */)
{
    NS_LOG_FUNCTION(this << packet << protocol << from);
    if (packet->GetSize() < GsnTrafficHeader::SERIALIZED_SIZE)
    {
        NS_LOG_WARN("endpoint " << m_index << ": " << packet->GetSize()
                                << " bytes are too few for a traffic Message");
        return;
    }
    GsnTrafficHeader header;
    packet->PeekHeader(header);
    const Time now = Simulator::Now();
    ++m_received;
    if (m_stats)
    {
        m_stats->RecordArrival(m_index, header, now);
    }
    m_rxTrace(packet, now - header.GetSendTime());
}

void
GsnTrafficGenerator::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    Ptr<Node> node = GetNode();
    if (!m_device && node)
    {
        for (uint32_t i = 0; i < node->GetNDevices() && !m_device; ++i)
        {
            m_device = DynamicCast<GsnNetDevice>(node->GetDevice(i));
        }
    }
    NS_ABORT_MSG_UNLESS(m_device, "GsnTrafficGenerator: no GsnNetDevice on the node");
    // Registered from the start of the simulation, not of this application, so that
    // Messages from endpoints that start earlier are received.
    m_handler = MakeCallback(&GsnTrafficGenerator::Receive, this);
    node->RegisterProtocolHandler(m_handler, m_etherType, m_device);
    Application::DoInitialize();
}

void
GsnTrafficGenerator::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_sendEvent.Cancel();
    Ptr<Node> node = GetNode();
    if (node && !m_handler.IsNull())
    {
        node->UnregisterProtocolHandler(m_handler);
    }
    m_handler = Node::ProtocolHandler();
    m_device = nullptr;
    m_stats = nullptr;
    m_messageSize = nullptr;
    m_interArrival = nullptr;
    m_destinationRng = nullptr;
    m_vcRng = nullptr;
    m_hotSpotRng = nullptr;
    Application::DoDispose();
}

} // namespace ns3
