/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnPortUpperPart: what a port's link layer asks of the part above it (a switch, an
 * endpoint's Message layer), and tells it.
 */
#ifndef GSN_PORT_UPPER_PART_H
#define GSN_PORT_UPPER_PART_H

#include "gsn-micropacket.h"

#include "ns3/fatal-error.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief The part above a port's link layer: the micropackets of Messages it sends on
 * each VC, and what it does with those received.
 *
 * GsnPortDevice is the link layer of every port, and derives from this class: a switch port
 * (GsnSwitchPort) and an endpoint (GsnNetDevice) answer its questions. The link layer takes
 * a VC's next Header/Data micropacket only when that VC has a credit, and hands up a
 * received one only once it was accepted in order; everything else about links (credits,
 * sequence numbers, retransmission, bring-up, runs) stays in GsnPortDevice. Where a question
 * has a default, it is what an upper part that cannot do better answers.
 */
class GsnPortUpperPart
{
  public:
    virtual ~GsnPortUpperPart() = default;

  protected:
    /**
     * \param vc a virtual channel
     * \return true if the upper part has a Header/Data micropacket ready on \p vc
     */
    virtual bool HasMessageMicropacket(uint8_t vc) const = 0;

    /**
     * Take the next Header/Data micropacket of \p vc (called only after
     * HasMessageMicropacket(vc) returned true and a credit was taken for it). Fill data,
     * vc, type, tail, error and ecrc; the link fills the rest.
     * \param vc a virtual channel
     * \param mp written
     */
    virtual void PullMessageMicropacket(uint8_t vc, GsnMicropacket& mp) = 0;

    /**
     * HasMessageMicropacket(vc) and, if true, PullMessageMicropacket(vc, mp), in one call
     * (called only when a credit of \p vc is available). A subclass may answer both at once:
     * the port asks this for every micropacket it sends.
     * \param vc a virtual channel
     * \param mp written if a micropacket was taken
     * \return true if one was taken
     */
    virtual bool TakeMessageMicropacket(uint8_t vc, GsnMicropacket& mp)
    {
        if (!HasMessageMicropacket(vc))
        {
            return false;
        }
        PullMessageMicropacket(vc, mp);
        return true;
    }

    /**
     * Run mode, a run being chosen: after TakeMessageMicropacket(vc, mp) gave a Data
     * micropacket, take at once up to \p max Data micropackets of its Message that follow
     * it, where taking them one by one in the slots from \p slot, one every \p stride slots,
     * would find each ready at its slot (with \p stride > 1: exactly then) and do nothing else
     * (no Tail among them; freeing their places upstream acts on nothing else). Default: none.
     * \param vc a virtual channel
     * \param max how many at most
     * \param slot the slot of the first of them
     * \param stride slots from one to the next
     * \param first written with the first of them, if any (the others follow it:
     *        GsnMicropacket::AdvanceChunk())
     * \return how many were taken
     */
    virtual uint32_t TakeFollowingMessageMicropackets([[maybe_unused]] uint8_t vc,
                                                      [[maybe_unused]] uint32_t max,
                                                      [[maybe_unused]] const Time& slot,
                                                      [[maybe_unused]] uint32_t stride,
                                                      [[maybe_unused]] GsnMicropacket& first)
    {
        return 0;
    }

