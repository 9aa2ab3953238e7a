/*
 * st-event-loop.cc: epoll and a timerfd (see st-event-loop.h).
 */
#include "st-event-loop.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

namespace ns3
{
namespace st
{

StEventLoop::~StEventLoop()
{
    if (m_timer >= 0)
    {
        close(m_timer);
    }
    if (m_epoll >= 0)
    {
        close(m_epoll);
    }
}

int
StEventLoop::Open(std::string& error)
{
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    if (m_epoll < 0)
    {
        const int e = errno;
        error = std::string("epoll_create1: ") + std::strerror(e);
        return e;
    }
    m_timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (m_timer < 0)
    {
        const int e = errno;
        error = std::string("timerfd_create: ") + std::strerror(e);
        return e;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = m_timer;
    if (epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_timer, &ev) < 0)
    {
        const int e = errno;
        error = std::string("epoll_ctl: ") + std::strerror(e);
        return e;
    }
    return 0;
}

bool
StEventLoop::Add(int fd, Handler handler)
{
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    if (epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) < 0)
    {
        return false;
    }
    m_handlers[fd] = std::move(handler);
    return true;
}

void
StEventLoop::Remove(int fd)
{
    if (m_handlers.erase(fd) > 0)
    {
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
    }
}

uint64_t
StEventLoop::Now()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

void
StEventLoop::Arm(uint64_t deadlineNs)
{
    if (deadlineNs == m_armed)
    {
        return; // re-arming costs a system call per wait; most waits keep the same deadline
    }
    itimerspec its{};
    if (deadlineNs != UINT64_MAX)
    {
        // 0 would disarm the timer: a deadline at the epoch is already past anyway.
        const uint64_t at = deadlineNs == 0 ? 1 : deadlineNs;
        its.it_value.tv_sec = static_cast<time_t>(at / 1000000000ULL);
        its.it_value.tv_nsec = static_cast<long>(at % 1000000000ULL);
    }
    timerfd_settime(m_timer, TFD_TIMER_ABSTIME, &its, nullptr);
    m_armed = deadlineNs;
}

int
StEventLoop::RunOnce(uint64_t deadlineNs)
{
    int timeoutMs = -1;
    if (deadlineNs != UINT64_MAX)
    {
        if (deadlineNs <= Now())
        {
            timeoutMs = 0; // a look without waiting
        }
        else
        {
            Arm(deadlineNs);
        }
    }
    else
    {
        Arm(UINT64_MAX);
    }
    epoll_event events[16];
    const int n = epoll_wait(m_epoll, events, 16, timeoutMs);
    int handled = 0;
    for (int i = 0; i < n; ++i)
    {
        const int fd = events[i].data.fd;
        if (fd == m_timer)
        {
            uint64_t expirations = 0;
            if (read(m_timer, &expirations, sizeof(expirations)) < 0)
            {
                // EAGAIN: re-armed since it fired; nothing to consume
            }
            m_armed = UINT64_MAX; // an absolute timer that fired is spent
            continue;
        }
        auto it = m_handlers.find(fd);
        if (it != m_handlers.end())
        {
            Handler h = it->second; // the handler may Remove itself
            h(events[i].events);
            ++handled;
        }
    }
    return handled;
}

} // namespace st
} // namespace ns3
