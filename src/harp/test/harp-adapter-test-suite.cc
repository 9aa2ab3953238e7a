/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3 adaptation of HARP, phase by phase and timer by timer, over simulated hours:
 * broadcast detection, registration, resolution, NAK, a server stopped and restarted, a client
 * losing all servers and registering again, a silent client forgotten, revalidation at
 * 15 minutes, redundant servers, one server for two LIS, static entries (helper, options file,
 * gsnarp -s/-d), and bad HARP input from the wire dropped, counted and traced.
 */
#include "harp-test-network.h"

#include "ns3/harp-address-conversion.h"
#include "ns3/harp-message.h"
#include "ns3/test.h"

#include <fstream>

using namespace ns3;
using namespace ns3::harptest;

namespace
{

/// What the traces of one HARP interface reported.
struct Recorder
{
    /// One engine event and when.
    struct Timed
    {
        Time at;           ///< when
        harp::Event event; ///< what
        bool server;       ///< reported by the server
    };

    std::vector<Timed> events;                                      ///< every event
    std::vector<std::tuple<Time, harp::Phase, harp::Phase>> phases; ///< phase changes
    std::map<harp::DropReason, uint32_t> drops;                     ///< client drops by reason
    uint32_t serverDrops{0};                                        ///< server drops
    std::map<Mac48Address, uint32_t> txTo;                          ///< frames sent, by destination

    /// Listen to \p i.
    void Attach(Ptr<HarpInterface> i)
    {
        i->TraceConnectWithoutContext("Event", MakeCallback(&Recorder::OnEvent, this));
        i->TraceConnectWithoutContext("PhaseChange", MakeCallback(&Recorder::OnPhase, this));
        i->TraceConnectWithoutContext("Drop", MakeCallback(&Recorder::OnDrop, this));
        i->TraceConnectWithoutContext("Tx", MakeCallback(&Recorder::OnTx, this));
    }

    void OnEvent(const harp::Event& e, bool server)
    {
        events.push_back({Simulator::Now(), e, server});
    }

    void OnPhase(harp::Phase from, harp::Phase to)
    {
        phases.emplace_back(Simulator::Now(), from, to);
    }

    void OnDrop(Ptr<const Packet>, Mac48Address, harp::DropReason reason, bool server)
    {
        if (server)
        {
            ++serverDrops;
        }
        else
        {
            ++drops[reason];
        }
    }

    void OnTx(Ptr<const Packet>, Mac48Address to)
    {
        ++txTo[to];
    }

    /// \return events of \p type (by the client, or the server) about \p ip (any if none)
    std::vector<Timed> Find(harp::EventType type,
                            bool server = false,
                            std::optional<Ipv4Address> ip = std::nullopt) const
    {
        std::vector<Timed> found;
        for (const Timed& t : events)
        {
            if (t.event.type == type && t.server == server &&
                (!ip || t.event.ip == harp::Ipv4(ip->Get())))
            {
                found.push_back(t);
            }
        }
        return found;
    }

    /// \return when the phase went from \p from to \p to at or after \p after, if it did
    std::optional<Time> PhaseAt(harp::Phase from, harp::Phase to, Time after = Time(0)) const
    {
        for (const auto& [at, f, t] : phases)
        {
            if (f == from && t == to && at >= after)
            {
                return at;
            }
        }
        return std::nullopt;
    }
};

/// The outcome of an asynchronous resolution.
struct Outcome
{
    bool done{false}; ///< the callback ran
    bool ok{false};   ///< resolved
    Mac48Address ula; ///< the answer
    Time at;          ///< when the callback ran
};

void
RecordOutcome(Outcome* o, Ipv4Address, bool ok, Mac48Address ula)
{
    o->done = true;
    o->ok = ok;
    o->ula = ula;
    o->at = Simulator::Now();
}

/// Resolve \p ip on \p i at \p when, into \p out.
void
ResolveAt(Ptr<HarpInterface> i, Ipv4Address ip, Time when, Outcome* out)
{
    Simulator::ScheduleWithContext(i->GetDevice()->GetNode()->GetId(), when, [i, ip, out]() {
        i->ResolveAsync(ip, MakeBoundCallback(&RecordOutcome, out));
    });
}

/// Run \p f in the context of \p i's node at \p when.
template <typename F>
void
At(Ptr<HarpInterface> i, Time when, F f)
{
    Simulator::ScheduleWithContext(i->GetDevice()->GetNode()->GetId(), when, f);
}

/// \return the ULA of a device
Mac48Address
UlaOf(Ptr<NetDevice> d)
{
    return Mac48Address::ConvertFrom(d->GetAddress());
}

/// \return a star of \p n hosts "ep0".. with addresses 192.0.2.1.. on one switch
std::unique_ptr<Network>
Star(uint32_t n, bool broadcast)
{
    auto net = std::make_unique<Network>(GsnTopologyBuilder::Star(n), broadcast);
    for (uint32_t i = 0; i < n; ++i)
    {
        net->Assign("ep" + std::to_string(i), "192.0.2." + std::to_string(i + 1));
    }
    return net;
}

} // namespace

