/*
 * harp-link-socket.h: HARP frames on a Linux Ethernet interface. RFC 2835 carries HARP in
 * IEEE 802.2 LLC/SNAP with EtherType 0x0806 (the GSN endpoint device does the same in the
 * simulator); on Ethernet the frame is an 802.3 length, that LLC/SNAP header and the 28-byte
 * body, padded to 60 bytes. The kernel's own ARP (Ethernet II, type 0x0806) never sees these
 * frames, and this socket never sees the kernel's ARP. One AF_PACKET socket bound to the
 * interface with a classic BPF filter that keeps only LLC/SNAP 0x0806 frames. It owns the
 * descriptor; it knows nothing of the HARP engines.
 */
#ifndef HARP_LINK_SOCKET_H
#define HARP_LINK_SOCKET_H

#include "harp-ipv4.h"
#include "harp-subnet.h"
#include "harp-ula.h"

#include <cstdint>
#include <string>
#include <vector>

namespace harp
{

/**
 * \brief An AF_PACKET socket carrying HARP bodies in 802.3 + LLC/SNAP frames.
 */
class HarpLinkSocket
{
  public:
    HarpLinkSocket() = default;
    ~HarpLinkSocket();
    HarpLinkSocket(const HarpLinkSocket&) = delete;
    HarpLinkSocket& operator=(const HarpLinkSocket&) = delete;

    /**
     * \brief Open the socket on \p name and read the interface's ULA, IPv4 address and LIS.
     * \param[out] error a sentence a user can act on
     * \return 0, EPERM (no CAP_NET_RAW), ENODEV, ENETDOWN, EADDRNOTAVAIL (no IPv4 address),
     *         or another errno value
     */
    int Open(const std::string& name, std::string& error);

    /// The descriptor.
    int GetFd() const
    {
        return m_fd;
    }

    /// The interface's index.
    int GetIfIndex() const
    {
        return m_ifindex;
    }

    /// The interface's MAC address (its ULA).
    Ula GetUla() const
    {
        return m_ula;
    }

    /// Its IPv4 address.
    Ipv4 GetAddress() const
    {
        return m_address;
    }

    /// Its subnet (the LIS).
    Subnet GetLis() const
    {
        return m_lis;
    }

    /// Send a HARP body to \p destination; false if the kernel refused it.
    bool Send(const Ula& destination, const std::vector<uint8_t>& body);

    /// Take the next HARP body without waiting; false when none is waiting.
    bool Receive(Ula& source, std::vector<uint8_t>& body);

    /// Frames sent, received, and received but malformed (bad 802.3 length).
    uint64_t txFrames{0};
    uint64_t rxFrames{0}; //!< bodies handed on
    uint64_t rxBad{0};    //!< malformed frames

  private:
    int m_fd{-1};     //!< the socket
    int m_ifindex{0}; //!< the interface
    Ula m_ula;        //!< its MAC
    Ipv4 m_address;   //!< its IPv4 address
    Subnet m_lis;     //!< its subnet
};

} // namespace harp

#endif /* HARP_LINK_SOCKET_H */
