/*
 * st-event-loop.h: the waiting of the Linux adaptation: one epoll set for the file
 * descriptors a program watches (the raw socket, a daemon's Unix socket) and one timerfd
 * armed at the next deadline the engines asked for, on CLOCK_MONOTONIC in nanoseconds.
 * It owns those two descriptors and the handlers; it knows nothing of ST or HARP.
 */
#ifndef ST_EVENT_LOOP_H
#define ST_EVENT_LOOP_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace ns3
{
namespace st
{

/**
 * \brief epoll and a timerfd: wait until a descriptor is readable or a deadline comes.
 */
class StEventLoop
{
  public:
    /// Called with the epoll events of a ready descriptor.
    using Handler = std::function<void(uint32_t events)>;

    StEventLoop() = default;
    ~StEventLoop();
    StEventLoop(const StEventLoop&) = delete;
    StEventLoop& operator=(const StEventLoop&) = delete;

    /**
     * \brief Create the epoll set and the timer.
     * \param[out] error what failed
     * \return 0 or an errno value
     */
    int Open(std::string& error);

    /// Watch \p fd for input; \p handler runs when it is readable (false if epoll refused).
    bool Add(int fd, Handler handler);
    /// Stop watching \p fd.
    void Remove(int fd);

    /**
     * \brief Wait until a watched descriptor is readable or \p deadlineNs (Now's clock;
     *        UINT64_MAX: no deadline) passes, then run the handlers of the ready ones.
     * \return the number of descriptors handled (0: the deadline came, or a signal)
     */
    int RunOnce(uint64_t deadlineNs);

    /// CLOCK_MONOTONIC in nanoseconds.
    static uint64_t Now();

  private:
    /// Arm the timer at \p deadlineNs (UINT64_MAX: disarm).
    void Arm(uint64_t deadlineNs);

    int m_epoll{-1};                   //!< the epoll set
    int m_timer{-1};                   //!< timerfd on CLOCK_MONOTONIC, absolute
    uint64_t m_armed{UINT64_MAX};      //!< what the timer is armed at
    std::map<int, Handler> m_handlers; //!< watched descriptors
};

} // namespace st
} // namespace ns3

#endif /* ST_EVENT_LOOP_H */
