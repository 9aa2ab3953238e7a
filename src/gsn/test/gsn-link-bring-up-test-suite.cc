/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The Reset/Initialize handshake on its own (GsnLinkBringUp): its steps one by one, and two
 * ends running it against each other over every order of events and every loss of up to two
 * of its micropackets, with a link reset at any point.
 */
#include "ns3/gsn-link-bring-up.h"
#include "ns3/test.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using State = GsnLinkBringUp::State;
using Event = GsnLinkBringUp::Event;
using Type = GsnMicropacketType;

/// The steps of one end, state by state.
class GsnBringUpStepsTestCase : public TestCase
{
  public:
    GsnBringUpStepsTestCase()
        : TestCase("Bring-up steps: each state's answer to each event")
    {
    }

  private:
    void DoRun() override
    {
        // Starting (or resetting, from any state): clear, tell the part above, send Reset.
        for (State s : {State::DOWN, State::RESET_SENT, State::INIT_SENT, State::UP})
        {
            const GsnLinkBringUp::Step st = GsnLinkBringUp::Next(s, Event::START);
            NS_TEST_EXPECT_MSG_EQ((st.next == State::RESET_SENT && st.changeState),
                                  true,
                                  "to Reset");
            NS_TEST_EXPECT_MSG_EQ((st.clear && st.notifyReset && st.restartTimer), true, "cleared");
            NS_TEST_EXPECT_MSG_EQ((st.request && st.requestType == Type::RESET), true, "Reset");
            NS_TEST_EXPECT_MSG_EQ(st.reply, false, "no reply");
        }

        // A Reset the end did not send itself: answered, then its own Initialize.
        GsnLinkBringUp::Step st = GsnLinkBringUp::Next(State::UP, Event::RESET);
        NS_TEST_EXPECT_MSG_EQ((st.clear && st.notifyReset), true, "a peer's reset clears");
        NS_TEST_EXPECT_MSG_EQ((st.reply && st.replyType == Type::RESET_ACK), true, "answered");
        NS_TEST_EXPECT_MSG_EQ((st.changeState && st.next == State::INIT_SENT), true, "Initialize");
        NS_TEST_EXPECT_MSG_EQ((st.request && st.requestType == Type::INITIALIZE), true, "sent");
        NS_TEST_EXPECT_MSG_EQ(st.restartTimer, true, "retried");
        // Both ends sent Reset: answered, and each waits for the other's Reset_Ack.
        st = GsnLinkBringUp::Next(State::RESET_SENT, Event::RESET);
        NS_TEST_EXPECT_MSG_EQ((st.clear && st.reply && st.replyType == Type::RESET_ACK), true, "");
        NS_TEST_EXPECT_MSG_EQ((st.changeState || st.request || st.restartTimer), false, "waits");

        // Reset_Ack counts only while waiting for it.
        st = GsnLinkBringUp::Next(State::RESET_SENT, Event::RESET_ACK);
        NS_TEST_EXPECT_MSG_EQ((st.clear && st.changeState && st.next == State::INIT_SENT),
                              true,
                              "");
        NS_TEST_EXPECT_MSG_EQ((st.request && st.requestType == Type::INITIALIZE), true, "");
        NS_TEST_EXPECT_MSG_EQ(st.restartTimer, false, "the timer goes on (now for Initialize)");
        for (State s : {State::DOWN, State::INIT_SENT, State::UP})
        {
            st = GsnLinkBringUp::Next(s, Event::RESET_ACK);
            NS_TEST_EXPECT_MSG_EQ((st.clear || st.changeState || st.request || st.reply),
                                  false,
                                  "a late Reset_Ack is ignored");
        }

        // Initialize: buffers granted and answered in every state, the state unchanged.
        for (State s : {State::DOWN, State::RESET_SENT, State::INIT_SENT, State::UP})
        {
            st = GsnLinkBringUp::Next(s, Event::INITIALIZE);
            NS_TEST_EXPECT_MSG_EQ((st.grantBuffers && st.reply), true, "granted, answered");
            NS_TEST_EXPECT_MSG_EQ((st.replyType == Type::INITIALIZE_ACK), true, "Initialize_Ack");
            NS_TEST_EXPECT_MSG_EQ((st.clear || st.changeState || st.request), false, "only that");
        }

        // Initialize_Ack opens the link only while waiting for it.
        st = GsnLinkBringUp::Next(State::INIT_SENT, Event::INITIALIZE_ACK);
        NS_TEST_EXPECT_MSG_EQ((st.changeState && st.next == State::UP), true, "up");
        NS_TEST_EXPECT_MSG_EQ((st.stopTimer && st.transmit), true, "timer off, sending on");
        st = GsnLinkBringUp::Next(State::RESET_SENT, Event::INITIALIZE_ACK);
        NS_TEST_EXPECT_MSG_EQ((st.changeState || st.transmit), false, "too early: ignored");

        // The retry timer repeats the request under way, and stops once the link is up.
        st = GsnLinkBringUp::Next(State::RESET_SENT, Event::TIMEOUT);
        NS_TEST_EXPECT_MSG_EQ((st.request && st.requestType == Type::RESET && st.restartTimer),
                              true,
                              "Reset again");
        st = GsnLinkBringUp::Next(State::INIT_SENT, Event::TIMEOUT);
        NS_TEST_EXPECT_MSG_EQ(
            (st.request && st.requestType == Type::INITIALIZE && st.restartTimer && !st.clear),
            true,
            "Initialize again");
        st = GsnLinkBringUp::Next(State::UP, Event::TIMEOUT);
        NS_TEST_EXPECT_MSG_EQ((st.request || st.restartTimer || st.changeState), false, "up: none");

        GsnLinkBringUp::Event e;
        NS_TEST_EXPECT_MSG_EQ(GsnLinkBringUp::EventOf(Type::NULL_MP, e), false, "not a step");
        NS_TEST_EXPECT_MSG_EQ(
            (GsnLinkBringUp::EventOf(Type::RESET_ACK, e) && e == Event::RESET_ACK),
            true,
            "Reset_Ack is one");
    }
};

