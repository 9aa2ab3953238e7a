/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Differential test of the two link modes: the same traffic on the same fabric, once
 * micropacket by micropacket (the reference) and once in runs. In both, every Message must be
 * delivered, intact and in order, with credits conserved. Delivery times are compared
 * Message by Message and the largest difference is printed. With one flow on one link
 * nothing arrives at a port in the middle of its run and the times must be equal; with one
 * flow per link direction, within 1 us. With runs of at most one micropacket the run mode's
 * code must make every choice of the reference, and the times must be equal under contention
 * too, and every port must receive the same micropackets (every field) at the same times. Under
 * contention longer runs are an approximation (a port does not interleave a VC
 * that becomes ready during its run, and credits freed during a run wait for its end): single
 * Messages move by up to a Message time, and the test bounds the mean latency against the
 * reference. bench/link-mode-fidelity.py measures the bias over many seeds.
 */
#include "gsn-fabric-harness.h"

#include "ns3/boolean.h"
#include "ns3/gsn-admin.h"
#include "ns3/gsn-port-device.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::gsntest;

namespace
{

/// Who sends to whom.
enum class Pattern
{
    UNIFORM,  ///< random pairs, random VCs
    ONE_VC,   ///< random pairs, all on VC 1
    NEIGHBOR, ///< endpoint i to endpoint i + 1 only, one VC per source
    /// 1000-byte Messages on VC 0 from endpoint 1 to the last, across the burst (VC 1, from
    /// endpoint 0 to the last)
    SHORT_ACROSS_BURST,
    /// no Messages at random: the burst (VC 1, from endpoint 0 to the last) and at the same
    /// instant as many on VC 2 from endpoint 1 to the last, sharing the last switch output,
    /// and on VC 3 from endpoint 2 to endpoint 0 and from the last to endpoint 1 (which
    /// carry the credits of the first two back)
    MERGING_BURSTS,
};

/// One randomized scenario.
struct Scenario
{
    std::string name;                   ///< label
    GsnTopology topology;               ///< the fabric
    Pattern pattern;                    ///< who sends to whom
    uint32_t seed;                      ///< traffic seed
    uint32_t messages;                  ///< Messages sent at random times
    double errorRate;                   ///< micropacket error rate at every receiver (0: none)
    uint32_t burstMessages;             ///< plus a 1 MiB-class block: this many 65000-byte Messages
    Time stop;                          ///< end of the simulation
    uint32_t maxRunLength{0};           ///< MaxRunLength of every port in the run mode (0: default)
    Time maxRunGap{NanoSeconds(160)};   ///< MaxRunGap of every port in the run mode
    bool exactCredits{false};           ///< ExactCredits of every port
    uint32_t maxVc3Bytes{65000};        ///< largest Message on VC 3 (the others: 65000 bytes)
    uint32_t mixSeed{0}; ///< nonzero: each port draws its own link settings from this seed
    /// with mixSeed: nonzero puts every port in the run mode with this MaxRunLength
    uint32_t mixedRunLength{0};
    uint32_t resets{0};  ///< link resets of random ports at random times while traffic runs
    /// Every port's MicropacketTx and MicropacketRx traced: the run mode then stores and
    /// takes each micropacket one by one, without its shortcuts (counted followers, quick
    /// takes of spans)
    bool watched{false};
    /// Record every good micropacket each port receives (and credits put on one already
    /// taken), to compare the links micropacket by micropacket (watched, as above)
    bool records{false};
    /// Require every port to receive the same micropackets in both modes (compared on
    /// recorded runs: always where records is set)
    bool linksExact{false};
    uint32_t broadcasts{0};    ///< broadcast Messages from random endpoints at random times
    uint32_t adminRequests{0}; ///< Admin requests (Ping, Read_register) from random endpoints
    std::string scheduler{};   ///< ns-3 scheduler's TypeId name (empty: the default)
    /// The run mode must take at least this many times fewer events than the reference (0:
    /// not checked): where a shortcut of the run mode is what the scenario is about
    double minEventRatio{0};
};

/// One good micropacket as a port received it: when its last bit arrived and every field the
/// link layer reads. Credits a run mode peer put on a micropacket already taken
/// (LateCreditsRx) are a record of their own, with type LATE_CREDITS.
struct LinkRecord
{
    static constexpr int LATE_CREDITS = 0x100; ///< type of a record of late credits
    int64_t arrivalNs;                         ///< arrival (late credits: when put)
    int type;                                  ///< TYPE code, or LATE_CREDITS
    uint8_t vc;                                ///< VC
    bool tail;                                 ///< T
    uint8_t tseq;                              ///< TSEQ
    uint8_t rseq;                              ///< RSEQ
    uint8_t vcr;                               ///< VC of the credits
    uint8_t cr;                                ///< credits
    /// The run it came in, while its RSEQ may still be amended (FinalFields()), and its index
    Ptr<GsnMicropacketRun> run{};
    uint32_t k{0}; ///< its index in run

    /// \param o another record \return true if every field is equal
    bool operator==(const LinkRecord& o) const
    {
        return std::tie(arrivalNs, type, vc, tail, tseq, rseq, vcr, cr) ==
               std::tie(o.arrivalNs, o.type, o.vc, o.tail, o.tseq, o.rseq, o.vcr, o.cr);
    }

