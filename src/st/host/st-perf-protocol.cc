/*
 * st-perf-protocol.cc: hello, report and data pattern of the ST test programs (see
 * st-perf-protocol.h).
 */
#include "st-perf-protocol.h"

#include <endian.h>

namespace ns3
{
namespace st
{

namespace
{
constexpr char HELLO[8] = {'S', 'T', 'P', 'E', 'R', 'F', '1', 0};
constexpr char REPORT[8] = {'S', 'T', 'R', 'E', 'P', 'T', '1', 0};
constexpr std::size_t PAGE = 4096;
constexpr uint64_t STAMP_TAG = 0x5354000000000000ULL; // "ST" in the top bytes

void
Put64(uint8_t* p, uint64_t v)
{
    v = htole64(v);
    std::memcpy(p, &v, 8);
}

uint64_t
Get64(const uint8_t* p)
{
    uint64_t v = 0;
    std::memcpy(&v, p, 8);
    return le64toh(v);
}

/// The word at byte offset \p o (a multiple of 8) when it is no stamp.
uint64_t
Word(uint64_t o)
{
    uint64_t x = (o + 1) * 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
}
} // namespace

void
StPerfHello::Encode(uint8_t* out) const
{
    std::memset(out, 0, ST_PERF_MESSAGE);
    std::memcpy(out, HELLO, 8);
    Put64(out + 8, static_cast<uint64_t>(kind));
    Put64(out + 16, size);
    Put64(out + 24, count);
    Put64(out + 32, outstanding);
    Put64(out + 40, verify);
}

bool
StPerfHello::Decode(const uint8_t* in)
{
    if (std::memcmp(in, HELLO, 8) != 0)
    {
        return false;
    }
    kind = static_cast<StPerfKind>(Get64(in + 8));
    size = Get64(in + 16);
    count = Get64(in + 24);
    outstanding = static_cast<uint32_t>(Get64(in + 32));
    verify = static_cast<uint32_t>(Get64(in + 40));
    return true;
}

void
StPerfReport::Encode(uint8_t* out) const
{
    std::memset(out, 0, ST_PERF_MESSAGE);
    std::memcpy(out, REPORT, 8);
    Put64(out + 8, good);
    Put64(out + 16, bad);
    Put64(out + 24, unknownKey);
    Put64(out + 32, outsideMemory);
    Put64(out + 40, rejectsSent);
    Put64(out + 48, guardIntact);
}

bool
StPerfReport::Decode(const uint8_t* in)
{
    if (std::memcmp(in, REPORT, 8) != 0)
    {
        return false;
    }
    good = Get64(in + 8);
    bad = Get64(in + 16);
    unknownKey = Get64(in + 24);
    outsideMemory = Get64(in + 32);
    rejectsSent = Get64(in + 40);
    guardIntact = Get64(in + 48);
    return true;
}

void
StPerfPattern::Fill(uint8_t* p, std::size_t len, uint64_t stamp)
{
    std::size_t o = 0;
    for (; o + 8 <= len; o += 8)
    {
        Put64(p + o, Word(o));
    }
    for (; o < len; ++o)
    {
        p[o] = static_cast<uint8_t>(Word(o & ~std::size_t(7)) >> (8 * (o & 7)));
    }
    Stamp(p, len, stamp);
}

void
StPerfPattern::Stamp(uint8_t* p, std::size_t len, uint64_t stamp)
{
    for (std::size_t o = 0; o + 8 <= len; o += PAGE)
    {
        Put64(p + o, STAMP_TAG | stamp);
    }
}

bool
StPerfPattern::Check(const uint8_t* p, std::size_t len, uint64_t& stamp)
{
    stamp = len >= 8 ? Get64(p) : UINT64_MAX;
    if (len >= 8 && (stamp & 0xFFFF000000000000ULL) != STAMP_TAG)
    {
        return false;
    }
    stamp &= ~0xFFFF000000000000ULL;
    std::size_t o = 0;
    for (; o + 8 <= len; o += 8)
    {
        const uint64_t want = o % PAGE == 0 ? (STAMP_TAG | stamp) : Word(o);
        if (Get64(p + o) != want)
        {
            return false;
        }
    }
    for (; o < len; ++o)
    {
        if (p[o] != static_cast<uint8_t>(Word(o & ~std::size_t(7)) >> (8 * (o & 7))))
        {
            return false;
        }
    }
    return true;
}

} // namespace st
} // namespace ns3
