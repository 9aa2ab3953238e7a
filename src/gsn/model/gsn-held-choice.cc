/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-held-choice.h"

#include <vector>

namespace ns3
{
namespace gsn
{

namespace
{
/// The first holds made at one instant on one node and not made yet.
struct HoldsOfInstant
{
    Time at = Time::Min(); ///< the instant
    uint32_t count = 0;    ///< how many
};

/// By node number, the same on every MPI rank (a node's ports are all on one rank). An
/// instant's entry is replaced by the next instant's first hold, so what a simulation leaves
/// does not count in the next.
std::vector<HoldsOfInstant> g_holds;

HoldsOfInstant&
HoldsOn(uint32_t node)
{
    if (node >= g_holds.size())
    {
        g_holds.resize(node + 1);
    }
    return g_holds[node];
}
} // namespace

void
HeldChoice::Hold(uint32_t node, const Time& now, bool again)
{
    if (m_at != now)
    {
        m_again = false;
    }
    m_at = now;
    if (again)
    {
        m_again = true;
        return;
    }
    HoldsOfInstant& holds = HoldsOn(node);
    if (holds.at != now) // (what an instant left over does not count)
    {
        holds.at = now;
        holds.count = 0;
    }
    ++holds.count;
    m_counted = true;
}

void
HeldChoice::Forget(uint32_t node)
{
    if (m_counted)
    {
        HoldsOfInstant& holds = HoldsOn(node);
        if (holds.at == m_at && holds.count > 0)
        {
            --holds.count;
        }
    }
    m_counted = false;
}

bool
HeldChoice::PendingOn(uint32_t node, const Time& now)
{
    const HoldsOfInstant& holds = HoldsOn(node);
    return holds.at == now && holds.count > 0;
}

} // namespace gsn
} // namespace ns3