    /**
     * Run mode, a run being chosen: the \p s VCs \p vcs each have Data micropackets of a
     * Message under way that would go in turn, in this order, slot after slot from \p slot
     * (VC vcs[i] in the slots slot + i, slot + i + s, ...; slots counted in micropacket
     * times): take at once, of each, the same number of them, at most \p maxRounds, where
     * taking them one by one in their slots would find each ready by its slot and do nothing
     * else (no Tail among them; freeing their places upstream acts on nothing else, and
     * nothing of one VC's acts on another's). Default: none.
     * \param vcs the VCs, in the order they go \param s how many (2 to 4)
     * \param maxRounds how many of each at most
     * \param slot the slot of vcs[0]'s first
     * \param firsts written with the first of each VC's, in the order of \p vcs (each VC's
     *        others follow its first: GsnMicropacket::AdvanceChunk())
     * \return how many of each were taken (0 or at least 1 of each)
     */
    virtual uint32_t TakeWovenMessageMicropackets([[maybe_unused]] const uint8_t* vcs,
                                                  [[maybe_unused]] uint32_t s,
                                                  [[maybe_unused]] uint32_t maxRounds,
                                                  [[maybe_unused]] const Time& slot,
                                                  [[maybe_unused]] GsnMicropacket* firsts)
    {
        return 0;
    }

    /**
     * Run mode: when the upper part's next Header/Data micropacket of \p vc will be ready,
     * if it has one that is not ready at GetSlotTime() and knows when it will be (default:
     * never). Called only while a run is chosen ahead.
     * \param vc a virtual channel
     * \return the time, or Time::Max()
     */
    virtual Time NextMessageMicropacketTime([[maybe_unused]] uint8_t vc) const
    {
        return Time::Max();
    }

    /**
     * A Header/Data micropacket was accepted in order. It occupies one place of its VC's
     * receive buffer until the subclass calls ReleaseRxBuffer().
     * \param mp the micropacket (the subclass may keep it: the port does not read it again)
     */
    virtual void ReceiveMessageMicropacket(GsnMicropacket&& mp) = 0;

    /**
     * \param vc a VC
     * \return whether Data micropackets of the Message arriving on \p vc would now only be
     *         buffered by the subclass, so that it can take several at once
     *         (ReceiveMessageSpan()); the port otherwise passes them one by one
     */
    virtual bool TakesMessageSpan([[maybe_unused]] uint8_t vc) const
    {
        return false;
    }

    /**
     * \p n Data micropackets of one Message were accepted in order, one slot after another
     * or \p stride slots, the first arriving at GetRxArrivalTime(), where TakesMessageSpan():
     * take them as if through n calls of ReceiveMessageMicropacket().
     * \param first the first (the subclass may keep it: the port does not read it again)
     * \param n how many: first and the n - 1 that follow it in its Message
     * \param stride slots from one arrival to the next
     */
    virtual void ReceiveMessageSpan([[maybe_unused]] GsnMicropacket&& first,
                                    [[maybe_unused]] uint32_t n,
                                    [[maybe_unused]] uint32_t stride)
    {
        NS_FATAL_ERROR("ReceiveMessageSpan without TakesMessageSpan");
    }

    /**
     * An Admin micropacket was accepted in order (default: ignored and counted).
     * \param mp the micropacket
     */
    virtual void ReceiveAdminMicropacket([[maybe_unused]] const GsnMicropacket& mp)
    {
    }

    /// The link was reset: micropackets in flight are gone (subclasses drop partial
    /// Messages here).
    virtual void NotifyLinkReset()
    {
    }

    /// The link came up (subclasses start their Admin exchanges here).
    virtual void NotifyLinkUp()
    {
    }

    /**
     * A link reset: \return true if the Message that \p header starts is still being cut
     * into micropackets here (the subclass counts it as cut; default false)
     * \param header a Header micropacket this port sent
     */
    virtual bool IsMessageBeingSent([[maybe_unused]] const GsnMicropacket& header) const
    {
        return false;
    }

    /**
     * A Message whose Header this port sent, which the peer had not accepted when the link
     * was reset, is gone without the receiver knowing (counted in messagesLostInReset; the
     * default does nothing more). Not called for a Message that IsMessageBeingSent().
     * \param header its Header micropacket
     */
    virtual void NotifyMessageLostInReset([[maybe_unused]] const GsnMicropacket& header)
    {
    }
};

} // namespace ns3

#endif /* GSN_PORT_UPPER_PART_H */
