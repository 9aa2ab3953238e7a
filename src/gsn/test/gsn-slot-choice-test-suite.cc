/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnSlotChoice on its own: what goes into a port's next slot for given states (precedence,
 * round robin over VCs, credit stalls, Credit-only and Null rules), and the same choice as a
 * reference written as a list of candidates in order, over random states.
 */
#include "ns3/gsn-slot-choice.h"
#include "ns3/test.h"

#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Kind = GsnSlotChoice::Kind;

/// A port whose upper part has Message micropackets ready on the VCs of a mask.
struct Upper
{
    uint8_t ready{0};               ///< bit v: a micropacket waits on VC v
    std::vector<uint8_t> asked;     ///< hasMessage() calls, in order
    std::vector<uint8_t> takeTried; ///< takeMessage() calls, in order

    GsnSlotChoice Choose(const GsnSlotChoice::State& s)
    {
        return GsnSlotChoice::Choose(
            s,
            [this](uint8_t vc) {
                asked.push_back(vc);
                return (ready >> vc & 1u) != 0;
            },
            [this](uint8_t vc) {
                takeTried.push_back(vc);
                return (ready >> vc & 1u) != 0;
            });
    }
};

/// A state with the link up, room in the window and a credit on every VC.
GsnSlotChoice::State
UpState()
{
    GsnSlotChoice::State s;
    s.linkUp = true;
    s.windowOpen = true;
    s.messageVcs = 0xF;
    s.txCredits = {1, 1, 1, 1};
    s.creditReturnThreshold = 4;
    return s;
}

std::string
Text(const GsnSlotChoice& c)
{
    std::ostringstream os;
    os << "kind " << int(c.kind) << " vc " << int(c.vc) << " stalls " << int(c.newStalls);
    return os.str();
}

/// The choice as a list of candidates in order: the first that applies goes.
GsnSlotChoice
Reference(const GsnSlotChoice::State& s, uint8_t ready)
{
    GsnSlotChoice c;
    std::vector<std::pair<bool, Kind>> before{
        {s.controlQueued, Kind::CONTROL},
        {s.linkUp && s.resendPending, Kind::RETRANSMIT},
        {s.linkUp && s.windowOpen && s.adminQueued, Kind::ADMIN}};
    for (const auto& [applies, kind] : before)
    {
        if (applies)
        {
            c.kind = kind;
            return c;
        }
    }
    if (s.linkUp && s.windowOpen)
    {
        for (uint8_t i = 0; i < 4; ++i)
        {
            const uint8_t vc = uint8_t((s.rrNext + i) % 4);
            const bool may = (s.messageVcs >> vc & 1u) && (ready >> vc & 1u);
            if (may && s.txCredits[vc] > 0)
            {
                c.kind = Kind::MESSAGE;
                c.vc = vc;
                return c;
            }
            if (may && !(s.stalledVcs >> vc & 1u))
            {
                c.newStalls = uint8_t(c.newStalls | 1u << vc);
            }
        }
        uint8_t most = 4;
        for (uint8_t vc = 0; vc < 4; ++vc)
        {
            if (s.owedCredits[vc] > 0 && (most == 4 || s.owedCredits[vc] > s.owedCredits[most]))
            {
                most = vc;
            }
        }
        if (most < 4 && (s.owedCredits[most] >= s.creditReturnThreshold || s.creditDue))
        {
            c.kind = Kind::CREDIT_ONLY;
            c.vc = most;
            return c;
        }
    }
    if (s.nullAllowed && s.nullDue)
    {
        c.kind = Kind::NULL_MP;
    }
    else if (s.keepAliveNulls && s.linkUp)
    {
        c.kind = Kind::KEEP_ALIVE_NULL;
    }
    return c;
}

} // namespace

/// Precedence of control, retransmission, Admin, Message, Credit-only and Null micropackets.
class GsnSlotChoicePrecedenceTestCase : public TestCase
{
  public:
    GsnSlotChoicePrecedenceTestCase()
        : TestCase("What goes first: control, again, Admin, Message, Credit-only, Null")
    {
    }

  private:
    void DoRun() override
    {
        Upper upper;
        upper.ready = 0xF;
        GsnSlotChoice::State s = UpState();
        s.controlQueued = true;
        s.resendPending = true;
        s.adminQueued = true;
        s.nullDue = true;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::CONTROL, "control first");
        s.linkUp = false;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::CONTROL, "control with the link down");
        s.controlQueued = false;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::NULL_MP, "link down: nothing sequenced");
        s.linkUp = true;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::RETRANSMIT, "go-back-N before new");
        s.resendPending = false;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::ADMIN, "Admin before Messages");
        s.adminQueued = false;
        const GsnSlotChoice message = upper.Choose(s);
        NS_TEST_EXPECT_MSG_EQ(message.kind, Kind::MESSAGE, "a Message micropacket");
        s.windowOpen = false;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::NULL_MP, "window full: a Null");
        s.nullAllowed = false;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::NONE, "Null not allowed: idle");
        s.keepAliveNulls = true;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::KEEP_ALIVE_NULL, "keep alive");
        s.linkUp = false;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::NONE, "no keep-alive on a link down");
    }
};

/// Round robin over VCs, credit stalls, and what the upper part is asked.
class GsnSlotChoiceVcsTestCase : public TestCase
{
  public:
    GsnSlotChoiceVcsTestCase()
        : TestCase("Round robin over VCs, credit stalls, Credit-only")
    {
    }

