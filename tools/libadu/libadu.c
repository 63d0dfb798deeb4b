/*
 * libadu: application demand units (ADUs) reported by end hosts, as the thesis's libADU (spec
 * etalon-vdx-vdn.md §2.7). Loaded with LD_PRELOAD, it wraps the calls through which an application
 * hands bytes to a TCP socket (write, send, sendto, sendmsg, writev) and the ones that end a socket
 * (close, dup2, dup3), sums the bytes per flow, and a background thread POSTs one JSON array every
 * ADU_INTERVAL_MS to ADU_URL (the controller's POST /api/v1/circuit/adus, AduReport.fromJson):
 *   {"flow": {"src": ..., "srcPort": ..., "dst": ..., "dstPort": ..., "protocol": 6}, "bytes": N}
 *   {"flow": {...}, "closed": true}
 *
 * The application's path costs one atomic load and, for a TCP socket, one atomic add: what a flow
 * is (its 5-tuple) is looked up once per descriptor and cached in a table indexed by descriptor;
 * flows live in a fixed table, so nothing is allocated on that path. Every wrapper returns what
 * the real call returned, with its errno. The reporting thread never touches the application's
 * descriptors, calls the real functions, and gives up on an unreachable controller after a timeout,
 * dropping (and counting) that batch: the application never waits for the controller.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define ADU_EXPORT __attribute__((visibility("default")))

/* Descriptors below this are cached; writes on higher ones are not reported (counted). */
#define FD_SLOTS 65536
/* Flows open at once; a flow beyond it is not reported (counted). */
#define FLOW_SLOTS 8192
/* AduReport.MAX_BYTES: no interval's sum reaches it; one that did would be sent as this. */
#define MAX_REPORT_BYTES 1000000000000ULL
#define REPORTER_TIMEOUT_MS 1000

/* fd_state values: a flow's index is stored as FD_FLOW + index. */
#define FD_UNKNOWN 0u
#define FD_OTHER 1u
#define FD_FLOW 2u

struct tuple {
    int family;
    unsigned char src[16], dst[16];
    uint16_t sport, dport; /* host order */
};

struct flow {
    _Atomic uint64_t bytes;  /* written since the last report */
    struct tuple key;        /* set under flows_lock while the slot is free */
    int used;                /* under flows_lock */
    int fds;                 /* descriptors of this process naming it; under flows_lock */
    int closed;              /* its last descriptor closed; under flows_lock */
    int inherited;           /* opened before this process forked from its parent; under flows_lock */
};

struct report {
    struct tuple key;
    uint64_t bytes;
    int closed;
};

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*send_fn)(int, const void *, size_t, int);
typedef ssize_t (*sendto_fn)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
typedef ssize_t (*sendmsg_fn)(int, const struct msghdr *, int);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef int (*close_fn)(int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);

static write_fn real_write;
static send_fn real_send;
static sendto_fn real_sendto;
static sendmsg_fn real_sendmsg;
static writev_fn real_writev;
static close_fn real_close;
static dup2_fn real_dup2;
static dup3_fn real_dup3;

static _Atomic uint32_t fd_state[FD_SLOTS];
static struct flow flows[FLOW_SLOTS];
static int flows_high; /* no slot from here up was ever used; under flows_lock */
static pthread_mutex_t flows_lock = PTHREAD_MUTEX_INITIALIZER;

/* Set by the constructor: reporting is on only with a valid ADU_URL (off again if no thread can start). */
static _Atomic int active;
static struct sockaddr_in target;
static char target_host[64];
static char target_path[512];
static char token[512];
static long interval_ms = 50;
static long exit_ms = 200;
static int debug;
static pid_t owner_pid;

static _Atomic int reporter_started;
/* Dekker's pair between the reporting thread and the exit flush: a batch the thread has taken is
   either posted before the flush starts (bounded by ADU_EXIT_MS) or not taken at all. */
static _Atomic int posting, stopping;
static _Atomic unsigned long inflight_reports;
/* The reporting thread and the exit flush: nothing they do is reported. */
static __thread int in_libadu __attribute__((tls_model("initial-exec")));

static _Atomic unsigned long posted_batches, posted_reports, dropped_batches, dropped_reports,
    untracked_flows, untracked_fds;

static void *next_symbol(const char *name) {
    return dlsym(RTLD_NEXT, name);
}

