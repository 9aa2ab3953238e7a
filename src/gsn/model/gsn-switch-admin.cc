/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Admin micropackets (HIPPI-6400-SC): forwarding by the recorded path, the requests a
// switch answers (ULA assignment, registers, routes, the broadcast tree), the endpoints it
// learns, and re-initialisation on a RESET.
// (GsnSwitch is written in several files, one per role; see gsn-switch.cc for the list.)
#include "gsn-switch-port.h"
#include "gsn-switch-private.h"

#include "ns3/channel.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_SWITCH_LOG();

Mac48Address
GsnSwitch::AssignedUla(uint32_t port) const
{
    // Locally administered: 02:<element address bytes 2-3>:<port 16 bits>:<element byte 5>.
    uint8_t a[6];
    m_address.CopyTo(a);
    uint8_t b[6] = {0x02, a[2], a[3], uint8_t(port >> 8), uint8_t(port), a[5]};
    Mac48Address ula;
    ula.CopyFrom(b);
    return ula;
}

void
GsnSwitch::LearnEndpoint(uint32_t port, Mac48Address ula, bool assigned)
{
    if (ula.IsBroadcast() || ula == Mac48Address())
    {
        return;
    }
    if (m_assigned[port] && !assigned)
    {
        return; // the endpoint asked for a ULA and uses it; older answers are stale
    }
    if (m_endpointUla[port] != Mac48Address() && m_endpointUla[port] != ula)
    {
        EraseRoute(Key(m_endpointUla[port])); // the endpoint changed its ULA
    }
    m_endpointUla[port] = ula;
    m_assigned[port] = m_assigned[port] || assigned;
    SetRoute(ula, port, 1);
}

void
GsnSwitch::SendAdmin(uint32_t port, const GsnAdminPayload& p)
{
    m_ports[port]->SendAdmin(p.ToMicropacket());
}

void
GsnSwitch::ReceiveAdmin(uint32_t port, const GsnMicropacket& mp)
{
    GsnAdminPayload p = GsnAdminPayload::Deserialize(mp.Data());
    m_adminTrace(port, p);
    if (p.hopCount == 0)
    {
        if (p.response)
        {
            ProcessAdminResponse(port, p);
        }
        else
        {
            ProcessAdminRequest(port, p);
        }
        return;
    }
    // Forward by the recorded path: a request takes the port its originator wrote and
    // leaves its arrival port in its place; a response walks the path back.
    uint32_t out = 0;
    if (!p.response)
    {
        if (p.pathIndex >= GsnAdminPayload::MAX_PATH || p.path[p.pathIndex] >= m_ports.size())
        {
            ++m_adminErrors;
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            SendAdmin(port, p);
            return;
        }
        out = p.path[p.pathIndex];
        if (!m_ports[out]->GetChannel())
        {
            // Nothing there: say so now rather than leave the request unanswered.
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            SendAdmin(port, p);
            return;
        }
        p.path[p.pathIndex] = uint8_t(port);
        ++p.pathIndex;
    }
    else
    {
        if (p.pathIndex == 0 || p.pathIndex > GsnAdminPayload::MAX_PATH ||
            p.path[p.pathIndex - 1] >= m_ports.size())
        {
            ++m_adminErrors; // a response with no way back: dropped
            return;
        }
        --p.pathIndex;
        out = p.path[p.pathIndex];
    }
    --p.hopCount;
    SendAdmin(out, p);
}

