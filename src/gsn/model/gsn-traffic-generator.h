/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTrafficGenerator: the traffic source and sink of one endpoint in a fabric study. It
 * owns the choice of destination (the traffic pattern), of size and VC per Message, the
 * Poisson arrival process that sets the offered load, and the reception of Messages on its
 * node. It sends straight through the node's GsnNetDevice (no IP) and leaves every count
 * and summary to the shared GsnTrafficStats; it knows nothing about topology or routing.
 */
#ifndef GSN_TRAFFIC_GENERATOR_H
#define GSN_TRAFFIC_GENERATOR_H

#include "gsn-constants.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class ExponentialRandomVariable;
class GsnNetDevice;
class GsnTrafficStats;
class Packet;
class RandomVariableStream;
class UniformRandomVariable;

/**
 * \ingroup gsn
 * \brief Open-loop Message traffic between the endpoints of a GSN fabric.
 *
 * Every endpoint runs one generator; GsnTrafficHelper gives each its index, the ULAs of all
 * endpoints (the index of an endpoint is its position in that list), the destination of the
 * Permutation pattern and the shared GsnTrafficStats.
 *
 * Messages leave as a Poisson process: inter-arrival times are exponential with mean
 * meanBytes * 8 / (OfferedLoad * 6.4 Gbit/s), where 6.4 Gbit/s is the link's data rate
 * (32 data bytes per 40 ns micropacket) and meanBytes the mean of MessageSize. Each
 * Message starts with a GsnTrafficHeader, travels on the EtherType of the EtherType
 * attribute and carries a GsnVcTag naming its VC. A Message the device refuses (longer
 * than its VC allows, or a full queue) is counted and traced, and uses no sequence number.
 */
class GsnTrafficGenerator : public Application
{
  public:
    /// Who sends to whom.
    enum Pattern
    {
        UNIFORM_RANDOM, ///< each Message to an endpoint drawn uniformly among the others
        PERMUTATION,    ///< always to one endpoint, from a random permutation of the run
        ALL_TO_ALL,     ///< round robin over all the others, starting with the next index
        INCAST,         ///< everyone to the hot spot; the hot spot sends nothing
        HOT_SPOT,       ///< HotSpotFraction to the hot spot, the rest uniform over the others
    };

    /// NextDestination() when this endpoint has nobody to send to.
    static constexpr uint32_t NO_DESTINATION = std::numeric_limits<uint32_t>::max();
    /// Vc attribute value that draws the VC of each Message uniformly.
    static constexpr uint8_t RANDOM_VC = gsn::NUM_VCS;
    /// Data rate of a link, bit/s: 32 data bytes per 40 ns micropacket (6.4 Gbit/s).
    static constexpr double LINK_DATA_RATE =
        gsn::MICROPACKET_DATA_BYTES * 8.0 * 1e9 / gsn::MICROPACKET_TIME_NS;

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnTrafficGenerator();
    ~GsnTrafficGenerator() override;

    /**
     * \param index this endpoint's position in \p endpoints
     * \param endpoints the ULAs of all endpoints of the run
     */
    void SetEndpoints(uint32_t index, const std::vector<Mac48Address>& endpoints);
    /**
     * SetEndpoints() with a list shared by the generators of a run (one copy for all).
     * \param index this endpoint's position in \p endpoints
     * \param endpoints the ULAs of all endpoints of the run
     */
    void SetEndpoints(uint32_t index, std::shared_ptr<const std::vector<Mac48Address>> endpoints);
    /// \return this endpoint's index
    uint32_t GetIndex() const;
    /// \return the number of endpoints of the run
    uint32_t GetEndpointCount() const;

    /// \param destination the endpoint this one sends to under the Permutation pattern
    void SetPermutationDestination(uint32_t destination);
    /// \return the endpoint this one sends to under the Permutation pattern
    uint32_t GetPermutationDestination() const;

    /// \param stats where to record Messages (may be shared by all generators of a run)
    void SetStats(Ptr<GsnTrafficStats> stats);
    /// \return where Messages are recorded
    Ptr<GsnTrafficStats> GetStats() const;

    /// \param device the endpoint device to use (default: the node's first GsnNetDevice)
    void SetDevice(Ptr<GsnNetDevice> device);
    /// \return the endpoint device in use
    Ptr<GsnNetDevice> GetDevice() const;

    /**
     * Choose the destination of the next Message by the Pattern attribute (draws random
     * numbers and advances the round robin, as sending would).
     * \return an endpoint index, or NO_DESTINATION
     */
    uint32_t NextDestination();

    /**
     * Send one Message now, outside the arrival process.
     * \param destination an endpoint index
     * \param bytes Message payload bytes, at least the traffic header's 28 (fewer abort:
     *        the Message could not carry its header)
     * \param vc its virtual channel
     * \return true if the device accepted it
     */
    bool Send(uint32_t destination, uint32_t bytes, uint8_t vc);

