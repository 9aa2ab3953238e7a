/*
 * st-fuzz-setup.h: two ST engine endpoints joined by an in-memory wire, brought to a state
 * with something to hit (a connection, mapped memory, a posted receive, an exposed region, a
 * finished write and region request), the same for the fuzz target and the seed generator, so
 * that recorded frames carry keys, ports and ids the fuzzed endpoints know.
 *
 * Record ctl (see fuzz-common.h): bit 0 deliver to B (else to A), bit 1 from a stranger's
 * address, bit 2 no frame (time only), bit 7 the unit of dt (0: 1 us, 1: 10 ms).
 */
#ifndef GSN_FUZZ_ST_SETUP_H
#define GSN_FUZZ_ST_SETUP_H

#include "fuzz-common.h"
#include "st-endpoint.h"

#include <functional>
#include <vector>

namespace gsnfuzz
{

using namespace ns3::st;

/// Endpoint A (address 1) connected to B (address 2, listening on port 5000).
struct StPair
{
    static constexpr StPeerAddress ADDR_A = 1;
    static constexpr StPeerAddress ADDR_B = 2;
    static constexpr StPeerAddress ADDR_STRANGER = 7;
    static constexpr std::size_t MEMORY = 32768;

    StEndpoint a;
    StEndpoint b;
    uint64_t now{0};
    StConnId ia{0};     ///< A's connection
    StConnId ib{0};     ///< B's connection
    uint32_t region{0}; ///< A's id of the region B exposed (RMR/MRA in Setup)
    std::vector<uint8_t> memA = std::vector<uint8_t>(MEMORY, 0xA5);
    std::vector<uint8_t> memB = std::vector<uint8_t>(MEMORY, 0x5B);
    /// Sees every frame delivered: (to B, time, bytes).
    std::function<void(bool, uint64_t, const std::vector<uint8_t>&)> tap;

    /// Deliver what both endpoints send, 1 us per hop, until nothing moves (or \p limit
    /// frames); timers run when due.
    void Exchange(int limit = 100000)
    {
        StTransmit t;
        for (int n = 0; n < limit; ++n)
        {
            bool moved = false;
            for (bool fromA : {true, false})
            {
                StEndpoint& src = fromA ? a : b;
                StEndpoint& dst = fromA ? b : a;
                if (src.PollTransmit(t))
                {
                    now += 1000;
                    if (tap)
                    {
                        tap(fromA, now, t.bytes);
                    }
                    dst.Receive(now, fromA ? ADDR_A : ADDR_B, t.bytes.data(), t.bytes.size());
                    moved = true;
                }
            }
            DrainEvents();
            if (!moved)
            {
                return;
            }
        }
    }

    void DrainEvents()
    {
        StEvent e;
        while (a.PollEvent(e))
        {
        }
        while (b.PollEvent(e))
        {
        }
    }

    /// Connect, map memory and run the first operations; false if the engine refused.
    bool Setup()
    {
        StConnParams pb;
        pb.slots = 16;
        if (b.Listen(5000, pb) != StStatus::Ok ||
            a.Connect(now, ADDR_B, 5000, StConnParams(), ia) != StStatus::Ok)
        {
            return false;
        }
        Exchange();
        for (StConnId id : b.GetConnections())
        {
            ib = id;
        }
        StConnection* ca = a.Find(ia);
        StConnection* cb = b.Find(ib);
        if (!ca || !cb)
        {
            return false;
        }
        uint32_t h = 0;
        uint16_t mx = 0;
        ca->GetMemory().Map(3, memA.data(), memA.size(), 0, -1, h, mx);
        cb->GetMemory().Map(3, memB.data(), memB.size(), 0, -1, h, mx);
        cb->PostReceive(now, 0, 8192);
        cb->ExposeRegion(now, 16384, 8192);
        ca->PostSend(now, 8192, 4096);
        uint32_t id = 0;
        ca->Write(now, 0, 2000, StWriteOptions(), id);
        ca->RequestRegion(now, 4096, region);
        Exchange();
        return true;
    }
};

} // namespace gsnfuzz

#endif /* GSN_FUZZ_ST_SETUP_H */
