/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-attribute-checker.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <iostream>
#include <sstream>
#include <typeinfo>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnAttributeChecker");

namespace
{

/// \param text "a|b|c" \return the names
std::vector<std::string>
SplitNames(const std::string& text)
{
    std::vector<std::string> names;
    std::istringstream in(text);
    std::string name;
    while (std::getline(in, name, '|'))
    {
        names.push_back(name);
    }
    return names;
}

/// \param bound a bound as ns-3 prints it \return whether it is the type's own limit
bool
IsUnbounded(const std::string& bound)
{
    // uint64/int64/double/Time limits as ns-3's checkers print them.
    return bound == "18446744073709551615" || bound == "9223372036854775807" ||
           bound == "4294967295" || bound == "2147483647" ||
           bound.find("e+18") != std::string::npos || bound.find("e+308") != std::string::npos;
}

/// The value of an enum as text, for the message.
std::string
ValueText(const AttributeValue& value, Ptr<const AttributeChecker> checker)
{
    if (const auto* e = dynamic_cast<const EnumValue*>(&value))
    {
        return std::to_string(e->Get());
    }
    return value.SerializeToString(checker);
}

/// A checker that reports what it refuses (numbers and times); the rest is the wrapped one's.
class ExplainingChecker : public AttributeChecker
{
  public:
    ExplainingChecker(std::string attribute, Ptr<const AttributeChecker> inner)
        : m_attribute(std::move(attribute)),
          m_inner(inner)
    {
    }

    bool Check(const AttributeValue& value) const override
    {
        if (m_inner->Check(value))
        {
            return true;
        }
        // ns-3 first tries a value as given (a StringValue, say) before converting it: only
        // a value of the attribute's own type is a refusal worth a word.
        Ptr<AttributeValue> own = m_inner->Create();
        if (typeid(value) == typeid(*own))
        {
            std::cerr << GsnRefusalMessage(m_attribute, value.SerializeToString(m_inner), m_inner)
                      << std::endl;
        }
        return false;
    }

    std::string GetValueTypeName() const override
    {
        return m_inner->GetValueTypeName();
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return m_inner->HasUnderlyingTypeInformation();
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        return m_inner->GetUnderlyingTypeInformation();
    }

    Ptr<AttributeValue> Create() const override
    {
        return m_inner->Create();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        return m_inner->Copy(source, destination);
    }

  private:
    std::string m_attribute;             ///< full name, for the message
    Ptr<const AttributeChecker> m_inner; ///< the ns-3 checker
};

/// An EnumValue whose text form is refused, with a message, when the name is unknown.
class ExplainingEnumValue : public EnumValue
{
  public:
    bool DeserializeFromString(std::string value, Ptr<const AttributeChecker> checker) override
    {
        const auto* own = dynamic_cast<const GsnEnumChecker*>(PeekPointer(checker));
        if (own != nullptr && !own->HasName(value))
        {
            std::cerr << GsnRefusalMessage(own->GetAttributeName(), "\"" + value + "\"", checker)
                      << std::endl;
            return false;
        }
        return EnumValue::DeserializeFromString(value, checker);
    }
};

} // namespace

std::string
GsnDescribeAllowed(Ptr<const AttributeChecker> checker)
{
    const std::string type = checker->GetValueTypeName();
    const std::string info =
        checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : "";
    if (type == "ns3::EnumValue")
    {
        std::string names;
        for (const std::string& name : SplitNames(info))
        {
            names += (names.empty() ? "" : ", ") + name;
        }
        return "one of " + names;
    }
    // Numbers and times: "TYPE MIN:MAX" as ns-3's checkers describe themselves.
    const std::size_t space = info.rfind(' ');
    const std::size_t colon = info.rfind(':');
    if (space == std::string::npos || colon == std::string::npos || colon < space)
    {
        return info.empty() ? "a valid " + type : info;
    }
    const std::string min = info.substr(space + 1, colon - space - 1);
    const std::string max = info.substr(colon + 1);
    const std::string what = type == "ns3::TimeValue"     ? "a time"
                             : type == "ns3::DoubleValue" ? "a number"
                             : type == "ns3::UintegerValue" || type == "ns3::IntegerValue"
                                 ? "an integer"
                                 : "a value";
    if (IsUnbounded(max))
    {
        return what + " of at least " + min;
    }
    return what + " from " + min + " to " + max;
}

std::string
GsnRefusalMessage(const std::string& attribute,
                  const std::string& value,
                  Ptr<const AttributeChecker> checker)
{
    return attribute + ": " + value + " is not allowed; it must be " + GsnDescribeAllowed(checker);
}

Ptr<const AttributeChecker>
MakeGsnChecker(const std::string& attribute, Ptr<const AttributeChecker> checker)
{
    return Ptr<const AttributeChecker>(new ExplainingChecker(attribute, checker), false);
}

GsnEnumChecker::GsnEnumChecker(std::string attribute)
    : m_attribute(std::move(attribute))
{
}

bool
GsnEnumChecker::Check(const AttributeValue& value) const
{
    if (EnumChecker::Check(value))
    {
        return true;
    }
    if (dynamic_cast<const EnumValue*>(&value) != nullptr)
    {
        std::cerr << GsnRefusalMessage(m_attribute,
                                       ValueText(value, Ptr<const AttributeChecker>(this)),
                                       Ptr<const AttributeChecker>(this))
                  << std::endl;
    }
    return false;
}

Ptr<AttributeValue>
GsnEnumChecker::Create() const
{
    return ns3::Create<ExplainingEnumValue>();
}

const std::string&
GsnEnumChecker::GetAttributeName() const
{
    return m_attribute;
}

bool
GsnEnumChecker::HasName(const std::string& name) const
{
    for (const std::string& known : SplitNames(GetUnderlyingTypeInformation()))
    {
        if (known == name)
        {
            return true;
        }
    }
    return false;
}

} // namespace ns3
