/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnSwitch: the crossbar of an N-port GSN switch, aggregated to a Node whose devices are
 * its GsnSwitchPorts. It owns the input buffers' contents (the ports account their credits),
 * the routing table keyed by destination ULA, wormhole forwarding (an output VC belongs to
 * one Message from Header to Tail), round-robin arbitration between inputs, cut-through
 * latency, broadcast replication along the broadcast tree, drops of unroutable Messages,
 * Admin micropacket processing (HIPPI-6400-SC) and the switch side of fabric discovery.
 */
#ifndef GSN_SWITCH_H
#define GSN_SWITCH_H

#include "gsn-admin.h"
#include "gsn-micropacket-queue.h"
#include "gsn-micropacket.h"
#include "gsn-ring-buffer.h"

#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <map>
#include <vector>

namespace ns3
{

class GsnSwitchPort;

/**
 * \ingroup gsn
 * Why a switch dropped a Message.
 */
enum class GsnSwitchDropReason : uint8_t
{
    UNKNOWN_ULA,        ///< no route for the destination ULA
    NO_BROADCAST,       ///< a broadcast Message reached a switch that does not broadcast
    BROADCAST_TOO_LONG, ///< a broadcast Message larger than the input buffer
    STRAY_DATA,         ///< a Data micropacket where a Header was due
    CUT_BY_RESET,       ///< buffered at an input, not yet forwarded, when its link reset
    COUNT               ///< number of reasons
};

/// \return a short name for a switch drop reason
const char* GsnSwitchDropReasonName(GsnSwitchDropReason reason);

/**
 * \ingroup gsn
 * \brief Counters of one (port, VC) of a switch; "in" counts the port as input, "out" as
 * output.
 */
struct GsnSwitchVcCounters
{
    uint64_t messagesOut{0};     ///< Messages forwarded out of this port
    uint64_t micropacketsOut{0}; ///< micropackets forwarded out of this port
    uint64_t broadcastsIn{0};    ///< broadcast Messages replicated from this input
    uint64_t dropsIn{0};         ///< Messages dropped at this input
    Time blockedIn;              ///< time Headers at this input waited for their output VC
};

/**
 * \ingroup gsn
 * \brief An N-port wormhole GSN switch.
 */
class GsnSwitch : public Object
{
  public:
    /// Kind of a port's neighbour, learned by discovery or set by the fabric helper.
    using NeighborType = GsnElementType;

    /// How discovery fills the routing table (attribute DiscoveryMethod).
    enum DiscoveryMethod
    {
        /// the seed's: probe hop by hop down every link until endpoints answer, build a map
        /// (spanning tree) of the fabric, route along it
        MAP,
        /// ask switch neighbours, round after round, which ULAs they reach and how far
        DISTANCE_VECTOR,
    };

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnSwitch();
    ~GsnSwitch() override;

    /**
     * Add a port (its index is the number of ports before).
     * \param port the port device, already added to the switch's node
     * \return the port's index
     */
    uint32_t AddPort(Ptr<GsnSwitchPort> port);

    /// \return the number of ports
    uint32_t GetNPorts() const;

    /// \param i a port index \return the port
    Ptr<GsnSwitchPort> GetPort(uint32_t i) const;

    /**
     * Route Messages for \p ula out of \p port.
     * \param ula a destination ULA
     * \param port an output port
     * \param distance hops to the destination (for ULA_list responses)
     */
    void SetRoute(Mac48Address ula, uint32_t port, uint8_t distance = 1);

    /// \param ula a destination \return its output port, or -1
    int32_t GetRoute(Mac48Address ula) const;

    /// \return the number of routes
    uint32_t GetNRoutes() const;

    /// Forget every route.
    void ClearRoutes();

    /**
     * \param port a port index
     * \param type what is at the other end
     */
    void SetNeighborType(uint32_t port, NeighborType type);

    /// \param port a port index \return what is at the other end, as far as known
    NeighborType GetNeighborType(uint32_t port) const;

    /**
     * \param port a port index
     * \param inTree whether broadcast Messages are replicated out of this port
     */
    void SetPortInBroadcastTree(uint32_t port, bool inTree);

