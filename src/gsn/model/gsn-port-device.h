/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnPortDevice: the link layer of one GSN port, shared by endpoints and switch ports. It
 * owns what HIPPI-6400-PH puts on one link: the four virtual channels' credit counters and
 * receive-buffer accounting, micropacket-by-micropacket interleaving of the VCs, piggy-backed
 * and Credit-only credit return, TSEQ/RSEQ go-back-N retransmission and the Reset/Initialize
 * bring-up. It does not know what a Message means: subclasses supply the micropackets to send
 * per VC and take the ones received. The parts of the link layer are implemented in
 * gsn-port-device-*.cc, one file each (transmit, runs, receive, credits, retransmit,
 * bring-up).
 */
#ifndef GSN_PORT_DEVICE_H
#define GSN_PORT_DEVICE_H

#include "gsn-disturbed-runs.h"
#include "gsn-event-hint.h"
#include "gsn-held-choice.h"
#include "gsn-later-acks.h"
#include "gsn-link-bring-up.h"
#include "gsn-link-counters.h"
#include "gsn-micropacket-run.h"
#include "gsn-micropacket.h"
#include "gsn-port-device-state.h"
#include "gsn-port-upper-part.h"
#include "gsn-retransmit-buffer.h"
#include "gsn-ring-buffer.h"
#include "gsn-scheduled-arrivals.h"
#include "gsn-timed-credits.h"

#include "ns3/error-model.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <memory>

namespace ns3
{

class GsnChannel;
class Node;

/**
 * \ingroup gsn
 * \brief The link layer of one GSN port.
 *
 * Transmission: at most one micropacket leaves every 40 ns. The priority follows the TYPE
 * rules (gsn-protocol-reference.rst, "Micropacket TYPE codes"): link-control micropackets, then
 * go-back-N retransmissions, then Admin, then Header/Data chosen round-robin over the VCs that have
 * both a micropacket and a credit, then Credit-only when credits are owed, then Null when an
 * acknowledgement is due. When none applies the port sends nothing and schedules nothing: an idle
 * link costs no events.
 *
 * In the run link mode (attribute LinkMode = Run) the port chooses the micropackets of
 * consecutive slots at once, as it would one by one if nothing arrived meanwhile, and sends
 * them as one GsnMicropacketRun: far fewer events, exact where nothing reaches the port
 * during a run, approximate under contention (gsn-link-modes.rst).
 *
 * Every micropacket sent carries the latest RSEQ; sequenced ones also carry owed credits of
 * one VC. Credits and RSEQ are taken only from micropackets whose LCRC is good, and
 * credits only from sequenced micropackets accepted in order, so each grant counts once.
 *
 * What the port asks of the part above it (the Message micropackets of each VC) and hands
 * up to it is the interface GsnPortUpperPart, which a switch port and an endpoint implement;
 * the protected functions below are what they call back (places freed, something to send).
 */
class GsnPortDevice : public NetDevice, public GsnPortUpperPart
{
  public:
    /// The state of the link as this port sees it (DOWN, RESET_SENT, INIT_SENT, UP).
    using LinkState = GsnLinkBringUp::State;

    /// How micropackets are handed to the channel.
    enum LinkMode
    {
        MICROPACKET, ///< one event per micropacket and slot: the reference
        RUN,         ///< consecutive slots chosen at once and sent as one run
    };

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnPortDevice();
    ~GsnPortDevice() override;

    /**
     * Connect this port to a cable.
     * \param channel the cable
     * \return true
     */
    bool Attach(Ptr<GsnChannel> channel);

    /**
     * Called by the channel when a micropacket's last bit arrives.
     * \param mp the micropacket as sent (the receive error model may corrupt it here)
     */
    void Receive(GsnMicropacket mp);

    /**
     * Called by the channel when the first micropacket of a run arrives. The port takes
     * the micropackets in order; a Header or a Tail that arrives later is taken at its own
     * arrival time (one more event), so that Messages start and end exactly when they do
     * micropacket by micropacket.
     * \param run the micropackets
     */
    void ReceiveRun(Ptr<GsnMicropacketRun> run);

    /// \return the start of the slot whose micropacket is being chosen: now, or a later
    /// slot of a run being put together (valid inside HasMessageMicropacket and
    /// PullMessageMicropacket)
    const Time& GetSlotTime() const
    {
        return m_slotTime;
    }

    /// \return true while a later slot of a run is being chosen (GetSlotTime() is after now)
    bool IsChoosingAhead() const
    {
        return m_choosingAhead;
    }

    /// \return when the micropacket being received arrived (valid inside
    /// ReceiveMessageMicropacket; later than now for micropackets of a run taken early)
    const Time& GetRxArrivalTime() const
    {
        return m_rxArrival;
    }

    /// \return the run of the micropacket being received (inside a LateCreditsRx sink: of
    /// the one the credits were put on), or null (sent alone), and in \p k its index there:
    /// a run's RSEQs and credits may be amended after a micropacket is taken ahead
    const GsnMicropacketRun* GetRxRun(uint32_t& k) const;

