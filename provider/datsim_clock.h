/*
 * The simulated clock that libdatsim.so (the provider) shares with libdatsim_clock.so (the clock interposer that
 * `datsim exec` preloads). The interposer defines `datsim_clock`; the provider finds it with dlsym(RTLD_DEFAULT)
 * and, after every reply, stores the simulated time the reply carried and the thread CPU time at that moment.
 * Written by the thread that calls DAT, read by any thread; 64-bit aligned stores and loads.
 */
#ifndef DATSIM_CLOCK_H
#define DATSIM_CLOCK_H
#include <stdint.h>

struct datsim_clock {
    volatile uint64_t sim_ps;    /* simulated time of the last reply, picoseconds */
    volatile uint64_t cpu_ns;    /* the calling thread's CPU time when that reply came (CLOCK_THREAD_CPUTIME_ID) */
    volatile uint64_t scale_ppm; /* --cpu-scale in millionths: CPU time since the reply counts this much */
};

#endif