/**
 * Broadcast fabric: the self-test finds it, no server is used, resolution is ARP-like; an
 * address nobody owns times out; an address of another LIS fails at once.
 */
class HarpAdapterBroadcastTestCase : public TestCase
{
  public:
    HarpAdapterBroadcastTestCase()
        : TestCase("broadcast detection and ARP-like resolution")
    {
    }

  private:
    void DoRun() override
    {
        auto net = Star(3, true);
        HarpHelper harp;
        // The self-test itself (Auto would take the fabric helper's word instead).
        harp.SetAttribute("FabricMode", EnumValue(HarpProtocol::DETECT));
        net->InstallHarp(harp);
        Ptr<HarpInterface> a = net->Harp("ep0");
        Recorder rec;
        rec.Attach(a);
        std::optional<Mac48Address> early;
        At(a, Seconds(0.5), [&]() { early = a->Lookup(net->Address("ep2")); });
        uint32_t phaseChanges = 0;
        Config::ConnectWithoutContext("/NodeList/*/$ns3::HarpProtocol/InterfaceList/*/PhaseChange",
                                      MakeBoundCallback(
                                          +[](uint32_t* n, harp::Phase, harp::Phase) { ++*n; },
                                          &phaseChanges));
        Outcome hit;
        Outcome nobody;
        Outcome outside;
        ResolveAt(a, net->Address("ep1"), Seconds(2), &hit);
        ResolveAt(a, Ipv4Address("192.0.2.20"), Seconds(2), &nobody);
        ResolveAt(a, Ipv4Address("192.0.2.40"), Seconds(2), &outside);
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        const auto detected = rec.PhaseAt(harp::Phase::Detecting, harp::Phase::Operational);
        NS_TEST_ASSERT_MSG_EQ(detected.has_value(), true, "detection ended");
        NS_TEST_EXPECT_MSG_LT(*detected, Seconds(0.1), "the first probe's copy came back");
        NS_TEST_EXPECT_MSG_EQ(rec.PhaseAt(harp::Phase::Idle, harp::Phase::Detecting).has_value(),
                              true,
                              "the self-test ran");
        const auto bd = rec.Find(harp::EventType::BroadcastDetected);
        NS_TEST_ASSERT_MSG_EQ(bd.size(), 1, "one detection");
        NS_TEST_EXPECT_MSG_EQ(bd[0].event.broadcast, true, "the fabric broadcasts");
        NS_TEST_EXPECT_MSG_EQ(phaseChanges,
                              6,
                              "3 hosts: Idle-Detecting-Operational, by Config path");
        NS_TEST_EXPECT_MSG_EQ(early.has_value(), false, "Lookup resolves nothing");
        NS_TEST_EXPECT_MSG_EQ(hit.ok, true, "ep1 resolved");
        NS_TEST_EXPECT_MSG_EQ(hit.ula, UlaOf(net->Device("ep1")), "to ep1's ULA");
        NS_TEST_EXPECT_MSG_LT(hit.at, Seconds(2.001), "at once");
        NS_TEST_EXPECT_MSG_EQ((nobody.done && !nobody.ok), true, "nobody owns .20");
        NS_TEST_EXPECT_MSG_EQ(nobody.at, Seconds(11), "after 3 attempts of 3 s");
        NS_TEST_EXPECT_MSG_EQ((outside.done && !outside.ok), true, ".40 is in another LIS");
        NS_TEST_EXPECT_MSG_EQ(outside.at, Seconds(2), "refused at once");
        const auto failed = rec.Find(harp::EventType::Unresolvable);
        NS_TEST_ASSERT_MSG_EQ(failed.size(), 2, "two failures");
        NS_TEST_EXPECT_MSG_EQ((failed[0].event.reason == harp::FailReason::OutsideLis),
                              true,
                              "outside the LIS first");
        NS_TEST_EXPECT_MSG_EQ((failed[1].event.reason == harp::FailReason::Timeout),
                              true,
                              "then the timeout");
        NS_TEST_EXPECT_MSG_EQ(net->nonHarpArpOnWire, 0, "no Ethernet ARP on the GSN wire");
    }
};

/**
 * Non-broadcast fabric: the self-test finds none, clients register with the server (the
 * server's own host through loopback), resolve through it, and get a NAK for an unknown
 * address.
 */
class HarpAdapterRegistrationTestCase : public TestCase
{
  public:
    HarpAdapterRegistrationTestCase()
        : TestCase("non-broadcast detection, registration, resolution and NAK")
    {
    }

