/*
 * st-neighbour-table.cc: static entries and the kernel's neighbour table over rtnetlink (see
 * st-neighbour-table.h).
 */
#include "st-neighbour-table.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ns3
{
namespace st
{

namespace
{
/// The kernel's states in which the link address may be used without asking again.
constexpr uint16_t USABLE =
    NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE | NUD_PERMANENT | NUD_NOARP;

/// A neighbour request: header, ndmsg, and room for NDA_DST and NDA_LLADDR.
struct NeighRequest
{
    nlmsghdr nh;
    ndmsg nd;
    char attrs[64];
};

void
AddAttr(NeighRequest& r, uint16_t type, const void* data, std::size_t len)
{
    auto* rta =
        reinterpret_cast<rtattr*>(reinterpret_cast<char*>(&r) + NLMSG_ALIGN(r.nh.nlmsg_len));
    rta->rta_type = type;
    rta->rta_len = static_cast<uint16_t>(RTA_LENGTH(len));
    std::memcpy(RTA_DATA(rta), data, len);
    r.nh.nlmsg_len = NLMSG_ALIGN(r.nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}
} // namespace

StNeighbourTable::StNeighbourTable(int ifindex, const std::string& ifname)
    : m_ifindex(ifindex),
      m_ifname(ifname)
{
    m_netlink = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
}

StNeighbourTable::~StNeighbourTable()
{
    if (m_netlink >= 0)
    {
        close(m_netlink);
    }
}

void
StNeighbourTable::AddStatic(uint32_t ipv4, const StMac& mac)
{
    m_static[ipv4] = mac;
}

bool
StNeighbourTable::AddStaticList(const std::string& list, std::string& error)
{
    std::size_t start = 0;
    while (start < list.size())
    {
        std::size_t end = list.find(',', start);
        if (end == std::string::npos)
        {
            end = list.size();
        }
        const std::string item = list.substr(start, end - start);
        const std::size_t eq = item.find('=');
        uint32_t ip = 0;
        StMac mac{};
        if (eq == std::string::npos || !ParseHost(item.substr(0, eq).c_str(), ip) ||
            !StEthernetFrame::ParseMac(item.substr(eq + 1).c_str(), mac))
        {
            error = "'" + item + "' is not IP=MAC (e.g. 10.0.0.2=02:00:00:00:00:02)";
            return false;
        }
        AddStatic(ip, mac);
        start = end + 1;
    }
    return true;
}

int
StNeighbourTable::Talk(const void* request, std::size_t len, std::vector<Entry>* entries)
{
    if (m_netlink < 0)
    {
        return EBADF;
    }
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (sendto(m_netlink, request, len, 0, reinterpret_cast<sockaddr*>(&kernel), sizeof(kernel)) <
        0)
    {
        return errno;
    }
    const uint32_t seq = reinterpret_cast<const nlmsghdr*>(request)->nlmsg_seq;
    alignas(nlmsghdr) char buf[32768];
    for (;;)
    {
        const ssize_t n = recv(m_netlink, buf, sizeof(buf), 0);
        if (n < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            return errno;
        }
        int left = static_cast<int>(n);
        for (auto* nh = reinterpret_cast<nlmsghdr*>(buf); NLMSG_OK(nh, left);
             nh = NLMSG_NEXT(nh, left))
        {
            if (nh->nlmsg_seq != seq)
            {
                continue; // an answer to an earlier request
            }
            if (nh->nlmsg_type == NLMSG_DONE)
            {
                return 0;
            }
            if (nh->nlmsg_type == NLMSG_ERROR)
            {
                const auto* err = static_cast<const nlmsgerr*>(NLMSG_DATA(nh));
                return -err->error; // 0 is the acknowledgement
            }
            if (nh->nlmsg_type != RTM_NEWNEIGH || entries == nullptr)
            {
                continue;
            }
            const auto* nd = static_cast<const ndmsg*>(NLMSG_DATA(nh));
            if (nd->ndm_family != AF_INET || nd->ndm_ifindex != m_ifindex)
            {
                continue;
            }
            Entry e;
            e.state = nd->ndm_state;
            bool haveDst = false;
            bool haveMac = false;
            int attrLen = static_cast<int>(RTM_PAYLOAD(nh));
            for (auto* rta = reinterpret_cast<rtattr*>(RTM_RTA(nd)); RTA_OK(rta, attrLen);
                 rta = RTA_NEXT(rta, attrLen))
            {
                if (rta->rta_type == NDA_DST && RTA_PAYLOAD(rta) == 4)
                {
                    uint32_t be = 0;
                    std::memcpy(&be, RTA_DATA(rta), 4);
                    e.ipv4 = ntohl(be);
                    haveDst = true;
                }
                else if (rta->rta_type == NDA_LLADDR && RTA_PAYLOAD(rta) == 6)
                {
                    std::memcpy(e.mac.data(), RTA_DATA(rta), 6);
                    haveMac = true;
                }
            }
            e.usable = haveMac && (e.state & USABLE) != 0;
            if (haveDst)
            {
                entries->push_back(e);
            }
        }
    }
}

std::vector<StNeighbourTable::Entry>
StNeighbourTable::Dump()
{
    NeighRequest r{};
    r.nh.nlmsg_len = NLMSG_LENGTH(sizeof(ndmsg));
    r.nh.nlmsg_type = RTM_GETNEIGH;
    r.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    r.nh.nlmsg_seq = ++m_seq;
    r.nd.ndm_family = AF_INET;
    r.nd.ndm_ifindex = m_ifindex;
    std::vector<Entry> entries;
    Talk(&r, r.nh.nlmsg_len, &entries);
    return entries;
}

bool
StNeighbourTable::Lookup(uint32_t ipv4, StMac& out)
{
    auto it = m_static.find(ipv4);
    if (it != m_static.end())
    {
        out = it->second;
        return true;
    }
    for (const Entry& e : Dump())
    {
        if (e.ipv4 == ipv4 && e.usable)
        {
            out = e.mac;
            return true;
        }
    }
    return false;
}

void
StNeighbourTable::Solicit(uint32_t ipv4)
{
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
    {
        return;
    }
    // Out of our interface whatever the routes say (needs CAP_NET_RAW, which we have).
    setsockopt(fd,
               SOL_SOCKET,
               SO_BINDTODEVICE,
               m_ifname.c_str(),
               static_cast<socklen_t>(m_ifname.size()));
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(9); // discard
    to.sin_addr.s_addr = htonl(ipv4);
    sendto(fd, "", 0, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&to), sizeof(to));
    close(fd);
}

int
StNeighbourTable::Set(uint32_t ipv4, const StMac& mac, bool permanent)
{
    NeighRequest r{};
    r.nh.nlmsg_len = NLMSG_LENGTH(sizeof(ndmsg));
    r.nh.nlmsg_type = RTM_NEWNEIGH;
    r.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE;
    r.nh.nlmsg_seq = ++m_seq;
    r.nd.ndm_family = AF_INET;
    r.nd.ndm_ifindex = m_ifindex;
    r.nd.ndm_state = permanent ? NUD_PERMANENT : NUD_REACHABLE;
    const uint32_t be = htonl(ipv4);
    AddAttr(r, NDA_DST, &be, 4);
    AddAttr(r, NDA_LLADDR, mac.data(), 6);
    return Talk(&r, r.nh.nlmsg_len, nullptr);
}

int
StNeighbourTable::Remove(uint32_t ipv4)
{
    NeighRequest r{};
    r.nh.nlmsg_len = NLMSG_LENGTH(sizeof(ndmsg));
    r.nh.nlmsg_type = RTM_DELNEIGH;
    r.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
    r.nh.nlmsg_seq = ++m_seq;
    r.nd.ndm_family = AF_INET;
    r.nd.ndm_ifindex = m_ifindex;
    const uint32_t be = htonl(ipv4);
    AddAttr(r, NDA_DST, &be, 4);
    return Talk(&r, r.nh.nlmsg_len, nullptr);
}

bool
StNeighbourTable::ParseHost(const char* text, uint32_t& ipv4)
{
    if (text == nullptr || *text == '\0')
    {
        return false;
    }
    in_addr a{};
    if (inet_pton(AF_INET, text, &a) == 1)
    {
        ipv4 = ntohl(a.s_addr);
        return true;
    }
    addrinfo hints{};
    hints.ai_family = AF_INET;
    addrinfo* res = nullptr;
    if (getaddrinfo(text, nullptr, &hints, &res) != 0 || res == nullptr)
    {
        return false;
    }
    ipv4 = ntohl(reinterpret_cast<sockaddr_in*>(res->ai_addr)->sin_addr.s_addr);
    freeaddrinfo(res);
    return true;
}

std::string
StNeighbourTable::FormatIpv4(uint32_t ipv4)
{
    char buf[INET_ADDRSTRLEN];
    const uint32_t be = htonl(ipv4);
    inet_ntop(AF_INET, &be, buf, sizeof(buf));
    return buf;
}

} // namespace st
} // namespace ns3
