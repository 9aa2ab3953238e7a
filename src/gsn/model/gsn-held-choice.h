/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::HeldChoice: an idle port's choice held until the other events of its instant have run,
 * and the count, per node, of the choices held at an instant and not made yet. Part of
 * GsnPortDevice's private state; not API.
 */
#ifndef GSN_HELD_CHOICE_H
#define GSN_HELD_CHOICE_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{
namespace gsn
{

/**
 * \ingroup gsn
 * \brief When an idle port's choice was held, and whether it counts among its node's holds.
 *
 * Events of one instant run in an order the model does not define. An idle port that would
 * send only a Null or a Credit-only at an instant holds its choice until the instant's other
 * events have run (a "first hold"): one of them may free places whose credits the choice then
 * carries. A switch port whose held choice would still send only credits holds it once more
 * (a "hold again") while first holds of that instant on its node are still to be made: a port
 * frees places of another port of its own node only, so these are the choices that may still
 * add to it. First holds are counted per node for that; holds again are not (they wait for
 * the others, not the others for them).
 *
 * The port arms the timer that makes the choice; this class keeps the when and the counts.
 */
class HeldChoice
{
  public:
    /**
     * \param now the current time
     * \return whether a first hold may be made at \p now: none was made at \p now yet (a
     *         choice is held at most once per instant, and once more with again)
     */
    bool MayHoldAt(const Time& now) const
    {
        return m_at != now;
    }

    /// \return whether the choice held last was held once more (a hold again at its instant)
    bool HeldAgain() const
    {
        return m_again;
    }

    /**
     * Hold the choice at \p now.
     * \param node the port's node number (holds are counted per node)
     * \param now the current time
     * \param again a hold again: not counted, the choice held once already at \p now
     */
    void Hold(uint32_t node, const Time& now, bool again);

    /**
     * The held choice is made, or dropped (the port disposed): a first hold no longer counts.
     * \param node the port's node number
     */
    void Forget(uint32_t node);

    /**
     * \param node a node number
     * \param now the current time
     * \return whether first holds made at \p now on \p node are still to be made
     */
    static bool PendingOn(uint32_t node, const Time& now);

  private:
    Time m_at{Time::Min()}; ///< when the choice was last held
    bool m_again{false};    ///< held once more at m_at
    bool m_counted{false};  ///< a first hold, counted on its node until made
};

} // namespace gsn
} // namespace ns3

#endif /* GSN_HELD_CHOICE_H */
