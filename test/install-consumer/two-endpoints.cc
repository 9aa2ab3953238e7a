/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Two GSN endpoints on one cable, one 4096-byte Message from the first to the second: the
 * smallest scenario built against an installed copy of the gsn module. Prints the Message's
 * arrival and exits 1 if it did not arrive.
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    CommandLine cmd(__FILE__);
    cmd.Parse(argc, argv);

    NodeContainer nodes(2);
    GsnHelper gsn;
    NetDeviceContainer devices = gsn.Install(nodes);

    uint32_t received = 0;
    Time arrival;
    devices.Get(1)->SetReceiveCallback(
        [&](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&) {
            received += p->GetSize();
            arrival = Simulator::Now();
            return true;
        });
    Simulator::Schedule(MicroSeconds(10), [&]() {
        devices.Get(0)->Send(Create<Packet>(4000), devices.Get(1)->GetAddress(), 0x0800);
    });
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    Simulator::Destroy();

    std::cout << "received " << received << " bytes at " << arrival.As(Time::NS) << std::endl;
    return received == 4000 ? 0 : 1;
}
