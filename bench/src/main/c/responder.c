/*
 * The reference of issue 4's goals: a minimal single-threaded C responder. It answers each
 * switch's HELLO with HELLO and FEATURES_REQUEST, each ECHO_REQUEST with its reply, and every
 * PACKET_IN with the same pre-encoded FLOW_MOD (add, match everything, output to port 2,
 * permanent: the bytes of ControllerMessages.flowMod) applied to the packet-in's buffer, as a
 * controller answers a buffered packet; everything else is ignored.
 * One thread, one epoll set; what one read brings is answered with one write. When a switch
 * stops reading (its socket is full), the responder stops reading from it too, so the generator
 * meets back-pressure as it would from a real controller.
 *
 * It does what the Java trivial responder (TrivialResponder.java) does, without a JVM, so the
 * generator's ceiling and the latency goal ("within 10% of the C responder") are measured against
 * what the issue names. Speaks OpenFlow 1.0 and 1.3, the generator's two versions.
 *
 * Build: cc -O2 -o c-responder bench/src/main/c/responder.c (bench/measure.sh does).
 * Run:   c-responder [-p PORT]   (default 6653; 0 picks a free port). It listens on 127.0.0.1 and
 *        prints "listening on port N" on stderr once it accepts connections.
 */
#define _GNU_SOURCE   /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUFFER_BYTES (256 * 1024)
#define HEADER 8
#define FLOW_MOD_LENGTH 80
#define PACKET_IN_BUFFER_ID 8       /* in both versions */
#define FLOW_MOD_BUFFER_ID_10 64
#define FLOW_MOD_BUFFER_ID_13 32
#define MAX_EVENTS 64

enum { OF_10 = 1, OF_13 = 4 };
enum { HELLO = 0, ECHO_REQUEST = 2, ECHO_REPLY = 3, FEATURES_REQUEST = 5, PACKET_IN = 10, FLOW_MOD = 14 };

struct connection {
    int fd;
    uint8_t version;            /* 0 until the switch's HELLO */
    const uint8_t *flow_mod;    /* the answer to a packet-in in that version */
    size_t in_len, out_len;
    int writing;                /* waiting for EPOLLOUT, not reading */
    uint8_t in[BUFFER_BYTES];
    uint8_t out[BUFFER_BYTES];
};

static uint8_t flow_mod_10[FLOW_MOD_LENGTH];
static uint8_t flow_mod_13[FLOW_MOD_LENGTH];

static uint8_t *put16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v; return p + 2; }
static uint8_t *put32(uint8_t *p, uint32_t v) { p = put16(p, v >> 16); return put16(p, v); }

static uint8_t *header(uint8_t *p, uint8_t version, uint8_t type, uint16_t length, uint32_t xid) {
    p[0] = version;
    p[1] = type;
    put16(p + 2, length);
    return put32(p + 4, xid);
}

/* The same 80 bytes per version as ControllerMessages.flowMod (xid 0). */
static void encode_flow_mods(void) {
    uint8_t *p = header(flow_mod_10, OF_10, FLOW_MOD, FLOW_MOD_LENGTH, 0);
    p = put32(p, 0x003fffff);             /* match: every field wildcarded */
    p += 36;                              /* the rest of ofp_match */
    p += 8;                               /* cookie */
    p = put16(p, 0);                      /* ADD */
    p += 4;                               /* idle, hard timeout */
    p = put16(p, 0x8000);                 /* priority */
    p = put32(p, 0xffffffff);             /* buffer: the packet-in's, set per answer */
    p = put16(p, 0xffff);                 /* out_port NONE */
    p += 2;                               /* flags */
    p = put16(p, 0); p = put16(p, 8); p = put16(p, 2); put16(p, 0);    /* output:2 */

    p = header(flow_mod_13, OF_13, FLOW_MOD, FLOW_MOD_LENGTH, 0);
    p += 16;                              /* cookie, cookie mask */
    p += 2;                               /* table 0, ADD */
    p += 4;                               /* idle, hard timeout */
    p = put16(p, 0x8000);                 /* priority */
    p = put32(p, 0xffffffff);             /* buffer: the packet-in's, set per answer */
    p = put32(p, 0xffffffff);             /* out_port ANY */
    p = put32(p, 0xffffffff);             /* out_group ANY */
    p += 4;                               /* flags, pad */
    p = put16(p, 1); p = put16(p, 4); p += 4;                          /* empty OXM match, padded to 8 */
    p = put16(p, 4); p = put16(p, 24); p += 4;                         /* APPLY_ACTIONS */
    p = put16(p, 0); p = put16(p, 16); p = put32(p, 2); put16(p, 0xffff); /* output:2, max_len, pad */
}

static int listen_on(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port),
                                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0
        || bind(fd, (struct sockaddr *) &address, sizeof address) < 0 || listen(fd, 1024) < 0) {
        fprintf(stderr, "c-responder: cannot listen on port %d: %s\n", port, strerror(errno));
        exit(1);
    }
    return fd;
}

static void close_connection(int epoll, struct connection *c) {
    epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c);
}

static void watch(int epoll, struct connection *c, int writing) {
    struct epoll_event event = { .events = writing ? EPOLLOUT : EPOLLIN, .data.ptr = c };
    c->writing = writing;
    epoll_ctl(epoll, EPOLL_CTL_MOD, c->fd, &event);
}

