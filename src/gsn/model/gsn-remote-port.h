/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnRemotePort: what a rank of a fabric split over MPI ranks keeps of a port that another
 * rank simulates. It names the port (node, interface index, ULA) so that node and device
 * numbers, addresses, random streams and container positions agree on every rank, and stands
 * as the far end of a GsnRemoteChannel; it holds no link state and sends nothing. A few
 * hundred bytes instead of the port's buffers, queues and timers.
 */
#ifndef GSN_REMOTE_PORT_H
#define GSN_REMOTE_PORT_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"

namespace ns3
{

class Channel;

/**
 * \ingroup gsn
 * \brief Another rank's GSN port, by name only.
 *
 * Made by GsnFabricHelper for the elements of other ranks. Not added to its node (the node's
 * own rank has the real device at that interface index), so ns-3's lists of devices and
 * trace paths see only the ports this rank simulates. Send() refuses, with a message.
 */
class GsnRemotePort : public NetDevice
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnRemotePort();

    /**
     * Name the port.
     * \param node its node (made on every rank, with the port's rank as system id)
     * \param ifIndex its interface index on that node
     * \param address its ULA
     * \param endpoint true for an endpoint's GsnNetDevice, false for a GsnSwitchPort
     */
    void Name(Ptr<Node> node, uint32_t ifIndex, Mac48Address address, bool endpoint);
    /// \return true if it is an endpoint's device (false: a switch port)
    bool IsEndpoint() const;
    /// \param channel the cable it is the far end of (a GsnRemoteChannel)
    void SetChannel(Ptr<Channel> channel);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    Ptr<Node> m_node;       ///< the port's node
    Ptr<Channel> m_channel; ///< the cable it is the far end of (null if not cut)
    Mac48Address m_address; ///< its ULA
    uint32_t m_ifIndex;     ///< its interface index on m_node
    bool m_endpoint;        ///< an endpoint's device
};

} // namespace ns3

#endif /* GSN_REMOTE_PORT_H */
