/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StServerHelper: installs StServers: the responder side (sink of writes, source of reads, regions,
 * echo).
 */
#ifndef ST_SERVER_HELPER_H
#define ST_SERVER_HELPER_H

#include "st-application-helper.h"

#include "ns3/ipv4-address.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief Installs StServer applications (attributes: see StServer).
 */
class StServerHelper : public StApplicationHelper
{
  public:
    /// \param port Port
    explicit StServerHelper(uint16_t port);
};

} // namespace ns3

#endif /* ST_SERVER_HELPER_H */
