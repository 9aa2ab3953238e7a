/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the GSN codecs: CRC, micropacket wire form, Message addressing header,
 * segmentation and reassembly, including malformed input from the wire. The buffers that
 * hold micropackets are tested in gsn-buffers-test-suite.cc.
 */
#include "gsn-micropacket-test-util.h"

#include "ns3/gsn-crc.h"
#include "ns3/gsn-message-assembler.h"
#include "ns3/gsn-message-header.h"
#include "ns3/gsn-message-segmenter.h"
#include "ns3/gsn-micropacket.h"
#include "ns3/llc-snap-header.h"
#include "ns3/test.h"

#include <algorithm>
#include <boost/crc.hpp>
#include <cstring>
#include <random>
#include <vector>

using namespace ns3;
using gsntest::MakeMessage;
using gsntest::Segment;

namespace
{

/// A micropacket with every field set to a distinct, non-zero value.
GsnMicropacket
SampleMicropacket(uint8_t type)
{
    GsnMicropacket mp;
    for (uint32_t i = 0; i < gsn::MICROPACKET_DATA_BYTES; ++i)
    {
        mp.MutableData()[i] = uint8_t(0xA0 + i);
    }
    mp.vc = 2;
    mp.type = type;
    mp.tail = true;
    mp.error = false;
    mp.vcr = 3;
    mp.cr = 45;
    mp.rseq = 0x5C;
    mp.tseq = 0xC5;
    mp.SetEcrc(0xBEEF);
    mp.SealLcrc();
    return mp;
}

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

} // namespace

/// CRC-16/CCITT check value and resumability.
class GsnCrcTestCase : public TestCase
{
  public:
    GsnCrcTestCase()
        : TestCase("CRC-16 CCITT check value and running computation")
    {
    }

  private:
    void DoRun() override
    {
        const char* check = "123456789";
        const auto* b = reinterpret_cast<const uint8_t*>(check);
        NS_TEST_ASSERT_MSG_EQ(gsn::Crc16Update(gsn::CRC_INITIAL, b, 9),
                              0x29B1,
                              "CRC-16/CCITT-FALSE check value of \"123456789\"");
        uint16_t running = gsn::Crc16Update(gsn::CRC_INITIAL, b, 4);
        running = gsn::Crc16Update(running, b + 4, 5);
        NS_TEST_ASSERT_MSG_EQ(running, 0x29B1, "a CRC resumed part way gives the same value");
        // The table-driven code against Boost.CRC, every length 0..40 and running values.
        std::mt19937 rng(3);
        for (std::size_t len = 0; len <= 40; ++len)
        {
            std::vector<uint8_t> data(len);
            for (auto& x : data)
            {
                x = uint8_t(rng());
            }
            const uint16_t start = uint16_t(rng());
            boost::crc_optimal<16, 0x1021, 0, 0, false, false> reference(start);
            reference.process_bytes(data.data(), len);
            NS_TEST_ASSERT_MSG_EQ(gsn::Crc16Update(start, data.data(), len),
                                  reference.checksum(),
                                  "same CRC as Boost.CRC over " << len << " bytes");
        }
    }
};

/// Every TYPE survives encode/decode, and a fixed vector matches byte for byte.
class GsnMicropacketCodecTestCase : public TestCase
{
  public:
    GsnMicropacketCodecTestCase()
        : TestCase("Micropacket wire form: round trips and a fixed byte vector")
    {
    }

