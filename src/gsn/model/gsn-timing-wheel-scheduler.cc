/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-timing-wheel-scheduler.h"

#include "gsn-event-hint.h"
#include "gsn-now.h"

#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/fatal-error.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnTimingWheelScheduler");
NS_OBJECT_ENSURE_REGISTERED(GsnTimingWheelScheduler);

namespace gsn
{
PublishedTime g_publishedTime;
EventHint g_eventHint;

bool
CallAfterCurrentEvent(void (*call)(Object*), Ptr<Object> object)
{
    // (Only a GsnTimingWheelScheduler publishes the time.)
    auto* wheel =
        static_cast<GsnTimingWheelScheduler*>(const_cast<void*>(g_publishedTime.publisher));
    return wheel && wheel->TakeCallAfterEvent(CallAfterEvent{call, std::move(object)});
}
} // namespace gsn

namespace
{
/// OrderNextAsOf(): the step, or UINT64_MAX.
uint64_t g_orderAsOf = UINT64_MAX;
/// KeepStepHistory(): how many steps (0: none kept).
uint64_t g_stepHistory = 0;

/// What a call after an event (a node without an event object) has for its event object.
char g_callNodeMark;

/// \return the event object of every call after an event (never an EventImpl)
inline EventImpl*
CallNodeMark()
{
    return reinterpret_cast<EventImpl*>(&g_callNodeMark);
}

/// Slots per bitmap word.
constexpr uint32_t WORD_BITS = 64;
/// Bytes per cache line (x86-64 and most others): the step of the fetches.
constexpr uint32_t CACHE_LINE_BYTES = 64;

/// \return the lowest set bit of a word that is not zero
inline uint32_t
LowestBit(uint64_t word)
{
    return uint32_t(__builtin_ctzll(word));
}

} // namespace

TypeId
GsnTimingWheelScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnTimingWheelScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnTimingWheelScheduler>()
            .AddAttribute("WheelSlots",
                          "Slots of the wheel, one per time step (a power of two): events due "
                          "within this many time steps of the current one are kept in "
                          "constant time, later ones in a 4-ary heap. The default covers "
                          "32.8 us at ns-3's default resolution of a nanosecond.",
                          UintegerValue(32768),
                          MakeUintegerAccessor(&GsnTimingWheelScheduler::m_slots),
                          MakeUintegerChecker<uint32_t>(WORD_BITS, 1u << 24))
            .AddAttribute("PublishTime",
                          "Make the time of each event given out known to gsn::Now(). Leave "
                          "it on for the scheduler the simulator runs; turn it off for one "
                          "made for anything else.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GsnTimingWheelScheduler::m_publishTime),
                          MakeBooleanChecker())
            .AddAttribute("CallsAfterEvent",
                          "Take calls to make once the event under way is over "
                          "(gsn::CallAfterCurrentEvent()), each where an event with no delay "
                          "would run, in place of that event: the same results with fewer "
                          "events. Only with PublishTime, under the DefaultSimulatorImpl or "
                          "ns-3's distributed simulators (mpi module).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GsnTimingWheelScheduler::m_takeCallsAfterEvent),
                          MakeBooleanChecker());
    return tid;
}

GsnTimingWheelScheduler::GsnTimingWheelScheduler()
    : m_later(CreateObject<GsnQuadHeapScheduler>())
{
    NS_LOG_FUNCTION(this);
}

GsnTimingWheelScheduler::~GsnTimingWheelScheduler()
{
    NS_LOG_FUNCTION(this);
    if (gsn::g_publishedTime.publisher == this)
    {
        gsn::g_publishedTime = gsn::PublishedTime();
    }
}

