/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnDmaEngine: one DMA engine of a GSN adapter (seed 003's NIC has two: one for transmit,
 * which reads host memory, one for receive, which writes it). It owns the engine's burst
 * size, its time between bursts and its own rate, and serves transfers one after another.
 * A transfer is computed in closed form when it starts (GsnDmaTransfer): the engine
 * schedules no event, and nothing is done per micropacket or per burst.
 */
#ifndef GSN_DMA_ENGINE_H
#define GSN_DMA_ENGINE_H

#include "gsn-host-bus.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief The timing of one DMA transfer: bursts of equal duration after a start latency.
 *
 * Burst k (0-based) of a transfer is in place at first + k * burstTime, except that the
 * last one, which may be shorter, ends at end (the engine waits no longer than its bytes
 * take). Everything a caller asks is computed from these numbers.
 */
struct GsnDmaTransfer
{
    Time start{0};          ///< the engine took the transfer
    Time first{0};          ///< the first burst is in place
    Time burstTime{0};      ///< duration of each full burst (the gap included)
    Time end{0};            ///< the last byte is in place
    uint64_t bytes{0};      ///< bytes moved
    uint32_t burstBytes{1}; ///< bytes per full burst

    /**
     * \param n a number of bytes from the start of the transfer (at most bytes)
     * \return when the first \p n bytes are in place (start if \p n is 0)
     */
    Time TimeFor(uint64_t n) const;

    /**
     * \param t a time
     * \return the bytes in place at \p t (whole bursts)
     */
    uint64_t BytesAt(Time t) const;
};

/**
 * \ingroup gsn
 * \brief A DMA engine: transfers served in order, each as bursts.
 *
 * A burst of BurstBytes takes BurstGap (loading the next scatter/gather element: one per
 * page of host memory) plus its bytes at the lower of the engine's Rate and what the host
 * bus gives its direction when the transfer starts (GsnHostBus::GetRate()). A read waits
 * the bus's ReadLatency for its first data; a write is visible in memory the bus's
 * WriteLatency after its last burst.
 */
class GsnDmaEngine : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnDmaEngine();
    ~GsnDmaEngine() override;

    /**
     * \param bus the host bus the engine moves data on
     * \param dir which way
     */
    void SetBus(Ptr<GsnHostBus> bus, GsnHostBus::Direction dir);

    /**
     * Take a transfer: it starts when the engine is free, not before \p earliest.
     * \param earliest when it may start
     * \param bytes its length
     * \param dataComplete when the last of its bytes reaches the engine (a receive
     *        transfer follows the link: its last burst cannot end before that byte is
     *        there); Time(0) when all are there at once
     * \return its timing
     */
    GsnDmaTransfer Start(Time earliest, uint64_t bytes, Time dataComplete = Time(0));

    /**
     * \param bytes a transfer's length
     * \return how long it takes alone on an idle engine and bus (start latency included)
     */
    Time Duration(uint64_t bytes) const;

    /// \return when the engine finishes what it has taken
    Time GetFreeAt() const
    {
        return m_freeAt;
    }

    /// \return the burst size
    uint32_t GetBurstBytes() const
    {
        return m_burstBytes;
    }

    /// \return bytes moved so far (all transfers taken)
    uint64_t GetBytes() const
    {
        return m_bytes;
    }

    /// \return transfers taken
    uint64_t GetTransfers() const
    {
        return m_transfers;
    }

    /// TracedCallback signature of a transfer: its start, its end and its bytes.
    typedef void (*TransferTracedCallback)(Time start, Time end, uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    /// \param start when a transfer starts \return the duration of one full burst
    Time BurstTime(Time start) const;

    DataRate m_rate;                                      ///< Rate: the engine's own limit
    uint32_t m_burstBytes;                                ///< BurstBytes
    Time m_burstGap;                                      ///< BurstGap
    Ptr<GsnHostBus> m_bus;                                ///< the host bus
    GsnHostBus::Direction m_dir;                          ///< read or write
    Time m_freeAt;                                        ///< end of the last transfer taken
    uint64_t m_bytes;                                     ///< bytes moved
    uint64_t m_transfers;                                 ///< transfers taken
    TracedCallback<Time, Time, uint64_t> m_transferTrace; ///< Transfer
};

} // namespace ns3

#endif /* GSN_DMA_ENGINE_H */
