/*
 * st-connection-calls.cc: the upper layer's calls: memory posted for the peer's next write,
 * read or region (and given to requests waiting for it), single-use writes and reads,
 * regions asked for, PUT, GET and FETCHOP on them, and headers the upper layer builds
 * itself (st_tx). END and RS are in st-connection-end.cc and st-connection-state.cc.
 * (StConnection is written in several files, one per part of the protocol; see
 * st-connection.cc for the list.)
 */
#include "st-connection-private.h"

namespace ns3
{
namespace st
{

StStatus
StConnection::PostReceive(uint64_t now, uint64_t linear, uint64_t len)
{
    if (m_state != StConnState::Connected && m_state != StConnState::RcSent)
    {
        return StStatus::WrongState;
    }
    const StMapping* m = len > 0 ? m_memory.FindRx(linear, len) : nullptr;
    if (m == nullptr)
    {
        return len == 0 ? StStatus::InvalidArgument : StStatus::NotMapped;
    }
    m_postedRecv.push_back(Posted{linear, len, m->mx});
    MatchWaiting(now, m_waitingRts, m_postedRecv, &StConnection::StartReceive);
    return StStatus::Ok;
}

void
StConnection::MatchWaiting(uint64_t now,
                           std::deque<StHeader>& waiting,
                           std::deque<Posted>& posted,
                           void (StConnection::*start)(uint64_t, const StHeader&, const Posted&))
{
    // Paused requests take posted buffers in order; one too long for the next buffer is
    // rejected rather than left blocking the others.
    while (!waiting.empty() && !posted.empty())
    {
        const StHeader request = waiting.front();
        waiting.pop_front();
        if (request.GetTLen() > posted.front().len)
        {
            Reject(now, request, request.sId, false);
            continue;
        }
        const Posted p = posted.front();
        posted.pop_front();
        (this->*start)(now, request, p);
    }
}

StStatus
StConnection::PostSend(uint64_t now, uint64_t linear, uint64_t len)
{
    if (m_state != StConnState::Connected && m_state != StConnState::RcSent)
    {
        return StStatus::WrongState;
    }
    if (len == 0)
    {
        return StStatus::InvalidArgument;
    }
    if (!m_memory.Lookup(linear, len, StMemoryTable::PIN_TX))
    {
        return StStatus::NotMapped;
    }
    m_postedSend.push_back(Posted{linear, len, 0});
    MatchWaiting(now, m_waitingRtr, m_postedSend, &StConnection::StartSend);
    return StStatus::Ok;
}

StStatus
StConnection::ExposeRegion(uint64_t /* now */, uint64_t linear, uint64_t len)
{
    if (m_state != StConnState::Connected && m_state != StConnState::RcSent)
    {
        return StStatus::WrongState;
    }
    const StMapping* m = len > 0 ? m_memory.FindRx(linear, len) : nullptr;
    if (m == nullptr)
    {
        return len == 0 ? StStatus::InvalidArgument : StStatus::NotMapped;
    }
    m_postedRegion.push_back(Posted{linear, len, m->mx});
    return StStatus::Ok;
}

StStatus
StConnection::Write(uint64_t now,
                    uint64_t linear,
                    uint64_t len,
                    const StWriteOptions& opt,
                    uint32_t& id)
{
    if (m_state != StConnState::Connected || m_params.bypass)
    {
        return StStatus::WrongState;
    }
    if (len == 0)
    {
        return StStatus::InvalidArgument;
    }
    if (!m_memory.Lookup(linear, len, StMemoryTable::PIN_TX))
    {
        return StStatus::NotMapped;
    }
    int vc = opt.dataVc >= 0 ? opt.dataVc : m_params.dataVc;
    if (vc > 3 || !(m_params.channels & (1u << vc)))
    {
        return StStatus::InvalidArgument;
    }
    if (ChannelMaxStu(static_cast<uint8_t>(vc)) < ST_MIN_MAX_STU)
    {
        return StStatus::ChannelTooSmall;
    }
    SendXfer x;
    x.id = NewId();
    x.src = linear;
    x.len = opt.unlimited ? ST_TLEN_UNLIMITED : len;
    x.ring = opt.unlimited ? len : 0;
    x.vc = static_cast<uint8_t>(vc);
    x.sendState = opt.sendState < 0 ? m_cfg.sendState : opt.sendState != 0;
    x.opaque = opt.opaque != 0 ? opt.opaque : x.id;

    StHeader rts = Make(StOp::Rts);
    rts.param = m_cfg.ctsReqInRts ? m_params.ctsReq : 0; // 0: as negotiated
    rts.flags |= x.vc;
    if (x.sendState)
    {
        rts.flags |= StFlag::SEND_STATE;
    }
    rts.mx = m_params.maxBlock;
    rts.SetTLen(x.len);
    rts.sId = x.id;
    id = x.id;
    auto& ref = m_sends[x.id] = x;
    Send(now, rts);
    Arm(ref.rts, now, rts);
    return StStatus::Ok;
}

StStatus
StConnection::Read(uint64_t now, uint64_t linear, uint64_t len, uint32_t& id)
{
    if (m_state != StConnState::Connected || m_params.bypass)
    {
        return StStatus::WrongState;
    }
    if (len == 0)
    {
        return StStatus::InvalidArgument;
    }
    const StMapping* m = m_memory.FindRx(linear, len);
    if (m == nullptr)
    {
        return StStatus::NotMapped;
    }
    RecvXfer x;
    x.id = NewId();
    x.isRead = true;
    x.dst = linear;
    x.len = len;
    x.mx = m->mx;
    StHeader rtr = Make(StOp::Rtr);
    rtr.SetTLen(len);
    rtr.sId = x.id;
    id = x.id;
    auto& ref = m_recvs[x.id] = x;
    Send(now, rtr);
    Arm(ref.rtr, now, rtr);
    return StStatus::Ok;
}

StStatus
StConnection::RequestRegion(uint64_t now, uint64_t len, uint32_t& id)
{
    if (m_state != StConnState::Connected || m_params.bypass)
    {
        return StStatus::WrongState;
    }
    if (len == 0)
    {
        return StStatus::InvalidArgument;
    }
    RemoteRegion r;
    r.id = NewId();
    r.len = len;
    StHeader rmr = Make(StOp::Rmr);
    rmr.SetTLen(len);
    rmr.sId = r.id;
    id = r.id;
    auto& ref = m_remote[r.id] = r;
    Send(now, rmr);
    Arm(ref.rmr, now, rmr);
    return StStatus::Ok;
}

StStatus
StConnection::Put(uint64_t now,
                  uint32_t region,
                  uint64_t regionOffset,
                  uint64_t linear,
                  uint64_t len)
{
    if (m_state != StConnState::Connected)
    {
        return StStatus::WrongState;
    }
    auto it = m_remote.find(region);
    if (it == m_remote.end() || !it->second.ready)
    {
        return StStatus::NoSuchTransfer;
    }
    const RemoteRegion& r = it->second;
    if (len == 0 || regionOffset > r.len || len > r.len - regionOffset)
    {
        return StStatus::TooLarge;
    }
    // One data operation (STU) [C] SEED-GSN, so within one Bufx entry of the peer: a DATA
    // names one (Bufx, Offset) and a Put is never split.
    const uint64_t dest = r.linear + regionOffset;
    const uint64_t bufBytes = 1ULL << m_peerBufsize;
    if (len > GetPutLimit() || (dest & (bufBytes - 1)) + len > bufBytes)
    {
        m_ctx.counters->Add(StStat::PutsRefused);
        return StStatus::PutTooLarge;
    }
    const StMemRef src = m_memory.Lookup(linear, len, StMemoryTable::PIN_TX);
    if (!src)
    {
        return StStatus::NotMapped;
    }
    StHeader tmpl = Make(StOp::Data);
    tmpl.flags |= m_params.dataVc;
    tmpl.mx = r.mx;
    tmpl.dId = r.peerId;
    tmpl.sId = region;
    SendTiled(now, tmpl, dest, src.ptr, len, true, 0, m_cfg.silentData);
    StEvent e;
    e.type = StEventType::PutComplete;
    e.id = region;
    e.bytes = len;
    e.address = linear;
    PushEvent(e);
    return StStatus::Ok;
}

StStatus
StConnection::Get(uint64_t now,
                  uint32_t region,
                  uint64_t regionOffset,
                  uint64_t linear,
                  uint64_t len,
                  uint32_t& gid)
{
    return IssueGet(now, region, regionOffset, linear, len, StFetchOp::None, gid);
}

StStatus
StConnection::FetchOp(uint64_t now,
                      uint32_t region,
                      uint64_t regionOffset,
                      uint64_t linear,
                      StFetchOp op,
                      uint32_t& gid)
{
    if (op != StFetchOp::Increment && op != StFetchOp::Decrement && op != StFetchOp::Clear)
    {
        return StStatus::InvalidArgument;
    }
    // A FETCHOP moves one 64-bit block [C] SEED-GSN Table 1-9.
    return IssueGet(now, region, regionOffset, linear, 8, op, gid);
}

StStatus
StConnection::IssueGet(uint64_t now,
                       uint32_t region,
                       uint64_t regionOffset,
                       uint64_t linear,
                       uint64_t len,
                       StFetchOp op,
                       uint32_t& gid)
{
    if (m_state != StConnState::Connected || m_params.bypass)
    {
        return StStatus::WrongState;
    }
    auto it = m_remote.find(region);
    if (it == m_remote.end() || !it->second.ready)
    {
        return StStatus::NoSuchTransfer;
    }
    const RemoteRegion& r = it->second;
    // At most 2^16 - 1 bytes per GET: T_len is 16 bits [C] SEED-GSN Table 1-9.
    if (len == 0 || len > 0xFFFF || regionOffset > r.len || len > r.len - regionOffset)
    {
        return StStatus::TooLarge;
    }
    const StMapping* m = m_memory.FindRx(linear, len);
    if (m == nullptr)
    {
        return StStatus::NotMapped;
    }
    GetOp g;
    g.id = NewId();
    g.region = region;
    g.dst = linear;
    g.len = len;
    g.op = op;
    uint64_t remote = r.linear + regionOffset;
    uint64_t peerMask = (1ULL << m_peerBufsize) - 1;
    uint64_t ownMask = (1ULL << m_memory.GetBufsize()) - 1;
    StHeader get = Make(StOp::Get);
    get.SetFetchOp(op);
    get.param = static_cast<uint16_t>(len);                            // T_len (16-bit)
    get.mx = m->mx;                                                    // I_Mx
    get.bufx = static_cast<uint32_t>(remote >> m_peerBufsize);         // R_Bufx
    get.offset = static_cast<uint32_t>(remote & peerMask);             // R_Offset
    get.sync = static_cast<uint32_t>(linear >> m_memory.GetBufsize()); // I_Bufx
    get.bNum = static_cast<uint32_t>(linear & ownMask);                // I_Offset
    get.dId = r.peerId;                                                // R_id
    get.sId = g.id;                                                    // G_id
    gid = g.id;
    auto& ref = m_gets[g.id] = g;
    Send(now, get);
    Arm(ref.get, now, get);
    return StStatus::Ok;
}

StStatus
StConnection::SendRaw(uint64_t now,
                      const StHeader& h,
                      const uint8_t* payload,
                      uint64_t dataLen,
                      uint64_t linear)
{
    if (m_state != StConnState::Connected)
    {
        return StStatus::WrongState;
    }
    if (IsConnectionOp(h.op))
    {
        return StStatus::InvalidArgument; // st_tx sends "non-connection ST headers" [C] SEED-API
    }
    if (h.Validate() != StDecodeStatus::Ok)
    {
        return StStatus::InvalidArgument; // the peer's decoder would refuse it
    }
    // Ports: 0 = the VC's first; another port of a vector as the caller names it [C] SEED-API.
    if ((h.dPort != 0 && !IsRemotePort(h.dPort)) || (h.sPort != 0 && !IsLocalPort(h.sPort)))
    {
        return StStatus::InvalidArgument;
    }
    StHeader t = h;
    t.dPort = h.dPort != 0 ? h.dPort : m_remotePort;
    t.sPort = h.sPort != 0 ? h.sPort : m_localPort;
    t.dKey = m_remoteKey;
    if (t.op != StOp::Data)
    {
        Send(now, t, payload, payload != nullptr ? ST_OPT_PAYLOAD_SIZE : 0);
        return StStatus::Ok;
    }
    if (dataLen == 0)
    {
        Send(now, t);
        return StStatus::Ok;
    }
    const StMemRef src = m_memory.Lookup(linear, dataLen, StMemoryTable::PIN_TX);
    if (!src)
    {
        return StStatus::NotMapped;
    }
    if (ChannelMaxStu(t.GetDataChannel()) < ST_MIN_MAX_STU)
    {
        return StStatus::ChannelTooSmall;
    }
    // libst tiles a buffer that crosses a Bufx boundary [C] SEED-API "A Note on Tiling".
    uint16_t lastFlags = t.flags & (StFlag::LAST | StFlag::SEND_STATE);
    t.flags &= ~(StFlag::LAST | StFlag::SEND_STATE);
    uint64_t remote = (static_cast<uint64_t>(t.bufx) << m_peerBufsize) + t.offset;
    SendTiled(now, t, remote, src.ptr, dataLen, false, lastFlags, false);
    return StStatus::Ok;
}

} // namespace st
} // namespace ns3