  private:
    void DoRun() override
    {
        for (uint8_t type = 0; type < 16; ++type)
        {
            GsnMicropacket mp = SampleMicropacket(type);
            uint8_t wire[gsn::MICROPACKET_BYTES];
            mp.Serialize(wire);
            GsnMicropacket back = GsnMicropacket::Deserialize(wire);
            NS_TEST_ASSERT_MSG_EQ((back == mp), true, "round trip of TYPE " << unsigned(type));
            NS_TEST_ASSERT_MSG_EQ(back.LcrcIsGood(), true, "LCRC good after round trip");
        }

        // Fixed vector: Header on VC 2, T=1, E=0, VCR=3, CR=45, RSEQ=0x5C, TSEQ=0xC5,
        // ECRC=0xBEEF. Control byte 0 = VC<<6 | TYPE<<2 | T<<1 | E = 0x80|0x24|0x02 = 0xA6;
        // byte 1 = VCR<<6 | CR = 0xC0|0x2D = 0xED.
        GsnMicropacket mp = SampleMicropacket(uint8_t(GsnMicropacketType::HEADER));
        uint8_t wire[gsn::MICROPACKET_BYTES];
        mp.Serialize(wire);
        const uint8_t control[6] = {0xA6, 0xED, 0x5C, 0xC5, 0xBE, 0xEF};
        for (uint32_t i = 0; i < 32; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(wire[i]), unsigned(0xA0 + i), "data byte " << i);
        }
        for (uint32_t i = 0; i < 6; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(wire[32 + i]),
                                  unsigned(control[i]),
                                  "control byte " << i);
        }
        const uint16_t lcrc = gsn::Crc16Update(gsn::CRC_INITIAL, wire, 38);
        NS_TEST_ASSERT_MSG_EQ(unsigned(wire[38]), unsigned(lcrc >> 8), "LCRC high byte");
        NS_TEST_ASSERT_MSG_EQ(unsigned(wire[39]), unsigned(lcrc & 0xFF), "LCRC low byte");

        NS_TEST_ASSERT_MSG_EQ(std::string(GsnMicropacketTypeName(0x9)), "Header", "name");
        NS_TEST_ASSERT_MSG_EQ(GsnIsDefinedMicropacketType(0x6), false, "0x6 is reserved");
        NS_TEST_ASSERT_MSG_EQ(GsnIsDefinedMicropacketType(0xF), true, "0xF is Admin");
    }
};

/// Every single-bit error, and random multi-bit errors, fail the LCRC.
class GsnMicropacketCorruptionTestCase : public TestCase
{
  public:
    GsnMicropacketCorruptionTestCase()
        : TestCase("Corrupted micropackets fail the LCRC check")
    {
    }

  private:
    void DoRun() override
    {
        GsnMicropacket mp = SampleMicropacket(uint8_t(GsnMicropacketType::DATA));
        uint8_t wire[gsn::MICROPACKET_BYTES];
        mp.Serialize(wire);
        for (uint32_t bit = 0; bit < gsn::MICROPACKET_BYTES * 8; ++bit)
        {
            uint8_t bad[gsn::MICROPACKET_BYTES];
            std::memcpy(bad, wire, sizeof(bad));
            bad[bit / 8] ^= uint8_t(1u << (bit % 8));
            NS_TEST_ASSERT_MSG_EQ(GsnMicropacket::Deserialize(bad).LcrcIsGood(),
                                  false,
                                  "single-bit error at bit " << bit << " undetected");
        }
        // Bursts of up to 16 bits are always detected by a 16-bit CRC.
        std::mt19937 rng(1);
        for (int trial = 0; trial < 2000; ++trial)
        {
            uint8_t bad[gsn::MICROPACKET_BYTES];
            std::memcpy(bad, wire, sizeof(bad));
            const uint32_t len = 2 + rng() % 15;
            const uint32_t start = rng() % (gsn::MICROPACKET_BYTES * 8 - len);
            bad[start / 8] ^= uint8_t(1u << (start % 8));                         // first bit
            bad[(start + len - 1) / 8] ^= uint8_t(1u << ((start + len - 1) % 8)); // last
            for (uint32_t b = start + 1; b < start + len - 1; ++b)
            {
                if (rng() & 1)
                {
                    bad[b / 8] ^= uint8_t(1u << (b % 8));
                }
            }
            NS_TEST_ASSERT_MSG_EQ(GsnMicropacket::Deserialize(bad).LcrcIsGood(),
                                  false,
                                  "burst of " << len << " bits at " << start << " undetected");
        }
    }
};

/// Random bytes decode without harm and re-encode to themselves.
class GsnMicropacketFuzzTestCase : public TestCase
{
  public:
    GsnMicropacketFuzzTestCase()
        : TestCase("Fuzz: any 40 bytes decode and re-encode unchanged")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(7);
        uint32_t good = 0;
        for (int trial = 0; trial < 20000; ++trial)
        {
            uint8_t wire[gsn::MICROPACKET_BYTES];
            for (auto& b : wire)
            {
                b = uint8_t(rng());
            }
            GsnMicropacket mp = GsnMicropacket::Deserialize(wire);
            uint8_t again[gsn::MICROPACKET_BYTES];
            mp.Serialize(again);
            NS_TEST_ASSERT_MSG_EQ(std::memcmp(wire, again, sizeof(wire)), 0, "bijective");
            good += mp.LcrcIsGood() ? 1 : 0;
        }
        // A random LCRC matches with probability 2^-16: about 0.3 of 20000.
        NS_TEST_ASSERT_MSG_LT(good, 10u, "random bytes rarely pass the LCRC");
    }
};

