// harp-client-test.cc: unit tests of the client engine driven by hand with a fake clock: the
// broadcast self-test, registration, resolution through servers, retries, re-registration,
// dead servers and fallback, cache revalidation, static entries, broadcast-fabric behaviour and
// the drop counters. The test plays every other party.
#include "harp-client.h"
#include "harp-test-util.h"

#include <boost/test/unit_test.hpp>

using namespace harp;
using namespace harp::test;

namespace
{

const Ula kOwn = MakeUla(0x0a);
const Ipv4 kOwnIp = Ip("192.0.2.10");
const Ula kS1 = MakeUla(0x01);
const Ipv4 kS1Ip = Ip("192.0.2.1");
const Ula kS2 = MakeUla(0x02);
const Ipv4 kS2Ip = Ip("192.0.2.2");
const Ula kB = MakeUla(0x0b);
const Ipv4 kBIp = Ip("192.0.2.11");
const Ula kC = MakeUla(0x0c);
const Ipv4 kCIp = Ip("192.0.2.12");

ClientConfig
Config(FabricMode mode)
{
    ClientConfig config;
    config.ula = kOwn;
    config.address = kOwnIp;
    config.lis = Lis("192.0.2.0/27");
    config.servers = {kS1, kS2};
    config.mode = mode;
    return config;
}

void
Feed(Client& client, TimeNs now, Ula source, const Message& message)
{
    client.HandleFrame(now, source, message.Serialize());
}

Message
InArpReplyFrom(Ula server, Ipv4 serverIp)
{
    return MakeMessage(Op::InArpReply, server, serverIp, kOwn, kOwnIp);
}

Message
ServerReply(Ula resolvedUla, Ipv4 resolvedIp)
{
    return MakeMessage(Op::ArpReply, resolvedUla, resolvedIp, kOwn, kOwnIp);
}

Message
NakFor(Ipv4 target)
{
    return MakeMessage(Op::Nak, kOwn, kOwnIp, Ula(), target);
}

Message
RequestFor(Ipv4 target)
{
    return MakeMessage(Op::ArpRequest, kOwn, kOwnIp, Ula(), target);
}

/// A non-broadcast client registered with both servers at time 0, queues drained.
Client
Operational(const ClientConfig& config = Config(FabricMode::NonBroadcast))
{
    Client client(config);
    client.Start(0);
    Feed(client, 0, kS1, InArpReplyFrom(kS1, kS1Ip));
    Feed(client, 0, kS2, InArpReplyFrom(kS2, kS2Ip));
    TakeFrames(client);
    TakeEvents(client);
    return client;
}

/// A client on a broadcast fabric, queues drained.
Client
BroadcastOperational()
{
    Client client(Config(FabricMode::Broadcast));
    client.Start(0);
    TakeFrames(client);
    TakeEvents(client);
    return client;
}

/// Runs the client's timers up to and including end, as an adapter would.
void
RunTimers(Client& client, TimeNs end)
{
    while (auto next = client.PollTimeout())
    {
        if (*next > end)
        {
            break;
        }
        client.HandleTimeout(*next);
        BOOST_REQUIRE(!client.PollTimeout() || *client.PollTimeout() > *next);
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(client)

// --- Broadcast self-test ----------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(probe_is_a_request_for_our_own_address_to_broadcast)
{
    Client client(Config(FabricMode::Detect));
    BOOST_TEST((client.GetPhase() == Phase::Idle));
    BOOST_TEST(!client.PollTimeout());
    client.Start(5 * kSecond);
    BOOST_TEST((client.GetPhase() == Phase::Detecting));
    const auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination.IsBroadcast());
    const std::vector<uint8_t> expected = {
        0x00, 0x1c, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a,
        0xc0, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x0a};
    BOOST_TEST(frames[0].bytes == expected, boost::test_tools::per_element());
    BOOST_TEST(client.PollTimeout().value() == 6 * kSecond);
    client.Start(6 * kSecond); // a second Start changes nothing
    BOOST_TEST(TakeFrames(client).empty());
}

BOOST_AUTO_TEST_CASE(copy_of_probe_means_broadcast_fabric)
{
    Client client(Config(FabricMode::Detect));
    client.Start(0);
    const Frame probe = TakeFrames(client).at(0);
    TakeEvents(client);
    client.HandleFrame(10 * kMicrosecond, kOwn, probe.bytes);
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 2U);
    BOOST_TEST((events[0].type == EventType::BroadcastDetected));
    BOOST_TEST(events[0].broadcast);
    BOOST_TEST((events[1].type == EventType::PhaseChanged));
    BOOST_TEST((events[1].phase == Phase::Operational));
    BOOST_TEST(client.IsBroadcastFabric().value());
    BOOST_TEST(!client.PollTimeout()); // no servers, no timers on a broadcast fabric
    BOOST_TEST(TakeFrames(client).empty());
    BOOST_TEST(client.GetStats().rxHandled == 1U);
    // Later copies of our own broadcasts are ignored.
    client.HandleFrame(20 * kMicrosecond, kOwn, probe.bytes);
    BOOST_TEST(client.GetStats().rxIgnored == 1U);
}

BOOST_AUTO_TEST_CASE(no_copy_after_three_probes_means_non_broadcast)
{
    Client client(Config(FabricMode::Detect));
    client.Start(0);
    BOOST_TEST(TakeFrames(client).size() == 1U);
    client.HandleTimeout(1 * kSecond);
    BOOST_TEST(TakeFrames(client).size() == 1U);
    client.HandleTimeout(2 * kSecond);
    BOOST_TEST(TakeFrames(client).size() == 1U);
    BOOST_TEST((client.GetPhase() == Phase::Detecting));
    BOOST_TEST(client.PollTimeout().value() == 3 * kSecond);
    client.HandleTimeout(3 * kSecond - 1); // early wake-up: nothing happens
    BOOST_TEST(TakeFrames(client).empty());
    client.HandleTimeout(3 * kSecond);
    BOOST_TEST(!client.IsBroadcastFabric().value());
    BOOST_TEST((client.GetPhase() == Phase::Registration));
    const auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 2U);
    BOOST_TEST(frames[0].destination == kS1);
    BOOST_TEST(frames[1].destination == kS2);
    const Message inarp = Decode(frames[1]);
    BOOST_TEST((inarp.op == Op::InArpRequest));
    BOOST_TEST(inarp.senderUla == kOwn);
    BOOST_TEST(inarp.senderIp == kOwnIp);
    BOOST_TEST(inarp.targetUla == kS2);
    BOOST_TEST(inarp.targetIp.IsAny());
    const auto detected = OfType(TakeEvents(client), EventType::BroadcastDetected);
    BOOST_REQUIRE(detected.size() == 1U);
    BOOST_TEST(!detected[0].broadcast);
}

