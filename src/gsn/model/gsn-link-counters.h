/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GSN_LINK_COUNTERS_H
#define GSN_LINK_COUNTERS_H

#include "gsn-constants.h"

#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Counters of one port's link layer. All are cumulative since creation.
 */
struct GsnLinkCounters
{
    // (The ones counted for most events first: one cache line, next to the port's state.)
    /// transmissions started: runs, and micropackets sent alone; each ends with one event
    uint64_t transmissions{0};
    /// events of this port's timers (acknowledgement, credit, retransmission, held Null,
    /// due credits, handshake)
    uint64_t timerEvents{0};
    /// of those, events after which the port sent nothing (the work was done meanwhile, or
    /// the timer was set again for later)
    uint64_t timerEventsSendingNothing{0};
    uint64_t txMicropackets{0};        ///< micropackets sent, all types
    uint64_t txMessageMicropackets{0}; ///< Header/Data micropackets sent the first time
    uint64_t rxMicropackets{0};        ///< micropackets received with a good LCRC
    /// of those, Credit-only and Null micropackets taken when sent, without an arrival
    /// event (run mode, see GsnPortDevice::TransmitSingle)
    uint64_t rxTakenAhead{0};
    uint64_t rxAccepted{0};         ///< sequenced micropackets accepted in order
    uint64_t creditOnlySent{0};     ///< Credit-only micropackets sent
    uint64_t nullSent{0};           ///< Null micropackets sent (acknowledgement or keep-alive)
    uint64_t lcrcErrors{0};         ///< micropackets dropped for a bad LCRC
    uint64_t outOfSequence{0};      ///< good micropackets dropped for a wrong TSEQ
    uint64_t notInitialized{0};     ///< sequenced micropackets before Initialize
    uint64_t reservedType{0};       ///< micropackets with a reserved TYPE
    uint64_t retransmitTimeouts{0}; ///< go-back-N timer expiries
    uint64_t retransmitted{0};      ///< micropackets sent again
    uint64_t linkResets{0};         ///< link resets started here
    uint64_t rxBufferOverflow{0};   ///< micropackets that found their VC buffer full
    /// Messages whose Header left here but had not been accepted by the peer when the link
    /// was reset: gone, and unknown to the receiver
    uint64_t messagesLostInReset{0};
    /// of nullSent, the keep-alive Nulls of an idle link (KeepAliveNulls)
    uint64_t keepAliveNullSent{0};
    std::array<uint64_t, gsn::NUM_VCS> creditStalls{}; ///< times a VC waited for credit
    std::array<Time, gsn::NUM_VCS> creditStallTime{};  ///< total time VCs waited for credit
    /// run mode: times a VC with credit that got something to send during a run (a Message
    /// granted at a switch output, sent by an endpoint's application) waited for the run's
    /// end, where micropacket by micropacket it would have taken its turn of the round robin
    /// at once (once per VC and run): where the run mode departs from the reference
    /// (gsn-link-modes.rst)
    uint64_t runWaits{0};
    /// run mode: the total of those waits, each from the slot the VC would have taken to the
    /// run's end
    Time runWaitTime{};

    /// Add another port's counters, field by field (a fabric's totals).
    /// \param o the counters to add \return this
    GsnLinkCounters& operator+=(const GsnLinkCounters& o);
};

} // namespace ns3

#endif /* GSN_LINK_COUNTERS_H */