    /// \param port a port index \return whether broadcast Messages leave by it
    bool IsPortInBroadcastTree(uint32_t port) const;

    /// \return whether this switch replicates broadcast Messages
    bool IsBroadcastCapable() const;

    /// \return this switch's element address (also the base of the ULAs it assigns)
    Mac48Address GetElementAddress() const;

    /**
     * \param port a port index
     * \param vc a virtual channel
     * \return its counters
     */
    const GsnSwitchVcCounters& GetCounters(uint32_t port, uint8_t vc) const;

    /// \param reason a reason \return Messages dropped for it
    uint64_t GetDrops(GsnSwitchDropReason reason) const;

    /**
     * For observers (GsnFabricWatchdog): who holds an output VC.
     * \param port an output port
     * \param vc a virtual channel
     * \return the input port whose Message holds output VC \p vc of \p port, GetNPorts()
     *         while it sends a broadcast copy, or -1 while it is free
     */
    int32_t GetOutputOwner(uint32_t port, uint8_t vc) const
    {
        return m_out[port][vc].owner;
    }

    /**
     * For observers (GsnFabricWatchdog): what the Message at the head of an input VC waits
     * for.
     * \param port an input port
     * \param vc a virtual channel
     * \return the output port that the head Message of input VC \p vc of \p port waits for
     *         or is forwarded to, or -1 (no Message there bound for an output)
     */
    int32_t GetInputHeadOutput(uint32_t port, uint8_t vc) const
    {
        const InputVc& in = m_in[port][vc];
        return in.mode == Mode::WAITING || in.mode == Mode::FORWARDING ? int32_t(in.out) : -1;
    }

    /// \return Admin micropackets received that were malformed or could not be routed
    uint64_t GetAdminErrors() const;

    /// Start discovery now (also started at initialisation when Discovery is true).
    void StartDiscovery();

    /**
     * Re-initialise the switch, as the Admin command Reset ("initialize yourself") does:
     * forget its routes, what it knows of its neighbours and the ULAs it assigned, empty its
     * broadcast tree, clear its scratch registers and take back the element address it was
     * configured with. Messages in flight are kept. With Discovery the switch then discovers
     * the fabric again; without it, the fabric manager configures it again
     * (GsnFabricHelper::ConfigureSwitches).
     */
    void Reinitialize();

    /// \return the number of times the switch was re-initialised
    uint32_t GetResets() const;

    /// \return true once discovery rounds stopped changing the routing table
    bool IsDiscoveryComplete() const;

    /// \return the discovery method (attribute DiscoveryMethod)
    DiscoveryMethod GetDiscoveryMethod() const;

    /// An element of the fabric found by the map discovery.
    struct MapElement
    {
        GsnElementType type{GsnElementType::UNKNOWN}; ///< switch or endpoint
        Mac48Address address;                         ///< element address (switch) or ULA
        uint32_t nPorts{0};                           ///< its ports
        uint32_t firstPort{0};     ///< the port of this switch the way to it starts at
        std::vector<uint8_t> path; ///< output port at each switch crossed on the way
        int32_t parent{-1};        ///< index of the element it was found from (-1: here)
        uint32_t parentPort{0};    ///< the parent's port leading to it
        uint32_t arrivalPort{0};   ///< its port the way arrives at
    };

    /**
     * The map the last complete sweep of the map discovery built: this switch first, then
     * the elements in breadth-first order, each with the tree link it was found by (the
     * spanning tree of the seed). Empty with another method or before a sweep ended.
     * \return the map
     */
    const std::vector<MapElement>& GetMap() const;

