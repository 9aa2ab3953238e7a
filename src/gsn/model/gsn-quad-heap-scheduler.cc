/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-quad-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnQuadHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(GsnQuadHeapScheduler);

namespace
{

/// Children of heap place i are 4i+1 .. 4i+4.
constexpr std::size_t ARITY = 4;

/// Orders the removed keys as a min-heap for std::push_heap and std::pop_heap.
struct AfterKey
{
    bool operator()(const Scheduler::EventKey& a, const Scheduler::EventKey& b) const
    {
        return a.m_ts > b.m_ts || (a.m_ts == b.m_ts && a.m_uid > b.m_uid);
    }
};

} // namespace

TypeId
GsnQuadHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GsnQuadHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Gsn")
                            .AddConstructor<GsnQuadHeapScheduler>();
    return tid;
}

GsnQuadHeapScheduler::GsnQuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

GsnQuadHeapScheduler::~GsnQuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
GsnQuadHeapScheduler::Insert(const Scheduler::Event& ev)
{
    // Sift up: move the parents that run later down until the event's place is found.
    std::size_t i = m_heap.size();
    m_heap.emplace_back();
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / ARITY;
        if (!Before(ev.key, m_heap[parent].key))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = ev;
}

bool
GsnQuadHeapScheduler::IsEmpty() const
{
    return m_heap.empty(); // (a removed event never stays on top: see DiscardRemovedTop)
}

Scheduler::Event
GsnQuadHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front();
}

Scheduler::Event
GsnQuadHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    const Scheduler::Event next = m_heap.front();
    PopTop();
    DiscardRemovedTop();
    return next;
}

void
GsnQuadHeapScheduler::Remove(const Scheduler::Event& ev)
{
    NS_ASSERT(!m_heap.empty());
    m_removed.push_back(ev.key);
    std::push_heap(m_removed.begin(), m_removed.end(), AfterKey());
    DiscardRemovedTop();
}

void
GsnQuadHeapScheduler::PopTop()
{
    // Sift the last event down from the top: move the earliest child up while it runs
    // before it.
    const Scheduler::Event last = m_heap.back();
    m_heap.pop_back();
    const std::size_t n = m_heap.size();
    if (n == 0)
    {
        return;
    }
    std::size_t i = 0;
    while (true)
    {
        const std::size_t first = ARITY * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        const std::size_t end = std::min(first + ARITY, n);
        for (std::size_t c = first + 1; c < end; ++c)
        {
            if (Before(m_heap[c].key, m_heap[best].key))
            {
                best = c;
            }
        }
        if (!Before(m_heap[best].key, last.key))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = last;
}

void
GsnQuadHeapScheduler::DiscardRemovedTop()
{
    // Every removed key is in m_heap, so the earliest removed key is at or after the top:
    // the top is a removed event exactly when the two are the same event.
    while (!m_removed.empty() && !m_heap.empty() &&
           m_removed.front().m_uid == m_heap.front().key.m_uid)
    {
        PopTop();
        std::pop_heap(m_removed.begin(), m_removed.end(), AfterKey());
        m_removed.pop_back();
    }
}

} // namespace ns3
