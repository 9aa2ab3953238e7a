/*
 * st-connection.h: one ST virtual connection: its state machine (CLOSED, RC_SENT, CONNECTED,
 * RD_SENT, DA_SENT), the negotiated parameters, slot accounting in both directions, its
 * Bufx/Mx table, and every data movement running on it (single-use write and read, persistent
 * regions with PUT/GET/FETCHOP, END/EA, RS/RSR) with their timers and retries.
 * It does not demultiplex (the endpoint finds the connection and checks the verification
 * tuple), owns no socket and no clock: time comes in as nanoseconds, operations go out through
 * the endpoint's queues. Plain C++17, no ns-3 header.
 */
#ifndef ST_CONNECTION_H
#define ST_CONNECTION_H

#include "st-config.h"
#include "st-counters.h"
#include "st-event.h"
#include "st-header.h"
#include "st-memory-region.h"
#include "st-status.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief Connection states [C] IRIX-impl (st-protocol-reference.rst, "Sequences in short"). LISTEN
 * belongs to listeners.
 */
enum class StConnState : uint8_t
{
    Closed,
    Listen,
    RcSent,
    Connected,
    RdSent,
    DaSent,
};

/// Name of a connection state.
const char* StConnStateName(StConnState s);

/// The kinds of RS/RSR [C] IRIX-impl (st-protocol-reference.rst, "Field use per operation").
enum class StStateKind : uint8_t
{
    Slots = 1,    //!< @32 = 0xFFFFFFFF: slots only
    Transfer = 2, //!< @28 = 0xFFFFFFFF: state of a transfer (B_seq)
    Block = 3,    //!< @28 = a block: did it arrive?
};

/**
 * \brief Where a connection puts what it produces: the endpoint's queues and counters.
 */
struct StEngineContext
{
    const StConfig* config{nullptr};      //!< endpoint configuration
    StCounters* counters{nullptr};        //!< endpoint counters
    std::deque<StTransmit>* tx{nullptr};  //!< operations to send
    std::deque<StEvent>* events{nullptr}; //!< events for the upper layer
};

/**
 * \brief Options of a single-use write.
 */
struct StWriteOptions
{
    int dataVc{-1};     //!< data channel, -1 = the connection's
    int sendState{-1};  //!< S on the RTS (final RSR): -1 = config, 0 = no, 1 = yes
    uint32_t opaque{0}; //!< Opaque word of the DATA ops (0 = the transfer id)
    /// T_len unlimited (ST_TLEN_UNLIMITED, Table 1-9): the source sends block after block,
    /// cycling over its memory [linear, linear + len), until End() on either side
    bool unlimited{false};
};

/**
 * \brief One ST virtual connection.
 */
class StConnection
{
  public:
    /**
     * \param id local handle
     * \param ctx the endpoint's queues
     * \param peer address of the peer
     * \param localPort our ST port
     * \param localKey our key (never 0)
     * \param params what we advertise
     */
    StConnection(StConnId id,
                 StEngineContext ctx,
                 StPeerAddress peer,
                 uint16_t localPort,
                 uint32_t localKey,
                 const StConnParams& params);

    // --- setup and teardown -------------------------------------------------------------
    /**
     * \brief Send RC for the service on port \p service (initiator): to Port 0 naming the
     *        service in the ULP-Port field (StConfig::rcToPortZero), or to \p service itself.
     */
    void StartConnect(uint64_t now, uint16_t service);
    /**
     * \brief Accept a received RC (responder): take the peer's parameters and send CA.
     * \param service the port of the listener the RC asked for
     */
    void Accept(uint64_t now, const StHeader& rc, uint16_t service);
    /**
     * \brief Answer a duplicate RC with the CA sent before (while connected).
     * \return false, and nothing is sent, unless this side accepted the connection
     */
    bool ResendCa(uint64_t now);
    /// Begin the teardown (RD), aborting every transfer.
    StStatus Close(uint64_t now);

    // --- memory -------------------------------------------------------------------------
    /// The Bufx/Mx table.
    StMemoryTable& GetMemory()
    {
        return m_memory;
    }

    /// Post memory (mapped RX) to receive the next single-use write (answers an RTS).
    StStatus PostReceive(uint64_t now, uint64_t linear, uint64_t len);
    /// Post memory (mapped TX) holding data for the next read the peer asks for (RTR).
    StStatus PostSend(uint64_t now, uint64_t linear, uint64_t len);
    /// Post memory (mapped RX) to expose as a persistent region for the next RMR.
    StStatus ExposeRegion(uint64_t now, uint64_t linear, uint64_t len);