/**
 * Two ends of a link running the handshake against each other, every interleaving explored:
 * each cable direction is first in, first out; up to two handshake micropackets are lost;
 * either end may reset the link at any time (once); a retry timer expires only with nothing on
 * the cable (the go-back-N timeout is far longer than a round trip). An end that is up sends the
 * credits it granted, as the port does: in its first sequenced micropacket after clearing (TSEQ
 * 0), which the other end accepts once it has received Initialize and drops before (the sender
 * sends it again after its go-back-N timeout, unless it cleared meanwhile), and drops as a
 * duplicate once it has accepted one; an end that clears forgets the credits it received.
 * Required: from every configuration reached, once losses and resets stop, both ends come up
 * with nothing left in flight, no timer running, and each holding the credits of the other's
 * latest grant (not of one the other cleared since); and no configuration is stuck anywhere
 * else. (Without handshake numbers some orders bring an end up before its peer granted it
 * anything since clearing: in the port its grant then goes to a peer not yet initialized, and
 * it resends it until it resets the link, GsnStaleHandshakeAckTestCase of gsn-link.)
 */
class GsnBringUpExploredTestCase : public TestCase
{
  public:
    /// \param numbered whether acknowledgements are checked against the handshake number
    ///        (false: the handshake without it, which the suite shows to fail)
    explicit GsnBringUpExploredTestCase(bool numbered)
        : TestCase(numbered
                       ? "Bring-up of two ends: every order, up to two losses and a reset, ends up"
                       : "Bring-up without handshake numbers: a stale acknowledgement brings "
                         "an end up before its peer granted it credits"),
          m_numbered(numbered)
    {
    }

  private:
    static constexpr uint8_t NONE = 9; ///< no epoch

    /// One end.
    struct End
    {
        State state{State::DOWN};
        uint8_t number{0};    ///< handshake number of its requests
        bool granted{false};  ///< granted buffers since its last clearing
        bool sent{false};     ///< and sent those credits
        uint8_t epoch{0};     ///< how many times it cleared (mod 8)
        bool accepted{false}; ///< accepted a grant since its last clearing (its TSEQ 0)
        uint8_t creditEpoch{NONE}; ///< the peer's epoch when it sent the grant accepted
        bool armed{false};    ///< retry timer running
    };

