// harp-fabric-test.cc: end-to-end tests of clients and servers exchanging frames over the test
// fabric, with and without broadcast, over simulated hours: registration, resolution, servers
// stopped and restarted, clients losing every server, aging, several LIS, static entries, loss,
// and determinism.
#include "harp-test-fabric.h"

#include <boost/test/unit_test.hpp>
#include <string>

using namespace harp;
using namespace harp::test;

namespace
{

const Subnet kLis1 = Lis("192.0.2.0/27");
const Subnet kLis2 = Lis("192.0.2.32/27");

/// Host n of a LIS: ULA 02:..:nn, address network + n.
Ipv4
HostIp(const Subnet& lis, uint8_t n)
{
    return Ipv4(lis.GetNetwork().Get() + n);
}

ClientConfig
ClientOn(const Subnet& lis,
         uint8_t n,
         std::vector<Ula> servers,
         FabricMode mode = FabricMode::Detect)
{
    ClientConfig config;
    config.address = HostIp(lis, n);
    config.lis = lis;
    config.servers = std::move(servers);
    config.mode = mode;
    return config;
}

/// A fabric with servers at hosts 1 and 2 (pure servers) and clients at hosts 10, 11, ...
struct ServedLisFabric
{
    TestFabric fabric{false};
    std::size_t s1;
    std::size_t s2;
    std::vector<std::size_t> clients;

    explicit ServedLisFabric(std::size_t clientCount, std::vector<StaticEntry> serverStatics = {})
    {
        s1 = fabric.AddNode(MakeUla(1));
        s2 = fabric.AddNode(MakeUla(2));
        for (std::size_t server : {s1, s2})
        {
            ServerConfig config;
            config.lis = {ServedLis{kLis1, HostIp(kLis1, static_cast<uint8_t>(server + 1))}};
            config.statics = serverStatics;
            fabric.AddServer(server, config);
        }
        for (std::size_t i = 0; i < clientCount; ++i)
        {
            const auto n = static_cast<uint8_t>(10 + i);
            const std::size_t node = fabric.AddNode(MakeUla(n));
            fabric.AddClient(node, ClientOn(kLis1, n, {MakeUla(1), MakeUla(2)}));
            clients.push_back(node);
        }
        fabric.StartAll();
    }

    Ipv4 ClientIp(std::size_t i) const
    {
        return HostIp(kLis1, static_cast<uint8_t>(10 + i));
    }
};

std::size_t
CountRegistrations(Server& server)
{
    const Cache& table = server.GetTable();
    return table.GetSize() - table.GetStaticCount();
}

} // namespace

BOOST_AUTO_TEST_SUITE(fabric)

BOOST_AUTO_TEST_CASE(broadcast_fabric_needs_no_server)
{
    TestFabric fabric(true);
    std::vector<std::size_t> hosts;
    for (uint8_t n = 10; n < 14; ++n)
    {
        const std::size_t node = fabric.AddNode(MakeUla(n));
        fabric.AddClient(node, ClientOn(kLis1, n, {MakeUla(1)})); // servers are not used here
        hosts.push_back(node);
    }
    fabric.StartAll();
    fabric.RunFor(1 * kMillisecond);
    for (std::size_t node : hosts)
    {
        BOOST_TEST(fabric.GetClient(node).IsBroadcastFabric().value());
        BOOST_TEST((fabric.GetClient(node).GetPhase() == Phase::Operational));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        for (std::size_t j = 0; j < hosts.size(); ++j)
        {
            if (i != j)
            {
                BOOST_TEST(!fabric.Resolve(hosts[i], HostIp(kLis1, static_cast<uint8_t>(10 + j))));
            }
        }
    }
    fabric.RunFor(1 * kMillisecond);
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        BOOST_TEST(fabric.GetEvents(hosts[i], EventType::Resolved).size() == 3U);
        for (std::size_t j = 0; j < hosts.size(); ++j)
        {
            const auto ula = fabric.Resolve(hosts[i], HostIp(kLis1, static_cast<uint8_t>(10 + j)));
            BOOST_REQUIRE(ula);
            BOOST_TEST(*ula == MakeUla(static_cast<uint8_t>(10 + j)));
        }
        BOOST_TEST(CountersAddUp(fabric.GetClient(hosts[i]).GetStats()));
        BOOST_TEST(fabric.GetClient(hosts[i]).GetStats().Dropped() == 0U);
    }
    BOOST_TEST(fabric.CountSent(Op::ArpRequest) == 4U + 12U); // one probe each, then 12 requests
    BOOST_TEST(fabric.CountSent(Op::ArpReply) == 12U);
    BOOST_TEST(fabric.CountSent(Op::InArpRequest) == 0U);
}

