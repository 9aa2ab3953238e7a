/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * harp-broadcast-emulator.h: IP broadcast and multicast on a non-broadcast GSN fabric, as
 * RFC 2835 §7.1 (PIBES, the IP broadcast emulation server) has it, with the LIS's first HARP
 * server as the emulation server. A host sends its IP broadcasts and multicasts as unicast to
 * that server; the server copies each to every host registered in the sender's LIS but the
 * sender. IPv6 multicast (Neighbour Discovery's included) goes the same way, copied to every
 * host the server registered, since an IPv6 link spans the fabric. It moves datagrams only:
 * who is registered, and whether the fabric broadcasts, are the HARP engines' to say.
 */
#ifndef HARP_BROADCAST_EMULATOR_H
#define HARP_BROADCAST_EMULATOR_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>

namespace harp
{
class Server;
}

namespace ns3
{

class GsnNetDevice;

/**
 * \ingroup harp
 * \brief What the broadcast emulation did on one interface.
 */
struct HarpBroadcastCounters
{
    uint64_t sentToServer{0};     ///< IP broadcasts/multicasts this host sent to the server
    uint64_t replicated{0};       ///< datagrams the server copied (received or its own)
    uint64_t copiesSent{0};       ///< copies the server sent, one per registered host
    uint64_t copiesRefused{0};    ///< copies the device refused (queue full)
    uint64_t outsideServedLis{0}; ///< datagrams from a source in no LIS the server serves
};

/**
 * \ingroup harp
 * \brief PIBES (RFC 2835 §7.1) on one GSN interface: a host's side (IP broadcast and
 * multicast sent to the server) or the server's (copies to every registered host).
 *
 * Started by HarpInterface once its client knows the fabric does not broadcast and the LIS
 * has a server; stopped when the client or the interface stops. Only IPv4 and IPv6
 * (EtherTypes 0x0800, 0x86DD) are concerned: HARP frames and ST keep their own paths.
 */
class HarpBroadcastEmulator
{
  public:
    /// \return the server of this interface, or null if it runs none (or it is stopped)
    using ServerGetter = std::function<const harp::Server*()>;

    /**
     * \param node the node
     * \param device its GSN endpoint device
     * \param server what gives the interface's running HARP server
     */
    HarpBroadcastEmulator(Ptr<Node> node, Ptr<GsnNetDevice> device, ServerGetter server);
    ~HarpBroadcastEmulator();

    HarpBroadcastEmulator(const HarpBroadcastEmulator&) = delete;
    HarpBroadcastEmulator& operator=(const HarpBroadcastEmulator&) = delete;

    /**
     * Start: IP broadcasts and multicasts of this device go to \p emulationServer; if that is
     * this device, it copies them (and those the hosts send it) to the registered hosts.
     * \param emulationServer the ULA of the LIS's first HARP server
     */
    void Start(Mac48Address emulationServer);

    /// Stop: IPv4 goes to the wire as ns-3 addressed it (broadcasts to the broadcast ULA).
    void Stop();

    /// \return whether it is started
    bool IsActive() const;

    /// \return whether this device is the emulation server
    bool IsServer() const;

    /// \return the counters
    const HarpBroadcastCounters& GetCounters() const;

  private:
    /// The device's IP sends: group destinations go to the server (or are copied here).
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocol);
    /// The node's IP frames of this device (server): copy a unicast group datagram.
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);
    /// Copy \p datagram (of EtherType \p protocol) to the registered hosts but \p sender and
    /// us: those of its source's LIS for IPv4, all for IPv6.
    void Replicate(Ptr<const Packet> datagram, uint16_t protocol, Mac48Address sender);
    /// \return whether \p datagram (IPv4 or IPv6) is addressed to a group
    bool IsGroupDatagram(Ptr<const Packet> datagram, uint16_t protocol) const;

    Ptr<Node> m_node;                 ///< the node
    Ptr<GsnNetDevice> m_device;       ///< the device
    ServerGetter m_server;            ///< the interface's HARP server, if any
    Mac48Address m_emulation;         ///< the emulation server's ULA (started)
    bool m_active{false};             ///< started
    bool m_handlerRegistered{false};  ///< Receive is a protocol handler of the node
    HarpBroadcastCounters m_counters; ///< what it did
};

} // namespace ns3

#endif /* HARP_BROADCAST_EMULATOR_H */
