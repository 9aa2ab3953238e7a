/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::HintNextEvent(): tell the scheduler which memory the event about to be scheduled reads
 * first, so that a GsnTimingWheelScheduler can have it fetched while the event before it runs.
 */
#ifndef GSN_EVENT_HINT_H
#define GSN_EVENT_HINT_H

#include <cstdint>

namespace ns3
{
namespace gsn
{

/// Memory an event reads first.
struct EventHint
{
    const char* from{nullptr}; ///< first byte, or none
    uint32_t bytes{0};         ///< how many
};

/// Taken (and cleared) by the next insertion into a GsnTimingWheelScheduler.
extern EventHint g_eventHint;

/**
 * \ingroup gsn
 * Tell the scheduler what the event scheduled next reads first. In a fabric of thousands of
 * ports the port an event acts on is seldom in the cache; the GsnTimingWheelScheduler fetches
 * it (and the event object) while the event before it runs. A hint changes no result; other
 * schedulers ignore it.
 * \param from first byte
 * \param bytes how many
 */
inline void
HintNextEvent(const void* from, uint32_t bytes)
{
    g_eventHint.from = static_cast<const char*>(from);
    g_eventHint.bytes = bytes;
}

} // namespace gsn
} // namespace ns3

#endif /* GSN_EVENT_HINT_H */
