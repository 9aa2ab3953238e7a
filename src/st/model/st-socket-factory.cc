/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-socket-factory.h"

#include "st-protocol.h"
#include "st-socket.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StSocketFactory");
NS_OBJECT_ENSURE_REGISTERED(StSocketFactory);

TypeId
StSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StSocketFactory")
                            .SetParent<SocketFactory>()
                            .SetGroupName("St")
                            .AddConstructor<StSocketFactory>();
    return tid;
}

void
StSocketFactory::SetProtocol(Ptr<StProtocol> st)
{
    m_st = st;
}

Ptr<Socket>
StSocketFactory::CreateSocket()
{
    NS_ABORT_MSG_IF(!m_st, "StSocketFactory: no StProtocol (install ST with StHelper)");
    Ptr<StSocket> s = CreateObject<StSocket>();
    s->SetProtocol(m_st->GetNode(), m_st);
    return s;
}

void
StSocketFactory::DoDispose()
{
    m_st = nullptr;
    SocketFactory::DoDispose();
}

} // namespace ns3
