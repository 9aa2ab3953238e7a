/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-application.h"

#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StApplication");

NS_OBJECT_ENSURE_REGISTERED(StApplication);

TypeId
StApplication::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StApplication").SetParent<Application>().SetGroupName("St");
    return tid;
}

StApplication::StApplication() = default;

StApplication::~StApplication() = default;

void
StApplication::DoDispose()
{
    m_memory.clear();
    m_protocol = nullptr;
    Application::DoDispose();
}

void
StApplication::FillPattern(uint8_t* p, uint64_t len)
{
    for (uint64_t k = 0; k < len; ++k)
    {
        p[k] = PatternByte(k);
    }
}

bool
StApplication::CheckPattern(const uint8_t* p, uint64_t len)
{
    for (uint64_t k = 0; k < len; ++k)
    {
        if (p[k] != PatternByte(k))
        {
            return false;
        }
    }
    return true;
}

Ptr<StProtocol>
StApplication::GetProtocol()
{
    if (!m_protocol)
    {
        m_protocol = GetNode()->GetObject<StProtocol>();
        NS_ABORT_MSG_IF(!m_protocol, "ST applications need StHelper::Install on their node");
    }
    return m_protocol;
}

uint32_t
StApplication::BufxCount(st::StConnId id, uint64_t bytes)
{
    const st::StConnection* c = GetProtocol()->Find(id);
    const uint8_t lg = c != nullptr ? c->GetLocalParams().bufsize : 14;
    return static_cast<uint32_t>((bytes + (1ULL << lg) - 1) >> lg);
}

uint8_t*
StApplication::MapMemory(st::StConnId id, uint64_t bytes, uint32_t bufx)
{
    auto it = m_memory.emplace(id, std::vector<uint8_t>(bytes, 0));
    uint8_t* p = it->second.data();
    uint32_t handle = 0;
    uint16_t mx = 0;
    const st::StStatus s = GetProtocol()->Map(id,
                                              st::StMemoryTable::PIN_TX | st::StMemoryTable::PIN_RX,
                                              p,
                                              bytes,
                                              bufx,
                                              handle,
                                              mx);
    if (s != st::StStatus::Ok)
    {
        NS_LOG_WARN("map failed: " << st::StStatusName(s));
        m_memory.erase(it);
        return nullptr;
    }
    return p;
}

bool
StApplication::MapNoBytes(st::StConnId id, uint64_t bytes, uint32_t bufx)
{
    uint32_t handle = 0;
    uint16_t mx = 0;
    const int flags = st::StMemoryTable::PIN_TX | st::StMemoryTable::PIN_RX |
                      st::StMemoryTable::NO_BYTES | st::StMemoryTable::CHECK;
    const st::StStatus s = GetProtocol()->Map(id, flags, nullptr, bytes, bufx, handle, mx);
    if (s != st::StStatus::Ok)
    {
        NS_LOG_WARN("map failed: " << st::StStatusName(s));
        return false;
    }
    return true;
}

void
StApplication::ReleaseMemory(st::StConnId id)
{
    m_memory.erase(id);
}

} // namespace ns3
