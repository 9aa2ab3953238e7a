/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StPingPong: the initiator of an ST ping-pong. It writes Size bytes to an StServer with
 * Echo set, waits until the server has written them back, and measures the round trip,
 * Iterations times. It owns its buffer and statistics; the protocol is the engine's.
 */
#ifndef ST_PING_PONG_H
#define ST_PING_PONG_H

#include "st-client-application.h"

#include "ns3/ipv4-address.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief Ping-pong of single-use writes against an echoing StServer.
 */
class StPingPong : public StClientApplication
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StPingPong();
    ~StPingPong() override;

    /// \return round trips completed
    uint32_t GetRounds() const
    {
        return m_rounds;
    }

    /// \return the smallest round trip
    Time GetMinRtt() const
    {
        return m_min;
    }

    /// \return the mean round trip (0 if none)
    Time GetMeanRtt() const;

    /// \return echoes whose bytes were not the test pattern
    uint64_t GetCorrupt() const
    {
        return m_corrupt;
    }

    /// TracedCallback signature of a round trip.
    typedef void (*RttTracedCallback)(Time rtt);

  protected:
    void DoDispose() override;

  private:
    void OnEvent(const st::StEvent& e) override;
    void Ping();
    uint32_t m_size;                 ///< Size
    uint32_t m_iterations;           ///< Iterations
    Time m_interval;                 ///< Interval
    uint8_t* m_buffer;               ///< ping at 0, pong at Size (rounded to a Bufx)
    uint64_t m_pongAt;               ///< linear address of the pong buffer
    uint32_t m_rounds;               ///< round trips done
    uint64_t m_corrupt;              ///< bad echoes
    Time m_sent;                     ///< when the ping went out
    Time m_sum;                      ///< total of round trips
    Time m_min;                      ///< smallest round trip
    TracedCallback<Time> m_rttTrace; ///< Rtt
};

} // namespace ns3

#endif /* ST_PING_PONG_H */
