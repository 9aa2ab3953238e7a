/*
 * st-host-stats.h: the counters of a process's ST stack, published for st-stat: a small file
 * in shared memory (/dev/shm/st-stat.<pid>, or $ST_STAT_DIR) mapped by the process and
 * rewritten at most every 100 ms and when the stack closes; st-stat maps every such file
 * and reads them under a sequence counter. It owns the file; it knows nothing of what the
 * counters mean.
 */
#ifndef ST_HOST_STATS_H
#define ST_HOST_STATS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace st
{

/**
 * \brief A process's published counters (writer) and the reading of all of them (st-stat).
 */
class StHostStats
{
  public:
    /// Counters, name and value, in the order published.
    using Values = std::vector<std::pair<std::string, uint64_t>>;

    /// What st-stat reads of one process.
    struct Snapshot
    {
        int pid{0};            //!< the process
        bool alive{false};     //!< it still runs
        std::string program;   //!< its name
        std::string interface; //!< its interface
        uint64_t updatedNs{0}; //!< CLOCK_REALTIME of the last update
        Values values;         //!< the counters
    };

    StHostStats() = default;
    ~StHostStats();
    StHostStats(const StHostStats&) = delete;
    StHostStats& operator=(const StHostStats&) = delete;

    /// The folder of the files: $ST_STAT_DIR, else /dev/shm.
    static std::string Folder();

    /**
     * \brief Create this process's file.
     * \return false if it cannot be made (the stack runs on, unpublished)
     */
    bool Create(const std::string& program, const std::string& interface);

    /// Write \p values (at most MAX_VALUES; names cut to 39 characters).
    void Update(const Values& values);

    /// Remove the file (also done by the destructor unless Keep was called).
    void Remove();

    /// Keep the file when the process ends (its last figures stay readable).
    void Keep()
    {
        m_keep = true;
    }

    /// Read every published file in Folder() (dead processes' ones included, marked).
    static std::vector<Snapshot> ReadAll();

    /// Largest number of counters in a file.
    static constexpr std::size_t MAX_VALUES = 128;

  private:
    void* m_map{nullptr}; //!< the mapped file
    std::string m_path;   //!< its name
    bool m_keep{false};   //!< leave it behind
};

} // namespace st
} // namespace ns3

#endif /* ST_HOST_STATS_H */
