/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "harp-protocol.h"

#include "harp-address-conversion.h"

#include "ns3/abort.h"
#include "ns3/arp-cache.h"
#include "ns3/arp-l3-protocol.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/gsn-attribute-checker.h"
#include "ns3/gsn-net-device.h"
#include "ns3/harp-options.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HarpProtocol");

NS_OBJECT_ENSURE_REGISTERED(HarpProtocol);

namespace
{
/// \param t a period \return the same in the engine's unit
harp::TimeNs
ToNs(Time t)
{
    return harp::TimeNs(t.GetNanoSeconds());
}

/// \param address an interface address \return its LIS (aborts on a non-contiguous mask)
harp::Subnet
LisOf(const Ipv4InterfaceAddress& address)
{
    const std::optional<harp::Subnet> lis =
        harp::Subnet::FromMask(ToHarpIpv4(address.GetLocal()), harp::Ipv4(address.GetMask().Get()));
    NS_ABORT_MSG_UNLESS(lis, "HARP: the mask of " << address.GetLocal() << " is not contiguous");
    return *lis;
}
} // namespace

TypeId
HarpProtocol::GetTypeId()
{
    // Defaults come from harp-config.h, where their sources are given once.
    static TypeId tid =
        TypeId("ns3::HarpProtocol")
            .SetParent<Object>()
            .SetGroupName("Harp")
            .AddConstructor<HarpProtocol>()
            .AddAttribute("InterfaceList",
                          "The HARP interfaces of the node.",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&HarpProtocol::m_interfaces),
                          MakeObjectVectorChecker<HarpInterface>())
            .AddAttribute("FabricMode",
                          "How clients learn whether the fabric broadcasts: Auto (what the "
                          "helper that built the GSN fabric recorded on the device, else "
                          "Detect), Detect (the RFC 2835 self-test at start-up, 3 s on a "
                          "non-broadcast fabric with the defaults), Broadcast or NonBroadcast.",
                          EnumValue(HarpProtocol::AUTO),
                          MakeEnumAccessor(&HarpProtocol::m_fabricMode),
                          MakeGsnEnumChecker("ns3::HarpProtocol::FabricMode",
                                             HarpProtocol::AUTO,
                                             "Auto",
                                             HarpProtocol::DETECT,
                                             "Detect",
                                             HarpProtocol::BROADCAST,
                                             "Broadcast",
                                             HarpProtocol::NON_BROADCAST,
                                             "NonBroadcast"))
            .AddAttribute("BroadcastProbes",
                          "Broadcast self-test probes ([C] a host may send several; 3 is "
                          "[U] harp-protocol-reference.rst 'Proposed timers').",
                          UintegerValue(harp::kDefaultBroadcastProbes),
                          MakeUintegerAccessor(&HarpProtocol::m_broadcastProbes),
                          MakeGsnChecker("ns3::HarpProtocol::BroadcastProbes",
                                         MakeUintegerChecker<uint32_t>(1)))
            .AddAttribute(
                "ProbeInterval",
                "Time between probes, and after the last one ([U] harp-protocol-reference.rst "
                "'Proposed timers').",
                TimeValue(NanoSeconds(int64_t(harp::kDefaultProbeInterval))),
                MakeTimeAccessor(&HarpProtocol::m_probeInterval),
                MakeGsnChecker("ns3::HarpProtocol::ProbeInterval", MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("RegistrationRetry",
                          "InARP retransmission to servers that have not answered ([C] "
                          "behaviour, [U] period, harp-protocol-reference.rst 'Proposed timers').",
                          TimeValue(NanoSeconds(int64_t(harp::kDefaultRegistrationRetry))),
                          MakeTimeAccessor(&HarpProtocol::m_registrationRetry),
                          MakeGsnChecker("ns3::HarpProtocol::RegistrationRetry",
                                         MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("RequestTimeout",
                          "Time for an answer to an ARP request or re-registration ([U] "
                          "harp-protocol-reference.rst 'Proposed timers'); also ns-3's ARP cache "
                          "WaitReplyTimeout.",
                          TimeValue(NanoSeconds(int64_t(harp::kDefaultRequestTimeout))),
                          MakeTimeAccessor(&HarpProtocol::m_requestTimeout),
                          MakeGsnChecker("ns3::HarpProtocol::RequestTimeout",
                                         MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("RequestRetries",
                          "Attempts after the first ([U] harp-protocol-reference.rst 'Proposed "
                          "timers'); also ns-3's ARP "
                          "cache MaxRetries.",
                          UintegerValue(harp::kDefaultRequestRetries),
                          MakeUintegerAccessor(&HarpProtocol::m_requestRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReregistrationInterval",
                          "Re-registration with every server ([C] IRIX default, 15 min).",
                          TimeValue(NanoSeconds(int64_t(harp::kDefaultReregistrationInterval))),
                          MakeTimeAccessor(&HarpProtocol::m_reregistrationInterval),
                          MakeGsnChecker("ns3::HarpProtocol::ReregistrationInterval",
                                         MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute(
                "CacheLifetime",
                "A dynamic entry is revalidated or removed after this ([C] RFC 2835, "
                "15 min).",
                TimeValue(NanoSeconds(int64_t(harp::kDefaultCacheLifetime))),
                MakeTimeAccessor(&HarpProtocol::m_cacheLifetime),
                MakeGsnChecker("ns3::HarpProtocol::CacheLifetime", MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("RegistrationLifetime",
                          "A server forgets a client silent for this long ([C] RFC 2835, "
                          "20 min).",
                          TimeValue(NanoSeconds(int64_t(harp::kDefaultRegistrationLifetime))),
                          MakeTimeAccessor(&HarpProtocol::m_registrationLifetime),
                          MakeGsnChecker("ns3::HarpProtocol::RegistrationLifetime",
                                         MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("RevalidateIdleEntries",
                          "Revalidate entries not looked up since their last validation too "
                          "(default: remove them; RFC 2835 allows both).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HarpProtocol::m_revalidateIdleEntries),
                          MakeBooleanChecker())
            .AddAttribute(
                "StartDelay",
                "Time from AddInterface (or from the start of the simulation) to the "
                "start of the interface's client.",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&HarpProtocol::m_startDelay),
                MakeGsnChecker("ns3::HarpProtocol::StartDelay", MakeTimeChecker(Seconds(0))))
            .AddAttribute("ZeroArpRequestJitter",
                          "Set the node's ns3::ArpL3Protocol::RequestJitter to zero when HARP "
                          "runs on one of its interfaces: the jitter spreads broadcast ARP on "
                          "shared LANs; over GSN it only delays every first datagram to a "
                          "next hop by up to 10 ms (it applies to the node's other interfaces "
                          "too).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HarpProtocol::m_zeroArpRequestJitter),
                          MakeBooleanChecker())
            .AddAttribute("BroadcastEmulation",
                          "On a non-broadcast fabric, emulate IP broadcast and multicast as "
                          "RFC 2835 7.1 (PIBES) has it: hosts send them as unicast to the "
                          "LIS's first HARP server, which copies them to every host registered "
                          "in the sender's LIS but the sender. False: they go to the broadcast "
                          "ULA, which a non-broadcast switch drops (NoBroadcast).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HarpProtocol::m_broadcastEmulation),
                          MakeBooleanChecker())
            .AddAttribute("ArpPendingQueueSize",
                          "PendingQueueSize of the ArpCache IPv4 uses on a HARP interface: "
                          "datagrams held per next hop while HARP resolves it (ns-3's default "
                          "of 3 drops a burst; 1000 is one VC's TxQueueMaxSize).",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&HarpProtocol::m_arpPendingQueueSize),
                          MakeGsnChecker("ns3::HarpProtocol::ArpPendingQueueSize",
                                         MakeUintegerChecker<uint32_t>(1)));
    return tid;
}

HarpProtocol::HarpProtocol()
    : m_broadcastProbes(harp::kDefaultBroadcastProbes),
      m_requestRetries(harp::kDefaultRequestRetries),
      m_revalidateIdleEntries(false),
      m_fabricMode(AUTO),
      m_zeroArpRequestJitter(true),
      m_arpPendingQueueSize(1000),
      m_broadcastEmulation(true)
{
    NS_LOG_FUNCTION(this);
}

HarpProtocol::~HarpProtocol()
{
    NS_LOG_FUNCTION(this);
}

void
HarpProtocol::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (const Ptr<HarpInterface>& interface : m_interfaces)
    {
        interface->Dispose();
    }
    m_interfaces.clear();
    m_node = nullptr;
    Object::DoDispose();
}

void
HarpProtocol::NotifyNewAggregate()
{
    if (!m_node)
    {
        Ptr<Node> node = GetObject<Node>();
        if (node)
        {
            SetNode(node);
        }
    }
    Object::NotifyNewAggregate();
}

void
HarpProtocol::SetNode(Ptr<Node> node)
{
    m_node = node;
}

Ptr<Node>
HarpProtocol::GetNode() const
{
    return m_node;
}

harp::ClientConfig
HarpProtocol::GetDefaultClientConfig() const
{
    harp::ClientConfig config;
    switch (m_fabricMode)
    {
    case AUTO:
    case DETECT:
        config.mode = harp::FabricMode::Detect;
        break;
    case BROADCAST:
        config.mode = harp::FabricMode::Broadcast;
        break;
    case NON_BROADCAST:
        config.mode = harp::FabricMode::NonBroadcast;
        break;
    }
    config.broadcastProbes = m_broadcastProbes;
    config.probeInterval = ToNs(m_probeInterval);
    config.registrationRetry = ToNs(m_registrationRetry);
    config.requestTimeout = ToNs(m_requestTimeout);
    config.requestRetries = m_requestRetries;
    config.reregistrationInterval = ToNs(m_reregistrationInterval);
    config.cacheLifetime = ToNs(m_cacheLifetime);
    config.revalidateIdleEntries = m_revalidateIdleEntries;
    return config;
}

harp::FabricMode
HarpProtocol::GetFabricModeFor(Ptr<const GsnNetDevice> device) const
{
    if (m_fabricMode != AUTO || !device)
    {
        return GetDefaultClientConfig().mode;
    }
    switch (device->GetFabricBroadcast())
    {
    case GsnFabricBroadcast::BROADCAST:
        return harp::FabricMode::Broadcast;
    case GsnFabricBroadcast::NON_BROADCAST:
        return harp::FabricMode::NonBroadcast;
    default:
        return harp::FabricMode::Detect;
    }
}

harp::ServerConfig
HarpProtocol::GetDefaultServerConfig() const
{
    harp::ServerConfig config;
    config.registrationLifetime = ToNs(m_registrationLifetime);
    return config;
}

Ptr<HarpInterface>
HarpProtocol::AddInterface(Ptr<GsnNetDevice> device, const HarpInterfaceConfig& config)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_UNLESS(m_node, "HarpProtocol: not aggregated to a node");
    NS_ABORT_MSG_UNLESS(device && device->GetNode() == m_node,
                        "HarpProtocol: the device is not on this node");
    NS_ABORT_MSG_IF(GetInterfaceForDevice(device),
                    "HarpProtocol: HARP already runs on device " << device->GetIfIndex()
                                                                 << " of node " << m_node->GetId());
    Ptr<Ipv4L3Protocol> ipv4 = m_node->GetObject<Ipv4L3Protocol>();
    NS_ABORT_MSG_UNLESS(ipv4,
                        "HARP: install the internet stack on node " << m_node->GetId() << " first");
    const int32_t index = ipv4->GetInterfaceForDevice(device);
    NS_ABORT_MSG_UNLESS(index >= 0 && ipv4->GetNAddresses(uint32_t(index)) > 0,
                        "HARP: device " << device->GetIfIndex() << " of node " << m_node->GetId()
                                        << " has no IPv4 address");
    Ptr<Ipv4Interface> ipInterface = ipv4->GetInterface(uint32_t(index));

    const harp::OptionsParseResult parsed = harp::ParseOptions(config.options);
    if (!parsed.Ok())
    {
        std::ostringstream errors;
        for (const harp::OptionsError& error : parsed.errors)
        {
            errors << "\n  line " << error.line << ": " << error.message;
        }
        NS_FATAL_ERROR("HARP options of node " << m_node->GetId() << ":" << errors.str());
    }

    const Ipv4InterfaceAddress primary = ipInterface->GetAddress(0);
    harp::ClientConfig client = GetDefaultClientConfig();
    client.mode = GetFabricModeFor(device);
    client.ula = ToHarpUla(Mac48Address::ConvertFrom(device->GetAddress()));
    client.address = ToHarpIpv4(primary.GetLocal());
    client.lis = LisOf(primary);
    parsed.options.ApplyTo(client);
    for (const Mac48Address& server : config.servers)
    {
        client.servers.push_back(ToHarpUla(server));
    }
    for (const HarpStaticEntry& entry : config.statics)
    {
        client.statics.push_back({ToHarpIpv4(entry.ip), ToHarpUla(entry.ula)});
    }

    std::optional<harp::ServerConfig> server;
    if (config.server)
    {
        server = GetDefaultServerConfig();
        server->ula = client.ula;
        for (uint32_t a = 0; a < ipInterface->GetNAddresses(); ++a)
        {
            const Ipv4InterfaceAddress address = ipInterface->GetAddress(a);
            server->lis.push_back({LisOf(address), ToHarpIpv4(address.GetLocal())});
        }
        parsed.options.ApplyTo(*server);
        for (const HarpStaticEntry& entry : config.statics)
        {
            server->statics.push_back({ToHarpIpv4(entry.ip), ToHarpUla(entry.ula)});
        }
    }

    Ptr<HarpInterface> interface = CreateObject<HarpInterface>();
    interface->Setup(m_node, device, ipInterface, client, server);
    interface->SetBroadcastEmulation(m_broadcastEmulation);
    interface->GetArpCache()->SetAttribute("PendingQueueSize",
                                           UintegerValue(m_arpPendingQueueSize));
    if (m_zeroArpRequestJitter)
    {
        // Per ArpL3Protocol object: Config::SetDefault would come too late for this node.
        Ptr<ConstantRandomVariable> none = CreateObject<ConstantRandomVariable>();
        none->SetAttribute("Constant", DoubleValue(0.0));
        m_node->GetObject<ArpL3Protocol>()->SetAttribute("RequestJitter", PointerValue(none));
    }
    m_interfaces.push_back(interface);
    Simulator::ScheduleWithContext(m_node->GetId(), m_startDelay, &HarpInterface::Start, interface);
    return interface;
}

uint32_t
HarpProtocol::GetNInterfaces() const
{
    return uint32_t(m_interfaces.size());
}

Ptr<HarpInterface>
HarpProtocol::GetInterface(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_interfaces.size(), "HarpProtocol: no interface " << i);
    return m_interfaces[i];
}

Ptr<HarpInterface>
HarpProtocol::GetInterfaceForDevice(Ptr<const NetDevice> device) const
{
    for (const Ptr<HarpInterface>& interface : m_interfaces)
    {
        if (PeekPointer(interface->GetDevice()) == PeekPointer(device))
        {
            return interface;
        }
    }
    return nullptr;
}

Ptr<HarpInterface>
HarpProtocol::GetInterfaceForIfIndex(uint32_t ifIndex) const
{
    for (const Ptr<HarpInterface>& interface : m_interfaces)
    {
        if (interface->GetDevice()->GetIfIndex() == ifIndex)
        {
            return interface;
        }
    }
    return nullptr;
}

Ptr<HarpInterface>
HarpProtocol::GetInterfaceForPeer(Ipv4Address peer) const
{
    for (const Ptr<HarpInterface>& interface : m_interfaces)
    {
        if (interface->IsInLis(peer))
        {
            return interface;
        }
    }
    return nullptr;
}

std::optional<Mac48Address>
HarpProtocol::Resolve(Ptr<const NetDevice> device, Ipv4Address ip)
{
    Ptr<HarpInterface> interface = GetInterfaceForDevice(device);
    return interface ? interface->Resolve(ip) : std::nullopt;
}

std::optional<Mac48Address>
HarpProtocol::Resolve(uint32_t ifIndex, Ipv4Address ip)
{
    Ptr<HarpInterface> interface = GetInterfaceForIfIndex(ifIndex);
    return interface ? interface->Resolve(ip) : std::nullopt;
}

namespace
{
/// Reports a failure to a resolution caller on a device without HARP.
void
ReportNoHarp(HarpInterface::ResolveCallback callback, Ipv4Address ip)
{
    callback(ip, false, Mac48Address());
}
} // namespace

void
HarpProtocol::ResolveAsync(Ptr<const NetDevice> device,
                           Ipv4Address ip,
                           HarpInterface::ResolveCallback callback)
{
    Ptr<HarpInterface> interface = GetInterfaceForDevice(device);
    if (!interface)
    {
        Simulator::ScheduleNow(&ReportNoHarp, callback, ip);
        return;
    }
    interface->ResolveAsync(ip, callback);
}

void
HarpProtocol::ResolveAsync(uint32_t ifIndex,
                           Ipv4Address ip,
                           HarpInterface::ResolveCallback callback)
{
    Ptr<HarpInterface> interface = GetInterfaceForIfIndex(ifIndex);
    if (!interface)
    {
        Simulator::ScheduleNow(&ReportNoHarp, callback, ip);
        return;
    }
    interface->ResolveAsync(ip, callback);
}

std::optional<Mac48Address>
HarpProtocol::Lookup(Ptr<const NetDevice> device, Ipv4Address ip) const
{
    Ptr<HarpInterface> interface = GetInterfaceForDevice(device);
    return interface ? interface->Lookup(ip) : std::nullopt;
}

} // namespace ns3
