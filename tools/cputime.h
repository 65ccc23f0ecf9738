/* Shared by the tools/..._cputime.c programs: thread CPU time (CLOCK_THREAD_CPUTIME_ID),
 * page-aligned buffers already touched, and a kernel call timed alternately with a memcpy in one
 * process, best of reps each (steadier on a loaded shared host than wall-clock ratios). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void *al(size_t b) { void *p = aligned_alloc(4096, (b + 4095) / 4096 * 4096); memset(p, 1, b); return p; }
/* run(ctx) is the kernel call (nonzero: its failing status); *bk and *bc get the best kernel and
 * memcpy(c0, c1, cb) times in seconds. Returns the first failing status, else 0. */
static int cputime_vs_memcpy(int (*run)(void *), void *ctx, void *c0, const void *c1, size_t cb, int reps, double *bk,
                             double *bc) {
    int r;
    *bk = *bc = 1e9;
    for (r = 0; r < reps; r++) {
        double t = cpu();
        int st = run(ctx);
        t = cpu() - t;
        if (st) { printf("status %d\n", st); return st; }
        if (t < *bk) *bk = t;
        t = cpu();
        memcpy(c0, c1, cb);
        t = cpu() - t;
        if (t < *bc) *bc = t;
    }
    return 0;
}
