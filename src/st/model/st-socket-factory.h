/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StSocketFactory: makes StSockets on the node it is aggregated to (StHelper::Install
 * aggregates it next to StProtocol), so Socket::CreateSocket (node,
 * StSocketFactory::GetTypeId ()) and the "Protocol" attribute of ns-3's applications
 * ("ns3::StSocketFactory") give ST stream sockets. It owns nothing but that link.
 */
#ifndef ST_SOCKET_FACTORY_H
#define ST_SOCKET_FACTORY_H

#include "ns3/socket-factory.h"

namespace ns3
{

class StProtocol;

/**
 * \ingroup st
 * \brief The socket factory of ST: CreateSocket () gives an StSocket on this node.
 */
class StSocketFactory : public SocketFactory
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    /// \param st the node's ST protocol (the factory keeps no reference to it)
    void SetProtocol(Ptr<StProtocol> st);

    /// \return a new StSocket on the node of the factory's StProtocol
    Ptr<Socket> CreateSocket() override;

  protected:
    void DoDispose() override;

  private:
    Ptr<StProtocol> m_st; ///< the node's ST protocol
};

} // namespace ns3

#endif /* ST_SOCKET_FACTORY_H */