BOOST_AUTO_TEST_CASE(one_lost_probe_does_not_decide)
{
    Client client(Config(FabricMode::Detect));
    client.Start(0);
    TakeFrames(client); // first probe lost
    client.HandleTimeout(1 * kSecond);
    const Frame second = TakeFrames(client).at(0);
    client.HandleFrame(1 * kSecond + 10, kOwn, second.bytes);
    BOOST_TEST(client.IsBroadcastFabric().value());
    BOOST_TEST((client.GetPhase() == Phase::Operational));
}

BOOST_AUTO_TEST_CASE(probe_count_and_interval_are_configurable)
{
    ClientConfig config = Config(FabricMode::Detect);
    config.broadcastProbes = 5;
    config.probeInterval = 200 * kMillisecond;
    Client client(config);
    client.Start(0);
    RunTimers(client, 999 * kMillisecond);
    BOOST_TEST(TakeFrames(client).size() == 5U);
    BOOST_TEST((client.GetPhase() == Phase::Detecting));
    RunTimers(client, 1 * kSecond);
    BOOST_TEST((client.GetPhase() == Phase::Registration));
}

BOOST_AUTO_TEST_CASE(forced_modes_skip_the_self_test)
{
    Client broadcast(Config(FabricMode::Broadcast));
    broadcast.Start(0);
    BOOST_TEST((broadcast.GetPhase() == Phase::Operational));
    BOOST_TEST(TakeFrames(broadcast).empty());
    Client nonBroadcast(Config(FabricMode::NonBroadcast));
    nonBroadcast.Start(0);
    BOOST_TEST((nonBroadcast.GetPhase() == Phase::Registration));
    BOOST_TEST(TakeFrames(nonBroadcast).size() == 2U); // InARP to both servers at once
}

// --- Registration -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(registration_retransmits_every_ten_seconds_until_a_reply)
{
    Client client(Config(FabricMode::NonBroadcast));
    client.Start(0);
    BOOST_TEST(TakeFrames(client).size() == 2U);
    BOOST_TEST(client.PollTimeout().value() == 10 * kSecond);
    RunTimers(client, 25 * kSecond);
    BOOST_TEST(TakeFrames(client).size() == 4U); // at 10 s and 20 s, both servers
    BOOST_TEST((client.GetPhase() == Phase::Registration));
    TakeEvents(client);

    // Server 2 comes up and answers: operational at once.
    Feed(client, 25 * kSecond, kS2, InArpReplyFrom(kS2, kS2Ip));
    BOOST_TEST((client.GetPhase() == Phase::Operational));
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 2U);
    BOOST_TEST((events[0].type == EventType::ServerUp));
    BOOST_TEST(events[0].ula == kS2);
    BOOST_TEST(events[0].ip == kS2Ip);
    BOOST_TEST((events[1].phase == Phase::Operational));
    BOOST_TEST((client.GetServers()[1].status == Client::ServerStatus::Alive));
    BOOST_TEST(client.GetServers()[1].address == kS2Ip);

    // Server 1 never answered: it keeps getting InARP requests every 10 s, server 2 does not.
    RunTimers(client, 30 * kSecond);
    auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kS1);
    Feed(client, 31 * kSecond, kS1, InArpReplyFrom(kS1, kS1Ip));
    RunTimers(client, 15 * kMinute);
    BOOST_TEST(TakeFrames(client).empty()); // both registered: quiet until re-registration
    BOOST_TEST(client.PollTimeout().value() == 25 * kSecond + 15 * kMinute);
}

