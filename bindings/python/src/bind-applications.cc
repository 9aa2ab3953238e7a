/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of the usual ns-3 applications and their helpers: UDP echo, bulk send,
 * packet sink, on/off and ping (V4Ping). Helper attributes are checked against the
 * application's TypeId before ns-3's ObjectFactory, which aborts on a bad one.
 */
#include "ns3-py.h"

#include "ns3/bulk-send-application.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/on-off-helper.h"
#include "ns3/onoff-application.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/udp-echo-client.h"
#include "ns3/udp-echo-helper.h"
#include "ns3/udp-echo-server.h"
#include "ns3/v4ping-helper.h"
#include "ns3/v4ping.h"

namespace ns3py
{

using namespace ns3;

namespace
{

/// \return \p name if it is a socket factory type (ns-3 aborts at the start of the
/// application otherwise)
std::string
CheckSocketFactory(const std::string& name)
{
    TypeId tid = LookupType(name);
    if (!tid.IsChildOf(TypeId::LookupByName("ns3::SocketFactory")))
    {
        throw py::value_error("\"" + name +
                              "\" is not a socket factory (e.g. ns3::UdpSocketFactory, "
                              "ns3::TcpSocketFactory, ns3::PacketSocketFactory)");
    }
    return name;
}

/// Bind SetAttribute (checked against \p type) and Install of an application helper.
template <typename H, typename Cls>
void
BindAppHelper(Cls& c, const char* type)
{
    const std::string typeName = type;
    c.def(
         "SetAttribute",
         [typeName](H& h, const std::string& name, const AttributeValue& value) {
             CheckAttribute(LookupType(typeName), name, value, "SetAttribute");
             h.SetAttribute(name, value);
         },
         py::arg("name"),
         py::arg("value"))
        .def(
            "Install",
            [](const H& h, NodeContainer nodes) { return h.Install(nodes); },
            py::arg("nodes"))
        .def(
            "Install",
            [](const H& h, Ptr<Node> node) { return h.Install(node); },
            py::arg("node"))
        .def(
            "Install",
            [](const H& h, const std::string& name) {
                if (!Names::Find<Node>(name))
                {
                    throw py::value_error("no node named \"" + name + "\"");
                }
                return h.Install(name);
            },
            py::arg("nodeName"));
}

} // namespace

void
BindApplications(py::module_& m)
{
    py::class_<UdpEchoServer, Application, Ptr<UdpEchoServer>>(m, "UdpEchoServer")
        .def_static("GetTypeId", &UdpEchoServer::GetTypeId);
    py::class_<UdpEchoClient, Application, Ptr<UdpEchoClient>>(m, "UdpEchoClient")
        .def_static("GetTypeId", &UdpEchoClient::GetTypeId)
        .def("SetFill", py::overload_cast<std::string>(&UdpEchoClient::SetFill), py::arg("fill"));
    py::class_<BulkSendApplication, Application, Ptr<BulkSendApplication>>(m, "BulkSendApplication")
        .def_static("GetTypeId", &BulkSendApplication::GetTypeId);
    py::class_<PacketSink, Application, Ptr<PacketSink>>(m, "PacketSink")
        .def_static("GetTypeId", &PacketSink::GetTypeId)
        .def("GetTotalRx", &PacketSink::GetTotalRx);
    py::class_<OnOffApplication, Application, Ptr<OnOffApplication>>(m, "OnOffApplication")
        .def_static("GetTypeId", &OnOffApplication::GetTypeId);
    py::class_<V4Ping, Application, Ptr<V4Ping>>(m, "V4Ping")
        .def(py::init([]() { return CreateObject<V4Ping>(); }))
        .def_static("GetTypeId", &V4Ping::GetTypeId);

    py::class_<UdpEchoServerHelper> echoServer(m, "UdpEchoServerHelper");
    echoServer.def(py::init<uint16_t>(), py::arg("port"));
    BindAppHelper<UdpEchoServerHelper>(echoServer, "ns3::UdpEchoServer");

    py::class_<UdpEchoClientHelper> echoClient(m, "UdpEchoClientHelper");
    echoClient.def(py::init<Address, uint16_t>(), py::arg("address"), py::arg("port"))
        .def(py::init<Address>(), py::arg("address"))
        .def(
            "SetFill",
            [](UdpEchoClientHelper& h, Ptr<Application> app, const std::string& fill) {
                if (!DynamicCast<UdpEchoClient>(app))
                {
                    throw py::value_error("SetFill: not a UdpEchoClient");
                }
                h.SetFill(app, fill);
            },
            py::arg("application"),
            py::arg("fill"));
    BindAppHelper<UdpEchoClientHelper>(echoClient, "ns3::UdpEchoClient");

    py::class_<BulkSendHelper> bulk(m, "BulkSendHelper");
    bulk.def(py::init([](const std::string& protocol, const Address& address) {
                 return BulkSendHelper(CheckSocketFactory(protocol), address);
             }),
             py::arg("protocol"),
             py::arg("address"));
    BindAppHelper<BulkSendHelper>(bulk, "ns3::BulkSendApplication");

    py::class_<PacketSinkHelper> sink(m, "PacketSinkHelper");
    sink.def(py::init([](const std::string& protocol, const Address& address) {
                 return PacketSinkHelper(CheckSocketFactory(protocol), address);
             }),
             py::arg("protocol"),
             py::arg("address"));
    BindAppHelper<PacketSinkHelper>(sink, "ns3::PacketSink");

    py::class_<OnOffHelper> onoff(m, "OnOffHelper");
    onoff
        .def(py::init([](const std::string& protocol, const Address& address) {
                 return OnOffHelper(CheckSocketFactory(protocol), address);
             }),
             py::arg("protocol"),
             py::arg("address"))
        .def("SetConstantRate",
             &OnOffHelper::SetConstantRate,
             py::arg("dataRate"),
             py::arg("packetSize") = 512)
        .def("AssignStreams", &OnOffHelper::AssignStreams, py::arg("nodes"), py::arg("stream"));
    BindAppHelper<OnOffHelper>(onoff, "ns3::OnOffApplication");

    py::class_<V4PingHelper> ping(m, "V4PingHelper");
    ping.def(py::init<Ipv4Address>(), py::arg("remote"));
    BindAppHelper<V4PingHelper>(ping, "ns3::V4Ping");
}

} // namespace ns3py
