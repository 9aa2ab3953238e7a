/*
 * st-connection-private.h: what the files implementing StConnection share and nothing else
 * includes: small helpers on operations, big-endian words and blocks. Not installed. Plain
 * C++17, no ns-3 header.
 */
#ifndef ST_CONNECTION_PRIVATE_H
#define ST_CONNECTION_PRIVATE_H

#include "st-connection.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{
namespace st
{

/// Is \p op one of the connection's own operations (RC, CA, RD, DA, DC)? They use no slot
/// and are never held for one. \param op an opcode \return true if so
inline bool
IsConnectionOp(StOp op)
{
    return op == StOp::Rc || op == StOp::Ca || op == StOp::Rd || op == StOp::Da || op == StOp::Dc;
}

/// \param p 8 bytes \return the big-endian 64-bit word they hold (a FETCHOP's word)
inline uint64_t
GetBe64(const uint8_t* p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}

/// Writes \p v big-endian into the 8 bytes at \p p. \param p 8 bytes \param v the word
inline void
PutBe64(uint8_t* p, uint64_t v)
{
    for (int i = 7; i >= 0; --i)
    {
        p[i] = static_cast<uint8_t>(v);
        v >>= 8;
    }
}

/// \param len a transfer's T_len \param blocksize log2 of its blocks \return its blocks
inline uint64_t
BlockCount(uint64_t len, uint8_t blocksize)
{
    if (blocksize >= 64)
    {
        return 1;
    }
    uint64_t bs = 1ULL << blocksize;
    return len / bs + (len % bs != 0 ? 1 : 0);
}

/// Completed ids remembered for duplicate detection [U].
constexpr std::size_t ST_DONE_MEMORY = 64;

} // namespace st
} // namespace ns3

#endif /* ST_CONNECTION_PRIVATE_H */
