/*
 * st-header.h: the 40-byte Scheduled Transfer header (the "Schedule Header") and its exact
 * big-endian codec, the opcodes and the flags. It owns the wire format of one operation and
 * nothing else: no connection state, no checks that need a connection (keys, ports, ids).
 *
 * Plain C++17, no ns-3 header: this file is part of the portable ST engine (src/st/core).
 * Source of every layout fact: st-protocol-reference.rst, sections "The 40-byte ST header" to
 * "Field use per operation" ([C] IRIX-impl, SEED-GSN).
 */
#ifndef ST_HEADER_H
#define ST_HEADER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{
namespace st
{

/// Size of the ST header on the wire [C] (st-protocol-reference.rst, "The 40-byte ST header").
constexpr std::size_t ST_HEADER_SIZE = 40;
/// Size of the optional payload a control operation may carry [C] SEED-API (opt_pay).
constexpr std::size_t ST_OPT_PAYLOAD_SIZE = 32;
/// EtherType (and LLC/SNAP type) of ST [C] (st-protocol-reference.rst, "ST over GSN, Ethernet and
/// other carriers").
constexpr uint16_t ST_ETHERTYPE = 0x8181;
/// Marker of the RS/RSR kinds and of "no block" [C] IRIX-impl (st-protocol-reference.rst, "Field
/// use per operation").
constexpr uint32_t ST_NONE32 = 0xFFFFFFFF;
/// Slot count meaning "no slot accounting" [C] IRIX-impl.
constexpr uint16_t ST_SLOTS_UNLIMITED = 0xFFFF;
/// T_len of a single-use transfer of unlimited size: it goes on until an END [C] SEED-GSN
/// Table 1-9 ("2^64 minus 1 byte or unlimited"); the all-ones value stands for it [U].
constexpr uint64_t ST_TLEN_UNLIMITED = 0xFFFFFFFFFFFFFFFFULL;

/**
 * \brief ST opcode: the 5-bit Op value, bits 15..11 of OpFlags [C] (st-protocol-reference.rst, "ST
 * opcodes").
 */
enum class StOp : uint8_t
{
    Rc = 0x01,   //!< Request_Connection
    Ca = 0x02,   //!< Connection_Answer
    Rd = 0x03,   //!< Request_Disconnect
    Da = 0x04,   //!< Disconnect_Answer
    Dc = 0x05,   //!< Disconnect_Complete
    Nop = 0x10,  //!< No operation (IRIX 6.5.17 value)
    Rmr = 0x13,  //!< Request_Memory_Region
    Mra = 0x14,  //!< Memory_Region_Available
    Get = 0x15,  //!< GET, also FETCHOP and FC (told apart by the FetchOp flag field)
    Rts = 0x16,  //!< Request_To_Send
    Ra = 0x17,   //!< Request_Answer
    Rtr = 0x18,  //!< Request_To_Receive
    Cts = 0x1A,  //!< Clear_To_Send
    Data = 0x1B, //!< DATA
    Rs = 0x1C,   //!< Request_State
    Rsr = 0x1D,  //!< Request_State_Response
    End = 0x1E,  //!< END
    Ea = 0x1F,   //!< End_Ack
};

/**
 * \brief Flags: the low 11 bits of OpFlags [C] (st-protocol-reference.rst, "ST flags").
 */
namespace StFlag
{
constexpr uint16_t DATA_CHANNEL = 0x0003; //!< data channel (= GSN VC) of RTS and DATA [I]
constexpr uint16_t REJECT = 0x0004;       //!< R: request refused (CA, RA)
constexpr uint16_t LAST = 0x0008;         //!< L: last STU of a block
constexpr uint16_t ORDER = 0x0010;        //!< O: destination takes blocks out of order
constexpr uint16_t SEND_STATE = 0x0020;   //!< S: reply with an RSR
constexpr uint16_t INTERRUPT = 0x0040;    //!< I: interrupt the destination ULP
constexpr uint16_t SILENT = 0x0080;       //!< Silent: do not hand the header to the ULP
constexpr uint16_t FETCHOP_MASK = 0x0700; //!< the FetchOp field of a GET
constexpr uint16_t MASK = 0x07FF;         //!< all flag bits
} // namespace StFlag

/**
 * \brief Value of the FetchOp field (bits 10..8) of a GET [C] (st-protocol-reference.rst, "ST
 * flags").
 */
enum class StFetchOp : uint8_t
{
    None = 0,      //!< plain GET
    Increment = 1, //!< FETCHOP increment
    Decrement = 2, //!< FETCHOP decrement
    Clear = 3,     //!< FETCHOP clear
    Complete = 7,  //!< FC (FetchOp_Complete)
};

/**
 * \brief Why the decoder refused some bytes.
 */
enum class StDecodeStatus : uint8_t
{
    Ok,        //!< decoded
    Truncated, //!< fewer than 40 bytes
    UnknownOp, //!< opcode not defined by ST
    LocalOp,   //!< opcode 0x06..0x09, used only inside IRIX, never on the wire
    BadFlags,  //!< FetchOp field on a non-GET, or an undefined FetchOp value
    BadField,  //!< a field value that the operation forbids (e.g. FETCHOP T_len != 8)
};

/// Name of a decode status, for logs and tests.
const char* StDecodeStatusName(StDecodeStatus status);

/// Name of an opcode ("RC", "CTS", ... ; "FETCHOP"/"FC" are told apart by StHeader::Name).
const char* StOpName(StOp op);

/// True if the 5-bit value is an opcode that may appear on the wire.
bool StOpIsWireOp(uint8_t op);

/**
 * \brief One ST header, field by field, in host order.
 *
 * Field names follow the general layout (st-protocol-reference.rst, "The 40-byte ST header"); the
 * meaning of each field depends on the operation (st-protocol-reference.rst, "Field use per
 * operation"). The accessors GetTLen/SetTLen give the 64-bit T_len of RTS, RTR and RMR (bytes
 * 24-31); the 16-bit T_len of GET/FETCHOP lives in \c param.
 */
struct StHeader
{
    StOp op{StOp::Nop};   //!< bits 15..11 of OpFlags
    uint16_t flags{0};    //!< bits 10..0 of OpFlags
    uint16_t param{0};    //!< @2: Slots, CTS_req, Blocksize, STU_num, GET T_len, RSR R_Slots
    uint16_t dPort{0};    //!< @4: ST port of the receiver of this op
    uint16_t sPort{0};    //!< @6: ST port of the sender of this op
    uint32_t dKey{0};     //!< @8: key the receiver gave out; in RC 0, or the ULP-Port at Port 0
    uint16_t checksum{0}; //!< @12: optional checksum, 0 = not computed
    uint16_t mx{0};       //!< @14: Mx; EtherType in RC; Max_Block in RTS
    uint32_t bufx{0};     //!< @16: Bufx; Bufsize in RC/CA
    uint32_t offset{0};   //!< @20: Offset; key in RC/CA/RD/DA/DC; B_seq in RSR
    uint32_t sync{0};     //!< @24: Sync; Max_STU in RC/CA; F_Offset in CTS; I_Bufx in GET
    uint32_t bNum{0};     //!< @28: B_num; I_Offset in GET
    uint32_t dId{0};      //!< @32: transfer id chosen by the receiver of this op
    uint32_t sId{0};      //!< @36: transfer id chosen by the sender; Opaque in DATA

