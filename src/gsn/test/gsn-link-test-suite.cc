/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of one GSN link between two endpoints: bring-up, credits, go-back-N under
 * errors, throughput and latency against the analytic values, refusals, idle cost, resets.
 */
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/gsn-attribute-checker.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-helper.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/node-container.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <array>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// EtherType used by the tests' own traffic (IEEE local experimental).
constexpr uint16_t TEST_ETHERTYPE = 0x88B5;

/**
 * Two endpoints on one cable, random or scripted traffic, and a checker that every Message
 * arrives once, in order per (sender, VC), with its bytes intact.
 */
/// Device attributes as name/value pairs.
using Attrs = std::vector<std::pair<std::string, std::string>>;

class LinkHarness
{
  public:
    /// Build the link with device attributes \p deviceAttrs.
    explicit LinkHarness(const Attrs& deviceAttrs = Attrs(), double lengthMeters = 10.0)
    {
        nodes.Create(2);
        GsnHelper helper;
        helper.SetChannelAttribute("Length", DoubleValue(lengthMeters));
        for (const auto& [name, value] : deviceAttrs)
        {
            helper.SetDeviceAttribute(name, StringValue(value));
        }
        devices = helper.Install(nodes);
        helper.AssignStreams(devices, 100);
        for (uint32_t i = 0; i < 2; ++i)
        {
            dev[i] = DynamicCast<GsnNetDevice>(devices.Get(i));
            dev[i]->SetReceiveCallback(MakeCallback(&LinkHarness::Received, this));
        }
    }

    ~LinkHarness()
    {
        Simulator::Destroy();
    }

    /// Send a Message of \p size payload bytes from endpoint \p from on \p vc.
    bool Send(uint32_t from, uint8_t vc, uint32_t size)
    {
        const uint32_t seq = nextSeq[{from, vc}]++;
        std::vector<uint8_t> bytes(std::max<uint32_t>(size, 9));
        bytes.resize(size < 9 ? 9 : size);
        bytes[0] = uint8_t(from);
        bytes[1] = vc;
        for (int k = 0; k < 4; ++k)
        {
            bytes[2 + k] = uint8_t(seq >> (8 * k));
        }
        for (uint32_t k = 6; k < bytes.size(); ++k)
        {
            bytes[k] = uint8_t(seq * 31 + k);
        }
        Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
        p->AddPacketTag(GsnVcTag(vc));
        const bool ok = dev[from]->Send(p, dev[1 - from]->GetAddress(), TEST_ETHERTYPE);
        if (ok)
        {
            ++sent;
        }
        else
        {
            --nextSeq[{from, vc}];
        }
        return ok;
    }

    /// Receive callback: check order and content.
    bool Received(Ptr<NetDevice> /* d */,
                  Ptr<const Packet> p,
                  uint16_t protocol,
                  const Address& from)
    {
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        lastArrival = Simulator::Now();
        arrivals.push_back(Simulator::Now());
        deliveredBytes += b.size();
        if (protocol != TEST_ETHERTYPE || b.size() < 9)
        {
            ++errors;
            return true;
        }
        const uint32_t sender = b[0];
        const uint8_t vc = b[1];
        uint32_t seq = 0;
        for (int k = 0; k < 4; ++k)
        {
            seq |= uint32_t(b[2 + k]) << (8 * k);
        }
        if (sender > 1 ||
            Mac48Address::ConvertFrom(from) != Mac48Address::ConvertFrom(dev[sender]->GetAddress()))
        {
            ++errors;
            return true;
        }
        if (seq != expectedSeq[{sender, vc}])
        {
            ++errors; // lost, duplicated or reordered
        }
        expectedSeq[{sender, vc}] = seq + 1;
        for (uint32_t k = 6; k < b.size(); ++k)
        {
            if (b[k] != uint8_t(seq * 31 + k))
            {
                ++errors;
                break;
            }
        }
        ++delivered;
        return true;
    }

    /**
     * Schedule \p n Messages with random times in [\p from, \p from + \p span), senders and
     * VCs; payload sizes below \p vc0Max bytes on VC 0 and below \p otherMax on the others.
     * \param rng the draws, in this order per Message: time, sender, VC, size
     * \param n how many
     * \param from earliest time
     * \param span range of the times
     * \param vc0Max size bound on VC 0
     * \param otherMax size bound on VCs 1-3
     */
    void SendRandom(std::mt19937& rng,
                    int n,
                    Time from,
                    Time span,
                    uint32_t vc0Max,
                    uint32_t otherMax)
    {
        for (int k = 0; k < n; ++k)
        {
            const Time at = from + NanoSeconds(rng() % uint64_t(span.GetNanoSeconds()));
            const uint32_t sender = rng() % 2;
            const uint8_t vc = uint8_t(rng() % 4);
            const uint32_t size = (vc == 0) ? rng() % vc0Max : rng() % otherMax;
            Simulator::Schedule(at, [this, sender, vc, size]() { Send(sender, vc, size); });
        }
    }

    /// \return true if every Message sent was delivered
    bool AllDelivered() const
    {
        for (const auto& [key, n] : nextSeq)
        {
            auto it = expectedSeq.find(key);
            if (n != (it == expectedSeq.end() ? 0 : it->second))
            {
                return false;
            }
        }
        return true;
    }

    NodeContainer nodes;
    NetDeviceContainer devices;
    Ptr<GsnNetDevice> dev[2];
    std::map<std::pair<uint32_t, uint8_t>, uint32_t> nextSeq;
    std::map<std::pair<uint32_t, uint8_t>, uint32_t> expectedSeq;
    uint64_t sent{0};
    uint64_t delivered{0};
    uint64_t deliveredBytes{0};
    uint64_t errors{0};
    Time lastArrival;
    std::vector<Time> arrivals;
};

} // namespace

/// The handshake brings both ends up with the whole receive buffer as credit.
class GsnBringUpTestCase : public TestCase
{
  public:
    GsnBringUpTestCase()
        : TestCase("Reset and Initialize bring-up grants every VC its buffer")
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h(Attrs{{"RxBufferSize", "100"}});
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->IsLinkUp(), false, "down before the simulation");
        Simulator::Stop(MicroSeconds(5));
        Simulator::Run();
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.dev[i]->IsLinkUp(), true, "up after the handshake");
            for (uint8_t vc = 0; vc < 4; ++vc)
            {
                NS_TEST_ASSERT_MSG_EQ(h.dev[i]->GetTxCredits(vc), 100, "credits = buffer");
            }
            NS_TEST_ASSERT_MSG_EQ(h.dev[i]->GetUnacknowledged(), 0u, "grants acknowledged");
            NS_TEST_ASSERT_MSG_EQ(h.dev[i]->GetLinkCounters().linkResets, 0u, "no resets");
        }
    }
};

/// One small Message arrives exactly at serialization + propagation time.
class GsnLatencyTestCase : public TestCase
{
  public:
    GsnLatencyTestCase()
        : TestCase("A small Message arrives at the analytic time")
    {
    }

  private:
    void DoRun() override
    {
        for (double length : {1.0, 10.0, 40.0})
        {
            LinkHarness h(Attrs(), length);
            const Time sendAt = MicroSeconds(10);
            // 24 payload bytes: 16 + 8 + 24 = 48 bytes, 2 micropackets.
            Simulator::Schedule(sendAt, [&h]() { h.Send(0, 1, 24); });
            Simulator::Stop(MicroSeconds(20));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "delivered");
            const Time expected = sendAt + NanoSeconds(2 * 40) + NanoSeconds(int64_t(5 * length));
            NS_TEST_ASSERT_MSG_EQ(h.lastArrival, expected, "arrival for " << length << " m");
        }
    }
};

