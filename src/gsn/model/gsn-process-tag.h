/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnProcessTag: a packet tag naming the process (an entry of the adapter's process table,
 * GsnHostAdapter::RegisterProcess()) whose OS-bypass command queue a Message is posted to,
 * and how many of its first bytes the command itself holds (ST's header: the adapter writes
 * it, only the rest is read from host memory). ST's adaptation puts it on its operations;
 * without it an OS-bypass Message goes through the adapter's default process.
 */
#ifndef GSN_PROCESS_TAG_H
#define GSN_PROCESS_TAG_H

#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup gsn
 * \brief Names the adapter process table entry whose command queue carries a packet.
 */
class GsnProcessTag : public Tag
{
  public:
    /**
     * \param process the process table entry
     * \param inlineBytes bytes at the start of the packet that the command holds
     */
    explicit GsnProcessTag(uint16_t process = 0, uint16_t inlineBytes = 0);

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    /// \return the process table entry
    uint16_t GetProcess() const
    {
        return m_process;
    }

    /// \return bytes at the start of the packet that the command holds
    uint16_t GetInlineBytes() const
    {
        return m_inlineBytes;
    }

  private:
    uint16_t m_process;     ///< the process table entry
    uint16_t m_inlineBytes; ///< bytes the command holds
};

} // namespace ns3

#endif /* GSN_PROCESS_TAG_H */
