// harp-options.h: the text configuration of the HARP engines, in the spirit of IRIX's
// /etc/config/harpd.options (servers of the LIS, static entries, served LIS, timers), parsed into
// Options and applied to ClientConfig / ServerConfig. It reads a string: opening files is the
// caller's business. The format is documented in doc/harp.rst.
#ifndef HARP_OPTIONS_H
#define HARP_OPTIONS_H

#include "harp-config.h"
#include "harp-time.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace harp
{

/**
 * \ingroup harp
 * \brief The settings of one options text. Unset fields leave the defaults alone.
 */
struct Options
{
    std::optional<FabricMode> mode;               //!< fabric detect|broadcast|nonbroadcast
    std::vector<Ula> servers;                     //!< server ULA (repeatable)
    std::vector<StaticEntry> statics;             //!< static IP ULA (repeatable)
    std::vector<ServedLis> lis;                   //!< serve SUBNET SERVER-IP (repeatable)
    std::optional<uint32_t> broadcastProbes;      //!< broadcast-probes N
    std::optional<TimeNs> probeInterval;          //!< probe-interval DURATION
    std::optional<TimeNs> registrationRetry;      //!< registration-retry DURATION
    std::optional<TimeNs> requestTimeout;         //!< request-timeout DURATION
    std::optional<uint32_t> requestRetries;       //!< request-retries N
    std::optional<TimeNs> reregistrationInterval; //!< reregistration-interval DURATION
    std::optional<TimeNs> cacheLifetime;          //!< cache-lifetime DURATION
    std::optional<TimeNs> registrationLifetime;   //!< registration-lifetime DURATION
    std::optional<bool> revalidateIdleEntries;    //!< revalidate-idle yes|no

    /**
     * \brief Applies the client settings: mode, servers and statics (appended), timers.
     * \param config the configuration to change
     */
    void ApplyTo(ClientConfig& config) const;

    /**
     * \brief Applies the server settings: served LIS and statics (appended), aging.
     * \param config the configuration to change
     */
    void ApplyTo(ServerConfig& config) const;
};

/**
 * \ingroup harp
 * \brief One error of an options text.
 */
struct OptionsError
{
    std::size_t line{0}; //!< Line number, from 1.
    std::string message; //!< What is wrong.
};

/**
 * \ingroup harp
 * \brief Result of ParseOptions: the settings of every valid line, and the errors.
 */
struct OptionsParseResult
{
    Options options;                  //!< Settings of the valid lines.
    std::vector<OptionsError> errors; //!< One per invalid line.

    /** \return true if every line was valid */
    bool Ok() const
    {
        return errors.empty();
    }
};

/**
 * \brief Parses an options text. Lines with errors are reported and skipped.
 * \param text the whole text
 * \return the settings and the errors
 */
OptionsParseResult ParseOptions(std::string_view text);

/**
 * \brief Parses a duration: an integer and a unit among ns, us, ms, s, m (or min), h; no unit
 *        means seconds. Examples: "10s", "15m", "1500ms", "3".
 * \param text the text
 * \return the duration in nanoseconds, or nothing if the text is not one
 */
std::optional<TimeNs> ParseDuration(std::string_view text);

} // namespace harp

#endif // HARP_OPTIONS_H
