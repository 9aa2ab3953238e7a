/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-host-cpu.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnHostCpu");

NS_OBJECT_ENSURE_REGISTERED(GsnHostCpu);

TypeId
GsnHostCpu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnHostCpu")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnHostCpu>()
            .AddAttribute("SystemCallTime",
                          "Kernel path: entering and leaving the kernel, per packet sent.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostCpu::m_syscall),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("KernelTxPacketTime",
                          "Kernel path: protocol and driver work per packet sent.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostCpu::m_kernelTxPacket),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("KernelRxPacketTime",
                          "Kernel path: driver and protocol work per packet received.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostCpu::m_kernelRxPacket),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CopyRate",
                          "Kernel path: rate of the copy between user and kernel buffers, "
                          "once per packet on each side (0: no copy).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&GsnHostCpu::m_copyRate),
                          MakeDataRateChecker())
            .AddAttribute("ChecksumRate",
                          "Kernel path: rate of the software checksum, once per packet on each "
                          "side (0: none, or done by the adapter).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&GsnHostCpu::m_checksumRate),
                          MakeDataRateChecker())
            .AddAttribute("InterruptTime",
                          "Kernel path: entering and leaving the interrupt handler, per "
                          "interrupt.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostCpu::m_interrupt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TxCompletionTime",
                          "Kernel path: reclaiming one sent buffer in the interrupt handler.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostCpu::m_txCompletion),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("BypassPostTime",
                          "OS-bypass path: writing a command into the process's command queue "
                          "and ringing its doorbell.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostCpu::m_bypassPost),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("BypassPollTime",
                          "OS-bypass path: the process seeing a completion the adapter wrote "
                          "in its memory.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostCpu::m_bypassPoll),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Work",
                            "The processor took work: its start and its duration.",
                            MakeTraceSourceAccessor(&GsnHostCpu::m_workTrace),
                            "ns3::GsnHostCpu::WorkTracedCallback");
    return tid;
}

GsnHostCpu::GsnHostCpu()
    : m_copyRate(0),
      m_checksumRate(0),
      m_freeAt(0),
      m_busy(0)
{
    NS_LOG_FUNCTION(this);
}

GsnHostCpu::~GsnHostCpu()
{
    NS_LOG_FUNCTION(this);
}

Time
GsnHostCpu::Run(Time earliest, Time cost)
{
    const Time start = std::max(earliest, m_freeAt);
    m_freeAt = start + cost;
    m_busy += cost;
    if (cost.IsStrictlyPositive())
    {
        m_workTrace(start, cost);
    }
    return m_freeAt;
}

Time
GsnHostCpu::PerByte(uint64_t bytes, const DataRate& rate)
{
    return rate.GetBitRate() > 0 ? rate.CalculateBytesTxTime(uint32_t(bytes)) : Time(0);
}

Time
GsnHostCpu::KernelTxCost(uint64_t bytes) const
{
    return m_syscall + m_kernelTxPacket + PerByte(bytes, m_copyRate) +
           PerByte(bytes, m_checksumRate);
}

Time
GsnHostCpu::KernelRxCost(uint64_t bytes) const
{
    return m_kernelRxPacket + PerByte(bytes, m_copyRate) + PerByte(bytes, m_checksumRate);
}

} // namespace ns3
