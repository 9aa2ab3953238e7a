/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-traffic-stats.h"

#include "gsn-constants.h"
#include "gsn-message-assembler.h"
#include "gsn-net-device.h"
#include "gsn-port-device.h"
#include "gsn-remote-port.h"
#include "gsn-switch.h"
#include "gsn-traffic-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnTrafficStats");

NS_OBJECT_ENSURE_REGISTERED(GsnTrafficStats);

namespace
{

constexpr double NOT_A_NUMBER = std::numeric_limits<double>::quiet_NaN();

/// \return a JSON number for \p v (null if it is not finite)
std::string
JsonNumber(double v)
{
    if (!std::isfinite(v))
    {
        return "null";
    }
    std::ostringstream os;
    os << std::setprecision(15) << v;
    return os.str();
}

/// \return \p bytes over \p duration in bit/s (NaN for an empty window)
double
BitRate(uint64_t bytes, Time duration)
{
    return duration.IsStrictlyPositive() ? bytes * 8.0 / duration.GetSeconds() : NOT_A_NUMBER;
}

/// \return the key of a (source, destination) pair
uint64_t
PairKey(uint32_t source, uint32_t destination)
{
    return (uint64_t(source) << 32) | destination;
}

} // namespace

TypeId
GsnTrafficStats::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnTrafficStats")
            .SetParent<Object>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnTrafficStats>()
            .AddAttribute("WindowStart",
                          "Start of the measurement window (excludes the warm-up before it).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&GsnTrafficStats::m_windowStart),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("WindowEnd",
                          "End of the measurement window; zero: the time of the summary.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&GsnTrafficStats::m_windowEnd),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Batches",
                          "Batches of consecutive Messages (in send order) whose means give "
                          "the confidence interval of the mean latency; fewer samples than "
                          "batches: one batch per sample.",
                          UintegerValue(20),
                          MakeUintegerAccessor(&GsnTrafficStats::m_batches),
                          MakeUintegerChecker<uint32_t>(2))
            .AddTraceSource("Delivered",
                            "A Message arrived at its destination for the first time: its "
                            "source, sequence number and record.",
                            MakeTraceSourceAccessor(&GsnTrafficStats::m_deliveredTrace),
                            "ns3::GsnTrafficStats::DeliveredTracedCallback");
    return tid;
}

GsnTrafficStats::GsnTrafficStats()
    : m_batches(20),
      m_sent(0),
      m_delivered(0),
      m_refused(0),
      m_duplicates(0),
      m_outOfOrder(0),
      m_misdelivered(0),
      m_stray(0),
      m_lost(0),
      m_drained(false)
{
    NS_LOG_FUNCTION(this);
}

GsnTrafficStats::~GsnTrafficStats()
{
    NS_LOG_FUNCTION(this);
}

void
GsnTrafficStats::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_links.clear();
    Object::DoDispose();
}

void
GsnTrafficStats::Grow(uint32_t index)
{
    if (index >= m_records.size())
    {
        m_records.resize(size_t(index) + 1);
        m_refusedBy.resize(size_t(index) + 1, 0);
    }
}

void
GsnTrafficStats::SetEndpointCount(uint32_t n)
{
    if (n > 0)
    {
        Grow(n - 1);
    }
}

uint32_t
GsnTrafficStats::GetEndpointCount() const
{
    return uint32_t(m_records.size());
}

void
GsnTrafficStats::RecordSent(uint32_t source,
                            uint64_t sequence,
                            uint32_t destination,
                            uint32_t bytes,
                            Time sendTime)
{
    NS_LOG_FUNCTION(this << source << sequence << destination << bytes << sendTime);
    Grow(std::max(source, destination));
    std::vector<GsnTrafficRecord>& records = m_records[source];
    NS_ABORT_MSG_UNLESS(sequence == records.size(),
                        "GsnTrafficStats: endpoint " << source << " sent sequence number "
                                                     << sequence << ", expected "
                                                     << records.size());
    GsnTrafficRecord r;
    r.destination = destination;
    r.bytes = bytes;
    r.sendNs = sendTime.GetNanoSeconds();
    records.push_back(r);
    ++m_sent;
}

