/*
 * The cost libadu adds to an application's writes: WRITES writes of SIZE bytes to a TCP loopback
 * connection (a thread drains the other end), to a Unix socket pair (a socket that is not TCP) or
 * to /dev/null (not a socket), timed with CLOCK_MONOTONIC. Run it with and without LD_PRELOAD
 * (overhead.sh does, several times, and prints the medians).
 *   adu-overhead tcp|unix|file [WRITES] [SIZE]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void *drain(void *arg) {
    int fd = *(int *) arg;
    char buf[1 << 16];
    while (read(fd, buf, sizeof buf) > 0) {
    }
    return NULL;
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "tcp";
    long writes = argc > 2 ? atol(argv[2]) : 1000000;
    size_t size = argc > 3 ? (size_t) atol(argv[3]) : 64;
    int out, in = -1;
    if (strcmp(mode, "tcp") == 0) {
        int listener = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        socklen_t len = sizeof a;
        if (listener < 0 || bind(listener, (struct sockaddr *) &a, sizeof a) != 0 || listen(listener, 1) != 0
                || getsockname(listener, (struct sockaddr *) &a, &len) != 0) {
            fail("listener");
        }
        out = socket(AF_INET, SOCK_STREAM, 0);
        if (out < 0 || connect(out, (struct sockaddr *) &a, sizeof a) != 0) {
            fail("connect");
        }
        in = accept(listener, NULL, NULL);
        if (in < 0) {
            fail("accept");
        }
        close(listener);
    } else if (strcmp(mode, "unix") == 0) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
            fail("socketpair");
        }
        out = pair[0];
        in = pair[1];
    } else if (strcmp(mode, "file") == 0) {
        out = open("/dev/null", O_WRONLY);
        if (out < 0) {
            fail("/dev/null");
        }
    } else {
        fprintf(stderr, "usage: adu-overhead tcp|unix|file [WRITES] [SIZE]\n");
        return 2;
    }
    pthread_t reader;
    if (in >= 0 && pthread_create(&reader, NULL, drain, &in) != 0) {
        fail("pthread_create");
    }
    char *buf = calloc(1, size);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < writes; i++) {
        size_t done = 0;
        while (done < size) {
            ssize_t n = write(out, buf + done, size - done);
            if (n <= 0) {
                fail("write");
            }
            done += (size_t) n;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double) (t1.tv_sec - t0.tv_sec) + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9;
    close(out);
    if (in >= 0) {
        pthread_join(reader, NULL);
        close(in);
    }
    printf("%s %ld writes of %zu bytes: %.3f s, %.0f ns/write\n", mode, writes, size, seconds, seconds * 1e9 / (double) writes);
    free(buf);
    return 0;
}
