/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMicropacketRun: micropackets sent back to back on one link, handed to the channel as
 * one message in the run link mode.
 */
#ifndef GSN_MICROPACKET_RUN_H
#define GSN_MICROPACKET_RUN_H

#include "gsn-micropacket.h"

#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Micropackets that leave a port in consecutive 40 ns slots.
 *
 * Micropacket k arrives at the far end at firstArrival + k x 40 ns. The receiving port
 * works through the run in order and keeps its place in \c next, so that it can stop at a
 * micropacket whose effect must happen at its own arrival time (a Header or a Tail) and go
 * on from there later.
 */
struct GsnMicropacketRun : public SimpleRefCount<GsnMicropacketRun>
{
    std::vector<GsnMicropacket> micropackets; ///< in transmission order
    Time firstArrival;                        ///< when micropackets[0]'s last bit arrives
    std::size_t next{0};                      ///< the first not yet received

    /**
     * \param k index of a micropacket in the run
     * \return when its last bit arrives
     */
    Time ArrivalOf(std::size_t k) const
    {
        return firstArrival + NanoSeconds(int64_t(k) * gsn::MICROPACKET_TIME_NS);
    }
};

} // namespace ns3

#endif /* GSN_MICROPACKET_RUN_H */
