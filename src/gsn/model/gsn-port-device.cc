/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-port-device.h"

#include "gsn-call-after-event.h"
#include "gsn-channel.h"
#include "gsn-now.h"
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

namespace
{

/// Counts a timer's event in the link counters, and whether the port sent nothing in it.
class TimerEventCount
{
  public:
    /// \param counters the port's counters
    explicit TimerEventCount(GsnLinkCounters& counters)
        : m_counters(counters),
          m_sentBefore(counters.txMicropackets)
    {
        ++m_counters.timerEvents;
    }

    ~TimerEventCount()
    {
        if (m_counters.txMicropackets == m_sentBefore)
        {
            ++m_counters.timerEventsSendingNothing;
        }
    }

    TimerEventCount(const TimerEventCount&) = delete;
    TimerEventCount& operator=(const TimerEventCount&) = delete;

  private:
    GsnLinkCounters& m_counters; ///< the port's counters
    uint64_t m_sentBefore;       ///< micropackets sent before the event
};

} // namespace

GsnLinkCounters&
GsnLinkCounters::operator+=(const GsnLinkCounters& o)
{
    transmissions += o.transmissions;
    timerEvents += o.timerEvents;
    timerEventsSendingNothing += o.timerEventsSendingNothing;
    txMicropackets += o.txMicropackets;
    txMessageMicropackets += o.txMessageMicropackets;
    rxMicropackets += o.rxMicropackets;
    rxTakenAhead += o.rxTakenAhead;
    rxAccepted += o.rxAccepted;
    creditOnlySent += o.creditOnlySent;
    nullSent += o.nullSent;
    lcrcErrors += o.lcrcErrors;
    outOfSequence += o.outOfSequence;
    notInitialized += o.notInitialized;
    reservedType += o.reservedType;
    retransmitTimeouts += o.retransmitTimeouts;
    retransmitted += o.retransmitted;
    linkResets += o.linkResets;
    rxBufferOverflow += o.rxBufferOverflow;
    messagesLostInReset += o.messagesLostInReset;
    for (uint32_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        creditStalls[vc] += o.creditStalls[vc];
        creditStallTime[vc] += o.creditStallTime[vc];
    }
    return *this;
}

