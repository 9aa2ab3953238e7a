/*
 * st-event.h: what the ST engine hands out: operations to transmit (bytes, peer, VC) and
 * events for the upper layer. It owns these value types only. Plain C++17, no ns-3 header.
 */
#ifndef ST_EVENT_H
#define ST_EVENT_H

#include "st-header.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace st
{

/// Opaque address of a peer (a MAC/ULA, an IPv4 address, a test id): the adapter's choice.
using StPeerAddress = uint64_t;

/// Local handle of a virtual connection (never 0).
using StConnId = uint32_t;

/// "No deadline".
constexpr uint64_t ST_NEVER = UINT64_MAX;

/**
 * \brief One operation to put on the wire.
 */
struct StTransmit
{
    StPeerAddress peer{0};      //!< where to send it
    uint8_t vc{0};              //!< data channel / GSN VC: control ops on VC 0, DATA on its channel
    std::vector<uint8_t> bytes; //!< 40-byte header, then the optional payload or the data
    /// Zero bytes that follow \c bytes on the wire, not stored: the data of memory that holds
    /// no bytes (StMemoryTable::NO_BYTES). The carrier appends them.
    uint64_t virtualBytes{0};
};

/**
 * \brief What happened, for the upper layer.
 */
enum class StEventType : uint8_t
{
    ConnectionEstablished, //!< CA accepted (initiator) or RC accepted (responder, \c accepted)
    ConnectionRefused,     //!< CA with R = 1
    ConnectionClosed,      //!< the VC is gone (\c reason)
    HeaderReceived,        //!< a non-Silent header for the ULP (\c header, \c payload)
    TransferComplete,      //!< single-use write/read finished on this side (\c id, \c bytes)
    TransferRejected,      //!< RA with R = 1 for our request (\c id)
    TransferPaused,        //!< RA with R = 0 for our request (\c id)
    TransferAborted,       //!< END/EA, a timeout or the VC closing ended a transfer/region (\c id)
    EndComplete,           //!< the EA for our END arrived (\c id)
    RegionAvailable,       //!< MRA for our RMR (\c id = region handle, \c bytes)
    PutComplete,           //!< a PUT was handed to the wire (\c id = region, \c bytes)
    GetComplete,           //!< all data of a GET arrived (\c id = G_id, \c bytes)
    FetchOpComplete,       //!< the old value of a FETCHOP arrived (\c id = G_id, \c value)
    StateResponse,         //!< the RSR for an RS the ULP asked for (\c header)
    Interrupt,             //!< an accepted operation had I set (\c header)
};

/// Name of an event type.
inline const char*
StEventTypeName(StEventType t)
{
    static const char* const names[] = {"ConnectionEstablished",
                                        "ConnectionRefused",
                                        "ConnectionClosed",
                                        "HeaderReceived",
                                        "TransferComplete",
                                        "TransferRejected",
                                        "TransferPaused",
                                        "TransferAborted",
                                        "EndComplete",
                                        "RegionAvailable",
                                        "PutComplete",
                                        "GetComplete",
                                        "FetchOpComplete",
                                        "StateResponse",
                                        "Interrupt"};
    auto i = static_cast<std::size_t>(t);
    return i < sizeof(names) / sizeof(names[0]) ? names[i] : "?";
}

/**
 * \brief Why a connection closed or a transfer ended.
 */
enum class StReason : uint8_t
{
    None,    //!< not applicable
    Local,   //!< the local upper layer asked
    Peer,    //!< the peer asked (RD, END)
    Timeout, //!< an operation ran out of retries
    Refused, //!< CA with R = 1
};

/**
 * \brief Role of this side in a single-use transfer.
 */
enum class StRole : uint8_t
{
    None,        //!< not a single-use transfer
    Source,      //!< we sent the data
    Destination, //!< we received the data
};

/**
 * \brief One event for the upper layer.
 */
struct StEvent
{
    StEventType type{StEventType::HeaderReceived}; //!< what happened
    StConnId conn{0};                              //!< on which connection
    uint32_t id{0};                                //!< local transfer/region/GET id
    uint64_t bytes{0};                             //!< length concerned
    uint64_t value{0};                             //!< FETCHOP old value
    uint64_t address{0};             //!< local linear address (Bufx<<Bufsize + Offset)
    StReason reason{StReason::None}; //!< closes and aborts
    StRole role{StRole::None};       //!< transfers
    bool accepted{false};            //!< ConnectionEstablished by a listener
    uint16_t localPort{0};           //!< local port of the connection
    uint16_t servicePort{0};         //!< the service's port (the listener's, when accepted)
    StHeader header;                 //!< HeaderReceived, StateResponse
    bool hasPayload{false};          //!< a 32-byte optional payload came along
    std::array<uint8_t, ST_OPT_PAYLOAD_SIZE> payload{}; //!< the optional payload
    uint64_t dataLen{0};                                //!< DATA payload bytes (HeaderReceived)
    bool holdsSlot{false}; //!< the header holds a local slot until polled
};

} // namespace st
} // namespace ns3

#endif /* ST_EVENT_H */
