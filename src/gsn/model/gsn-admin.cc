/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-admin.h"

namespace ns3
{

const char*
GsnAdminCommandName(uint8_t command)
{
    switch (static_cast<GsnAdminCommand>(command & 0x7F))
    {
    case GsnAdminCommand::PING:
        return "Ping";
    case GsnAdminCommand::SET_ELEMENT_ADDRESS:
        return "Set_element_address";
    case GsnAdminCommand::RESET:
        return "Reset";
    case GsnAdminCommand::EXCHANGE_ELEMENT_TYPE:
        return "Exchange_element_type";
    case GsnAdminCommand::ULA_REQUEST:
        return "ULA_request";
    case GsnAdminCommand::READ_REGISTER:
        return "Read_register";
    case GsnAdminCommand::WRITE_REGISTER:
        return "Write_register";
    case GsnAdminCommand::ULA_LIST_REQUEST:
        return "ULA_list_request";
    case GsnAdminCommand::PORT_REMAP:
        return "Port_remap";
    case GsnAdminCommand::PORT_MAP_REQUEST:
        return "Port_map_request";
    case GsnAdminCommand::BROADCAST_SETUP:
        return "Broadcast_setup";
    case GsnAdminCommand::INVALID_COMMAND:
        return "Invalid_command";
    }
    return "Unknown";
}

void
GsnAdminPayload::Serialize(uint8_t* d) const
{
    d[0] = hopCount;
    d[1] = command;
    d[2] = uint8_t((response ? 1 : 0) | (error ? 2 : 0) | (more ? 4 : 0));
    d[3] = status;
    d[4] = uint8_t(transaction >> 24);
    d[5] = uint8_t(transaction >> 16);
    d[6] = uint8_t(transaction >> 8);
    d[7] = uint8_t(transaction);
    ula.CopyTo(d + 8);
    d[14] = uint8_t(port >> 8);
    d[15] = uint8_t(port);
    for (uint32_t i = 0; i < 8; ++i)
    {
        d[16 + i] = arg[i];
    }
    d[24] = pathIndex;
    for (uint32_t i = 0; i < MAX_PATH; ++i)
    {
        d[25 + i] = path[i];
    }
}

GsnAdminPayload
GsnAdminPayload::Deserialize(const uint8_t* d)
{
    GsnAdminPayload p;
    p.hopCount = d[0];
    p.command = d[1];
    p.response = (d[2] & 1) != 0;
    p.error = (d[2] & 2) != 0;
    p.more = (d[2] & 4) != 0;
    p.status = d[3];
    p.transaction = uint32_t(d[4]) << 24 | uint32_t(d[5]) << 16 | uint32_t(d[6]) << 8 | d[7];
    p.ula.CopyFrom(d + 8);
    p.port = uint16_t(d[14] << 8 | d[15]);
    for (uint32_t i = 0; i < 8; ++i)
    {
        p.arg[i] = d[16 + i];
    }
    p.pathIndex = d[24];
    for (uint32_t i = 0; i < MAX_PATH; ++i)
    {
        p.path[i] = d[25 + i];
    }
    return p;
}

void
GsnAdminPayload::MakeResponse(GsnAdminStatus s)
{
    response = true;
    command |= RESPONSE_BIT;
    status = uint8_t(s);
    error = s != GsnAdminStatus::OK;
    // The response crosses as many elements back as the request crossed forward.
    hopCount = pathIndex;
}

void
GsnAdminPayload::MakeInvalidCommandResponse()
{
    const uint8_t received = command;
    command = uint8_t(GsnAdminCommand::INVALID_COMMAND);
    arg.fill(0);
    arg[0] = received;
    MakeResponse(GsnAdminStatus::UNSUPPORTED);
}

GsnMicropacket
GsnAdminPayload::ToMicropacket() const
{
    GsnMicropacket mp;
    mp.type = uint8_t(GsnMicropacketType::ADMIN);
    mp.vc = 0;
    mp.tail = true;
    Serialize(mp.MutableData());
    return mp;
}

uint64_t
GsnAdminPayload::GetArg64() const
{
    uint64_t v = 0;
    for (uint8_t b : arg)
    {
        v = v << 8 | b;
    }
    return v;
}

void
GsnAdminPayload::SetArg64(uint64_t value)
{
    for (int i = 7; i >= 0; --i)
    {
        arg[i] = uint8_t(value);
        value >>= 8;
    }
}

std::ostream&
operator<<(std::ostream& os, const GsnAdminPayload& p)
{
    os << GsnAdminCommandName(p.command) << (p.response ? "_response" : "")
       << " hop=" << unsigned(p.hopCount) << " status=" << unsigned(p.status)
       << " tid=" << p.transaction << " ula=" << p.ula << " port=" << p.port
       << " pathIndex=" << unsigned(p.pathIndex);
    return os;
}

void
GsnAdminRegisters::Answer(GsnAdminPayload& p, const ReadOnly& readOnly)
{
    const bool scratch = p.port >= SCRATCH_FIRST && p.port < SCRATCH_FIRST + SCRATCH_COUNT;
    if (p.GetCommand() == GsnAdminCommand::WRITE_REGISTER)
    {
        if (scratch)
        {
            m_scratch[p.port - SCRATCH_FIRST] = p.GetArg64();
        }
        // Read-only and unknown registers refuse writes.
        p.MakeResponse(scratch ? GsnAdminStatus::OK : GsnAdminStatus::BAD_ARGUMENT);
        return;
    }
    std::optional<uint64_t> value;
    if (scratch)
    {
        value = m_scratch[p.port - SCRATCH_FIRST];
    }
    else if (readOnly)
    {
        value = readOnly(p.port);
    }
    p.SetArg64(value.value_or(0));
    p.MakeResponse(value ? GsnAdminStatus::OK : GsnAdminStatus::BAD_ARGUMENT);
}

} // namespace ns3
