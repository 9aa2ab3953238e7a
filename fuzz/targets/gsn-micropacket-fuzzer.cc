/*
 * gsn-micropacket-fuzzer.cc: fuzz target of the 40-byte micropacket codec
 * (GsnMicropacket::Deserialize/Serialize, LCRC). Every 40 bytes of the input are one
 * micropacket; every bit pattern must decode and encode back to the same bytes.
 */
#include "fuzz-common.h"
#include "gsn-crc.h"
#include "gsn-micropacket.h"

#include <cstring>
#include <sstream>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    constexpr std::size_t MP = 40;
    for (std::size_t off = 0; off + MP <= size; off += MP)
    {
        const uint8_t* in = data + off;
        GsnMicropacket mp = GsnMicropacket::Deserialize(in);
        uint8_t out[MP];
        mp.Serialize(out);
        FUZZ_CHECK(std::memcmp(in, out, MP) == 0);
        FUZZ_CHECK(mp.vc < 4 && mp.type < 16 && mp.vcr < 4 && mp.cr < 64);
        FUZZ_CHECK(!mp.IsLcrcPending());
        FUZZ_CHECK(mp.LcrcIsGood() == (mp.lcrc == mp.ComputeLcrc()));
        // The LCRC covers bytes 0-37 and is stored big-endian in 38-39.
        const uint16_t lcrc = gsn::Crc16Update(gsn::CRC_INITIAL, in, 38);
        FUZZ_CHECK(lcrc == mp.ComputeLcrc());
        FUZZ_CHECK(GsnIsDefinedMicropacketType(mp.type) ==
                   (std::strcmp(GsnMicropacketTypeName(mp.type), "Reserved") != 0));
        (void)mp.IsSequenced();
        (void)mp.IsMessage();
        std::ostringstream os;
        os << mp;

        // A copy is equal; sealing makes the LCRC good; changing a data byte through
        // MutableData() changes what is serialized and keeps the sealed LCRC.
        GsnMicropacket copy = mp;
        FUZZ_CHECK(copy == mp);
        copy.SealLcrc();
        FUZZ_CHECK(copy.LcrcIsGood());
        const uint16_t sealed = copy.lcrc;
        copy.MutableData()[in[0] % 32] ^= 0x5A;
        FUZZ_CHECK(copy.lcrc == sealed);
        FUZZ_CHECK(!copy.LcrcIsGood());
        uint8_t changed[MP];
        copy.Serialize(changed);
        FUZZ_CHECK(std::memcmp(changed, out, MP) != 0);
        FUZZ_CHECK(GsnMicropacket::Deserialize(changed) == copy);
        // The original shares nothing with the copy it was taken from.
        FUZZ_CHECK(std::memcmp(mp.Data(), in, 32) == 0);
    }
    return 0;
}
