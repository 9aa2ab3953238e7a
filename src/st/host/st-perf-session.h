/*
 * st-perf-session.h: one managed ST connection of the test programs on a host stack: set up
 * as client (Connect) or server (Listen, accept one), its events queued for the program,
 * blocking waits with a deadline (the stack's pump), and memory mapped for the connection.
 * The engine runs the sequences (RTS/CTS/DATA, RTR, RMR/MRA, GET, FETCHOP); the program
 * calls StConnection. It owns the connection's memory and event queue.
 */
#ifndef ST_PERF_SESSION_H
#define ST_PERF_SESSION_H

#include "st-bypass-stack.h"
#include "st-host-stack.h"

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief A managed connection for the test programs.
 */
class StPerfSession : public StEventSink
{
  public:
    /// A session on \p host; every wait gives up after \p timeoutNs without progress.
    StPerfSession(StHostStack& host, uint64_t timeoutNs);
    ~StPerfSession() override;

    /**
     * \brief Connect to \p port of \p hostname (IPv4 address, name or MAC).
     * \param[out] error what failed
     * \return 0 or an errno value (EHOSTUNREACH, ECONNREFUSED, ETIMEDOUT, EMSGSIZE ...)
     */
    int Connect(const std::string& hostname, uint16_t port, std::string& error);

    /**
     * \brief Wait for one connection on \p port (listening from \p Listen).
     * \param timeoutNs how long (ST_NEVER: for ever)
     * \return 0, or ETIMEDOUT
     */
    int Accept(uint16_t port, uint64_t timeoutNs);

    /// Start listening on \p port (before Accept; stays on for the next Accept).
    int Listen(uint16_t port, std::string& error);

    /// The connection (after Connect or Accept).
    StConnection& Conn();

    /// The stack's current time (ns).
    uint64_t Now();

    /**
     * \brief Take the next event of the connection, waiting for it.
     * \return false when the session's timeout passed without one
     */
    bool NextEvent(StEvent& e);

    /// Run the stack until \p done() holds; false at the timeout (measured from the call).
    bool WaitUntil(const std::function<bool()>& done);

    /// The connection is closed (ConnectionClosed came, or there is none).
    bool IsClosed() const
    {
        return m_closed;
    }

    /**
     * \brief Map \p len bytes of fresh memory for the connection.
     * \param flags StMemoryTable::PIN_TX | PIN_RX
     * \param[out] linear the engine's linear address of its first byte
     * \return the memory (owned by the session), or nullptr
     */
    uint8_t* Map(std::size_t len, int flags, uint64_t& linear);

    /// Close (RD/DA/DC) and wait until the connection is gone.
    void Close();

    /// An event the engine routed to this connection.
    void OnEvent(const StEvent& e) override;

    /// The host stack.
    StHostStack& Host()
    {
        return m_host;
    }

  private:
    /// Take the connection \p id.
    void Bind(StConnId id);

    StHostStack& m_host;                              //!< the stack
    uint64_t m_timeoutNs;                             //!< per wait
    StConnId m_conn{0};                               //!< 0 = none
    bool m_closed{true};                              //!< no live connection
    std::deque<StEvent> m_events;                     //!< for NextEvent
    std::vector<std::unique_ptr<uint8_t[]>> m_memory; //!< mapped blocks
    uint64_t m_nextLinear{0};                         //!< where the next mapping goes
};

} // namespace st
} // namespace ns3

#endif /* ST_PERF_SESSION_H */
