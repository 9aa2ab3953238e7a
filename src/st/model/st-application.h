/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StApplication: what the ST applications share: the node's StProtocol, a connection's
 * memory (allocated, mapped, released with the connection), and the byte pattern that
 * sources write and sinks check. It owns no protocol state.
 */
#ifndef ST_APPLICATION_H
#define ST_APPLICATION_H

#include "ns3/application.h"
#include "ns3/st-protocol.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup st
 * \brief Base of the ST applications (server, bulk client, memory probe, ping-pong).
 */
class StApplication : public Application
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StApplication();
    ~StApplication() override;

    /**
     * The byte of the test pattern at \p offset of a transfer.
     * \param offset byte offset
     * \return the byte
     */
    static uint8_t PatternByte(uint64_t offset)
    {
        return static_cast<uint8_t>((offset * 131 + (offset >> 8) + 7) & 0xFF);
    }

    /// Fill \p len bytes at \p p with the pattern of offsets 0..len-1.
    static void FillPattern(uint8_t* p, uint64_t len);
    /// \return true if \p len bytes at \p p hold the pattern of offsets 0..len-1
    static bool CheckPattern(const uint8_t* p, uint64_t len);

  protected:
    void DoDispose() override;

    /// \return the node's ST (aborts if StHelper did not install it)
    Ptr<StProtocol> GetProtocol();

    /**
     * Allocate \p bytes for connection \p id and map them TX and RX from Bufx \p bufx.
     * \param id connection
     * \param bytes size
     * \param bufx first Bufx
     * \return the memory (owned here until ReleaseMemory or disposal), or null
     */
    uint8_t* MapMemory(st::StConnId id, uint64_t bytes, uint32_t bufx);
    /**
     * Map \p bytes of memory that holds no bytes for connection \p id, TX and RX from Bufx
     * \p bufx, checking that what arrives is zeros (StMemoryTable::NO_BYTES, CHECK).
     * \param id connection
     * \param bytes size
     * \param bufx first Bufx
     * \return true if mapped
     */
    bool MapNoBytes(st::StConnId id, uint64_t bytes, uint32_t bufx);
    /// Free the memory of connection \p id (after it closed).
    void ReleaseMemory(st::StConnId id);
    /// \return the Bufx entries \p bytes take on connection \p id
    uint32_t BufxCount(st::StConnId id, uint64_t bytes);

  private:
    Ptr<StProtocol> m_protocol;                                 ///< the node's ST
    std::multimap<st::StConnId, std::vector<uint8_t>> m_memory; ///< memory per connection
};

} // namespace ns3

#endif /* ST_APPLICATION_H */
