/*
 * The reference latency client: one switch, one packet-in in flight, the socket read by spinning.
 * It does what the generator's latency mode does (EmulatedSwitch.java) in the least C that does it,
 * so the two can be compared on the same controller in the same run (bench/measure.sh):
 *
 * - the handshake and housekeeping a controller expects of a switch: HELLO, FEATURES_REPLY with
 *   ports 1-4, echo, barrier, configuration, description, port descriptions (1.3), empty statistics,
 *   role and async replies (1.3), and an error to what it cannot answer;
 * - DELAY ms after the FEATURES_REPLY, a gratuitous ARP from the destination MAC on port 2 (so a
 *   learning switch answers with flows), then the packet-in of cbench's addresses (a 64-byte IPv4/UDP
 *   frame from port 1 to 80:00:00:00:00:ss, from 02:ii:ii:ii:ii:ss, the source index cycling through
 *   MACS addresses, buffer ids through 256);
 * - a round trip ends with the answer to the packet-in in flight: a PACKET_OUT that carries no LLDP,
 *   or a FLOW_MOD that adds or modifies on that packet-in's buffer (no buffer for the ARP). Other
 *   FLOW_MODs (a controller installing the reverse direction first) answer nothing. A packet-in left
 *   unanswered for a second is counted and the next one sent.
 *
 * It never sleeps: the socket is non-blocking and read in a loop, so a round trip costs no wake-up.
 * It prints the round trips of each second on stdout; at the end, on stderr, what went unanswered and
 * the controller's errors.
 *
 * Build: cc -O2 -o pingpong bench/src/main/c/pingpong.c
 * Run:   pingpong [-D DELAY_MS] [-M MACS] [-d DPID] PORT [WIRE_VERSION [SECONDS]]
 *        (wire version 1 for OpenFlow 1.0, 4 for 1.3; defaults: 1, 5 s, -D 0, -M 100000, -d 1;
 *        the controller on 127.0.0.1).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HEADER 8
#define BUFFER_BYTES (256 * 1024)
#define PORTS 4
#define BUFFERS 256
#define NO_BUFFER 0xffffffffu
#define FRAME_LENGTH 64
#define UNANSWERED_NANOS 1000000000LL

enum { OF_10 = 1, OF_13 = 4 };
enum {
    HELLO = 0, ERROR = 1, ECHO_REQUEST = 2, ECHO_REPLY = 3, VENDOR = 4, FEATURES_REQUEST = 5, FEATURES_REPLY = 6,
    GET_CONFIG_REQUEST = 7, GET_CONFIG_REPLY = 8, SET_CONFIG = 9, PACKET_IN = 10, PACKET_OUT = 13, FLOW_MOD = 14
};
enum { STATS_DESC = 0, STATS_FLOW = 1, STATS_AGGREGATE = 2, STATS_TABLE = 3, STATS_PORT = 4, STATS_QUEUE = 5,
       STATS_GROUP = 6, STATS_GROUP_DESC = 7, STATS_METER = 9, STATS_METER_CONFIG = 10, STATS_TABLE_FEATURES = 12,
       STATS_PORT_DESC = 13 };
enum { BAD_REQUEST = 1, BAD_TYPE = 1, BAD_STAT = 2, BAD_VENDOR = 3 };

static int fd;
static uint8_t version;
static uint64_t dpid = 1;
static uint8_t in[BUFFER_BYTES], out[BUFFER_BYTES];
static size_t in_len, out_len;
static uint32_t xid = 100;
static uint16_t config_flags, miss_send_len = 128;
/* Latency: the packet-in in flight (its buffer id; waiting 0 when none), and the tallies. */
static int waiting;
static uint32_t in_flight_buffer;
static long long waiting_since;
static long round_trips, unanswered, errors;
static uint8_t first_error[4];

