/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of the st module: StProtocol (addresses, counters, static resolution),
 * the ST applications (bulk transfer, server, ping-pong, memory probe) with their helpers,
 * StHelper, and the trace signatures of the module.
 */
#include "ns3-py.h"

#include "ns3/application.h"
#include "ns3/channel.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-net-device.h"
#include "ns3/node.h"
#include "ns3/st-application-helper.h"
#include "ns3/st-bulk-client-helper.h"
#include "ns3/st-bulk-client.h"
#include "ns3/st-counters.h"
#include "ns3/st-helper.h"
#include "ns3/st-memory-probe-helper.h"
#include "ns3/st-memory-probe.h"
#include "ns3/st-ping-pong-helper.h"
#include "ns3/st-ping-pong.h"
#include "ns3/st-protocol.h"
#include "ns3/st-server-helper.h"
#include "ns3/st-server.h"
#include "ns3/st-socket-factory.h"

namespace ns3py
{

using namespace ns3;

namespace
{

/// Raise ValueError unless every node of \p c runs ST.
void
CheckSt(const NodeContainer& c, const char* where)
{
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        if (!c.Get(i)->GetObject<StProtocol>())
        {
            throw py::value_error(std::string(where) + ": node " +
                                  std::to_string(c.Get(i)->GetId()) +
                                  " does not run ST (StHelper.Install first)");
        }
    }
}

/// Bind the shared methods of an ST application helper; attributes checked against \p type.
template <typename H>
void
BindStAppHelper(py::class_<H, StApplicationHelper>& c, const char* type)
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
            [](const H& h, NodeContainer c) {
                CheckSt(c, "Install");
                return h.Install(c);
            },
            py::arg("nodes"))
        .def(
            "Install",
            [](const H& h, Ptr<Node> n) {
                CheckSt(NodeContainer(n), "Install");
                return h.Install(n);
            },
            py::arg("node"));
}

} // namespace

