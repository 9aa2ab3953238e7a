// harp-server-test.cc: unit tests of the server engine driven by hand with a fake clock:
// registration by InARP and by ARP requests, replies and HARP_NAK, the 20-minute aging, several
// LIS on one server, static entries, conflicts and the drop counters.
#include "harp-server.h"
#include "harp-test-util.h"

#include <boost/test/unit_test.hpp>

using namespace harp;
using namespace harp::test;

namespace
{

const Ula kServer = MakeUla(0x01);
const Ipv4 kServerIp1 = Ip("192.0.2.1");  // in LIS_1 192.0.2.0/27
const Ipv4 kServerIp2 = Ip("192.0.2.33"); // in LIS_2 192.0.2.32/27
const Ula kA = MakeUla(0x0a);
const Ipv4 kAIp = Ip("192.0.2.10");
const Ula kB = MakeUla(0x0b);
const Ipv4 kBIp = Ip("192.0.2.11");
const Ula kC = MakeUla(0x0c);
const Ipv4 kCIp = Ip("192.0.2.40"); // LIS_2

ServerConfig
Config()
{
    ServerConfig config;
    config.ula = kServer;
    config.lis = {ServedLis{Lis("192.0.2.0/27"), kServerIp1},
                  ServedLis{Lis("192.0.2.32/27"), kServerIp2}};
    return config;
}

void
Feed(Server& server, TimeNs now, Ula source, const Message& message)
{
    server.HandleFrame(now, source, message.Serialize());
}

Message
InArpRequest(Ula client, Ipv4 clientIp)
{
    return MakeMessage(Op::InArpRequest, client, clientIp, kServer, Ipv4());
}

Message
ArpRequest(Ula client, Ipv4 clientIp, Ipv4 target)
{
    return MakeMessage(Op::ArpRequest, client, clientIp, Ula(), target);
}

/// The only frame the server has queued.
Frame
OnlyFrame(Server& server)
{
    auto frames = TakeFrames(server);
    BOOST_REQUIRE(frames.size() == 1U);
    return frames[0];
}

} // namespace

BOOST_AUTO_TEST_SUITE(server)

BOOST_AUTO_TEST_CASE(inarp_request_registers_and_is_answered)
{
    Server server(Config());
    Feed(server, 5 * kSecond, kA, InArpRequest(kA, kAIp));
    const Frame reply = OnlyFrame(server);
    BOOST_TEST(reply.destination == kA);
    const std::vector<uint8_t> expected = {
        0x00, 0x1c, 0x08, 0x00, 0x06, 0x04, 0x00, 0x09, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
        0xc0, 0x00, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a, 0xc0, 0x00, 0x02, 0x0a};
    BOOST_TEST(reply.bytes == expected, boost::test_tools::per_element());
    BOOST_TEST(server.Lookup(5 * kSecond, kAIp).value() == kA);
    const auto events = TakeEvents(server);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::ClientRegistered));
    BOOST_TEST(events[0].ip == kAIp);
    BOOST_TEST(events[0].ula == kA);
    BOOST_TEST(server.PollTimeout().value() == 5 * kSecond + 20 * kMinute);
    // A refresh is no new registration.
    Feed(server, 6 * kSecond, kA, InArpRequest(kA, kAIp));
    BOOST_TEST(TakeEvents(server).empty());
    BOOST_TEST(server.PollTimeout().value() == 6 * kSecond + 20 * kMinute);
}

BOOST_AUTO_TEST_CASE(arp_request_is_answered_with_the_registered_mapping)
{
    Server server(Config());
    Feed(server, 0, kB, InArpRequest(kB, kBIp));
    TakeFrames(server);
    Feed(server, 1, kA, ArpRequest(kA, kAIp, kBIp));
    const Frame reply = OnlyFrame(server);
    BOOST_TEST(reply.destination == kA);
    BOOST_TEST((Decode(reply) == MakeMessage(Op::ArpReply, kB, kBIp, kA, kAIp)));
}

