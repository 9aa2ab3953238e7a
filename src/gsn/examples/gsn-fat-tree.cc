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
 *                     [--json=FILE] [--csv=FILE] [--pcap=1] [--details=1]
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"

#include <fstream>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    double load = 0.5;
    uint32_t size = 60000;
    Time simTime = MilliSeconds(1);
    Time warmup = MicroSeconds(100);
    std::string pattern = "UniformRandom";
    uint32_t vc = 3;
    std::string routing = "Auto";
    uint32_t seed = 1;
    std::string json;
    std::string csv;
    bool pcap = false;
    bool details = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Switch ports of the fat tree (even): k^3/4 endpoints", k);
    cmd.AddValue("load", "Offered load per endpoint, fraction of 6.4 Gbit/s", load);
    cmd.AddValue("size", "Message payload bytes", size);
    cmd.AddValue("simTime", "Time during which endpoints generate traffic", simTime);
    cmd.AddValue("warmup", "Start of the measurement window", warmup);
    cmd.AddValue("pattern", "UniformRandom, Permutation, AllToAll, Incast or HotSpot", pattern);
    cmd.AddValue(
        "vc",
        "Virtual channel of the traffic (0-3; 4: random among those that carry the Message)",
        vc);
    cmd.AddValue("routing", "Auto, MinHop, UpDown or DimensionOrder", routing);
    cmd.AddValue("seed", "Run number (RngRun) of the random streams", seed);
    cmd.AddValue("json", "Write the summary as JSON to this file", json);
    cmd.AddValue("csv", "Write every Message (source, destination, bytes, times) as CSV", csv);
    cmd.AddValue("pcap", "Write pcap traces of the endpoints (gsn-fat-tree-*.pcap)", pcap);
    cmd.AddValue("details", "Also print one line per endpoint and per port", details);
    cmd.Parse(argc, argv);
    if (k < 2 || k % 2 != 0)
    {
        std::cerr << "--k must be an even number >= 2" << std::endl;
        return 1;
    }
    RngSeedManager::SetRun(seed);

    GsnFabricHelper fabricHelper;
    fabricHelper.SetRoutingAlgorithm(routing);
    GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::FatTree(k));
    fabricHelper.AssignStreams(fabric, 1);

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
    // Links come up in a few microseconds; traffic starts after that.
    apps.Start(MicroSeconds(5));
    apps.Stop(simTime);
    Ptr<GsnTrafficStats> stats = traffic.GetStats();
    stats->AddLinks(fabric.GetAllPorts());
    if (pcap)
    {
        fabricHelper.EnablePcap("gsn-fat-tree", fabric.endpointDevices);
    }

    // Let Messages in flight at the end drain before the statistics are read.
    Simulator::Stop(simTime + MilliSeconds(1));
    Simulator::Run();

    std::cout << "GSN fat tree k=" << k << ": " << fabric.endpoints.GetN() << " endpoints, "
              << fabric.switches.GetN() << " switches; " << pattern << " traffic of " << size
              << "-byte Messages at " << load * 100 << "% load on VC " << vc << ", "
              << simTime.As(Time::MS) << " (window from " << warmup.As(Time::US) << ")\n";
    stats->Print(std::cout, details);
    if (!json.empty())
    {
        std::ofstream out(json);
        stats->WriteSummaryJson(out);
    }
    if (!csv.empty())
    {
        stats->WriteCsv(csv);
    }
    Simulator::Destroy();
    return 0;
}
