/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "harp-interface.h"

#include "harp-address-conversion.h"

#include "ns3/abort.h"
#include "ns3/arp-cache.h"
#include "ns3/arp-header.h"
#include "ns3/arp-l3-protocol.h"
#include "ns3/boolean.h"
#include "ns3/gsn-net-device.h"
#include "ns3/ipv4-interface.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HarpInterface");

NS_OBJECT_ENSURE_REGISTERED(HarpInterface);

namespace
{
/// What the interfaces disposed in this run left unresolved, for one warning at its end.
struct UnresolvedTally
{
    bool reportScheduled{false};     ///< the destroy event is scheduled
    uint64_t datagrams{0};           ///< datagrams left waiting
    uint64_t nextHops{0};            ///< next hops they waited for
    uint64_t interfaces{0};          ///< interfaces that had some
    uint64_t detecting{0};           ///< of those, still in the broadcast self-test
};

UnresolvedTally g_unresolved; ///< this run's tally

/// Calls a ResolveAsync callback (scheduled, so that it runs after its caller returned).
void
InvokeResolveCallback(HarpInterface::ResolveCallback callback,
                      Ipv4Address ip,
                      bool ok,
                      Mac48Address ula)
{
    callback(ip, ok, ula);
}
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
// Resolution interface (IPv4 through the ARP cache, ST and users directly)

std::optional<Mac48Address>
HarpInterface::Resolve(Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << ip);
    if (!m_client)
    {
        return std::nullopt;
    }
    const std::optional<harp::Ula> hit = m_client->Resolve(Now(), ToHarpIpv4(ip));
    Drain();
    if (!hit)
    {
        return std::nullopt;
    }
    return FromHarpUla(*hit);
}

void
HarpInterface::ResolveAsync(Ipv4Address ip, ResolveCallback callback)
{
    NS_LOG_FUNCTION(this << ip);
    // Registered first: the resolution may fail at once (outside the LIS).
    m_waiting[ip].push_back(callback);
    if (!m_client)
    {
        FinishWaiting(ip, false, Mac48Address());
        return;
    }
    const std::optional<Mac48Address> hit = Resolve(ip);
    if (hit)
    {
        FinishWaiting(ip, true, *hit);
    }
}

std::optional<Mac48Address>
HarpInterface::Lookup(Ipv4Address ip) const
{
    if (!m_client)
    {
        return std::nullopt;
    }
    const std::optional<harp::Ula> ula = m_client->Lookup(ToHarpIpv4(ip));
    if (!ula)
    {
        return std::nullopt;
    }
    return FromHarpUla(*ula);
}

bool
HarpInterface::AddStatic(Ipv4Address ip, Mac48Address ula)
{
    NS_LOG_FUNCTION(this << ip << ula);
    bool taken = false;
    if (m_client)
    {
        taken = m_client->AddStatic(ToHarpIpv4(ip), ToHarpUla(ula)) || taken;
    }
    if (m_server)
    {
        taken = m_server->AddStatic(ToHarpIpv4(ip), ToHarpUla(ula)) || taken;
    }
    if (taken && m_client && m_client->Lookup(ToHarpIpv4(ip)))
    {
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, ula);
    }
    Drain();
    return taken;
}

bool
HarpInterface::RemoveStatic(Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << ip);
    bool removed = false;
    if (m_client)
    {
        removed = m_client->RemoveStatic(ToHarpIpv4(ip)) || removed;
    }
    if (m_server)
    {
        removed = m_server->RemoveStatic(ToHarpIpv4(ip)) || removed;
    }
    if (removed)
    {
        ForgetArpEntry(ip);
    }
    Drain();
    return removed;
}

// ---------------------------------------------------------------------------------------
// Engines starting and stopping

void
HarpInterface::StopServer()
{
    NS_LOG_FUNCTION(this);
    m_server.reset();
    RearmTimer();
}

void
HarpInterface::StartServer()
{
    NS_LOG_FUNCTION(this);
    if (!m_serverConfig || m_server)
    {
        return;
    }
    m_server = std::make_unique<harp::Server>(*m_serverConfig);
    Drain();
}

void
HarpInterface::StopClient()
{
    NS_LOG_FUNCTION(this);
    if (!m_client)
    {
        return;
    }
    m_client.reset();
    UpdateBroadcastEmulation();
    if (m_lastPhase != harp::Phase::Idle)
    {
        m_phaseTrace(m_lastPhase, harp::Phase::Idle);
        m_lastPhase = harp::Phase::Idle;
    }
    // Nobody will answer the callers any more.
    std::vector<Ipv4Address> waiting;
    for (const auto& entry : m_waiting)
    {
        waiting.push_back(entry.first);
    }
    for (Ipv4Address ip : waiting)
    {
        FinishWaiting(ip, false, Mac48Address());
    }
    RearmTimer();
}

void
HarpInterface::StartClient()
{
    NS_LOG_FUNCTION(this);
    if (m_client)
    {
        return;
    }
    m_client = std::make_unique<harp::Client>(m_clientConfig);
    Start();
}