    /// 64-bit T_len of RTS/RTR/RMR (bytes 24..31).
    uint64_t GetTLen() const
    {
        return (static_cast<uint64_t>(sync) << 32) | bNum;
    }

    /// Set the 64-bit T_len of RTS/RTR/RMR (bytes 24..31).
    void SetTLen(uint64_t tlen)
    {
        sync = static_cast<uint32_t>(tlen >> 32);
        bNum = static_cast<uint32_t>(tlen);
    }

    /// The data channel bits (RTS, DATA).
    uint8_t GetDataChannel() const
    {
        return static_cast<uint8_t>(flags & StFlag::DATA_CHANNEL);
    }

    /// The FetchOp field (GET only).
    StFetchOp GetFetchOp() const
    {
        return static_cast<StFetchOp>((flags & StFlag::FETCHOP_MASK) >> 8);
    }

    /// Set the FetchOp field (GET only).
    void SetFetchOp(StFetchOp f)
    {
        flags = static_cast<uint16_t>((flags & ~StFlag::FETCHOP_MASK) |
                                      (static_cast<uint16_t>(f) << 8));
    }

    /// True if every bit of \p f is set.
    bool Has(uint16_t f) const
    {
        return (flags & f) == f;
    }

    /**
     * \brief Does this header take a slot at its receiver?
     * \param rsRsrUseSlots false = IRIX rule (RS and RSR take no slot), true = seed rule
     * \return false for RC and Silent DATA (and NOP), true otherwise
     */
    bool UsesSlot(bool rsRsrUseSlots) const;

    /// The name of the operation, FETCHOP and FC included.
    std::string Name() const;

    /// A one-line description for logs and test messages.
    std::string ToString() const;

    /// Write the 40 bytes, big-endian, into \p out (which must hold 40 bytes).
    void Encode(uint8_t* out) const;

    /**
     * \brief The header checksum of 40 encoded header bytes: the 16-bit ones' complement of
     *        the ones' complement sum of the header's 16-bit words, the checksum field taken
     *        as 0 (the Internet checksum, RFC 1071); a result of 0 is sent as 0xFFFF, since 0
     *        means "not computed".
     * \param header the 40 encoded bytes
     * \return the checksum
     */
    static uint16_t ComputeChecksum(const uint8_t* header);
    /// Write ComputeChecksum(header) into the checksum field. \param header 40 encoded bytes
    static void SealChecksum(uint8_t* header);
    /**
     * \param header 40 encoded bytes
     * \return true if the checksum field is 0 (not computed) or matches the bytes
     */
    static bool ChecksumOk(const uint8_t* header);

    /**
     * \brief The one definition of a valid header, shared by the decoder and the senders.
     *
     * Checks what a header can get wrong without a connection: the opcode (undefined or
     * IRIX-internal), the FetchOp field (only on GET, only defined values) and the T_len of
     * a FETCHOP (exactly 8). \p op may hold any 5-bit value.
     * \return Ok, or the status Decode gives the same header
     */
    StDecodeStatus Validate() const;

    /**
     * \brief Read and validate a header (Validate).
     * \param data the bytes
     * \param len their number; bytes after the 40th are the payload, not looked at here
     * \param[out] out the header (filled only when the result is Ok)
     * \return Ok or why the bytes were refused
     */
    static StDecodeStatus Decode(const uint8_t* data, std::size_t len, StHeader& out);

    /// Field-by-field equality.
    bool operator==(const StHeader& o) const;

    /// Field-by-field inequality.
    bool operator!=(const StHeader& o) const
    {
        return !(*this == o);
    }
};

} // namespace st
} // namespace ns3

#endif /* ST_HEADER_H */
