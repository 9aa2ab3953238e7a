/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HarpHelper: runs HARP on the GSN interfaces of nodes that already have IPv4 addresses. It
 * collects the site's HARP configuration (which interfaces are servers, hence the server list
 * of each LIS; static entries; harpd.options texts; node-wide attributes) and hands each
 * interface what concerns its LIS. It creates HarpProtocol objects; the protocol work is
 * theirs.
 */
#ifndef HARP_HELPER_H
#define HARP_HELPER_H

#include "harp-interface-container.h"

#include "ns3/harp-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup harp
 * \brief Installs HARP (RFC 2835) on GSN interfaces.
 *
 * Use after InternetStackHelper and Ipv4AddressHelper. Every host of a LIS gets the same list
 * of servers: the ULAs of the interfaces declared with AddServer(device) that have an address
 * in that LIS, plus those declared with AddServer(network, mask, ula), in declaration order.
 * Whether the fabric broadcasts comes from the helper that built the GSN fabric (FabricMode
 * "Auto"), else from each client's self-test: on a broadcast fabric the servers are simply
 * not used. Each interface also sets what HARP needs of ns-3's ARP (HarpProtocol's
 * ZeroArpRequestJitter and ArpPendingQueueSize).
 *
 * \code
 *   InternetStackHelper internet;    internet.Install(nodes);
 *   Ipv4AddressHelper ip("192.0.2.0", "255.255.255.224");  ip.Assign(devices);
 *   HarpHelper harp;
 *   harp.AddServer(devices.Get(0));  // a HARP server of 192.0.2.0/27
 *   harp.AddStatic(Ipv4Address("192.0.2.9"), Mac48Address("02:00:00:00:00:09"));
 *   HarpInterfaceContainer interfaces = harp.Install(devices);
 * \endcode
 */
class HarpHelper
{
  public:
    HarpHelper();

    /**
     * \brief Sets an attribute of the HarpProtocol objects created (timers, FabricMode,
     *        StartDelay). Nodes that already run HARP keep theirs.
     * \param name attribute name
     * \param value attribute value
     */
    void SetAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Declares a HARP server: Install runs a server on this device, and its ULA is a
     *        server of the LIS of every IPv4 address the device has at Install time.
     * \param device a GSN device (installed by this helper's Install)
     */
    void AddServer(Ptr<NetDevice> device);

    /**
     * \brief Declares a server of a LIS by its ULA (a server not installed by this helper).
     * \param network an address of the LIS
     * \param mask the LIS mask
     * \param ula the server's ULA
     */
    void AddServer(Ipv4Address network, Ipv4Mask mask, Mac48Address ula);

    /**
     * \brief A static entry (gsnarp -s) for a host without HARP: installed in every client and
     *        server whose LIS holds the address.
     * \param ip the host's address
     * \param ula its ULA
     */
    void AddStatic(Ipv4Address ip, Mac48Address ula);

    /**
     * \brief A harpd.options-like text for every interface installed (format in harp.rst):
     *        its timers, fabric mode, servers and static entries add to the rest; its "serve"
     *        lines concern server interfaces only. Syntax errors abort Install.
     * \param text the text
     */
    void SetOptions(const std::string& text);

    /**
     * \brief A harpd.options-like text for one device, applied after the common one.
     * \param device the device
     * \param text the text
     */
    void SetOptions(Ptr<NetDevice> device, const std::string& text);

    /**
     * \brief Reads a harpd.options-like file (aborts if it cannot be read).
     * \param path the file
     * \return its text, for SetOptions
     */
    static std::string ReadOptionsFile(const std::string& path);

    /**
     * \brief Runs HARP on each device (every one must be a GsnNetDevice with an IPv4 address),
     *        and makes the device report its LIS as its channel (HarpLisChannel), so that
     *        ns-3's global routing computes routes between LIS.
     * \param devices the devices
     * \return their HARP interfaces
     */
    HarpInterfaceContainer Install(const NetDeviceContainer& devices) const;

    /**
     * \brief Runs HARP on every GsnNetDevice of each node that has an IPv4 address.
     * \param nodes the nodes
     * \return the HARP interfaces
     */
    HarpInterfaceContainer Install(const NodeContainer& nodes) const;

    /**
     * \brief Runs HARP on every GsnNetDevice of a node that has an IPv4 address.
     * \param node the node
     * \return the HARP interfaces
     */
    HarpInterfaceContainer Install(Ptr<Node> node) const;

    /**
     * \brief Prints the HARP tables of every interface of the nodes (like gsnarp -a).
     * \param nodes the nodes
     * \param os where to print
     */
    static void PrintTables(const NodeContainer& nodes, std::ostream& os);

    /**
     * \brief Makes the ST of every node of \p nodes find its peers' ULAs through the node's
     *        HARP, as IP does on GSN: StProtocol::Connect (and the applications on it) waits
     *        for HARP's answer (a cache hit, a HARP request, or a server's answer) and fails
     *        with the peer unresolved when HARP gives up. Call it after Install and after ST
     *        is installed (StHelper::Install). The Bypass API's st_connect waits for HARP
     *        the same way.
     * \param nodes nodes running both HARP and ST (a node lacking either is a mistake: abort
     *        with a message naming it)
     */
    static void ResolveStPeers(const NodeContainer& nodes);

  private:
    /// One server of a LIS.
    struct LisServer
    {
        Ipv4Address network; ///< the LIS network
        Ipv4Mask mask;       ///< the LIS mask
        Mac48Address ula;    ///< the server's ULA
    };

    /// \return every declared server with the LIS it serves, in declaration order
    std::vector<LisServer> CollectServers() const;
    /// \return the HarpProtocol of a node, created if missing
    Ptr<HarpProtocol> GetOrCreateProtocol(Ptr<Node> node) const;
    /// Runs HARP on one device, given every server.
    Ptr<HarpInterface> InstallOne(Ptr<NetDevice> device,
                                  const std::vector<LisServer>& servers) const;

    ObjectFactory m_factory;                               ///< makes HarpProtocol objects
    std::vector<Ptr<NetDevice>> m_serverDevices;           ///< AddServer(device)
    std::vector<LisServer> m_extraServers;                 ///< AddServer(network, mask, ula)
    std::vector<HarpStaticEntry> m_statics;                ///< AddStatic
    std::string m_options;                                 ///< SetOptions(text)
    std::map<Ptr<NetDevice>, std::string> m_deviceOptions; ///< SetOptions(device, text)
};

} // namespace ns3

#endif /* HARP_HELPER_H */
