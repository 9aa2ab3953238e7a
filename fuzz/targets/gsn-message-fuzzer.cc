/*
 * gsn-message-fuzzer.cc: fuzz target of Message reassembly at the final destination
 * (GsnMessageAssembler) and of the Message header (GsnMessageHeader): a sequence of
 * micropackets on one VC, some decoded from the wire, some the chunks of a Message made in
 * the model (the shortcut paths: the pristine ECRC, PushSpan), with resets in between.
 *
 * Input: byte 0 config (bit 0: give wire micropackets their right running ECRC, so that
 * Messages can complete; bits 1-2: the VC's length limit), bytes 1-2 the length of the model
 * Message, then 41-byte steps: u8 op, 40 bytes. op & 3: 0 a wire micropacket (the 40 bytes),
 * 1 the next chunk of the model Message (op bit 2: restart it at chunk 0; bit 3: E flag),
 * 2 PushSpan of (byte 0 % 16 + 1) chunks of the model Message, 3 Reset().
 */
#include "fuzz-common.h"
#include "gsn-constants.h"
#include "gsn-crc.h"
#include "gsn-message-assembler.h"
#include "gsn-message-bytes.h"
#include "gsn-message-header.h"
#include "gsn-micropacket.h"

#include "ns3/packet.h"

#include <sstream>

using namespace ns3;

namespace
{

/// A Message as the segmenter's sender side makes it: header, then bytes of the input.
Ptr<Packet>
MakeModelMessage(uint32_t mlen, const uint8_t* fill, std::size_t fillLen)
{
    std::vector<uint8_t> payload(mlen);
    for (uint32_t i = 0; i < mlen; ++i)
    {
        payload[i] = fillLen ? fill[i % fillLen] : uint8_t(i);
    }
    Ptr<Packet> p = Create<Packet>(payload.data(), mlen);
    GsnMessageHeader h;
    h.SetMessageLength(mlen);
    h.SetDestination(Mac48Address("02:00:00:00:00:01"));
    h.SetSource(Mac48Address("02:00:00:00:00:02"));
    p->AddHeader(h);
    return p;
}

void
CheckComplete(GsnMessageAssembler& a, uint64_t maxLength)
{
    Ptr<Packet> m = a.TakeMessage();
    FUZZ_CHECK(m);
    FUZZ_CHECK(!a.TakeMessage());
    FUZZ_CHECK(m->GetSize() >= gsn::MESSAGE_ADDRESS_BYTES + gsn::LLC_SNAP_BYTES);
    GsnMessageHeader h;
    FUZZ_CHECK(m->RemoveHeader(h) == gsn::MESSAGE_ADDRESS_BYTES);
    FUZZ_CHECK(h.GetMessageLength() == m->GetSize());
    FUZZ_CHECK(h.GetMessageLength() <= maxLength);
    std::ostringstream os;
    h.Print(os);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < 3)
    {
        return 0;
    }
    const bool autoEcrc = data[0] & 1;
    static const uint64_t limits[4] = {0xFFFFFFFFull, 65536, 1024, gsn::LLC_SNAP_BYTES};
    const uint64_t maxLength = limits[(data[0] >> 1) & 3];
    const uint32_t mlen = gsn::LLC_SNAP_BYTES + ((uint32_t(data[1]) << 8 | data[2]) % 2048);
    data += 3;
    size -= 3;

    Ptr<Packet> model = MakeModelMessage(mlen, data, std::min<std::size_t>(size, 64));
    Ptr<const GsnMessageBytes> modelBytes = Create<GsnMessageBytes>(model);
    const uint32_t chunks = modelBytes->GetChunkCount();
    FUZZ_CHECK(chunks == GsnMessageBytes::ChunksFor(model->GetSize()));
    uint32_t next = 0; // next chunk of the model Message

    GsnMessageAssembler a(maxLength);
    uint16_t ecrc = gsn::CRC_INITIAL; // the running ECRC a sender would put on the wire

    for (std::size_t off = 0; off + 41 <= size; off += 41)
    {
        const uint8_t op = data[off];
        const uint8_t* body = data + off + 1;
        GsnMessageAssembler::Result r = GsnMessageAssembler::Result::INCOMPLETE;
        switch (op & 3)
        {
        case 0: {
            GsnMicropacket mp = GsnMicropacket::Deserialize(body);
            if (!mp.IsMessage())
            {
                continue; // the link hands only Header and Data micropackets over
            }
            if (mp.GetType() == GsnMicropacketType::HEADER)
            {
                ecrc = gsn::CRC_INITIAL;
                // The destination's own ULA is what the device would check next.
                (void)GsnMessageHeader::PeekDestination(mp.Data());
            }
            ecrc = gsn::Crc16Update(ecrc, mp.Data(), gsn::MICROPACKET_DATA_BYTES);
            if (autoEcrc)
            {
                mp.SetEcrc(ecrc);
            }
            r = a.Push(mp);
            break;
        }
        case 1: {
            if (op & 4)
            {
                next = 0;
            }
            if (next >= chunks)
            {
                next = 0;
            }
            GsnMicropacket mp;
            mp.SetMessageChunk(modelBytes, next);
            mp.type = uint8_t(next == 0 ? GsnMicropacketType::HEADER : GsnMicropacketType::DATA);
            mp.tail = next + 1 == chunks;
            mp.error = (op & 8) != 0;
            ++next;
            r = a.Push(mp);
            break;
        }
        case 2: {
            // PushSpan's contract: Data chunks that follow each other, none of them the Tail.
            const uint32_t n = body[0] % 16 + 1;
            if (next == 0 || next + n >= chunks)
            {
                continue;
            }
            GsnMicropacket first;
            first.SetMessageChunk(modelBytes, next);
            first.type = uint8_t(GsnMicropacketType::DATA);
            if (a.PushSpan(first, n))
            {
                next += n;
            }
            continue;
        }
        default:
            a.Reset();
            FUZZ_CHECK(!a.IsOpen());
            continue;
        }
        switch (r)
        {
        case GsnMessageAssembler::Result::COMPLETE:
            FUZZ_CHECK(!a.IsOpen());
            CheckComplete(a, maxLength);
            break;
        case GsnMessageAssembler::Result::DROPPED:
            FUZZ_CHECK(a.GetDropReason() < GsnRxDropReason::COUNT);
            (void)GsnRxDropReasonName(a.GetDropReason());
            break;
        case GsnMessageAssembler::Result::INCOMPLETE:
            FUZZ_CHECK(!a.TakeMessage());
            break;
        }
        (void)a.TakeDisplaced();
    }
    return 0;
}