  private:
    void DoRun() override
    {
        auto net = Star(3, false);
        HarpHelper harp;
        harp.SetAttribute("FabricMode", EnumValue(HarpProtocol::DETECT));
        harp.AddServer(net->Device("ep0"));
        // A second server of the LIS, named by its ULA, that never answers.
        const Mac48Address phantom("02:00:00:00:00:99");
        harp.AddServer(Ipv4Address("192.0.2.0"), Ipv4Mask(LIS_MASK), phantom);
        net->InstallHarp(harp);
        Ptr<HarpInterface> s = net->Harp("ep0");
        Ptr<HarpInterface> a = net->Harp("ep1");
        Recorder recS;
        Recorder recA;
        recS.Attach(s);
        recA.Attach(a);
        Outcome hit;
        Outcome nak;
        ResolveAt(a, net->Address("ep2"), Seconds(5), &hit);
        ResolveAt(a, Ipv4Address("192.0.2.20"), Seconds(6), &nak);
        Simulator::Stop(Seconds(14));
        Simulator::Run();

        const auto bd = recA.Find(harp::EventType::BroadcastDetected);
        NS_TEST_ASSERT_MSG_EQ(bd.size(), 1, "one detection");
        NS_TEST_EXPECT_MSG_EQ(bd[0].event.broadcast, false, "the fabric does not broadcast");
        const auto reg = recA.PhaseAt(harp::Phase::Detecting, harp::Phase::Registration);
        NS_TEST_ASSERT_MSG_EQ(reg.has_value(), true, "registration phase entered");
        NS_TEST_EXPECT_MSG_EQ(*reg, Seconds(3), "after 3 probes 1 s apart");
        const auto op = recA.PhaseAt(harp::Phase::Registration, harp::Phase::Operational);
        NS_TEST_ASSERT_MSG_EQ(op.has_value(), true, "operational phase entered");
        NS_TEST_EXPECT_MSG_LT(*op, Seconds(3.001), "after the server's InARP reply");
        NS_TEST_EXPECT_MSG_EQ(recA.Find(harp::EventType::ServerUp).size(), 1, "one server up");
        NS_TEST_ASSERT_MSG_EQ(a->GetClient().GetServers().size(), 2, "both servers named");
        NS_TEST_EXPECT_MSG_EQ(FromHarpUla(a->GetClient().GetServers()[1].ula),
                              phantom,
                              "in declaration order");
        // Registration at 3 s, then every 10 s to the server that never answered: 3, 13.
        NS_TEST_EXPECT_MSG_EQ(recA.txTo[phantom], 2, "InARP retransmitted to the silent one");
        NS_TEST_EXPECT_MSG_EQ(
            recS.Find(harp::EventType::ClientRegistered, true, net->Address("ep1")).size(),
            1,
            "ep1 registered");
        NS_TEST_EXPECT_MSG_EQ(
            recS.Find(harp::EventType::ClientRegistered, true, net->Address("ep2")).size(),
            1,
            "ep2 registered");
        NS_TEST_EXPECT_MSG_GT(s->GetCounters().loopedBack, 0, "ep0 registered through loopback");
        NS_TEST_EXPECT_MSG_EQ((s->GetPhase() == harp::Phase::Operational), true, "ep0 too");
        NS_TEST_EXPECT_MSG_EQ(hit.ok, true, "ep2 resolved through the server");
        NS_TEST_EXPECT_MSG_EQ(hit.ula, UlaOf(net->Device("ep2")), "to ep2's ULA");
        NS_TEST_EXPECT_MSG_EQ((nak.done && !nak.ok), true, ".20 is unknown");
        NS_TEST_EXPECT_MSG_LT(nak.at, Seconds(6.001), "the server said so at once");
        const auto failed = recA.Find(harp::EventType::Unresolvable);
        NS_TEST_ASSERT_MSG_EQ(failed.size(), 1, "one failure");
        NS_TEST_EXPECT_MSG_EQ((failed[0].event.reason == harp::FailReason::Nak), true, "a NAK");
        NS_TEST_EXPECT_MSG_EQ(net->nonHarpArpOnWire, 0, "no Ethernet ARP on the GSN wire");
    }
};

/**
 * Over hours: the only server stops; its clients notice at re-registration, fall back to the
 * registration phase and retransmit InARP requests every 10 s; the server restarts and they
 * are operational again within 10 s.
 */
class HarpAdapterServerRestartTestCase : public TestCase
{
  public:
    HarpAdapterServerRestartTestCase()
        : TestCase("server stopped and restarted, clients fall back and register again")
    {
    }

