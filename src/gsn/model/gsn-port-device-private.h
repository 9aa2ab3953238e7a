/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GSN_PORT_DEVICE_PRIVATE_H
#define GSN_PORT_DEVICE_PRIVATE_H

// What the files implementing GsnPortDevice share and nothing else includes: the port's log
// component and the count of timer events. Not installed.

#include "gsn-port-device.h"

#include "ns3/log.h"

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
} // namespace ns3

/**
 * Makes NS_LOG in a file of GsnPortDevice other than gsn-port-device.cc log to the port's
 * component. (Binding the reference reads nothing, so the order in which the files'
 * statics are made does not matter.)
 */
#define GSN_PORT_DEVICE_LOG() static LogComponent& g_log [[maybe_unused]] = gsn::PortDeviceLog()

#endif /* GSN_PORT_DEVICE_PRIVATE_H */
