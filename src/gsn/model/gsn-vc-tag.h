/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnVcTag: a packet tag by which an upper layer (ST's data channels, a traffic generator)
 * picks the virtual channel of its Message, overriding the device's per-EtherType choice.
 */
#ifndef GSN_VC_TAG_H
#define GSN_VC_TAG_H

#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Chooses the GSN virtual channel (0-3) that carries a packet.
 */
class GsnVcTag : public Tag
{
  public:
    /// \param vc the virtual channel
    explicit GsnVcTag(uint8_t vc = 0);

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    /// \param vc the virtual channel
    void SetVc(uint8_t vc);
    /// \return the virtual channel
    uint8_t GetVc() const;

  private:
    uint8_t m_vc; ///< the virtual channel
};

} // namespace ns3

#endif /* GSN_VC_TAG_H */
