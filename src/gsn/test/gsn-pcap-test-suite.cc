/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of GsnHelper's pcap files: the endpoints' Message records behind the VC
 * pseudo-header (link type 149) or without it (147), and the switch ports' micropacket
 * records (148), in both link modes: what was sent, on which VC, both directions, every
 * record in time order, and the same files from the Run link mode as from the reference on a
 * scenario where the two agree.
 */
#include "gsn-fabric-harness.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/gsn-fabric-helper.h"
#include "ns3/gsn-micropacket.h"
#include "ns3/gsn-pcap-header.h"
#include "ns3/gsn-topology-builder.h"
#include "ns3/mac48-address.h"
#include "ns3/pcap-file.h"
#include "ns3/test.h"
#include "ns3/trace-helper.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::gsntest;

namespace
{

/// One pcap record.
struct Record
{
    uint64_t ns;               ///< time stamp, ns
    std::vector<uint8_t> data; ///< bytes
};

/// One pcap file.
struct PcapContents
{
    uint32_t linkType{0};        ///< link type
    std::vector<Record> records; ///< records
};

PcapContents
ReadPcap(const std::string& name)
{
    PcapContents c;
    PcapFile f;
    f.Open(name, std::ios::in);
    NS_ABORT_MSG_IF(f.Fail(), "cannot open " << name);
    c.linkType = f.GetDataLinkType();
    const bool nanosec = f.IsNanoSecMode();
    std::vector<uint8_t> buffer(1 << 20);
    for (;;)
    {
        uint32_t sec = 0;
        uint32_t frac = 0;
        uint32_t inclLen = 0;
        uint32_t origLen = 0;
        uint32_t readLen = 0;
        f.Read(buffer.data(), buffer.size(), sec, frac, inclLen, origLen, readLen);
        if (f.Eof() || f.Fail())
        {
            break;
        }
        Record r;
        r.ns = uint64_t(sec) * 1000000000 + (nanosec ? frac : uint64_t(frac) * 1000);
        r.data.assign(buffer.begin(), buffer.begin() + readLen);
        c.records.push_back(std::move(r));
    }
    return c;
}

/// A Message sent in the scenario: source endpoint, VC, payload size.
struct Sent
{
    uint32_t from; ///< source endpoint
    uint8_t vc;    ///< VC
    uint32_t size; ///< payload bytes
};

/// The scenario's Messages: both ways, every VC, short and long.
const std::vector<Sent> SENT = {
    {0, 1, 100},
    {0, 2, 1000},
    {0, 3, 3000},
    {1, 0, 200},
    {0, 1, 40},
    {1, 3, 2000},
};

/// The files written by a star of two endpoints, by file name.
struct Scenario
{
    std::map<std::string, PcapContents> files; ///< by name
    std::map<std::string, uint32_t> endpoint;  ///< endpoint index of an endpoint's file
    std::map<uint32_t, uint8_t> ulaByte;       ///< last byte of each endpoint's ULA
};

Scenario
RunScenario(const std::string& prefix, const std::string& linkMode, bool vcHeader)
{
    Config::SetDefault("ns3::PcapFileWrapper::NanosecMode", BooleanValue(true));
    Mac48Address::ResetAllocationIndex(); // the same ULAs in every scenario
    std::vector<std::string> names;
    Scenario result;
    {
        GsnFabricHelper helper;
        helper.SetLinkMode(linkMode);
        helper.SetPcapVcHeader(vcHeader);
        FabricHarness h(helper, GsnTopologyBuilder::Star(2));
        helper.EnablePcapAll(prefix);
        PcapHelper pcap;
        for (uint32_t i = 0; i < h.fabric.endpointDevices.GetN(); ++i)
        {
            const std::string name =
                pcap.GetFilenameFromDevice(prefix, h.fabric.endpointDevices.Get(i));
            names.push_back(name);
            result.endpoint[name] = i;
            uint8_t ula[6];
            Mac48Address::ConvertFrom(h.fabric.endpointDevices.Get(i)->GetAddress()).CopyTo(ula);
            result.ulaByte[i] = ula[5];
        }
        for (uint32_t i = 0; i < h.fabric.switchPorts.GetN(); ++i)
        {
            names.push_back(pcap.GetFilenameFromDevice(prefix, h.fabric.switchPorts.Get(i)));
        }
        Time at = MicroSeconds(20);
        for (const Sent& s : SENT)
        {
            Simulator::Schedule(at, [&h, s]() { h.Send(s.from, 1 - s.from, s.vc, s.size); });
            at += MicroSeconds(3);
        }
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        NS_ABORT_MSG_UNLESS(h.AllDelivered(), "the scenario's Messages were not all delivered");
    } // Simulator::Destroy: the files are complete
    Config::SetDefault("ns3::PcapFileWrapper::NanosecMode", BooleanValue(false));
    for (const std::string& name : names)
    {
        result.files[name] = ReadPcap(name);
    }
    return result;
}

/// \param m a Message record's bytes from M_len on \return its M_len
uint32_t
ReadMlen(const uint8_t* m)
{
    return uint32_t(m[0]) << 24 | uint32_t(m[1]) << 16 | uint32_t(m[2]) << 8 | m[3];
}

/// M_len of the Message carrying \p size payload bytes.
uint32_t
MessageLength(uint32_t size)
{
    return gsn::LLC_SNAP_BYTES + std::max<uint32_t>(size, 12);
}

} // namespace

