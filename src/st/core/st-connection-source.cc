/*
 * st-connection-source.cc: a single-use transfer at its data source (the initiator of a
 * write, the responder of a read): an RTR answered with an RTS, each CTS answered with
 * its block's DATA, the transfer complete when every block is sent (or, with S, when the
 * final RSR confirms it: st-connection-state.cc).
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

} // namespace st
} // namespace ns3
