/*
 * gsn-admin-fuzzer.cc: fuzz target of the Admin micropacket payload (GsnAdminPayload) and of
 * the register agent every element runs (GsnAdminRegisters::Answer). Every 32 bytes of the
 * input are one payload: it must decode and encode back exactly, and its response must keep
 * the recorded path and walk back as many hops as the request crossed.
 */
#include "fuzz-common.h"
#include "gsn-admin.h"

#include <cstring>
#include <sstream>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    constexpr std::size_t N = 32;
    GsnAdminRegisters registers; // scratch writes carry over from one payload to the next
    for (std::size_t off = 0; off + N <= size; off += N)
    {
        const uint8_t* in = data + off;
        GsnAdminPayload p = GsnAdminPayload::Deserialize(in);
        uint8_t out[N];
        p.Serialize(out);
        // Flags bits 3-7 are not kept; every other bit is.
        uint8_t expect[N];
        std::memcpy(expect, in, N);
        expect[2] &= 0x07;
        FUZZ_CHECK(std::memcmp(out, expect, N) == 0);
        uint64_t arg = 0;
        for (int i = 0; i < 8; ++i)
        {
            arg = arg << 8 | in[16 + i];
        }
        FUZZ_CHECK(p.GetArg64() == arg);
        std::ostringstream os;
        os << p;
        (void)GsnAdminCommandName(p.command);

        // Through a micropacket and back (the port seals the LCRC as it sends).
        GsnMicropacket mp = p.ToMicropacket();
        FUZZ_CHECK(mp.GetType() == GsnMicropacketType::ADMIN && mp.tail && mp.vc == 0);
        mp.SetLcrcPending();
        uint8_t wire[40];
        mp.Serialize(wire);
        GsnMicropacket back = GsnMicropacket::Deserialize(wire);
        FUZZ_CHECK(back.LcrcIsGood());
        uint8_t again[N];
        GsnAdminPayload::Deserialize(back.Data()).Serialize(again);
        FUZZ_CHECK(std::memcmp(again, expect, N) == 0);

        // What an element answers.
        GsnAdminPayload r = p;
        const bool registerCommand = p.GetCommand() == GsnAdminCommand::READ_REGISTER ||
                                     p.GetCommand() == GsnAdminCommand::WRITE_REGISTER;
        if (registerCommand)
        {
            registers.Answer(r, [](uint16_t reg) -> std::optional<uint64_t> {
                if (reg < 4)
                {
                    return reg * 1000u;
                }
                return std::nullopt;
            });
            FUZZ_CHECK(r.GetCommand() == p.GetCommand());
            FUZZ_CHECK(r.status == uint8_t(GsnAdminStatus::OK) ||
                       r.status == uint8_t(GsnAdminStatus::BAD_ARGUMENT));
        }
        else if (in[31] & 1)
        {
            r.MakeInvalidCommandResponse();
            FUZZ_CHECK(r.GetCommand() == GsnAdminCommand::INVALID_COMMAND);
            FUZZ_CHECK(r.arg[0] == p.command);
        }
        else
        {
            r.MakeResponse(GsnAdminStatus(in[31] >> 1 & 3));
        }
        FUZZ_CHECK(r.response && (r.command & GsnAdminPayload::RESPONSE_BIT));
        FUZZ_CHECK(r.hopCount == p.pathIndex && r.pathIndex == p.pathIndex && r.path == p.path);
        FUZZ_CHECK(r.error == (r.status != uint8_t(GsnAdminStatus::OK)));
        FUZZ_CHECK(r.transaction == p.transaction);
    }
    return 0;
}