BOOST_AUTO_TEST_CASE(non_broadcast_fabric_registers_with_both_servers_and_resolves)
{
    ServedLisFabric lis(4);
    TestFabric& fabric = lis.fabric;
    fabric.RunFor(3 * kSecond - 1);
    BOOST_TEST((fabric.GetClient(lis.clients[0]).GetPhase() == Phase::Detecting));
    fabric.RunFor(1 * kMillisecond);
    for (std::size_t node : lis.clients)
    {
        Client& client = fabric.GetClient(node);
        BOOST_TEST(!client.IsBroadcastFabric().value());
        BOOST_TEST((client.GetPhase() == Phase::Operational));
        for (const auto& server : client.GetServers())
        {
            BOOST_TEST((server.status == Client::ServerStatus::Alive));
        }
    }
    BOOST_TEST(CountRegistrations(fabric.GetServer(lis.s1)) == 4U);
    BOOST_TEST(CountRegistrations(fabric.GetServer(lis.s2)) == 4U);
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 4; ++j)
        {
            if (i != j)
            {
                fabric.Resolve(lis.clients[i], lis.ClientIp(j));
            }
        }
    }
    fabric.RunFor(1 * kMillisecond);
    for (std::size_t i = 0; i < 4; ++i)
    {
        BOOST_TEST(fabric.GetEvents(lis.clients[i], EventType::Resolved).size() == 3U);
        for (std::size_t j = 0; j < 4; ++j)
        {
            BOOST_TEST(fabric.Resolve(lis.clients[i], lis.ClientIp(j)).value() ==
                       MakeUla(static_cast<uint8_t>(10 + j)));
        }
    }
    // A server answers for its own address (server 1 answered first: it is the one asked).
    fabric.Resolve(lis.clients[0], HostIp(kLis1, 1));
    BOOST_TEST(fabric.GetSent().back().destination == MakeUla(1));
    fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(fabric.GetClient(lis.clients[0]).Lookup(HostIp(kLis1, 1)).value() == MakeUla(1));
}

BOOST_AUTO_TEST_CASE(server_host_also_runs_a_client)
{
    TestFabric fabric(false);
    std::vector<std::size_t> nodes;
    for (uint8_t n : {1, 2, 10, 11})
    {
        const std::size_t node = fabric.AddNode(MakeUla(n));
        fabric.AddClient(node,
                         ClientOn(kLis1, n, {MakeUla(1), MakeUla(2)}, FabricMode::NonBroadcast));
        if (n <= 2)
        {
            ServerConfig config;
            config.lis = {ServedLis{kLis1, HostIp(kLis1, n)}};
            fabric.AddServer(node, config);
        }
        nodes.push_back(node);
    }
    fabric.StartAll();
    fabric.RunFor(1 * kSecond);
    for (std::size_t node : nodes)
    {
        BOOST_TEST((fabric.GetClient(node).GetPhase() == Phase::Operational));
    }
    // Hosts resolve the server hosts, and the server hosts resolve the hosts.
    fabric.Resolve(nodes[2], HostIp(kLis1, 1));
    fabric.Resolve(nodes[0], HostIp(kLis1, 11));
    fabric.Resolve(nodes[1], HostIp(kLis1, 1));
    fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(fabric.GetClient(nodes[2]).Lookup(HostIp(kLis1, 1)).value() == MakeUla(1));
    BOOST_TEST(fabric.GetClient(nodes[0]).Lookup(HostIp(kLis1, 11)).value() == MakeUla(11));
    BOOST_TEST(fabric.GetClient(nodes[1]).Lookup(HostIp(kLis1, 1)).value() == MakeUla(1));
    for (std::size_t node : nodes)
    {
        // Exactly one answer per question: nothing unsolicited anywhere.
        BOOST_TEST(fabric.GetClient(node).GetStats().Dropped() == 0U);
    }
    BOOST_TEST(fabric.GetServer(nodes[0]).GetStats().Dropped() == 0U);
}

