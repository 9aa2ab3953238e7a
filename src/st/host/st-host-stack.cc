/*
 * st-host-stack.cc: the ST engine on a Linux interface (see st-host-stack.h).
 */
#include "st-host-stack.h"

#include "st-header.h"

#include <algorithm>
#include <cerrno>
#include <sys/random.h>

namespace ns3
{
namespace st
{

namespace
{
/// 32 bits from the OS's random source: keys guard connections, so none may be guessed.
uint32_t
RandomKey()
{
    uint32_t k = 0;
    while (getrandom(&k, sizeof(k), 0) != static_cast<ssize_t>(sizeof(k)))
    {
        // EINTR: try again (the pool is initialised long before a user starts a program)
    }
    return k;
}
} // namespace

StHostStack::~StHostStack()
{
    if (m_stack)
    {
        PublishCounters(true);
        if (StBypassStack::GetDefault() == m_stack.get())
        {
            StBypassStack::SetDefault(nullptr);
        }
    }
}

uint8_t
StHostStack::MaxStuForMtu(uint32_t mtu)
{
    uint8_t lg = 0;
    while (lg < 40 && (2ULL << lg) + ST_HEADER_SIZE <= mtu)
    {
        ++lg;
    }
    return lg;
}

int
StHostStack::Open(const StHostOptions& o, std::string& error)
{
    if (o.interface.empty())
    {
        error = "no interface given";
        return EINVAL;
    }
    // The MTU first: it needs no privilege, so the user hears about it even without one.
    StLinkInfo link;
    int e = StPacketSocket::QueryLink(o.interface, link, error);
    if (e != 0)
    {
        return e;
    }
    m_maxStu = MaxStuForMtu(link.mtu);
    if (m_maxStu < ST_MIN_MAX_STU)
    {
        error = "the MTU of '" + o.interface + "' is " + std::to_string(link.mtu) +
                " bytes, too small for ST: a 256-byte STU with its 40-byte header needs 296 "
                "('ip link set " +
                o.interface + " mtu 1500')";
        return EMSGSIZE;
    }
    e = m_socket.Open(o.interface, o.socketBuffer, error);
    if (e != 0)
    {
        return e;
    }
    m_neighbours = std::make_unique<StNeighbourTable>(m_socket.GetLink().ifindex, o.interface);
    if (!o.peers.empty() && !m_neighbours->AddStaticList(o.peers, error))
    {
        return EINVAL;
    }
    m_driver = std::make_unique<StHostDriver>(m_socket, *m_neighbours);
    m_driver->SetResolveTimeout(o.resolveTimeoutNs);
    e = m_driver->Open(error);
    if (e != 0)
    {
        return e;
    }

    StConfig c;
    c.defaults.bufsize = o.bufsize;
    c.defaults.maxBlock = o.maxBlock;
    c.defaults.ctsReq = o.ctsReq;
    c.defaults.maxStu = std::min<uint8_t>(c.defaults.maxStu, m_maxStu);
    c.opTimeoutNs = o.opTimeoutNs;
    c.maxRetries = o.maxRetries;
    c.fetchOpTimeoutNs = o.opTimeoutNs;
    c.fetchOpMaxResends = o.maxRetries;
    c.keySource = RandomKey;
    const uint8_t stu = m_maxStu;
    // Ethernet has no VCs: every data channel carries what the MTU does.
    c.channelMaxStu = [stu](uint64_t, uint8_t) { return stu; };
    m_stack = std::make_unique<StBypassStack>(*m_driver, c);

    if (o.publish)
    {
        m_stats.Create(o.program, o.interface);
        m_driver->SetIdleHook([this]() { PublishCounters(false); });
        PublishCounters(true);
    }
    return 0;
}

StHostStats::Values
StHostStack::CollectCounters()
{
    StHostStats::Values v;
    const StCounters& c = m_stack->GetEndpoint().GetCounters();
    for (std::size_t i = 0; i < static_cast<std::size_t>(StRxVerdict::Count); ++i)
    {
        const auto r = static_cast<StRxVerdict>(i);
        v.emplace_back(std::string("rx.") + StRxVerdictName(r), c.Get(r));
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(StStat::Count); ++i)
    {
        const auto s = static_cast<StStat>(i);
        v.emplace_back(StStatName(s), c.Get(s));
    }
    const StSocketCounters& s = m_socket.GetCounters();
    v.emplace_back("frames.tx", s.txFrames);
    v.emplace_back("frames.tx.llc", s.txLlcFrames);
    v.emplace_back("frames.tx.errors", s.txErrors);
    v.emplace_back("frames.tx.dropped", s.txDropped);
    v.emplace_back("frames.rx", s.rxFrames);
    for (std::size_t i = 1; i < static_cast<std::size_t>(StFrameVerdict::Count); ++i)
    {
        v.emplace_back(std::string("frames.drop.") +
                           StFrameVerdictName(static_cast<StFrameVerdict>(i)),
                       s.rx[i]);
    }
    v.emplace_back("frames.drop.Truncated", s.rxTruncated);
    v.emplace_back("frames.drop.Kernel", s.kernelDrops);
    uint64_t open = 0;
    for (StConnId id : m_stack->GetEndpoint().GetConnections())
    {
        const StConnection* conn = m_stack->GetEndpoint().Find(id);
        open += conn != nullptr && conn->GetState() == StConnState::Connected ? 1 : 0;
    }
    v.emplace_back("connections", open);
    return v;
}

void
StHostStack::PublishCounters(bool force)
{
    const uint64_t now = StEventLoop::Now();
    if (!force && now - m_publishedAt < 100000000ULL)
    {
        return;
    }
    m_publishedAt = now;
    m_stats.Update(CollectCounters());
}

} // namespace st
} // namespace ns3
