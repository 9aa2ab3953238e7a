/*
 * st-bypass-connect.cc: connections of the Bypass API set up and taken down: a port to
 * listen on (a number or a service name), connections accepted, st_connect in its blocking
 * and split forms (the peer's name resolved by the driver, then the RC sent), st_close
 * likewise.
 * (The Bypass API is written in several files, one per part; see st-bypass.cc for the list.)
 */
#include "st-bypass-private.h"

#include <cstdint>
#include <cstdlib>

using namespace ns3::st;
using namespace ns3::st::bypass;

namespace
{

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
    int st_listen(st_chandle_t chandle, const char* /* hostname */, const char* service)
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

    int st_accept_ready(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr || !h->listening)
        {
            return -1;
        }
        h->stack->Flush();
        return h->stack->Accepted(h->listenPort).empty() ? 0 : 1;
    }

    int st_accept(st_chandle_t chandle)
    {
        Handle* h = H(chandle);
        if (h == nullptr || !h->listening)
        {
            return ST_EINVAL;
        }
        auto& q = h->stack->Accepted(h->listenPort);
        h->stack->Pump(ST_NEVER, [&q] { return !q.empty(); });
        StConnId id = q.front();
        q.pop_front();
        h->stack->GetEndpoint().Unlisten(h->listenPort);
        h->listening = false;
        h->Bind(id);
        // Events of the new VC that arrived before the bind (headers sent right after CA)
        // went to nobody; from here on they come to this handle.
        return ST_OK;
    }

    int st_connect_start(st_chandle_t chandle, const char* hostname, const char* service)
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

    int st_connect_result(st_chandle_t chandle)
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

    int st_connect(st_chandle_t chandle, const char* hostname, const char* service)
    {
        int e = st_connect_start(chandle, hostname, service);
        if (e != ST_OK)
        {
            return e;
        }
        Handle* h = H(chandle);
        h->stack->Pump(ST_NEVER, [chandle] { return st_connect_result(chandle) != EINPROGRESS; });
        return st_connect_result(chandle);
    }

    int st_close_start(st_chandle_t chandle)
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

    int st_close_ready(st_chandle_t chandle)
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

    int st_close(st_chandle_t chandle)
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
        h->stack->Pump(ST_NEVER, [chandle] { return st_close_ready(chandle) == 1; });
        return ST_OK;
    }

} // extern "C"
