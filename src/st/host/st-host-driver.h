/*
 * st-host-driver.h: the StDriver of the Linux adaptation, the environment the Bypass API's
 * StBypassStack runs in on a real host: CLOCK_MONOTONIC, frames out through the raw socket,
 * Wait blocking in epoll on the socket and a timerfd armed at the engine's next deadline,
 * and st_connect's host names resolved to MAC addresses (StNeighbourTable). It owns the
 * event loop; the socket and the table belong to the caller. No protocol state.
 */
#ifndef ST_HOST_DRIVER_H
#define ST_HOST_DRIVER_H

#include "st-driver.h"
#include "st-event-loop.h"
#include "st-neighbour-table.h"
#include "st-packet-socket.h"

#include <functional>
#include <map>
#include <string>

namespace ns3
{
namespace st
{

/**
 * \brief StDriver over an AF_PACKET socket, epoll and a timerfd.
 */
class StHostDriver : public StDriver
{
  public:
    /// How often a wait wakes up while a name is being resolved (the kernel's ARP).
    static constexpr uint64_t RESOLVE_POLL_NS = 2000000;

    /// A driver on \p socket (open) resolving through \p neighbours.
    StHostDriver(StPacketSocket& socket, StNeighbourTable& neighbours);

    /**
     * \brief Set up the event loop.
     * \param[out] error what failed
     * \return 0 or an errno value
     */
    int Open(std::string& error);

    /// How long a name may take to resolve before st_connect gives up (EHOSTUNREACH).
    void SetResolveTimeout(uint64_t ns)
    {
        m_resolveTimeoutNs = ns;
    }

    /**
     * \brief Fault injection: \p hook sees every operation before it is sent and may change
     *        it, or return false to drop it (st-check's wrong key, the tests' software loss).
     */
    void SetTransmitHook(std::function<bool(StTransmit&)> hook)
    {
        m_transmitHook = std::move(hook);
    }

    /// Run \p hook after every wait (statistics publication).
    void SetIdleHook(std::function<void()> hook)
    {
        m_idleHook = std::move(hook);
    }

    /// CLOCK_MONOTONIC, ns.
    uint64_t Now() override;
    /// One frame on the wire (the VC has no meaning on Ethernet).
    void Send(const StTransmit& t) override;
    /// Block until a frame arrives or \p deadlineNs (see the class comment).
    bool Wait(uint64_t deadlineNs, StPeerAddress& from, std::vector<uint8_t>& bytes) override;
    /// A MAC address, a dotted IPv4 address or a host name, resolved (blocking up to the
    /// resolve timeout).
    bool Resolve(const char* hostname, StPeerAddress& out) override;
    /// The same without waiting: the first miss makes the kernel send an ARP request.
    StResolveState ResolveStart(const char* hostname, StPeerAddress& out) override;
    /// A service name through the host's services database (getservbyname: /etc/services,
    /// NSS): its "st" entry, else an entry of any protocol (ST shares IP's port numbers).
    bool ResolveService(const char* service, uint16_t& port) override;

    /// The event loop (another program part may watch its own descriptors in it).
    StEventLoop& GetLoop()
    {
        return m_loop;
    }

  private:
    StPacketSocket& m_socket;                        //!< frames
    StNeighbourTable& m_neighbours;                  //!< names to MAC addresses
    StEventLoop m_loop;                              //!< epoll + timerfd
    std::map<std::string, uint64_t> m_asking;        //!< names being resolved -> since when
    uint64_t m_resolveTimeoutNs{3000000000ULL};      //!< give up after 3 s [U]
    std::function<void()> m_idleHook;                //!< after each wait
    std::function<bool(StTransmit&)> m_transmitHook; //!< fault injection
};

} // namespace st
} // namespace ns3

#endif /* ST_HOST_DRIVER_H */
