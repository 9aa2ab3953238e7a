// harp-client-receive.cc: frames received by the client: decoded and dispatched by phase, an
// ARP request answered (broadcast fabric) and its requester learnt, an ARP reply completing a
// resolution, an InARP reply from a server (registration), a NAK failing a resolution.
// (Client is written in several files, one per part of the engine; see harp-client.cc for
// the list.)
#include "harp-client.h"

namespace harp
{

void
Client::HandleFrame(TimeNs now, const Ula& source, const std::vector<uint8_t>& bytes)
{
    HandleFrame(now, source, bytes.data(), bytes.size());
}

void
Client::HandleFrame(TimeNs now, const Ula& source, const uint8_t* data, std::size_t size)
{
    ReceiveFrame(m_stats, data, size, [&](const Message& m) { return Dispatch(now, source, m); });
}

RxOutcome
Client::Dispatch(TimeNs now, const Ula& source, const Message& message)
{
    if (m_phase == Phase::Idle)
    {
        return RxOutcome::Ignored();
    }
    switch (message.op)
    {
    case Op::ArpRequest:
        return OnArpRequest(now, source, message);
    case Op::ArpReply:
        return OnArpReply(now, source, message);
    case Op::InArpReply:
        return OnInArpReply(now, source, message);
    case Op::Nak:
        return OnNak(source, message);
    case Op::InArpRequest:
        // Registration requests are for servers; a server on this host has its own engine.
        return RxOutcome::Ignored();
    }
    return RxOutcome::Ignored();
}

bool
Client::IsUsableSender(const Message& message) const
{
    const Ipv4 ip = message.senderIp;
    return message.senderUla.IsUnicast() && !ip.IsAny() && !ip.IsLimitedBroadcast() &&
           !ip.IsMulticast();
}

bool
Client::IsBroadcastOperational() const
{
    return m_phase == Phase::Operational && m_broadcast == true;
}

RxOutcome
Client::OnArpRequest(TimeNs now, const Ula& source, const Message& message)
{
    if (message.senderUla != source)
    {
        return RxOutcome::Dropped(DropReason::SenderMismatch);
    }
    if (message.senderUla == m_config.ula && message.senderIp == m_config.address)
    {
        // A copy of our own broadcast: during the self-test it proves the fabric broadcasts.
        if (m_phase == Phase::Detecting && message.targetIp == m_config.address)
        {
            m_detectionNext = kNever;
            SetFabric(now, true);
            return RxOutcome::Handled();
        }
        return RxOutcome::Ignored();
    }
    if (!IsUsableSender(message))
    {
        return RxOutcome::Dropped(DropReason::BadSender);
    }
    if (message.senderIp == m_config.address)
    {
        Report(EventType::AddressConflict, message.senderIp, message.senderUla, FailReason::None);
        return RxOutcome::Dropped(DropReason::AddressConflict);
    }
    // Only hosts of a broadcast fabric answer for themselves; elsewhere the servers answer.
    if (!IsBroadcastOperational() || message.targetIp != m_config.address)
    {
        return RxOutcome::Ignored();
    }
    if (!m_config.lis.IsHost(message.senderIp))
    {
        return RxOutcome::Dropped(DropReason::OutsideLis);
    }
    Message reply;
    reply.op = Op::ArpReply;
    reply.senderUla = m_config.ula;
    reply.senderIp = m_config.address;
    reply.targetUla = message.senderUla;
    reply.targetIp = message.senderIp;
    Send(source, reply);
    // RFC 826: the target of a request learns the requester (static entries stay as they are).
    const CacheEntry* entry = m_cache.Find(message.senderIp);
    if (entry == nullptr || !entry->isStatic)
    {
        if (m_pending.count(message.senderIp) != 0)
        {
            CompletePending(now, message.senderIp, message.senderUla);
        }
        else
        {
            m_cache.Update(message.senderIp, message.senderUla, Later(now, m_config.cacheLifetime));
        }
    }
    return RxOutcome::Handled();
}

RxOutcome
Client::OnArpReply(TimeNs now, const Ula& source, const Message& message)
{
    if (message.targetUla != m_config.ula || message.targetIp != m_config.address)
    {
        return RxOutcome::Dropped(DropReason::WrongTarget);
    }
    if (!IsUsableSender(message))
    {
        return RxOutcome::Dropped(DropReason::BadSender);
    }
    if (m_broadcast.value_or(false))
    {
        // On a broadcast fabric the owner answers for itself.
        if (source != message.senderUla)
        {
            return RxOutcome::Dropped(DropReason::SenderMismatch);
        }
    }
    else if (!FindServer(source))
    {
        return RxOutcome::Dropped(DropReason::UnsolicitedReply);
    }
    const CacheEntry* entry = m_cache.Find(message.senderIp);
    if (entry != nullptr && entry->isStatic)
    {
        return RxOutcome::Dropped(DropReason::StaticConflict);
    }
    if (m_pending.count(message.senderIp) == 0)
    {
        // RFC 826 merge: a reply confirming what we hold refreshes it (on a broadcast fabric the
        // answer often arrives after the owner's own request taught us the mapping). Anything
        // else was asked by nobody.
        if (entry == nullptr || entry->ula != message.senderUla)
        {
            return RxOutcome::Dropped(DropReason::UnsolicitedReply);
        }
        m_cache.Update(message.senderIp, message.senderUla, Later(now, m_config.cacheLifetime));
        return RxOutcome::Handled();
    }
    CompletePending(now, message.senderIp, message.senderUla);
    return RxOutcome::Handled();
}

RxOutcome
Client::OnInArpReply(TimeNs now, const Ula& source, const Message& message)
{
    const auto index = FindServer(source);
    const bool registering =
        m_phase == Phase::Registration || (m_phase == Phase::Operational && m_broadcast == false);
    if (!index || !registering)
    {
        return RxOutcome::Dropped(DropReason::UnsolicitedReply);
    }
    if (message.senderUla != source)
    {
        return RxOutcome::Dropped(DropReason::SenderMismatch);
    }
    if (message.targetUla != m_config.ula || message.targetIp != m_config.address)
    {
        return RxOutcome::Dropped(DropReason::WrongTarget);
    }
    if (!IsUsableSender(message))
    {
        return RxOutcome::Dropped(DropReason::BadSender);
    }
    if (!m_config.lis.IsHost(message.senderIp))
    {
        return RxOutcome::Dropped(DropReason::OutsideLis);
    }
    ServerInfo& server = m_servers[*index];
    const bool wasAlive = server.status == ServerStatus::Alive;
    server.address = message.senderIp;
    server.status = ServerStatus::Alive;
    server.awaiting = false;
    server.deadline = kNever;
    if (!wasAlive)
    {
        Report(EventType::ServerUp, server.address, server.ula, FailReason::None);
    }
    if (m_phase == Phase::Registration)
    {
        m_preferred = *index;
        EnterOperational(now);
    }
    return RxOutcome::Handled();
}

RxOutcome
Client::OnNak(const Ula& source, const Message& message)
{
    // HARP_NAK is our own request sent back by a server, op changed to 10.
    if (message.senderUla != m_config.ula || message.senderIp != m_config.address)
    {
        return RxOutcome::Dropped(DropReason::WrongTarget);
    }
    if (m_broadcast.value_or(false) || !FindServer(source) ||
        m_pending.count(message.targetIp) == 0)
    {
        return RxOutcome::Dropped(DropReason::UnsolicitedReply);
    }
    FailPending(message.targetIp, FailReason::Nak);
    return RxOutcome::Handled();
}

} // namespace harp
