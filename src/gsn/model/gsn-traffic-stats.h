/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTrafficStats: the statistics of one traffic run, shared by all GsnTrafficGenerators of
 * the run. It owns the per-Message records (who sent what to whom, when it left, when it
 * arrived), the detection of duplicates and reordering, the summary over a measurement
 * window (throughput, latency distribution with GSL, link utilisation and credit stalls of
 * the ports it is given) and the CSV / JSON / text output. It sends nothing and schedules
 * nothing but the two link counter snapshots at the edges of the window.
 */
#ifndef GSN_TRAFFIC_STATS_H
#define GSN_TRAFFIC_STATS_H

#include "ns3/mac48-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <iosfwd>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

class GsnPortDevice;
class GsnTrafficHeader;
class Packet;
enum class GsnRxDropReason : uint8_t;
enum class GsnSwitchDropReason : uint8_t;

/**
 * \ingroup gsn
 * \brief One generated Message, as the statistics keep it (24 bytes; the source and the
 * sequence number are the position of the record).
 */
struct GsnTrafficRecord
{
    /// Arrival time of a Message that has not arrived.
    static constexpr int64_t NOT_ARRIVED = -1;

    uint32_t destination{0};        ///< destination endpoint index
    uint32_t bytes{0};              ///< Message payload bytes (traffic header included)
    int64_t sendNs{0};              ///< when the generator handed it to the device, ns
    int64_t arrivalNs{NOT_ARRIVED}; ///< when it was first delivered, ns
};

/**
 * \ingroup gsn
 * \brief Distribution of Message latency (arrival - send), in nanoseconds.
 *
 * Percentiles interpolate linearly between order statistics
 * (gsl_stats_quantile_from_sorted_data). The confidence interval is the 95% Student-t
 * interval of the mean from batch means (see GsnTrafficStats' Batches attribute). Values
 * that need more samples than there are (all of them for zero samples; stddev and the
 * interval for one) are NaN.
 */
struct GsnLatencySummary
{
    uint64_t count{0};  ///< Messages measured
    double mean{0};     ///< mean, ns
    double stddev{0};   ///< sample standard deviation, ns
    double min{0};      ///< smallest, ns
    double max{0};      ///< largest, ns
    double p50{0};      ///< median, ns
    double p90{0};      ///< 90th percentile, ns
    double p99{0};      ///< 99th percentile, ns
    double p999{0};     ///< 99.9th percentile, ns
    double ci95Low{0};  ///< lower end of the 95% confidence interval of the mean, ns
    double ci95High{0}; ///< upper end of the 95% confidence interval of the mean, ns
};

/**
 * \ingroup gsn
 * \brief Traffic of one endpoint within the measurement window.
 */
struct GsnEndpointSummary
{
    uint32_t index{0};      ///< endpoint index
    uint64_t sent{0};       ///< Messages it sent in the window
    uint64_t received{0};   ///< Messages that arrived at it in the window
    uint64_t refused{0};    ///< Messages its device refused, whole run
    double txThroughput{0}; ///< payload bit/s it sent in the window
    double rxThroughput{0}; ///< payload bit/s delivered to it in the window
};

/**
 * \ingroup gsn
 * \brief Use of one GSN port's transmit side within the measurement window.
 */
struct GsnLinkSummary
{
    uint32_t node{0};           ///< node id
    uint32_t ifIndex{0};        ///< interface index on the node
    Mac48Address address;       ///< the port's ULA
    uint64_t txMicropackets{0}; ///< micropackets sent (all types)
    double utilisation{0};      ///< txMicropackets / (elapsed / 40 ns)
    uint64_t creditStalls{0};   ///< times a VC started waiting for credit
    Time creditStallTime;       ///< time VCs waited for credit in the window (all VCs)
    bool runMode{false};        ///< the port is in the run link mode
    /// run mode: times a VC waited for a run's end in the window, where micropacket by
    /// micropacket it would have gone at once (the runWaits counter, GsnLinkCounters)
    uint64_t runWaits{0};
    Time runWaitTime; ///< run mode: the time of those waits in the window
};

/**
 * \ingroup gsn
 * \brief Summary of a traffic run over a measurement window [start, end).
 */
struct GsnTrafficSummary
{
    Time windowStart; ///< start of the window
    Time windowEnd;   ///< end of the window

