/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-message-segmenter.h"

#include "ns3/assert.h"

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

} // namespace ns3
