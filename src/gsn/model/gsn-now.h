/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::Now(): the current simulation time, read without a virtual call where the
 * simulator runs a GsnTimingWheelScheduler.
 */
#ifndef GSN_NOW_H
#define GSN_NOW_H

#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{
namespace gsn
{

/// The time step of the event being run, as the scheduler running it gives it out.
struct PublishedTime
{
    const void* publisher{nullptr}; ///< the scheduler publishing, or none
    uint64_t ts{0};                 ///< time step of the event it gave out last
};

/// Set by the GsnTimingWheelScheduler the simulator runs (see its PublishTime attribute).
extern PublishedTime g_publishedTime;

/**
 * \ingroup gsn
 * \return the current simulation time, as Simulator::Now()
 *
 * The simulator sets its time to that of each event it takes from its scheduler before
 * running it; a GsnTimingWheelScheduler publishes that time as it gives the event out, so
 * the two agree whenever model code runs. Without one, this is Simulator::Now().
 */
inline Time
Now()
{
    return g_publishedTime.publisher ? TimeStep(g_publishedTime.ts) : Simulator::Now();
}

} // namespace gsn
} // namespace ns3

#endif /* GSN_NOW_H */