void
GsnTrafficStats::RecordRefused(uint32_t source)
{
    NS_LOG_FUNCTION(this << source);
    Grow(source);
    ++m_refusedBy[source];
    ++m_refused;
}

bool
GsnTrafficStats::RecordArrival(uint32_t receiver, const GsnTrafficHeader& header, Time arrival)
{
    NS_LOG_FUNCTION(this << receiver << arrival);
    const uint32_t source = header.GetSource();
    const uint64_t sequence = header.GetSequence();
    if (m_partial && (source >= m_records.size() || m_records[source].empty()))
    {
        GsnTrafficRecord r;
        r.destination = header.GetDestination();
        r.bytes = header.GetMessageSize();
        r.sendNs = header.GetSendTime().GetNanoSeconds();
        r.arrivalNs = arrival.GetNanoSeconds();
        if (receiver != r.destination)
        {
            ++m_misdelivered;
            return false;
        }
        if (!m_foreignSeen.emplace(source, sequence).second)
        {
            ++m_duplicates;
            return false;
        }
        m_foreign.emplace_back(source, sequence, r);
        ++m_delivered;
        NoteOrder(source, r.destination, sequence);
        return true;
    }
    if (source >= m_records.size() || sequence >= m_records[source].size())
    {
        NS_LOG_WARN("arrival matches no Message sent: " << header);
        ++m_stray;
        return false;
    }
    GsnTrafficRecord& r = m_records[source][sequence];
    if (r.destination != header.GetDestination() || r.bytes != header.GetMessageSize() ||
        r.sendNs != header.GetSendTime().GetNanoSeconds())
    {
        NS_LOG_WARN("arrival disagrees with the Message sent: " << header);
        ++m_stray;
        return false;
    }
    if (receiver != r.destination)
    {
        NS_LOG_WARN("Message for endpoint " << r.destination << " arrived at " << receiver);
        ++m_misdelivered;
        return false;
    }
    if (r.arrivalNs != GsnTrafficRecord::NOT_ARRIVED)
    {
        ++m_duplicates;
        return false;
    }
    r.arrivalNs = arrival.GetNanoSeconds();
    ++m_delivered;
    m_deliveredTrace(source, sequence, r);
    NoteOrder(source, r.destination, sequence);
    return true;
}

void
GsnTrafficStats::NoteOrder(uint32_t source, uint32_t destination, uint64_t sequence)
{
    auto [it, fresh] = m_lastSequence.emplace(PairKey(source, destination), sequence);
    if (!fresh)
    {
        if (it->second > sequence)
        {
            ++m_outOfOrder;
        }
        else
        {
            it->second = sequence;
        }
    }
}

void
GsnTrafficStats::RecordLost()
{
    NS_LOG_FUNCTION(this);
    ++m_lost;
}

void
GsnTrafficStats::EndpointDrop(Ptr<const Packet> /* message */, GsnRxDropReason reason)
{
    NS_LOG_INFO("endpoint dropped a Message: " << GsnRxDropReasonName(reason));
    RecordLost();
}

void
GsnTrafficStats::SwitchDrop(uint32_t /* in */,
                            uint8_t /* vc */,
                            Mac48Address to,
                            GsnSwitchDropReason reason)
{
    // Only Messages to the run's endpoints (not, say, another study's broadcasts).
    if (std::find(m_dropWatched.begin(), m_dropWatched.end(), to) != m_dropWatched.end())
    {
        NS_LOG_INFO("switch dropped a Message to " << to << ": "
                                                   << GsnSwitchDropReasonName(reason));
        RecordLost();
    }
}

