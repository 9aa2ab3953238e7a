/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test support of the harp suites: a GSN fabric of named hosts with IPv4 addresses, HARP,
 * static default routes, a watch on every GSN wire for ARP frames, and small traffic helpers.
 * It only builds and observes; the suites assert.
 */
#ifndef HARP_TEST_NETWORK_H
#define HARP_TEST_NETWORK_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-helper.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/harp-fabric-helper.h"
#include "ns3/harp-helper.h"
#include "ns3/harp-interface.h"
#include "ns3/harp-protocol.h"
#include "ns3/internet-apps-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/network-module.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{
namespace harptest
{

/// The seed's LIS mask, 0xFFFFFFE0.
inline const char* const LIS_MASK = "255.255.255.224";

/**
 * A fabric of named hosts for HARP tests. Build, Assign addresses, InstallHarp, then run.
 */
class Network
{
  public:
    /**
     * Build \p topology; \p broadcast sets every switch's BroadcastCapable; \p hosts groups
     * endpoints on one node (routers).
     */
    Network(const GsnTopology& topology,
            bool broadcast,
            const std::vector<std::vector<std::string>>& hosts = {})
    {
        Ipv4AddressGenerator::Reset();
        HarpFabricHelper helper;
        helper.SetSwitchAttribute("BroadcastCapable", BooleanValue(broadcast));
        for (const auto& host : hosts)
        {
            helper.AddHost(host);
        }
        fabric = helper.Install(topology);
        nodes = HarpFabricHelper::GetHosts(fabric);
        InternetStackHelper internet;
        internet.Install(nodes);
        WatchWire();
    }

    /// Two hosts "A" and "B" on one cable, no switch (for throughput).
    explicit Network(bool /* backToBack */)
    {
        Ipv4AddressGenerator::Reset();
        GsnTopology t;
        const uint32_t a = t.AddEndpoint("A");
        const uint32_t b = t.AddEndpoint("B");
        t.Connect(a, 0, b, 0, 10.0);
        HarpFabricHelper helper;
        fabric = helper.Install(t);
        nodes = HarpFabricHelper::GetHosts(fabric);
        InternetStackHelper internet;
        internet.Install(nodes);
        WatchWire();
    }

    ~Network()
    {
        Simulator::Destroy();
    }

    /// \return the device of endpoint \p name
    Ptr<GsnNetDevice> Device(const std::string& name) const
    {
        return fabric.GetEndpointDevice(fabric.GetEndpointIndex(name));
    }

    /// \return the node of endpoint \p name
    Ptr<Node> NodeOf(const std::string& name) const
    {
        return fabric.endpoints.Get(fabric.GetEndpointIndex(name));
    }

    /// Give endpoint \p name the address \p address in a LIS of mask \p mask.
    void Assign(const std::string& name, const std::string& address, const char* mask = LIS_MASK)
    {
        const Ipv4Address ip(address.c_str());
        const Ipv4Mask m(mask);
        Ipv4AddressHelper helper(ip.CombineMask(m), m, Ipv4Address(ip.Get() & ~m.Get()));
        helper.Assign(NetDeviceContainer(Device(name)));
        addresses[name] = ip;
    }

    /// \return the address of endpoint \p name
    Ipv4Address Address(const std::string& name) const
    {
        return addresses.at(name);
    }

    /// Default route of endpoint \p name's node through \p gateway (on that endpoint).
    void SetDefaultRoute(const std::string& name, const std::string& gateway)
    {
        Ptr<Ipv4> ipv4 = NodeOf(name)->GetObject<Ipv4>();
        Ipv4StaticRoutingHelper routing;
        routing.GetStaticRouting(ipv4)->SetDefaultRoute(
            Ipv4Address(gateway.c_str()),
            uint32_t(ipv4->GetInterfaceForDevice(Device(name))));
    }