/**
 * \ingroup gsn-tests
 * Endpoint files (link type 149 or 147) and switch port files (148) of one link mode.
 */
class GsnPcapFilesTestCase : public TestCase
{
  public:
    /// \param linkMode "Micropacket" or "Run" \param vcHeader endpoints' files with the
    /// pseudo-header
    GsnPcapFilesTestCase(std::string linkMode, bool vcHeader)
        : TestCase("pcap files of endpoints and switch ports, " + linkMode + " link mode" +
                   (vcHeader ? "" : ", without the VC pseudo-header")),
          m_linkMode(linkMode),
          m_vcHeader(vcHeader)
    {
    }

  private:
    void DoRun() override
    {
        const Scenario scenario =
            RunScenario(CreateTempDirFilename("gsn-pcap"), m_linkMode, m_vcHeader);
        NS_TEST_ASSERT_MSG_EQ(scenario.files.size(), 4, "two endpoints and two switch ports");
        const uint32_t front = m_vcHeader ? GsnPcapHeader::SIZE : 0;
        uint32_t endpointFiles = 0;
        uint32_t portFiles = 0;
        std::map<uint8_t, uint32_t> headersFrom; // Header micropackets by S_ULA's last byte
        for (const auto& [name, c] : scenario.files)
        {
            uint64_t last = 0;
            for (const Record& r : c.records)
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(r.ns, last, name << ": records in time order");
                last = r.ns;
            }
            const auto endpoint = scenario.endpoint.find(name);
            if (endpoint == scenario.endpoint.end())
            {
                // A switch port: 40-byte micropackets both ways, good LCRCs.
                NS_TEST_ASSERT_MSG_EQ(c.linkType, GsnHelper::PCAP_MICROPACKET_LINK_TYPE, name);
                ++portFiles;
                uint32_t data = 0;
                for (const Record& r : c.records)
                {
                    NS_TEST_ASSERT_MSG_EQ(r.data.size(), gsn::MICROPACKET_BYTES, name);
                    const GsnMicropacket mp = GsnMicropacket::Deserialize(r.data.data());
                    NS_TEST_ASSERT_MSG_EQ(mp.LcrcIsGood(), true, name << ": LCRC");
                    if (mp.GetType() == GsnMicropacketType::HEADER)
                    {
                        ++headersFrom[r.data[15]]; // S_ULA: bytes 10-15
                    }
                    data += mp.GetType() == GsnMicropacketType::DATA;
                }
                NS_TEST_ASSERT_MSG_GT(data, 0, name << ": Data micropackets");
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(
                c.linkType,
                (m_vcHeader ? GsnHelper::PCAP_VC_LINK_TYPE : GsnHelper::PCAP_LINK_TYPE),
                name << ": link type");
            ++endpointFiles;
            const uint32_t index = endpoint->second;
            const uint8_t own = scenario.ulaByte.at(index);
            std::vector<const Record*> sent;
            std::vector<const Record*> received;
            for (const Record& r : c.records)
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(r.data.size(), front + 24, name);
                const uint8_t* m = r.data.data() + front;
                NS_TEST_ASSERT_MSG_EQ(r.data.size(), front + 16 + ReadMlen(m), name << ": M_len");
                const bool fromHere = m[15] == own;
                if (m_vcHeader)
                {
                    NS_TEST_ASSERT_MSG_EQ(
                        unsigned(r.data[1]),
                        unsigned(fromHere ? GsnPcapHeader::SENT : GsnPcapHeader::RECEIVED),
                        name << ": direction");
                    NS_TEST_ASSERT_MSG_EQ((r.data[2] | r.data[3]), 0, name << ": reserved bytes");
                }
                (fromHere ? sent : received).push_back(&r);
            }
            std::vector<Sent> mineSent;
            std::vector<Sent> mineReceived;
            for (const Sent& s : SENT)
            {
                (s.from == index ? mineSent : mineReceived).push_back(s);
            }
            NS_TEST_ASSERT_MSG_EQ(sent.size(), mineSent.size(), name << ": Messages sent");
            NS_TEST_ASSERT_MSG_EQ(received.size(),
                                  mineReceived.size(),
                                  name << ": Messages received");
            // Sent in the order sent, each on its VC.
            for (uint32_t i = 0; i < sent.size() && i < mineSent.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(ReadMlen(sent[i]->data.data() + front),
                                      MessageLength(mineSent[i].size),
                                      name << ": M_len of sent Message " << i);
                if (m_vcHeader)
                {
                    NS_TEST_ASSERT_MSG_EQ(unsigned(sent[i]->data[0]),
                                          unsigned(mineSent[i].vc),
                                          name << ": VC of sent Message " << i);
                }
            }
            // Received ones may pass each other on different VCs: matched by M_len.
            std::multimap<uint32_t, uint8_t> want;
            for (const Sent& s : mineReceived)
            {
                want.emplace(MessageLength(s.size), s.vc);
            }
            for (const Record* r : received)
            {
                const auto it = want.find(ReadMlen(r->data.data() + front));
                NS_TEST_ASSERT_MSG_EQ((it != want.end()), true, name << ": unexpected M_len");
                if (m_vcHeader)
                {
                    NS_TEST_ASSERT_MSG_EQ(unsigned(r->data[0]),
                                          unsigned(it->second),
                                          name << ": VC of a received Message");
                }
                want.erase(it);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(endpointFiles, 2, "endpoint files");
        NS_TEST_ASSERT_MSG_EQ(portFiles, 2, "switch port files");
        // Every Message crosses the switch: received at one port, sent at the other.
        for (const auto& [index, ula] : scenario.ulaByte)
        {
            uint32_t n = 0;
            for (const Sent& s : SENT)
            {
                n += s.from == index;
            }
            NS_TEST_ASSERT_MSG_EQ(headersFrom[ula], 2 * n, "Header micropackets at the switch");
        }
    }

    std::string m_linkMode; ///< link mode
    bool m_vcHeader;        ///< pseudo-header on
};

/**
 * \ingroup gsn-tests
 * The Run link mode writes the same records as the micropacket mode where the two agree
 * (Messages spaced out, so no contention): the endpoints' files byte for byte, and the
 * switch ports' Header and Data micropackets at the same times (records traced ahead of
 * their time come out at their time, in order).
 */
class GsnPcapRunModeTestCase : public TestCase
{
  public:
    GsnPcapRunModeTestCase()
        : TestCase("pcap files of the Run link mode equal the reference's")
    {
    }

