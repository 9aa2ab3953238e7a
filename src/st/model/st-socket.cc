/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "st-socket.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StSocket");
NS_OBJECT_ENSURE_REGISTERED(StSocket);

TypeId
StSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StSocket")
            .SetParent<Socket>()
            .SetGroupName("St")
            .AddConstructor<StSocket>()
            .AddAttribute("ChunkSize",
                          "Bytes of one single-use write (and of one receive buffer) [U].",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&StSocket::m_chunk),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SndBufSize",
                          "Bytes Send() may have queued or in flight; SndBufSize / ChunkSize "
                          "writes run at once [U].",
                          UintegerValue(262144),
                          MakeUintegerAccessor(&StSocket::m_sndBuf),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RcvBufSize",
                          "Bytes of posted receive buffers (RcvBufSize / ChunkSize of them), "
                          "and of unread bytes above which none is posted again [U].",
                          UintegerValue(262144),
                          MakeUintegerAccessor(&StSocket::m_rcvBuf),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

StSocket::StSocket()
    : m_chunk(65536),
      m_sndBuf(262144),
      m_rcvBuf(262144),
      m_txQueue(Create<Packet>()),
      m_rxQueue(Create<Packet>())
{
    NS_LOG_FUNCTION(this);
}

StSocket::~StSocket()
{
    NS_LOG_FUNCTION(this);
    if (m_st && m_state == LISTENING)
    {
        m_st->Unlisten(m_localPort);
    }
}

void
StSocket::DoDispose()
{
    if (m_st && m_state == LISTENING)
    {
        m_st->Unlisten(m_localPort); // its callback names this socket
        m_state = CLOSED;
    }
    if (m_st && m_conn != 0)
    {
        m_st->SetEventCallback(m_conn, StProtocol::EventCallback());
    }
    m_st = nullptr;
    m_node = nullptr;
    Socket::DoDispose();
}

void
StSocket::SetProtocol(Ptr<Node> node, Ptr<StProtocol> st)
{
    m_node = node;
    m_st = st;
}

Socket::SocketErrno
StSocket::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
StSocket::GetSocketType() const
{
    return NS3_SOCK_STREAM;
}

Ptr<Node>
StSocket::GetNode() const
{
    return m_node;
}

int
StSocket::Bind()
{
    m_bound = true;
    m_localPort = 0; // Connect: an ephemeral port; Listen needs a port
    return 0;
}

int
StSocket::Bind6()
{
    m_errno = ERROR_AFNOSUPPORT; // ST shares the interface's IPv4 address [C] SEED-GSN
    return -1;
}

int
StSocket::Bind(const Address& address)
{
    if (!InetSocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_AFNOSUPPORT;
        return -1;
    }
    if (m_state != IDLE)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    m_localPort = InetSocketAddress::ConvertFrom(address).GetPort();
    m_bound = true;
    return 0;
}

int
StSocket::Listen()
{
    NS_ABORT_MSG_IF(!m_st,
                    "StSocket: no StProtocol (make ST sockets with ns3::StSocketFactory, "
                    "which StHelper::Install aggregates to the node)");
    if (m_state != IDLE || !m_bound || m_localPort == 0)
    {
        // Port 0 is where RCs arrive, never a service [C] SEED-GSN.
        m_errno = ERROR_INVAL;
        return -1;
    }
    const st::StStatus s = m_st->Listen(m_localPort, MakeCallback(&StSocket::OnListenEvent, this));
    if (s != st::StStatus::Ok)
    {
        NS_LOG_WARN("Listen on " << m_localPort << ": " << st::StStatusName(s));
        m_errno = s == st::StStatus::PortInUse ? ERROR_ADDRINUSE : ERROR_INVAL;
        return -1;
    }
    m_state = LISTENING;
    return 0;
}

