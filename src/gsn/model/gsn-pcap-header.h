/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnPcapHeader: the 4-byte pseudo-header in front of each GSN Message in pcap files of link
 * type LINKTYPE_USER2 (149): the Message's virtual channel and whether the traced endpoint
 * sent or received it. It is written into traces only, never onto the GSN wire.
 */
#ifndef GSN_PCAP_HEADER_H
#define GSN_PCAP_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Pseudo-header of a GSN Message record in a pcap file (LINKTYPE_USER2, 149).
 *
 * Four bytes in front of the Message (M_len, D_ULA, S_ULA, LLC/SNAP, payload):
 *
 *     byte 0: VC (0-3)
 *     byte 1: direction: 0 sent by the traced endpoint, 1 received by it
 *     bytes 2-3: reserved, 0
 *
 * tools/gsn.lua shows them as gsn.vc and gsn.direction.
 */
class GsnPcapHeader : public Header
{
  public:
    /// The pcap link type of Message records with this pseudo-header (LINKTYPE_USER2).
    static constexpr uint32_t LINK_TYPE = 149;
    /// Its size in bytes.
    static constexpr uint32_t SIZE = 4;

    /// Whether the traced endpoint sent or received the Message.
    enum Direction : uint8_t
    {
        SENT = 0,     ///< sent by the traced endpoint
        RECEIVED = 1, ///< received by it
    };

    /// \param vc the virtual channel \param direction sent or received
    explicit GsnPcapHeader(uint8_t vc = 0, Direction direction = SENT);

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \return the virtual channel
    uint8_t GetVc() const
    {
        return m_vc;
    }

    /// \param vc the virtual channel
    void SetVc(uint8_t vc)
    {
        m_vc = vc;
    }

    /// \return sent or received
    Direction GetDirection() const
    {
        return m_direction;
    }

    /// \param direction sent or received
    void SetDirection(Direction direction)
    {
        m_direction = direction;
    }

  private:
    uint8_t m_vc;          ///< virtual channel
    Direction m_direction; ///< sent or received
};

} // namespace ns3

#endif /* GSN_PCAP_HEADER_H */
