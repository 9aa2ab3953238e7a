/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GSN_TRAFFIC_STATS_PRIVATE_H
#define GSN_TRAFFIC_STATS_PRIVATE_H

// What the files implementing GsnTrafficStats share and nothing else includes: its log
// component. Not installed.

#include "gsn-traffic-stats.h"

#include "ns3/log.h"

namespace ns3
{
namespace gsn
{

/// \return the log component "GsnTrafficStats" (defined in gsn-traffic-stats.cc), which every
///         file of GsnTrafficStats logs to
LogComponent& TrafficStatsLog();

} // namespace gsn
} // namespace ns3

/**
 * Makes NS_LOG in a file of GsnTrafficStats other than gsn-traffic-stats.cc log to its
 * component. (Binding the reference reads nothing, so the order in which the files' statics
 * are made does not matter.)
 */
#define GSN_TRAFFIC_STATS_LOG() static LogComponent& g_log [[maybe_unused]] = gsn::TrafficStatsLog()

#endif /* GSN_TRAFFIC_STATS_PRIVATE_H */
