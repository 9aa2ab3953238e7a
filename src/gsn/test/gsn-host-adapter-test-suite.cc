/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the host adapter model: DMA transfer timing, the host bus's sharing, interrupt
 * coalescing, the profiles (Ideal adds nothing; the Adapter profile's DMA sustains Table
 * 1-1's 6.365 Gbit/s), the pacing of Messages by DMA on both sides, the firmware's round
 * robin between processes, the kernel path's receive pool, and the run link mode against the
 * micropacket mode with an adapter.
 */
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/gsn-dma-engine.h"
#include "ns3/gsn-helper.h"
#include "ns3/gsn-host-adapter-helper.h"
#include "ns3/gsn-host-adapter.h"
#include "ns3/gsn-host-bus.h"
#include "ns3/gsn-interrupt-coalescer.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-process-tag.h"
#include "ns3/gsn-vc-tag.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/// EtherType of the tests' raw Messages (IEEE local experimental): the OS-bypass path.
constexpr uint16_t RAW = 0x88B5;

/// Two endpoints on a 10 m cable under a host adapter helper, and the Messages' deliveries.
struct HostPair
{
    NodeContainer nodes;
    std::vector<Ptr<GsnNetDevice>> dev;
    std::vector<Time> arrivals;                  ///< deliveries at endpoint 1, in order
    std::vector<uint32_t> sizes;                 ///< their sizes
    std::vector<std::pair<Time, uint8_t>> txOps; ///< host 0 adapter's Tx trace: DMA start, VC
    std::vector<Time> tailsSent;                 ///< host 0: PhyTxEnd times
    std::vector<Time> dmaEnds;                   ///< host 0: DMA end of each Message, in order

    /// \param host the helper that installs adapters (null: none is asked)
    /// \param linkMode the link mode
    HostPair(const GsnHostAdapterHelper* host, const std::string& linkMode = "Micropacket")
    {
        nodes.Create(2);
        GsnHelper gsn;
        gsn.SetChannelAttribute("Length", DoubleValue(10));
        gsn.SetDeviceAttribute("LinkMode", StringValue(linkMode));
        gsn.SetDeviceAttribute("TxQueueMaxSize", StringValue("10000p"));
        NetDeviceContainer d = gsn.Install(nodes);
        if (host)
        {
            host->Install(d);
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            dev.push_back(DynamicCast<GsnNetDevice>(d.Get(i)));
        }
        dev[1]->SetReceiveCallback(MakeCallback(&HostPair::Received, this));
        dev[0]->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&HostPair::TailSent, this));
        if (Ptr<GsnHostAdapter> a = dev[0]->GetHostAdapter())
        {
            a->TraceConnectWithoutContext("Tx", MakeCallback(&HostPair::Tx, this));
        }
    }

    ~HostPair()
    {
        Simulator::Destroy();
    }

    bool Received(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
    {
        arrivals.push_back(Simulator::Now());
        sizes.push_back(p->GetSize());
        return true;
    }

    void TailSent(Ptr<const Packet>)
    {
        tailsSent.push_back(Simulator::Now());
    }

    void Tx(uint8_t vc, uint32_t, uint8_t, Time, Time start, Time end)
    {
        txOps.emplace_back(start, vc);
        dmaEnds.push_back(end);
    }

    /// At \p at, send \p count Messages of \p bytes on \p vc (EtherType \p type, process
    /// \p process when not 0).
    void SendAt(Time at,
                uint32_t count,
                uint32_t bytes,
                uint8_t vc = 3,
                uint16_t type = RAW,
                uint16_t process = 0)
    {
        Simulator::Schedule(at, [this, count, bytes, vc, type, process]() {
            for (uint32_t i = 0; i < count; ++i)
            {
                Ptr<Packet> p = Create<Packet>(bytes);
                p->AddPacketTag(GsnVcTag(vc));
                if (process != 0)
                {
                    p->AddPacketTag(GsnProcessTag(process));
                }
                dev[0]->Send(p, dev[1]->GetAddress(), type);
            }
        });
    }
};

