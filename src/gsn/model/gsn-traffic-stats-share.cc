/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTrafficStats across MPI ranks: each rank's share of a run as text, and rank 0's merge of
 * the shares into the whole run. Owns no MPI call (the caller moves the text between ranks),
 * so that it builds and is testable without MPI.
 */
#include "gsn-port-device.h"
#include "gsn-traffic-stats.h"

#include "ns3/abort.h"
#include "ns3/node.h"

#include <sstream>

namespace ns3
{

void
GsnTrafficStats::PutReading(std::ostream& os, const LinkReading& r)
{
    os << ' ' << r.at.GetTimeStep() << ' ' << r.tx << ' ' << r.stalls << ' '
       << r.stallTime.GetTimeStep() << ' ' << (r.runMode ? 1 : 0) << ' ' << r.runWaits << ' '
       << r.runWaitTime.GetTimeStep();
}

void
GsnTrafficStats::GetReading(std::istream& in, LinkReading& r)
{
    int64_t at = 0;
    int64_t stallTime = 0;
    int runMode = 0;
    int64_t runWaitTime = 0;
    in >> at >> r.tx >> r.stalls >> stallTime >> runMode >> r.runWaits >> runWaitTime;
    r.at = TimeStep(at);
    r.stallTime = TimeStep(stallTime);
    r.runMode = runMode != 0;
    r.runWaitTime = TimeStep(runWaitTime);
}

std::string
GsnTrafficStats::WriteShare(uint32_t rank) const
{
    std::ostringstream os;
    os << "C " << m_sent << ' ' << m_delivered << ' ' << m_refused << ' ' << m_duplicates << ' '
       << m_outOfOrder << ' ' << m_misdelivered << ' ' << m_stray << ' ' << m_lost << '\n';
    for (size_t i = 0; i < m_refusedBy.size(); ++i)
    {
        if (m_refusedBy[i] > 0)
        {
            os << "B " << i << ' ' << m_refusedBy[i] << '\n';
        }
    }
    for (size_t src = 0; src < m_records.size(); ++src)
    {
        for (size_t seq = 0; seq < m_records[src].size(); ++seq)
        {
            const GsnTrafficRecord& r = m_records[src][seq];
            os << "R " << src << ' ' << seq << ' ' << r.destination << ' ' << r.bytes << ' '
               << r.sendNs << ' ' << r.arrivalNs << '\n';
        }
    }
    for (const auto& [src, seq, r] : m_foreign)
    {
        os << "F " << src << ' ' << seq << ' ' << r.arrivalNs << '\n';
    }
    for (size_t i = 0; i < m_links.size(); ++i)
    {
        const LinkWatch& w = m_links[i];
        const Ptr<Node> node = w.device->GetNode();
        if (!w.port || !node || node->GetSystemId() != rank || !w.opened)
        {
            continue;
        }
        const LinkReading end = w.closed ? w.close : ReadLink(w.port);
        os << "L " << i;
        PutReading(os, w.open);
        PutReading(os, end);
        os << '\n';
    }
    return os.str();
}

void
GsnTrafficStats::MergeShare(const std::string& share)
{
    std::istringstream in(share);
    std::string kind;
    while (in >> kind)
    {
        if (kind == "C")
        {
            uint64_t v[8];
            for (uint64_t& x : v)
            {
                in >> x;
            }
            m_sent += v[0];
            m_delivered += v[1];
            m_refused += v[2];
            m_duplicates += v[3];
            m_outOfOrder += v[4];
            m_misdelivered += v[5];
            m_stray += v[6];
            m_lost += v[7];
        }
        else if (kind == "B")
        {
            uint32_t i;
            uint64_t n;
            in >> i >> n;
            Grow(i);
            m_refusedBy[i] += n;
        }
        else if (kind == "R")
        {
            uint32_t src;
            uint64_t seq;
            GsnTrafficRecord r;
            in >> src >> seq >> r.destination >> r.bytes >> r.sendNs >> r.arrivalNs;
            Grow(src);
            if (m_records[src].size() <= seq)
            {
                m_records[src].resize(seq + 1);
            }
            m_records[src][seq] = r;
        }
        else if (kind == "F")
        {
            uint32_t src;
            uint64_t seq;
            GsnTrafficRecord r;
            in >> src >> seq >> r.arrivalNs;
            m_foreign.emplace_back(src, seq, r);
        }
        else if (kind == "L")
        {
            size_t i;
            LinkReading reading[2];
            in >> i;
            GetReading(in, reading[0]);
            GetReading(in, reading[1]);
            NS_ABORT_MSG_UNLESS(i < m_links.size(),
                                "GsnTrafficStats: a share names port " << i << " of "
                                                                       << m_links.size());
            LinkWatch& w = m_links[i];
            w.opened = w.closed = true;
            w.open = reading[0];
            w.close = reading[1];
        }
        NS_ABORT_MSG_IF(in.fail(), "GsnTrafficStats: a malformed share (at '" << kind << "')");
    }
}

void
GsnTrafficStats::MergeShares(const std::vector<std::string>& shares)
{
    for (const std::string& share : shares)
    {
        MergeShare(share);
    }
    // Every record is here now: complete them with the arrivals seen on other ranks.
    for (const auto& [src, seq, r] : m_foreign)
    {
        NS_ABORT_MSG_UNLESS(src < m_records.size() && seq < m_records[src].size(),
                            "GsnTrafficStats: an arrival of Message " << src << ":" << seq
                                                                      << " that no rank sent");
        m_records[src][seq].arrivalNs = r.arrivalNs;
    }
    m_foreign.clear();
    m_foreignSeen.clear();
    m_partial = false;
}

} // namespace ns3
