/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Where does the run link mode first part from the micropacket mode? A tool for the work on
 * the run mode's fidelity (gsn-link-modes.rst, "How close the run mode is to the reference"), not a
 * test and not a benchmark: it runs one scenario in both link modes in one process, records
 * every micropacket each port sends with its slot time, and prints, for the ports whose
 * transmissions first differ, the earliest differences with the micropackets around them,
 * then how far the Messages' delivery times differ.
 *
 * The scenario is the differential test's (gsn-link-mode): --messages Messages at uniformly
 * random times in 5..405 us between uniformly random pairs of endpoints of a fat tree of
 * --k-port switches (with --n, a --k-ary --n-tree), payload sizes spread evenly over the
 * decades from 12 to 65000 bytes (4000 on VC 0), on VC --vc (4: a random VC per Message),
 * with micropacket errors at every receiver at --errorRate.
 *
 * A run's micropackets are recorded when the run is chosen. Their RSEQ and credits may be
 * amended later (ExactCredits, credits riding on runs), so those fields, and the LCRC over
 * them, are compared and shown as 0 (--fields=all keeps them). What is compared per port is
 * the sequence of (slot, TYPE, VC, Tail, Error, TSEQ, ECRC).
 *
 * Example (one VC, exact credits, runs back to back only as needed for exactness; MaxRunGap
 * is 160 ns by default since 2026-11-24, and the commands of bench/README.md before then ran
 * with 0):
 *   build/bench/gsn-link-mode-divergence --k=4 --vc=1 --seed=4 \
 *     --ns3::GsnPortDevice::ExactCredits=true --ns3::GsnPortDevice::MaxRunGap=0ns
 * The test's "runs of at most 1, uniform on a 2-ary 3-tree with link errors":
 *   build/bench/gsn-link-mode-divergence --k=2 --n=3 --errorRate=1e-4 --vc=4 --seed=2 \
 *     --messages=200 --ns3::GsnPortDevice::MaxRunLength=1
 * To see what led to a difference, --showPort=P --from=T0 --to=T1 lists, slot by slot, what
 * port P (the number printed above) and the port at the other end of its cable sent in both
 * modes between T0 and T1 ns, marking with * the slots that differ; --showNode=N does so for
 * every port of node N (a switch: its inputs' peers and its outputs).
 * Attributes given with --ns3::... apply to both modes (Config defaults); --runAttribute is
 * not needed for the link mode, which the tool sets itself.
 */

#include "ns3/core-module.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-port-device.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint16_t TOOL_ETHERTYPE = 0x88B5;

/// One micropacket a port sent.
struct Sent
{
    int64_t slotNs;   ///< slot start
    std::string text; ///< the fields compared
};

/// What one run of the scenario produced.
struct Outcome
{
    std::vector<std::vector<Sent>> sent; ///< per port (GsnFabric::GetAllPorts order)
    std::vector<uint32_t> peer;          ///< per port, the port at the cable's other end
    std::vector<uint32_t> node;          ///< per port, its node's id
    std::map<std::pair<uint32_t, uint32_t>, int64_t> delivered; ///< (source, seq) -> ns
    uint64_t events{0};                                         ///< simulator events
};

bool g_allFields = false; ///< compare RSEQ, credits and LCRC too

std::string
Describe(const GsnMicropacket& mp)
{
    GsnMicropacket compared = mp;
    if (!g_allFields)
    {
        // See the file comment: a run's RSEQs and credits may be amended after it is chosen.
        compared.vcr = compared.cr = compared.rseq = 0;
        compared.lcrc = 0;
    }
    std::ostringstream os;
    os << compared;
    return os.str();
}

void
OnTx(std::vector<Sent>* log, Ptr<GsnPortDevice> port, const GsnMicropacket& mp)
{
    log->push_back({port->GetSlotTime().GetNanoSeconds(), Describe(mp)});
}

Outcome* g_outcome = nullptr;            ///< the run being recorded
std::vector<Ptr<NetDevice>> g_endpoints; ///< the endpoints of the run being recorded

bool
Received(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
{
    uint8_t b[8];
    if (p->GetSize() < 8)
    {
        return true;
    }
    p->CopyData(b, 8);
    const uint32_t src = uint32_t(b[0]) | uint32_t(b[1]) << 8;
    const uint32_t seq = uint32_t(b[4]) | uint32_t(b[5]) << 8 | uint32_t(b[6]) << 16;
    g_outcome->delivered[{src, seq}] = Simulator::Now().GetNanoSeconds();
    return true;
}

void
Send(uint32_t from, uint32_t to, uint8_t vc, uint32_t size, uint32_t seq)
{
    std::vector<uint8_t> b(std::max<uint32_t>(size, 12), 0);
    b[0] = uint8_t(from);
    b[1] = uint8_t(from >> 8);
    b[4] = uint8_t(seq);
    b[5] = uint8_t(seq >> 8);
    b[6] = uint8_t(seq >> 16);
    Ptr<Packet> p = Create<Packet>(b.data(), b.size());
    p->AddPacketTag(GsnVcTag(vc));
    g_endpoints[from]->Send(p, g_endpoints[to]->GetAddress(), TOOL_ETHERTYPE);
}

Outcome
RunScenario(const std::string& mode,
            const GsnTopology& topology,
            double errorRate,
            uint32_t vcChoice,
            uint32_t seed,
            uint32_t n)
{
    Outcome o;
    g_outcome = &o;
    GsnFabricHelper helper;
    helper.SetLinkMode(mode);
    GsnFabric fabric = helper.Install(topology);
    helper.AssignStreams(fabric, 1000);
    NetDeviceContainer all = fabric.GetAllPorts();
    if (errorRate > 0)
    {
        GsnHelper::SetMicropacketErrorRate(all, errorRate, 7000); // (as gsn-link-mode)
    }
    o.sent.resize(all.GetN());
    o.peer.assign(all.GetN(), all.GetN());
    std::map<Ptr<NetDevice>, uint32_t> index;
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        index[all.Get(i)] = i;
    }
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(all.Get(i));
        Ptr<GsnChannel> cable = port->GetCable();
        if (cable)
        {
            o.peer[i] = index[cable->GetPeer(port)];
        }
        o.node.push_back(port->GetNode()->GetId());
        port->TraceConnectWithoutContext("MicropacketTx",
                                         MakeBoundCallback(&OnTx, &o.sent[i], port));
    }
    g_endpoints.clear();
    for (uint32_t i = 0; i < fabric.endpointDevices.GetN(); ++i)
    {
        g_endpoints.push_back(fabric.endpointDevices.Get(i));
        g_endpoints.back()->SetReceiveCallback(MakeCallback(&Received));
    }
    std::mt19937 rng(seed);
    const uint32_t endpoints = uint32_t(g_endpoints.size());
    for (uint32_t m = 0; m < n; ++m)
    {
        const uint32_t from = rng() % endpoints;
        const uint32_t to = (from + 1 + rng() % (endpoints - 1)) % endpoints;
        const uint32_t drawnVc = rng() % 4; // (drawn either way: the same draws as the test)
        const uint8_t vc = uint8_t(vcChoice < 4 ? vcChoice : drawnVc);
        const double u = std::uniform_real_distribution<double>(0, 1)(rng);
        uint32_t size = uint32_t(12 * std::pow(65000.0 / 12, u));
        if (vc == 0)
        {
            size = std::min(size, 4000u);
        }
        const Time at = NanoSeconds(5000 + int64_t(rng() % 400000));
        Simulator::Schedule(at, &Send, from, to, vc, size, m);
    }
    Simulator::Stop(MilliSeconds(40));
    Simulator::Run();
    o.events = Simulator::GetEventCount();
    Simulator::Destroy();
    g_endpoints.clear();
    g_outcome = nullptr;
    return o;
}

