/*
 * st-bypass.cc: the ST Bypass API on the engine (see st-bypass.h): handles, options, and the
 * blocking calls built on StBypassStack::Pump.
 */
#include "st-bypass.h"

#include "st-bypass-stack.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

using namespace ns3::st;

namespace {

/// One st_chandle_t.
struct Handle : public StEventSink
{
    StBypassStack* stack{nullptr};
    StConnParams params;    // what we advertise (before connect)
    int rxSlots{0xFFFE};    // ST_OPT_RX_SLOTS
    uint16_t localPort{0};  // ST_OPT_PORT_LOCAL (0 = pick)
    uint16_t listenPort{0}; // st_listen
    bool listening{false};
    StConnId conn{0}; // 0 = none
    bool resolving{false};   // st_connect waits for the peer's address (see ResolveStart)
    std::string resolveHost; // ... of this name
    uint16_t resolvePort{0}; // ... to connect to this port
    bool refused{false};
    bool closed{false};
    int ianaLocal{0};
    int ianaRemote{0};
    uint32_t bufxBase{0};
    uint32_t bufxCount{0xFFFFFFFF};
    std::deque<StEvent> rx; // headers for st_rx
    bool lastPayload{false};

    StConnection*
    Conn()
    {
        return conn != 0 ? stack->GetEndpoint().Find(conn) : nullptr;
    }

    void
    OnEvent(const StEvent& e) override
    {
        switch (e.type)
        {
            case StEventType::HeaderReceived:
                rx.push_back(e);
                return;
            case StEventType::ConnectionRefused:
                refused = true;
                closed = true;
                break;
            case StEventType::ConnectionClosed:
                closed = true;
                break;
            default:
                break;
        }
        if (e.holdsSlot)
        {
            stack->GetEndpoint().ReleaseSlot(e.conn);
        }
    }

