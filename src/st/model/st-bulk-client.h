/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StBulkClient: the initiator of bulk single-use transfers: the source of a bulk write
 * (RTS/CTS/DATA to an StServer, the sink) or the destination of a bulk read (RTR; the
 * StServer is the source). It connects, keeps Outstanding transfers of TransferSize going
 * until Transfers are done, and reports each one. It owns its buffer; the protocol is the
 * engine's.
 */
#ifndef ST_BULK_CLIENT_H
#define ST_BULK_CLIENT_H

#include "st-client-application.h"

#include "ns3/ipv4-address.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief Bulk write (source) or bulk read (destination) against an StServer.
 */
class StBulkClient : public StClientApplication
{
  public:
    /// What the client does.
    enum Mode
    {
        WRITE, ///< single-use writes: we are the source
        READ,  ///< single-use reads: we are the destination
    };

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StBulkClient();
    ~StBulkClient() override;

    /// \return transfers completed
    uint64_t GetCompleted() const
    {
        return m_completed;
    }

    /// \return bytes moved by completed transfers
    uint64_t GetBytes() const
    {
        return m_bytes;
    }

    /// \return reads whose bytes were not the test pattern
    uint64_t GetCorrupt() const
    {
        return m_corrupt;
    }

    /// \return transfers rejected or aborted
    uint64_t GetFailed() const
    {
        return m_failed;
    }

    /// \return time of the first Write/Read call
    Time GetFirstStart() const
    {
        return m_firstStart;
    }

    /// \return time the last transfer completed
    Time GetLastCompletion() const
    {
        return m_lastDone;
    }

    /// \return bits per second from the first call to the last completion (0 if none)
    double GetThroughput() const;

    /// TracedCallback signature of a completed transfer.
    typedef void (*TransferTracedCallback)(uint64_t bytes, Time duration);

  protected:
    void DoDispose() override;

  private:
    void OnEvent(const st::StEvent& e) override;
    void StartOne();
    Mode m_mode;                                ///< Mode
    uint64_t m_size;                            ///< TransferSize
    uint64_t m_transfers;                       ///< Transfers (0 = until stopped)
    uint32_t m_outstanding;                     ///< Outstanding
    uint8_t* m_buffer;                          ///< mapped memory (null: none, NoBytes)
    bool m_noBytes;                             ///< NoBytes
    uint64_t m_started;                         ///< transfers started
    uint64_t m_completed;                       ///< transfers completed
    uint64_t m_failed;                          ///< rejected or aborted
    uint64_t m_bytes;                           ///< bytes of completed transfers
    uint64_t m_corrupt;                         ///< bad reads
    Time m_firstStart;                          ///< first call
    Time m_lastDone;                            ///< last completion
    std::map<uint32_t, Time> m_startTimes;      ///< by transfer id
    TracedCallback<uint64_t, Time> m_doneTrace; ///< TransferComplete
};

} // namespace ns3

#endif /* ST_BULK_CLIENT_H */
