/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnHostBus: the path between a GSN adapter and its host's memory (on an SGI Origin 2000:
 * the XIO port, the Hub and the node's memory). It owns the rates and latencies the adapter's
 * DMA engines and doorbells see, and how the two DMA engines share the memory. It moves no
 * data and schedules nothing: the engines ask it for rates and tell it when they are busy.
 */
#ifndef GSN_HOST_BUS_H
#define GSN_HOST_BUS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief The host memory path of a GSN adapter: rates, latencies and sharing.
 *
 * A DMA read (transmit) moves data at most at ReadRate, and its first data arrives
 * ReadLatency after the request; a DMA write (receive) is posted and visible in memory
 * WriteLatency after its last burst. Both directions share MemoryRate: while the other
 * engine is busy, an engine gets half of it. A rate of 0 means no limit.
 */
class GsnHostBus : public Object
{
  public:
    /// A DMA direction, as the host memory sees it.
    enum Direction
    {
        READ = 0,  ///< the adapter reads host memory (transmit)
        WRITE = 1, ///< the adapter writes host memory (receive)
    };

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnHostBus();
    ~GsnHostBus() override;

    /**
     * \param dir a direction
     * \param at when a transfer starts
     * \return the rate (bit/s) memory gives a transfer of \p dir starting at \p at: ReadRate
     *         for reads, and MemoryRate or half of it while the other direction is busy; 0
     *         for no limit
     */
    double GetRate(Direction dir, Time at) const;

    /**
     * Record that the engine of \p dir moves data until \p until.
     * \param dir the direction
     * \param until the end of its transfer
     */
    void NoteBusy(Direction dir, Time until);

    /// \return the latency of the first data of a DMA read
    Time GetReadLatency() const
    {
        return m_readLatency;
    }

    /// \return the time from the last DMA write burst to the data being visible in memory
    Time GetWriteLatency() const
    {
        return m_writeLatency;
    }

    /// \return the time a host store (a doorbell) takes to reach the adapter
    Time GetPioLatency() const
    {
        return m_pioLatency;
    }

  private:
    DataRate m_memoryRate;           ///< MemoryRate: shared by both directions (0: no limit)
    DataRate m_readRate;             ///< ReadRate: sustained DMA read rate (0: no limit)
    Time m_readLatency;              ///< ReadLatency
    Time m_writeLatency;             ///< WriteLatency
    Time m_pioLatency;               ///< PioLatency
    std::array<Time, 2> m_busyUntil; ///< per direction, the end of its last transfer
};

} // namespace ns3

#endif /* GSN_HOST_BUS_H */