void
BindSt(py::module_& m)
{
    // --- Counters
    py::enum_<st::StStat>(m, "StStat")
        .value("RxFrames", st::StStat::RxFrames)
        .value("TxOps", st::StStat::TxOps)
        .value("TxDataBytes", st::StStat::TxDataBytes)
        .value("RxDataBytes", st::StStat::RxDataBytes)
        .value("Retransmissions", st::StStat::Retransmissions)
        .value("Timeouts", st::StStat::Timeouts)
        .value("SlotStalls", st::StStat::SlotStalls)
        .value("RejectsSent", st::StStat::RejectsSent)
        .value("PausesSent", st::StStat::PausesSent)
        .value("FetchOpResends", st::StStat::FetchOpResends)
        .value("PatternErrors", st::StStat::PatternErrors)
        .value("PutsRefused", st::StStat::PutsRefused);
    py::enum_<st::StRxVerdict>(m, "StRxVerdict")
        .value("Accepted", st::StRxVerdict::Accepted)
        .value("Truncated", st::StRxVerdict::Truncated)
        .value("UnknownOp", st::StRxVerdict::UnknownOp)
        .value("LocalOp", st::StRxVerdict::LocalOp)
        .value("BadFlags", st::StRxVerdict::BadFlags)
        .value("BadField", st::StRxVerdict::BadField)
        .value("NoListener", st::StRxVerdict::NoListener)
        .value("UnknownKey", st::StRxVerdict::UnknownKey)
        .value("WrongPort", st::StRxVerdict::WrongPort)
        .value("WrongPeer", st::StRxVerdict::WrongPeer)
        .value("WrongState", st::StRxVerdict::WrongState)
        .value("UnknownTransfer", st::StRxVerdict::UnknownTransfer)
        .value("OutsideMapping", st::StRxVerdict::OutsideMapping)
        .value("OutsideExposure", st::StRxVerdict::OutsideExposure)
        .value("Duplicate", st::StRxVerdict::Duplicate)
        .value("SlotOverrun", st::StRxVerdict::SlotOverrun)
        .value("NoChannel", st::StRxVerdict::NoChannel)
        .value("BadChecksum", st::StRxVerdict::BadChecksum)
        .value("OutOfOrder", st::StRxVerdict::OutOfOrder)
        .value("Port0Full", st::StRxVerdict::Port0Full);
    py::class_<st::StCounters>(m, "StCounters")
        .def("Get",
             py::overload_cast<st::StStat>(&st::StCounters::Get, py::const_),
             py::arg("stat"))
        .def("Get",
             py::overload_cast<st::StRxVerdict>(&st::StCounters::Get, py::const_),
             py::arg("verdict"))
        .def("Dropped", &st::StCounters::Dropped)
        .def("TotalVerdicts", &st::StCounters::TotalVerdicts)
        .def("ToString", &st::StCounters::ToString)
        .def("AsDict", [](const st::StCounters& c) {
            py::dict d;
            for (std::size_t i = 0; i < std::size_t(st::StStat::Count); ++i)
            {
                d[st::StStatName(st::StStat(i))] = c.Get(st::StStat(i));
            }
            py::dict rx;
            for (std::size_t i = 0; i < std::size_t(st::StRxVerdict::Count); ++i)
            {
                rx[st::StRxVerdictName(st::StRxVerdict(i))] = c.Get(st::StRxVerdict(i));
            }
            d["rx"] = rx;
            return d;
        });

    // --- Operations and engine events (trace arguments)
    py::class_<st::StHeader>(m, "StHeader")
        .def_property_readonly(
            "op",
            [](const st::StHeader& h) { return std::string(st::StOpName(h.op)); })
        .def_readonly("flags", &st::StHeader::flags)
        .def_readonly("param", &st::StHeader::param)
        .def_readonly("dPort", &st::StHeader::dPort)
        .def_readonly("sPort", &st::StHeader::sPort)
        .def_readonly("dKey", &st::StHeader::dKey)
        .def_readonly("mx", &st::StHeader::mx)
        .def_readonly("bufx", &st::StHeader::bufx)
        .def_readonly("offset", &st::StHeader::offset)
        .def_readonly("sync", &st::StHeader::sync)
        .def_readonly("bNum", &st::StHeader::bNum)
        .def_readonly("dId", &st::StHeader::dId)
        .def_readonly("sId", &st::StHeader::sId)
        .def("ToString", &st::StHeader::ToString)
        .def("__str__", &st::StHeader::ToString);
    py::class_<st::StEvent>(m, "StEvent")
        .def_property_readonly(
            "type",
            [](const st::StEvent& e) { return std::string(st::StEventTypeName(e.type)); })
        .def_readonly("conn", &st::StEvent::conn)
        .def_readonly("id", &st::StEvent::id)
        .def_readonly("bytes", &st::StEvent::bytes)
        .def_readonly("value", &st::StEvent::value)
        .def_readonly("address", &st::StEvent::address)
        .def_readonly("accepted", &st::StEvent::accepted)
        .def_readonly("localPort", &st::StEvent::localPort)
        .def_readonly("servicePort", &st::StEvent::servicePort)
        .def_readonly("header", &st::StEvent::header)
        .def_readonly("dataLen", &st::StEvent::dataLen);

    // --- The protocol
    py::class_<StProtocol, Object, Ptr<StProtocol>>(m, "StProtocol")
        .def_static("GetTypeId", &StProtocol::GetTypeId)
        .def("GetNode", &StProtocol::GetNode)
        .def("GetNDevices", &StProtocol::GetNDevices)
        .def(
            "GetDevice",
            [](const StProtocol& p, uint32_t i) {
                if (i >= p.GetNDevices())
                {
                    throw py::index_error("ST has no device " + std::to_string(i));
                }
                return p.GetDevice(i);
            },
            py::arg("index"))
        .def("GetLocalAddress",
             [](const StProtocol& p) {
                 if (p.GetNDevices() == 0)
                 {
                     throw py::value_error("StProtocol.GetLocalAddress: ST has no device");
                 }
                 return p.GetLocalAddress();
             })
        .def(
            "GetLocalAddress",
            [](const StProtocol& p, Ptr<NetDevice> d) { return p.GetLocalAddress(d); },
            py::arg("device"))
        .def("AddStaticEntry", &StProtocol::AddStaticEntry, py::arg("peer"), py::arg("mac"))
        .def("GetCounters", [](StProtocol& p) { return p.GetCounters(); })
        .def("GetAdapterCounters", [](const StProtocol& p) {
            const StAdapterCounters& c = p.GetAdapterCounters();
            py::dict d;
            d["txFrames"] = c.txFrames;
            d["txRefused"] = c.txRefused;
            d["txNoRoute"] = c.txNoRoute;
            d["txLlcFramed"] = c.txLlcFramed;
            d["txBacklogged"] = c.txBacklogged;
            d["rxFrames"] = c.rxFrames;
            d["rxOtherHost"] = c.rxOtherHost;
            d["resolveFailed"] = c.resolveFailed;
            return d;
        });

    // --- Applications
    py::class_<StApplication, Application, Ptr<StApplication>>(m, "StApplication")
        .def_static("GetTypeId", &StApplication::GetTypeId);
    py::class_<StClientApplication, StApplication, Ptr<StClientApplication>>(m,
                                                                             "StClientApplication")
        .def_static("GetTypeId", &StClientApplication::GetTypeId);
    py::class_<StBulkClient, StClientApplication, Ptr<StBulkClient>> bulk(m, "StBulkClient");
    py::enum_<StBulkClient::Mode>(bulk, "Mode")
        .value("WRITE", StBulkClient::WRITE)
        .value("READ", StBulkClient::READ)
        .export_values();
    bulk.def_static("GetTypeId", &StBulkClient::GetTypeId)
        .def("GetCompleted", &StBulkClient::GetCompleted)
        .def("GetBytes", &StBulkClient::GetBytes)
        .def("GetCorrupt", &StBulkClient::GetCorrupt)
        .def("GetFailed", &StBulkClient::GetFailed)
        .def("GetFirstStart", &StBulkClient::GetFirstStart)
        .def("GetLastCompletion", &StBulkClient::GetLastCompletion)
        .def("GetThroughput", &StBulkClient::GetThroughput);
    py::class_<StServer, StApplication, Ptr<StServer>>(m, "StServer")
        .def_static("GetTypeId", &StServer::GetTypeId)
        .def("GetReceivedBytes", &StServer::GetReceivedBytes)
        .def("GetTransfers", &StServer::GetTransfers)
        .def("GetCorrupt", &StServer::GetCorrupt)
        .def("GetConnections", &StServer::GetConnections);
    py::class_<StPingPong, StClientApplication, Ptr<StPingPong>>(m, "StPingPong")
        .def_static("GetTypeId", &StPingPong::GetTypeId)
        .def("GetRounds", &StPingPong::GetRounds)
        .def("GetMinRtt", &StPingPong::GetMinRtt)
        .def("GetMeanRtt", &StPingPong::GetMeanRtt)
        .def("GetCorrupt", &StPingPong::GetCorrupt);
    py::class_<StMemoryProbe, StClientApplication, Ptr<StMemoryProbe>>(m, "StMemoryProbe")
        .def_static("GetTypeId", &StMemoryProbe::GetTypeId)
        .def("GetGetMeanLatency", [](const StMemoryProbe& p) { return p.GetGetStats().Mean(); })
        .def("GetFetchOpMeanLatency",
             [](const StMemoryProbe& p) { return p.GetFetchOpStats().Mean(); })
        .def("GetPuts", &StMemoryProbe::GetPuts)
        .def("GetLastFetchValue", &StMemoryProbe::GetLastFetchValue)
        .def("GetRounds", &StMemoryProbe::GetRounds);

    // --- Helpers
    py::class_<StHelper>(m, "StHelper")
        .def(py::init<>())
        .def(
            "SetAttribute",
            [](StHelper& h, const std::string& name, const AttributeValue& value) {
                CheckAttribute(StProtocol::GetTypeId(), name, value, "StHelper.SetAttribute");
                h.SetAttribute(name, value);
            },
            py::arg("name"),
            py::arg("value"))
        .def(
            "Install",
            [](const StHelper& h, NodeContainer c) { h.Install(c); },
            py::arg("nodes"))
        .def(
            "Install",
            [](const StHelper& h, Ptr<Node> n) { return h.Install(n); },
            py::arg("node"))
        .def(
            "Install",
            [](const StHelper& h, NetDeviceContainer c) { h.Install(c); },
            py::arg("devices"))
        .def(
            "Install",
            [](const StHelper& h, NetDeviceContainer c, Ipv4AddressHelper& addresses) {
                h.Install(c, addresses);
            },
            py::arg("devices"),
            py::arg("addresses"))
        .def("InstallAll", &StHelper::InstallAll)
        .def_static("PopulateStaticTables",
                    py::overload_cast<NodeContainer>(&StHelper::PopulateStaticTables),
                    py::arg("nodes"))
        .def_static("PopulateStaticTables", py::overload_cast<>(&StHelper::PopulateStaticTables))
        .def_static("AssignStreams", &StHelper::AssignStreams, py::arg("nodes"), py::arg("stream"))
        .def_static(
            "AddHost",
            [](const std::string& name, Ipv4Address address, Ptr<Node> node) {
                if (name.empty())
                {
                    throw py::value_error("StHelper.AddHost: an empty host name");
                }
                StHelper::AddHost(name, address, node);
            },
            py::arg("name"),
            py::arg("address"),
            py::arg("node") = Ptr<Node>())
        .def_static(
            "AddService",
            [](const std::string& name, uint16_t port, Ptr<Node> node) {
                if (name.empty() || port == 0)
                {
                    throw py::value_error("StHelper.AddService: a name and a port from 1 to "
                                          "65535 (0 is Port 0, where RCs arrive)");
                }
                StHelper::AddService(name, port, node);
            },
            py::arg("name"),
            py::arg("port"),
            py::arg("node") = Ptr<Node>())
        .def_static("AddNodeNames", &StHelper::AddNodeNames, py::arg("nodes"));

    // ST stream sockets: the factory's TypeId names them for Socket creation; ns-3's
    // application helpers take its name ("ns3::StSocketFactory") as their protocol.
    py::class_<StSocketFactory, Object, Ptr<StSocketFactory>>(m, "StSocketFactory")
        .def_static("GetTypeId", &StSocketFactory::GetTypeId);

    py::class_<StApplicationHelper>(m, "StApplicationHelper");
    py::class_<StServerHelper, StApplicationHelper> server(m, "StServerHelper");
    server.def(py::init<uint16_t>(), py::arg("port"));
    BindStAppHelper(server, "ns3::StServer");
    py::class_<StBulkClientHelper, StApplicationHelper> client(m, "StBulkClientHelper");
    client.def(py::init<Ipv4Address, uint16_t>(), py::arg("remote"), py::arg("port"));
    BindStAppHelper(client, "ns3::StBulkClient");
    py::class_<StPingPongHelper, StApplicationHelper> pingPong(m, "StPingPongHelper");
    pingPong.def(py::init<Ipv4Address, uint16_t>(), py::arg("remote"), py::arg("port"));
    BindStAppHelper(pingPong, "ns3::StPingPong");
    py::class_<StMemoryProbeHelper, StApplicationHelper> probe(m, "StMemoryProbeHelper");
    probe.def(py::init<Ipv4Address, uint16_t>(), py::arg("remote"), py::arg("port"));
    BindStAppHelper(probe, "ns3::StMemoryProbe");

    RegisterTrace("ns3::StProtocol::OpTracedCallback",
                  static_cast<StProtocol::OpTracedCallback>(nullptr));
    RegisterTrace("ns3::StProtocol::EventTracedCallback",
                  static_cast<StProtocol::EventTracedCallback>(nullptr));
    RegisterTrace("ns3::Ipv4Address::TracedCallback", static_cast<void (*)(Ipv4Address)>(nullptr));
    RegisterTrace("ns3::StBulkClient::TransferTracedCallback",
                  static_cast<StBulkClient::TransferTracedCallback>(nullptr));
    RegisterTrace("ns3::StServer::TransferTracedCallback",
                  static_cast<StServer::TransferTracedCallback>(nullptr));
    RegisterTrace("ns3::StServer::PutTracedCallback",
                  static_cast<StServer::PutTracedCallback>(nullptr));
    RegisterTrace("ns3::StPingPong::RttTracedCallback",
                  static_cast<StPingPong::RttTracedCallback>(nullptr));
    RegisterTrace("ns3::StMemoryProbe::LatencyTracedCallback",
                  static_cast<StMemoryProbe::LatencyTracedCallback>(nullptr));
    RegisterTrace("ns3::StProtocol::WaitTracedCallback",
                  static_cast<StProtocol::WaitTracedCallback>(nullptr));
    RegisterTrace("ns3::StProtocol::CountTracedCallback",
                  static_cast<StProtocol::CountTracedCallback>(nullptr));
    RegisterTrace("ns3::StProtocol::RxDropTracedCallback",
                  static_cast<StProtocol::RxDropTracedCallback>(nullptr));
}

} // namespace ns3py