    /**
     * Tell the scheduler that the event about to be scheduled acts on this port
     * (gsn::HintNextEvent()): the members from m_micropacketTxTrace to the first link
     * counters (up to m_counters.nullSent), declared together: what most of a port's
     * events read.
     */
    void HintNextEvent() const;

    /**
     * The channel scheduled a transmission of the peer to arrive here at \p at (its first
     * micropacket; for GsnChannel).
     * \param at the arrival time
     */
    void NoteArrivalScheduled(const Time& at);

    /// \return the link mode in use
    LinkMode GetLinkMode() const
    {
        return m_linkMode;
    }

    /// \return the link counters
    const GsnLinkCounters& GetLinkCounters() const
    {
        return m_counters;
    }

    /// \return micropackets whose slot has started, all types: the txMicropackets counter
    /// without the later slots of a run under way (the counter counts a run when it is chosen)
    uint64_t GetTxMicropacketsStarted() const;

    /**
     * GetTxMicropacketsStarted() without a micropacket whose slot starts at this very instant:
     * the same count whatever the order of the events of this instant (a reading at a slot
     * boundary then agrees between one process and MPI ranks, which order events of one
     * instant differently).
     * \return micropackets whose slot started before now
     */
    uint64_t GetTxMicropacketsStartedBefore() const;

    /**
     * The time this port's VCs have waited for credit up to now: the creditStallTime counters
     * (stalls that ended) and the part before now of stalls still under way. A stall ending at
     * this instant counts the same whether its credits were taken before or after the
     * reading, so the reading agrees between one process and MPI ranks.
     * \return the credit-stall time of all VCs up to now
     */
    Time GetCreditStallTimeUpToNow() const;

    /**
     * The run mode's waits (the runWaits and runWaitTime counters) up to now: a wait counts
     * from the slot it begins (one that begins now or later does not yet), and only its part
     * before now. The reading is the same whatever the order of the events of this instant,
     * so it agrees between one process and MPI ranks.
     * \param[out] waits the waits begun before now
     * \param[out] time their time before now
     */
    void GetRunWaitsUpToNow(uint64_t& waits, Time& time) const;

    /// \return the link state
    LinkState GetLinkState() const
    {
        return m_state;
    }

    /// \param vc a virtual channel \return credits this port holds for sending on \p vc
    int32_t GetTxCredits(uint8_t vc) const;

    /// \param vc a virtual channel \return micropackets of \p vc held in its receive buffer
    uint32_t GetRxBufferOccupancy(uint8_t vc) const;

    /// \return the receive buffer per VC, in micropackets
    uint32_t GetRxBufferSize() const
    {
        return m_rxBufferSize;
    }

    /// \return micropackets sent and not yet acknowledged
    uint32_t GetUnacknowledged() const;

    /// Start a link reset (also done after MaxRetransmitTries timeouts without progress).
    void ResetLink();

    /**
     * Assign fixed random variable stream numbers to the random variables used by this
     * port (the corruption of micropackets hit by the receive error model).
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);
    /// How many streams AssignStreams() takes (the same for every port).
    static constexpr int64_t STREAMS_PER_PORT = 1;

    /**
     * The ReceiveErrorModel attribute.
     * \param em corrupts received micropackets; null for none
     */
    void SetReceiveErrorModel(Ptr<ErrorModel> em);
    /// \return the ReceiveErrorModel attribute
    Ptr<ErrorModel> GetReceiveErrorModel() const;

    // NetDevice API shared by all ports
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    /// \return the cable of this port (GetChannel may report another channel, see
    ///         GsnNetDevice::SetLogicalChannel); null while uncabled
    Ptr<GsnChannel> GetCable() const;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;

    /// TracedCallback signature for micropacket events.
    typedef void (*MicropacketTracedCallback)(const GsnMicropacket& mp);
    /// TracedCallback signature for credit stalls: VC and how long it waited.
    typedef void (*CreditStallTracedCallback)(uint8_t vc, Time duration);
    /// TracedCallback signature for credits put on a micropacket taken ahead: VC, credits.
    typedef void (*LateCreditsTracedCallback)(uint8_t vc, uint8_t credits);
    /// TracedCallback signature for a go-back-N retransmission: how many micropackets.
    typedef void (*RetransmitTracedCallback)(uint32_t count);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

    /**
     * Tell the link whether the upper part can have Header/Data micropackets on \p vc, so
     * that it asks HasMessageMicropacket() only for those (default: all VCs may).
     * \param vc a virtual channel
     * \param may false if HasMessageMicropacket(vc) would return false until set again
     */
    void SetMessageVcHint(uint8_t vc, bool may);

    /// A VC that had nothing to send got something while a run is under way: it waits for
    /// the run's end (see DisturbedRunLength).
    /// \param vc the virtual channel
    void NoteWaitingForRun(uint8_t vc);

