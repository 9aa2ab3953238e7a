/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * st-test-harness.h: what the st module's ns-3 test suites share: two nodes joined by a GSN
 * cable or a CSMA Ethernet segment with ST installed, a log of every ST operation as it
 * went on the wire (decoded from the devices' PhyTxBegin trace, GSN Messages and Ethernet
 * frames alike), the events of each node's managed connections, and raw-frame injection.
 * Test code only.
 */
#ifndef ST_TEST_HARNESS_H
#define ST_TEST_HARNESS_H

#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/gsn-module.h"
#include "ns3/network-module.h"
#include "ns3/st-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace st
{
/// Print a status in test messages.
inline std::ostream&
operator<<(std::ostream& os, StStatus v)
{
    return os << StStatusName(v);
}

/// Print a connection state in test messages.
inline std::ostream&
operator<<(std::ostream& os, StConnState v)
{
    return os << StConnStateName(v);
}

/// Print a verdict in test messages.
inline std::ostream&
operator<<(std::ostream& os, StRxVerdict v)
{
    return os << StRxVerdictName(v);
}

/// Print a role in test messages.
inline std::ostream&
operator<<(std::ostream& os, StRole v)
{
    return os << (v == StRole::Source        ? "Source"
                  : v == StRole::Destination ? "Destination"
                                             : "None");
}

/// Print an event type in test messages.
inline std::ostream&
operator<<(std::ostream& os, StEventType v)
{
    return os << StEventTypeName(v);
}

/// Print a reason in test messages.
inline std::ostream&
operator<<(std::ostream& os, StReason v)
{
    static const char* const names[] = {"None", "Local", "Peer", "Timeout", "Refused"};
    return os << names[static_cast<int>(v)];
}
} // namespace st

namespace sttest
{

/// One ST operation seen on a wire.
struct WireOp
{
    Time time;           ///< when its first bit went out
    uint32_t node{0};    ///< sender (0 or 1)
    st::StHeader h;      ///< decoded header
    uint32_t len{0};     ///< ST bytes (header + payload/data; Ethernet padding included)
    int vc{-1};          ///< GSN VC from the GsnVcTag (-1 on Ethernet)
    bool llc{false};     ///< Ethernet frame with 802.3 length + LLC/SNAP
    bool dropped{false}; ///< dropped by the receiver's error model
};

/// The name of an op as the tests write it: "RTS", "CA(R)", "RA(R)", "FC", ...
inline std::string
OpLabel(const st::StHeader& h)
{
    std::string s = h.Name();
    if (h.Has(st::StFlag::REJECT) && (h.op == st::StOp::Ca || h.op == st::StOp::Ra))
    {
        s += "(R)";
    }
    return s;
}

/**
 * Extract the ST operation from a frame as a device traced it.
 * \param p the packet of PhyTxBegin/PhyRxDrop
 * \param gsn true: a GSN Message from its Header micropacket; false: an Ethernet frame
 * \param[out] st the ST bytes
 * \param[out] llc the Ethernet frame used LLC/SNAP
 * \return false if it is not ST
 */
inline bool
ExtractSt(Ptr<const Packet> p, bool gsn, std::vector<uint8_t>& st, bool& llc)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    llc = false;
    if (gsn)
    {
        // M_len(4) D_ULA(6) S_ULA(6) LLC/SNAP(8, EtherType last), payload.
        if (b.size() < 24 || b[22] != 0x81 || b[23] != 0x81)
        {
            return false;
        }
        st.assign(b.begin() + 24, b.end());
        return true;
    }
    // Ethernet: destination(6) source(6) type/length(2) ... FCS(4).
    if (b.size() < 18)
    {
        return false;
    }
    const uint16_t lt = static_cast<uint16_t>(b[12] << 8 | b[13]);
    if (lt == 0x8181)
    {
        st.assign(b.begin() + 14, b.end() - 4);
        return true;
    }
    if (lt <= 1500 && b.size() >= 22 + 4 && b[14] == 0xAA && b[20] == 0x81 && b[21] == 0x81)
    {
        llc = true;
        st.assign(b.begin() + 22, b.begin() + 14 + lt);
        return true;
    }
    return false;
}

