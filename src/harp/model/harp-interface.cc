/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// harp-interface.cc: HARP on one GSN interface (see harp-interface.h): its attributes and
// traces, set-up (the engines, an ArpCache of our own, the device's interceptors) and
// disposal, broadcast emulation switched on and off, the client started, accessors, what the
// run left unresolved (counted by each interface when disposed, reported once at the end of
// the run), and the table printed.
//
// HarpInterface is written in several files, one per part of the adapter:
//  - harp-interface.cc: the above;
//  - harp-interface-calls.cc: the callers' interface: resolution (IPv4 through the ARP
//    cache, ST and users directly), static entries, engines stopped and started;
//  - harp-interface-arp.cc: ns-3's ARP answered by HARP: requests intercepted, the ArpCache
//    filled and flushed;
//  - harp-interface-engine.cc: frames in and out, the engines' output drained (frames,
//    events, callers answered), their timer;
//  - harp-interface-private.h: the log component they share.
#include "harp-address-conversion.h"
#include "harp-interface-private.h"

#include "ns3/abort.h"
#include "ns3/arp-cache.h"
#include "ns3/arp-l3-protocol.h"
#include "ns3/boolean.h"
#include "ns3/gsn-net-device.h"
#include "ns3/ipv4-interface.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HarpInterface");

LogComponent&
HarpInterfaceLog()
{
    return g_log;
}

NS_OBJECT_ENSURE_REGISTERED(HarpInterface);

namespace
{
/// What the interfaces disposed in this run left unresolved, for one warning at its end.
struct UnresolvedTally
{
    bool reportScheduled{false}; ///< the destroy event is scheduled
    uint64_t datagrams{0};       ///< datagrams left waiting
    uint64_t nextHops{0};        ///< next hops they waited for
    uint64_t interfaces{0};      ///< interfaces that had some
    uint64_t detecting{0};       ///< of those, still in the broadcast self-test
};

UnresolvedTally g_unresolved; ///< this run's tally
} // namespace

TypeId
HarpInterface::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HarpInterface")
            .SetParent<Object>()
            .SetGroupName("Harp")
            .AddTraceSource("Tx",
                            "A HARP frame was sent (or looped back to the interface's own "
                            "ULA): the 28-byte ARP body and the destination ULA.",
                            MakeTraceSourceAccessor(&HarpInterface::m_txTrace),
                            "ns3::HarpInterface::FrameTracedCallback")
            .AddTraceSource("Rx",
                            "A HARP frame was received (from the device or looped back): "
                            "the ARP body and the source ULA.",
                            MakeTraceSourceAccessor(&HarpInterface::m_rxTrace),
                            "ns3::HarpInterface::FrameTracedCallback")
            .AddTraceSource("Drop",
                            "An engine dropped a received frame: frame, source ULA, reason, "
                            "and whether the server (else the client) dropped it.",
                            MakeTraceSourceAccessor(&HarpInterface::m_dropTrace),
                            "ns3::HarpInterface::DropTracedCallback")
            .AddTraceSource("Event",
                            "Every engine event, and whether the server reported it.",
                            MakeTraceSourceAccessor(&HarpInterface::m_eventTrace),
                            "ns3::HarpInterface::EventTracedCallback")
            .AddTraceSource("PhaseChange",
                            "The client's phase changed: old and new phase.",
                            MakeTraceSourceAccessor(&HarpInterface::m_phaseTrace),
                            "ns3::HarpInterface::PhaseTracedCallback")
            .AddTraceSource("Resolved",
                            "A resolution succeeded: IP address and ULA.",
                            MakeTraceSourceAccessor(&HarpInterface::m_resolvedTrace),
                            "ns3::HarpInterface::ResolvedTracedCallback")
            .AddTraceSource("Unresolvable",
                            "A resolution failed: IP address and reason.",
                            MakeTraceSourceAccessor(&HarpInterface::m_unresolvableTrace),
                            "ns3::HarpInterface::UnresolvableTracedCallback")
            .AddTraceSource("ArpIntercepted",
                            "ns-3's ARP sent a packet (request or reply) on the GSN device; "
                            "it was kept off the wire.",
                            MakeTraceSourceAccessor(&HarpInterface::m_arpInterceptTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

HarpInterface::HarpInterface()
{
    NS_LOG_FUNCTION(this);
}

HarpInterface::~HarpInterface()
{
    NS_LOG_FUNCTION(this);
}

void
HarpInterface::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_timer);
    CountUnresolvedAtEnd();
    m_broadcastEmulator.reset();
    if (m_device)
    {
        m_device->SetSendInterceptor(harp::kEtherType, GsnNetDevice::SendInterceptor());
        m_device->SetReceiveInterceptor(harp::kEtherType, GsnNetDevice::ReceiveInterceptor());
    }
    if (m_arpCache)
    {
        m_arpCache->Dispose();
    }
    m_arpCache = nullptr;
    m_ipInterface = nullptr;
    m_device = nullptr;
    m_node = nullptr;
    m_waiting.clear();
    m_client.reset();
    m_server.reset();
    Object::DoDispose();
}

