// harp-options-fuzzer.cc: fuzz target of the harpd.options parser (harp::ParseOptions,
// ParseDuration) and of applying its result to both engines' configurations: any text parses
// (bad lines become errors with their line number) and the configured engines start.
#include "fuzz-common.h"
#include "harp-client.h"
#include "harp-options.h"
#include "harp-server.h"

#include <algorithm>
#include <string_view>

using namespace harp;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const OptionsParseResult r = ParseOptions(text);
    const std::size_t lines = std::count(text.begin(), text.end(), '\n') + 1;
    std::size_t last = 0;
    for (const OptionsError& e : r.errors)
    {
        FUZZ_CHECK(e.line >= 1 && e.line <= lines && e.line > last);
        FUZZ_CHECK(!e.message.empty());
        last = e.line;
    }
    // Each line on its own as a duration too (the parser's building block).
    std::size_t start = 0;
    while (start <= text.size())
    {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
        {
            end = text.size();
        }
        (void)ParseDuration(text.substr(start, end - start));
        start = end + 1;
    }

    ClientConfig cc;
    cc.ula = Ula(Ula::Bytes{0x02, 0, 0, 0, 0, 0x0a});
    cc.address = *Ipv4::Parse("192.0.2.10");
    cc.lis = *Subnet::Parse("192.0.2.0/24");
    r.options.ApplyTo(cc);
    ServerConfig sc;
    sc.ula = Ula(Ula::Bytes{0x02, 0, 0, 0, 0, 0x01});
    r.options.ApplyTo(sc);
    // The engines take what the options give them: they start and run one timer round.
    Client client(cc);
    client.Start(0);
    while (client.PollTransmit())
    {
    }
    if (auto t = client.PollTimeout())
    {
        client.HandleTimeout(*t);
    }
    Server server(sc);
    if (auto t = server.PollTimeout())
    {
        server.HandleTimeout(*t);
    }
    return 0;
}
