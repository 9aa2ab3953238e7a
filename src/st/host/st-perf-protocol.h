/*
 * st-perf-protocol.h: what the ST test programs (st-bw, st-lat, st-check) say to their
 * server before and after a test, and the data pattern they check. The client writes a
 * 64-byte hello (a single-use ST write), the server prepares memory for the test it names,
 * and at the end the client reads a 64-byte report (a single-use ST read). Little-endian
 * fields. Values and layout only.
 */
#ifndef ST_PERF_PROTOCOL_H
#define ST_PERF_PROTOCOL_H

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ns3
{
namespace st
{

/// The tests a server runs.
enum class StPerfKind : uint32_t
{
    Write = 1,    //!< bulk writes into the server (RTS/CTS/DATA)
    Read = 2,     //!< bulk reads from the server (RTR, then the server writes)
    PingPong = 3, //!< the server writes back every write it receives
    Memory = 4,   //!< the server exposes a region for PUT, GET and FETCHOP (RMR/MRA)
};

/// Size of the hello and of the report.
constexpr std::size_t ST_PERF_MESSAGE = 64;

/// What the client asks for.
struct StPerfHello
{
    StPerfKind kind{StPerfKind::Write}; //!< the test
    uint64_t size{0};                   //!< bytes per transfer (Memory: region bytes)
    uint64_t count{0};                  //!< transfers
    uint32_t outstanding{1};            //!< transfers in flight
    uint32_t verify{1};                 //!< check the data

    /// Encode into \p out (64 bytes).
    void Encode(uint8_t* out) const;
    /// Decode; false if it is no hello.
    bool Decode(const uint8_t* in);
};

/// What the server found (read by the client at the end).
struct StPerfReport
{
    uint64_t good{0};          //!< transfers received intact (Write, PingPong)
    uint64_t bad{0};           //!< transfers received damaged, duplicated or missing
    uint64_t unknownKey{0};    //!< the server's rx.UnknownKey during the test
    uint64_t outsideMemory{0}; //!< rx.OutsideMapping + rx.OutsideExposure during the test
    uint64_t rejectsSent{0};   //!< RA(R=1) sent during the test
    uint64_t guardIntact{1};   //!< Memory: the bytes behind the region were never written

    /// Encode into \p out (64 bytes).
    void Encode(uint8_t* out) const;
    /// Decode; false if it is no report.
    bool Decode(const uint8_t* in);
};

/**
 * \brief The data pattern: a word per 8 bytes derived from its offset, and in the first
 *        word of every 4 KiB page a stamp naming the transfer, so that a byte out of place,
 *        a stale block or a transfer delivered twice is seen.
 */
struct StPerfPattern
{
    /// Fill \p len bytes at \p p for transfer \p stamp.
    static void Fill(uint8_t* p, std::size_t len, uint64_t stamp);
    /// Restamp (only the page words) for transfer \p stamp.
    static void Stamp(uint8_t* p, std::size_t len, uint64_t stamp);
    /**
     * \brief Check \p len bytes.
     * \param[out] stamp the transfer they belong to (UINT64_MAX when len < 8)
     * \return false if any byte is wrong or the pages disagree
     */
    static bool Check(const uint8_t* p, std::size_t len, uint64_t& stamp);
};

} // namespace st
} // namespace ns3

#endif /* ST_PERF_PROTOCOL_H */
