/* Shared by the tools/..._cputime.c programs: thread CPU time (CLOCK_THREAD_CPUTIME_ID),
 * page-aligned buffers already touched, and a kernel call timed alternately with a memcpy in one
 * process, best of reps each (steadier on a loaded shared host than wall-clock ratios). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
/* 2 MiB aligned and advised onto huge pages as the bench's buffers are (on 4 KiB pages the resize
 * rows' TLB misses, not the kernel, set the time), then touched */
static void *al(size_t b) {
    const size_t a = (size_t)2 << 20, n = (b + a - 1) / a * a;
    void *p = aligned_alloc(a, n);
    if (!p) { printf("out of memory\n"); exit(2); }
#ifdef MADV_HUGEPAGE
    (void)madvise(p, n, MADV_HUGEPAGE);
#endif
    memset(p, 1, b);
    return p;
}
/* run(ctx) is the kernel call (nonzero: its failing status); *bk and *bc get the best kernel and
 * memcpy(c0, c1, cb) times in seconds. Returns the first failing status, else 0. */
static inline int cputime_vs_memcpy(int (*run)(void *), void *ctx, void *c0, const void *c1, size_t cb, int reps, double *bk,
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
#ifdef WITH_ONEDNN
/* The tools that time oneDNN beside us (built with -DWITH_ONEDNN -ldnnl, run with
 * OMP_NUM_THREADS=1 so that oneDNN runs in the timed thread): one CPU engine and stream. */
#include <dnnl.h>
#define CHK(e) do { if ((e) != dnnl_success) { printf("oneDNN failed: %s\n", #e); exit(2); } } while (0)
static void onednn_open(dnnl_engine_t *eng, dnnl_stream_t *s) {
    CHK(dnnl_engine_create(eng, dnnl_cpu, 0));
    CHK(dnnl_stream_create(s, *eng, dnnl_stream_default_flags));
}
#endif
