/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnFabricWatchdog: finds deadlocks of a running GSN fabric. Once per CheckInterval it reads
 * the switches' state (who holds each output VC, the micropackets sent there, the credits
 * left) and builds the wait-for graph of the switch outputs that hold a Message and have sent
 * nothing for StallTime; a cycle in it is a deadlock, reported once. It adds no work to the
 * forwarding path.
 */
#ifndef GSN_FABRIC_WATCHDOG_H
#define GSN_FABRIC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class GsnSwitch;

/**
 * \ingroup gsn
 * \brief Run-time deadlock detection for the switches of a GSN fabric.
 *
 * A vertex is one (switch, output port, VC). It is *stalled* when a Message holds it (an
 * input or a broadcast copy owns it) and the micropackets it sent did not change over the
 * last StallTime, as seen by the periodic checks. A stalled vertex without credits waits for
 * the input buffer of that VC at the far end of its cable; if the far end is a switch, that
 * buffer empties only when its head Message moves on through its own output: the edge goes to
 * that output. Each vertex has at most one such edge, so every cycle is found by following
 * them. A cycle means none of its outputs can ever send again: a deadlock. Each one is
 * reported once (NS_LOG_WARN, one line on std::cerr, the Deadlock trace, GetDeadlocks()).
 * A stall outside a cycle (congestion, a link in recovery) is only counted (GetStalls()).
 *
 * Endpoints are not vertices: an endpoint frees each buffer place as its micropacket arrives,
 * so nothing waits for an endpoint and no cycle passes through one.
 *
 * The watchdog schedules one event per CheckInterval and nothing else. When no other event is
 * pending it goes on only while some held output has not yet been still for StallTime, so that
 * a simulation run until it runs out of events still gets its deadlock reported, and then
 * stops: Simulator::Run() returns. Watch() or setting Enabled to true starts it again.
 */
class GsnFabricWatchdog : public Object
{
  public:
    /// One (switch output, VC) of a cycle.
    struct Hop
    {
        uint32_t node; ///< the switch's node id
        uint32_t port; ///< the output port's index on its switch
        uint8_t vc;    ///< the virtual channel

        /// \param o another hop \return true if both name the same output VC
        bool operator==(const Hop& o) const
        {
            return node == o.node && port == o.port && vc == o.vc;
        }
    };

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnFabricWatchdog();
    ~GsnFabricWatchdog() override;

    /**
     * Watch these switches (their ports must be cabled already) and, if Enabled, start the
     * periodic check. Replaces what was watched before.
     * \param switches the switches of one fabric
     * \param names a name per switch for the report ("node<id>" where missing)
     */
    void Watch(const std::vector<Ptr<GsnSwitch>>& switches,
               const std::vector<std::string>& names = {});

    /// Run one check now (the periodic event does the same).
    void Check();

    /// \return deadlocks (cycles) found so far
    uint64_t GetDeadlocks() const
    {
        return m_deadlocks;
    }

    /// \return times a held (switch output, VC) became stalled
    uint64_t GetStalls() const
    {
        return m_stalls;
    }

    /// \return checks run so far
    uint64_t GetChecks() const
    {
        return m_checks;
    }

    /// \return the cycles reported, in the order found
    const std::vector<std::vector<Hop>>& GetCycles() const
    {
        return m_cycles;
    }

    /**
     * \param cycle a cycle as reported
     * \return "sw0:p0/vc1 -> sw1:p0/vc1 -> sw0:p0/vc1" with the switches' names
     */
    std::string DescribeCycle(const std::vector<Hop>& cycle) const;

    /// \param enabled whether the periodic check runs (the Enabled attribute)
    void SetEnabled(bool enabled);
    /// \return the Enabled attribute
    bool IsEnabled() const;

    /// TracedCallback signature: a deadlock, as its cycle of (switch output, VC); each waits
    /// for the next, the last for the first.
    typedef void (*DeadlockTracedCallback)(const std::vector<Hop>& cycle);

  protected:
    void DoDispose() override;

  private:
    /// The periodic event: Check(), then the next one if needed.
    void PeriodicCheck();
    /// Schedule the next check if enabled, watching and none is pending.
    void ScheduleCheck();
    /// \param v a vertex index \return it as a Hop
    Hop HopOf(uint32_t v) const;
    /// Report the cycle of vertices \p cycle (each waits for the next).
    void Report(const std::vector<uint32_t>& cycle);

    /// What the checks remember of one (switch output, VC).
    struct Vertex
    {
        uint64_t sent{0}; ///< its micropacketsOut at the last check
        // (Time steps, not a Time: a Time made before Simulator::Run is entered in ns-3's
        // registry of Times to convert, tens of bytes each for every vertex of the fabric.)
        int64_t stillSince{0}; ///< the last check at which it was free or had sent more
        int32_t next{-1};      ///< the vertex it waits for, this check (-1: none)
        uint64_t walk{0};      ///< cycle search: the last walk that reached it (0: none)
        bool stalled{false};   ///< still for StallTime while held
        bool reported{false};  ///< part of a cycle reported already
    };

    std::vector<Ptr<GsnSwitch>> m_switches; ///< the switches watched
    std::vector<std::string> m_names;       ///< their names
    std::vector<uint32_t> m_nodeIds;        ///< their nodes' ids
    std::vector<uint32_t> m_first;          ///< index of each switch's first vertex
    std::vector<int32_t> m_peerSwitch;      ///< per switch port: switch at the far end, or -1
    std::vector<uint32_t> m_peerPort;       ///< per switch port: port at the far end
    std::vector<Vertex> m_vertices;         ///< (switch, port, VC), switch by switch
    EventId m_event;                        ///< the next check
    bool m_enabled;                         ///< attribute Enabled
    Time m_checkInterval;                   ///< attribute CheckInterval
    Time m_idleCheckInterval;               ///< attribute IdleCheckInterval
    Time m_nextInterval;                    ///< time to the next check (0: CheckInterval)
    uint32_t m_held{0};                     ///< output VCs holding a Message at the last check
    Time m_stallTime;                       ///< attribute StallTime
    uint64_t m_deadlocks{0};                ///< cycles reported
    uint64_t m_stalls{0};                   ///< vertices that became stalled
    uint64_t m_checks{0};                   ///< checks run
    uint64_t m_walks{0};                    ///< cycle search walks so far (their ids)
    uint32_t m_mayStall{0};                 ///< held output VCs not (yet) stalled at the last check
    std::vector<std::vector<Hop>> m_cycles; ///< cycles reported
    TracedCallback<const std::vector<Hop>&> m_deadlockTrace; ///< deadlocks
};

} // namespace ns3

#endif /* GSN_FABRIC_WATCHDOG_H */
