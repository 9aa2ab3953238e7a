/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the translation units of the Python bindings share: ns-3's Ptr as pybind11's holder
 * of every ns-3 object, Python callables held by ns-3 callbacks and events (released at
 * Simulator.Destroy), the trace-signature table that connects trace sources to Python
 * callables, and the checks that turn what ns-3 would abort on into Python exceptions.
 * It declares the binding functions of each area; it binds nothing itself.
 */
#ifndef NS3_PY_H
#define NS3_PY_H

#include "ns3/attribute.h"
#include "ns3/callback.h"
#include "ns3/command-line.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <functional>
#include <memory>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <string>
#include <vector>

// ns-3's Ptr is an intrusive reference: a Python object holds one reference to its ns-3
// object. Returned Ptrs are wrapped through the raw pointer (so that pybind11 finds the most
// derived bound class and adjusts the pointer), loaded Ptrs are rebuilt from the raw pointer.
namespace pybind11
{
namespace detail
{

template <typename T>
struct holder_helper<ns3::Ptr<T>>
{
    static T* get(const ns3::Ptr<T>& p)
    {
        return ns3::PeekPointer(p);
    }
};

template <typename T>
struct always_construct_holder<ns3::Ptr<T>> : always_construct_holder<void, true>
{
};

template <typename T>
struct is_holder_type<T, ns3::Ptr<T>> : std::true_type
{
};

template <typename T>
class type_caster<ns3::Ptr<T>> : public copyable_holder_caster<T, ns3::Ptr<T>>
{
  public:
    bool load(handle src, bool convert)
    {
        type_caster_base<T> raw;
        if (!raw.load(src, convert))
        {
            return false;
        }
        this->value = raw.value;
        this->holder = ns3::Ptr<T>(static_cast<T*>(raw.value));
        return true;
    }

    static handle cast(const ns3::Ptr<T>& src, return_value_policy, handle parent)
    {
        return type_caster_base<T>::cast(ns3::PeekPointer(src),
                                         return_value_policy::take_ownership,
                                         parent);
    }
};

/// Ptr<const T> goes to Python as the object itself (Python has no const).
template <typename T>
class type_caster<ns3::Ptr<const T>>
{
  public:
    PYBIND11_TYPE_CASTER(ns3::Ptr<const T>, make_caster<ns3::Ptr<T>>::name);

    bool load(handle src, bool convert)
    {
        make_caster<ns3::Ptr<T>> inner;
        if (!inner.load(src, convert))
        {
            return false;
        }
        value = cast_op<ns3::Ptr<T>>(inner);
        return true;
    }

    static handle cast(const ns3::Ptr<const T>& src, return_value_policy policy, handle parent)
    {
        return make_caster<ns3::Ptr<T>>::cast(ns3::ConstCast<T>(src), policy, parent);
    }
};

} // namespace detail
} // namespace pybind11

namespace ns3py
{

namespace py = pybind11;

/**
 * A Python callable (and bound arguments) that an ns-3 callback or event holds. Every one is
 * listed, so that Simulator.Destroy can drop the Python references they keep even where ns-3
 * keeps the callback (a trace source of an object that Python still holds).
 */
class PyCallable
{
  public:
    /// \param fn the callable \param args arguments to call it with first
    PyCallable(py::object fn, py::tuple args);
    ~PyCallable();

    /// Call with the bound arguments and then \p more; a Python exception is kept for the
    /// end of Simulator.Run and stops the simulation.
    /// \param more further arguments
    void Call(const py::tuple& more = py::tuple()) const;

    /// Drop the references to the callable and its arguments.
    void Release();

    /// \return whether it still holds a callable
    bool IsHeld() const
    {
        return static_cast<bool>(m_fn);
    }

