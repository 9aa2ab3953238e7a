/*
 * st-bypass-stack.h: one ST endpoint run by a StDriver, with the blocking "pump" that the
 * Bypass API (st-bypass.h) is built on: send what the engine produced, route its events to
 * the Bypass handles, wait for input or the next timer, until a condition holds or a deadline
 * passes. It owns the endpoint and the routing of events; the C API owns the handles.
 * Plain C++17, no ns-3 header.
 */
#ifndef ST_BYPASS_STACK_H
#define ST_BYPASS_STACK_H

#include "st-driver.h"
#include "st-endpoint.h"

#include <deque>
#include <functional>
#include <map>

namespace ns3
{
namespace st
{

/**
 * \brief Where the stack delivers the events of one connection (a Bypass handle).
 */
class StEventSink
{
  public:
    virtual ~StEventSink() = default;
    /// An event of the connection this sink is bound to.
    virtual void OnEvent(const StEvent& e) = 0;
};

/**
 * \brief An StEndpoint driven by an StDriver, for blocking calls.
 */
class StBypassStack
{
  public:
    /// A stack on \p driver with configuration \p config.
    explicit StBypassStack(StDriver& driver, const StConfig& config = StConfig());

    /// The engine.
    StEndpoint& GetEndpoint()
    {
        return m_endpoint;
    }

    /// The driver.
    StDriver& GetDriver()
    {
        return m_driver;
    }

    /// Route the events of connection \p id to \p sink (nullptr: stop).
    void Bind(StConnId id, StEventSink* sink);

    /**
     * \brief Offer the events of connections no handle is bound to to \p handler first.
     *
     * An adapter that also runs connections of its own on the same endpoint (the ns-3
     * adaptation's managed API) takes its events here: \p handler returns true when it took
     * the event (and then frees the slot a header holds), false to let the stack keep it
     * for st_accept. An empty function removes the handler.
     */
    void SetUnclaimedHandler(std::function<bool(const StEvent&)> handler);

    /// Connections accepted on \p port and not yet claimed by st_accept.
    std::deque<StConnId>& Accepted(uint16_t port)
    {
        return m_accepted[port];
    }

    /// Send everything queued and route every event, without waiting.
    void Flush();

    /**
     * \brief Run the engine until \p done() holds or the driver's clock reaches \p deadline.
     * \return true if \p done() held
     */
    bool Pump(uint64_t deadline, const std::function<bool()>& done);

    /// The stack st_create uses when none is named (st_create_on names one).
    static void SetDefault(StBypassStack* stack);
    /// The default stack, or nullptr.
    static StBypassStack* GetDefault();

    /**
     * \brief How a program gets its default stack when nobody set one: the Linux library
     *        (libst) opens its raw socket only when the first st_create asks for it.
     * \param error[out] an errno value when no stack can be made (EPERM, ENODEV, ...)
     * \return the stack (kept as the default), or nullptr
     */
    using DefaultFactory = StBypassStack* (*)(int& error);
    /// Install \p factory (nullptr: none; st_create then fails with ENOMEM).
    static void SetDefaultFactory(DefaultFactory factory);
    /**
     * \brief The default stack, made by the factory on first use.
     * \param error[out] why there is none (ENOMEM when there is no factory either)
     */
    static StBypassStack* OpenDefault(int& error);

  private:
    StDriver& m_driver;                                  //!< environment
    StEndpoint m_endpoint;                               //!< the engine
    std::map<StConnId, StEventSink*> m_sinks;            //!< connection -> handle
    std::map<uint16_t, std::deque<StConnId>> m_accepted; //!< listener port -> new VCs
    std::map<StConnId, std::deque<StEvent>> m_pending;   //!< events of VCs not bound yet
    std::function<bool(const StEvent&)> m_unclaimed;     //!< the adapter's own connections
};

} // namespace st
} // namespace ns3

#endif /* ST_BYPASS_STACK_H */
