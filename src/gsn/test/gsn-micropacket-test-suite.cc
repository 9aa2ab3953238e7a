/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the GSN codecs: CRC, micropacket wire form, Message addressing header,
 * segmentation and reassembly, including malformed input from the wire.
 */
#include "ns3/gsn-crc.h"
#include "ns3/gsn-message-assembler.h"
#include "ns3/gsn-message-header.h"
#include "ns3/gsn-message-segmenter.h"
#include "ns3/gsn-micropacket-queue.h"
#include "ns3/gsn-micropacket-run.h"
#include "ns3/gsn-micropacket.h"
#include "ns3/gsn-retransmit-buffer.h"
#include "ns3/gsn-ring-buffer.h"
#include "ns3/gsn-timed-credits.h"
#include "ns3/llc-snap-header.h"
#include "ns3/test.h"

#include <algorithm>
#include <array>
#include <boost/crc.hpp>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

using namespace ns3;

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

/// Build a Message (addressing, LLC/SNAP, payload of \p n bytes with a pattern).
Ptr<Packet>
MakeMessage(uint32_t n, uint8_t seed)
{
    std::vector<uint8_t> payload(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        payload[i] = uint8_t(seed + i * 7);
    }
    Ptr<Packet> p = Create<Packet>(payload.data(), n);
    LlcSnapHeader llc;
    llc.SetType(0x0800);
    p->AddHeader(llc);
    GsnMessageHeader h;
    h.SetMessageLength(n + gsn::LLC_SNAP_BYTES);
    h.SetDestination(Mac48Address("00:00:00:00:00:02"));
    h.SetSource(Mac48Address("00:00:00:00:00:01"));
    p->AddHeader(h);
    return p;
}

