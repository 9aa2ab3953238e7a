/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-message-header.h"

#include "gsn-constants.h"

#include "ns3/address-utils.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GsnMessageHeader);

GsnMessageHeader::GsnMessageHeader()
    : m_length(0)
{
}

TypeId
GsnMessageHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GsnMessageHeader")
                            .SetParent<Header>()
                            .SetGroupName("Gsn")
                            .AddConstructor<GsnMessageHeader>();
    return tid;
}

TypeId
GsnMessageHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
GsnMessageHeader::Print(std::ostream& os) const
{
    os << "M_len=" << m_length << " D_ULA=" << m_destination << " S_ULA=" << m_source;
}

uint32_t
GsnMessageHeader::GetSerializedSize() const
{
    return gsn::MESSAGE_ADDRESS_BYTES;
}

void
GsnMessageHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_length);
    WriteTo(start, m_destination);
    WriteTo(start, m_source);
}

uint32_t
GsnMessageHeader::Deserialize(Buffer::Iterator start)
{
    m_length = start.ReadNtohU32();
    ReadFrom(start, m_destination);
    ReadFrom(start, m_source);
    return gsn::MESSAGE_ADDRESS_BYTES;
}

void
GsnMessageHeader::SetMessageLength(uint32_t len)
{
    m_length = len;
}

uint32_t
GsnMessageHeader::GetMessageLength() const
{
    return m_length;
}

void
GsnMessageHeader::SetDestination(Mac48Address ula)
{
    m_destination = ula;
}

Mac48Address
GsnMessageHeader::GetDestination() const
{
    return m_destination;
}

void
GsnMessageHeader::SetSource(Mac48Address ula)
{
    m_source = ula;
}

Mac48Address
GsnMessageHeader::GetSource() const
{
    return m_source;
}

uint32_t
GsnMessageHeader::PeekMessageLength(const uint8_t* data)
{
    return uint32_t(data[0]) << 24 | uint32_t(data[1]) << 16 | uint32_t(data[2]) << 8 |
           uint32_t(data[3]);
}

Mac48Address
GsnMessageHeader::PeekDestination(const uint8_t* data)
{
    Mac48Address ula;
    ula.CopyFrom(data + 4);
    return ula;
}

} // namespace ns3
