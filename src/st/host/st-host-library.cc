/*
 * st-host-library.cc: what makes libst's st_create work on Linux: the default stack is
 * opened on the first st_create, on the interface named by $ST_INTERFACE (else the one
 * Ethernet interface that is up), with static peers from $ST_PEERS ("IP=MAC,..."). When it
 * cannot be opened, st_create returns the errno value (EPERM, ENODEV, ENETDOWN, EMSGSIZE,
 * EINVAL) and one line on stderr says what to do ($ST_QUIET=1 silences it).
 */
#include "st-bypass-stack.h"
#include "st-host-stack.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <net/if.h>
#include <string>
#include <vector>

using namespace ns3::st;

namespace
{

std::unique_ptr<StHostStack> g_stack; //!< the process's default stack

const char*
Env(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : nullptr;
}

/// The one interface that is up and Ethernet, if exactly one is; else "".
std::string
SoleInterface(std::string& why)
{
    std::vector<std::string> found;
    if (struct if_nameindex* all = if_nameindex())
    {
        for (struct if_nameindex* i = all; i->if_index != 0; ++i)
        {
            StLinkInfo link;
            std::string ignored;
            if (StPacketSocket::QueryLink(i->if_name, link, ignored) == 0 && link.ethernet &&
                link.up && std::strcmp(i->if_name, "lo") != 0)
            {
                found.push_back(i->if_name);
            }
        }
        if_freenameindex(all);
    }
    if (found.size() == 1)
    {
        return found.front();
    }
    why = found.empty() ? "no Ethernet interface is up; set ST_INTERFACE to the one ST uses"
                        : "several Ethernet interfaces are up; set ST_INTERFACE to the one ST "
                          "uses (e.g. ST_INTERFACE=" +
                              found.front() + ")";
    return "";
}

StBypassStack*
OpenDefaultStack(int& error)
{
    StHostOptions o;
    o.program = "libst";
    std::string message;
    if (const char* name = Env("ST_INTERFACE"))
    {
        o.interface = name;
    }
    else
    {
        o.interface = SoleInterface(message);
    }
    if (const char* peers = Env("ST_PEERS"))
    {
        o.peers = peers;
    }
    auto stack = std::make_unique<StHostStack>();
    error = o.interface.empty() ? ENODEV : stack->Open(o, message);
    if (error != 0)
    {
        if (Env("ST_QUIET") == nullptr)
        {
            std::fprintf(stderr, "libst: %s\n", message.c_str());
        }
        return nullptr;
    }
    g_stack = std::move(stack);
    return &g_stack->GetStack();
}

/// Installed when libst is loaded, before main.
const bool g_installed = (StBypassStack::SetDefaultFactory(&OpenDefaultStack), true);

} // namespace
