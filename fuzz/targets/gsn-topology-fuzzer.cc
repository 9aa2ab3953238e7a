/*
 * gsn-topology-fuzzer.cc: fuzz target of the topology text reader (GsnTopology::Parse) and of
 * what runs on its result (Validate, ToText). A text either parses or is refused with
 * std::invalid_argument; what parses must come back the same through ToText().
 */
#include "fuzz-common.h"
#include "gsn-topology.h"

#include <sstream>
#include <stdexcept>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    GsnTopology t;
    try
    {
        t = GsnTopology::Parse(in);
    }
    catch (const std::invalid_argument&)
    {
        return 0; // refused with a message: what the reader promises
    }
    (void)t.Validate();
    const std::string text = t.ToText();
    std::istringstream again(text);
    GsnTopology u = GsnTopology::Parse(again); // must not throw: our own output
    FUZZ_CHECK(u.GetNElements() == t.GetNElements());
    FUZZ_CHECK(u.GetCables().size() == t.GetCables().size());
    for (std::size_t i = 0; i < t.GetCables().size(); ++i)
    {
        const auto& a = t.GetCables()[i];
        const auto& b = u.GetCables()[i];
        FUZZ_CHECK(a.a == b.a && a.aPort == b.aPort && a.b == b.b && a.bPort == b.bPort);
        FUZZ_CHECK(a.lengthMeters == b.lengthMeters);
        FUZZ_CHECK(t.GetPeer(a.a, a.aPort) == std::make_pair(a.b, a.bPort));
        FUZZ_CHECK(t.GetPeer(a.b, a.bPort) == std::make_pair(a.a, a.aPort));
    }
    for (uint32_t id = 0; id < t.GetNElements(); ++id)
    {
        const auto& e = t.GetElement(id);
        const auto& f = u.GetElement(id);
        FUZZ_CHECK(e.kind == f.kind && e.numPorts == f.numPorts && e.name == f.name &&
                   e.coords == f.coords);
        FUZZ_CHECK(t.FindElement(e.name) == id);
    }
    FUZZ_CHECK(u.ToText() == text);
    FUZZ_CHECK(u.Validate() == t.Validate());
    return 0;
}
