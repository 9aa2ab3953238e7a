/*
 * st-bypass-test.cc: the Bypass API (st_create ... st_version) on two engines joined by an
 * in-memory loopback driver with a fake clock. Single-threaded: while one side blocks in
 * the driver's Wait, the driver runs the other side's engine passively, so a blocking
 * st_connect on A is answered by B's engine.
 */
#include "st-bypass-stack.h"
#include "st-bypass.h"

#include <boost/test/unit_test.hpp>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

using namespace ns3::st;

namespace
{

struct Hub;

/// One side's driver: frames to the other side go through the hub.
class LoopbackDriver : public StDriver
{
  public:
    LoopbackDriver(Hub& hub, int side)
        : m_hub(hub),
          m_side(side)
    {
    }

    uint64_t Now() override;
    void Send(const StTransmit& t) override;
    bool Wait(uint64_t deadline, StPeerAddress& from, std::vector<uint8_t>& bytes) override;

    bool Resolve(const char* hostname, StPeerAddress& out) override
    {
        std::string n = hostname;
        if (n == "hostA" || n == "10.0.0.1")
        {
            out = 1;
            return true;
        }
        if (n == "hostB" || n == "10.0.0.2")
        {
            out = 2;
            return true;
        }
        return false;
    }

    bool ResolveService(const char* service, uint16_t& port) override
    {
        if (std::string(service) == "st-test")
        {
            port = 3000;
            return true;
        }
        return false;
    }

  private:
    Hub& m_hub;
    int m_side;
};

/// The wire and the shared fake clock.
struct Hub
{
    uint64_t now{0};
    std::deque<std::vector<uint8_t>> inbox[2]; // frames waiting for side 0 / side 1
    StBypassStack* stacks[2]{nullptr, nullptr};
    std::vector<std::string> ops; // "A:RC", "B:CA", ...
    std::function<bool(const StHeader&)> drop;

    /// Let side \p s's engine handle what it has (it is not blocked in a call).
    void RunPassive(int s)
    {
        StBypassStack* st = stacks[s];
        st->Flush();
        while (!inbox[s].empty())
        {
            std::vector<uint8_t> b = std::move(inbox[s].front());
            inbox[s].pop_front();
            st->GetEndpoint().Receive(now, s == 0 ? 2 : 1, b.data(), b.size());
            st->Flush();
        }
        if (now >= st->GetEndpoint().PollTimeout())
        {
            st->GetEndpoint().HandleTimeout(now);
            st->Flush();
        }
    }
};

uint64_t
LoopbackDriver::Now()
{
    return m_hub.now;
}

void
LoopbackDriver::Send(const StTransmit& t)
{
    StHeader h;
    StHeader::Decode(t.bytes.data(), t.bytes.size(), h);
    m_hub.ops.push_back(std::string(m_side == 0 ? "A:" : "B:") + h.Name());
    if (m_hub.drop && m_hub.drop(h))
    {
        return;
    }
    int to = t.peer == 1 ? 0 : 1;
    std::vector<uint8_t> bytes = t.bytes;
    bytes.resize(bytes.size() + t.virtualBytes); // memory without bytes: zeros
    m_hub.inbox[to].push_back(bytes);
}

bool
LoopbackDriver::Wait(uint64_t deadline, StPeerAddress& from, std::vector<uint8_t>& bytes)
{
    const int other = 1 - m_side;
    for (int guard = 0; guard < 1000000; ++guard)
    {
        if (!m_hub.inbox[m_side].empty())
        {
            bytes = std::move(m_hub.inbox[m_side].front());
            m_hub.inbox[m_side].pop_front();
            from = m_side == 0 ? 2 : 1;
            return true;
        }
        m_hub.RunPassive(other);
        if (!m_hub.inbox[m_side].empty())
        {
            continue;
        }
        // Nothing moves at this instant: advance the clock to the next thing that happens.
        uint64_t next = std::min(deadline, m_hub.stacks[other]->GetEndpoint().PollTimeout());
        if (next <= m_hub.now)
        {
            return false; // our own deadline (or timer) is due
        }
        m_hub.now = next;
    }
    return false;
}

struct Fixture
{
    Hub hub;
    LoopbackDriver da{hub, 0};
    LoopbackDriver db{hub, 1};
    StBypassStack sa{da};
    StBypassStack sb{db};
    st_chandle_t server{nullptr};
    st_chandle_t client{nullptr};

