/*
 * st-counters.h: the engine's counters: why received operations were dropped or rejected
 * (one reason per received frame, so the reasons add up to the frames), and what the engine
 * did (operations sent, retries, slot stalls, ...). It owns counting, nothing else.
 * Plain C++17, no ns-3 header.
 */
#ifndef ST_COUNTERS_H
#define ST_COUNTERS_H

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{
namespace st
{

/**
 * \brief The fate of one received frame. Exactly one value is counted per Receive call.
 */
enum class StRxVerdict : uint8_t
{
    Accepted = 0,    //!< processed
    Truncated,       //!< shorter than the 40-byte header
    UnknownOp,       //!< opcode not defined on the wire
    LocalOp,         //!< IRIX-internal opcode 0x06..0x09
    BadFlags,        //!< flags not allowed for the opcode
    BadField,        //!< a field value the operation forbids (id 0, Blocksize too big, ...)
    NoListener,      //!< RC for a port nobody listens on (answered with CA R=1)
    UnknownKey,      //!< D_Key names no connection (0 included)
    WrongPort,       //!< D_Port/S_Port differ from the connection's tuple
    WrongPeer,       //!< the op came from another address than the connection's peer
    WrongState,      //!< the op is not allowed in the connection's state
    UnknownTransfer, //!< the transfer/region/GET id is unknown (or released)
    OutsideMapping,  //!< memory named by the op is not mapped (or Mx unknown)
    OutsideExposure, //!< memory is mapped but not exposed to this op (CTS block, region)
    Duplicate,       //!< a duplicate (answered again when needed, never applied twice)
    SlotOverrun,     //!< the peer sent more slot-using headers than we advertised
    NoChannel,       //!< RC refused (CA R=1): our data channel cannot carry a 2^8-byte STU
    BadChecksum,     //!< the header checksum does not match (StConfig::headerChecksum)
    OutOfOrder,      //!< a STU of a later block while an earlier one is incomplete, without O
    Port0Full,       //!< RC dropped: Port 0's slots (StConfig::port0Slots) are all taken
    Count            //!< number of verdicts
};

/**
 * \brief Things the engine did, not tied to one received frame.
 */
enum class StStat : uint8_t
{
    RxFrames = 0,    //!< Receive calls
    TxOps,           //!< operations handed out by PollTransmit
    TxDataBytes,     //!< payload bytes of DATA sent
    RxDataBytes,     //!< payload bytes of DATA placed into memory
    Retransmissions, //!< operations sent again after a timeout
    Timeouts,        //!< operations that ran out of retries (connection torn down)
    SlotStalls,      //!< times an op had to wait for remote slots
    RejectsSent,     //!< RA(R=1) and CA(R=1) sent
    PausesSent,      //!< RA(R=0) sent
    FetchOpResends,  //!< FETCHOP DATA resent because the FC did not come
    PatternErrors,   //!< payload bytes not zero written to a checked mapping without bytes
    PutsRefused,     //!< Puts refused because they exceed one STU (the VC's max_STU)
    Count            //!< number of statistics
};

/// Name of a verdict.
const char* StRxVerdictName(StRxVerdict v);
/// Name of a statistic.
const char* StStatName(StStat s);

/**
 * \brief Counts per verdict and per statistic.
 */
class StCounters
{
  public:
    /// Count one frame with verdict \p v.
    void Count(StRxVerdict v)
    {
        ++m_verdicts[static_cast<std::size_t>(v)];
    }

    /// Add \p n to statistic \p s.
    void Add(StStat s, uint64_t n = 1)
    {
        m_stats[static_cast<std::size_t>(s)] += n;
    }

    /// Frames counted with verdict \p v.
    uint64_t Get(StRxVerdict v) const
    {
        return m_verdicts[static_cast<std::size_t>(v)];
    }

    /// Value of statistic \p s.
    uint64_t Get(StStat s) const
    {
        return m_stats[static_cast<std::size_t>(s)];
    }

    /// Frames dropped or rejected for any reason (every verdict but Accepted).
    uint64_t Dropped() const;

    /// Sum of all verdicts; equals Get(StStat::RxFrames).
    uint64_t TotalVerdicts() const;

    /// All non-zero counters, one "name=value" per line.
    std::string ToString() const;

  private:
    std::array<uint64_t, static_cast<std::size_t>(StRxVerdict::Count)>
        m_verdicts{};                                                        //!< per verdict
    std::array<uint64_t, static_cast<std::size_t>(StStat::Count)> m_stats{}; //!< per stat
};

} // namespace st
} // namespace ns3

#endif /* ST_COUNTERS_H */
