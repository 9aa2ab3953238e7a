/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-dimension-order-routing.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The switches' grid: its size per dimension and the switch at each position.
struct Grid
{
    std::vector<uint32_t> size;     ///< n_d per dimension
    std::vector<uint32_t> switchAt; ///< linear position (dimension 0 fastest) -> switch id

    /// \return the switch at \p coords (all within the grid)
    uint32_t At(const std::vector<int32_t>& coords) const
    {
        uint64_t index = 0;
        for (std::size_t d = coords.size(); d-- > 0;)
        {
            index = index * size[d] + static_cast<uint32_t>(coords[d]);
        }
        return switchAt[index];
    }
};

std::string
CoordsText(const std::vector<int32_t>& coords)
{
    std::string text = "(";
    for (std::size_t i = 0; i < coords.size(); ++i)
    {
        text += (i ? "," : "") + std::to_string(coords[i]);
    }
    return text + ")";
}

/// Read the grid from the switches' coordinates, or say why they do not form one.
Grid
ReadGrid(const GsnTopology& t, const std::vector<uint32_t>& switches)
{
    const auto fail = [](const std::string& why) {
        throw std::invalid_argument("DimensionOrder: " + why);
    };
    Grid grid;
    const std::size_t dims = t.GetElement(switches.front()).coords.size();
    grid.size.assign(dims, 0);
    for (uint32_t s : switches)
    {
        const auto& e = t.GetElement(s);
        if (e.coords.empty() || e.coords.size() != dims)
        {
            fail("switch '" + e.name + "' has " + std::to_string(e.coords.size()) +
                 " coordinates; every switch needs the same number, at least one");
        }
        for (std::size_t d = 0; d < dims; ++d)
        {
            if (e.coords[d] < 0)
            {
                fail("switch '" + e.name + "' has a negative coordinate");
            }
            grid.size[d] = std::max(grid.size[d], static_cast<uint32_t>(e.coords[d]) + 1);
        }
    }
    uint64_t cells = 1;
    for (uint32_t n : grid.size)
    {
        cells *= n;
        if (cells > switches.size())
        {
            fail("the switches' coordinates do not fill a grid (positions are missing)");
        }
    }
    if (cells != switches.size())
    {
        fail("the switches' coordinates do not fill a grid (positions are missing)");
    }
    grid.switchAt.assign(cells, UINT32_MAX);
    for (uint32_t s : switches)
    {
        const auto& coords = t.GetElement(s).coords;
        uint64_t index = 0;
        for (std::size_t d = dims; d-- > 0;)
        {
            index = index * grid.size[d] + static_cast<uint32_t>(coords[d]);
        }
        if (grid.switchAt[index] != UINT32_MAX)
        {
            fail("switches '" + t.GetElement(grid.switchAt[index]).name + "' and '" +
                 t.GetElement(s).name + "' are both at " + CoordsText(coords));
        }
        grid.switchAt[index] = s;
    }
    return grid;
}

/// Lowest port of switch \p s cabled to element \p to, or -1.
int32_t
PortToward(const GsnTopology& t, uint32_t s, uint32_t to)
{
    for (uint32_t p = 0; p < t.GetElement(s).numPorts; ++p)
    {
        const auto peer = t.GetPeer(s, p);
        if (peer && peer->first == to)
        {
            return static_cast<int32_t>(p);
        }
    }
    return -1;
}

} // namespace

std::string
GsnDimensionOrderRouting::GetName() const
{
    return "DimensionOrder";
}

void
GsnDimensionOrderRouting::ComputeColumns(const GsnTopology& t, const ColumnSink& sink) const
{
    std::vector<int32_t> column(t.GetNElements(), -1);
    const auto switches = t.GetSwitches();
    if (switches.empty())
    {
        return; // back to back: nothing to route
    }
    const Grid grid = ReadGrid(t, switches);
    const std::size_t dims = grid.size.size();

    // A dimension wraps when a cable joins its last coordinate to its first.
    std::vector<bool> wraps(dims, false);
    for (uint32_t s : switches)
    {
        auto coords = t.GetElement(s).coords;
        for (std::size_t d = 0; d < dims; ++d)
        {
            if (grid.size[d] >= 3 && uint32_t(coords[d]) == grid.size[d] - 1)
            {
                auto first = coords;
                first[d] = 0;
                wraps[d] = wraps[d] || PortToward(t, s, grid.At(first)) >= 0;
            }
        }
    }

    for (uint32_t e : t.GetEndpoints())
    {
        const auto peer = t.GetPeer(e, 0);
        if (!peer || !t.IsSwitch(peer->first))
        {
            continue;
        }
        const auto& target = t.GetElement(peer->first).coords;
        for (uint32_t s : switches)
        {
            column[s] = -1;
            if (s == peer->first)
            {
                column[s] = static_cast<int32_t>(peer->second);
                continue;
            }
            auto next = t.GetElement(s).coords;
            std::size_t d = 0;
            while (next[d] == target[d])
            {
                ++d;
            }
            const int32_t n = static_cast<int32_t>(grid.size[d]);
            bool forward = target[d] > next[d];
            if (wraps[d])
            {
                const int32_t ahead = ((target[d] - next[d]) % n + n) % n;
                forward = ahead <= n - ahead;
            }
            next[d] = ((next[d] + (forward ? 1 : -1)) % n + n) % n;
            const int32_t port = PortToward(t, s, grid.At(next));
            if (port < 0)
            {
                throw std::invalid_argument("DimensionOrder: switch '" + t.GetElement(s).name +
                                            "' has no cable to its neighbour at " +
                                            CoordsText(next));
            }
            column[s] = port;
        }
        sink(e, column);
    }
}

} // namespace ns3
