/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of ns-3's Internet stack as scenarios use it: InternetStackHelper, IPv4
 * addressing, the Ipv4 object and its traces, static and global routing, and FlowMonitor
 * with its statistics as Python dicts.
 */
#include "ns3-py.h"

#include "ns3/application.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/flow-monitor.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/sequence-number.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-state.h"

namespace ns3py
{

using namespace ns3;

namespace
{

/// Raise ValueError unless every device of \p c is on a node with an IPv4 stack.
void
CheckIpv4Stack(const NetDeviceContainer& c, const char* where)
{
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        Ptr<NetDevice> d = c.Get(i);
        if (!d || !d->GetNode() || !d->GetNode()->GetObject<Ipv4>())
        {
            throw py::value_error(std::string(where) + ": device " + std::to_string(i) +
                                  " is on a node without an IPv4 stack (InternetStackHelper "
                                  "first)");
        }
    }
}

/// Raise ValueError if a node of \p c has an IPv4 stack already (ns-3 aborts).
void
CheckNoStack(const NodeContainer& c)
{
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        if (c.Get(i)->GetObject<Ipv4>())
        {
            throw py::value_error("InternetStackHelper.Install: node " +
                                  std::to_string(c.Get(i)->GetId()) + " has an IPv4 stack already");
        }
    }
}

/// \param ipv4 an Ipv4 \param i interface index: IndexError unless it exists
void
CheckInterface(const Ipv4& ipv4, uint32_t i)
{
    if (i >= ipv4.GetNInterfaces())
    {
        throw py::index_error("no IPv4 interface " + std::to_string(i));
    }
}

} // namespace

namespace
{

/// What TCP's trace sources pass: sequence numbers, states, the header and the socket.
void
BindTcpTraceArguments(py::module_& m)
{
    py::class_<SequenceNumber32>(m, "SequenceNumber32")
        .def(py::init<uint32_t>(), py::arg("value"))
        .def("GetValue", &SequenceNumber32::GetValue)
        .def("__int__", &SequenceNumber32::GetValue)
        .def("__eq__", [](const SequenceNumber32& a, const SequenceNumber32& b) { return a == b; })
        .def("__repr__", [](const SequenceNumber32& a) { return ToString(a); });
    py::enum_<TcpSocket::TcpStates_t>(m, "TcpStates_t")
        .value("CLOSED", TcpSocket::CLOSED)
        .value("LISTEN", TcpSocket::LISTEN)
        .value("SYN_SENT", TcpSocket::SYN_SENT)
        .value("SYN_RCVD", TcpSocket::SYN_RCVD)
        .value("ESTABLISHED", TcpSocket::ESTABLISHED)
        .value("CLOSE_WAIT", TcpSocket::CLOSE_WAIT)
        .value("LAST_ACK", TcpSocket::LAST_ACK)
        .value("FIN_WAIT_1", TcpSocket::FIN_WAIT_1)
        .value("FIN_WAIT_2", TcpSocket::FIN_WAIT_2)
        .value("CLOSING", TcpSocket::CLOSING)
        .value("TIME_WAIT", TcpSocket::TIME_WAIT);
    py::enum_<TcpSocketState::TcpCongState_t>(m, "TcpCongState_t")
        .value("CA_OPEN", TcpSocketState::CA_OPEN)
        .value("CA_DISORDER", TcpSocketState::CA_DISORDER)
        .value("CA_CWR", TcpSocketState::CA_CWR)
        .value("CA_RECOVERY", TcpSocketState::CA_RECOVERY)
        .value("CA_LOSS", TcpSocketState::CA_LOSS);
    py::enum_<TcpSocketState::EcnState_t>(m, "EcnState_t")
        .value("ECN_DISABLED", TcpSocketState::ECN_DISABLED)
        .value("ECN_IDLE", TcpSocketState::ECN_IDLE)
        .value("ECN_CE_RCVD", TcpSocketState::ECN_CE_RCVD)
        .value("ECN_SENDING_ECE", TcpSocketState::ECN_SENDING_ECE)
        .value("ECN_ECE_RCVD", TcpSocketState::ECN_ECE_RCVD)
        .value("ECN_CWR_SENT", TcpSocketState::ECN_CWR_SENT);
    py::class_<TcpHeader>(m, "TcpHeader")
        .def("GetSourcePort", &TcpHeader::GetSourcePort)
        .def("GetDestinationPort", &TcpHeader::GetDestinationPort)
        .def("GetSequenceNumber", &TcpHeader::GetSequenceNumber)
        .def("GetAckNumber", &TcpHeader::GetAckNumber)
        .def("GetFlags", &TcpHeader::GetFlags)
        .def("GetWindowSize", &TcpHeader::GetWindowSize)
        .def("__str__", [](const TcpHeader& h) { return ToString(h); });
    py::class_<TcpSocketBase, Object, Ptr<TcpSocketBase>>(m, "TcpSocketBase")
        .def("GetNode", &TcpSocketBase::GetNode)
        .def("GetErrno", &TcpSocketBase::GetErrno);
}

} // namespace

