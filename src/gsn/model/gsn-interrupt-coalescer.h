/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnInterruptCoalescer: when a GSN adapter interrupts its host. It owns the completions the
 * host has not been told of and the one pending interrupt; it raises the interrupt a delay
 * after the oldest completion, or at once when enough have gathered, and hands the handler
 * every completion due by then. What a completion means, and what handling it costs, is the
 * adapter's business.
 */
#ifndef GSN_INTERRUPT_COALESCER_H
#define GSN_INTERRUPT_COALESCER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Interrupt coalescing: one interrupt for the completions of a short interval.
 *
 * A completion posted for time t is reported by the first interrupt at or after t. The
 * interrupt is raised Delay after the oldest unreported completion, or at the completion
 * that makes MaxCompletions unreported ones, whichever is first. With Delay 0 every
 * completion interrupts at its own time (completions of the same instant share one).
 */
class GsnInterruptCoalescer : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnInterruptCoalescer();
    ~GsnInterruptCoalescer() override;

    /// The handler: the tokens of the completions reported, oldest first.
    typedef Callback<void, const std::vector<uint64_t>&> Handler;

    /// \param handler called at each interrupt
    void SetHandler(Handler handler);

    /**
     * A completion at \p at (not before now), identified by \p token.
     * \param at when the adapter has written its completion
     * \param token what the handler gets
     */
    void Post(Time at, uint64_t token);

    /// \return interrupts raised so far
    uint64_t GetInterrupts() const
    {
        return m_interrupts;
    }

    /// \return completions reported so far
    uint64_t GetCompletions() const
    {
        return m_completions;
    }

    /// TracedCallback signature of an interrupt: how many completions it reports.
    typedef void (*InterruptTracedCallback)(uint32_t completions);

  protected:
    void DoDispose() override;

  private:
    /// Put the interrupt event at the time the pending completions call for.
    void Reschedule();
    /// Raise the interrupt.
    void Fire();

    Time m_delay;                              ///< Delay
    uint32_t m_maxCompletions;                 ///< MaxCompletions
    std::multimap<Time, uint64_t> m_pending;   ///< unreported completions by time
    EventId m_event;                           ///< the pending interrupt
    Handler m_handler;                         ///< the adapter's handler
    uint64_t m_interrupts;                     ///< interrupts raised
    uint64_t m_completions;                    ///< completions reported
    TracedCallback<uint32_t> m_interruptTrace; ///< Interrupt
};

} // namespace ns3

#endif /* GSN_INTERRUPT_COALESCER_H */
