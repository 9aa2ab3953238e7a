/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HarpLisChannel: one logical IP subnet (LIS) of a GSN fabric as ns-3 sees a multi-access
 * link. The cables of a fabric join each endpoint to a switch, so the channel of a GSN
 * interface shows one switch port and no IP neighbour; at the network layer an interface
 * reaches every member of its LIS directly (HARP resolves them) and the rest only through a
 * router. HarpHelper makes one of these per LIS and sets it as each member's logical channel
 * (GsnNetDevice::SetLogicalChannel), so ns-3's global routing computes routes between LIS.
 * It carries nothing: frames still cross the fabric's cables and switches.
 */
#ifndef HARP_LIS_CHANNEL_H
#define HARP_LIS_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup harp
 * \brief The members of one LIS, as the channel their GSN interfaces report.
 */
class HarpLisChannel : public Channel
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    HarpLisChannel();

    /**
     * \brief The channel of a LIS, made on first use; one per network and mask until
     *        Simulator::Destroy.
     * \param network the LIS's network address
     * \param mask its mask
     * \return the channel
     */
    static Ptr<HarpLisChannel> Get(Ipv4Address network, Ipv4Mask mask);

    /**
     * \brief Add a member (once) and make the channel its logical channel.
     * \param device a GsnNetDevice with an address in this LIS
     */
    void Attach(Ptr<NetDevice> device);

    /// \return the LIS's network address
    Ipv4Address GetNetwork() const;
    /// \return the LIS's mask
    Ipv4Mask GetMask() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Ipv4Address m_network;                 ///< the LIS
    Ipv4Mask m_mask;                       ///< its mask
    std::vector<Ptr<NetDevice>> m_devices; ///< its members
};

} // namespace ns3

#endif /* HARP_LIS_CHANNEL_H */
