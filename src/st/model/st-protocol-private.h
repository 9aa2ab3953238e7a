/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ST_PROTOCOL_PRIVATE_H
#define ST_PROTOCOL_PRIVATE_H

// What the files implementing StProtocol share and nothing else includes: the log component.
// Not installed.

#include "st-protocol.h"

#include "ns3/log.h"

namespace ns3
{

/// \return the log component "StProtocol" (defined in st-protocol.cc), which every file of
///         StProtocol logs to
LogComponent& StProtocolLog();

} // namespace ns3

/**
 * Makes NS_LOG in a file of StProtocol other than st-protocol.cc log to its component.
 * (Binding the reference reads nothing, so the order in which the files' statics are made
 * does not matter.)
 */
#define ST_PROTOCOL_LOG() static LogComponent& g_log [[maybe_unused]] = StProtocolLog()

#endif /* ST_PROTOCOL_PRIVATE_H */
