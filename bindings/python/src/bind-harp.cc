/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of the harp module: HarpHelper (servers, static entries, options texts,
 * installation, the tables, ST resolution through HARP), HarpProtocol and HarpInterface
 * (resolution with Python callbacks, the client's phase and servers), and the trace
 * signatures of the module. HarpFabricHelper is bound with the fabric helpers
 * (bind-gsn-helpers.cc). What HarpHelper aborts on is refused first with ValueError.
 */
#include "ns3-py.h"

#include "ns3/application.h"
#include "ns3/channel.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-net-device.h"
#include "ns3/harp-event.h"
#include "ns3/harp-helper.h"
#include "ns3/harp-interface-container.h"
#include "ns3/harp-interface.h"
#include "ns3/harp-options.h"
#include "ns3/harp-protocol.h"
#include "ns3/harp-stats.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/st-protocol.h"

#include <fstream>

namespace ns3py
{

using namespace ns3;

namespace
{

/// Raise ValueError unless HARP can run on \p device (what HarpHelper::Install requires).
void
CheckHarpDevice(Ptr<NetDevice> device, const char* where)
{
    if (!DynamicCast<GsnNetDevice>(device))
    {
        throw py::value_error(std::string(where) + ": HARP runs on GSN devices only");
    }
    Ptr<Ipv4> ipv4 = device->GetNode() ? device->GetNode()->GetObject<Ipv4>() : nullptr;
    if (!ipv4)
    {
        throw py::value_error(std::string(where) + ": install the internet stack first");
    }
    const int32_t index = ipv4->GetInterfaceForDevice(device);
    if (index < 0 || ipv4->GetNAddresses(uint32_t(index)) == 0)
    {
        throw py::value_error(std::string(where) + ": assign an IPv4 address to the device first");
    }
    Ptr<HarpProtocol> harp = device->GetNode()->GetObject<HarpProtocol>();
    if (harp && harp->GetInterfaceForDevice(device))
    {
        throw py::value_error(std::string(where) + ": HARP runs on this device already");
    }
}

/// Raise ValueError if \p text has a line HARP's options parser refuses.
void
CheckOptions(const std::string& text, const char* where)
{
    const harp::OptionsParseResult parsed = harp::ParseOptions(text);
    if (!parsed.Ok())
    {
        std::string message = std::string(where) + ": HARP options:";
        for (const auto& e : parsed.errors)
        {
            message += " line " + std::to_string(e.line) + ": " + e.message + ";";
        }
        message.pop_back();
        throw py::value_error(message);
    }
}

/// HarpHelper that remembers its servers, so that Install can check them first.
class PyHarpHelper : public HarpHelper
{
  public:
    void AddServerDevice(Ptr<NetDevice> device)
    {
        m_servers.push_back(device);
        HarpHelper::AddServer(device);
    }

    /// Raise ValueError for what Install would abort on.
    void CheckInstall(const NetDeviceContainer& devices) const
    {
        for (const Ptr<NetDevice>& server : m_servers)
        {
            Ptr<Ipv4> ipv4 = server->GetNode()->GetObject<Ipv4>();
            if (!ipv4 || ipv4->GetInterfaceForDevice(server) < 0)
            {
                throw py::value_error("HarpHelper.Install: a server device (declared with "
                                      "AddServer) has no IPv4 interface");
            }
        }
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            CheckHarpDevice(devices.Get(i), "HarpHelper.Install");
        }
    }

  private:
    std::vector<Ptr<NetDevice>> m_servers; ///< AddServer(device)
};

/// The devices HarpHelper::Install(nodes) runs HARP on: GSN devices with an IPv4 address.
NetDeviceContainer
HarpDevicesOf(const NodeContainer& nodes)
{
    NetDeviceContainer out;
    for (uint32_t n = 0; n < nodes.GetN(); ++n)
    {
        Ptr<Node> node = nodes.Get(n);
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<NetDevice> dev = node->GetDevice(d);
            const int32_t index = ipv4 ? ipv4->GetInterfaceForDevice(dev) : -1;
            if (DynamicCast<GsnNetDevice>(dev) && index >= 0 &&
                ipv4->GetNAddresses(uint32_t(index)) > 0)
            {
                out.Add(dev);
            }
        }
    }
    return out;
}

} // namespace