    uint64_t sent{0};           ///< Messages sent in the window
    uint64_t delivered{0};      ///< Messages that arrived in the window
    uint64_t undelivered{0};    ///< Messages sent in the window that never arrived
    uint64_t bytesSent{0};      ///< payload bytes sent in the window
    uint64_t bytesDelivered{0}; ///< payload bytes that arrived in the window
    uint64_t refused{0};        ///< Messages the devices refused, whole run
    uint64_t duplicates{0};     ///< second and later arrivals of a Message, whole run
    uint64_t outOfOrder{0};     ///< arrivals behind a later Message of the same pair, whole run
    uint64_t misdelivered{0};   ///< arrivals at an endpoint they were not sent to, whole run
    uint64_t stray{0};          ///< arrivals that match no Message sent, whole run
    uint64_t lost{0};           ///< Messages a device or switch dropped, whole run
    uint64_t inFlight{0};       ///< Messages neither delivered nor lost, whole run, now

    double offeredThroughput{0};   ///< payload bit/s sent in the window, all endpoints
    double deliveredThroughput{0}; ///< payload bit/s delivered in the window, all endpoints

    GsnLatencySummary latency; ///< latency of Messages sent in the window and delivered

    std::vector<GsnEndpointSummary> endpoints; ///< per endpoint
    std::vector<GsnLinkSummary> links;         ///< per port given to AddLinks()
    double meanUtilisation{0};                 ///< mean over links (NaN without links)
    double maxUtilisation{0};                  ///< largest over links (NaN without links)
    Time totalCreditStallTime;                 ///< sum over links
    uint32_t runModeLinks{0};                  ///< links in the run link mode
    uint64_t totalRunWaits{0};                 ///< sum over links
    Time totalRunWaitTime;                     ///< sum over links
};

/**
 * \ingroup gsn
 * \brief Records every Message of a traffic run and summarizes the run.
 *
 * Generators call RecordSent() when their device accepts a Message, RecordRefused() when it
 * refuses one, and RecordArrival() for every Message that reaches them. The first arrival
 * of a Message completes its record; later ones count as duplicates. An arrival whose
 * sequence number is below one already delivered for the same (source, destination) pair
 * counts as out of order (legitimate between different VCs).
 *
 * Summarize() covers the window [WindowStart, WindowEnd): throughput counts Messages that
 * arrived in the window; latency covers Messages sent in the window that arrived (at any
 * time: let the run drain after the window, or read `undelivered`). Link figures come from
 * counter snapshots taken when the window opens and closes (scheduled by AddLinks()), or
 * now if it has not closed yet.
 */
