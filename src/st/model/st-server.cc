/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-server.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StServer");

NS_OBJECT_ENSURE_REGISTERED(StServer);

TypeId
StServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StServer")
            .SetParent<StApplication>()
            .SetGroupName("St")
            .AddConstructor<StServer>()
            .AddAttribute("Port",
                          "ST port to listen on.",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&StServer::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("BufferSize",
                          "Bytes posted per connection for writes and reads.",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&StServer::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("RegionSize",
                          "Bytes of the persistent region exposed per connection.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&StServer::m_regionSize),
                          MakeUintegerChecker<uint64_t>(8))
            .AddAttribute("Regions",
                          "RMRs answered per connection (each gets the same region).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&StServer::m_regions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Echo",
                          "Write every received transfer back to its sender (ping-pong).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&StServer::m_echo),
                          MakeBooleanChecker())
            .AddAttribute("Verify",
                          "Check that received writes hold the test pattern.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StServer::m_verify),
                          MakeBooleanChecker())
            .AddAttribute("NoBytes",
                          "The transfer buffer holds no bytes (length and protection only): "
                          "transfers of any length cost no memory; Verify then checks that "
                          "what arrived was zeros, what such memory sends.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&StServer::m_noBytes),
                          MakeBooleanChecker())
            .AddTraceSource("Rx",
                            "A write was received completely (bytes).",
                            MakeTraceSourceAccessor(&StServer::m_rxTrace),
                            "ns3::StServer::TransferTracedCallback")
            .AddTraceSource("PutReceived",
                            "A time-stamped PUT arrived (bytes, one-way latency).",
                            MakeTraceSourceAccessor(&StServer::m_putTrace),
                            "ns3::StServer::PutTracedCallback");
    return tid;
}

StServer::StServer()
    : m_port(5000),
      m_bufferSize(1 << 20),
      m_regionSize(65536),
      m_regions(4),
      m_echo(false),
      m_verify(true),
      m_noBytes(false),
      m_patternErrors(0),
      m_rxBytes(0),
      m_transfers(0),
      m_corrupt(0),
      m_accepted(0)
{
}

StServer::~StServer() = default;

void
StServer::DoDispose()
{
    m_conns.clear();
    StApplication::DoDispose();
}

void
StServer::StartApplication()
{
    const st::StStatus s =
        GetProtocol()->Listen(m_port, StProtocol::EventCallback(&StServer::OnEvent, this));
    NS_ABORT_MSG_IF(s != st::StStatus::Ok, "StServer: cannot listen on " << m_port);
}

void
StServer::StopApplication()
{
    GetProtocol()->Unlisten(m_port);
}

void
StServer::Accepted(st::StConnId id)
{
    ++m_accepted;
    Ptr<StProtocol> st = GetProtocol();
    Conn c;
    const uint32_t regionBufx = BufxCount(id, m_bufferSize);
    c.buffer = m_noBytes ? nullptr : MapMemory(id, m_bufferSize, 0);
    c.region = MapMemory(id, m_regionSize, regionBufx);
    if ((m_noBytes ? !MapNoBytes(id, m_bufferSize, 0) : c.buffer == nullptr) || c.region == nullptr)
    {
        return;
    }
    if (c.buffer != nullptr)
    {
        FillPattern(c.buffer, m_bufferSize); // what reads get
    }
    c.regionLinear = st->Linear(id, regionBufx);
    m_conns[id] = c;
    st->PostReceive(id, 0, m_bufferSize);
    st->PostSend(id, 0, m_bufferSize);
    for (uint32_t i = 0; i < m_regions; ++i)
    {
        st->ExposeRegion(id, c.regionLinear, m_regionSize);
    }
}

void
StServer::OnEvent(const st::StEvent& e)
{
    NS_LOG_FUNCTION(this << st::StEventTypeName(e.type) << e.conn);
    Ptr<StProtocol> st = GetProtocol();
    switch (e.type)
    {
    case st::StEventType::ConnectionEstablished:
        Accepted(e.conn);
        return;
    case st::StEventType::ConnectionClosed:
        m_conns.erase(e.conn);
        ReleaseMemory(e.conn);
        return;
    default:
        break;
    }
    auto it = m_conns.find(e.conn);
    if (it == m_conns.end())
    {
        return;
    }
    Conn& c = it->second;
    if (e.type == st::StEventType::TransferComplete && e.role == st::StRole::Destination)
    {
        ++m_transfers;
        m_rxBytes += e.bytes;
        if (c.buffer == nullptr)
        {
            // Memory without bytes: the engine checked what arrived.
            const uint64_t errors = st->GetCounters().Get(st::StStat::PatternErrors);
            if (m_verify && errors != m_patternErrors)
            {
                ++m_corrupt;
            }
            m_patternErrors = errors;
        }
        else if (m_verify && !CheckPattern(c.buffer + e.address, e.bytes))
        {
            ++m_corrupt;
        }
        m_rxTrace(e.bytes);
        if (m_echo)
        {
            uint32_t tid = 0;
            st->Write(e.conn, e.address, e.bytes, tid);
        }
        st->PostReceive(e.conn, 0, m_bufferSize);
    }
    else if (e.type == st::StEventType::TransferComplete && e.role == st::StRole::Source)
    {
        if (!m_echo)
        {
            ++m_transfers; // a read served
            if (c.buffer != nullptr)
            {
                FillPattern(c.buffer, m_bufferSize);
            }
            st->PostSend(e.conn, 0, m_bufferSize);
        }
    }
    else if (e.type == st::StEventType::HeaderReceived && e.header.op == st::StOp::Data &&
             e.address >= c.regionLinear &&
             e.address + e.dataLen <= c.regionLinear + m_regionSize && e.dataLen >= 8)
    {
        const uint8_t* stamp = c.region + (e.address - c.regionLinear) + e.dataLen - 8;
        uint64_t sent = 0;
        for (int k = 0; k < 8; ++k)
        {
            sent = (sent << 8) | stamp[k];
        }
        const Time latency = Simulator::Now() - NanoSeconds(static_cast<int64_t>(sent));
        m_putTrace(e.dataLen, latency);
    }
}

} // namespace ns3