/// \return the micropackets of \p msg on \p vc, as a link receives them (LCRC to compute)
std::vector<GsnMicropacket>
Segment(Ptr<const Packet> msg, uint8_t vc)
{
    GsnMessageSegmenter seg;
    seg.Start(msg, vc);
    std::vector<GsnMicropacket> mps;
    while (seg.IsActive())
    {
        GsnMicropacket mp;
        seg.Next(mp);
        mp.SetLcrcPending();
        mps.push_back(mp);
    }
    return mps;
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

/**
 * \param model timed counts, one entry each \param vc a virtual channel \param t a time
 * \return the counts of \p vc due by \p t, and all of them
 */
static std::pair<uint32_t, uint32_t>
ModelSums(const std::vector<GsnTimedCredits::Entry>& model, uint8_t vc, const Time& t)
{
    uint32_t due = 0;
    uint32_t total = 0;
    for (const auto& e : model)
    {
        due += e.vc == vc && e.at <= t ? e.n : 0;
        total += e.vc == vc ? e.n : 0;
    }
    return {due, total};
}

/// The run mode's credits for later times come out in time order, with the right sums.
class GsnTimedCreditsTestCase : public TestCase
{
  public:
    GsnTimedCreditsTestCase()
        : TestCase("Timed credits: time order, sums due, the time a threshold is reached")
    {
    }

  private:
    void DoRun() override
    {
        GsnTimedCredits q;
        std::vector<GsnTimedCredits::Entry> model; // kept sorted by time, stable
        std::mt19937 rng(11);
        int64_t now = 0;
        for (int step = 0; step < 20000; ++step)
        {
            if (rng() % 3 != 0)
            {
                // Mostly later than the last added, sometimes earlier (several outputs).
                const int64_t at = now + int64_t(rng() % 400);
                const GsnTimedCredits::Entry e{NanoSeconds(at),
                                               uint8_t(rng() % gsn::NUM_VCS),
                                               uint32_t(1 + rng() % 8)};
                q.Add(e.at, e.vc, e.n);
                auto place = std::upper_bound(
                    model.begin(),
                    model.end(),
                    e.at,
                    [](const Time& t, const GsnTimedCredits::Entry& x) { return t < x.at; });
                model.insert(place, e);
            }
            else
            {
                now += int64_t(rng() % 200);
                const Time t = NanoSeconds(now);
                while (q.HasDue(t))
                {
                    NS_TEST_ASSERT_MSG_EQ((!model.empty() && model.front().at <= t),
                                          true,
                                          "due only when the model has one due");
                    NS_TEST_ASSERT_MSG_EQ(q.front().at, model.front().at, "time order");
                    NS_TEST_ASSERT_MSG_EQ(unsigned(q.front().vc),
                                          unsigned(model.front().vc),
                                          "same-time order");
                    q.pop_front();
                    model.erase(model.begin());
                }
                NS_TEST_ASSERT_MSG_EQ((model.empty() || model.front().at > t),
                                      true,
                                      "nothing due left at step " << step);
            }
            NS_TEST_ASSERT_MSG_EQ(q.empty(), model.empty(), "empty at step " << step);
            const uint8_t vc = uint8_t(rng() % gsn::NUM_VCS);
            const Time t = NanoSeconds(now + int64_t(rng() % 400));
            const auto [due, total] = ModelSums(model, vc, t);
            NS_TEST_ASSERT_MSG_EQ(q.SumDue(vc, t), due, "sum due at step " << step);
            NS_TEST_ASSERT_MSG_EQ(q.Total(vc), total, "total at step " << step);
            std::array<uint32_t, gsn::NUM_VCS> counts{};
            const uint32_t threshold = 1 + rng() % 40;
            Time reached = Time::Max();
            for (const auto& e : model)
            {
                counts[e.vc] += e.n;
                if (counts[e.vc] >= threshold)
                {
                    reached = e.at;
                    break;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(q.FirstReaching({}, threshold),
                                  reached,
                                  "threshold time at step " << step);
        }
        q.clear();
        NS_TEST_ASSERT_MSG_EQ(q.empty(), true, "clear empties");
        NS_TEST_ASSERT_MSG_EQ(q.HasDue(Time::Max()), false, "nothing due after clear");
        NS_TEST_ASSERT_MSG_EQ(q.Total(0), 0u, "no totals after clear");
    }
};

/// Rows of credits (one per slot, riding on micropackets that follow one another): taken
/// together where due, they count as the single entries they stand for would.
class GsnTimedCreditRowsTestCase : public TestCase
{
  public:
    GsnTimedCreditRowsTestCase()
        : TestCase("Timed credits: rows count as their single entries, slots covered")
    {
    }

  private:
    void DoRun() override
    {
        GsnTimedCredits q;
        std::vector<GsnTimedCredits::Entry> model; // single entries, sorted by time
        std::mt19937 rng(23);
        const Time slot = NanoSeconds(40);
        int64_t now = 0;
        Time lastRowEnd[gsn::NUM_VCS];
        for (int step = 0; step < 20000; ++step)
        {
            const uint8_t vc = uint8_t(rng() % gsn::NUM_VCS);
            if (rng() % 3 != 0)
            {
                // A row, often going on from the last one of its VC (which then grows).
                const uint32_t count = 1 + rng() % 12;
                const Time at = rng() % 2 && lastRowEnd[vc] > NanoSeconds(now)
                                    ? lastRowEnd[vc] + slot
                                    : NanoSeconds(now + int64_t(rng() % 400));
                q.AddRow(at, slot, vc, 1, count);
                for (uint32_t i = 0; i < count; ++i)
                {
                    const GsnTimedCredits::Entry e{at + slot * int64_t(i), vc, 1};
                    model.insert(
                        std::upper_bound(model.begin(),
                                         model.end(),
                                         e.at,
                                         [](const Time& t, const GsnTimedCredits::Entry& x) {
                                             return t < x.at;
                                         }),
                        e);
                }
                lastRowEnd[vc] = at + slot * int64_t(count - 1);
            }
            else
            {
                now += int64_t(rng() % 300);
                const Time t = NanoSeconds(now);
                std::array<uint32_t, gsn::NUM_VCS> taken{};
                std::array<Time, gsn::NUM_VCS> firstTaken;
                firstTaken.fill(Time::Max());
                for (std::size_t guard = 0; q.HasDue(t); ++guard)
                {
                    NS_TEST_ASSERT_MSG_LT(guard, model.size(), "each take takes a count");
                    const GsnTimedCredits::Entry e = q.TakeDue(t);
                    NS_TEST_ASSERT_MSG_EQ((e.at <= t), true, "taken only when due");
                    taken[e.vc] += e.n;
                    firstTaken[e.vc] = std::min(firstTaken[e.vc], e.at);
                }
                std::array<uint32_t, gsn::NUM_VCS> due{};
                std::array<Time, gsn::NUM_VCS> firstDue;
                firstDue.fill(Time::Max());
                while (!model.empty() && model.front().at <= t)
                {
                    due[model.front().vc] += model.front().n;
                    firstDue[model.front().vc] =
                        std::min(firstDue[model.front().vc], model.front().at);
                    model.erase(model.begin());
                }
                for (uint8_t w = 0; w < gsn::NUM_VCS; ++w)
                {
                    NS_TEST_ASSERT_MSG_EQ(taken[w], due[w], "counts taken at step " << step);
                    NS_TEST_ASSERT_MSG_EQ(firstTaken[w], firstDue[w], "first one's time");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(q.empty(), model.empty(), "empty at step " << step);
            const Time t = NanoSeconds(now + int64_t(rng() % 400));
            const auto [due, total] = ModelSums(model, vc, t);
            NS_TEST_ASSERT_MSG_EQ(q.SumDue(vc, t), due, "sum due at step " << step);
            NS_TEST_ASSERT_MSG_EQ(q.Total(vc), total, "total at step " << step);
            // Slots covered, counted slot by slot from the single entries.
            const int64_t have = int64_t(rng() % 3) - 1;
            const uint32_t max = rng() % 40;
            uint32_t covered = 0;
            for (; covered < max; ++covered)
            {
                const Time s = t + slot * int64_t(covered);
                int64_t at = have - int64_t(covered);
                for (const auto& e : model)
                {
                    at += e.vc == vc && e.at <= s ? e.n : 0;
                }
                if (at < 1)
                {
                    break;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(q.SlotsCovered(vc, have, t, slot, max),
                                  covered,
                                  "slots covered at step " << step);
        }
    }
};

/// A run's amended RSEQs (ExactCredits): each micropacket carries the newest amendment at or
/// before it, or the RSEQ it was chosen with; the arrival time of each micropacket.
class GsnRunRseqTestCase : public TestCase
{
  public:
    GsnRunRseqTestCase()
        : TestCase("Run: amended RSEQs and arrival times of its micropackets")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<GsnMicropacketRun> run = Create<GsnMicropacketRun>();
        run->micropackets.resize(10);
        run->firstArrival = NanoSeconds(1000);
        NS_TEST_ASSERT_MSG_EQ(run->RseqOf(0, 7), 7, "no amendment: as chosen");
        NS_TEST_ASSERT_MSG_EQ(run->RseqOf(9, 7), 7, "no amendment: as chosen (last)");
        // Amendments increase in k and in RSEQ; the RSEQ wraps at 256.
        run->AmendRseqFrom(2, 250);
        run->AmendRseqFrom(5, 255);
        run->AmendRseqFrom(6, 3);
        const uint8_t chosen = 240;
        const std::array<uint8_t, 10> expected{240, 240, 250, 250, 250, 255, 3, 3, 3, 3};
        for (std::size_t k = 0; k < expected.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(run->RseqOf(k, chosen)),
                                  unsigned(expected[k]),
                                  "micropacket " << k << " carries the newest amendment");
        }
        NS_TEST_ASSERT_MSG_EQ(run->laterRseq.size(), 3u, "three amendments, none in a row");
        // One per slot, each the next RSEQ (a span's acknowledgements): kept as one, read
        // as each; the last one amended again, and one that breaks the row.
        Ptr<GsnMicropacketRun> ramp = Create<GsnMicropacketRun>();
        ramp->micropackets.resize(12);
        for (uint8_t k = 1; k <= 6; ++k)
        {
            ramp->AmendRseqFrom(k, uint8_t(253 + k)); // 254, 255, 0, 1, 2, 3
        }
        NS_TEST_ASSERT_MSG_EQ(ramp->laterRseq.size(), 1u, "a row of amendments is one");
        ramp->AmendRseqFrom(6, 9);  // k = 6 again, not the next RSEQ: the row ends at 5
        ramp->AmendRseqFrom(7, 10); // and a new row starts at 6
        ramp->AmendRseqFrom(9, 20);
        NS_TEST_ASSERT_MSG_EQ(ramp->laterRseq.size(), 3u, "the row, the new one, the last");
        const std::array<uint8_t, 12> rows{200, 254, 255, 0, 1, 2, 9, 10, 10, 20, 20, 20};
        for (std::size_t k = 0; k < rows.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(ramp->RseqOf(k, 200)),
                                  unsigned(rows[k]),
                                  "micropacket " << k << " of the row");
        }
        // A row in one call reads as the amendments one by one, after amendments that it
        // continues, amends again, or leaves.
        for (uint32_t before = 0; before < 3; ++before)
        {
            Ptr<GsnMicropacketRun> one = Create<GsnMicropacketRun>();
            Ptr<GsnMicropacketRun> row = Create<GsnMicropacketRun>();
            one->micropackets.resize(16);
            row->micropackets.resize(16);
            for (Ptr<GsnMicropacketRun> r : {one, row})
            {
                r->AmendRseqFrom(1, 100);
                r->AmendRseqFrom(2 + before, uint8_t(101 + before)); // 2..4: ends at 2, 3, 4
            }
            for (uint32_t i = 0; i < 6; ++i)
            {
                one->AmendRseqFrom(4 + i, uint8_t(103 + i));
            }
            row->AmendRseqRow(4, 103, 6);
            for (std::size_t k = 0; k < 16; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(unsigned(row->RseqOf(k, 50)),
                                      unsigned(one->RseqOf(k, 50)),
                                      "a row after " << before << ": micropacket " << k);
            }
            NS_TEST_ASSERT_MSG_EQ(row->laterRseq.size(),
                                  one->laterRseq.size(),
                                  "a row after " << before << " keeps as many amendments");
        }
        // Back to back every 40 ns, or at the departures given.
        NS_TEST_ASSERT_MSG_EQ(run->ArrivalOf(3), NanoSeconds(1120), "back to back");
        run->departures = {0, 40, 200, 240, 280, 320, 360, 400, 440, 480};
        NS_TEST_ASSERT_MSG_EQ(run->ArrivalOf(2), NanoSeconds(1200), "after a gap");
        NS_TEST_ASSERT_MSG_EQ(run->ArrivalOf(9), NanoSeconds(1480), "the last");
    }
};

/// The FIFO behind link and switch queues keeps order through growth and wrap-around.
class GsnRingBufferTestCase : public TestCase
{
  public:
    GsnRingBufferTestCase()
        : TestCase("Ring buffer: FIFO order through growth, wrap-around and pooled storage")
    {
    }

  private:
    void DoRun() override
    {
        GsnRingBuffer<uint32_t> ring;
        std::deque<uint32_t> model;
        std::mt19937 rng(4);
        uint32_t next = 0;
        for (int step = 0; step < 100000; ++step)
        {
            const bool push = model.empty() || (rng() % 3 != 0);
            if (push)
            {
                if (rng() % 2 == 0)
                {
                    ring.push_back(next);
                }
                else
                {
                    ring.push_back_slot() = next; // filled in place
                }
                model.push_back(next);
                ++next;
            }
            else
            {
                const std::size_t n = 1 + rng() % std::min<std::size_t>(model.size(), 5);
                if (n == 1 && rng() % 2 == 0)
                {
                    ring.pop_front_moved();
                }
                else
                {
                    ring.pop_front(n);
                }
                model.erase(model.begin(), model.begin() + n);
            }
            NS_TEST_ASSERT_MSG_EQ(ring.size(), model.size(), "size at step " << step);
            if (!model.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(ring.front(), model.front(), "front at step " << step);
                NS_TEST_ASSERT_MSG_EQ(ring.back(), model.back(), "back at step " << step);
                const std::size_t i = rng() % model.size();
                NS_TEST_ASSERT_MSG_EQ(ring[i], model[i], "element " << i << " at step " << step);
            }
            if (step % 20000 == 19999)
            {
                ring.clear();
                model.clear();
                NS_TEST_ASSERT_MSG_EQ(ring.empty(), true, "clear empties");
            }
        }
        // A ring that empties keeps small storage and gives large storage back.
        GsnRingBuffer<uint32_t> small;
        for (uint32_t i = 0; i < 10; ++i)
        {
            small.push_back(i);
        }
        small.pop_front(10);
        NS_TEST_ASSERT_MSG_EQ(small.capacity(), 16u, "16 places kept");
        GsnRingBuffer<uint32_t> large;
        for (uint32_t i = 0; i < 100; ++i)
        {
            large.push_back(i);
        }
        NS_TEST_ASSERT_MSG_EQ(large.capacity(), 128u, "grown by doubling");
        large.pop_front(99);
        NS_TEST_ASSERT_MSG_EQ(large.capacity(), 128u, "kept while not empty");
        large.pop_front();
        NS_TEST_ASSERT_MSG_EQ(large.capacity(), 0u, "given back when empty");
        large.push_back(7);
        NS_TEST_ASSERT_MSG_EQ(large.front(), 7u, "usable again");
        // Removing several at once across the end of the ring keeps the order.
        GsnRingBuffer<uint32_t> wrap;
        for (uint32_t i = 0; i < 12; ++i)
        {
            wrap.push_back(i);
        }
        wrap.pop_front(10);
        for (uint32_t i = 12; i < 24; ++i)
        {
            wrap.push_back(i); // wraps around the 16 places
        }
        wrap.pop_front(5);
        NS_TEST_ASSERT_MSG_EQ(wrap.size(), 9u, "size after wrapping");
        for (uint32_t i = 0; i < wrap.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(wrap[i], 15u + i, "order after wrapping");
        }
    }
};

/// A switch input buffer gives its micropackets back in order with their times, however
/// it groups them into spans, and holds a Message's body as one span.
class GsnMicropacketQueueTestCase : public TestCase
{
  public:
    GsnMicropacketQueueTestCase()
        : TestCase("Micropacket queue: order, times and places through spans")
    {
    }

  private:
    struct Expected
    {
        GsnMicropacket mp;
        Time ready;
        bool counted;
    };

    void DoRun() override
    {
        // One Message arriving back to back: Header, one span of Data, Tail.
        {
            GsnMicropacketQueue q;
            GsnMessageSegmenter seg;
            seg.Start(MakeMessage(1000, 1), 1);
            Time t = NanoSeconds(100);
            while (seg.IsActive())
            {
                GsnMicropacket mp;
                seg.Next(mp);
                mp.SetLcrcPending();
                q.Push(std::move(mp), t, true);
                t += NanoSeconds(gsn::MICROPACKET_TIME_NS);
            }
            NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, body, Tail");
            NS_TEST_ASSERT_MSG_EQ(q.GetSize(), GsnMessageBytes::ChunksFor(1000), "all held");
        }
        // Several at once (PushSpan), extending a span or starting one, come out one by one.
        {
            GsnMicropacketQueue q;
            const std::vector<GsnMicropacket> mps = Segment(MakeMessage(1000, 2), 1);
            const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
            q.Push(GsnMicropacket(mps[0]), Seconds(0), true); // Header
            q.Push(GsnMicropacket(mps[1]), slot, true);
            q.PushSpan(GsnMicropacket(mps[2]), 10, 2 * slot, true);  // joins the span of mps[1]
            q.PushSpan(GsnMicropacket(mps[12]), 5, 20 * slot, true); // a gap: a new span
            NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, two spans");
            NS_TEST_ASSERT_MSG_EQ(q.GetSize(), 17u, "every micropacket counted");
            for (uint32_t k = 0; k < 17; ++k)
            {
                const Time want = k < 12 ? k * slot : (20 + (k - 12)) * slot;
                NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), want, "time of " << k);
                bool counted = false;
                const GsnMicropacket got = q.Pop(counted);
                NS_TEST_ASSERT_MSG_EQ(got.GetChunk(), k, "chunk " << k);
                NS_TEST_ASSERT_MSG_EQ(std::memcmp(got.Data(), mps[k].Data(), 32), 0, "data");
            }
            NS_TEST_ASSERT_MSG_EQ(q.IsEmpty(), true, "all taken");
        }
        // Random Messages, gaps, uncounted micropackets and pops in between, against a model.
        GsnMicropacketQueue q;
        std::deque<Expected> model;
        std::mt19937 rng(11);
        std::size_t pushed = 0;
        Time t = NanoSeconds(0);
        for (int m = 0; m < 200; ++m)
        {
            GsnMessageSegmenter seg;
            seg.Start(MakeMessage(8 + rng() % 3000, uint8_t(m)), 2);
            while (seg.IsActive())
            {
                GsnMicropacket mp;
                seg.Next(mp);
                if (rng() % 4 != 0)
                {
                    mp.SetLcrcPending(); // as a port passes it on (otherwise kept apart)
                }
                mp.tseq = uint8_t(pushed); // a link field: not kept
                const bool counted = rng() % 50 != 0;
                t += NanoSeconds(gsn::MICROPACKET_TIME_NS * (rng() % 10 == 0 ? 3 : 1));
                model.push_back({mp, t, counted});
                q.Push(std::move(mp), t, counted);
                ++pushed;
                while (!model.empty() && rng() % 3 == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), model.front().ready, "front time");
                    NS_TEST_ASSERT_MSG_EQ(q.Front().GetChunk(),
                                          model.front().mp.GetChunk(),
                                          "front chunk");
                    bool counted = false;
                    const GsnMicropacket got = q.Pop(counted);
                    const Expected& want = model.front();
                    NS_TEST_ASSERT_MSG_EQ(counted, want.counted, "place accounting");
                    NS_TEST_ASSERT_MSG_EQ(unsigned(got.type), unsigned(want.mp.type), "type");
                    NS_TEST_ASSERT_MSG_EQ(got.tail, want.mp.tail, "tail");
                    NS_TEST_ASSERT_MSG_EQ(got.GetChunk(), want.mp.GetChunk(), "chunk");
                    NS_TEST_ASSERT_MSG_EQ(got.GetEcrc(), want.mp.GetEcrc(), "ECRC");
                    NS_TEST_ASSERT_MSG_EQ(std::memcmp(got.Data(), want.mp.Data(), 32), 0, "data");
                    NS_TEST_ASSERT_MSG_EQ(got.IsLcrcPending(), want.mp.IsLcrcPending(), "flag");
                    model.pop_front();
                    NS_TEST_ASSERT_MSG_EQ(q.GetSize(), model.size(), "size");
                }
            }
        }
        uint32_t headers = 0;
        q.ForEachHeader([&headers](const GsnMicropacket& mp) {
            headers += mp.GetType() == GsnMicropacketType::HEADER;
        });
        uint32_t modelHeaders = 0;
        for (const Expected& e : model)
        {
            modelHeaders += e.mp.GetType() == GsnMicropacketType::HEADER;
        }
        NS_TEST_ASSERT_MSG_EQ(headers, modelHeaders, "every buffered Header seen");
        q.Clear();
        NS_TEST_ASSERT_MSG_EQ(q.IsEmpty(), true, "cleared");
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

/**
 * \ingroup gsn-tests
 * \brief Micropackets taken at once for a run's following slots (GsnMessageSegmenter::NextData,
 * GsnMicropacketQueue::PopFollowing) are those taken one by one, never a Header or Tail.
 */
class GsnFollowingTestCase : public TestCase
{
  public:
    GsnFollowingTestCase()
        : TestCase("Data micropackets taken at once equal those taken one by one")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(3);
        for (uint32_t size : {8u, 40u, 100u, 1000u, 5000u})
        {
            // The segmenter.
            Ptr<Packet> msg = MakeMessage(size, uint8_t(size));
            GsnMessageSegmenter one;
            GsnMessageSegmenter many;
            one.Start(msg, 2);
            many.Start(msg, 2);
            GsnMicropacket unused;
            NS_TEST_ASSERT_MSG_EQ(many.NextData(10, unused), 0u, "not the Header");
            while (one.IsActive())
            {
                GsnMicropacket first;
                const uint32_t n = many.NextData(1 + rng() % 20, first);
                if (n == 0)
                {
                    GsnMicropacket a;
                    GsnMicropacket b;
                    one.Next(a);
                    many.Next(b);
                    NS_TEST_ASSERT_MSG_EQ((a == b), true, "one by one, size " << size);
                    continue;
                }
                for (uint32_t i = 0; i < n; ++i)
                {
                    GsnMicropacket a;
                    one.Next(a);
                    NS_TEST_ASSERT_MSG_EQ((a == first), true, "at once, size " << size);
                    NS_TEST_ASSERT_MSG_EQ(a.tail, false, "never the Tail");
                    first.AdvanceChunk();
                }
                NS_TEST_ASSERT_MSG_EQ(many.GetRemaining(), one.GetRemaining(), "same place");
            }
            NS_TEST_ASSERT_MSG_EQ(many.IsActive(), false, "both done");
        }
        // The queue: Header, a span of 30 Data, Tail.
        const std::vector<GsnMicropacket> mps = Segment(MakeMessage(1000, 9), 1);
        GsnMicropacketQueue q;
        const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
        for (std::size_t k = 0; k < mps.size(); ++k)
        {
            q.Push(GsnMicropacket(mps[k]), slot * int64_t(k + 1), true);
        }
        NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, body, Tail");
        GsnMicropacket first;
        bool counted = false;
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(5, first, counted), 0u, "not a Header");
        q.Pop(counted);
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(5, first, counted), 5u, "five");
        NS_TEST_ASSERT_MSG_EQ(counted, true, "counted places");
        NS_TEST_ASSERT_MSG_EQ(first.GetChunk(), 1u, "from the first Data");
        NS_TEST_ASSERT_MSG_EQ(std::memcmp(first.Data(), mps[1].Data(), 32), 0, "its data");
        NS_TEST_ASSERT_MSG_EQ(q.Front().GetChunk(), 6u, "the sixth next");
        NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), slot * int64_t(7), "and its time");
        const uint32_t body = uint32_t(mps.size()) - 2;
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(1000, first, counted),
                              body - 5,
                              "the rest of the body");
        NS_TEST_ASSERT_MSG_EQ(q.GetSize(), 1u, "the Tail left");
        NS_TEST_ASSERT_MSG_EQ(q.PopFollowing(1000, first, counted), 0u, "not the Tail");
        NS_TEST_ASSERT_MSG_EQ(q.Pop(counted).tail, true, "the Tail");
    }
};