static void accept_all(int epoll, int server) {
    for (;;) {
        int fd = accept4(server, NULL, NULL, SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                fprintf(stderr, "c-responder: accept failed: %s\n", strerror(errno));
            }
            return;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct connection *c = calloc(1, sizeof *c);
        if (c == NULL) {
            fprintf(stderr, "c-responder: out of memory for a connection\n");
            close(fd);
            continue;
        }
        c->fd = fd;
        struct epoll_event event = { .events = EPOLLIN, .data.ptr = c };
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
    }
}

/* Answers every whole message there is room for; returns -1 on a stream it cannot frame. */
static int answer(struct connection *c) {
    size_t at = 0;
    while (c->in_len - at >= HEADER) {
        const uint8_t *m = c->in + at;
        size_t length = (size_t) m[2] << 8 | m[3];
        if (length < HEADER) {
            fprintf(stderr, "c-responder: unframeable stream (length %zu)\n", length);
            return -1;
        }
        if (c->in_len - at < length) {
            break;
        }
        uint8_t type = m[1];
        if (type == PACKET_IN && c->flow_mod != NULL) {
            if (BUFFER_BYTES - c->out_len < FLOW_MOD_LENGTH) {
                break;   /* answered once the switch has read what we sent */
            }
            memcpy(c->out + c->out_len, c->flow_mod, FLOW_MOD_LENGTH);
            if (length >= PACKET_IN_BUFFER_ID + 4) {
                size_t buffer_at = c->version == OF_10 ? FLOW_MOD_BUFFER_ID_10 : FLOW_MOD_BUFFER_ID_13;
                memcpy(c->out + c->out_len + buffer_at, m + PACKET_IN_BUFFER_ID, 4);
            }
            c->out_len += FLOW_MOD_LENGTH;
        } else if (BUFFER_BYTES - c->out_len < 64 + length) {
            break;
        } else if (type == HELLO) {
            if (m[0] != OF_10 && m[0] != OF_13) {
                fprintf(stderr, "c-responder: unsupported OpenFlow wire version %d\n", m[0]);
                return -1;
            }
            c->version = m[0];
            c->flow_mod = m[0] == OF_10 ? flow_mod_10 : flow_mod_13;
            header(c->out + c->out_len, c->version, HELLO, HEADER, 1);
            header(c->out + c->out_len + HEADER, c->version, FEATURES_REQUEST, HEADER, 2);
            c->out_len += 2 * HEADER;
        } else if (type == ECHO_REQUEST && c->version != 0) {
            memcpy(c->out + c->out_len, m, length);
            c->out[c->out_len] = c->version;
            c->out[c->out_len + 1] = ECHO_REPLY;
            c->out_len += length;
        }
        at += length;
    }
    memmove(c->in, c->in + at, c->in_len - at);
    c->in_len -= at;
    return 0;
}

/* Writes what is queued; returns -1 when the connection is gone. */
static int flush(struct connection *c) {
    if (c->out_len == 0) {
        return 0;
    }
    ssize_t n = write(c->fd, c->out, c->out_len);
    if (n < 0) {
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
    }
    memmove(c->out, c->out + n, c->out_len - n);
    c->out_len -= n;
    return 0;
}

static void serve(int epoll, struct connection *c, uint32_t events) {
    if (events & EPOLLOUT) {
        if (flush(c) < 0) {
            close_connection(epoll, c);
            return;
        }
    }
    if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && c->in_len < BUFFER_BYTES) {
        ssize_t n = read(c->fd, c->in + c->in_len, BUFFER_BYTES - c->in_len);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            close_connection(epoll, c);   /* closed by the switch */
            return;
        }
        if (n > 0) {
            c->in_len += n;
        }
    }
    if (answer(c) < 0 || flush(c) < 0) {
        close_connection(epoll, c);
        return;
    }
    int writing = c->out_len > 0;
    if (writing != c->writing) {
        watch(epoll, c, writing);
    }
}

int main(int argc, char **argv) {
    int port = 6653;
    /* A switch that closes while an answer is being written must end its connection, not the responder. */
    signal(SIGPIPE, SIG_IGN);
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
            long p = strtol(argv[++i], &end, 10);
            if (*end != '\0' || p < 0 || p > 65535) {
                fprintf(stderr, "c-responder: -p wants a port number 0-65535, not '%s'\n", argv[i]);
                return 2;
            }
            port = (int) p;
        } else {
            fprintf(stderr, "Usage: c-responder [-p PORT]   (default 6653; '%s' is not an option)\n", argv[i]);
            return 2;
        }
    }
    encode_flow_mods();
    int server = listen_on(port);
    struct sockaddr_in bound;
    socklen_t size = sizeof bound;
    getsockname(server, (struct sockaddr *) &bound, &size);
    int epoll = epoll_create1(0);
    struct epoll_event accepting = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(epoll, EPOLL_CTL_ADD, server, &accepting);
    fprintf(stderr, "c-responder: listening on port %d\n", ntohs(bound.sin_port));

    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int n = epoll_wait(epoll, events, MAX_EVENTS, -1);
        if (n < 0 && errno != EINTR) {
            fprintf(stderr, "c-responder: epoll_wait: %s\n", strerror(errno));
            return 1;
        }
        for (int i = 0; i < n; i++) {
            if (events[i].data.ptr == NULL) {
                accept_all(epoll, server);
            } else {
                serve(epoll, events[i].data.ptr, events[i].events);
            }
        }
    }
}