static long long nanos(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static uint8_t *put16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v; return p + 2; }
static uint8_t *put32(uint8_t *p, uint32_t v) { p = put16(p, v >> 16); return put16(p, v); }
static uint8_t *put48(uint8_t *p, uint64_t v) { p = put16(p, v >> 32); return put32(p, v); }
static uint8_t *put64(uint8_t *p, uint64_t v) { p = put32(p, v >> 32); return put32(p, v); }
static uint16_t get16(const uint8_t *p) { return (uint16_t) (p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) { return (uint32_t) get16(p) << 16 | get16(p + 2); }

/* Room for a message of n bytes at the end of the output; its start. */
static uint8_t *reserve(size_t n) {
    if (BUFFER_BYTES - out_len < n) {
        fprintf(stderr, "pingpong: the controller does not read what the switch sends\n");
        exit(1);
    }
    uint8_t *p = out + out_len;
    memset(p, 0, n);
    out_len += n;
    return p;
}

/* A message of `length` bytes with its header written; the body follows, zeroed. */
static uint8_t *message(uint8_t type, uint16_t length, uint32_t id) {
    uint8_t *p = reserve(length);
    p[0] = version;
    p[1] = type;
    put16(p + 2, length);
    put32(p + 4, id);
    return p + HEADER;
}

static void flush(void) {
    size_t at = 0;
    while (at < out_len) {
        ssize_t n = write(fd, out + at, out_len - at);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            fprintf(stderr, "pingpong: write: %s\n", strerror(errno));
            exit(1);
        }
        at += n > 0 ? (size_t) n : 0;
    }
    out_len = 0;
}

static void error_reply(const uint8_t *request, size_t length, uint16_t type, uint16_t code) {
    size_t quoted = length < 64 ? length : 64;
    uint8_t *p = message(ERROR, (uint16_t) (12 + quoted), get32(request + 4));
    p = put16(p, type);
    p = put16(p, code);
    memcpy(p, request, quoted);
}

static void put_name(uint8_t *p, const char *text) { memcpy(p, text, strlen(text)); }

/* 02:dd:dd:dd:dd:pp, as the generator's switches. */
static uint8_t *port_address(uint8_t *p, int port) {
    *p++ = 0x02;
    p = put32(p, (uint32_t) dpid);
    *p++ = (uint8_t) port;
    return p;
}

static void features_reply(uint32_t id) {
    int v10 = version == OF_10;
    uint8_t *p = message(FEATURES_REPLY, (uint16_t) (v10 ? 32 + PORTS * 48 : 32), id);
    p = put64(p, dpid);
    p = put32(p, BUFFERS);
    *p++ = 1;                                          /* tables */
    p += 3;                                            /* pad; auxiliary id 0 and pad on 1.3 */
    p = put32(p, 0x7);                                 /* flow, table and port statistics */
    p = put32(p, v10 ? 0x1 : 0);                       /* 1.0: actions (output); 1.3: reserved */
    for (int port = 1; v10 && port <= PORTS; port++) {
        p = put16(p, (uint16_t) port);
        p = port_address(p, port);
        char name[16];
        snprintf(name, sizeof name, "bench%d", port);
        put_name(p, name);
        p += 16 + 8;                                   /* name; config and state: up */
        p = put32(p, 1 << 6); p = put32(p, 1 << 6); p = put32(p, 1 << 6); p += 4;   /* 10 Gb/s full duplex */
    }
}

static uint8_t *stats_reply(uint32_t id, uint16_t type, size_t body) {
    int v10 = version == OF_10;
    uint8_t *p = message(v10 ? 17 : 19, (uint16_t) ((v10 ? 12 : 16) + body), id);
    p = put16(p, type);
    return p + (v10 ? 2 : 6);                          /* flags; and pad on 1.3 */
}

