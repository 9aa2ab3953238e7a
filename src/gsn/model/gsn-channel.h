/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnChannel: one full-duplex GSN cable between two ports. It holds the two ends and the
 * propagation delay and hands each micropacket to the far end when its last bit arrives.
 * Everything that crosses a link (data, credits, acknowledgements, Admin) goes through
 * Transmit(), so the two ends share no state and a link can later be split across ranks.
 */
#ifndef GSN_CHANNEL_H
#define GSN_CHANNEL_H

#include "gsn-constants.h"
#include "gsn-micropacket-run.h"
#include "gsn-micropacket.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

class GsnPortDevice;
class GsnRemotePort;

/**
 * \ingroup gsn
 * \brief A GSN cable: two simplex links of the same length.
 *
 * The one-way delay is the Delay attribute when it is set (non-zero); otherwise it is
 * Length x DelayPerMeter (5 ns/m, a proposal: gsn-protocol-reference.rst, "Rates and timing").
 * Copper cables are limited to 40 m and fibre to 1 km (HIPPI-6400-PH); a longer cable is a
 * configuration error.
 */
class GsnChannel : public Channel
{
  public:
    /// The cable's medium, which bounds its length.
    enum Medium
    {
        COPPER, ///< parallel copper, up to 40 m
        FIBER,  ///< HIPPI-6400-OPT, up to 1 km
    };

    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnChannel();

    /**
     * Connect a port to one end of the cable.
     * \param device the port (at most two per cable)
     */
    virtual void Attach(Ptr<GsnPortDevice> device);
    /**
     * Make another MPI rank's port the far end. Only a cable across ranks
     * (GsnRemoteChannel) has one; this one aborts with a message.
     * \param port the far end
     */
    virtual void AttachRemote(Ptr<GsnRemotePort> port);

    /**
     * Send a micropacket from \p sender to the other end. It arrives one micropacket time
     * plus the propagation delay later.
     * \param mp the micropacket
     * \param sender the sending port
     */
    void Transmit(const GsnMicropacket& mp, Ptr<GsnPortDevice> sender) const;

    /**
     * Send micropackets that leave \p sender in consecutive slots, starting now. The first
     * arrives one micropacket time plus the propagation delay later, each next one a
     * micropacket time after it; the far end gets one event for the run.
     * \param run the micropackets (firstArrival is set here)
     * \param sender the sending port
     */
    void TransmitRun(Ptr<GsnMicropacketRun> run, Ptr<GsnPortDevice> sender) const;

    /**
     * \param medium a medium
     * \return the longest cable of that medium, in metres (40 copper, 1000 fibre)
     */
    static double GetMaxLength(Medium medium);

    /**
     * Check a cable length against its medium.
     * \param medium the medium
     * \param metres the length
     * \return "" if the cable is possible, else why not, naming the medium's limit
     */
    static std::string CheckLength(Medium medium, double metres);

    /// \return the cable's medium
    Medium GetMedium() const;

    /// \return the one-way propagation delay
    Time GetDelay() const
    {
        return m_propagationDelay;
    }

    /// \return the cable length in metres used for the delay
    double GetLength() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \param sender one end
     * \return the other end (null while unattached)
     */
    Ptr<GsnPortDevice> GetPeer(Ptr<const GsnPortDevice> sender) const;

    /**
     * GetPeer() without reference counting, for the ports' own use on every transmission.
     * \param sender one end
     * \return the other end (null while unattached)
     */
    GsnPortDevice* PeerOf(const GsnPortDevice* sender) const
    {
        return m_nEnds < 2 ? nullptr : PeekPointer(m_end[PeerIndex(sender)]);
    }

    /// The node of an attached port changed: forget the contexts kept for its events.
    void NotifyNodeChanged();

    /// \return GetDelay() plus one micropacket time: from the start of a micropacket's slot
    /// to its arrival (inlined: asked for every micropacket)
    Time ArrivalDelay() const
    {
        return gsn::MicropacketTime() + m_propagationDelay;
    }

