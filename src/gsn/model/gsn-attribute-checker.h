/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Attribute checkers that say what is allowed. ns-3's checkers refuse a bad value silently
 * (the command line then prints "Invalid command-line argument" and the program's options),
 * and in a release build an unknown enum name is not even refused cleanly. These wrap
 * ns-3's checkers and, when they refuse a value, print one line naming the attribute, the
 * value and what it accepts.
 */
#ifndef GSN_ATTRIBUTE_CHECKER_H
#define GSN_ATTRIBUTE_CHECKER_H

#include "ns3/attribute.h"
#include "ns3/enum.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup gsn
 * \param checker an ns-3 checker
 * \return what it accepts, in words: "one of A, B", "an integer from 1 to 255", "a number
 *         of at least 0", "a time of at least +1ns", ...
 */
std::string GsnDescribeAllowed(Ptr<const AttributeChecker> checker);

/**
 * \ingroup gsn
 * \param attribute the attribute's full name ("ns3::GsnPortDevice::LinkMode")
 * \param value the refused value, as text
 * \param checker its checker
 * \return the line printed when \p value is refused: the attribute, the value and what is
 *         allowed
 */
std::string GsnRefusalMessage(const std::string& attribute,
                              const std::string& value,
                              Ptr<const AttributeChecker> checker);

/**
 * \ingroup gsn
 * \brief Wraps a checker of numbers or times: a value it refuses is reported on std::cerr
 *        with what is allowed (GsnRefusalMessage); everything else is the wrapped checker's.
 * \param attribute the attribute's full name
 * \param checker the ns-3 checker (MakeUintegerChecker, MakeDoubleChecker, MakeTimeChecker...)
 * \return the wrapping checker
 */
Ptr<const AttributeChecker> MakeGsnChecker(const std::string& attribute,
                                           Ptr<const AttributeChecker> checker);

/**
 * \ingroup gsn
 * \brief An EnumChecker that reports an unknown name or value on std::cerr with the names
 *        allowed, and refuses it (ns-3's EnumChecker reads past its table on an unknown name
 *        when asserts are off).
 */
class GsnEnumChecker : public EnumChecker
{
  public:
    /// \param attribute the attribute's full name
    explicit GsnEnumChecker(std::string attribute);

    bool Check(const AttributeValue& value) const override;
    Ptr<AttributeValue> Create() const override;

    /// \return the attribute's full name
    const std::string& GetAttributeName() const;

    /**
     * \param name a name
     * \return whether the checker has it
     */
    bool HasName(const std::string& name) const;

  private:
    std::string m_attribute; ///< for the message
};

/**
 * \ingroup gsn
 * \brief MakeEnumChecker with messages that name the allowed values.
 * \param attribute the attribute's full name
 * \param v the default value
 * \param n its name
 * \param args further value, name pairs
 * \return the checker
 */
template <typename... Ts>
Ptr<const AttributeChecker>
MakeGsnEnumChecker(const std::string& attribute, int v, std::string n, Ts... args)
{
    Ptr<GsnEnumChecker> checker = Create<GsnEnumChecker>(attribute);
    checker->AddDefault(v, n);
    if constexpr (sizeof...(args) > 0)
    {
        // The pairs after the default, as ns-3's MakeEnumChecker adds them.
        auto add = [&checker](auto&& self, int value, std::string name, auto... rest) -> void {
            checker->Add(value, name);
            if constexpr (sizeof...(rest) > 0)
            {
                self(self, rest...);
            }
        };
        add(add, args...);
    }
    return checker;
}

} // namespace ns3

#endif /* GSN_ATTRIBUTE_CHECKER_H */
