/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMessageHeader: the addressing bytes that open every GSN Message, in the Header
 * micropacket before the LLC/SNAP header: M_len(4) D_ULA(6) S_ULA(6). The layout is the
 * project's proposal (gsn-protocol-reference.rst, "Message and Header micropacket format");
 * this class is the only place that knows it.
 */
#ifndef GSN_MESSAGE_HEADER_H
#define GSN_MESSAGE_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief First 16 bytes of a GSN Message: Message length and the two ULAs.
 *
 * M_len counts the bytes after this header (the LLC/SNAP header and the upper-layer
 * payload), big-endian.
 */
class GsnMessageHeader : public Header
{
  public:
    GsnMessageHeader();

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param len bytes after this header
    void SetMessageLength(uint32_t len);
    /// \return bytes after this header
    uint32_t GetMessageLength() const;
    /// \param ula the final destination
    void SetDestination(Mac48Address ula);
    /// \return the final destination
    Mac48Address GetDestination() const;
    /// \param ula the originating source
    void SetSource(Mac48Address ula);
    /// \return the originating source
    Mac48Address GetSource() const;

    /**
     * Read M_len from the first bytes of a Header micropacket's data area.
     * \param data at least 4 bytes
     * \return M_len
     */
    static uint32_t PeekMessageLength(const uint8_t* data);

    /**
     * Read D_ULA from the first bytes of a Header micropacket's data area.
     * \param data at least 10 bytes
     * \return D_ULA
     */
    static Mac48Address PeekDestination(const uint8_t* data);

  private:
    uint32_t m_length;          ///< M_len
    Mac48Address m_destination; ///< D_ULA
    Mac48Address m_source;      ///< S_ULA
};

} // namespace ns3

#endif /* GSN_MESSAGE_HEADER_H */
