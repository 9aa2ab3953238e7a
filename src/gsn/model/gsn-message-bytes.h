/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMessageBytes: the data areas of micropackets, shared. The micropackets of one Message
 * point into one GsnMessageBytes instead of each carrying 32 bytes, and its bytes are read
 * out of the Message only when something looks at them (a trace, an error model, an
 * assembler without the sender's Message). Buffers across a large fabric then hold small
 * references, and a fabric nobody watches never copies a payload byte.
 */
#ifndef GSN_MESSAGE_BYTES_H
#define GSN_MESSAGE_BYTES_H

#include "gsn-constants.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief The data of one Message's micropackets (or of one micropacket from the wire).
 *
 * Chunk k is the data area of micropacket k: bytes 32k .. 32k+31 of the Message, the last
 * one padded with zeros. Chunk 0 (the Header, which switches route on) is read when the
 * object is made; the rest when first asked for.
 */
class GsnMessageBytes : public SimpleRefCount<GsnMessageBytes>
{
  public:
    /**
     * The bytes of a Message made in this model.
     * \param message the whole Message (at least one byte)
     */
    explicit GsnMessageBytes(Ptr<const Packet> message);

    /**
     * The data area of one micropacket that does not come from a Message of this model
     * (decoded from the wire, written by a test or by an Admin agent).
     * \param data 32 bytes
     */
    explicit GsnMessageBytes(const uint8_t* data);

    /// \return the Message these bytes are, or null for one micropacket's own data
    Ptr<const Packet> GetMessage() const
    {
        return m_message;
    }

    /// \param messageBytes a Message's length \return its chunks (micropackets)
    static uint32_t ChunksFor(uint64_t messageBytes)
    {
        return uint32_t((messageBytes + gsn::MICROPACKET_DATA_BYTES - 1) /
                        gsn::MICROPACKET_DATA_BYTES);
    }

    /// \return the number of chunks
    uint32_t GetChunkCount() const
    {
        return m_count;
    }

    /**
     * \param k chunk index, below GetChunkCount()
     * \return its 32 bytes
     */
    const uint8_t* GetChunk(uint32_t k) const
    {
        return k == 0 ? m_first.data() : MaterializedChunk(k);
    }

    /**
     * \param k chunk index, below GetChunkCount()
     * \return the running ECRC of the Message through chunk k (seed 000: the ECRC of a
     *         micropacket covers the Message's data up to and including it)
     */
    uint16_t GetEcrcThrough(uint32_t k) const;

    /// \return 32 writable bytes of a single micropacket's own data (not of a Message)
    uint8_t* GetOwnData();

  private:
    /// \param k a chunk past the first \return it, reading the Message's bytes if needed
    const uint8_t* MaterializedChunk(uint32_t k) const;

    Ptr<const Packet> m_message;                                ///< null: own data
    uint32_t m_count;                                           ///< chunks
    std::array<uint8_t, gsn::MICROPACKET_DATA_BYTES> m_first{}; ///< chunk 0
    mutable std::vector<uint8_t> m_bytes;                       ///< all chunks, once asked for
    mutable std::vector<uint16_t> m_ecrcs;                      ///< running ECRCs computed so far
};

/**
 * \ingroup gsn
 * \brief A counted reference to a GsnMessageBytes that can be moved.
 *
 * ns-3.37's Ptr has no move operations, so every move of a micropacket through the
 * buffers of a fabric counted the Message's reference up and down (about a tenth of the
 * run mode's instructions). This handle moves by taking the pointer over.
 */
class GsnMessageBytesRef
{
  public:
    GsnMessageBytesRef() = default;

    /// \param bytes the bytes to refer to (may be null)
    explicit GsnMessageBytesRef(Ptr<const GsnMessageBytes> bytes)
        : m_p(PeekPointer(bytes))
    {
        Acquire();
    }

    /// \param o another reference to the same bytes
    GsnMessageBytesRef(const GsnMessageBytesRef& o)
        : m_p(o.m_p)
    {
        Acquire();
    }

    /// \param o a reference that gives its bytes to this one and becomes null
    GsnMessageBytesRef(GsnMessageBytesRef&& o) noexcept
        : m_p(o.m_p)
    {
        o.m_p = nullptr;
    }

    /// \param o another reference \return this
    GsnMessageBytesRef& operator=(const GsnMessageBytesRef& o)
    {
        if (m_p != o.m_p)
        {
            Release();
            m_p = o.m_p;
            Acquire();
        }
        return *this;
    }

    /// \param o a reference that gives its bytes to this one and becomes null \return this
    GsnMessageBytesRef& operator=(GsnMessageBytesRef&& o) noexcept
    {
        if (this != &o)
        {
            Release();
            m_p = o.m_p;
            o.m_p = nullptr;
        }
        return *this;
    }

    ~GsnMessageBytesRef()
    {
        Release();
    }

    /// \return the bytes, or null
    const GsnMessageBytes* Get() const
    {
        return m_p;
    }

  private:
    void Acquire()
    {
        if (m_p)
        {
            m_p->Ref();
        }
    }

    void Release()
    {
        // Not the last reference (the common case): counted down inline. The last one goes
        // out of line, so that moving a reference does not pay for the deletion's call.
        if (m_p && m_p->GetReferenceCount() > 1)
        {
            m_p->Unref();
        }
        else if (m_p)
        {
            ReleaseLast(m_p);
        }
    }

    /// \param p bytes whose last reference goes \internal
    [[gnu::noinline, gnu::cold]] static void ReleaseLast(const GsnMessageBytes* p)
    {
        p->Unref();
    }

    const GsnMessageBytes* m_p{nullptr}; ///< the bytes, one reference counted here
};

} // namespace ns3

#endif /* GSN_MESSAGE_BYTES_H */
