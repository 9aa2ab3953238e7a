// harp-options-test.cc: unit tests of the harpd.options-like configuration text.
#include "harp-options.h"
#include "harp-test-util.h"

#include <boost/test/unit_test.hpp>

using namespace harp;
using namespace harp::test;

BOOST_AUTO_TEST_SUITE(options)

BOOST_AUTO_TEST_CASE(full_example_parses)
{
    const char* text = R"(# HARP configuration of LIS_1 (192.0.2.0/27)
fabric nonbroadcast
server 02:00:00:00:00:01
server 02:00:00:00:00:02   # second server, for redundancy
static 192.0.2.9 02:00:00:00:00:09
serve 192.0.2.0/27 192.0.2.1
serve 192.0.2.32/0xFFFFFFE0 192.0.2.33

broadcast-probes 5
probe-interval 500ms
registration-retry 10s
request-timeout 3s
request-retries 4
reregistration-interval 15m
cache-lifetime 15min
registration-lifetime 20m
revalidate-idle yes
)";
    const OptionsParseResult result = ParseOptions(text);
    BOOST_TEST(result.Ok());
    const Options& options = result.options;
    BOOST_TEST((options.mode == FabricMode::NonBroadcast));
    BOOST_TEST(options.servers.size() == 2U);
    BOOST_TEST(options.servers[1] == MakeUla(2));
    BOOST_TEST(options.statics.size() == 1U);
    BOOST_TEST(options.statics[0].ip == Ip("192.0.2.9"));
    BOOST_TEST(options.lis.size() == 2U);
    BOOST_TEST((options.lis[1].subnet == Lis("192.0.2.32/27")));
    BOOST_TEST(options.lis[1].serverAddress == Ip("192.0.2.33"));
    BOOST_TEST(options.broadcastProbes.value() == 5U);
    BOOST_TEST(options.probeInterval.value() == 500 * kMillisecond);
    BOOST_TEST(options.requestRetries.value() == 4U);
    BOOST_TEST(options.cacheLifetime.value() == 15 * kMinute);
    BOOST_TEST(options.registrationLifetime.value() == 20 * kMinute);
    BOOST_TEST(options.revalidateIdleEntries.value());

    ClientConfig client;
    client.lis = Lis("192.0.2.0/27");
    options.ApplyTo(client);
    BOOST_TEST((client.mode == FabricMode::NonBroadcast));
    BOOST_TEST(client.servers.size() == 2U);
    BOOST_TEST(client.statics.size() == 1U);
    BOOST_TEST(client.broadcastProbes == 5U);
    BOOST_TEST(client.requestRetries == 4U);
    BOOST_TEST(client.revalidateIdleEntries);

    ServerConfig server;
    options.ApplyTo(server);
    BOOST_TEST(server.lis.size() == 2U);
    BOOST_TEST(server.statics.size() == 1U);
    BOOST_TEST(server.registrationLifetime == 20 * kMinute);
}

BOOST_AUTO_TEST_CASE(empty_text_keeps_defaults)
{
    const OptionsParseResult result = ParseOptions("\n   \n# nothing\n");
    BOOST_TEST(result.Ok());
    ClientConfig client;
    result.options.ApplyTo(client);
    BOOST_TEST((client.mode == FabricMode::Detect));
    BOOST_TEST(client.broadcastProbes == kDefaultBroadcastProbes);
    BOOST_TEST(client.probeInterval == 1 * kSecond);
    BOOST_TEST(client.registrationRetry == 10 * kSecond);
    BOOST_TEST(client.requestTimeout == 3 * kSecond);
    BOOST_TEST(client.requestRetries == 2U);
    BOOST_TEST(client.reregistrationInterval == 15 * kMinute);
    BOOST_TEST(client.cacheLifetime == 15 * kMinute);
    ServerConfig server;
    result.options.ApplyTo(server);
    BOOST_TEST(server.registrationLifetime == 20 * kMinute);
}

BOOST_AUTO_TEST_CASE(errors_name_their_line_and_skip_it)
{
    const char* text = "server 02:00:00:00:00:01\n"
                       "server ff:ff:ff:ff:ff:ff\n"      // 2: broadcast is no server
                       "static 192.0.2.9\n"              // 3: missing ULA
                       "serve 192.0.2.0/27 192.0.2.31\n" // 4: broadcast address
                       "fabric sometimes\n"              // 5
                       "request-timeout 0s\n"            // 6: zero
                       "request-retries -1\n"            // 7
                       "bogus 1\n"                       // 8
                       "cache-lifetime 10 parsecs\n"     // 9: two arguments
                       "probe-interval 2d\n"             // 10: unknown unit
                       "broadcast-probes 0\n"            // 11: at least one
                       "server 02:00:00:00:00:02\n";
    const OptionsParseResult result = ParseOptions(text);
    BOOST_TEST(!result.Ok());
    std::vector<std::size_t> lines;
    for (const OptionsError& error : result.errors)
    {
        lines.push_back(error.line);
        BOOST_TEST(!error.message.empty());
    }
    const std::vector<std::size_t> expected = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    BOOST_TEST(lines == expected, boost::test_tools::per_element());
    BOOST_TEST(result.options.servers.size() == 2U); // valid lines still count
    BOOST_TEST(!result.options.requestTimeout);
}

BOOST_AUTO_TEST_CASE(durations)
{
    BOOST_TEST(ParseDuration("3").value() == 3 * kSecond);
    BOOST_TEST(ParseDuration("250ns").value() == 250U);
    BOOST_TEST(ParseDuration("7us").value() == 7 * kMicrosecond);
    BOOST_TEST(ParseDuration("1500ms").value() == 1500 * kMillisecond);
    BOOST_TEST(ParseDuration("2h").value() == 2 * kHour);
    BOOST_TEST(!ParseDuration(""));
    BOOST_TEST(!ParseDuration("s"));
    BOOST_TEST(!ParseDuration("1.5s"));
    BOOST_TEST(!ParseDuration("99999999999999h")); // overflow
}

BOOST_AUTO_TEST_CASE(windows_line_endings_and_tabs)
{
    const OptionsParseResult result =
        ParseOptions("server\t02:00:00:00:00:01\r\nfabric broadcast\r\n");
    BOOST_TEST(result.Ok());
    BOOST_TEST(result.options.servers.size() == 1U);
    BOOST_TEST((result.options.mode == FabricMode::Broadcast));
}

BOOST_AUTO_TEST_SUITE_END()
