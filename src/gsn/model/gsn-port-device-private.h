/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GSN_PORT_DEVICE_PRIVATE_H
#define GSN_PORT_DEVICE_PRIVATE_H

// What the files implementing GsnPortDevice share and nothing else includes: the port's log
// component, the count of timer events, the inline definitions of its small private helpers and
// its timers that fire after the event under way. Not installed.

#include "gsn-call-after-event.h"
#include "gsn-port-device.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{
namespace gsn
{

/// \return the log component "GsnPortDevice" (defined in gsn-port-device.cc), which every
///         file of the port logs to
LogComponent& PortDeviceLog();

/// Counts a timer's event in the link counters, and whether the port sent nothing in it.
class TimerEventCount
{
  public:
    /// \param counters the port's counters
    explicit TimerEventCount(GsnLinkCounters& counters)
        : m_counters(counters),
          m_sentBefore(counters.txMicropackets)
    {
        ++m_counters.timerEvents;
    }

    ~TimerEventCount()
    {
        if (m_counters.txMicropackets == m_sentBefore)
        {
            ++m_counters.timerEventsSendingNothing;
        }
    }

    TimerEventCount(const TimerEventCount&) = delete;
    TimerEventCount& operator=(const TimerEventCount&) = delete;

  private:
    GsnLinkCounters& m_counters; ///< the port's counters
    uint64_t m_sentBefore;       ///< micropackets sent before the event
};

} // namespace gsn

// The port's small private helpers, inline for the hot paths: declared (and explained) in
// GsnPortDevice's private part.

inline bool
GsnPortDevice::NullDue() const
{
    return m_ackDue && m_rxUnacked > 0;
}

inline bool
GsnPortDevice::MakeCreditOnlyDue(uint32_t owed) const
{
    return owed >= m_creditReturnThreshold || m_creditDue;
}

inline uint8_t
GsnPortDevice::RseqInRun(uint8_t rseq) const
{
    return m_rxRun ? m_rxRun->RseqOf(m_rxIndex, rseq) : rseq;
}

inline bool
GsnPortDevice::ReceivesPlainly() const
{
    return !TimesAcknowledgements() && !m_receiveErrorModel && m_micropacketRxTrace.IsEmpty();
}

inline bool
GsnPortDevice::StartedIdleAt(const Time& at) const
{
    return m_startedIdle && m_txBusy && m_runStart == at && !m_placesFreedElsewhere;
}

inline void
GsnPortDevice::ApplyDueCredits(const Time& t, bool slotFollows, bool creditsFollow)
{
    // (Not gated by the mode: what was kept stays due if the mode changes.)
    if (m_laterReleases.HasDue(t) || m_laterCredits.HasDue(t) || m_laterAcks.HasDueBy(t) ||
        (!m_laterArrivals.empty() && m_laterArrivals.front() <= t))
    {
        ApplyDueCreditsNow(t,
                           slotFollows || t == m_runEnd,
                           m_exactCredits && (creditsFollow || t == m_runEnd));
    }
}

inline void
GsnPortDevice::FreeRxPlaces(uint8_t vc, uint32_t n)
{
    NS_ASSERT(m_rxOccupancy[vc] >= n);
    m_rxOccupancy[vc] -= n;
    m_owedCredits[vc] += n;
    m_owedTotal += n;
}

inline bool
GsnPortDevice::RetransmitDeadlinePassed(const Time& at) const
{
    return m_state == LinkState::UP && m_retx.size() > m_ackedAhead && at >= m_rtxDeadline;
}

inline uint8_t
GsnPortDevice::FirstUnackedTseq() const
{
    return uint8_t(m_retx.FrontTseq() + m_ackedAhead);
}

inline std::size_t
GsnPortDevice::NextRiderFrom(std::size_t i) const
{
    return m_retx.FirstWithoutCredits(i < m_ackedAhead ? std::max(i, m_ackedCreditsUpTo) : i);
}

inline std::size_t
GsnPortDevice::FirstSlotFrom(const Time& arrival) const
{
    return m_txRun->LeftBy((arrival - m_runStart).GetNanoSeconds() - 1);
}

inline bool
GsnPortDevice::AcksRideOnRun() const
{
    return !ExactAcks() && m_txBusy;
}

inline bool
GsnPortDevice::ExactAcks() const
{
    return m_linkMode == LinkMode::RUN && (m_exactCredits || m_linkMayCorrupt);
}

inline uint32_t
GsnPortDevice::RoomAhead(uint32_t room, int64_t step) const
{
    uint32_t k = std::min(
        room,
        uint32_t(m_retransmitWindow - std::min<std::size_t>(m_retransmitWindow, m_retx.size())));
    if (!m_retx.empty())
    {
        // (m_retx holds the micropacket just chosen: the deadline is set.) The one j (from 1)
        // steps after m_slotTime leaves before it.
        const int64_t before = (m_rtxDeadline - m_slotTime - TimeStep(1)).GetTimeStep();
        k = uint32_t(std::min<int64_t>(k, before < 0 ? 0 : before / step));
    }
    return k;
}

inline bool
GsnPortDevice::TimesAcknowledgements() const
{
    return m_exactCredits || ExactAcks();
}

// Make Timer call Handler once the event under way is over: as a call after it where the scheduler
// takes one (gsn::CallAfterCurrentEvent(), no event), else as an event with no delay. The handler
// calls Clear().
template <GsnPortDevice::PortTimer GsnPortDevice::*Timer, void (GsnPortDevice::*Handler)()>
void
GsnPortDevice::ArmAfterCurrentEvent()
{
    if (gsn::CallAfterCurrentEvent(&GsnPortDevice::CallIfPending<Timer, Handler>, this))
    {
        (this->*Timer).pending = true; // (no event: nothing to cancel)
    }
    else
    {
        Arm(this->*Timer, Time(0), Handler);
    }
}

// The call ArmAfterCurrentEvent() leaves with the scheduler: Handler, unless the timer was cleared
// meanwhile (the port disposed).
template <GsnPortDevice::PortTimer GsnPortDevice::*Timer, void (GsnPortDevice::*Handler)()>
void
GsnPortDevice::CallIfPending(Object* port)
{
    auto* p = static_cast<GsnPortDevice*>(port);
    if ((p->*Timer).pending) // (not if disposed meanwhile)
    {
        (p->*Handler)();
    }
}

} // namespace ns3

/**
 * Makes NS_LOG in a file of GsnPortDevice other than gsn-port-device.cc log to the port's
 * component. (Binding the reference reads nothing, so the order in which the files'
 * statics are made does not matter.)
 */
#define GSN_PORT_DEVICE_LOG() static LogComponent& g_log [[maybe_unused]] = gsn::PortDeviceLog()

#endif /* GSN_PORT_DEVICE_PRIVATE_H */
