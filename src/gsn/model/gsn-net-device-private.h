/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GSN_NET_DEVICE_PRIVATE_H
#define GSN_NET_DEVICE_PRIVATE_H

// What the files implementing GsnNetDevice share and nothing else includes: the endpoint's
// log component. Not installed.

#include "gsn-net-device.h"

#include "ns3/log.h"

namespace ns3
{
namespace gsn
{

/// \return the log component "GsnNetDevice" (defined in gsn-net-device.cc), which every file
///         of the endpoint logs to
LogComponent& NetDeviceLog();

} // namespace gsn
} // namespace ns3

/**
 * Makes NS_LOG in a file of GsnNetDevice other than gsn-net-device.cc log to the endpoint's
 * component. (Binding the reference reads nothing, so the order in which the files' statics
 * are made does not matter.)
 */
#define GSN_NET_DEVICE_LOG() static LogComponent& g_log [[maybe_unused]] = gsn::NetDeviceLog()

#endif /* GSN_NET_DEVICE_PRIVATE_H */
