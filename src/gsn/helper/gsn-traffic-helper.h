/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTrafficHelper: puts one GsnTrafficGenerator on every endpoint of a study, tells each
 * its index and the ULAs of all, draws the run's random permutation, and creates the
 * GsnTrafficStats the generators share. It builds no topology.
 */
#ifndef GSN_TRAFFIC_HELPER_H
#define GSN_TRAFFIC_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

class GsnTrafficStats;
class UniformRandomVariable;

/**
 * \ingroup gsn
 * \brief Installs traffic generators on GSN endpoints and gives them shared statistics.
 *
 * \code
 *   GsnTrafficHelper traffic;
 *   traffic.SetAttribute("Pattern", StringValue("UniformRandom"));
 *   traffic.SetAttribute("OfferedLoad", DoubleValue(0.5));
 *   ApplicationContainer apps = traffic.Install(endpointNodes);
 *   traffic.AssignStreams(apps, 1000);
 *   apps.Start(MicroSeconds(10));
 *   apps.Stop(MilliSeconds(1));
 *   Ptr<GsnTrafficStats> stats = traffic.GetStats();
 *   stats->SetAttribute("WindowStart", TimeValue(MicroSeconds(100)));
 *   stats->AddLinks(ports); // optional: utilisation and credit stalls
 *   Simulator::Run();
 *   stats->Print(std::cout);
 * \endcode
 */
class GsnTrafficHelper
{
  public:
    GsnTrafficHelper();

    /**
     * Set an attribute of every GsnTrafficGenerator created.
     * \param name attribute name
     * \param value attribute value
     */
    void SetAttribute(std::string name, const AttributeValue& value);

    /**
     * Set an attribute of the GsnTrafficStats created by Install().
     * \param name attribute name
     * \param value attribute value
     */
    void SetStatsAttribute(std::string name, const AttributeValue& value);

    /**
     * One generator per node, on the node's first GsnNetDevice; endpoint i is the i-th node.
     * \param endpoints the endpoint nodes of the study
     * \return the generators, in the order of \p endpoints
     */
    ApplicationContainer Install(NodeContainer endpoints);

    /**
     * One generator per device, on the device's node; endpoint i is the i-th device. In a
     * fabric split over MPI ranks, \p endpoints may name other ranks' endpoints
     * (GsnRemotePort, as GsnFabric::endpointDevices does): they are destinations, and their
     * ranks make their generators.
     * \param endpoints GsnNetDevices of the study
     * \return the generators of this rank's endpoints, in the order of \p endpoints
     */
    ApplicationContainer Install(NetDeviceContainer endpoints);

    /// \return the statistics shared by the generators of the last Install()
    Ptr<GsnTrafficStats> GetStats() const;

    /**
     * Fix the random streams: stream \p stream draws the permutation again, the generator
     * of endpoint i takes the five from stream + 1 + 5 i (whichever rank runs it).
     * \param apps generators made by one Install() of this helper
     * \param stream first stream index
     * \return how many streams were assigned
     */
    int64_t AssignStreams(ApplicationContainer apps, int64_t stream);

    /**
     * Draw a permutation of 0..n-1 without fixed points (uniform over those), so that
     * nobody sends to itself. For n = 1 the identity.
     * \param n number of endpoints
     * \param rng source of randomness
     * \return destination of each endpoint
     */
    static std::vector<uint32_t> DrawPermutation(uint32_t n, Ptr<UniformRandomVariable> rng);

  private:
    /// Give the generators of \p apps a new permutation drawn from m_permutationRng.
    void SetPermutation(ApplicationContainer apps);

    ObjectFactory m_factory;                     ///< makes GsnTrafficGenerators
    ObjectFactory m_statsFactory;                ///< makes GsnTrafficStats
    Ptr<GsnTrafficStats> m_stats;                ///< statistics of the last Install()
    Ptr<UniformRandomVariable> m_permutationRng; ///< draws permutations
};

} // namespace ns3

#endif /* GSN_TRAFFIC_HELPER_H */