/**
 * A DMA transfer's timing from its bursts: start latency, bursts of BurstGap plus their
 * bytes, the last burst shorter, and what TimeFor()/BytesAt() answer inside it.
 */
class GsnDmaTransferTestCase : public TestCase
{
  public:
    GsnDmaTransferTestCase()
        : TestCase("DMA transfer: bursts, gap, read latency, TimeFor and BytesAt")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<GsnHostBus> bus = CreateObject<GsnHostBus>();
        bus->SetAttribute("ReadLatency", TimeValue(NanoSeconds(300)));
        Ptr<GsnDmaEngine> dma = CreateObject<GsnDmaEngine>();
        dma->SetAttribute("Rate", DataRateValue(DataRate("8Gbps"))); // 1 byte per ns
        dma->SetAttribute("BurstBytes", UintegerValue(1000));
        dma->SetAttribute("BurstGap", TimeValue(NanoSeconds(100)));
        dma->SetBus(bus, GsnHostBus::READ);
        // 2500 bytes from 1000 ns: 300 ns of latency, then bursts of 1100 ns, 1100 ns and
        // 100 + 500 ns.
        const GsnDmaTransfer t = dma->Start(NanoSeconds(1000), 2500);
        NS_TEST_EXPECT_MSG_EQ(t.start, NanoSeconds(1000), "starts when asked");
        NS_TEST_EXPECT_MSG_EQ(t.first, NanoSeconds(2400), "first burst in place");
        NS_TEST_EXPECT_MSG_EQ(t.end, NanoSeconds(4100), "last byte in place");
        NS_TEST_EXPECT_MSG_EQ(t.TimeFor(1), NanoSeconds(2400), "byte 1 comes with burst 0");
        NS_TEST_EXPECT_MSG_EQ(t.TimeFor(1000), NanoSeconds(2400), "burst 0 whole");
        NS_TEST_EXPECT_MSG_EQ(t.TimeFor(1001), NanoSeconds(3500), "byte 1001 with burst 1");
        NS_TEST_EXPECT_MSG_EQ(t.TimeFor(2001), NanoSeconds(4100), "the last burst at the end");
        NS_TEST_EXPECT_MSG_EQ(t.BytesAt(NanoSeconds(2399)), 0, "nothing before burst 0");
        NS_TEST_EXPECT_MSG_EQ(t.BytesAt(NanoSeconds(3499)), 1000, "one burst");
        NS_TEST_EXPECT_MSG_EQ(t.BytesAt(NanoSeconds(4099)), 2000, "two bursts");
        NS_TEST_EXPECT_MSG_EQ(t.BytesAt(NanoSeconds(4100)), 2500, "all at the end");
        NS_TEST_EXPECT_MSG_EQ(dma->Duration(2500), NanoSeconds(3100), "alone: same duration");
        // The engine serves in order: the next starts when this one ends.
        const GsnDmaTransfer u = dma->Start(NanoSeconds(0), 10);
        NS_TEST_EXPECT_MSG_EQ(u.start, NanoSeconds(4100), "waits for the engine");
        NS_TEST_EXPECT_MSG_EQ(u.end, NanoSeconds(4100 + 300 + 100 + 10), "latency, gap, bytes");
        // A receive transfer ends no earlier than its last byte arrives, plus its burst.
        Ptr<GsnDmaEngine> rx = CreateObject<GsnDmaEngine>();
        rx->SetAttribute("Rate", DataRateValue(DataRate("8Gbps")));
        rx->SetAttribute("BurstBytes", UintegerValue(1000));
        rx->SetAttribute("BurstGap", TimeValue(NanoSeconds(100)));
        rx->SetBus(bus, GsnHostBus::WRITE);
        const GsnDmaTransfer w = rx->Start(NanoSeconds(0), 500, MicroSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(w.end, MicroSeconds(10) + NanoSeconds(600), "follows the link");
    }
};

