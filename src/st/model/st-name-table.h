/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StNameTable: the host and service names the Bypass API's st_listen/st_connect take, for a
 * simulation, which has no /etc/hosts or /etc/services: host name -> IPv4 address, service
 * name -> ST (IANA) port. A node looks in its own table (aggregated to it) first, then in
 * the global one. It owns the names only; resolving an address to a MAC is StProtocol's.
 */
#ifndef ST_NAME_TABLE_H
#define ST_NAME_TABLE_H

#include "ns3/ipv4-address.h"
#include "ns3/object.h"

#include <map>
#include <string>

namespace ns3
{

class Node;

/**
 * \ingroup st
 * \brief Host and service names of a node (or of every node: GetGlobal ()).
 */
class StNameTable : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    /// \return the table every node falls back on
    static Ptr<StNameTable> GetGlobal();

    /// \param name a host name \param address its IPv4 address (a name given twice: the last)
    void AddHost(const std::string& name, Ipv4Address address);
    /// \param name a service name \param port its ST port, 1..65535 (0 is Port 0: refused)
    void AddService(const std::string& name, uint16_t port);
    /// \param name a host name \param[out] address its address \return true if known
    bool LookupHost(const std::string& name, Ipv4Address& address) const;
    /// \param name a service name \param[out] port its port \return true if known
    bool LookupService(const std::string& name, uint16_t& port) const;
    /// Forget every name.
    void Clear();

    /**
     * \brief Resolve \p name for \p node: its own table, then the global one.
     * \param node the node (may have no table) \param name host name
     * \param[out] address the address \return true if found
     */
    static bool ResolveHost(Ptr<Node> node, const std::string& name, Ipv4Address& address);
    /**
     * \brief Resolve service \p name for \p node: its own table, then the global one.
     * \param node the node \param name service name \param[out] port the port
     * \return true if found
     */
    static bool ResolveService(Ptr<Node> node, const std::string& name, uint16_t& port);

  private:
    std::map<std::string, Ipv4Address> m_hosts; ///< host name -> address
    std::map<std::string, uint16_t> m_services; ///< service name -> port
};

} // namespace ns3

#endif /* ST_NAME_TABLE_H */