void
GsnTrafficStats::AddDropSources(NetDeviceContainer endpoints, NodeContainer switches)
{
    NS_LOG_FUNCTION(this);
    for (uint32_t i = 0; i < endpoints.GetN(); ++i)
    {
        Ptr<GsnNetDevice> device = DynamicCast<GsnNetDevice>(endpoints.Get(i));
        if (device)
        {
            m_dropWatched.push_back(Mac48Address::ConvertFrom(device->GetAddress()));
            device->TraceConnectWithoutContext(
                "MacRxDrop",
                MakeCallback(&GsnTrafficStats::EndpointDrop, Ptr<GsnTrafficStats>(this)));
        }
    }
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<GsnSwitch> sw = switches.Get(i)->GetObject<GsnSwitch>();
        if (sw)
        {
            sw->TraceConnectWithoutContext(
                "MessageDrop",
                MakeCallback(&GsnTrafficStats::SwitchDrop, Ptr<GsnTrafficStats>(this)));
        }
    }
}

void
GsnTrafficStats::StopWhenDrained(Time from, Time limit, Time period)
{
    NS_LOG_FUNCTION(this << from << limit << period);
    NS_ABORT_MSG_UNLESS(period.IsStrictlyPositive() && !limit.IsNegative(),
                        "GsnTrafficStats::StopWhenDrained: period must be > 0, limit >= 0");
    m_drained = false;
    const Time now = Simulator::Now();
    Simulator::Schedule(from > now ? from - now : Time(0),
                        &GsnTrafficStats::CheckDrained,
                        Ptr<GsnTrafficStats>(this),
                        from + limit,
                        period);
}

void
GsnTrafficStats::CheckDrained(Time deadline, Time period)
{
    const Time now = Simulator::Now();
    m_drained = GetInFlight() == 0;
    if (m_drained || now >= deadline)
    {
        m_drainStop = now;
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(std::min(period, deadline - now),
                        &GsnTrafficStats::CheckDrained,
                        Ptr<GsnTrafficStats>(this),
                        deadline,
                        period);
}

bool
GsnTrafficStats::IsDrained() const
{
    return m_drained;
}

Time
GsnTrafficStats::GetDrainStop() const
{
    return m_drainStop;
}

void
GsnTrafficStats::AddLinks(NetDeviceContainer ports)
{
    NS_LOG_FUNCTION(this);
    const size_t first = m_links.size();
    m_links.reserve(first + ports.GetN()); // (each copy of a Time made before Run is registered)
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(ports.Get(i));
        if (!port && !DynamicCast<GsnRemotePort>(ports.Get(i)))
        {
            NS_LOG_WARN("device " << ports.Get(i) << " is not a GSN port: skipped");
            continue;
        }
        // (Another rank's port keeps its place: its rank's readings come with GatherStats.)
        LinkWatch w;
        w.device = ports.Get(i);
        w.port = port;
        m_links.push_back(w);
    }
    const size_t last = m_links.size();
    const Time now = Simulator::Now();
    if (m_windowStart <= now)
    {
        ReadLinks(first, last, false);
    }
    else
    {
        Simulator::Schedule(m_windowStart - now,
                            &GsnTrafficStats::ReadLinks,
                            Ptr<GsnTrafficStats>(this),
                            first,
                            last,
                            false);
    }
    if (m_windowEnd.IsStrictlyPositive())
    {
        NS_ABORT_MSG_UNLESS(m_windowEnd > now,
                            "GsnTrafficStats::AddLinks: the window has already closed");
        Simulator::Schedule(m_windowEnd - now,
                            &GsnTrafficStats::ReadLinks,
                            Ptr<GsnTrafficStats>(this),
                            first,
                            last,
                            true);
    }
}

GsnTrafficStats::LinkReading
GsnTrafficStats::ReadLink(Ptr<const GsnPortDevice> port)
{
    const GsnLinkCounters& c = port->GetLinkCounters();
    LinkReading r;
    r.at = Simulator::Now();
    r.tx = port->GetTxMicropacketsStartedBefore(); // (independent of same-instant event order)
    for (uint32_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        r.stalls += c.creditStalls[vc];
        r.stallTime += c.creditStallTime[vc];
    }
    return r;
}