// ---------------------------------------------------------------------------------------
// ns-3's ARP, answered by HARP

bool
HarpInterface::InterceptArp(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    m_arpInterceptTrace(packet);
    Ptr<Packet> copy = packet->Copy();
    ArpHeader arp;
    if (copy->RemoveHeader(arp) == 0)
    {
        ++m_counters.arpUnreadable;
        return true;
    }
    if (arp.IsRequest())
    {
        ++m_counters.arpRequestsIntercepted;
        AskHarp(arp.GetDestinationIpv4Address());
    }
    else
    {
        // ns-3's ARP answering a HARP request it saw: the client answers for itself.
        ++m_counters.arpRepliesSuppressed;
    }
    return true; // as if sent: ns-3's ARP waits for the answer the cache will get
}

void
HarpInterface::AskHarp(Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << ip);
    m_arpAsked.insert(ip);
    if (!m_client)
    {
        return; // a stopped client answers nothing: ns-3 retries, then drops
    }
    const std::optional<harp::Ula> hit = m_client->Resolve(Now(), ToHarpIpv4(ip));
    if (hit)
    {
        // Later, not from inside the traffic-control send that carried ns-3's request.
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, FromHarpUla(*hit));
    }
    Drain();
}

void
HarpInterface::NoteArpUse(harp::TimeNs now)
{
    for (harp::Ipv4 ip : m_client->GetCache().Expired(now))
    {
        const harp::CacheEntry* entry = m_client->GetCache().Find(ip);
        if (entry == nullptr || entry->used)
        {
            continue;
        }
        ArpCache::Entry* arp = m_arpCache->Lookup(FromHarpIpv4(ip));
        if (arp != nullptr && arp->IsAlive() && !arp->IsExpired())
        {
            ++m_counters.arpUseNotices;
            m_client->Resolve(now, ip); // a hit: marks the entry as looked up
        }
    }
}

void
HarpInterface::ArpCacheRetry(Ptr<const ArpCache> cache, Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << cache << ip);
    ++m_counters.arpCacheRetries;
    AskHarp(ip);
}

void
HarpInterface::FillArpCache(Ipv4Address ip, Mac48Address ula)
{
    NS_LOG_FUNCTION(this << ip << ula);
    if (!m_arpCache)
    {
        return;
    }
    ArpCache::Entry* entry = m_arpCache->Lookup(ip);
    if (entry == nullptr)
    {
        return;
    }
    if (entry->IsWaitReply())
    {
        ++m_counters.arpCacheFills;
        entry->MarkAlive(ula);
        ArpCache::Ipv4PayloadHeaderPair pending = entry->DequeuePending();
        while (pending.first)
        {
            m_ipInterface->Send(pending.first, pending.second, ip);
            pending = entry->DequeuePending();
        }
    }
    else if (entry->IsDead())
    {
        // ns-3 gave up earlier; HARP knows better now: the next packet asks again.
        ++m_counters.arpCacheFlushes;
        m_arpCache->Remove(entry);
    }
    else if (entry->IsAlive() && entry->GetMacAddress() != Address(ula))
    {
        entry->SetMacAddress(ula);
    }
}

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

void
HarpInterface::ForgetArpEntry(Ipv4Address ip)
{
    if (!m_arpCache)
    {
        return;
    }
    ArpCache::Entry* entry = m_arpCache->Lookup(ip);
    if (entry != nullptr && (entry->IsAlive() || entry->IsDead()))
    {
        ++m_counters.arpCacheFlushes;
        m_arpCache->Remove(entry);
    }
}

// ---------------------------------------------------------------------------------------
// Frames

void
HarpInterface::ReceiveFromDevice(Ptr<const Packet> packet, Mac48Address from)
{
    NS_LOG_FUNCTION(this << packet << from);
    ++m_counters.rxFrames;
    Deliver(packet, from);
}

void
HarpInterface::Deliver(Ptr<const Packet> frame, Mac48Address source)
{
    NS_LOG_FUNCTION(this << frame << source);
    m_rxTrace(frame, source);
    std::vector<uint8_t> bytes(frame->GetSize());
    frame->CopyData(bytes.data(), bytes.size());
    const harp::Ula ula = ToHarpUla(source);
    const harp::TimeNs now = Now();
    if (m_client)
    {
        const harp::Stats before = m_client->GetStats();
        m_client->HandleFrame(now, ula, bytes);
        TraceDrops(before, m_client->GetStats(), frame, source, false);
    }
    if (m_server)
    {
        const harp::Stats before = m_server->GetStats();
        m_server->HandleFrame(now, ula, bytes);
        TraceDrops(before, m_server->GetStats(), frame, source, true);
    }
    Drain();
}

