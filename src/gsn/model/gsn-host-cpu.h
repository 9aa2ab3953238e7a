/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnHostCpu: the host processor that runs the gsn# driver, the kernel's protocol stack and
 * the ST library, as far as a GSN adapter sees it. It owns the software costs per operation
 * (system call, per-packet protocol work, copies, checksums, interrupt entry, posting an
 * OS-bypass command, polling a completion) and serves them one after another, so that a
 * busy processor delays what comes next. It knows nothing of packets; the adapter asks it.
 */
#ifndef GSN_HOST_CPU_H
#define GSN_HOST_CPU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief The host processor of a GSN endpoint: costs per operation, served in order.
 *
 * The kernel path (IP and HARP through the gsn# driver) pays a system call, the protocol's
 * and driver's work per packet, a copy between the user's buffer and the kernel's, and a
 * checksum, on each side; a received packet also pays its share of an interrupt. The
 * OS-bypass path (ST, and raw Messages) pays only for writing a command and ringing the
 * doorbell, and for seeing a completion in memory. A rate of 0 means the work costs
 * nothing.
 */
class GsnHostCpu : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnHostCpu();
    ~GsnHostCpu() override;

    /**
     * Run work on the processor: it starts when the processor is free, not before
     * \p earliest.
     * \param earliest when it may start
     * \param cost how long it takes
     * \return when it ends
     */
    Time Run(Time earliest, Time cost);

    /// \param bytes a packet's length \return what sending it on the kernel path costs
    Time KernelTxCost(uint64_t bytes) const;
    /// \param bytes a packet's length \return what receiving it on the kernel path costs
    Time KernelRxCost(uint64_t bytes) const;

    /// \return what posting one OS-bypass command costs (the doorbell included)
    Time GetBypassPostTime() const
    {
        return m_bypassPost;
    }

    /// \return what seeing one OS-bypass completion costs
    Time GetBypassPollTime() const
    {
        return m_bypassPoll;
    }

    /// \return what entering and leaving the interrupt handler costs
    Time GetInterruptTime() const
    {
        return m_interrupt;
    }

    /// \return what reclaiming one sent buffer on the kernel path costs
    Time GetTxCompletionTime() const
    {
        return m_txCompletion;
    }

    /// \return time spent busy so far
    Time GetBusyTime() const
    {
        return m_busy;
    }

    /// \return when the processor finishes what it has taken
    Time GetFreeAt() const
    {
        return m_freeAt;
    }

    /// TracedCallback signature of work: its start and its duration.
    typedef void (*WorkTracedCallback)(Time start, Time duration);

  private:
    /// \param bytes a length \param rate bytes per second of the work (0: free) \return time
    static Time PerByte(uint64_t bytes, const DataRate& rate);

    Time m_syscall;                         ///< SystemCallTime
    Time m_kernelTxPacket;                  ///< KernelTxPacketTime
    Time m_kernelRxPacket;                  ///< KernelRxPacketTime
    DataRate m_copyRate;                    ///< CopyRate
    DataRate m_checksumRate;                ///< ChecksumRate
    Time m_interrupt;                       ///< InterruptTime
    Time m_txCompletion;                    ///< TxCompletionTime
    Time m_bypassPost;                      ///< BypassPostTime
    Time m_bypassPoll;                      ///< BypassPollTime
    Time m_freeAt;                          ///< end of the last work taken
    Time m_busy;                            ///< total busy time
    TracedCallback<Time, Time> m_workTrace; ///< Work
};

} // namespace ns3

#endif /* GSN_HOST_CPU_H */