    /**
     * Make the micropacket \p sender sent alone at this very instant carry the RSEQ \p rseq:
     * a micropacket accepted at the instant a slot starts is acknowledged by that slot's
     * micropacket, whichever of the two events of the instant runs first (so the order in
     * which ns-3 happens to run them, which differs across MPI ranks, changes nothing).
     * \param sender the sending end
     * \param rseq the RSEQ it carries now
     * \return true if \p sender sent a micropacket alone at this instant (now amended)
     */
    bool AmendRseqSentNow(const GsnPortDevice* sender, uint8_t rseq) const;

    /**
     * \param sender the sending end
     * \return the micropacket \p sender sent alone through this cable at this very instant,
     *         where it waits to arrive or to leave (valid for this instant), or null if none:
     *         it may still be amended, as AmendRseqSentNow() does
     */
    GsnMicropacket* MicropacketSentNow(const GsnPortDevice* sender) const;

  protected:
    /**
     * A cable whose ends may live on different MPI ranks (GsnRemoteChannel) sends what is
     * for a remote end through this hook, and returns false when that end is local.
     * \param mp the micropacket
     * \param sender the sending end
     * \return true if the micropacket left by MPI (or is another rank's to send)
     */
    virtual bool TransmitRemote(const GsnMicropacket& mp, const GsnPortDevice* sender) const;

    /// \param i an end (attached) \return it
    GsnPortDevice* End(std::size_t i) const
    {
        return PeekPointer(m_end[i]);
    }

    /**
     * Keep where the micropacket sent toward \p peer at this instant waits to arrive or to
     * leave, for AmendRseqSentNow().
     * \param peer the receiving end's index \param mp the micropacket, valid for this instant
     * \param now the current time
     */
    void NoteSentNow(std::size_t peer, GsnMicropacket* mp, const Time& now) const;

    bool m_remote{false}; ///< set by GsnRemoteChannel: ask TransmitRemote() first

  private:
    /// Check the length against the medium and the resulting delay; abort with a clear
    /// message on an impossible cable.
    void Validate() const;

    /// \param sender one end (attached) \return the index of the other end in m_end
    std::size_t PeerIndex(const GsnPortDevice* sender) const
    {
        return PeekPointer(m_end[0]) == sender ? 1 : 0;
    }

    /// \param i an end \return the context (node id) of its events, kept after the first ask
    uint32_t ContextOf(std::size_t i) const;
    /// Compute the kept delay from the attributes (their setters call it).
    void UpdateDelay();
    /// \param metres the Length attribute
    void SetLength(double metres);
    /// \param delay the DelayPerMeter attribute
    void SetDelayPerMeter(Time delay);
    /// \return the DelayPerMeter attribute
    Time GetDelayPerMeter() const;
    /// \param delay the Delay attribute
    void SetExplicitDelay(Time delay);
    /// \return the Delay attribute (zero: derived from the length)
    Time GetExplicitDelay() const;

    // Kept because every run sent asks for them (and every acknowledgement for the delay):
    // reading the peer's node, or constructing a delay from the length, was a few percent of
    // the run mode's time on large fabrics.
    static constexpr uint32_t NO_CONTEXT = 0xFFFFFFFF;     ///< m_context: not asked yet
    mutable uint32_t m_context[2]{NO_CONTEXT, NO_CONTEXT}; ///< node ids of the ends
    Time m_propagationDelay;                               ///< GetDelay()

    Ptr<GsnPortDevice> m_end[2]; ///< the two ends
    std::size_t m_nEnds;         ///< ends attached
    double m_length;             ///< metres
    Time m_delayPerMeter;        ///< propagation per metre
    Time m_delay;                ///< explicit one-way delay (zero: derive from length)
    Medium m_medium;             ///< copper or fibre

    /// The micropacket last sent alone toward an end, while it may be amended.
    struct SentNow
    {
        Time at{Time::Min()};        ///< when it was sent
        GsnMicropacket* mp{nullptr}; ///< where it waits (valid at that instant)
    };

    mutable SentNow m_sentNow[2]; ///< per receiving end
};

} // namespace ns3

#endif /* GSN_CHANNEL_H */
