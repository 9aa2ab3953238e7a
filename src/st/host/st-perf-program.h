/*
 * st-perf-program.h: what st-bw, st-lat and st-check share: the options that open a host
 * stack (interface, peers, timers, block size, software loss), the server side of every
 * test (the same server answers all three programs: the client's hello names the test),
 * and the client's hello and report. It owns the stack; the tests' figures are the
 * programs'.
 */
#ifndef ST_PERF_PROGRAM_H
#define ST_PERF_PROGRAM_H

#include "st-command-line.h"
#include "st-host-stack.h"
#include "st-perf-protocol.h"
#include "st-perf-session.h"

#include <memory>
#include <string>

namespace ns3
{
namespace st
{

/**
 * \brief The common part of the ST test programs.
 */
class StPerfProgram
{
  public:
    /// \p name for messages and st-stat.
    explicit StPerfProgram(const std::string& name);

    /// Register the common options on \p cmd (server or client, interface, port ...).
    void AddOptions(StCommandLine& cmd);

    /// Open the host stack (exits 1 with the stack's message when it cannot).
    void Open(const StCommandLine& cmd);

    /// Serve clients until --once is done; returns the exit status.
    int Serve();

    /// Connect to the server named by the positional argument (exits 1 on failure).
    void ConnectClient(const StCommandLine& cmd);

    /// Client: write the hello of test \p hello (exits 1 on failure).
    void SendHello(const StPerfHello& hello);

    /// Client: read the server's report (for Memory, after writing "done").
    bool ReadReport(StPerfReport& report, bool sendDone);

    /// Wait for the next event that is not routine (fails the program at the timeout).
    StEvent Next();

    /// Print "PROGRAM: message" and exit 1.
    [[noreturn]] void Fail(const std::string& message);

    /// The session (client after ConnectClient).
    StPerfSession& Session()
    {
        return *m_session;
    }

    /// The host stack.
    StHostStack& Host()
    {
        return m_host;
    }

    bool server{false};        //!< -s: be the server
    bool once{false};          //!< --once: serve one client, exit with its verdict
    bool quiet{false};         //!< -q: figures only
    bool keepStats{false};     //!< --keep-stats: leave the counters for st-stat at exit
    std::string interface;     //!< -i
    std::string peers;         //!< --peer IP=MAC,...
    uint64_t port{5000};       //!< -p
    uint64_t timeoutMs{30000}; //!< --timeout: a wait without progress fails the test
    uint64_t opTimeoutMs{50};  //!< --op-timeout
    uint64_t retries{8};       //!< --retries
    uint64_t block{256 << 10}; //!< --block
    uint64_t cts{4};           //!< --cts
    uint64_t dropPermille{0};  //!< --drop: software loss of sent frames, per mille
    std::string host;          //!< the server (client)
    std::string statName;      //!< --stat-name: the name st-stat shows (default: the program)

  private:
    /// One client's test on the server side; true when it ended intact.
    bool ServeOne();
    void ServeWrite(const StPerfHello& h, StPerfReport& r);
    void ServeRead(const StPerfHello& h, StPerfReport& r);
    void ServePingPong(const StPerfHello& h, StPerfReport& r);
    void ServeMemory(const StPerfHello& h, StPerfReport& r);

    std::string m_name;                       //!< program name
    StHostStack m_host;                       //!< the stack
    std::unique_ptr<StPerfSession> m_session; //!< the connection
};

} // namespace st
} // namespace ns3

#endif /* ST_PERF_PROGRAM_H */
