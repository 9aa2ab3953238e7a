/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTrafficHeader: the bytes a GsnTrafficGenerator puts at the start of every Message it
 * makes, so that the receiving generator can attribute, order and time it. It knows only its
 * own fixed big-endian layout; it says nothing about GSN framing (the device adds that).
 */
#ifndef GSN_TRAFFIC_HEADER_H
#define GSN_TRAFFIC_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Identification and timing of a generated Message, at the start of its payload.
 *
 * Layout (28 bytes, all big-endian): source endpoint index (4), destination endpoint index
 * (4), sequence number per source (8), send time in nanoseconds (8, signed), Message size
 * in bytes (4: this header plus the padding after it, i.e. what the generator handed to the
 * device).
 */
class GsnTrafficHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SERIALIZED_SIZE = 28;

    GsnTrafficHeader();

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param index the sending endpoint's index
    void SetSource(uint32_t index);
    /// \return the sending endpoint's index
    uint32_t GetSource() const;
    /// \param index the destination endpoint's index
    void SetDestination(uint32_t index);
    /// \return the destination endpoint's index
    uint32_t GetDestination() const;
    /// \param sequence the Message's number among those of its source
    void SetSequence(uint64_t sequence);
    /// \return the Message's number among those of its source
    uint64_t GetSequence() const;
    /// \param time when the Message was handed to the device
    void SetSendTime(Time time);
    /// \return when the Message was handed to the device
    Time GetSendTime() const;
    /// \param bytes the Message's payload size, this header included
    void SetMessageSize(uint32_t bytes);
    /// \return the Message's payload size, this header included
    uint32_t GetMessageSize() const;

    /**
     * \param other another header
     * \return true if every field is equal
     */
    bool operator==(const GsnTrafficHeader& other) const;

  private:
    uint32_t m_source;      ///< source endpoint index
    uint32_t m_destination; ///< destination endpoint index
    uint64_t m_sequence;    ///< sequence number per source
    int64_t m_sendTimeNs;   ///< send time, ns
    uint32_t m_messageSize; ///< payload bytes of the Message
};

} // namespace ns3

#endif /* GSN_TRAFFIC_HEADER_H */
