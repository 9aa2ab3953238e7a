/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnSlotChoice: what a port puts into its next 40 ns slot, as a function of the port's
 * state alone. GsnPortDevice asks it for every slot, micropacket by micropacket and run by
 * run, and then does what it says (takes the micropacket, counts, keeps it for
 * retransmission); the test suite asks it directly.
 */
#ifndef GSN_SLOT_CHOICE_H
#define GSN_SLOT_CHOICE_H

#include "gsn-constants.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief The decision of what goes into a port's next slot.
 *
 * In order of precedence: a link-control micropacket (Reset, Initialize and their
 * acknowledgements); with the link up, a micropacket to send again (go-back-N), then, while
 * the retransmission window has room, a new sequenced micropacket: an Admin micropacket, a
 * Message micropacket on the first VC in round-robin order that has one and a credit for
 * it (a VC passed over without credit while one waits begins a credit stall), or a Credit-only for
 * the VC owed the most credits when they are due; then a Null when one is allowed and owed (it
 * acknowledges), then a Null that keeps the link alive; else nothing (the port goes idle).
 */
class GsnSlotChoice
{
  public:
    /// What goes into the slot.
    enum Kind : uint8_t
    {
        NONE,            ///< nothing: the port goes idle
        CONTROL,         ///< the first queued link-control micropacket
        RETRANSMIT,      ///< the next kept micropacket, sent again
        ADMIN,           ///< the first queued Admin micropacket (sequenced)
        MESSAGE,         ///< a Message micropacket on VC vc (sequenced)
        CREDIT_ONLY,     ///< a Credit-only (sequenced) with the credits of VC vc
        NULL_MP,         ///< a Null that acknowledges
        KEEP_ALIVE_NULL, ///< a Null that keeps the link alive
    };

    /**
     * The port's state the choice depends on, as values (every field is read; none is
     * changed). Choose() reads it through the accessors below, so that a port can give a
     * view of its own members instead of copying them into a State (a copy per slot cost
     * 2% of a run micropacket by micropacket).
     */
    struct State
    {
        bool controlQueued{false}; ///< a link-control micropacket waits
        bool linkUp{false};        ///< the link is up: sequenced micropackets may go
        bool resendPending{false}; ///< a kept micropacket waits to be sent again
        bool windowOpen{false};    ///< the retransmission buffer has room for one more
        bool adminQueued{false};   ///< an Admin micropacket waits
        uint8_t messageVcs{0};     ///< bit v: VC v may have a Message micropacket
        uint8_t rrNext{0};         ///< the VC looked at first
        uint8_t stalledVcs{0};     ///< bit v: VC v is already counted as waiting for credit
        std::array<int32_t, gsn::NUM_VCS> txCredits{};    ///< credits for sending, per VC
        std::array<uint32_t, gsn::NUM_VCS> owedCredits{}; ///< credits owed to the peer
        uint32_t owedTotal{0};                            ///< their sum
        uint32_t creditReturnThreshold{1}; ///< owed credits that make a Credit-only due
        bool creditDue{false};             ///< owed credits waited AckDelay: due whatever
        bool nullAllowed{true};            ///< a Null may go in this slot
        bool nullDue{false};               ///< a Null is owed (it acknowledges)
        bool keepAliveNulls{false};        ///< send Nulls rather than go idle

        /// \name What Choose() reads (a port reads its own members in the same names)
        /// @{
        bool ControlQueued() const
        {
            return controlQueued;
        }

        bool LinkUp() const
        {
            return linkUp;
        }

        bool ResendPending() const
        {
            return resendPending;
        }

        bool WindowOpen() const
        {
            return windowOpen;
        }

        bool AdminQueued() const
        {
            return adminQueued;
        }

        uint8_t MessageVcs() const
        {
            return messageVcs;
        }

        uint8_t RrNext() const
        {
            return rrNext;
        }

        bool Stalled(uint8_t vc) const
        {
            return (stalledVcs >> vc & 1u) != 0;
        }

        int32_t TxCredits(uint8_t vc) const
        {
            return txCredits[vc];
        }

        const std::array<uint32_t, gsn::NUM_VCS>& OwedCredits() const
        {
            return owedCredits;
        }

        uint32_t OwedTotal() const
        {
            return owedTotal;
        }

        uint32_t CreditReturnThreshold() const
        {
            return creditReturnThreshold;
        }

        bool CreditDue() const
        {
            return creditDue;
        }

        bool NullAllowed() const
        {
            return nullAllowed;
        }

        bool NullDue() const
        {
            return nullDue;
        }

        bool KeepAliveNulls() const
        {
            return keepAliveNulls;
        }

        /// @}
    };

