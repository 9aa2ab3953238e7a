/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario shared by the examples of the seed's figures 1-31 and 1-32: hosts A..L (no I)
 * in two logical IP subnets of 192.0.2.0 with netmask 0xFFFFFFE0, the router J/H (one system
 * with two GSN interfaces), IPv4 over GSN resolved by HARP, pings and a UDP echo, and a report
 * of the paths taken. The figure programs give the fabric; this header does the rest.
 */
#ifndef HARP_LIS_SCENARIO_H
#define HARP_LIS_SCENARIO_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/harp-module.h"
#include "ns3/internet-apps-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace harpexample
{

using namespace ns3;

/// A host of the seed's figures: its LIS and address. Host number = letter position (A = 1,
/// ..., L = 12), plus 32 in LIS_2. The figures' own host numbers could not be read.
struct Host
{
    const char* name;    ///< endpoint name in the topology
    const char* address; ///< IPv4 address
    int lis;             ///< 1 or 2
};

/// A, B, E, J, K, L in LIS_1 (192.0.2.0-31); C, D, F, G, H in LIS_2 (192.0.2.32-63).
inline const std::vector<Host> HOSTS = {
    {"A", "192.0.2.1", 1},
    {"B", "192.0.2.2", 1},
    {"C", "192.0.2.35", 2},
    {"D", "192.0.2.36", 2},
    {"E", "192.0.2.5", 1},
    {"F", "192.0.2.38", 2},
    {"G", "192.0.2.39", 2},
    {"H", "192.0.2.40", 2},
    {"J", "192.0.2.10", 1},
    {"K", "192.0.2.11", 1},
    {"L", "192.0.2.12", 1},
};

/// What one ping saw.
struct PingReport
{
    std::string from;                    ///< source host
    std::string to;                      ///< destination host
    uint32_t replies{0};                 ///< echo replies
    Time firstRtt;                       ///< RTT of the first (address resolution included)
    Time minRtt;                         ///< smallest RTT
    int minTtl{256};                     ///< lowest TTL of the replies at the source
    std::vector<std::string> forwarders; ///< nodes that forwarded the requests
};

/// The running scenario.
class LisScenario
{
  public:
    /**
     * \param topology the fabric (endpoints named A..L)
     * \param broadcast whether the switches broadcast
     */
    LisScenario(const GsnTopology& topology, bool broadcast)
    {
        HarpFabricHelper fabricHelper;
        fabricHelper.SetSwitchAttribute("BroadcastCapable", BooleanValue(broadcast));
        fabricHelper.AddHost({"J", "H"}); // the router: one system, interfaces J and H
        m_fabric = fabricHelper.Install(topology);
        NodeContainer hosts = HarpFabricHelper::GetHosts(m_fabric);
        InternetStackHelper internet;
        internet.Install(hosts);

        for (const Host& h : HOSTS)
        {
            const Ipv4Address ip(h.address);
            const Ipv4Mask mask(0xFFFFFFE0);
            Ipv4AddressHelper assign(ip.CombineMask(mask),
                                     mask,
                                     Ipv4Address(ip.Get() & ~mask.Get()));
            assign.Assign(NetDeviceContainer(Device(h.name)));
            Names::Add(h.name, Device(h.name)); // for the report
        }
        Ipv4StaticRoutingHelper routing;
        for (const Host& h : HOSTS)
        {
            if (std::string(h.name) == "J" || std::string(h.name) == "H")
            {
                continue; // the router has both LIS connected
            }
            Ptr<Ipv4> ipv4 = Node(h.name)->GetObject<Ipv4>();
            routing.GetStaticRouting(ipv4)->SetDefaultRoute(
                Ipv4Address(h.lis == 1 ? "192.0.2.10" : "192.0.2.40"),
                uint32_t(ipv4->GetInterfaceForDevice(Device(h.name))));
        }

        // Two HARP servers per LIS (the seed recommends at least two), the same list on every
        // host; the router's daemon serves both LIS. Unused on a broadcast fabric.
        HarpHelper harp;
        for (const char* server : {"J", "B", "H", "D"})
        {
            harp.AddServer(Device(server));
        }
        NetDeviceContainer devices;
        for (const Host& h : HOSTS)
        {
            devices.Add(Device(h.name));
        }
        harp.Install(devices);
    }

    /// \return the device of a host
    Ptr<GsnNetDevice> Device(const std::string& name) const
    {
        return m_fabric.GetEndpointDevice(m_fabric.GetEndpointIndex(name));
    }

    /// \return the node of a host (J and H give the router)
    Ptr<ns3::Node> Node(const std::string& name) const
    {
        return m_fabric.endpoints.Get(m_fabric.GetEndpointIndex(name));
    }

    /// \return the address of a host
    static Ipv4Address Address(const std::string& name)
    {
        for (const Host& h : HOSTS)
        {
            if (name == h.name)
            {
                return Ipv4Address(h.address);
            }
        }
        return Ipv4Address();
    }

    /// \return the name of the node (the router is "J/H")
    std::string NodeName(Ptr<ns3::Node> node) const
    {
        return node == Node("J") ? "router J/H" : Names::FindName(node->GetDevice(0));
    }

    /// Ping \p to from \p from \p count times from \p start.
    void Ping(const std::string& from, const std::string& to, Time start, uint32_t count)
    {
        PingReport report;
        report.from = from;
        report.to = to;
        m_pings.push_back(report);
        const std::size_t index = m_pings.size() - 1;
        Ptr<V4Ping> ping = CreateObject<V4Ping>();
        ping->SetAttribute("Remote", Ipv4AddressValue(Address(to)));
        Node(from)->AddApplication(ping);
        ping->SetStartTime(start);
        ping->SetStopTime(start + Seconds(count) - MilliSeconds(500));
        ping->TraceConnectWithoutContext("Rtt",
                                         MakeCallback(&LisScenario::OnRtt, this).Bind(index));
        m_active[Address(from).Get() ^ Address(to).Get()] = index;
    }

    /// Run until \p stop and print the report. \return 0 if every ping was answered
    int Run(const std::string& figure, bool broadcast, Time stop, uint32_t count, bool tables)
    {
        for (uint32_t i = 0; i < m_fabric.endpoints.GetN(); ++i)
        {
            Ptr<Ipv4L3Protocol> ipv4 = m_fabric.endpoints.Get(i)->GetObject<Ipv4L3Protocol>();
            ipv4->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeCallback(&LisScenario::OnDeliver, this).Bind(m_fabric.endpoints.Get(i)));
            ipv4->TraceConnectWithoutContext(
                "UnicastForward",
                MakeCallback(&LisScenario::OnForward, this).Bind(m_fabric.endpoints.Get(i)));
        }
        for (uint32_t s = 0; s < m_fabric.switchObjects.size(); ++s)
        {
            m_fabric.switchObjects[s]->TraceConnectWithoutContext(
                "MessageForward",
                MakeCallback(&LisScenario::OnSwitch, this).Bind(s));
        }
        // HARP refuses to resolve a host of another LIS, even on the same switch.
        Ptr<HarpInterface> a =
            Node("A")->GetObject<HarpProtocol>()->GetInterfaceForDevice(Device("A"));
        std::string direct = "answered";
        Simulator::ScheduleWithContext(Node("A")->GetId(), Seconds(4), [&]() {
            a->ResolveAsync(Address("C"),
                            MakeCallback(+[](std::string* out, Ipv4Address, bool ok, Mac48Address) {
                                *out = ok ? "resolved (wrong!)" : "refused";
                            }).Bind(&direct));
        });
        Simulator::Stop(stop);
        Simulator::Run();

        std::cout << "Seed figure " << figure << ": " << m_fabric.switchObjects.size()
                  << " switch(es), " << (broadcast ? "broadcast" : "non-broadcast")
                  << " fabric, LIS_1 = 192.0.2.0/27, LIS_2 = 192.0.2.32/27 (netmask 0xFFFFFFE0)\n";
        const harp::Client& client = a->GetClient();
        const bool detected = client.IsBroadcastFabric().value_or(false);
        std::cout << "  A's HARP: phase " << harp::PhaseName(client.GetPhase())
                  << ", self-test found a " << (detected ? "broadcast" : "non-broadcast")
                  << " fabric";
        if (!detected)
        {
            std::cout << "; servers";
            for (const auto& server : client.GetServers())
            {
                std::cout << " " << server.address.ToString() << " (" << server.ula.ToString()
                          << ")";
            }
        }
        std::cout << "\n  A asks HARP for C (" << Address("C") << ", LIS_2) directly: " << direct
                  << "\n";
        int status = 0;
        for (const PingReport& p : m_pings)
        {
            const int hops = p.minTtl <= 64 ? 64 - p.minTtl + 1 : 0;
            std::cout << "  ping " << p.from << " (" << Address(p.from) << ") -> " << p.to << " ("
                      << Address(p.to) << "): " << p.replies << "/" << count << " replies";
            if (p.replies > 0)
            {
                std::cout << ", RTT " << std::fixed << std::setprecision(2)
                          << p.minRtt.GetNanoSeconds() / 1e3 << " us (first "
                          << p.firstRtt.GetNanoSeconds() / 1e3
                          << " us: ns-3's ARP request jitter and HARP), reply TTL " << p.minTtl
                          << " (" << hops << " IP hop" << (hops == 1 ? "" : "s") << "), path "
                          << p.from;
                for (const std::string& f : p.forwarders)
                {
                    std::cout << " -> " << f;
                }
                std::cout << " -> " << p.to;
            }
            std::cout << "\n";
            status |= p.replies == count ? 0 : 1;
        }
        for (uint32_t s = 0; s < m_switchForwards.size(); ++s)
        {
            std::cout << "  switch "
                      << m_fabric.topology.GetElement(m_fabric.switchElements[s]).name
                      << " forwarded " << m_switchForwards[s] << " Messages\n";
        }
        if (tables)
        {
            HarpHelper::PrintTables(HarpFabricHelper::GetHosts(m_fabric), std::cout);
        }
        status |= direct == "refused" ? 0 : 1;
        return status;
    }

    /// Write pcap traces of every host interface, \p prefix-<node>-<device>.pcap.
    void EnablePcap(const std::string& prefix)
    {
        GsnHelper gsn;
        gsn.EnablePcap(prefix, m_fabric.endpointDevices);
    }

  private:
    void OnRtt(std::size_t index, Time rtt)
    {
        PingReport& p = m_pings[index];
        if (p.replies++ == 0)
        {
            p.firstRtt = rtt;
            p.minRtt = rtt;
        }
        p.minRtt = std::min(p.minRtt, rtt);
    }

    /// Echo replies (ICMP type 0) delivered to a pinging host: their TTL.
    void OnDeliver(Ptr<ns3::Node> /* node */,
                   const Ipv4Header& header,
                   Ptr<const Packet> packet,
                   uint32_t)
    {
        if (header.GetProtocol() != 1)
        {
            return;
        }
        uint8_t type = 0;
        packet->CopyData(&type, 1);
        auto it = m_active.find(header.GetSource().Get() ^ header.GetDestination().Get());
        if (type == 0 && it != m_active.end() &&
            Address(m_pings[it->second].from) == header.GetDestination())
        {
            m_pings[it->second].minTtl = std::min<int>(m_pings[it->second].minTtl, header.GetTtl());
        }
    }

    /// Echo requests forwarded by a node: the path.
    void OnForward(Ptr<ns3::Node> node,
                   const Ipv4Header& header,
                   Ptr<const Packet> /* packet */,
                   uint32_t)
    {
        auto it = m_active.find(header.GetSource().Get() ^ header.GetDestination().Get());
        if (header.GetProtocol() != 1 || it == m_active.end() ||
            Address(m_pings[it->second].from) != header.GetSource())
        {
            return;
        }
        std::vector<std::string>& f = m_pings[it->second].forwarders;
        const std::string name = NodeName(node);
        if (std::find(f.begin(), f.end(), name) == f.end())
        {
            f.push_back(name);
        }
    }

    void OnSwitch(uint32_t s, uint32_t, uint32_t, uint8_t, Mac48Address)
    {
        if (m_switchForwards.size() <= s)
        {
            m_switchForwards.resize(m_fabric.switchObjects.size(), 0);
        }
        ++m_switchForwards[s];
    }

    GsnFabric m_fabric;                       ///< the fabric
    std::vector<PingReport> m_pings;          ///< the pings
    std::map<uint32_t, std::size_t> m_active; ///< ping by src ^ dst address
    std::vector<uint64_t> m_switchForwards;   ///< Messages forwarded per switch
};

