/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnHostAdapter: the host side of a GSN endpoint, between the protocol stacks and the GSN
 * port (what seed 003's driver and NIC control program do, and the DMA, host bus and
 * interrupts under them). It owns the process table and the command queues with their
 * doorbells, the firmware's round-robin choice of the next command, the timing of every
 * Message through host processor, firmware and DMA on both paths (the kernel path of the gsn#
 * driver for IP and HARP, the OS-bypass path for ST and raw Messages), interrupt handling
 * and the kernel's receive buffer pool. It holds no Message: the GsnNetDevice keeps its
 * queues and asks the adapter when a Message, or its next micropacket, may go, and hands it
 * each received Message to deliver when the host has it. It works per operation and per
 * DMA transfer, never per micropacket.
 */
#ifndef GSN_HOST_ADAPTER_H
#define GSN_HOST_ADAPTER_H

#include "gsn-constants.h"
#include "gsn-dma-engine.h"
#include "gsn-host-bus.h"
#include "gsn-host-cpu.h"
#include "gsn-interrupt-coalescer.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Counters of a host adapter.
 */
struct GsnHostAdapterCounters
{
    uint64_t kernelTx{0};      ///< Messages sent on the kernel path
    uint64_t bypassTx{0};      ///< Messages sent on the OS-bypass path
    uint64_t kernelRx{0};      ///< Messages delivered on the kernel path
    uint64_t bypassRx{0};      ///< Messages delivered on the OS-bypass path
    uint64_t rxNoBuffer{0};    ///< kernel-path Messages dropped: the receive pool was empty
    uint64_t firmwareOps{0};   ///< commands the firmware took
    uint64_t registrations{0}; ///< processes registered
};

/**
 * \ingroup gsn
 * \brief The host side of a GSN endpoint: driver, command queues, firmware, DMA, interrupts.
 *
 * Transmit. A Message accepted by the device costs the host processor its path's work
 * (kernel: system call, protocol and driver, copy, checksum; OS-bypass: writing a command),
 * then its doorbell reaches the adapter after the bus's PioLatency. The firmware takes
 * commands one at a time, FirmwareTxTime each (plus a descriptor fetch, ReadLatency, on the
 * kernel path, whose descriptors are in host memory), choosing among the command queues in
 * two-level round robin: first among processes (entry 0 is the kernel driver's queue),
 * then among the VCs of the chosen process, always the oldest Message of a VC first. The
 * transmit DMA engine then reads the Message from host memory; its micropackets may go on
 * the link only as the bursts holding them are in the adapter. A kernel-path Message's
 * completion interrupts the host, which reclaims its buffer.
 *
 * Receive. The firmware takes each Message's header (FirmwareRxTime), the receive DMA
 * engine writes it to host memory as it arrives, and then: on the OS-bypass path the
 * process sees the completion (BypassPollTime) and the Message reaches the protocol; on the
 * kernel path the Message needs a buffer of the receive pool (RxBufferPoolSize; none left:
 * it is dropped), its completion raises a (coalesced) interrupt, and the handler's work
 * delivers it.
 */
class GsnHostAdapter : public Object
{
  public:
    /// The two paths through the host.
    enum Path
    {
        KERNEL = 0, ///< IP, ARP/HARP: the gsn# driver in the kernel
        BYPASS = 1, ///< ST and raw Messages: user-level command queues, DMA to mapped memory
    };

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnHostAdapter();
    ~GsnHostAdapter() override;

    /**
     * \param protocolNumber an EtherType
     * \return the path its Messages take: the kernel path for IPv4, ARP/HARP and IPv6, the
     *         OS-bypass path for the others (ST, raw Messages)
     */
    static Path PathOf(uint16_t protocolNumber);

    /// \return the profile the adapter was configured from (informational)
    const std::string& GetProfile() const
    {
        return m_profile;
    }

    // --- parts -----------------------------------------------------------------------------
    /// \return the host bus
    Ptr<GsnHostBus> GetBus() const
    {
        return m_bus;
    }

    /// \return the transmit DMA engine
    Ptr<GsnDmaEngine> GetTxDma() const
    {
        return m_txDma;
    }

    /// \return the receive DMA engine
    Ptr<GsnDmaEngine> GetRxDma() const
    {
        return m_rxDma;
    }

    /// \return the host processor
    Ptr<GsnHostCpu> GetCpu() const
    {
        return m_cpu;
    }

    /// \return the interrupt coalescer
    Ptr<GsnInterruptCoalescer> GetInterrupts() const
    {
        return m_interrupts;
    }

    /// \return the counters
    const GsnHostAdapterCounters& GetCounters() const
    {
        return m_counters;
    }

