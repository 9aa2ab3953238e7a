/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-link-counters.h"

namespace ns3
{

GsnLinkCounters&
GsnLinkCounters::operator+=(const GsnLinkCounters& o)
{
    transmissions += o.transmissions;
    timerEvents += o.timerEvents;
    timerEventsSendingNothing += o.timerEventsSendingNothing;
    txMicropackets += o.txMicropackets;
    txMessageMicropackets += o.txMessageMicropackets;
    rxMicropackets += o.rxMicropackets;
    rxTakenAhead += o.rxTakenAhead;
    rxAccepted += o.rxAccepted;
    creditOnlySent += o.creditOnlySent;
    nullSent += o.nullSent;
    lcrcErrors += o.lcrcErrors;
    outOfSequence += o.outOfSequence;
    notInitialized += o.notInitialized;
    reservedType += o.reservedType;
    retransmitTimeouts += o.retransmitTimeouts;
    retransmitted += o.retransmitted;
    linkResets += o.linkResets;
    keepAliveNullSent += o.keepAliveNullSent;
    rxBufferOverflow += o.rxBufferOverflow;
    messagesLostInReset += o.messagesLostInReset;
    runWaits += o.runWaits;
    runWaitTime += o.runWaitTime;
    for (uint32_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        creditStalls[vc] += o.creditStalls[vc];
        creditStallTime[vc] += o.creditStallTime[vc];
    }
    return *this;
}

} // namespace ns3
