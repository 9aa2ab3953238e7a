/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-memory-probe-helper.h"

#include "ns3/st-memory-probe.h"
#include "ns3/uinteger.h"

namespace ns3
{

StMemoryProbeHelper::StMemoryProbeHelper(Ipv4Address remote, uint16_t port)
    : StApplicationHelper(StMemoryProbe::GetTypeId())
{
    m_factory.Set("Remote", Ipv4AddressValue(remote));
    m_factory.Set("Port", UintegerValue(port));
}

} // namespace ns3