static void resolve(void) {
    real_write = (write_fn) next_symbol("write");
    real_send = (send_fn) next_symbol("send");
    real_sendto = (sendto_fn) next_symbol("sendto");
    real_sendmsg = (sendmsg_fn) next_symbol("sendmsg");
    real_writev = (writev_fn) next_symbol("writev");
    real_close = (close_fn) next_symbol("close");
    real_dup2 = (dup2_fn) next_symbol("dup2");
    real_dup3 = (dup3_fn) next_symbol("dup3");
}

/* Another library's constructor may write before ours ran. */
#define ENSURE(fn) do { if (!(fn)) resolve(); } while (0)

/* http://A.B.C.D[:PORT][/PATH] (or localhost): no name lookup, which could block or recurse. */
static int parse_url(const char *url) {
    const char *p = url;
    if (strncmp(p, "http://", 7) != 0) {
        return -1;
    }
    p += 7;
    size_t hostlen = strcspn(p, ":/");
    if (hostlen == 0 || hostlen >= sizeof target_host) {
        return -1;
    }
    memcpy(target_host, p, hostlen);
    target_host[hostlen] = '\0';
    p += hostlen;
    long port = 80;
    if (*p == ':') {
        char *end;
        port = strtol(p + 1, &end, 10);
        if (end == p + 1 || port < 1 || port > 65535 || (*end != '\0' && *end != '/')) {
            return -1;
        }
        p = end;
    }
    const char *path = *p == '\0' ? "/" : p;
    if (strlen(path) >= sizeof target_path || strpbrk(path, " \r\n")) {
        return -1;
    }
    strcpy(target_path, path);
    memset(&target, 0, sizeof target);
    target.sin_family = AF_INET;
    target.sin_port = htons((uint16_t) port);
    const char *literal = strcmp(target_host, "localhost") == 0 ? "127.0.0.1" : target_host;
    if (inet_pton(AF_INET, literal, &target.sin_addr) != 1) {
        return -1;
    }
    return 0;
}

static long env_number(const char *name, long fallback, long min, long max) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') {
        return fallback;
    }
    char *end;
    long n = strtol(v, &end, 10);
    if (*end != '\0' || n < min || n > max) {
        fprintf(stderr, "libadu: %s=%s is not a number from %ld to %ld; using %ld\n", name, v, min, max, fallback);
        return fallback;
    }
    return n;
}

static void before_fork(void) {
    pthread_mutex_lock(&flows_lock);
}

static void after_fork_parent(void) {
    pthread_mutex_unlock(&flows_lock);
}

/*
 * The child has the parent's descriptors (and flows) but not its reporting thread: it reports its own
 * writes from now on with a thread of its own; what the parent wrote is the parent's to report.
 */
static void after_fork_child(void) {
    pthread_mutex_unlock(&flows_lock);
    owner_pid = getpid();
    atomic_store(&reporter_started, 0);
    atomic_store(&posting, 0);
    for (int i = 0; i < FLOW_SLOTS; i++) {
        atomic_store(&flows[i].bytes, 0);
        flows[i].closed = 0;
        flows[i].inherited = flows[i].used;
    }
}

static void flush_at_exit(void);

__attribute__((constructor)) static void libadu_init(void) {
    resolve();
    owner_pid = getpid();
    debug = env_number("ADU_DEBUG", 0, 0, 1);
    const char *url = getenv("ADU_URL");
    if (url == NULL || *url == '\0') {
        if (debug) {
            fprintf(stderr, "libadu: ADU_URL is not set; nothing is reported\n");
        }
        return;
    }
    if (parse_url(url) != 0) {
        fprintf(stderr, "libadu: ADU_URL=%s is not http://IPv4[:port][/path]; nothing is reported\n", url);
        return;
    }
    interval_ms = env_number("ADU_INTERVAL_MS", 50, 1, 3600000);
    exit_ms = env_number("ADU_EXIT_MS", 200, 0, 10000);
    const char *t = getenv("ADU_TOKEN");
    if (t != NULL && *t != '\0') {
        if (strlen(t) >= sizeof token || strpbrk(t, "\r\n")) {
            fprintf(stderr, "libadu: ADU_TOKEN is too long or has line breaks; it is not sent\n");
        } else {
            strcpy(token, t);
        }
    }
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    atomic_store(&active, 1);
}

/* ---- flows ---- */

