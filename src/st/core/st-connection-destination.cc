/*
 * st-connection-destination.cc: a single-use transfer at its destination (the responder
 * of a write, the initiator of a read): an RTS bound to posted memory, blocks granted with
 * CTSs up to CTS_req; and every DATA received: straight into memory in bypass mode, into a
 * transfer's blocks (in order unless our RC/CA carried O), as the answer to our GET or
 * FETCHOP (confirmed with FC), or into a region we expose (PUT).
 * (StConnection is written in several files, one per part of the protocol; see
 * st-connection.cc for the list.)
 */
#include "st-connection-private.h"

#include <algorithm>
#include <cstring>

namespace ns3
{
namespace st
{

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

uint32_t
StConnection::BSeqField(const RecvXfer& x) const
{
    return x.bSeq == 0 ? ST_NONE32 : static_cast<uint32_t>(x.bSeq - 1);
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

} // namespace st
} // namespace ns3
