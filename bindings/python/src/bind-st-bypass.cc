/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of the ST Bypass API: the draft's routines (st_create ... st_version) with
 * their constants, and the event-driven StBypassApi of a node (StProtocol.GetBypass()).
 *
 * C output parameters become return values: st_create() returns (error, handle), st_getopt
 * (error, value), st_map (error, mhandle, mx), st_rx (error, header, payload or None),
 * st_flush (error, count). Errors stay the draft's errno values (0 = ST_OK), as in C.
 *
 * Memory given to st_map stays exported (a bytearray cannot be resized) and referenced until
 * st_unmap, st_delete of its connection or Simulator.Destroy, so the engine never reads or
 * writes memory that Python freed. The blocking routines may run the simulator from the
 * script's top level (as StSimulatorDriver::SetBlockingAllowed(true) does in C++); inside an
 * event, a routine that would have to wait raises RuntimeError instead of stopping the
 * program, as does one that could never return.
 */
#include "ns3-py.h"

#include "ns3/nstime.h"
#include "ns3/st-bypass-api.h"
#include "ns3/st-bypass.h"
#include "ns3/st-header.h"
#include "ns3/st-protocol.h"
#include "ns3/st-simulator-driver.h"

#include <map>
#include <stdexcept>

namespace ns3py
{

using namespace ns3;

namespace
{

/// A connection handle (st_chandle_t) as Python sees it: opaque, compared by value.
struct PyChandle
{
    st_chandle_t h{nullptr}; ///< the handle
};

/// A memory handle (st_mhandle_t) of st_map.
struct PyMhandle
{
    st_mhandle_t h{nullptr}; ///< the handle
};

/// What st_map registered: its connection and the memoryview that holds the buffer.
struct Mapped
{
    st_chandle_t owner;               ///< the connection it belongs to
    std::shared_ptr<PyCallable> view; ///< the memoryview (released at Simulator.Destroy)
};

/// Mapped buffers by memory handle.
std::map<st_mhandle_t, Mapped>&
MappedBuffers()
{
    static std::map<st_mhandle_t, Mapped> m;
    return m;
}

/// Forget the buffers of \p owner (st_delete frees its mhandles).
void
ForgetBuffersOf(st_chandle_t owner)
{
    auto& m = MappedBuffers();
    for (auto it = m.begin(); it != m.end();)
    {
        it = it->second.owner == owner ? m.erase(it) : std::next(it);
    }
}

/// Run a routine that may block: allowed from the script's top level, refused (by the
/// driver's failure handler, as RuntimeError) inside an event when it would have to wait.
template <typename F>
auto
MayBlock(F routine)
{
    const bool was = StSimulatorDriver::IsBlockingAllowed();
    StSimulatorDriver::SetBlockingAllowed(!InSimulatorRun());
    try
    {
        auto r = routine();
        StSimulatorDriver::SetBlockingAllowed(was);
        return r;
    }
    catch (...)
    {
        StSimulatorDriver::SetBlockingAllowed(was);
        throw;
    }
}

/// \return \p text as a C string, or nullptr for None
const char*
CStr(const std::optional<std::string>& text)
{
    return text ? text->c_str() : nullptr;
}

/// \return a 32-byte optional payload from \p pay (None: no payload); ValueError otherwise
std::vector<uint8_t>
OptionalPayload(const py::object& pay)
{
    if (pay.is_none())
    {
        return {};
    }
    const std::string bytes = py::bytes(pay);
    if (bytes.size() != st::ST_OPT_PAYLOAD_SIZE)
    {
        throw py::value_error("st_tx: the optional payload is " +
                              std::to_string(st::ST_OPT_PAYLOAD_SIZE) + " bytes, not " +
                              std::to_string(bytes.size()));
    }
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

/// \return the payload as bytes, or None
py::object
PayloadOf(const uint8_t* p)
{
    if (p == nullptr)
    {
        return py::none();
    }
    return py::bytes(reinterpret_cast<const char*>(p), st::ST_OPT_PAYLOAD_SIZE);
}

/// st_map with a Python buffer (or None with ST_MAP_NO_BYTES and a length).
py::tuple
Map(PyChandle c,
    int flags,
    py::object buffer,
    std::optional<std::size_t> length,
    int bufxBase,
    int bufxCount)
{
    void* ptr = nullptr;
    std::size_t len = length.value_or(0);
    std::shared_ptr<PyCallable> held;
    if (!buffer.is_none())
    {
        // A memoryview keeps the buffer exported: a bytearray cannot be resized while the
        // engine holds its address.
        py::object view = py::reinterpret_steal<py::object>(PyMemoryView_FromObject(buffer.ptr()));
        if (!view)
        {
            throw py::error_already_set();
        }
        Py_buffer* b = PyMemoryView_GET_BUFFER(view.ptr());
        if (!PyBuffer_IsContiguous(b, 'C'))
        {
            throw py::value_error("st_map: the buffer must be contiguous");
        }
        if ((flags & ST_PIN_RX) && b->readonly)
        {
            throw py::value_error("st_map: ST_PIN_RX needs a writable buffer (a bytearray, not "
                                  "bytes)");
        }
        if (length && *length > std::size_t(b->len))
        {
            throw py::value_error("st_map: length " + std::to_string(*length) +
                                  " is more than the buffer's " + std::to_string(b->len) +
                                  " bytes");
        }
        ptr = b->buf;
        len = length.value_or(std::size_t(b->len));
        held = HoldObject(view);
    }
    st_mhandle_t mh = nullptr;
    int mx = -1;
    const int e = st_map(c.h, flags, ptr, len, bufxBase, bufxCount, &mh, &mx);
    if (e == ST_OK && held)
    {
        MappedBuffers()[mh] = Mapped{c.h, held};
    }
    return py::make_tuple(e, e == ST_OK ? py::cast(PyMhandle{mh}) : py::none(), mx);
}

/// st_rx: (error, header, payload or None); \p timeout in seconds, None = wait for ever.
py::tuple
Rx(PyChandle c, std::optional<double> timeout)
{
    timeval tv{};
    if (timeout)
    {
        if (!(*timeout >= 0))
        {
            throw py::value_error("st_rx: the timeout must be >= 0 seconds (None: no timeout)");
        }
        tv.tv_sec = static_cast<time_t>(*timeout);
        tv.tv_usec = static_cast<suseconds_t>((*timeout - double(tv.tv_sec)) * 1e6);
    }
    st_header_t hdr{};
    uint8_t payload[st::ST_OPT_PAYLOAD_SIZE];
    const int e = MayBlock([&]() { return st_rx(c.h, &hdr, payload, timeout ? &tv : nullptr); });
    return py::make_tuple(e,
                          hdr,
                          e == ST_OK && st_rx_payload(c.h) ? PayloadOf(payload) : py::none());
}

/// Bind a routine that takes only a connection handle and returns an int (the ready tests,
/// st_rx_payload, st_connect_result, st_close_start).
void
BindHandleTest(py::module_& m, const char* name, int (*routine)(st_chandle_t))
{
    m.def(
        name,
        [routine](PyChandle c) { return routine(c.h); },
        py::arg("chandle"));
}

/// Bind the routines of the draft and their constants.
void
BindRoutines(py::module_& m)
{
    py::class_<PyChandle>(m, "st_chandle_t", "an ST connection handle (opaque)")
        .def("__eq__", [](const PyChandle& a, const PyChandle& b) { return a.h == b.h; })
        .def("__hash__", [](const PyChandle& a) { return std::hash<void*>()(a.h); })
        .def("__repr__", [](const PyChandle& a) { return "<st_chandle_t " + ToString(a.h) + ">"; });
    py::class_<PyMhandle>(m, "st_mhandle_t", "an ST memory handle of st_map (opaque)")
        .def("__eq__", [](const PyMhandle& a, const PyMhandle& b) { return a.h == b.h; })
        .def("__hash__", [](const PyMhandle& a) { return std::hash<void*>()(a.h); })
        .def("__repr__", [](const PyMhandle& a) { return "<st_mhandle_t " + ToString(a.h) + ">"; });

    m.def("st_create", []() {
        st_chandle_t h = nullptr;
        const int e = st_create(&h);
        return py::make_tuple(e, e == ST_OK ? py::cast(PyChandle{h}) : py::none());
    });
    m.def(
        "st_delete",
        [](PyChandle c) {
            const int e = MayBlock([&]() { return st_delete(c.h); });
            if (e == ST_OK)
            {
                ForgetBuffersOf(c.h);
            }
            return e;
        },
        py::arg("chandle"));
    m.def(
        "st_getopt",
        [](PyChandle c, int opt) {
            int v = 0;
            const int e = st_getopt(c.h, opt, &v);
            return py::make_tuple(e, v);
        },
        py::arg("chandle"),
        py::arg("optname"));
    m.def(
        "st_setopt",
        [](PyChandle c, int opt, int value) { return st_setopt(c.h, opt, &value); },
        py::arg("chandle"),
        py::arg("optname"),
        py::arg("optval"));
    m.def(
        "st_listen",
        [](PyChandle c, std::optional<std::string> host, std::optional<std::string> service) {
            return st_listen(c.h, CStr(host), CStr(service));
        },
        py::arg("chandle"),
        py::arg("hostname"),
        py::arg("service"));
    m.def(
        "st_accept",
        [](PyChandle c) { return MayBlock([&]() { return st_accept(c.h); }); },
        py::arg("chandle"));
    m.def(
        "st_connect",
        [](PyChandle c, std::optional<std::string> host, std::optional<std::string> service) {
            return MayBlock([&]() { return st_connect(c.h, CStr(host), CStr(service)); });
        },
        py::arg("chandle"),
        py::arg("hostname"),
        py::arg("service"));
    m.def(
        "st_close",
        [](PyChandle c) { return MayBlock([&]() { return st_close(c.h); }); },
        py::arg("chandle"));
    m.def("st_map",
          &Map,
          py::arg("chandle"),
          py::arg("flags"),
          py::arg("buffer"),
          py::arg("length") = py::none(),
          py::arg("bufx_base") = 0,
          py::arg("bufx_count") = -1,
          "register memory: (error, mhandle, mx); buffer None with ST_MAP_NO_BYTES and a "
          "length maps memory that holds no bytes");
    m.def(
        "st_unmap",
        [](PyMhandle mh) {
            const int e = st_unmap(mh.h);
            if (e == ST_OK)
            {
                MappedBuffers().erase(mh.h);
            }
            return e;
        },
        py::arg("mhandle"));
    m.def(
        "st_tx",
        [](PyChandle c,
           st_header_t hdr,
           py::object pay,
           unsigned int len,
           unsigned int bufx,
           unsigned int off) {
            std::vector<uint8_t> p = OptionalPayload(pay);
            return st_tx(c.h, &hdr, p.empty() ? nullptr : p.data(), len, bufx, off);
        },
        py::arg("chandle"),
        py::arg("hdr"),
        py::arg("opt_pay") = py::none(),
        py::arg("len") = 0,
        py::arg("bufx") = 0,
        py::arg("off") = 0);
    m.def("st_rx",
          &Rx,
          py::arg("chandle"),
          py::arg("timeout") = py::none(),
          "(error, header, 32-byte payload or None); timeout in seconds, None waits for ever");
    BindHandleTest(m, "st_rx_payload", &st_rx_payload);
    m.def(
        "st_flush",
        [](PyChandle c, int64_t threshold) {
            int64_t count = 0;
            const int e = MayBlock([&]() { return st_flush(c.h, threshold, &count); });
            return py::make_tuple(e, count);
        },
        py::arg("chandle"),
        py::arg("threshold") = -1);
    m.def(
        "st_connect_start",
        [](PyChandle c, std::optional<std::string> host, std::optional<std::string> service) {
            return st_connect_start(c.h, CStr(host), CStr(service));
        },
        py::arg("chandle"),
        py::arg("hostname"),
        py::arg("service"));
    BindHandleTest(m, "st_connect_result", &st_connect_result);
    BindHandleTest(m, "st_accept_ready", &st_accept_ready);
    BindHandleTest(m, "st_rx_ready", &st_rx_ready);
    m.def(
        "st_flush_ready",
        [](PyChandle c, int64_t threshold) { return st_flush_ready(c.h, threshold); },
        py::arg("chandle"),
        py::arg("threshold") = -1);
    BindHandleTest(m, "st_close_start", &st_close_start);
    BindHandleTest(m, "st_close_ready", &st_close_ready);
    m.def("st_time", &st_time, "simulated time in seconds");
    m.def("st_version", []() { return std::string(st_version()); });

    const std::pair<const char*, int> constants[] = {
        {"ST_PIN_TX", ST_PIN_TX},
        {"ST_PIN_RX", ST_PIN_RX},
        {"ST_MAP_NO_BYTES", ST_MAP_NO_BYTES},
        {"ST_MAP_CHECK", ST_MAP_CHECK},
        {"ST_OPT_BYPASS", ST_OPT_BYPASS},
        {"ST_OPT_KEY_LOCAL", ST_OPT_KEY_LOCAL},
        {"ST_OPT_KEY_REMOTE", ST_OPT_KEY_REMOTE},
        {"ST_OPT_RX_SLOTS", ST_OPT_RX_SLOTS},
        {"ST_OPT_RX_WINDOW_REMOTE", ST_OPT_RX_WINDOW_REMOTE},
        {"ST_OPT_RX_WINDOW_LOCAL", ST_OPT_RX_WINDOW_LOCAL},
        {"ST_OPT_PORT_LOCAL", ST_OPT_PORT_LOCAL},
        {"ST_OPT_PORT_REMOTE", ST_OPT_PORT_REMOTE},
        {"ST_OPT_MAXSTU_LOCAL", ST_OPT_MAXSTU_LOCAL},
        {"ST_OPT_MAXSTU_REMOTE", ST_OPT_MAXSTU_REMOTE},
        {"ST_OPT_BUFSIZE_LOCAL", ST_OPT_BUFSIZE_LOCAL},
        {"ST_OPT_BUFSIZE_REMOTE", ST_OPT_BUFSIZE_REMOTE},
        {"ST_OPT_IANA_LOCAL", ST_OPT_IANA_LOCAL},
        {"ST_OPT_IANA_REMOTE", ST_OPT_IANA_REMOTE},
        {"ST_OPT_PORTLEN_LOCAL", ST_OPT_PORTLEN_LOCAL},
        {"ST_OPT_PORTLEN_REMOTE", ST_OPT_PORTLEN_REMOTE},
        {"ST_OPT_THREAD_SAFETY", ST_OPT_THREAD_SAFETY},
        {"ST_OPT_CHANNELS", ST_OPT_CHANNELS},
        {"ST_OPT_BUFX_BASE", ST_OPT_BUFX_BASE},
        {"ST_OPT_BUFX_COUNT", ST_OPT_BUFX_COUNT},
        {"ST_OPT_CTS_REQ", ST_OPT_CTS_REQ},
        {"ST_OPT_MAX_BLOCK", ST_OPT_MAX_BLOCK},
        {"ST_OPT_DATA_VC", ST_OPT_DATA_VC},
        {"ST_OPT_ETHERTYPE", ST_OPT_ETHERTYPE},
        {"ST_OK", ST_OK},
        {"ST_EINVAL", ST_EINVAL},
        {"ST_ENOTCONN", ST_ENOTCONN},
        {"ST_EISCONN", ST_EISCONN},
        {"ST_ECONNREFUSED", ST_ECONNREFUSED},
        {"ST_ETIMEDOUT", ST_ETIMEDOUT},
        {"ST_EWOULDBLOCK", ST_EWOULDBLOCK},
        {"ST_EADDRINUSE", ST_EADDRINUSE},
        {"ST_ENOPROTOOPT", ST_ENOPROTOOPT},
        {"ST_EACCES", ST_EACCES},
        {"ST_EFAULT", ST_EFAULT},
        {"ST_EHOSTUNREACH", ST_EHOSTUNREACH},
        {"ST_ENOMEM", ST_ENOMEM},
        {"ST_EMSGSIZE", ST_EMSGSIZE},
    };
    for (const auto& [name, value] : constants)
    {
        m.attr(name) = value;
    }
}

/// Bind st_header_t, with the opcode and flags of OpFlags as properties.
void
BindHeader(py::module_& m)
{
    py::enum_<st::StOp>(m, "StOp")
        .value("Rc", st::StOp::Rc)
        .value("Ca", st::StOp::Ca)
        .value("Rd", st::StOp::Rd)
        .value("Da", st::StOp::Da)
        .value("Dc", st::StOp::Dc)
        .value("Nop", st::StOp::Nop)
        .value("Rmr", st::StOp::Rmr)
        .value("Mra", st::StOp::Mra)
        .value("Get", st::StOp::Get)
        .value("Rts", st::StOp::Rts)
        .value("Ra", st::StOp::Ra)
        .value("Rtr", st::StOp::Rtr)
        .value("Cts", st::StOp::Cts)
        .value("Data", st::StOp::Data)
        .value("Rs", st::StOp::Rs)
        .value("Rsr", st::StOp::Rsr)
        .value("End", st::StOp::End)
        .value("Ea", st::StOp::Ea);
    py::module_ flag = m.def_submodule("StFlag", "the flags of OpFlags (low 11 bits)");
    flag.attr("DATA_CHANNEL") = st::StFlag::DATA_CHANNEL;
    flag.attr("REJECT") = st::StFlag::REJECT;
    flag.attr("LAST") = st::StFlag::LAST;
    flag.attr("ORDER") = st::StFlag::ORDER;
    flag.attr("SEND_STATE") = st::StFlag::SEND_STATE;
    flag.attr("INTERRUPT") = st::StFlag::INTERRUPT;
    flag.attr("SILENT") = st::StFlag::SILENT;
    flag.attr("FETCHOP_MASK") = st::StFlag::FETCHOP_MASK;
    flag.attr("MASK") = st::StFlag::MASK;

    py::class_<st_header_t> h(m, "st_header_t", "the 40-byte ST header in host order");
    h.def(py::init([](std::optional<st::StOp> op, uint16_t flags) {
              if (flags & ~st::StFlag::MASK)
              {
                  throw py::value_error("st_header_t: flags has bits above the low 11");
              }
              st_header_t v{};
              v.opflags = uint16_t((op ? uint16_t(*op) << 11 : 0) | flags);
              return v;
          }),
          py::arg("op") = py::none(),
          py::arg("flags") = 0);
    h.def_property(
        "op",
        [](const st_header_t& v) { return st::StOp(v.opflags >> 11); },
        [](st_header_t& v, st::StOp op) {
            v.opflags = uint16_t((uint16_t(op) << 11) | (v.opflags & st::StFlag::MASK));
        });
    h.def_property(
        "flags",
        [](const st_header_t& v) { return uint16_t(v.opflags & st::StFlag::MASK); },
        [](st_header_t& v, uint16_t f) {
            if (f & ~st::StFlag::MASK)
            {
                throw py::value_error("st_header_t.flags: bits above the low 11");
            }
            v.opflags = uint16_t((v.opflags & ~st::StFlag::MASK) | f);
        });
#define ST_FIELD(name) h.def_readwrite(#name, &st_header_t::name)
    ST_FIELD(opflags);
    ST_FIELD(param);
    ST_FIELD(d_port);
    ST_FIELD(s_port);
    ST_FIELD(d_key);
    ST_FIELD(checksum);
    ST_FIELD(mx);
    ST_FIELD(bufx);
    ST_FIELD(offset);
    ST_FIELD(sync);
    ST_FIELD(b_num);
    ST_FIELD(d_id);
    ST_FIELD(s_id);
#undef ST_FIELD
    h.def("__repr__", [](const st_header_t& v) {
        const char* name = st::StOpName(st::StOp(v.opflags >> 11));
        return "<st_header_t " + std::string(name ? name : "?") +
               " flags=" + std::to_string(v.opflags & st::StFlag::MASK) + ">";
    });
}

/// Bind the event-driven API of a node: each call ends with a Python callable.
void
BindEventDriven(py::module_& m)
{
    py::class_<StSimulatorDriver>(m, "StSimulatorDriver")
        .def_static("SetBlockingAllowed",
                    &StSimulatorDriver::SetBlockingAllowed,
                    py::arg("allowed"))
        .def_static("IsBlockingAllowed", &StSimulatorDriver::IsBlockingAllowed);

    using Api = StBypassApi;
    py::class_<Api, Object, Ptr<Api>>(m, "StBypassApi")
        .def_static("GetTypeId", &Api::GetTypeId)
        .def("Create",
             [](Api& a) {
                 st_chandle_t h = nullptr;
                 const int e = a.Create(&h);
                 return py::make_tuple(e, e == ST_OK ? py::cast(PyChandle{h}) : py::none());
             })
        .def("MakeDefault", &Api::MakeDefault)
        .def(
            "Connect",
            [](Api& a, PyChandle c, std::string host, std::string service, py::object fn) {
                auto held = Hold(fn);
                a.Connect(c.h, host, service, Api::DoneCallback([held](int e) {
                              CallWith(*held, e);
                          }));
            },
            py::arg("chandle"),
            py::arg("hostname"),
            py::arg("service"),
            py::arg("callback"))
        .def(
            "Accept",
            [](Api& a, PyChandle c, py::object fn) {
                auto held = Hold(fn);
                a.Accept(c.h, Api::DoneCallback([held](int e) { CallWith(*held, e); }));
            },
            py::arg("chandle"),
            py::arg("callback"))
        .def(
            "Rx",
            [](Api& a, PyChandle c, Time timeout, py::object fn) {
                auto held = Hold(fn);
                a.Rx(c.h,
                     timeout,
                     Api::RxCallback([held](int e, const st_header_t& h, const uint8_t* p) {
                         if (held->IsHeld())
                         {
                             held->Call(py::make_tuple(e, h, PayloadOf(p)));
                         }
                     }));
            },
            py::arg("chandle"),
            py::arg("timeout"),
            py::arg("callback"),
            "callback(error, header, payload or None); a negative timeout waits for ever")
        .def(
            "Flush",
            [](Api& a, PyChandle c, int64_t threshold, py::object fn) {
                auto held = Hold(fn);
                a.Flush(c.h, threshold, Api::FlushCallback([held](int e, int64_t n) {
                            CallWith(*held, e, n);
                        }));
            },
            py::arg("chandle"),
            py::arg("threshold"),
            py::arg("callback"))
        .def(
            "Close",
            [](Api& a, PyChandle c, py::object fn) {
                auto held = Hold(fn);
                a.Close(c.h, Api::DoneCallback([held](int e) { CallWith(*held, e); }));
            },
            py::arg("chandle"),
            py::arg("callback"))
        .def(
            "Delete",
            [](Api& a, PyChandle c, py::object fn) {
                auto held = Hold(fn);
                const st_chandle_t h = c.h;
                a.Delete(h, Api::DoneCallback([held, h](int e) {
                             if (e == ST_OK)
                             {
                                 ForgetBuffersOf(h);
                             }
                             CallWith(*held, e);
                         }));
            },
            py::arg("chandle"),
            py::arg("callback"))
        .def("GetPendingCount", &Api::GetPendingCount);

    auto proto = py::reinterpret_borrow<py::class_<StProtocol, Object, Ptr<StProtocol>>>(
        m.attr("StProtocol"));
    proto.def("GetBypass", &StProtocol::GetBypass);
}

} // namespace

void
BindStBypass(py::module_& m)
{
    // A blocking routine that may not wait, or could never return, raises RuntimeError.
    StSimulatorDriver::SetWaitFailureHandler(
        [](const std::string& message) { throw std::runtime_error(message); });
    BindHeader(m);
    BindRoutines(m);
    BindEventDriven(m);
}

} // namespace ns3py