static int read_tuple(int fd, struct tuple *t) {
    struct sockaddr_storage local, peer;
    socklen_t llen = sizeof local, plen = sizeof peer;
    if (getsockname(fd, (struct sockaddr *) &local, &llen) != 0
            || getpeername(fd, (struct sockaddr *) &peer, &plen) != 0
            || local.ss_family != peer.ss_family) {
        return -1;
    }
    memset(t, 0, sizeof *t);
    if (local.ss_family == AF_INET) {
        struct sockaddr_in *l = (struct sockaddr_in *) &local, *p = (struct sockaddr_in *) &peer;
        t->family = AF_INET;
        memcpy(t->src, &l->sin_addr, 4);
        memcpy(t->dst, &p->sin_addr, 4);
        t->sport = ntohs(l->sin_port);
        t->dport = ntohs(p->sin_port);
    } else {
        struct sockaddr_in6 *l = (struct sockaddr_in6 *) &local, *p = (struct sockaddr_in6 *) &peer;
        t->family = AF_INET6;
        memcpy(t->src, &l->sin6_addr, 16);
        memcpy(t->dst, &p->sin6_addr, 16);
        t->sport = ntohs(l->sin6_port);
        t->dport = ntohs(p->sin6_port);
    }
    return 0;
}

/* The flow of descriptor fd: index, or -1 for no TCP flow (yet). Called once per descriptor. */
static long classify(int fd, uint32_t *state) {
    int type = 0, protocol = 0, domain = 0;
    socklen_t len = sizeof type;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0) {
        *state = FD_OTHER; /* not a socket: a file, a pipe, a terminal */
        return -1;
    }
    len = sizeof domain;
    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len);
    len = sizeof protocol;
    getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &len);
    if (type != SOCK_STREAM || protocol != IPPROTO_TCP || (domain != AF_INET && domain != AF_INET6)) {
        *state = FD_OTHER;
        return -1;
    }
    struct tuple t;
    if (read_tuple(fd, &t) != 0) {
        *state = FD_UNKNOWN; /* not connected yet: asked again at the next write */
        return -1;
    }
    long found = -1, free_slot = -1;
    pthread_mutex_lock(&flows_lock);
    for (long i = 0; i < flows_high; i++) {
        if (!flows[i].used) {
            if (free_slot < 0) {
                free_slot = i;
            }
        } else if (!flows[i].closed && memcmp(&flows[i].key, &t, sizeof t) == 0) {
            found = i; /* dup(): another descriptor of the same connection */
            break;
        }
    }
    if (found < 0 && free_slot < 0 && flows_high < FLOW_SLOTS) {
        free_slot = flows_high++;
    }
    if (found < 0 && free_slot >= 0) {
        found = free_slot;
        flows[found].key = t;
        atomic_store(&flows[found].bytes, 0);
        flows[found].closed = 0;
        flows[found].inherited = 0;
        flows[found].used = 1;
    }
    if (found >= 0) {
        flows[found].fds++;
    }
    pthread_mutex_unlock(&flows_lock);
    if (found < 0) {
        atomic_fetch_add(&untracked_flows, 1);
        *state = FD_OTHER;
        return -1;
    }
    *state = FD_FLOW + (uint32_t) found;
    return found;
}

static void start_reporter(void);

/* After a write of n > 0 bytes to fd. */
static void record(int fd, ssize_t n) {
    if (fd < 0) {
        return;
    }
    if (fd >= FD_SLOTS) {
        atomic_fetch_add_explicit(&untracked_fds, 1, memory_order_relaxed);
        return;
    }
    uint32_t state = atomic_load_explicit(&fd_state[fd], memory_order_acquire);
    if (state == FD_OTHER) {
        return;
    }
    if (state == FD_UNKNOWN) {
        int saved = errno;
        long idx = classify(fd, &state);
        errno = saved;
        uint32_t expected = FD_UNKNOWN;
        if (!atomic_compare_exchange_strong(&fd_state[fd], &expected, state)) {
            /* another thread classified it first: its entry stands, our reference goes back */
            if (idx >= 0) {
                pthread_mutex_lock(&flows_lock);
                flows[idx].fds--;
                pthread_mutex_unlock(&flows_lock);
            }
            state = expected;
        }
        if (state < FD_FLOW) {
            return;
        }
    }
    atomic_fetch_add_explicit(&flows[state - FD_FLOW].bytes, (uint64_t) n, memory_order_relaxed);
    if (!atomic_load_explicit(&reporter_started, memory_order_relaxed)) {
        start_reporter(); /* the first TCP write of this process (or of a forked child) */
    }
}

