/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of GsnMpiHelper: a fabric split over the ranks of an MPI job (ns-3's
 * distributed simulator). IsAvailable() and the examples' option checks (EnableFromCommandLine,
 * PartitionFromCommandLine) exist in every build; the rest only where the build has ns-3's
 * mpi module (NS3_MPI, given to this file alone, as src/gsn gives it to the files that use
 * MPI). What the C++ helper would abort on, or MPI would fail on (enabling MPI
 * twice, or after the simulator was in use), raises ValueError.
 */
#include "ns3-py.h"

#include "ns3/application-container.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-mpi-helper.h"
#include "ns3/gsn-traffic-stats.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <string>
#include <vector>

namespace ns3py
{

using namespace ns3;

namespace
{

/// What the script did with MPI: MPI can start once and cannot start again once ended.
enum class MpiState
{
    NEVER,
    ENABLED,
    DISABLED,
};

MpiState g_state = MpiState::NEVER; ///< this process's MPI

/// The argument words given to MPI_Init (it may keep pointers into them: kept for the run).
std::vector<std::string> g_words;
std::vector<char*> g_pointers; ///< pointers into g_words, then a null pointer
int g_argc = 0;                ///< MPI_Init's argc
char** g_argv = nullptr;       ///< MPI_Init's argv

/// End MPI if this process enabled it and has not ended it yet.
void
Disable()
{
    if (g_state == MpiState::ENABLED)
    {
        GsnMpiHelper::Disable();
        g_state = MpiState::DISABLED;
    }
}

/// Raise ValueError unless MPI can start now; keep \p argv (a list of words, or None) for
/// MPI_Init in g_argc and g_argv.
void
PrepareEnable(py::object argv, const std::string& where)
{
    if (g_state == MpiState::ENABLED)
    {
        throw py::value_error(where + ": MPI is already enabled");
    }
    if (g_state == MpiState::DISABLED)
    {
        throw py::value_error(where + ": MPI was ended by Disable() and cannot start again in "
                                      "this process");
    }
    g_words.clear();
    if (!argv.is_none())
    {
        for (auto word : argv.cast<py::list>())
        {
            g_words.push_back(py::str(word));
        }
    }
    g_pointers.clear();
    for (auto& w : g_words)
    {
        g_pointers.push_back(w.data());
    }
    g_pointers.push_back(nullptr);
    g_argc = int(g_words.size());
    g_argv = g_pointers.data();
    FlushPython();
}

/**
 * MPI has started: end it at the latest when the interpreter exits (mpirun reports a process
 * that exits without MPI_Finalize as failed). Raise ValueError if the simulator was in use
 * before (a node, or any Simulator function, makes the default implementation, and ns-3
 * keeps it): a split fabric would run without synchronisation and crash at its first
 * message across ranks. (Nothing can tell beforehand without making the implementation.)
 */
void
NoteEnabled(const std::string& where)
{
    g_state = MpiState::ENABLED;
    py::module_::import("atexit").attr("register")(py::cpp_function([]() { Disable(); }));
    const std::string type = Simulator::GetImplementation()->GetInstanceTypeId().GetName();
    if (type != "ns3::DistributedSimulatorImpl" && type != "ns3::NullMessageSimulatorImpl")
    {
        throw py::value_error(where +
                              ": the simulator was in use before MPI was enabled (a "
                              "Node created, or a Simulator function called), so it "
                              "runs " +
                              type + ": enable MPI first");
    }
}

#ifdef NS3_MPI
/// Enable MPI with \p sync, passing \p argv (a list of words, or None) to MPI_Init.
void
Enable(py::object argv, const std::string& sync)
{
    if (sync != "Distributed" && sync != "NullMessage")
    {
        throw py::value_error("GsnMpiHelper.Enable: synchronisation \"" + sync +
                              "\": Distributed or NullMessage");
    }
    if (!GsnMpiHelper::IsAvailable())
    {
        throw py::value_error("GsnMpiHelper.Enable: this build has no ns-3 mpi module "
                              "(GSN_ENABLE_MPI with libopenmpi-dev)");
    }
    PrepareEnable(argv, "GsnMpiHelper.Enable");
    GsnMpiHelper::Enable(&g_argc, &g_argv, sync);
    NoteEnabled("GsnMpiHelper.Enable");
}
#endif

/// GsnMpiHelper::EnableFromCommandLine: a bad option ends the process with one line, as in C++.
bool
EnableFromCommandLine(const GsnCommandLineChecks& check,
                      const std::string& mpiText,
                      const std::string& sync,
                      bool drain,
                      const std::string& drainText,
                      py::object argv)
{
    FlushPython();
    // (The helper's first check: a bad --mpi value ends the process before anything else.)
    const bool mpi = check.Boolean("mpi", mpiText);
    if (mpi && GsnMpiHelper::IsAvailable())
    {
        PrepareEnable(argv, "GsnMpiHelper.EnableFromCommandLine");
    }
    const bool enabled = GsnMpiHelper::EnableFromCommandLine(check,
                                                             mpiText,
                                                             sync,
                                                             drain,
                                                             drainText,
                                                             &g_argc,
                                                             &g_argv);
    if (enabled)
    {
        NoteEnabled("GsnMpiHelper.EnableFromCommandLine");
    }
    return enabled;
}

} // namespace

void
BindGsnMpi(py::module_& m)
{
    // IsAvailable() and the examples' option checks in every build (without MPI, --mpi=1 is
    // refused with one line); the rest where the build has ns-3's mpi module.
    py::class_<GsnMpiHelper> mpi(m, "GsnMpiHelper");
    mpi.def_static("IsAvailable", &GsnMpiHelper::IsAvailable)
        .def_static("EnableFromCommandLine",
                    &EnableFromCommandLine,
                    py::arg("check"),
                    py::arg("mpiText"),
                    py::arg("sync"),
                    py::arg("drain"),
                    py::arg("drainText"),
                    py::arg("argv"))
        .def_static(
            "PartitionFromCommandLine",
            [](const GsnCommandLineChecks& check, const std::string& partition) {
                FlushPython();
                return GsnMpiHelper::PartitionFromCommandLine(check, partition);
            },
            py::arg("check"),
            py::arg("partition"));
#ifdef NS3_MPI
    mpi.def_static("Enable", &Enable, py::arg("argv"), py::arg("sync"))
        .def_static(
            "Enable",
            [](const std::string& sync) { Enable(py::none(), sync); },
            py::arg("sync"))
        .def_static("GetRank", &GsnMpiHelper::GetRank)
        .def_static("GetSize", &GsnMpiHelper::GetSize)
        .def_static(
            "StartLocalOnly",
            [](ApplicationContainer apps, const GsnFabric& fabric) {
                for (uint32_t i = 0; i < apps.GetN(); ++i)
                {
                    if (!apps.Get(i)->GetNode())
                    {
                        throw py::value_error("GsnMpiHelper.StartLocalOnly: application " +
                                              std::to_string(i) + " is on no node");
                    }
                }
                GsnMpiHelper::StartLocalOnly(apps, fabric);
            },
            py::arg("apps"),
            py::arg("fabric"))
        .def_static(
            "GatherStats",
            [](Ptr<GsnTrafficStats> stats) {
                if (!stats)
                {
                    throw py::value_error("GsnMpiHelper.GatherStats: no statistics");
                }
                GsnMpiHelper::GatherStats(stats);
            },
            py::arg("stats"))
        .def_static("GatherValue", &GsnMpiHelper::GatherValue, py::arg("value"))
        .def_static("GetMicropacketsReceivedAhead", &GsnMpiHelper::GetMicropacketsReceivedAhead)
        .def_static("Disable", &Disable);
#endif
}

} // namespace ns3py
