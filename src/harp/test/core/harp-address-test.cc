// harp-address-test.cc: unit tests of the address value types: Ula, Ipv4 and Subnet.
#include "harp-ipv4.h"
#include "harp-subnet.h"
#include "harp-test-util.h"
#include "harp-ula.h"

#include <boost/test/unit_test.hpp>

using namespace harp;
using namespace harp::test;

BOOST_AUTO_TEST_SUITE(address)

BOOST_AUTO_TEST_CASE(ula_parse_and_print)
{
    const auto ula = Ula::Parse("02:0A:ff:00:10:9c");
    BOOST_REQUIRE(ula);
    const Ula::Bytes expected{0x02, 0x0a, 0xff, 0x00, 0x10, 0x9c};
    BOOST_TEST(ula->GetBytes() == expected);
    BOOST_TEST(ula->ToString() == "02:0a:ff:00:10:9c");
    BOOST_TEST(Ula::Parse("02-0a-ff-00-10-9c").value() == *ula);
    BOOST_TEST(ula->ToUint64() == 0x020aff00109cULL);
    BOOST_TEST(Ula::FromUint64(0x020aff00109cULL) == *ula);
    uint8_t raw[6] = {};
    ula->CopyTo(raw);
    BOOST_TEST(Ula::FromBytes(raw) == *ula);
}

BOOST_AUTO_TEST_CASE(ula_rejects_malformed_text)
{
    for (const char* text : {"",
                             "02:0a:ff:00:10",
                             "02:0a:ff:00:10:9c:00",
                             "02:0a:ff:00:10:9g",
                             "02:0a-ff:00:10:9c",
                             "020a:ff:00:10:9c:",
                             "2:0a:ff:00:10:9c0",
                             "02.0a.ff.00.10.9c"})
    {
        BOOST_TEST(!Ula::Parse(text), text);
    }
}

BOOST_AUTO_TEST_CASE(ula_classes)
{
    BOOST_TEST(Ula::Broadcast().IsBroadcast());
    BOOST_TEST(Ula::Broadcast().IsGroup());
    BOOST_TEST(!Ula::Broadcast().IsUnicast());
    BOOST_TEST(Ula().IsZero());
    BOOST_TEST(!Ula().IsUnicast());
    BOOST_TEST(Ula::Parse("01:00:5e:00:00:01")->IsGroup());
    BOOST_TEST(MakeUla(7).IsUnicast());
    BOOST_TEST(MakeUla(1) < MakeUla(2));
    BOOST_TEST(MakeUla(1) != MakeUla(2));
}

BOOST_AUTO_TEST_CASE(ipv4_parse_and_print)
{
    BOOST_TEST(Ipv4::Parse("192.0.2.33")->Get() == 0xc0000221U);
    BOOST_TEST(Ipv4(0xc0000221U).ToString() == "192.0.2.33");
    BOOST_TEST(Ipv4::Parse("0.0.0.0")->IsAny());
    BOOST_TEST(Ipv4::Parse("255.255.255.255")->IsLimitedBroadcast());
    BOOST_TEST(Ipv4::Parse("224.0.0.9")->IsMulticast());
    BOOST_TEST(Ipv4::Parse("239.255.255.255")->IsMulticast());
    BOOST_TEST(!Ipv4::Parse("240.0.0.1")->IsMulticast());
    for (const char* text : {"",
                             "1.2.3",
                             "1.2.3.4.5",
                             "256.1.1.1",
                             "1.2.3.4 ",
                             "a.b.c.d",
                             "1..2.3",
                             "1.2.3.0004",
                             "-1.2.3.4"})
    {
        BOOST_TEST(!Ipv4::Parse(text), text);
    }
}

BOOST_AUTO_TEST_CASE(subnet_forms_and_membership)
{
    // The seed's example: netmask 0xFFFFFFE0 makes LIS of 32 addresses.
    const Subnet lis1 = Lis("192.0.2.0/27");
    BOOST_TEST(Lis("192.0.2.0/0xFFFFFFE0") == lis1);
    BOOST_TEST(Lis("192.0.2.0/255.255.255.224") == lis1);
    BOOST_TEST(Lis("192.0.2.17/27") == lis1); // host bits cleared
    BOOST_TEST(lis1.ToString() == "192.0.2.0/27");
    BOOST_TEST(lis1.GetMask() == Ip("255.255.255.224"));
    BOOST_TEST(lis1.GetPrefixLength() == 27);
    BOOST_TEST(lis1.Contains(Ip("192.0.2.31")));
    BOOST_TEST(!lis1.Contains(Ip("192.0.2.32")));
    BOOST_TEST(lis1.IsHost(Ip("192.0.2.1")));
    BOOST_TEST(!lis1.IsHost(Ip("192.0.2.0")));
    BOOST_TEST(!lis1.IsHost(Ip("192.0.2.31")));
    BOOST_TEST(lis1.IsDirectedBroadcast(Ip("192.0.2.31")));
    BOOST_TEST(!lis1.IsDirectedBroadcast(Ip("192.0.2.63")));
    BOOST_TEST(!lis1.IsHost(Ip("192.0.2.40")));
}

BOOST_AUTO_TEST_CASE(subnet_edge_prefixes_and_errors)
{
    const Subnet point = Lis("10.0.0.0/31");
    BOOST_TEST(point.IsHost(Ip("10.0.0.0")));
    BOOST_TEST(point.IsHost(Ip("10.0.0.1")));
    BOOST_TEST(!point.IsDirectedBroadcast(Ip("10.0.0.1")));
    const Subnet all;
    BOOST_TEST(all.Contains(Ip("8.8.8.8")));
    BOOST_TEST(!all.IsHost(Ip("255.255.255.255")));
    BOOST_TEST(!Subnet::FromMask(Ip("10.0.0.0"), Ip("255.0.255.0")));
    BOOST_TEST(Subnet::FromMask(Ip("10.1.2.3"), Ip("0.0.0.0"))->GetPrefixLength() == 0);
    BOOST_TEST(Subnet::FromMask(Ip("10.1.2.3"), Ip("255.255.255.255"))->GetPrefixLength() == 32);
    for (const char* text : {"10.0.0.0",
                             "10.0.0.0/",
                             "10.0.0.0/33",
                             "10.0.0.0/0x",
                             "10.0.0.0/0xFF00FF00",
                             "x/8",
                             "10.0.0.0/1a"})
    {
        BOOST_TEST(!Subnet::Parse(text), text);
    }
}

BOOST_AUTO_TEST_SUITE_END()
