/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-traffic-helper.h"

#include "ns3/abort.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-remote-port.h"
#include "ns3/gsn-traffic-generator.h"
#include "ns3/gsn-traffic-stats.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnTrafficHelper");

GsnTrafficHelper::GsnTrafficHelper()
    : m_permutationRng(CreateObject<UniformRandomVariable>())
{
    m_factory.SetTypeId("ns3::GsnTrafficGenerator");
    m_statsFactory.SetTypeId("ns3::GsnTrafficStats");
}

void
GsnTrafficHelper::SetAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
GsnTrafficHelper::SetStatsAttribute(std::string name, const AttributeValue& value)
{
    m_statsFactory.Set(name, value);
}

ApplicationContainer
GsnTrafficHelper::Install(NodeContainer endpoints)
{
    NetDeviceContainer devices;
    for (uint32_t i = 0; i < endpoints.GetN(); ++i)
    {
        Ptr<Node> node = endpoints.Get(i);
        Ptr<GsnNetDevice> device;
        for (uint32_t d = 0; d < node->GetNDevices() && !device; ++d)
        {
            device = DynamicCast<GsnNetDevice>(node->GetDevice(d));
        }
        NS_ABORT_MSG_IF(!device && node->GetSystemId() != Simulator::GetSystemId(),
                        "GsnTrafficHelper::Install: node "
                            << node->GetId() << " belongs to MPI rank " << node->GetSystemId()
                            << ", which alone builds its devices; install on the fabric's "
                               "endpointDevices (they name other ranks' endpoints)");
        NS_ABORT_MSG_UNLESS(device,
                            "GsnTrafficHelper::Install: node " << node->GetId()
                                                               << " has no GsnNetDevice");
        devices.Add(device);
    }
    return Install(devices);
}

ApplicationContainer
GsnTrafficHelper::Install(NetDeviceContainer endpoints)
{
    const uint32_t n = endpoints.GetN();
    auto ulas = std::make_shared<std::vector<Mac48Address>>();
    std::vector<Ptr<GsnNetDevice>> devices; // (null: another rank's endpoint)
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<GsnNetDevice> device = DynamicCast<GsnNetDevice>(endpoints.Get(i));
        Ptr<GsnRemotePort> remote = DynamicCast<GsnRemotePort>(endpoints.Get(i));
        NS_ABORT_MSG_UNLESS((device && device->GetNode()) || (remote && remote->IsEndpoint()),
                            "GsnTrafficHelper::Install: endpoint " << i
                                                                   << " is not a GsnNetDevice "
                                                                      "on a node");
        devices.push_back(device);
        ulas->push_back(Mac48Address::ConvertFrom(endpoints.Get(i)->GetAddress()));
    }
    m_stats = m_statsFactory.Create<GsnTrafficStats>();
    m_stats->SetEndpointCount(n);
    // Generators only where the endpoint runs (another rank's endpoint is its rank's to
    // drive); each keeps its index among all, which numbers its streams.
    ApplicationContainer apps;
    const std::shared_ptr<const std::vector<Mac48Address>> shared = ulas;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!devices[i])
        {
            continue;
        }
        Ptr<GsnTrafficGenerator> generator = m_factory.Create<GsnTrafficGenerator>();
        generator->SetEndpoints(i, shared);
        generator->SetDevice(devices[i]);
        generator->SetStats(m_stats);
        devices[i]->GetNode()->AddApplication(generator);
        apps.Add(generator);
    }
    SetPermutation(apps);
    return apps;
}

Ptr<GsnTrafficStats>
GsnTrafficHelper::GetStats() const
{
    return m_stats;
}

int64_t
GsnTrafficHelper::AssignStreams(ApplicationContainer apps, int64_t stream)
{
    m_permutationRng->SetStream(stream);
    SetPermutation(apps);
    // By endpoint index, so that a generator draws the same wherever the others run.
    int64_t end = stream + 1;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<GsnTrafficGenerator> generator = DynamicCast<GsnTrafficGenerator>(apps.Get(i));
        if (generator)
        {
            const int64_t first = stream + 1 + GsnTrafficGenerator::STREAMS * generator->GetIndex();
            generator->AssignStreams(first);
            end =
                std::max(end,
                         stream + 1 + GsnTrafficGenerator::STREAMS * generator->GetEndpointCount());
        }
    }
    return end - stream;
}

void
GsnTrafficHelper::SetPermutation(ApplicationContainer apps)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<GsnTrafficGenerator> generator = DynamicCast<GsnTrafficGenerator>(apps.Get(i));
        if (generator)
        {
            n = std::max(n, generator->GetEndpointCount());
        }
    }
    const std::vector<uint32_t> permutation = DrawPermutation(n, m_permutationRng);
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<GsnTrafficGenerator> generator = DynamicCast<GsnTrafficGenerator>(apps.Get(i));
        if (generator && generator->GetIndex() < n)
        {
            generator->SetPermutationDestination(permutation[generator->GetIndex()]);
        }
    }
}

std::vector<uint32_t>
GsnTrafficHelper::DrawPermutation(uint32_t n, Ptr<UniformRandomVariable> rng)
{
    std::vector<uint32_t> p(n);
    std::iota(p.begin(), p.end(), 0);
    if (n < 2)
    {
        return p;
    }
    // Fisher-Yates, rejected until no endpoint maps to itself: about e tries on average, and
    // every such permutation is equally likely.
    while (true)
    {
        std::iota(p.begin(), p.end(), 0);
        for (uint32_t i = n - 1; i > 0; --i)
        {
            std::swap(p[i], p[rng->GetInteger(0, i)]);
        }
        bool fixedPoint = false;
        for (uint32_t i = 0; i < n && !fixedPoint; ++i)
        {
            fixedPoint = p[i] == i;
        }
        if (!fixedPoint)
        {
            return p;
        }
    }
}

} // namespace ns3
