/*
 * st-connection-regions.cc: persistent regions: an RMR served with posted memory (MRA),
 * an MRA received (the region usable), GETs served from a region we expose, and FETCHOPs
 * served atomically: the old value sent, the operation applied when its FC comes, one at a
 * time per word.
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

} // namespace st
} // namespace ns3
