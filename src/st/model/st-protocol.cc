/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-protocol.h"

#include "st-bypass-api.h"
#include "st-simulator-driver.h"

#include "ns3/arp-cache.h"
#include "ns3/boolean.h"
#include "ns3/csma-net-device.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-process-tag.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StProtocol");

NS_OBJECT_ENSURE_REGISTERED(StProtocol);

namespace
{
/// Defaults of the engine, the one place they are written (src/st/core/st-config.h).
const st::StConfig&
Defaults()
{
    static const st::StConfig config;
    return config;
}

/// The verdict Receive counted: the one whose counter moved.
st::StRxVerdict
VerdictOf(const st::StCounters& before, const st::StCounters& after)
{
    for (uint8_t v = 0; v < static_cast<uint8_t>(st::StRxVerdict::Count); ++v)
    {
        const auto verdict = static_cast<st::StRxVerdict>(v);
        if (after.Get(verdict) != before.Get(verdict))
        {
            return verdict;
        }
    }
    return st::StRxVerdict::Accepted;
}
} // namespace

TypeId
StProtocol::GetTypeId()
{
    const st::StConnParams& p = Defaults().defaults;
    static TypeId tid =
        TypeId("ns3::StProtocol")
            .SetParent<Object>()
            .SetGroupName("St")
            .AddConstructor<StProtocol>()
            .AddAttribute("Slots",
                          "Slots advertised in RC/CA; 65535 = no slot accounting "
                          "([C] IRIX advertises 255).",
                          UintegerValue(p.slots),
                          MakeUintegerAccessor(&StProtocol::m_slots),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Bufsize",
                          "log2 of a Bufx entry advertised in RC/CA ([C] IRIX 14 = 16 KiB; "
                          "at least 8).",
                          UintegerValue(p.bufsize),
                          MakeUintegerAccessor(&StProtocol::m_bufsize),
                          MakeUintegerChecker<uint8_t>(st::StMemoryTable::MIN_BUFSIZE,
                                                       st::StMemoryTable::MAX_BUFSIZE))
            .AddAttribute("MaxStu",
                          "log2 of the largest STU accepted ([C] IRIX 24; sent as "
                          "min(MaxStu, Bufsize)).",
                          UintegerValue(p.maxStu),
                          MakeUintegerAccessor(&StProtocol::m_maxStu),
                          MakeUintegerChecker<uint8_t>(8, 40))
            .AddAttribute("MaxBlock",
                          "log2 of the largest block (RTS Max_Block, CTS limit) ([C] IRIX 24).",
                          UintegerValue(p.maxBlock),
                          MakeUintegerAccessor(&StProtocol::m_maxBlock),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("CtsReq",
                          "CTS_req asked for in RTS; 0 is read as 64 ([C] IRIX 64).",
                          UintegerValue(p.ctsReq),
                          MakeUintegerAccessor(&StProtocol::m_ctsReq),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("DataVc",
                          "ST data channel of DATA = GSN VC (3, IRIX's default; "
                          "st-protocol-reference.rst 'ST over GSN, Ethernet and other carriers').",
                          UintegerValue(p.dataVc),
                          MakeUintegerAccessor(&StProtocol::m_dataVc),
                          MakeUintegerChecker<uint8_t>(0, 3))
            .AddAttribute("Channels",
                          "ST_OPT_CHANNELS: bit n allows data channel n ([C] SEED-API).",
                          UintegerValue(p.channels),
                          MakeUintegerAccessor(&StProtocol::m_channels),
                          MakeUintegerChecker<uint8_t>(1, 0x0F))
            .AddAttribute("ControlVc",
                          "VC of control operations ([C] SEED-GSN: 0).",
                          UintegerValue(Defaults().controlVc),
                          MakeUintegerAccessor(&StProtocol::m_controlVc),
                          MakeUintegerChecker<uint8_t>(0, 3))
            .AddAttribute("OpTimeout",
                          "Retry timeout of RC, RTS, RTR, RMR, GET, END, RS, RD and CTS "
                          "([U] 1 s; st-protocol-reference.rst 'Timers and error handling').",
                          TimeValue(NanoSeconds(Defaults().opTimeoutNs)),
                          MakeTimeAccessor(&StProtocol::m_opTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxRetries",
                          "Retries before the connection is torn down ([U] 3).",
                          UintegerValue(Defaults().maxRetries),
                          MakeUintegerAccessor(&StProtocol::m_maxRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FetchOpTimeout",
                          "Resend the DATA of a FETCHOP when its FC has not come ([U] 1 s).",
                          TimeValue(NanoSeconds(Defaults().fetchOpTimeoutNs)),
                          MakeTimeAccessor(&StProtocol::m_fetchOpTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FetchOpMaxResends",
                          "FETCHOP DATA resends before giving up ([U] 3).",
                          UintegerValue(Defaults().fetchOpMaxResends),
                          MakeUintegerAccessor(&StProtocol::m_fetchOpMaxResends),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SlotWaitTimeout",
                          "Tear down after waiting this long for slots ([C] IRIX 20 s).",
                          TimeValue(NanoSeconds(Defaults().slotWaitTimeoutNs)),
                          MakeTimeAccessor(&StProtocol::m_slotWaitTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("SlotPoll",
                          "Ask again for slots (RS) this often while starved ([U] 1 ms).",
                          TimeValue(NanoSeconds(Defaults().slotPollNs)),
                          MakeTimeAccessor(&StProtocol::m_slotPoll),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("SlotReserve",
                          "Stop sending at this many remote slots ([C] IRIX 5).",
                          UintegerValue(Defaults().slotReserve),
                          MakeUintegerAccessor(&StProtocol::m_slotReserve),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RsRsrUseSlots",
                          "RS and RSR take a slot (the seed's rule); false = IRIX rule.",
                          BooleanValue(Defaults().rsRsrUseSlots),
                          MakeBooleanAccessor(&StProtocol::m_rsRsrUseSlots),
                          MakeBooleanChecker())
            .AddAttribute("EarlyNotify",
                          "Ask for slots at half the peer's slots ([C] IRIX).",
                          BooleanValue(Defaults().earlyNotify),
                          MakeBooleanAccessor(&StProtocol::m_earlyNotify),
                          MakeBooleanChecker())
            .AddAttribute("SendState",
                          "Set S on RTS: the destination ends a write with an RSR ([C] IRIX).",
                          BooleanValue(Defaults().sendState),
                          MakeBooleanAccessor(&StProtocol::m_sendState),
                          MakeBooleanChecker())
            .AddAttribute("Interrupt",
                          "Set I on every operation (IRIX does; [U] default off).",
                          BooleanValue(Defaults().interrupt),
                          MakeBooleanAccessor(&StProtocol::m_interrupt),
                          MakeBooleanChecker())
            .AddAttribute("SilentData",
                          "Managed DATA is Silent except the last STU of a transfer ([U]).",
                          BooleanValue(Defaults().silentData),
                          MakeBooleanAccessor(&StProtocol::m_silentData),
                          MakeBooleanChecker())
            .AddAttribute("CtsReqInRts",
                          "Send CTS_req in every RTS too, as IRIX does; false: 0 in RTS, the "
                          "value negotiated in RC/CA applies (the seed's rule).",
                          BooleanValue(Defaults().ctsReqInRts),
                          MakeBooleanAccessor(&StProtocol::m_ctsReqInRts),
                          MakeBooleanChecker())
            .AddAttribute("HeaderChecksum",
                          "Compute the header checksum of every operation sent and check it on "
                          "every one received (a received 0 means not computed); false sends 0 "
                          "and checks nothing ([U], st-protocol-reference.rst 'Header "
                          "checksum').",
                          BooleanValue(Defaults().headerChecksum),
                          MakeBooleanAccessor(&StProtocol::m_headerChecksum),
                          MakeBooleanChecker())
            .AddAttribute("PauseWhenNoBuffer",
                          "Answer an RTS/RTR with no posted memory RA(R=0) (pause) instead of "
                          "a reject ([C] IRIX).",
                          BooleanValue(Defaults().pauseWhenNoBuffer),
                          MakeBooleanAccessor(&StProtocol::m_pauseWhenNoBuffer),
                          MakeBooleanChecker())
            .AddAttribute("EphemeralPortBase",
                          "First local port Connect picks ([U] IANA dynamic range).",
                          UintegerValue(Defaults().ephemeralPortBase),
                          MakeUintegerAccessor(&StProtocol::m_ephemeralPortBase),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("RcToPortZero",
                          "Send RC to Port 0 naming the service in its ULP-Port field; a "
                          "responder gives every VC it accepts a port of its own (the seed's "
                          "rule). False: RC to the service's port, accepted VCs share it "
                          "(IRIX). Both forms are answered either way.",
                          BooleanValue(Defaults().rcToPortZero),
                          MakeBooleanAccessor(&StProtocol::m_rcToPortZero),
                          MakeBooleanChecker())
            .AddAttribute("Port0Slots",
                          "Port 0's queue: accepted VCs not yet claimed by the upper layer; "
                          "an RC finding none free is dropped (verdict Port0Full) and retried "
                          "by its initiator ([C] the seed: the queue is optional); 65535 = no "
                          "limit ([U]).",
                          UintegerValue(Defaults().port0Slots),
                          MakeUintegerAccessor(&StProtocol::m_port0Slots),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Linger",
                          "Keep a closed connection to answer a late DA/DC ([U] 4 s).",
                          TimeValue(NanoSeconds(Defaults().lingerNs)),
                          MakeTimeAccessor(&StProtocol::m_linger),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("RxFetchOpMemory",
                          "Completed FETCHOP ids remembered to answer duplicates ([U] 64).",
                          UintegerValue(Defaults().rxFetchOpMemory),
                          MakeUintegerAccessor(&StProtocol::m_rxFetchOpMemory),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("EthernetLlcShortData",
                          "On a CSMA (Ethernet) device, send a DATA shorter than the 46-byte "
                          "minimum payload with an 802.3 length and LLC/SNAP (type 0x8181), "
                          "so the receiver strips the padding exactly; DATA carries no "
                          "length of its own. False: always Ethernet II (a padded tiny DATA "
                          "then arrives 46 bytes long).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StProtocol::m_llcShortData),
                          MakeBooleanChecker())
            .AddTraceSource("TxOp",
                            "An ST operation was handed to a device (header, frame length).",
                            MakeTraceSourceAccessor(&StProtocol::m_txOpTrace),
                            "ns3::StProtocol::OpTracedCallback")
            .AddTraceSource("RxOp",
                            "An ST frame arrived (decoded header, length); undecodable "
                            "frames only fire RxDrop.",
                            MakeTraceSourceAccessor(&StProtocol::m_rxOpTrace),
                            "ns3::StProtocol::OpTracedCallback")
            .AddTraceSource("RxDrop",
                            "A received frame was dropped or rejected, with the engine's "
                            "verdict (wrong key, wrong port, unknown op, truncated, outside "
                            "its region, duplicate, ...).",
                            MakeTraceSourceAccessor(&StProtocol::m_rxDropTrace),
                            "ns3::StProtocol::RxDropTracedCallback")
            .AddTraceSource("SlotStall",
                            "An operation had to wait for remote slots (total stalls).",
                            MakeTraceSourceAccessor(&StProtocol::m_slotStallTrace),
                            "ns3::StProtocol::CountTracedCallback")
            .AddTraceSource("CtsWait",
                            "A source received a CTS; the time since its previous operation "
                            "of that transfer (RTS or DATA) left the engine.",
                            MakeTraceSourceAccessor(&StProtocol::m_ctsWaitTrace),
                            "ns3::StProtocol::WaitTracedCallback")
            .AddTraceSource("Retry",
                            "An operation sent by a timer: a request retried, a CTS resent, "
                            "an RS for a missing final RSR or for slots, a FETCHOP DATA "
                            "resent, the RD of a timeout teardown.",
                            MakeTraceSourceAccessor(&StProtocol::m_retryTrace),
                            "ns3::StProtocol::OpTracedCallback")
            .AddTraceSource("Event",
                            "An engine event of a managed connection, before its callback.",
                            MakeTraceSourceAccessor(&StProtocol::m_eventTrace),
                            "ns3::StProtocol::EventTracedCallback")
            .AddTraceSource("ResolveFailed",
                            "A peer's IPv4 address did not resolve to a MAC.",
                            MakeTraceSourceAccessor(&StProtocol::m_resolveFailedTrace),
                            "ns3::Ipv4Address::TracedCallback");
    return tid;
}

StProtocol::StProtocol()
    : m_slots(Defaults().defaults.slots),
      m_bufsize(Defaults().defaults.bufsize),
      m_maxStu(Defaults().defaults.maxStu),
      m_maxBlock(Defaults().defaults.maxBlock),
      m_ctsReq(Defaults().defaults.ctsReq),
      m_dataVc(Defaults().defaults.dataVc),
      m_channels(Defaults().defaults.channels),
      m_controlVc(Defaults().controlVc),
      m_maxRetries(Defaults().maxRetries),
      m_fetchOpMaxResends(Defaults().fetchOpMaxResends),
      m_slotReserve(Defaults().slotReserve),
      m_rsRsrUseSlots(Defaults().rsRsrUseSlots),
      m_earlyNotify(Defaults().earlyNotify),
      m_sendState(Defaults().sendState),
      m_interrupt(Defaults().interrupt),
      m_silentData(Defaults().silentData),
      m_headerChecksum(Defaults().headerChecksum),
      m_ctsReqInRts(Defaults().ctsReqInRts),
      m_pauseWhenNoBuffer(Defaults().pauseWhenNoBuffer),
      m_ephemeralPortBase(Defaults().ephemeralPortBase),
      m_rcToPortZero(Defaults().rcToPortZero),
      m_port0Slots(Defaults().port0Slots),
      m_rxFetchOpMemory(Defaults().rxFetchOpMemory),
      m_llcShortData(true),
      m_nextPendingKey(1),
      m_timerAt(st::ST_NEVER),
      m_flushing(false),
      m_flushAgain(false),
      m_inTimer(false),
      m_kickPending(false),
      m_lastSlotStalls(0)
{
    NS_LOG_FUNCTION(this);
    m_resolver = MakeCallback(&StProtocol::DefaultResolve, this);
}

int64_t
StProtocol::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    KeyRng()->SetStream(stream);
    return 1;
}

Ptr<UniformRandomVariable>
StProtocol::KeyRng()
{
    // Made on first use, not in the constructor: installing ST does not move the automatic
    // streams of the random variables a scenario creates after it.
    if (!m_keyRng)
    {
        m_keyRng = CreateObject<UniformRandomVariable>();
    }
    return m_keyRng;
}

StProtocol::~StProtocol()
{
    NS_LOG_FUNCTION(this);
}

void
StProtocol::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_timer);
    for (auto& [ifIndex, ev] : m_drainEvent)
    {
        Simulator::Cancel(ev);
    }
    m_drainEvent.clear();
    m_backlog.clear();
    for (auto& [ifIndex, cb] : m_drainCb)
    {
        if (Ptr<NetDevice> dev = FindDevice(ifIndex))
        {
            dev->TraceDisconnectWithoutContext("PhyTxBegin", cb);
        }
    }
    m_drainCb.clear();
    if (m_bypass)
    {
        m_bypass->Dispose();
        m_bypass = nullptr;
    }
    if (m_stack && st::StBypassStack::GetDefault() == m_stack.get())
    {
        st::StBypassStack::SetDefault(nullptr);
    }
    if (m_stack)
    {
        m_stack->SetUnclaimedHandler(nullptr);
    }
    m_stack.reset();
    m_driver.reset();
    m_devices.clear();
    m_managed.clear();
    m_listenCbs.clear();
    m_pendingConnects.clear();
    m_resolver = Resolver();
    m_asyncResolver = AsyncResolver();
    m_keyRng = nullptr;
    m_node = nullptr;
    Object::DoDispose();
}

void
StProtocol::NotifyNewAggregate()
{
    if (!m_node)
    {
        if (Ptr<Node> node = GetObject<Node>())
        {
            SetNode(node);
        }
    }
    Object::NotifyNewAggregate();
}

void
StProtocol::SetNode(Ptr<Node> node)
{
    m_node = node;
}

Ptr<Node>
StProtocol::GetNode() const
{
    return m_node;
}

st::StConfig
StProtocol::BuildConfig()
{
    st::StConfig c;
    c.defaults = st::StConnParams();
    c.defaults.slots = m_slots;
    c.defaults.bufsize = m_bufsize;
    c.defaults.maxStu = m_maxStu;
    c.defaults.maxBlock = m_maxBlock;
    c.defaults.ctsReq = m_ctsReq;
    c.defaults.dataVc = m_dataVc;
    c.defaults.channels = m_channels;
    c.controlVc = m_controlVc;
    c.opTimeoutNs = static_cast<uint64_t>(m_opTimeout.GetNanoSeconds());
    c.maxRetries = m_maxRetries;
    c.fetchOpTimeoutNs = static_cast<uint64_t>(m_fetchOpTimeout.GetNanoSeconds());
    c.fetchOpMaxResends = m_fetchOpMaxResends;
    c.slotWaitTimeoutNs = static_cast<uint64_t>(m_slotWaitTimeout.GetNanoSeconds());
    c.slotPollNs = static_cast<uint64_t>(m_slotPoll.GetNanoSeconds());
    c.slotReserve = m_slotReserve;
    c.rsRsrUseSlots = m_rsRsrUseSlots;
    c.earlyNotify = m_earlyNotify;
    c.sendState = m_sendState;
    c.interrupt = m_interrupt;
    c.silentData = m_silentData;
    c.pauseWhenNoBuffer = m_pauseWhenNoBuffer;
    c.headerChecksum = m_headerChecksum;
    c.ctsReqInRts = m_ctsReqInRts;
    c.ephemeralPortBase = m_ephemeralPortBase;
    c.rcToPortZero = m_rcToPortZero;
    c.port0Slots = m_port0Slots;
    c.lingerNs = static_cast<uint64_t>(m_linger.GetNanoSeconds());
    c.rxFetchOpMemory = m_rxFetchOpMemory;
    // Keys from ns-3's random streams: unpredictable across runs, reproducible for a seed
    // and run number (and AssignStreams).
    Ptr<UniformRandomVariable> rng = KeyRng();
    c.keySource = [rng]() { return rng->GetInteger(0, 0xFFFFFFFFu); };
    // STUs fit the Message limit of the VC they travel on, at both ends of the device.
    c.channelMaxStu = [this](uint64_t peer, uint8_t channel) {
        return GetMaxStuFor(FindDevice(static_cast<uint32_t>(peer >> 48)), channel);
    };
    return c;
}

st::StBypassStack&
StProtocol::GetStack()
{
    if (!m_stack)
    {
        m_driver = std::make_unique<StSimulatorDriver>(this);
        m_stack = std::make_unique<st::StBypassStack>(*m_driver, BuildConfig());
        m_stack->SetUnclaimedHandler([this](const st::StEvent& e) { return OnUnclaimed(e); });
    }
    return *m_stack;
}

st::StEndpoint&
StProtocol::GetEndpoint()
{
    return GetStack().GetEndpoint();
}

StSimulatorDriver&
StProtocol::GetDriver()
{
    GetStack();
    return *m_driver;
}

Ptr<StBypassApi>
StProtocol::GetBypass()
{
    if (!m_bypass)
    {
        m_bypass = CreateObject<StBypassApi>();
        m_bypass->SetProtocol(this);
    }
    return m_bypass;
}

const st::StCounters&
StProtocol::GetCounters()
{
    return GetEndpoint().GetCounters();
}

// --- devices -------------------------------------------------------------------------------

void
StProtocol::AddDevice(Ptr<NetDevice> device, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << device << address);
    NS_ASSERT_MSG(m_node, "StProtocol: aggregate to a node (or SetNode) before AddDevice");
    for (const auto& a : m_devices)
    {
        if (a.device == device)
        {
            return;
        }
    }
    m_devices.push_back(Attachment{device, address});
    m_node->RegisterProtocolHandler(MakeCallback(&StProtocol::Receive, this), PROT_NUMBER, device);
}

uint32_t
StProtocol::GetNDevices() const
{
    return static_cast<uint32_t>(m_devices.size());
}

Ptr<NetDevice>
StProtocol::GetDevice(uint32_t i) const
{
    return i < m_devices.size() ? m_devices[i].device : nullptr;
}

Ptr<NetDevice>
StProtocol::FindDevice(uint32_t ifIndex) const
{
    for (const auto& a : m_devices)
    {
        if (a.device->GetIfIndex() == ifIndex)
        {
            return a.device;
        }
    }
    return nullptr;
}

Ipv4Address
StProtocol::GetLocalAddress(Ptr<NetDevice> device) const
{
    for (const auto& a : m_devices)
    {
        if (a.device != device)
        {
            continue;
        }
        if (a.address != Ipv4Address::GetAny())
        {
            return a.address;
        }
        Ptr<Ipv4> ipv4 = m_node ? m_node->GetObject<Ipv4>() : nullptr;
        if (ipv4)
        {
            const int32_t i = ipv4->GetInterfaceForDevice(device);
            if (i >= 0 && ipv4->GetNAddresses(i) > 0)
            {
                return ipv4->GetAddress(i, 0).GetLocal();
            }
        }
    }
    return Ipv4Address::GetAny();
}

Ipv4Address
StProtocol::GetLocalAddress() const
{
    return m_devices.empty() ? Ipv4Address::GetAny() : GetLocalAddress(m_devices.front().device);
}

st::StPeerAddress
StProtocol::MakePeer(uint32_t ifIndex, const Address& mac)
{
    uint8_t buf[Address::MAX_SIZE] = {};
    const uint32_t n = mac.CopyTo(buf);
    uint64_t bits = 0;
    for (uint32_t i = 0; i < n && i < 6; ++i)
    {
        bits = (bits << 8) | buf[i];
    }
    return (static_cast<uint64_t>(ifIndex & 0xFFFF) << 48) | bits;
}

// --- resolution ----------------------------------------------------------------------------

void
StProtocol::AddStaticEntry(Ipv4Address peer, const Address& mac)
{
    m_static[peer] = mac;
}

void
StProtocol::SetResolver(Resolver resolver)
{
    m_resolver = resolver;
}

void
StProtocol::SetAsyncResolver(AsyncResolver resolver)
{
    m_asyncResolver = resolver;
}

Ptr<NetDevice>
StProtocol::SelectDevice(Ipv4Address peer) const
{
    if (m_devices.empty())
    {
        return nullptr;
    }
    Ptr<Ipv4> ipv4 = m_node ? m_node->GetObject<Ipv4>() : nullptr;
    for (const auto& a : m_devices)
    {
        if (ipv4)
        {
            const int32_t i = ipv4->GetInterfaceForDevice(a.device);
            for (uint32_t k = 0; i >= 0 && k < ipv4->GetNAddresses(i); ++k)
            {
                const Ipv4InterfaceAddress ia = ipv4->GetAddress(i, k);
                if (ia.GetMask().IsMatch(ia.GetLocal(), peer))
                {
                    return a.device;
                }
            }
        }
        if (a.address != Ipv4Address::GetAny() &&
            Ipv4Mask("255.255.255.0").IsMatch(a.address, peer))
        {
            return a.device;
        }
    }
    return m_devices.front().device;
}

bool
StProtocol::DefaultResolve(Ptr<NetDevice> device, Ipv4Address peer, Address& mac)
{
    auto it = m_static.find(peer);
    if (it != m_static.end())
    {
        mac = it->second;
        return true;
    }
    Ptr<Ipv4L3Protocol> ipv4 = m_node ? m_node->GetObject<Ipv4L3Protocol>() : nullptr;
    if (!ipv4 || !device)
    {
        return false;
    }
    const int32_t i = ipv4->GetInterfaceForDevice(device);
    if (i < 0)
    {
        return false;
    }
    Ptr<ArpCache> cache = ipv4->GetInterface(i)->GetArpCache();
    ArpCache::Entry* e = cache ? cache->Lookup(peer) : nullptr;
    if (e != nullptr && (e->IsAlive() || e->IsPermanent() || e->IsAutoGenerated()))
    {
        mac = e->GetMacAddress();
        return true;
    }
    return false;
}

bool
StProtocol::ResolvePeer(Ipv4Address peer, st::StPeerAddress& out)
{
    Ptr<NetDevice> dev = SelectDevice(peer);
    Address mac;
    if (!dev || m_resolver.IsNull() || !m_resolver(dev, peer, mac))
    {
        ++m_adapter.resolveFailed;
        m_resolveFailedTrace(peer);
        return false;
    }
    out = LearnPeer(dev, peer, mac);
    return true;
}

st::StPeerAddress
StProtocol::LearnPeer(Ptr<NetDevice> dev, Ipv4Address peer, const Address& mac)
{
    const st::StPeerAddress p = MakePeer(dev->GetIfIndex(), mac);
    m_peerMac[p] = mac;
    m_peerIp[p] = peer;
    return p;
}

st::StResolveState
StProtocol::ResolvePeerStart(Ipv4Address peer, st::StPeerAddress& out)
{
    if (m_asyncResolver.IsNull())
    {
        return ResolvePeer(peer, out) ? st::StResolveState::Resolved : st::StResolveState::Unknown;
    }
    Ptr<NetDevice> dev = SelectDevice(peer);
    auto it = m_bypassResolutions.find(peer);
    if (it == m_bypassResolutions.end())
    {
        Address mac;
        if (dev && !m_resolver.IsNull() && m_resolver(dev, peer, mac))
        {
            out = LearnPeer(dev, peer, mac);
            return st::StResolveState::Resolved;
        }
        if (!dev)
        {
            ++m_adapter.resolveFailed;
            m_resolveFailedTrace(peer);
            return st::StResolveState::Unknown;
        }
        NS_LOG_LOGIC("st_connect resolves " << peer << " through the asynchronous resolver");
        m_bypassResolutions[peer] = BypassResolution();
        m_asyncResolver(dev, peer, ResolveDone([this, peer](bool ok, const Address& mac) {
                            BypassResolved(peer, ok, mac);
                        }));
        it = m_bypassResolutions.find(peer); // the resolver may have answered already
    }
    if (!it->second.done)
    {
        return st::StResolveState::InProgress;
    }
    const BypassResolution r = it->second;
    m_bypassResolutions.erase(it);
    if (!r.ok || !dev)
    {
        ++m_adapter.resolveFailed;
        m_resolveFailedTrace(peer);
        return st::StResolveState::Unknown;
    }
    out = LearnPeer(dev, peer, r.mac);
    return st::StResolveState::Resolved;
}

void
StProtocol::BypassResolved(Ipv4Address peer, bool ok, const Address& mac)
{
    auto it = m_bypassResolutions.find(peer);
    if (it == m_bypassResolutions.end() || it->second.done)
    {
        return;
    }
    it->second.done = true;
    it->second.ok = ok;
    it->second.mac = mac;
    // Whoever waits in st_connect asks again: a blocking wait ends, StBypassApi checks.
    m_driver->NotifyProgress();
    if (m_bypass)
    {
        m_bypass->ScheduleCheck();
    }
}

Ipv4Address
StProtocol::GetPeerAddress(st::StConnId id) const
{
    if (!m_stack)
    {
        return Ipv4Address::GetAny();
    }
    const st::StConnection* c = m_stack->GetEndpoint().Find(id);
    if (c == nullptr)
    {
        return Ipv4Address::GetAny();
    }
    auto it = m_peerIp.find(c->GetPeer());
    if (it != m_peerIp.end())
    {
        return it->second;
    }
    // An accepting side learns the peer's MAC only: look it up in the static table, then in
    // the ARP cache of the interface.
    auto mac = m_peerMac.find(c->GetPeer());
    if (mac == m_peerMac.end())
    {
        return Ipv4Address::GetAny();
    }
    for (const auto& [ip, a] : m_static)
    {
        if (a == mac->second)
        {
            return ip;
        }
    }
    Ptr<NetDevice> dev = FindDevice(static_cast<uint32_t>(c->GetPeer() >> 48));
    Ptr<Ipv4L3Protocol> ipv4 = m_node ? m_node->GetObject<Ipv4L3Protocol>() : nullptr;
    const int32_t i = ipv4 && dev ? ipv4->GetInterfaceForDevice(dev) : -1;
    if (i >= 0 && ipv4->GetInterface(i)->GetArpCache())
    {
        for (ArpCache::Entry* e : ipv4->GetInterface(i)->GetArpCache()->LookupInverse(mac->second))
        {
            return e->GetIpv4Address();
        }
    }
    return Ipv4Address::GetAny();
}

// --- managed API ---------------------------------------------------------------------------

uint8_t
StProtocol::GetMaxStuFor(Ptr<NetDevice> device)
{
    if (!device || DynamicCast<GsnNetDevice>(device))
    {
        return 40;
    }
    const uint32_t mtu = device->GetMtu();
    uint8_t lg = 0;
    while (lg < 40 && (2ULL << lg) + st::ST_HEADER_SIZE <= mtu)
    {
        ++lg;
    }
    return lg;
}

uint8_t
StProtocol::GetMaxStuFor(Ptr<NetDevice> device, uint8_t vc)
{
    Ptr<GsnNetDevice> gsn = DynamicCast<GsnNetDevice>(device);
    if (!gsn)
    {
        return GetMaxStuFor(device);
    }
    if (vc >= 4 || !gsn->CarriesOnVc(st::ST_HEADER_SIZE + 1, vc))
    {
        return 0;
    }
    uint8_t lg = 0;
    while (lg < 40 && gsn->CarriesOnVc(st::ST_HEADER_SIZE + (2ULL << lg), vc))
    {
        ++lg;
    }
    return lg;
}

st::StConnParams
StProtocol::GetDefaultParams()
{
    st::StConnParams p = GetEndpoint().GetConfig().defaults;
    for (const auto& a : m_devices)
    {
        p.maxStu = std::min(p.maxStu, GetMaxStuFor(a.device));
    }
    return p;
}

st::StStatus
StProtocol::Listen(uint16_t port, EventCallback cb)
{
    return Listen(port, GetDefaultParams(), cb);
}

st::StStatus
StProtocol::Listen(uint16_t port, const st::StConnParams& params, EventCallback cb)
{
    st::StConnParams p = params;
    for (const auto& a : m_devices)
    {
        p.maxStu = std::min(p.maxStu, GetMaxStuFor(a.device)); // RC may come on any device
    }
    const st::StStatus s = GetEndpoint().Listen(port, p);
    if (s == st::StStatus::Ok)
    {
        m_listenCbs[port] = cb;
    }
    return s;
}

st::StStatus
StProtocol::Unlisten(uint16_t port)
{
    m_listenCbs.erase(port);
    return GetEndpoint().Unlisten(port);
}

st::StStatus
StProtocol::Connect(Ipv4Address peer, uint16_t port, EventCallback cb, st::StConnId* id)
{
    return Connect(peer, port, cb, GetDefaultParams(), id, 0);
}

st::StStatus
StProtocol::Connect(Ipv4Address peer,
                    uint16_t port,
                    EventCallback cb,
                    const st::StConnParams& params,
                    st::StConnId* id,
                    uint16_t localPort)
{
    NS_LOG_FUNCTION(this << peer << port);
    GetStack();
    if (id != nullptr)
    {
        *id = 0;
    }
    Ptr<NetDevice> dev = SelectDevice(peer);
    if (!dev)
    {
        return st::StStatus::InvalidArgument;
    }
    if (!m_asyncResolver.IsNull())
    {
        const uint32_t key = m_nextPendingKey++;
        m_pendingConnects[key] = PendingConnect{peer, port, cb, params, localPort};
        m_asyncResolver(dev, peer, ResolveDone([this, key](bool ok, const Address& mac) {
                            AsyncResolved(key, ok, mac);
                        }));
        return st::StStatus::Ok;
    }
    st::StPeerAddress p = 0;
    if (!ResolvePeer(peer, p))
    {
        ConnectFailed(cb);
        return st::StStatus::Ok; // the refusal comes as an event, as for an asynchronous one
    }
    return StartConnect(p, peer, port, cb, params, id, localPort);
}

void
StProtocol::ConnectFailed(EventCallback cb)
{
    // Reported from a fresh event, never from inside the caller's Connect.
    Simulator::ScheduleNow([cb]() {
        st::StEvent e;
        e.type = st::StEventType::ConnectionRefused;
        e.reason = st::StReason::None;
        if (!cb.IsNull())
        {
            cb(e);
        }
    });
}

void
StProtocol::AsyncResolved(uint32_t key, bool ok, const Address& mac)
{
    auto it = m_pendingConnects.find(key);
    if (it == m_pendingConnects.end())
    {
        return;
    }
    PendingConnect pc = it->second;
    m_pendingConnects.erase(it);
    Ptr<NetDevice> dev = SelectDevice(pc.peer);
    if (!ok || !dev)
    {
        ++m_adapter.resolveFailed;
        m_resolveFailedTrace(pc.peer);
        ConnectFailed(pc.cb);
        return;
    }
    const st::StPeerAddress p = LearnPeer(dev, pc.peer, mac);
    if (StartConnect(p, pc.peer, pc.port, pc.cb, pc.params, nullptr, pc.localPort) !=
        st::StStatus::Ok)
    {
        ConnectFailed(pc.cb);
    }
}

st::StStatus
StProtocol::StartConnect(const st::StPeerAddress& peer,
                         Ipv4Address ip,
                         uint16_t port,
                         EventCallback cb,
                         const st::StConnParams& params,
                         st::StConnId* id,
                         uint16_t localPort)
{
    NS_LOG_FUNCTION(this << ip << port);
    st::StConnId cid = 0;
    st::StConnParams p = params;
    p.maxStu = std::min(p.maxStu, GetMaxStuFor(FindDevice(static_cast<uint32_t>(peer >> 48))));
    const st::StStatus s =
        GetEndpoint().Connect(Simulator::Now().GetNanoSeconds(), peer, port, p, cid, localPort);
    if (s != st::StStatus::Ok)
    {
        return s;
    }
    m_managed[cid] = cb;
    if (id != nullptr)
    {
        *id = cid;
    }
    Flush();
    return s;
}

st::StStatus
StProtocol::Close(st::StConnId id)
{
    return After(GetEndpoint().Close(Simulator::Now().GetNanoSeconds(), id));
}

void
StProtocol::SetEventCallback(st::StConnId id, EventCallback cb)
{
    m_managed[id] = cb;
}

bool
StProtocol::OnUnclaimed(const st::StEvent& e)
{
    auto it = m_managed.find(e.conn);
    if (it == m_managed.end())
    {
        if (e.type != st::StEventType::ConnectionEstablished || !e.accepted)
        {
            return false;
        }
        auto l = m_listenCbs.find(e.servicePort);
        if (l == m_listenCbs.end())
        {
            return false; // a Bypass listener's: st_accept takes it
        }
        it = m_managed.emplace(e.conn, l->second).first;
        GetEndpoint().Claim(e.conn); // the listener's callback takes it from Port 0's queue
    }
    EventCallback cb = it->second;
    if (e.type == st::StEventType::ConnectionClosed || e.type == st::StEventType::ConnectionRefused)
    {
        m_managed.erase(it);
    }
    m_eventTrace(e);
    if (!cb.IsNull())
    {
        cb(e);
    }
    if (e.holdsSlot)
    {
        GetEndpoint().ReleaseSlot(e.conn); // the upper layer took the header
    }
    return true;
}

// --- data calls ----------------------------------------------------------------------------

st::StStatus
StProtocol::After(st::StStatus s)
{
    Flush();
    return s;
}

st::StConnection*
StProtocol::Find(st::StConnId id)
{
    return GetEndpoint().Find(id);
}

st::StStatus
StProtocol::Map(st::StConnId id,
                int flags,
                uint8_t* ptr,
                uint64_t len,
                uint32_t bufx,
                uint32_t& handle,
                uint16_t& mx)
{
    st::StConnection* c = Find(id);
    if (c == nullptr)
    {
        return st::StStatus::NoSuchConnection;
    }
    return c->GetMemory().Map(flags, ptr, len, bufx, -1, handle, mx);
}

st::StStatus
StProtocol::Unmap(st::StConnId id, uint32_t handle)
{
    st::StConnection* c = Find(id);
    return c != nullptr ? c->GetMemory().Unmap(handle) : st::StStatus::NoSuchConnection;
}

uint64_t
StProtocol::Linear(st::StConnId id, uint32_t bufx, uint64_t offset) const
{
    const st::StConnection* c = m_stack ? m_stack->GetEndpoint().Find(id) : nullptr;
    if (c == nullptr)
    {
        return 0;
    }
    return (static_cast<uint64_t>(bufx) << c->GetLocalParams().bufsize) + offset;
}

#define ST_CALL(expr)                                                                              \
    do                                                                                             \
    {                                                                                              \
        st::StConnection* c = Find(id);                                                            \
        if (c == nullptr)                                                                          \
        {                                                                                          \
            return st::StStatus::NoSuchConnection;                                                 \
        }                                                                                          \
        const uint64_t now = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());             \
        return After(c->expr);                                                                     \
    } while (false)

st::StStatus
StProtocol::PostReceive(st::StConnId id, uint64_t linear, uint64_t len)
{
    ST_CALL(PostReceive(now, linear, len));
}

st::StStatus
StProtocol::PostSend(st::StConnId id, uint64_t linear, uint64_t len)
{
    ST_CALL(PostSend(now, linear, len));
}

st::StStatus
StProtocol::ExposeRegion(st::StConnId id, uint64_t linear, uint64_t len)
{
    ST_CALL(ExposeRegion(now, linear, len));
}

st::StStatus
StProtocol::Write(st::StConnId id,
                  uint64_t linear,
                  uint64_t len,
                  uint32_t& tid,
                  const st::StWriteOptions& opt)
{
    ST_CALL(Write(now, linear, len, opt, tid));
}

st::StStatus
StProtocol::Read(st::StConnId id, uint64_t linear, uint64_t len, uint32_t& tid)
{
    ST_CALL(Read(now, linear, len, tid));
}

st::StStatus
StProtocol::RequestRegion(st::StConnId id, uint64_t len, uint32_t& rid)
{
    ST_CALL(RequestRegion(now, len, rid));
}

st::StStatus
StProtocol::Put(st::StConnId id, uint32_t region, uint64_t offset, uint64_t linear, uint64_t len)
{
    ST_CALL(Put(now, region, offset, linear, len));
}

st::StStatus
StProtocol::Get(st::StConnId id,
                uint32_t region,
                uint64_t offset,
                uint64_t linear,
                uint64_t len,
                uint32_t& gid)
{
    ST_CALL(Get(now, region, offset, linear, len, gid));
}

st::StStatus
StProtocol::FetchOp(st::StConnId id,
                    uint32_t region,
                    uint64_t offset,
                    uint64_t linear,
                    st::StFetchOp op,
                    uint32_t& gid)
{
    ST_CALL(FetchOp(now, region, offset, linear, op, gid));
}

st::StStatus
StProtocol::End(st::StConnId id, uint32_t xid)
{
    ST_CALL(End(now, xid));
}

st::StStatus
StProtocol::RequestState(st::StConnId id,
                         st::StStateKind kind,
                         uint32_t xid,
                         uint32_t block,
                         uint32_t& sync)
{
    ST_CALL(RequestState(now, kind, xid, block, sync));
}

#undef ST_CALL

// --- the adapter loop ----------------------------------------------------------------------

void
StProtocol::Flush()
{
    if (m_flushing)
    {
        m_flushAgain = true;
        return;
    }
    st::StBypassStack& stack = GetStack();
    m_flushing = true;
    do
    {
        m_flushAgain = false;
        stack.Flush();
    } while (m_flushAgain);
    m_flushing = false;

    const uint64_t stalls = GetCounters().Get(st::StStat::SlotStalls);
    for (; m_lastSlotStalls < stalls; ++m_lastSlotStalls)
    {
        m_slotStallTrace(m_lastSlotStalls + 1);
    }
    ArmTimer();
    m_driver->NotifyProgress();
    if (m_bypass)
    {
        m_bypass->CheckPending();
    }
}

void
StProtocol::Kick()
{
    m_kickPending = false;
    Flush();
}

void
StProtocol::ArmTimer()
{
    const uint64_t next = GetEndpoint().PollTimeout();
    if (next == m_timerAt && m_timer.IsRunning())
    {
        return;
    }
    Simulator::Cancel(m_timer);
    m_timerAt = next;
    if (next == st::ST_NEVER)
    {
        return;
    }
    const uint64_t now = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    m_timer =
        Simulator::Schedule(NanoSeconds(next > now ? next - now : 0), &StProtocol::OnTimer, this);
}

void
StProtocol::OnTimer()
{
    m_timerAt = st::ST_NEVER;
    m_inTimer = true;
    GetEndpoint().HandleTimeout(static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()));
    Flush();
    m_inTimer = false;
}

void
StProtocol::Receive(Ptr<NetDevice> device,
                    Ptr<const Packet> packet,
                    uint16_t /* protocol */,
                    const Address& from,
                    const Address& /* to */,
                    NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << device << packet << from << packetType);
    if (packetType == NetDevice::PACKET_OTHERHOST)
    {
        ++m_adapter.rxOtherHost;
        return;
    }
    const uint32_t len = packet->GetSize();
    std::vector<uint8_t> bytes(len);
    packet->CopyData(bytes.data(), len);
    const st::StPeerAddress peer = MakePeer(device->GetIfIndex(), from);
    m_peerMac[peer] = from;
    ++m_adapter.rxFrames;

    st::StEndpoint& ep = GetEndpoint();
    const st::StCounters before = ep.GetCounters();
    ep.Receive(static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()), peer, bytes.data(), len);
    TraceRx(peer, bytes.data(), len, packet, before);
    Flush();
}

void
StProtocol::TraceRx(st::StPeerAddress peer,
                    const uint8_t* data,
                    uint32_t len,
                    Ptr<const Packet> p,
                    const st::StCounters& before)
{
    const st::StRxVerdict v = VerdictOf(before, GetEndpoint().GetCounters());
    st::StHeader h;
    const bool decoded = st::StHeader::Decode(data, len, h) == st::StDecodeStatus::Ok;
    if (decoded)
    {
        m_rxOpTrace(h, len);
    }
    if (v != st::StRxVerdict::Accepted)
    {
        NS_LOG_LOGIC("dropped: " << st::StRxVerdictName(v) << " "
                                 << (decoded ? h.ToString() : std::string("(undecodable)")));
        m_rxDropTrace(p, v);
        return;
    }
    if (decoded && h.op == st::StOp::Cts)
    {
        // A CTS names the source's id at @32 (I_id) and the destination's at @36 (R_id).
        const XferKey ours{peer, h.dPort, h.dId};
        auto it = m_lastXferOp.find(ours);
        if (it != m_lastXferOp.end())
        {
            m_ctsWaitTrace(Simulator::Now() - it->second);
            it->second = Simulator::Now();
        }
        m_peerIdToOurs[XferKey{peer, h.dPort, h.sId}] = h.dId;
    }
    else if (decoded && (h.op == st::StOp::Rsr || h.op == st::StOp::End || h.op == st::StOp::Ra) &&
             m_lastXferOp.size() > 4096)
    {
        // Bounded bookkeeping: forget the oldest half (keys grow with ids).
        auto half = std::next(m_lastXferOp.begin(), m_lastXferOp.size() / 2);
        m_lastXferOp.erase(m_lastXferOp.begin(), half);
        m_peerIdToOurs.clear();
    }
}

void
StProtocol::TraceTx(const st::StTransmit& t)
{
    st::StHeader h;
    if (st::StHeader::Decode(t.bytes.data(), t.bytes.size(), h) != st::StDecodeStatus::Ok)
    {
        return;
    }
    const uint32_t len = static_cast<uint32_t>(t.bytes.size() + t.virtualBytes);
    m_txOpTrace(h, len);
    if (m_inTimer)
    {
        m_retryTrace(h, len);
    }
    if (h.op == st::StOp::Rts)
    {
        // The source's id is at @36 of its RTS, for a write and for a read alike.
        m_lastXferOp[XferKey{t.peer, h.sPort, h.sId}] = Simulator::Now();
    }
    else if (h.op == st::StOp::Data)
    {
        auto ours = m_peerIdToOurs.find(XferKey{t.peer, h.sPort, h.dId});
        if (ours != m_peerIdToOurs.end())
        {
            m_lastXferOp[XferKey{t.peer, h.sPort, ours->second}] = Simulator::Now();
        }
    }
}

void
StProtocol::SendOnWire(const st::StTransmit& t)
{
    if (!m_flushing && !m_kickPending)
    {
        // Sent by a direct Bypass call (st_tx): re-arm the timer and complete waiting calls.
        m_kickPending = true;
        Simulator::ScheduleNow(&StProtocol::Kick, this);
    }
    auto mac = m_peerMac.find(t.peer);
    Ptr<NetDevice> dev = FindDevice(static_cast<uint32_t>(t.peer >> 48));
    if (mac == m_peerMac.end() || !dev)
    {
        ++m_adapter.txNoRoute;
        NS_LOG_WARN("no device/MAC for peer " << t.peer);
        return;
    }
    TraceTx(t);
    Ptr<Packet> p = Create<Packet>(t.bytes.data(), static_cast<uint32_t>(t.bytes.size()));
    if (t.virtualBytes > 0)
    {
        // Data of memory without bytes: zeros that take no memory (a packet's zero area).
        p->AddAtEnd(Create<Packet>(static_cast<uint32_t>(t.virtualBytes)));
    }
    Ptr<GsnNetDevice> gsnDevice = DynamicCast<GsnNetDevice>(dev);
    const bool gsn = gsnDevice != nullptr;
    if (gsn)
    {
        p->AddPacketTag(GsnVcTag(t.vc)); // ST data channel n on GSN VC n
        if (Ptr<GsnHostAdapter> host = gsnDevice->GetHostAdapter())
        {
            // The endpoint is one process of the host: its own OS-bypass command queue.
            uint16_t& process = m_hostProcess[dev->GetIfIndex()];
            if (process == 0 || !host->IsRegistered(process))
            {
                process = host->RegisterProcess();
            }
            // The command holds the ST header; only the payload is read from memory.
            p->AddPacketTag(GsnProcessTag(process, uint16_t(st::ST_HEADER_SIZE)));
        }
    }
    // Each GSN VC has its own queue; other devices one. Order is kept per queue.
    const auto key = std::make_pair(dev->GetIfIndex(), gsn ? t.vc : uint8_t(0));
    auto& backlog = m_backlog[key];
    if (!backlog.empty() || !HasRoom(dev, t.vc, p->GetSize()))
    {
        backlog.push_back(Backlogged{p, mac->second});
        ++m_adapter.txBacklogged;
        HookDrain(dev);
        return;
    }
    Transmit(dev, p, mac->second);
}

bool
StProtocol::HasRoom(Ptr<NetDevice> dev, uint8_t vc, uint32_t bytes) const
{
    Ptr<Queue<Packet>> q;
    if (Ptr<GsnNetDevice> g = DynamicCast<GsnNetDevice>(dev))
    {
        q = g->GetTxQueue(vc);
    }
    else if (Ptr<CsmaNetDevice> c = DynamicCast<CsmaNetDevice>(dev))
    {
        q = c->GetQueue();
    }
    // Room for the frame with its link headers (GSN 24 bytes, Ethernet 18: 32 is enough).
    return !q || !q->WouldOverflow(1, bytes + 32);
}

void
StProtocol::HookDrain(Ptr<NetDevice> dev)
{
    const uint32_t ifIndex = dev->GetIfIndex();
    auto it = m_drainHooked.find(ifIndex);
    if (it == m_drainHooked.end())
    {
        // A frame leaving the queue makes room: GSN, CSMA and point-to-point devices all
        // fire PhyTxBegin when they take the next frame from their queue.
        Callback<void, Ptr<const Packet>> cb([this, ifIndex](Ptr<const Packet>) {
            if (!m_drainEvent[ifIndex].IsRunning())
            {
                m_drainEvent[ifIndex] = Simulator::ScheduleNow(&StProtocol::Drain, this, ifIndex);
            }
        });
        const bool hooked = dev->TraceConnectWithoutContext("PhyTxBegin", cb);
        if (hooked)
        {
            m_drainCb[ifIndex] = cb;
        }
        it = m_drainHooked.emplace(ifIndex, hooked).first;
    }
    if (!it->second && !m_drainEvent[ifIndex].IsRunning())
    {
        // No trace to wait for: look again a little later.
        m_drainEvent[ifIndex] =
            Simulator::Schedule(MicroSeconds(1), &StProtocol::Drain, this, ifIndex);
    }
}

void
StProtocol::Drain(uint32_t ifIndex)
{
    Ptr<NetDevice> dev = FindDevice(ifIndex);
    if (!dev)
    {
        return;
    }
    bool left = false;
    for (auto& [key, backlog] : m_backlog)
    {
        if (key.first != ifIndex)
        {
            continue;
        }
        while (!backlog.empty() && HasRoom(dev, key.second, backlog.front().packet->GetSize()))
        {
            Backlogged b = backlog.front();
            backlog.pop_front();
            Transmit(dev, b.packet, b.mac);
        }
        left = left || !backlog.empty();
    }
    if (left)
    {
        HookDrain(dev);
    }
}

void
StProtocol::Transmit(Ptr<NetDevice> dev, Ptr<Packet> p, const Address& mac)
{
    bool ok = false;
    Ptr<CsmaNetDevice> csma = DynamicCast<CsmaNetDevice>(dev);
    uint8_t first = 0;
    p->CopyData(&first, 1);
    if (csma && m_llcShortData && p->GetSize() < ETHERNET_MIN_PAYLOAD &&
        static_cast<st::StOp>(first >> 3) == st::StOp::Data)
    {
        // DATA has no length field: an 802.3 length delimits it exactly, so the receiver's
        // device strips the padding (LLC/SNAP carries type 0x8181, as on GSN).
        const CsmaNetDevice::EncapsulationMode mode = csma->GetEncapsulationMode();
        csma->SetEncapsulationMode(CsmaNetDevice::LLC);
        ok = csma->Send(p, mac, PROT_NUMBER);
        csma->SetEncapsulationMode(mode);
        ++m_adapter.txLlcFramed;
    }
    else
    {
        ok = dev->Send(p, mac, PROT_NUMBER);
    }
    if (ok)
    {
        ++m_adapter.txFrames;
    }
    else
    {
        ++m_adapter.txRefused;
        NS_LOG_WARN("device refused an ST operation of " << p->GetSize() << " bytes");
    }
}

} // namespace ns3