    // --- processes (OS-bypass) ------------------------------------------------------------
    /**
     * Register a process: give it an entry of the process table and its own command queue
     * (the driver's New_Process of seed 003). Its first command waits for the registration
     * to complete (ProcessRegistrationTime).
     * \return the entry (1 to MaxProcesses), or 0 if the table is full (its Messages then
     *         go through the driver's queue)
     */
    uint16_t RegisterProcess();

    /// \param process an entry RegisterProcess() gave \return whether it is registered
    bool IsRegistered(uint16_t process) const;

    /// \param process an entry to free (Delete_Process)
    void UnregisterProcess(uint16_t process);

    /// \return the entry of the process that carries untagged OS-bypass Messages
    uint16_t GetDefaultProcess();

    // --- the device's side ---------------------------------------------------------------
    /**
     * \param kick what the adapter calls when a Message or micropacket it held back is
     *        ready (the device's port starts transmitting if idle)
     */
    void SetTransmitKick(Callback<void> kick);

    /**
     * The device accepted a Message on \p vc (in the order of its VC queue).
     * \param vc its VC
     * \param bytes its length from the Header micropacket's first byte
     * \param protocolNumber its EtherType
     * \param process the process table entry of its command queue (OS-bypass path)
     * \param inlineBytes bytes at its start the adapter writes itself (the addressing and
     *        LLC/SNAP from the descriptor, and on the OS-bypass path what the command holds,
     *        such as ST's header): the DMA reads only the rest from host memory
     */
    void EnqueueTx(uint8_t vc,
                   uint32_t bytes,
                   uint16_t protocolNumber,
                   uint16_t process,
                   uint32_t inlineBytes);

    /**
     * \param vc a VC with a Message queued and none being sent
     * \param slot the slot the link chooses for
     * \return whether the first micropacket of the oldest Message of \p vc is in the
     *         adapter by \p slot
     */
    bool IsHeadReady(uint8_t vc, const Time& slot);

    /// The oldest Message of \p vc starts on the link. \param vc its VC
    void StartSending(uint8_t vc);

    /**
     * \param vc a VC whose Message is being sent
     * \param index the micropacket the link wants next (0 = Header)
     * \param slot the slot the link chooses for
     * \return whether it is in the adapter by \p slot
     */
    bool IsNextReady(uint8_t vc, uint32_t index, const Time& slot);

    /**
     * \param vc a VC whose Message is being sent
     * \param index the first micropacket asked for
     * \param slot the slot of the first
     * \return how many micropackets from \p index on are in the adapter by \p slot
     */
    uint32_t ReadyFrom(uint8_t vc, uint32_t index, const Time& slot) const;

    /**
     * \param vc a VC
     * \param index the micropacket the link wants next of the Message being sent, or
     *        UINT32_MAX for the first micropacket of the oldest queued one
     * \return when it is in the adapter (Time::Max() if not known yet)
     */
    Time NextReadyTime(uint8_t vc, uint32_t index) const;

    /// The link was reset and dropped the Message being sent on \p vc. \param vc the VC
    void AbortSending(uint8_t vc);

    /**
     * A Message arrived whole (its Tail now) and is for this host.
     * \param vc its VC
     * \param bytes its length from the Header micropacket's first byte
     * \param protocolNumber its EtherType
     * \param headerAt when its Header micropacket arrived
     * \param deliver hands it to the protocols, called when the host has it
     * \return false if it was dropped (kernel path, receive pool empty)
     */
    bool Receive(uint8_t vc,
                 uint32_t bytes,
                 uint16_t protocolNumber,
                 Time headerAt,
                 Callback<void> deliver);

    /// TracedCallback signature of a transmit operation: VC, bytes, path, when its doorbell
    /// reached the adapter, when its DMA started and ended.
    typedef void (*TxTracedCallback)(uint8_t vc,
                                     uint32_t bytes,
                                     uint8_t path,
                                     Time posted,
                                     Time dmaStart,
                                     Time dmaEnd);
    /// TracedCallback signature of a delivery: bytes, path, and the time from the Header's
    /// arrival to the protocol having it.
    typedef void (*RxTracedCallback)(uint32_t bytes, uint8_t path, Time latency);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /// Where a transmit operation stands.
    enum class TxState : uint8_t
    {
        HOST,     ///< the host processor works on it, or its doorbell is on the way
        QUEUED,   ///< in its command queue, waiting for the firmware
        FIRMWARE, ///< the firmware works on it
        READY,    ///< its DMA is under way (or done)
    };