    Kind kind{NONE}; ///< what goes
    uint8_t vc{0};   ///< the VC of a MESSAGE or CREDIT_ONLY
    /// Bit v: VC v was passed over for lack of credit with a micropacket waiting (and was not
    /// counted yet): a credit stall begins.
    uint8_t newStalls{0};

    /**
     * \param s the port's state: a State, or a view of a port with the same accessors
     * \param hasMessage called as hasMessage(vc) -> bool: whether the upper part has a
     *        Message micropacket ready on VC vc (asked for VCs in s.messageVcs without a
     *        credit and not counted as stalled)
     * \param takeMessage called as takeMessage(vc) -> bool for VCs in s.messageVcs with a
     *        credit, in round-robin order until one returns true: take VC vc's ready
     *        micropacket if there is one (a switch finds and takes it in one look), and say
     *        whether it did; that VC's micropacket is then what goes (MESSAGE)
     * \return what goes into the slot
     */
    template <class S, class HasMessage, class TakeMessage>
    __attribute__((always_inline)) static GsnSlotChoice Choose(const S& s,
                                                               HasMessage&& hasMessage,
                                                               TakeMessage&& takeMessage)
    {
        GsnSlotChoice c;
        if (s.ControlQueued())
        {
            c.kind = CONTROL;
            return c;
        }
        if (s.LinkUp())
        {
            if (s.ResendPending())
            {
                c.kind = RETRANSMIT;
                return c;
            }
            if (s.WindowOpen() && ChooseSequenced(s, hasMessage, takeMessage, c))
            {
                return c;
            }
        }
        if (s.NullAllowed() && s.NullDue())
        {
            c.kind = NULL_MP;
        }
        else if (s.KeepAliveNulls() && s.LinkUp())
        {
            c.kind = KEEP_ALIVE_NULL;
        }
        return c;
    }

    /**
     * \param s the port's state (a State or a view of a port)
     * \return the VC owed the most credits (the lowest of equals), or NUM_VCS if none
     */
    template <class S>
    static uint8_t MostOwedVc(const S& s)
    {
        return MostOwedVc(s.OwedCredits(), s.OwedTotal());
    }

    /**
     * \param owed credits owed per VC \param total their sum
     * \return the VC owed the most credits (the lowest of equals), or NUM_VCS if none
     */
    static uint8_t MostOwedVc(const std::array<uint32_t, gsn::NUM_VCS>& owed, uint32_t total)
    {
        uint8_t best = gsn::NUM_VCS;
        if (total == 0)
        {
            return best; // the common case on the sending side of a stream
        }
        uint32_t most = 0;
        for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
        {
            if (owed[vc] > most)
            {
                most = owed[vc];
                best = vc;
            }
        }
        return best;
    }

  private:
    /// The sequenced part of Choose(). \return true if one goes (then in \p c)
    template <class S, class HasMessage, class TakeMessage>
    __attribute__((always_inline)) static bool ChooseSequenced(const S& s,
                                                               HasMessage& hasMessage,
                                                               TakeMessage& takeMessage,
                                                               GsnSlotChoice& c)
    {
        if (s.AdminQueued())
        {
            c.kind = ADMIN;
            return true;
        }
        // The VCs that may have micropackets, in round-robin order from rrNext (bit i of
        // `order` is VC RrNext() + i).
        static_assert(gsn::NUM_VCS == 4, "the VC masks below are four bits");
        const uint32_t twice = uint32_t(s.MessageVcs()) | uint32_t(s.MessageVcs()) << gsn::NUM_VCS;
        for (uint32_t order = (twice >> s.RrNext()) & 0xFu; order != 0; order &= order - 1)
        {
            const uint8_t vc = uint8_t((s.RrNext() + __builtin_ctz(order)) % gsn::NUM_VCS);
            if (s.TxCredits(vc) <= 0)
            {
                if (!s.Stalled(vc) && hasMessage(vc))
                {
                    c.newStalls = uint8_t(c.newStalls | 1u << vc);
                }
                continue;
            }
            if (takeMessage(vc))
            {
                c.kind = MESSAGE;
                c.vc = vc;
                return true;
            }
        }
        // Credit-only when enough credits are owed, or when owed credits have waited AckDelay:
        // a link at rest holds no owed credit.
        const uint8_t vc = MostOwedVc(s);
        if (vc < gsn::NUM_VCS &&
            (s.OwedCredits()[vc] >= s.CreditReturnThreshold() || s.CreditDue()))
        {
            c.kind = CREDIT_ONLY;
            c.vc = vc;
            return true;
        }
        return false;
    }
};

} // namespace ns3

#endif /* GSN_SLOT_CHOICE_H */
