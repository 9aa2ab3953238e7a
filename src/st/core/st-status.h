/*
 * st-status.h: the result codes of the engine's upper-layer calls (Connect, Write, Map, ...).
 * It owns the codes and their names only. Plain C++17, no ns-3 header.
 */
#ifndef ST_STATUS_H
#define ST_STATUS_H

#include <cstdint>

namespace ns3
{
namespace st
{

/**
 * \brief Result of a call from the upper layer into the engine.
 */
enum class StStatus : uint8_t
{
    Ok = 0,           //!< done (or started: completion comes as an event)
    InvalidArgument,  //!< a parameter is out of range
    NoSuchConnection, //!< the connection id is unknown
    WrongState,       //!< not allowed in the connection's state
    PortInUse,        //!< the port already has a listener or connection
    KeyInUse,         //!< the requested key is already used locally
    NotMapped,        //!< memory not mapped with the needed ST_PIN_* flags
    BufxInUse,        //!< bufx entries already map other memory
    NoMx,             //!< no free Mx (4095 in use)
    NoSuchTransfer,   //!< the transfer/region id is unknown
    TooLarge,         //!< length beyond what the operation or the peer allows
    ChannelTooSmall,  //!< the data channel cannot carry an STU of 2^ST_MIN_MAX_STU bytes
    PutTooLarge,      //!< a Put that would need more than one STU (max_STU, a peer Bufx)
};

/// Name of a status.
inline const char*
StStatusName(StStatus s)
{
    switch (s)
    {
    case StStatus::Ok:
        return "Ok";
    case StStatus::InvalidArgument:
        return "InvalidArgument";
    case StStatus::NoSuchConnection:
        return "NoSuchConnection";
    case StStatus::WrongState:
        return "WrongState";
    case StStatus::PortInUse:
        return "PortInUse";
    case StStatus::KeyInUse:
        return "KeyInUse";
    case StStatus::NotMapped:
        return "NotMapped";
    case StStatus::BufxInUse:
        return "BufxInUse";
    case StStatus::NoMx:
        return "NoMx";
    case StStatus::NoSuchTransfer:
        return "NoSuchTransfer";
    case StStatus::TooLarge:
        return "TooLarge";
    case StStatus::ChannelTooSmall:
        return "ChannelTooSmall";
    case StStatus::PutTooLarge:
        return "PutTooLarge";
    }
    return "?";
}

} // namespace st
} // namespace ns3

#endif /* ST_STATUS_H */
