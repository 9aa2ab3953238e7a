/*
 * st-connection-send.cc: every operation a connection sends goes out here: Send holds a
 * slot-using operation while the peer has no slot for it, Emit numbers (Sync), encodes and
 * queues it and counts the slot; the slots-kind RS that asks for more, and the operations
 * released when slots come back; the STU limits and DATA tiled into STUs.
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

} // namespace st
} // namespace ns3