/// The host bus: reads limited by ReadRate, both directions sharing MemoryRate.
class GsnHostBusTestCase : public TestCase
{
  public:
    GsnHostBusTestCase()
        : TestCase("Host bus: read rate, memory shared by reads and writes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<GsnHostBus> bus = CreateObject<GsnHostBus>();
        bus->SetAttribute("MemoryRate", DataRateValue(DataRate("800MBps")));
        bus->SetAttribute("ReadRate", DataRateValue(DataRate("460MBps")));
        NS_TEST_EXPECT_MSG_EQ_TOL(bus->GetRate(GsnHostBus::READ, Time(0)), 3.68e9, 1, "reads");
        NS_TEST_EXPECT_MSG_EQ_TOL(bus->GetRate(GsnHostBus::WRITE, Time(0)), 6.4e9, 1, "writes");
        bus->NoteBusy(GsnHostBus::WRITE, MicroSeconds(5));
        NS_TEST_EXPECT_MSG_EQ_TOL(bus->GetRate(GsnHostBus::READ, MicroSeconds(1)),
                                  3.2e9,
                                  1,
                                  "a read while writes run gets half of the memory");
        NS_TEST_EXPECT_MSG_EQ_TOL(bus->GetRate(GsnHostBus::READ, MicroSeconds(5)),
                                  3.68e9,
                                  1,
                                  "and all of its own rate after");
        Ptr<GsnHostBus> unlimited = CreateObject<GsnHostBus>();
        NS_TEST_EXPECT_MSG_EQ(unlimited->GetRate(GsnHostBus::READ, Time(0)), 0, "no limit");
    }
};

/// Interrupt coalescing: Delay after the oldest completion, MaxCompletions at once.
class GsnInterruptCoalescerTestCase : public TestCase
{
  public:
    GsnInterruptCoalescerTestCase()
        : TestCase("Interrupt coalescing: delay and completion count")
    {
    }

  private:
    std::vector<std::pair<Time, uint32_t>> m_interrupts;

    void Handler(const std::vector<uint64_t>& tokens)
    {
        m_interrupts.emplace_back(Simulator::Now(), uint32_t(tokens.size()));
    }

    void DoRun() override
    {
        Ptr<GsnInterruptCoalescer> c = CreateObject<GsnInterruptCoalescer>();
        c->SetAttribute("Delay", TimeValue(MicroSeconds(10)));
        c->SetAttribute("MaxCompletions", UintegerValue(3));
        c->SetHandler(MakeCallback(&GsnInterruptCoalescerTestCase::Handler, this));
        // Two completions 2 us apart: one interrupt 10 us after the first.
        c->Post(MicroSeconds(1), 1);
        c->Post(MicroSeconds(3), 2);
        // Then three within 1 us: one interrupt at the third.
        c->Post(MicroSeconds(50), 3);
        c->Post(MicroSeconds(50) + NanoSeconds(500), 4);
        c->Post(MicroSeconds(51), 5);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(m_interrupts.size(), 2, "two interrupts for five completions");
        NS_TEST_EXPECT_MSG_EQ(m_interrupts[0].first, MicroSeconds(11), "Delay after the first");
        NS_TEST_EXPECT_MSG_EQ(m_interrupts[0].second, 2, "both completions");
        NS_TEST_EXPECT_MSG_EQ(m_interrupts[1].first, MicroSeconds(51), "at the third");
        NS_TEST_EXPECT_MSG_EQ(m_interrupts[1].second, 3, "all three");
    }
};

/**
 * The Ideal profile installs nothing: the same deliveries and the same number of events as a
 * device never given a helper; another profile installs an adapter.
 */
class GsnIdealProfileTestCase : public TestCase
{
  public:
    GsnIdealProfileTestCase()
        : TestCase("Ideal profile: no adapter, no event, same deliveries")
    {
    }

  private:
    /// \return deliveries and the events of a run of 20 Messages
    std::pair<std::vector<Time>, uint64_t> Run(const GsnHostAdapterHelper* host, bool& adapter)
    {
        HostPair pair(host);
        pair.SendAt(MicroSeconds(10), 20, 3000);
        pair.SendAt(MicroSeconds(50), 5, 100, 1);
        Simulator::Run();
        adapter = pair.dev[0]->GetHostAdapter() != nullptr;
        return {pair.arrivals, Simulator::GetEventCount()};
    }

