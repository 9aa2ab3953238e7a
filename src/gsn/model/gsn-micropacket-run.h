/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnMicropacketRun: micropackets sent back to back on one link, handed to the channel as
 * one message in the run link mode.
 */
#ifndef GSN_MICROPACKET_RUN_H
#define GSN_MICROPACKET_RUN_H

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
 */
struct GsnMicropacketRun : public SimpleRefCount<GsnMicropacketRun>
{
    GsnMicropacketRun()
        : micropackets(TakeBuffer())
    {
    }

    ~GsnMicropacketRun()
    {
        GiveBack(std::move(micropackets));
    }

    GsnMicropacketRun(const GsnMicropacketRun&) = delete;
    GsnMicropacketRun& operator=(const GsnMicropacketRun&) = delete;

    std::vector<GsnMicropacket> micropackets; ///< in transmission order
    /// When each micropacket leaves, in ns after the first; empty when they leave back to
    /// back (every 40 ns). A run may leave idle time between micropackets where the next
    /// one's arrival at the port is known (a switch output following a slower input).
    std::vector<int64_t> departures;
    Time firstArrival;   ///< when micropackets[0]'s last bit arrives
    std::size_t next{0}; ///< the first not yet received
    /// Timed acknowledgements (ExactCredits, or a link with an error model): those the
    /// sender owed after choosing the run, as (k, RSEQ): from micropacket k on, the run
    /// carries that RSEQ (micropacket by micropacket, the slot after an acceptance carries
    /// it). Increasing in k and in RSEQ.
    std::vector<std::pair<uint32_t, uint8_t>> laterRseq;
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
    /// Credits that ride on the run: the receiver's count of link-state clearings when it
    /// took the first micropacket (credits put on the run after a later reset are void)
    uint32_t rxClears{0};

    /// \param k index of a micropacket the receiver took \return whether it accepted it
    bool WasAccepted(std::size_t k) const
    {
        return !std::binary_search(rejected.begin(), rejected.end(), uint32_t(k));
    }

    /**
     * \param k index of a micropacket in the run
     * \param chosen the RSEQ it was given when the run was chosen
     * \return the RSEQ it carries, with the acknowledgements owed since
     */
    uint8_t RseqOf(std::size_t k, uint8_t chosen) const
    {
        if (laterRseq.empty() || laterRseq.front().first > k)
        {
            return chosen;
        }
        auto it = std::upper_bound(
            laterRseq.begin(),
            laterRseq.end(),
            k,
            [](std::size_t v, const std::pair<uint32_t, uint8_t>& e) { return v < e.first; });
        return std::prev(it)->second;
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
        return micropackets.empty() ? m_releasedSize : micropackets.size();
    }

    /**
     * The receiver has taken every micropacket: give their storage back now. The sender
     * keeps the run until its last slot has left, and the micropackets of the thousands of
     * runs on the wire across a large fabric would otherwise stay allocated meanwhile.
     */
    void ReleaseMicropackets()
    {
        m_releasedSize = micropackets.size();
        GiveBack(std::move(micropackets));
        micropackets.clear();
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

    /// Buffers of finished runs, reused: a busy fabric creates runs all the time, and
    /// growing a fresh vector each time was about 6% of the run mode's time.
    static std::vector<std::vector<GsnMicropacket>>& Pool()
    {
        // Never destroyed, so that a run freed during static destruction finds it.
        static auto* pool = new std::vector<std::vector<GsnMicropacket>>();
        return *pool;
    }

    /// \return an empty buffer, from the pool if it has one
    static std::vector<GsnMicropacket> TakeBuffer()
    {
        std::vector<std::vector<GsnMicropacket>>& pool = Pool();
        if (pool.empty())
        {
            return {};
        }
        std::vector<GsnMicropacket> b = std::move(pool.back());
        pool.pop_back();
        return b;
    }

    /// \param b a buffer to keep for a later run (at most 64 are kept)
    static void GiveBack(std::vector<GsnMicropacket>&& b)
    {
        std::vector<std::vector<GsnMicropacket>>& pool = Pool();
        if (pool.size() < 64 && b.capacity() > 0)
        {
            b.clear(); // drops the Messages the micropackets point to
            pool.push_back(std::move(b));
        }
    }
};

} // namespace ns3

#endif /* GSN_MICROPACKET_RUN_H */
