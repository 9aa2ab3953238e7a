/*
 * harp-daemon.cc: the HARP daemon of one interface (see harp-daemon.h).
 */
#include "harp-daemon.h"

#include "harp-message.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

namespace harp
{

namespace
{
ns3::st::StMac
ToMac(const Ula& ula)
{
    ns3::st::StMac m{};
    ula.CopyTo(m.data());
    return m;
}
} // namespace

HarpDaemon::~HarpDaemon()
{
    // Dynamic entries are HARP's to age: do not leave them behind. Static ones stay, as an
    // administrator's entries do.
    for (Ipv4 ip : m_installed)
    {
        KernelRemove(ip);
    }
    if (m_control >= 0)
    {
        close(m_control);
        unlink(m_settings.socketPath.c_str());
    }
}

std::string
HarpDaemon::DefaultSocket(const std::string& interface)
{
    return "/run/harpd." + interface + ".sock";
}

TimeNs
HarpDaemon::Now() const
{
    return ns3::st::StEventLoop::Now();
}

int
HarpDaemon::Open(const Settings& settings, std::string& error)
{
    m_settings = settings;
    const OptionsParseResult parsed = ParseOptions(settings.optionsText);
    if (!parsed.Ok())
    {
        for (const auto& e : parsed.errors)
        {
            error += (error.empty() ? "" : "\n") + std::string("options line ") +
                     std::to_string(e.line) + ": " + e.message;
        }
        return EINVAL;
    }
    int e = m_link.Open(settings.interface, error);
    if (e != 0)
    {
        return e;
    }
    e = m_loop.Open(error);
    if (e != 0)
    {
        return e;
    }
    m_kernel = std::make_unique<ns3::st::StNeighbourTable>(m_link.GetIfIndex(), settings.interface);

    ClientConfig cc;
    cc.ula = m_link.GetUla();
    cc.address = m_link.GetAddress();
    cc.lis = m_link.GetLis();
    parsed.options.ApplyTo(cc);
    m_client = std::make_unique<Client>(cc);
    if (!parsed.options.lis.empty())
    {
        ServerConfig sc;
        sc.ula = m_link.GetUla();
        parsed.options.ApplyTo(sc);
        m_server = std::make_unique<Server>(sc);
    }

    // gsnarp's socket: one harpd per interface.
    m_control = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (settings.socketPath.size() >= sizeof(addr.sun_path))
    {
        error = "socket path too long: " + settings.socketPath;
        return ENAMETOOLONG;
    }
    std::strncpy(addr.sun_path, settings.socketPath.c_str(), sizeof(addr.sun_path) - 1);
    // A socket file nobody answers on is a harpd that died: take it over.
    const int probe = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0)
    {
        close(probe);
        error = "another harpd already serves '" + settings.interface + "' (socket " +
                settings.socketPath + ")";
        return EADDRINUSE;
    }
    close(probe);
    unlink(settings.socketPath.c_str());
    if (bind(m_control, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) < 0)
    {
        e = errno;
        error = "cannot create the control socket " + settings.socketPath + ": " + std::strerror(e);
        return e;
    }
    m_loop.Add(m_link.GetFd(), [this](uint32_t) { OnFrame(); });
    m_loop.Add(m_control, [this](uint32_t) { OnControl(); });
    return 0;
}

void
HarpDaemon::Run(const volatile bool& stop)
{
    const TimeNs start = Now();
    m_client->Start(start);
    // Static entries of the options go to the kernel at once.
    for (const auto& [ip, entry] : m_client->GetCache().GetEntries())
    {
        if (entry.isStatic)
        {
            KernelSet(ip, entry.ula, true);
        }
    }
    Drain(start);
    while (!stop)
    {
        TimeNs next = kNever;
        if (auto t = m_client->PollTimeout())
        {
            next = std::min(next, *t);
        }
        if (m_server)
        {
            if (auto t = m_server->PollTimeout())
            {
                next = std::min(next, *t);
            }
        }
        m_loop.RunOnce(next);
        const TimeNs now = Now();
        if (now >= next)
        {
            m_client->HandleTimeout(now);
            if (m_server)
            {
                m_server->HandleTimeout(now);
            }
        }
        Drain(now);
    }
}

