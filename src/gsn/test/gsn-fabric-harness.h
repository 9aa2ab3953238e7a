/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test support shared by the switch, Admin and fabric suites: a fabric built from a
 * topology, Messages that carry their source, sequence number and a byte pattern, and a
 * checker that each arrives once, in order per (source, destination, VC), intact.
 */
#ifndef GSN_FABRIC_HARNESS_H
#define GSN_FABRIC_HARNESS_H

#include "ns3/channel.h"
#include "ns3/global-value.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-switch-port.h"
#include "ns3/gsn-switch.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/mac48-address.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <map>
#include <tuple>
#include <vector>

namespace ns3
{
namespace gsntest
{

/// EtherType of the tests' Messages (IEEE local experimental).
constexpr uint16_t HARNESS_ETHERTYPE = 0x88B5;

/// Puts the global SchedulerType back, however a test ends.
struct SchedulerGuard
{
    StringValue saved; ///< the SchedulerType before

    SchedulerGuard()
    {
        GlobalValue::GetValueByName("SchedulerType", saved);
    }

    ~SchedulerGuard()
    {
        GlobalValue::Bind("SchedulerType", saved);
    }
};

/**
 * A fabric under test with a delivery checker.
 */
class FabricHarness
{
  public:
    /// Build \p topology with \p helper.
    FabricHarness(GsnFabricHelper& helper, const GsnTopology& topology)
    {
        fabric = helper.Install(topology);
        helper.AssignStreams(fabric, 1000);
        for (uint32_t i = 0; i < fabric.endpointDevices.GetN(); ++i)
        {
            fabric.GetEndpointDevice(i)->SetReceiveCallback(
                MakeCallback(&FabricHarness::Received, this));
        }
    }

    ~FabricHarness()
    {
        Simulator::Destroy();
    }

    /// \return endpoint index of a device
    uint32_t IndexOf(Ptr<NetDevice> d) const
    {
        for (uint32_t i = 0; i < fabric.endpointDevices.GetN(); ++i)
        {
            if (fabric.endpointDevices.Get(i) == d)
            {
                return i;
            }
        }
        return UINT32_MAX;
    }

    /// Send \p size payload bytes (at least 12) from endpoint \p from to \p to on \p vc.
    bool Send(uint32_t from, uint32_t to, uint8_t vc, uint32_t size)
    {
        return SendTo(from, fabric.GetEndpointDevice(to)->GetAddress(), to, vc, size);
    }

    /// Send to an arbitrary ULA; \p to is the endpoint expected to get it (or UINT32_MAX).
    bool SendTo(uint32_t from, Address ula, uint32_t to, uint8_t vc, uint32_t size)
    {
        const auto key = std::make_tuple(from, to, vc);
        const uint32_t seq = nextSeq[key];
        std::vector<uint8_t> b(std::max<uint32_t>(size, 12));
        Put32(b, 0, from);
        Put32(b, 4, seq);
        b[8] = vc;
        const bool broadcast =
            Mac48Address::IsMatchingType(ula) && Mac48Address::ConvertFrom(ula).IsBroadcast();
        b[9] = broadcast ? 1 : 0; // (every endpoint gets a copy: counted apart, not in order)
        for (uint32_t k = 12; k < b.size(); ++k)
        {
            b[k] = uint8_t(seq * 13 + k + from);
        }
        Ptr<Packet> p = Create<Packet>(b.data(), b.size());
        p->AddPacketTag(GsnVcTag(vc));
        if (!fabric.GetEndpointDevice(from)->Send(p, ula, HARNESS_ETHERTYPE))
        {
            return false;
        }
        sentAt.emplace(std::make_tuple(from, to, vc, seq), Simulator::Now());
        ++nextSeq[key];
        ++sent;
        return true;
    }

