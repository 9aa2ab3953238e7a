/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of what a scenario needs from ns-3's core module: Simulator (with Python
 * callables as events), Time and its units, attribute values, TypeId, Object (attributes,
 * trace sources connected to Python callables, aggregation), ObjectFactory, Config,
 * GlobalValue, CommandLine, the random-number seed and run, random variables, Names and
 * logging. What ns-3 would abort on is checked first and raised as a Python exception.
 */
#include "ns3-py.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/scheduler.h"
#include "ns3/show-progress.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traced-value.h"
#include "ns3/uinteger.h"

#include <csignal>
#include <iomanip>
#include <list>
#include <pybind11/operators.h>
#include <set>

namespace ns3py
{

using namespace ns3;

namespace
{

bool g_inSimulatorRun = false; ///< inside Simulator.Run called from Python

/// \return \p v (a Python int or float) in \p unit
Time
TimeIn(py::object v, Time::Unit unit)
{
    if (py::isinstance<py::bool_>(v))
    {
        throw py::type_error("a time needs a number, not a bool");
    }
    if (py::isinstance<py::int_>(v))
    {
        return Time::FromInteger(v.cast<int64_t>(), unit);
    }
    const double d = v.cast<double>();
    if (!std::isfinite(d))
    {
        throw py::value_error("a time must be finite, not " + std::to_string(d));
    }
    return Time::FromDouble(d, unit);
}

/// Check the text Time(std::string) would parse (it aborts on anything else).
void
CheckTimeText(const std::string& s)
{
    const std::string problem = CheckAttributeText(MakeTimeChecker(), s);
    if (!problem.empty())
    {
        throw py::value_error("Can't Parse Time: " + problem);
    }
}

/// Check a delay for Simulator.Schedule and friends.
void
CheckDelay(const Time& delay, const char* what)
{
    if (delay.IsStrictlyNegative())
    {
        throw py::value_error(std::string(what) + ": the delay must not be negative, not " +
                              ToString(delay));
    }
}

/// Why Config::SetDefault refused \p name = \p value.
std::string
ExplainDefault(const std::string& name, const AttributeValue& value)
{
    const auto pos = name.rfind("::");
    if (pos == std::string::npos)
    {
        return "Config.SetDefault: \"" + name + "\" is not ns3::Type::Attribute";
    }
    const std::string typeName = name.substr(0, pos);
    const std::string attribute = name.substr(pos + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "Config.SetDefault: no TypeId named \"" + typeName + "\" (in \"" + name + "\")";
    }
    for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        if (info.name == attribute)
        {
            return "Config.SetDefault: Invalid value for attribute " + name + " (\"" +
                   AttributeText(value) + "\"); it takes " +
                   info.checker->GetUnderlyingTypeInformation();
        }
    }
    return "Config.SetDefault: Attribute name=" + attribute +
           " does not exist for this object: tid=" + typeName +
           " (a default is set on the type that declares the attribute)";
}

/// Config::SetDefault, or ValueError.
void
SetDefaultChecked(const std::string& name, const AttributeValue& value)
{
    const auto pos = name.rfind("::");
    TypeId tid;
    if (pos != std::string::npos && TypeId::LookupByNameFailSafe(name.substr(0, pos), &tid))
    {
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName(name.substr(pos + 2), &info))
        {
            CheckAttribute(tid, name.substr(pos + 2), value, "Config.SetDefault");
        }
    }
    if (!Config::SetDefaultFailSafe(name, value))
    {
        throw py::value_error(ExplainDefault(name, value));
    }
}

/// Raise ValueError if a global value would abort on \p value.
void
CheckGlobal(const std::string& name, const AttributeValue& value)
{
    auto text = dynamic_cast<const StringValue*>(&value);
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name && text)
        {
            const std::string problem = CheckAttributeText((*it)->GetChecker(), text->Get());
            if (!problem.empty())
            {
                throw py::value_error("global value " + name + ": " + problem);
            }
        }
    }
}

/// Connect a trace source named by a Config path to a Python callable.
bool
ConnectPath(const std::string& path, py::object fn, bool context, bool failSafe)
{
    const auto slash = path.rfind('/');
    const std::string prefix = slash == std::string::npos ? "" : path.substr(0, slash);
    const std::string source = slash == std::string::npos ? path : path.substr(slash + 1);
    Config::MatchContainer matches = Config::LookupMatches(prefix.empty() ? "/" : prefix);
    if (matches.GetN() == 0)
    {
        if (failSafe)
        {
            return false;
        }
        throw py::value_error("Config.Connect: no object matches \"" + prefix + "\" (in \"" + path +
                              "\")");
    }
    Ptr<Object> first = matches.Get(0);
    CallbackBase cb = MakeTraceCallback(first->GetInstanceTypeId(), source, fn, context);
    const bool ok = context ? Config::ConnectFailSafe(path, cb)
                            : Config::ConnectWithoutContextFailSafe(path, cb);
    if (!ok && !failSafe)
    {
        throw py::value_error("Config.Connect: could not connect \"" + path + "\"");
    }
    return ok;
}

/// Set an attribute of an object, or raise ValueError saying why not.
void
SetAttributeChecked(Object& o, const std::string& name, const AttributeValue& value)
{
    CheckAttribute(o.GetInstanceTypeId(), name, value, "SetAttribute");
    if (!o.SetAttributeFailSafe(name, value))
    {
        throw py::value_error("SetAttribute: could not set " + name + " of " +
                              o.GetInstanceTypeId().GetName());
    }
}

