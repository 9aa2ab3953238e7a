/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit test of a port's receive-buffer releases: places freed in one step
 * (GsnPortDevice::ReleaseRxBufferSpan, which the switch and the endpoint use for what they
 * take at once) leave the link as freeing them one by one does; places freed in separate
 * events at the instant an idle port would send a Credit-only go in it.
 */
#include "ns3/gsn-channel.h"
#include "ns3/gsn-port-device.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <algorithm>
#include <array>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A port whose upper part sends a given number of Data micropackets per VC and keeps the
/// micropackets it receives until the test frees their places.
class ScriptedPort : public GsnPortDevice
{
  public:
    using GsnPortDevice::ReleaseRxBuffer;
    using GsnPortDevice::ReleaseRxBufferSpan;

    /// Send \p n more Data micropackets on \p vc (the last a Tail).
    void Queue(uint8_t vc, uint32_t n)
    {
        m_toSend[vc] += n;
        NotifyTxReady();
    }

    std::array<uint32_t, gsn::NUM_VCS> held{}; ///< micropackets received and not freed

    // Not a network layer's device: nothing to send from above.
    bool IsBroadcast() const override
    {
        return false;
    }

    Address GetBroadcast() const override
    {
        return Address();
    }

    bool IsMulticast() const override
    {
        return false;
    }

    Address GetMulticast(Ipv4Address) const override
    {
        return Address();
    }

    Address GetMulticast(Ipv6Address) const override
    {
        return Address();
    }

    bool NeedsArp() const override
    {
        return false;
    }

    bool Send(Ptr<Packet>, const Address&, uint16_t) override
    {
        return false;
    }

    bool SendFrom(Ptr<Packet>, const Address&, const Address&, uint16_t) override
    {
        return false;
    }

    bool SupportsSendFrom() const override
    {
        return false;
    }

    void SetReceiveCallback(ReceiveCallback) override
    {
    }

    void SetPromiscReceiveCallback(PromiscReceiveCallback) override
    {
    }

  protected:
    bool HasMessageMicropacket(uint8_t vc) const override
    {
        return m_toSend[vc] > 0;
    }

    void PullMessageMicropacket(uint8_t vc, GsnMicropacket& mp) override
    {
        --m_toSend[vc];
        mp.type = uint8_t(GsnMicropacketType::DATA);
        mp.vc = vc;
        mp.tail = m_toSend[vc] == 0;
    }

    void ReceiveMessageMicropacket(GsnMicropacket&& mp) override
    {
        ++held[mp.vc];
    }

  private:
    std::array<uint32_t, gsn::NUM_VCS> m_toSend{}; ///< Data micropackets still to send
};

/// What one trial does, drawn once and played on two links.
struct Script
{
    std::vector<std::pair<std::string, std::string>> attributes; ///< of both ports
    uint8_t vc{0};                                               ///< VC of B's data
    uint32_t fromB{0};           ///< Data micropackets B sends A, at 100 ns
    Time aSends;                 ///< when A sends its own
    uint32_t fromA{0};           ///< how many
    std::vector<Time> when;      ///< each release, after B's data arrived
    std::vector<uint32_t> n;     ///< places it frees
    std::vector<uint32_t> ahead; ///< slots after now its first place is freed
};

/// One link's outcome: A's micropackets as sent, and the state at the end.
struct Outcome
{
    std::vector<std::string> sent; ///< A's micropackets: time and fields
    uint64_t events{0};            ///< events the simulation ran
    uint32_t occupancy{0};         ///< A's buffer on the VC at the end
    int32_t credits{0};            ///< B's credits for it at the end
    uint32_t freed{0};             ///< places the releases freed
    /// B's credits for the VC at every slot while the releases go on (credits that ride on
    /// A's run under way are put on micropackets A's trace saw without them)
    std::vector<int32_t> peerCredits;
    /// What B received, one by one (its MicropacketRx trace), and the credits put on
    /// micropackets it had taken already (LateCreditsRx): time and fields
    std::vector<std::string> received;
};

/// Notes a micropacket A sends, with its time.
void
RecordSent(std::vector<std::string>* sent, const GsnMicropacket& mp)
{
    std::ostringstream os;
    os << Simulator::Now().GetNanoSeconds() << " " << mp;
    sent->push_back(os.str());
}

/// Notes credits B got on a micropacket it had taken already, with the time.
void
RecordLateCredits(std::vector<std::string>* received, uint8_t vc, uint8_t n)
{
    std::ostringstream os;
    os << Simulator::Now().GetNanoSeconds() << " late credits vc " << unsigned(vc) << " "
       << unsigned(n);
    received->push_back(os.str());
}

/// \param attributes set on both ports \return two scripted ports, each on a node of its
/// own, on the two ends of one cable
std::array<Ptr<ScriptedPort>, 2>
ConnectPair(const std::vector<std::pair<std::string, std::string>>& attributes)
{
    Ptr<GsnChannel> channel = CreateObject<GsnChannel>();
    std::array<Ptr<ScriptedPort>, 2> port;
    for (auto& p : port)
    {
        p = CreateObject<ScriptedPort>();
        for (const auto& [name, value] : attributes)
        {
            p->SetAttribute(name, StringValue(value));
        }
        p->SetAddress(Mac48Address::Allocate());
        CreateObject<Node>()->AddDevice(p);
        p->Attach(channel);
    }
    return port;
}