    /// \return the record as text
    std::string ToString() const
    {
        std::ostringstream os;
        os << "t=" << arrivalNs << "ns type " << type << " vc " << unsigned(vc) << " tail " << tail
           << " tseq " << unsigned(tseq) << " rseq " << unsigned(rseq) << " credits "
           << unsigned(cr) << " for vc " << unsigned(vcr);
        return os.str();
    }
};

/// The records of one port.
struct LinkRecorder
{
    GsnPortDevice* port{nullptr};    ///< the port (its arrival time of what it takes)
    std::vector<LinkRecord> records; ///< in the order taken
};

/// \return the run of what \p r's port is receiving (kept until FinalFields()), or null,
/// and in \p k its index there
Ptr<GsnMicropacketRun>
RunTaken(const LinkRecorder& r, uint32_t& k)
{
    return Ptr<GsnMicropacketRun>(const_cast<GsnMicropacketRun*>(r.port->GetRxRun(k)));
}

/// MicropacketRx sink: record \p mp. \param r the port's recorder \param mp the micropacket
void
RecordRx(LinkRecorder* r, const GsnMicropacket& mp)
{
    uint32_t k = 0;
    const Ptr<GsnMicropacketRun> run = RunTaken(*r, k);
    r->records.push_back({r->port->GetRxArrivalTime().GetNanoSeconds(),
                          mp.type,
                          mp.vc,
                          mp.tail,
                          mp.tseq,
                          mp.rseq,
                          mp.vcr,
                          mp.cr,
                          run,
                          k});
}

/// Give each record of \p r the fields its micropacket carried when it arrived, once the runs
/// are over: a run's micropacket taken ahead shows the RSEQ and credits put on it until
/// then, and the sender may amend both until it leaves (the receiver applies them at its
/// arrival). Credits put on it later (a LATE_CREDITS record) go into its record.
void
FinalFields(LinkRecorder& r)
{
    std::map<std::pair<const GsnMicropacketRun*, uint32_t>, std::size_t> where;
    std::vector<LinkRecord> kept;
    kept.reserve(r.records.size());
    for (LinkRecord& e : r.records)
    {
        if (e.type == LinkRecord::LATE_CREDITS && e.run)
        {
            auto it = where.find({PeekPointer(e.run), e.k});
            // (Onto one without credits, or one carrying credits of the same VC.)
            LinkRecord* onto = it != where.end() ? &kept[it->second] : nullptr;
            if (onto && (onto->cr == 0 || onto->vcr == e.vcr))
            {
                onto->vcr = e.vcr;
                onto->cr = uint8_t(onto->cr + e.cr);
                continue;
            }
        }
        else if (e.run)
        {
            e.rseq = e.run->RseqOf(e.k, e.rseq);
            where[{PeekPointer(e.run), e.k}] = kept.size();
        }
        kept.push_back(e);
    }
    for (LinkRecord& e : kept)
    {
        e.run = nullptr;
    }
    r.records = std::move(kept);
}

/// LateCreditsRx sink: record credits put on a micropacket taken already.
/// \param r the port's recorder \param vc their VC \param n how many
void
RecordLateCredits(LinkRecorder* r, uint8_t vc, uint8_t n)
{
    uint32_t k = 0;
    const Ptr<GsnMicropacketRun> run = RunTaken(*r, k);
    r->records.push_back({Simulator::Now().GetNanoSeconds(),
                          LinkRecord::LATE_CREDITS,
                          0,
                          false,
                          0,
                          0,
                          vc,
                          n,
                          run,
                          k});
}

/// A trace sink that looks at nothing.
void
IgnoreMicropacket(const GsnMicropacket&)
{
}

/// Give every port of \p ports its own link mode and run settings, drawn from \p seed: in
/// \p mode "Micropacket" every port in the micropacket mode (the reference for the same
/// draw), and with \p runLength nonzero every port in the run mode with runs that long.
void
MixPortSettings(NetDeviceContainer ports,
                uint32_t seed,
                const std::string& mode,
                uint32_t runLength)
{
    std::mt19937 rng(seed);
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        Ptr<NetDevice> d = ports.Get(i);
        const bool micropacket = (rng() % 4 == 0 && runLength == 0) || mode == "Micropacket";
        d->SetAttribute("LinkMode", StringValue(micropacket ? "Micropacket" : "Run"));
        d->SetAttribute("ExactCredits", BooleanValue(rng() % 3 == 0));
        const uint32_t drawnLength = 1u << (rng() % 9); // 1 to 256
        d->SetAttribute("MaxRunLength", UintegerValue(runLength > 0 ? runLength : drawnLength));
        d->SetAttribute("MaxRunGap", TimeValue(NanoSeconds(rng() % 2 == 0 ? 0 : rng() % 400)));
        d->SetAttribute("DisturbedRunLength", UintegerValue(rng() % 33));
        if (rng() % 2 == 0)
        {
            // Link-layer sizes and timers of its own too.
            const uint32_t buffer = 16u << (rng() % 6); // 16 to 512 places per VC
            d->SetAttribute("RxBufferSize", UintegerValue(buffer));
            d->SetAttribute("CreditReturnThreshold",
                            UintegerValue(1 + rng() % std::min(buffer, 64u)));
            d->SetAttribute("RetransmitWindow", UintegerValue(1 + rng() % 255));
            d->SetAttribute("AckThreshold", UintegerValue(1 + rng() % 64));
            d->SetAttribute("AckDelay", TimeValue(NanoSeconds(100 + rng() % 3000)));
        }
    }
}

/// Message key: source, destination, VC, sequence number.
using Key = std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>;

/// What one run produced.
struct Outcome
{
    std::map<Key, Time> sentAt;      ///< acceptance times
    std::map<Key, Time> deliveredAt; ///< delivery times
    uint64_t sent{0};                ///< Messages accepted
    uint64_t delivered{0};           ///< Messages delivered
    uint32_t errors{0};              ///< damaged or out of order
    bool allDelivered{false};        ///< none missing
    bool atRest{false};              ///< credits conserved at the end
    uint64_t events{0};              ///< simulator events
    uint64_t lcrcErrors{0};          ///< micropackets the error models hit
    uint64_t linkResets{0};          ///< link resets (after go-back-N gave up, or asked for)
    uint64_t takenAhead{0};          ///< Credit-only and Null micropackets taken ahead
    uint64_t runWaits{0};            ///< VCs that waited for a run's end (runWaits counters)
    Time runWaitTime;                ///< how long they waited in all
    std::vector<std::vector<LinkRecord>> links; ///< per port (GetAllPorts()), if recorded
    uint64_t corrupted{0};                      ///< delivered damaged
    uint64_t countedLost{0};                    ///< Messages counted lost anywhere (some twice)
    bool allUp{true};                           ///< every link up at the end
    uint32_t endpoints{0};                      ///< endpoints of the fabric
    uint32_t switches{0};                       ///< switches of the fabric
    uint64_t broadcastsSent{0};                 ///< broadcast Messages accepted
    /// copies delivered of each broadcast Message accepted (one per endpoint expected)
    std::vector<uint32_t> broadcastCopies;
    uint64_t adminResponses{0}; ///< Admin responses that reached their endpoint

    /// \return mean latency over all delivered Messages, in ns
    double MeanLatencyNs() const
    {
        double sum = 0;
        for (const auto& [key, t] : deliveredAt)
        {
            sum += double((t - sentAt.at(key)).GetNanoSeconds());
        }
        return deliveredAt.empty() ? 0 : sum / double(deliveredAt.size());
    }
};

/// AdminResponse sink: count it. \param n the count
void
CountAdminResponse(uint64_t* n, const GsnAdminPayload&)
{
    ++*n;
}

