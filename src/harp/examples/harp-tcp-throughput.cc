/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TCP bulk throughput over one GSN hop: two hosts on one cable, IPv4 over GSN with next hops
 * resolved by HARP, one BulkSend flow. The program prints the goodput measured after a
 * warm-up that starts with the first byte received, against the link's payload rate (6.4 Gbit/s
 * times the share of Message bytes in whole 32-byte micropackets).
 *
 *   A ==== GSN cable ==== B        192.0.2.1 -> 192.0.2.2, LIS 192.0.2.0/27
 *
 * Usage: harp-tcp-throughput [--segment=BYTES] [--buffer=BYTES] [--warmup=TIME]
 *                            [--window=TIME] [--length=M] [--delack=N] [--series=1]
 *                            [--host=Ideal|Adapter|Origin2000]
 * A bad value prints one line naming the option and exits with status 1.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/gsn-module.h"
#include "ns3/harp-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <utility>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("HarpTcpThroughput");

namespace
{

/// The measurement window: opens a warm-up after the first byte reaches the sink.
struct Window
{
    Ptr<PacketSink> sink; ///< the receiver
    Time warmup;          ///< from the first byte to the window
    Time length;          ///< the window
    bool series;          ///< print every millisecond
    Time first;           ///< arrival of the first byte
    uint64_t atWarmup{0}; ///< bytes received when the window opened
    uint64_t atEnd{0};    ///< bytes received when it closed
    uint64_t last{0};     ///< bytes at the previous millisecond