void
GsnSwitch::ProcessAdminRequest(uint32_t port, GsnAdminPayload p)
{
    const bool direct = p.pathIndex == 0; // the requester is this port's neighbour
    switch (p.GetCommand())
    {
    case GsnAdminCommand::PING:
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::SET_ELEMENT_ADDRESS:
        m_address = p.ula;
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::RESET:
        // Answer first (the response needs no state), then re-initialise.
        p.MakeResponse(GsnAdminStatus::OK);
        SendAdmin(port, p);
        Reinitialize();
        return;
    case GsnAdminCommand::EXCHANGE_ELEMENT_TYPE:
        if (direct)
        {
            m_neighbor[port] = static_cast<NeighborType>(p.arg[0]);
            if (m_neighbor[port] == NeighborType::ENDPOINT)
            {
                LearnEndpoint(port, p.ula, false);
            }
        }
        p.arg.fill(0);
        p.arg[0] = uint8_t(GsnElementType::SWITCH);
        p.arg[1] = uint8_t(m_ports.size() >> 8); // the map needs its ports
        p.arg[2] = uint8_t(m_ports.size());
        p.port = uint16_t(port); // and which one the way arrived at
        p.ula = m_address;
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::ULA_REQUEST:
        p.ula = AssignedUla(port);
        if (direct)
        {
            LearnEndpoint(port, p.ula, true);
        }
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::READ_REGISTER:
    case GsnAdminCommand::WRITE_REGISTER:
        m_registers.Answer(p, [this](uint16_t reg) -> std::optional<uint64_t> {
            switch (reg)
            {
            case 0:
                return uint64_t(GsnElementType::SWITCH);
            case 1:
                return m_ports.size();
            case 2:
                return uint64_t(m_latency.GetNanoSeconds());
            case 3:
                return m_broadcastCapable ? 1 : 0;
            case 4:
                return m_routeKeys.size();
            case 5:
                return BroadcastMask(0);
            }
            return std::nullopt;
        });
        break;
    case GsnAdminCommand::ULA_LIST_REQUEST:
        SendUlaList(port, p);
        return;
    case GsnAdminCommand::PORT_REMAP:
        if (p.port < m_ports.size())
        {
            SetRoute(p.ula, p.port, 0xFF);
            p.MakeResponse(GsnAdminStatus::OK);
        }
        else
        {
            p.MakeResponse(GsnAdminStatus::BAD_ARGUMENT);
        }
        break;
    case GsnAdminCommand::PORT_MAP_REQUEST: {
        const int32_t route = GetRoute(p.ula);
        p.port = route < 0 ? 0xFFFF : uint16_t(route);
        p.MakeResponse(route < 0 ? GsnAdminStatus::BAD_ARGUMENT : GsnAdminStatus::OK);
        break;
    }
    case GsnAdminCommand::BROADCAST_SETUP:
        p.MakeResponse(SetBroadcastMask(p.port, p.GetArg64()) ? GsnAdminStatus::OK
                                                              : GsnAdminStatus::BAD_ARGUMENT);
        break;
    case GsnAdminCommand::INVALID_COMMAND:
        ++m_adminErrors; // someone reports our request as invalid; nothing to answer
        return;
    default:
        p.MakeInvalidCommandResponse(); // unknown: answer Invalid_command naming the code
        break;
    }
    SendAdmin(port, p);
}

uint64_t
GsnSwitch::BroadcastMask(uint32_t first) const
{
    uint64_t mask = 0;
    for (uint32_t i = 0; i < 64 && first + i < m_ports.size(); ++i)
    {
        mask |= uint64_t(m_inTree[first + i] ? 1 : 0) << i;
    }
    return mask;
}

bool
GsnSwitch::SetBroadcastMask(uint32_t first, uint64_t mask)
{
    // A bit for a port the switch does not have refuses the whole request.
    for (uint32_t i = 0; i < 64; ++i)
    {
        if ((mask >> i & 1) != 0 && first + i >= m_ports.size())
        {
            ++m_adminErrors;
            return false;
        }
    }
    for (uint32_t i = 0; i < 64 && first + i < m_ports.size(); ++i)
    {
        m_inTree[first + i] = (mask >> i & 1) != 0;
    }
    return true;
}

void
GsnSwitch::SendUlaList(uint32_t port, GsnAdminPayload request)
{
    // One response per route (ULA in bytes 8-13, distance in byte 16, index in the port
    // field); "more" is set on all but the last. In ULA order, so that runs are reproducible.
    if (m_routeKeys.empty())
    {
        GsnAdminPayload p = request;
        p.ula = Mac48Address("00:00:00:00:00:00");
        p.port = 0xFFFF;
        p.MakeResponse(GsnAdminStatus::OK);
        SendAdmin(port, p);
        return;
    }
    for (uint32_t i = 0; i < m_routeKeys.size(); ++i)
    {
        const Route route = RouteAt(i);
        GsnAdminPayload p = request;
        uint8_t b[6];
        for (int k = 5; k >= 0; --k)
        {
            b[k] = uint8_t(route.ula >> (8 * (5 - k)));
        }
        p.ula.CopyFrom(b);
        p.port = uint16_t(i);
        p.arg.fill(0);
        // Distance from this switch, or 0xFF when a manager set the route without one.
        p.arg[0] = route.port == port ? 0xFF : route.distance;
        p.more = i + 1 < m_routeKeys.size();
        p.MakeResponse(GsnAdminStatus::OK);
        SendAdmin(port, p);
    }
}

void
GsnSwitch::Reinitialize()
{
    NS_LOG_INFO(this << " re-initialised" << (m_discovery ? ", discovery restarts" : ""));
    ++m_resets;
    ClearRoutes();
    std::fill(m_neighbor.begin(), m_neighbor.end(), NeighborType::UNKNOWN);
    std::fill(m_inTree.begin(), m_inTree.end(), false);
    std::fill(m_endpointUla.begin(), m_endpointUla.end(), Mac48Address());
    std::fill(m_assigned.begin(), m_assigned.end(), false);
    m_registers = GsnAdminRegisters();
    m_address = m_initialAddress;
    m_discoveryEvent.Cancel();
    m_discoveryComplete = false;
    m_discoveryRounds = 0;
    m_quietRounds = 0;
    m_sweeping = false;
    m_probes.clear();
    m_probesPending = 0;
    m_sweepMap.clear();
    m_map.clear();
    if (m_discovery)
    {
        // As at power-on: links are up already, so the first round may run at once.
        m_discoveryEvent = Simulator::ScheduleNow(&GsnSwitch::DiscoveryRound, this);
    }
}

uint32_t
GsnSwitch::GetResets() const
{
    return m_resets;
}

} // namespace ns3