BOOST_AUTO_TEST_CASE(duplicate_servers_count_once)
{
    ClientConfig config = Config(FabricMode::NonBroadcast);
    config.servers = {kS1, kS2, kS1};
    Client client(config);
    BOOST_TEST(client.GetServers().size() == 2U);
}

// --- Resolution through a server --------------------------------------------------------------

BOOST_AUTO_TEST_CASE(resolution_through_a_server)
{
    Client client = Operational();
    BOOST_TEST(!client.Resolve(1 * kSecond, kBIp));
    auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kS1);
    BOOST_TEST((Decode(frames[0]) == RequestFor(kBIp)));
    // Further misses send nothing more.
    BOOST_TEST(!client.Resolve(1 * kSecond + 5, kBIp));
    BOOST_TEST(TakeFrames(client).empty());
    BOOST_TEST(client.GetPendingCount() == 1U);

    Feed(client, 1 * kSecond + 100, kS1, ServerReply(kB, kBIp));
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::Resolved));
    BOOST_TEST(events[0].ip == kBIp);
    BOOST_TEST(events[0].ula == kB);
    BOOST_TEST(client.Resolve(2 * kSecond, kBIp).value() == kB);
    BOOST_TEST(client.Lookup(kBIp).value() == kB);
    BOOST_TEST(client.GetCache().Find(kBIp)->expiresAt == 1 * kSecond + 100 + 15 * kMinute);
    BOOST_TEST(client.GetPendingCount() == 0U);
    // A late copy of the reply confirms the entry; a different mapping nobody asked for is
    // dropped and changes nothing.
    Feed(client, 3 * kSecond, kS1, ServerReply(kB, kBIp));
    BOOST_TEST(client.GetStats().Dropped() == 0U);
    BOOST_TEST(client.GetCache().Find(kBIp)->expiresAt == 3 * kSecond + 15 * kMinute);
    Feed(client, 4 * kSecond, kS1, ServerReply(kC, kBIp));
    BOOST_TEST(client.GetStats().Drops(DropReason::UnsolicitedReply) == 1U);
    BOOST_TEST(client.Lookup(kBIp).value() == kB);
}

BOOST_AUTO_TEST_CASE(own_address_resolves_locally)
{
    Client client(Config(FabricMode::Detect));
    BOOST_TEST(client.Resolve(0, kOwnIp).value() == kOwn);
    BOOST_TEST(TakeFrames(client).empty());
}

BOOST_AUTO_TEST_CASE(nak_means_unresolvable)
{
    Client client = Operational();
    client.Resolve(0, kCIp);
    TakeFrames(client);
    Feed(client, 1000, kS1, NakFor(kCIp));
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::Unresolvable));
    BOOST_TEST((events[0].reason == FailReason::Nak));
    BOOST_TEST(events[0].ip == kCIp);
    BOOST_TEST(!client.GetCache().Find(kCIp));
    BOOST_TEST(client.GetPendingCount() == 0U);
    // The next attempt asks again.
    client.Resolve(2000, kCIp);
    BOOST_TEST(TakeFrames(client).size() == 1U);
}

BOOST_AUTO_TEST_CASE(timeouts_retry_on_the_next_live_server_then_give_up)
{
    Client client = Operational();
    client.Resolve(0, kBIp);
    BOOST_TEST(TakeFrames(client).at(0).destination == kS1);
    BOOST_TEST(client.PollTimeout().value() == 3 * kSecond);
    client.HandleTimeout(3 * kSecond);
    auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kS2);
    client.HandleTimeout(6 * kSecond);
    frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kS1);
    BOOST_TEST(TakeEvents(client).empty());
    client.HandleTimeout(9 * kSecond - 1);
    BOOST_TEST(TakeEvents(client).empty());
    client.HandleTimeout(9 * kSecond);
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::Unresolvable));
    BOOST_TEST((events[0].reason == FailReason::Timeout));
    BOOST_TEST(TakeFrames(client).empty());
    // Servers are still alive (only re-registration marks them dead).
    BOOST_TEST((client.GetServers()[0].status == Client::ServerStatus::Alive));
}

