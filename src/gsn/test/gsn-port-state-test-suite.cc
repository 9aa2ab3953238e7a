/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Parts of GsnPortDevice's state on their own: the held choice and its count per node
 * (gsn::HeldChoice), the arrivals a channel scheduled at a port (gsn::ScheduledArrivals) and
 * the run mode's limit on runs after a disturbed one (gsn::DisturbedRuns).
 */
#include "ns3/gsn-disturbed-runs.h"
#include "ns3/gsn-held-choice.h"
#include "ns3/gsn-scheduled-arrivals.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/// gsn::HeldChoice: one hold per instant, first holds counted per node until made, holds
/// again not counted, an instant's count replaced by the next instant's.
class GsnHeldChoiceTestCase : public TestCase
{
  public:
    GsnHeldChoiceTestCase()
        : TestCase("Held choices: once per instant, first holds counted per node until made")
    {
    }

  private:
    void DoRun() override
    {
        // (Node numbers of their own: the counts are kept per node for the whole process.)
        const uint32_t node = 70001;
        const uint32_t other = 70002;
        const Time t1 = NanoSeconds(400);
        const Time t2 = NanoSeconds(440);

        gsn::HeldChoice a;
        gsn::HeldChoice b;
        gsn::HeldChoice c;
        NS_TEST_EXPECT_MSG_EQ(a.MayHoldAt(t1), true, "nothing held yet");
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t1), false, "no hold counted");

        a.Hold(node, t1, false);
        NS_TEST_EXPECT_MSG_EQ(a.MayHoldAt(t1), false, "held once at this instant");
        NS_TEST_EXPECT_MSG_EQ(a.MayHoldAt(t2), true, "a later instant may hold again");
        NS_TEST_EXPECT_MSG_EQ(a.HeldAgain(), false, "a first hold");
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t1), true, "counted on its node");
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(other, t1), false, "not on another");
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t2), false, "not at another time");

        b.Hold(node, t1, false);
        a.Forget(node);
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t1), true, "b is still held");
        a.Forget(node);
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t1),
                              true,
                              "forgetting a made choice twice counts once");

        // A hold again waits for the others and is not counted among them.
        a.Hold(node, t1, true);
        NS_TEST_EXPECT_MSG_EQ(a.HeldAgain(), true, "held once more");
        b.Forget(node);
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t1),
                              false,
                              "a hold again is not counted");
        a.Forget(node);
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t1), false, "still none");

        // A choice left held at t1 does not count at t2, nor does forgetting it.
        c.Hold(node, t1, false);
        a.Hold(node, t2, false);
        NS_TEST_EXPECT_MSG_EQ(a.HeldAgain(), false, "a new instant's hold is a first hold");
        b.Hold(node, t2, false);
        c.Forget(node);
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t2),
                              true,
                              "a choice of another instant made leaves this instant's count");
        a.Forget(node);
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t2), true, "b is still held");
        b.Forget(node);
        NS_TEST_EXPECT_MSG_EQ(gsn::HeldChoice::PendingOn(node, t2), false, "all made");
    }
};

/// gsn::ScheduledArrivals: an arrival of the current instant not yet taken, keeping every
/// arrival or only the last one.
class GsnScheduledArrivalsTestCase : public TestCase
{
  public:
    GsnScheduledArrivalsTestCase()
        : TestCase("Scheduled arrivals: pending at their instant until taken")
    {
    }