BOOST_AUTO_TEST_CASE(hours_of_steady_operation)
{
    ServedLisFabric lis(4);
    TestFabric& fabric = lis.fabric;
    for (TimeNs t = 10 * kSecond; t <= 4 * kHour; t += 10 * kMinute)
    {
        fabric.RunUntil(t);
        for (std::size_t i = 0; i < 4; ++i)
        {
            fabric.Resolve(lis.clients[i], lis.ClientIp((i + 1) % 4));
        }
        BOOST_TEST(CountRegistrations(fabric.GetServer(lis.s1)) == 4U);
        BOOST_TEST(CountRegistrations(fabric.GetServer(lis.s2)) == 4U);
    }
    fabric.RunUntil(4 * kHour + 1 * kMinute);
    for (std::size_t node : lis.clients)
    {
        BOOST_TEST(fabric.GetEvents(node, EventType::ServerDown).empty());
        BOOST_TEST(fabric.GetEvents(node, EventType::Unresolvable).empty());
        BOOST_TEST(fabric.GetEvents(node, EventType::EntryRemoved).empty());
        BOOST_TEST(fabric.GetEvents(node, EventType::PhaseChanged).size() == 3U); // Det, Reg, Op
        BOOST_TEST(fabric.GetEvents(node, EventType::Resolved).size() == 1U);
        // Used every 10 minutes: revalidated every 15 minutes, 16 times in 4 hours.
        BOOST_TEST(fabric.GetEvents(node, EventType::Revalidated).size() == 16U);
    }
    for (std::size_t server : {lis.s1, lis.s2})
    {
        BOOST_TEST(fabric.GetEvents(server, EventType::ClientForgotten).empty());
    }
    // Registration (1 per server) and 16 re-registrations (every 15 min) per client and server.
    BOOST_TEST(fabric.CountSent(Op::InArpRequest) == 4U * 2U * (1U + 16U));
    BOOST_TEST(fabric.CountSent(Op::InArpReply) == fabric.CountSent(Op::InArpRequest));
    BOOST_TEST(fabric.CountSent(Op::Nak) == 0U);
}