/// The TypeId of a bound ns-3 class (its GetTypeId), of a TypeId, or of a type name.
TypeId
TypeIdOf(py::object what)
{
    if (py::isinstance<TypeId>(what))
    {
        return what.cast<TypeId>();
    }
    if (py::isinstance<py::str>(what))
    {
        return LookupType(what.cast<std::string>());
    }
    if (py::hasattr(what, "GetTypeId"))
    {
        return what.attr("GetTypeId")().cast<TypeId>();
    }
    throw py::type_error("expected an ns-3 Object class, a TypeId or a type name");
}

/**
 * ns-3's CommandLine with Python variables: each option given with a ctypes variable
 * (c_int, c_uint32, c_double, c_bool, c_wchar_p, c_char_p, ...) is parsed by ns-3 into a
 * C++ variable of the matching type, and its value written back to the ctypes variable
 * after Parse.
 */
class PyCommandLine
{
  public:
    /// One option backed by a Python variable.
    struct Entry
    {
        py::object target; ///< the ctypes variable
        char kind;         ///< b(ool), i(nt), u(nsigned), d(ouble), s(tr), y (bytes)
        bool boolValue{false};
        int64_t intValue{0};
        uint64_t uintValue{0};
        double doubleValue{0};
        std::string text;
    };

    explicit PyCommandLine(const std::string& file)
        : m_cmd(file)
    {
    }

    CommandLine& Get()
    {
        return m_cmd;
    }

    /// Add an option backed by \p target. \return its entry
    Entry& AddValue(const std::string& name, const std::string& help, py::object target)
    {
        Entry& e = NewEntry(target);
        switch (e.kind)
        {
        case 'b':
            m_cmd.AddValue(name, help, e.boolValue);
            break;
        case 'i':
            m_cmd.AddValue(name, help, e.intValue);
            break;
        case 'u':
            m_cmd.AddValue(name, help, e.uintValue);
            break;
        case 'd':
            m_cmd.AddValue(name, help, e.doubleValue);
            break;
        default:
            m_cmd.AddValue(name, help, e.text);
        }
        return e;
    }

    /// \return a new entry for \p target (a ctypes variable)
    Entry& NewEntry(py::object target)
    {
        auto ctypes = py::module_::import("ctypes");
        Entry e;
        e.target = target;
        py::object value = py::getattr(target, "value", py::none());
        auto is = [&](const char* t) {
            return py::isinstance(target, ctypes.attr(t).cast<py::object>());
        };
        if (is("c_bool"))
        {
            e.kind = 'b';
            e.boolValue = value.cast<bool>();
        }
        else if (is("c_double") || is("c_float") || is("c_longdouble"))
        {
            e.kind = 'd';
            e.doubleValue = value.cast<double>();
        }
        else if (is("c_wchar_p"))
        {
            e.kind = 's';
            e.text = value.is_none() ? "" : value.cast<std::string>();
        }
        else if (is("c_char_p"))
        {
            e.kind = 'y';
            e.text = value.is_none() ? "" : std::string(value.cast<py::bytes>());
        }
        else if (is("c_ubyte") || is("c_ushort") || is("c_uint") || is("c_ulong") ||
                 is("c_ulonglong") || is("c_size_t"))
        {
            e.kind = 'u';
            e.uintValue = value.cast<uint64_t>();
        }
        else if (is("c_byte") || is("c_short") || is("c_int") || is("c_long") || is("c_longlong") ||
                 is("c_ssize_t"))
        {
            e.kind = 'i';
            e.intValue = value.cast<int64_t>();
        }
        else
        {
            throw py::type_error("CommandLine.AddValue: the variable must be a ctypes value "
                                 "(c_int, c_uint32, c_double, c_bool, c_wchar_p, ...), not " +
                                 std::string(py::str(py::type::of(target).attr("__name__"))));
        }
        m_entries.push_back(e);
        return m_entries.back();
    }

    /// Parse \p argv (a list of str, argv[0] the program) and write the values back.
    void Parse(py::list argv)
    {
        std::vector<std::string> words;
        for (auto a : argv)
        {
            words.push_back(py::str(a));
        }
        std::vector<char*> pointers;
        for (auto& w : words)
        {
            pointers.push_back(w.data());
        }
        pointers.push_back(nullptr);
        CheckNs3Options(words);
        FlushPython(); // ns-3 ends the process on --help or a bad value
        m_cmd.Parse(int(words.size()), pointers.data());
        WriteBack();
    }

    /// Refuse, with one line and SystemExit(1), an ns-3 option (an attribute default or a
    /// global value) whose value ns-3 would abort on.
    static void CheckNs3Options(const std::vector<std::string>& words)
    {
        for (std::size_t i = 1; i < words.size(); ++i)
        {
            const std::string& w = words[i];
            const auto start = w.find_first_not_of('-');
            const auto eq = w.find('=');
            if (start == 0 || start == std::string::npos || eq == std::string::npos)
            {
                continue;
            }
            const std::string name = w.substr(start, eq - start);
            const StringValue value(w.substr(eq + 1));
            try
            {
                if (name.find("::") != std::string::npos)
                {
                    SetDefaultChecked(name, value);
                }
                else
                {
                    CheckGlobal(name, value);
                }
            }
            catch (py::value_error& e)
            {
                py::print("Invalid command-line argument: " + w + ": " + e.what(),
                          py::arg("file") = py::module_::import("sys").attr("stderr"));
                PyErr_SetObject(PyExc_SystemExit, py::int_(1).ptr());
                throw py::error_already_set();
            }
        }
    }

