/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnRingBuffer: a FIFO over a growable power-of-two array. Unlike std::deque it allocates
 * nothing while empty (a fabric has many idle buffers: four VCs of every switch port), and in
 * steady state it reuses its storage, so queueing a micropacket allocates nothing.
 */
#ifndef GSN_RING_BUFFER_H
#define GSN_RING_BUFFER_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief A FIFO with indexed access, stored in a ring that doubles when full.
 * \tparam T the element type (default-constructible, movable)
 * \tparam KeepSmallStorage whether an emptied ring keeps storage of up to 16 places (for
 *         rings that fill and empty all the time); false gives every storage back (for
 *         rings that hold something only now and then, on many objects)
 */
template <typename T, bool KeepSmallStorage = true>
class GsnRingBuffer
{
  public:
    GsnRingBuffer() = default;
    GsnRingBuffer(const GsnRingBuffer&) = default;
    GsnRingBuffer& operator=(const GsnRingBuffer&) = default;

    /// \param o a ring that gives its elements to this one and becomes empty
    GsnRingBuffer(GsnRingBuffer&& o) noexcept
        : m_slots(std::move(o.m_slots)),
          m_capacity(o.m_capacity),
          m_head(o.m_head),
          m_size(o.m_size)
    {
        o.m_slots.clear();
        o.m_capacity = o.m_head = o.m_size = 0;
    }

    /// \param o a ring that gives its elements to this one and becomes empty \return this
    GsnRingBuffer& operator=(GsnRingBuffer&& o) noexcept
    {
        if (this != &o)
        {
            m_slots = std::move(o.m_slots);
            m_capacity = o.m_capacity;
            m_head = o.m_head;
            m_size = o.m_size;
            o.m_slots.clear();
            o.m_capacity = o.m_head = o.m_size = 0;
        }
        return *this;
    }

    /// \return true if empty
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return the number of elements
    std::size_t size() const
    {
        return m_size;
    }

    /// \return the number of elements the storage holds without growing
    std::size_t capacity() const
    {
        return m_capacity;
    }

    /// \param i index from the front \return the element
    T& operator[](std::size_t i)
    {
        return m_slots[(m_head + i) & (m_capacity - 1)];
    }

    /// \param i index from the front \return the element
    const T& operator[](std::size_t i) const
    {
        return m_slots[(m_head + i) & (m_capacity - 1)];
    }

    /// \return the first element
    T& front()
    {
        return (*this)[0];
    }

    /// \return the first element
    const T& front() const
    {
        return (*this)[0];
    }

    /// \return the last element
    T& back()
    {
        return (*this)[m_size - 1];
    }

    /// \param value appended at the back
    void push_back(T value)
    {
        if (m_size == m_capacity)
        {
            Grow();
        }
        m_slots[(m_head + m_size) & (m_capacity - 1)] = std::move(value);
        ++m_size;
    }

    /**
     * Append an element in place, without a temporary: the caller assigns every field of
     * the returned element, which holds whatever its place held before.
     * \return the new last element
     */
    T& push_back_slot()
    {
        if (m_size == m_capacity)
        {
            Grow();
        }
        ++m_size;
        return back();
    }

    /// Remove the first element, which the caller has moved from (so it holds nothing to
    /// release and is not reset).
    void pop_front_moved()
    {
        m_head = (m_head + 1) & (m_capacity - 1);
        --m_size;
        ReleaseIfEmpty();
    }

    /// Remove the first element. A large ring that becomes empty gives its storage back.
    void pop_front()
    {
        pop_front(1);
    }

    /// \param n remove the first n elements (at most size())
    void pop_front(std::size_t n)
    {
        const uint32_t mask = m_capacity - 1;
        for (std::size_t i = 0; i < n; ++i)
        {
            Vacate(m_slots[(m_head + i) & mask], 0);
        }
        m_head = (m_head + uint32_t(n)) & mask;
        m_size -= uint32_t(n);
        ReleaseIfEmpty();
    }

    /// Remove everything (large storage is given back, as by pop_front()).
    void clear()
    {
        if (!empty())
        {
            pop_front(m_size);
        }
        m_head = 0;
    }

