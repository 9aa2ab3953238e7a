/*
 * st-command-line.cc: options of the host programs (see st-command-line.h).
 */
#include "st-command-line.h"

#include <cstdio>
#include <cstdlib>

namespace ns3
{
namespace st
{

StCommandLine::StCommandLine(std::string program, std::string synopsis)
    : m_program(std::move(program)),
      m_synopsis(std::move(synopsis))
{
}

void
StCommandLine::AddFlag(const std::string& name, char alias, bool* target, const std::string& help)
{
    m_options.push_back({name, alias, false, help, [target](const std::string&, std::string&) {
                             *target = true;
                             return true;
                         }});
}

void
StCommandLine::AddString(const std::string& name,
                         char alias,
                         std::string* target,
                         const std::string& help)
{
    m_options.push_back({name,
                         alias,
                         true,
                         help + (target->empty() ? "" : " (default " + *target + ")"),
                         [target](const std::string& v, std::string&) {
                             *target = v;
                             return true;
                         }});
}

void
StCommandLine::AddNumber(const std::string& name,
                         char alias,
                         uint64_t* target,
                         uint64_t min,
                         uint64_t max,
                         const std::string& help)
{
    const std::string range = std::to_string(min) + " to " + std::to_string(max);
    m_options.push_back({name,
                         alias,
                         true,
                         help + " (default " + std::to_string(*target) + ")",
                         [target, min, max, range](const std::string& v, std::string& why) {
                             char* end = nullptr;
                             if (v.empty() || v[0] == '-')
                             {
                                 why = "a number from " + range;
                                 return false;
                             }
                             unsigned long long n = std::strtoull(v.c_str(), &end, 10);
                             const std::string suffix = end;
                             const unsigned long long unit =
                                 suffix == "K" || suffix == "k"   ? 1ULL << 10
                                 : suffix == "M" || suffix == "m" ? 1ULL << 20
                                 : suffix == "G" || suffix == "g" ? 1ULL << 30
                                 : suffix.empty()                 ? 1ULL
                                                                  : 0ULL;
                             if (end == v.c_str() || unit == 0 || n > max / unit ||
                                 n * unit < min || n * unit > max)
                             {
                                 why = "a number from " + range + " (K, M, G: powers of 1024)";
                                 return false;
                             }
                             *target = n * unit;
                             return true;
                         }});
}

void
StCommandLine::AddChoice(const std::string& name,
                         char alias,
                         std::string* target,
                         const std::vector<std::string>& choices,
                         const std::string& help)
{
    std::string list;
    for (const auto& c : choices)
    {
        list += (list.empty() ? "" : ", ") + c;
    }
    m_options.push_back({name,
                         alias,
                         true,
                         help + ": " + list + " (default " + *target + ")",
                         [target, choices, list](const std::string& v, std::string& why) {
                             for (const auto& c : choices)
                             {
                                 if (v == c)
                                 {
                                     *target = v;
                                     return true;
                                 }
                             }
                             why = "one of " + list;
                             return false;
                         }});
}

const StCommandLine::Option*
StCommandLine::Find(const std::string& name, char alias) const
{
    for (const auto& o : m_options)
    {
        if ((!name.empty() && o.name == name) || (alias != 0 && o.alias == alias))
        {
            return &o;
        }
    }
    return nullptr;
}

void
StCommandLine::Fail(const std::string& message) const
{
    std::fprintf(stderr, "%s: %s\n", m_program.c_str(), message.c_str());
    std::exit(1);
}

void
StCommandLine::PrintHelp() const
{
    std::printf("%s\n\nOptions:\n", m_synopsis.c_str());
    for (const auto& o : m_options)
    {
        std::string left = o.alias != 0 ? std::string("  -") + o.alias + ", " : "      ";
        left += "--" + o.name + (o.takesValue ? "=VALUE" : "");
        std::printf("%-28s %s\n", left.c_str(), o.help.c_str());
    }
    std::printf("%-28s %s\n", "  -h, --help", "print this help and exit");
}

void
StCommandLine::Parse(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg == "--help" || arg == "-h")
        {
            PrintHelp();
            std::exit(0);
        }
        const Option* o = nullptr;
        std::string value;
        bool inlineValue = false;
        if (arg.rfind("--", 0) == 0 && arg.size() > 2)
        {
            const std::size_t eq = arg.find('=');
            const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
            if (eq != std::string::npos)
            {
                value = arg.substr(eq + 1);
                inlineValue = true;
            }
            o = Find(name, 0);
            if (o == nullptr)
            {
                Fail("unknown option '--" + name + "' (--help lists the options)");
            }
        }
        else if (arg.size() == 2 && arg[0] == '-' && arg[1] != '-')
        {
            o = Find("", arg[1]);
            if (o == nullptr)
            {
                Fail("unknown option '" + arg + "' (--help lists the options)");
            }
        }
        else
        {
            m_positional.push_back(arg);
            continue;
        }
        if (o->takesValue && !inlineValue)
        {
            if (i + 1 >= argc)
            {
                Fail("option '--" + o->name + "' needs a value");
            }
            value = argv[++i];
        }
        else if (!o->takesValue && inlineValue)
        {
            Fail("option '--" + o->name + "' takes no value");
        }
        std::string why;
        if (!o->set(value, why))
        {
            Fail("bad value '" + value + "' for --" + o->name + ": " + why);
        }
    }
}

} // namespace st
} // namespace ns3