/**
 * \ingroup gsn-tests
 * \brief A switch input whose link interleaves VCs keeps a Message's micropackets, a whole
 * number of slots apart, as one strided span, and gives them back (Pop, PopFollowing) as a
 * queue of one-slot spans would.
 */
class GsnStridedSpanTestCase : public TestCase
{
  public:
    GsnStridedSpanTestCase()
        : TestCase("Micropacket queue: interleaved arrivals in strided spans, taken as before")
    {
    }

  private:
    /// The queue as spans of micropackets one slot apart only (the grouping PopFollowing()
    /// answers by): the chunk of each span's first, how many, when the first may leave.
    struct OneSlotSpan
    {
        GsnMicropacket first;
        uint32_t count;
        Time ready;
        bool counted;
    };

    void DoRun() override
    {
        const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
        // Two VCs interleaved slot by slot: the body is one span.
        {
            const std::vector<GsnMicropacket> mps = Segment(MakeMessage(3000, 4), 1);
            GsnMicropacketQueue q;
            for (std::size_t k = 0; k < mps.size(); ++k)
            {
                GsnMicropacket mp = mps[k];
                mp.SetLcrcPending();
                q.Push(std::move(mp), slot * int64_t(2 * k), true);
            }
            NS_TEST_ASSERT_MSG_EQ(q.GetSpanCount(), 3u, "Header, strided body, Tail");
            for (std::size_t k = 0; k < mps.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), slot * int64_t(2 * k), "time of " << k);
                bool counted = false;
                NS_TEST_ASSERT_MSG_EQ(q.Pop(counted).GetChunk(), k, "chunk " << k);
            }
        }
        // Random spacing (one slot, whole slots, other), pushes of several, Pop and
        // PopFollowing in between, against the one-slot grouping.
        std::mt19937 rng(17);
        GsnMicropacketQueue q;
        std::deque<OneSlotSpan> model;
        std::size_t modelSpansMax = 0;
        std::size_t spansMax = 0;
        Time t = NanoSeconds(0);
        for (int m = 0; m < 300; ++m)
        {
            const std::vector<GsnMicropacket> mps =
                Segment(MakeMessage(8 + rng() % 4000, uint8_t(m)), uint8_t(1 + m % 3));
            const uint32_t gap = 1 + rng() % 4; // this Message's usual spacing
            const bool counted = rng() % 8 != 0;
            for (std::size_t k = 0; k < mps.size();)
            {
                const uint32_t r = rng() % 20;
                const Time step = r == 0 ? slot + NanoSeconds(3) : slot * int64_t(r < 3 ? 1 : gap);
                t += step;
                uint32_t n = 1;
                GsnMicropacket mp = mps[k];
                mp.SetLcrcPending();
                if (k + 1 < mps.size() && rng() % 5 == 0 && mp.FollowsInMessage(mp, 0))
                {
                    // Several at once (a run's span): Data that follow, one slot apart.
                    while (k + n + 1 < mps.size() && n < 1 + rng() % 12)
                    {
                        ++n;
                    }
                }
                // The model: one-slot spans only.
                if (!model.empty() && model.back().counted == counted &&
                    mp.FollowsInMessage(model.back().first, model.back().count) &&
                    t == model.back().ready + slot * int64_t(model.back().count))
                {
                    model.back().count += n;
                }
                else
                {
                    model.push_back({mp, n, t, counted});
                }
                q.PushSpan(std::move(mp), n, t, counted);
                k += n;
                t += slot * int64_t(n - 1);
                modelSpansMax = std::max(modelSpansMax, model.size());
                spansMax = std::max(spansMax, q.GetSpanCount());
                while (!model.empty() && rng() % 3 == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(q.FrontReady(), model.front().ready, "front time");
                    OneSlotSpan& head = model.front();
                    NS_TEST_ASSERT_MSG_EQ(q.Front().GetChunk(), head.first.GetChunk(), "chunk");
                    bool c = false;
                    if (rng() % 2 == 0)
                    {
                        GsnMicropacket first;
                        const uint32_t max = 1 + rng() % 40;
                        const uint32_t want = head.first.FollowsInMessage(head.first, 0)
                                                  ? std::min(max, head.count)
                                                  : 0;
                        const uint32_t got = q.PopFollowing(max, first, c);
                        NS_TEST_ASSERT_MSG_EQ(got, want, "taken at once");
                        if (got == 0)
                        {
                            continue;
                        }
                        NS_TEST_ASSERT_MSG_EQ(first.GetChunk(), head.first.GetChunk(), "first");
                        NS_TEST_ASSERT_MSG_EQ(c, head.counted, "places");
                        head.first.AdvanceChunks(got);
                        head.ready += slot * int64_t(got);
                        head.count -= got;
                    }
                    else
                    {
                        const GsnMicropacket got = q.Pop(c);
                        NS_TEST_ASSERT_MSG_EQ(got.GetChunk(), head.first.GetChunk(), "popped");
                        NS_TEST_ASSERT_MSG_EQ(got.tail, head.first.tail, "tail");
                        NS_TEST_ASSERT_MSG_EQ(c, head.counted, "places");
                        if (head.count > 1)
                        {
                            head.first.AdvanceChunk();
                        }
                        head.ready += slot;
                        --head.count;
                    }
                    if (head.count == 0)
                    {
                        model.pop_front();
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_LT(spansMax * 5, modelSpansMax * 3, "strided spans hold them in fewer");
    }
};

namespace
{

/// \return whether a and b carry the same fields and data, with their LCRCs computed
bool
SameOnWire(GsnMicropacket a, GsnMicropacket b)
{
    a.SealLcrc();
    b.SealLcrc();
    return a == b;
}

/// Sends a Message's micropackets on a link as a port does: next TSEQ, an RSEQ, credits
/// on some; the ones that follow in the Message may be kept as a count (FollowingOnLink).
class LinkSender
{
  public:
    /// \param mps a Message's micropackets \param seed for the random choices
    LinkSender(std::vector<GsnMicropacket> mps, uint32_t seed)
        : m_mps(std::move(mps)),
          m_rng(seed)
    {
    }

    /// \return whether micropackets are left to send
    bool Left() const
    {
        return m_next < m_mps.size();
    }

    /// \return the next micropacket as sent, with or without credits
    GsnMicropacket SendOne()
    {
        GsnMicropacket mp = m_mps[m_next++];
        mp.tseq = m_tseq++;
        mp.rseq = m_rseq;
        mp.vcr = uint8_t(m_rng() % 4);
        mp.cr = m_rng() % 2 ? uint8_t(1 + m_rng() % 63) : 0;
        if (mp.cr == 0)
        {
            mp.vcr = 0;
        }
        return mp;
    }

    /// \param last the micropacket just sent \return how many after it may follow as a
    /// count (the rest of the Message's Data micropackets before its Tail)
    uint32_t FollowingRoom(const GsnMicropacket& last) const
    {
        if (!last.FollowsInMessage(last, 0) || m_next + 1 >= m_mps.size())
        {
            return 0;
        }
        return uint32_t(m_mps.size() - 1 - m_next);
    }

    /// \param last the micropacket just sent \param n how many follow it as a count
    /// \return them, one by one as a port would send them
    std::vector<GsnMicropacket> SendFollowing(const GsnMicropacket& last, uint32_t n)
    {
        std::vector<GsnMicropacket> sent;
        for (uint32_t j = 0; j < n; ++j)
        {
            GsnMicropacket mp = m_mps[m_next++];
            mp.vc = last.vc;
            mp.tseq = m_tseq++;
            mp.rseq = last.rseq;
            mp.vcr = 0;
            mp.cr = 0;
            sent.push_back(mp);
        }
        return sent;
    }

    /// \return the random generator
    std::mt19937& Rng()
    {
        return m_rng;
    }

  private:
    std::vector<GsnMicropacket> m_mps; ///< the Message
    std::size_t m_next{0};             ///< the next to send
    uint8_t m_tseq{250};               ///< (wraps soon)
    uint8_t m_rseq{17};                ///< the RSEQ they carry
    std::mt19937 m_rng;                ///< random choices
};

} // namespace

/// The retransmission buffer keeps what it is given, whether micropackets that follow one
/// another are stored or counted: against a list of every micropacket, over random pushes,
/// counts, acknowledgements and credits put on kept micropackets.
class GsnRetransmitBufferTestCase : public TestCase
{
  public:
    GsnRetransmitBufferTestCase()
        : TestCase("Retransmission buffer: counted micropackets read, pop and take credits as "
                   "stored ones")
    {
    }

  private:
    void DoRun() override
    {
        const Time slot = NanoSeconds(gsn::MICROPACKET_TIME_NS);
        for (uint32_t trial = 0; trial < 40; ++trial)
        {
            LinkSender sender(Segment(MakeMessage(3000 + 977 * trial, uint8_t(trial)), 2), trial);
            std::mt19937& rng = sender.Rng();
            GsnRetransmitBuffer buffer;
            std::deque<std::pair<GsnMicropacket, Time>> all; // every micropacket, stored
            Time now = NanoSeconds(1000);
            GsnMicropacket last;
            while (sender.Left() || !all.empty())
            {
                const uint32_t op = rng() % 8;
                if (op < 3 && sender.Left())
                {
                    now += slot * int64_t(1 + rng() % 3);
                    last = sender.SendOne();
                    buffer.Push(last, now);
                    all.emplace_back(last, now);
                }
                else if (op < 5 && !all.empty() && sender.FollowingRoom(last) > 0 &&
                         all.back().first.tseq == last.tseq)
                {
                    const uint32_t n = 1 + rng() % std::min(sender.FollowingRoom(last), 60u);
                    buffer.AppendFollowing(n);
                    for (const GsnMicropacket& mp : sender.SendFollowing(last, n))
                    {
                        now += slot;
                        all.emplace_back(mp, now);
                    }
                    last = GsnMicropacket(); // (a Push comes next)
                }
                else if (op == 5 && !all.empty())
                {
                    // Credits put on one without: it gets its own place.
                    const std::size_t i = rng() % all.size();
                    std::size_t without = i;
                    while (without < all.size() && all[without].first.cr != 0)
                    {
                        ++without;
                    }
                    NS_TEST_ASSERT_MSG_EQ(buffer.FirstWithoutCredits(i),
                                          without,
                                          "first without credits from " << i);
                    // Credits on it, or as a port puts them on a run: on the next few
                    // without, one after another.
                    const uint32_t row = rng() % 2 == 0 ? 1 : 1 + rng() % 6;
                    for (uint32_t r = 0; r < row && without < all.size(); ++r)
                    {
                        GsnMicropacket& kept = buffer.Store(without);
                        kept.vcr = 3;
                        kept.cr = 9;
                        all[without].first.vcr = 3;
                        all[without].first.cr = 9;
                        without = buffer.FirstWithoutCredits(without + 1);
                    }
                }
                else if (!all.empty())
                {
                    const std::size_t n = 1 + rng() % std::min<std::size_t>(all.size(), 80);
                    buffer.PopFront(n);
                    all.erase(all.begin(), all.begin() + n);
                }
                NS_TEST_ASSERT_MSG_EQ(buffer.size(), all.size(), "size, trial " << trial);
                NS_TEST_ASSERT_MSG_EQ(buffer.empty(), all.empty(), "empty");
                if (all.empty())
                {
                    continue;
                }
                NS_TEST_ASSERT_MSG_EQ(unsigned(buffer.FrontTseq()),
                                      unsigned(all.front().first.tseq),
                                      "front TSEQ");
                NS_TEST_ASSERT_MSG_EQ(buffer.FrontSlot(), all.front().second, "front slot");
                // In any order first (a search may start from the one found last).
                for (uint32_t r = 0; r < 8; ++r)
                {
                    const std::size_t i = rng() % all.size();
                    NS_TEST_ASSERT_MSG_EQ(SameOnWire(buffer.Get(i), all[i].first),
                                          true,
                                          "micropacket " << i << " out of order");
                    NS_TEST_ASSERT_MSG_EQ(buffer.SlotOf(i), all[i].second, "its slot");
                }
                for (std::size_t i = 0; i < all.size(); ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(SameOnWire(buffer.Get(i), all[i].first),
                                          true,
                                          "micropacket " << i << ", trial " << trial);
                    NS_TEST_ASSERT_MSG_EQ(buffer.SlotOf(i), all[i].second, "slot of " << i);
                }
                // The first that left after a time, for times around every slot.
                for (std::size_t i = 0; i < all.size(); i += 1 + rng() % 7)
                {
                    const Time t = all[i].second + NanoSeconds(int64_t(rng() % 3) - 1);
                    std::size_t want = 0;
                    while (want < all.size() && all[want].second <= t)
                    {
                        ++want;
                    }
                    NS_TEST_ASSERT_MSG_EQ(buffer.FirstLeavingAfter(t), want, "after " << t);
                }
            }
        }
    }
};

/// A run reads the same micropackets whether those that follow one another are stored or
/// counted: every micropacket in and out of order, credits put on counted ones, and the
/// receiver's taking in order.
class GsnCompactRunTestCase : public TestCase
{
  public:
    GsnCompactRunTestCase()
        : TestCase("Run: counted micropackets read, take credits and are taken as stored ones")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t trial = 0; trial < 40; ++trial)
        {
            LinkSender sender(Segment(MakeMessage(2000 + 1311 * trial, uint8_t(trial)), 1),
                              100 + trial);
            std::mt19937& rng = sender.Rng();
            Ptr<GsnMicropacketRun> run = Create<GsnMicropacketRun>();
            std::vector<GsnMicropacket> all;
            while (sender.Left() && all.size() < 400)
            {
                GsnMicropacket mp = sender.SendOne();
                const GsnMicropacket last = mp;
                run->Append(std::move(mp));
                all.push_back(last);
                const uint32_t room = sender.FollowingRoom(last);
                if (room > 0 && rng() % 2)
                {
                    const uint32_t n = 1 + rng() % std::min(room, 50u);
                    run->AppendFollowing(n);
                    for (const GsnMicropacket& f : sender.SendFollowing(last, n))
                    {
                        all.push_back(f);
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(run->Size(), all.size(), "size, trial " << trial);
            // Read in random order (the place of the last read is kept for the next).
            for (uint32_t r = 0; r < 200; ++r)
            {
                const std::size_t k = rng() % all.size();
                NS_TEST_ASSERT_MSG_EQ(SameOnWire(run->At(k), all[k]), true, "at " << k);
            }
            // Credits put on micropackets, as while the run is on the wire.
            for (uint32_t c = 0; c < 10; ++c)
            {
                const std::size_t k = rng() % all.size();
                const uint8_t vcr = uint8_t(rng() % 4);
                const uint8_t cr = uint8_t(1 + rng() % 63);
                run->SetCredits(k, vcr, cr);
                all[k].vcr = vcr;
                all[k].cr = cr;
            }
            for (std::size_t k = 0; k < all.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(SameOnWire(run->At(k), all[k]), true, "credits " << k);
                const GsnMicropacketRun::Place p = run->Locate(k);
                if (p.offset > 0 && all[k].cr != 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(run->NextWithCredits(k), k, "counted with credits");
                }
                else if (p.offset > 0)
                {
                    NS_TEST_ASSERT_MSG_GT(run->NextWithCredits(k), k, "counted without");
                }
            }
            // The receiver takes them in order, moving from what it is given.
            GsnMicropacket scratch;
            for (std::size_t k = 0; k < all.size(); ++k)
            {
                GsnMicropacket taken = std::move(run->Take(k, scratch));
                NS_TEST_ASSERT_MSG_EQ(SameOnWire(taken, all[k]), true, "taken " << k);
            }
            run->ReleaseMicropackets();
            NS_TEST_ASSERT_MSG_EQ(run->Size(), all.size(), "size once released");
        }
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
        AddTestCase(new GsnRingBufferTestCase, TestCase::QUICK);
        AddTestCase(new GsnMicropacketQueueTestCase, TestCase::QUICK);
        AddTestCase(new GsnStridedSpanTestCase, TestCase::QUICK);
        AddTestCase(new GsnTimedCreditsTestCase, TestCase::QUICK);
        AddTestCase(new GsnTimedCreditRowsTestCase, TestCase::QUICK);
        AddTestCase(new GsnRunRseqTestCase, TestCase::QUICK);
        AddTestCase(new GsnMessageBytesTestCase, TestCase::QUICK);
        AddTestCase(new GsnAssemblerSpanTestCase, TestCase::QUICK);
        AddTestCase(new GsnFollowingTestCase, TestCase::QUICK);
        AddTestCase(new GsnCompactRunTestCase, TestCase::QUICK);
        AddTestCase(new GsnRetransmitBufferTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnMicropacketTestSuite g_gsnMicropacketTestSuite;
