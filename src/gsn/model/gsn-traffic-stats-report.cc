/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GsnTrafficStats: summaries of what was recorded, and their output (CSV, JSON, text). The
// other files of the class are listed in gsn-traffic-stats.cc.
#include "gsn-constants.h"
#include "gsn-port-device.h"
#include "gsn-traffic-stats-private.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

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

GSN_TRAFFIC_STATS_LOG();

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

} // namespace

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
            l.runMode = end.runMode;
            l.runWaits = end.runWaits - w.open.runWaits;
            l.runWaitTime = end.runWaitTime - w.open.runWaitTime;
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
        s.runModeLinks += l.runMode ? 1 : 0;
        s.totalRunWaits += l.runWaits;
        s.totalRunWaitTime += l.runWaitTime;
        s.links.push_back(l);
    }
    s.meanUtilisation = counted > 0 ? sum / counted : NOT_A_NUMBER;
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
           << ", \"credit_stall_s\": " << JsonNumber(k.creditStallTime.GetSeconds())
           << ", \"run_mode\": " << (k.runMode ? "true" : "false")
           << ", \"run_waits\": " << k.runWaits
           << ", \"run_wait_s\": " << JsonNumber(k.runWaitTime.GetSeconds()) << "}";
    }
    os << (s.links.empty() ? "],\n" : "\n  ],\n");
    os << "  \"link_utilisation\": {\"mean\": " << JsonNumber(s.meanUtilisation)
       << ", \"max\": " << JsonNumber(s.maxUtilisation) << "},\n";
    os << "  \"credit_stall_s\": " << JsonNumber(s.totalCreditStallTime.GetSeconds()) << ",\n";
    os << "  \"run_mode_links\": " << s.runModeLinks << ",\n";
    os << "  \"run_waits\": " << s.totalRunWaits << ",\n";
    os << "  \"run_wait_s\": " << JsonNumber(s.totalRunWaitTime.GetSeconds()) << "\n";
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
           << ", credit stalls " << s.totalCreditStallTime.As(Time::US);
        if (s.runModeLinks > 0)
        {
            os << ", run waits " << s.totalRunWaits << " (" << s.totalRunWaitTime.As(Time::US)
               << ")";
        }
        os << "\n";
        for (const GsnLinkSummary& k : s.links)
        {
            if (!details)
            {
                break;
            }
            os << "  node " << k.node << " if " << k.ifIndex << " (" << k.address
               << "): utilisation " << k.utilisation << ", " << k.txMicropackets
               << " micropackets, " << k.creditStalls << " credit stalls, "
               << k.creditStallTime.As(Time::US);
            if (k.runMode)
            {
                os << ", " << k.runWaits << " run waits, " << k.runWaitTime.As(Time::US);
            }
            os << "\n";
        }
    }
    os.flags(flags);
    os.precision(precision);
}

} // namespace ns3
