/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The 16-bit CRC used for LCRC and ECRC. The polynomial is not known from the standard;
 * the project proposes CRC-16/CCITT (gsn-protocol-reference.rst, "Micropacket layout")
 * (x^16+x^12+x^5+1, initial value 0xFFFF), which this computes four bytes per step from tables
 * (checked against Boost.CRC in the tests). Only this file and its test know the polynomial.
 */
#ifndef GSN_CRC_H
#define GSN_CRC_H

#include <cstddef>
#include <cstdint>

namespace ns3
{
namespace gsn
{

/// Initial value of a CRC computation (and of the running ECRC of a Message).
constexpr uint16_t CRC_INITIAL = 0xFFFF;

/**
 * \brief Continue a CRC-16/CCITT computation over more bytes.
 * \param crc the CRC so far (CRC_INITIAL to start)
 * \param data the bytes
 * \param len how many
 * \return the updated CRC
 */
uint16_t Crc16Update(uint16_t crc, const uint8_t* data, std::size_t len);

} // namespace gsn
} // namespace ns3

#endif /* GSN_CRC_H */
