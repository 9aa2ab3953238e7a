/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StPingPongHelper: installs StPingPongs: round trips against an StServer with Echo set.
 */
#ifndef ST_PING_PONG_HELPER_H
#define ST_PING_PONG_HELPER_H

#include "st-application-helper.h"

#include "ns3/ipv4-address.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief Installs StPingPong applications (attributes: see StPingPong).
 */
class StPingPongHelper : public StApplicationHelper
{
  public:
    /// \param remote Remote \param port Port
    StPingPongHelper(Ipv4Address remote, uint16_t port);
};

} // namespace ns3

#endif /* ST_PING_PONG_HELPER_H */
