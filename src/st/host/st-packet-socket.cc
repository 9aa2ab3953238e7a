/*
 * st-packet-socket.cc: the AF_PACKET socket of the Linux adaptation (see st-packet-socket.h).
 */
#include "st-packet-socket.h"

#include "st-header.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ns3
{
namespace st
{

namespace
{
/// Sentence for a socket() that failed for want of privilege.
std::string
NoCapability()
{
    return "opening a raw Ethernet (AF_PACKET) socket needs the capability CAP_NET_RAW: run "
           "the program as root, or grant it the capability once with "
           "'sudo setcap cap_net_raw+ep PROGRAM'";
}

/**
 * The kernel filter: ST frames only, never our own outgoing copies. Everything else (IP,
 * ARP, IPv6 ...) is dropped before it is copied to the socket.
 *
 *   ldb  pkttype                   ; PACKET_OUTGOING copies are not for us
 *   jeq  #PACKET_OUTGOING, drop
 *   ldh  [12]                      ; EtherType or 802.3 length
 *   jeq  #0x8181, accept
 *   jgt  #1500, drop               ; another EtherType
 *   ld   [14]                      ; LLC/SNAP: AA AA 03 00
 *   jne  #0xAAAA0300, drop
 *   ldh  [18]                      ;           00 00 (OUI)
 *   jne  #0, drop
 *   ldh  [20]                      ;           type 0x8181
 *   jne  #0x8181, drop
 *   accept: ret #0x40000           ; the whole frame (up to 256 KiB)
 *   drop:   ret #0
 */
const sock_filter FILTER[] = {
    /* 0 */ BPF_STMT(BPF_LD | BPF_B | BPF_ABS, static_cast<uint32_t>(SKF_AD_OFF + SKF_AD_PKTTYPE)),
    /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 10, 0),
    /* 2 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
    /* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ST_ETHERTYPE, 7, 0),
    /* 4 */ BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, StEthernetFrame::MAX_LENGTH, 7, 0),
    /* 5 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 14),
    /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xAAAA0300, 0, 5),
    /* 7 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 18),
    /* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
    /* 9 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 20),
    /* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ST_ETHERTYPE, 0, 1),
    /* 11 */ BPF_STMT(BPF_RET | BPF_K, 0x40000),
    /* 12 */ BPF_STMT(BPF_RET | BPF_K, 0),
};
} // namespace

StPacketSocket::~StPacketSocket()
{
    if (m_fd >= 0)
    {
        close(m_fd);
    }
}

int
StPacketSocket::QueryLink(const std::string& name, StLinkInfo& info, std::string& error)
{
    if (name.empty() || name.size() >= IFNAMSIZ)
    {
        error = "'" + name + "' is not an interface name";
        return ENODEV;
    }
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
    {
        const int e = errno;
        error = std::string("socket: ") + std::strerror(e);
        return e;
    }
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
    int e = 0;
    if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
    {
        e = errno;
        close(fd);
        error = e == ENODEV ? "there is no network interface named '" + name +
                                  "' in this network namespace ('ip link show' lists them)"
                            : "interface '" + name + "': " + std::strerror(e);
        return e == ENODEV ? ENODEV : e;
    }
    info.name = name;
    info.ifindex = ifr.ifr_ifindex;
    if (ioctl(fd, SIOCGIFHWADDR, &ifr) == 0)
    {
        std::memcpy(info.mac.data(), ifr.ifr_hwaddr.sa_data, 6);
        info.ethernet = ifr.ifr_hwaddr.sa_family == ARPHRD_ETHER;
    }
    if (ioctl(fd, SIOCGIFMTU, &ifr) == 0)
    {
        info.mtu = static_cast<uint32_t>(ifr.ifr_mtu);
    }
    if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0)
    {
        info.up = (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
    }
    close(fd);
    return 0;
}

