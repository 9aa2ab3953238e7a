// harp-client.h: the HARP client engine of one interface (RFC 2835 §5): broadcast detection,
// registration with the servers of its LIS, the operational phase, resolution with retries,
// re-registration, cache revalidation and static entries. It owns no socket, no timer and no
// clock: time and frames come in through its methods; frames to send, the next wake-up time
// and events for the layer above go out through PollTransmit, PollTimeout and PollEvent.
#ifndef HARP_CLIENT_H
#define HARP_CLIENT_H

#include "harp-cache.h"
#include "harp-config.h"
#include "harp-event.h"
#include "harp-message.h"
#include "harp-stats.h"
#include "harp-time.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace harp
{

/**
 * \ingroup harp
 * \brief HARP client of one interface (IP address + ULA on one LIS).
 *
 * How an adapter drives it: call Start(now) when the interface comes up; pass every received
 * HARP body to HandleFrame; call HandleTimeout(now) when the time returned by PollTimeout()
 * arrives; call Resolve(now, ip) for every packet to send. After each of these calls, send
 * every frame PollTransmit() gives, act on every event PollEvent() gives, and re-arm a single
 * timer at PollTimeout() (absolute time; nothing means no timer). A Resolve miss returns
 * nothing: hold the packet until a Resolved or Unresolvable event for that address.
 */
class Client
{
  public:
    /// How this client sees a configured server.
    enum class ServerStatus : uint8_t
    {
        Unknown, //!< Never answered.
        Alive,   //!< Answered our last (re-)registration: used for resolution.
        Dead,    //!< Stopped answering re-registration: not used.
    };

    /// State of one configured server.
    struct ServerInfo
    {
        Ula ula;                                    //!< Its ULA (configured).
        Ipv4 address;                               //!< Its IP address (learned from InARP reply).
        ServerStatus status{ServerStatus::Unknown}; //!< Status.
        bool awaiting{false};                       //!< A re-registration is outstanding.
        uint32_t attempts{0};                       //!< Re-registration attempts so far.
        TimeNs deadline{kNever};                    //!< End of the current attempt.
    };

    /**
     * \brief A client in the Idle phase, with the configured static entries installed.
     * \param config the configuration (servers listed twice count once)
     */
    explicit Client(ClientConfig config);

    /**
     * \brief Starts the broadcast self-test, or goes straight to the configured mode.
     * Does nothing if already started.
     * \param now current time
     */
    void Start(TimeNs now);

    /**
     * \brief Processes one received HARP body.
     * \param now current time
     * \param source link-level source ULA of the frame
     * \param data the ARP body (LLC/SNAP already removed)
     * \param size its length
     */
    void HandleFrame(TimeNs now, const Ula& source, const uint8_t* data, std::size_t size);

    /**
     * \brief Processes one received HARP body.
     * \param now current time
     * \param source link-level source ULA of the frame
     * \param bytes the ARP body
     */
    void HandleFrame(TimeNs now, const Ula& source, const std::vector<uint8_t>& bytes);

    /**
     * \brief Runs every timer that is due at now.
     * \param now current time
     */
    void HandleTimeout(TimeNs now);

    /**
     * \brief Resolves an IP address of the LIS for sending.
     *
     * A hit returns the ULA (own address, static or dynamic entry, or the broadcast ULA for
     * IP broadcast/multicast on a broadcast fabric). A miss returns nothing and starts one
     * resolution for that address (further misses send nothing more); its outcome comes as a
     * Resolved or Unresolvable event. Addresses outside the LIS fail at once (Unresolvable
     * event, OutsideLis): they must be reached through a router.
     * \param now current time
     * \param ip the next-hop address
     * \return the ULA on a hit
     */
    std::optional<Ula> Resolve(TimeNs now, Ipv4 ip);

    /**
     * \brief Looks an address up in the local table only: no side effect, nothing sent.
     * \param ip the address
     * \return the ULA if the table holds it
     */
    std::optional<Ula> Lookup(Ipv4 ip) const;

    /**
     * \brief Adds or replaces a static entry (gsnarp -s). A resolution in progress for that
     *        address completes with a Resolved event.
     * \param ip a host address of the LIS, not our own
     * \param ula a unicast ULA
     * \return false (nothing changed) if ip or ula is not acceptable
     */
    bool AddStatic(Ipv4 ip, Ula ula);

    /**
     * \brief Removes a static entry (gsnarp -d).
     * \param ip the address
     * \return true if a static entry was removed
     */
    bool RemoveStatic(Ipv4 ip);

    /** \return the next frame to send, if any */
    std::optional<Frame> PollTransmit();

    /** \return the absolute time at which HandleTimeout must be called, if any */
    std::optional<TimeNs> PollTimeout() const;

    /** \return the next event for the layer above, if any */
    std::optional<Event> PollEvent();

    /** \return the current phase */
    Phase GetPhase() const;

    /** \return whether the fabric broadcasts, once known */
    std::optional<bool> IsBroadcastFabric() const;

    /** \return the configured servers and how this client sees them */
    const std::vector<ServerInfo>& GetServers() const;

    /** \return the local HARP table */
    const Cache& GetCache() const;

    /** \return the counters */
    const Stats& GetStats() const;

    /** \return the configuration */
    const ClientConfig& GetConfig() const;

    /** \return number of resolutions and revalidations in progress */
    std::size_t GetPendingCount() const;

  private:
    /// A resolution or revalidation in progress.
    struct Pending
    {
        bool revalidation{false};          //!< Revalidating a cache entry.
        uint32_t attempts{0};              //!< Attempts so far, the current one included.
        TimeNs deadline{kNever};           //!< End of the current attempt.
        bool sent{false};                  //!< The current attempt went out.
        std::optional<std::size_t> server; //!< Server the current attempt went to.
    };

    /// Routes a decoded message to its handler. \return what became of it
    RxOutcome Dispatch(TimeNs now, const Ula& source, const Message& message);
    /// Our own probe coming back, or (broadcast fabric) a request for our address.
    RxOutcome OnArpRequest(TimeNs now, const Ula& source, const Message& message);
    /// The answer to a resolution or revalidation.
    RxOutcome OnArpReply(TimeNs now, const Ula& source, const Message& message);
    /// A server answering our (re-)registration.
    RxOutcome OnInArpReply(TimeNs now, const Ula& source, const Message& message);
    /// A server saying an address cannot be resolved.
    RxOutcome OnNak(const Ula& source, const Message& message);

    /// \return true if sha/spa can name one host
    bool IsUsableSender(const Message& message) const;
    /// \return true if operational on a broadcast fabric
    bool IsBroadcastOperational() const;
    /// \return the index of a configured server, if ula is one
    std::optional<std::size_t> FindServer(const Ula& ula) const;
    /// \return the live server to ask, starting from the preferred one
    std::optional<std::size_t> PickServer();
    /// \return true if at least one server is alive
    bool AnyServerAlive() const;
    /// \return true while InARP requests are retransmitted every registrationRetry
    bool IsRegistering() const;

    /// Records the outcome of the self-test (or the forced mode) and moves on.
    void SetFabric(TimeNs now, bool broadcast);
    /// Changes phase, reporting it.
    void EnterPhase(Phase phase);
    /// Enters the registration phase and sends InARP requests at once.
    void EnterRegistration(TimeNs now);
    /// Enters the operational phase and sends the requests that were waiting.
    void EnterOperational(TimeNs now);

    /// Sends one broadcast self-test probe.
    void SendProbe();
    /// Sends an InARP request to one server.
    void SendInArp(std::size_t server);
    /// Sends the InARP requests of the registration retransmission.
    void SendRegistrations();
    /// Starts a re-registration round with every server.
    void Reregister(TimeNs now);
    /// Queues a frame.
    void Send(const Ula& destination, const Message& message);
    /// Queues an event.
    void Emit(const Event& event);
    /// Queues an event about an address.
    void Report(EventType type, Ipv4 ip, const Ula& ula, FailReason reason);

    /// Starts a resolution (or revalidation) of ip.
    void StartPending(TimeNs now, Ipv4 ip, bool revalidation);
    /// Sends the current attempt of a resolution, if requests can go out now.
    void SendPending(Ipv4 ip, Pending& pending);
    /// Sends the attempts that could not go out before the operational phase.
    void FlushUnsentPending(TimeNs now);
    /// Ends a resolution with a mapping.
    void CompletePending(TimeNs now, Ipv4 ip, const Ula& ula);
    /// Ends a resolution without a mapping.
    void FailPending(Ipv4 ip, FailReason reason);
    /// Ends every resolution without a mapping.
    void FailAllPending(FailReason reason);

    /// Timer: self-test probes and decision.
    void RunDetection(TimeNs now);
    /// Timer: re-registration retransmissions and dead servers.
    void RunServerDeadlines(TimeNs now);
    /// Timer: resolution retransmissions and failures.
    void RunPendingDeadlines(TimeNs now);
    /// Timer: 15-minute revalidation or removal of dynamic entries.
    void RunCacheExpiry(TimeNs now);

    ClientConfig m_config;               //!< Configuration.
    Phase m_phase{Phase::Idle};          //!< Current phase.
    std::optional<bool> m_broadcast;     //!< Fabric broadcasts, once known.
    std::vector<ServerInfo> m_servers;   //!< Configured servers, in configuration order.
    std::size_t m_preferred{0};          //!< Server tried first for resolution.
    Cache m_cache;                       //!< Local HARP table.
    std::map<Ipv4, Pending> m_pending;   //!< Resolutions and revalidations in progress.
    uint32_t m_probesSent{0};            //!< Broadcast probes sent.
    TimeNs m_detectionNext{kNever};      //!< Next probe, or the decision.
    TimeNs m_registrationNext{kNever};   //!< Next InARP retransmission (Registration).
    TimeNs m_reregistrationNext{kNever}; //!< Next re-registration (Operational).
    std::deque<Frame> m_transmit;        //!< Frames to send.
    std::deque<Event> m_events;          //!< Events to report.
    Stats m_stats;                       //!< Counters.
};

} // namespace harp

#endif // HARP_CLIENT_H
