/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GsnPortDevice is written in several files, one per part of the link layer:
//  - gsn-port-device.cc: attributes, trace sources, set-up and the NetDevice API;
//  - gsn-port-device-transmit.cc: the transmitter (micropackets and runs chosen and sent);
//  - gsn-port-device-held.cc: an idle port's choice held until its instant's other events ran;
//  - gsn-port-device-runs.cc: what the run mode adds (run lengths, idle slots bridged,
//    following micropackets appended at once, micropackets a busy peer takes ahead);
//  - gsn-port-device-retransmit.cc: go-back-N (the timer, RSEQs, acknowledgements of runs);
//  - gsn-port-device-receive.cc: the receiver (arrivals, takes ahead, ACKs owed);
//  - gsn-port-device-spans.cc: what the receiver takes of a run at once, one span per VC;
//  - gsn-port-device-credits.cc: buffer places freed and credits returned, also on runs;
//  - gsn-port-device-bring-up.cc: link bring-up and reset (the handshake's steps are
//    GsnLinkBringUp's, gsn-link-bring-up.h);
// and two headers: gsn-port-device-inline.h (the bodies of the small functions called for every
// micropacket) and gsn-port-device-private.h (what these files share alone).
#include "gsn-attribute-checker.h"
#include "gsn-channel.h"
#include "gsn-now.h"
#include "gsn-port-device-private.h"
#include "gsn-port-event.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnPortDevice");

LogComponent&
gsn::PortDeviceLog()
{
    return g_log;
}

NS_OBJECT_ENSURE_REGISTERED(GsnPortDevice);

int64_t gsn::g_lastPortEventTs = 0;

void
gsn::ReportTimeReversal(int64_t ts)
{
    NS_FATAL_ERROR(
        "GsnPortDevice: the simulator ran an event at "
        << TimeStep(ts).As(Time::NS) << " after one at " << TimeStep(g_lastPortEventTs).As(Time::NS)
        << ": its scheduler lost the order of time. ns-3.37's HeapScheduler does after "
           "Simulator::Remove(); the GSN ports leave Remove alone when the SchedulerType "
           "global value names it (--SchedulerType=ns3::HeapScheduler, or "
           "GlobalValue::Bind before the simulator is made), but cannot see a scheduler "
           "given to Simulator::SetScheduler(): choose it through SchedulerType, or use "
           "another scheduler");
}

