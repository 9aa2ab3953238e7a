/*
 * st-memory-region.cc: the Bufx/Mx table and its protection checks (see st-memory-region.h).
 */
#include "st-memory-region.h"

#include <limits>

namespace ns3
{
namespace st
{

StStatus
StMemoryTable::SetBufsize(uint8_t log2)
{
    if (log2 < MIN_BUFSIZE || log2 > MAX_BUFSIZE)
    {
        return StStatus::InvalidArgument;
    }
    if (!m_maps.empty())
    {
        return StStatus::WrongState;
    }
    m_bufsize = log2;
    return StStatus::Ok;
}

StStatus
StMemoryTable::SetBufxRange(uint32_t base, uint32_t count)
{
    if (count == 0 || static_cast<uint64_t>(base) + count > (1ULL << 32))
    {
        return StStatus::InvalidArgument;
    }
    for (const auto& m : m_maps)
    {
        if (m.bufxBase < base ||
            static_cast<uint64_t>(m.bufxBase) + m.bufxCount > static_cast<uint64_t>(base) + count)
        {
            return StStatus::BufxInUse;
        }
    }
    m_bufxBase = base;
    m_bufxCount = count;
    return StStatus::Ok;
}

StStatus
StMemoryTable::Map(int flags,
                   uint8_t* ptr,
                   uint64_t len,
                   uint32_t bufxBase,
                   int64_t bufxCount,
                   uint32_t& handle,
                   uint16_t& mx)
{
    const uint64_t bs = 1ULL << m_bufsize;
    const bool noBytes = (flags & NO_BYTES) != 0;
    if ((flags & ~(PIN_TX | PIN_RX | NO_BYTES | CHECK)) != 0 || (flags & (PIN_TX | PIN_RX)) == 0 ||
        noBytes != (ptr == nullptr) || ((flags & CHECK) != 0 && !noBytes))
    {
        return StStatus::InvalidArgument;
    }
    if (len == std::numeric_limits<uint64_t>::max())
    {
        if (bufxCount <= 0)
        {
            return StStatus::InvalidArgument;
        }
        len = static_cast<uint64_t>(bufxCount) << m_bufsize;
    }
    if (len == 0)
    {
        return StStatus::InvalidArgument;
    }
    const uint64_t needed = (len + bs - 1) / bs;
    if (bufxCount < 0)
    {
        bufxCount = static_cast<int64_t>(needed);
    }
    else if (static_cast<uint64_t>(bufxCount) != needed)
    {
        return StStatus::InvalidArgument; // the draft: "they must exactly agree"
    }
    if (bufxBase < m_bufxBase || bufxBase + static_cast<uint64_t>(bufxCount) >
                                     static_cast<uint64_t>(m_bufxBase) + m_bufxCount)
    {
        return StStatus::InvalidArgument;
    }
    // The same Bufx may be mapped twice (TX by one call, RX by another [C] SEED-API) only if
    // it names the same memory: a Bufx entry points at one buffer.
    const auto origin =
        reinterpret_cast<uintptr_t>(ptr) - (static_cast<uintptr_t>(bufxBase) << m_bufsize);
    for (const auto& m : m_maps)
    {
        bool overlap = bufxBase < static_cast<uint64_t>(m.bufxBase) + m.bufxCount &&
                       m.bufxBase < bufxBase + static_cast<uint64_t>(bufxCount);
        auto mOrigin =
            reinterpret_cast<uintptr_t>(m.ptr) - (static_cast<uintptr_t>(m.bufxBase) << m_bufsize);
        if (overlap && mOrigin != origin)
        {
            return StStatus::BufxInUse;
        }
    }
    uint16_t newMx = 0;
    if (flags & PIN_RX)
    {
        for (uint16_t cand = 1; cand <= MAX_MX; ++cand)
        {
            if (FindMx(cand) == nullptr)
            {
                newMx = cand;
                break;
            }
        }
        if (newMx == 0)
        {
            return StStatus::NoMx;
        }
    }
    StMapping m;
    m.handle = m_nextHandle++;
    m.flags = flags;
    m.ptr = ptr;
    m.len = len;
    m.bufxBase = bufxBase;
    m.bufxCount = static_cast<uint32_t>(bufxCount);
    m.mx = newMx;
    m_maps.push_back(m);
    handle = m.handle;
    mx = newMx;
    return StStatus::Ok;
}

StStatus
StMemoryTable::Unmap(uint32_t handle)
{
    for (auto it = m_maps.begin(); it != m_maps.end(); ++it)
    {
        if (it->handle == handle)
        {
            m_maps.erase(it);
            return StStatus::Ok;
        }
    }
    return StStatus::InvalidArgument;
}

uint8_t*
StMemoryTable::Resolve(uint64_t linear, uint64_t len, int needFlags) const
{
    return Lookup(linear, len, needFlags).ptr;
}

StMemRef
StMemoryTable::Lookup(uint64_t linear, uint64_t len, int needFlags) const
{
    for (const auto& m : m_maps)
    {
        if ((m.flags & needFlags) != needFlags)
        {
            continue;
        }
        uint64_t start = static_cast<uint64_t>(m.bufxBase) << m_bufsize;
        if (linear >= start && len <= m.len && linear - start <= m.len - len)
        {
            StMemRef r;
            r.mapping = &m;
            r.ptr = m.HoldsNoBytes() ? nullptr : m.ptr + (linear - start);
            return r;
        }
    }
    return StMemRef();
}

const StMapping*
StMemoryTable::FindRx(uint64_t linear, uint64_t len) const
{
    for (const auto& m : m_maps)
    {
        if (!(m.flags & PIN_RX))
        {
            continue;
        }
        uint64_t start = static_cast<uint64_t>(m.bufxBase) << m_bufsize;
        if (linear >= start && len <= m.len && linear - start <= m.len - len)
        {
            return &m;
        }
    }
    return nullptr;
}

const StMapping*
StMemoryTable::FindMx(uint16_t mx) const
{
    for (const auto& m : m_maps)
    {
        if (m.mx == mx && mx != 0)
        {
            return &m;
        }
    }
    return nullptr;
}

uint8_t*
StMemoryTable::ResolveIncoming(uint16_t mx,
                               uint32_t bufx,
                               uint32_t offset,
                               uint64_t len,
                               StRxVerdict& why) const
{
    return LookupIncoming(mx, bufx, offset, len, why).ptr;
}

StMemRef
StMemoryTable::LookupIncoming(uint16_t mx,
                              uint32_t bufx,
                              uint32_t offset,
                              uint64_t len,
                              StRxVerdict& why) const
{
    why = StRxVerdict::OutsideMapping;
    const StMapping* m = FindMx(mx);
    const uint64_t bs = 1ULL << m_bufsize;
    if (m == nullptr || bufx < m->bufxBase || bufx - m->bufxBase >= m->bufxCount)
    {
        return StMemRef();
    }
    // An STU never crosses a Bufx boundary [C] INCITS337 scope.
    if (offset >= bs || len > bs - offset)
    {
        return StMemRef();
    }
    uint64_t rel = (static_cast<uint64_t>(bufx - m->bufxBase) << m_bufsize) + offset;
    if (rel + len > m->len)
    {
        return StMemRef();
    }
    why = StRxVerdict::Accepted;
    StMemRef r;
    r.mapping = m;
    r.ptr = m->HoldsNoBytes() ? nullptr : m->ptr + rel;
    return r;
}

} // namespace st
} // namespace ns3
