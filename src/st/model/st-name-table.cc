/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-name-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StNameTable");
NS_OBJECT_ENSURE_REGISTERED(StNameTable);

TypeId
StNameTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StNameTable")
                            .SetParent<Object>()
                            .SetGroupName("St")
                            .AddConstructor<StNameTable>();
    return tid;
}

namespace
{
Ptr<StNameTable> g_global;    ///< the global table
bool g_clearScheduled{false}; ///< a Simulator::Destroy will empty it

void
ClearGlobal()
{
    g_global->Clear();
    g_clearScheduled = false;
}
} // namespace

Ptr<StNameTable>
StNameTable::GetGlobal()
{
    if (!g_global)
    {
        g_global = CreateObject<StNameTable>();
    }
    if (!g_clearScheduled)
    {
        // One table per simulation: Simulator::Destroy empties it, as it removes the nodes.
        Simulator::ScheduleDestroy(&ClearGlobal);
        g_clearScheduled = true;
    }
    return g_global;
}

void
StNameTable::AddHost(const std::string& name, Ipv4Address address)
{
    NS_ABORT_MSG_IF(name.empty(), "StNameTable::AddHost: an empty host name");
    m_hosts[name] = address;
}

void
StNameTable::AddService(const std::string& name, uint16_t port)
{
    NS_ABORT_MSG_IF(name.empty(), "StNameTable::AddService: an empty service name");
    NS_ABORT_MSG_IF(port == 0,
                    "StNameTable::AddService: service '" << name
                                                         << "' on port 0, where RCs arrive");
    m_services[name] = port;
}

bool
StNameTable::LookupHost(const std::string& name, Ipv4Address& address) const
{
    auto it = m_hosts.find(name);
    if (it == m_hosts.end())
    {
        return false;
    }
    address = it->second;
    return true;
}

bool
StNameTable::LookupService(const std::string& name, uint16_t& port) const
{
    auto it = m_services.find(name);
    if (it == m_services.end())
    {
        return false;
    }
    port = it->second;
    return true;
}

void
StNameTable::Clear()
{
    m_hosts.clear();
    m_services.clear();
}

bool
StNameTable::ResolveHost(Ptr<Node> node, const std::string& name, Ipv4Address& address)
{
    Ptr<StNameTable> own = node ? node->GetObject<StNameTable>() : nullptr;
    return (own && own->LookupHost(name, address)) || GetGlobal()->LookupHost(name, address);
}

bool
StNameTable::ResolveService(Ptr<Node> node, const std::string& name, uint16_t& port)
{
    Ptr<StNameTable> own = node ? node->GetObject<StNameTable>() : nullptr;
    return (own && own->LookupService(name, port)) || GetGlobal()->LookupService(name, port);
}

} // namespace ns3
