/*
 * st-endpoint.h: the ST stack of one host interface: it owns the connections and the
 * listeners, decodes every received operation, demultiplexes it by key and checks the
 * verification tuple (remote port, local port, local key, peer), and gathers what the
 * connections produce (operations to send, events, the next wake-up time).
 * No socket, no clock, no thread: an adapter feeds it bytes and time and drains it.
 * Plain C++17, no ns-3 header.
 *
 * How an adapter drives it (the same loop in ns-3 and on Linux):
 *   1. on a received frame:  Receive(now, peer, bytes, len)
 *   2. after any call:       while (PollTransmit(t)) send t.bytes to t.peer on VC t.vc;
 *                            while (PollEvent(e)) hand e to the upper layer;
 *                            (re)arm one timer at PollTimeout() (ST_NEVER = none)
 *   3. when that timer fires: HandleTimeout(now), then step 2.
 */
#ifndef ST_ENDPOINT_H
#define ST_ENDPOINT_H

#include "st-config.h"
#include "st-connection.h"
#include "st-counters.h"
#include "st-event.h"
#include "st-status.h"

#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief An ST endpoint: connections, listeners, demultiplexing, output queues.
 */
class StEndpoint
{
  public:
    /// Build an endpoint with configuration \p config.
    explicit StEndpoint(const StConfig& config = StConfig());
    ~StEndpoint();
    StEndpoint(const StEndpoint&) = delete;
    StEndpoint& operator=(const StEndpoint&) = delete;

    /// The configuration.
    const StConfig& GetConfig() const
    {
        return m_config;
    }

    // --- connection management ---------------------------------------------------------
    /// Accept RCs for \p port with the endpoint's default parameters.
    StStatus Listen(uint16_t port);
    /// Accept RCs for \p port; accepted connections advertise \p params.
    StStatus Listen(uint16_t port, const StConnParams& params);
    /**
     * \brief The upper layer took accepted connection \p id (st_accept, a listener's
     *        callback): its slot in Port 0's queue (StConfig::port0Slots) is free again.
     */
    void Claim(StConnId id);

    /// Accepted connections the upper layer has not claimed yet.
    std::size_t GetUnclaimed() const
    {
        return m_unclaimed.size();
    }

    /// Stop accepting RCs for \p port (existing connections stay).
    StStatus Unlisten(uint16_t port);
    /// Is somebody listening on \p port?
    bool IsListening(uint16_t port) const;

    /**
     * \brief Open a connection: sends RC. ConnectionEstablished/Refused/Closed follows.
     * \param now current time (ns)
     * \param peer the peer's address
     * \param remotePort the port the peer listens on
     * \param params what we advertise (params.key = 0: the endpoint picks a key)
     * \param[out] id the new connection
     * \param localPort our port, 0 = pick one from the ephemeral range
     */
    StStatus Connect(uint64_t now,
                     StPeerAddress peer,
                     uint16_t remotePort,
                     const StConnParams& params,
                     StConnId& id,
                     uint16_t localPort = 0);

    /// Begin the teardown of connection \p id (RD).
    StStatus Close(uint64_t now, StConnId id);

    /// The connection \p id, or nullptr. Upper-layer data calls go straight to it.
    StConnection* Find(StConnId id);
    /// The connection \p id, or nullptr.
    const StConnection* Find(StConnId id) const;
    /// Ids of all connections (closed ones included until they are forgotten).
    std::vector<StConnId> GetConnections() const;

    // --- adapter interface -----------------------------------------------------------------
    /**
     * \brief A frame arrived.
     * \param now current time (ns)
     * \param from the sender's address
     * \param data the ST operation: 40-byte header, then payload/data (exact length)
     * \param len its length
     */
    void Receive(uint64_t now, StPeerAddress from, const uint8_t* data, std::size_t len);
    /// Take the next operation to send; false when there is none.
    bool PollTransmit(StTransmit& out);
    /// Earliest time HandleTimeout must run (ST_NEVER if no timer is armed).
    uint64_t PollTimeout() const;
    /// Run the timers due at \p now.
    void HandleTimeout(uint64_t now);
    /// Take the next event; false when there is none. Frees the slot a header held.
    bool PollEvent(StEvent& out);
    /**
     * \brief Take the next event, keeping the slot of a header until ReleaseSlot.
     * \param out the event
     * \param releaseSlot false: the caller queues the header (st_rx) and frees the slot later
     */
    bool PollEvent(StEvent& out, bool releaseSlot);
    /// The upper layer consumed a header that held a slot of connection \p id.
    void ReleaseSlot(StConnId id);

    /// Events waiting.
    std::size_t GetPendingEvents() const
    {
        return m_events.size();
    }

    /// Counters of the whole endpoint.
    const StCounters& GetCounters() const
    {
        return m_counters;
    }

  private:
    StRxVerdict Dispatch(uint64_t now,
                         StPeerAddress from,
                         const StHeader& h,
                         const uint8_t* data,
                         std::size_t len);
    StRxVerdict OnRc(uint64_t now, StPeerAddress from, const StHeader& h);
    void RefuseRc(StPeerAddress from, const StHeader& rc);
    uint32_t NewKey();
    uint8_t ChannelMaxStu(StPeerAddress peer, uint8_t channel) const;
    bool PortInUse(uint16_t port) const;
    /// The first of \p len free consecutive local ports from StConfig::ephemeralPortBase up,
    /// 0 if none.
    uint16_t FreePort(uint16_t len = 1) const;
    StConnection* Create(StPeerAddress peer,
                         uint16_t localPort,
                         uint32_t key,
                         const StConnParams& p);
    void Forget(uint64_t now);

    StConfig m_config;                                         //!< configuration
    StCounters m_counters;                                     //!< counters
    std::deque<StTransmit> m_tx;                               //!< operations to send
    std::deque<StEvent> m_events;                              //!< events to hand out
    std::map<StConnId, std::unique_ptr<StConnection>> m_conns; //!< by local handle
    std::map<uint32_t, StConnId> m_byKey;                      //!< local key -> handle
    std::map<uint16_t, StConnParams> m_listeners;              //!< port -> parameters
    std::set<StConnId> m_unclaimed; //!< accepted, not yet claimed: Port 0's slots in use
    StConnId m_nextConn{1};         //!< next local handle
    std::unique_ptr<std::random_device> m_random; //!< keys when config.keySource is empty
};

} // namespace st
} // namespace ns3

#endif /* ST_ENDPOINT_H */
