/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnHelper: wires two nodes together with GSN endpoint devices and a GSN cable, gives
 * each endpoint a ULA, and turns pcap and ASCII tracing on through ns-3's trace helpers.
 */
#ifndef GSN_HELPER_H
#define GSN_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class GsnChannel;
class GsnNetDevice;

/**
 * \ingroup gsn
 * \brief Builds GSN links between endpoints, and traces them.
 *
 * Pcap files use the link type LINKTYPE_USER0 (147); each record is one Message from
 * byte 0 of its Header micropacket: M_len (4 bytes, big-endian), D_ULA (6), S_ULA (6), the
 * 802.2 LLC/SNAP header (8, EtherType last) and the payload. tools/gsn.lua dissects it in
 * Wireshark.
 */
class GsnHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    /// The pcap link type of GSN Message records (LINKTYPE_USER0).
    static constexpr uint32_t PCAP_LINK_TYPE = 147;

    GsnHelper();
    ~GsnHelper() override = default;

    /**
     * Set an attribute of every GsnNetDevice created.
     * \param name attribute name
     * \param value attribute value
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * Set an attribute of every GsnChannel created.
     * \param name attribute name
     * \param value attribute value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * Connect the two nodes of \p c (exactly two) with one GSN cable.
     * \param c two nodes
     * \return their two devices, in the order of \p c
     */
    NetDeviceContainer Install(NodeContainer c);

    /**
     * Connect two nodes with one GSN cable.
     * \param a one node
     * \param b the other node
     * \return the two devices (a's first)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * Assign fixed random variable streams to the devices in \p c.
     * \param c devices made by this helper
     * \param stream first stream index
     * \return how many streams were assigned
     */
    int64_t AssignStreams(NetDeviceContainer c, int64_t stream);

    /**
     * Make the links of \p c lose micropackets: each GSN port gets its own RateErrorModel
     * (per micropacket) as ReceiveErrorModel, with a fixed stream. A corrupted micropacket
     * fails its LCRC and go-back-N resends it. A rate of 0 removes the models. Devices that
     * are not GSN ports are skipped.
     * \param c ports, e.g. GsnFabric::GetAllPorts()
     * \param rate probability that a received micropacket is corrupted, in [0, 1]
     * \param stream first stream index
     * \return how many streams were assigned
     */
    static int64_t SetMicropacketErrorRate(NetDeviceContainer c, double rate, int64_t stream);

  protected:
    ObjectFactory m_deviceFactory;  ///< makes GsnNetDevices
    ObjectFactory m_channelFactory; ///< makes GsnChannels

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;
};

} // namespace ns3

#endif /* GSN_HELPER_H */
