/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-ping-pong.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StPingPong");

NS_OBJECT_ENSURE_REGISTERED(StPingPong);

TypeId
StPingPong::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StPingPong")
            .SetParent<StClientApplication>()
            .SetGroupName("St")
            .AddConstructor<StPingPong>()
            .AddAttribute("Size",
                          "Bytes per ping (and pong).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&StPingPong::m_size),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Iterations",
                          "Round trips.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&StPingPong::m_iterations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Interval",
                          "Pause between round trips.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&StPingPong::m_interval),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Rtt",
                            "A round trip completed: from the ping's Write to the pong's last "
                            "byte.",
                            MakeTraceSourceAccessor(&StPingPong::m_rttTrace),
                            "ns3::StPingPong::RttTracedCallback");
    return tid;
}

StPingPong::StPingPong()
    : m_size(1024),
      m_iterations(10),
      m_buffer(nullptr),
      m_pongAt(0),
      m_rounds(0),
      m_corrupt(0)
{
}

StPingPong::~StPingPong() = default;

Time
StPingPong::GetMeanRtt() const
{
    return m_rounds > 0 ? m_sum / static_cast<int64_t>(m_rounds) : Time(0);
}

void
StPingPong::DoDispose()
{
    Simulator::Cancel(m_next);
    m_buffer = nullptr;
    StApplication::DoDispose();
}

void
StPingPong::Ping()
{
    if (!m_running || m_rounds >= m_iterations)
    {
        return;
    }
    Ptr<StProtocol> st = GetProtocol();
    std::fill(m_buffer + m_pongAt, m_buffer + m_pongAt + m_size, 0);
    st->PostReceive(m_conn, m_pongAt, m_size); // for the pong
    uint32_t tid = 0;
    m_sent = Simulator::Now();
    st->Write(m_conn, 0, m_size, tid);
}

void
StPingPong::OnEvent(const st::StEvent& e)
{
    NS_LOG_FUNCTION(this << st::StEventTypeName(e.type));
    switch (e.type)
    {
    case st::StEventType::ConnectionEstablished: {
        m_conn = e.conn;
        // The pong lands in its own Bufx entries after the ping.
        const uint32_t bufx = BufxCount(m_conn, m_size);
        m_pongAt = GetProtocol()->Linear(m_conn, bufx);
        m_buffer = MapMemory(m_conn, m_pongAt + m_size, 0);
        if (m_buffer != nullptr)
        {
            FillPattern(m_buffer, m_size);
            Ping();
        }
        return;
    }
    case st::StEventType::TransferComplete:
        if (e.role != st::StRole::Destination)
        {
            return; // our ping arrived; the pong is what we wait for
        }
        {
            const Time rtt = Simulator::Now() - m_sent;
            if (!CheckPattern(m_buffer + m_pongAt, m_size))
            {
                ++m_corrupt;
            }
            if (m_rounds == 0 || rtt < m_min)
            {
                m_min = rtt;
            }
            m_sum += rtt;
            ++m_rounds;
            m_rttTrace(rtt);
            m_next = Simulator::Schedule(m_interval, &StPingPong::Ping, this);
        }
        return;
    default:
        return;
    }
}

} // namespace ns3