BOOST_AUTO_TEST_CASE(retry_count_is_configurable)
{
    ClientConfig config = Config(FabricMode::NonBroadcast);
    config.requestRetries = 0;
    config.requestTimeout = 500 * kMillisecond;
    Client client(config);
    client.Start(0);
    Feed(client, 0, kS1, InArpReplyFrom(kS1, kS1Ip));
    TakeEvents(client);
    client.Resolve(0, kBIp);
    client.HandleTimeout(500 * kMillisecond);
    BOOST_TEST(OfType(TakeEvents(client), EventType::Unresolvable).size() == 1U);
}

BOOST_AUTO_TEST_CASE(requests_made_while_registering_go_out_once_operational)
{
    Client client(Config(FabricMode::NonBroadcast));
    client.Start(0);
    TakeFrames(client);
    BOOST_TEST(!client.Resolve(1 * kSecond, kBIp));
    BOOST_TEST(TakeFrames(client).empty()); // no server to ask yet
    Feed(client, 2 * kSecond, kS2, InArpReplyFrom(kS2, kS2Ip));
    auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kS2);
    BOOST_TEST((Decode(frames[0]) == RequestFor(kBIp)));
    BOOST_TEST(client.PollTimeout().value() == 5 * kSecond); // a full attempt from now
}

BOOST_AUTO_TEST_CASE(requests_fail_if_registration_never_completes)
{
    Client client(Config(FabricMode::NonBroadcast));
    client.Start(0);
    client.Resolve(0, kBIp);
    RunTimers(client, 9 * kSecond);
    const auto failed = OfType(TakeEvents(client), EventType::Unresolvable);
    BOOST_REQUIRE(failed.size() == 1U);
    BOOST_TEST((failed[0].reason == FailReason::Timeout));
}

BOOST_AUTO_TEST_CASE(no_server_configured_fails_at_once)
{
    ClientConfig config = Config(FabricMode::NonBroadcast);
    config.servers.clear();
    Client client(config);
    client.Start(0);
    BOOST_TEST((client.GetPhase() == Phase::Registration));
    BOOST_TEST(!client.PollTimeout());
    BOOST_TEST(!client.Resolve(0, kBIp));
    const auto failed = OfType(TakeEvents(client), EventType::Unresolvable);
    BOOST_REQUIRE(failed.size() == 1U);
    BOOST_TEST((failed[0].reason == FailReason::NoServer));
    // Static entries still work (RFC 2835: the only way without a server).
    BOOST_TEST(client.AddStatic(kCIp, kC));
    BOOST_TEST(client.Resolve(0, kCIp).value() == kC);
}

BOOST_AUTO_TEST_CASE(addresses_outside_the_lis_are_never_resolved)
{
    Client client = Operational();
    for (const char* text : {"192.0.2.40", "10.0.0.1", "192.0.2.0"})
    {
        BOOST_TEST(!client.Resolve(0, Ip(text)), text);
        const auto events = TakeEvents(client);
        BOOST_REQUIRE(events.size() == 1U);
        BOOST_TEST((events[0].reason == FailReason::OutsideLis));
    }
    BOOST_TEST(TakeFrames(client).empty());
    BOOST_TEST(client.GetPendingCount() == 0U);
}

BOOST_AUTO_TEST_CASE(ip_broadcast_maps_to_the_broadcast_ula_only_on_broadcast_fabrics)
{
    Client broadcast = BroadcastOperational();
    BOOST_TEST(broadcast.Resolve(0, Ip("192.0.2.31")).value().IsBroadcast());
    BOOST_TEST(broadcast.Resolve(0, Ip("255.255.255.255")).value().IsBroadcast());
    BOOST_TEST(broadcast.Resolve(0, Ip("224.0.0.5")).value().IsBroadcast());
    Client nonBroadcast = Operational();
    BOOST_TEST(!nonBroadcast.Resolve(0, Ip("192.0.2.31")));
    const auto events = TakeEvents(nonBroadcast);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].reason == FailReason::NoBroadcast));
    BOOST_TEST(TakeFrames(nonBroadcast).empty());
}

// --- Re-registration, dead servers, fallback ----------------------------------------------------

BOOST_AUTO_TEST_CASE(reregistration_every_fifteen_minutes)
{
    Client client = Operational();
    BOOST_TEST(client.PollTimeout().value() == 15 * kMinute);
    for (int round = 1; round <= 4; ++round)
    {
        const TimeNs at = round * 15 * kMinute;
        RunTimers(client, at);
        const auto frames = TakeFrames(client);
        BOOST_REQUIRE(frames.size() == 2U);
        BOOST_TEST((Decode(frames[0]).op == Op::InArpRequest));
        BOOST_TEST(frames[0].destination == kS1);
        BOOST_TEST(frames[1].destination == kS2);
        Feed(client, at + 1000, kS1, InArpReplyFrom(kS1, kS1Ip));
        Feed(client, at + 2000, kS2, InArpReplyFrom(kS2, kS2Ip));
        BOOST_TEST(client.PollTimeout().value() == at + 15 * kMinute);
    }
    BOOST_TEST(TakeEvents(client).empty()); // no ServerUp again, no ServerDown
}

