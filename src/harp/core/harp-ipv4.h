// harp-ipv4.h: the Ipv4 value type (an IPv4 address, the protocol address HARP resolves), with
// its parsing and printing. Subnets (LIS) live in harp-subnet.h.
#ifndef HARP_IPV4_H
#define HARP_IPV4_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace harp
{

/**
 * \ingroup harp
 * \brief An IPv4 address, held in host byte order.
 *
 * Named Ipv4 (not Ipv4Address) so that it does not read like ns3::Ipv4Address; an adapter
 * converts with `harp::Ipv4(address.Get())` and `ns3::Ipv4Address(ip.Get())`.
 */
class Ipv4
{
  public:
    /** \brief 0.0.0.0 */
    constexpr Ipv4()
        : m_value(0)
    {
    }

    /**
     * \brief An address from its 32-bit value in host byte order (192.0.2.1 = 0xC0000201).
     * \param value the address
     */
    constexpr explicit Ipv4(uint32_t value)
        : m_value(value)
    {
    }

    /**
     * \brief Parses dotted-quad text such as "192.0.2.1".
     * \param text the text
     * \return the address, or nothing if the text is not one
     */
    static std::optional<Ipv4> Parse(std::string_view text);

    /** \return the address in host byte order */
    constexpr uint32_t Get() const
    {
        return m_value;
    }

    /** \return true for 0.0.0.0 */
    bool IsAny() const;

    /** \return true for 255.255.255.255 */
    bool IsLimitedBroadcast() const;

    /** \return true for 224.0.0.0/4 */
    bool IsMulticast() const;

    /** \return "a.b.c.d" */
    std::string ToString() const;

    /** \brief Equality. \param a left \param b right \return true if equal */
    friend bool operator==(Ipv4 a, Ipv4 b)
    {
        return a.m_value == b.m_value;
    }

    /** \brief Inequality. \param a left \param b right \return true if different */
    friend bool operator!=(Ipv4 a, Ipv4 b)
    {
        return a.m_value != b.m_value;
    }

    /** \brief Numeric order. \param a left \param b right \return true if a sorts first */
    friend bool operator<(Ipv4 a, Ipv4 b)
    {
        return a.m_value < b.m_value;
    }

  private:
    uint32_t m_value; //!< The address, host byte order.
};

} // namespace harp

#endif // HARP_IPV4_H