TypeId
GsnPortDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnPortDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Gsn")
            .AddAttribute("Address",
                          "The ULA (48-bit IEEE address) of this port.",
                          Mac48AddressValue(Mac48Address("00:00:00:00:00:00")),
                          MakeMac48AddressAccessor(&GsnPortDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute(
                "Mtu",
                "The MTU reported to network layers (RFC 2067 value, proposed for "
                "RFC 2835).",
                UintegerValue(gsn::DEFAULT_MTU),
                MakeUintegerAccessor(&GsnPortDevice::SetMtu, &GsnPortDevice::GetMtu),
                MakeGsnChecker("ns3::GsnPortDevice::Mtu", MakeUintegerChecker<uint16_t>(68)))
            .AddAttribute("RxBufferSize",
                          "Receive buffer per virtual channel, in micropackets; also the "
                          "credits granted at Initialize (proposal: 256; "
                          "gsn-protocol-reference.rst 'Credit rules').",
                          UintegerValue(256),
                          MakeUintegerAccessor(&GsnPortDevice::m_rxBufferSize),
                          MakeGsnChecker("ns3::GsnPortDevice::RxBufferSize",
                                         MakeUintegerChecker<uint32_t>(1, 1u << 20)))
            .AddAttribute(
                "RetransmitWindow",
                "Retransmission buffer in micropackets: the most sequenced "
                "micropackets sent and not acknowledged (8-bit TSEQ allows 255).",
                UintegerValue(gsn::MAX_RETRANSMIT_WINDOW),
                MakeUintegerAccessor(&GsnPortDevice::m_retransmitWindow),
                MakeGsnChecker("ns3::GsnPortDevice::RetransmitWindow",
                               MakeUintegerChecker<uint32_t>(1, gsn::MAX_RETRANSMIT_WINDOW)))
            .AddAttribute(
                "RetransmitTimeout",
                "Go-back-N timeout without acknowledgement progress. Zero derives "
                "it: 2 x (delay + 20 micropacket times) + AckDelay, plus MaxRunLength - 1 "
                "micropacket times in the Run link mode where acknowledgements ride "
                "on runs as chosen: without ExactCredits, on a link without an error "
                "model at either end.",
                TimeValue(Time(0)),
                MakeTimeAccessor(&GsnPortDevice::m_retransmitTimeout),
                MakeGsnChecker("ns3::GsnPortDevice::RetransmitTimeout", MakeTimeChecker(Time(0))))
            .AddAttribute("MaxRetransmitTries",
                          "Timeouts without progress before the port resets the link.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&GsnPortDevice::m_maxRetransmitTries),
                          MakeGsnChecker("ns3::GsnPortDevice::MaxRetransmitTries",
                                         MakeUintegerChecker<uint32_t>(1)))
            .AddAttribute("CreditReturnThreshold",
                          "Credits owed on one VC that justify a Credit-only micropacket "
                          "when nothing else carries them. At most RxBufferSize.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GsnPortDevice::m_creditReturnThreshold),
                          MakeGsnChecker("ns3::GsnPortDevice::CreditReturnThreshold",
                                         MakeUintegerChecker<uint32_t>(1)))
            .AddAttribute("KeepAliveNulls",
                          "Fill every slot the link has nothing else for with a Null "
                          "micropacket, as the hardware keeps an idle link alive, so that "
                          "micropacket counts and utilisation are those of a real link. One "
                          "event per idle slot; only with LinkMode Micropacket (refused with "
                          "Run); a simulation with it needs Simulator::Stop.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsnPortDevice::m_keepAliveNulls),
                          MakeBooleanChecker())
            .AddAttribute(
                "AckThreshold",
                "Micropackets accepted without acknowledgement that justify a Null "
                "micropacket when nothing else carries RSEQ.",
                UintegerValue(16),
                MakeUintegerAccessor(&GsnPortDevice::m_ackThreshold),
                MakeGsnChecker("ns3::GsnPortDevice::AckThreshold",
                               MakeUintegerChecker<uint32_t>(1, gsn::MAX_RETRANSMIT_WINDOW)))
            .AddAttribute(
                "AckDelay",
                "Longest wait of an accepted micropacket for its acknowledgement, and "
                "of owed credits for their return. Keep it above AckThreshold and "
                "CreditReturnThreshold micropacket times: under load the thresholds "
                "then act first.",
                TimeValue(MicroSeconds(1)),
                MakeTimeAccessor(&GsnPortDevice::m_ackDelay),
                MakeGsnChecker("ns3::GsnPortDevice::AckDelay", MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("ReceiveErrorModel",
                          "Corrupts received micropackets (one per call of the model); the "
                          "LCRC then fails and go-back-N recovers. In the Run link mode, a "
                          "model at either end of a link makes its ports time "
                          "acknowledgements as ExactCredits does (and use the micropacket "
                          "mode's go-back-N timeout).",
                          PointerValue(),
                          MakePointerAccessor(&GsnPortDevice::SetReceiveErrorModel,
                                              &GsnPortDevice::GetReceiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddAttribute("LinkMode",
                          "Micropacket: one event per micropacket, the reference. Run: the "
                          "port chooses the micropackets of consecutive slots at once, as it "
                          "would one by one if nothing arrived meanwhile, and sends them as "
                          "one run (one event at each end).",
                          EnumValue(LinkMode::MICROPACKET),
                          MakeEnumAccessor(&GsnPortDevice::m_linkMode),
                          MakeGsnEnumChecker("ns3::GsnPortDevice::LinkMode",
                                             LinkMode::MICROPACKET,
                                             "Micropacket",
                                             LinkMode::RUN,
                                             "Run"))
            .AddAttribute("MaxRunLength",
                          "Longest run, in micropackets, in the Run link mode.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&GsnPortDevice::m_maxRunLength),
                          MakeGsnChecker("ns3::GsnPortDevice::MaxRunLength",
                                         MakeUintegerChecker<uint32_t>(1, 65536)))
            .AddAttribute("DisturbedRunLength",
                          "Run link mode: when a VC that had nothing to send gets something "
                          "during a run (a Message granted at a switch output, sent by an "
                          "endpoint's application), it waits for the run's end, where "
                          "micropacket by micropacket it would take the next slot. The runs "
                          "that follow are then at most this long (see DisturbedRuns). Zero: "
                          "off (runs of MaxRunLength throughout).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GsnPortDevice::m_disturbedRunLength),
                          MakeGsnChecker("ns3::GsnPortDevice::DisturbedRunLength",
                                         MakeUintegerChecker<uint32_t>(0, 65536)))
            .AddAttribute("DisturbedRuns",
                          "Run link mode: how many runs after a disturbed one (see "
                          "DisturbedRunLength) that nothing disturbs stay at "
                          "DisturbedRunLength; after them the limit doubles with each "
                          "undisturbed run, up to MaxRunLength.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GsnPortDevice::m_shortRuns),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ExactCredits",
                          "Run link mode: a credit goes back only from the slot in which its "
                          "buffer place is freed (a switch output's run chosen ahead frees "
                          "the places of its later slots then; an endpoint frees a place when "
                          "the micropacket arrives), in a Credit-only micropacket when "
                          "CreditReturnThreshold are owed, as micropacket by micropacket, and "
                          "counts at the sender only from its arrival; one freed during a run "
                          "of the port rides on the run's micropackets that leave from then "
                          "on. Acknowledgements "
                          "likewise: a micropacket acknowledges what has arrived by its slot, "
                          "one accepted during a run of the port rides on the run's next slot "
                          "(the run's later RSEQs are amended), an RSEQ counts from its "
                          "arrival, a Null is owed from the arrivals, and the go-back-N "
                          "timeout is the micropacket mode's. Much closer to the micropacket "
                          "mode where credits run short and with link errors, for 1.4 to 17 "
                          "times the events. False: the credits of the places a run frees go "
                          "back at once, with Credit-only micropackets that carry what is "
                          "owed; a run's RSEQs are those when it was chosen.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsnPortDevice::m_exactCredits),
                          MakeBooleanChecker())
            .AddAttribute(
                "MaxRunGap",
                "Run link mode: the longest idle time a run may contain, where the "
                "port would otherwise stop and be woken when the next micropacket of "
                "its upper part (a switch input feeding it) is ready, or when a "
                "credit that a VC waits for arrives on a micropacket taken ahead. "
                "160 ns (the default) covers a stream of every fourth slot, as "
                "behind an endpoint interleaving four VCs: on fat trees with "
                "Messages on random VCs 11 times fewer events than without, and no "
                "latency bias measurable over seeds. Zero: runs are back to back only (as "
                "exact as possible with ExactCredits).",
                TimeValue(NanoSeconds(160)),
                MakeTimeAccessor(&GsnPortDevice::m_maxRunGap),
                MakeGsnChecker("ns3::GsnPortDevice::MaxRunGap", MakeTimeChecker(Time(0))))
            .AddTraceSource("MicropacketTx",
                            "A micropacket starts on the wire. (Micropacket mode: a micropacket "
                            "accepted at the instant its slot starts, whose arrival event runs "
                            "after this one, is still acknowledged by it; the peer's "
                            "MicropacketRx then shows an RSEQ one higher.)",
                            MakeTraceSourceAccessor(&GsnPortDevice::m_micropacketTxTrace),
                            "ns3::GsnPortDevice::MicropacketTracedCallback")
            .AddTraceSource(
                "MicropacketRx",
                "A micropacket with a good LCRC arrived (with the RSEQ in effect: a run-mode "
                "peer amends the RSEQ of a run's later micropackets).",
                MakeTraceSourceAccessor(&GsnPortDevice::m_micropacketRxTrace),
                "ns3::GsnPortDevice::MicropacketTracedCallback")
            .AddTraceSource("MicropacketDrop",
                            "A received micropacket was dropped (bad LCRC, out of sequence, "
                            "reserved TYPE, before Initialize, buffer overflow).",
                            MakeTraceSourceAccessor(&GsnPortDevice::m_micropacketDropTrace),
                            "ns3::GsnPortDevice::MicropacketTracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "The 40 wire bytes of a dropped micropacket.",
                            MakeTraceSourceAccessor(&GsnPortDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("LateCreditsRx",
                            "Run link mode: credits the peer "
                            "put on a micropacket of its run after this port had taken it "
                            "ahead of its arrival (they count from its arrival; the "
                            "MicropacketRx trace showed it without them, or, with "
                            "ExactCredits, with fewer of the same VC): the VC and the "
                            "credits added. Also for one taken with a good LCRC and not "
                            "accepted (out of sequence), whose credits do not count.",
                            MakeTraceSourceAccessor(&GsnPortDevice::m_lateCreditsRxTrace),
                            "ns3::GsnPortDevice::LateCreditsTracedCallback")
            .AddTraceSource("CreditStall",
                            "A VC that waited for credit got some: the VC and how long.",
                            MakeTraceSourceAccessor(&GsnPortDevice::m_creditStallTrace),
                            "ns3::GsnPortDevice::CreditStallTracedCallback")
            .AddTraceSource("Retransmit",
                            "The go-back-N timer expired: micropackets to send again.",
                            MakeTraceSourceAccessor(&GsnPortDevice::m_retransmitTrace),
                            "ns3::GsnPortDevice::RetransmitTracedCallback");
    return tid;
}

GsnPortDevice::GsnPortDevice()
    : m_linkMode(LinkMode::MICROPACKET),
      m_state(LinkState::DOWN),
      m_txBusy(false),
      m_selecting(false),
      m_rxGranted(false),
      m_ackDue(false),
      m_creditDue(false),
      m_startedIdle(false),
      m_startCreditDue(false),
      m_placesFreedElsewhere(true),
      m_slotStartCreditsAny(false),
      m_exactCredits(false),
      m_keepAliveNulls(false),
      m_rrNext(0),
      m_nextTseq(0),
      m_expectedTseq(0),
      m_rxUnacked(0),
      m_resendIndex(0),
      m_runLength(0),
      m_creditReturnThreshold(16),
      m_ackThreshold(16),
      m_retransmitWindow(gsn::MAX_RETRANSMIT_WINDOW),
      m_maxRunLength(256),
      m_disturbedRunLength(16),
      m_shortRuns(16),
      m_rxBufferSize(256),
      m_maxRunGap(Time(0)),
      m_txCredits{},
      m_rxOccupancy{},
      m_owedCredits{},
      m_stalled{},
      m_ifIndex(0),
      m_mtu(gsn::DEFAULT_MTU),
      m_maxRetransmitTries(8),
      m_timeoutsWithoutProgress(0)
{
    NS_LOG_FUNCTION(this);
    m_corruptBit = CreateObject<UniformRandomVariable>();
    gsn::g_lastPortEventTs = 0; // (a fabric being built: perhaps a new simulation)
}

GsnPortDevice::~GsnPortDevice()
{
    NS_LOG_FUNCTION(this);
}

void
GsnPortDevice::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    if (m_creditReturnThreshold > m_rxBufferSize)
    {
        NS_FATAL_ERROR("GsnPortDevice: CreditReturnThreshold ("
                       << m_creditReturnThreshold << ") exceeds RxBufferSize (" << m_rxBufferSize
                       << ")");
    }
    if (m_keepAliveNulls && m_linkMode == LinkMode::RUN)
    {
        // A run chosen ahead would fill the idle slots with Nulls and hold back what arrives
        // during it, so the runs would no longer be the micropacket mode's slots.
        NS_FATAL_ERROR("GsnPortDevice: KeepAliveNulls needs LinkMode Micropacket (a run of "
                       "Nulls chosen ahead would delay what arrives during it); set "
                       "ns3::GsnPortDevice::LinkMode=Micropacket or KeepAliveNulls=false");
    }
    // A port of an element that another MPI rank simulates is this rank's copy only: it
    // stays silent (its rank brings it up).
    const bool local = !GetNode() || GetNode()->GetSystemId() == Simulator::GetSystemId();
    if (m_channel && m_state == LinkState::DOWN && local)
    {
        BringUp(GsnLinkBringUp::Event::START); // bring-up, not counted as a reset
    }
    // ns-3.37's HeapScheduler::Remove restores the heap downwards only, which breaks its
    // order (a k=8 fat tree crashed): with it, a pending timer is left to find nothing to do.
    StringValue scheduler;
    m_removeIsSafe = !GlobalValue::GetValueByNameFailSafe("SchedulerType", scheduler) ||
                     scheduler.Get() != "ns3::HeapScheduler";
    NetDevice::DoInitialize();
}

void
GsnPortDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (PortTimer* t : {&m_rtxTimer,
                         &m_ackTimer,
                         &m_creditTimer,
                         &m_dueCreditsTimer,
                         &m_heldChoiceTimer,
                         &m_slotEndTimer})
    {
        t->event.Cancel();
        t->pending = false;
    }
    m_heldChoice.Forget(NodeNumber());
    m_handshakeEvent.Cancel();
    m_retx.clear();
    m_ackedAhead = 0;
    m_ackedCreditsUpTo = 0;
    ClearKeptForLater();
    m_adminQueue.clear();
    m_controlQueue.clear();
    m_txRun = nullptr;
    m_channel = nullptr;
    m_node = nullptr;
    m_receiveErrorModel = nullptr;
    m_corruptBit = nullptr;
    NetDevice::DoDispose();
}

bool
GsnPortDevice::Attach(Ptr<GsnChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    NoteLinkErrorModels();
    return true;
}

void
GsnPortDevice::SetReceiveErrorModel(Ptr<ErrorModel> em)
{
    m_receiveErrorModel = em;
    NoteLinkErrorModels();
}

Ptr<ErrorModel>
GsnPortDevice::GetReceiveErrorModel() const
{
    return m_receiveErrorModel;
}

// Update m_linkMayCorrupt from the error models at both ends of the link. ExactAcks() (in the
// header) is true, acknowledgements timed as micropacket by micropacket, in the run mode with
// ExactCredits, or where the link may corrupt micropackets (an error model at either end), since
// there late acknowledgements would need a longer go-back-N timeout and every recovery would wait
// that much longer. (The micropacket mode needs nothing kept for later.)
void
GsnPortDevice::NoteLinkErrorModels()
{
    // Both ends keep the same answer: each end's acknowledgements and timeouts depend on the
    // other's.
    Ptr<GsnPortDevice> peer = m_channel ? m_channel->GetPeer(this) : nullptr;
    m_linkMayCorrupt = m_receiveErrorModel || (peer && peer->m_receiveErrorModel);
    if (peer)
    {
        peer->m_linkMayCorrupt = m_linkMayCorrupt;
    }
}

int64_t
GsnPortDevice::AssignStreams(int64_t stream)
{
    m_corruptBit->SetStream(stream);
    return STREAMS_PER_PORT;
}

void
GsnPortDevice::Arm(PortTimer& timer, const Time& delay, void (GsnPortDevice::*handler)())
{
    timer.event = gsn::SchedulePortCall(delay, this, handler);
    timer.pending = true;
}

// A lazy timer's check: if due is still ahead, arm timer again for it. Returns whether it was armed
// (the timer's work is not due yet).
bool
GsnPortDevice::ArmAgainIfNotDue(PortTimer& timer, const Time& due, void (GsnPortDevice::*handler)())
{
    const Time now = gsn::Now();
    if (now < due)
    {
        Arm(timer, due - now, handler);
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------
// Accessors and the NetDevice API shared by all ports

int32_t
GsnPortDevice::GetTxCredits(uint8_t vc) const
{
    return m_txCredits.at(vc) + int32_t(m_laterCredits.SumDue(vc, gsn::Now()));
}

uint32_t
GsnPortDevice::GetRxBufferOccupancy(uint8_t vc) const
{
    return m_rxOccupancy.at(vc) - m_laterReleases.SumDue(vc, gsn::Now());
}

uint64_t
GsnPortDevice::GetTxMicropacketsStarted() const
{
    const int64_t elapsed = (gsn::Now() - m_runStart).GetNanoSeconds();
    // (A run may have idle time inside: count the micropackets that have left by now.)
    const int64_t started = m_txBusy && m_txRun ? int64_t(m_txRun->LeftBy(elapsed))
                                                : elapsed / gsn::MICROPACKET_TIME_NS + 1;
    const int64_t later = int64_t(m_runLength) - started;
    return m_counters.txMicropackets - uint64_t(std::max<int64_t>(0, later));
}

uint64_t
GsnPortDevice::GetTxMicropacketsStartedBefore() const
{
    const int64_t elapsed = (gsn::Now() - m_runStart).GetNanoSeconds() - 1; // strictly before
    int64_t started = 0;
    if (elapsed >= 0)
    {
        started = m_txBusy && m_txRun ? int64_t(m_txRun->LeftBy(elapsed))
                                      : elapsed / gsn::MICROPACKET_TIME_NS + 1;
    }
    const int64_t later = int64_t(m_runLength) - started;
    return m_counters.txMicropackets - uint64_t(std::max<int64_t>(0, later));
}

Time
GsnPortDevice::GetCreditStallTimeUpToNow() const
{
    Time total;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        total += m_counters.creditStallTime[vc];
        if (m_stalled[vc])
        {
            total += std::max(Time(0), gsn::Now() - m_stallStart[vc]); // (as CountCredits())
        }
    }
    return total;
}

uint32_t
GsnPortDevice::GetUnacknowledged() const
{
    uint32_t n = uint32_t(m_retx.size() - m_ackedAhead);
    // ExactCredits: less what acknowledgements that arrived by now, kept, take off.
    uint8_t rseq = 0;
    if (n > 0 && m_laterAcks.LastArrivedBy(gsn::Now(), rseq))
    {
        const uint32_t acked = uint8_t(rseq - FirstUnackedTseq() + 1);
        return acked <= n ? n - acked : n;
    }
    return n;
}

void
GsnPortDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
GsnPortDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
GsnPortDevice::GetChannel() const
{
    return m_channel;
}

Ptr<GsnChannel>
GsnPortDevice::GetCable() const
{
    return m_channel;
}

void
GsnPortDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
GsnPortDevice::GetAddress() const
{
    return m_address;
}

bool
GsnPortDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
GsnPortDevice::GetMtu() const
{
    return m_mtu;
}

bool
GsnPortDevice::IsLinkUp() const
{
    return m_state == LinkState::UP;
}

void
GsnPortDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
GsnPortDevice::IsPointToPoint() const
{
    return true;
}

bool
GsnPortDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
GsnPortDevice::GetNode() const
{
    return m_node;
}

void
GsnPortDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    if (m_channel)
    {
        m_channel->NotifyNodeChanged();
    }
}

} // namespace ns3