    Fixture()
    {
        hub.stacks[0] = &sa;
        hub.stacks[1] = &sb;
    }

    void Connect()
    {
        BOOST_REQUIRE_EQUAL(st_create_on(&sb, &server), ST_OK);
        BOOST_REQUIRE_EQUAL(st_create_on(&sa, &client), ST_OK);
        BOOST_REQUIRE_EQUAL(st_listen(server, nullptr, "3000"), ST_OK);
        BOOST_REQUIRE_EQUAL(st_connect(client, "hostB", "3000"), ST_OK);
        BOOST_REQUIRE_EQUAL(st_accept(server), ST_OK);
    }

    ~Fixture()
    {
        if (client != nullptr)
        {
            st_delete(client);
        }
        if (server != nullptr)
        {
            st_delete(server);
        }
    }
};

st_header_t
Header(StOp op, uint16_t flags = 0)
{
    st_header_t h;
    std::memset(&h, 0, sizeof(h));
    h.opflags = static_cast<uint16_t>((static_cast<uint16_t>(op) << 11) | flags);
    return h;
}

} // namespace

BOOST_AUTO_TEST_SUITE(st_bypass)

BOOST_AUTO_TEST_CASE(connect_accept_and_options)
{
    Fixture f;
    int v = 40;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sb, &f.server), ST_OK);
    BOOST_CHECK_EQUAL(st_setopt(f.server, ST_OPT_RX_WINDOW_LOCAL, &v), ST_OK);
    v = 12;
    BOOST_CHECK_EQUAL(st_setopt(f.server, ST_OPT_BUFSIZE_LOCAL, &v), ST_OK);
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &f.client), ST_OK);
    v = 0x1234;
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_KEY_LOCAL, &v), ST_OK);
    BOOST_CHECK_EQUAL(st_getopt(f.client, ST_OPT_KEY_REMOTE, &v), ST_ENOTCONN);
    BOOST_REQUIRE_EQUAL(st_listen(f.server, nullptr, "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_connect(f.client, "hostB", "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_accept(f.server), ST_OK);
    BOOST_CHECK(f.hub.ops == (std::vector<std::string>{"A:RC", "B:CA"}));

    int a = 0, b = 0;
    st_getopt(f.client, ST_OPT_KEY_REMOTE, &a);
    st_getopt(f.server, ST_OPT_KEY_LOCAL, &b);
    BOOST_CHECK_EQUAL(a, b);
    st_getopt(f.server, ST_OPT_KEY_REMOTE, &a);
    BOOST_CHECK_EQUAL(a, 0x1234);
    st_getopt(f.client, ST_OPT_RX_WINDOW_REMOTE, &a);
    BOOST_CHECK_EQUAL(a, 40);
    st_getopt(f.client, ST_OPT_BUFSIZE_REMOTE, &a);
    BOOST_CHECK_EQUAL(a, 12);
    // The service is the IANA (ULP) port; the VC's ST ports are its own (RC to Port 0).
    st_getopt(f.client, ST_OPT_PORT_REMOTE, &a);
    st_getopt(f.server, ST_OPT_PORT_LOCAL, &b);
    BOOST_CHECK_EQUAL(a, b);
    BOOST_CHECK(a != 3000 && a != 0);
    st_getopt(f.client, ST_OPT_IANA_REMOTE, &a);
    BOOST_CHECK_EQUAL(a, 3000);
    st_getopt(f.server, ST_OPT_PORT_REMOTE, &a);
    st_getopt(f.client, ST_OPT_PORT_LOCAL, &b);
    BOOST_CHECK_EQUAL(a, b);
    st_getopt(f.server, ST_OPT_IANA_LOCAL, &a);
    BOOST_CHECK_EQUAL(a, 3000);
    st_getopt(f.client, ST_OPT_BYPASS, &a);
    BOOST_CHECK_EQUAL(a, 1);
    // Read-only, after-connect and unknown options.
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_KEY_REMOTE, &a), ST_EACCES);
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_BUFSIZE_LOCAL, &a), ST_EACCES);
    BOOST_CHECK_EQUAL(st_getopt(f.client, 4242, &a), ST_ENOPROTOOPT);
    BOOST_CHECK_EQUAL(st_setopt(f.client, 4242, &a), ST_ENOPROTOOPT);
    a = 2;
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_PORTLEN_LOCAL, &a), ST_EACCES);
    a = 1;
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_THREAD_SAFETY, &a), ST_EINVAL);
    for (int opt : {ST_OPT_BUFSIZE_LOCAL,
                    ST_OPT_BUFX_BASE,
                    ST_OPT_BUFX_COUNT,
                    ST_OPT_CHANNELS,
                    ST_OPT_IANA_LOCAL,
                    ST_OPT_IANA_REMOTE,
                    ST_OPT_KEY_LOCAL,
                    ST_OPT_MAXSTU_LOCAL,
                    ST_OPT_MAXSTU_REMOTE,
                    ST_OPT_PORT_LOCAL,
                    ST_OPT_PORTLEN_LOCAL,
                    ST_OPT_PORTLEN_REMOTE,
                    ST_OPT_RX_SLOTS,
                    ST_OPT_RX_WINDOW_LOCAL,
                    ST_OPT_THREAD_SAFETY})
    {
        BOOST_CHECK_EQUAL(st_getopt(f.client, opt, &a), ST_OK);
    }
    BOOST_CHECK(st_version() != nullptr && std::strlen(st_version()) > 0);
}

