/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenarios of two GSN hosts under a host adapter profile, each measured in one simulation:
 * the link alone (raw Messages through the OS-bypass path), ST (bulk writes, one write alone,
 * one-way PUT) and TCP (a stream, one message alone). The host benchmark
 * (gsn-host-bench) sweeps them over transfer sizes; the validation test
 * (test/gsn-host-validation-test-suite.cc) recomputes the published figures from them. Each
 * function builds its scenario, runs it and destroys the simulation: nothing is shared.
 */
#ifndef GSN_HOST_SCENARIOS_H
#define GSN_HOST_SCENARIOS_H

#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/st-module.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace gsnhost
{

/// EtherType of the raw Messages of the link-alone scenarios (IEEE local experimental).
constexpr uint16_t RAW_ETHERTYPE = 0x88B5;

/// What a scenario measured.
struct Figure
{
    double gbps{0};          ///< payload throughput, Gbit/s (0: not measured)
    Time latency{0};         ///< latency (0: not measured)
    double cpuLoad[2]{0, 0}; ///< busy share of each host's processor over the measurement
    uint64_t transfers{0};   ///< transfers or Messages measured
    uint64_t events{0};      ///< simulator events of the run
};

/// Records a host processor's work (its Work trace) to tell its busy share of a window.
struct LoadMeter
{
    std::vector<std::pair<Time, Time>> work; ///< (start, duration) of each piece of work

    /// The Work trace. \param start work start \param duration its length
    void Work(Time start, Time duration)
    {
        work.emplace_back(start, duration);
    }

    /// \param from window start \param to window end \return the busy share of the window
    double Load(Time from, Time to) const
    {
        Time busy{0};
        for (const auto& [start, duration] : work)
        {
            const Time a = std::max(start, from);
            const Time b = std::min(start + duration, to);
            if (b > a)
            {
                busy += b - a;
            }
        }
        return to > from ? busy.GetSeconds() / (to - from).GetSeconds() : 0.0;
    }
};

/// Connect \p meter to the processor of \p device's host adapter, if it has one.
inline void
MeterCpu(Ptr<NetDevice> device, LoadMeter* meter)
{
    Ptr<GsnNetDevice> gsn = DynamicCast<GsnNetDevice>(device);
    if (gsn && gsn->GetHostAdapter())
    {
        gsn->GetHostAdapter()->GetCpu()->TraceConnectWithoutContext(
            "Work",
            MakeCallback(&LoadMeter::Work, meter));
    }
}

/// Two hosts on a 10 m cable (or through one switch) under \p profile in \p linkMode.
struct TwoHosts
{
    NodeContainer hosts;        ///< the two hosts
    NetDeviceContainer devices; ///< their endpoints

    /**
     * \param profile host adapter profile
     * \param linkMode Micropacket or Run
     * \param throughSwitch through one switch instead of a cable
     */
    TwoHosts(const std::string& profile, const std::string& linkMode, bool throughSwitch = false)
    {
        if (throughSwitch)
        {
            GsnFabricHelper fabricHelper;
            fabricHelper.SetLinkMode(linkMode);
            fabricHelper.SetHostProfile(profile);
            fabricHelper.SetDeviceAttribute("TxQueueMaxSize", StringValue("100000p"));
            GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::Star(2));
            hosts = fabric.endpoints;
            devices = fabric.endpointDevices;
            return;
        }
        hosts.Create(2);
        GsnHelper gsn;
        gsn.SetChannelAttribute("Length", DoubleValue(10));
        gsn.SetDeviceAttribute("LinkMode", StringValue(linkMode));
        gsn.SetDeviceAttribute("TxQueueMaxSize", StringValue("100000p"));
        gsn.SetHostProfile(profile);
        devices = gsn.Install(hosts);
    }
};

/// When the scenarios start sending: the links are up a few microseconds after time 0.
inline Time
StartTime()
{
    return MicroSeconds(10);
}

/// When the link-alone scenarios start sending: after the process registration of every
/// profile (Origin2000: 100 us).
inline Time
LinkStart()
{
    return MicroSeconds(500);
}

// ---------------------------------------------------------------------------------------
// The link alone: raw Messages on VC 3 through the OS-bypass path

/**
 * \param profile host adapter profile
 * \param bytes payload of each Message
 * \param count Messages, all queued at the start (1: the latency of one alone)
 * \param linkMode Micropacket or Run
 * \return gbps: the delivery rate of the Messages after the first ((count - 1) * bytes over
 *         the time between the first and the last delivery; with one Message, bytes over its
 *         latency); latency: from the first Send() to its delivery to the protocol
 */
