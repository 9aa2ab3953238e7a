/*
 * st-connection-state.cc: RS/RSR, both ways: state asked for by the upper layer (slots, a
 * transfer, a block), RSRs sent with the slots freed since the last one (and repeated for
 * a duplicate RS), RSRs received: slots counted once, a send completed by its final RSR.
 * (StConnection is written in several files, one per part of the protocol; see
 * st-connection.cc for the list.)
 */
#include "st-connection-private.h"

#include <algorithm>

namespace ns3
{
namespace st
{

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

} // namespace st
} // namespace ns3
