/*
 * st-connection.cc: one ST virtual connection (see st-connection.h): construction, its
 * parameters, what every part uses to build operations and events, inspection, and the
 * input dispatcher (Receive: slots charged on the receiving side, the operation handed to
 * its part, the header handed to the upper layer).
 *
 * StConnection is written in several files, one per part of the protocol:
 *  - st-connection.cc: the above;
 *  - st-connection-send.cc: every operation out (Send, Emit), the sending side's slots and
 *    the operations waiting for them, STU limits and tiling;
 *  - st-connection-state.cc: RS/RSR: slots returned, a transfer's or a block's state;
 *  - st-connection-setup.cc: set-up and teardown (RC/CA, RD/DA/DC, close, abort);
 *  - st-connection-calls.cc: the upper layer's calls: memory posted, writes, reads,
 *    regions asked for, PUT/GET/FETCHOP, headers it builds (st_tx);
 *  - st-connection-source.cc: single-use transfers at the data source (RTR answered, CTS
 *    taken, blocks sent);
 *  - st-connection-destination.cc: single-use transfers at the destination (RTS answered,
 *    blocks granted), and every DATA received;
 *  - st-connection-regions.cc: persistent regions served (RMR/MRA, GET, FETCHOP/FC);
 *  - st-connection-end.cc: requests refused or paused (RA) and data movements ended
 *    (END/EA), both ways;
 *  - st-connection-timers.cc: the next deadline, retries and timeouts;
 *  - st-connection-private.h: the helpers several of them use.
 *
 * Field use per operation follows st-protocol-reference.rst, "Field use per operation";
 * choices the sources leave open are marked [I] (inferred) or [U] (proposed) where they
 * are made.
 */
#include "st-connection-private.h"

#include <cstring>

namespace ns3
{
namespace st
{

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

bool
StConnection::IsRegionReady(uint32_t id) const
{
    auto it = m_remote.find(id);
    return it != m_remote.end() && it->second.ready;
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

} // namespace st
} // namespace ns3