int
StSocket::Connect(const Address& address)
{
    NS_ABORT_MSG_IF(!m_st,
                    "StSocket: no StProtocol (make ST sockets with ns3::StSocketFactory, "
                    "which StHelper::Install aggregates to the node)");
    if (!InetSocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_AFNOSUPPORT;
        return -1;
    }
    if (m_state != IDLE)
    {
        m_errno = m_state == CONNECTED ? ERROR_ISCONN : ERROR_INVAL;
        return -1;
    }
    m_peer = InetSocketAddress::ConvertFrom(address);
    st::StConnId id = 0;
    const st::StStatus s = m_st->Connect(m_peer.GetIpv4(),
                                         m_peer.GetPort(),
                                         MakeCallback(&StSocket::OnEvent, Ptr<StSocket>(this)),
                                         m_st->GetDefaultParams(),
                                         &id,
                                         m_localPort);
    if (s != st::StStatus::Ok)
    {
        NS_LOG_WARN("Connect to " << m_peer.GetIpv4() << ":" << m_peer.GetPort() << ": "
                                  << st::StStatusName(s));
        m_errno = s == st::StStatus::PortInUse ? ERROR_ADDRINUSE : ERROR_INVAL;
        return -1;
    }
    // id stays 0 while the peer's address resolves; the events name the VC.
    m_conn = id;
    m_state = CONNECTING;
    return 0;
}

void
StSocket::OnListenEvent(const st::StEvent& e)
{
    NS_LOG_FUNCTION(this << st::StEventTypeName(e.type));
    if (e.type != st::StEventType::ConnectionEstablished || !e.accepted)
    {
        return; // a VC's own events reach its socket once forked
    }
    const InetSocketAddress from(m_st->GetPeerAddress(e.conn),
                                 m_st->Find(e.conn) != nullptr ? m_st->Find(e.conn)->GetRemotePort()
                                                               : 0);
    if (!NotifyConnectionRequest(from))
    {
        m_st->SetEventCallback(e.conn, StProtocol::EventCallback());
        m_st->Close(e.conn);
        return;
    }
    Ptr<StSocket> s = Fork(e.conn);
    if (!s)
    {
        m_st->Close(e.conn);
        return;
    }
    NotifyNewConnectionCreated(s, from);
}

Ptr<StSocket>
StSocket::Fork(st::StConnId id)
{
    Ptr<StSocket> s = CreateObject<StSocket>();
    s->SetProtocol(m_node, m_st);
    s->m_chunk = m_chunk;
    s->m_sndBuf = m_sndBuf;
    s->m_rcvBuf = m_rcvBuf;
    s->m_bound = true;
    s->m_localPort = m_localPort;
    s->m_peer = InetSocketAddress(m_st->GetPeerAddress(id), m_st->Find(id)->GetRemotePort());
    // The VC's callback holds the socket: it lives as long as its VC (the protocol drops the
    // callback when the VC closes), whoever else keeps it.
    m_st->SetEventCallback(id, MakeCallback(&StSocket::OnEvent, s));
    if (!s->Attach(id))
    {
        return nullptr;
    }
    return s;
}

bool
StSocket::Attach(st::StConnId id)
{
    m_conn = id;
    const st::StConnection* c = m_st->Find(id);
    if (c == nullptr)
    {
        return false;
    }
    // Whole chunks of both buffers; at least one of each.
    const uint32_t nTx = std::max<uint32_t>(1, m_sndBuf / m_chunk);
    const uint32_t nRx = std::max<uint32_t>(1, m_rcvBuf / m_chunk);
    m_memory.assign(uint64_t(nTx + nRx) * m_chunk, 0);
    uint32_t handle = 0;
    uint16_t mx = 0;
    const st::StStatus s = m_st->Map(id,
                                     st::StMemoryTable::PIN_TX | st::StMemoryTable::PIN_RX,
                                     m_memory.data(),
                                     m_memory.size(),
                                     0,
                                     handle,
                                     mx);
    if (s != st::StStatus::Ok)
    {
        NS_LOG_WARN("cannot map the socket's memory: " << st::StStatusName(s));
        m_errno = ERROR_NOTERROR;
        m_state = CLOSED;
        return false;
    }
    m_base = m_st->Linear(id, 0, 0);
    m_txBusy.assign(nTx, false);
    m_rxDone.assign(nRx, 0);
    m_rxIdle.clear();
    for (uint32_t j = 0; j < nRx; ++j)
    {
        m_rxIdle.push_back(j);
    }
    m_rxNext = 0;
    m_rxPosted = 0;
    m_state = CONNECTED;
    PostReceives();
    return true;
}