BOOST_AUTO_TEST_CASE(connect_refused_and_bad_host)
{
    Fixture f;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &f.client), ST_OK);
    BOOST_CHECK_EQUAL(st_connect(f.client, "nowhere", "3000"), ST_EHOSTUNREACH);
    BOOST_CHECK_EQUAL(st_connect(f.client, "hostB", "http"), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_connect(f.client, "hostB", "3001"), ST_ECONNREFUSED);
    BOOST_CHECK(f.hub.ops == (std::vector<std::string>{"A:RC", "B:CA"}));
}

BOOST_AUTO_TEST_CASE(service_names_through_the_driver)
{
    // A service name goes to the driver's table; a number never does; 0 is Port 0.
    Fixture f;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sb, &f.server), ST_OK);
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &f.client), ST_OK);
    BOOST_CHECK_EQUAL(st_listen(f.server, nullptr, "0"), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_listen(f.server, nullptr, "unknown"), ST_EINVAL);
    BOOST_REQUIRE_EQUAL(st_listen(f.server, nullptr, "st-test"), ST_OK);
    int port = 0;
    st_getopt(f.server, ST_OPT_IANA_LOCAL, &port);
    BOOST_CHECK_EQUAL(port, 3000);
    BOOST_REQUIRE_EQUAL(st_connect(f.client, "hostB", "st-test"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_accept(f.server), ST_OK);
    st_getopt(f.client, ST_OPT_IANA_REMOTE, &port);
    BOOST_CHECK_EQUAL(port, 3000);
}

BOOST_AUTO_TEST_CASE(connect_times_out)
{
    Fixture f;
    f.hub.drop = [](const StHeader&) { return true; };
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &f.client), ST_OK);
    BOOST_CHECK_EQUAL(st_connect(f.client, "hostB", "3000"), ST_ETIMEDOUT);
    BOOST_CHECK_EQUAL(f.hub.now, 4000000000ULL); // 1 s x (1 + 3 retries)
}

BOOST_AUTO_TEST_CASE(tx_rx_control_with_payload)
{
    Fixture f;
    f.Connect();
    st_header_t h = Header(StOp::Rts, StFlag::INTERRUPT);
    h.param = 7;
    h.s_id = 99;
    uint8_t pay[32];
    for (int i = 0; i < 32; ++i)
    {
        pay[i] = static_cast<uint8_t>(i * 3);
    }
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &h, pay, 0, 0, 0), ST_OK);
    st_header_t got;
    uint8_t gotPay[32] = {0};
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, gotPay, nullptr), ST_OK);
    BOOST_CHECK_EQUAL(got.opflags >> 11, 0x16);
    BOOST_CHECK(got.opflags & StFlag::INTERRUPT);
    BOOST_CHECK_EQUAL(got.param, 7);
    BOOST_CHECK_EQUAL(got.s_id, 99u);
    int key = 0;
    st_getopt(f.server, ST_OPT_KEY_LOCAL, &key);
    BOOST_CHECK_EQUAL(got.d_key, static_cast<uint32_t>(key)); // filled in by st_tx
    BOOST_CHECK_EQUAL(st_rx_payload(f.server), 1);
    BOOST_CHECK(std::memcmp(pay, gotPay, 32) == 0);
    // Without payload.
    h.s_id = 100;
    st_tx(f.client, &h, nullptr, 0, 0, 0);
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, gotPay, nullptr), ST_OK);
    BOOST_CHECK_EQUAL(st_rx_payload(f.server), 0);
    BOOST_CHECK_EQUAL(got.s_id, 100u);
    // Connection-management ops are not st_tx's.
    st_header_t rd = Header(StOp::Rd);
    BOOST_CHECK_EQUAL(st_tx(f.client, &rd, nullptr, 0, 0, 0), ST_EINVAL);
}

