/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of the gsn module's model: micropackets, the cable, ports, endpoint
 * devices, switches, the deadlock watchdog, topologies and their builders, routing and the
 * deadlock check, the traffic generator and the run statistics. Statistics come back as
 * Python dicts and lists (the keys of GsnTrafficStats::WriteSummaryJson); trace sources of
 * these classes connect to Python callables.
 */
#include "ns3-py.h"

#include "ns3/gsn-admin.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-deadlock-checker.h"
#include "ns3/gsn-fabric-watchdog.h"
#include "ns3/gsn-message-assembler.h"
#include "ns3/gsn-micropacket.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-port-device.h"
#include "ns3/gsn-routing.h"
#include "ns3/gsn-switch-port.h"
#include "ns3/gsn-switch.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/gsn-topology.h"
#include "ns3/gsn-traffic-generator.h"
#include "ns3/gsn-traffic-header.h"
#include "ns3/gsn-traffic-stats.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/simulator.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace ns3py
{

using namespace ns3;

namespace
{

/// \return \p v, or NaN kept as a Python float
py::float_
Number(double v)
{
    return py::float_(v);
}

/// The summary as a dict with the keys of WriteSummaryJson (NaN stays a float NaN).
py::dict
SummaryToDict(const GsnTrafficSummary& s)
{
    py::dict d;
    d["window_start_s"] = Number(s.windowStart.GetSeconds());
    d["window_end_s"] = Number(s.windowEnd.GetSeconds());
    py::dict messages;
    messages["sent"] = s.sent;
    messages["delivered"] = s.delivered;
    messages["undelivered"] = s.undelivered;
    messages["refused"] = s.refused;
    messages["duplicates"] = s.duplicates;
    messages["out_of_order"] = s.outOfOrder;
    messages["misdelivered"] = s.misdelivered;
    messages["stray"] = s.stray;
    messages["lost"] = s.lost;
    messages["in_flight"] = s.inFlight;
    d["messages"] = messages;
    py::dict bytes;
    bytes["sent"] = s.bytesSent;
    bytes["delivered"] = s.bytesDelivered;
    d["bytes"] = bytes;
    py::dict throughput;
    throughput["offered"] = Number(s.offeredThroughput);
    throughput["delivered"] = Number(s.deliveredThroughput);
    d["throughput_bps"] = throughput;
    const GsnLatencySummary& l = s.latency;
    py::dict latency;
    latency["count"] = l.count;
    latency["mean"] = Number(l.mean);
    latency["stddev"] = Number(l.stddev);
    latency["min"] = Number(l.min);
    latency["max"] = Number(l.max);
    latency["p50"] = Number(l.p50);
    latency["p90"] = Number(l.p90);
    latency["p99"] = Number(l.p99);
    latency["p999"] = Number(l.p999);
    latency["ci95_low"] = Number(l.ci95Low);
    latency["ci95_high"] = Number(l.ci95High);
    d["latency_ns"] = latency;
    py::list endpoints;
    for (const GsnEndpointSummary& e : s.endpoints)
    {
        py::dict x;
        x["index"] = e.index;
        x["sent"] = e.sent;
        x["received"] = e.received;
        x["refused"] = e.refused;
        x["tx_throughput_bps"] = Number(e.txThroughput);
        x["rx_throughput_bps"] = Number(e.rxThroughput);
        endpoints.append(x);
    }
    d["endpoints"] = endpoints;
    py::list links;
    for (const GsnLinkSummary& k : s.links)
    {
        py::dict x;
        x["node"] = k.node;
        x["if_index"] = k.ifIndex;
        x["address"] = ToString(k.address);
        x["tx_micropackets"] = k.txMicropackets;
        x["utilisation"] = Number(k.utilisation);
        x["credit_stalls"] = k.creditStalls;
        x["credit_stall_s"] = Number(k.creditStallTime.GetSeconds());
        x["run_mode"] = k.runMode;
        x["run_waits"] = k.runWaits;
        x["run_wait_s"] = Number(k.runWaitTime.GetSeconds());
        links.append(x);
    }
    d["links"] = links;
    py::dict utilisation;
    utilisation["mean"] = Number(s.meanUtilisation);
    utilisation["max"] = Number(s.maxUtilisation);
    d["link_utilisation"] = utilisation;
    d["credit_stall_s"] = Number(s.totalCreditStallTime.GetSeconds());
    d["run_mode_links"] = s.runModeLinks;
    d["run_waits"] = s.totalRunWaits;
    d["run_wait_s"] = Number(s.totalRunWaitTime.GetSeconds());
    return d;
}

/// One Message record as a dict (arrival and latency None if it has not arrived).
py::dict
RecordToDict(uint32_t source, uint64_t sequence, const GsnTrafficRecord& r)
{
    py::dict d;
    d["source"] = source;
    d["destination"] = r.destination;
    d["sequence"] = sequence;
    d["bytes"] = r.bytes;
    d["send_ns"] = r.sendNs;
    const bool arrived = r.arrivalNs != GsnTrafficRecord::NOT_ARRIVED;
    d["arrival_ns"] = arrived ? py::object(py::int_(r.arrivalNs)) : py::object(py::none());
    d["latency_ns"] =
        arrived ? py::object(py::int_(r.arrivalNs - r.sendNs)) : py::object(py::none());
    return d;
}

/// The link counters as a dict.
py::dict
LinkCountersToDict(const GsnLinkCounters& c)
{
    py::dict d;
    d["transmissions"] = c.transmissions;
    d["timerEvents"] = c.timerEvents;
    d["timerEventsSendingNothing"] = c.timerEventsSendingNothing;
    d["txMicropackets"] = c.txMicropackets;
    d["txMessageMicropackets"] = c.txMessageMicropackets;
    d["rxMicropackets"] = c.rxMicropackets;
    d["rxTakenAhead"] = c.rxTakenAhead;
    d["rxAccepted"] = c.rxAccepted;
    d["creditOnlySent"] = c.creditOnlySent;
    d["nullSent"] = c.nullSent;
    d["lcrcErrors"] = c.lcrcErrors;
    d["outOfSequence"] = c.outOfSequence;
    d["notInitialized"] = c.notInitialized;
    d["reservedType"] = c.reservedType;
    d["retransmitTimeouts"] = c.retransmitTimeouts;
    d["retransmitted"] = c.retransmitted;
    d["linkResets"] = c.linkResets;
    d["rxBufferOverflow"] = c.rxBufferOverflow;
    d["messagesLostInReset"] = c.messagesLostInReset;
    d["keepAliveNullSent"] = c.keepAliveNullSent;
    d["runWaits"] = c.runWaits;
    d["runWaitTime"] = c.runWaitTime;
    py::list stalls;
    py::list stallTime;
    for (std::size_t vc = 0; vc < c.creditStalls.size(); ++vc)
    {
        stalls.append(c.creditStalls[vc]);
        stallTime.append(c.creditStallTime[vc]);
    }
    d["creditStalls"] = stalls;
    d["creditStallTime"] = stallTime;
    return d;
}

/// The Message counters of an endpoint as a dict (drops by reason name).
py::dict
MessageCountersToDict(const GsnMessageCounters& c)
{
    py::dict d;
    d["txMessages"] = c.txMessages;
    d["txRefusedTooLong"] = c.txRefusedTooLong;
    d["txRefusedBadVc"] = c.txRefusedBadVc;
    d["txRefusedOverMtu"] = c.txRefusedOverMtu;
    d["txQueueDrops"] = c.txQueueDrops;
    d["txLostInReset"] = c.txLostInReset;
    d["rxMessages"] = c.rxMessages;
    py::dict drops;
    for (std::size_t r = 0; r < c.rxDrops.size(); ++r)
    {
        drops[GsnRxDropReasonName(GsnRxDropReason(r))] = c.rxDrops[r];
    }
    d["rxDrops"] = drops;
    return d;
}

/// Raise IndexError unless \p vc is a VC.
void
CheckVc(uint32_t vc)
{
    if (vc >= gsn::NUM_VCS)
    {
        throw py::index_error("no VC " + std::to_string(vc) + " (0 to 3)");
    }
}

/// Raise IndexError unless \p id is an element of \p t.
void
CheckElement(const GsnTopology& t, uint32_t id)
{
    if (id >= t.GetNElements())
    {
        throw py::index_error("unknown element " + std::to_string(id));
    }
}

} // namespace

void
BindGsnModel(py::module_& m)
{
    // --- Enums and micropackets
    py::enum_<GsnRxDropReason>(m, "GsnRxDropReason")
        .value("DATA_WITHOUT_HEADER", GsnRxDropReason::DATA_WITHOUT_HEADER)
        .value("HEADER_IN_MESSAGE", GsnRxDropReason::HEADER_IN_MESSAGE)
        .value("BAD_LENGTH", GsnRxDropReason::BAD_LENGTH)
        .value("TOO_LONG", GsnRxDropReason::TOO_LONG)
        .value("TRUNCATED", GsnRxDropReason::TRUNCATED)
        .value("ECRC_ERROR", GsnRxDropReason::ECRC_ERROR)
        .value("ERROR_FLAG", GsnRxDropReason::ERROR_FLAG)
        .value("BAD_LLC_SNAP", GsnRxDropReason::BAD_LLC_SNAP)
        .value("NOT_FOR_US", GsnRxDropReason::NOT_FOR_US)
        .value("NO_ARP", GsnRxDropReason::NO_ARP)
        .value("MALFORMED_ARP", GsnRxDropReason::MALFORMED_ARP);
    m.def(
        "GsnRxDropReasonName",
        [](GsnRxDropReason r) { return std::string(GsnRxDropReasonName(r)); },
        py::arg("reason"));
    py::enum_<GsnSwitchDropReason>(m, "GsnSwitchDropReason")
        .value("UNKNOWN_ULA", GsnSwitchDropReason::UNKNOWN_ULA)
        .value("NO_BROADCAST", GsnSwitchDropReason::NO_BROADCAST)
        .value("BROADCAST_TOO_LONG", GsnSwitchDropReason::BROADCAST_TOO_LONG)
        .value("STRAY_DATA", GsnSwitchDropReason::STRAY_DATA)
        .value("CUT_BY_RESET", GsnSwitchDropReason::CUT_BY_RESET);
    m.def(
        "GsnSwitchDropReasonName",
        [](GsnSwitchDropReason r) { return std::string(GsnSwitchDropReasonName(r)); },
        py::arg("reason"));

    py::class_<GsnMicropacket>(m, "GsnMicropacket")
        .def_readonly("vc", &GsnMicropacket::vc)
        .def_readonly("type", &GsnMicropacket::type)
        .def_readonly("tail", &GsnMicropacket::tail)
        .def_readonly("error", &GsnMicropacket::error)
        .def_readonly("vcr", &GsnMicropacket::vcr)
        .def_readonly("cr", &GsnMicropacket::cr)
        .def_readonly("rseq", &GsnMicropacket::rseq)
        .def_readonly("tseq", &GsnMicropacket::tseq)
        .def("GetTypeName",
             [](const GsnMicropacket& mp) { return std::string(GsnMicropacketTypeName(mp.type)); })
        .def("IsMessage", &GsnMicropacket::IsMessage)
        .def("Serialize", [](const GsnMicropacket& mp) {
            std::string out(gsn::MICROPACKET_BYTES, '\0');
            mp.Serialize(reinterpret_cast<uint8_t*>(out.data()));
            return py::bytes(out);
        });

    py::class_<GsnVcTag, Tag>(m, "GsnVcTag")
        .def(py::init([](uint32_t vc) {
                 CheckVc(vc);
                 return GsnVcTag(uint8_t(vc));
             }),
             py::arg("vc") = 0)
        .def("GetVc", &GsnVcTag::GetVc)
        .def(
            "SetVc",
            [](GsnVcTag& t, uint32_t vc) {
                CheckVc(vc);
                t.SetVc(uint8_t(vc));
            },
            py::arg("vc"));

    py::class_<GsnAdminPayload>(m, "GsnAdminPayload")
        .def_readonly("hopCount", &GsnAdminPayload::hopCount)
        .def_readonly("command", &GsnAdminPayload::command)
        .def_readonly("response", &GsnAdminPayload::response)
        .def_readonly("error", &GsnAdminPayload::error)
        .def_readonly("more", &GsnAdminPayload::more)
        .def_readonly("status", &GsnAdminPayload::status)
        .def_readonly("transaction", &GsnAdminPayload::transaction)
        .def_readonly("ula", &GsnAdminPayload::ula)
        .def_readonly("port", &GsnAdminPayload::port)
        .def_readonly("pathIndex", &GsnAdminPayload::pathIndex);

    // --- The cable and the ports
    py::class_<GsnChannel, Channel, Ptr<GsnChannel>> channel(m, "GsnChannel");
    py::enum_<GsnChannel::Medium>(channel, "Medium")
        .value("COPPER", GsnChannel::COPPER)
        .value("FIBER", GsnChannel::FIBER)
        .export_values();
    channel.def_static("GetTypeId", &GsnChannel::GetTypeId)
        .def("GetDelay", &GsnChannel::GetDelay)
        .def("GetLength", &GsnChannel::GetLength)
        .def("GetMedium", &GsnChannel::GetMedium)
        .def_static("GetMaxLength", &GsnChannel::GetMaxLength, py::arg("medium"))
        .def_static("CheckLength", &GsnChannel::CheckLength, py::arg("medium"), py::arg("metres"));

    py::class_<GsnPortDevice, NetDevice, Ptr<GsnPortDevice>> port(m, "GsnPortDevice");
    py::enum_<GsnPortDevice::LinkState>(port, "LinkState")
        .value("DOWN", GsnPortDevice::LinkState::DOWN)
        .value("RESET_SENT", GsnPortDevice::LinkState::RESET_SENT)
        .value("INIT_SENT", GsnPortDevice::LinkState::INIT_SENT)
        .value("UP", GsnPortDevice::LinkState::UP);
    port.def_static("GetTypeId", &GsnPortDevice::GetTypeId)
        .def("GetLinkCounters",
             [](const GsnPortDevice& p) { return LinkCountersToDict(p.GetLinkCounters()); })
        .def("GetLinkState", &GsnPortDevice::GetLinkState)
        .def("GetTxMicropacketsStarted", &GsnPortDevice::GetTxMicropacketsStarted)
        .def(
            "GetTxCredits",
            [](const GsnPortDevice& p, uint32_t vc) {
                CheckVc(vc);
                return p.GetTxCredits(uint8_t(vc));
            },
            py::arg("vc"))
        .def(
            "GetRxBufferOccupancy",
            [](const GsnPortDevice& p, uint32_t vc) {
                CheckVc(vc);
                return p.GetRxBufferOccupancy(uint8_t(vc));
            },
            py::arg("vc"))
        .def("GetUnacknowledged", &GsnPortDevice::GetUnacknowledged)
        .def("GetCable", &GsnPortDevice::GetCable)
        .def("ResetLink", &GsnPortDevice::ResetLink)
        .def("AssignStreams", &GsnPortDevice::AssignStreams, py::arg("stream"));

    py::class_<GsnNetDevice, GsnPortDevice, Ptr<GsnNetDevice>>(m, "GsnNetDevice")
        .def(py::init([]() { return CreateObject<GsnNetDevice>(); }))
        .def_static("GetTypeId", &GsnNetDevice::GetTypeId)
        .def("GetMessageCounters",
             [](const GsnNetDevice& d) { return MessageCountersToDict(d.GetMessageCounters()); })
        .def(
            "GetMaxMessageBytes",
            [](const GsnNetDevice& d, uint32_t vc) {
                CheckVc(vc);
                return d.GetMaxMessageBytes(uint8_t(vc));
            },
            py::arg("vc"))
        .def_static("IsBoundByMtu", &GsnNetDevice::IsBoundByMtu, py::arg("protocolNumber"));

    py::class_<GsnSwitchPort, GsnPortDevice, Ptr<GsnSwitchPort>>(m, "GsnSwitchPort")
        .def_static("GetTypeId", &GsnSwitchPort::GetTypeId)
        .def("GetPortIndex", &GsnSwitchPort::GetPortIndex);

    auto checkPort = [](const GsnSwitch& s, uint32_t p) {
        if (p >= s.GetNPorts())
        {
            throw py::index_error("the switch has no port " + std::to_string(p));
        }
    };
    py::class_<GsnSwitch, Object, Ptr<GsnSwitch>>(m, "GsnSwitch")
        .def_static("GetTypeId", &GsnSwitch::GetTypeId)
        .def("GetNPorts", &GsnSwitch::GetNPorts)
        .def(
            "GetPort",
            [checkPort](const GsnSwitch& s, uint32_t p) {
                checkPort(s, p);
                return s.GetPort(p);
            },
            py::arg("index"))
        .def("GetRoute", &GsnSwitch::GetRoute, py::arg("ula"))
        .def("GetNRoutes", &GsnSwitch::GetNRoutes)
        .def("IsBroadcastCapable", &GsnSwitch::IsBroadcastCapable)
        .def("GetElementAddress", &GsnSwitch::GetElementAddress)
        .def("IsDiscoveryComplete", &GsnSwitch::IsDiscoveryComplete)
        .def("Reinitialize", &GsnSwitch::Reinitialize)
        .def("GetResets", &GsnSwitch::GetResets)
        .def(
            "IsPortInBroadcastTree",
            [checkPort](const GsnSwitch& s, uint32_t p) {
                checkPort(s, p);
                return s.IsPortInBroadcastTree(p);
            },
            py::arg("port"))
        .def("GetAdminErrors", &GsnSwitch::GetAdminErrors)
        .def(
            "GetCounters",
            [checkPort](const GsnSwitch& s, uint32_t p, uint32_t vc) {
                checkPort(s, p);
                CheckVc(vc);
                const GsnSwitchVcCounters& c = s.GetCounters(p, uint8_t(vc));
                py::dict d;
                d["messagesOut"] = c.messagesOut;
                d["micropacketsOut"] = c.micropacketsOut;
                d["broadcastsIn"] = c.broadcastsIn;
                d["dropsIn"] = c.dropsIn;
                d["blockedIn"] = c.blockedIn;
                return d;
            },
            py::arg("port"),
            py::arg("vc"))
        .def("GetDrops", &GsnSwitch::GetDrops, py::arg("reason"));

    py::class_<GsnFabricWatchdog::Hop>(m, "GsnFabricWatchdogHop")
        .def_readonly("node", &GsnFabricWatchdog::Hop::node)
        .def_readonly("port", &GsnFabricWatchdog::Hop::port)
        .def_readonly("vc", &GsnFabricWatchdog::Hop::vc)
        .def("__repr__", [](const GsnFabricWatchdog::Hop& h) {
            return "Hop(node=" + std::to_string(h.node) + ", port=" + std::to_string(h.port) +
                   ", vc=" + std::to_string(h.vc) + ")";
        });
    py::class_<GsnFabricWatchdog, Object, Ptr<GsnFabricWatchdog>>(m, "GsnFabricWatchdog")
        .def_static("GetTypeId", &GsnFabricWatchdog::GetTypeId)
        .def("Check", &GsnFabricWatchdog::Check)
        .def("GetDeadlocks", &GsnFabricWatchdog::GetDeadlocks)
        .def("GetStalls", &GsnFabricWatchdog::GetStalls)
        .def("GetChecks", &GsnFabricWatchdog::GetChecks)
        .def("GetCycles", &GsnFabricWatchdog::GetCycles)
        .def("DescribeCycle", &GsnFabricWatchdog::DescribeCycle, py::arg("cycle"))
        .def("SetEnabled", &GsnFabricWatchdog::SetEnabled, py::arg("enabled"))
        .def("IsEnabled", &GsnFabricWatchdog::IsEnabled);

    // --- Topologies, routing, the deadlock check
    py::class_<GsnTopology> topology(m, "GsnTopology");
    py::enum_<GsnTopology::ElementKind>(topology, "ElementKind")
        .value("ENDPOINT", GsnTopology::ElementKind::ENDPOINT)
        .value("SWITCH", GsnTopology::ElementKind::SWITCH);
    py::class_<GsnTopology::Element>(topology, "Element")
        .def_readonly("kind", &GsnTopology::Element::kind)
        .def_readonly("numPorts", &GsnTopology::Element::numPorts)
        .def_readonly("name", &GsnTopology::Element::name)
        .def_readonly("coords", &GsnTopology::Element::coords)
        .def("__repr__", [](const GsnTopology::Element& e) {
            return std::string(e.kind == GsnTopology::ElementKind::ENDPOINT ? "endpoint "
                                                                            : "switch ") +
                   e.name + " (" + std::to_string(e.numPorts) + " ports)";
        });
    py::class_<GsnTopology::Cable>(topology, "Cable")
        .def_readonly("a", &GsnTopology::Cable::a)
        .def_readonly("aPort", &GsnTopology::Cable::aPort)
        .def_readonly("b", &GsnTopology::Cable::b)
        .def_readonly("bPort", &GsnTopology::Cable::bPort)
        .def_readonly("lengthMeters", &GsnTopology::Cable::lengthMeters)
        .def_readonly("lengthGiven", &GsnTopology::Cable::lengthGiven);
    topology.def(py::init<>())
        .def_readonly_static("DEFAULT_CABLE_LENGTH", &GsnTopology::DEFAULT_CABLE_LENGTH)
        .def("AddEndpoint", &GsnTopology::AddEndpoint, py::arg("name") = "")
        .def("AddSwitch",
             &GsnTopology::AddSwitch,
             py::arg("numPorts"),
             py::arg("name") = "",
             py::arg("coords") = std::vector<int32_t>())
        .def("Connect",
             &GsnTopology::Connect,
             py::arg("a"),
             py::arg("aPort"),
             py::arg("b"),
             py::arg("bPort"),
             py::arg("length") = py::none())
        .def("GetNElements", &GsnTopology::GetNElements)
        .def("GetElement", &GsnTopology::GetElement, py::arg("id"))
        .def("GetCables", &GsnTopology::GetCables)
        .def("GetEndpoints", &GsnTopology::GetEndpoints)
        .def("GetSwitches", &GsnTopology::GetSwitches)
        .def("IsEndpoint", &GsnTopology::IsEndpoint, py::arg("id"))
        .def("IsSwitch", &GsnTopology::IsSwitch, py::arg("id"))
        .def(
            "GetPeer",
            [](const GsnTopology& t, uint32_t e, uint32_t p) {
                CheckElement(t, e);
                if (p >= t.GetElement(e).numPorts)
                {
                    throw py::index_error("element " + std::to_string(e) + " has no port " +
                                          std::to_string(p));
                }
                return t.GetPeer(e, p);
            },
            py::arg("element"),
            py::arg("port"))
        .def("FindElement", &GsnTopology::FindElement, py::arg("name"))
        .def("Validate", &GsnTopology::Validate)
        .def_static(
            "Parse",
            [](const std::string& text) {
                std::istringstream in(text);
                return GsnTopology::Parse(in);
            },
            py::arg("text"))
        .def_static("ReadFile", &GsnTopology::ReadFile, py::arg("path"))
        .def("ToText", &GsnTopology::ToText);

    py::class_<GsnTopologyBuilder>(m, "GsnTopologyBuilder")
        .def_static("BackToBack", &GsnTopologyBuilder::BackToBack)
        .def_static("Star",
                    &GsnTopologyBuilder::Star,
                    py::arg("nEndpoints"),
                    py::arg("switchPorts") = 0)
        .def_static("TwoSwitchFigure132", &GsnTopologyBuilder::TwoSwitchFigure132)
        .def_static("KaryNTree", &GsnTopologyBuilder::KaryNTree, py::arg("k"), py::arg("n"))
        .def_static("FatTree", &GsnTopologyBuilder::FatTree, py::arg("k"))
        .def_static("Mesh2D",
                    &GsnTopologyBuilder::Mesh2D,
                    py::arg("x"),
                    py::arg("y"),
                    py::arg("endpointsPerSwitch") = 1)
        .def_static("Torus2D",
                    &GsnTopologyBuilder::Torus2D,
                    py::arg("x"),
                    py::arg("y"),
                    py::arg("endpointsPerSwitch") = 1)
        .def_static("Ring",
                    &GsnTopologyBuilder::Ring,
                    py::arg("nSwitches"),
                    py::arg("endpointsPerSwitch") = 1);

    py::class_<GsnRoutingTables>(m, "GsnRoutingTables")
        .def_readonly("port", &GsnRoutingTables::port)
        .def("Get", &GsnRoutingTables::Get, py::arg("switchIndex"), py::arg("endpointIndex"))
        .def(
            "Route",
            [](const GsnRoutingTables& r, const GsnTopology& t, uint32_t src, uint32_t dst) {
                CheckElement(t, src);
                CheckElement(t, dst);
                return r.Route(t, src, dst);
            },
            py::arg("topology"),
            py::arg("src"),
            py::arg("dst"));
    py::class_<GsnRouting>(m, "GsnRouting")
        .def_static("Create", &GsnRouting::Create, py::arg("name"))
        .def_static("GetNames", &GsnRouting::GetNames)
        .def("GetName", &GsnRouting::GetName)
        .def("Compute", &GsnRouting::Compute, py::arg("topology"))
        .def(
            "ComputeColumns",
            [](const GsnRouting& r, const GsnTopology& t, const py::function& sink) {
                r.ComputeColumns(t, [&sink](uint32_t e, const std::vector<int32_t>& column) {
                    sink(e, column);
                });
            },
            py::arg("topology"),
            py::arg("sink"),
            "Call sink(endpoint, column) once per endpoint: column[s] is switch s's output "
            "port toward it (-1: none).");
    py::class_<GsnDeadlockChecker>(m, "GsnDeadlockChecker")
        .def_static("FindCycle",
                    py::overload_cast<const GsnTopology&, const GsnRoutingTables&>(
                        &GsnDeadlockChecker::FindCycle),
                    py::arg("topology"),
                    py::arg("tables"))
        .def_static("DescribeCycle",
                    &GsnDeadlockChecker::DescribeCycle,
                    py::arg("topology"),
                    py::arg("cycle"))
        .def_static("Check",
                    py::overload_cast<const GsnTopology&, const GsnRoutingTables&>(
                        &GsnDeadlockChecker::Check),
                    py::arg("topology"),
                    py::arg("tables"));

    // --- Traffic
    py::class_<GsnTrafficRecord>(m, "GsnTrafficRecord")
        .def_readonly("destination", &GsnTrafficRecord::destination)
        .def_readonly("bytes", &GsnTrafficRecord::bytes)
        .def_readonly("sendNs", &GsnTrafficRecord::sendNs)
        .def_readonly("arrivalNs", &GsnTrafficRecord::arrivalNs)
        .def("__repr__", [](const GsnTrafficRecord& r) {
            return "GsnTrafficRecord(destination=" + std::to_string(r.destination) +
                   ", bytes=" + std::to_string(r.bytes) + ", sendNs=" + std::to_string(r.sendNs) +
                   ", arrivalNs=" + std::to_string(r.arrivalNs) + ")";
        });

    py::class_<GsnTrafficGenerator, Application, Ptr<GsnTrafficGenerator>> generator(
        m,
        "GsnTrafficGenerator");
    py::enum_<GsnTrafficGenerator::Pattern>(generator, "Pattern")
        .value("UNIFORM_RANDOM", GsnTrafficGenerator::UNIFORM_RANDOM)
        .value("PERMUTATION", GsnTrafficGenerator::PERMUTATION)
        .value("ALL_TO_ALL", GsnTrafficGenerator::ALL_TO_ALL)
        .value("INCAST", GsnTrafficGenerator::INCAST)
        .value("HOT_SPOT", GsnTrafficGenerator::HOT_SPOT)
        .export_values();
    generator.def_static("GetTypeId", &GsnTrafficGenerator::GetTypeId)
        .def("GetIndex", &GsnTrafficGenerator::GetIndex)
        .def("GetEndpointCount", &GsnTrafficGenerator::GetEndpointCount)
        .def("GetStats", &GsnTrafficGenerator::GetStats)
        .def("GetDevice", &GsnTrafficGenerator::GetDevice)
        .def("Validate", &GsnTrafficGenerator::Validate)
        .def("GetMeanMessageSize", &GsnTrafficGenerator::GetMeanMessageSize)
        .def("GetMeanInterval", &GsnTrafficGenerator::GetMeanInterval)
        .def("GetGenerated", &GsnTrafficGenerator::GetGenerated)
        .def("GetSent", &GsnTrafficGenerator::GetSent)
        .def("GetRefused", &GsnTrafficGenerator::GetRefused)
        .def("GetReceived", &GsnTrafficGenerator::GetReceived)
        .def("AssignStreams", &GsnTrafficGenerator::AssignStreams, py::arg("stream"));

    py::class_<GsnTrafficStats, Object, Ptr<GsnTrafficStats>>(m, "GsnTrafficStats")
        .def(py::init([]() { return CreateObject<GsnTrafficStats>(); }))
        .def_static("GetTypeId", &GsnTrafficStats::GetTypeId)
        .def("SetEndpointCount", &GsnTrafficStats::SetEndpointCount, py::arg("n"))
        .def("GetEndpointCount", &GsnTrafficStats::GetEndpointCount)
        .def("AddLinks", &GsnTrafficStats::AddLinks, py::arg("ports"))
        .def("SetPartial", &GsnTrafficStats::SetPartial, py::arg("partial"))
        .def("AddDropSources",
             &GsnTrafficStats::AddDropSources,
             py::arg("endpoints"),
             py::arg("switches"))
        .def(
            "StopWhenDrained",
            [](GsnTrafficStats& s, Time from, Time limit, Time period) {
                if (period.IsZero() || period.IsStrictlyNegative() || limit.IsStrictlyNegative() ||
                    from < Simulator::Now())
                {
                    throw py::value_error("StopWhenDrained: needs from >= now, limit >= 0 and "
                                          "period > 0");
                }
                s.StopWhenDrained(from, limit, period);
            },
            py::arg("start"),
            py::arg("limit"),
            py::arg("period") = MicroSeconds(1))
        .def("IsDrained", &GsnTrafficStats::IsDrained)
        .def("GetDrainStop", &GsnTrafficStats::GetDrainStop)
        .def("Summarize", [](const GsnTrafficStats& s) { return SummaryToDict(s.Summarize()); })
        .def(
            "Summarize",
            [](const GsnTrafficStats& s, Time start, Time end) {
                return SummaryToDict(s.Summarize(start, end));
            },
            py::arg("start"),
            py::arg("end"))
        .def(
            "GetRecords",
            [](const GsnTrafficStats& s, uint32_t source) {
                if (source >= s.GetEndpointCount())
                {
                    throw py::index_error("no endpoint " + std::to_string(source));
                }
                py::list out;
                const auto& records = s.GetRecords(source);
                for (std::size_t q = 0; q < records.size(); ++q)
                {
                    out.append(RecordToDict(source, q, records[q]));
                }
                return out;
            },
            py::arg("source"))
        .def("GetAllRecords",
             [](const GsnTrafficStats& s) {
                 py::list out;
                 for (uint32_t source = 0; source < s.GetEndpointCount(); ++source)
                 {
                     const auto& records = s.GetRecords(source);
                     for (std::size_t q = 0; q < records.size(); ++q)
                     {
                         out.append(RecordToDict(source, q, records[q]));
                     }
                 }
                 return out;
             })
        .def("GetSent", &GsnTrafficStats::GetSent)
        .def("GetDelivered", &GsnTrafficStats::GetDelivered)
        .def("GetRefused", &GsnTrafficStats::GetRefused)
        .def("GetDuplicates", &GsnTrafficStats::GetDuplicates)
        .def("GetOutOfOrder", &GsnTrafficStats::GetOutOfOrder)
        .def("GetMisdelivered", &GsnTrafficStats::GetMisdelivered)
        .def("GetStray", &GsnTrafficStats::GetStray)
        .def("GetLost", &GsnTrafficStats::GetLost)
        .def("GetInFlight", &GsnTrafficStats::GetInFlight)
        .def(
            "WriteCsv",
            [](const GsnTrafficStats& s, const std::string& path) {
                std::ofstream out(path);
                if (!out)
                {
                    throw py::value_error(path + ": cannot be written");
                }
                s.WriteCsv(out);
                out.close();
                if (!out)
                {
                    throw py::value_error(path + ": could not be written");
                }
            },
            py::arg("path"))
        .def(
            "WriteSummaryJson",
            [](const GsnTrafficStats& s, py::object file) {
                std::ostringstream os;
                s.WriteSummaryJson(os);
                if (py::isinstance<py::str>(file))
                {
                    std::ofstream out(file.cast<std::string>());
                    out << os.str();
                    out.close();
                    if (!out)
                    {
                        throw py::value_error(file.cast<std::string>() + ": could not be written");
                    }
                    return;
                }
                WriteTo(file, os.str());
            },
            py::arg("file") = py::none())
        .def(
            "Print",
            [](const GsnTrafficStats& s, py::object file, bool details) {
                std::ostringstream os;
                s.Print(os, details);
                WriteTo(file, os.str());
            },
            py::arg("file") = py::none(),
            py::arg("details") = true)
        .def(
            "ToString",
            [](const GsnTrafficStats& s, bool details) {
                std::ostringstream os;
                s.Print(os, details);
                return os.str();
            },
            py::arg("details") = true);

    // The trace signatures of the gsn module.
    RegisterTrace("ns3::GsnNetDevice::AdminTracedCallback",
                  static_cast<GsnNetDevice::AdminTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnSwitch::AdminTracedCallback",
                  static_cast<GsnSwitch::AdminTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnNetDevice::MessageDropTracedCallback",
                  static_cast<GsnNetDevice::MessageDropTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnNetDevice::SnifferVcTracedCallback",
                  static_cast<GsnNetDevice::SnifferVcTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnPortDevice::MicropacketTracedCallback",
                  static_cast<GsnPortDevice::MicropacketTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnPortDevice::CreditStallTracedCallback",
                  static_cast<GsnPortDevice::CreditStallTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnPortDevice::LateCreditsTracedCallback",
                  static_cast<GsnPortDevice::LateCreditsTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnPortDevice::RetransmitTracedCallback",
                  static_cast<GsnPortDevice::RetransmitTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnSwitch::ForwardTracedCallback",
                  static_cast<GsnSwitch::ForwardTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnSwitch::DropTracedCallback",
                  static_cast<GsnSwitch::DropTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnFabricWatchdog::DeadlockTracedCallback",
                  static_cast<GsnFabricWatchdog::DeadlockTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnTrafficGenerator::RxTracedCallback",
                  static_cast<GsnTrafficGenerator::RxTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnTrafficStats::DeliveredTracedCallback",
                  static_cast<GsnTrafficStats::DeliveredTracedCallback>(nullptr));
    // The host adapter model's.
    RegisterTrace("ns3::GsnDmaEngine::TransferTracedCallback",
                  static_cast<GsnDmaEngine::TransferTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnHostCpu::WorkTracedCallback",
                  static_cast<GsnHostCpu::WorkTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnInterruptCoalescer::InterruptTracedCallback",
                  static_cast<GsnInterruptCoalescer::InterruptTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnHostAdapter::TxTracedCallback",
                  static_cast<GsnHostAdapter::TxTracedCallback>(nullptr));
    RegisterTrace("ns3::GsnHostAdapter::RxTracedCallback",
                  static_cast<GsnHostAdapter::RxTracedCallback>(nullptr));
}

} // namespace ns3py
