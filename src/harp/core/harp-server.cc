// harp-server.cc: the HARP server engine (see harp-server.h).
#include "harp-server.h"

#include <algorithm>

namespace harp
{

Server::Server(ServerConfig config)
    : m_config(std::move(config))
{
    m_config.registrationLifetime = std::max<TimeNs>(m_config.registrationLifetime, kNanosecond);
    for (const ServedLis& lis : m_config.lis)
    {
        // The server answers for its own address in each LIS it serves.
        m_table.AddStatic(lis.serverAddress, m_config.ula);
    }
    for (const StaticEntry& entry : m_config.statics)
    {
        AddStatic(entry.ip, entry.ula);
    }
}

bool
Server::AddStatic(Ipv4 ip, Ula ula)
{
    const ServedLis* lis = FindLis(ip);
    if (lis == nullptr || !lis->subnet.IsHost(ip) || IsOwnAddress(ip) || !ula.IsUnicast())
    {
        return false;
    }
    m_table.AddStatic(ip, ula);
    return true;
}

bool
Server::RemoveStatic(Ipv4 ip)
{
    return !IsOwnAddress(ip) && m_table.RemoveStatic(ip);
}

std::optional<Ula>
Server::Lookup(TimeNs now, Ipv4 ip) const
{
    const CacheEntry* entry = m_table.Find(ip);
    if (entry == nullptr || (!entry->isStatic && entry->expiresAt <= now))
    {
        return std::nullopt;
    }
    return entry->ula;
}

std::optional<Frame>
Server::PollTransmit()
{
    if (m_transmit.empty())
    {
        return std::nullopt;
    }
    Frame frame = std::move(m_transmit.front());
    m_transmit.pop_front();
    return frame;
}

std::optional<TimeNs>
Server::PollTimeout() const
{
    return m_table.NextExpiry();
}

std::optional<Event>
Server::PollEvent()
{
    if (m_events.empty())
    {
        return std::nullopt;
    }
    Event event = m_events.front();
    m_events.pop_front();
    return event;
}

const Cache&
Server::GetTable() const
{
    return m_table;
}

const Stats&
Server::GetStats() const
{
    return m_stats;
}

const ServerConfig&
Server::GetConfig() const
{
    return m_config;
}

void
Server::HandleTimeout(TimeNs now)
{
    for (Ipv4 ip : m_table.Expired(now))
    {
        const Ula ula = m_table.Find(ip)->ula;
        m_table.Erase(ip);
        m_events.push_back(
            Event{EventType::ClientForgotten, ip, ula, Phase::Idle, false, FailReason::None});
    }
}

void
Server::HandleFrame(TimeNs now, const Ula& source, const std::vector<uint8_t>& bytes)
{
    HandleFrame(now, source, bytes.data(), bytes.size());
}

void
Server::HandleFrame(TimeNs now, const Ula& source, const uint8_t* data, std::size_t size)
{
    ReceiveFrame(m_stats, data, size, [&](const Message& m) { return Dispatch(now, source, m); });
}

RxOutcome
Server::Dispatch(TimeNs now, const Ula& source, const Message& message)
{
    switch (message.op)
    {
    case Op::ArpRequest:
        return OnArpRequest(now, source, message);
    case Op::InArpRequest:
        return OnInArpRequest(now, source, message);
    case Op::ArpReply:
    case Op::InArpReply:
    case Op::Nak:
        // Answers go to clients; a client on this host has its own engine.
        return RxOutcome::Ignored();
    }
    return RxOutcome::Ignored();
}

std::optional<DropReason>
Server::CheckSender(const Ula& source, const Message& message) const
{
    if (message.senderUla != source)
    {
        return DropReason::SenderMismatch;
    }
    const Ipv4 ip = message.senderIp;
    if (!message.senderUla.IsUnicast() || ip.IsAny() || ip.IsLimitedBroadcast() || ip.IsMulticast())
    {
        return DropReason::BadSender;
    }
    const ServedLis* lis = FindLis(ip);
    if (lis == nullptr || !lis->subnet.IsHost(ip))
    {
        return DropReason::OutsideLis;
    }
    return std::nullopt;
}

RxOutcome
Server::OnArpRequest(TimeNs now, const Ula& source, const Message& message)
{
    if (const auto bad = CheckSender(source, message))
    {
        return RxOutcome::Dropped(*bad);
    }
    // A request refreshes (or creates) the sender's registration (RFC 2835 re-registration).
    if (const auto conflict = Register(now, message.senderIp, message.senderUla))
    {
        return RxOutcome::Dropped(*conflict);
    }
    if (message.targetIp == message.senderIp)
    {
        // A broadcast self-test or gratuitous request: learned, nothing to answer.
        return RxOutcome::Handled();
    }
    const ServedLis* lis = FindLis(message.senderIp);
    const auto ula =
        lis->subnet.IsHost(message.targetIp) ? Lookup(now, message.targetIp) : std::nullopt;
    if (!ula)
    {
        // Unknown here, or in another LIS (never resolved across LIS): HARP_NAK is a copy of
        // the request with op 10.
        Message nak = message;
        nak.op = Op::Nak;
        Send(source, nak);
        return RxOutcome::Handled();
    }
    Message reply;
    reply.op = Op::ArpReply;
    reply.senderUla = *ula;
    reply.senderIp = message.targetIp;
    reply.targetUla = message.senderUla;
    reply.targetIp = message.senderIp;
    Send(source, reply);
    return RxOutcome::Handled();
}

RxOutcome
Server::OnInArpRequest(TimeNs now, const Ula& source, const Message& message)
{
    if (message.targetUla != m_config.ula)
    {
        return RxOutcome::Dropped(DropReason::WrongTarget);
    }
    if (const auto bad = CheckSender(source, message))
    {
        return RxOutcome::Dropped(*bad);
    }
    if (const auto conflict = Register(now, message.senderIp, message.senderUla))
    {
        return RxOutcome::Dropped(*conflict);
    }
    const ServedLis* lis = FindLis(message.senderIp);
    Message reply;
    reply.op = Op::InArpReply;
    reply.senderUla = m_config.ula;
    reply.senderIp = lis->serverAddress;
    reply.targetUla = message.senderUla;
    reply.targetIp = message.senderIp;
    Send(source, reply);
    return RxOutcome::Handled();
}

std::optional<DropReason>
Server::Register(TimeNs now, Ipv4 ip, const Ula& ula)
{
    const CacheEntry* entry = m_table.Find(ip);
    if (entry != nullptr && entry->isStatic)
    {
        // A host with a static entry may speak HARP, but may not move to another ULA.
        return entry->ula == ula ? std::nullopt
                                 : std::optional<DropReason>(DropReason::StaticConflict);
    }
    if (entry != nullptr && entry->ula != ula && entry->expiresAt > now)
    {
        // First come, first served until the registration ages out.
        return DropReason::AddressConflict;
    }
    const Cache::UpdateResult result =
        m_table.Update(ip, ula, Later(now, m_config.registrationLifetime));
    if (result == Cache::UpdateResult::Added || result == Cache::UpdateResult::Changed)
    {
        m_events.push_back(
            Event{EventType::ClientRegistered, ip, ula, Phase::Idle, false, FailReason::None});
    }
    return std::nullopt;
}

const ServedLis*
Server::FindLis(Ipv4 ip) const
{
    for (const ServedLis& lis : m_config.lis)
    {
        if (lis.subnet.Contains(ip))
        {
            return &lis;
        }
    }
    return nullptr;
}

bool
Server::IsOwnAddress(Ipv4 ip) const
{
    return std::any_of(m_config.lis.begin(), m_config.lis.end(), [ip](const ServedLis& lis) {
        return lis.serverAddress == ip;
    });
}

void
Server::Send(const Ula& destination, const Message& message)
{
    m_transmit.push_back(Frame{destination, message.Serialize()});
    ++m_stats.txFrames;
}

} // namespace harp