void
HarpInterface::Setup(Ptr<Node> node,
                     Ptr<GsnNetDevice> device,
                     Ptr<Ipv4Interface> ipInterface,
                     const harp::ClientConfig& client,
                     const std::optional<harp::ServerConfig>& server)
{
    NS_LOG_FUNCTION(this << node << device << ipInterface);
    NS_ABORT_MSG_IF(m_device, "HarpInterface::Setup called twice");
    m_node = node;
    m_device = device;
    m_ipInterface = ipInterface;
    m_clientConfig = client;
    m_serverConfig = server;
    m_client = std::make_unique<harp::Client>(client);
    if (server)
    {
        m_server = std::make_unique<harp::Server>(*server);
    }

    // IPv4 resolves next hops on this device through an ArpCache of our own. ns-3's ARP
    // keeps caches by device in its own list and expects one for every device that needs
    // ARP, which IPv4 made only if the device already asked for ARP when the address was
    // assigned. It never receives a frame of this device: HARP takes them all (below).
    device->SetAttribute("NeedsArp", BooleanValue(true));
    Ptr<ArpL3Protocol> arp = node->GetObject<ArpL3Protocol>();
    NS_ABORT_MSG_UNLESS(arp, "HARP needs ns-3's internet stack on node " << node->GetId());
    if (!ipInterface->GetArpCache())
    {
        arp->CreateCache(device, ipInterface);
    }
    m_arpCache = CreateObject<ArpCache>();
    m_arpCache->SetDevice(device, ipInterface);
    // ns-3 gives up when HARP does: the same attempt time and number of retries.
    m_arpCache->SetWaitReplyTimeout(NanoSeconds(int64_t(client.requestTimeout)));
    m_arpCache->SetAttribute("MaxRetries", UintegerValue(client.requestRetries));
    m_arpCache->SetArpRequestCallback(MakeCallback(&HarpInterface::ArpCacheRetry, this));
    ipInterface->SetArpCache(m_arpCache);

    device->SetSendInterceptor(harp::kEtherType, MakeCallback(&HarpInterface::InterceptArp, this));
    // Nodes are disposed by a destroy event scheduled with the first node, so this one runs
    // after every interface has counted what it left.
    if (!g_unresolved.reportScheduled)
    {
        g_unresolved.reportScheduled = true;
        Simulator::ScheduleDestroy(&HarpInterface::ReportUnresolvedAtEnd);
    }
    device->SetReceiveInterceptor(harp::kEtherType,
                                  MakeCallback(&HarpInterface::ReceiveFromDevice, this));
    m_broadcastEmulator =
        std::make_unique<HarpBroadcastEmulator>(node, device, [this]() { return GetServer(); });
}

void
HarpInterface::SetBroadcastEmulation(bool enable)
{
    m_emulateBroadcast = enable;
    UpdateBroadcastEmulation();
}

bool
HarpInterface::IsEmulatingBroadcast() const
{
    return m_broadcastEmulator && m_broadcastEmulator->IsActive();
}

const HarpBroadcastCounters&
HarpInterface::GetBroadcastCounters() const
{
    static const HarpBroadcastCounters none;
    return m_broadcastEmulator ? m_broadcastEmulator->GetCounters() : none;
}

void
HarpInterface::UpdateBroadcastEmulation()
{
    if (!m_broadcastEmulator)
    {
        return;
    }
    const bool want = m_emulateBroadcast && m_client && m_client->IsBroadcastFabric() == false &&
                      !m_clientConfig.servers.empty();
    if (want && !m_broadcastEmulator->IsActive())
    {
        m_broadcastEmulator->Start(FromHarpUla(m_clientConfig.servers.front()));
    }
    else if (!want && m_broadcastEmulator->IsActive())
    {
        m_broadcastEmulator->Stop();
    }
}

harp::TimeNs
HarpInterface::Now() const
{
    return harp::TimeNs(Simulator::Now().GetNanoSeconds());
}

void
HarpInterface::Start()
{
    NS_LOG_FUNCTION(this);
    if (!m_client || m_client->GetPhase() != harp::Phase::Idle)
    {
        return;
    }
    m_client->Start(Now());
    Drain();
}

// ---------------------------------------------------------------------------------------
// Accessors

Ptr<GsnNetDevice>
HarpInterface::GetDevice() const
{
    return m_device;
}

Ptr<Ipv4Interface>
HarpInterface::GetIpv4Interface() const
{
    return m_ipInterface;
}

Ptr<ArpCache>
HarpInterface::GetArpCache() const
{
    return m_arpCache;
}

