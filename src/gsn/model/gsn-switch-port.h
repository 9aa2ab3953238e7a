/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnSwitchPort: one port of a GSN switch. It is the same link layer as an endpoint's
 * (credits, VCs, go-back-N, bring-up) with the switch behind it instead of a host: received
 * Header/Data micropackets go to the switch's input buffer of this port, and the micropackets
 * to send come from whichever input currently owns the output VC. It originates nothing.
 */
#ifndef GSN_SWITCH_PORT_H
#define GSN_SWITCH_PORT_H

#include "gsn-port-device.h"

namespace ns3
{

class GsnSwitch;

/**
 * \ingroup gsn
 * \brief A port of a GsnSwitch.
 */
class GsnSwitchPort : public GsnPortDevice
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    GsnSwitchPort();
    ~GsnSwitchPort() override;

    /**
     * Join a switch.
     * \param sw the switch
     * \param index this port's number on it
     */
    void SetSwitch(Ptr<GsnSwitch> sw, uint32_t index);

    /// \return this port's number on its switch
    uint32_t GetPortIndex() const
    {
        return m_index;
    }

    /**
     * The switch moved \p n micropackets of \p vc out of this port's input buffer.
     * \param vc a virtual channel
     * \param n how many
     * \param at when they leave the buffer (a later slot of the output's run, or now)
     */
    void ReleaseInput(uint8_t vc, uint32_t n, const Time& at)
    {
        ReleaseRxBuffer(vc, n, at);
    }

    /// \return how many micropackets of \p vc moved out of this port's input buffer for
    /// consecutive slots of an output's run chosen ahead, from \p from on, may be released
    /// at once (GsnPortDevice::QuietReleases(); UINT32_MAX for any number)
    uint32_t QuietInputReleases(uint8_t vc, const Time& from) const
    {
        return QuietReleases(vc, from);
    }

    /**
     * The switch moved \p n micropackets of \p vc out of this port's input buffer for
     * slots of an output's run one after another, or one every \p stride slots, from
     * \p first.
     * \param vc a virtual channel
     * \param n how many
     * \param first the slot of the first
     * \param stride slots from one to the next
     */
    void ReleaseInputSpan(uint8_t vc, uint32_t n, const Time& first, uint32_t stride)
    {
        ReleaseRxBufferSpan(vc, n, first, stride);
    }

    /**
     * The switch moved micropackets of \p m VCs out of this port's input buffer, in turns,
     * for slots of an output's run (GsnPortDevice::ReleaseRxBufferWoven()).
     * \param vcs the VCs \param offsets the slot of each in a turn \param m how many VCs
     * \param rounds how many turns \param first the slot of the first turn's offset 0
     * \param s slots in a turn
     */
    void ReleaseInputWoven(const uint8_t* vcs,
                           const uint32_t* offsets,
                           uint32_t m,
                           uint32_t rounds,
                           const Time& first,
                           uint32_t s)
    {
        ReleaseRxBufferWoven(vcs, offsets, m, rounds, first, s);
    }

    /// \param vc an output VC of this port \param owned true while a Message holds it
    void SetOutputVcOwned(uint8_t vc, bool owned)
    {
        SetMessageVcHint(vc, owned);
    }

    /// The switch has something for this port to send.
    void Kick()
    {
        NotifyTxReady();
    }

    /// Kick(), choosing once the events pending at this instant have run.
    void KickAfterEvents()
    {
        NotifyTxReadyAfterEvents();
    }

    /// \param mp an Admin micropacket to send on this port
    void SendAdmin(const GsnMicropacket& mp)
    {
        SendAdminMicropacket(mp);
    }

    // NetDevice API: a switch port is not a host interface.
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;
    bool HasMessageMicropacket(uint8_t vc) const override;
    void PullMessageMicropacket(uint8_t vc, GsnMicropacket& mp) override;
    bool TakeMessageMicropacket(uint8_t vc, GsnMicropacket& mp) override;
    uint32_t TakeFollowingMessageMicropackets(uint8_t vc,
                                              uint32_t max,
                                              const Time& slot,
                                              uint32_t stride,
                                              GsnMicropacket& first) override;
    uint32_t TakeWovenMessageMicropackets(const uint8_t* vcs,
                                          uint32_t s,
                                          uint32_t maxRounds,
                                          const Time& slot,
                                          GsnMicropacket* firsts) override;
    Time NextMessageMicropacketTime(uint8_t vc) const override;
    void ReceiveMessageMicropacket(GsnMicropacket&& mp) override;
    bool TakesMessageSpan(uint8_t vc) const override;
    void ReceiveMessageSpan(GsnMicropacket&& first, uint32_t n, uint32_t stride) override;
    void ReceiveAdminMicropacket(const GsnMicropacket& mp) override;
    void NotifyLinkReset() override;

  private:
    Ptr<GsnSwitch> m_switch; ///< the switch
    uint32_t m_index;        ///< this port's number
};

} // namespace ns3

#endif /* GSN_SWITCH_PORT_H */
