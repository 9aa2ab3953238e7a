/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ST bulk transfer between two hosts through a GSN switch: host 0 writes (or reads) large
 * single-use transfers to (from) host 1 with StBulkClient and StServer, and the program
 * prints the goodput against the analytic payload rate of the DATA Messages.
 *
 *   host 0 ==== switch ==== host 1      (GsnFabricHelper, GsnTopologyBuilder::Star(2))
 *
 * Usage: st-bulk-transfer [--size=BYTES] [--transfers=N] [--outstanding=N] [--read=1]
 *                         [--bufsize=LOG2] [--linkMode=Micropacket|Run] [--pcap=1]
 *                         [--host=Ideal|Adapter|Origin2000]
 * A bad value prints one line naming the option and exits with status 1.
 *
 * --pcap=1 writes st-bulk-transfer-<node>-<device>.pcap for every GSN port: the hosts' ST
 * Messages (link type 149, with their VC) and the switch ports' micropackets (link type 148);
 * tools/gsn.lua dissects them, ST operations included.
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"
#include "ns3/st-module.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // Options are read as text and checked (GsnCommandLineChecks): one line and exit
    // status 1 for a bad value, instead of a wrapped number or an abort.
    std::string sizeText = "4194304";
    std::string transfersText = "4";
    std::string outstandingText = "1";
    std::string readText = "0";
    std::string bufsizeText = "14";
    std::string pcapText = "0";
    std::string linkModeText = "Micropacket";
    std::string hostText = "Ideal";

    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("st-bulk-transfer");
    check.AddValue(cmd, "size", "Bytes per transfer (1 to 268435456)", sizeText);
    check.AddValue(cmd, "transfers", "Transfers (1 to 1000000)", transfersText);
    check.AddValue(cmd,
                   "outstanding",
                   "Transfers in progress at once (1 to 1024)",
                   outstandingText);
    check.AddValue(cmd, "read", "Bulk read (host 1 is the source) instead of a write", readText);
    check.AddValue(cmd, "bufsize", "ST Bufsize (log2; the STU size on GSN), 8..24", bufsizeText);
    check.AddValue(cmd, "linkMode", "Link mode of every port: Micropacket or Run", linkModeText);
    check.AddValue(cmd,
                   "host",
                   "Host adapter profile of both hosts: Ideal, Adapter or Origin2000",
                   hostText);
    check.AddValue(cmd,
                   "pcap",
                   "Write pcap traces st-bulk-transfer-*.pcap of the hosts and the switch ports",
                   pcapText);
    check.Parse(cmd, argc, argv);
    // The server holds a transfer's bytes in memory: at most 256 MiB.
    const auto size = uint64_t(check.Integer("size", sizeText, 1, int64_t(1) << 28));
    const auto transfers = uint64_t(check.Integer("transfers", transfersText, 1, 1000000));
    const auto outstanding = uint32_t(check.Integer("outstanding", outstandingText, 1, 1024));
    const bool read = check.Boolean("read", readText);
    const auto bufsize = uint32_t(check.Integer("bufsize", bufsizeText, 8, 24));
    const bool pcap = check.Boolean("pcap", pcapText);
    const std::string linkMode = check.Choice("linkMode", linkModeText, {"Micropacket", "Run"});
    const std::string host =
        check.Choice("host", hostText, GsnHostAdapterHelper::GetProfileNames());

    GsnFabricHelper fabricHelper;
    fabricHelper.SetLinkMode(linkMode);
    fabricHelper.SetHostProfile(host);
    GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(2));

    StHelper st;
    st.SetAttribute("Bufsize", UintegerValue(bufsize));
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    st.Install(fabric.endpointDevices, addresses);
    StHelper::PopulateStaticTables(fabric.endpoints);
    const Ipv4Address serverAddress =
        fabric.endpoints.Get(1)->GetObject<StProtocol>()->GetLocalAddress();

    StServerHelper server(5000);
    server.SetAttribute("BufferSize", UintegerValue(size));
    ApplicationContainer serverApps = server.Install(fabric.endpoints.Get(1));
    StBulkClientHelper client(serverAddress, 5000);
    client.SetAttribute("Mode", EnumValue(read ? StBulkClient::READ : StBulkClient::WRITE));
    client.SetAttribute("TransferSize", UintegerValue(size));
    client.SetAttribute("Transfers", UintegerValue(transfers));
    client.SetAttribute("Outstanding", UintegerValue(outstanding));
    ApplicationContainer clientApps = client.Install(fabric.endpoints.Get(0));
    // The links come up in a few microseconds.
    clientApps.Start(MicroSeconds(10));
    if (pcap)
    {
        fabricHelper.EnablePcapAll("st-bulk-transfer");
    }

    Simulator::Stop(Seconds(1));
    Simulator::Run();

    Ptr<StBulkClient> c = DynamicCast<StBulkClient>(clientApps.Get(0));
    Ptr<StServer> s = DynamicCast<StServer>(serverApps.Get(0));
    const double stu = std::pow(2.0, bufsize);
    const double micropackets = std::ceil((16 + 8 + 40 + stu) / 32.0);
    const double ceiling = 6.4 * stu / (32.0 * micropackets);
    std::cout << "ST bulk " << (read ? "read" : "write") << " through one GSN switch"
              << (host == "Ideal" ? "" : " (host " + host + ")") << ": " << transfers << " x "
              << size << " bytes, " << outstanding << " outstanding, STU " << stu << " bytes\n";
    std::cout << "  completed " << c->GetCompleted() << " transfers, " << c->GetBytes()
              << " bytes, failed " << c->GetFailed() << ", corrupt "
              << c->GetCorrupt() + s->GetCorrupt() << "\n";
    std::cout << std::fixed << std::setprecision(4) << "  goodput " << c->GetThroughput() / 1e9
              << " Gbit/s from " << c->GetFirstStart().As(Time::US) << " to "
              << c->GetLastCompletion().As(Time::US) << "; payload-rate ceiling " << ceiling
              << " Gbit/s (" << 100.0 * c->GetThroughput() / 1e9 / ceiling << "%)\n";
    const st::StCounters& counters =
        fabric.endpoints.Get(0)->GetObject<StProtocol>()->GetCounters();
    std::cout << "  host 0 sent " << counters.Get(st::StStat::TxOps) << " ST operations, "
              << counters.Get(st::StStat::TxDataBytes) << " data bytes; dropped "
              << counters.Dropped() << std::endl;
    const bool ok = c->GetCompleted() == transfers && c->GetCorrupt() + s->GetCorrupt() == 0;
    Simulator::Destroy();
    return ok ? 0 : 1;
}