    /// What is on the cable: a handshake micropacket with its number, or credits (CREDIT_ONLY).
    struct Item
    {
        Type type;
        uint8_t number;
    };

    /// The two ends and the cable.
    struct Config
    {
        End end[2];
        std::deque<Item> cable[2]; ///< cable[i]: from end i to end 1 - i
        int losses{0};             ///< losses left
        int resets{0};             ///< resets left

        std::string Key() const
        {
            std::string k;
            for (int i = 0; i < 2; ++i)
            {
                const End& e = end[i];
                k += char('0' + int(e.state));
                k += char('0' + e.number);
                k += e.granted ? 'g' : '-';
                k += e.sent ? 's' : '-';
                k += char('0' + e.epoch);
                k += e.accepted ? 'c' : '-';
                k += char('0' + e.creditEpoch);
                k += e.armed ? 'a' : '-';
                k += '|';
                for (const Item& it : cable[i])
                {
                    k += char('A' + int(it.type));
                    k += char('0' + it.number);
                }
                k += '|';
            }
            k += char('0' + losses);
            k += char('0' + resets);
            return k;
        }

        bool Good() const
        {
            return end[0].state == State::UP && end[1].state == State::UP &&
                   end[0].creditEpoch == end[1].epoch && end[1].creditEpoch == end[0].epoch &&
                   cable[0].empty() && cable[1].empty() && !end[0].armed && !end[1].armed;
        }
    };

    /// End i of c sends its granted credits once it is up.
    static void SendCredits(Config& c, int i)
    {
        End& e = c.end[i];
        if (e.state == State::UP && e.granted && !e.sent)
        {
            e.sent = true;
            c.cable[i].push_back(Item{Type::CREDIT_ONLY, e.epoch});
        }
    }

    /// Apply event (carrying number) to end i of c, as GsnPortDevice does.
    void Apply(Config& c, int i, Event event, uint8_t number) const
    {
        End& e = c.end[i];
        const bool current = !m_numbered || number == e.number;
        const GsnLinkBringUp::Step st = GsnLinkBringUp::Next(e.state, event, current);
        if (st.clear)
        {
            e.granted = false;
            e.sent = false;
            e.epoch = uint8_t((e.epoch + 1) % 8);
            e.accepted = false;
            e.creditEpoch = NONE;
        }
        if (st.grantBuffers && !e.granted)
        {
            e.granted = true;
        }
        if (st.reply)
        {
            c.cable[i].push_back(Item{st.replyType, number}); // (it carries the request's)
        }
        if (st.stopTimer || event == Event::TIMEOUT)
        {
            e.armed = false;
        }
        if (st.changeState)
        {
            e.state = st.next;
        }
        if (st.request)
        {
            if (st.renumber)
            {
                e.number = uint8_t((e.number + 1) % 8);
            }
            c.cable[i].push_back(Item{st.requestType, e.number});
        }
        if (st.restartTimer)
        {
            e.armed = true;
        }
        SendCredits(c, i);
    }

    /// The grant end i sent in its epoch \p epoch arrives at the other end: a sequenced
    /// micropacket, accepted as the first after a clearing (TSEQ 0) once that end has received
    /// Initialize; before, dropped, and end i sends it again after its go-back-N timeout unless
    /// it cleared since; a second one with TSEQ 0 is a duplicate, dropped (and acknowledged).
    static void ReceiveGrant(Config& c, int i, uint8_t epoch)
    {
        End& r = c.end[1 - i];
        if (!r.granted)
        {
            if (c.end[i].epoch == epoch)
            {
                c.end[i].sent = false; // (resent by the go-back-N timeout, below)
            }
            return;
        }
        if (!r.accepted)
        {
            r.accepted = true;
            r.creditEpoch = epoch;
        }
    }

