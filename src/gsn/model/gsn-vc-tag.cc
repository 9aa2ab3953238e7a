/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-vc-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GsnVcTag);

GsnVcTag::GsnVcTag(uint8_t vc)
    : m_vc(vc)
{
}

TypeId
GsnVcTag::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnVcTag").SetParent<Tag>().SetGroupName("Gsn").AddConstructor<GsnVcTag>();
    return tid;
}

TypeId
GsnVcTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
GsnVcTag::GetSerializedSize() const
{
    return 1;
}

void
GsnVcTag::Serialize(TagBuffer i) const
{
    i.WriteU8(m_vc);
}

void
GsnVcTag::Deserialize(TagBuffer i)
{
    m_vc = i.ReadU8();
}

void
GsnVcTag::Print(std::ostream& os) const
{
    os << "vc=" << unsigned(m_vc);
}

void
GsnVcTag::SetVc(uint8_t vc)
{
    m_vc = vc;
}

uint8_t
GsnVcTag::GetVc() const
{
    return m_vc;
}

} // namespace ns3
