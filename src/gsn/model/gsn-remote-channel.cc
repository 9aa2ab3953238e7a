/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-remote-channel.h"

#include "gsn-attribute-checker.h"
#include "gsn-call-after-event.h"
#include "gsn-constants.h"
#include "gsn-now.h"
#include "gsn-port-device.h"
#include "gsn-timing-wheel-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <sstream>

// Without ns-3's mpi module the class is not built (the fabric helper refuses cables across
// ranks then): ns-3 trees define NS3_MPI when configured with --enable-mpi, the standalone
// build for this file when GSN_ENABLE_MPI is on.
#ifdef NS3_MPI

#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(GsnRemoteChannel);

TypeId
GsnRemoteChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnRemoteChannel")
            .SetParent<GsnChannel>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnRemoteChannel>()
            .AddAttribute(
                "MinDelay",
                "Smallest delay of a cable across ranks (the ranks' lookahead); a shorter "
                "cable across ranks is refused. Default: one micropacket time, so that a "
                "synchronisation window holds at least one slot.",
                TimeValue(NanoSeconds(gsn::MICROPACKET_TIME_NS)),
                MakeTimeAccessor(&GsnRemoteChannel::m_minDelay),
                MakeGsnChecker("ns3::GsnRemoteChannel::MinDelay", MakeTimeChecker(Time(0))))
            .AddAttribute(
                "ReceiveAhead",
                "Send each micropacket to the far rank for half a slot before its arrival, "
                "where it is scheduled to arrive ordered among the events of its instant as if "
                "scheduled when it was sent, as one process orders it (with "
                "GsnTimingWheelScheduler): results then equal one process's also where two "
                "events of one instant depend on their order. One more event per micropacket "
                "crossing ranks. False: received at its arrival, after the local events of its "
                "instant scheduled since it was sent.",
                BooleanValue(true),
                MakeBooleanAccessor(&GsnRemoteChannel::m_receiveAhead),
                MakeBooleanChecker())
            .AddTraceSource("RemoteTx",
                            "A micropacket sent to the far rank.",
                            MakeTraceSourceAccessor(&GsnRemoteChannel::m_sentTrace),
                            "ns3::GsnPortDevice::MicropacketTracedCallback");
    return tid;
}

GsnRemoteChannel::GsnRemoteChannel()
    : m_minDelay(NanoSeconds(gsn::MICROPACKET_TIME_NS)),
      m_receiveAhead(true),
      m_localRank(0)
{
    m_remote = true;
}

void
GsnRemoteChannel::Attach(Ptr<GsnPortDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    if (m_far && GsnChannel::GetNDevices() == 1)
    {
        NS_FATAL_ERROR("GsnRemoteChannel: a GSN cable has exactly two ends; a third device was "
                       "attached");
    }
    GsnChannel::Attach(device);
    // Every port of a remote cable gets a receiver, whichever rank it is on: the far rank
    // addresses it by node and interface index.
    if (!device->GetObject<MpiReceiver>())
    {
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback(
            MakeBoundCallback(&GsnRemoteChannel::ReceiveFromRank, PeekPointer(device)));
        device->AggregateObject(receiver);
    }
    if (GetNDevices() == 2)
    {
        Complete();
    }
}

void
GsnRemoteChannel::AttachRemote(Ptr<GsnRemotePort> port)
{
    NS_LOG_FUNCTION(this << port);
    if (m_far || GsnChannel::GetNDevices() == 2)
    {
        NS_FATAL_ERROR("GsnRemoteChannel: a GSN cable has exactly two ends; a third device was "
                       "attached");
    }
    m_far = port;
    port->SetChannel(this);
    if (GetNDevices() == 2)
    {
        Complete();
    }
}

void
GsnRemoteChannel::Complete()
{
    m_localRank = Simulator::GetSystemId();
    CheckCrossing();
    // ns-3's engines take the lookahead from the Delay attribute of the channels that
    // cross ranks: make it the delay in use (it may come from Length).
    SetAttribute("Delay", TimeValue(GetDelay()));
    if (CrossesRanks() && m_receiveAhead)
    {
        GsnTimingWheelScheduler::KeepStepHistory(uint64_t(ArrivalDelay().GetTimeStep()) + 1);
    }
}

void
GsnRemoteChannel::DoDispose()
{
    m_far = nullptr;
    GsnChannel::DoDispose();
}

std::size_t
GsnRemoteChannel::GetNDevices() const
{
    return GsnChannel::GetNDevices() + (m_far ? 1 : 0);
}

Ptr<NetDevice>
GsnRemoteChannel::GetDevice(std::size_t i) const
{
    // (The local end is end 0 when the far one is another rank's port.)
    return m_far && i == 1 ? Ptr<NetDevice>(m_far) : GsnChannel::GetDevice(i);
}

Ptr<Node>
GsnRemoteChannel::NodeOf(std::size_t i) const
{
    return m_far && i == 1 ? m_far->GetNode() : End(i)->GetNode();
}

uint32_t
GsnRemoteChannel::IfIndexOf(std::size_t i) const
{
    return m_far && i == 1 ? m_far->GetIfIndex() : End(i)->GetIfIndex();
}

bool
GsnRemoteChannel::CrossesRanks() const
{
    return GetNDevices() == 2 && NodeOf(0)->GetSystemId() != NodeOf(1)->GetSystemId();
}

