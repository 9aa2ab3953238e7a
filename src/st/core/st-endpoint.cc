/*
 * st-endpoint.cc: demultiplexing, listeners and output queues of an ST endpoint
 * (see st-endpoint.h).
 */
#include "st-endpoint.h"

namespace ns3
{
namespace st
{

namespace
{

StRxVerdict
VerdictOf(StDecodeStatus s)
{
    switch (s)
    {
    case StDecodeStatus::Truncated:
        return StRxVerdict::Truncated;
    case StDecodeStatus::UnknownOp:
        return StRxVerdict::UnknownOp;
    case StDecodeStatus::LocalOp:
        return StRxVerdict::LocalOp;
    case StDecodeStatus::BadFlags:
        return StRxVerdict::BadFlags;
    case StDecodeStatus::BadField:
        return StRxVerdict::BadField;
    default:
        return StRxVerdict::Accepted;
    }
}

} // namespace

StEndpoint::StEndpoint(const StConfig& config)
    : m_config(config)
{
}

StEndpoint::~StEndpoint() = default;

StStatus
StEndpoint::Listen(uint16_t port)
{
    return Listen(port, m_config.defaults);
}

StStatus
StEndpoint::Listen(uint16_t port, const StConnParams& params)
{
    if (port == 0)
    {
        return StStatus::InvalidArgument; // Port 0 is where RCs arrive [C] SEED-GSN
    }
    if (m_listeners.count(port) != 0)
    {
        return StStatus::PortInUse;
    }
    if (params.bufsize < StMemoryTable::MIN_BUFSIZE || params.bufsize > StMemoryTable::MAX_BUFSIZE)
    {
        return StStatus::InvalidArgument;
    }
    m_listeners[port] = params;
    return StStatus::Ok;
}

StStatus
StEndpoint::Unlisten(uint16_t port)
{
    return m_listeners.erase(port) != 0 ? StStatus::Ok : StStatus::InvalidArgument;
}

bool
StEndpoint::IsListening(uint16_t port) const
{
    return m_listeners.count(port) != 0;
}

bool
StEndpoint::PortInUse(uint16_t port) const
{
    if (m_listeners.count(port) != 0)
    {
        return true;
    }
    for (const auto& [id, c] : m_conns)
    {
        if (c->IsLocalPort(port))
        {
            return true;
        }
    }
    return false;
}

uint16_t
StEndpoint::FreePort(uint16_t len) const
{
    len = std::max<uint16_t>(len, 1);
    for (uint32_t p = std::max<uint32_t>(m_config.ephemeralPortBase, 1); p + len - 1 <= 0xFFFF; ++p)
    {
        uint32_t k = 0;
        while (k < len && !PortInUse(static_cast<uint16_t>(p + k)))
        {
            ++k;
        }
        if (k == len)
        {
            return static_cast<uint16_t>(p);
        }
        p += k; // the port at p + k is taken: look after it
    }
    return 0;
}

void
StEndpoint::Claim(StConnId id)
{
    m_unclaimed.erase(id);
}

uint32_t
StEndpoint::NewKey()
{
    // Random, never 0 [C] IRIX-impl, never a key in use.
    for (;;)
    {
        uint32_t x = 0;
        if (m_config.keySource)
        {
            x = m_config.keySource();
        }
        else
        {
            if (!m_random)
            {
                m_random = std::make_unique<std::random_device>();
            }
            x = static_cast<uint32_t>((*m_random)());
        }
        if (x != 0 && m_byKey.count(x) == 0)
        {
            return x;
        }
    }
}

uint8_t
StEndpoint::ChannelMaxStu(StPeerAddress peer, uint8_t channel) const
{
    return m_config.channelMaxStu ? m_config.channelMaxStu(peer, channel) : ST_NO_STU_LIMIT;
}

StConnection*
StEndpoint::Create(StPeerAddress peer, uint16_t localPort, uint32_t key, const StConnParams& p)
{
    StEngineContext ctx;
    ctx.config = &m_config;
    ctx.counters = &m_counters;
    ctx.tx = &m_tx;
    ctx.events = &m_events;
    StConnId id = m_nextConn++;
    auto c = std::make_unique<StConnection>(id, ctx, peer, localPort, key, p);
    StConnection* raw = c.get();
    m_conns[id] = std::move(c);
    m_byKey[key] = id;
    return raw;
}

StStatus
StEndpoint::Connect(uint64_t now,
                    StPeerAddress peer,
                    uint16_t remotePort,
                    const StConnParams& params,
                    StConnId& id,
                    uint16_t localPort)
{
    if (params.bufsize < StMemoryTable::MIN_BUFSIZE ||
        params.bufsize > StMemoryTable::MAX_BUFSIZE || params.dataVc > 3 || remotePort == 0 ||
        params.portLen == 0 || params.portLen > ST_MAX_PORT_LEN)
    {
        return StStatus::InvalidArgument; // no service listens on Port 0 [C] SEED-GSN
    }
    if (localPort == 0)
    {
        localPort = FreePort(params.portLen);
        if (localPort == 0)
        {
            return StStatus::PortInUse;
        }
    }
    if (ChannelMaxStu(peer, params.dataVc) < ST_MIN_MAX_STU)
    {
        return StStatus::ChannelTooSmall;
    }
    uint32_t key = params.key;
    if (key == 0)
    {
        key = NewKey();
    }
    else if (m_byKey.count(key) != 0)
    {
        return StStatus::KeyInUse;
    }
    StConnection* c = Create(peer, localPort, key, params);
    c->StartConnect(now, remotePort);
    id = c->GetId();
    return StStatus::Ok;
}

StStatus
StEndpoint::Close(uint64_t now, StConnId id)
{
    StConnection* c = Find(id);
    return c != nullptr ? c->Close(now) : StStatus::NoSuchConnection;
}

StConnection*
StEndpoint::Find(StConnId id)
{
    auto it = m_conns.find(id);
    return it != m_conns.end() ? it->second.get() : nullptr;
}

const StConnection*
StEndpoint::Find(StConnId id) const
{
    auto it = m_conns.find(id);
    return it != m_conns.end() ? it->second.get() : nullptr;
}

std::vector<StConnId>
StEndpoint::GetConnections() const
{
    std::vector<StConnId> ids;
    for (const auto& [id, c] : m_conns)
    {
        ids.push_back(id);
    }
    return ids;
}

void
StEndpoint::Receive(uint64_t now, StPeerAddress from, const uint8_t* data, std::size_t len)
{
    m_counters.Add(StStat::RxFrames);
    if (m_config.headerChecksum && len >= ST_HEADER_SIZE && !StHeader::ChecksumOk(data))
    {
        m_counters.Count(StRxVerdict::BadChecksum);
        return;
    }
    StHeader h;
    StDecodeStatus s = StHeader::Decode(data, len, h);
    if (s != StDecodeStatus::Ok)
    {
        m_counters.Count(VerdictOf(s));
        return;
    }
    m_counters.Count(Dispatch(now, from, h, data, len));
}

StRxVerdict
StEndpoint::Dispatch(uint64_t now,
                     StPeerAddress from,
                     const StHeader& h,
                     const uint8_t* data,
                     std::size_t len)
{
    if (h.op == StOp::Rc)
    {
        return OnRc(now, from, h);
    }
    auto it = m_byKey.find(h.dKey);
    if (h.dKey == 0 || it == m_byKey.end())
    {
        return StRxVerdict::UnknownKey; // 0 is never a valid key [C] IRIX-impl
    }
    StConnection* c = Find(it->second);
    // The verification tuple: remote port, local port, local key [C] SEED-GSN; and the peer.
    if (c->GetPeer() != from)
    {
        return StRxVerdict::WrongPeer;
    }
    // An RC sent to Port 0 learns the responder's port from the CA.
    const bool anyRemotePort =
        h.op == StOp::Ca && c->GetState() == StConnState::RcSent && c->GetRemotePort() == 0;
    if (!c->IsLocalPort(h.dPort) || (!c->IsRemotePort(h.sPort) && !anyRemotePort))
    {
        return StRxVerdict::WrongPort;
    }
    return c->Receive(now, h, data, len);
}

void
StEndpoint::RefuseRc(StPeerAddress from, const StHeader& rc)
{
    StHeader ca;
    ca.op = StOp::Ca;
    ca.flags = StFlag::REJECT;
    ca.dPort = rc.sPort;
    ca.sPort = rc.dPort;
    ca.dKey = rc.offset;
    StTransmit t;
    t.peer = from;
    t.vc = m_config.controlVc;
    t.bytes.resize(ST_HEADER_SIZE);
    ca.Encode(t.bytes.data());
    if (m_config.headerChecksum)
    {
        StHeader::SealChecksum(t.bytes.data());
    }
    m_tx.push_back(std::move(t));
    m_counters.Add(StStat::TxOps);
    m_counters.Add(StStat::RejectsSent);
}

StRxVerdict
StEndpoint::OnRc(uint64_t now, StPeerAddress from, const StHeader& h)
{
    if (h.offset == 0)
    {
        return StRxVerdict::BadField; // I_Key 0 can never be echoed back
    }
    // At Port 0 the RC names its service in the ULP-Port field [C] SEED-GSN; an RC sent to
    // the service's port itself (IRIX) names it in D_Port.
    const bool atPortZero = h.dPort == 0;
    if (atPortZero && (h.dKey == 0 || h.dKey > 0xFFFF))
    {
        return StRxVerdict::BadField;
    }
    const auto service = static_cast<uint16_t>(atPortZero ? h.dKey : h.dPort);
    for (auto& [id, c] : m_conns)
    {
        if (c->GetState() == StConnState::Closed || !c->Matches(from, h.sPort, h.offset))
        {
            continue;
        }
        if (c->IsResponder() && c->GetServicePort() == service)
        {
            return c->ResendCa(now) ? StRxVerdict::Duplicate : StRxVerdict::WrongState;
        }
        if (!c->IsResponder() && c->GetLocalPort() == h.dPort)
        {
            // The initiator of this connection sent no CA, so an RC naming it is not a
            // retry of anything.
            return StRxVerdict::WrongState;
        }
    }
    auto l = m_listeners.find(service);
    if (l == m_listeners.end())
    {
        RefuseRc(from, h);
        return StRxVerdict::NoListener;
    }
    if (h.bufx < StMemoryTable::MIN_BUFSIZE || h.bufx > StMemoryTable::MAX_BUFSIZE)
    {
        RefuseRc(from, h); // Bufsize below 2^8 is not allowed [C] IRIX-impl
        return StRxVerdict::BadField;
    }
    StConnParams p = l->second;
    if (ChannelMaxStu(from, p.dataVc) < ST_MIN_MAX_STU)
    {
        RefuseRc(from, h); // DATA to or from this peer could never travel
        return StRxVerdict::NoChannel;
    }
    if (m_config.port0Slots != ST_SLOTS_UNLIMITED && m_unclaimed.size() >= m_config.port0Slots)
    {
        // No slot left in Port 0's queue: drop; the initiator tries again [C] SEED-GSN.
        return StRxVerdict::Port0Full;
    }
    // Through Port 0 every VC gets a port of its own, so the verification tuple tells the
    // VCs of one service apart by port as well as by key [C] SEED-GSN.
    uint16_t local = service;
    if (!atPortZero)
    {
        p.portLen = 1; // VCs sharing the service's port own no vector
    }
    else
    {
        local = FreePort(p.portLen);
        if (local == 0)
        {
            return StRxVerdict::Port0Full; // no port left; the initiator tries again
        }
    }
    p.key = 0;
    StConnection* c = Create(from, local, NewKey(), p);
    c->Accept(now, h, service);
    m_unclaimed.insert(c->GetId());
    return StRxVerdict::Accepted;
}

bool
StEndpoint::PollTransmit(StTransmit& out)
{
    if (m_tx.empty())
    {
        return false;
    }
    out = std::move(m_tx.front());
    m_tx.pop_front();
    return true;
}

uint64_t
StEndpoint::PollTimeout() const
{
    uint64_t t = ST_NEVER;
    for (const auto& [id, c] : m_conns)
    {
        t = std::min(t, c->NextDeadline());
    }
    return t;
}

void
StEndpoint::Forget(uint64_t now)
{
    for (auto it = m_conns.begin(); it != m_conns.end();)
    {
        if (it->second->IsGone(now))
        {
            m_byKey.erase(it->second->GetLocalKey());
            m_unclaimed.erase(it->first);
            it = m_conns.erase(it);
        }
        else
        {
            ++it;
        }
    }
}

void
StEndpoint::HandleTimeout(uint64_t now)
{
    for (auto& [id, c] : m_conns)
    {
        if (c->NextDeadline() <= now)
        {
            c->HandleTimeout(now);
        }
    }
    Forget(now);
}

bool
StEndpoint::PollEvent(StEvent& out)
{
    return PollEvent(out, true);
}

bool
StEndpoint::PollEvent(StEvent& out, bool releaseSlot)
{
    if (m_events.empty())
    {
        return false;
    }
    out = m_events.front();
    m_events.pop_front();
    if (out.holdsSlot && releaseSlot)
    {
        ReleaseSlot(out.conn);
    }
    return true;
}

void
StEndpoint::ReleaseSlot(StConnId id)
{
    if (StConnection* c = Find(id))
    {
        c->ReleaseSlot(0);
    }
}

} // namespace st
} // namespace ns3
