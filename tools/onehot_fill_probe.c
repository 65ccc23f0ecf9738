/* one_hot s64 [4096] depth 1000 (the bench's row) against the non-temporal fills it is measured
 * by, wall clock in one process, best of REPS each, taken in turn: a fill of zeros (the bench's
 * bound: this EPYC VM streams zero lines faster than others), and a fill of exactly one_hot's
 * output bytes (zeros with each row's 1 put into its vector in registers), which shows what the
 * 4096 non-zero lines cost themselves. x86 with AVX-512 only.
 *   cc -O2 -I. tools/onehot_fill_probe.c -o onehot_fill_probe -lm -lpthread && ./onehot_fill_probe [REPS] */
#include "bench/harness.h"
#if DNNLK__X86
#define NI 4096
#define DEPTH 1000
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
__attribute__((target("avx512f"))) static void fill_exact(char *d, const int64_t *hot) {
    const __m512i z = _mm512_setzero_si512();
    const size_t lines = (size_t)NI * DEPTH * 8 / 64;
    size_t l, r = 0, hl = (size_t)hot[0] * 8 / 64;
    for (l = 0; l < lines; l++) {
        __m512i v = z;
        if (l == hl) { /* the row's 1 in its lane */
            v = _mm512_mask_mov_epi64(z, (__mmask8)(1u << (((size_t)r * DEPTH + (size_t)hot[r]) % 8)), _mm512_set1_epi64(1));
            r++;
            hl = r < NI ? ((size_t)r * DEPTH + (size_t)hot[r]) * 8 / 64 : (size_t)-1;
        }
        _mm512_stream_si512((__m512i *)(void *)(d + l * 64), v);
    }
    _mm_sfence();
}
int main(int argc, char **argv) {
    const size_t bytes = (size_t)NI * DEPTH * 8;
    int reps = argc > 1 ? atoi(argv[1]) : 30, r, k;
    int64_t *ind = (int64_t *)bench_alloc(NI * 8), on = 1, off = 0, odims[2] = {NI, DEPTH}, ni = NI, j;
    char *o = (char *)bench_alloc(bytes);
    double best[3] = {1e9, 1e9, 1e9};
    uint64_t s = 1;
    dnnlk_tensor src, dst;
    if (dnnlk_cpu_isa() < dnnlk_isa_avx512) { printf("needs AVX-512\n"); return 0; }
    for (j = 0; j < NI; j++) { /* the bench's indices */
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        ind[j] = (int64_t)((s >> 33) % (uint64_t)DEPTH);
    }
    src = bench_dense_tensor(ind, dnnlk_s64, 1, &ni);
    dst = bench_dense_tensor(o, dnnlk_s64, 2, odims);
    for (r = 0; r < reps; r++)
        for (k = 0; k < 3; k++) {
            double t = now();
            if (k == 0) bench_copy_nt(o, NULL, bytes, 0);
            else if (k == 1) fill_exact(o, ind);
            else if (dnnlk_one_hot(&src, DEPTH, -1, &on, &off, &dst, 0, 1) != dnnlk_success) return 1;
            t = now() - t;
            if (t < best[k]) best[k] = t;
        }
    { /* the exact fill is one_hot's output, byte for byte */
        char *e = (char *)bench_alloc(bytes);
        fill_exact(e, ind);
        if (dnnlk_one_hot(&src, DEPTH, -1, &on, &off, &dst, 0, 1) != dnnlk_success || memcmp(e, o, bytes)) {
            printf("the exact fill differs from one_hot's output\n");
            return 1;
        }
        free(e);
    }
    printf("fill of zeros %.3f ms, fill of one_hot's bytes %.3f ms, one_hot %.3f ms: one_hot at %.2fx the zero fill, "
           "%.2fx the exact fill\n", 1e3 * best[0], 1e3 * best[1], 1e3 * best[2], best[0] / best[2], best[1] / best[2]);
    return 0;
}
#else
int main(void) { printf("x86 only\n"); return 0; }
#endif
