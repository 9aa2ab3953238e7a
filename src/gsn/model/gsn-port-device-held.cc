/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// An idle port's choice held until the other events of its instant have run ("Ties of time" in
// gsn-link-modes.rst): holding it, asking whether it would send only credits, and making it.
// (GsnPortDevice is written in several files, one per part of the link layer; see
// gsn-port-device.cc for the list.)
#include "gsn-now.h"
#include "gsn-port-device-private.h"
#include "gsn-slot-choice.h"

#include "ns3/node.h"

namespace ns3
{

uint32_t
GsnPortDevice::NodeNumber() const
{
    return m_node ? m_node->GetId() : 0;
}

void
GsnPortDevice::HoldUntilAfterEvent(const Time& now, bool again)
{
    m_selecting = false;
    m_heldChoice.Hold(NodeNumber(), now, again);
    ArmAfterCurrentEvent<&GsnPortDevice::m_heldChoiceTimer, &GsnPortDevice::HeldChoiceTimeout>();
}

bool
GsnPortDevice::CreditOnlyIsNext(bool releases) const
{
    // SelectMicropacket() without its effects: nothing but owed credits would go.
    if (m_owedTotal == 0 || !m_controlQueue.empty())
    {
        return false;
    }
    if (m_state != LinkState::UP || m_resendIndex < m_retx.size() ||
        m_retx.size() >= m_retransmitWindow || !m_adminQueue.empty())
    {
        return false;
    }
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        if ((m_messageVcs >> vc & 1u) && m_txCredits[vc] > 0 && HasMessageMicropacket(vc))
        {
            return false;
        }
    }
    // (The credits last: an endpoint's HasMessageMicropacket() may arm the host adapter's
    // wake-up, which asking it in another order would change.)
    if (releases && m_laterReleases.HasDue(gsn::Now()))
    {
        std::array<uint32_t, gsn::NUM_VCS> owed = m_laterReleases.SumsDue(gsn::Now());
        uint32_t total = 0;
        for (uint8_t v = 0; v < gsn::NUM_VCS; ++v)
        {
            owed[v] += m_owedCredits[v];
            total += owed[v];
        }
        const uint8_t vc = GsnSlotChoice::MostOwedVc(owed, total);
        return vc < gsn::NUM_VCS && MakeCreditOnlyDue(owed[vc]);
    }
    const uint8_t vc = MostOwedVc();
    return vc < gsn::NUM_VCS && MakeCreditOnlyDue(m_owedCredits[vc]);
}

// An idle port's choice of a Null or Credit-only, held until the events already due at this instant
// have run (HoldUntilAfterEvent()).
void
GsnPortDevice::HeldChoiceTimeout()
{
    const gsn::TimerEventCount counted(m_counters);
    m_heldChoiceTimer.Clear();
    m_heldChoice.Forget(NodeNumber());
    TransmitNext();
}

} // namespace ns3
