/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-host-adapter-helper.h"

#include "ns3/abort.h"
#include "ns3/gsn-host-adapter.h"
#include "ns3/gsn-host-profile.h"
#include "ns3/gsn-net-device.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnHostAdapterHelper");

namespace
{
/// The adapter's parts: the name a setting uses and the type of the object.
const std::map<std::string, std::string>&
Parts()
{
    static const std::map<std::string, std::string> parts = {
        {"", "ns3::GsnHostAdapter"},
        {"Bus", "ns3::GsnHostBus"},
        {"TxDma", "ns3::GsnDmaEngine"},
        {"RxDma", "ns3::GsnDmaEngine"},
        {"Cpu", "ns3::GsnHostCpu"},
        {"Interrupts", "ns3::GsnInterruptCoalescer"},
    };
    return parts;
}

/// Split "Part/Name" (or "Name") into the part and the attribute's name.
std::pair<std::string, std::string>
Split(const std::string& attribute)
{
    const auto slash = attribute.find('/');
    if (slash == std::string::npos)
    {
        return {"", attribute};
    }
    return {attribute.substr(0, slash), attribute.substr(slash + 1)};
}
} // namespace

GsnHostAdapterHelper::GsnHostAdapterHelper()
    : m_profile("Ideal")
{
}

void
GsnHostAdapterHelper::SetProfile(const std::string& name)
{
    NS_ABORT_MSG_UNLESS(GsnHostProfile::Exists(name),
                        "GsnHostAdapterHelper::SetProfile: no profile \""
                            << name << "\" (Ideal, Adapter, Origin2000)");
    m_profile = name;
}

void
GsnHostAdapterHelper::Set(const std::string& attribute, const AttributeValue& value)
{
    NS_ABORT_MSG_UNLESS(Parts().count(Split(attribute).first) != 0,
                        "GsnHostAdapterHelper::Set: \""
                            << attribute
                            << "\" names no part (Bus, TxDma, RxDma, Cpu, Interrupts)");
    m_values.emplace_back(attribute, value.Copy());
}

bool
GsnHostAdapterHelper::InstallsAdapter() const
{
    return !GsnHostProfile::IsIdeal(m_profile) || !m_values.empty();
}

std::vector<std::string>
GsnHostAdapterHelper::GetProfileNames()
{
    return GsnHostProfile::GetNames();
}

bool
GsnHostAdapterHelper::FindPart(const std::string& attribute, TypeId& type, std::string& name)
{
    const auto split = Split(attribute);
    const auto part = Parts().find(split.first);
    if (part == Parts().end())
    {
        return false;
    }
    type = TypeId::LookupByName(part->second);
    name = split.second;
    return true;
}

Ptr<GsnHostAdapter>
GsnHostAdapterHelper::Create() const
{
    std::map<std::string, ObjectFactory> factories;
    for (const auto& part : Parts())
    {
        factories[part.first].SetTypeId(part.second);
    }
    for (const GsnHostProfileSetting& s : GsnHostProfile::GetSettings(m_profile))
    {
        const auto name = Split(s.attribute);
        factories.at(name.first).Set(name.second, StringValue(s.value));
    }
    for (const auto& v : m_values)
    {
        const auto name = Split(v.first);
        factories.at(name.first).Set(name.second, *v.second);
    }
    factories.at("").Set("Profile", StringValue(m_values.empty() ? m_profile : m_profile + "+"));
    Ptr<GsnHostAdapter> adapter = factories.at("").Create<GsnHostAdapter>();
    for (const auto& part : Parts())
    {
        if (!part.first.empty())
        {
            adapter->SetAttribute(part.first, PointerValue(factories.at(part.first).Create()));
        }
    }
    return adapter;
}

Ptr<GsnHostAdapter>
GsnHostAdapterHelper::Install(Ptr<GsnNetDevice> device) const
{
    NS_ABORT_MSG_UNLESS(device, "GsnHostAdapterHelper::Install: null device");
    if (!InstallsAdapter())
    {
        return nullptr;
    }
    Ptr<GsnHostAdapter> adapter = Create();
    device->SetHostAdapter(adapter);
    return adapter;
}

void
GsnHostAdapterHelper::Install(const NetDeviceContainer& devices) const
{
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        if (Ptr<GsnNetDevice> device = DynamicCast<GsnNetDevice>(devices.Get(i)))
        {
            Install(device);
        }
    }
}

} // namespace ns3
