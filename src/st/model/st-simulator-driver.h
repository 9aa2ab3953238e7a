/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StSimulatorDriver: the StDriver of the ns-3 adaptation, the environment the Bypass API's
 * StBypassStack runs in: the simulation clock, sending through the node's StProtocol, and
 * waiting. Received frames never pass through it (StProtocol feeds the engine as they
 * arrive), so Wait only lets simulated time go by: outside Simulator::Run, when blocking
 * calls are allowed, it runs the simulator until the stack made progress or the deadline
 * came; inside an event it cannot wait and stops the program with a message naming the
 * event-driven equivalent (StBypassApi). It owns no protocol state.
 */
#ifndef ST_SIMULATOR_DRIVER_H
#define ST_SIMULATOR_DRIVER_H

#include "ns3/event-id.h"
#include "ns3/ptr.h"
#include "ns3/st-driver.h"

#include <functional>
#include <string>

namespace ns3
{

class StProtocol;

/**
 * \ingroup st
 * \brief The ns-3 StDriver: simulated time, the node's devices, and blocking outside Run.
 */
class StSimulatorDriver : public st::StDriver
{
  public:
    /// \param protocol the node's ST protocol (not owned)
    explicit StSimulatorDriver(StProtocol* protocol);
    ~StSimulatorDriver() override;

    /// \return Simulator::Now() in nanoseconds
    uint64_t Now() override;

    /// Hand one operation to the protocol, which puts it on a device.
    /// \param t the operation
    void Send(const st::StTransmit& t) override;

    /**
     * Let simulated time go by until \p deadlineNs or until the stack made progress.
     * Never returns a frame: the protocol feeds received frames to the engine itself.
     * A deadline not in the future is a look without waiting (false at once). Otherwise
     * blocking calls must be allowed (SetBlockingAllowed) and the simulator must not be
     * running; when no event is left and there is no deadline, the call could never return
     * and the program stops with a message.
     * \param deadlineNs give up at this time
     * \param from unused
     * \param bytes unused
     * \return false
     */
    bool Wait(uint64_t deadlineNs, st::StPeerAddress& from, std::vector<uint8_t>& bytes) override;

    /**
     * Resolve st_connect's host name: a dotted IPv4 address, or a name of the node's
     * StNameTable (then the global one), resolved to a device and MAC through the
     * protocol's synchronous resolver.
     * \param hostname e.g. "10.1.1.2" or "server"
     * \param out the engine's peer address
     * \return false if it is not an IPv4 address or does not resolve now
     */
    bool Resolve(const char* hostname, st::StPeerAddress& out) override;

    /**
     * Resolve st_connect's host name without waiting (StProtocol::ResolvePeerStart): through
     * HARP when HarpHelper::ResolveStPeers wired it in.
     * \param hostname e.g. "10.1.1.2" or a name of the StNameTable
     * \param out the engine's peer address when resolved
     * \return where the resolution stands (Unknown if neither an address nor a known name)
     */
    st::StResolveState ResolveStart(const char* hostname, st::StPeerAddress& out) override;

    /**
     * Resolve a service name through the node's StNameTable, then the global one.
     * \param service the name \param[out] port its ST port \return false if unknown
     */
    bool ResolveService(const char* service, uint16_t& port) override;

    /// The stack made progress (a frame or a timer was processed): end a blocking wait.
    void NotifyProgress();

    /**
     * Allow the blocking routines (st_connect, st_accept, st_rx, st_flush, st_close,
     * st_delete) to run the simulator. Only for code that runs outside Simulator::Run,
     * such as a scenario's main(); inside events use StBypassApi. Default: false.
     * \param allowed true to allow
     */
    static void SetBlockingAllowed(bool allowed);

    /// \return whether blocking routines may run the simulator
    static bool IsBlockingAllowed();

    /// What a blocking routine does when it may not wait or could never return.
    using WaitFailureHandler = std::function<void(const std::string& message)>;

    /**
     * Replace the program stop (NS_FATAL_ERROR) of a blocking routine that may not wait
     * (blocking not allowed, or inside another blocking wait) or that could never return (no
     * event left): the handler gets the message and throws, so that the routine ends with
     * that exception. The Python bindings install one that raises RuntimeError. If the
     * handler returns, the program still stops.
     * \param handler the handler (empty: the program stops, the default)
     */
    static void SetWaitFailureHandler(WaitFailureHandler handler);

    /// Parse a dotted IPv4 address strictly ("a.b.c.d", each 0..255).
    /// \param text the text \param[out] out the address bits \return false if malformed
    static bool ParseIpv4(const char* text, uint32_t& out);

  private:
    /// A blocking wait failed: the handler's exception, or the program stops.
    /// \param message what went wrong and what to do instead
    [[noreturn]] static void Fail(const std::string& message);
    /// \param hostname an address or a name \param[out] bits the IPv4 address \return found
    bool HostAddress(const char* hostname, uint32_t& bits) const;

    /// The deadline came: stop the nested run.
    void DeadlineReached();

    StProtocol* m_protocol; //!< the node's protocol
    bool m_waiting;         //!< inside Wait's Simulator::Run
    bool m_progress;        //!< progress was notified during the wait
    EventId m_deadline;     //!< the stop event of the current wait
};

} // namespace ns3

#endif /* ST_SIMULATOR_DRIVER_H */