NS_OBJECT_ENSURE_REGISTERED(GsnPortDevice);

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
            .AddAttribute("Mtu",
                          "The MTU reported to network layers (RFC 2067 value, proposed for "
                          "RFC 2835).",
                          UintegerValue(gsn::DEFAULT_MTU),
                          MakeUintegerAccessor(&GsnPortDevice::SetMtu, &GsnPortDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(68))
            .AddAttribute("RxBufferSize",
                          "Receive buffer per virtual channel, in micropackets; also the "
                          "credits granted at Initialize (PROTOCOLS.md 1.6 proposal: 256).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&GsnPortDevice::m_rxBufferSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 20))
            .AddAttribute("RetransmitWindow",
                          "Retransmission buffer in micropackets: the most sequenced "
                          "micropackets sent and not acknowledged (8-bit TSEQ allows 255).",
                          UintegerValue(gsn::MAX_RETRANSMIT_WINDOW),
                          MakeUintegerAccessor(&GsnPortDevice::m_retransmitWindow),
                          MakeUintegerChecker<uint32_t>(1, gsn::MAX_RETRANSMIT_WINDOW))
            .AddAttribute("RetransmitTimeout",
                          "Go-back-N timeout without acknowledgement progress. Zero derives "
                          "it: 2 x (delay + 20 micropacket times) + AckDelay, plus MaxRunLength "
                          "micropacket times in the Run link mode where acknowledgements ride "
                          "on runs as chosen: without ExactCredits, on a link without an error "
                          "model at either end.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GsnPortDevice::m_retransmitTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxRetransmitTries",
                          "Timeouts without progress before the port resets the link.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&GsnPortDevice::m_maxRetransmitTries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CreditReturnThreshold",
                          "Credits owed on one VC that justify a Credit-only micropacket "
                          "when nothing else carries them. At most RxBufferSize.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GsnPortDevice::m_creditReturnThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckThreshold",
                          "Micropackets accepted without acknowledgement that justify a Null "
                          "micropacket when nothing else carries RSEQ.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GsnPortDevice::m_ackThreshold),
                          MakeUintegerChecker<uint32_t>(1, gsn::MAX_RETRANSMIT_WINDOW))
            .AddAttribute("AckDelay",
                          "Longest wait of an accepted micropacket for its acknowledgement, and "
                          "of owed credits for their return. Keep it above AckThreshold and "
                          "CreditReturnThreshold micropacket times: under load the thresholds "
                          "then act first.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&GsnPortDevice::m_ackDelay),
                          MakeTimeChecker(NanoSeconds(1)))
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
            .AddAttribute(
                "LinkMode",
                "Micropacket: one event per micropacket, the reference. Run: the "
                "port chooses the micropackets of consecutive slots at once, as it "
                "would one by one if nothing arrived meanwhile, and sends them as "
                "one run (one event at each end).",
                EnumValue(LinkMode::MICROPACKET),
                MakeEnumAccessor(&GsnPortDevice::m_linkMode),
                MakeEnumChecker(LinkMode::MICROPACKET, "Micropacket", LinkMode::RUN, "Run"))
            .AddAttribute("MaxRunLength",
                          "Longest run, in micropackets, in the Run link mode.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&GsnPortDevice::m_maxRunLength),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("DisturbedRunLength",
                          "Run link mode: when a VC that had nothing to send gets something "
                          "during a run (a Message granted at a switch output, sent by an "
                          "endpoint's application), it waits for the run's end, where "
                          "micropacket by micropacket it would take the next slot. The runs "
                          "that follow are then at most this long (see DisturbedRuns). Zero: "
                          "off (runs of MaxRunLength throughout).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GsnPortDevice::m_disturbedRunLength),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("DisturbedRuns",
                          "Run link mode: how many runs after a disturbed one (see "
                          "DisturbedRunLength) that nothing disturbs stay at "
                          "DisturbedRunLength; after them the limit doubles with each "
                          "undisturbed run, up to MaxRunLength.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&GsnPortDevice::m_disturbedRuns),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LimitRunsByPeerCredits",
                          "Run link mode. False (the default): credits freed and micropackets "
                          "accepted during a run ride on the run's micropackets that leave "
                          "from then on, as micropacket by micropacket (credits on those "
                          "without credits, also on those the peer acknowledged before they "
                          "left; the peer counts them from their arrival). True: instead, "
                          "end a run before the peer, sending on a VC whose receive buffer "
                          "here holds micropackets, could use up its credits (credits freed "
                          "during a run go back only with the next run, unless "
                          "ExactCredits): the same fidelity over seeds, about 2.5 times the "
                          "events on loaded fat trees.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsnPortDevice::m_limitRunsByPeerCredits),
                          MakeBooleanChecker())
            .AddAttribute("ExactCredits",
                          "Run link mode: a credit goes back only from the slot in which its "
                          "buffer place is freed (a switch output's run chosen ahead frees "
                          "the places of its later slots then; an endpoint frees a place when "
                          "the micropacket arrives), in a Credit-only micropacket when "
                          "CreditReturnThreshold are owed, as micropacket by micropacket, and "
                          "counts at the sender only from its arrival; one freed during a run "
                          "of the port rides on the run's micropackets that leave from then "
                          "on (as with LimitRunsByPeerCredits false). Acknowledgements "
                          "likewise: a micropacket acknowledges what has arrived by its slot, "
                          "one accepted during a run of the port rides on the run's next slot "
                          "(the run's later RSEQs are amended), an RSEQ counts from its "
                          "arrival, a Null is owed from the arrivals, and the go-back-N "
                          "timeout is the micropacket mode's. Much closer to the micropacket "
                          "mode where credits run short and with link errors, for 1.4 to 16 "
                          "times the events. False: the credits of the places a run frees go "
                          "back at once, with Credit-only micropackets that carry what is "
                          "owed; a run's RSEQs are those when it was chosen.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsnPortDevice::m_exactCredits),
                          MakeBooleanChecker())
            .AddAttribute("MaxRunGap",
                          "Run link mode: the longest idle time a run may contain, where the "
                          "port would otherwise stop and be woken when the next micropacket of "
                          "its upper part (a switch input feeding it) is ready. 160 ns (the "
                          "default) covers a stream of every fourth slot, as behind an "
                          "endpoint interleaving four VCs: on fat trees with Messages on "
                          "random VCs 7 times fewer events than without, and no latency bias "
                          "measurable over seeds. Zero: runs are back to back only (as "
                          "exact as possible with ExactCredits).",
                          TimeValue(NanoSeconds(160)),
                          MakeTimeAccessor(&GsnPortDevice::m_maxRunGap),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("MicropacketTx",
                            "A micropacket starts on the wire.",
                            MakeTraceSourceAccessor(&GsnPortDevice::m_micropacketTxTrace),
                            "ns3::GsnPortDevice::MicropacketTracedCallback")
            .AddTraceSource("MicropacketRx",
                            "A micropacket with a good LCRC arrived.",
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
                            "Run link mode without LimitRunsByPeerCredits: credits the peer "
                            "put on a micropacket of its run after this port had taken it "
                            "ahead of its arrival (they count from its arrival; the "
                            "MicropacketRx trace showed it without them): the VC and the "
                            "credits.",
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
      m_limitRunsByPeerCredits(true),
      m_exactCredits(false),
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
      m_disturbedRuns(16),
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
    if (m_channel && m_state == LinkState::DOWN)
    {
        BeginReset(); // bring-up, not counted as a reset
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
    m_handshakeEvent.Cancel();
    m_retx.clear();
    m_ackedAhead = 0;
    m_ackedCreditsUpTo = 0;
    m_laterReleases.clear();
    m_laterCredits.clear();
    m_laterAcks.clear();
    m_laterAckRun = nullptr;
    m_laterArrivals.clear();
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
    return 1;
}

// ---------------------------------------------------------------------------------------
// Transmitter

void
GsnPortDevice::NotifyTxReady()
{
    if (!m_txBusy)
    {
        TransmitNext();
    }
}

void
GsnPortDevice::TransmitNext()
{
    if (m_txBusy || m_selecting || !m_channel || m_heldChoiceTimer.pending)
    {
        return; // (held: the choice comes after the events pending at this instant)
    }
    const Time now = gsn::Now();
    m_slotTime = now;
    // What is due by now counts (ExactCredits: acknowledgements may move the deadline).
    // Applying it may notify this port, which the choice below covers.
    m_selecting = true;
    const bool slotFollows = m_runEnd == now; // back to back with the previous transmission
    ApplyDueCredits(now);
    if (m_ackedAhead > 0)
    {
        ReleaseAckedThatLeft(); // (the run has left: all of them)
    }
    m_selecting = false;
    if (RetransmitDeadlinePassed(now))
    {
        ExpireRetransmitTimer(); // may reset the link, which sends at once
        if (m_txBusy)
        {
            return;
        }
    }
    // Choosing may call into the upper part, which may notify this port again (a switch
    // frees an input buffer of the same port); the choice under way covers that.
    m_selecting = true;
    m_slotTime = now;
    GsnMicropacket mp;
    // An idle port that would send a Null or a Credit-only waits for the other events of
    // this instant: one may free places whose credits make a Credit-only (which carries the
    // RSEQ too) due in this slot, or add to it, whichever of them happens to run first.
    // (A Credit-only only where other events free places: not at an endpoint, which frees
    // each place as its micropacket arrives, one arrival per instant.)
    const bool mayHold = !slotFollows && m_choiceHeldAt != now;
    if (mayHold && m_placesFreedElsewhere && CreditOnlyIsNext())
    {
        HoldUntilAfterEvent(now);
        return;
    }
    bool first = SelectMicropacket(mp, !mayHold);
    if (!first && slotFollows && ApplyReleasesAtSlot(now))
    {
        first = SelectMicropacket(mp);
    }
    if (!first && mayHold && NullDue())
    {
        HoldUntilAfterEvent(now);
        return;
    }
    if (!first)
    {
        m_selecting = false;
        ArmIdleTimers();
        return; // idle: nothing scheduled until something becomes due
    }
    PrepareToSend(mp);
    // Run mode: choose the following slots now, exactly as TransmitComplete would one by
    // one if nothing arrived meanwhile; stop at the first slot with nothing to send. The run
    // object is made only when a second micropacket joins.
    const uint32_t maxRun =
        m_linkMode != LinkMode::RUN
            ? 1
            : std::min(m_limitRunsByPeerCredits ? CreditAwareRunLimit() : m_maxRunLength, m_runCap);
    Ptr<GsnMicropacketRun> run;
    uint32_t n = 1;
    GsnMicropacketType lastType = mp.GetType();
    Time lastSlot = m_slotTime;
    m_choosingAhead = true;
    const Time slot = gsn::MicropacketTime();
    while (n < maxRun)
    {
        m_slotTime += slot;
        ApplyDueCredits(m_slotTime, true); // what arrives by this slot, or is freed before it
        if (RetransmitDeadlinePassed(m_slotTime))
        {
            break; // the go-back-N timer expires in this slot: choose it when it comes
        }
        if (!m_exactCredits && lastType == GsnMicropacketType::CREDIT_ONLY && m_owedTotal > 0)
        {
            // Credit-only micropackets are going out anyway: let the remainder below
            // CreditReturnThreshold ride with them rather than wait for its timer (with
            // ExactCredits the credits of a later slot go in their own Credit-only when
            // they reach the threshold, as micropacket by micropacket).
            m_creditDue = true;
        }
        GsnMicropacket next;
        const uint64_t messageMicropackets = m_counters.txMessageMicropackets;
        bool chosen = SelectMicropacket(next);
        if (!chosen && ApplyReleasesAtSlot(m_slotTime))
        {
            chosen = SelectMicropacket(next);
        }
        const Time idleFrom = m_slotTime;
        if (!chosen && BridgeIdleSlots())
        {
            chosen = SelectMicropacket(next);
        }
        if (!chosen)
        {
            break;
        }
        PrepareToSend(next);
        lastType = next.GetType();
        lastSlot = m_slotTime;
        if (!run)
        {
            run = Create<GsnMicropacketRun>();
            run->Append(std::move(mp)); // not used below once in a run
        }
        if (m_slotTime != idleFrom && run->departures.empty())
        {
            for (uint32_t k = 0; k < n; ++k)
            {
                run->departures.push_back(int64_t(k) * gsn::MICROPACKET_TIME_NS);
            }
        }
        if (!run->departures.empty())
        {
            run->departures.push_back((m_slotTime - now).GetNanoSeconds());
        }
        const bool following = next.GetType() == GsnMicropacketType::DATA && !next.tail &&
                               m_counters.txMessageMicropackets != messageMicropackets;
        const uint8_t vc = next.vc;
        run->Append(std::move(next));
        ++n;
        if (following && n < maxRun)
        {
            n += ChooseFollowingAhead(*run, vc, maxRun - n, now);
            lastSlot = m_slotTime;
        }
    }
    m_selecting = false;
    m_choosingAhead = false;
    ++m_counters.transmissions;
    const Time busyFor = lastSlot + slot - now;
    m_slotTime = now;
    m_txBusy = true;
    m_runStart = m_slotTime;
    m_runLength = n;
    m_runEnd = now + busyFor;
    if (!run && m_linkMode == LinkMode::RUN && ExactAcks())
    {
        // Timed acknowledgements: a micropacket arriving at this instant, after this choice,
        // is acknowledged in this slot as micropacket by micropacket (where its arrival comes
        // first), by amending the RSEQ of a run (AmendRunAcks), here of one micropacket.
        run = Create<GsnMicropacketRun>();
        run->Append(std::move(mp));
    }
    m_txRun = run;
    if (run)
    {
        m_channel->TransmitRun(run, this);
    }
    else
    {
        TransmitSingle(mp);
    }
    if (run)
    {
        m_lastTxArrival = run->ArrivalOf(run->Size() - 1);
    }
    gsn::SchedulePortCallOnce(busyFor, this, &GsnPortDevice::TransmitComplete);
}

__attribute__((always_inline)) inline void
GsnPortDevice::NoteMessageMicropacketTaken(uint8_t vc, GsnMicropacket& mp)
{
    mp.vc = vc;
    m_vcLastSlot[vc] = m_slotTime;
    --m_txCredits[vc];
    m_rrNext = uint8_t((vc + 1) % gsn::NUM_VCS);
    ++m_counters.txMessageMicropackets;
    PiggybackCredits(mp);
}

__attribute__((always_inline)) inline void
GsnPortDevice::KeepForRetransmission(GsnMicropacket& mp)
{
    mp.tseq = m_nextTseq++;
    m_retx.Push(mp, m_slotTime);
    m_resendIndex = m_retx.size();
}

uint32_t
GsnPortDevice::ChooseFollowingAhead(GsnMicropacketRun& run,
                                    uint8_t vc,
                                    uint32_t room,
                                    const Time& start)
{
    // One by one, each of these slots would apply nothing due (nothing is kept for later),
    // find no timeout (the go-back-N deadline is beyond them), no control, Admin or resent
    // micropacket, room in the window, every other VC stalled, a credit for vc, and take
    // vc's next micropacket if ready and not a Tail, which the upper part tells here.
    // Nothing of that changes meanwhile: the upper part's only other act, freeing the
    // places upstream, acts on nothing else (TakeFollowingMessageMicropackets()).
    // Credits arriving meanwhile for vc (sending: not stalled) or for a VC with nothing to
    // send change none of these choices but for vc's credit in each slot, counted here (they
    // count at the next slot chosen one by one, from their own time); those for another
    // stalled VC may.
    if (!m_controlQueue.empty() || !m_adminQueue.empty() || m_state != LinkState::UP ||
        m_resendIndex != m_retx.size() || !m_laterReleases.empty() || !m_laterAcks.empty() ||
        !m_laterArrivals.empty())
    {
        return 0;
    }
    for (uint8_t w = 0; w < gsn::NUM_VCS; ++w)
    {
        if (w != vc && (m_messageVcs >> w & 1u) &&
            (!(m_txCredits[w] <= 0 && m_stalled[w]) || m_laterCredits.Total(w) > 0))
        {
            return 0;
        }
    }
    const Time slot = gsn::MicropacketTime();
    uint32_t k = std::min(
        room,
        uint32_t(m_retransmitWindow - std::min<std::size_t>(m_retransmitWindow, m_retx.size())));
    k = m_laterCredits.Total(vc) == 0
            ? uint32_t(std::clamp<int64_t>(m_txCredits[vc], 0, k))
            : m_laterCredits.SlotsCovered(vc, m_txCredits[vc], m_slotTime + slot, slot, k);
    if (!m_retx.empty())
    {
        // (m_retx holds the micropacket just chosen: the deadline is set.)
        const int64_t before = (m_rtxDeadline - m_slotTime - TimeStep(1)).GetTimeStep();
        const int64_t slots = before < 0 ? 0 : before / slot.GetTimeStep();
        k = uint32_t(std::min<int64_t>(k, slots));
    }
    if (k == 0)
    {
        return 0;
    }
    GsnMicropacket mp;
    k = TakeFollowingMessageMicropackets(vc, k, m_slotTime + slot, mp);
    uint32_t j = 0;
    for (; j < k && !CanAppendFollowing(run); ++j)
    {
        m_slotTime += slot;
        GsnMicropacket next = mp;
        mp.AdvanceChunk();
        // As SelectSequenced() and SelectMicropacket().
        NoteMessageMicropacketTaken(vc, next);
        KeepForRetransmission(next); // (the go-back-N timer runs: the ring held one before)
        PrepareToSend(next);
        if (!run.departures.empty())
        {
            run.departures.push_back((m_slotTime - start).GetNanoSeconds());
        }
        run.Append(std::move(next));
    }
    if (j < k)
    {
        AppendFollowing(run, vc, k - j);
    }
    return k;
}

bool
GsnPortDevice::CanAppendFollowing(const GsnMicropacketRun& run) const
{
    // Those after carry no credits (none owed; nothing frees places here meanwhile) and
    // the same RSEQ, and nobody watches them one by one.
    return m_owedTotal == 0 && run.departures.empty() && m_micropacketTxTrace.IsEmpty() &&
           !g_log.IsEnabled(LOG_LOGIC);
}

void
GsnPortDevice::AppendFollowing(GsnMicropacketRun& run, uint8_t vc, uint32_t n)
{
    // What NoteMessageMicropacketTaken, KeepForRetransmission and PrepareToSend do for each
    // of n micropackets that follow the last one of the run, at once; only the ring keeps
    // each (a retransmission sends them one by one).
    const GsnMicropacket& last = run.micropackets.back();
    NS_ASSERT(last.vc == vc && last.tseq == uint8_t(m_nextTseq - 1) && last.rseq == m_rseqSent);
    m_slotTime += gsn::MicropacketTime() * int64_t(n);
    m_nextTseq = uint8_t(m_nextTseq + n);
    m_retx.AppendFollowing(n);
    run.AppendFollowing(n);
    m_resendIndex = m_retx.size();
    m_vcLastSlot[vc] = m_slotTime;
    m_txCredits[vc] -= int32_t(n);
    m_counters.txMessageMicropackets += n;
    m_counters.txMicropackets += n;
    m_rxUnacked = 0;
    m_ackDue = false;
}

uint32_t
GsnPortDevice::TakeFollowingMessageMicropackets(uint8_t /* vc */,
                                                uint32_t /* max */,
                                                const Time& /* slot */,
                                                GsnMicropacket& /* first */)
{
    return 0;
}

template <GsnPortDevice::PortTimer GsnPortDevice::*Timer, void (GsnPortDevice::*Handler)()>
void
GsnPortDevice::ArmAfterCurrentEvent()
{
    if (gsn::CallAfterCurrentEvent(&GsnPortDevice::CallIfPending<Timer, Handler>, this))
    {
        (this->*Timer).pending = true; // (no event: nothing to cancel)
    }
    else
    {
        Arm(this->*Timer, Time(0), Handler);
    }
}

template <GsnPortDevice::PortTimer GsnPortDevice::*Timer, void (GsnPortDevice::*Handler)()>
void
GsnPortDevice::CallIfPending(Object* port)
{
    auto* p = static_cast<GsnPortDevice*>(port);
    if ((p->*Timer).pending) // (not if disposed meanwhile)
    {
        (p->*Handler)();
    }
}

void
GsnPortDevice::HoldUntilAfterEvent(const Time& now)
{
    m_selecting = false;
    m_choiceHeldAt = now;
    ArmAfterCurrentEvent<&GsnPortDevice::m_heldChoiceTimer, &GsnPortDevice::HeldChoiceTimeout>();
}

bool
GsnPortDevice::CreditOnlyIsNext() const
{
    // SelectMicropacket() without its effects: nothing but owed credits would go.
    if (m_owedTotal == 0 || !m_controlQueue.empty())
    {
        return false;
    }
    if (m_state != LinkState::UP || m_resendIndex < m_retx.size() ||
        m_retx.size() >= m_retransmitWindow || !m_adminQueue.empty())
    {
        return false;
    }
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if ((m_messageVcs >> vc & 1u) && m_txCredits[vc] > 0 && HasMessageMicropacket(vc))
        {
            return false;
        }
    }
    const uint8_t vc = MostOwedVc();
    return vc < gsn::NUM_VCS && MakeCreditOnlyDue(m_owedCredits[vc]);
}

void
GsnPortDevice::HeldChoiceTimeout()
{
    const TimerEventCount counted(m_counters);
    m_heldChoiceTimer.Clear();
    TransmitNext();
}

void
GsnPortDevice::TransmitSingle(const GsnMicropacket& mp)
{
    const Time now = gsn::Now();
    const Time arrival = now + m_channel->ArrivalDelay();
    // Half the run mode's transmissions are a Credit-only or a Null returning credits and
    // acknowledgements to a peer that is busy sending to this port: it would act on them only
    // when its run ends, so they need no arrival event. (Only once everything sent before
    // through the channel has arrived, so that the peer takes the micropackets in order.)
    const GsnMicropacketType type = mp.GetType();
    GsnPortDevice* peer = nullptr;
    if (m_linkMode == LinkMode::RUN &&
        (type == GsnMicropacketType::CREDIT_ONLY || type == GsnMicropacketType::NULL_MP) &&
        m_lastTxArrival < now)
    {
        peer = m_channel->PeerOf(this);
    }
    if (peer && peer->CanTakeAhead(arrival, mp))
    {
        peer->TakeAhead(mp, arrival);
        return;
    }
    m_lastTxArrival = arrival;
    m_channel->Transmit(mp, this);
}

void
GsnPortDevice::ApplyTakenAhead()
{
    if (!TimesAcknowledgements())
    {
        ApplyDueCredits(gsn::Now());
    }
}

bool
GsnPortDevice::CanTakeAhead(const Time& arrival, const GsnMicropacket& mp) const
{
    if (!(m_txBusy && arrival < m_runEnd && !m_selecting && m_state == LinkState::UP &&
          m_rxGranted && m_linkMode == LinkMode::RUN && ReceivesPlainly()))
    {
        return false;
    }
    return !CreditsRideOnRuns() || TakingAheadIsUnseen(arrival, mp);
}

bool
GsnPortDevice::TakingAheadIsUnseen(const Time& arrival, const GsnMicropacket& mp) const
{
    // Without the credit limit, the acknowledgement a Credit-only is owed amends this port's
    // run from the slot after its arrival (AmendRunAcks()), and the peer applies the amended
    // RSEQ at once where it has taken that slot already. Taken now, the amendment must reach
    // only slots the peer takes after the arrival (it takes the rest of the run from the
    // arrival of its next part on). The RSEQ itself waits for the arrival (TakeTimedRseq()).
    if (mp.GetType() != GsnMicropacketType::CREDIT_ONLY || !m_txRun)
    {
        return true; // (a Null is owed nothing; a micropacket sent alone is not amended)
    }
    const GsnMicropacketRun& run = *m_txRun;
    const std::size_t k = FirstSlotFrom(arrival);
    if (k >= run.Size())
    {
        return true;
    }
    const bool takenByArrival =
        k < run.TakenByReceiver() || (run.next < run.Size() && run.ArrivalOf(run.next) <= arrival);
    return !takenByArrival;
}

void
GsnPortDevice::TakeAhead(GsnMicropacket mp, const Time& arrival)
{
    ++m_counters.rxTakenAhead;
    m_rxRun = nullptr;
    m_rxAhead = true;
    m_timedTake = true;
    ReceiveAt(std::move(mp), arrival);
    m_timedTake = false;
    m_rxAhead = false;
}

uint32_t
GsnPortDevice::CreditAwareRunLimit() const
{
    // Without ExactCredits a run returns owed credits with its first micropackets only;
    // credits freed during it wait for the next run. End the run before the peer, sending on
    // a VC whose buffer here is filling, would run out of the credits it has.
    const Time delay = m_channel->GetDelay();
    const uint32_t rtt = uint32_t(
        2 * (delay + gsn::MicropacketTime()).GetNanoSeconds() / gsn::MICROPACKET_TIME_NS + 1);
    uint32_t limit = m_maxRunLength;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (m_rxOccupancy[vc] + m_owedCredits[vc] == 0)
        {
            continue; // the peer is not sending on this VC
        }
        // Places freed in later slots count: their credits ride on this run's slots.
        const uint32_t peerCredits =
            m_rxBufferSize - (m_rxOccupancy[vc] - m_laterReleases.Total(vc));
        // At least CreditReturnThreshold: below that, credits would not go back anyway.
        limit =
            std::min(limit,
                     std::max(peerCredits > rtt ? peerCredits - rtt : 0, m_creditReturnThreshold));
    }
    return std::max<uint32_t>(1, limit);
}

bool
GsnPortDevice::BridgeIdleSlots()
{
    // Micropacket by micropacket, the port would idle from m_slotTime and be woken when the
    // upper part's next micropacket is ready. Where that time is known and near, and no timer
    // of this port would act before it, the run may go on from there.
    if (!m_maxRunGap.IsStrictlyPositive())
    {
        return false; // off (the default): no need to ask the upper part
    }
    Time ready = Time::Max();
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (m_txCredits[vc] > 0 && (m_messageVcs >> vc & 1u))
        {
            ready = std::min(ready, NextMessageMicropacketTime(vc));
        }
    }
    if (ready <= m_slotTime || ready - m_slotTime > m_maxRunGap || m_state != LinkState::UP ||
        m_retx.size() >= m_retransmitWindow || RetransmitDeadlinePassed(ready))
    {
        return false;
    }
    // The acknowledgement and credit timers would send a Null or Credit-only meanwhile.
    const bool ackTimer = ExactAcks() ? NextAckDue() <= ready
                                      : m_rxUnacked > 0 && m_oldestUnacked + m_ackDelay <= ready;
    const bool creditTimer = m_owedTotal > 0 && m_oldestOwed + m_ackDelay <= ready;
    if (ackTimer || creditTimer)
    {
        return false;
    }
    m_slotTime = ready;
    ApplyDueCredits(m_slotTime);
    return true;
}

// (Inlined: done for every micropacket sent, from TransmitNext() only; out of line,
// PrepareToSend(), SelectMicropacket() and SelectSequenced() cost 6% more instructions.)
__attribute__((always_inline)) inline void
GsnPortDevice::PrepareToSend(GsnMicropacket& mp)
{
    // Every micropacket acknowledges all that has arrived by its slot (with ExactCredits, a
    // run taken ahead may still be arriving).
    mp.rseq = uint8_t(m_expectedTseq - 1 - m_laterArrivals.size());
    m_rseqSent = mp.rseq;
    m_rxUnacked = 0;
    m_ackDue = false;
    // The LCRC is computed where it can matter: at a receiver with an error model, or for
    // whoever watches the micropackets (CRC work was about a quarter of the run time). The
    // micropacket itself stays pending: a run's credits may still be put on it.
    mp.SetLcrcPending();
    ++m_counters.txMicropackets;
    NS_LOG_LOGIC(this << " tx " << mp << " in slot " << m_slotTime.GetNanoSeconds() << " ns");
    if (!m_micropacketTxTrace.IsEmpty())
    {
        GsnMicropacket seen = mp;
        seen.SealLcrc();
        m_micropacketTxTrace(seen);
    }
}

void
GsnPortDevice::TransmitComplete()
{
    // Micropacket by micropacket a slot's end is scheduled one slot ahead, an arrival one
    // link delay ahead: with a delay longer than a slot, what arrives at the instant a slot
    // ends comes first. A run's end was scheduled at its start: it lets such an arrival at
    // its instant run first, as the reference would.
    const Time now = gsn::Now();
    if (m_linkMode == LinkMode::RUN && m_arrivalScheduledAt == now && m_arrivalTakenAt != now &&
        m_channel && m_channel->ArrivalDelay() > gsn::MicropacketTime())
    {
        ArmAfterCurrentEvent<&GsnPortDevice::m_slotEndTimer, &GsnPortDevice::EndTransmission>();
        return;
    }
    EndTransmission();
}

void
GsnPortDevice::EndTransmission()
{
    m_slotEndTimer.Clear();
    if (m_linkMode == LinkMode::RUN)
    {
        // A VC that got something to send during the run waited for its end: keep the next
        // runs short while that goes on, lengthen them again once it has not for a while.
        if (m_runDisturbed && m_disturbedRunLength > 0)
        {
            m_runCap = m_disturbedRunLength;
            m_shortRunsLeft = m_disturbedRuns;
        }
        else if (m_shortRunsLeft > 0)
        {
            --m_shortRunsLeft;
        }
        else
        {
            m_runCap = uint32_t(std::min<uint64_t>(uint64_t(m_runCap) * 2, m_maxRunLength));
        }
        m_runDisturbed = false;
    }
    m_txBusy = false;
    if (m_txRun)
    {
        // No acknowledgement rides on it any more. The peer is told if it keeps entries that
        // refer to the run (in any mode of this port: the peer's settings decide that).
        m_txRun->finished = true;
        GsnPortDevice* peer =
            m_txRun->heldByReceiver && m_channel ? m_channel->PeerOf(this) : nullptr;
        if (peer)
        {
            peer->AckRunFinished(PeekPointer(m_txRun));
        }
    }
    m_txRun = nullptr;
    TransmitNext();
}

void
GsnPortDevice::NoteWaitingForRun(uint8_t vc)
{
    // Micropacket by micropacket it would go in the next slot, or after the VC's last one
    // in this run (a Message queued behind one whose Tail is in the run). If the run ends
    // by then anyway, nothing waits longer.
    const Time from = std::max(gsn::Now(), m_vcLastSlot[vc] + gsn::MicropacketTime());
    if (m_runEnd - from > gsn::MicropacketTime())
    {
        m_runDisturbed = true;
    }
}

// (Inlined: see PrepareToSend().)
__attribute__((always_inline)) inline bool
GsnPortDevice::SelectMicropacket(GsnMicropacket& mp, bool nullAllowed)
{
    if (!m_controlQueue.empty())
    {
        mp = GsnMicropacket();
        mp.type = uint8_t(m_controlQueue.front());
        m_controlQueue.pop_front();
        return true;
    }
    if (m_state == LinkState::UP)
    {
        if (m_resendIndex < m_retx.size())
        {
            mp = m_retx.Get(m_resendIndex++);
            ++m_counters.retransmitted;
            return true;
        }
        if (m_retx.size() < m_retransmitWindow && SelectSequenced(mp))
        {
            KeepForRetransmission(mp);
            ArmRetransmitTimer();
            return true;
        }
    }
    if (nullAllowed && NullDue())
    {
        mp = GsnMicropacket();
        mp.type = uint8_t(GsnMicropacketType::NULL_MP);
        ++m_counters.nullSent;
        return true;
    }
    return false;
}

// (Inlined: see PrepareToSend().)
__attribute__((always_inline)) inline bool
GsnPortDevice::SelectSequenced(GsnMicropacket& mp)
{
    if (!m_adminQueue.empty())
    {
        mp = m_adminQueue.front();
        m_adminQueue.pop_front();
        mp.type = uint8_t(GsnMicropacketType::ADMIN);
        PiggybackCredits(mp);
        return true;
    }
    // The VCs that may have micropackets, in round-robin order from m_rrNext (bit i of
    // `order` is VC m_rrNext + i).
    static_assert(gsn::NUM_VCS == 4, "the VC masks below are four bits");
    const uint32_t twice = uint32_t(m_messageVcs) | uint32_t(m_messageVcs) << gsn::NUM_VCS;
    for (uint32_t order = (twice >> m_rrNext) & 0xFu; order != 0; order &= order - 1)
    {
        const uint8_t vc = uint8_t((m_rrNext + __builtin_ctz(order)) % gsn::NUM_VCS);
        if (m_txCredits[vc] <= 0)
        {
            if (!m_stalled[vc] && HasMessageMicropacket(vc))
            {
                NoteCreditStall(vc);
            }
            continue;
        }
        if (!TakeMessageMicropacket(vc, mp)) // mp is fresh: see SelectMicropacket
        {
            continue;
        }
        NoteMessageMicropacketTaken(vc, mp);
        return true;
    }
    // Credit-only when enough credits are owed, or when owed credits have waited AckDelay:
    // a link at rest holds no owed credit.
    const uint8_t vc = MostOwedVc();
    if (vc < gsn::NUM_VCS && MakeCreditOnlyDue(m_owedCredits[vc]))
    {
        mp = GsnMicropacket();
        mp.type = uint8_t(GsnMicropacketType::CREDIT_ONLY);
        PiggybackCredits(mp);
        ++m_counters.creditOnlySent;
        return true;
    }
    return false;
}

bool
GsnPortDevice::TakeMessageMicropacket(uint8_t vc, GsnMicropacket& mp)
{
    if (!HasMessageMicropacket(vc))
    {
        return false;
    }
    PullMessageMicropacket(vc, mp);
    return true;
}

uint8_t
GsnPortDevice::MostOwedVc() const
{
    uint8_t best = gsn::NUM_VCS;
    if (m_owedTotal == 0)
    {
        return best; // the common case on the sending side of a stream
    }
    uint32_t most = 0;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if (m_owedCredits[vc] > most)
        {
            most = m_owedCredits[vc];
            best = vc;
        }
    }
    return best;
}