void
GsnTimingWheelScheduler::MakeWheel()
{
    if (m_slots < WORD_BITS || (m_slots & (m_slots - 1)) != 0)
    {
        NS_FATAL_ERROR("GsnTimingWheelScheduler: WheelSlots (" << m_slots
                                                               << ") must be a power of two, "
                                                                  "at least 64");
    }
    m_head.assign(m_slots, NONE);
    m_tail.assign(m_slots, NONE);
    m_used.assign(m_slots / WORD_BITS, 0);
    m_usedWords.assign((m_used.size() + WORD_BITS - 1) / WORD_BITS, 0);
    if (m_publishTime)
    {
        // The simulator's scheduler from now on (one replacing another is given the pending
        // events first; the one replaced publishes no more).
        m_current = uint64_t(Simulator::Now().GetTimeStep());
        gsn::g_publishedTime.publisher = this;
        gsn::g_publishedTime.ts = m_current;
        // The calls are made in RemoveNext(), which the DefaultSimulatorImpl calls only to run
        // the event it returns, and in PeekNext(), which ns-3's distributed simulators call to
        // decide whether they may run the next event or must wait for the other ranks (the
        // real-time simulator waits for the wall clock to reach it: the calls would be late).
        StringValue impl;
        m_callsAfterEventWork =
            m_takeCallsAfterEvent &&
            GlobalValue::GetValueByNameFailSafe("SimulatorImplementationType", impl) &&
            (impl.Get() == "ns3::DefaultSimulatorImpl" ||
             impl.Get() == "ns3::DistributedSimulatorImpl" ||
             impl.Get() == "ns3::NullMessageSimulatorImpl");
    }
}

// (Inlined: done for every event.)
__attribute__((always_inline)) inline bool
GsnTimingWheelScheduler::InWheel(uint64_t ts) const
{
    // Every event in the wheel is due in [m_current, m_current + m_slots): slot ts mod
    // m_slots holds the events of time step ts only, and the wheel's first event is the
    // first slot in use from m_current's on.
    return ts >= m_current && ts - m_current < m_slots;
}

// (Inlined: done for every event.)
__attribute__((always_inline)) inline uint32_t
GsnTimingWheelScheduler::NewNode(const Scheduler::Event& ev, const gsn::EventHint& hint)
{
    if (m_free == NONE)
    {
        m_nodes.push_back(Node{ev, NONE, hint.bytes, hint.from});
        return uint32_t(m_nodes.size() - 1);
    }
    const uint32_t i = m_free;
    m_free = m_nodes[i].next;
    m_nodes[i] = Node{ev, NONE, hint.bytes, hint.from};
    return i;
}

// (Inlined: done for every event.)
__attribute__((always_inline)) inline void
GsnTimingWheelScheduler::FreeNode(uint32_t i)
{
    m_nodes[i].next = m_free;
    m_free = i;
}

// (Inlined: done for nearly every event.)
__attribute__((always_inline)) inline void
GsnTimingWheelScheduler::AppendNode(uint32_t s, uint32_t i)
{
    if (m_head[s] == NONE)
    {
        m_head[s] = m_tail[s] = i;
        MarkSlot(s, true);
        return;
    }
    m_nodes[m_tail[s]].next = i;
    m_tail[s] = i;
}

// (Inlined: done for every event.)
__attribute__((always_inline)) inline void
GsnTimingWheelScheduler::MarkSlot(uint32_t s, bool used)
{
    const uint32_t w = s / WORD_BITS;
    const uint64_t bit = uint64_t(1) << (s % WORD_BITS);
    const uint64_t wordBit = uint64_t(1) << (w % WORD_BITS);
    if (used)
    {
        m_used[w] |= bit;
        m_usedWords[w / WORD_BITS] |= wordBit;
    }
    else
    {
        m_used[w] &= ~bit;
        if (m_used[w] == 0)
        {
            m_usedWords[w / WORD_BITS] &= ~wordBit;
        }
    }
}

