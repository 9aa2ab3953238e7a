/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Parts of GsnPortDevice's state on their own: the held choice and its count per node
 * (gsn::HeldChoice), the arrivals a channel scheduled at a port (gsn::ScheduledArrivals), the
 * run mode's limit on runs after a disturbed one (gsn::DisturbedRuns) and the RSEQs taken
 * ahead of their arrival (gsn::LaterAcks).
 */
#include "ns3/gsn-disturbed-runs.h"
#include "ns3/gsn-held-choice.h"
#include "ns3/gsn-later-acks.h"
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
/// gsn::LaterAcks: due by arrival, the last RSEQ due applied from the first entry carrying it,
/// a repeated final RSEQ not kept, RSEQs of a live run read there until it has left.
class GsnLaterAcksTestCase : public TestCase
{
  public:
    GsnLaterAcksTestCase()
        : TestCase("RSEQs taken ahead: applied by arrival, read from a live run until it leaves")
    {
    }

  private:
    void DoRun() override
    {
        gsn::LaterAcks acks;
        NS_TEST_EXPECT_MSG_EQ(acks.empty(), true, "nothing kept");
        NS_TEST_EXPECT_MSG_EQ(acks.HasDueBy(Seconds(1)), false, "nothing due");

        acks.AddFinal(NanoSeconds(100), 0, 5);
        acks.AddFinal(NanoSeconds(110), 1, 5); // the same RSEQ: not kept
        acks.AddFinal(NanoSeconds(120), 2, 6);
        acks.AddFinal(NanoSeconds(130), 3, 7);
        NS_TEST_EXPECT_MSG_EQ(acks.size(), 3, "the repeated RSEQ at 110 ns is not kept");
        NS_TEST_EXPECT_MSG_EQ(acks.HasDueBy(NanoSeconds(99)), false, "none arrived by 99 ns");
        NS_TEST_EXPECT_MSG_EQ(acks.HasDueBy(NanoSeconds(100)), true, "one arrived by 100 ns");
        uint8_t rseq = 0;
        NS_TEST_EXPECT_MSG_EQ(acks.LastArrivedBy(NanoSeconds(99), rseq), false, "none by 99 ns");
        NS_TEST_EXPECT_MSG_EQ(acks.LastArrivedBy(NanoSeconds(125), rseq), true, "some by 125 ns");
        NS_TEST_EXPECT_MSG_EQ(uint32_t(rseq), 6, "the last arrived by 125 ns");

        gsn::LaterAcks::Due due = acks.TakeDue(NanoSeconds(115));
        NS_TEST_EXPECT_MSG_EQ(uint32_t(due.rseq), 5, "the RSEQ due by 115 ns");
        NS_TEST_EXPECT_MSG_EQ(due.from, NanoSeconds(100), "from its first arrival");
        NS_TEST_EXPECT_MSG_EQ(acks.FirstArrival(), NanoSeconds(120), "the next kept");
        due = acks.TakeDue(NanoSeconds(200));
        NS_TEST_EXPECT_MSG_EQ(uint32_t(due.rseq), 7, "the last RSEQ due by 200 ns");
        NS_TEST_EXPECT_MSG_EQ(due.from, NanoSeconds(130), "from its arrival");
        NS_TEST_EXPECT_MSG_EQ(acks.empty(), true, "all taken");

        // A run the peer still sends: its RSEQs are read there, amended or not.
        Ptr<GsnMicropacketRun> run = Create<GsnMicropacketRun>();
        acks.AddOnLiveRun(NanoSeconds(300), PeekPointer(run), 0, 8);
        acks.AddOnLiveRun(NanoSeconds(340), PeekPointer(run), 1, 9);
        acks.AddOnLiveRun(NanoSeconds(380), PeekPointer(run), 2, 10);
        NS_TEST_EXPECT_MSG_EQ(run->heldByReceiver, true, "the run is held for its RSEQs");
        NS_TEST_EXPECT_MSG_EQ(run->GetReferenceCount(), 2, "and kept alive");
        run->AmendRseqFrom(1, 8); // the peer owes no more acknowledgements at its second slot
        due = acks.TakeDue(NanoSeconds(350));
        NS_TEST_EXPECT_MSG_EQ(uint32_t(due.rseq), 8, "the amended RSEQ is read from the run");
        NS_TEST_EXPECT_MSG_EQ(due.from, NanoSeconds(300), "from the first carrying it");
        NS_TEST_EXPECT_MSG_EQ(run->ackApplied, 1, "the run knows how far it was applied");

        // The run has left: the rest keep their final RSEQs; later amendments change nothing.
        run->AmendRseqFrom(2, 11);
        acks.RunFinished(PeekPointer(run));
        NS_TEST_EXPECT_MSG_EQ(run->GetReferenceCount(), 1, "the run is let go");
        run->AmendRseqFrom(2, 12);
        NS_TEST_EXPECT_MSG_EQ(acks.LastArrivedBy(NanoSeconds(400), rseq), true, "one left");
        NS_TEST_EXPECT_MSG_EQ(uint32_t(rseq), 11, "its RSEQ as final when the run left");
        acks.AddFinal(NanoSeconds(420), 3, 11);
        NS_TEST_EXPECT_MSG_EQ(acks.size(), 1, "nor the final RSEQ repeated");
        due = acks.TakeDue(NanoSeconds(500));
        NS_TEST_EXPECT_MSG_EQ(uint32_t(due.rseq), 11, "the repeated final RSEQ");
        NS_TEST_EXPECT_MSG_EQ(due.from, NanoSeconds(380), "from the entry that first had it");
        NS_TEST_EXPECT_MSG_EQ(acks.empty(), true, "the repeat was not kept");

        acks.AddOnLiveRun(NanoSeconds(600), PeekPointer(run), 0, 1);
        acks.clear();
        NS_TEST_EXPECT_MSG_EQ(acks.empty(), true, "cleared");
        NS_TEST_EXPECT_MSG_EQ(run->GetReferenceCount(), 1, "the run is let go at a reset");
    }
};

class GsnPortStateTestSuite : public TestSuite
{
  public:
    GsnPortStateTestSuite()
        : TestSuite("gsn-port-state", UNIT)
    {
        AddTestCase(new GsnHeldChoiceTestCase, TestCase::QUICK);
        AddTestCase(new GsnScheduledArrivalsTestCase, TestCase::QUICK);
        AddTestCase(new GsnDisturbedRunsTestCase, TestCase::QUICK);
        AddTestCase(new GsnLaterAcksTestCase, TestCase::QUICK);
    }
};

} // namespace

/// Registers the suite.
static GsnPortStateTestSuite g_gsnPortStateTestSuite;
