/*
 * st-connection.cc: one ST virtual connection (see st-connection.h).
 *
 * Layout of this file: sending and slots, setup/teardown, upper-layer calls, input per
 * operation, timers. Field use per operation follows st-protocol-reference.rst, "Field use per
 * operation"; choices the sources leave open are marked [I] (inferred) or [U] (proposed) where they
 * are made.
 */
#include "st-connection.h"

#include <algorithm>
#include <cstring>

namespace ns3
{
namespace st
{

namespace
{

bool
IsConnectionOp(StOp op)
{
    return op == StOp::Rc || op == StOp::Ca || op == StOp::Rd || op == StOp::Da || op == StOp::Dc;
}

uint64_t
GetBe64(const uint8_t* p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}

void
PutBe64(uint8_t* p, uint64_t v)
{
    for (int i = 7; i >= 0; --i)
    {
        p[i] = static_cast<uint8_t>(v);
        v >>= 8;
    }
}

uint64_t
BlockCount(uint64_t len, uint8_t blocksize)
{
    if (blocksize >= 64)
    {
        return 1;
    }
    uint64_t bs = 1ULL << blocksize;
    return len / bs + (len % bs != 0 ? 1 : 0);
}

/// Completed ids remembered for duplicate detection [U].
constexpr std::size_t ST_DONE_MEMORY = 64;

} // namespace

const char*
StConnStateName(StConnState s)
{
    switch (s)
    {
    case StConnState::Closed:
        return "CLOSED";
    case StConnState::Listen:
        return "LISTEN";
    case StConnState::RcSent:
        return "RC_SENT";
    case StConnState::Connected:
        return "CONNECTED";
    case StConnState::RdSent:
        return "RD_SENT";
    case StConnState::DaSent:
        return "DA_SENT";
    }
    return "?";
}

void
StConnection::Coverage::Add(uint64_t start, uint64_t end)
{
    if (start >= end)
    {
        return;
    }
    auto it = ranges.upper_bound(start);
    if (it != ranges.begin())
    {
        auto prev = std::prev(it);
        if (prev->second >= start)
        {
            start = prev->first;
            end = std::max(end, prev->second);
            covered -= prev->second - prev->first;
            it = ranges.erase(prev);
        }
    }
    while (it != ranges.end() && it->first <= end)
    {
        end = std::max(end, it->second);
        covered -= it->second - it->first;
        it = ranges.erase(it);
    }
    ranges[start] = end;
    covered += end - start;
}

StConnection::StConnection(StConnId id,
                           StEngineContext ctx,
                           StPeerAddress peer,
                           uint16_t localPort,
                           uint32_t localKey,
                           const StConnParams& params)
    : m_id(id),
      m_ctx(ctx),
      m_cfg(*ctx.config),
      m_peer(peer),
      m_localPort(localPort),
      m_localKey(localKey),
      m_params(params)
{
    m_params.key = localKey;
    m_memory.SetBufsize(params.bufsize);
}

StStatus
StConnection::SetParams(const StConnParams& p)
{
    if (m_negotiated)
    {
        return StStatus::WrongState;
    }
    if (p.bufsize != m_memory.GetBufsize())
    {
        StStatus s = m_memory.SetBufsize(p.bufsize);
        if (s != StStatus::Ok)
        {
            return s;
        }
    }
    m_params = p;
    m_params.key = m_localKey;
    return StStatus::Ok;
}

// ---------------------------------------------------------------------------------------
// Sending and slots
// ---------------------------------------------------------------------------------------

StHeader
StConnection::Make(StOp op) const
{
    StHeader h;
    h.op = op;
    h.dPort = m_remotePort;
    h.sPort = m_localPort;
    h.dKey = m_remoteKey;
    if (m_cfg.interrupt)
    {
        h.flags |= StFlag::INTERRUPT;
    }
    return h;
}

uint32_t
StConnection::NewId()
{
    uint32_t id = m_nextId++;
    if (m_nextId == 0)
    {
        m_nextId = 1;
    }
    return id;
}

void
StConnection::PushEvent(StEvent e)
{
    e.conn = m_id;
    e.localPort = m_localPort;
    e.servicePort = m_servicePort;
    m_ctx.events->push_back(e);
}

void
StConnection::Arm(Retry& r, uint64_t now, const StHeader& h)
{
    r.active = true;
    r.h = h;
    r.deadline = now + m_cfg.opTimeoutNs;
    r.retries = 0;
}

uint32_t
StConnection::GetTxSlotsLeft() const
{
    return m_txSlotsUnlimited ? UINT32_MAX : m_txSlots;
}

bool
StConnection::SlotsAvailable(const StHeader& h) const
{
    if (m_txSlotsUnlimited || !h.UsesSlot(m_cfg.rsRsrUseSlots))
    {
        return true;
    }
    // Keep a reserve so that a slots-kind RS can still go out [C] IRIX (reserve 5); never more
    // than half of what the peer advertised, or a small window would never open.
    uint32_t reserve = std::min<uint32_t>(m_cfg.slotReserve, m_peerSlots / 2);
    return m_txSlots > reserve;
}

void
StConnection::Send(uint64_t now, StHeader h, const uint8_t* data, std::size_t len)
{
    const bool exempt = IsConnectionOp(h.op) || h.op == StOp::Rs || h.op == StOp::Rsr;
    if (exempt || (m_blocked.empty() && SlotsAvailable(h)))
    {
        Emit(now, h, data, len);
        return;
    }
    if (m_blocked.empty())
    {
        m_ctx.counters->Add(StStat::SlotStalls);
        m_starvedSince = now;
        m_slotPollAt = now + m_cfg.slotPollNs;
    }
    Blocked b;
    b.h = h;
    if (data == nullptr)
    {
        b.zeros = len; // memory without bytes: nothing to copy
    }
    else
    {
        b.data.assign(data, data + len);
    }
    m_blocked.push_back(std::move(b));
    AskSlots(now);
}

void
StConnection::Emit(uint64_t now, StHeader& h, const uint8_t* data, std::size_t len)
{
    if (h.UsesSlot(m_cfg.rsRsrUseSlots) && !m_txSlotsUnlimited && m_negotiated &&
        !IsConnectionOp(h.op) && m_txSlots > 0)
    {
        --m_txSlots;
    }
    if (h.op == StOp::Data || h.op == StOp::Rs)
    {
        // Sync counts RS and DATA sent, 16 bits in a 32-bit field [C] IRIX-impl.
        m_sync = static_cast<uint16_t>(m_sync + 1);
        h.sync = m_sync;
    }
    if (h.op == StOp::Rs || (h.op == StOp::Data && h.Has(StFlag::SEND_STATE)))
    {
        m_rsrAwaited.insert(h.sync);
    }
    StTransmit t;
    t.peer = m_peer;
    t.vc = h.op == StOp::Data ? h.GetDataChannel() : m_cfg.controlVc;
    if (data == nullptr)
    {
        // Memory without bytes: the carrier sends len zero bytes; nothing is copied.
        t.bytes.resize(ST_HEADER_SIZE);
        t.virtualBytes = len;
    }
    else
    {
        t.bytes.resize(ST_HEADER_SIZE + len);
        if (len > 0)
        {
            std::memcpy(t.bytes.data() + ST_HEADER_SIZE, data, len);
        }
    }
    h.Encode(t.bytes.data());
    if (m_cfg.headerChecksum)
    {
        StHeader::SealChecksum(t.bytes.data());
    }
    m_ctx.tx->push_back(std::move(t));
    ++m_headersSent;
    m_ctx.counters->Add(StStat::TxOps);
    if (h.op == StOp::Data)
    {
        m_ctx.counters->Add(StStat::TxDataBytes, len);
    }
    // Early notify: ask for slots once half of the peer's slots are used [C] IRIX.
    if (m_cfg.earlyNotify && !m_txSlotsUnlimited && m_negotiated &&
        m_state == StConnState::Connected && h.UsesSlot(m_cfg.rsRsrUseSlots) &&
        m_txSlots <= m_peerSlots / 2u)
    {
        AskSlots(now);
    }
}

void
StConnection::AskSlots(uint64_t now)
{
    if (m_slotRsOut || m_txSlotsUnlimited || m_state != StConnState::Connected)
    {
        return;
    }
    if (m_cfg.rsRsrUseSlots && m_txSlots == 0)
    {
        return; // seed rule and nothing left: only the slot-wait timeout can end this
    }
    StHeader rs = Make(StOp::Rs);
    rs.bNum = 0;
    rs.dId = ST_NONE32; // kind 1: slots only
    m_slotRsOut = true;
    Emit(now, rs, nullptr, 0);
    Arm(m_rs[rs.sync], now, rs);
}

void
StConnection::DrainBlocked(uint64_t now)
{
    while (!m_blocked.empty() && SlotsAvailable(m_blocked.front().h))
    {
        auto item = std::move(m_blocked.front());
        m_blocked.pop_front();
        if (item.zeros > 0)
        {
            Emit(now, item.h, nullptr, item.zeros);
        }
        else
        {
            Emit(now, item.h, item.data.data(), item.data.size());
        }
    }
    if (m_blocked.empty())
    {
        m_starvedSince = ST_NEVER;
        m_slotPollAt = ST_NEVER;
    }
    else
    {
        m_slotPollAt = now + m_cfg.slotPollNs;
    }
}

uint8_t
StConnection::ChannelMaxStu(uint8_t channel) const
{
    return m_cfg.channelMaxStu ? m_cfg.channelMaxStu(m_peer, channel) : ST_NO_STU_LIMIT;
}

uint8_t
StConnection::AdvertisedMaxStu() const
{
    // IRIX sends min(maxstu, Bufsize) [C]; and no more than our data channel carries, so
    // the peer's STUs fit it.
    return std::min({m_params.maxStu, m_params.bufsize, ChannelMaxStu(m_params.dataVc)});
}

uint64_t
StConnection::StuLimit(uint8_t channel) const
{
    // An STU is never larger than 2^min(peer Max_STU, peer Bufsize) [C] IRIX, INCITS337, nor
    // than the local interface carries on its channel.
    uint8_t lg = std::min({m_peerMaxStu, m_peerBufsize, ChannelMaxStu(channel)});
    return 1ULL << std::min<uint8_t>(lg, 40);
}

uint64_t
StConnection::GetPutLimit() const
{
    // Table 1-9: each Put is "2^48 minus 1 byte or VC's max_STU (one Block)" [C] SEED-GSN.
    return std::min<uint64_t>(StuLimit(m_params.dataVc), (1ULL << 48) - 1);
}

void
StConnection::SendTiled(uint64_t now,
                        StHeader tmpl,
                        uint64_t remoteLinear,
                        const uint8_t* src,
                        uint64_t len,
                        bool lastGetsL,
                        uint16_t extraLastFlags,
                        bool silentButLast)
{
    const uint64_t stu = StuLimit(tmpl.GetDataChannel());
    const uint64_t bufBytes = 1ULL << m_peerBufsize;
    uint64_t k = 0;
    uint16_t stuNum = 0;
    do
    {
        uint64_t lin = remoteLinear + k;
        uint64_t room = bufBytes - (lin & (bufBytes - 1));
        uint64_t n = std::min({len - k, stu, room});
        bool last = (k + n == len);
        StHeader h = tmpl;
        h.param = stuNum++; // STU_num within the block [I]
        h.bufx = static_cast<uint32_t>(lin >> m_peerBufsize);
        h.offset = static_cast<uint32_t>(lin & (bufBytes - 1));
        if (last)
        {
            h.flags |= extraLastFlags | (lastGetsL ? StFlag::LAST : 0);
        }
        else if (silentButLast)
        {
            h.flags |= StFlag::SILENT;
        }
        Send(now, h, src != nullptr ? src + k : nullptr, static_cast<std::size_t>(n));
        k += n;
    } while (k < len);
}

// ---------------------------------------------------------------------------------------
// Setup and teardown
// ---------------------------------------------------------------------------------------

void
StConnection::StartConnect(uint64_t now, uint16_t service)
{
    m_servicePort = service;
    // Port 0 receives every RC [C] SEED-GSN; the CA names the responder's port for this VC.
    m_remotePort = m_cfg.rcToPortZero ? 0 : service;
    m_negotiated = true;
    StHeader rc = Make(StOp::Rc);
    // No key to echo yet (0 is never a valid key [C] IRIX-impl): the field carries the
    // ULP-Port when the RC goes to Port 0 [U] (IRIX leaves it 0).
    rc.dKey = m_cfg.rcToPortZero ? service : 0;
    rc.param = m_params.slots;
    rc.mx = m_params.etherType;
    rc.bufx = m_params.bufsize;
    rc.offset = m_localKey;
    rc.sync = AdvertisedMaxStu();
    rc.bNum = m_params.ctsReq; // CTS_req is a connection parameter [C] SEED-GSN; field [U]
    rc.sId = m_params.portLen; // our port vector [C] SEED-API; field [U] (IRIX: unused, 0)
    if (m_params.outOfOrder)
    {
        rc.flags |= StFlag::ORDER;
    }
    m_state = StConnState::RcSent;
    Emit(now, rc, nullptr, 0);
    Arm(m_rc, now, rc);
}

void
StConnection::Accept(uint64_t now, const StHeader& rc, uint16_t service)
{
    m_servicePort = service;
    m_remotePort = rc.sPort;
    m_remoteKey = rc.offset;
    m_peerSlots = rc.param;
    m_peerBufsize = static_cast<uint8_t>(rc.bufx);
    m_peerMaxStu = static_cast<uint8_t>(std::min<uint32_t>(rc.sync, 63));
    m_peerCtsReq = PeerCtsReq(rc.bNum);
    m_remotePortLen = PeerPortLen(rc.sId, m_remotePort);
    m_etherType = rc.mx;
    m_peerOutOfOrder = rc.Has(StFlag::ORDER);
    m_txSlotsUnlimited = (m_peerSlots == ST_SLOTS_UNLIMITED);
    m_txSlots = m_peerSlots;
    m_negotiated = true;
    m_responder = true;
    m_state = StConnState::Connected;

    StHeader ca = Make(StOp::Ca);
    ca.param = m_params.slots;
    ca.bufx = m_params.bufsize;
    ca.offset = m_localKey;
    ca.sync = AdvertisedMaxStu();
    ca.bNum = m_params.ctsReq;
    ca.sId = m_params.portLen;
    if (m_params.outOfOrder)
    {
        ca.flags |= StFlag::ORDER;
    }
    m_ca = ca;
    Emit(now, ca, nullptr, 0);

    StEvent e;
    e.type = StEventType::ConnectionEstablished;
    e.accepted = true;
    PushEvent(e);
}

uint16_t
StConnection::PeerPortLen(uint32_t field, uint16_t base)
{
    // A peer that sends no vector (IRIX leaves the field 0) has one port; a vector never
    // runs past port 65535 nor beyond ST_MAX_PORT_LEN.
    const uint32_t room = 0x10000u - base;
    return static_cast<uint16_t>(
        std::max<uint32_t>(1, std::min({field, room, uint32_t(ST_MAX_PORT_LEN)})));
}

uint16_t
StConnection::PeerCtsReq(uint32_t field)
{
    // A peer that does not negotiate it (IRIX sends it in every RTS) leaves 0: 64 [C] IRIX.
    return field != 0 ? static_cast<uint16_t>(std::min<uint32_t>(field, 0xFFFF)) : 64;
}

bool
StConnection::ResendCa(uint64_t now)
{
    // Only the responder sent a CA; an initiator has none to repeat.
    if (!m_responder)
    {
        return false;
    }
    if (m_state == StConnState::Connected)
    {
        StHeader ca = m_ca;
        Emit(now, ca, nullptr, 0);
    }
    return true;
}

StStatus
StConnection::Close(uint64_t now)
{
    switch (m_state)
    {
    case StConnState::Connected: {
        AbortAll(StReason::Local);
        StHeader rd = Make(StOp::Rd);
        rd.offset = m_localKey;
        m_state = StConnState::RdSent;
        Emit(now, rd, nullptr, 0);
        Arm(m_rd, now, rd);
        return StStatus::Ok;
    }
    case StConnState::RcSent: {
        SetClosed(now);
        StEvent e;
        e.type = StEventType::ConnectionClosed;
        e.reason = StReason::Local;
        PushEvent(e);
        return StStatus::Ok;
    }
    case StConnState::RdSent:
    case StConnState::DaSent:
        return StStatus::Ok;
    default:
        return StStatus::WrongState;
    }
}

void
StConnection::AbortAll(StReason reason)
{
    auto aborted = [this, reason](uint32_t id, StRole role) {
        StEvent e;
        e.type = StEventType::TransferAborted;
        e.id = id;
        e.role = role;
        e.reason = reason;
        PushEvent(e);
    };
    for (auto& [id, x] : m_sends)
    {
        aborted(id, StRole::Source);
    }
    for (auto& [id, x] : m_recvs)
    {
        if (x.doneBlocks < x.nBlocks || !x.started)
        {
            aborted(id, StRole::Destination);
        }
    }
    for (auto& [id, r] : m_remote)
    {
        aborted(id, StRole::None);
    }
    for (auto& [id, g] : m_gets)
    {
        aborted(id, StRole::Destination);
    }
    m_sends.clear();
    m_recvs.clear();
    m_regions.clear();
    m_remote.clear();
    m_gets.clear();
    m_fetches.clear();
    m_ends.clear();
    m_rs.clear();
    m_userRs.clear();
    m_postedRecv.clear();
    m_postedSend.clear();
    m_postedRegion.clear();
    m_waitingRts.clear();
    m_waitingRtr.clear();
    m_blocked.clear();
    m_slotRsOut = false;
    m_starvedSince = ST_NEVER;
    m_slotPollAt = ST_NEVER;
}

void
StConnection::SetClosed(uint64_t now)
{
    AbortAll(StReason::Local);
    m_state = StConnState::Closed;
    m_rc.active = false;
    m_rd.active = false;
    m_da.active = false;
    m_lingerUntil = now + m_cfg.lingerNs;
}

void
StConnection::Teardown(uint64_t now, StReason reason, bool sendRd)
{
    AbortAll(reason);
    if (sendRd && (m_state == StConnState::Connected || m_state == StConnState::RdSent ||
                   m_state == StConnState::DaSent))
    {
        StHeader rd = Make(StOp::Rd);
        rd.offset = m_localKey;
        Emit(now, rd, nullptr, 0);
    }
    SetClosed(now);
    StEvent e;
    e.type = StEventType::ConnectionClosed;
    e.reason = reason;
    PushEvent(e);
}

// ---------------------------------------------------------------------------------------
// Upper-layer calls
// ---------------------------------------------------------------------------------------

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

bool
StConnection::IsRegionReady(uint32_t id) const
{
    auto it = m_remote.find(id);
    return it != m_remote.end() && it->second.ready;
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
StConnection::End(uint64_t now, uint32_t id)
{
    if (m_state != StConnState::Connected)
    {
        return StStatus::WrongState;
    }
    uint32_t peerId = 0;
    StRole role = StRole::None;
    bool transfer = false;
    bool unlimited = false; // an unlimited transfer ends with END: complete, not aborted
    uint64_t moved = 0;
    if (auto it = m_sends.find(id); it != m_sends.end())
    {
        peerId = it->second.peerId;
        role = StRole::Source;
        transfer = true;
        unlimited = it->second.ring != 0;
        moved = it->second.moved;
        m_sends.erase(it);
    }
    else if (auto it = m_recvs.find(id); it != m_recvs.end())
    {
        peerId = it->second.peerId;
        role = StRole::Destination;
        transfer = it->second.doneBlocks < it->second.nBlocks || !it->second.started;
        unlimited = it->second.ring != 0;
        moved = it->second.moved;
        m_recvs.erase(it);
    }
    else if (auto it = m_remote.find(id); it != m_remote.end())
    {
        peerId = it->second.peerId;
        m_remote.erase(it);
    }
    else if (auto it = m_regions.find(id); it != m_regions.end())
    {
        peerId = it->second.peerId;
        m_regions.erase(it);
    }
    else if (auto it = m_gets.find(id); it != m_gets.end())
    {
        m_gets.erase(it);
        transfer = true;
        role = StRole::Destination;
    }
    else
    {
        return StStatus::NoSuchTransfer;
    }
    if (transfer)
    {
        StEvent e;
        e.type = unlimited ? StEventType::TransferComplete : StEventType::TransferAborted;
        e.id = id;
        e.role = role;
        e.reason = StReason::Local;
        e.bytes = moved;
        PushEvent(e);
    }
    StHeader end = Make(StOp::End);
    end.dId = peerId; // R_id (0 if the peer's id is not known yet: matched by I_id)
    end.sId = id;     // I_id
    Send(now, end);
    Arm(m_ends[id], now, end);
    return StStatus::Ok;
}

StStatus
StConnection::RequestState(uint64_t now,
                           StStateKind kind,
                           uint32_t id,
                           uint32_t block,
                           uint32_t& sync)
{
    if (m_state != StConnState::Connected)
    {
        return StStatus::WrongState;
    }
    StHeader rs = Make(StOp::Rs);
    if (kind == StStateKind::Slots)
    {
        rs.dId = ST_NONE32;
    }
    else
    {
        uint32_t peerId = 0;
        if (auto it = m_sends.find(id); it != m_sends.end())
        {
            peerId = it->second.peerId;
        }
        else if (auto it2 = m_recvs.find(id); it2 != m_recvs.end())
        {
            peerId = it2->second.peerId;
        }
        else
        {
            return StStatus::NoSuchTransfer;
        }
        rs.dId = peerId;
        rs.sId = id;
        rs.bNum = kind == StStateKind::Transfer ? ST_NONE32 : block;
    }
    Emit(now, rs, nullptr, 0);
    sync = rs.sync;
    Arm(m_rs[rs.sync], now, rs);
    m_userRs.insert(rs.sync);
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

std::size_t
StConnection::GetActiveCount() const
{
    std::size_t n = m_sends.size() + m_regions.size() + m_remote.size() + m_gets.size() +
                    m_fetches.size() + m_ends.size() + m_rs.size() + m_blocked.size();
    for (const auto& [id, x] : m_recvs)
    {
        if (!x.started || x.doneBlocks < x.nBlocks)
        {
            ++n;
        }
    }
    return n;
}

// ---------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------

StRxVerdict
StConnection::Receive(uint64_t now, const StHeader& h, const uint8_t* data, std::size_t len)
{
    switch (h.op)
    {
    case StOp::Ca:
        return OnCa(now, h);
    case StOp::Rd:
        return OnRd(now, h);
    case StOp::Da:
        return OnDa(now, h);
    case StOp::Dc:
        return OnDc(now, h);
    default:
        break;
    }
    if (m_state != StConnState::Connected)
    {
        return StRxVerdict::WrongState;
    }

    // Slot accounting, receiving side: the peer may have at most what we advertised.
    bool charged = false;
    if (h.UsesSlot(m_cfg.rsRsrUseSlots) && m_params.slots != ST_SLOTS_UNLIMITED)
    {
        if (m_rxOutstanding >= m_params.slots)
        {
            return StRxVerdict::SlotOverrun;
        }
        ++m_rxOutstanding;
        charged = true;
        if (h.op == StOp::Rs)
        {
            // Never handed to the ULP: free before answering, so the RSR reports it.
            ++m_rxFreed;
            charged = false;
        }
    }

    StRxVerdict v = StRxVerdict::Accepted;
    const bool bypass = m_params.bypass;
    // In bypass mode the upper layer runs the control sequences: their headers are only
    // handed up.
    const bool sequenceOp = h.op == StOp::Rts || h.op == StOp::Rtr || h.op == StOp::Cts ||
                            h.op == StOp::Ra || h.op == StOp::Rmr || h.op == StOp::Mra ||
                            h.op == StOp::Get || h.op == StOp::End || h.op == StOp::Ea;
    if (!(bypass && sequenceOp))
    {
        switch (h.op)
        {
        case StOp::Data:
            v = OnData(now, h, data, len);
            break;
        case StOp::Rs:
            v = OnRs(now, h);
            break;
        case StOp::Rsr:
            v = OnRsr(now, h);
            break;
        case StOp::Rts:
            v = OnRts(now, h);
            break;
        case StOp::Rtr:
            v = OnRtr(now, h);
            break;
        case StOp::Cts:
            v = OnCts(now, h);
            break;
        case StOp::Ra:
            v = OnRa(now, h);
            break;
        case StOp::Rmr:
            v = OnRmr(now, h);
            break;
        case StOp::Mra:
            v = OnMra(now, h);
            break;
        case StOp::Get:
            v = OnGet(now, h);
            break;
        case StOp::End:
            v = OnEnd(now, h);
            break;
        case StOp::Ea:
            v = OnEa(now, h);
            break;
        case StOp::Nop:
            break; // nothing to do; in bypass mode it goes to st_rx like any header
        default:
            v = StRxVerdict::WrongState;
            break;
        }
    }

    // Hand the header to the ULP: every non-Silent op in bypass mode (st_rx), and non-Silent
    // DATA in managed mode (the engine runs the control sequences itself). The slot stays
    // held until the upper layer polls the event.
    bool deliver = v == StRxVerdict::Accepted && !(h.op == StOp::Data && h.Has(StFlag::SILENT)) &&
                   (bypass ? h.op != StOp::Rs : h.op == StOp::Data);
    if (deliver)
    {
        StEvent e;
        e.type = StEventType::HeaderReceived;
        e.header = h;
        e.holdsSlot = charged;
        if (h.op == StOp::Data)
        {
            e.dataLen = len - ST_HEADER_SIZE;
            e.address = m_memory.Linear(h.bufx, h.offset);
        }
        else if (len >= ST_HEADER_SIZE + ST_OPT_PAYLOAD_SIZE)
        {
            e.hasPayload = true;
            std::memcpy(e.payload.data(), data + ST_HEADER_SIZE, ST_OPT_PAYLOAD_SIZE);
        }
        PushEvent(e);
    }
    else if (charged && m_params.slots != ST_SLOTS_UNLIMITED)
    {
        ++m_rxFreed; // processed at once: the slot is free again
    }
    // I: "the destination ULP should be interrupted when this operation arrives" [C] SEED-GSN.
    if (v == StRxVerdict::Accepted && h.Has(StFlag::INTERRUPT))
    {
        StEvent e;
        e.type = StEventType::Interrupt;
        e.header = h;
        PushEvent(e);
    }
    return v;
}

void
StConnection::ReleaseSlot(uint64_t /* now */)
{
    if (m_params.slots != ST_SLOTS_UNLIMITED)
    {
        ++m_rxFreed;
    }
}

StRxVerdict
StConnection::OnCa(uint64_t now, const StHeader& h)
{
    if (m_state != StConnState::RcSent)
    {
        return m_state == StConnState::Connected ? StRxVerdict::Duplicate : StRxVerdict::WrongState;
    }
    m_rc.active = false;
    if (h.Has(StFlag::REJECT))
    {
        SetClosed(now);
        StEvent e;
        e.type = StEventType::ConnectionRefused;
        e.reason = StReason::Refused;
        PushEvent(e);
        return StRxVerdict::Accepted;
    }
    if (h.offset == 0 || h.bufx < StMemoryTable::MIN_BUFSIZE || h.bufx > StMemoryTable::MAX_BUFSIZE)
    {
        m_rc.active = true;
        return StRxVerdict::BadField;
    }
    if (m_remotePort == 0)
    {
        if (h.sPort == 0)
        {
            m_rc.active = true;
            return StRxVerdict::BadField; // an accepted VC needs the responder's port
        }
        m_remotePort = h.sPort; // the port the responder gave this VC
    }
    m_remoteKey = h.offset;
    m_peerSlots = h.param;
    m_peerBufsize = static_cast<uint8_t>(h.bufx);
    m_peerMaxStu = static_cast<uint8_t>(std::min<uint32_t>(h.sync, 63));
    m_peerCtsReq = PeerCtsReq(h.bNum);
    m_remotePortLen = PeerPortLen(h.sId, m_remotePort);
    m_peerOutOfOrder = h.Has(StFlag::ORDER);
    m_etherType = m_params.etherType;
    m_txSlotsUnlimited = (m_peerSlots == ST_SLOTS_UNLIMITED);
    m_txSlots = m_peerSlots;
    m_state = StConnState::Connected;
    StEvent e;
    e.type = StEventType::ConnectionEstablished;
    PushEvent(e);
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnRd(uint64_t now, const StHeader& h)
{
    if (h.offset != m_remoteKey)
    {
        return StRxVerdict::BadField;
    }
    StHeader da = Make(StOp::Da);
    da.offset = m_localKey;
    switch (m_state)
    {
    case StConnState::Connected:
        AbortAll(StReason::Peer);
        m_state = StConnState::DaSent;
        Emit(now, da, nullptr, 0);
        Arm(m_da, now, da);
        return StRxVerdict::Accepted;
    case StConnState::RdSent:
        // Crossing RDs: answer DA and wait both for our DA and for the DC [C] IRIX.
        m_crossing = true;
        m_state = StConnState::DaSent;
        Emit(now, da, nullptr, 0);
        Arm(m_da, now, da);
        return StRxVerdict::Accepted;
    case StConnState::DaSent:
    case StConnState::Closed:
        Emit(now, da, nullptr, 0);
        return StRxVerdict::Duplicate;
    default:
        return StRxVerdict::WrongState;
    }
}

StRxVerdict
StConnection::OnDa(uint64_t now, const StHeader& h)
{
    if (h.offset != m_remoteKey)
    {
        return StRxVerdict::BadField;
    }
    StHeader dc = Make(StOp::Dc);
    dc.offset = m_localKey;
    StEvent closed;
    closed.type = StEventType::ConnectionClosed;
    closed.reason = StReason::Local;
    switch (m_state)
    {
    case StConnState::RdSent:
        Emit(now, dc, nullptr, 0);
        SetClosed(now);
        PushEvent(closed);
        return StRxVerdict::Accepted;
    case StConnState::DaSent:
        if (!m_crossing || !m_rd.active)
        {
            return StRxVerdict::WrongState;
        }
        Emit(now, dc, nullptr, 0);
        m_rd.active = false;
        if (m_gotDc)
        {
            SetClosed(now);
            PushEvent(closed);
        }
        return StRxVerdict::Accepted;
    case StConnState::Closed:
        Emit(now, dc, nullptr, 0); // our DC was lost
        return StRxVerdict::Duplicate;
    default:
        return StRxVerdict::WrongState;
    }
}

StRxVerdict
StConnection::OnDc(uint64_t now, const StHeader& h)
{
    if (h.offset != m_remoteKey)
    {
        return StRxVerdict::BadField;
    }
    if (m_state == StConnState::Closed)
    {
        return StRxVerdict::Duplicate;
    }
    if (m_state != StConnState::DaSent)
    {
        return StRxVerdict::WrongState;
    }
    m_da.active = false;
    if (m_crossing && m_rd.active)
    {
        m_gotDc = true; // still waiting for the DA to our own RD
        return StRxVerdict::Accepted;
    }
    SetClosed(now);
    StEvent e;
    e.type = StEventType::ConnectionClosed;
    e.reason = m_crossing ? StReason::Local : StReason::Peer;
    PushEvent(e);
    return StRxVerdict::Accepted;
}

void
StConnection::Reject(uint64_t now, const StHeader& /* req */, uint32_t reqId, bool pause)
{
    StHeader ra = Make(StOp::Ra);
    ra.dId = reqId;
    if (!pause)
    {
        ra.flags |= StFlag::REJECT;
        m_ctx.counters->Add(StStat::RejectsSent);
    }
    else
    {
        m_ctx.counters->Add(StStat::PausesSent);
    }
    Send(now, ra);
}

void
StConnection::StartReceive(uint64_t now, const StHeader& rts, const Posted& mem)
{
    RecvXfer x;
    x.id = NewId();
    x.dst = mem.linear;
    x.mx = mem.mx;
    uint32_t id = x.id;
    m_recvs[id] = x;
    RecvXfer& r = m_recvs[id];
    r.peerId = rts.sId;
    r.len = rts.GetTLen();
    r.started = true;
    // Blocksize: chosen by the destination, min(RTS Max_Block, own limit) [C] SEED-GSN.
    r.blocksize = static_cast<uint8_t>(std::min<uint32_t>({rts.mx, m_params.maxBlock, 63}));
    if (r.len == ST_TLEN_UNLIMITED)
    {
        // Unlimited: the blocks cycle over the posted memory, which holds at least one.
        r.ring = mem.len;
        while (r.blocksize > 0 && (1ULL << r.blocksize) > r.ring)
        {
            --r.blocksize;
        }
    }
    r.nBlocks = BlockCount(r.len, r.blocksize);
    r.ctsReq = rts.param != 0 ? rts.param : m_peerCtsReq; // per transfer, else negotiated
    GrantBlocks(now, r);
}

void
StConnection::GrantBlocks(uint64_t now, RecvXfer& x)
{
    // Unlimited: a block of the memory is granted again once its last use is complete.
    while (x.granted.size() < x.ctsReq && x.nextCts < x.nBlocks &&
           (x.ring == 0 || x.nextCts < x.bSeq + (x.ring >> x.blocksize)))
    {
        SendCts(now, x, x.nextCts++);
    }
}

void
StConnection::SendCts(uint64_t now, RecvXfer& x, uint64_t block)
{
    const uint8_t bs = m_memory.GetBufsize();
    uint64_t blockOffset = block << x.blocksize;
    uint64_t lin = x.dst + (x.ring != 0 ? blockOffset % ((x.ring >> x.blocksize) << x.blocksize)
                                        : blockOffset);
    StHeader cts = Make(StOp::Cts);
    cts.param = x.blocksize;
    cts.mx = x.mx;
    cts.bufx = static_cast<uint32_t>(lin >> bs);
    cts.offset = static_cast<uint32_t>(lin & ((1ULL << bs) - 1));
    cts.sync = static_cast<uint32_t>(blockOffset); // F_Offset: block start in the transfer [I]
    cts.bNum = static_cast<uint32_t>(block);
    cts.dId = x.peerId;
    cts.sId = x.id;
    auto& b = x.granted[block];
    b.cov = Coverage();
    Send(now, cts);
    Arm(b.cts, now, cts);
}

void
StConnection::StartSend(uint64_t now, const StHeader& rtr, const Posted& mem)
{
    SendXfer x;
    x.id = NewId();
    x.readId = rtr.sId;
    x.src = mem.linear;
    x.len = rtr.GetTLen();
    x.vc = m_params.dataVc;
    x.sendState = m_cfg.sendState;
    x.opaque = x.id;
    StHeader rts = Make(StOp::Rts);
    rts.param = m_cfg.ctsReqInRts ? m_params.ctsReq : 0; // 0: as negotiated
    rts.flags |= x.vc;
    if (x.sendState)
    {
        rts.flags |= StFlag::SEND_STATE;
    }
    rts.mx = m_params.maxBlock;
    rts.SetTLen(x.len);
    rts.dId = x.readId; // the RTR's I_id, so the reader can bind the RTS [I]
    rts.sId = x.id;
    auto& ref = m_sends[x.id] = x;
    Send(now, rts);
    Arm(ref.rts, now, rts);
}

StRxVerdict
StConnection::OnRts(uint64_t now, const StHeader& h)
{
    if (h.sId == 0 || h.GetTLen() == 0)
    {
        return StRxVerdict::BadField; // I_id 0 is fatal in IRIX [C]
    }
    if (h.dId != 0)
    {
        // The answer to our RTR: the peer now writes into the memory of the read.
        auto it = m_recvs.find(h.dId);
        if (it == m_recvs.end() || !it->second.isRead)
        {
            return StRxVerdict::UnknownTransfer;
        }
        RecvXfer& x = it->second;
        if (x.started)
        {
            if (x.peerId != h.sId)
            {
                return StRxVerdict::UnknownTransfer;
            }
            for (auto& [b, blk] : x.granted)
            {
                StHeader again = blk.cts.h;
                Send(now, again);
            }
            return StRxVerdict::Duplicate;
        }
        if (h.GetTLen() > x.len)
        {
            Reject(now, h, h.sId, false);
            return StRxVerdict::Accepted;
        }
        x.rtr.active = false;
        x.started = true;
        x.peerId = h.sId;
        x.len = h.GetTLen();
        x.blocksize = static_cast<uint8_t>(std::min<uint32_t>({h.mx, m_params.maxBlock, 63}));
        x.nBlocks = BlockCount(x.len, x.blocksize);
        x.ctsReq = h.param != 0 ? h.param : m_peerCtsReq;
        GrantBlocks(now, x);
        return StRxVerdict::Accepted;
    }
    for (auto& [id, x] : m_recvs)
    {
        if (!x.isRead && x.peerId == h.sId)
        {
            for (auto& [b, blk] : x.granted)
            {
                StHeader again = blk.cts.h;
                Send(now, again);
            }
            return StRxVerdict::Duplicate;
        }
    }
    for (const auto& w : m_waitingRts)
    {
        if (w.sId == h.sId)
        {
            Reject(now, h, h.sId, true);
            return StRxVerdict::Duplicate;
        }
    }
    if (!m_postedRecv.empty())
    {
        // An unlimited transfer cycles over the posted memory, whatever its length.
        if (h.GetTLen() != ST_TLEN_UNLIMITED && h.GetTLen() > m_postedRecv.front().len)
        {
            Reject(now, h, h.sId, false); // T_len larger than the posted buffer [C] IRIX
            return StRxVerdict::Accepted;
        }
        Posted p = m_postedRecv.front();
        m_postedRecv.pop_front();
        StartReceive(now, h, p);
        return StRxVerdict::Accepted;
    }
    if (m_cfg.pauseWhenNoBuffer)
    {
        m_waitingRts.push_back(h);
        Reject(now, h, h.sId, true); // RA with R = 0: wait [C] IRIX
    }
    else
    {
        Reject(now, h, h.sId, false);
    }
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnRtr(uint64_t now, const StHeader& h)
{
    if (h.sId == 0 || h.GetTLen() == 0)
    {
        return StRxVerdict::BadField;
    }
    for (auto& [id, x] : m_sends)
    {
        if (x.readId == h.sId)
        {
            if (x.rts.active)
            {
                StHeader again = x.rts.h;
                Send(now, again);
            }
            return StRxVerdict::Duplicate;
        }
    }
    for (const auto& w : m_waitingRtr)
    {
        if (w.sId == h.sId)
        {
            Reject(now, h, h.sId, true);
            return StRxVerdict::Duplicate;
        }
    }
    if (!m_postedSend.empty())
    {
        if (h.GetTLen() > m_postedSend.front().len)
        {
            Reject(now, h, h.sId, false);
            return StRxVerdict::Accepted;
        }
        Posted p = m_postedSend.front();
        m_postedSend.pop_front();
        StartSend(now, h, p);
        return StRxVerdict::Accepted;
    }
    if (m_cfg.pauseWhenNoBuffer)
    {
        m_waitingRtr.push_back(h);
        Reject(now, h, h.sId, true);
    }
    else
    {
        Reject(now, h, h.sId, false);
    }
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnCts(uint64_t now, const StHeader& h)
{
    auto it = m_sends.find(h.dId);
    if (it == m_sends.end())
    {
        return StRxVerdict::UnknownTransfer;
    }
    SendXfer& x = it->second;
    if (h.param > 63 || h.sId == 0)
    {
        return StRxVerdict::BadField;
    }
    if (x.blocksize < 0)
    {
        x.blocksize = h.param; // fixed by the first CTS [C] SEED-GSN
        x.peerId = h.sId;
        x.rts.active = false;
        x.paused = false;
    }
    else if (x.blocksize != h.param || x.peerId != h.sId)
    {
        return StRxVerdict::BadField;
    }
    uint64_t nBlocks = BlockCount(x.len, static_cast<uint8_t>(x.blocksize));
    if (h.bNum >= nBlocks)
    {
        return StRxVerdict::BadField;
    }
    uint32_t id = x.id;
    SendBlock(now, x, h.bNum, h);
    it = m_sends.find(id);
    if (it == m_sends.end())
    {
        return StRxVerdict::Accepted; // aborted while sending (memory unmapped)
    }
    if (it->second.ring != 0)
    {
        return StRxVerdict::Accepted; // unlimited: never all sent, nothing to remember
    }
    it->second.sent.insert(h.bNum);
    if (!it->second.allSent && it->second.sent.size() == nBlocks)
    {
        it->second.allSent = true;
        if (!it->second.sendState)
        {
            CompleteSend(now, id);
        }
        else
        {
            StHeader rs = Make(StOp::Rs);
            rs.dId = it->second.peerId;
            rs.sId = id;
            rs.bNum = ST_NONE32;
            Arm(it->second.fin, now, rs);
        }
    }
    return StRxVerdict::Accepted;
}

void
StConnection::SendBlock(uint64_t now, SendXfer& x, uint64_t block, const StHeader& cts)
{
    uint64_t start = block << x.blocksize;
    const uint64_t blen = std::min<uint64_t>(1ULL << x.blocksize, x.len - start);
    const uint64_t nBlocks = BlockCount(x.len, static_cast<uint8_t>(x.blocksize));
    if (x.ring != 0)
    {
        // Unlimited: the blocks cycle over the whole blocks of the source memory.
        const uint64_t ring = (x.ring >> x.blocksize) << x.blocksize;
        start = ring == 0 ? ST_TLEN_UNLIMITED : start % ring;
    }
    const StMemRef src = start == ST_TLEN_UNLIMITED
                             ? StMemRef()
                             : m_memory.Lookup(x.src + start, blen, StMemoryTable::PIN_TX);
    if (!src)
    {
        End(now, x.id); // the source memory went away (or holds no whole block): abort
        return;
    }
    x.moved += blen;
    if (x.sent.count(block) != 0)
    {
        m_ctx.counters->Add(StStat::Retransmissions);
    }
    const bool lastBlock = (block + 1 == nBlocks);
    StHeader tmpl = Make(StOp::Data);
    tmpl.flags |= x.vc;
    tmpl.mx = cts.mx;
    tmpl.bNum = static_cast<uint32_t>(block);
    tmpl.dId = x.peerId;
    tmpl.sId = x.opaque;
    uint64_t remote = (static_cast<uint64_t>(cts.bufx) << m_peerBufsize) + cts.offset;
    uint16_t lastFlags = 0;
    if (lastBlock && x.sendState)
    {
        lastFlags |= StFlag::SEND_STATE;
    }
    if (!lastBlock && m_cfg.silentData)
    {
        lastFlags |= StFlag::SILENT;
    }
    SendTiled(now, tmpl, remote, src.ptr, blen, true, lastFlags, m_cfg.silentData);
}

void
StConnection::CompleteSend(uint64_t /* now */, uint32_t id)
{
    auto it = m_sends.find(id);
    if (it == m_sends.end())
    {
        return;
    }
    StEvent e;
    e.type = StEventType::TransferComplete;
    e.id = id;
    e.role = StRole::Source;
    e.bytes = it->second.len;
    e.address = it->second.src;
    m_sends.erase(it);
    PushEvent(e);
}

uint32_t
StConnection::BSeqField(const RecvXfer& x) const
{
    return x.bSeq == 0 ? ST_NONE32 : static_cast<uint32_t>(x.bSeq - 1);
}

StRxVerdict
StConnection::OnRa(uint64_t /* now */, const StHeader& h)
{
    const bool reject = h.Has(StFlag::REJECT);
    StEvent e;
    e.type = reject ? StEventType::TransferRejected : StEventType::TransferPaused;
    e.id = h.dId;
    if (auto it = m_sends.find(h.dId); it != m_sends.end() && it->second.blocksize < 0)
    {
        e.role = StRole::Source;
        if (reject)
        {
            m_sends.erase(it);
        }
        else
        {
            it->second.rts.active = false; // wait for the CTS
            it->second.paused = true;
        }
    }
    else if (auto it2 = m_recvs.find(h.dId);
             it2 != m_recvs.end() && it2->second.isRead && !it2->second.started)
    {
        e.role = StRole::Destination;
        if (reject)
        {
            m_recvs.erase(it2);
        }
        else
        {
            it2->second.rtr.active = false; // wait for the RTS
        }
    }
    else if (auto it3 = m_remote.find(h.dId); it3 != m_remote.end() && !it3->second.ready)
    {
        if (reject)
        {
            m_remote.erase(it3);
        }
        else
        {
            it3->second.rmr.active = false;
        }
    }
    else if (auto it4 = m_gets.find(h.dId); it4 != m_gets.end())
    {
        e.role = StRole::Destination;
        m_gets.erase(it4); // a GET/FETCHOP cannot be paused: any RA ends it
        e.type = StEventType::TransferRejected;
    }
    else
    {
        return StRxVerdict::UnknownTransfer;
    }
    PushEvent(e);
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnData(uint64_t now, const StHeader& h, const uint8_t* data, std::size_t len)
{
    const uint64_t dataLen = len - ST_HEADER_SIZE;
    const uint8_t* payload = data + ST_HEADER_SIZE;
    const uint64_t lin = m_memory.Linear(h.bufx, h.offset);
    StRxVerdict why = StRxVerdict::Accepted;

    StMemRef dst;
    auto place = [&]() {
        dst = m_memory.LookupIncoming(h.mx, h.bufx, h.offset, dataLen, why);
        return static_cast<bool>(dst) || dataLen == 0;
    };
    // Into memory: copied; into memory without bytes: kept nowhere, and checked to be what
    // such memory sends (zeros) when the mapping asks for it.
    auto store = [&]() {
        if (dataLen == 0)
        {
            return;
        }
        if (dst.ptr != nullptr)
        {
            std::memcpy(dst.ptr, payload, dataLen);
        }
        else if ((dst.mapping->flags & StMemoryTable::CHECK) != 0)
        {
            const uint64_t zeros = static_cast<uint64_t>(std::count(payload, payload + dataLen, 0));
            if (zeros != dataLen)
            {
                m_ctx.counters->Add(StStat::PatternErrors, dataLen - zeros);
            }
        }
        m_ctx.counters->Add(StStat::RxDataBytes, dataLen);
    };

    if (m_params.bypass)
    {
        if (!place())
        {
            return why;
        }
        store();
        if (h.Has(StFlag::SEND_STATE))
        {
            SendRsr(now, h, ST_NONE32, ST_NONE32, h.sId, h.dId);
        }
        return StRxVerdict::Accepted;
    }

    if (auto it = m_recvs.find(h.dId); it != m_recvs.end())
    {
        RecvXfer& x = it->second;
        if (!x.started)
        {
            return StRxVerdict::OutsideExposure;
        }
        // Unlimited: the memory holds whole blocks, block b at b modulo their number.
        const uint64_t extent = x.ring != 0 ? (x.ring >> x.blocksize) << x.blocksize : x.len;
        if (lin < x.dst || lin - x.dst >= extent || dataLen > extent - (lin - x.dst))
        {
            return StRxVerdict::OutsideExposure;
        }
        uint64_t off = lin - x.dst;
        if (x.ring != 0)
        {
            if ((off >> x.blocksize) != h.bNum % (extent >> x.blocksize))
            {
                return StRxVerdict::OutsideExposure;
            }
            off = (static_cast<uint64_t>(h.bNum) << x.blocksize) +
                  (off & ((1ULL << x.blocksize) - 1));
        }
        const uint64_t b = off >> x.blocksize;
        const uint64_t bStart = b << x.blocksize;
        const uint64_t bLen = std::min<uint64_t>(1ULL << x.blocksize, x.len - bStart);
        if (off + dataLen > bStart + bLen)
        {
            return StRxVerdict::OutsideExposure;
        }
        if (b < x.bSeq || x.done.count(b) != 0)
        {
            return StRxVerdict::Duplicate;
        }
        // Without O in our RC/CA we take blocks in order only [C] SEED-GSN: a STU of a later
        // block while block B_seq is incomplete is refused (the CTS timer asks again).
        if (!m_params.outOfOrder && b != x.bSeq)
        {
            return StRxVerdict::OutOfOrder;
        }
        auto bi = x.granted.find(b);
        if (bi == x.granted.end())
        {
            return StRxVerdict::OutsideExposure; // no CTS for this block
        }
        if (!place())
        {
            return why;
        }
        store();
        x.moved += dataLen;
        bi->second.cov.Add(off - bStart, off - bStart + dataLen);
        if (bi->second.cov.covered >= bLen)
        {
            x.granted.erase(bi);
            x.done.insert(b);
            ++x.doneBlocks;
            while (x.done.count(x.bSeq) != 0)
            {
                x.done.erase(x.bSeq);
                ++x.bSeq;
            }
            if (x.doneBlocks == x.nBlocks)
            {
                StEvent e;
                e.type = StEventType::TransferComplete;
                e.id = x.id;
                e.role = StRole::Destination;
                e.bytes = x.len;
                e.address = x.dst;
                PushEvent(e);
            }
            else
            {
                GrantBlocks(now, x);
            }
        }
        if (h.Has(StFlag::SEND_STATE))
        {
            SendRsr(now, h, BSeqField(x), ST_NONE32, x.peerId, x.id);
        }
        if (x.doneBlocks == x.nBlocks)
        {
            // Keep the finished transfer a while to answer duplicates and RS kind 2.
            uint32_t oldest = 0;
            std::size_t finished = 0;
            for (const auto& [id, r] : m_recvs)
            {
                if (r.started && r.doneBlocks == r.nBlocks)
                {
                    if (finished++ == 0)
                    {
                        oldest = id;
                    }
                }
            }
            if (finished > ST_DONE_MEMORY)
            {
                m_recvs.erase(oldest);
            }
        }
        return StRxVerdict::Accepted;
    }

    if (auto it = m_gets.find(h.dId); it != m_gets.end())
    {
        GetOp& g = it->second;
        if (lin < g.dst || lin - g.dst >= g.len || dataLen > g.len - (lin - g.dst))
        {
            return StRxVerdict::OutsideExposure;
        }
        if (!place())
        {
            return why;
        }
        store();
        g.cov.Add(lin - g.dst, lin - g.dst + dataLen);
        if (g.cov.covered < g.len)
        {
            return StRxVerdict::Accepted;
        }
        StEvent e;
        e.id = g.id;
        e.bytes = g.len;
        e.address = g.dst;
        e.role = StRole::Destination;
        if (g.op != StFetchOp::None)
        {
            // The old value is in: confirm with FC so the responder applies the op [C] SEED-GSN.
            StHeader fc = g.get.h;
            fc.SetFetchOp(StFetchOp::Complete);
            Send(now, fc);
            m_fetchGot.push_back(g.id);
            m_fetchFc[g.id] = fc;
            if (m_fetchGot.size() > m_cfg.rxFetchOpMemory)
            {
                m_fetchFc.erase(m_fetchGot.front());
                m_fetchGot.pop_front();
            }
            e.type = StEventType::FetchOpComplete;
            e.value = dst.ptr != nullptr ? GetBe64(dst.ptr) : 0;
        }
        else
        {
            e.type = StEventType::GetComplete;
        }
        m_gets.erase(it);
        PushEvent(e);
        return StRxVerdict::Accepted;
    }

    if (auto fc = m_fetchFc.find(h.dId); fc != m_fetchFc.end())
    {
        StHeader again = fc->second; // the responder resent the DATA: our FC was lost
        Send(now, again);
        return StRxVerdict::Duplicate;
    }

    if (auto it = m_regions.find(h.dId); it != m_regions.end())
    {
        const Region& r = it->second;
        if (lin < r.linear || lin - r.linear >= r.len || dataLen > r.len - (lin - r.linear))
        {
            return StRxVerdict::OutsideExposure;
        }
        if (!place())
        {
            return why;
        }
        store();
        if (h.Has(StFlag::SEND_STATE))
        {
            SendRsr(now, h, ST_NONE32, ST_NONE32, h.sId, r.id);
        }
        return StRxVerdict::Accepted;
    }
    return StRxVerdict::UnknownTransfer;
}

StRxVerdict
StConnection::OnRmr(uint64_t now, const StHeader& h)
{
    if (h.sId == 0 || h.GetTLen() == 0)
    {
        return StRxVerdict::BadField;
    }
    for (const auto& [id, r] : m_regions)
    {
        if (r.peerId == h.sId)
        {
            StHeader mra = Make(StOp::Mra);
            mra.mx = r.mx;
            mra.bufx = static_cast<uint32_t>(r.linear >> m_memory.GetBufsize());
            mra.offset = static_cast<uint32_t>(r.linear & ((1ULL << m_memory.GetBufsize()) - 1));
            mra.dId = r.peerId;
            mra.sId = r.id;
            Send(now, mra);
            return StRxVerdict::Duplicate;
        }
    }
    if (m_postedRegion.empty() || m_postedRegion.front().len < h.GetTLen())
    {
        Reject(now, h, h.sId, false);
        return StRxVerdict::Accepted;
    }
    Posted p = m_postedRegion.front();
    m_postedRegion.pop_front();
    Region r;
    r.id = NewId();
    r.peerId = h.sId;
    r.linear = p.linear;
    r.len = h.GetTLen();
    r.mx = p.mx;
    m_regions[r.id] = r;
    StHeader mra = Make(StOp::Mra);
    mra.mx = r.mx;
    mra.bufx = static_cast<uint32_t>(r.linear >> m_memory.GetBufsize());
    mra.offset = static_cast<uint32_t>(r.linear & ((1ULL << m_memory.GetBufsize()) - 1));
    mra.dId = r.peerId;
    mra.sId = r.id;
    Send(now, mra);
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnMra(uint64_t /* now */, const StHeader& h)
{
    auto it = m_remote.find(h.dId);
    if (it == m_remote.end())
    {
        return StRxVerdict::UnknownTransfer;
    }
    RemoteRegion& r = it->second;
    if (r.ready)
    {
        return StRxVerdict::Duplicate;
    }
    if (h.sId == 0)
    {
        return StRxVerdict::BadField;
    }
    r.peerId = h.sId;
    r.mx = h.mx;
    r.linear = (static_cast<uint64_t>(h.bufx) << m_peerBufsize) + h.offset;
    r.ready = true;
    r.rmr.active = false;
    StEvent e;
    e.type = StEventType::RegionAvailable;
    e.id = r.id;
    e.bytes = r.len;
    PushEvent(e);
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnGet(uint64_t now, const StHeader& h)
{
    switch (h.GetFetchOp())
    {
    case StFetchOp::Complete:
        return OnFc(now, h);
    case StFetchOp::Increment:
    case StFetchOp::Decrement:
    case StFetchOp::Clear:
        return OnFetchOp(now, h);
    default:
        break;
    }
    if (h.sId == 0 || h.param == 0)
    {
        return StRxVerdict::BadField;
    }
    auto it = m_regions.find(h.dId);
    if (it == m_regions.end())
    {
        Reject(now, h, h.sId, false);
        return StRxVerdict::UnknownTransfer;
    }
    const Region& r = it->second;
    const uint64_t lin = m_memory.Linear(h.bufx, h.offset);
    if (lin < r.linear || lin - r.linear >= r.len || h.param > r.len - (lin - r.linear))
    {
        Reject(now, h, h.sId, false);
        return StRxVerdict::OutsideExposure;
    }
    const StMemRef src = m_memory.Lookup(lin, h.param, StMemoryTable::PIN_TX);
    if (!src)
    {
        Reject(now, h, h.sId, false);
        return StRxVerdict::OutsideMapping;
    }
    StHeader tmpl = Make(StOp::Data);
    tmpl.flags |= m_params.dataVc;
    tmpl.mx = h.mx;   // I_Mx
    tmpl.dId = h.sId; // G_id
    tmpl.sId = r.id;
    uint64_t dest = (static_cast<uint64_t>(h.sync) << m_peerBufsize) + h.bNum; // I_Bufx, I_Offset
    SendTiled(now, tmpl, dest, src.ptr, h.param, true, 0, m_cfg.silentData);
    return StRxVerdict::Accepted;
}

bool
StConnection::SeenFetch(uint32_t gid) const
{
    return std::find(m_fetchDone.begin(), m_fetchDone.end(), gid) != m_fetchDone.end();
}

StRxVerdict
StConnection::OnFetchOp(uint64_t now, const StHeader& h)
{
    const uint32_t gid = h.sId;
    if (gid == 0)
    {
        return StRxVerdict::BadField;
    }
    if (auto it = m_fetches.find(gid); it != m_fetches.end())
    {
        if (it->second.sent)
        {
            StHeader again = it->second.data;
            Send(now, again, it->second.old.data(), 8);
        }
        return StRxVerdict::Duplicate;
    }
    if (SeenFetch(gid))
    {
        return StRxVerdict::Duplicate; // already applied once: never twice
    }
    auto rit = m_regions.find(h.dId);
    if (rit == m_regions.end())
    {
        Reject(now, h, gid, false);
        return StRxVerdict::UnknownTransfer;
    }
    const Region& r = rit->second;
    const uint64_t lin = m_memory.Linear(h.bufx, h.offset);
    if (lin < r.linear || lin - r.linear >= r.len || 8 > r.len - (lin - r.linear))
    {
        Reject(now, h, gid, false);
        return StRxVerdict::OutsideExposure;
    }
    if (m_memory.Resolve(lin, 8, StMemoryTable::PIN_RX) == nullptr)
    {
        Reject(now, h, gid, false);
        return StRxVerdict::OutsideMapping;
    }
    PendingFetch pf;
    pf.req = h;
    pf.linear = lin;
    bool busy = false;
    for (const auto& [id, other] : m_fetches)
    {
        busy = busy || (other.linear == lin && other.sent);
    }
    auto& ref = m_fetches[gid] = pf;
    if (!busy)
    {
        ServeFetch(now, ref); // otherwise it waits for the FC of the earlier one: atomic
    }
    return StRxVerdict::Accepted;
}

void
StConnection::ServeFetch(uint64_t now, PendingFetch& pf)
{
    const uint8_t* word = m_memory.Resolve(pf.linear, 8, StMemoryTable::PIN_RX);
    if (word == nullptr)
    {
        return;
    }
    std::memcpy(pf.old.data(), word, 8);
    StHeader d = Make(StOp::Data);
    d.flags |= m_params.dataVc | StFlag::LAST;
    d.mx = pf.req.mx;
    uint64_t dest = (static_cast<uint64_t>(pf.req.sync) << m_peerBufsize) + pf.req.bNum;
    uint64_t mask = (1ULL << m_peerBufsize) - 1;
    d.bufx = static_cast<uint32_t>(dest >> m_peerBufsize);
    d.offset = static_cast<uint32_t>(dest & mask);
    d.dId = pf.req.sId; // G_id
    d.sId = pf.req.dId;
    pf.data = d;
    pf.sent = true;
    pf.deadline = now + m_cfg.fetchOpTimeoutNs;
    pf.resends = 0;
    Send(now, d, pf.old.data(), 8);
}

void
StConnection::StartNextFetch(uint64_t now, uint64_t linear)
{
    for (auto& [id, pf] : m_fetches)
    {
        if (!pf.sent && pf.linear == linear)
        {
            ServeFetch(now, pf);
            return;
        }
    }
}

StRxVerdict
StConnection::OnFc(uint64_t now, const StHeader& h)
{
    const uint32_t gid = h.sId;
    auto it = m_fetches.find(gid);
    if (it == m_fetches.end())
    {
        return SeenFetch(gid) ? StRxVerdict::Duplicate : StRxVerdict::UnknownTransfer;
    }
    if (!it->second.sent)
    {
        return StRxVerdict::WrongState;
    }
    // Now, and only now, the op is applied to our copy [C] SEED-GSN. The word is big-endian.
    uint64_t lin = it->second.linear;
    uint8_t* word = m_memory.Resolve(lin, 8, StMemoryTable::PIN_RX);
    StFetchOp op = it->second.req.GetFetchOp();
    m_fetches.erase(it);
    if (word == nullptr)
    {
        return StRxVerdict::OutsideMapping;
    }
    uint64_t v = GetBe64(word);
    switch (op)
    {
    case StFetchOp::Increment:
        ++v;
        break;
    case StFetchOp::Decrement:
        --v;
        break;
    default:
        v = 0;
        break;
    }
    PutBe64(word, v);
    m_fetchDone.push_back(gid);
    if (m_fetchDone.size() > m_cfg.rxFetchOpMemory)
    {
        m_fetchDone.pop_front();
    }
    StartNextFetch(now, lin);
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnEnd(uint64_t now, const StHeader& h)
{
    uint32_t local = 0;
    StRole role = StRole::None;
    bool transfer = false;
    bool unlimited = false; // an unlimited transfer ends with END: complete, not aborted
    uint64_t moved = 0;
    auto byLocal = [&](uint32_t id) {
        if (auto it = m_sends.find(id); it != m_sends.end())
        {
            role = StRole::Source;
            transfer = true;
            unlimited = it->second.ring != 0;
            moved = it->second.moved;
            m_sends.erase(it);
            return true;
        }
        if (auto it = m_recvs.find(id); it != m_recvs.end())
        {
            role = StRole::Destination;
            transfer = it->second.doneBlocks < it->second.nBlocks || !it->second.started;
            unlimited = it->second.ring != 0;
            moved = it->second.moved;
            m_recvs.erase(it);
            return true;
        }
        if (auto it = m_regions.find(id); it != m_regions.end())
        {
            for (auto f = m_fetches.begin(); f != m_fetches.end();)
            {
                f = f->second.req.dId == id ? m_fetches.erase(f) : std::next(f);
            }
            m_regions.erase(it);
            return true;
        }
        if (auto it = m_remote.find(id); it != m_remote.end())
        {
            m_remote.erase(it);
            transfer = true;
            return true;
        }
        return false;
    };
    if (h.dId != 0 && byLocal(h.dId))
    {
        local = h.dId;
    }
    else
    {
        // The peer may not know our id yet (END right after its RTS): match its own id.
        for (const auto& [id, x] : m_recvs)
        {
            if (x.peerId == h.sId && !x.isRead)
            {
                local = id;
                break;
            }
        }
        if (local != 0)
        {
            byLocal(local);
        }
        else
        {
            for (auto w = m_waitingRts.begin(); w != m_waitingRts.end(); ++w)
            {
                if (w->sId == h.sId)
                {
                    m_waitingRts.erase(w);
                    break;
                }
            }
        }
    }
    if (transfer)
    {
        StEvent e;
        e.type = unlimited ? StEventType::TransferComplete : StEventType::TransferAborted;
        e.id = local;
        e.role = role;
        e.reason = StReason::Peer;
        e.bytes = moved;
        PushEvent(e);
    }
    StHeader ea = Make(StOp::Ea);
    ea.dId = h.sId;
    ea.sId = local;
    Send(now, ea);
    return local != 0 ? StRxVerdict::Accepted : StRxVerdict::UnknownTransfer;
}

StRxVerdict
StConnection::OnEa(uint64_t /* now */, const StHeader& h)
{
    auto it = m_ends.find(h.dId);
    if (it == m_ends.end())
    {
        return StRxVerdict::Duplicate;
    }
    m_ends.erase(it);
    StEvent e;
    e.type = StEventType::EndComplete;
    e.id = h.dId;
    PushEvent(e);
    return StRxVerdict::Accepted;
}

void
StConnection::SendRsr(uint64_t now,
                      const StHeader& rs,
                      uint32_t bSeq,
                      uint32_t bNum,
                      uint32_t dId,
                      uint32_t sId)
{
    StHeader rsr = Make(StOp::Rsr);
    uint32_t freed = 0;
    if (m_params.slots != ST_SLOTS_UNLIMITED)
    {
        freed = std::min<uint32_t>(m_rxFreed, 0xFFFE);
        m_rxFreed -= freed;
        m_rxOutstanding -= std::min(m_rxOutstanding, freed);
    }
    rsr.param = static_cast<uint16_t>(freed); // R_Slots: freed since the last RSR [C] IRIX
    rsr.offset = bSeq;                        // B_seq
    rsr.sync = rs.sync;                       // Sync echoed
    rsr.bNum = bNum;
    rsr.dId = dId;
    rsr.sId = sId;
    if (rs.op == StOp::Rs)
    {
        m_rsrSent[rs.sync] = rsr;
        if (m_rsrSent.size() > ST_DONE_MEMORY)
        {
            m_rsrSent.erase(m_rsrSent.begin());
        }
    }
    Send(now, rsr);
}

StRxVerdict
StConnection::OnRs(uint64_t now, const StHeader& h)
{
    if (auto it = m_rsrSent.find(h.sync); it != m_rsrSent.end())
    {
        // The same answer, slots included: if the first one arrived, the peer counted them
        // and takes this one as a duplicate (by Sync); if it was lost, they count now.
        Send(now, it->second);
        return StRxVerdict::Duplicate;
    }
    if (h.dId == ST_NONE32)
    {
        SendRsr(now, h, ST_NONE32, 0, ST_NONE32, 0); // kind 1: slots only
        return StRxVerdict::Accepted;
    }
    uint32_t bSeq = ST_NONE32;
    uint32_t bNum = ST_NONE32;
    if (auto it = m_recvs.find(h.dId); it != m_recvs.end())
    {
        const RecvXfer& x = it->second;
        bSeq = BSeqField(x);
        if (h.bNum != ST_NONE32)
        {
            bool arrived = h.bNum < x.bSeq || x.done.count(h.bNum) != 0;
            bNum = arrived ? h.bNum : ST_NONE32; // kind 3: echo if it arrived [C] IRIX
        }
    }
    else if (m_sends.find(h.dId) == m_sends.end())
    {
        SendRsr(now, h, ST_NONE32, ST_NONE32, h.sId, h.dId);
        return StRxVerdict::UnknownTransfer;
    }
    SendRsr(now, h, bSeq, bNum, h.sId, h.dId);
    return StRxVerdict::Accepted;
}

StRxVerdict
StConnection::OnRsr(uint64_t now, const StHeader& h)
{
    if (m_rsrAwaited.erase(h.sync) == 0)
    {
        return StRxVerdict::Duplicate; // never count the same slots twice
    }
    if (!m_txSlotsUnlimited)
    {
        m_txSlots = std::min<uint32_t>(m_txSlots + h.param, 0xFFFE);
    }
    bool user = m_userRs.erase(h.sync) != 0;
    if (auto it = m_rs.find(h.sync); it != m_rs.end())
    {
        if (it->second.h.dId == ST_NONE32 && !user)
        {
            m_slotRsOut = false;
        }
        m_rs.erase(it);
    }
    if (user)
    {
        StEvent e;
        e.type = StEventType::StateResponse;
        e.header = h;
        PushEvent(e);
    }
    if (h.dId != ST_NONE32)
    {
        auto it = m_sends.find(h.dId);
        if (it != m_sends.end() && it->second.allSent && it->second.blocksize >= 0)
        {
            uint64_t n = BlockCount(it->second.len, static_cast<uint8_t>(it->second.blocksize));
            if (h.offset != ST_NONE32 && h.offset + 1ULL == n)
            {
                CompleteSend(now, h.dId);
            }
        }
    }
    DrainBlocked(now);
    return StRxVerdict::Accepted;
}

// ---------------------------------------------------------------------------------------
// Timers
// ---------------------------------------------------------------------------------------

uint64_t
StConnection::NextDeadline() const
{
    uint64_t t = ST_NEVER;
    auto consider = [&t](const Retry& r) {
        if (r.active)
        {
            t = std::min(t, r.deadline);
        }
    };
    if (m_state == StConnState::Closed)
    {
        return m_lingerUntil;
    }
    consider(m_rc);
    consider(m_rd);
    consider(m_da);
    for (const auto& [id, x] : m_sends)
    {
        consider(x.rts);
        consider(x.fin);
    }
    for (const auto& [id, x] : m_recvs)
    {
        consider(x.rtr);
        for (const auto& [b, blk] : x.granted)
        {
            consider(blk.cts);
        }
    }
    for (const auto& [id, r] : m_remote)
    {
        consider(r.rmr);
    }
    for (const auto& [id, g] : m_gets)
    {
        consider(g.get);
    }
    for (const auto& [id, r] : m_ends)
    {
        consider(r);
    }
    for (const auto& [id, r] : m_rs)
    {
        consider(r);
    }
    for (const auto& [id, pf] : m_fetches)
    {
        if (pf.sent)
        {
            t = std::min(t, pf.deadline);
        }
    }
    if (!m_blocked.empty())
    {
        t = std::min(t, m_slotPollAt);
        if (m_starvedSince != ST_NEVER)
        {
            t = std::min(t, m_starvedSince + m_cfg.slotWaitTimeoutNs);
        }
    }
    return t;
}

void
StConnection::TimeoutRetry(uint64_t now, Retry& r, bool& teardown)
{
    if (!r.active || now < r.deadline)
    {
        return;
    }
    if (r.retries >= m_cfg.maxRetries)
    {
        r.active = false;
        teardown = true;
        return;
    }
    ++r.retries;
    r.deadline = now + m_cfg.opTimeoutNs;
    m_ctx.counters->Add(StStat::Retransmissions);
    StHeader again = r.h;
    if (again.op == StOp::Rs)
    {
        // Same Sync: the answer to any copy is the answer [U] duplicate rule (op + id + Sync).
        uint16_t saved = m_sync;
        m_sync = static_cast<uint16_t>(again.sync - 1);
        Emit(now, again, nullptr, 0);
        m_sync = saved;
    }
    else
    {
        Send(now, again);
    }
}

void
StConnection::HandleTimeout(uint64_t now)
{
    if (m_state == StConnState::Closed)
    {
        return;
    }
    bool teardown = false;
    StEvent closed;
    closed.type = StEventType::ConnectionClosed;
    closed.reason = StReason::Timeout;

    if (m_state == StConnState::RcSent)
    {
        TimeoutRetry(now, m_rc, teardown);
        if (teardown)
        {
            m_ctx.counters->Add(StStat::Timeouts);
            SetClosed(now);
            PushEvent(closed);
        }
        return;
    }
    if (m_state == StConnState::RdSent || m_state == StConnState::DaSent)
    {
        TimeoutRetry(now, m_rd, teardown);
        TimeoutRetry(now, m_da, teardown);
        if (teardown)
        {
            m_ctx.counters->Add(StStat::Timeouts);
            SetClosed(now);
            PushEvent(closed);
        }
        return;
    }

    for (auto& [id, x] : m_sends)
    {
        TimeoutRetry(now, x.rts, teardown);
        if (x.fin.active && now >= x.fin.deadline)
        {
            if (x.fin.retries >= m_cfg.maxRetries)
            {
                teardown = true;
                x.fin.active = false;
            }
            else
            {
                // The final RSR did not come: ask for the transfer state (RS kind 2).
                ++x.fin.retries;
                x.fin.deadline = now + m_cfg.opTimeoutNs;
                m_ctx.counters->Add(StStat::Retransmissions);
                StHeader rs = x.fin.h;
                Emit(now, rs, nullptr, 0);
            }
        }
    }
    for (auto& [id, x] : m_recvs)
    {
        TimeoutRetry(now, x.rtr, teardown);
        for (auto& [b, blk] : x.granted)
        {
            TimeoutRetry(now, blk.cts, teardown); // the block did not complete: CTS again
        }
    }
    for (auto& [id, r] : m_remote)
    {
        TimeoutRetry(now, r.rmr, teardown);
    }
    for (auto& [id, g] : m_gets)
    {
        TimeoutRetry(now, g.get, teardown);
    }
    for (auto& [id, r] : m_ends)
    {
        TimeoutRetry(now, r, teardown);
    }
    std::vector<uint32_t> rsKeys;
    for (auto& [sync, r] : m_rs)
    {
        rsKeys.push_back(sync);
    }
    for (uint32_t k : rsKeys)
    {
        auto it = m_rs.find(k);
        if (it != m_rs.end())
        {
            TimeoutRetry(now, it->second, teardown);
        }
    }
    std::vector<uint64_t> freed;
    for (auto it = m_fetches.begin(); it != m_fetches.end();)
    {
        PendingFetch& pf = it->second;
        if (pf.sent && now >= pf.deadline)
        {
            if (pf.resends >= m_cfg.fetchOpMaxResends)
            {
                m_ctx.counters->Add(StStat::Timeouts);
                freed.push_back(pf.linear);
                it = m_fetches.erase(it);
                continue;
            }
            // No FC in time: send the DATA again; the op is still not applied [C] SEED-GSN.
            ++pf.resends;
            pf.deadline = now + m_cfg.fetchOpTimeoutNs;
            m_ctx.counters->Add(StStat::FetchOpResends);
            StHeader again = pf.data;
            Send(now, again, pf.old.data(), 8);
        }
        ++it;
    }
    for (uint64_t lin : freed)
    {
        StartNextFetch(now, lin);
    }
    if (!m_blocked.empty())
    {
        if (now >= m_starvedSince + m_cfg.slotWaitTimeoutNs)
        {
            teardown = true; // IRIX tears down after 20 s without slots [C]
        }
        else if (now >= m_slotPollAt)
        {
            m_slotPollAt = now + m_cfg.slotPollNs;
            AskSlots(now);
        }
    }
    if (teardown)
    {
        m_ctx.counters->Add(StStat::Timeouts);
        Teardown(now, StReason::Timeout, true);
    }
}

} // namespace st
} // namespace ns3