void
GsnTrafficStats::ReadLinks(size_t first, size_t last, bool closing)
{
    for (size_t i = first; i < last && i < m_links.size(); ++i)
    {
        LinkWatch& w = m_links[i];
        if (w.port)
        {
            (closing ? w.close : w.open) = ReadLink(w.port);
            (closing ? w.closed : w.opened) = true;
        }
    }
}

GsnTrafficSummary
GsnTrafficStats::Summarize() const
{
    return Summarize(m_windowStart, m_windowEnd.IsZero() ? Simulator::Now() : m_windowEnd);
}

GsnTrafficSummary
GsnTrafficStats::Summarize(Time start, Time end) const
{
    NS_LOG_FUNCTION(this << start << end);
    GsnTrafficSummary s;
    s.windowStart = start;
    s.windowEnd = end;
    const int64_t startNs = start.GetNanoSeconds();
    const int64_t endNs = end.GetNanoSeconds();
    const auto inWindow = [startNs, endNs](int64_t t) { return t >= startNs && t < endNs; };

    const size_t n = m_records.size();
    s.endpoints.resize(n);
    std::vector<uint64_t> txBytes(n, 0);
    std::vector<uint64_t> rxBytes(n, 0);
    std::vector<std::pair<int64_t, double>> samples; // (send time, latency), ns
    for (size_t src = 0; src < n; ++src)
    {
        for (const GsnTrafficRecord& r : m_records[src])
        {
            const bool arrived = r.arrivalNs != GsnTrafficRecord::NOT_ARRIVED;
            if (inWindow(r.sendNs))
            {
                ++s.sent;
                s.bytesSent += r.bytes;
                ++s.endpoints[src].sent;
                txBytes[src] += r.bytes;
                if (arrived)
                {
                    samples.emplace_back(r.sendNs, double(r.arrivalNs - r.sendNs));
                }
                else
                {
                    ++s.undelivered;
                }
            }
            if (arrived && inWindow(r.arrivalNs))
            {
                ++s.delivered;
                s.bytesDelivered += r.bytes;
                ++s.endpoints[r.destination].received;
                rxBytes[r.destination] += r.bytes;
            }
        }
    }
    const Time duration = end - start;
    for (size_t i = 0; i < n; ++i)
    {
        GsnEndpointSummary& e = s.endpoints[i];
        e.index = uint32_t(i);
        e.refused = m_refusedBy[i];
        e.txThroughput = BitRate(txBytes[i], duration);
        e.rxThroughput = BitRate(rxBytes[i], duration);
    }
    s.offeredThroughput = BitRate(s.bytesSent, duration);
    s.deliveredThroughput = BitRate(s.bytesDelivered, duration);
    s.refused = m_refused;
    s.duplicates = m_duplicates;
    s.outOfOrder = m_outOfOrder;
    s.misdelivered = m_misdelivered;
    s.stray = m_stray;
    s.lost = GetLost();
    s.inFlight = GetInFlight();

    // Batch means need the samples in the order the Messages were sent.
    std::stable_sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    std::vector<double> latencies;
    latencies.reserve(samples.size());
    for (const auto& [sendNs, latency] : samples)
    {
        latencies.push_back(latency);
    }
    s.latency = SummarizeLatency(latencies);
    SummarizeLinks(s);
    return s;
}

