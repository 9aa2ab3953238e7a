/*
 * st-memory-region.h: the Bufx/Mx table of one connection. It owns the mapping from
 * (Bufx, Offset) and (Mx, Bufx, Offset) to the user memory the caller registered (st_map), and
 * the protection check: memory outside a mapping, or mapped without the needed ST_PIN_* flag,
 * resolves to nothing, so no operation can touch it. A mapping may hold no bytes (NO_BYTES):
 * length and protection only, read as zeros, so that transfers of any length cost no memory. It
 * does not know transfers or exposure (which blocks a CTS granted): that is the connection's job.
 * Plain C++17, no ns-3 header.
 */
#ifndef ST_MEMORY_REGION_H
#define ST_MEMORY_REGION_H

#include "st-counters.h"
#include "st-status.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief One st_map() registration.
 */
struct StMapping
{
    uint32_t handle{0};    //!< id returned to the caller (st_mhandle_t)
    int flags{0};          //!< StMemoryTable::PIN_TX | PIN_RX
    uint8_t* ptr{nullptr}; //!< first byte of user memory
    uint64_t len{0};       //!< bytes of user memory
    uint32_t bufxBase{0};  //!< first Bufx entry
    uint32_t bufxCount{0}; //!< Bufx entries covered
    uint16_t mx{0};        //!< Mx (only with PIN_RX; 0 = none)

    /// \return whether it holds no bytes (StMemoryTable::NO_BYTES)
    bool HoldsNoBytes() const
    {
        return (flags & 4) != 0;
    }
};

/**
 * \brief Where a range of memory resolved to: its mapping, and its bytes unless the mapping
 * holds none. False (no mapping) when the range is not mapped with the needed flags.
 */
struct StMemRef
{
    const StMapping* mapping{nullptr}; //!< the mapping holding the range
    uint8_t* ptr{nullptr};             //!< its first byte; nullptr for a mapping without bytes

    /// \return whether the range resolved
    explicit operator bool() const
    {
        return mapping != nullptr;
    }

    /// \return whether the range holds no bytes (read as zeros, written nowhere)
    bool HoldsNoBytes() const
    {
        return mapping != nullptr && mapping->HoldsNoBytes();
    }
};

/**
 * \brief The Bufx table (Bufsize = 2^n bytes per entry) and the Mx table of a connection.
 *
 * Local calls address memory linearly: address = Bufx * 2^Bufsize + Offset, and a range may
 * span the consecutive Bufx entries of one mapping. A received DATA names (Mx, Bufx, Offset)
 * and may not cross a Bufx boundary [C] INCITS337 scope (st-protocol-reference.rst, "Sequences in
 * short").
 */
class StMemoryTable
{
  public:
    static constexpr int PIN_TX = 1; //!< memory may be sent from (ST_PIN_TX) [C] IRIX TX=1
    static constexpr int PIN_RX =
        2; //!< memory may be written by the peer (ST_PIN_RX) [C] IRIX RX=2
    /// The mapping holds no bytes: length and protection only; sent from, it reads as zeros,
    /// written to, it keeps nothing (an extension of this implementation, not in the draft).
    static constexpr int NO_BYTES = 4;
    /// With NO_BYTES and PIN_RX: check that every byte written to the mapping is zero, what a
    /// mapping without bytes sends (StStat::PatternErrors counts the others).
    static constexpr int CHECK = 8;
    static constexpr uint16_t MAX_MX = 4095;   //!< SGI's adapter: 12-bit Mx [C] IRIX-impl
    static constexpr uint8_t MIN_BUFSIZE = 8;  //!< Bufsize below 2^8 not allowed [C] IRIX-impl
    static constexpr uint8_t MAX_BUFSIZE = 31; //!< Offset is a 32-bit field

    /// Set log2 of the Bufx entry size. Allowed only while nothing is mapped.
    StStatus SetBufsize(uint8_t log2);

    /// log2 of the Bufx entry size.
    uint8_t GetBufsize() const
    {
        return m_bufsize;
    }

