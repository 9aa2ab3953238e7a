/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-mpi-helper.h"

#include "ns3/abort.h"
#include "ns3/application.h"
#include "ns3/global-value.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <vector>

// ns-3 trees define NS3_MPI when configured with --enable-mpi, the standalone build for this
// file when GSN_ENABLE_MPI is on (src/gsn/CMakeLists.txt).
#ifdef NS3_MPI
#include "ns3/gsn-remote-channel.h"
#include "ns3/mpi-interface.h"
#endif

namespace ns3
{

void
GsnMpiHelper::StartLocalOnly(ApplicationContainer apps, const GsnFabric& /* fabric */)
{
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        const Ptr<Node> node = apps.Get(i)->GetNode();
        NS_ABORT_MSG_UNLESS(node,
                            "GsnMpiHelper::StartLocalOnly: application " << i << " is on no node");
        if (node->GetSystemId() != Simulator::GetSystemId())
        {
            // (Later than any run: the event is never reached.)
            apps.Get(i)->SetStartTime(Days(365000));
            apps.Get(i)->SetStopTime(Days(365001));
        }
    }
}

#ifdef NS3_MPI

bool
GsnMpiHelper::IsAvailable()
{
    return true;
}

void
GsnMpiHelper::Enable(int* argc, char*** argv, const std::string& sync)
{
    NS_ABORT_MSG_UNLESS(sync == "Distributed" || sync == "NullMessage",
                        "GsnMpiHelper: synchronisation '" << sync
                                                          << "': Distributed or NullMessage");
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(sync == "Distributed" ? "ns3::DistributedSimulatorImpl"
                                                        : "ns3::NullMessageSimulatorImpl"));
    MpiInterface::Enable(argc, argv);
}

uint32_t
GsnMpiHelper::GetRank()
{
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
}

uint32_t
GsnMpiHelper::GetSize()
{
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
}

void
GsnMpiHelper::GatherStats(Ptr<GsnTrafficStats> stats)
{
    const uint32_t ranks = GetSize();
    const uint32_t rank = GetRank();
    if (ranks < 2)
    {
        return;
    }
    const MPI_Comm comm = MpiInterface::GetCommunicator();
    const std::string share = rank == 0 ? std::string() : stats->WriteShare(rank);
    int length = int(share.size());
    std::vector<int> lengths(ranks, 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(ranks, 0);
    for (uint32_t r = 1; r < ranks; ++r)
    {
        offsets[r] = offsets[r - 1] + lengths[r - 1];
    }
    std::vector<char> all(rank == 0 ? size_t(offsets[ranks - 1]) + lengths[ranks - 1] : 1);
    MPI_Gatherv(share.data(),
                length,
                MPI_CHAR,
                all.data(),
                lengths.data(),
                offsets.data(),
                MPI_CHAR,
                0,
                comm);
    if (rank == 0)
    {
        std::vector<std::string> shares;
        for (uint32_t r = 1; r < ranks; ++r)
        {
            shares.emplace_back(all.data() + offsets[r], size_t(lengths[r]));
        }
        stats->MergeShares(shares);
    }
}

std::vector<double>
GsnMpiHelper::GatherValue(double value)
{
    const uint32_t ranks = GetSize();
    if (ranks < 2)
    {
        return {value};
    }
    std::vector<double> all(ranks, 0.0);
    MPI_Gather(&value,
               1,
               MPI_DOUBLE,
               all.data(),
               1,
               MPI_DOUBLE,
               0,
               MpiInterface::GetCommunicator());
    return GetRank() == 0 ? all : std::vector<double>{value};
}

uint64_t
GsnMpiHelper::GetMicropacketsReceivedAhead()
{
    return GsnRemoteChannel::GetMicropacketsReceivedAhead();
}

void
GsnMpiHelper::Disable()
{
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
}

#else // no mpi module: one process

bool
GsnMpiHelper::IsAvailable()
{
    return false;
}

void
GsnMpiHelper::Enable(int*, char***, const std::string&)
{
    NS_FATAL_ERROR("GsnMpiHelper: this build has no ns-3 mpi module (GSN_ENABLE_MPI with "
                   "libopenmpi-dev, or an ns-3 tree configured with --enable-mpi)");
}

uint32_t
GsnMpiHelper::GetRank()
{
    return 0;
}

uint32_t
GsnMpiHelper::GetSize()
{
    return 1;
}

void
GsnMpiHelper::GatherStats(Ptr<GsnTrafficStats>)
{
}

std::vector<double>
GsnMpiHelper::GatherValue(double value)
{
    return {value};
}

uint64_t
GsnMpiHelper::GetMicropacketsReceivedAhead()
{
    return 0;
}

void
GsnMpiHelper::Disable()
{
}

#endif

bool
GsnMpiHelper::EnableFromCommandLine(const GsnCommandLineChecks& check,
                                    const std::string& mpiText,
                                    const std::string& sync,
                                    bool drain,
                                    const std::string& drainText,
                                    int* argc,
                                    char*** argv)
{
    const bool mpi = check.Boolean("mpi", mpiText);
    check.Choice("sync", sync, {"Distributed", "NullMessage"});
    if (mpi && !IsAvailable())
    {
        check.Fail("mpi", mpiText, "needs ns-3's mpi module, which this build lacks");
    }
    if (mpi && drain)
    {
        check.Fail("drain", drainText, "is not available with --mpi=1");
    }
    if (mpi)
    {
        Enable(argc, argv, sync);
    }
    return mpi;
}

GsnFabricHelper::PartitionMethod
GsnMpiHelper::PartitionFromCommandLine(const GsnCommandLineChecks& check,
                                       const std::string& partition)
{
    check.Choice("partition", partition, {"auto", "blocks", "graph"});
    if (partition == "graph" && !GsnFabricHelper::HasGraphPartitioner())
    {
        check.Fail("partition",
                   partition,
                   "needs the graph partitioner (METIS), which this build lacks: install "
                   "libmetis-dev and configure again");
    }
    return partition == "graph"    ? GsnFabricHelper::GRAPH
           : partition == "blocks" ? GsnFabricHelper::BLOCKS
                                   : GsnFabricHelper::AUTO;
}

} // namespace ns3
