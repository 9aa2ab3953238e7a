/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Admin micropackets (HIPPI-6400-SC) at an endpoint: its chain of Admin elements, the
// required commands they answer, and its own discovery (what is my neighbour; if a
// switch, which ULA do I get).
// (GsnNetDevice is written in several files, one per role; see gsn-net-device.cc for the
// list.)
#include "gsn-net-device-private.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

GSN_NET_DEVICE_LOG();

uint32_t
GsnNetDevice::SendAdminRequest(GsnAdminPayload request)
{
    request.transaction = m_nextTransaction++;
    request.response = false;
    request.pathIndex = 0;
    SendAdminMicropacket(request.ToMicropacket());
    return request.transaction;
}

void
GsnNetDevice::NotifyLinkUp()
{
    if (m_adminDiscovery)
    {
        GsnAdminPayload p;
        p.command = uint8_t(GsnAdminCommand::EXCHANGE_ELEMENT_TYPE);
        p.arg[0] = uint8_t(GsnElementType::ENDPOINT);
        p.ula = Mac48Address::ConvertFrom(GetAddress());
        SendAdminRequest(p);
    }
}

uint32_t
GsnNetDevice::SendAdminRequestFromHost(GsnAdminPayload request)
{
    request.transaction = m_nextTransaction++;
    request.response = false;
    request.pathIndex = 0;
    AdminArrives(uint32_t(m_elements.size() - 1), false, request);
    return request.transaction;
}

void
GsnNetDevice::SetAdminElements(uint32_t n)
{
    m_elements.resize(std::max<uint32_t>(n, 1));
}

uint32_t
GsnNetDevice::GetAdminElements() const
{
    return uint32_t(m_elements.size());
}

void
GsnNetDevice::ReceiveAdminMicropacket(const GsnMicropacket& mp)
{
    AdminArrives(0, true, GsnAdminPayload::Deserialize(mp.Data()));
}

void
GsnNetDevice::AdminOutward(uint32_t k, const GsnAdminPayload& p)
{
    if (k == 0)
    {
        SendAdminMicropacket(p.ToMicropacket());
        return;
    }
    AdminArrives(k - 1, false, p);
}

void
GsnNetDevice::AdminInward(uint32_t k, const GsnAdminPayload& p)
{
    if (k + 1 < m_elements.size())
    {
        AdminArrives(k + 1, true, p);
        return;
    }
    // The host: only a response that has crossed all the elements it must is its own.
    if (!p.response || p.hopCount != 0)
    {
        ++m_adminErrors;
        return;
    }
    m_adminResponseTrace(p);
}

void
GsnNetDevice::AdminArrives(uint32_t k, bool fromFabric, GsnAdminPayload p)
{
    const bool innermost = k + 1 == m_elements.size();
    if (p.response)
    {
        if (p.hopCount == 0)
        {
            if (k != 0 || !fromFabric)
            {
                ++m_adminErrors; // only the link-end element sends requests of its own
                return;
            }
            // The answer to a request the link-end element sent (SendAdminRequest, discovery).
            m_adminResponseTrace(p);
            ProcessAdminResponse(p);
            return;
        }
        // On its way back to its requester: out of the other port, one hop fewer.
        --p.hopCount;
        if (p.pathIndex > 0)
        {
            --p.pathIndex;
        }
        if (fromFabric)
        {
            AdminInward(k, p);
        }
        else
        {
            AdminOutward(k, p);
        }
        return;
    }
    if (p.hopCount != 0)
    {
        if (fromFabric && innermost)
        {
            // The innermost element's other port leads to the host, not to another element.
            ++m_adminErrors;
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            AdminOutward(k, p);
            return;
        }
        if (p.pathIndex >= GsnAdminPayload::MAX_PATH)
        {
            ++m_adminErrors; // the response could not find its way back
            p.MakeResponse(GsnAdminStatus::NO_ROUTE);
            fromFabric ? AdminOutward(k, p) : AdminInward(k, p);
            return;
        }
        // Forward out of the other port; the recorded hop lets the response cross back.
        --p.hopCount;
        p.path[p.pathIndex++] = 0;
        fromFabric ? AdminInward(k, p) : AdminOutward(k, p);
        return;
    }
    m_adminRequestTrace(p);
    if (ProcessAdminRequest(k, fromFabric, p))
    {
        // A response leaves by the port its request came in by.
        fromFabric ? AdminOutward(k, p) : AdminInward(k, p);
    }
}

bool
GsnNetDevice::ProcessAdminRequest(uint32_t k, bool fromFabric, GsnAdminPayload& p)
{
    AdminElement& element = m_elements[k];
    const bool linkEnd = k == 0;
    switch (p.GetCommand())
    {
    case GsnAdminCommand::PING:
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::SET_ELEMENT_ADDRESS:
        element.address = p.ula;
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::RESET:
        // Answer first, then re-initialise: the element forgets its address and registers;
        // the link-end element also resets the link.
        p.MakeResponse(GsnAdminStatus::OK);
        fromFabric ? AdminOutward(k, p) : AdminInward(k, p);
        element = AdminElement();
        if (linkEnd)
        {
            Simulator::Schedule(MicroSeconds(1), &GsnPortDevice::ResetLink, this);
        }
        return false;
    case GsnAdminCommand::EXCHANGE_ELEMENT_TYPE:
        if (linkEnd && fromFabric && p.pathIndex == 0)
        {
            m_neighborType = static_cast<GsnElementType>(p.arg[0]);
        }
        p.arg.fill(0);
        p.arg[0] = uint8_t(GsnElementType::ENDPOINT);
        p.ula = Mac48Address::ConvertFrom(GetAddress());
        p.MakeResponse(GsnAdminStatus::OK);
        break;
    case GsnAdminCommand::READ_REGISTER:
    case GsnAdminCommand::WRITE_REGISTER: {
        const uint64_t ports = m_elements.size() == 1 ? 1 : 2; // one GSN port, or a chain
        element.registers.Answer(p, [ports, k](uint16_t reg) -> std::optional<uint64_t> {
            switch (reg)
            {
            case 0:
                return uint64_t(GsnElementType::ENDPOINT);
            case 1:
                return ports;
            case 6:
                return k; // position in the endpoint, 0 on the link
            }
            return std::nullopt;
        });
        break;
    }
    case GsnAdminCommand::INVALID_COMMAND:
        ++m_adminErrors;
        return false;
    default:
        // ULA assignment, lists and port maps are switch commands; anything else unknown.
        p.MakeInvalidCommandResponse();
        break;
    }
    return true;
}

void
GsnNetDevice::ProcessAdminResponse(const GsnAdminPayload& p)
{
    if (p.status != uint8_t(GsnAdminStatus::OK))
    {
        return;
    }
    if (p.GetCommand() == GsnAdminCommand::EXCHANGE_ELEMENT_TYPE && p.pathIndex == 0)
    {
        m_neighborType = static_cast<GsnElementType>(p.arg[0]);
        if (m_adminDiscovery && m_adoptAssignedUla && m_neighborType == GsnElementType::SWITCH)
        {
            GsnAdminPayload request;
            request.command = uint8_t(GsnAdminCommand::ULA_REQUEST);
            SendAdminRequest(request);
        }
        // Next to another endpoint the PROM ULA stays.
    }
    else if (p.GetCommand() == GsnAdminCommand::ULA_REQUEST && m_adoptAssignedUla &&
             m_adminDiscovery)
    {
        NS_LOG_INFO(this << " adopts the ULA " << p.ula << " assigned by its switch");
        SetAddress(p.ula);
    }
}

} // namespace ns3
