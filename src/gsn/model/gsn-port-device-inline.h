/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The inline bodies of GsnPortDevice's small functions that the channel, the switch and the
 * endpoint call for every micropacket (included by gsn-port-device.h only: the class
 * declaration stays a list of what the port does).
 */
#ifndef GSN_PORT_DEVICE_INLINE_H
#define GSN_PORT_DEVICE_INLINE_H

#include "gsn-port-device.h"

namespace ns3
{

inline const GsnMicropacketRun*
GsnPortDevice::GetRxRun(uint32_t& k) const
{
    k = m_rxIndex;
    return m_rxRun;
}

inline void
GsnPortDevice::SetPlacesFreedElsewhere(bool elsewhere)
{
    m_placesFreedElsewhere = elsewhere;
}

inline void
GsnPortDevice::HintNextEvent() const
{
    const char* from = reinterpret_cast<const char*>(&m_micropacketTxTrace);
    const char* to = reinterpret_cast<const char*>(&m_counters.nullSent + 1);
    gsn::HintNextEvent(from, uint32_t(to - from));
}

inline void
GsnPortDevice::NoteArrivalScheduled(const Time& at)
{
    // (Every one kept only with ExactCredits, where the run mode is exact.)
    m_arrivals.Note(at, m_exactCredits && m_linkMode == LinkMode::RUN);
}

inline void
GsnPortDevice::SetMessageVcHint(uint8_t vc, bool may)
{
    if (may && !(m_messageVcs >> vc & 1u) && m_txBusy && !m_selecting &&
        m_linkMode == LinkMode::RUN)
    {
        NoteWaitingForRun(vc);
    }
    m_messageVcs = may ? uint8_t(m_messageVcs | 1u << vc) : uint8_t(m_messageVcs & ~(1u << vc));
}

inline bool
GsnPortDevice::ReleasesIdleQuietly(uint8_t vc, uint32_t n) const
{
    return !m_txBusy && !m_selecting && !m_exactCredits && m_laterReleases.empty() &&
           !m_creditDue && m_owedCredits[vc] + n < m_creditReturnThreshold;
}

inline bool
GsnPortDevice::ReleasesWhileHeld() const
{
    return m_heldChoiceTimer.pending && !m_exactCredits && m_laterReleases.empty();
}

} // namespace ns3

#endif /* GSN_PORT_DEVICE_INLINE_H */
