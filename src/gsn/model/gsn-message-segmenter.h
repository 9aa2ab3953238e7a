/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMessageSegmenter: cuts one Message (address bytes, LLC/SNAP, payload) into its Header
 * and Data micropackets, in order, with the running ECRC. The micropackets share the
 * Message's GsnMessageBytes; the segmenter knows nothing about credits, links or time.
 */
#ifndef GSN_MESSAGE_SEGMENTER_H
#define GSN_MESSAGE_SEGMENTER_H

#include "gsn-micropacket.h"

#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Produces the micropackets of one Message, one at a time.
 */
class GsnMessageSegmenter
{
  public:
    GsnMessageSegmenter();

    /**
     * Start a new Message.
     * \param message the whole Message: GsnMessageHeader, LLC/SNAP, payload
     * \param vc the virtual channel that carries it
     */
    void Start(Ptr<const Packet> message, uint8_t vc);

    /// Forget the current Message (the link was reset).
    void Abort()
    {
        m_next = m_count;
        m_message = nullptr;
        m_bytes = nullptr;
    }

    /// \return true while micropackets of the current Message remain
    bool IsActive() const
    {
        return m_next < m_count;
    }

    /// \return the index of the next micropacket of the current Message (0: its Header)
    uint32_t GetNext() const
    {
        return m_next;
    }

    /// \return micropackets of the current Message not yet produced
    uint32_t GetRemaining() const
    {
        return m_count - m_next;
    }

    /// \return the Message being sent, or last sent (null when none was started)
    Ptr<const Packet> GetMessage() const
    {
        return m_message;
    }

    /**
     * Produce the next micropacket: data, VC, TYPE (Header or Data), Tail and ECRC. The link
     * fields (credits, sequence numbers, LCRC) are left for the link to fill.
     * \param mp written
     */
    void Next(GsnMicropacket& mp);

    /**
     * Produce up to \p max Data micropackets at once, none the Tail: as many calls of
     * Next(), the first into \p first (a default-constructed micropacket), the others
     * following it (GsnMicropacket::AdvanceChunk()).
     * \param max how many at most
     * \param first written with the first, if any
     * \return how many (0 before the Header has gone or at the Tail)
     */
    uint32_t NextData(uint32_t max, GsnMicropacket& first);

    /**
     * \param messageBytes Message bytes from the start of the Header micropacket
     * \return micropackets a Message of that size takes
     */
    static uint32_t MicropacketCount(uint64_t messageBytes);

  private:
    Ptr<const Packet> m_message;        ///< the Message being sent
    Ptr<const GsnMessageBytes> m_bytes; ///< its bytes, until its Tail is produced
    uint32_t m_count;                   ///< its micropackets
    uint32_t m_next;                    ///< index of the next micropacket
    uint8_t m_vc;                       ///< its virtual channel
};

} // namespace ns3

#endif /* GSN_MESSAGE_SEGMENTER_H */
