/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTimingWheelScheduler: an ns-3 event scheduler for large fabrics, a wheel of one slot
 * per time step for the near future and a 4-ary heap for the rest.
 */
#ifndef GSN_TIMING_WHEEL_SCHEDULER_H
#define GSN_TIMING_WHEEL_SCHEDULER_H

#include "gsn-call-after-event.h"
#include "gsn-event-hint.h"
#include "gsn-quad-heap-scheduler.h"

#include "ns3/ptr.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief An event scheduler with the order of ns-3's own, in constant time for events due
 * soon.
 *
 * A fabric's events are almost all due within microseconds (a run's end, its arrival, a
 * timer of a port), and on a large fabric several fall in every nanosecond. This scheduler
 * keeps the events due within WheelSlots time steps of the current one in a wheel of one
 * slot per time step, each slot a list in insertion order (ns-3 gives insertion numbers in
 * increasing order, so a slot's list is in ns-3's order by appending), with a two-level
 * bitmap of the slots in use; the later events go to a GsnQuadHeapScheduler. The next
 * event is the earlier of the wheel's first and the heap's top, by time then insertion
 * number, exactly as every ns-3 scheduler orders them: a simulation runs the same events
 * in the same order under either.
 *
 * The scheduler the simulator runs also makes the time of the event it gives out known to
 * gsn::Now() (see gsn-now.h), which the gsn model reads instead of Simulator::Now() (a
 * virtual call through the simulator's implementation, 5% of the instructions of a fabric
 * run). A GsnTimingWheelScheduler made for something else (a test) must be made with
 * PublishTime false.
 *
 * An event scheduled right after gsn::HintNextEvent() keeps the hint (the memory it reads
 * first: the gsn model hints the port an event acts on); as it becomes the next event, the
 * scheduler has that memory and the event object fetched into the cache while the event
 * before it runs. On the 1024-endpoint fat tree the ports, seldom in the cache, cost a cache
 * miss at the start of most events.
 *
 * It also takes calls to make once the event under way is over (gsn::CallAfterCurrentEvent(),
 * attribute CallsAfterEvent): the call goes where an event scheduled with no delay would
 * (the end of the current time step's list), as a node without an event object, and
 * RemoveNext() makes it when it comes first, then gives out the next event: the same order,
 * without an event. The gsn model sends the Null of an idle port that way (GsnPortDevice
 * holds it until the other events of the instant have run). The simulator counts the events
 * it schedules and expects one from every RemoveNext(), so a call is taken only while an
 * event of the simulator's is pending, and when the last such event is removed while calls
 * are pending the scheduler schedules an event doing nothing behind them. (Replacing the
 * simulator's scheduler while a call is pending makes the call then, as the pending events are
 * taken out.)
 *
 * Select it with
 * \code
 *   GlobalValue::Bind("SchedulerType", StringValue("ns3::GsnTimingWheelScheduler"));
 * \endcode
 * or `--SchedulerType=ns3::GsnTimingWheelScheduler` on a command line.
 *
 * Insert() and RemoveNext() take constant time for events within the wheel (a bitmap
 * search of WheelSlots / 4096 words at most), logarithmic time otherwise; Remove() is
 * linear in the events of the same time step.
 */
class GsnTimingWheelScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    GsnTimingWheelScheduler();
    ~GsnTimingWheelScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

    /// \return the events in the wheel (not in the heap of later events)
    std::size_t GetWheelEvents() const;

    /**
     * Take a call to make once the event under way is over (gsn::CallAfterCurrentEvent()).
     * \param call the call
     * \return whether taken: calls are on (CallsAfterEvent) and the DefaultSimulatorImpl
     * runs this scheduler
     */
    bool TakeCallAfterEvent(gsn::CallAfterEvent call);

    /**
     * Order the event inserted next among those of its time step as if it had been inserted
     * at the end of time step \p step (an arrival from another rank, sent then: one process
     * scheduled it then). Needs KeepStepHistory() covering \p step.
     * \param step a past time step
     */
    static void OrderNextAsOf(uint64_t step);

    /**
     * Keep the last event number of each of the last \p steps time steps (for OrderNextAsOf()).
     * \param steps how many, at least
     */
    static void KeepStepHistory(uint64_t steps);

  private:
    /// No node, no slot.
    static constexpr uint32_t NONE = UINT32_MAX;

    /// A pending event in a slot's list.
    struct Node
    {
        Scheduler::Event ev; ///< the event
        uint32_t next;       ///< the next node of the slot, or of the free list
        uint32_t hintBytes;  ///< bytes the event reads first (gsn::HintNextEvent())
        const char* hint;    ///< where they start
    };

    /// Makes the wheel (WheelSlots is known only once the attributes are set).
    void MakeWheel();
    /// \return whether an event at time step ts belongs in the wheel
    bool InWheel(uint64_t ts) const;
    /// \return the first slot in use from the current time step on, or NONE
    uint32_t FirstSlot() const;
    /// \return the slot of the next event, or NONE if it is the heap's top
    uint32_t NextSlot() const;
    /// \return the first bitmap word in use at index from or later, or NONE
    uint32_t FirstWordFrom(uint32_t from) const;
    /// Puts node i at the end of slot s's list.
    void AppendNode(uint32_t s, uint32_t i);
    /// Marks slot s in use or free in the bitmaps.
    void MarkSlot(uint32_t s, bool used);
    /// Takes the first event of slot s out of the wheel.
    Scheduler::Event PopSlot(uint32_t s);
    /// \return a free node holding ev
    uint32_t NewNode(const Scheduler::Event& ev, const gsn::EventHint& hint);
    /// Gives node i back.
    void FreeNode(uint32_t i);
    /// Makes call \p index of m_calls (a node without an event has come first).
    void MakeCall(uint32_t index);
    /// Makes the calls that come before the next event, so that PeekNext() gives an event:
    /// a distributed simulator peeks to decide whether the next event lies within the time
    /// it may run to, and the calls must be made (they may send to other ranks) before it
    /// waits for the others.
    void MakeCallsBeforeNextEvent();
    /// \return whether an event of the simulator's is pending (not only calls)
    bool HasEvent() const;
    /// After an event was removed: if calls are pending (or one is being made) and no event
    /// is left to give out after them, schedules an event doing nothing at the current time.
    void KeepAnEventAfterCalls();
    /// Takes event \p ev out of the wheel or the heap.
    void RemoveEvent(const Scheduler::Event& ev);
    /// Has the next event's object, and the memory it hinted, fetched into the cache while
    /// the one just given out runs (its port is seldom in the cache in a large fabric).
    void PrefetchNext() const;

    uint32_t m_slots{0};                      ///< WheelSlots: slots of the wheel, a power of two
    bool m_publishTime{true};                 ///< PublishTime: make gsn::Now() read this scheduler
    uint64_t m_current{0};                    ///< time step of the last event given out
    std::size_t m_inWheel{0};                 ///< events in the wheel
    std::vector<uint32_t> m_head;             ///< first node of each slot
    std::vector<uint32_t> m_tail;             ///< last node of each slot
    std::vector<uint64_t> m_used;             ///< bit per slot: slot in use
    std::vector<uint64_t> m_usedWords;        ///< bit per m_used word: word not zero
    std::vector<Node> m_nodes;                ///< every node, in use or free
    uint32_t m_free{NONE};                    ///< first free node
    Ptr<GsnQuadHeapScheduler> m_later;        ///< the events beyond the wheel
    bool m_takeCallsAfterEvent{true};         ///< CallsAfterEvent: take calls after the event
    bool m_callsAfterEventWork{false};        ///< the simulator runs the calls as they come
    uint32_t m_lastUid{0};                    ///< the highest event number inserted
    std::vector<std::pair<uint64_t, uint32_t>> m_stepUids; ///< recent steps, last number of each
    std::size_t m_stepUidsFront{0};                        ///< first entry of m_stepUids still kept
    uint32_t UidAsOf(uint64_t step) const;    ///< the last number inserted by the end of \p step
    std::vector<gsn::CallAfterEvent> m_calls; ///< calls after events, by node (free or taken)
    std::vector<uint32_t> m_freeCalls;        ///< free entries of m_calls
    std::size_t m_callsPending{0};            ///< calls in the wheel (nodes without an event)
    bool m_makingCall{false};                 ///< a call is being made
};

} // namespace ns3

#endif /* GSN_TIMING_WHEEL_SCHEDULER_H */
