/*
 * st-counters.cc: names and sums of the engine's counters (see st-counters.h).
 */
#include "st-counters.h"

namespace ns3
{
namespace st
{

const char*
StRxVerdictName(StRxVerdict v)
{
    static const char* const names[] = {
        "Accepted",    "Truncated",       "UnknownOp",      "LocalOp",         "BadFlags",
        "BadField",    "NoListener",      "UnknownKey",     "WrongPort",       "WrongPeer",
        "WrongState",  "UnknownTransfer", "OutsideMapping", "OutsideExposure", "Duplicate",
        "SlotOverrun", "NoChannel",       "BadChecksum",    "OutOfOrder",      "Port0Full"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<std::size_t>(StRxVerdict::Count),
                  "one name per verdict");
    auto i = static_cast<std::size_t>(v);
    return i < static_cast<std::size_t>(StRxVerdict::Count) ? names[i] : "?";
}

const char*
StStatName(StStat s)
{
    static const char* const names[] = {"RxFrames",
                                        "TxOps",
                                        "TxDataBytes",
                                        "RxDataBytes",
                                        "Retransmissions",
                                        "Timeouts",
                                        "SlotStalls",
                                        "RejectsSent",
                                        "PausesSent",
                                        "FetchOpResends",
                                        "PatternErrors",
                                        "PutsRefused"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<std::size_t>(StStat::Count),
                  "one name per statistic");
    auto i = static_cast<std::size_t>(s);
    return i < static_cast<std::size_t>(StStat::Count) ? names[i] : "?";
}

uint64_t
StCounters::Dropped() const
{
    return TotalVerdicts() - Get(StRxVerdict::Accepted);
}

uint64_t
StCounters::TotalVerdicts() const
{
    uint64_t sum = 0;
    for (auto v : m_verdicts)
    {
        sum += v;
    }
    return sum;
}

std::string
StCounters::ToString() const
{
    std::string s;
    for (std::size_t i = 0; i < m_verdicts.size(); ++i)
    {
        if (m_verdicts[i] != 0)
        {
            s += std::string("rx.") + StRxVerdictName(static_cast<StRxVerdict>(i)) + "=" +
                 std::to_string(m_verdicts[i]) + "\n";
        }
    }
    for (std::size_t i = 0; i < m_stats.size(); ++i)
    {
        if (m_stats[i] != 0)
        {
            s += std::string(StStatName(static_cast<StStat>(i))) + "=" +
                 std::to_string(m_stats[i]) + "\n";
        }
    }
    return s;
}

} // namespace st
} // namespace ns3