/// Every ST operation that went on the wires of the harness.
class WireLog
{
  public:
    /// Watch \p dev of node \p node.
    void Attach(Ptr<NetDevice> dev, uint32_t node)
    {
        const bool gsn = DynamicCast<GsnNetDevice>(dev) != nullptr;
        dev->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>(
                [this, node, gsn](Ptr<const Packet> p) { Record(p, node, gsn, false); }));
        if (!gsn)
        {
            dev->TraceConnectWithoutContext(
                "PhyRxDrop",
                Callback<void, Ptr<const Packet>>(
                    [this, node](Ptr<const Packet> p) { MarkDropped(p, node); }));
        }
    }

    /// The ops as ">RC <CA ..." ('>' = sent by node 0), dropped ones with a trailing 'x'.
    std::string Ops(bool withData = true, std::size_t from = 0) const
    {
        std::string s;
        for (std::size_t i = from; i < ops.size(); ++i)
        {
            const WireOp& o = ops[i];
            if (!withData && o.h.op == st::StOp::Data)
            {
                continue;
            }
            if (!s.empty())
            {
                s += ' ';
            }
            s += o.node == 0 ? '>' : '<';
            s += OpLabel(o.h);
            if (o.dropped)
            {
                s += 'x';
            }
        }
        return s;
    }

    /// The ops node \p node sent, as "RD DA DC".
    std::string OpsOf(uint32_t node, std::size_t from = 0) const
    {
        std::string s;
        for (std::size_t i = from; i < ops.size(); ++i)
        {
            if (ops[i].node != node)
            {
                continue;
            }
            if (!s.empty())
            {
                s += ' ';
            }
            s += OpLabel(ops[i].h);
        }
        return s;
    }

    /// Ops named \p label sent by \p node.
    std::size_t Count(const std::string& label, uint32_t node) const
    {
        std::size_t n = 0;
        for (const auto& o : ops)
        {
            n += (o.node == node && OpLabel(o.h) == label) ? 1 : 0;
        }
        return n;
    }

    std::vector<WireOp> ops; ///< in the order they went out
    uint64_t notSt{0};       ///< frames that were not ST

  private:
    void Record(Ptr<const Packet> p, uint32_t node, bool gsn, bool)
    {
        std::vector<uint8_t> b;
        bool llc = false;
        if (!ExtractSt(p, gsn, b, llc))
        {
            ++notSt;
            return;
        }
        WireOp o;
        o.time = Simulator::Now();
        o.node = node;
        o.len = static_cast<uint32_t>(b.size());
        o.llc = llc;
        if (st::StHeader::Decode(b.data(), b.size(), o.h) != st::StDecodeStatus::Ok)
        {
            o.h = st::StHeader(); // shown as NOP
        }
        GsnVcTag tag;
        if (gsn && p->PeekPacketTag(tag))
        {
            o.vc = tag.GetVc();
        }
        ops.push_back(o);
    }

    void MarkDropped(Ptr<const Packet> p, uint32_t node)
    {
        std::vector<uint8_t> b;
        bool llc = false;
        st::StHeader h;
        if (!ExtractSt(p, false, b, llc) ||
            st::StHeader::Decode(b.data(), b.size(), h) != st::StDecodeStatus::Ok)
        {
            return;
        }
        // The last op of the other node with this header is the one lost.
        for (auto it = ops.rbegin(); it != ops.rend(); ++it)
        {
            if (it->node != node && it->h == h && !it->dropped)
            {
                it->dropped = true;
                return;
            }
        }
    }
};

/// Two nodes, 0 and 1, with ST on one link.
class StPair
{
  public:
    /// The kind of link.
    enum Link
    {
        GSN,  ///< GsnHelper back to back
        CSMA, ///< a two-node CSMA segment (Ethernet II)
    };

    /**
     * \param link the link
     * \param st attributes of both StProtocols (applied before install)
     */
    explicit StPair(Link link = GSN, StHelper st = StHelper())
    {
        nodes.Create(2);
        if (link == GSN)
        {
            GsnHelper gsn;
            devs = gsn.Install(nodes);
        }
        else
        {
            CsmaHelper csma;
            csma.SetChannelAttribute("DataRate", StringValue("100Mbps"));
            csma.SetChannelAttribute("Delay", TimeValue(MicroSeconds(2)));
            devs = csma.Install(nodes);
        }
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        st.Install(devs, addresses);
        StHelper::PopulateStaticTables(nodes);
        for (uint32_t i = 0; i < 2; ++i)
        {
            proto[i] = nodes.Get(i)->GetObject<StProtocol>();
            ip[i] = proto[i]->GetLocalAddress();
            log.Attach(devs.Get(i), i);
        }
    }

