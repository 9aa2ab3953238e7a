/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ST over Ethernet: two hosts on a CSMA segment with an IPv4 stack; ST runs beside IP with
 * EtherType 0x8181 right after the MAC header and finds its peer through the node's ARP
 * cache (filled by NeighborCacheHelper). Host 0 writes to host 1 and measures a ping-pong;
 * the program prints goodput, round trips and what went on the wire.
 *
 *   host 0 ---- CSMA (100 Mbit/s) ---- host 1
 *
 * Usage: st-over-ethernet [--size=BYTES] [--transfers=N] [--rate=100Mbps] [--pcap=1]
 * A bad value prints one line naming the option and exits with status 1.
 */
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/gsn-command-line-checks.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/st-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // Options are read as text and checked (GsnCommandLineChecks): one line and exit
    // status 1 for a bad value, instead of a wrapped number or an abort.
    std::string sizeText = "1048576";
    std::string transfersText = "2";
    std::string rate = "100Mbps";
    std::string pcapText = "0";

    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("st-over-ethernet");
    check.AddValue(cmd, "size", "Bytes per write (1 to 268435456)", sizeText);
    check.AddValue(cmd, "transfers", "Writes (1 to 1000000)", transfersText);
    check.AddValue(cmd, "rate", "CSMA data rate (e.g. 100Mbps)", rate);
    check.AddValue(cmd, "pcap", "Write pcap traces st-over-ethernet-*.pcap", pcapText);
    check.Parse(cmd, argc, argv);
    // The server holds a write's bytes in memory: at most 256 MiB.
    const auto size = uint64_t(check.Integer("size", sizeText, 1, int64_t(1) << 28));
    const auto transfers = uint32_t(check.Integer("transfers", transfersText, 1, 1000000));
    DataRateValue rateValue;
    if (!rateValue.DeserializeFromString(rate, MakeDataRateChecker()) ||
        rateValue.Get().GetBitRate() == 0)
    {
        check.Fail("rate", rate, "must be a data rate above 0, e.g. 100Mbps or 1Gbps");
    }
    const bool pcap = check.Boolean("pcap", pcapText);

    NodeContainer hosts;
    hosts.Create(2);
    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", StringValue(rate));
    csma.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer devices = csma.Install(hosts);
    InternetStackHelper internet;
    internet.Install(hosts);
    Ipv4AddressHelper ipv4("192.168.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = ipv4.Assign(devices);
    NeighborCacheHelper neighbors;
    neighbors.PopulateNeighborCache();

    StHelper st;
    st.Install(hosts); // ST on the CSMA devices, sharing their IP addresses

    StServerHelper server(5000);
    server.SetAttribute("BufferSize", UintegerValue(size));
    ApplicationContainer serverApps = server.Install(hosts.Get(1));
    StServerHelper echo(5001);
    echo.SetAttribute("Echo", BooleanValue(true));
    echo.SetAttribute("BufferSize", UintegerValue(65536));
    echo.Install(hosts.Get(1));

    StBulkClientHelper client(interfaces.GetAddress(1), 5000);
    client.SetAttribute("TransferSize", UintegerValue(size));
    client.SetAttribute("Transfers", UintegerValue(transfers));
    ApplicationContainer clientApps = client.Install(hosts.Get(0));
    clientApps.Start(MicroSeconds(10));
    StPingPongHelper ping(interfaces.GetAddress(1), 5001);
    ping.SetAttribute("Size", UintegerValue(1000));
    ping.SetAttribute("Iterations", UintegerValue(10));
    ApplicationContainer pingApps = ping.Install(hosts.Get(0));
    pingApps.Start(Seconds(1)); // after the writes: round trips on an idle segment
    if (pcap)
    {
        csma.EnablePcapAll("st-over-ethernet");
    }

    Simulator::Stop(Seconds(10));
    Simulator::Run();

    Ptr<StBulkClient> c = DynamicCast<StBulkClient>(clientApps.Get(0));
    Ptr<StPingPong> p = DynamicCast<StPingPong>(pingApps.Get(0));
    Ptr<StProtocol> st0 = hosts.Get(0)->GetObject<StProtocol>();
    std::cout << "ST over Ethernet (CSMA " << rate << "), " << interfaces.GetAddress(0) << " -> "
              << interfaces.GetAddress(1) << "\n";
    std::cout << "  Max_STU on this MTU: 2^" << unsigned(StProtocol::GetMaxStuFor(devices.Get(0)))
              << " bytes\n";
    std::cout << std::fixed << std::setprecision(2) << "  writes: " << c->GetCompleted() << " x "
              << size << " bytes, goodput " << c->GetThroughput() / 1e6 << " Mbit/s\n";
    std::cout << "  ping-pong of 1000 bytes: " << p->GetRounds() << " round trips, min "
              << p->GetMinRtt().As(Time::US) << ", mean " << p->GetMeanRtt().As(Time::US) << "\n";
    std::cout << "  host 0: " << st0->GetAdapterCounters().txFrames << " ST frames sent, "
              << st0->GetAdapterCounters().rxFrames << " received, " << st0->GetCounters().Dropped()
              << " dropped" << std::endl;
    const bool ok = c->GetCompleted() == transfers && p->GetRounds() == 10 &&
                    c->GetCorrupt() + p->GetCorrupt() == 0;
    Simulator::Destroy();
    return ok ? 0 : 1;
}
