/*
 * st-host-stats.cc: counters in shared memory for st-stat (see st-host-stats.h).
 */
#include "st-host-stats.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{
namespace st
{

namespace
{
constexpr char MAGIC[8] = {'S', 'T', 'S', 'T', 'A', 'T', '1', '\0'};
constexpr const char* PREFIX = "st-stat.";

/// The file's layout (one writer; readers retry while seq is odd or moved).
struct Layout
{
    char magic[8];
    uint32_t pid;
    uint32_t count;
    char program[32];
    char interface[16];
    std::atomic<uint64_t> seq;
    uint64_t updatedNs;

    struct
    {
        char name[40];
        uint64_t value;
    } entries[StHostStats::MAX_VALUES];
};

void
CopyName(char* to, std::size_t size, const std::string& from)
{
    std::memset(to, 0, size);
    std::memcpy(to, from.data(), std::min(from.size(), size - 1));
}
} // namespace

StHostStats::~StHostStats()
{
    if (!m_keep)
    {
        Remove();
    }
    if (m_map != nullptr)
    {
        munmap(m_map, sizeof(Layout));
    }
}

std::string
StHostStats::Folder()
{
    const char* dir = std::getenv("ST_STAT_DIR");
    return dir != nullptr && *dir != '\0' ? dir : "/dev/shm";
}

bool
StHostStats::Create(const std::string& program, const std::string& interface)
{
    m_path = Folder() + "/" + PREFIX + std::to_string(getpid());
    const int fd = open(m_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
    {
        m_path.clear();
        return false;
    }
    if (ftruncate(fd, sizeof(Layout)) < 0)
    {
        close(fd);
        return false;
    }
    void* p = mmap(nullptr, sizeof(Layout), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
    {
        return false;
    }
    m_map = p;
    auto* l = static_cast<Layout*>(m_map);
    l->pid = static_cast<uint32_t>(getpid());
    CopyName(l->program, sizeof(l->program), program);
    CopyName(l->interface, sizeof(l->interface), interface);
    std::memcpy(l->magic, MAGIC, sizeof(MAGIC)); // last: readers skip a file being made
    return true;
}

void
StHostStats::Update(const Values& values)
{
    if (m_map == nullptr)
    {
        return;
    }
    auto* l = static_cast<Layout*>(m_map);
    l->seq.fetch_add(1, std::memory_order_acq_rel); // odd: being written
    const std::size_t n = std::min(values.size(), MAX_VALUES);
    for (std::size_t i = 0; i < n; ++i)
    {
        CopyName(l->entries[i].name, sizeof(l->entries[i].name), values[i].first);
        l->entries[i].value = values[i].second;
    }
    l->count = static_cast<uint32_t>(n);
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    l->updatedNs =
        static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
    l->seq.fetch_add(1, std::memory_order_acq_rel);
}

void
StHostStats::Remove()
{
    if (!m_path.empty())
    {
        unlink(m_path.c_str());
        m_path.clear();
    }
}

std::vector<StHostStats::Snapshot>
StHostStats::ReadAll()
{
    std::vector<Snapshot> out;
    const std::string folder = Folder();
    DIR* d = opendir(folder.c_str());
    if (d == nullptr)
    {
        return out;
    }
    while (dirent* ent = readdir(d))
    {
        if (std::strncmp(ent->d_name, PREFIX, std::strlen(PREFIX)) != 0)
        {
            continue;
        }
        const std::string path = folder + "/" + ent->d_name;
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
        {
            continue;
        }

        struct stat st
        {
        };

        if (fstat(fd, &st) < 0 || static_cast<std::size_t>(st.st_size) < sizeof(Layout))
        {
            close(fd);
            continue;
        }
        void* p = mmap(nullptr, sizeof(Layout), PROT_READ, MAP_SHARED, fd, 0);
        close(fd);
        if (p == MAP_FAILED)
        {
            continue;
        }
        const auto* l = static_cast<const Layout*>(p);
        if (std::memcmp(l->magic, MAGIC, sizeof(MAGIC)) == 0)
        {
            Snapshot s;
            for (int attempt = 0; attempt < 100; ++attempt)
            {
                const uint64_t before = l->seq.load(std::memory_order_acquire);
                if (before % 2 != 0)
                {
                    continue;
                }
                s.values.clear();
                const std::size_t n = std::min<std::size_t>(l->count, MAX_VALUES);
                for (std::size_t i = 0; i < n; ++i)
                {
                    s.values.emplace_back(
                        std::string(l->entries[i].name, strnlen(l->entries[i].name, 40)),
                        l->entries[i].value);
                }
                s.updatedNs = l->updatedNs;
                if (l->seq.load(std::memory_order_acquire) == before)
                {
                    break;
                }
            }
            s.pid = static_cast<int>(l->pid);
            s.program = std::string(l->program, strnlen(l->program, sizeof(l->program)));
            s.interface = std::string(l->interface, strnlen(l->interface, sizeof(l->interface)));
            s.alive = kill(s.pid, 0) == 0 || errno == EPERM;
            out.push_back(std::move(s));
        }
        munmap(p, sizeof(Layout));
    }
    closedir(d);
    return out;
}

} // namespace st
} // namespace ns3
