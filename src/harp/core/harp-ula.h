// harp-ula.h: the Ula value type, a 48-bit IEEE 802 Universal LAN MAC Address (RFC 2835 §4.2),
// with its parsing and printing. It knows nothing of frames or protocol state.
#ifndef HARP_ULA_H
#define HARP_ULA_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace harp
{

/**
 * \ingroup harp
 * \brief A GSN hardware address: 48-bit IEEE 802 Universal LAN MAC Address (ULA).
 *
 * FF:FF:FF:FF:FF:FF is the broadcast ULA. The group bit (least significant bit of the first
 * byte) marks broadcast and multicast addresses, which never name a single sender.
 */
class Ula
{
  public:
    static constexpr std::size_t kSize = 6;   //!< Bytes in a ULA.
    using Bytes = std::array<uint8_t, kSize>; //!< The six bytes, in wire order.

    /** \brief The all-zero ULA (unknown). */
    constexpr Ula()
        : m_bytes{}
    {
    }

    /**
     * \brief A ULA from its six bytes in wire order.
     * \param bytes the address bytes
     */
    constexpr explicit Ula(const Bytes& bytes)
        : m_bytes(bytes)
    {
    }

    /** \return the broadcast ULA FF:FF:FF:FF:FF:FF */
    static constexpr Ula Broadcast()
    {
        return Ula(Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff});
    }

    /**
     * \brief Reads six bytes in wire order.
     * \param data at least six readable bytes
     * \return the ULA
     */
    static Ula FromBytes(const uint8_t* data);

    /**
     * \brief A ULA from the low 48 bits of an integer (first wire byte = bits 47..40).
     * \param value the address as an integer
     * \return the ULA
     */
    static Ula FromUint64(uint64_t value);

    /**
     * \brief Parses "02:00:00:00:00:01" (':' or '-' between six two-digit hex bytes).
     * \param text the text
     * \return the ULA, or nothing if the text is not one
     */
    static std::optional<Ula> Parse(std::string_view text);

    /**
     * \brief Writes the six bytes in wire order.
     * \param data at least six writable bytes
     */
    void CopyTo(uint8_t* data) const;

    /** \return the six bytes in wire order */
    const Bytes& GetBytes() const;

    /** \return the address as a 48-bit integer */
    uint64_t ToUint64() const;

    /** \return true for FF:FF:FF:FF:FF:FF */
    bool IsBroadcast() const;

    /** \return true if the group bit is set (broadcast or multicast) */
    bool IsGroup() const;

    /** \return true for 00:00:00:00:00:00 */
    bool IsZero() const;

    /** \return true if the address can name one sender: neither zero nor a group address */
    bool IsUnicast() const;

    /** \return "xx:xx:xx:xx:xx:xx", lower-case hex */
    std::string ToString() const;

    /** \brief Equality. \param a left \param b right \return true if equal */
    friend bool operator==(const Ula& a, const Ula& b)
    {
        return a.m_bytes == b.m_bytes;
    }

    /** \brief Inequality. \param a left \param b right \return true if different */
    friend bool operator!=(const Ula& a, const Ula& b)
    {
        return a.m_bytes != b.m_bytes;
    }

    /** \brief Byte-wise order. \param a left \param b right \return true if a sorts first */
    friend bool operator<(const Ula& a, const Ula& b)
    {
        return a.m_bytes < b.m_bytes;
    }

  private:
    Bytes m_bytes; //!< The address, in wire order.
};

} // namespace harp

#endif // HARP_ULA_H
