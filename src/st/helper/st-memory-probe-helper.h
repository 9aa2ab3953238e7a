/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StMemoryProbeHelper: installs StMemoryProbes: PUT/GET/FETCHOP latency against an StServer.
 */
#ifndef ST_MEMORY_PROBE_HELPER_H
#define ST_MEMORY_PROBE_HELPER_H

#include "st-application-helper.h"

#include "ns3/ipv4-address.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief Installs StMemoryProbe applications (attributes: see StMemoryProbe).
 */
class StMemoryProbeHelper : public StApplicationHelper
{
  public:
    /// \param remote Remote \param port Port
    StMemoryProbeHelper(Ipv4Address remote, uint16_t port);
};

} // namespace ns3

#endif /* ST_MEMORY_PROBE_HELPER_H */
