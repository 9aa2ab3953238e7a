/*
 * st-bypass-stack.cc: the pump that turns the event-driven engine into blocking calls
 * (see st-bypass-stack.h).
 */
#include "st-bypass-stack.h"

#include <algorithm>
#include <cerrno>

namespace ns3
{
namespace st
{

namespace
{
StBypassStack* g_defaultStack = nullptr;
StBypassStack::DefaultFactory g_defaultFactory = nullptr;
} // namespace

StBypassStack::StBypassStack(StDriver& driver, const StConfig& config)
    : m_driver(driver),
      m_endpoint(config)
{
}

void
StBypassStack::SetDefault(StBypassStack* stack)
{
    g_defaultStack = stack;
}

StBypassStack*
StBypassStack::GetDefault()
{
    return g_defaultStack;
}

void
StBypassStack::SetDefaultFactory(DefaultFactory factory)
{
    g_defaultFactory = factory;
}

StBypassStack*
StBypassStack::OpenDefault(int& error)
{
    if (g_defaultStack == nullptr && g_defaultFactory != nullptr)
    {
        // A failed attempt is tried again by the next call: the user may fix the cause.
        g_defaultStack = g_defaultFactory(error);
        return g_defaultStack;
    }
    if (g_defaultStack == nullptr)
    {
        error = ENOMEM;
    }
    return g_defaultStack;
}

void
StBypassStack::Bind(StConnId id, StEventSink* sink)
{
    if (sink == nullptr)
    {
        m_sinks.erase(id);
    }
    else
    {
        m_sinks[id] = sink;
        m_endpoint.Claim(id); // an accepted VC leaves Port 0's queue
        auto it = m_pending.find(id);
        if (it != m_pending.end())
        {
            std::deque<StEvent> early = std::move(it->second);
            m_pending.erase(it);
            for (const auto& e : early)
            {
                sink->OnEvent(e);
            }
        }
    }
}

void
StBypassStack::SetUnclaimedHandler(std::function<bool(const StEvent&)> handler)
{
    m_unclaimed = std::move(handler);
}

void
StBypassStack::Flush()
{
    StTransmit t;
    StEvent e;
    bool again = true;
    while (again)
    {
        again = false;
        while (m_endpoint.PollTransmit(t))
        {
            m_driver.Send(t);
        }
        while (m_endpoint.PollEvent(e, false))
        {
            again = true;
            auto it = m_sinks.find(e.conn);
            if (it != m_sinks.end())
            {
                it->second->OnEvent(e);
                continue;
            }
            if (m_unclaimed && m_unclaimed(e))
            {
                continue;
            }
            if (e.type == StEventType::ConnectionEstablished && e.accepted)
            {
                m_accepted[e.servicePort].push_back(e.conn);
                continue;
            }
            // Not claimed by st_accept yet: keep its events (and slots) for the handle.
            m_pending[e.conn].push_back(e);
        }
    }
}

bool
StBypassStack::Pump(uint64_t deadline, const std::function<bool()>& done)
{
    StPeerAddress from = 0;
    std::vector<uint8_t> bytes;
    uint64_t handledAt = ST_NEVER;
    for (;;)
    {
        Flush();
        if (done())
        {
            return true;
        }
        uint64_t now = m_driver.Now();
        if (now >= m_endpoint.PollTimeout() && now != handledAt)
        {
            handledAt = now; // once per instant, so a stuck timer cannot spin
            m_endpoint.HandleTimeout(now);
            continue;
        }
        if (now >= deadline)
        {
            // One look without waiting, so a zero timeout still sees what already arrived.
            if (m_driver.Wait(now, from, bytes))
            {
                m_endpoint.Receive(m_driver.Now(), from, bytes.data(), bytes.size());
                continue;
            }
            Flush();
            return done();
        }
        uint64_t next = m_endpoint.PollTimeout();
        uint64_t wake = std::min(deadline, next > now ? next : now + 1);
        if (m_driver.Wait(wake, from, bytes))
        {
            m_endpoint.Receive(m_driver.Now(), from, bytes.data(), bytes.size());
        }
    }
}

} // namespace st
} // namespace ns3