    // Called by the ports
    /// \return true if output \p port has a micropacket ready on \p vc
    bool HasMicropacketFor(uint32_t port, uint8_t vc);
    /// \return when output \p port's next micropacket on \p vc will be ready, if it is
    /// buffered here and not ready by the port's slot (Time::Max() otherwise)
    Time NextReadyFor(uint32_t port, uint8_t vc) const;
    /// Take the next micropacket for output \p port on \p vc.
    void PullMicropacketFor(uint32_t port, uint8_t vc, GsnMicropacket& mp);
    /// HasMicropacketFor() and, if true, PullMicropacketFor(): \return true if \p mp was taken
    bool TakeMicropacketFor(uint32_t port, uint8_t vc, GsnMicropacket& mp);
    /**
     * Output \p port choosing a run ahead took a Data micropacket of the Message it forwards
     * on \p vc: take up to \p max more of it at once, for the slots from \p slot one after
     * another, where PullMicropacketFor() in each slot would find the next one ready, not a
     * Tail, and freeing their places upstream at once would leave the input port as one by
     * one (GsnPortDevice::QuietReleases()); with \p stride > 1, for the slots one every
     * \p stride slots from \p slot, where the input buffer holds them ready exactly then
     * (received so: GsnMicropacketQueue's strided span).
     * \param port the output \param vc a VC \param max how many at most
     * \param slot the slot of the first \param stride slots from one to the next
     * \param first written with the first taken
     * \return how many were taken (the others follow the first in its Message)
     */
    uint32_t TakeFollowingFor(uint32_t port,
                              uint8_t vc,
                              uint32_t max,
                              const Time& slot,
                              uint32_t stride,
                              GsnMicropacket& first);
    /**
     * Output \p port choosing a run ahead sends the Messages it forwards on the \p s VCs
     * \p vcs in turn, slot after slot from \p slot (see
     * GsnPortDevice::TakeWovenMessageMicropackets()): take of each the same number of Data
     * micropackets at once, at most \p maxRounds, where PullMicropacketFor() in each of its
     * slots would find the next one ready, not a Tail. Each VC's Message comes from another
     * input (so that freeing the places of one VC's at once leaves the others' input as one
     * by one), and freeing them at once leaves each input port as one by one
     * (GsnPortDevice::QuietReleases()).
     * \param port the output \param vcs the VCs, in the order they go \param s how many
     * \param maxRounds how many of each at most \param slot the slot of vcs[0]'s first
     * \param firsts written with the first taken of each, in the order of \p vcs
     * \return how many of each were taken (0: none)
     */
    uint32_t TakeWovenFor(uint32_t port,
                          const uint8_t* vcs,
                          uint32_t s,
                          uint32_t maxRounds,
                          const Time& slot,
                          GsnMicropacket* firsts);
    /// A Header/Data micropacket arrived at input \p port.
    void ReceiveMicropacket(uint32_t port, GsnMicropacket&& mp);
    /**
     * \param port an input \param vc a VC
     * \return whether a micropacket arriving there now would only be buffered: the input
     *         forwards its Message and has micropackets of it buffered (no output to wake),
     *         or waits for its output, or drains
     */
    bool BuffersOnly(uint32_t port, uint8_t vc) const;
    /**
     * \p n micropackets of one Message arrived at input \p port one slot after another, or
     * \p stride slots (GsnPortDevice::ReceiveMessageSpan), where BuffersOnly(): buffer them as
     * one span.
     * \param port the input
     * \param first the first
     * \param n how many
     * \param stride slots from one to the next
     */
    void ReceiveMicropacketSpan(uint32_t port, GsnMicropacket&& first, uint32_t n, uint32_t stride);
    /// An Admin micropacket arrived at \p port.
    void ReceiveAdmin(uint32_t port, const GsnMicropacket& mp);
    /// Port \p port's link was reset: its input buffer is gone.
    void NotifyPortReset(uint32_t port);

    /// TracedCallback signature: a Message was forwarded.
    typedef void (*ForwardTracedCallback)(uint32_t in,
                                          uint32_t out,
                                          uint8_t vc,
                                          Mac48Address destination);
    /// TracedCallback signature: a Message was dropped.
    typedef void (*DropTracedCallback)(uint32_t in,
                                       uint8_t vc,
                                       Mac48Address destination,
                                       GsnSwitchDropReason reason);
    /// TracedCallback signature: an Admin micropacket was processed or forwarded here.
    typedef void (*AdminTracedCallback)(uint32_t port, const GsnAdminPayload& payload);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /// What an input VC is doing with the Message at its head.
    enum class Mode : uint8_t
    {
        IDLE,       ///< no Message at the head, or one not yet looked at
        WAITING,    ///< the head Header waits for its output VC
        FORWARDING, ///< owns its output VC until the Tail leaves
        /// the Tail was taken (in a run chosen ahead: for a later slot); the input goes on
        /// with its next Message in the Tail's slot (FinishMessage)
        DRAINING,
        DROPPING,       ///< discarding the head Message until its Tail
        BROADCAST_WAIT, ///< collecting a broadcast Message before replicating it
    };