    /// Ignored (the default; a switch port and an endpoint answer them).
    /// \param mp an Admin micropacket accepted in order
    void ReceiveAdminMicropacket(const GsnMicropacket& mp) override;

    /// The upper part has something new to send: start transmitting if idle.
    void NotifyTxReady();

    /// NotifyTxReady(), an idle port choosing once the events pending at this instant have
    /// run (a switch output granted at an instant when other inputs may still ask for it).
    void NotifyTxReadyAfterEvents();

    /**
     * Free receive-buffer places of \p vc; their credits go back to the sender.
     * \param vc a virtual channel
     * \param n how many micropackets left the buffer
     * \param at when they left: now, or a later slot of a run chosen ahead (the places are
     *        free, and their credits may go back, from then on)
     */
    void ReleaseRxBuffer(uint8_t vc, uint32_t n, const Time& at);

    /**
     * ReleaseRxBuffer(vc, 1, at) for \p n places freed one slot apart, or \p stride slots,
     * the first at \p first: in one step where the calls one by one would differ in nothing
     * but the count (see ReceiveMessageSpan()).
     * \param vc a virtual channel
     * \param n how many places
     * \param first when the first was freed
     * \param stride slots from one to the next
     */
    void ReleaseRxBufferSpan(uint8_t vc, uint32_t n, const Time& first, uint32_t stride = 1);

    /**
     * ReleaseRxBuffer(vc, 1, at) for the places of \p m VCs freed in turns: in turn r (from
     * 0 to \p rounds - 1), vcs[j]'s at \p first + (r \p s + offsets[j]) slots, in the order
     * of their slots (a switch output sending, slot by slot, the Messages of several VCs of
     * this input among others'); in one step where the calls one by one would differ in
     * nothing but the count.
     * \param vcs the VCs \param offsets the slot of each in a turn, increasing
     * \param m how many VCs \param rounds how many turns
     * \param first the slot of the first turn's offset 0 \param s slots in a turn
     */
    void ReleaseRxBufferWoven(const uint8_t* vcs,
                              const uint32_t* offsets,
                              uint32_t m,
                              uint32_t rounds,
                              const Time& first,
                              uint32_t s);

    /**
     * \param last when the last of some receive-buffer places is freed
     * \return whether freeing them acts on nothing but this port's counts (no timed
     *         credits, no credits put on a run under way, no transmission or timer
     *         started), so that one ReleaseRxBuffer() of them all leaves the port as one
     *         call for each
     */
    bool ReleasesQuietly(const Time& last) const;

    /**
     * \param vc a virtual channel
     * \param n how many places of \p vc are freed
     * \return whether this port's transmitter is idle (neither busy nor choosing) and
     *         freeing them owes their credits and starts the idle timers only, the same
     *         once for all as once for each: they make no Credit-only due, and nothing is
     *         kept for later (without ExactCredits)
     */
    bool ReleasesIdleQuietly(uint8_t vc, uint32_t n) const;

    /// \return whether places freed now at an idle port whose choice is held (for the
    /// other events of this instant) only count, any number at once: the held choice
    /// carries their credits (not with ExactCredits, which times them)
    bool ReleasesWhileHeld() const;

    /**
     * \param vc a virtual channel
     * \param from a later slot of a run chosen ahead, from which places of \p vc are freed
     *        one slot apart
     * \return how many of them ReleaseRxBufferSpan() may free as the calls one by one
     *         would, with nothing in between (ReleasesQuietly(), ReleasesIdleQuietly(), or
     *         a busy transmitter whose run carries the credits as they are freed):
     *         UINT32_MAX for any number
     */
    uint32_t QuietReleases(uint8_t vc, const Time& from) const;

    /**
     * \param elsewhere whether places of this port's receive buffer are freed by events
     *        other than its own receptions (a switch's outputs; the default). An endpoint,
     *        which frees each place as its micropacket arrives, sets false: its idle port
     *        then sends a Credit-only at once instead of holding it for the other events of
     *        the instant (under schedulers other than GsnTimingWheelScheduler a hold is an
     *        event).
     */
    void SetPlacesFreedElsewhere(bool elsewhere);

    /**
     * Queue an Admin micropacket for sending (sequenced, uses no VC credit).
     * \param mp its data and VC
     */
    void SendAdminMicropacket(const GsnMicropacket& mp);

    TracedCallback<const GsnMicropacket&> m_micropacketDropTrace; ///< micropackets dropped
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;           ///< 40 wire bytes of drops
    // (Asked whether empty for every micropacket: the last members before the private ones,
    // which begin with what most events read, see HintNextEvent().)
    TracedCallback<const GsnMicropacket&> m_micropacketTxTrace; ///< every micropacket sent
    TracedCallback<const GsnMicropacket&> m_micropacketRxTrace; ///< every good micropacket in