/// Run \p s with every port in \p mode.
Outcome
RunScenario(const Scenario& s, const std::string& mode)
{
    // Through the global value, as ns-3 programs choose it (--SchedulerType): the ports read
    // it to leave Simulator::Remove alone with ns-3.37's HeapScheduler.
    SchedulerGuard guard;
    if (!s.scheduler.empty())
    {
        Simulator::Destroy(); // (a simulator made before would keep its scheduler)
        GlobalValue::Bind("SchedulerType", StringValue(s.scheduler));
    }
    GsnFabricHelper helper;
    helper.SetLinkMode(mode);
    Outcome o;
    {
        FabricHarness h(helper, s.topology);
        NetDeviceContainer all = h.fabric.GetAllPorts();
        for (uint32_t i = 0; s.maxRunLength > 0 && i < all.GetN(); ++i)
        {
            all.Get(i)->SetAttribute("MaxRunLength", UintegerValue(s.maxRunLength));
        }
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            // (Always set: the test does not depend on the attributes' defaults.)
            all.Get(i)->SetAttribute("MaxRunGap", TimeValue(s.maxRunGap));
        }
        for (uint32_t i = 0; s.exactCredits && i < all.GetN(); ++i)
        {
            all.Get(i)->SetAttribute("ExactCredits", BooleanValue(true));
        }
        if (s.mixSeed != 0)
        {
            MixPortSettings(all, s.mixSeed, mode, s.mixedRunLength);
        }
        for (uint32_t i = 0; (s.watched || s.records) && i < all.GetN(); ++i)
        {
            for (const char* trace : {"MicropacketTx", "MicropacketRx"})
            {
                all.Get(i)->TraceConnectWithoutContext(trace, MakeCallback(&IgnoreMicropacket));
            }
        }
        std::vector<LinkRecorder> recorders(s.records ? all.GetN() : 0);
        for (uint32_t i = 0; i < recorders.size(); ++i)
        {
            recorders[i].port = PeekPointer(DynamicCast<GsnPortDevice>(all.Get(i)));
            all.Get(i)->TraceConnectWithoutContext("MicropacketRx",
                                                   MakeBoundCallback(&RecordRx, &recorders[i]));
            all.Get(i)->TraceConnectWithoutContext(
                "LateCreditsRx",
                MakeBoundCallback(&RecordLateCredits, &recorders[i]));
        }
        if (s.errorRate > 0)
        {
            // One model per port, so that each draws its own sequence in both modes.
            GsnHelper::SetMicropacketErrorRate(all, s.errorRate, 7000);
        }
        std::mt19937 rng(s.seed);
        const uint32_t n = h.fabric.endpointDevices.GetN();
        std::mt19937 resetRng(s.seed + 1000);
        for (uint32_t k = 0; k < s.resets; ++k)
        {
            Ptr<GsnPortDevice> port =
                DynamicCast<GsnPortDevice>(all.Get(uint32_t(resetRng() % all.GetN())));
            const Time at = NanoSeconds(5000 + int64_t(resetRng() % 400000));
            Simulator::Schedule(at, [port]() { port->ResetLink(); });
        }
        for (uint32_t k = 0; k < s.messages; ++k)
        {
            uint32_t from = rng() % n;
            uint32_t to = (from + 1 + rng() % (n - 1)) % n;
            uint8_t vc = uint8_t(rng() % 4);
            if (s.pattern == Pattern::ONE_VC)
            {
                vc = 1;
            }
            if (s.pattern == Pattern::NEIGHBOR)
            {
                to = (from + 1) % n;
                vc = uint8_t(1 + from % 3);
            }
            // Sizes spread evenly over the decades, one micropacket to 65000 bytes (VC 3: to
            // maxVc3Bytes).
            const double u = std::uniform_real_distribution<double>(0, 1)(rng);
            const double largest = vc == 3 ? double(s.maxVc3Bytes) : 65000.0;
            uint32_t size = uint32_t(12 * std::pow(largest / 12, u));
            if (s.pattern == Pattern::SHORT_ACROSS_BURST)
            {
                from = 1;
                to = n - 1;
                vc = 0;
                size = 1000;
            }
            if (vc == 0)
            {
                size = std::min(size, 4000u); // VC 0 carries Messages up to 4 KiB
            }
            const Time at = NanoSeconds(5000 + int64_t(rng() % 400000));
            Simulator::Schedule(at, [&h, from, to, vc, size]() { h.Send(from, to, vc, size); });
        }
        // Broadcasts and Admin requests from their own generator, so that the Messages
        // above are the same with or without them.
        std::mt19937 extraRng(s.seed + 2000);
        for (uint32_t k = 0; k < s.broadcasts; ++k)
        {
            const uint32_t from = extraRng() % n;
            const uint8_t vc = uint8_t(extraRng() % 4);
            // (Small enough for the smallest switch input buffer drawn, 16 places: a switch
            // holds a broadcast Message whole before it copies it, and drops a longer one.)
            const uint32_t size = 12 + extraRng() % 400;
            const Time at = NanoSeconds(5000 + int64_t(extraRng() % 400000));
            Simulator::Schedule(at, [&h, &o, from, vc, size]() {
                if (h.SendTo(from, Mac48Address::GetBroadcast(), UINT32_MAX, vc, size))
                {
                    ++o.broadcastsSent;
                }
            });
        }
        for (uint32_t i = 0; s.adminRequests > 0 && i < n; ++i)
        {
            h.fabric.GetEndpointDevice(i)->TraceConnectWithoutContext(
                "AdminResponse",
                MakeBoundCallback(&CountAdminResponse, &o.adminResponses));
        }
        for (uint32_t k = 0; k < s.adminRequests; ++k)
        {
            Ptr<GsnNetDevice> from = h.fabric.GetEndpointDevice(extraRng() % n);
            GsnAdminPayload q;
            q.command = uint8_t(extraRng() % 2 == 0 ? GsnAdminCommand::PING
                                                    : GsnAdminCommand::READ_REGISTER);
            q.port = 1;
            q.transaction = k;
            // Up to two elements beyond the first, by ports drawn at random (a port with
            // nothing behind it, or beyond the element's, gets a No_route response).
            q.hopCount = uint8_t(extraRng() % 3);
            for (uint8_t i = 0; i < q.hopCount; ++i)
            {
                q.path[i] = uint8_t(extraRng() % 8);
            }
            const Time at = NanoSeconds(5000 + int64_t(extraRng() % 400000));
            Simulator::Schedule(at, [from, q]() { from->SendAdminRequest(q); });
        }
        if (s.burstMessages > 0)
        {
            // Back-to-back large Messages from endpoint 0 to the last one.
            Simulator::Schedule(MicroSeconds(5), [&h, &s, n]() {
                for (uint32_t k = 0; k < s.burstMessages; ++k)
                {
                    h.Send(0, n - 1, 1, 65000);
                    if (s.pattern == Pattern::MERGING_BURSTS)
                    {
                        h.Send(1, n - 1, 2, 65000);
                        h.Send(2, 0, 3, 65000);
                        h.Send(n - 1, 1, 3, 65000);
                    }
                }
            });
        }
        Simulator::Stop(s.stop);
        Simulator::Run();
        o.sentAt = h.sentAt;
        o.deliveredAt = h.deliveredAt;
        o.sent = h.sent;
        o.delivered = h.delivered;
        for (const Ptr<GsnSwitch>& sw : h.fabric.switchObjects)
        {
            o.countedLost += sw->GetDrops(GsnSwitchDropReason::CUT_BY_RESET);
        }
        o.endpoints = n;
        o.switches = h.fabric.switchObjects.size();
        for (const auto& [key, copies] : h.broadcastCopies)
        {
            o.broadcastCopies.push_back(copies);
        }
        o.errors = h.errors;
        o.corrupted = h.corrupted;
        o.allDelivered = h.AllDelivered();
        o.atRest = h.AtRest();
        o.events = Simulator::GetEventCount();
        GsnLinkCounters links;
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(all.Get(i));
            links += port->GetLinkCounters();
            o.allUp = o.allUp && (!port->GetChannel() || port->IsLinkUp());
            if (Ptr<GsnNetDevice> endpoint = DynamicCast<GsnNetDevice>(port))
            {
                const GsnMessageCounters& m = endpoint->GetMessageCounters();
                o.countedLost += m.txLostInReset;
                for (uint64_t d : m.rxDrops)
                {
                    o.countedLost += d;
                }
            }
        }
        for (LinkRecorder& r : recorders)
        {
            FinalFields(r);
            o.links.push_back(std::move(r.records));
        }
        o.lcrcErrors = links.lcrcErrors;
        o.linkResets = links.linkResets;
        o.takenAhead = links.rxTakenAhead;
        o.runWaits = links.runWaits;
        o.runWaitTime = links.runWaitTime;
        o.countedLost += links.messagesLostInReset;
    } // the harness destroys the simulator
    return o;
}

} // namespace

