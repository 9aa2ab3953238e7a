/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMicropacket: the 40-byte unit of a GSN link (32 data bytes + 64 control bits) and its
 * exact wire encoding. It owns the field layout and the LCRC rule; it knows nothing about
 * links, Messages or time.
 */
#ifndef GSN_MICROPACKET_H
#define GSN_MICROPACKET_H

#include "gsn-constants.h"
#include "gsn-message-bytes.h"

#include "ns3/assert.h"
#include "ns3/packet.h"

#include <array>
#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup gsn
 * Micropacket TYPE codes (seed 000 Table 1-5).
 */
enum class GsnMicropacketType : uint8_t
{
    RESET = 0x2,          ///< resets the local link
    RESET_ACK = 0x3,      ///< reset done
    INITIALIZE = 0x4,     ///< receiver re-initialises (grants its credits)
    INITIALIZE_ACK = 0x5, ///< initialise done
    NULL_MP = 0x7,        ///< empty; carries RSEQ only
    DATA = 0x8,           ///< body of a Message
    HEADER = 0x9,         ///< first micropacket of a Message
    CREDIT_ONLY = 0xA,    ///< carries VCR/CR credits only
    ADMIN = 0xF,          ///< HIPPI-6400-SC management
};

/// \return a short name for a TYPE code ("Header", "Data", ..., "Reserved")
const char* GsnMicropacketTypeName(uint8_t type);

/// \return true if \p type is one of the defined TYPE codes
bool GsnIsDefinedMicropacketType(uint8_t type);

/**
 * \ingroup gsn
 * \brief One GSN micropacket: 32 data bytes and the control fields of seed 000 Table 1-4.
 *
 * Wire encoding (40 bytes): bytes 0-31 are the data; bytes 32-39 are the 64 control bits,
 * most significant bit first in the order of the seed's table (a proposal:
 * gsn-protocol-reference.rst, "Micropacket layout"): VC(2) TYPE(4) T(1) E(1) | VCR(2) CR(6) |
 * RSEQ(8) | TSEQ(8) | ECRC(16) | LCRC(16). LCRC covers the 32 data bytes and the first 48 control
 * bits (bytes 0-37).
 *
 * In memory the data is a reference: a Message's micropackets share its GsnMessageBytes,
 * so that a micropacket is small to buffer and copy, and their ECRCs are computed only when
 * read. Data(), GetEcrc() and Serialize() give the wire values either way.
 */
struct GsnMicropacket
{
    uint8_t vc{0};     ///< virtual channel 0-3
    uint8_t type{0};   ///< TYPE code (4 bits)
    bool tail{false};  ///< T: last of a Message
    bool error{false}; ///< E: error flag
    uint8_t vcr{0};    ///< VC the credits in cr apply to (reverse link)
    uint8_t cr{0};     ///< credits returned, 0-63 (reverse link)
    uint8_t rseq{0};   ///< last good TSEQ received on the reverse link
    uint8_t tseq{0};   ///< transmission sequence number
    uint16_t lcrc{0};  ///< link CRC (unless IsLcrcPending())

    GsnMicropacket() = default;

    /**
     * Simulation metadata, not on the wire: true while the LCRC has not been computed
     * because nothing could have changed the micropacket since its sender built it (no
     * error model on the way). Serialize() and LcrcIsGood() treat it as correctly sealed;
     * the receiver computes it only where a receive error model could corrupt the bits.
     * \return that flag
     */
    bool IsLcrcPending() const
    {
        return m_chunkFlags & LCRC_PENDING;
    }

    /// Mark the LCRC as sealed by the sender, to be computed only if needed.
    void SetLcrcPending()
    {
        m_chunkFlags |= LCRC_PENDING;
    }

    /// \return the 32 data bytes (zeros when none were set)
    const uint8_t* Data() const
    {
        return m_bytes.Get() ? m_bytes.Get()->GetChunk(Chunk()) : ZeroData();
    }

    /**
     * \return the 32 data bytes, writable: the micropacket gets its own copy first (the
     *         ECRC and LCRC it carried are kept, so that a change shows as corruption)
     */
    uint8_t* MutableData();

    /// \param data 32 bytes to carry (its own copy; the ECRC is left as it is)
    void SetData(const uint8_t* data);

    /**
     * Carry chunk \p k of a Message's bytes, with the Message's running ECRC through it
     * (computed only if someone reads it).
     * \param bytes the Message's bytes
     * \param k chunk index
     */
    void SetMessageChunk(Ptr<const GsnMessageBytes> bytes, uint32_t k)
    {
        NS_ASSERT(k < (1u << 30));
        m_bytes = GsnMessageBytesRef(std::move(bytes));
        m_chunkFlags = (m_chunkFlags & LCRC_PENDING) | ECRC_PENDING | k;
    }

    /// \return the Message bytes carried and chunk index, if SetMessageChunk() set them and
    ///         nothing replaced them since (null otherwise)
    const GsnMessageBytes* GetMessageBytes() const
    {
        return EcrcPending() ? m_bytes.Get() : nullptr;
    }

    /// \return the chunk index within GetMessageBytes()
    uint32_t GetChunk() const
    {
        return Chunk();
    }

    /// Simulation metadata, not on the wire: on the Header micropacket of a Message made in
    /// this model, that Message, so that the receiving endpoint can keep its ns-3 tags
    /// (FlowMonitor, VC tags). \return it, or null (also after a serialized path: an error
    /// model, MPI)
    Ptr<const Packet> GetOrigin() const
    {
        return EcrcPending() && Chunk() == 0 ? m_bytes.Get()->GetMessage() : nullptr;
    }

    /// \return ECRC: end-to-end CRC of the Message up to this micropacket
    uint16_t GetEcrc() const
    {
        return EcrcPending() ? m_bytes.Get()->GetEcrcThrough(Chunk()) : m_ecrc;
    }

