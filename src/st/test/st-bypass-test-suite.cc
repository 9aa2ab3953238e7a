/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-bypass-test-suite.cc: the ST Bypass API inside a simulation, on two nodes joined by a
 * GSN cable: every routine of the draft (st_create ... st_version) and every ST_OPT_*
 * option, the blocking routines called outside Simulator::Run (they run the simulator
 * until they can return), and their event-driven equivalents (StBypassApi) called inside
 * simulation events, checked on the wire and in memory.
 */
#include "st-test-harness.h"

#include <cstring>

using namespace ns3;
using namespace ns3::sttest;

namespace
{

/// Allows blocking routines for the life of a test case, whatever way it returns.
struct BlockingAllowed
{
    BlockingAllowed()
    {
        StSimulatorDriver::SetBlockingAllowed(true);
    }

    ~BlockingAllowed()
    {
        StSimulatorDriver::SetBlockingAllowed(false);
    }
};

/// A header for st_tx.
st_header_t
CHeader(st::StOp op, uint16_t flags)
{
    st_header_t h{};
    h.opflags = static_cast<uint16_t>((static_cast<uint16_t>(op) << 11) | flags);
    return h;
}

/// Blocking routines from the test body (outside Simulator::Run), async ones on the server.
class StBypassBlockingTest : public TestCase
{
  public:
    StBypassBlockingTest()
        : TestCase("blocking st_connect st_flush st_rx st_close outside Run; the server uses "
                   "StBypassApi Accept and Rx inside events")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        BlockingAllowed blocking;
        Ptr<StBypassApi> api0 = s.proto[0]->GetBypass();
        Ptr<StBypassApi> api1 = s.proto[1]->GetBypass();
        api0->MakeDefault();

        // Server: listen, accept and receive through the event-driven calls.
        st_chandle_t server = nullptr;
        NS_TEST_ASSERT_MSG_EQ(api1->Create(&server), ST_OK, "st_create on node 1");
        NS_TEST_ASSERT_MSG_EQ(st_listen(server, nullptr, "4000"), ST_OK, "st_listen");
        std::vector<uint8_t> dst(65536, 0);
        int serverMx = 0;
        int accepted = -1;
        std::vector<st_header_t> got;
        int rxEnd = -1;
        st_mhandle_t mr = nullptr;
        std::function<void()> receive;
        StBypassApi::RxCallback onRx([&](int e, const st_header_t& h, const uint8_t*) {
            if (e != ST_OK)
            {
                rxEnd = e;
                return;
            }
            got.push_back(h);
            receive();
        });
        receive = [&]() { api1->Rx(server, Seconds(-1), onRx); };
        api1->Accept(server, StBypassApi::DoneCallback([&](int e) {
                         accepted = e;
                         st_map(server, ST_PIN_RX, dst.data(), dst.size(), 0, -1, &mr, &serverMx);
                         receive();
                     }));

        // Client: st_create on the default stack (node 0), then block.
        st_chandle_t client = nullptr;
        NS_TEST_ASSERT_MSG_EQ(st_create(&client), ST_OK, "st_create on the default stack");
        NS_TEST_ASSERT_MSG_EQ(st_connect(client, "10.1.1.9", "4000"),
                              ST_EHOSTUNREACH,
                              "unknown host");
        const Time t0 = Simulator::Now();
        NS_TEST_ASSERT_MSG_EQ(st_connect(client, "10.1.1.2", "4000"), ST_OK, "st_connect");
        NS_TEST_EXPECT_MSG_GT(Simulator::Now(), t0, "st_connect let simulated time pass");
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(), ">RC <CA", "RC and CA");
        NS_TEST_EXPECT_MSG_EQ(accepted, ST_OK, "the server accepted in an event");
        NS_TEST_EXPECT_MSG_GT(serverMx, 0, "the server mapped RX memory");
        NS_TEST_EXPECT_MSG_EQ_TOL(st_time(),
                                  Simulator::Now().GetSeconds(),
                                  1e-12,
                                  "st_time is simulated time");

