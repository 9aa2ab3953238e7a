/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-ping-pong-helper.h"

#include "ns3/st-ping-pong.h"
#include "ns3/uinteger.h"

namespace ns3
{

StPingPongHelper::StPingPongHelper(Ipv4Address remote, uint16_t port)
    : StApplicationHelper(StPingPong::GetTypeId())
{
    m_factory.Set("Remote", Ipv4AddressValue(remote));
    m_factory.Set("Port", UintegerValue(port));
}

} // namespace ns3
