/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-channel.h"

#include "gsn-attribute-checker.h"
#include "gsn-now.h"
#include "gsn-port-device.h"
#include "gsn-port-event.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GsnChannel");

NS_OBJECT_ENSURE_REGISTERED(GsnChannel);

TypeId
GsnChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GsnChannel")
            .SetParent<Channel>()
            .SetGroupName("Gsn")
            .AddConstructor<GsnChannel>()
            .AddAttribute("Length",
                          "Cable length in metres; the delay is Length x DelayPerMeter "
                          "unless Delay is set.",
                          DoubleValue(10.0),
                          MakeDoubleAccessor(&GsnChannel::SetLength, &GsnChannel::GetLength),
                          MakeGsnChecker("ns3::GsnChannel::Length", MakeDoubleChecker<double>(0.0)))
            .AddAttribute(
                "DelayPerMeter",
                "Propagation delay per metre (proposal; gsn-protocol-reference.rst 'Rates and "
                "timing').",
                TimeValue(NanoSeconds(5)),
                MakeTimeAccessor(&GsnChannel::SetDelayPerMeter, &GsnChannel::GetDelayPerMeter),
                MakeGsnChecker("ns3::GsnChannel::DelayPerMeter", MakeTimeChecker(Time(0))))
            .AddAttribute(
                "Delay",
                "One-way propagation delay; zero means derived from Length.",
                TimeValue(Time(0)),
                MakeTimeAccessor(&GsnChannel::SetExplicitDelay, &GsnChannel::GetExplicitDelay),
                MakeGsnChecker("ns3::GsnChannel::Delay", MakeTimeChecker(Time(0))))
            .AddAttribute("Medium",
                          "Copper (up to 40 m) or Fiber (up to 1 km); bounds Length.",
                          EnumValue(GsnChannel::COPPER),
                          MakeEnumAccessor(&GsnChannel::m_medium),
                          MakeGsnEnumChecker("ns3::GsnChannel::Medium",
                                             GsnChannel::COPPER,
                                             "Copper",
                                             GsnChannel::FIBER,
                                             "Fiber"));
    return tid;
}

GsnChannel::GsnChannel()
    : m_nEnds(0),
      m_length(10.0),
      m_delayPerMeter(NanoSeconds(5)),
      m_delay(0),
      m_medium(COPPER)
{
    UpdateDelay();
}

double
GsnChannel::GetMaxLength(Medium medium)
{
    return medium == COPPER ? 40.0 : 1000.0;
}

std::string
GsnChannel::CheckLength(Medium medium, double metres)
{
    if (metres <= GetMaxLength(medium))
    {
        return "";
    }
    std::ostringstream why;
    why << "a " << (medium == COPPER ? "copper" : "fibre") << " GSN cable is at most "
        << GetMaxLength(medium) << " m long; Length is " << metres << " m";
    if (medium == COPPER)
    {
        why << " (longer cables need ns3::GsnChannel::Medium=Fiber, up to " << GetMaxLength(FIBER)
            << " m)";
    }
    return why.str();
}

GsnChannel::Medium
GsnChannel::GetMedium() const
{
    return m_medium;
}

void
GsnChannel::Validate() const
{
    const std::string tooLong = CheckLength(m_medium, m_length);
    if (m_delay.IsZero() && !tooLong.empty())
    {
        NS_FATAL_ERROR("GsnChannel: " << tooLong);
    }
    if (!GetDelay().IsStrictlyPositive())
    {
        NS_FATAL_ERROR("GsnChannel: the propagation delay must be greater than zero (Length="
                       << m_length << " m, DelayPerMeter=" << m_delayPerMeter.As(Time::NS)
                       << ", Delay=" << m_delay.As(Time::NS) << ")");
    }
}

void
GsnChannel::Attach(Ptr<GsnPortDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    if (m_nEnds >= 2)
    {
        NS_FATAL_ERROR("GsnChannel: a GSN cable has exactly two ends; a third device was "
                       "attached");
    }
    Validate();
    m_end[m_nEnds++] = device;
}

void
GsnChannel::AttachRemote(Ptr<GsnRemotePort>)
{
    NS_FATAL_ERROR("GsnChannel: a port of another MPI rank can be the far end of a "
                   "GsnRemoteChannel only (a cable across ranks)");
}