void
HarpDaemon::Deliver(TimeNs now, const Ula& source, const std::vector<uint8_t>& body)
{
    m_client->HandleFrame(now, source, body);
    if (m_server)
    {
        m_server->HandleFrame(now, source, body);
    }
}

void
HarpDaemon::OnFrame()
{
    Ula source;
    std::vector<uint8_t> body;
    const TimeNs now = Now();
    while (m_link.Receive(source, body))
    {
        Deliver(now, source, body);
    }
    Drain(now);
}

void
HarpDaemon::Drain(TimeNs now)
{
    bool again = true;
    while (again)
    {
        again = false;
        std::vector<Frame> out;
        while (auto f = m_client->PollTransmit())
        {
            out.push_back(*f);
        }
        if (m_server)
        {
            while (auto f = m_server->PollTransmit())
            {
                out.push_back(*f);
            }
        }
        for (const Frame& f : out)
        {
            const bool self = f.destination == m_link.GetUla();
            // Ethernet delivers broadcasts to every station: the sender's copy, which the
            // broadcast self-test waits for, is looped back here.
            const bool probe =
                f.destination == Ula::Broadcast() && m_client->GetPhase() == Phase::Detecting;
            if (!self)
            {
                m_link.Send(f.destination, f.bytes);
            }
            if (self || probe)
            {
                Deliver(now, m_link.GetUla(), f.bytes);
                again = true;
            }
        }
        while (auto e = m_client->PollEvent())
        {
            OnClientEvent(*e);
        }
        if (m_server)
        {
            while (auto e = m_server->PollEvent())
            {
                if (m_settings.verbose)
                {
                    std::printf("harpd: server: %s\n", e->ToString().c_str());
                }
            }
        }
    }
    std::fflush(stdout);
}

void
HarpDaemon::OnClientEvent(const Event& e)
{
    if (m_settings.verbose)
    {
        std::printf("harpd: client: %s\n", e.ToString().c_str());
    }
    switch (e.type)
    {
    case EventType::Resolved:
    case EventType::Revalidated: {
        const CacheEntry* entry = m_client->GetCache().Find(e.ip);
        KernelSet(e.ip, e.ula, entry != nullptr && entry->isStatic);
        break;
    }
    case EventType::Unresolvable:
    case EventType::EntryRemoved:
        if (m_installed.count(e.ip) != 0)
        {
            KernelRemove(e.ip);
        }
        break;
    default:
        break;
    }
    if (e.type != EventType::Resolved && e.type != EventType::Unresolvable)
    {
        return;
    }
    auto range = m_waiting.equal_range(e.ip);
    for (auto it = range.first; it != range.second; ++it)
    {
        Reply(it->second.first,
              it->second.second,
              e.type == EventType::Resolved
                  ? "ok " + e.ip.ToString() + " at " + e.ula.ToString() + "\n"
                  : "error " + e.ip.ToString() + " cannot be resolved (" +
                        FailReasonName(e.reason) + ")\n");
    }
    m_waiting.erase(range.first, range.second);
}

void
HarpDaemon::KernelSet(Ipv4 ip, const Ula& ula, bool permanent)
{
    if (!m_settings.kernel)
    {
        return;
    }
    const int e = m_kernel->Set(ip.Get(), ToMac(ula), permanent);
    if (e != 0)
    {
        std::fprintf(stderr,
                     "harpd: cannot write %s into the neighbour table: %s\n",
                     ip.ToString().c_str(),
                     std::strerror(e));
        return;
    }
    if (permanent)
    {
        m_installed.erase(ip);
    }
    else
    {
        m_installed.insert(ip);
    }
}