void
StSocket::OnEvent(const st::StEvent& e)
{
    NS_LOG_FUNCTION(this << st::StEventTypeName(e.type) << e.id << e.bytes);
    switch (e.type)
    {
    case st::StEventType::ConnectionEstablished:
        if (m_state == CONNECTING)
        {
            if (Attach(e.conn))
            {
                NotifyConnectionSucceeded();
                NotifySend(GetTxAvailable());
            }
            else
            {
                m_st->Close(e.conn);
                NotifyConnectionFailed();
            }
        }
        return;
    case st::StEventType::ConnectionRefused:
        m_state = CLOSED;
        m_errno = ERROR_NOROUTETOHOST;
        NotifyConnectionFailed();
        return;
    case st::StEventType::ConnectionClosed: {
        const State was = m_state;
        m_state = CLOSED;
        m_conn = 0;
        if (was == CONNECTING)
        {
            m_errno = ERROR_NOROUTETOHOST;
            NotifyConnectionFailed();
        }
        else if (was == CONNECTED)
        {
            // The peer closed (or the VC timed out).
            if (e.reason == st::StReason::Peer || e.reason == st::StReason::Local)
            {
                NotifyNormalClose();
            }
            else
            {
                NotifyErrorClose();
            }
        }
        return;
    }
    case st::StEventType::TransferComplete:
        if (e.role == st::StRole::Source)
        {
            auto it = m_writes.find(e.id);
            if (it == m_writes.end())
            {
                return;
            }
            m_txBusy[it->second] = false;
            m_writes.erase(it);
            m_inFlight -= e.bytes;
            NotifyDataSent(static_cast<uint32_t>(e.bytes));
            SendPending();
            NotifySend(GetTxAvailable());
            MaybeFinishClose();
        }
        else if (e.role == st::StRole::Destination)
        {
            Received(e.address, e.bytes);
        }
        return;
    case st::StEventType::TransferRejected:
    case st::StEventType::TransferAborted:
        // A write that cannot complete breaks the stream: the connection is of no more use.
        NS_LOG_WARN("a write of the stream failed (" << st::StEventTypeName(e.type)
                                                     << "): closing");
        m_errno = ERROR_SHUTDOWN;
        if (m_state == CONNECTED || m_state == CLOSING)
        {
            m_state = CLOSED;
            m_st->Close(m_conn);
            NotifyErrorClose();
        }
        return;
    default:
        return;
    }
}

void
StSocket::Received(uint64_t address, uint64_t bytes)
{
    const uint64_t rxBase = m_base + uint64_t(m_txBusy.size()) * m_chunk;
    if (address < rxBase || bytes == 0)
    {
        return;
    }
    const auto j = static_cast<uint32_t>((address - rxBase) / m_chunk);
    if (j >= m_rxDone.size())
    {
        return;
    }
    m_rxDone[j] = bytes;
    --m_rxPosted;
    // Writes land in the buffers in the order they were posted, which is the ring order.
    bool any = false;
    while (m_rxDone[m_rxNext] != 0)
    {
        const uint64_t n = m_rxDone[m_rxNext];
        const uint8_t* p = m_memory.data() + (rxBase - m_base) + uint64_t(m_rxNext) * m_chunk;
        m_rxQueue->AddAtEnd(Create<Packet>(p, static_cast<uint32_t>(n)));
        m_rxDone[m_rxNext] = 0;
        m_rxIdle.push_back(m_rxNext);
        m_rxNext = (m_rxNext + 1) % m_rxDone.size();
        any = true;
    }
    PostReceives();
    if (any && !m_shutdownRecv)
    {
        NotifyDataRecv();
    }
}

void
StSocket::PostReceives()
{
    if (m_state != CONNECTED && m_state != CLOSING)
    {
        return;
    }
    // A window as TCP's: unread bytes plus what the posted buffers may still bring stay
    // within the receive buffers (RcvBufSize rounded to whole chunks, at least one).
    const uint64_t rxBase = m_base + uint64_t(m_txBusy.size()) * m_chunk;
    const uint64_t window = uint64_t(m_rxDone.size()) * m_chunk;
    while (!m_rxIdle.empty() && m_rxQueue->GetSize() + uint64_t(m_rxPosted + 1) * m_chunk <= window)
    {
        const uint32_t j = m_rxIdle.front();
        if (m_st->PostReceive(m_conn, rxBase + uint64_t(j) * m_chunk, m_chunk) != st::StStatus::Ok)
        {
            return;
        }
        m_rxIdle.pop_front();
        ++m_rxPosted;
    }
}

uint32_t
StSocket::GetTxAvailable() const
{
    const uint64_t used = m_txQueue->GetSize() + m_inFlight;
    return used >= m_sndBuf ? 0 : static_cast<uint32_t>(m_sndBuf - used);
}