  private:
    // Helper types (gsn-port-device-state.h), then private methods by part of the link layer (each
    // mechanism explained at its definition; the small inline ones are defined in
    // gsn-port-device-private.h), then the data members.
    using PortTimer = gsn::PortTimer;         ///< a timer that knows whether it is pending
    using PeerRseqs = gsn::PeerRseqs;         ///< the peer's RSEQs, applied at once
    using ResetSnapshot = gsn::ResetSnapshot; ///< what a port knew at a reset

    // The transmitter: each slot's choice and its sending (gsn-port-device-transmit.cc)
    void TransmitNext(); ///< send the next micropacket if the transmitter is free and one is due
    /// Run mode: choose the slots after \p mp, the first of a transmission at \p now. \return the
    /// run (null: \p mp alone); in \p n how many, in \p last the last one's slot
    Ptr<GsnMicropacketRun> ChooseRun(GsnMicropacket& mp, const Time& now, uint32_t& n, Time& last);
    void TransmitComplete(); ///< the current micropacket has left: pick the next
    void EndTransmission();  ///< the rest of TransmitComplete(), after the events of its instant
    bool SelectMicropacket(GsnMicropacket& mp, bool nullAllowed = true); ///< choose what goes now
    /// \param releases whether places freed by now and kept count too \return whether
    /// SelectMicropacket() would choose a Credit-only now
    bool CreditOnlyIsNext(bool releases = false) const;
    /// Hold an idle port's choice past \p now's events (gsn::HeldChoice); \p again: a choice
    /// held once more, which waits for the instant's other held choices
    void HoldUntilAfterEvent(const Time& now, bool again = false);
    void HeldChoiceTimeout();    ///< make the choice HoldUntilAfterEvent() held
    uint32_t NodeNumber() const; ///< the node's id (0 without a node): holds count per node
    void NoteMessageMicropacketTaken(uint8_t vc, GsnMicropacket& mp); ///< note a Header/Data taken
    void KeepForRetransmission(GsnMicropacket& mp); ///< give new sequenced \p mp its TSEQ, keep it
    void PrepareToSend(GsnMicropacket& mp);    ///< fill in RSEQ, LCRC state, traces as \p mp leaves
    void PiggybackCredits(GsnMicropacket& mp); ///< put owed credits of one VC on sequenced \p mp
    uint8_t MostOwedVc() const;                ///< the VC owed the most credits, or NUM_VCS if none
    void NoteCreditStall(uint8_t vc);          ///< mark \p vc stalled for lack of credit if not yet
    /// Queue a link-control micropacket carrying handshake number \p number.
    void SendControl(GsnMicropacketType type, uint8_t number);
    /// Send a Credit-only or Null \p mp on its own at \p now (the current time).
    void TransmitSingle(const GsnMicropacket& mp, const Time& now);
    /// Run mode: whether ChooseFollowingAhead() may find any for \p vc (asked first: mostly
    /// not, with VCs interleaved)
    bool MayChooseFollowingAhead(uint8_t vc) const;
    /// Run mode: choose the following micropackets of \p vc's Message (MayChooseFollowingAhead()).
    /// \return how many
    uint32_t ChooseFollowingAhead(GsnMicropacketRun& run,
                                  uint8_t vc,
                                  uint32_t room,
                                  const Time& start);
    /// Run mode: ChooseFollowingAhead() where the Message's next micropackets are ready one
    /// every few slots, the slots between idle and bridged (BridgeIdleSlots()). \return how many
    uint32_t ChooseStridedAhead(GsnMicropacketRun& run, uint8_t vc, uint32_t room);
    /// Run mode: after a new Data micropacket, the Messages of several VCs going in turn slot
    /// after slot: choose whole turns of them at once (TakeWovenMessageMicropackets()).
    /// \return how many
    uint32_t ChooseWovenAhead(GsnMicropacketRun& run, uint32_t room, const Time& start);
    template <PortTimer GsnPortDevice::*Timer, void (GsnPortDevice::*Handler)()>
    void ArmAfterCurrentEvent(); ///< call \p Handler once the event under way is over
    template <PortTimer GsnPortDevice::*Timer, void (GsnPortDevice::*Handler)()>
    static void CallIfPending(Object* port); ///< the call ArmAfterCurrentEvent() leaves

    /// \return true if a Null is due (nothing else going, it acknowledges what is owed)
    bool NullDue() const;

    /// \return whether \p owed credits make a Credit-only due (threshold reached, or AckDelay)
    bool MakeCreditOnlyDue(uint32_t owed) const;