  private:
    void DoRun() override
    {
        auto net = Star(3, false);
        HarpHelper harp;
        harp.AddServer(net->Device("ep0"));
        net->InstallHarp(harp);
        Ptr<HarpInterface> s = net->Harp("ep0");
        Ptr<HarpInterface> a = net->Harp("ep1");
        Recorder recA;
        recA.Attach(a);
        const Ipv4Address b = net->Address("ep2");
        Outcome before;
        Outcome during;
        Outcome after;
        ResolveAt(a, b, Seconds(10), &before);
        uint32_t txToServerAtStop = 0;
        At(s, Hours(1), [&]() {
            s->StopServer();
            txToServerAtStop = recA.txTo[UlaOf(net->Device("ep0"))];
        });
        ResolveAt(a, b, Minutes(90), &during);
        uint32_t txToServerAtRestart = 0;
        At(s, Hours(2), [&]() {
            s->StartServer();
            txToServerAtRestart = recA.txTo[UlaOf(net->Device("ep0"))];
        });
        ResolveAt(a, b, Hours(2) + Minutes(1), &after);
        Simulator::Stop(Hours(2.5));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(before.ok, true, "resolved while the server ran");
        const auto down = recA.Find(harp::EventType::ServerDown);
        NS_TEST_ASSERT_MSG_EQ(down.size(), 1, "the server was seen to stop");
        NS_TEST_EXPECT_MSG_GT(down[0].at, Hours(1), "after it stopped");
        NS_TEST_EXPECT_MSG_LT(down[0].at,
                              Hours(1) + Minutes(15) + Seconds(10),
                              "at re-registration");
        const auto fallback =
            recA.PhaseAt(harp::Phase::Operational, harp::Phase::Registration, Hours(1));
        NS_TEST_ASSERT_MSG_EQ(fallback.has_value(), true, "back to registration");
        NS_TEST_EXPECT_MSG_EQ(*fallback, down[0].at, "as soon as no server answered");
        const uint32_t retransmissions = txToServerAtRestart - txToServerAtStop;
        const double expected = (Hours(2) - *fallback).GetSeconds() / 10;
        NS_TEST_EXPECT_MSG_GT(retransmissions, expected - 5, "InARP every 10 s while registering");
        NS_TEST_EXPECT_MSG_LT(retransmissions, expected + 5, "InARP every 10 s while registering");
        NS_TEST_EXPECT_MSG_EQ((during.done && !during.ok),
                              true,
                              "nothing resolves without servers");
        const auto back =
            recA.PhaseAt(harp::Phase::Registration, harp::Phase::Operational, Hours(2));
        NS_TEST_ASSERT_MSG_EQ(back.has_value(), true, "operational again");
        NS_TEST_EXPECT_MSG_LT(*back, Hours(2) + Seconds(10.001), "within one InARP period");
        NS_TEST_EXPECT_MSG_EQ(recA.Find(harp::EventType::ServerUp).size(), 2, "up twice");
        NS_TEST_EXPECT_MSG_EQ(after.ok, true, "resolved through the restarted server");
        NS_TEST_EXPECT_MSG_EQ(after.ula, UlaOf(net->Device("ep2")), "to ep2's ULA");
        NS_TEST_ASSERT_MSG_NE(s->GetServer(), nullptr, "the server runs");
        NS_TEST_EXPECT_MSG_EQ(s->GetServer()->GetTable().GetSize(), 3, "every host registered");
    }
};

/**
 * A client goes silent: the server forgets it 20 minutes after its last registration; another
 * client's unused entry for it was removed at 15 minutes, and its new request gets a NAK.
 */
class HarpAdapterForgetTestCase : public TestCase
{
  public:
    HarpAdapterForgetTestCase()
        : TestCase("silent client forgotten after 20 min, idle entries removed after 15 min")
    {
    }

  private:
    void DoRun() override
    {
        auto net = Star(3, false);
        HarpHelper harp;
        harp.AddServer(net->Device("ep0"));
        net->InstallHarp(harp);
        Ptr<HarpInterface> s = net->Harp("ep0");
        Ptr<HarpInterface> a = net->Harp("ep1");
        Ptr<HarpInterface> b = net->Harp("ep2");
        Recorder recS;
        Recorder recA;
        Recorder recB;
        recS.Attach(s);
        recA.Attach(a);
        recB.Attach(b);
        Outcome first;
        Outcome later;
        ResolveAt(a, b->GetAddress(), Seconds(10), &first);
        At(b, Minutes(30), [b]() { b->StopClient(); });
        ResolveAt(a, b->GetAddress(), Minutes(40), &later);
        Simulator::Stop(Hours(1));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(first.ok, true, "resolved while ep2 was registered");
        const auto removed = recA.Find(harp::EventType::EntryRemoved, false, b->GetAddress());
        NS_TEST_ASSERT_MSG_EQ(removed.size(), 1, "the idle entry went away");
        NS_TEST_EXPECT_MSG_GT(removed[0].at, Seconds(10) + Minutes(15), "15 min after it came");
        NS_TEST_EXPECT_MSG_LT(removed[0].at, Seconds(10.01) + Minutes(15), "15 min after it came");
        NS_TEST_EXPECT_MSG_EQ((removed[0].event.reason == harp::FailReason::None),
                              true,
                              "removed as idle");
        const auto forgotten = recS.Find(harp::EventType::ClientForgotten, true, b->GetAddress());
        NS_TEST_ASSERT_MSG_EQ(forgotten.size(), 1, "the server forgot ep2");
        NS_TEST_EXPECT_MSG_GT(forgotten[0].at, Minutes(35), "20 min after its last registration");
        NS_TEST_EXPECT_MSG_LT(forgotten[0].at, Minutes(35) + Seconds(10), "20 min after it");
        NS_TEST_EXPECT_MSG_EQ((later.done && !later.ok), true, "ep2 no longer resolves");
        const auto failed = recA.Find(harp::EventType::Unresolvable, false, b->GetAddress());
        NS_TEST_ASSERT_MSG_EQ(failed.size(), 1, "one failure");
        NS_TEST_EXPECT_MSG_EQ((failed[0].event.reason == harp::FailReason::Nak), true, "a NAK");
        NS_TEST_EXPECT_MSG_EQ(recS.Find(harp::EventType::ClientForgotten, true).size(),
                              1,
                              "only ep2 was forgotten: the others re-registered");
    }
};

