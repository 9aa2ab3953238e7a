/*
 * st-connection-setup.cc: set-up and teardown of a connection: RC sent and CA received
 * (initiator), RC accepted with a CA (responder), RD/DA/DC both ways (crossing RDs
 * included), Close, and every data movement aborted when the connection goes.
 * (StConnection is written in several files, one per part of the protocol; see
 * st-connection.cc for the list.)
 */
#include "st-connection-private.h"

#include <algorithm>

namespace ns3
{
namespace st
{

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

} // namespace st
} // namespace ns3
