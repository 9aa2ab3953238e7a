/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::CallAfterCurrentEvent(): a call made once the event under way is over, where an event
 * scheduled with no delay would run, without an event of its own.
 */
#ifndef GSN_CALL_AFTER_EVENT_H
#define GSN_CALL_AFTER_EVENT_H

#include "ns3/object.h"
#include "ns3/ptr.h"

namespace ns3
{
namespace gsn
{

/// A call to make once the event under way is over.
struct CallAfterEvent
{
    void (*call)(Object*); ///< what to call
    Ptr<Object> object;    ///< on what (kept alive until then)
};

/**
 * \ingroup gsn
 * Make \p call on \p object where an event scheduled now with no delay would run: after the
 * events pending at this instant, before those scheduled after it. A
 * GsnTimingWheelScheduler that the DefaultSimulatorImpl runs (and that publishes the time,
 * gsn-now.h) takes it, without making an event: the call sees the same time, but the context
 * and event number of the event before it, and is not counted in
 * Simulator::GetEventCount().
 * \param call what to call
 * \param object the object to call it on
 * \return whether the call was taken; if not, schedule an event instead
 */
bool CallAfterCurrentEvent(void (*call)(Object*), Ptr<Object> object);

} // namespace gsn
} // namespace ns3

#endif /* GSN_CALL_AFTER_EVENT_H */