    // What the run mode adds (gsn-port-device-runs.cc)
    bool BridgeIdleSlots(); ///< nothing to send: move m_slotTime to the next ready micropacket
    bool CanAppendFollowing() const; ///< may append to the run being chosen unstored
    /// \return of \p room more, one every \p step time steps: what the window and deadline allow
    uint32_t RoomAhead(uint32_t room, int64_t step) const;
    /// Append \p n unstored, one every \p stride slots
    void AppendFollowing(GsnMicropacketRun& run, uint8_t vc, uint32_t n, uint32_t stride = 1);
    bool CanTakeAhead(const Time& arrival, const GsnMicropacket& mp) const; ///< may take \p mp now
    /// \return whether the peer sees the acknowledgement \p mp is owed only after \p arrival
    bool TakingAheadIsUnseen(const Time& arrival, const GsnMicropacket& mp) const;
    void TakeAhead(GsnMicropacket mp, const Time& arrival); ///< take \p mp now (CanTakeAhead())
    void ApplyTakenAhead(); ///< apply what TakeAhead() kept that has arrived by now

    // The receiver (gsn-port-device-receive.cc)
    void ReceiveAt(GsnMicropacket mp, const Time& arrival); ///< take one that arrived at \p arrival
    void ReceiveSequenced(GsnMicropacket& mp); ///< handle a sequenced micropacket with a good LCRC
    void AcceptInSequence(const GsnMicropacket& mp); ///< count \p mp accepted in sequence
    bool CanTakeQuickly() const; ///< whether ReceiveRun() may use IsQuickToTake(), TakeQuickly()
    bool IsQuickToTake(const GsnMicropacket& mp) const; ///< ReceiveAt() would accept \p mp in order
    /// What ReceiveAt() does with \p mp that IsQuickToTake(), without its general dispatch.
    void TakeQuickly(GsnMicropacket&& mp, const Time& arrival, int& lastRseq);
    void ProcessCredits(uint8_t vc, uint8_t credits); ///< apply, or keep until their arrival
    void CountCredits(uint8_t vc, uint32_t n, const Time& at); ///< add credits arrived at \p at
    bool CountCreditsOfSlotStart();  ///< count the credits that arrived as this slot began
    bool CountTimedCreditsBy(const Time& t); ///< count timed credits arriving by \p t
    void NoteAckOwed(bool accepted);         ///< owe an acknowledgement for the one received
    void OweAck();        ///< owe the acknowledgement of an accepted micropacket from now
    void ArmIdleTimers(); ///< nothing to send: start the timers for what is owed
    void AckTimeout();    ///< the delayed-acknowledgement timer fired
    void ApplyErrorModel(GsnMicropacket& mp); ///< the receive error model's hit flips one bit
    void DropMicropacket(const GsnMicropacket& mp, bool accepted = false); ///< report a drop

    /// \return the RSEQ the one received carries: \p rseq, or as amended in its run before taken
    uint8_t RseqInRun(uint8_t rseq) const;

    /// \return whether nothing received is timed, traced or corrupted (TakeQuickly(), TakeAhead())
    bool ReceivesPlainly() const;

    // Spans of a run taken at once (gsn-port-device-spans.cc)
    void TakeSpanQuickly(GsnMicropacketRun& run, int lastRseq); ///< take what follows as one span
    /// TakeSpanQuickly() where several VCs' micropackets follow slot by slot: one span per VC
    void TakeWovenSpansQuickly(GsnMicropacketRun& run, int lastRseq);
    /// What TakeQuickly() does for each of micropackets \p a to \p b - 1 of \p run, at once
    void FinishSpans(GsnMicropacketRun& run, std::size_t a, std::size_t b);
    /// NoteAckOwed() for each of \p n micropackets of \p run taken in a span, from \p a.
    void NoteSpanAcksOwed(const GsnMicropacketRun& run, std::size_t a, uint32_t n);

    // Buffer places and credits (gsn-port-device-credits.cc)
    /// ApplyDueCredits(), something due
    void ApplyDueCreditsNow(const Time& t, bool slotFollows, bool creditsFollow);
    void ApplyDueReleases(const Time& t, bool slotFollows); ///< count places freed by \p t as owed
    void ApplyDueAcks(const Time& t); ///< apply the RSEQs kept for later due by \p t (one is)
    void ApplyArrivedAcks();          ///< apply the RSEQs kept for later that arrived before now
    bool ApplyReleasesAtSlot(const Time& t); ///< count places freed at \p t that make a Credit-only
    /// ReleaseRxBufferSpan() or ReleaseRxBufferWoven() onto a busy run: \p rounds places of
    /// each of the \p m VCs \p vcs, freed in turns
    void ReleaseRidingOnRun(const uint8_t* vcs, uint32_t m, uint32_t rounds);
    /// An endpoint frees \p n places of \p vc at the instant its idle port's slot started, after
    /// that slot's choice: \return whether their credits went on the slot's micropacket
    bool AmendCreditsOfSlotNow(uint8_t vc, uint32_t n);

