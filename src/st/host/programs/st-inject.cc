/*
 * st-inject: sends malformed and stray ST frames raw onto an interface, for robustness tests:
 * each FILE's bytes as an ST operation (Ethernet II 0x8181), the same cut short at every
 * length below the 40-byte header, 802.3 + LLC/SNAP frames whose length field lies, and
 * --random frames of random bytes. A receiving stack must drop them all, count each under
 * its reason (st-stat: rx.Truncated, rx.UnknownOp, rx.UnknownKey, frames.drop.BadLength ...)
 * and go on working.
 *
 *   st-inject -i veth0 --to=02:00:00:00:00:02 fuzz/corpus/st-header-fuzzer/CTS-1 ...
 */
#include "st-command-line.h"
#include "st-ethernet-frame.h"
#include "st-header.h"
#include "st-packet-socket.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>

using namespace ns3::st;

int
main(int argc, char** argv)
{
    StCommandLine cmd("st-inject",
                      "st-inject: send malformed ST frames raw onto an interface (robustness "
                      "tests)\n  st-inject -i IFACE --to=MAC [--random=N] [FILE...]");
    std::string interface;
    std::string to;
    uint64_t random = 0;
    uint64_t seed = 1;
    cmd.AddString("interface", 'i', &interface, "the interface (required)");
    cmd.AddString("to", 0, &to, "destination MAC (required)");
    cmd.AddNumber("random", 0, &random, 0, 10000000, "frames of random bytes to add");
    cmd.AddNumber("seed", 0, &seed, 0, UINT64_MAX, "seed of the random frames");
    cmd.Parse(argc, argv);
    StMac dst{};
    if (interface.empty() || !StEthernetFrame::ParseMac(to.c_str(), dst))
    {
        cmd.Fail("-i IFACE and --to=MAC (aa:bb:cc:dd:ee:ff) are required");
    }
    StPacketSocket socket;
    std::string error;
    if (socket.Open(interface, 1 << 20, error) != 0)
    {
        cmd.Fail(error);
    }
    const StMac self = socket.GetLink().mac;
    uint64_t operations = 0;
    uint64_t cut = 0;
    uint64_t lying = 0;
    std::vector<uint8_t> frame;
    auto llcLie = [&](const std::vector<uint8_t>& op) {
        // An 802.3 length of more than the frame holds: the receiver cannot trust it.
        std::vector<uint8_t> f(60, 0);
        std::copy(dst.begin(), dst.end(), f.begin());
        std::copy(self.begin(), self.end(), f.begin() + 6);
        f[12] = 0x05;
        f[13] = 0xDC; // 1500
        const uint8_t snap[] = {0xAA, 0xAA, 0x03, 0, 0, 0, 0x81, 0x81};
        std::copy(std::begin(snap), std::end(snap), f.begin() + 14);
        std::copy(op.begin(), op.begin() + std::min<std::size_t>(op.size(), 38), f.begin() + 22);
        socket.SendRawFrame(f.data(), f.size());
        ++lying;
    };
    for (const std::string& path : cmd.Positional())
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
        {
            cmd.Fail("cannot read '" + path + "'");
        }
        const std::vector<uint8_t> op((std::istreambuf_iterator<char>(in)),
                                      std::istreambuf_iterator<char>());
        if (op.empty())
        {
            continue;
        }
        socket.Send(dst, op.data(), std::min<std::size_t>(op.size(), socket.GetLink().mtu));
        ++operations;
        for (std::size_t n = 1; n < ST_HEADER_SIZE && n < op.size(); n += 7)
        {
            socket.Send(dst, op.data(), n);
            ++cut;
        }
        llcLie(op);
    }
    std::mt19937_64 rng(seed);
    for (uint64_t i = 0; i < random; ++i)
    {
        std::vector<uint8_t> op(1 + rng() % std::min<uint64_t>(socket.GetLink().mtu, 200));
        for (auto& b : op)
        {
            b = static_cast<uint8_t>(rng());
        }
        socket.Send(dst, op.data(), op.size());
        ++operations;
    }
    std::printf("st-inject: %llu operations, %llu cut below the header, %llu 802.3 frames with "
                "a false length, to %s\n",
                static_cast<unsigned long long>(operations),
                static_cast<unsigned long long>(cut),
                static_cast<unsigned long long>(lying),
                to.c_str());
    return socket.GetCounters().txErrors == 0 ? 0 : 1;
}
