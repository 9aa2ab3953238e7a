/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python callables held by ns-3 (events, trace sources, callbacks), the error kept when one
 * raises during Simulator.Run, the table of trace signatures, and the attribute checks the
 * helpers' bindings run before ns-3 code that would abort.
 */
#include "ns3-py.h"

#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace ns3py
{

namespace
{

/// Every held callable (weakly: a callable ns-3 has dropped goes away by itself).
std::vector<std::weak_ptr<PyCallable>>&
Held()
{
    static std::vector<std::weak_ptr<PyCallable>> held;
    return held;
}

/// The first exception a callable raised during the run.
std::optional<py::error_already_set>&
Pending()
{
    static std::optional<py::error_already_set> pending;
    return pending;
}

/// Trace signature name -> maker of the ns-3 callback.
std::map<std::string, CallbackMaker>&
Signatures()
{
    static std::map<std::string, CallbackMaker> signatures;
    return signatures;
}

} // namespace

PyCallable::PyCallable(py::object fn, py::tuple args)
    : m_fn(std::move(fn)),
      m_args(std::move(args))
{
}

PyCallable::~PyCallable()
{
    // ns-3 may destroy a callback after the interpreter has gone (static objects): then the
    // references are left, not decremented without an interpreter.
    if (!Py_IsInitialized())
    {
        m_fn.release();
        m_args.release();
    }
}

void
PyCallable::Call(const py::tuple& more) const
{
    if (!m_fn)
    {
        return;
    }
    try
    {
        if (more.size() == 0)
        {
            m_fn(*m_args);
        }
        else if (m_args.size() == 0)
        {
            m_fn(*more);
        }
        else
        {
            py::list all;
            for (auto a : m_args)
            {
                all.append(a);
            }
            for (auto a : more)
            {
                all.append(a);
            }
            m_fn(*py::tuple(all));
        }
    }
    catch (py::error_already_set& e)
    {
        NoteError(e);
    }
    catch (const std::exception& e)
    {
        NoteError(e);
    }
}

void
PyCallable::Release()
{
    m_fn = py::object();
    m_args = py::tuple();
}

std::shared_ptr<PyCallable>
Hold(py::object fn, py::tuple args)
{
    if (!PyCallable_Check(fn.ptr()))
    {
        throw py::type_error("expected a callable, not " +
                             std::string(py::str(py::type::of(fn).attr("__name__"))));
    }
    return HoldObject(std::move(fn), std::move(args));
}

std::shared_ptr<PyCallable>
HoldObject(py::object obj, py::tuple args)
{
    auto held = std::make_shared<PyCallable>(std::move(obj), std::move(args));
    auto& list = Held();
    // Forget the entries of callables ns-3 has dropped (events that ran), when the list has
    // doubled since the last time: constant time per callable on average.
    static std::size_t compactAt = 64;
    if (list.size() >= compactAt)
    {
        std::vector<std::weak_ptr<PyCallable>> alive;
        for (auto& w : list)
        {
            if (!w.expired())
            {
                alive.push_back(w);
            }
        }
        list.swap(alive);
        compactAt = std::max<std::size_t>(64, 2 * list.size());
    }
    list.push_back(held);
    return held;
}

void
ReleaseAll()
{
    auto list = std::move(Held());
    Held().clear();
    for (auto& w : list)
    {
        if (auto held = w.lock())
        {
            held->Release();
        }
    }
}

std::size_t
CountHeld()
{
    std::size_t n = 0;
    for (auto& w : Held())
    {
        auto held = w.lock();
        n += held && held->IsHeld() ? 1 : 0;
    }
    return n;
}

void
NoteError(py::error_already_set& e)
{
    if (!Pending())
    {
        Pending() = e;
    }
    ns3::Simulator::Stop();
}

void
NoteError(const std::exception& e)
{
    try
    {
        throw py::value_error(e.what());
    }
    catch (py::builtin_exception& b)
    {
        b.set_error();
        py::error_already_set kept;
        NoteError(kept);
    }
}

void
RaisePending()
{
    if (Pending())
    {
        py::error_already_set e = *Pending();
        Pending().reset();
        throw e;
    }
}

void
RegisterSignature(const std::string& name, CallbackMaker maker)
{
    Signatures()[name] = std::move(maker);
}

std::vector<std::string>
TraceSignatureNames()
{
    std::vector<std::string> names;
    for (const auto& [name, maker] : Signatures())
    {
        names.push_back(name);
    }
    return names;
}

ns3::CallbackBase
MakeTraceCallback(ns3::TypeId tid, const std::string& source, py::object fn, bool context)
{
    ns3::TypeId::TraceSourceInformation info;
    if (!tid.LookupTraceSourceByName(source, &info))
    {
        throw py::value_error("TraceSource \"" + source + "\" does not exist on " + tid.GetName());
    }
    auto it = Signatures().find(info.callback);
    if (it == Signatures().end())
    {
        throw py::type_error("trace source " + tid.GetName() + "::" + source + " (" +
                             info.callback + ") has no Python binding for its signature");
    }
    return it->second(Hold(std::move(fn)), context);
}

ns3::TypeId
LookupType(const std::string& name)
{
    ns3::TypeId tid;
    if (!ns3::TypeId::LookupByNameFailSafe(name, &tid))
    {
        throw py::value_error("no TypeId named \"" + name + "\"");
    }
    return tid;
}

std::string
AttributeText(const ns3::AttributeValue& value)
{
    // An EnumValue needs its checker to be written, and asserts that the value is known.
    if (auto e = dynamic_cast<const ns3::EnumValue*>(&value))
    {
        return std::to_string(e->Get());
    }
    return value.SerializeToString(nullptr);
}

namespace
{

/// \return "" if ns-3 reads \p text as a \p T with nothing left over, else the problem
template <typename T>
std::string
CheckStream(const std::string& text, const char* what)
{
    std::istringstream iss(text);
    T v;
    iss >> v;
    if (iss.fail() || !iss.eof())
    {
        return std::string("\"") + text + "\" is not " + what;
    }
    return "";
}

/// \return "" if \p text is a time ns-3 parses, else the problem
std::string
CheckTimeWords(const std::string& text)
{
    const auto n = text.find_first_not_of("+-0123456789.eE");
    const std::string number = text.substr(0, n);
    const std::string unit = n == std::string::npos ? "" : text.substr(n);
    static const std::set<std::string> units =
        {"", "s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"};
    if (!number.empty() && units.count(unit) > 0 && CheckStream<double>(number, "").empty())
    {
        return "";
    }
    return "\"" + text + "\" is not a time (a number with one of the units s, ms, us, ns, ps, " +
           "fs, min, h, d, y, or none for seconds)";
}

/// \return "" if \p text is a data rate ns-3 parses, else the problem
std::string
CheckDataRateText(const std::string& text)
{
    const auto n = text.find_first_not_of("+-0123456789.eE");
    static const std::set<std::string> units = {
        "bps",   "b/s",   "Bps",  "B/s",   "kbps",  "kb/s", "Kbps",  "Kb/s", "kBps",
        "kB/s",  "KBps",  "KB/s", "Kib/s", "KiB/s", "Mbps", "Mb/s",  "MBps", "MB/s",
        "Mib/s", "MiB/s", "Gbps", "Gb/s",  "GBps",  "GB/s", "Gib/s", "GiB/s"};
    if (n != 0 && n != std::string::npos && units.count(text.substr(n)) > 0 &&
        CheckStream<double>(text.substr(0, n), "").empty())
    {
        return "";
    }
    return "\"" + text + "\" is not a data rate (e.g. 1Gbps)";
}

} // namespace

std::string
CheckObjectFactoryText(const std::string& text)
{
    const auto lb = text.find('[');
    const auto rb = text.find(']');
    const std::string typeName = text.substr(0, lb);
    ns3::TypeId tid;
    if (!ns3::TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "no TypeId named \"" + typeName + "\" (in \"" + text + "\")";
    }
    if (!tid.HasConstructor())
    {
        return typeName + " has no constructor registered with its TypeId";
    }
    if (lb == std::string::npos && rb == std::string::npos)
    {
        return "";
    }
    if (lb == std::string::npos || rb == std::string::npos || rb < lb || rb + 1 != text.size())
    {
        return "\"" + text + "\" is not TYPE[NAME=VALUE|...]";
    }
    const std::string parameters = text.substr(lb + 1, rb - lb - 1);
    std::size_t cur = 0;
    while (cur < parameters.size())
    {
        const auto equal = parameters.find('=', cur);
        if (equal == std::string::npos)
        {
            return "\"" + text + "\" is not TYPE[NAME=VALUE|...]";
        }
        const std::string name = parameters.substr(cur, equal - cur);
        ns3::TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            return "Attribute name=" + name + " does not exist for this object: tid=" + typeName;
        }
        const auto next = parameters.find('|', cur);
        const std::string value =
            parameters.substr(equal + 1,
                              (next == std::string::npos ? parameters.size() : next) - equal - 1);
        cur = next == std::string::npos ? parameters.size() : next + 1;
        const std::string problem = CheckAttributeText(info.checker, value);
        if (!problem.empty())
        {
            return typeName + "::" + name + ": " + problem;
        }
    }
    return "";
}

