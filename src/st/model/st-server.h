/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StServer: the responder side of the ST applications. It listens on a port and, for every
 * connection accepted, maps memory and keeps it posted: for writes (the sink of a bulk
 * write), for reads (the source of a bulk read), and as persistent regions (the target of
 * PUT/GET/FETCHOP). With Echo it writes every transfer it received back (the other half of
 * a ping-pong). It owns the memory of its connections; the protocol is the engine's.
 */
#ifndef ST_SERVER_H
#define ST_SERVER_H

#include "st-application.h"

#include "ns3/traced-callback.h"

#include <map>

namespace ns3
{

/**
 * \ingroup st
 * \brief ST responder: sink of writes, source of reads, persistent regions, echo.
 *
 * Memory of one connection: BufferSize bytes from Bufx 0 (received writes land there; reads
 * are served from it, filled with the test pattern), then RegionSize bytes exposed for
 * Regions RMRs. A PUT whose last 8 bytes hold its send time (nanoseconds, big-endian, as
 * StMemoryProbe writes them) fires PutReceived with its one-way latency.
 */
class StServer : public StApplication
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StServer();
    ~StServer() override;

    /// \return bytes received by writes
    uint64_t GetReceivedBytes() const
    {
        return m_rxBytes;
    }

    /// \return single-use transfers completed (either direction)
    uint64_t GetTransfers() const
    {
        return m_transfers;
    }

    /// \return received writes whose bytes were not the test pattern
    uint64_t GetCorrupt() const
    {
        return m_corrupt;
    }

    /// \return connections accepted
    uint32_t GetConnections() const
    {
        return m_accepted;
    }

    /// TracedCallback signature of a received transfer.
    typedef void (*TransferTracedCallback)(uint64_t bytes);
    /// TracedCallback signature of a received PUT.
    typedef void (*PutTracedCallback)(uint64_t bytes, Time latency);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void OnEvent(const st::StEvent& e);
    void Accepted(st::StConnId id);

    /// Memory of one connection.
    struct Conn
    {
        uint8_t* buffer{nullptr}; ///< the write/read buffer
        uint8_t* region{nullptr}; ///< the persistent region
        uint64_t regionLinear{0}; ///< its linear address
    };

    uint16_t m_port;                           ///< Port
    uint64_t m_bufferSize;                     ///< BufferSize
    uint64_t m_regionSize;                     ///< RegionSize
    uint32_t m_regions;                        ///< Regions
    bool m_echo;                               ///< Echo
    bool m_verify;                             ///< Verify
    bool m_noBytes;                            ///< NoBytes
    uint64_t m_patternErrors;                  ///< PatternErrors of the engine, last seen
    std::map<st::StConnId, Conn> m_conns;      ///< open connections
    uint64_t m_rxBytes;                        ///< bytes written to us
    uint64_t m_transfers;                      ///< transfers completed
    uint64_t m_corrupt;                        ///< pattern mismatches
    uint32_t m_accepted;                       ///< connections accepted
    TracedCallback<uint64_t> m_rxTrace;        ///< Rx
    TracedCallback<uint64_t, Time> m_putTrace; ///< PutReceived
};

} // namespace ns3

#endif /* ST_SERVER_H */
