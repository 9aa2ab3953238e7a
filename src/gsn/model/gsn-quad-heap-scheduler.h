/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnQuadHeapScheduler: an ns-3 event scheduler for large fabrics, a 4-ary heap kept in one
 * array, with removed events left in place until they reach the top.
 */
#ifndef GSN_QUAD_HEAP_SCHEDULER_H
#define GSN_QUAD_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief An event scheduler with the order of ns-3's own, faster on many pending events.
 *
 * ns-3's default MapScheduler keeps the pending events in a std::map: an allocation and a
 * tree rebalance per event, which is about a sixth of the run mode's time on a
 * 1024-endpoint fat tree. This scheduler keeps them in a 4-ary heap in one vector (no
 * allocation once grown, a shallow tree whose children share cache lines) and orders them
 * exactly as every ns-3 scheduler does, by time then by insertion number, so a simulation
 * runs the same events in the same order under either.
 *
 * Remove() leaves the event in the heap and notes its key in a second heap of removed
 * keys; an event whose key tops both heaps is discarded there. (ns-3.37's HeapScheduler
 * removes in place but restores the heap downwards only, which can run events out of
 * order.)
 *
 * Select it with
 * \code
 *   GlobalValue::Bind("SchedulerType", StringValue("ns3::GsnQuadHeapScheduler"));
 * \endcode
 * or `--SchedulerType=ns3::GsnQuadHeapScheduler` on a command line.
 *
 * Insert(), RemoveNext() and Remove() take logarithmic time; PeekNext() and IsEmpty()
 * constant time.
 */
class GsnQuadHeapScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    GsnQuadHeapScheduler();
    ~GsnQuadHeapScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

  private:
    /// \return whether \p a runs before \p b (time, then insertion number)
    static bool Before(const Scheduler::EventKey& a, const Scheduler::EventKey& b)
    {
        return a.m_ts < b.m_ts || (a.m_ts == b.m_ts && a.m_uid < b.m_uid);
    }

    /// Take the top event off the heap.
    void PopTop();
    /// Discard removed events from the top, so that the top is an event to run.
    void DiscardRemovedTop();

    std::vector<Scheduler::Event> m_heap;       ///< pending events (removed ones too)
    std::vector<Scheduler::EventKey> m_removed; ///< keys of removed events still in m_heap
};

} // namespace ns3

#endif /* GSN_QUAD_HEAP_SCHEDULER_H */