void
GsnRemoteChannel::CheckCrossing() const
{
    if (!CrossesRanks())
    {
        return;
    }
    const Ptr<Node> a = NodeOf(0);
    const Ptr<Node> b = NodeOf(1);
    std::ostringstream name;
    name << "the cable between node " << a->GetId() << " (rank " << a->GetSystemId()
         << ") and node " << b->GetId() << " (rank " << b->GetSystemId() << ")";
    if (GetDelay() < m_minDelay)
    {
        NS_FATAL_ERROR("GsnRemoteChannel: "
                       << name.str() << " crosses ranks with a delay of " << GetDelay().As(Time::NS)
                       << ", below ns3::GsnRemoteChannel::MinDelay (" << m_minDelay.As(Time::NS)
                       << "): the delay is the ranks' lookahead; lengthen the cable, put both "
                          "ends on one rank, or lower MinDelay");
    }
    for (std::size_t i = 0; i < GsnChannel::GetNDevices(); ++i)
    {
        if (End(i)->GetLinkMode() == GsnPortDevice::LinkMode::RUN)
        {
            NS_FATAL_ERROR("GsnRemoteChannel: "
                           << name.str()
                           << " crosses ranks in the run link mode, which shares state between "
                              "the two ends of a link; use LinkMode=Micropacket across ranks");
        }
    }
}

bool
GsnRemoteChannel::TransmitRemote(const GsnMicropacket& mp, const GsnPortDevice* sender) const
{
    if (GetNDevices() < 2)
    {
        return false; // (an unconnected end: the ordinary path drops it)
    }
    const std::size_t peer = End(0) == sender ? 1 : 0;
    const Ptr<Node> to = NodeOf(peer);
    const Ptr<Node> from = NodeOf(1 - peer);
    if (from->GetSystemId() != m_localRank)
    {
        // A port of another rank's element: its rank sends for it; this copy stays silent.
        return true;
    }
    if (to->GetSystemId() == m_localRank)
    {
        return false; // both ends here: the ordinary path
    }
    // Held until the instant's other events have run, amendable (AmendRseqSentNow()) as a
    // local arrival event is: a micropacket from the far rank arriving at this instant was
    // scheduled by the mpi module when its message came, and may run after this slot's
    // choice where in one process it runs before.
    m_held[peer] = mp;
    NoteSentNow(peer, &m_held[peer], gsn::Now());
    // A call after the event under way where the scheduler takes it (no event of its own),
    // else an event with no delay: either runs where that event would.
    if (!gsn::CallAfterCurrentEvent(peer == 0 ? &GsnRemoteChannel::SendHeldTo0
                                              : &GsnRemoteChannel::SendHeldTo1,
                                    Ptr<Object>(const_cast<GsnRemoteChannel*>(this))))
    {
        Simulator::ScheduleWithContext(from->GetId(),
                                       Time(0),
                                       &GsnRemoteChannel::SendHeld,
                                       this,
                                       peer);
    }
    return true;
}

void
GsnRemoteChannel::SendHeldTo0(Object* channel)
{
    static_cast<GsnRemoteChannel*>(channel)->SendHeld(0);
}

void
GsnRemoteChannel::SendHeldTo1(Object* channel)
{
    static_cast<GsnRemoteChannel*>(channel)->SendHeld(1);
}

void
GsnRemoteChannel::SendHeld(std::size_t peer) const
{
    // (Still the instant it was sent in.)
    // (Sent ahead: one byte more, so that the far end knows whatever its own setting.)
    uint8_t wire[gsn::MICROPACKET_BYTES + 1] = {};
    m_held[peer].Serialize(wire);
    m_sentTrace(m_held[peer]);
    const uint32_t bytes = gsn::MICROPACKET_BYTES + (m_receiveAhead ? 1 : 0);
    MpiInterface::SendPacket(Create<Packet>(wire, bytes),
                             gsn::Now() + ArrivalDelay() - (m_receiveAhead ? EarlyBy() : Time(0)),
                             NodeOf(peer)->GetId(),
                             IfIndexOf(peer));
}

namespace
{
uint64_t g_receivedAhead = 0; ///< GetMicropacketsReceivedAhead()
} // namespace

uint64_t
GsnRemoteChannel::GetMicropacketsReceivedAhead()
{
    return g_receivedAhead;
}

// A micropacket from the far rank, received EarlyBy() before its arrival (the far rank sent it
// for then): its arrival is scheduled now, ordered among the events of its instant as if
// scheduled when it was sent (GsnTimingWheelScheduler::OrderNextAsOf()), as one process
// schedules it. Received at its arrival, it would run after the local events of its instant
// scheduled after it was sent, where one process runs it before them.
void
GsnRemoteChannel::ReceiveFromRank(GsnPortDevice* end, Ptr<Packet> p)
{
    uint8_t wire[gsn::MICROPACKET_BYTES];
    const uint32_t size = p->GetSize();
    if (size != sizeof(wire) && size != sizeof(wire) + 1)
    {
        NS_FATAL_ERROR("GsnRemoteChannel: a message of "
                       << size << " bytes from another rank; a micropacket is " << sizeof(wire)
                       << " (" << sizeof(wire) + 1 << " sent ahead of its arrival)");
    }
    p->CopyData(wire, sizeof(wire));
    if (size == sizeof(wire))
    {
        end->Receive(GsnMicropacket::Deserialize(wire)); // (ReceiveAhead off: arrives now)
        return;
    }
    ++g_receivedAhead;
    const Ptr<GsnChannel> cable = end->GetCable();
    const Time arrival = gsn::Now() + EarlyBy();
    GsnTimingWheelScheduler::OrderNextAsOf(
        uint64_t((arrival - cable->ArrivalDelay()).GetTimeStep()));
    Simulator::Schedule(EarlyBy(), &GsnPortDevice::Receive, end, GsnMicropacket::Deserialize(wire));
    GsnTimingWheelScheduler::OrderNextAsOf(UINT64_MAX); // (taken, or another scheduler)
}

} // namespace ns3

#endif // NS3_MPI
