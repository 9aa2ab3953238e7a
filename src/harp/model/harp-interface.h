/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HarpInterface: the HARP engines of one GSN interface of a node (a harp::Client, and a
 * harp::Server where configured) and their glue to ns-3: the simulator clock and one timer,
 * HARP frames to and from the GsnNetDevice (LLC/SNAP EtherType 0x0806), loopback of frames to
 * its own ULA, and the answer to ns-3's ARP, so that IPv4 resolves next hops through HARP and
 * no Ethernet ARP reaches the GSN wire. It makes no protocol decision: the engines do.
 */
#ifndef HARP_INTERFACE_H
#define HARP_INTERFACE_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/harp-broadcast-emulator.h"
#include "ns3/harp-client.h"
#include "ns3/harp-config.h"
#include "ns3/harp-event.h"
#include "ns3/harp-server.h"
#include "ns3/harp-stats.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <vector>

namespace ns3
{

class ArpCache;
class GsnNetDevice;
class Ipv4Interface;
class Node;

/**
 * \ingroup harp
 * \brief Counters of the ns-3 adaptation of one interface (the engines keep their own).
 */
struct HarpAdapterCounters
{
    uint64_t rxFrames{0};               ///< HARP frames received from the device
    uint64_t txFrames{0};               ///< HARP frames handed to the device
    uint64_t txRefused{0};              ///< HARP frames the device refused
    uint64_t loopedBack{0};             ///< frames to the interface's own ULA, delivered locally
    uint64_t arpRequestsIntercepted{0}; ///< ns-3 ARP requests kept off the wire and asked to HARP
    uint64_t arpRepliesSuppressed{0};   ///< ns-3 ARP replies kept off the wire
    uint64_t arpUnreadable{0};          ///< intercepted 0x0806 packets without an ARP header
    uint64_t arpCacheFills{0};          ///< ns-3 ARP cache entries completed from HARP
    uint64_t arpCacheRetries{0};        ///< ns-3 ARP cache retries passed to HARP
    uint64_t arpCacheFlushes{0};        ///< ns-3 ARP cache entries removed because HARP did
    uint64_t arpUseNotices{0};          ///< HARP entries marked in use from ns-3's ARP cache
    /// datagrams IPv4 still held for an unresolved next hop when the interface was disposed
    /// (at the end of the run: Simulator::Destroy)
    uint64_t datagramsUnresolvedAtEnd{0};
    uint64_t nextHopsUnresolvedAtEnd{0}; ///< the next hops they waited for
};

/**
 * \ingroup harp
 * \brief A static entry as ns-3 addresses (gsnarp -s).
 */
struct HarpStaticEntry
{
    Ipv4Address ip;   ///< the host's IP address
    Mac48Address ula; ///< its ULA
};

/**
 * \ingroup harp
 * \brief The HARP engines of one GSN interface, driven by the simulator.
 *
 * Created by HarpProtocol::AddInterface. It follows the engine contract of harp.rst: every
 * received HARP frame goes to each running engine; one timer per interface calls
 * HandleTimeout; after each call the frames are sent (those to the interface's own ULA are
 * delivered locally, a moment later), the events acted upon and the timer re-armed.
 *
 * IPv4 over the interface uses ns-3's ArpL3Protocol with an ArpCache of this interface's own:
 * the cache's requests never reach the wire. ns-3's ARP request for the first packet to a next
 * hop is taken by a send interceptor on the GsnNetDevice and turned into a HARP resolution;
 * the cache's retries become resolutions too. When HARP resolves the address, the waiting
 * cache entry is completed and its queued packets leave. Unresolvable addresses get no answer:
 * ns-3's cache retries and then drops, as on a LAN. ns-3 refreshes an alive entry whenever a
 * packet comes from that neighbour, so it seldom asks again; at HARP's 15-minute mark an entry
 * whose ns-3 entry is alive and fresh counts as in use (it is revalidated, not removed), and
 * an entry HARP removes is removed from ns-3's cache too. The cache is not the one ns-3's ARP
 * receive path uses, so HARP frames reaching ns-3's ARP handler (it listens for 0x0806 on
 * every interface) can never fill it: only HARP decides what is resolved.
 *
 * Datagrams still waiting for a resolution when the interface is disposed (at
 * Simulator::Destroy) are counted (HarpAdapterCounters::datagramsUnresolvedAtEnd), and the
 * run ends with one warning on std::cerr naming how many there were: a run shorter than a
 * resolution, such as the 3-second self-test on a non-broadcast fabric, would otherwise
 * deliver nothing without a word.
 */
class HarpInterface : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    /// Outcome of an asynchronous resolution: the address, success, its ULA (zero on failure).
    typedef Callback<void, Ipv4Address, bool, Mac48Address> ResolveCallback;

    HarpInterface();
    ~HarpInterface() override;

