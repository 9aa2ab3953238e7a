/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-topology-builder.h"

#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// Throw std::invalid_argument unless \p ok.
void
Require(bool ok, const std::string& why)
{
    if (!ok)
    {
        throw std::invalid_argument("GsnTopologyBuilder::" + why);
    }
}

/// \p base to the power \p exp, or MAX_ELEMENTS + 1 once it exceeds MAX_ELEMENTS.
uint64_t
BoundedPower(uint64_t base, uint32_t exp)
{
    uint64_t result = 1;
    for (uint32_t i = 0; i < exp; ++i)
    {
        result *= base;
        if (result > GsnTopologyBuilder::MAX_ELEMENTS)
        {
            return GsnTopologyBuilder::MAX_ELEMENTS + 1;
        }
    }
    return result;
}

/// Add endpoints "ep0".."ep<n-1>" (elements 0..n-1 of an empty topology).
void
AddEndpoints(GsnTopology& t, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
    {
        t.AddEndpoint("ep" + std::to_string(i));
    }
}

} // namespace

GsnTopology
GsnTopologyBuilder::Checked(GsnTopology t)
{
    const std::string why = t.Validate();
    if (!why.empty())
    {
        throw std::logic_error("GsnTopologyBuilder built an invalid topology: " + why);
    }
    return t;
}

GsnTopology
GsnTopologyBuilder::BackToBack()
{
    GsnTopology t;
    AddEndpoints(t, 2);
    t.Connect(0, 0, 1, 0);
    t.SetShape(GsnTopology::Shape::BACK_TO_BACK);
    return Checked(std::move(t));
}

GsnTopology
GsnTopologyBuilder::Star(uint32_t nEndpoints, uint32_t switchPorts)
{
    const uint32_t ports = switchPorts == 0 ? nEndpoints : switchPorts;
    Require(nEndpoints >= 1, "Star: needs at least one endpoint");
    Require(nEndpoints <= GsnTopology::MAX_PORTS, "Star: too many endpoints");
    Require(ports >= nEndpoints, "Star: the switch has fewer ports than endpoints");
    Require(ports >= GsnTopology::MIN_SWITCH_PORTS,
            "Star: a switch has at least two ports; give switchPorts >= 2 for one endpoint");
    GsnTopology t;
    AddEndpoints(t, nEndpoints);
    const uint32_t sw = t.AddSwitch(ports, "sw0");
    for (uint32_t i = 0; i < nEndpoints; ++i)
    {
        t.Connect(i, 0, sw, i);
    }
    t.SetShape(GsnTopology::Shape::STAR);
    return Checked(std::move(t));
}

GsnTopology
GsnTopologyBuilder::TwoSwitchFigure132()
{
    const std::string first = "ABCD";
    const std::string second = "EFGHJKL";
    GsnTopology t;
    for (char c : first + second)
    {
        t.AddEndpoint(std::string(1, c));
    }
    const uint32_t sw1 = t.AddSwitch(8, "sw1");
    const uint32_t sw2 = t.AddSwitch(8, "sw2");
    for (uint32_t i = 0; i < first.size(); ++i)
    {
        t.Connect(i, 0, sw1, i);
    }
    for (uint32_t i = 0; i < second.size(); ++i)
    {
        t.Connect(uint32_t(first.size()) + i, 0, sw2, i);
    }
    t.Connect(sw1, 7, sw2, 7);
    t.SetShape(GsnTopology::Shape::FIGURE_132);
    return Checked(std::move(t));
}

GsnTopology
GsnTopologyBuilder::KaryNTree(uint32_t k, uint32_t n)
{
    Require(k >= 2, "KaryNTree: k must be >= 2");
    Require(n >= 1, "KaryNTree: n must be >= 1");
    const uint64_t endpoints = BoundedPower(k, n);
    const uint64_t perLevel = BoundedPower(k, n - 1);
    Require(endpoints + perLevel * n <= MAX_ELEMENTS, "KaryNTree: too large");
    GsnTopology t;
    AddEndpoints(t, uint32_t(endpoints));
    const auto sw = [&](uint32_t level, uint64_t w) {
        return uint32_t(endpoints + level * perLevel + w);
    };
    for (uint32_t level = 0; level < n; ++level)
    {
        for (uint64_t w = 0; w < perLevel; ++w)
        {
            t.AddSwitch(2 * k, "sw" + std::to_string(level) + "." + std::to_string(w));
        }
    }
    for (uint64_t p = 0; p < endpoints; ++p)
    {
        t.Connect(uint32_t(p), 0, sw(0, p / k), uint32_t(p % k));
    }
    uint64_t digit = 1; // k^level: the weight of digit 'level' of a switch number
    for (uint32_t level = 0; level + 1 < n; ++level, digit *= k)
    {
        for (uint64_t w = 0; w < perLevel; ++w)
        {
            const uint64_t own = (w / digit) % k;
            for (uint32_t j = 0; j < k; ++j)
            {
                const uint64_t upper = w - own * digit + j * digit;
                t.Connect(sw(level, w), k + j, sw(level + 1, upper), uint32_t(own));
            }
        }
    }
    t.SetShape(GsnTopology::Shape::K_ARY_N_TREE);
    return Checked(std::move(t));
}