BOOST_AUTO_TEST_CASE(server_that_misses_reregistration_is_no_longer_used)
{
    Client client = Operational();
    RunTimers(client, 15 * kMinute);
    TakeFrames(client);
    Feed(client, 15 * kMinute + 1000, kS2, InArpReplyFrom(kS2, kS2Ip));
    RunTimers(client, 15 * kMinute + 6 * kSecond);
    auto frames = TakeFrames(client); // two retransmissions to server 1 only
    BOOST_REQUIRE(frames.size() == 2U);
    BOOST_TEST(frames[0].destination == kS1);
    BOOST_TEST(frames[1].destination == kS1);
    BOOST_TEST(TakeEvents(client).empty());
    RunTimers(client, 15 * kMinute + 9 * kSecond);
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::ServerDown));
    BOOST_TEST(events[0].ula == kS1);
    BOOST_TEST((client.GetServers()[0].status == Client::ServerStatus::Dead));
    BOOST_TEST((client.GetPhase() == Phase::Operational));
    // Resolution now goes to server 2 only.
    client.Resolve(16 * kMinute, kBIp);
    BOOST_TEST(TakeFrames(client).at(0).destination == kS2);
    client.HandleTimeout(16 * kMinute + 3 * kSecond);
    BOOST_TEST(TakeFrames(client).at(0).destination == kS2);
    // The dead server is asked again at the next re-registration, and comes back if it answers.
    RunTimers(client, 30 * kMinute);
    frames = TakeFrames(client);
    BOOST_TEST(frames.size() == 3U); // the last ARP retry at 16:06, then InARP to both
    Feed(client, 30 * kMinute + 10, kS1, InArpReplyFrom(kS1, kS1Ip));
    const auto up = OfType(TakeEvents(client), EventType::ServerUp);
    BOOST_REQUIRE(up.size() == 1U);
    BOOST_TEST(up[0].ula == kS1);
}

BOOST_AUTO_TEST_CASE(losing_every_server_falls_back_to_registration)
{
    Client client = Operational();
    RunTimers(client, 15 * kMinute + 9 * kSecond - 1);
    BOOST_TEST(TakeFrames(client).size() == 6U); // 3 attempts x 2 servers
    RunTimers(client, 15 * kMinute + 9 * kSecond);
    const auto events = TakeEvents(client);
    BOOST_TEST(OfType(events, EventType::ServerDown).size() == 2U);
    const auto phases = OfType(events, EventType::PhaseChanged);
    BOOST_REQUIRE(phases.size() == 1U);
    BOOST_TEST((phases[0].phase == Phase::Registration));
    BOOST_TEST(TakeFrames(client).size() == 2U); // registration starts at once
    // Resolution waits (and times out) while no server is known.
    client.Resolve(15 * kMinute + 10 * kSecond, kBIp);
    BOOST_TEST(TakeFrames(client).empty());
    RunTimers(client, 15 * kMinute + 19 * kSecond);
    BOOST_TEST(TakeFrames(client).size() == 2U); // the 10 s retransmission
    BOOST_TEST(OfType(TakeEvents(client), EventType::Unresolvable).size() == 1U);
    Feed(client, 15 * kMinute + 20 * kSecond, kS1, InArpReplyFrom(kS1, kS1Ip));
    BOOST_TEST((client.GetPhase() == Phase::Operational));
}

// --- Cache aging and revalidation ------------------------------------------------------------

BOOST_AUTO_TEST_CASE(used_entry_is_revalidated_after_fifteen_minutes)
{
    ClientConfig config = Config(FabricMode::NonBroadcast);
    config.reregistrationInterval = 10 * kHour; // keep re-registration out of the picture
    Client client = Operational(config);
    client.Resolve(1 * kSecond, kBIp);
    Feed(client, 1 * kSecond, kS1, ServerReply(kB, kBIp));
    TakeFrames(client);
    TakeEvents(client);
    BOOST_TEST(client.Resolve(5 * kMinute, kBIp).value() == kB); // used
    BOOST_TEST(client.PollTimeout().value() == 1 * kSecond + 15 * kMinute);
    RunTimers(client, 1 * kSecond + 15 * kMinute);
    const auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kS1);
    BOOST_TEST((Decode(frames[0]) == RequestFor(kBIp)));
    // Still usable while being revalidated.
    BOOST_TEST(client.Resolve(1 * kSecond + 15 * kMinute + 1, kBIp).value() == kB);
    Feed(client, 2 * kSecond + 15 * kMinute, kS1, ServerReply(kB, kBIp));
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::Revalidated));
    BOOST_TEST(client.GetCache().Find(kBIp)->expiresAt == 2 * kSecond + 30 * kMinute);
}

