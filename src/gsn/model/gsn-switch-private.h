/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GSN_SWITCH_PRIVATE_H
#define GSN_SWITCH_PRIVATE_H

// What the files implementing GsnSwitch share and nothing else includes: the switch's log
// component. Not installed.

#include "gsn-switch.h"

#include "ns3/log.h"

namespace ns3
{
namespace gsn
{

/// \return the log component "GsnSwitch" (defined in gsn-switch.cc), which every file of the
///         switch logs to
LogComponent& SwitchLog();

} // namespace gsn
} // namespace ns3

/**
 * Makes NS_LOG in a file of GsnSwitch other than gsn-switch.cc log to the switch's component.
 * (Binding the reference reads nothing, so the order in which the files' statics are made
 * does not matter.)
 */
#define GSN_SWITCH_LOG() static LogComponent& g_log [[maybe_unused]] = gsn::SwitchLog()

#endif /* GSN_SWITCH_PRIVATE_H */
