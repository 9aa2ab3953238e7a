/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-message-assembler.h"

#include "gsn-crc.h"
#include "gsn-message-header.h"

#include <algorithm>

namespace ns3
{

const char*
GsnRxDropReasonName(GsnRxDropReason reason)
{
    switch (reason)
    {
    case GsnRxDropReason::DATA_WITHOUT_HEADER:
        return "DataWithoutHeader";
    case GsnRxDropReason::HEADER_IN_MESSAGE:
        return "HeaderInMessage";
    case GsnRxDropReason::BAD_LENGTH:
        return "BadLength";
    case GsnRxDropReason::TOO_LONG:
        return "TooLong";
    case GsnRxDropReason::TRUNCATED:
        return "Truncated";
    case GsnRxDropReason::ECRC_ERROR:
        return "EcrcError";
    case GsnRxDropReason::ERROR_FLAG:
        return "ErrorFlag";
    case GsnRxDropReason::BAD_LLC_SNAP:
        return "BadLlcSnap";
    case GsnRxDropReason::NOT_FOR_US:
        return "NotForUs";
    case GsnRxDropReason::NO_ARP:
        return "NoArp";
    case GsnRxDropReason::MALFORMED_ARP:
        return "MalformedArp";
    case GsnRxDropReason::NO_RX_BUFFER:
        return "NoRxBuffer";
    case GsnRxDropReason::COUNT:
        break;
    }
    return "Unknown";
}

GsnMessageAssembler::GsnMessageAssembler(uint64_t maxMessageLength)
    : m_state(State::IDLE),
      m_maxLength(maxMessageLength),
      m_expectedBytes(0),
      m_have(0),
      m_ecrc(gsn::CRC_INITIAL),
      m_chunks(0),
      m_ecrcBad(false),
      m_displaced(false),
      m_dropReason(GsnRxDropReason::COUNT)
{
}

void
GsnMessageAssembler::SetMaxMessageLength(uint64_t maxMessageLength)
{
    m_maxLength = maxMessageLength;
}

void
GsnMessageAssembler::ReleaseBytes()
{
    m_bytes.clear();
    m_have = 0;
    if (m_bytes.capacity() > KEEP_CAPACITY)
    {
        std::vector<uint8_t>().swap(m_bytes); // idle endpoints hold no large buffer
    }
}

GsnMessageAssembler::Result
GsnMessageAssembler::Drop(GsnRxDropReason reason, bool atTail)
{
    m_dropReason = reason;
    ReleaseBytes();
    m_state = atTail ? State::IDLE : State::DISCARD;
    return Result::DROPPED;
}

GsnMessageAssembler::Result
GsnMessageAssembler::Open(const GsnMicropacket& mp)
{
    const uint32_t mlen = GsnMessageHeader::PeekMessageLength(mp.Data());
    m_ecrc = gsn::CRC_INITIAL;
    m_ecrcBad = false;
    m_chunks = 0;
    m_pristine = nullptr;
    CheckEcrc(mp);
    if (mlen < gsn::LLC_SNAP_BYTES)
    {
        return Drop(GsnRxDropReason::BAD_LENGTH, mp.tail);
    }
    if (mlen > m_maxLength)
    {
        return Drop(GsnRxDropReason::TOO_LONG, mp.tail);
    }
    m_expectedBytes = uint64_t(gsn::MESSAGE_ADDRESS_BYTES) + mlen;
    // A Header built by this model's segmenter names the Message it starts: its bytes are
    // then known, and only their count and ECRC need following. Otherwise (a micropacket
    // from outside the model) the bytes are collected.
    m_origin = mp.GetOrigin();
    if (m_origin && m_origin->GetSize() != m_expectedBytes)
    {
        m_origin = nullptr;
    }
    m_bytes.clear();
    m_have = 0;
    if (!m_origin)
    {
        // Grow with what arrives; a large M_len from the wire reserves at most 64 KiB.
        m_bytes.reserve(std::min<uint64_t>(m_expectedBytes, 65536));
    }
    m_state = State::OPEN;
    return Result::INCOMPLETE;
}

bool
GsnMessageAssembler::PushSpan(const GsnMicropacket& first, uint32_t n)
{
    // Push() for each: an open Message, its sender's chunks in order (CheckEcrc() computes
    // nothing), the whole of each taken (m_have stays below m_expectedBytes before each),
    // no bytes copied (m_origin), no Tail.
    const uint64_t bytes = uint64_t(n) * gsn::MICROPACKET_DATA_BYTES;
    if (m_state != State::OPEN || !m_pristine || !m_origin || first.tail ||
        first.GetMessageBytes() != PeekPointer(m_pristine) || first.GetChunk() != m_chunks ||
        m_have + bytes > m_expectedBytes)
    {
        return false;
    }
    m_chunks += n;
    m_have += bytes;
    return true;
}

void
GsnMessageAssembler::CheckEcrc(const GsnMicropacket& mp)
{
    const GsnMessageBytes* bytes = mp.GetMessageBytes();
    const uint32_t k = m_chunks++;
    if (bytes && mp.GetChunk() == k && (k == 0 || bytes == PeekPointer(m_pristine)))
    {
        if (k == 0)
        {
            m_pristine = bytes;
        }
        return;
    }
    if (m_pristine)
    {
        // The first micropacket not its sender's own: pick the running ECRC up from there.
        m_ecrc = m_pristine->GetEcrcThrough(k - 1);
        m_pristine = nullptr;
    }
    m_ecrc = gsn::Crc16Update(m_ecrc, mp.Data(), gsn::MICROPACKET_DATA_BYTES);
    m_ecrcBad = m_ecrcBad || m_ecrc != mp.GetEcrc();
}

GsnMessageAssembler::Result
GsnMessageAssembler::Push(const GsnMicropacket& mp)
{
    const bool header = mp.GetType() == GsnMicropacketType::HEADER;
    if (header)
    {
        // A Header inside an open Message: that Message is lost (reported through
        // TakeDisplaced()), and the new Header still starts a Message.
        m_displaced = m_state == State::OPEN;
        Result r = Open(mp);
        if (r == Result::DROPPED)
        {
            return r;
        }
    }
    else
    {
        if (m_state == State::DISCARD)
        {
            if (mp.tail)
            {
                m_state = State::IDLE;
            }
            return Result::INCOMPLETE;
        }
        if (m_state == State::IDLE)
        {
            return Drop(GsnRxDropReason::DATA_WITHOUT_HEADER, mp.tail);
        }
        CheckEcrc(mp);
    }

    const uint64_t have = m_have;
    if (have >= m_expectedBytes)
    {
        return Drop(GsnRxDropReason::TOO_LONG, mp.tail);
    }
    const std::size_t take =
        std::size_t(std::min<uint64_t>(gsn::MICROPACKET_DATA_BYTES, m_expectedBytes - have));
    if (!m_origin)
    {
        m_bytes.insert(m_bytes.end(), mp.Data(), mp.Data() + take);
    }
    m_have += take;

    if (!mp.tail)
    {
        return Result::INCOMPLETE;
    }
    if (mp.error)
    {
        return Drop(GsnRxDropReason::ERROR_FLAG, true);
    }
    if (m_have < m_expectedBytes)
    {
        return Drop(GsnRxDropReason::TRUNCATED, true);
    }
    if (m_ecrcBad)
    {
        return Drop(GsnRxDropReason::ECRC_ERROR, true);
    }
    // The sender's Message, tags included, as a point-to-point channel hands it over; its
    // bytes are those the micropackets carried (every ECRC matched them).
    m_complete =
        m_origin ? m_origin->Copy() : Create<Packet>(m_bytes.data(), uint32_t(m_bytes.size()));
    m_origin = nullptr;
    ReleaseBytes();
    m_state = State::IDLE;
    return Result::COMPLETE;
}

bool
GsnMessageAssembler::Reset()
{
    const bool wasOpen = m_state == State::OPEN;
    m_state = State::IDLE;
    ReleaseBytes();
    m_origin = nullptr;
    m_pristine = nullptr;
    m_displaced = false;
    return wasOpen;
}

bool
GsnMessageAssembler::TakeDisplaced()
{
    bool d = m_displaced;
    m_displaced = false;
    return d;
}

Ptr<Packet>
GsnMessageAssembler::TakeMessage()
{
    Ptr<Packet> p = m_complete;
    m_complete = nullptr;
    return p;
}

} // namespace ns3