/// Back-to-back 64 KiB Messages reach the analytic rate.
class GsnThroughputTestCase : public TestCase
{
  public:
    GsnThroughputTestCase()
        : TestCase("Back-to-back 64 KiB Messages reach the analytic rate within 0.1%")
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h;
        const uint32_t payload = 65536;
        const uint32_t count = 200;
        Simulator::Schedule(MicroSeconds(5), [&h, count]() {
            for (uint32_t i = 0; i < count; ++i)
            {
                h.Send(0, 1, payload);
            }
        });
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, count, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact and in order");
        const double micropackets = std::ceil((16.0 + 8.0 + payload) / 32.0);
        const double analytic = 6.4e9 * payload / (32.0 * micropackets);
        const double span = (h.arrivals.back() - h.arrivals.front()).GetSeconds();
        const double measured = (count - 1) * payload * 8.0 / span;
        NS_TEST_EXPECT_MSG_EQ_TOL(measured / analytic,
                                  1.0,
                                  0.001,
                                  "measured " << measured << " bit/s, analytic " << analytic);
        for (uint8_t vc = 0; vc < 4; ++vc)
        {
            NS_TEST_EXPECT_MSG_EQ(h.dev[0]->GetLinkCounters().creditStalls[vc],
                                  0u,
                                  "the default buffer covers the credit round trip");
        }
    }
};

/// Random traffic on all VCs never sends without credit nor overflows a buffer.
class GsnCreditInvariantTestCase : public TestCase
{
  public:
    /// \param linkMode the LinkMode of both ends
    /// \param exactCredits their ExactCredits
    explicit GsnCreditInvariantTestCase(std::string linkMode = "Micropacket",
                                        bool exactCredits = false)
        : TestCase("Credit invariant under random traffic on all four VCs" +
                   (linkMode == "Micropacket"
                        ? std::string()
                        : ", " + linkMode + " mode" + (exactCredits ? ", exact credits" : ""))),
          m_linkMode(std::move(linkMode)),
          m_exactCredits(exactCredits)
    {
    }

  private:
    /// Credits seen by endpoint i (granted to it, and used by it) per VC.
    struct Ledger
    {
        std::array<int64_t, 4> granted{};
        std::array<int64_t, 4> used{};
        uint64_t violations{0};
        uint64_t late{0}; ///< of the granted, those reported by LateCreditsRx
    };

    static void OnRx(Ledger* l, const GsnMicropacket& mp)
    {
        if (mp.IsSequenced())
        {
            l->granted[mp.vcr] += mp.cr;
        }
    }

    /// Credits the peer put on a micropacket of its run after this end had taken it.
    static void OnLateCredits(Ledger* l, uint8_t vc, uint8_t credits)
    {
        l->granted[vc] += credits;
        l->late += credits;
    }

    static void OnTx(Ledger* l, const GsnMicropacket& mp)
    {
        if (mp.IsMessage())
        {
            if (++l->used[mp.vc] > l->granted[mp.vc])
            {
                ++l->violations;
            }
        }
    }

    void DoRun() override
    {
        // Small buffers make credits the bottleneck; a long cable makes the round trip long.
        LinkHarness h(Attrs{{"RxBufferSize", "8"},
                            {"CreditReturnThreshold", "3"},
                            {"LinkMode", m_linkMode},
                            {"ExactCredits", m_exactCredits ? "true" : "false"}},
                      40.0);
        Ledger ledger[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            h.dev[i]->TraceConnectWithoutContext("MicropacketRx",
                                                 MakeBoundCallback(&OnRx, &ledger[i]));
            h.dev[i]->TraceConnectWithoutContext("LateCreditsRx",
                                                 MakeBoundCallback(&OnLateCredits, &ledger[i]));
            h.dev[i]->TraceConnectWithoutContext("MicropacketTx",
                                                 MakeBoundCallback(&OnTx, &ledger[i]));
        }
        std::mt19937 rng(3);
        h.SendRandom(rng, 400, MicroSeconds(5), MicroSeconds(400), 4000, 9000);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.sent, 400u, "all accepted");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, h.sent, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact and in order");
        uint64_t stalls = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(ledger[i].violations, 0u, "sent only with credit");
            // (A credit put on a micropacket of a run after the trace above saw it must not
            // corrupt it.)
            NS_TEST_ASSERT_MSG_EQ(h.dev[i]->GetLinkCounters().lcrcErrors, 0u, "no LCRC errors");
            NS_TEST_ASSERT_MSG_EQ(h.dev[i]->GetLinkCounters().rxBufferOverflow,
                                  0u,
                                  "no buffer overflow");
            for (uint8_t vc = 0; vc < 4; ++vc)
            {
                stalls += h.dev[i]->GetLinkCounters().creditStalls[vc];
                // At rest every credit is back with the sender: used + held = granted.
                NS_TEST_ASSERT_MSG_EQ(ledger[i].granted[vc] - ledger[i].used[vc],
                                      h.dev[i]->GetTxCredits(vc),
                                      "credits conserved on VC " << unsigned(vc));
                NS_TEST_ASSERT_MSG_EQ(h.dev[i]->GetTxCredits(vc), 8, "all credit returned");
            }
        }
        NS_TEST_ASSERT_MSG_GT(stalls, 0u, "the test did exercise credit stalls");
        const uint64_t late = ledger[0].late + ledger[1].late;
        if (m_linkMode == "Run")
        {
            // Runs on the wire both ways: credits freed meanwhile ride on them.
            NS_TEST_ASSERT_MSG_GT(late, 0u, "credits were put on runs taken ahead");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(late, 0u, "credits freed during a run wait for the next");
        }
    }

    std::string m_linkMode; ///< LinkMode of both ends
    bool m_exactCredits;    ///< ExactCredits of both ends
};

/// \return \p rate in scientific notation
std::string
RateName(double rate)
{
    std::ostringstream os;
    os << rate;
    return os.str();
}

/// Every Message arrives exactly once, in order and intact under micropacket errors, with
/// the link modes and credit timing of each end set apart (the ends of a link need not agree),
/// and with error models that come and go while Messages are under way.
class GsnErrorRecoveryTestCase : public TestCase
{
  public:
    /// How one end of the link runs.
    struct End
    {
        std::string linkMode; ///< LinkMode attribute
        bool exactCredits;    ///< ExactCredits attribute
    };

    /// \param rate micropacket error rate on both directions
    /// \param a how the first end runs
    /// \param b how the second end runs
    /// \param midTransfer true: each end's error model is there only for a while (the second
    /// end's from 0.5 to 1.2 ms, the first's from 1.5 to 1.8 ms); false: all along
    GsnErrorRecoveryTestCase(double rate,
                             End a = {"Micropacket", false},
                             End b = {"Micropacket", false},
                             bool midTransfer = false)
        : TestCase("Go-back-N recovery at micropacket error rate " + RateName(rate) +
                   (a.linkMode == "Micropacket" && b.linkMode == "Micropacket"
                        ? std::string()
                        : ", ends " + Name(a) + " and " + Name(b)) +
                   (midTransfer ? ", error models attached and removed mid-transfer" : "")),
          m_rate(rate),
          m_ends{a, b},
          m_midTransfer(midTransfer)
    {
    }

  private:
    /// \return how \p e runs, for the test's name
    static std::string Name(const End& e)
    {
        return e.linkMode + (e.exactCredits ? " with exact credits" : "");
    }

