/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of the gsn module's helpers: GsnHelper (links and tracing), GsnFabric and
 * GsnFabricHelper, GsnTrafficHelper, GsnLayoutHelper and GsnCommandLineChecks. The helpers
 * are bound through small subclasses that remember what the C++ helper keeps private (the
 * routing algorithm, the generators' attributes), so that every input ns-3 would abort on (a
 * topology that cannot be built, routing that does not apply or could deadlock, a cable too
 * long, an unknown attribute) is refused first with a Python exception carrying the message.
 */
#include "ns3-py.h"

#include "ns3/gsn-channel.h"
#include "ns3/gsn-command-line-checks.h"
#include "ns3/gsn-deadlock-checker.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-helper.h"
#include "ns3/gsn-host-adapter-helper.h"
#include "ns3/gsn-host-adapter.h"
#include "ns3/gsn-layout-helper.h"
#include "ns3/gsn-mpi-helper.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-remote-port.h"
#include "ns3/gsn-routing.h"
#include "ns3/gsn-switch-port.h"
#include "ns3/gsn-switch.h"
#include "ns3/gsn-traffic-generator.h"
#include "ns3/gsn-traffic-helper.h"
#include "ns3/gsn-traffic-stats.h"
#include "ns3/harp-fabric-helper.h"
#include "ns3/node-list.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <limits>
#include <set>

namespace ns3py
{

using namespace ns3;

namespace
{

/// Raise ValueError unless a cable built by \p channel (as the helpers make it) can be attached.
void
CheckChannel(Ptr<GsnChannel> channel, const std::string& where)
{
    TimeValue delay;
    channel->GetAttribute("Delay", delay);
    const std::string tooLong = GsnChannel::CheckLength(channel->GetMedium(), channel->GetLength());
    if (delay.Get().IsZero() && !tooLong.empty())
    {
        throw py::value_error(where + ": " + tooLong);
    }
    if (!channel->GetDelay().IsStrictlyPositive())
    {
        throw py::value_error(where +
                              ": the propagation delay of a cable must be greater than "
                              "zero (Length=" +
                              std::to_string(channel->GetLength()) + " m)");
    }
}

/// GsnHelper with the checks of its Install.
class PyGsnHelper : public GsnHelper
{
  public:
    /// Raise ValueError unless the cable this helper makes can be attached.
    void CheckCable() const
    {
        CheckChannel(m_channelFactory.Create<GsnChannel>(), "GsnHelper.Install");
    }
};

/// A fabric helper (GsnFabricHelper or HarpFabricHelper) that checks before it builds.
template <typename Base>
class PyFabricHelper : public Base
{
  public:
    void SetRoutingAlgorithm(const std::string& name)
    {
        m_routing = name;
        Base::SetRoutingAlgorithm(name);
    }

    void SetDeadlockCheck(bool check)
    {
        m_deadlockCheck = check;
        Base::SetDeadlockCheck(check);
    }

    void SetDiscovery(bool discovery)
    {
        m_discovery = discovery;
        Base::SetDiscovery(discovery);
    }

    void SetAdminBroadcastSetup(bool admin, Time at)
    {
        m_adminBroadcast = admin;
        Base::SetAdminBroadcastSetup(admin, at);
    }

    void SetLinkMode(const std::string& mode)
    {
        m_runMode = mode == "Run";
        Base::SetLinkMode(mode);
    }

    void SetRanks(uint32_t ranks)
    {
        if (ranks == 0)
        {
            throw py::value_error("GsnFabricHelper.SetRanks(0): at least one rank");
        }
        m_nRanks = ranks; // (ranks given by hand stay, as in C++)
        Base::SetRanks(ranks);
    }

    void SetPartitionMethod(GsnFabricHelper::PartitionMethod method)
    {
        m_method = method;
        Base::SetPartitionMethod(method);
    }

    void SetElementRanks(const std::vector<uint32_t>& ranks, uint32_t nRanks)
    {
        if (nRanks == 0)
        {
            throw py::value_error("GsnFabricHelper.SetElementRanks: at least one rank");
        }
        m_nRanks = nRanks;
        m_byHand = ranks;
        Base::SetElementRanks(ranks, nRanks);
    }