void
GsnPortDevice::PiggybackCredits(GsnMicropacket& mp)
{
    const uint8_t vc = MostOwedVc();
    if (vc == gsn::NUM_VCS)
    {
        mp.vcr = 0;
        mp.cr = 0;
        return;
    }
    const uint32_t n = std::min(m_owedCredits[vc], gsn::MAX_CREDITS_PER_MICROPACKET);
    m_owedCredits[vc] -= n;
    m_owedTotal -= n;
    mp.vcr = vc;
    mp.cr = uint8_t(n);
    if (m_creditDue && m_owedTotal == 0)
    {
        m_creditDue = false; // everything owed at the timer's expiry is on its way
    }
}

void
GsnPortDevice::NoteCreditStall(uint8_t vc)
{
    if (m_exactCredits && m_slotTime > gsn::Now())
    {
        // Credits for this later slot may still be sent before it: a stall counts only
        // when the slot comes without them.
        return;
    }
    if (!m_stalled[vc])
    {
        m_stalled[vc] = true;
        m_stallStart[vc] = m_slotTime;
        ++m_counters.creditStalls[vc];
    }
}

void
GsnPortDevice::SendAdminMicropacket(const GsnMicropacket& mp)
{
    m_adminQueue.push_back(mp);
    NotifyTxReady();
}

