// harp-time.h: how the HARP engine counts time: nanoseconds in a plain unsigned integer, and the
// saturating addition the timers use. It owns no clock: time is always passed in by the caller.
#ifndef HARP_TIME_H
#define HARP_TIME_H

#include <cstdint>
#include <limits>

namespace harp
{

/**
 * \ingroup harp
 * \brief A point in time or a duration, in nanoseconds.
 *
 * The engine never reads a clock. The adapter passes its own notion of "now" (ns-3:
 * Simulator::Now().GetNanoSeconds(); a host: a monotonic clock) into every call.
 */
using TimeNs = uint64_t;

constexpr TimeNs kNanosecond = 1;                             //!< One nanosecond.
constexpr TimeNs kMicrosecond = 1000;                         //!< One microsecond.
constexpr TimeNs kMillisecond = 1000 * 1000;                  //!< One millisecond.
constexpr TimeNs kSecond = 1000 * kMillisecond;               //!< One second.
constexpr TimeNs kMinute = 60 * kSecond;                      //!< One minute.
constexpr TimeNs kHour = 60 * kMinute;                        //!< One hour.
constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max(); //!< A deadline that never comes.

/**
 * \brief Saturating addition of a delay to a time, so that a huge delay means "never".
 * \param time a point in time
 * \param delay a duration
 * \return time + delay, or kNever on overflow
 */
constexpr TimeNs
Later(TimeNs time, TimeNs delay)
{
    return delay > kNever - time ? kNever : time + delay;
}

} // namespace harp

#endif // HARP_TIME_H
