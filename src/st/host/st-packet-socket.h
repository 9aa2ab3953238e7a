/*
 * st-packet-socket.h: the raw Ethernet access of the Linux adaptation: one AF_PACKET socket
 * bound to one interface, with a classic BPF filter in the kernel that lets through only ST
 * frames (EtherType 0x8181, or an 802.3 length with LLC/SNAP type 0x8181), framing by
 * StEthernetFrame, and counters of what was sent, received and dropped (by reason, the
 * kernel's drops included). It owns the descriptor; it knows nothing of connections.
 */
#ifndef ST_PACKET_SOCKET_H
#define ST_PACKET_SOCKET_H

#include "st-ethernet-frame.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief What the kernel says about an interface.
 */
struct StLinkInfo
{
    std::string name;     //!< e.g. "veth0"
    int ifindex{0};       //!< kernel index
    StMac mac{};          //!< its MAC address
    uint32_t mtu{0};      //!< its MTU (bytes of payload after the MAC header)
    bool up{false};       //!< IFF_UP and IFF_RUNNING
    bool ethernet{false}; //!< ARPHRD_ETHER
};

/**
 * \brief Counters of the raw socket.
 */
struct StSocketCounters
{
    uint64_t txFrames{0};    //!< frames sent
    uint64_t txLlcFrames{0}; //!< of which 802.3 + LLC/SNAP (short DATA)
    uint64_t txErrors{0};    //!< send() failed (frame lost)
    uint64_t txDropped{0};   //!< the kernel dropped it (ENOBUFS: a full queue or a filter)
    uint64_t rxFrames{0};    //!< frames the kernel filter let through
    uint64_t kernelDrops{0}; //!< frames the kernel dropped for want of buffer space
    uint64_t rxTruncated{0}; //!< frames larger than the receive buffer (dropped)
    std::array<uint64_t, static_cast<std::size_t>(StFrameVerdict::Count)> rx{}; //!< by verdict
};

/**
 * \brief An AF_PACKET socket carrying ST operations on one interface.
 */
class StPacketSocket
{
  public:
    StPacketSocket() = default;
    ~StPacketSocket();
    StPacketSocket(const StPacketSocket&) = delete;
    StPacketSocket& operator=(const StPacketSocket&) = delete;

    /**
     * \brief Ask the kernel about interface \p name.
     * \param[out] info what it says
     * \param[out] error a sentence a user can act on
     * \return 0, ENODEV (no such interface) or another errno value
     */
    static int QueryLink(const std::string& name, StLinkInfo& info, std::string& error);

    /**
     * \brief Open the socket on interface \p name.
     * \param name the interface
     * \param rcvbuf receive buffer wanted, bytes (forced when allowed: CAP_NET_ADMIN)
     * \param[out] error a sentence a user can act on (which capability, which command)
     * \return 0, EPERM (no CAP_NET_RAW), ENODEV, ENETDOWN, or another errno value
     */
    int Open(const std::string& name, int rcvbuf, std::string& error);

    /// The descriptor (for an event loop), -1 when closed.
    int GetFd() const
    {
        return m_fd;
    }

    /// The interface.
    const StLinkInfo& GetLink() const
    {
        return m_link;
    }

    /// Send one operation to \p dst (counted; false if the kernel refused it).
    bool Send(const StMac& dst, const uint8_t* op, std::size_t len);

    /// Send a frame exactly as given (tests that inject malformed frames).
    bool SendRawFrame(const uint8_t* frame, std::size_t len);

    /**
     * \brief Take the next ST operation the kernel holds, without waiting.
     * \param[out] from the sender
     * \param[out] op the operation
     * \return false when nothing is waiting (frames that are not ST are counted and skipped)
     */
    bool Receive(StMac& from, std::vector<uint8_t>& op);

    /// Counters (the kernel's drop count is brought up to date first).
    const StSocketCounters& GetCounters();

  private:
    int m_fd{-1};                   //!< the socket
    StLinkInfo m_link;              //!< the interface
    StSocketCounters m_counters;    //!< counters
    std::vector<uint8_t> m_txFrame; //!< frame being built
    std::vector<uint8_t> m_rxFrame; //!< receive buffer
};

} // namespace st
} // namespace ns3

#endif /* ST_PACKET_SOCKET_H */
