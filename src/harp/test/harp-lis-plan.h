/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The seed's two LIS (figures 1-30 to 1-32) as the harp tests lay them out: which host is in
 * which LIS, its address, the router J/H and the HARP servers. Addresses follow one rule: the
 * host's letter position in the alphabet (A = 1, ..., L = 12), plus 32 in LIS_2.
 */
#ifndef HARP_LIS_PLAN_H
#define HARP_LIS_PLAN_H

#include "harp-test-network.h"

#include <string>
#include <vector>

namespace ns3
{
namespace harptest
{

/// One host of the plan.
struct PlannedHost
{
    const char* name;    ///< endpoint name
    const char* address; ///< its address
    bool lis1;           ///< in LIS_1 (else LIS_2)
};

/// A, B, E, J, K, L in LIS_1 (192.0.2.0/27); C, D, F, G, H in LIS_2 (192.0.2.32/27).
inline const std::vector<PlannedHost>&
LisPlan()
{
    static const std::vector<PlannedHost> plan = {
        {"A", "192.0.2.1", true},
        {"B", "192.0.2.2", true},
        {"C", "192.0.2.35", false},
        {"D", "192.0.2.36", false},
        {"E", "192.0.2.5", true},
        {"F", "192.0.2.38", false},
        {"G", "192.0.2.39", false},
        {"H", "192.0.2.40", false},
        {"J", "192.0.2.10", true},
        {"K", "192.0.2.11", true},
        {"L", "192.0.2.12", true},
    };
    return plan;
}

/// Figure 1-31: hosts A..L (no I) on one 12-port switch "sw", in plan order.
inline GsnTopology
Figure131()
{
    GsnTopology t;
    std::vector<uint32_t> hosts;
    for (const PlannedHost& h : LisPlan())
    {
        hosts.push_back(t.AddEndpoint(h.name));
    }
    const uint32_t sw = t.AddSwitch(12, "sw");
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        t.Connect(hosts[i], 0, sw, i);
    }
    return t;
}

/**
 * Give every host of the plan its address and, when \p defaultRoutes, its default route
 * through the router (J in LIS_1, H in LIS_2); the router J/H forwards. Servers when
 * \p servers: J and B for LIS_1, H and D for LIS_2 (the router's daemon serves both LIS).
 */
inline HarpInterfaceContainer
SetUpLis(Network& net, HarpHelper& harp, bool servers, bool defaultRoutes = true)
{
    for (const PlannedHost& h : LisPlan())
    {
        net.Assign(h.name, h.address);
    }
    for (const PlannedHost& h : LisPlan())
    {
        if (defaultRoutes && std::string(h.name) != "J" && std::string(h.name) != "H")
        {
            net.SetDefaultRoute(h.name, h.lis1 ? "192.0.2.10" : "192.0.2.40");
        }
    }
    if (servers)
    {
        for (const char* s : {"J", "B", "H", "D"})
        {
            harp.AddServer(net.Device(s));
        }
    }
    return net.InstallHarp(harp);
}

} // namespace harptest
} // namespace ns3

#endif /* HARP_LIS_PLAN_H */
