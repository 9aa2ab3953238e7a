/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-host-bus.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnHostBus");

NS_OBJECT_ENSURE_REGISTERED(GsnHostBus);

TypeId
GsnHostBus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnHostBus")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnHostBus>()
            .AddAttribute("MemoryRate",
                          "Host memory bandwidth the adapter's DMA reads and writes share "
                          "(0: no limit).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&GsnHostBus::m_memoryRate),
                          MakeDataRateChecker())
            .AddAttribute("ReadRate",
                          "Sustained rate of DMA reads of host memory (0: no limit).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&GsnHostBus::m_readRate),
                          MakeDataRateChecker())
            .AddAttribute("ReadLatency",
                          "From a DMA read request to its first data.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostBus::m_readLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("WriteLatency",
                          "From the last DMA write burst to the data being visible in memory.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostBus::m_writeLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PioLatency",
                          "A host store to the adapter (a doorbell): from the store to the "
                          "adapter seeing it.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnHostBus::m_pioLatency),
                          MakeTimeChecker(Time(0)));
    return tid;
}

GsnHostBus::GsnHostBus()
    : m_memoryRate(0),
      m_readRate(0),
      m_busyUntil{Time(0), Time(0)}
{
    NS_LOG_FUNCTION(this);
}

GsnHostBus::~GsnHostBus()
{
    NS_LOG_FUNCTION(this);
}

double
GsnHostBus::GetRate(Direction dir, Time at) const
{
    double rate = 0; // no limit
    if (m_memoryRate.GetBitRate() > 0)
    {
        const bool shared = m_busyUntil[1 - dir] > at;
        rate = double(m_memoryRate.GetBitRate()) / (shared ? 2.0 : 1.0);
    }
    if (dir == READ && m_readRate.GetBitRate() > 0)
    {
        const double read = double(m_readRate.GetBitRate());
        rate = rate > 0 ? std::min(rate, read) : read;
    }
    return rate;
}

void
GsnHostBus::NoteBusy(Direction dir, Time until)
{
    m_busyUntil[dir] = std::max(m_busyUntil[dir], until);
}

} // namespace ns3