    void DoRun() override
    {
        LinkHarness h;
        for (uint32_t i = 0; i < 2; ++i)
        {
            h.dev[i]->SetAttribute("LinkMode", StringValue(m_ends[i].linkMode));
            h.dev[i]->SetAttribute("ExactCredits", BooleanValue(m_ends[i].exactCredits));
        }
        if (!m_midTransfer)
        {
            GsnHelper::SetMicropacketErrorRate(h.devices, m_rate, 10);
        }
        else
        {
            // In the run mode a port switches between acknowledgements riding on runs and
            // timed ones as the models come and go.
            const double rate = m_rate;
            auto set = [&h](uint32_t i, double r) {
                GsnHelper::SetMicropacketErrorRate(NetDeviceContainer(h.dev[i]), r, 10 + i);
            };
            Simulator::Schedule(MicroSeconds(500), [set, rate]() { set(1, rate); });
            Simulator::Schedule(MicroSeconds(1200), [set]() { set(1, 0.0); });
            Simulator::Schedule(MicroSeconds(1500), [set, rate]() { set(0, rate); });
            Simulator::Schedule(MicroSeconds(1800), [set]() { set(0, 0.0); });
        }
        std::mt19937 rng(5);
        h.SendRandom(rng, 600, Time(0), MilliSeconds(2), 4000, 20000);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.sent, 600u, "all accepted");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "no loss, duplicate, reordering or corruption");
        NS_TEST_ASSERT_MSG_EQ(h.AllDelivered(), true, "every Message delivered");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, h.sent, "delivered exactly once");
        uint64_t lcrc = 0;
        uint64_t timeouts = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            const auto& c = h.dev[i]->GetLinkCounters();
            lcrc += c.lcrcErrors;
            timeouts += c.retransmitTimeouts;
            for (uint64_t drops : h.dev[i]->GetMessageCounters().rxDrops)
            {
                NS_TEST_ASSERT_MSG_EQ(drops, 0u, "no Message dropped at the destination");
            }
            NS_TEST_ASSERT_MSG_EQ(c.linkResets, 0u, "recovered without a reset");
        }
        if (m_rate >= 1e-4)
        {
            NS_TEST_ASSERT_MSG_GT(lcrc, 0u, "errors were injected");
        }
        NS_TEST_ASSERT_MSG_EQ((timeouts > 0),
                              (lcrc > 0),
                              "retransmissions happen exactly when errors do");
    }

    double m_rate;      ///< micropacket error rate
    End m_ends[2];      ///< how each end runs
    bool m_midTransfer; ///< error models only for a while
};

/// A Message longer than its VC allows is refused, counted and traced.
class GsnOversizeTestCase : public TestCase
{
  public:
    GsnOversizeTestCase()
        : TestCase("Oversized Messages and bad VCs are refused with a count")
    {
    }

  private:
    static void Count(uint32_t* n, Ptr<const Packet>)
    {
        ++*n;
    }

    void DoRun() override
    {
        LinkHarness h;
        uint32_t drops = 0;
        h.dev[0]->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&Count, &drops));
        // VC 0 allows M_len 4096: 4088 payload bytes fit, 4089 do not.
        NS_TEST_ASSERT_MSG_EQ(h.Send(0, 0, 4088), true, "at the limit");
        NS_TEST_ASSERT_MSG_EQ(h.Send(0, 0, 4089), false, "one byte over");
        Ptr<Packet> p = Create<Packet>(100);
        p->AddPacketTag(GsnVcTag(7));
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->Send(p, h.dev[1]->GetAddress(), TEST_ETHERTYPE),
                              false,
                              "VC 7 does not exist");
        NS_TEST_ASSERT_MSG_EQ(drops, 2u, "two MacTxDrop");
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetMessageCounters().txRefusedTooLong, 1u, "counted");
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetMessageCounters().txRefusedBadVc, 1u, "counted");
        // Default VC per EtherType.
        NS_TEST_ASSERT_MSG_EQ(unsigned(h.dev[0]->SelectVc(Create<Packet>(1), 0x0800)), 1u, "IP");
        NS_TEST_ASSERT_MSG_EQ(unsigned(h.dev[0]->SelectVc(Create<Packet>(1), 0x0806)), 0u, "ARP");
        NS_TEST_ASSERT_MSG_EQ(unsigned(h.dev[0]->SelectVc(Create<Packet>(1), 0x8181)), 0u, "ST");
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "the one at the limit arrives");
    }
};

/// An IP datagram above the MTU is refused on any VC, counted and traced; ST is not bound.
class GsnMtuTestCase : public TestCase
{
  public:
    GsnMtuTestCase()
        : TestCase("A datagram above the MTU is refused (VC 3 too), counted and traced")
    {
    }

  private:
    static void Count(uint32_t* n, Ptr<const Packet>)
    {
        ++*n;
    }

    void DoRun() override
    {
        LinkHarness h;
        uint32_t drops = 0;
        h.dev[0]->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&Count, &drops));
        const uint32_t mtu = h.dev[0]->GetMtu();
        NS_TEST_ASSERT_MSG_EQ(mtu, 65280u, "the default MTU");
        const Address to = h.dev[1]->GetAddress();
        auto onVc3 = [](uint32_t size) {
            Ptr<Packet> p = Create<Packet>(size);
            p->AddPacketTag(GsnVcTag(3)); // VC 3 carries Messages of up to 4 GiB
            return p;
        };
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->Send(onVc3(70000), to, 0x0800), false, "IPv4 70000");
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->Send(onVc3(mtu + 1), to, 0x0800), false, "MTU + 1");
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->Send(onVc3(mtu + 1), to, 0x0806), false, "ARP");
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->Send(onVc3(mtu + 1), to, 0x86DD), false, "IPv6");
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->GetMessageCounters().txRefusedOverMtu, 4u, "counted");
        NS_TEST_EXPECT_MSG_EQ(drops, 4u, "four MacTxDrop");
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->Send(onVc3(mtu), to, 0x0800), true, "at the MTU");
        // ST (and any other Message user) is bounded by the VC's limit only.
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->Send(onVc3(70000), to, 0x8181), true, "ST 70000");
        NS_TEST_EXPECT_MSG_EQ(h.dev[0]->GetMessageCounters().txRefusedOverMtu, 4u, "no more");
        NS_TEST_EXPECT_MSG_EQ(drops, 4u, "no more drops");
        Simulator::Destroy();
    }
};

/// In the reference mode the VCs with something to send take turns, micropacket by micropacket.
class GsnVcTurnsTestCase : public TestCase
{
  public:
    GsnVcTurnsTestCase()
        : TestCase("Micropacket mode: VCs with Messages take turns micropacket by micropacket")
    {
    }

  private:
    static void Note(std::vector<uint8_t>* vcs, const GsnMicropacket& mp)
    {
        if (mp.GetType() == GsnMicropacketType::HEADER || mp.GetType() == GsnMicropacketType::DATA)
        {
            vcs->push_back(mp.vc);
        }
    }

