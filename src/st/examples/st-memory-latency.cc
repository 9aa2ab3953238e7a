/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ST persistent-memory latency: host 0 asks host 1 for a region (RMR/MRA), then measures
 * rounds of PUT (one way, time-stamped in the data), GET and FETCHOP (round trips) with
 * StMemoryProbe against an StServer, over a GSN cable or through a GSN switch, and prints
 * minimum, mean and maximum of each.
 *
 * Usage: st-memory-latency [--size=BYTES] [--iterations=N] [--switch=1] [--length=M]
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
    uint32_t size = 64;
    uint32_t iterations = 100;
    bool throughSwitch = false;
    double length = 10.0;

    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "Bytes per PUT and GET (8..65535)", size);
    cmd.AddValue("iterations", "Rounds of PUT, GET, FETCHOP", iterations);
    cmd.AddValue("switch", "Through one GSN switch instead of a cable", throughSwitch);
    cmd.AddValue("length", "Cable length in metres (back to back)", length);
    cmd.Parse(argc, argv);
    if (size < 8 || size > 65535)
    {
        std::cerr << "--size must be 8..65535" << std::endl;
        return 1;
    }

    NodeContainer hosts;
    NetDeviceContainer devices;
    GsnFabricHelper fabricHelper;
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
        devices = gsn.Install(hosts);
    }
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
    std::cout << ": " << p->GetRounds() << " rounds\n";
    Print("PUT one way     ", g_put);
    Print("GET round trip  ", p->GetGetStats());
    Print("FETCHOP round tr", p->GetFetchOpStats());
    std::cout << "  FETCHOP counter reached " << p->GetLastFetchValue() + 1 << std::endl;
    const bool ok = p->GetRounds() == iterations && p->GetLastFetchValue() + 1 == iterations;
    Simulator::Destroy();
    return ok ? 0 : 1;
}