    /// A Message queued for transmission, as the adapter sees it.
    struct TxOp
    {
        uint64_t id{0};               ///< sequence number
        uint32_t bytes{0};            ///< length
        uint32_t inlineBytes{0};      ///< bytes the adapter writes itself (not read by DMA)
        Path path{KERNEL};            ///< path
        uint16_t process{0};          ///< command queue (0 = the driver's)
        TxState state{TxState::HOST}; ///< where it stands
        Time posted{0};               ///< doorbell seen by the adapter
        GsnDmaTransfer dma;           ///< its DMA once READY
    };

    /// A completion the interrupt handler will see.
    struct Completion
    {
        bool rx{false};         ///< a received Message (else a sent one)
        uint32_t bytes{0};      ///< its length
        Time headerAt{0};       ///< (received) when its Header arrived
        Callback<void> deliver; ///< (received) what hands it up
    };

    /// The command of Message \p id on \p vc reached the adapter.
    void CommandArrives(uint8_t vc, uint64_t id);
    /// Give the firmware its next command, if it is idle and one is waiting.
    void RunFirmware();
    /// The firmware finished the command of Message \p id on \p vc.
    void FirmwareDone(uint8_t vc, uint64_t id);
    /// \return the op \p id of \p vc, or nullptr
    TxOp* FindOp(uint8_t vc, uint64_t id);
    /// Make sure the device's port looks again at \p at.
    void WakeAt(Time at);
    /// The wake-up event.
    void Wake();
    /// The interrupt handler: completions \p tokens are due.
    void HandleInterrupt(const std::vector<uint64_t>& tokens);
    /// Hand received Message \p token up (kernel path).
    void DeliverKernel(uint64_t token);
    /// Hand a received Message up (OS-bypass path).
    void DeliverBypass(Callback<void> deliver, uint32_t bytes, Time headerAt);
    /// \param bytes a Message's length \param index a micropacket \return the bytes it
    /// needs in the adapter
    static uint64_t BytesFor(uint32_t bytes, uint32_t index);
    /**
     * \param dma a Message's DMA \param inlineBytes its bytes not read by DMA
     * \param bytes its length \param index a micropacket
     * \return when that micropacket is in the adapter
     */
    static Time ReadyTime(const GsnDmaTransfer& dma,
                          uint32_t inlineBytes,
                          uint32_t bytes,
                          uint32_t index);

    std::string m_profile;                   ///< Profile
    Ptr<GsnHostBus> m_bus;                   ///< Bus
    Ptr<GsnDmaEngine> m_txDma;               ///< TxDma
    Ptr<GsnDmaEngine> m_rxDma;               ///< RxDma
    Ptr<GsnHostCpu> m_cpu;                   ///< Cpu
    Ptr<GsnInterruptCoalescer> m_interrupts; ///< Interrupts
    Time m_firmwareTx;                       ///< FirmwareTxTime
    Time m_firmwareRx;                       ///< FirmwareRxTime
    uint32_t m_rxPoolSize;                   ///< RxBufferPoolSize
    uint32_t m_maxProcesses;                 ///< MaxProcesses
    Time m_registrationTime;                 ///< ProcessRegistrationTime

    Callback<void> m_kick;                              ///< the device's port
    std::array<std::deque<TxOp>, gsn::NUM_VCS> m_txOps; ///< queued Messages per VC
    std::array<GsnDmaTransfer, gsn::NUM_VCS> m_active;  ///< DMA of the Message being sent
    std::array<uint32_t, gsn::NUM_VCS> m_activeBytes;   ///< its length (0: none)
    std::array<uint32_t, gsn::NUM_VCS> m_activeInline;  ///< its bytes not read by DMA
    uint64_t m_nextOp;                                  ///< next op id
    std::map<uint16_t, Time> m_processes;               ///< registered: entry -> ready at
    uint16_t m_defaultProcess;                          ///< entry for untagged bypass Messages
    bool m_firmwareBusy;                                ///< the firmware works on a command
    uint16_t m_rrProcess;                               ///< first level: next process to look at
    std::map<uint16_t, uint8_t> m_rrVc;                 ///< second level: next VC per process
    Time m_rxFirmwareFree;                              ///< the firmware's receive side is free
    uint32_t m_rxBuffersInUse;                          ///< receive pool buffers taken
    std::map<uint64_t, Completion> m_completions;       ///< by token
    uint64_t m_nextToken;                               ///< next completion token
    EventId m_wake;                                     ///< the port's wake-up
    GsnHostAdapterCounters m_counters;                  ///< counters

    TracedCallback<uint8_t, uint32_t, uint8_t, Time, Time, Time> m_txTrace; ///< Tx
    TracedCallback<uint32_t, uint8_t, Time> m_rxTrace;                      ///< Rx
    TracedCallback<uint32_t> m_rxNoBufferTrace;                             ///< RxNoBuffer
};

} // namespace ns3

#endif /* GSN_HOST_ADAPTER_H */
