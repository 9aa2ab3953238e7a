/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StBypassApi: the ST Bypass API of one node inside a simulation. The routines that never
 * block (st_getopt, st_setopt, st_listen, st_map, st_unmap, st_tx, st_time, st_version, and
 * st_rx/st_flush with a zero wait) are the C routines themselves, called on handles made by
 * Create. A simulation event cannot block, so each blocking routine has an event-driven
 * equivalent here: call it, and continue in the callback, which runs once the C routine
 * would have returned, with what it would have returned. It owns the pending calls only;
 * the protocol is the engine's, the handles are libst's (st-bypass.h).
 */
#ifndef ST_BYPASS_API_H
#define ST_BYPASS_API_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/st-bypass.h"

#include <functional>
#include <list>
#include <string>

namespace ns3
{

class StProtocol;

/**
 * \ingroup st
 * \brief Event-driven equivalents of the Bypass API's blocking routines, for one node.
 *
 * | draft routine | in a simulation event |
 * |---|---|
 * | st_connect | Connect(h, host, service, cb): cb(0 / ECONNREFUSED / ETIMEDOUT / ...) |
 * | st_accept | Accept(h, cb): cb(0) once a connection was accepted; h is it |
 * | st_rx | Rx(h, timeout, cb): cb(0, header, payload or null) / EWOULDBLOCK / ENOTCONN |
 * | st_flush | Flush(h, threshold, cb): cb(0, headers sent) |
 * | st_close | Close(h, cb): st_flush(-1), RD/DA/DC, then cb(0) |
 * | st_delete | Delete(h, cb): Close if connected, free the handle, then cb(0) |
 */
class StBypassApi : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StBypassApi();
    ~StBypassApi() override;

    /// Completion with the C routine's result (0 or an errno value).
    typedef Callback<void, int> DoneCallback;
    /// Completion of Rx: result, the header, the 32-byte optional payload (null if none).
    typedef Callback<void, int, const st_header_t&, const uint8_t*> RxCallback;
    /// Completion of Flush: result, headers sent on the connection.
    typedef Callback<void, int, int64_t> FlushCallback;

    /// \param protocol the node's protocol (owns this object)
    void SetProtocol(StProtocol* protocol);

    /**
     * st_create on this node's stack.
     * \param[out] chandle the new handle
     * \return 0 or an errno value
     */
    int Create(st_chandle_t* chandle);

    /// Make this node's stack the default one: st_create and st_time use it.
    void MakeDefault();

    /// st_connect. \param h handle \param hostname dotted IPv4 \param service port number
    /// \param cb completion
    void Connect(st_chandle_t h, std::string hostname, std::string service, DoneCallback cb);
    /// st_accept on a handle that st_listen made listen. \param h handle \param cb completion
    void Accept(st_chandle_t h, DoneCallback cb);
    /// st_rx. \param h handle \param timeout negative: no timeout \param cb completion
    void Rx(st_chandle_t h, Time timeout, RxCallback cb);
    /// st_flush. \param h handle \param threshold as st_flush \param cb completion
    void Flush(st_chandle_t h, int64_t threshold, FlushCallback cb);
    /// st_close. \param h handle \param cb completion
    void Close(st_chandle_t h, DoneCallback cb);
    /// st_delete. \param h handle (invalid once cb runs) \param cb completion (may be null)
    void Delete(st_chandle_t h, DoneCallback cb);

    /// \return calls waiting for their completion
    std::size_t GetPendingCount() const
    {
        return m_pending.size();
    }

    /// The stack made progress: complete every call whose C routine would now return.
    void CheckPending();
    /// Run CheckPending from a fresh event (for progress made outside the stack, such as
    /// an address resolution ending).
    void ScheduleCheck();

  protected:
    void DoDispose() override;

  private:
    /// A call waiting for its C routine to become non-blocking.
    struct Pending
    {
        uint64_t serial{0};           ///< identity
        st_chandle_t handle{nullptr}; ///< its handle
        std::function<bool()> ready;  ///< would the routine return now?
        std::function<void()> finish; ///< call it and run the callback
        EventId timeout;              ///< Rx timeout
    };

    /// Queue a call and look at it soon.
    void Add(st_chandle_t h,
             std::function<bool()> ready,
             std::function<void()> finish,
             Time timeout = Seconds(-1),
             std::function<void()> onTimeout = nullptr);
    /// Forget the pending calls of \p h.
    void Forget(st_chandle_t h);

    StProtocol* m_protocol;       ///< the node's protocol
    std::list<Pending> m_pending; ///< waiting calls, oldest first
    uint64_t m_nextSerial;        ///< next Pending::serial
    bool m_checking;              ///< inside CheckPending
    bool m_checkAgain;            ///< progress while checking
    EventId m_check;              ///< scheduled CheckPending
};

} // namespace ns3

#endif /* ST_BYPASS_API_H */
