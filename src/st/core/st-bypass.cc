/*
 * st-bypass.cc: the ST Bypass API on the engine (see st-bypass.h): connection handles created
 * and deleted, their options read and set, the stack and the time they run on, the version.
 * The blocking calls are built on StBypassStack::Pump.
 *
 * The Bypass API is written in several files, one per part:
 *  - st-bypass.cc: the above;
 *  - st-bypass-connect.cc: connections set up and taken down (st_listen, st_accept,
 *    st_connect with the peer's name resolved by the driver, st_close);
 *  - st-bypass-data.cc: memory mapped and unmapped, headers sent (st_tx) and received
 *    (st_rx), st_flush;
 *  - st-bypass-private.h: what they all use: the handles, the table of live handles, the
 *    errno of a status, the parameters a handle advertises.
 */
#include "st-bypass-private.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>

using namespace ns3::st;
using namespace ns3::st::bypass;

extern "C"
{
    int st_create_on(void* stack, st_chandle_t* chandle)
    {
        if (chandle == nullptr)
        {
            return ST_EINVAL;
        }
        if (stack == nullptr)
        {
            return ST_ENOMEM;
        }
        auto h = std::make_unique<Handle>();
        h->stack = static_cast<StBypassStack*>(stack);
        h->params = h->stack->GetEndpoint().GetConfig().defaults;
        h->params.bypass = true;
        HandleTable& t = Table();
        std::lock_guard<std::mutex> guard(t.lock);
        const uintptr_t id = t.next++;
        t.conns.emplace(id, std::move(h));
        *chandle = AsHandle(id);
        return ST_OK;
    }

    int st_create(st_chandle_t* chandle)
    {
        if (chandle == nullptr)
        {
            return ST_EINVAL;
        }
        int error = ST_ENOMEM;
        StBypassStack* stack = StBypassStack::OpenDefault(error);
        return stack != nullptr ? st_create_on(stack, chandle) : error;
    }

    int st_delete(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr)
        {
            return ST_EINVAL;
        }
        StConnection* c = h->Conn();
        if (c != nullptr && c->GetState() == StConnState::Connected)
        {
            st_close(chandle); // "silently close that connection" [SEED-API]
        }
        if (h->conn != 0)
        {
            h->stack->Bind(h->conn, nullptr);
        }
        if (h->listening)
        {
            h->stack->GetEndpoint().Unlisten(h->listenPort);
        }
        HandleTable& t = Table();
        std::lock_guard<std::mutex> guard(t.lock);
        for (auto it = t.mems.begin(); it != t.mems.end();)
        {
            // Its registrations go with it (the memory table belonged to its connection).
            it = it->second->owner == Id(chandle) ? t.mems.erase(it) : std::next(it);
        }
        t.conns.erase(Id(chandle));
        return ST_OK;
    }

    int st_getopt(st_chandle_t chandle, int optname, void* optval)
    {
        Handle* h = H(chandle);
        if (h == nullptr || optval == nullptr)
        {
            return ST_EINVAL;
        }
        int& out = *static_cast<int*>(optval);
        StConnection* c = h->Conn();
        auto needConn = [&](int v) {
            if (c == nullptr)
            {
                return ST_ENOTCONN;
            }
            out = v;
            return ST_OK;
        };
        switch (optname)
        {
        case ST_OPT_BYPASS:
            out = h->params.bypass ? 1 : 0;
            return ST_OK;
        case ST_OPT_KEY_LOCAL:
            out = static_cast<int>(c != nullptr ? c->GetLocalKey() : h->params.key);
            return ST_OK;
        case ST_OPT_KEY_REMOTE:
            return needConn(c ? static_cast<int>(c->GetRemoteKey()) : 0);
        case ST_OPT_RX_SLOTS:
            out = h->rxSlots;
            return ST_OK;
        case ST_OPT_RX_WINDOW_LOCAL:
            out = c != nullptr ? c->GetLocalParams().slots : Advertised(h).slots;
            return ST_OK;
        case ST_OPT_RX_WINDOW_REMOTE:
            return needConn(c ? c->GetRemoteSlots() : 0);
        case ST_OPT_PORT_LOCAL:
            out = c != nullptr ? c->GetLocalPort() : (h->listening ? h->listenPort : h->localPort);
            return ST_OK;
        case ST_OPT_PORT_REMOTE:
            return needConn(c ? c->GetRemotePort() : 0);
        case ST_OPT_MAXSTU_LOCAL:
            out = h->params.maxStu;
            return ST_OK;
        case ST_OPT_MAXSTU_REMOTE:
            return needConn(c ? c->GetRemoteMaxStu() : 0);
        case ST_OPT_BUFSIZE_LOCAL:
            out = h->params.bufsize;
            return ST_OK;
        case ST_OPT_BUFSIZE_REMOTE:
            return needConn(c ? c->GetRemoteBufsize() : 0);
        case ST_OPT_IANA_LOCAL:
            out = h->ianaLocal;
            return ST_OK;
        case ST_OPT_IANA_REMOTE:
            out = h->ianaRemote;
            return ST_OK;
        case ST_OPT_PORTLEN_LOCAL:
            out = c != nullptr ? c->GetLocalPortLen() : h->params.portLen;
            return ST_OK;
        case ST_OPT_PORTLEN_REMOTE:
            return needConn(c ? c->GetRemotePortLen() : 0);
        case ST_OPT_THREAD_SAFETY:
            out = 0;
            return ST_OK;
        case ST_OPT_CHANNELS:
            out = h->params.channels;
            return ST_OK;
        case ST_OPT_BUFX_BASE:
            out = static_cast<int>(h->bufxBase);
            return ST_OK;
        case ST_OPT_BUFX_COUNT:
            out = static_cast<int>(h->bufxCount);
            return ST_OK;
        case ST_OPT_CTS_REQ:
            out = h->params.ctsReq;
            return ST_OK;
        case ST_OPT_MAX_BLOCK:
            out = h->params.maxBlock;
            return ST_OK;
        case ST_OPT_DATA_VC:
            out = h->params.dataVc;
            return ST_OK;
        case ST_OPT_ETHERTYPE:
            out = c != nullptr ? c->GetEtherType() : h->params.etherType;
            return ST_OK;
        default:
            return ST_ENOPROTOOPT;
        }
    }

    int st_setopt(st_chandle_t chandle, int optname, void* optval)
    {
        Handle* h = H(chandle);
        if (h == nullptr || optval == nullptr)
        {
            return ST_EINVAL;
        }
        const int v = *static_cast<const int*>(optval);
        const bool before = (h->conn == 0);
        auto beforeOnly = [&](auto apply, bool ok) {
            if (!before)
            {
                return ST_EACCES;
            }
            if (!ok)
            {
                return ST_EINVAL;
            }
            apply();
            return ST_OK;
        };
        switch (optname)
        {
        case ST_OPT_BYPASS:
            return beforeOnly([&] { h->params.bypass = v != 0; }, true);
        case ST_OPT_KEY_LOCAL:
            return beforeOnly([&] { h->params.key = static_cast<uint32_t>(v); }, v != 0);
        case ST_OPT_RX_SLOTS:
            return beforeOnly([&] { h->rxSlots = v; }, v > 0 && v < 0xFFFF);
        case ST_OPT_RX_WINDOW_LOCAL:
            return beforeOnly([&] { h->params.slots = static_cast<uint16_t>(v); },
                              v > 0 && v <= 0xFFFF);
        case ST_OPT_PORT_LOCAL:
            return beforeOnly([&] { h->localPort = static_cast<uint16_t>(v); },
                              v > 0 && v <= 0xFFFF);
        case ST_OPT_MAXSTU_LOCAL:
            return beforeOnly([&] { h->params.maxStu = static_cast<uint8_t>(v); },
                              v >= 8 && v <= 40);
        case ST_OPT_BUFSIZE_LOCAL:
            return beforeOnly([&] { h->params.bufsize = static_cast<uint8_t>(v); },
                              v >= StMemoryTable::MIN_BUFSIZE && v <= StMemoryTable::MAX_BUFSIZE);
        case ST_OPT_IANA_LOCAL:
            h->ianaLocal = v;
            return ST_OK;
        case ST_OPT_IANA_REMOTE:
            h->ianaRemote = v;
            return ST_OK;
        case ST_OPT_PORTLEN_LOCAL:
            // The VC owns [PORT_LOCAL, + v): a port "vector" [C] SEED-API.
            return beforeOnly([&] { h->params.portLen = static_cast<uint16_t>(v); },
                              v >= 1 && v <= ST_MAX_PORT_LEN);
        case ST_OPT_PORTLEN_REMOTE:
            return ST_EACCES; // the peer's vector comes with its RC or CA
        case ST_OPT_THREAD_SAFETY:
            return v == 0 ? ST_OK : ST_EINVAL; // the engine is single-threaded per stack
        case ST_OPT_CHANNELS:
            return beforeOnly([&] { h->params.channels = static_cast<uint8_t>(v); },
                              v > 0 && v <= 0x0F);
        case ST_OPT_BUFX_BASE:
        case ST_OPT_BUFX_COUNT: {
            uint32_t base = optname == ST_OPT_BUFX_BASE ? static_cast<uint32_t>(v) : h->bufxBase;
            uint32_t count = optname == ST_OPT_BUFX_COUNT ? static_cast<uint32_t>(v) : h->bufxCount;
            if (count == 0)
            {
                return ST_EINVAL;
            }
            if (StConnection* c = h->Conn())
            {
                int e = ToErrno(c->GetMemory().SetBufxRange(base, count));
                if (e != ST_OK)
                {
                    return e;
                }
            }
            h->bufxBase = base;
            h->bufxCount = count;
            return ST_OK;
        }
        case ST_OPT_CTS_REQ:
            return beforeOnly([&] { h->params.ctsReq = static_cast<uint16_t>(v); },
                              v >= 0 && v <= 0xFFFF);
        case ST_OPT_MAX_BLOCK:
            return beforeOnly([&] { h->params.maxBlock = static_cast<uint8_t>(v); },
                              v >= 0 && v <= 63);
        case ST_OPT_DATA_VC:
            return beforeOnly([&] { h->params.dataVc = static_cast<uint8_t>(v); },
                              v >= 0 && v <= 3);
        case ST_OPT_ETHERTYPE:
            return beforeOnly([&] { h->params.etherType = static_cast<uint16_t>(v); },
                              v >= 0 && v <= 0xFFFF);
        case ST_OPT_KEY_REMOTE:
        case ST_OPT_RX_WINDOW_REMOTE:
        case ST_OPT_PORT_REMOTE:
        case ST_OPT_MAXSTU_REMOTE:
        case ST_OPT_BUFSIZE_REMOTE:
            return ST_EACCES; // learned from the peer
        default:
            return ST_ENOPROTOOPT;
        }
    }

    void* st_stack(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        return h != nullptr ? h->stack : nullptr;
    }

    double st_time(void)
    {
        if (StBypassStack* s = StBypassStack::GetDefault())
        {
            return static_cast<double>(s->GetDriver().Now()) * 1e-9;
        }
        auto t = std::chrono::steady_clock::now().time_since_epoch();
        return std::chrono::duration<double>(t).count();
    }

    const char* st_version(void)
    {
        return "gsn-ns3 ST engine 0.1 (ST Bypass API Level 0, draft of 10 May 1999)";
    }

} // extern "C"