    /**
     * \brief Binds the interface to its device and IPv4 interface and builds the engines.
     *        Called once, by HarpProtocol::AddInterface.
     * \param node the node
     * \param device the GSN endpoint device
     * \param ipInterface the IPv4 interface on \p device
     * \param client the client configuration
     * \param server the server configuration, if this interface runs a HARP server
     */
    void Setup(Ptr<Node> node,
               Ptr<GsnNetDevice> device,
               Ptr<Ipv4Interface> ipInterface,
               const harp::ClientConfig& client,
               const std::optional<harp::ServerConfig>& server);

    /// Starts the client (broadcast self-test, or the configured mode). Idempotent.
    void Start();

    /// \return the GSN device
    Ptr<GsnNetDevice> GetDevice() const;
    /// \return the IPv4 interface
    Ptr<Ipv4Interface> GetIpv4Interface() const;
    /// \return the ArpCache IPv4 uses on this interface (filled from HARP only)
    Ptr<ArpCache> GetArpCache() const;
    /// \return the interface's IP address (shared by IP and ST)
    Ipv4Address GetAddress() const;
    /// \return the mask of its LIS
    Ipv4Mask GetMask() const;
    /// \return the interface's ULA
    Mac48Address GetUla() const;
    /// \param ip an address \return true if \p ip is a host address of the interface's LIS
    bool IsInLis(Ipv4Address ip) const;

    /**
     * \brief Resolves a next hop of the LIS, as IPv4 does for each packet.
     *
     * A hit returns the ULA. A miss returns nothing and starts a resolution; its outcome fires
     * the Resolved or Unresolvable trace (and the callbacks of ResolveAsync).
     * \param ip the address
     * \return the ULA on a hit
     */
    std::optional<Mac48Address> Resolve(Ipv4Address ip);

    /**
     * \brief Resolves an address and reports the outcome through \p callback, always after
     *        this call returns (at the same simulated time on a hit).
     * \param ip the address
     * \param callback called once with the outcome
     */
    void ResolveAsync(Ipv4Address ip, ResolveCallback callback);

    /**
     * \param ip an address
     * \return the ULA the client's table holds for it (no side effect, nothing sent)
     */
    std::optional<Mac48Address> Lookup(Ipv4Address ip) const;

    /**
     * \brief Adds a static entry (gsnarp -s) to the client and, if running, the server.
     * \param ip a host address of the LIS
     * \param ula its ULA
     * \return true if an engine took it
     */
    bool AddStatic(Ipv4Address ip, Mac48Address ula);

    /**
     * \brief Removes a static entry (gsnarp -d) from the client and the server.
     * \param ip the address
     * \return true if an engine held one
     */
    bool RemoveStatic(Ipv4Address ip);

    /// \return true if this interface is configured to run a HARP server
    bool HasServer() const;
    /// \return true if the client is running
    bool IsClientRunning() const;
    /// \return true if the server is running
    bool IsServerRunning() const;

    /**
     * \brief Stops the HARP server (the daemon dies): it sends and answers nothing and loses
     *        its table. No effect without a server.
     */
    void StopServer();

    /**
     * \brief Starts the HARP server again with its configured state (harpd.options): static
     *        entries added at run time are lost, as with a restarted daemon.
     */
    void StartServer();

    /// \brief Stops the HARP client (the host goes silent): it sends and answers nothing.
    void StopClient();

    /// \brief Starts a fresh HARP client (the host comes back): a new self-test.
    void StartClient();

    /// \return the client engine (valid while the client runs)
    const harp::Client& GetClient() const;
    /// \return the server engine, or null if none is running
    const harp::Server* GetServer() const;
    /// \return the client's phase (Idle while stopped)
    harp::Phase GetPhase() const;
    /// \return the adaptation's counters
    const HarpAdapterCounters& GetCounters() const;

    /**
     * Whether IP broadcast and multicast are emulated on a non-broadcast fabric (RFC 2835
     * 7.1, PIBES; HarpProtocol's BroadcastEmulation). It starts once the client knows the
     * fabric does not broadcast and the LIS has a server.
     * \param enable true to emulate
     */
    void SetBroadcastEmulation(bool enable);
    /// \return whether the emulation runs now
    bool IsEmulatingBroadcast() const;
    /// \return what the emulation did
    const HarpBroadcastCounters& GetBroadcastCounters() const;

    /**
     * \brief Prints the HARP table of the client (and the server's) like gsnarp -a.
     * \param os where to print
     */
    void Print(std::ostream& os) const;

    /// TracedCallback signature of frames sent and received.
    typedef void (*FrameTracedCallback)(Ptr<const Packet> frame, Mac48Address peer);
    /// TracedCallback signature of dropped frames: frame, source, reason, dropped by the server.
    typedef void (*DropTracedCallback)(Ptr<const Packet> frame,
                                       Mac48Address source,
                                       harp::DropReason reason,
                                       bool byServer);
    /// TracedCallback signature of engine events: event, reported by the server.
    typedef void (*EventTracedCallback)(const harp::Event& event, bool byServer);
    /// TracedCallback signature of phase changes.
    typedef void (*PhaseTracedCallback)(harp::Phase oldPhase, harp::Phase newPhase);
    /// TracedCallback signature of successful resolutions.
    typedef void (*ResolvedTracedCallback)(Ipv4Address ip, Mac48Address ula);
    /// TracedCallback signature of failed resolutions.
    typedef void (*UnresolvableTracedCallback)(Ipv4Address ip, harp::FailReason reason);