    /**
     * Raise ValueError for what Install would abort on (or crash on) in splitting the fabric
     * over MPI ranks: the partition, the ranks, a cable across ranks that cannot cross them,
     * and a split into more ranks than MPI runs.
     */
    void CheckRanks(const GsnTopology& topology, const std::string& where) const
    {
        std::vector<uint32_t> ranks = m_byHand;
        if (ranks.empty())
        {
            const std::string problem =
                GsnFabricHelper::CheckPartition(topology, m_nRanks, m_method);
            if (!problem.empty())
            {
                throw py::value_error(where + ": partition: " + problem);
            }
            ranks = m_nRanks == 1 ? std::vector<uint32_t>(topology.GetNElements(), 0)
                    : GsnFabricHelper::ChooseMethod(topology, m_method) == GsnFabricHelper::GRAPH
                        ? GsnFabricHelper::PartitionGraph(topology, m_nRanks)
                        : GsnFabricHelper::PartitionBlocks(topology, m_nRanks);
        }
        const std::string problem = GsnFabricHelper::CheckRanks(topology, ranks, m_nRanks);
        if (!problem.empty())
        {
            throw py::value_error(where + ": " + problem);
        }
        for (const GsnTopology::Cable& c : topology.GetCables())
        {
            if (ranks[c.a] == ranks[c.b])
            {
                continue;
            }
            const std::string name = "the cable between " + topology.GetElement(c.a).name +
                                     " (rank " + std::to_string(ranks[c.a]) + ") and " +
                                     topology.GetElement(c.b).name + " (rank " +
                                     std::to_string(ranks[c.b]) + ")";
            if (!GsnMpiHelper::IsAvailable())
            {
                throw py::value_error(where + ": " + name +
                                      " crosses MPI ranks, but this build has no ns-3 mpi "
                                      "module (GSN_ENABLE_MPI with libopenmpi-dev)");
            }
            Ptr<GsnChannel> remote = this->CreateRemoteCable(c, this->CreateCable(c));
            TimeValue minDelay;
            remote->GetAttribute("MinDelay", minDelay);
            if (remote->GetDelay() < minDelay.Get())
            {
                throw py::value_error(where + ": " + name + " crosses ranks with a delay of " +
                                      ToString(remote->GetDelay().As(Time::NS)) +
                                      ", below ns3::GsnRemoteChannel::MinDelay (" +
                                      ToString(minDelay.Get().As(Time::NS)) +
                                      "): the delay is the ranks' lookahead");
            }
            if (m_runMode)
            {
                throw py::value_error(where + ": " + name +
                                      " crosses ranks in the run link mode; use "
                                      "SetLinkMode(\"Micropacket\") across ranks");
            }
        }
        if (m_nRanks > 1 && GsnMpiHelper::GetSize() != m_nRanks)
        {
            // (Without MPI running, the first micropacket across ranks would end the process.)
            throw py::value_error(
                where + ": the fabric is split over " + std::to_string(m_nRanks) +
                " ranks, but MPI runs " + std::to_string(GsnMpiHelper::GetSize()) +
                ": call GsnMpiHelper.Enable first, under mpirun -np " + std::to_string(m_nRanks));
        }
    }

    /// Raise ValueError for what Install would abort on (the routes only if \p routing:
    /// InstallChecked() refuses them itself, before building anything).
    void Check(const GsnTopology& topology, const std::string& where, bool routing = true) const
    {
        const std::string problem = topology.Validate();
        if (!problem.empty())
        {
            throw py::value_error(where + ": impossible topology: " + problem);
        }
        for (const GsnTopology::Cable& cable : topology.GetCables())
        {
            CheckChannel(this->CreateCable(cable), where);
        }
        CheckRanks(topology, where);
        for (uint32_t id = 0; m_adminBroadcast && id < topology.GetNElements(); ++id)
        {
            if (topology.IsEndpoint(id)) // the first endpoint is the manager
            {
                std::vector<std::vector<uint32_t>> path;
                const std::string problem = GsnFabricHelper::AdminPaths(topology, id, path);
                if (!problem.empty())
                {
                    throw py::value_error(where + ": SetAdminBroadcastSetup: " + problem);
                }
                break;
            }
        }
        if (m_discovery || !routing)
        {
            return;
        }
        try
        {
            // Judged one destination at a time, as Install() does: no whole tables.
            GsnDeadlockChecker checker(topology);
            GsnRouting::Create(m_routing)->ComputeColumns(
                topology,
                [this, &checker](uint32_t e, const std::vector<int32_t>& column) {
                    if (m_deadlockCheck)
                    {
                        checker.AddRoutes(e, column);
                    }
                });
            if (m_deadlockCheck)
            {
                checker.Check();
            }
        }
        catch (const std::exception& e)
        {
            throw py::value_error(where + ": routing " + m_routing + ": " + e.what());
        }
    }