BOOST_AUTO_TEST_CASE(server_stopped_and_restarted)
{
    ServedLisFabric lis(4);
    TestFabric& fabric = lis.fabric;
    fabric.RunUntil(1 * kMinute);
    fabric.Stop(lis.s1);
    // Clients registered at 3 s: they re-register at 15:03 and give server 1 up 9 s later.
    fabric.RunUntil(15 * kMinute + 12 * kSecond - 1);
    for (std::size_t node : lis.clients)
    {
        BOOST_TEST(fabric.GetEvents(node, EventType::ServerDown).empty());
    }
    fabric.RunUntil(15 * kMinute + 13 * kSecond);
    for (std::size_t node : lis.clients)
    {
        const auto down = fabric.GetEvents(node, EventType::ServerDown);
        BOOST_REQUIRE(down.size() == 1U);
        BOOST_TEST(down[0].event.ula == MakeUla(1));
        BOOST_TEST((fabric.GetClient(node).GetPhase() == Phase::Operational));
    }
    // Resolution goes through server 2 alone, without a timeout.
    fabric.RunUntil(20 * kMinute);
    fabric.Resolve(lis.clients[0], lis.ClientIp(3));
    BOOST_TEST(fabric.GetSent().back().destination == MakeUla(2));
    fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(fabric.GetClient(lis.clients[0]).Lookup(lis.ClientIp(3)).value() == MakeUla(13));

    // Server 1 restarts with an empty table; the next re-registration (30:03) brings it back.
    fabric.RunUntil(25 * kMinute);
    fabric.Restart(lis.s1);
    BOOST_TEST(CountRegistrations(fabric.GetServer(lis.s1)) == 0U);
    fabric.RunUntil(30 * kMinute + 4 * kSecond);
    BOOST_TEST(CountRegistrations(fabric.GetServer(lis.s1)) == 4U);
    for (std::size_t node : lis.clients)
    {
        const auto up = fabric.GetEvents(node, EventType::ServerUp);
        BOOST_REQUIRE(up.size() == 3U); // s1 and s2 at start, s1 again
        BOOST_TEST(up[2].event.ula == MakeUla(1));
        BOOST_TEST(up[2].time > 30 * kMinute);
    }

    // Now server 2 goes: everything works through server 1.
    fabric.Stop(lis.s2);
    fabric.RunUntil(45 * kMinute + 13 * kSecond);
    for (std::size_t node : lis.clients)
    {
        BOOST_TEST(fabric.GetEvents(node, EventType::ServerDown).size() == 2U);
        BOOST_TEST((fabric.GetClient(node).GetPhase() == Phase::Operational));
    }
    fabric.Resolve(lis.clients[1], lis.ClientIp(2));
    BOOST_TEST(fabric.GetSent().back().destination == MakeUla(1));
    fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(fabric.GetClient(lis.clients[1]).Lookup(lis.ClientIp(2)).value() == MakeUla(12));
    for (std::size_t node : lis.clients)
    {
        BOOST_TEST(fabric.GetEvents(node, EventType::Unresolvable).empty());
    }
}

BOOST_AUTO_TEST_CASE(client_loses_every_server_and_registers_again)
{
    ServedLisFabric lis(2);
    TestFabric& fabric = lis.fabric;
    fabric.RunUntil(1 * kMinute);
    fabric.Stop(lis.s1);
    fabric.Stop(lis.s2);
    fabric.RunUntil(15 * kMinute + 13 * kSecond);
    for (std::size_t node : lis.clients)
    {
        BOOST_TEST((fabric.GetClient(node).GetPhase() == Phase::Registration));
        BOOST_TEST(fabric.GetEvents(node, EventType::ServerDown).size() == 2U);
    }
    // No server: resolution fails after its three attempts.
    fabric.RunUntil(17 * kMinute);
    BOOST_TEST(!fabric.Resolve(lis.clients[0], lis.ClientIp(1)));
    fabric.RunUntil(17 * kMinute + 9 * kSecond);
    const auto failed = fabric.GetEvents(lis.clients[0], EventType::Unresolvable);
    BOOST_REQUIRE(failed.size() == 1U);
    BOOST_TEST((failed[0].event.reason == FailReason::Timeout));

    // Servers come back: within one 10-second retransmission every client is operational.
    fabric.RunUntil(20 * kMinute);
    fabric.Restart(lis.s1);
    fabric.Restart(lis.s2);
    fabric.RunUntil(20 * kMinute + 10 * kSecond + 1 * kMillisecond);
    for (std::size_t node : lis.clients)
    {
        BOOST_TEST((fabric.GetClient(node).GetPhase() == Phase::Operational));
        const auto phases = fabric.GetEvents(node, EventType::PhaseChanged);
        BOOST_TEST(phases.back().time > 20 * kMinute);
    }
    BOOST_TEST(CountRegistrations(fabric.GetServer(lis.s1)) == 2U);
    fabric.Resolve(lis.clients[0], lis.ClientIp(1));
    fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(fabric.GetClient(lis.clients[0]).Lookup(lis.ClientIp(1)).value() == MakeUla(11));
}