        std::vector<uint8_t> src(40000);
        for (std::size_t i = 0; i < src.size(); ++i)
        {
            src[i] = static_cast<uint8_t>(i * 13 + 5);
        }
        st_mhandle_t mt = nullptr;
        NS_TEST_ASSERT_MSG_EQ(
            st_map(client, ST_PIN_TX, src.data(), src.size(), 0, -1, &mt, nullptr),
            ST_OK,
            "st_map");
        st_header_t d = CHeader(st::StOp::Data, st::StFlag::LAST | 3);
        d.mx = static_cast<uint16_t>(serverMx);
        d.bufx = 1;
        d.offset = 10;
        NS_TEST_ASSERT_MSG_EQ(st_tx(client, &d, nullptr, 40000, 0, 0), ST_OK, "st_tx DATA");
        int64_t count = 0;
        NS_TEST_ASSERT_MSG_EQ(st_flush(client, -1, &count), ST_OK, "st_flush(-1)");
        NS_TEST_EXPECT_MSG_EQ(count, 4, "RC and 3 STUs tiled at the server's 16 KiB Bufx");
        // Let the DATA arrive: a st_rx on the client with a timeout blocks that long.
        st_header_t none{};
        timeval tv{0, 200};
        const Time t1 = Simulator::Now();
        NS_TEST_EXPECT_MSG_EQ(st_rx(client, &none, nullptr, &tv), ST_EWOULDBLOCK, "timeout");
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now() - t1, MicroSeconds(200), "after 200 us");
        NS_TEST_EXPECT_MSG_EQ(got.size(), 3u, "the server's st_rx got every STU header");
        NS_TEST_EXPECT_MSG_EQ(std::equal(src.begin(), src.end(), dst.begin() + 16384 + 10),
                              true,
                              "bytes placed at Bufx 1 offset 10");
        NS_TEST_EXPECT_MSG_EQ(dst[16384 + 9] + dst[16384 + 10 + 40000], 0, "nothing around");
        for (const auto& o : s.log.ops)
        {
            if (o.h.op == st::StOp::Data)
            {
                NS_TEST_EXPECT_MSG_EQ(o.vc, 3, "DATA on the data channel of its header");
            }
        }

        NS_TEST_EXPECT_MSG_EQ(st_unmap(mt), ST_OK, "st_unmap");
        NS_TEST_EXPECT_MSG_EQ(st_close(client), ST_OK, "st_close");
        NS_TEST_EXPECT_MSG_EQ(s.log.OpsOf(0).substr(s.log.OpsOf(0).size() - 5), "RD DC", "RD, DC");
        s.Run(MicroSeconds(10)); // the DC reaches the server
        NS_TEST_EXPECT_MSG_EQ(rxEnd, ST_ENOTCONN, "the server's pending st_rx ends");
        NS_TEST_EXPECT_MSG_EQ(st_delete(client), ST_OK, "st_delete");
        NS_TEST_EXPECT_MSG_NE(std::string(st_version()).find("Bypass"),
                              std::string::npos,
                              "st_version");
        int deleted = -1;
        api1->Delete(server, StBypassApi::DoneCallback([&deleted](int e) { deleted = e; }));
        s.Run(MicroSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(deleted, ST_OK, "the server's handle deleted in an event");
        NS_TEST_EXPECT_MSG_EQ(api1->GetPendingCount(), 0, "nothing pending");
    }
};

/// Both sides event-driven, all inside simulation events.
class StBypassAsyncTest : public TestCase
{
  public:
    StBypassAsyncTest()
        : TestCase("event-driven Connect Accept Rx Flush Close Delete inside simulation events")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        Ptr<StBypassApi> api0 = s.proto[0]->GetBypass();
        Ptr<StBypassApi> api1 = s.proto[1]->GetBypass();
        st_chandle_t client = nullptr;
        st_chandle_t server = nullptr;
        api0->Create(&client);
        api1->Create(&server);
        std::vector<uint8_t> src(100, 0x5A);
        std::vector<uint8_t> dst(4096, 0);
        int mx = 0;
        std::vector<std::string> steps;
        uint8_t payloadSeen = 0;
        int64_t flushed = -1;

