// harp-message.cc: encoding and decoding of the HARP wire format (see harp-message.h).
#include "harp-message.h"

namespace harp
{

namespace
{

void
Put16(uint8_t* out, uint16_t value)
{
    out[0] = static_cast<uint8_t>(value >> 8);
    out[1] = static_cast<uint8_t>(value);
}

void
Put32(uint8_t* out, uint32_t value)
{
    Put16(out, static_cast<uint16_t>(value >> 16));
    Put16(out + 2, static_cast<uint16_t>(value));
}

uint16_t
Get16(const uint8_t* in)
{
    return static_cast<uint16_t>((in[0] << 8) | in[1]);
}

uint32_t
Get32(const uint8_t* in)
{
    return (uint32_t{Get16(in)} << 16) | Get16(in + 2);
}

bool
IsKnownOp(uint16_t op)
{
    switch (static_cast<Op>(op))
    {
    case Op::ArpRequest:
    case Op::ArpReply:
    case Op::InArpRequest:
    case Op::InArpReply:
    case Op::Nak:
        return true;
    }
    return false;
}

// Field offsets in the 28-byte body.
constexpr std::size_t kOffHrd = 0;
constexpr std::size_t kOffPro = 2;
constexpr std::size_t kOffHln = 4;
constexpr std::size_t kOffPln = 5;
constexpr std::size_t kOffOp = 6;
constexpr std::size_t kOffSha = 8;
constexpr std::size_t kOffSpa = 14;
constexpr std::size_t kOffTha = 18;
constexpr std::size_t kOffTpa = 24;

} // namespace

const char*
OpName(Op op)
{
    switch (op)
    {
    case Op::ArpRequest:
        return "ArpRequest";
    case Op::ArpReply:
        return "ArpReply";
    case Op::InArpRequest:
        return "InArpRequest";
    case Op::InArpReply:
        return "InArpReply";
    case Op::Nak:
        return "Nak";
    }
    return "Unknown";
}

void
Message::Serialize(uint8_t* out) const
{
    Put16(out + kOffHrd, kHardwareType);
    Put16(out + kOffPro, kProtocolType);
    out[kOffHln] = kHardwareLength;
    out[kOffPln] = kProtocolLength;
    Put16(out + kOffOp, static_cast<uint16_t>(op));
    senderUla.CopyTo(out + kOffSha);
    Put32(out + kOffSpa, senderIp.Get());
    targetUla.CopyTo(out + kOffTha);
    Put32(out + kOffTpa, targetIp.Get());
}

std::vector<uint8_t>
Message::Serialize() const
{
    std::vector<uint8_t> bytes(kMessageSize);
    Serialize(bytes.data());
    return bytes;
}

std::string
Message::ToString() const
{
    return std::string(OpName(op)) + " sha=" + senderUla.ToString() +
           " spa=" + senderIp.ToString() + " tha=" + targetUla.ToString() +
           " tpa=" + targetIp.ToString();
}

ParseResult
Parse(const uint8_t* data, std::size_t size)
{
    ParseResult result;
    if (data == nullptr || size < kMessageSize)
    {
        result.error = DropReason::Truncated;
        return result;
    }
    if (Get16(data + kOffHrd) != kHardwareType)
    {
        result.error = DropReason::BadHardwareType;
        return result;
    }
    if (Get16(data + kOffPro) != kProtocolType)
    {
        result.error = DropReason::BadProtocolType;
        return result;
    }
    if (data[kOffHln] != kHardwareLength || data[kOffPln] != kProtocolLength)
    {
        result.error = DropReason::BadAddressLength;
        return result;
    }
    const uint16_t op = Get16(data + kOffOp);
    if (!IsKnownOp(op))
    {
        result.error = DropReason::UnknownOperation;
        return result;
    }
    Message message;
    message.op = static_cast<Op>(op);
    message.senderUla = Ula::FromBytes(data + kOffSha);
    message.senderIp = Ipv4(Get32(data + kOffSpa));
    message.targetUla = Ula::FromBytes(data + kOffTha);
    message.targetIp = Ipv4(Get32(data + kOffTpa));
    result.message = message;
    return result;
}

} // namespace harp
