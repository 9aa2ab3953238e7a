/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnFabricHelper: turns a GsnTopology into ns-3 nodes, GSN endpoint devices, switches with
 * their ports, and cables; then fills the switches' routing tables as a fabric manager would
 * (a routing algorithm over the whole topology, refused if its channel dependency graph has
 * a cycle), or leaves them to Admin-micropacket discovery. GsnFabric is what it built.
 */
#ifndef GSN_FABRIC_HELPER_H
#define GSN_FABRIC_HELPER_H

#include "gsn-helper.h"

#include "ns3/gsn-fabric-watchdog.h"
#include "ns3/gsn-routing.h"
#include "ns3/gsn-switch.h"
#include "ns3/gsn-topology.h"

#include <string>
#include <vector>

namespace ns3
{

class GsnChannel;
class GsnNetDevice;
class GsnRemotePort;
class GsnSwitch;

/**
 * \ingroup gsn
 * \brief A GSN fabric in a simulation: nodes and devices in the topology's order.
 *
 * Split over MPI ranks (GsnFabricHelper::SetRanks), a rank builds only its own elements: the
 * containers keep every element's position, with the node of every element (node numbers
 * agree on all ranks), a GsnRemotePort naming each port of another rank's element (in
 * endpointDevices and switchPorts: GetEndpointDevice() is null for it), and a null switch
 * object for another rank's switch. IsLocalEndpoint() says which endpoints run here.
 */
class GsnFabric
{
  public:
    GsnTopology topology; ///< what was built
    /// The manager's tables: rows of the switches this process builds (all of them in one
    /// process; another rank's switch has an empty row); empty with discovery.
    GsnRoutingTables tables;
    NodeContainer endpoints;                     ///< one node per endpoint, in topology order
    NodeContainer switches;                      ///< one node per switch, in topology order
    NetDeviceContainer endpointDevices;          ///< the GsnNetDevice of each endpoint
    NetDeviceContainer switchPorts;              ///< every GsnSwitchPort
    std::vector<Ptr<GsnSwitch>> switchObjects;   ///< the GsnSwitch of each switch node
    std::vector<Mac48Address> endpointAddresses; ///< the ULA of each endpoint (every rank)
    std::vector<uint32_t> endpointElements;      ///< topology element id of each endpoint
    std::vector<uint32_t> switchElements;        ///< topology element id of each switch
    Ptr<GsnFabricWatchdog> watchdog;             ///< its deadlock watchdog (null without switches)
    std::vector<uint32_t> elementRanks;          ///< MPI rank of each topology element

    /// \param i endpoint index \return true if this process simulates it (always on one rank)
    bool IsLocalEndpoint(uint32_t i) const;

    /// \param i endpoint index \return its device (null if another rank simulates it)
    Ptr<GsnNetDevice> GetEndpointDevice(uint32_t i) const;
    /// \param name an endpoint's name in the topology \return its index (aborts if none)
    uint32_t GetEndpointIndex(const std::string& name) const;
    /// \return every port of the fabric, endpoint devices first (for link statistics; other
    /// ranks' ports as GsnRemotePorts, so that positions and random streams agree)
    NetDeviceContainer GetAllPorts() const;
    /// \return true if every switch broadcasts (RFC 2835's broadcast-capable fabric)
    bool SupportsBroadcast() const;
    /// \return how many of GetAllPorts() this process simulates (all of them on one rank)
    uint32_t GetNLocalPorts() const;
};

/**
 * \ingroup gsn
 * \brief Builds GSN fabrics from topologies.
 *
 * Endpoint devices get ULAs from Mac48Address::Allocate(); switch i gets the element address
 * 02:00:ii:ii:00:00. A cable's length comes from the topology where it gives one, else from
 * GsnChannel's Length attribute (SetChannelAttribute, Config::SetDefault or
 * --ns3::GsnChannel::Length); a length beyond the medium's limit (40 m of copper) is refused
 * with an error naming the limit. The routing algorithm ("MinHop",
 * "UpDown", "DimensionOrder") runs over the whole topology, and its tables are refused with
 * an error naming a cycle if they could deadlock. Broadcast Messages follow a spanning tree
 * of the switches (breadth first from the first switch), so each endpoint gets one copy.
 * Every fabric with switches gets a GsnFabricWatchdog, which reports deadlocks at run time.
 */
class GsnFabricHelper : public GsnHelper
{
  public:
    GsnFabricHelper();

    /**
     * Set an attribute of every GsnSwitch created.
     * \param name attribute name
     * \param value attribute value
     */
    void SetSwitchAttribute(std::string name, const AttributeValue& value);

