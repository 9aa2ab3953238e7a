// harp-test-fabric.cc: the test fabric (see harp-test-fabric.h).
#include "harp-test-fabric.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace harp
{
namespace test
{

TestFabric::TestFabric(bool broadcast, TimeNs delay)
    : m_broadcast(broadcast),
      m_delay(delay)
{
}

std::size_t
TestFabric::AddNode(Ula ula)
{
    Node node;
    node.ula = ula;
    m_nodes.push_back(std::move(node));
    return m_nodes.size() - 1;
}

void
TestFabric::AddClient(std::size_t node, ClientConfig config)
{
    config.ula = m_nodes.at(node).ula;
    m_nodes[node].clientConfig = config;
    m_nodes[node].client = std::make_unique<Client>(config);
}

void
TestFabric::AddServer(std::size_t node, ServerConfig config)
{
    config.ula = m_nodes.at(node).ula;
    m_nodes[node].serverConfig = config;
    m_nodes[node].server = std::make_unique<Server>(config);
}

Client&
TestFabric::GetClient(std::size_t node)
{
    return *m_nodes.at(node).client;
}

Server&
TestFabric::GetServer(std::size_t node)
{
    return *m_nodes.at(node).server;
}

Ula
TestFabric::GetUla(std::size_t node) const
{
    return m_nodes.at(node).ula;
}

void
TestFabric::Start(std::size_t node)
{
    if (m_nodes.at(node).client)
    {
        m_nodes[node].client->Start(m_now);
        Drain(node);
    }
}

void
TestFabric::StartAll()
{
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
    {
        Start(i);
    }
}

void
TestFabric::Stop(std::size_t node)
{
    m_nodes.at(node).up = false;
}

void
TestFabric::Restart(std::size_t node)
{
    Node& n = m_nodes.at(node);
    n.up = true;
    if (n.serverConfig)
    {
        n.server = std::make_unique<Server>(*n.serverConfig);
    }
    if (n.clientConfig)
    {
        n.client = std::make_unique<Client>(*n.clientConfig);
        Start(node);
    }
}

std::optional<Ula>
TestFabric::Resolve(std::size_t node, Ipv4 ip)
{
    auto result = GetClient(node).Resolve(m_now, ip);
    Drain(node);
    return result;
}

bool
TestFabric::AddClientStatic(std::size_t node, Ipv4 ip, Ula ula)
{
    const bool ok = GetClient(node).AddStatic(ip, ula);
    Drain(node);
    return ok;
}

TimeNs
TestFabric::Now() const
{
    return m_now;
}

const std::vector<TimedEvent>&
TestFabric::GetEvents(std::size_t node) const
{
    return m_nodes.at(node).events;
}

std::vector<TimedEvent>
TestFabric::GetEvents(std::size_t node, EventType type) const
{
    std::vector<TimedEvent> selected;
    for (const TimedEvent& event : m_nodes.at(node).events)
    {
        if (event.event.type == type)
        {
            selected.push_back(event);
        }
    }
    return selected;
}

void
TestFabric::ClearEvents()
{
    for (Node& node : m_nodes)
    {
        node.events.clear();
    }
}

const std::vector<Delivery>&
TestFabric::GetSent() const
{
    return m_sent;
}

const std::vector<std::string>&
TestFabric::GetTrace() const
{
    return m_trace;
}

std::size_t
TestFabric::CountSent(Op op) const
{
    return static_cast<std::size_t>(
        std::count_if(m_sent.begin(), m_sent.end(), [op](const Delivery& d) {
            return Decode(Frame{d.destination, d.bytes}).op == op;
        }));
}

void
TestFabric::Drain(std::size_t node)
{
    Node& n = m_nodes[node];
    if (n.client)
    {
        while (auto frame = n.client->PollTransmit())
        {
            Transmit(node, *frame);
        }
        while (auto event = n.client->PollEvent())
        {
            n.events.push_back(TimedEvent{m_now, *event});
        }
    }
    if (n.server)
    {
        while (auto frame = n.server->PollTransmit())
        {
            Transmit(node, *frame);
        }
        while (auto event = n.server->PollEvent())
        {
            n.events.push_back(TimedEvent{m_now, *event});
        }
    }
}

void
TestFabric::Transmit(std::size_t from, const Frame& frame)
{
    Delivery delivery;
    delivery.sentAt = m_now;
    delivery.from = from;
    delivery.destination = frame.destination;
    delivery.bytes = frame.bytes;
    m_sent.push_back(delivery);

    std::string line = std::to_string(m_now) + " " + std::to_string(from) + " -> " +
                       frame.destination.ToString() + " ";
    for (uint8_t byte : frame.bytes)
    {
        char hex[3];
        std::snprintf(hex, sizeof(hex), "%02x", byte);
        line += hex;
    }
    m_trace.push_back(line);

    if (frame.destination.IsBroadcast())
    {
        if (!m_broadcast)
        {
            ++lost;
            return;
        }
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
        {
            delivery.to = i;
            Enqueue(delivery);
        }
        return;
    }
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
    {
        if (m_nodes[i].ula == frame.destination)
        {
            delivery.to = i;
            Enqueue(delivery);
            return;
        }
    }
    ++lost;
}

void
TestFabric::Enqueue(Delivery delivery)
{
    if (loss && loss(delivery))
    {
        ++lost;
        return;
    }
    m_queue.emplace(std::make_pair(Later(m_now, m_delay), m_sequence++), std::move(delivery));
}

void
TestFabric::Deliver(const Delivery& delivery)
{
    Node& node = m_nodes[delivery.to];
    if (!node.up)
    {
        ++lost;
        return;
    }
    ++delivered;
    const Ula source = m_nodes[delivery.from].ula;
    if (node.client)
    {
        node.client->HandleFrame(m_now, source, delivery.bytes);
    }
    if (node.server)
    {
        node.server->HandleFrame(m_now, source, delivery.bytes);
    }
    Drain(delivery.to);
}

TimeNs
TestFabric::NextTimer(std::size_t node) const
{
    const Node& n = m_nodes[node];
    TimeNs next = kNever;
    if (!n.up)
    {
        return next;
    }
    if (n.client)
    {
        next = std::min(next, n.client->PollTimeout().value_or(kNever));
    }
    if (n.server)
    {
        next = std::min(next, n.server->PollTimeout().value_or(kNever));
    }
    return next;
}

void
TestFabric::FireTimer(std::size_t node)
{
    Node& n = m_nodes[node];
    // Both engines of a node share the adapter's timer, as in a real adapter.
    if (n.client)
    {
        n.client->HandleTimeout(m_now);
    }
    if (n.server)
    {
        n.server->HandleTimeout(m_now);
    }
    Drain(node);
    if (NextTimer(node) <= m_now)
    {
        throw std::logic_error("an engine asked to be woken at or before the current time");
    }
}

void
TestFabric::RunUntil(TimeNs end)
{
    for (uint64_t steps = 0;; ++steps)
    {
        if (steps > 10000000)
        {
            throw std::logic_error("test fabric: runaway simulation");
        }
        const TimeNs nextDelivery = m_queue.empty() ? kNever : m_queue.begin()->first.first;
        TimeNs nextTimer = kNever;
        std::size_t timerNode = 0;
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
        {
            const TimeNs t = NextTimer(i);
            if (t < nextTimer)
            {
                nextTimer = t;
                timerNode = i;
            }
        }
        const TimeNs next = std::min(nextDelivery, nextTimer);
        if (next == kNever || next > end)
        {
            break;
        }
        if (next < m_now)
        {
            throw std::logic_error("test fabric: time went backwards");
        }
        m_now = next;
        if (nextDelivery <= nextTimer)
        {
            const Delivery delivery = m_queue.begin()->second;
            m_queue.erase(m_queue.begin());
            Deliver(delivery);
        }
        else
        {
            FireTimer(timerNode);
        }
    }
    m_now = std::max(m_now, end);
}

void
TestFabric::RunFor(TimeNs duration)
{
    RunUntil(Later(m_now, duration));
}

} // namespace test
} // namespace harp
