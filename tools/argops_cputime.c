/* The issue #27 arg_max and top_k rows of bench/bench_argops.h (f32 [256,32000] logits, one
 * thread), timed as thread CPU time (CLOCK_THREAD_CPUTIME_ID) alternately with a read of the same
 * bytes (bench/harness.h's read bound: an OR over the src buffer itself), best of REPS each. On a
 * loaded shared host this is steadier than the bench's wall clock.
 *   cc -O2 -I. tools/argops_cputime.c -o argops_cputime -lpthread && ./argops_cputime [REPS [ISA]]
 * ISA caps the level (0 scalar .. 3 AVX-512). eff = read time / kernel time; top_k/arg_max is the
 * issue's second goal (<= 1.3). */
#include "bench/harness.h"
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    const int64_t rows = 256, cols = 32000, n = rows * cols, K = 50;
    int64_t dims[2] = {rows, cols}, kdims[2] = {rows, K}, odim = rows, j;
    int reps = argc > 1 ? atoi(argv[1]) : 20, isa = argc > 2 ? atoi(argv[2]) : -1, r;
    float *x = (float *)bench_alloc((size_t)n * 4), *vals = (float *)bench_alloc((size_t)rows * K * 4);
    int64_t *ia = (int64_t *)bench_alloc((size_t)rows * 8), *ik = (int64_t *)bench_alloc((size_t)rows * K * 8);
    uint64_t s = 12345;
    double ba = 1e9, bk = 1e9, br = 1e9;
    dnnlk_tensor src, ta, tk, tv;
    bench_read_ctx rc;
    if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa);
    for (j = 0; j < n; j++) { /* the bench's data: uniform in [-10, 10) */
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[j] = (float)(s >> 40) * (1.0f / 16777216.0f) * 20.0f - 10.0f;
    }
    src = bench_dense_tensor(x, dnnlk_f32, 2, dims);
    ta = bench_dense_tensor(ia, dnnlk_s64, 1, &odim);
    tk = bench_dense_tensor(ik, dnnlk_s64, 2, kdims);
    tv = bench_dense_tensor(vals, dnnlk_f32, 2, kdims);
    bench_read_init(&rc, x, (size_t)n * 4);
    for (r = 0; r < reps; r++) {
        double t = cpu();
        if (dnnlk_arg_max(&src, -1, 0, 0, NULL, &ta, 0, 1)) return 1;
        t = cpu() - t;
        if (t < ba) ba = t;
        t = cpu();
        bench_read_part(&rc, 0, 1);
        t = cpu() - t;
        if (t < br) br = t;
        t = cpu();
        if (dnnlk_top_k(&src, K, -1, 1, 1, &tv, &tk, NULL, 0, 1)) return 1;
        t = cpu() - t;
        if (t < bk) bk = t;
    }
    printf("%s  read %.4f ns/el | arg_max %.4f ns/el eff %.3f | top_k k=50 %.4f ns/el eff %.3f, %.2fx arg_max\n",
           dnnlk_isa_name(dnnlk_max_isa()), 1e9 * br / n, 1e9 * ba / n, br / ba, 1e9 * bk / n, br / bk, bk / ba);
    return 0;
}