BOOST_AUTO_TEST_CASE(idle_entry_is_removed_after_fifteen_minutes)
{
    Client client = Operational();
    client.Resolve(0, kBIp);
    Feed(client, 0, kS1, ServerReply(kB, kBIp));
    TakeFrames(client);
    TakeEvents(client);
    RunTimers(client, 15 * kMinute - 1);
    BOOST_TEST(client.Lookup(kBIp).has_value());
    RunTimers(client, 15 * kMinute);
    BOOST_TEST(!client.Lookup(kBIp).has_value());
    const auto removed = OfType(TakeEvents(client), EventType::EntryRemoved);
    BOOST_REQUIRE(removed.size() == 1U);
    BOOST_TEST(removed[0].ip == kBIp);
    BOOST_TEST((removed[0].reason == FailReason::None));
    for (const Frame& frame : TakeFrames(client))
    {
        BOOST_TEST((Decode(frame).op == Op::InArpRequest)); // only re-registration went out
    }
}

BOOST_AUTO_TEST_CASE(idle_entry_is_revalidated_when_configured)
{
    ClientConfig config = Config(FabricMode::NonBroadcast);
    config.revalidateIdleEntries = true;
    config.reregistrationInterval = 10 * kHour;
    Client client = Operational(config);
    client.Resolve(0, kBIp);
    Feed(client, 0, kS1, ServerReply(kB, kBIp));
    TakeFrames(client);
    RunTimers(client, 15 * kMinute);
    BOOST_TEST(TakeFrames(client).size() == 1U);
}

BOOST_AUTO_TEST_CASE(nak_or_silence_at_revalidation_removes_the_entry)
{
    ClientConfig config = Config(FabricMode::NonBroadcast);
    config.revalidateIdleEntries = true;
    config.reregistrationInterval = 10 * kHour;
    Client client = Operational(config);
    client.Resolve(0, kBIp);
    Feed(client, 0, kS1, ServerReply(kB, kBIp));
    client.Resolve(0, kCIp);
    Feed(client, 0, kS1, ServerReply(kC, kCIp));
    TakeFrames(client);
    TakeEvents(client);
    RunTimers(client, 15 * kMinute);
    BOOST_TEST(TakeFrames(client).size() == 2U);
    Feed(client, 15 * kMinute + 1, kS1, NakFor(kBIp));
    auto removed = OfType(TakeEvents(client), EventType::EntryRemoved);
    BOOST_REQUIRE(removed.size() == 1U);
    BOOST_TEST(removed[0].ip == kBIp);
    BOOST_TEST((removed[0].reason == FailReason::Nak));
    RunTimers(client, 15 * kMinute + 9 * kSecond);
    removed = OfType(TakeEvents(client), EventType::EntryRemoved);
    BOOST_REQUIRE(removed.size() == 1U);
    BOOST_TEST(removed[0].ip == kCIp);
    BOOST_TEST((removed[0].reason == FailReason::Timeout));
    BOOST_TEST(client.GetCache().GetSize() == 0U);
}

// --- Static entries -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(static_entries_resolve_without_traffic_and_never_age)
{
    ClientConfig config = Config(FabricMode::NonBroadcast);
    config.statics = {StaticEntry{kCIp, kC}};
    Client client(config);
    client.Start(0);
    Feed(client, 0, kS1, InArpReplyFrom(kS1, kS1Ip));
    TakeFrames(client);
    BOOST_TEST(client.Resolve(0, kCIp).value() == kC);
    RunTimers(client, 5 * kHour);
    BOOST_TEST(client.Resolve(5 * kHour, kCIp).value() == kC);
    for (const Frame& frame : TakeFrames(client))
    {
        BOOST_TEST((Decode(frame).op == Op::InArpRequest));
    }
    BOOST_TEST(OfType(TakeEvents(client), EventType::EntryRemoved).empty());
}

BOOST_AUTO_TEST_CASE(reply_claiming_a_static_address_is_dropped)
{
    Client client = Operational();
    BOOST_TEST(client.AddStatic(kCIp, kC));
    Feed(client, 0, kS1, ServerReply(MakeUla(0x66), kCIp));
    BOOST_TEST(client.GetStats().Drops(DropReason::StaticConflict) == 1U);
    BOOST_TEST(client.Lookup(kCIp).value() == kC);
}

BOOST_AUTO_TEST_CASE(add_static_completes_a_resolution_and_remove_static_forgets)
{
    Client client = Operational();
    client.Resolve(0, kCIp);
    TakeFrames(client);
    BOOST_TEST(client.AddStatic(kCIp, kC));
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::Resolved));
    BOOST_TEST(events[0].ula == kC);
    BOOST_TEST(client.GetPendingCount() == 0U);
    BOOST_TEST(client.RemoveStatic(kCIp));
    BOOST_TEST(!client.RemoveStatic(kCIp));
    BOOST_TEST(!client.Resolve(1, kCIp));
}

