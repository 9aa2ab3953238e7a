/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-bypass-api.h"

#include "st-protocol.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StBypassApi");

NS_OBJECT_ENSURE_REGISTERED(StBypassApi);

TypeId
StBypassApi::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StBypassApi")
                            .SetParent<Object>()
                            .SetGroupName("St")
                            .AddConstructor<StBypassApi>();
    return tid;
}

StBypassApi::StBypassApi()
    : m_protocol(nullptr),
      m_nextSerial(1),
      m_checking(false),
      m_checkAgain(false)
{
}

StBypassApi::~StBypassApi() = default;

void
StBypassApi::DoDispose()
{
    for (auto& p : m_pending)
    {
        Simulator::Cancel(p.timeout);
    }
    m_pending.clear();
    Simulator::Cancel(m_check);
    m_protocol = nullptr;
    Object::DoDispose();
}

void
StBypassApi::SetProtocol(StProtocol* protocol)
{
    m_protocol = protocol;
}

int
StBypassApi::Create(st_chandle_t* chandle)
{
    return st_create_on(&m_protocol->GetStack(), chandle);
}

void
StBypassApi::MakeDefault()
{
    st::StBypassStack::SetDefault(&m_protocol->GetStack());
}

void
StBypassApi::ScheduleCheck()
{
    if (!m_check.IsRunning())
    {
        m_check = Simulator::ScheduleNow(&StBypassApi::CheckPending, this);
    }
}

void
StBypassApi::Add(st_chandle_t h,
                 std::function<bool()> ready,
                 std::function<void()> finish,
                 Time timeout,
                 std::function<void()> onTimeout)
{
    Pending p;
    p.serial = m_nextSerial++;
    p.handle = h;
    p.ready = std::move(ready);
    p.finish = std::move(finish);
    if (!timeout.IsNegative() && onTimeout)
    {
        const uint64_t serial = p.serial;
        p.timeout = Simulator::Schedule(timeout, [this, serial, onTimeout]() {
            for (auto it = m_pending.begin(); it != m_pending.end(); ++it)
            {
                if (it->serial == serial)
                {
                    m_pending.erase(it);
                    onTimeout();
                    return;
                }
            }
        });
    }
    m_pending.push_back(std::move(p));
    ScheduleCheck();
}

void
StBypassApi::CheckPending()
{
    if (m_checking)
    {
        m_checkAgain = true;
        return;
    }
    m_checking = true;
    do
    {
        m_checkAgain = false;
        for (auto it = m_pending.begin(); it != m_pending.end();)
        {
            if (!it->ready())
            {
                ++it;
                continue;
            }
            Pending done = std::move(*it);
            it = m_pending.erase(it);
            Simulator::Cancel(done.timeout);
            done.finish(); // may add or remove pending calls: start over
            m_checkAgain = true;
            break;
        }
    } while (m_checkAgain);
    m_checking = false;
}

void
StBypassApi::Forget(st_chandle_t h)
{
    for (auto it = m_pending.begin(); it != m_pending.end();)
    {
        if (it->handle == h)
        {
            Simulator::Cancel(it->timeout);
            it = m_pending.erase(it);
        }
        else
        {
            ++it;
        }
    }
}

void
StBypassApi::Connect(st_chandle_t h, std::string hostname, std::string service, DoneCallback cb)
{
    NS_LOG_FUNCTION(this << h << hostname << service);
    const int e = st_connect_start(h, hostname.c_str(), service.c_str());
    if (e != ST_OK)
    {
        Add(
            h,
            [] { return true; },
            [cb, e]() { cb(e); });
        return;
    }
    Add(
        h,
        [h]() { return st_connect_result(h) != EINPROGRESS; },
        [h, cb]() { cb(st_connect_result(h)); });
}

void
StBypassApi::Accept(st_chandle_t h, DoneCallback cb)
{
    NS_LOG_FUNCTION(this << h);
    Add(
        h,
        [h]() { return st_accept_ready(h) != 0; },
        [h, cb]() {
            const int ready = st_accept_ready(h);
            cb(ready < 0 ? ST_EINVAL : st_accept(h));
        });
}

void
StBypassApi::Rx(st_chandle_t h, Time timeout, RxCallback cb)
{
    NS_LOG_FUNCTION(this << h << timeout);
    auto finish = [h, cb]() {
        st_header_t hdr{};
        uint8_t payload[st::ST_OPT_PAYLOAD_SIZE];
        timeval zero{0, 0};
        const int e = st_rx(h, &hdr, payload, &zero);
        cb(e, hdr, e == ST_OK && st_rx_payload(h) ? payload : nullptr);
    };
    auto expired = [cb]() {
        st_header_t hdr{};
        cb(ST_EWOULDBLOCK, hdr, nullptr);
    };
    Add(
        h,
        [h]() { return st_rx_ready(h) == 1; },
        finish,
        timeout,
        expired);
}

void
StBypassApi::Flush(st_chandle_t h, int64_t threshold, FlushCallback cb)
{
    NS_LOG_FUNCTION(this << h << threshold);
    Add(
        h,
        [h, threshold]() { return st_flush_ready(h, threshold) == 1; },
        [h, threshold, cb]() {
            int64_t count = 0;
            const int e = st_flush(h, threshold, &count);
            cb(e, count);
        });
}

void
StBypassApi::Close(st_chandle_t h, DoneCallback cb)
{
    NS_LOG_FUNCTION(this << h);
    // st_close: "exactly as if st_flush(-1)", then the teardown [SEED-API].
    Add(
        h,
        [h]() { return st_flush_ready(h, -1) == 1; },
        [this, h, cb]() {
            const int e = st_close_start(h);
            if (e != ST_OK)
            {
                cb(e);
                return;
            }
            Add(
                h,
                [h]() { return st_close_ready(h) == 1; },
                [cb]() { cb(ST_OK); });
        });
}

void
StBypassApi::Delete(st_chandle_t h, DoneCallback cb)
{
    NS_LOG_FUNCTION(this << h);
    // st_delete closes a connected handle first ("silently", [SEED-API]): Close does that,
    // and answers ENOTCONN at once for a handle that is not connected.
    Close(h, DoneCallback([this, h, cb](int) {
              Forget(h);
              st_delete(h); // no longer connected: returns at once
              if (!cb.IsNull())
              {
                  cb(ST_OK);
              }
          }));
}

} // namespace ns3