void
GsnPortDevice::SendControl(GsnMicropacketType type)
{
    m_controlQueue.push_back(type);
    NotifyTxReady();
}

// ---------------------------------------------------------------------------------------
// Retransmission

Time
GsnPortDevice::GetRetransmitTimeout() const
{
    if (!m_retransmitTimeout.IsZero())
    {
        return m_retransmitTimeout;
    }
    const Time delay = m_channel ? m_channel->GetDelay() : Time(0);
    // In runs, the acknowledgements riding on the peer's run are as old as the run.
    // With ExactCredits they are amended to what micropacket by micropacket they would be.
    const int64_t runSlots =
        m_linkMode == LinkMode::RUN && !ExactAcks() ? int64_t(m_maxRunLength) : 0;
    return 2 * (delay + 20 * gsn::MicropacketTime()) + m_ackDelay +
           runSlots * gsn::MicropacketTime();
}

void
GsnPortDevice::ArmRetransmitTimer()
{
    // The deadline is checked whenever a slot's micropacket is chosen; the timer event is
    // needed only while the transmitter idles (ArmIdleTimers).
    if (m_retx.size() == 1)
    {
        m_rtxDeadline = m_slotTime + GetRetransmitTimeout();
    }
}

bool
GsnPortDevice::RetransmitDeadlinePassed(const Time& at) const
{
    return m_state == LinkState::UP && m_retx.size() > m_ackedAhead && at >= m_rtxDeadline;
}

void
GsnPortDevice::RetransmitTimeout()
{
    const TimerEventCount counted(m_counters);
    m_rtxTimer.Clear();
    ApplyDueCredits(gsn::Now()); // acknowledgements that arrived meanwhile
    ReleaseAckedThatLeft();
    if (!RetransmitDeadlinePassed(gsn::Now()))
    {
        // Progress was made since the timer was set: wait for the new deadline (while the
        // transmitter is busy, its next choice checks the deadline).
        if (m_state == LinkState::UP && !m_retx.empty() && !m_txBusy)
        {
            Arm(m_rtxTimer, m_rtxDeadline - gsn::Now(), &GsnPortDevice::RetransmitTimeout);
        }
        return;
    }
    ExpireRetransmitTimer();
    NotifyTxReady();
}

void
GsnPortDevice::ExpireRetransmitTimer()
{
    ++m_counters.retransmitTimeouts;
    if (++m_timeoutsWithoutProgress >= m_maxRetransmitTries)
    {
        NS_LOG_WARN(this << " no acknowledgement after " << m_maxRetransmitTries
                         << " timeouts: resetting the link");
        ResetLink();
        return;
    }
    const std::size_t unacked = m_retx.size() - m_ackedAhead;
    NS_LOG_LOGIC(this << " go-back-N: resending " << unacked << " micropackets");
    m_retransmitTrace(uint32_t(unacked));
    m_resendIndex = uint32_t(m_ackedAhead);
    m_rtxDeadline = gsn::Now() + GetRetransmitTimeout();
}

void
GsnPortDevice::ReleaseAckedThatLeft(bool all)
{
    if (m_ackedAhead == 0)
    {
        return;
    }
    const std::size_t leave =
        all ? m_ackedAhead : std::min(m_ackedAhead, m_retx.FirstLeavingAfter(gsn::Now()));
    m_ackedAhead -= leave;
    DropOldestSent(leave);
}

void
GsnPortDevice::DropOldestSent(std::size_t n)
{
    if (n == 0)
    {
        return;
    }
    m_retx.PopFront(n);
    // (Indices into the buffer move with it.)
    m_ackedCreditsUpTo = m_ackedCreditsUpTo > n ? m_ackedCreditsUpTo - n : 0;
    m_resendIndex = m_resendIndex > n ? uint32_t(m_resendIndex - n) : 0;
}

void
GsnPortDevice::ProcessRseq(uint8_t rseq, const Time* at)
{
    const std::size_t waiting = m_retx.size() - m_ackedAhead;
    if (waiting == 0)
    {
        return;
    }
    // RSEQ names the last TSEQ accepted; everything up to it leaves the buffer.
    const uint32_t n = uint8_t(rseq - FirstUnackedTseq() + 1);
    if (n == 0 || n > waiting)
    {
        return; // nothing new, or a stale value from before a reset
    }
    const std::size_t acked = m_ackedAhead + n;
    std::size_t leave = acked;
    if (m_txBusy && KeepsAcknowledgedUntilSent())
    {
        // The peer took this run ahead and acknowledges micropackets still to leave: they
        // stay until their slot, so that credits freed meanwhile still ride on them, as
        // micropacket by micropacket on the next ones to leave.
        leave = std::min(acked, m_retx.FirstLeavingAfter(gsn::Now()));
    }
    DropOldestSent(leave);
    m_ackedAhead = acked - leave;
    if (m_retx.empty() && m_rtxTimer.pending && m_removeIsSafe)
    {
        // All acknowledged: the timer has nothing to guard. Removed rather than cancelled,
        // so that it costs no event (a window-limited link would wake once per window).
        Simulator::Remove(m_rtxTimer.event);
        m_rtxTimer.Clear();
    }
    m_timeoutsWithoutProgress = 0;
    // The oldest micropacket still waiting may have left after now, in a run chosen ahead.
    const Time t = at ? *at : gsn::Now();
    const Time from = m_retx.size() == m_ackedAhead ? t
                      : m_ackedAhead == 0           ? std::max(t, m_retx.FrontSlot())
                                                    : std::max(t, m_retx.SlotOf(m_ackedAhead));
    m_rtxDeadline = from + GetRetransmitTimeout();
    NotifyTxReady();
}

void
GsnPortDevice::TakeRseq(uint8_t rseq)
{
    if (TimesAcknowledgements() || m_timedTake)
    {
        TakeTimedRseq(rseq);
        return;
    }
    ProcessRseq(RseqInRun(rseq), nullptr);
}

void
GsnPortDevice::TakeTimedRseq(uint8_t rseq)
{
    // (Without the credit limit, credits ride on the run's micropackets that wait in the
    // retransmission buffer: what the RSEQ acknowledges must stay there until its arrival,
    // ApplyArrivedAcks(), so it is kept below.)
    if (m_timedTake && !CreditsRideOnRuns() && (m_retx.empty() || m_rtxDeadline > m_rxArrival))
    {
        // TakeAhead, and the go-back-N timer cannot expire before the arrival: the RSEQ counts
        // now with its arrival time, as it would then (this port is busy until after it), and
        // what it acknowledges leaves the retransmission buffer now rather than when the run
        // ends (the buffers would hold about 6 KiB per endpoint more on a large fabric).
        ProcessRseq(rseq, &m_rxArrival);
        return;
    }
    if (m_rxAhead)
    {
        // A micropacket of a run taken ahead of its arrival: it acknowledges from then. While
        // the run is being sent its RSEQs may still be amended: the entry refers to it, and
        // reads the RSEQ there when it is applied. After that, the same RSEQ again changes
        // nothing.
        const bool live = m_rxRun && !m_rxRun->finished; // (TakeAhead: no run)
        const GsnMicropacketRun* run = live ? m_rxRun : nullptr;
        const uint8_t value = live ? rseq : RseqInRun(rseq);
        if (!live && !m_laterAcks.empty() && !m_laterAcks.back().run &&
            m_laterAcks.back().rseq == value)
        {
            return;
        }
        LaterAck& a = m_laterAcks.push_back_slot();
        a.at = m_rxArrival;
        a.run = run;
        a.index = m_rxIndex;
        a.rseq = value;
        if (live && PeekPointer(m_laterAckRun) != m_rxRun)
        {
            m_laterAckRun = m_rxRun; // kept until it has left
            m_rxRun->heldByReceiver = true;
        }
        return;
    }
    ApplyDueCredits(m_rxArrival); // the earlier ones first (it arrives now)
    ProcessRseq(RseqInRun(rseq), &m_rxArrival);
}

bool
GsnPortDevice::GatherPeerRseqs(PeerRseqs& gather) const
{
    GsnPortDevice* peer = m_channel ? m_channel->PeerOf(this) : nullptr;
    if (!peer || !peer->m_txBusy)
    {
        return false; // (the first RSEQ might start its transmitter)
    }
    peer->ApplyArrivedAcks();
    gather.peer = peer;
    gather.waiting = peer->m_retx.size() - peer->m_ackedAhead;
    gather.front = gather.waiting > 0 ? peer->FirstUnackedTseq() : 0;
    return true;
}

void
GsnPortDevice::ApplyPeerRseqs(const PeerRseqs& gather)
{
    if (gather.any)
    {
        const Time at = gather.run->ArrivalOf(gather.k);
        gather.peer->ProcessRseq(gather.rseq, &at);
    }
}

bool
GsnPortDevice::AmendRunAcks(const Time& arrival)
{
    if (!m_txBusy || !m_txRun || arrival >= m_runEnd || !m_channel)
    {
        return false;
    }
    const std::size_t k = FirstSlotFrom(arrival);
    if (k >= m_txRun->Size())
    {
        return false;
    }
    const uint8_t rseq = uint8_t(m_expectedTseq - 1); // all accepted arrived by then
    m_txRun->AmendRseqFrom(k, rseq);
    m_laterArrivals.clear();
    m_rxUnacked = 0;
    m_ackDue = false;
    if (int64_t(k) <= m_txRun->ackApplied || (!ExactAcks() && k < m_txRun->next))
    {
        AmendPeerRseq(rseq, k);
    }
    return true;
}

void
GsnPortDevice::AmendPeerRseq(uint8_t rseq, std::size_t k)
{
    // The peer chose ahead past micropacket k of the run with the RSEQ as it was: it applies
    // the amended one now, with its own time (its next choice is after it).
    if (GsnPortDevice* peer = m_channel->PeerOf(this))
    {
        peer->ApplyArrivedAcks(); // (earlier RSEQs first)
        const Time at = m_txRun->ArrivalOf(k);
        peer->ProcessRseq(rseq, &at);
    }
}

Time
GsnPortDevice::NextAckDue() const
{
    if (m_rxUnacked == 0 && m_laterArrivals.empty())
    {
        return Time::Max();
    }
    if (NullDue())
    {
        return gsn::Now();
    }
    // As micropacket by micropacket: when AckThreshold are owed, or the oldest has waited
    // AckDelay.
    const Time oldest = m_rxUnacked > 0 ? m_oldestUnacked : m_laterArrivals.front();
    Time due = oldest + m_ackDelay;
    const std::size_t more = m_ackThreshold - std::min(m_rxUnacked, m_ackThreshold);
    if (more > 0 && m_laterArrivals.size() >= more)
    {
        due = std::min(due, m_laterArrivals[more - 1]);
    }
    return due;
}

void
GsnPortDevice::AckRunFinished(const GsnMicropacketRun* run)
{
    // Entries of the run are the last ones: give them their final RSEQs, and let the run go.
    for (std::size_t i = m_laterAcks.size(); i-- > 0;)
    {
        LaterAck& a = m_laterAcks[i];
        if (a.run != run)
        {
            break; // (older entries are final already)
        }
        a.rseq = a.Rseq();
        a.run = nullptr;
    }
    if (PeekPointer(m_laterAckRun) == run)
    {
        m_laterAckRun = nullptr;
    }
}

// ---------------------------------------------------------------------------------------
// Receiver

