/*
 * st-ethernet-frame.h: the Ethernet carriage of one ST operation, byte for byte what the
 * ns-3 adaptation puts on a CsmaNetDevice: Ethernet II with EtherType 0x8181, except a DATA
 * too short to fill the 46-byte minimum payload, which goes with an IEEE 802.3 length and
 * LLC/SNAP (type 0x8181) so the receiver can strip the padding exactly (a DATA carries no
 * length of its own). Frames are padded with zeros to 60 bytes (the FCS is the NIC's).
 * It owns the codec only: no socket. Plain C++17.
 */
#ifndef ST_ETHERNET_FRAME_H
#define ST_ETHERNET_FRAME_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace st
{

/// A MAC-48 address.
using StMac = std::array<uint8_t, 6>;

/**
 * \brief Why a received frame was not handed to the engine (the adapter's own verdicts,
 *        before the engine's StRxVerdict).
 */
enum class StFrameVerdict : uint8_t
{
    Ok = 0,    //!< an ST operation (handed to the engine)
    Runt,      //!< shorter than a MAC header
    NotSt,     //!< neither EtherType 0x8181 nor LLC/SNAP 0x8181
    BadLength, //!< 802.3 length larger than the frame, or not room for LLC/SNAP
    OtherHost, //!< addressed to another station
    OwnFrame,  //!< sent by this station (a looped-back copy)
    Count      //!< number of verdicts
};

/// Name of a frame verdict.
const char* StFrameVerdictName(StFrameVerdict v);

/**
 * \brief Encode and decode the Ethernet frames that carry ST operations.
 */
class StEthernetFrame
{
  public:
    static constexpr std::size_t MAC_HEADER = 14;  //!< destination, source, type/length
    static constexpr std::size_t LLC_SNAP = 8;     //!< AA AA 03 00 00 00 + EtherType
    static constexpr std::size_t MIN_PAYLOAD = 46; //!< IEEE 802.3 minimum (FCS excluded)
    static constexpr std::size_t MIN_FRAME = MAC_HEADER + MIN_PAYLOAD; //!< 60
    static constexpr uint16_t MAX_LENGTH = 1500; //!< largest 802.3 length value

    /// True when \p op (an encoded ST operation) travels with an 802.3 length and LLC/SNAP.
    static bool NeedsLlc(const uint8_t* op, std::size_t len);

    /**
     * \brief Build the frame of one operation.
     * \param dst destination MAC
     * \param src our MAC
     * \param op the operation (header and payload or data)
     * \param len its length
     * \param[out] frame the frame, padded to 60 bytes
     */
    static void Encode(const StMac& dst,
                       const StMac& src,
                       const uint8_t* op,
                       std::size_t len,
                       std::vector<uint8_t>& frame);

    /**
     * \brief Find the operation inside a received frame.
     * \param frame the frame as received (MAC header first, no FCS)
     * \param len its length
     * \param self our MAC (frames to another unicast address, and from us, are refused)
     * \param[out] src the sender
     * \param[out] opOffset where the operation starts
     * \param[out] opLen its length (Ethernet II: everything after the header, padding
     *             included, as the ns-3 CSMA device delivers it; 802.3: exactly the length)
     * \return the verdict
     */
    static StFrameVerdict Decode(const uint8_t* frame,
                                 std::size_t len,
                                 const StMac& self,
                                 StMac& src,
                                 std::size_t& opOffset,
                                 std::size_t& opLen);

    /// The peer address the engine uses for \p mac (the MAC as a 48-bit integer).
    static uint64_t ToPeer(const StMac& mac);
    /// The MAC of engine peer address \p peer.
    static StMac FromPeer(uint64_t peer);
    /// Parse "aa:bb:cc:dd:ee:ff" (or with '-'); false if malformed.
    static bool ParseMac(const char* text, StMac& out);
    /// "aa:bb:cc:dd:ee:ff".
    static std::string FormatMac(const StMac& mac);
};

} // namespace st
} // namespace ns3

#endif /* ST_ETHERNET_FRAME_H */
