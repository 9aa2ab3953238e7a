/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-pcap-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GsnPcapHeader);

GsnPcapHeader::GsnPcapHeader(uint8_t vc, Direction direction)
    : m_vc(vc),
      m_direction(direction)
{
}

TypeId
GsnPcapHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GsnPcapHeader")
                            .SetParent<Header>()
                            .SetGroupName("Gsn")
                            .AddConstructor<GsnPcapHeader>();
    return tid;
}

TypeId
GsnPcapHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
GsnPcapHeader::GetSerializedSize() const
{
    return SIZE;
}

void
GsnPcapHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_vc);
    start.WriteU8(m_direction);
    start.WriteU16(0);
}

uint32_t
GsnPcapHeader::Deserialize(Buffer::Iterator start)
{
    m_vc = start.ReadU8();
    m_direction = start.ReadU8() == RECEIVED ? RECEIVED : SENT;
    start.ReadU16();
    return SIZE;
}

void
GsnPcapHeader::Print(std::ostream& os) const
{
    os << "VC " << unsigned(m_vc) << (m_direction == RECEIVED ? " received" : " sent");
}

} // namespace ns3
