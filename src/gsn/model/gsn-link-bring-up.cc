/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-link-bring-up.h"

namespace ns3
{

GsnLinkBringUp::Step
GsnLinkBringUp::Next(State state, Event event, bool current)
{
    Step s;
    s.next = state;
    // This end's own handshake step: a new number unless it repeats the one under way, and the
    // retry timer started again or left running.
    auto ask = [&s](GsnMicropacketType type, bool renumber, bool restartTimer) {
        s.request = true;
        s.requestType = type;
        s.renumber = renumber;
        s.restartTimer = restartTimer;
    };
    if ((event == Event::RESET_ACK || event == Event::INITIALIZE_ACK) && !current)
    {
        return s; // it acknowledges an earlier request: nothing
    }
    switch (event)
    {
    case Event::START:
        // From any state: clear, then ask the peer to clear too.
        s.clear = true;
        s.notifyReset = true;
        s.changeState = true;
        s.next = State::RESET_SENT;
        ask(GsnMicropacketType::RESET, true, true);
        return s;
    case Event::TIMEOUT:
        // The request of the step under way again; nothing once up (or not started).
        if (state == State::RESET_SENT || state == State::INIT_SENT)
        {
            ask(state == State::RESET_SENT ? GsnMicropacketType::RESET
                                           : GsnMicropacketType::INITIALIZE,
                false,
                true);
        }
        return s;
    case Event::RESET:
        // Cleared and answered in every state. A Reset this end did not ask for (the peer
        // started) is followed at once by its own Initialize; where both ends sent Reset, each
        // waits for the other's Reset_Ack.
        s.clear = true;
        s.notifyReset = true;
        s.reply = true;
        s.replyType = GsnMicropacketType::RESET_ACK;
        if (state != State::RESET_SENT)
        {
            s.changeState = true;
            s.next = State::INIT_SENT;
            ask(GsnMicropacketType::INITIALIZE, true, true);
        }
        return s;
    case Event::RESET_ACK:
        // (The retry timer goes on: it now repeats the Initialize.)
        if (state == State::RESET_SENT)
        {
            s.clear = true;
            s.changeState = true;
            s.next = State::INIT_SENT;
            ask(GsnMicropacketType::INITIALIZE, true, false);
        }
        return s;
    case Event::INITIALIZE:
        // Answered in every state (a lost Initialize_Ack makes the peer ask again); the buffers
        // are granted once per Reset.
        s.grantBuffers = true;
        s.reply = true;
        s.replyType = GsnMicropacketType::INITIALIZE_ACK;
        return s;
    case Event::INITIALIZE_ACK:
        if (state == State::INIT_SENT)
        {
            s.changeState = true;
            s.next = State::UP;
            s.stopTimer = true;
            s.transmit = true;
        }
        return s;
    }
    return s;
}

bool
GsnLinkBringUp::EventOf(GsnMicropacketType type, Event& event)
{
    switch (type)
    {
    case GsnMicropacketType::RESET:
        event = Event::RESET;
        return true;
    case GsnMicropacketType::RESET_ACK:
        event = Event::RESET_ACK;
        return true;
    case GsnMicropacketType::INITIALIZE:
        event = Event::INITIALIZE;
        return true;
    case GsnMicropacketType::INITIALIZE_ACK:
        event = Event::INITIALIZE_ACK;
        return true;
    default:
        return false;
    }
}

} // namespace ns3