  private:
    void DoRun() override
    {
        const Time t10 = NanoSeconds(10);
        const Time t20 = NanoSeconds(20);
        const Time t30 = NanoSeconds(30);

        gsn::ScheduledArrivals last; // only the last one scheduled is known
        NS_TEST_EXPECT_MSG_EQ(last.PendingAt(t10), false, "none scheduled");
        last.Note(t10, false);
        NS_TEST_EXPECT_MSG_EQ(last.PendingAt(t10), true, "scheduled at 10, not taken");
        NS_TEST_EXPECT_MSG_EQ(last.TakenAt(t10), false, "not taken yet");
        last.Take(t10);
        NS_TEST_EXPECT_MSG_EQ(last.TakenAt(t10), true, "taken at 10");
        NS_TEST_EXPECT_MSG_EQ(last.PendingAt(t10), false, "taken");
        last.Note(t20, false);
        last.Note(t30, false);
        NS_TEST_EXPECT_MSG_EQ(last.PendingAt(t20),
                              false,
                              "an arrival followed by another is no longer known");
        NS_TEST_EXPECT_MSG_EQ(last.PendingAt(t30), true, "the last one is");

        gsn::ScheduledArrivals all; // every one kept until taken
        all.Note(t10, true);
        all.Note(t20, true);
        all.Note(t30, true);
        NS_TEST_EXPECT_MSG_EQ(all.PendingAt(t20), true, "the one at 20, though 30 follows");
        all.Take(t20);
        NS_TEST_EXPECT_MSG_EQ(all.PendingAt(t20), false, "taken");
        NS_TEST_EXPECT_MSG_EQ(all.PendingAt(t30), true, "the one at 30 is still to come");
        all.Take(t30);
        NS_TEST_EXPECT_MSG_EQ(all.PendingAt(t30), false, "all taken");
        all.Note(t30, true); // (a second transmission arriving at the same instant)
        NS_TEST_EXPECT_MSG_EQ(all.PendingAt(t30),
                              true,
                              "one scheduled after the instant's arrival was taken");
    }
};

/// gsn::DisturbedRuns: short runs after a disturbed one, kept for a number of undisturbed runs,
/// then doubling up to the longest.
class GsnDisturbedRunsTestCase : public TestCase
{
  public:
    GsnDisturbedRunsTestCase()
        : TestCase("Disturbed runs: short after one, then doubling back to MaxRunLength")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t shortLength = 16;
        const uint32_t shortRuns = 2;
        const uint32_t maxLength = 256;
        gsn::DisturbedRuns runs;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(runs.Cap(), maxLength, "no limit before a run ended");
        runs.RunEnded(shortLength, shortRuns, maxLength);
        NS_TEST_EXPECT_MSG_EQ(runs.Cap(), maxLength, "undisturbed: MaxRunLength");

        runs.NoteDisturbed();
        runs.RunEnded(shortLength, shortRuns, maxLength);
        NS_TEST_EXPECT_MSG_EQ(runs.Cap(), shortLength, "after a disturbed run: short");
        runs.RunEnded(shortLength, shortRuns, maxLength);
        runs.RunEnded(shortLength, shortRuns, maxLength);
        NS_TEST_EXPECT_MSG_EQ(runs.Cap(), shortLength, "kept for DisturbedRuns undisturbed runs");
        for (uint32_t expected : {32u, 64u, 128u, 256u, 256u})
        {
            runs.RunEnded(shortLength, shortRuns, maxLength);
            NS_TEST_EXPECT_MSG_EQ(runs.Cap(), expected, "then doubling up to MaxRunLength");
        }

        runs.RunEnded(shortLength, shortRuns, maxLength);
        runs.NoteDisturbed();
        runs.RunEnded(0, shortRuns, maxLength);
        NS_TEST_EXPECT_MSG_EQ(runs.Cap(), maxLength, "DisturbedRunLength 0: off");
        runs.RunEnded(shortLength, shortRuns, maxLength);
        NS_TEST_EXPECT_MSG_EQ(runs.Cap(), maxLength, "a disturbance counts for its run only");
    }
};

/// The suite.
class GsnPortStateTestSuite : public TestSuite
{
  public:
    GsnPortStateTestSuite()
        : TestSuite("gsn-port-state", UNIT)
    {
        AddTestCase(new GsnHeldChoiceTestCase, TestCase::QUICK);
        AddTestCase(new GsnScheduledArrivalsTestCase, TestCase::QUICK);
        AddTestCase(new GsnDisturbedRunsTestCase, TestCase::QUICK);
    }
};

} // namespace

/// Registers the suite.
static GsnPortStateTestSuite g_gsnPortStateTestSuite;
