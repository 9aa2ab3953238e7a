/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The link layer's own event objects: a port's handler, a run's arrival. Allocated from free
 * lists instead of one heap allocation each, as ns-3's MakeEvent() does.
 */
#ifndef GSN_PORT_EVENT_H
#define GSN_PORT_EVENT_H

#include "gsn-block-pool.h"
#include "gsn-micropacket-run.h"
#include "gsn-now.h"
#include "gsn-port-device.h"

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{
namespace gsn
{

/// Time step of the last port event run (CheckTimeOrder()); a port made sets it to 0.
extern int64_t g_lastPortEventTs;

/// Abort, explaining: the simulator ran a port event at \p ts, before g_lastPortEventTs.
[[noreturn]] void ReportTimeReversal(int64_t ts);

/**
 * Check that the simulator runs port events in time order. ns-3.37's HeapScheduler loses
 * its order after Simulator::Remove() (it restores the heap downwards only); the ports leave
 * Remove alone when the SchedulerType global value names it, but cannot see one given to
 * Simulator::SetScheduler(). Time going back would break the link layer silently (a port
 * could wait for ever at one instant): this makes it an error that says why.
 */
inline void
CheckTimeOrder()
{
    if (g_publishedTime.publisher)
    {
        return; // (a GsnTimingWheelScheduler: its order is kept)
    }
    const int64_t ts = Simulator::Now().GetTimeStep();
    if (ts < g_lastPortEventTs)
    {
        ReportTimeReversal(ts);
    }
    g_lastPortEventTs = ts;
}

/// An event whose memory comes from a BlockPool (\p Derived: the event class).
template <typename Derived>
class PooledEvent : public EventImpl, public Pooled<Derived>
{
};

/// An event that calls a handler of a port (its timers, the end of a transmission).
class PortCallEvent final : public PooledEvent<PortCallEvent>
{
  public:
    /// A handler of GsnPortDevice.
    using Handler = void (GsnPortDevice::*)();

    /// \param port the port \param handler what to call
    PortCallEvent(GsnPortDevice* port, Handler handler)
        : m_port(port),
          m_handler(handler)
    {
    }

  protected:
    void Notify() override
    {
        CheckTimeOrder();
        (m_port->*m_handler)();
    }

  private:
    GsnPortDevice* m_port; ///< the port (its channel or node keeps it alive)
    Handler m_handler;     ///< what to call
};

/// An event that hands a micropacket sent alone to the port it arrives at. Until its slot's
/// instant is over the sender may still amend it (GsnChannel::AmendRseqSentNow()).
class MicropacketArrivalEvent final : public PooledEvent<MicropacketArrivalEvent>
{
  public:
    /// \param port the receiving port \param mp the micropacket
    MicropacketArrivalEvent(GsnPortDevice* port, const GsnMicropacket& mp)
        : m_port(port),
          m_mp(mp)
    {
    }

    /// \return the micropacket, as it will arrive
    GsnMicropacket& Micropacket()
    {
        return m_mp;
    }

  protected:
    void Notify() override
    {
        CheckTimeOrder();
        m_port->Receive(m_mp);
    }

  private:
    GsnPortDevice* m_port; ///< the receiving port (the channel keeps it alive)
    GsnMicropacket m_mp;   ///< the micropacket
};

/// An event that hands a run to the port it arrives at.
class RunArrivalEvent final : public PooledEvent<RunArrivalEvent>
{
  public:
    /// \param port the receiving port \param run the run
    RunArrivalEvent(GsnPortDevice* port, Ptr<GsnMicropacketRun> run)
        : m_port(port),
          m_run(std::move(run))
    {
    }

  protected:
    void Notify() override
    {
        CheckTimeOrder();
        m_port->ReceiveRun(std::move(m_run));
    }

  private:
    GsnPortDevice* m_port;        ///< the receiving port (the channel keeps it alive)
    Ptr<GsnMicropacketRun> m_run; ///< the run
};

/**
 * Simulator::Schedule(delay, handler, port), with the event from a free list.
 * \param delay when, from now
 * \param port the port
 * \param handler what to call
 * \return the event's id
 */
inline EventId
SchedulePortCall(const Time& delay, GsnPortDevice* port, PortCallEvent::Handler handler)
{
    port->HintNextEvent();
    return Simulator::Schedule(delay, Ptr<EventImpl>(new PortCallEvent(port, handler), false));
}

/**
 * As SchedulePortCall(), for an event never cancelled: no EventId is made, which is a third
 * of what scheduling costs through Simulator::Schedule(). The event is numbered and ordered
 * exactly as Simulator::Schedule() would, in the current context.
 * \param delay when, from now
 * \param port the port
 * \param handler what to call
 */
inline void
SchedulePortCallOnce(const Time& delay, GsnPortDevice* port, PortCallEvent::Handler handler)
{
    port->HintNextEvent();
    Simulator::ScheduleWithContext(Simulator::GetContext(),
                                   delay,
                                   new PortCallEvent(port, handler));
}

} // namespace gsn
} // namespace ns3

#endif /* GSN_PORT_EVENT_H */
