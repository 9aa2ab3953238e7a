// harp-server.h: the HARP server engine of one interface (RFC 2835 §5): it serves one or more
// LIS, learns registrations from InARP requests and from the sender fields of ARP requests,
// forgets clients after 20 minutes of silence, answers ARP requests with a reply or HARP_NAK
// (never across LIS) and holds static entries. Like the client, it owns no socket, no timer and
// no clock.
#ifndef HARP_SERVER_H
#define HARP_SERVER_H

#include "harp-cache.h"
#include "harp-config.h"
#include "harp-event.h"
#include "harp-message.h"
#include "harp-stats.h"
#include "harp-time.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace harp
{

/**
 * \ingroup harp
 * \brief HARP server of one interface, for one or more LIS.
 *
 * Driven like Client: HandleFrame for every received HARP body, HandleTimeout at the time
 * PollTimeout() gives, then drain PollTransmit() and PollEvent(). It needs no Start: it serves
 * from construction. A host that is both server and client runs one engine of each on the
 * interface and hands every received frame to both (each ignores what is not for it); frames
 * a client sends to its own ULA must be looped back to the host's engines.
 */
class Server
{
  public:
    /**
     * \brief A server with its own address in each LIS and the configured statics installed.
     * \param config the configuration
     */
    explicit Server(ServerConfig config);

    /**
     * \brief Processes one received HARP body.
     * \param now current time
     * \param source link-level source ULA of the frame
     * \param data the ARP body (LLC/SNAP already removed)
     * \param size its length
     */
    void HandleFrame(TimeNs now, const Ula& source, const uint8_t* data, std::size_t size);

    /**
     * \brief Processes one received HARP body.
     * \param now current time
     * \param source link-level source ULA of the frame
     * \param bytes the ARP body
     */
    void HandleFrame(TimeNs now, const Ula& source, const std::vector<uint8_t>& bytes);

    /**
     * \brief Forgets every registration whose 20 minutes are up.
     * \param now current time
     */
    void HandleTimeout(TimeNs now);

    /**
     * \brief Adds or replaces a static entry (harpd.options, gsnarp -s).
     * \param ip a host address of a served LIS
     * \param ula a unicast ULA
     * \return false (nothing changed) if ip is outside every served LIS, is one of the
     *         server's own addresses, or ula is not unicast
     */
    bool AddStatic(Ipv4 ip, Ula ula);

    /**
     * \brief Removes a static entry (gsnarp -d). The server's own addresses stay.
     * \param ip the address
     * \return true if a static entry was removed
     */
    bool RemoveStatic(Ipv4 ip);

    /**
     * \brief What the server would answer for ip now.
     * \param now current time
     * \param ip the address
     * \return the ULA of a live registration or static entry
     */
    std::optional<Ula> Lookup(TimeNs now, Ipv4 ip) const;

    /** \return the next frame to send, if any */
    std::optional<Frame> PollTransmit();

    /** \return the absolute time at which HandleTimeout must be called, if any */
    std::optional<TimeNs> PollTimeout() const;

    /** \return the next event (ClientRegistered, ClientForgotten), if any */
    std::optional<Event> PollEvent();

    /** \return the registration table (static entries included) */
    const Cache& GetTable() const;

    /** \return the counters */
    const Stats& GetStats() const;

    /** \return the configuration */
    const ServerConfig& GetConfig() const;

  private:
    /// Routes a decoded message to its handler. \return what became of it
    RxOutcome Dispatch(TimeNs now, const Ula& source, const Message& message);
    /// Learns the sender, answers with a reply or a NAK.
    RxOutcome OnArpRequest(TimeNs now, const Ula& source, const Message& message);
    /// Registers the sender, answers with the server's own mapping in the sender's LIS.
    RxOutcome OnInArpRequest(TimeNs now, const Ula& source, const Message& message);
    /// \return why the sender fields are unacceptable, if they are
    std::optional<DropReason> CheckSender(const Ula& source, const Message& message) const;
    /// Adds or refreshes a registration. \return why it was refused, if it was
    std::optional<DropReason> Register(TimeNs now, Ipv4 ip, const Ula& ula);
    /// \return the served LIS holding ip, or null
    const ServedLis* FindLis(Ipv4 ip) const;
    /// \return true if ip is one of the server's own addresses
    bool IsOwnAddress(Ipv4 ip) const;
    /// Queues a frame.
    void Send(const Ula& destination, const Message& message);

    ServerConfig m_config;        //!< Configuration.
    Cache m_table;                //!< Registrations and static entries.
    std::deque<Frame> m_transmit; //!< Frames to send.
    std::deque<Event> m_events;   //!< Events to report.
    Stats m_stats;                //!< Counters.
};

} // namespace harp

#endif // HARP_SERVER_H
