/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A fat tree for NetAnim: the fabric laid out by GsnLayoutHelper (endpoints at the bottom,
 * then edge, aggregation and core switches), endpoints and switches told apart by colour and
 * name, a short run of uniform random traffic, and the animation file NetAnim opens. Prints
 * the file's name and the Messages delivered.
 *
 * Usage: gsn-animation [--k=4] [--simTime=50us] [--file=gsn-animation.xml]
 */
#include "ns3/core-module.h"
#include "ns3/gsn-module.h"
#include "ns3/netanim-module.h"
#include "ns3/network-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    Time simTime = MicroSeconds(50);
    std::string file = "gsn-animation.xml";

    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Switch ports of the fat tree (even, 2 to 16): k^3/4 endpoints", k);
    cmd.AddValue("simTime", "Time during which endpoints generate traffic", simTime);
    cmd.AddValue("file", "The NetAnim file to write", file);
    cmd.Parse(argc, argv);
    if (k < 2 || k > 16 || k % 2 != 0)
    {
        std::cerr << "--k must be an even number from 2 to 16, not " << k << std::endl;
        return 1;
    }
    if (!simTime.IsStrictlyPositive())
    {
        std::cerr << "--simTime must be > 0" << std::endl;
        return 1;
    }

    GsnFabricHelper fabricHelper;
    GsnFabric fabric = fabricHelper.Install(GsnTopologyBuilder::FatTree(k));
    GsnLayoutHelper().Install(fabric);

    GsnTrafficHelper traffic;
    traffic.SetAttribute("OfferedLoad", DoubleValue(0.3));
    traffic.SetAttribute("MessageSize", StringValue("ns3::ConstantRandomVariable[Constant=4000]"));
    ApplicationContainer apps = traffic.Install(fabric.endpointDevices);
    apps.Start(MicroSeconds(5));
    apps.Stop(simTime);

    AnimationInterface anim(file);
    for (uint32_t i = 0; i < fabric.endpoints.GetN(); ++i)
    {
        Ptr<Node> node = fabric.endpoints.Get(i);
        anim.UpdateNodeDescription(node,
                                   fabric.topology.GetElement(fabric.endpointElements[i]).name);
        anim.UpdateNodeColor(node, 0, 128, 255);
    }
    for (uint32_t i = 0; i < fabric.switches.GetN(); ++i)
    {
        Ptr<Node> node = fabric.switches.Get(i);
        anim.UpdateNodeDescription(node, fabric.topology.GetElement(fabric.switchElements[i]).name);
        anim.UpdateNodeColor(node, 255, 96, 0);
        anim.UpdateNodeSize(node->GetId(), 4, 4);
    }

    Simulator::Stop(simTime + MicroSeconds(50));
    Simulator::Run();
    std::cout << "wrote " << file << ": " << fabric.endpoints.GetN() << " endpoints, "
              << fabric.switches.GetN() << " switches; " << traffic.GetStats()->GetDelivered()
              << " Messages delivered" << std::endl;
    Simulator::Destroy();
    return 0;
}
