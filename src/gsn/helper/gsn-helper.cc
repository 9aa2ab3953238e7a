/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-helper.h"

#include "ns3/abort.h"
#include "ns3/error-model.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-net-device.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnHelper");

GsnHelper::GsnHelper()
{
    m_deviceFactory.SetTypeId("ns3::GsnNetDevice");
    m_channelFactory.SetTypeId("ns3::GsnChannel");
}

void
GsnHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
GsnHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
GsnHelper::Install(NodeContainer c)
{
    NS_ABORT_MSG_UNLESS(c.GetN() == 2,
                        "GsnHelper::Install: a GSN cable joins exactly two nodes, got "
                            << c.GetN());
    return Install(c.Get(0), c.Get(1));
}

NetDeviceContainer
GsnHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_ABORT_MSG_UNLESS(a && b, "GsnHelper::Install: null node");
    Ptr<GsnChannel> channel = m_channelFactory.Create<GsnChannel>();
    NetDeviceContainer devices;
    for (Ptr<Node> node : {a, b})
    {
        Ptr<GsnNetDevice> device = m_deviceFactory.Create<GsnNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        node->AddDevice(device);
        device->Attach(channel);
        // Back to back, a broadcast reaches the only other endpoint.
        device->SetFabricBroadcast(GsnFabricBroadcast::BROADCAST);
        devices.Add(device);
    }
    return devices;
}

int64_t
GsnHelper::AssignStreams(NetDeviceContainer c, int64_t stream)
{
    int64_t current = stream;
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(c.Get(i));
        if (port)
        {
            current += port->AssignStreams(current);
        }
    }
    return current - stream;
}

int64_t
GsnHelper::SetMicropacketErrorRate(NetDeviceContainer c, double rate, int64_t stream)
{
    NS_ABORT_MSG_UNLESS(rate >= 0.0 && rate <= 1.0,
                        "GsnHelper::SetMicropacketErrorRate: the rate must be in [0, 1], not "
                            << rate);
    int64_t current = stream;
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(c.Get(i));
        if (!port)
        {
            continue;
        }
        Ptr<RateErrorModel> em;
        if (rate > 0.0)
        {
            // One model per port, so that each draws its own sequence whatever the others do.
            em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(rate);
            current += em->AssignStreams(current);
        }
        port->SetReceiveErrorModel(em);
    }
    return current - stream;
}

void
GsnHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    Ptr<GsnNetDevice> device = nd->GetObject<GsnNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("GsnHelper::EnablePcapInternal(): device " << nd << " is not a GsnNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename,
                              std::ios::out,
                              static_cast<PcapHelper::DataLinkType>(PCAP_LINK_TYPE));
    pcapHelper.HookDefaultSink<GsnNetDevice>(device,
                                             promiscuous ? "PromiscSniffer" : "Sniffer",
                                             file);
}

void
GsnHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    Ptr<GsnNetDevice> device = nd->GetObject<GsnNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("GsnHelper::EnableAsciiInternal(): device " << nd << " is not a GsnNetDevice");
        return;
    }
    Packet::EnablePrinting();

    AsciiTraceHelper ascii;
    if (!stream)
    {
        // One file per device, no context in the lines.
        const std::string filename =
            explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> file = ascii.CreateFileStream(filename);
        ascii.HookDefaultReceiveSinkWithoutContext<GsnNetDevice>(device, "MacRx", file);
        ascii.HookDefaultDropSinkWithoutContext<GsnNetDevice>(device, "PhyRxDrop", file);
        ascii.HookDefaultDropSinkWithoutContext<GsnNetDevice>(device, "MacTxDrop", file);
        for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
        {
            Ptr<Queue<Packet>> queue = device->GetTxQueue(vc);
            ascii.HookDefaultEnqueueSinkWithoutContext<Queue<Packet>>(queue, "Enqueue", file);
            ascii.HookDefaultDequeueSinkWithoutContext<Queue<Packet>>(queue, "Dequeue", file);
            ascii.HookDefaultDropSinkWithoutContext<Queue<Packet>>(queue, "Drop", file);
        }
        return;
    }

    // A shared stream: every line carries the device's config path as context.
    std::ostringstream base;
    base << "/NodeList/" << nd->GetNode()->GetId() << "/DeviceList/" << nd->GetIfIndex()
         << "/$ns3::GsnNetDevice/";
    ascii.HookDefaultReceiveSinkWithContext<GsnNetDevice>(device,
                                                          base.str() + "MacRx",
                                                          "MacRx",
                                                          stream);
    ascii.HookDefaultDropSinkWithContext<GsnNetDevice>(device,
                                                       base.str() + "PhyRxDrop",
                                                       "PhyRxDrop",
                                                       stream);
    ascii.HookDefaultDropSinkWithContext<GsnNetDevice>(device,
                                                       base.str() + "MacTxDrop",
                                                       "MacTxDrop",
                                                       stream);
    for (uint8_t vc = 0; vc < gsn::NUM_VCS; ++vc)
    {
        Ptr<Queue<Packet>> queue = device->GetTxQueue(vc);
        std::ostringstream q;
        q << base.str() << "TxQueue/" << unsigned(vc) << "/";
        ascii.HookDefaultEnqueueSinkWithContext<Queue<Packet>>(queue,
                                                               q.str() + "Enqueue",
                                                               "Enqueue",
                                                               stream);
        ascii.HookDefaultDequeueSinkWithContext<Queue<Packet>>(queue,
                                                               q.str() + "Dequeue",
                                                               "Dequeue",
                                                               stream);
        ascii.HookDefaultDropSinkWithContext<Queue<Packet>>(queue,
                                                            q.str() + "Drop",
                                                            "Drop",
                                                            stream);
    }
}

} // namespace ns3