    /// State of one input VC.
    struct InputVc
    {
        GsnMicropacketQueue fifo; ///< buffered micropackets, in arrival order
        Mode mode{Mode::IDLE};    ///< what happens to the head Message
        uint32_t out{0};          ///< output port (WAITING, FORWARDING)
        uint32_t tails{0};        ///< Tail micropackets in fifo
        Mac48Address dst;         ///< D_ULA of the head Message
        Time waitingSince;        ///< when the head Header began waiting
    };

    /// State of one output VC.
    struct OutputVc
    {
        int32_t owner{-1}; ///< input port owning it, REPLICA, or -1
        uint32_t rr{0};    ///< round-robin position for the next grant
        GsnRingBuffer<std::vector<GsnMicropacket>> replicas; ///< broadcast copies to send
        uint32_t replicaPos{0}; ///< next micropacket of replicas.front()
    };

    /// Owner value of an output VC sending a broadcast copy.
    int32_t ReplicaOwner() const
    {
        return int32_t(m_ports.size());
    }

    /// Decide what to do with the Message at the head of an idle input VC.
    void ProcessHead(uint32_t in, uint8_t vc);
    /// Start dropping the head Message of an input VC.
    void StartDrop(uint32_t in, uint8_t vc, GsnSwitchDropReason reason);
    /// Discard micropackets of a dropped Message that are in the buffer.
    void DrainDrop(uint32_t in, uint8_t vc);
    /// Replicate a broadcast Message once its Tail is in the buffer.
    void TryBroadcast(uint32_t in, uint8_t vc);
    /// Give a free output VC to the next waiting source, round robin (an owned one: see
    /// RegrantWithinInstant()).
    void Arbitrate(uint32_t out, uint8_t vc);
    /**
     * Output VC \p vc of \p out was granted at this instant to an input whose Header has not
     * been taken yet: if a source asking by now comes first in the round robin from where
     * that grant started, the grant goes to it instead. Requests of one instant are thus
     * served as if all had been made before the first grant, whatever their events' order.
     * \param out output port
     * \param vc virtual channel
     */
    void RegrantWithinInstant(uint32_t out, uint8_t vc);
    /// \return whether source \p src (an input, or ReplicaOwner()) waits for output VC \p vc
    /// of \p out
    bool AsksFor(uint32_t src, uint32_t out, uint8_t vc) const;
    /// Output VC \p vc of \p out is being granted: keep it with the round-robin position.
    void NoteGrant(uint32_t out, uint8_t vc);
    /// \return the buffer of the input owning output VC \p vc of \p port, if it holds
    /// the next micropacket for it; null otherwise (no owner, a broadcast copy owns it,
    /// nothing buffered yet)
    const GsnMicropacketQueue* ForwardedHead(uint32_t port, uint8_t vc) const;
    /// Give output VC \p vc of port \p out to \p owner (-1: free it).
    void SetOwner(uint32_t out, uint8_t vc, int32_t owner);
    /**
     * The Tail of the Message input \p in forwards to output \p out on \p vc has left:
     * free the output VC, let the input go on with its next Message, grant the output VC.
     * \param out output port
     * \param vc virtual channel
     * \param in input port
     * \param dst the Message's D_ULA (for the trace)
     */
    void FinishMessage(uint32_t out, uint8_t vc, uint32_t in, Mac48Address dst);
    /**
     * A Message (forwarded, or a broadcast copy) has left output \p out on \p vc: count
     * it, trace it and free the output VC (the caller grants it again).
     * \param out output port
     * \param vc virtual channel
     * \param from the input it came from (\p out itself for a broadcast copy)
     * \param dst the Message's D_ULA (for the trace)
     */
    void ReleaseOutput(uint32_t out, uint8_t vc, uint32_t from, Mac48Address dst);
    /// Make output \p port look for work at time \p at.
    void WakeOutput(uint32_t port, const Time& at);
    /// The wake-up of output \p port (WakeOutput()).
    void Wake(uint32_t port);
    /// Remove the head entry of an input VC and free its buffer place from \p at (now, or
    /// the later slot of a run it is chosen for). \return its micropacket
    GsnMicropacket PopInput(uint32_t in, uint8_t vc, const Time& at);
    /// Take the next micropacket of the Message input \p in forwards to output \p port on
    /// \p vc (it is ready by the port's slot).
    void PullForwarded(uint32_t port, uint8_t vc, uint32_t in, GsnMicropacket& mp);
    /// The Tail of the Message input \p in forwards to output \p port on \p vc was taken.
    void EndForwarded(uint32_t port, uint8_t vc, uint32_t in);