inline Figure
LinkAlone(const std::string& profile,
          uint64_t bytes,
          uint32_t count,
          const std::string& linkMode = "Run")
{
    TwoHosts net(profile, linkMode);
    Ptr<NetDevice> a = net.devices.Get(0);
    Ptr<NetDevice> b = net.devices.Get(1);

    struct Rx
    {
        uint64_t n{0};
        Time first{0};
        Time last{0};
    } rx;

    net.hosts.Get(1)->RegisterProtocolHandler(Node::ProtocolHandler([&rx](Ptr<NetDevice>,
                                                                          Ptr<const Packet>,
                                                                          uint16_t,
                                                                          const Address&,
                                                                          const Address&,
                                                                          NetDevice::PacketType) {
                                                  rx.last = Simulator::Now();
                                                  if (rx.n++ == 0)
                                                  {
                                                      rx.first = rx.last;
                                                  }
                                              }),
                                              RAW_ETHERTYPE,
                                              b);
    // The raw Messages go through the adapter's default process: register it first, so that
    // its registration is not in the figures (it is over by LinkStart()).
    for (Ptr<NetDevice> d : {a, b})
    {
        if (Ptr<GsnHostAdapter> host = DynamicCast<GsnNetDevice>(d)->GetHostAdapter())
        {
            host->GetDefaultProcess();
        }
    }
    Simulator::Schedule(LinkStart(), [a, b, bytes, count]() {
        for (uint32_t i = 0; i < count; ++i)
        {
            Ptr<Packet> p = Create<Packet>(uint32_t(bytes));
            p->AddPacketTag(GsnVcTag(3));
            a->Send(p, b->GetAddress(), RAW_ETHERTYPE);
        }
    });
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    Figure f;
    f.transfers = rx.n;
    f.latency = rx.n > 0 ? rx.first - LinkStart() : Time(0);
    if (rx.n >= 2 && rx.last > rx.first)
    {
        f.gbps = double(rx.n - 1) * double(bytes) * 8 / (rx.last - rx.first).GetSeconds() / 1e9;
    }
    else if (rx.n == 1 && f.latency.IsStrictlyPositive())
    {
        f.gbps = double(bytes) * 8 / f.latency.GetSeconds() / 1e9;
    }
    f.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return f;
}

// ---------------------------------------------------------------------------------------
// ST

/// Install ST on both hosts with STU 2^bufsize.
inline void
InstallSt(TwoHosts& net, uint32_t bufsize)
{
    StHelper st;
    st.SetAttribute("Bufsize", UintegerValue(bufsize));
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    st.Install(net.devices, addresses);
    StHelper::PopulateStaticTables(net.hosts);
}

/**
 * Bulk single-use writes, host 0 to host 1 (and host 1 to host 0 at the same time when
 * \p bidirectional), through one switch.
 * \param profile host adapter profile
 * \param size bytes per transfer
 * \param transfers transfers per direction
 * \param bidirectional both ways at once
 * \param linkMode Micropacket or Run
 * \return gbps: the goodput of each direction (first call to last completion) added up;
 *         cpuLoad: each host's processor over host 0's transfers
 */
inline Figure
StBulk(const std::string& profile,
       uint64_t size,
       uint64_t transfers,
       bool bidirectional,
       const std::string& linkMode = "Run")
{
    TwoHosts net(profile, linkMode, true);
    InstallSt(net, 14);
    std::vector<Ptr<StBulkClient>> clients;
    const uint32_t directions = bidirectional ? 2 : 1;
    for (uint32_t d = 0; d < directions; ++d)
    {
        Ptr<Node> source = net.hosts.Get(d);
        Ptr<Node> destination = net.hosts.Get(1 - d);
        StServerHelper server(5000);
        server.SetAttribute("BufferSize", UintegerValue(size));
        server.Install(destination);
        StBulkClientHelper client(destination->GetObject<StProtocol>()->GetLocalAddress(), 5000);
        client.SetAttribute("TransferSize", UintegerValue(size));
        client.SetAttribute("Transfers", UintegerValue(transfers));
        ApplicationContainer apps = client.Install(source);
        apps.Start(StartTime());
        clients.push_back(DynamicCast<StBulkClient>(apps.Get(0)));
    }
    LoadMeter meters[2];
    for (uint32_t i = 0; i < 2; ++i)
    {
        MeterCpu(net.devices.Get(i), &meters[i]);
    }
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    Figure f;
    for (const auto& c : clients)
    {
        f.gbps += c->GetThroughput() / 1e9;
        f.transfers += c->GetCompleted();
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        f.cpuLoad[i] = meters[i].Load(clients[0]->GetFirstStart(), clients[0]->GetLastCompletion());
    }
    f.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return f;
}

