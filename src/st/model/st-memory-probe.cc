/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-memory-probe.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StMemoryProbe");

NS_OBJECT_ENSURE_REGISTERED(StMemoryProbe);

void
StMemoryProbe::Stats::Add(Time t)
{
    if (count == 0 || t < min)
    {
        min = t;
    }
    if (count == 0 || t > max)
    {
        max = t;
    }
    sum += t;
    ++count;
}

Time
StMemoryProbe::Stats::Mean() const
{
    return count > 0 ? sum / static_cast<int64_t>(count) : Time(0);
}

TypeId
StMemoryProbe::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StMemoryProbe")
            .SetParent<StClientApplication>()
            .SetGroupName("St")
            .AddConstructor<StMemoryProbe>()
            .AddAttribute("RegionSize",
                          "Bytes of the region asked for (RMR T_len); at most the server's.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&StMemoryProbe::m_regionSize),
                          MakeUintegerChecker<uint64_t>(16))
            .AddAttribute("Size",
                          "Bytes per PUT and GET (8 to 65535; RegionSize must hold them and an "
                          "aligned word; a PUT is one STU, so the server's Bufsize and MaxStu "
                          "must hold it too).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&StMemoryProbe::m_size),
                          MakeUintegerChecker<uint32_t>(8, 65535))
            .AddAttribute("Iterations",
                          "Rounds of PUT, GET, FETCHOP.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&StMemoryProbe::m_iterations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Interval",
                          "Pause between rounds.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&StMemoryProbe::m_interval),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("GetLatency",
                            "A GET completed (time from the call to the last byte).",
                            MakeTraceSourceAccessor(&StMemoryProbe::m_getTrace),
                            "ns3::StMemoryProbe::LatencyTracedCallback")
            .AddTraceSource("FetchOpLatency",
                            "A FETCHOP completed (time from the call to the old value).",
                            MakeTraceSourceAccessor(&StMemoryProbe::m_fetchTrace),
                            "ns3::StMemoryProbe::LatencyTracedCallback");
    return tid;
}

StMemoryProbe::StMemoryProbe()
    : m_regionSize(4096),
      m_size(64),
      m_iterations(100),
      m_region(0),
      m_buffer(nullptr),
      m_rounds(0),
      m_puts(0),
      m_lastValue(0)
{
}

StMemoryProbe::~StMemoryProbe() = default;

void
StMemoryProbe::DoDispose()
{
    Simulator::Cancel(m_next);
    m_buffer = nullptr;
    StApplication::DoDispose();
}

void
StMemoryProbe::StartApplication()
{
    NS_ABORT_MSG_IF(WordAt() + 8 > m_regionSize,
                    "StMemoryProbe: RegionSize must hold Size bytes and an aligned word");
    StClientApplication::StartApplication();
}

uint64_t
StMemoryProbe::WordAt() const
{
    return (uint64_t(m_size) + 7) & ~uint64_t(7);
}

uint64_t
StMemoryProbe::FetchAt() const
{
    return (2 * uint64_t(m_size) + 7) & ~uint64_t(7);
}

void
StMemoryProbe::Round()
{
    if (!m_running || m_rounds >= m_iterations)
    {
        return;
    }
    Ptr<StProtocol> st = GetProtocol();
    // PUT: the send time in its last 8 bytes, big-endian.
    const uint64_t now = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    for (int k = 0; k < 8; ++k)
    {
        m_buffer[m_size - 8 + k] = static_cast<uint8_t>(now >> (56 - 8 * k));
    }
    const st::StStatus put = st->Put(m_conn, m_region, 0, 0, m_size);
    if (put == st::StStatus::PutTooLarge)
    {
        // A PUT is one STU [C] SEED-GSN: a Size the connection cannot send as one is a
        // configuration mistake, not something to measure.
        const st::StConnection* c = st->Find(m_conn);
        NS_FATAL_ERROR("StMemoryProbe: a PUT of "
                       << m_size << " bytes needs more than one STU (at most "
                       << (c != nullptr ? c->GetPutLimit() : 0)
                       << " bytes here, within one Bufx of the server): raise the "
                          "server's Bufsize and MaxStu, or lower Size");
    }
    if (put == st::StStatus::Ok)
    {
        ++m_puts;
    }
    uint32_t gid = 0;
    m_sent = Simulator::Now();
    st->Get(m_conn, m_region, 0, m_size, m_size, gid);
}

void
StMemoryProbe::OnEvent(const st::StEvent& e)
{
    NS_LOG_FUNCTION(this << st::StEventTypeName(e.type));
    Ptr<StProtocol> st = GetProtocol();
    uint32_t gid = 0;
    switch (e.type)
    {
    case st::StEventType::ConnectionEstablished:
        m_conn = e.conn;
        // PUT source at 0, GET destination at Size, FETCHOP old value at the first 8-byte
        // boundary after 2 Size (a FETCHOP word is aligned at both ends).
        m_buffer = MapMemory(m_conn, FetchAt() + 8, 0);
        if (m_buffer != nullptr)
        {
            st->RequestRegion(m_conn, m_regionSize, m_region);
        }
        return;
    case st::StEventType::RegionAvailable:
        Round();
        return;
    case st::StEventType::GetComplete:
        m_get.Add(Simulator::Now() - m_sent);
        m_getTrace(Simulator::Now() - m_sent);
        m_sent = Simulator::Now();
        st->FetchOp(m_conn, m_region, WordAt(), FetchAt(), st::StFetchOp::Increment, gid);
        return;
    case st::StEventType::FetchOpComplete:
        m_fetch.Add(Simulator::Now() - m_sent);
        m_fetchTrace(Simulator::Now() - m_sent);
        m_lastValue = e.value;
        ++m_rounds;
        m_next = Simulator::Schedule(m_interval, &StMemoryProbe::Round, this);
        return;
    default:
        return;
    }
}

} // namespace ns3