void
BindInternet(py::module_& m)
{
    py::class_<InternetStackHelper>(m, "InternetStackHelper")
        .def(py::init<>())
        .def(
            "Install",
            [](const InternetStackHelper& h, NodeContainer c) {
                CheckNoStack(c);
                h.Install(c);
            },
            py::arg("nodes"))
        .def(
            "Install",
            [](const InternetStackHelper& h, Ptr<Node> n) {
                CheckNoStack(NodeContainer(n));
                h.Install(n);
            },
            py::arg("node"))
        .def("InstallAll",
             [](const InternetStackHelper& h) {
                 CheckNoStack(NodeContainer::GetGlobal());
                 h.InstallAll();
             })
        .def("SetIpv6StackInstall", &InternetStackHelper::SetIpv6StackInstall, py::arg("enable"))
        .def("SetIpv4StackInstall", &InternetStackHelper::SetIpv4StackInstall, py::arg("enable"))
        .def("AssignStreams",
             &InternetStackHelper::AssignStreams,
             py::arg("nodes"),
             py::arg("stream"));

    py::class_<Ipv4InterfaceAddress>(m, "Ipv4InterfaceAddress")
        .def("GetLocal", &Ipv4InterfaceAddress::GetLocal)
        .def("GetMask", &Ipv4InterfaceAddress::GetMask)
        .def("GetBroadcast", &Ipv4InterfaceAddress::GetBroadcast)
        .def("__str__", [](const Ipv4InterfaceAddress& a) { return ToString(a); });

    py::class_<Ipv4InterfaceContainer>(m, "Ipv4InterfaceContainer")
        .def(py::init<>())
        .def("GetN", &Ipv4InterfaceContainer::GetN)
        .def("__len__", &Ipv4InterfaceContainer::GetN)
        .def(
            "GetAddress",
            [](const Ipv4InterfaceContainer& c, uint32_t i, uint32_t j) {
                if (i >= c.GetN())
                {
                    throw py::index_error("no interface " + std::to_string(i));
                }
                return c.GetAddress(i, j);
            },
            py::arg("i"),
            py::arg("j") = 0)
        .def("Add",
             py::overload_cast<const Ipv4InterfaceContainer&>(&Ipv4InterfaceContainer::Add),
             py::arg("other"));

    py::class_<Ipv4AddressHelper>(m, "Ipv4AddressHelper")
        .def(py::init<>())
        .def(py::init<Ipv4Address, Ipv4Mask, Ipv4Address>(),
             py::arg("network"),
             py::arg("mask"),
             py::arg("base") = Ipv4Address("0.0.0.1"))
        .def("SetBase",
             &Ipv4AddressHelper::SetBase,
             py::arg("network"),
             py::arg("mask"),
             py::arg("base") = Ipv4Address("0.0.0.1"))
        .def("NewNetwork", &Ipv4AddressHelper::NewNetwork)
        .def("NewAddress", &Ipv4AddressHelper::NewAddress)
        .def(
            "Assign",
            [](Ipv4AddressHelper& h, const NetDeviceContainer& c) {
                CheckIpv4Stack(c, "Ipv4AddressHelper.Assign");
                return h.Assign(c);
            },
            py::arg("devices"));

    py::class_<Ipv4Header>(m, "Ipv4Header")
        .def(py::init<>())
        .def("GetSource", &Ipv4Header::GetSource)
        .def("GetDestination", &Ipv4Header::GetDestination)
        .def("GetTtl", &Ipv4Header::GetTtl)
        .def("GetProtocol", &Ipv4Header::GetProtocol)
        .def("GetPayloadSize", &Ipv4Header::GetPayloadSize)
        .def("GetIdentification", &Ipv4Header::GetIdentification)
        .def("GetTos", &Ipv4Header::GetTos)
        .def("__str__", [](const Ipv4Header& h) { return ToString(h); });

    py::class_<Ipv4, Object, Ptr<Ipv4>>(m, "Ipv4")
        .def_static("GetTypeId", &Ipv4::GetTypeId)
        .def("GetNInterfaces", &Ipv4::GetNInterfaces)
        .def(
            "GetInterfaceForDevice",
            [](const Ipv4& ipv4, Ptr<NetDevice> d) { return ipv4.GetInterfaceForDevice(d); },
            py::arg("device"))
        .def("GetInterfaceForAddress", &Ipv4::GetInterfaceForAddress, py::arg("address"))
        .def(
            "GetNAddresses",
            [](const Ipv4& ipv4, uint32_t i) {
                CheckInterface(ipv4, i);
                return ipv4.GetNAddresses(i);
            },
            py::arg("interface"))
        .def(
            "GetAddress",
            [](const Ipv4& ipv4, uint32_t i, uint32_t j) {
                CheckInterface(ipv4, i);
                if (j >= ipv4.GetNAddresses(i))
                {
                    throw py::index_error("interface " + std::to_string(i) + " has no address " +
                                          std::to_string(j));
                }
                return ipv4.GetAddress(i, j);
            },
            py::arg("interface"),
            py::arg("addressIndex"))
        .def(
            "GetNetDevice",
            [](Ipv4& ipv4, uint32_t i) {
                CheckInterface(ipv4, i);
                return ipv4.GetNetDevice(i);
            },
            py::arg("interface"))
        .def(
            "IsUp",
            [](const Ipv4& ipv4, uint32_t i) {
                CheckInterface(ipv4, i);
                return ipv4.IsUp(i);
            },
            py::arg("interface"));
    py::class_<Ipv4L3Protocol, Ipv4, Ptr<Ipv4L3Protocol>> l3(m, "Ipv4L3Protocol");
    l3.def_static("GetTypeId", &Ipv4L3Protocol::GetTypeId);
    py::enum_<Ipv4L3Protocol::DropReason>(l3, "DropReason")
        .value("DROP_TTL_EXPIRED", Ipv4L3Protocol::DROP_TTL_EXPIRED)
        .value("DROP_NO_ROUTE", Ipv4L3Protocol::DROP_NO_ROUTE)
        .value("DROP_BAD_CHECKSUM", Ipv4L3Protocol::DROP_BAD_CHECKSUM)
        .value("DROP_INTERFACE_DOWN", Ipv4L3Protocol::DROP_INTERFACE_DOWN)
        .value("DROP_ROUTE_ERROR", Ipv4L3Protocol::DROP_ROUTE_ERROR)
        .value("DROP_FRAGMENT_TIMEOUT", Ipv4L3Protocol::DROP_FRAGMENT_TIMEOUT)
        .value("DROP_DUPLICATE", Ipv4L3Protocol::DROP_DUPLICATE)
        .export_values();

    // --- Routing
    py::class_<Ipv4RoutingProtocol, Object, Ptr<Ipv4RoutingProtocol>>(m, "Ipv4RoutingProtocol")
        .def(
            "PrintRoutingTable",
            [](const Ipv4RoutingProtocol& r, py::object file) {
                std::ostringstream os;
                auto stream = Create<OutputStreamWrapper>(&os);
                r.PrintRoutingTable(stream);
                WriteTo(file, os.str());
            },
            py::arg("file") = py::none());
    py::class_<Ipv4StaticRouting, Ipv4RoutingProtocol, Ptr<Ipv4StaticRouting>>(m,
                                                                               "Ipv4StaticRouting")
        .def("SetDefaultRoute",
             &Ipv4StaticRouting::SetDefaultRoute,
             py::arg("nextHop"),
             py::arg("interface"),
             py::arg("metric") = 0)
        .def("AddHostRouteTo",
             py::overload_cast<Ipv4Address, Ipv4Address, uint32_t, uint32_t>(
                 &Ipv4StaticRouting::AddHostRouteTo),
             py::arg("dest"),
             py::arg("nextHop"),
             py::arg("interface"),
             py::arg("metric") = 0)
        .def("AddNetworkRouteTo",
             py::overload_cast<Ipv4Address, Ipv4Mask, Ipv4Address, uint32_t, uint32_t>(
                 &Ipv4StaticRouting::AddNetworkRouteTo),
             py::arg("network"),
             py::arg("mask"),
             py::arg("nextHop"),
             py::arg("interface"),
             py::arg("metric") = 0)
        .def("GetNRoutes", &Ipv4StaticRouting::GetNRoutes);
    py::class_<Ipv4StaticRoutingHelper>(m, "Ipv4StaticRoutingHelper")
        .def(py::init<>())
        .def(
            "GetStaticRouting",
            [](const Ipv4StaticRoutingHelper& h, Ptr<Ipv4> ipv4) {
                if (!ipv4)
                {
                    throw py::value_error("GetStaticRouting: no Ipv4 given");
                }
                return h.GetStaticRouting(ipv4);
            },
            py::arg("ipv4"));
    py::class_<Ipv4GlobalRoutingHelper>(m, "Ipv4GlobalRoutingHelper")
        .def(py::init<>())
        .def_static("PopulateRoutingTables", &Ipv4GlobalRoutingHelper::PopulateRoutingTables)
        .def_static("RecomputeRoutingTables", &Ipv4GlobalRoutingHelper::RecomputeRoutingTables);

    // --- FlowMonitor
    py::class_<FlowClassifier, Ptr<FlowClassifier>>(m, "FlowClassifier");
    py::class_<Ipv4FlowClassifier, FlowClassifier, Ptr<Ipv4FlowClassifier>>(m, "Ipv4FlowClassifier")
        .def(
            "FindFlow",
            [](const Ipv4FlowClassifier& c, uint32_t id) {
                const Ipv4FlowClassifier::FiveTuple t = c.FindFlow(id);
                py::dict d;
                d["sourceAddress"] = t.sourceAddress;
                d["destinationAddress"] = t.destinationAddress;
                d["protocol"] = int(t.protocol);
                d["sourcePort"] = t.sourcePort;
                d["destinationPort"] = t.destinationPort;
                return d;
            },
            py::arg("flowId"));
    py::class_<FlowMonitor, Object, Ptr<FlowMonitor>>(m, "FlowMonitor")
        .def_static("GetTypeId", &FlowMonitor::GetTypeId)
        .def("CheckForLostPackets", py::overload_cast<>(&FlowMonitor::CheckForLostPackets))
        .def("CheckForLostPackets",
             py::overload_cast<Time>(&FlowMonitor::CheckForLostPackets),
             py::arg("maxDelay"))
        .def("StartRightNow", &FlowMonitor::StartRightNow)
        .def("StopRightNow", &FlowMonitor::StopRightNow)
        .def("SerializeToXmlFile",
             &FlowMonitor::SerializeToXmlFile,
             py::arg("fileName"),
             py::arg("enableHistograms"),
             py::arg("enableProbes"))
        .def("SerializeToXmlString",
             &FlowMonitor::SerializeToXmlString,
             py::arg("indent"),
             py::arg("enableHistograms"),
             py::arg("enableProbes"))
        .def("GetFlowStats", [](const FlowMonitor& f) {
            py::dict out;
            for (const auto& [id, s] : f.GetFlowStats())
            {
                py::dict d;
                d["timeFirstTxPacket"] = s.timeFirstTxPacket;
                d["timeFirstRxPacket"] = s.timeFirstRxPacket;
                d["timeLastTxPacket"] = s.timeLastTxPacket;
                d["timeLastRxPacket"] = s.timeLastRxPacket;
                d["delaySum"] = s.delaySum;
                d["jitterSum"] = s.jitterSum;
                d["lastDelay"] = s.lastDelay;
                d["txBytes"] = s.txBytes;
                d["rxBytes"] = s.rxBytes;
                d["txPackets"] = s.txPackets;
                d["rxPackets"] = s.rxPackets;
                d["lostPackets"] = s.lostPackets;
                d["timesForwarded"] = s.timesForwarded;
                out[py::int_(id)] = d;
            }
            return out;
        });
    py::class_<FlowMonitorHelper>(m, "FlowMonitorHelper")
        .def(py::init<>())
        .def(
            "SetMonitorAttribute",
            [](FlowMonitorHelper& h, const std::string& name, const AttributeValue& value) {
                CheckAttribute(FlowMonitor::GetTypeId(),
                               name,
                               value,
                               "FlowMonitorHelper.SetMonitorAttribute");
                h.SetMonitorAttribute(name, value);
            },
            py::arg("name"),
            py::arg("value"))
        .def("Install",
             py::overload_cast<NodeContainer>(&FlowMonitorHelper::Install),
             py::arg("nodes"))
        .def("Install", py::overload_cast<Ptr<Node>>(&FlowMonitorHelper::Install), py::arg("node"))
        .def("InstallAll", &FlowMonitorHelper::InstallAll)
        .def("GetMonitor", &FlowMonitorHelper::GetMonitor)
        .def("GetClassifier", &FlowMonitorHelper::GetClassifier)
        .def(
            "SerializeToXmlFile",
            [](FlowMonitorHelper& h, const std::string& file, bool histograms, bool probes) {
                h.SerializeToXmlFile(file, histograms, probes);
            },
            py::arg("fileName"),
            py::arg("enableHistograms"),
            py::arg("enableProbes"));

    BindTcpTraceArguments(m);
    RegisterTrace("ns3::Ipv4L3Protocol::SentTracedCallback",
                  static_cast<Ipv4L3Protocol::SentTracedCallback>(nullptr));
    RegisterTrace("ns3::Ipv4L3Protocol::DropTracedCallback",
                  static_cast<Ipv4L3Protocol::DropTracedCallback>(nullptr));
    RegisterTrace("ns3::Ipv4L3Protocol::TxRxTracedCallback",
                  static_cast<Ipv4L3Protocol::TxRxTracedCallback>(nullptr));
    using Seq = void (*)(SequenceNumber32, SequenceNumber32);
    RegisterTrace("ns3::SequenceNumber32TracedValueCallback", static_cast<Seq>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::SequenceNumber32", static_cast<Seq>(nullptr));
    RegisterTrace("ns3::TcpStatesTracedValueCallback",
                  static_cast<TcpStatesTracedValueCallback>(nullptr));
    RegisterTrace("ns3::TcpSocketState::TcpCongStatesTracedValueCallback",
                  static_cast<TcpCongStatesTracedValueCallback>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::TcpCongState",
                  static_cast<TracedValueCallback::TcpCongState>(nullptr));
    RegisterTrace("ns3::TcpSocketState::EcnStatesTracedValueCallback",
                  static_cast<EcnStatesTracedValueCallback>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::EcnState",
                  static_cast<TracedValueCallback::EcnState>(nullptr));
    RegisterTrace("ns3::TcpSocketBase::TcpTxRxTracedCallback",
                  static_cast<TcpSocketBase::TcpTxRxTracedCallback>(nullptr));
}

} // namespace ns3py
