/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gsn::BlockPool: memory blocks of one size, reused instead of freed (the link layer's
 * events and runs).
 */
#ifndef GSN_BLOCK_POOL_H
#define GSN_BLOCK_POOL_H

#include "ns3/assert.h"

#include <cstddef>
#include <new>
#include <vector>

namespace ns3
{
namespace gsn
{

/**
 * \ingroup gsn
 * \brief Memory blocks of \p Size bytes, given back for reuse instead of freed.
 *
 * A fabric's ports schedule millions of events and runs per simulated millisecond; the
 * blocks given back are reused by the next objects of the same size, most recently given
 * first (still in the cache). The lists are never freed (they hold at most the objects alive
 * at once); the simulator runs in one thread.
 */
template <std::size_t Size>
class BlockPool
{
  public:
    /// \return a block of Size bytes
    static void* Take()
    {
        std::vector<void*>& free = Free();
        if (free.empty())
        {
            return ::operator new(Size);
        }
        void* block = free.back();
        free.pop_back();
        return block;
    }

    /// Give a block taken before back.
    static void Give(void* block)
    {
        Free().push_back(block);
    }

  private:
    /// \return the blocks given back
    static std::vector<void*>& Free()
    {
        return *s_free;
    }

    /// The blocks given back (made once, never destroyed: an event may outlive static
    /// destruction).
    static inline std::vector<void*>* s_free = new std::vector<void*>();
};

/**
 * \ingroup gsn
 * \brief Base of a class (\p Derived) whose objects take their memory from a BlockPool.
 */
template <typename Derived>
class Pooled
{
  public:
    /// \param size the object's size (sizeof(Derived)) \return a block from the free list
    static void* operator new(std::size_t size)
    {
        NS_ASSERT(size == sizeof(Derived));
        return BlockPool<sizeof(Derived)>::Take();
    }

    /// Gives an object's block back to the free list. \param block the block
    static void operator delete(void* block)
    {
        BlockPool<sizeof(Derived)>::Give(block);
    }
};

} // namespace gsn
} // namespace ns3

#endif /* GSN_BLOCK_POOL_H */