    /// Restrict mappings to Bufx [base, base + count) (ST_OPT_BUFX_BASE / _COUNT).
    StStatus SetBufxRange(uint32_t base, uint32_t count);

    /// First Bufx reserved for the connection.
    uint32_t GetBufxBase() const
    {
        return m_bufxBase;
    }

    /// Number of Bufx entries reserved for the connection.
    uint32_t GetBufxCount() const
    {
        return m_bufxCount;
    }

    /**
     * \brief Register user memory (st_map).
     * \param flags PIN_TX and/or PIN_RX; NO_BYTES for memory without bytes (then \p ptr is
     *        nullptr), CHECK with it to check what arrives
     * \param ptr first byte
     * \param len bytes, or UINT64_MAX to derive it from \p bufxCount
     * \param bufxBase first Bufx entry
     * \param bufxCount entries, or -1 to derive it from \p len; if both are given they must agree
     * \param[out] handle the registration id
     * \param[out] mx the Mx of an RX mapping (0 otherwise)
     */
    StStatus Map(int flags,
                 uint8_t* ptr,
                 uint64_t len,
                 uint32_t bufxBase,
                 int64_t bufxCount,
                 uint32_t& handle,
                 uint16_t& mx);

    /// Forget a registration (st_unmap).
    StStatus Unmap(uint32_t handle);

    /// Number of registrations.
    std::size_t GetMappingCount() const
    {
        return m_maps.size();
    }

    /// Linear address of (bufx, offset).
    uint64_t Linear(uint32_t bufx, uint64_t offset) const
    {
        return (static_cast<uint64_t>(bufx) << m_bufsize) + offset;
    }

    /**
     * \brief Local memory for a linear range, or nullptr (also for memory without bytes).
     * \param linear first byte (Bufx * 2^Bufsize + Offset)
     * \param len bytes (the range must lie inside one mapping)
     * \param needFlags the PIN_* flags the mapping must have
     */
    uint8_t* Resolve(uint64_t linear, uint64_t len, int needFlags) const;

    /**
     * \brief The mapping and bytes of a linear range (Resolve() that also finds memory
     * without bytes).
     * \param linear first byte
     * \param len bytes (inside one mapping)
     * \param needFlags the PIN_* flags the mapping must have
     */
    StMemRef Lookup(uint64_t linear, uint64_t len, int needFlags) const;

    /// The RX mapping holding a linear range (for the Mx of a CTS/MRA), or nullptr.
    const StMapping* FindRx(uint64_t linear, uint64_t len) const;

    /**
     * \brief Memory named by a received DATA, or nullptr.
     * \param mx the Mx of the op
     * \param bufx the Bufx of the op
     * \param offset the Offset of the op
     * \param len the payload length
     * \param[out] why OutsideMapping when nullptr is returned
     */
    uint8_t* ResolveIncoming(uint16_t mx,
                             uint32_t bufx,
                             uint32_t offset,
                             uint64_t len,
                             StRxVerdict& why) const;

    /**
     * \brief The mapping and bytes named by a received DATA (ResolveIncoming() that also
     * finds memory without bytes).
     * \param mx the Mx of the op
     * \param bufx the Bufx of the op
     * \param offset the Offset of the op
     * \param len the payload length
     * \param[out] why OutsideMapping when nothing resolved
     */
    StMemRef LookupIncoming(uint16_t mx,
                            uint32_t bufx,
                            uint32_t offset,
                            uint64_t len,
                            StRxVerdict& why) const;

  private:
    /// The mapping that owns Mx \p mx, or nullptr.
    const StMapping* FindMx(uint16_t mx) const;

    uint8_t m_bufsize{14};            //!< log2 of a Bufx entry
    uint32_t m_bufxBase{0};           //!< first Bufx the connection may use
    uint32_t m_bufxCount{0xFFFFFFFF}; //!< Bufx entries the connection may use
    uint32_t m_nextHandle{1};         //!< next registration id
    std::vector<StMapping> m_maps;    //!< registrations, oldest first
};

} // namespace st
} // namespace ns3

#endif /* ST_MEMORY_REGION_H */
