/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::DisturbedRuns: the run mode's limit on a port's next run after a VC waited for the end
 * of one (the DisturbedRunLength and DisturbedRuns attributes of GsnPortDevice). Part of the
 * port's private state; not API.
 */
#ifndef GSN_DISTURBED_RUNS_H
#define GSN_DISTURBED_RUNS_H

#include <algorithm>
#include <cstdint>

namespace ns3
{
namespace gsn
{

/**
 * \ingroup gsn
 * \brief How long a port's next run may be, after runs that a VC getting something to send
 * disturbed.
 *
 * A VC that had nothing to send and gets something during a run (a Message granted at a
 * switch output, sent by an application) waits for the run's end, where micropacket by
 * micropacket it would take the next slot. After such a run the next runs are kept short
 * (DisturbedRunLength) while that goes on; once that many runs (DisturbedRuns) were not
 * disturbed, the limit doubles with each undisturbed run, up to MaxRunLength. An approximation:
 * it makes the wait shorter, not zero.
 */
class DisturbedRuns
{
  public:
    /// \return the longest next run (at least MaxRunLength until a run is disturbed)
    uint32_t Cap() const
    {
        return m_cap;
    }

    /// A VC got something to send during the run under way and waits for its end.
    void NoteDisturbed()
    {
        m_disturbed = true;
    }

    /**
     * The run under way ended: set the limit on the next.
     * \param shortLength DisturbedRunLength: the limit after a disturbed run (0: none)
     * \param shortRuns DisturbedRuns: undisturbed runs that keep it
     * \param maxLength MaxRunLength: the limit doubles up to it after them
     */
    void RunEnded(uint32_t shortLength, uint32_t shortRuns, uint32_t maxLength)
    {
        if (m_disturbed && shortLength > 0)
        {
            m_cap = shortLength;
            m_shortRunsLeft = shortRuns;
        }
        else if (m_shortRunsLeft > 0)
        {
            --m_shortRunsLeft;
        }
        else
        {
            m_cap = uint32_t(std::min<uint64_t>(uint64_t(m_cap) * 2, maxLength));
        }
        m_disturbed = false;
    }

  private:
    uint32_t m_cap{65536};       ///< longest next run
    uint32_t m_shortRunsLeft{0}; ///< undisturbed runs still to keep at the short limit
    bool m_disturbed{false};     ///< a VC got something to send during the run under way
};

} // namespace gsn
} // namespace ns3

#endif /* GSN_DISTURBED_RUNS_H */
