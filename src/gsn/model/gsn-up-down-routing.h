/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnUpDownRouting: up/down routing tables (Autonet up* then down*), deadlock-free on any topology.
 * It owns the choice of root(s), the up/down orientation of the cables and the table computation;
 * it installs nothing.
 */
#ifndef GSN_UP_DOWN_ROUTING_H
#define GSN_UP_DOWN_ROUTING_H

#include "gsn-routing.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Up*\/down* routing.
 *
 * Every switch gets a level: its hop distance (over switch-to-switch cables) from the nearest
 * root. A cable's "up" end is the end with the smaller (level, element id); that order is
 * total, so the up direction has no cycle. A legal route takes zero or more up hops, then
 * zero or more down hops, never up after down; such routes cannot close a cycle of channel
 * dependencies, whatever the topology.
 *
 * Tables are per destination only, so a switch cannot know whether a Message already went
 * down. The tables therefore send a Message down whenever an all-down path to the
 * destination exists (along the shortest such path), and up otherwise (toward the up
 * neighbour with the shortest legal continuation). Every route the tables give is legal, and
 * is a shortest legal route whenever going down first is not longer (always so on trees and
 * fat trees rooted at the top). Ties are spread as in GsnMinHopRouting.
 *
 * Default root: per connected group of switches, the switch with the smallest eccentricity,
 * then the smallest total distance to the endpoints, then the smallest id. SetRoots() with all
 * top switches of a fat tree keeps every shortest path legal (OpenSM does the same).
 */
class GsnUpDownRouting : public GsnRouting
{
  public:
    /// Automatic root choice.
    GsnUpDownRouting();

    /**
     * \param roots switch ids to use as roots (empty: automatic choice)
     */
    explicit GsnUpDownRouting(std::vector<uint32_t> roots);

    /**
     * Use one root.
     * \param sw a switch id
     */
    void SetRoot(uint32_t sw);

    /**
     * Use several roots (level 0 for all of them). Switches no root reaches get no routes.
     * \param roots switch ids (empty: automatic choice)
     */
    void SetRoots(std::vector<uint32_t> roots);

    /// \return the roots set, empty for the automatic choice
    const std::vector<uint32_t>& GetRoots() const;

    /**
     * \param t a fabric
     * \return the roots ComputeColumns() uses on \p t
     * \throws std::invalid_argument when a root that was set is not a switch of \p t
     */
    std::vector<uint32_t> ChooseRoots(const GsnTopology& t) const;

    /**
     * \param t a fabric
     * \return per element id: the level of a switch (hops from the nearest root), or -1 for
     *         endpoints and switches no root reaches
     * \throws std::invalid_argument as ChooseRoots()
     */
    std::vector<int32_t> ComputeLevels(const GsnTopology& t) const;

    /**
     * \param levels ComputeLevels() of the fabric
     * \param from a switch with a level
     * \param to a neighbouring switch with a level
     * \return true if the hop from \p from to \p to goes up
     */
    static bool IsUp(const std::vector<int32_t>& levels, uint32_t from, uint32_t to);

    std::string GetName() const override;

    /**
     * \param t the fabric (any shape; it need not validate)
     * \return up*\/down* tables; -1 where an endpoint is unreachable
     * \throws std::invalid_argument as ChooseRoots()
     */
    void ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const override;

  private:
    /**
     * \param t a fabric
     * \return one root per connected group of switches (see the class description)
     */
    static std::vector<uint32_t> AutomaticRoots(const GsnTopology& t);

    std::vector<uint32_t> m_roots; ///< roots set by the user; empty: automatic
};

} // namespace ns3

#endif /* GSN_UP_DOWN_ROUTING_H */
