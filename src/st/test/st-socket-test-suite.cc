/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-socket-test-suite.cc: ST stream sockets (StSocket through StSocketFactory): ns-3's
 * BulkSendApplication and OnOffApplication to a PacketSink over ST, every byte counted; a
 * pattern stream through user sockets, checked byte by byte, with a slow reader (flow
 * control) and several writes in flight; the socket's errors.
 */
#include "st-test-harness.h"

#include "ns3/applications-module.h"

using namespace ns3;
using namespace ns3::sttest;

namespace
{

/// BulkSendApplication -> PacketSink with Protocol ns3::StSocketFactory.
class StSocketBulkSendTest : public TestCase
{
  public:
    /// \param link GSN or CSMA
    explicit StSocketBulkSendTest(StPair::Link link)
        : TestCase(std::string("BulkSendApplication to PacketSink over ST sockets on ") +
                   (link == StPair::GSN ? "GSN" : "CSMA") + ": every byte arrives"),
          m_link(link)
    {
    }

  private:
    void DoRun() override
    {
        StPair s(m_link);
        const uint64_t total = 1000003; // not a whole number of chunks or packets
        PacketSinkHelper sink("ns3::StSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 5000));
        ApplicationContainer sa = sink.Install(s.nodes.Get(1));
        BulkSendHelper bulk("ns3::StSocketFactory", InetSocketAddress(s.ip[1], 5000));
        bulk.SetAttribute("MaxBytes", UintegerValue(total));
        bulk.SetAttribute("SendSize", UintegerValue(1400));
        ApplicationContainer ca = bulk.Install(s.nodes.Get(0));
        sa.Start(Seconds(0));
        ca.Start(MicroSeconds(10));
        uint64_t sent = 0;
        ca.Get(0)->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>>(
                [&sent](Ptr<const Packet> p) { sent += p->GetSize(); }));
        s.Run(Seconds(2));
        Ptr<PacketSink> ps = DynamicCast<PacketSink>(sa.Get(0));
        NS_TEST_EXPECT_MSG_EQ(sent, total, "BulkSend handed every byte to the socket");
        NS_TEST_EXPECT_MSG_EQ(ps->GetTotalRx(), total, "the sink received every byte");
        NS_TEST_EXPECT_MSG_EQ(ps->GetAcceptedSockets().size(), 1u, "one connection accepted");
        NS_TEST_EXPECT_MSG_EQ(s.proto[1]->GetCounters().Dropped(), 0u, "nothing dropped");
        // Writes of the stream: RTS/CTS/DATA; the VC was torn down after the last byte.
        NS_TEST_EXPECT_MSG_GT(s.proto[0]->GetCounters().Get(st::StStat::TxDataBytes),
                              total - 1,
                              "the bytes went as ST DATA");
        NS_TEST_EXPECT_MSG_GT(s.log.Count("RD", 0), 0u, "the sender closed the VC (RD)");
    }

    StPair::Link m_link; ///< the link
};

/// OnOffApplication -> PacketSink over ST sockets.
class StSocketOnOffTest : public TestCase
{
  public:
    StSocketOnOffTest()
        : TestCase("OnOffApplication to PacketSink over ST sockets: the sink gets what was sent")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        PacketSinkHelper sink("ns3::StSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 6000));
        ApplicationContainer sa = sink.Install(s.nodes.Get(1));
        OnOffHelper onoff("ns3::StSocketFactory", InetSocketAddress(s.ip[1], 6000));
        onoff.SetConstantRate(DataRate("200Mbps"), 1000);
        ApplicationContainer ca = onoff.Install(s.nodes.Get(0));
        ca.Start(MicroSeconds(10));
        ca.Stop(MilliSeconds(5));
        uint64_t sent = 0;
        ca.Get(0)->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>>(
                [&sent](Ptr<const Packet> p) { sent += p->GetSize(); }));
        s.Run(Seconds(1));
        NS_TEST_EXPECT_MSG_GT(sent, 100000u, "OnOff sent for 5 ms at 200 Mbit/s");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<PacketSink>(sa.Get(0))->GetTotalRx(),
                              sent,
                              "the sink received what OnOff sent");
    }
};

/// A pattern through user sockets: several writes in flight, a slow reader.
class StSocketStreamTest : public TestCase
{
  public:
    StSocketStreamTest()
        : TestCase("user sockets: a 300000-byte pattern arrives in order and intact through "
                   "small buffers and a slow reader; data-sent, send and close callbacks")
    {
    }

  private:
    static uint8_t Pattern(uint64_t i)
    {
        return static_cast<uint8_t>((i * 7 + i / 251 + 3) & 0xFF);
    }

