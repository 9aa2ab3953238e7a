/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The default scenario: a fat tree of GSN switches (a 3-level folded Clos of k-port
 * switches, k^3/4 endpoints: 16 for k = 4) under uniform random traffic of 60000-byte
 * Messages with Poisson arrivals; prints delivered throughput, latency percentiles, link
 * utilisation and credit stalls.
 *
 * Usage: gsn-fat-tree [--k=4] [--load=0.5] [--size=60000] [--simTime=1ms] [--warmup=100us]
 *                     [--pattern=UniformRandom] [--vc=3] [--routing=Auto] [--seed=1]
 *                     [--drain=1] [--drainLimit=100ms] [--json=FILE] [--csv=FILE] [--pcap=1]
 *                     [--details=1] [--errorRate=0] [--mpi=1 --sync=Distributed|NullMessage]
 *                     [--partition=auto|blocks|graph]
 * With ns-3's mpi module in the build: mpirun -np N gsn-fat-tree --mpi=1 splits the fabric
 * over N ranks (GsnFabricHelper::SetRanks); the statistics are gathered to rank 0, which
 * prints them and writes --json and --csv, as one process does.
 * A bad value prints one line naming the option and exits with status 1.
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"

#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // Options are read as text and checked by GsnCommandLineChecks: one line and exit
    // status 1 for a bad value, instead of a wrapped number or a library abort.
    std::string kText = "4";
    std::string loadText = "0.5";
    std::string sizeText = "60000";
    std::string simTimeText = "1ms";
    std::string warmupText = "100us";
    std::string pattern = "UniformRandom";
    std::string vcText = "3";
    std::string routing = "Auto";
    std::string seedText = "1";
    std::string drainText = "0";
    std::string drainLimitText = "100ms";
    std::string json;
    std::string csv;
    std::string pcapText = "0";
    std::string detailsText = "0";
    std::string errorRateText = "0";
    std::string mpiText = "0";
    std::string sync = "Distributed";
    std::string partition = "auto";

    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("gsn-fat-tree");
    check.AddValue(cmd,
                   "k",
                   "Switch ports of the fat tree (even, 2 to 64): k^3/4 endpoints",
                   kText);
    check.AddValue(cmd,
                   "load",
                   "Offered load per endpoint, fraction (0 to 1) of 6.4 Gbit/s",
                   loadText);
    check.AddValue(cmd,
                   "size",
                   "Message bytes, the 28-byte traffic header included (28 or more)",
                   sizeText);
    check.AddValue(cmd,
                   "simTime",
                   "Time during which endpoints generate traffic (traffic starts at 5us)",
                   simTimeText);
    check.AddValue(cmd, "warmup", "Start of the measurement window (before simTime)", warmupText);
    check.AddValue(cmd,
                   "pattern",
                   "UniformRandom, Permutation, AllToAll, Incast or HotSpot",
                   pattern);
    check.AddValue(
        cmd,
        "vc",
        "Virtual channel of the traffic (0-3; 4: random among those that carry the Message)",
        vcText);
    check.AddValue(cmd, "routing", "Auto, MinHop, UpDown or DimensionOrder", routing);
    check.AddValue(cmd, "seed", "Run number (RngRun) of the random streams", seedText);
    check.AddValue(cmd,
                   "drain",
                   "1: after simTime, run until no Message is in flight (at most drainLimit); "
                   "0: stop 1 ms after simTime",
                   drainText);
    check.AddValue(cmd, "drainLimit", "Longest time to drain with --drain=1", drainLimitText);
    check.AddValue(cmd, "json", "Write the summary as JSON to this file", json);
    check.AddValue(cmd,
                   "csv",
                   "Write every Message (source, destination, bytes, times) as CSV",
                   csv);
    check.AddValue(cmd,
                   "pcap",
                   "Write pcap traces of the endpoints (gsn-fat-tree-*.pcap)",
                   pcapText);
    check.AddValue(cmd, "details", "Also print one line per endpoint and per port", detailsText);
    check.AddValue(cmd,
                   "errorRate",
                   "Probability that a link corrupts a micropacket (0 to 0.1; 0: none)",
                   errorRateText);
    check.AddValue(cmd, "mpi", "Split the fabric over the MPI ranks of mpirun", mpiText);
    check.AddValue(cmd,
                   "sync",
                   "MPI synchronisation: Distributed (granted time windows) or NullMessage",
                   sync);
    check.AddValue(cmd,
                   "partition",
                   "How the fabric is split over the MPI ranks: auto (blocks for the builders' "
                   "shapes, graph for a topology file), blocks, or graph (METIS)",
                   partition);
    check.Parse(cmd, argc, argv);

    const auto k =
        uint32_t(check.Integer("k", kText, 2, 64, "must be an even integer from 2 to 64"));
    if (k % 2 != 0)
    {
        check.Fail("k", kText, "must be an even integer from 2 to 64");
    }
    const double load = check.Real("load", loadText, 0.0, 1.0);
    const auto size = uint32_t(check.Integer("size",
                                             sizeText,
                                             GsnTrafficHeader::SERIALIZED_SIZE,
                                             std::numeric_limits<uint32_t>::max()));
    const Time start = MicroSeconds(5); // links come up in a few microseconds
    const Time simTime = check.Duration("simTime",
                                        simTimeText,
                                        start + NanoSeconds(1),
                                        Days(1),
                                        "must be a time above 5us (traffic starts at 5us), "
                                        "at most 1d, e.g. 1ms");
    const Time warmup =
        check.Duration("warmup",
                       warmupText,
                       Seconds(0),
                       simTime - NanoSeconds(1),
                       "must be a time from 0 to below simTime (" + simTimeText + "), e.g. 100us");
    check.Choice("pattern",
                 pattern,
                 {"UniformRandom", "Permutation", "AllToAll", "Incast", "HotSpot"});
    const auto vc = uint32_t(check.Integer("vc", vcText, 0, 4));
    const auto seed =
        uint64_t(check.Integer("seed", seedText, 0, std::numeric_limits<int64_t>::max()));
    const bool drain = check.Boolean("drain", drainText);
    const Time drainLimit = check.Duration("drainLimit", drainLimitText, NanoSeconds(1), Days(1));
    check.WritableFile("json", json);
    check.WritableFile("csv", csv);
    const bool pcap = check.Boolean("pcap", pcapText);
    const bool details = check.Boolean("details", detailsText);
    const double errorRate = check.Real("errorRate", errorRateText, 0.0, 0.1);
    const GsnTopology topology = GsnTopologyBuilder::FatTree(k);
    check.Fabric("k", kText, topology, "routing", routing);
    RngSeedManager::SetRun(seed);
    const GsnFabricHelper::PartitionMethod partitionMethod =
        GsnMpiHelper::PartitionFromCommandLine(check, partition);
    GsnMpiHelper::EnableFromCommandLine(check, mpiText, sync, drain, drainText, &argc, &argv);
    const uint32_t ranks = GsnMpiHelper::GetSize();
    const uint32_t rank = GsnMpiHelper::GetRank();

    GsnFabricHelper fabricHelper;
    fabricHelper.SetPartitionMethod(partitionMethod);
    fabricHelper.SetRanks(ranks);
    fabricHelper.SetRoutingAlgorithm(routing);
    GsnFabric fabric = fabricHelper.Install(topology);
    const int64_t streams = fabricHelper.AssignStreams(fabric, 1);
    if (errorRate > 0)
    {
        GsnHelper::SetMicropacketErrorRate(fabric.GetAllPorts(), errorRate, 1 + streams);
    }

    GsnTrafficHelper traffic;
    traffic.SetAttribute("Pattern", StringValue(pattern));
    traffic.SetAttribute("OfferedLoad", DoubleValue(load));
    traffic.SetAttribute(
        "MessageSize",
        StringValue("ns3::ConstantRandomVariable[Constant=" + std::to_string(size) + "]"));
    traffic.SetAttribute("Vc", UintegerValue(vc));
    traffic.SetStatsAttribute("WindowStart", TimeValue(warmup));
    traffic.SetStatsAttribute("WindowEnd", TimeValue(simTime));
    ApplicationContainer apps = traffic.Install(fabric.endpointDevices);
    traffic.AssignStreams(apps, 100000);
    apps.Start(start);
    apps.Stop(simTime);
    GsnMpiHelper::StartLocalOnly(apps, fabric); // (all of them in one process)
    Ptr<GsnTrafficStats> stats = traffic.GetStats();
    stats->SetPartial(ranks > 1);
    stats->AddLinks(fabric.GetAllPorts());
    stats->AddDropSources(fabric.endpointDevices, fabric.switches);
    if (pcap)
    {
        fabricHelper.EnablePcap("gsn-fat-tree", fabric.endpointDevices);
    }

    if (drain)
    {
        stats->StopWhenDrained(simTime, drainLimit);
    }
    else
    {
        // Let Messages in flight at the end drain before the statistics are read.
        Simulator::Stop(simTime + MilliSeconds(1));
    }
    Simulator::Run();

    GsnMpiHelper::GatherStats(stats);
    std::ostringstream discard;
    std::ostream& cout = rank == 0 ? std::cout : discard;
    cout << "GSN fat tree k=" << k << ": " << fabric.endpoints.GetN() << " endpoints, "
         << fabric.switches.GetN() << " switches; " << pattern << " traffic of " << size
         << "-byte Messages at " << load * 100 << "% load on VC " << vc << ", "
         << simTime.As(Time::MS) << " (window from " << warmup.As(Time::US) << ")\n";
    if (drain)
    {
        cout << (stats->IsDrained() ? "Drained at "
                                    : "Not drained within --drainLimit: stopped at ")
             << stats->GetDrainStop().As(Time::US) << "\n";
    }
    stats->Print(cout, details);
    if (!json.empty() && rank == 0)
    {
        std::ofstream out(json);
        stats->WriteSummaryJson(out);
        out.close();
        if (!out)
        {
            check.Fail("json", json, "could not be written");
        }
    }
    if (!csv.empty() && rank == 0)
    {
        std::ofstream out(csv);
        stats->WriteCsv(out);
        out.close();
        if (!out)
        {
            check.Fail("csv", csv, "could not be written");
        }
    }
    Simulator::Destroy();
    GsnMpiHelper::Disable();
    return 0;
}
