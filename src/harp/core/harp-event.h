// harp-event.h: what an engine tells the layer above it (Event), and the client phases it may
// report. Events are queued by the engines and drained by the adapter with PollEvent().
#ifndef HARP_EVENT_H
#define HARP_EVENT_H

#include "harp-ipv4.h"
#include "harp-ula.h"

#include <cstdint>
#include <string>

namespace harp
{

/**
 * \ingroup harp
 * \brief Phase of a client (RFC 2835 §5 via the IRIX GSN guide).
 */
enum class Phase : uint8_t
{
    Idle,         //!< Not started.
    Detecting,    //!< Broadcast self-test: probing for a copy of our own request.
    Registration, //!< Non-broadcast fabric, no server has answered our InARP request yet.
    Operational,  //!< Resolving: by broadcast, or through a registered server.
};

/**
 * \param phase a phase
 * \return its name, e.g. "Operational"
 */
const char* PhaseName(Phase phase);

/**
 * \ingroup harp
 * \brief Why an address could not be resolved, or why a cache entry went away.
 */
enum class FailReason : uint8_t
{
    None,        //!< Not a failure (an idle cache entry aged out).
    Nak,         //!< A server answered with HARP_NAK.
    Timeout,     //!< No answer after all retries.
    OutsideLis,  //!< Not a host address of our LIS: traffic between LIS goes through a router.
    NoServer,    //!< Non-broadcast fabric and no HARP server configured.
    NoBroadcast, //!< An IP broadcast/multicast address on a fabric not known to broadcast.
};

/**
 * \param reason a failure reason
 * \return its name, e.g. "Nak"
 */
const char* FailReasonName(FailReason reason);

/**
 * \ingroup harp
 * \brief Kinds of Event. The comment of each says which Event fields it fills in.
 */
enum class EventType : uint8_t
{
    PhaseChanged,      //!< Client: phase is the new phase.
    BroadcastDetected, //!< Client: broadcast tells whether the fabric broadcasts (or was told).
    Resolved,          //!< Client: ip now maps to ula (a Resolve() miss, or a static entry).
    Unresolvable,      //!< Client: ip cannot be resolved, reason says why; drop held packets.
    Revalidated,       //!< Client: the 15-minute revalidation of ip succeeded (ula).
    EntryRemoved,      //!< Client: dynamic entry ip -> ula removed (reason None/Nak/Timeout).
    ServerUp,          //!< Client: server ula (IP ip) answered a registration.
    ServerDown,        //!< Client: server ula stopped answering re-registration; not used.
    AddressConflict,   //!< Client: ula claims our own address ip.
    ClientRegistered,  //!< Server: new registration ip -> ula.
    ClientForgotten,   //!< Server: registration ip -> ula aged out.
};

/**
 * \param type an event type
 * \return its name, e.g. "Resolved"
 */
const char* EventTypeName(EventType type);

/**
 * \ingroup harp
 * \brief One event for the layer above an engine. Fields not used by a type are left default.
 */
struct Event
{
    EventType type{EventType::PhaseChanged}; //!< What happened.
    Ipv4 ip;                                 //!< The IP address concerned.
    Ula ula;                                 //!< The ULA concerned.
    Phase phase{Phase::Idle};                //!< PhaseChanged: the new phase.
    bool broadcast{false};                   //!< BroadcastDetected: fabric broadcasts.
    FailReason reason{FailReason::None};     //!< Unresolvable / EntryRemoved: why.

    /** \return a one-line description for logs */
    std::string ToString() const;
};

} // namespace harp

#endif // HARP_EVENT_H