    void DoRun() override
    {
        GsnHostAdapterHelper ideal;
        ideal.SetProfile("Ideal");
        bool adapter = true;
        const auto withIdeal = Run(&ideal, adapter);
        NS_TEST_EXPECT_MSG_EQ(adapter, false, "Ideal installs no adapter");
        // The reference: devices no host adapter helper was asked about.
        const auto reference = Run(nullptr, adapter);
        NS_TEST_EXPECT_MSG_EQ(withIdeal.second, reference.second, "same events");
        NS_TEST_EXPECT_MSG_EQ((withIdeal.first == reference.first), true, "same deliveries");
        NS_TEST_EXPECT_MSG_EQ(withIdeal.first.size(), 25, "all delivered");
        GsnHostAdapterHelper adapterProfile;
        adapterProfile.SetProfile("Adapter");
        const auto withAdapter = Run(&adapterProfile, adapter);
        NS_TEST_EXPECT_MSG_EQ(adapter, true, "Adapter installs one");
        NS_TEST_EXPECT_MSG_EQ(withAdapter.first.size(), 25, "all delivered");
        NS_TEST_EXPECT_MSG_GT(withAdapter.first.back(),
                              reference.first.back(),
                              "the host costs time");
    }
};

/**
 * Table 1-1: the Adapter profile's DMA (16 KiB bursts at 6.4 Gbit/s, 113 ns apart) sustains
 * 6.365 Gbit/s of user payload on one link, streaming large Messages; measured from the
 * deliveries, not computed.
 */
class GsnSustainedRateTestCase : public TestCase
{
  public:
    GsnSustainedRateTestCase(const std::string& linkMode)
        : TestCase("Adapter profile sustains the 6.365 Gbps of Table 1-1 (" + linkMode + " mode)"),
          m_linkMode(linkMode)
    {
    }

  private:
    std::string m_linkMode;

    void DoRun() override
    {
        GsnHostAdapterHelper host;
        host.SetProfile("Adapter");
        HostPair pair(&host, m_linkMode);
        const uint32_t bytes = 1 << 20;
        pair.SendAt(MicroSeconds(10), 8, bytes);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(pair.arrivals.size(), 8, "all delivered");
        const double gbps =
            7.0 * bytes * 8 / (pair.arrivals.back() - pair.arrivals.front()).GetSeconds() / 1e9;
        // Table 1-1 gives 3 decimals: within half a unit of the last.
        NS_TEST_EXPECT_MSG_EQ_TOL(gbps, 6.365, 0.0005, "sustained user payload rate");
    }
};

/**
 * Pacing: no Message's Tail leaves before its DMA read has ended, and a receiver gets each
 * Message later than the Tail's arrival by at least its receive DMA; with the Origin 2000's
 * memory the link alone streams at the DMA read rate (460 MB/s), not 6.4 Gbit/s.
 */
class GsnPacingTestCase : public TestCase
{
  public:
    GsnPacingTestCase()
        : TestCase("Pacing: Messages leave as the DMA reads them, arrive after the DMA writes")
    {
    }