    /// Install with the checks of Check(): the routes computed once, refused with ValueError
    /// before anything is built. \param topology the fabric \param where the caller's name
    /// \return what was built
    GsnFabric InstallChecked(const GsnTopology& topology, const std::string& where)
    {
        Check(topology, where, false);
        try
        {
            return this->InstallOrThrow(topology);
        }
        catch (const std::invalid_argument& e)
        {
            throw py::value_error(where + ": " + e.what());
        }
    }

    bool m_discovery{false}; ///< switches discover the fabric (no tables)

  private:
    std::string m_routing{"Auto"};  ///< routing algorithm
    bool m_runMode{false};          ///< SetLinkMode("Run")
    uint32_t m_nRanks{1};           ///< SetRanks, SetElementRanks
    std::vector<uint32_t> m_byHand; ///< SetElementRanks (empty: partition)
    GsnFabricHelper::PartitionMethod m_method{GsnFabricHelper::AUTO}; ///< SetPartitionMethod
    bool m_deadlockCheck{true};   ///< refuse tables that could deadlock
    bool m_adminBroadcast{false}; ///< broadcast tree set up by Admin micropackets
};

using PyGsnFabricHelper = PyFabricHelper<GsnFabricHelper>;

/// HarpFabricHelper with the checks of its Install.
class PyHarpFabricHelper : public PyFabricHelper<HarpFabricHelper>
{
  public:
    void AddHost(const std::vector<std::string>& endpoints)
    {
        m_hosts.push_back(endpoints);
        HarpFabricHelper::AddHost(endpoints);
    }

    /// Raise ValueError for what Install would abort on.
    void CheckHosts(const GsnTopology& topology) const
    {
        std::set<uint32_t> seen;
        for (const auto& host : m_hosts)
        {
            for (const std::string& name : host)
            {
                auto id = topology.FindElement(name);
                if (!id || !topology.IsEndpoint(*id))
                {
                    throw py::value_error("HarpFabricHelper.Install: no endpoint named \"" + name +
                                          "\"");
                }
                if (!seen.insert(*id).second)
                {
                    throw py::value_error("HarpFabricHelper.Install: endpoint \"" + name +
                                          "\" is in two hosts");
                }
            }
        }
    }

  private:
    std::vector<std::vector<std::string>> m_hosts; ///< AddHost
};

/// GsnTrafficHelper that checks the generators' attributes before Install.
class PyGsnTrafficHelper : public GsnTrafficHelper
{
  public:
    PyGsnTrafficHelper()
    {
        m_probe.SetTypeId(GsnTrafficGenerator::GetTypeId());
    }

    void SetAttribute(const std::string& name, const AttributeValue& value)
    {
        CheckAttribute(GsnTrafficGenerator::GetTypeId(),
                       name,
                       value,
                       "GsnTrafficHelper.SetAttribute");
        m_probe.Set(name, value);
        GsnTrafficHelper::SetAttribute(name, value);
    }

    /// Raise ValueError if the generators would refuse to start (they abort then).
    void CheckGenerators() const
    {
        const std::string problem = m_probe.Create<GsnTrafficGenerator>()->Validate();
        if (!problem.empty())
        {
            throw py::value_error("GsnTrafficHelper: " + problem);
        }
    }