    /// Handle an Admin request addressed to this switch (hop count zero).
    void ProcessAdminRequest(uint32_t port, GsnAdminPayload p);
    /// Handle an Admin response addressed to this switch.
    void ProcessAdminResponse(uint32_t port, const GsnAdminPayload& p);
    /// \param first a port \return the broadcast-tree bits of ports first..first+63
    uint64_t BroadcastMask(uint32_t first) const;
    /// Broadcast_setup: \param first a port \param mask tree bits of ports first..first+63
    /// \return false (nothing changed) if a bit names a port the switch does not have
    bool SetBroadcastMask(uint32_t first, uint64_t mask);
    /// Send the answers to ULA_list_request.
    void SendUlaList(uint32_t port, GsnAdminPayload request);
    /// Send an Admin payload out of \p port.
    void SendAdmin(uint32_t port, const GsnAdminPayload& p);
    /// One discovery round: ask every neighbour what it is and what it reaches.
    void DiscoveryRound();
    /// One round of the map method: start a sweep of the fabric.
    void StartSweep();
    /// Probe the element at the end of \p path from port \p first, found from map element
    /// \p parent through its port \p parentPort.
    void SendProbe(uint32_t first,
                   const std::vector<uint8_t>& path,
                   int32_t parent,
                   uint32_t parentPort);
    /// A response to a probe of the current sweep arrived.
    void ProbeAnswered(const GsnAdminPayload& p);
    /// Every probe of the current level answered: add what they found, probe one hop further.
    void FinishLevel();
    /// The sweep is complete: routes and (at the root) the broadcast tree from the map.
    void FinishSweep();
    /// As the root of the map (lowest element address), set up the broadcast tree.
    void SetUpBroadcastFromMap();
    /// Learn that the endpoint on \p port has \p ula (replacing what was known of it).
    void LearnEndpoint(uint32_t port, Mac48Address ula, bool assigned);
    /// \return the ULA this switch assigns to the endpoint on \p port
    Mac48Address AssignedUla(uint32_t port) const;

    static uint64_t Key(Mac48Address ula);

    std::vector<Ptr<GsnSwitchPort>> m_ports;                               ///< the ports
    std::vector<std::array<InputVc, gsn::NUM_VCS>> m_in;                   ///< input state
    std::vector<std::array<OutputVc, gsn::NUM_VCS>> m_out;                 ///< output state
    std::vector<std::array<GsnSwitchVcCounters, gsn::NUM_VCS>> m_counters; ///< counters
    std::vector<EventId> m_wake;                                           ///< output wake-ups

    /// An output VC granted at m_grantsAt, and the round-robin position its grant started from.
    struct GrantOfInstant
    {
        uint32_t out;      ///< output port
        uint8_t vc;        ///< virtual channel
        uint32_t rrBefore; ///< OutputVc::rr before the grant
    };

    /// \return the grant of output VC \p vc of \p out made at m_grantsAt, or null
    GrantOfInstant* FindGrantOfInstant(uint32_t out, uint8_t vc);

