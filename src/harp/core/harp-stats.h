// harp-stats.h: why a received HARP frame was dropped (DropReason) and the counters an engine
// keeps (Stats). Every received frame ends in exactly one bucket: handled, ignored, or one drop
// reason. The engines fill these in; nothing here decides anything.
#ifndef HARP_STATS_H
#define HARP_STATS_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace harp
{

/**
 * \ingroup harp
 * \brief Why a received frame was dropped.
 */
enum class DropReason : uint8_t
{
    Truncated,        //!< Fewer than 28 bytes.
    BadHardwareType,  //!< hrd is not 28 (HIPARP).
    BadProtocolType,  //!< pro is not 0x0800 (IPv4).
    BadAddressLength, //!< hln is not 6 or pln is not 4.
    UnknownOperation, //!< op is not 1, 2, 8, 9 or 10.
    SenderMismatch,   //!< sha differs from the link-level source ULA (requests, InARP replies).
    BadSender,        //!< Sender ULA zero or group, or sender IP zero/broadcast/multicast.
    WrongTarget,      //!< The target fields do not name this engine.
    OutsideLis,       //!< An address outside every LIS this engine serves or belongs to.
    UnsolicitedReply, //!< A reply, InARP reply or NAK that answers nothing outstanding.
    StaticConflict,   //!< A dynamic mapping for an address held by a static entry.
    AddressConflict,  //!< Another ULA claims an address that is registered or our own.
};

/// Number of DropReason values.
constexpr std::size_t kDropReasonCount = static_cast<std::size_t>(DropReason::AddressConflict) + 1;

/**
 * \param reason a drop reason
 * \return its name, e.g. "Truncated"
 */
const char* DropReasonName(DropReason reason);

/**
 * \ingroup harp
 * \brief What became of one received frame.
 */
struct RxOutcome
{
    /// The three buckets.
    enum class Kind : uint8_t
    {
        Handled, //!< Acted upon.
        Ignored, //!< Well-formed but meant for someone else.
        Dropped, //!< Bad or unwanted: see reason.
    };

    Kind kind{Kind::Handled};                 //!< Bucket.
    DropReason reason{DropReason::Truncated}; //!< Meaningful only when kind is Dropped.

    /** \return a Handled outcome */
    static RxOutcome Handled()
    {
        return RxOutcome{Kind::Handled, DropReason::Truncated};
    }

    /** \return an Ignored outcome */
    static RxOutcome Ignored()
    {
        return RxOutcome{Kind::Ignored, DropReason::Truncated};
    }

    /** \param why the reason \return a Dropped outcome */
    static RxOutcome Dropped(DropReason why)
    {
        return RxOutcome{Kind::Dropped, why};
    }
};

/**
 * \ingroup harp
 * \brief Counters of an engine. Invariant: rxFrames == rxHandled + rxIgnored + Dropped().
 */
struct Stats
{
    uint64_t rxFrames{0};  //!< Frames passed to HandleFrame.
    uint64_t rxHandled{0}; //!< Frames acted upon.
    uint64_t rxIgnored{0}; //!< Well-formed frames meant for someone else (or our own echo).
    uint64_t txFrames{0};  //!< Frames handed out through PollTransmit.
    std::array<uint64_t, kDropReasonCount> drops{}; //!< Dropped frames, by reason.

    /**
     * \param reason a drop reason
     * \return frames dropped for that reason
     */
    uint64_t Drops(DropReason reason) const
    {
        return drops[static_cast<std::size_t>(reason)];
    }

    /**
     * \brief Counts one received frame in its bucket (rxFrames is counted separately).
     * \param outcome what became of the frame
     */
    void Count(const RxOutcome& outcome)
    {
        switch (outcome.kind)
        {
        case RxOutcome::Kind::Handled:
            ++rxHandled;
            break;
        case RxOutcome::Kind::Ignored:
            ++rxIgnored;
            break;
        case RxOutcome::Kind::Dropped:
            ++drops[static_cast<std::size_t>(outcome.reason)];
            break;
        }
    }

    /** \return frames dropped for any reason */
    uint64_t Dropped() const
    {
        uint64_t total = 0;
        for (uint64_t count : drops)
        {
            total += count;
        }
        return total;
    }
};

} // namespace harp

#endif // HARP_STATS_H
