/*
 * libdatsim: a uDAPL (DAT 2.0) provider that forwards every call of struct dat_provider to a running
 * `datsim serve` over a Unix domain socket. All DAT semantics stay in datsim; this file only marshals.
 * Protocol: docs/bridge.md. Build: provider/Makefile (one gcc command).
 *
 * dat.conf instance data: "HOST SOCKET_PATH" (written by `datsim serve`); DATSIM_SOCKET overrides the path and
 * DATSIM_HOST the host.
 */
#include <dat2/udat.h>
#include <dat2/dat_registry.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <dat2/dat_ib_extensions.h> /* after netinet/in.h: it needs struct sockaddr_in6 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include "datsim_clock.h"
#include "datsim_protocol.h" /* the request codes, generated from org.datsim.scenario.bridge.Request */
#include <unistd.h>

enum { S_REPLY = 0, S_MEMREAD = 1, S_MEMWRITE = 2, S_SYNC = 3, P_MEMDATA = 0x8001 };
/* Connections that are not a call: datsim exec asking (C_INFO), a further thread of an attached program. */
enum { C_INFO = 0x4001, C_THREAD = 0x4002 };

/* A handle: libdat2 finds the provider through its first word (DAT_HANDLE_TO_PROVIDER). */
typedef struct dsh {
    DAT_PROVIDER *prov;
    uint32_t id;
    uint32_t type;
    DAT_SOCK_ADDR6 addr; /* an IA's address, a CR's remote address */
    unsigned char pdata[256]; /* a CR's private data */
} dsh;

static DAT_PROVIDER provider;
static char host_name[200];
static DAT_PROVIDER_INFO info_copy; /* libdat2 finds the provider again by these (dat_ia_close) */
static char sock_path[108];
/*
 * Threads: every thread of the program that calls DAT gets its own connection to the server (fd and the buffers
 * below are per thread), which the server treats as a consumer process of the same program: same host, same
 * handles, its own calls and waits. The first connection says hello and attaches the program; the others say
 * C_THREAD with the program's token. A thread's connection closes when the thread ends.
 */
static __thread int fd = -1;
static uint32_t program_token; /* nonzero once the program is attached (its secret: program_secret) */
enum { TOKEN_BYTES = 16 };
static unsigned char program_secret[TOKEN_BYTES]; /* from the hello reply: 128 random bits naming the program */
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t my_ip;
static dsh **table;
static uint32_t table_cap;

/* ---- the wire ---- */
typedef struct { unsigned char *b; size_t n, cap; } buf;
static __thread buf out, in;
static __thread size_t in_pos;

static void need(buf *x, size_t more) {
    if (x->n + more > x->cap) {
        size_t c = x->cap ? x->cap : 256;
        while (c < x->n + more) c *= 2;
        x->b = realloc(x->b, c);
        if (!x->b) { fprintf(stderr, "libdatsim: out of memory\n"); abort(); }
        x->cap = c;
    }
}
static void put(const void *p, size_t n) { need(&out, n); memcpy(out.b + out.n, p, n); out.n += n; }
static void p32(uint32_t v) { put(&v, 4); }
static void p64(uint64_t v) { put(&v, 8); }
static void pstr(const char *s) { uint32_t n = s ? strlen(s) : 0; p32(n); put(s, n); }
static void pid(DAT_HANDLE h) { p32(h ? ((dsh *) h)->id : 0); }
static void pbytes(const void *p, DAT_COUNT n) { p32(n > 0 && p ? n : 0); if (n > 0 && p) put(p, n); }
static void piov(DAT_COUNT n, const DAT_LMR_TRIPLET *t) {
    p32(n);
    for (DAT_COUNT i = 0; i < n; i++) { p32(t[i].lmr_context); p64(t[i].virtual_address); p64(t[i].segment_length); }
}
static void prmr(const DAT_RMR_TRIPLET *r) { p32(r->rmr_context); p64(r->virtual_address); p64(r->segment_length); }

static uint32_t g32(void) { uint32_t v = 0; if (in_pos + 4 <= in.n) memcpy(&v, in.b + in_pos, 4); in_pos += 4; return v; }
static uint64_t g64(void) { uint64_t v = 0; if (in_pos + 8 <= in.n) memcpy(&v, in.b + in_pos, 8); in_pos += 8; return v; }

