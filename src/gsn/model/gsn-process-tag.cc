/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-process-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GsnProcessTag);

GsnProcessTag::GsnProcessTag(uint16_t process, uint16_t inlineBytes)
    : m_process(process),
      m_inlineBytes(inlineBytes)
{
}

TypeId
GsnProcessTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GsnProcessTag")
                            .SetParent<Tag>()
                            .SetGroupName("Gsn")
                            .AddConstructor<GsnProcessTag>();
    return tid;
}

TypeId
GsnProcessTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
GsnProcessTag::GetSerializedSize() const
{
    return 4;
}

void
GsnProcessTag::Serialize(TagBuffer i) const
{
    i.WriteU16(m_process);
    i.WriteU16(m_inlineBytes);
}

void
GsnProcessTag::Deserialize(TagBuffer i)
{
    m_process = i.ReadU16();
    m_inlineBytes = i.ReadU16();
}

void
GsnProcessTag::Print(std::ostream& os) const
{
    os << "process=" << m_process << " inline=" << m_inlineBytes;
}

} // namespace ns3
