/* Scan forms over the arg_max row's data (f32 [256,32000], uniform in [-10, 10), a row at a time)
 * against the read bound (bench/harness.h's bench_read_part), thread CPU time, best of REPS each,
 * taken in turn in one process: the README's arg_max paragraph. Max accumulators (no compare)
 * against loops that compare every vector with a best-so-far (never exceeded here, so they only
 * scan), and max accumulators with a per-element NaN check added (the library's scan checks NaN
 * through MXCSR's invalid flag instead, at no cost per element). x86 with AVX-512 only.
 *   cc -O2 -I. tools/scan_probe.c -o scan_probe -lm -lpthread && ./scan_probe [REPS] */
#include "bench/harness.h"
#if DNNLK__X86
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
#define JOIN(p) _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(p)), _mm256_loadu_ps((p) + 8), 1)
#define KCMP(v) _mm512_cmp_ps_mask((v), mv, _CMP_NLE_UQ)
#define YCMP(p) _mm256_cmp_ps(_mm256_loadu_ps(p), ym, _CMP_NLE_UQ)
__attribute__((target("avx2"))) static long ymm_max(const float *p, long n) {
    __m256 a = _mm256_set1_ps(-1e30f), b = a, c = a, d = a;
    long i;
    for (i = 0; i < n; i += 32) {
        a = _mm256_max_ps(a, _mm256_loadu_ps(p + i)), b = _mm256_max_ps(b, _mm256_loadu_ps(p + i + 8));
        c = _mm256_max_ps(c, _mm256_loadu_ps(p + i + 16)), d = _mm256_max_ps(d, _mm256_loadu_ps(p + i + 24));
    }
    return _mm256_movemask_ps(_mm256_max_ps(_mm256_max_ps(a, b), _mm256_max_ps(c, d)));
}
__attribute__((target("avx512f,avx512dq"))) static long zmm_joined_max(const float *p, long n) {
    __m512 a = _mm512_set1_ps(-1e30f), b = a, c = a, d = a;
    long i;
    for (i = 0; i < n; i += 64) {
        a = _mm512_max_ps(a, JOIN(p + i)), b = _mm512_max_ps(b, JOIN(p + i + 16));
        c = _mm512_max_ps(c, JOIN(p + i + 32)), d = _mm512_max_ps(d, JOIN(p + i + 48));
    }
    return (long)_mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(a, b), _mm512_max_ps(c, d)));
}
/* four 512-bit vectors compared into mask registers, a branch per 64; joined: each vector two
 * 256-bit loads joined (the library's compare scan, arg_max's loop before the max-only scan and
 * now its path for rows with a NaN) */
__attribute__((target("avx512f,avx512dq"))) static long zmm_cmp(const float *p, long n, float m, int joined) {
    const __m512 mv = _mm512_set1_ps(m);
    long i, h = 0;
#define ZLD(q) (joined ? JOIN(q) : _mm512_loadu_ps(q))
    for (i = 0; i < n; i += 64)
        if (__builtin_expect((KCMP(ZLD(p + i)) | KCMP(ZLD(p + i + 16)) | KCMP(ZLD(p + i + 32)) | KCMP(ZLD(p + i + 48))) != 0, 0))
            h++;
#undef ZLD
    return h;
}
__attribute__((target("avx2"))) static long ymm_cmp(const float *p, long n, float m) {
    const __m256 ym = _mm256_set1_ps(m);
    long i, h = 0;
    for (i = 0; i < n; i += 32)
        if (__builtin_expect(_mm256_movemask_ps(_mm256_or_ps(_mm256_or_ps(YCMP(p + i), YCMP(p + i + 8)),
                                                             _mm256_or_ps(YCMP(p + i + 16), YCMP(p + i + 24)))) != 0, 0))
            h++;
    return h;
}
/* 256-bit max accumulators with the NaN check a max-only scan would need without the flag: an
 * unordered compare per pair of vectors OR'ed into a vector, or (sum) a running sum, which a NaN
 * (or inf - inf) makes NaN */
