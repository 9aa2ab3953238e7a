/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnLinkBringUp: the Reset/Initialize handshake of one end of a GSN link, as a function of the
 * end's handshake state alone. GsnPortDevice asks it at every step and does what it says; the
 * test suite gsn-link-bring-up asks it directly and checks the handshake of two ends over every
 * order and loss of its micropackets.
 */
#ifndef GSN_LINK_BRING_UP_H
#define GSN_LINK_BRING_UP_H

#include "gsn-micropacket.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief The bring-up of a link: which state a step leads to and what the port does.
 *
 * HIPPI-6400-PH brings a link up in two exchanges, each end for both directions of the link
 * (gsn-protocol-reference.rst): Reset and Reset_Ack clear the sequence, credit and buffer
 * state of both ends; Initialize and Initialize_Ack grant the peer the receive buffers and
 * open the link to sequenced micropackets. Either end may start it, at set-up or to recover
 * (a link reset); an end that receives a Reset it did not start answers it and goes on to
 * Initialize at once; a request not answered within the go-back-N timeout is sent again.
 * Each request carries the end's handshake number, new for every Reset and Initialize that
 * is not a retry, and its acknowledgement carries it back: an acknowledgement of an earlier
 * request (still on the cable when the end cleared again) is ignored, else it would take the
 * end to the next step, or up, without the peer having cleared or granted for the current
 * one (a link direction left without credits for good).
 *
 * Next() is a function of the state and the step alone, so that the handshake can be checked
 * apart from the port: the port keeps the state, the buffer grant (once per Reset) and the
 * retry timer, and does what the returned Step says, in the order of its fields.
 */
class GsnLinkBringUp
{
  public:
    /// The state of the link as one end sees it.
    enum class State : uint8_t
    {
        DOWN,       ///< not started
        RESET_SENT, ///< sent Reset, waiting for Reset_Ack
        INIT_SENT,  ///< sent Initialize, waiting for Initialize_Ack
        UP,         ///< may send sequenced micropackets
    };

    /// What happens to the end.
    enum class Event : uint8_t
    {
        START,          ///< the port starts the link or resets it
        TIMEOUT,        ///< the retry timer expired
        RESET,          ///< a Reset arrived
        RESET_ACK,      ///< a Reset_Ack arrived
        INITIALIZE,     ///< an Initialize arrived
        INITIALIZE_ACK, ///< an Initialize_Ack arrived
    };

    /// What the port does: the fields in the order the port acts on them.
    struct Step
    {
        /// The state after the step.
        State next;
        /// 1. Clear the link state of both directions.
        bool clear{false};
        /// 2. Tell the part above that what was under way is lost.
        bool notifyReset{false};
        /// 3. Owe the peer every VC's free buffer (once per Reset).
        bool grantBuffers{false};
        /// 4. Send replyType, with the number of the request it answers.
        bool reply{false};
        /// The acknowledgement sent (with reply).
        GsnMicropacketType replyType{GsnMicropacketType::NULL_MP};
        /// 5. Cancel the retry timer.
        bool stopTimer{false};
        /// 6. Go to next (the state changes only where this is set).
        bool changeState{false};
        /// 7. Send requestType, this end's own handshake step.
        bool request{false};
        /// The request sent (with request).
        GsnMicropacketType requestType{GsnMicropacketType::NULL_MP};
        /// With request: a new handshake number (not a retry).
        bool renumber{false};
        /// 8. Start the retry timer again (a pending one cancelled).
        bool restartTimer{false};
        /// 9. The link is up: sequenced micropackets may go.
        bool transmit{false};
    };

    /**
     * \param state the end's state
     * \param event what happened
     * \param current for RESET_ACK and INITIALIZE_ACK: whether it carries the end's handshake
     *        number (it acknowledges the end's latest request)
     * \return what the end does and the state it goes to
     */
    static Step Next(State state, Event event, bool current = true);

    /**
     * \param type a micropacket's TYPE
     * \param event set to the step it is, for a link-control TYPE
     * \return whether \p type is one of the handshake's
     */
    static bool EventOf(GsnMicropacketType type, Event& event);
};

} // namespace ns3

#endif /* GSN_LINK_BRING_UP_H */