void
GsnChannel::UpdateDelay()
{
    m_propagationDelay =
        !m_delay.IsZero() ? m_delay
                          : NanoSeconds(int64_t(m_length * m_delayPerMeter.GetNanoSeconds() + 0.5));
}

void
GsnChannel::SetLength(double metres)
{
    m_length = metres;
    UpdateDelay();
}

void
GsnChannel::SetDelayPerMeter(Time delay)
{
    m_delayPerMeter = delay;
    UpdateDelay();
}

Time
GsnChannel::GetDelayPerMeter() const
{
    return m_delayPerMeter;
}

void
GsnChannel::SetExplicitDelay(Time delay)
{
    m_delay = delay;
    UpdateDelay();
}

Time
GsnChannel::GetExplicitDelay() const
{
    return m_delay;
}

double
GsnChannel::GetLength() const
{
    return m_length;
}

uint32_t
GsnChannel::ContextOf(std::size_t i) const
{
    if (m_context[i] == NO_CONTEXT)
    {
        m_context[i] = m_end[i]->GetNode()->GetId();
    }
    return m_context[i];
}

void
GsnChannel::NotifyNodeChanged()
{
    m_context[0] = m_context[1] = NO_CONTEXT;
}

void
GsnChannel::Transmit(const GsnMicropacket& mp, Ptr<GsnPortDevice> sender) const
{
    // (A cable across ranks may have one local end only: the far one is another rank's.)
    if (m_remote && TransmitRemote(mp, PeekPointer(sender)))
    {
        return;
    }
    if (m_nEnds < 2)
    {
        return; // an unconnected end: the bits go nowhere
    }
    // (The events hold the ports by plain pointer, as a port's own events do: the channel
    // keeps both alive.)
    const std::size_t peer = PeerIndex(PeekPointer(sender));
    const Time now = gsn::Now(); // (asked once: a call under most schedulers)
    m_end[peer]->HintNextEvent();
    m_end[peer]->NoteArrivalScheduled(now + ArrivalDelay());
    auto* arrival = new gsn::MicropacketArrivalEvent(PeekPointer(m_end[peer]), mp);
    NoteSentNow(peer, &arrival->Micropacket(), now);
    Simulator::ScheduleWithContext(ContextOf(peer), ArrivalDelay(), arrival);
}

void
GsnChannel::NoteSentNow(std::size_t peer, GsnMicropacket* mp, const Time& now) const
{
    m_sentNow[peer] = {now, mp};
}

GsnMicropacket*
GsnChannel::MicropacketSentNow(const GsnPortDevice* sender) const
{
    if (m_nEnds == 0)
    {
        return nullptr;
    }
    // (With one end, nothing was noted toward the other unless it is another rank's port.)
    const SentNow& sent = m_sentNow[PeerIndex(sender)];
    return sent.at == gsn::Now() ? sent.mp : nullptr;
}

bool
GsnChannel::AmendRseqSentNow(const GsnPortDevice* sender, uint8_t rseq) const
{
    GsnMicropacket* mp = MicropacketSentNow(sender);
    if (!mp)
    {
        return false;
    }
    mp->rseq = rseq;
    return true;
}

void
GsnChannel::TransmitRun(Ptr<GsnMicropacketRun> run, Ptr<GsnPortDevice> sender) const
{
    if (m_nEnds < 2)
    {
        return;
    }
    const std::size_t peer = PeerIndex(PeekPointer(sender));
    // (GsnRemoteChannel refuses the run mode across ranks when its ends are attached.)
    const Time arrival = ArrivalDelay();
    run->firstArrival = gsn::Now() + arrival;
    run->next = 0;
    m_end[peer]->NoteArrivalScheduled(run->firstArrival);
    m_end[peer]->HintNextEvent();
    Simulator::ScheduleWithContext(ContextOf(peer),
                                   arrival,
                                   new gsn::RunArrivalEvent(PeekPointer(m_end[peer]), run));
}

bool
GsnChannel::TransmitRemote(const GsnMicropacket&, const GsnPortDevice*) const
{
    return false;
}

std::size_t
GsnChannel::GetNDevices() const
{
    return m_nEnds;
}

Ptr<NetDevice>
GsnChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT(i < m_nEnds);
    return m_end[i];
}

Ptr<GsnPortDevice>
GsnChannel::GetPeer(Ptr<const GsnPortDevice> sender) const
{
    return PeerOf(PeekPointer(sender));
}

} // namespace ns3