/// The Message addressing header's bytes.
class GsnMessageHeaderTestCase : public TestCase
{
  public:
    GsnMessageHeaderTestCase()
        : TestCase("Message header: M_len, D_ULA, S_ULA bytes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> p = MakeMessage(4, 0);
        std::vector<uint8_t> b = Bytes(p);
        const uint8_t expected[24] = {0, 0, 0, 12, 0,    0,    0,    0,    0,    2,    0,    0,
                                      0, 0, 0, 1,  0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00};
        for (uint32_t i = 0; i < 24; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(b[i]), unsigned(expected[i]), "byte " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(GsnMessageHeader::PeekMessageLength(b.data()), 12u, "peek M_len");
        NS_TEST_ASSERT_MSG_EQ(GsnMessageHeader::PeekDestination(b.data()),
                              Mac48Address("00:00:00:00:00:02"),
                              "peek D_ULA");
        GsnMessageHeader h;
        p->RemoveHeader(h);
        NS_TEST_ASSERT_MSG_EQ(h.GetMessageLength(), 12u, "M_len");
        NS_TEST_ASSERT_MSG_EQ(h.GetSource(), Mac48Address("00:00:00:00:00:01"), "S_ULA");
    }
};

/// Segmentation then reassembly gives back every Message, for many sizes.
class GsnSegmentationTestCase : public TestCase
{
  public:
    GsnSegmentationTestCase()
        : TestCase("Segmentation and reassembly round trip, ECRC carried")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint32_t> sizes;
        for (uint32_t n = 0; n <= 100; ++n)
        {
            sizes.push_back(n);
        }
        for (uint32_t n : {1000u, 4088u, 65528u, 65536u, 200000u})
        {
            sizes.push_back(n);
        }
        GsnMessageSegmenter seg;
        GsnMessageAssembler asmb;
        for (uint32_t n : sizes)
        {
            Ptr<Packet> msg = MakeMessage(n, uint8_t(n));
            seg.Start(msg, 1);
            const uint32_t expectedCount = GsnMessageSegmenter::MicropacketCount(uint64_t(n) + 24);
            NS_TEST_ASSERT_MSG_EQ(seg.GetRemaining(), expectedCount, "count for " << n);
            uint32_t produced = 0;
            GsnMessageAssembler::Result r = GsnMessageAssembler::Result::INCOMPLETE;
            while (seg.IsActive())
            {
                GsnMicropacket mp;
                seg.Next(mp);
                // Without the sender's Message attached, the assembler must rebuild the
                // bytes from the micropackets alone: that is what this case checks.
                mp.SetData(mp.Data());
                ++produced;
                NS_TEST_ASSERT_MSG_EQ(unsigned(mp.type),
                                      unsigned(produced == 1 ? 0x9 : 0x8),
                                      "Header first, Data after");
                NS_TEST_ASSERT_MSG_EQ(mp.tail, !seg.IsActive(), "Tail on the last only");
                NS_TEST_ASSERT_MSG_EQ(unsigned(mp.vc), 1u, "VC kept");
                r = asmb.Push(mp);
                if (seg.IsActive())
                {
                    NS_TEST_ASSERT_MSG_EQ((r == GsnMessageAssembler::Result::INCOMPLETE),
                                          true,
                                          "incomplete until Tail");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(produced, expectedCount, "micropackets for " << n);
            NS_TEST_ASSERT_MSG_EQ((r == GsnMessageAssembler::Result::COMPLETE),
                                  true,
                                  "complete at Tail for " << n);
            NS_TEST_ASSERT_MSG_EQ((Bytes(asmb.TakeMessage()) == Bytes(msg)),
                                  true,
                                  "same bytes for " << n);
        }
    }
};

/// Malformed micropacket sequences are refused with the right reason.
class GsnAssemblerMalformedTestCase : public TestCase
{
  public:
    GsnAssemblerMalformedTestCase()
        : TestCase("Reassembly refuses malformed Messages with a reason")
    {
    }

  private:
    using R = GsnMessageAssembler::Result;