void
GsnPortDevice::ApplyErrorModel(GsnMicropacket& mp)
{
    if (!m_receiveErrorModel)
    {
        return;
    }
    uint8_t wire[gsn::MICROPACKET_BYTES];
    mp.SealLcrc(); // the bits the error model may hit, as on the wire
    mp.Serialize(wire);
    Ptr<Packet> p = Create<Packet>(wire, gsn::MICROPACKET_BYTES);
    if (m_receiveErrorModel->IsCorrupt(p))
    {
        // Flip one bit of the wire form; the LCRC check below then sees it.
        const uint32_t bit = m_corruptBit->GetInteger(0, gsn::MICROPACKET_BYTES * 8 - 1);
        wire[bit / 8] ^= uint8_t(1u << (bit % 8));
        mp = GsnMicropacket::Deserialize(wire);
    }
}

void
GsnPortDevice::DropMicropacket(const GsnMicropacket& mp, bool accepted)
{
    NS_LOG_LOGIC(this << " drop " << mp);
    if (m_rxRun && !accepted)
    {
        m_rxRun->rejected.push_back(m_rxIndex); // see TakeLateCredits
    }
    if (!m_micropacketDropTrace.IsEmpty())
    {
        GsnMicropacket seen = mp;
        if (seen.IsLcrcPending())
        {
            seen.SealLcrc();
        }
        m_micropacketDropTrace(seen);
    }
    if (!m_phyRxDropTrace.IsEmpty())
    {
        uint8_t wire[gsn::MICROPACKET_BYTES];
        mp.Serialize(wire);
        m_phyRxDropTrace(Create<Packet>(wire, gsn::MICROPACKET_BYTES));
    }
}

void
GsnPortDevice::ReceiveRun(Ptr<GsnMicropacketRun> run)
{
    const Time now = gsn::Now();
    m_arrivalTakenAt = now;
    const std::size_t size = run->Size();
    // What the micropackets make due (credits, acknowledgements) goes out together once
    // the run is taken, as one run the other way.
    m_selecting = true;
    // Acknowledgements kept from the peer's earlier runs are due by now: an idle port applies
    // them here rather than keep them until it sends.
    ApplyDueCredits(now);
    if (run->next == 0)
    {
        run->rxClears = m_clears;
    }
    const bool quick = CanTakeQuickly();
    int lastRseq = -1; // the RSEQ last applied by TakeQuickly, -1 if none since ReceiveAt
    GsnMicropacket scratch;
    while (run->next < size)
    {
        const std::size_t k = run->next;
        const Time arrival = run->ArrivalOf(k);
        GsnMicropacket& mp = run->Take(k, scratch);
        if (arrival > now && (mp.GetType() == GsnMicropacketType::HEADER || mp.tail))
        {
            // A Message starts or ends here: take it at its own time.
            Simulator::Schedule(arrival - now, &GsnPortDevice::ReceiveRun, this, run);
            break;
        }
        ++run->next;
        m_rxRun = PeekPointer(run);
        m_rxIndex = uint32_t(k);
        m_rxAhead = arrival > now;
        // (The run is not read again up to next: its micropackets are moved out.)
        if (quick && IsQuickToTake(mp))
        {
            TakeQuickly(std::move(mp), arrival, lastRseq);
            TakeSpanQuickly(*run, lastRseq);
        }
        else
        {
            ReceiveAt(std::move(mp), arrival);
            lastRseq = -1;
        }
    }
    m_rxRun = nullptr;
    m_selecting = false;
    if (run->next == size)
    {
        run->ReleaseMicropackets(); // all taken (their state is kept in the run's other fields)
    }
    TransmitNext();
}

bool
GsnPortDevice::CanTakeQuickly() const
{
    // Nothing may corrupt or watch the micropackets, and acknowledgements and credits are not
    // timed (TakeTimedRseq). None of this changes while a run is being taken. (Where an
    // acknowledgement owed rides on a run of this port, AcksRideOnRun(), each is amended
    // onto it in turn, as ReceiveAt would.)
    return ReceivesPlainly();
}

bool
GsnPortDevice::IsQuickToTake(const GsnMicropacket& mp) const
{
    // A Header or Data micropacket in sequence with a place free in its VC's buffer: accepted,
    // as ReceiveSequenced would find.
    return mp.IsMessage() && mp.IsLcrcPending() && m_rxGranted && mp.tseq == m_expectedTseq &&
           m_rxOccupancy[mp.vc] < m_rxBufferSize;
}

void
GsnPortDevice::TakeQuickly(GsnMicropacket&& mp, const Time& arrival, int& lastRseq)
{
    // The steps of ReceiveAt, ReceiveSequenced and NoteAckOwed that apply to a micropacket
    // that IsQuickToTake, in the same order, without their checks and dispatch.
    m_rxArrival = arrival;
    ++m_counters.rxMicropackets;
    // TakeRseq: the same RSEQ twice in a row changes nothing the second time.
    const uint8_t rseq = RseqInRun(mp.rseq);
    if (int(rseq) != lastRseq)
    {
        ProcessRseq(rseq, nullptr);
        lastRseq = rseq;
    }
    AcceptInSequence(mp);
    ++m_rxOccupancy[mp.vc];
    ReceiveMessageMicropacket(std::move(mp));
    if (AcksRideOnRun())
    {
        NoteAckOwed(true);
        return;
    }
    OweAck();
}

void
GsnPortDevice::TakeSpanQuickly(GsnMicropacketRun& run, int lastRseq)
{
    const std::size_t size = run.Size();
    const std::size_t a = run.next;
    if (a + 1 >= size)
    {
        return; // (a span of one saves nothing)
    }
    GsnMicropacket scratch;
    GsnMicropacket& first = run.Take(a, scratch);
    if (!first.FollowsInMessage(first, 0) || !TakesMessageSpan(first.vc))
    {
        return;
    }
    // The micropackets that TakeQuickly would take with nothing to do but count them:
    // accepted in sequence with room in their VC's buffer, no credits, an RSEQ already
    // applied; and that the buffer above can keep as one span: Data of one Message, one
    // slot apart.
    const uint8_t vc = first.vc;
    const std::size_t end = std::min(size, a + (m_rxBufferSize - m_rxOccupancy[vc]));
    // (Without amendments a micropacket's RSEQ is its own; without departures the run's
    // micropackets leave back to back.)
    const bool ownRseq = run.laterRseq.empty();
    const bool backToBack = run.departures.empty();
    // Credits on micropackets of the span count now, per VC, before the span goes up
    // (ProcessCredits: untimed, and the transmitter is choosing; nothing the upper part does
    // meanwhile reads this port's transmit credits). A CreditStall sink would see its calls
    // in another order: then a micropacket with credits ends the span, as before.
    const bool spanCredits = m_creditStallTrace.IsEmpty();
    uint32_t creditsOf[gsn::NUM_VCS] = {}; // on the span's micropackets, per VC
    std::size_t b = a;
    // Micropacket b - 1 (once b > a): stored in the run, or a copy in held[] of one that is
    // not; the copies alternate so that b's does not overwrite it.
    const GsnMicropacket* before = nullptr;
    GsnMicropacket held[2];
    std::size_t next = 0; // the held[] place for the next copy
    while (b < end)
    {
        const GsnMicropacketRun::Place place = run.Locate(b);
        const GsnMicropacket& stored = run.micropackets[place.stored];
        if (place.offset > 0 && ownRseq && b > a)
        {
            // Not stored: it and those after it that follow the same stored one pass if
            // the one before did (AppendFollowing() made them so), up to one with credits.
            const std::size_t credits = run.NextWithCredits(b);
            if (credits > b)
            {
                const std::size_t to = std::min({end, b + place.left + 1, credits});
                // (The last passed, to - 1, is not stored and carries no credits.)
                held[next] = stored.FollowingOnLink(place.offset + uint32_t(to - 1 - b));
                before = &held[next];
                next ^= 1;
                b = to;
                continue;
            }
        }
        const GsnMicropacket* mp = &stored;
        if (place.offset > 0)
        {
            held[next] = run.At(b);
            mp = &held[next];
            next ^= 1;
        }
        if ((mp->cr != 0 && (!spanCredits || mp->vcr >= gsn::NUM_VCS)) ||
            mp->tseq != uint8_t(m_expectedTseq + (b - a)) ||
            int(ownRseq ? mp->rseq : run.RseqOf(b, mp->rseq)) != lastRseq ||
            (b > a && (!mp->FollowsInMessage(*before, 1) ||
                       (!backToBack &&
                        run.departures[b] != run.departures[b - 1] + gsn::MICROPACKET_TIME_NS))))
        {
            break;
        }
        creditsOf[mp->vcr] += mp->cr;
        before = mp;
        ++b;
    }
    const uint32_t n = uint32_t(b - a);
    if (n < 2)
    {
        return;
    }
    NS_ASSERT(m_selecting); // (ProcessCredits would notify the transmitter: nothing to do)
    for (uint8_t v = 0; v < gsn::NUM_VCS; ++v)
    {
        if (creditsOf[v] > 0)
        {
            CountCredits(v, creditsOf[v], gsn::Now());
        }
    }
    m_rxRun = &run;
    m_rxIndex = uint32_t(a);
    m_rxArrival = run.ArrivalOf(a);
    m_rxOccupancy[vc] += n; // (before: the upper part may free the places at once)
    ReceiveMessageSpan(std::move(run.Take(a, scratch)), n);
    // The rest of what TakeQuickly does for each, at once.
    run.next = b;
    m_rxIndex = uint32_t(b - 1);
    m_rxArrival = run.ArrivalOf(b - 1);
    m_rxAhead = m_rxArrival > gsn::Now();
    m_counters.rxMicropackets += n;
    m_counters.rxAccepted += n;
    if (AcksRideOnRun())
    {
        NoteSpanAcksOwed(run, a, n);
        return;
    }
    m_expectedTseq = uint8_t(m_expectedTseq + n);
    // OweAck n times (while a run is taken, the transmitter waits for its end).
    if (m_rxUnacked == 0)
    {
        m_oldestUnacked = gsn::Now();
    }
    m_rxUnacked += n;
    if (m_rxUnacked >= m_ackThreshold)
    {
        m_ackDue = true;
        NotifyTxReady();
    }
}

void
GsnPortDevice::NoteSpanAcksOwed(const GsnMicropacketRun& run, std::size_t a, uint32_t n)
{
    // NoteAckOwed for each in turn, with its arrival and TSEQ: amended onto this port's run
    // from the slot after it (or owed, arriving after the run). The RSEQs the peer applies
    // at once (it has taken this port's run past them) are gathered if they can be.
    PeerRseqs gathered;
    PeerRseqs* const gather = GatherPeerRseqs(gathered) ? &gathered : nullptr;
    const uint8_t first = m_expectedTseq;
    uint32_t i = 0;
    if (m_txRun && m_channel)
    {
        // AmendRunAcks for those arriving while the run is on the wire, in one loop: each
        // sets the RSEQ of the run's first slot from its arrival on (arrivals and slots
        // only grow).
        // (Times in time steps, as ArrivalOf() and GetNanoSeconds() find them, without a
        // Time per micropacket.)
        GsnMicropacketRun& mine = *m_txRun;
        const std::size_t size = mine.Size();
        const std::size_t takenAhead = mine.TakenByReceiver();
        // (The peer's transmitter is busy while they are gathered, so it acts on none of them
        // meanwhile; otherwise it acts on each at once, and that might change anything.)
        static const int64_t stepsPerNs = NanoSeconds(1).GetTimeStep();
        const int64_t firstArrival = run.firstArrival.GetTimeStep();
        const int64_t runStart = m_runStart.GetTimeStep();
        const int64_t runEnd = m_runEnd.GetTimeStep();
        bool amended = false;
        if (gather && run.departures.empty() && mine.departures.empty() &&
            uint8_t(m_rseqSent - first) >= n)
        {
            // Both back to back, none acknowledged already: micropacket i arrives one slot
            // after i - 1 and so amends the slot after, with the next RSEQ (one row), up to
            // the end of the run.
            const int64_t slot = gsn::MICROPACKET_TIME_NS * stepsPerNs;
            const int64_t arrival = firstArrival + int64_t(a) * slot;
            const int64_t ns = (arrival - runStart) / stepsPerNs - 1;
            const std::size_t k = mine.LeftBy(ns);
            if (ns >= 0 && arrival < runEnd && k < size)
            {
                const uint32_t row = uint32_t(std::min<int64_t>(
                    {int64_t(n), (runEnd - arrival + slot - 1) / slot, int64_t(size - k)}));
                mine.AmendRseqRow(k, first, row);
                amended = true;
                for (uint32_t j = 0; j < row && k + j < takenAhead; ++j)
                {
                    gather->Add(uint8_t(first + j), &mine, k + j);
                }
                i = row; // (the next arrives after the run, or is beyond it: the loop ends)
            }
        }
        for (; i < n; ++i)
        {
            const int64_t arrival = firstArrival + run.DepartureOf(a + i) * stepsPerNs;
            const uint8_t rseq = uint8_t(first + i); // all accepted arrived by then
            if (m_rseqSent == rseq)
            {
                continue; // acknowledged already
            }
            if (arrival >= runEnd)
            {
                break;
            }
            const std::size_t k = mine.LeftBy((arrival - runStart) / stepsPerNs - 1);
            if (k >= size)
            {
                break;
            }
            mine.AmendRseqFrom(k, rseq);
            amended = true;
            if (gather)
            {
                if (k < takenAhead)
                {
                    gather->Add(rseq, &mine, k);
                }
            }
            else if (k < mine.TakenByReceiver())
            {
                // (Read each time: the peer acts on each RSEQ at once.)
                AmendPeerRseq(rseq, k);
            }
        }
        if (amended)
        {
            m_laterArrivals.clear();
            m_rxUnacked = 0;
            m_ackDue = false;
        }
    }
    // The rest arrive after the run (or there is none): OweAck for each, the transmitter
    // busy (nothing is timed: not taken ahead, no ExactAcks).
    NS_ASSERT(m_txBusy && !m_timedTake && !ExactAcks());
    uint32_t owed = 0;
    for (; i < n; ++i)
    {
        owed += m_rseqSent != uint8_t(first + i);
    }
    if (owed > 0)
    {
        if (m_rxUnacked == 0)
        {
            m_oldestUnacked = gsn::Now();
        }
        m_rxUnacked += owed;
        m_ackDue = m_ackDue || m_rxUnacked >= m_ackThreshold;
    }
    m_expectedTseq = uint8_t(first + n);
    m_rxIndex = uint32_t(a + n - 1);
    m_rxArrival = run.ArrivalOf(a + n - 1);
    ApplyPeerRseqs(gathered);
}

