/*
 * The smallest latency-mode client there is: one connection to the C responder (responder.c), one
 * packet-in written, the answering flow-mod read with a blocking read, again and again. It prints
 * the round trips of each second. Against the same responder it shows what a round trip costs on
 * the machine itself (wake-ups and loopback TCP), so the generator's latency mode can be compared
 * with it (docs/performance.md, "Where it stands").
 *
 * Build: cc -O2 -o pingpong bench/src/main/c/pingpong.c
 * Run:   pingpong PORT [WIRE_VERSION [SECONDS]]   (wire version 1 for OpenFlow 1.0, 4 for 1.3;
 *        default 1 and 5 s). Speaks only to the C responder: it sends no FEATURES_REPLY.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FLOW_MOD_LENGTH 80

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void read_exactly(int fd, uint8_t *b, size_t n) {
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, b + got, n - got);
        if (r <= 0) {
            fprintf(stderr, "pingpong: %s\n", r == 0 ? "the responder closed the connection" : strerror(errno));
            exit(1);
        }
        got += r;
    }
}

static void write_all(int fd, const uint8_t *b, size_t n) {
    if (write(fd, b, n) != (ssize_t) n) {
        fprintf(stderr, "pingpong: write: %s\n", strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "Usage: pingpong PORT [WIRE_VERSION [SECONDS]]\n");
        return 2;
    }
    int port = atoi(argv[1]), version = argc > 2 ? atoi(argv[2]) : 1, seconds = argc > 3 ? atoi(argv[3]) : 5;
    if (port < 1 || port > 65535 || (version != 1 && version != 4) || seconds < 1) {
        fprintf(stderr, "pingpong: want a port 1-65535, wire version 1 or 4 and at least 1 s\n");
        return 2;
    }
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port),
                                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (fd < 0 || connect(fd, (struct sockaddr *) &address, sizeof address) < 0) {
        fprintf(stderr, "pingpong: cannot connect to port %d: %s\n", port, strerror(errno));
        return 1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    uint8_t hello[8] = { version, 0, 0, 8, 0, 0, 0, 1 }, answer[FLOW_MOD_LENGTH];
    write_all(fd, hello, sizeof hello);
    read_exactly(fd, answer, 16);                      /* HELLO and FEATURES_REQUEST */
    /* A packet-in of cbench's size (header, body, 64-byte frame); the responder reads its header only. */
    uint8_t packet_in[8 + 24 + 64] = { version, 10, 0, sizeof packet_in };
    for (int s = 0; s < seconds; s++) {
        long trips = 0;
        for (double end = now() + 1; now() < end; trips++) {
            write_all(fd, packet_in, sizeof packet_in);
            read_exactly(fd, answer, FLOW_MOD_LENGTH);
        }
        printf("%ld round trips/s\n", trips);
        fflush(stdout);
    }
    close(fd);
    return 0;
}
