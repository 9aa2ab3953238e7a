/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// harp-interface-engine.cc: the engines driven: frames from the device handed to the client
// and the server (drops traced), frames they send put on the wire (or looped back to this
// host's server), their output drained after every call (frames, events: traces, the
// ArpCache, callers answered), and their one timer re-armed and handled.
// (HarpInterface is written in several files, one per part of the adapter; see
// harp-interface.cc for the list.)
#include "harp-address-conversion.h"
#include "harp-interface-private.h"

#include "ns3/gsn-net-device.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

HARP_INTERFACE_LOG();

namespace
{
/// Calls a ResolveAsync callback (scheduled, so that it runs after its caller returned).
void
InvokeResolveCallback(HarpInterface::ResolveCallback callback,
                      Ipv4Address ip,
                      bool ok,
                      Mac48Address ula)
{
    callback(ip, ok, ula);
}
} // namespace

// ---------------------------------------------------------------------------------------
// Frames

void
HarpInterface::ReceiveFromDevice(Ptr<const Packet> packet, Mac48Address from)
{
    NS_LOG_FUNCTION(this << packet << from);
    ++m_counters.rxFrames;
    Deliver(packet, from);
}

void
HarpInterface::Deliver(Ptr<const Packet> frame, Mac48Address source)
{
    NS_LOG_FUNCTION(this << frame << source);
    m_rxTrace(frame, source);
    std::vector<uint8_t> bytes(frame->GetSize());
    frame->CopyData(bytes.data(), bytes.size());
    const harp::Ula ula = ToHarpUla(source);
    const harp::TimeNs now = Now();
    if (m_client)
    {
        const harp::Stats before = m_client->GetStats();
        m_client->HandleFrame(now, ula, bytes);
        TraceDrops(before, m_client->GetStats(), frame, source, false);
    }
    if (m_server)
    {
        const harp::Stats before = m_server->GetStats();
        m_server->HandleFrame(now, ula, bytes);
        TraceDrops(before, m_server->GetStats(), frame, source, true);
    }
    Drain();
}

void
HarpInterface::TraceDrops(const harp::Stats& before,
                          const harp::Stats& after,
                          Ptr<const Packet> frame,
                          Mac48Address source,
                          bool byServer)
{
    for (std::size_t r = 0; r < harp::kDropReasonCount; ++r)
    {
        for (uint64_t n = before.drops[r]; n < after.drops[r]; ++n)
        {
            const auto reason = static_cast<harp::DropReason>(r);
            NS_LOG_LOGIC(this << (byServer ? " server" : " client") << " dropped a frame from "
                              << source << ": " << harp::DropReasonName(reason));
            m_dropTrace(frame, source, reason, byServer);
        }
    }
}

void
HarpInterface::Transmit(const harp::Frame& frame)
{
    Ptr<Packet> packet = Create<Packet>(frame.bytes.data(), uint32_t(frame.bytes.size()));
    const Mac48Address destination = FromHarpUla(frame.destination);
    m_txTrace(packet, destination);
    if (destination == GetUla())
    {
        // A client registering with the server of its own host: never on the wire.
        ++m_counters.loopedBack;
        Simulator::ScheduleNow(&HarpInterface::Deliver,
                               this,
                               Ptr<const Packet>(packet),
                               destination);
        return;
    }
    ++m_counters.txFrames;
    if (!m_device->SendToWire(packet, destination, harp::kEtherType))
    {
        ++m_counters.txRefused;
    }
}

// ---------------------------------------------------------------------------------------
// Engine output: frames, events, timer

void
HarpInterface::Drain()
{
    if (m_draining)
    {
        return; // the loop below picks up what this call would have
    }
    m_draining = true;
    bool more = true;
    while (more)
    {
        more = false;
        if (m_client)
        {
            while (const std::optional<harp::Frame> frame = m_client->PollTransmit())
            {
                Transmit(*frame);
                more = true;
            }
        }
        if (m_server)
        {
            while (const std::optional<harp::Frame> frame = m_server->PollTransmit())
            {
                Transmit(*frame);
                more = true;
            }
        }
        if (m_client)
        {
            while (const std::optional<harp::Event> event = m_client->PollEvent())
            {
                HandleEvent(*event, false);
                more = true;
            }
        }
        if (m_server)
        {
            while (const std::optional<harp::Event> event = m_server->PollEvent())
            {
                HandleEvent(*event, true);
                more = true;
            }
        }
    }
    m_draining = false;
    RearmTimer();
}

void
HarpInterface::HandleEvent(const harp::Event& event, bool byServer)
{
    NS_LOG_LOGIC(this << (byServer ? " server: " : " client: ") << event.ToString());
    m_eventTrace(event, byServer);
    if (byServer)
    {
        return;
    }
    const Ipv4Address ip = FromHarpIpv4(event.ip);
    const Mac48Address ula = FromHarpUla(event.ula);
    switch (event.type)
    {
    case harp::EventType::PhaseChanged:
        m_phaseTrace(m_lastPhase, event.phase);
        m_lastPhase = event.phase;
        UpdateBroadcastEmulation();
        break;
    case harp::EventType::Resolved:
        m_resolvedTrace(ip, ula);
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, ula);
        FinishWaiting(ip, true, ula);
        break;
    case harp::EventType::Revalidated:
        Simulator::ScheduleNow(&HarpInterface::FillArpCache, this, ip, ula);
        break;
    case harp::EventType::Unresolvable:
        m_unresolvableTrace(ip, event.reason);
        FinishWaiting(ip, false, Mac48Address());
        break;
    case harp::EventType::EntryRemoved:
        ForgetArpEntry(ip);
        break;
    default:
        break;
    }
}

void
HarpInterface::FinishWaiting(Ipv4Address ip, bool ok, Mac48Address ula)
{
    auto it = m_waiting.find(ip);
    if (it == m_waiting.end())
    {
        return;
    }
    std::vector<ResolveCallback> callbacks = std::move(it->second);
    m_waiting.erase(it);
    for (const ResolveCallback& callback : callbacks)
    {
        Simulator::ScheduleNow(&InvokeResolveCallback, callback, ip, ok, ula);
    }
}

void
HarpInterface::RearmTimer()
{
    std::optional<harp::TimeNs> next;
    if (m_client)
    {
        next = m_client->PollTimeout();
    }
    if (m_server)
    {
        const std::optional<harp::TimeNs> server = m_server->PollTimeout();
        if (server && (!next || *server < *next))
        {
            next = server;
        }
    }
    if (!next)
    {
        Simulator::Cancel(m_timer);
        m_timerAt = harp::kNever;
        return;
    }
    if (m_timer.IsRunning() && m_timerAt == *next)
    {
        return;
    }
    Simulator::Cancel(m_timer);
    const harp::TimeNs now = Now();
    const harp::TimeNs delay = *next > now ? *next - now : 0;
    m_timerAt = *next;
    m_timer = Simulator::Schedule(NanoSeconds(int64_t(delay)), &HarpInterface::HandleTimer, this);
}

void
HarpInterface::HandleTimer()
{
    NS_LOG_FUNCTION(this);
    m_timerAt = harp::kNever;
    const harp::TimeNs now = Now();
    if (m_client)
    {
        NoteArpUse(now);
        m_client->HandleTimeout(now);
    }
    if (m_server)
    {
        m_server->HandleTimeout(now);
    }
    Drain();
}

} // namespace ns3