/**
 * List what port \p p and its peer sent in [\p from, \p to], slot by slot, in both modes,
 * marking the slots where the two modes differ.
 * \param ref the reference's outcome \param run the run mode's outcome
 * \param p a port (GsnFabric::GetAllPorts order) \param from first slot, ns \param to last, ns
 */
void
ShowWindow(const Outcome& ref, const Outcome& run, uint32_t p, int64_t from, int64_t to)
{
    if (p >= ref.sent.size())
    {
        std::cout << "no port " << p << std::endl;
        return;
    }
    for (uint32_t q : {p, ref.peer[p]})
    {
        if (q >= ref.sent.size())
        {
            continue;
        }
        std::cout << "port " << q << " (node " << ref.node[q] << ", peer port " << ref.peer[q]
                  << "), " << from << " to " << to << " ns:" << std::endl;
        std::map<int64_t, std::pair<std::string, std::string>> slots;
        for (const Sent& s : ref.sent[q])
        {
            if (s.slotNs >= from && s.slotNs <= to)
            {
                slots[s.slotNs].first = s.text;
            }
        }
        for (const Sent& s : run.sent[q])
        {
            if (s.slotNs >= from && s.slotNs <= to)
            {
                slots[s.slotNs].second = s.text;
            }
        }
        for (const auto& [at, texts] : slots)
        {
            std::cout << (texts.first == texts.second ? "   " : " * ") << at
                      << " ns  ref: " << (texts.first.empty() ? "-" : texts.first)
                      << "  |  run: " << (texts.second.empty() ? "-" : texts.second) << std::endl;
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    uint32_t vc = 1;
    uint32_t seed = 4;
    uint32_t messages = 300;
    uint32_t ports = 3;
    uint32_t context = 4;
    std::string fields = "timing";
    uint32_t n = 0;
    double errorRate = 0;
    int64_t showPort = -1;
    int64_t showNode = -1;
    int64_t fromNs = 0;
    int64_t toNs = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Fat tree of k-port switches (k even, at least 4); with --n, the arity", k);
    cmd.AddValue("n", "k-ary n-tree of this many levels instead of the fat tree (0: off)", n);
    cmd.AddValue("errorRate", "Micropacket error rate at every receiver", errorRate);
    cmd.AddValue("vc", "VC of every Message, 0-3; 4: a random VC per Message", vc);
    cmd.AddValue("seed", "Traffic seed", seed);
    cmd.AddValue("messages", "Messages sent", messages);
    cmd.AddValue("ports", "Ports whose first difference is shown, earliest first", ports);
    cmd.AddValue("context", "Micropackets shown before each first difference", context);
    cmd.AddValue("fields", "timing (leave out RSEQ, credits and LCRC) or all", fields);
    cmd.AddValue("showPort",
                 "Also list what this port and its peer sent between --from and --to, both modes",
                 showPort);
    cmd.AddValue("showNode",
                 "Also list what every port of this node and their peers sent between --from "
                 "and --to, both modes",
                 showNode);
    cmd.AddValue("from", "Start of the listing of --showPort/--showNode, in ns", fromNs);
    cmd.AddValue("to", "End of the listing of --showPort/--showNode, in ns", toNs);
    cmd.Parse(argc, argv);
    const bool fatTree = n == 0;
    if ((fatTree ? k < 4 || k % 2 != 0 : k < 2) || vc > 4 || messages == 0 || errorRate < 0 ||
        errorRate >= 1 || (fields != "timing" && fields != "all"))
    {
        std::cerr << "need an even --k >= 4 (with --n: --k >= 2), --vc 0-4, --messages > 0, "
                     "--errorRate in [0, 1), --fields timing|all\n";
        return 1;
    }
    if ((showPort >= 0 || showNode >= 0) && toNs < fromNs)
    {
        std::cerr << "--showPort/--showNode need --to at or after --from\n";
        return 1;
    }
    g_allFields = fields == "all";

    GsnTopology topology;
    try
    {
        topology = fatTree ? GsnTopologyBuilder::FatTree(k) : GsnTopologyBuilder::KaryNTree(k, n);
    }
    catch (const std::exception& e)
    {
        std::cerr << "bad fabric: " << e.what() << "\n";
        return 1;
    }
    const Outcome ref = RunScenario("Micropacket", topology, errorRate, vc, seed, messages);
    const Outcome run = RunScenario("Run", topology, errorRate, vc, seed, messages);

    // The first difference of each port: (slot, port, index).
    std::vector<std::tuple<int64_t, uint32_t, std::size_t>> firsts;
    for (uint32_t p = 0; p < ref.sent.size(); ++p)
    {
        const std::vector<Sent>& a = ref.sent[p];
        const std::vector<Sent>& b = run.sent[p];
        const std::size_t common = std::min(a.size(), b.size());
        std::size_t i = 0;
        while (i < common && a[i].slotNs == b[i].slotNs && a[i].text == b[i].text)
        {
            ++i;
        }
        if (i < common || a.size() != b.size())
        {
            const int64_t at = i < common ? std::min(a[i].slotNs, b[i].slotNs)
                                          : (i < a.size() ? a[i].slotNs : b[i].slotNs);
            firsts.emplace_back(at, p, i);
        }
    }
    std::sort(firsts.begin(), firsts.end());
    std::cout << "ports whose transmissions differ: " << firsts.size() << " of " << ref.sent.size()
              << std::endl;
    for (std::size_t f = 0; f < std::min<std::size_t>(ports, firsts.size()); ++f)
    {
        const auto& [at, p, i] = firsts[f];
        std::cout << "port " << p << " (GsnFabric::GetAllPorts order): first difference at " << at
                  << " ns, micropacket " << i << std::endl;
        for (std::size_t j = i > context ? i - context : 0; j < i + 2; ++j)
        {
            for (const auto* side : {&ref, &run})
            {
                const std::vector<Sent>& s = side->sent[p];
                std::cout << (side == &ref ? "  micropacket " : "  run         ");
                if (j < s.size())
                {
                    std::cout << s[j].slotNs << " ns  " << s[j].text;
                }
                else
                {
                    std::cout << "-";
                }
                std::cout << std::endl;
            }
        }
    }
    if (showPort >= 0)
    {
        ShowWindow(ref, run, uint32_t(showPort), fromNs, toNs);
    }
    if (showNode >= 0)
    {
        const auto count = std::count(ref.node.begin(), ref.node.end(), uint32_t(showNode));
        if (count == 0)
        {
            std::cout << "no port on node " << showNode << std::endl;
        }
        for (uint32_t p = 0; p < ref.node.size(); ++p)
        {
            if (ref.node[p] == uint32_t(showNode))
            {
                ShowWindow(ref, run, p, fromNs, toNs);
            }
        }
    }
    int64_t largest = 0;
    uint64_t differ = 0;
    for (const auto& [key, t] : ref.delivered)
    {
        auto it = run.delivered.find(key);
        if (it == run.delivered.end())
        {
            continue;
        }
        const int64_t d = std::llabs(it->second - t);
        largest = std::max(largest, d);
        differ += d != 0;
    }
    std::cout << "Messages delivered: " << ref.delivered.size() << " / " << run.delivered.size()
              << "; " << differ << " at another time, largest difference " << largest
              << " ns; events " << ref.events << " / " << run.events << std::endl;
    return 0;
}