/**
 * An entry in use is revalidated every 15 minutes through the server while IPv4 traffic
 * flows (ns-3's ARP cache asks HARP again every 2 minutes), and removed once unused.
 */
class HarpAdapterRevalidationTestCase : public TestCase
{
  public:
    HarpAdapterRevalidationTestCase()
        : TestCase("entries in use revalidated every 15 min, removed when idle")
    {
    }

  private:
    void DoRun() override
    {
        auto net = Star(3, false);
        HarpHelper harp;
        harp.AddServer(net->Device("ep0"));
        net->InstallHarp(harp);
        Ptr<HarpInterface> a = net->Harp("ep1");
        Recorder recA;
        recA.Attach(a);
        const Ipv4Address b = net->Address("ep2");
        net->Ping("ep1", "ep2", Seconds(5), Minutes(40));
        Simulator::Stop(Hours(1));
        Simulator::Run();

        // Resolved at 5 s; revalidated at 15 and 30 min (IPv4 used it); removed at 45 min,
        // ns-3's entry having gone stale after the pings stopped at 40 min.
        const auto revalidated = recA.Find(harp::EventType::Revalidated, false, b);
        NS_TEST_EXPECT_MSG_EQ(revalidated.size(), 2, "at 15 and 30 min");
        const auto removed = recA.Find(harp::EventType::EntryRemoved, false, b);
        NS_TEST_ASSERT_MSG_EQ(removed.size(), 1, "removed once idle");
        NS_TEST_EXPECT_MSG_GT(removed[0].at, Minutes(45), "not while in use");
        NS_TEST_EXPECT_MSG_LT(removed[0].at, Minutes(46), "at the next 15-min mark");
        NS_TEST_EXPECT_MSG_GT(net->rtts, 2398, "every ping answered meanwhile");
        NS_TEST_EXPECT_MSG_LT(net->rtts, 2402, "one ping a second for 40 min");
        NS_TEST_EXPECT_MSG_EQ(a->GetCounters().arpUseNotices, 2, "IPv4's use told to HARP");
        NS_TEST_EXPECT_MSG_EQ(a->GetCounters().arpRequestsIntercepted,
                              1,
                              "ns-3's ARP asked once: HARP kept the entry");
    }
};

/**
 * Two servers per LIS: with one stopped, resolution goes to the other after one timeout;
 * re-registration marks the stopped one dead without leaving the operational phase.
 */
class HarpAdapterRedundantServersTestCase : public TestCase
{
  public:
    HarpAdapterRedundantServersTestCase()
        : TestCase("two servers per LIS, one stopped")
    {
    }

  private:
    void DoRun() override
    {
        auto net = Star(4, false);
        HarpHelper harp;
        harp.AddServer(net->Device("ep0"));
        harp.AddServer(net->Device("ep1"));
        net->InstallHarp(harp);
        Ptr<HarpInterface> s1 = net->Harp("ep0");
        Ptr<HarpInterface> a = net->Harp("ep2");
        Recorder recA;
        recA.Attach(a);
        const Ipv4Address b = net->Address("ep3");
        NS_TEST_ASSERT_MSG_EQ(a->GetClient().GetServers().size(), 2, "both servers named");
        At(s1, Minutes(1), [s1]() { s1->StopServer(); });
        Outcome first;
        Outcome second;
        ResolveAt(a, b, Minutes(2), &first);
        ResolveAt(a, b, Minutes(19), &second);
        Simulator::Stop(Minutes(20));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(first.ok, true, "resolved by the other server");
        NS_TEST_EXPECT_MSG_LT(first.at, Minutes(2) + Seconds(3.001), "after one timeout at most");
        const auto down = recA.Find(harp::EventType::ServerDown);
        NS_TEST_ASSERT_MSG_EQ(down.size(), 1, "one server down");
        NS_TEST_EXPECT_MSG_EQ((down[0].event.ula == harp::Ula()), false, "a ULA is given");
        NS_TEST_EXPECT_MSG_EQ(FromHarpUla(down[0].event.ula),
                              UlaOf(net->Device("ep0")),
                              "the stopped one");
        NS_TEST_EXPECT_MSG_EQ(
            recA.PhaseAt(harp::Phase::Operational, harp::Phase::Registration).has_value(),
            false,
            "still operational with one server");
        NS_TEST_EXPECT_MSG_EQ(second.ok, true, "resolved again");
        NS_TEST_EXPECT_MSG_LT(second.at, Minutes(19) + MilliSeconds(1), "at once");
    }
};

