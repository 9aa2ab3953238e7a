/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnDeadlockChecker: builds the channel dependency graph of a fabric's routing tables and
 * looks for a cycle in it (Dally and Seitz: wormhole routing is deadlock-free if that graph is
 * acyclic). It judges tables; it never changes them.
 */
#ifndef GSN_DEADLOCK_CHECKER_H
#define GSN_DEADLOCK_CHECKER_H

#include "gsn-routing.h"
#include "gsn-topology.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Deadlock check of routing tables by their channel dependency graph.
 *
 * A channel is one direction of a cable, named by its sending end (element, output port). The
 * graph has an edge c1 -> c2 when some route from an endpoint to another takes c2 right after
 * c1: a Message holding c1 may wait for c2. A wormhole fabric whose graph has no cycle cannot
 * deadlock. A GSN Message keeps its virtual channel from source to destination and every VC
 * follows the same tables, so one graph stands for all four VCs. A routing loop also shows up
 * as a cycle.
 */
class GsnDeadlockChecker
{
  public:
    /// A channel: the sending element and its output port.
    using Channel = std::pair<uint32_t, uint32_t>;

    /**
     * \param t the fabric
     * \param r its tables
     * \return the channels of one dependency cycle, in order (each depends on the next, the
     *         last on the first); empty if the graph is acyclic
     */
    static std::vector<Channel> FindCycle(const GsnTopology& t, const GsnRoutingTables& r);

    /**
     * \param t the fabric
     * \param cycle channels as FindCycle() returns them
     * \return "sw0:p1 -> sw1:p2 -> ... -> sw0:p1" with element names ("" for an empty cycle)
     */
    static std::string DescribeCycle(const GsnTopology& t, const std::vector<Channel>& cycle);

    /**
     * \param t the fabric
     * \param r its tables
     * \throws std::runtime_error naming a cycle when the tables can deadlock
     */
    static void Check(const GsnTopology& t, const GsnRoutingTables& r);

    /**
     * \param t the fabric
     * \param r its tables
     * \return the edges (c1, c2) of the channel dependency graph, sorted, without duplicates
     */
    static std::vector<std::pair<Channel, Channel>> Dependencies(const GsnTopology& t,
                                                                 const GsnRoutingTables& r);
};

} // namespace ns3

#endif /* GSN_DEADLOCK_CHECKER_H */