    Time m_grantsAt{Time::Min()};                  ///< the instant of m_grantsOfInstant
    std::vector<GrantOfInstant> m_grantsOfInstant; ///< grants made at m_grantsAt
    std::vector<NeighborType> m_neighbor;    ///< what each port reaches
    std::vector<bool> m_inTree;              ///< broadcast tree ports
    std::vector<Mac48Address> m_endpointUla; ///< ULA of the endpoint on each port
    std::vector<bool> m_assigned;            ///< that ULA was assigned by this switch

    /// A route: destination, output port and distance.
    struct Route
    {
        uint64_t ula;     ///< destination ULA (Key())
        uint16_t port;    ///< output port
        uint8_t distance; ///< hops to the destination
    };

    /// \param ula a Key() \return the index in m_routeKeys of its route, or where it would go
    std::size_t RoutePlace(uint64_t ula) const;
    /// \param ula a Key() \param[out] route its route, if any \return true if there is one
    bool FindRoute(uint64_t ula, Route& route) const;
    /// \param route added, or replacing the route to the same ULA
    void PutRoute(const Route& route);
    /// \param ula a Key() whose route, if any, is removed
    void EraseRoute(uint64_t ula);
    /// \param i an index from RoutePlace() \param ula a Key() \return true if the route
    /// there is the one to \p ula
    bool IsRouteTo(std::size_t i, uint64_t ula) const;
    /// \param i index of a route \return that route
    Route RouteAt(std::size_t i) const;

    /// Routes sorted by ULA, each packed in 8 bytes: the ULA (Key()) in the upper 48 bits,
    /// the output port in the lower 16 (a fabric of 1024 endpoints keeps a route to each
    /// endpoint in every switch; a node-based hash map took about 40 bytes a route).
    std::vector<uint64_t> m_routeKeys;
    std::vector<uint8_t> m_routeDistances; ///< hops to each destination of m_routeKeys
    std::array<uint64_t, size_t(GsnSwitchDropReason::COUNT)> m_drops{}; ///< drops by reason
    uint64_t m_adminErrors; ///< malformed or unroutable Admin

    // Attributes
    Time m_latency;                    ///< cut-through latency
    bool m_broadcastCapable;           ///< replicates broadcast Messages
    Mac48Address m_address;            ///< element address
    Mac48Address m_initialAddress;     ///< the configured element address (Reset restores it)
    bool m_discovery;                  ///< run discovery at start
    Time m_discoveryStart;             ///< when the first round runs
    Time m_discoveryInterval;          ///< time between rounds
    uint32_t m_discoveryMaxRounds;     ///< rounds at most
    uint32_t m_discoveryQuietRounds;   ///< unchanged rounds that end discovery
    DiscoveryMethod m_discoveryMethod; ///< how discovery fills the table

    /// A probe of the current sweep, waiting for its response.
    struct Probe
    {
        MapElement found;         ///< what is known of the element before the answer
        bool answered{false};     ///< the response came
        GsnAdminPayload response; ///< the response
    };

    std::vector<MapElement> m_sweepMap; ///< the map of the sweep under way
    std::vector<MapElement> m_map;      ///< the map of the last complete sweep
    std::map<uint32_t, Probe> m_probes; ///< probes of the current level, by transaction
    uint32_t m_probesPending;           ///< of them, not answered yet
    bool m_sweeping;                    ///< a sweep is under way

    GsnAdminRegisters m_registers; ///< Admin registers
    uint32_t m_nextTransaction;    ///< transaction id of the next request
    uint32_t m_resets;             ///< re-initialisations
    uint32_t m_discoveryRounds;    ///< rounds run
    uint32_t m_quietRounds;        ///< rounds in a row without change
    bool m_discoveryChanged;       ///< the table changed in the current round
    bool m_discoveryComplete;      ///< a round changed nothing
    EventId m_discoveryEvent;      ///< next round

    TracedCallback<uint32_t, uint32_t, uint8_t, Mac48Address> m_forwardTrace;         ///< forwarded
    TracedCallback<uint32_t, uint8_t, Mac48Address, GsnSwitchDropReason> m_dropTrace; ///< drops
    TracedCallback<uint32_t, const GsnAdminPayload&> m_adminTrace; ///< Admin seen here
};

} // namespace ns3

#endif /* GSN_SWITCH_H */
