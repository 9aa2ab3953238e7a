/*
 * st-host-stack.h: one ST stack on one Linux interface: the raw socket, the neighbour
 * table, the driver, and the engine (an StBypassStack with its StEndpoint), configured for
 * a real network (timers in milliseconds rather than the engine's 1 s, STUs within the
 * interface's MTU, keys from getrandom), and its counters published for st-stat. Programs
 * and libst open one; the engine objects are the same the simulator drives. It owns those
 * objects and nothing of the protocol.
 */
#ifndef ST_HOST_STACK_H
#define ST_HOST_STACK_H

#include "st-bypass-stack.h"
#include "st-host-driver.h"
#include "st-host-stats.h"
#include "st-neighbour-table.h"
#include "st-packet-socket.h"

#include <memory>
#include <string>

namespace ns3
{
namespace st
{

/**
 * \brief What a host stack is opened with; the defaults suit a LAN or a veth pair.
 */
struct StHostOptions
{
    std::string interface;          //!< the Ethernet interface (required)
    std::string peers;              //!< static entries "IP=MAC,..." used before the kernel's
    std::string program{"st"};      //!< name shown by st-stat
    bool publish{true};             //!< publish counters for st-stat
    int socketBuffer{32 << 20};     //!< socket receive/send buffer, bytes
    uint64_t opTimeoutNs{50000000}; //!< retry timeout (engine default 1 s): LAN RTTs are us
    uint32_t maxRetries{8};         //!< retries before teardown (engine default 3)
    uint8_t maxBlock{18};           //!< log2 of the block a CTS grants: 256 KiB
    uint16_t ctsReq{4};             //!< CTSs outstanding: 1 MiB in flight
    uint8_t bufsize{14};            //!< log2 of a Bufx entry (IRIX 16 KiB)
    uint64_t resolveTimeoutNs{3000000000ULL}; //!< st_connect waits this long for ARP
};

/**
 * \brief The ST engine on a Linux interface.
 */
class StHostStack
{
  public:
    StHostStack() = default;
    ~StHostStack();
    StHostStack(const StHostStack&) = delete;
    StHostStack& operator=(const StHostStack&) = delete;

    /**
     * \brief Open the interface and build the engine.
     * \param options what to open
     * \param[out] error one sentence a user can act on
     * \return 0, EPERM (no CAP_NET_RAW), ENODEV (no such interface), ENETDOWN (down),
     *         EMSGSIZE (MTU too small for a 256-byte STU), EINVAL (bad option), or another
     *         errno value
     */
    int Open(const StHostOptions& options, std::string& error);

    /// The engine with its pump (st_create_on takes its address).
    StBypassStack& GetStack()
    {
        return *m_stack;
    }

    /// The endpoint (managed calls: Listen, Connect, Find(id)->Write ...).
    StEndpoint& GetEndpoint()
    {
        return m_stack->GetEndpoint();
    }

    /// The driver (clock, event loop).
    StHostDriver& GetDriver()
    {
        return *m_driver;
    }

    /// The raw socket (counters, raw frames for tests).
    StPacketSocket& GetSocket()
    {
        return m_socket;
    }

    /// log2 of the largest STU the interface's MTU carries.
    uint8_t GetMaxStu() const
    {
        return m_maxStu;
    }

    /// Every counter: the engine's verdicts and statistics, then the socket's.
    StHostStats::Values CollectCounters();

    /// Publish the counters now (\p force) or if 100 ms passed since the last time.
    void PublishCounters(bool force);

    /// Keep the published counters after the process ends.
    void KeepCounters()
    {
        m_stats.Keep();
    }

    /// log2 of the largest STU an MTU of \p mtu bytes carries with the 40-byte header.
    static uint8_t MaxStuForMtu(uint32_t mtu);

  private:
    StPacketSocket m_socket;                        //!< raw frames
    std::unique_ptr<StNeighbourTable> m_neighbours; //!< names to MACs
    std::unique_ptr<StHostDriver> m_driver;         //!< clock, waiting
    std::unique_ptr<StBypassStack> m_stack;         //!< the engine
    StHostStats m_stats;                            //!< published counters
    uint64_t m_publishedAt{0};                      //!< last publication
    uint8_t m_maxStu{0};                            //!< of the interface
};

} // namespace st
} // namespace ns3

#endif /* ST_HOST_STACK_H */
