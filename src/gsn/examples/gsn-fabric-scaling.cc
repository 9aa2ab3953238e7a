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
 *                           [--seed=1] [--progress=1] [--json=FILE]
 *   --topology: fattree (k), karyntree (k, n), mesh (x, y), torus (x, y), star (k), file
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"

#include <chrono>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

GsnTopology
BuildTopology(const std::string& kind,
              uint32_t k,
              uint32_t n,
              uint32_t x,
              uint32_t y,
              const std::string& file)
{
    if (kind == "fattree")
    {
        return GsnTopologyBuilder::FatTree(k);
    }
    if (kind == "karyntree")
    {
        return GsnTopologyBuilder::KaryNTree(k, n);
    }
    if (kind == "mesh")
    {
        return GsnTopologyBuilder::Mesh2D(x, y);
    }
    if (kind == "torus")
    {
        return GsnTopologyBuilder::Torus2D(x, y);
    }
    if (kind == "star")
    {
        return GsnTopologyBuilder::Star(k);
    }
    if (kind == "file")
    {
        return GsnTopology::ReadFile(file);
    }
    throw std::invalid_argument("unknown --topology " + kind);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string topology = "fattree";
    uint32_t k = 8;
    uint32_t n = 2;
    uint32_t x = 4;
    uint32_t y = 4;
    std::string file;
    double load = 0.5;
    uint32_t size = 60000;
    Time simTime = MilliSeconds(1);
    std::string pattern = "UniformRandom";
    uint32_t vc = 3;
    std::string routing = "Auto";
    uint32_t seed = 1;
    double errorRate = 0.0;
    bool progress = true;
    std::string json;
    std::string scheduler = "ns3::GsnTimingWheelScheduler";

    CommandLine cmd(__FILE__);
    std::string linkMode = "Micropacket";
    cmd.AddValue("topology", "fattree, karyntree, mesh, torus, star or file", topology);
    cmd.AddValue("k", "fattree: switch ports; karyntree: arity; star: endpoints", k);
    cmd.AddValue("n", "karyntree: levels", n);
    cmd.AddValue("x", "mesh/torus: switches along x", x);
    cmd.AddValue("y", "mesh/torus: switches along y", y);
    cmd.AddValue("file", "topology file (with --topology=file)", file);
    cmd.AddValue("load", "Offered load per endpoint, fraction of 6.4 Gbit/s", load);
    cmd.AddValue("size", "Message payload bytes", size);
    cmd.AddValue("simTime", "Time during which endpoints generate traffic", simTime);
    cmd.AddValue("pattern", "UniformRandom, Permutation, AllToAll, Incast or HotSpot", pattern);
    cmd.AddValue(
        "vc",
        "Virtual channel of the traffic (0-3; 4: random among those that carry the Message)",
        vc);
    cmd.AddValue("routing", "Auto, MinHop, UpDown or DimensionOrder", routing);
    cmd.AddValue("linkMode",
                 "Micropacket (the reference) or Run (fewer events, approximate under "
                 "contention)",
                 linkMode);
    cmd.AddValue("errorRate",
                 "Probability that a link corrupts a micropacket (go-back-N resends it)",
                 errorRate);
    cmd.AddValue("seed", "Run number (RngRun)", seed);
    cmd.AddValue("progress", "Print progress every few wall seconds", progress);
    cmd.AddValue("json", "Write the summary as JSON to this file", json);
    cmd.AddValue("scheduler",
                 "ns-3 event scheduler (the same events in the same order under each; the "
                 "default is the fastest on large fabrics)",
                 scheduler);
    cmd.Parse(argc, argv);
    GlobalValue::Bind("SchedulerType", StringValue(scheduler));
    if (errorRate < 0.0 || errorRate > 1.0)
    {
        std::cerr << "gsn-fabric-scaling: --errorRate must be in [0, 1], not " << errorRate
                  << std::endl;
        return 1;
    }
    RngSeedManager::SetRun(seed);

    GsnTopology t;
    try
    {
        t = BuildTopology(topology, k, n, x, y, file);
    }
    catch (const std::exception& e)
    {
        std::cerr << "gsn-fabric-scaling: " << e.what() << std::endl;
        return 1;
    }

    const auto wall0 = std::chrono::steady_clock::now();
    GsnFabricHelper fabricHelper;
    fabricHelper.SetRoutingAlgorithm(routing);
    fabricHelper.SetLinkMode(linkMode);
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
    apps.Start(MicroSeconds(5));
    apps.Stop(simTime);
    Ptr<GsnTrafficStats> stats = traffic.GetStats();
    stats->AddLinks(fabric.GetAllPorts());
    const auto wall1 = std::chrono::steady_clock::now();

    std::unique_ptr<ShowProgress> show;
    if (progress)
    {
        show = std::make_unique<ShowProgress>(Seconds(2), std::cerr);
    }
    Simulator::Stop(simTime + MilliSeconds(1));
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    const auto wall2 = std::chrono::steady_clock::now();
    const uint64_t events = Simulator::GetEventCount() - events0;
    show.reset();

    const double build = std::chrono::duration<double>(wall1 - wall0).count();
    const double run = std::chrono::duration<double>(wall2 - wall1).count();
    std::cout << "GSN " << topology << ": " << fabric.endpoints.GetN() << " endpoints, "
              << fabric.switches.GetN() << " switches; " << pattern << ", " << size
              << "-byte Messages, " << load * 100 << "% load, " << simTime.As(Time::MS)
              << " of traffic\n";
    stats->Print(std::cout, false);
    // (ShowProgress's own events, spaced by wall time, vary by a few between runs.)
    std::cout << "events " << events << (progress ? " (with the progress meter's)" : "")
              << ", build " << build << " s, run " << run << " s, " << events / std::max(run, 1e-9)
              << " events/s, " << run / (simTime.GetSeconds() * 1e3 + 1.0)
              << " wall s per simulated ms\n";
    if (!json.empty())
    {
        std::ofstream out(json);
        stats->WriteSummaryJson(out);
    }
    Simulator::Destroy();
    return 0;
}