void
HarpDaemon::KernelRemove(Ipv4 ip)
{
    if (m_settings.kernel)
    {
        m_kernel->Remove(ip.Get());
    }
    m_installed.erase(ip);
}

void
HarpDaemon::Reply(const sockaddr_un& to, socklen_t len, const std::string& text)
{
    sendto(m_control,
           text.data(),
           text.size(),
           MSG_DONTWAIT,
           reinterpret_cast<const sockaddr*>(&to),
           len);
}

std::string
HarpDaemon::List(TimeNs now) const
{
    std::ostringstream out;
    out << "ok\n";
    out << "# interface " << m_settings.interface << " " << m_link.GetAddress().ToString() << " at "
        << m_link.GetUla().ToString() << ", LIS " << m_link.GetLis().ToString() << ", phase "
        << PhaseName(m_client->GetPhase()) << "\n";
    for (const auto& [ip, entry] : m_client->GetCache().GetEntries())
    {
        out << ip.ToString() << " at " << entry.ula.ToString()
            << (entry.isStatic ? " static" : " dynamic");
        if (!entry.isStatic && entry.expiresAt != kNever)
        {
            out << " " << (entry.expiresAt > now ? (entry.expiresAt - now) / kMillisecond : 0)
                << " ms";
        }
        out << "\n";
    }
    if (m_server)
    {
        for (const auto& [ip, entry] : m_server->GetTable().GetEntries())
        {
            out << "server " << ip.ToString() << " at " << entry.ula.ToString()
                << (entry.isStatic ? " static" : " registered");
            if (!entry.isStatic && entry.expiresAt != kNever)
            {
                out << " " << (entry.expiresAt > now ? (entry.expiresAt - now) / kMillisecond : 0)
                    << " ms";
            }
            out << "\n";
        }
    }
    return out.str();
}

void
HarpDaemon::OnControl()
{
    char buf[512];
    sockaddr_un from{};
    socklen_t fromLen = sizeof(from);
    const ssize_t n = recvfrom(m_control,
                               buf,
                               sizeof(buf) - 1,
                               MSG_DONTWAIT,
                               reinterpret_cast<sockaddr*>(&from),
                               &fromLen);
    if (n <= 0)
    {
        return;
    }
    buf[n] = '\0';
    std::istringstream in(buf);
    std::string verb;
    std::string a;
    std::string b;
    in >> verb >> a >> b;
    const TimeNs now = Now();
    const auto ip = Ipv4::Parse(a);
    if (verb == "list")
    {
        Reply(from, fromLen, List(now));
    }
    else if (verb == "static" && ip && Ula::Parse(b))
    {
        const Ula ula = *Ula::Parse(b);
        bool ok = m_client->AddStatic(*ip, ula);
        if (m_server && m_server->AddStatic(*ip, ula))
        {
            ok = true;
        }
        if (ok)
        {
            KernelSet(*ip, ula, true);
        }
        Reply(from,
              fromLen,
              ok ? "ok\n"
                 : "error " + a + " " + b +
                       " refused (not in the LIS, our own "
                       "address, or not a unicast ULA)\n");
    }
    else if (verb == "delete" && ip)
    {
        bool removed = m_client->RemoveStatic(*ip);
        if (m_server && m_server->RemoveStatic(*ip))
        {
            removed = true;
        }
        if (removed)
        {
            KernelRemove(*ip);
        }
        Reply(from, fromLen, removed ? "ok\n" : "error no static entry for " + a + "\n");
    }
    else if (verb == "resolve" && ip)
    {
        if (auto ula = m_client->Resolve(now, *ip))
        {
            Reply(from, fromLen, "ok " + a + " at " + ula->ToString() + "\n");
        }
        else
        {
            m_waiting.emplace(*ip, std::make_pair(from, fromLen));
        }
    }
    else
    {
        Reply(from, fromLen, "error bad request '" + std::string(buf) + "'\n");
    }
    Drain(now);
}

} // namespace harp
