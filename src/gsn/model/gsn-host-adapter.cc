/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-host-adapter.h"

#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnHostAdapter");

NS_OBJECT_ENSURE_REGISTERED(GsnHostAdapter);

TypeId
GsnHostAdapter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnHostAdapter")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnHostAdapter>()
            .AddAttribute("Profile",
                          "The profile the adapter was configured from (informational: "
                          "GsnHostAdapterHelper::SetProfile sets it).",
                          StringValue("custom"),
                          MakeStringAccessor(&GsnHostAdapter::m_profile),
                          MakeStringChecker())
            .AddAttribute("Bus",
                          "The host bus.",
                          PointerValue(),
                          MakePointerAccessor(&GsnHostAdapter::m_bus),
                          MakePointerChecker<GsnHostBus>())
            .AddAttribute("TxDma",
                          "The transmit DMA engine (reads host memory).",
                          PointerValue(),
                          MakePointerAccessor(&GsnHostAdapter::m_txDma),
                          MakePointerChecker<GsnDmaEngine>())
            .AddAttribute("RxDma",
                          "The receive DMA engine (writes host memory).",
                          PointerValue(),
                          MakePointerAccessor(&GsnHostAdapter::m_rxDma),
                          MakePointerChecker<GsnDmaEngine>())
            .AddAttribute("Cpu",
                          "The host processor.",
                          PointerValue(),
                          MakePointerAccessor(&GsnHostAdapter::m_cpu),
                          MakePointerChecker<GsnHostCpu>())
            .AddAttribute("Interrupts",
                          "The interrupt coalescer.",
                          PointerValue(),
                          MakePointerAccessor(&GsnHostAdapter::m_interrupts),
                          MakePointerChecker<GsnInterruptCoalescer>())
            .AddAttribute("FirmwareTxTime",
                          "The NIC control program's time per command it takes from a "
                          "command queue.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostAdapter::m_firmwareTx),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FirmwareRxTime",
                          "The NIC control program's time per received Message header "
                          "(matching it to a buffer or a mapped region).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostAdapter::m_firmwareRx),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RxBufferPoolSize",
                          "Kernel path: receive buffers the driver gives the adapter, one per "
                          "Message until the handler has delivered it (0: no limit).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GsnHostAdapter::m_rxPoolSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxProcesses",
                          "Entries of the adapter's process table (OS-bypass command queues).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&GsnHostAdapter::m_maxProcesses),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("ProcessRegistrationTime",
                          "Registering a process (driver and New_Process command) before its "
                          "first command can be taken.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostAdapter::m_registrationTime),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Tx",
                            "A Message's DMA was scheduled: VC, bytes, path (0 kernel, 1 "
                            "OS-bypass), when its doorbell reached the adapter, DMA start, "
                            "DMA end.",
                            MakeTraceSourceAccessor(&GsnHostAdapter::m_txTrace),
                            "ns3::GsnHostAdapter::TxTracedCallback")
            .AddTraceSource("Rx",
                            "A received Message reached its protocol: bytes, path, time from "
                            "its Header's arrival.",
                            MakeTraceSourceAccessor(&GsnHostAdapter::m_rxTrace),
                            "ns3::GsnHostAdapter::RxTracedCallback")
            .AddTraceSource("RxNoBuffer",
                            "A kernel-path Message was dropped: the receive pool was empty "
                            "(its length).",
                            MakeTraceSourceAccessor(&GsnHostAdapter::m_rxNoBufferTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

GsnHostAdapter::GsnHostAdapter()
    : m_profile("custom"),
      m_bus(CreateObject<GsnHostBus>()),
      m_txDma(CreateObject<GsnDmaEngine>()),
      m_rxDma(CreateObject<GsnDmaEngine>()),
      m_cpu(CreateObject<GsnHostCpu>()),
      m_interrupts(CreateObject<GsnInterruptCoalescer>()),
      m_rxPoolSize(0),
      m_maxProcesses(64),
      m_activeBytes{},
      m_activeInline{},
      m_nextOp(1),
      m_defaultProcess(0),
      m_firmwareBusy(false),
      m_rrProcess(0),
      m_rxFirmwareFree(0),
      m_rxBuffersInUse(0),
      m_nextToken(1)
{
    NS_LOG_FUNCTION(this);
}

GsnHostAdapter::~GsnHostAdapter()
{
    NS_LOG_FUNCTION(this);
}

void
GsnHostAdapter::DoInitialize()
{
    // The parts may have been replaced through the attributes: wire them now.
    m_txDma->SetBus(m_bus, GsnHostBus::READ);
    m_rxDma->SetBus(m_bus, GsnHostBus::WRITE);
    m_interrupts->SetHandler(MakeCallback(&GsnHostAdapter::HandleInterrupt, this));
    Object::DoInitialize();
}

void
GsnHostAdapter::DoDispose()
{
    m_wake.Cancel();
    m_kick = Callback<void>();
    m_completions.clear();
    for (auto& q : m_txOps)
    {
        q.clear();
    }
    if (m_interrupts)
    {
        m_interrupts->Dispose();
    }
    if (m_txDma)
    {
        m_txDma->Dispose();
    }
    if (m_rxDma)
    {
        m_rxDma->Dispose();
    }
    m_bus = nullptr;
    m_txDma = nullptr;
    m_rxDma = nullptr;
    m_cpu = nullptr;
    m_interrupts = nullptr;
    Object::DoDispose();
}

GsnHostAdapter::Path
GsnHostAdapter::PathOf(uint16_t protocolNumber)
{
    return protocolNumber == gsn::ETHERTYPE_IPV4 || protocolNumber == gsn::ETHERTYPE_ARP ||
                   protocolNumber == gsn::ETHERTYPE_IPV6
               ? KERNEL
               : BYPASS;
}

// ---------------------------------------------------------------------------------------
// Processes

uint16_t
GsnHostAdapter::RegisterProcess()
{
    if (m_processes.size() >= m_maxProcesses)
    {
        NS_LOG_WARN(this << " process table full: the process uses the driver's queue");
        return 0;
    }
    uint16_t entry = 1;
    while (m_processes.count(entry) != 0)
    {
        ++entry;
    }
    m_processes[entry] = Simulator::Now() + m_registrationTime;
    ++m_counters.registrations;
    NS_LOG_INFO(this << " process " << entry << " registered, ready at " << m_processes[entry]);
    return entry;
}

bool
GsnHostAdapter::IsRegistered(uint16_t process) const
{
    return m_processes.count(process) != 0;
}

void
GsnHostAdapter::UnregisterProcess(uint16_t process)
{
    m_processes.erase(process);
    m_rrVc.erase(process);
    if (process == m_defaultProcess)
    {
        m_defaultProcess = 0;
    }
}

uint16_t
GsnHostAdapter::GetDefaultProcess()
{
    if (m_defaultProcess == 0 || !IsRegistered(m_defaultProcess))
    {
        m_defaultProcess = RegisterProcess();
    }
    return m_defaultProcess;
}

// ---------------------------------------------------------------------------------------
// Transmit

void
GsnHostAdapter::SetTransmitKick(Callback<void> kick)
{
    m_kick = kick;
}

void
GsnHostAdapter::EnqueueTx(uint8_t vc,
                          uint32_t bytes,
                          uint16_t protocolNumber,
                          uint16_t process,
                          uint32_t inlineBytes)
{
    const Time now = Simulator::Now();
    TxOp op;
    op.id = m_nextOp++;
    op.bytes = bytes;
    op.inlineBytes = std::min(inlineBytes, bytes);
    op.path = PathOf(protocolNumber);
    Time done;
    if (op.path == KERNEL)
    {
        ++m_counters.kernelTx;
        done = m_cpu->Run(now, m_cpu->KernelTxCost(bytes));
    }
    else
    {
        ++m_counters.bypassTx;
        op.process = IsRegistered(process) ? process : uint16_t(0);
        done = m_cpu->Run(now, m_cpu->GetBypassPostTime());
        if (op.process != 0)
        {
            done = std::max(done, m_processes[op.process]); // registration first
        }
    }
    op.posted = done + m_bus->GetPioLatency();
    NS_LOG_LOGIC(this << " VC " << unsigned(vc) << ": " << bytes << " bytes, doorbell at "
                      << op.posted);
    Simulator::Schedule(op.posted - now, &GsnHostAdapter::CommandArrives, this, vc, op.id);
    m_txOps[vc].push_back(op);
}

GsnHostAdapter::TxOp*
GsnHostAdapter::FindOp(uint8_t vc, uint64_t id)
{
    for (auto& op : m_txOps[vc])
    {
        if (op.id == id)
        {
            return &op;
        }
    }
    return nullptr;
}

void
GsnHostAdapter::CommandArrives(uint8_t vc, uint64_t id)
{
    if (TxOp* op = FindOp(vc, id))
    {
        op->state = TxState::QUEUED;
        RunFirmware();
    }
}

void
GsnHostAdapter::RunFirmware()
{
    if (m_firmwareBusy)
    {
        return;
    }
    // First level: the processes in turn (entry 0, the driver's queue, among them); second
    // level: the VCs of that process in turn. A VC offers its oldest Message not yet in the
    // DMA engine, so the link sends each VC's Messages in the order they were accepted.
    std::vector<uint16_t> processes{0};
    for (const auto& p : m_processes)
    {
        processes.push_back(p.first);
    }
    const std::size_t n = processes.size();
    std::size_t first = 0;
    while (first < n && processes[first] < m_rrProcess)
    {
        ++first;
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        const uint16_t process = processes[(first + i) % n];
        const uint8_t vc0 = m_rrVc[process];
        for (uint8_t j = 0; j < gsn::NUM_VCS; ++j)
        {
            const uint8_t vc = uint8_t((vc0 + j) % gsn::NUM_VCS);
            auto it = std::find_if(m_txOps[vc].begin(), m_txOps[vc].end(), [](const TxOp& op) {
                return op.state != TxState::READY;
            });
            if (it == m_txOps[vc].end() || it->state != TxState::QUEUED || it->process != process)
            {
                continue;
            }
            it->state = TxState::FIRMWARE;
            m_firmwareBusy = true;
            m_rrProcess = uint16_t(process + 1);
            m_rrVc[process] = uint8_t((vc + 1) % gsn::NUM_VCS);
            // The driver's descriptors are in host memory: the firmware fetches each one.
            const Time cost =
                m_firmwareTx + (it->path == KERNEL ? m_bus->GetReadLatency() : Time(0));
            Simulator::Schedule(cost, &GsnHostAdapter::FirmwareDone, this, vc, it->id);
            return;
        }
    }
}

void
GsnHostAdapter::FirmwareDone(uint8_t vc, uint64_t id)
{
    m_firmwareBusy = false;
    ++m_counters.firmwareOps;
    TxOp* op = FindOp(vc, id);
    if (op)
    {
        const Time now = Simulator::Now();
        op->state = TxState::READY;
        op->dma = m_txDma->Start(now, op->bytes - op->inlineBytes);
        m_txTrace(vc, op->bytes, uint8_t(op->path), op->posted, op->dma.start, op->dma.end);
        if (op->path == KERNEL)
        {
            // The adapter writes the completion; the handler reclaims the buffer.
            const uint64_t token = m_nextToken++;
            m_completions[token] = Completion{};
            m_interrupts->Post(op->dma.end + m_bus->GetWriteLatency(), token);
        }
        if (op == &m_txOps[vc].front())
        {
            WakeAt(ReadyTime(op->dma, op->inlineBytes, op->bytes, 0));
        }
    }
    RunFirmware();
}

uint64_t
GsnHostAdapter::BytesFor(uint32_t bytes, uint32_t index)
{
    return std::min<uint64_t>(uint64_t(index + 1) * gsn::MICROPACKET_DATA_BYTES, bytes);
}

Time
GsnHostAdapter::ReadyTime(const GsnDmaTransfer& dma,
                          uint32_t inlineBytes,
                          uint32_t bytes,
                          uint32_t index)
{
    const uint64_t need = BytesFor(bytes, index);
    return need <= inlineBytes ? dma.start : dma.TimeFor(need - inlineBytes);
}

bool
GsnHostAdapter::IsHeadReady(uint8_t vc, const Time& slot)
{
    if (m_txOps[vc].empty() || m_txOps[vc].front().state != TxState::READY)
    {
        return false; // the firmware wakes the port when it hands the Message to the DMA
    }
    const TxOp& op = m_txOps[vc].front();
    const Time ready = ReadyTime(op.dma, op.inlineBytes, op.bytes, 0);
    if (ready <= slot)
    {
        return true;
    }
    if (slot == Simulator::Now())
    {
        WakeAt(ready);
    }
    return false;
}

void
GsnHostAdapter::StartSending(uint8_t vc)
{
    NS_ASSERT(!m_txOps[vc].empty() && m_txOps[vc].front().state == TxState::READY);
    m_active[vc] = m_txOps[vc].front().dma;
    m_activeBytes[vc] = m_txOps[vc].front().bytes;
    m_activeInline[vc] = m_txOps[vc].front().inlineBytes;
    m_txOps[vc].pop_front();
}

bool
GsnHostAdapter::IsNextReady(uint8_t vc, uint32_t index, const Time& slot)
{
    const Time ready = ReadyTime(m_active[vc], m_activeInline[vc], m_activeBytes[vc], index);
    if (ready <= slot)
    {
        return true;
    }
    if (slot == Simulator::Now())
    {
        WakeAt(ready); // (a later slot of a run is asked again when the run ends)
    }
    return false;
}

uint32_t
GsnHostAdapter::ReadyFrom(uint8_t vc, uint32_t index, const Time& slot) const
{
    const uint64_t bytes = m_activeBytes[vc];
    const uint64_t have =
        slot < m_active[vc].start ? 0 : m_activeInline[vc] + m_active[vc].BytesAt(slot);
    const uint64_t ready =
        have >= bytes ? (bytes + gsn::MICROPACKET_DATA_BYTES - 1) / gsn::MICROPACKET_DATA_BYTES
                      : have / gsn::MICROPACKET_DATA_BYTES;
    return ready > index ? uint32_t(ready - index) : 0;
}

Time
GsnHostAdapter::NextReadyTime(uint8_t vc, uint32_t index) const
{
    if (index != UINT32_MAX)
    {
        return ReadyTime(m_active[vc], m_activeInline[vc], m_activeBytes[vc], index);
    }
    if (m_txOps[vc].empty() || m_txOps[vc].front().state != TxState::READY)
    {
        return Time::Max();
    }
    const TxOp& op = m_txOps[vc].front();
    return ReadyTime(op.dma, op.inlineBytes, op.bytes, 0);
}

void
GsnHostAdapter::AbortSending(uint8_t vc)
{
    m_activeBytes[vc] = 0;
    m_activeInline[vc] = 0;
    m_active[vc] = GsnDmaTransfer();
}

void
GsnHostAdapter::WakeAt(Time at)
{
    const Time now = Simulator::Now();
    if (at <= now)
    {
        if (!m_kick.IsNull())
        {
            m_kick();
        }
        return;
    }
    if (m_wake.IsRunning() && Time(m_wake.GetTs()) <= at)
    {
        return; // the port looks again before then, and asks for a later wake-up if need be
    }
    m_wake.Cancel();
    m_wake = Simulator::Schedule(at - now, &GsnHostAdapter::Wake, this);
}

void
GsnHostAdapter::Wake()
{
    m_wake = EventId();
    if (!m_kick.IsNull())
    {
        m_kick();
    }
}

// ---------------------------------------------------------------------------------------
// Receive

bool
GsnHostAdapter::Receive(uint8_t vc,
                        uint32_t bytes,
                        uint16_t protocolNumber,
                        Time headerAt,
                        Callback<void> deliver)
{
    const Time now = Simulator::Now();
    const Path path = PathOf(protocolNumber);
    if (path == KERNEL && m_rxPoolSize > 0 && m_rxBuffersInUse >= m_rxPoolSize)
    {
        ++m_counters.rxNoBuffer;
        NS_LOG_WARN(this << " receive pool empty: a " << bytes << "-byte Message on VC "
                         << unsigned(vc) << " is dropped");
        m_rxNoBufferTrace(bytes);
        return false;
    }
    // The firmware matched the header as it came; the engine writes the Message as it
    // arrives and cannot finish before its last byte is in.
    const Time matched = std::max(headerAt, m_rxFirmwareFree) + m_firmwareRx;
    m_rxFirmwareFree = matched;
    // The addressing and LLC/SNAP stay in the adapter; the rest is written to host memory.
    const uint32_t front = gsn::MESSAGE_ADDRESS_BYTES + gsn::LLC_SNAP_BYTES;
    const GsnDmaTransfer dma = m_rxDma->Start(matched, bytes > front ? bytes - front : 0, now);
    if (path == BYPASS)
    {
        const Time seen = m_cpu->Run(dma.end, m_cpu->GetBypassPollTime());
        Simulator::Schedule(seen - now,
                            &GsnHostAdapter::DeliverBypass,
                            this,
                            deliver,
                            bytes,
                            headerAt);
        return true;
    }
    ++m_rxBuffersInUse;
    const uint64_t token = m_nextToken++;
    Completion c;
    c.rx = true;
    c.bytes = bytes;
    c.headerAt = headerAt;
    c.deliver = deliver;
    m_completions[token] = c;
    m_interrupts->Post(dma.end, token);
    return true;
}

void
GsnHostAdapter::DeliverBypass(Callback<void> deliver, uint32_t bytes, Time headerAt)
{
    ++m_counters.bypassRx;
    m_rxTrace(bytes, uint8_t(BYPASS), Simulator::Now() - headerAt);
    deliver();
}

void
GsnHostAdapter::HandleInterrupt(const std::vector<uint64_t>& tokens)
{
    const Time now = Simulator::Now();
    Time t = m_cpu->Run(now, m_cpu->GetInterruptTime());
    for (uint64_t token : tokens)
    {
        auto it = m_completions.find(token);
        if (it == m_completions.end())
        {
            continue;
        }
        if (!it->second.rx)
        {
            t = m_cpu->Run(t, m_cpu->GetTxCompletionTime());
            m_completions.erase(it);
            continue;
        }
        t = m_cpu->Run(t, m_cpu->KernelRxCost(it->second.bytes));
        Simulator::Schedule(t - now, &GsnHostAdapter::DeliverKernel, this, token);
    }
}

void
GsnHostAdapter::DeliverKernel(uint64_t token)
{
    auto it = m_completions.find(token);
    if (it == m_completions.end())
    {
        return;
    }
    const Completion c = it->second;
    m_completions.erase(it);
    --m_rxBuffersInUse;
    ++m_counters.kernelRx;
    m_rxTrace(c.bytes, uint8_t(KERNEL), Simulator::Now() - c.headerAt);
    c.deliver();
}

} // namespace ns3
