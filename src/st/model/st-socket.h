/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StSocket: an ns3::Socket (a byte stream, as TCP's) over one ST virtual connection, so that
 * ns-3's applications (BulkSendApplication, PacketSink, OnOffApplication) and user code use
 * ST through the socket API. It owns the connection's memory and turns the stream into
 * single-use writes (RTS/CTS/DATA) of at most ChunkSize bytes; the protocol is the engine's
 * (through StProtocol's managed API). It must not touch the wire or the engine's state.
 */
#ifndef ST_SOCKET_H
#define ST_SOCKET_H

#include "st-protocol.h"

#include "ns3/inet-socket-address.h"
#include "ns3/socket.h"

#include <deque>
#include <map>
#include <vector>

namespace ns3
{

class Node;
class Packet;

/**
 * \ingroup st
 * \brief A stream socket over ST (NS3_SOCK_STREAM), addressed as IRIX bound ST sockets:
 *        InetSocketAddress (the peer's IPv4 address, resolved to its MAC/ULA by StProtocol,
 *        and the service's ST port).
 *
 * Sending: Send() queues bytes (at most SndBufSize queued or in flight, else -1 with
 * ERROR_MSGSIZE); the socket writes them as single-use transfers of at most ChunkSize bytes,
 * up to SndBufSize / ChunkSize at once, from memory it maps on the connection. A transfer
 * completes at the source once the destination has every byte (its final RSR), and then
 * fires the data-sent and send (tx available) callbacks.
 *
 * Receiving: the socket keeps RcvBufSize / ChunkSize buffers of ChunkSize bytes posted; each
 * write lands in the oldest one (the engine takes posted memory in order), and the bytes
 * reach Recv() in the order they were written. Buffers are posted only while the unread
 * bytes and what the posted buffers may still bring stay within RcvBufSize (a window, as
 * TCP's); until one is posted a writer's RTS is paused (RA with R=0): ST's flow control.
 *
 * Close() sends what is queued first, then tears the VC down (RD/DA/DC); the peer's socket
 * then reports a normal close. Listen() accepts on the bound port; each accepted VC becomes
 * a new StSocket (the accept callbacks).
 */
class StSocket : public Socket
{
  public:
    /**
     * \brief Register this type.
     * \return The TypeId.
     */
    static TypeId GetTypeId();

    StSocket();
    ~StSocket() override;

    /// \param node the node \param st its ST protocol
    void SetProtocol(Ptr<Node> node, Ptr<StProtocol> st);

    /// \return the ST connection (0 when none)
    st::StConnId GetConnection() const
    {
        return m_conn;
    }

    // Socket API.
    enum SocketErrno GetErrno() const override;
    enum SocketType GetSocketType() const override;
    Ptr<Node> GetNode() const override;
    int Bind() override;
    int Bind6() override;
    int Bind(const Address& address) override;
    int Close() override;
    int ShutdownSend() override;
    int ShutdownRecv() override;
    int Connect(const Address& address) override;
    int Listen() override;
    uint32_t GetTxAvailable() const override;
    int Send(Ptr<Packet> p, uint32_t flags) override;
    int SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress) override;
    uint32_t GetRxAvailable() const override;
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;
    Ptr<Packet> RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress) override;
    int GetSockName(Address& address) const override;
    int GetPeerName(Address& address) const override;
    bool SetAllowBroadcast(bool allowBroadcast) override;
    bool GetAllowBroadcast() const override;

  protected:
    void DoDispose() override;

  private:
    /// Where the socket stands.
    enum State
    {
        IDLE,       ///< created or bound
        LISTENING,  ///< Listen() on the bound port
        CONNECTING, ///< RC sent
        CONNECTED,  ///< the VC is up
        CLOSING,    ///< Close() called: queued bytes go first, then RD
        CLOSED,     ///< the VC is gone (or refused)
    };

    /// Events of a listening socket (ConnectionEstablished of accepted VCs).
    void OnListenEvent(const st::StEvent& e);
    /// Events of this socket's VC.
    void OnEvent(const st::StEvent& e);
    /// The VC \p id is up: map memory, post the receive buffers. \return false on failure
    bool Attach(st::StConnId id);
    /// Write queued bytes into free send buffers.
    void SendPending();
    /// Post receive buffers while the application holds less than RcvBufSize bytes.
    void PostReceives();
    /// A write into one of our receive buffers completed at \p address with \p bytes.
    void Received(uint64_t address, uint64_t bytes);
    /// Tear the VC down once nothing is left to send (after Close()).
    void MaybeFinishClose();
    /// \return a socket for VC \p id accepted by this listening socket
    Ptr<StSocket> Fork(st::StConnId id);

    Ptr<Node> m_node;                            ///< the node
    Ptr<StProtocol> m_st;                        ///< the node's ST
    State m_state{IDLE};                         ///< state
    mutable SocketErrno m_errno{ERROR_NOTERROR}; ///< last error
    uint16_t m_localPort{0}; ///< bound port (Listen: the service; Connect: 0 = ephemeral)
    bool m_bound{false};     ///< Bind() called
    InetSocketAddress m_peer{Ipv4Address::GetAny(), 0}; ///< the peer (Connect or accepted)
    st::StConnId m_conn{0};                             ///< the VC
    bool m_shutdownSend{false};                         ///< ShutdownSend()
    bool m_shutdownRecv{false};                         ///< ShutdownRecv()

    uint32_t m_chunk;  ///< ChunkSize
    uint32_t m_sndBuf; ///< SndBufSize
    uint32_t m_rcvBuf; ///< RcvBufSize

    std::vector<uint8_t> m_memory;         ///< [send buffers | receive buffers], mapped on the VC
    uint64_t m_base{0};                    ///< linear address of m_memory
    Ptr<Packet> m_txQueue;                 ///< bytes accepted by Send() not yet written
    std::vector<bool> m_txBusy;            ///< send buffer i carries a write
    std::map<uint32_t, uint32_t> m_writes; ///< transfer id -> send buffer
    uint64_t m_inFlight{0};                ///< bytes of writes not complete yet
    std::vector<uint64_t> m_rxDone;        ///< receive buffer j: bytes landed (0 = not yet)
    std::deque<uint32_t> m_rxIdle;         ///< receive buffers to post again, in ring order
    uint32_t m_rxNext{0};                  ///< the receive buffer whose bytes come next
    uint32_t m_rxPosted{0};                ///< receive buffers posted and not written yet
    Ptr<Packet> m_rxQueue;                 ///< bytes for Recv()
};

} // namespace ns3

#endif /* ST_SOCKET_H */
