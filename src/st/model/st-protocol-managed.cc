/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The managed API: default parameters, Listen, Connect (the peer resolved at once or
// asynchronously), Close, the engine's events handed to each connection's callback (a
// listener's callback takes the connections it accepts), and the memory and data calls,
// forwarded to the connection and followed by a flush of the engine.
// (StProtocol is written in several files, one per part of the adapter; see
// st-protocol.cc for the list.)
#include "st-protocol-private.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

ST_PROTOCOL_LOG();

st::StConnParams
StProtocol::GetDefaultParams()
{
    st::StConnParams p = GetEndpoint().GetConfig().defaults;
    for (const auto& a : m_devices)
    {
        p.maxStu = std::min(p.maxStu, GetMaxStuFor(a.device));
    }
    return p;
}

st::StStatus
StProtocol::Listen(uint16_t port, EventCallback cb)
{
    return Listen(port, GetDefaultParams(), cb);
}

st::StStatus
StProtocol::Listen(uint16_t port, const st::StConnParams& params, EventCallback cb)
{
    st::StConnParams p = params;
    for (const auto& a : m_devices)
    {
        p.maxStu = std::min(p.maxStu, GetMaxStuFor(a.device)); // RC may come on any device
    }
    const st::StStatus s = GetEndpoint().Listen(port, p);
    if (s == st::StStatus::Ok)
    {
        m_listenCbs[port] = cb;
    }
    return s;
}

st::StStatus
StProtocol::Unlisten(uint16_t port)
{
    m_listenCbs.erase(port);
    return GetEndpoint().Unlisten(port);
}

st::StStatus
StProtocol::Connect(Ipv4Address peer, uint16_t port, EventCallback cb, st::StConnId* id)
{
    return Connect(peer, port, cb, GetDefaultParams(), id, 0);
}

st::StStatus
StProtocol::Connect(Ipv4Address peer,
                    uint16_t port,
                    EventCallback cb,
                    const st::StConnParams& params,
                    st::StConnId* id,
                    uint16_t localPort)
{
    NS_LOG_FUNCTION(this << peer << port);
    GetStack();
    if (id != nullptr)
    {
        *id = 0;
    }
    Ptr<NetDevice> dev = SelectDevice(peer);
    if (!dev)
    {
        return st::StStatus::InvalidArgument;
    }
    if (!m_asyncResolver.IsNull())
    {
        const uint32_t key = m_nextPendingKey++;
        m_pendingConnects[key] = PendingConnect{peer, port, cb, params, localPort};
        m_asyncResolver(dev, peer, ResolveDone([this, key](bool ok, const Address& mac) {
                            AsyncResolved(key, ok, mac);
                        }));
        return st::StStatus::Ok;
    }
    st::StPeerAddress p = 0;
    if (!ResolvePeer(peer, p))
    {
        ConnectFailed(cb);
        return st::StStatus::Ok; // the refusal comes as an event, as for an asynchronous one
    }
    return StartConnect(p, peer, port, cb, params, id, localPort);
}

void
StProtocol::ConnectFailed(EventCallback cb)
{
    // Reported from a fresh event, never from inside the caller's Connect.
    Simulator::ScheduleNow([cb]() {
        st::StEvent e;
        e.type = st::StEventType::ConnectionRefused;
        e.reason = st::StReason::None;
        if (!cb.IsNull())
        {
            cb(e);
        }
    });
}

void
StProtocol::AsyncResolved(uint32_t key, bool ok, const Address& mac)
{
    auto it = m_pendingConnects.find(key);
    if (it == m_pendingConnects.end())
    {
        return;
    }
    PendingConnect pc = it->second;
    m_pendingConnects.erase(it);
    Ptr<NetDevice> dev = SelectDevice(pc.peer);
    if (!ok || !dev)
    {
        ++m_adapter.resolveFailed;
        m_resolveFailedTrace(pc.peer);
        ConnectFailed(pc.cb);
        return;
    }
    const st::StPeerAddress p = LearnPeer(dev, pc.peer, mac);
    if (StartConnect(p, pc.peer, pc.port, pc.cb, pc.params, nullptr, pc.localPort) !=
        st::StStatus::Ok)
    {
        ConnectFailed(pc.cb);
    }
}

st::StStatus
StProtocol::StartConnect(const st::StPeerAddress& peer,
                         Ipv4Address ip,
                         uint16_t port,
                         EventCallback cb,
                         const st::StConnParams& params,
                         st::StConnId* id,
                         uint16_t localPort)
{
    NS_LOG_FUNCTION(this << ip << port);
    st::StConnId cid = 0;
    st::StConnParams p = params;
    p.maxStu = std::min(p.maxStu, GetMaxStuFor(FindDevice(static_cast<uint32_t>(peer >> 48))));
    const st::StStatus s =
        GetEndpoint().Connect(Simulator::Now().GetNanoSeconds(), peer, port, p, cid, localPort);
    if (s != st::StStatus::Ok)
    {
        return s;
    }
    m_managed[cid] = cb;
    if (id != nullptr)
    {
        *id = cid;
    }
    Flush();
    return s;
}

st::StStatus
StProtocol::Close(st::StConnId id)
{
    return After(GetEndpoint().Close(Simulator::Now().GetNanoSeconds(), id));
}

void
StProtocol::SetEventCallback(st::StConnId id, EventCallback cb)
{
    m_managed[id] = cb;
}

bool
StProtocol::OnUnclaimed(const st::StEvent& e)
{
    auto it = m_managed.find(e.conn);
    if (it == m_managed.end())
    {
        if (e.type != st::StEventType::ConnectionEstablished || !e.accepted)
        {
            return false;
        }
        auto l = m_listenCbs.find(e.servicePort);
        if (l == m_listenCbs.end())
        {
            return false; // a Bypass listener's: st_accept takes it
        }
        it = m_managed.emplace(e.conn, l->second).first;
        GetEndpoint().Claim(e.conn); // the listener's callback takes it from Port 0's queue
    }
    EventCallback cb = it->second;
    if (e.type == st::StEventType::ConnectionClosed || e.type == st::StEventType::ConnectionRefused)
    {
        m_managed.erase(it);
    }
    m_eventTrace(e);
    if (!cb.IsNull())
    {
        cb(e);
    }
    if (e.holdsSlot)
    {
        GetEndpoint().ReleaseSlot(e.conn); // the upper layer took the header
    }
    return true;
}

st::StStatus
StProtocol::After(st::StStatus s)
{
    Flush();
    return s;
}

st::StConnection*
StProtocol::Find(st::StConnId id)
{
    return GetEndpoint().Find(id);
}

st::StStatus
StProtocol::Map(st::StConnId id,
                int flags,
                uint8_t* ptr,
                uint64_t len,
                uint32_t bufx,
                uint32_t& handle,
                uint16_t& mx)
{
    st::StConnection* c = Find(id);
    if (c == nullptr)
    {
        return st::StStatus::NoSuchConnection;
    }
    return c->GetMemory().Map(flags, ptr, len, bufx, -1, handle, mx);
}

st::StStatus
StProtocol::Unmap(st::StConnId id, uint32_t handle)
{
    st::StConnection* c = Find(id);
    return c != nullptr ? c->GetMemory().Unmap(handle) : st::StStatus::NoSuchConnection;
}

uint64_t
StProtocol::Linear(st::StConnId id, uint32_t bufx, uint64_t offset) const
{
    const st::StConnection* c = m_stack ? m_stack->GetEndpoint().Find(id) : nullptr;
    if (c == nullptr)
    {
        return 0;
    }
    return (static_cast<uint64_t>(bufx) << c->GetLocalParams().bufsize) + offset;
}

#define ST_CALL(expr)                                                                              \
    do                                                                                             \
    {                                                                                              \
        st::StConnection* c = Find(id);                                                            \
        if (c == nullptr)                                                                          \
        {                                                                                          \
            return st::StStatus::NoSuchConnection;                                                 \
        }                                                                                          \
        const uint64_t now = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());             \
        return After(c->expr);                                                                     \
    } while (false)