std::string
CheckAttributeText(ns3::Ptr<const ns3::AttributeChecker> checker, const std::string& text)
{
    // ns-3 aborts, rather than refuses, text that these types cannot read entirely.
    const std::string type = checker->GetValueTypeName();
    if (type == "ns3::DoubleValue")
    {
        return CheckStream<double>(text, "a number");
    }
    if (type == "ns3::UintegerValue")
    {
        if (text.find('-') != std::string::npos)
        {
            return "\"" + text + "\" is not an unsigned integer";
        }
        return CheckStream<uint64_t>(text, "an unsigned integer");
    }
    if (type == "ns3::IntegerValue")
    {
        return CheckStream<int64_t>(text, "an integer");
    }
    if (type == "ns3::TimeValue")
    {
        return CheckTimeWords(text);
    }
    if (type == "ns3::DataRateValue")
    {
        return CheckDataRateText(text);
    }
    if (type == "ns3::PointerValue")
    {
        return CheckObjectFactoryText(text);
    }
    return "";
}

void
CheckAttribute(ns3::TypeId tid,
               const std::string& name,
               const ns3::AttributeValue& value,
               const std::string& where)
{
    ns3::TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw py::value_error(where + ": Attribute name=" + name +
                              " does not exist for this object: tid=" + tid.GetName());
    }
    auto text = dynamic_cast<const ns3::StringValue*>(&value);
    if (text && info.checker->GetValueTypeName() != "ns3::StringValue")
    {
        const std::string problem = CheckAttributeText(info.checker, text->Get());
        if (!problem.empty())
        {
            throw py::value_error(where + ": Invalid value for attribute " + tid.GetName() +
                                  "::" + name + ": " + problem);
        }
    }
    if (!info.checker->CreateValidValue(value))
    {
        throw py::value_error(where + ": Invalid value for attribute " + tid.GetName() +
                              "::" + name + " (\"" + AttributeText(value) + "\"); it takes " +
                              info.checker->GetUnderlyingTypeInformation());
    }
}

void
FlushPython()
{
    auto sys = py::module_::import("sys");
    for (const char* name : {"stdout", "stderr"})
    {
        py::object f = sys.attr(name);
        if (!f.is_none() && py::hasattr(f, "flush"))
        {
            f.attr("flush")();
        }
    }
}

void
WriteTo(py::object file, const std::string& text)
{
    if (file.is_none())
    {
        file = py::module_::import("sys").attr("stdout");
    }
    file.attr("write")(text);
}

} // namespace ns3py
