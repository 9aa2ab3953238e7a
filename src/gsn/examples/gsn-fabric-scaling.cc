/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A scaling run: any fabric the builders make (or one read from a topology file) of any
 * size, under a chosen traffic pattern and load, with progress printed during long runs and
 * the figures a study needs at the end (throughput, latency, events, wall time).
 *
 * Usage: gsn-fabric-scaling [--topology=fattree] [--k=8] [--n=2] [--x=4] [--y=4]
 *                           [--file=PATH] [--load=0.5] [--size=60000] [--simTime=1ms]
 *                           [--pattern=UniformRandom] [--vc=3] [--routing=Auto]
 *                           [--linkMode=Micropacket] [--errorRate=0] [--seed=1]
 *                           [--progress=1] [--drain=1] [--drainLimit=100ms] [--json=FILE]
 *                           [--scheduler=ns3::GsnTimingWheelScheduler] [--mpi=1]
 *                           [--sync=Distributed|NullMessage] [--partition=auto|blocks|graph]
 *   --topology: fattree (k), karyntree (k, n), mesh (x, y), torus (x, y), star (k), file
 * A bad value prints one line naming the option and exits with status 1.
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // Options are read as text and checked by GsnCommandLineChecks: one line and exit
    // status 1 for a bad value, instead of a wrapped number or a library abort.
    std::string topology = "fattree";
    std::string kText = "8";
    std::string nText = "2";
    std::string xText = "4";
    std::string yText = "4";
    std::string file;
    std::string loadText = "0.5";
    std::string sizeText = "60000";
    std::string simTimeText = "1ms";
    std::string pattern = "UniformRandom";
    std::string vcText = "3";
    std::string routing = "Auto";
    std::string seedText = "1";
    std::string errorRateText = "0";
    std::string progressText = "1";
    std::string drainText = "0";
    std::string drainLimitText = "100ms";
    std::string json;
    std::string scheduler = "ns3::GsnTimingWheelScheduler";
    std::string linkMode = "Micropacket";
    std::string mpiText = "0";
    std::string sync = "Distributed";
    std::string partition = "auto";

    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("gsn-fabric-scaling");
    check.AddValue(cmd, "topology", "fattree, karyntree, mesh, torus, star or file", topology);
    check.AddValue(cmd,
                   "k",
                   "fattree: switch ports (even); karyntree: arity; star: endpoints",
                   kText);
    check.AddValue(cmd, "n", "karyntree: levels", nText);
    check.AddValue(cmd, "x", "mesh/torus: switches along x", xText);
    check.AddValue(cmd, "y", "mesh/torus: switches along y", yText);
    check.AddValue(cmd, "file", "topology file (with --topology=file)", file);
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
    check.AddValue(cmd,
                   "linkMode",
                   "Micropacket (the reference) or Run (fewer events, approximate under "
                   "contention)",
                   linkMode);
    check.AddValue(cmd,
                   "errorRate",
                   "Probability (0 to 1) that a link corrupts a micropacket (go-back-N resends it)",
                   errorRateText);
    check.AddValue(cmd, "seed", "Run number (RngRun)", seedText);
    check.AddValue(cmd, "progress", "Print progress every few wall seconds", progressText);
    check.AddValue(cmd,
                   "drain",
                   "1: after simTime, run until no Message is in flight (at most drainLimit); "
                   "0: stop 1 ms after simTime",
                   drainText);
    check.AddValue(cmd, "drainLimit", "Longest time to drain with --drain=1", drainLimitText);
    check.AddValue(cmd, "json", "Write the summary as JSON to this file", json);
    check.AddValue(cmd,
                   "scheduler",
                   "ns-3 event scheduler (the same events in the same order under each; the "
                   "default is the fastest on large fabrics)",
                   scheduler);
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

    check.Choice("topology", topology, {"fattree", "karyntree", "mesh", "torus", "star", "file"});
    // Ranges per shape; the builder then refuses fabrics above its element limit.
    const uint32_t maxPorts = GsnTopology::MAX_PORTS;
    GsnTopology t;
    try
    {
        if (topology == "fattree")
        {
            const std::string even = "must be an even integer from 2 to 64 with --topology=fattree";
            const auto k = uint32_t(check.Integer("k", kText, 2, 64, even));
            if (k % 2 != 0)
            {
                check.Fail("k", kText, even);
            }
            t = GsnTopologyBuilder::FatTree(k);
        }
        else if (topology == "karyntree")
        {
            const auto k = uint32_t(check.Integer("k", kText, 2, maxPorts));
            const auto n = uint32_t(check.Integer("n", nText, 1, 64));
            t = GsnTopologyBuilder::KaryNTree(k, n);
        }
        else if (topology == "mesh" || topology == "torus")
        {
            const auto x = uint32_t(check.Integer("x", xText, 1, maxPorts));
            const auto y = uint32_t(check.Integer("y", yText, 1, maxPorts));
            t = topology == "mesh" ? GsnTopologyBuilder::Mesh2D(x, y)
                                   : GsnTopologyBuilder::Torus2D(x, y);
        }
        else if (topology == "star")
        {
            t = GsnTopologyBuilder::Star(uint32_t(check.Integer("k", kText, 1, maxPorts)));
        }
        else
        {
            check.ReadableFile("file", file);
            t = GsnTopology::ReadFile(file);
        }
    }
    catch (const std::exception& e)
    {
        if (topology == "file")
        {
            check.Fail("file", file, e.what());
        }
        check.Fail("topology", topology, e.what());
    }
    check.Fabric(topology == "file" ? "file" : "topology",
                 topology == "file" ? file : topology,
                 t,
                 "routing",
                 routing);
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
    check.Choice("pattern",
                 pattern,
                 {"UniformRandom", "Permutation", "AllToAll", "Incast", "HotSpot"});
    const auto vc = uint32_t(check.Integer("vc", vcText, 0, 4));
    check.Choice("linkMode", linkMode, {"Micropacket", "Run"});
    const double errorRate = check.Real("errorRate", errorRateText, 0.0, 1.0);
    const auto seed =
        uint64_t(check.Integer("seed", seedText, 0, std::numeric_limits<int64_t>::max()));
    const bool progress = check.Boolean("progress", progressText);
    const bool drain = check.Boolean("drain", drainText);
    const Time drainLimit = check.Duration("drainLimit", drainLimitText, NanoSeconds(1), Days(1));
    check.WritableFile("json", json);
    check.SchedulerType("scheduler", scheduler);
    GlobalValue::Bind("SchedulerType", StringValue(scheduler));
    RngSeedManager::SetRun(seed);
    const GsnFabricHelper::PartitionMethod partitionMethod =
        GsnMpiHelper::PartitionFromCommandLine(check, partition);
    const bool mpi =
        GsnMpiHelper::EnableFromCommandLine(check, mpiText, sync, drain, drainText, &argc, &argv);
    const uint32_t ranks = GsnMpiHelper::GetSize();
    const uint32_t rank = GsnMpiHelper::GetRank();

    const auto wall0 = std::chrono::steady_clock::now();
    GsnFabricHelper fabricHelper;
    fabricHelper.SetRoutingAlgorithm(routing);
    fabricHelper.SetLinkMode(linkMode);
    fabricHelper.SetPartitionMethod(partitionMethod);
    fabricHelper.SetRanks(ranks);
    GsnFabric fabric = fabricHelper.Install(t);
    const int64_t streams = fabricHelper.AssignStreams(fabric, 1);
    if (errorRate > 0.0)
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
    traffic.SetStatsAttribute("WindowStart", TimeValue(simTime / 10));
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
    const auto wall1 = std::chrono::steady_clock::now();

    std::unique_ptr<ShowProgress> show;
    if (progress && rank == 0)
    {
        show = std::make_unique<ShowProgress>(Seconds(2), std::cerr);
    }
    if (drain)
    {
        stats->StopWhenDrained(simTime, drainLimit);
    }
    else
    {
        Simulator::Stop(simTime + MilliSeconds(1));
    }
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    const auto wall2 = std::chrono::steady_clock::now();
    const uint64_t events = Simulator::GetEventCount() - events0;
    show.reset();

    const double build = std::chrono::duration<double>(wall1 - wall0).count();
    const double run = std::chrono::duration<double>(wall2 - wall1).count();
    GsnMpiHelper::GatherStats(stats);
    const std::vector<double> rankEvents = GsnMpiHelper::GatherValue(double(events));
    const std::vector<double> rankRun = GsnMpiHelper::GatherValue(run);
    const std::vector<double> rankAhead =
        GsnMpiHelper::GatherValue(double(GsnMpiHelper::GetMicropacketsReceivedAhead()));
    const std::vector<double> rankPorts = GsnMpiHelper::GatherValue(fabric.GetNLocalPorts());
    std::ostringstream discard;
    std::ostream& cout = rank == 0 ? std::cout : discard;
    cout << "GSN " << topology << ": " << fabric.endpoints.GetN() << " endpoints, "
         << fabric.switches.GetN() << " switches; " << pattern << ", " << size << "-byte Messages, "
         << load * 100 << "% load, " << simTime.As(Time::MS) << " of traffic\n";
    if (drain)
    {
        cout << (stats->IsDrained() ? "Drained at "
                                    : "Not drained within --drainLimit: stopped at ")
             << stats->GetDrainStop().As(Time::US) << "\n";
    }
    stats->Print(cout, false);
    // (ShowProgress's own events, spaced by wall time, vary by a few between runs.)
    cout << "events " << events << (progress ? " (with the progress meter's)" : "") << ", build "
         << build << " s, run " << run << " s, " << events / std::max(run, 1e-9) << " events/s, "
         << run / (simTime.GetSeconds() * 1e3 + 1.0) << " wall s per simulated ms\n";
    if (mpi)
    {
        // How the fabric was split: the cables between ranks are what MPI carries.
        std::vector<uint32_t> perRank(ranks, 0);
        for (uint32_t r : fabric.elementRanks)
        {
            ++perRank[r];
        }
        const auto method = GsnFabricHelper::ChooseMethod(t, partitionMethod);
        cout << "partition: " << partition << " ("
             << (method == GsnFabricHelper::GRAPH ? "graph" : "blocks") << "), "
             << GsnFabricHelper::CountCutCables(t, fabric.elementRanks) << " of "
             << t.GetCables().size() << " cables cut, elements per rank:";
        for (uint32_t n : perRank)
        {
            cout << " " << n;
        }
        // (Each rank builds only its own elements' ports.)
        cout << ", ports built per rank:";
        for (double n : rankPorts)
        {
            cout << " " << uint64_t(n);
        }
        cout << " (of " << fabric.GetAllPorts().GetN() << ")\n";
    }
    if (ranks > 1)
    {
        // (The line above is rank 0's; each rank's own figures:)
        for (uint32_t r = 0; r < rankEvents.size(); ++r)
        {
            cout << "rank " << r << " of " << ranks << ": events " << uint64_t(rankEvents[r])
                 << ", received ahead " << uint64_t(rankAhead[r]) << ", run " << rankRun[r]
                 << " s\n";
        }
    }
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
    Simulator::Destroy();
    GsnMpiHelper::Disable();
    return 0;
}
