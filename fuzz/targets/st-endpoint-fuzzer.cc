/*
 * st-endpoint-fuzzer.cc: fuzz target of the ST engine's input (StEndpoint::Receive and what
 * it dispatches to the connections) and its timers: records (common/st-fuzz-setup.h) deliver
 * frames to either endpoint of a connected pair; what the endpoints send is dropped, so the
 * input plays both wires. Nothing may crash, every frame gets exactly one verdict, whatever
 * an endpoint sends decodes, and no timer asks for the past. Records with control bit 8 get a
 * valid header checksum first, so that they reach the checks behind it.
 */
#include "st-fuzz-setup.h"
#include "st-header.h"

#include <vector>

using namespace gsnfuzz;
using namespace ns3::st;

namespace
{

void
Drain(StEndpoint& ep)
{
    StTransmit t;
    while (ep.PollTransmit(t))
    {
        StHeader h;
        FUZZ_CHECK(StHeader::Decode(t.bytes.data(), t.bytes.size(), h) == StDecodeStatus::Ok);
    }
}

void
RunDue(StEndpoint& ep, uint64_t now)
{
    for (int guard = 0; ep.PollTimeout() <= now; ++guard)
    {
        FUZZ_CHECK(guard < 100000);
        ep.HandleTimeout(now);
        Drain(ep);
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    StPair w;
    FUZZ_CHECK(w.Setup());
    Drain(w.a);
    Drain(w.b);
    RecordReader reader(data, size);
    Record r;
    while (reader.Next(r))
    {
        w.now += uint64_t(r.dt) * ((r.ctl & 0x80) ? 10000000 : 1000);
        if (!(r.ctl & 4))
        {
            const bool toB = r.ctl & 1;
            StPeerAddress from =
                (r.ctl & 2) ? StPair::ADDR_STRANGER : (toB ? StPair::ADDR_A : StPair::ADDR_B);
            if ((r.ctl & 8) && r.len >= ST_HEADER_SIZE)
            {
                // The record with a valid header checksum: it reaches the checks behind it.
                std::vector<uint8_t> sealed(r.data, r.data + r.len);
                StHeader::SealChecksum(sealed.data());
                (toB ? w.b : w.a).Receive(w.now, from, sealed.data(), sealed.size());
            }
            else
            {
                (toB ? w.b : w.a).Receive(w.now, from, r.data, r.len);
            }
        }
        for (StEndpoint* ep : {&w.a, &w.b})
        {
            Drain(*ep);
            RunDue(*ep, w.now);
            const StCounters& c = ep->GetCounters();
            FUZZ_CHECK(c.TotalVerdicts() == c.Get(StStat::RxFrames));
        }
        w.DrainEvents();
    }
    return 0;
}
