/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Python bindings of ns-3's network module as scenarios use it: addresses, nodes, devices,
 * channels, packets, applications and their containers, packet sockets, pcap and ASCII
 * tracing, data rates, and the trace signatures of packets. Addresses given as text are
 * checked first (ns-3 aborts on a malformed one).
 */
#include "ns3-py.h"

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/application.h"
#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/names.h"
#include "ns3/net-device-container.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet-socket-address.h"
#include "ns3/packet-socket-client.h"
#include "ns3/packet-socket-helper.h"
#include "ns3/packet-socket-server.h"
#include "ns3/packet.h"
#include "ns3/tag.h"
#include "ns3/trace-helper.h"

#include <pybind11/operators.h>
#include <regex>

namespace ns3py
{

using namespace ns3;

namespace
{

/// \return \p text if it is a dotted-quad IPv4 address, else ValueError
std::string
CheckIpv4Text(const std::string& text, const char* what)
{
    static const std::regex quad("((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
                                 "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    static const std::regex prefix("/([0-9]|[12][0-9]|3[0-2])");
    if (std::regex_match(text, quad) ||
        (std::string(what) == "an IPv4 mask" && std::regex_match(text, prefix)))
    {
        return text;
    }
    throw py::value_error("\"" + text + "\" is not " + what);
}

/// \return \p text if it is a MAC-48 address xx:xx:xx:xx:xx:xx, else ValueError
std::string
CheckMacText(const std::string& text)
{
    static const std::regex mac("([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}");
    if (!std::regex_match(text, mac))
    {
        throw py::value_error("\"" + text + "\" is not a MAC-48 address (xx:xx:xx:xx:xx:xx)");
    }
    return text;
}

/// Give a container class len(), [] and iteration from GetN and Get.
template <typename C, typename Cls>
void
AddSequence(Cls& cls)
{
    cls.def("__len__", &C::GetN)
        .def("__getitem__",
             [](const C& c, int64_t i) {
                 if (i < 0)
                 {
                     i += c.GetN();
                 }
                 if (i < 0 || i >= int64_t(c.GetN()))
                 {
                     throw py::index_error("index out of range");
                 }
                 return c.Get(uint32_t(i));
             })
        .def("__iter__", [](const C& c) {
            py::list items;
            for (uint32_t i = 0; i < c.GetN(); ++i)
            {
                items.append(py::cast(c.Get(i)));
            }
            return py::iter(items);
        });
}

/// \return the Get(i) of a container, or IndexError
template <typename C>
auto
GetChecked(const C& c, uint32_t i)
{
    if (i >= c.GetN())
    {
        throw py::index_error("index " + std::to_string(i) + " out of range (" +
                              std::to_string(c.GetN()) + " items)");
    }
    return c.Get(i);
}

/// \return the named object of type T, or ValueError
template <typename T>
Ptr<T>
Named(const std::string& name)
{
    Ptr<T> p = Names::Find<T>(name);
    if (!p)
    {
        throw py::value_error("no object named \"" + name + "\" of the right type");
    }
    return p;
}

/// Bind the pcap methods of a helper class.
template <typename Cls>
void
BindPcap(Cls& c)
{
    using H = PcapHelperForDevice;
    c.def("EnablePcap",
          py::overload_cast<std::string, Ptr<NetDevice>, bool, bool>(&H::EnablePcap),
          py::arg("prefix"),
          py::arg("device"),
          py::arg("promiscuous") = false,
          py::arg("explicitFilename") = false)
        .def("EnablePcap",
             py::overload_cast<std::string, NetDeviceContainer, bool>(&H::EnablePcap),
             py::arg("prefix"),
             py::arg("devices"),
             py::arg("promiscuous") = false)
        .def("EnablePcap",
             py::overload_cast<std::string, NodeContainer, bool>(&H::EnablePcap),
             py::arg("prefix"),
             py::arg("nodes"),
             py::arg("promiscuous") = false)
        .def(
            "EnablePcap",
            [](H& h, std::string prefix, uint32_t node, uint32_t device, bool promiscuous) {
                if (node >= NodeList::GetNNodes() ||
                    device >= NodeList::GetNode(node)->GetNDevices())
                {
                    throw py::value_error("EnablePcap: no device " + std::to_string(device) +
                                          " on node " + std::to_string(node));
                }
                h.EnablePcap(prefix, node, device, promiscuous);
            },
            py::arg("prefix"),
            py::arg("nodeId"),
            py::arg("deviceId"),
            py::arg("promiscuous") = false)
        .def("EnablePcapAll", &H::EnablePcapAll, py::arg("prefix"), py::arg("promiscuous") = false);
}

/// Bind the ASCII tracing methods of a helper class.
template <typename Cls>
void
BindAscii(Cls& c)
{
    using H = AsciiTraceHelperForDevice;
    c.def("EnableAscii",
          py::overload_cast<std::string, Ptr<NetDevice>, bool>(&H::EnableAscii),
          py::arg("prefix"),
          py::arg("device"),
          py::arg("explicitFilename") = false)
        .def("EnableAscii",
             py::overload_cast<Ptr<OutputStreamWrapper>, Ptr<NetDevice>>(&H::EnableAscii),
             py::arg("stream"),
             py::arg("device"))
        .def("EnableAscii",
             py::overload_cast<std::string, NetDeviceContainer>(&H::EnableAscii),
             py::arg("prefix"),
             py::arg("devices"))
        .def("EnableAscii",
             py::overload_cast<Ptr<OutputStreamWrapper>, NetDeviceContainer>(&H::EnableAscii),
             py::arg("stream"),
             py::arg("devices"))
        .def("EnableAscii",
             py::overload_cast<std::string, NodeContainer>(&H::EnableAscii),
             py::arg("prefix"),
             py::arg("nodes"))
        .def("EnableAscii",
             py::overload_cast<Ptr<OutputStreamWrapper>, NodeContainer>(&H::EnableAscii),
             py::arg("stream"),
             py::arg("nodes"))
        .def("EnableAsciiAll",
             py::overload_cast<std::string>(&H::EnableAsciiAll),
             py::arg("prefix"))
        .def("EnableAsciiAll",
             py::overload_cast<Ptr<OutputStreamWrapper>>(&H::EnableAsciiAll),
             py::arg("stream"));
}

} // namespace

// The tracing bases, for the device helpers of other translation units.
void
BindTraceHelpers(py::module_& m)
{
    py::class_<PcapHelperForDevice> pcap(m, "PcapHelperForDevice");
    BindPcap(pcap);
    py::class_<AsciiTraceHelperForDevice> ascii(m, "AsciiTraceHelperForDevice");
    BindAscii(ascii);
}

void
BindNetwork(py::module_& m)
{
    // --- Addresses
    py::class_<Address>(m, "Address")
        .def(py::init<>())
        .def(py::init([](const Mac48Address& a) { return Address(a); }))
        .def(py::init([](const Ipv4Address& a) { return Address(a); }))
        .def(py::init([](const InetSocketAddress& a) { return Address(a); }))
        .def(py::init([](const PacketSocketAddress& a) { return Address(a); }))
        .def("GetLength", &Address::GetLength)
        .def("IsInvalid", &Address::IsInvalid)
        .def("__eq__", [](const Address& a, const Address& b) { return a == b; })
        .def("__str__", [](const Address& a) { return ToString(a); });

    py::class_<Mac48Address>(m, "Mac48Address")
        .def(py::init<>())
        .def(py::init([](const std::string& s) { return Mac48Address(CheckMacText(s).c_str()); }),
             py::arg("address"))
        .def_static("Allocate", &Mac48Address::Allocate)
        .def_static("GetBroadcast", &Mac48Address::GetBroadcast)
        .def_static("IsMatchingType", &Mac48Address::IsMatchingType, py::arg("address"))
        .def_static(
            "ConvertFrom",
            [](const Address& a) {
                if (!Mac48Address::IsMatchingType(a))
                {
                    throw py::value_error("the address is not a Mac48Address");
                }
                return Mac48Address::ConvertFrom(a);
            },
            py::arg("address"))
        .def("IsBroadcast", &Mac48Address::IsBroadcast)
        .def("IsGroup", &Mac48Address::IsGroup)
        .def("ToAddress", [](const Mac48Address& a) { return Address(a); })
        .def("__eq__", [](const Mac48Address& a, const Mac48Address& b) { return a == b; })
        .def("__lt__", [](const Mac48Address& a, const Mac48Address& b) { return a < b; })
        .def("__hash__",
             [](const Mac48Address& a) { return std::hash<std::string>()(ToString(a)); })
        .def("__str__", [](const Mac48Address& a) { return ToString(a); })
        .def("__repr__",
             [](const Mac48Address& a) { return "Mac48Address(\"" + ToString(a) + "\")"; });
    py::implicitly_convertible<Mac48Address, Address>();

    py::class_<Ipv4Mask>(m, "Ipv4Mask")
        .def(py::init<>())
        .def(py::init<uint32_t>(), py::arg("mask"))
        .def(py::init([](const std::string& s) {
                 return Ipv4Mask(CheckIpv4Text(s, "an IPv4 mask").c_str());
             }),
             py::arg("mask"))
        .def("Get", &Ipv4Mask::Get)
        .def("GetInverse", &Ipv4Mask::GetInverse)
        .def("GetPrefixLength", &Ipv4Mask::GetPrefixLength)
        .def("__eq__", [](const Ipv4Mask& a, const Ipv4Mask& b) { return a == b; })
        .def("__str__", [](const Ipv4Mask& a) { return ToString(a); })
        .def("__repr__", [](const Ipv4Mask& a) { return "Ipv4Mask(\"" + ToString(a) + "\")"; });
    py::implicitly_convertible<py::str, Ipv4Mask>();

    py::class_<Ipv4Address>(m, "Ipv4Address")
        .def(py::init<>())
        .def(py::init<uint32_t>(), py::arg("address"))
        .def(py::init([](const std::string& s) {
                 return Ipv4Address(CheckIpv4Text(s, "an IPv4 address").c_str());
             }),
             py::arg("address"))
        .def("Get", &Ipv4Address::Get)
        .def("CombineMask", &Ipv4Address::CombineMask, py::arg("mask"))
        .def("IsBroadcast", &Ipv4Address::IsBroadcast)
        .def("IsMulticast", &Ipv4Address::IsMulticast)
        .def("IsAny", &Ipv4Address::IsAny)
        .def_static("GetAny", &Ipv4Address::GetAny)
        .def_static("GetBroadcast", &Ipv4Address::GetBroadcast)
        .def_static("GetLoopback", &Ipv4Address::GetLoopback)
        .def_static("IsMatchingType", &Ipv4Address::IsMatchingType, py::arg("address"))
        .def_static(
            "ConvertFrom",
            [](const Address& a) {
                if (!Ipv4Address::IsMatchingType(a))
                {
                    throw py::value_error("the address is not an Ipv4Address");
                }
                return Ipv4Address::ConvertFrom(a);
            },
            py::arg("address"))
        .def("ToAddress", [](const Ipv4Address& a) { return Address(a); })
        .def("__eq__", [](const Ipv4Address& a, const Ipv4Address& b) { return a == b; })
        .def("__lt__", [](const Ipv4Address& a, const Ipv4Address& b) { return a < b; })
        .def("__hash__", [](const Ipv4Address& a) { return a.Get(); })
        .def("__str__", [](const Ipv4Address& a) { return ToString(a); })
        .def("__repr__",
             [](const Ipv4Address& a) { return "Ipv4Address(\"" + ToString(a) + "\")"; });
    py::implicitly_convertible<py::str, Ipv4Address>();
    py::implicitly_convertible<Ipv4Address, Address>();

    py::class_<InetSocketAddress>(m, "InetSocketAddress")
        .def(py::init<Ipv4Address, uint16_t>(), py::arg("address"), py::arg("port"))
        .def(py::init<Ipv4Address>(), py::arg("address"))
        .def(py::init<uint16_t>(), py::arg("port"))
        .def("GetIpv4", &InetSocketAddress::GetIpv4)
        .def("GetPort", &InetSocketAddress::GetPort)
        .def_static("IsMatchingType", &InetSocketAddress::IsMatchingType, py::arg("address"))
        .def_static(
            "ConvertFrom",
            [](const Address& a) {
                if (!InetSocketAddress::IsMatchingType(a))
                {
                    throw py::value_error("the address is not an InetSocketAddress");
                }
                return InetSocketAddress::ConvertFrom(a);
            },
            py::arg("address"))
        .def("ToAddress", [](const InetSocketAddress& a) { return Address(a); })
        .def("__str__", [](const InetSocketAddress& a) {
            return ToString(a.GetIpv4()) + ":" + std::to_string(a.GetPort());
        });
    py::implicitly_convertible<InetSocketAddress, Address>();

    py::class_<PacketSocketAddress>(m, "PacketSocketAddress")
        .def(py::init<>())
        .def("SetProtocol", &PacketSocketAddress::SetProtocol, py::arg("protocol"))
        .def("SetAllDevices", &PacketSocketAddress::SetAllDevices)
        .def("SetSingleDevice", &PacketSocketAddress::SetSingleDevice, py::arg("ifIndex"))
        .def("SetPhysicalAddress", &PacketSocketAddress::SetPhysicalAddress, py::arg("address"))
        .def("GetProtocol", &PacketSocketAddress::GetProtocol)
        .def("GetSingleDevice", &PacketSocketAddress::GetSingleDevice)
        .def("IsSingleDevice", &PacketSocketAddress::IsSingleDevice)
        .def("GetPhysicalAddress", &PacketSocketAddress::GetPhysicalAddress)
        .def("ToAddress", [](const PacketSocketAddress& a) { return Address(a); });
    py::implicitly_convertible<PacketSocketAddress, Address>();

    py::class_<DataRate>(m, "DataRate")
        .def(py::init<>())
        .def(py::init<uint64_t>(), py::arg("bps"))
        .def(py::init([](const std::string& s) {
                 // DataRate(std::string) aborts on text it cannot read.
                 const std::string problem = CheckAttributeText(MakeDataRateChecker(), s);
                 if (!problem.empty())
                 {
                     throw py::value_error(problem);
                 }
                 return DataRate(s);
             }),
             py::arg("rate"))
        .def("GetBitRate", &DataRate::GetBitRate)
        .def("CalculateBytesTxTime", &DataRate::CalculateBytesTxTime, py::arg("bytes"))
        .def("__eq__", [](const DataRate& a, const DataRate& b) { return a == b; })
        .def("__str__", [](const DataRate& a) { return ToString(a); });

    py::class_<DataRateValue, AttributeValue, Ptr<DataRateValue>>(m, "DataRateValue")
        .def(py::init([](const DataRate& r) { return Create<DataRateValue>(r); }), py::arg("value"))
        .def("Get", &DataRateValue::Get);
    py::class_<AddressValue, AttributeValue, Ptr<AddressValue>>(m, "AddressValue")
        .def(py::init([]() { return Create<AddressValue>(); }))
        .def(py::init([](const Address& a) { return Create<AddressValue>(a); }), py::arg("value"))
        .def("Get", &AddressValue::Get);
    py::class_<Ipv4AddressValue, AttributeValue, Ptr<Ipv4AddressValue>>(m, "Ipv4AddressValue")
        .def(py::init([]() { return Create<Ipv4AddressValue>(); }))
        .def(py::init([](const Ipv4Address& a) { return Create<Ipv4AddressValue>(a); }),
             py::arg("value"))
        .def("Get", &Ipv4AddressValue::Get);
    py::class_<Ipv4MaskValue, AttributeValue, Ptr<Ipv4MaskValue>>(m, "Ipv4MaskValue")
        .def(py::init([](const Ipv4Mask& a) { return Create<Ipv4MaskValue>(a); }), py::arg("value"))
        .def("Get", &Ipv4MaskValue::Get);
    py::class_<Mac48AddressValue, AttributeValue, Ptr<Mac48AddressValue>>(m, "Mac48AddressValue")
        .def(py::init([]() { return Create<Mac48AddressValue>(); }))
        .def(py::init([](const Mac48Address& a) { return Create<Mac48AddressValue>(a); }),
             py::arg("value"))
        .def("Get", &Mac48AddressValue::Get);

    // --- Packets
    py::class_<Tag>(m, "Tag");
    py::class_<Packet, Ptr<Packet>>(m, "Packet")
        .def(py::init([]() { return Create<Packet>(); }))
        .def(py::init([](uint32_t size) { return Create<Packet>(size); }), py::arg("size"))
        .def(py::init([](py::bytes data) {
                 std::string s = data;
                 return Create<Packet>(reinterpret_cast<const uint8_t*>(s.data()),
                                       uint32_t(s.size()));
             }),
             py::arg("data"))
        .def("GetSize", &Packet::GetSize)
        .def("GetUid", &Packet::GetUid)
        .def("Copy", &Packet::Copy)
        .def(
            "CopyData",
            [](const Packet& p, uint32_t size) {
                std::string out(std::min(size, p.GetSize()), '\0');
                p.CopyData(reinterpret_cast<uint8_t*>(out.data()), uint32_t(out.size()));
                return py::bytes(out);
            },
            py::arg("size"))
        .def("ToString", &Packet::ToString)
        .def("AddPacketTag", &Packet::AddPacketTag, py::arg("tag"))
        .def("PeekPacketTag", &Packet::PeekPacketTag, py::arg("tag"))
        .def("RemovePacketTag", &Packet::RemovePacketTag, py::arg("tag"))
        .def("__len__", &Packet::GetSize)
        .def("__str__", &Packet::ToString);

    // --- Nodes, devices, channels, applications
    py::class_<Node, Object, Ptr<Node>>(m, "Node")
        .def(py::init([]() { return CreateObject<Node>(); }))
        .def_static("GetTypeId", &Node::GetTypeId)
        .def("GetId", &Node::GetId)
        .def("GetSystemId", &Node::GetSystemId)
        .def("GetNDevices", &Node::GetNDevices)
        .def(
            "GetDevice",
            [](const Node& n, uint32_t i) {
                if (i >= n.GetNDevices())
                {
                    throw py::index_error("node " + std::to_string(n.GetId()) + " has no device " +
                                          std::to_string(i));
                }
                return n.GetDevice(i);
            },
            py::arg("index"))
        .def("AddDevice", &Node::AddDevice, py::arg("device"))
        .def("GetNApplications", &Node::GetNApplications)
        .def(
            "GetApplication",
            [](const Node& n, uint32_t i) {
                if (i >= n.GetNApplications())
                {
                    throw py::index_error("node " + std::to_string(n.GetId()) +
                                          " has no application " + std::to_string(i));
                }
                return n.GetApplication(i);
            },
            py::arg("index"))
        .def("AddApplication", &Node::AddApplication, py::arg("application"));

    py::class_<NodeList, std::unique_ptr<NodeList, py::nodelete>>(m, "NodeList")
        .def_static("GetNNodes", &NodeList::GetNNodes)
        .def_static(
            "GetNode",
            [](uint32_t i) {
                if (i >= NodeList::GetNNodes())
                {
                    throw py::index_error("no node " + std::to_string(i));
                }
                return NodeList::GetNode(i);
            },
            py::arg("index"));

    py::class_<Channel, Object, Ptr<Channel>>(m, "Channel")
        .def_static("GetTypeId", &Channel::GetTypeId)
        .def("GetId", &Channel::GetId)
        .def("GetNDevices", &Channel::GetNDevices)
        .def("GetDevice", &Channel::GetDevice, py::arg("index"));

    py::class_<NetDevice, Object, Ptr<NetDevice>>(m, "NetDevice")
        .def_static("GetTypeId", &NetDevice::GetTypeId)
        .def("GetIfIndex", &NetDevice::GetIfIndex)
        .def("GetAddress", &NetDevice::GetAddress)
        .def("GetBroadcast", &NetDevice::GetBroadcast)
        .def("GetNode", &NetDevice::GetNode)
        .def("GetChannel", &NetDevice::GetChannel)
        .def("GetMtu", &NetDevice::GetMtu)
        .def("IsLinkUp", &NetDevice::IsLinkUp)
        .def("IsPointToPoint", &NetDevice::IsPointToPoint)
        .def("IsBroadcast", &NetDevice::IsBroadcast)
        .def("Send", &NetDevice::Send, py::arg("packet"), py::arg("dest"), py::arg("protocol"));

    py::class_<Application, Object, Ptr<Application>>(m, "Application")
        .def_static("GetTypeId", &Application::GetTypeId)
        .def("SetStartTime", &Application::SetStartTime, py::arg("start"))
        .def("SetStopTime", &Application::SetStopTime, py::arg("stop"))
        .def("GetNode", &Application::GetNode);

    py::class_<NodeContainer> nodes(m, "NodeContainer");
    nodes.def(py::init<>())
        .def(py::init<Ptr<Node>>(), py::arg("node"))
        .def(py::init([](uint32_t n) {
                 NodeContainer c;
                 c.Create(n);
                 return c;
             }),
             py::arg("n"))
        .def(py::init(
            [](const NodeContainer& a, const NodeContainer& b) { return NodeContainer(a, b); }))
        .def("Create", py::overload_cast<uint32_t>(&NodeContainer::Create), py::arg("n"))
        .def(
            "Add",
            [](NodeContainer& c, const NodeContainer& other) { c.Add(other); },
            py::arg("nodes"))
        .def(
            "Add",
            [](NodeContainer& c, Ptr<Node> node) { c.Add(node); },
            py::arg("node"))
        .def(
            "Add",
            [](NodeContainer& c, const std::string& name) { c.Add(Named<Node>(name)); },
            py::arg("name"))
        .def("Get", &GetChecked<NodeContainer>, py::arg("index"))
        .def("GetN", &NodeContainer::GetN)
        .def("Contains", &NodeContainer::Contains, py::arg("id"))
        .def_static("GetGlobal", &NodeContainer::GetGlobal);
    AddSequence<NodeContainer>(nodes);

    py::class_<NetDeviceContainer> devices(m, "NetDeviceContainer");
    devices.def(py::init<>())
        .def(py::init<Ptr<NetDevice>>(), py::arg("device"))
        .def(py::init<const NetDeviceContainer&, const NetDeviceContainer&>())
        .def("Add",
             py::overload_cast<NetDeviceContainer>(&NetDeviceContainer::Add),
             py::arg("devices"))
        .def("Add", py::overload_cast<Ptr<NetDevice>>(&NetDeviceContainer::Add), py::arg("device"))
        .def(
            "Add",
            [](NetDeviceContainer& c, const std::string& name) { c.Add(Named<NetDevice>(name)); },
            py::arg("name"))
        .def("Get", &GetChecked<NetDeviceContainer>, py::arg("index"))
        .def("GetN", &NetDeviceContainer::GetN);
    AddSequence<NetDeviceContainer>(devices);

    py::class_<ApplicationContainer> apps(m, "ApplicationContainer");
    apps.def(py::init<>())
        .def(py::init<Ptr<Application>>(), py::arg("application"))
        .def("Add",
             py::overload_cast<ApplicationContainer>(&ApplicationContainer::Add),
             py::arg("applications"))
        .def("Add",
             py::overload_cast<Ptr<Application>>(&ApplicationContainer::Add),
             py::arg("application"))
        .def("Get", &GetChecked<ApplicationContainer>, py::arg("index"))
        .def("GetN", &ApplicationContainer::GetN)
        .def("Start", &ApplicationContainer::Start, py::arg("start"))
        .def("Stop", &ApplicationContainer::Stop, py::arg("stop"));
    AddSequence<ApplicationContainer>(apps);

    // --- Packet sockets (Messages straight onto a device)
    py::class_<PacketSocketHelper>(m, "PacketSocketHelper")
        .def(py::init<>())
        .def(
            "Install",
            [](const PacketSocketHelper& h, NodeContainer c) { h.Install(c); },
            py::arg("nodes"))
        .def(
            "Install",
            [](const PacketSocketHelper& h, Ptr<Node> n) { h.Install(n); },
            py::arg("node"));
    py::class_<PacketSocketClient, Application, Ptr<PacketSocketClient>>(m, "PacketSocketClient")
        .def(py::init([]() { return CreateObject<PacketSocketClient>(); }))
        .def_static("GetTypeId", &PacketSocketClient::GetTypeId)
        .def("SetRemote", &PacketSocketClient::SetRemote, py::arg("address"));
    py::class_<PacketSocketServer, Application, Ptr<PacketSocketServer>>(m, "PacketSocketServer")
        .def(py::init([]() { return CreateObject<PacketSocketServer>(); }))
        .def_static("GetTypeId", &PacketSocketServer::GetTypeId)
        .def("SetLocal", &PacketSocketServer::SetLocal, py::arg("address"));

    // --- Tracing
    py::class_<OutputStreamWrapper, Ptr<OutputStreamWrapper>>(m, "OutputStreamWrapper");
    py::class_<AsciiTraceHelper>(m, "AsciiTraceHelper")
        .def(py::init<>())
        .def(
            "CreateFileStream",
            [](AsciiTraceHelper& h, const std::string& name) {
                // ns-3 aborts when the file cannot be opened.
                py::object open = py::module_::import("builtins").attr("open");
                open(name, "a").attr("close")();
                return h.CreateFileStream(name);
            },
            py::arg("filename"));
    BindTraceHelpers(m);

    // The trace signatures of packets.
    RegisterTrace("ns3::Packet::TracedCallback", static_cast<Packet::TracedCallback>(nullptr));
    RegisterTrace("ns3::TracedValueCallback::DataRate",
                  static_cast<TracedValueCallback::DataRate>(nullptr));
    RegisterTrace("ns3::Packet::AddressTracedCallback",
                  static_cast<Packet::AddressTracedCallback>(nullptr));
    RegisterTrace("ns3::Packet::TwoAddressTracedCallback",
                  static_cast<Packet::TwoAddressTracedCallback>(nullptr));
    RegisterTrace("ns3::Packet::SizeTracedCallback",
                  static_cast<Packet::SizeTracedCallback>(nullptr));
    RegisterTrace("ns3::Packet::Mac48AddressTracedCallback",
                  static_cast<Packet::Mac48AddressTracedCallback>(nullptr));
}

} // namespace ns3py