    // --- data movements (initiator side) --------------------------------------------------
    /// Single-use write of local memory (mapped TX): RTS, then DATA per CTS.
    StStatus Write(uint64_t now,
                   uint64_t linear,
                   uint64_t len,
                   const StWriteOptions& opt,
                   uint32_t& id);
    /// Single-use read into local memory (mapped RX): RTR; the peer then writes.
    StStatus Read(uint64_t now, uint64_t linear, uint64_t len, uint32_t& id);
    /// Ask the peer to expose a persistent region of \p len bytes (RMR).
    StStatus RequestRegion(uint64_t now, uint64_t len, uint32_t& id);
    /**
     * \brief PUT local memory (mapped TX) at \p regionOffset of remote region \p region.
     *
     * A Put is one data operation, one STU [C] SEED-GSN: a Put longer than GetPutLimit(),
     * or one whose bytes would cross a Bufx entry of the peer (a second STU), is refused
     * with PutTooLarge and counted (StStat::PutsRefused); nothing is sent.
     */
    StStatus Put(uint64_t now,
                 uint32_t region,
                 uint64_t regionOffset,
                 uint64_t linear,
                 uint64_t len);
    /// GET \p len bytes (< 2^16) at \p regionOffset of remote region \p region into local memory.
    StStatus Get(uint64_t now,
                 uint32_t region,
                 uint64_t regionOffset,
                 uint64_t linear,
                 uint64_t len,
                 uint32_t& gid);
    /// FETCHOP (increment/decrement/clear) on the 8 bytes at \p regionOffset; old value to local.
    StStatus FetchOp(uint64_t now,
                     uint32_t region,
                     uint64_t regionOffset,
                     uint64_t linear,
                     StFetchOp op,
                     uint32_t& gid);
    /// END: release a region or abort a transfer named by its local id.
    StStatus End(uint64_t now, uint32_t id);
    /// RS of the given kind; \p id is a local transfer id (kinds 2, 3), \p block for kind 3.
    StStatus RequestState(uint64_t now,
                          StStateKind kind,
                          uint32_t id,
                          uint32_t block,
                          uint32_t& sync);
    /// Bypass st_tx: send a ULP-built header (ports and key are filled in), with an optional
    /// payload (control ops) or \p dataLen bytes of local memory at \p linear (DATA, tiled).
    StStatus SendRaw(uint64_t now,
                     const StHeader& h,
                     const uint8_t* payload,
                     uint64_t dataLen,
                     uint64_t linear);

    // --- input and time -------------------------------------------------------------------
    /**
     * \brief Process an operation whose verification tuple the endpoint already checked.
     * \param data the whole frame (header + payload/data)
     * \param len its length
     * \return the verdict to count
     */
    StRxVerdict Receive(uint64_t now, const StHeader& h, const uint8_t* data, std::size_t len);
    /// Earliest time HandleTimeout has something to do (ST_NEVER if none).
    uint64_t NextDeadline() const;
    /// Run every timer due at \p now.
    void HandleTimeout(uint64_t now);
    /// The upper layer took a header that held a slot: the slot is free again.
    void ReleaseSlot(uint64_t now);

    // --- inspection -------------------------------------------------------------------------
    StConnId GetId() const
    {
        return m_id;
    } //!< local handle

    StConnState GetState() const
    {
        return m_state;
    } //!< state

    StPeerAddress GetPeer() const
    {
        return m_peer;
    } //!< peer address

    uint16_t GetLocalPort() const
    {
        return m_localPort;
    } //!< our port

    uint16_t GetRemotePort() const
    {
        return m_remotePort;
    } //!< peer's port (0 while an RC sent to Port 0 waits for its CA)

    /// Ports in our vector (ST_OPT_PORTLEN_LOCAL); ours are [GetLocalPort, + this).
    uint16_t GetLocalPortLen() const
    {
        return m_params.portLen;
    }

    /// Ports in the peer's vector (from its RC or CA); its are [GetRemotePort, + this).
    uint16_t GetRemotePortLen() const
    {
        return m_remotePortLen;
    }

    /// Is \p port one of ours? \param port a port \return true if in our vector
    bool IsLocalPort(uint16_t port) const
    {
        return port >= m_localPort && uint32_t(port) < uint32_t(m_localPort) + m_params.portLen;
    }