BOOST_AUTO_TEST_CASE(vectorized_ports)
{
    // The client's VC owns 4 ports, the server's 3 (ST_OPT_PORTLEN_LOCAL); each learns the
    // other's vector from RC/CA. st_tx may name any port of the two vectors; the receiver
    // takes an operation to any of its ports and drops one outside them (WrongPort).
    Fixture f;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sb, &f.server), ST_OK);
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &f.client), ST_OK);
    int v = 3;
    BOOST_CHECK_EQUAL(st_setopt(f.server, ST_OPT_PORTLEN_LOCAL, &v), ST_OK);
    v = 4;
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_PORTLEN_LOCAL, &v), ST_OK);
    v = 0;
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_PORTLEN_LOCAL, &v), ST_EINVAL);
    v = 257;
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_PORTLEN_LOCAL, &v), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_setopt(f.client, ST_OPT_PORTLEN_REMOTE, &v), ST_EACCES);
    BOOST_REQUIRE_EQUAL(st_listen(f.server, nullptr, "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_connect(f.client, "hostB", "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_accept(f.server), ST_OK);
    int len = 0;
    st_getopt(f.client, ST_OPT_PORTLEN_REMOTE, &len);
    BOOST_CHECK_EQUAL(len, 3);
    st_getopt(f.server, ST_OPT_PORTLEN_REMOTE, &len);
    BOOST_CHECK_EQUAL(len, 4);
    int cport = 0;
    int sport = 0;
    st_getopt(f.client, ST_OPT_PORT_LOCAL, &cport);
    st_getopt(f.server, ST_OPT_PORT_LOCAL, &sport);
    // The client's second VC takes the four ports after its first vector.
    st_chandle_t second = nullptr;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &second), ST_OK);
    v = 4;
    st_setopt(second, ST_OPT_PORTLEN_LOCAL, &v);
    st_chandle_t listener = nullptr;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sb, &listener), ST_OK);
    BOOST_REQUIRE_EQUAL(st_listen(listener, nullptr, "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_connect(second, "hostB", "3000"), ST_OK);
    int second_port = 0;
    st_getopt(second, ST_OPT_PORT_LOCAL, &second_port);
    BOOST_CHECK_EQUAL(second_port, cport + 4);
    st_delete(second);
    st_delete(listener);

    // An RTS from the client's fourth port to the server's third.
    st_header_t h = Header(StOp::Rts);
    h.d_port = static_cast<uint16_t>(sport + 2);
    h.s_port = static_cast<uint16_t>(cport + 3);
    h.s_id = 7;
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &h, nullptr, 0, 0, 0), ST_OK);
    st_header_t got;
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, nullptr, nullptr), ST_OK);
    BOOST_CHECK_EQUAL(got.d_port, sport + 2);
    BOOST_CHECK_EQUAL(got.s_port, cport + 3);
    BOOST_CHECK_EQUAL(got.s_id, 7u);
    // 0 = the first ports; ports outside the vectors are refused before anything is sent.
    h = Header(StOp::Rts);
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &h, nullptr, 0, 0, 0), ST_OK);
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, nullptr, nullptr), ST_OK);
    BOOST_CHECK_EQUAL(got.d_port, sport);
    BOOST_CHECK_EQUAL(got.s_port, cport);
    h.d_port = static_cast<uint16_t>(sport + 3);
    BOOST_CHECK_EQUAL(st_tx(f.client, &h, nullptr, 0, 0, 0), ST_EINVAL);
    h.d_port = 0;
    h.s_port = static_cast<uint16_t>(cport + 4);
    BOOST_CHECK_EQUAL(st_tx(f.client, &h, nullptr, 0, 0, 0), ST_EINVAL);
}