bool
GsnPortDevice::TakesMessageSpan(uint8_t /* vc */) const
{
    return false;
}

void
GsnPortDevice::ReceiveMessageSpan(GsnMicropacket&& /* first */, uint32_t /* n */)
{
    NS_FATAL_ERROR("ReceiveMessageSpan without TakesMessageSpan");
}

void
GsnPortDevice::Receive(GsnMicropacket mp)
{
    m_arrivalTakenAt = gsn::Now();
    ApplyTakenAhead(); // the peer's earlier micropackets come first
    m_rxAhead = false;
    ReceiveAt(mp, gsn::Now());
}

void
GsnPortDevice::ReceiveAt(GsnMicropacket mp, const Time& arrival)
{
    m_rxArrival = arrival;
    ApplyErrorModel(mp);
    if (!mp.LcrcIsGood())
    {
        ++m_counters.lcrcErrors;
        DropMicropacket(mp);
        return;
    }
    ++m_counters.rxMicropackets;
    if (!m_micropacketRxTrace.IsEmpty())
    {
        mp.SealLcrc();
        m_micropacketRxTrace(mp);
    }
    switch (mp.GetType())
    {
    case GsnMicropacketType::RESET:
    case GsnMicropacketType::RESET_ACK:
    case GsnMicropacketType::INITIALIZE:
    case GsnMicropacketType::INITIALIZE_ACK:
        ReceiveControl(mp);
        return;
    case GsnMicropacketType::NULL_MP:
        TakeRseq(mp.rseq);
        return;
    case GsnMicropacketType::HEADER:
    case GsnMicropacketType::DATA:
    case GsnMicropacketType::CREDIT_ONLY:
    case GsnMicropacketType::ADMIN:
        ReceiveSequenced(mp);
        return;
    }
    ++m_counters.reservedType;
    DropMicropacket(mp);
}

void
GsnPortDevice::AcceptInSequence(const GsnMicropacket& mp)
{
    ++m_expectedTseq;
    ++m_counters.rxAccepted;
    if (mp.cr > 0)
    {
        ProcessCredits(mp.vcr, mp.cr);
    }
}

void
GsnPortDevice::ReceiveSequenced(GsnMicropacket& mp)
{
    TakeRseq(mp.rseq);
    if (!m_rxGranted)
    {
        ++m_counters.notInitialized;
        DropMicropacket(mp);
        return;
    }
    if (mp.tseq != m_expectedTseq)
    {
        ++m_counters.outOfSequence;
        DropMicropacket(mp);
        if (uint8_t(m_expectedTseq - 1 - mp.tseq) < 128)
        {
            // A copy of one accepted already: the sender has not heard the acknowledgement
            // (it was lost, and this port, idle, sent no other). Acknowledge again, as a link
            // that fills idle slots with Nulls would; otherwise the sender times out until it
            // resets the link. (Later than expected: one was lost, the sender's timer acts.)
            NoteAckOwed(false);
        }
        return;
    }
    AcceptInSequence(mp);
    switch (mp.GetType())
    {
    case GsnMicropacketType::HEADER:
    case GsnMicropacketType::DATA:
        if (m_rxOccupancy[mp.vc] >= m_rxBufferSize &&
            m_rxOccupancy[mp.vc] - m_laterReleases.SumDue(mp.vc, m_rxArrival) >= m_rxBufferSize)
        {
            // The sender broke the credit rule; count it rather than overrun the buffer.
            ++m_counters.rxBufferOverflow;
            NS_LOG_ERROR(this << " VC " << unsigned(mp.vc) << " receive buffer overflow");
            DropMicropacket(mp, true);
            break;
        }
        ++m_rxOccupancy[mp.vc];
        ReceiveMessageMicropacket(std::move(mp)); // (not read below)
        break;
    case GsnMicropacketType::ADMIN:
        ReceiveAdminMicropacket(mp);
        break;
    default:
        break; // Credit-only: its credits were taken above
    }
    // Last, so that credits the upper part just freed ride on the same acknowledgement.
    NoteAckOwed(true);
}

Time
GsnPortDevice::NextMessageMicropacketTime(uint8_t vc) const
{
    return Time::Max();
}

void
GsnPortDevice::ReceiveAdminMicropacket(const GsnMicropacket& mp)
{
    NS_LOG_LOGIC(this << " Admin micropacket ignored by this port");
}

void
GsnPortDevice::ProcessCredits(uint8_t vc, uint8_t credits)
{
    if ((m_exactCredits || m_timedTake) && m_rxAhead)
    {
        // A micropacket of a run taken ahead of its arrival: its credits exist from then.
        m_laterCredits.Add(m_rxArrival, vc, credits);
        return;
    }
    CountCredits(vc, credits, gsn::Now());
    NotifyTxReady();
}

void
GsnPortDevice::CountCredits(uint8_t vc, uint32_t n, const Time& at)
{
    m_txCredits[vc] += int32_t(n);
    if (m_stalled[vc])
    {
        m_stalled[vc] = false;
        const Time waited = std::max(Time(0), at - m_stallStart[vc]);
        m_counters.creditStallTime[vc] += waited;
        m_creditStallTrace(vc, waited);
    }
}

void
GsnPortDevice::NoteAckOwed(bool accepted)
{
    if (accepted && m_rseqSent == uint8_t(m_expectedTseq - 1))
    {
        // Acknowledged already: the upper part, taking it, freed credits that went out at once
        // with its RSEQ.
        return;
    }
    if (AcksRideOnRun() && AmendRunAcks(m_rxArrival))
    {
        return; // rides on the run under way, from the slot after its arrival
    }
    // With timed acknowledgements, during a run of this port the acknowledgement rides on the
    // run's next slot; otherwise it is owed from the micropacket's arrival (so is that of a
    // micropacket taken ahead, TakeAhead).
    if (ExactAcks() && AmendRunAcks(m_rxArrival))
    {
        return;
    }
    // (A slot's RSEQ leaves out one accepted TSEQ per later arrival kept here, so a copy,
    // which adds no TSEQ, is owed from now instead.)
    if ((ExactAcks() || m_timedTake) && m_rxAhead && accepted)
    {
        m_laterArrivals.push_back(m_rxArrival);
        if (!m_txBusy && !m_selecting)
        {
            ArmIdleTimers();
        }
        return;
    }
    OweAck();
}

void
GsnPortDevice::OweAck()
{
    if (m_rxUnacked++ == 0)
    {
        m_oldestUnacked = gsn::Now();
    }
    if (m_rxUnacked >= m_ackThreshold)
    {
        m_ackDue = true;
        NotifyTxReady();
    }
    else if (!m_txBusy && !m_selecting)
    {
        ArmIdleTimers();
    }
}

void
GsnPortDevice::Arm(PortTimer& timer, const Time& delay, void (GsnPortDevice::*handler)())
{
    timer.event = gsn::SchedulePortCall(delay, this, handler);
    timer.pending = true;
}

void
GsnPortDevice::ArmIdleTimers()
{
    // While the transmitter is busy, the micropacket it sends next carries the RSEQ and the
    // owed credits; the timers are needed only once it has nothing to send.
    const Time now = gsn::Now();
    // A timer whose work is already due (waiting for the link to come up) is not needed.
    // (With micropackets taken ahead still arriving, the due-credits timer wakes for both.)
    if (m_rxUnacked > 0 && !m_ackDue && !m_ackTimer.pending && m_laterArrivals.empty())
    {
        const Time due = std::max(now, m_oldestUnacked + m_ackDelay);
        Arm(m_ackTimer, due - now, &GsnPortDevice::AckTimeout);
    }
    if (!m_creditDue && m_owedTotal > 0 && !m_creditTimer.pending)
    {
        const Time due = std::max(now, m_oldestOwed + m_ackDelay);
        Arm(m_creditTimer, due - now, &GsnPortDevice::CreditTimeout);
    }
    if (m_state == LinkState::UP && !m_retx.empty() && !m_rtxTimer.pending)
    {
        const Time due = std::max(now, m_rtxDeadline);
        Arm(m_rtxTimer, due - now, &GsnPortDevice::RetransmitTimeout);
    }
    ArmDueCreditsTimer(); // (nothing to do unless something is kept for later)
}

void
GsnPortDevice::AckTimeout()
{
    const TimerEventCount counted(m_counters);
    m_ackTimer.Clear();
    ApplyTakenAhead(); // arrivals taken ahead owe acknowledgements too
    if (m_rxUnacked == 0)
    {
        return;
    }
    // The timer is lazy: it acts only if the oldest unacknowledged micropacket has waited
    // AckDelay; under steady traffic the threshold or piggy-backing acknowledges first.
    const Time due = m_oldestUnacked + m_ackDelay;
    if (gsn::Now() < due)
    {
        Arm(m_ackTimer, due - gsn::Now(), &GsnPortDevice::AckTimeout);
        return;
    }
    m_ackDue = true;
    NotifyTxReady();
}

void
GsnPortDevice::ReleaseRxBuffer(uint8_t vc, uint32_t n, const Time& at)
{
    if (m_exactCredits && at > gsn::Now())
    {
        // Freed in a later slot of a run chosen ahead: the credits exist from then. Those
        // that ride on this port's run under way from then are sent now (their places count
        // as free now, as those whose credits a run chosen ahead carries: a peer that does
        // not time credits counts them when it takes the run).
        const uint32_t put = PutLaterCreditsOnRun(vc, n, at);
        NS_ASSERT(m_rxOccupancy[vc] >= put);
        m_rxOccupancy[vc] -= put;
        n -= put;
        if (n == 0)
        {
            return;
        }
        m_laterReleases.Add(at, vc, n);
        // An idle transmitter must wake for them; a wake-up already due by then stays (a
        // later entry cannot bring it forward).
        const bool wakeCovers =
            m_dueCreditsTimer.pending && Time(m_dueCreditsTimer.event.GetTs()) <= at;
        if (!m_txBusy && !m_selecting && !wakeCovers)
        {
            ArmDueCreditsTimer();
        }
        return;
    }
    // (Here at is now, except in a run mode without ExactCredits, which counts places
    // freed in a later slot at once.)
    if (m_txBusy && m_runEnd == at && at == gsn::Now())
    {
        // Freed as this port's next slot begins: the micropacket of that slot is chosen as
        // if before (micropacket by micropacket the order of the two events would decide),
        // so the credits ride from the slot after it (ApplyDueCredits(), ApplyReleasesAtSlot()).
        m_laterReleases.Add(m_runEnd, vc, n);
        return;
    }
    if (!m_laterReleases.empty())
    {
        ApplyDueReleases(gsn::Now(), false); // places freed earlier count first
    }
    if (m_owedTotal == 0)
    {
        m_oldestOwed = gsn::Now();
    }
    FreeRxPlaces(vc, n);
    if (m_txBusy && CreditsRideOnRuns())
    {
        PutOwedCreditsOnRun();
    }
    if (MakeCreditOnlyDue(m_owedCredits[vc]))
    {
        NotifyTxReady();
    }
    else if (!m_txBusy && !m_selecting && !m_heldChoiceTimer.pending)
    {
        ArmIdleTimers(); // (a held choice arms them if it sends nothing)
    }
}