void
HarpInterface::TraceDrops(const harp::Stats& before,
                          const harp::Stats& after,
                          Ptr<const Packet> frame,
                          Mac48Address source,
                          bool byServer)
{
    for (std::size_t r = 0; r < harp::kDropReasonCount; ++r)
    {
        for (uint64_t n = before.drops[r]; n < after.drops[r]; ++n)
        {
            const auto reason = static_cast<harp::DropReason>(r);
            NS_LOG_LOGIC(this << (byServer ? " server" : " client") << " dropped a frame from "
                              << source << ": " << harp::DropReasonName(reason));
            m_dropTrace(frame, source, reason, byServer);
        }
    }
}

void
HarpInterface::Transmit(const harp::Frame& frame)
{
    Ptr<Packet> packet = Create<Packet>(frame.bytes.data(), uint32_t(frame.bytes.size()));
    const Mac48Address destination = FromHarpUla(frame.destination);
    m_txTrace(packet, destination);
    if (destination == GetUla())
    {
        // A client registering with the server of its own host: never on the wire.
        ++m_counters.loopedBack;
        Simulator::ScheduleNow(&HarpInterface::Deliver,
                               this,
                               Ptr<const Packet>(packet),
                               destination);
        return;
    }
    ++m_counters.txFrames;
    if (!m_device->SendToWire(packet, destination, harp::kEtherType))
    {
        ++m_counters.txRefused;
    }
}

// ---------------------------------------------------------------------------------------
// Engine output: frames, events, timer

void
HarpInterface::Drain()
{
    if (m_draining)
    {
        return; // the loop below picks up what this call would have
    }
    m_draining = true;
    bool more = true;
    while (more)
    {
        more = false;
        if (m_client)
        {
            while (const std::optional<harp::Frame> frame = m_client->PollTransmit())
            {
                Transmit(*frame);
                more = true;
            }
        }
        if (m_server)
        {
            while (const std::optional<harp::Frame> frame = m_server->PollTransmit())
            {
                Transmit(*frame);
                more = true;
            }
        }
        if (m_client)
        {
            while (const std::optional<harp::Event> event = m_client->PollEvent())
            {
                HandleEvent(*event, false);
                more = true;
            }
        }
        if (m_server)
        {
            while (const std::optional<harp::Event> event = m_server->PollEvent())
            {
                HandleEvent(*event, true);
                more = true;
            }
        }
    }
    m_draining = false;
    RearmTimer();
}

void
HarpInterface::HandleEvent(const harp::Event& event, bool byServer)
{
    NS_LOG_LOGIC(this << (byServer ? " server: " : " client: ") << event.ToString());
    m_eventTrace(event, byServer);
    if (byServer)
    {
        return;
    }
    const Ipv4Address ip = FromHarpIpv4(event.ip);
    const Mac48Address ula = FromHarpUla(event.ula);
    switch (event.type)
    {
    case harp::EventType::PhaseChanged:
        m_phaseTrace(m_lastPhase, event.phase);
        m_lastPhase = event.phase;
        UpdateBroadcastEmulation();
        break;
    case harp::EventType::Resolved:
        m_resolvedTrace(ip, ula);
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, ula);
        FinishWaiting(ip, true, ula);
        break;
    case harp::EventType::Revalidated:
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, ula);
        break;
    case harp::EventType::Unresolvable:
        m_unresolvableTrace(ip, event.reason);
        FinishWaiting(ip, false, Mac48Address());
        break;
    case harp::EventType::EntryRemoved:
        ForgetArpEntry(ip);
        break;
    default:
        break;
    }
}

void
HarpInterface::FinishWaiting(Ipv4Address ip, bool ok, Mac48Address ula)
{
    auto it = m_waiting.find(ip);
    if (it == m_waiting.end())
    {
        return;
    }
    std::vector<ResolveCallback> callbacks = std::move(it->second);
    m_waiting.erase(it);
    for (const ResolveCallback& callback : callbacks)
    {
        Simulator::ScheduleNow(&InvokeResolveCallback, callback, ip, ok, ula);
    }
}

void
HarpInterface::RearmTimer()
{
    std::optional<harp::TimeNs> next;
    if (m_client)
    {
        next = m_client->PollTimeout();
    }
    if (m_server)
    {
        const std::optional<harp::TimeNs> server = m_server->PollTimeout();
        if (server && (!next || *server < *next))
        {
            next = server;
        }
    }
    if (!next)
    {
        Simulator::Cancel(m_timer);
        m_timerAt = harp::kNever;
        return;
    }
    if (m_timer.IsRunning() && m_timerAt == *next)
    {
        return;
    }
    Simulator::Cancel(m_timer);
    const harp::TimeNs now = Now();
    const harp::TimeNs delay = *next > now ? *next - now : 0;
    m_timerAt = *next;
    m_timer = Simulator::Schedule(NanoSeconds(int64_t(delay)), &HarpInterface::HandleTimer, this);
}

void
HarpInterface::HandleTimer()
{
    NS_LOG_FUNCTION(this);
    m_timerAt = harp::kNever;
    const harp::TimeNs now = Now();
    if (m_client)
    {
        NoteArpUse(now);
        m_client->HandleTimeout(now);
    }
    if (m_server)
    {
        m_server->HandleTimeout(now);
    }
    Drain();
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