/* Descriptor fd no longer names what it named (closed, or replaced by dup2/dup3). */
static void forget(int fd) {
    if (fd < 0 || fd >= FD_SLOTS) {
        return;
    }
    uint32_t state = atomic_load_explicit(&fd_state[fd], memory_order_relaxed);
    if (state == FD_UNKNOWN) {
        return;
    }
    if (state >= FD_FLOW && getpid() != owner_pid) {
        return; /* a vfork child shares our memory: its closes are not ours */
    }
    state = atomic_exchange(&fd_state[fd], FD_UNKNOWN);
    if (state >= FD_FLOW) {
        int saved = errno;
        pthread_mutex_lock(&flows_lock);
        struct flow *f = &flows[state - FD_FLOW];
        if (--f->fds == 0) {
            f->closed = 1;
        }
        pthread_mutex_unlock(&flows_lock);
        errno = saved;
    }
}

/* ---- the wrappers ---- */

#define REPORTING (!in_libadu && atomic_load_explicit(&active, memory_order_relaxed))

ADU_EXPORT ssize_t write(int fd, const void *buf, size_t count) {
    ENSURE(real_write);
    ssize_t n = real_write(fd, buf, count);
    if (n > 0 && REPORTING) {
        record(fd, n);
    }
    return n;
}

ADU_EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags) {
    ENSURE(real_send);
    ssize_t n = real_send(fd, buf, len, flags);
    if (n > 0 && REPORTING) {
        record(fd, n);
    }
    return n;
}

ADU_EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to, socklen_t tolen) {
    ENSURE(real_sendto);
    ssize_t n = real_sendto(fd, buf, len, flags, to, tolen);
    if (n > 0 && REPORTING) {
        record(fd, n);
    }
    return n;
}

ADU_EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
    ENSURE(real_sendmsg);
    ssize_t n = real_sendmsg(fd, msg, flags);
    if (n > 0 && REPORTING) {
        record(fd, n);
    }
    return n;
}

ADU_EXPORT ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    ENSURE(real_writev);
    ssize_t n = real_writev(fd, iov, iovcnt);
    if (n > 0 && REPORTING) {
        record(fd, n);
    }
    return n;
}

ADU_EXPORT int close(int fd) {
    ENSURE(real_close);
    if (REPORTING) {
        forget(fd);
    }
    return real_close(fd);
}

ADU_EXPORT int dup2(int oldfd, int newfd) {
    ENSURE(real_dup2);
    int r = real_dup2(oldfd, newfd);
    if (r >= 0 && oldfd != newfd && REPORTING) {
        int saved = errno;
        forget(newfd);
        errno = saved;
    }
    return r;
}

ADU_EXPORT int dup3(int oldfd, int newfd, int flags) {
    ENSURE(real_dup3);
    int r = real_dup3(oldfd, newfd, flags);
    if (r >= 0 && REPORTING) {
        int saved = errno;
        forget(newfd);
        errno = saved;
    }
    return r;
}

/* ---- reports ---- */

/*
 * Takes what every flow has to report: its bytes (one report per flow, however many writes), then
 * closed when its last descriptor closed, which frees the slot. At exit every flow still open is
 * closed too (the kernel closes it), except those a forked child shares with its parent. Returns how many reports were put in out (at most max).
 */
static size_t take_reports(struct report *out, size_t max, int at_exit) {
    size_t n = 0;
    pthread_mutex_lock(&flows_lock);
    for (int i = 0; i < flows_high && n + 2 <= max; i++) {
        struct flow *f = &flows[i];
        if (!f->used) {
            continue;
        }
        uint64_t bytes = atomic_exchange_explicit(&f->bytes, 0, memory_order_relaxed);
        if (bytes > MAX_REPORT_BYTES) {
            bytes = MAX_REPORT_BYTES; /* 1 TB in one interval: more than any host writes */
        }
        if (bytes > 0) {
            out[n++] = (struct report) {f->key, bytes, 0};
        }
        if (f->closed || (at_exit && !f->inherited)) {
            out[n++] = (struct report) {f->key, 0, 1};
            if (f->closed) {
                f->used = 0;
                f->closed = 0;
            }
        }
    }
    pthread_mutex_unlock(&flows_lock);
    return n;
}

static void address(const struct tuple *t, const unsigned char *a, char *out, size_t size) {
    if (t->family == AF_INET6 && IN6_IS_ADDR_V4MAPPED((const struct in6_addr *) a)) {
        inet_ntop(AF_INET, a + 12, out, (socklen_t) size); /* a dual-stack socket's IPv4 peer */
    } else {
        inet_ntop(t->family, a, out, (socklen_t) size);
    }
}