void
GsnPortDevice::ReleaseRxBufferSpan(uint8_t vc, uint32_t n, const Time& first)
{
    const Time slot = gsn::MicropacketTime();
    const Time last = first + slot * int64_t(n - 1);
    if (ReleasesQuietly(first, last) || ReleasesIdleQuietly(vc, n) || ReleasesWhileHeld())
    {
        ReleaseRxBuffer(vc, n, first);
        return;
    }
    const Time now = gsn::Now();
    if (!m_exactCredits && m_txBusy && CreditsRideOnRuns() &&
        !(m_runEnd == now && first <= now && now <= last))
    {
        ReleaseSpanRidingOnRun(vc, n);
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        ReleaseRxBuffer(vc, 1, first + slot * int64_t(i));
    }
}

void
GsnPortDevice::ReleaseSpanRidingOnRun(uint8_t vc, uint32_t n)
{
    // ReleaseRxBuffer() for each place in turn, here: each counts now (no ExactCredits), none
    // is kept for the next slot, and the credits owed after each go on the run's next
    // micropacket without credits. Once the run has none left, the rest only count: the
    // Credit-only they may make due waits for the busy transmitter, as it would.
    const Time now = gsn::Now();
    if (!m_laterReleases.empty())
    {
        ApplyDueReleases(now, false); // places freed earlier count first
    }
    uint32_t freed = 0;
    if (CanPutCreditsOnRun(now))
    {
        std::size_t cursor = PUT_CURSOR_UNKNOWN;
        while (freed < n && cursor != m_retx.size())
        {
            if (m_owedTotal == 0 && cursor < m_ackedAhead)
            {
                freed += PutSpanOnAcknowledged(vc, n - freed, cursor);
                continue;
            }
            if (m_owedTotal == 0)
            {
                m_oldestOwed = now;
            }
            FreeRxPlaces(vc, 1);
            PutOwedCreditsOnRun(&cursor);
            ++freed;
        }
    }
    if (freed < n)
    {
        if (m_owedTotal == 0)
        {
            m_oldestOwed = now;
        }
        FreeRxPlaces(vc, n - freed);
    }
}

uint32_t
GsnPortDevice::PutSpanOnAcknowledged(uint8_t vc, uint32_t n, std::size_t& cursor)
{
    // As n times FreeRxPlaces(vc, 1) and PutOwedCreditsOnRun(&cursor) with nothing else owed:
    // each place's credit goes alone on the next rider, here one acknowledged already (only
    // the peer needs it), a stretch of those that follow one another at a time.
    uint32_t put = 0;
    while (put < n && cursor < m_ackedAhead)
    {
        const GsnRetransmitBuffer::Stretch s = m_retx.RidersFrom(cursor);
        const uint32_t m = uint32_t(std::min<std::size_t>({n - put, s.n, m_ackedAhead - cursor}));
        NS_ASSERT(m > 0 && m_rxOccupancy[vc] >= m);
        m_rxOccupancy[vc] -= m;
        // (Micropackets that follow one another in the buffer do so in the run.)
        SendCreditsOnRun(s.slot, uint8_t(m_retx.FrontTseq() + cursor), vc, 1, m);
        put += m;
        m_ackedCreditsUpTo = cursor + m;
        cursor = NextRiderFrom(cursor + m);
    }
    m_oldestOwed = gsn::Now();
    m_creditDue = false; // (nothing owed)
    return put;
}

bool
GsnPortDevice::ReleasesQuietly(const Time& first, const Time& last) const
{
    // What ReleaseRxBuffer() does besides counting: keep timed places for later
    // (ExactCredits, later than now), put credits on a run under way, keep a place freed as
    // the next slot begins for the slot after it, start a transmission or timers (only
    // where the transmitter is neither busy nor choosing).
    if (!(m_txBusy || m_selecting) || (m_txBusy && CreditsRideOnRuns()))
    {
        return false;
    }
    // (The time is asked only where it matters: it is asked at every run taken ahead.)
    const bool endWithin = m_txBusy && first <= m_runEnd && m_runEnd <= last;
    if (!m_exactCredits && !endWithin)
    {
        return true;
    }
    const Time now = gsn::Now();
    return !(m_exactCredits && last > now) && !(endWithin && m_runEnd == now);
}

uint32_t
GsnPortDevice::QuietReleases(uint8_t vc, const Time& from) const
{
    if (ReleasesQuietly(from, from))
    {
        return UINT32_MAX;
    }
    if (m_txBusy && CreditsRideOnRuns())
    {
        // Busy, credits riding on its run (ExactCredits, or no credit limit):
        // ReleaseRxBufferSpan() frees the places one by one, each putting its credit on the
        // run as alone; none starts a transmission or a timer, so the switch may take them
        // all at once.
        return UINT32_MAX;
    }
    if (ReleasesWhileHeld())
    {
        return UINT32_MAX;
    }
    // Idle: as many as keep the credits owed below the threshold (the one reaching it
    // starts a Credit-only, after which the transmitter is busy).
    return ReleasesIdleQuietly(vc, 1) ? m_creditReturnThreshold - 1 - m_owedCredits[vc] : 0;
}

void
GsnPortDevice::ApplyDueReleases(const Time& t, bool slotFollows)
{
    while (slotFollows ? m_laterReleases.HasDueBefore(t) : m_laterReleases.HasDue(t))
    {
        const GsnTimedCredits::Entry e = m_laterReleases.front();
        m_laterReleases.pop_front();
        if (m_owedTotal == 0)
        {
            m_oldestOwed = e.at;
        }
        FreeRxPlaces(e.vc, e.n);
    }
}

void
GsnPortDevice::ApplyDueCreditsNow(const Time& t, bool slotFollows)
{
    ApplyDueReleases(t, slotFollows);
    while (m_laterCredits.HasDue(t))
    {
        // (A row's counts due together count as one: the first ends a stall.)
        const GsnTimedCredits::Entry e = m_laterCredits.TakeDue(t);
        CountCredits(e.vc, e.n, e.at);
    }
    if (!m_laterAcks.empty() && m_laterAcks.front().at <= t)
    {
        ApplyDueAcks(t);
    }
    while (!m_laterArrivals.empty() && m_laterArrivals.front() <= t)
    {
        // As NoteAckOwed at the arrival.
        if (m_rxUnacked++ == 0)
        {
            m_oldestUnacked = m_laterArrivals.front();
        }
        m_ackDue = m_ackDue || m_rxUnacked >= m_ackThreshold;
        m_laterArrivals.pop_front();
    }
}

void
GsnPortDevice::ApplyArrivedAcks()
{
    // (One arriving at this very instant counts after the instant's other events: the rule
    // settles the tie of its arrival, which micropacket by micropacket is an event of its
    // own, whatever the order of the events.)
    if (!m_laterAcks.empty() && m_laterAcks.front().at < gsn::Now())
    {
        ApplyDueAcks(gsn::Now() - TimeStep(1));
    }
}