    /// Write the parsed values to the Python variables.
    void WriteBack()
    {
        for (Entry& e : m_entries)
        {
            switch (e.kind)
            {
            case 'b':
                e.target.attr("value") = e.boolValue;
                break;
            case 'i':
                e.target.attr("value") = e.intValue;
                break;
            case 'u':
                e.target.attr("value") = e.uintValue;
                break;
            case 'd':
                e.target.attr("value") = e.doubleValue;
                break;
            case 'y':
                e.target.attr("value") = py::bytes(e.text);
                break;
            default:
                e.target.attr("value") = e.text;
            }
        }
    }

  private:
    CommandLine m_cmd;          ///< ns-3's parser
    std::list<Entry> m_entries; ///< stable addresses: ns-3 keeps pointers to the values
};

/// \return the log components ns-3 knows
std::set<std::string>
LogComponentNames()
{
    std::set<std::string> names;
    for (const auto& c : *LogComponent::GetComponentList())
    {
        names.insert(c.first);
    }
    return names;
}

/// Bind an attribute value class holding a \p V.
template <typename T, typename V>
py::class_<T, AttributeValue, Ptr<T>>
BindValue(py::module_& m, const char* name)
{
    py::class_<T, AttributeValue, Ptr<T>> c(m, name);
    c.def(py::init([]() { return Create<T>(); }))
        .def(py::init([](V v) { return Create<T>(v); }), py::arg("value"))
        .def("Get", [](const T& t) { return V(t.Get()); })
        .def(
            "Set",
            [](T& t, V v) { t.Set(v); },
            py::arg("value"))
        .def("__str__", [](const T& t) { return AttributeText(t); })
        .def("__repr__",
             [name](const T& t) { return std::string(name) + "(" + AttributeText(t) + ")"; });
    return c;
}

} // namespace

bool
InSimulatorRun()
{
    return g_inSimulatorRun;
}