BOOST_AUTO_TEST_CASE(nop_reaches_st_rx)
{
    // st_rx gets every received header [SEED-API], a NOP as any other.
    Fixture f;
    f.Connect();
    st_header_t nop = Header(StOp::Nop);
    nop.s_id = 4711;
    uint8_t pay[32];
    std::memset(pay, 0xA5, sizeof(pay));
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &nop, pay, 0, 0, 0), ST_OK);
    st_header_t got;
    uint8_t gotPay[32] = {0};
    struct timeval tv = {1, 0};
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, gotPay, &tv), ST_OK);
    BOOST_CHECK_EQUAL(got.opflags >> 11, static_cast<int>(StOp::Nop));
    BOOST_CHECK_EQUAL(got.s_id, 4711u);
    BOOST_CHECK_EQUAL(st_rx_payload(f.server), 1);
    BOOST_CHECK(std::memcmp(pay, gotPay, 32) == 0);
    // Without a payload too; a NOP takes no slot, so none is left held.
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &nop, nullptr, 0, 0, 0), ST_OK);
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, gotPay, &tv), ST_OK);
    BOOST_CHECK_EQUAL(got.opflags >> 11, static_cast<int>(StOp::Nop));
    BOOST_CHECK_EQUAL(st_rx_payload(f.server), 0);
    BOOST_CHECK_EQUAL(f.sb.GetEndpoint().GetCounters().Dropped(), 0u);
    BOOST_CHECK_EQUAL(f.sb.GetEndpoint().GetCounters().Get(StRxVerdict::Accepted), 3u); // RC
    int64_t n = 0;
    BOOST_CHECK_EQUAL(st_flush(f.client, 0, &n), ST_OK);
    BOOST_CHECK_EQUAL(n, 3); // RC and two NOPs
}

BOOST_AUTO_TEST_CASE(handles_are_checked)
{
    Fixture f;
    f.Connect();
    st_header_t h = Header(StOp::Rts);
    st_header_t got;
    int v = 0;
    struct timeval zero = {0, 0};
    int64_t n = 0;
    st_mhandle_t mh = nullptr;
    int mx = 0;
    std::vector<uint8_t> mem(1 << 14);
    // The draft's spelling, st_tx(&chandle, ...), passes the address of the variable: it
    // compiles (st_chandle_t is void *) but is no handle.
    void* notHandles[] = {&f.client, &h, mem.data(), reinterpret_cast<void*>(0x1234567)};
    for (void* bad : notHandles)
    {
        BOOST_CHECK_EQUAL(st_tx(bad, &h, nullptr, 0, 0, 0), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_rx(bad, &got, nullptr, &zero), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_getopt(bad, ST_OPT_KEY_LOCAL, &v), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_setopt(bad, ST_OPT_KEY_LOCAL, &v), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_listen(bad, nullptr, "3001"), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_accept(bad), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_connect(bad, "hostB", "3000"), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_connect_start(bad, "hostB", "3000"), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_connect_result(bad), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_close(bad), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_close_start(bad), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_flush(bad, 0, &n), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_map(bad, ST_PIN_RX, mem.data(), mem.size(), 0, -1, &mh, &mx),
                          ST_EINVAL);
        BOOST_CHECK_EQUAL(st_unmap(bad), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_delete(bad), ST_EINVAL);
        BOOST_CHECK_EQUAL(st_accept_ready(bad), -1);
        BOOST_CHECK_EQUAL(st_rx_ready(bad), 1); // st_rx would return (EINVAL) at once
        BOOST_CHECK_EQUAL(st_flush_ready(bad, -1), 1);
        BOOST_CHECK_EQUAL(st_close_ready(bad), 1);
        BOOST_CHECK_EQUAL(st_rx_payload(bad), 0);
        BOOST_CHECK(st_stack(bad) == nullptr);
    }
    // A connection handle is not a memory handle, nor the other way round.
    BOOST_REQUIRE_EQUAL(st_map(f.server, ST_PIN_RX, mem.data(), mem.size(), 0, -1, &mh, &mx),
                        ST_OK);
    BOOST_CHECK_EQUAL(st_unmap(f.server), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_tx(mh, &h, nullptr, 0, 0, 0), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_unmap(mh), ST_OK);
    BOOST_CHECK_EQUAL(st_unmap(mh), ST_EINVAL); // already unmapped
    // A deleted handle is dead for good, its memory handles with it.
    BOOST_REQUIRE_EQUAL(st_map(f.server, ST_PIN_RX, mem.data(), mem.size(), 0, -1, &mh, &mx),
                        ST_OK);
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &h, nullptr, 0, 0, 0), ST_OK);
    st_chandle_t dead = f.client;
    BOOST_REQUIRE_EQUAL(st_delete(f.client), ST_OK);
    f.client = nullptr;
    st_chandle_t fresh = nullptr;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &fresh), ST_OK);
    BOOST_CHECK(fresh != dead); // never reused
    BOOST_CHECK_EQUAL(st_tx(dead, &h, nullptr, 0, 0, 0), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_getopt(dead, ST_OPT_KEY_LOCAL, &v), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_delete(dead), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_delete(fresh), ST_OK);
    st_chandle_t server = f.server;
    BOOST_REQUIRE_EQUAL(st_delete(f.server), ST_OK);
    f.server = nullptr;
    BOOST_CHECK_EQUAL(st_unmap(mh), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_rx(server, &got, nullptr, &zero), ST_EINVAL);
    BOOST_CHECK_EQUAL(st_create_on(&f.sa, nullptr), ST_EINVAL);
}

