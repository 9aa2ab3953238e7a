/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StHelper: installs the ST protocol (StProtocol) on nodes, attaches it to their devices,
 * gives ST addresses to devices of nodes without an IPv4 stack, and fills the static
 * resolution tables of a scenario. It owns no protocol state.
 */
#ifndef ST_HELPER_H
#define ST_HELPER_H

#include "ns3/ipv4-address-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/st-protocol.h"

#include <string>

namespace ns3
{

/**
 * \ingroup st
 * \brief Installs ST on nodes and wires address resolution.
 *
 * A node gets one StProtocol (aggregated, so node->GetObject<StProtocol>() finds it).
 * Install(nodes) attaches it to every device of each node except loopback; Install(devices)
 * to the devices given only. ST uses the interface's IPv4 address when the node has an IPv4
 * stack; Install(devices, addresses) gives addresses to nodes that have none.
 */
class StHelper
{
  public:
    StHelper();

    /**
     * Set an attribute of every StProtocol created.
     * \param name attribute name (see StProtocol)
     * \param value attribute value
     */
    void SetAttribute(std::string name, const AttributeValue& value);

    /**
     * Install ST on each node of \p c, attached to all its devices but loopback.
     * \param c nodes
     */
    void Install(NodeContainer c) const;

    /**
     * Install ST on \p node, attached to all its devices but loopback.
     * \param node a node
     * \return its protocol
     */
    Ptr<StProtocol> Install(Ptr<Node> node) const;

    /**
     * Attach ST to the devices of \p c only (installing the protocol where missing).
     * \param c devices
     */
    void Install(NetDeviceContainer c) const;

    /**
     * Attach ST to the devices of \p c and give each the next address of \p addresses as its
     * ST address (for nodes without an IPv4 stack).
     * \param c devices
     * \param addresses source of addresses (its network must be set)
     */
    void Install(NetDeviceContainer c, Ipv4AddressHelper& addresses) const;

    /// Install ST on every node of the simulation.
    void InstallAll() const;

    /**
     * Fill the static table of every ST node of \p c with the (ST address, MAC) of every ST
     * device of the other nodes of \p c, so that Connect resolves without ARP or HARP.
     * \param c nodes
     */
    static void PopulateStaticTables(NodeContainer c);

    /// Fill the static tables of every ST node of the simulation.
    static void PopulateStaticTables();

    /**
     * Name \p address \p name for st_connect (a simulation has no /etc/hosts): in \p node's
     * own StNameTable (made and aggregated on first use), or in the global one that every
     * node falls back on when \p node is null.
     * \param name host name \param address its ST (IPv4) address \param node whose table
     */
    static void AddHost(const std::string& name, Ipv4Address address, Ptr<Node> node = nullptr);
    /**
     * Name ST port \p port \p name for st_listen and st_connect (no /etc/services either):
     * in \p node's table, or the global one when \p node is null.
     * \param name service name \param port its port (1..65535) \param node whose table
     */
    static void AddService(const std::string& name, uint16_t port, Ptr<Node> node = nullptr);
    /**
     * Every node of \p c that has a name (Names::Add) and runs ST is known by that name, in
     * the global table, at its ST address.
     * \param c the nodes
     */
    static void AddNodeNames(NodeContainer c);

    /**
     * Use fixed random number streams for the StProtocols of \p c (their connection keys),
     * so a scenario draws the same keys whatever random variables it creates elsewhere.
     * \param c nodes (those without ST are skipped)
     * \param stream first stream index
     * \return the number of streams used
     */
    static int64_t AssignStreams(NodeContainer c, int64_t stream);

  private:
    /// \param node a node \return its protocol, created and aggregated if missing
    Ptr<StProtocol> GetOrCreate(Ptr<Node> node) const;

    ObjectFactory m_factory; ///< makes StProtocols
};

} // namespace ns3

#endif /* ST_HELPER_H */
