/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-message-segmenter.h"

#include "gsn-crc.h"

#include "ns3/assert.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

GsnMessageSegmenter::GsnMessageSegmenter()
    : m_count(0),
      m_next(0),
      m_ecrc(gsn::CRC_INITIAL),
      m_vc(0)
{
}

uint32_t
GsnMessageSegmenter::MicropacketCount(uint64_t messageBytes)
{
    return uint32_t((messageBytes + gsn::MICROPACKET_DATA_BYTES - 1) / gsn::MICROPACKET_DATA_BYTES);
}

void
GsnMessageSegmenter::Start(Ptr<const Packet> message, uint8_t vc)
{
    NS_ASSERT(message->GetSize() >= gsn::MESSAGE_ADDRESS_BYTES);
    m_message = message;
    m_bytes.resize(message->GetSize());
    message->CopyData(m_bytes.data(), m_bytes.size());
    m_count = MicropacketCount(m_bytes.size());
    m_next = 0;
    m_ecrc = gsn::CRC_INITIAL;
    m_vc = vc;
}

void
GsnMessageSegmenter::Next(GsnMicropacket& mp)
{
    NS_ASSERT(IsActive());
    const std::size_t offset = std::size_t(m_next) * gsn::MICROPACKET_DATA_BYTES;
    const std::size_t n =
        std::min<std::size_t>(gsn::MICROPACKET_DATA_BYTES, m_bytes.size() - offset);
    std::memcpy(mp.data.data(), m_bytes.data() + offset, n);
    std::fill(mp.data.begin() + n, mp.data.end(), 0);
    mp.vc = m_vc;
    mp.type = uint8_t(m_next == 0 ? GsnMicropacketType::HEADER : GsnMicropacketType::DATA);
    mp.origin = m_next == 0 ? m_message : nullptr;
    ++m_next;
    mp.tail = m_next == m_count;
    if (mp.tail && m_bytes.capacity() > KEEP_CAPACITY)
    {
        // Idle endpoints must not hold a large Message's copy: memory per endpoint counts
        // in large fabrics. One allocation per large Message is cheap next to its micropackets.
        std::vector<uint8_t>().swap(m_bytes);
    }
    mp.error = false;
    m_ecrc = gsn::Crc16Update(m_ecrc, mp.data.data(), mp.data.size());
    mp.ecrc = m_ecrc;
}

} // namespace ns3
