/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMinHopRouting: shortest-path routing tables, spreading destinations over equally short
 * output ports. It gives no deadlock guarantee (rings and tori have cycles); the fabric
 * helper runs GsnDeadlockChecker on what it computes.
 */
#ifndef GSN_MIN_HOP_ROUTING_H
#define GSN_MIN_HOP_ROUTING_H

#include "gsn-routing.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Minimum-hop routing.
 *
 * Each switch sends a Message along a shortest path (counted in cables; endpoints never
 * relay). Among several equally short output ports the choice is d-mod-k style
 * (GsnRouting::SpreadChoice): fixed per destination, so a Message's micropackets and all
 * Messages to one destination take one path, and on fat trees every destination gets its own
 * top switch. Deadlock-free on trees and fat trees, not on rings or tori.
 */
class GsnMinHopRouting : public GsnRouting
{
  public:
    std::string GetName() const override;

    /**
     * \param t the fabric (any shape; it need not validate)
     * \return shortest-path tables; -1 where an endpoint is unreachable
     */
    void ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const override;
};

} // namespace ns3

#endif /* GSN_MIN_HOP_ROUTING_H */