    /**
     * Set an attribute of every GsnSwitchPort created.
     * \param name attribute name
     * \param value attribute value
     */
    void SetSwitchPortAttribute(std::string name, const AttributeValue& value);

    /**
     * Set the link mode of every port created, endpoint and switch ports alike.
     * \param mode "Micropacket" (the reference) or "Run"
     */
    void SetLinkMode(const std::string& mode);

    /// \param name "Auto" (default: the first of MinHop, DimensionOrder, UpDown whose tables
    /// cannot deadlock), "MinHop", "UpDown" or "DimensionOrder"
    void SetRoutingAlgorithm(const std::string& name);

    /// \param check refuse tables whose channel dependency graph has a cycle (default true)
    void SetDeadlockCheck(bool check);

    /**
     * Set an attribute of the GsnFabricWatchdog installed on every fabric with switches
     * (e.g. "Enabled" false: no check runs; "CheckInterval", "StallTime").
     * \param name attribute name
     * \param value attribute value
     */
    void SetWatchdogAttribute(std::string name, const AttributeValue& value);

    /**
     * \param discovery leave the tables empty and let switches discover the fabric with
     * Admin micropackets (default false: the helper is the fabric manager)
     */
    void SetDiscovery(bool discovery);

    /**
     * \param admin set the broadcast tree up with Admin micropackets (Broadcast_setup) that
     * the first endpoint sends as a fabric manager at \p at, instead of writing it into the
     * switches directly (default false)
     * \param at when the requests leave (the links must be up: a few microseconds)
     */
    void SetAdminBroadcastSetup(bool admin, Time at = MicroSeconds(5));

    /// How SetRanks() gives each element its rank.
    enum PartitionMethod
    {
        /// blocks (PartitionBlocks) for a topology a GsnTopologyBuilder made (fat tree,
        /// k-ary n-tree, mesh, torus, ring, ...: GsnTopology::GetShape() is not IRREGULAR;
        /// their endpoints are numbered by pod, subtree or slab), the graph partitioner
        /// (PartitionGraph) for any other (a file, one built or changed by hand); without
        /// METIS in the build, blocks with a warning
        AUTO,
        BLOCKS, ///< PartitionBlocks
        GRAPH,  ///< PartitionGraph (refused without METIS in the build)
    };

    /**
     * Split the fabric over \p ranks MPI ranks (ns-3's mpi module; 1: one process), by the
     * method of SetPartitionMethod() (AUTO by default). Cables between ranks are
     * GsnRemoteChannels. Each rank builds its own elements, and of the others their nodes
     * and GsnRemotePorts naming their ports, so that node and device numbers, addresses and
     * random streams agree across ranks (see GsnFabric). Install() aborts unless MPI runs
     * that many ranks (GsnMpiHelper::Enable).
     * \param ranks number of ranks (MpiInterface::GetSize())
     */
    void SetRanks(uint32_t ranks);

    /// \param method how SetRanks() partitions the fabric (default AUTO)
    void SetPartitionMethod(PartitionMethod method);

    /**
     * Give each element its rank by hand (overrides SetRanks' partition). An endpoint must
     * be on its switch's rank.
     * \param ranks one rank per topology element, each below the number of ranks
     * \param nRanks number of ranks
     */
    void SetElementRanks(const std::vector<uint32_t>& ranks, uint32_t nRanks);

    /**
     * The block partition: the endpoints, in topology order, make equal contiguous blocks
     * (the builders number endpoints by pod, subtree or grid row, so a block is a set of
     * pods, subtrees or slabs); a switch with endpoints goes to the rank most of them are
     * in, the other switches (breadth first from those) to the rank most of their placed
     * neighbours are on, and every endpoint to its switch's rank.
     * \param topology a valid topology
     * \param ranks number of ranks
     * \return the rank of each element
     */
    static std::vector<uint32_t> PartitionBlocks(const GsnTopology& topology, uint32_t ranks);

    /**
     * The graph partition: METIS splits the graph of the switches, each with its endpoints
     * contracted into it, into \p ranks parts of balanced work (a vertex weighs its cabled
     * ports and its endpoints') while cutting as few cables as it can. The same topology
     * always gives the same partition (a fixed seed). Aborts with a message when the build
     * has no METIS (HasGraphPartitioner()) or the topology has fewer switches (and
     * stand-alone endpoint pairs) than \p ranks.
     * \param topology a valid topology
     * \param ranks number of ranks
     * \return the rank of each element; every rank has at least one element
     */
    static std::vector<uint32_t> PartitionGraph(const GsnTopology& topology, uint32_t ranks);

