/*
 * libdatsim_clock.so: the clock interposer that `datsim exec` preloads (LD_PRELOAD) into a uDAPL program, so that
 * the program's own timings are simulated time (docs/bridge.md, "Virtual time").
 *
 * gettimeofday, clock_gettime (CLOCK_REALTIME*, CLOCK_MONOTONIC*, CLOCK_BOOTTIME) and time() return the process's
 * simulated clock: the simulated time of the last reply from datsim serve (the provider stores it in `datsim_clock`
 * without any extra round trip), plus, with --cpu-scale F, the thread CPU time since that reply times F. Between
 * two calls the clock is held. The origin: the real clock of each kind when the library was loaded, so absolute
 * dates look ordinary and every difference is simulated time. Other clocks (CPU-time clocks) are the real ones.
 * Cycle counters (an rdtsc instruction) cannot be interposed; dtest and dapltest of dapl 2.1.10 read none (they
 * time with gettimeofday).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>
#include "datsim_clock.h"

struct datsim_clock datsim_clock;

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
static clock_gettime_fn real_clock_gettime;
static struct timespec base_real, base_mono;

static void setup(void) {
    if (real_clock_gettime) return;
    real_clock_gettime = (clock_gettime_fn) dlsym(RTLD_NEXT, "clock_gettime");
    if (!real_clock_gettime) real_clock_gettime = (clock_gettime_fn) dlsym(RTLD_DEFAULT, "__clock_gettime");
    real_clock_gettime(CLOCK_REALTIME, &base_real);
    real_clock_gettime(CLOCK_MONOTONIC, &base_mono);
}

__attribute__((constructor)) static void init(void) { setup(); }

/* The process's simulated time in nanoseconds since the library was loaded. */
static uint64_t sim_ns(void) {
    uint64_t ps = datsim_clock.sim_ps;
    uint64_t scale = datsim_clock.scale_ppm;
    if (scale) {
        struct timespec t;
        if (real_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0) {
            uint64_t now = (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
            uint64_t at = datsim_clock.cpu_ns;
            if (now > at) ps += (uint64_t) ((double) (now - at) * (double) scale / 1000.0);
        }
    }
    return ps / 1000;
}

static void add(const struct timespec *base, uint64_t ns, struct timespec *out) {
    uint64_t n = (uint64_t) base->tv_nsec + ns % 1000000000u;
    out->tv_sec = base->tv_sec + (time_t) (ns / 1000000000u) + (time_t) (n / 1000000000u);
    out->tv_nsec = (long) (n % 1000000000u);
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    setup();
    switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
        add(&base_real, sim_ns(), ts);
        return 0;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
        add(&base_mono, sim_ns(), ts);
        return 0;
    default:
        return real_clock_gettime(id, ts);
    }
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    (void) tz;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    tv->tv_sec = t.tv_sec;
    tv->tv_usec = t.tv_nsec / 1000;
    return 0;
}

time_t time(time_t *out) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    if (out) *out = t.tv_sec;
    return t.tv_sec;
}
