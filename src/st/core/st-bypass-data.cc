/*
 * st-bypass-data.cc: data movement through the Bypass API: memory mapped (registered with
 * the connection's memory table) and unmapped, headers sent with their payload (st_tx) and
 * received (st_rx, blocking with a timeout, and its ready tests), st_flush and its ready
 * test.
 * (The Bypass API is written in several files, one per part; see st-bypass.cc for the list.)
 */
#include "st-bypass-private.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>

using namespace ns3::st;
using namespace ns3::st::bypass;

namespace
{

/// The live memory handle \p m, or nullptr.
MemHandle*
M(st_mhandle_t m)
{
    HandleTable& t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    auto it = t.mems.find(Id(m));
    return it != t.mems.end() ? it->second.get() : nullptr;
}

StHeader
FromC(const st_header_t& c)
{
    StHeader h;
    h.op = static_cast<StOp>(c.opflags >> 11);
    h.flags = c.opflags & StFlag::MASK;
    h.param = c.param;
    h.dPort = c.d_port;
    h.sPort = c.s_port;
    h.dKey = c.d_key;
    h.checksum = c.checksum;
    h.mx = c.mx;
    h.bufx = c.bufx;
    h.offset = c.offset;
    h.sync = c.sync;
    h.bNum = c.b_num;
    h.dId = c.d_id;
    h.sId = c.s_id;
    return h;
}

void
ToC(const StHeader& h, st_header_t& c)
{
    c.opflags = static_cast<uint16_t>((static_cast<uint16_t>(h.op) << 11) | h.flags);
    c.param = h.param;
    c.d_port = h.dPort;
    c.s_port = h.sPort;
    c.d_key = h.dKey;
    c.checksum = h.checksum;
    c.mx = h.mx;
    c.bufx = h.bufx;
    c.offset = h.offset;
    c.sync = h.sync;
    c.b_num = h.bNum;
    c.d_id = h.dId;
    c.s_id = h.sId;
}

} // namespace