        Simulator::Schedule(MicroSeconds(1), [&]() {
            st_listen(server, nullptr, "4001");
            api1->Accept(server, StBypassApi::DoneCallback([&](int e) {
                             steps.push_back("accept " + std::to_string(e));
                             st_mhandle_t m = nullptr;
                             st_map(server, ST_PIN_RX, dst.data(), dst.size(), 0, -1, &m, &mx);
                             api1->Rx(server,
                                      Seconds(-1),
                                      StBypassApi::RxCallback(
                                          [&](int e, const st_header_t& h, const uint8_t* p) {
                                              steps.push_back("rx " + std::to_string(e) + " op " +
                                                              std::to_string(h.opflags >> 11));
                                              payloadSeen = p != nullptr ? p[31] : 0;
                                          }));
                         }));
        });
        Simulator::Schedule(MicroSeconds(2), [&]() {
            api0->Connect(client, "10.1.1.2", "4001", StBypassApi::DoneCallback([&](int e) {
                              steps.push_back("connect " + std::to_string(e));
                              // An RS with a 32-byte optional payload, to the server's st_rx.
                              st_header_t rs = CHeader(st::StOp::Rmr, 0);
                              rs.s_id = 5;
                              uint8_t pay[32] = {};
                              pay[31] = 0xAB;
                              st_tx(client, &rs, pay, 0, 0, 0);
                              api0->Flush(
                                  client,
                                  -1,
                                  StBypassApi::FlushCallback([&](int e, int64_t n) {
                                      steps.push_back("flush " + std::to_string(e));
                                      flushed = n;
                                      api0->Close(client, StBypassApi::DoneCallback([&](int e) {
                                                      steps.push_back("close " + std::to_string(e));
                                                      api0->Delete(client,
                                                                   StBypassApi::DoneCallback());
                                                  }));
                                  }));
                          }));
        });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const std::vector<std::string> expected{"accept 0",
                                                "connect 0",
                                                "flush 0",
                                                "rx 0 op 19",
                                                "close 0"};
        std::string all;
        for (const auto& x : steps)
        {
            all += x + "; ";
        }
        NS_TEST_EXPECT_MSG_EQ((steps == expected), true, "steps in order: " << all);
        NS_TEST_EXPECT_MSG_EQ(payloadSeen, 0xAB, "the optional payload reached st_rx");
        NS_TEST_EXPECT_MSG_EQ(flushed, 2, "RC and RMR sent");
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(), ">RC <CA >RMR >RD <DA >DC", "on the wire");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[2].len, 72u, "RMR with its 32-byte payload");
        NS_TEST_EXPECT_MSG_EQ(api0->GetPendingCount() + api1->GetPendingCount(),
                              0u,
                              "nothing left pending");
    }
};