BOOST_AUTO_TEST_CASE(unacceptable_static_entries_are_refused)
{
    Client client = Operational();
    BOOST_TEST(!client.AddStatic(Ip("192.0.2.40"), kC));   // other LIS
    BOOST_TEST(!client.AddStatic(Ip("192.0.2.31"), kC));   // directed broadcast
    BOOST_TEST(!client.AddStatic(kOwnIp, kC));             // our own address
    BOOST_TEST(!client.AddStatic(kCIp, Ula::Broadcast())); // group ULA
    BOOST_TEST(!client.AddStatic(kCIp, Ula()));            // zero ULA
    BOOST_TEST(client.GetCache().GetSize() == 0U);
}

BOOST_AUTO_TEST_CASE(static_entry_replaces_a_dynamic_one)
{
    Client client = Operational();
    client.Resolve(0, kBIp);
    Feed(client, 0, kS1, ServerReply(kB, kBIp));
    BOOST_TEST(client.AddStatic(kBIp, kC));
    BOOST_TEST(client.Lookup(kBIp).value() == kC);
    BOOST_TEST(client.GetCache().Find(kBIp)->isStatic);
}

// --- Broadcast fabric ---------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(broadcast_fabric_resolution)
{
    Client client = BroadcastOperational();
    client.Resolve(0, kBIp);
    auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination.IsBroadcast());
    BOOST_TEST((Decode(frames[0]) == RequestFor(kBIp)));
    // Our own request comes back too: ignored.
    client.HandleFrame(10, kOwn, frames[0].bytes);
    BOOST_TEST(client.GetStats().rxIgnored == 1U);
    // The owner answers by unicast.
    Feed(client, 20, kB, MakeMessage(Op::ArpReply, kB, kBIp, kOwn, kOwnIp));
    BOOST_TEST(client.Lookup(kBIp).value() == kB);
    BOOST_TEST(OfType(TakeEvents(client), EventType::Resolved).size() == 1U);
    // A reply relayed by someone else is refused on a broadcast fabric.
    client.Resolve(30, kCIp);
    Feed(client, 40, kS1, MakeMessage(Op::ArpReply, kC, kCIp, kOwn, kOwnIp));
    BOOST_TEST(client.GetStats().Drops(DropReason::SenderMismatch) == 1U);
    // NAKs are meaningless without servers.
    Feed(client, 50, kS1, NakFor(kCIp));
    BOOST_TEST(client.GetStats().Drops(DropReason::UnsolicitedReply) == 1U);
}

BOOST_AUTO_TEST_CASE(broadcast_fabric_host_answers_for_itself_and_learns)
{
    Client client = BroadcastOperational();
    Feed(client, 0, kB, MakeMessage(Op::ArpRequest, kB, kBIp, Ula(), kOwnIp));
    auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kB);
    BOOST_TEST((Decode(frames[0]) == MakeMessage(Op::ArpReply, kOwn, kOwnIp, kB, kBIp)));
    BOOST_TEST(client.Lookup(kBIp).value() == kB);
    // Requests for others, and probes of other hosts, are ignored.
    Feed(client, 1, kB, MakeMessage(Op::ArpRequest, kB, kBIp, Ula(), kCIp));
    Feed(client, 2, kC, MakeMessage(Op::ArpRequest, kC, kCIp, Ula(), kCIp));
    BOOST_TEST(TakeFrames(client).empty());
    BOOST_TEST(client.GetStats().rxIgnored == 2U);
    BOOST_TEST(!client.Lookup(kCIp));
}

BOOST_AUTO_TEST_CASE(non_broadcast_client_leaves_answers_to_servers)
{
    Client client = Operational();
    Feed(client, 0, kB, MakeMessage(Op::ArpRequest, kB, kBIp, Ula(), kOwnIp));
    Feed(client, 0, kB, MakeMessage(Op::InArpRequest, kB, kBIp, kOwn, Ipv4()));
    BOOST_TEST(TakeFrames(client).empty());
    BOOST_TEST(client.GetStats().rxIgnored == 2U);
}

BOOST_AUTO_TEST_CASE(broadcast_fabric_revalidates_with_the_host_itself)
{
    Client client = BroadcastOperational();
    client.Resolve(0, kBIp);
    Feed(client, 0, kB, MakeMessage(Op::ArpReply, kB, kBIp, kOwn, kOwnIp));
    client.Resolve(1, kBIp);
    TakeFrames(client);
    TakeEvents(client);
    RunTimers(client, 15 * kMinute);
    const auto frames = TakeFrames(client);
    BOOST_REQUIRE(frames.size() == 1U);
    BOOST_TEST(frames[0].destination == kB); // unicast, not broadcast
    Feed(client, 15 * kMinute + 5, kB, MakeMessage(Op::ArpReply, kB, kBIp, kOwn, kOwnIp));
    BOOST_TEST(OfType(TakeEvents(client), EventType::Revalidated).size() == 1U);
}