    /// Micropackets of a Message of \p n payload bytes.
    std::vector<GsnMicropacket> Cut(uint32_t n)
    {
        GsnMessageSegmenter seg;
        seg.Start(MakeMessage(n, 3), 0);
        std::vector<GsnMicropacket> v;
        while (seg.IsActive())
        {
            GsnMicropacket mp;
            seg.Next(mp);
            v.push_back(mp);
        }
        return v;
    }

    /// Push all and return the last result.
    R PushAll(GsnMessageAssembler& a, const std::vector<GsnMicropacket>& v)
    {
        R r = R::INCOMPLETE;
        for (const auto& mp : v)
        {
            r = a.Push(mp);
        }
        return r;
    }

    void DoRun() override
    {
        const auto good = Cut(100); // 16 + 108 = 124 bytes: 4 micropackets
        {
            GsnMessageAssembler a;
            NS_TEST_ASSERT_MSG_EQ((a.Push(good[1]) == R::DROPPED), true, "Data first");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::DATA_WITHOUT_HEADER),
                                  true,
                                  "reason DataWithoutHeader");
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, good) == R::COMPLETE), true, "recovers");
        }
        {
            GsnMessageAssembler a;
            auto v = good;
            v.erase(v.begin() + 2); // a missing Data micropacket: Tail comes early
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, v) == R::DROPPED), true, "truncated");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::TRUNCATED),
                                  true,
                                  "reason Truncated");
        }
        {
            GsnMessageAssembler a;
            auto v = good;
            v[2].MutableData()[5] ^= 0x10; // corrupted inside the fabric: LCRC resealed, ECRC not
            v[2].SealLcrc();
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, v) == R::DROPPED), true, "ECRC");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::ECRC_ERROR),
                                  true,
                                  "reason EcrcError");
        }
        {
            GsnMessageAssembler a;
            auto v = good;
            v.back().error = true;
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, v) == R::DROPPED), true, "E bit");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::ERROR_FLAG),
                                  true,
                                  "reason ErrorFlag");
        }
        {
            GsnMessageAssembler a(50); // limit below the 108-byte M_len
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, good) == R::INCOMPLETE),
                                  true,
                                  "rest of a too-long Message discarded quietly");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::TOO_LONG),
                                  true,
                                  "reason TooLong");
            NS_TEST_ASSERT_MSG_EQ(a.IsOpen(), false, "back to idle after the Tail");
        }
        {
            GsnMessageAssembler a;
            auto v = good;
            v[0].MutableData()[3] = 2; // M_len 2 cannot hold LLC/SNAP
            NS_TEST_ASSERT_MSG_EQ((a.Push(v[0]) == R::DROPPED), true, "bad length");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::BAD_LENGTH),
                                  true,
                                  "reason BadLength");
        }
        {
            GsnMessageAssembler a;
            auto v = good;
            v.back().tail = false; // no Tail: the next Message's Header arrives inside
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, v) == R::INCOMPLETE), true, "still open");
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, good) == R::COMPLETE), true, "next completes");
            NS_TEST_ASSERT_MSG_EQ(a.TakeDisplaced(), true, "the open one was displaced");
        }
        {
            GsnMessageAssembler a;
            auto v = good;
            v[0].MutableData()[3] = 30; // M_len says 2 micropackets, 4 arrive
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, v) == R::INCOMPLETE), true, "overlong");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::TOO_LONG),
                                  true,
                                  "reason TooLong for extra micropackets");
        }
        {
            // A huge M_len from the wire must not allocate it up front.
            GsnMessageAssembler a;
            auto v = good;
            v[0].MutableData()[0] = 0xFF;
            v[0].MutableData()[1] = 0xFF;
            NS_TEST_ASSERT_MSG_EQ((PushAll(a, v) == R::DROPPED), true, "huge M_len");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::TRUNCATED),
                                  true,
                                  "reason Truncated");
        }
        // Fuzz: random micropacket streams never crash and always end in a known state.
        std::mt19937 rng(11);
        GsnMessageAssembler a(1 << 20);
        for (int i = 0; i < 50000; ++i)
        {
            GsnMicropacket mp;
            uint8_t* data = mp.MutableData();
            for (uint32_t k = 0; k < gsn::MICROPACKET_DATA_BYTES; ++k)
            {
                data[k] = uint8_t(rng());
            }
            mp.MutableData()[0] = 0; // keep M_len plausible half of the time
            if (rng() & 1)
            {
                mp.MutableData()[1] = 0;
            }
            mp.type = (rng() & 1) ? 0x9 : 0x8;
            mp.tail = (rng() % 8) == 0;
            mp.error = (rng() % 64) == 0;
            mp.SetEcrc(uint16_t(rng()));
            R r = a.Push(mp);
            if (r == R::COMPLETE)
            {
                NS_TEST_ASSERT_MSG_GT(a.TakeMessage()->GetSize(), 23u, "complete >= 24");
            }
        }
    }
};

