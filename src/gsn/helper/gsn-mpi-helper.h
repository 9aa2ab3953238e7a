/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMpiHelper: what a scenario needs to run split over MPI ranks with ns-3's mpi module:
 * choose the synchronisation algorithm and enable MPI, know its rank, gather the traffic
 * statistics to rank 0, and finish. Without the mpi module in the build, IsAvailable() is
 * false and Enable() refuses with a clear error; a one-process run needs none of it.
 */
#ifndef GSN_MPI_HELPER_H
#define GSN_MPI_HELPER_H

#include "gsn-command-line-checks.h"
#include "gsn-fabric-helper.h"

#include "ns3/application-container.h"
#include "ns3/gsn-traffic-stats.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief MPI set-up and statistics gathering for GSN scenarios split over ranks.
 */
class GsnMpiHelper
{
  public:
    /// \return true if this build has ns-3's mpi module (GsnRemoteChannel and this helper)
    static bool IsAvailable();

    /**
     * Choose the synchronisation algorithm and enable MPI (before any Node is created).
     * Aborts with a message when the build has no MPI or \p sync is unknown.
     * \param argc main's argc
     * \param argv main's argv
     * \param sync "Distributed" (granted time windows) or "NullMessage" (null messages)
     */
    static void Enable(int* argc, char*** argv, const std::string& sync);

    /**
     * An example's --mpi and --sync options: checked through \p check (a clear error for a
     * build without the mpi module, an unknown algorithm, or --drain with --mpi, since each
     * rank would see only its own Messages in flight), then MPI enabled if asked.
     * \param check the example's checks
     * \param mpiText the --mpi text \param sync the --sync text
     * \param drain the --drain value \param drainText its text
     * \param argc main's argc \param argv main's argv
     * \return whether MPI was enabled
     */
    static bool EnableFromCommandLine(const GsnCommandLineChecks& check,
                                      const std::string& mpiText,
                                      const std::string& sync,
                                      bool drain,
                                      const std::string& drainText,
                                      int* argc,
                                      char*** argv);

    /**
     * An example's --partition option, checked through \p check (before Enable(), so that
     * a bad value ends the program before MPI starts): "auto", "blocks" or "graph"; "graph"
     * needs the graph partitioner (METIS) in the build.
     * \param check the example's checks
     * \param partition the --partition text
     * \return the method for GsnFabricHelper::SetPartitionMethod
     */
    static GsnFabricHelper::PartitionMethod PartitionFromCommandLine(
        const GsnCommandLineChecks& check,
        const std::string& partition);

    /// \return this process's rank (0 without MPI)
    static uint32_t GetRank();

    /// \return the number of ranks (1 without MPI)
    static uint32_t GetSize();

    /**
     * Keep only the applications of this rank's nodes: those on other ranks' nodes never
     * start. (GsnTrafficHelper makes generators only for this rank's endpoints of a split
     * fabric; this is for applications installed on every node.)
     * \param apps applications, each on a node
     * \param fabric the fabric they run on
     */
    static void StartLocalOnly(ApplicationContainer apps, const GsnFabric& fabric);

    /**
     * Gather every rank's share of \p stats to rank 0, which then holds the whole run
     * (GsnTrafficStats::MergeShares). Collective: every rank calls it, after Simulator::Run.
     * \param stats this rank's statistics
     */
    static void GatherStats(Ptr<GsnTrafficStats> stats);

    /**
     * Gather one number from every rank to rank 0 (collective).
     * \param value this rank's number
     * \return on rank 0 every rank's number, by rank; elsewhere (and in one process) just
     *         \p value
     */
    static std::vector<double> GatherValue(double value);

    /**
     * \return the micropackets this rank received from other ranks ahead of their arrival so
     *         far (GsnRemoteChannel's ReceiveAhead): each is an event of its own, and then
     *         arrives as in one process, so a rank runs this many events more than its part of
     *         one process's
     */
    static uint64_t GetMicropacketsReceivedAhead();

    /// End MPI (after Simulator::Destroy), if Enable() started it.
    static void Disable();
};

} // namespace ns3

#endif /* GSN_MPI_HELPER_H */
