// harp-test-util.h: small helpers shared by the HARP engine unit tests: address shorthands and
// draining an engine's frames and events. Test-only; never part of the module library.
#ifndef HARP_TEST_UTIL_H
#define HARP_TEST_UTIL_H

#include "harp-client.h"
#include "harp-message.h"
#include "harp-server.h"
#include "harp-subnet.h"

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <vector>

namespace harp
{

// How Boost.Test prints the engine's value types in failure messages (found by ADL). They live
// here, not in the engine, which does no I/O.

inline std::ostream&
boost_test_print_type(std::ostream& os, const Ula& ula)
{
    return os << ula.ToString();
}

inline std::ostream&
boost_test_print_type(std::ostream& os, const Ipv4& ip)
{
    return os << ip.ToString();
}

inline std::ostream&
boost_test_print_type(std::ostream& os, const Subnet& subnet)
{
    return os << subnet.ToString();
}

inline std::ostream&
boost_test_print_type(std::ostream& os, const Message& message)
{
    return os << message.ToString();
}

inline std::ostream&
boost_test_print_type(std::ostream& os, Op op)
{
    return os << OpName(op);
}

inline std::ostream&
boost_test_print_type(std::ostream& os, Phase phase)
{
    return os << PhaseName(phase);
}

inline std::ostream&
boost_test_print_type(std::ostream& os, EventType type)
{
    return os << EventTypeName(type);
}

inline std::ostream&
boost_test_print_type(std::ostream& os, FailReason reason)
{
    return os << FailReasonName(reason);
}

inline std::ostream&
boost_test_print_type(std::ostream& os, DropReason reason)
{
    return os << DropReasonName(reason);
}

namespace test
{

/// An address from dotted-quad text (the test's own constants: must parse).
inline Ipv4
Ip(const char* text)
{
    const auto ip = Ipv4::Parse(text);
    if (!ip)
    {
        throw std::invalid_argument(text);
    }
    return *ip;
}

/// 02:00:00:00:00:nn, a locally administered unicast ULA.
inline Ula
MakeUla(uint8_t n)
{
    return Ula(Ula::Bytes{0x02, 0x00, 0x00, 0x00, 0x00, n});
}

/// A subnet from text (the test's own constants: must parse).
inline Subnet
Lis(const char* text)
{
    const auto subnet = Subnet::Parse(text);
    if (!subnet)
    {
        throw std::invalid_argument(text);
    }
    return *subnet;
}

/// Decodes a frame an engine produced (engines only produce valid frames).
inline Message
Decode(const Frame& frame)
{
    const ParseResult result = Parse(frame.bytes.data(), frame.bytes.size());
    if (!result.message)
    {
        throw std::logic_error("engine produced an invalid frame");
    }
    return *result.message;
}

/// Every frame waiting in an engine.
template <typename Engine>
std::vector<Frame>
TakeFrames(Engine& engine)
{
    std::vector<Frame> frames;
    while (auto frame = engine.PollTransmit())
    {
        frames.push_back(std::move(*frame));
    }
    return frames;
}

/// Every event waiting in an engine.
template <typename Engine>
std::vector<Event>
TakeEvents(Engine& engine)
{
    std::vector<Event> events;
    while (auto event = engine.PollEvent())
    {
        events.push_back(*event);
    }
    return events;
}

/// The events of one type among events.
inline std::vector<Event>
OfType(const std::vector<Event>& events, EventType type)
{
    std::vector<Event> selected;
    for (const Event& event : events)
    {
        if (event.type == type)
        {
            selected.push_back(event);
        }
    }
    return selected;
}

/// A message with the given fields.
inline Message
MakeMessage(Op op, Ula sha, Ipv4 spa, Ula tha, Ipv4 tpa)
{
    Message message;
    message.op = op;
    message.senderUla = sha;
    message.senderIp = spa;
    message.targetUla = tha;
    message.targetIp = tpa;
    return message;
}

/// True if the counters account for every received frame.
inline bool
CountersAddUp(const Stats& stats)
{
    return stats.rxFrames == stats.rxHandled + stats.rxIgnored + stats.Dropped();
}

} // namespace test
} // namespace harp

#endif // HARP_TEST_UTIL_H
