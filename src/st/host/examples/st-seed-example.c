/*
 * st-seed-example.c: a C program written against the ST Bypass API draft (seed 001) and
 * nothing else: it follows the draft's client/server pseudo-code, then moves data the
 * bypass way (st_map, st_tx of a DATA into the peer's mapped memory, st_rx, st_flush).
 * Built as C99 and linked with libst only; on Linux libst opens $ST_INTERFACE.
 *
 *   server:  st-seed-example server PORT
 *   client:  st-seed-example client HOST PORT      (HOST: IPv4 address, name or MAC)
 *
 * Exit status 0 when the data arrived intact and both sides agree, 1 otherwise.
 */
#include "st.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 40000
#define NOP_OP 0x10  /* NOP */
#define DATA_OP 0x1B /* DATA */
#define SILENT 0x0080

static int
check(int rc, const char* what)
{
    if (rc != ST_OK)
    {
        fprintf(stderr, "st-seed-example: %s: %s\n", what, strerror(rc));
        exit(1);
    }
    return rc;
}

static unsigned char
pattern(size_t i)
{
    return (unsigned char)(i * 7 + 3);
}

/* Send a NOP whose optional payload carries text (the draft's st_tx of a control header). */
static void
send_note(st_chandle_t chandle, const char* text, unsigned int value)
{
    st_header_t hdr;
    char pay[32];
    memset(&hdr, 0, sizeof(hdr));
    memset(pay, 0, sizeof(pay));
    hdr.opflags = (uint16_t)(NOP_OP << 11);
    hdr.s_id = value;
    strncpy(pay, text, sizeof(pay) - 1);
    check(st_tx(chandle, &hdr, pay, 0, 0, 0), "st_tx(NOP)");
}

/* Wait for a NOP and return its s_id; its payload must start with \p text. */
static unsigned int
receive_note(st_chandle_t chandle, const char* text)
{
    st_header_t hdr;
    char pay[32];
    struct timeval timeout = {10, 0};
    for (;;)
    {
        check(st_rx(chandle, &hdr, pay, &timeout), "st_rx");
        if ((hdr.opflags >> 11) == NOP_OP)
        {
            break;
        }
    }
    if (strncmp(pay, text, strlen(text)) != 0)
    {
        fprintf(stderr, "st-seed-example: expected '%s', got '%.31s'\n", text, pay);
        exit(1);
    }
    return hdr.s_id;
}

int
main(int argc, char** argv)
{
    st_chandle_t chandle;
    const char *hostname, *service;
    int i_am_client, key = 0, slots = 64, mx = 0;
    st_mhandle_t mhandle;
    unsigned char* buffer;
    double t0;
    size_t i;
    int64_t count = 0;

    if (argc < 3 || (strcmp(argv[1], "client") == 0 && argc < 4))
    {
        fprintf(stderr, "usage: st-seed-example server PORT | client HOST PORT\n");
        return 1;
    }
    i_am_client = strcmp(argv[1], "client") == 0;
    printf("%s\n", st_version());

    /* Create an empty handle, set options, establish the connection (the draft's example). */
    check(st_create(&chandle), "st_create");
    check(st_setopt(chandle, ST_OPT_RX_WINDOW_LOCAL, &slots), "st_setopt");
    t0 = st_time();
    if (i_am_client)
    {
        hostname = argv[2];
        service = argv[3];
        check(st_connect(chandle, hostname, service), "st_connect");
    }
    else
    {
        hostname = NULL;
        service = argv[2];
        check(st_listen(chandle, hostname, service), "st_listen");
        check(st_accept(chandle), "st_accept");
    }
    check(st_getopt(chandle, ST_OPT_KEY_REMOTE, &key), "st_getopt");
    printf("connected, remote key 0x%08x\n", (unsigned)key);

    buffer = calloc(1, 65536);
    if (i_am_client)
    {
        /* Learn where the server mapped its memory, then write into it. */
        st_header_t hdr;
        unsigned int where = receive_note(chandle, "mapped");
        for (i = 0; i < SIZE; ++i)
        {
            buffer[i] = pattern(i);
        }
        check(st_map(chandle, ST_PIN_TX, buffer, 65536, 0, -1, &mhandle, NULL), "st_map");
        memset(&hdr, 0, sizeof(hdr));
        hdr.opflags = (uint16_t)((DATA_OP << 11) | SILENT);
        hdr.mx = (uint16_t)where;
        hdr.bufx = 0;
        hdr.offset = 0;
        check(st_tx(chandle, &hdr, NULL, SIZE, 0, 0), "st_tx(DATA)");
        send_note(chandle, "written", SIZE);
        check(st_flush(chandle, -1, &count), "st_flush");
        if (receive_note(chandle, "verified") != 1)
        {
            fprintf(stderr, "st-seed-example: the server found the data damaged\n");
            return 1;
        }
        printf("%d bytes written and verified in %.3f ms (%lld headers sent)\n",
               SIZE,
               (st_time() - t0) * 1e3,
               (long long)count);
        check(st_close(chandle), "st_close");
    }
    else
    {
        unsigned int ok = 1;
        check(st_map(chandle, ST_PIN_RX, buffer, 65536, 0, -1, &mhandle, &mx), "st_map");
        send_note(chandle, "mapped", (unsigned)mx);
        if (receive_note(chandle, "written") != SIZE)
        {
            ok = 0;
        }
        for (i = 0; i < SIZE && ok; ++i)
        {
            ok = buffer[i] == pattern(i);
        }
        send_note(chandle, "verified", ok);
        printf("%s %d bytes\n", ok ? "received intact" : "received DAMAGED", SIZE);
        /* The client closes; wait for it (st_rx answers ENOTCONN once the RD came). */
        {
            st_header_t hdr;
            struct timeval timeout = {10, 0};
            while (st_rx(chandle, &hdr, NULL, &timeout) == ST_OK)
            {
            }
        }
        if (!ok)
        {
            return 1;
        }
    }
    check(st_unmap(mhandle), "st_unmap");
    check(st_delete(chandle), "st_delete");
    free(buffer);
    return 0;
}