BOOST_AUTO_TEST_CASE(server_forgets_a_silent_client)
{
    ServedLisFabric lis(2);
    TestFabric& fabric = lis.fabric;
    fabric.RunUntil(1 * kMinute);
    fabric.Stop(lis.clients[1]); // last heard at 3 s (registration)
    fabric.RunUntil(20 * kMinute + 3 * kSecond - 1);
    BOOST_TEST(fabric.GetEvents(lis.s1, EventType::ClientForgotten).empty());
    fabric.RunUntil(20 * kMinute + 4 * kSecond);
    for (std::size_t server : {lis.s1, lis.s2})
    {
        const auto forgotten = fabric.GetEvents(server, EventType::ClientForgotten);
        BOOST_REQUIRE(forgotten.size() == 1U);
        BOOST_TEST(forgotten[0].event.ip == lis.ClientIp(1));
        BOOST_TEST(CountRegistrations(fabric.GetServer(server)) == 1U);
    }
    fabric.Resolve(lis.clients[0], lis.ClientIp(1));
    fabric.RunFor(1 * kSecond);
    const auto failed = fabric.GetEvents(lis.clients[0], EventType::Unresolvable);
    BOOST_REQUIRE(failed.size() == 1U);
    BOOST_TEST((failed[0].event.reason == FailReason::Nak));
}

BOOST_AUTO_TEST_CASE(one_server_for_two_lis)
{
    TestFabric fabric(false);
    const std::size_t server = fabric.AddNode(MakeUla(1));
    ServerConfig config;
    config.lis = {ServedLis{kLis1, HostIp(kLis1, 1)}, ServedLis{kLis2, HostIp(kLis2, 1)}};
    fabric.AddServer(server, config);
    std::vector<std::size_t> lis1;
    std::vector<std::size_t> lis2;
    for (uint8_t n : {10, 11})
    {
        lis1.push_back(fabric.AddNode(MakeUla(n)));
        fabric.AddClient(lis1.back(), ClientOn(kLis1, n, {MakeUla(1)}));
        lis2.push_back(fabric.AddNode(MakeUla(static_cast<uint8_t>(n + 32))));
        fabric.AddClient(lis2.back(), ClientOn(kLis2, n, {MakeUla(1)}));
    }
    fabric.StartAll();
    fabric.RunFor(4 * kSecond);
    BOOST_TEST(CountRegistrations(fabric.GetServer(server)) == 4U);
    // Each LIS client learned the server's address in its own LIS.
    BOOST_TEST(fabric.GetClient(lis1[0]).GetServers()[0].address == HostIp(kLis1, 1));
    BOOST_TEST(fabric.GetClient(lis2[0]).GetServers()[0].address == HostIp(kLis2, 1));
    fabric.Resolve(lis1[0], HostIp(kLis1, 11));
    fabric.Resolve(lis2[0], HostIp(kLis2, 11));
    const std::size_t sentBefore = fabric.GetSent().size();
    // Across LIS: refused at once, nothing sent (traffic between LIS goes through a router).
    BOOST_TEST(!fabric.Resolve(lis1[0], HostIp(kLis2, 10)));
    BOOST_TEST(!fabric.Resolve(lis1[0], HostIp(kLis2, 1)));
    BOOST_TEST(fabric.GetSent().size() == sentBefore);
    fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(fabric.GetClient(lis1[0]).Lookup(HostIp(kLis1, 11)).value() == MakeUla(11));
    BOOST_TEST(fabric.GetClient(lis2[0]).Lookup(HostIp(kLis2, 11)).value() == MakeUla(43));
    const auto refused = fabric.GetEvents(lis1[0], EventType::Unresolvable);
    BOOST_REQUIRE(refused.size() == 2U);
    BOOST_TEST((refused[0].event.reason == FailReason::OutsideLis));
    fabric.Resolve(lis2[1], HostIp(kLis2, 1));
    fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(fabric.GetClient(lis2[1]).Lookup(HostIp(kLis2, 1)).value() == MakeUla(1));
}