    /**
     * The partition \p method makes (AUTO as described in PartitionMethod).
     * \param topology a valid topology
     * \param ranks number of ranks
     * \param method the method
     * \return the rank of each element
     */
    static std::vector<uint32_t> Partition(const GsnTopology& topology,
                                           uint32_t ranks,
                                           PartitionMethod method);

    /**
     * \param topology a topology
     * \param method a method
     * \return the method Partition() uses for \p topology: \p method unless AUTO; for AUTO,
     *         BLOCKS or GRAPH (BLOCKS when the build has no graph partitioner)
     */
    static PartitionMethod ChooseMethod(const GsnTopology& topology, PartitionMethod method);

    /// \return true if this build has the graph partitioner (METIS, GSN_HAVE_METIS)
    static bool HasGraphPartitioner();

    /**
     * What Partition() would refuse, without aborting (for callers that report errors
     * their own way, such as the Python bindings).
     * \param topology a valid topology
     * \param ranks number of ranks
     * \param method the method
     * \return why Partition(topology, ranks, method) would abort (no rank, the graph method
     *         without METIS, fewer switch groups than ranks), or an empty string
     */
    static std::string CheckPartition(const GsnTopology& topology,
                                      uint32_t ranks,
                                      PartitionMethod method);

    /**
     * What Install() would refuse in a rank of each element, without aborting.
     * \param topology a valid topology
     * \param ranks one rank per element (SetElementRanks, or what Partition() made)
     * \param nRanks number of ranks
     * \return why the ranks cannot be used (not one per element, a rank out of range, an
     *         endpoint on another rank than its switch, a rank with no element), or an empty
     *         string
     */
    static std::string CheckRanks(const GsnTopology& topology,
                                  const std::vector<uint32_t>& ranks,
                                  uint32_t nRanks);

    /**
     * \param topology a topology
     * \param ranks the rank of each of its elements
     * \return the number of cables whose two ends are on different ranks
     */
    static uint32_t CountCutCables(const GsnTopology& topology, const std::vector<uint32_t>& ranks);

    /**
     * Build the fabric. An invalid topology, an algorithm that does not apply, or tables
     * that could deadlock abort with a message saying why.
     * \param topology the fabric to build
     * \return what was built
     */
    GsnFabric Install(const GsnTopology& topology);

    /**
     * Assign fixed random variable streams to every port of \p fabric.
     * \param fabric a fabric built by this helper
     * \param stream first stream index
     * \return how many streams were assigned
     */
    int64_t AssignStreams(const GsnFabric& fabric, int64_t stream);

    /**
     * Compute the routes of \p fabric's topology and keep in GsnFabric::tables the rows of
     * the switches this process builds (every switch in one process; a rank of a split fabric
     * keeps its own). The algorithm gives one destination's routes at a time
     * (GsnRouting::ComputeColumns()) and the check takes them so, so no process holds the
     * whole tables beyond its own rows.
     * \param fabric a fabric whose switchObjects and switchElements are filled
     * \param routing a name GsnRouting::Create() accepts
     * \param check refuse routes whose channel dependency graph has a cycle
     * \throws std::exception (std::invalid_argument, std::runtime_error) with the reason when
     *         the algorithm is unknown or does not apply, or the routes can deadlock
     */
    static void ComputeTables(GsnFabric& fabric, const std::string& routing, bool check);

    /**
     * Fill the switches of \p fabric from routing tables computed for its topology.
     * \param fabric the fabric
     * \param tables the tables
     */
    static void InstallTables(GsnFabric& fabric, const GsnRoutingTables& tables);

    /**
     * Configure the switches of \p fabric as its fabric manager: what is behind each port,
     * the routing tables of \p fabric (GsnFabric::tables) and the broadcast tree. Install()
     * does it when discovery is off; call it again after a switch was re-initialised (Admin
     * Reset, GsnSwitch::Reinitialize) to configure it again.
     * \param fabric a fabric built by this helper without discovery
     */
    static void ConfigureSwitches(GsnFabric& fabric);

    /**
     * Set the broadcast tree of \p fabric up as a fabric manager on an endpoint does: one
     * Admin Broadcast_setup request per switch (per 64 ports), sent from endpoint
     * \p manager at \p at and routed hop by hop along a shortest path of switches. Aborts
     * with a message if a switch is more than 7 switch hops away or a port above 255 would
     * have to be named in a path (the Admin path's limits).
     * \param fabric a fabric built by this helper
     * \param manager index of the endpoint that sends the requests
     * \param at when they leave
     * \return the number of requests
     */
    static uint32_t SetUpBroadcastByAdmin(const GsnFabric& fabric, uint32_t manager, Time at);