    /// Is \p port one of the peer's? \param port a port \return true if in its vector
    bool IsRemotePort(uint16_t port) const
    {
        return port >= m_remotePort && uint32_t(port) < uint32_t(m_remotePort) + m_remotePortLen;
    }

    /// The service's port: the listener's (responder) or the one asked for (initiator).
    uint16_t GetServicePort() const
    {
        return m_servicePort;
    }

    uint32_t GetLocalKey() const
    {
        return m_localKey;
    } //!< our key

    uint32_t GetRemoteKey() const
    {
        return m_remoteKey;
    } //!< peer's key

    const StConnParams& GetLocalParams() const
    {
        return m_params;
    } //!< what we advertise

    uint16_t GetRemoteSlots() const
    {
        return m_peerSlots;
    } //!< slots the peer advertised

    uint8_t GetRemoteBufsize() const
    {
        return m_peerBufsize;
    } //!< peer's Bufsize (log2)

    /// \return the peer's CTS_req (from RC/CA; 64 if it sent 0)
    uint16_t GetRemoteCtsReq() const
    {
        return m_peerCtsReq;
    }

    /// \return the peer's Max_STU (log2)
    uint8_t GetRemoteMaxStu() const
    {
        return m_peerMaxStu;
    } //!< peer's Max_STU (log2)

    /// The longest Put (one STU) this connection can send: 2^min(the peer's Max_STU and
    /// Bufsize, what the data channel carries), at most 2^48 - 1 [C] SEED-GSN Table 1-9.
    uint64_t GetPutLimit() const;

    uint16_t GetEtherType() const
    {
        return m_etherType;
    } //!< negotiated EtherType

    /// Slot-using headers we may still send (UINT32_MAX when the peer does no accounting).
    uint32_t GetTxSlotsLeft() const;

    /// Operations waiting for remote slots.
    std::size_t GetBlockedCount() const
    {
        return m_blocked.size();
    }

    /// Slot-using headers received and not yet reported free to the peer.
    uint32_t GetRxSlotsOutstanding() const
    {
        return m_rxOutstanding;
    }

    /// Headers sent on this connection (st_flush).
    uint64_t GetHeadersSent() const
    {
        return m_headersSent;
    }

    /// Number of data movements in progress (transfers, regions, GETs, pending ENDs/RSs).
    std::size_t GetActiveCount() const;
    /// Is the remote region \p id available (MRA received)?
    bool IsRegionReady(uint32_t id) const;

    /// May the endpoint forget this connection?
    bool IsGone(uint64_t now) const
    {
        return m_state == StConnState::Closed && now >= m_lingerUntil;
    }

    /// Did this side accept the connection (answer its RC with a CA)?
    bool IsResponder() const
    {
        return m_responder;
    }

    /// Is the connection in bypass mode?
    bool IsBypass() const
    {
        return m_params.bypass;
    }

    /// Local bufx/slot parameters may still change (before RC/CA)?
    bool IsNegotiated() const
    {
        return m_negotiated;
    }

    /// Replace the parameters before the connection is set up.
    StStatus SetParams(const StConnParams& p);

    /// Does the tuple (peer, remote port) with remote key \p key name this connection?
    bool Matches(StPeerAddress peer, uint16_t remotePort, uint32_t key) const
    {
        return m_peer == peer && m_remotePort == remotePort && m_remoteKey == key;
    }

  private:
    /// The CTS_req a peer's RC or CA field \p field asks for (0: 64, as IRIX). \return it
    static uint16_t PeerCtsReq(uint32_t field);
    /// The port vector a peer's RC or CA field \p field gives from \p base (0: one port).
    static uint16_t PeerPortLen(uint32_t field, uint16_t base);

    /// A request sent and waiting for its answer: resent after the op timeout.
    struct Retry
    {
        bool active{false};   //!< armed
        StHeader h;           //!< what to send again
        uint64_t deadline{0}; //!< when
        uint32_t retries{0};  //!< resends so far
    };

    /// Byte ranges received, merged.
    struct Coverage
    {
        std::map<uint64_t, uint64_t> ranges; //!< start -> end
        uint64_t covered{0};                 //!< bytes covered
        void Add(uint64_t start, uint64_t end);
    };

