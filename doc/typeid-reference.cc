/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * typeid-reference: writes the attribute and trace-source reference of the gsn, st and harp
 * modules as reStructuredText, straight from the registered TypeIds, so that the reference
 * cannot drift from the code. tools/build-docs.sh runs it into the Sphinx site.
 *   typeid-reference GROUP   (Gsn, St or Harp)
 */
#include "ns3/gsn-module.h"
#include "ns3/harp-module.h"
#include "ns3/st-module.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Text on one line, for a table cell.
std::string
OneLine(std::string text)
{
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text.empty() ? "(none)" : text;
}

/// The default of an attribute as ns-3 prints it.
std::string
DefaultOf(const TypeId::AttributeInformation& info)
{
    if (!info.initialValue || !info.checker)
    {
        return "";
    }
    const std::string value = info.initialValue->SerializeToString(info.checker);
    return value.empty() ? "(empty)" : value;
}

void
WriteTypeId(TypeId tid, std::ostream& os)
{
    const std::string name = tid.GetName();
    os << name << "\n" << std::string(name.size(), '=') << "\n\n";
    if (tid.HasParent())
    {
        os << "Parent: ``" << tid.GetParent().GetName() << "``. ";
        // Attributes of ns-3's own base classes (their pages are in ns-3's documentation).
        for (TypeId p = tid.GetParent(); p.GetGroupName() != tid.GetGroupName();)
        {
            if (p.GetAttributeN() > 0)
            {
                os << "Inherited from ``" << p.GetName() << "``: ";
                for (std::size_t i = 0; i < p.GetAttributeN(); ++i)
                {
                    const TypeId::AttributeInformation info = p.GetAttribute(i);
                    os << (i > 0 ? ", " : "") << "``" << info.name << "`` (default ``"
                       << DefaultOf(info) << "``)";
                }
                os << ". ";
            }
            if (!p.HasParent() || p.GetParent() == p)
            {
                break;
            }
            p = p.GetParent();
        }
    }
    os << "Attributes and trace sources declared by this class (those of its parents apply "
          "too).\n\n";
    if (tid.GetAttributeN() > 0)
    {
        os << ".. list-table::\n   :header-rows: 1\n   :widths: 20 22 18 40\n\n"
           << "   * - Attribute\n     - Type\n     - Default\n     - Help\n";
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            const std::string type = info.checker ? info.checker->GetValueTypeName() : "";
            os << "   * - ``" << info.name << "``\n     - ``" << type << "``\n     - ``"
               << DefaultOf(info) << "``\n     - " << OneLine(info.help) << "\n";
        }
        os << "\n";
    }
    if (tid.GetTraceSourceN() > 0)
    {
        os << ".. list-table::\n   :header-rows: 1\n   :widths: 20 30 50\n\n"
           << "   * - Trace source\n     - Callback\n     - Help\n";
        for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
        {
            const TypeId::TraceSourceInformation info = tid.GetTraceSource(i);
            os << "   * - ``" << info.name << "``\n     - ``" << info.callback << "``\n     - "
               << OneLine(info.help) << "\n";
        }
        os << "\n";
    }
}

} // namespace

int
main(int argc, char** argv)
{
    const std::vector<std::string> groups = {"Gsn", "St", "Harp"};
    if (argc != 2 || std::find(groups.begin(), groups.end(), argv[1]) == groups.end())
    {
        std::cerr << "usage: typeid-reference Gsn|St|Harp\n";
        return 1;
    }
    // Keep each module's library linked (their TypeIds register as they load).
    GsnNetDevice::GetTypeId();
    StProtocol::GetTypeId();
    HarpProtocol::GetTypeId();

    const std::string group = argv[1];
    std::vector<TypeId> tids;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() == group && tid.GetName().rfind("ns3::", 0) == 0 &&
            tid.GetName().find("CallbackImpl") == std::string::npos)
        {
            tids.push_back(tid);
        }
    }
    std::sort(tids.begin(), tids.end(), [](TypeId a, TypeId b) {
        return a.GetName() < b.GetName();
    });
    const std::string title = "Attribute and trace-source reference: " + group;
    std::cout << ".. This page is written by doc/typeid-reference.cc from the registered "
                 "TypeIds; do not edit.\n\n"
              << title << "\n"
              << std::string(title.size(), '#') << "\n\n"
              << "Every class of the module registered with ns-3 (group ``" << group
              << "``), with the attributes and trace sources it declares: name, value type, "
                 "default and help, as ``TypeId`` holds them. The module chapters explain "
                 "where each default comes from.\n\n";
    for (TypeId tid : tids)
    {
        WriteTypeId(tid, std::cout);
    }
    return 0;
}