    void DoRun() override
    {
        LinkHarness h(Attrs{{"LinkMode", "Micropacket"}});
        std::vector<uint8_t> vcs;
        h.dev[0]->TraceConnectWithoutContext("MicropacketTx", MakeBoundCallback(&Note, &vcs));
        // Three Messages of 63 micropackets each, on VCs 1, 2 and 3, queued at one instant
        // (within every VC's credits: no VC waits for one).
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            for (uint8_t vc : {1, 2, 3})
            {
                h.Send(0, vc, 2000);
            }
        });
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 3u, "all three arrive");
        NS_TEST_ASSERT_MSG_GT(vcs.size(), 150u, "their micropackets were seen");
        // While all three have micropackets left, each three in a row are the three VCs.
        for (std::size_t i = 0; i + 3 <= 150; ++i)
        {
            const bool distinct =
                vcs[i] != vcs[i + 1] && vcs[i + 1] != vcs[i + 2] && vcs[i] != vcs[i + 2];
            NS_TEST_ASSERT_MSG_EQ(
                distinct,
                true,
                "micropackets " << i << ".." << i + 2 << " on VCs " << unsigned(vcs[i]) << ", "
                                << unsigned(vcs[i + 1]) << ", " << unsigned(vcs[i + 2]));
        }
    }
};

/// A refused attribute value is reported with what the attribute allows.
class GsnAttributeMessagesTestCase : public TestCase
{
  public:
    GsnAttributeMessagesTestCase()
        : TestCase("A refused attribute value names the allowed names or range")
    {
    }

  private:
    /// \return what \p f printed on std::cerr
    static std::string Cerr(const std::function<void()>& f)
    {
        std::ostringstream captured;
        std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
        f();
        std::cerr.rdbuf(old);
        return captured.str();
    }

    static bool Has(const std::string& text, const std::string& part)
    {
        return text.find(part) != std::string::npos;
    }

    void DoRun() override
    {
        Ptr<GsnNetDevice> device = CreateObject<GsnNetDevice>();
        bool ok = true;
        // What --ns3::GsnPortDevice::LinkMode=Foo does (CommandLine -> Config::SetDefaultFailSafe).
        std::string text = Cerr([&ok]() {
            ok = Config::SetDefaultFailSafe("ns3::GsnPortDevice::LinkMode", StringValue("Foo"));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "Foo refused");
        NS_TEST_EXPECT_MSG_EQ(Has(text, "ns3::GsnPortDevice::LinkMode: \"Foo\" is not allowed"),
                              true,
                              text);
        NS_TEST_EXPECT_MSG_EQ(Has(text, "one of Micropacket, Run"), true, text);
        text = Cerr([&ok, device]() {
            ok = device->SetAttributeFailSafe("RetransmitWindow", UintegerValue(300));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "300 refused");
        NS_TEST_EXPECT_MSG_EQ(Has(text, "RetransmitWindow: 300"), true, text);
        NS_TEST_EXPECT_MSG_EQ(Has(text, "an integer from 1 to 255"), true, text);
        text = Cerr([&ok]() {
            ok = Config::SetDefaultFailSafe("ns3::GsnNetDevice::IpVc", StringValue("4"));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "VC 4 refused");
        NS_TEST_EXPECT_MSG_EQ(Has(text, "from 0 to 3"), true, text);
        text = Cerr([&ok]() {
            ok = Config::SetDefaultFailSafe("ns3::GsnChannel::Medium", StringValue("Glass"));
        });
        NS_TEST_EXPECT_MSG_EQ(Has(text, "one of Copper, Fiber"), true, text);
        text = Cerr([&ok]() {
            ok = Config::SetDefaultFailSafe("ns3::GsnPortDevice::AckDelay", StringValue("0ns"));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "0 ns refused");
        NS_TEST_EXPECT_MSG_EQ(Has(text, "a time of at least"), true, text);
        // Good values pass without a word, as strings or as values.
        text = Cerr([&ok, device]() {
            ok = device->SetAttributeFailSafe("LinkMode", StringValue("Run")) &&
                 device->SetAttributeFailSafe("RetransmitWindow", StringValue("200")) &&
                 device->SetAttributeFailSafe("RetransmitWindow", UintegerValue(255)) &&
                 device->SetAttributeFailSafe("IpVc", UintegerValue(3));
        });
        NS_TEST_EXPECT_MSG_EQ(ok, true, "good values taken");
        NS_TEST_EXPECT_MSG_EQ(text, "", "nothing printed");
        NS_TEST_EXPECT_MSG_EQ(GsnDescribeAllowed(MakeUintegerChecker<uint32_t>(1, 9)),
                              "an integer from 1 to 9",
                              "a range");
        NS_TEST_EXPECT_MSG_EQ(GsnDescribeAllowed(MakeDoubleChecker<double>(0.0)),
                              "a number of at least 0",
                              "a lower bound");
        device->Dispose();
    }
};

/// An idle link schedules nothing.
class GsnIdleTestCase : public TestCase
{
  public:
    GsnIdleTestCase()
        : TestCase("An idle link costs no simulation events")
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h;
        Simulator::Schedule(MicroSeconds(5), [&h]() { h.Send(0, 2, 3000); });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "delivered");
        const uint64_t before = Simulator::GetEventCount();
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        // Only the Stop event itself runs in 10 ms of idle link.
        NS_TEST_ASSERT_MSG_EQ(Simulator::GetEventCount() - before, 1u, "no event while idle");
    }
};

/// KeepAliveNulls fills every idle slot with a Null, as the hardware does.
class GsnKeepAliveTestCase : public TestCase
{
  public:
    GsnKeepAliveTestCase()
        : TestCase("Keep-alive Nulls fill every idle slot of the link")
    {
    }

  private:
    void DoRun() override
    {
        {
            LinkHarness h(Attrs{{"KeepAliveNulls", "true"}});
            Simulator::Stop(MicroSeconds(5)); // the link is up
            Simulator::Run();
            std::array<GsnLinkCounters, 2> before{h.dev[0]->GetLinkCounters(),
                                                  h.dev[1]->GetLinkCounters()};
            // 2500 slots of 40 ns, a 3000-byte Message among them.
            h.Send(0, 2, 3000);
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "delivered");
            NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact");
            const uint64_t slots = MicroSeconds(100).GetNanoSeconds() / 40;
            for (uint32_t i = 0; i < 2; ++i)
            {
                const GsnLinkCounters& c = h.dev[i]->GetLinkCounters();
                // Every slot carries a micropacket: the link is never idle.
                // (give or take the slot cut by each end of the interval)
                const uint64_t sent = c.txMicropackets - before[i].txMicropackets;
                NS_TEST_ASSERT_MSG_GT(sent + 2, slots, "port " << i << ": every slot used");
                NS_TEST_ASSERT_MSG_LT(sent, slots + 2, "port " << i << ": one per slot");
                NS_TEST_ASSERT_MSG_GT(c.keepAliveNullSent - before[i].keepAliveNullSent,
                                      slots - 200,
                                      "port " << i << ": idle slots went as keep-alive Nulls");
                NS_TEST_ASSERT_MSG_EQ(c.outOfSequence + c.lcrcErrors + c.retransmitTimeouts,
                                      0u,
                                      "port " << i << ": the Nulls disturb nothing");
            }
        }
        // Without it the same link sends only what it must.
        LinkHarness quiet;
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(quiet.dev[0]->GetLinkCounters().keepAliveNullSent, 0u, "off");
        NS_TEST_ASSERT_MSG_LT(quiet.dev[0]->GetLinkCounters().txMicropackets,
                              100u,
                              "an idle link without keep-alive sends next to nothing");
    }
};

/// A micropacket whose RSEQ goes out while it is being taken is not owed another one.
class GsnAcknowledgedOnTakingTestCase : public TestCase
{
  public:
    GsnAcknowledgedOnTakingTestCase()
        : TestCase("A micropacket acknowledged while it is taken needs no Null")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string mode : {"Micropacket", "Run"})
        {
            // A Header and one Data micropacket. The endpoint frees each place on arrival, and
            // two owed credits justify a Credit-only: the idle receiver sends one at once when
            // the Data micropacket arrives, and its RSEQ acknowledges both. Nothing is left to
            // acknowledge.
            LinkHarness h({{"LinkMode", mode}, {"CreditReturnThreshold", "2"}});
            Simulator::Stop(MicroSeconds(5)); // the link is up
            Simulator::Run();
            const GsnLinkCounters& rx = h.dev[1]->GetLinkCounters();
            const uint64_t nullsBefore = rx.nullSent; // (the bring-up's)
            const uint64_t creditOnlyBefore = rx.creditOnlySent;
            h.Send(0, 1, 16);
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, mode + ": delivered");
            NS_TEST_ASSERT_MSG_GT(rx.creditOnlySent,
                                  creditOnlyBefore,
                                  mode + ": credits went back at once");
            NS_TEST_ASSERT_MSG_EQ(rx.nullSent,
                                  nullsBefore,
                                  mode + ": no Null for what was acknowledged");
            NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetUnacknowledged(), 0u, mode + ": all acknowledged");
        }
    }
};

