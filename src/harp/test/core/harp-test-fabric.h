// harp-test-fabric.h: a tiny discrete-event "fabric" for the HARP engine tests. It owns the
// fake clock, delivers frames between the engines of several nodes after a fixed delay (with or
// without broadcast), honours each engine's PollTimeout, can stop and restart nodes and lose
// chosen frames, and records events and a trace of every frame. Test-only.
#ifndef HARP_TEST_FABRIC_H
#define HARP_TEST_FABRIC_H

#include "harp-client.h"
#include "harp-server.h"
#include "harp-test-util.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harp
{
namespace test
{

/// An event and when it was reported.
struct TimedEvent
{
    TimeNs time; //!< When.
    Event event; //!< What.
};

/// A frame on its way, or sent.
struct Delivery
{
    TimeNs sentAt{0};           //!< When it was sent.
    std::size_t from{0};        //!< Sending node.
    std::size_t to{0};          //!< Receiving node.
    Ula destination;            //!< Destination ULA as sent.
    std::vector<uint8_t> bytes; //!< The HARP body.
};

/// Nodes with HARP engines on one fabric.
class TestFabric
{
  public:
    /**
     * \param broadcast the fabric delivers frames for FF:FF:FF:FF:FF:FF to every node
     * \param delay one-way delay of every frame
     */
    explicit TestFabric(bool broadcast, TimeNs delay = 10 * kMicrosecond);

    /// Adds a node (no engine yet): a host without HARP if it stays so. Returns its index.
    std::size_t AddNode(Ula ula);
    /// Puts a client on a node (config.ula is set to the node's ULA). Not started.
    void AddClient(std::size_t node, ClientConfig config);
    /// Puts a server on a node (config.ula is set to the node's ULA).
    void AddServer(std::size_t node, ServerConfig config);

    Client& GetClient(std::size_t node);
    Server& GetServer(std::size_t node);
    Ula GetUla(std::size_t node) const;

    /// Starts a node's client now.
    void Start(std::size_t node);
    /// Starts every client.
    void StartAll();
    /// The node goes down: frames to it are lost, its timers stop.
    void Stop(std::size_t node);
    /// The node comes back with fresh engines (same configuration; empty tables); its client
    /// is started.
    void Restart(std::size_t node);

    /// Resolve on a node's client now (as an adapter would), then drain its output.
    std::optional<Ula> Resolve(std::size_t node, Ipv4 ip);
    /// AddStatic on a node's client now.
    bool AddClientStatic(std::size_t node, Ipv4 ip, Ula ula);

    /// Runs every delivery and timer up to and including end; the clock ends at end.
    void RunUntil(TimeNs end);
    /// RunUntil(Now() + duration).
    void RunFor(TimeNs duration);
    TimeNs Now() const;

    /// Events a node reported, in order.
    const std::vector<TimedEvent>& GetEvents(std::size_t node) const;
    /// Events of one type a node reported.
    std::vector<TimedEvent> GetEvents(std::size_t node, EventType type) const;
    /// Forgets the recorded events of every node.
    void ClearEvents();

    /// Every frame sent, in order.
    const std::vector<Delivery>& GetSent() const;
    /// One line per frame sent: time, sender, destination, bytes. Equal traces = equal runs.
    const std::vector<std::string>& GetTrace() const;
    /// Frames sent with this operation since the start.
    std::size_t CountSent(Op op) const;

    /// Decides whether a frame is lost (called once per receiving node). Empty: no loss.
    std::function<bool(const Delivery&)> loss;
    uint64_t delivered{0}; //!< Frames handed to a node.
    uint64_t lost{0};      //!< Frames lost (loss, node down, unknown ULA, no broadcast).

  private:
    struct Node
    {
        Ula ula;
        bool up{true};
        std::optional<ClientConfig> clientConfig;
        std::optional<ServerConfig> serverConfig;
        std::unique_ptr<Client> client;
        std::unique_ptr<Server> server;
        std::vector<TimedEvent> events;
    };

    void Drain(std::size_t node);
    void Transmit(std::size_t from, const Frame& frame);
    void Enqueue(Delivery delivery);
    void Deliver(const Delivery& delivery);
    void FireTimer(std::size_t node);
    TimeNs NextTimer(std::size_t node) const;

    bool m_broadcast;
    TimeNs m_delay;
    TimeNs m_now{0};
    uint64_t m_sequence{0};
    std::vector<Node> m_nodes;
    std::map<std::pair<TimeNs, uint64_t>, Delivery> m_queue;
    std::vector<Delivery> m_sent;
    std::vector<std::string> m_trace;
};

} // namespace test
} // namespace harp

#endif // HARP_TEST_FABRIC_H