    /**
     * Check that the attributes describe traffic this generator can produce as asked.
     * StartApplication() aborts with this text when it is not empty.
     * \return "" if they do, else why not: a Constant or Uniform MessageSize that can be
     *         below the 28-byte traffic header (every Message carries it, so such sizes
     *         would offer more load than asked, and a mean of 0 bytes a time of 0 ns
     *         between Messages), a mean Message size below it (from MeanMessageSize or
     *         derived) or above 2^32 - 1, or a MessageSize whose mean cannot be derived
     *         while MeanMessageSize is 0. With a valid size the mean time between Messages
     *         is at least 35 ns (28 bytes at full load).
     */
    std::string Validate() const;

    /// \return the mean Message size in bytes used for the arrival rate (aborts when it
    /// cannot be derived: see Validate())
    double GetMeanMessageSize() const;
    /// \return the mean time between Messages (Time::Max() at zero load)
    Time GetMeanInterval() const;

    /// \return Messages made by the arrival process (accepted or refused)
    uint64_t GetGenerated() const;
    /// \return Messages the device accepted
    uint64_t GetSent() const;
    /// \return Messages the device refused
    uint64_t GetRefused() const;
    /// \return Messages received
    uint64_t GetReceived() const;

    /**
     * Assign fixed random variable stream numbers to the random variables of this
     * generator (arrivals, destinations, VCs, hot spot, and MessageSize).
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);
    /// How many streams AssignStreams() takes.
    static constexpr int64_t STREAMS = 5;

    /// TracedCallback signature for received Messages.
    typedef void (*RxTracedCallback)(Ptr<const Packet> packet, Time latency);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// \return true if the Pattern gives this endpoint somebody to send to
    bool HasDestination() const;
    /// Schedule the next Message of the arrival process.
    void ScheduleNext();
    /// Make and send one Message of the arrival process.
    void Generate();
    /// \return a Message size drawn from MessageSize, clamped to what a Message can hold
    uint32_t DrawMessageSize();
    /**
     * \param mean set to the mean of MessageSize (MeanMessageSize if set)
     * \return false if MeanMessageSize is 0 and the mean cannot be derived
     */
    bool FindMeanMessageSize(double& mean) const;

    /**
     * \param bytes the Message's size (as Send() takes it)
     * \return the Vc attribute's VC, or with RANDOM_VC one drawn uniformly among the VCs
     *         whose Message limit on the device admits the Message (among all four if none
     *         does: the device then refuses it)
     */
    uint8_t DrawVc(uint32_t bytes);
    /// \return an endpoint drawn uniformly among the others, except \p excluded
    uint32_t UniformOther(uint32_t excluded);
    /// Protocol handler: a Message arrived on the node.
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);

    // Attributes
    Pattern m_pattern;                       ///< traffic pattern
    double m_offeredLoad;                    ///< fraction of the link data rate
    Ptr<RandomVariableStream> m_messageSize; ///< Message payload bytes
    uint32_t m_meanMessageSize;              ///< mean of m_messageSize (0: derive)
    uint8_t m_vc;                            ///< VC, or RANDOM_VC
    uint64_t m_maxMessages;                  ///< Messages to generate (0: unlimited)
    uint16_t m_etherType;                    ///< EtherType of the Messages
    uint32_t m_hotSpot;                      ///< index of the hot spot
    double m_hotSpotFraction;                ///< share of Messages to the hot spot

    // Wiring
    uint32_t m_index;                                             ///< this endpoint's index
    std::shared_ptr<const std::vector<Mac48Address>> m_endpoints; ///< ULAs of all endpoints
    uint32_t m_permutationDestination;                            ///< destination under Permutation
    Ptr<GsnTrafficStats> m_stats;                                 ///< shared statistics
    Ptr<GsnNetDevice> m_device;                                   ///< endpoint device
    Node::ProtocolHandler m_handler;                              ///< registered receive handler

    // Random variables
    Ptr<ExponentialRandomVariable> m_interArrival; ///< times between Messages
    Ptr<UniformRandomVariable> m_destinationRng;   ///< uniform destinations
    Ptr<UniformRandomVariable> m_vcRng;            ///< random VCs
    Ptr<UniformRandomVariable> m_hotSpotRng;       ///< hot spot or not

    // State
    double m_meanIntervalNs; ///< mean inter-arrival time in use, ns
    uint32_t m_roundRobin;   ///< next offset of the all-to-all round robin
    uint64_t m_sequence;     ///< sequence number of the next accepted Message
    uint64_t m_generated;    ///< Messages generated
    uint64_t m_refused;      ///< Messages refused
    uint64_t m_received;     ///< Messages received
    EventId m_sendEvent;     ///< next Message

    TracedCallback<Ptr<const Packet>> m_txTrace;       ///< Tx
    TracedCallback<Ptr<const Packet>> m_txDropTrace;   ///< TxDrop
    TracedCallback<Ptr<const Packet>, Time> m_rxTrace; ///< Rx
};

} // namespace ns3

#endif /* GSN_TRAFFIC_GENERATOR_H */