    /// \param at when places are freed, now \return whether this port's transmission started
    /// at \p at from idle and this port frees places only by its own arrivals (an endpoint)
    bool StartedIdleAt(const Time& at) const;
    /// ReleaseRidingOnRun() of one VC onto riders acknowledged already. \return places freed
    uint32_t PutSpanOnAcknowledged(uint8_t vc, uint32_t n, std::size_t& cursor);
    static constexpr std::size_t PUT_CURSOR_UNKNOWN = SIZE_MAX; ///< a put cursor not yet found
    void PutOwedCreditsOnRun(std::size_t* cursor = nullptr); ///< owed credits onto the run's rest
    /// The same for \p n credits of \p vc freed at \p at, later than now. \return how many
    uint32_t PutLaterCreditsOnRun(uint8_t vc, uint32_t n, const Time& at);
    bool CanPutCreditsOnRun(const Time& from) const; ///< may credits from \p from ride on it
    /// Put \p cr credits of \p vc on \p count micropackets of the run on the wire (on one
    /// that carries \p had of \p vc already: count 1).
    void SendCreditsOnRun(const Time& slot,
                          uint8_t tseq,
                          uint8_t vc,
                          uint8_t cr,
                          uint32_t count = 1,
                          uint8_t had = 0);
    std::size_t RiderFor(std::size_t i, uint8_t vc) const; ///< ExactCredits: next rider of \p vc
    uint32_t PutCreditsOn(std::size_t i, uint8_t vc, uint32_t n); ///< ExactCredits: onto rider i
    /// Count credits the peer put on micropackets of \p run that this port took already.
    void TakeLateCredits(const GsnMicropacketRun& run,
                         std::size_t k,
                         uint8_t vc,
                         uint8_t n,
                         uint32_t count = 1);
    void ArmDueCreditsTimer(); ///< idle: wake when what is kept for later needs the transmitter
    void DueCreditsTimeout();  ///< the due-credits timer fired
    void CreditTimeout();      ///< owed credits waited AckDelay: return them below the threshold

    /// Count what takes effect by \p t (credits, RSEQs, places freed, acknowledgements owed).
    /// \p slotFollows: places freed at \p t count only after a choice at \p t;
    /// \p creditsFollow: credits arriving at \p t likewise, with ExactCredits (a slot of a run
    /// chosen ahead; see ApplyDueCreditsNow())
    void ApplyDueCredits(const Time& t, bool slotFollows = false, bool creditsFollow = false);

    /// Free buffer places and owe their credits (the caller sets m_oldestOwed if none were).
    void FreeRxPlaces(uint8_t vc, uint32_t n);

    // Go-back-N retransmission and acknowledgements (gsn-port-device-retransmit.cc)
    void ArmRetransmitTimer();    ///< set the go-back-N deadline as the first waits for its ACK
    void RetransmitTimeout();     ///< the go-back-N timer fired
    void ExpireRetransmitTimer(); ///< the deadline passed: count it, go back N, or reset the link

    /// \param at a time \return whether the go-back-N deadline is past at \p at (asked at every
    /// slot of a run chosen)
    bool RetransmitDeadlinePassed(const Time& at) const;

    Time GetRetransmitTimeout() const;           ///< the go-back-N timeout in use
    void ReleaseAckedThatLeft(bool all = false); ///< drop from m_retx acknowledged ones that left
    void DropOldestSent(std::size_t n); ///< drop the \p n oldest (acknowledged) from m_retx
    void ProcessRseq(uint8_t rseq, const Time* at); ///< apply \p rseq, arrived at \p at (null: now)
    void TakeRseq(uint8_t rseq);      ///< apply the RSEQ received now, or keep it until its arrival
    void TakeTimedRseq(uint8_t rseq); ///< TakeRseq() with timed acknowledgements
    void AckRunFinished(const GsnMicropacketRun* run); ///< ExactAcks(): the peer's \p run has left
    bool GatherPeerRseqs(PeerRseqs& gather) const;     ///< gather RSEQs for the peer, if it can now
    static void ApplyPeerRseqs(const PeerRseqs& gather); ///< apply the RSEQs in \p gather
    bool AmendRunAcks(const Time& arrival); ///< one accepted at \p arrival: its RSEQ onto the run
    void AmendPeerRseq(uint8_t rseq, std::size_t k); ///< \p k taken: the peer applies \p rseq now
    Time NextAckDue() const; ///< ExactAcks(): when a Null becomes due (Time::Max(): none owed)

    /// \return the TSEQ of the oldest micropacket not acknowledged (m_retx holds one)
    uint8_t FirstUnackedTseq() const;

    /// \return the index of the first micropacket of m_retx from \p i on that credits may ride on
    std::size_t NextRiderFrom(std::size_t i) const;

    /// \return the index of the first micropacket of m_txRun leaving at \p arrival or later
    std::size_t FirstSlotFrom(const Time& arrival) const;

    /// \return whether an acknowledgement owed while busy rides on this port's run under way
    bool AcksRideOnRun() const;

    /// \return whether the run mode times acknowledgements as micropacket by micropacket
    bool ExactAcks() const;

    /// \return whether credits and RSEQs of micropackets taken ahead are kept with their arrival
    bool TimesAcknowledgements() const;