/**
 * One single-use write alone on an established connection, through one switch.
 * \param profile host adapter profile
 * \param size its bytes
 * \param linkMode Micropacket or Run
 * \return latency: from the write's call to the destination having all its data; gbps: size
 *         over that
 */
inline Figure
StWriteAlone(const std::string& profile, uint64_t size, const std::string& linkMode = "Run")
{
    TwoHosts net(profile, linkMode, true);
    InstallSt(net, 14);
    StServerHelper server(5000);
    server.SetAttribute("BufferSize", UintegerValue(size));
    ApplicationContainer serverApps = server.Install(net.hosts.Get(1));
    StBulkClientHelper client(net.hosts.Get(1)->GetObject<StProtocol>()->GetLocalAddress(), 5000);
    client.SetAttribute("TransferSize", UintegerValue(size));
    client.SetAttribute("Transfers", UintegerValue(1));
    ApplicationContainer apps = client.Install(net.hosts.Get(0));
    apps.Start(StartTime());
    Time received{0};
    Time called{0};
    serverApps.Get(0)->TraceConnectWithoutContext(
        "Rx",
        Callback<void, uint64_t>([&received](uint64_t) { received = Simulator::Now(); }));
    apps.Get(0)->TraceConnectWithoutContext(
        "TransferComplete",
        Callback<void, uint64_t, Time>(
            [&called](uint64_t, Time took) { called = Simulator::Now() - took; }));
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    Figure f;
    if (received > called && called.IsStrictlyPositive())
    {
        f.transfers = 1;
        f.latency = received - called;
        f.gbps = double(size) * 8 / f.latency.GetSeconds() / 1e9;
    }
    f.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return f;
}

/**
 * One-way PUT latency (time-stamped in the data) through one switch.
 * \param profile host adapter profile
 * \param size bytes per PUT (8 to 16384: a PUT is one STU, at most the 16 KiB Bufsize)
 * \param rounds PUTs measured
 * \param linkMode Micropacket or Run
 * \return latency: the mean one-way latency
 */
inline Figure
StPutLatency(const std::string& profile,
             uint32_t size,
             uint32_t rounds,
             const std::string& linkMode = "Run")
{
    TwoHosts net(profile, linkMode, true);
    InstallSt(net, 14);
    StServerHelper server(5000);
    server.SetAttribute("BufferSize", UintegerValue(65536));
    const uint64_t regionSize = ((size + 7) & ~7u) + 8;
    server.SetAttribute("RegionSize", UintegerValue(regionSize));
    ApplicationContainer serverApps = server.Install(net.hosts.Get(1));
    Time total{0};
    uint64_t n = 0;
    serverApps.Get(0)->TraceConnectWithoutContext(
        "PutReceived",
        Callback<void, uint64_t, Time>([&total, &n](uint64_t, Time latency) {
            total += latency;
            ++n;
        }));
    StMemoryProbeHelper probe(net.hosts.Get(1)->GetObject<StProtocol>()->GetLocalAddress(), 5000);
    probe.SetAttribute("Size", UintegerValue(size));
    probe.SetAttribute("RegionSize", UintegerValue(regionSize));
    probe.SetAttribute("Iterations", UintegerValue(rounds));
    probe.Install(net.hosts.Get(0)).Start(StartTime());
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    Figure f;
    f.transfers = n;
    f.latency = n > 0 ? total / int64_t(n) : Time(0);
    f.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return f;
}

// ---------------------------------------------------------------------------------------
// TCP over IPv4 over GSN (no ARP on the cable: NeedsArp is off, datagrams go to the
// broadcast ULA and reach the one peer)

/// A TCP connection from host 0 to host 1 that sends what it is given, as fast as allowed.
struct TcpPair
{
    Ptr<Socket> tx;       ///< the sender
    Ptr<Socket> listener; ///< host 1's listening socket
    uint64_t toSend{0};   ///< bytes given and not yet in the socket
    uint64_t received{0}; ///< bytes received at host 1
    uint64_t target{0};   ///< when received reaches it, done is set
    Time done{0};         ///< when target was reached

