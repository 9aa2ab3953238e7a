/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StProtocol: the ns-3 adaptation of the ST engine, aggregated to a Node. It owns the node's
 * one ST endpoint (through the Bypass API's StBypassStack, so managed connections and Bypass
 * handles share it), attaches it to devices (EtherType 0x8181 through the node's protocol
 * handlers: GSN endpoints, CSMA Ethernet, any NetDevice), gives it the simulation clock and
 * one timer, resolves peers' IPv4 addresses to (device, MAC) through a pluggable resolver, and
 * turns what the engine does into attributes, trace sources and counters. It does not
 * implement the protocol: every ST rule is the engine's (src/st/core).
 */
#ifndef ST_PROTOCOL_H
#define ST_PROTOCOL_H

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/st-bypass-stack.h"
#include "ns3/st-config.h"
#include "ns3/st-endpoint.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace ns3
{

class Node;
class StSimulatorDriver;
class StBypassApi;

/**
 * \ingroup st
 * \brief Counters of the adaptation (the engine's own are in GetCounters()).
 */
struct StAdapterCounters
{
    uint64_t txFrames{0};      ///< operations handed to a device that accepted them
    uint64_t txRefused{0};     ///< operations a device refused (Send() returned false)
    uint64_t txNoRoute{0};     ///< operations for a peer with no known device/MAC
    uint64_t txLlcFramed{0};   ///< short DATA sent with 802.3 length + LLC/SNAP (Ethernet)
    uint64_t txBacklogged{0};  ///< operations that waited for room in a device queue
    uint64_t rxFrames{0};      ///< frames handed to the engine
    uint64_t rxOtherHost{0};   ///< frames for another host (ignored)
    uint64_t resolveFailed{0}; ///< peers whose IPv4 address did not resolve
};

/**
 * \ingroup st
 * \brief The Scheduled Transfer protocol of a node (one ST endpoint for all its devices).
 *
 * One endpoint serves every attached device: the engine's peer address is the pair
 * (interface index, MAC/ULA), so the engine's peer check also tells devices apart, and a
 * connection stays on the device it was made on. Upper layers name peers by IPv4 address
 * (ST shares the interface's IP address [C] SEED-GSN); the resolver maps it to the device
 * and MAC. The default resolver uses a static table (AddStaticEntry, filled for a whole
 * scenario by StHelper::PopulateStaticTables), then the node's ARP cache of that interface;
 * SetResolver / SetAsyncResolver plug in another (HARP on GSN).
 *
 * Every call into the engine is followed by Flush(): operations go to devices, events to
 * their callbacks, and the one timer is re-armed at the engine's next deadline.
 */
class StProtocol : public Object
{
  public:
    /// ST's EtherType (and LLC/SNAP type) [C] (st-protocol-reference.rst, "ST over GSN, Ethernet
    /// and other carriers").
    static constexpr uint16_t PROT_NUMBER = st::ST_ETHERTYPE;
    /// Smallest payload of an Ethernet frame: shorter frames are padded (IEEE 802.3).
    static constexpr uint32_t ETHERNET_MIN_PAYLOAD = 46;

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StProtocol();
    ~StProtocol() override;

    /// Events of one managed connection (or of every connection accepted on a port).
    typedef Callback<void, const st::StEvent&> EventCallback;
    /// Synchronous resolver: (device chosen for the peer, peer IPv4, [out] MAC) -> found.
    typedef Callback<bool, Ptr<NetDevice>, Ipv4Address, Address&> Resolver;
    /// Completion of an asynchronous resolution: (found, MAC).
    typedef Callback<void, bool, const Address&> ResolveDone;
    /// Asynchronous resolver (HARP): (device, peer IPv4, completion), completion called once.
    typedef Callback<void, Ptr<NetDevice>, Ipv4Address, ResolveDone> AsyncResolver;

    /// TracedCallback signature of operations sent and received.
    typedef void (*OpTracedCallback)(const st::StHeader& header, uint32_t length);
    /// TracedCallback signature of dropped or rejected received frames.
    typedef void (*RxDropTracedCallback)(Ptr<const Packet> frame, st::StRxVerdict verdict);
    /// TracedCallback signature of waits.
    typedef void (*WaitTracedCallback)(Time waited);
    /// TracedCallback signature of counts.
    typedef void (*CountTracedCallback)(uint64_t total);
    /// TracedCallback signature of events.
    typedef void (*EventTracedCallback)(const st::StEvent& event);

    /// \param node the node this protocol runs on
    void SetNode(Ptr<Node> node);
    /// \return the node
    Ptr<Node> GetNode() const;

    // --- devices and addresses ---------------------------------------------------------
    /**
     * Carry ST on \p device: register a protocol handler for EtherType 0x8181 on it.
     * \param device a device of this node
     * \param address the device's IPv4 address for ST; Any = the node's IPv4 address of the
     *        device (ST shares the interface's IP address)
     */
    void AddDevice(Ptr<NetDevice> device, Ipv4Address address = Ipv4Address::GetAny());
    /// \return the number of devices ST is attached to
    uint32_t GetNDevices() const;
    /// \param i index \return the i-th device ST is attached to
    Ptr<NetDevice> GetDevice(uint32_t i) const;
    /// \param device an attached device \return its ST (IPv4) address, Any if none
    Ipv4Address GetLocalAddress(Ptr<NetDevice> device) const;
    /// \return the ST (IPv4) address of the first attached device
    Ipv4Address GetLocalAddress() const;

    // --- resolution ---------------------------------------------------------------------
    /**
     * Add a static entry: \p peer is reached at \p mac (on the device whose subnet holds it,
     * or the first device).
     * \param peer IPv4 address
     * \param mac MAC-48 / ULA
     */
    void AddStaticEntry(Ipv4Address peer, const Address& mac);
    /// \param resolver replaces the synchronous default (static table, then ARP cache)
    void SetResolver(Resolver resolver);
    /// \param resolver used before the synchronous one when set (e.g. HARP)
    void SetAsyncResolver(AsyncResolver resolver);
    /**
     * The default resolver: the static table, then the ARP cache of \p device's IPv4
     * interface (entries alive, permanent or made by NeighborCacheHelper).
     * \param device the device \param peer the address \param[out] mac its MAC
     * \return true if found
     */
    bool DefaultResolve(Ptr<NetDevice> device, Ipv4Address peer, Address& mac);
    /**
     * Resolve \p peer now, with the synchronous resolver only.
     * \param peer the IPv4 address
     * \param[out] out the engine's peer address (interface index, MAC)
     * \return false if it does not resolve
     */
    bool ResolvePeer(Ipv4Address peer, st::StPeerAddress& out);
    /**
     * Resolve \p peer for the Bypass API's st_connect without waiting: with the synchronous
     * resolver if it knows the peer, else through the asynchronous resolver (HARP). The
     * first call starts the request and answers InProgress; when it ends the stack is
     * told (a blocking wait ends, StBypassApi checks again) and the next call answers.
     * \param peer the IPv4 address
     * \param[out] out the engine's peer address when Resolved
     * \return where the resolution stands
     */
    st::StResolveState ResolvePeerStart(Ipv4Address peer, st::StPeerAddress& out);
    /// \param id a connection \return its peer's IPv4 address (Any if unknown)
    Ipv4Address GetPeerAddress(st::StConnId id) const;

    /**
     * The largest STU (log2) \p device can carry in one frame: a GSN endpoint carries a
     * DATA of any size on its data VC; another device at most its MTU less the 40-byte
     * header (1500-byte Ethernet: 2^10).
     * \param device a device
     * \return log2 of the largest STU
     */
    static uint8_t GetMaxStuFor(Ptr<NetDevice> device);

    /**
     * The largest STU (log2) \p device carries on VC \p vc: on a GsnNetDevice, the
     * largest power of two whose DATA (40-byte header, LLC/SNAP) stays within the VC's
     * Message limit (MaxMessageBytesVc*); on another device GetMaxStuFor.
     * \param device a device
     * \param vc a GSN VC (= ST data channel)
     * \return log2 of the largest STU (0 also when not even one byte fits)
     */
    static uint8_t GetMaxStuFor(Ptr<NetDevice> device, uint8_t vc);

    /**
     * Use fixed random number streams for the keys of this node's connections.
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    // --- connection management (managed API) -----------------------------------------------
    /// \return the parameters Connect and Listen use by default (from the attributes), with
    /// Max_STU no larger than the smallest attached device carries (GetMaxStuFor)
    st::StConnParams GetDefaultParams();
    /**
     * Accept connections on \p port; their events (ConnectionEstablished with accepted, and
     * everything after) go to \p cb.
     * \param port ST port \param cb events \return Ok or PortInUse
     */
    st::StStatus Listen(uint16_t port, EventCallback cb);
    /// Same with explicit parameters. \param port port \param params what accepted
    /// connections advertise \param cb events \return status
    st::StStatus Listen(uint16_t port, const st::StConnParams& params, EventCallback cb);
    /// \param port stop accepting on it \return status
    st::StStatus Unlisten(uint16_t port);
    /**
     * Open a connection to \p port of \p peer (RC). The events of the connection go to
     * \p cb: ConnectionEstablished, ConnectionRefused (conn 0 when the peer's address did
     * not resolve), ConnectionClosed, then the data events.
     * \param peer the peer's IPv4 address
     * \param port the port it listens on
     * \param cb events
     * \param params what we advertise
     * \param[out] id the connection, or 0 while an asynchronous resolution is pending
     * \param localPort our port, 0 = ephemeral
     * \return Ok, or why not
     */
    st::StStatus Connect(Ipv4Address peer,
                         uint16_t port,
                         EventCallback cb,
                         const st::StConnParams& params,
                         st::StConnId* id = nullptr,
                         uint16_t localPort = 0);
    /// Connect with the default parameters. \param peer address \param port port \param cb
    /// events \param id [out] the connection \return status
    st::StStatus Connect(Ipv4Address peer,
                         uint16_t port,
                         EventCallback cb,
                         st::StConnId* id = nullptr);
    /// \param id connection \return status; begins RD/DA/DC
    st::StStatus Close(st::StConnId id);
    /// \param id connection \param cb its new event callback (e.g. an application takes over)
    void SetEventCallback(st::StConnId id, EventCallback cb);

    // --- data calls (each runs the engine, then Flush) ------------------------------------
    /// st_map on connection \p id. \param id connection \param flags PIN_TX|PIN_RX
    /// \param ptr memory \param len bytes \param bufx first Bufx \param[out] handle
    /// registration \param[out] mx Mx of RX memory \return status
    st::StStatus Map(st::StConnId id,
                     int flags,
                     uint8_t* ptr,
                     uint64_t len,
                     uint32_t bufx,
                     uint32_t& handle,
                     uint16_t& mx);
    /// \param id connection \param handle registration \return status
    st::StStatus Unmap(st::StConnId id, uint32_t handle);
    /// \param id connection \param bufx Bufx \param offset offset \return the linear address
    uint64_t Linear(st::StConnId id, uint32_t bufx, uint64_t offset = 0) const;
    /// \param id connection \param linear start \param len bytes \return status
    st::StStatus PostReceive(st::StConnId id, uint64_t linear, uint64_t len);
    /// \param id connection \param linear start \param len bytes \return status
    st::StStatus PostSend(st::StConnId id, uint64_t linear, uint64_t len);
    /// \param id connection \param linear start \param len bytes \return status
    st::StStatus ExposeRegion(st::StConnId id, uint64_t linear, uint64_t len);
    /// \param id connection \param linear source \param len bytes \param[out] tid transfer
    /// \param opt options \return status
    st::StStatus Write(st::StConnId id,
                       uint64_t linear,
                       uint64_t len,
                       uint32_t& tid,
                       const st::StWriteOptions& opt = st::StWriteOptions());
    /// \param id connection \param linear destination \param len bytes \param[out] tid
    /// transfer \return status
    st::StStatus Read(st::StConnId id, uint64_t linear, uint64_t len, uint32_t& tid);
    /// \param id connection \param len bytes \param[out] rid region \return status
    st::StStatus RequestRegion(st::StConnId id, uint64_t len, uint32_t& rid);
    /// \param id connection \param region remote region \param offset in it \param linear
    /// source \param len bytes \return status
    st::StStatus Put(st::StConnId id,
                     uint32_t region,
                     uint64_t offset,
                     uint64_t linear,
                     uint64_t len);
    /// \param id connection \param region remote region \param offset in it \param linear
    /// destination \param len bytes \param[out] gid GET id \return status
    st::StStatus Get(st::StConnId id,
                     uint32_t region,
                     uint64_t offset,
                     uint64_t linear,
                     uint64_t len,
                     uint32_t& gid);
    /// \param id connection \param region remote region \param offset of the word \param
    /// linear where the old value goes \param op operation \param[out] gid id \return status
    st::StStatus FetchOp(st::StConnId id,
                         uint32_t region,
                         uint64_t offset,
                         uint64_t linear,
                         st::StFetchOp op,
                         uint32_t& gid);
    /// \param id connection \param xid transfer or region \return status
    st::StStatus End(st::StConnId id, uint32_t xid);
    /// \param id connection \param kind RS kind \param xid transfer \param block block
    /// \param[out] sync Sync of the RS \return status
    st::StStatus RequestState(st::StConnId id,
                              st::StStateKind kind,
                              uint32_t xid,
                              uint32_t block,
                              uint32_t& sync);

    /// \param id a connection \return it (for inspection; after calling into it, Flush())
    st::StConnection* Find(st::StConnId id);

    // --- adapter ----------------------------------------------------------------------------
    /// Send what the engine produced, hand out its events, re-arm the timer.
    void Flush();
    /// \return the endpoint (created on first use from the attributes)
    st::StEndpoint& GetEndpoint();
    /// \return the Bypass stack that owns the endpoint
    st::StBypassStack& GetStack();
    /// \return the driver of the Bypass API
    StSimulatorDriver& GetDriver();
    /// \return the event-driven Bypass API of this node
    Ptr<StBypassApi> GetBypass();
    /// \return the engine's counters
    const st::StCounters& GetCounters();

    /// \return the adaptation's counters
    const StAdapterCounters& GetAdapterCounters() const
    {
        return m_adapter;
    }

    /**
     * Put one engine operation on its device (called by the driver).
     * \param t the operation
     */
    void SendOnWire(const st::StTransmit& t);

    /// \param ifIndex interface index \param mac address \return the engine's peer address
    static st::StPeerAddress MakePeer(uint32_t ifIndex, const Address& mac);

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    /// A device ST is attached to.
    struct Attachment
    {
        Ptr<NetDevice> device; ///< the device
        Ipv4Address address;   ///< explicit ST address (Any: from IPv4)
    };

    /// A connect waiting for an asynchronous resolution.
    struct PendingConnect
    {
        Ipv4Address peer;        ///< whom
        uint16_t port;           ///< remote port
        EventCallback cb;        ///< events
        st::StConnParams params; ///< parameters
        uint16_t localPort;      ///< our port
    };

    /// An operation waiting for room in its device queue.
    struct Backlogged
    {
        Ptr<Packet> packet; ///< the operation
        Address mac;        ///< destination
    };

    /// Key of a source transfer for CtsWait: (peer, our port, our id).
    typedef std::tuple<st::StPeerAddress, uint16_t, uint32_t> XferKey;

    st::StConfig BuildConfig();
    Ptr<UniformRandomVariable> KeyRng();
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType packetType);
    bool OnUnclaimed(const st::StEvent& e);
    void ArmTimer();
    void OnTimer();
    void Kick();
    Ptr<NetDevice> SelectDevice(Ipv4Address peer) const;
    Ptr<NetDevice> FindDevice(uint32_t ifIndex) const;
    st::StStatus StartConnect(const st::StPeerAddress& peer,
                              Ipv4Address ip,
                              uint16_t port,
                              EventCallback cb,
                              const st::StConnParams& params,
                              st::StConnId* id,
                              uint16_t localPort);
    void AsyncResolved(uint32_t key, bool ok, const Address& mac);
    void BypassResolved(Ipv4Address peer, bool ok, const Address& mac);
    /// Record \p mac as \p peer's address (reached on \p dev). \return the engine's address
    st::StPeerAddress LearnPeer(Ptr<NetDevice> dev, Ipv4Address peer, const Address& mac);
    void ConnectFailed(EventCallback cb);
    st::StStatus After(st::StStatus s);
    void TraceTx(const st::StTransmit& t);
    bool HasRoom(Ptr<NetDevice> dev, uint8_t vc, uint32_t bytes) const;
    void Transmit(Ptr<NetDevice> dev, Ptr<Packet> p, const Address& mac);
    void HookDrain(Ptr<NetDevice> dev);
    void Drain(uint32_t ifIndex);
    void TraceRx(st::StPeerAddress peer,
                 const uint8_t* data,
                 uint32_t len,
                 Ptr<const Packet> p,
                 const st::StCounters& before);

    // configuration (attributes)
    uint16_t m_slots;             ///< Slots
    uint8_t m_bufsize;            ///< Bufsize
    uint8_t m_maxStu;             ///< MaxStu
    uint8_t m_maxBlock;           ///< MaxBlock
    uint16_t m_ctsReq;            ///< CtsReq
    uint8_t m_dataVc;             ///< DataVc
    uint8_t m_channels;           ///< Channels
    uint8_t m_controlVc;          ///< ControlVc
    Time m_opTimeout;             ///< OpTimeout
    uint32_t m_maxRetries;        ///< MaxRetries
    Time m_fetchOpTimeout;        ///< FetchOpTimeout
    uint32_t m_fetchOpMaxResends; ///< FetchOpMaxResends
    Time m_slotWaitTimeout;       ///< SlotWaitTimeout
    Time m_slotPoll;              ///< SlotPoll
    uint32_t m_slotReserve;       ///< SlotReserve
    bool m_rsRsrUseSlots;         ///< RsRsrUseSlots
    bool m_earlyNotify;           ///< EarlyNotify
    bool m_sendState;             ///< SendState
    bool m_interrupt;             ///< Interrupt
    bool m_silentData;            ///< SilentData
    bool m_headerChecksum;        ///< HeaderChecksum
    bool m_ctsReqInRts;           ///< CtsReqInRts
    bool m_pauseWhenNoBuffer;     ///< PauseWhenNoBuffer
    uint16_t m_ephemeralPortBase; ///< EphemeralPortBase
    bool m_rcToPortZero;          ///< RcToPortZero
    uint16_t m_port0Slots;        ///< Port0Slots
    Time m_linger;                ///< Linger
    uint32_t m_rxFetchOpMemory;   ///< RxFetchOpMemory
    bool m_llcShortData;          ///< EthernetLlcShortData

    Ptr<UniformRandomVariable> m_keyRng;                  ///< source of connection keys
    Ptr<Node> m_node;                                     ///< our node
    std::vector<Attachment> m_devices;                    ///< attached devices
    std::unique_ptr<StSimulatorDriver> m_driver;          ///< the Bypass driver
    std::unique_ptr<st::StBypassStack> m_stack;           ///< the stack (owns the endpoint)
    Ptr<StBypassApi> m_bypass;                            ///< event-driven Bypass API
    std::map<st::StPeerAddress, Address> m_peerMac;       ///< engine peer -> MAC
    std::map<st::StPeerAddress, Ipv4Address> m_peerIp;    ///< engine peer -> IPv4 (if known)
    std::map<Ipv4Address, Address> m_static;              ///< static table
    Resolver m_resolver;                                  ///< synchronous resolver
    AsyncResolver m_asyncResolver;                        ///< asynchronous resolver
    std::map<uint32_t, PendingConnect> m_pendingConnects; ///< by key

    /// How a Bypass API resolution (ResolvePeerStart) stands.
    struct BypassResolution
    {
        bool done{false}; ///< the asynchronous resolver answered
        bool ok{false};   ///< ... with an address
        Address mac;      ///< ... this one
    };

    std::map<Ipv4Address, BypassResolution> m_bypassResolutions; ///< by peer
    uint32_t m_nextPendingKey;                                   ///< next key
    std::map<st::StConnId, EventCallback> m_managed;             ///< managed connections
    std::map<uint16_t, EventCallback> m_listenCbs;               ///< managed listeners
    EventId m_timer;                                             ///< the engine's timer
    uint64_t m_timerAt;                                          ///< when it fires (ns)
    bool m_flushing;                                             ///< inside Flush
    bool m_flushAgain;                                           ///< Flush called while flushing
    bool m_inTimer;                                              ///< inside OnTimer
    bool m_kickPending;                                          ///< a Kick is scheduled
    uint64_t m_lastSlotStalls;                                   ///< for the SlotStall trace
    std::map<XferKey, Time> m_lastXferOp;                        ///< CtsWait: last op of a source
    std::map<XferKey, uint32_t> m_peerIdToOurs; ///< CtsWait: (peer, port, R_id) -> ours
    StAdapterCounters m_adapter;                ///< adaptation counters
    std::map<std::pair<uint32_t, uint8_t>, std::deque<Backlogged>> m_backlog; ///< by (if, VC)
    std::map<uint32_t, bool> m_drainHooked; ///< PhyTxBegin connected (or not)
    std::map<uint32_t, Callback<void, Ptr<const Packet>>> m_drainCb; ///< what was connected
    std::map<uint32_t, EventId> m_drainEvent;   ///< scheduled Drain per interface
    std::map<uint32_t, uint16_t> m_hostProcess; ///< per GSN interface: process table entry

    TracedCallback<const st::StHeader&, uint32_t> m_txOpTrace;        ///< TxOp
    TracedCallback<const st::StHeader&, uint32_t> m_rxOpTrace;        ///< RxOp
    TracedCallback<Ptr<const Packet>, st::StRxVerdict> m_rxDropTrace; ///< RxDrop
    TracedCallback<uint64_t> m_slotStallTrace;                        ///< SlotStall
    TracedCallback<Time> m_ctsWaitTrace;                              ///< CtsWait
    TracedCallback<const st::StHeader&, uint32_t> m_retryTrace;       ///< Retry
    TracedCallback<const st::StEvent&> m_eventTrace;                  ///< Event
    TracedCallback<Ipv4Address> m_resolveFailedTrace;                 ///< ResolveFailed
};

} // namespace ns3

#endif /* ST_PROTOCOL_H */
