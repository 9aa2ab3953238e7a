// harp-message-test.cc: unit tests of the HARP codec: fixed byte vectors, round trips, and
// every reason a body is refused.
#include "harp-message.h"
#include "harp-test-util.h"

#include <boost/test/unit_test.hpp>
#include <vector>

using namespace harp;
using namespace harp::test;

namespace
{

// An ARP request from 192.0.2.10 (02:00:00:00:00:0a) for 192.0.2.11, written out by hand.
const std::vector<uint8_t> kRequestBytes = {
    0x00, 0x1c,                         // hrd 28 HIPARP
    0x08, 0x00,                         // pro IPv4
    0x06, 0x04,                         // hln, pln
    0x00, 0x01,                         // op request
    0x02, 0x00, 0x00, 0x00, 0x00, 0x0a, // sha
    0xc0, 0x00, 0x02, 0x0a,             // spa 192.0.2.10
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // tha unknown
    0xc0, 0x00, 0x02, 0x0b,             // tpa 192.0.2.11
};

Message
Request()
{
    return MakeMessage(Op::ArpRequest, MakeUla(0x0a), Ip("192.0.2.10"), Ula(), Ip("192.0.2.11"));
}

} // namespace

BOOST_AUTO_TEST_SUITE(codec)

BOOST_AUTO_TEST_CASE(constants_match_the_registry)
{
    BOOST_TEST(kHardwareType == 28);
    BOOST_TEST(kProtocolType == 0x0800);
    BOOST_TEST(kEtherType == 0x0806);
    BOOST_TEST(kMessageSize == 28U);
    BOOST_TEST(static_cast<int>(Op::ArpRequest) == 1);
    BOOST_TEST(static_cast<int>(Op::ArpReply) == 2);
    BOOST_TEST(static_cast<int>(Op::InArpRequest) == 8);
    BOOST_TEST(static_cast<int>(Op::InArpReply) == 9);
    BOOST_TEST(static_cast<int>(Op::Nak) == 10);
}

BOOST_AUTO_TEST_CASE(serialize_matches_fixed_bytes)
{
    const std::vector<uint8_t> bytes = Request().Serialize();
    BOOST_TEST(bytes == kRequestBytes, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(parse_fixed_bytes)
{
    const ParseResult result = Parse(kRequestBytes.data(), kRequestBytes.size());
    BOOST_REQUIRE(result.message);
    BOOST_TEST(result.message->op == Op::ArpRequest);
    BOOST_TEST(result.message->senderUla == MakeUla(0x0a));
    BOOST_TEST(result.message->senderIp == Ip("192.0.2.10"));
    BOOST_TEST(result.message->targetUla.IsZero());
    BOOST_TEST(result.message->targetIp == Ip("192.0.2.11"));
}

BOOST_AUTO_TEST_CASE(inarp_reply_fixed_bytes)
{
    // Server 192.0.2.1 (02:..:01) answers the registration of 192.0.2.10 (02:..:0a).
    const Message reply =
        MakeMessage(Op::InArpReply, MakeUla(1), Ip("192.0.2.1"), MakeUla(0x0a), Ip("192.0.2.10"));
    const std::vector<uint8_t> expected = {
        0x00, 0x1c, 0x08, 0x00, 0x06, 0x04, 0x00, 0x09, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
        0xc0, 0x00, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a, 0xc0, 0x00, 0x02, 0x0a};
    BOOST_TEST(reply.Serialize() == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(round_trip_every_operation)
{
    for (Op op : {Op::ArpRequest, Op::ArpReply, Op::InArpRequest, Op::InArpReply, Op::Nak})
    {
        const Message message = MakeMessage(op,
                                            Ula::Parse("12:34:56:78:9a:bc").value(),
                                            Ip("10.1.2.3"),
                                            Ula::Parse("fe:dc:ba:98:76:54").value(),
                                            Ip("203.0.113.250"));
        const std::vector<uint8_t> bytes = message.Serialize();
        BOOST_TEST(bytes.size() == kMessageSize);
        const ParseResult result = Parse(bytes.data(), bytes.size());
        BOOST_REQUIRE(result.message);
        BOOST_TEST((*result.message == message), OpName(op));
    }
}

BOOST_AUTO_TEST_CASE(trailing_padding_is_ignored)
{
    std::vector<uint8_t> padded = kRequestBytes;
    padded.resize(40, 0xee); // LLC/SNAP (8) + body (28) padded to a multiple of 8 by the device
    const ParseResult result = Parse(padded.data(), padded.size());
    BOOST_REQUIRE(result.message);
    BOOST_TEST((*result.message == Request()));
}

BOOST_AUTO_TEST_CASE(every_short_length_is_truncated)
{
    for (std::size_t size = 0; size < kMessageSize; ++size)
    {
        const ParseResult result = Parse(kRequestBytes.data(), size);
        BOOST_TEST(!result.message);
        BOOST_TEST((result.error == DropReason::Truncated));
    }
    BOOST_TEST((Parse(nullptr, 28).error == DropReason::Truncated));
}

BOOST_AUTO_TEST_CASE(bad_header_fields_are_refused_with_their_reason)
{
    struct Case
    {
        std::size_t offset;
        uint8_t value;
        DropReason reason;
    };

    const Case cases[] = {
        {1, 0x01, DropReason::BadHardwareType}, // Ethernet
        {1, 0x06, DropReason::BadHardwareType}, // IEEE 802
        {0, 0x01, DropReason::BadHardwareType},
        {2, 0x86, DropReason::BadProtocolType}, // 0x86dd IPv6
        {3, 0x06, DropReason::BadProtocolType},
        {4, 0x08, DropReason::BadAddressLength}, // hln
        {5, 0x10, DropReason::BadAddressLength}, // pln 16
        {7, 0x00, DropReason::UnknownOperation},
        {7, 0x03, DropReason::UnknownOperation}, // RARP request
        {7, 0x0b, DropReason::UnknownOperation},
        {6, 0x01, DropReason::UnknownOperation}, // op 0x0101
    };
    for (const Case& c : cases)
    {
        std::vector<uint8_t> bytes = kRequestBytes;
        bytes[c.offset] = c.value;
        const ParseResult result = Parse(bytes.data(), bytes.size());
        BOOST_TEST(!result.message);
        BOOST_TEST((result.error == c.reason), "offset " << c.offset << " value " << int(c.value));
    }
}

BOOST_AUTO_TEST_CASE(checks_run_in_a_fixed_order)
{
    std::vector<uint8_t> bytes = kRequestBytes;
    bytes[1] = 0x01; // bad hrd
    bytes[3] = 0x06; // bad pro
    bytes[7] = 0x33; // bad op
    BOOST_TEST((Parse(bytes.data(), bytes.size()).error == DropReason::BadHardwareType));
    BOOST_TEST((Parse(bytes.data(), 27).error == DropReason::Truncated));
}

BOOST_AUTO_TEST_CASE(names_for_logs)
{
    BOOST_TEST(std::string(OpName(Op::Nak)) == "Nak");
    BOOST_TEST(std::string(DropReasonName(DropReason::StaticConflict)) == "StaticConflict");
    BOOST_TEST(
        Request().ToString() ==
        "ArpRequest sha=02:00:00:00:00:0a spa=192.0.2.10 tha=00:00:00:00:00:00 tpa=192.0.2.11");
    for (std::size_t i = 0; i < kDropReasonCount; ++i)
    {
        BOOST_TEST(std::string(DropReasonName(static_cast<DropReason>(i))) != "Unknown");
    }
}

BOOST_AUTO_TEST_SUITE_END()
