/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnLayoutHelper: positions for the elements of a fabric, so that NetAnim (and anything else
 * that reads a node's MobilityModel) draws the topology as it is built: trees by level, meshes
 * and tori as their grid. It places; it does not route, trace or change the fabric.
 */
#ifndef GSN_LAYOUT_HELPER_H
#define GSN_LAYOUT_HELPER_H

#include "ns3/vector.h"

#include <vector>

namespace ns3
{

class GsnFabric;
class GsnTopology;

/**
 * \ingroup gsn
 * \brief Lays out a GSN fabric in the plane.
 *
 * Switches with grid coordinates (meshes, tori, rings: GsnTopology::Element::coords) sit on
 * their grid, Spacing apart, with the endpoints of each switch on a short arc below it. Any
 * other topology is drawn by level: endpoints on the bottom row, each switch one row above
 * the nearest of its neighbours closer to the endpoints (a fat tree's edge, aggregation and
 * core switches on three rows), each row ordered by the mean position of the elements below
 * it and spread over the width of the widest row, so that cables mostly run up and down.
 *
 * \code
 *   GsnFabric fabric = GsnFabricHelper().Install(GsnTopologyBuilder::FatTree(4));
 *   GsnLayoutHelper layout;
 *   layout.Install(fabric);                      // a ConstantPositionMobilityModel each
 *   AnimationInterface anim("fat-tree.xml");     // NetAnim reads the positions
 * \endcode
 */
class GsnLayoutHelper
{
  public:
    GsnLayoutHelper();

    /// \param spacing distance between neighbouring elements of a row or grid (default 10)
    void SetSpacing(double spacing);

    /**
     * \param topology a topology
     * \return the position of each element, by element id (z is 0)
     */
    std::vector<Vector> Compute(const GsnTopology& topology) const;

    /**
     * Give every node of \p fabric a ConstantPositionMobilityModel at its element's position
     * (a node that already has a MobilityModel is moved there).
     * \param fabric a fabric built by GsnFabricHelper
     */
    void Install(const GsnFabric& fabric) const;

  private:
    /// Grid layout: every switch has coordinates.
    std::vector<Vector> ComputeGrid(const GsnTopology& topology) const;
    /// Layout by level above the endpoints.
    std::vector<Vector> ComputeLevels(const GsnTopology& topology) const;

    double m_spacing; ///< distance between neighbours
};

} // namespace ns3

#endif /* GSN_LAYOUT_HELPER_H */
