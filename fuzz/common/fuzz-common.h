/*
 * fuzz-common.h: what every fuzz target shares: the check that turns a broken invariant into a
 * crash libFuzzer reports, and the reader of the record format of the sequence targets.
 *
 * Record format (sequence targets and their seed corpora, fuzz/seed-gen.cc writes them):
 *   repeated { u8 ctl, u8 dt, u16 len (big-endian), len bytes }
 * ctl and dt mean what each target says; a short last record takes what is left.
 */
#ifndef GSN_FUZZ_COMMON_H
#define GSN_FUZZ_COMMON_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

/// A broken invariant must crash: libFuzzer only reports crashes (and sanitizer reports).
#define FUZZ_CHECK(cond)                                                                           \
    do                                                                                             \
    {                                                                                              \
        if (!(cond))                                                                               \
        {                                                                                          \
            std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
            __builtin_trap();                                                                      \
        }                                                                                          \
    } while (0)

namespace gsnfuzz
{

/// One record of a sequence input.
struct Record
{
    uint8_t ctl{0};               ///< what to do (target-specific)
    uint8_t dt{0};                ///< time to advance first (target-specific unit)
    const uint8_t* data{nullptr}; ///< the bytes
    std::size_t len{0};           ///< their number
};

/// Splits an input into records.
class RecordReader
{
  public:
    RecordReader(const uint8_t* data, std::size_t size)
        : m_data(data),
          m_size(size)
    {
    }

    /// \return false at the end of the input
    bool Next(Record& r)
    {
        if (m_pos + 4 > m_size)
        {
            return false;
        }
        r.ctl = m_data[m_pos];
        r.dt = m_data[m_pos + 1];
        std::size_t len = std::size_t(m_data[m_pos + 2]) << 8 | m_data[m_pos + 3];
        m_pos += 4;
        if (len > m_size - m_pos)
        {
            len = m_size - m_pos;
        }
        r.data = m_data + m_pos;
        r.len = len;
        m_pos += len;
        return true;
    }

  private:
    const uint8_t* m_data;
    std::size_t m_size;
    std::size_t m_pos{0};
};

/// Appends one record (the seed generator's side of RecordReader).
inline void
AppendRecord(std::vector<uint8_t>& out,
             uint8_t ctl,
             uint8_t dt,
             const uint8_t* data,
             std::size_t len)
{
    out.push_back(ctl);
    out.push_back(dt);
    out.push_back(uint8_t(len >> 8));
    out.push_back(uint8_t(len));
    out.insert(out.end(), data, data + len);
}

} // namespace gsnfuzz

#endif /* GSN_FUZZ_COMMON_H */
