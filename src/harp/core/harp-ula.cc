// harp-ula.cc: parsing and printing of ULAs (see harp-ula.h).
#include "harp-ula.h"

#include <cstdio>

namespace harp
{

namespace
{

int
HexDigit(char c)
{
    if (c >= '0' && c <= '9')
    {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f')
    {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F')
    {
        return c - 'A' + 10;
    }
    return -1;
}

} // namespace

Ula
Ula::FromBytes(const uint8_t* data)
{
    Bytes bytes;
    for (std::size_t i = 0; i < kSize; ++i)
    {
        bytes[i] = data[i];
    }
    return Ula(bytes);
}

Ula
Ula::FromUint64(uint64_t value)
{
    Bytes bytes;
    for (std::size_t i = 0; i < kSize; ++i)
    {
        bytes[i] = static_cast<uint8_t>(value >> (8 * (kSize - 1 - i)));
    }
    return Ula(bytes);
}

std::optional<Ula>
Ula::Parse(std::string_view text)
{
    // Six two-digit groups and five separators, all the same separator.
    if (text.size() != 3 * kSize - 1)
    {
        return std::nullopt;
    }
    const char separator = text[2];
    if (separator != ':' && separator != '-')
    {
        return std::nullopt;
    }
    Bytes bytes;
    for (std::size_t i = 0; i < kSize; ++i)
    {
        const std::size_t at = 3 * i;
        if (i > 0 && text[at - 1] != separator)
        {
            return std::nullopt;
        }
        const int high = HexDigit(text[at]);
        const int low = HexDigit(text[at + 1]);
        if (high < 0 || low < 0)
        {
            return std::nullopt;
        }
        bytes[i] = static_cast<uint8_t>(high * 16 + low);
    }
    return Ula(bytes);
}

void
Ula::CopyTo(uint8_t* data) const
{
    for (std::size_t i = 0; i < kSize; ++i)
    {
        data[i] = m_bytes[i];
    }
}

const Ula::Bytes&
Ula::GetBytes() const
{
    return m_bytes;
}

uint64_t
Ula::ToUint64() const
{
    uint64_t value = 0;
    for (uint8_t byte : m_bytes)
    {
        value = (value << 8) | byte;
    }
    return value;
}

bool
Ula::IsBroadcast() const
{
    return *this == Broadcast();
}

bool
Ula::IsGroup() const
{
    return (m_bytes[0] & 0x01) != 0;
}

bool
Ula::IsZero() const
{
    return *this == Ula();
}

bool
Ula::IsUnicast() const
{
    return !IsZero() && !IsGroup();
}

std::string
Ula::ToString() const
{
    char text[3 * kSize];
    std::snprintf(text,
                  sizeof(text),
                  "%02x:%02x:%02x:%02x:%02x:%02x",
                  m_bytes[0],
                  m_bytes[1],
                  m_bytes[2],
                  m_bytes[3],
                  m_bytes[4],
                  m_bytes[5]);
    return text;
}

} // namespace harp