static size_t append_flow(char *buf, size_t at, size_t size, const struct tuple *t) {
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
    address(t, t->src, src, sizeof src);
    address(t, t->dst, dst, sizeof dst);
    int w = snprintf(buf + at, size - at,
            "{\"flow\":{\"src\":\"%s\",\"srcPort\":%u,\"dst\":\"%s\",\"dstPort\":%u,\"protocol\":6},",
            src, (unsigned) t->sport, dst, (unsigned) t->dport);
    return at + (size_t) w;
}

/* The JSON array of reports n; each report is at most ~200 characters, buf has room for all. */
static size_t to_json(const struct report *r, size_t n, char *buf, size_t size, size_t *count) {
    size_t at = 0;
    *count = 0;
    buf[at++] = '[';
    for (size_t i = 0; i < n; i++) {
        if (r[i].closed) {
            if (*count > 0) {
                buf[at++] = ',';
            }
            at = append_flow(buf, at, size, &r[i].key);
            at += (size_t) snprintf(buf + at, size - at, "\"closed\":true}");
            (*count)++;
            continue;
        }
        if (*count > 0) {
            buf[at++] = ',';
        }
        at = append_flow(buf, at, size, &r[i].key);
        at += (size_t) snprintf(buf + at, size - at, "\"bytes\":%llu}", (unsigned long long) r[i].bytes);
        (*count)++;
    }
    buf[at++] = ']';
    buf[at] = '\0';
    return at;
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for events on fd until deadline (CLOCK_MONOTONIC ms): 1 ready, 0 not. */
static int wait_for(int fd, short events, long long deadline) {
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            return 0;
        }
        struct pollfd p = {.fd = fd, .events = events};
        int r = poll(&p, 1, (int) left);
        if (r > 0) {
            return 1;
        }
        if (r < 0 && errno != EINTR) {
            return 0;
        }
    }
}

static int send_all(int fd, const char *data, size_t len, long long deadline) {
    while (len > 0) {
        ssize_t n = real_send(fd, data, len, MSG_NOSIGNAL);
        if (n > 0) {
            data += n;
            len -= (size_t) n;
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (!wait_for(fd, POLLOUT, deadline)) {
                return -1;
            }
        } else {
            return -1;
        }
    }
    return 0;
}

/* POSTs body with HTTP/1.1 (Connection: close); the response's status, or -1. Never past timeout_ms. */
static int post(const char *body, size_t len, long timeout_ms) {
    long long deadline = now_ms() + timeout_ms;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    int status = -1;
    if (connect(fd, (struct sockaddr *) &target, sizeof target) != 0) {
        if (errno != EINPROGRESS || !wait_for(fd, POLLOUT, deadline)) {
            goto done;
        }
        int err = 0;
        socklen_t elen = sizeof err;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0 || err != 0) {
            goto done;
        }
    }
    char head[1280];
    int h = snprintf(head, sizeof head,
            "POST %s HTTP/1.1\r\nHost: %s:%u\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
            "%s%s%sConnection: close\r\nUser-Agent: libadu\r\n\r\n",
            target_path, target_host, (unsigned) ntohs(target.sin_port), len,
            token[0] ? "Authorization: Bearer " : "", token, token[0] ? "\r\n" : "");
    if (h < 0 || (size_t) h >= sizeof head || send_all(fd, head, (size_t) h, deadline) != 0
            || send_all(fd, body, len, deadline) != 0) {
        goto done;
    }
    char reply[64];
    size_t got = 0;
    while (got < sizeof reply - 1 && memchr(reply, '\n', got) == NULL) {
        ssize_t n = recv(fd, reply + got, sizeof reply - 1 - got, 0);
        if (n > 0) {
            got += (size_t) n;
        } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (!wait_for(fd, POLLIN, deadline)) {
                goto done;
            }
        } else {
            break;
        }
    }
    reply[got] = '\0';
    int code;
    if (sscanf(reply, "HTTP/1.%*d %d", &code) == 1) {
        status = code;
    }
done:
    real_close(fd);
    return status;
}

static size_t report_capacity(void) {
    return 2 * FLOW_SLOTS;
}