/**
 * One server interface with an address in each of two LIS serves both: each client learns
 * the server's address in its own LIS and resolves its LIS's hosts.
 */
class HarpAdapterTwoLisServerTestCase : public TestCase
{
  public:
    HarpAdapterTwoLisServerTestCase()
        : TestCase("one server for two LIS")
    {
    }

  private:
    void DoRun() override
    {
        Network net(GsnTopologyBuilder::Star(4), false);
        net.Assign("ep0", "192.0.2.1");
        Ptr<Ipv4> ipv4 = net.NodeOf("ep0")->GetObject<Ipv4>();
        const int32_t index = ipv4->GetInterfaceForDevice(net.Device("ep0"));
        ipv4->AddAddress(uint32_t(index),
                         Ipv4InterfaceAddress(Ipv4Address("192.0.2.33"), Ipv4Mask(LIS_MASK)));
        net.Assign("ep1", "192.0.2.2");
        net.Assign("ep2", "192.0.2.34");
        net.Assign("ep3", "192.0.2.35");
        HarpHelper harp;
        harp.AddServer(net.Device("ep0"));
        net.InstallHarp(harp);
        Ptr<HarpInterface> c = net.Harp("ep2");
        Outcome d;
        Outcome s2;
        ResolveAt(c, Ipv4Address("192.0.2.35"), Seconds(5), &d);
        ResolveAt(c, Ipv4Address("192.0.2.33"), Seconds(5), &s2);
        Simulator::Stop(Seconds(6));
        Simulator::Run();

        for (const char* host : {"ep1", "ep2", "ep3"})
        {
            NS_TEST_EXPECT_MSG_EQ((net.Harp(host)->GetPhase() == harp::Phase::Operational),
                                  true,
                                  host << " registered");
        }
        NS_TEST_EXPECT_MSG_EQ(net.Harp("ep1")->GetClient().GetServers()[0].address.ToString(),
                              "192.0.2.1",
                              "LIS_1 sees the server's LIS_1 address");
        NS_TEST_EXPECT_MSG_EQ(c->GetClient().GetServers()[0].address.ToString(),
                              "192.0.2.33",
                              "LIS_2 sees the server's LIS_2 address");
        NS_TEST_EXPECT_MSG_EQ(d.ok, true, "a LIS_2 host resolved through the shared server");
        NS_TEST_EXPECT_MSG_EQ(d.ula, UlaOf(net.Device("ep3")), "to its ULA");
        NS_TEST_EXPECT_MSG_EQ(s2.ok, true, "the server's own LIS_2 address resolves");
        NS_TEST_EXPECT_MSG_EQ(net.Harp("ep0")->GetServer()->GetTable().GetSize(),
                              5,
                              "two own addresses and three registrations");
    }
};

/**
 * Static entries: a host without dynamic HARP (Z: static table only) is known to the server
 * through its options file; A pings Z through the server's static entry; gsnarp -s / -d on A.
 */
class HarpAdapterStaticTestCase : public TestCase
{
  public:
    HarpAdapterStaticTestCase()
        : TestCase("static entries: options file, helper, gsnarp -s and -d")
    {
    }