    void Fill()
    {
        while (m_queued < TOTAL && m_client->GetTxAvailable() > 0)
        {
            const uint32_t n = static_cast<uint32_t>(
                std::min<uint64_t>({TOTAL - m_queued, 2999, m_client->GetTxAvailable()}));
            std::vector<uint8_t> b(n);
            for (uint32_t k = 0; k < n; ++k)
            {
                b[k] = Pattern(m_queued + k);
            }
            const int r = m_client->Send(Create<Packet>(b.data(), n));
            NS_TEST_ASSERT_MSG_EQ(r, static_cast<int>(n), "Send takes what fits");
            m_queued += n;
        }
        if (m_queued == TOTAL && !m_closed)
        {
            m_closed = true;
            m_client->Close(); // the rest is still in flight: sent before the teardown
        }
    }

    void Read()
    {
        // A slow reader: at most 5000 bytes every 100 us.
        if (!m_server)
        {
            return;
        }
        Ptr<Packet> p = m_server->Recv(5000, 0);
        if (p)
        {
            std::vector<uint8_t> b(p->GetSize());
            p->CopyData(b.data(), b.size());
            for (uint8_t x : b)
            {
                m_wrong += x != Pattern(m_received) ? 1 : 0;
                ++m_received;
            }
            m_maxUnread = std::max(m_maxUnread, m_server->GetRxAvailable() + p->GetSize());
        }
        if (m_received < TOTAL)
        {
            Simulator::Schedule(MicroSeconds(100), &StSocketStreamTest::Read, this);
        }
    }

    void DoRun() override
    {
        StPair s;
        Config::SetDefault("ns3::StSocket::ChunkSize", UintegerValue(8192));
        Config::SetDefault("ns3::StSocket::SndBufSize", UintegerValue(32768));
        Config::SetDefault("ns3::StSocket::RcvBufSize", UintegerValue(16384));
        Ptr<Socket> listener = Socket::CreateSocket(s.nodes.Get(1), StSocketFactory::GetTypeId());
        NS_TEST_ASSERT_MSG_EQ(listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 7000)),
                              0,
                              "bind");
        NS_TEST_ASSERT_MSG_EQ(listener->Listen(), 0, "listen");
        bool peerClosed = false;
        Address from;
        listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>(
                [this, &from, &peerClosed](Ptr<Socket> sock, const Address& a) {
                    m_server = sock;
                    from = a;
                    sock->SetCloseCallbacks(Callback<void, Ptr<Socket>>(
                                                [&peerClosed](Ptr<Socket>) { peerClosed = true; }),
                                            MakeNullCallback<void, Ptr<Socket>>());
                    Simulator::Schedule(MicroSeconds(100), &StSocketStreamTest::Read, this);
                }));

        m_client = Socket::CreateSocket(s.nodes.Get(0), StSocketFactory::GetTypeId());
        NS_TEST_EXPECT_MSG_EQ(m_client->GetSocketType(), Socket::NS3_SOCK_STREAM, "a stream");
        uint64_t dataSent = 0;
        bool connected = false;
        m_client->SetConnectCallback(
            Callback<void, Ptr<Socket>>([&connected](Ptr<Socket>) { connected = true; }),
            MakeNullCallback<void, Ptr<Socket>>());
        m_client->SetDataSentCallback(Callback<void, Ptr<Socket>, uint32_t>(
            [&dataSent](Ptr<Socket>, uint32_t b) { dataSent += b; }));
        m_client->SetSendCallback(
            Callback<void, Ptr<Socket>, uint32_t>([this](Ptr<Socket>, uint32_t) { Fill(); }));
        NS_TEST_ASSERT_MSG_EQ(m_client->Bind(), 0, "bind");
        NS_TEST_ASSERT_MSG_EQ(m_client->Connect(InetSocketAddress(s.ip[1], 7000)), 0, "connect");
        s.Run(Seconds(2));

        NS_TEST_EXPECT_MSG_EQ(connected, true, "connect callback");
        NS_TEST_ASSERT_MSG_NE(m_server, nullptr, "accepted");
        NS_TEST_EXPECT_MSG_EQ(InetSocketAddress::ConvertFrom(from).GetIpv4(), s.ip[0], "from A");
        NS_TEST_EXPECT_MSG_EQ(m_received, TOTAL, "every byte read");
        NS_TEST_EXPECT_MSG_EQ(m_wrong, 0u, "every byte as written, in order");
        NS_TEST_EXPECT_MSG_EQ(dataSent, TOTAL, "data-sent callbacks add up");
        NS_TEST_EXPECT_MSG_EQ(peerClosed, true, "the reader saw the writer close");
        // Flow control: the reader never held much more than its buffers.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(m_maxUnread, 16384u, "unread bytes within RcvBufSize");
        NS_TEST_EXPECT_MSG_GT(s.log.Count("RA", 1), 0u, "a paused writer (RA R=0)");
        m_client = nullptr;
        m_server = nullptr;
        Config::Reset();
    }

    static constexpr uint64_t TOTAL = 300000; ///< bytes of the stream
    Ptr<Socket> m_client;                     ///< the writer
    Ptr<Socket> m_server;                     ///< the accepted socket
    uint64_t m_queued{0};                     ///< bytes handed to Send
    bool m_closed{false};                     ///< Close() called
    uint64_t m_received{0};                   ///< bytes read
    uint64_t m_wrong{0};                      ///< bytes not the pattern
    uint32_t m_maxUnread{0};                  ///< most bytes waiting for Recv
};