/// The acknowledgement and credit timers expiring at the same instant send one Credit-only.
class GsnTimersTogetherTestCase : public TestCase
{
  public:
    GsnTimersTogetherTestCase()
        : TestCase("Acknowledgements and credits due at the same instant go in one Credit-only")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string mode : {"Micropacket", "Run"})
        {
            // A Header and one Data micropacket, below both thresholds: the endpoint frees
            // each place as it arrives, so its first owed credit and its first unacknowledged
            // micropacket date from the same arrival and both timers expire AckDelay later.
            // Whichever runs first, the Credit-only that returns the credits carries the
            // RSEQ as well: no Null.
            LinkHarness h(
                {{"LinkMode", mode}, {"CreditReturnThreshold", "16"}, {"AckThreshold", "16"}});
            Simulator::Stop(MicroSeconds(5)); // the link is up
            Simulator::Run();
            const GsnLinkCounters& rx = h.dev[1]->GetLinkCounters();
            const uint64_t nullsBefore = rx.nullSent;
            const uint64_t creditOnlyBefore = rx.creditOnlySent;
            const int32_t creditsBefore = h.dev[0]->GetTxCredits(1);
            h.Send(0, 1, 16);
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, mode + ": delivered");
            NS_TEST_ASSERT_MSG_EQ(rx.creditOnlySent - creditOnlyBefore,
                                  1u,
                                  mode + ": one Credit-only");
            NS_TEST_ASSERT_MSG_EQ(rx.nullSent - nullsBefore, 0u, mode + ": no Null");
            NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetUnacknowledged(), 0u, mode + ": all acknowledged");
            NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetTxCredits(1),
                                  creditsBefore,
                                  mode + ": all credits back");
        }
    }
};

/// The link counters account for every event of a link in the micropacket mode.
class GsnEventAccountingTestCase : public TestCase
{
  public:
    GsnEventAccountingTestCase()
        : TestCase("Transmissions, timer events and arrivals account for a link's events")
    {
    }

  private:
    void DoRun() override
    {
        // Micropacket by micropacket each transmission ends with one event, each micropacket
        // arrives with one, each timer expires with one; nothing else runs but the Send
        // events and Stop.
        LinkHarness h(Attrs{{"LinkMode", "Micropacket"}});
        Simulator::Stop(MicroSeconds(5)); // the link is up
        Simulator::Run();
        GsnLinkCounters before[2] = {h.dev[0]->GetLinkCounters(), h.dev[1]->GetLinkCounters()};
        const uint64_t eventsBefore = Simulator::GetEventCount();
        const uint32_t sends = 3;
        for (uint32_t k = 0; k < sends; ++k)
        {
            Simulator::Schedule(NanoSeconds(700 * k), [&h, k]() { h.Send(k % 2, 1, 5000); });
        }
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, sends, "delivered");
        uint64_t accounted = sends + 1; // the Send events and Stop
        uint64_t timerEvents = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            const GsnLinkCounters& c = h.dev[i]->GetLinkCounters();
            const uint64_t tx = c.txMicropackets - before[i].txMicropackets;
            NS_TEST_ASSERT_MSG_EQ(c.transmissions - before[i].transmissions,
                                  tx,
                                  "one transmission per micropacket");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(c.timerEventsSendingNothing,
                                        c.timerEvents,
                                        "a part of the timer events");
            timerEvents += c.timerEvents - before[i].timerEvents;
            accounted += 2 * tx + (c.timerEvents - before[i].timerEvents);
        }
        NS_TEST_ASSERT_MSG_GT(timerEvents, 0u, "the last acknowledgements go by timer");
        NS_TEST_ASSERT_MSG_EQ(Simulator::GetEventCount() - eventsBefore,
                              accounted,
                              "every event accounted for");
    }
};

/// Link counters add up field by field (a fabric's totals).
class GsnLinkCountersSumTestCase : public TestCase
{
  public:
    GsnLinkCountersSumTestCase()
        : TestCase("Link counters add up field by field")
    {
    }

