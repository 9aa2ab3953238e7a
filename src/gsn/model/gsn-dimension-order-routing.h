/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnDimensionOrderRouting: dimension-order (e-cube, XY) routing tables for switches laid out
 * on a grid by their coordinates: meshes, tori and rings. It owns the reading of the grid
 * from the coordinates and cables, and the tables; it installs nothing.
 */
#ifndef GSN_DIMENSION_ORDER_ROUTING_H
#define GSN_DIMENSION_ORDER_ROUTING_H

#include "gsn-routing.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Dimension-order routing on meshes and tori.
 *
 * Every switch must have coordinates of the same dimension D, and the switches must fill the
 * grid [0, n_0) x ... x [0, n_{D-1}) exactly once. A Message first corrects its coordinate
 * in dimension 0, then dimension 1, and so on, one neighbour at a time; the next switch is
 * reached by the switch's lowest-numbered port cabled to it.
 *
 * A dimension of size >= 3 is a ring when a cable joins coordinate n-1 to coordinate 0; then
 * a Message takes the shorter way around (ties go toward increasing coordinates).
 *
 * On a mesh this is deadlock-free (no turn from a higher dimension back to a lower one, no
 * wrap). On a torus or ring it is not: the Messages going around one ring depend on each
 * other in a cycle. Real tori break it with dateline virtual channels; a GSN Message keeps its
 * VC end to end, so GsnDeadlockChecker refuses such tables. Use UpDown on tori.
 */
class GsnDimensionOrderRouting : public GsnRouting
{
  public:
    std::string GetName() const override;

    /**
     * \param t the fabric
     * \return dimension-order tables; -1 where an endpoint is not cabled to a switch
     * \throws std::invalid_argument when a switch lacks coordinates, the coordinates do not
     *         fill a grid, or a cable the route needs is missing
     */
    void ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const override;
};

} // namespace ns3

#endif /* GSN_DIMENSION_ORDER_ROUTING_H */
