/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-host-interop: a simulated ST host on a real network. ns-3's real-time scheduler runs
 * one node whose device is an FdNetDevice on a real Linux interface (a raw AF_PACKET socket
 * opened here: EmuFdNetDeviceHelper would run a helper program that Debian's ns-3 installs
 * under a path it does not look in), with IPv4 (so that the real hosts' ARP finds it) and ST with
 * an StServer: on port 5000 it takes writes, on port 5001 it writes every write back (Echo). Real
 * ST hosts (build/host/st-bw --plain, st-lat --plain) talk to it as to any ST host: the simulator
 * and the Linux host layer speak the same wire format. Runs for --duration seconds of wall time,
 * then prints what it received and exits 0 if it received --expect writes or more.
 *
 *   ip netns exec sim build/examples/st-host-interop --interface=veth1 --address=10.0.0.2/24
 *   ip netns exec host build/host/st-bw -i veth0 --plain --size=64K --count=8 10.0.0.2
 *
 * Needs root (a raw socket). A bad option prints one line and exits with status 1.
 */
#include "ns3/core-module.h"
#include "ns3/fd-net-device-module.h"
#include "ns3/gsn-command-line-checks.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/st-module.h"

#include <arpa/inet.h>
#include <cstring>
#include <iostream>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace ns3;

namespace
{
/// A raw socket on \p interface (promiscuous, every protocol) and the interface's MAC; -1 if
/// it cannot be opened (the reason is printed).
int
OpenRawSocket(const std::string& interface, Mac48Address& mac)
{
    const int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
    if (fd < 0)
    {
        std::cerr << "st-host-interop: a raw socket needs CAP_NET_RAW (run as root): "
                  << std::strerror(errno) << std::endl;
        return -1;
    }
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, interface.c_str(), IFNAMSIZ - 1);
    if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
    {
        std::cerr << "st-host-interop: no interface named '" << interface << "'" << std::endl;
        close(fd);
        return -1;
    }
    sockaddr_ll sll{};
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = ifr.ifr_ifindex;
    packet_mreq mr{};
    mr.mr_ifindex = ifr.ifr_ifindex;
    mr.mr_type = PACKET_MR_PROMISC;
    if (bind(fd, reinterpret_cast<sockaddr*>(&sll), sizeof(sll)) < 0 ||
        setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0 ||
        ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
    {
        std::cerr << "st-host-interop: cannot bind to '"
                  << interface << "': " << std::strerror(errno) << std::endl;
        close(fd);
        return -1;
    }
    mac.CopyFrom(reinterpret_cast<const uint8_t*>(ifr.ifr_hwaddr.sa_data));
    return fd;
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string interface;
    std::string address = "10.0.0.2/24";
    std::string durationText = "10";
    std::string expectText = "0";
    std::string bufferText = "1048576";
    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("st-host-interop");
    check.AddValue(cmd, "interface", "Linux interface the simulated host sits on", interface);
    check.AddValue(cmd, "address", "its IPv4 address/prefix", address);
    check.AddValue(cmd, "duration", "seconds of wall time to run (1 to 3600)", durationText);
    check.AddValue(cmd, "expect", "writes it must receive to exit 0", expectText);
    check.AddValue(cmd, "buffer", "bytes the server posts per write (1 to 268435456)", bufferText);
    check.Parse(cmd, argc, argv);
    if (interface.empty())
    {
        check.Fail("interface", interface, "must name a Linux interface (e.g. veth1)");
    }
    const auto duration = check.Integer("duration", durationText, 1, 3600);
    const auto expect = uint64_t(check.Integer("expect", expectText, 0, int64_t(1) << 40));
    const auto buffer = uint64_t(check.Integer("buffer", bufferText, 1, int64_t(1) << 28));
    const std::size_t slash = address.find('/');
    Ipv4Address ip;
    if (slash == std::string::npos ||
        Ipv4Address(address.substr(0, slash).c_str()) == Ipv4Address::GetAny())
    {
        check.Fail("address", address, "must be an IPv4 address and prefix, e.g. 10.0.0.2/24");
    }
    ip = Ipv4Address(address.substr(0, slash).c_str());
    const auto prefix = uint16_t(check.Integer("address", address.substr(slash + 1), 1, 32));

    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));

    Mac48Address mac;
    const int fd = OpenRawSocket(interface, mac);
    if (fd < 0)
    {
        return 1;
    }
    NodeContainer node;
    node.Create(1);
    FdNetDeviceHelper fdHelper;
    NetDeviceContainer devices = fdHelper.Install(node.Get(0));
    Ptr<FdNetDevice> device = DynamicCast<FdNetDevice>(devices.Get(0));
    device->SetFileDescriptor(fd);
    device->SetAddress(mac); // the veth end's own address: the real hosts' ARP finds it
    InternetStackHelper internet;
    internet.Install(node);
    Ptr<Ipv4> ipv4 = node.Get(0)->GetObject<Ipv4>();
    const int32_t i = ipv4->AddInterface(devices.Get(0));
    ipv4->AddAddress(i, Ipv4InterfaceAddress(ip, Ipv4Mask(("/" + std::to_string(prefix)).c_str())));
    ipv4->SetUp(i);

    StHelper st;
    st.Install(node);
    StServerHelper sink(5000);
    sink.SetAttribute("BufferSize", UintegerValue(buffer));
    sink.SetAttribute("Verify", BooleanValue(false)); // the real hosts have their own pattern
    ApplicationContainer sinks = sink.Install(node.Get(0));
    StServerHelper echo(5001);
    echo.SetAttribute("Echo", BooleanValue(true));
    echo.SetAttribute("BufferSize", UintegerValue(65536));
    echo.SetAttribute("Verify", BooleanValue(false)); // the client checks what comes back
    ApplicationContainer echoes = echo.Install(node.Get(0));

    std::cout << "st-host-interop: simulated ST host " << ip << "/" << prefix << " on "
              << interface << " for " << duration << " s (ports 5000: writes, 5001: echo)"
              << std::endl;
    Simulator::Stop(Seconds(double(duration)));
    Simulator::Run();
    Ptr<StProtocol> protocol = node.Get(0)->GetObject<StProtocol>();
    const auto& c = protocol->GetCounters();
    const Ptr<StServer> s0 = DynamicCast<StServer>(sinks.Get(0));
    const Ptr<StServer> s1 = DynamicCast<StServer>(echoes.Get(0));
    const uint64_t writes = s0->GetTransfers() + s1->GetTransfers();
    std::cout << "st-host-interop: " << writes << " transfers (" << s0->GetReceivedBytes()
              << " bytes written to port 5000, " << s1->GetReceivedBytes()
              << " to 5001 and written back), " << protocol->GetAdapterCounters().rxFrames
              << " ST frames received, " << protocol->GetAdapterCounters().txFrames << " sent, "
              << c.Dropped() << " dropped" << std::endl;
    Simulator::Destroy();
    return writes >= expect ? 0 : 1;
}
