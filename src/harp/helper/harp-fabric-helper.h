/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HarpFabricHelper: a GsnFabricHelper whose fabrics may have hosts with several GSN
 * interfaces, such as the IP router between two LIS of the seed's figures 1-31 and 1-32 (one
 * system, interfaces J and H). GsnFabricHelper gives every endpoint a node of its own; this
 * helper puts named endpoints on one node, cables them where the topology says and fills the
 * switches' tables for the whole topology. Everything else is GsnFabricHelper's.
 */
#ifndef HARP_FABRIC_HELPER_H
#define HARP_FABRIC_HELPER_H

#include "ns3/gsn-fabric-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup harp
 * \brief Builds GSN fabrics in which some endpoints share a node (multi-homed hosts).
 *
 * The returned GsnFabric is in the topology's order as GsnFabricHelper's is: endpoint i's node
 * is endpoints.Get(i), so a multi-homed host appears once per interface there (use GetHosts()
 * for each node once). A host's devices are its endpoints in the order given to AddHost.
 * Tables come from the manager's routing algorithm over the whole topology (discovery is not
 * available here).
 */
class HarpFabricHelper : public GsnFabricHelper
{
  public:
    HarpFabricHelper();

    /**
     * \brief Puts the named endpoints on one new node, in this order (its device 0, 1, ...).
     * \param endpoints endpoint names of the topology (each in one host at most)
     */
    void AddHost(const std::vector<std::string>& endpoints);

    /// \param name routing algorithm, as GsnFabricHelper::SetRoutingAlgorithm
    void SetRoutingAlgorithm(const std::string& name);

    /// \param check refuse tables that could deadlock (default true)
    void SetDeadlockCheck(bool check);

    /**
     * \brief Builds the fabric (aborts, saying why, on an unknown or repeated endpoint name).
     * \param topology the fabric to build
     * \return what was built
     */
    GsnFabric Install(const GsnTopology& topology);

    /**
     * \param fabric a fabric
     * \return each endpoint node once, in endpoint order
     */
    static NodeContainer GetHosts(const GsnFabric& fabric);

  private:
    std::vector<std::vector<std::string>> m_hosts; ///< endpoints sharing a node
    std::string m_routing;                         ///< routing algorithm
    bool m_deadlockCheck;                          ///< check the tables
};

} // namespace ns3

#endif /* HARP_FABRIC_HELPER_H */