BOOST_AUTO_TEST_CASE(unknown_address_gets_a_nak_that_copies_the_request)
{
    Server server(Config());
    const Message request = MakeMessage(Op::ArpRequest, kA, kAIp, MakeUla(0x55), kBIp);
    Feed(server, 0, kA, request);
    const Frame nak = OnlyFrame(server);
    BOOST_TEST(nak.destination == kA);
    std::vector<uint8_t> expected = request.Serialize();
    expected[7] = 10; // only op changes
    BOOST_TEST(nak.bytes == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(arp_request_registers_its_sender)
{
    Server server(Config());
    Feed(server, 0, kA, ArpRequest(kA, kAIp, kBIp));
    TakeFrames(server);
    BOOST_TEST(server.Lookup(0, kAIp).value() == kA);
    BOOST_TEST(OfType(TakeEvents(server), EventType::ClientRegistered).size() == 1U);
    // And refreshes it later.
    Feed(server, 10 * kMinute, kA, ArpRequest(kA, kAIp, kBIp));
    BOOST_TEST(server.GetTable().Find(kAIp)->expiresAt == 30 * kMinute);
}

BOOST_AUTO_TEST_CASE(server_answers_for_its_own_addresses)
{
    Server server(Config());
    Feed(server, 0, kA, ArpRequest(kA, kAIp, kServerIp1));
    BOOST_TEST(
        (Decode(OnlyFrame(server)) == MakeMessage(Op::ArpReply, kServer, kServerIp1, kA, kAIp)));
    BOOST_TEST(server.GetTable().GetStaticCount() == 2U);
    BOOST_TEST(!server.RemoveStatic(kServerIp1));
}

BOOST_AUTO_TEST_CASE(clients_are_forgotten_after_twenty_minutes_of_silence)
{
    Server server(Config());
    Feed(server, 1 * kSecond, kA, InArpRequest(kA, kAIp));
    Feed(server, 2 * kSecond, kB, InArpRequest(kB, kBIp));
    TakeFrames(server);
    TakeEvents(server);
    BOOST_TEST(server.PollTimeout().value() == 1 * kSecond + 20 * kMinute);
    server.HandleTimeout(1 * kSecond + 20 * kMinute - 1);
    BOOST_TEST(TakeEvents(server).empty());
    BOOST_TEST(server.Lookup(1 * kSecond + 20 * kMinute - 1, kAIp).has_value());
    // Not yet swept, but no longer answered for.
    BOOST_TEST(!server.Lookup(1 * kSecond + 20 * kMinute, kAIp));
    server.HandleTimeout(1 * kSecond + 20 * kMinute);
    const auto events = TakeEvents(server);
    BOOST_REQUIRE(events.size() == 1U);
    BOOST_TEST((events[0].type == EventType::ClientForgotten));
    BOOST_TEST(events[0].ip == kAIp);
    BOOST_TEST(!server.GetTable().Find(kAIp));
    BOOST_TEST(server.PollTimeout().value() == 2 * kSecond + 20 * kMinute);
    // A question about the forgotten client now gets a NAK.
    Feed(server, 21 * kMinute, kB, ArpRequest(kB, kBIp, kAIp));
    BOOST_TEST((Decode(OnlyFrame(server)).op == Op::Nak));
}

BOOST_AUTO_TEST_CASE(reregistration_every_fifteen_minutes_keeps_a_client_for_hours)
{
    Server server(Config());
    for (TimeNs t = 0; t <= 5 * kHour; t += 15 * kMinute)
    {
        while (auto next = server.PollTimeout())
        {
            if (*next > t)
            {
                break;
            }
            server.HandleTimeout(*next);
        }
        Feed(server, t, kA, InArpRequest(kA, kAIp));
    }
    BOOST_TEST(OfType(TakeEvents(server), EventType::ClientForgotten).empty());
    BOOST_TEST(server.Lookup(5 * kHour, kAIp).value() == kA);
}

BOOST_AUTO_TEST_CASE(one_server_serves_several_lis_without_crossing_them)
{
    Server server(Config());
    Feed(server, 0, kA, InArpRequest(kA, kAIp));
    BOOST_TEST(Decode(OnlyFrame(server)).senderIp == kServerIp1);
    Feed(server, 0, kC, InArpRequest(kC, kCIp));
    BOOST_TEST(Decode(OnlyFrame(server)).senderIp == kServerIp2); // its address in LIS_2
    // Both registered, but A may not learn C: NAK across LIS.
    Feed(server, 1, kA, ArpRequest(kA, kAIp, kCIp));
    BOOST_TEST((Decode(OnlyFrame(server)).op == Op::Nak));
    Feed(server, 1, kC, ArpRequest(kC, kCIp, kServerIp1));
    BOOST_TEST((Decode(OnlyFrame(server)).op == Op::Nak));
    Feed(server, 1, kC, ArpRequest(kC, kCIp, kServerIp2));
    BOOST_TEST((Decode(OnlyFrame(server)).op == Op::ArpReply));
    // A sender outside every served LIS is dropped.
    Feed(server, 1, kB, InArpRequest(kB, Ip("198.51.100.7")));
    Feed(server, 1, kB, ArpRequest(kB, Ip("198.51.100.7"), kAIp));
    BOOST_TEST(TakeFrames(server).empty());
    BOOST_TEST(server.GetStats().Drops(DropReason::OutsideLis) == 2U);
    // The subnet's broadcast address is no host.
    Feed(server, 1, kB, InArpRequest(kB, Ip("192.0.2.31")));
    BOOST_TEST(server.GetStats().Drops(DropReason::OutsideLis) == 3U);
}

BOOST_AUTO_TEST_CASE(static_entries_are_served_and_protected)
{
    ServerConfig config = Config();
    config.statics = {StaticEntry{kBIp, kB}};
    Server server(config);
    Feed(server, 0, kA, ArpRequest(kA, kAIp, kBIp));
    BOOST_TEST((Decode(OnlyFrame(server)) == MakeMessage(Op::ArpReply, kB, kBIp, kA, kAIp)));
    // Someone else registering the static address is refused.
    Feed(server, 1, kC, InArpRequest(kC, kBIp));
    BOOST_TEST(TakeFrames(server).empty());
    BOOST_TEST(server.GetStats().Drops(DropReason::StaticConflict) == 1U);
    // The host itself may speak HARP: answered, entry stays static.
    Feed(server, 2, kB, InArpRequest(kB, kBIp));
    BOOST_TEST((Decode(OnlyFrame(server)).op == Op::InArpReply));
    BOOST_TEST(server.GetTable().Find(kBIp)->isStatic);
    // Never ages.
    server.HandleTimeout(10 * kHour);
    BOOST_TEST(server.Lookup(10 * kHour, kBIp).value() == kB);
    // gsnarp -s / -d.
    BOOST_TEST(!server.AddStatic(Ip("198.51.100.7"), kC)); // no served LIS
    BOOST_TEST(!server.AddStatic(kServerIp2, kC));         // own address
    BOOST_TEST(!server.AddStatic(kCIp, Ula::Broadcast()));
    BOOST_TEST(server.AddStatic(kCIp, kC));
    BOOST_TEST(server.RemoveStatic(kBIp));
    BOOST_TEST(!server.RemoveStatic(kBIp));
    BOOST_TEST(!server.Lookup(10 * kHour, kBIp));
}

BOOST_AUTO_TEST_CASE(static_entry_overrides_a_registration)
{
    Server server(Config());
    Feed(server, 0, kA, InArpRequest(kA, kAIp));
    BOOST_TEST(server.AddStatic(kAIp, kB));
    BOOST_TEST(server.Lookup(0, kAIp).value() == kB);
    BOOST_TEST(!server.PollTimeout()); // the dynamic entry is gone
}

BOOST_AUTO_TEST_CASE(second_ula_for_a_registered_address_is_refused_until_it_ages)
{
    Server server(Config());
    Feed(server, 0, kA, InArpRequest(kA, kAIp));
    TakeFrames(server);
    TakeEvents(server);
    Feed(server, 1 * kMinute, kB, InArpRequest(kB, kAIp));
    BOOST_TEST(TakeFrames(server).empty());
    BOOST_TEST(server.GetStats().Drops(DropReason::AddressConflict) == 1U);
    BOOST_TEST(server.Lookup(1 * kMinute, kAIp).value() == kA);
    // After the 20 minutes the address is free again (even before the sweep).
    Feed(server, 20 * kMinute, kB, InArpRequest(kB, kAIp));
    BOOST_TEST(TakeFrames(server).size() == 1U);
    BOOST_TEST(server.Lookup(20 * kMinute, kAIp).value() == kB);
    BOOST_TEST(OfType(TakeEvents(server), EventType::ClientRegistered).size() == 1U);
}

BOOST_AUTO_TEST_CASE(self_test_probes_are_learned_not_answered)
{
    Server server(Config());
    Feed(server, 0, kA, ArpRequest(kA, kAIp, kAIp));
    BOOST_TEST(TakeFrames(server).empty());
    BOOST_TEST(server.Lookup(0, kAIp).value() == kA);
    BOOST_TEST(server.GetStats().rxHandled == 1U);
}

BOOST_AUTO_TEST_CASE(bad_input_is_dropped_and_counted_by_reason)
{
    Server server(Config());
    Feed(server, 0, kA, MakeMessage(Op::InArpRequest, kA, kAIp, MakeUla(0x99), Ipv4())); // not us
    Feed(server, 0, kB, InArpRequest(kA, kAIp));                             // sha != source
    Feed(server, 0, kB, ArpRequest(kA, kAIp, kBIp));                         // sha != source
    Feed(server, 0, Ula::Broadcast(), InArpRequest(Ula::Broadcast(), kAIp)); // group sender
    Feed(server, 0, kA, InArpRequest(kA, Ipv4()));                           // no sender IP
    Feed(server, 0, kA, ArpRequest(kA, Ip("224.0.0.1"), kBIp));              // multicast sender
    std::vector<uint8_t> badLength = InArpRequest(kA, kAIp).Serialize();
    badLength[4] = 8;
    server.HandleFrame(0, kA, badLength);
    std::vector<uint8_t> badProtocol = InArpRequest(kA, kAIp).Serialize();
    badProtocol[2] = 0x86;
    badProtocol[3] = 0xdd;
    server.HandleFrame(0, kA, badProtocol);
    std::vector<uint8_t> badOp = InArpRequest(kA, kAIp).Serialize();
    badOp[7] = 4;
    server.HandleFrame(0, kA, badOp);
    server.HandleFrame(0, kA, nullptr, 0);
    // Answers are for clients: ignored.
    Feed(server, 0, kA, MakeMessage(Op::ArpReply, kA, kAIp, kB, kBIp));
    Feed(server, 0, kA, MakeMessage(Op::InArpReply, kA, kAIp, kB, kBIp));
    Feed(server, 0, kA, MakeMessage(Op::Nak, kA, kAIp, Ula(), kBIp));

    const Stats& stats = server.GetStats();
    BOOST_TEST(stats.Drops(DropReason::WrongTarget) == 1U);
    BOOST_TEST(stats.Drops(DropReason::SenderMismatch) == 2U);
    BOOST_TEST(stats.Drops(DropReason::BadSender) == 3U);
    BOOST_TEST(stats.Drops(DropReason::BadAddressLength) == 1U);
    BOOST_TEST(stats.Drops(DropReason::BadProtocolType) == 1U);
    BOOST_TEST(stats.Drops(DropReason::UnknownOperation) == 1U);
    BOOST_TEST(stats.Drops(DropReason::Truncated) == 1U);
    BOOST_TEST(stats.rxIgnored == 3U);
    BOOST_TEST(stats.rxHandled == 0U);
    BOOST_TEST(stats.rxFrames == 13U);
    BOOST_TEST(CountersAddUp(stats));
    BOOST_TEST(TakeFrames(server).empty());
    BOOST_TEST(server.GetTable().GetSize() == 2U); // only its own addresses
}

BOOST_AUTO_TEST_SUITE_END()