    /// Run HARP on every assigned endpoint with \p helper.
    HarpInterfaceContainer InstallHarp(const HarpHelper& helper)
    {
        NetDeviceContainer devices;
        for (const auto& [name, ip] : addresses)
        {
            devices.Add(Device(name));
        }
        return helper.Install(devices);
    }

    /// \return the HARP interface of endpoint \p name
    Ptr<HarpInterface> Harp(const std::string& name) const
    {
        return NodeOf(name)->GetObject<HarpProtocol>()->GetInterfaceForDevice(Device(name));
    }

    /// Start a ping from \p from to \p to at \p start for \p duration (one per second).
    Ptr<V4Ping> Ping(const std::string& from, const std::string& to, Time start, Time duration)
    {
        Ptr<V4Ping> ping = CreateObject<V4Ping>();
        ping->SetAttribute("Remote", Ipv4AddressValue(Address(to)));
        NodeOf(from)->AddApplication(ping);
        ping->SetStartTime(start);
        ping->SetStopTime(start + duration);
        ping->TraceConnectWithoutContext("Rtt", MakeCallback(&Network::CountRtt, this));
        return ping;
    }

    /// Echo replies received by all pings.
    uint32_t rtts{0};
    /// Largest RTT seen.
    Time maxRtt;

    /// Every 0x0806 Message seen on any endpoint wire (sent or received).
    uint64_t arpFramesOnWire{0};
    /// Those whose hardware type is not 28 (HIPARP).
    uint64_t nonHarpArpOnWire{0};

    GsnFabric fabric;                             ///< what was built
    NodeContainer nodes;                          ///< each host once
    std::map<std::string, Ipv4Address> addresses; ///< assigned addresses

  private:
    void CountRtt(Time rtt)
    {
        ++rtts;
        maxRtt = std::max(maxRtt, rtt);
    }

    /// Watch the Sniffer trace of every endpoint device for ARP-type Messages.
    void WatchWire()
    {
        for (uint32_t i = 0; i < fabric.endpointDevices.GetN(); ++i)
        {
            fabric.GetEndpointDevice(i)->TraceConnectWithoutContext(
                "Sniffer",
                MakeCallback(&Network::Sniff, this));
        }
    }

    void Sniff(Ptr<const Packet> message)
    {
        // M_len(4) D_ULA(6) S_ULA(6) LLC/SNAP(8, EtherType last) then the ARP body.
        uint8_t head[26] = {};
        if (message->GetSize() < sizeof(head))
        {
            return;
        }
        message->CopyData(head, sizeof(head));
        const uint16_t etherType = uint16_t(head[22] << 8 | head[23]);
        if (etherType != 0x0806)
        {
            return;
        }
        ++arpFramesOnWire;
        const uint16_t hrd = uint16_t(head[24] << 8 | head[25]);
        if (hrd != 28)
        {
            ++nonHarpArpOnWire;
        }
    }
};

/**
 * Install FlowMonitor on \p nodes; after the run, Lost() gives the flows' losses.
 */
class Flows
{
  public:
    /// Monitor \p nodes.
    explicit Flows(NodeContainer nodes)
    {
        monitor = helper.Install(nodes);
    }

    /// \return packets sent and not received, over every flow (after the run)
    uint64_t Lost()
    {
        monitor->CheckForLostPackets();
        uint64_t lost = 0;
        for (const auto& [id, stats] : monitor->GetFlowStats())
        {
            lost += stats.txPackets - stats.rxPackets;
        }
        return lost;
    }

    /// \return the number of flows seen
    uint32_t Count()
    {
        return uint32_t(monitor->GetFlowStats().size());
    }

    /// \return packets received over every flow
    uint64_t Received()
    {
        uint64_t rx = 0;
        for (const auto& [id, stats] : monitor->GetFlowStats())
        {
            rx += stats.rxPackets;
        }
        return rx;
    }

    FlowMonitorHelper helper; ///< keeps the classifier alive
    Ptr<FlowMonitor> monitor; ///< the monitor
};

} // namespace harptest
} // namespace ns3

#endif /* HARP_TEST_NETWORK_H */
