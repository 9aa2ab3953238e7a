/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: a fat tree under uniform random traffic, on the GSN model or on ns-3's own
 * point-to-point devices with IPv4 routing (the baseline a user would otherwise pick). One
 * model, one fabric size per process, so that the peak memory belongs to that run alone
 * (bench/run-fabric-bench.py runs the whole matrix). It measures; it asserts nothing.
 *
 * Fabrics (--endpoints is the family the driver script uses):
 *   --endpoints=4^n  Petrini and Vanneschi's 4-ary n-tree, GsnTopologyBuilder::KaryNTree(4, n):
 *                    16, 64, 256, 1024 endpoints for n = 2, 3, 4, 5 (n levels of 4^(n-1)
 *                    8-port switches)
 *   --k=K            Al-Fares' fat tree of K-port switches, GsnTopologyBuilder::FatTree(K):
 *                    K^3/4 endpoints (16, 54, 128, 1024 for K = 4, 6, 8, 16); used when
 *                    --endpoints is not given
 *
 * Traffic, identical for every model: a list of Messages drawn before anything is built from
 * one std::mt19937_64 seeded with --seed (not ns-3's streams). Each endpoint gets Poisson
 * arrivals from --start to --simTime at load x 6.4 Gbit/s of payload, each Message --size
 * payload bytes to a uniformly random other endpoint. The uniform and exponential draws are
 * written out here (not std::*_distribution), so the list is the same with any C++ library.
 *
 * Models:
 *   gsn         GsnFabricHelper over the topology (routing "Auto", tables from the helper as
 *               fabric manager); each Message is GsnNetDevice::Send of a --size-byte packet
 *               tagged GsnVcTag(--vc), EtherType 0x88B5 (--vc=4: a VC drawn per Message from
 *               a second generator, so that the list of Messages is the same, among the VCs
 *               whose Message limit admits --size bytes, GsnNetDevice's attribute
 *               defaults as the command line leaves them: VC 0 only up to 4088).
 *   p2p-nix     the same graph of point-to-point links (6.4 Gbit/s, delay = cable length x
 *               5 ns/m = 50 ns for the default 10 m, Mtu 65535, DropTail device queues of
 *               100000 packets, no queue disc), switches as IPv4 routers, one /30 per link,
 *               Ipv4NixVectorHelper routing; each Message is one UDP datagram of --size bytes.
 *               Nix-vector routing has one path per pair (the first its breadth-first search
 *               finds): in a tree, a switch sends all its upward traffic through one up-link,
 *               so the upper levels congest and much less is delivered within --simTime.
 *   p2p-global  the same, routed by Ipv4GlobalRoutingHelper::PopulateRoutingTables(), with
 *               Ipv4GlobalRouting::RandomEcmpRouting (each datagram takes one of the
 *               equal-cost next hops at random; --ecmp=0: always the first, which congests
 *               like nix-vector). GSN's own routing spreads destinations over the up-links.
 *
 * The run stops at --simTime (+ --drain, default 0): Messages still in flight then are not
 * delivered, the same rule for every model. Output: one line of key=value figures; sim_ms is
 * the simulated time of the run (--simTime + --drain).
 *
 * Usage: gsn-fabric-bench [--model=gsn|p2p-nix|p2p-global] [--endpoints=16 | --k=4]
 *                         [--load=0.5] [--size=60000] [--simTime=1ms] [--start=5us] [--drain=0s]
 *                         [--ecmp=1] [--seed=1] [--vc=3]
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-nix-vector-helper.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-helper.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

/// Link data rate of GSN (40-byte micropackets at 8 Gbit/s carry 6.4 Gbit/s of data).
constexpr double LINK_BPS = 6.4e9;
/// Propagation delay per metre of cable, as GsnChannel's default.
constexpr double NS_PER_METRE = 5.0;
/// EtherType of the benchmark's Messages on GSN (IEEE local experimental).
constexpr uint16_t BENCH_ETHERTYPE = 0x88B5;
/// UDP port of the baseline's sinks.
constexpr uint16_t UDP_PORT = 9;

/// One Message of the traffic: when, from which endpoint, to which.
struct Message
{
    int64_t timeNs; ///< send time
    uint32_t src;   ///< endpoint index of the sender
    uint32_t dst;   ///< endpoint index of the receiver
    uint8_t vc;     ///< GSN virtual channel (ignored by the point-to-point models)
};

/// \return a double uniform in (0, 1] from 53 bits of \p rng
double
UniformOpenClosed(std::mt19937_64& rng)
{
    return double((rng() >> 11) + 1) * 0x1.0p-53;
}

/// \return an integer uniform in [0, bound) from \p rng (rejection sampling, bound >= 1)
uint64_t
UniformBelow(std::mt19937_64& rng, uint64_t bound)
{
    const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
    {
        x = rng();
    } while (x >= limit);
    return x % bound;
}

/// \param size a Message's payload bytes \return the VCs whose Message limit (the
/// attribute defaults of GsnNetDevice) admits it; all four if none does (it is refused)
std::vector<uint8_t>
VcsCarrying(uint32_t size)
{
    const Ptr<GsnNetDevice> probe = CreateObject<GsnNetDevice>();
    std::vector<uint8_t> vcs;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (probe->CarriesOnVc(size, vc))
        {
            vcs.push_back(vc);
        }
    }
    return vcs.empty() ? std::vector<uint8_t>{0, 1, 2, 3} : vcs;
}

