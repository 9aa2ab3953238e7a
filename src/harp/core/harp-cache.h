// harp-cache.h: the IP -> ULA mapping table shared by clients (their local HARP table) and
// servers (their registration table): static entries that never age and dynamic entries with
// an expiry time, indexed by expiry. It keeps no clock and sends nothing: the engines decide
// what an expired entry means (revalidate, remove, forget).
#ifndef HARP_CACHE_H
#define HARP_CACHE_H

#include "harp-ipv4.h"
#include "harp-time.h"
#include "harp-ula.h"

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace harp
{

/**
 * \ingroup harp
 * \brief One mapping of a Cache.
 */
struct CacheEntry
{
    Ula ula;                  //!< Hardware address.
    bool isStatic{false};     //!< Static (permanent) entry: never ages, never overwritten.
    TimeNs expiresAt{kNever}; //!< Dynamic entries: when the entry must be revalidated or go.
    bool used{false};         //!< Looked up since it was last (re)validated.
};

/**
 * \ingroup harp
 * \brief A table of IP -> ULA mappings, static and dynamic.
 *
 * Entries are kept in address order and expiry order, so that iteration and PollTimeout are
 * deterministic and cheap for large tables.
 */
class Cache
{
  public:
    /// Outcome of Update().
    enum class UpdateResult
    {
        Added,          //!< A new dynamic entry.
        Refreshed,      //!< Same ULA, new expiry.
        Changed,        //!< A different ULA replaced the old one.
        StaticConflict, //!< A static entry holds the address: nothing changed.
    };

    /**
     * \brief Adds or replaces a static entry (replacing a dynamic one if present).
     * \param ip the address
     * \param ula its ULA
     */
    void AddStatic(Ipv4 ip, Ula ula);

    /**
     * \brief Removes a static entry.
     * \param ip the address
     * \return true if a static entry was removed (dynamic entries are left alone)
     */
    bool RemoveStatic(Ipv4 ip);

    /**
     * \brief Adds or refreshes a dynamic entry; never touches a static one.
     * \param ip the address
     * \param ula its ULA
     * \param expiresAt when the entry expires
     * \return what happened
     */
    UpdateResult Update(Ipv4 ip, Ula ula, TimeNs expiresAt);

    /**
     * \brief Removes an entry, static or dynamic.
     * \param ip the address
     * \return true if there was one
     */
    bool Erase(Ipv4 ip);

    /**
     * \param ip the address
     * \return the entry, or null
     */
    const CacheEntry* Find(Ipv4 ip) const;

    /**
     * \brief Records a lookup, so that the entry is revalidated rather than dropped.
     * \param ip the address
     */
    void MarkUsed(Ipv4 ip);

    /**
     * \brief Moves the expiry of a dynamic entry (kNever parks it, e.g. during revalidation).
     * \param ip the address
     * \param expiresAt the new expiry
     */
    void SetExpiry(Ipv4 ip, TimeNs expiresAt);

    /** \return the earliest expiry of a dynamic entry, if any (kNever excluded) */
    std::optional<TimeNs> NextExpiry() const;

    /**
     * \param now the current time
     * \return the dynamic entries with expiresAt <= now, earliest first
     */
    std::vector<Ipv4> Expired(TimeNs now) const;

    /** \return all entries, in address order */
    const std::map<Ipv4, CacheEntry>& GetEntries() const;

    /** \return number of entries */
    std::size_t GetSize() const;

    /** \return number of static entries */
    std::size_t GetStaticCount() const;

  private:
    /// Takes a dynamic entry out of the expiry index.
    void Unindex(Ipv4 ip, const CacheEntry& entry);
    /// Puts a dynamic entry into the expiry index.
    void Index(Ipv4 ip, const CacheEntry& entry);

    std::map<Ipv4, CacheEntry> m_entries;         //!< All entries by address.
    std::set<std::pair<TimeNs, Ipv4>> m_byExpiry; //!< Dynamic entries with a finite expiry.
    std::size_t m_staticCount{0};                 //!< Static entries.
};

} // namespace harp

#endif // HARP_CACHE_H