    /// We are the data source of a single-use transfer (write initiator or read responder).
    struct SendXfer
    {
        uint32_t id{0};          //!< our id (RTS @36)
        uint32_t peerId{0};      //!< destination's id (from CTS)
        uint32_t readId{0};      //!< the RTR's I_id for a read (RTS @32), 0 for a write
        uint64_t src{0};         //!< local linear address
        uint64_t len{0};         //!< T_len
        uint8_t vc{3};           //!< data channel
        bool sendState{true};    //!< S on the RTS and on the last STU
        uint32_t opaque{0};      //!< Opaque word of the DATA
        int blocksize{-1};       //!< log2, fixed by the first CTS
        bool paused{false};      //!< RA(R=0) received
        std::set<uint64_t> sent; //!< blocks sent at least once (not kept when unlimited)
        bool allSent{false};     //!< every block sent
        uint64_t ring{0};        //!< unlimited: source bytes cycled over (0: not unlimited)
        uint64_t moved{0};       //!< data bytes sent
        Retry rts;               //!< RTS waiting for CTS/RA
        Retry fin;               //!< waiting for the final RSR (resends RS kind 2)
    };

    /// We are the destination of a single-use transfer (write responder or read initiator).
    struct RecvXfer
    {
        uint32_t id{0};          //!< our id
        uint32_t peerId{0};      //!< source's id (RTS @36)
        uint64_t dst{0};         //!< local linear address
        uint64_t len{0};         //!< T_len
        uint16_t mx{0};          //!< Mx of the memory
        bool isRead{false};      //!< started by our RTR
        bool started{false};     //!< RTS bound
        uint8_t blocksize{0};    //!< log2
        uint64_t nBlocks{0};     //!< blocks
        uint64_t nextCts{0};     //!< next block to grant
        uint16_t ctsReq{64};     //!< CTS_req of the RTS
        uint64_t doneBlocks{0};  //!< blocks complete
        uint64_t bSeq{0};        //!< blocks 0..bSeq-1 complete (contiguous count)
        std::set<uint64_t> done; //!< complete blocks at or beyond bSeq
        uint64_t ring{0};        //!< unlimited: destination bytes the blocks cycle over
        uint64_t moved{0};       //!< data bytes received

        /// A granted block.
        struct Block
        {
            Coverage cov; //!< bytes received
            Retry cts;    //!< CTS resent if the block does not complete
        };

        std::map<uint64_t, Block> granted; //!< CTS sent, block not complete
        Retry rtr;                         //!< our RTR (read) waiting for RTS/RA
    };

    /// A region we expose (RMR responder).
    struct Region
    {
        uint32_t id{0};     //!< our R_id
        uint32_t peerId{0}; //!< initiator's I_id
        uint64_t linear{0}; //!< local start
        uint64_t len{0};    //!< bytes
        uint16_t mx{0};     //!< Mx
    };

    /// A region the peer exposes to us (RMR initiator).
    struct RemoteRegion
    {
        uint32_t id{0};     //!< our I_id
        uint32_t peerId{0}; //!< their R_id
        uint64_t len{0};    //!< bytes asked for
        bool ready{false};  //!< MRA received
        uint16_t mx{0};     //!< their Mx
        uint64_t linear{0}; //!< their start (in their Bufsize units)
        Retry rmr;          //!< RMR waiting for MRA/RA
    };

    /// A GET or FETCHOP we issued.
    struct GetOp
    {
        uint32_t id{0};                //!< G_id
        uint32_t region{0};            //!< local handle of the remote region
        uint64_t dst{0};               //!< local linear address
        uint64_t len{0};               //!< bytes
        StFetchOp op{StFetchOp::None}; //!< FETCHOP kind
        Coverage cov;                  //!< bytes received
        Retry get;                     //!< GET/FETCHOP waiting for DATA
    };

    /// A FETCHOP we answered and whose FC we wait for (responder).
    struct PendingFetch
    {
        StHeader req;                 //!< the FETCHOP
        uint64_t linear{0};           //!< local address of the 8 bytes
        StHeader data;                //!< the DATA sent (resent while no FC)
        std::array<uint8_t, 8> old{}; //!< the old value
        uint64_t deadline{0};         //!< resend time
        uint32_t resends{0};          //!< resends so far
        bool sent{false};             //!< DATA sent (false: queued behind another FETCHOP)
    };

    /// Memory the upper layer posted.
    struct Posted
    {
        uint64_t linear{0}; //!< start
        uint64_t len{0};    //!< bytes
        uint16_t mx{0};     //!< Mx (RX memory)
    };