/// Plays \p script with the releases one by one or, if \p atOnce, in one step each.
Outcome
Play(const Script& script, bool atOnce)
{
    const std::array<Ptr<ScriptedPort>, 2> port = ConnectPair(script.attributes);
    ScriptedPort& a = *port[0];
    ScriptedPort& b = *port[1];
    Outcome out;
    a.TraceConnectWithoutContext("MicropacketTx", MakeBoundCallback(&RecordSent, &out.sent));
    b.TraceConnectWithoutContext("MicropacketRx", MakeBoundCallback(&RecordSent, &out.received));
    b.TraceConnectWithoutContext("LateCreditsRx",
                                 MakeBoundCallback(&RecordLateCredits, &out.received));
    const uint8_t vc = script.vc;
    Simulator::Schedule(NanoSeconds(100), [&b, &script]() { b.Queue(script.vc, script.fromB); });
    Simulator::Schedule(script.aSends, [&a, &script]() { a.Queue(0, script.fromA); });
    for (std::size_t i = 0; i < script.when.size(); ++i)
    {
        Simulator::Schedule(script.when[i], [&a, &script, &out, i, vc, atOnce]() {
            const uint32_t n = std::min(script.n[i], a.held[vc]);
            if (n == 0)
            {
                return;
            }
            a.held[vc] -= n;
            out.freed += n;
            const Time slot = gsn::MicropacketTime();
            const Time first = Simulator::Now() + slot * int64_t(script.ahead[i]);
            if (atOnce)
            {
                a.ReleaseRxBufferSpan(vc, n, first);
                return;
            }
            for (uint32_t k = 0; k < n; ++k)
            {
                a.ReleaseRxBuffer(vc, 1, first + slot * int64_t(k));
            }
        });
    }
    const Time slot = gsn::MicropacketTime();
    for (Time t = NanoSeconds(6000); t < NanoSeconds(20000); t += slot)
    {
        Simulator::Schedule(t, [&b, &out, vc]() { out.peerCredits.push_back(b.GetTxCredits(vc)); });
    }
    Simulator::Stop(MicroSeconds(60));
    Simulator::Run();
    out.events = Simulator::GetEventCount();
    out.occupancy = a.GetRxBufferOccupancy(vc);
    out.credits = b.GetTxCredits(vc);
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup gsn-tests
 * \brief Freeing receive-buffer places in one step leaves the link as one by one.
 *
 * Random trials (link mode, ExactCredits, Credit-only threshold,
 * buffer size, the transmitter idle or busy with its own data, releases of 1 to 40 places
 * for now or later slots): the port sends the same micropackets at the same times, the
 * simulation runs the same number of events and ends with the same buffer and credits, and
 * the peer receives the same micropackets and credits at the same times and has the same
 * credits at every slot.
 */
class GsnReleaseAtOnceTestCase : public TestCase
{
  public:
    GsnReleaseAtOnceTestCase()
        : TestCase("Receive-buffer places freed in one step leave the link as one by one")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(17);
        uint32_t idleCrossings = 0; // trials whose releases reach the threshold at once
        for (int trial = 0; trial < 160; ++trial)
        {
            Script s;
            const uint32_t threshold = 1 + rng() % 24;
            const uint32_t buffer = std::max<uint32_t>(threshold, 32 + rng() % 96);
            s.attributes = {{"LinkMode", rng() % 4 == 0 ? "Micropacket" : "Run"},
                            {"ExactCredits", rng() % 3 == 0 ? "true" : "false"},
                            {"CreditReturnThreshold", std::to_string(threshold)},
                            {"RxBufferSize", std::to_string(buffer)}};
            s.vc = uint8_t(rng() % gsn::NUM_VCS);
            s.fromB = std::min<uint32_t>(buffer, 8 + rng() % 120);
            s.aSends = NanoSeconds(6000 + rng() % 4000);
            s.fromA = rng() % 3 == 0 ? 0 : 1 + rng() % 100;
            const int releases = 1 + rng() % 8;
            for (int k = 0; k < releases; ++k)
            {
                s.when.push_back(NanoSeconds(6000 + rng() % 6000));
                s.n.push_back(1 + rng() % 40);
                s.ahead.push_back(rng() % 2 == 0 ? 0 : rng() % 4);
                idleCrossings += s.n.back() >= threshold ? 1 : 0;
            }
            const Outcome one = Play(s, false);
            const Outcome all = Play(s, true);
            std::ostringstream what;
            what << "trial " << trial << ":";
            for (const auto& [name, value] : s.attributes)
            {
                what << " " << name << "=" << value;
            }
            NS_TEST_ASSERT_MSG_GT(one.freed, 0u, what.str() << ": places freed");
            NS_TEST_ASSERT_MSG_EQ(all.freed, one.freed, what.str() << ": as many");
            NS_TEST_ASSERT_MSG_EQ(all.sent.size(), one.sent.size(), what.str() << ": as many");
            for (std::size_t i = 0; i < std::min(one.sent.size(), all.sent.size()); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(all.sent[i],
                                      one.sent[i],
                                      what.str() << ": micropacket " << i);
            }
            NS_TEST_ASSERT_MSG_EQ(all.events, one.events, what.str() << ": the same events");
            NS_TEST_ASSERT_MSG_EQ((all.received == one.received),
                                  true,
                                  what.str() << ": what the peer received, with its credits");
            NS_TEST_ASSERT_MSG_EQ((all.peerCredits == one.peerCredits),
                                  true,
                                  what.str() << ": the peer's credits at every slot");
            NS_TEST_ASSERT_MSG_EQ(all.occupancy, one.occupancy, what.str() << ": buffer");
            NS_TEST_ASSERT_MSG_EQ(all.credits, one.credits, what.str() << ": peer's credits");
        }
        NS_TEST_ASSERT_MSG_GT(idleCrossings, 100u, "releases reaching the threshold exercised");
    }
};

