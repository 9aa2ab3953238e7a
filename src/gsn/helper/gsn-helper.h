/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnHelper: wires two nodes together with GSN endpoint devices and a GSN cable, gives
 * each endpoint a ULA, and turns pcap and ASCII tracing on through ns-3's trace helpers.
 */
#ifndef GSN_HELPER_H
#define GSN_HELPER_H

#include "gsn-host-adapter-helper.h"

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
 * Pcap files of an endpoint (GsnNetDevice) hold one record per Message sent or received,
 * from byte 0 of its Header micropacket: M_len (4 bytes, big-endian), D_ULA (6), S_ULA (6),
 * the 802.2 LLC/SNAP header (8, EtherType last) and the payload. By default each record
 * starts with a 4-byte pseudo-header (GsnPcapHeader: VC, direction, 2 reserved bytes), link
 * type LINKTYPE_USER2 (149); SetPcapVcHeader(false) leaves it out (LINKTYPE_USER0, 147).
 *
 * A switch port has no Messages (it forwards micropackets as they come): its pcap file holds
 * every micropacket it sends and every good one it receives, 40 bytes each as
 * GsnMicropacket::Serialize writes them, link type LINKTYPE_USER1 (148), from the port's
 * MicropacketTx and MicropacketRx traces. EnablePcapAll() covers switch ports too.
 *
 * Records carry the time a micropacket starts on the wire (sent) or arrived (received); the
 * sent Messages, the time their Header starts. In the Run link mode a port chooses the slots
 * of a run at its start: the records traced ahead of their time wait in the writer until the
 * simulation has passed it, so that each file stays in time order.
 *
 * tools/gsn.lua dissects all three link types in Wireshark.
 */
class GsnHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    /// The pcap link type of GSN Message records without pseudo-header (LINKTYPE_USER0).
    static constexpr uint32_t PCAP_LINK_TYPE = 147;
    /// The pcap link type of micropacket records (LINKTYPE_USER1), switch ports' files.
    static constexpr uint32_t PCAP_MICROPACKET_LINK_TYPE = 148;
    /// The pcap link type of GSN Message records behind a GsnPcapHeader (LINKTYPE_USER2).
    static constexpr uint32_t PCAP_VC_LINK_TYPE = 149;

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

    /**
     * Choose the format of the endpoints' pcap files enabled after this call.
     * \param enable true (the default): each Message behind a GsnPcapHeader (VC, direction),
     *        link type 149; false: the Messages alone, link type 147
     */
    void SetPcapVcHeader(bool enable);

    /**
     * Choose the host adapter profile of every endpoint created after this call (Ideal,
     * the default, puts none: see GsnHostAdapterHelper).
     * \param name Ideal, Adapter or Origin2000
     */
    void SetHostProfile(const std::string& name);

    /// \return the host adapter helper applied to every endpoint created (to Set() values
    /// on top of its profile)
    GsnHostAdapterHelper& GetHostAdapterHelper()
    {
        return m_hostAdapter;
    }

  protected:
    ObjectFactory m_deviceFactory;      ///< makes GsnNetDevices
    ObjectFactory m_channelFactory;     ///< makes GsnChannels
    bool m_pcapVcHeader;                ///< endpoints' pcap records behind a GsnPcapHeader
    GsnHostAdapterHelper m_hostAdapter; ///< puts the host side under each endpoint

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
