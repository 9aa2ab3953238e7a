/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test support shared by the codec and buffer suites (gsn-micropacket, gsn-buffers): a
 * Message with a byte pattern, and its micropackets as a link receives them.
 */
#ifndef GSN_MICROPACKET_TEST_UTIL_H
#define GSN_MICROPACKET_TEST_UTIL_H

#include "ns3/gsn-message-header.h"
#include "ns3/gsn-message-segmenter.h"
#include "ns3/gsn-micropacket.h"
#include "ns3/llc-snap-header.h"
#include "ns3/packet.h"

#include <vector>

namespace ns3
{
namespace gsntest
{

/// Build a Message (addressing, LLC/SNAP, payload of \p n bytes with a pattern).
inline Ptr<Packet>
MakeMessage(uint32_t n, uint8_t seed)
{
    std::vector<uint8_t> payload(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        payload[i] = uint8_t(seed + i * 7);
    }
    Ptr<Packet> p = Create<Packet>(payload.data(), n);
    LlcSnapHeader llc;
    llc.SetType(0x0800);
    p->AddHeader(llc);
    GsnMessageHeader h;
    h.SetMessageLength(n + gsn::LLC_SNAP_BYTES);
    h.SetDestination(Mac48Address("00:00:00:00:00:02"));
    h.SetSource(Mac48Address("00:00:00:00:00:01"));
    p->AddHeader(h);
    return p;
}

/// \return the micropackets of \p msg on \p vc, as a link receives them (LCRC to compute)
inline std::vector<GsnMicropacket>
Segment(Ptr<const Packet> msg, uint8_t vc)
{
    GsnMessageSegmenter seg;
    seg.Start(msg, vc);
    std::vector<GsnMicropacket> mps;
    while (seg.IsActive())
    {
        GsnMicropacket mp;
        seg.Next(mp);
        mp.SetLcrcPending();
        mps.push_back(mp);
    }
    return mps;
}

} // namespace gsntest
} // namespace ns3

#endif /* GSN_MICROPACKET_TEST_UTIL_H */