/* Takes the reports and POSTs them in one batch; 0 when there was nothing to send. */
static int report_once(struct report *reports, char *json, size_t json_size, int at_exit, long timeout_ms) {
    size_t n = take_reports(reports, report_capacity(), at_exit);
    if (n == 0) {
        return 0;
    }
    size_t count;
    size_t len = to_json(reports, n, json, json_size, &count);
    atomic_store(&inflight_reports, count);
    int status = timeout_ms > 0 ? post(json, len, timeout_ms) : -1;
    atomic_store(&inflight_reports, 0);
    if (status >= 200 && status < 300) {
        atomic_fetch_add(&posted_batches, 1);
        atomic_fetch_add(&posted_reports, count);
    } else {
        atomic_fetch_add(&dropped_batches, 1);
        atomic_fetch_add(&dropped_reports, count);
        if (debug && atomic_load(&dropped_batches) == 1) {
            fprintf(stderr, "libadu: a batch of %zu reports dropped (%s %d); more are counted, not shown\n", count,
                    status < 0 ? "controller unreachable," : "HTTP status", status);
        }
    }
    return 1;
}

/* One report's JSON: two IPv6 addresses of at most 45 characters, five numbers, under 256 in all. */
#define REPORT_TEXT 256
#define JSON_SIZE(n) ((n) * REPORT_TEXT + 16)

static struct report *reporter_reports;
static char *reporter_json;

static void *reporter(void *arg) {
    (void) arg;
    in_libadu = 1;
    struct timespec pause = {.tv_sec = interval_ms / 1000, .tv_nsec = (interval_ms % 1000) * 1000000L};
    long timeout = interval_ms * 4 > REPORTER_TIMEOUT_MS ? interval_ms * 4 : REPORTER_TIMEOUT_MS;
    for (;;) {
        nanosleep(&pause, NULL);
        atomic_store(&posting, 1);
        if (!atomic_load(&stopping)) {
            report_once(reporter_reports, reporter_json, JSON_SIZE(report_capacity()), 0, timeout);
        }
        atomic_store(&posting, 0);
    }
    return NULL;
}

static void start_reporter(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&reporter_started, &expected, 1)) {
        return;
    }
    int saved = errno;
    in_libadu = 1;
    if (reporter_reports == NULL) {
        reporter_reports = calloc(report_capacity(), sizeof *reporter_reports);
        reporter_json = malloc(JSON_SIZE(report_capacity()));
    }
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* the application's signals are the application's */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    if (reporter_reports == NULL || reporter_json == NULL || pthread_create(&thread, &attr, reporter, NULL) != 0) {
        if (debug) {
            fprintf(stderr, "libadu: cannot start the reporting thread; nothing is reported\n");
        }
        atomic_store(&active, 0);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    in_libadu = 0;
    errno = saved;
}

/* The last interval's reports, and closed for every flow still open, with a short bound (ADU_EXIT_MS). */
__attribute__((destructor)) static void flush_at_exit(void) {
    if (!active || !atomic_load(&reporter_started)) {
        return; /* no TCP flow written: nothing to say */
    }
    int saved = errno;
    in_libadu = 1;
    long long deadline = now_ms() + exit_ms;
    atomic_store(&stopping, 1);
    struct timespec tick = {.tv_sec = 0, .tv_nsec = 1000000};
    while (atomic_load(&posting) && now_ms() < deadline) {
        nanosleep(&tick, NULL); /* the thread's batch in flight: lost if the process ended under it */
    }
    if (atomic_load(&posting)) {
        /* still waiting for the controller: that batch is lost with the process */
        atomic_fetch_add(&dropped_batches, 1);
        atomic_fetch_add(&dropped_reports, atomic_load(&inflight_reports));
    }
    long left = (long) (deadline - now_ms());
    struct report *reports = calloc(report_capacity(), sizeof *reports);
    char *json = malloc(JSON_SIZE(report_capacity()));
    if (reports != NULL && json != NULL) {
        /* no time left (or ADU_EXIT_MS=0): the last reports are counted as dropped, not sent */
        report_once(reports, json, JSON_SIZE(report_capacity()), 1, left > 0 && !atomic_load(&posting) ? left : 0);
    }
    free(reports);
    free(json);
    if (debug) {
        fprintf(stderr,
                "libadu: %lu batches posted (%lu reports), %lu batches dropped (%lu reports), "
                "%lu flows not tracked (table full), %lu writes on descriptors >= %d not tracked\n",
                atomic_load(&posted_batches), atomic_load(&posted_reports), atomic_load(&dropped_batches),
                atomic_load(&dropped_reports), atomic_load(&untracked_flows), atomic_load(&untracked_fds), FD_SLOTS);
    }
    in_libadu = 0;
    errno = saved;
}
