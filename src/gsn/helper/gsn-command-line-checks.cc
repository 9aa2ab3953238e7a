/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-command-line-checks.h"

#include "ns3/global-value.h"
#include "ns3/gsn-deadlock-checker.h"
#include "ns3/gsn-routing.h"
#include "ns3/gsn-topology.h"
#include "ns3/log.h"
#include "ns3/scheduler.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnCommandLineChecks");

namespace
{

/// \return \p v as a short decimal
std::string
Text(double v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

/// \return \p t in the largest unit that shows it without a fraction, e.g. "5us"
std::string
Text(Time t)
{
    const std::pair<Time::Unit, const char*> units[] = {{Time::D, "d"},
                                                        {Time::H, "h"},
                                                        {Time::MIN, "min"},
                                                        {Time::S, "s"},
                                                        {Time::MS, "ms"},
                                                        {Time::US, "us"},
                                                        {Time::NS, "ns"}};
    for (const auto& [unit, name] : units)
    {
        const int64x64_t v = t.To(unit);
        if (v.GetHigh() != 0 && v.GetLow() == 0)
        {
            return std::to_string(v.GetHigh()) + name;
        }
    }
    return std::to_string(t.GetNanoSeconds()) + "ns";
}

/// \return the folder part of \p path ("." if it has none)
std::string
Folder(const std::string& path)
{
    const std::string::size_type slash = path.find_last_of('/');
    if (slash == std::string::npos)
    {
        return ".";
    }
    return slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

GsnCommandLineChecks::GsnCommandLineChecks(std::string program)
    : m_program(std::move(program))
{
}

void
GsnCommandLineChecks::AddValue(CommandLine& cmd,
                               const std::string& name,
                               const std::string& help,
                               std::string& text)
{
    m_names.push_back(name);
    cmd.AddValue(name, help, text);
}

std::string
GsnCommandLineChecks::CheckNs3Option(const std::string& name, const std::string& value)
{
    // CommandLine's own options: they print and exit.
    for (const char* own : {"help",
                            "PrintHelp",
                            "version",
                            "PrintVersion",
                            "PrintGlobals",
                            "PrintGroups",
                            "PrintGroup",
                            "PrintTypeIds",
                            "PrintAttributes"})
    {
        if (name == own)
        {
            return "";
        }
    }
    Ptr<const AttributeChecker> checker;
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        if ((*g)->GetName() == name)
        {
            checker = (*g)->GetChecker();
        }
    }
    const std::string::size_type colons = name.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!checker && colons != std::string::npos &&
        TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid) &&
        tid.LookupAttributeByName(name.substr(colons + 2), &info))
    {
        checker = info.checker;
    }
    if (!checker)
    {
        return "unknown option (--help lists the options)";
    }
    if (!checker->CreateValidValue(StringValue(value)))
    {
        return "not a value of this ns-3 setting (--PrintGlobals or --PrintAttributes=TYPE "
               "describe them)";
    }
    return "";
}

void
GsnCommandLineChecks::Parse(CommandLine& cmd, int argc, char* argv[]) const
{
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind('-', 0) != 0)
        {
            continue; // not an option: CommandLine keeps it, the programs ignore it
        }
        arg.erase(0, arg.rfind("--", 0) == 0 ? 2 : 1);
        const std::string::size_type eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (std::find(m_names.begin(), m_names.end(), name) != m_names.end())
        {
            continue;
        }
        const std::string problem = CheckNs3Option(name, value);
        if (!problem.empty())
        {
            Fail(name, value, problem);
        }
    }
    cmd.Parse(argc, argv);
}

void
GsnCommandLineChecks::Fail(const std::string& option,
                           const std::string& value,
                           const std::string& accepts) const
{
    std::cerr << m_program << ": --" << option << (value.empty() ? "" : "=") << value << ": "
              << accepts << std::endl;
    std::exit(1);
}

int64_t
GsnCommandLineChecks::Integer(const std::string& option,
                              const std::string& text,
                              int64_t min,
                              int64_t max,
                              const std::string& accepts) const
{
    const std::string what = accepts.empty() ? "must be an integer from " + std::to_string(min) +
                                                   " to " + std::to_string(max)
                                             : accepts;
    // strtoll, not an unsigned parse: "-1" must stay negative to be refused.
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(begin, &end, 10);
    if (text.empty() || end == begin || *end != '\0' || errno == ERANGE || v < min || v > max)
    {
        Fail(option, text, what);
    }
    return v;
}

double
GsnCommandLineChecks::Real(const std::string& option,
                           const std::string& text,
                           double min,
                           double max,
                           const std::string& accepts) const
{
    const std::string what =
        accepts.empty() ? "must be a number from " + Text(min) + " to " + Text(max) : accepts;
    const char* begin = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (text.empty() || end == begin || *end != '\0' || !std::isfinite(v) || v < min || v > max)
    {
        Fail(option, text, what);
    }
    return v;
}

bool
GsnCommandLineChecks::Boolean(const std::string& option, const std::string& text) const
{
    if (text.empty() || text == "1" || text == "true")
    {
        return true;
    }
    if (text == "0" || text == "false")
    {
        return false;
    }
    Fail(option, text, "must be 1, true, 0 or false");
}

