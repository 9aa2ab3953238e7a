/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HarpProtocol: HARP on one node (the harpd of the IRIX GSN stack), aggregated to the Node.
 * It owns one HarpInterface per GSN interface, builds their engine configurations from its
 * attributes (the timers and defaults of harp-config.h), an options text and what the helper
 * says (servers of the LIS, static entries, whether the interface serves), and offers the
 * resolution interface that IPv4 (through ARP) and ST use. It does no protocol work itself.
 */
#ifndef HARP_PROTOCOL_H
#define HARP_PROTOCOL_H

#include "harp-interface.h"

#include "ns3/harp-config.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class GsnNetDevice;
class Node;

/**
 * \ingroup harp
 * \brief What one interface gets besides the node-wide attributes.
 */
struct HarpInterfaceConfig
{
    /// ULAs of every HARP server of the interface's LIS (the same list on every host).
    std::vector<Mac48Address> servers;
    /// Static entries (gsnarp -s); those outside an engine's LIS are ignored by it.
    std::vector<HarpStaticEntry> statics;
    /// Run a HARP server on this interface, for the LIS of every address of the interface.
    bool server{false};
    /// A harpd.options-like text (see harp.rst), applied over the attributes.
    std::string options;
};

/**
 * \ingroup harp
 * \brief HARP on a node: the engines of its GSN interfaces, their configuration, and the
 *        resolution interface.
 *
 * Interfaces are identified by their NetDevice or by the device's index on the node
 * (NetDevice::GetIfIndex, the "ifIndex" below). Each interface's client is configured from the
 * attributes, then from the interface's options text, then with the servers and static entries
 * of its HarpInterfaceConfig. Its address and LIS are the first IPv4 address of the interface
 * and its mask; a server serves the LIS of every address of the interface (and those of the
 * options' "serve" lines).
 */
class HarpProtocol : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    /// EtherType of HARP frames (LLC/SNAP), shared with ARP.
    static constexpr uint16_t PROT_NUMBER = 0x0806;

    /// How clients learn whether the fabric broadcasts (harp::FabricMode as an attribute).
    enum FabricModeValue
    {
        AUTO,          ///< what the fabric's helper recorded on the device, else DETECT
        DETECT,        ///< broadcast self-test at start-up (RFC 2835)
        BROADCAST,     ///< known broadcast-capable
        NON_BROADCAST, ///< known non-broadcast: register with servers at once
    };

    HarpProtocol();
    ~HarpProtocol() override;

    /// \param node the node this protocol runs on
    void SetNode(Ptr<Node> node);
    /// \return the node
    Ptr<Node> GetNode() const;

    /**
     * \return a client configuration holding the attributes' timers and mode (Auto gives
     *         Detect here: no device is known)
     */
    harp::ClientConfig GetDefaultClientConfig() const;

    /**
     * \param device a GSN endpoint
     * \return the fabric mode its client starts in: the FabricMode attribute, or with Auto
     *         what the fabric's helper recorded on the device (Detect if nothing)
     */
    harp::FabricMode GetFabricModeFor(Ptr<const GsnNetDevice> device) const;
    /// \return a server configuration holding the attributes' registration lifetime
    harp::ServerConfig GetDefaultServerConfig() const;

    /**
     * \brief Runs HARP on a GSN interface. IPv4 must be installed on the node and hold an
     *        address on the device. The client starts StartDelay later. It also sets what
     *        HARP needs of ns-3's ARP: the node's ArpL3Protocol RequestJitter to zero
     *        (ZeroArpRequestJitter) and the interface's ArpCache PendingQueueSize
     *        (ArpPendingQueueSize).
     * \param device the GSN endpoint
     * \param config servers, static entries, server role, options text
     * \return the interface
     */
    Ptr<HarpInterface> AddInterface(Ptr<GsnNetDevice> device, const HarpInterfaceConfig& config);

    /// \return the number of HARP interfaces
    uint32_t GetNInterfaces() const;
    /// \param i an index below GetNInterfaces() \return the interface
    Ptr<HarpInterface> GetInterface(uint32_t i) const;
    /// \param device a device \return its HARP interface, or null
    Ptr<HarpInterface> GetInterfaceForDevice(Ptr<const NetDevice> device) const;
    /// \param ifIndex a device index on the node \return its HARP interface, or null
    Ptr<HarpInterface> GetInterfaceForIfIndex(uint32_t ifIndex) const;
    /// \param peer an address \return the first interface whose LIS holds it, or null
    Ptr<HarpInterface> GetInterfaceForPeer(Ipv4Address peer) const;

    /**
     * \brief Resolves an address of the LIS of an interface (see HarpInterface::Resolve).
     * \param device the interface's device
     * \param ip the address
     * \return the ULA on a hit; nothing on a miss (a resolution starts) or without HARP there
     */
    std::optional<Mac48Address> Resolve(Ptr<const NetDevice> device, Ipv4Address ip);

    /**
     * \brief Resolves an address of the LIS of an interface.
     * \param ifIndex the interface's device index
     * \param ip the address
     * \return the ULA on a hit
     */
    std::optional<Mac48Address> Resolve(uint32_t ifIndex, Ipv4Address ip);

    /**
     * \brief Resolves an address and reports the outcome later (see HarpInterface::ResolveAsync).
     *        Without HARP on the device the callback reports a failure.
     * \param device the interface's device
     * \param ip the address
     * \param callback called once with the outcome
     */
    void ResolveAsync(Ptr<const NetDevice> device,
                      Ipv4Address ip,
                      HarpInterface::ResolveCallback callback);

    /**
     * \brief Resolves an address and reports the outcome later.
     * \param ifIndex the interface's device index
     * \param ip the address
     * \param callback called once with the outcome
     */
    void ResolveAsync(uint32_t ifIndex, Ipv4Address ip, HarpInterface::ResolveCallback callback);

    /**
     * \param device the interface's device
     * \param ip the address
     * \return the ULA the interface's table holds (no side effect)
     */
    std::optional<Mac48Address> Lookup(Ptr<const NetDevice> device, Ipv4Address ip) const;

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    Ptr<Node> m_node;                             ///< the node
    std::vector<Ptr<HarpInterface>> m_interfaces; ///< one per GSN interface
    uint32_t m_broadcastProbes;                   ///< BroadcastProbes
    Time m_probeInterval;                         ///< ProbeInterval
    Time m_registrationRetry;                     ///< RegistrationRetry
    Time m_requestTimeout;                        ///< RequestTimeout
    uint32_t m_requestRetries;                    ///< RequestRetries
    Time m_reregistrationInterval;                ///< ReregistrationInterval
    Time m_cacheLifetime;                         ///< CacheLifetime
    Time m_registrationLifetime;                  ///< RegistrationLifetime
    bool m_revalidateIdleEntries;                 ///< RevalidateIdleEntries
    FabricModeValue m_fabricMode;                 ///< FabricMode
    Time m_startDelay;                            ///< StartDelay
    bool m_zeroArpRequestJitter;                  ///< ZeroArpRequestJitter
    uint32_t m_arpPendingQueueSize;               ///< ArpPendingQueueSize
    bool m_broadcastEmulation;                    ///< BroadcastEmulation
};

} // namespace ns3

#endif /* HARP_PROTOCOL_H */