void
BindHarp(py::module_& m)
{
    py::enum_<harp::Phase>(m, "HarpPhase")
        .value("Idle", harp::Phase::Idle)
        .value("Detecting", harp::Phase::Detecting)
        .value("Registration", harp::Phase::Registration)
        .value("Operational", harp::Phase::Operational);
    m.def(
        "PhaseName",
        [](harp::Phase p) { return std::string(harp::PhaseName(p)); },
        py::arg("phase"));
    py::enum_<harp::FailReason>(m, "HarpFailReason")
        .value("None_", harp::FailReason::None)
        .value("Nak", harp::FailReason::Nak)
        .value("Timeout", harp::FailReason::Timeout)
        .value("OutsideLis", harp::FailReason::OutsideLis)
        .value("NoServer", harp::FailReason::NoServer)
        .value("NoBroadcast", harp::FailReason::NoBroadcast);
    py::enum_<harp::DropReason>(m, "HarpDropReason")
        .value("Truncated", harp::DropReason::Truncated)
        .value("BadHardwareType", harp::DropReason::BadHardwareType)
        .value("BadProtocolType", harp::DropReason::BadProtocolType)
        .value("BadAddressLength", harp::DropReason::BadAddressLength)
        .value("UnknownOperation", harp::DropReason::UnknownOperation)
        .value("SenderMismatch", harp::DropReason::SenderMismatch)
        .value("BadSender", harp::DropReason::BadSender)
        .value("WrongTarget", harp::DropReason::WrongTarget)
        .value("OutsideLis", harp::DropReason::OutsideLis)
        .value("UnsolicitedReply", harp::DropReason::UnsolicitedReply)
        .value("StaticConflict", harp::DropReason::StaticConflict)
        .value("AddressConflict", harp::DropReason::AddressConflict);
    py::class_<harp::Event>(m, "HarpEvent")
        .def("ToString", &harp::Event::ToString)
        .def("__str__", &harp::Event::ToString);

    // The client's view: its phase, what its self-test found, its servers.
    py::class_<harp::Client::ServerInfo>(m, "HarpServerInfo")
        .def_property_readonly(
            "address",
            [](const harp::Client::ServerInfo& s) { return s.address.ToString(); })
        .def_property_readonly("ula",
                               [](const harp::Client::ServerInfo& s) { return s.ula.ToString(); });
    py::class_<harp::Client>(m, "HarpClient")
        .def("GetPhase", &harp::Client::GetPhase)
        .def("IsBroadcastFabric", &harp::Client::IsBroadcastFabric)
        .def("GetServers", &harp::Client::GetServers, py::return_value_policy::copy);

    py::class_<HarpInterface, Object, Ptr<HarpInterface>>(m, "HarpInterface")
        .def_static("GetTypeId", &HarpInterface::GetTypeId)
        .def("GetDevice", &HarpInterface::GetDevice)
        .def("GetAddress", &HarpInterface::GetAddress)
        .def("GetMask", &HarpInterface::GetMask)
        .def("GetUla", &HarpInterface::GetUla)
        .def("IsInLis", &HarpInterface::IsInLis, py::arg("ip"))
        .def(
            "Resolve",
            [](HarpInterface& h, Ipv4Address ip) -> py::object {
                auto ula = h.Resolve(ip);
                return ula ? py::cast(*ula) : py::none();
            },
            py::arg("ip"))
        .def(
            "ResolveAsync",
            [](HarpInterface& h, Ipv4Address ip, py::object fn) {
                auto held = Hold(fn);
                h.ResolveAsync(ip,
                               HarpInterface::ResolveCallback(
                                   [held](Ipv4Address a, bool ok, Mac48Address ula) {
                                       CallWith<Ipv4Address, bool, Mac48Address>(*held, a, ok, ula);
                                   }));
            },
            py::arg("ip"),
            py::arg("callback"))
        .def("AddStatic", &HarpInterface::AddStatic, py::arg("ip"), py::arg("ula"))
        .def("RemoveStatic", &HarpInterface::RemoveStatic, py::arg("ip"))
        .def("HasServer", &HarpInterface::HasServer)
        .def("IsClientRunning", &HarpInterface::IsClientRunning)
        .def("IsServerRunning", &HarpInterface::IsServerRunning)
        .def("StartClient", &HarpInterface::StartClient)
        .def("StopClient", &HarpInterface::StopClient)
        .def("StartServer", &HarpInterface::StartServer)
        .def("StopServer", &HarpInterface::StopServer)
        .def(
            "GetClient",
            [](const HarpInterface& h) -> const harp::Client& {
                if (!h.IsClientRunning())
                {
                    throw py::value_error("HarpInterface.GetClient: the client is stopped");
                }
                return h.GetClient();
            },
            py::return_value_policy::reference_internal)
        .def("GetPhase", &HarpInterface::GetPhase)
        .def("IsEmulatingBroadcast", &HarpInterface::IsEmulatingBroadcast)
        .def("GetBroadcastCounters",
             [](const HarpInterface& h) {
                 const HarpBroadcastCounters& c = h.GetBroadcastCounters();
                 py::dict d;
                 d["sentToServer"] = c.sentToServer;
                 d["replicated"] = c.replicated;
                 d["copiesSent"] = c.copiesSent;
                 d["copiesRefused"] = c.copiesRefused;
                 d["outsideServedLis"] = c.outsideServedLis;
                 return d;
             })
        .def("ToString", [](const HarpInterface& h) {
            std::ostringstream os;
            h.Print(os);
            return os.str();
        });

    py::class_<HarpProtocol, Object, Ptr<HarpProtocol>>(m, "HarpProtocol")
        .def_static("GetTypeId", &HarpProtocol::GetTypeId)
        .def("GetNode", &HarpProtocol::GetNode)
        .def("GetNInterfaces", &HarpProtocol::GetNInterfaces)
        .def(
            "GetInterface",
            [](const HarpProtocol& p, uint32_t i) {
                if (i >= p.GetNInterfaces())
                {
                    throw py::index_error("HARP has no interface " + std::to_string(i));
                }
                return p.GetInterface(i);
            },
            py::arg("index"))
        .def(
            "GetInterfaceForDevice",
            [](const HarpProtocol& p, Ptr<NetDevice> d) { return p.GetInterfaceForDevice(d); },
            py::arg("device"))
        .def(
            "Resolve",
            [](HarpProtocol& p, Ptr<NetDevice> d, Ipv4Address ip) -> py::object {
                auto ula = p.Resolve(d, ip);
                return ula ? py::cast(*ula) : py::none();
            },
            py::arg("device"),
            py::arg("ip"))
        .def(
            "ResolveAsync",
            [](HarpProtocol& p, Ptr<NetDevice> d, Ipv4Address ip, py::object fn) {
                auto held = Hold(fn);
                p.ResolveAsync(d,
                               ip,
                               HarpInterface::ResolveCallback(
                                   [held](Ipv4Address a, bool ok, Mac48Address ula) {
                                       CallWith<Ipv4Address, bool, Mac48Address>(*held, a, ok, ula);
                                   }));
            },
            py::arg("device"),
            py::arg("ip"),
            py::arg("callback"));

    py::class_<HarpInterfaceContainer>(m, "HarpInterfaceContainer")
        .def(py::init<>())
        .def("GetN", &HarpInterfaceContainer::GetN)
        .def("__len__", &HarpInterfaceContainer::GetN)
        .def(
            "Get",
            [](const HarpInterfaceContainer& c, uint32_t i) {
                if (i >= c.GetN())
                {
                    throw py::index_error("no HARP interface " + std::to_string(i));
                }
                return c.Get(i);
            },
            py::arg("index"))
        .def("__getitem__",
             [](const HarpInterfaceContainer& c, uint32_t i) {
                 if (i >= c.GetN())
                 {
                     throw py::index_error("index out of range");
                 }
                 return c.Get(i);
             })
        .def("Add",
             py::overload_cast<const HarpInterfaceContainer&>(&HarpInterfaceContainer::Add),
             py::arg("other"));

    py::class_<PyHarpHelper>(m, "HarpHelper")
        .def(py::init<>())
        .def(
            "SetAttribute",
            [](PyHarpHelper& h, const std::string& name, const AttributeValue& value) {
                CheckAttribute(HarpProtocol::GetTypeId(), name, value, "HarpHelper.SetAttribute");
                h.SetAttribute(name, value);
            },
            py::arg("name"),
            py::arg("value"))
        .def(
            "AddServer",
            [](PyHarpHelper& h, Ptr<NetDevice> d) {
                if (!DynamicCast<GsnNetDevice>(d))
                {
                    throw py::value_error("HarpHelper.AddServer: HARP servers run on GSN devices");
                }
                h.AddServerDevice(d);
            },
            py::arg("device"))
        .def("AddServer",
             py::overload_cast<Ipv4Address, Ipv4Mask, Mac48Address>(&HarpHelper::AddServer),
             py::arg("network"),
             py::arg("mask"),
             py::arg("ula"))
        .def("AddStatic", &HarpHelper::AddStatic, py::arg("ip"), py::arg("ula"))
        .def(
            "SetOptions",
            [](PyHarpHelper& h, const std::string& text) {
                CheckOptions(text, "HarpHelper.SetOptions");
                h.SetOptions(text);
            },
            py::arg("text"))
        .def(
            "SetOptions",
            [](PyHarpHelper& h, Ptr<NetDevice> d, const std::string& text) {
                CheckOptions(text, "HarpHelper.SetOptions");
                h.SetOptions(d, text);
            },
            py::arg("device"),
            py::arg("text"))
        .def_static(
            "ReadOptionsFile",
            [](const std::string& path) {
                std::ifstream in(path);
                if (!in)
                {
                    throw py::value_error("HarpHelper: cannot read " + path);
                }
                return HarpHelper::ReadOptionsFile(path);
            },
            py::arg("path"))
        .def(
            "Install",
            [](const PyHarpHelper& h, const NetDeviceContainer& devices) {
                h.CheckInstall(devices);
                return h.Install(devices);
            },
            py::arg("devices"))
        .def(
            "Install",
            [](const PyHarpHelper& h, const NodeContainer& nodes) {
                h.CheckInstall(HarpDevicesOf(nodes));
                return h.Install(nodes);
            },
            py::arg("nodes"))
        .def(
            "Install",
            [](const PyHarpHelper& h, Ptr<Node> node) {
                h.CheckInstall(HarpDevicesOf(NodeContainer(node)));
                return h.Install(node);
            },
            py::arg("node"))
        .def_static(
            "PrintTables",
            [](const NodeContainer& nodes, py::object file) {
                std::ostringstream os;
                HarpHelper::PrintTables(nodes, os);
                WriteTo(file, os.str());
            },
            py::arg("nodes"),
            py::arg("file") = py::none())
        .def_static(
            "ResolveStPeers",
            [](const NodeContainer& nodes) {
                for (uint32_t i = 0; i < nodes.GetN(); ++i)
                {
                    Ptr<Node> n = nodes.Get(i);
                    if (!n->GetObject<HarpProtocol>() || !n->GetObject<StProtocol>())
                    {
                        throw py::value_error("HarpHelper.ResolveStPeers: node " +
                                              std::to_string(n->GetId()) +
                                              " does not run both HARP and ST");
                    }
                }
                HarpHelper::ResolveStPeers(nodes);
            },
            py::arg("nodes"));

    RegisterTrace("ns3::HarpInterface::FrameTracedCallback",
                  static_cast<HarpInterface::FrameTracedCallback>(nullptr));
    RegisterTrace("ns3::HarpInterface::DropTracedCallback",
                  static_cast<HarpInterface::DropTracedCallback>(nullptr));
    RegisterTrace("ns3::HarpInterface::EventTracedCallback",
                  static_cast<HarpInterface::EventTracedCallback>(nullptr));
    RegisterTrace("ns3::HarpInterface::PhaseTracedCallback",
                  static_cast<HarpInterface::PhaseTracedCallback>(nullptr));
    RegisterTrace("ns3::HarpInterface::ResolvedTracedCallback",
                  static_cast<HarpInterface::ResolvedTracedCallback>(nullptr));
    RegisterTrace("ns3::HarpInterface::UnresolvableTracedCallback",
                  static_cast<HarpInterface::UnresolvableTracedCallback>(nullptr));
}

} // namespace ns3py