void
GsnTimingWheelScheduler::Insert(const Scheduler::Event& ev)
{
    if (m_head.empty())
    {
        MakeWheel();
    }
    const gsn::EventHint hint = gsn::g_eventHint; // (for this event only)
    gsn::g_eventHint = gsn::EventHint();
    m_lastUid = std::max(m_lastUid, ev.key.m_uid);
    if (g_orderAsOf != UINT64_MAX)
    {
        // An arrival from another rank (OrderNextAsOf()): numbered as the last event inserted
        // by the end of the step it was sent in, so that it runs where one process, which
        // scheduled it then, runs it among the events of its time step.
        const uint64_t asOf = g_orderAsOf;
        g_orderAsOf = UINT64_MAX;
        Scheduler::Event e = ev;
        e.key.m_uid = UidAsOf(asOf);
        if (!InWheel(e.key.m_ts))
        {
            m_later->GsnQuadHeapScheduler::Insert(e);
            return;
        }
        const uint32_t s = uint32_t(e.key.m_ts & (m_slots - 1));
        const uint32_t i = NewNode(e, hint);
        ++m_inWheel;
        // After every event numbered by the end of that step, before those numbered since.
        uint32_t* link = &m_head[s];
        while (*link != NONE && m_nodes[*link].ev.key.m_uid <= e.key.m_uid)
        {
            link = &m_nodes[*link].next;
        }
        const bool empty = m_head[s] == NONE;
        m_nodes[i].next = *link;
        *link = i;
        if (m_nodes[i].next == NONE)
        {
            m_tail[s] = i;
        }
        if (empty)
        {
            MarkSlot(s, true);
        }
        return;
    }
    const uint64_t ts = ev.key.m_ts;
    if (!InWheel(ts))
    {
        m_later->GsnQuadHeapScheduler::Insert(ev); // (far off: no use fetching anything now)
        return;
    }
    const uint32_t s = uint32_t(ts & (m_slots - 1));
    const uint32_t i = NewNode(ev, hint);
    ++m_inWheel;
    if (m_head[s] == NONE || m_nodes[m_tail[s]].ev.key.m_uid < ev.key.m_uid)
    {
        AppendNode(s, i); // the usual case: numbered after every event there
        return;
    }
    // Inserted out of number order (not done by ns-3's simulators): find its place.
    uint32_t* link = &m_head[s];
    while (*link != NONE && m_nodes[*link].ev.key.m_uid < ev.key.m_uid)
    {
        link = &m_nodes[*link].next;
    }
    m_nodes[i].next = *link;
    *link = i;
}

bool
GsnTimingWheelScheduler::IsEmpty() const
{
    return m_inWheel == 0 && m_later->GsnQuadHeapScheduler::IsEmpty();
}

bool
GsnTimingWheelScheduler::HasEvent() const
{
    return m_inWheel > m_callsPending || !m_later->GsnQuadHeapScheduler::IsEmpty();
}

bool
GsnTimingWheelScheduler::TakeCallAfterEvent(gsn::CallAfterEvent call)
{
    // The simulator counts the events it scheduled against those RemoveNext() gives out, and
    // takes one from every RemoveNext() while IsEmpty() is false: a call is taken only with an
    // event of the simulator's pending, which RemoveNext() gives out after it.
    if (!m_callsAfterEventWork || m_head.empty() || !HasEvent())
    {
        return false;
    }
    // An event scheduled now with no delay would go to the end of the current time step's
    // list (numbered after every event there, before every one scheduled after it): the call
    // goes there, as a node without an event (CallNodeMark(); the context field holds the index
    // of the call, the number field the last number given, which orders it as that event).
    uint32_t index;
    if (m_freeCalls.empty())
    {
        index = uint32_t(m_calls.size());
        m_calls.push_back(std::move(call));
    }
    else
    {
        index = m_freeCalls.back();
        m_freeCalls.pop_back();
        m_calls[index] = std::move(call);
    }
    Scheduler::Event node;
    node.impl = CallNodeMark();
    node.key.m_ts = m_current;
    node.key.m_uid = m_lastUid;
    node.key.m_context = index;
    AppendNode(uint32_t(m_current & (m_slots - 1)), NewNode(node, gsn::EventHint()));
    ++m_inWheel;
    ++m_callsPending;
    return true;
}

void
GsnTimingWheelScheduler::MakeCall(uint32_t index)
{
    const gsn::CallAfterEvent call = std::move(m_calls[index]);
    m_calls[index] = gsn::CallAfterEvent();
    m_freeCalls.push_back(index);
    call.call(PeekPointer(call.object));
}