BOOST_AUTO_TEST_CASE(tx_refuses_headers_the_decoder_refuses)
{
    // st_tx sends only what the peer's decoder takes (StHeader::Validate decides both).
    Fixture f;
    f.Connect();
    const std::size_t before = f.hub.ops.size();
    st_header_t rts = Header(StOp::Rts, 0x0100); // FetchOp field on a non-GET
    BOOST_CHECK_EQUAL(st_tx(f.client, &rts, nullptr, 0, 0, 0), ST_EINVAL);
    st_header_t data = Header(StOp::Data, 0x0203); // FetchOp Decrement on DATA
    BOOST_CHECK_EQUAL(st_tx(f.client, &data, nullptr, 0, 0, 0), ST_EINVAL);
    st_header_t fetchop = Header(StOp::Get, 0x0100);
    fetchop.param = 16; // a FETCHOP moves 8 bytes
    BOOST_CHECK_EQUAL(st_tx(f.client, &fetchop, nullptr, 0, 0, 0), ST_EINVAL);
    st_header_t undefined = Header(StOp::Get, 0x0500); // FetchOp value 5 is undefined
    undefined.param = 8;
    BOOST_CHECK_EQUAL(st_tx(f.client, &undefined, nullptr, 0, 0, 0), ST_EINVAL);
    st_header_t local = Header(static_cast<StOp>(0x07)); // IRIX-internal opcode
    BOOST_CHECK_EQUAL(st_tx(f.client, &local, nullptr, 0, 0, 0), ST_EINVAL);
    st_header_t unknown = Header(static_cast<StOp>(0x0B));
    BOOST_CHECK_EQUAL(st_tx(f.client, &unknown, nullptr, 0, 0, 0), ST_EINVAL);
    BOOST_CHECK_EQUAL(f.hub.ops.size(), before); // nothing went out
    // Valid ones go, and the peer takes them.
    fetchop.param = 8;
    BOOST_CHECK_EQUAL(st_tx(f.client, &fetchop, nullptr, 0, 0, 0), ST_OK);
    st_header_t fc = Header(StOp::Get, 0x0700);
    BOOST_CHECK_EQUAL(st_tx(f.client, &fc, nullptr, 0, 0, 0), ST_OK);
    st_header_t got;
    struct timeval tv = {1, 0};
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, nullptr, &tv), ST_OK);
    BOOST_CHECK_EQUAL(got.opflags, fetchop.opflags);
    BOOST_REQUIRE_EQUAL(st_rx(f.server, &got, nullptr, &tv), ST_OK);
    BOOST_CHECK_EQUAL(got.opflags, fc.opflags);
    BOOST_CHECK_EQUAL(f.sb.GetEndpoint().GetCounters().Dropped(), 0u);
}

BOOST_AUTO_TEST_CASE(rx_timeout)
{
    Fixture f;
    f.Connect();
    st_header_t got;
    struct timeval tv = {0, 500000};
    uint64_t t0 = f.hub.now;
    BOOST_CHECK_EQUAL(st_rx(f.server, &got, nullptr, &tv), ST_EWOULDBLOCK);
    BOOST_CHECK_EQUAL(f.hub.now - t0, 500000000ULL);
    double t1 = st_time();
    (void)t1;
}

