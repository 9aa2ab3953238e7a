/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mpi-sync-profile: what ns-3's distributed simulator spends on synchronisation, measured
 * through MPI's standard profiling interface (ns-3's mpi module reports no such counts).
 * Loaded before the MPI library (mpirun -x LD_PRELOAD=build/lib/libgsn-mpi-sync-profile.so
 * -np 2 PROGRAM), it defines the MPI functions that ns-3.37's DistributedSimulatorImpl,
 * NullMessageSimulatorImpl and their MPI interfaces call to synchronise and exchange
 * messages, counts the calls and the wall time spent inside them, and calls the PMPI_
 * version. At MPI_Finalize each rank prints one line to the standard error.
 *
 * What the calls are (ns-3.37's src/mpi/model):
 * - MPI_Allgather: one per granted time window (DistributedSimulatorImpl::Run); its time is
 *   the time a rank waits for the slowest rank at the window's end, plus the exchange. The
 *   ranks exchange their LbtsMessage (counts of messages sent and received, the time of the
 *   next event); a window grants time only when every message sent has been received (the
 *   sums agree), otherwise it is repeated: the profile reads the exchanged counts to tell
 *   the two apart (the layout of ns-3.37's LbtsMessage, checked by its size);
 * - MPI_Isend: every message to another rank; a null message (NullMessageMpiInterface::
 *   SendNullMessage) is the one whose first 8 bytes, the receive time, are 0;
 * - MPI_Irecv, MPI_Testany, MPI_Waitany: the receives, polled after events (Testany) or, by
 *   the null message algorithm when no event is safe, waited for (Waitany: its time is the
 *   time spent waiting); a received message is classified by the buffer its Irecv gave;
 * - MPI_Test: the checks that sends completed.
 * Nothing else (MPI_Gather of the statistics, MPI_Allreduce of the lookahead) is counted.
 * The profile adds two clock readings to each call counted.
 */
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mpi.h>
#include <unordered_map>

namespace
{

using Clock = std::chrono::steady_clock;

/// Calls of one MPI function and the wall time inside them.
struct Tally
{
    uint64_t calls = 0;   ///< number of calls
    double seconds = 0.0; ///< wall time inside them
};

/// Counts a call into a Tally from construction to destruction.
class Timed
{
  public:
    explicit Timed(Tally& tally)
        : m_tally(tally),
          m_start(Clock::now())
    {
    }

    ~Timed()
    {
        ++m_tally.calls;
        m_tally.seconds += std::chrono::duration<double>(Clock::now() - m_start).count();
    }

    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

  private:
    Tally& m_tally;            ///< where the call is counted
    Clock::time_point m_start; ///< when it began
};

Tally g_allgather;           ///< granted time windows
Tally g_isend;               ///< messages sent
Tally g_testany;             ///< receive polls
Tally g_waitany;             ///< blocking receives
Tally g_test;                ///< send completion checks
uint64_t g_inFlight = 0;     ///< windows repeated for messages in flight (no time granted)
uint64_t g_nullSent = 0;     ///< null messages sent
uint64_t g_received = 0;     ///< messages received (Testany or Waitany completed)
uint64_t g_nullReceived = 0; ///< null messages received
Clock::time_point g_init;    ///< when MPI_Init returned
bool g_initialised = false;  ///< MPI_Init went through this library
bool g_reported = false;     ///< the line was printed

/**
 * ns-3.37's LbtsMessage (distributed-simulator-impl.h), which DistributedSimulatorImpl
 * exchanges with MPI_Allgather as sizeof(LbtsMessage) bytes: a class without virtual
 * functions, so these members in this order.
 */
struct LbtsMessage
{
    uint32_t txCount;     ///< messages this rank sent
    uint32_t rxCount;     ///< messages this rank received
    uint32_t myId;        ///< its rank
    int64_t smallestTime; ///< its next event (ns-3 Time steps)
    bool isFinished;      ///< no event left
};

/// Count a window repeated because messages were in flight, from the exchanged \p buffer.
void
NoteWindow(const void* buffer, int bytes, MPI_Datatype type, MPI_Comm comm)
{
    if (type != MPI_BYTE || bytes != int(sizeof(LbtsMessage)))
    {
        return; // not ns-3's window exchange
    }
    int ranks = 0;
    PMPI_Comm_size(comm, &ranks);
    uint64_t tx = 0;
    uint64_t rx = 0;
    for (int r = 0; r < ranks; ++r)
    {
        LbtsMessage m;
        std::memcpy(&m, static_cast<const char*>(buffer) + r * sizeof(LbtsMessage), sizeof(m));
        tx += m.txCount;
        rx += m.rxCount;
    }
    g_inFlight += tx != rx ? 1 : 0;
}

/// The buffer each pending receive request fills (MPI_Irecv), to classify what arrives.
std::unordered_map<const MPI_Request*, const void*> g_receiveBuffers;

/// ns-3's messages start with the receive time (8 bytes); a null message has 0 there.
bool
IsNullMessage(const void* buffer, int bytes)
{
    if (buffer == nullptr || bytes < int(sizeof(uint64_t)))
    {
        return false;
    }
    uint64_t rxTime;
    std::memcpy(&rxTime, buffer, sizeof(rxTime));
    return rxTime == 0;
}

/// Count a completed receive of request \p request.
void
NoteReceived(const MPI_Request* request)
{
    ++g_received;
    auto found = g_receiveBuffers.find(request);
    if (found != g_receiveBuffers.end() && IsNullMessage(found->second, sizeof(uint64_t)))
    {
        ++g_nullReceived;
    }
}

/// Print this rank's line (once).
void
Report()
{
    if (g_reported)
    {
        return;
    }
    g_reported = true;
    int rank = 0;
    int size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    const double span =
        g_initialised ? std::chrono::duration<double>(Clock::now() - g_init).count() : 0.0;
    // One fprintf: the ranks' lines do not mix.
    std::fprintf(stderr,
                 "mpi-sync-profile rank %d of %d: windows %llu (repeated for messages in flight "
                 "%llu; MPI_Allgather %.6f s), "
                 "messages sent %llu (null %llu; MPI_Isend %.6f s), received %llu (null %llu), "
                 "polls %llu (MPI_Testany %.6f s), blocking waits %llu (MPI_Waitany %.6f s), "
                 "send checks %llu (MPI_Test %.6f s), MPI_Init to MPI_Finalize %.6f s\n",
                 rank,
                 size,
                 (unsigned long long)g_allgather.calls,
                 (unsigned long long)g_inFlight,
                 g_allgather.seconds,
                 (unsigned long long)g_isend.calls,
                 (unsigned long long)g_nullSent,
                 g_isend.seconds,
                 (unsigned long long)g_received,
                 (unsigned long long)g_nullReceived,
                 (unsigned long long)g_testany.calls,
                 g_testany.seconds,
                 (unsigned long long)g_waitany.calls,
                 g_waitany.seconds,
                 (unsigned long long)g_test.calls,
                 g_test.seconds,
                 span);
    std::fflush(stderr);
}

} // namespace

extern "C"
{
    int MPI_Init(int* argc, char*** argv)
    {
        const int rc = PMPI_Init(argc, argv);
        g_init = Clock::now();
        g_initialised = true;
        return rc;
    }

    int MPI_Finalize()
    {
        Report();
        return PMPI_Finalize();
    }

    int MPI_Allgather(const void* sendbuf,
                      int sendcount,
                      MPI_Datatype sendtype,
                      void* recvbuf,
                      int recvcount,
                      MPI_Datatype recvtype,
                      MPI_Comm comm)
    {
        int rc;
        {
            Timed t(g_allgather);
            rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
        }
        if (rc == MPI_SUCCESS)
        {
            NoteWindow(recvbuf, recvcount, recvtype, comm);
        }
        return rc;
    }

    int MPI_Isend(const void* buf,
                  int count,
                  MPI_Datatype datatype,
                  int dest,
                  int tag,
                  MPI_Comm comm,
                  MPI_Request* request)
    {
        Timed t(g_isend);
        // (ns-3 sends bytes, MPI_CHAR: count is the message's length.)
        if (datatype == MPI_CHAR && IsNullMessage(buf, count))
        {
            ++g_nullSent;
        }
        return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
    }

    int MPI_Irecv(void* buf,
                  int count,
                  MPI_Datatype datatype,
                  int source,
                  int tag,
                  MPI_Comm comm,
                  MPI_Request* request)
    {
        g_receiveBuffers[request] = buf;
        return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
    }

    int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
    {
        Timed t(g_testany);
        const int rc = PMPI_Testany(count, requests, index, flag, status);
        if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
        {
            NoteReceived(&requests[*index]);
        }
        return rc;
    }

    int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
    {
        Timed t(g_waitany);
        const int rc = PMPI_Waitany(count, requests, index, status);
        if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
        {
            NoteReceived(&requests[*index]);
        }
        return rc;
    }

    int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status)
    {
        Timed t(g_test);
        return PMPI_Test(request, flag, status);
    }
}
