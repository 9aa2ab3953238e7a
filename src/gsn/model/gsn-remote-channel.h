/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnRemoteChannel: a GSN cable whose two ends may live on different MPI ranks (ns-3's mpi
 * module), as PointToPointRemoteChannel is for point-to-point. What a local end sends to a
 * remote one is serialized (the micropacket's 40 wire bytes) and handed to
 * MpiInterface::SendPacket with its arrival time; the far rank's MpiReceiver, aggregated to
 * the receiving port, gives it to the port. Between two local ends it is a GsnChannel.
 * It owns the serialization across ranks only; it must not hold state shared by the ends.
 * Compiled only with MPI (NS3_MPI); without it the helper refuses cables across ranks.
 */
#ifndef GSN_REMOTE_CHANNEL_H
#define GSN_REMOTE_CHANNEL_H

#include "gsn-channel.h"

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

    /// \return true if the two ends are on different ranks (both attached)
    bool CrossesRanks() const;

  protected:
    bool TransmitRemote(const GsnMicropacket& mp, std::size_t peer) const override;

  private:
    /// Send the micropacket held for \p peer (the last event of its slot's instant).
    /// \param peer the receiving end's index
    void SendHeld(std::size_t peer) const;
    /// Check the cable once both ends are attached; abort naming it if it cannot cross.
    void CheckCrossing() const;
    /// \param end an end \param p a micropacket from the far rank, for that end
    static void ReceiveFromRank(GsnPortDevice* end, Ptr<Packet> p);

    Time m_minDelay;                                   ///< MinDelay attribute
    TracedCallback<const GsnMicropacket&> m_sentTrace; ///< RemoteTx
    uint32_t m_localRank;                              ///< this process's rank
    mutable GsnMicropacket m_held[2]; ///< per receiving end: held until the end of its instant
};

} // namespace ns3

#endif /* GSN_REMOTE_CHANNEL_H */