static void stats(const uint8_t *m, size_t length) {
    uint32_t id = get32(m + 4);
    int type = length >= 10 ? get16(m + 8) : -1, v13 = version == OF_13;
    if (type == STATS_DESC) {
        uint8_t *p = stats_reply(id, STATS_DESC, 256 + 256 + 256 + 32 + 256);
        char serial[32];
        put_name(p, "Heliograph");
        put_name(p + 256, "heliograph pingpong switch");
        put_name(p + 512, "reference latency client");
        snprintf(serial, sizeof serial, "%llu", (unsigned long long) dpid);
        put_name(p + 768, serial);
        put_name(p + 800, "pingpong switch");
    } else if (type == STATS_AGGREGATE) {
        stats_reply(id, STATS_AGGREGATE, 24);
    } else if (type == STATS_PORT_DESC && v13) {
        uint8_t *p = stats_reply(id, STATS_PORT_DESC, PORTS * 64);
        for (int port = 1; port <= PORTS; port++, p += 64) {
            uint8_t *q = put32(p, (uint32_t) port) + 4;
            q = port_address(q, port) + 2;
            char name[16];
            snprintf(name, sizeof name, "bench%d", port);
            put_name(q, name);
            q += 16 + 8;
            q = put32(q, 1 << 6); q = put32(q, 1 << 6); q = put32(q, 1 << 6); q += 4;
            q = put32(q, 10000000);
            put32(q, 10000000);                        /* current and maximum speed, kb/s */
        }
    } else if (type == STATS_FLOW || type == STATS_TABLE || type == STATS_PORT || type == STATS_QUEUE
               || (v13 && (type == STATS_GROUP || type == STATS_GROUP_DESC || type == STATS_METER
                           || type == STATS_METER_CONFIG || type == STATS_TABLE_FEATURES))) {
        stats_reply(id, (uint16_t) type, 0);
    } else {
        error_reply(m, length, BAD_REQUEST, BAD_STAT);
    }
}

/* The packet-in header of either version, `frame` bytes of frame to follow; the frame's start. */
static uint8_t *packet_in(uint32_t buffer, uint16_t in_port, size_t frame) {
    size_t fields = version == OF_10 ? 10 : 34;
    uint8_t *p = message(PACKET_IN, (uint16_t) (HEADER + fields + frame), xid++);
    p = put32(p, buffer);
    p = put16(p, (uint16_t) frame);
    if (version == OF_10) {
        return put16(p, in_port) + 2;                  /* reason NO_MATCH, pad */
    }
    p += 2 + 8;                                        /* reason TABLE_MISS, table 0, cookie */
    p = put16(p, 1);
    p = put16(p, 12);                                  /* OXM match: one 8-byte OXM */
    p = put32(p, 0x80000004);
    p = put32(p, in_port);                             /* IN_PORT */
    return p + 4 + 2;                                  /* pad the match to 16, pad before the frame */
}

static uint64_t destination(void) { return 0x800000000000ULL | (dpid & 0xff); }

static void gratuitous_arp(void) {
    uint8_t *p = packet_in(NO_BUFFER, 2, 60);
    uint64_t mac = destination();
    p = put48(p, 0xffffffffffffULL);
    p = put48(p, mac);
    p = put16(p, 0x0806);
    p = put16(p, 1); p = put16(p, 0x0800); *p++ = 6; *p++ = 4; p = put16(p, 2);      /* an ARP reply */
    p = put48(p, mac); p = put32(p, 0xc0a80128);
    p = put48(p, mac); put32(p, 0xc0a80128);
    waiting = 1;
    in_flight_buffer = NO_BUFFER;
    waiting_since = nanos();
}

static uint32_t next_buffer;
static uint32_t mac_index, macs = 100000;