    // sending
    void Send(uint64_t now, StHeader h, const uint8_t* data = nullptr, std::size_t len = 0);
    void Emit(uint64_t now, StHeader& h, const uint8_t* data, std::size_t len);
    void DrainBlocked(uint64_t now);
    bool SlotsAvailable(const StHeader& h) const;
    void AskSlots(uint64_t now);
    StHeader Make(StOp op) const;
    void Arm(Retry& r, uint64_t now, const StHeader& h);
    uint32_t NewId();
    void PushEvent(StEvent e);

    // state changes
    void Teardown(uint64_t now, StReason reason, bool sendRd);
    void AbortAll(StReason reason);
    void SetClosed(uint64_t now);

    // input, per op
    StRxVerdict OnCa(uint64_t now, const StHeader& h);
    StRxVerdict OnRd(uint64_t now, const StHeader& h);
    StRxVerdict OnDa(uint64_t now, const StHeader& h);
    StRxVerdict OnDc(uint64_t now, const StHeader& h);
    StRxVerdict OnRts(uint64_t now, const StHeader& h);
    StRxVerdict OnRtr(uint64_t now, const StHeader& h);
    StRxVerdict OnCts(uint64_t now, const StHeader& h);
    StRxVerdict OnRa(uint64_t now, const StHeader& h);
    StRxVerdict OnData(uint64_t now, const StHeader& h, const uint8_t* data, std::size_t len);
    StRxVerdict OnRmr(uint64_t now, const StHeader& h);
    StRxVerdict OnMra(uint64_t now, const StHeader& h);
    StRxVerdict OnGet(uint64_t now, const StHeader& h);
    StRxVerdict OnFetchOp(uint64_t now, const StHeader& h);
    StRxVerdict OnFc(uint64_t now, const StHeader& h);
    StRxVerdict OnEnd(uint64_t now, const StHeader& h);
    StRxVerdict OnEa(uint64_t now, const StHeader& h);
    StRxVerdict OnRs(uint64_t now, const StHeader& h);
    StRxVerdict OnRsr(uint64_t now, const StHeader& h);

    // data movement helpers
    void StartReceive(uint64_t now, const StHeader& rts, const Posted& mem);
    void StartSend(uint64_t now, const StHeader& rtr, const Posted& mem);
    /// Give posted buffers to paused requests (RTS for receive, RTR for send), in order.
    void MatchWaiting(uint64_t now,
                      std::deque<StHeader>& waiting,
                      std::deque<Posted>& posted,
                      void (StConnection::*start)(uint64_t, const StHeader&, const Posted&));
    void GrantBlocks(uint64_t now, RecvXfer& x);
    void SendCts(uint64_t now, RecvXfer& x, uint64_t block);
    void SendBlock(uint64_t now, SendXfer& x, uint64_t block, const StHeader& cts);
    void SendTiled(uint64_t now,
                   StHeader tmpl,
                   uint64_t remoteLinear,
                   const uint8_t* src,
                   uint64_t len,
                   bool lastGetsL,
                   uint16_t extraLastFlags,
                   bool silentButLast);
    void SendRsr(uint64_t now,
                 const StHeader& rs,
                 uint32_t bSeq,
                 uint32_t bNum,
                 uint32_t dId,
                 uint32_t sId);
    void CompleteSend(uint64_t now, uint32_t id);
    void ServeFetch(uint64_t now, PendingFetch& pf);
    void StartNextFetch(uint64_t now, uint64_t linear);
    void Reject(uint64_t now, const StHeader& req, uint32_t reqId, bool pause);
    bool SeenFetch(uint32_t gid) const;
    uint64_t StuLimit(uint8_t channel) const;
    uint8_t ChannelMaxStu(uint8_t channel) const;
    uint8_t AdvertisedMaxStu() const;
    StStatus IssueGet(uint64_t now,
                      uint32_t region,
                      uint64_t regionOffset,
                      uint64_t linear,
                      uint64_t len,
                      StFetchOp op,
                      uint32_t& gid);
    uint32_t BSeqField(const RecvXfer& x) const;
    void TimeoutRetry(uint64_t now, Retry& r, bool& teardown);

