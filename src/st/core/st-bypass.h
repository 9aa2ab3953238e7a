/*
 * st-bypass.h: the ST Bypass API, Level 0 (E. Salo, SGI, draft of 10 May 1999), as a
 * C-callable layer on the ST engine. It owns the handles (st_chandle_t, st_mhandle_t), the
 * options and the blocking semantics; the protocol is the engine's (st-endpoint.h), and the
 * waiting is a StDriver's (st-driver.h, run through StBypassStack).
 *
 * Differences from the draft, all forced by its open points:
 *  - every routine takes st_chandle_t / st_mhandle_t by value (the draft mixes "st_chandle_t"
 *    and "st_chandle_t *" for the same opaque handle). A handle is an opaque number that is
 *    never reused, checked by every routine: a value that is not a live handle (the address
 *    of a handle variable, a deleted handle) gets EINVAL (the ready tests return 1, or -1
 *    for st_accept_ready, and st_stack NULL); st_delete also frees the handle's mhandles;
 *  - return values are 0 or an errno value (the draft: "need to define error codes"), with
 *    EWOULDBLOCK for a st_rx timeout as the draft says;
 *  - option values are int (keys are returned as their 32-bit pattern);
 *  - st_header_t is the 40-byte header in host order; libst converts to big-endian;
 *  - st_tx fills in D_Key from the connection (the draft lets an implementation restrict
 *    it), and D_Port and S_Port when 0 (another port of a vectorized VC is kept, one outside
 *    the vectors refused with EINVAL); it refuses connection-management ops, and (EINVAL)
 *    a header the peer's decoder would refuse (StHeader::Validate: opcode, FetchOp field,
 *    FETCHOP T_len);
 *  - st_map needs an established connection (the Bufx table belongs to the connection);
 *  - st_accept turns the listening handle into the connection and stops listening.
 * Extensions: st_create_on (name the stack), st_rx_payload (did the last st_rx carry an
 * optional payload), the options ST_OPT_BYPASS, ST_OPT_CTS_REQ, ST_OPT_MAX_BLOCK,
 * ST_OPT_DATA_VC, ST_OPT_ETHERTYPE, and the non-blocking halves of the blocking routines for
 * event-driven hosts (st_connect_start ... st_stack): each blocking routine is exactly
 * "start, wait until its ready test holds, finish", and an event-driven host (ns-3) runs the
 * start, tests readiness whenever the stack made progress, then calls the routine, which no
 * longer waits.
 */
