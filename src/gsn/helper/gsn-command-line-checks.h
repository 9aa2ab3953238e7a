/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnCommandLineChecks: turns the text of an example program's command-line options into
 * checked values. Every check that fails prints one line naming the option, the value and
 * what the option accepts, and ends the program with exit status 1, so that no invalid
 * value reaches a library abort. It parses and checks only; it builds nothing.
 */
#ifndef GSN_COMMAND_LINE_CHECKS_H
#define GSN_COMMAND_LINE_CHECKS_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class GsnTopology;

/**
 * \ingroup gsn
 * \brief Checked conversion of command-line option text for example programs.
 *
 * Options are read by ns-3's CommandLine into std::string variables (so that "-1" is not
 * wrapped into an unsigned value and a malformed number does not print the whole help),
 * then converted here:
 * \code
 *   std::string sizeText = "60000";
 *   cmd.AddValue("size", "Message bytes", sizeText);
 *   cmd.Parse(argc, argv);
 *   GsnCommandLineChecks check("gsn-fat-tree");
 *   const uint32_t size = check.Integer("size", sizeText, 28, UINT32_MAX);
 * \endcode
 * A failed check writes "PROGRAM: --OPTION=VALUE: WHAT IT ACCEPTS" to std::cerr and calls
 * std::exit(1), as ns-3's CommandLine does for an option it cannot parse. Options added
 * with AddValue() and parsed with Parse() also get one line for an unknown option or a bad
 * value of an ns-3 global value or attribute default (--SchedulerType=...,
 * --ns3::Type::Attribute=...), where ns-3 would print its whole help.
 */
class GsnCommandLineChecks
{
  public:
    /// \param program the program's name, the first word of every message
    explicit GsnCommandLineChecks(std::string program);

    /**
     * cmd.AddValue(name, help, text), remembering \p name as an option of the program.
     * \param cmd the command line \param name the option \param help its help text
     * \param text where its text goes (holding the default)
     */
    void AddValue(CommandLine& cmd,
                  const std::string& name,
                  const std::string& help,
                  std::string& text);

    /**
     * Refuse, with one line, an option that is neither added with AddValue() nor one of
     * ns-3's (--help, --PrintHelp, ..., a global value, an attribute default), or a value
     * that such an ns-3 option's checker refuses; then cmd.Parse(argc, argv).
     * \param cmd the command line \param argc argument count \param argv arguments
     */
    void Parse(CommandLine& cmd, int argc, char* argv[]) const;

    /**
     * Print the one-line message and exit with status 1.
     * \param option the option's name, without "--"
     * \param value the text given
     * \param accepts what the option accepts (or why the value cannot be used)
     */
    [[noreturn]] void Fail(const std::string& option,
                           const std::string& value,
                           const std::string& accepts) const;

    /**
     * \param option the option's name \param text its text
     * \param min smallest accepted \param max largest accepted
     * \param accepts what to say on failure (default: "an integer from MIN to MAX")
     * \return the decimal integer in \p text, parsed as signed
     */
    int64_t Integer(const std::string& option,
                    const std::string& text,
                    int64_t min,
                    int64_t max,
                    const std::string& accepts = "") const;

    /**
     * \param option the option's name \param text its text
     * \param min smallest accepted \param max largest accepted
     * \param accepts what to say on failure (default: "a number from MIN to MAX")
     * \return the finite number in \p text
     */
    double Real(const std::string& option,
                const std::string& text,
                double min,
                double max,
                const std::string& accepts = "") const;

    /**
     * \param option the option's name \param text its text: "", "1", "true", "0" or "false"
     * (an option given without a value is true, as for ns-3's bool options)
     * \return the truth value
     */
    bool Boolean(const std::string& option, const std::string& text) const;

    /**
     * \param option the option's name
     * \param text a number with one of ns-3's time units (s, ms, us, ns, ps, fs, min, h, d,
     *        y), or without one for seconds
     * \param min smallest accepted \param max largest accepted
     * \param accepts what to say on failure (default: "a time from MIN to MAX")
     * \return the time
     */
    Time Duration(const std::string& option,
                  const std::string& text,
                  Time min,
                  Time max,
                  const std::string& accepts = "") const;

    /**
     * \param option the option's name \param text its text
     * \param names the accepted values
     * \return \p text, one of \p names
     */
    std::string Choice(const std::string& option,
                       const std::string& text,
                       const std::vector<std::string>& names) const;

    /**
     * Check, before the run, that \p path can be written: an existing regular file that is
     * writable, or a new file in an existing writable folder. An empty \p path passes.
     * \param option the option's name \param path the file
     */
    void WritableFile(const std::string& option, const std::string& path) const;

    /**
     * \param option the option's name \param path a file that must exist, be a regular file
     * and be readable
     */
    void ReadableFile(const std::string& option, const std::string& path) const;

    /**
     * \param option the option's name \param name a TypeId name that must be a registered
     * ns3::Scheduler with a constructor
     */
    void SchedulerType(const std::string& option, const std::string& name) const;

    /**
     * Check that the fabric builder can take \p topology (GsnTopology::Validate()) and that
     * routing \p routing applies to it and gives tables that cannot deadlock, as
     * GsnFabricHelper::Install requires (it aborts otherwise).
     * \param option the option naming the topology \param value its text
     * \param topology the topology
     * \param routingOption the option naming the routing algorithm \param routing its text
     */
    void Fabric(const std::string& option,
                const std::string& value,
                const GsnTopology& topology,
                const std::string& routingOption,
                const std::string& routing) const;

    /**
     * \param names values \return them as "a, b or c"
     */
    static std::string List(const std::vector<std::string>& names);

  private:
    /**
     * \param name an option name that is not the program's
     * \param value its text
     * \return "" if ns-3's CommandLine takes it, else what is wrong
     */
    static std::string CheckNs3Option(const std::string& name, const std::string& value);

    std::string m_program;            ///< first word of every message
    std::vector<std::string> m_names; ///< options added with AddValue()
};

} // namespace ns3

#endif /* GSN_COMMAND_LINE_CHECKS_H */
