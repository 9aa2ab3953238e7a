// harp-event.cc: names and descriptions of events (see harp-event.h).
#include "harp-event.h"

namespace harp
{

const char*
PhaseName(Phase phase)
{
    switch (phase)
    {
    case Phase::Idle:
        return "Idle";
    case Phase::Detecting:
        return "Detecting";
    case Phase::Registration:
        return "Registration";
    case Phase::Operational:
        return "Operational";
    }
    return "Unknown";
}

const char*
FailReasonName(FailReason reason)
{
    switch (reason)
    {
    case FailReason::None:
        return "None";
    case FailReason::Nak:
        return "Nak";
    case FailReason::Timeout:
        return "Timeout";
    case FailReason::OutsideLis:
        return "OutsideLis";
    case FailReason::NoServer:
        return "NoServer";
    case FailReason::NoBroadcast:
        return "NoBroadcast";
    }
    return "Unknown";
}

const char*
EventTypeName(EventType type)
{
    switch (type)
    {
    case EventType::PhaseChanged:
        return "PhaseChanged";
    case EventType::BroadcastDetected:
        return "BroadcastDetected";
    case EventType::Resolved:
        return "Resolved";
    case EventType::Unresolvable:
        return "Unresolvable";
    case EventType::Revalidated:
        return "Revalidated";
    case EventType::EntryRemoved:
        return "EntryRemoved";
    case EventType::ServerUp:
        return "ServerUp";
    case EventType::ServerDown:
        return "ServerDown";
    case EventType::AddressConflict:
        return "AddressConflict";
    case EventType::ClientRegistered:
        return "ClientRegistered";
    case EventType::ClientForgotten:
        return "ClientForgotten";
    }
    return "Unknown";
}

std::string
Event::ToString() const
{
    std::string text = EventTypeName(type);
    switch (type)
    {
    case EventType::PhaseChanged:
        return text + " " + PhaseName(phase);
    case EventType::BroadcastDetected:
        return text + (broadcast ? " broadcast" : " non-broadcast");
    case EventType::Unresolvable:
        return text + " " + ip.ToString() + " " + FailReasonName(reason);
    case EventType::EntryRemoved:
        return text + " " + ip.ToString() + " " + ula.ToString() + " " + FailReasonName(reason);
    case EventType::ServerDown:
        return text + " " + ula.ToString();
    default:
        return text + " " + ip.ToString() + " " + ula.ToString();
    }
}

} // namespace harp
