/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-helper.h"

#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/st-name-table.h"
#include "ns3/st-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StHelper");

StHelper::StHelper()
{
    m_factory.SetTypeId(StProtocol::GetTypeId());
}

void
StHelper::SetAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<StProtocol>
StHelper::GetOrCreate(Ptr<Node> node) const
{
    Ptr<StProtocol> st = node->GetObject<StProtocol>();
    if (!st)
    {
        st = m_factory.Create<StProtocol>();
        node->AggregateObject(st);
        st->SetNode(node);
        // ST stream sockets for ns-3's applications and user code (Socket::CreateSocket).
        Ptr<StSocketFactory> sockets = CreateObject<StSocketFactory>();
        sockets->SetProtocol(st);
        node->AggregateObject(sockets);
    }
    return st;
}

Ptr<StProtocol>
StHelper::Install(Ptr<Node> node) const
{
    Ptr<StProtocol> st = GetOrCreate(node);
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> d = node->GetDevice(i);
        if (!DynamicCast<LoopbackNetDevice>(d))
        {
            st->AddDevice(d);
        }
    }
    return st;
}

void
StHelper::Install(NodeContainer c) const
{
    for (auto it = c.Begin(); it != c.End(); ++it)
    {
        Install(*it);
    }
}

void
StHelper::Install(NetDeviceContainer c) const
{
    for (auto it = c.Begin(); it != c.End(); ++it)
    {
        GetOrCreate((*it)->GetNode())->AddDevice(*it);
    }
}

void
StHelper::Install(NetDeviceContainer c, Ipv4AddressHelper& addresses) const
{
    for (auto it = c.Begin(); it != c.End(); ++it)
    {
        GetOrCreate((*it)->GetNode())->AddDevice(*it, addresses.NewAddress());
    }
}

void
StHelper::InstallAll() const
{
    Install(NodeContainer::GetGlobal());
}

void
StHelper::PopulateStaticTables(NodeContainer c)
{
    for (auto a = c.Begin(); a != c.End(); ++a)
    {
        Ptr<StProtocol> sa = (*a)->GetObject<StProtocol>();
        if (!sa)
        {
            continue;
        }
        for (auto b = c.Begin(); b != c.End(); ++b)
        {
            Ptr<StProtocol> sb = (*b)->GetObject<StProtocol>();
            if (!sb || *a == *b)
            {
                continue;
            }
            for (uint32_t i = 0; i < sb->GetNDevices(); ++i)
            {
                Ptr<NetDevice> d = sb->GetDevice(i);
                const Ipv4Address ip = sb->GetLocalAddress(d);
                if (ip != Ipv4Address::GetAny())
                {
                    sa->AddStaticEntry(ip, d->GetAddress());
                }
            }
        }
    }
}

void
StHelper::PopulateStaticTables()
{
    PopulateStaticTables(NodeContainer::GetGlobal());
}

int64_t
StHelper::AssignStreams(NodeContainer c, int64_t stream)
{
    int64_t current = stream;
    for (auto it = c.Begin(); it != c.End(); ++it)
    {
        if (Ptr<StProtocol> st = (*it)->GetObject<StProtocol>())
        {
            current += st->AssignStreams(current);
        }
    }
    return current - stream;
}

namespace
{
/// \return \p node's own name table (made on first use), or the global one for no node
Ptr<StNameTable>
TableOf(Ptr<Node> node)
{
    if (!node)
    {
        return StNameTable::GetGlobal();
    }
    Ptr<StNameTable> t = node->GetObject<StNameTable>();
    if (!t)
    {
        t = CreateObject<StNameTable>();
        node->AggregateObject(t);
    }
    return t;
}
} // namespace

void
StHelper::AddHost(const std::string& name, Ipv4Address address, Ptr<Node> node)
{
    TableOf(node)->AddHost(name, address);
}

void
StHelper::AddService(const std::string& name, uint16_t port, Ptr<Node> node)
{
    TableOf(node)->AddService(name, port);
}

void
StHelper::AddNodeNames(NodeContainer c)
{
    for (auto it = c.Begin(); it != c.End(); ++it)
    {
        const std::string name = Names::FindName(*it);
        Ptr<StProtocol> st = (*it)->GetObject<StProtocol>();
        if (!name.empty() && st && st->GetNDevices() > 0)
        {
            StNameTable::GetGlobal()->AddHost(name, st->GetLocalAddress());
        }
    }
}

} // namespace ns3
