// harp-fuzz-test.cc: fuzz-style tests: many random and mutated frames (seeded, so every run is
// the same) fed to clients in every phase and to a server, interleaved with timers and
// resolutions. Nothing may crash, every frame must land in exactly one counter, every frame an
// engine sends must be well-formed, and no engine may ask to be woken in the past.
#include "harp-client.h"
#include "harp-server.h"
#include "harp-test-util.h"

#include <boost/test/unit_test.hpp>
#include <random>

using namespace harp;
using namespace harp::test;

namespace
{

const Ula kOwn = MakeUla(0x0a);
const Ipv4 kOwnIp = Ip("192.0.2.10");
const Ula kS1 = MakeUla(0x01);
const Ula kS2 = MakeUla(0x02);

/// Deterministic random numbers (modulo, not std distributions, so every library agrees).
class Random
{
  public:
    explicit Random(uint64_t seed)
        : m_engine(seed)
    {
    }

    uint64_t Below(uint64_t bound)
    {
        return bound == 0 ? 0 : m_engine() % bound;
    }

    uint8_t Byte()
    {
        return static_cast<uint8_t>(m_engine());
    }

  private:
    std::mt19937_64 m_engine;
};

/// An address an attacker or a confused host would use: mostly in the LIS, sometimes not.
Ipv4
SomeIp(Random& random)
{
    switch (random.Below(6))
    {
    case 0:
        return kOwnIp;
    case 1:
        return Ipv4(static_cast<uint32_t>(random.Below(1ULL << 32)));
    case 2:
        return Ip("192.0.2.31");
    default:
        return Ipv4(Ip("192.0.2.0").Get() + static_cast<uint32_t>(random.Below(32)));
    }
}

Ula
SomeUla(Random& random)
{
    switch (random.Below(7))
    {
    case 0:
        return kOwn;
    case 1:
        return kS1;
    case 2:
        return kS2;
    case 3:
        return Ula::Broadcast();
    case 4:
        return Ula();
    case 5:
        return Ula::FromUint64(random.Below(1ULL << 48));
    default:
        return MakeUla(static_cast<uint8_t>(random.Below(32)));
    }
}

/// A well-formed message with plausible fields.
Message
SomeMessage(Random& random)
{
    static const Op ops[] = {Op::ArpRequest,
                             Op::ArpReply,
                             Op::InArpRequest,
                             Op::InArpReply,
                             Op::Nak};
    return MakeMessage(ops[random.Below(5)],
                       SomeUla(random),
                       SomeIp(random),
                       SomeUla(random),
                       SomeIp(random));
}

/// A message aimed at an engine (ULA own, address ownIp) often enough to reach deep code.
Message
AimedMessage(Random& random, Ula own, Ipv4 ownIp)
{
    Message message = SomeMessage(random);
    if (random.Below(2) == 0)
    {
        message.targetUla = own;
    }
    if (random.Below(2) == 0)
    {
        message.targetIp = ownIp;
    }
    if (message.op == Op::Nak && random.Below(2) == 0)
    {
        message.senderUla = own;
        message.senderIp = ownIp;
    }
    return message;
}

/// Bytes: random, a valid message, or a valid message with a few mutations.
std::vector<uint8_t>
SomeFrame(Random& random, const Message& message)
{
    const uint64_t kind = random.Below(10);
    if (kind == 0)
    {
        std::vector<uint8_t> bytes(random.Below(64));
        for (uint8_t& byte : bytes)
        {
            byte = random.Byte();
        }
        return bytes;
    }
    std::vector<uint8_t> bytes = message.Serialize();
    if (kind < 5)
    {
        return bytes;
    }
    const uint64_t mutations = 1 + random.Below(3);
    for (uint64_t i = 0; i < mutations; ++i)
    {
        switch (random.Below(5))
        {
        case 0: // flip a bit
            if (!bytes.empty())
            {
                bytes[random.Below(bytes.size())] ^= static_cast<uint8_t>(1U << random.Below(8));
            }
            break;
        case 1: // overwrite a byte
            if (!bytes.empty())
            {
                bytes[random.Below(bytes.size())] = random.Byte();
            }
            break;
        case 2: // truncate
            bytes.resize(random.Below(bytes.size() + 1));
            break;
        case 3: // padding
            bytes.resize(bytes.size() + random.Below(16), random.Byte());
            break;
        default: // a header field set to a neighbour value
            if (bytes.size() >= 8)
            {
                bytes[1 + 2 * random.Below(4)] += static_cast<uint8_t>(1 + random.Below(3));
            }
            break;
        }
    }
    return bytes;
}

/// Runs due timers as an adapter would and checks the engine's promises.
template <typename Engine>
void
RunDue(Engine& engine, TimeNs now)
{
    while (auto next = engine.PollTimeout())
    {
        if (*next > now)
        {
            break;
        }
        engine.HandleTimeout(now);
        const auto after = engine.PollTimeout();
        BOOST_REQUIRE(!after || *after > now);
    }
}

/// Drains an engine, checking that what it sends is well-formed and from itself.
template <typename Engine>
std::size_t
CheckOutput(Engine& engine, const Ula& own)
{
    std::size_t count = 0;
    while (auto frame = engine.PollTransmit())
    {
        ++count;
        BOOST_REQUIRE(frame->bytes.size() == kMessageSize);
        const ParseResult parsed = Parse(frame->bytes.data(), frame->bytes.size());
        BOOST_REQUIRE(parsed.message);
        BOOST_REQUIRE(!frame->destination.IsZero());
        if (parsed.message->op != Op::Nak && parsed.message->op != Op::ArpReply)
        {
            BOOST_REQUIRE(parsed.message->senderUla == own);
        }
        if (parsed.message->op == Op::ArpReply || parsed.message->op == Op::InArpReply ||
            parsed.message->op == Op::Nak)
        {
            BOOST_REQUIRE(frame->destination.IsUnicast());
        }
    }
    TakeEvents(engine);
    return count;
}

ClientConfig
Config(FabricMode mode)
{
    ClientConfig config;
    config.ula = kOwn;
    config.address = kOwnIp;
    config.lis = Lis("192.0.2.0/27");
    config.servers = {kS1, kS2};
    config.mode = mode;
    config.statics = {StaticEntry{Ip("192.0.2.20"), MakeUla(20)}};
    return config;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fuzz)

BOOST_AUTO_TEST_CASE(random_and_mutated_frames_never_break_a_client)
{
    for (FabricMode mode : {FabricMode::Detect, FabricMode::Broadcast, FabricMode::NonBroadcast})
    {
        Random random(0x4841525000 + static_cast<uint64_t>(mode));
        Client client(Config(mode));
        TimeNs now = 0;
        client.Start(now);
        std::size_t sent = CheckOutput(client, kOwn);
        for (int i = 0; i < 40000; ++i)
        {
            now += random.Below(400 * kMillisecond);
            const uint64_t action = random.Below(20);
            if (action == 0)
            {
                client.Resolve(now, SomeIp(random));
            }
            else if (action == 1)
            {
                client.AddStatic(SomeIp(random), SomeUla(random));
            }
            else if (action == 2)
            {
                client.RemoveStatic(SomeIp(random));
            }
            else
            {
                const Message message = AimedMessage(random, kOwn, kOwnIp);
                // Mostly from the host the message claims to come from, or from a server.
                Ula source = message.senderUla;
                if (random.Below(3) == 0)
                {
                    source = random.Below(2) == 0 ? kS1 : SomeUla(random);
                }
                const std::vector<uint8_t> bytes = SomeFrame(random, message);
                client.HandleFrame(now, source, bytes.data(), bytes.size());
            }
            RunDue(client, now);
            sent += CheckOutput(client, kOwn);
            BOOST_REQUIRE(CountersAddUp(client.GetStats()));
        }
        const Stats& stats = client.GetStats();
        BOOST_TEST(stats.txFrames == sent);
        BOOST_TEST(stats.rxFrames > 30000U);
        BOOST_TEST(stats.rxHandled > 0U);
        for (DropReason reason : {DropReason::Truncated,
                                  DropReason::BadHardwareType,
                                  DropReason::BadProtocolType,
                                  DropReason::BadAddressLength,
                                  DropReason::UnknownOperation,
                                  DropReason::SenderMismatch})
        {
            BOOST_TEST(stats.Drops(reason) > 0U, DropReasonName(reason));
        }
        BOOST_TEST_MESSAGE("client mode " << int(mode) << ": rx " << stats.rxFrames << " handled "
                                          << stats.rxHandled << " ignored " << stats.rxIgnored
                                          << " dropped " << stats.Dropped() << " tx " << sent);
    }
}

BOOST_AUTO_TEST_CASE(random_and_mutated_frames_never_break_a_server)
{
    Random random(0x5345525645);
    ServerConfig config;
    config.ula = kS1;
    config.lis = {ServedLis{Lis("192.0.2.0/27"), Ip("192.0.2.1")},
                  ServedLis{Lis("192.0.2.32/27"), Ip("192.0.2.33")}};
    config.statics = {StaticEntry{Ip("192.0.2.20"), MakeUla(20)}};
    Server server(config);
    TimeNs now = 0;
    std::size_t sent = 0;
    for (int i = 0; i < 60000; ++i)
    {
        now += random.Below(200 * kMillisecond);
        if (random.Below(500) == 0)
        {
            server.AddStatic(SomeIp(random), SomeUla(random));
        }
        if (random.Below(500) == 0)
        {
            server.RemoveStatic(SomeIp(random));
        }
        Message message = AimedMessage(random, kS1, Ip("192.0.2.1"));
        if (random.Below(4) != 0)
        {
            // Mostly one ULA per address, as on a real LIS, so that registrations succeed.
            message.senderUla = MakeUla(static_cast<uint8_t>(message.senderIp.Get() + 100));
        }
        Ula source = message.senderUla;
        if (random.Below(8) == 0)
        {
            source = SomeUla(random);
        }
        std::vector<uint8_t> bytes = SomeFrame(random, message);
        server.HandleFrame(now, source, bytes);
        RunDue(server, now);
        while (auto frame = server.PollTransmit())
        {
            ++sent;
            BOOST_REQUIRE(Parse(frame->bytes.data(), frame->bytes.size()).message);
            BOOST_REQUIRE(frame->destination.IsUnicast());
        }
        TakeEvents(server);
        BOOST_REQUIRE(CountersAddUp(server.GetStats()));
        // The table never holds a mapping outside the served LIS, nor to a group ULA.
        if (i % 1000 == 0)
        {
            for (const auto& [ip, entry] : server.GetTable().GetEntries())
            {
                BOOST_REQUIRE(entry.ula.IsUnicast());
                BOOST_REQUIRE((Lis("192.0.2.0/26").Contains(ip)));
            }
        }
    }
    const Stats& stats = server.GetStats();
    BOOST_TEST(stats.txFrames == sent);
    BOOST_TEST(stats.rxHandled > 1000U);
    BOOST_TEST(stats.Drops(DropReason::OutsideLis) > 0U);
    BOOST_TEST(stats.Drops(DropReason::AddressConflict) > 0U);
    BOOST_TEST(stats.Drops(DropReason::StaticConflict) > 0U);
    BOOST_TEST(stats.Drops(DropReason::WrongTarget) > 0U);
    BOOST_TEST(stats.Drops(DropReason::BadSender) > 0U);
    BOOST_TEST_MESSAGE("server: rx " << stats.rxFrames << " handled " << stats.rxHandled
                                     << " ignored " << stats.rxIgnored << " dropped "
                                     << stats.Dropped() << " tx " << sent);
    for (std::size_t i = 0; i < kDropReasonCount; ++i)
    {
        BOOST_TEST_MESSAGE("  " << DropReasonName(static_cast<DropReason>(i)) << " "
                                << stats.drops[i]);
    }
}

BOOST_AUTO_TEST_CASE(codec_accepts_exactly_what_it_can_write_back)
{
    Random random(0x434f444543);
    std::size_t accepted = 0;
    for (int i = 0; i < 200000; ++i)
    {
        std::vector<uint8_t> bytes = SomeFrame(random, SomeMessage(random));
        const ParseResult result = Parse(bytes.data(), bytes.size());
        if (!result.message)
        {
            continue;
        }
        ++accepted;
        const std::vector<uint8_t> written = result.message->Serialize();
        BOOST_REQUIRE(bytes.size() >= kMessageSize);
        BOOST_REQUIRE(std::equal(written.begin(), written.end(), bytes.begin()));
    }
    BOOST_TEST(accepted > 100000U);
}

BOOST_AUTO_TEST_SUITE_END()