uint32_t
GsnTimingWheelScheduler::FirstWordFrom(uint32_t from) const
{
    const uint32_t words = uint32_t(m_used.size());
    if (from >= words)
    {
        return NONE;
    }
    uint32_t sw = from / WORD_BITS;
    uint64_t summary = m_usedWords[sw] & (~uint64_t(0) << (from % WORD_BITS));
    while (summary == 0)
    {
        if (++sw == m_usedWords.size())
        {
            return NONE;
        }
        summary = m_usedWords[sw];
    }
    return sw * WORD_BITS + LowestBit(summary);
}

// (Inlined: done for every event.)
__attribute__((always_inline)) inline uint32_t
GsnTimingWheelScheduler::FirstSlot() const
{
    if (m_inWheel == 0)
    {
        return NONE;
    }
    // From the current time step's slot to the end, then around from slot 0.
    const uint32_t start = uint32_t(m_current & (m_slots - 1));
    const uint32_t w = start / WORD_BITS;
    const uint64_t rest = m_used[w] & (~uint64_t(0) << (start % WORD_BITS));
    if (rest != 0)
    {
        return w * WORD_BITS + LowestBit(rest);
    }
    uint32_t next = FirstWordFrom(w + 1);
    if (next == NONE)
    {
        next = FirstWordFrom(0); // at or before w: its bits from start on are clear
    }
    NS_ASSERT(next != NONE);
    return next * WORD_BITS + LowestBit(m_used[next]);
}

// (Inlined: done for every event.)
__attribute__((always_inline)) inline uint32_t
GsnTimingWheelScheduler::NextSlot() const
{
    // The earlier of the wheel's first event and the heap's top, by time then insertion.
    const uint32_t s = FirstSlot();
    if (s == NONE || m_later->GsnQuadHeapScheduler::IsEmpty())
    {
        return s;
    }
    return m_nodes[m_head[s]].ev.key < m_later->GsnQuadHeapScheduler::PeekNext().key ? s : NONE;
}

Scheduler::Event
GsnTimingWheelScheduler::PeekNext() const
{
    if (m_callsPending > 0 && !m_makingCall)
    {
        // (Made here as RemoveNext() would make them: the wheel is the same before and after,
        // but for the calls.)
        const_cast<GsnTimingWheelScheduler*>(this)->MakeCallsBeforeNextEvent();
    }
    // (Within a call, this may be a call after an event, without an event object: its time
    // is right.)
    const uint32_t s = NextSlot();
    return s == NONE ? m_later->GsnQuadHeapScheduler::PeekNext() : m_nodes[m_head[s]].ev;
}

// (Inlined: done for every event.)
__attribute__((always_inline)) inline Scheduler::Event
GsnTimingWheelScheduler::PopSlot(uint32_t s)
{
    const uint32_t i = m_head[s];
    const Scheduler::Event ev = m_nodes[i].ev;
    m_head[s] = m_nodes[i].next;
    if (m_head[s] == NONE)
    {
        m_tail[s] = NONE;
        MarkSlot(s, false);
    }
    FreeNode(i);
    --m_inWheel;
    return ev;
}

Scheduler::Event
GsnTimingWheelScheduler::RemoveNext()
{
    for (;;)
    {
        NS_ASSERT_MSG(HasEvent(), "GsnTimingWheelScheduler: no event behind the calls");
        const uint32_t s = NextSlot();
        const Scheduler::Event next =
            s == NONE ? m_later->GsnQuadHeapScheduler::RemoveNext() : PopSlot(s);
        if (g_stepHistory > 0 && next.key.m_ts != m_current)
        {
            if (m_stepUidsFront > 4096 && m_stepUidsFront * 2 > m_stepUids.size())
            {
                m_stepUids.erase(m_stepUids.begin(), m_stepUids.begin() + m_stepUidsFront);
                m_stepUidsFront = 0;
            }
            m_stepUids.emplace_back(m_current, m_lastUid);
            // (The last step at or before the oldest kept stays: it answers for the steps
            // after it without events.)
            while (m_stepUidsFront + 1 < m_stepUids.size() &&
                   m_stepUids[m_stepUidsFront + 1].first + g_stepHistory <= next.key.m_ts)
            {
                ++m_stepUidsFront;
            }
        }
        m_current = next.key.m_ts;
        if (gsn::g_publishedTime.publisher == this)
        {
            gsn::g_publishedTime.ts = m_current;
        }
        if (next.impl != CallNodeMark())
        {
            PrefetchNext();
            return next;
        }
        // A call after an event (TakeCallAfterEvent()): made here, where that event would
        // run; then on to the next (an event of the simulator's is still pending:
        // KeepAnEventAfterCalls()).
        --m_callsPending;
        m_makingCall = true;
        MakeCall(next.key.m_context);
        m_makingCall = false;
    }
}