    /// \param ecrc the ECRC to carry
    void SetEcrc(uint16_t ecrc)
    {
        m_ecrc = ecrc;
        m_chunkFlags &= ~ECRC_PENDING;
    }

    /// \return the TYPE as the enum (the value may be a reserved code)
    GsnMicropacketType GetType() const
    {
        return static_cast<GsnMicropacketType>(type);
    }

    /// \return true for the types that carry Message bytes (Header, Data)
    bool IsMessage() const
    {
        return type == uint8_t(GsnMicropacketType::HEADER) ||
               type == uint8_t(GsnMicropacketType::DATA);
    }

    /// \return true for the types that take a TSEQ and go through go-back-N
    bool IsSequenced() const;

    /// \return the LCRC this micropacket should carry, computed from its other fields
    uint16_t ComputeLcrc() const;

    /// Set lcrc from the other fields.
    void SealLcrc()
    {
        lcrc = ComputeLcrc();
        m_chunkFlags &= ~LCRC_PENDING;
    }

    /// \return true if lcrc matches the other fields (a pending LCRC is good by construction)
    bool LcrcIsGood() const
    {
        return IsLcrcPending() || lcrc == ComputeLcrc();
    }

    /**
     * Write the 40-byte wire form.
     * \param out 40 bytes
     */
    void Serialize(uint8_t* out) const;

    /**
     * Read the 40-byte wire form. Every bit pattern decodes (the fields have no invalid
     * values on their own); the caller checks LcrcIsGood() and the TYPE.
     * \param in 40 bytes
     * \return the micropacket
     */
    static GsnMicropacket Deserialize(const uint8_t* in);

    /// Field-by-field equality (data by value).
    bool operator==(const GsnMicropacket& o) const;

    /**
     * Whether this micropacket is the Data micropacket n places after \p first within one
     * Message, and alike in everything a buffer keeps: its chunk of the same Message bytes,
     * neither of them a Tail or flagged, with both check fields still to compute. (The link
     * fields, which the next link sets afresh, may differ.) See GsnMicropacketQueue.
     * \param first a Data micropacket \param n places after it
     * \return whether this one is first advanced by n chunks, as far as a buffer can tell
     */
    bool FollowsInMessage(const GsnMicropacket& first, uint32_t n) const
    {
        constexpr uint32_t both = ECRC_PENDING | LCRC_PENDING;
        return type == uint8_t(GsnMicropacketType::DATA) && first.type == type && !tail && !error &&
               !first.tail && !first.error && vc == first.vc && (m_chunkFlags & both) == both &&
               m_chunkFlags == first.m_chunkFlags + n && m_bytes.Get() == first.m_bytes.Get();
    }

    /// Become the next micropacket of the Message (see FollowsInMessage()): the next chunk.
    void AdvanceChunk()
    {
        NS_ASSERT(Chunk() < CHUNK_MASK);
        ++m_chunkFlags;
    }

    /// AdvanceChunk() \p n times.
    void AdvanceChunks(uint32_t n)
    {
        NS_ASSERT(Chunk() <= CHUNK_MASK - n);
        m_chunkFlags += n;
    }

    /**
     * The micropacket \p n slots after this one on a link, when those slots carry the
     * following micropackets of its Message with nothing else changed: chunk and TSEQ
     * advanced by n, no credits. (Runs and retransmission buffers keep such micropackets
     * as a count on this one: GsnMicropacketRun::AppendFollowing().)
     * \param n slots after this one \return that micropacket
     */
    GsnMicropacket FollowingOnLink(uint32_t n) const
    {
        GsnMicropacket mp = *this;
        mp.AdvanceChunks(n);
        mp.tseq = uint8_t(tseq + n);
        mp.vcr = 0;
        mp.cr = 0;
        return mp;
    }

    /// Let go of the Message bytes the micropacket refers to, leaving its other fields as
    /// they are (for storage about to be overwritten, see GsnRingBuffer).
    void Vacate()
    {
        m_bytes = GsnMessageBytesRef();
    }

  private:
    /// \return 32 zero bytes
    static const uint8_t* ZeroData();

    /// \return which chunk of m_bytes the data is
    uint32_t Chunk() const
    {
        return m_chunkFlags & CHUNK_MASK;
    }

    /// \param k the chunk of m_bytes the data is (the flags stay)
    void SetChunk(uint32_t k)
    {
        m_chunkFlags = (m_chunkFlags & ~CHUNK_MASK) | k;
    }

    /// \return whether the data is chunk Chunk() of a Message and the ECRC that Message's
    /// running ECRC through it, computed when read
    bool EcrcPending() const
    {
        return m_chunkFlags & ECRC_PENDING;
    }

    static constexpr uint32_t CHUNK_MASK = (1u << 30) - 1; ///< m_chunkFlags: the chunk
    static constexpr uint32_t ECRC_PENDING = 1u << 30;     ///< m_chunkFlags: see EcrcPending()
    static constexpr uint32_t LCRC_PENDING = 1u << 31;     ///< m_chunkFlags: see IsLcrcPending()

    // 24 bytes in all: a large fabric buffers hundreds of micropackets per port. (The chunk
    // and the flags share a word rather than bit-fields, so that a copy copies the word: a
    // micropacket is copied or moved several times per link it crosses.)
    uint16_t m_ecrc{0};         ///< ECRC, unless EcrcPending()
    uint32_t m_chunkFlags{0};   ///< chunk index and the two flags above
    GsnMessageBytesRef m_bytes; ///< where the data is; null: zeros
};

std::ostream& operator<<(std::ostream& os, const GsnMicropacket& mp);

} // namespace ns3

#endif /* GSN_MICROPACKET_H */
