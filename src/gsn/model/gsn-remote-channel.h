/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnRemoteChannel: a GSN cable whose two ends may live on different MPI ranks (ns-3's mpi
 * module), as PointToPointRemoteChannel is for point-to-point. What a local end sends to a
 * remote one is serialized (the micropacket's 40 wire bytes) and handed to
 * MpiInterface::SendPacket with its arrival time; the far rank's MpiReceiver, aggregated to
 * the receiving port, gives it to the port. Between two local ends it is a GsnChannel. The far
 * end is either a full port of the other rank's element (every rank building every element)
 * or, as GsnFabricHelper builds, a GsnRemotePort naming it (each rank builds its own).
 * It owns the serialization across ranks only; it must not hold state shared by the ends.
 * Compiled only with MPI (NS3_MPI); without it the helper refuses cables across ranks.
 */
#ifndef GSN_REMOTE_CHANNEL_H
#define GSN_REMOTE_CHANNEL_H

#include "gsn-channel.h"
#include "gsn-remote-port.h"

#include "ns3/traced-callback.h"

namespace ns3
{

class Packet;

/**
 * \ingroup gsn
 * \brief A GSN cable that may cross MPI ranks.
 *
 * The ranks' lookahead is the cable's delay (ns-3's engines read the Delay attribute of the
 * channels that cross ranks; this channel sets it to the delay it has). Everything a port
 * sends through a channel (data, credits, acknowledgements, Admin micropackets) is a
 * micropacket through Transmit(), so all of it crosses. Refused, with an error naming the
 * cable: a delay below MinDelay, and the run mode on a cable that crosses ranks.
 */
class GsnRemoteChannel : public GsnChannel
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnRemoteChannel();

    void Attach(Ptr<GsnPortDevice> device) override;
    /**
     * Make another rank's port the far end (a fabric built only where it runs, see
     * GsnFabricHelper): what the local end sends goes to that port's node and interface.
     * \param port the far end, on a node of another rank
     */
    void AttachRemote(Ptr<GsnRemotePort> port) override;

    /// \return true if the two ends are on different ranks (both attached)
    bool CrossesRanks() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /// \return the micropackets this process received from other ranks ahead of their
    /// arrival so far (ReceiveAhead): each is one event more than in one process
    static uint64_t GetMicropacketsReceivedAhead();

  protected:
    bool TransmitRemote(const GsnMicropacket& mp, const GsnPortDevice* sender) const override;
    void DoDispose() override;

  private:
    /// Both ends are known: check the cable and give ns-3's engines its delay.
    void Complete();
    /// \param i an end's index \return its node (a local port's or the far port's)
    Ptr<Node> NodeOf(std::size_t i) const;
    /// \param i an end's index \return its interface index on its node
    uint32_t IfIndexOf(std::size_t i) const;

    /// Send the micropacket held for \p peer (the last event of its slot's instant).
    /// \param peer the receiving end's index
    void SendHeld(std::size_t peer) const;
    /// SendHeld(0) and SendHeld(1) on \p channel, as gsn::CallAfterCurrentEvent() calls.
    /// \param channel a GsnRemoteChannel
    static void SendHeldTo0(Object* channel);
    /// \copydoc SendHeldTo0
    static void SendHeldTo1(Object* channel);
    /// Check the cable once both ends are attached; abort naming it if it cannot cross.
    void CheckCrossing() const;
    /// \param end an end \param p a micropacket from the far rank, for that end
    static void ReceiveFromRank(GsnPortDevice* end, Ptr<Packet> p);

    /// \return how long before its arrival a micropacket from another rank is received: it is
    /// then scheduled to arrive, ordered among its instant's events as one process orders it
    static Time EarlyBy()
    {
        return gsn::MicropacketTime() / 2;
    }

    Time m_minDelay;                                   ///< MinDelay attribute
    bool m_receiveAhead;                               ///< ReceiveAhead attribute
    TracedCallback<const GsnMicropacket&> m_sentTrace; ///< RemoteTx
    uint32_t m_localRank;                              ///< this process's rank
    mutable GsnMicropacket m_held[2]; ///< per receiving end: held until the end of its instant
    Ptr<GsnRemotePort> m_far;         ///< another rank's port as the far end (end 1), or null
};

} // namespace ns3

#endif /* GSN_REMOTE_CHANNEL_H */