/**
 * Draw the traffic: per endpoint in index order, exponential gaps and destinations.
 * \param n endpoints (>= 2)
 * \param load offered load, fraction of the link rate
 * \param size payload bytes per Message
 * \param start first possible send time
 * \param stop no Message at or after this time
 * \param seed the generator's seed
 * \param vc the Messages' VC, 0 to 3, or 4 for one drawn at random per Message among
 *           those that take Messages of \p size bytes by default
 * \return the Messages, per endpoint in time order
 */
std::vector<Message>
DrawMessages(uint32_t n,
             double load,
             uint32_t size,
             Time start,
             Time stop,
             uint64_t seed,
             uint32_t vc)
{
    std::mt19937_64 rng(seed);
    std::mt19937_64 vcRng(seed ^ 0x9e3779b97f4a7c15ULL); // apart, so --vc leaves the list as is
    std::vector<Message> messages;
    if (load <= 0 || n < 2)
    {
        return messages;
    }
    const double meanGapNs = size * 8.0 / (load * LINK_BPS) * 1e9;
    // By default VC 0 takes Messages of at most 4096 bytes with the LLC/SNAP header.
    const std::vector<uint8_t> carrying = vc < 4 ? std::vector<uint8_t>{} : VcsCarrying(size);
    const double startNs = double(start.GetNanoSeconds());
    const double stopNs = double(stop.GetNanoSeconds());
    for (uint32_t src = 0; src < n; ++src)
    {
        double t = startNs;
        while (true)
        {
            t += -meanGapNs * std::log(UniformOpenClosed(rng));
            if (t >= stopNs)
            {
                break;
            }
            uint32_t dst = uint32_t(UniformBelow(rng, n - 1));
            if (dst >= src)
            {
                ++dst;
            }
            const uint8_t mvc =
                uint8_t(vc < 4 ? vc : carrying[UniformBelow(vcRng, carrying.size())]);
            messages.push_back({int64_t(std::llround(t)), src, dst, mvc});
        }
    }
    return messages;
}

/// \return the peak resident set size of this process so far, KiB
long
PeakRssKib()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss; // KiB on Linux
}

uint64_t g_deliveredBytes = 0;    ///< payload bytes handed up at the receivers
uint64_t g_deliveredMessages = 0; ///< Messages / datagrams handed up
uint64_t g_refused = 0;           ///< Send()/SendTo() calls that failed

// ---------------------------------------------------------------- GSN

bool
GsnReceive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
{
    g_deliveredBytes += p->GetSize();
    ++g_deliveredMessages;
    return true;
}

void
GsnSend(Ptr<GsnNetDevice> device, Mac48Address to, uint32_t size, uint8_t vc)
{
    Ptr<Packet> p = Create<Packet>(size);
    p->AddPacketTag(GsnVcTag(vc));
    if (!device->Send(p, to, BENCH_ETHERTYPE))
    {
        ++g_refused;
    }
}