    // Bring-up and reset (gsn-port-device-bring-up.cc)
    /// Do the handshake's step for \p event, which carries handshake number \p number.
    void BringUp(GsnLinkBringUp::Event event, uint8_t number = 0);
    void ClearLinkState();    ///< clear sequence, credit and buffer state of both directions
    void ClearKeptForLater(); ///< forget releases, credits, ACKs, arrivals kept for later
    void HandshakeTimeout();  ///< the retry timer expired: send the unanswered request again
    void SetLinkState(LinkState state); ///< change it and tell listeners on up/down edges
    void TakeResetSnapshot(); ///< at a reset: keep what the comparison with the peer needs
    /// Count the Messages of \p sent lost in a reset (\p sender sent them).
    static void CountLostInReset(GsnPortDevice& sender,
                                 const ResetSnapshot& sent,
                                 uint8_t peerLastAccepted);

    // Set-up and timers (gsn-port-device.cc)
    /// Schedule \p timer to call \p handler after \p delay (the handler calls Clear()).
    void Arm(PortTimer& timer, const Time& delay, void (GsnPortDevice::*handler)());
    /// A lazy timer's check: arm \p timer again if \p due is still ahead. \return whether armed
    bool ArmAgainIfNotDue(PortTimer& timer, const Time& due, void (GsnPortDevice::*handler)());
    void NoteLinkErrorModels(); ///< update m_linkMayCorrupt from the error models at both ends

    // What most events of a port read, together and first (HintNextEvent() names it, the
    // scheduler fetches it while the event before runs): 6,144 ports of 1.4 KiB do not stay
    // in the cache between one event of a port and the next. Most often read first.
    LinkMode m_linkMode;           ///< micropacket by micropacket, or runs
    LinkState m_state;             ///< link state
    bool m_txBusy;                 ///< a micropacket is on the wire
    bool m_selecting;              ///< inside SelectMicropacket()
    bool m_choosingAhead{false};   ///< choosing a slot after now
    bool m_rxAhead{false};         ///< the one received arrives later than now
    bool m_timedTake{false};       ///< inside TakeAhead()
    bool m_rxGranted;              ///< buffers granted since the last Reset
    bool m_ackDue;                 ///< send a Null if nothing else goes
    bool m_creditDue;              ///< return owed credits now
    // (One byte for the four: the byte the flags above leave before the next word.)
    bool m_startedIdle : 1;        ///< the transmission under way started from idle
    bool m_startCreditDue : 1;     ///< m_creditDue before that transmission's first choice
    bool m_placesFreedElsewhere : 1; ///< see SetPlacesFreedElsewhere()
    bool m_slotStartCreditsAny : 1;  ///< some of m_slotStartCredits are set
    bool m_linkMayCorrupt{false};    ///< an error model at either end of the link
    bool m_exactCredits;           ///< credits at their own slots (ExactCredits)
    bool m_keepAliveNulls;         ///< an idle link sends Nulls (KeepAliveNulls)
    bool m_removeIsSafe{true};     ///< Simulator::Remove works with the scheduler in use
    uint8_t m_messageVcs{0xF};     ///< VCs to ask HasMessageMicropacket
    uint8_t m_rrNext;              ///< VC to look at first
    uint8_t m_nextTseq;            ///< TSEQ of the next new micropacket
    uint8_t m_expectedTseq;        ///< next TSEQ to accept
    uint8_t m_rseqSent{0xFF};      ///< RSEQ of the last micropacket sent
    uint8_t m_runWaitVcs{0};       ///< VCs waiting for the run under way (bit per VC)
    uint32_t m_owedTotal{0};       ///< sum of m_owedCredits
    uint32_t m_rxUnacked;          ///< accepted since the last RSEQ sent
    uint32_t m_resendIndex;        ///< next m_retx entry to resend
    std::size_t m_ackedAhead{0};   ///< oldest of m_retx acknowledged, kept until sent
    std::size_t m_ackedCreditsUpTo{0};   ///< of those, the ones before it carry credits
    uint32_t m_runLength;                ///< micropackets of the last run
    uint32_t m_rxIndex{0};               ///< index of the one received in m_rxRun
    gsn::DisturbedRuns m_disturbedRuns;  ///< the limit on the next run (DisturbedRunLength)
    uint32_t m_creditReturnThreshold;    ///< owed credits that justify a Credit-only
    uint32_t m_ackThreshold;             ///< unacknowledged receptions that justify a Null
    uint32_t m_retransmitWindow;         ///< retransmission buffer, micropackets
    uint32_t m_maxRunLength;             ///< longest run in the run mode
    uint32_t m_disturbedRunLength;       ///< run cap after a disturbed run (0: off)
    uint32_t m_shortRuns;                ///< undisturbed runs kept short (DisturbedRuns)
    uint32_t m_rxBufferSize;             ///< receive buffer per VC, micropackets
    Ptr<GsnChannel> m_channel;           ///< the cable
    Ptr<GsnMicropacketRun> m_txRun;      ///< the run on the wire, if any
    GsnMicropacketRun* m_rxRun{nullptr}; ///< the run of the one received, if any
    Ptr<ErrorModel> m_receiveErrorModel; ///< corrupts received micropackets
    Time m_slotTime;                     ///< slot being chosen
    Time m_runStart;                     ///< first slot of the last run
    Time m_runEnd;                       ///< end of the last run's last slot
    Time m_rxArrival;                    ///< arrival of the one received
    Time m_lastTxArrival;                ///< last arrival of what this port sent
    Time m_rtxDeadline;                  ///< when the go-back-N timer expires
    gsn::HeldChoice m_heldChoice;        ///< when an idle port's choice was last held
    /// credits that arrived as the next slot begins, per VC (CountCreditsOfSlotStart())
    std::array<uint16_t, gsn::NUM_VCS> m_slotStartCredits{};
    gsn::ScheduledArrivals m_arrivals;      ///< first arrivals scheduled here, taken when
    Time m_oldestOwed;                      ///< when owed credits went from none
    Time m_oldestUnacked;                   ///< when m_rxUnacked went from zero
    Time m_maxRunGap;                       ///< longest idle time inside a run
    Time m_ackDelay;                        ///< longest wait before acknowledging
    Time m_retransmitTimeout;               ///< go-back-N timeout (zero: derived)
    std::array<int32_t, gsn::NUM_VCS> m_txCredits;    ///< credits for sending, per VC
    std::array<uint32_t, gsn::NUM_VCS> m_rxOccupancy; ///< buffer places in use, per VC
    std::array<uint32_t, gsn::NUM_VCS> m_owedCredits; ///< credits to return, per VC
    std::array<bool, gsn::NUM_VCS> m_stalled;         ///< a VC is waiting for credit
    std::array<Time, gsn::NUM_VCS> m_vcLastSlot;      ///< last slot given to each VC's Messages
    /// how long (time steps, ns) each VC waiting for the run under way waits (m_runWaitVcs)
    std::array<uint32_t, gsn::NUM_VCS> m_runWaitLength{};
    GsnRetransmitBuffer m_retx;                       ///< sent, not yet acknowledged
    GsnRingBuffer<GsnMicropacket> m_adminQueue;       ///< Admin micropackets to send
    GsnRingBuffer<gsn::QueuedControl> m_controlQueue; ///< link-control micropackets to send
    GsnTimedCredits m_laterReleases;                  ///< places freed in later slots
    GsnTimedCredits m_laterCredits;                   ///< credits arriving later
    gsn::LaterAcks m_laterAcks;                 ///< acknowledgements arriving later, in time order
    GsnRingBuffer<Time, false> m_laterArrivals; ///< arrivals, after now, of micropackets taken
                                                ///< ahead and accepted: acknowledgements owed then
    PortTimer m_rtxTimer;                       ///< the go-back-N timer
    PortTimer m_ackTimer;                       ///< delayed-acknowledgement timer
    PortTimer m_creditTimer;                    ///< credit-return timer
    PortTimer m_dueCreditsTimer;                ///< wakes an idle port for what is kept above
    PortTimer m_heldChoiceTimer; ///< a held choice (Null, Credit-only), later at once
    PortTimer m_slotEndTimer;    ///< the end of a transmission, later at once
    GsnLinkCounters m_counters;  ///< counters (the often counted first)
    // (End of what most events read.)

