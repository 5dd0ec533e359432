/*
 * bench: DAT calls per second through the bridge. Opens the IA named by -P (default datsim-A), creates a PZ, then
 * makes N calls of cheap provider calls (dat_get_handle_type, forwarded like any other) and
 * prints the rate. Build: make -C provider bench. Run against `datsim serve FABRIC --processes 1`.
 */
#include <dat2/udat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
    char *name = argc > 1 ? argv[1] : "datsim-A";
    long n = argc > 2 ? atol(argv[2]) : 200000;
    DAT_IA_HANDLE ia;
    DAT_EVD_HANDLE async = DAT_HANDLE_NULL;
    DAT_PZ_HANDLE pz;
    DAT_RETURN r = dat_ia_open(name, 8, &async, &ia);
    if (r != DAT_SUCCESS) { fprintf(stderr, "bench: dat_ia_open %s: 0x%x\n", name, r); return 1; }
    if ((r = dat_pz_create(ia, &pz)) != DAT_SUCCESS) { fprintf(stderr, "bench: dat_pz_create: 0x%x\n", r); return 1; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n; i++) {
        DAT_HANDLE_TYPE t;
        if ((r = dat_get_handle_type(pz, &t)) != DAT_SUCCESS || t != DAT_HANDLE_TYPE_PZ) {
            fprintf(stderr, "bench: dat_get_handle_type: 0x%x\n", r);
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("bench: %ld DAT calls in %.3f s\ncalls_per_second=%.0f\n", n, s, n / s);
    dat_pz_free(pz);
    dat_ia_close(ia, DAT_CLOSE_ABRUPT_FLAG);
    return 0;
}
