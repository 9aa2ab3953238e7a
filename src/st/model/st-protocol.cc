/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// StProtocol (see st-protocol.h) is written in several files, one per part of the adapter:
//  - st-protocol.cc: attributes and trace sources, construction, random streams, disposal,
//    the node, and the engine it owns (its configuration, the stack, the endpoint, the
//    Bypass driver and API, the counters);
//  - st-protocol-devices.cc: the devices ST is attached to, what each carries (Max_STU),
//    peer addresses, and the resolution of a peer's IPv4 address to a device and a MAC;
//  - st-protocol-managed.cc: the managed API: listen, connect, close, the events handed
//    to callbacks, memory and data calls forwarded to the connection;
//  - st-protocol-loop.cc: the adapter loop: the engine drained after every call, its
//    timer, frames received handed in, operations sent to devices (backlogged while a
//    queue is full), and the per-operation traces;
//  - st-protocol-private.h: what they share (the log component).
#include "st-bypass-api.h"
#include "st-protocol-private.h"
#include "st-simulator-driver.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StProtocol");

LogComponent&
StProtocolLog()
{
    return g_log;
}

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

} // namespace ns3
