/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-message-segmenter.h"

#include "ns3/assert.h"

#include <algorithm>

namespace ns3
{

GsnMessageSegmenter::GsnMessageSegmenter()
    : m_count(0),
      m_next(0),
      m_vc(0)
{
}

uint32_t
GsnMessageSegmenter::MicropacketCount(uint64_t messageBytes)
{
    return GsnMessageBytes::ChunksFor(messageBytes);
}

void
GsnMessageSegmenter::Start(Ptr<const Packet> message, uint8_t vc)
{
    NS_ASSERT(message->GetSize() >= gsn::MESSAGE_ADDRESS_BYTES);
    m_message = message;
    m_bytes = Create<GsnMessageBytes>(message);
    m_count = m_bytes->GetChunkCount();
    m_next = 0;
    m_vc = vc;
}

void
GsnMessageSegmenter::Next(GsnMicropacket& mp)
{
    NS_ASSERT(IsActive());
    mp.SetMessageChunk(m_bytes, m_next);
    mp.vc = m_vc;
    mp.type = uint8_t(m_next == 0 ? GsnMicropacketType::HEADER : GsnMicropacketType::DATA);
    ++m_next;
    mp.tail = m_next == m_count;
    mp.error = false;
    if (mp.tail)
    {
        m_bytes = nullptr; // the micropackets in flight keep the bytes as long as needed
    }
}

uint32_t
GsnMessageSegmenter::NextData(uint32_t max, GsnMicropacket& first)
{
    if (m_next == 0 || m_next + 1 >= m_count)
    {
        return 0; // the Header, the Tail or nothing comes next
    }
    const uint32_t n = std::min(max, m_count - 1 - m_next);
    if (n > 0)
    {
        Next(first);
        m_next += n - 1;
    }
    return n;
}

} // namespace ns3
