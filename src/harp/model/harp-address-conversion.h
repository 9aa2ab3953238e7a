/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * harp-address-conversion.h: conversions between the engine's address types (harp::Ula,
 * harp::Ipv4) and ns-3's (Mac48Address, Ipv4Address). Nothing else.
 */
#ifndef HARP_ADDRESS_CONVERSION_H
#define HARP_ADDRESS_CONVERSION_H

#include "ns3/harp-ipv4.h"
#include "ns3/harp-ula.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup harp
 * \param mac an ns-3 MAC address
 * \return the same ULA for the engine
 */
inline harp::Ula
ToHarpUla(Mac48Address mac)
{
    uint8_t bytes[6];
    mac.CopyTo(bytes);
    return harp::Ula::FromBytes(bytes);
}

/**
 * \ingroup harp
 * \param ula an engine ULA
 * \return the same address for ns-3
 */
inline Mac48Address
FromHarpUla(const harp::Ula& ula)
{
    uint8_t bytes[6];
    ula.CopyTo(bytes);
    Mac48Address mac;
    mac.CopyFrom(bytes);
    return mac;
}

/**
 * \ingroup harp
 * \param ip an ns-3 IPv4 address
 * \return the same address for the engine
 */
inline harp::Ipv4
ToHarpIpv4(Ipv4Address ip)
{
    return harp::Ipv4(ip.Get());
}

/**
 * \ingroup harp
 * \param ip an engine IPv4 address
 * \return the same address for ns-3
 */
inline Ipv4Address
FromHarpIpv4(harp::Ipv4 ip)
{
    return Ipv4Address(ip.Get());
}

} // namespace ns3

#endif /* HARP_ADDRESS_CONVERSION_H */
