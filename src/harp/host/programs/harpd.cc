/*
 * harpd: the HARP daemon of one interface (RFC 2835 as the IRIX GSN guide describes it):
 * reads the harpd.options text, registers with the LIS's servers (InARP) and resolves
 * addresses through them or by broadcast, serves LIS when the options say so, ages entries
 * by the RFC's timers, writes resolved addresses into the kernel's neighbour table, and
 * answers gsnarp. HARP travels in 802.3 + LLC/SNAP frames with EtherType 0x0806.
 *
 *   harpd -i veth0 [-f /etc/config/harpd.options] [--socket PATH] [-v]
 */
#include "harp-daemon.h"
#include "st-command-line.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace
{
volatile bool g_stop = false;

void
OnSignal(int)
{
    g_stop = true;
}
} // namespace

int
main(int argc, char** argv)
{
    ns3::st::StCommandLine cmd("harpd",
                               "harpd: HARP (RFC 2835) address resolution on an Ethernet "
                               "interface\n  harpd -i IFACE [-f OPTIONS-FILE] [--socket PATH] "
                               "[-v]");
    harp::HarpDaemon::Settings s;
    std::string file = "/etc/config/harpd.options";
    bool noKernel = false;
    cmd.AddString("interface", 'i', &s.interface, "the interface (required)");
    cmd.AddString("file", 'f', &file, "the harpd.options file");
    cmd.AddString("socket",
                  0,
                  &s.socketPath,
                  "gsnarp's control socket (default /run/harpd.IFACE.sock)");
    cmd.AddFlag("no-kernel", 0, &noKernel, "do not write the kernel's neighbour table");
    cmd.AddFlag("verbose", 'v', &s.verbose, "print every HARP event");
    cmd.Parse(argc, argv);
    if (s.interface.empty())
    {
        cmd.Fail("--interface (-i) is required");
    }
    if (!cmd.Positional().empty())
    {
        cmd.Fail("unexpected argument '" + cmd.Positional()[0] + "'");
    }
    std::ifstream in(file);
    if (!in)
    {
        cmd.Fail("cannot read the options file '" + file + "' (-f names another)");
    }
    std::stringstream text;
    text << in.rdbuf();
    s.optionsText = text.str();
    s.kernel = !noKernel;
    if (s.socketPath.empty())
    {
        s.socketPath = harp::HarpDaemon::DefaultSocket(s.interface);
    }
    harp::HarpDaemon daemon;
    std::string error;
    if (daemon.Open(s, error) != 0)
    {
        std::istringstream lines(error);
        std::string line;
        while (std::getline(lines, line))
        {
            std::fprintf(stderr, "harpd: %s\n", line.c_str());
        }
        return 1;
    }

    struct sigaction sa
    {
    };

    sa.sa_handler = OnSignal;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    std::printf("harpd: running on %s (control socket %s)\n",
                s.interface.c_str(),
                s.socketPath.c_str());
    std::fflush(stdout);
    daemon.Run(g_stop);
    return 0;
}
