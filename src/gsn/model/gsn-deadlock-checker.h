/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnDeadlockChecker: builds the channel dependency graph of a fabric's routing tables and
 * looks for a cycle in it (Dally and Seitz: wormhole routing is deadlock-free if that graph is
 * acyclic), from whole tables or from the routes toward one destination at a time. It judges
 * routes; it never changes them.
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
     * A checker that takes the routes one destination at a time (AddRoutes()), as
     * GsnRouting::ComputeColumns() gives them, so that whole tables are never needed.
     * \param t the fabric (kept by reference: it must outlive the checker)
     */
    explicit GsnDeadlockChecker(const GsnTopology& t);

    /**
     * Add the dependencies of the routes toward one endpoint.
     * \param endpoint the destination endpoint element
     * \param column per element id, the output port of that switch toward \p endpoint (-1:
     *        none)
     */
    void AddRoutes(uint32_t endpoint, const std::vector<int32_t>& column);

    /// \return the channels of one cycle of the routes added so far (empty if acyclic)
    std::vector<Channel> FindCycle() const;

    /// \return the edges of the routes added so far, sorted, without duplicates
    std::vector<std::pair<Channel, Channel>> GetDependencies() const;

    /// \throws std::runtime_error naming a cycle when the routes added so far can deadlock
    void Check() const;

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

  private:
    /// \return the graph's edges as (from << 32 | to) channel indices, sorted
    std::vector<uint64_t> Edges() const;

    /// \param element an element id \param port its port \return the channel's index
    uint32_t IndexOf(uint32_t element, uint32_t port) const
    {
        return m_offset[element] + port;
    }

    const GsnTopology& m_t;           ///< the fabric
    std::vector<uint32_t> m_offset;   ///< per element, its first channel index; then the total
    std::vector<Channel> m_channel;   ///< index -> channel
    std::vector<uint32_t> m_peer;     ///< index -> element at the far end, or UINT32_MAX
    std::vector<uint32_t> m_flagBase; ///< index -> its first flag in m_flag
    /// A channel can only be followed by an output channel of the element it leads to, so an
    /// edge is one flag per (channel, output port of its far end): no duplicates to sort away.
    std::vector<bool> m_flag;
    std::vector<uint32_t> m_stamp;     ///< per switch: 1 + the endpoint whose paths it is on
    std::vector<uint32_t> m_endpoints; ///< the fabric's endpoints
};

} // namespace ns3

#endif /* GSN_DEADLOCK_CHECKER_H */