BOOST_AUTO_TEST_CASE(hosts_without_harp_through_static_entries)
{
    // Non-broadcast: the static entry lives on the servers.
    const Ipv4 legacyIp = HostIp(kLis1, 20);
    const Ula legacyUla = MakeUla(20);
    ServedLisFabric lis(1, {StaticEntry{legacyIp, legacyUla}});
    lis.fabric.AddNode(legacyUla); // a host with no HARP at all
    lis.fabric.RunFor(4 * kSecond);
    lis.fabric.Resolve(lis.clients[0], legacyIp);
    lis.fabric.RunFor(1 * kMillisecond);
    BOOST_TEST(lis.fabric.GetClient(lis.clients[0]).Lookup(legacyIp).value() == legacyUla);

    // Broadcast: the static entry lives on each client; without it, nobody answers.
    TestFabric fabric(true);
    const std::size_t withStatic = fabric.AddNode(MakeUla(10));
    ClientConfig config = ClientOn(kLis1, 10, {});
    config.statics = {StaticEntry{legacyIp, legacyUla}};
    fabric.AddClient(withStatic, config);
    const std::size_t without = fabric.AddNode(MakeUla(11));
    fabric.AddClient(without, ClientOn(kLis1, 11, {}));
    fabric.AddNode(legacyUla);
    fabric.StartAll();
    fabric.RunFor(1 * kSecond);
    BOOST_TEST(fabric.Resolve(withStatic, legacyIp).value() == legacyUla);
    BOOST_TEST(!fabric.Resolve(without, legacyIp));
    fabric.RunFor(9 * kSecond);
    const auto failed = fabric.GetEvents(without, EventType::Unresolvable);
    BOOST_REQUIRE(failed.size() == 1U);
    BOOST_TEST((failed[0].event.reason == FailReason::Timeout));
    // gsnarp -s at run time fixes it.
    BOOST_TEST(fabric.AddClientStatic(without, legacyIp, legacyUla));
    BOOST_TEST(fabric.Resolve(without, legacyIp).value() == legacyUla);
}

BOOST_AUTO_TEST_CASE(lost_frames_are_recovered_by_retransmission)
{
    ServedLisFabric lis(2);
    TestFabric& fabric = lis.fabric;
    int inarpRepliesLost = 0;
    int requestsLost = 0;
    fabric.loss = [&](const Delivery& delivery) {
        const Message message = Decode(Frame{delivery.destination, delivery.bytes});
        if (message.op == Op::InArpReply && inarpRepliesLost < 4)
        {
            ++inarpRepliesLost; // every first registration answer
            return true;
        }
        if (message.op == Op::ArpRequest && !delivery.destination.IsBroadcast() && requestsLost < 2)
        {
            ++requestsLost;
            return true;
        }
        return false;
    };
    fabric.RunUntil(13 * kSecond);
    BOOST_TEST((fabric.GetClient(lis.clients[0]).GetPhase() == Phase::Registration));
    fabric.RunUntil(14 * kSecond);
    for (std::size_t node : lis.clients)
    {
        // Registered by the 10-second retransmission, at 13 s.
        const auto phases = fabric.GetEvents(node, EventType::PhaseChanged);
        BOOST_TEST((phases.back().event.phase == Phase::Operational));
        BOOST_TEST(phases.back().time > 13 * kSecond);
    }
    fabric.Resolve(lis.clients[0], lis.ClientIp(1));
    fabric.RunFor(9 * kSecond);
    const auto resolved = fabric.GetEvents(lis.clients[0], EventType::Resolved);
    BOOST_REQUIRE(resolved.size() == 1U);
    BOOST_TEST(resolved[0].time > 14 * kSecond + 6 * kSecond); // third attempt
    BOOST_TEST(inarpRepliesLost == 4);
    BOOST_TEST(requestsLost == 2);
}