  private:
    void DoRun() override
    {
        GsnSlotChoice::State s = UpState();
        Upper upper;
        upper.ready = 0xF;
        s.rrNext = 2;
        GsnSlotChoice c = upper.Choose(s);
        NS_TEST_EXPECT_MSG_EQ(Text(c), "kind 4 vc 2 stalls 0", "VC rrNext first");
        NS_TEST_EXPECT_MSG_EQ(upper.takeTried.size(), 1u, "one take");
        NS_TEST_EXPECT_MSG_EQ(upper.asked.size(), 0u, "nothing asked");

        // VC 2 without credit, VC 3 without credit but already stalled, VC 0 not ready.
        upper = Upper();
        upper.ready = 0b0110;
        s.txCredits = {1, 1, 0, 0};
        s.stalledVcs = 0b1000;
        c = upper.Choose(s);
        NS_TEST_EXPECT_MSG_EQ(Text(c), "kind 4 vc 1 stalls 4", "VC 2 stalls, VC 1 goes");
        NS_TEST_EXPECT_MSG_EQ((upper.asked == std::vector<uint8_t>{2}),
                              true,
                              "only the unstalled VC without credit is asked");
        NS_TEST_EXPECT_MSG_EQ((upper.takeTried == std::vector<uint8_t>{0, 1}),
                              true,
                              "takes tried in order, until one goes");

        // A VC outside messageVcs is not looked at.
        upper = Upper();
        upper.ready = 0xF;
        s.messageVcs = 0b0001;
        s.rrNext = 1;
        c = upper.Choose(s);
        NS_TEST_EXPECT_MSG_EQ(Text(c), "kind 4 vc 0 stalls 0", "only VC 0 may have one");
        NS_TEST_EXPECT_MSG_EQ((upper.takeTried == std::vector<uint8_t>{0}), true, "VC 0 only");

        // Nothing to send: a Credit-only for the VC owed most (the lowest of equals), once
        // the threshold is reached or the credits waited AckDelay.
        upper = Upper();
        s.owedCredits = {0, 3, 3, 1};
        s.owedTotal = 7;
        NS_TEST_EXPECT_MSG_EQ(upper.Choose(s).kind, Kind::NONE, "below the threshold");
        s.creditDue = true;
        NS_TEST_EXPECT_MSG_EQ(Text(upper.Choose(s)), "kind 5 vc 1 stalls 0", "due: VC 1");
        s.creditDue = false;
        s.owedCredits = {0, 3, 4, 1};
        s.owedTotal = 8;
        NS_TEST_EXPECT_MSG_EQ(Text(upper.Choose(s)), "kind 5 vc 2 stalls 0", "threshold: VC 2");
        NS_TEST_EXPECT_MSG_EQ(int(GsnSlotChoice::MostOwedVc(GsnSlotChoice::State())),
                              int(gsn::NUM_VCS),
                              "none owed");
    }
};

/// Random states against the reference.
class GsnSlotChoiceRandomTestCase : public TestCase
{
  public:
    GsnSlotChoiceRandomTestCase()
        : TestCase("Random states: the same choice as a list of candidates in order")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(7);
        auto bit = [&rng]() { return (rng() & 3u) == 0; };
        uint32_t differences = 0;
        for (int i = 0; i < 100000; ++i)
        {
            GsnSlotChoice::State s;
            s.controlQueued = (rng() & 15u) == 0;
            s.linkUp = (rng() & 7u) != 0;
            s.resendPending = (rng() & 7u) == 0;
            s.windowOpen = (rng() & 7u) != 0;
            s.adminQueued = (rng() & 15u) == 0;
            s.messageVcs = uint8_t(rng() & 0xFu);
            s.rrNext = uint8_t(rng() % 4);
            s.stalledVcs = uint8_t(rng() & 0xFu);
            s.owedTotal = 0;
            for (uint8_t vc = 0; vc < 4; ++vc)
            {
                s.txCredits[vc] = int32_t(rng() % 3) - 1;
                s.owedCredits[vc] = bit() ? rng() % 6 : 0;
                s.owedTotal += s.owedCredits[vc];
            }
            s.creditReturnThreshold = 1 + rng() % 5;
            s.creditDue = bit();
            s.nullAllowed = (rng() & 1u) != 0;
            s.nullDue = bit();
            s.keepAliveNulls = bit();
            Upper upper;
            upper.ready = uint8_t(rng() & 0xFu);
            const GsnSlotChoice got = upper.Choose(s);
            const GsnSlotChoice expected = Reference(s, upper.ready);
            if (Text(got) != Text(expected) && differences++ < 5)
            {
                NS_TEST_EXPECT_MSG_EQ(Text(got), Text(expected), "state " << i);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(differences, 0u, "states chosen otherwise than the reference");
    }
};

/// The gsn-slot-choice test suite.
class GsnSlotChoiceTestSuite : public TestSuite
{
  public:
    GsnSlotChoiceTestSuite()
        : TestSuite("gsn-slot-choice", UNIT)
    {
        AddTestCase(new GsnSlotChoicePrecedenceTestCase, TestCase::QUICK);
        AddTestCase(new GsnSlotChoiceVcsTestCase, TestCase::QUICK);
        AddTestCase(new GsnSlotChoiceRandomTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnSlotChoiceTestSuite g_gsnSlotChoiceTestSuite;