BOOST_AUTO_TEST_CASE(data_tiled_into_mapped_memory)
{
    Fixture f;
    int v = 12; // server Bufx entries of 4 KiB: the client's DATA must be tiled
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sb, &f.server), ST_OK);
    st_setopt(f.server, ST_OPT_BUFSIZE_LOCAL, &v);
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &f.client), ST_OK);
    BOOST_REQUIRE_EQUAL(st_listen(f.server, nullptr, "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_connect(f.client, "hostB", "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_accept(f.server), ST_OK);

    std::vector<uint8_t> src(40000), dst(65536, 0);
    for (std::size_t i = 0; i < src.size(); ++i)
    {
        src[i] = static_cast<uint8_t>(i * 13 + 5);
    }
    st_mhandle_t mt = nullptr, mr = nullptr;
    int mx = 0;
    BOOST_REQUIRE_EQUAL(st_map(f.client, ST_PIN_TX, src.data(), src.size(), 0, -1, &mt, nullptr),
                        ST_OK);
    BOOST_REQUIRE_EQUAL(st_map(f.server, ST_PIN_RX, dst.data(), dst.size(), 0, 16, &mr, &mx),
                        ST_OK);
    BOOST_CHECK_GT(mx, 0);
    BOOST_CHECK_EQUAL(st_map(f.server, ST_PIN_RX, dst.data(), dst.size(), 0, 3, &mr, &mx),
                      ST_EINVAL);

    st_header_t d = Header(StOp::Data, StFlag::LAST | 1);
    d.mx = static_cast<uint16_t>(mx);
    d.bufx = 1;
    d.offset = 10;
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &d, nullptr, 40000, 0, 0), ST_OK);
    int64_t count = 0;
    BOOST_REQUIRE_EQUAL(st_flush(f.client, -1, &count), ST_OK);
    BOOST_CHECK_EQUAL(count, 11); // RC + 10 STUs (4086 + 9 x 4096 ... tiled at 4 KiB)
    // Each STU's header reaches the server's st_rx; the last carries L.
    st_header_t got;
    int n = 0;
    bool lastL = false;
    struct timeval tv = {0, 0};
    while (st_rx(f.server, &got, nullptr, &tv) == ST_OK)
    {
        ++n;
        lastL = (got.opflags & StFlag::LAST) != 0;
        BOOST_CHECK_LE(got.offset, 4096u);
    }
    BOOST_CHECK_EQUAL(n, 10);
    BOOST_CHECK(lastL);
    BOOST_CHECK(std::equal(src.begin(), src.end(), dst.begin() + 4096 + 10));
    BOOST_CHECK_EQUAL(dst[4096 + 9], 0);
    BOOST_CHECK_EQUAL(dst[4096 + 10 + 40000], 0);

    // DATA naming memory outside the mapping: dropped by the server, nothing written.
    d.bufx = 16; // the mapping covers Bufx 0..15
    d.offset = 0;
    std::vector<uint8_t> before = dst;
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &d, nullptr, 500, 0, 0), ST_OK);
    BOOST_CHECK_EQUAL(st_rx(f.server, &got, nullptr, &tv), ST_EWOULDBLOCK);
    BOOST_CHECK(dst == before);
    BOOST_CHECK_GE(f.sb.GetEndpoint().GetCounters().Get(StRxVerdict::OutsideMapping), 1u);
    // Local memory not mapped for TX.
    BOOST_CHECK_EQUAL(st_tx(f.client, &d, nullptr, 500, 100, 0), ST_EFAULT);
    BOOST_CHECK_EQUAL(st_unmap(mt), ST_OK);
    BOOST_CHECK_EQUAL(st_tx(f.client, &d, nullptr, 10, 0, 0), ST_EFAULT);
    BOOST_CHECK_EQUAL(st_unmap(mr), ST_OK);
}