int
StSocket::Send(Ptr<Packet> p, uint32_t /* flags */)
{
    NS_LOG_FUNCTION(this << p->GetSize());
    if (m_state != CONNECTED || m_shutdownSend)
    {
        m_errno = m_state == CONNECTING                  ? ERROR_NOTCONN
                  : m_state == CLOSING || m_shutdownSend ? ERROR_SHUTDOWN
                                                         : ERROR_NOTCONN;
        return -1;
    }
    if (p->GetSize() > GetTxAvailable())
    {
        m_errno = ERROR_MSGSIZE; // as TcpSocketBase: the caller retries on the send callback
        return -1;
    }
    m_txQueue->AddAtEnd(p);
    SendPending();
    return static_cast<int>(p->GetSize());
}

int
StSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address& /* toAddress */)
{
    return Send(p, flags); // a stream has one peer
}

void
StSocket::SendPending()
{
    for (uint32_t i = 0; i < m_txBusy.size() && m_txQueue->GetSize() > 0; ++i)
    {
        if (m_txBusy[i])
        {
            continue;
        }
        const uint32_t n = std::min<uint32_t>(m_chunk, m_txQueue->GetSize());
        uint8_t* dst = m_memory.data() + uint64_t(i) * m_chunk;
        m_txQueue->CopyData(dst, n);
        uint32_t tid = 0;
        const st::StStatus s = m_st->Write(m_conn, m_base + uint64_t(i) * m_chunk, n, tid);
        if (s != st::StStatus::Ok)
        {
            NS_LOG_WARN("write of " << n << " bytes: " << st::StStatusName(s));
            return; // the bytes stay queued
        }
        m_txQueue->RemoveAtStart(n);
        m_txBusy[i] = true;
        m_writes[tid] = i;
        m_inFlight += n;
    }
}

void
StSocket::MaybeFinishClose()
{
    if (m_state == CLOSING && m_txQueue->GetSize() == 0 && m_writes.empty())
    {
        m_state = CLOSED;
        m_st->Close(m_conn);
    }
}

uint32_t
StSocket::GetRxAvailable() const
{
    return m_rxQueue->GetSize();
}

Ptr<Packet>
StSocket::Recv(uint32_t maxSize, uint32_t /* flags */)
{
    const uint32_t n = std::min(maxSize, m_rxQueue->GetSize());
    if (n == 0)
    {
        m_errno = ERROR_AGAIN;
        return nullptr;
    }
    Ptr<Packet> p = m_rxQueue->CreateFragment(0, n);
    m_rxQueue->RemoveAtStart(n);
    PostReceives();
    return p;
}

Ptr<Packet>
StSocket::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p)
    {
        fromAddress = m_peer;
    }
    return p;
}

int
StSocket::Close()
{
    NS_LOG_FUNCTION(this);
    switch (m_state)
    {
    case LISTENING:
        m_st->Unlisten(m_localPort);
        m_state = CLOSED;
        return 0;
    case CONNECTED:
        m_state = CLOSING;
        MaybeFinishClose();
        return 0;
    case CONNECTING:
        if (m_conn != 0)
        {
            m_st->Close(m_conn);
        }
        m_state = CLOSED;
        return 0;
    case IDLE:
        m_state = CLOSED;
        return 0;
    default:
        m_errno = ERROR_BADF;
        return -1;
    }
}

int
StSocket::ShutdownSend()
{
    m_shutdownSend = true;
    return 0;
}

int
StSocket::ShutdownRecv()
{
    m_shutdownRecv = true;
    return 0;
}

int
StSocket::GetSockName(Address& address) const
{
    const st::StConnection* c = m_conn != 0 ? m_st->Find(m_conn) : nullptr;
    address =
        InetSocketAddress(m_st->GetLocalAddress(), c != nullptr ? c->GetLocalPort() : m_localPort);
    return 0;
}

int
StSocket::GetPeerName(Address& address) const
{
    if (m_state != CONNECTED && m_state != CLOSING)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    address = m_peer;
    return 0;
}

bool
StSocket::SetAllowBroadcast(bool allowBroadcast)
{
    return !allowBroadcast; // a VC has one peer
}

bool
StSocket::GetAllowBroadcast() const
{
    return false;
}

} // namespace ns3