  private:
    void DoRun() override
    {
        GsnHostAdapterHelper host;
        host.SetProfile("Origin2000");
        HostPair pair(&host);
        const uint32_t bytes = 65536;
        pair.SendAt(MicroSeconds(10), 10, bytes);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(pair.arrivals.size(), 10, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(pair.tailsSent.size(), 10, "all sent");
        NS_TEST_ASSERT_MSG_EQ(pair.dmaEnds.size(), 10, "all read");
        for (uint32_t i = 0; i < 10; ++i)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(pair.tailsSent[i],
                                        pair.dmaEnds[i],
                                        "Message " << i << " left before it was read");
        }
        Ptr<GsnHostAdapter> rx = pair.dev[1]->GetHostAdapter();
        // 64 KiB at the receive engine's rate (6.4 Gbit/s, 4 bursts) is above 80 us; the
        // last Tail arrives within 50 ns of being sent (10 m of cable).
        NS_TEST_EXPECT_MSG_GT(pair.arrivals.back() - pair.tailsSent.back(),
                              NanoSeconds(50 + 315 + 2500),
                              "delivered after firmware, DMA write and poll");
        const double gbps =
            9.0 * bytes * 8 / (pair.arrivals.back() - pair.arrivals.front()).GetSeconds() / 1e9;
        // 460 MB/s with a 113 ns gap per 16 KiB and 315 ns of read latency per Message.
        const double expected = 65536.0 * 8 / (65536.0 / 460e6 + 4 * 113e-9 + 315e-9) / 1e9;
        NS_TEST_EXPECT_MSG_EQ_TOL(gbps, expected, expected * 0.002, "paced by the DMA read");
        NS_TEST_EXPECT_MSG_EQ(rx->GetCounters().bypassRx, 10, "OS-bypass path");
    }
};

/**
 * The firmware takes commands in two-level round robin: first among processes, then among
 * a process's VCs. Two processes post three Messages each at once, on VCs 1 and 2: their
 * DMAs alternate.
 */
class GsnRoundRobinTestCase : public TestCase
{
  public:
    GsnRoundRobinTestCase()
        : TestCase("Firmware: round robin between processes' command queues")
    {
    }

  private:
    void DoRun() override
    {
        GsnHostAdapterHelper host;
        host.SetProfile("Adapter");
        HostPair pair(&host);
        Ptr<GsnHostAdapter> a = pair.dev[0]->GetHostAdapter();
        const uint16_t p1 = a->RegisterProcess();
        const uint16_t p2 = a->RegisterProcess();
        NS_TEST_ASSERT_MSG_EQ((p1 != 0 && p2 != 0 && p1 != p2), true, "two entries");
        pair.SendAt(MicroSeconds(10), 3, 1000, 1, RAW, p1);
        pair.SendAt(MicroSeconds(10), 3, 1000, 2, RAW, p2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(pair.txOps.size(), 6, "six commands");
        for (uint32_t i = 0; i < 6; ++i)
        {
            const unsigned expected = i % 2 == 0 ? 1u : 2u;
            NS_TEST_EXPECT_MSG_EQ(unsigned(pair.txOps[i].second),
                                  expected,
                                  "command " << i << " not in turn");
        }
        NS_TEST_EXPECT_MSG_EQ(a->GetCounters().firmwareOps, 6, "the firmware took each");
    }
};

/**
 * Kernel path: a Message needs a buffer of the receive pool until the handler delivers it;
 * with a pool of 2 and a slow handler, a burst of Messages loses some (counted, MacRxDrop
 * with NoRxBuffer); coalescing gives fewer interrupts than Messages.
 */
class GsnKernelPathTestCase : public TestCase
{
  public:
    GsnKernelPathTestCase()
        : TestCase("Kernel path: receive pool, interrupts, drops")
    {
    }

