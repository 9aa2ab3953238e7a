/*
 * st-ethernet-frame.cc: the Ethernet carriage of ST operations (see st-ethernet-frame.h).
 */
#include "st-ethernet-frame.h"

#include "st-header.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace ns3
{
namespace st
{

namespace
{
/// LLC/SNAP up to the EtherType: DSAP AA, SSAP AA, UI, OUI 00-00-00 (as ns-3's LlcSnapHeader).
constexpr uint8_t LLC_SNAP_PREFIX[6] = {0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00};

uint16_t
Be16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

void
PutBe16(uint8_t* p, uint16_t v)
{
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}
} // namespace

const char*
StFrameVerdictName(StFrameVerdict v)
{
    static const char* const names[] =
        {"Ok", "Runt", "NotSt", "BadLength", "OtherHost", "OwnFrame"};
    static_assert(sizeof(names) / sizeof(names[0]) ==
                      static_cast<std::size_t>(StFrameVerdict::Count),
                  "one name per verdict");
    const auto i = static_cast<std::size_t>(v);
    return i < static_cast<std::size_t>(StFrameVerdict::Count) ? names[i] : "?";
}

bool
StEthernetFrame::NeedsLlc(const uint8_t* op, std::size_t len)
{
    // The same rule as StProtocol::Transmit on a CsmaNetDevice: only a DATA needs it, since
    // control operations tolerate padding (st.rst, "How an adapter drives the engine").
    return len < MIN_PAYLOAD && len >= 1 && static_cast<StOp>(op[0] >> 3) == StOp::Data;
}

void
StEthernetFrame::Encode(const StMac& dst,
                        const StMac& src,
                        const uint8_t* op,
                        std::size_t len,
                        std::vector<uint8_t>& frame)
{
    const bool llc = NeedsLlc(op, len);
    const std::size_t body = (llc ? LLC_SNAP : 0) + len;
    frame.assign(std::max(MIN_FRAME, MAC_HEADER + body), 0);
    uint8_t* p = frame.data();
    std::memcpy(p, dst.data(), 6);
    std::memcpy(p + 6, src.data(), 6);
    if (llc)
    {
        PutBe16(p + 12, static_cast<uint16_t>(body));
        std::memcpy(p + MAC_HEADER, LLC_SNAP_PREFIX, sizeof(LLC_SNAP_PREFIX));
        PutBe16(p + MAC_HEADER + 6, ST_ETHERTYPE);
    }
    else
    {
        PutBe16(p + 12, ST_ETHERTYPE);
    }
    std::memcpy(p + MAC_HEADER + (llc ? LLC_SNAP : 0), op, len);
}

StFrameVerdict
StEthernetFrame::Decode(const uint8_t* frame,
                        std::size_t len,
                        const StMac& self,
                        StMac& src,
                        std::size_t& opOffset,
                        std::size_t& opLen)
{
    if (len < MAC_HEADER)
    {
        return StFrameVerdict::Runt;
    }
    std::memcpy(src.data(), frame + 6, 6);
    if (src == self)
    {
        return StFrameVerdict::OwnFrame;
    }
    const bool group = (frame[0] & 0x01) != 0;
    if (!group && std::memcmp(frame, self.data(), 6) != 0)
    {
        return StFrameVerdict::OtherHost;
    }
    const uint16_t type = Be16(frame + 12);
    if (type == ST_ETHERTYPE)
    {
        opOffset = MAC_HEADER;
        opLen = len - MAC_HEADER;
        return StFrameVerdict::Ok;
    }
    if (type > MAX_LENGTH)
    {
        return StFrameVerdict::NotSt;
    }
    if (len < MAC_HEADER + LLC_SNAP ||
        std::memcmp(frame + MAC_HEADER, LLC_SNAP_PREFIX, sizeof(LLC_SNAP_PREFIX)) != 0 ||
        Be16(frame + MAC_HEADER + 6) != ST_ETHERTYPE)
    {
        return StFrameVerdict::NotSt;
    }
    if (type < LLC_SNAP || MAC_HEADER + type > len)
    {
        return StFrameVerdict::BadLength;
    }
    opOffset = MAC_HEADER + LLC_SNAP;
    opLen = type - LLC_SNAP;
    return StFrameVerdict::Ok;
}

uint64_t
StEthernetFrame::ToPeer(const StMac& mac)
{
    uint64_t v = 0;
    for (uint8_t b : mac)
    {
        v = (v << 8) | b;
    }
    return v;
}

StMac
StEthernetFrame::FromPeer(uint64_t peer)
{
    StMac m{};
    for (int i = 5; i >= 0; --i)
    {
        m[static_cast<std::size_t>(i)] = static_cast<uint8_t>(peer);
        peer >>= 8;
    }
    return m;
}

bool
StEthernetFrame::ParseMac(const char* text, StMac& out)
{
    if (text == nullptr)
    {
        return false;
    }
    unsigned v[6];
    char sep[5];
    char tail = 0;
    if (std::sscanf(text,
                    "%2x%c%2x%c%2x%c%2x%c%2x%c%2x%c",
                    &v[0],
                    &sep[0],
                    &v[1],
                    &sep[1],
                    &v[2],
                    &sep[2],
                    &v[3],
                    &sep[3],
                    &v[4],
                    &sep[4],
                    &v[5],
                    &tail) != 11)
    {
        return false;
    }
    for (char c : sep)
    {
        if (c != ':' && c != '-')
        {
            return false;
        }
    }
    if (std::strlen(text) != 17)
    {
        return false;
    }
    for (std::size_t i = 0; i < 6; ++i)
    {
        out[i] = static_cast<uint8_t>(v[i]);
    }
    return true;
}

std::string
StEthernetFrame::FormatMac(const StMac& mac)
{
    char buf[18];
    std::snprintf(buf,
                  sizeof(buf),
                  "%02x:%02x:%02x:%02x:%02x:%02x",
                  mac[0],
                  mac[1],
                  mac[2],
                  mac[3],
                  mac[4],
                  mac[5]);
    return buf;
}

} // namespace st
} // namespace ns3