  private:
    /// Largest storage an empty ring keeps.
    static constexpr std::size_t KEEP_CAPACITY = 16;

    /// Let go of what a popped element holds. An element type with a Vacate() member frees
    /// only its resources there (the ring never reads a place it has not written since);
    /// others are reset to T(), which costs a construction and an assignment per element.
    template <typename U>
    static auto Vacate(U& x, int) -> decltype(x.Vacate(), void())
    {
        x.Vacate();
    }

    template <typename U>
    static void Vacate(U& x, long)
    {
        x = U();
    }

    /// Give large storage back once the ring is empty. A fabric's buffers fill in bursts
    /// here and there; keeping every ring at the largest it ever was would make memory the
    /// sum of all peaks. (Refilling at the size given back saved no time and cost 10 KiB
    /// per endpoint.) The storage goes to a pool shared by all rings of this type, for the
    /// next ring that grows.
    void ReleaseIfEmpty()
    {
        if (m_size == 0 && m_capacity > (KeepSmallStorage ? KEEP_CAPACITY : 0))
        {
            GiveBack(std::move(m_slots)); // leaves m_slots empty
            m_capacity = 0;
            m_head = 0;
        }
    }

    /// Double the storage (or make the first), keeping the order.
    void Grow()
    {
        std::vector<T> bigger = Take(m_capacity == 0 ? KEEP_CAPACITY : 2 * std::size_t(m_capacity));
        for (std::size_t i = 0; i < m_size; ++i)
        {
            bigger[i] = std::move((*this)[i]);
        }
        m_slots.swap(bigger);
        m_capacity = uint32_t(m_slots.size());
        m_head = 0;
        if (bigger.size() > KEEP_CAPACITY)
        {
            GiveBack(std::move(bigger));
        }
    }

    /// Storage pooled per size (a power of two), so that rings filling and emptying all
    /// the time do not allocate and construct their storage each time (about 8% of the
    /// run mode's instructions).
    static std::vector<std::vector<T>>& Pool(std::size_t slots)
    {
        // Never destroyed, so that a ring freed during static destruction finds it.
        static auto* pools = new std::vector<std::vector<std::vector<T>>>(POOL_CLASSES);
        std::size_t c = 0;
        while ((std::size_t(KEEP_CAPACITY) << c) < slots)
        {
            ++c;
        }
        return (*pools)[c];
    }

    /// \param slots a power of two \return storage of that many elements
    static std::vector<T> Take(std::size_t slots)
    {
        if (slots > MAX_POOLED)
        {
            return std::vector<T>(slots);
        }
        std::vector<std::vector<T>>& pool = Pool(slots);
        if (pool.empty())
        {
            return std::vector<T>(slots);
        }
        std::vector<T> v = std::move(pool.back());
        pool.pop_back();
        return v;
    }

    /// \param v storage no longer used (its elements are left as they are: a ring reads
    /// only the places it has written)
    static void GiveBack(std::vector<T> v)
    {
        if (v.size() > MAX_POOLED)
        {
            return; // freed with v
        }
        std::vector<std::vector<T>>& pool = Pool(v.size());
        // At most POOL_SLOTS places per size (and 4 storages of the large sizes), so that
        // idle storage stays small next to a fabric's buffers.
        if (pool.size() < std::max<std::size_t>(4, POOL_SLOTS / v.size()))
        {
            pool.push_back(std::move(v));
        }
    }

    static constexpr std::size_t POOL_CLASSES = 9;                                 ///< 16..4096
    static constexpr std::size_t MAX_POOLED = KEEP_CAPACITY << (POOL_CLASSES - 1); ///< largest
    static constexpr std::size_t POOL_SLOTS = 1024; ///< places kept per size (small sizes)

    std::vector<T> m_slots; ///< the ring (size 0 or a power of two)
    // (32-bit fields, with the capacity kept apart so that indexing needs no division by
    // the element size: the ring stays at 40 bytes.)
    uint32_t m_capacity{0}; ///< m_slots.size(): 0 or a power of two
    uint32_t m_head{0};     ///< index of the first element
    uint32_t m_size{0};     ///< number of elements
};

} // namespace ns3

#endif /* GSN_RING_BUFFER_H */
