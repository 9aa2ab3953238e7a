// harp-subnet.cc: subnet arithmetic and parsing (see harp-subnet.h).
#include "harp-subnet.h"

namespace harp
{

namespace
{

uint32_t
MaskOf(uint8_t prefixLength)
{
    return prefixLength == 0 ? 0 : ~uint32_t{0} << (32 - prefixLength);
}

/// Parses "0x" followed by one to eight hex digits.
std::optional<uint32_t>
ParseHex32(std::string_view text)
{
    if (text.size() < 3 || text.size() > 10 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
    {
        return std::nullopt;
    }
    uint32_t value = 0;
    for (std::size_t i = 2; i < text.size(); ++i)
    {
        const char c = text[i];
        uint32_t digit;
        if (c >= '0' && c <= '9')
        {
            digit = static_cast<uint32_t>(c - '0');
        }
        else if (c >= 'a' && c <= 'f')
        {
            digit = static_cast<uint32_t>(c - 'a' + 10);
        }
        else if (c >= 'A' && c <= 'F')
        {
            digit = static_cast<uint32_t>(c - 'A' + 10);
        }
        else
        {
            return std::nullopt;
        }
        value = (value << 4) | digit;
    }
    return value;
}

} // namespace

Subnet::Subnet(Ipv4 address, uint8_t prefixLength)
    : m_network(),
      m_prefixLength(prefixLength > 32 ? 32 : prefixLength)
{
    m_network = Ipv4(address.Get() & MaskOf(m_prefixLength));
}

std::optional<Subnet>
Subnet::FromMask(Ipv4 address, Ipv4 mask)
{
    const uint32_t bits = mask.Get();
    // Contiguous: the inverted mask plus one is a power of two (or zero for /0).
    const uint32_t hostBits = ~bits;
    if ((hostBits & (hostBits + 1)) != 0)
    {
        return std::nullopt;
    }
    uint8_t length = 0;
    for (uint32_t probe = bits; probe != 0; probe <<= 1)
    {
        ++length;
    }
    return Subnet(address, length);
}

std::optional<Subnet>
Subnet::Parse(std::string_view text)
{
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos)
    {
        return std::nullopt;
    }
    const auto address = Ipv4::Parse(text.substr(0, slash));
    const std::string_view maskText = text.substr(slash + 1);
    if (!address || maskText.empty())
    {
        return std::nullopt;
    }
    if (const auto dotted = Ipv4::Parse(maskText))
    {
        return FromMask(*address, *dotted);
    }
    if (const auto hex = ParseHex32(maskText))
    {
        return FromMask(*address, Ipv4(*hex));
    }
    if (maskText.size() > 2)
    {
        return std::nullopt;
    }
    unsigned length = 0;
    for (char c : maskText)
    {
        if (c < '0' || c > '9')
        {
            return std::nullopt;
        }
        length = length * 10 + static_cast<unsigned>(c - '0');
    }
    if (length > 32)
    {
        return std::nullopt;
    }
    return Subnet(*address, static_cast<uint8_t>(length));
}

Ipv4
Subnet::GetNetwork() const
{
    return m_network;
}

Ipv4
Subnet::GetMask() const
{
    return Ipv4(MaskOf(m_prefixLength));
}

uint8_t
Subnet::GetPrefixLength() const
{
    return m_prefixLength;
}

bool
Subnet::Contains(Ipv4 address) const
{
    return (address.Get() & MaskOf(m_prefixLength)) == m_network.Get();
}

bool
Subnet::IsDirectedBroadcast(Ipv4 address) const
{
    if (m_prefixLength > 30 || !Contains(address))
    {
        return false;
    }
    const uint32_t hostMask = ~MaskOf(m_prefixLength);
    return (address.Get() & hostMask) == hostMask;
}

bool
Subnet::IsHost(Ipv4 address) const
{
    if (!Contains(address) || address.IsLimitedBroadcast() || address.IsMulticast())
    {
        return false;
    }
    if (m_prefixLength > 30)
    {
        return true;
    }
    return address != m_network && !IsDirectedBroadcast(address);
}

std::string
Subnet::ToString() const
{
    return m_network.ToString() + "/" + std::to_string(m_prefixLength);
}

} // namespace harp