  private:
    void DoRun() override
    {
        auto net = Star(3, false);
        const Mac48Address z = UlaOf(net->Device("ep2"));
        // The server's harpd.options, read from a file.
        const std::string path = CreateTempDirFilename("harpd.options");
        {
            std::ofstream out(path);
            out << "# server of LIS_1\nstatic 192.0.2.3 " << z << "  # Z has no HARP\n"
                << "registration-lifetime 20m\n";
        }
        HarpHelper harp;
        harp.AddServer(net->Device("ep0"));
        harp.SetOptions(net->Device("ep0"), HarpHelper::ReadOptionsFile(path));
        NetDeviceContainer withHarp;
        withHarp.Add(net->Device("ep0"));
        withHarp.Add(net->Device("ep1"));
        harp.Install(withHarp);
        // Z: no server, no self-test, A in its static table.
        HarpHelper staticOnly;
        staticOnly.SetAttribute("FabricMode", EnumValue(HarpProtocol::NON_BROADCAST));
        staticOnly.AddStatic(net->Address("ep1"), UlaOf(net->Device("ep1")));
        staticOnly.Install(NetDeviceContainer(net->Device("ep2")));

        Ptr<HarpInterface> a = net->Harp("ep1");
        Ptr<HarpInterface> zi = net->Harp("ep2");
        net->Ping("ep1", "ep2", Seconds(5), Seconds(3));
        std::optional<Mac48Address> added;
        std::optional<Mac48Address> removed;
        bool refused = true;
        const Mac48Address w("02:00:00:00:00:09");
        At(a, Seconds(10), [&]() {
            a->AddStatic(Ipv4Address("192.0.2.9"), w);
            added = a->Lookup(Ipv4Address("192.0.2.9"));
            refused = a->AddStatic(Ipv4Address("192.0.2.40"), w);
        });
        At(a, Seconds(11), [&]() {
            a->RemoveStatic(Ipv4Address("192.0.2.9"));
            removed = a->Lookup(Ipv4Address("192.0.2.9"));
        });
        Simulator::Stop(Seconds(12));
        Simulator::Run();

        const harp::CacheEntry* atServer =
            net->Harp("ep0")->GetServer()->GetTable().Find(harp::Ipv4(net->Address("ep2").Get()));
        NS_TEST_ASSERT_MSG_NE(atServer, nullptr, "the server holds Z");
        NS_TEST_EXPECT_MSG_EQ(atServer->isStatic, true, "as a static entry");
        NS_TEST_EXPECT_MSG_EQ((zi->GetPhase() == harp::Phase::Registration),
                              true,
                              "Z has no server to register with");
        NS_TEST_EXPECT_MSG_EQ(zi->GetClient().GetServers().size(), 0, "Z names no server");
        NS_TEST_EXPECT_MSG_EQ(zi->GetCounters().txFrames, 0, "Z sends no HARP frame");
        NS_TEST_EXPECT_MSG_EQ(net->rtts, 3, "A pinged Z through the server's static entry");
        const harp::CacheEntry* atA =
            a->GetClient().GetCache().Find(harp::Ipv4(net->Address("ep2").Get()));
        NS_TEST_ASSERT_MSG_NE(atA, nullptr, "A learnt Z");
        NS_TEST_EXPECT_MSG_EQ(atA->isStatic, false, "dynamically, from the server");
        NS_TEST_EXPECT_MSG_EQ(added.value_or(Mac48Address()), w, "gsnarp -s took effect");
        NS_TEST_EXPECT_MSG_EQ(refused, false, "an address outside the LIS is refused");
        NS_TEST_EXPECT_MSG_EQ(removed.has_value(), false, "gsnarp -d took effect");
    }
};

/**
 * Bad HARP input from the wire, sent by a host without HARP to A: each frame is dropped,
 * counted under its reason and traced; none reaches A's table or ns-3's ARP cache, not even an
 * Ethernet ARP reply for an address ns-3 is waiting for.
 */
class HarpAdapterBadInputTestCase : public TestCase
{
  public:
    HarpAdapterBadInputTestCase()
        : TestCase("bad HARP input dropped, counted and traced")
    {
    }

