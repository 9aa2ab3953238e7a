/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HARP_INTERFACE_PRIVATE_H
#define HARP_INTERFACE_PRIVATE_H

// What the files implementing HarpInterface share and nothing else includes: the log
// component. Not installed.

#include "harp-interface.h"

#include "ns3/log.h"

namespace ns3
{

/// \return the log component "HarpInterface" (defined in harp-interface.cc), which every file
///         of HarpInterface logs to
LogComponent& HarpInterfaceLog();

} // namespace ns3

/**
 * Makes NS_LOG in a file of HarpInterface other than harp-interface.cc log to its component.
 * (Binding the reference reads nothing, so the order in which the files' statics are made
 * does not matter.)
 */
#define HARP_INTERFACE_LOG() static LogComponent& g_log [[maybe_unused]] = HarpInterfaceLog()

#endif /* HARP_INTERFACE_PRIVATE_H */
