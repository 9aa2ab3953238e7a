/*
 * seed-gen.cc: writes the seed corpora of the fuzz targets (fuzz/corpus/<target>/) from the
 * project's own encoders and engines: valid micropackets, Messages, Admin payloads, ST and
 * HARP frames, and recorded sessions of the engines in the record format the sequence targets
 * read. Deterministic: running it again gives the same files.
 *
 * Usage: fuzz-seed-gen OUTDIR
 */
#include "fuzz-common.h"
#include "gsn-admin.h"
#include "gsn-message-bytes.h"
#include "gsn-message-header.h"
#include "gsn-micropacket.h"
#include "gsn-topology.h"
#include "harp-fuzz-setup.h"
#include "harp-options.h"
#include "st-fuzz-setup.h"
#include "st-header.h"

#include "ns3/packet.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

using namespace gsnfuzz;
namespace fs = std::filesystem;

namespace
{

fs::path g_out;

void
Write(const std::string& target, const std::string& name, const std::vector<uint8_t>& bytes)
{
    fs::create_directories(g_out / target);
    std::ofstream f(g_out / target / name, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

void
WriteText(const std::string& target, const std::string& name, const std::string& text)
{
    Write(target, name, std::vector<uint8_t>(text.begin(), text.end()));
}

// ---- gsn --------------------------------------------------------------------------------

ns3::Ptr<ns3::Packet>
Message(uint32_t payload, uint8_t seed)
{
    std::vector<uint8_t> bytes(payload);
    for (uint32_t i = 0; i < payload; ++i)
    {
        bytes[i] = uint8_t(i * 7 + seed);
    }
    if (payload >= 8) // LLC/SNAP with an EtherType, as the device writes it
    {
        const uint8_t snap[8] = {0xAA, 0xAA, 0x03, 0, 0, 0, 0x08, 0x00};
        std::copy(snap, snap + 8, bytes.begin());
    }
    auto p = ns3::Create<ns3::Packet>(bytes.data(), payload);
    ns3::GsnMessageHeader h;
    h.SetMessageLength(payload);
    h.SetDestination(ns3::Mac48Address("02:00:00:00:00:01"));
    h.SetSource(ns3::Mac48Address("02:00:00:00:00:02"));
    p->AddHeader(h);
    return p;
}

/// The wire micropackets of a Message, as the segmenter sends them (ECRCs computed).
std::vector<ns3::GsnMicropacket>
Micropackets(ns3::Ptr<ns3::Packet> m, uint8_t vc)
{
    auto bytes = ns3::Create<ns3::GsnMessageBytes>(m);
    std::vector<ns3::GsnMicropacket> out;
    for (uint32_t k = 0; k < bytes->GetChunkCount(); ++k)
    {
        ns3::GsnMicropacket mp;
        mp.SetMessageChunk(bytes, k);
        mp.type = uint8_t(k == 0 ? ns3::GsnMicropacketType::HEADER : ns3::GsnMicropacketType::DATA);
        mp.tail = k + 1 == bytes->GetChunkCount();
        mp.vc = vc;
        mp.tseq = uint8_t(k);
        mp.SealLcrc();
        out.push_back(mp);
    }
    return out;
}

std::vector<uint8_t>
Wire(const ns3::GsnMicropacket& mp)
{
    std::vector<uint8_t> w(40);
    mp.Serialize(w.data());
    return w;
}

void
GsnSeeds()
{
    using namespace ns3;
    // Micropackets: each type, then the micropackets of a Message.
    int n = 0;
    for (uint8_t type : {0x2, 0x3, 0x4, 0x5, 0x7, 0xA, 0xF, 0x0})
    {
        GsnMicropacket mp;
        mp.type = type;
        mp.vcr = type & 3;
        mp.cr = type * 5;
        mp.rseq = uint8_t(type * 3);
        mp.tseq = uint8_t(type * 11);
        mp.SealLcrc();
        Write("gsn-micropacket-fuzzer", "type-" + std::to_string(n++), Wire(mp));
    }
    {
        std::vector<uint8_t> all;
        for (const auto& mp : Micropackets(Message(100, 1), 2))
        {
            auto w = Wire(mp);
            all.insert(all.end(), w.begin(), w.end());
            Write("gsn-micropacket-fuzzer", "message-" + std::to_string(n++), w);
        }
        Write("gsn-micropacket-fuzzer", "message-all", all);
    }

    // Messages: wire micropackets with their own ECRCs (config 0), model chunks, spans,
    // resets, a Message too long for the limit.
    auto prefix = [](uint8_t config, uint16_t mlen) {
        return std::vector<uint8_t>{config, uint8_t(mlen >> 8), uint8_t(mlen)};
    };
    auto step = [](std::vector<uint8_t>& in, uint8_t op, const std::vector<uint8_t>& body) {
        in.push_back(op);
        in.insert(in.end(), body.begin(), body.end());
        in.resize(in.size() + 40 - body.size());
    };
    const std::string mt = "gsn-message-fuzzer";
    for (uint32_t len : {8u, 24u, 100u, 300u})
    {
        std::vector<uint8_t> in = prefix(0, 92);
        for (const auto& mp : Micropackets(Message(len, uint8_t(len)), 1))
        {
            step(in, 0, Wire(mp));
        }
        Write(mt, "wire-" + std::to_string(len), in);
        in[0] = 1 | 4; // the same with recomputed ECRCs and a 1024-byte limit
        Write(mt, "wire-auto-" + std::to_string(len), in);
    }
    {
        std::vector<uint8_t> in = prefix(0, 92); // model Message of 8 + 92 bytes: 4 chunks
        for (int k = 0; k < 4; ++k)
        {
            step(in, 1, {});
        }
        Write(mt, "model-4", in);
        in = prefix(0, 300); // 10 chunks: header, a span of 5, the rest
        step(in, 1, {});
        step(in, 1, {});
        step(in, 2, {4});
        for (int k = 0; k < 3; ++k)
        {
            step(in, 1, {});
        }
        Write(mt, "model-span", in);
        in = prefix(0, 92);
        step(in, 1, {});
        step(in, 1, {});
        step(in, 3, {});
        step(in, 1 | 4, {});
        step(in, 1, {});
        step(in, 1, {});
        step(in, 1 | 8, {});
        Write(mt, "model-reset-error", in);
        in = prefix(6, 92); // limit 8 bytes: too long
        for (int k = 0; k < 4; ++k)
        {
            step(in, 1, {});
        }
        auto wire = Micropackets(Message(8, 3), 0);
        step(in, 0, Wire(wire[0]));
        Write(mt, "too-long", in);
    }

    // Admin payloads: every command, a request with a path, a response walking back.
    for (uint8_t cmd = 1; cmd <= 0x0A; ++cmd)
    {
        GsnAdminPayload p;
        p.command = cmd;
        p.transaction = 0x1000u + cmd;
        p.ula = Mac48Address("02:00:00:00:00:05");
        p.port = cmd == 6 || cmd == 7 ? 0x10 + cmd : cmd;
        p.SetArg64(0x0102030405060708ull * cmd);
        p.hopCount = cmd % 3;
        p.path = {1, 2, 3, 0, 0, 0, 0};
        std::vector<uint8_t> b(64);
        p.Serialize(b.data());
        p.pathIndex = p.hopCount;
        p.MakeResponse(GsnAdminStatus::OK);
        p.Serialize(b.data() + 32);
        Write("gsn-admin-fuzzer", "command-" + std::to_string(cmd), b);
    }

    // Topologies: hand-written texts and what ToText writes for built ones.
    const std::string tt = "gsn-topology-fuzzer";
    WriteText(tt, "pair", "endpoint a\nendpoint b\nlink a:0 b:0\n");
    WriteText(tt,
              "star",
              "# one switch, three hosts\nswitch s 4\nendpoint h0\nendpoint h1\nendpoint h2\n"
              "link h0:0 s:0 2.5\nlink h1:0 s:1\nlink h2:0 s:2 100\n");
    WriteText(tt,
              "mesh",
              "switch s00 5 0 0\nswitch s01 5 0 1\nswitch s10 5 1 0\nswitch s11 5 1 1\n"
              "link s00:1 s01:2\nlink s10:1 s11:2\nlink s00:3 s10:4\nlink s01:3 s11:4\n"
              "endpoint e0\nendpoint e1\nlink e0:0 s00:0 1e1\nlink e1:0 s11:0 0.5\n");
    {
        GsnTopology t;
        uint32_t s1 = t.AddSwitch(8, "sw1");
        uint32_t s2 = t.AddSwitch(8, "sw2");
        t.Connect(s1, 7, s2, 7, 3.0);
        for (uint32_t i = 0; i < 4; ++i)
        {
            uint32_t e = t.AddEndpoint();
            t.Connect(e, 0, i < 2 ? s1 : s2, i, 10.0 + i);
        }
        WriteText(tt, "two-switch", t.ToText());
    }
    WriteText(tt, "errors", "switch s 0\nendpoint x:y\nlink a:0 b:0\nfoo\n");
}

// ---- st ---------------------------------------------------------------------------------

/// Record a session: the setup, then \p act, then frames until quiet.
void
StSession(const std::string& name, const std::function<void(StPair&)>& act)
{
    StPair w;
    if (!w.Setup())
    {
        std::fprintf(stderr, "seed-gen: ST setup failed\n");
        std::exit(1);
    }
    std::vector<uint8_t> records;
    uint64_t last = w.now;
    static std::map<std::string, int> opsSeen;
    w.tap = [&](bool toB, uint64_t t, const std::vector<uint8_t>& bytes) {
        const uint64_t dt = (t - last) / 1000; // us
        last = t;
        AppendRecord(records,
                     toB ? 1 : 0,
                     uint8_t(std::min<uint64_t>(dt, 255)),
                     bytes.data(),
                     bytes.size());
        ns3::st::StHeader h;
        if (ns3::st::StHeader::Decode(bytes.data(), bytes.size(), h) ==
                ns3::st::StDecodeStatus::Ok &&
            opsSeen[h.Name()]++ < 2)
        {
            Write("st-header-fuzzer", h.Name() + "-" + std::to_string(opsSeen[h.Name()]), bytes);
        }
    };
    act(w);
    w.Exchange();
    // Then let the timers of the session run out.
    AppendRecord(records, 0x84, 200, nullptr, 0);
    Write("st-endpoint-fuzzer", name, records);
}

void
StSeeds()
{
    using namespace ns3::st;
    StSession("write", [](StPair& w) {
        uint32_t id = 0;
        w.b.Find(w.ib)->PostReceive(w.now, 0, 2048);
        w.a.Find(w.ia)->Write(w.now, 100, 1500, StWriteOptions(), id);
    });
    StSession("read", [](StPair& w) {
        uint32_t id = 0;
        w.b.Find(w.ib)->PostSend(w.now, 0, 1024);
        w.a.Find(w.ia)->Read(w.now, 4096, 1024, id);
    });
    StSession("put-get-fetchop", [](StPair& w) {
        StConnection* c = w.a.Find(w.ia);
        uint32_t gid = 0;
        if (c->Put(w.now, w.region, 0, 0, 256) != StStatus::Ok)
        {
            std::fprintf(stderr, "seed-gen: PUT refused\n");
        }
        w.Exchange();
        c->Get(w.now, w.region, 64, 512, 128, gid);
        w.Exchange();
        c->FetchOp(w.now, w.region, 8, 1024, StFetchOp::Increment, gid);
        w.Exchange();
        c->End(w.now, w.region); // END releases the region; EA answers
    });
    StSession("state", [](StPair& w) {
        uint32_t sync = 0;
        w.a.Find(w.ia)->RequestState(w.now, StStateKind(1), 0, 0, sync);
        w.Exchange();
        uint32_t id = 0; // a write that finds no posted memory: RA pause, then starvation
        w.a.Find(w.ia)->Write(w.now, 0, 512, StWriteOptions(), id);
    });
    StSession("close", [](StPair& w) { w.a.Close(w.now, w.ia); });
    StSession("reconnect", [](StPair& w) {
        StConnId id = 0;
        w.b.Listen(6000);
        w.a.Connect(w.now, StPair::ADDR_B, 6000, StConnParams(), id);
    });
}

// ---- harp -------------------------------------------------------------------------------

/// A client (kOwn), a second client and server S1 on a fabric that delivers every frame
/// (broadcast: to everyone, the sender too) 1 ms later; records what \p client and the server
/// receive.
void
HarpSession(const std::string& name,
            harp::FabricMode mode,
            const std::function<void(harp::Client&, harp::TimeNs)>& act)
{
    using namespace harp;
    using namespace gsnfuzz::harpsetup;
    Client c(ClientSetup(mode));
    ClientConfig c2cfg = ClientSetup(mode);
    c2cfg.ula = MakeUla(0x0b);
    c2cfg.address = Ip(192, 0, 2, 11);
    Client c2(c2cfg);
    Server s(ServerSetup());
    std::vector<uint8_t> toClient{uint8_t(mode)};
    std::vector<uint8_t> toServer;
    TimeNs now = 0;
    TimeNs lastC = 0;
    TimeNs lastS = 0;
    auto deliver = [&](const Ula& from, const Frame& f) {
        const bool all = f.destination.IsBroadcast();
        const uint8_t srcBits = from == kS1 ? FROM_S1 << 3 : from == kS2 ? FROM_S2 << 3 : 0;
        if (all || f.destination == kOwn)
        {
            AppendRecord(toClient,
                         srcBits,
                         uint8_t(std::min<TimeNs>((now - lastC) / (10 * kMillisecond), 255)),
                         f.bytes.data(),
                         f.bytes.size());
            lastC = now;
            c.HandleFrame(now, from, f.bytes);
        }
        if (all || f.destination == c2cfg.ula)
        {
            c2.HandleFrame(now, from, f.bytes);
        }
        if (all || f.destination == kS1)
        {
            AppendRecord(toServer,
                         0,
                         uint8_t(std::min<TimeNs>((now - lastS) / (10 * kMillisecond), 255)),
                         f.bytes.data(),
                         f.bytes.size());
            lastS = now;
            s.HandleFrame(now, from, f.bytes);
        }
    };
    c.Start(now);
    c2.Start(now);
    for (int round = 0; round < 400; ++round)
    {
        now += 10 * kMillisecond;
        if (round == 150)
        {
            act(c, now);
        }
        for (auto* e : {&c, &c2})
        {
            RunDue(*e, now);
        }
        RunDue(s, now);
        std::vector<std::pair<Ula, Frame>> out;
        while (auto f = c.PollTransmit())
        {
            out.emplace_back(kOwn, *f);
        }
        while (auto f = c2.PollTransmit())
        {
            out.emplace_back(c2cfg.ula, *f);
        }
        while (auto f = s.PollTransmit())
        {
            out.emplace_back(kS1, *f);
        }
        for (const auto& [from, f] : out)
        {
            deliver(from, f);
        }
        while (c.PollEvent() || c2.PollEvent() || s.PollEvent())
        {
        }
    }
    Write("harp-client-fuzzer", name, toClient);
    Write("harp-server-fuzzer", name, toServer);
}

void
HarpSeeds()
{
    using namespace harp;
    using namespace gsnfuzz::harpsetup;
    for (FabricMode mode : {FabricMode::Detect, FabricMode::Broadcast, FabricMode::NonBroadcast})
    {
        const std::string m = std::to_string(int(mode));
        HarpSession("resolve-" + m, mode, [](Client& c, TimeNs now) {
            c.Resolve(now, Ip(192, 0, 2, 11));
            c.Resolve(now, Ip(192, 0, 2, 25)); // nobody: fails or NAK
        });
    }
    // Every operation's body, and resolutions as actions.
    int n = 0;
    for (Op op : {Op::ArpRequest, Op::ArpReply, Op::InArpRequest, Op::InArpReply, Op::Nak})
    {
        harp::Message msg;
        msg.op = op;
        msg.senderUla = MakeUla(0x0b);
        msg.senderIp = Ip(192, 0, 2, 11);
        msg.targetUla = op == Op::ArpRequest || op == Op::InArpRequest ? Ula() : kOwn;
        msg.targetIp = Ip(192, 0, 2, 10);
        Write("harp-message-fuzzer", "op-" + std::to_string(n++), msg.Serialize());
    }
    std::vector<uint8_t> actions{2};
    const uint8_t ip[] = {192, 0, 2, 12, 2, 0, 0, 0, 0, 0x0c};
    AppendRecord(actions, ADD_STATIC, 1, ip, sizeof(ip));
    AppendRecord(actions, RESOLVE, 1, ip, 4);
    AppendRecord(actions, REMOVE_STATIC, 1, ip, 4);
    AppendRecord(actions, RESOLVE, 1, ip, 4);
    AppendRecord(actions, TIME | 0x80, 30, nullptr, 0);
    Write("harp-client-fuzzer", "actions", actions);
    Write("harp-server-fuzzer",
          "actions",
          std::vector<uint8_t>(actions.begin() + 1, actions.end()));

    const std::string ot = "harp-options-fuzzer";
    WriteText(ot,
              "full",
              "# LIS_1\nfabric nonbroadcast\nserver 02:00:00:00:00:01\n"
              "server 02:00:00:00:00:02   # second\nstatic 192.0.2.9 02:00:00:00:00:09\n"
              "serve 192.0.2.0/27 192.0.2.1\nserve 192.0.2.32/0xFFFFFFE0 192.0.2.33\n\n"
              "broadcast-probes 5\nprobe-interval 500ms\nregistration-retry 10s\n"
              "request-timeout 3s\nrequest-retries 4\nreregistration-interval 15m\n"
              "cache-lifetime 15min\nregistration-lifetime 20m\nrevalidate-idle yes\n");
    WriteText(ot,
              "modes",
              "fabric detect\nfabric broadcast\nrevalidate-idle no\n"
              "probe-interval 1500us\nrequest-timeout 2000000ns\ncache-lifetime 1h\n"
              "registration-retry 3\n");
    WriteText(ot,
              "errors",
              "fabric sometimes\nserver 02:00\nstatic 300.1.1.1 x\nserve 1/33 2\n"
              "broadcast-probes -1\nprobe-interval 5 weeks\nbogus\n");
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 2)
    {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    g_out = argv[1];
    GsnSeeds();
    StSeeds();
    HarpSeeds();
    return 0;
}