BOOST_AUTO_TEST_CASE(non_blocking_halves)
{
    // The halves an event-driven host uses: start, ready tests, then the routine returns at
    // once with what the blocking routine returns.
    Fixture f;
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sb, &f.server), ST_OK);
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sa, &f.client), ST_OK);
    BOOST_CHECK_EQUAL(st_accept_ready(f.server), -1); // not listening
    BOOST_REQUIRE_EQUAL(st_listen(f.server, nullptr, "3000"), ST_OK);
    BOOST_CHECK_EQUAL(st_accept_ready(f.server), 0);
    BOOST_CHECK_EQUAL(st_stack(f.client), static_cast<void*>(&f.sa));
    BOOST_CHECK_EQUAL(st_connect_result(f.client), ST_ENOTCONN);
    BOOST_REQUIRE_EQUAL(st_connect_start(f.client, "hostB", "3000"), ST_OK);
    BOOST_CHECK_EQUAL(f.hub.ops.back(), "A:RC");
    BOOST_CHECK_EQUAL(st_connect_result(f.client), EINPROGRESS);
    BOOST_CHECK_EQUAL(st_connect_start(f.client, "hostB", "3000"), ST_EISCONN);
    f.hub.RunPassive(1); // B answers CA
    BOOST_CHECK_EQUAL(st_accept_ready(f.server), 1);
    BOOST_CHECK_EQUAL(st_accept(f.server), ST_OK);
    f.hub.RunPassive(0); // A takes the CA
    BOOST_CHECK_EQUAL(st_connect_result(f.client), ST_OK);
    BOOST_CHECK_EQUAL(st_rx_ready(f.server), 0);
    st_header_t rs = Header(StOp::Rmr);
    rs.s_id = 9;
    BOOST_REQUIRE_EQUAL(st_tx(f.client, &rs, nullptr, 0, 0, 0), ST_OK);
    BOOST_CHECK_EQUAL(st_flush_ready(f.client, -1), 1);
    BOOST_CHECK_EQUAL(st_flush_ready(f.client, 100), 0);
    f.hub.RunPassive(1);
    BOOST_CHECK_EQUAL(st_rx_ready(f.server), 1);
    st_header_t got;
    struct timeval tv = {0, 0};
    BOOST_CHECK_EQUAL(st_rx(f.server, &got, nullptr, &tv), ST_OK);
    BOOST_CHECK_EQUAL(got.opflags >> 11, static_cast<int>(StOp::Rmr));
    BOOST_CHECK_EQUAL(st_close_ready(f.client), 0);
    BOOST_REQUIRE_EQUAL(st_close_start(f.client), ST_OK);
    BOOST_CHECK_EQUAL(f.hub.ops.back(), "A:RD");
    BOOST_CHECK_EQUAL(st_close_ready(f.client), 0);
    f.hub.RunPassive(1); // DA
    f.hub.RunPassive(0); // DC
    BOOST_CHECK_EQUAL(st_close_ready(f.client), 1);
    BOOST_CHECK_EQUAL(st_close_start(f.client), ST_ENOTCONN);
}

BOOST_AUTO_TEST_CASE(close_and_rx_after_close)
{
    Fixture f;
    f.Connect();
    BOOST_CHECK_EQUAL(st_close(f.client), ST_OK);
    std::vector<std::string> tail(f.hub.ops.end() - 3, f.hub.ops.end());
    BOOST_CHECK(tail == (std::vector<std::string>{"A:RD", "B:DA", "A:DC"}));
    st_header_t got;
    BOOST_CHECK_EQUAL(st_rx(f.server, &got, nullptr, nullptr), ST_ENOTCONN);
    BOOST_CHECK_EQUAL(st_close(f.client), ST_ENOTCONN);
    st_header_t h = Header(StOp::Rts);
    BOOST_CHECK_EQUAL(st_tx(f.client, &h, nullptr, 0, 0, 0), ST_ENOTCONN);
}

BOOST_AUTO_TEST_CASE(delete_closes_an_open_connection)
{
    Fixture f;
    f.Connect();
    BOOST_CHECK_EQUAL(st_delete(f.client), ST_OK);
    f.client = nullptr;
    BOOST_CHECK_EQUAL(f.hub.ops.back(), "A:DC");
}

BOOST_AUTO_TEST_CASE(default_stack_and_flush_snapshot)
{
    Fixture f;
    StBypassStack::SetDefault(&f.sa);
    st_chandle_t c = nullptr;
    BOOST_REQUIRE_EQUAL(st_create(&c), ST_OK);
    BOOST_REQUIRE_EQUAL(st_create_on(&f.sb, &f.server), ST_OK);
    BOOST_REQUIRE_EQUAL(st_listen(f.server, nullptr, "3000"), ST_OK);
    BOOST_REQUIRE_EQUAL(st_connect(c, "10.0.0.2", "3000"), ST_OK);
    int64_t count = -1;
    BOOST_CHECK_EQUAL(st_flush(c, 0, &count), ST_OK); // snapshot
    BOOST_CHECK_EQUAL(count, 1);
    f.hub.now = 5000000000ULL;
    BOOST_CHECK_CLOSE(st_time(), 5.0, 1e-9);
    st_delete(c);
    StBypassStack::SetDefault(nullptr);
    st_chandle_t none = nullptr;
    BOOST_CHECK_EQUAL(st_create(&none), ST_ENOMEM);
}

BOOST_AUTO_TEST_SUITE_END()
