/*
 * st-neighbour-table.h: where the Linux adaptation finds a peer's MAC address, as ST over
 * Ethernet does (the MAC that IP's ARP gives for the peer's IP address): static entries the
 * user gave first, then the kernel's neighbour table read through rtnetlink (RTM_GETNEIGH).
 * When the kernel does not know the address yet, Solicit makes it ask (an empty UDP
 * datagram to the discard port starts the kernel's ARP). It also writes entries
 * (RTM_NEWNEIGH, RTM_DELNEIGH) for harpd. It owns a netlink socket; no ST state.
 */
#ifndef ST_NEIGHBOUR_TABLE_H
#define ST_NEIGHBOUR_TABLE_H

#include "st-ethernet-frame.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief IPv4 to MAC: static entries and the kernel's neighbour table of one interface.
 */
class StNeighbourTable
{
  public:
    /// One entry of the kernel's table.
    struct Entry
    {
        uint32_t ipv4{0};   //!< address (host order)
        StMac mac{};        //!< link address
        uint16_t state{0};  //!< NUD_* bits
        bool usable{false}; //!< the MAC may be used (reachable, stale, permanent ...)
    };

    /// The table of interface \p ifindex (\p ifname for Solicit).
    StNeighbourTable(int ifindex, const std::string& ifname);
    ~StNeighbourTable();
    StNeighbourTable(const StNeighbourTable&) = delete;
    StNeighbourTable& operator=(const StNeighbourTable&) = delete;

    /// Add a static entry (used before the kernel's table).
    void AddStatic(uint32_t ipv4, const StMac& mac);

    /**
     * \brief Parse "IP=MAC[,IP=MAC...]" into static entries.
     * \return false (and \p error) if an item is malformed
     */
    bool AddStaticList(const std::string& list, std::string& error);

    /// Find \p ipv4: the static entries, then the kernel's table. False if unknown.
    bool Lookup(uint32_t ipv4, StMac& out);

    /// Make the kernel resolve \p ipv4 (it sends an ARP request).
    void Solicit(uint32_t ipv4);

    /// Every IPv4 entry the kernel has on the interface.
    std::vector<Entry> Dump();

    /**
     * \brief Write an entry into the kernel's table (RTM_NEWNEIGH, replacing).
     * \param permanent NUD_PERMANENT (never aged by the kernel) rather than NUD_REACHABLE
     * \return 0 or an errno value
     */
    int Set(uint32_t ipv4, const StMac& mac, bool permanent);
    /// Remove an entry from the kernel's table; 0 or an errno value (ENOENT if absent).
    int Remove(uint32_t ipv4);

    /**
     * \brief A dotted IPv4 address, or a host name resolved to one (getaddrinfo, AF_INET).
     * \return false if it is neither
     */
    static bool ParseHost(const char* text, uint32_t& ipv4);
    /// "a.b.c.d".
    static std::string FormatIpv4(uint32_t ipv4);

  private:
    /// Send one request and read the answers up to NLMSG_DONE or the ack; 0 or an errno.
    int Talk(const void* request, std::size_t len, std::vector<Entry>* entries);

    int m_ifindex;                      //!< the interface
    std::string m_ifname;               //!< its name
    int m_netlink{-1};                  //!< NETLINK_ROUTE socket
    uint32_t m_seq{1};                  //!< request sequence number
    std::map<uint32_t, StMac> m_static; //!< static entries
};

} // namespace st
} // namespace ns3

#endif /* ST_NEIGHBOUR_TABLE_H */
