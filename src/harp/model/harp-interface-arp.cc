/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// harp-interface-arp.cc: ns-3's ARP answered by HARP: the requests IPv4's ArpCache sends
// intercepted and asked of the client, its retries likewise, entries ns-3 still uses kept
// looked up in HARP's cache, answers filled into the ArpCache (its waiting datagrams sent),
// entries HARP removed flushed from it.
// (HarpInterface is written in several files, one per part of the adapter; see
// harp-interface.cc for the list.)
#include "harp-address-conversion.h"
#include "harp-interface-private.h"

#include "ns3/arp-cache.h"
#include "ns3/arp-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface.h"
#include "ns3/simulator.h"

namespace ns3
{

HARP_INTERFACE_LOG();

// ---------------------------------------------------------------------------------------
// ns-3's ARP, answered by HARP

bool
HarpInterface::InterceptArp(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    m_arpInterceptTrace(packet);
    Ptr<Packet> copy = packet->Copy();
    ArpHeader arp;
    if (copy->RemoveHeader(arp) == 0)
    {
        ++m_counters.arpUnreadable;
        return true;
    }
    if (arp.IsRequest())
    {
        ++m_counters.arpRequestsIntercepted;
        AskHarp(arp.GetDestinationIpv4Address());
    }
    else
    {
        // ns-3's ARP answering a HARP request it saw: the client answers for itself.
        ++m_counters.arpRepliesSuppressed;
    }
    return true; // as if sent: ns-3's ARP waits for the answer the cache will get
}

void
HarpInterface::AskHarp(Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << ip);
    m_arpAsked.insert(ip);
    if (!m_client)
    {
        return; // a stopped client answers nothing: ns-3 retries, then drops
    }
    const std::optional<harp::Ula> hit = m_client->Resolve(Now(), ToHarpIpv4(ip));
    if (hit)
    {
        // Later, not from inside the traffic-control send that carried ns-3's request.
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, FromHarpUla(*hit));
    }
    Drain();
}

void
HarpInterface::NoteArpUse(harp::TimeNs now)
{
    for (harp::Ipv4 ip : m_client->GetCache().Expired(now))
    {
        const harp::CacheEntry* entry = m_client->GetCache().Find(ip);
        if (entry == nullptr || entry->used)
        {
            continue;
        }
        ArpCache::Entry* arp = m_arpCache->Lookup(FromHarpIpv4(ip));
        if (arp != nullptr && arp->IsAlive() && !arp->IsExpired())
        {
            ++m_counters.arpUseNotices;
            m_client->Resolve(now, ip); // a hit: marks the entry as looked up
        }
    }
}

void
HarpInterface::ArpCacheRetry(Ptr<const ArpCache> cache, Ipv4Address ip)
{
    NS_LOG_FUNCTION(this << cache << ip);
    ++m_counters.arpCacheRetries;
    AskHarp(ip);
}

void
HarpInterface::FillArpCache(Ipv4Address ip, Mac48Address ula)
{
    NS_LOG_FUNCTION(this << ip << ula);
    if (!m_arpCache)
    {
        return;
    }
    ArpCache::Entry* entry = m_arpCache->Lookup(ip);
    if (entry == nullptr)
    {
        return;
    }
    if (entry->IsWaitReply())
    {
        ++m_counters.arpCacheFills;
        entry->MarkAlive(ula);
        ArpCache::Ipv4PayloadHeaderPair pending = entry->DequeuePending();
        while (pending.first)
        {
            m_ipInterface->Send(pending.first, pending.second, ip);
            pending = entry->DequeuePending();
        }
    }
    else if (entry->IsDead())
    {
        // ns-3 gave up earlier; HARP knows better now: the next packet asks again.
        ++m_counters.arpCacheFlushes;
        m_arpCache->Remove(entry);
    }
    else if (entry->IsAlive() && entry->GetMacAddress() != Address(ula))
    {
        entry->SetMacAddress(ula);
    }
}

void
HarpInterface::ForgetArpEntry(Ipv4Address ip)
{
    if (!m_arpCache)
    {
        return;
    }
    ArpCache::Entry* entry = m_arpCache->Lookup(ip);
    if (entry != nullptr && (entry->IsAlive() || entry->IsDead()))
    {
        ++m_counters.arpCacheFlushes;
        m_arpCache->Remove(entry);
    }
}

} // namespace ns3
