/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMicropacketRun: micropackets sent back to back on one link, handed to the channel as
 * one message in the run link mode.
 */
#ifndef GSN_MICROPACKET_RUN_H
#define GSN_MICROPACKET_RUN_H

#include "gsn-block-pool.h"
#include "gsn-micropacket.h"

#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Micropackets that leave a port one after the other, in 40 ns slots.
 *
 * Micropacket k arrives at the far end at firstArrival + DepartureOf(k). The receiving port
 * works through the run in order and keeps its place in \c next, so that it can stop at a
 * micropacket whose effect must happen at its own arrival time (a Header or a Tail) and go
 * on from there later.
 *
 * A fabric makes one per run it sends: their memory comes from a free list (gsn::Pooled).
 */
struct GsnMicropacketRun : public SimpleRefCount<GsnMicropacketRun>,
                           public gsn::Pooled<GsnMicropacketRun>
{
    GsnMicropacketRun()
        : micropackets(TakeBuffer())
    {
    }

    ~GsnMicropacketRun()
    {
        GiveBack(std::move(micropackets));
        GiveBack(std::move(m_follows));
        GiveBack(std::move(laterRseq));
    }

    /// Where micropacket k of the run is kept (see AppendFollowing()).
    struct Place
    {
        std::size_t stored; ///< index in micropackets of the one it follows, or its own
        uint32_t offset;    ///< places after that one (0: the stored micropacket itself)
        uint32_t left;      ///< micropackets after k that follow the same stored one
    };

    GsnMicropacketRun(const GsnMicropacketRun&) = delete;
    GsnMicropacketRun& operator=(const GsnMicropacketRun&) = delete;

    /// In transmission order, except those kept implicitly (AppendFollowing()): micropacket
    /// k of the run is micropackets[k] unless IsCompact() (see Locate()).
    std::vector<GsnMicropacket> micropackets;
    /// When each micropacket leaves, in ns after the first; empty when they leave back to
    /// back (every 40 ns). A run may leave idle time between micropackets where the next
    /// one's arrival at the port is known (a switch output following a slower input).
    std::vector<int64_t> departures;
    Time firstArrival;   ///< when micropackets[0]'s last bit arrives
    std::size_t next{0}; ///< the first not yet received

    /// RSEQs given to micropacket k of the run, and to those after it, after the run was
    /// chosen: micropackets k .. k + len - 1 carry rseq, rseq + 1, ..., and those after them
    /// (up to the next amendment) the last of these. (Acknowledgements amended slot after
    /// slot, one per micropacket accepted, make one amendment.)
    struct RseqAmendment
    {
        uint32_t k;   ///< the first micropacket
        uint32_t len; ///< how many carry RSEQs one apart (at least 1)
        uint8_t rseq; ///< the first one's RSEQ
    };

    /// Acknowledgements the sender owed after choosing the run (AmendRseqFrom()): without
    /// amendments every micropacket carries the RSEQ it was chosen with. Increasing in k
    /// and in RSEQ.
    std::vector<RseqAmendment> laterRseq;
    bool finished{false}; ///< the run has left; laterRseq is final
    /// The receiver keeps entries that refer to the run (timed acknowledgements): the sender
    /// tells it when the run has left (otherwise there is nothing to tell)
    bool heldByReceiver{false};
    /// Timed acknowledgements: index of the last micropacket whose RSEQ the receiver has
    /// applied (choosing ahead), -1 if none; an amendment up to there must be applied at once
    mutable int64_t ackApplied{-1};
    /// Credits that ride on the run: indices of the micropackets the receiver took and did
    /// not accept (credits put on them later come with their retransmission), in order
    std::vector<uint32_t> rejected;
    /// Of those, the ones taken with a bad LCRC, in order: kept only where the receiver traces
    /// late credits (LateCreditsRx reports credits put on every micropacket that
    /// MicropacketRx showed, counted or not)
    std::vector<uint32_t> corrupted;
    /// Credits that ride on the run: the receiver's count of link-state clearings when it
    /// took the first micropacket (credits put on the run after a later reset are void)
    uint32_t rxClears{0};

    /**
     * From micropacket \p k on (not before the last amendment's), the run carries \p rseq.
     * \param k index of a micropacket in the run \param rseq the RSEQ
     */
    void AmendRseqFrom(std::size_t k, uint8_t rseq)
    {
        if (!laterRseq.empty())
        {
            RseqAmendment& last = laterRseq.back();
            NS_ASSERT(k + 1 >= std::size_t(last.k) + last.len);
            if (k + 1 == std::size_t(last.k) + last.len)
            {
                // Its last micropacket again: that one now carries rseq.
                if (last.len == 1)
                {
                    last.rseq = rseq;
                    return;
                }
                --last.len;
            }
            if (k == std::size_t(last.k) + last.len && rseq == uint8_t(last.rseq + last.len))
            {
                ++last.len; // the next slot, the next RSEQ
                return;
            }
        }
        else if (laterRseq.capacity() == 0)
        {
            laterRseq = TakeBuffer<RseqAmendment>();
        }
        laterRseq.push_back({uint32_t(k), 1, rseq});
    }

    /**
     * AmendRseqFrom(k + i, rseq + i) for i from 0 to \p n - 1.
     * \param k index of a micropacket in the run \param rseq its RSEQ \param n how many
     */
    void AmendRseqRow(std::size_t k, uint8_t rseq, uint32_t n)
    {
        if (n == 0)
        {
            return;
        }
        AmendRseqFrom(k, rseq);
        laterRseq.back().len += n - 1; // (its last micropacket is k, carrying rseq)
    }

    /// \return how many of the run's first micropackets the receiver has taken or applied
    /// the RSEQ of: an RSEQ amended on one of them reaches it only if the sender tells it
    std::size_t TakenByReceiver() const
    {
        return std::size_t(std::max<int64_t>(ackApplied + 1, int64_t(next)));
    }

    /// \param k index of a micropacket the receiver took \return whether it accepted it
    bool WasAccepted(std::size_t k) const
    {
        return !std::binary_search(rejected.begin(), rejected.end(), uint32_t(k));
    }

    /// \param k index of a micropacket the receiver took and did not accept \return whether
    /// its LCRC was bad (known where the receiver traces late credits, see corrupted)
    bool WasCorrupted(std::size_t k) const
    {
        return std::binary_search(corrupted.begin(), corrupted.end(), uint32_t(k));
    }

    /**
     * \param k index of a micropacket in the run
     * \param chosen the RSEQ it was given when the run was chosen
     * \return the RSEQ it carries, with the acknowledgements owed since
     */
    uint8_t RseqOf(std::size_t k, uint8_t chosen) const
    {
        if (laterRseq.empty() || laterRseq.front().k > k)
        {
            return chosen;
        }
        auto it = std::upper_bound(laterRseq.begin(),
                                   laterRseq.end(),
                                   k,
                                   [](std::size_t v, const RseqAmendment& a) { return v < a.k; });
        const RseqAmendment& a = *std::prev(it);
        return uint8_t(a.rseq + std::min<std::size_t>(k - a.k, a.len - 1));
    }

    /**
     * \param k index of a micropacket in the run
     * \return when it leaves, in ns after the first
     */
    int64_t DepartureOf(std::size_t k) const
    {
        return departures.empty() ? int64_t(k) * gsn::MICROPACKET_TIME_NS : departures[k];
    }

    /**
     * \param ns time after the first micropacket leaves, in ns
     * \return how many micropackets of the run have left by then
     */
    std::size_t LeftBy(int64_t ns) const
    {
        if (ns < 0)
        {
            return 0;
        }
        const std::size_t n =
            departures.empty()
                ? std::size_t(ns / gsn::MICROPACKET_TIME_NS) + 1
                : std::size_t(std::upper_bound(departures.begin(), departures.end(), ns) -
                              departures.begin());
        return std::min(n, Size());
    }

    /// \return how many micropackets the run has (also after ReleaseMicropackets())
    std::size_t Size() const
    {
        // (A run has at least two micropackets, so empty storage means it was given back.)
        return micropackets.empty() ? m_releasedSize : micropackets.size() + m_implicit;
    }

    /**
     * The last micropacket appended, a Data micropacket of a Message that is not its Tail, is
     * followed by \p n more of that Message, which are not stored: each is the one before
     * with the next chunk and the next TSEQ, and no credits (vcr and cr 0). A port that takes
     * many micropackets of one Message at once stores them so (no copy per micropacket);
     * the run's micropackets are then read through Locate() and At().
     * \param n how many follow
     */
    void AppendFollowing(uint32_t n)
    {
        NS_ASSERT(!micropackets.empty() &&
                  micropackets.back().FollowsInMessage(micropackets.back(), 0));
        if (m_follows.empty())
        {
            m_follows = TakeBuffer<uint32_t>();
        }
        if (m_follows.size() < micropackets.size())
        {
            m_follows.resize(micropackets.size(), 0);
        }
        m_follows.back() += n;
        m_implicit += n;
    }

    /// Append a micropacket stored as it is.
    /// \param mp the micropacket
    __attribute__((always_inline)) void Append(GsnMicropacket&& mp)
    {
        micropackets.push_back(std::move(mp));
        if (!m_follows.empty())
        {
            m_follows.push_back(0);
        }
    }

    /// \return whether some micropackets are not stored (AppendFollowing())
    bool IsCompact() const
    {
        return m_implicit > 0;
    }

    /**
     * \param k index of a micropacket in the run (reading in increasing k is fastest)
     * \return where it is kept
     */
    Place Locate(std::size_t k) const
    {
        if (!IsCompact())
        {
            return {k, 0, 0};
        }
        if (k < m_cursorStart)
        {
            m_cursorStored = 0;
            m_cursorStart = 0;
        }
        while (k > m_cursorStart + m_follows[m_cursorStored])
        {
            m_cursorStart += 1 + m_follows[m_cursorStored];
            ++m_cursorStored;
        }
        const uint32_t offset = uint32_t(k - m_cursorStart);
        return {m_cursorStored, offset, m_follows[m_cursorStored] - offset};
    }

    /**
     * \param k index of a micropacket in the run, not yet taken by the receiver
     * \return a copy of it
     */
    GsnMicropacket At(std::size_t k) const
    {
        const Place p = Locate(k);
        if (p.offset == 0)
        {
            return micropackets[p.stored];
        }
        GsnMicropacket mp = micropackets[p.stored].FollowingOnLink(p.offset);
        const auto c = FindCredits(m_credits, k);
        if (c != m_credits.end() && c->k == k)
        {
            mp.vcr = c->vcr;
            mp.cr = c->cr;
        }
        return mp;
    }

    /**
     * Micropacket k for the receiver to take (and move from).
     * \param k index of a micropacket in the run, not yet taken
     * \param scratch storage for a copy, where the run keeps what it needs for later ones
     * \return the micropacket: the stored one, or \p scratch
     */
    GsnMicropacket& Take(std::size_t k, GsnMicropacket& scratch)
    {
        const Place p = Locate(k);
        if (p.offset == 0 && p.left == 0)
        {
            return micropackets[p.stored];
        }
        scratch = At(k);
        return scratch;
    }

    /**
     * Put credits on micropacket k (credits freed while the run is on the wire).
     * \param k index of a micropacket in the run, not yet taken
     * \param vcr the VC they are for \param cr how many
     */
    void SetCredits(std::size_t k, uint8_t vcr, uint8_t cr)
    {
        const Place p = Locate(k);
        if (p.offset == 0)
        {
            micropackets[p.stored].vcr = vcr;
            micropackets[p.stored].cr = cr;
            return;
        }
        // Kept aside rather than by storing k, which would move the stored micropackets
        // while the receiver may be taking one of them.
        const auto it = FindCredits(m_credits, k);
        if (it != m_credits.end() && it->k == k)
        {
            it->vcr = vcr;
            it->cr = cr;
            return;
        }
        m_credits.insert(it, LateCredits{uint32_t(k), vcr, cr});
    }

    /**
     * \param k index of a micropacket in the run
     * \return the index of the first micropacket from k on that is not stored and carries
     *         credits (SetCredits()), Size() if none
     */
    std::size_t NextWithCredits(std::size_t k) const
    {
        const auto it = FindCredits(m_credits, k);
        return it == m_credits.end() ? Size() : it->k;
    }

    /**
     * The receiver has taken every micropacket: give their storage back now. The sender
     * keeps the run until its last slot has left, and the micropackets of the thousands of
     * runs on the wire across a large fabric would otherwise stay allocated meanwhile.
     */
    void ReleaseMicropackets()
    {
        m_releasedSize = Size();
        GiveBack(std::move(micropackets));
        micropackets.clear();
        GiveBack(std::move(m_follows));
        m_follows.clear();
        m_credits.clear();
        m_credits.shrink_to_fit();
        m_implicit = 0;
        m_cursorStored = 0;
        m_cursorStart = 0;
    }

    /**
     * \param k index of a micropacket in the run
     * \return when its last bit arrives
     */
    // (Called for every micropacket a port receives; out of line it cost 2% more
    // instructions.)
    __attribute__((always_inline)) Time ArrivalOf(std::size_t k) const
    {
        // In time steps rather than through NanoSeconds(), which converts units each call.
        static const int64_t stepsPerNs = NanoSeconds(1).GetTimeStep();
        return firstArrival + TimeStep(uint64_t(DepartureOf(k) * stepsPerNs));
    }

  private:
    std::size_t m_releasedSize{0}; ///< Size() after ReleaseMicropackets()
    /// Once compact: per stored micropacket, how many not stored follow it (AppendFollowing())
    std::vector<uint32_t> m_follows;
    std::size_t m_implicit{0}; ///< micropackets not stored, in all

    /// Credits put on a micropacket that is not stored (SetCredits())
    struct LateCredits
    {
        uint32_t k;  ///< the micropacket's index in the run
        uint8_t vcr; ///< the VC they are for
        uint8_t cr;  ///< how many
    };

    std::vector<LateCredits> m_credits; ///< by k

    /// \param credits m_credits (const or not) \param k index of a micropacket
    /// \return the first of \p credits at or after k
    template <typename Credits>
    static decltype(std::declval<Credits&>().begin()) FindCredits(Credits& credits, std::size_t k)
    {
        return std::lower_bound(credits.begin(),
                                credits.end(),
                                k,
                                [](const LateCredits& c, std::size_t v) { return c.k < v; });
    }

    mutable std::size_t m_cursorStored{0}; ///< Locate(): the stored one last found
    mutable std::size_t m_cursorStart{0};  ///< Locate(): its index in the run

    /// Buffers of finished runs, reused: a busy fabric creates runs all the time, and
    /// growing a fresh vector each time was about 6% of the run mode's time.
    /// \tparam T the element type
    /// \return the pool of buffers of T
    template <typename T>
    static std::vector<std::vector<T>>& Pool()
    {
        // Never destroyed, so that a run freed during static destruction finds it.
        static auto* pool = new std::vector<std::vector<T>>();
        return *pool;
    }

    /// \tparam T the element type \return an empty buffer, from the pool if it has one
    template <typename T = GsnMicropacket>
    static std::vector<T> TakeBuffer()
    {
        std::vector<std::vector<T>>& pool = Pool<T>();
        if (pool.empty())
        {
            return {};
        }
        std::vector<T> b = std::move(pool.back());
        pool.pop_back();
        return b;
    }

    /// \tparam T the element type \param b a buffer to keep for a later run (at most 64
    /// are kept)
    template <typename T>
    static void GiveBack(std::vector<T>&& b)
    {
        std::vector<std::vector<T>>& pool = Pool<T>();
        if (pool.size() < 64 && b.capacity() > 0)
        {
            b.clear(); // drops the Messages the micropackets point to
            pool.push_back(std::move(b));
        }
        else
        {
            std::vector<T>().swap(b);
        }
    }
};

} // namespace ns3

#endif /* GSN_MICROPACKET_RUN_H */