static void probe(void) {
    uint8_t *f = packet_in(next_buffer, 1, FRAME_LENGTH), *ip = f + 14;
    f = put48(f, destination());
    f = put48(f, 0x020000000000ULL | (uint64_t) mac_index << 8 | (dpid & 0xff));
    put16(f, 0x0800);
    ip[0] = 0x45;
    put16(ip + 2, FRAME_LENGTH - 14);
    ip[8] = 64;
    ip[9] = 17;
    put32(ip + 12, 0xc0a80028);                        /* 192.168.0.40 */
    put32(ip + 16, 0xc0a80128);                        /* 192.168.1.40 */
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2) {
        sum += get16(ip + i);
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    put16(ip + 10, (uint16_t) ~sum);
    uint8_t *udp = ip + 20;
    put16(udp, 49152);
    put16(udp + 2, 9);
    put16(udp + 4, FRAME_LENGTH - 34);
    waiting = 1;
    in_flight_buffer = next_buffer;
    waiting_since = nanos();
    next_buffer = (next_buffer + 1) % BUFFERS;
    mac_index = (mac_index + 1) % macs;
}

static int carries_lldp(const uint8_t *m, size_t length) {
    size_t fixed = version == OF_10 ? 16 : 24, frame = fixed + get16(m + (version == OF_10 ? 14 : 16));
    if (length < fixed || frame + 14 > length) {
        return 0;
    }
    uint16_t type = get16(m + frame + 12);
    if (type == 0x8100 && frame + 18 <= length) {
        type = get16(m + frame + 16);
    }
    return type == 0x88cc;
}

static int answers_in_flight(const uint8_t *m, size_t length, uint8_t type) {
    if (!waiting) {
        return 0;
    }
    if (type == PACKET_OUT) {
        return !carries_lldp(m, length);
    }
    size_t command = version == OF_10 ? 56 : 25, buffer = version == OF_10 ? 64 : 32;
    if (length < buffer + 4) {
        return 0;
    }
    uint16_t c = version == OF_10 ? get16(m + command) : m[command];
    return c <= 2 && get32(m + buffer) == in_flight_buffer;     /* ADD, MODIFY, MODIFY_STRICT */
}

static long long features_at;   /* when the FEATURES_REPLY went out; 0 before */

static void handle(const uint8_t *m, size_t length) {
    uint8_t type = m[1];
    uint32_t id = get32(m + 4);
    int v10 = version == OF_10;
    if (type == FLOW_MOD || type == PACKET_OUT) {
        if (answers_in_flight(m, length, type)) {
            round_trips++;
            waiting = 0;
        }
    } else if (type == ECHO_REQUEST) {
        memcpy(message(ECHO_REPLY, (uint16_t) length, id), m + HEADER, length - HEADER);
    } else if (type == FEATURES_REQUEST) {
        features_reply(id);
        if (features_at == 0) {
            features_at = nanos();
        }
    } else if (type == GET_CONFIG_REQUEST) {
        uint8_t *p = message(GET_CONFIG_REPLY, 12, id);
        put16(put16(p, config_flags), miss_send_len);
    } else if (type == SET_CONFIG && length >= 12) {
        config_flags = get16(m + 8);
        miss_send_len = get16(m + 10);
    } else if (type == ERROR) {
        if (errors++ == 0 && length >= 12) {
            memcpy(first_error, m + 8, 4);
        }
    } else if (type == VENDOR) {
        error_reply(m, length, BAD_REQUEST, BAD_VENDOR);
    } else if (type == (v10 ? 16 : 18)) {
        stats(m, length);
    } else if (type == (v10 ? 18 : 20)) {
        message(v10 ? 19 : 21, HEADER, id);            /* BARRIER_REPLY */
    } else if (!v10 && type == 24 && length >= 24) {
        uint8_t *p = message(25, 24, id);              /* ROLE_REPLY: the role and generation id asked */
        memcpy(p, m + 8, 4);
        memcpy(p + 8, m + 16, 8);
    } else if (!v10 && type == 26) {
        uint8_t *p = message(27, 32, id);              /* GET_ASYNC_REPLY: 1.3's defaults */
        p = put32(p, 0x3); p = put32(p, 0); p = put32(p, 0x7); p = put32(p, 0x7); put32(p, 0xf);
    } else if (type == (v10 ? 20 : 22) || type > (v10 ? 21 : 29)) {
        error_reply(m, length, BAD_REQUEST, BAD_TYPE);
    }
    /* Anything else (HELLO, port, table, group, meter mods, set-async...) is accepted silently. */
}

