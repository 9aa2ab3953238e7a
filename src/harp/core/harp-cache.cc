// harp-cache.cc: the mapping table (see harp-cache.h).
#include "harp-cache.h"

namespace harp
{

void
Cache::Index(Ipv4 ip, const CacheEntry& entry)
{
    if (!entry.isStatic && entry.expiresAt != kNever)
    {
        m_byExpiry.emplace(entry.expiresAt, ip);
    }
}

void
Cache::Unindex(Ipv4 ip, const CacheEntry& entry)
{
    if (!entry.isStatic && entry.expiresAt != kNever)
    {
        m_byExpiry.erase({entry.expiresAt, ip});
    }
}

void
Cache::AddStatic(Ipv4 ip, Ula ula)
{
    Erase(ip);
    CacheEntry entry;
    entry.ula = ula;
    entry.isStatic = true;
    m_entries.emplace(ip, entry);
    ++m_staticCount;
}

bool
Cache::RemoveStatic(Ipv4 ip)
{
    auto it = m_entries.find(ip);
    if (it == m_entries.end() || !it->second.isStatic)
    {
        return false;
    }
    return Erase(ip);
}

Cache::UpdateResult
Cache::Update(Ipv4 ip, Ula ula, TimeNs expiresAt)
{
    auto it = m_entries.find(ip);
    if (it == m_entries.end())
    {
        CacheEntry entry;
        entry.ula = ula;
        entry.expiresAt = expiresAt;
        m_entries.emplace(ip, entry);
        Index(ip, entry);
        return UpdateResult::Added;
    }
    CacheEntry& entry = it->second;
    if (entry.isStatic)
    {
        return UpdateResult::StaticConflict;
    }
    Unindex(ip, entry);
    const bool changed = entry.ula != ula;
    entry.ula = ula;
    entry.expiresAt = expiresAt;
    entry.used = false;
    Index(ip, entry);
    return changed ? UpdateResult::Changed : UpdateResult::Refreshed;
}

bool
Cache::Erase(Ipv4 ip)
{
    auto it = m_entries.find(ip);
    if (it == m_entries.end())
    {
        return false;
    }
    Unindex(ip, it->second);
    if (it->second.isStatic)
    {
        --m_staticCount;
    }
    m_entries.erase(it);
    return true;
}

const CacheEntry*
Cache::Find(Ipv4 ip) const
{
    auto it = m_entries.find(ip);
    return it == m_entries.end() ? nullptr : &it->second;
}

void
Cache::MarkUsed(Ipv4 ip)
{
    auto it = m_entries.find(ip);
    if (it != m_entries.end())
    {
        it->second.used = true;
    }
}

void
Cache::SetExpiry(Ipv4 ip, TimeNs expiresAt)
{
    auto it = m_entries.find(ip);
    if (it == m_entries.end() || it->second.isStatic)
    {
        return;
    }
    Unindex(ip, it->second);
    it->second.expiresAt = expiresAt;
    Index(ip, it->second);
}

std::optional<TimeNs>
Cache::NextExpiry() const
{
    if (m_byExpiry.empty())
    {
        return std::nullopt;
    }
    return m_byExpiry.begin()->first;
}

std::vector<Ipv4>
Cache::Expired(TimeNs now) const
{
    std::vector<Ipv4> expired;
    for (const auto& [expiresAt, ip] : m_byExpiry)
    {
        if (expiresAt > now)
        {
            break;
        }
        expired.push_back(ip);
    }
    return expired;
}

const std::map<Ipv4, CacheEntry>&
Cache::GetEntries() const
{
    return m_entries;
}

std::size_t
Cache::GetSize() const
{
    return m_entries.size();
}

std::size_t
Cache::GetStaticCount() const
{
    return m_staticCount;
}

} // namespace harp