__attribute__((target("avx2"))) static long ymm_max_check(const float *p, long n, int sum) {
    __m256 a = _mm256_set1_ps(-1e30f), b = a, c = a, d = a, u = _mm256_setzero_ps();
    long i;
    for (i = 0; i < n; i += 32) {
        __m256 v0 = _mm256_loadu_ps(p + i), v1 = _mm256_loadu_ps(p + i + 8), v2 = _mm256_loadu_ps(p + i + 16), v3 = _mm256_loadu_ps(p + i + 24);
        u = sum ? _mm256_add_ps(u, _mm256_add_ps(_mm256_add_ps(v0, v1), _mm256_add_ps(v2, v3)))
                : _mm256_or_ps(u, _mm256_or_ps(_mm256_cmp_ps(v0, v1, _CMP_UNORD_Q), _mm256_cmp_ps(v2, v3, _CMP_UNORD_Q)));
        a = _mm256_max_ps(a, v0), b = _mm256_max_ps(b, v1), c = _mm256_max_ps(c, v2), d = _mm256_max_ps(d, v3);
    }
    return _mm256_movemask_ps(_mm256_cmp_ps(u, _mm256_max_ps(_mm256_max_ps(a, b), _mm256_max_ps(c, d)), _CMP_UNORD_Q));
}
int main(int argc, char **argv) {
    static const char *const name[9] = {"read (the bound)", "library arg_max", "256-bit max", "joined 512-bit max",
                                        "joined 512-bit compare", "512-bit compare", "256-bit compare", "256-bit max + unord",
                                        "256-bit max + sum"};
    const long rows = 256, cols = 32000, n = rows * cols;
    int reps = argc > 1 ? atoi(argv[1]) : 30, r, k;
    float *x = (float *)bench_alloc((size_t)n * 4);
    int64_t *ia = (int64_t *)bench_alloc((size_t)rows * 8), dims[2] = {256, 32000}, odim = 256;
    double best[9];
    long row, sink = 0, j;
    uint64_t s = 12345;
    bench_read_ctx rc;
    dnnlk_tensor src, ta;
    if (dnnlk_cpu_isa() < dnnlk_isa_avx512) { printf("needs AVX-512\n"); return 0; }
    for (j = 0; j < n; j++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[j] = (float)(s >> 40) * (1.0f / 16777216.0f) * 20.0f - 10.0f;
    }
    src = bench_dense_tensor(x, dnnlk_f32, 2, dims), ta = bench_dense_tensor(ia, dnnlk_s64, 1, &odim);
    bench_read_init(&rc, x, (size_t)n * 4);
    for (k = 0; k < 9; k++) best[k] = 1e9;
    for (r = 0; r < reps; r++)
        for (k = 0; k < 9; k++) {
            double t = cpu();
            if (k == 0) bench_read_part(&rc, 0, 1);
            else if (k == 1 && dnnlk_arg_max(&src, -1, 0, 0, NULL, &ta, 0, 1) != dnnlk_success) return 1;
            for (row = 0; k >= 2 && row < rows; row++) {
                const float *p = x + row * cols;
                sink += k == 2 ? ymm_max(p, cols) : k == 3 ? zmm_joined_max(p, cols) : k == 4 ? zmm_cmp(p, cols, 10.0f, 1)
                        : k == 5 ? zmm_cmp(p, cols, 10.0f, 0) : k == 6 ? ymm_cmp(p, cols, 10.0f) : ymm_max_check(p, cols, k == 8);
            }
            t = cpu() - t;
            if (t < best[k]) best[k] = t;
        }
    for (k = 0; k < 9; k++) printf("%-24s %.4f ns/element, %.3f of the read\n", name[k], 1e9 * best[k] / (double)n, best[0] / best[k]);
    return sink == 42; /* keeps the scans */
}
#else
int main(void) { printf("x86 only\n"); return 0; }
#endif
