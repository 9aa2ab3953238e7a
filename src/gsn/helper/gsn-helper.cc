/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-helper.h"

#include "ns3/abort.h"
#include "ns3/error-model.h"
#include "ns3/gsn-channel.h"
#include "ns3/gsn-net-device.h"
#include "ns3/gsn-pcap-header.h"
#include "ns3/gsn-remote-port.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnHelper");

namespace
{

/**
 * A pcap file written in time order. A port traces the micropackets of a run when it
 * chooses them, at the run's start, with their own later times (Run link mode): such records
 * wait here until the simulation has passed their time. No record is traced at a time
 * later than its own, so the records older than now are final.
 */
class GsnPcapWriter : public SimpleRefCount<GsnPcapWriter>
{
  public:
    /// \param file the file to write
    explicit GsnPcapWriter(Ptr<PcapFileWrapper> file)
        : m_file(file)
    {
    }

    ~GsnPcapWriter()
    {
        Close();
    }

    /// Write \p packet as a record of time \p t (not earlier than now).
    /// \param t the record's time \param packet its bytes
    void Write(Time t, Ptr<const Packet> packet)
    {
        if (!m_file)
        {
            return; // closed: the simulation was destroyed
        }
        const Time now = Simulator::Now();
        t = std::max(t, now);
        if (m_pending.empty() && t == now)
        {
            m_file->Write(t, packet);
            return;
        }
        m_pending.emplace(t, packet);
        const auto final = m_pending.lower_bound(now);
        for (auto it = m_pending.begin(); it != final; ++it)
        {
            m_file->Write(it->first, it->second);
        }
        m_pending.erase(m_pending.begin(), final);
    }

    /// Write every record still waiting and close the file (the simulation is over).
    void Close()
    {
        if (!m_file)
        {
            return;
        }
        for (const auto& [t, packet] : m_pending)
        {
            m_file->Write(t, packet);
        }
        m_pending.clear();
        m_file->Close();
        m_file = nullptr;
    }

  private:
    Ptr<PcapFileWrapper> m_file;                      ///< the file
    std::multimap<Time, Ptr<const Packet>> m_pending; ///< records ahead of now, by time
};

/// A Message sent or received by an endpoint, without pseudo-header (link type 147).
void
GsnPcapMessage(Ptr<GsnPcapWriter> writer,
               GsnNetDevice* device,
               Ptr<const Packet> message,
               uint8_t /* vc */,
               bool received)
{
    writer->Write(received ? Simulator::Now() : device->GetSlotTime(), message);
}

/// A Message sent or received by an endpoint, behind a GsnPcapHeader (link type 149).
void
GsnPcapVcMessage(Ptr<GsnPcapWriter> writer,
                 GsnNetDevice* device,
                 Ptr<const Packet> message,
                 uint8_t vc,
                 bool received)
{
    Ptr<Packet> record = message->Copy();
    record->AddHeader(GsnPcapHeader(vc, received ? GsnPcapHeader::RECEIVED : GsnPcapHeader::SENT));
    writer->Write(received ? Simulator::Now() : device->GetSlotTime(), record);
}

/// A micropacket a port sends or receives (link type 148): 40 wire bytes.
void
GsnPcapMicropacket(Ptr<GsnPcapWriter> writer,
                   GsnPortDevice* port,
                   bool received,
                   const GsnMicropacket& mp)
{
    uint8_t wire[gsn::MICROPACKET_BYTES];
    mp.Serialize(wire);
    writer->Write(received ? port->GetRxArrivalTime() : port->GetSlotTime(),
                  Create<Packet>(wire, gsn::MICROPACKET_BYTES));
}

} // namespace

GsnHelper::GsnHelper()
    : m_pcapVcHeader(true)
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
GsnHelper::SetHostProfile(const std::string& name)
{
    m_hostAdapter.SetProfile(name);
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
        m_hostAdapter.Install(device);
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
        else if (DynamicCast<GsnRemotePort>(c.Get(i)))
        {
            // Another rank's port takes its stream there: the same numbers on every rank.
            current += GsnPortDevice::STREAMS_PER_PORT;
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
            if (rate > 0.0 && DynamicCast<GsnRemotePort>(c.Get(i)))
            {
                current += 1; // (its RateErrorModel's one stream, drawn on its rank)
            }
            continue;
        }
        Ptr<RateErrorModel> em;
        if (rate > 0.0)
        {
            // One model per port, so that each draws its own sequence whatever the others do.
            em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(rate);
            const int64_t used = em->AssignStreams(current);
            NS_ASSERT_MSG(used == 1, "a RateErrorModel draws from one stream");
            current += used;
        }
        port->SetReceiveErrorModel(em);
    }
    return current - stream;
}

void
GsnHelper::SetPcapVcHeader(bool enable)
{
    m_pcapVcHeader = enable;
}

void
GsnHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    Ptr<GsnPortDevice> port = DynamicCast<GsnPortDevice>(nd);
    if (!port)
    {
        NS_LOG_INFO("GsnHelper::EnablePcapInternal(): device " << nd << " is not a GSN port");
        return;
    }
    Ptr<GsnNetDevice> device = DynamicCast<GsnNetDevice>(nd);
    const uint32_t linkType = !device          ? PCAP_MICROPACKET_LINK_TYPE
                              : m_pcapVcHeader ? PCAP_VC_LINK_TYPE
                                               : PCAP_LINK_TYPE;
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, nd);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename,
                              std::ios::out,
                              static_cast<PcapHelper::DataLinkType>(linkType));
    Ptr<GsnPcapWriter> writer = Create<GsnPcapWriter>(file);
    // Records traced ahead of their time are written when the simulation ends, at the
    // latest, and the file is closed then. (The callbacks hold the device by a plain pointer:
    // they live in it.)
    Simulator::ScheduleDestroy(&GsnPcapWriter::Close, writer);
    if (!device)
    {
        // A switch port: its micropackets, both ways (promiscuous or not, all of them).
        port->TraceConnectWithoutContext(
            "MicropacketTx",
            MakeBoundCallback(&GsnPcapMicropacket, writer, PeekPointer(port), false));
        port->TraceConnectWithoutContext(
            "MicropacketRx",
            MakeBoundCallback(&GsnPcapMicropacket, writer, PeekPointer(port), true));
        return;
    }
    device->TraceConnectWithoutContext(
        promiscuous ? "PromiscSnifferVc" : "SnifferVc",
        MakeBoundCallback(m_pcapVcHeader ? &GsnPcapVcMessage : &GsnPcapMessage,
                          writer,
                          PeekPointer(device)));
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