/// Build the GSN fabric and schedule the Messages. \return switches built
uint32_t
BuildGsn(const GsnTopology& topology, const std::vector<Message>& messages, uint32_t size)
{
    GsnFabricHelper helper;
    // Nothing is refused for want of queue space: the figures are about the fabric.
    helper.SetDeviceAttribute("TxQueueMaxSize", QueueSizeValue(QueueSize("100000p")));
    GsnFabric fabric = helper.Install(topology);
    helper.AssignStreams(fabric, 1);
    std::vector<Ptr<GsnNetDevice>> devices;
    std::vector<Mac48Address> addresses;
    for (uint32_t i = 0; i < fabric.endpointDevices.GetN(); ++i)
    {
        Ptr<GsnNetDevice> d = fabric.GetEndpointDevice(i);
        d->SetReceiveCallback(MakeCallback(&GsnReceive));
        devices.push_back(d);
        addresses.push_back(Mac48Address::ConvertFrom(d->GetAddress()));
    }
    for (const Message& m : messages)
    {
        Simulator::Schedule(NanoSeconds(m.timeNs),
                            &GsnSend,
                            devices[m.src],
                            addresses[m.dst],
                            size,
                            m.vc);
    }
    return fabric.switches.GetN();
}

/// \return the link counters of every GSN port, summed
GsnLinkCounters
SumOfGsnLinkCounters()
{
    GsnLinkCounters sum;
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
        {
            if (Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>((*node)->GetDevice(i)))
            {
                sum += port->GetLinkCounters();
            }
        }
    }
    return sum;
}

// ---------------------------------------------------------------- point-to-point + IPv4

void
UdpReceive(Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        g_deliveredBytes += p->GetSize();
        ++g_deliveredMessages;
    }
}

void
UdpSend(Ptr<Socket> socket, Ipv4Address to, uint32_t size)
{
    if (socket->SendTo(Create<Packet>(size), 0, InetSocketAddress(to, UDP_PORT)) < 0)
    {
        ++g_refused;
    }
}

/// Build the point-to-point copy of the fabric and schedule the Messages. \return switches
uint32_t
BuildPointToPoint(const GsnTopology& topology,
                  const std::vector<Message>& messages,
                  uint32_t size,
                  bool nix,
                  bool ecmp)
{
    if (!nix)
    {
        // Without it, global routing sends everything a tree switch forwards upward through
        // the same up-link, and the top of the tree congests.
        Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(ecmp));
    }
    const uint32_t nElements = topology.GetNElements();
    NodeContainer nodes;
    nodes.Create(nElements); // node i is topology element i

    InternetStackHelper stack;
    Ipv4NixVectorHelper nixHelper;
    if (nix)
    {
        stack.SetRoutingHelper(nixHelper);
    }
    stack.Install(nodes);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(LINK_BPS))));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(65535));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("100000p")));
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    TrafficControlHelper tc;
    std::vector<Ipv4Address> endpointAddress(nElements);
    for (const GsnTopology::Cable& c : topology.GetCables())
    {
        p2p.SetChannelAttribute(
            "Delay",
            TimeValue(NanoSeconds(uint64_t(std::llround(c.lengthMeters * NS_PER_METRE)))));
        NetDeviceContainer d = p2p.Install(nodes.Get(c.a), nodes.Get(c.b));
        Ipv4InterfaceContainer ifs = addresses.Assign(d);
        addresses.NewNetwork();
        // Ipv4AddressHelper installs the default queue disc (FqCoDel); the baseline keeps
        // only the devices' big DropTail queues.
        tc.Uninstall(d);
        if (topology.IsEndpoint(c.a))
        {
            endpointAddress[c.a] = ifs.GetAddress(0);
        }
        if (topology.IsEndpoint(c.b))
        {
            endpointAddress[c.b] = ifs.GetAddress(1);
        }
    }
    if (!nix)
    {
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }

    const std::vector<uint32_t> endpoints = topology.GetEndpoints();
    std::vector<Ptr<Socket>> sockets;
    std::vector<Ipv4Address> to;
    for (uint32_t id : endpoints)
    {
        Ptr<Socket> s = Socket::CreateSocket(nodes.Get(id), UdpSocketFactory::GetTypeId());
        s->Bind(InetSocketAddress(Ipv4Address::GetAny(), UDP_PORT));
        s->SetRecvCallback(MakeCallback(&UdpReceive));
        sockets.push_back(s);
        to.push_back(endpointAddress[id]);
    }
    for (const Message& m : messages)
    {
        Simulator::Schedule(NanoSeconds(m.timeNs), &UdpSend, sockets[m.src], to[m.dst], size);
    }
    return uint32_t(topology.GetSwitches().size());
}

} // namespace

