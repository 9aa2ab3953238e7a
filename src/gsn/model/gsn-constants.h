/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Constants of GSN (HIPPI-6400) that come from the standard or from SGI's implementation.
 * Each value lives here once, with its source. Defaults that the standards leave unknown
 * (the proposals of gsn-protocol-reference.rst) are attributes of the objects that use them, not
 * constants.
 */
#ifndef GSN_CONSTANTS_H
#define GSN_CONSTANTS_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{
namespace gsn
{

/// Data bytes per micropacket (HIPPI-6400-PH; seed 000 "32-bytes of data").
constexpr uint32_t MICROPACKET_DATA_BYTES = 32;
/// Control bytes per micropacket (64 control bits; seed 000).
constexpr uint32_t MICROPACKET_CONTROL_BYTES = 8;
/// Wire size of one micropacket.
constexpr uint32_t MICROPACKET_BYTES = MICROPACKET_DATA_BYTES + MICROPACKET_CONTROL_BYTES;
/// Time to send one micropacket: 320 bits at 8 Gbit/s (seed 000 Table 1-2, derived).
constexpr int64_t MICROPACKET_TIME_NS = 40;

/// \return MICROPACKET_TIME_NS as a Time: one link slot. (Asked for every slot, so made once
/// and returned by reference: ns-3's Time copy checks a global; as a call returning a copy it
/// was 1.5% of the run link mode's instructions.)
__attribute__((always_inline)) inline const Time&
MicropacketTime()
{
    static const Time slot = NanoSeconds(MICROPACKET_TIME_NS);
    return slot;
}

/// Virtual channels per link (seed 000).
constexpr uint32_t NUM_VCS = 4;
/// Largest credit count one micropacket returns (6-bit CR field).
constexpr uint32_t MAX_CREDITS_PER_MICROPACKET = 63;
/// Sequence number space of TSEQ/RSEQ (8-bit fields).
constexpr uint32_t SEQUENCE_SPACE = 256;
/// Largest go-back-N window that 8-bit sequence numbers allow.
constexpr uint32_t MAX_RETRANSMIT_WINDOW = SEQUENCE_SPACE - 1;

/// Bytes of the Header micropacket before the LLC/SNAP header: M_len(4) D_ULA(6) S_ULA(6)
/// (proposed layout: gsn-protocol-reference.rst, "Message and Header micropacket format").
constexpr uint32_t MESSAGE_ADDRESS_BYTES = 16;
/// 802.2 LLC/SNAP header carried in every Message (RFC 2835 4.1, seed 000).
constexpr uint32_t LLC_SNAP_BYTES = 8;
/// Largest Message length M_len (32-bit field, a proposal: gsn-protocol-reference.rst, "Message and
/// Header micropacket format").
constexpr uint64_t MAX_MESSAGE_LENGTH = 0xFFFFFFFFull;

/// Default IP MTU over GSN (RFC 2067 value, proposed for RFC 2835).
constexpr uint16_t DEFAULT_MTU = 65280;

/// EtherTypes demultiplexed by the endpoint adapter.
constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
constexpr uint16_t ETHERTYPE_ARP = 0x0806; ///< ARP and HARP (RFC 2835)
constexpr uint16_t ETHERTYPE_IPV6 = 0x86DD;
constexpr uint16_t ETHERTYPE_ST = 0x8181; ///< Scheduled Transfer (INCITS 337 Annex A.1)

} // namespace gsn
} // namespace ns3

#endif /* GSN_CONSTANTS_H */