    /// \param net the hosts (IPv4 installed here) \param segment TCP segment size
    /// \param buffer socket buffers
    TcpPair(TwoHosts& net, uint32_t segment, uint32_t buffer)
    {
        InternetStackHelper internet;
        internet.Install(net.hosts);
        Ipv4AddressHelper ip("192.0.2.0", "255.255.255.224");
        Ipv4InterfaceContainer addresses = ip.Assign(net.devices);
        listener = Socket::CreateSocket(net.hosts.Get(1), TcpSocketFactory::GetTypeId());
        tx = Socket::CreateSocket(net.hosts.Get(0), TcpSocketFactory::GetTypeId());
        for (Ptr<Socket> s : {listener, tx})
        {
            s->SetAttribute("SegmentSize", UintegerValue(segment));
            s->SetAttribute("SndBufSize", UintegerValue(buffer));
            s->SetAttribute("RcvBufSize", UintegerValue(buffer));
            s->SetAttribute("DelAckCount", UintegerValue(2));
        }
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
        listener->Listen();
        listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>([this](Ptr<Socket> s, const Address&) {
                s->SetRecvCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> r) {
                    while (Ptr<Packet> p = r->Recv())
                    {
                        received += p->GetSize();
                    }
                    if (target > 0 && received >= target && done.IsZero())
                    {
                        done = Simulator::Now();
                    }
                }));
            }));
        tx->SetSendCallback(
            Callback<void, Ptr<Socket>, uint32_t>([this](Ptr<Socket>, uint32_t) { Fill(); }));
        const Ipv4Address peer = addresses.GetAddress(1);
        Simulator::Schedule(StartTime(),
                            [this, peer]() { tx->Connect(InetSocketAddress(peer, 5000)); });
    }

    /// Give the socket what it takes.
    void Fill()
    {
        while (toSend > 0 && tx->GetTxAvailable() > 0)
        {
            const uint32_t n = uint32_t(std::min<uint64_t>({toSend, tx->GetTxAvailable(), 65536}));
            if (tx->Send(Create<Packet>(n)) < 0)
            {
                return;
            }
            toSend -= n;
        }
    }

    /// Send \p bytes more (from now); done is set when the receiver has them all.
    void Send(uint64_t bytes)
    {
        target = received + bytes;
        done = Time(0);
        toSend += bytes;
        Fill();
    }
};

/**
 * A TCP stream from host 0 to host 1 on a cable.
 * \param profile host adapter profile
 * \param warmup from the first byte given to the measurement window
 * \param window the window
 * \param linkMode Micropacket or Run
 * \return gbps: goodput in the window; cpuLoad: each host's processor in the window
 */
inline Figure
TcpStream(const std::string& profile, Time warmup, Time window, const std::string& linkMode = "Run")
{
    TwoHosts net(profile, linkMode);
    TcpPair tcp(net, 65228, 8388608);
    const Time start = StartTime() + MilliSeconds(1);
    Simulator::Schedule(start, [&tcp]() { tcp.Send(uint64_t(1) << 40); });
    uint64_t atStart = 0;
    uint64_t atEnd = 0;
    Simulator::Schedule(start + warmup, [&]() { atStart = tcp.received; });
    Simulator::Schedule(start + warmup + window, [&]() { atEnd = tcp.received; });
    LoadMeter meters[2];
    for (uint32_t i = 0; i < 2; ++i)
    {
        MeterCpu(net.devices.Get(i), &meters[i]);
    }
    Simulator::Stop(start + warmup + window);
    Simulator::Run();
    Figure f;
    f.gbps = double(atEnd - atStart) * 8 / window.GetSeconds() / 1e9;
    for (uint32_t i = 0; i < 2; ++i)
    {
        f.cpuLoad[i] = meters[i].Load(start + warmup, start + warmup + window);
    }
    f.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return f;
}

/**
 * One message alone on an established TCP connection (after a warm-up transfer has opened
 * the congestion window), host 0 to host 1 on a cable.
 * \param profile host adapter profile
 * \param size its bytes
 * \param linkMode Micropacket or Run
 * \return latency: from giving it to the socket to the receiver having all of it; gbps: size
 *         over that
 */
inline Figure
TcpMessageAlone(const std::string& profile, uint64_t size, const std::string& linkMode = "Run")
{
    TwoHosts net(profile, linkMode);
    TcpPair tcp(net, 65228, 33554432);
    const Time start = StartTime() + MilliSeconds(1);
    Simulator::Schedule(start, [&tcp]() { tcp.Send(16 << 20); });
    Time sent{0};
    // Once the warm-up is in and the connection idle, the message.
    std::function<void()> next = [&]() {
        if (tcp.done.IsZero())
        {
            Simulator::Schedule(MilliSeconds(1), next);
            return;
        }
        Simulator::Schedule(MilliSeconds(1), [&]() {
            sent = Simulator::Now();
            tcp.Send(size);
        });
    };
    Simulator::Schedule(start + MilliSeconds(1), next);
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    Figure f;
    if (sent.IsStrictlyPositive() && tcp.done > sent)
    {
        f.transfers = 1;
        f.latency = tcp.done - sent;
        f.gbps = double(size) * 8 / f.latency.GetSeconds() / 1e9;
    }
    f.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return f;
}

} // namespace gsnhost
} // namespace ns3

#endif /* GSN_HOST_SCENARIOS_H */
