// harp-client-fuzzer.cc: fuzz target of the HARP client engine (harp::Client): received
// frames, resolutions, static entries and time, as records (common/harp-fuzz-setup.h), after
// the first byte that picks the fabric mode. Nothing may crash, every frame lands in one
// counter, every frame the client sends is well-formed, it never asks to be woken in the past.
#include "harp-fuzz-setup.h"

using namespace harp;
using namespace gsnfuzz;
using namespace gsnfuzz::harpsetup;

namespace
{

void
Drain(Client& c)
{
    while (auto f = c.PollTransmit())
    {
        FUZZ_CHECK(f->bytes.size() == kMessageSize);
        const ParseResult p = Parse(f->bytes.data(), f->bytes.size());
        FUZZ_CHECK(p.message);
        FUZZ_CHECK(!f->destination.IsZero());
        const Op op = p.message->op;
        if (op != Op::Nak && op != Op::ArpReply)
        {
            FUZZ_CHECK(p.message->senderUla == kOwn);
        }
        if (op == Op::ArpReply || op == Op::InArpReply || op == Op::Nak)
        {
            FUZZ_CHECK(f->destination.IsUnicast());
        }
    }
    while (c.PollEvent())
    {
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < 1)
    {
        return 0;
    }
    ClientConfig config = ClientSetup(FabricMode(data[0] % 3));
    config.revalidateIdleEntries = (data[0] & 4) != 0;
    Client client(config);
    TimeNs now = 0;
    client.Start(now);
    Drain(client);
    RecordReader reader(data + 1, size - 1);
    Record r;
    while (reader.Next(r))
    {
        now += Step(r);
        switch (r.ctl & 7)
        {
        case FRAME:
            client.HandleFrame(now, SourceOf(r), r.data, r.len);
            break;
        case RESOLVE:
            (void)client.Resolve(now, IpOf(r));
            break;
        case ADD_STATIC:
            (void)client.AddStatic(IpOf(r), UlaOf(r));
            break;
        case REMOVE_STATIC:
            (void)client.RemoveStatic(IpOf(r));
            break;
        default:
            break;
        }
        RunDue(client, now);
        Drain(client);
        FUZZ_CHECK(CountersAddUp(client.GetStats()));
        (void)client.Lookup(IpOf(r));
    }
    return 0;
}
