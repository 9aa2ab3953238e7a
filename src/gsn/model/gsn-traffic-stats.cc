/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GsnTrafficStats is written in three files, one per role:
//  - gsn-traffic-stats.cc: attributes, recording Messages and drops, the drain, link readings;
//  - gsn-traffic-stats-report.cc: summaries of what was recorded, and their output (CSV,
//    JSON, text);
//  - gsn-traffic-stats-share.cc: a rank's share of a run split over MPI ranks, and their merge.
#include "gsn-constants.h"
#include "gsn-message-assembler.h"
#include "gsn-net-device.h"
#include "gsn-port-device.h"
#include "gsn-remote-port.h"
#include "gsn-switch.h"
#include "gsn-traffic-header.h"
#include "gsn-traffic-stats-private.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnTrafficStats");

LogComponent&
gsn::TrafficStatsLog()
{
    return g_log;
}

NS_OBJECT_ENSURE_REGISTERED(GsnTrafficStats);

namespace
{

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
    }
    r.stallTime = port->GetCreditStallTimeUpToNow(); // (independent of same-instant order too)
    r.runMode = port->GetLinkMode() == GsnPortDevice::RUN;
    port->GetRunWaitsUpToNow(r.runWaits, r.runWaitTime); // (and so is this)
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
GsnTrafficStats::SetPartial(bool partial)
{
    m_partial = partial;
}

} // namespace ns3
