/*
 * st-header-fuzzer.cc: fuzz target of the 40-byte ST header decoder (StHeader::Decode).
 * Short input is Truncated; what decodes must encode back to the same 40 bytes, and what is
 * refused is refused for a reason.
 */
#include "fuzz-common.h"
#include "st-header.h"

#include <cstring>

using namespace ns3::st;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    StHeader h;
    const StDecodeStatus s = StHeader::Decode(data, size, h);
    (void)StDecodeStatusName(s);
    if (size < ST_HEADER_SIZE)
    {
        FUZZ_CHECK(s == StDecodeStatus::Truncated);
        return 0;
    }
    FUZZ_CHECK(s != StDecodeStatus::Truncated);
    if (s != StDecodeStatus::Ok)
    {
        return 0;
    }
    uint8_t out[ST_HEADER_SIZE];
    h.Encode(out);
    FUZZ_CHECK(std::memcmp(out, data, ST_HEADER_SIZE) == 0);
    FUZZ_CHECK(StOpIsWireOp(static_cast<uint8_t>(h.op)));
    FUZZ_CHECK((h.flags & ~StFlag::MASK) == 0);
    StHeader again;
    FUZZ_CHECK(StHeader::Decode(out, sizeof(out), again) == StDecodeStatus::Ok && again == h);
    FUZZ_CHECK(!h.Name().empty());
    (void)h.ToString();
    (void)h.UsesSlot(false);
    (void)h.UsesSlot(true);
    (void)StOpName(h.op);
    return 0;
}
