/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-interrupt-coalescer.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnInterruptCoalescer");

NS_OBJECT_ENSURE_REGISTERED(GsnInterruptCoalescer);

TypeId
GsnInterruptCoalescer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnInterruptCoalescer")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnInterruptCoalescer>()
            .AddAttribute("Delay",
                          "How long the adapter holds an interrupt after the oldest completion "
                          "the host has not been told of.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnInterruptCoalescer::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxCompletions",
                          "Completions that raise the interrupt at once, whatever the Delay.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&GsnInterruptCoalescer::m_maxCompletions),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Interrupt",
                            "An interrupt was raised: how many completions it reports.",
                            MakeTraceSourceAccessor(&GsnInterruptCoalescer::m_interruptTrace),
                            "ns3::GsnInterruptCoalescer::InterruptTracedCallback");
    return tid;
}

GsnInterruptCoalescer::GsnInterruptCoalescer()
    : m_delay(0),
      m_maxCompletions(1),
      m_interrupts(0),
      m_completions(0)
{
    NS_LOG_FUNCTION(this);
}

GsnInterruptCoalescer::~GsnInterruptCoalescer()
{
    NS_LOG_FUNCTION(this);
}

void
GsnInterruptCoalescer::DoDispose()
{
    m_event.Cancel();
    m_pending.clear();
    m_handler = Handler();
    Object::DoDispose();
}

void
GsnInterruptCoalescer::SetHandler(Handler handler)
{
    m_handler = handler;
}

void
GsnInterruptCoalescer::Post(Time at, uint64_t token)
{
    NS_ASSERT(at >= Simulator::Now());
    m_pending.emplace(at, token);
    Reschedule();
}

void
GsnInterruptCoalescer::Reschedule()
{
    if (m_pending.empty())
    {
        m_event.Cancel();
        return;
    }
    Time at = m_pending.begin()->first + m_delay;
    if (m_pending.size() >= m_maxCompletions)
    {
        auto nth = m_pending.begin();
        std::advance(nth, m_maxCompletions - 1);
        at = std::min(at, nth->first);
    }
    at = std::max(at, Simulator::Now());
    if (m_event.IsRunning() && Time(m_event.GetTs()) <= at)
    {
        return; // an interrupt at or before that is pending
    }
    m_event.Cancel();
    m_event = Simulator::Schedule(at - Simulator::Now(), &GsnInterruptCoalescer::Fire, this);
}

void
GsnInterruptCoalescer::Fire()
{
    const Time now = Simulator::Now();
    std::vector<uint64_t> due;
    auto it = m_pending.begin();
    while (it != m_pending.end() && it->first <= now)
    {
        due.push_back(it->second);
        it = m_pending.erase(it);
    }
    ++m_interrupts;
    m_completions += due.size();
    NS_LOG_LOGIC(this << " interrupt reporting " << due.size() << " completions");
    m_interruptTrace(uint32_t(due.size()));
    if (!m_handler.IsNull())
    {
        m_handler(due);
    }
    Reschedule();
}

} // namespace ns3