/// Every option: before the connection, the effect on RC/CA, after it.
class StBypassOptionsTest : public TestCase
{
  public:
    StBypassOptionsTest()
        : TestCase("st_setopt and st_getopt with every ST_OPT option, checked on RC and CA")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        BlockingAllowed blocking;
        Ptr<StBypassApi> api0 = s.proto[0]->GetBypass();
        Ptr<StBypassApi> api1 = s.proto[1]->GetBypass();
        st_chandle_t c = nullptr;
        st_chandle_t l = nullptr;
        api0->Create(&c);
        api1->Create(&l);
        auto set = [](st_chandle_t h, int opt, int v) { return st_setopt(h, opt, &v); };
        auto get = [](st_chandle_t h, int opt) {
            int v = -12345;
            return st_getopt(h, opt, &v) == ST_OK ? v : -12345;
        };
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_KEY_LOCAL, 0x1234), ST_OK, "KEY_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_KEY_LOCAL, 0), ST_EINVAL, "key 0 is never valid");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_RX_SLOTS, 40), ST_OK, "RX_SLOTS");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_RX_WINDOW_LOCAL, 100), ST_OK, "RX_WINDOW_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_RX_WINDOW_LOCAL), 40, "min(window, RX_SLOTS)");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_PORT_LOCAL, 3333), ST_OK, "PORT_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_MAXSTU_LOCAL, 13), ST_OK, "MAXSTU_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_BUFSIZE_LOCAL, 12), ST_OK, "BUFSIZE_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_BUFSIZE_LOCAL, 7), ST_EINVAL, "below 2^8");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_IANA_LOCAL, 80), ST_OK, "IANA_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_IANA_REMOTE, 81), ST_OK, "IANA_REMOTE");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_PORTLEN_LOCAL, 1), ST_OK, "PORTLEN_LOCAL 1");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_PORTLEN_REMOTE, 2), ST_EACCES, "learned from CA");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_THREAD_SAFETY, 1), ST_EINVAL, "level 0 only");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_CHANNELS, 0x0C), ST_OK, "CHANNELS");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_BUFX_BASE, 0), ST_OK, "BUFX_BASE");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_BUFX_COUNT, 64), ST_OK, "BUFX_COUNT");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_CTS_REQ, 8), ST_OK, "CTS_REQ");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_MAX_BLOCK, 16), ST_OK, "MAX_BLOCK");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_DATA_VC, 2), ST_OK, "DATA_VC");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_ETHERTYPE, 0x0800), ST_OK, "ETHERTYPE");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_BYPASS, 1), ST_OK, "BYPASS");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_KEY_REMOTE, 1), ST_EACCES, "KEY_REMOTE read-only");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_KEY_REMOTE), -12345, "no remote key yet");
        NS_TEST_EXPECT_MSG_EQ(set(c, 4242, 1), ST_ENOPROTOOPT, "unknown option");

        NS_TEST_ASSERT_MSG_EQ(set(l, ST_OPT_RX_WINDOW_LOCAL, 77), ST_OK, "server window");
        st_listen(l, nullptr, "4002");
        api1->Accept(l, StBypassApi::DoneCallback([](int) {}));
        NS_TEST_ASSERT_MSG_EQ(st_connect(c, "10.1.1.2", "4002"), ST_OK, "connected");
        const st::StHeader& rc = s.log.ops[0].h;
        const st::StHeader& ca = s.log.ops[1].h;
        NS_TEST_EXPECT_MSG_EQ(rc.offset, 0x1234u, "I_Key from KEY_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(rc.param, 40, "I_Slots from RX_WINDOW_LOCAL and RX_SLOTS");
        NS_TEST_EXPECT_MSG_EQ(rc.sPort, 3333, "I_Port from PORT_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(rc.bufx, 12u, "I_Bufsize");
        NS_TEST_EXPECT_MSG_EQ(rc.sync, 12u, "I_Max_STU = min(Max_STU, Bufsize)");
        NS_TEST_EXPECT_MSG_EQ(rc.mx, 0x0800, "EtherType in RC");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_KEY_REMOTE), static_cast<int>(ca.offset), "R_Key");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_RX_WINDOW_REMOTE), 77, "R_Slots");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_PORT_REMOTE), ca.sPort, "remote port: the VC's");
        NS_TEST_EXPECT_MSG_EQ(rc.dKey, 4002u, "the service in the RC's ULP-Port field");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_BUFSIZE_REMOTE), 14, "remote Bufsize");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_MAXSTU_REMOTE), 14, "remote Max_STU");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_PORT_LOCAL), 3333, "local port");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_KEY_LOCAL), 0x1234, "local key");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_MAXSTU_LOCAL), 13, "local Max_STU");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_BUFSIZE_LOCAL), 12, "local Bufsize");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_RX_SLOTS), 40, "RX_SLOTS");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_IANA_LOCAL), 80, "IANA_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_IANA_REMOTE), 4002, "IANA_REMOTE = service");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_PORTLEN_LOCAL), 1, "PORTLEN_LOCAL");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_PORTLEN_REMOTE), 1, "PORTLEN_REMOTE (server's)");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_THREAD_SAFETY), 0, "THREAD_SAFETY");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_CHANNELS), 0x0C, "CHANNELS");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_BUFX_BASE), 0, "BUFX_BASE");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_BUFX_COUNT), 64, "BUFX_COUNT");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_CTS_REQ), 8, "CTS_REQ");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_MAX_BLOCK), 16, "MAX_BLOCK");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_DATA_VC), 2, "DATA_VC");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_ETHERTYPE), 0x0800, "ETHERTYPE");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_BYPASS), 1, "BYPASS");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_BUFSIZE_LOCAL, 13), ST_EACCES, "not after connect");
        NS_TEST_EXPECT_MSG_EQ(set(c, ST_OPT_BUFX_COUNT, 32), ST_OK, "Bufx range may shrink");
        NS_TEST_EXPECT_MSG_EQ(st_delete(c), ST_OK, "st_delete closes");
        s.Run(MicroSeconds(10)); // the DC queued by the close goes out
        NS_TEST_EXPECT_MSG_EQ(s.log.OpsOf(0), "RC RD DC", "closed by st_delete");
    }
};