void
GsnPortDevice::ApplyDueAcks(const Time& t)
{
    // RSEQs only grow: applying the last one due, from when it first arrived, leaves the
    // state that applying each in turn would. Both found by bisection (the entries are in
    // time order, and the last RSEQ is carried by a suffix of them).
    std::size_t lo = 1;
    std::size_t hi = m_laterAcks.size();
    while (lo < hi) // the count of entries due by t
    {
        const std::size_t mid = (lo + hi) / 2;
        if (m_laterAcks[mid].at <= t)
        {
            lo = mid + 1;
        }
        else
        {
            hi = mid;
        }
    }
    const std::size_t due = lo;
    const uint8_t rseq = m_laterAcks[due - 1].Rseq();
    lo = 0;
    hi = due - 1;
    while (lo < hi) // the first of them carrying it
    {
        const std::size_t mid = (lo + hi) / 2;
        if (m_laterAcks[mid].Rseq() == rseq)
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    const Time from = m_laterAcks[lo].at;
    if (const GsnMicropacketRun* run = m_laterAcks[due - 1].run)
    {
        run->ackApplied = m_laterAcks[due - 1].index;
    }
    m_laterAcks.pop_front(due);
    ProcessRseq(rseq, &from);
}

bool
GsnPortDevice::ApplyReleasesAtSlot(const Time& t)
{
    if (!m_laterReleases.HasDue(t))
    {
        return false;
    }
    // (Those freed before t count already: what is due by t was freed at t.)
    bool creditOnly = false;
    for (uint8_t vc = 0; vc < gsn::NUM_VCS && !creditOnly; ++vc)
    {
        const uint32_t freed = m_laterReleases.SumDue(vc, t);
        creditOnly = freed > 0 && MakeCreditOnlyDue(m_owedCredits[vc] + freed);
    }
    if (creditOnly)
    {
        ApplyDueReleases(t, false);
    }
    return creditOnly;
}

bool
GsnPortDevice::CanPutCreditsOnRun(const Time& from) const
{
    return CreditsRideOnRuns() && m_txRun && from < m_runEnd && m_state == LinkState::UP &&
           m_channel && m_channel->PeerOf(this);
}

void
GsnPortDevice::SendCreditsOnRun(const Time& slot,
                                uint8_t tseq,
                                uint8_t vc,
                                uint8_t cr,
                                uint32_t count)
{
    // (The buffer's copies, which a retransmission would send, carry them already, or are
    // acknowledged.)
    GsnMicropacketRun& run = *m_txRun;
    const std::size_t k = run.LeftBy((slot - m_runStart).GetNanoSeconds()) - 1;
    NS_ASSERT(k + count <= run.Size());
    // Those the peer has taken (the first ones) count from their arrival there; the others
    // it reads from the micropackets when it takes them.
    const uint32_t taken = k < run.next ? uint32_t(std::min<std::size_t>(count, run.next - k)) : 0;
    if (taken > 0)
    {
        m_channel->PeerOf(this)->TakeLateCredits(run, k, vc, cr, taken);
    }
    for (uint32_t j = taken; j < count; ++j)
    {
        NS_ASSERT(run.At(k + j).tseq == uint8_t(tseq + j));
        // (Its LCRC is pending: computed over the credits too.)
        run.SetCredits(k + j, vc, cr);
    }
}

void
GsnPortDevice::PutOwedCreditsOnRun(std::size_t* cursor)
{
    const Time now = gsn::Now();
    if (m_owedTotal == 0 || !CanPutCreditsOnRun(now))
    {
        return;
    }
    if (!cursor || *cursor == PUT_CURSOR_UNKNOWN)
    {
        ApplyArrivedAcks(); // (what they acknowledge carries no more credits)
    }
    // Micropacket by micropacket they would ride on the next sequenced micropackets.
    // (One VC's credits per micropacket: those that carry some already are passed over. The
    // run's sequenced micropackets are the last ones in the buffer, in slot order.)
    std::size_t i = cursor && *cursor != PUT_CURSOR_UNKNOWN
                        ? *cursor
                        : NextRiderFrom(m_retx.FirstLeavingAfter(now));
    for (; i < m_retx.size() && m_owedTotal > 0; i = NextRiderFrom(i + 1))
    {
        if (i < m_ackedAhead)
        {
            // Acknowledged already, never resent: only the peer needs the credits.
            GsnMicropacket u;
            PiggybackCredits(u);
            SendCreditsOnRun(m_retx.SlotOf(i), uint8_t(m_retx.FrontTseq() + i), u.vcr, u.cr);
            m_ackedCreditsUpTo = i + 1;
            continue;
        }
        GsnMicropacket& u = m_retx.Store(i);
        PiggybackCredits(u);
        SendCreditsOnRun(m_retx.SlotOf(i), u.tseq, u.vcr, u.cr);
    }
    if (cursor)
    {
        *cursor = i; // (the next of a span's places goes on here)
    }
}

uint32_t
GsnPortDevice::PutLaterCreditsOnRun(uint8_t vc, uint32_t n, const Time& at)
{
    if (!CanPutCreditsOnRun(at))
    {
        return 0;
    }
    uint32_t put = 0;
    for (std::size_t i = m_retx.FirstWithoutCredits(m_retx.FirstLeavingAfter(at));
         i < m_retx.size() && put < n;
         i = m_retx.FirstWithoutCredits(i + 1))
    {
        GsnMicropacket& u = m_retx.Store(i);
        u.vcr = vc;
        u.cr = uint8_t(std::min(n - put, gsn::MAX_CREDITS_PER_MICROPACKET));
        put += u.cr;
        SendCreditsOnRun(m_retx.SlotOf(i), u.tseq, u.vcr, u.cr);
    }
    return put;
}

void
GsnPortDevice::TakeLateCredits(const GsnMicropacketRun& run,
                               std::size_t k,
                               uint8_t vc,
                               uint8_t n,
                               uint32_t count)
{
    if (run.rxClears != m_clears)
    {
        return; // taken before a reset: void
    }
    const Time slot = gsn::MicropacketTime();
    if (run.departures.empty() && run.rejected.empty() && m_lateCreditsRxTrace.IsEmpty())
    {
        // Back to back, all accepted: one slot apart (mostly the next slots after the last
        // ones taken: the row grows).
        m_laterCredits.AddRow(run.ArrivalOf(k), slot, vc, n, count);
    }
    else
    {
        for (std::size_t j = k; j < k + count; ++j)
        {
            if (run.WasAccepted(j)) // (dropped: its retransmission carries them)
            {
                m_lateCreditsRxTrace(vc, n);
                m_laterCredits.AddRow(run.ArrivalOf(j), slot, vc, n, 1);
            }
        }
    }
    if (!m_txBusy && !m_selecting)
    {
        ArmDueCreditsTimer(); // a VC out of credit goes on when they arrive
    }
}

void
GsnPortDevice::ArmDueCreditsTimer()
{
    // When the transmitter, idle now, would act on what is kept for later: send the
    // credits of freed places (the threshold is reached, or the first waited AckDelay),
    // or go on with a VC that is out of credit when credits for it arrive.
    Time wake = Time::Max();
    if (!m_laterReleases.empty())
    {
        const Time first = m_laterReleases.front().at;
        wake = m_creditDue
                   ? first
                   : std::min(m_laterReleases.FirstReaching(m_owedCredits, m_creditReturnThreshold),
                              (m_owedTotal > 0 ? m_oldestOwed : first) + m_ackDelay);
    }
    if (!m_laterCredits.empty() &&
        std::find(m_stalled.begin(), m_stalled.end(), true) != m_stalled.end())
    {
        wake = std::min(wake, m_laterCredits.front().at);
    }
    // A Null for what arrives, and acknowledgements that open a full retransmission window.
    if (!m_laterArrivals.empty())
    {
        wake = std::min(wake, NextAckDue());
    }
    if (!m_laterAcks.empty() && m_retx.size() >= m_retransmitWindow)
    {
        wake = std::min(wake, m_laterAcks.front().at);
    }
    if (wake == Time::Max())
    {
        return;
    }
    const Time now = gsn::Now();
    wake = std::max(wake, now);
    if (m_dueCreditsTimer.pending)
    {
        if (Time(m_dueCreditsTimer.event.GetTs()) <= wake)
        {
            return;
        }
        m_dueCreditsTimer.event.Cancel();
    }
    Arm(m_dueCreditsTimer, wake - now, &GsnPortDevice::DueCreditsTimeout);
}

void
GsnPortDevice::DueCreditsTimeout()
{
    const TimerEventCount counted(m_counters);
    m_dueCreditsTimer.Clear();
    ApplyDueCredits(gsn::Now());
    if (m_owedTotal > 0 && m_oldestOwed + m_ackDelay <= gsn::Now())
    {
        m_creditDue = true; // as CreditTimeout would
    }
    if (m_rxUnacked > 0 && m_oldestUnacked + m_ackDelay <= gsn::Now())
    {
        m_ackDue = true; // as AckTimeout would
    }
    NotifyTxReady(); // if nothing goes, TransmitNext arms the timers for the next
}

void
GsnPortDevice::CreditTimeout()
{
    const TimerEventCount counted(m_counters);
    m_creditTimer.Clear();
    if (m_owedTotal == 0)
    {
        return;
    }
    // Lazy like AckTimeout: only credits owed for AckDelay force a Credit-only.
    const Time due = m_oldestOwed + m_ackDelay;
    if (gsn::Now() < due)
    {
        Arm(m_creditTimer, due - gsn::Now(), &GsnPortDevice::CreditTimeout);
        return;
    }
    m_creditDue = true;
    NotifyTxReady();
}

// ---------------------------------------------------------------------------------------
// Bring-up: Reset/Reset_Ack then Initialize/Initialize_Ack, each side for both directions.

void
GsnPortDevice::ClearLinkState()
{
    ++m_clears;
    if (m_state == LinkState::UP)
    {
        TakeResetSnapshot(); // the first clearing of a reset
    }
    m_txCredits.fill(0);
    m_stalled.fill(false);
    m_retx.clear();
    m_ackedAhead = 0;
    m_ackedCreditsUpTo = 0;
    m_resendIndex = 0;
    m_nextTseq = 0;
    m_timeoutsWithoutProgress = 0;
    m_expectedTseq = 0;
    m_rseqSent = 0xFF; // (nothing accepted)
    m_rxUnacked = 0;
    m_ackDue = false;
    m_creditDue = false;
    m_rxGranted = false;
    m_rxOccupancy.fill(0);
    m_owedCredits.fill(0);
    m_owedTotal = 0;
    m_laterReleases.clear();
    m_laterCredits.clear();
    m_laterAcks.clear();
    m_laterAckRun = nullptr;
    m_laterArrivals.clear();
}

void
GsnPortDevice::TakeResetSnapshot()
{
    ReleaseAckedThatLeft(true); // (acknowledged: nothing to recover)
    ResetSnapshot& snap = m_resetSnapshot;
    snap.taken = true;
    snap.lastAccepted = uint8_t(m_expectedTseq - 1);
    snap.firstUnacked = m_retx.empty() ? m_nextTseq : m_retx.FrontTseq();
    snap.unacked = uint32_t(m_retx.size());
    snap.headers.clear();
    for (uint32_t i = 0; i < m_retx.size(); ++i)
    {
        const GsnMicropacket mp = m_retx.Get(i);
        if (mp.GetType() == GsnMicropacketType::HEADER)
        {
            snap.headers.emplace_back(i, mp, IsMessageBeingSent(mp));
        }
    }
    Ptr<GsnPortDevice> peer = m_channel ? m_channel->GetPeer(this) : nullptr;
    if (!peer || !peer->m_resetSnapshot.taken)
    {
        return; // the peer compares when it resets
    }
    CountLostInReset(*this, snap, peer->m_resetSnapshot.lastAccepted);
    CountLostInReset(*peer, peer->m_resetSnapshot, snap.lastAccepted);
    snap = ResetSnapshot();
    peer->m_resetSnapshot = ResetSnapshot();
}

void
GsnPortDevice::CountLostInReset(GsnPortDevice& sender,
                                const ResetSnapshot& sent,
                                uint8_t peerLastAccepted)
{
    // As an RSEQ: the peer accepted the oldest `accepted` of the unacknowledged ones.
    uint32_t accepted = uint8_t(peerLastAccepted - sent.firstUnacked + 1);
    if (accepted > sent.unacked)
    {
        accepted = 0; // it accepted none of them
    }
    for (const auto& [index, header, beingSent] : sent.headers)
    {
        if (index < accepted)
        {
            continue; // the receiver has the Message, or counts it cut
        }
        ++sender.m_counters.messagesLostInReset;
        if (!beingSent)
        {
            sender.NotifyMessageLostInReset(header);
        }
    }
}

bool
GsnPortDevice::IsMessageBeingSent(const GsnMicropacket& /* header */) const
{
    return false;
}

void
GsnPortDevice::NotifyMessageLostInReset(const GsnMicropacket& /* header */)
{
}

void
GsnPortDevice::ResetLink()
{
    NS_LOG_FUNCTION(this);
    ++m_counters.linkResets;
    BeginReset();
}

void
GsnPortDevice::BeginReset()
{
    ClearLinkState();
    NotifyLinkReset();
    SetLinkState(LinkState::RESET_SENT);
    SendControl(GsnMicropacketType::RESET);
    m_handshakeEvent.Cancel();
    m_handshakeEvent =
        Simulator::Schedule(GetRetransmitTimeout(), &GsnPortDevice::HandshakeTimeout, this);
}

void
GsnPortDevice::NotifyLinkReset()
{
}

void
GsnPortDevice::HandshakeTimeout()
{
    const TimerEventCount counted(m_counters);
    if (m_state == LinkState::RESET_SENT)
    {
        SendControl(GsnMicropacketType::RESET);
    }
    else if (m_state == LinkState::INIT_SENT)
    {
        SendControl(GsnMicropacketType::INITIALIZE);
    }
    else
    {
        return;
    }
    m_handshakeEvent =
        Simulator::Schedule(GetRetransmitTimeout(), &GsnPortDevice::HandshakeTimeout, this);
}

void
GsnPortDevice::ReceiveControl(const GsnMicropacket& mp)
{
    switch (mp.GetType())
    {
    case GsnMicropacketType::RESET: {
        const bool ours = m_state == LinkState::RESET_SENT;
        ClearLinkState();
        NotifyLinkReset();
        SendControl(GsnMicropacketType::RESET_ACK);
        if (!ours)
        {
            // The peer started the reset: go on to Initialize ourselves.
            SetLinkState(LinkState::INIT_SENT);
            SendControl(GsnMicropacketType::INITIALIZE);
            m_handshakeEvent.Cancel();
            m_handshakeEvent =
                Simulator::Schedule(GetRetransmitTimeout(), &GsnPortDevice::HandshakeTimeout, this);
        }
        return;
    }
    case GsnMicropacketType::RESET_ACK:
        if (m_state == LinkState::RESET_SENT)
        {
            ClearLinkState();
            SetLinkState(LinkState::INIT_SENT);
            SendControl(GsnMicropacketType::INITIALIZE);
        }
        return;
    case GsnMicropacketType::INITIALIZE:
        if (!m_rxGranted)
        {
            // Grant the whole free receive buffer of every VC, all of it at once (the
            // remainders below CreditReturnThreshold too).
            m_rxGranted = true;
            for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
            {
                m_owedTotal -= m_owedCredits[vc];
                m_owedCredits[vc] = m_rxBufferSize - m_rxOccupancy[vc];
                m_owedTotal += m_owedCredits[vc];
            }
            m_creditDue = true;
        }
        SendControl(GsnMicropacketType::INITIALIZE_ACK);
        return;
    case GsnMicropacketType::INITIALIZE_ACK:
        if (m_state == LinkState::INIT_SENT)
        {
            m_handshakeEvent.Cancel();
            SetLinkState(LinkState::UP);
            NotifyTxReady();
        }
        return;
    default:
        return;
    }
}

void
GsnPortDevice::SetLinkState(LinkState state)
{
    const bool wasUp = m_state == LinkState::UP;
    m_state = state;
    if (wasUp != (state == LinkState::UP))
    {
        m_linkChangeCallbacks();
        if (state == LinkState::UP)
        {
            // A reset snapshot not compared by now never will be (the peer was not up).
            m_resetSnapshot = ResetSnapshot();
            NotifyLinkUp();
        }
    }
}

void
GsnPortDevice::NotifyLinkUp()
{
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

uint32_t
GsnPortDevice::GetUnacknowledged() const
{
    uint32_t n = uint32_t(m_retx.size() - m_ackedAhead);
    // ExactCredits: less what acknowledgements that arrived by now, kept, take off.
    for (std::size_t i = m_laterAcks.size(); n > 0 && i-- > 0;)
    {
        if (m_laterAcks[i].at <= gsn::Now())
        {
            const uint32_t acked = uint8_t(m_laterAcks[i].Rseq() - FirstUnackedTseq() + 1);
            return acked <= n ? n - acked : n;
        }
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
