/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnRoutingTables and GsnRouting: the routing tables of a whole fabric (output port per
 * switch and destination endpoint) and the strategy interface that computes them, one
 * destination at a time (ComputeColumns), with the graph helpers every algorithm shares. It owns no
 * switch: the fabric helper installs the tables, and GsnDeadlockChecker judges them.
 */
#ifndef GSN_ROUTING_H
#define GSN_ROUTING_H

#include "gsn-topology.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Destination-based routing tables of a fabric.
 *
 * A switch forwards by destination only (the ULA of the Message), so one output port per
 * (switch, destination endpoint) says everything.
 */
struct GsnRoutingTables
{
    /**
     * port[s][e]: output port of switch element s toward endpoint element e; -1 = no route.
     * Rows of switches have one entry per element (entries of non-endpoint columns are -1);
     * rows of endpoints are empty.
     */
    std::vector<std::vector<int32_t>> port;

    /**
     * \param sw a switch element id
     * \param endpoint an endpoint element id
     * \return the output port of \p sw toward \p endpoint, or -1 (also for ids outside the
     *         tables)
     */
    int32_t Get(uint32_t sw, uint32_t endpoint) const;

    /**
     * Follow the tables from endpoint \p src to endpoint \p dst.
     * \param t the topology the tables were computed for
     * \param src the source endpoint
     * \param dst the destination endpoint
     * \return the (element, output port) of every hop, starting with (src, 0); empty if
     *         \p dst is unreachable, the tables loop, src == dst, or either is no endpoint
     */
    std::vector<std::pair<uint32_t, uint32_t>> Route(const GsnTopology& t,
                                                     uint32_t src,
                                                     uint32_t dst) const;
};

/**
 * \ingroup gsn
 * \brief A routing algorithm: computes the tables of a whole fabric, one destination at a time.
 *
 * A new algorithm is one subclass in one new file pair (and a line in Create()).
 */
class GsnRouting
{
  public:
    virtual ~GsnRouting();

    /// \return the algorithm's name, as Create() accepts it
    virtual std::string GetName() const = 0;

    /**
     * The routes toward one endpoint: column[s] is the output port of switch element s toward
     * \p endpoint, -1 where it has none (and for every element that is no switch).
     */
    using ColumnSink = std::function<void(uint32_t endpoint, const std::vector<int32_t>& column)>;

    /**
     * Compute the routes of every switch toward every endpoint one endpoint at a time, so
     * that the whole tables are never held: \p sink gets each endpoint's column once, in an
     * order of the algorithm's, and keeps what it needs (GsnDeadlockChecker::AddRoutes, the
     * rows of the switches a process builds). The column is reused for the next endpoint.
     * \param t the fabric
     * \param sink called once per endpoint element of \p t
     * \throws std::invalid_argument when the algorithm does not apply to \p t (the sink may
     *         have had some columns by then)
     */
    virtual void ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const = 0;

    /**
     * Compute the tables of every switch toward every endpoint (ComputeColumns() gathered).
     * \param t the fabric
     * \return the tables; -1 where an endpoint cannot be reached
     * \throws std::invalid_argument when the algorithm does not apply to \p t
     */
    GsnRoutingTables Compute(const GsnTopology& t) const;

    /**
     * \param name "MinHop", "UpDown", "DimensionOrder", or "Auto": the first of MinHop,
     *        DimensionOrder and UpDown whose tables pass GsnDeadlockChecker on the fabric
     *        (MinHop on trees and fat trees, DimensionOrder on meshes, UpDown on tori)
     * \return a new instance of that algorithm with its default settings
     * \throws std::invalid_argument for an unknown name
     */
    static std::unique_ptr<GsnRouting> Create(const std::string& name);

    /// \return the names Create() accepts
    static std::vector<std::string> GetNames();

  protected:
    /**
     * \param t a fabric
     * \return tables with a row of -1 for every switch and empty rows for endpoints
     */
    static GsnRoutingTables EmptyTables(const GsnTopology& t);

    /**
     * Hop distances between switches over switch-to-switch cables (endpoints never relay).
     * \param t a fabric
     * \param sources switch ids
     * \return result[i][x]: hops from sources[i] to switch x; -1 when unreachable or x is
     *         not a switch
     */
    static std::vector<std::vector<int32_t>> SwitchDistances(const GsnTopology& t,
                                                             const std::vector<uint32_t>& sources);

    /**
     * SwitchDistances() one source at a time, in one reused vector: memory for one row,
     * whatever the number of sources.
     * \param t a fabric
     * \param sources switch ids
     * \param f called with i and the hops from sources[i] to every element (as
     *        SwitchDistances()'s row i), for i in order
     */
    static void ForEachSwitchDistances(
        const GsnTopology& t,
        const std::vector<uint32_t>& sources,
        const std::function<void(uint32_t i, const std::vector<int32_t>& dist)>& f);

    /**
     * \param t a fabric
     * \return per element id: the (port, peer switch) of every cable from that switch to
     *         another switch, in port order (empty for endpoints)
     */
    static std::vector<std::vector<std::pair<uint32_t, uint32_t>>> SwitchLinks(
        const GsnTopology& t);

    /**
     * \param t a fabric
     * \return per element id: the endpoint's index in t.GetEndpoints(), or UINT32_MAX for a
     *         switch
     */
    static std::vector<uint32_t> EndpointRanks(const GsnTopology& t);

    /**
     * Per switch, how many endpoints lie at the smallest switch-to-endpoint distance from it:
     * the size of its "subtree" in a tree-like fabric (k for a leaf of a k-ary tree with k
     * endpoints per leaf, k^2 one level up, ...). SpreadChoice() uses it as a stride.
     * \param t a fabric
     * \return per element id (0 for endpoints and for switches that reach no endpoint)
     */
    static std::vector<uint32_t> NearestEndpointCounts(const GsnTopology& t);

    /**
     * Deterministic spreading among equally good output ports (d-mod-k style): destinations
     * in rank order take the candidates in turn, in blocks of nearCount / nCandidates. On a
     * fat tree this makes each level pick the next digit of the destination's index, so every
     * destination has its own top switch and the up links share the load evenly.
     * \param rank the destination's index among the endpoints
     * \param nearCount NearestEndpointCounts() of the deciding switch
     * \param nCandidates number of equally good ports (> 0)
     * \return the index of the candidate to use (< nCandidates)
     */
    static uint32_t SpreadChoice(uint32_t rank, uint32_t nearCount, uint32_t nCandidates);
};

} // namespace ns3

#endif /* GSN_ROUTING_H */
