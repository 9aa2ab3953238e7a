// harp-message-fuzzer.cc: fuzz target of the HARP body decoder (harp::Parse): what parses must
// serialize back to its first 28 bytes; what does not is refused with a drop reason.
#include "fuzz-common.h"
#include "harp-message.h"

#include <cstring>

using namespace harp;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const ParseResult r = Parse(size ? data : nullptr, size);
    if (!r.message)
    {
        FUZZ_CHECK(static_cast<std::size_t>(r.error) < kDropReasonCount);
        (void)DropReasonName(r.error);
        if (size < kMessageSize)
        {
            FUZZ_CHECK(r.error == DropReason::Truncated);
        }
        return 0;
    }
    FUZZ_CHECK(size >= kMessageSize);
    const std::vector<uint8_t> out = r.message->Serialize();
    FUZZ_CHECK(out.size() == kMessageSize);
    FUZZ_CHECK(std::memcmp(out.data(), data, kMessageSize) == 0);
    const ParseResult again = Parse(out.data(), out.size());
    FUZZ_CHECK(again.message && *again.message == *r.message);
    (void)r.message->ToString();
    (void)OpName(r.message->op);
    return 0;
}