void
BindCore(py::module_& m)
{
    // --- Time
    py::class_<TimeWithUnit>(m, "TimeWithUnit")
        .def(
            "ToString",
            [](const TimeWithUnit& t, int precision, bool fixed) {
                // What a C++ stream prints after std::setprecision(precision) (and
                // std::fixed): the time's digits follow the stream's format.
                std::ostringstream os;
                if (fixed)
                {
                    os << std::fixed;
                }
                if (precision >= 0)
                {
                    os << std::setprecision(precision);
                }
                os << t;
                return os.str();
            },
            py::arg("precision") = -1,
            py::arg("fixed") = false)
        .def("__str__", [](const TimeWithUnit& t) { return ToString(t); })
        .def("__repr__", [](const TimeWithUnit& t) { return ToString(t); });

    py::class_<Time> time(m, "Time");
    py::enum_<Time::Unit>(time, "Unit")
        .value("Y", Time::Y)
        .value("D", Time::D)
        .value("H", Time::H)
        .value("MIN", Time::MIN)
        .value("S", Time::S)
        .value("MS", Time::MS)
        .value("US", Time::US)
        .value("NS", Time::NS)
        .value("PS", Time::PS)
        .value("FS", Time::FS)
        .value("LAST", Time::LAST)
        .value("AUTO", Time::AUTO)
        .export_values();
    time.def(py::init<>())
        .def(py::init([](const std::string& s) {
                 CheckTimeText(s);
                 return Time(s);
             }),
             py::arg("text"))
        .def(py::init([](int64_t steps) { return Time(steps); }), py::arg("steps"))
        .def(py::init([](const Time& t) { return t; }))
        .def("GetSeconds", &Time::GetSeconds)
        .def("GetMilliSeconds", &Time::GetMilliSeconds)
        .def("GetMicroSeconds", &Time::GetMicroSeconds)
        .def("GetNanoSeconds", &Time::GetNanoSeconds)
        .def("GetPicoSeconds", &Time::GetPicoSeconds)
        .def("GetFemtoSeconds", &Time::GetFemtoSeconds)
        .def("GetMinutes", &Time::GetMinutes)
        .def("GetHours", &Time::GetHours)
        .def("GetDays", &Time::GetDays)
        .def("GetYears", &Time::GetYears)
        .def("GetTimeStep", &Time::GetTimeStep)
        .def("GetDouble", &Time::GetDouble)
        .def("GetInteger", &Time::GetInteger)
        .def("IsZero", &Time::IsZero)
        .def("IsNegative", &Time::IsNegative)
        .def("IsPositive", &Time::IsPositive)
        .def("IsStrictlyNegative", &Time::IsStrictlyNegative)
        .def("IsStrictlyPositive", &Time::IsStrictlyPositive)
        .def("As", &Time::As, py::arg("unit") = Time::AUTO)
        .def("ToDouble", &Time::ToDouble, py::arg("unit"))
        .def("ToInteger", &Time::ToInteger, py::arg("unit"))
        .def_static("FromDouble", &Time::FromDouble, py::arg("value"), py::arg("unit"))
        .def_static("FromInteger", &Time::FromInteger, py::arg("value"), py::arg("unit"))
        .def_static("Max", &Time::Max)
        .def_static("Min", &Time::Min)
        .def(py::self + py::self)
        .def(py::self - py::self)
        .def(py::self += py::self)
        .def(py::self -= py::self)
        .def(py::self < py::self)
        .def(py::self <= py::self)
        .def(py::self > py::self)
        .def(py::self >= py::self)
        .def(py::self == py::self)
        .def(py::self != py::self)
        .def("__neg__", [](const Time& t) { return Time(0) - t; })
        .def("__mul__", [](const Time& t, int64_t k) { return t * k; })
        .def("__rmul__", [](const Time& t, int64_t k) { return t * k; })
        .def(
            "__truediv__",
            [](const Time& t, int64_t k) {
                if (k == 0)
                {
                    throw py::value_error("Time division by zero");
                }
                return t / k;
            },
            py::arg("divisor"))
        .def(
            "__floordiv__",
            [](const Time& t, int64_t k) {
                if (k == 0)
                {
                    throw py::value_error("Time division by zero");
                }
                return t / k;
            },
            py::arg("divisor"))
        .def("__truediv__",
             [](const Time& a, const Time& b) {
                 if (b.IsZero())
                 {
                     throw py::value_error("Time division by zero");
                 }
                 return a.GetDouble() / b.GetDouble();
             })
        .def("__hash__", [](const Time& t) { return std::hash<int64_t>()(t.GetTimeStep()); })
        .def("__bool__", [](const Time& t) { return !t.IsZero(); })
        .def("__str__", [](const Time& t) { return ToString(t); })
        .def("__repr__", [](const Time& t) { return "Time(\"" + ToString(t) + "\")"; });
    py::implicitly_convertible<py::str, Time>();

    const std::pair<const char*, Time::Unit> units[] = {{"Years", Time::Y},
                                                        {"Days", Time::D},
                                                        {"Hours", Time::H},
                                                        {"Minutes", Time::MIN},
                                                        {"Seconds", Time::S},
                                                        {"MilliSeconds", Time::MS},
                                                        {"MicroSeconds", Time::US},
                                                        {"NanoSeconds", Time::NS},
                                                        {"PicoSeconds", Time::PS},
                                                        {"FemtoSeconds", Time::FS}};
    for (const auto& [name, unit] : units)
    {
        const Time::Unit u = unit;
        m.def(
            name,
            [u](py::object v) { return TimeIn(v, u); },
            py::arg("value"));
    }
    m.def("Now", &Simulator::Now);

    // --- TypeId
    py::class_<TypeId>(m, "TypeId")
        .def_static("LookupByName", &LookupType, py::arg("name"))
        .def_static(
            "LookupByNameFailSafe",
            [](const std::string& name) -> py::object {
                TypeId tid;
                if (TypeId::LookupByNameFailSafe(name, &tid))
                {
                    return py::cast(tid);
                }
                return py::none();
            },
            py::arg("name"))
        .def_static("GetRegisteredNames",
                    []() {
                        std::vector<std::string> names;
                        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
                        {
                            names.push_back(TypeId::GetRegistered(i).GetName());
                        }
                        return names;
                    })
        .def("GetName", &TypeId::GetName)
        .def("GetGroupName", &TypeId::GetGroupName)
        .def("GetParent", &TypeId::GetParent)
        .def("HasParent", &TypeId::HasParent)
        .def("IsChildOf", &TypeId::IsChildOf, py::arg("other"))
        .def("HasConstructor", &TypeId::HasConstructor)
        .def("GetAttributeN", &TypeId::GetAttributeN)
        .def("GetTraceSourceN", &TypeId::GetTraceSourceN)
        .def("GetAttributes",
             [](const TypeId& tid) {
                 py::list out;
                 for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
                 {
                     const auto info = tid.GetAttribute(i);
                     py::dict d;
                     d["name"] = info.name;
                     d["help"] = info.help;
                     d["type"] = info.checker->GetValueTypeName();
                     d["default"] = info.initialValue->SerializeToString(info.checker);
                     out.append(d);
                 }
                 return out;
             })
        .def("GetTraceSources",
             [](const TypeId& tid) {
                 py::list out;
                 for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
                 {
                     const auto info = tid.GetTraceSource(i);
                     py::dict d;
                     d["name"] = info.name;
                     d["help"] = info.help;
                     d["callback"] = info.callback;
                     out.append(d);
                 }
                 return out;
             })
        .def("__eq__", [](const TypeId& a, const TypeId& b) { return a == b; })
        .def("__hash__", [](const TypeId& t) { return t.GetUid(); })
        .def("__str__", &TypeId::GetName)
        .def("__repr__", [](const TypeId& t) { return "TypeId(\"" + t.GetName() + "\")"; });

    // --- Attribute values
    py::class_<AttributeValue, Ptr<AttributeValue>>(m, "AttributeValue")
        .def("SerializeToString", [](const AttributeValue& v) { return AttributeText(v); })
        .def("__str__", [](const AttributeValue& v) { return AttributeText(v); });
    BindValue<StringValue, std::string>(m, "StringValue");
    BindValue<UintegerValue, uint64_t>(m, "UintegerValue");
    BindValue<IntegerValue, int64_t>(m, "IntegerValue");
    BindValue<DoubleValue, double>(m, "DoubleValue");
    BindValue<BooleanValue, bool>(m, "BooleanValue");
    BindValue<TimeValue, Time>(m, "TimeValue");
    BindValue<EnumValue, int>(m, "EnumValue");

    // --- Objects
    py::class_<Object, Ptr<Object>>(m, "Object")
        .def_static("GetTypeId", &Object::GetTypeId)
        .def("GetInstanceTypeId", &Object::GetInstanceTypeId)
        .def("SetAttribute", &SetAttributeChecked, py::arg("name"), py::arg("value"))
        .def("SetAttributeFailSafe",
             &Object::SetAttributeFailSafe,
             py::arg("name"),
             py::arg("value"))
        .def(
            "GetAttribute",
            [](const Object& o, const std::string& name, py::object value) -> py::object {
                TypeId::AttributeInformation info;
                if (!o.GetInstanceTypeId().LookupAttributeByName(name, &info))
                {
                    throw py::value_error(
                        "GetAttribute: Attribute name=" + name +
                        " does not exist for this object: tid=" + o.GetInstanceTypeId().GetName());
                }
                if (value.is_none())
                {
                    StringValue s;
                    if (!o.GetAttributeFailSafe(name, s))
                    {
                        throw py::value_error("GetAttribute: " + name + " of " +
                                              o.GetInstanceTypeId().GetName() + " cannot be read");
                    }
                    return py::cast(s.Get());
                }
                auto& target = value.cast<AttributeValue&>();
                if (!o.GetAttributeFailSafe(name, target))
                {
                    throw py::value_error(
                        "GetAttribute: " + name + " cannot be read into a " +
                        std::string(py::str(py::type::of(value).attr("__name__"))));
                }
                return value;
            },
            py::arg("name"),
            py::arg("value") = py::none())
        .def(
            "TraceConnectWithoutContext",
            [](Object& o, const std::string& name, py::object fn) {
                CallbackBase cb = MakeTraceCallback(o.GetInstanceTypeId(), name, fn, false);
                return o.TraceConnectWithoutContext(name, cb);
            },
            py::arg("name"),
            py::arg("callback"))
        .def(
            "TraceConnect",
            [](Object& o, const std::string& name, const std::string& context, py::object fn) {
                CallbackBase cb = MakeTraceCallback(o.GetInstanceTypeId(), name, fn, true);
                return o.TraceConnect(name, context, cb);
            },
            py::arg("name"),
            py::arg("context"),
            py::arg("callback"))
        .def(
            "GetObject",
            [](const Object& o, py::object what) -> Ptr<Object> {
                return o.GetObject<Object>(TypeIdOf(what));
            },
            py::arg("type"))
        .def("AggregateObject", &Object::AggregateObject, py::arg("other"))
        .def("Initialize", &Object::Initialize)
        .def("IsInitialized", &Object::IsInitialized)
        .def("Dispose", &Object::Dispose)
        .def("GetReferenceCount", &Object::GetReferenceCount)
        .def("__eq__", [](const Object& a, const Object& b) { return &a == &b; })
        .def("__hash__", [](const Object& a) { return std::hash<const void*>()(&a); });

    m.def(
        "CreateObjectByName",
        [](py::object what) -> Ptr<Object> {
            const TypeId tid = TypeIdOf(what);
            if (!tid.HasConstructor() || !tid.IsChildOf(Object::GetTypeId()))
            {
                throw py::value_error("CreateObject: " + tid.GetName() +
                                      " has no constructor registered with its TypeId");
            }
            ObjectFactory f;
            f.SetTypeId(tid);
            return f.Create();
        },
        py::arg("type"));

    py::class_<ObjectFactory>(m, "ObjectFactory")
        .def(py::init<>())
        .def(py::init([](const std::string& name) {
                 ObjectFactory f;
                 f.SetTypeId(LookupType(name));
                 return f;
             }),
             py::arg("typeId"))
        .def(
            "SetTypeId",
            [](ObjectFactory& f, const std::string& name) { f.SetTypeId(LookupType(name)); },
            py::arg("typeId"))
        .def("GetTypeId", &ObjectFactory::GetTypeId)
        .def(
            "Set",
            [](ObjectFactory& f, const std::string& name, const AttributeValue& value) {
                CheckAttribute(f.GetTypeId(), name, value, "ObjectFactory.Set");
                f.Set(name, value);
            },
            py::arg("name"),
            py::arg("value"))
        .def("Create", [](const ObjectFactory& f) -> Ptr<Object> {
            if (!f.GetTypeId().HasConstructor())
            {
                throw py::value_error("ObjectFactory.Create: " + f.GetTypeId().GetName() +
                                      " has no constructor registered with its TypeId");
            }
            return f.Create();
        });

    // --- Simulator
    py::class_<EventId>(m, "EventId")
        .def(py::init<>())
        .def("Cancel", &EventId::Cancel)
        .def("IsExpired", &EventId::IsExpired)
        .def("IsRunning", &EventId::IsRunning)
        .def("GetTs", &EventId::GetTs)
        .def("GetUid", &EventId::GetUid)
        .def("GetContext", &EventId::GetContext);

    auto schedule = [](const Time& delay, py::object fn, py::args args) {
        CheckDelay(delay, "Simulator.Schedule");
        auto held = Hold(fn, py::tuple(args));
        return Simulator::Schedule(delay, [held]() { held->Call(); });
    };
    py::class_<Simulator, std::unique_ptr<Simulator, py::nodelete>>(m, "Simulator")
        .def_static("Run",
                    []() {
                        // Ctrl-C ends the process during the run, as it does a C++ program.
                        auto old = std::signal(SIGINT, SIG_DFL);
                        g_inSimulatorRun = true;
                        Simulator::Run();
                        g_inSimulatorRun = false;
                        std::signal(SIGINT, old);
                        RaisePending();
                    })
        .def_static("Stop", py::overload_cast<>(&Simulator::Stop))
        .def_static(
            "Stop",
            [](const Time& delay) {
                CheckDelay(delay, "Simulator.Stop");
                Simulator::Stop(delay);
            },
            py::arg("delay"))
        .def_static("Destroy",
                    []() {
                        Simulator::Destroy();
                        ReleaseAll();
                        RaisePending();
                    })
        .def_static("Now", &Simulator::Now)
        .def_static("IsFinished", &Simulator::IsFinished)
        .def_static("GetContext", &Simulator::GetContext)
        .def_static("GetEventCount", &Simulator::GetEventCount)
        .def_static("GetDelayLeft", &Simulator::GetDelayLeft, py::arg("id"))
        .def_static("GetMaximumSimulationTime", &Simulator::GetMaximumSimulationTime)
        .def_static("Cancel", &Simulator::Cancel, py::arg("id"))
        .def_static("Remove", &Simulator::Remove, py::arg("id"))
        .def_static("IsExpired", &Simulator::IsExpired, py::arg("id"))
        .def_static("Schedule", schedule, py::arg("delay"), py::arg("callback"))
        .def_static(
            "ScheduleNow",
            [](py::object fn, py::args args) {
                auto held = Hold(fn, py::tuple(args));
                return Simulator::ScheduleNow([held]() { held->Call(); });
            },
            py::arg("callback"))
        .def_static(
            "ScheduleWithContext",
            [](uint32_t context, const Time& delay, py::object fn, py::args args) {
                CheckDelay(delay, "Simulator.ScheduleWithContext");
                auto held = Hold(fn, py::tuple(args));
                Simulator::ScheduleWithContext(context, delay, [held]() { held->Call(); });
            },
            py::arg("context"),
            py::arg("delay"),
            py::arg("callback"))
        .def_static(
            "ScheduleDestroy",
            [](py::object fn, py::args args) {
                auto held = Hold(fn, py::tuple(args));
                return Simulator::ScheduleDestroy([held]() { held->Call(); });
            },
            py::arg("callback"))
        .def_static(
            "SetScheduler",
            [](const ObjectFactory& f) {
                TypeId tid = f.GetTypeId();
                if (!tid.IsChildOf(Scheduler::GetTypeId()) || !tid.HasConstructor())
                {
                    throw py::value_error("Simulator.SetScheduler: " + tid.GetName() +
                                          " is not an ns-3 scheduler type");
                }
                Simulator::SetScheduler(f);
            },
            py::arg("factory"))
        .def_static("GetHeldCallableCount", &CountHeld);

    // ShowProgress: simulated time and event rate on stderr every interval of wall time, as
    // long as the Python object lives.
    py::class_<ShowProgress>(m, "ShowProgress")
        .def(py::init([](const Time& interval) {
                 if (!interval.IsStrictlyPositive())
                 {
                     throw py::value_error("ShowProgress: the interval must be positive");
                 }
                 return new ShowProgress(interval, std::cerr);
             }),
             py::arg("interval") = Seconds(1))
        .def("SetVerbose", &ShowProgress::SetVerbose, py::arg("verbose"));

    // --- Config and global values
    auto config = m.def_submodule("Config", "ns-3's Config namespace");
    config.def(
        "SetDefault",
        [](const std::string& name, const AttributeValue& value) {
            SetDefaultChecked(name, value);
        },
        py::arg("name"),
        py::arg("value"));
    config.def("SetDefaultFailSafe",
               &Config::SetDefaultFailSafe,
               py::arg("name"),
               py::arg("value"));
    config.def(
        "Set",
        [](const std::string& path, const AttributeValue& value) {
            const auto slash = path.rfind('/');
            const std::string prefix = slash == std::string::npos ? "" : path.substr(0, slash);
            const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
            Config::MatchContainer matches = Config::LookupMatches(prefix.empty() ? "/" : prefix);
            for (std::size_t i = 0; i < matches.GetN(); ++i)
            {
                CheckAttribute(matches.Get(i)->GetInstanceTypeId(), name, value, "Config.Set");
            }
            if (!Config::SetFailSafe(path, value))
            {
                throw py::value_error("Config.Set: no object matches \"" + path +
                                      "\", or it refused the value \"" + AttributeText(value) +
                                      "\"");
            }
        },
        py::arg("path"),
        py::arg("value"));
    config.def("SetFailSafe", &Config::SetFailSafe, py::arg("path"), py::arg("value"));
    config.def(
        "SetGlobal",
        [](const std::string& name, const AttributeValue& value) {
            CheckGlobal(name, value);
            if (!Config::SetGlobalFailSafe(name, value))
            {
                throw py::value_error("Config.SetGlobal: no global value " + name + " takes \"" +
                                      AttributeText(value) + "\"");
            }
        },
        py::arg("name"),
        py::arg("value"));
    config.def(
        "Connect",
        [](const std::string& path, py::object fn) { ConnectPath(path, fn, true, false); },
        py::arg("path"),
        py::arg("callback"));
    config.def(
        "ConnectFailSafe",
        [](const std::string& path, py::object fn) { return ConnectPath(path, fn, true, true); },
        py::arg("path"),
        py::arg("callback"));
    config.def(
        "ConnectWithoutContext",
        [](const std::string& path, py::object fn) { ConnectPath(path, fn, false, false); },
        py::arg("path"),
        py::arg("callback"));
    config.def(
        "ConnectWithoutContextFailSafe",
        [](const std::string& path, py::object fn) { return ConnectPath(path, fn, false, true); },
        py::arg("path"),
        py::arg("callback"));
    config.def("Reset", &Config::Reset);
    config.def(
        "LookupMatches",
        [](const std::string& path) {
            std::vector<Ptr<Object>> out;
            Config::MatchContainer c = Config::LookupMatches(path);
            for (std::size_t i = 0; i < c.GetN(); ++i)
            {
                out.push_back(c.Get(i));
            }
            return out;
        },
        py::arg("path"));

    py::class_<GlobalValue, std::unique_ptr<GlobalValue, py::nodelete>>(m, "GlobalValue")
        .def_static(
            "Bind",
            [](const std::string& name, const AttributeValue& value) {
                CheckGlobal(name, value);
                if (!GlobalValue::BindFailSafe(name, value))
                {
                    throw py::value_error("GlobalValue.Bind: no global value " + name +
                                          " takes \"" + AttributeText(value) + "\"");
                }
            },
            py::arg("name"),
            py::arg("value"))
        .def_static("BindFailSafe", &GlobalValue::BindFailSafe, py::arg("name"), py::arg("value"))
        .def_static(
            "GetValueByName",
            [](const std::string& name, py::object value) -> py::object {
                if (value.is_none())
                {
                    StringValue s;
                    if (!GlobalValue::GetValueByNameFailSafe(name, s))
                    {
                        throw py::value_error("no global value named " + name);
                    }
                    return py::cast(s.Get());
                }
                if (!GlobalValue::GetValueByNameFailSafe(name, value.cast<AttributeValue&>()))
                {
                    throw py::value_error("no global value named " + name);
                }
                return value;
            },
            py::arg("name"),
            py::arg("value") = py::none());

    // --- CommandLine
    py::class_<PyCommandLine>(m, "CommandLine")
        .def(py::init<const std::string&>(), py::arg("filename") = "")
        .def(
            "AddValue",
            [](PyCommandLine& c, const std::string& name, const std::string& help, py::object v) {
                c.AddValue(name, help, v);
            },
            py::arg("name"),
            py::arg("help"),
            py::arg("value"))
        .def(
            "AddValue",
            [](PyCommandLine& c, const std::string& name, const std::string& attributePath) {
                const auto pos = attributePath.rfind("::");
                TypeId tid;
                TypeId::AttributeInformation info;
                if (pos == std::string::npos ||
                    !TypeId::LookupByNameFailSafe(attributePath.substr(0, pos), &tid) ||
                    !tid.LookupAttributeByName(attributePath.substr(pos + 2), &info))
                {
                    throw py::value_error("CommandLine.AddValue: \"" + attributePath +
                                          "\" is not an attribute (ns3::Type::Attribute)");
                }
                c.Get().AddValue(name, attributePath);
            },
            py::arg("name"),
            py::arg("attributePath"))
        .def(
            "Usage",
            [](PyCommandLine& c, const std::string& usage) { c.Get().Usage(usage); },
            py::arg("usage"))
        .def("Parse", &PyCommandLine::Parse, py::arg("argv"))
        .def("GetName", [](PyCommandLine& c) { return c.Get().GetName(); })
        .def("GetNExtraNonOptions", [](PyCommandLine& c) { return c.Get().GetNExtraNonOptions(); })
        .def(
            "GetExtraNonOption",
            [](PyCommandLine& c, std::size_t i) {
                if (i >= c.Get().GetNExtraNonOptions())
                {
                    throw py::index_error("no extra non-option argument " + std::to_string(i));
                }
                return c.Get().GetExtraNonOption(i);
            },
            py::arg("i"))
        .def(
            "PrintHelp",
            [](PyCommandLine& c, py::object file) {
                std::ostringstream os;
                c.Get().PrintHelp(os);
                WriteTo(file, os.str());
            },
            py::arg("file") = py::none());

    // --- Random numbers
    py::class_<RngSeedManager, std::unique_ptr<RngSeedManager, py::nodelete>>(m, "RngSeedManager")
        .def_static("SetSeed", &RngSeedManager::SetSeed, py::arg("seed"))
        .def_static("GetSeed", &RngSeedManager::GetSeed)
        .def_static("SetRun", &RngSeedManager::SetRun, py::arg("run"))
        .def_static("GetRun", &RngSeedManager::GetRun);

    py::class_<RandomVariableStream, Object, Ptr<RandomVariableStream>>(m, "RandomVariableStream")
        .def_static("GetTypeId", &RandomVariableStream::GetTypeId)
        .def("SetStream", &RandomVariableStream::SetStream, py::arg("stream"))
        .def("GetStream", &RandomVariableStream::GetStream)
        .def("SetAntithetic", &RandomVariableStream::SetAntithetic, py::arg("isAntithetic"))
        .def("GetValue", py::overload_cast<>(&RandomVariableStream::GetValue))
        .def("GetInteger", py::overload_cast<>(&RandomVariableStream::GetInteger));
    py::class_<UniformRandomVariable, RandomVariableStream, Ptr<UniformRandomVariable>>(
        m,
        "UniformRandomVariable")
        .def(py::init([]() { return CreateObject<UniformRandomVariable>(); }))
        .def_static("GetTypeId", &UniformRandomVariable::GetTypeId)
        .def("GetValue", py::overload_cast<>(&UniformRandomVariable::GetValue))
        .def("GetValue",
             py::overload_cast<double, double>(&UniformRandomVariable::GetValue),
             py::arg("min"),
             py::arg("max"))
        .def("GetInteger",
             py::overload_cast<uint32_t, uint32_t>(&UniformRandomVariable::GetInteger),
             py::arg("min"),
             py::arg("max"));
    py::class_<ConstantRandomVariable, RandomVariableStream, Ptr<ConstantRandomVariable>>(
        m,
        "ConstantRandomVariable")
        .def(py::init([]() { return CreateObject<ConstantRandomVariable>(); }))
        .def_static("GetTypeId", &ConstantRandomVariable::GetTypeId);
    py::class_<ExponentialRandomVariable, RandomVariableStream, Ptr<ExponentialRandomVariable>>(
        m,
        "ExponentialRandomVariable")
        .def(py::init([]() { return CreateObject<ExponentialRandomVariable>(); }))
        .def_static("GetTypeId", &ExponentialRandomVariable::GetTypeId);
    py::class_<NormalRandomVariable, RandomVariableStream, Ptr<NormalRandomVariable>>(
        m,
        "NormalRandomVariable")
        .def(py::init([]() { return CreateObject<NormalRandomVariable>(); }))
        .def_static("GetTypeId", &NormalRandomVariable::GetTypeId);

    // --- Names
    py::class_<Names, std::unique_ptr<Names, py::nodelete>>(m, "Names")
        .def_static(
            "Add",
            [](const std::string& name, Ptr<Object> object) {
                if (!object)
                {
                    throw py::value_error("Names.Add: no object to name " + name);
                }
                if (Names::Find<Object>(name))
                {
                    throw py::value_error("Names.Add(): Error adding name " + name +
                                          ": the name is taken");
                }
                if (!Names::FindName(object).empty())
                {
                    throw py::value_error("Names.Add(): Error adding name " + name +
                                          ": the object is named " + Names::FindName(object));
                }
                Names::Add(name, object);
            },
            py::arg("name"),
            py::arg("object"))
        .def_static(
            "Find",
            [](const std::string& path) { return Names::Find<Object>(path); },
            py::arg("path"))
        .def_static("FindName", &Names::FindName, py::arg("object"))
        .def_static("FindPath", &Names::FindPath, py::arg("object"))
        .def_static("Clear", &Names::Clear);

    // --- Logging
    py::enum_<LogLevel>(m, "LogLevel", py::arithmetic())
        .value("LOG_NONE", LOG_NONE)
        .value("LOG_ERROR", LOG_ERROR)
        .value("LOG_LEVEL_ERROR", LOG_LEVEL_ERROR)
        .value("LOG_WARN", LOG_WARN)
        .value("LOG_LEVEL_WARN", LOG_LEVEL_WARN)
        .value("LOG_DEBUG", LOG_DEBUG)
        .value("LOG_LEVEL_DEBUG", LOG_LEVEL_DEBUG)
        .value("LOG_INFO", LOG_INFO)
        .value("LOG_LEVEL_INFO", LOG_LEVEL_INFO)
        .value("LOG_FUNCTION", LOG_FUNCTION)
        .value("LOG_LEVEL_FUNCTION", LOG_LEVEL_FUNCTION)
        .value("LOG_LOGIC", LOG_LOGIC)
        .value("LOG_LEVEL_LOGIC", LOG_LEVEL_LOGIC)
        .value("LOG_ALL", LOG_ALL)
        .value("LOG_LEVEL_ALL", LOG_LEVEL_ALL)
        .value("LOG_PREFIX_FUNC", LOG_PREFIX_FUNC)
        .value("LOG_PREFIX_TIME", LOG_PREFIX_TIME)
        .value("LOG_PREFIX_NODE", LOG_PREFIX_NODE)
        .value("LOG_PREFIX_LEVEL", LOG_PREFIX_LEVEL)
        .value("LOG_PREFIX_ALL", LOG_PREFIX_ALL)
        .export_values();
    auto level = [](py::object v) { return static_cast<LogLevel>(v.cast<int64_t>()); };
    m.def(
        "LogComponentEnable",
        [level](const std::string& name, py::object l) {
            if (LogComponentNames().count(name) == 0)
            {
                throw py::value_error("Logging component \"" + name + "\" not found");
            }
            LogComponentEnable(name.c_str(), level(l));
        },
        py::arg("name"),
        py::arg("level"));
    m.def(
        "LogComponentDisable",
        [level](const std::string& name, py::object l) {
            if (LogComponentNames().count(name) == 0)
            {
                throw py::value_error("Logging component \"" + name + "\" not found");
            }
            LogComponentDisable(name.c_str(), level(l));
        },
        py::arg("name"),
        py::arg("level"));
    m.def(
        "LogComponentEnableAll",
        [level](py::object l) { LogComponentEnableAll(level(l)); },
        py::arg("level"));
    m.def(
        "LogComponentDisableAll",
        [level](py::object l) { LogComponentDisableAll(level(l)); },
        py::arg("level"));
    m.def("LogComponentNames", []() {
        auto names = LogComponentNames();
        return std::vector<std::string>(names.begin(), names.end());
    });

    m.def("TraceSignatureNames", &TraceSignatureNames);

    // The trace signatures of core types.
    RegisterTrace("ns3::Time::TracedCallback", static_cast<void (*)(Time)>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::Time",
                  static_cast<TracedValueCallback::Time>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::Double",
                  static_cast<TracedValueCallback::Double>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::Uint32",
                  static_cast<TracedValueCallback::Uint32>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::Int32",
                  static_cast<TracedValueCallback::Int32>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::Bool",
                  static_cast<TracedValueCallback::Bool>(nullptr));
}

// ---------------------------------------------------------------------------------------------
// The PyCommandLine is also what GsnCommandLineChecks binds to (bind-gsn-helpers.cc).

ns3::CommandLine&
CommandLineOf(py::object cmd)
{
    return cmd.cast<PyCommandLine&>().Get();
}

std::string&
CommandLineText(py::object cmd, py::object target)
{
    auto& c = cmd.cast<PyCommandLine&>();
    auto& e = c.NewEntry(target);
    if (e.kind != 's' && e.kind != 'y')
    {
        throw py::type_error("the variable must be a ctypes string (c_wchar_p or c_char_p)");
    }
    return e.text;
}

void
CommandLineWriteBack(py::object cmd)
{
    cmd.cast<PyCommandLine&>().WriteBack();
}

} // namespace ns3py