/// Mistakes and refusals.
class StSocketErrorTest : public TestCase
{
  public:
    StSocketErrorTest()
        : TestCase("socket errors: no listener, send before connect, port in use, port 0, "
                   "IPv6, a Send larger than the buffer")
    {
    }

  private:
    void DoRun() override
    {
        StPair s;
        const TypeId tid = StSocketFactory::GetTypeId();
        // No listener: the RC is refused (CA R=1) and the connect fails.
        Ptr<Socket> c = Socket::CreateSocket(s.nodes.Get(0), tid);
        bool failed = false;
        c->SetConnectCallback(
            MakeNullCallback<void, Ptr<Socket>>(),
            Callback<void, Ptr<Socket>>([&failed](Ptr<Socket>) { failed = true; }));
        NS_TEST_EXPECT_MSG_EQ(c->Send(Create<Packet>(10), 0), -1, "send before connect");
        NS_TEST_EXPECT_MSG_EQ(c->GetErrno(), Socket::ERROR_NOTCONN, "not connected");
        NS_TEST_EXPECT_MSG_EQ(c->Connect(InetSocketAddress(s.ip[1], 4444)), 0, "RC sent");
        s.Run(MilliSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(failed, true, "connection failed");
        NS_TEST_EXPECT_MSG_EQ(s.log.Ops(), ">RC <CA(R)", "refused on the wire");
        Address a;
        NS_TEST_EXPECT_MSG_EQ(c->GetPeerName(a), -1, "no peer");

        // Listening: port 0 is Port 0 (RCs arrive there), a port in use, IPv6.
        Ptr<Socket> l = Socket::CreateSocket(s.nodes.Get(1), tid);
        l->Bind();
        NS_TEST_EXPECT_MSG_EQ(l->Listen(), -1, "no listener on port 0");
        NS_TEST_EXPECT_MSG_EQ(l->GetErrno(), Socket::ERROR_INVAL, "invalid");
        Ptr<Socket> l1 = Socket::CreateSocket(s.nodes.Get(1), tid);
        l1->Bind(InetSocketAddress(Ipv4Address::GetAny(), 4445));
        NS_TEST_EXPECT_MSG_EQ(l1->Listen(), 0, "listen");
        Ptr<Socket> l2 = Socket::CreateSocket(s.nodes.Get(1), tid);
        l2->Bind(InetSocketAddress(Ipv4Address::GetAny(), 4445));
        NS_TEST_EXPECT_MSG_EQ(l2->Listen(), -1, "port in use");
        NS_TEST_EXPECT_MSG_EQ(l2->GetErrno(), Socket::ERROR_ADDRINUSE, "address in use");
        NS_TEST_EXPECT_MSG_EQ(l2->Bind6(), -1, "no IPv6");
        NS_TEST_EXPECT_MSG_EQ(l2->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 1)),
                              -1,
                              "no IPv6 address");
        NS_TEST_EXPECT_MSG_EQ(l2->GetErrno(), Socket::ERROR_AFNOSUPPORT, "address family");

        // A Send larger than SndBufSize: refused whole, nothing queued.
        Ptr<Socket> w = Socket::CreateSocket(s.nodes.Get(0), tid);
        w->Connect(InetSocketAddress(s.ip[1], 4445));
        s.Run(MilliSeconds(1));
        const uint32_t room = w->GetTxAvailable();
        NS_TEST_EXPECT_MSG_EQ(room, 262144u, "SndBufSize free once connected");
        NS_TEST_EXPECT_MSG_EQ(w->Send(Create<Packet>(room + 1), 0), -1, "too large");
        NS_TEST_EXPECT_MSG_EQ(w->GetErrno(), Socket::ERROR_MSGSIZE, "message size");
        NS_TEST_EXPECT_MSG_EQ(w->GetTxAvailable(), room, "nothing queued");
        NS_TEST_EXPECT_MSG_EQ(w->Send(Create<Packet>(room), 0), static_cast<int>(room), "fits");
        NS_TEST_EXPECT_MSG_EQ(w->GetTxAvailable(), 0u, "full");
        w->Close();
        l1->Close();
        s.Run(MilliSeconds(5));
    }
};

/// The suite.
class StSocketTestSuite : public TestSuite
{
  public:
    StSocketTestSuite()
        : TestSuite("st-socket", SYSTEM)
    {
        AddTestCase(new StSocketBulkSendTest(StPair::GSN), TestCase::QUICK);
        AddTestCase(new StSocketBulkSendTest(StPair::CSMA), TestCase::QUICK);
        AddTestCase(new StSocketOnOffTest, TestCase::QUICK);
        AddTestCase(new StSocketStreamTest, TestCase::QUICK);
        AddTestCase(new StSocketErrorTest, TestCase::QUICK);
    }
};

static StSocketTestSuite g_stSocketTestSuite; //!< registers the suite

} // namespace
