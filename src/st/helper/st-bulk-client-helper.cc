/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-bulk-client-helper.h"

#include "ns3/st-bulk-client.h"
#include "ns3/uinteger.h"

namespace ns3
{

StBulkClientHelper::StBulkClientHelper(Ipv4Address remote, uint16_t port)
    : StApplicationHelper(StBulkClient::GetTypeId())
{
    m_factory.Set("Remote", Ipv4AddressValue(remote));
    m_factory.Set("Port", UintegerValue(port));
}

} // namespace ns3
