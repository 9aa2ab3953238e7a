/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ST memory that scales: transfers between memory that holds no bytes over GSN, with the
 * process's resident memory watched while they run (a 64 MiB transfer QUICK, a 4 GiB one
 * EXTENSIVE), and an unlimited transfer (Table 1-9) ended by END after 10 ms.
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"
#include "ns3/st-module.h"

#include <cstdio>
#include <unistd.h>

using namespace ns3;

namespace
{

/// \return the process's resident memory now, in bytes (0 if /proc cannot tell)
uint64_t
ResidentBytes()
{
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr)
    {
        return 0;
    }
    unsigned long size = 0;
    unsigned long resident = 0;
    const int n = std::fscanf(f, "%lu %lu", &size, &resident);
    std::fclose(f);
    return n == 2 ? uint64_t(resident) * uint64_t(sysconf(_SC_PAGESIZE)) : 0;
}

/// Two hosts on a GSN cable in the run link mode, ST installed.
struct NoBytesPair
{
    NodeContainer hosts;
    NetDeviceContainer devices;

    NoBytesPair()
    {
        hosts.Create(2);
        GsnHelper gsn;
        gsn.SetDeviceAttribute("LinkMode", StringValue("Run"));
        devices = gsn.Install(hosts);
        StHelper st;
        // 16 MiB blocks, 8 granted at a time: the last granted arrives 0.17 s after its CTS,
        // well within the CTS's retry timeout (1 s; 64 blocks would take 1.3 s).
        st.SetAttribute("CtsReq", UintegerValue(8));
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        st.Install(devices, addresses);
        StHelper::PopulateStaticTables(hosts);
    }

    ~NoBytesPair()
    {
        Simulator::Destroy();
    }
};

/**
 * A single-use write of \p size bytes between an StBulkClient and an StServer whose memory
 * holds no bytes: it completes whole and checked, and the process's resident memory grows
 * by far less than the bytes moved.
 */
class StNoBytesTransferTestCase : public TestCase
{
  public:
    explicit StNoBytesTransferTestCase(uint64_t size)
        : TestCase("A write of " + std::to_string(size) +
                   " bytes between memory without bytes, resident memory small"),
          m_size(size)
    {
    }

  private:
    uint64_t m_size;
    uint64_t m_peak{0};

    void Sample()
    {
        m_peak = std::max(m_peak, ResidentBytes());
        Simulator::Schedule(MilliSeconds(1), &StNoBytesTransferTestCase::Sample, this);
    }

    void DoRun() override
    {
        NoBytesPair pair;
        StServerHelper server(5000);
        server.SetAttribute("BufferSize", UintegerValue(m_size));
        server.SetAttribute("NoBytes", BooleanValue(true));
        ApplicationContainer serverApps = server.Install(pair.hosts.Get(1));
        StBulkClientHelper client(pair.hosts.Get(1)->GetObject<StProtocol>()->GetLocalAddress(),
                                  5000);
        client.SetAttribute("TransferSize", UintegerValue(m_size));
        client.SetAttribute("NoBytes", BooleanValue(true));
        ApplicationContainer clientApps = client.Install(pair.hosts.Get(0));
        clientApps.Start(MicroSeconds(10));
        const uint64_t before = ResidentBytes();
        m_peak = before;
        Simulator::Schedule(MicroSeconds(10), &StNoBytesTransferTestCase::Sample, this);
        Simulator::Stop(Seconds(100));
        Simulator::Run();
        Ptr<StBulkClient> c = DynamicCast<StBulkClient>(clientApps.Get(0));
        Ptr<StServer> s = DynamicCast<StServer>(serverApps.Get(0));
        NS_TEST_ASSERT_MSG_EQ(c->GetCompleted(), 1, "the transfer completed");
        NS_TEST_EXPECT_MSG_EQ(c->GetBytes(), m_size, "all of it");
        NS_TEST_EXPECT_MSG_EQ(s->GetCorrupt(), 0, "the server checked it: zeros");
        const st::StCounters& rx = pair.hosts.Get(1)->GetObject<StProtocol>()->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(rx.Get(st::StStat::RxDataBytes), m_size, "every byte arrived");
        NS_TEST_EXPECT_MSG_EQ(rx.Get(st::StStat::PatternErrors), 0, "and was zero");
        // Real memory would take the size at each end; without bytes the growth is what the
        // operations in flight take (about 2 MiB measured, for 64 MiB and for 4 GiB alike).
        const uint64_t growth = m_peak > before ? m_peak - before : 0;
        NS_TEST_EXPECT_MSG_LT(growth, uint64_t(32) << 20, "resident memory grew by " << growth);
        NS_TEST_EXPECT_MSG_GT(ResidentBytes(), 0, "/proc/self/statm was read");
        NS_TEST_EXPECT_MSG_EQ(rx.Get(st::StStat::Timeouts) + rx.Get(st::StStat::Retransmissions),
                              0,
                              "no operation was sent again");
    }
};