int
main(int argc, char* argv[])
{
    const long rssStart = PeakRssKib();
    std::string model = "gsn";
    uint32_t endpointsWanted = 0;
    uint32_t k = 4;
    double load = 0.5;
    uint32_t size = 60000;
    Time simTime = MilliSeconds(1);
    Time start = MicroSeconds(5);
    Time drain = Seconds(0);
    bool ecmp = true;
    uint64_t seed = 1;
    uint32_t vc = 3;
    std::string scheduler = "ns3::MapScheduler";
    CommandLine cmd(__FILE__);
    cmd.AddValue("model",
                 "gsn (micropacket link mode), gsn-run (Run link mode), p2p-nix or p2p-global",
                 model);
    cmd.AddValue("endpoints",
                 "4-ary n-tree of this many endpoints (a power of 4 >= 16)",
                 endpointsWanted);
    cmd.AddValue("k", "Fat tree of k-port switches (k^3/4 endpoints), without --endpoints", k);
    cmd.AddValue("load", "Offered load per endpoint, fraction of 6.4 Gbit/s", load);
    cmd.AddValue("size", "Payload bytes per Message", size);
    cmd.AddValue("simTime", "End of the traffic (and of the run, without --drain)", simTime);
    cmd.AddValue("start", "Earliest Message (GSN links come up in a few us)", start);
    cmd.AddValue("drain", "Run on for this long after the last possible Message", drain);
    cmd.AddValue("ecmp", "p2p-global: spread datagrams over equal-cost routes at random", ecmp);
    cmd.AddValue("seed", "Seed of the std::mt19937_64 that draws the Messages", seed);
    cmd.AddValue("vc",
                 "GSN models: the Messages' VC, 0 to 3, or 4 for a random one each (1 to 3 "
                 "for Messages too long for VC 0)",
                 vc);
    cmd.AddValue("scheduler",
                 "ns-3 event scheduler for every model (ns3::GsnTimingWheelScheduler: fastest on "
                 "large fabrics; held choices of idle ports are calls, not events)",
                 scheduler);
    cmd.Parse(argc, argv);
    GlobalValue::Bind("SchedulerType", StringValue(scheduler));
    const bool gsnModel = model == "gsn" || model == "gsn-run";
    if (!gsnModel && model != "p2p-nix" && model != "p2p-global")
    {
        std::fprintf(stderr, "--model must be gsn, gsn-run, p2p-nix or p2p-global\n");
        return 1;
    }
    if (vc > 4)
    {
        std::fprintf(stderr, "--vc must be 0 to 3, or 4 for a random VC per Message\n");
        return 1;
    }

    GsnTopology topology;
    std::string topologyName;
    try
    {
        if (endpointsWanted != 0)
        {
            uint32_t n = 0;
            uint64_t e = 1;
            while (e < endpointsWanted)
            {
                e *= 4;
                ++n;
            }
            if (e != endpointsWanted || n < 2)
            {
                std::fprintf(stderr, "--endpoints must be a power of 4, >= 16\n");
                return 1;
            }
            topology = GsnTopologyBuilder::KaryNTree(4, n);
            topologyName = "4-ary-" + std::to_string(n) + "-tree";
        }
        else
        {
            topology = GsnTopologyBuilder::FatTree(k);
            topologyName = "fat-tree-k" + std::to_string(k);
        }
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "bad fabric: %s\n", e.what());
        return 1;
    }
    const uint32_t nEndpoints = uint32_t(topology.GetEndpoints().size());
    const std::vector<Message> messages =
        DrawMessages(nEndpoints, load, size, start, simTime, seed, vc);

    const auto t0 = std::chrono::steady_clock::now();
    uint32_t nSwitches = 0;
    if (model == "gsn-run")
    {
        Config::SetDefault("ns3::GsnPortDevice::LinkMode", StringValue("Run"));
    }
    if (gsnModel)
    {
        nSwitches = BuildGsn(topology, messages, size);
    }
    else
    {
        nSwitches = BuildPointToPoint(topology, messages, size, model == "p2p-nix", ecmp);
    }
    Simulator::Stop(simTime + drain);
    const auto t1 = std::chrono::steady_clock::now();
    const uint64_t eventsBefore = Simulator::GetEventCount();
    Simulator::Run();
    const auto t2 = std::chrono::steady_clock::now();
    const uint64_t events = Simulator::GetEventCount() - eventsBefore;
    const long rssPeak = PeakRssKib();
    const GsnLinkCounters links = gsnModel ? SumOfGsnLinkCounters() : GsnLinkCounters();
    const uint64_t hops = links.txMessageMicropackets; // each hop of a micropacket counts once
    Simulator::Destroy();

    const double buildS = std::chrono::duration<double>(t1 - t0).count();
    const double runS = std::chrono::duration<double>(t2 - t1).count();
    const double simMs = (simTime + drain).GetSeconds() * 1e3;
    std::string routing = "gsn-auto";
    if (model == "p2p-nix")
    {
        routing = "nix-vector";
    }
    else if (model == "p2p-global")
    {
        routing = ecmp ? "global-random-ecmp" : "global";
    }
    std::printf(
        "model=%s routing=%s topology=%s endpoints=%u switches=%u links=%zu load=%g size=%u "
        "seed=%llu messages=%zu offered_bytes=%llu delivered_messages=%llu "
        "delivered_bytes=%llu refused=%llu sim_ms=%g events=%llu build_s=%.3f "
        "run_s=%.3f events_per_s=%.0f wall_s_per_sim_ms=%.4f peak_rss_kib=%ld "
        "rss_start_kib=%ld rss_per_endpoint_kib=%.1f rss_growth_per_endpoint_kib=%.1f "
        "scheduler=%s",
        model.c_str(),
        routing.c_str(),
        topologyName.c_str(),
        nEndpoints,
        nSwitches,
        topology.GetCables().size(),
        load,
        size,
        (unsigned long long)seed,
        messages.size(),
        (unsigned long long)(uint64_t(messages.size()) * size),
        (unsigned long long)g_deliveredMessages,
        (unsigned long long)g_deliveredBytes,
        (unsigned long long)g_refused,
        simMs,
        (unsigned long long)events,
        buildS,
        runS,
        runS > 0 ? events / runS : 0.0,
        runS / simMs,
        rssPeak,
        rssStart,
        double(rssPeak) / nEndpoints,
        double(rssPeak - rssStart) / nEndpoints,
        scheduler.c_str());
    if (gsnModel)
    {
        // What one micropacket costs crossing one link, all work included.
        std::printf(" vc=%s micropacket_hops=%llu ns_per_micropacket_hop=%.1f",
                    vc < 4 ? std::to_string(vc).c_str() : "random",
                    (unsigned long long)hops,
                    hops > 0 ? runS * 1e9 / double(hops) : 0.0);
        // Where the events go: one per transmission's end, one per timer's expiry, the
        // rest arrivals (and the Messages' own).
        std::printf(" transmissions=%llu credit_only_sent=%llu null_sent=%llu "
                    "taken_ahead=%llu timer_events=%llu timer_events_sending_nothing=%llu "
                    "run_waits=%llu run_wait_us=%.1f",
                    (unsigned long long)links.transmissions,
                    (unsigned long long)links.creditOnlySent,
                    (unsigned long long)links.nullSent,
                    (unsigned long long)links.rxTakenAhead,
                    (unsigned long long)links.timerEvents,
                    (unsigned long long)links.timerEventsSendingNothing,
                    (unsigned long long)links.runWaits,
                    links.runWaitTime.GetNanoSeconds() / 1000.0);
    }
    std::printf("\n");
    return 0;
}