  private:
    void DoRun() override
    {
        // Counters of a real link with errors (most fields not zero), added to a total that
        // already holds the same: every field doubles.
        LinkHarness h(Attrs{{"LinkMode", "Micropacket"}});
        h.dev[1]->SetAttribute("ReceiveErrorModel",
                               PointerValue(CreateObjectWithAttributes<RateErrorModel>(
                                   "ErrorRate",
                                   DoubleValue(0.02),
                                   "ErrorUnit",
                                   StringValue("ERROR_UNIT_PACKET"))));
        for (uint32_t k = 0; k < 4; ++k)
        {
            Simulator::Schedule(MicroSeconds(5 + k), [&h, k]() { h.Send(0, k % 4, 20000); });
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        const GsnLinkCounters& c = h.dev[0]->GetLinkCounters();
        GsnLinkCounters sum = c;
        sum += c;
        const std::vector<std::pair<uint64_t, uint64_t>> fields = {
            {sum.transmissions, c.transmissions},
            {sum.timerEvents, c.timerEvents},
            {sum.timerEventsSendingNothing, c.timerEventsSendingNothing},
            {sum.txMicropackets, c.txMicropackets},
            {sum.txMessageMicropackets, c.txMessageMicropackets},
            {sum.rxMicropackets, c.rxMicropackets},
            {sum.rxTakenAhead, c.rxTakenAhead},
            {sum.rxAccepted, c.rxAccepted},
            {sum.creditOnlySent, c.creditOnlySent},
            {sum.nullSent, c.nullSent},
            {sum.lcrcErrors, c.lcrcErrors},
            {sum.outOfSequence, c.outOfSequence},
            {sum.notInitialized, c.notInitialized},
            {sum.reservedType, c.reservedType},
            {sum.retransmitTimeouts, c.retransmitTimeouts},
            {sum.retransmitted, c.retransmitted},
            {sum.linkResets, c.linkResets},
            {sum.rxBufferOverflow, c.rxBufferOverflow},
            {sum.messagesLostInReset, c.messagesLostInReset},
        };
        uint32_t nonZero = 0;
        for (std::size_t f = 0; f < fields.size(); ++f)
        {
            NS_TEST_ASSERT_MSG_EQ(fields[f].first, 2 * fields[f].second, "field " << f);
            nonZero += fields[f].second > 0 ? 1 : 0;
        }
        for (uint32_t vc = 0; vc < gsn::NUM_VCS; ++vc)
        {
            NS_TEST_ASSERT_MSG_EQ(sum.creditStalls[vc], 2 * c.creditStalls[vc], "stalls");
            NS_TEST_ASSERT_MSG_EQ(sum.creditStallTime[vc], 2 * c.creditStallTime[vc], "time");
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(nonZero, 8u, "a link that did things");
        NS_TEST_ASSERT_MSG_GT(c.retransmitted, 0u, "errors were recovered from");
    }
};

/// GetCreditStallTimeUpToNow(): the stalls that ended and, of those under way, the time so far
/// (what GsnTrafficStats reads at the edges of its window).
class GsnCreditStallReadingTestCase : public TestCase
{
  public:
    GsnCreditStallReadingTestCase()
        : TestCase("Credit-stall time read up to now counts stalls under way")
    {
    }

  private:
    /// The reading and the counters' total (stalls that ended) at one instant.
    struct Sample
    {
        Time reading; ///< GetCreditStallTimeUpToNow()
        Time ended;   ///< sum of the creditStallTime counters
    };

    void DoRun() override
    {
        // A 40 m cable (200 ns) and 8 places per VC: credits come back a round trip after
        // 8 micropackets, so the sender stalls on every round.
        LinkHarness h(Attrs{{"LinkMode", "Micropacket"},
                            {"RxBufferSize", "8"},
                            {"CreditReturnThreshold", "4"}},
                      40.0);
        Time traced;
        h.dev[0]->TraceConnectWithoutContext(
            "CreditStall",
            MakeBoundCallback(
                +[](Time* sum, uint8_t, Time waited) { *sum += waited; },
                &traced));
        std::vector<Sample> samples;
        const Ptr<GsnNetDevice> port = h.dev[0];
        for (uint32_t k = 0; k < 400; ++k)
        {
            Simulator::Schedule(MicroSeconds(6) + NanoSeconds(10 * k), [&samples, port]() {
                Time ended;
                for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
                {
                    ended += port->GetLinkCounters().creditStallTime[vc];
                }
                samples.push_back({port->GetCreditStallTimeUpToNow(), ended});
            });
        }
        Simulator::Schedule(MicroSeconds(5), [&h]() { h.Send(0, 1, 60000); });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "delivered");
        uint32_t underWay = 0;
        for (std::size_t i = 0; i < samples.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(samples[i].reading, samples[i].ended, "sample " << i);
            underWay += samples[i].reading > samples[i].ended ? 1 : 0;
            if (i > 0)
            {
                // One VC stalls: the reading grows by at most the 10 ns between samples.
                const Time grew = samples[i].reading - samples[i - 1].reading;
                NS_TEST_ASSERT_MSG_GT_OR_EQ(grew, Time(0), "sample " << i);
                NS_TEST_ASSERT_MSG_LT_OR_EQ(grew, NanoSeconds(10), "sample " << i);
            }
        }
        NS_TEST_ASSERT_MSG_GT(underWay, 10u, "samples fell inside stalls");
        NS_TEST_ASSERT_MSG_LT(underWay, uint32_t(samples.size()), "and between them");
        // At rest nothing is under way: the reading is what the stalls' ends traced.
        NS_TEST_ASSERT_MSG_GT(traced, Time(0), "the sender stalled");
        NS_TEST_ASSERT_MSG_EQ(port->GetCreditStallTimeUpToNow(), traced, "at rest");
    }
};

/// Malformed micropackets from the wire are counted and dropped, never trusted.
class GsnMalformedInputTestCase : public TestCase
{
  public:
    GsnMalformedInputTestCase()
        : TestCase("Malformed micropackets from the wire are counted drops")
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h;
        Simulator::Stop(MicroSeconds(5));
        Simulator::Run();
        Ptr<GsnNetDevice> d = h.dev[1];
        const auto before = d->GetLinkCounters();

        GsnMicropacket bad;
        bad.type = 0x6; // reserved
        bad.SealLcrc();
        d->Receive(bad);
        GsnMicropacket corrupt;
        corrupt.type = 0x9;
        corrupt.SealLcrc();
        corrupt.MutableData()[0] ^= 1;
        d->Receive(corrupt);
        GsnMicropacket wrongSeq;
        wrongSeq.type = 0x8;
        wrongSeq.tseq = 77;
        wrongSeq.SealLcrc();
        d->Receive(wrongSeq);
        const auto& after = d->GetLinkCounters();
        NS_TEST_ASSERT_MSG_EQ(after.reservedType - before.reservedType, 1u, "reserved TYPE");
        NS_TEST_ASSERT_MSG_EQ(after.lcrcErrors - before.lcrcErrors, 1u, "bad LCRC");
        NS_TEST_ASSERT_MSG_EQ(after.outOfSequence - before.outOfSequence, 1u, "wrong TSEQ");
        // The link still works afterwards.
        Simulator::Schedule(MicroSeconds(1), [&h]() { h.Send(0, 1, 500); });
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "link intact");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact");

        // A Data micropacket in sequence but with no Message open: a Message-layer drop.
        GsnMicropacket orphan;
        orphan.type = 0x8;
        orphan.vc = 3;
        orphan.tail = true;
        orphan.tseq = uint8_t(d->GetLinkCounters().rxAccepted); // the next TSEQ expected
        orphan.SealLcrc();
        d->Receive(orphan);

        NS_TEST_ASSERT_MSG_EQ(
            d->GetMessageCounters().rxDrops[size_t(GsnRxDropReason::DATA_WITHOUT_HEADER)],
            1u,
            "orphan Data is a counted Message-layer drop");
    }
};

/// Corrupts the first Null micropacket it sees, nothing else.
class FirstNullErrorModel : public ErrorModel
{
  public:
    /// \return true once a Null was corrupted
    bool Hit() const
    {
        return m_hit;
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        uint8_t wire[gsn::MICROPACKET_BYTES];
        p->CopyData(wire, gsn::MICROPACKET_BYTES);
        const GsnMicropacket mp = GsnMicropacket::Deserialize(wire);
        if (m_hit || mp.GetType() != GsnMicropacketType::NULL_MP)
        {
            return false;
        }
        m_hit = true;
        return true;
    }

    void DoReset() override
    {
        m_hit = false;
    }

    bool m_hit{false}; ///< the Null was corrupted
};

/// The last acknowledgement before a link falls idle is lost: the sender resends, and the
/// receiver, which has accepted those micropackets already, acknowledges the copies again
/// (a link that sends nothing when idle would otherwise leave the sender timing out until it
/// resets the link).
class GsnLostLastAckTestCase : public TestCase
{
  public:
    /// \param linkMode the LinkMode of both ends
    explicit GsnLostLastAckTestCase(const std::string& linkMode)
        : TestCase("The last acknowledgement lost on a link falling idle is sent again (" +
                   linkMode + " mode)"),
          m_linkMode(linkMode)
    {
    }

  private:
    void DoRun() override
    {
        // The first Null the second end sends acknowledges the credits the first end granted
        // at bring-up; the second end has nothing else to send then.
        LinkHarness h({{"LinkMode", m_linkMode}});
        Ptr<FirstNullErrorModel> em = CreateObject<FirstNullErrorModel>();
        h.dev[0]->SetAttribute("ReceiveErrorModel", PointerValue(em));
        Simulator::Schedule(MicroSeconds(50), [&h]() { h.Send(0, 1, 100); });
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(em->Hit(), true, "the acknowledgement was lost");
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "delivered");
        NS_TEST_ASSERT_MSG_EQ(h.errors, 0u, "intact");
        for (uint32_t i = 0; i < 2; ++i)
        {
            const GsnLinkCounters& c = h.dev[i]->GetLinkCounters();
            NS_TEST_ASSERT_MSG_EQ(c.linkResets, 0u, "no reset");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(c.retransmitTimeouts, 1u, "one resend is enough");
            NS_TEST_ASSERT_MSG_EQ(h.dev[i]->GetUnacknowledged(), 0u, "all acknowledged");
        }
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetLinkCounters().retransmitTimeouts,
                              1u,
                              "the sender resent once");
    }

    std::string m_linkMode; ///< LinkMode of both ends
};