GsnLatencySummary
GsnTrafficStats::SummarizeLatency(const std::vector<double>& samples) const
{
    GsnLatencySummary l;
    const size_t n = samples.size();
    l.count = n;
    if (n == 0)
    {
        l.mean = l.stddev = l.min = l.max = NOT_A_NUMBER;
        l.p50 = l.p90 = l.p99 = l.p999 = NOT_A_NUMBER;
        l.ci95Low = l.ci95High = NOT_A_NUMBER;
        return l;
    }
    l.mean = gsl_stats_mean(samples.data(), 1, n);
    l.stddev = n > 1 ? gsl_stats_sd_m(samples.data(), 1, n, l.mean) : NOT_A_NUMBER;

    std::vector<double> sorted(samples);
    gsl_sort(sorted.data(), 1, n);
    l.min = sorted.front();
    l.max = sorted.back();
    l.p50 = gsl_stats_quantile_from_sorted_data(sorted.data(), 1, n, 0.5);
    l.p90 = gsl_stats_quantile_from_sorted_data(sorted.data(), 1, n, 0.9);
    l.p99 = gsl_stats_quantile_from_sorted_data(sorted.data(), 1, n, 0.99);
    l.p999 = gsl_stats_quantile_from_sorted_data(sorted.data(), 1, n, 0.999);

    // Latencies of consecutive Messages are correlated (they share queues): the interval
    // comes from the means of contiguous batches, which are close to independent.
    const size_t batches = std::min<size_t>(m_batches, n);
    if (batches < 2)
    {
        l.ci95Low = l.ci95High = NOT_A_NUMBER;
        return l;
    }
    std::vector<double> means(batches);
    for (size_t b = 0; b < batches; ++b)
    {
        const size_t from = b * n / batches;
        const size_t to = (b + 1) * n / batches;
        means[b] = gsl_stats_mean(samples.data() + from, 1, to - from);
    }
    const double t = gsl_cdf_tdist_Pinv(0.975, double(batches - 1));
    const double half = t * gsl_stats_sd(means.data(), 1, batches) / std::sqrt(double(batches));
    l.ci95Low = l.mean - half;
    l.ci95High = l.mean + half;
    return l;
}

void
GsnTrafficStats::SummarizeLinks(GsnTrafficSummary& s) const
{
    double sum = 0;
    size_t counted = 0;
    s.maxUtilisation = NOT_A_NUMBER;
    for (const LinkWatch& w : m_links)
    {
        GsnLinkSummary l;
        Ptr<Node> node = w.device->GetNode();
        l.node = node ? node->GetId() : 0;
        l.ifIndex = w.device->GetIfIndex();
        l.address = Mac48Address::ConvertFrom(w.device->GetAddress());
        l.utilisation = NOT_A_NUMBER;
        if (w.opened && (w.closed || w.port))
        {
            const LinkReading end = w.closed ? w.close : ReadLink(w.port);
            l.txMicropackets = end.tx - w.open.tx;
            l.creditStalls = end.stalls - w.open.stalls;
            l.creditStallTime = end.stallTime - w.open.stallTime;
            const double slots =
                double((end.at - w.open.at).GetNanoSeconds()) / gsn::MICROPACKET_TIME_NS;
            if (slots > 0)
            {
                l.utilisation = l.txMicropackets / slots;
                if (counted == 0 || l.utilisation > s.maxUtilisation)
                {
                    s.maxUtilisation = l.utilisation;
                }
                sum += l.utilisation;
                ++counted;
            }
        }
        s.totalCreditStallTime += l.creditStallTime;
        s.links.push_back(l);
    }
    s.meanUtilisation = counted > 0 ? sum / counted : NOT_A_NUMBER;
}

const std::vector<GsnTrafficRecord>&
GsnTrafficStats::GetRecords(uint32_t source) const
{
    static const std::vector<GsnTrafficRecord> none;
    return source < m_records.size() ? m_records[source] : none;
}

uint64_t
GsnTrafficStats::GetSent() const
{
    return m_sent;
}

uint64_t
GsnTrafficStats::GetDelivered() const
{
    return m_delivered;
}

uint64_t
GsnTrafficStats::GetRefused() const
{
    return m_refused;
}

uint64_t
GsnTrafficStats::GetDuplicates() const
{
    return m_duplicates;
}

uint64_t
GsnTrafficStats::GetOutOfOrder() const
{
    return m_outOfOrder;
}

uint64_t
GsnTrafficStats::GetMisdelivered() const
{
    return m_misdelivered;
}

uint64_t
GsnTrafficStats::GetStray() const
{
    return m_stray;
}

uint64_t
GsnTrafficStats::GetLost() const
{
    return std::min(m_lost, m_sent - m_delivered);
}

uint64_t
GsnTrafficStats::GetInFlight() const
{
    return m_sent - m_delivered - GetLost();
}

