// harp-stats.cc: names of the drop reasons (see harp-stats.h).
#include "harp-stats.h"

namespace harp
{

const char*
DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case DropReason::Truncated:
        return "Truncated";
    case DropReason::BadHardwareType:
        return "BadHardwareType";
    case DropReason::BadProtocolType:
        return "BadProtocolType";
    case DropReason::BadAddressLength:
        return "BadAddressLength";
    case DropReason::UnknownOperation:
        return "UnknownOperation";
    case DropReason::SenderMismatch:
        return "SenderMismatch";
    case DropReason::BadSender:
        return "BadSender";
    case DropReason::WrongTarget:
        return "WrongTarget";
    case DropReason::OutsideLis:
        return "OutsideLis";
    case DropReason::UnsolicitedReply:
        return "UnsolicitedReply";
    case DropReason::StaticConflict:
        return "StaticConflict";
    case DropReason::AddressConflict:
        return "AddressConflict";
    }
    return "Unknown";
}

} // namespace harp