/// A link reset in the middle of traffic: the link comes back and carries traffic again.
class GsnResetTestCase : public TestCase
{
  public:
    GsnResetTestCase()
        : TestCase("A link reset mid-transfer recovers; cut Messages are counted")
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h;
        Simulator::Schedule(MicroSeconds(5), [&h]() {
            for (int i = 0; i < 4; ++i)
            {
                h.Send(0, 3, 60000);
            }
        });
        Simulator::Schedule(MicroSeconds(50), [&h]() { h.dev[0]->ResetLink(); });
        Simulator::Stop(MicroSeconds(400));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->IsLinkUp(), true, "up again");
        NS_TEST_ASSERT_MSG_EQ(h.dev[1]->IsLinkUp(), true, "up again");
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetLinkCounters().linkResets, 1u, "one reset");
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetMessageCounters().txLostInReset,
                              1u,
                              "the Message on the wire was cut");
        // The cut Message is gone; the three queued after it arrive intact.
        NS_TEST_ASSERT_MSG_EQ(h.delivered, 3u, "later Messages arrive");
        NS_TEST_ASSERT_MSG_EQ(h.deliveredBytes, 3u * 60000u, "intact");
        for (uint8_t vc = 0; vc < 4; ++vc)
        {
            NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetTxCredits(vc), 256, "credits re-granted");
        }
    }
};

/// A reset during bring-up with two handshake micropackets lost, in an order the exploration of
/// suite gsn-link-bring-up finds: end 0 answers with Initialize_Ack an Initialize of end 1 that
/// end 0's own reset made stale, and end 1's new Initialize is the one lost. Taken as the answer
/// to end 1's new Initialize (without handshake numbers), the stale Initialize_Ack would bring
/// end 1 up before end 0 granted it any credits: end 1 would send its grant to an end not yet
/// initialized, resend it until it gave up and reset the link.
class GsnStaleHandshakeAckTestCase : public TestCase
{
  public:
    GsnStaleHandshakeAckTestCase()
        : TestCase("A stale Initialize_Ack after a reset in the bring-up leaves no end without "
                   "credits")
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h;
        // Both ends send Reset at 0; end 1 loses end 0's (the first it receives), answers
        // nothing and gets Reset_Ack for its own (180 ns), then sends Initialize 2. End 0
        // resets at 200 ns (Reset 2), answers Initialize 2 with Initialize_Ack 2 (270 ns),
        // which reaches end 1 at 360 ns after end 1 has cleared for Reset 2 and sent
        // Initialize 3; end 0 loses that one (the fourth it receives).
        Ptr<ReceiveListErrorModel> lose0 = CreateObject<ReceiveListErrorModel>();
        lose0->SetList({3});
        Ptr<ReceiveListErrorModel> lose1 = CreateObject<ReceiveListErrorModel>();
        lose1->SetList({0});
        h.dev[0]->SetReceiveErrorModel(lose0);
        h.dev[1]->SetReceiveErrorModel(lose1);
        bool oneUpWithoutCredits = false;
        Simulator::Schedule(NanoSeconds(200), [&h]() { h.dev[0]->ResetLink(); });
        Simulator::Schedule(NanoSeconds(400), [&h, &oneUpWithoutCredits]() {
            // (Without handshake numbers end 1 is up by now, end 0 not.)
            oneUpWithoutCredits = h.dev[1]->IsLinkUp() && !h.dev[0]->IsLinkUp();
        });
        Simulator::Schedule(MicroSeconds(1), [&h]() {
            h.Send(0, 1, 100);
            h.Send(1, 1, 100);
        });
        Simulator::Stop(MicroSeconds(30));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetLinkCounters().lcrcErrors, 1u, "end 0 lost one");
        NS_TEST_ASSERT_MSG_EQ(h.dev[1]->GetLinkCounters().lcrcErrors, 1u, "end 1 lost one");
        NS_TEST_EXPECT_MSG_EQ(oneUpWithoutCredits, false, "end 1 waited for its own answer");
        // (Without them end 1's grant goes to an end not yet initialized, which drops it: 140
        // retransmissions, then end 1 resets the link to recover.)
        NS_TEST_EXPECT_MSG_EQ(h.dev[1]->GetLinkCounters().retransmitted, 0u, "nothing resent");
        NS_TEST_EXPECT_MSG_EQ(h.dev[1]->GetLinkCounters().linkResets, 0u, "no reset to recover");
        NS_TEST_ASSERT_MSG_EQ((h.dev[0]->IsLinkUp() && h.dev[1]->IsLinkUp()), true, "both up");
        for (uint8_t vc = 0; vc < 4; ++vc)
        {
            NS_TEST_EXPECT_MSG_EQ(h.dev[1]->GetTxCredits(vc), 256, "end 1 holds end 0's grant");
            NS_TEST_EXPECT_MSG_EQ(h.dev[0]->GetTxCredits(vc), 256, "end 0 holds end 1's grant");
        }
        NS_TEST_EXPECT_MSG_EQ(h.delivered, 2u, "both Messages arrive");
        NS_TEST_EXPECT_MSG_EQ(h.errors, 0u, "intact");
    }
};

/// A link reset while a whole Message is on the wire: if the receiver accepted it before its
/// own reset, it is delivered; if not, the sender counts it lost (nothing else knows of it).
class GsnResetInFlightTestCase : public TestCase
{
  public:
    /// \param receiverResets true: the receiving end resets the link; false: the sender
    explicit GsnResetInFlightTestCase(bool receiverResets)
        : TestCase(std::string("A link reset with a whole Message on the wire, started by the ") +
                   (receiverResets ? "receiver: the sender counts it lost"
                                   : "sender: it arrives before the reset")),
          m_receiverResets(receiverResets)
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h;
        uint32_t drops = 0;
        h.dev[0]->TraceConnectWithoutContext(
            "MacTxDrop",
            Callback<void, Ptr<const Packet>>([&drops](Ptr<const Packet>) { ++drops; }));
        // Two micropackets leave at 5 us and 5.04 us and arrive 90 ns after leaving; the reset
        // starts at 5.06 us, when both have left and the receiver has accepted neither. A
        // Reset from the sender arrives after them; one from the receiver, before them.
        Simulator::Schedule(MicroSeconds(5), [&h]() { h.Send(0, 1, 9); });
        const uint32_t resetter = m_receiverResets ? 1 : 0;
        Simulator::Schedule(NanoSeconds(5060), [&h, resetter]() { h.dev[resetter]->ResetLink(); });
        Simulator::Schedule(MicroSeconds(20), [&h]() { h.Send(0, 1, 9); });
        Simulator::Stop(MicroSeconds(40));
        Simulator::Run();
        const GsnLinkCounters& c = h.dev[0]->GetLinkCounters();
        NS_TEST_ASSERT_MSG_EQ(h.dev[0]->IsLinkUp(), true, "up again");
        // (The harness sees a lost Message as a gap in its sequence numbers.)
        NS_TEST_ASSERT_MSG_EQ(h.errors,
                              (m_receiverResets ? 1u : 0u),
                              "intact, the lost one missing");
        if (m_receiverResets)
        {
            NS_TEST_ASSERT_MSG_EQ(h.delivered, 1u, "only the Message sent after the reset");
            NS_TEST_ASSERT_MSG_EQ(c.messagesLostInReset, 1u, "the sender counts it lost");
            NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetMessageCounters().txLostInReset, 1u, "lost");
            NS_TEST_ASSERT_MSG_EQ(drops, 1u, "and traces it");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(h.delivered, 2u, "both Messages delivered");
            NS_TEST_ASSERT_MSG_EQ(c.messagesLostInReset, 0u, "nothing lost");
            NS_TEST_ASSERT_MSG_EQ(h.dev[0]->GetMessageCounters().txLostInReset, 0u, "nothing");
            NS_TEST_ASSERT_MSG_EQ(drops, 0u, "nothing traced");
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            for (uint64_t d : h.dev[i]->GetMessageCounters().rxDrops)
            {
                NS_TEST_ASSERT_MSG_EQ(d, 0u, "no partial Message at a receiver");
            }
        }
    }

    bool m_receiverResets; ///< which end resets
};

