// harp-config.h: the configuration of the HARP engines (ClientConfig, ServerConfig) and, once,
// every timer default with where it comes from. [C] = confirmed in RFC 2835 as described by the
// IRIX GSN guide (SEED-GSN); [U] = proposed default, reason in harp-protocol-reference.rst,
// "Proposed timers" (the RFC body could not be read). Change a default here and nowhere else.
#ifndef HARP_CONFIG_H
#define HARP_CONFIG_H

#include "harp-ipv4.h"
#include "harp-subnet.h"
#include "harp-time.h"
#include "harp-ula.h"

#include <cstdint>
#include <vector>

namespace harp
{

/// Broadcast self-test probes. [C] "a host may send multiple"; the count 3 is [U].
constexpr uint32_t kDefaultBroadcastProbes = 3;
/// Time between broadcast probes, and after the last one before deciding. [U]
constexpr TimeNs kDefaultProbeInterval = 1 * kSecond;
/// Registration phase: InARP retransmission to servers that have not answered. [C] behaviour,
/// [U] period.
constexpr TimeNs kDefaultRegistrationRetry = 10 * kSecond;
/// ARP request (and re-registration) answer timeout. [U]
constexpr TimeNs kDefaultRequestTimeout = 3 * kSecond;
/// Retransmissions after the first ARP request (or re-registration) before giving up. [U]
constexpr uint32_t kDefaultRequestRetries = 2;
/// Re-registration with every server. [C] IRIX default (must be below the 20-minute aging).
constexpr TimeNs kDefaultReregistrationInterval = 15 * kMinute;
/// Age after which a client's dynamic entry must be revalidated or removed. [C] RFC 2835.
constexpr TimeNs kDefaultCacheLifetime = 15 * kMinute;
/// A server forgets a client it has not heard from for this long. [C] RFC 2835.
constexpr TimeNs kDefaultRegistrationLifetime = 20 * kMinute;

/**
 * \ingroup harp
 * \brief How a client learns whether the fabric broadcasts.
 */
enum class FabricMode : uint8_t
{
    Detect,       //!< Broadcast self-test at start-up (RFC 2835).
    Broadcast,    //!< Known broadcast-capable: skip the self-test.
    NonBroadcast, //!< Known non-broadcast: skip the self-test, register with servers.
};

/**
 * \ingroup harp
 * \brief A static (permanent) entry: a host without HARP (gsnarp -s, harpd.options).
 */
struct StaticEntry
{
    Ipv4 ip; //!< Its IP address.
    Ula ula; //!< Its ULA.
};

/**
 * \ingroup harp
 * \brief Configuration of a Client (one per interface).
 */
struct ClientConfig
{
    Ula ula;                          //!< The interface's ULA.
    Ipv4 address;                     //!< The interface's IP address (shared by IP and ST).
    Subnet lis;                       //!< The LIS: the interface's subnet.
    std::vector<Ula> servers;         //!< ULAs of every HARP server of the LIS (same on all hosts).
    std::vector<StaticEntry> statics; //!< Static entries installed at construction.
    FabricMode mode{FabricMode::Detect};                 //!< Broadcast detection or a forced mode.
    uint32_t broadcastProbes{kDefaultBroadcastProbes};   //!< Self-test probes (>= 1).
    TimeNs probeInterval{kDefaultProbeInterval};         //!< Between probes.
    TimeNs registrationRetry{kDefaultRegistrationRetry}; //!< InARP retransmission.
    TimeNs requestTimeout{kDefaultRequestTimeout};       //!< Per ARP/InARP attempt.
    uint32_t requestRetries{kDefaultRequestRetries};     //!< Attempts after the first.
    TimeNs reregistrationInterval{kDefaultReregistrationInterval}; //!< Re-registration period.
    TimeNs cacheLifetime{kDefaultCacheLifetime};                   //!< Dynamic entry lifetime.
    /// Revalidate entries not looked up since their last validation too (default: remove them).
    bool revalidateIdleEntries{false};
};

/**
 * \ingroup harp
 * \brief One LIS a server serves.
 */
struct ServedLis
{
    Subnet subnet;      //!< The LIS.
    Ipv4 serverAddress; //!< The server's own address in it (sent in InARP replies).
};

/**
 * \ingroup harp
 * \brief Configuration of a Server (one per interface; it may serve several LIS).
 */
struct ServerConfig
{
    Ula ula;                          //!< The server interface's ULA.
    std::vector<ServedLis> lis;       //!< The LIS it serves.
    std::vector<StaticEntry> statics; //!< Static entries installed at construction.
    TimeNs registrationLifetime{kDefaultRegistrationLifetime}; //!< Aging of registrations.
};

} // namespace harp

#endif // HARP_CONFIG_H