static int full_io(int write_it, void *p, size_t n) {
    unsigned char *c = p;
    while (n > 0) {
        ssize_t k = write_it ? send(fd, c, n, MSG_NOSIGNAL) : recv(fd, c, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k; n -= (size_t) k;
    }
    return 0;
}

/*
 * The shared-memory transport (docs/bridge.md, Protocol; org.datsim.scenario.bridge.SharedRings has the same
 * layout): per connection, a file that datsim serve creates in its own 0700 directory in /dev/shm and names in its
 * handshake's reply; this library maps it (shm_map) and the server deletes it (DATSIM_SHM=0: the socket only). Two
 * single-producer single-consumer byte rings, up (library to server) and down (server to library), carry exactly
 * the bytes the socket would; the socket then carries only one-byte wake tokens, and its end of file. A side that finds nothing to read (or no room)
 * spins for at most spin_us (halved after a spin that failed, down to an eighth; doubled back after one that
 * succeeded), then sets its sleeping flag, makes a full fence, looks again and only then blocks in recv for a
 * token. The other side publishes (a release store), makes a full fence, reads the flag and, if set, clears it
 * and sends a token: each stores then loads the other's store across a full fence, so one of them sees the other's
 * (Dekker) and no wake-up is lost.
 */
enum { SHM_MAGIC = 0x4d485344, SHM_VERSION = 1, SHM_HEADER = 4096, SHM_RING = 1 << 20 };
enum { R_UP = 64, R_DOWN = 320, O_HEAD = 0, O_TAIL = 64, O_CSLEEP = 128, O_PSLEEP = 192 };
typedef struct {
    unsigned char *base; /* NULL: this connection uses the socket */
    uint32_t size;
    uint64_t up_head, down_tail; /* this side's own counters */
    uint64_t budget_ns;
} shm_conn;
static __thread shm_conn sh;
static uint64_t spin_ns; /* from the hello reply: datsim serve --spin-us */

static inline uint64_t *ctl(unsigned ring, unsigned off) { return (uint64_t *) (sh.base + ring + off); }

/* The real monotonic clock (the clock interposer, when preloaded, replaces clock_gettime with the simulated one). */
typedef int (*clock_fn)(clockid_t, struct timespec *);
static clock_fn real_clock;
static int syscall_clock(clockid_t id, struct timespec *t) { return (int) syscall(SYS_clock_gettime, id, t); }
static uint64_t real_now_ns(void) {
    if (!real_clock) {
        real_clock = (clock_fn) dlsym(RTLD_DEFAULT, "__clock_gettime");
        if (!real_clock) real_clock = syscall_clock;
    }
    struct timespec t;
    real_clock(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

static void wake_if(uint64_t *flag) {
    uint64_t one = 1;
    if (__atomic_load_n(flag, __ATOMIC_SEQ_CST)
            && __atomic_compare_exchange_n(flag, &one, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        char t = 1; /* a full socket already holds tokens the server has not read: one is enough */
        while (send(fd, &t, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR) {}
    }
}

static int shm_ready(int for_room) {
    if (for_room) return sh.up_head - __atomic_load_n(ctl(R_UP, O_TAIL), __ATOMIC_ACQUIRE) < sh.size;
    return __atomic_load_n(ctl(R_DOWN, O_HEAD), __ATOMIC_ACQUIRE) != sh.down_tail;
}

/* Waits until the down ring has bytes (for_room 0) or the up ring has room: 0, or -1 when the server is gone. */
static int shm_await(int for_room) {
    if (sh.budget_ns) {
        uint64_t t0 = real_now_ns();
        for (unsigned i = 1;; i++) {
            if (shm_ready(for_room)) {
                sh.budget_ns = sh.budget_ns * 2 < spin_ns ? sh.budget_ns * 2 : spin_ns;
                return 0;
            }
            if ((i & 15) == 0 && real_now_ns() - t0 >= sh.budget_ns) break;
            if (i < 256) __builtin_ia32_pause();
            else sched_yield();
        }
        sh.budget_ns = sh.budget_ns / 2 > spin_ns / 8 ? sh.budget_ns / 2 : spin_ns / 8;
    }
    uint64_t *flag = for_room ? ctl(R_UP, O_PSLEEP) : ctl(R_DOWN, O_CSLEEP);
    __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int rc = 0;
    if (!shm_ready(for_room)) {
        char b[256];
        ssize_t k;
        while ((k = recv(fd, b, sizeof b, 0)) < 0 && errno == EINTR) {}
        if (k <= 0) rc = -1;
    }
    __atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
    return rc;
}

static int shm_send(const void *p, size_t n) {
    const unsigned char *c = p;
    unsigned char *data = sh.base + SHM_HEADER;
    while (n > 0) {
        uint64_t room = sh.size - (sh.up_head - __atomic_load_n(ctl(R_UP, O_TAIL), __ATOMIC_ACQUIRE));
        if (room == 0) {
            if (shm_await(1)) return -1;
            continue;
        }
        size_t k = n < room ? n : room;
        size_t off = sh.up_head & (sh.size - 1), first = k < sh.size - off ? k : sh.size - off;
        memcpy(data + off, c, first);
        if (k > first) memcpy(data, c + first, k - first);
        sh.up_head += k;
        __atomic_store_n(ctl(R_UP, O_HEAD), sh.up_head, __ATOMIC_RELEASE);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        wake_if(ctl(R_UP, O_CSLEEP));
        c += k;
        n -= k;
    }
    return 0;
}

/* Receives at least one byte and at most cap from the down ring; -1 when the server is gone. */
static ssize_t shm_recv(void *p, size_t cap) {
    unsigned char *data = sh.base + SHM_HEADER + sh.size;
    for (;;) {
        uint64_t avail = __atomic_load_n(ctl(R_DOWN, O_HEAD), __ATOMIC_ACQUIRE) - sh.down_tail;
        if (avail > sh.size) {
            fprintf(stderr, "libdatsim: the shared ring's counters are corrupt\n");
            return -1;
        }
        if (avail) {
            size_t k = avail < cap ? avail : cap;
            size_t off = sh.down_tail & (sh.size - 1), first = k < sh.size - off ? k : sh.size - off;
            memcpy(p, data + off, first);
            if (k > first) memcpy((unsigned char *) p + first, data, k - first);
            sh.down_tail += k;
            __atomic_store_n(ctl(R_DOWN, O_TAIL), sh.down_tail, __ATOMIC_RELEASE);
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            wake_if(ctl(R_DOWN, O_PSLEEP));
            return (ssize_t) k;
        }
        if (shm_await(0)) return -1;
    }
}

/*
 * Maps the rings file the server created for this connection and named in its reply (in its own 0700 directory):
 * opened without following a link and without blocking, checked on the open descriptor (a regular file of this
 * user, of the size of the rings), and its header checked. Returns 0, or -1 after one message (the first time).
 */
static int shm_map(const char *path) {
    static int said;
    size_t len = SHM_HEADER + 2 * (size_t) SHM_RING;
    const char *why = NULL;
    unsigned char *m = MAP_FAILED;
    struct stat st;
    int f = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (f < 0) why = strerror(errno);
    else if (fstat(f, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (size_t) st.st_size != len)
        why = "not a regular file of this user of the rings' size";
    else if ((m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0)) == MAP_FAILED) why = strerror(errno);
    if (f >= 0) close(f);
    if (!why) {
        uint32_t h[3];
        memcpy(h, m, sizeof h);
        if (h[0] != SHM_MAGIC || h[1] != SHM_VERSION || h[2] != SHM_RING) {
            why = "not datsim's rings";
            munmap(m, len);
        }
    }
    if (why) {
        if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            fprintf(stderr, "libdatsim: cannot map the shared memory datsim serve offered (%s: %s): the bridge uses"
                    " the socket (slower)\n", path, why);
        return -1;
    }
    sh.base = m;
    sh.size = SHM_RING;
    sh.up_head = sh.down_tail = 0;
    sh.budget_ns = spin_ns;
    return 0;
}

/* Whether to ask for shared-memory rings: yes unless DATSIM_SHM=0. */
static uint32_t want_rings(void) {
    const char *e = getenv("DATSIM_SHM");
    return !(e && strcmp(e, "0") == 0);
}

/* After a handshake's reply: maps the rings it names (u32 length and path at in_pos), if any. */
static void shm_start(void) {
    uint32_t n = g32();
    char path[256];
    if (n == 0 || n >= sizeof path || in_pos + n > in.n) return;
    memcpy(path, in.b + in_pos, n);
    path[n] = 0;
    in_pos += n;
    shm_map(path); /* the server deletes the file once this side's first frame comes, through the rings or not */
}

static void shm_end(void) {
    if (sh.base) munmap(sh.base, SHM_HEADER + 2 * (size_t) sh.size);
    sh.base = NULL;
}

static void lost(void) {
    fprintf(stderr, "libdatsim: the connection to datsim serve (%s) is closed\n", sock_path);
    if (fd >= 0) close(fd);
    fd = -1;
    shm_end();
}

/* Sends bytes to the server: through the rings, or the socket. */
static int xmit(const void *p, size_t n) {
    return sh.base ? shm_send(p, n) : full_io(1, (void *) p, n);
}

/*
 * Simulated time. Every reply carries the simulated time (ps) at which datsim answered; the clock interposer
 * (datsim_clock.c), when `datsim exec` preloaded it, gets it through `datsim_clock` with no extra round trip.
 * With --cpu-scale (the hello reply says the factor), every request carries the thread CPU time since the last
 * reply, which datsim counts as simulated time before the call.
 */
static struct datsim_clock *shared_clock;
static uint64_t cpu_scale_ppm;
static __thread uint64_t cpu_at_reply;

static uint64_t thread_cpu_ns(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)) return 0;
    return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

static uint64_t cpu_since_reply(void) {
    if (!cpu_scale_ppm || !cpu_at_reply) return 0;
    uint64_t now = thread_cpu_ns();
    return now > cpu_at_reply ? now - cpu_at_reply : 0;
}

static void clock_after_call(uint64_t sim_ps) {
    if (cpu_scale_ppm) cpu_at_reply = thread_cpu_ns();
    if (shared_clock) {
        shared_clock->cpu_ns = cpu_at_reply;
        shared_clock->sim_ps = sim_ps;
    }
}

/* A request: u32 length, u32 code, u64 the thread CPU time since the last reply (ns; --cpu-scale), arguments. */
static void begin(uint32_t code) { out.n = 0; p32(0); p32(code); p64(cpu_since_reply()); }

/* Sends the request in `out` and waits for its reply, serving datsim's memory reads and writes meanwhile. */
/*
 * The side channel: while the program runs outside DAT calls for longer than datsim's grace period, simulated time
 * goes on, and the HCA's DMA to and from the program's memory comes on a second socket, served by this thread
 * (as a real HCA writes memory while the program computes or polls it).
 */
/* Moves a socket to a high descriptor: some programs close descriptors they no longer own (dtest closes its TCP
 * socket twice), which must not hit the provider's. */
static int high_fd(int s) {
    if (s < 0) return s;
    int h = fcntl(s, F_DUPFD_CLOEXEC, 900);
    if (h < 0) return s;
    close(s);
    return h;
}

static int send_all(int s, const void *p, size_t n) {
    const unsigned char *c = p;
    while (n > 0) {
        ssize_t k = send(s, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k; n -= (size_t) k;
    }
    return 0;
}

static int recv_all(int s, void *p, size_t n) {
    unsigned char *c = p;
    while (n > 0) {
        ssize_t k = recv(s, c, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k; n -= (size_t) k;
    }
    return 0;
}

static int side_fd = -1;
static pthread_t side_tid;

static void *side_thread(void *arg) {
    int s = (int) (intptr_t) arg;
    unsigned char *b = NULL;
    size_t cap = 0;
    for (;;) {
        uint32_t hdr[2];
        if (recv_all(s, hdr, 8)) break;
        size_t n = hdr[0] - 4;
        if (n > cap) { cap = n * 2; b = realloc(b, cap); if (!b) break; }
        if (n && recv_all(s, b, n)) break;
        if (hdr[1] == S_SYNC) { /* every write before it is applied: answer with no bytes */
            uint32_t h2[2] = {4, P_MEMDATA};
            if (send_all(s, h2, 8)) break;
            continue;
        }
        uint64_t a; uint32_t len;
        memcpy(&a, b, 8); memcpy(&len, b + 8, 4);
        if (hdr[1] == S_MEMWRITE) {
            memcpy((void *) (uintptr_t) a, b + 12, len);
        } else if (hdr[1] == S_MEMREAD) {
            uint32_t h2[2] = {len + 4, P_MEMDATA};
            if (send_all(s, h2, 8) || send_all(s, (void *) (uintptr_t) a, len)) break;
        }
    }
    free(b);
    return NULL;
}

static void open_side(const unsigned char *token) {
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", sock_path);
    int s = high_fd(socket(AF_UNIX, SOCK_STREAM, 0));
    if (s < 0 || connect(s, (struct sockaddr *) &a, sizeof a)) {
        if (s >= 0) close(s);
        return;
    }
    unsigned char f[8 + TOKEN_BYTES];
    uint32_t f0[2] = {4 + TOKEN_BYTES, C_SIDE};
    memcpy(f, f0, 8);
    memcpy(f + 8, token, TOKEN_BYTES);
    if (send(s, f, sizeof f, MSG_NOSIGNAL) != (ssize_t) sizeof f
            || pthread_create(&side_tid, NULL, side_thread, (void *) (intptr_t) s)) {
        close(s);
        return;
    }
    side_fd = s;
}

/* Stops the side thread before libdat2 unloads this library (its code must not vanish under it). */
static void close_side(void) {
    if (side_fd < 0) return;
    shutdown(side_fd, SHUT_RDWR);
    pthread_join(side_tid, NULL);
    close(side_fd);
    side_fd = -1;
}

/*
 * Replies are read through one buffer: a recv takes whatever the server has sent (usually the whole reply frame in
 * one system call), and `in` is a view of the current frame inside it, valid until the next call.
 */
static __thread buf rx;
static __thread size_t rx_start;

/* Makes at least `want` unread bytes available in rx, receiving as many as the socket has. */
static int fill(size_t want) {
    if (rx_start == rx.n) rx_start = rx.n = 0;
    if (rx.n - rx_start >= want) return 0;
    if (rx_start > 0) {
        memmove(rx.b, rx.b + rx_start, rx.n - rx_start);
        rx.n -= rx_start;
        rx_start = 0;
    }
    if (want > rx.cap) {
        size_t c = rx.cap ? rx.cap : 1 << 16;
        while (c < want) c *= 2;
        rx.b = realloc(rx.b, c);
        if (!rx.b) { fprintf(stderr, "libdatsim: out of memory\n"); abort(); }
        rx.cap = c;
    }
    while (rx.n < want) {
        ssize_t k = sh.base ? shm_recv(rx.b + rx.n, rx.cap - rx.n) : recv(fd, rx.b + rx.n, rx.cap - rx.n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        rx.n += (size_t) k;
    }
    return 0;
}

static int connect_thread(void);

static DAT_RETURN call(void) {
    if (fd < 0 && (!program_token || connect_thread())) return DAT_INTERNAL_ERROR;
    uint32_t len = out.n - 4;
    memcpy(out.b, &len, 4);
    if (xmit(out.b, out.n)) { lost(); return DAT_INTERNAL_ERROR; }
    for (;;) {
        uint32_t hdr[2];
        if (fill(8)) { lost(); return DAT_INTERNAL_ERROR; }
        memcpy(hdr, rx.b + rx_start, 8);
        if (hdr[0] < 4 || hdr[0] > (1u << 30)) {
            fprintf(stderr, "libdatsim: a frame of %u bytes from datsim serve: not the bridge protocol\n", hdr[0]);
            lost();
            return DAT_INTERNAL_ERROR;
        }
        if (fill(4 + (size_t) hdr[0])) { lost(); return DAT_INTERNAL_ERROR; }
        in.b = rx.b + rx_start + 8;
        in.n = hdr[0] - 4;
        in_pos = 0;
        rx_start += 4 + (size_t) hdr[0];
        if (hdr[1] == S_REPLY) {
            clock_after_call(g64());
            return (DAT_RETURN) g32();
        }
        uint64_t a = g64();
        uint32_t n = g32();
        if (hdr[1] == S_MEMWRITE) {
            memcpy((void *) (uintptr_t) a, in.b + in_pos, n);
        } else {
            uint32_t h2[2] = {n + 4, P_MEMDATA};
            if (xmit(h2, 8) || xmit((void *) (uintptr_t) a, n)) { lost(); return DAT_INTERNAL_ERROR; }
        }
    }
}

static dsh *handle(uint32_t id, uint32_t type) {
    if (id == 0) return NULL;
    pthread_mutex_lock(&table_lock);
    if (id >= table_cap) {
        uint32_t c = table_cap ? table_cap : 64;
        while (c <= id) c *= 2;
        table = realloc(table, c * sizeof *table);
        memset(table + table_cap, 0, (c - table_cap) * sizeof *table);
        table_cap = c;
    }
    if (!table[id]) {
        table[id] = calloc(1, sizeof(dsh));
        table[id]->prov = &provider;
        table[id]->id = id;
        table[id]->type = type;
    }
    dsh *h = table[id];
    pthread_mutex_unlock(&table_lock);
    return h;
}
static dsh *gh(uint32_t type) { return handle(g32(), type); }

static void set_addr(dsh *h, uint32_t ip) {
    struct sockaddr_in *s = (struct sockaddr_in *) &h->addr;
    s->sin_family = AF_INET;
    s->sin_addr.s_addr = htonl(ip);
}

/* A thread's connection closes when the thread ends (the key's value is fd + 1). */
static void thread_ends(void *v) {
    int s = (int) (intptr_t) v - 1;
    if (s >= 0) close(s);
    shm_end(); /* the thread's own rings (thread-local storage is still there in a key's destructor) */
}
static void make_thread_key(void) { pthread_key_create(&thread_key, thread_ends); }

static int open_socket(void) {
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", sock_path);
    int s = high_fd(socket(AF_UNIX, SOCK_STREAM, 0));
    if (s >= 0 && connect(s, (struct sockaddr *) &a, sizeof a)) {
        close(s);
        s = -1;
    }
    return s;
}

/* Connects a thread other than the first one that called DAT: C_THREAD with the program's token. */
static int connect_thread(void) {
    int s = open_socket();
    if (s < 0) {
        fprintf(stderr, "libdatsim: a thread cannot reach datsim serve at %s: %s\n", sock_path, strerror(errno));
        return -1;
    }
    unsigned char f[8 + 8 + TOKEN_BYTES + 4];
    uint32_t f0[2] = {4 + 8 + TOKEN_BYTES + 4, C_THREAD};
    uint64_t cpu = 0;
    uint32_t rings = want_rings();
    memcpy(f, f0, 8);
    memcpy(f + 8, &cpu, 8);
    memcpy(f + 16, program_secret, TOKEN_BYTES);
    memcpy(f + 16 + TOKEN_BYTES, &rings, 4);
    fd = s;
    uint32_t hdr[2];
    DAT_RETURN r = DAT_INTERNAL_ERROR;
    if (full_io(1, f, sizeof f) == 0 && fill(8) == 0) {
        memcpy(hdr, rx.b + rx_start, 8);
        if (hdr[1] == S_REPLY && hdr[0] >= 16 && hdr[0] < 4096 && fill(4 + hdr[0]) == 0) {
            in.b = rx.b + rx_start + 8;
            in.n = hdr[0] - 4;
            in_pos = 8;
            r = (DAT_RETURN) g32();
            rx_start += 4 + hdr[0];
        }
    }
    if (r != DAT_SUCCESS) {
        fprintf(stderr, "libdatsim: datsim serve refused a thread of this program (0x%x)\n", r);
        close(s);
        fd = -1;
        return -1;
    }
    g32(); /* the spin, as the hello's */
    shm_start();
    pthread_once(&thread_key_once, make_thread_key);
    pthread_setspecific(thread_key, (void *) (intptr_t) (s + 1));
    return 0;
}

static int connect_server(void) {
    if (fd >= 0) return 0;
    if (program_token) return connect_thread(); /* another thread attached the program */
    const char *env = getenv("DATSIM_SOCKET");
    if (env) snprintf(sock_path, sizeof sock_path, "%s", env);
    env = getenv("DATSIM_HOST"); /* dtest's client opens the provider name its server sends it */
    if (env) snprintf(host_name, sizeof host_name, "%s", env);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", sock_path);
    fd = high_fd(socket(AF_UNIX, SOCK_STREAM, 0));
    int rc = -1, tries = 0; /* the socket file appears at bind, a moment before datsim listens */
    while (fd >= 0 && (rc = connect(fd, (struct sockaddr *) &a, sizeof a)) != 0 && errno == ECONNREFUSED
            && ++tries < 50)
        usleep(20000);
    if (fd < 0 || rc != 0) {
        fprintf(stderr, "libdatsim: cannot reach datsim serve at %s: %s\n", sock_path, strerror(errno));
        if (fd >= 0) close(fd);
        fd = -1;
        return -1;
    }
    begin(C_HELLO);
    pstr(host_name);
    p32((uint32_t) getpid());
    p32(want_rings());
    DAT_RETURN r = call();
    if (r != DAT_SUCCESS) {
        fprintf(stderr, "libdatsim: datsim serve refused host %s (0x%x); see its output\n", host_name, r);
        close(fd);
        fd = -1;
        return -1;
    }
    my_ip = g32();
    if (in_pos + TOKEN_BYTES <= in.n) memcpy(program_secret, in.b + in_pos, TOKEN_BYTES);
    in_pos += TOKEN_BYTES;
    cpu_scale_ppm = g64();
    spin_ns = (uint64_t) g32() * 1000;
    shm_start();
    program_token = 1;
    shared_clock = (struct datsim_clock *) dlsym(RTLD_DEFAULT, "datsim_clock");
    if (shared_clock) shared_clock->scale_ppm = cpu_scale_ppm;
    if (cpu_scale_ppm) cpu_at_reply = thread_cpu_ns();
    open_side(program_secret);
    return 0;
}

static unsigned char no_pdata[256];

/* Reads an event written by the server (Protocol.writeEvent). */
static void get_event(DAT_EVENT *e) {
    memset(e, 0, sizeof *e);
    e->event_number = (DAT_EVENT_NUMBER) g32();
    e->evd_handle = gh(DAT_HANDLE_TYPE_EVD);
    dsh *ep = gh(DAT_HANDLE_TYPE_EP);
    dsh *cr = gh(DAT_HANDLE_TYPE_CR);
    dsh *sp = gh(DAT_HANDLE_TYPE_PSP);
    dsh *rmr = gh(DAT_HANDLE_TYPE_RMR);
    uint64_t cookie = g64();
    uint32_t status = g32();
    uint32_t op = g32();
    uint64_t length = g64();
    uint64_t qual = g64();
    uint32_t ip = g32();
    uint32_t pdlen = g32();
    unsigned char *pd = in.b + in_pos;
    in_pos += pdlen;
    switch ((int) e->event_number) {
    case DAT_IB_DTO_EVENT: { /* the IB extended DTOs: their type and immediate data follow the private data */
        DAT_IB_EXTENSION_EVENT_DATA *x = (DAT_IB_EXTENSION_EVENT_DATA *) e->event_extension_data;
        int32_t type = (int32_t) g32();
        uint32_t imm = g32();
        x->type = type >= 0 ? (DAT_IB_EXT_TYPE) type : (DAT_IB_EXT_TYPE) 0;
        x->status = status == DAT_DTO_SUCCESS ? DAT_OP_SUCCESS : DAT_IB_OP_ERR;
        x->val.immed.data = imm;
    }
        __attribute__((fallthrough)); /* the DTO fields as for a DAT_DTO_COMPLETION_EVENT */
    case DAT_DTO_COMPLETION_EVENT:
        e->event_data.dto_completion_event_data.ep_handle = ep;
        e->event_data.dto_completion_event_data.user_cookie.as_64 = cookie;
        e->event_data.dto_completion_event_data.status = (DAT_DTO_COMPLETION_STATUS) status;
        e->event_data.dto_completion_event_data.operation = (DAT_DTOS) op;
        e->event_data.dto_completion_event_data.transfered_length = length;
        break;
    case DAT_RMR_BIND_COMPLETION_EVENT:
        e->event_data.rmr_completion_event_data.rmr_handle = rmr;
        e->event_data.rmr_completion_event_data.user_cookie.as_64 = cookie;
        e->event_data.rmr_completion_event_data.status = (DAT_RMR_BIND_COMPLETION_STATUS) status;
        break;
    case DAT_CONNECTION_REQUEST_EVENT:
        if (cr) set_addr(cr, ip);
        e->event_data.cr_arrival_event_data.sp_handle.psp_handle = sp;
        e->event_data.cr_arrival_event_data.conn_qual = qual;
        e->event_data.cr_arrival_event_data.cr_handle = cr;
        e->event_data.cr_arrival_event_data.local_ia_address_ptr = (DAT_IA_ADDRESS_PTR) &handle(1, 0)->addr;
        break;
    case DAT_SOFTWARE_EVENT:
        e->event_data.software_event_data.pointer = (DAT_PVOID) (uintptr_t) cookie;
        break;
    default:
        if (e->event_number >= DAT_CONNECTION_EVENT_ESTABLISHED && e->event_number < DAT_ASYNC_ERROR_EVD_OVERFLOW) {
            e->event_data.connect_event_data.ep_handle = ep;
            if (pdlen > sizeof ep->pdata) pdlen = sizeof ep->pdata;
            if (ep && pdlen) memcpy(ep->pdata, pd, pdlen);
            e->event_data.connect_event_data.private_data_size = pdlen;
            e->event_data.connect_event_data.private_data = ep && pdlen ? ep->pdata : no_pdata;
        } else {
            e->event_data.asynch_error_event_data.dat_handle = ep;
        }
    }
}

/* Key/value answers (queries): a count, then pairs of (name, value). */
static int kv(const char *key, uint64_t *v) {
    size_t save = in_pos;
    uint32_t n = g32();
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = g32();
        const char *s = (const char *) in.b + in_pos;
        in_pos += k;
        uint64_t val = g64();
        if (k == strlen(key) && !memcmp(s, key, k)) { *v = val; in_pos = save; return 1; }
    }
    in_pos = save;
    return 0;
}
static uint64_t kvd(const char *key, uint64_t dflt) { uint64_t v; return kv(key, &v) ? v : dflt; }

static DAT_RETURN simple(uint32_t code, DAT_HANDLE h) { begin(code); pid(h); return call(); }
static DAT_RETURN simple2(uint32_t code, DAT_HANDLE h, uint64_t a) { begin(code); pid(h); p64(a); return call(); }
static DAT_RETURN create_out(DAT_HANDLE *o, uint32_t type) {
    DAT_RETURN r = call();
    if (r == DAT_SUCCESS && o) *o = gh(type);
    return r;
}
static DAT_RETURN unsupported(const char *name) { begin(C_UNSUPPORTED); pstr(name); return call(); }

/* ---- IA ---- */
static DAT_RETURN ia_open(const DAT_NAME_PTR name, DAT_COUNT qlen, DAT_EVD_HANDLE *async_evd, DAT_IA_HANDLE *ia) {
    if (connect_server()) return DAT_PROVIDER_NOT_FOUND;
    begin(C_IA_OPEN);
    pstr(name);
    p32(qlen);
    pid(async_evd ? *async_evd : NULL);
    DAT_RETURN r = call();
    if (r != DAT_SUCCESS) return r;
    dsh *h = gh(DAT_HANDLE_TYPE_IA);
    set_addr(h, my_ip);
    *ia = h;
    dsh *e = gh(DAT_HANDLE_TYPE_EVD);
    if (async_evd) *async_evd = e;
    return r;
}
static DAT_RETURN ia_close(DAT_IA_HANDLE ia, DAT_CLOSE_FLAGS f) { return simple2(C_IA_CLOSE, ia, f); }
static DAT_RETURN ia_query(DAT_IA_HANDLE ia, DAT_EVD_HANDLE *evd, DAT_IA_ATTR_MASK im, DAT_IA_ATTR *a,
        DAT_PROVIDER_ATTR_MASK pm, DAT_PROVIDER_ATTR *p) {
    (void) im; (void) pm;
    begin(C_IA_QUERY);
    pid(ia);
    DAT_RETURN r = call();
    if (r != DAT_SUCCESS) return r;
    if (evd) *evd = gh(DAT_HANDLE_TYPE_EVD); else g32();
    if (a) {
        memset(a, 0, sizeof *a);
        snprintf(a->adapter_name, sizeof a->adapter_name, "datsim-%s", host_name);
        snprintf(a->vendor_name, sizeof a->vendor_name, "datsim");
        a->ia_address_ptr = (DAT_IA_ADDRESS_PTR) &((dsh *) ia)->addr;
        a->max_eps = 1 << 16; a->max_evds = 1 << 16; a->max_lmrs = 1 << 16; a->max_pzs = 1 << 16;
        a->max_rmrs = 1 << 16; a->max_srqs = 1 << 16; a->max_ep_per_srq = 1 << 16;
        a->max_dto_per_ep = kvd("max_dto_per_ep", 1024);
        a->max_rdma_read_per_ep_in = kvd("max_rdma_read_per_ep_in", 16);
        a->max_rdma_read_per_ep_out = kvd("max_rdma_read_per_ep_out", 16);
        a->max_rdma_read_in = a->max_rdma_read_per_ep_in;
        a->max_rdma_read_out = a->max_rdma_read_per_ep_out;
        a->max_evd_qlen = kvd("max_evd_qlen", 65536);
        a->max_iov_segments_per_dto = kvd("max_iov_segments_per_dto", 16);
        a->max_iov_segments_per_rdma_read = a->max_iov_segments_per_dto;
        a->max_iov_segments_per_rdma_write = a->max_iov_segments_per_dto;
        a->max_lmr_block_size = (DAT_SEG_LENGTH) -1;
        a->max_lmr_virtual_address = (DAT_VADDR) -1;
        a->max_rmr_target_address = (DAT_VADDR) -1;
        a->max_message_size = kvd("max_message_size", 1 << 30);
        a->max_rdma_size = kvd("max_rdma_size", 1 << 30);
        a->max_recv_per_srq = kvd("max_recv_per_srq", 1024);
        a->extension_supported = DAT_EXTENSION_IB;
    }
    if (p) {
        memset(p, 0, sizeof *p);
        /* libdat2's dat_ia_close finds the provider again by this name: the dat.conf entry's */
        snprintf(p->provider_name, sizeof p->provider_name, "%s", info_copy.ia_name);
        p->provider_version_major = 2;
        p->dapl_version_major = info_copy.dapl_version_major;
        p->dapl_version_minor = info_copy.dapl_version_minor;
        p->is_thread_safe = info_copy.is_thread_safe;
        p->lmr_mem_types_supported = DAT_MEM_TYPE_VIRTUAL | DAT_MEM_TYPE_LMR;
        p->completion_flags_supported = DAT_COMPLETION_DEFAULT_FLAG;
        p->max_private_data_size = 196;
        p->ep_creator = DAT_PSP_CREATES_EP_NEVER;
        p->pz_support = DAT_PZ_UNIQUE;
        p->optimal_buffer_alignment = 64;
        p->srq_supported = (DAT_BOOLEAN) kvd("srq_supported", 1);
        p->srq_watermarks_supported = (DAT_COUNT) kvd("srq_watermarks_supported", 0);
        p->lmr_sync_req = (DAT_BOOLEAN) kvd("lmr_sync_req", 0);
        /* OFA dapl's named attributes that dapl's tests read (dtestsrq needs IB_MTU; dtest runs its RDMA Read and
         * ping-pong tests when DAT_IB_RDMA_READ is TRUE, dtestx its atomics when the atomics are) */
        static char mtu[16];
        static DAT_NAMED_ATTR named[6] = {
            {"DAT_IB_TRANSPORT_MTU", NULL}, {"DAT_IB_RDMA_READ", "TRUE"}, {"DAT_EXTENSION_INTERFACE", "TRUE"},
            {DAT_IB_ATTR_FETCH_AND_ADD, "TRUE"}, {DAT_IB_ATTR_CMP_AND_SWAP, "TRUE"}, {DAT_IB_ATTR_IMMED_DATA, "TRUE"}};
        snprintf(mtu, sizeof mtu, "%lu", (unsigned long) kvd("hca_mtu", 4096));
        named[0].value = mtu;
        p->num_provider_specific_attr = 6;
        p->provider_specific_attr = named;
    }
    return r;
}

static DAT_RETURN set_ctx(DAT_HANDLE h, DAT_CONTEXT c) { return simple2(C_SET_CTX, h, c.as_64); }
static DAT_RETURN get_ctx(DAT_HANDLE h, DAT_CONTEXT *c) {
    DAT_RETURN r = simple(C_GET_CTX, h);
    if (r == DAT_SUCCESS) c->as_64 = g64();
    return r;
}
static DAT_RETURN handle_type(DAT_HANDLE h, DAT_HANDLE_TYPE *t) {
    DAT_RETURN r = simple(C_HANDLE_TYPE, h);
    if (r == DAT_SUCCESS) *t = (DAT_HANDLE_TYPE) g32();
    return r;
}

/* ---- queries ---- */
static DAT_RETURN query(DAT_HANDLE h, uint32_t type) { begin(C_QUERY); pid(h); p32(type); return call(); }
static DAT_RETURN cr_query(DAT_CR_HANDLE cr, DAT_CR_PARAM_MASK m, DAT_CR_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(cr, DAT_HANDLE_TYPE_CR);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->remote_ia_address_ptr = (DAT_IA_ADDRESS_PTR) &((dsh *) cr)->addr;
    p->remote_port_qual = kvd("remote_port_qual", 0);
    uint32_t n = g32(); /* the map's count: skip the map, the private data follows it */
    for (uint32_t i = 0; i < n; i++) { in_pos += g32(); in_pos += 8; }
    uint32_t len = g32();
    if (len > sizeof((dsh *) cr)->pdata) len = sizeof((dsh *) cr)->pdata;
    if (in_pos + len <= in.n) memcpy(((dsh *) cr)->pdata, in.b + in_pos, len);
    p->private_data_size = len;
    p->private_data = ((dsh *) cr)->pdata;
    return r;
}
static DAT_RETURN evd_query(DAT_EVD_HANDLE evd, DAT_EVD_PARAM_MASK m, DAT_EVD_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(evd, DAT_HANDLE_TYPE_EVD);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    p->evd_qlen = kvd("evd_qlen", 0);
    p->evd_flags = kvd("evd_flags", 0);
    p->evd_state = kvd("evd_state", 0);
    return r;
}
static void get_ep_attr(DAT_EP_ATTR *a) {
    a->service_type = DAT_SERVICE_TYPE_RC;
    a->max_message_size = kvd("max_message_size", 0);
    a->max_rdma_size = kvd("max_rdma_size", 0);
    a->max_recv_dtos = kvd("max_recv_dtos", 0);
    a->max_request_dtos = kvd("max_request_dtos", 0);
    a->max_recv_iov = kvd("max_recv_iov", 0);
    a->max_request_iov = kvd("max_request_iov", 0);
    a->max_rdma_read_in = kvd("max_rdma_read_in", 0);
    a->max_rdma_read_out = kvd("max_rdma_read_out", 0);
    a->max_rdma_read_iov = a->max_request_iov;
    a->max_rdma_write_iov = a->max_request_iov;
    a->request_completion_flags = kvd("request_completion_flags", 0);
    a->recv_completion_flags = kvd("recv_completion_flags", 0);
}
static DAT_RETURN ep_query(DAT_EP_HANDLE ep, DAT_EP_PARAM_MASK m, DAT_EP_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(ep, DAT_HANDLE_TYPE_EP);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    p->ep_state = (DAT_EP_STATE) kvd("ep_state", 0);
    p->local_ia_address_ptr = (DAT_IA_ADDRESS_PTR) &handle(1, DAT_HANDLE_TYPE_IA)->addr;
    p->remote_port_qual = kvd("remote_port_qual", 0);
    get_ep_attr(&p->ep_attr);
    uint32_t n = g32(); /* skip the map: the remote address follows it */
    for (uint32_t i = 0; i < n; i++) { in_pos += g32(); in_pos += 8; }
    set_addr((dsh *) ep, g32());
    p->remote_ia_address_ptr = (DAT_IA_ADDRESS_PTR) &((dsh *) ep)->addr;
    return r;
}
static DAT_RETURN lmr_query(DAT_LMR_HANDLE l, DAT_LMR_PARAM_MASK m, DAT_LMR_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(l, DAT_HANDLE_TYPE_LMR);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    p->mem_type = DAT_MEM_TYPE_VIRTUAL;
    p->lmr_context = kvd("lmr_context", 0);
    p->rmr_context = kvd("rmr_context", 0);
    p->registered_address = kvd("registered_address", 0);
    p->registered_size = kvd("registered_size", 0);
    p->length = p->registered_size;
    p->region_desc.for_va = (DAT_PVOID) (uintptr_t) p->registered_address;
    p->mem_priv = kvd("mem_priv", 0);
    return r;
}
static DAT_RETURN rmr_query(DAT_RMR_HANDLE h, DAT_RMR_PARAM_MASK m, DAT_RMR_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(h, DAT_HANDLE_TYPE_RMR);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    p->rmr_context = kvd("rmr_context", 0);
    p->lmr_triplet.virtual_address = kvd("target_address", 0);
    p->lmr_triplet.segment_length = kvd("segment_length", 0);
    p->mem_priv = kvd("mem_priv", 0);
    return r;
}
static DAT_RETURN psp_query(DAT_PSP_HANDLE h, DAT_PSP_PARAM_MASK m, DAT_PSP_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(h, DAT_HANDLE_TYPE_PSP);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    p->conn_qual = kvd("conn_qual", 0);
    p->psp_flags = kvd("psp_flags", 0);
    return r;
}
static DAT_RETURN rsp_query(DAT_RSP_HANDLE h, DAT_RSP_PARAM_MASK m, DAT_RSP_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(h, DAT_HANDLE_TYPE_RSP);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    p->conn_qual = kvd("conn_qual", 0);
    return r;
}
static DAT_RETURN pz_query(DAT_PZ_HANDLE h, DAT_PZ_PARAM_MASK m, DAT_PZ_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(h, DAT_HANDLE_TYPE_PZ);
    if (r == DAT_SUCCESS) p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    return r;
}
static DAT_RETURN cno_query(DAT_CNO_HANDLE h, DAT_CNO_PARAM_MASK m, DAT_CNO_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(h, DAT_HANDLE_TYPE_CNO);
    if (r == DAT_SUCCESS) { memset(p, 0, sizeof *p); p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA); }
    return r;
}
static DAT_RETURN srq_query(DAT_SRQ_HANDLE h, DAT_SRQ_PARAM_MASK m, DAT_SRQ_PARAM *p) {
    (void) m;
    DAT_RETURN r = query(h, DAT_HANDLE_TYPE_SRQ);
    if (r != DAT_SUCCESS) return r;
    memset(p, 0, sizeof *p);
    p->ia_handle = handle(1, DAT_HANDLE_TYPE_IA);
    p->max_recv_dtos = kvd("max_recv_dtos", 0);
    p->max_recv_iov = kvd("max_recv_iov", 0);
    p->low_watermark = kvd("low_watermark", 0);
    p->available_dto_count = kvd("available_dto_count", 0);
    p->outstanding_dto_count = kvd("outstanding_dto_count", 0);
    return r;
}

/* ---- PZ, EVD, CNO ---- */
static DAT_RETURN pz_create(DAT_IA_HANDLE ia, DAT_PZ_HANDLE *pz) {
    begin(C_PZ_CREATE); pid(ia); return create_out(pz, DAT_HANDLE_TYPE_PZ);
}
static DAT_RETURN pz_free(DAT_PZ_HANDLE pz) { return simple(C_PZ_FREE, pz); }
static DAT_RETURN evd_create(DAT_IA_HANDLE ia, DAT_COUNT qlen, DAT_CNO_HANDLE cno, DAT_EVD_FLAGS f,
        DAT_EVD_HANDLE *evd) {
    begin(C_EVD_CREATE); pid(ia); p32(qlen); pid(cno); p32(f);
    return create_out(evd, DAT_HANDLE_TYPE_EVD);
}
static DAT_RETURN evd_free(DAT_EVD_HANDLE e) { return simple(C_EVD_FREE, e); }
static DAT_RETURN evd_wait(DAT_EVD_HANDLE evd, DAT_TIMEOUT t, DAT_COUNT threshold, DAT_EVENT *ev, DAT_COUNT *nmore) {
    begin(C_EVD_WAIT); pid(evd); p64(t); p32(threshold);
    DAT_RETURN r = call();
    uint32_t more = g32();
    if (nmore) *nmore = more;
    if (r == DAT_SUCCESS) get_event(ev);
    return r;
}
static DAT_RETURN evd_dequeue(DAT_EVD_HANDLE evd, DAT_EVENT *ev) {
    DAT_RETURN r = simple(C_EVD_DEQUEUE, evd);
    if (r == DAT_SUCCESS) get_event(ev);
    return r;
}
static DAT_RETURN evd_set_unwaitable(DAT_EVD_HANDLE e) { return simple2(C_EVD_UNWAITABLE, e, 1); }
static DAT_RETURN evd_clear_unwaitable(DAT_EVD_HANDLE e) { return simple2(C_EVD_UNWAITABLE, e, 0); }
static DAT_RETURN evd_enable(DAT_EVD_HANDLE e) { return simple2(C_EVD_ENABLE, e, 1); }
static DAT_RETURN evd_disable(DAT_EVD_HANDLE e) { return simple2(C_EVD_ENABLE, e, 0); }
static DAT_RETURN evd_resize(DAT_EVD_HANDLE e, DAT_COUNT q) { return simple2(C_EVD_RESIZE, e, (uint64_t) q); }
static DAT_RETURN evd_post_se(DAT_EVD_HANDLE e, const DAT_EVENT *ev) {
    return simple2(C_EVD_POST_SE, e, (uint64_t) (uintptr_t) ev->event_data.software_event_data.pointer);
}
static DAT_RETURN evd_modify_cno(DAT_EVD_HANDLE e, DAT_CNO_HANDLE c) {
    begin(C_EVD_MODIFY_CNO); pid(e); pid(c); return call();
}
static DAT_RETURN cno_create(DAT_IA_HANDLE ia, DAT_OS_WAIT_PROXY_AGENT agent, DAT_CNO_HANDLE *cno) {
    begin(C_CNO_CREATE); pid(ia); p32(agent.proxy_agent_func != NULL);
    return create_out(cno, DAT_HANDLE_TYPE_CNO);
}
static DAT_RETURN cno_free(DAT_CNO_HANDLE c) { return simple(C_CNO_FREE, c); }
static DAT_RETURN cno_wait(DAT_CNO_HANDLE c, DAT_TIMEOUT t, DAT_EVD_HANDLE *evd) {
    DAT_RETURN r = simple2(C_CNO_WAIT, c, t);
    if (r == DAT_SUCCESS) *evd = gh(DAT_HANDLE_TYPE_EVD);
    return r;
}
static DAT_RETURN cno_modify_agent(DAT_CNO_HANDLE c, DAT_OS_WAIT_PROXY_AGENT agent) {
    return simple2(C_CNO_MODIFY_AGENT, c, agent.proxy_agent_func != NULL);
}

/* ---- memory ---- */
static DAT_RETURN lmr_create(DAT_IA_HANDLE ia, DAT_MEM_TYPE type, DAT_REGION_DESCRIPTION region, DAT_VLEN length,
        DAT_PZ_HANDLE pz, DAT_MEM_PRIV_FLAGS priv, DAT_VA_TYPE va, DAT_LMR_HANDLE *lmr, DAT_LMR_CONTEXT *lctx,
        DAT_RMR_CONTEXT *rctx, DAT_VLEN *size, DAT_VADDR *addr) {
    (void) va;
    if (type != DAT_MEM_TYPE_VIRTUAL) return unsupported("dat_lmr_create with a memory type other than VIRTUAL");
    begin(C_LMR_CREATE); pid(ia); p64((uint64_t) (uintptr_t) region.for_va); p64(length); pid(pz); p32(priv);
    DAT_RETURN r = call();
    if (r != DAT_SUCCESS) return r;
    dsh *h = gh(DAT_HANDLE_TYPE_LMR);
    uint32_t lc = g32(), rc = g32();
    uint64_t sz = g64(), ad = g64();
    if (lmr) *lmr = h;
    if (lctx) *lctx = lc;
    if (rctx) *rctx = rc;
    if (size) *size = sz;
    if (addr) *addr = ad;
    return r;
}
static DAT_RETURN lmr_free(DAT_LMR_HANDLE l) { return simple(C_LMR_FREE, l); }
static DAT_RETURN lmr_sync(uint32_t write, DAT_IA_HANDLE ia, const DAT_LMR_TRIPLET *t, DAT_VLEN n) {
    begin(C_LMR_SYNC); pid(ia); p32(write); piov((DAT_COUNT) n, t); return call();
}
static DAT_RETURN lmr_sync_read(DAT_IA_HANDLE ia, const DAT_LMR_TRIPLET *t, DAT_VLEN n) { return lmr_sync(0, ia, t, n); }
static DAT_RETURN lmr_sync_write(DAT_IA_HANDLE ia, const DAT_LMR_TRIPLET *t, DAT_VLEN n) { return lmr_sync(1, ia, t, n); }
static DAT_RETURN rmr_create(DAT_PZ_HANDLE pz, DAT_RMR_HANDLE *rmr) {
    begin(C_RMR_CREATE); pid(pz); return create_out(rmr, DAT_HANDLE_TYPE_RMR);
}
static DAT_RETURN rmr_free(DAT_RMR_HANDLE r) { return simple(C_RMR_FREE, r); }
static DAT_RETURN rmr_bind(DAT_RMR_HANDLE rmr, DAT_LMR_HANDLE lmr, const DAT_LMR_TRIPLET *t, DAT_MEM_PRIV_FLAGS priv,
        DAT_VA_TYPE va, DAT_EP_HANDLE ep, DAT_RMR_COOKIE cookie, DAT_COMPLETION_FLAGS f, DAT_RMR_CONTEXT *ctx) {
    (void) va;
    begin(C_RMR_BIND); pid(rmr); pid(lmr); piov(1, t); p32(priv); pid(ep); p64(cookie.as_64); p32(f);
    DAT_RETURN r = call();
    if (r == DAT_SUCCESS && ctx) *ctx = g32();
    return r;
}

/* ---- endpoints and connections ---- */
static void pattr(const DAT_EP_ATTR *a) {
    p32(a != NULL);
    if (!a) return;
    p64(a->max_message_size); p64(a->max_rdma_size); p32(a->max_recv_dtos); p32(a->max_request_dtos);
    p32(a->max_recv_iov); p32(a->max_request_iov); p32(a->request_completion_flags);
    p32(a->recv_completion_flags); p32(a->max_rdma_read_in); p32(a->max_rdma_read_out);
}
static DAT_RETURN ep_create_srq(DAT_IA_HANDLE ia, DAT_PZ_HANDLE pz, DAT_EVD_HANDLE rv, DAT_EVD_HANDLE rq,
        DAT_EVD_HANDLE cn, DAT_SRQ_HANDLE srq, const DAT_EP_ATTR *a, DAT_EP_HANDLE *ep) {
    if (a && a->service_type != DAT_SERVICE_TYPE_RC) /* UD (DAT_IB_SERVICE_TYPE_UD) is not modelled */
        return unsupported("dat_ep_create with a service type other than RC (DAT_IB_SERVICE_TYPE_UD)");
    begin(C_EP_CREATE); pid(ia); pid(pz); pid(rv); pid(rq); pid(cn); pid(srq); pattr(a);
    return create_out(ep, DAT_HANDLE_TYPE_EP);
}
static DAT_RETURN ep_create(DAT_IA_HANDLE ia, DAT_PZ_HANDLE pz, DAT_EVD_HANDLE rv, DAT_EVD_HANDLE rq,
        DAT_EVD_HANDLE cn, const DAT_EP_ATTR *a, DAT_EP_HANDLE *ep) {
    return ep_create_srq(ia, pz, rv, rq, cn, NULL, a, ep);
}
static DAT_RETURN ep_free(DAT_EP_HANDLE ep) { return simple(C_EP_FREE, ep); }
static uint32_t ip_of(DAT_IA_ADDRESS_PTR a) {
    if (!a || a->sa_family != AF_INET) return 0;
    return ntohl(((struct sockaddr_in *) a)->sin_addr.s_addr);
}
static DAT_RETURN ep_connect(DAT_EP_HANDLE ep, DAT_IA_ADDRESS_PTR addr, DAT_CONN_QUAL q, DAT_TIMEOUT t, DAT_COUNT n,
        const DAT_PVOID pd, DAT_QOS qos, DAT_CONNECT_FLAGS f) {
    (void) qos; (void) f;
    begin(C_EP_CONNECT); pid(ep); p32(ip_of(addr)); p64(q); p64(t); pbytes(pd, n); return call();
}
static DAT_RETURN ep_dup_connect(DAT_EP_HANDLE ep, DAT_EP_HANDLE dup, DAT_TIMEOUT t, DAT_COUNT n, const DAT_PVOID pd,
        DAT_QOS qos) {
    (void) qos;
    begin(C_EP_DUP_CONNECT); pid(ep); pid(dup); p64(t); pbytes(pd, n); return call();
}
static DAT_RETURN ep_disconnect(DAT_EP_HANDLE ep, DAT_CLOSE_FLAGS f) { return simple2(C_EP_DISCONNECT, ep, f); }
static DAT_RETURN ep_reset(DAT_EP_HANDLE ep) { return simple(C_EP_RESET, ep); }
static DAT_RETURN ep_get_status(DAT_EP_HANDLE ep, DAT_EP_STATE *s, DAT_BOOLEAN *ri, DAT_BOOLEAN *qi) {
    DAT_RETURN r = simple(C_EP_GET_STATUS, ep);
    if (r != DAT_SUCCESS) return r;
    uint32_t st = g32(), a = g32(), b = g32();
    if (s) *s = (DAT_EP_STATE) st;
    if (ri) *ri = a;
    if (qi) *qi = b;
    return r;
}
static DAT_RETURN post(uint32_t code, DAT_EP_HANDLE ep, DAT_COUNT n, DAT_LMR_TRIPLET *iov, DAT_DTO_COOKIE c,
        const DAT_RMR_TRIPLET *rmr, DAT_COMPLETION_FLAGS f) {
    begin(code); pid(ep); piov(n, iov); p64(c.as_64); p32(f);
    if (rmr) prmr(rmr);
    return call();
}
static DAT_RETURN post_send(DAT_EP_HANDLE ep, DAT_COUNT n, DAT_LMR_TRIPLET *iov, DAT_DTO_COOKIE c,
        DAT_COMPLETION_FLAGS f) {
    return post(C_POST_SEND, ep, n, iov, c, NULL, f);
}
static DAT_RETURN post_recv(DAT_EP_HANDLE ep, DAT_COUNT n, DAT_LMR_TRIPLET *iov, DAT_DTO_COOKIE c,
        DAT_COMPLETION_FLAGS f) {
    return post(C_POST_RECV, ep, n, iov, c, NULL, f);
}
static DAT_RETURN post_read(DAT_EP_HANDLE ep, DAT_COUNT n, DAT_LMR_TRIPLET *iov, DAT_DTO_COOKIE c,
        const DAT_RMR_TRIPLET *r, DAT_COMPLETION_FLAGS f) {
    return post(C_POST_READ, ep, n, iov, c, r, f);
}
static DAT_RETURN post_write(DAT_EP_HANDLE ep, DAT_COUNT n, DAT_LMR_TRIPLET *iov, DAT_DTO_COOKIE c,
        const DAT_RMR_TRIPLET *r, DAT_COMPLETION_FLAGS f) {
    return post(C_POST_WRITE, ep, n, iov, c, r, f);
}
static DAT_RETURN psp_create(DAT_IA_HANDLE ia, DAT_CONN_QUAL q, DAT_EVD_HANDLE evd, DAT_PSP_FLAGS f,
        DAT_PSP_HANDLE *psp) {
    begin(C_PSP_CREATE); pid(ia); p64(q); pid(evd); p32(f); return create_out(psp, DAT_HANDLE_TYPE_PSP);
}
static DAT_RETURN psp_create_any(DAT_IA_HANDLE ia, DAT_CONN_QUAL *q, DAT_EVD_HANDLE evd, DAT_PSP_FLAGS f,
        DAT_PSP_HANDLE *psp) {
    begin(C_PSP_CREATE_ANY); pid(ia); pid(evd); p32(f);
    DAT_RETURN r = create_out(psp, DAT_HANDLE_TYPE_PSP);
    if (r == DAT_SUCCESS && q) *q = g64();
    return r;
}
static DAT_RETURN psp_free(DAT_PSP_HANDLE p) { return simple(C_PSP_FREE, p); }
static DAT_RETURN rsp_create(DAT_IA_HANDLE ia, DAT_CONN_QUAL q, DAT_EP_HANDLE ep, DAT_EVD_HANDLE evd,
        DAT_RSP_HANDLE *rsp) {
    begin(C_RSP_CREATE); pid(ia); p64(q); pid(ep); pid(evd); return create_out(rsp, DAT_HANDLE_TYPE_RSP);
}
static DAT_RETURN rsp_free(DAT_RSP_HANDLE r) { return simple(C_RSP_FREE, r); }
static DAT_RETURN cr_accept(DAT_CR_HANDLE cr, DAT_EP_HANDLE ep, DAT_COUNT n, const DAT_PVOID pd) {
    begin(C_CR_ACCEPT); pid(cr); pid(ep); pbytes(pd, n); return call();
}
static DAT_RETURN cr_reject(DAT_CR_HANDLE cr, DAT_COUNT n, const DAT_PVOID pd) {
    (void) n; (void) pd;
    return simple(C_CR_REJECT, cr);
}
static DAT_RETURN cr_handoff(DAT_CR_HANDLE cr, DAT_CONN_QUAL q) { return simple2(C_CR_HANDOFF, cr, q); }

/* ---- SRQ and the rest ---- */
static DAT_RETURN srq_create(DAT_IA_HANDLE ia, DAT_PZ_HANDLE pz, DAT_SRQ_ATTR *a, DAT_SRQ_HANDLE *srq) {
    begin(C_SRQ_CREATE); pid(ia); pid(pz); p32(a->max_recv_dtos); p32(a->max_recv_iov); p32(a->low_watermark);
    return create_out(srq, DAT_HANDLE_TYPE_SRQ);
}
static DAT_RETURN srq_free(DAT_SRQ_HANDLE s) { return simple(C_SRQ_FREE, s); }
static DAT_RETURN srq_post_recv(DAT_SRQ_HANDLE s, DAT_COUNT n, DAT_LMR_TRIPLET *iov, DAT_DTO_COOKIE c) {
    begin(C_SRQ_POST_RECV); pid(s); piov(n, iov); p64(c.as_64); return call();
}
static DAT_RETURN srq_resize(DAT_SRQ_HANDLE s, DAT_COUNT n) { return simple2(C_SRQ_RESIZE, s, (uint64_t) n); }
static DAT_RETURN srq_set_lw(DAT_SRQ_HANDLE s, DAT_COUNT n) { return simple2(C_SRQ_SET_LW, s, (uint64_t) n); }
static DAT_RETURN ep_recv_query(DAT_EP_HANDLE ep, DAT_COUNT *a, DAT_COUNT *b) {
    DAT_RETURN r = simple(C_EP_RECV_QUERY, ep);
    if (r != DAT_SUCCESS) return r;
    uint32_t x = g32(), y = g32();
    if (a) *a = x;
    if (b) *b = y;
    return r;
}
static DAT_RETURN ep_set_watermark(DAT_EP_HANDLE ep, DAT_COUNT s, DAT_COUNT h) {
    begin(C_EP_SET_WATERMARK); pid(ep); p32(s); p32(h); return call();
}

/* The calls datsim does not model: the server says so once, the program gets DAT_NOT_IMPLEMENTED. */
static DAT_RETURN ep_modify(DAT_EP_HANDLE a, DAT_EP_PARAM_MASK b, const DAT_EP_PARAM *c) {
    (void) a; (void) b; (void) c; return unsupported("dat_ep_modify");
}
static DAT_RETURN csp_create(DAT_IA_HANDLE a, DAT_COMM *b, DAT_IA_ADDRESS_PTR c, DAT_EVD_HANDLE d,
        DAT_CSP_HANDLE *e) {
    (void) a; (void) b; (void) c; (void) d; (void) e; return unsupported("dat_csp_create");
}
static DAT_RETURN csp_query(DAT_CSP_HANDLE a, DAT_CSP_PARAM_MASK b, DAT_CSP_PARAM *c) {
    (void) a; (void) b; (void) c; return unsupported("dat_csp_query");
}
static DAT_RETURN csp_free(DAT_CSP_HANDLE a) { (void) a; return unsupported("dat_csp_free"); }
static DAT_RETURN ep_common_connect(DAT_EP_HANDLE a, DAT_IA_ADDRESS_PTR b, DAT_TIMEOUT c, DAT_COUNT d,
        const DAT_PVOID e) {
    (void) a; (void) b; (void) c; (void) d; (void) e; return unsupported("dat_ep_common_connect");
}
static DAT_RETURN rmr_create_for_ep(DAT_PZ_HANDLE a, DAT_RMR_HANDLE *b) {
    (void) a; (void) b; return unsupported("dat_rmr_create_for_ep");
}
static DAT_RETURN post_send_inv(DAT_EP_HANDLE a, DAT_COUNT b, DAT_LMR_TRIPLET *c, DAT_DTO_COOKIE d,
        DAT_COMPLETION_FLAGS e, DAT_BOOLEAN f, DAT_RMR_CONTEXT g) {
    (void) a; (void) b; (void) c; (void) d; (void) e; (void) f; (void) g;
    return unsupported("dat_ep_post_send_with_invalidate");
}
static DAT_RETURN post_read_to_rmr(DAT_EP_HANDLE a, const DAT_RMR_TRIPLET *b, DAT_DTO_COOKIE c,
        const DAT_RMR_TRIPLET *d, DAT_COMPLETION_FLAGS e) {
    (void) a; (void) b; (void) c; (void) d; (void) e; return unsupported("dat_ep_post_rdma_read_to_rmr");
}
static DAT_RETURN cno_fd_create(DAT_IA_HANDLE a, DAT_FD *b, DAT_CNO_HANDLE *c) {
    (void) a; (void) b; (void) c; return unsupported("dat_cno_fd_create");
}
static DAT_RETURN cno_trigger(DAT_CNO_HANDLE a, DAT_EVD_HANDLE *b) {
    (void) a; (void) b; return unsupported("dat_cno_trigger");
}
static DAT_RETURN ia_ha_related(DAT_IA_HANDLE a, const DAT_NAME_PTR b, DAT_BOOLEAN *c) {
    (void) a; (void) b; (void) c; return unsupported("dat_ia_ha");
}
/* dat_extension_op: the IB extensions datsim models (RDMA Write with immediate data, the atomics), with the
 * arguments dat_ib_extensions.h's macros pass; the rest (UD, counters, collectives) are unsupported. */
static DAT_RETURN extendedop(DAT_HANDLE h, DAT_EXTENDED_OP op, va_list args) {
    DAT_COUNT n = 1;
    uint64_t a = 0, b = 0;
    uint32_t kind = 0;
    switch ((int) op) {
    case DAT_IB_RDMA_WRITE_IMMED_OP: {
        n = va_arg(args, DAT_COUNT);
        DAT_LMR_TRIPLET *iov = va_arg(args, DAT_LMR_TRIPLET *);
        DAT_DTO_COOKIE c = va_arg(args, DAT_DTO_COOKIE);
        DAT_RMR_TRIPLET *r = va_arg(args, DAT_RMR_TRIPLET *);
        uint32_t idata = va_arg(args, DAT_UINT32);
        int f = va_arg(args, int);
        begin(C_POST_WRITE_IMMED); pid(h); piov(n, iov); p64(c.as_64); p32((uint32_t) f); prmr(r); p32(idata);
        return call();
    }
    case DAT_IB_CMP_AND_SWAP_OP:
        kind = 1;
        a = va_arg(args, DAT_UINT64);
        b = va_arg(args, DAT_UINT64);
        break;
    case DAT_IB_FETCH_AND_ADD_OP:
        a = va_arg(args, DAT_UINT64);
        break;
    default: {
        static const char *names[] = {"FETCH_AND_ADD", "CMP_AND_SWAP", "RDMA_WRITE_IMMED", "UD_SEND",
            "QUERY_COUNTERS", "PRINT_COUNTERS"};
        char name[80];
        snprintf(name, sizeof name, "dat_extension_op %d (DAT_IB_%s_OP)", (int) op,
                (int) op >= 0 && (int) op < 6 ? names[(int) op] : "...");
        return unsupported(name);
    }
    }
    DAT_LMR_TRIPLET *iov = va_arg(args, DAT_LMR_TRIPLET *);
    DAT_DTO_COOKIE c = va_arg(args, DAT_DTO_COOKIE);
    DAT_RMR_TRIPLET *r = va_arg(args, DAT_RMR_TRIPLET *);
    int f = va_arg(args, int);
    begin(C_POST_ATOMIC); pid(h); p32(kind); p64(a); p64(b); piov(n, iov); p64(c.as_64); p32((uint32_t) f); prmr(r);
    return call();
}

static DAT_PROVIDER provider = {
    .device_name = "datsim",
    .ia_open_func = ia_open, .ia_query_func = ia_query, .ia_close_func = ia_close,
    .set_consumer_context_func = set_ctx, .get_consumer_context_func = get_ctx, .get_handle_type_func = handle_type,
    .cno_create_func = cno_create, .cno_modify_agent_func = cno_modify_agent, .cno_query_func = cno_query,
    .cno_free_func = cno_free, .cno_wait_func = cno_wait,
    .cr_query_func = cr_query, .cr_accept_func = cr_accept, .cr_reject_func = cr_reject, .cr_handoff_func = cr_handoff,
    .evd_create_func = evd_create, .evd_query_func = evd_query, .evd_modify_cno_func = evd_modify_cno,
    .evd_enable_func = evd_enable, .evd_disable_func = evd_disable, .evd_wait_func = evd_wait,
    .evd_resize_func = evd_resize, .evd_post_se_func = evd_post_se, .evd_dequeue_func = evd_dequeue,
    .evd_free_func = evd_free,
    .ep_create_func = ep_create, .ep_query_func = ep_query, .ep_modify_func = ep_modify,
    .ep_connect_func = ep_connect, .ep_dup_connect_func = ep_dup_connect, .ep_disconnect_func = ep_disconnect,
    .ep_post_send_func = post_send, .ep_post_recv_func = post_recv, .ep_post_rdma_read_func = post_read,
    .ep_post_rdma_write_func = post_write, .ep_get_status_func = ep_get_status, .ep_free_func = ep_free,
    .lmr_create_func = lmr_create, .lmr_query_func = lmr_query, .lmr_free_func = lmr_free,
    .rmr_create_func = rmr_create, .rmr_query_func = rmr_query, .rmr_bind_func = rmr_bind, .rmr_free_func = rmr_free,
    .psp_create_func = psp_create, .psp_query_func = psp_query, .psp_free_func = psp_free,
    .rsp_create_func = rsp_create, .rsp_query_func = rsp_query, .rsp_free_func = rsp_free,
    .pz_create_func = pz_create, .pz_query_func = pz_query, .pz_free_func = pz_free,
    .psp_create_any_func = psp_create_any, .ep_reset_func = ep_reset,
    .evd_set_unwaitable_func = evd_set_unwaitable, .evd_clear_unwaitable_func = evd_clear_unwaitable,
    .lmr_sync_rdma_read_func = lmr_sync_read, .lmr_sync_rdma_write_func = lmr_sync_write,
    .ep_create_with_srq_func = ep_create_srq, .ep_recv_query_func = ep_recv_query,
    .ep_set_watermark_func = ep_set_watermark, .srq_create_func = srq_create, .srq_free_func = srq_free,
    .srq_post_recv_func = srq_post_recv, .srq_query_func = srq_query, .srq_resize_func = srq_resize,
    .srq_set_lw_func = srq_set_lw,
    .csp_create_func = csp_create, .csp_query_func = csp_query, .csp_free_func = csp_free,
    .ep_common_connect_func = ep_common_connect, .rmr_create_for_ep_func = rmr_create_for_ep,
    .ep_post_send_with_invalidate_func = post_send_inv, .ep_post_rdma_read_to_rmr_func = post_read_to_rmr,
    .cno_fd_create_func = cno_fd_create, .cno_trigger_func = cno_trigger, .ia_ha_related_func = ia_ha_related,
#ifdef DAT_EXTENSIONS
    .handle_extendedop_func = extendedop,
#endif
};

/* libdat2 calls this when dat.conf names this library; instance data is "HOST SOCKET_PATH". */
void DAT_API dat_provider_init(const DAT_PROVIDER_INFO *info, const char *instance) {
    /* glibc loads libgcc_s (the unwinder) the first time a thread of the program ends by pthread_exit, as dapltest's
     * test threads do; loaded that late, while libdat2's destructor unloads this library at exit, it made ld.so
     * abort in _dl_fini ("Assertion `ns != LM_ID_BASE || i == nloaded' failed", dapltest -T S after -T P), losing
     * the program's buffered output. Loading it now, never to be unloaded, keeps the count of loaded objects steady. */
    dlopen("libgcc_s.so.1", RTLD_NOW | RTLD_NODELETE);
    if (instance) sscanf(instance, "%199s %107s", host_name, sock_path);
    if (info) {
        info_copy = *info;
        provider.device_name = info_copy.ia_name; /* dat_ia_close looks the provider up by this name */
    }
    DAT_RETURN r = dat_registry_add_provider(&provider, info);
    if (r != DAT_SUCCESS) fprintf(stderr, "libdatsim: dat_registry_add_provider: 0x%x\n", r);
}

void DAT_API dat_provider_fini(const DAT_PROVIDER_INFO *info) {
    dat_registry_remove_provider(&provider, info);
    close_side();
    if (fd >= 0) close(fd);
    fd = -1;
    shm_end();
}
