/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-layout-helper.h"

#include "gsn-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/gsn-topology.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnLayoutHelper");

namespace
{

/// \return the elements cabled to \p id (one entry per cable)
std::vector<uint32_t>
Neighbours(const GsnTopology& topology, uint32_t id)
{
    std::vector<uint32_t> out;
    const uint32_t ports = topology.GetElement(id).numPorts;
    for (uint32_t p = 0; p < ports; ++p)
    {
        if (auto peer = topology.GetPeer(id, p))
        {
            out.push_back(peer->first);
        }
    }
    return out;
}

} // namespace

GsnLayoutHelper::GsnLayoutHelper()
    : m_spacing(10.0)
{
}

void
GsnLayoutHelper::SetSpacing(double spacing)
{
    NS_ABORT_MSG_UNLESS(spacing > 0, "GsnLayoutHelper: the spacing must be > 0, not " << spacing);
    m_spacing = spacing;
}

std::vector<Vector>
GsnLayoutHelper::Compute(const GsnTopology& topology) const
{
    const std::vector<uint32_t> switches = topology.GetSwitches();
    const bool grid =
        !switches.empty() && std::all_of(switches.begin(), switches.end(), [&](uint32_t s) {
            return !topology.GetElement(s).coords.empty();
        });
    return grid ? ComputeGrid(topology) : ComputeLevels(topology);
}

std::vector<Vector>
GsnLayoutHelper::ComputeGrid(const GsnTopology& topology) const
{
    const uint32_t n = topology.GetNElements();
    std::vector<Vector> at(n);
    std::vector<bool> placed(n, false);
    for (uint32_t s : topology.GetSwitches())
    {
        const std::vector<int32_t>& c = topology.GetElement(s).coords;
        // A third dimension is drawn as an oblique offset (each plane a little to the right
        // and below the one before).
        const double z = c.size() > 2 ? c[2] : 0.0;
        at[s] = Vector((c[0] + 0.3 * z) * 2 * m_spacing,
                       ((c.size() > 1 ? c[1] : 0) + 0.3 * z) * 2 * m_spacing,
                       0);
        placed[s] = true;
    }
    // The endpoints of a switch in a short row below it.
    for (uint32_t s : topology.GetSwitches())
    {
        std::vector<uint32_t> endpoints;
        for (uint32_t peer : Neighbours(topology, s))
        {
            if (topology.IsEndpoint(peer) && !placed[peer])
            {
                endpoints.push_back(peer);
                placed[peer] = true;
            }
        }
        const double width = 0.8 * m_spacing;
        for (std::size_t i = 0; i < endpoints.size(); ++i)
        {
            const double offset = endpoints.size() == 1
                                      ? 0.0
                                      : (double(i) / double(endpoints.size() - 1) - 0.5) * width;
            at[endpoints[i]] = Vector(at[s].x + offset, at[s].y + 0.6 * m_spacing, 0);
        }
    }
    // Endpoints cabled to no switch: beside whatever they are cabled to, or in a row below.
    double spare = 0;
    for (uint32_t e : topology.GetEndpoints())
    {
        if (!placed[e])
        {
            at[e] = Vector(spare, -2 * m_spacing, 0);
            spare += m_spacing;
            placed[e] = true;
        }
    }
    return at;
}

std::vector<Vector>
GsnLayoutHelper::ComputeLevels(const GsnTopology& topology) const
{
    const uint32_t n = topology.GetNElements();
    constexpr uint32_t UNSEEN = std::numeric_limits<uint32_t>::max();
    // Level: hops from the nearest endpoint (breadth first from all endpoints at once).
    std::vector<uint32_t> level(n, UNSEEN);
    std::deque<uint32_t> queue;
    for (uint32_t e : topology.GetEndpoints())
    {
        level[e] = 0;
        queue.push_back(e);
    }
    while (!queue.empty())
    {
        const uint32_t id = queue.front();
        queue.pop_front();
        for (uint32_t peer : Neighbours(topology, id))
        {
            if (level[peer] == UNSEEN)
            {
                level[peer] = level[id] + 1;
                queue.push_back(peer);
            }
        }
    }
    uint32_t top = 0;
    for (uint32_t id = 0; id < n; ++id)
    {
        top = level[id] == UNSEEN ? top : std::max(top, level[id]);
    }
    for (uint32_t id = 0; id < n; ++id)
    {
        level[id] = level[id] == UNSEEN ? top + 1 : level[id]; // not connected to an endpoint
    }
    top = n == 0 ? 0 : *std::max_element(level.begin(), level.end());

    std::vector<std::vector<uint32_t>> rows(top + 1);
    for (uint32_t id = 0; id < n; ++id)
    {
        rows[level[id]].push_back(id);
    }
    // Every row spans the width of the widest, its elements evenly spread (so that a switch
    // sits above the elements it serves however many there are).
    std::size_t widest = 0;
    for (const auto& row : rows)
    {
        widest = std::max(widest, row.size());
    }
    const double width = double(widest) * m_spacing;
    std::vector<double> x(n, 0.0);
    auto spread = [&](const std::vector<uint32_t>& row) {
        for (std::size_t i = 0; i < row.size(); ++i)
        {
            x[row[i]] = ((double(i) + 0.5) / double(row.size()) - 0.5) * width;
        }
    };
    auto place = [&](std::vector<uint32_t>& row, uint32_t below) {
        // Order by the mean position of the neighbours on the row below (ties: as before).
        std::map<uint32_t, double> key;
        for (uint32_t id : row)
        {
            double sum = 0;
            uint32_t count = 0;
            for (uint32_t peer : Neighbours(topology, id))
            {
                if (level[peer] == below)
                {
                    sum += x[peer];
                    ++count;
                }
            }
            key[id] = count ? sum / count : x[id];
        }
        std::stable_sort(row.begin(), row.end(), [&](uint32_t a, uint32_t b) {
            return key[a] < key[b];
        });
        spread(row);
    };
    spread(rows[0]);
    for (uint32_t l = 1; l <= top; ++l)
    {
        place(rows[l], l - 1);
    }
    if (top >= 1)
    {
        place(rows[0], 1); // endpoints under their switches
    }
    std::vector<Vector> at(n);
    for (uint32_t id = 0; id < n; ++id)
    {
        // NetAnim's y axis points down: the endpoints at the bottom.
        at[id] = Vector(x[id], double(top - level[id]) * 2 * m_spacing, 0);
    }
    return at;
}

void
GsnLayoutHelper::Install(const GsnFabric& fabric) const
{
    const std::vector<Vector> at = Compute(fabric.topology);
    auto put = [&](Ptr<Node> node, uint32_t element) {
        Ptr<MobilityModel> mobility = node->GetObject<MobilityModel>();
        if (!mobility)
        {
            mobility = CreateObject<ConstantPositionMobilityModel>();
            node->AggregateObject(mobility);
        }
        mobility->SetPosition(at[element]);
    };
    for (uint32_t i = 0; i < fabric.endpoints.GetN(); ++i)
    {
        put(fabric.endpoints.Get(i), fabric.endpointElements[i]);
    }
    for (uint32_t i = 0; i < fabric.switches.GetN(); ++i)
    {
        put(fabric.switches.Get(i), fabric.switchElements[i]);
    }
}

} // namespace ns3
