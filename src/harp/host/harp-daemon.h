/*
 * harp-daemon.h: harpd, the HARP engines of one Linux interface: the client engine always
 * (the interface's address, ULA and LIS), the server engine when the options serve a LIS;
 * received HARP frames to both, their frames to the wire (or looped back when addressed to
 * ourselves), one timer for both, resolved addresses written into the kernel's neighbour
 * table (so the IP stack, and ST, use them), and gsnarp's requests over a Unix datagram
 * socket. It owns the engines, the sockets and what it wrote into the kernel's table.
 */
#ifndef HARP_DAEMON_H
#define HARP_DAEMON_H

#include "harp-client.h"
#include "harp-link-socket.h"
#include "harp-options.h"
#include "harp-server.h"
#include "st-event-loop.h"
#include "st-neighbour-table.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <vector>

namespace harp
{

/**
 * \brief The HARP daemon of one interface.
 */
class HarpDaemon
{
  public:
    /// What harpd is started with.
    struct Settings
    {
        std::string interface;      //!< -i
        std::string optionsText;    //!< the harpd.options text
        std::string socketPath;     //!< gsnarp's socket
        bool kernel{true};          //!< write the kernel's neighbour table
        bool kernelRequests{false}; //!< resolve what the kernel asks for (instead of its ARP)
        bool verbose{false};        //!< print every event
    };

    HarpDaemon() = default;
    ~HarpDaemon();

    /**
     * \brief Open the interface and the control socket, build the engines.
     * \param[out] error one sentence (or one line per bad options line)
     * \return 0 or an errno value
     */
    int Open(const Settings& settings, std::string& error);

    /// Run until \p stop is set (by a signal handler).
    void Run(const volatile bool& stop);

    /// Default control socket of \p interface.
    static std::string DefaultSocket(const std::string& interface);

  private:
    void OnFrame();
    void OnControl();
    void OnKernelRequest();
    void Drain(TimeNs now);
    void Deliver(TimeNs now, const Ula& source, const std::vector<uint8_t>& body);
    void OnClientEvent(const Event& e);
    void Reply(const sockaddr_un& to, socklen_t len, const std::string& text);
    std::string List(TimeNs now) const;
    void KernelSet(Ipv4 ip, const Ula& ula, bool permanent);
    void KernelRemove(Ipv4 ip);
    TimeNs Now() const;

    Settings m_settings;                                 //!< as started
    HarpLinkSocket m_link;                               //!< frames
    ns3::st::StEventLoop m_loop;                         //!< epoll + timerfd
    std::unique_ptr<ns3::st::StNeighbourTable> m_kernel; //!< the kernel's table
    std::unique_ptr<Client> m_client;                    //!< always
    std::unique_ptr<Server> m_server;                    //!< when serving a LIS
    int m_control{-1};                                   //!< gsnarp's socket
    std::set<Ipv4> m_installed; //!< dynamic entries we wrote into the kernel
    /// gsnarp requests waiting for a resolution: address -> who asked.
    std::multimap<Ipv4, std::pair<sockaddr_un, socklen_t>> m_waiting;
};

} // namespace harp

#endif /* HARP_DAEMON_H */
