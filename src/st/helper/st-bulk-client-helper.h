/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StBulkClientHelper: installs StBulkClients: bulk writes (source) or reads (destination) against
 * an StServer.
 */
#ifndef ST_BULK_CLIENT_HELPER_H
#define ST_BULK_CLIENT_HELPER_H

#include "st-application-helper.h"

#include "ns3/ipv4-address.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief Installs StBulkClient applications (attributes: see StBulkClient).
 */
class StBulkClientHelper : public StApplicationHelper
{
  public:
    /// \param remote Remote \param port Port
    StBulkClientHelper(Ipv4Address remote, uint16_t port);
};

} // namespace ns3

#endif /* ST_BULK_CLIENT_HELPER_H */
