/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-traffic-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GsnTrafficHeader);

GsnTrafficHeader::GsnTrafficHeader()
    : m_source(0),
      m_destination(0),
      m_sequence(0),
      m_sendTimeNs(0),
      m_messageSize(0)
{
}

TypeId
GsnTrafficHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GsnTrafficHeader")
                            .SetParent<Header>()
                            .SetGroupName("Gsn")
                            .AddConstructor<GsnTrafficHeader>();
    return tid;
}

TypeId
GsnTrafficHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
GsnTrafficHeader::Print(std::ostream& os) const
{
    os << "src=" << m_source << " dst=" << m_destination << " seq=" << m_sequence
       << " sent=" << m_sendTimeNs << "ns size=" << m_messageSize;
}

uint32_t
GsnTrafficHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
GsnTrafficHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_source);
    start.WriteHtonU32(m_destination);
    start.WriteHtonU64(m_sequence);
    start.WriteHtonU64(uint64_t(m_sendTimeNs));
    start.WriteHtonU32(m_messageSize);
}

uint32_t
GsnTrafficHeader::Deserialize(Buffer::Iterator start)
{
    m_source = start.ReadNtohU32();
    m_destination = start.ReadNtohU32();
    m_sequence = start.ReadNtohU64();
    m_sendTimeNs = int64_t(start.ReadNtohU64());
    m_messageSize = start.ReadNtohU32();
    return SERIALIZED_SIZE;
}

void
GsnTrafficHeader::SetSource(uint32_t index)
{
    m_source = index;
}

uint32_t
GsnTrafficHeader::GetSource() const
{
    return m_source;
}

void
GsnTrafficHeader::SetDestination(uint32_t index)
{
    m_destination = index;
}

uint32_t
GsnTrafficHeader::GetDestination() const
{
    return m_destination;
}

void
GsnTrafficHeader::SetSequence(uint64_t sequence)
{
    m_sequence = sequence;
}

uint64_t
GsnTrafficHeader::GetSequence() const
{
    return m_sequence;
}

void
GsnTrafficHeader::SetSendTime(Time time)
{
    m_sendTimeNs = time.GetNanoSeconds();
}

Time
GsnTrafficHeader::GetSendTime() const
{
    return NanoSeconds(m_sendTimeNs);
}

void
GsnTrafficHeader::SetMessageSize(uint32_t bytes)
{
    m_messageSize = bytes;
}

uint32_t
GsnTrafficHeader::GetMessageSize() const
{
    return m_messageSize;
}

bool
GsnTrafficHeader::operator==(const GsnTrafficHeader& other) const
{
    return m_source == other.m_source && m_destination == other.m_destination &&
           m_sequence == other.m_sequence && m_sendTimeNs == other.m_sendTimeNs &&
           m_messageSize == other.m_messageSize;
}

} // namespace ns3
