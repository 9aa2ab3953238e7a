/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTopologyBuilder: the standard fabric shapes (back to back, star, the seed's two-switch
 * fabric, k-ary n-trees, fat trees, meshes, tori, rings) as GsnTopology descriptions. It only
 * describes: the fabric helper turns a description into nodes, devices and cables.
 */
#ifndef GSN_TOPOLOGY_BUILDER_H
#define GSN_TOPOLOGY_BUILDER_H

#include "ns3/gsn-topology.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Builds validated topologies of standard shapes.
 *
 * Conventions common to all builders: endpoints are added first, so endpoint i is element i
 * and is named "ep<i>" (except in TwoSwitchFigure132()); switches follow. No cable is given
 * a length: each gets GsnChannel's Length attribute (10 m by default) when the fabric is
 * built. Bad arguments throw std::invalid_argument.
 */
class GsnTopologyBuilder
{
  public:
    /// Largest number of elements a builder creates.
    static constexpr uint64_t MAX_ELEMENTS = uint64_t(1) << 22;

    /// \return two endpoints "ep0" and "ep1" cabled to each other, no switch
    static GsnTopology BackToBack();

    /**
     * One switch "sw0"; endpoint i on its port i.
     * \param nEndpoints endpoints, >= 1
     * \param switchPorts the switch's ports (0: nEndpoints; else >= nEndpoints)
     * \return the star
     */
    static GsnTopology Star(uint32_t nEndpoints, uint32_t switchPorts = 0);

    /**
     * The two-switch fabric of seed 000, figure 1-32: 8-port switches "sw1" and "sw2"; hosts
     * A, B, C, D on ports 0-3 of sw1; E, F, G, H, J, K, L (there is no I) on ports 0-6 of sw2;
     * port 7 of sw1 cabled to port 7 of sw2. Endpoints A..L are elements 0..10.
     * \return the fabric
     */
    static GsnTopology TwoSwitchFigure132();

    /**
     * Petrini and Vanneschi's k-ary n-tree: k^n endpoints and n levels of k^(n-1) switches with
     * 2k ports (0..k-1 down, k..2k-1 up; the top level's up ports stay free). Switch
     * "sw<l>.<w>" is switch w of level l, level 0 holding the endpoints: endpoint p is on port
     * p mod k of leaf p / k. Writing w in base k with n-1 digits, up port k+j of (l, w) goes to
     * down port w_l of (l+1, w with digit l set to j).
     * \param k arity, >= 2
     * \param n levels, >= 1
     * \return the tree
     */
    static GsnTopology KaryNTree(uint32_t k, uint32_t n);

    /**
     * Al-Fares' fat tree: a 3-level folded Clos of k-port switches. k pods of k/2 edge switches
     * "edge<pod>.<i>" and k/2 aggregation switches "agg<pod>.<i>", and (k/2)^2 core switches
     * "core<c>": k^3/4 endpoints and 5k^2/4 switches. Edge switch i: ports 0..k/2-1 to its
     * endpoints, port k/2+j to agg j of its pod. Agg switch j: port i to edge i, port k/2+m
     * to core j*k/2+m. Core c: port p to pod p. Endpoint (pod, i, h) is number
     * pod*(k/2)^2 + i*k/2 + h.
     * \param k switch ports, even, >= 2
     * \return the fat tree
     */
    static GsnTopology FatTree(uint32_t k);

    /**
     * A 2D mesh of switches "sw<x>.<y>" with coordinates {x, y} and 4 + endpointsPerSwitch
     * ports: 0 toward +x, 1 toward -x, 2 toward +y, 3 toward -y, then the endpoints. Switch
     * (x, y) is number x + X*y and carries endpoints number*endpointsPerSwitch onwards.
     * \param x switches along x, >= 1
     * \param y switches along y, >= 1
     * \param endpointsPerSwitch endpoints on each switch, >= 1
     * \return the mesh
     */
    static GsnTopology Mesh2D(uint32_t x, uint32_t y, uint32_t endpointsPerSwitch = 1);

    /**
     * Mesh2D() plus the wrap-around cables of every row and column of size >= 2 (a size-2
     * dimension thus gets two parallel cables per pair; a size-1 dimension none).
     * \param x switches along x, >= 1
     * \param y switches along y, >= 1
     * \param endpointsPerSwitch endpoints on each switch, >= 1
     * \return the torus
     */
    static GsnTopology Torus2D(uint32_t x, uint32_t y, uint32_t endpointsPerSwitch = 1);

    /**
     * A ring of switches "sw<i>" with coordinates {i} (a 1-D torus) and 2 + endpointsPerSwitch
     * ports: port 0 to switch i+1, port 1 to switch i-1, then the endpoints.
     * \param nSwitches switches, >= 1 (1: no ring cable; 2: two parallel cables)
     * \param endpointsPerSwitch endpoints on each switch, >= 1
     * \return the ring
     */
    static GsnTopology Ring(uint32_t nSwitches, uint32_t endpointsPerSwitch = 1);

  private:
    /**
     * Build a grid: a torus when \p wrap, else a mesh.
     * \param x switches along x
     * \param y switches along y
     * \param endpointsPerSwitch endpoints per switch
     * \param wrap add the wrap-around cables
     * \return the grid
     */
    static GsnTopology Grid2D(uint32_t x, uint32_t y, uint32_t endpointsPerSwitch, bool wrap);

    /**
     * \param t a freshly built topology
     * \return \p t, after checking that it validates (a builder bug otherwise)
     */
    static GsnTopology Checked(GsnTopology t);
};

} // namespace ns3

#endif /* GSN_TOPOLOGY_BUILDER_H */