extern "C"
{
    int st_map(st_chandle_t chandle,
               int flags,
               void* ptr,
               size_t len,
               int bufx_base,
               int bufx_count,
               st_mhandle_t* mhandle,
               int* mx)
    {
        Handle* h = H(chandle);
        if (h == nullptr || mhandle == nullptr || bufx_base < 0)
        {
            return ST_EINVAL;
        }
        StConnection* c = h->Conn();
        if (c == nullptr)
        {
            return ST_ENOTCONN;
        }
        uint64_t l = (len == static_cast<size_t>(-1)) ? UINT64_MAX : static_cast<uint64_t>(len);
        uint32_t id = 0;
        uint16_t m = 0;
        StStatus s = c->GetMemory().Map(flags,
                                        static_cast<uint8_t*>(ptr),
                                        l,
                                        static_cast<uint32_t>(bufx_base),
                                        bufx_count,
                                        id,
                                        m);
        if (s != StStatus::Ok)
        {
            return ToErrno(s);
        }
        auto mh = std::make_unique<MemHandle>();
        mh->owner = Id(chandle);
        mh->id = id;
        {
            HandleTable& t = Table();
            std::lock_guard<std::mutex> guard(t.lock);
            const uintptr_t key = t.next++;
            t.mems.emplace(key, std::move(mh));
            *mhandle = AsHandle(key);
        }
        if (mx != nullptr)
        {
            *mx = m;
        }
        return ST_OK;
    }

    int st_unmap(st_mhandle_t mhandle)
    {
        MemHandle* mh = M(mhandle);
        if (mh == nullptr)
        {
            return ST_EINVAL;
        }
        Handle* owner = H(AsHandle(mh->owner));
        StConnection* c = owner != nullptr ? owner->Conn() : nullptr;
        int e = c != nullptr ? ToErrno(c->GetMemory().Unmap(mh->id)) : ST_OK;
        HandleTable& t = Table();
        std::lock_guard<std::mutex> guard(t.lock);
        t.mems.erase(Id(mhandle));
        return e;
    }

    int st_tx(st_chandle_t chandle,
              st_header_t* hdr,
              void* opt_pay,
              unsigned int len,
              unsigned int bufx,
              unsigned int off)
    {
        Handle* h = H(chandle);
        if (h == nullptr || hdr == nullptr)
        {
            return ST_EINVAL;
        }
        StConnection* c = h->Conn();
        if (c == nullptr || c->GetState() != StConnState::Connected)
        {
            return ST_ENOTCONN;
        }
        StHeader sh = FromC(*hdr);
        uint64_t linear = c->GetMemory().Linear(bufx, off);
        StStatus s = c->SendRaw(h->stack->GetDriver().Now(),
                                sh,
                                static_cast<const uint8_t*>(opt_pay),
                                sh.op == StOp::Data ? len : 0,
                                linear);
        if (s != StStatus::Ok)
        {
            return ToErrno(s);
        }
        h->stack->Flush(); // handed to the asynchronous agent (the driver)
        return ST_OK;
    }

    int st_rx(st_chandle_t chandle, st_header_t* hdr, void* opt_pay, struct timeval* timeout)
    {
        Handle* h = H(chandle);
        if (h == nullptr || hdr == nullptr)
        {
            return ST_EINVAL;
        }
        if (h->conn == 0)
        {
            return ST_ENOTCONN;
        }
        StDriver& d = h->stack->GetDriver();
        uint64_t deadline = ST_NEVER;
        if (timeout != nullptr)
        {
            deadline = d.Now() + static_cast<uint64_t>(timeout->tv_sec) * 1000000000ULL +
                       static_cast<uint64_t>(timeout->tv_usec) * 1000ULL;
        }
        h->stack->Pump(deadline, [chandle] { return st_rx_ready(chandle) == 1; });
        if (h->rx.empty())
        {
            return h->closed ? ST_ENOTCONN : ST_EWOULDBLOCK;
        }
        StEvent e = h->rx.front();
        h->rx.pop_front();
        ToC(e.header, *hdr);
        h->lastPayload = e.hasPayload;
        if (opt_pay != nullptr)
        {
            if (e.hasPayload)
            {
                std::memcpy(opt_pay, e.payload.data(), ST_OPT_PAYLOAD_SIZE);
            }
            else
            {
                std::memset(opt_pay, 0, ST_OPT_PAYLOAD_SIZE);
            }
        }
        if (e.holdsSlot)
        {
            h->stack->GetEndpoint().ReleaseSlot(e.conn); // the slot is free once consumed
        }
        return ST_OK;
    }

    int st_rx_ready(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr || h->conn == 0)
        {
            return 1; // st_rx returns an error at once
        }
        return !h->rx.empty() || h->closed ? 1 : 0;
    }

    int st_rx_payload(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        return h != nullptr && h->lastPayload ? 1 : 0;
    }

    int st_flush(st_chandle_t chandle, int64_t threshold, int64_t* count)
    {
        Handle* h = H(chandle);
        if (h == nullptr)
        {
            return ST_EINVAL;
        }
        StConnection* c = h->Conn();
        if (c == nullptr)
        {
            return ST_ENOTCONN;
        }
        if (threshold != 0)
        {
            h->stack->Pump(ST_NEVER, [chandle, threshold] {
                return st_flush_ready(chandle, threshold) == 1;
            });
        }
        c = h->Conn();
        if (count != nullptr)
        {
            *count = c != nullptr ? static_cast<int64_t>(c->GetHeadersSent()) : 0;
        }
        return ST_OK;
    }

    int st_flush_ready(st_chandle_t chandle, int64_t threshold)
    {
        Handle* h = H(chandle);
        if (h == nullptr)
        {
            return 1;
        }
        StConnection* c = h->Conn();
        if (threshold == 0 || c == nullptr || c->GetState() != StConnState::Connected)
        {
            return 1;
        }
        if (threshold < 0)
        {
            return c->GetBlockedCount() == 0 ? 1 : 0; // every header handed to the driver
        }
        return c->GetHeadersSent() >= static_cast<uint64_t>(threshold) ? 1 : 0;
    }

} // extern "C"
