/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-dma-engine.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnDmaEngine");

NS_OBJECT_ENSURE_REGISTERED(GsnDmaEngine);

Time
GsnDmaTransfer::TimeFor(uint64_t n) const
{
    if (n == 0)
    {
        return start;
    }
    if (n >= bytes)
    {
        return end;
    }
    const uint64_t burst = (n - 1) / burstBytes; // the burst holding byte n - 1
    const uint64_t last = (bytes - 1) / burstBytes;
    return burst >= last ? end : first + burstTime * int64_t(burst);
}

uint64_t
GsnDmaTransfer::BytesAt(Time t) const
{
    if (t >= end)
    {
        return bytes;
    }
    if (t < first)
    {
        return 0;
    }
    const uint64_t last = (bytes - 1) / burstBytes;
    uint64_t done = 1;
    if (burstTime.IsStrictlyPositive())
    {
        done += uint64_t((t - first).GetTimeStep() / burstTime.GetTimeStep());
    }
    return std::min(done, last) * burstBytes; // (the last burst is in place at end only)
}

TypeId
GsnDmaEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnDmaEngine")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnDmaEngine>()
            .AddAttribute("Rate",
                          "The engine's own rate (0: no limit).",
                          DataRateValue(DataRate("6.4Gbps")),
                          MakeDataRateAccessor(&GsnDmaEngine::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("BurstBytes",
                          "Bytes per burst: one scatter/gather element (a page of host "
                          "memory).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&GsnDmaEngine::m_burstBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BurstGap",
                          "Time per burst in which the engine moves no data (it loads the "
                          "next scatter/gather element and translates its address).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnDmaEngine::m_burstGap),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Transfer",
                            "A transfer was taken: its start, its end and its bytes.",
                            MakeTraceSourceAccessor(&GsnDmaEngine::m_transferTrace),
                            "ns3::GsnDmaEngine::TransferTracedCallback");
    return tid;
}

GsnDmaEngine::GsnDmaEngine()
    : m_rate("6.4Gbps"),
      m_burstBytes(16384),
      m_dir(GsnHostBus::READ),
      m_freeAt(0),
      m_bytes(0),
      m_transfers(0)
{
    NS_LOG_FUNCTION(this);
}

GsnDmaEngine::~GsnDmaEngine()
{
    NS_LOG_FUNCTION(this);
}

void
GsnDmaEngine::DoDispose()
{
    m_bus = nullptr;
    Object::DoDispose();
}

void
GsnDmaEngine::SetBus(Ptr<GsnHostBus> bus, GsnHostBus::Direction dir)
{
    m_bus = bus;
    m_dir = dir;
}

namespace
{
/// \return the time \p bytes take at \p rate bit/s (0: instantly)
Time
BytesTime(uint64_t bytes, double rate)
{
    return rate > 0 ? Seconds(double(bytes) * 8.0 / rate) : Time(0);
}
} // namespace

Time
GsnDmaEngine::BurstTime(Time start) const
{
    double rate = double(m_rate.GetBitRate());
    const double bus = m_bus ? m_bus->GetRate(m_dir, start) : 0;
    if (bus > 0)
    {
        rate = rate > 0 ? std::min(rate, bus) : bus;
    }
    return m_burstGap + BytesTime(m_burstBytes, rate);
}

GsnDmaTransfer
GsnDmaEngine::Start(Time earliest, uint64_t bytes, Time dataComplete)
{
    GsnDmaTransfer t;
    t.start = std::max(earliest, m_freeAt);
    t.bytes = bytes;
    t.burstBytes = m_burstBytes;
    t.burstTime = BurstTime(t.start);
    if (bytes == 0)
    {
        // Nothing to move: no request goes to memory (but nothing ends before it arrives).
        t.first = t.end = std::max(t.start, dataComplete);
        ++m_transfers;
        return t;
    }
    const Time latency = m_bus && m_dir == GsnHostBus::READ ? m_bus->GetReadLatency() : Time(0);
    const uint64_t bursts = (bytes + m_burstBytes - 1) / m_burstBytes;
    const uint64_t lastBytes = bytes - (bursts - 1) * m_burstBytes;
    // The last burst: the gap and its own bytes, at the same rate as the others.
    const Time full = t.burstTime - m_burstGap;
    const Time lastTime =
        m_burstGap + (m_burstBytes > 0 ? Time::FromDouble(full.GetDouble() * double(lastBytes) /
                                                              double(m_burstBytes),
                                                          Time::GetResolution())
                                       : Time(0));
    t.end = t.start + latency + t.burstTime * int64_t(bursts - 1) + lastTime;
    if (dataComplete + lastTime > t.end)
    {
        t.end = dataComplete + lastTime; // a receive burst waits for its bytes
    }
    t.first = bursts == 1 ? t.end : t.start + latency + t.burstTime;
    m_freeAt = t.end;
    if (m_bus)
    {
        m_bus->NoteBusy(m_dir, t.end);
        if (m_dir == GsnHostBus::WRITE)
        {
            t.end += m_bus->GetWriteLatency(); // posted: visible in memory later
            if (bursts == 1)
            {
                t.first = t.end;
            }
        }
    }
    m_bytes += bytes;
    ++m_transfers;
    NS_LOG_LOGIC(this << " transfer of " << bytes << " bytes from " << t.start << " to " << t.end);
    m_transferTrace(t.start, t.end, bytes);
    return t;
}

Time
GsnDmaEngine::Duration(uint64_t bytes) const
{
    if (bytes == 0)
    {
        return Time(0);
    }
    const uint64_t bursts = bytes == 0 ? 1 : (bytes + m_burstBytes - 1) / m_burstBytes;
    const Time latency = m_bus && m_dir == GsnHostBus::READ ? m_bus->GetReadLatency() : Time(0);
    const Time write = m_bus && m_dir == GsnHostBus::WRITE ? m_bus->GetWriteLatency() : Time(0);
    const Time burst = BurstTime(Time(-1)); // (an idle bus)
    const uint64_t lastBytes = bytes - (bursts - 1) * m_burstBytes;
    const Time full = burst - m_burstGap;
    return latency + burst * int64_t(bursts - 1) + m_burstGap +
           Time::FromDouble(full.GetDouble() * double(lastBytes) / double(m_burstBytes),
                            Time::GetResolution()) +
           write;
}

} // namespace ns3