    void Received(Ptr<const Packet>, const Address&)
    {
        if (!first.IsZero())
        {
            return;
        }
        first = Simulator::Now();
        Simulator::Schedule(warmup, [this]() { atWarmup = sink->GetTotalRx(); });
        Simulator::Schedule(warmup + length, [this]() { atEnd = sink->GetTotalRx(); });
        for (Time t = MilliSeconds(1); series && t <= warmup + length; t += MilliSeconds(1))
        {
            Simulator::Schedule(t, [this]() {
                std::cout << "  " << (Simulator::Now() - first).As(Time::MS) << " "
                          << double(sink->GetTotalRx() - last) * 8 / 1e6 << " Gbit/s\n";
                last = sink->GetTotalRx();
            });
        }
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    // Options are read as text and checked (GsnCommandLineChecks): one line and exit
    // status 1 for a bad value, instead of a wrapped number or an abort.
    const int64_t maxSegment = 65280 - 20 - 32; // IPv4 header, TCP header with timestamps
    std::string segmentText = std::to_string(maxSegment);
    std::string bufferText = "8388608";
    std::string warmupText = "5ms";
    std::string windowText = "20ms";
    std::string lengthText = "10";
    std::string delackText = "2";
    std::string seriesText = "0";
    std::string hostText = "Ideal";

    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("harp-tcp-throughput");
    check.AddValue(cmd, "segment", "TCP segment size (bytes, 64 to 65228)", segmentText);
    check.AddValue(cmd, "buffer", "TCP send and receive buffers (bytes, 1024 to 2^30)", bufferText);
    check.AddValue(cmd, "warmup", "Time from the first byte to the measurement", warmupText);
    check.AddValue(cmd, "window", "Measurement window (above 0)", windowText);
    check.AddValue(cmd, "length", "Cable length in metres (copper, 0.2 to 40)", lengthText);
    check.AddValue(cmd, "delack", "Segments per delayed ACK (1 to 64)", delackText);
    check.AddValue(cmd, "series", "Print the goodput of every millisecond", seriesText);
    check.AddValue(cmd,
                   "host",
                   "Host adapter profile of both hosts: Ideal, Adapter or Origin2000",
                   hostText);
    check.Parse(cmd, argc, argv);
    const std::string host =
        check.Choice("host", hostText, GsnHostAdapterHelper::GetProfileNames());
    const auto segment = uint32_t(check.Integer("segment", segmentText, 64, maxSegment));
    const auto buffer = uint32_t(check.Integer("buffer", bufferText, 1024, int64_t(1) << 30));
    const Time warmup = check.Duration("warmup", warmupText, Seconds(0), Seconds(10));
    const Time window = check.Duration("window", windowText, NanoSeconds(1), Seconds(10));
    // 5 ns per metre: below 0.2 m the delay rounds to zero, which the channel refuses.
    const double length = check.Real("length",
                                     lengthText,
                                     0.2,
                                     40.0,
                                     "must be a number from 0.2 to 40 (metres of copper cable)");
    const auto delack = uint32_t(check.Integer("delack", delackText, 1, 64));
    const bool series = check.Boolean("series", seriesText);

    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(buffer));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delack));

    NodeContainer hosts;
    hosts.Create(2);
    GsnHelper gsn;
    gsn.SetChannelAttribute("Length", DoubleValue(length));
    gsn.SetHostProfile(host);
    NetDeviceContainer devices = gsn.Install(hosts);
    InternetStackHelper internet;
    internet.Install(hosts);
    Ipv4AddressHelper ip("192.0.2.0", "255.255.255.224");
    Ipv4InterfaceContainer addresses = ip.Assign(devices);
    // A cable delivers a broadcast to the peer but no copy back to the sender: the self-test
    // would conclude "non-broadcast", and there is no server. Say what the fabric is.
    HarpHelper harp;
    harp.SetAttribute("FabricMode", EnumValue(HarpProtocol::BROADCAST));
    harp.Install(devices);

    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 5000));
    Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkHelper.Install(hosts.Get(1)).Get(0));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(addresses.GetAddress(1), 5000));
    bulk.SetAttribute("SendSize", UintegerValue(segment));
    ApplicationContainer sender = bulk.Install(hosts.Get(0));
    const Time start = MilliSeconds(10);
    sender.Start(start);
    sender.Stop(start + MilliSeconds(20) + warmup + window);

    // The window opens a warm-up after the first byte arrives (the first packet to each next
    // hop waits for ns-3's ARP request jitter, 0-10 ms, before HARP is asked).
    Window w;
    w.sink = sink;
    w.warmup = warmup;
    w.length = window;
    w.series = series;
    sink->TraceConnectWithoutContext("Rx", MakeCallback(&Window::Received, &w));
    // With a host adapter: each host processor's work, for its load in the window.
    std::vector<std::pair<Time, Time>> work[2];
    for (uint32_t i = 0; i < 2 && host != "Ideal"; ++i)
    {
        DynamicCast<GsnNetDevice>(devices.Get(i))
            ->GetHostAdapter()
            ->GetCpu()
            ->TraceConnectWithoutContext("Work",
                                         Callback<void, Time, Time>([&work, i](Time t, Time d) {
                                             work[i].emplace_back(t, d);
                                         }));
    }
    Simulator::Stop(start + MilliSeconds(20) + warmup + window + MilliSeconds(50));
    Simulator::Run();

    const double goodput = double(w.atEnd - w.atWarmup) * 8 / window.GetSeconds();
    // Rates in whole 32-byte micropackets of the Message: 16 bytes of addressing, 8 of
    // LLC/SNAP, then the datagram (20 bytes of IPv4 header; 32 of TCP header with timestamps).
    auto rate = [](double payload, double datagram) {
        return 6.4e9 * payload / (32 * std::ceil((datagram + 24) / 32));
    };
    const double payloadRate = rate(65280, 65280);
    const double tcpRate = rate(segment, segment + 52.0);
    std::cout << std::fixed << std::setprecision(3) << "TCP over one GSN hop (" << length
              << " m, segment " << segment << " bytes, buffers " << buffer
              << " bytes, delayed ACK every " << delack << (host == "Ideal" ? "" : ", host " + host)
              << "):\n"
              << "  goodput " << goodput / 1e9 << " Gbit/s over " << window.As(Time::MS)
              << " after " << warmup.As(Time::MS) << " of warm-up (first byte at "
              << w.first.As(Time::MS) << ")\n"
              << "  link IP payload rate " << payloadRate / 1e9
              << " Gbit/s: " << 100 * goodput / payloadRate << " %\n"
              << "  TCP payload ceiling " << tcpRate / 1e9 << " Gbit/s: " << 100 * goodput / tcpRate
              << " %\n"
              << "  received " << sink->GetTotalRx() << " bytes in all" << std::endl;
    for (uint32_t i = 0; i < 2 && host != "Ideal"; ++i)
    {
        // The processor's work inside the measurement window.
        const Time from = w.first + warmup;
        const Time to = from + window;
        Time busy{0};
        for (const auto& [start, duration] : work[i])
        {
            const Time a = std::max(start, from);
            const Time b = std::min(start + duration, to);
            busy += b > a ? b - a : Time(0);
        }
        std::cout << "  host " << i << " processor busy "
                  << 100 * busy.GetSeconds() / window.GetSeconds() << " % of the window"
                  << std::endl;
    }
    Simulator::Destroy();
    return goodput > 0 ? 0 : 1;
}
