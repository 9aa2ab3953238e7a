// harp-ipv4.cc: parsing and printing of IPv4 addresses (see harp-ipv4.h).
#include "harp-ipv4.h"

namespace harp
{

std::optional<Ipv4>
Ipv4::Parse(std::string_view text)
{
    uint32_t value = 0;
    std::size_t at = 0;
    for (int part = 0; part < 4; ++part)
    {
        if (part > 0)
        {
            if (at >= text.size() || text[at] != '.')
            {
                return std::nullopt;
            }
            ++at;
        }
        uint32_t octet = 0;
        std::size_t digits = 0;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9' && digits < 3)
        {
            octet = octet * 10 + static_cast<uint32_t>(text[at] - '0');
            ++at;
            ++digits;
        }
        if (digits == 0 || octet > 255)
        {
            return std::nullopt;
        }
        value = (value << 8) | octet;
    }
    if (at != text.size())
    {
        return std::nullopt;
    }
    return Ipv4(value);
}

bool
Ipv4::IsAny() const
{
    return m_value == 0;
}

bool
Ipv4::IsLimitedBroadcast() const
{
    return m_value == 0xffffffffU;
}

bool
Ipv4::IsMulticast() const
{
    return (m_value & 0xf0000000U) == 0xe0000000U;
}

std::string
Ipv4::ToString() const
{
    std::string text;
    for (int shift = 24; shift >= 0; shift -= 8)
    {
        text += std::to_string((m_value >> shift) & 0xff);
        if (shift > 0)
        {
            text += '.';
        }
    }
    return text;
}

} // namespace harp