/// Micropackets refer to their Message's bytes: the data and ECRCs they show are those of
/// copied bytes, and the assembler's shortcut for untouched chunks agrees with computing.
class GsnMessageBytesTestCase : public TestCase
{
  public:
    GsnMessageBytesTestCase()
        : TestCase("Message bytes by reference: data, lazy ECRC, detached copies")
    {
    }

  private:
    void DoRun() override
    {
        using R = GsnMessageAssembler::Result;
        for (uint32_t n : {8u, 9u, 100u, 1000u, 4096u})
        {
            Ptr<Packet> msg = MakeMessage(n, uint8_t(n));
            std::vector<uint8_t> bytes = Bytes(msg);
            bytes.resize((bytes.size() + 31) / 32 * 32, 0); // the last chunk is zero-padded
            GsnMessageSegmenter seg;
            seg.Start(msg, 2);
            std::vector<GsnMicropacket> mps;
            boost::crc_optimal<16, 0x1021, 0xFFFF, 0, false, false> running;
            while (seg.IsActive())
            {
                GsnMicropacket mp;
                seg.Next(mp);
                const std::size_t k = mps.size();
                NS_TEST_ASSERT_MSG_EQ(std::memcmp(mp.Data(), bytes.data() + 32 * k, 32),
                                      0,
                                      "chunk " << k << " of " << n);
                running.process_bytes(bytes.data() + 32 * k, 32);
                NS_TEST_ASSERT_MSG_EQ(mp.GetEcrc(), running.checksum(), "ECRC " << k);
                NS_TEST_ASSERT_MSG_EQ((mp.GetOrigin() == msg), (k == 0), "origin on Header only");
                mps.push_back(mp);
            }
            // The wire form decodes to an equal micropacket that owns its bytes.
            uint8_t wire[gsn::MICROPACKET_BYTES];
            mps.back().Serialize(wire);
            GsnMicropacket decoded = GsnMicropacket::Deserialize(wire);
            NS_TEST_ASSERT_MSG_EQ((decoded == mps.back()), true, "decoded equals sent");
            NS_TEST_ASSERT_MSG_EQ((decoded.GetMessageBytes() == nullptr), true, "own bytes");

            // Untouched, half detached, all detached: all complete with the same bytes.
            for (std::size_t detachFrom : {mps.size(), mps.size() / 2, std::size_t(0)})
            {
                GsnMessageAssembler a;
                R r = R::INCOMPLETE;
                for (std::size_t k = 0; k < mps.size(); ++k)
                {
                    GsnMicropacket mp = mps[k];
                    if (k >= detachFrom)
                    {
                        mp.SetData(mp.Data());
                    }
                    r = a.Push(mp);
                }
                NS_TEST_ASSERT_MSG_EQ((r == R::COMPLETE), true, "complete from " << detachFrom);
                Ptr<Packet> got = a.TakeMessage();
                NS_TEST_ASSERT_MSG_EQ((got && Bytes(got) == Bytes(msg)), true, "same bytes");
            }
            // A chunk changed after the pristine ones is an ECRC error, found however late.
            GsnMessageAssembler a;
            R r = R::INCOMPLETE;
            for (std::size_t k = 0; k < mps.size(); ++k)
            {
                GsnMicropacket mp = mps[k];
                if (k + 1 == mps.size())
                {
                    mp.MutableData()[31] ^= 0x80;
                }
                r = a.Push(mp);
            }
            NS_TEST_ASSERT_MSG_EQ((r == R::DROPPED), true, "changed last chunk");
            NS_TEST_ASSERT_MSG_EQ((a.GetDropReason() == GsnRxDropReason::ECRC_ERROR),
                                  true,
                                  "as an ECRC error");
            // The original micropackets still show the original data.
            NS_TEST_ASSERT_MSG_EQ(
                std::memcmp(mps.back().Data(), bytes.data() + 32 * (mps.size() - 1), 32),
                0,
                "copy on write");
        }
    }
};

