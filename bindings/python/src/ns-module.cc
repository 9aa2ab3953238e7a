/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The extension module ns._ns: one flat namespace, as ns-3's own bindings give (ns.core,
 * ns.network, ns.gsn, ... all name it; see ns/__init__.py). Each area binds itself in its
 * own translation unit.
 */
#include "ns3-py.h"

PYBIND11_MODULE(_ns, m)
{
    m.doc() = "ns-3.37 with the gsn, st and harp modules (pybind11 bindings)";
    ns3py::BindCore(m);
    ns3py::BindNetwork(m);
    ns3py::BindInternet(m);
    ns3py::BindApplications(m);
    ns3py::BindGsnModel(m);
    ns3py::BindGsnHelpers(m);
    ns3py::BindGsnMpi(m);
    ns3py::BindSt(m);
    ns3py::BindStBypass(m);
    ns3py::BindHarp(m);
    // Drop the Python references that ns-3 objects still hold before the interpreter goes.
    pybind11::module_::import("atexit").attr("register")(
        pybind11::cpp_function([]() { ns3py::ReleaseAll(); }));
}