/// Notes the credits of each Credit-only \p a sends on \p vc, with the time.
void
RecordCreditOnly(std::vector<std::pair<int64_t, uint32_t>>* sent,
                 uint8_t vc,
                 const GsnMicropacket& mp)
{
    if (mp.GetType() == GsnMicropacketType::CREDIT_ONLY && mp.vcr == vc)
    {
        sent->emplace_back(Simulator::Now().GetNanoSeconds(), mp.cr);
    }
}

/**
 * \ingroup gsn-tests
 * \brief Places freed in separate events at the instant an idle port would send a
 * Credit-only all go in it (the port holds its choice for the instant's other events).
 */
class GsnHeldCreditOnlyTestCase : public TestCase
{
  public:
    GsnHeldCreditOnlyTestCase()
        : TestCase("Places freed at the instant an idle port sends a Credit-only go in it")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string mode : {"Micropacket", "Run"})
        {
            for (bool exact : {false, true})
            {
                const std::array<Ptr<ScriptedPort>, 2> port =
                    ConnectPair({{"LinkMode", mode},
                                 {"ExactCredits", exact ? "true" : "false"},
                                 {"CreditReturnThreshold", "4"}});
                ScriptedPort& a = *port[0];
                ScriptedPort& b = *port[1];
                const uint8_t vc = 2;
                std::vector<std::pair<int64_t, uint32_t>> creditOnly;
                a.TraceConnectWithoutContext("MicropacketTx",
                                             MakeBoundCallback(&RecordCreditOnly, &creditOnly, vc));
                Simulator::Schedule(NanoSeconds(100), [&b]() { b.Queue(vc, 10); });
                // A holds the ten; at 8 us two events (as two switch outputs would) free four
                // places, which make a Credit-only due, and two more.
                const Time at = MicroSeconds(8);
                // (The link's bring-up sends the initial credits in Credit-only micropackets.)
                Simulator::Schedule(MicroSeconds(7), [&creditOnly]() { creditOnly.clear(); });
                for (uint32_t n : {4u, 2u})
                {
                    Simulator::Schedule(at, [&a, n]() {
                        a.held[vc] -= n;
                        a.ReleaseRxBuffer(vc, n, Simulator::Now());
                    });
                }
                Simulator::Stop(MicroSeconds(60));
                Simulator::Run();
                const std::string what = mode + (exact ? ", exact credits" : "");
                NS_TEST_ASSERT_MSG_EQ(a.held[vc], 4u, what + ": six of ten freed");
                NS_TEST_ASSERT_MSG_GT(creditOnly.size(), 0u, what + ": a Credit-only went");
                if (!creditOnly.empty())
                {
                    NS_TEST_ASSERT_MSG_EQ(creditOnly.front().first,
                                          at.GetNanoSeconds(),
                                          what + ": at once");
                    NS_TEST_ASSERT_MSG_EQ(creditOnly.front().second, 6u, what + ": with all six");
                }
                NS_TEST_ASSERT_MSG_EQ(creditOnly.size(), 1u, what + ": and no other");
                NS_TEST_ASSERT_MSG_EQ(b.GetTxCredits(vc),
                                      int32_t(a.GetRxBufferSize() - 4),
                                      what + ": the peer has them");
                Simulator::Destroy();
            }
        }
    }
};

/// The gsn-release test suite.
class GsnReleaseTestSuite : public TestSuite
{
  public:
    GsnReleaseTestSuite()
        : TestSuite("gsn-release", UNIT)
    {
        AddTestCase(new GsnReleaseAtOnceTestCase, TestCase::QUICK);
        AddTestCase(new GsnHeldCreditOnlyTestCase, TestCase::QUICK);
    }
};

/// The one instance.
GsnReleaseTestSuite g_gsnReleaseTestSuite;

} // namespace