void
GsnTrafficStats::WriteCsv(std::ostream& os) const
{
    os << "source,destination,sequence,bytes,send_ns,arrival_ns,latency_ns\n";
    for (size_t src = 0; src < m_records.size(); ++src)
    {
        const std::vector<GsnTrafficRecord>& records = m_records[src];
        for (size_t seq = 0; seq < records.size(); ++seq)
        {
            const GsnTrafficRecord& r = records[seq];
            os << src << ',' << r.destination << ',' << seq << ',' << r.bytes << ',' << r.sendNs
               << ',';
            if (r.arrivalNs != GsnTrafficRecord::NOT_ARRIVED)
            {
                os << r.arrivalNs << ',' << (r.arrivalNs - r.sendNs);
            }
            else
            {
                os << ',';
            }
            os << '\n';
        }
    }
    for (const auto& [src, seq, r] : m_foreign)
    {
        os << src << ',' << r.destination << ',' << seq << ',' << r.bytes << ',' << r.sendNs << ','
           << r.arrivalNs << ',' << (r.arrivalNs - r.sendNs) << '\n';
    }
}

void
GsnTrafficStats::SetPartial(bool partial)
{
    m_partial = partial;
}

void
GsnTrafficStats::WriteCsv(const std::string& path) const
{
    std::ofstream file(path);
    NS_ABORT_MSG_UNLESS(file, "GsnTrafficStats::WriteCsv: cannot open " << path);
    WriteCsv(file);
    NS_ABORT_MSG_UNLESS(file, "GsnTrafficStats::WriteCsv: cannot write " << path);
}

void
GsnTrafficStats::WriteSummaryJson(std::ostream& os) const
{
    WriteSummaryJson(os, Summarize());
}

void
GsnTrafficStats::WriteSummaryJson(std::ostream& os, const GsnTrafficSummary& s)
{
    const GsnLatencySummary& l = s.latency;
    os << "{\n";
    os << "  \"window_start_s\": " << JsonNumber(s.windowStart.GetSeconds()) << ",\n";
    os << "  \"window_end_s\": " << JsonNumber(s.windowEnd.GetSeconds()) << ",\n";
    os << "  \"messages\": {\"sent\": " << s.sent << ", \"delivered\": " << s.delivered
       << ", \"undelivered\": " << s.undelivered << ", \"refused\": " << s.refused
       << ", \"duplicates\": " << s.duplicates << ", \"out_of_order\": " << s.outOfOrder
       << ", \"misdelivered\": " << s.misdelivered << ", \"stray\": " << s.stray
       << ", \"lost\": " << s.lost << ", \"in_flight\": " << s.inFlight << "},\n";
    os << "  \"bytes\": {\"sent\": " << s.bytesSent << ", \"delivered\": " << s.bytesDelivered
       << "},\n";
    os << "  \"throughput_bps\": {\"offered\": " << JsonNumber(s.offeredThroughput)
       << ", \"delivered\": " << JsonNumber(s.deliveredThroughput) << "},\n";
    os << "  \"latency_ns\": {\"count\": " << l.count << ", \"mean\": " << JsonNumber(l.mean)
       << ", \"stddev\": " << JsonNumber(l.stddev) << ", \"min\": " << JsonNumber(l.min)
       << ", \"max\": " << JsonNumber(l.max) << ", \"p50\": " << JsonNumber(l.p50)
       << ", \"p90\": " << JsonNumber(l.p90) << ", \"p99\": " << JsonNumber(l.p99)
       << ", \"p999\": " << JsonNumber(l.p999) << ", \"ci95_low\": " << JsonNumber(l.ci95Low)
       << ", \"ci95_high\": " << JsonNumber(l.ci95High) << "},\n";
    os << "  \"endpoints\": [";
    for (size_t i = 0; i < s.endpoints.size(); ++i)
    {
        const GsnEndpointSummary& e = s.endpoints[i];
        os << (i ? ",\n" : "\n") << "    {\"index\": " << e.index << ", \"sent\": " << e.sent
           << ", \"received\": " << e.received << ", \"refused\": " << e.refused
           << ", \"tx_throughput_bps\": " << JsonNumber(e.txThroughput)
           << ", \"rx_throughput_bps\": " << JsonNumber(e.rxThroughput) << "}";
    }
    os << (s.endpoints.empty() ? "],\n" : "\n  ],\n");
    os << "  \"links\": [";
    for (size_t i = 0; i < s.links.size(); ++i)
    {
        const GsnLinkSummary& k = s.links[i];
        os << (i ? ",\n" : "\n") << "    {\"node\": " << k.node << ", \"if_index\": " << k.ifIndex
           << ", \"address\": \"" << k.address << "\", \"tx_micropackets\": " << k.txMicropackets
           << ", \"utilisation\": " << JsonNumber(k.utilisation)
           << ", \"credit_stalls\": " << k.creditStalls
           << ", \"credit_stall_s\": " << JsonNumber(k.creditStallTime.GetSeconds()) << "}";
    }
    os << (s.links.empty() ? "],\n" : "\n  ],\n");
    os << "  \"link_utilisation\": {\"mean\": " << JsonNumber(s.meanUtilisation)
       << ", \"max\": " << JsonNumber(s.maxUtilisation) << "},\n";
    os << "  \"credit_stall_s\": " << JsonNumber(s.totalCreditStallTime.GetSeconds()) << "\n";
    os << "}\n";
}

