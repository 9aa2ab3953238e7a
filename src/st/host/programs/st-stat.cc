/*
 * st-stat: the counters of the ST stacks running on this machine (st-bw, st-lat, st-check,
 * programs using libst), as perfquery or ethtool -S show a NIC's: the engine's verdict on
 * every received operation (rx.Accepted, rx.UnknownKey, rx.OutsideMapping ...), its
 * statistics (TxOps, Retransmissions ...), and the raw socket's frames (sent, received,
 * dropped by reason, dropped by the kernel). Stacks publish them in /dev/shm (or
 * $ST_STAT_DIR); a stack that ended leaves them only when asked to (its figures at exit).
 *
 *   st-stat                 every stack, non-zero counters
 *   st-stat --all --pid=N   one stack, every counter
 *   st-stat --get=rx.UnknownKey --pid=N   one value (for scripts)
 */
#include "st-command-line.h"
#include "st-host-stats.h"

#include <cstdio>
#include <ctime>

using namespace ns3::st;

int
main(int argc, char** argv)
{
    StCommandLine cmd("st-stat",
                      "st-stat: counters of the ST stacks on this machine (published in " +
                          StHostStats::Folder() +
                          ")\n  st-stat [--all] [--pid=N] [--program=NAME] "
                          "[--get=COUNTER]");
    bool all = false;
    uint64_t pid = 0;
    std::string program;
    std::string get;
    cmd.AddFlag("all", 'a', &all, "show counters that are zero too");
    cmd.AddNumber("pid", 0, &pid, 0, 1ULL << 31, "only this process (0: all)");
    cmd.AddString("program", 0, &program, "only stacks of this program (st-bw, libst ...)");
    cmd.AddString("get", 0, &get, "print only this counter's value, one line per stack");
    cmd.Parse(argc, argv);
    if (!cmd.Positional().empty())
    {
        cmd.Fail("unexpected argument '" + cmd.Positional()[0] + "'");
    }
    int shown = 0;
    for (const StHostStats::Snapshot& s : StHostStats::ReadAll())
    {
        if ((pid != 0 && static_cast<uint64_t>(s.pid) != pid) ||
            (!program.empty() && s.program != program))
        {
            continue;
        }
        ++shown;
        if (!get.empty())
        {
            bool found = false;
            for (const auto& [name, value] : s.values)
            {
                if (name == get)
                {
                    std::printf("%llu\n", static_cast<unsigned long long>(value));
                    found = true;
                }
            }
            if (!found)
            {
                cmd.Fail("no counter named '" + get + "' (st-stat --all lists them)");
            }
            continue;
        }
        const time_t t = static_cast<time_t>(s.updatedNs / 1000000000ULL);
        char when[32];
        std::strftime(when, sizeof(when), "%H:%M:%S", std::localtime(&t));
        std::printf("%s pid %d on %s (%s, updated %s)\n",
                    s.program.c_str(),
                    s.pid,
                    s.interface.c_str(),
                    s.alive ? "running" : "ended",
                    when);
        for (const auto& [name, value] : s.values)
        {
            if (all || value != 0)
            {
                std::printf("  %-28s %llu\n", name.c_str(), static_cast<unsigned long long>(value));
            }
        }
    }
    if (shown == 0)
    {
        cmd.Fail("no ST stack publishes counters in " + StHostStats::Folder() +
                 (pid != 0 || !program.empty() ? " matching the selection" : "") +
                 " (st-bw, st-lat, st-check and libst programs do while they run)");
    }
    return 0;
}
