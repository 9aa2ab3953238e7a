/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-server-helper.h"

#include "ns3/st-server.h"
#include "ns3/uinteger.h"

namespace ns3
{

StServerHelper::StServerHelper(uint16_t port)
    : StApplicationHelper(StServer::GetTypeId())
{
    m_factory.Set("Port", UintegerValue(port));
}

} // namespace ns3
