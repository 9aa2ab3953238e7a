// harp-message.h: the HARP wire format, once: the 28-byte RFC 826-layout ARP body with hardware
// type 28 (HIPARP), its operation codes, the constants of the encapsulation, and Frame, the
// unit an engine hands out for sending. The LLC/SNAP header (EtherType 0x0806) in front of the
// body is the device's business, not the codec's.
#ifndef HARP_MESSAGE_H
#define HARP_MESSAGE_H

#include "harp-ipv4.h"
#include "harp-stats.h"
#include "harp-ula.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace harp
{

/// ARP hardware type HIPARP [C] IANA ARP parameters, citing RFC 2834 and RFC 2835.
constexpr uint16_t kHardwareType = 28;
/// ARP protocol type: IPv4, the EtherType of IP [C] RFC 826 / RFC 2835.
constexpr uint16_t kProtocolType = 0x0800;
/// EtherType in the LLC/SNAP header that carries HARP [C] RFC 2835 §4.1 (as for ARP).
constexpr uint16_t kEtherType = 0x0806;
/// hln: bytes of a ULA [C] RFC 2835 §4.2.
constexpr uint8_t kHardwareLength = 6;
/// pln: bytes of an IPv4 address.
constexpr uint8_t kProtocolLength = 4;
/// Bytes of the ARP body: 8 fixed + 2 * (6 + 4) [U] RFC 826 layout (harp-protocol-reference.rst,
/// "HARP message layout").
constexpr std::size_t kMessageSize = 28;

/**
 * \ingroup harp
 * \brief ARP operation codes used by HARP [C] IANA ARP parameters.
 */
enum class Op : uint16_t
{
    ArpRequest = 1,   //!< ARP request (RFC 826).
    ArpReply = 2,     //!< ARP reply (RFC 826).
    InArpRequest = 8, //!< Inverse ARP request (RFC 2390): registration with a server.
    InArpReply = 9,   //!< Inverse ARP reply (RFC 2390).
    Nak = 10,         //!< ARP-NAK, used as HARP_NAK: a copy of the request, op changed.
};

/**
 * \param op an operation
 * \return its name, e.g. "ArpRequest"
 */
const char* OpName(Op op);

/**
 * \ingroup harp
 * \brief One HARP message: the variable fields of the 28-byte ARP body.
 *
 * Layout, big-endian: hrd(2)=28 pro(2)=0x0800 hln(1)=6 pln(1)=4 op(2) sha(6) spa(4) tha(6)
 * tpa(4). hrd, pro, hln and pln are constants and are checked by Parse.
 */
struct Message
{
    Op op{Op::ArpRequest}; //!< Operation.
    Ula senderUla;         //!< sha.
    Ipv4 senderIp;         //!< spa.
    Ula targetUla;         //!< tha (zero when unknown).
    Ipv4 targetIp;         //!< tpa (zero when unknown, as in an InARP request).

    /**
     * \brief Writes the 28-byte body.
     * \param out at least kMessageSize writable bytes
     */
    void Serialize(uint8_t* out) const;

    /** \return the 28-byte body */
    std::vector<uint8_t> Serialize() const;

    /** \return a one-line description for logs */
    std::string ToString() const;

    /** \brief Equality. \param a left \param b right \return true if every field is equal */
    friend bool operator==(const Message& a, const Message& b)
    {
        return a.op == b.op && a.senderUla == b.senderUla && a.senderIp == b.senderIp &&
               a.targetUla == b.targetUla && a.targetIp == b.targetIp;
    }
};

/**
 * \ingroup harp
 * \brief What Parse found: a message, or the reason the bytes are not one.
 */
struct ParseResult
{
    std::optional<Message> message;          //!< The message, if the bytes are one.
    DropReason error{DropReason::Truncated}; //!< Meaningful only when message is empty.
};

/**
 * \brief Decodes a HARP body. Bytes after the first 28 (padding to the 8-byte multiple of a
 *        GSN/HIPPI frame) are ignored. Checks, in order: length, hrd, pro, hln/pln, op.
 * \param data the received bytes (may be null when size is 0)
 * \param size number of bytes
 * \return the message or the drop reason
 */
ParseResult Parse(const uint8_t* data, std::size_t size);

/**
 * \brief The receive path both engines share: counts the frame, decodes it, and counts what
 *        became of it: the parse error, or the outcome \p dispatch returns for the message.
 * \param stats the engine's counters
 * \param data the received bytes
 * \param size number of bytes
 * \param dispatch RxOutcome(const Message&): the engine's handling of a well-formed message
 */
template <class Dispatch>
void
ReceiveFrame(Stats& stats, const uint8_t* data, std::size_t size, Dispatch&& dispatch)
{
    ++stats.rxFrames;
    const ParseResult parsed = Parse(data, size);
    stats.Count(parsed.message ? dispatch(*parsed.message) : RxOutcome::Dropped(parsed.error));
}

/**
 * \ingroup harp
 * \brief A frame an engine wants sent: the ARP body and the destination ULA.
 *
 * The adapter puts it behind LLC/SNAP with EtherType kEtherType. A destination of
 * Ula::Broadcast() means the fabric's broadcast.
 */
struct Frame
{
    Ula destination;            //!< Destination ULA (FF:FF:FF:FF:FF:FF: broadcast).
    std::vector<uint8_t> bytes; //!< The 28-byte ARP body.
};

} // namespace harp

#endif // HARP_MESSAGE_H
