/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ST persistent-memory latency: host 0 asks host 1 for a region (RMR/MRA), then measures
 * rounds of PUT (one way, time-stamped in the data), GET and FETCHOP (round trips) with
 * StMemoryProbe against an StServer, over a GSN cable or through a GSN switch, and prints
 * minimum, mean and maximum of each.
 *
 * Usage: st-memory-latency [--size=BYTES] [--iterations=N] [--switch=1] [--length=M]
 *                          [--host=Ideal|Adapter|Origin2000]
 * A bad value prints one line naming the option and exits with status 1.
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"
#include "ns3/st-module.h"

#include <iostream>

using namespace ns3;

namespace
{
StMemoryProbe::Stats g_put; ///< one-way PUT latencies, from the server's trace

void
PutReceived(uint64_t, Time latency)
{
    g_put.Add(latency);
}

void
Print(const std::string& name, const StMemoryProbe::Stats& s)
{
    std::cout << "  " << name << ": " << s.count << " samples, min " << s.min.As(Time::NS)
              << ", mean " << s.Mean().As(Time::NS) << ", max " << s.max.As(Time::NS) << "\n";
}
} // namespace

int
main(int argc, char* argv[])
{
    // Options are read as text and checked (GsnCommandLineChecks): one line and exit
    // status 1 for a bad value, instead of a wrapped number or an abort.
    std::string sizeText = "64";
    std::string iterationsText = "100";
    std::string switchText = "0";
    std::string lengthText = "10";
    std::string hostText = "Ideal";

    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("st-memory-latency");
    check.AddValue(cmd, "size", "Bytes per PUT and GET (8..65535)", sizeText);
    check.AddValue(cmd, "iterations", "Rounds of PUT, GET, FETCHOP (1 to 1000000)", iterationsText);
    check.AddValue(cmd, "switch", "Through one GSN switch instead of a cable", switchText);
    check.AddValue(cmd, "length", "Cable length in metres (copper, 0.2 to 40)", lengthText);
    check.AddValue(cmd,
                   "host",
                   "Host adapter profile of both hosts: Ideal, Adapter or Origin2000",
                   hostText);
    check.Parse(cmd, argc, argv);
    const std::string host =
        check.Choice("host", hostText, GsnHostAdapterHelper::GetProfileNames());
    const auto size = uint32_t(check.Integer("size", sizeText, 8, 65535));
    const auto iterations = uint32_t(check.Integer("iterations", iterationsText, 1, 1000000));
    const bool throughSwitch = check.Boolean("switch", switchText);
    // 5 ns per metre: below 0.2 m the delay rounds to zero, which the channel refuses.
    const double length = check.Real("length",
                                     lengthText,
                                     0.2,
                                     40.0,
                                     "must be a number from 0.2 to 40 (metres of copper cable)");

    NodeContainer hosts;
    NetDeviceContainer devices;
    GsnFabricHelper fabricHelper;
    fabricHelper.SetHostProfile(host);
    GsnFabric fabric;
    if (throughSwitch)
    {
        fabric = fabricHelper.Install(GsnTopologyBuilder::Star(2));
        hosts = fabric.endpoints;
        devices = fabric.endpointDevices;
    }
    else
    {
        hosts.Create(2);
        GsnHelper gsn;
        gsn.SetChannelAttribute("Length", DoubleValue(length));
        gsn.SetHostProfile(host);
        devices = gsn.Install(hosts);
    }
    // A PUT is one STU (one Bufx entry of the server at most): a Bufsize that holds it.
    uint32_t bufsize = 14;
    while ((1u << bufsize) < size)
    {
        ++bufsize;
    }
    Config::SetDefault("ns3::StProtocol::Bufsize", UintegerValue(bufsize));
    StHelper st;
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    st.Install(devices, addresses);
    StHelper::PopulateStaticTables(hosts);

    StServerHelper server(5000);
    server.SetAttribute("BufferSize", UintegerValue(65536));
    const uint64_t regionSize = ((size + 7) & ~7u) + 8; // the bytes, then the FETCHOP word
    server.SetAttribute("RegionSize", UintegerValue(regionSize));
    ApplicationContainer serverApps = server.Install(hosts.Get(1));
    serverApps.Get(0)->TraceConnectWithoutContext("PutReceived", MakeCallback(&PutReceived));
    StMemoryProbeHelper probe(hosts.Get(1)->GetObject<StProtocol>()->GetLocalAddress(), 5000);
    probe.SetAttribute("Size", UintegerValue(size));
    probe.SetAttribute("RegionSize", UintegerValue(regionSize));
    probe.SetAttribute("Iterations", UintegerValue(iterations));
    ApplicationContainer probeApps = probe.Install(hosts.Get(0));
    probeApps.Start(MicroSeconds(10));

    Simulator::Stop(Seconds(1));
    Simulator::Run();

    Ptr<StMemoryProbe> p = DynamicCast<StMemoryProbe>(probeApps.Get(0));
    std::cout << "ST persistent memory, " << size << "-byte PUT/GET, "
              << (throughSwitch ? "through one GSN switch" : "GSN cable of ");
    if (!throughSwitch)
    {
        std::cout << length << " m";
    }
    if (host != "Ideal")
    {
        std::cout << " (host " << host << ")";
    }
    std::cout << ": " << p->GetRounds() << " rounds\n";
    Print("PUT one way     ", g_put);
    Print("GET round trip  ", p->GetGetStats());
    Print("FETCHOP round tr", p->GetFetchOpStats());
    std::cout << "  FETCHOP counter reached " << p->GetLastFetchValue() + 1 << std::endl;
    const bool ok = p->GetRounds() == iterations && p->GetLastFetchValue() + 1 == iterations;
    Simulator::Destroy();
    return ok ? 0 : 1;
}
