/*
 * st-config.h: every tunable of the ST engine with its default and where the default comes
 * from ([C] confirmed by IRIX or the seed documents, [U] proposed, reasons in
 * st-protocol-reference.rst). It owns the defaults; it must not hold state. Plain C++17, no ns-3
 * header.
 */
#ifndef ST_CONFIG_H
#define ST_CONFIG_H

#include <cstdint>
#include <functional>

namespace ns3
{
namespace st
{

/// Smallest Max_STU (log2) the engine negotiates: 256 bytes, the smallest Bufx [C] IRIX-impl.
constexpr uint8_t ST_MIN_MAX_STU = 8;
/// "No limit" from StConfig::channelMaxStu (log2).
constexpr uint8_t ST_NO_STU_LIMIT = 63;

/**
 * \brief Parameters of one virtual connection that the local side offers in RC/CA.
 *
 * All sizes are log2 values (2^n bytes) as on the wire [C] INCITS337 Annex D.1.
 */
struct StConnParams
{
    uint16_t slots{255};   //!< slots advertised (I_Slots/R_Slots); 0xFFFF = no accounting [C] IRIX
    uint8_t bufsize{14};   //!< log2 of a Bufx entry, 16 KiB [C] IRIX default; >= 8 [C] IRIX
    uint8_t maxStu{24};    //!< log2 of the largest STU accepted, 16 MiB [C] IRIX default
    uint8_t maxBlock{24};  //!< log2 of the largest block (RTS Max_Block, CTS limit) [C] IRIX
    uint16_t ctsReq{64};   //!< CTS_req asked for in RTS; 0 is read as 64 [C] IRIX
    uint16_t etherType{0}; //!< EtherType carried on the VC (RC only); 0 = raw ULP data [C] SEED-GSN
    uint8_t dataVc{3};     //!< data channel (= GSN VC) of DATA [C] IRIX default
                       //!< (st-protocol-reference.rst, "ST over GSN, Ethernet and other carriers")
    uint8_t channels{0x0F}; //!< ST_OPT_CHANNELS: bit n = data channel n allowed [C] SEED-API
    uint32_t key{0};        //!< local key; 0 = let the endpoint choose one (0 is never valid)
    bool bypass{false};     //!< bypass mode: the ULP runs the data sequences itself (st_tx/st_rx)
    bool outOfOrder{true};  //!< O flag: we place every STU by address, so order does not matter
    /// ST_OPT_PORTLEN_LOCAL: the VC owns this many consecutive local ports, a port "vector"
    /// [C] SEED-API; told to the peer in RC/CA (the S_id field [U]); 1 = one port
    uint16_t portLen{1};
};

/// Largest port vector a VC may own [U].
constexpr uint16_t ST_MAX_PORT_LEN = 256;

/**
 * \brief Endpoint-wide configuration.
 */
struct StConfig
{
    StConnParams defaults;            //!< what Connect and Listen use unless told otherwise
    uint8_t controlVc{0};             //!< VC of control ops [C] SEED-GSN ("DC_0 for control")
    uint64_t opTimeoutNs{1000000000}; //!< op retry timeout 1 s [U] st-protocol-reference.rst,
                                      //!< "Timers and error handling"
    uint32_t maxRetries{
        3}; //!< retries before teardown [U] st-protocol-reference.rst, "Timers and error handling"
    uint64_t fetchOpTimeoutNs{1000000000};      //!< FETCHOP DATA resend when no FC, 1 s [U]
    uint32_t fetchOpMaxResends{3};              //!< FETCHOP DATA resends before giving up [U]
    uint64_t slotWaitTimeoutNs{20000000000ULL}; //!< give up waiting for slots, 20 s [C] IRIX
    uint64_t slotPollNs{1000000}; //!< re-ask (RS) while starved, 1 ms [U] (this engine)
    uint32_t slotReserve{5};      //!< stop sending at <= 5 remote slots [C] IRIX
    /// Every incoming header takes a slot except RC and Silent DATA [C] SEED-GSN ("ST Flow
    /// Control"); false = the IRIX rule, under which RS and RSR take none [C] IRIX
    bool rsRsrUseSlots{true};
    bool earlyNotify{true}; //!< ask for slots (RS) at half the peer's slots [C] IRIX
    bool sendState{true};   //!< set S on RTS (final RSR) [C] IRIX sets S on RTS
    bool interrupt{false};  //!< set I on every op (IRIX does) [U] default off
    /// Also send CTS_req in every RTS (IRIX does [C] IRIX); false: 0 in RTS, the value
    /// negotiated in RC/CA applies [C] SEED-GSN (a connection parameter)
    bool ctsReqInRts{false};
    bool silentData{true};        //!< managed DATA is Silent except the transfer's last STU [U]
    bool pauseWhenNoBuffer{true}; //!< RTS/RTR without posted memory: RA(R=0) pause, else reject
    /// Compute the header checksum of every operation sent and check it on every one received
    /// (a received 0 means "not computed" and passes) [U] algorithm: st-protocol-reference.rst,
    /// "Header checksum"; false: send 0, check nothing (faster)
    bool headerChecksum{true};
    uint16_t ephemeralPortBase{49152}; //!< first local port for Connect [U] (IANA dynamic range)
    /**
     * RC goes to Port 0 and names the service's port in its ULP-Port field (bytes 8..11, the
     * D_Key an RC leaves 0); the responder gives every VC it accepts a port of its own, taken
     * like Connect's from ephemeralPortBase [C] SEED-GSN ("Port 0 (the port to which the
     * Request_Connection arrives)"; the verification tuple holds both ports). false: RC to
     * the service's port, and the VCs a listener accepts share that port [C] IRIX. A
     * responder answers both forms whatever this says.
     */
    bool rcToPortZero{true};
    /**
     * Port 0's queue of slots: accepted VCs the upper layer has not claimed yet (st_accept,
     * a listener's callback). An RC that finds them all taken is dropped unanswered (verdict
     * Port0Full) and the initiator's RC retry brings it again [C] SEED-GSN (the queue is
     * optional); 0xFFFF = no queue limit [U], as 0xFFFF slots mean no accounting.
     */
    uint16_t port0Slots{0xFFFF};
    /**
     * Where local keys come from: each call gives 32 random bits (0 and keys in use are
     * skipped). Keys guard a connection against stray and forged operations, so they must
     * not be predictable. Empty: the OS's random source (std::random_device). An adapter
     * that must be reproducible (a simulator) supplies its own seeded generator.
     */
    std::function<uint32_t()> keySource;
    /**
     * log2 of the largest STU the local interface carries to or from \p peer on data
     * channel \p channel (for GSN: the VC's Message limit less the LLC/SNAP and ST headers).
     * Advertised Max_STU and every STU sent respect it; a connection whose data channel
     * carries less than 2^ST_MIN_MAX_STU is refused. Empty: no limit.
     */
    std::function<uint8_t(uint64_t peer, uint8_t channel)> channelMaxStu;
    uint64_t lingerNs{4000000000ULL}; //!< keep a closed VC to answer late DA/DC [U]
    uint32_t rxFetchOpMemory{64};     //!< completed FETCHOP ids remembered for duplicates [U]
};

} // namespace st
} // namespace ns3

#endif /* ST_CONFIG_H */
