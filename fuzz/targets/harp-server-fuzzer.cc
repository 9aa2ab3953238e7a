// harp-server-fuzzer.cc: fuzz target of the HARP server engine (harp::Server), serving two
// LIS: received frames, static entries, look-ups and time as records
// (common/harp-fuzz-setup.h). Nothing may crash, every frame lands in one counter, every
// frame sent is well-formed and unicast, the table holds only unicast ULAs in the served LIS.
#include "harp-fuzz-setup.h"

using namespace harp;
using namespace gsnfuzz;
using namespace gsnfuzz::harpsetup;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    Server server(ServerSetup());
    const Subnet served = *Subnet::Parse("192.0.2.0/26");
    TimeNs now = 0;
    RecordReader reader(data, size);
    Record r;
    while (reader.Next(r))
    {
        now += Step(r);
        switch (r.ctl & 7)
        {
        case FRAME:
            server.HandleFrame(now, SourceOf(r), r.data, r.len);
            break;
        case RESOLVE:
            (void)server.Lookup(now, IpOf(r));
            break;
        case ADD_STATIC:
            (void)server.AddStatic(IpOf(r), UlaOf(r));
            break;
        case REMOVE_STATIC:
            (void)server.RemoveStatic(IpOf(r));
            break;
        default:
            break;
        }
        RunDue(server, now);
        while (auto f = server.PollTransmit())
        {
            FUZZ_CHECK(Parse(f->bytes.data(), f->bytes.size()).message);
            FUZZ_CHECK(f->destination.IsUnicast());
        }
        while (server.PollEvent())
        {
        }
        FUZZ_CHECK(CountersAddUp(server.GetStats()));
        for (const auto& [ip, entry] : server.GetTable().GetEntries())
        {
            FUZZ_CHECK(entry.ula.IsUnicast());
            FUZZ_CHECK(served.Contains(ip));
        }
    }
    return 0;
}
