// harp-options.cc: the options text parser (see harp-options.h).
#include "harp-options.h"

#include <limits>

namespace harp
{

namespace
{

std::vector<std::string_view>
SplitWords(std::string_view line)
{
    std::vector<std::string_view> words;
    std::size_t at = 0;
    while (at < line.size())
    {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r'))
        {
            ++at;
        }
        const std::size_t start = at;
        while (at < line.size() && line[at] != ' ' && line[at] != '\t' && line[at] != '\r')
        {
            ++at;
        }
        if (at > start)
        {
            words.push_back(line.substr(start, at - start));
        }
    }
    return words;
}

std::optional<uint64_t>
ParseUnsigned(std::string_view text)
{
    if (text.empty() || text.size() > 19)
    {
        return std::nullopt;
    }
    uint64_t value = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return std::nullopt;
        }
        value = value * 10 + static_cast<uint64_t>(c - '0');
    }
    return value;
}

std::optional<uint32_t>
ParseCount(std::string_view text)
{
    const auto value = ParseUnsigned(text);
    if (!value || *value > std::numeric_limits<uint32_t>::max())
    {
        return std::nullopt;
    }
    return static_cast<uint32_t>(*value);
}

/// Parses one line into options; returns an error message, or an empty string if valid.
std::string
ParseLine(const std::vector<std::string_view>& words, Options& options)
{
    const std::string_view key = words[0];
    const std::size_t arguments = words.size() - 1;
    auto expect = [&](std::size_t count) {
        return arguments == count
                   ? std::string()
                   : std::string(key) + ": expected " + std::to_string(count) + " argument(s)";
    };
    if (key == "server")
    {
        if (auto error = expect(1); !error.empty())
        {
            return error;
        }
        const auto ula = Ula::Parse(words[1]);
        if (!ula || !ula->IsUnicast())
        {
            return "server: not a unicast ULA: " + std::string(words[1]);
        }
        options.servers.push_back(*ula);
        return "";
    }
    if (key == "static")
    {
        if (auto error = expect(2); !error.empty())
        {
            return error;
        }
        const auto ip = Ipv4::Parse(words[1]);
        const auto ula = Ula::Parse(words[2]);
        if (!ip || !ula || !ula->IsUnicast())
        {
            return "static: expected IP-ADDRESS UNICAST-ULA";
        }
        options.statics.push_back(StaticEntry{*ip, *ula});
        return "";
    }
    if (key == "serve")
    {
        if (auto error = expect(2); !error.empty())
        {
            return error;
        }
        const auto subnet = Subnet::Parse(words[1]);
        const auto address = Ipv4::Parse(words[2]);
        if (!subnet || !address || !subnet->IsHost(*address))
        {
            return "serve: expected SUBNET SERVER-ADDRESS (a host address of the subnet)";
        }
        options.lis.push_back(ServedLis{*subnet, *address});
        return "";
    }
    if (key == "fabric")
    {
        if (auto error = expect(1); !error.empty())
        {
            return error;
        }
        if (words[1] == "detect")
        {
            options.mode = FabricMode::Detect;
        }
        else if (words[1] == "broadcast")
        {
            options.mode = FabricMode::Broadcast;
        }
        else if (words[1] == "nonbroadcast")
        {
            options.mode = FabricMode::NonBroadcast;
        }
        else
        {
            return "fabric: expected detect, broadcast or nonbroadcast";
        }
        return "";
    }
    if (key == "revalidate-idle")
    {
        if (auto error = expect(1); !error.empty())
        {
            return error;
        }
        if (words[1] != "yes" && words[1] != "no")
        {
            return "revalidate-idle: expected yes or no";
        }
        options.revalidateIdleEntries = words[1] == "yes";
        return "";
    }

    struct CountKey
    {
        const char* name;
        std::optional<uint32_t> Options::*field;
        uint32_t minimum;
    };

    for (const CountKey& entry : {CountKey{"broadcast-probes", &Options::broadcastProbes, 1},
                                  CountKey{"request-retries", &Options::requestRetries, 0}})
    {
        if (key == entry.name)
        {
            if (auto error = expect(1); !error.empty())
            {
                return error;
            }
            const auto count = ParseCount(words[1]);
            if (!count || *count < entry.minimum)
            {
                return std::string(key) +
                       ": expected an integer >= " + std::to_string(entry.minimum);
            }
            options.*(entry.field) = *count;
            return "";
        }
    }

    struct DurationKey
    {
        const char* name;
        std::optional<TimeNs> Options::*field;
    };

    for (const DurationKey& entry :
         {DurationKey{"probe-interval", &Options::probeInterval},
          DurationKey{"registration-retry", &Options::registrationRetry},
          DurationKey{"request-timeout", &Options::requestTimeout},
          DurationKey{"reregistration-interval", &Options::reregistrationInterval},
          DurationKey{"cache-lifetime", &Options::cacheLifetime},
          DurationKey{"registration-lifetime", &Options::registrationLifetime}})
    {
        if (key == entry.name)
        {
            if (auto error = expect(1); !error.empty())
            {
                return error;
            }
            const auto duration = ParseDuration(words[1]);
            if (!duration || *duration == 0)
            {
                return std::string(key) + ": expected a duration above zero, e.g. 10s or 15m";
            }
            options.*(entry.field) = *duration;
            return "";
        }
    }
    return "unknown keyword: " + std::string(key);
}

} // namespace