class GsnTrafficStats : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnTrafficStats();
    ~GsnTrafficStats() override;

    /**
     * \param n number of endpoints in the run (every one appears in the summary, even a
     * silent one)
     */
    void SetEndpointCount(uint32_t n);
    /// \return number of endpoints known
    uint32_t GetEndpointCount() const;

    /**
     * A device accepted a Message.
     * \param source sending endpoint
     * \param sequence its sequence number at the source (0, 1, 2, ...)
     * \param destination destination endpoint
     * \param bytes Message payload bytes
     * \param sendTime when it was handed to the device
     */
    void RecordSent(uint32_t source,
                    uint64_t sequence,
                    uint32_t destination,
                    uint32_t bytes,
                    Time sendTime);

    /**
     * A device refused a Message (too long for its VC, bad VC, full queue).
     * \param source sending endpoint
     */
    void RecordRefused(uint32_t source);

    /**
     * A Message arrived.
     * \param receiver the endpoint it reached
     * \param header its traffic header
     * \param arrival when it arrived
     * \return true if this is the Message's first arrival at its destination
     */
    bool RecordArrival(uint32_t receiver, const GsnTrafficHeader& header, Time arrival);

    /**
     * One share of a run split over MPI ranks: the Messages of sources this process does
     * not simulate are recorded when they arrive here (WriteCsv() lists them after the
     * others), instead of counting as stray; the ranks' files together hold every Message.
     * \param partial true for a share (default false)
     */
    void SetPartial(bool partial);

    /**
     * This process's share of a run split over MPI ranks (SetPartial), as text for
     * MergeShares() on another rank: the counters, the records of the sources it simulates,
     * the arrivals of other ranks' sources, and the readings of the watched ports of its
     * elements (those whose node's system id is \p rank).
     * \param rank this process's rank
     * \return the share
     */
    std::string WriteShare(uint32_t rank) const;

    /**
     * Make this (rank 0's) share the whole run: add the other ranks' shares (WriteShare()),
     * then complete every record with its arrival. Summarize(), Print() and WriteCsv() then
     * give what one process gives.
     * \param shares the other ranks' shares
     */
    void MergeShares(const std::vector<std::string>& shares);

    /**
     * A Message of the run was dropped on its way (by a switch or the receiving device).
     * Called by the drop sources AddDropSources() connects.
     */
    void RecordLost();

    /**
     * Count the Messages dropped on the way: connects the MacRxDrop trace of every
     * GsnNetDevice in \p endpoints and the MessageDrop trace of every GsnSwitch aggregated
     * to a node of \p switches. A switch drop counts when its destination is one of
     * \p endpoints.
     * \param endpoints the run's endpoint devices
     * \param switches the fabric's switch nodes
     */
    void AddDropSources(NetDeviceContainer endpoints, NodeContainer switches);

    /**
     * From \p from on, stop the simulation as soon as no Message of the run is in flight
     * (GetInFlight() is 0; checked every \p period), or at \p from + \p limit at the
     * latest. Stop the applications at \p from so that the fabric can empty.
     * \param from when to start checking (the end of the traffic)
     * \param limit longest time to wait after \p from
     * \param period time between two checks
     */
    void StopWhenDrained(Time from, Time limit, Time period = MicroSeconds(1));

    /// \return true if StopWhenDrained() saw no Message in flight
    bool IsDrained() const;
    /// \return when StopWhenDrained() stopped the simulation (drained or at its limit)
    Time GetDrainStop() const;

    /**
     * Watch the transmit side of GSN ports (endpoint or switch ports; other devices are
     * skipped). Their counters are read when the window opens and when it closes. Set the
     * window attributes before calling this.
     * \param ports the ports
     */
    void AddLinks(NetDeviceContainer ports);

    /// \return the summary over [WindowStart, WindowEnd), WindowEnd zero meaning now
    GsnTrafficSummary Summarize() const;

    /**
     * \param start start of the window
     * \param end end of the window
     * \return the summary over [start, end)
     */
    GsnTrafficSummary Summarize(Time start, Time end) const;

    /**
     * \param source an endpoint
     * \return the records of its Messages, indexed by sequence number
     */
    const std::vector<GsnTrafficRecord>& GetRecords(uint32_t source) const;

    /// \return Messages accepted by the devices, whole run
    uint64_t GetSent() const;
    /// \return Messages delivered at least once, whole run
    uint64_t GetDelivered() const;
    /// \return Messages refused by the devices, whole run
    uint64_t GetRefused() const;
    /// \return duplicate arrivals, whole run
    uint64_t GetDuplicates() const;
    /// \return out-of-order arrivals, whole run
    uint64_t GetOutOfOrder() const;
    /// \return arrivals at the wrong endpoint, whole run
    uint64_t GetMisdelivered() const;
    /// \return arrivals that match no record, whole run
    uint64_t GetStray() const;
    /**
     * \return Messages dropped by a device or switch, whole run. A Message cut by a link
     * reset can be dropped in two places (its head at one element, its rest at the next):
     * the count is capped at the Messages sent and not delivered.
     */
    uint64_t GetLost() const;
    /// \return Messages sent, not delivered and not lost: still in the fabric, whole run
    uint64_t GetInFlight() const;

    /**
     * Write one line per Message: a header line, then
     * `source,destination,sequence,bytes,send_ns,arrival_ns,latency_ns`, the last two
     * empty for a Message that did not arrive. Sources in order, then sequence numbers.
     * \param os where to write
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * \param path file to (over)write with WriteCsv(std::ostream&)
     */
    void WriteCsv(const std::string& path) const;

    /**
     * Write Summarize() as one JSON object (NaN written as null).
     * \param os where to write
     */
    void WriteSummaryJson(std::ostream& os) const;

    /**
     * \param os where to write
     * \param summary the summary to write as one JSON object
     */
    static void WriteSummaryJson(std::ostream& os, const GsnTrafficSummary& summary);

    /**
     * Write Summarize() for people.
     * \param os where to write
     * \param details also one line per endpoint and per port
     */
    void Print(std::ostream& os, bool details = true) const;

    /**
     * \param os where to write
     * \param summary the summary to write for people
     * \param details also one line per endpoint and per port
     */
    static void Print(std::ostream& os, const GsnTrafficSummary& summary, bool details = true);

    /**
     * TracedCallback signature of the Delivered source: a Message's first arrival at its
     * destination, with its record (arrival time filled in).
     * \param source the sending endpoint
     * \param sequence its sequence number at the source
     * \param record the Message's record
     */
    typedef void (*DeliveredTracedCallback)(uint32_t source,
                                            uint64_t sequence,
                                            const GsnTrafficRecord& record);

  protected:
    void DoDispose() override;

  private:
    /// A port's counters that the link summary uses, and when they were read.
    struct LinkReading
    {
        Time at;            ///< when
        uint64_t tx{0};     ///< micropackets sent (slots started)
        uint64_t stalls{0}; ///< credit stalls begun
        Time stallTime;     ///< credit-stall time
        bool runMode{false};  ///< the port is in the run link mode
        uint64_t runWaits{0}; ///< run waits begun
        Time runWaitTime;     ///< run-wait time
    };

    /// A watched port and its counters at the edges of the window.
    struct LinkWatch
    {
        Ptr<NetDevice> device;   ///< the port as given (another rank's: a GsnRemotePort)
        Ptr<GsnPortDevice> port; ///< the port, if this rank simulates it (else null)
        bool opened{false};      ///< the window has opened
        bool closed{false};      ///< the window has closed
        LinkReading open;        ///< read when it opened
        LinkReading close;       ///< read when it closed
    };

    /// \param port a port \return its counters now
    static LinkReading ReadLink(Ptr<const GsnPortDevice> port);
    /// Write reading \p r into a share (WriteShare()). \param os the share
    static void PutReading(std::ostream& os, const LinkReading& r);
    /// Read a reading PutReading() wrote. \param in the share \param r written
    static void GetReading(std::istream& in, LinkReading& r);

    /// Count an arrival behind a later one of the same pair (out of order).
    /// \param source source \param destination destination \param sequence its sequence
    void NoteOrder(uint32_t source, uint32_t destination, uint64_t sequence);
    /// Merge one other rank's share (counters, records, port readings; arrivals to m_foreign).
    /// \param share a WriteShare() text
    void MergeShare(const std::string& share);

    /// Make room for endpoint \p index.
    void Grow(uint32_t index);
    /// Read the counters of links [first, last) at an edge of the window.
    /// \param first first link \param last one past the last \param closing the end edge
    void ReadLinks(size_t first, size_t last, bool closing);
    /// Fill in the link part of \p s.
    void SummarizeLinks(GsnTrafficSummary& s) const;
    /// Stop the simulation if nothing is in flight or \p deadline has come; else check again.
    /// \param deadline the latest stop \param period time to the next check
    void CheckDrained(Time deadline, Time period);
    /// Drop sink of an endpoint device. \param message the Message (may be null)
    /// \param reason why
    void EndpointDrop(Ptr<const Packet> message, GsnRxDropReason reason);
    /// Drop sink of a switch. \param in input port \param vc VC \param to destination
    /// \param reason why
    void SwitchDrop(uint32_t in, uint8_t vc, Mac48Address to, GsnSwitchDropReason reason);
    /// \return the latency summary of \p samples (ns) given in send order
    GsnLatencySummary SummarizeLatency(const std::vector<double>& samples) const;

    Time m_windowStart; ///< WindowStart attribute
    Time m_windowEnd;   ///< WindowEnd attribute (zero: when summarized)
    uint32_t m_batches; ///< Batches attribute

    std::vector<std::vector<GsnTrafficRecord>> m_records;  ///< per source, by sequence
    std::vector<uint64_t> m_refusedBy;                     ///< refusals per source
    std::unordered_map<uint64_t, uint64_t> m_lastSequence; ///< per (source, destination)
    std::vector<LinkWatch> m_links;                        ///< watched ports

    uint64_t m_sent;         ///< accepted Messages
    uint64_t m_delivered;    ///< first arrivals
    uint64_t m_refused;      ///< refusals
    uint64_t m_duplicates;   ///< duplicate arrivals
    uint64_t m_outOfOrder;   ///< out-of-order arrivals
    uint64_t m_misdelivered; ///< arrivals at the wrong endpoint
    uint64_t m_stray;        ///< arrivals matching no record
    bool m_partial{false};   ///< SetPartial()
    /// Arrivals of other ranks' sources (SetPartial): source, sequence and the record.
    std::vector<std::tuple<uint32_t, uint64_t, GsnTrafficRecord>> m_foreign;
    std::set<std::pair<uint32_t, uint64_t>> m_foreignSeen; ///< (source, sequence) in m_foreign
    uint64_t m_lost;                                       ///< drops of Messages on the way
    std::vector<Mac48Address> m_dropWatched; ///< destinations whose switch drops count
    bool m_drained;                          ///< StopWhenDrained() saw nothing in flight
    Time m_drainStop;                        ///< when StopWhenDrained() stopped

    /// First arrivals of Messages (the Delivered trace source).
    TracedCallback<uint32_t, uint64_t, const GsnTrafficRecord&> m_deliveredTrace;
};

} // namespace ns3

#endif /* GSN_TRAFFIC_STATS_H */