/// How the micropackets that every port received compare between two runs.
struct LinkComparison
{
    uint64_t compared{0};       ///< micropackets received in the first run
    uint64_t received{0};       ///< micropackets received in the second run
    uint32_t differingPorts{0}; ///< ports whose records differ
    std::string first;          ///< the first difference of each such port, as text
};

/// Compare \p a's records with \p b's, port by port. \return the comparison
LinkComparison
CompareLinks(const Outcome& a, const Outcome& b)
{
    LinkComparison c;
    std::ostringstream text;
    for (std::size_t i = 0; i < a.links.size() && i < b.links.size(); ++i)
    {
        const auto& x = a.links[i];
        const auto& y = b.links[i];
        // (Counted: micropackets, not records of credits put on one taken already.)
        auto micropackets = [](const std::vector<LinkRecord>& r) {
            return std::count_if(r.begin(), r.end(), [](const LinkRecord& e) {
                return e.type != LinkRecord::LATE_CREDITS;
            });
        };
        c.compared += micropackets(x);
        c.received += micropackets(y);
        std::size_t k = 0;
        while (k < x.size() && k < y.size() && x[k] == y[k])
        {
            ++k;
        }
        if (k < x.size() || k < y.size())
        {
            ++c.differingPorts;
            text << "  port " << i << ": micropacket " << k << " of " << x.size() << " / "
                 << y.size() << " differs: reference " << (k < x.size() ? x[k].ToString() : "none")
                 << "; run " << (k < y.size() ? y[k].ToString() : "none") << "\n";
        }
    }
    c.first = text.str();
    return c;
}

/// Both link modes deliver every Message of a scenario; times agree as far as they must.
class GsnLinkModeTestCase : public TestCase
{
  public:
    /**
     * \param s the scenario
     * \param maxDifference largest difference of one Message's delivery time accepted
     * \param meanTolerance largest difference of the mean latency accepted, as a fraction
     * of the reference's
     */
    GsnLinkModeTestCase(Scenario s, Time maxDifference, double meanTolerance)
        : TestCase("Run mode vs micropacket mode: " + s.name),
          m_s(std::move(s)),
          m_maxDifference(maxDifference),
          m_meanTolerance(meanTolerance)
    {
    }