int
StPacketSocket::Open(const std::string& name, int rcvbuf, std::string& error)
{
    int e = QueryLink(name, m_link, error);
    if (e != 0)
    {
        return e;
    }
    if (!m_link.ethernet)
    {
        error = "interface '" + name + "' is not an Ethernet interface (ST needs MAC addresses)";
        return ENODEV;
    }
    if (!m_link.up)
    {
        error = "interface '" + name + "' is down (no carrier or not up): 'ip link set " + name +
                " up', and check that its peer is up too";
        return ENETDOWN;
    }
    // Protocol 0: nothing arrives before the filter is attached and the socket is bound.
    m_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
    {
        e = errno;
        error = (e == EPERM || e == EACCES) ? NoCapability()
                                            : std::string("socket(AF_PACKET): ") + std::strerror(e);
        return (e == EPERM || e == EACCES) ? EPERM : e;
    }
    sock_fprog prog{};
    prog.len = sizeof(FILTER) / sizeof(FILTER[0]);
    prog.filter = const_cast<sock_filter*>(FILTER);
    if (setsockopt(m_fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0)
    {
        e = errno;
        error = std::string("attaching the BPF filter: ") + std::strerror(e);
        return e;
    }
    const int one = 1;
    // Our own frames would come back through the ETH_P_ALL tap (the filter drops them too,
    // on kernels without this option).
    setsockopt(m_fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
    // A burst of DATA must fit while the program is busy: the kernel's default (about
    // 200 KiB) holds two dozen 8 KiB STUs. Forcing needs CAP_NET_ADMIN; else rmem_max caps.
    if (setsockopt(m_fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
    {
        setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
    }
    if (setsockopt(m_fd, SOL_SOCKET, SO_SNDBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
    {
        setsockopt(m_fd, SOL_SOCKET, SO_SNDBUF, &rcvbuf, sizeof(rcvbuf));
    }
    sockaddr_ll sll{};
    sll.sll_family = AF_PACKET;
    // ETH_P_ALL: the short DATA in 802.3 frames arrives with protocol ETH_P_802_2, the rest
    // with 0x8181; the filter keeps both.
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = m_link.ifindex;
    if (bind(m_fd, reinterpret_cast<sockaddr*>(&sll), sizeof(sll)) < 0)
    {
        e = errno;
        error = "binding the raw socket to '" + name + "': " + std::strerror(e);
        return e;
    }
    m_rxFrame.resize(std::max<std::size_t>(m_link.mtu, 1500) + StEthernetFrame::MAC_HEADER + 64);
    return 0;
}

bool
StPacketSocket::Send(const StMac& dst, const uint8_t* op, std::size_t len)
{
    StEthernetFrame::Encode(dst, m_link.mac, op, len, m_txFrame);
    if (StEthernetFrame::NeedsLlc(op, len))
    {
        ++m_counters.txLlcFrames;
    }
    return SendRawFrame(m_txFrame.data(), m_txFrame.size());
}

bool
StPacketSocket::SendRawFrame(const uint8_t* frame, std::size_t len)
{
    for (;;)
    {
        const ssize_t n = send(m_fd, frame, len, 0);
        if (n == static_cast<ssize_t>(len))
        {
            ++m_counters.txFrames;
            return true;
        }
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n < 0 && errno == ENOBUFS)
        {
            // Dropped in the kernel (a full queue, or a filter such as an nftables egress
            // rule): lost like a frame on the wire, and recovered the same way, by the
            // engine's retries. Sending it again here would hide a filter's loss.
            ++m_counters.txDropped;
            return false;
        }
        ++m_counters.txErrors;
        return false;
    }
}

bool
StPacketSocket::Receive(StMac& from, std::vector<uint8_t>& op)
{
    for (;;)
    {
        const ssize_t n = recv(m_fd, m_rxFrame.data(), m_rxFrame.size(), MSG_DONTWAIT | MSG_TRUNC);
        if (n < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            return false; // EAGAIN: nothing waiting
        }
        ++m_counters.rxFrames;
        if (static_cast<std::size_t>(n) > m_rxFrame.size())
        {
            ++m_counters.rxTruncated;
            continue;
        }
        std::size_t offset = 0;
        std::size_t len = 0;
        const StFrameVerdict v = StEthernetFrame::Decode(m_rxFrame.data(),
                                                         static_cast<std::size_t>(n),
                                                         m_link.mac,
                                                         from,
                                                         offset,
                                                         len);
        ++m_counters.rx[static_cast<std::size_t>(v)];
        if (v == StFrameVerdict::Ok)
        {
            op.assign(m_rxFrame.data() + offset, m_rxFrame.data() + offset + len);
            return true;
        }
    }
}

const StSocketCounters&
StPacketSocket::GetCounters()
{
    if (m_fd >= 0)
    {
        tpacket_stats st{};
        socklen_t len = sizeof(st);
        // The kernel resets its counts on every read: add them up.
        if (getsockopt(m_fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
        {
            m_counters.kernelDrops += st.tp_drops;
        }
    }
    return m_counters;
}

} // namespace st
} // namespace ns3