/**
 * The whole example: parse the command line, build, run, report.
 * \param figure "1-31" or "1-32"
 * \param topology the figure's fabric
 * \param argc argument count
 * \param argv arguments
 * \return the exit status
 */
inline int
Main(const std::string& figure, const GsnTopology& topology, int argc, char* argv[])
{
    // Options are read as text and checked (GsnCommandLineChecks): one line and exit
    // status 1 for a bad value, instead of a wrapped number.
    std::string broadcastText = "0";
    std::string countText = "5";
    std::string tablesText = "0";
    std::string pcapText = "0";
    CommandLine cmd;
    GsnCommandLineChecks check("harp-figure-" + figure);
    cmd.Usage("Seed figure " + figure + ": two LIS on GSN, the router J/H, HARP.");
    check.AddValue(cmd,
                   "broadcast",
                   "Switches broadcast (HARP then needs no server)",
                   broadcastText);
    check.AddValue(cmd, "count", "Echo requests per ping (1 to 1000)", countText);
    check.AddValue(cmd, "tables", "Print every host's HARP table at the end", tablesText);
    check.AddValue(cmd, "pcap", "Write pcap traces harp-figure-*.pcap", pcapText);
    check.Parse(cmd, argc, argv);
    const bool broadcast = check.Boolean("broadcast", broadcastText);
    const auto count = uint32_t(check.Integer("count", countText, 1, 1000));
    const bool tables = check.Boolean("tables", tablesText);
    const bool pcap = check.Boolean("pcap", pcapText);

    LisScenario scenario(topology, broadcast);
    const Time start = Seconds(5);         // after detection (3 s) and registration
    scenario.Ping("A", "B", start, count); // same LIS, same switch: direct
    scenario.Ping("A", "E", start, count); // same LIS (across switches in 1-32): direct
    scenario.Ping("A", "C", start, count); // LIS_2: through the router
    if (pcap)
    {
        scenario.EnablePcap("harp-figure-" + figure);
    }
    const int status = scenario.Run(figure, broadcast, start + Seconds(count + 1), count, tables);
    Simulator::Destroy();
    return status;
}

} // namespace harpexample

#endif /* HARP_LIS_SCENARIO_H */
