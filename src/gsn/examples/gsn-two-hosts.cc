/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Two hosts on one GSN cable exchange Messages through ns-3's PacketSocket applications,
 * and the program prints the throughput each direction achieved.
 *
 *   host 0 ==== GSN cable ==== host 1
 *
 * Usage: gsn-two-hosts [--size=BYTES] [--interval=TIME] [--duration=TIME] [--length=M]
 *                      [--vc=0..3] [--pcap=1] [--ascii=1]
 * A bad value prints one line naming the option and exits with status 1.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"

#include <iomanip>
#include <iostream>
#include <limits>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("GsnTwoHosts");

namespace
{

/// What one server received.
struct RxStats
{
    uint64_t bytes{0};      ///< all bytes
    uint64_t firstBytes{0}; ///< bytes of the first Message
    Time first;             ///< arrival of the first Message
    Time last;              ///< arrival of the last Message
};

RxStats g_rx[2];

void
CountRx(uint32_t server, Ptr<const Packet> p, const Address&)
{
    RxStats& s = g_rx[server];
    if (s.bytes == 0)
    {
        s.first = Simulator::Now();
        s.firstBytes = p->GetSize();
    }
    s.bytes += p->GetSize();
    s.last = Simulator::Now();
}

} // namespace

int
main(int argc, char* argv[])
{
    // Options are read as text and checked by GsnCommandLineChecks: one line and exit
    // status 1 for a bad value, instead of a wrapped number, a frozen run or an abort.
    std::string sizeText = "60000";
    std::string intervalText = "70us";
    std::string durationText = "2ms";
    std::string lengthText = "10";
    std::string vcText = "1";
    std::string pcapText = "0";
    std::string asciiText = "0";

    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("gsn-two-hosts");
    check.AddValue(cmd, "size", "Payload bytes per Message (1 or more)", sizeText);
    check.AddValue(cmd, "interval", "Time between Messages of each host (above 0)", intervalText);
    check.AddValue(cmd, "duration", "Simulated time of traffic (above 0)", durationText);
    check.AddValue(cmd, "length", "Cable length in metres (copper, 0.2 to 40)", lengthText);
    check.AddValue(cmd, "vc", "Virtual channel of the traffic (0-3)", vcText);
    check.AddValue(cmd, "pcap", "Write pcap traces gsn-two-hosts-*.pcap", pcapText);
    check.AddValue(cmd, "ascii", "Write an ASCII trace gsn-two-hosts.tr", asciiText);
    check.Parse(cmd, argc, argv);

    const auto size =
        uint32_t(check.Integer("size", sizeText, 1, std::numeric_limits<uint32_t>::max()));
    // A zero interval would send every Message at one instant, for ever.
    const Time interval = check.Duration("interval",
                                         intervalText,
                                         NanoSeconds(1),
                                         Days(1),
                                         "must be a time from 1ns to 1d, e.g. 70us");
    const Time duration = check.Duration("duration", durationText, NanoSeconds(1), Days(1));
    // 5 ns per metre: below 0.2 m the delay rounds to zero, which the channel refuses.
    const double length = check.Real("length",
                                     lengthText,
                                     0.2,
                                     40.0,
                                     "must be a number from 0.2 to 40 (metres of copper cable)");
    const auto vc = uint32_t(check.Integer("vc", vcText, 0, 3));
    const bool pcap = check.Boolean("pcap", pcapText);
    const bool ascii = check.Boolean("ascii", asciiText);

    NodeContainer hosts;
    hosts.Create(2);
    GsnHelper gsn;
    gsn.SetChannelAttribute("Length", DoubleValue(length));
    gsn.SetDeviceAttribute("DefaultVc", UintegerValue(vc));
    NetDeviceContainer devices = gsn.Install(hosts);

    PacketSocketHelper packetSocket;
    packetSocket.Install(hosts);

    const Time start = MicroSeconds(10);
    for (uint32_t i = 0; i < 2; ++i)
    {
        const uint32_t peer = 1 - i;
        PacketSocketAddress to;
        to.SetSingleDevice(devices.Get(i)->GetIfIndex());
        to.SetPhysicalAddress(devices.Get(peer)->GetAddress());
        to.SetProtocol(0x88B5);

        Ptr<PacketSocketClient> client = CreateObject<PacketSocketClient>();
        client->SetRemote(to);
        client->SetAttribute("PacketSize", UintegerValue(size));
        client->SetAttribute("Interval", TimeValue(interval));
        client->SetAttribute("MaxPackets", UintegerValue(0));
        hosts.Get(i)->AddApplication(client);
        client->SetStartTime(start);
        client->SetStopTime(start + duration);

        PacketSocketAddress local;
        local.SetSingleDevice(devices.Get(peer)->GetIfIndex());
        local.SetProtocol(0x88B5);
        Ptr<PacketSocketServer> server = CreateObject<PacketSocketServer>();
        server->SetLocal(local);
        hosts.Get(peer)->AddApplication(server);
        server->TraceConnectWithoutContext("Rx", MakeBoundCallback(&CountRx, peer));
        server->SetStartTime(Seconds(0));
    }

    if (pcap)
    {
        gsn.EnablePcapAll("gsn-two-hosts");
    }
    if (ascii)
    {
        AsciiTraceHelper asciiHelper;
        gsn.EnableAsciiAll(asciiHelper.CreateFileStream("gsn-two-hosts.tr"));
    }

    // Let the last Messages drain before stopping.
    Simulator::Stop(start + duration + MilliSeconds(1));
    Simulator::Run();

    std::cout << "GSN two hosts: " << size << "-byte Messages every " << interval.As(Time::US)
              << " for " << duration.As(Time::MS) << ", " << length << " m cable, VC " << vc
              << "\n";
    std::cout << "  offered per host: " << std::fixed << std::setprecision(3)
              << size * 8.0 / interval.GetSeconds() / 1e9 << " Gbit/s\n";
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<GsnNetDevice> d = DynamicCast<GsnNetDevice>(devices.Get(i));
        const auto& mc = d->GetMessageCounters();
        const auto& lc = d->GetLinkCounters();
        const RxStats& s = g_rx[i];
        // Rate between the first and the last arrival (the first Message opens the window).
        const double span = (s.last - s.first).GetSeconds();
        const double rate = span > 0 ? (s.bytes - s.firstBytes) * 8.0 / span / 1e9 : 0.0;
        std::cout << "  host " << i << " received " << s.bytes << " bytes: " << rate
                  << " Gbit/s; sent " << mc.txMessages << " Messages, " << lc.txMicropackets
                  << " micropackets (" << lc.creditOnlySent << " Credit-only, " << lc.nullSent
                  << " Null), refused " << mc.txQueueDrops + mc.txRefusedTooLong << "\n";
    }
    std::cout << "  payload-rate ceiling for this size: " << std::setprecision(3)
              << 6.4 * size / (32.0 * std::ceil((24.0 + size) / 32.0)) << " Gbit/s" << std::endl;
    Simulator::Destroy();
    return 0;
}