/// Host and service names in st_listen/st_connect.
class StBypassNamesTest : public TestCase
{
  public:
    StBypassNamesTest()
        : TestCase("names: st_listen and st_connect take host and service names from the "
                   "node's and the global StNameTable; unknown names are refused; the "
                   "service (IANA) port differs from the VC's ST port")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        BlockingAllowed blocking;
        StHelper::AddService("st-data", 4100);                // every node
        StHelper::AddHost("server", s.ip[1], s.nodes.Get(0)); // node 0 only
        Ptr<StBypassApi> api0 = s.proto[0]->GetBypass();
        Ptr<StBypassApi> api1 = s.proto[1]->GetBypass();
        st_chandle_t c = nullptr;
        st_chandle_t l = nullptr;
        st_chandle_t other = nullptr;
        api0->Create(&c);
        api1->Create(&l);
        api1->Create(&other);
        auto get = [](st_chandle_t h, int opt) {
            int v = -12345;
            return st_getopt(h, opt, &v) == ST_OK ? v : -12345;
        };
        NS_TEST_EXPECT_MSG_EQ(st_listen(l, nullptr, "no-such-service"), ST_EINVAL, "unknown");
        NS_TEST_EXPECT_MSG_EQ(st_listen(l, nullptr, "st-data"), ST_OK, "listen by name");
        NS_TEST_EXPECT_MSG_EQ(get(l, ST_OPT_IANA_LOCAL), 4100, "the service's port");
        api1->Accept(l, StBypassApi::DoneCallback([](int) {}));
        // Node 1 does not know "server" (node 0's table); nobody knows "nobody".
        NS_TEST_EXPECT_MSG_EQ(st_connect(other, "server", "st-data"),
                              ST_EHOSTUNREACH,
                              "another node's name");
        NS_TEST_EXPECT_MSG_EQ(st_connect(c, "nobody", "st-data"), ST_EHOSTUNREACH, "no host");
        NS_TEST_EXPECT_MSG_EQ(st_connect(c, "server", "nothing"), ST_EINVAL, "no service");
        const int connected = st_connect(c, "server", "st-data");
        NS_TEST_EXPECT_MSG_EQ(connected, ST_OK, "connect by names");
        // The handles go whatever happened (they name the stack the simulation destroys).
        auto cleanup = [&]() {
            st_delete(c);
            st_delete(l);
            st_delete(other);
            s.Run(MicroSeconds(10));
        };
        if (connected != ST_OK || s.log.ops.size() < 2)
        {
            cleanup();
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[0].h.dPort, 0, "RC to Port 0");
        NS_TEST_EXPECT_MSG_EQ(s.log.ops[0].h.dKey, 4100u, "naming service 4100");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_IANA_REMOTE), 4100, "IANA port: the service");
        NS_TEST_EXPECT_MSG_EQ(get(c, ST_OPT_PORT_REMOTE),
                              static_cast<int>(s.log.ops[1].h.sPort),
                              "ST port: the VC's own, from the CA");
        NS_TEST_EXPECT_MSG_NE(get(c, ST_OPT_PORT_REMOTE), 4100, "not the service's");
        NS_TEST_EXPECT_MSG_EQ(get(l, ST_OPT_PORT_LOCAL), get(c, ST_OPT_PORT_REMOTE), "same VC");
        NS_TEST_EXPECT_MSG_EQ(get(l, ST_OPT_IANA_LOCAL), 4100, "accepted for the service");
        cleanup();
    }
};

} // namespace

/// The Bypass API in simulation.
class StBypassTestSuite : public TestSuite
{
  public:
    StBypassTestSuite()
        : TestSuite("st-bypass", SYSTEM)
    {
        AddTestCase(new StBypassBlockingTest, TestCase::QUICK);
        AddTestCase(new StBypassAsyncTest, TestCase::QUICK);
        AddTestCase(new StBypassOptionsTest, TestCase::QUICK);
        AddTestCase(new StBypassNamesTest, TestCase::QUICK);
    }
};

static StBypassTestSuite g_stBypassTestSuite; //!< registers the suite
