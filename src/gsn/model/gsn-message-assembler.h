/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMessageAssembler: rebuilds the Messages of one virtual channel from accepted
 * micropackets at the final destination, checks their framing and ECRC, and says why it
 * refuses a malformed one. It never trusts a length from the wire to size a buffer.
 */
#ifndef GSN_MESSAGE_ASSEMBLER_H
#define GSN_MESSAGE_ASSEMBLER_H

#include "gsn-micropacket.h"

#include "ns3/packet.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * Why the final destination dropped (part of) a Message.
 */
enum class GsnRxDropReason : uint8_t
{
    DATA_WITHOUT_HEADER, ///< a Data micropacket with no Message open on its VC
    HEADER_IN_MESSAGE,   ///< a Header before the previous Message's Tail (that one is dropped)
    BAD_LENGTH,          ///< M_len too small to hold the LLC/SNAP header
    TOO_LONG,            ///< M_len above the VC's limit, or more micropackets than M_len
    TRUNCATED,           ///< Tail before M_len bytes arrived
    ECRC_ERROR,          ///< end-to-end CRC mismatch
    ERROR_FLAG,          ///< E bit set by an element on the path
    BAD_LLC_SNAP,        ///< not an LLC/SNAP header
    NOT_FOR_US,          ///< D_ULA is neither ours nor broadcast (and not promiscuous)
    NO_ARP,              ///< ARP/HARP on an interface that does not resolve (NeedsArp off)
    MALFORMED_ARP,       ///< ARP/HARP shorter than its header and address lengths say
    NO_RX_BUFFER,        ///< kernel path: the host adapter's receive pool was empty
    COUNT                ///< number of reasons
};

/// \return a short name of a drop reason
const char* GsnRxDropReasonName(GsnRxDropReason reason);

/**
 * \ingroup gsn
 * \brief Reassembles the Messages of one VC.
 */
class GsnMessageAssembler
{
  public:
    /// What Push() made of a micropacket.
    enum class Result
    {
        INCOMPLETE, ///< the Message continues
        COMPLETE,   ///< a Message is ready: TakeMessage()
        DROPPED,    ///< (part of) a Message was dropped: GetDropReason()
    };

    /// \param maxMessageLength largest M_len accepted on this VC
    explicit GsnMessageAssembler(uint64_t maxMessageLength = 0xFFFFFFFFull);

    /// \param maxMessageLength largest M_len accepted on this VC
    void SetMaxMessageLength(uint64_t maxMessageLength);

    /**
     * Take the next micropacket of this VC (Header or Data, already accepted by the link).
     * \param mp the micropacket
     * \return what happened
     */
    Result Push(const GsnMicropacket& mp);

    /**
     * Take \p n Data micropackets of this VC at once, \p first and the n - 1 that follow it
     * in its Message (GsnMicropacket::FollowsInMessage(), none a Tail), where n calls of
     * Push() would each find the next chunk of the open Message's own bytes with room for
     * it (each would return INCOMPLETE).
     * \param first the first
     * \param n how many
     * \return false, having taken none, where that is not so
     */
    bool PushSpan(const GsnMicropacket& first, uint32_t n);

    /// \return the completed Message (GsnMessageHeader, LLC/SNAP, payload); clears it
    Ptr<Packet> TakeMessage();

    /// \return why the last DROPPED happened
    GsnRxDropReason GetDropReason() const
    {
        return m_dropReason;
    }

    /**
     * \return true once after a Header arrived inside an open Message, which was then
     * dropped (reason HEADER_IN_MESSAGE)
     */
    bool TakeDisplaced();

    /// Forget any open Message (the link was reset). \return true if one was open
    bool Reset();

    /// \return true while a Message is open
    bool IsOpen() const
    {
        return m_state == State::OPEN;
    }

  private:
    /// Where the VC is between micropackets.
    enum class State
    {
        IDLE,    ///< waiting for a Header
        OPEN,    ///< collecting a Message
        DISCARD, ///< dropping the rest of a bad Message until its Tail
    };

    /// Largest byte buffer kept between Messages.
    static constexpr std::size_t KEEP_CAPACITY = 4096;

    /// Empty the byte buffer, giving back a large one.
    void ReleaseBytes();
    /// Drop the open Message for \p reason and discard until Tail unless \p atTail.
    Result Drop(GsnRxDropReason reason, bool atTail);
    /// Open a Message from its Header micropacket.
    Result Open(const GsnMicropacket& mp);
    /// Follow the running ECRC over \p mp, the next micropacket of the open Message.
    void CheckEcrc(const GsnMicropacket& mp);

    State m_state;                ///< where the VC is
    uint64_t m_maxLength;         ///< largest M_len accepted
    std::vector<uint8_t> m_bytes; ///< bytes of the open Message
    uint64_t m_expectedBytes;     ///< 16 + M_len of the open Message
    uint64_t m_have;              ///< bytes of the open Message received so far
    uint16_t m_ecrc;              ///< running ECRC (unless m_pristine)
    uint32_t m_chunks;            ///< micropackets of the open Message received so far
    /// The open Message's bytes while every micropacket so far was its sender's own chunk,
    /// in order, untouched: their ECRCs are right by construction, none is computed.
    Ptr<const GsnMessageBytes> m_pristine;
    bool m_ecrcBad;               ///< a mismatch was seen in the open Message
    bool m_displaced;             ///< the last Header displaced an open Message
    Ptr<Packet> m_complete;       ///< the last completed Message
    Ptr<const Packet> m_origin;   ///< the sender's Message of the open one (for its tags)
    GsnRxDropReason m_dropReason; ///< why the last drop happened
};

} // namespace ns3

#endif /* GSN_MESSAGE_ASSEMBLER_H */