#ifndef ST_BYPASS_H
#define ST_BYPASS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#ifdef __cplusplus
extern "C"
{
#endif

    typedef void* st_chandle_t; /**< handle to an ST connection [SEED-API] */
    typedef void* st_mhandle_t; /**< handle to a region of memory [SEED-API] */

    /** The ST header in host order (encoded big-endian by libst). Field names:
     * st-protocol-reference.rst, "The 40-byte ST header". */
    typedef struct st_header
    {
        uint16_t opflags;  /**< Op (bits 15..11) and flags (bits 10..0) */
        uint16_t param;    /**< @2 */
        uint16_t d_port;   /**< @4 (filled in by st_tx) */
        uint16_t s_port;   /**< @6 (filled in by st_tx) */
        uint32_t d_key;    /**< @8 (filled in by st_tx) */
        uint16_t checksum; /**< @12 */
        uint16_t mx;       /**< @14 */
        uint32_t bufx;     /**< @16 */
        uint32_t offset;   /**< @20 */
        uint32_t sync;     /**< @24 */
        uint32_t b_num;    /**< @28 */
        uint32_t d_id;     /**< @32 */
        uint32_t s_id;     /**< @36 */
    } st_header_t;

/* st_map flags [SEED-API]; values as IRIX's TX = 1, RX = 2 [st-protocol-reference.rst, "Bypass API
 * options and IRIX socket options"]. */
#define ST_PIN_TX 1
#define ST_PIN_RX 2
/* Extensions of this implementation: memory that holds no bytes (ptr NULL; length and
 * protection only; sent from, it reads as zeros; written to, it keeps nothing), and with it a
 * check that what arrives is zeros (counted as PatternErrors otherwise). */
#define ST_MAP_NO_BYTES 4
#define ST_MAP_CHECK 8

/* Options of st_getopt/st_setopt [SEED-API]; numbers from IRIX where it had one. */
#define ST_OPT_BYPASS 1000           /* ext.: 1 = bypass (default), 0 = engine runs sequences */
#define ST_OPT_KEY_LOCAL 1001        /* IRIX ST_L_KEY; settable before connect */
#define ST_OPT_KEY_REMOTE 1002       /* IRIX ST_R_KEY; read-only */
#define ST_OPT_RX_SLOTS 1003         /* IRIX ST_L_NUMSLOTS; before connect, < 0xFFFF */
#define ST_OPT_RX_WINDOW_REMOTE 1004 /* IRIX ST_R_NUMSLOTS; read-only */
#define ST_OPT_RX_WINDOW_LOCAL 1005  /* IRIX ST_V_NUMSLOTS; slots advertised, 0xFFFF = off */
#define ST_OPT_PORT_LOCAL 1006       /* IRIX ST_L_PORT; before connect */
#define ST_OPT_PORT_REMOTE 1007      /* IRIX ST_R_PORT; read-only */
#define ST_OPT_MAXSTU_LOCAL 1008     /* IRIX ST_L_MAXSTU; log2; before connect */
#define ST_OPT_MAXSTU_REMOTE 1009    /* IRIX ST_R_MAXSTU; read-only */
#define ST_OPT_BUFSIZE_LOCAL 1010    /* IRIX ST_L_BUFSIZE; log2; before connect */
#define ST_OPT_BUFSIZE_REMOTE 1011   /* IRIX ST_R_BUFSIZE; read-only */
#define ST_OPT_IANA_LOCAL 1012       /* ULP (IANA) port of the local service */
#define ST_OPT_IANA_REMOTE 1013      /* ULP (IANA) port of the remote service */
#define ST_OPT_PORTLEN_LOCAL 1014    /* local port "vector": 1..256, before connect */
#define ST_OPT_PORTLEN_REMOTE 1015   /* remote port "vector": read-only (RC/CA) */
#define ST_OPT_THREAD_SAFETY 1016    /* 0 only: one thread per handle */
#define ST_OPT_CHANNELS 1017         /* bit n = data channel n allowed */
#define ST_OPT_BUFX_BASE 1020        /* IRIX ST_BUFX_ALLOC: first Bufx of the connection */
#define ST_OPT_BUFX_COUNT 1021       /* IRIX ST_BUFX_FREE slot: number of Bufx entries */
#define ST_OPT_CTS_REQ 1             /* ext., IRIX ST_CTS_OUTSTD */
#define ST_OPT_MAX_BLOCK 2           /* ext., IRIX ST_BLKSZ (log2) */
#define ST_OPT_DATA_VC 4             /* ext., IRIX ST_OUT_VCNUM */
#define ST_OPT_ETHERTYPE 1030        /* ext.: EtherType carried in RC */

/* Error codes: errno values. */
#define ST_OK 0
#define ST_EINVAL EINVAL             /* bad argument, option value, handle or header (st_tx) */
#define ST_ENOTCONN ENOTCONN         /* no connection (yet, or any more) */
#define ST_EISCONN EISCONN           /* already connected/listening */
#define ST_ECONNREFUSED ECONNREFUSED /* CA with R = 1 */
#define ST_ETIMEDOUT ETIMEDOUT       /* the peer did not answer (retries exhausted) */
#define ST_EWOULDBLOCK EWOULDBLOCK   /* st_rx timed out */
#define ST_EADDRINUSE EADDRINUSE     /* port or key already used */
#define ST_ENOPROTOOPT ENOPROTOOPT   /* unknown option */
#define ST_EACCES EACCES             /* read-only option, or settable only before connect */
#define ST_EFAULT EFAULT             /* memory not mapped for this use */
#define ST_EHOSTUNREACH EHOSTUNREACH /* host name not resolved */
#define ST_ENOMEM ENOMEM             /* no stack, no Mx left */
#define ST_EMSGSIZE EMSGSIZE         /* the data channel cannot carry a 256-byte STU */

    /** Allocate a connection handle on the default stack (opened on first use where the
     * adaptation provides a factory, as libst on Linux does: EPERM, ENODEV, ENETDOWN or
     * EMSGSIZE when it cannot open it; ENOMEM when there is no stack at all). */
    int st_create(st_chandle_t* chandle);
    /** Extension: allocate a connection handle on \p stack (a ns3::st::StBypassStack*). */
    int st_create_on(void* stack, st_chandle_t* chandle);
    /** Close (if open) and free a handle. */
    int st_delete(st_chandle_t chandle);

    /** Read an option into *(int *)optval. */
    int st_getopt(st_chandle_t chandle, int optname, void* optval);
    /** Set an option from *(const int *)optval. */
    int st_setopt(st_chandle_t chandle, int optname, void* optval);

    /** Listen on \p service (a port number) of the local address (\p hostname ignored). */
    int st_listen(st_chandle_t chandle, const char* hostname, const char* service);
    /** Block until a connection to the listened port is established; the handle becomes it. */
    int st_accept(st_chandle_t chandle);
    /** Connect to \p service (port number) of \p hostname; blocks until CA or timeout. */
    int st_connect(st_chandle_t chandle, const char* hostname, const char* service);
    /** Flush pending transmits, then tear the connection down (RD/DA/DC); blocks. */
    int st_close(st_chandle_t chandle);

    /** Register user memory for the connection; returns an mhandle and, with ST_PIN_RX, an Mx. */
    int st_map(st_chandle_t chandle,
               int flags,
               void* ptr,
               size_t len,
               int bufx_base,
               int bufx_count,
               st_mhandle_t* mhandle,
               int* mx);
    /** Forget a registration. */
    int st_unmap(st_mhandle_t mhandle);

    /** Send a non-connection ST header; DATA carries \p len bytes from local (bufx, off). */
    int st_tx(st_chandle_t chandle,
              st_header_t* hdr,
              void* opt_pay,
              unsigned int len,
              unsigned int bufx,
              unsigned int off);
    /** Receive the next header (and 32-byte optional payload); NULL timeout blocks forever. */
    int st_rx(st_chandle_t chandle, st_header_t* hdr, void* opt_pay, struct timeval* timeout);
    /** Extension: 1 if the last header st_rx returned carried an optional payload. */
    int st_rx_payload(st_chandle_t chandle);
    /** Block until \p threshold headers were sent (-1: all pending); *count = headers sent. */
    int st_flush(st_chandle_t chandle, int64_t threshold, int64_t* count);

    /*
     * Extensions for event-driven hosts, which cannot block: the halves of the blocking
     * routines. st_connect = st_connect_start, wait until st_connect_result is not
     * EINPROGRESS. st_accept, st_rx and st_flush return at once when their ready test is 1.
     * st_close = st_flush(-1), st_close_start, wait until st_close_ready.
     */
    /** Everything st_connect does before it waits: resolve, send RC. 0 = RC sent. */
    int st_connect_start(st_chandle_t chandle, const char* hostname, const char* service);
    /** EINPROGRESS while the RC is unanswered, then what st_connect returns. */
    int st_connect_result(st_chandle_t chandle);
    /** 1 if st_accept would return without waiting, 0 if not, -1 if not listening. */
    int st_accept_ready(st_chandle_t chandle);
    /** 1 if st_rx would return without waiting (a header is queued, or the VC closed). */
    int st_rx_ready(st_chandle_t chandle);
    /** 1 if st_flush(\p threshold) would return without waiting. */
    int st_flush_ready(st_chandle_t chandle, int64_t threshold);
    /** Begin the teardown (RD) without flushing; ENOTCONN if not connected. */
    int st_close_start(st_chandle_t chandle);
    /** 1 once the teardown st_close_start began is over (or there is no connection). */
    int st_close_ready(st_chandle_t chandle);
    /** The stack (a ns3::st::StBypassStack*) a handle belongs to, or NULL. */
    void* st_stack(st_chandle_t chandle);

    /** Seconds since some epoch (the default stack's clock). */
    double st_time(void);
    /** Human-readable version string. */
    const char* st_version(void);

#ifdef __cplusplus
}
#endif

#endif /* ST_BYPASS_H */