    StConnId m_id;                            //!< local handle
    StEngineContext m_ctx;                    //!< endpoint queues
    const StConfig& m_cfg;                    //!< endpoint configuration
    StPeerAddress m_peer;                     //!< peer address
    uint16_t m_localPort;                     //!< our port
    uint16_t m_remotePort{0};                 //!< their port
    uint16_t m_servicePort{0};                //!< the service's port (see GetServicePort)
    uint16_t m_remotePortLen{1};              //!< the peer's port vector
    uint32_t m_localKey;                      //!< our key
    uint32_t m_remoteKey{0};                  //!< their key
    StConnParams m_params;                    //!< what we advertise
    bool m_negotiated{false};                 //!< RC/CA exchanged or sent
    StConnState m_state{StConnState::Closed}; //!< state
    uint64_t m_lingerUntil{0};                //!< forget after this time once closed

    uint16_t m_peerSlots{0};      //!< slots the peer advertised
    uint8_t m_peerBufsize{14};    //!< peer's Bufsize
    uint8_t m_peerMaxStu{24};     //!< peer's Max_STU
    uint16_t m_peerCtsReq{64};    //!< peer's CTS_req from RC/CA (RTS may override per transfer)
    uint16_t m_etherType{0};      //!< negotiated EtherType
    bool m_peerOutOfOrder{false}; //!< O flag of the peer

    StMemoryTable m_memory; //!< Bufx/Mx table

    // slots, sending side
    bool m_txSlotsUnlimited{false}; //!< the peer advertised 0xFFFF
    uint32_t m_txSlots{0};          //!< slot-using headers we may still send

    /// An operation waiting for slots: its header, its data, or how many zero bytes of
    /// memory without bytes it carries.
    struct Blocked
    {
        StHeader h;                //!< the header
        std::vector<uint8_t> data; //!< its data (copied)
        std::size_t zeros{0};      //!< or its length, from memory without bytes
    };

    std::deque<Blocked> m_blocked;     //!< waiting for slots
    bool m_slotRsOut{false};           //!< an RS (slots kind) is outstanding
    uint64_t m_starvedSince{ST_NEVER}; //!< when we started waiting for slots
    uint64_t m_slotPollAt{ST_NEVER};   //!< when to ask again
    std::set<uint32_t> m_rsrAwaited;   //!< Sync values an RSR may echo
    uint16_t m_sync{0};                //!< last Sync sent (16-bit counter)
    uint64_t m_headersSent{0};         //!< headers emitted

    // slots, receiving side
    uint32_t m_rxOutstanding{0}; //!< slot-using headers the peer still counts against us
    uint32_t m_rxFreed{0};       //!< slots freed since the last RSR

    // setup/teardown
    Retry m_rc;              //!< RC waiting for CA
    Retry m_rd;              //!< RD waiting for DA
    Retry m_da;              //!< DA waiting for DC
    bool m_crossing{false};  //!< RDs crossed: we also wait for a DA
    bool m_gotDc{false};     //!< crossing: DC for our DA received
    StHeader m_ca;           //!< the CA we sent (for duplicate RCs)
    bool m_responder{false}; //!< we accepted the connection (and sent m_ca)

    uint32_t m_nextId{1};                       //!< next transfer id
    std::map<uint32_t, SendXfer> m_sends;       //!< by our id
    std::map<uint32_t, RecvXfer> m_recvs;       //!< by our id
    std::map<uint32_t, Region> m_regions;       //!< exposed, by our id
    std::map<uint32_t, RemoteRegion> m_remote;  //!< used, by our id
    std::map<uint32_t, GetOp> m_gets;           //!< by G_id
    std::map<uint32_t, PendingFetch> m_fetches; //!< responder, by G_id
    std::deque<uint32_t> m_fetchDone;           //!< responder: G_ids whose FC came
    std::deque<uint32_t> m_fetchGot;            //!< initiator: G_ids whose DATA came
    std::map<uint32_t, StHeader> m_fetchFc;     //!< initiator: the FC sent, by G_id
    std::map<uint32_t, Retry> m_ends;           //!< END waiting for EA, by our id
    std::map<uint32_t, Retry> m_rs;             //!< RS waiting for RSR, by Sync
    std::set<uint32_t> m_userRs;                //!< RS Syncs the upper layer asked for
    std::map<uint32_t, StHeader> m_rsrSent;     //!< last RSR per RS Sync (duplicates)
    std::deque<Posted> m_postedRecv;            //!< memory for the next RTS
    std::deque<Posted> m_postedSend;            //!< data for the next RTR
    std::deque<Posted> m_postedRegion;          //!< memory for the next RMR
    std::deque<StHeader> m_waitingRts;          //!< paused RTSs
    std::deque<StHeader> m_waitingRtr;          //!< paused RTRs
};

} // namespace st
} // namespace ns3

#endif /* ST_CONNECTION_H */