  private:
    py::object m_fn;  ///< the callable (empty once released)
    py::tuple m_args; ///< its bound arguments
};

/// \param fn a callable \param args bound arguments \return a held callable, listed
std::shared_ptr<PyCallable> Hold(py::object fn, py::tuple args = py::tuple());

/// \param obj any Python object, kept (never called) until released \param args as Hold
/// \return it held and listed, so that Simulator.Destroy drops the reference
std::shared_ptr<PyCallable> HoldObject(py::object obj, py::tuple args = py::tuple());

/// Release every held callable (Simulator.Destroy, interpreter exit).
void ReleaseAll();

/// \return how many held callables still hold a Python object
std::size_t CountHeld();

/// Keep \p e (the first one only) to raise when Simulator.Run returns; stop the simulation.
void NoteError(py::error_already_set& e);
/// Keep a C++ exception met while calling Python (as RuntimeError).
void NoteError(const std::exception& e);
/// Raise what NoteError kept, if anything.
void RaisePending();

/// Convert a trace argument for Python.
template <typename T>
py::object
ToPy(const T& v)
{
    return py::cast(v);
}

/// Turn the values of a trace call into Python arguments and call.
template <typename... Args>
void
CallWith(const PyCallable& c, Args... args)
{
    if (!c.IsHeld())
    {
        return;
    }
    py::tuple more;
    try
    {
        more = py::make_tuple(ToPy(args)...);
    }
    catch (py::error_already_set& e)
    {
        NoteError(e);
        return;
    }
    catch (const std::exception& e)
    {
        NoteError(e);
        return;
    }
    c.Call(more);
}

/// Makes an ns-3 callback of one trace signature that calls a Python callable.
using CallbackMaker = std::function<ns3::CallbackBase(std::shared_ptr<PyCallable>, bool)>;

/// Register the maker of trace signature \p name (the string a TypeId gives its trace source).
void RegisterSignature(const std::string& name, CallbackMaker maker);

/**
 * Register the signature of a trace source from its TracedCallback typedef.
 * \param name the callback name the TypeId gives (e.g. "ns3::Packet::TracedCallback")
 */
template <typename... Args>
void
RegisterTrace(const std::string& name, void (*)(Args...))
{
    RegisterSignature(name, [](std::shared_ptr<PyCallable> held, bool context) {
        if (context)
        {
            return ns3::CallbackBase(
                ns3::Callback<void, std::string, Args...>([held](std::string path, Args... args) {
                    CallWith<std::string, Args...>(*held, path, args...);
                }));
        }
        return ns3::CallbackBase(ns3::Callback<void, Args...>(
            [held](Args... args) { CallWith<Args...>(*held, args...); }));
    });
}

/// \return the trace signatures that connect to Python callables
std::vector<std::string> TraceSignatureNames();

/**
 * \param tid the type that has the trace source
 * \param source the trace source's name
 * \param fn the Python callable
 * \param context whether the callback takes the context (path) first
 * \return the ns-3 callback; TypeError if the source is unknown or its signature is not bound
 */
ns3::CallbackBase MakeTraceCallback(ns3::TypeId tid,
                                    const std::string& source,
                                    py::object fn,
                                    bool context);

/// \param value an attribute value \return its text (an EnumValue as its number)
std::string AttributeText(const ns3::AttributeValue& value);

/// \param checker an attribute's checker \param text a value's text
/// \return "" if ns-3 can read \p text for it without aborting (a malformed number, time,
/// data rate or object description aborts in ns-3), else the problem
std::string CheckAttributeText(ns3::Ptr<const ns3::AttributeChecker> checker,
                               const std::string& text);
/// \param text an object description TYPE[NAME=VALUE|...] \return "" or the problem
std::string CheckObjectFactoryText(const std::string& text);

/// Raise ValueError unless \p tid has attribute \p name and \p value is valid for it.
/// \param where who asks (the helper's method), for the message
void CheckAttribute(ns3::TypeId tid,
                    const std::string& name,
                    const ns3::AttributeValue& value,
                    const std::string& where);

/// \param name a registered TypeId name \return its TypeId (ValueError if unknown)
ns3::TypeId LookupType(const std::string& name);

/// Flush Python's sys.stdout and sys.stderr (before ns-3 code that may end the process).
void FlushPython();

/// Write \p text to the Python file \p file (sys.stdout when None).
void WriteTo(py::object file, const std::string& text);

/// \return what \p v writes with operator<<
template <typename T>
std::string
ToString(const T& v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

/// \param cmd a Python CommandLine \return ns-3's CommandLine inside it
ns3::CommandLine& CommandLineOf(py::object cmd);
/// \param cmd a Python CommandLine \param target a ctypes string variable
/// \return a C++ string that \p cmd writes back to \p target after parsing
std::string& CommandLineText(py::object cmd, py::object target);
/// Write the parsed values of \p cmd back to its Python variables.
void CommandLineWriteBack(py::object cmd);

// The binding functions of each area, in the order the module calls them.
void BindCore(py::module_& m);
void BindNetwork(py::module_& m);
void BindInternet(py::module_& m);
void BindApplications(py::module_& m);
void BindGsnModel(py::module_& m);
void BindGsnHelpers(py::module_& m);
void BindGsnMpi(py::module_& m);
void BindSt(py::module_& m);
void BindHarp(py::module_& m);
void BindStBypass(py::module_& m);

/// \return whether Python's Simulator.Run is running (the script is inside an event)
bool InSimulatorRun();

} // namespace ns3py

#endif /* NS3_PY_H */
