/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-application-helper.h"

#include "ns3/application.h"
#include "ns3/node.h"

namespace ns3
{

StApplicationHelper::StApplicationHelper(TypeId tid)
{
    m_factory.SetTypeId(tid);
}

void
StApplicationHelper::SetAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
StApplicationHelper::Install(Ptr<Node> node) const
{
    Ptr<Application> app = m_factory.Create<Application>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
StApplicationHelper::Install(NodeContainer c) const
{
    ApplicationContainer apps;
    for (auto it = c.Begin(); it != c.End(); ++it)
    {
        apps.Add(Install(*it));
    }
    return apps;
}

} // namespace ns3
