/*
 * st-bypass-private.h: what the files implementing the Bypass API (st-bypass.cc lists them)
 * share and nothing else includes: the connection and memory handles, the table of live
 * handles and their look-up, the engine's status as an errno, and the parameters a handle
 * advertises. Not installed. Plain C++17, no ns-3 header.
 */
#ifndef ST_BYPASS_PRIVATE_H
#define ST_BYPASS_PRIVATE_H

#include "st-bypass-stack.h"
#include "st-bypass.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ns3
{
namespace st
{
namespace bypass
{

/// One st_chandle_t.
struct Handle : public StEventSink
{
    StBypassStack* stack{nullptr};
    StConnParams params;    // what we advertise (before connect)
    int rxSlots{0xFFFE};    // ST_OPT_RX_SLOTS
    uint16_t localPort{0};  // ST_OPT_PORT_LOCAL (0 = pick)
    uint16_t listenPort{0}; // st_listen
    bool listening{false};
    StConnId conn{0};        // 0 = none
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

    StConnection* Conn()
    {
        return conn != 0 ? stack->GetEndpoint().Find(conn) : nullptr;
    }

    void OnEvent(const StEvent& e) override
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

    void Bind(StConnId id)
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

inline HandleTable&
Table()
{
    static HandleTable table;
    return table;
}

inline uintptr_t
Id(const void* h)
{
    return reinterpret_cast<uintptr_t>(h);
}

inline void*
AsHandle(uintptr_t id)
{
    return reinterpret_cast<void*>(id);
}

/// The live connection handle \p c, or nullptr.
inline Handle*
H(st_chandle_t c)
{
    HandleTable& t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    auto it = t.conns.find(Id(c));
    return it != t.conns.end() ? it->second.get() : nullptr;
}

inline int
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

inline StConnParams
Advertised(const Handle* h)
{
    StConnParams p = h->params;
    if (p.slots != ST_SLOTS_UNLIMITED)
    {
        p.slots = static_cast<uint16_t>(std::min<int>(p.slots, h->rxSlots));
    }
    return p;
}

} // namespace bypass
} // namespace st
} // namespace ns3

#endif /* ST_BYPASS_PRIVATE_H */
