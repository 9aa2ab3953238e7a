// harp-fuzz-setup.h: the HARP engines the client and server fuzz targets drive and the seed
// generator records, configured once here so that recorded frames fit the fuzzed engines
// (the same ULAs, addresses and LIS), and the checks run after every step.
//
// Record ctl (see fuzz-common.h): bits 0-2 the action, bits 3-4 the source ULA of a frame,
// bit 7 the unit of dt (0: 10 ms, 1: 1 min).
#ifndef GSN_FUZZ_HARP_SETUP_H
#define GSN_FUZZ_HARP_SETUP_H

#include "fuzz-common.h"
#include "harp-client.h"
#include "harp-server.h"

namespace gsnfuzz
{

namespace harpsetup
{

using namespace harp;

enum Action : uint8_t
{
    FRAME = 0,   ///< bytes: a received frame
    RESOLVE = 1, ///< bytes 0-3: an address to resolve (client) or look up (server)
    ADD_STATIC = 2,
    REMOVE_STATIC = 3,
    TIME = 4, ///< only advance the clock
};

/// Source of a frame: bits 3-4 of ctl.
enum Source : uint8_t
{
    FROM_SENDER = 0, ///< the sender ULA the frame claims (bytes 8-13), as hosts do
    FROM_S1 = 1,
    FROM_S2 = 2,
    FROM_OTHER = 3,
};

inline Ula
MakeUla(uint8_t n)
{
    return Ula(Ula::Bytes{0x02, 0x00, 0x00, 0x00, 0x00, n});
}

inline Ipv4
Ip(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    return Ipv4(uint32_t(a) << 24 | uint32_t(b) << 16 | uint32_t(c) << 8 | d);
}

inline const Ula kOwn = MakeUla(0x0a);
inline const Ula kS1 = MakeUla(0x01);
inline const Ula kS2 = MakeUla(0x02);

inline ClientConfig
ClientSetup(FabricMode mode)
{
    ClientConfig c;
    c.ula = kOwn;
    c.address = Ip(192, 0, 2, 10);
    c.lis = *Subnet::Parse("192.0.2.0/27");
    c.servers = {kS1, kS2};
    c.mode = mode;
    c.statics = {StaticEntry{Ip(192, 0, 2, 20), MakeUla(20)}};
    return c;
}

inline ServerConfig
ServerSetup()
{
    ServerConfig c;
    c.ula = kS1;
    c.lis = {ServedLis{*Subnet::Parse("192.0.2.0/27"), Ip(192, 0, 2, 1)},
             ServedLis{*Subnet::Parse("192.0.2.32/27"), Ip(192, 0, 2, 33)}};
    c.statics = {StaticEntry{Ip(192, 0, 2, 20), MakeUla(20)}};
    return c;
}

/// \return the time step of a record
inline TimeNs
Step(const Record& r)
{
    return TimeNs(r.dt) * ((r.ctl & 0x80) ? kMinute : 10 * kMillisecond);
}

/// \return the ULA a frame came from
inline Ula
SourceOf(const Record& r)
{
    switch ((r.ctl >> 3) & 3)
    {
    case FROM_SENDER:
        return r.len >= 14 ? Ula::FromBytes(r.data + 8) : kS1;
    case FROM_S1:
        return kS1;
    case FROM_S2:
        return kS2;
    default:
        return MakeUla(0x77);
    }
}

/// \return an address from the first bytes of a record (the LIS's own if too short)
inline Ipv4
IpOf(const Record& r)
{
    if (r.len < 4)
    {
        return Ip(192, 0, 2, uint8_t(r.len ? r.data[0] % 64 : 5));
    }
    return Ipv4(uint32_t(r.data[0]) << 24 | uint32_t(r.data[1]) << 16 | uint32_t(r.data[2]) << 8 |
                r.data[3]);
}

/// \return a ULA from bytes 4-9 of a record
inline Ula
UlaOf(const Record& r)
{
    return r.len >= 10 ? Ula::FromBytes(r.data + 4) : MakeUla(0x30);
}

/// Run the timers due at \p now as an adapter would; the engine never asks for the past.
template <class Engine>
void
RunDue(Engine& e, TimeNs now)
{
    int guard = 0;
    while (auto next = e.PollTimeout())
    {
        if (*next > now)
        {
            break;
        }
        e.HandleTimeout(now);
        const auto after = e.PollTimeout();
        FUZZ_CHECK(!after || *after > now);
        FUZZ_CHECK(++guard < 1000000);
    }
}

/// Every received frame lands in exactly one counter.
inline bool
CountersAddUp(const Stats& s)
{
    return s.rxFrames == s.rxHandled + s.rxIgnored + s.Dropped();
}

} // namespace harpsetup
} // namespace gsnfuzz

#endif /* GSN_FUZZ_HARP_SETUP_H */