BOOST_AUTO_TEST_CASE(entries_revalidated_when_used_removed_when_idle)
{
    ServedLisFabric lis(3);
    TestFabric& fabric = lis.fabric;
    fabric.RunUntil(10 * kSecond);
    fabric.Resolve(lis.clients[0], lis.ClientIp(1));
    fabric.Resolve(lis.clients[0], lis.ClientIp(2));
    fabric.RunUntil(5 * kMinute);
    fabric.Resolve(lis.clients[0], lis.ClientIp(1)); // in use; client 2 is not
    fabric.RunUntil(10 * kSecond + 15 * kMinute + 1 * kMillisecond);
    const auto revalidated = fabric.GetEvents(lis.clients[0], EventType::Revalidated);
    BOOST_REQUIRE(revalidated.size() == 1U);
    BOOST_TEST(revalidated[0].event.ip == lis.ClientIp(1));
    const auto removed = fabric.GetEvents(lis.clients[0], EventType::EntryRemoved);
    BOOST_REQUIRE(removed.size() == 1U);
    BOOST_TEST(removed[0].event.ip == lis.ClientIp(2));
    BOOST_TEST(fabric.GetClient(lis.clients[0]).Lookup(lis.ClientIp(1)).has_value());
    BOOST_TEST(!fabric.GetClient(lis.clients[0]).Lookup(lis.ClientIp(2)).has_value());
    // Client 1 goes away: its registration (refreshed at 15:03) ages out at 35:03, so the
    // revalidation at 30:10 still succeeds and the one at 45:10 gets a NAK: entry removed.
    fabric.Resolve(lis.clients[0], lis.ClientIp(1));
    fabric.Stop(lis.clients[1]);
    fabric.RunUntil(25 * kMinute);
    fabric.Resolve(lis.clients[0], lis.ClientIp(1));
    fabric.RunUntil(31 * kMinute);
    BOOST_TEST(fabric.GetEvents(lis.clients[0], EventType::Revalidated).size() == 2U);
    fabric.Resolve(lis.clients[0], lis.ClientIp(1));
    fabric.RunUntil(45 * kMinute + 11 * kSecond);
    const auto gone = fabric.GetEvents(lis.clients[0], EventType::EntryRemoved);
    BOOST_REQUIRE(gone.size() == 2U);
    BOOST_TEST(gone[1].event.ip == lis.ClientIp(1));
    BOOST_TEST((gone[1].event.reason == FailReason::Nak));
}

namespace
{

/// A scenario with loss, stops and restarts; returns its trace.
std::vector<std::string>
RunScenario()
{
    ServedLisFabric lis(5);
    TestFabric& fabric = lis.fabric;
    uint64_t count = 0;
    fabric.loss = [&count](const Delivery&) { return ++count % 7 == 0; };
    for (TimeNs t = 10 * kSecond; t < 2 * kHour; t += 7 * kMinute)
    {
        fabric.RunUntil(t);
        for (std::size_t i = 0; i < 5; ++i)
        {
            fabric.Resolve(lis.clients[i], lis.ClientIp((i + t / kMinute) % 5));
        }
        if (t > 30 * kMinute && t < 37 * kMinute)
        {
            fabric.Stop(lis.s1);
        }
        if (t > 60 * kMinute && t < 67 * kMinute)
        {
            fabric.Restart(lis.s1);
        }
    }
    std::vector<std::string> trace = fabric.GetTrace();
    for (std::size_t node = 0; node < 7; ++node)
    {
        for (const TimedEvent& event : fabric.GetEvents(node))
        {
            trace.push_back(std::to_string(event.time) + " " + event.event.ToString());
        }
    }
    return trace;
}

} // namespace

BOOST_AUTO_TEST_CASE(same_inputs_same_outputs)
{
    const std::vector<std::string> first = RunScenario();
    const std::vector<std::string> second = RunScenario();
    BOOST_TEST(first.size() > 300U);
    BOOST_TEST(first == second, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