    /**
     * The ways an Admin request from an endpoint takes to every switch: breadth first, the
     * output port at each switch crossed.
     * \param topology a fabric
     * \param endpoint the element id of the endpoint the requests leave from
     * \param[out] path for each element id, the ports (empty for the first switch and for
     *             elements out of reach)
     * \return why a switch cannot be reached by an Admin path (more than 7 switch hops, a
     *         port above 255 on the way), or an empty string
     */
    static std::string AdminPaths(const GsnTopology& topology,
                                  uint32_t endpoint,
                                  std::vector<std::vector<uint32_t>>& path);

  protected:
    /**
     * Install() with its routing refusal thrown instead of aborting: the manager's tables are
     * computed and checked before any node or device is made, so that nothing is built when
     * they are refused (the Python bindings raise ValueError from it).
     * \param topology the fabric to build
     * \param tables compute the manager's tables (false: the switches get none, as another
     *        rank's rows; the caller installs its own, as HarpFabricHelper does for the whole
     *        topology)
     * \return what was built
     * \throws std::invalid_argument "routing NAME: reason" when the algorithm is unknown or
     *         does not apply, or the routes can deadlock
     */
    GsnFabric InstallOrThrow(const GsnTopology& topology, bool tables = true);

    /**
     * Make the channel of a cable: the topology's length where it gives one (fibre above
     * the copper limit), otherwise the channel factory's Length (GsnChannel's attribute,
     * as Config::SetDefault, the command line or SetChannelAttribute set it).
     * \param cable the cable
     * \return its channel, not attached yet
     */
    Ptr<GsnChannel> CreateCable(const GsnTopology::Cable& cable) const;

    /**
     * The cable of CreateCable() as a GsnRemoteChannel, for a cable between ranks (aborts
     * naming it if the build has no MPI).
     * \param cable the cable
     * \param local what CreateCable() made of it
     * \return the channel, not attached yet
     */
    Ptr<GsnChannel> CreateRemoteCable(const GsnTopology::Cable& cable, Ptr<GsnChannel> local) const;

    /**
     * Tell every endpoint of \p fabric whether the fabric broadcasts (all its switches are
     * BroadcastCapable), for protocols that would otherwise find out by trying (HARP).
     * \param fabric a fabric built by this helper
     */
    static void NoteFabricBroadcast(const GsnFabric& fabric);

  private:
    /**
     * The routes of \p t, one destination at a time, checked for deadlock if \p check,
     * keeping the rows of \p kept only (ComputeTables()).
     * \param t the topology \param kept switch elements whose rows to keep
     * \param routing a name GsnRouting::Create() accepts \param check refuse cycles
     * \return the tables (empty rows for the other switches)
     * \throws std::exception as ComputeTables()
     */
    static GsnRoutingTables ComputeRows(const GsnTopology& t,
                                        const std::vector<uint32_t>& kept,
                                        const std::string& routing,
                                        bool check);
    /// Mark the switch ports that broadcast Messages leave by.
    static void InstallBroadcastTree(GsnFabric& fabric);
    /// \return for each switch, for each port, whether it is in the broadcast tree (a
    /// breadth-first spanning tree of the switches from the first one, and every endpoint port)
    static std::vector<std::vector<bool>> ComputeBroadcastTree(const GsnFabric& fabric);

    ObjectFactory m_switchFactory;     ///< makes GsnSwitches
    ObjectFactory m_switchPortFactory; ///< makes GsnSwitchPorts
    ObjectFactory m_watchdogFactory;   ///< makes the GsnFabricWatchdog
    std::string m_routing;             ///< routing algorithm name
    bool m_deadlockCheck;              ///< refuse cyclic tables
    bool m_discovery;                  ///< tables from discovery instead
    bool m_adminBroadcastSetup;        ///< broadcast tree set up by Admin micropackets
    Time m_adminBroadcastTime;         ///< when the manager sends them

    uint32_t m_nRanks;                 ///< MPI ranks
    PartitionMethod m_partitionMethod; ///< how SetRanks() partitions
    std::vector<uint32_t> m_byHand;    ///< ranks given by hand (empty: partition)

    /// \param topology the topology \return the rank of each element, checked
    std::vector<uint32_t> AssignRanks(const GsnTopology& topology) const;
    /**
     * What this rank keeps of another rank's port.
     * \param node its node \param ifIndex its interface index \param address its ULA
     * \param endpoint true for an endpoint \return the proxy
     */
    static Ptr<GsnRemotePort> NameRemotePort(Ptr<Node> node,
                                             uint32_t ifIndex,
                                             Mac48Address address,
                                             bool endpoint);
};

} // namespace ns3

#endif /* GSN_FABRIC_HELPER_H */
