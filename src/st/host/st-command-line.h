/*
 * st-command-line.h: the options of the host programs (st-bw, st-lat, st-check, st-stat,
 * harpd, gsnarp): --name=value or --name value, one-letter aliases, sizes with K/M/G
 * suffixes, --help. A bad option ends the program with one line naming it and what it
 * accepts, and exit status 1. It owns the option table only.
 */
#ifndef ST_COMMAND_LINE_H
#define ST_COMMAND_LINE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief A small option parser with one-line errors.
 */
class StCommandLine
{
  public:
    /// \p program for messages, \p synopsis printed by --help above the options.
    StCommandLine(std::string program, std::string synopsis);

    /// A flag (no value): --name or -c sets it.
    void AddFlag(const std::string& name, char alias, bool* target, const std::string& help);
    /// A string.
    void AddString(const std::string& name,
                   char alias,
                   std::string* target,
                   const std::string& help);
    /// An unsigned number in [min, max]; sizes accept K, M, G (powers of 1024).
    void AddNumber(const std::string& name,
                   char alias,
                   uint64_t* target,
                   uint64_t min,
                   uint64_t max,
                   const std::string& help);
    /// One of \p choices.
    void AddChoice(const std::string& name,
                   char alias,
                   std::string* target,
                   const std::vector<std::string>& choices,
                   const std::string& help);

    /// Parse; --help prints the options and exits 0, an error prints one line and exits 1.
    void Parse(int argc, char** argv);

    /// Arguments that are no options.
    const std::vector<std::string>& Positional() const
    {
        return m_positional;
    }

    /// Print "PROGRAM: message" and exit 1 (the programs' own checks use it too).
    [[noreturn]] void Fail(const std::string& message) const;

  private:
    struct Option
    {
        std::string name;
        char alias;
        bool takesValue;
        std::string help;
        std::function<bool(const std::string&, std::string&)> set; //!< value -> ok, or why not
    };

    const Option* Find(const std::string& name, char alias) const;
    void PrintHelp() const;

    std::string m_program;
    std::string m_synopsis;
    std::vector<Option> m_options;
    std::vector<std::string> m_positional;
};

} // namespace st
} // namespace ns3

#endif /* ST_COMMAND_LINE_H */