  private:
    ObjectFactory m_probe; ///< a generator with the same attributes, to check them
};

/// Bind SetXAttribute methods of a helper, checked against \p type.
template <typename H, typename Cls>
void
BindSetter(Cls& c,
           const char* method,
           void (H::*setter)(std::string, const AttributeValue&),
           const char* type)
{
    const std::string typeName = type;
    const std::string where = std::string(method);
    c.def(
        method,
        [setter, typeName, where](H& h, const std::string& name, const AttributeValue& value) {
            CheckAttribute(LookupType(typeName), name, value, where);
            (h.*setter)(name, value);
        },
        py::arg("name"),
        py::arg("value"));
}

/// Bind the methods GsnFabricHelper and HarpFabricHelper share.
template <typename H, typename Cls>
void
BindFabricMethods(Cls& c, const char* where)
{
    BindSetter<H>(c, "SetSwitchAttribute", &H::SetSwitchAttribute, "ns3::GsnSwitch");
    BindSetter<H>(c, "SetSwitchPortAttribute", &H::SetSwitchPortAttribute, "ns3::GsnSwitchPort");
    BindSetter<H>(c, "SetWatchdogAttribute", &H::SetWatchdogAttribute, "ns3::GsnFabricWatchdog");
    const std::string name = where;
    c.def(
         "SetLinkMode",
         [name](H& h, const std::string& mode) {
             if (mode != "Micropacket" && mode != "Run")
             {
                 throw py::value_error(name + ".SetLinkMode: \"" + mode +
                                       "\" is not a link mode (Micropacket or Run)");
             }
             h.SetLinkMode(mode);
         },
         py::arg("mode"))
        .def(
            "SetHostProfile",
            [name](H& h, const std::string& profile) {
                const std::vector<std::string> names = GsnHostAdapterHelper::GetProfileNames();
                if (std::find(names.begin(), names.end(), profile) == names.end())
                {
                    std::string all;
                    for (const std::string& n : names)
                    {
                        all += (all.empty() ? "" : ", ") + n;
                    }
                    throw py::value_error(name + ".SetHostProfile: \"" + profile +
                                          "\" is not a host profile (" + all + ")");
                }
                h.SetHostProfile(profile);
            },
            py::arg("profile"))
        .def("SetRoutingAlgorithm", &H::SetRoutingAlgorithm, py::arg("name"))
        .def("SetDeadlockCheck", &H::SetDeadlockCheck, py::arg("check"))
        .def(
            "AssignStreams",
            [](H& h, const GsnFabric& fabric, int64_t stream) {
                return h.AssignStreams(fabric, stream);
            },
            py::arg("fabric"),
            py::arg("stream"))
        .def_static("InstallTables", &H::InstallTables, py::arg("fabric"), py::arg("tables"));
}

/// Raise ValueError for what a partition of \p t into \p ranks by \p method would abort on.
void
CheckPartitionArguments(const GsnTopology& t,
                        uint32_t ranks,
                        GsnFabricHelper::PartitionMethod method,
                        const std::string& where)
{
    const std::string invalid = t.Validate();
    if (!invalid.empty())
    {
        throw py::value_error("GsnFabricHelper." + where + ": impossible topology: " + invalid);
    }
    const std::string problem = GsnFabricHelper::CheckPartition(t, ranks, method);
    if (!problem.empty())
    {
        throw py::value_error("GsnFabricHelper." + where + ": " + problem);
    }
}

/// \return the program's CommandLine text variable for \p target
std::string&
Text(py::object cmd, py::object target)
{
    return CommandLineText(cmd, target);
}

} // namespace

void
BindGsnHelpers(py::module_& m)
{
    // --- GsnHelper
    py::class_<GsnHostAdapter, Object, Ptr<GsnHostAdapter>>(m, "GsnHostAdapter")
        .def_static("GetTypeId", &GsnHostAdapter::GetTypeId);
    py::class_<GsnHostAdapterHelper>(m, "GsnHostAdapterHelper")
        .def(py::init<>())
        .def(
            "SetProfile",
            [](GsnHostAdapterHelper& h, const std::string& profile) {
                const auto names = GsnHostAdapterHelper::GetProfileNames();
                if (std::find(names.begin(), names.end(), profile) == names.end())
                {
                    throw py::value_error("GsnHostAdapterHelper.SetProfile: no profile \"" +
                                          profile + "\" (Ideal, Adapter, Origin2000)");
                }
                h.SetProfile(profile);
            },
            py::arg("name"))
        .def("GetProfile", &GsnHostAdapterHelper::GetProfile)
        .def(
            "Set",
            [](GsnHostAdapterHelper& h, const std::string& attribute, const AttributeValue& v) {
                TypeId type;
                std::string name;
                if (!GsnHostAdapterHelper::FindPart(attribute, type, name))
                {
                    throw py::value_error("GsnHostAdapterHelper.Set: \"" + attribute +
                                          "\" names no part (Bus, TxDma, RxDma, Cpu, "
                                          "Interrupts)");
                }
                CheckAttribute(type, name, v, "GsnHostAdapterHelper.Set");
                h.Set(attribute, v);
            },
            py::arg("attribute"),
            py::arg("value"))
        .def("InstallsAdapter", &GsnHostAdapterHelper::InstallsAdapter)
        .def("Create", &GsnHostAdapterHelper::Create)
        .def(
            "Install",
            [](const GsnHostAdapterHelper& h, Ptr<GsnNetDevice> d) {
                if (!d)
                {
                    throw py::value_error("GsnHostAdapterHelper.Install: no device");
                }
                return h.Install(d);
            },
            py::arg("device"))
        .def(
            "Install",
            [](const GsnHostAdapterHelper& h, const NetDeviceContainer& c) { h.Install(c); },
            py::arg("devices"))
        .def_static("GetProfileNames", &GsnHostAdapterHelper::GetProfileNames);
    py::class_<GsnHelper, PcapHelperForDevice, AsciiTraceHelperForDevice>(m, "_GsnHelperBase");
    py::class_<PyGsnHelper, GsnHelper> gsn(m, "GsnHelper");
    gsn.def(py::init<>())
        .def_readonly_static("PCAP_LINK_TYPE", &GsnHelper::PCAP_LINK_TYPE)
        .def_readonly_static("PCAP_MICROPACKET_LINK_TYPE", &GsnHelper::PCAP_MICROPACKET_LINK_TYPE)
        .def_readonly_static("PCAP_VC_LINK_TYPE", &GsnHelper::PCAP_VC_LINK_TYPE)
        .def(
            "Install",
            [](PyGsnHelper& h, NodeContainer c) {
                if (c.GetN() != 2)
                {
                    throw py::value_error("GsnHelper.Install: a GSN cable joins exactly two "
                                          "nodes, not " +
                                          std::to_string(c.GetN()));
                }
                h.CheckCable();
                return h.Install(c);
            },
            py::arg("nodes"))
        .def(
            "Install",
            [](PyGsnHelper& h, Ptr<Node> a, Ptr<Node> b) {
                if (!a || !b)
                {
                    throw py::value_error("GsnHelper.Install: null node");
                }
                h.CheckCable();
                return h.Install(a, b);
            },
            py::arg("a"),
            py::arg("b"))
        .def("AssignStreams",
             py::overload_cast<NetDeviceContainer, int64_t>(&GsnHelper::AssignStreams),
             py::arg("devices"),
             py::arg("stream"))
        .def_static(
            "SetMicropacketErrorRate",
            [](NetDeviceContainer c, double rate, int64_t stream) {
                if (!(rate >= 0.0 && rate <= 1.0))
                {
                    throw py::value_error("GsnHelper.SetMicropacketErrorRate: the rate must be "
                                          "in [0, 1], not " +
                                          std::to_string(rate));
                }
                return GsnHelper::SetMicropacketErrorRate(c, rate, stream);
            },
            py::arg("devices"),
            py::arg("rate"),
            py::arg("stream"))
        .def("SetPcapVcHeader", &GsnHelper::SetPcapVcHeader, py::arg("enable"));
    BindSetter<PyGsnHelper>(gsn,
                            "SetDeviceAttribute",
                            &GsnHelper::SetDeviceAttribute,
                            "ns3::GsnNetDevice");
    BindSetter<PyGsnHelper>(gsn,
                            "SetChannelAttribute",
                            &GsnHelper::SetChannelAttribute,
                            "ns3::GsnChannel");

    // --- GsnFabric
    py::class_<GsnFabric>(m, "GsnFabric")
        .def_readonly("topology", &GsnFabric::topology)
        .def_readonly("tables", &GsnFabric::tables)
        .def_readonly("endpoints", &GsnFabric::endpoints)
        .def_readonly("switches", &GsnFabric::switches)
        .def_readonly("endpointDevices", &GsnFabric::endpointDevices)
        .def_readonly("endpointAddresses", &GsnFabric::endpointAddresses)
        .def_readonly("switchPorts", &GsnFabric::switchPorts)
        .def_readonly("switchObjects", &GsnFabric::switchObjects)
        .def_readonly("endpointElements", &GsnFabric::endpointElements)
        .def_readonly("switchElements", &GsnFabric::switchElements)
        .def_readonly("watchdog", &GsnFabric::watchdog)
        .def_readonly("elementRanks", &GsnFabric::elementRanks)
        .def("GetNLocalPorts", &GsnFabric::GetNLocalPorts)
        .def(
            "IsLocalEndpoint",
            [](const GsnFabric& f, uint32_t i) {
                if (i >= f.endpointElements.size())
                {
                    throw py::index_error("the fabric has no endpoint " + std::to_string(i));
                }
                return f.IsLocalEndpoint(i);
            },
            py::arg("index"))
        .def(
            "GetEndpointDevice",
            [](const GsnFabric& f, uint32_t i) {
                if (i >= f.endpointDevices.GetN())
                {
                    throw py::index_error("the fabric has no endpoint " + std::to_string(i));
                }
                return f.GetEndpointDevice(i);
            },
            py::arg("index"))
        .def(
            "GetEndpointIndex",
            [](const GsnFabric& f, const std::string& name) {
                for (uint32_t i = 0; i < f.endpointElements.size(); ++i)
                {
                    if (f.topology.GetElement(f.endpointElements[i]).name == name)
                    {
                        return i;
                    }
                }
                throw py::value_error("GsnFabric: no endpoint named \"" + name + "\"");
            },
            py::arg("name"))
        .def("GetAllPorts", &GsnFabric::GetAllPorts)
        .def("SupportsBroadcast", &GsnFabric::SupportsBroadcast);

    // --- GsnFabricHelper
    py::class_<PyGsnFabricHelper, GsnHelper> fabric(m, "GsnFabricHelper");
    py::enum_<GsnFabricHelper::PartitionMethod>(fabric, "PartitionMethod")
        .value("AUTO", GsnFabricHelper::AUTO)
        .value("BLOCKS", GsnFabricHelper::BLOCKS)
        .value("GRAPH", GsnFabricHelper::GRAPH)
        .export_values();
    fabric.def(py::init<>())
        .def("SetRanks", &PyGsnFabricHelper::SetRanks, py::arg("ranks"))
        .def("SetPartitionMethod", &PyGsnFabricHelper::SetPartitionMethod, py::arg("method"))
        .def("SetElementRanks",
             &PyGsnFabricHelper::SetElementRanks,
             py::arg("ranks"),
             py::arg("nRanks"))
        .def_static(
            "PartitionBlocks",
            [](const GsnTopology& t, uint32_t ranks) {
                CheckPartitionArguments(t, ranks, GsnFabricHelper::BLOCKS, "PartitionBlocks");
                return GsnFabricHelper::PartitionBlocks(t, ranks);
            },
            py::arg("topology"),
            py::arg("ranks"))
        .def_static(
            "PartitionGraph",
            [](const GsnTopology& t, uint32_t ranks) {
                CheckPartitionArguments(t, ranks, GsnFabricHelper::GRAPH, "PartitionGraph");
                if (!GsnFabricHelper::HasGraphPartitioner()) // (even for one rank)
                {
                    throw py::value_error("GsnFabricHelper.PartitionGraph: this build has no "
                                          "graph partitioner; install libmetis-dev (METIS)");
                }
                return GsnFabricHelper::PartitionGraph(t, ranks);
            },
            py::arg("topology"),
            py::arg("ranks"))
        .def_static(
            "Partition",
            [](const GsnTopology& t, uint32_t ranks, GsnFabricHelper::PartitionMethod method) {
                CheckPartitionArguments(t, ranks, method, "Partition");
                return GsnFabricHelper::Partition(t, ranks, method);
            },
            py::arg("topology"),
            py::arg("ranks"),
            py::arg("method") = GsnFabricHelper::AUTO)
        .def_static("ChooseMethod",
                    &GsnFabricHelper::ChooseMethod,
                    py::arg("topology"),
                    py::arg("method"))
        .def_static("HasGraphPartitioner", &GsnFabricHelper::HasGraphPartitioner)
        .def_static("CheckPartition",
                    &GsnFabricHelper::CheckPartition,
                    py::arg("topology"),
                    py::arg("ranks"),
                    py::arg("method"))
        .def_static("CheckRanks",
                    &GsnFabricHelper::CheckRanks,
                    py::arg("topology"),
                    py::arg("ranks"),
                    py::arg("nRanks"))
        .def_static(
            "CountCutCables",
            [](const GsnTopology& t, const std::vector<uint32_t>& ranks) {
                if (ranks.size() != t.GetNElements())
                {
                    throw py::value_error(
                        "GsnFabricHelper.CountCutCables: " + std::to_string(ranks.size()) +
                        " ranks for " + std::to_string(t.GetNElements()) + " elements");
                }
                return GsnFabricHelper::CountCutCables(t, ranks);
            },
            py::arg("topology"),
            py::arg("ranks"))
        .def("SetDiscovery", &PyGsnFabricHelper::SetDiscovery, py::arg("discovery"))
        .def("SetAdminBroadcastSetup",
             &PyGsnFabricHelper::SetAdminBroadcastSetup,
             py::arg("admin"),
             py::arg("at") = MicroSeconds(5))
        .def(
            "Install",
            [](PyGsnFabricHelper& h, const GsnTopology& topology) {
                return h.InstallChecked(topology, "GsnFabricHelper");
            },
            py::arg("topology"))
        .def(
            "Check",
            [](const PyGsnFabricHelper& h, const GsnTopology& topology) {
                h.Check(topology, "GsnFabricHelper");
            },
            py::arg("topology"));
    BindFabricMethods<PyGsnFabricHelper>(fabric, "GsnFabricHelper");
    BindSetter<PyGsnFabricHelper>(fabric,
                                  "SetDeviceAttribute",
                                  &GsnHelper::SetDeviceAttribute,
                                  "ns3::GsnNetDevice");
    BindSetter<PyGsnFabricHelper>(fabric,
                                  "SetChannelAttribute",
                                  &GsnHelper::SetChannelAttribute,
                                  "ns3::GsnChannel");

    // --- HarpFabricHelper (the harp module's; bound here with its base's methods)
    py::class_<PyHarpFabricHelper, GsnHelper> harpFabric(m, "HarpFabricHelper");
    harpFabric.def(py::init<>())
        .def("AddHost", &PyHarpFabricHelper::AddHost, py::arg("endpoints"))
        .def(
            "Install",
            [](PyHarpFabricHelper& h, const GsnTopology& topology) {
                h.CheckHosts(topology);
                h.Check(topology, "HarpFabricHelper");
                return h.Install(topology);
            },
            py::arg("topology"))
        .def_static("GetHosts", &HarpFabricHelper::GetHosts, py::arg("fabric"));
    BindFabricMethods<PyHarpFabricHelper>(harpFabric, "HarpFabricHelper");
    BindSetter<PyHarpFabricHelper>(harpFabric,
                                   "SetDeviceAttribute",
                                   &GsnHelper::SetDeviceAttribute,
                                   "ns3::GsnNetDevice");
    BindSetter<PyHarpFabricHelper>(harpFabric,
                                   "SetChannelAttribute",
                                   &GsnHelper::SetChannelAttribute,
                                   "ns3::GsnChannel");

    // --- GsnTrafficHelper
    py::class_<PyGsnTrafficHelper> traffic(m, "GsnTrafficHelper");
    traffic.def(py::init<>())
        .def("SetAttribute", &PyGsnTrafficHelper::SetAttribute, py::arg("name"), py::arg("value"))
        .def(
            "Install",
            [](PyGsnTrafficHelper& h, NodeContainer nodes) {
                for (uint32_t i = 0; i < nodes.GetN(); ++i)
                {
                    Ptr<Node> node = nodes.Get(i);
                    bool found = false;
                    for (uint32_t d = 0; d < node->GetNDevices() && !found; ++d)
                    {
                        found = bool(DynamicCast<GsnNetDevice>(node->GetDevice(d)));
                    }
                    if (!found && node->GetSystemId() != GsnMpiHelper::GetRank())
                    {
                        throw py::value_error(
                            "GsnTrafficHelper.Install: node " + std::to_string(node->GetId()) +
                            " belongs to MPI rank " + std::to_string(node->GetSystemId()) +
                            ", which alone builds its devices; install on the fabric's "
                            "endpointDevices (they name other ranks' endpoints)");
                    }
                    if (!found)
                    {
                        throw py::value_error("GsnTrafficHelper.Install: node " +
                                              std::to_string(node->GetId()) +
                                              " has no GsnNetDevice");
                    }
                }
                h.CheckGenerators();
                return h.Install(nodes);
            },
            py::arg("endpoints"))
        .def(
            "Install",
            [](PyGsnTrafficHelper& h, NetDeviceContainer devices) {
                for (uint32_t i = 0; i < devices.GetN(); ++i)
                {
                    Ptr<GsnNetDevice> d = DynamicCast<GsnNetDevice>(devices.Get(i));
                    Ptr<GsnRemotePort> remote = DynamicCast<GsnRemotePort>(devices.Get(i));
                    if ((!d || !d->GetNode()) && !(remote && remote->IsEndpoint()))
                    {
                        throw py::value_error("GsnTrafficHelper.Install: endpoint " +
                                              std::to_string(i) +
                                              " is not a GsnNetDevice on a node");
                    }
                }
                h.CheckGenerators();
                return h.Install(devices);
            },
            py::arg("endpoints"))
        .def("GetStats", &GsnTrafficHelper::GetStats)
        .def("AssignStreams", &GsnTrafficHelper::AssignStreams, py::arg("apps"), py::arg("stream"));
    BindSetter<PyGsnTrafficHelper>(traffic,
                                   "SetStatsAttribute",
                                   &GsnTrafficHelper::SetStatsAttribute,
                                   "ns3::GsnTrafficStats");

    // --- GsnLayoutHelper
    py::class_<GsnLayoutHelper>(m, "GsnLayoutHelper")
        .def(py::init<>())
        .def(
            "SetSpacing",
            [](GsnLayoutHelper& h, double spacing) {
                if (!(spacing > 0))
                {
                    throw py::value_error("GsnLayoutHelper: the spacing must be > 0, not " +
                                          std::to_string(spacing));
                }
                h.SetSpacing(spacing);
            },
            py::arg("spacing"))
        .def(
            "Compute",
            [](const GsnLayoutHelper& h, const GsnTopology& t) {
                py::list out;
                for (const Vector& v : h.Compute(t))
                {
                    out.append(py::make_tuple(v.x, v.y, v.z));
                }
                return out;
            },
            py::arg("topology"))
        .def("Install", &GsnLayoutHelper::Install, py::arg("fabric"));

    // --- GsnCommandLineChecks: the examples' option checks. A failed check prints one line
    // and ends the process with status 1, as it does the C++ examples.
    py::class_<GsnCommandLineChecks>(m, "GsnCommandLineChecks")
        .def(py::init<std::string>(), py::arg("program"))
        .def(
            "AddValue",
            [](GsnCommandLineChecks& c,
               py::object cmd,
               const std::string& name,
               const std::string& help,
               py::object text) { c.AddValue(CommandLineOf(cmd), name, help, Text(cmd, text)); },
            py::arg("cmd"),
            py::arg("name"),
            py::arg("help"),
            py::arg("text"))
        .def(
            "Parse",
            [](const GsnCommandLineChecks& c, py::object cmd, py::list argv) {
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
                FlushPython();
                c.Parse(CommandLineOf(cmd), int(words.size()), pointers.data());
                CommandLineWriteBack(cmd);
            },
            py::arg("cmd"),
            py::arg("argv"))
        .def(
            "Fail",
            [](const GsnCommandLineChecks& c,
               const std::string& option,
               const std::string& value,
               const std::string& accepts) {
                FlushPython();
                c.Fail(option, value, accepts);
            },
            py::arg("option"),
            py::arg("value"),
            py::arg("accepts"))
        .def(
            "Integer",
            [](const GsnCommandLineChecks& c,
               const std::string& option,
               const std::string& text,
               int64_t min,
               int64_t max,
               const std::string& accepts) {
                FlushPython();
                return c.Integer(option, text, min, max, accepts);
            },
            py::arg("option"),
            py::arg("text"),
            py::arg("min"),
            py::arg("max"),
            py::arg("accepts") = "")
        .def(
            "Real",
            [](const GsnCommandLineChecks& c,
               const std::string& option,
               const std::string& text,
               double min,
               double max,
               const std::string& accepts) {
                FlushPython();
                return c.Real(option, text, min, max, accepts);
            },
            py::arg("option"),
            py::arg("text"),
            py::arg("min"),
            py::arg("max"),
            py::arg("accepts") = "")
        .def(
            "Boolean",
            [](const GsnCommandLineChecks& c, const std::string& option, const std::string& text) {
                FlushPython();
                return c.Boolean(option, text);
            },
            py::arg("option"),
            py::arg("text"))
        .def(
            "Duration",
            [](const GsnCommandLineChecks& c,
               const std::string& option,
               const std::string& text,
               Time min,
               Time max,
               const std::string& accepts) {
                FlushPython();
                return c.Duration(option, text, min, max, accepts);
            },
            py::arg("option"),
            py::arg("text"),
            py::arg("min"),
            py::arg("max"),
            py::arg("accepts") = "")
        .def(
            "Choice",
            [](const GsnCommandLineChecks& c,
               const std::string& option,
               const std::string& text,
               const std::vector<std::string>& names) {
                FlushPython();
                return c.Choice(option, text, names);
            },
            py::arg("option"),
            py::arg("text"),
            py::arg("names"))
        .def(
            "WritableFile",
            [](const GsnCommandLineChecks& c, const std::string& option, const std::string& path) {
                FlushPython();
                c.WritableFile(option, path);
            },
            py::arg("option"),
            py::arg("path"))
        .def(
            "ReadableFile",
            [](const GsnCommandLineChecks& c, const std::string& option, const std::string& path) {
                FlushPython();
                c.ReadableFile(option, path);
            },
            py::arg("option"),
            py::arg("path"))
        .def(
            "SchedulerType",
            [](const GsnCommandLineChecks& c, const std::string& option, const std::string& name) {
                FlushPython();
                c.SchedulerType(option, name);
            },
            py::arg("option"),
            py::arg("name"))
        .def(
            "Fabric",
            [](const GsnCommandLineChecks& c,
               const std::string& option,
               const std::string& value,
               const GsnTopology& topology,
               const std::string& routingOption,
               const std::string& routing) {
                FlushPython();
                c.Fabric(option, value, topology, routingOption, routing);
            },
            py::arg("option"),
            py::arg("value"),
            py::arg("topology"),
            py::arg("routingOption"),
            py::arg("routing"))
        .def_static("List", &GsnCommandLineChecks::List, py::arg("names"));
}

} // namespace ns3py