/* Reads what there is, without waiting, and handles every whole message. */
static void pump(void) {
    ssize_t n = recv(fd, in + in_len, sizeof in - in_len, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        fprintf(stderr, "pingpong: %s\n", n == 0 ? "the controller closed the connection" : strerror(errno));
        exit(1);
    }
    if (n <= 0) {
        return;
    }
    in_len += (size_t) n;
    size_t at = 0;
    while (in_len - at >= HEADER) {
        size_t length = get16(in + at + 2);
        if (length < HEADER) {
            fprintf(stderr, "pingpong: the controller sent a message of length %zu; the stream cannot be read\n", length);
            exit(1);
        }
        if (in_len - at < length) {
            break;
        }
        handle(in + at, length);
        at += length;
    }
    memmove(in, in + at, in_len - at);
    in_len -= at;
    flush();
}

int main(int argc, char **argv) {
    long delay_ms = 0;
    int option;
    while ((option = getopt(argc, argv, "D:M:d:")) != -1) {
        if (option == 'D') {
            delay_ms = atol(optarg);
        } else if (option == 'M') {
            macs = (uint32_t) strtoul(optarg, NULL, 10);
        } else if (option == 'd') {
            dpid = strtoull(optarg, NULL, 0);
        } else {
            return 2;
        }
    }
    int args = argc - optind;
    if (args < 1 || args > 3) {
        fprintf(stderr, "Usage: pingpong [-D DELAY_MS] [-M MACS] [-d DPID] PORT [WIRE_VERSION [SECONDS]]\n");
        return 2;
    }
    int port = atoi(argv[optind]), seconds = args > 2 ? atoi(argv[optind + 2]) : 5;
    version = (uint8_t) (args > 1 ? atoi(argv[optind + 1]) : 1);
    if (port < 1 || port > 65535 || (version != OF_10 && version != OF_13) || seconds < 1 || delay_ms < 0
        || macs < 1 || dpid == 0) {
        fprintf(stderr, "pingpong: want a port 1-65535, wire version 1 or 4, at least 1 s, a delay of 0 ms or more,"
                        " at least 1 MAC and a nonzero datapath id\n");
        return 2;
    }
    fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t) port),
                                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (fd < 0 || connect(fd, (struct sockaddr *) &address, sizeof address) < 0) {
        fprintf(stderr, "pingpong: cannot connect to port %d: %s\n", port, strerror(errno));
        return 1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

    uint8_t *hello = message(HELLO, version == OF_10 ? HEADER : 16, 1);
    if (version == OF_13) {
        put32(put16(put16(hello, 1), 8), 1u << OF_13);   /* a version bitmap offering 1.3 only */
    }
    flush();
    while (features_at == 0 || nanos() - features_at < delay_ms * 1000000LL) {
        pump();
    }
    gratuitous_arp();
    flush();
    for (int s = 0; s < seconds; s++) {
        long before = round_trips;
        for (long long end = nanos() + 1000000000LL; nanos() < end;) {
            pump();
            if (!waiting) {
                probe();
                flush();
            } else if (nanos() - waiting_since >= UNANSWERED_NANOS) {
                unanswered++;
                probe();
                flush();
            }
        }
        printf("%ld round trips/s\n", round_trips - before);
        fflush(stdout);
    }
    if (unanswered > 0) {
        fprintf(stderr, "pingpong: %ld packet-ins unanswered for 1 s (the next one sent)\n", unanswered);
    }
    if (errors > 0) {
        fprintf(stderr, "pingpong: the controller sent %ld OpenFlow errors (the first: type %u code %u)\n", errors,
                get16(first_error), get16(first_error + 2));
    }
    close(fd);
    return 0;
}
