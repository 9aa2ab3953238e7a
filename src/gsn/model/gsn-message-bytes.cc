/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-message-bytes.h"

#include "gsn-crc.h"

#include "ns3/assert.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

GsnMessageBytes::GsnMessageBytes(Ptr<const Packet> message)
    : m_message(message),
      m_count(ChunksFor(message->GetSize()))
{
    NS_ASSERT(m_count > 0);
    message->CopyData(m_first.data(), gsn::MICROPACKET_DATA_BYTES); // copies at most the size
}

GsnMessageBytes::GsnMessageBytes(const uint8_t* data)
    : m_count(1)
{
    std::memcpy(m_first.data(), data, gsn::MICROPACKET_DATA_BYTES);
}

uint8_t*
GsnMessageBytes::GetOwnData()
{
    NS_ASSERT_MSG(!m_message, "the bytes of a Message are read-only");
    return m_first.data();
}

const uint8_t*
GsnMessageBytes::MaterializedChunk(uint32_t k) const
{
    NS_ASSERT(k < m_count);
    if (m_bytes.empty())
    {
        m_bytes.assign(std::size_t(m_count) * gsn::MICROPACKET_DATA_BYTES, 0);
        m_message->CopyData(m_bytes.data(), m_message->GetSize());
    }
    return m_bytes.data() + std::size_t(k) * gsn::MICROPACKET_DATA_BYTES;
}

uint16_t
GsnMessageBytes::GetEcrcThrough(uint32_t k) const
{
    NS_ASSERT(k < m_count);
    // Computed once per chunk however often asked: a pcap trace asks for every micropacket
    // on every link.
    while (m_ecrcs.size() <= k)
    {
        const uint32_t next = uint32_t(m_ecrcs.size());
        const uint16_t before = next == 0 ? gsn::CRC_INITIAL : m_ecrcs.back();
        m_ecrcs.push_back(gsn::Crc16Update(before, GetChunk(next), gsn::MICROPACKET_DATA_BYTES));
    }
    return m_ecrcs[k];
}

} // namespace ns3
