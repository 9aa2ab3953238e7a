// harp-subnet.h: the Subnet value type. A logical IP subnet (LIS) is an IP subnet: an address
// and a contiguous mask. HARP never resolves across LIS boundaries, so every engine decision
// about "same LIS" goes through this class.
#ifndef HARP_SUBNET_H
#define HARP_SUBNET_H

#include "harp-ipv4.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace harp
{

/**
 * \ingroup harp
 * \brief An IPv4 subnet (network address and prefix length): the address space of one LIS.
 */
class Subnet
{
  public:
    /** \brief 0.0.0.0/0, every address. */
    constexpr Subnet()
        : m_network(),
          m_prefixLength(0)
    {
    }

    /**
     * \brief The subnet of length prefixLength that holds address (host bits are cleared).
     * \param address any address of the subnet
     * \param prefixLength mask length, 0..32 (larger values count as 32)
     */
    Subnet(Ipv4 address, uint8_t prefixLength);

    /**
     * \brief The subnet of an address and a netmask (as in ifconfig's netmask 0xffffffe0).
     * \param address any address of the subnet
     * \param mask the netmask; must be contiguous ones then zeros
     * \return the subnet, or nothing if the mask is not contiguous
     */
    static std::optional<Subnet> FromMask(Ipv4 address, Ipv4 mask);

    /**
     * \brief Parses "192.0.2.0/27", "192.0.2.0/255.255.255.224" or "192.0.2.0/0xffffffe0".
     * \param text the text
     * \return the subnet, or nothing if the text is not one
     */
    static std::optional<Subnet> Parse(std::string_view text);

    /** \return the network address (host bits zero) */
    Ipv4 GetNetwork() const;

    /** \return the netmask */
    Ipv4 GetMask() const;

    /** \return the prefix length, 0..32 */
    uint8_t GetPrefixLength() const;

    /**
     * \param address an address
     * \return true if address lies in the subnet
     */
    bool Contains(Ipv4 address) const;

    /**
     * \param address an address
     * \return true if address is the subnet's directed broadcast (host bits all one; only for
     *         prefixes up to /30, since /31 and /32 have no broadcast address, RFC 3021)
     */
    bool IsDirectedBroadcast(Ipv4 address) const;

    /**
     * \param address an address
     * \return true if address can name one host of the subnet: inside it, and neither the
     *         network address nor the directed broadcast (for prefixes up to /30)
     */
    bool IsHost(Ipv4 address) const;

    /** \return "a.b.c.d/n" */
    std::string ToString() const;

    /** \brief Equality. \param a left \param b right \return true if equal */
    friend bool operator==(const Subnet& a, const Subnet& b)
    {
        return a.m_network == b.m_network && a.m_prefixLength == b.m_prefixLength;
    }

    /** \brief Inequality. \param a left \param b right \return true if different */
    friend bool operator!=(const Subnet& a, const Subnet& b)
    {
        return !(a == b);
    }

  private:
    Ipv4 m_network;         //!< Network address, host bits zero.
    uint8_t m_prefixLength; //!< Mask length.
};

} // namespace harp

#endif // HARP_SUBNET_H
