/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-bulk-client.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StBulkClient");

NS_OBJECT_ENSURE_REGISTERED(StBulkClient);

TypeId
StBulkClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StBulkClient")
            .SetParent<StClientApplication>()
            .SetGroupName("St")
            .AddConstructor<StBulkClient>()
            .AddAttribute("Mode",
                          "Write (we are the source) or Read (we are the destination).",
                          EnumValue(WRITE),
                          MakeEnumAccessor(&StBulkClient::m_mode),
                          MakeEnumChecker(WRITE, "Write", READ, "Read"))
            .AddAttribute("TransferSize",
                          "Bytes per transfer (T_len).",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&StBulkClient::m_size),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Transfers",
                          "Transfers to do; 0 = until the application stops.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&StBulkClient::m_transfers),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Outstanding",
                          "Transfers in progress at once.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&StBulkClient::m_outstanding),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("NoBytes",
                          "The buffer holds no bytes (length and protection only): transfers "
                          "of any length cost no memory (writes send zeros; reads are not "
                          "checked here).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&StBulkClient::m_noBytes),
                          MakeBooleanChecker())
            .AddTraceSource("TransferComplete",
                            "A transfer completed (bytes, time from its call).",
                            MakeTraceSourceAccessor(&StBulkClient::m_doneTrace),
                            "ns3::StBulkClient::TransferTracedCallback");
    return tid;
}

StBulkClient::StBulkClient()
    : m_mode(WRITE),
      m_size(1 << 20),
      m_transfers(1),
      m_outstanding(1),
      m_buffer(nullptr),
      m_noBytes(false),
      m_started(0),
      m_completed(0),
      m_failed(0),
      m_bytes(0),
      m_corrupt(0)
{
}

StBulkClient::~StBulkClient() = default;

void
StBulkClient::DoDispose()
{
    m_buffer = nullptr;
    StApplication::DoDispose();
}

double
StBulkClient::GetThroughput() const
{
    const double span = (m_lastDone - m_firstStart).GetSeconds();
    return span > 0 ? m_bytes * 8.0 / span : 0.0;
}

void
StBulkClient::StartOne()
{
    if (!m_running || (m_transfers != 0 && m_started >= m_transfers))
    {
        return;
    }
    Ptr<StProtocol> st = GetProtocol();
    uint32_t tid = 0;
    const st::StStatus s =
        m_mode == WRITE ? st->Write(m_conn, 0, m_size, tid) : st->Read(m_conn, 0, m_size, tid);
    if (s != st::StStatus::Ok)
    {
        NS_LOG_WARN("transfer refused locally: " << st::StStatusName(s));
        ++m_failed;
        return;
    }
    if (m_started++ == 0)
    {
        m_firstStart = Simulator::Now();
    }
    m_startTimes[tid] = Simulator::Now();
}

void
StBulkClient::OnEvent(const st::StEvent& e)
{
    NS_LOG_FUNCTION(this << st::StEventTypeName(e.type));
    switch (e.type)
    {
    case st::StEventType::ConnectionEstablished:
        m_conn = e.conn;
        if (m_noBytes)
        {
            if (!MapNoBytes(m_conn, m_size, 0))
            {
                return;
            }
        }
        else
        {
            m_buffer = MapMemory(m_conn, m_size, 0);
            if (m_buffer == nullptr)
            {
                return;
            }
            FillPattern(m_buffer, m_size);
        }
        for (uint32_t i = 0; i < m_outstanding; ++i)
        {
            StartOne();
        }
        return;
    case st::StEventType::TransferComplete: {
        auto it = m_startTimes.find(e.id);
        if (it == m_startTimes.end())
        {
            return;
        }
        const Time duration = Simulator::Now() - it->second;
        m_startTimes.erase(it);
        ++m_completed;
        m_bytes += e.bytes;
        m_lastDone = Simulator::Now();
        if (m_mode == READ && m_buffer != nullptr && !CheckPattern(m_buffer, e.bytes))
        {
            ++m_corrupt;
        }
        m_doneTrace(e.bytes, duration);
        StartOne();
        return;
    }
    case st::StEventType::TransferRejected:
    case st::StEventType::TransferAborted:
        if (m_startTimes.erase(e.id) != 0)
        {
            ++m_failed;
            StartOne();
        }
        return;
    default:
        return;
    }
}

} // namespace ns3