GsnTopology
GsnTopologyBuilder::FatTree(uint32_t k)
{
    Require(k >= 2 && k % 2 == 0, "FatTree: k must be even and >= 2");
    Require(uint64_t(k) * k * k / 4 + uint64_t(5) * k * k / 4 <= MAX_ELEMENTS,
            "FatTree: too large");
    const uint32_t half = k / 2;
    GsnTopology t;
    AddEndpoints(t, k * half * half);
    const uint32_t firstEdge = t.GetNElements();
    const uint32_t firstAgg = firstEdge + k * half;
    const uint32_t firstCore = firstAgg + k * half;
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t i = 0; i < half; ++i)
        {
            t.AddSwitch(k, "edge" + std::to_string(pod) + "." + std::to_string(i));
        }
    }
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t j = 0; j < half; ++j)
        {
            t.AddSwitch(k, "agg" + std::to_string(pod) + "." + std::to_string(j));
        }
    }
    for (uint32_t c = 0; c < half * half; ++c)
    {
        t.AddSwitch(k, "core" + std::to_string(c));
    }
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t i = 0; i < half; ++i)
        {
            const uint32_t edge = firstEdge + pod * half + i;
            for (uint32_t h = 0; h < half; ++h)
            {
                t.Connect((pod * half + i) * half + h, 0, edge, h);
            }
            for (uint32_t j = 0; j < half; ++j)
            {
                t.Connect(edge, half + j, firstAgg + pod * half + j, i);
            }
        }
        for (uint32_t j = 0; j < half; ++j)
        {
            for (uint32_t m = 0; m < half; ++m)
            {
                t.Connect(firstAgg + pod * half + j, half + m, firstCore + j * half + m, pod);
            }
        }
    }
    t.SetShape(GsnTopology::Shape::FAT_TREE);
    return Checked(std::move(t));
}

GsnTopology
GsnTopologyBuilder::Grid2D(uint32_t x, uint32_t y, uint32_t endpointsPerSwitch, bool wrap)
{
    const std::string what = wrap ? "Torus2D: " : "Mesh2D: ";
    Require(x >= 1 && y >= 1, what + "both sizes must be >= 1");
    Require(endpointsPerSwitch >= 1 && endpointsPerSwitch <= GsnTopology::MAX_PORTS - 4,
            what + "endpointsPerSwitch must be in 1.." +
                std::to_string(GsnTopology::MAX_PORTS - 4));
    const uint64_t switches = uint64_t(x) * y;
    Require(switches * (1 + endpointsPerSwitch) <= MAX_ELEMENTS, what + "too large");
    GsnTopology t;
    const uint32_t nEndpoints = uint32_t(switches) * endpointsPerSwitch;
    AddEndpoints(t, nEndpoints);
    const auto sw = [&](uint32_t i, uint32_t j) { return nEndpoints + i + x * j; };
    for (uint32_t j = 0; j < y; ++j)
    {
        for (uint32_t i = 0; i < x; ++i)
        {
            t.AddSwitch(4 + endpointsPerSwitch,
                        "sw" + std::to_string(i) + "." + std::to_string(j),
                        {int32_t(i), int32_t(j)});
        }
    }
    for (uint32_t j = 0; j < y; ++j)
    {
        for (uint32_t i = 0; i < x; ++i)
        {
            for (uint32_t h = 0; h < endpointsPerSwitch; ++h)
            {
                t.Connect((i + x * j) * endpointsPerSwitch + h, 0, sw(i, j), 4 + h);
            }
            // Port 0 (+x) to port 1 (-x) of the next switch, port 2 (+y) to port 3 (-y).
            if (i + 1 < x || (wrap && x >= 2))
            {
                t.Connect(sw(i, j), 0, sw((i + 1) % x, j), 1);
            }
            if (j + 1 < y || (wrap && y >= 2))
            {
                t.Connect(sw(i, j), 2, sw(i, (j + 1) % y), 3);
            }
        }
    }
    t.SetShape(wrap ? GsnTopology::Shape::TORUS : GsnTopology::Shape::MESH);
    return Checked(std::move(t));
}

GsnTopology
GsnTopologyBuilder::Mesh2D(uint32_t x, uint32_t y, uint32_t endpointsPerSwitch)
{
    return Grid2D(x, y, endpointsPerSwitch, false);
}

GsnTopology
GsnTopologyBuilder::Torus2D(uint32_t x, uint32_t y, uint32_t endpointsPerSwitch)
{
    return Grid2D(x, y, endpointsPerSwitch, true);
}

GsnTopology
GsnTopologyBuilder::Ring(uint32_t nSwitches, uint32_t endpointsPerSwitch)
{
    Require(nSwitches >= 1, "Ring: needs at least one switch");
    Require(endpointsPerSwitch >= 1 && endpointsPerSwitch <= GsnTopology::MAX_PORTS - 2,
            "Ring: endpointsPerSwitch must be in 1.." + std::to_string(GsnTopology::MAX_PORTS - 2));
    Require(uint64_t(nSwitches) * (1 + endpointsPerSwitch) <= MAX_ELEMENTS, "Ring: too large");
    GsnTopology t;
    const uint32_t nEndpoints = nSwitches * endpointsPerSwitch;
    AddEndpoints(t, nEndpoints);
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        t.AddSwitch(2 + endpointsPerSwitch, "sw" + std::to_string(i), {int32_t(i)});
    }
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        for (uint32_t h = 0; h < endpointsPerSwitch; ++h)
        {
            t.Connect(i * endpointsPerSwitch + h, 0, nEndpoints + i, 2 + h);
        }
        if (nSwitches >= 2)
        {
            t.Connect(nEndpoints + i, 0, nEndpoints + (i + 1) % nSwitches, 1);
        }
    }
    t.SetShape(GsnTopology::Shape::RING);
    return Checked(std::move(t));
}

} // namespace ns3