    Ptr<Node> m_node;       ///< the node
    uint32_t m_ifIndex;     ///< interface index
    Mac48Address m_address; ///< this port's ULA
    uint16_t m_mtu;         ///< MTU reported to upper layers

    // Attributes read seldom
    uint32_t m_maxRetransmitTries;           ///< timeouts without progress before a Reset
    ResetSnapshot m_resetSnapshot;           ///< see TakeResetSnapshot()
    Ptr<UniformRandomVariable> m_corruptBit; ///< which bit a corruption flips

    std::array<Time, gsn::NUM_VCS> m_stallStart; ///< when each VC began waiting for credit
    uint32_t m_timeoutsWithoutProgress;          ///< consecutive go-back-N expiries
    uint32_t m_clears{0};                        ///< ClearLinkState() calls so far

    // Bring-up
    EventId m_handshakeEvent;               ///< handshake retry timer
    uint8_t m_handshakeNumber{0};           ///< number of this port's latest request
    TracedCallback<> m_linkChangeCallbacks; ///< link up/down listeners

    TracedCallback<uint8_t, Time> m_creditStallTrace;      ///< a VC waited for credit
    TracedCallback<uint8_t, uint8_t> m_lateCreditsRxTrace; ///< credits put on a run taken
    TracedCallback<uint32_t> m_retransmitTrace;            ///< go-back-N restarts
};

} // namespace ns3

// The bodies of the small functions above that every micropacket calls.
#include "gsn-port-device-inline.h"

#endif /* GSN_PORT_DEVICE_H */
