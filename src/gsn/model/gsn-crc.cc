/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-crc.h"

#include <boost/crc.hpp>

namespace ns3
{
namespace gsn
{

uint16_t
Crc16Update(uint16_t crc, const uint8_t* data, std::size_t len)
{
    // Not reflected, no final XOR: the running value can be resumed where it stopped.
    boost::crc_optimal<16, 0x1021, 0, 0, false, false> engine(crc);
    engine.process_bytes(data, len);
    return engine.checksum();
}

} // namespace gsn
} // namespace ns3