  private:
    void DoRun() override
    {
        const auto reference =
            RunScenario(CreateTempDirFilename("gsn-pcap"), "Micropacket", true).files;
        const auto run = RunScenario(CreateTempDirFilename("gsn-pcap"), "Run", true).files;
        NS_TEST_ASSERT_MSG_EQ(reference.size(), run.size(), "files");
        auto a = reference.begin();
        auto b = run.begin();
        for (; a != reference.end() && b != run.end(); ++a, ++b)
        {
            NS_TEST_ASSERT_MSG_EQ(a->first, b->first, "file names");
            NS_TEST_ASSERT_MSG_EQ(a->second.linkType, b->second.linkType, a->first);
            const std::vector<Record> x = MessageRecords(a->second);
            const std::vector<Record> y = MessageRecords(b->second);
            NS_TEST_ASSERT_MSG_EQ(x.size(), y.size(), a->first << ": records");
            for (size_t i = 0; i < x.size() && i < y.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(x[i].ns, y[i].ns, a->first << " record " << i << ": time");
                NS_TEST_ASSERT_MSG_EQ((x[i].data == y[i].data),
                                      true,
                                      a->first << " record " << i << ": bytes");
            }
        }
    }

    /**
     * \param c a file
     * \return what both modes must agree on: an endpoint's records whole; of a switch
     * port's micropackets the Header and Data ones, their data and first control byte (VC,
     * TYPE, T, E), without the link fields the run mode may time differently (RSEQ, credits
     * and the LCRC over them), nor the Null and Credit-only micropackets
     */
    static std::vector<Record> MessageRecords(const PcapContents& c)
    {
        if (c.linkType != GsnHelper::PCAP_MICROPACKET_LINK_TYPE)
        {
            return c.records;
        }
        std::vector<Record> kept;
        for (const Record& r : c.records)
        {
            const GsnMicropacket mp = GsnMicropacket::Deserialize(r.data.data());
            if (mp.IsMessage())
            {
                kept.push_back({r.ns, {r.data.begin(), r.data.begin() + 33}});
            }
        }
        return kept;
    }
};

/**
 * \ingroup gsn-tests
 * The pcap files' test suite.
 */
class GsnPcapTestSuite : public TestSuite
{
  public:
    GsnPcapTestSuite()
        : TestSuite("gsn-pcap", UNIT)
    {
        AddTestCase(new GsnPcapFilesTestCase("Micropacket", true), TestCase::QUICK);
        AddTestCase(new GsnPcapFilesTestCase("Run", true), TestCase::QUICK);
        AddTestCase(new GsnPcapFilesTestCase("Micropacket", false), TestCase::QUICK);
        AddTestCase(new GsnPcapRunModeTestCase, TestCase::QUICK);
    }
};

static GsnPcapTestSuite g_gsnPcapTestSuite; ///< the suite
