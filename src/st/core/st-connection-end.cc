/*
 * st-connection-end.cc: how a data movement stops before it completes, both ways: a
 * request refused or paused (RA sent by the responder, taken by the initiator), and a
 * transfer or region ended by either side (END, answered by EA).
 * (StConnection is written in several files, one per part of the protocol; see
 * st-connection.cc for the list.)
 */
#include "st-connection-private.h"

namespace ns3
{
namespace st
{

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

} // namespace st
} // namespace ns3