std::optional<TimeNs>
ParseDuration(std::string_view text)
{
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    {
        ++digits;
    }
    const auto value = ParseUnsigned(text.substr(0, digits));
    if (!value)
    {
        return std::nullopt;
    }
    const std::string_view unit = text.substr(digits);
    TimeNs scale;
    if (unit == "ns")
    {
        scale = kNanosecond;
    }
    else if (unit == "us")
    {
        scale = kMicrosecond;
    }
    else if (unit == "ms")
    {
        scale = kMillisecond;
    }
    else if (unit.empty() || unit == "s")
    {
        scale = kSecond;
    }
    else if (unit == "m" || unit == "min")
    {
        scale = kMinute;
    }
    else if (unit == "h")
    {
        scale = kHour;
    }
    else
    {
        return std::nullopt;
    }
    if (*value > kNever / scale)
    {
        return std::nullopt;
    }
    return *value * scale;
}

OptionsParseResult
ParseOptions(std::string_view text)
{
    OptionsParseResult result;
    std::size_t lineNumber = 0;
    std::size_t at = 0;
    while (at <= text.size())
    {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
        {
            end = text.size();
        }
        ++lineNumber;
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
        {
            line = line.substr(0, hash);
        }
        const auto words = SplitWords(line);
        if (words.empty())
        {
            continue;
        }
        std::string error = ParseLine(words, result.options);
        if (!error.empty())
        {
            result.errors.push_back(OptionsError{lineNumber, std::move(error)});
        }
    }
    return result;
}

void
Options::ApplyTo(ClientConfig& config) const
{
    if (mode)
    {
        config.mode = *mode;
    }
    config.servers.insert(config.servers.end(), servers.begin(), servers.end());
    config.statics.insert(config.statics.end(), statics.begin(), statics.end());
    config.broadcastProbes = broadcastProbes.value_or(config.broadcastProbes);
    config.probeInterval = probeInterval.value_or(config.probeInterval);
    config.registrationRetry = registrationRetry.value_or(config.registrationRetry);
    config.requestTimeout = requestTimeout.value_or(config.requestTimeout);
    config.requestRetries = requestRetries.value_or(config.requestRetries);
    config.reregistrationInterval = reregistrationInterval.value_or(config.reregistrationInterval);
    config.cacheLifetime = cacheLifetime.value_or(config.cacheLifetime);
    config.revalidateIdleEntries = revalidateIdleEntries.value_or(config.revalidateIdleEntries);
}

void
Options::ApplyTo(ServerConfig& config) const
{
    config.lis.insert(config.lis.end(), lis.begin(), lis.end());
    config.statics.insert(config.statics.end(), statics.begin(), statics.end());
    config.registrationLifetime = registrationLifetime.value_or(config.registrationLifetime);
}

} // namespace harp