  private:
    void DoRun() override
    {
        auto net = std::make_unique<Network>(GsnTopologyBuilder::Star(3), true);
        // X runs IPv4 without HARP. Without an ARP cache ns-3's ARP would crash on the first
        // 0x0806 frame (ArpL3Protocol::Receive needs one): X must need ARP when it gets its
        // address.
        net->Device("ep2")->SetAttribute("NeedsArp", BooleanValue(true));
        for (uint32_t i = 0; i < 3; ++i)
        {
            net->Assign("ep" + std::to_string(i), "192.0.2." + std::to_string(i + 1));
        }
        const Ipv4Address w("192.0.2.9");
        const Mac48Address wUla("02:00:00:00:00:09");
        HarpHelper harp;
        harp.AddStatic(w, wUla);
        NetDeviceContainer withHarp;
        withHarp.Add(net->Device("ep0"));
        withHarp.Add(net->Device("ep1"));
        harp.Install(withHarp);
        Ptr<HarpInterface> a = net->Harp("ep0");
        Ptr<GsnNetDevice> x = net->Device("ep2"); // no HARP: the source of bad frames
        Recorder recA;
        recA.Attach(a);

        harp::Message reply;
        reply.op = harp::Op::ArpReply;
        reply.senderUla = ToHarpUla(UlaOf(x));
        reply.senderIp = ToHarpIpv4(Ipv4Address("192.0.2.20"));
        reply.targetUla = ToHarpUla(a->GetUla());
        reply.targetIp = ToHarpIpv4(a->GetAddress());
        const std::vector<uint8_t> good = reply.Serialize();

        auto send = [x, a](std::vector<uint8_t> bytes) {
            x->SendToWire(Create<Packet>(bytes.data(), uint32_t(bytes.size())),
                          a->GetUla(),
                          0x0806);
        };
        std::vector<std::vector<uint8_t>> bad;
        auto ethernet = good;
        ethernet[1] = 1; // hrd = 1
        bad.push_back(ethernet);
        auto ipv6 = good;
        ipv6[2] = 0x86;
        ipv6[3] = 0xDD;
        bad.push_back(ipv6);
        auto hln = good;
        hln[4] = 8;
        bad.push_back(hln);
        bad.push_back(std::vector<uint8_t>(good.begin(), good.begin() + 10));
        auto op = good;
        op[7] = 3;
        bad.push_back(op);
        bad.push_back(good); // unsolicited
        auto claimStatic = reply;
        claimStatic.senderIp = harp::Ipv4(w.Get());
        bad.push_back(claimStatic.Serialize());
        for (std::size_t i = 0; i < bad.size(); ++i)
        {
            Simulator::ScheduleWithContext(x->GetNode()->GetId(),
                                           Seconds(5) + MilliSeconds(i),
                                           [send, frame = bad[i]]() { send(frame); });
        }

        // ns-3 waits for .21 (nobody has it); an Ethernet ARP reply claims it meanwhile.
        Ptr<Socket> socket =
            Socket::CreateSocket(net->NodeOf("ep0"), UdpSocketFactory::GetTypeId());
        Simulator::Schedule(Seconds(6), [socket]() {
            socket->SendTo(Create<Packet>(100), 0, InetSocketAddress("192.0.2.21", 9));
        });
        auto poison = good;
        poison[1] = 1;
        poison[17] = 21; // spa = .21
        Simulator::ScheduleWithContext(x->GetNode()->GetId(), Seconds(7), [send, poison]() {
            send(poison);
        });
        bool waiting = false;
        bool alive = true;
        Simulator::Schedule(Seconds(8), [&]() {
            ArpCache::Entry* e = a->GetArpCache()->Lookup(Ipv4Address("192.0.2.21"));
            waiting = e != nullptr && e->IsWaitReply();
            alive = e != nullptr && e->IsAlive();
        });
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        const harp::Stats& stats = a->GetClient().GetStats();
        const std::vector<std::pair<harp::DropReason, uint32_t>> expected = {
            {harp::DropReason::BadHardwareType, 2},
            {harp::DropReason::BadProtocolType, 1},
            {harp::DropReason::BadAddressLength, 1},
            {harp::DropReason::Truncated, 1},
            {harp::DropReason::UnknownOperation, 1},
            {harp::DropReason::UnsolicitedReply, 1},
            {harp::DropReason::StaticConflict, 1},
        };
        for (const auto& [reason, n] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(stats.Drops(reason),
                                  n,
                                  "counted: " << harp::DropReasonName(reason));
            NS_TEST_EXPECT_MSG_EQ(recA.drops[reason],
                                  n,
                                  "traced: " << harp::DropReasonName(reason));
        }
        NS_TEST_EXPECT_MSG_EQ(stats.Dropped(), 8, "nothing else dropped");
        NS_TEST_EXPECT_MSG_EQ(stats.rxFrames,
                              stats.rxHandled + stats.rxIgnored + stats.Dropped(),
                              "every frame in one bucket");
        NS_TEST_EXPECT_MSG_EQ(a->Lookup(w).value_or(Mac48Address()), wUla, "static kept");
        NS_TEST_EXPECT_MSG_EQ(a->Lookup(Ipv4Address("192.0.2.20")).has_value(),
                              false,
                              "unsolicited reply not learnt");
        NS_TEST_EXPECT_MSG_EQ((a->GetArpCache()->Lookup(Ipv4Address("192.0.2.20")) == nullptr),
                              true,
                              "nor in ns-3's ARP cache");
        NS_TEST_EXPECT_MSG_EQ(waiting, true, "ns-3 still waited for HARP after the poison");
        NS_TEST_EXPECT_MSG_EQ(alive, false, "the Ethernet ARP reply filled nothing");
        const auto failed = recA.Find(harp::EventType::Unresolvable);
        NS_TEST_ASSERT_MSG_EQ(failed.size(), 1, ".21 failed");
        NS_TEST_EXPECT_MSG_EQ((failed[0].event.reason == harp::FailReason::Timeout),
                              true,
                              "timeout");
        // Each injected frame is seen leaving X and reaching A.
        NS_TEST_EXPECT_MSG_EQ(net->nonHarpArpOnWire, 4, "only the injected Ethernet ARP frames");
        NS_TEST_EXPECT_MSG_EQ(net->Harp("ep1")->GetClient().GetStats().Dropped(),
                              0,
                              "frames to A never reached B");
    }
};

/**
 * \ingroup harp
 * The ns-3 adaptation of HARP.
 */
class HarpAdapterTestSuite : public TestSuite
{
  public:
    HarpAdapterTestSuite()
        : TestSuite("harp-adapter", SYSTEM)
    {
        AddTestCase(new HarpAdapterBroadcastTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterRegistrationTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterServerRestartTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterForgetTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterRevalidationTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterRedundantServersTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterTwoLisServerTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterStaticTestCase, TestCase::QUICK);
        AddTestCase(new HarpAdapterBadInputTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static HarpAdapterTestSuite g_harpAdapterTestSuite;