    /// Receive callback.
    bool Received(Ptr<NetDevice> d, Ptr<const Packet> p, uint16_t, const Address&)
    {
        const uint32_t to = IndexOf(d);
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        ++delivered;
        ++deliveredTo[to];
        arrivals.push_back(Simulator::Now());
        if (b.size() < 12)
        {
            ++errors;
            return true;
        }
        const uint32_t from = Get32(b, 0);
        const uint32_t seq = Get32(b, 4);
        const uint8_t vc = b[8];
        if (b[9] == 1)
        {
            ++broadcastCopies[std::make_tuple(from, vc, seq)];
            if (!Intact(b, from, seq))
            {
                ++errors;
                ++corrupted;
            }
            return true;
        }
        order.emplace_back(from, to);
        deliveredAt.emplace(std::make_tuple(from, to, vc, seq), Simulator::Now());
        const auto key = std::make_tuple(from, to, vc);
        if (expectedSeq[key] != seq)
        {
            ++errors;
        }
        expectedSeq[key] = seq + 1;
        if (!Intact(b, from, seq))
        {
            ++errors;
            ++corrupted;
        }
        return true;
    }

    /// \return true if the payload \p b of Message \p seq from \p from has its pattern
    static bool Intact(const std::vector<uint8_t>& b, uint32_t from, uint32_t seq)
    {
        for (uint32_t k = 12; k < b.size(); ++k)
        {
            if (b[k] != uint8_t(seq * 13 + k + from))
            {
                return false;
            }
        }
        return true;
    }

    /// \return true if every Message sent to a real endpoint arrived
    bool AllDelivered() const
    {
        for (const auto& [key, n] : nextSeq)
        {
            if (std::get<1>(key) == UINT32_MAX)
            {
                continue;
            }
            auto it = expectedSeq.find(key);
            if ((it == expectedSeq.end() ? 0 : it->second) != n)
            {
                return false;
            }
        }
        return true;
    }

    /// \return true if every port holds all its credits (the whole receive buffer of its
    /// peer) and no buffered micropacket
    bool AtRest() const
    {
        NetDeviceContainer all = fabric.GetAllPorts();
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(all.Get(i));
            Ptr<GsnChannel> channel = port->GetCable();
            Ptr<GsnPortDevice> peer = channel ? channel->GetPeer(port) : nullptr;
            if (!peer)
            {
                continue;
            }
            for (uint8_t vc = 0; vc < 4; ++vc)
            {
                if (port->GetRxBufferOccupancy(vc) != 0 ||
                    port->GetTxCredits(vc) != int32_t(peer->GetRxBufferSize()))
                {
                    return false;
                }
            }
            if (port->GetUnacknowledged() != 0)
            {
                return false;
            }
        }
        return true;
    }

    static void Put32(std::vector<uint8_t>& b, uint32_t at, uint32_t v)
    {
        for (int k = 0; k < 4; ++k)
        {
            b[at + k] = uint8_t(v >> (8 * k));
        }
    }

    static uint32_t Get32(const std::vector<uint8_t>& b, uint32_t at)
    {
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k)
        {
            v |= uint32_t(b[at + k]) << (8 * k);
        }
        return v;
    }

    GsnFabric fabric;
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint32_t> nextSeq;
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint32_t> expectedSeq;
    std::map<uint32_t, uint64_t> deliveredTo;
    std::vector<std::pair<uint32_t, uint32_t>> order; ///< (from, to) in arrival order
    std::vector<Time> arrivals;
    /// when each Message was accepted, by (from, to, VC, sequence number)
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>, Time> sentAt;
    /// first delivery time of each Message, by (from, to, VC, sequence number)
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>, Time> deliveredAt;
    /// copies of each broadcast Message delivered, by (from, VC, sequence number)
    std::map<std::tuple<uint32_t, uint8_t, uint32_t>, uint32_t> broadcastCopies;
    uint64_t sent{0};
    uint64_t delivered{0};
    uint64_t errors{0};    ///< damaged, missing (a gap in the sequence) or out of order
    uint64_t corrupted{0}; ///< damaged only
};

} // namespace gsntest
} // namespace ns3

#endif /* GSN_FABRIC_HARNESS_H */
