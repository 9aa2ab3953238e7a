/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnAdminPayload: the 32-byte data area of an Admin micropacket (HIPPI-6400-SC) and its
 * exact encoding. The commands are those of seed 000 Table 1-6; their codes and the layout
 * are the project's proposal (gsn-protocol-reference.rst, "Admin micropacket format and commands"),
 * extended with a recorded path so that a response finds its way back through multi-port switches.
 * Only this file knows the layout.
 *
 *  byte 0      hop count: elements still to cross before the micropacket is processed
 *  byte 1      command (a response has the request's code | 0x80)
 *  byte 2      flags: bit 0 response, bit 1 error, bit 2 more fragments follow
 *  byte 3      status (GsnAdminStatus)
 *  bytes 4-7   transaction id, echoed in the response
 *  bytes 8-13  ULA argument
 *  bytes 14-15 port argument
 *  bytes 16-23 command-specific: element type, register address and value, distance, port
 *              mask of Broadcast_setup
 *  byte 24     path index: hops crossed so far
 *  bytes 25-31 path: on a request, the output port to take at each forwarding switch; as a
 *              switch forwards, it writes the arrival port there, which the response follows
 *              back (at most 7 forwarding hops)
 */
#ifndef GSN_ADMIN_H
#define GSN_ADMIN_H

#include "gsn-micropacket.h"

#include "ns3/mac48-address.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>

namespace ns3
{

/**
 * \ingroup gsn
 * Admin commands (seed 000 Table 1-6; codes proposed in gsn-protocol-reference.rst, "Admin
 * micropacket format and commands").
 */
enum class GsnAdminCommand : uint8_t
{
    PING = 0x01,
    SET_ELEMENT_ADDRESS = 0x02,
    RESET = 0x03,
    EXCHANGE_ELEMENT_TYPE = 0x04,
    ULA_REQUEST = 0x05,
    READ_REGISTER = 0x06,
    WRITE_REGISTER = 0x07,
    ULA_LIST_REQUEST = 0x08,
    PORT_REMAP = 0x09,
    PORT_MAP_REQUEST = 0x0A,
    /// Set up broadcast: which ports broadcast Messages leave by (the seed names the
    /// function, "set up broadcast capability for a GSN fabric", but not its command; the
    /// code and layout are the project's: port argument = first port, arg = 64-bit mask,
    /// bit i for port first + i, 1 in the broadcast tree, 0 out of it)
    BROADCAST_SETUP = 0x0B,
    INVALID_COMMAND = 0x7F,
};

/// \return the command's name (or "Unknown")
const char* GsnAdminCommandName(uint8_t command);

/// Status of an Admin response.
enum class GsnAdminStatus : uint8_t
{
    OK = 0,
    UNSUPPORTED = 1,  ///< the element does not implement the command
    BAD_ARGUMENT = 2, ///< an argument is out of range or unknown (ULA, port, register)
    NO_ROUTE = 3,     ///< a hop could not be taken (no such port, or an endpoint)
};

/// Element types exchanged by Exchange_element_type.
enum class GsnElementType : uint8_t
{
    UNKNOWN = 0,
    ENDPOINT = 1,
    SWITCH = 2,
};

/**
 * \ingroup gsn
 * \brief The data area of an Admin micropacket.
 */
struct GsnAdminPayload
{
    /// Largest number of forwarding hops a path can record.
    static constexpr uint32_t MAX_PATH = 7;
    /// Bit of the command byte that marks a response.
    static constexpr uint8_t RESPONSE_BIT = 0x80;

    uint8_t hopCount{0};                  ///< elements to cross before processing
    uint8_t command{0};                   ///< GsnAdminCommand, | 0x80 in responses
    bool response{false};                 ///< flags bit 0
    bool error{false};                    ///< flags bit 1
    bool more{false};                     ///< flags bit 2: more fragments follow
    uint8_t status{0};                    ///< GsnAdminStatus
    uint32_t transaction{0};              ///< echoed in the response
    Mac48Address ula;                     ///< ULA argument
    uint16_t port{0};                     ///< port argument
    std::array<uint8_t, 8> arg{};         ///< command-specific bytes 16-23
    uint8_t pathIndex{0};                 ///< hops crossed so far
    std::array<uint8_t, MAX_PATH> path{}; ///< ports (see the file comment)

    /// \return the command without the response bit
    GsnAdminCommand GetCommand() const
    {
        return static_cast<GsnAdminCommand>(command & ~RESPONSE_BIT);
    }

    /// Encode into a micropacket's data area. \param data 32 bytes
    void Serialize(uint8_t* data) const;

    /**
     * Decode a data area. Every byte pattern decodes; the receiver validates the command,
     * the path index and the ports against what it is.
     * \param data 32 bytes
     * \return the payload
     */
    static GsnAdminPayload Deserialize(const uint8_t* data);

    /**
     * Turn this request into its response: response flag and bit set, status, path kept.
     * \param status the status to report
     */
    void MakeResponse(GsnAdminStatus status);

    /// Turn this request into the Invalid_command response naming its command in arg[0].
    void MakeInvalidCommandResponse();

    /// \return an Admin micropacket carrying this payload (VC 0)
    GsnMicropacket ToMicropacket() const;

    /// \param arg8 8 bytes \return them as a big-endian 64-bit number
    uint64_t GetArg64() const;
    /// \param value stored big-endian in arg
    void SetArg64(uint64_t value);
};

std::ostream& operator<<(std::ostream& os, const GsnAdminPayload& p);

/**
 * \ingroup gsn
 * \brief The Admin registers of an element: read-only ones that its owner reports, and 16
 * writable scratch registers (0x10-0x1F). The register number is the port argument.
 */
class GsnAdminRegisters
{
  public:
    /// First scratch register.
    static constexpr uint16_t SCRATCH_FIRST = 0x10;
    /// Number of scratch registers.
    static constexpr uint16_t SCRATCH_COUNT = 16;

    /// A read-only register's value, or nothing if the element has no such register.
    using ReadOnly = std::function<std::optional<uint64_t>(uint16_t)>;

    /**
     * Answer a Read_register or Write_register request: \p p becomes its response.
     * \param p the request
     * \param readOnly the element's read-only registers
     */
    void Answer(GsnAdminPayload& p, const ReadOnly& readOnly);

  private:
    std::array<uint64_t, SCRATCH_COUNT> m_scratch{}; ///< the scratch registers
};

} // namespace ns3

#endif /* GSN_ADMIN_H */
