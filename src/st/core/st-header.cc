/*
 * st-header.cc: the exact big-endian codec of the 40-byte ST header (see st-header.h).
 */
#include "st-header.h"

#include <cstdio>

namespace ns3
{
namespace st
{

namespace
{

void
Put16(uint8_t* p, uint16_t v)
{
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

void
Put32(uint8_t* p, uint32_t v)
{
    p[0] = static_cast<uint8_t>(v >> 24);
    p[1] = static_cast<uint8_t>(v >> 16);
    p[2] = static_cast<uint8_t>(v >> 8);
    p[3] = static_cast<uint8_t>(v);
}

uint16_t
Get16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

uint32_t
Get32(const uint8_t* p)
{
    return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
           (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

} // namespace

const char*
StDecodeStatusName(StDecodeStatus status)
{
    switch (status)
    {
    case StDecodeStatus::Ok:
        return "Ok";
    case StDecodeStatus::Truncated:
        return "Truncated";
    case StDecodeStatus::UnknownOp:
        return "UnknownOp";
    case StDecodeStatus::LocalOp:
        return "LocalOp";
    case StDecodeStatus::BadFlags:
        return "BadFlags";
    case StDecodeStatus::BadField:
        return "BadField";
    }
    return "?";
}

const char*
StOpName(StOp op)
{
    switch (op)
    {
    case StOp::Rc:
        return "RC";
    case StOp::Ca:
        return "CA";
    case StOp::Rd:
        return "RD";
    case StOp::Da:
        return "DA";
    case StOp::Dc:
        return "DC";
    case StOp::Nop:
        return "NOP";
    case StOp::Rmr:
        return "RMR";
    case StOp::Mra:
        return "MRA";
    case StOp::Get:
        return "GET";
    case StOp::Rts:
        return "RTS";
    case StOp::Ra:
        return "RA";
    case StOp::Rtr:
        return "RTR";
    case StOp::Cts:
        return "CTS";
    case StOp::Data:
        return "DATA";
    case StOp::Rs:
        return "RS";
    case StOp::Rsr:
        return "RSR";
    case StOp::End:
        return "END";
    case StOp::Ea:
        return "EA";
    }
    return "?";
}

bool
StOpIsWireOp(uint8_t op)
{
    switch (op)
    {
    case 0x01:
    case 0x02:
    case 0x03:
    case 0x04:
    case 0x05:
    case 0x10:
    case 0x13:
    case 0x14:
    case 0x15:
    case 0x16:
    case 0x17:
    case 0x18:
    case 0x1A:
    case 0x1B:
    case 0x1C:
    case 0x1D:
    case 0x1E:
    case 0x1F:
        return true;
    default:
        return false;
    }
}

bool
StHeader::UsesSlot(bool rsRsrUseSlots) const
{
    switch (op)
    {
    case StOp::Rc:
    case StOp::Nop:
        return false;
    case StOp::Data:
        return !Has(StFlag::SILENT);
    case StOp::Rs:
    case StOp::Rsr:
        return rsRsrUseSlots;
    default:
        return true;
    }
}

std::string
StHeader::Name() const
{
    if (op == StOp::Get)
    {
        switch (GetFetchOp())
        {
        case StFetchOp::None:
            return "GET";
        case StFetchOp::Complete:
            return "FC";
        default:
            return "FETCHOP";
        }
    }
    return StOpName(op);
}

std::string
StHeader::ToString() const
{
    char buf[256];
    std::snprintf(buf,
                  sizeof(buf),
                  "%s flags=0x%03x param=%u ports=%u<-%u key=0x%08x mx=%u bufx=%u off=%u "
                  "sync=%u bnum=%u did=%u sid=%u",
                  Name().c_str(),
                  flags,
                  param,
                  dPort,
                  sPort,
                  dKey,
                  mx,
                  bufx,
                  offset,
                  sync,
                  bNum,
                  dId,
                  sId);
    return buf;
}

uint16_t
StHeader::ComputeChecksum(const uint8_t* header)
{
    uint32_t sum = 0;
    for (std::size_t i = 0; i < ST_HEADER_SIZE; i += 2)
    {
        if (i != 12) // the checksum field itself counts as 0
        {
            sum += Get16(header + i);
        }
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    const auto checksum = static_cast<uint16_t>(~sum & 0xFFFF);
    return checksum == 0 ? 0xFFFF : checksum;
}

void
StHeader::SealChecksum(uint8_t* header)
{
    Put16(header + 12, ComputeChecksum(header));
}

bool
StHeader::ChecksumOk(const uint8_t* header)
{
    const uint16_t sent = Get16(header + 12);
    return sent == 0 || sent == ComputeChecksum(header);
}

void
StHeader::Encode(uint8_t* out) const
{
    Put16(out + 0,
          static_cast<uint16_t>((static_cast<uint16_t>(op) << 11) | (flags & StFlag::MASK)));
    Put16(out + 2, param);
    Put16(out + 4, dPort);
    Put16(out + 6, sPort);
    Put32(out + 8, dKey);
    Put16(out + 12, checksum);
    Put16(out + 14, mx);
    Put32(out + 16, bufx);
    Put32(out + 20, offset);
    Put32(out + 24, sync);
    Put32(out + 28, bNum);
    Put32(out + 32, dId);
    Put32(out + 36, sId);
}

StDecodeStatus
StHeader::Validate() const
{
    const uint8_t raw = static_cast<uint8_t>(op);
    if (raw >= 0x06 && raw <= 0x09)
    {
        return StDecodeStatus::LocalOp;
    }
    if (!StOpIsWireOp(raw))
    {
        return StDecodeStatus::UnknownOp;
    }
    StFetchOp fo = GetFetchOp();
    if (op != StOp::Get)
    {
        return fo == StFetchOp::None ? StDecodeStatus::Ok : StDecodeStatus::BadFlags;
    }
    switch (fo)
    {
    case StFetchOp::None:
    case StFetchOp::Complete:
        return StDecodeStatus::Ok;
    case StFetchOp::Increment:
    case StFetchOp::Decrement:
    case StFetchOp::Clear:
        // A FETCHOP moves exactly one 64-bit block [C] SEED-GSN Table 1-9.
        return param == 8 ? StDecodeStatus::Ok : StDecodeStatus::BadField;
    default:
        return StDecodeStatus::BadFlags;
    }
}

StDecodeStatus
StHeader::Decode(const uint8_t* data, std::size_t len, StHeader& out)
{
    if (data == nullptr || len < ST_HEADER_SIZE)
    {
        return StDecodeStatus::Truncated;
    }
    uint16_t opFlags = Get16(data);
    StHeader h;
    h.op = static_cast<StOp>(opFlags >> 11);
    h.flags = opFlags & StFlag::MASK;
    h.param = Get16(data + 2);
    h.dPort = Get16(data + 4);
    h.sPort = Get16(data + 6);
    h.dKey = Get32(data + 8);
    h.checksum = Get16(data + 12);
    h.mx = Get16(data + 14);
    h.bufx = Get32(data + 16);
    h.offset = Get32(data + 20);
    h.sync = Get32(data + 24);
    h.bNum = Get32(data + 28);
    h.dId = Get32(data + 32);
    h.sId = Get32(data + 36);
    StDecodeStatus s = h.Validate();
    if (s == StDecodeStatus::Ok)
    {
        out = h;
    }
    return s;
}

bool
StHeader::operator==(const StHeader& o) const
{
    return op == o.op && flags == o.flags && param == o.param && dPort == o.dPort &&
           sPort == o.sPort && dKey == o.dKey && checksum == o.checksum && mx == o.mx &&
           bufx == o.bufx && offset == o.offset && sync == o.sync && bNum == o.bNum &&
           dId == o.dId && sId == o.sId;
}

} // namespace st
} // namespace ns3
