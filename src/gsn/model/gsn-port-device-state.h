/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The helper types of GsnPortDevice's private part: its timers, the peer's RSEQs it gathers,
 * its queued link-control micropackets, its snapshot at a link reset. Not API: the port names
 * them by aliases in its private part, or in full, and nothing else uses them.
 */
#ifndef GSN_PORT_DEVICE_STATE_H
#define GSN_PORT_DEVICE_STATE_H

#include "gsn-micropacket-run.h"
#include "gsn-micropacket.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <tuple>
#include <vector>

namespace ns3
{

class GsnPortDevice;

namespace gsn
{

/// A timer of the port that knows whether it is pending without asking the simulator:
/// the idle-timer check runs for every micropacket a switch forwards, and
/// EventId::IsRunning was ~5% of the run mode.
struct PortTimer
{
    EventId event;       ///< the scheduled expiry
    bool pending{false}; ///< scheduled and not yet run, cancelled or removed

    /// No longer pending (run or removed): lets go of the event object now, while it
    /// is in the cache, rather than when the timer is next set (then a cache miss on a
    /// large fabric: 3.6% of perf's samples on the k = 16 tree).
    void Clear()
    {
        pending = false;
        event = EventId();
    }
};

/**
 * RSEQs the peer would apply one after another (GsnPortDevice::ProcessRseq()), kept to apply
 * at once: while the peer's transmitter is busy the last one that acknowledges something
 * leaves its retransmission state as all of them in turn would (RSEQs only grow).
 */
struct PeerRseqs
{
    GsnPortDevice* peer{nullptr};          ///< the peer (GsnPortDevice::GatherPeerRseqs())
    uint8_t front{0};                      ///< the peer's oldest TSEQ awaiting acknowledgement
    std::size_t waiting{0};                ///< how many await it, after those gathered
    bool any{false};                       ///< one acknowledges something
    uint8_t rseq{0};                       ///< the last that does
    const GsnMicropacketRun* run{nullptr}; ///< it rides on micropacket k of this run
    std::size_t k{0};                      ///< (its arrival at the peer)

    /// Keep \p r, riding on micropacket \p index of \p on, as GsnPortDevice::ProcessRseq()
    /// would find it after those kept before. \param r an RSEQ \param on a run \param index k
    void Add(uint8_t r, const GsnMicropacketRun* on, std::size_t index)
    {
        const uint32_t n = uint8_t(r - front + 1);
        if (n > 0 && n <= waiting)
        {
            front = uint8_t(r + 1);
            waiting -= n;
            any = true;
            rseq = r;
            run = on;
            k = index;
        }
    }
};

/// A link-control micropacket waiting to be sent: its TYPE and the handshake number it carries
/// in its TSEQ field (GsnLinkBringUp: a request's own, an acknowledgement's the request's).
struct QueuedControl
{
    GsnMicropacketType type; ///< Reset, Reset_Ack, Initialize or Initialize_Ack
    uint8_t number;          ///< handshake number
};

/// What a port knew when the link it had up was reset: the two ends' snapshots together
/// tell which Messages were lost without the receiver seeing their Header.
struct ResetSnapshot
{
    bool taken{false};       ///< not yet compared with the peer's
    uint8_t lastAccepted{0}; ///< TSEQ of the last micropacket accepted here
    uint8_t firstUnacked{0}; ///< TSEQ of the oldest micropacket not acknowledged
    uint32_t unacked{0};     ///< how many were not acknowledged
    /// Headers among them: (index from the oldest, the Header, being sent still)
    std::vector<std::tuple<uint32_t, GsnMicropacket, bool>> headers;
};

} // namespace gsn
} // namespace ns3

#endif /* GSN_PORT_DEVICE_STATE_H */