void
GsnTrafficStats::Print(std::ostream& os, bool details) const
{
    Print(os, Summarize(), details);
}

void
GsnTrafficStats::Print(std::ostream& os, const GsnTrafficSummary& s, bool details)
{
    const GsnLatencySummary& l = s.latency;
    const auto flags = os.flags();
    const auto precision = os.precision();
    os << std::setprecision(6);
    os << "Window " << s.windowStart.As(Time::US) << " to " << s.windowEnd.As(Time::US) << "\n";
    os << "Messages: " << s.sent << " sent, " << s.delivered << " delivered, " << s.undelivered
       << " undelivered, " << s.refused << " refused, " << s.duplicates << " duplicates, "
       << s.outOfOrder << " out of order, " << s.misdelivered << " misdelivered, " << s.stray
       << " stray\n";
    os << "Whole run: " << s.lost << " Messages lost (dropped by a device or switch), "
       << s.inFlight << " still in flight\n";
    os << "Throughput: offered " << s.offeredThroughput / 1e9 << " Gbit/s, delivered "
       << s.deliveredThroughput / 1e9 << " Gbit/s\n";
    os << "Latency (us, " << l.count << " Messages): mean " << l.mean / 1e3 << " [95% CI "
       << l.ci95Low / 1e3 << ", " << l.ci95High / 1e3 << "], stddev " << l.stddev / 1e3 << ", min "
       << l.min / 1e3 << ", p50 " << l.p50 / 1e3 << ", p90 " << l.p90 / 1e3 << ", p99 "
       << l.p99 / 1e3 << ", p99.9 " << l.p999 / 1e3 << ", max " << l.max / 1e3 << "\n";
    for (const GsnEndpointSummary& e : s.endpoints)
    {
        if (!details)
        {
            break;
        }
        os << "  endpoint " << e.index << ": sent " << e.sent << " (" << e.txThroughput / 1e9
           << " Gbit/s), received " << e.received << " (" << e.rxThroughput / 1e9
           << " Gbit/s), refused " << e.refused << "\n";
    }
    if (!s.links.empty())
    {
        os << "Links: utilisation mean " << s.meanUtilisation << ", max " << s.maxUtilisation
           << ", credit stalls " << s.totalCreditStallTime.As(Time::US) << "\n";
        for (const GsnLinkSummary& k : s.links)
        {
            if (!details)
            {
                break;
            }
            os << "  node " << k.node << " if " << k.ifIndex << " (" << k.address
               << "): utilisation " << k.utilisation << ", " << k.txMicropackets
               << " micropackets, " << k.creditStalls << " credit stalls, "
               << k.creditStallTime.As(Time::US) << "\n";
        }
    }
    os.flags(flags);
    os.precision(precision);
}

} // namespace ns3