void
GsnTimingWheelScheduler::OrderNextAsOf(uint64_t step)
{
    g_orderAsOf = step;
}

void
GsnTimingWheelScheduler::KeepStepHistory(uint64_t steps)
{
    g_stepHistory = std::max(g_stepHistory, steps);
}

uint32_t
GsnTimingWheelScheduler::UidAsOf(uint64_t step) const
{
    if (step >= m_current)
    {
        return m_lastUid;
    }
    for (std::size_t k = m_stepUids.size(); k > m_stepUidsFront; --k)
    {
        if (m_stepUids[k - 1].first <= step)
        {
            return m_stepUids[k - 1].second;
        }
    }
    if (m_stepUidsFront == 0)
    {
        return 0; // (before the first step)
    }
    NS_FATAL_ERROR("GsnTimingWheelScheduler: time step " << step << " is no longer kept");
}

void
GsnTimingWheelScheduler::MakeCallsBeforeNextEvent()
{
    while (m_callsPending > 0)
    {
        const uint32_t s = NextSlot();
        if (s == NONE || m_nodes[m_head[s]].ev.impl != CallNodeMark())
        {
            return; // an event comes first
        }
        const Scheduler::Event call = PopSlot(s);
        --m_callsPending;
        m_makingCall = true;
        MakeCall(call.key.m_context);
        m_makingCall = false;
    }
}

__attribute__((always_inline)) inline void
GsnTimingWheelScheduler::PrefetchNext() const
{
    const uint32_t s = FirstSlot();
    if (s == NONE)
    {
        return;
    }
    const Node& node = m_nodes[m_head[s]];
    __builtin_prefetch(node.ev.impl);
    for (uint32_t b = 0; b < node.hintBytes; b += CACHE_LINE_BYTES)
    {
        __builtin_prefetch(node.hint + b);
    }
}

void
GsnTimingWheelScheduler::KeepAnEventAfterCalls()
{
    if ((m_callsPending > 0 || m_makingCall) && !HasEvent())
    {
        // (The simulator is inside its Remove(), between taking the event out and counting
        // it gone; it counts this one in, as any other.)
        Simulator::ScheduleNow([]() {});
    }
}

void
GsnTimingWheelScheduler::Remove(const Scheduler::Event& ev)
{
    RemoveEvent(ev);
    KeepAnEventAfterCalls();
}

void
GsnTimingWheelScheduler::RemoveEvent(const Scheduler::Event& ev)
{
    if (InWheel(ev.key.m_ts))
    {
        const uint32_t s = uint32_t(ev.key.m_ts & (m_slots - 1));
        uint32_t prev = NONE;
        for (uint32_t i = m_head[s]; i != NONE; prev = i, i = m_nodes[i].next)
        {
            if (m_nodes[i].ev.key.m_uid != ev.key.m_uid || m_nodes[i].ev.impl == CallNodeMark())
            {
                continue; // (a call after an event has the number of the event before it)
            }
            if (prev == NONE)
            {
                PopSlot(s);
                return;
            }
            m_nodes[prev].next = m_nodes[i].next;
            if (m_tail[s] == i)
            {
                m_tail[s] = prev;
            }
            FreeNode(i);
            --m_inWheel;
            return;
        }
        // Not there: inserted before the wheel reached its time step.
    }
    m_later->GsnQuadHeapScheduler::Remove(ev);
}

std::size_t
GsnTimingWheelScheduler::GetWheelEvents() const
{
    return m_inWheel;
}

} // namespace ns3