/**
 * \ingroup gsn-tests
 * \brief A span of Data pushed at once into the assembler (GsnMessageAssembler::PushSpan,
 * an endpoint taking a run's span) leaves it as the micropackets pushed one by one: random
 * Messages and spans, some chunks detached from their sender's bytes, some Messages without
 * their Header.
 */
class GsnAssemblerSpanTestCase : public TestCase
{
  public:
    GsnAssemblerSpanTestCase()
        : TestCase("Assembler: a span pushed at once equals its micropackets one by one")
    {
    }

  private:
    void DoRun() override
    {
        using R = GsnMessageAssembler::Result;
        std::mt19937 rng(5);
        uint32_t taken = 0;
        uint32_t refused = 0;
        for (int trial = 0; trial < 300; ++trial)
        {
            const uint32_t n = std::uniform_int_distribution<uint32_t>(1, 5000)(rng);
            std::vector<GsnMicropacket> mps = Segment(MakeMessage(n, uint8_t(trial)), 1);
            const std::size_t detachAt =
                trial % 4 == 1 ? std::uniform_int_distribution<std::size_t>(1, mps.size())(rng)
                               : mps.size();
            for (std::size_t k = detachAt; k < mps.size(); ++k)
            {
                mps[k].SetData(mps[k].Data()); // its own copy of the bytes
            }
            GsnMessageAssembler ref;
            GsnMessageAssembler got;
            R last = R::INCOMPLETE;
            std::size_t k = trial % 10 == 3 ? 1 : 0; // without its Header
            while (k < mps.size())
            {
                std::size_t m = 1;
                while (k + m < mps.size() && mps[k + m].FollowsInMessage(mps[k], uint32_t(m)))
                {
                    ++m;
                }
                if (m >= 2 && mps[k].FollowsInMessage(mps[k], 0) && rng() % 2 == 0)
                {
                    const uint32_t len = std::uniform_int_distribution<uint32_t>(2, m)(rng);
                    const bool atOnce = got.PushSpan(mps[k], len);
                    (atOnce ? taken : refused) += 1;
                    for (uint32_t i = 0; i < len; ++i)
                    {
                        last = ref.Push(mps[k + i]);
                        const R one = atOnce ? R::INCOMPLETE : got.Push(mps[k + i]);
                        NS_TEST_ASSERT_MSG_EQ((one == last),
                                              true,
                                              "trial " << trial << " at " << k + i);
                    }
                    k += len;
                    continue;
                }
                last = ref.Push(mps[k]);
                NS_TEST_ASSERT_MSG_EQ((got.Push(mps[k]) == last),
                                      true,
                                      "trial " << trial << " at " << k);
                ++k;
            }
            NS_TEST_ASSERT_MSG_EQ((got.GetDropReason() == ref.GetDropReason()), true, "same drop");
            if (last == R::COMPLETE)
            {
                NS_TEST_ASSERT_MSG_EQ((Bytes(got.TakeMessage()) == Bytes(ref.TakeMessage())),
                                      true,
                                      "same Message, trial " << trial);
            }
        }
        // Both ways were taken.
        NS_TEST_ASSERT_MSG_GT(taken, 50u, "spans taken at once");
        NS_TEST_ASSERT_MSG_GT(refused, 10u, "spans refused (detached, no Header)");
    }
};

/// The gsn-micropacket test suite.
class GsnMicropacketTestSuite : public TestSuite
{
  public:
    GsnMicropacketTestSuite()
        : TestSuite("gsn-micropacket", UNIT)
    {
        AddTestCase(new GsnCrcTestCase, TestCase::QUICK);
        AddTestCase(new GsnMicropacketCodecTestCase, TestCase::QUICK);
        AddTestCase(new GsnMicropacketCorruptionTestCase, TestCase::QUICK);
        AddTestCase(new GsnMicropacketFuzzTestCase, TestCase::QUICK);
        AddTestCase(new GsnMessageHeaderTestCase, TestCase::QUICK);
        AddTestCase(new GsnSegmentationTestCase, TestCase::QUICK);
        AddTestCase(new GsnAssemblerMalformedTestCase, TestCase::QUICK);
        AddTestCase(new GsnMessageBytesTestCase, TestCase::QUICK);
        AddTestCase(new GsnAssemblerSpanTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnMicropacketTestSuite g_gsnMicropacketTestSuite;