/// Link resets at random times under random traffic in both directions: the link comes back
/// each time, no Message arrives twice, and every Message is delivered or counted lost (by the
/// sender, txLostInReset, or by the receiver, a partial Message dropped; a Message cut while
/// being sent may be counted by both, so this is a lower bound; the narrow case of a whole
/// Message on the wire is GsnResetInFlightTestCase's).
class GsnRandomResetsTestCase : public TestCase
{
  public:
    /// \param linkMode the LinkMode of both ends
    /// \param seed draws the traffic and the resets
    GsnRandomResetsTestCase(const std::string& linkMode, uint32_t seed)
        : TestCase("Link resets at random times, " + linkMode + " mode, seed " +
                   std::to_string(seed)),
          m_linkMode(linkMode),
          m_seed(seed)
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h({{"LinkMode", m_linkMode}});
        std::mt19937 rng(m_seed);
        h.SendRandom(rng, 400, Time(0), MilliSeconds(2), 4000, 20000);
        for (int k = 0; k < 12; ++k)
        {
            const Time at = NanoSeconds(rng() % 2000000);
            const uint32_t end = rng() % 2;
            Simulator::Schedule(at, [&h, end]() { h.dev[end]->ResetLink(); });
        }
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        uint64_t lost = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.dev[i]->IsLinkUp(), true, "up again");
            const GsnMessageCounters& m = h.dev[i]->GetMessageCounters();
            lost += m.txLostInReset;
            for (uint64_t d : m.rxDrops)
            {
                lost += d;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(h.sent, 400u, "all accepted");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(h.delivered, h.sent, "none twice");
        NS_TEST_ASSERT_MSG_GT(lost, 0u, "the resets cut something");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(h.delivered + lost, h.sent, "none lost without a count");
        // Each bring-up leaves both ends consistent: nothing is resent on this error-free
        // cable, and no end gives up and resets the link on its own.
        const GsnLinkCounters& c0 = h.dev[0]->GetLinkCounters();
        const GsnLinkCounters& c1 = h.dev[1]->GetLinkCounters();
        NS_TEST_EXPECT_MSG_EQ(c0.retransmitted + c1.retransmitted, 0u, "nothing resent");
        NS_TEST_EXPECT_MSG_EQ(c0.linkResets + c1.linkResets, 12u, "only the resets made here");
    }

    std::string m_linkMode; ///< LinkMode of both ends
    uint32_t m_seed;        ///< the draw
};

/// The gsn-link test suite.
class GsnLinkTestSuite : public TestSuite
{
  public:
    GsnLinkTestSuite()
        : TestSuite("gsn-link", SYSTEM)
    {
        AddTestCase(new GsnBringUpTestCase, TestCase::QUICK);
        AddTestCase(new GsnLatencyTestCase, TestCase::QUICK);
        AddTestCase(new GsnThroughputTestCase, TestCase::QUICK);
        AddTestCase(new GsnCreditInvariantTestCase, TestCase::QUICK);
        AddTestCase(new GsnCreditInvariantTestCase("Run"), TestCase::QUICK);
        AddTestCase(new GsnCreditInvariantTestCase("Run", true), TestCase::QUICK);
        for (double rate : {1e-7, 1e-5, 1e-4, 1e-3})
        {
            AddTestCase(new GsnErrorRecoveryTestCase(rate), TestCase::QUICK);
        }
        // Runs at one or both ends, with and without exact credits: each end times what it
        // keeps for later by its own settings, and reads the other's runs whatever they are.
        using End = GsnErrorRecoveryTestCase::End;
        const End run{"Run", false};
        const End runExact{"Run", true};
        const End micropacket{"Micropacket", false};
        const End micropacketExact{"Micropacket", true};
        for (double rate : {1e-4, 1e-3})
        {
            AddTestCase(new GsnErrorRecoveryTestCase(rate, run, run), TestCase::QUICK);
            AddTestCase(new GsnErrorRecoveryTestCase(rate, runExact, run), TestCase::QUICK);
            AddTestCase(new GsnErrorRecoveryTestCase(rate, run, micropacket), TestCase::QUICK);
            AddTestCase(new GsnErrorRecoveryTestCase(rate, runExact, micropacketExact),
                        TestCase::QUICK);
        }
        AddTestCase(new GsnErrorRecoveryTestCase(1e-3, run, run, true), TestCase::QUICK);
        AddTestCase(new GsnErrorRecoveryTestCase(1e-3, runExact, run, true), TestCase::QUICK);
        AddTestCase(new GsnOversizeTestCase, TestCase::QUICK);
        AddTestCase(new GsnMtuTestCase, TestCase::QUICK);
        AddTestCase(new GsnVcTurnsTestCase, TestCase::QUICK);
        AddTestCase(new GsnAttributeMessagesTestCase, TestCase::QUICK);
        AddTestCase(new GsnIdleTestCase, TestCase::QUICK);
        AddTestCase(new GsnKeepAliveTestCase, TestCase::QUICK);
        AddTestCase(new GsnAcknowledgedOnTakingTestCase, TestCase::QUICK);
        AddTestCase(new GsnTimersTogetherTestCase, TestCase::QUICK);
        AddTestCase(new GsnEventAccountingTestCase, TestCase::QUICK);
        AddTestCase(new GsnLinkCountersSumTestCase, TestCase::QUICK);
        AddTestCase(new GsnCreditStallReadingTestCase, TestCase::QUICK);
        AddTestCase(new GsnMalformedInputTestCase, TestCase::QUICK);
        AddTestCase(new GsnResetTestCase, TestCase::QUICK);
        for (uint32_t seed = 1; seed <= 4; ++seed)
        {
            AddTestCase(new GsnRandomResetsTestCase("Micropacket", seed), TestCase::QUICK);
            AddTestCase(new GsnRandomResetsTestCase("Run", seed), TestCase::QUICK);
        }
        AddTestCase(new GsnStaleHandshakeAckTestCase, TestCase::QUICK);
        AddTestCase(new GsnResetInFlightTestCase(true), TestCase::QUICK);
        AddTestCase(new GsnResetInFlightTestCase(false), TestCase::QUICK);
        AddTestCase(new GsnLostLastAckTestCase("Micropacket"), TestCase::QUICK);
        AddTestCase(new GsnLostLastAckTestCase("Run"), TestCase::QUICK);
    }
};

/// Static instance registering the suite.
static GsnLinkTestSuite g_gsnLinkTestSuite;