BOOST_AUTO_TEST_CASE(someone_else_claiming_our_address_is_reported)
{
    Client client(Config(FabricMode::Detect));
    client.Start(0);
    TakeEvents(client);
    const Ula intruder = MakeUla(0x77);
    Feed(client, 10, intruder, MakeMessage(Op::ArpRequest, intruder, kOwnIp, Ula(), kOwnIp));
    const auto events = TakeEvents(client);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::AddressConflict));
    BOOST_TEST(events[0].ula == intruder);
    BOOST_TEST(client.GetStats().Drops(DropReason::AddressConflict) == 1U);
    BOOST_TEST((client.GetPhase() == Phase::Detecting)); // not taken for our own copy
}

// --- Bad input --------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(bad_input_is_dropped_and_counted_by_reason)
{
    Client client = Operational();
    client.Resolve(0, kBIp);
    TakeFrames(client);
    const Stats before = client.GetStats();

    std::vector<uint8_t> wrongHardware = ServerReply(kB, kBIp).Serialize();
    wrongHardware[1] = 1;
    client.HandleFrame(1, kS1, wrongHardware);
    std::vector<uint8_t> truncated = ServerReply(kB, kBIp).Serialize();
    truncated.resize(20);
    client.HandleFrame(1, kS1, truncated);
    // Reply for someone else.
    Feed(client, 1, kS1, MakeMessage(Op::ArpReply, kB, kBIp, kC, kCIp));
    // Reply mapping to the broadcast ULA.
    Feed(client, 1, kS1, ServerReply(Ula::Broadcast(), kBIp));
    // Reply from a host that is not a server, on a non-broadcast fabric.
    Feed(client, 1, kB, ServerReply(kB, kBIp));
    // Reply nobody asked for.
    Feed(client, 1, kS1, ServerReply(kC, kCIp));
    // InARP reply from a stranger, and one whose sha is not its source.
    Feed(client, 1, kC, InArpReplyFrom(kC, kCIp));
    Feed(client, 1, kS1, InArpReplyFrom(kS2, kS2Ip));
    // InARP reply from a server that sits in another LIS.
    Feed(client, 1, kS1, InArpReplyFrom(kS1, Ip("192.0.2.33")));
    // NAK that is not a copy of our request, and one for nothing pending.
    Feed(client, 1, kS1, MakeMessage(Op::Nak, kC, kCIp, Ula(), kBIp));
    Feed(client, 1, kS1, NakFor(kCIp));
    // Request whose sha is not its source.
    Feed(client, 1, kS1, MakeMessage(Op::ArpRequest, kB, kBIp, Ula(), kOwnIp));

    const Stats& after = client.GetStats();
    BOOST_TEST(after.Drops(DropReason::BadHardwareType) == 1U);
    BOOST_TEST(after.Drops(DropReason::Truncated) == 1U);
    BOOST_TEST(after.Drops(DropReason::WrongTarget) == 2U);
    BOOST_TEST(after.Drops(DropReason::BadSender) == 1U);
    BOOST_TEST(after.Drops(DropReason::UnsolicitedReply) -
                   before.Drops(DropReason::UnsolicitedReply) ==
               4U);
    BOOST_TEST(after.Drops(DropReason::SenderMismatch) == 2U);
    BOOST_TEST(after.Drops(DropReason::OutsideLis) == 1U);
    BOOST_TEST(after.rxHandled == before.rxHandled);
    BOOST_TEST(CountersAddUp(after));
    BOOST_TEST(client.GetPendingCount() == 1U); // still waiting for the real answer
    BOOST_TEST(TakeFrames(client).empty());
}

BOOST_AUTO_TEST_CASE(frames_before_start_are_ignored)
{
    Client client(Config(FabricMode::Detect));
    Feed(client, 0, kS1, InArpReplyFrom(kS1, kS1Ip));
    BOOST_TEST(client.GetStats().rxIgnored == 1U);
    BOOST_TEST((client.GetPhase() == Phase::Idle));
}

BOOST_AUTO_TEST_CASE(event_descriptions)
{
    Event event;
    event.type = EventType::Unresolvable;
    event.ip = kBIp;
    event.reason = FailReason::Nak;
    BOOST_TEST(event.ToString() == "Unresolvable 192.0.2.11 Nak");
    event.type = EventType::PhaseChanged;
    event.phase = Phase::Registration;
    BOOST_TEST(event.ToString() == "PhaseChanged Registration");
}

BOOST_AUTO_TEST_SUITE_END()
