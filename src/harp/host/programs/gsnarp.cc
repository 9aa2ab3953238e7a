/*
 * gsnarp: the HARP table of an interface, as IRIX's gsnarp shows and changes it, through the
 * interface's harpd:
 *
 *   gsnarp -i IFACE -a               every entry (and, on a server, its registrations)
 *   gsnarp -i IFACE -s IP ULA        add a static entry (never aged, never overwritten)
 *   gsnarp -i IFACE -d IP            delete a static entry
 *   gsnarp -i IFACE HOST             the entry of HOST, resolved through HARP if needed
 *
 * Exit status 0 when the daemon did it, 1 otherwise (one line saying why).
 */
#include "harp-daemon.h"
#include "st-command-line.h"
#include "st-neighbour-table.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int
main(int argc, char** argv)
{
    ns3::st::StCommandLine cmd("gsnarp",
                               "gsnarp: show and change the HARP table of an interface (through "
                               "its harpd)\n  gsnarp -i IFACE -a | -s IP ULA | -d IP | HOST");
    std::string interface;
    std::string socketPath;
    bool all = false;
    bool setStatic = false;
    bool del = false;
    uint64_t timeoutMs = 10000;
    cmd.AddString("interface", 'i', &interface, "the interface (required)");
    cmd.AddString("socket", 0, &socketPath, "harpd's socket (default /run/harpd.IFACE.sock)");
    cmd.AddFlag("all", 'a', &all, "list every entry");
    cmd.AddFlag("static", 's', &setStatic, "add a static entry: IP ULA");
    cmd.AddFlag("delete", 'd', &del, "delete the static entry of IP");
    cmd.AddNumber("timeout", 0, &timeoutMs, 1, 600000, "ms to wait for the daemon's answer");
    cmd.Parse(argc, argv);
    if (interface.empty() && socketPath.empty())
    {
        cmd.Fail("--interface (-i) is required");
    }
    if (socketPath.empty())
    {
        socketPath = harp::HarpDaemon::DefaultSocket(interface);
    }
    const auto& args = cmd.Positional();
    std::string request;
    if (all + setStatic + del > 1)
    {
        cmd.Fail("-a, -s and -d exclude each other");
    }
    if (all)
    {
        if (!args.empty())
        {
            cmd.Fail("-a takes no argument");
        }
        request = "list";
    }
    else if (setStatic)
    {
        if (args.size() != 2 || !harp::Ipv4::Parse(args[0]) || !harp::Ula::Parse(args[1]))
        {
            cmd.Fail("-s needs an IPv4 address and a ULA (e.g. -s 10.0.0.9 02:00:00:00:00:09)");
        }
        request = "static " + args[0] + " " + args[1];
    }
    else if (del)
    {
        if (args.size() != 1 || !harp::Ipv4::Parse(args[0]))
        {
            cmd.Fail("-d needs an IPv4 address");
        }
        request = "delete " + args[0];
    }
    else
    {
        uint32_t ip = 0;
        if (args.size() != 1 || !ns3::st::StNeighbourTable::ParseHost(args[0].c_str(), ip))
        {
            cmd.Fail("give -a, -s IP ULA, -d IP, or a host name or IPv4 address");
        }
        request = "resolve " + ns3::st::StNeighbourTable::FormatIpv4(ip);
    }

    const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un self{};
    self.sun_family = AF_UNIX; // autobind: an abstract name the daemon answers to
    bind(fd, reinterpret_cast<sockaddr*>(&self), sizeof(sa_family_t));
    sockaddr_un to{};
    to.sun_family = AF_UNIX;
    std::strncpy(to.sun_path, socketPath.c_str(), sizeof(to.sun_path) - 1);
    if (sendto(fd,
               request.data(),
               request.size(),
               0,
               reinterpret_cast<sockaddr*>(&to),
               sizeof(to)) < 0)
    {
        cmd.Fail("no harpd answers on " + socketPath + " (" + std::strerror(errno) +
                 "): start 'harpd -i " + (interface.empty() ? "IFACE" : interface) + "'");
    }
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(timeoutMs)) != 1)
    {
        cmd.Fail("harpd did not answer within " + std::to_string(timeoutMs) + " ms");
    }
    char buf[65536];
    const ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
    close(fd);
    if (n <= 0)
    {
        cmd.Fail("no answer from harpd");
    }
    buf[n] = '\0';
    std::string answer(buf);
    if (answer.rfind("error", 0) == 0)
    {
        cmd.Fail(answer.substr(6, answer.find('\n') - 6));
    }
    // "ok" alone on its line is an acknowledgement; anything after it is the answer.
    std::string body = answer.substr(answer.rfind("ok\n", 0) == 0 ? 3 : 3);
    std::fputs(body.c_str(), stdout);
    return 0;
}
