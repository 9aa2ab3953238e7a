/*
 * st-driver.h: what the blocking Bypass API needs from its environment: a clock, a way to
 * send an operation, a way to wait for the next received one until a deadline, and name
 * resolution. An adaptation implements it (ns-3, Linux raw sockets, an in-memory loopback
 * in tests); the engine itself never waits. Interface only. Plain C++17, no ns-3 header.
 */
#ifndef ST_DRIVER_H
#define ST_DRIVER_H

#include "st-event.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace st
{

/// Where a name resolution started by StDriver::ResolveStart stands.
enum class StResolveState : uint8_t
{
    Resolved,   ///< the address is known (written to the output)
    InProgress, ///< asked on the network: call again after the stack's next progress
    Unknown,    ///< cannot be resolved
};

/**
 * \brief The environment a StBypassStack runs in.
 */
class StDriver
{
  public:
    virtual ~StDriver() = default;

    /// Current time in nanoseconds (any epoch, never going back).
    virtual uint64_t Now() = 0;

    /// Put one operation on the wire (to t.peer, on VC t.vc).
    virtual void Send(const StTransmit& t) = 0;

    /**
     * \brief Wait for the next received ST operation.
     * \param deadlineNs give up at this time (ST_NEVER: wait as long as it takes)
     * \param[out] from the sender
     * \param[out] bytes the operation (exact length)
     * \return true if an operation arrived, false at the deadline
     */
    virtual bool Wait(uint64_t deadlineNs, StPeerAddress& from, std::vector<uint8_t>& bytes) = 0;

    /**
     * \brief Resolve a host name or address string (st_connect's hostname).
     * \return false if unknown
     */
    virtual bool Resolve(const char* hostname, StPeerAddress& out) = 0;

    /**
     * \brief Resolve without waiting: st_connect's path when resolution takes a network
     *        exchange (HARP on GSN). The first call may start a request and answer
     *        InProgress; later calls with the same name answer how it ended. A driver that
     *        resolves at once keeps this default.
     */
    virtual StResolveState ResolveStart(const char* hostname, StPeerAddress& out)
    {
        return Resolve(hostname, out) ? StResolveState::Resolved : StResolveState::Unknown;
    }

    /**
     * \brief Resolve a service name (st_listen's and st_connect's service) to its ST (IANA)
     *        port: a simulation's name table, a host's services database. Decimal numbers
     *        never get here. A driver without names keeps this default.
     * \return false if unknown
     */
    virtual bool ResolveService(const char* /* service */, uint16_t& /* port */)
    {
        return false;
    }
};

} // namespace st
} // namespace ns3

#endif /* ST_DRIVER_H */