    ~StPair()
    {
        Simulator::Destroy();
    }

    /// Callback that records node \p i's events (and runs \p hook if set).
    StProtocol::EventCallback Recorder(uint32_t i)
    {
        return StProtocol::EventCallback([this, i](const st::StEvent& e) {
            ev[i].push_back(e);
            if (e.type == st::StEventType::ConnectionEstablished)
            {
                conn[i] = e.conn;
            }
            if (hook[i])
            {
                hook[i](e);
            }
        });
    }

    /// Node 1 listens on \p port, node 0 connects; run until both are connected.
    bool Connect(uint16_t port = 5000)
    {
        proto[1]->Listen(port, Recorder(1));
        proto[0]->Connect(ip[1], port, Recorder(0));
        Run(MicroSeconds(50));
        return conn[0] != 0 && conn[1] != 0;
    }

    /// Run the simulation for \p t more.
    void Run(Time t)
    {
        Simulator::Stop(t);
        Simulator::Run();
    }

    /**
     * Give node \p i \p bytes of memory (pattern \p seed) mapped TX and RX at Bufx 0 of its
     * connection.
     * \return the Mx
     */
    uint16_t MapMemory(uint32_t i, std::size_t bytes, uint8_t seed)
    {
        mem[i].resize(bytes);
        for (std::size_t k = 0; k < bytes; ++k)
        {
            mem[i][k] = static_cast<uint8_t>((k * 131 + seed * 7 + (k >> 8)) & 0xFF);
        }
        uint32_t handle = 0;
        uint16_t mx = 0;
        proto[i]->Map(conn[i],
                      st::StMemoryTable::PIN_TX | st::StMemoryTable::PIN_RX,
                      mem[i].data(),
                      bytes,
                      0,
                      handle,
                      mx);
        return mx;
    }

    /// Events of type \p t on node \p i.
    std::size_t CountEvents(uint32_t i, st::StEventType t) const
    {
        std::size_t n = 0;
        for (const auto& e : ev[i])
        {
            n += e.type == t ? 1 : 0;
        }
        return n;
    }

    /// The first event of type \p t on node \p i, or null.
    const st::StEvent* FindEvent(uint32_t i, st::StEventType t) const
    {
        for (const auto& e : ev[i])
        {
            if (e.type == t)
            {
                return &e;
            }
        }
        return nullptr;
    }

    /**
     * Put raw bytes on the wire from node \p from to the other node (as if its ST had sent
     * them): fault injection.
     */
    void Inject(uint32_t from, const std::vector<uint8_t>& bytes, uint8_t vc = 0)
    {
        Ptr<Packet> p = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
        p->AddPacketTag(GsnVcTag(vc));
        devs.Get(from)->Send(p, devs.Get(1 - from)->GetAddress(), StProtocol::PROT_NUMBER);
    }

    /// A header from node \p i's side of the connection, with its tuple filled in.
    st::StHeader Header(uint32_t i, st::StOp op)
    {
        st::StConnection* c = proto[i]->Find(conn[i]);
        st::StHeader h;
        h.op = op;
        h.dPort = c->GetRemotePort();
        h.sPort = c->GetLocalPort();
        h.dKey = c->GetRemoteKey();
        return h;
    }

    /// The 40 bytes of \p h followed by \p data.
    static std::vector<uint8_t> Encode(const st::StHeader& h, const std::vector<uint8_t>& data = {})
    {
        std::vector<uint8_t> b(st::ST_HEADER_SIZE);
        h.Encode(b.data());
        b.insert(b.end(), data.begin(), data.end());
        return b;
    }

    NodeContainer nodes;                             ///< node 0 and node 1
    NetDeviceContainer devs;                         ///< their devices
    Ptr<StProtocol> proto[2];                        ///< their ST
    Ipv4Address ip[2];                               ///< their ST addresses
    WireLog log;                                     ///< every op on the wire
    std::vector<st::StEvent> ev[2];                  ///< events of each node
    st::StConnId conn[2]{0, 0};                      ///< the connection on each node
    std::vector<uint8_t> mem[2];                     ///< memory of each node
    std::function<void(const st::StEvent&)> hook[2]; ///< extra event handling
};

} // namespace sttest
} // namespace ns3

#endif /* ST_TEST_HARNESS_H */
