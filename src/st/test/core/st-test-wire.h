/*
 * st-test-wire.h: a simulated in-memory wire between two ST endpoints with a fake clock,
 * for the engine's unit tests. It owns delivery order (FIFO, fixed delay), the trace of every
 * operation that crossed, and a drop hook for loss tests. Test code only.
 */
#ifndef ST_TEST_WIRE_H
#define ST_TEST_WIRE_H

#include "st-endpoint.h"

#include <cstring>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace st
{

/// Print an opcode in test messages.
inline std::ostream&
operator<<(std::ostream& os, StOp op)
{
    return os << StOpName(op);
}

namespace test
{

/// One operation seen on the wire.
struct WireRecord
{
    bool fromA{true};    //!< A -> B (true) or B -> A
    StHeader h;          //!< decoded header (op NOP if undecodable)
    std::size_t len{0};  //!< frame length
    uint8_t vc{0};       //!< VC used
    uint64_t time{0};    //!< send time (ns)
    bool dropped{false}; //!< removed by the drop hook
};

/// Two endpoints, A (address 1) and B (address 2), joined by a wire with a fixed delay.
class TestWire
{
  public:
    static constexpr StPeerAddress ADDR_A = 1; //!< A's address
    static constexpr StPeerAddress ADDR_B = 2; //!< B's address

    explicit TestWire(const StConfig& ca = StConfig(), const StConfig& cb = StConfig())
        : a(ca),
          b(cb)
    {
    }

    StEndpoint a;                                //!< endpoint A
    StEndpoint b;                                //!< endpoint B
    uint64_t now{0};                             //!< fake clock (ns)
    uint64_t delay{1000};                        //!< one-way delay (ns)
    bool pollA{true};                            //!< drain A's events automatically
    bool pollB{true};                            //!< drain B's events automatically
    std::vector<WireRecord> trace;               //!< every op sent
    std::vector<StEvent> eventsA;                //!< A's events
    std::vector<StEvent> eventsB;                //!< B's events
    std::function<bool(const WireRecord&)> drop; //!< return true to lose an op
    /// Change the bytes of an op in flight (after it was recorded), e.g. to flip a bit.
    std::function<void(const WireRecord&, std::vector<uint8_t>&)> mangle;

    /// Take what the endpoints produced and put it on the wire.
    void Pump()
    {
        Take(a, true);
        Take(b, false);
        StEvent e;
        while (pollA && a.PollEvent(e))
        {
            eventsA.push_back(e);
        }
        while (pollB && b.PollEvent(e))
        {
            eventsB.push_back(e);
        }
    }

    /// Deliver the next thing due (a frame or a timer). False if nothing is left.
    bool Step(uint64_t until = ST_NEVER)
    {
        Pump();
        uint64_t tFrame = m_flight.empty() ? ST_NEVER : m_flight.front().arrival;
        uint64_t tA = a.PollTimeout();
        uint64_t tB = b.PollTimeout();
        uint64_t t = std::min({tFrame, tA, tB});
        if (t == ST_NEVER || t > until)
        {
            return false;
        }
        now = std::max(now, t);
        if (t == tFrame)
        {
            InFlight f = std::move(m_flight.front());
            m_flight.erase(m_flight.begin());
            StEndpoint& dst = f.toB ? b : a;
            dst.Receive(now, f.toB ? ADDR_A : ADDR_B, f.bytes.data(), f.bytes.size());
        }
        else if (t == tA)
        {
            a.HandleTimeout(now);
        }
        else
        {
            b.HandleTimeout(now);
        }
        Pump();
        return true;
    }

    /// Run until nothing is left or the clock would pass \p until.
    void Run(uint64_t until = ST_NEVER)
    {
        int guard = 0;
        while (Step(until) && ++guard < 10000000)
        {
        }
        if (until != ST_NEVER && now < until)
        {
            now = until;
        }
    }

    /// Run while frames are in flight, but never fire timers past the last frame.
    void Settle()
    {
        Pump();
        while (!m_flight.empty())
        {
            Step(m_flight.back().arrival);
        }
    }

    /// The operations on the wire as ">RTS <CTS ..." (> = from A, < = from B), dropped ones
    /// marked with a trailing "x".
    std::string Ops(bool withData = true) const
    {
        std::string s;
        for (const auto& r : trace)
        {
            if (!withData && r.h.op == StOp::Data)
            {
                continue;
            }
            if (!s.empty())
            {
                s += ' ';
            }
            s += r.fromA ? '>' : '<';
            s += r.h.Name();
            if (r.h.Has(StFlag::REJECT) && (r.h.op == StOp::Ca || r.h.op == StOp::Ra))
            {
                s += "(R)";
            }
            if (r.dropped)
            {
                s += 'x';
            }
        }
        return s;
    }

    /// Count of ops named \p name (as Name()) sent from A (\p fromA) or B.
    std::size_t Count(const std::string& name, bool fromA) const
    {
        std::size_t n = 0;
        for (const auto& r : trace)
        {
            n += (r.h.Name() == name && r.fromA == fromA) ? 1 : 0;
        }
        return n;
    }

    /// Inject raw bytes to an endpoint as if from the other side.
    void Inject(bool toB, const std::vector<uint8_t>& bytes, StPeerAddress from = 0)
    {
        StEndpoint& dst = toB ? b : a;
        dst.Receive(now, from != 0 ? from : (toB ? ADDR_A : ADDR_B), bytes.data(), bytes.size());
        Pump();
    }

    /// Find the first event of a type in a list.
    static const StEvent* FindEvent(const std::vector<StEvent>& ev, StEventType t)
    {
        for (const auto& e : ev)
        {
            if (e.type == t)
            {
                return &e;
            }
        }
        return nullptr;
    }

    /// Count events of a type.
    static std::size_t CountEvents(const std::vector<StEvent>& ev, StEventType t)
    {
        std::size_t n = 0;
        for (const auto& e : ev)
        {
            n += e.type == t ? 1 : 0;
        }
        return n;
    }

    /// Connect A to B (B listens on \p port); returns A's and B's connection ids.
    std::pair<StConnId, StConnId> Connect(uint16_t port = 5000,
                                          const StConnParams& pa = StConnParams(),
                                          const StConnParams& pb = StConnParams())
    {
        b.Listen(port, pb);
        StConnId ida = 0;
        a.Connect(now, ADDR_B, port, pa, ida);
        Settle();
        StConnId idb = 0;
        for (const auto& e : eventsB)
        {
            if (e.type == StEventType::ConnectionEstablished && e.accepted)
            {
                idb = e.conn;
            }
        }
        return {ida, idb};
    }

  private:
    struct InFlight
    {
        uint64_t arrival;
        bool toB;
        std::vector<uint8_t> bytes;
    };

    void Take(StEndpoint& ep, bool fromA)
    {
        StTransmit t;
        while (ep.PollTransmit(t))
        {
            WireRecord r;
            r.fromA = fromA;
            r.len = t.bytes.size() + t.virtualBytes;
            r.vc = t.vc;
            r.time = now;
            if (StHeader::Decode(t.bytes.data(), t.bytes.size(), r.h) != StDecodeStatus::Ok)
            {
                r.h = StHeader();
            }
            r.dropped = drop && drop(r);
            trace.push_back(r);
            if (!r.dropped)
            {
                t.bytes.resize(t.bytes.size() + t.virtualBytes); // memory without bytes: zeros
                if (mangle)
                {
                    mangle(r, t.bytes);
                }
                m_flight.push_back(InFlight{now + delay, fromA, std::move(t.bytes)});
            }
        }
    }

    std::vector<InFlight> m_flight; //!< in arrival order (fixed delay keeps FIFO)
};

/// A block of user memory, filled with a pattern.
struct Buffer
{
    explicit Buffer(std::size_t n, uint8_t seed = 0)
        : bytes(n)
    {
        for (std::size_t i = 0; i < n; ++i)
        {
            bytes[i] = static_cast<uint8_t>((i * 131 + seed * 7 + (i >> 8)) & 0xFF);
        }
    }

    uint8_t* data()
    {
        return bytes.data();
    }

    std::vector<uint8_t> bytes; //!< the memory
};

} // namespace test
} // namespace st
} // namespace ns3

#endif /* ST_TEST_WIRE_H */