    void
    Bind(StConnId id)
    {
        conn = id;
        closed = false;
        refused = false;
        stack->Bind(id, this);
        if (StConnection* c = Conn())
        {
            c->GetMemory().SetBufxRange(bufxBase, bufxCount);
        }
    }
};

/// One st_mhandle_t.
struct MemHandle
{
    uintptr_t owner{0}; // the st_chandle_t it was mapped on
    uint32_t id{0};     // the registration in the connection's memory table
};

/*
 * The live handles. A handle is a number, never a pointer, and never reused: a routine looks
 * it up before touching anything, so a value that is not a live handle (the address of a
 * handle variable, as the draft's "st_chandle_t *" spelling passes it, a deleted handle,
 * garbage) gets EINVAL instead of undefined behaviour. The lock keeps the table consistent
 * when threads create and delete handles (each handle is still used by one thread).
 */
struct HandleTable
{
    std::mutex lock;
    uintptr_t next{1};
    std::unordered_map<uintptr_t, std::unique_ptr<Handle>> conns;
    std::unordered_map<uintptr_t, std::unique_ptr<MemHandle>> mems;
};

HandleTable&
Table()
{
    static HandleTable table;
    return table;
}

uintptr_t
Id(const void* h)
{
    return reinterpret_cast<uintptr_t>(h);
}

void*
AsHandle(uintptr_t id)
{
    return reinterpret_cast<void*>(id);
}

/// The live connection handle \p c, or nullptr.
Handle*
H(st_chandle_t c)
{
    HandleTable& t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    auto it = t.conns.find(Id(c));
    return it != t.conns.end() ? it->second.get() : nullptr;
}

/// The live memory handle \p m, or nullptr.
MemHandle*
M(st_mhandle_t m)
{
    HandleTable& t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    auto it = t.mems.find(Id(m));
    return it != t.mems.end() ? it->second.get() : nullptr;
}

int
ToErrno(StStatus s)
{
    switch (s)
    {
        case StStatus::Ok:
            return ST_OK;
        case StStatus::NoSuchConnection:
        case StStatus::WrongState:
            return ST_ENOTCONN;
        case StStatus::PortInUse:
        case StStatus::KeyInUse:
        case StStatus::BufxInUse:
            return ST_EADDRINUSE;
        case StStatus::NotMapped:
            return ST_EFAULT;
        case StStatus::NoMx:
            return ST_ENOMEM;
        case StStatus::ChannelTooSmall:
        case StStatus::PutTooLarge:
            return ST_EMSGSIZE;
        default:
            return ST_EINVAL;
    }
}

bool
ParsePort(StDriver& driver, const char* service, uint16_t& port)
{
    if (service == nullptr || *service == '\0')
    {
        return false;
    }
    char* end = nullptr;
    long v = std::strtol(service, &end, 10);
    if (*end == '\0')
    {
        if (v <= 0 || v > 0xFFFF)
        {
            return false; // 0 is Port 0, where RCs arrive: never a service [C] SEED-GSN
        }
        port = static_cast<uint16_t>(v);
        return true;
    }
    // A name: the driver's services table (I/O the engine does not do itself) [C] SEED-API
    // ("could also be a name").
    uint16_t named = 0;
    if (!driver.ResolveService(service, named) || named == 0)
    {
        return false;
    }
    port = named;
    return true;
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

StConnParams
Advertised(const Handle* h)
{
    StConnParams p = h->params;
    if (p.slots != ST_SLOTS_UNLIMITED)
    {
        p.slots = static_cast<uint16_t>(std::min<int>(p.slots, h->rxSlots));
    }
    return p;
}

/// Send the Request_Connection to a resolved peer (st_connect's second half).
int
ConnectResolved(Handle* h, StPeerAddress peer, uint16_t port)
{
    StEndpoint& ep = h->stack->GetEndpoint();
    StConnId id = 0;
    StStatus s =
        ep.Connect(h->stack->GetDriver().Now(), peer, port, Advertised(h), id, h->localPort);
    if (s != StStatus::Ok)
    {
        return ToErrno(s);
    }
    h->ianaRemote = port;
    h->Bind(id);
    h->stack->Flush(); // the RC goes to the driver
    return ST_OK;
}

/// Ask the driver where a resolving handle's peer stands; connect once it is known.
int
ContinueResolving(Handle* h)
{
    StPeerAddress peer = 0;
    switch (h->stack->GetDriver().ResolveStart(h->resolveHost.c_str(), peer))
    {
    case StResolveState::InProgress:
        return EINPROGRESS;
    case StResolveState::Unknown:
        h->resolving = false;
        return ST_EHOSTUNREACH;
    case StResolveState::Resolved:
        break;
    }
    h->resolving = false;
    const int e = ConnectResolved(h, peer, h->resolvePort);
    return e == ST_OK ? EINPROGRESS : e;
}

} // namespace

extern "C"
{

    int
    st_create_on(void* stack, st_chandle_t* chandle)
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

    int
    st_create(st_chandle_t* chandle)
    {
        if (chandle == nullptr)
        {
            return ST_EINVAL;
        }
        int error = ST_ENOMEM;
        StBypassStack* stack = StBypassStack::OpenDefault(error);
        return stack != nullptr ? st_create_on(stack, chandle) : error;
    }

    int
    st_delete(st_chandle_t chandle)
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

    int
    st_getopt(st_chandle_t chandle, int optname, void* optval)
    {
        Handle* h = H(chandle);
        if (h == nullptr || optval == nullptr)
        {
            return ST_EINVAL;
        }
        int& out = *static_cast<int*>(optval);
        StConnection* c = h->Conn();
        auto needConn = [&](int v)
        {
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
                out = c != nullptr ? c->GetLocalPort()
                                   : (h->listening ? h->listenPort : h->localPort);
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

    int
    st_setopt(st_chandle_t chandle, int optname, void* optval)
    {
        Handle* h = H(chandle);
        if (h == nullptr || optval == nullptr)
        {
            return ST_EINVAL;
        }
        const int v = *static_cast<const int*>(optval);
        const bool before = (h->conn == 0);
        auto beforeOnly = [&](auto apply, bool ok)
        {
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
                return beforeOnly(
                    [&]
                    {
                        h->params.bypass = v != 0;
                    },
                    true);
            case ST_OPT_KEY_LOCAL:
                return beforeOnly(
                    [&]
                    {
                        h->params.key = static_cast<uint32_t>(v);
                    },
                    v != 0);
            case ST_OPT_RX_SLOTS:
                return beforeOnly(
                    [&]
                    {
                        h->rxSlots = v;
                    },
                    v > 0 && v < 0xFFFF);
            case ST_OPT_RX_WINDOW_LOCAL:
                return beforeOnly(
                    [&]
                    {
                        h->params.slots = static_cast<uint16_t>(v);
                    },
                    v > 0 && v <= 0xFFFF);
            case ST_OPT_PORT_LOCAL:
                return beforeOnly(
                    [&]
                    {
                        h->localPort = static_cast<uint16_t>(v);
                    },
                    v > 0 && v <= 0xFFFF);
            case ST_OPT_MAXSTU_LOCAL:
                return beforeOnly(
                    [&]
                    {
                        h->params.maxStu = static_cast<uint8_t>(v);
                    },
                    v >= 8 && v <= 40);
            case ST_OPT_BUFSIZE_LOCAL:
                return beforeOnly(
                    [&]
                    {
                        h->params.bufsize = static_cast<uint8_t>(v);
                    },
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
                return beforeOnly(
                    [&]
                    {
                        h->params.channels = static_cast<uint8_t>(v);
                    },
                    v > 0 && v <= 0x0F);
            case ST_OPT_BUFX_BASE:
            case ST_OPT_BUFX_COUNT:
            {
                uint32_t base
                    = optname == ST_OPT_BUFX_BASE ? static_cast<uint32_t>(v) : h->bufxBase;
                uint32_t count
                    = optname == ST_OPT_BUFX_COUNT ? static_cast<uint32_t>(v) : h->bufxCount;
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
                return beforeOnly(
                    [&]
                    {
                        h->params.ctsReq = static_cast<uint16_t>(v);
                    },
                    v >= 0 && v <= 0xFFFF);
            case ST_OPT_MAX_BLOCK:
                return beforeOnly(
                    [&]
                    {
                        h->params.maxBlock = static_cast<uint8_t>(v);
                    },
                    v >= 0 && v <= 63);
            case ST_OPT_DATA_VC:
                return beforeOnly(
                    [&]
                    {
                        h->params.dataVc = static_cast<uint8_t>(v);
                    },
                    v >= 0 && v <= 3);
            case ST_OPT_ETHERTYPE:
                return beforeOnly(
                    [&]
                    {
                        h->params.etherType = static_cast<uint16_t>(v);
                    },
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

    int
    st_listen(st_chandle_t chandle, const char* /* hostname */, const char* service)
    {
        Handle* h = H(chandle);
        uint16_t port = 0;
        if (h == nullptr || !ParsePort(h->stack->GetDriver(), service, port))
        {
            return ST_EINVAL;
        }
        if (h->conn != 0 || h->listening || h->resolving)
        {
            return ST_EISCONN;
        }
        StStatus s = h->stack->GetEndpoint().Listen(port, Advertised(h));
        if (s != StStatus::Ok)
        {
            return ToErrno(s);
        }
        h->listening = true;
        h->listenPort = port;
        h->ianaLocal = port;
        return ST_OK;
    }

    int
    st_accept_ready(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr || !h->listening)
        {
            return -1;
        }
        h->stack->Flush();
        return h->stack->Accepted(h->listenPort).empty() ? 0 : 1;
    }

    int
    st_accept(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr || !h->listening)
        {
            return ST_EINVAL;
        }
        auto& q = h->stack->Accepted(h->listenPort);
        h->stack->Pump(ST_NEVER,
                       [&q]
                       {
                           return !q.empty();
                       });
        StConnId id = q.front();
        q.pop_front();
        h->stack->GetEndpoint().Unlisten(h->listenPort);
        h->listening = false;
        h->Bind(id);
        // Events of the new VC that arrived before the bind (headers sent right after CA)
        // went to nobody; from here on they come to this handle.
        return ST_OK;
    }

    int
    st_connect_start(st_chandle_t chandle, const char* hostname, const char* service)
    {
        Handle* h = H(chandle);
        uint16_t port = 0;
        if (h == nullptr || !ParsePort(h->stack->GetDriver(), service, port))
        {
            return ST_EINVAL;
        }
        if (h->conn != 0 || h->listening || h->resolving)
        {
            return ST_EISCONN;
        }
        if (hostname == nullptr)
        {
            return ST_EHOSTUNREACH;
        }
        StPeerAddress peer = 0;
        switch (h->stack->GetDriver().ResolveStart(hostname, peer))
        {
        case StResolveState::Unknown:
            return ST_EHOSTUNREACH;
        case StResolveState::InProgress:
            // st_connect_result answers EINPROGRESS and connects once the name resolves.
            h->resolving = true;
            h->resolveHost = hostname;
            h->resolvePort = port;
            return ST_OK;
        case StResolveState::Resolved:
            break;
        }
        return ConnectResolved(h, peer, port);
    }

    int
    st_connect_result(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr)
        {
            return ST_EINVAL;
        }
        if (h->resolving)
        {
            const int e = ContinueResolving(h);
            if (e != EINPROGRESS || h->resolving)
            {
                return e;
            }
        }
        if (h->conn == 0)
        {
            return ST_ENOTCONN;
        }
        h->stack->Flush();
        if (h->refused)
        {
            return ST_ECONNREFUSED;
        }
        StConnection* c = h->Conn();
        if (c != nullptr && c->GetState() == StConnState::Connected)
        {
            return ST_OK;
        }
        if (h->closed || c == nullptr || c->GetState() != StConnState::RcSent)
        {
            return ST_ETIMEDOUT;
        }
        return EINPROGRESS;
    }

    int
    st_connect(st_chandle_t chandle, const char* hostname, const char* service)
    {
        int e = st_connect_start(chandle, hostname, service);
        if (e != ST_OK)
        {
            return e;
        }
        Handle* h = H(chandle);
        h->stack->Pump(ST_NEVER,
                       [chandle]
                       {
                           return st_connect_result(chandle) != EINPROGRESS;
                       });
        return st_connect_result(chandle);
    }

    int
    st_close_start(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr)
        {
            return ST_EINVAL;
        }
        StConnection* c = h->Conn();
        if (c == nullptr || c->GetState() != StConnState::Connected)
        {
            return ST_ENOTCONN;
        }
        h->stack->GetEndpoint().Close(h->stack->GetDriver().Now(), h->conn);
        h->stack->Flush(); // the RD goes to the driver
        return ST_OK;
    }

    int
    st_close_ready(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr)
        {
            return 1;
        }
        h->stack->Flush();
        StConnection* c = h->Conn();
        return c == nullptr || c->GetState() == StConnState::Closed ? 1 : 0;
    }

    int
    st_close(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr)
        {
            return ST_EINVAL;
        }
        StConnection* c = h->Conn();
        if (c == nullptr || c->GetState() != StConnState::Connected)
        {
            return ST_ENOTCONN;
        }
        st_flush(chandle, -1, nullptr); // "exactly as if ... st_flush(-1, NULL)" [SEED-API]
        int e = st_close_start(chandle);
        if (e != ST_OK)
        {
            return e;
        }
        h->stack->Pump(ST_NEVER,
                       [chandle]
                       {
                           return st_close_ready(chandle) == 1;
                       });
        return ST_OK;
    }

    int
    st_map(st_chandle_t chandle, int flags, void* ptr, size_t len, int bufx_base, int bufx_count,
           st_mhandle_t* mhandle, int* mx)
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
        StStatus s = c->GetMemory().Map(flags, static_cast<uint8_t*>(ptr), l,
                                        static_cast<uint32_t>(bufx_base), bufx_count, id, m);
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

    int
    st_unmap(st_mhandle_t mhandle)
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

    int
    st_tx(st_chandle_t chandle, st_header_t* hdr, void* opt_pay, unsigned int len,
          unsigned int bufx, unsigned int off)
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
        StStatus s
            = c->SendRaw(h->stack->GetDriver().Now(), sh, static_cast<const uint8_t*>(opt_pay),
                         sh.op == StOp::Data ? len : 0, linear);
        if (s != StStatus::Ok)
        {
            return ToErrno(s);
        }
        h->stack->Flush(); // handed to the asynchronous agent (the driver)
        return ST_OK;
    }

    int
    st_rx(st_chandle_t chandle, st_header_t* hdr, void* opt_pay, struct timeval* timeout)
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
            deadline = d.Now() + static_cast<uint64_t>(timeout->tv_sec) * 1000000000ULL
                       + static_cast<uint64_t>(timeout->tv_usec) * 1000ULL;
        }
        h->stack->Pump(deadline,
                       [chandle]
                       {
                           return st_rx_ready(chandle) == 1;
                       });
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

    int
    st_rx_ready(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr || h->conn == 0)
        {
            return 1; // st_rx returns an error at once
        }
        return !h->rx.empty() || h->closed ? 1 : 0;
    }

    int
    st_rx_payload(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        return h != nullptr && h->lastPayload ? 1 : 0;
    }

    int
    st_flush(st_chandle_t chandle, int64_t threshold, int64_t* count)
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
            h->stack->Pump(ST_NEVER,
                           [chandle, threshold]
                           {
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

    int
    st_flush_ready(st_chandle_t chandle, int64_t threshold)
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

    void*
    st_stack(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        return h != nullptr ? h->stack : nullptr;
    }

    double
    st_time(void)
    {
        if (StBypassStack* s = StBypassStack::GetDefault())
        {
            return static_cast<double>(s->GetDriver().Now()) * 1e-9;
        }
        auto t = std::chrono::steady_clock::now().time_since_epoch();
        return std::chrono::duration<double>(t).count();
    }

    const char*
    st_version(void)
    {
        return "gsn-ns3 ST engine 0.1 (ST Bypass API Level 0, draft of 10 May 1999)";
    }

} // extern "C"
