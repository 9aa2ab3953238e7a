/*
 * harp-link-socket.cc: HARP frames on Linux Ethernet (see harp-link-socket.h).
 */
#include "harp-link-socket.h"

#include "harp-message.h"
#include "st-packet-socket.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace harp
{

namespace
{
constexpr std::size_t kMacHeader = 14;
constexpr std::size_t kLlcSnap = 8;
constexpr std::size_t kMinFrame = 60;
/// LLC/SNAP: DSAP AA, SSAP AA, UI, OUI 00-00-00, then the EtherType [C] RFC 2835 §4.1.
constexpr uint8_t kSnapPrefix[6] = {0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00};

/**
 * Keep 802.3 frames (length <= 1500) whose LLC/SNAP names 0x0806; drop everything else
 * (and our own outgoing copies).
 */
const sock_filter kFilter[] = {
    /* 0 */ BPF_STMT(BPF_LD | BPF_B | BPF_ABS, static_cast<uint32_t>(SKF_AD_OFF + SKF_AD_PKTTYPE)),
    /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 8, 0),
    /* 2 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
    /* 3 */ BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 1500, 6, 0),
    /* 4 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 14),
    /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xAAAA0300, 0, 4),
    /* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 18),
    /* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kEtherType, 0, 2),
    /* 8 */ BPF_STMT(BPF_RET | BPF_K, 0x10000),
    /* 9 */ BPF_STMT(BPF_RET | BPF_K, 0),
    /* 10 */ BPF_STMT(BPF_RET | BPF_K, 0),
};
} // namespace

HarpLinkSocket::~HarpLinkSocket()
{
    if (m_fd >= 0)
    {
        close(m_fd);
    }
}

int
HarpLinkSocket::Open(const std::string& name, std::string& error)
{
    ns3::st::StLinkInfo link;
    int e = ns3::st::StPacketSocket::QueryLink(name, link, error);
    if (e != 0)
    {
        return e;
    }
    if (!link.up)
    {
        error = "interface '" + name + "' is down: 'ip link set " + name + " up'";
        return ENETDOWN;
    }
    m_ifindex = link.ifindex;
    m_ula = Ula::FromBytes(link.mac.data());
    // The IPv4 address and its netmask: HARP maps this address, in this LIS.
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
    if (fd < 0 || ioctl(fd, SIOCGIFADDR, &ifr) < 0)
    {
        if (fd >= 0)
        {
            close(fd);
        }
        error = "interface '" + name +
                "' has no IPv4 address, and HARP maps IPv4 addresses: "
                "'ip addr add ADDRESS/PREFIX dev " +
                name + "'";
        return EADDRNOTAVAIL;
    }
    m_address = Ipv4(ntohl(reinterpret_cast<sockaddr_in*>(&ifr.ifr_addr)->sin_addr.s_addr));
    uint32_t mask = 0xFFFFFF00;
    if (ioctl(fd, SIOCGIFNETMASK, &ifr) == 0)
    {
        mask = ntohl(reinterpret_cast<sockaddr_in*>(&ifr.ifr_netmask)->sin_addr.s_addr);
    }
    close(fd);
    uint8_t prefix = 0;
    while (prefix < 32 && (mask & (0x80000000u >> prefix)) != 0)
    {
        ++prefix;
    }
    m_lis = Subnet(m_address, prefix);

    m_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
    {
        e = errno;
        error = (e == EPERM || e == EACCES)
                    ? "opening a raw Ethernet (AF_PACKET) socket needs the capability "
                      "CAP_NET_RAW (and writing the neighbour table CAP_NET_ADMIN): run as "
                      "root, or 'sudo setcap cap_net_raw,cap_net_admin+ep PROGRAM'"
                    : std::string("socket(AF_PACKET): ") + std::strerror(e);
        return (e == EPERM || e == EACCES) ? EPERM : e;
    }
    sock_fprog prog{};
    prog.len = sizeof(kFilter) / sizeof(kFilter[0]);
    prog.filter = const_cast<sock_filter*>(kFilter);
    setsockopt(m_fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
    const int one = 1;
    setsockopt(m_fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
    sockaddr_ll sll{};
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_802_2); // how the kernel tags 802.3 + LLC frames
    sll.sll_ifindex = m_ifindex;
    if (bind(m_fd, reinterpret_cast<sockaddr*>(&sll), sizeof(sll)) < 0)
    {
        e = errno;
        error = "binding the raw socket to '" + name + "': " + std::strerror(e);
        return e;
    }
    return 0;
}

bool
HarpLinkSocket::Send(const Ula& destination, const std::vector<uint8_t>& body)
{
    std::vector<uint8_t> f(std::max(kMinFrame, kMacHeader + kLlcSnap + body.size()), 0);
    destination.CopyTo(f.data());
    m_ula.CopyTo(f.data() + 6);
    const auto length = static_cast<uint16_t>(kLlcSnap + body.size());
    f[12] = static_cast<uint8_t>(length >> 8);
    f[13] = static_cast<uint8_t>(length);
    std::memcpy(f.data() + kMacHeader, kSnapPrefix, sizeof(kSnapPrefix));
    f[kMacHeader + 6] = static_cast<uint8_t>(kEtherType >> 8);
    f[kMacHeader + 7] = static_cast<uint8_t>(kEtherType);
    std::memcpy(f.data() + kMacHeader + kLlcSnap, body.data(), body.size());
    if (send(m_fd, f.data(), f.size(), 0) != static_cast<ssize_t>(f.size()))
    {
        return false;
    }
    ++txFrames;
    return true;
}

bool
HarpLinkSocket::Receive(Ula& source, std::vector<uint8_t>& body)
{
    uint8_t f[2048];
    for (;;)
    {
        const ssize_t n = recv(m_fd, f, sizeof(f), MSG_DONTWAIT);
        if (n < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            return false;
        }
        const std::size_t length = (static_cast<std::size_t>(f[12]) << 8) | f[13];
        if (static_cast<std::size_t>(n) < kMacHeader + kLlcSnap || length < kLlcSnap ||
            kMacHeader + length > static_cast<std::size_t>(n))
        {
            ++rxBad;
            continue;
        }
        source = Ula::FromBytes(f + 6);
        body.assign(f + kMacHeader + kLlcSnap, f + kMacHeader + length);
        ++rxFrames;
        return true;
    }
}

} // namespace harp