  private:
    void DoRun() override
    {
        GsnHostAdapterHelper host;
        host.SetProfile("Origin2000");
        host.Set("RxBufferPoolSize", UintegerValue(2));
        host.Set("Cpu/KernelRxPacketTime", TimeValue(MicroSeconds(100)));
        HostPair pair(&host);
        uint32_t noBuffer = 0;
        pair.dev[1]->TraceConnectWithoutContext(
            "MacRxDrop",
            Callback<void, Ptr<const Packet>, GsnRxDropReason>(
                [&noBuffer](Ptr<const Packet>, GsnRxDropReason r) {
                    noBuffer += r == GsnRxDropReason::NO_RX_BUFFER;
                }));
        pair.SendAt(MicroSeconds(10), 10, 1000, 1, 0x0800);
        Simulator::Run();
        Ptr<GsnHostAdapter> rx = pair.dev[1]->GetHostAdapter();
        const GsnHostAdapterCounters& c = rx->GetCounters();
        NS_TEST_EXPECT_MSG_GT(c.rxNoBuffer, 0, "the pool ran out");
        NS_TEST_EXPECT_MSG_EQ(c.rxNoBuffer, noBuffer, "each drop traced");
        NS_TEST_EXPECT_MSG_EQ(c.kernelRx + c.rxNoBuffer, 10, "delivered or dropped");
        NS_TEST_EXPECT_MSG_EQ(pair.arrivals.size(), c.kernelRx, "delivered to the node");
        NS_TEST_EXPECT_MSG_EQ(pair.dev[0]->GetHostAdapter()->GetCounters().kernelTx,
                              10,
                              "sent on the kernel path");
        // With the profile's pool every Message is delivered; Messages 18 us apart (the
        // sender's processor) share interrupts held for 50 us.
        GsnHostAdapterHelper roomy;
        roomy.SetProfile("Origin2000");
        roomy.Set("Interrupts/Delay", TimeValue(MicroSeconds(50)));
        HostPair second(&roomy);
        second.SendAt(MicroSeconds(10), 10, 1000, 1, 0x0800);
        Simulator::Run();
        Ptr<GsnHostAdapter> rx2 = second.dev[1]->GetHostAdapter();
        NS_TEST_EXPECT_MSG_EQ(rx2->GetCounters().kernelRx, 10, "all delivered");
        NS_TEST_EXPECT_MSG_LT(rx2->GetInterrupts()->GetInterrupts(), 10, "coalesced interrupts");
    }
};

/**
 * With an adapter, the run link mode is exact for one flow on a link, as without: the same
 * deliveries at the same times as the micropacket mode, for Messages paced by the DMA.
 */
class GsnAdapterRunModeTestCase : public TestCase
{
  public:
    GsnAdapterRunModeTestCase()
        : TestCase("Adapter: run mode delivers as the micropacket mode")
    {
    }

  private:
    std::vector<Time> Run(const std::string& linkMode)
    {
        GsnHostAdapterHelper host;
        host.SetProfile("Origin2000");
        HostPair pair(&host, linkMode);
        pair.SendAt(MicroSeconds(10), 6, 40000);
        pair.SendAt(MicroSeconds(30), 4, 100, 1);
        pair.SendAt(MicroSeconds(200), 3, 70000, 2);
        pair.SendAt(MicroSeconds(400), 2, 0, 1); // nothing for the DMA to read or write
        Simulator::Run();
        return pair.arrivals;
    }

    void DoRun() override
    {
        const std::vector<Time> reference = Run("Micropacket");
        const std::vector<Time> run = Run("Run");
        NS_TEST_ASSERT_MSG_EQ(reference.size(), 15, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(run.size(), reference.size(), "the same Messages");
        for (std::size_t i = 0; i < run.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run[i], reference[i], "Message " << i);
        }
    }
};

} // namespace

/// The host adapter test suite.
class GsnHostAdapterTestSuite : public TestSuite
{
  public:
    GsnHostAdapterTestSuite()
        : TestSuite("gsn-host-adapter", UNIT)
    {
        AddTestCase(new GsnDmaTransferTestCase, TestCase::QUICK);
        AddTestCase(new GsnHostBusTestCase, TestCase::QUICK);
        AddTestCase(new GsnInterruptCoalescerTestCase, TestCase::QUICK);
        AddTestCase(new GsnIdealProfileTestCase, TestCase::QUICK);
        AddTestCase(new GsnSustainedRateTestCase("Micropacket"), TestCase::QUICK);
        AddTestCase(new GsnSustainedRateTestCase("Run"), TestCase::QUICK);
        AddTestCase(new GsnPacingTestCase, TestCase::QUICK);
        AddTestCase(new GsnRoundRobinTestCase, TestCase::QUICK);
        AddTestCase(new GsnKernelPathTestCase, TestCase::QUICK);
        AddTestCase(new GsnAdapterRunModeTestCase, TestCase::QUICK);
    }
};

/// Static instance.
static GsnHostAdapterTestSuite g_gsnHostAdapterTestSuite;