Ipv4Address
HarpInterface::GetAddress() const
{
    return FromHarpIpv4(m_clientConfig.address);
}

Ipv4Mask
HarpInterface::GetMask() const
{
    return Ipv4Mask(m_clientConfig.lis.GetMask().Get());
}

Mac48Address
HarpInterface::GetUla() const
{
    return FromHarpUla(m_clientConfig.ula);
}

bool
HarpInterface::IsInLis(Ipv4Address ip) const
{
    return m_clientConfig.lis.IsHost(ToHarpIpv4(ip));
}

bool
HarpInterface::HasServer() const
{
    return m_serverConfig.has_value();
}

bool
HarpInterface::IsClientRunning() const
{
    return m_client != nullptr;
}

bool
HarpInterface::IsServerRunning() const
{
    return m_server != nullptr;
}

const harp::Client&
HarpInterface::GetClient() const
{
    NS_ABORT_MSG_UNLESS(m_client, "HarpInterface: the client is stopped");
    return *m_client;
}

const harp::Server*
HarpInterface::GetServer() const
{
    return m_server.get();
}

harp::Phase
HarpInterface::GetPhase() const
{
    return m_client ? m_client->GetPhase() : harp::Phase::Idle;
}

const HarpAdapterCounters&
HarpInterface::GetCounters() const
{
    return m_counters;
}

// ---------------------------------------------------------------------------------------
// What the run left unresolved

void
HarpInterface::CountUnresolvedAtEnd()
{
    if (!m_arpCache)
    {
        return;
    }
    uint64_t datagrams = 0;
    uint64_t nextHops = 0;
    for (Ipv4Address ip : m_arpAsked)
    {
        ArpCache::Entry* entry = m_arpCache->Lookup(ip);
        if (entry == nullptr || !entry->IsWaitReply())
        {
            continue;
        }
        ++nextHops;
        // The cache is about to be flushed: taking them out is the only way to count them.
        while (entry->DequeuePending().first)
        {
            ++datagrams;
        }
    }
    m_arpAsked.clear();
    if (datagrams == 0)
    {
        return;
    }
    m_counters.datagramsUnresolvedAtEnd += datagrams;
    m_counters.nextHopsUnresolvedAtEnd += nextHops;
    const bool detecting = m_client && m_client->GetPhase() == harp::Phase::Detecting;
    NS_LOG_WARN(this << " " << GetAddress() << ": " << datagrams << " datagram(s) to " << nextHops
                     << " next hop(s) still waiting for HARP at the end of the run"
                     << (detecting ? " (the broadcast self-test had not finished)" : ""));
    g_unresolved.datagrams += datagrams;
    g_unresolved.nextHops += nextHops;
    ++g_unresolved.interfaces;
    g_unresolved.detecting += detecting ? 1 : 0;
}

void
HarpInterface::ReportUnresolvedAtEnd()
{
    const UnresolvedTally tally = g_unresolved;
    g_unresolved = UnresolvedTally();
    if (tally.datagrams == 0)
    {
        return;
    }
    std::cerr << "HARP warning: the run ended with " << tally.datagrams << " datagram(s) to "
              << tally.nextHops << " next hop(s) on " << tally.interfaces
              << " interface(s) still waiting for address resolution";
    if (tally.detecting > 0)
    {
        std::cerr << "; " << tally.detecting
                  << " interface(s) were still in the broadcast self-test (FabricMode Detect "
                     "takes BroadcastProbes x ProbeInterval, 3 s by default, to find a "
                     "non-broadcast fabric): set ns3::HarpProtocol::FabricMode to Broadcast "
                     "or NonBroadcast, or build the fabric with GsnFabricHelper and keep Auto";
    }
    std::cerr << " (HarpAdapterCounters::datagramsUnresolvedAtEnd)" << std::endl;
}

// ---------------------------------------------------------------------------------------

void
HarpInterface::Print(std::ostream& os) const
{
    os << "HARP on " << GetAddress() << " (" << GetUla() << "), phase "
       << harp::PhaseName(GetPhase()) << "\n";
    auto line = [&os](harp::Ipv4 ip, const harp::Ula& ula, const char* kind) {
        std::ostringstream address;
        address << std::left << std::setw(16) << ip.ToString();
        os << "  " << address.str() << ula.ToString() << "  " << kind << "\n";
    };
    if (m_client)
    {
        for (const auto& [ip, entry] : m_client->GetCache().GetEntries())
        {
            line(ip, entry.ula, entry.isStatic ? "static" : "dynamic");
        }
    }
    if (m_server)
    {
        os << "  server table:\n";
        for (const auto& [ip, entry] : m_server->GetTable().GetEntries())
        {
            line(ip, entry.ula, entry.isStatic ? "static" : "registered");
        }
    }
}

} // namespace ns3
