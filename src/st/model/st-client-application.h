/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StClientApplication: what the ST client applications share: the server they connect to
 * (Remote, Port), the connection, and starting and stopping it. Each client says what it does
 * with the connection's events; it owns nothing else here.
 */
#ifndef ST_CLIENT_APPLICATION_H
#define ST_CLIENT_APPLICATION_H

#include "st-application.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"

namespace ns3
{

/**
 * \ingroup st
 * \brief Base of the ST applications that connect to a server: StBulkClient,
 * StMemoryProbe, StPingPong.
 *
 * StartApplication connects to Remote:Port and hands every event of the connection to
 * OnEvent, except its end (refused or closed), after which m_conn is 0 again;
 * StopApplication cancels the next scheduled round and closes the connection.
 */
class StClientApplication : public StApplication
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StClientApplication();
    ~StClientApplication() override;

  protected:
    void StartApplication() override;
    void StopApplication() override;

    /// An event of the connection (established, transfer complete, ...); the end of the
    /// connection (refused or closed) is handled here and not passed on.
    virtual void OnEvent(const st::StEvent& e) = 0;

  private:
    /// Every event of the connection: forgets it when it ends, passes the rest to OnEvent.
    void HandleEvent(const st::StEvent& e);

  protected:
    Ipv4Address m_remote; ///< Remote: the server's ST (IPv4) address
    uint16_t m_port;      ///< Port: the server's ST port
    st::StConnId m_conn;  ///< the connection (0 until established)
    bool m_running;       ///< between start and stop
    EventId m_next;       ///< the client's next scheduled round, if it has rounds
};

} // namespace ns3

#endif /* ST_CLIENT_APPLICATION_H */
