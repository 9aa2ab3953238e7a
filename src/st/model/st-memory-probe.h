/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StMemoryProbe: a latency probe of ST persistent memory. It connects to an StServer, asks
 * for a region (RMR/MRA), then for Iterations rounds does a PUT (time-stamped, for the
 * server's one-way PutReceived), a GET and a FETCHOP increment, each waiting for the
 * previous, and reports the GET and FETCHOP round trips. It owns its buffer and its
 * statistics; the protocol is the engine's.
 */
#ifndef ST_MEMORY_PROBE_H
#define ST_MEMORY_PROBE_H

#include "st-client-application.h"

#include "ns3/ipv4-address.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief PUT/GET/FETCHOP latency probe against an StServer's region.
 *
 * Region layout: PUTs and GETs use the first Size bytes; the FETCHOP word is the first
 * 8-byte-aligned word after them (so RegionSize >= Size rounded up to 8, plus 8). A PUT
 * carries its send time in its last 8 bytes (ns, big-endian).
 */
class StMemoryProbe : public StClientApplication
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StMemoryProbe();
    ~StMemoryProbe() override;

    /// Summary of one kind of operation.
    struct Stats
    {
        uint64_t count{0}; ///< samples
        Time sum;          ///< total
        Time min;          ///< smallest
        Time max;          ///< largest

        /// \param t a sample
        void Add(Time t);
        /// \return the mean (0 if none)
        Time Mean() const;
    };

    /// \return GET round trips
    const Stats& GetGetStats() const
    {
        return m_get;
    }

    /// \return FETCHOP round trips
    const Stats& GetFetchOpStats() const
    {
        return m_fetch;
    }

    /// \return PUTs sent
    uint64_t GetPuts() const
    {
        return m_puts;
    }

    /// \return the last FETCHOP's old value
    uint64_t GetLastFetchValue() const
    {
        return m_lastValue;
    }

    /// \return rounds completed
    uint32_t GetRounds() const
    {
        return m_rounds;
    }

    /// TracedCallback signature of a latency sample.
    typedef void (*LatencyTracedCallback)(Time latency);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void OnEvent(const st::StEvent& e) override;
    void Round();
    /// \return where the old value of a FETCHOP lands in local memory (8-byte aligned)
    uint64_t FetchAt() const;
    /// \return the region offset of the FETCHOP word: the first 8-byte boundary after Size
    uint64_t WordAt() const;
    uint64_t m_regionSize;             ///< RegionSize
    uint32_t m_size;                   ///< Size
    uint32_t m_iterations;             ///< Iterations
    Time m_interval;                   ///< Interval
    uint32_t m_region;                 ///< remote region
    uint8_t* m_buffer;                 ///< local memory: PUT source, GET and FETCHOP destination
    uint32_t m_rounds;                 ///< rounds done
    uint64_t m_puts;                   ///< PUTs sent
    uint64_t m_lastValue;              ///< last FETCHOP old value
    Time m_sent;                       ///< when the pending GET/FETCHOP went out
    Stats m_get;                       ///< GET round trips
    Stats m_fetch;                     ///< FETCHOP round trips
    TracedCallback<Time> m_getTrace;   ///< GetLatency
    TracedCallback<Time> m_fetchTrace; ///< FetchOpLatency
};

} // namespace ns3

#endif /* ST_MEMORY_PROBE_H */