st::StStatus
StProtocol::PostReceive(st::StConnId id, uint64_t linear, uint64_t len)
{
    ST_CALL(PostReceive(now, linear, len));
}

st::StStatus
StProtocol::PostSend(st::StConnId id, uint64_t linear, uint64_t len)
{
    ST_CALL(PostSend(now, linear, len));
}

st::StStatus
StProtocol::ExposeRegion(st::StConnId id, uint64_t linear, uint64_t len)
{
    ST_CALL(ExposeRegion(now, linear, len));
}

st::StStatus
StProtocol::Write(st::StConnId id,
                  uint64_t linear,
                  uint64_t len,
                  uint32_t& tid,
                  const st::StWriteOptions& opt)
{
    ST_CALL(Write(now, linear, len, opt, tid));
}

st::StStatus
StProtocol::Read(st::StConnId id, uint64_t linear, uint64_t len, uint32_t& tid)
{
    ST_CALL(Read(now, linear, len, tid));
}

st::StStatus
StProtocol::RequestRegion(st::StConnId id, uint64_t len, uint32_t& rid)
{
    ST_CALL(RequestRegion(now, len, rid));
}

st::StStatus
StProtocol::Put(st::StConnId id, uint32_t region, uint64_t offset, uint64_t linear, uint64_t len)
{
    ST_CALL(Put(now, region, offset, linear, len));
}

st::StStatus
StProtocol::Get(st::StConnId id,
                uint32_t region,
                uint64_t offset,
                uint64_t linear,
                uint64_t len,
                uint32_t& gid)
{
    ST_CALL(Get(now, region, offset, linear, len, gid));
}

st::StStatus
StProtocol::FetchOp(st::StConnId id,
                    uint32_t region,
                    uint64_t offset,
                    uint64_t linear,
                    st::StFetchOp op,
                    uint32_t& gid)
{
    ST_CALL(FetchOp(now, region, offset, linear, op, gid));
}

st::StStatus
StProtocol::End(st::StConnId id, uint32_t xid)
{
    ST_CALL(End(now, xid));
}

st::StStatus
StProtocol::RequestState(st::StConnId id,
                         st::StStateKind kind,
                         uint32_t xid,
                         uint32_t block,
                         uint32_t& sync)
{
    ST_CALL(RequestState(now, kind, xid, block, sync));
}

#undef ST_CALL

} // namespace ns3