  protected:
    void DoDispose() override;

  private:
    /// \return the simulator time in the engines' unit
    harp::TimeNs Now() const;
    /// The send interceptor of EtherType 0x0806: ns-3's ARP packets end here.
    bool InterceptArp(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber);
    /// The receive interceptor of EtherType 0x0806 on the device: every frame comes here.
    void ReceiveFromDevice(Ptr<const Packet> packet, Mac48Address from);
    /// Hands one frame to the running engines.
    void Deliver(Ptr<const Packet> frame, Mac48Address source);
    /// Fires the Drop trace for what an engine dropped between two snapshots of its stats.
    void TraceDrops(const harp::Stats& before,
                    const harp::Stats& after,
                    Ptr<const Packet> frame,
                    Mac48Address source,
                    bool byServer);
    /// The interface's timer.
    void HandleTimer();
    /// Sends frames, acts on events, re-arms the timer: after every call into an engine.
    void Drain();
    /// Sends one frame, or delivers it locally when it is for our own ULA.
    void Transmit(const harp::Frame& frame);
    /// Acts on one engine event.
    void HandleEvent(const harp::Event& event, bool byServer);
    /// Re-arms the timer at the earliest time an engine asks for.
    void RearmTimer();
    /// Before the 15-minute mark of HARP entries: those IPv4 still uses count as looked up.
    void NoteArpUse(harp::TimeNs now);
    /// ns-3's ARP wants ip: ask the client.
    void AskHarp(Ipv4Address ip);
    /// The ArpCache's retry callback.
    void ArpCacheRetry(Ptr<const ArpCache> cache, Ipv4Address ip);
    /// Completes (or refreshes) the ns-3 ARP cache entry of ip.
    void FillArpCache(Ipv4Address ip, Mac48Address ula);
    /// Removes the ns-3 ARP cache entry of ip unless it is waiting for HARP.
    void ForgetArpEntry(Ipv4Address ip);
    /// Start or stop the broadcast emulation as the client's knowledge of the fabric says.
    void UpdateBroadcastEmulation();
    /// Calls the ResolveAsync callbacks waiting for ip.
    void FinishWaiting(Ipv4Address ip, bool ok, Mac48Address ula);
    /// At disposal: counts (and discards) the datagrams ns-3's cache still holds for
    /// unresolved next hops, for the end-of-run warning.
    void CountUnresolvedAtEnd();
    /// Destroy event: one warning for the whole run if datagrams were left unresolved.
    static void ReportUnresolvedAtEnd();

    Ptr<Node> m_node;                                 ///< the node
    Ptr<GsnNetDevice> m_device;                       ///< the GSN device
    Ptr<Ipv4Interface> m_ipInterface;                 ///< IPv4 on the device
    Ptr<ArpCache> m_arpCache;                         ///< the cache IPv4 uses, filled from HARP
    harp::ClientConfig m_clientConfig;                ///< to (re)build the client
    std::unique_ptr<harp::Client> m_client;           ///< the client (null while stopped)
    std::optional<harp::ServerConfig> m_serverConfig; ///< set if this interface serves
    std::unique_ptr<harp::Server> m_server;           ///< the server (null while stopped)
    harp::Phase m_lastPhase{harp::Phase::Idle};       ///< for the PhaseChange trace
    bool m_emulateBroadcast{true};                    ///< SetBroadcastEmulation
    std::unique_ptr<HarpBroadcastEmulator> m_broadcastEmulator;    ///< PIBES on this interface
    EventId m_timer;                                               ///< the one timer
    harp::TimeNs m_timerAt{harp::kNever};                          ///< when it fires
    bool m_draining{false};                                        ///< inside Drain()
    std::map<Ipv4Address, std::vector<ResolveCallback>> m_waiting; ///< ResolveAsync callers
    std::set<Ipv4Address> m_arpAsked; ///< next hops ns-3's ARP asked HARP for
    HarpAdapterCounters m_counters;   ///< counters

    TracedCallback<Ptr<const Packet>, Mac48Address> m_txTrace;                           ///< Tx
    TracedCallback<Ptr<const Packet>, Mac48Address> m_rxTrace;                           ///< Rx
    TracedCallback<Ptr<const Packet>, Mac48Address, harp::DropReason, bool> m_dropTrace; ///< Drop
    TracedCallback<const harp::Event&, bool> m_eventTrace;                               ///< Event
    TracedCallback<harp::Phase, harp::Phase> m_phaseTrace;             ///< PhaseChange
    TracedCallback<Ipv4Address, Mac48Address> m_resolvedTrace;         ///< Resolved
    TracedCallback<Ipv4Address, harp::FailReason> m_unresolvableTrace; ///< Unresolvable
    TracedCallback<Ptr<const Packet>> m_arpInterceptTrace;             ///< ArpIntercepted
};

} // namespace ns3

#endif /* HARP_INTERFACE_H */