    /// Successors of c: (config, whether a loss or a reset made it).
    std::vector<std::pair<Config, bool>> Next(const Config& c) const
    {
        std::vector<std::pair<Config, bool>> out;
        for (int i = 0; i < 2; ++i)
        {
            if (!c.cable[i].empty())
            {
                Config d = c;
                const Item it = d.cable[i].front();
                d.cable[i].pop_front();
                Event ev;
                if (GsnLinkBringUp::EventOf(it.type, ev))
                {
                    Apply(d, 1 - i, ev, it.number);
                }
                else
                {
                    ReceiveGrant(d, i, it.number);
                }
                out.emplace_back(d, false);
                if (c.losses > 0 && it.type != Type::CREDIT_ONLY)
                {
                    Config l = c;
                    l.cable[i].pop_front();
                    --l.losses;
                    out.emplace_back(l, true);
                }
            }
            const End& e = c.end[i];
            if (e.state == State::UP && e.granted && !e.sent && c.cable[0].empty() &&
                c.cable[1].empty())
            {
                Config d = c; // the go-back-N timeout sends the grant again
                SendCredits(d, i);
                out.emplace_back(d, false);
            }
            if (c.end[i].armed && c.cable[0].empty() && c.cable[1].empty())
            {
                Config d = c;
                Apply(d, i, Event::TIMEOUT, 0);
                out.emplace_back(d, false);
            }
            if (c.resets > 0)
            {
                Config d = c;
                --d.resets;
                Apply(d, i, Event::START, 0);
                out.emplace_back(d, true);
            }
        }
        return out;
    }

    void DoRun() override
    {
        // Starts: one end brings the link up (the other not started yet), or both at once.
        std::map<std::string, Config> seen;
        std::map<std::string, std::vector<std::string>> quietNext; // (without loss or reset)
        std::vector<std::string> todo;
        for (int both = 0; both < 2; ++both)
        {
            Config c;
            c.losses = 2;
            c.resets = 1;
            Apply(c, 0, Event::START, 0);
            if (both)
            {
                Apply(c, 1, Event::START, 0);
            }
            seen.emplace(c.Key(), c);
            todo.push_back(c.Key());
        }
        uint32_t stuck = 0;
        while (!todo.empty())
        {
            const std::string key = todo.back();
            todo.pop_back();
            const Config c = seen.at(key);
            const auto next = Next(c);
            if (next.empty() && !c.Good())
            {
                ++stuck;
            }
            for (const auto& [d, disturbed] : next)
            {
                NS_TEST_ASSERT_MSG_LT(d.cable[0].size() + d.cable[1].size(), 16u, "bounded");
                const std::string dk = d.Key();
                if (!disturbed)
                {
                    quietNext[key].push_back(dk);
                }
                if (seen.emplace(dk, d).second)
                {
                    todo.push_back(dk);
                }
            }
        }

        // The configurations that lead to a good end without further loss or reset.
        std::set<std::string> live;
        for (const auto& [key, c] : seen)
        {
            if (c.Good())
            {
                live.insert(key);
            }
        }
        for (bool grew = true; grew;)
        {
            grew = false;
            for (const auto& [key, succ] : quietNext)
            {
                if (live.count(key) == 0 &&
                    std::any_of(succ.begin(), succ.end(), [&live](const std::string& s) {
                        return live.count(s) > 0;
                    }))
                {
                    live.insert(key);
                    grew = true;
                }
            }
        }
        const uint32_t dead = uint32_t(seen.size() - live.size());
        if (m_numbered)
        {
            NS_TEST_EXPECT_MSG_GT(seen.size(),
                                  1000u,
                                  "the exploration reaches many configurations");
            NS_TEST_EXPECT_MSG_EQ(stuck, 0u, "configurations with nothing left to happen, not up");
            NS_TEST_EXPECT_MSG_EQ(dead, 0u, "configurations that cannot come up with credits");
        }
        else
        {
            // (What the handshake numbers are for: without them some orders strand one end.)
            NS_TEST_EXPECT_MSG_GT(dead, 0u, "an acknowledgement of an earlier request misleads");
        }
    }

    bool m_numbered; ///< acknowledgements checked against the handshake number
};

class GsnLinkBringUpTestSuite : public TestSuite
{
  public:
    GsnLinkBringUpTestSuite()
        : TestSuite("gsn-link-bring-up", UNIT)
    {
        AddTestCase(new GsnBringUpStepsTestCase, TestCase::QUICK);
        AddTestCase(new GsnBringUpExploredTestCase(true), TestCase::QUICK);
        AddTestCase(new GsnBringUpExploredTestCase(false), TestCase::QUICK);
    }
};

} // namespace

/// Registers the suite.
static GsnLinkBringUpTestSuite g_gsnLinkBringUpTestSuite;
