/*
 * st-connection-timers.cc: the earliest deadline of a connection, and what happens when
 * one passes: requests resent until their retries run out (then the connection is torn
 * down), the final RSR asked for again, FETCHOP answers resent, slots asked for again or
 * the connection torn down after waiting too long for them.
 * (StConnection is written in several files, one per part of the protocol; see
 * st-connection.cc for the list.)
 */
#include "st-connection-private.h"

#include <algorithm>

namespace ns3
{
namespace st
{

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