Time
GsnCommandLineChecks::Duration(const std::string& option,
                               const std::string& text,
                               Time min,
                               Time max,
                               const std::string& accepts) const
{
    const std::string what =
        accepts.empty() ? "must be a time from " + Text(min) + " to " + Text(max) + " (e.g. 1ms)"
                        : accepts;
    // The number and unit are checked here: ns-3's Time(std::string) aborts on a bad unit.
    const std::string::size_type n = text.find_first_not_of("+-0123456789.eE");
    const std::string number = text.substr(0, n);
    const std::string unit = n == std::string::npos ? "s" : text.substr(n);
    const std::pair<const char*, double> units[] = {{"s", 1.0},
                                                    {"ms", 1e-3},
                                                    {"us", 1e-6},
                                                    {"ns", 1e-9},
                                                    {"ps", 1e-12},
                                                    {"fs", 1e-15},
                                                    {"min", 60.0},
                                                    {"h", 3600.0},
                                                    {"d", 86400.0},
                                                    {"y", 365.0 * 86400.0}};
    double seconds = 0;
    bool knownUnit = false;
    for (const auto& [name, factor] : units)
    {
        if (unit == name)
        {
            knownUnit = true;
            seconds = factor;
        }
    }
    const char* begin = number.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    seconds *= v;
    // Compare in seconds first: a huge value would overflow Time's 64-bit count.
    if (!knownUnit || number.empty() || end == begin || *end != '\0' || !std::isfinite(v) ||
        seconds < min.GetSeconds() - 1e-9 || seconds > max.GetSeconds() + 1e-9)
    {
        Fail(option, text, what);
    }
    const Time t(text);
    if (t < min || t > max)
    {
        Fail(option, text, what);
    }
    return t;
}

std::string
GsnCommandLineChecks::Choice(const std::string& option,
                             const std::string& text,
                             const std::vector<std::string>& names) const
{
    for (const std::string& name : names)
    {
        if (text == name)
        {
            return text;
        }
    }
    Fail(option, text, "must be " + List(names));
}

void
GsnCommandLineChecks::WritableFile(const std::string& option, const std::string& path) const
{
    if (path.empty())
    {
        return;
    }
    struct stat st;
    if (stat(path.c_str(), &st) == 0)
    {
        if (S_ISDIR(st.st_mode))
        {
            Fail(option, path, "is a folder; give a file to write");
        }
        if (!S_ISREG(st.st_mode) || access(path.c_str(), W_OK) != 0)
        {
            Fail(option, path, "cannot be written; give a writable file");
        }
        return;
    }
    const std::string folder = Folder(path);
    if (stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    {
        Fail(option,
             path,
             "folder " + folder + " does not exist; give a file in an existing folder");
    }
    if (access(folder.c_str(), W_OK | X_OK) != 0)
    {
        Fail(option,
             path,
             "folder " + folder + " is not writable; give a file in a writable folder");
    }
}

void
GsnCommandLineChecks::ReadableFile(const std::string& option, const std::string& path) const
{
    struct stat st;
    if (path.empty())
    {
        Fail(option, path, "needs the path of a file");
    }
    if (stat(path.c_str(), &st) != 0)
    {
        Fail(option, path, "no such file");
    }
    if (S_ISDIR(st.st_mode))
    {
        Fail(option, path, "is a folder, not a file");
    }
    if (!S_ISREG(st.st_mode) || access(path.c_str(), R_OK) != 0)
    {
        Fail(option, path, "cannot be read");
    }
}

void
GsnCommandLineChecks::SchedulerType(const std::string& option, const std::string& name) const
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid) || !tid.IsChildOf(Scheduler::GetTypeId()) ||
        !tid.HasConstructor())
    {
        Fail(option,
             name,
             "must be an ns-3 scheduler type, e.g. ns3::GsnTimingWheelScheduler, "
             "ns3::MapScheduler, ns3::HeapScheduler, ns3::ListScheduler or "
             "ns3::CalendarScheduler");
    }
}

void
GsnCommandLineChecks::Fabric(const std::string& option,
                             const std::string& value,
                             const GsnTopology& topology,
                             const std::string& routingOption,
                             const std::string& routing) const
{
    const std::string problem = topology.Validate();
    if (!problem.empty())
    {
        Fail(option, value, "cannot be built: " + problem);
    }
    Choice(routingOption, routing, GsnRouting::GetNames());
    // GsnFabricHelper::Install aborts on these; computing the tables once more is cheap
    // next to the run (well under a second for a thousand endpoints).
    try
    {
        GsnDeadlockChecker::Check(topology, GsnRouting::Create(routing)->Compute(topology));
    }
    catch (const std::exception& e)
    {
        Fail(routingOption, routing, std::string("does not apply to this fabric: ") + e.what());
    }
}

std::string
GsnCommandLineChecks::List(const std::vector<std::string>& names)
{
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
    {
        s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    return s;
}

} // namespace ns3