  private:
    void DoRun() override
    {
        const Outcome ref = RunScenario(m_s, "Micropacket");
        const Outcome run = RunScenario(m_s, "Run");
        for (const Outcome* o : {&ref, &run})
        {
            const std::string mode = o == &ref ? "micropacket mode: " : "run mode: ";
            const uint32_t bursts = m_s.pattern == Pattern::MERGING_BURSTS ? 4 : 1;
            NS_TEST_ASSERT_MSG_EQ(o->sent,
                                  m_s.messages + bursts * m_s.burstMessages,
                                  mode + "all accepted");
            NS_TEST_ASSERT_MSG_EQ(o->allDelivered, true, mode + "every Message delivered");
            NS_TEST_ASSERT_MSG_EQ(o->delivered, o->sent, mode + "exactly once");
            NS_TEST_ASSERT_MSG_EQ(o->errors, 0u, mode + "intact and in order");
            NS_TEST_ASSERT_MSG_EQ(o->atRest, true, mode + "credits conserved");
            NS_TEST_ASSERT_MSG_EQ(o->linkResets, 0u, mode + "no link reset");
            if (m_s.errorRate > 0)
            {
                NS_TEST_ASSERT_MSG_GT(o->lcrcErrors, 0u, mode + "errors were injected");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(ref.takenAhead, 0u, "the reference takes each at its arrival");
        NS_TEST_ASSERT_MSG_EQ(ref.runWaits, 0u, "the reference has no runs to wait for");
        if (m_s.maxRunLength == 1)
        {
            NS_TEST_ASSERT_MSG_EQ(run.runWaits, 0u, "runs of one micropacket: none waits");
        }
        if (m_s.pattern == Pattern::SHORT_ACROSS_BURST)
        {
            // The short Messages' VC 0 gets a Message during runs of the burst's VC 1.
            NS_TEST_ASSERT_MSG_GT(run.runWaits, 0u, "run mode: short Messages waited");
            NS_TEST_ASSERT_MSG_GT(run.runWaitTime, Time(0), "run mode: for some time");
        }
        if (!m_s.exactCredits && m_s.errorRate == 0 && m_s.maxRunLength != 1 && m_s.mixSeed == 0 &&
            m_s.messages > 0)
        {
            // Credits and acknowledgements going back to a port busy sending its run.
            NS_TEST_ASSERT_MSG_GT(run.takenAhead, 0u, "run mode: some taken when sent");
        }
        NS_TEST_ASSERT_MSG_EQ(run.deliveredAt.size(), ref.deliveredAt.size(), "same Messages");
        NS_TEST_ASSERT_MSG_EQ((run.sentAt == ref.sentAt), true, "same traffic");
        Time largest(0);
        uint64_t differing = 0;
        for (const auto& [key, t] : ref.deliveredAt)
        {
            auto it = run.deliveredAt.find(key);
            NS_TEST_ASSERT_MSG_EQ((it != run.deliveredAt.end()), true, "delivered in both");
            const Time d = Abs(it->second - t);
            largest = std::max(largest, d);
            differing += d.IsZero() ? 0 : 1;
            if (std::getenv("GSN_LINK_MODE_DEBUG"))
            {
                std::cout << std::get<0>(key) << "->" << std::get<1>(key) << " vc "
                          << unsigned(std::get<2>(key)) << " #" << std::get<3>(key) << " sent "
                          << ref.sentAt.at(key).GetNanoSeconds() << " ref " << t.GetNanoSeconds()
                          << " run " << it->second.GetNanoSeconds() << std::endl;
            }
        }
        const double refMean = ref.MeanLatencyNs();
        const double runMean = run.MeanLatencyNs();
        std::cout << "link modes, " << m_s.name << ": " << ref.deliveredAt.size()
                  << " Messages; largest delivery-time difference " << largest.GetNanoSeconds()
                  << " ns, " << differing << " differ; mean latency " << refMean << " -> "
                  << runMean << " ns; events " << ref.events << " -> " << run.events << " ("
                  << double(ref.events) / double(run.events) << "x fewer); run waits "
                  << run.runWaits << " (" << run.runWaitTime.GetNanoSeconds() << " ns)"
                  << std::endl;
        // Micropacket by micropacket: what every port received, every field and arrival
        // time. Scenarios that do not record in the runs above are run again recorded
        // (watched, as the shortcut cases check, with the same delivery times), and their
        // differences only reported: the run mode is exact there only where it is said to be.
        Scenario recorded = m_s;
        recorded.records = true;
        const bool again = !m_s.records;
        const Outcome refRecorded = again ? RunScenario(recorded, "Micropacket") : Outcome();
        const Outcome runRecorded = again ? RunScenario(recorded, "Run") : Outcome();
        if (again)
        {
            NS_TEST_ASSERT_MSG_EQ((refRecorded.deliveredAt == ref.deliveredAt),
                                  true,
                                  "reference recorded: the same delivery times");
            NS_TEST_ASSERT_MSG_EQ((runRecorded.deliveredAt == run.deliveredAt),
                                  true,
                                  "run mode watched: the same delivery times");
        }
        const Outcome& a = again ? refRecorded : ref;
        const Outcome& b = again ? runRecorded : run;
        NS_TEST_ASSERT_MSG_EQ(b.links.size(), a.links.size(), "same ports");
        const LinkComparison links = CompareLinks(a, b);
        std::cout << "link modes, " << m_s.name << ": " << links.compared
                  << " micropackets received in the reference, " << links.received
                  << " in the run mode; " << links.differingPorts << " of " << a.links.size()
                  << " ports differ" << std::endl;
        NS_TEST_ASSERT_MSG_GT(links.compared, 0u, "micropackets recorded");
        const bool linksHeldExact = m_s.records || m_s.linksExact;
        if (linksHeldExact || std::getenv("GSN_LINK_MODE_DEBUG"))
        {
            std::cout << links.first; // (the first difference of each port that differs)
        }
        if (linksHeldExact)
        {
            NS_TEST_ASSERT_MSG_EQ(links.differingPorts, 0u, "the same micropackets on every link");
            // A wait for a run's end is a slot taken otherwise than in the reference.
            NS_TEST_ASSERT_MSG_EQ(run.runWaits, 0u, "exact: no VC waited for a run's end");
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(double(ref.events) / double(run.events),
                                    m_s.minEventRatio,
                                    "run mode: as few events as its shortcuts make");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(largest, m_maxDifference, "delivery times agree");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(runMean - refMean),
                                    m_meanTolerance * refMean,
                                    "mean latency agrees");
    }

    Scenario m_s;           ///< the scenario
    Time m_maxDifference;   ///< accepted difference of one delivery time
    double m_meanTolerance; ///< accepted relative difference of the mean latency
};

/// The run mode's shortcuts (runs that count the micropackets following in a Message, runs
/// taken in spans at their arrival, switch inputs releasing spans at once) decide nothing: the
/// same scenario watched micropacket by micropacket, which turns the first two off, delivers
/// every Message at the same time, with more events: watched, a busy port takes no Credit-only
/// or Null micropacket ahead of its arrival.
class GsnRunShortcutsTestCase : public TestCase
{
  public:
    /// \param s the scenario (run mode)
    explicit GsnRunShortcutsTestCase(Scenario s)
        : TestCase("Run mode shortcuts against the run mode watched: " + s.name),
          m_s(std::move(s))
    {
    }

  private:
    void DoRun() override
    {
        Scenario watched = m_s;
        watched.watched = true;
        const Outcome plain = RunScenario(m_s, "Run");
        const Outcome slow = RunScenario(watched, "Run");
        NS_TEST_ASSERT_MSG_EQ(plain.allDelivered, true, "every Message delivered");
        NS_TEST_ASSERT_MSG_GT(plain.delivered, 0u, "Messages delivered");
        NS_TEST_ASSERT_MSG_EQ(plain.delivered, slow.delivered, "as many delivered");
        NS_TEST_ASSERT_MSG_EQ((plain.deliveredAt == slow.deliveredAt), true, "same times");
        NS_TEST_ASSERT_MSG_EQ(slow.takenAhead, 0u, "watched: each taken at its arrival");
        // A Credit-only or Null taken ahead by a busy port saves its arrival's event.
        NS_TEST_ASSERT_MSG_GT(plain.takenAhead, 0u, "some taken ahead");
        NS_TEST_ASSERT_MSG_LT(plain.events, slow.events, "fewer events");
    }

    Scenario m_s; ///< the scenario
};

/// Every port with settings of its own (link mode, credit timing, run limits, and for half
/// of them buffer size, credit and acknowledgement thresholds, window and AckDelay), drawn at
/// random, on a fabric of every topology builder with random traffic, with and without link
/// errors, under one of ns-3's schedulers or the module's, in a third of the draws with link
/// resets at random, and in others with broadcast Messages or Admin requests among the
/// Messages: the ends of a link need not agree, and every Message must still arrive once,
/// intact and in order (or, with resets, be delivered or counted lost), every broadcast once
/// at every endpoint, every Admin request be answered, with all credits back, all links up
/// and no reset but those asked for. Each draw is also run with every port in the
/// micropacket mode (its other settings as drawn: the reference for that draw) and with every
/// port in the run mode with runs one micropacket long, which must match the reference
/// micropacket by micropacket on every link.
class GsnMixedPortSettingsTestCase : public TestCase
{
  public:
    /// \param seed draws the fabric, the traffic and every port's settings
    explicit GsnMixedPortSettingsTestCase(uint32_t seed)
        : TestCase("Ports with settings of their own, drawn from seed " + std::to_string(seed)),
          m_seed(seed)
    {
    }

  private:
    void DoRun() override
    {
        using B = GsnTopologyBuilder;
        std::mt19937 rng(m_seed);
        const GsnTopology fabrics[] = {B::BackToBack(),
                                       B::Star(3 + rng() % 4),
                                       B::FatTree(4),
                                       B::KaryNTree(2, 3),
                                       B::Torus2D(3, 3),
                                       B::Mesh2D(3, 2, 2),
                                       B::Ring(4),
                                       B::TwoSwitchFigure132()};
        const double errorRates[] = {0.0, 1e-4, 1e-3};
        const char* schedulers[] = {"ns3::MapScheduler",
                                    "ns3::HeapScheduler",
                                    "ns3::ListScheduler",
                                    "ns3::CalendarScheduler",
                                    "ns3::PriorityQueueScheduler",
                                    "ns3::GsnTimingWheelScheduler",
                                    "ns3::GsnQuadHeapScheduler"};
        Scenario s{"mixed",
                   fabrics[rng() % 8],
                   Pattern::UNIFORM,
                   m_seed,
                   uint32_t(60 + rng() % 100),
                   errorRates[rng() % 3],
                   0,
                   Seconds(1)}; // (an idle fabric has no events: the run ends when all is done)
        s.maxVc3Bytes = rng() % 2 == 0 ? 65000 : 1u << 20;
        s.mixSeed = m_seed;
        s.resets = rng() % 3 == 0 ? 1 + rng() % 6 : 0;
        // (Not with resets: a reset may cut a broadcast on some of its branches only.)
        s.broadcasts = s.resets == 0 && rng() % 3 == 0 ? 1 + rng() % 8 : 0;
        s.adminRequests = rng() % 3 == 0 ? 1 + rng() % 20 : 0;
        s.scheduler = schedulers[rng() % 7];
        const Outcome o = RunScenario(s, "Run");
        NS_TEST_ASSERT_MSG_EQ(o.broadcastsSent, s.broadcasts, "every broadcast accepted");
        NS_TEST_ASSERT_MSG_EQ(o.sent, s.messages + o.broadcastsSent, "all accepted");
        NS_TEST_ASSERT_MSG_EQ(o.linkResets, s.resets, "no link reset but those asked for");
        NS_TEST_ASSERT_MSG_EQ(o.allUp, true, "every link up at the end");
        NS_TEST_ASSERT_MSG_EQ(o.atRest, true, "credits conserved");
        NS_TEST_ASSERT_MSG_EQ(o.corrupted, 0u, "intact");
        if (s.resets == 0)
        {
            NS_TEST_ASSERT_MSG_EQ(o.allDelivered, true, "every Message delivered");
            // A switch sends a broadcast back to its source too; between two endpoints only
            // the other gets it.
            const uint32_t copies = o.switches > 0 ? o.endpoints : 1;
            NS_TEST_ASSERT_MSG_EQ(o.delivered,
                                  s.messages + o.broadcastsSent * copies,
                                  "exactly once, each broadcast at every endpoint");
            NS_TEST_ASSERT_MSG_EQ(o.broadcastCopies.size(), o.broadcastsSent, "broadcasts");
            for (uint32_t c : o.broadcastCopies)
            {
                NS_TEST_ASSERT_MSG_EQ(c, copies, "a broadcast at every endpoint");
            }
            NS_TEST_ASSERT_MSG_EQ(o.errors, 0u, "in order");
            NS_TEST_ASSERT_MSG_EQ(o.adminResponses, s.adminRequests, "every request answered");
        }
        else
        {
            // A reset loses the Messages it cuts; each is counted by its sender, a switch or
            // its receiver (a Message cut while being sent may be counted more than once).
            NS_TEST_ASSERT_MSG_LT_OR_EQ(o.delivered, o.sent, "none twice");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(o.delivered + o.countedLost,
                                        o.sent,
                                        "none lost without a count");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(o.adminResponses, s.adminRequests, "none answered twice");
        }
        if (s.errorRate >= 1e-3)
        {
            NS_TEST_ASSERT_MSG_GT(o.lcrcErrors, 0u, "errors were injected");
        }
        CompareWithReference(s, o);
    }

    /// The reference for the same draw: every port in the micropacket mode with the settings
    /// drawn for it, against which every port in the run mode with runs of one micropacket
    /// must match micropacket by micropacket on every link. (It found the run mode's go-back-N
    /// timeout a slot longer than the reference's with runs of one: draws 2 and 8, where the
    /// initial Credit-only grants are resent after a timeout.)
    /// \param s the draw \param drawn its outcome
    void CompareWithReference(const Scenario& s, const Outcome& drawn)
    {
        Scenario recorded = s;
        recorded.records = true;
        const Outcome ref = RunScenario(recorded, "Micropacket");
        recorded.mixedRunLength = 1;
        const Outcome one = RunScenario(recorded, "Run");
        NS_TEST_ASSERT_MSG_EQ(ref.sent, drawn.sent, "reference: the same Messages accepted");
        NS_TEST_ASSERT_MSG_EQ(ref.runWaits, 0u, "reference: no runs to wait for");
        NS_TEST_ASSERT_MSG_EQ(one.runWaits, 0u, "runs of one: none waits");
        NS_TEST_ASSERT_MSG_EQ((one.deliveredAt == ref.deliveredAt),
                              true,
                              "runs of one: every Message when the reference delivers it");
        const LinkComparison links = CompareLinks(ref, one);
        std::cout << "mixed settings, seed " << m_seed << " (" << s.scheduler
                  << "): runs of one against the reference, " << ref.deliveredAt.size()
                  << " Messages: " << links.compared << " micropackets received, "
                  << links.differingPorts << " of " << ref.links.size()
                  << " ports differ; as drawn, " << drawn.runWaits << " run waits" << std::endl;
        std::cout << links.first;
        NS_TEST_ASSERT_MSG_GT(links.compared, 0u, "micropackets recorded");
        NS_TEST_ASSERT_MSG_EQ(links.differingPorts, 0u, "runs of one: the same micropackets");
    }

    uint32_t m_seed; ///< the draw
};

/// The gsn-link-mode test suite.
class GsnLinkModeTestSuite : public TestSuite
{
  public:
    GsnLinkModeTestSuite()
        : TestSuite("gsn-link-mode", SYSTEM)
    {
        using B = GsnTopologyBuilder;
        const Time stop = MilliSeconds(40);
        auto add = [this](Scenario s, Time maxDifference, double meanTolerance) {
            // (GSN_LINK_MODE_ONLY=TEXT: only the scenarios whose name holds TEXT, to debug one.)
            const char* only = std::getenv("GSN_LINK_MODE_ONLY");
            if (only && s.name.find(only) == std::string::npos)
            {
                return;
            }
            AddTestCase(new GsnLinkModeTestCase(std::move(s), maxDifference, meanTolerance), QUICK);
        };
        // One flow on one link: nothing arrives at a port in the middle of its run, and
        // the run mode is exact.
        add({"back-to-back, 1 MiB in 65000-byte Messages",
             B::BackToBack(),
             Pattern::UNIFORM,
             1,
             0,
             0,
             16,
             stop},
            Time(0),
            0);
        // One flow per link direction and VC, through switches: only the credits and
        // acknowledgements of the opposite flow arrive during runs (measured: at most
        // 168 ns for one Message, mean latency within 0.1%).
        for (uint32_t seed : {1u, 2u})
        {
            const std::string tag = ", seed " + std::to_string(seed);
            add({"neighbour flows on a star of 6" + tag,
                 B::Star(6),
                 Pattern::NEIGHBOR,
                 seed,
                 150,
                 0,
                 0,
                 stop},
                MicroSeconds(1),
                0.01);
            add({"neighbour flows on a 4x4 torus" + tag,
                 B::Torus2D(4, 4),
                 Pattern::NEIGHBOR,
                 seed,
                 300,
                 0,
                 0,
                 stop},
                MicroSeconds(1),
                0.01);
        }
        // Short Messages on VC 0 meet a burst of long ones on VC 1 at a switch output. One that
        // arrives there during a run waits for the run's end (runs are not preempted), at most
        // MaxRunLength slots (10.24 us); the runs after it are short (DisturbedRunLength), and
        // its Tail goes in its own slot. Measured: the short Messages take 3.3 us in the
        // reference and 1.0 us more on average in the run mode, at most 9.7 us. (With
        // DisturbedRunLength 0 they queue up behind one run each: 35 us more on average, up
        // to 66 us.)
        add({"short Messages on VC 0 across a burst on VC 1, star of 3",
             B::Star(3),
             Pattern::SHORT_ACROSS_BURST,
             3,
             40,
             0,
             16,
             stop},
            MicroSeconds(11),
            0.02);
        // Two bursts meet at a switch output on VCs 1 and 2, from Headers that arrive at one
        // instant: the output interleaves them, each source's switch input fills, and from
        // then on each source sends a micropacket per credit coming back, every second slot.
        // Bursts towards the sources carry those credits back in runs that the sources take
        // ahead: a source's run goes on from credit to credit (BridgeIdleSlots()). No VC gets
        // a Message during a run, and the run mode is exact: with ExactCredits link by link
        // (measured: 9.7 times fewer events than the reference; 4.1 with each source's run
        // ending where it runs out of credit), by default in its delivery times (95 times).
        for (bool exact : {false, true})
        {
            Scenario merging{std::string("two bursts merging on one output, star of 4") +
                                 (exact ? ", ExactCredits" : ""),
                             B::Star(4),
                             Pattern::MERGING_BURSTS,
                             1,
                             0,
                             0,
                             8,
                             stop};
            merging.exactCredits = exact;
            merging.linksExact = exact;
            merging.minEventRatio = exact ? 8 : 50;
            add(merging, Time(0), 0);
        }
        // Contention on all VCs, with and without link errors: the run mode is an
        // approximation here (measured: mean latency -0.3% to +5.8% against the reference,
        // single Messages up to 160 us apart); the bounds catch gross breakage, not the bias,
        // except for the mean with link errors, where acknowledgements are timed as in the
        // reference (ExactAcks; +16% and +10% on seeds 1 and 3 before).
        const Time anyTime = MilliSeconds(1);
        for (uint32_t seed : {1u, 2u, 3u})
        {
            const std::string tag = ", seed " + std::to_string(seed);
            add({"uniform on a star of 6" + tag,
                 B::Star(6),
                 Pattern::UNIFORM,
                 seed,
                 120,
                 0,
                 0,
                 stop},
                anyTime,
                0.5);
            add({"uniform on a 4-ary fat tree" + tag,
                 B::FatTree(4),
                 Pattern::UNIFORM,
                 seed,
                 300,
                 0,
                 16,
                 stop},
                anyTime,
                0.5);
            add({"uniform on a 2-ary 3-tree with link errors" + tag,
                 B::KaryNTree(2, 3),
                 Pattern::UNIFORM,
                 seed,
                 200,
                 1e-4,
                 0,
                 stop},
                anyTime,
                0.05);
        }
        add({"uniform on VC 1 only, star of 4", B::Star(4), Pattern::ONE_VC, 5, 60, 0, 0, stop},
            anyTime,
            0.5);
        // (Used again below with other settings.)
        const Scenario vc1FatTree{"uniform on VC 1 only, 4-ary fat tree",
                                  B::FatTree(4),
                                  Pattern::ONE_VC,
                                  4,
                                  300,
                                  0,
                                  0,
                                  stop};
        const Scenario vc1WithErrors{"uniform on VC 1 only, 2-ary 3-tree with link errors",
                                     B::KaryNTree(2, 3),
                                     Pattern::ONE_VC,
                                     2,
                                     200,
                                     1e-4,
                                     0,
                                     stop};
        add(vc1FatTree, anyTime, 0.5);
        // Link errors on one VC: acknowledgements are timed as in the reference where the
        // link may corrupt, hence its go-back-N timeout (measured: 2.8 us, mean -0.5%; 180 us
        // and +25% when acknowledgements rode on runs as chosen, with the timeout longer by
        // MaxRunLength slots).
        add(vc1WithErrors, MicroSeconds(5), 0.01);
        // Messages from one micropacket to 1 MiB (VC 3; the other VCs to 65000 bytes).
        // Measured: star 15.6 us, mean +0.9%; with link errors 8.0 us, mean +0.5% (99.6 us and
        // 8.2 us with runs back to back only, MaxRunGap 0).
        auto upTo1MiB = [](Scenario s) {
            s.name = "Messages up to 1 MiB, " + s.name;
            s.maxVc3Bytes = 1u << 20;
            return s;
        };
        add(upTo1MiB({"uniform on a star of 6", B::Star(6), Pattern::UNIFORM, 4, 120, 0, 0, stop}),
            anyTime,
            0.5);
        add(upTo1MiB({"uniform on a 2-ary 3-tree with link errors",
                      B::KaryNTree(2, 3),
                      Pattern::UNIFORM,
                      4,
                      120,
                      1e-4,
                      0,
                      stop}),
            anyTime,
            0.05);
        add({"uniform on a 4x4 torus", B::Torus2D(4, 4), Pattern::UNIFORM, 9, 300, 0, 0, stop},
            anyTime,
            0.5);
        // Runs of one micropacket: the run mode's code must then make every choice of the
        // reference, under full contention too. (Already runs of 4 move single Messages by
        // up to 100 us there, while the mean latency stays within 6%: one slot's difference
        // changes later arbitrations, see gsn.rst.)
        auto recorded = [](Scenario s) {
            s.records = true;
            return s;
        };
        add(recorded({"runs of at most 1, uniform on a 4-ary fat tree",
                      B::FatTree(4),
                      Pattern::UNIFORM,
                      2,
                      300,
                      0,
                      16,
                      stop,
                      1}),
            Time(0),
            0);
        // (With link errors acknowledgements are timed and a lone micropacket of the run mode
        // is a run of one. Seed 3 fails where an idle port that a micropacket's credits wake
        // chooses before that micropacket's own place is freed in one mode, after it in the
        // other.)
        for (uint32_t seed : {2u, 3u, 5u})
        {
            add(recorded({"runs of at most 1, uniform on a 2-ary 3-tree with link errors, seed " +
                              std::to_string(seed),
                          B::KaryNTree(2, 3),
                          Pattern::UNIFORM,
                          seed,
                          200,
                          1e-4,
                          0,
                          stop,
                          1}),
                Time(0),
                0);
        }
        // Runs that do not wait for a switch input's next micropacket (MaxRunGap 0: a run
        // ends at its first slot with nothing to send; the other scenarios wait up to 160
        // ns): everything
        // delivered, intact, credits back.
        for (uint32_t seed : {1u, 2u})
        {
            add({"runs without gaps, uniform on a 4-ary fat tree, seed " + std::to_string(seed),
                 B::FatTree(4),
                 Pattern::UNIFORM,
                 seed,
                 300,
                 0,
                 16,
                 stop,
                 0,
                 Time(0)},
                anyTime,
                0.5);
        }
        // The shortcuts against the same mode watched.
        for (uint32_t seed : {1u, 2u})
        {
            Scenario s{"uniform on a 4-ary fat tree, seed " + std::to_string(seed),
                       B::FatTree(4),
                       Pattern::UNIFORM,
                       seed,
                       300,
                       0,
                       16,
                       stop};
            AddTestCase(new GsnRunShortcutsTestCase(std::move(s)), QUICK);
        }
        // ExactCredits: a credit goes back from the slot that frees its place, and counts
        // from its arrival; an acknowledgement likewise (a run carries those owed after it
        // was chosen from the slot after their arrival), and credits freed during a run ride
        // on its later micropackets. The run mode then follows the reference closely, at 2
        // to 16 times the events (measured: one link, neighbour flows on a torus and all
        // Messages on one VC of a fat tree exact, against 0, 168 ns and 90 us without; all
        // VCs of a fat tree mean +0.2% and single Messages
        // up to 5.5 us apart, against 44 us).
        // Without idle time inside runs: a run that waits for an input's next micropacket
        // decides its later slots before what arrives meanwhile (15 ns in the one-VC fat
        // tree with MaxRunGap 160 ns).
        auto exact = [](Scenario s) {
            s.name = "exact credits, " + s.name;
            s.exactCredits = true;
            s.maxRunGap = Time(0);
            return s;
        };
        // (Micropacket by micropacket too, once a run's micropackets taken ahead are compared
        // with the RSEQ and credits they carry at their arrival.)
        Scenario exactBackToBack = exact({"back-to-back, 1 MiB in 65000-byte Messages",
                                          B::BackToBack(),
                                          Pattern::UNIFORM,
                                          1,
                                          0,
                                          0,
                                          16,
                                          stop});
        exactBackToBack.linksExact = true;
        add(exactBackToBack, Time(0), 0);
        // The one-VC cases below are exact micropacket by micropacket: every port receives
        // the same micropackets, credits included, at the same times. (Ports differed while
        // credits freed before a slot were not added to those of the same VC its micropacket
        // carried, GsnPortDevice::RiderFor; while a run chosen ahead counted credits arriving
        // as its slot began, ApplyDueCreditsNow(); with errors, while late credits on a
        // micropacket not accepted went unreported; while an endpoint's place freed at the
        // instant its idle port chose counted in that choice or after it by the order of the
        // two events, AmendCreditsOfSlotNow(); while timed RSEQs and run arrivals counted
        // places other ports' choices freed at the instant before its choice; and while a
        // run's end waited only for the last arrival the peer scheduled, gsn::ScheduledArrivals:
        // torus 5 of 96 ports, fat tree 2, seed 1 4, with errors 3 of 56.)
        auto linksExact = [](Scenario s) {
            s.linksExact = true;
            return s;
        };
        add(linksExact(exact({"neighbour flows on a 4x4 torus, seed 2",
                              B::Torus2D(4, 4),
                              Pattern::NEIGHBOR,
                              2,
                              300,
                              0,
                              0,
                              stop})),
            Time(0),
            0);
        // (104 ns while ties of time were decided by the order of events: places freed as a
        // port's next slot began, GsnPortDevice::ReleaseRxBuffer; an idle port's Null
        // chosen before places freed or credits due at the same instant, HeldChoiceTimeout;
        // 40 ns while an idle port's Credit-only was not held so.)
        add(linksExact(exact(vc1FatTree)), Time(0), 0);
        // Another seed (40 ns while a run's end came before an arrival at the same instant,
        // which micropacket by micropacket comes first, GsnPortDevice::TransmitComplete).
        Scenario vc1FatTreeSeed1 = vc1FatTree;
        vc1FatTreeSeed1.name += ", seed 1";
        vc1FatTreeSeed1.seed = 1;
        // (Two Messages of 300 arrived 40 ns apart while micropackets of a run acknowledged
        // before their slot left the retransmission buffer at once: credits freed before the
        // slot rode on a later one: they stay until sent, GsnPortDevice::ProcessRseq.)
        add(linksExact(exact(vc1FatTreeSeed1)), Time(0), 0);
        // (25 Messages up to 43 ns apart while credits freed before a slot whose micropacket
        // carried some of the same VC already went on a later micropacket, where the
        // reference adds them to it: GsnPortDevice::RiderFor.)
        Scenario vc1FatTreeSeed12 = exact(vc1FatTree);
        vc1FatTreeSeed12.name += ", seed 12";
        vc1FatTreeSeed12.seed = 12;
        add(linksExact(vc1FatTreeSeed12), Time(0), 0);
        // (Seed 11: 196 Messages up to 144 us apart while a run chose the slot after a Tail, a
        // Null or a Credit-only ahead of what arrived meanwhile. Seed 15: 8 of 96 ports while a
        // switch port's held Credit-only was made before another port's held choice freed
        // places at the same instant. Seeds 5 and 20: 5 of 96 ports each while an output VC
        // asked for by two inputs at one instant, one's Header arriving as the other's
        // previous Message left, went to whichever event ran first: GsnSwitch::Arbitrate.
        // Seeds 18 and 2: 15 and 44 of 96 ports while an idle output took the Header granted
        // first at once, before a request of the same instant that the round robin puts
        // first: GsnSwitchPort::KickAfterEvents.)
        for (uint32_t seed : {11u, 15u, 5u, 20u, 18u, 2u})
        {
            Scenario s = exact(vc1FatTree);
            s.name += ", seed " + std::to_string(seed);
            s.seed = seed;
            add(linksExact(s), Time(0), 0);
        }
        add(exact({"uniform on a 4-ary fat tree, seed 2",
                   B::FatTree(4),
                   Pattern::UNIFORM,
                   2,
                   300,
                   0,
                   16,
                   stop}),
            MicroSeconds(10),
            0.01);
        // Go-back-N as micropacket by micropacket: acknowledgements at their own slots, hence
        // the reference's timeout (measured: exact; 180 us and +25% without; 1.0 us before the
        // ties of time above were settled by rule, 80 ns before a single micropacket's RSEQ
        // could be amended like a run's, 37 ns before acknowledged micropackets of a run stayed
        // in the retransmission buffer until their slot, as above).
        add(linksExact(exact(vc1WithErrors)), Time(0), 0);
        add(exact(upTo1MiB(
                {"uniform on a star of 6", B::Star(6), Pattern::UNIFORM, 4, 120, 0, 0, stop})),
            anyTime,
            0.5);
        add(exact({"uniform on a 2-ary 3-tree with link errors, seed 2",
                   B::KaryNTree(2, 3),
                   Pattern::UNIFORM,
                   2,
                   200,
                   1e-4,
                   0,
                   stop}),
            anyTime,
            0.5);
        // (test.py --fullness=EXTENSIVE draws 200.)
        for (uint32_t seed = 1; seed <= 200; ++seed)
        {
            // (GSN_MIX_SEED=N: only draw N, to debug one.)
            if (std::getenv("GSN_MIX_SEED") && std::to_string(seed) != std::getenv("GSN_MIX_SEED"))
            {
                continue;
            }
            AddTestCase(new GsnMixedPortSettingsTestCase(seed), seed <= 16 ? QUICK : EXTENSIVE);
        }
    }
};

static GsnLinkModeTestSuite g_gsnLinkModeTestSuite; ///< the suite
