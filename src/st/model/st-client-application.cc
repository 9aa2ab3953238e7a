/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-client-application.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StClientApplication");

NS_OBJECT_ENSURE_REGISTERED(StClientApplication);

TypeId
StClientApplication::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StClientApplication")
                            .SetParent<StApplication>()
                            .SetGroupName("St")
                            .AddAttribute("Remote",
                                          "ST (IPv4) address of the server.",
                                          Ipv4AddressValue(),
                                          MakeIpv4AddressAccessor(&StClientApplication::m_remote),
                                          MakeIpv4AddressChecker())
                            .AddAttribute("Port",
                                          "ST port of the server.",
                                          UintegerValue(5000),
                                          MakeUintegerAccessor(&StClientApplication::m_port),
                                          MakeUintegerChecker<uint16_t>(1));
    return tid;
}

StClientApplication::StClientApplication()
    : m_port(5000),
      m_conn(0),
      m_running(false)
{
}

StClientApplication::~StClientApplication()
{
}

void
StClientApplication::StartApplication()
{
    m_running = true;
    GetProtocol()->Connect(m_remote,
                           m_port,
                           StProtocol::EventCallback(&StClientApplication::HandleEvent, this),
                           &m_conn);
}

void
StClientApplication::HandleEvent(const st::StEvent& e)
{
    if (e.type == st::StEventType::ConnectionRefused || e.type == st::StEventType::ConnectionClosed)
    {
        NS_LOG_INFO("connection ended: " << st::StEventTypeName(e.type));
        m_conn = 0;
        return;
    }
    OnEvent(e);
}

void
StClientApplication::StopApplication()
{
    m_running = false;
    Simulator::Cancel(m_next);
    if (m_conn != 0)
    {
        GetProtocol()->Close(m_conn);
    }
}

} // namespace ns3