/**
 * An unlimited write (T_len unlimited, Table 1-9) from memory without bytes into 1 MiB of
 * posted memory: it goes on, block after block, until the source ends it after 10 ms; both
 * sides then see it complete, with the bytes moved.
 */
class StUnlimitedTransferTestCase : public TestCase
{
  public:
    StUnlimitedTransferTestCase()
        : TestCase("An unlimited write runs until END, over GSN")
    {
    }

  private:
    std::vector<st::StEvent> m_source;
    std::vector<st::StEvent> m_destination;

    void DoRun() override
    {
        NoBytesPair pair;
        Ptr<StProtocol> a = pair.hosts.Get(0)->GetObject<StProtocol>();
        Ptr<StProtocol> b = pair.hosts.Get(1)->GetObject<StProtocol>();
        const uint64_t ring = 1 << 20;
        const int flags = st::StMemoryTable::PIN_TX | st::StMemoryTable::PIN_RX |
                          st::StMemoryTable::NO_BYTES | st::StMemoryTable::CHECK;
        b->Listen(5000, [this, b, ring, flags](const st::StEvent& e) {
            if (e.type == st::StEventType::ConnectionEstablished)
            {
                uint32_t handle = 0;
                uint16_t mx = 0;
                b->Map(e.conn, flags, nullptr, ring, 0, handle, mx);
                b->PostReceive(e.conn, 0, ring);
            }
            m_destination.push_back(e);
        });
        uint32_t tid = 0;
        st::StConnId conn = 0;
        a->Connect(b->GetLocalAddress(), 5000, [&](const st::StEvent& e) {
            if (e.type == st::StEventType::ConnectionEstablished)
            {
                uint32_t handle = 0;
                uint16_t mx = 0;
                a->Map(e.conn, flags, nullptr, ring, 0, handle, mx);
                st::StWriteOptions opt;
                opt.unlimited = true;
                a->Write(e.conn, 0, ring, tid, opt);
                conn = e.conn;
                Simulator::Schedule(MilliSeconds(10), [&, a]() { a->End(conn, tid); });
            }
            m_source.push_back(e);
        });
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        auto find = [](const std::vector<st::StEvent>& v, st::StEventType t) {
            for (const auto& e : v)
            {
                if (e.type == t)
                {
                    return &e;
                }
            }
            return static_cast<const st::StEvent*>(nullptr);
        };
        const st::StEvent* src = find(m_source, st::StEventType::TransferComplete);
        const st::StEvent* dst = find(m_destination, st::StEventType::TransferComplete);
        NS_TEST_ASSERT_MSG_NE(src, nullptr, "the source completed");
        NS_TEST_ASSERT_MSG_NE(dst, nullptr, "the destination completed");
        NS_TEST_EXPECT_MSG_EQ(find(m_source, st::StEventType::TransferAborted),
                              nullptr,
                              "not aborted");
        // 10 ms at nearly 6.4 Gbit/s: about 7.9 MB, many times the 1 MiB of memory.
        NS_TEST_EXPECT_MSG_GT(dst->bytes, uint64_t(7) << 20, "moved " << dst->bytes);
        NS_TEST_EXPECT_MSG_LT(dst->bytes, uint64_t(8) << 20, "moved " << dst->bytes);
        NS_TEST_EXPECT_MSG_EQ(dst->bytes, b->GetCounters().Get(st::StStat::RxDataBytes), "count");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(src->bytes, dst->bytes, "sent at least what arrived");
        NS_TEST_EXPECT_MSG_EQ(b->GetCounters().Get(st::StStat::PatternErrors), 0, "zeros");
    }
};

} // namespace

/// The suite.
class StNoBytesTestSuite : public TestSuite
{
  public:
    StNoBytesTestSuite()
        : TestSuite("st-no-bytes", SYSTEM)
    {
        AddTestCase(new StNoBytesTransferTestCase(uint64_t(64) << 20), TestCase::QUICK);
        AddTestCase(new StUnlimitedTransferTestCase, TestCase::QUICK);
        AddTestCase(new StNoBytesTransferTestCase((uint64_t(4) << 30) + (uint64_t(1) << 20)),
                    TestCase::EXTENSIVE);
    }
};

/// Static instance.
static StNoBytesTestSuite g_stNoBytesTestSuite;
