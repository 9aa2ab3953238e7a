/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-micropacket.h"

#include "gsn-crc.h"

#include <cstring>
#include <iomanip>

namespace ns3
{

static_assert(sizeof(GsnMicropacket) <= 24, "buffers across a fabric hold many micropackets");

const char*
GsnMicropacketTypeName(uint8_t type)
{
    switch (static_cast<GsnMicropacketType>(type))
    {
    case GsnMicropacketType::RESET:
        return "Reset";
    case GsnMicropacketType::RESET_ACK:
        return "Reset_Ack";
    case GsnMicropacketType::INITIALIZE:
        return "Initialize";
    case GsnMicropacketType::INITIALIZE_ACK:
        return "Initialize_Ack";
    case GsnMicropacketType::NULL_MP:
        return "Null";
    case GsnMicropacketType::DATA:
        return "Data";
    case GsnMicropacketType::HEADER:
        return "Header";
    case GsnMicropacketType::CREDIT_ONLY:
        return "Credit-only";
    case GsnMicropacketType::ADMIN:
        return "Admin";
    }
    return "Reserved";
}

bool
GsnIsDefinedMicropacketType(uint8_t type)
{
    return std::strcmp(GsnMicropacketTypeName(type), "Reserved") != 0;
}

bool
GsnMicropacket::IsSequenced() const
{
    // Proposal (gsn-protocol-reference.rst, "Go-back-N retransmission rules"): Header, Data, Admin
    // and Credit-only are sequenced (a lost credit grant is resent); Null and the link-control
    // types are not.
    switch (GetType())
    {
    case GsnMicropacketType::HEADER:
    case GsnMicropacketType::DATA:
    case GsnMicropacketType::ADMIN:
    case GsnMicropacketType::CREDIT_ONLY:
        return true;
    default:
        return false;
    }
}

namespace
{

/// Pack the first 48 control bits (VC .. ECRC) into 6 bytes, big-endian.
void
PackControl48(const GsnMicropacket& mp, uint8_t* out)
{
    out[0] =
        uint8_t((mp.vc & 0x3) << 6 | (mp.type & 0xF) << 2 | (mp.tail ? 2 : 0) | (mp.error ? 1 : 0));
    out[1] = uint8_t((mp.vcr & 0x3) << 6 | (mp.cr & 0x3F));
    out[2] = mp.rseq;
    out[3] = mp.tseq;
    const uint16_t ecrc = mp.GetEcrc();
    out[4] = uint8_t(ecrc >> 8);
    out[5] = uint8_t(ecrc);
}

} // namespace

uint16_t
GsnMicropacket::ComputeLcrc() const
{
    uint8_t control[6];
    PackControl48(*this, control);
    uint16_t crc = gsn::Crc16Update(gsn::CRC_INITIAL, Data(), gsn::MICROPACKET_DATA_BYTES);
    return gsn::Crc16Update(crc, control, sizeof(control));
}

void
GsnMicropacket::Serialize(uint8_t* out) const
{
    std::memcpy(out, Data(), gsn::MICROPACKET_DATA_BYTES);
    uint8_t* c = out + gsn::MICROPACKET_DATA_BYTES;
    PackControl48(*this, c);
    const uint16_t sealed = IsLcrcPending() ? ComputeLcrc() : lcrc;
    c[6] = uint8_t(sealed >> 8);
    c[7] = uint8_t(sealed);
}

GsnMicropacket
GsnMicropacket::Deserialize(const uint8_t* in)
{
    GsnMicropacket mp;
    mp.SetData(in);
    const uint8_t* c = in + gsn::MICROPACKET_DATA_BYTES;
    mp.vc = c[0] >> 6;
    mp.type = (c[0] >> 2) & 0xF;
    mp.tail = (c[0] & 2) != 0;
    mp.error = (c[0] & 1) != 0;
    mp.vcr = c[1] >> 6;
    mp.cr = c[1] & 0x3F;
    mp.rseq = c[2];
    mp.tseq = c[3];
    mp.SetEcrc(uint16_t(c[4] << 8 | c[5]));
    mp.lcrc = uint16_t(c[6] << 8 | c[7]);
    return mp;
}

const uint8_t*
GsnMicropacket::ZeroData()
{
    static const std::array<uint8_t, gsn::MICROPACKET_DATA_BYTES> zeros{};
    return zeros.data();
}

void
GsnMicropacket::SetData(const uint8_t* data)
{
    // The ECRC read before the bytes change: it is what the sender computed.
    const uint16_t ecrc = GetEcrc();
    m_bytes = GsnMessageBytesRef(Create<GsnMessageBytes>(data));
    SetChunk(0);
    SetEcrc(ecrc);
}

uint8_t*
GsnMicropacket::MutableData()
{
    if (IsLcrcPending())
    {
        SealLcrc(); // what the sender sealed, before the bytes change
    }
    if (EcrcPending() || !m_bytes.Get() || m_bytes.Get()->GetReferenceCount() > 1)
    {
        SetData(Data());
    }
    return const_cast<GsnMessageBytes*>(m_bytes.Get())->GetOwnData();
}

bool
GsnMicropacket::operator==(const GsnMicropacket& o) const
{
    return std::memcmp(Data(), o.Data(), gsn::MICROPACKET_DATA_BYTES) == 0 && vc == o.vc &&
           type == o.type && tail == o.tail && error == o.error && vcr == o.vcr && cr == o.cr &&
           rseq == o.rseq && tseq == o.tseq && GetEcrc() == o.GetEcrc() && lcrc == o.lcrc;
}

std::ostream&
operator<<(std::ostream& os, const GsnMicropacket& mp)
{
    os << GsnMicropacketTypeName(mp.type) << " vc=" << unsigned(mp.vc) << " T=" << mp.tail
       << " E=" << mp.error << " vcr=" << unsigned(mp.vcr) << " cr=" << unsigned(mp.cr)
       << " rseq=" << unsigned(mp.rseq) << " tseq=" << unsigned(mp.tseq) << std::hex << " ecrc=0x"
       << mp.GetEcrc() << " lcrc=0x" << mp.lcrc << std::dec;
    return os;
}

} // namespace ns3
