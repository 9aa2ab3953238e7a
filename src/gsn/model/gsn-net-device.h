/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnNetDevice: the endpoint adapter a host sees (the gsn# interface of IRIX GSN), a
 * driver-equivalent model. On top of the port's link layer it owns the Message layer: per-VC
 * transmit queues, LLC/SNAP encapsulation, the choice of VC per EtherType, per-VC Message
 * size limits, segmentation, reassembly with the ECRC check, and demultiplexing by EtherType
 * (IP 0x0800, ARP/HARP 0x0806, ST 0x8181) to the protocols registered on the node.
 */
#ifndef GSN_NET_DEVICE_H
#define GSN_NET_DEVICE_H

#include "gsn-admin.h"
#include "gsn-host-adapter.h"
#include "gsn-message-assembler.h"
#include "gsn-message-segmenter.h"
#include "gsn-port-device.h"

#include "ns3/queue.h"

#include <map>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Whether the fabric behind an endpoint delivers broadcast Messages to every other
 *        endpoint, as the helper that built the fabric knows it (HARP uses it instead of its
 *        3-second self-test).
 */
enum class GsnFabricBroadcast
{
    UNKNOWN,       ///< nobody said (a device cabled by hand)
    BROADCAST,     ///< every switch broadcasts (or two endpoints back to back)
    NON_BROADCAST, ///< some switch does not broadcast
};

/**
 * \ingroup gsn
 * \brief Counters of an endpoint's Message layer.
 */
struct GsnMessageCounters
{
    uint64_t txMessages{0};       ///< Messages whose Header went on the wire
    uint64_t txRefusedTooLong{0}; ///< Send() refused: Message above its VC's limit
    uint64_t txRefusedBadVc{0};   ///< Send() refused: a GsnVcTag named no VC 0-3
    uint64_t txRefusedOverMtu{0}; ///< Send() refused: an IP or ARP packet above the MTU
    uint64_t txQueueDrops{0};     ///< Send() refused: the VC's queue was full
    /// Messages lost to a link reset on the sending side: cut while being sent, or sent with
    /// none of their micropackets accepted by the peer
    uint64_t txLostInReset{0};
    uint64_t rxMessages{0}; ///< Messages delivered to a protocol
    std::array<uint64_t, size_t(GsnRxDropReason::COUNT)> rxDrops{}; ///< per reason
};

/**
 * \ingroup gsn
 * \brief A GSN endpoint: one port, four VCs, Messages carrying IP, ARP/HARP and ST.
 *
 * Send() encapsulates the packet in LLC/SNAP with the protocol number as EtherType, puts the
 * Message addressing (M_len, D_ULA, S_ULA) in front and queues it on its VC: the VC named by
 * a GsnVcTag on the packet, otherwise the VC configured for its EtherType. A Message longer
 * than its VC allows (MaxMessageBytesVc*, compared with M_len) is refused: Send() returns
 * false and MacTxDrop fires, as IRIX refused it with EBADVC. An IPv4, IPv6 or ARP packet
 * larger than the MTU is refused the same way (IsBoundByMtu).
 *
 * Received micropackets leave the receive buffer at once (the host's DMA drains at link
 * rate), so their credits go straight back. A Message is checked (framing, M_len, ECRC,
 * LLC/SNAP) before it is handed up; a bad one is counted by reason and dropped.
 *
 * Without a host adapter (the Ideal profile) the host is infinitely fast: a Message may go
 * as soon as it is queued and a received one is handed up at its Tail. With one
 * (SetHostAdapter(), GsnHostAdapterHelper), a queued Message goes only when the adapter has
 * read it from host memory, micropacket by micropacket as its DMA bursts arrive, and a
 * received Message reaches its protocol when the adapter says the host has it.
 *
 * Pcap and the Sniffer traces see whole Messages as they are on the wire from byte 0 of the
 * Header micropacket: M_len(4) D_ULA(6) S_ULA(6) LLC/SNAP(8) payload. SnifferVc and
 * PromiscSnifferVc give the same Messages with their VC and direction (GsnHelper's pcap
 * files put both in a pseudo-header, GsnPcapHeader).
 */
class GsnNetDevice : public GsnPortDevice
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnNetDevice();
    ~GsnNetDevice() override;

    /// \return the Message-layer counters
    const GsnMessageCounters& GetMessageCounters() const
    {
        return m_msgCounters;
    }

    /**
     * \param vc a virtual channel
     * \return its transmit queue
     */
    Ptr<Queue<Packet>> GetTxQueue(uint8_t vc) const;

    /**
     * \param vc a virtual channel
     * \return the largest M_len it carries
     */
    uint64_t GetMaxMessageBytes(uint8_t vc) const;

    /**
     * \param bytes the size of a packet to send (without the LLC/SNAP header)
     * \param vc a virtual channel
     * \return whether \p vc carries it: its M_len (LLC/SNAP header included) is within
     *         GetMaxMessageBytes(\p vc)
     */
    bool CarriesOnVc(uint64_t bytes, uint8_t vc) const
    {
        return MessageLength(bytes) <= GetMaxMessageBytes(vc);
    }

    /**
     * \param protocolNumber an EtherType
     * \return whether packets of that EtherType are bounded by the MTU (IPv4, ARP/HARP,
     *         IPv6: the network layers it is reported to); others, such as ST, only by their
     *         VC's MaxMessageBytesVc*
     */
    static bool IsBoundByMtu(uint16_t protocolNumber);

    /// \param bytes a packet's size \return the M_len of the Message carrying it
    static uint64_t MessageLength(uint64_t bytes)
    {
        return gsn::LLC_SNAP_BYTES + bytes;
    }

    /**
     * \param packet a packet to send
     * \param protocolNumber its EtherType
     * \return the VC it would travel on (4 if its GsnVcTag is invalid)
     */
    uint8_t SelectVc(Ptr<const Packet> packet, uint16_t protocolNumber) const;

    // NetDevice API of an endpoint
    bool IsBroadcast() const override;
    /**
     * \return true only back to back (the cable's other end is an endpoint) and without a
     *         logical channel: behind a switch an endpoint reaches many hosts, so for IP it
     *         is a multi-access link (ns-3's global routing then sees a stub network, or the
     *         logical channel's hosts, instead of aborting on a neighbour without IPv4).
     */
    bool IsPointToPoint() const override;
    /**
     * \return the logical channel if one is set (SetLogicalChannel), else the cable
     *         (GetCable)
     */
    Ptr<Channel> GetChannel() const override;
    /**
     * \brief The channel GetChannel reports instead of the cable: the interfaces this one
     *        reaches directly at the network layer. HarpHelper sets one per logical IP
     *        subnet, so ns-3's global routing sees each LIS as one multi-access link and
     *        computes routes through the routers between LIS. The cable still carries
     *        everything; GetCable returns it.
     * \param channel the logical channel (null: report the cable again)
     */
    void SetLogicalChannel(Ptr<Channel> channel);
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /**
     * Send an Admin request (HIPPI-6400-SC) into the fabric. Its hop count and path say
     * which element processes it; the response fires the AdminResponse trace source.
     * \param request the request (its transaction id is set here)
     * \return the transaction id
     */
    uint32_t SendAdminRequest(GsnAdminPayload request);

    /**
     * Send an Admin request from the host: it enters the endpoint's innermost element
     * through its host-side port (seed 000: an Admin micropacket "can enter an element
     * through either port"). Hop count 0 is processed by that element, 1 by the next one
     * toward the fabric, ..., AdminElements by the element across the link. The response
     * fires the AdminResponse trace source when it reaches the host.
     * \param request the request (its transaction id is set here)
     * \return the transaction id
     */
    uint32_t SendAdminRequestFromHost(GsnAdminPayload request);

    /// \return the number of Admin elements of this endpoint (attribute AdminElements)
    uint32_t GetAdminElements() const;

    /// A callback that takes over Send() of one EtherType: packet, destination, EtherType.
    typedef Callback<bool, Ptr<Packet>, const Address&, uint16_t> SendInterceptor;

    /**
     * Route Send() and SendFrom() of \p protocolNumber to \p interceptor instead of the wire
     * (a null callback removes it). The HARP adaptation uses this to answer ns-3's ARP with
     * HARP, so that no Ethernet ARP reaches the GSN wire.
     * \param protocolNumber an EtherType
     * \param interceptor what handles it
     */
    void SetSendInterceptor(uint16_t protocolNumber, SendInterceptor interceptor);

    /// A callback that takes the received frames of one EtherType: the frame (from the
    /// EtherType's payload on) and its source ULA.
    typedef Callback<void, Ptr<const Packet>, Mac48Address> ReceiveInterceptor;

    /**
     * Hand the received frames of \p protocolNumber addressed to this endpoint (or broadcast)
     * to \p interceptor alone, instead of the node's protocol handlers (a null callback
     * removes it). The HARP adaptation takes 0x0806 this way: HARP reads every frame and
     * ns-3's ARP, which would read past the end of a short one, sees none.
     * \param protocolNumber an EtherType
     * \param interceptor what takes the frames
     */
    void SetReceiveInterceptor(uint16_t protocolNumber, ReceiveInterceptor interceptor);

    /**
     * Send on the wire, bypassing any interceptor (for the protocol that intercepts).
     * \param packet the payload
     * \param dest the destination ULA
     * \param protocolNumber the EtherType
     * \return false if refused (see Send())
     */
    bool SendToWire(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber);

    /**
     * Record what the helper that built the fabric knows about broadcast on it.
     * \param broadcast whether broadcast Messages reach every other endpoint
     */
    void SetFabricBroadcast(GsnFabricBroadcast broadcast)
    {
        m_fabricBroadcast = broadcast;
    }

    /**
     * Put a host adapter under this endpoint (null: none, the Ideal host). Set it before
     * the first Message is sent.
     * \param adapter the adapter
     */
    void SetHostAdapter(Ptr<GsnHostAdapter> adapter);

    /// \return the host adapter (null for the Ideal host)
    Ptr<GsnHostAdapter> GetHostAdapter() const
    {
        return m_hostAdapter;
    }

    /// \return what the fabric's helper recorded (UNKNOWN if none did)
    GsnFabricBroadcast GetFabricBroadcast() const
    {
        return m_fabricBroadcast;
    }

    /// \return the element address an Admin Set_element_address gave this endpoint's
    /// link-end element
    Mac48Address GetElementAddress() const
    {
        return m_elements.front().address;
    }

    /// \param element an element index (0: the link-end element) \return its element address
    Mac48Address GetElementAddress(uint32_t element) const
    {
        return m_elements.at(element).address;
    }

    /// \return what this endpoint learned its neighbour to be (Exchange_element_type)
    GsnElementType GetNeighborType() const
    {
        return m_neighborType;
    }

    /// TracedCallback signature for Admin micropackets.
    typedef void (*AdminTracedCallback)(const GsnAdminPayload& payload);

    /// TracedCallback signature for Message drops at the destination.
    typedef void (*MessageDropTracedCallback)(Ptr<const Packet> message, GsnRxDropReason reason);

    /**
     * TracedCallback signature of the SnifferVc and PromiscSnifferVc sources: a Message as on
     * the wire (as Sniffer and PromiscSniffer give it), its VC, and whether this endpoint
     * received it (false: it sent it).
     */
    typedef void (*SnifferVcTracedCallback)(Ptr<const Packet> message, uint8_t vc, bool received);

  protected:
    void DoDispose() override;
    bool HasMessageMicropacket(uint8_t vc) const override;
    void PullMessageMicropacket(uint8_t vc, GsnMicropacket& mp) override;
    uint32_t TakeFollowingMessageMicropackets(uint8_t vc,
                                              uint32_t max,
                                              const Time& slot,
                                              uint32_t stride,
                                              GsnMicropacket& first) override;
    uint32_t TakeWovenMessageMicropackets(const uint8_t* vcs,
                                          uint32_t s,
                                          uint32_t maxRounds,
                                          const Time& slot,
                                          GsnMicropacket* firsts) override;
    void ReceiveMessageMicropacket(GsnMicropacket&& mp) override;
    Time NextMessageMicropacketTime(uint8_t vc) const override;
    bool TakesMessageSpan(uint8_t vc) const override;
    void ReceiveMessageSpan(GsnMicropacket&& first, uint32_t n, uint32_t stride) override;
    void NotifyLinkReset() override;
    bool IsMessageBeingSent(const GsnMicropacket& header) const override;
    void NotifyMessageLostInReset(const GsnMicropacket& header) override;
    void NotifyLinkUp() override;
    void ReceiveAdminMicropacket(const GsnMicropacket& mp) override;

  private:
    /// The Message layer's send, after interceptors.
    bool DoSend(Ptr<Packet> packet,
                const Address& source,
                const Address& dest,
                uint16_t protocolNumber);
    /// Set the number of Admin elements (attribute AdminElements).
    void SetAdminElements(uint32_t n);
    /**
     * An Admin micropacket arrives at element \p k: through its fabric-side port
     * (\p fromFabric) or its host-side port. Forwarded out of the other port while its hop
     * count is above zero, processed here at zero.
     */
    void AdminArrives(uint32_t k, bool fromFabric, GsnAdminPayload p);
    /// \p p leaves element \p k by its fabric-side port (onto the link from element 0).
    void AdminOutward(uint32_t k, const GsnAdminPayload& p);
    /// \p p leaves element \p k by its host-side port (to the host from the innermost).
    void AdminInward(uint32_t k, const GsnAdminPayload& p);
    /// Answer an Admin request addressed to element \p k, that came in by its fabric-side
    /// port if \p fromFabric. \return false if nothing is to be answered
    bool ProcessAdminRequest(uint32_t k, bool fromFabric, GsnAdminPayload& p);
    /// Act on a response to this endpoint's own discovery requests.
    void ProcessAdminResponse(const GsnAdminPayload& p);
    /// Take a received Header/Data micropacket into the Message of its VC.
    void Reassemble(const GsnMicropacket& mp);
    /// Hand a complete Message, received on \p vc, to the protocols.
    void DeliverMessage(Ptr<Packet> message, uint8_t vc);
    /// The host has a received Message: hand its \p packet to the protocols.
    void HandUp(Ptr<Packet> message, Ptr<Packet> packet, uint16_t protocol, Mac48Address source);
    /// The host adapter has a Message or micropacket ready that it held back.
    void KickTransmit();
    /// Count and trace a Message dropped at the destination.
    void DropMessage(Ptr<const Packet> message, GsnRxDropReason reason);
    /// \return whether an ARP/HARP frame holds the addresses its header announces
    static bool IsWholeArp(Ptr<const Packet> frame);
    /// Set the size of every VC's transmit queue.
    void SetTxQueueMaxSize(QueueSize size);
    /// \return the size of the transmit queues
    QueueSize GetTxQueueMaxSize() const;

    std::array<Ptr<Queue<Packet>>, gsn::NUM_VCS> m_txQueue;    ///< Messages waiting per VC
    std::array<GsnMessageSegmenter, gsn::NUM_VCS> m_segmenter; ///< Message being sent
    std::array<GsnMessageAssembler, gsn::NUM_VCS> m_assembler; ///< Message being received
    uint64_t m_maxMessageBytes0;                               ///< M_len limit of VC 0
    uint64_t m_maxMessageBytes1;                               ///< M_len limit of VC 1
    uint64_t m_maxMessageBytes2;                               ///< M_len limit of VC 2
    uint64_t m_maxMessageBytes3;                               ///< M_len limit of VC 3
    QueueSize m_txQueueMaxSize;                                ///< size of each queue
    uint8_t m_ipVc;                                            ///< VC for EtherType 0x0800
    uint8_t m_arpVc;                                           ///< VC for EtherType 0x0806
    uint8_t m_stVc;                                ///< VC for EtherType 0x8181 (ST control)
    uint8_t m_defaultVc;                           ///< VC for other EtherTypes
    Ptr<GsnHostAdapter> m_hostAdapter;             ///< the host side (null: Ideal)
    std::array<Time, gsn::NUM_VCS> m_rxHeaderAt{}; ///< arrival of each VC's last Header

    std::map<uint16_t, SendInterceptor> m_interceptors; ///< EtherTypes handled off the wire
    std::map<uint16_t, ReceiveInterceptor> m_receiveInterceptors; ///< EtherTypes taken on receipt
    Ptr<Channel> m_logicalChannel; ///< what GetChannel reports (SetLogicalChannel), or null
    bool m_needsArp;               ///< what NeedsArp() answers
    bool m_adminDiscovery;         ///< ask the neighbour at link up (and a switch for a ULA)
    bool m_adoptAssignedUla;       ///< take the ULA a switch assigns
    GsnElementType m_neighborType; ///< what the neighbour said it is

    /// One Admin element of the endpoint; element 0 is on the link (SuMAC), the last one
    /// faces the host.
    struct AdminElement
    {
        Mac48Address address;        ///< set by Set_element_address
        GsnAdminRegisters registers; ///< its Admin registers
    };

    std::vector<AdminElement> m_elements; ///< the endpoint's elements
    uint32_t m_nextTransaction;           ///< transaction id of the next request
    uint64_t m_adminErrors;               ///< Admin micropackets that could not be processed
    GsnFabricBroadcast m_fabricBroadcast{GsnFabricBroadcast::UNKNOWN}; ///< as the helper knew
    TracedCallback<const GsnAdminPayload&> m_adminRequestTrace;        ///< requests processed here
    TracedCallback<const GsnAdminPayload&> m_adminResponseTrace;       ///< responses received

    NetDevice::ReceiveCallback m_rxCallback;               ///< protocol handlers
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; ///< promiscuous handlers
    GsnMessageCounters m_msgCounters;                      ///< counters

    TracedCallback<Ptr<const Packet>> m_macTxTrace;                      ///< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;                  ///< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macRxTrace;                      ///< MacRx
    TracedCallback<Ptr<const Packet>> m_macPromiscRxTrace;               ///< MacPromiscRx
    TracedCallback<Ptr<const Packet>, GsnRxDropReason> m_macRxDropTrace; ///< MacRxDrop
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;                 ///< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;                   ///< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;                   ///< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_snifferTrace;                    ///< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;             ///< PromiscSniffer

    /// SnifferVc and PromiscSnifferVc: Message, VC, received
    TracedCallback<Ptr<const Packet>, uint8_t, bool> m_snifferVcTrace;
    TracedCallback<Ptr<const Packet>, uint8_t, bool> m_promiscSnifferVcTrace; ///< (see above)
};

} // namespace ns3

#endif /* GSN_NET_DEVICE_H */
