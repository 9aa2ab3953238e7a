/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The seed's figure 1-31: one GSN switch to which every interface is attached, two logical IP
 * subnets (LIS_1 = 192.0.2.0-31: A, B, E, J, K, L; LIS_2 = 192.0.2.32-63: C, D, F, G, H) and
 * the router whose interfaces are J and H. A reaches C only through the router, although both
 * hang on the same switch; HARP will not resolve C for A. The program pings B, E and C from A
 * and prints replies, RTTs, the reply TTL (IP hops) and the path.
 *
 *        A  B  C  D  E  F  G  H  J  K  L
 *        |  |  |  |  |  |  |  |  |  |  |       H and J: one router system
 *      +----------------------------------+
 *      |              switch              |
 *      +----------------------------------+
 *
 * Usage: harp-figure-1-31 [--broadcast=1] [--count=N] [--tables=1] [--pcap=1]
 */
#include "harp-lis-scenario.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    GsnTopology topology;
    std::vector<uint32_t> hosts;
    for (const harpexample::Host& h : harpexample::HOSTS)
    {
        hosts.push_back(topology.AddEndpoint(h.name));
    }
    const uint32_t sw = topology.AddSwitch(12, "sw");
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        topology.Connect(hosts[i], 0, sw, i);
    }
    return harpexample::Main("1-31", topology, argc, argv);
}
