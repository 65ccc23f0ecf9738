/* tools/ab_inprocess.sh's tp case, the program: NCHW -> NHWC transposes [8,C,128,128] of f32
 * (C = 64, the bench's row, and 16, 48, 96, 128, 144; 3, 8, 24, 40: dst rows off 64-byte lines), bf16 (C = 64, 48) and u8 (C = 64, 128), old and new alternated 7 times
 * beside a streaming copy of the same bytes (the bench's copy bound on AVX-512), each side's best
 * in ns per element; the two results must have the same bytes. Argument: the ISA cap (0 scalar ..
 * 3 AVX-512; default none). */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "dnnl_kernels.h"
#include "tools/cputime.h"
#include <immintrin.h>
/* the bench's streaming copy (bench/harness.h's bench_copy_nt, without its fill mode) */
__attribute__((target("avx2"))) static void nt_copy(void *d, const void *s, size_t bytes) {
    size_t i;
    for (i = 0; i < bytes; i += 32)
        _mm256_stream_si256((__m256i *)(void *)((char *)d + i), _mm256_loadu_si256((const __m256i *)(const void *)((const char *)s + i)));
    _mm_sfence();
}
double ab_old(const void *, void *, int64_t, int, int);
double ab_new(const void *, void *, int64_t, int, int);
void ab_cap_old(int), ab_cap_new(int);
int main(int argc, char **argv) {
    static const int64_t cs[14] = {64, 16, 48, 96, 128, 144, 3, 8, 24, 40, 64, 48, 64, 128};
    static const int dts[14] = {dnnlk_f32, dnnlk_f32, dnnlk_f32, dnnlk_f32,  dnnlk_f32,  dnnlk_f32, dnnlk_f32,
                                dnnlk_f32, dnnlk_f32, dnnlk_f32, dnnlk_bf16, dnnlk_bf16, dnnlk_u8,  dnnlk_u8};
    int isa = argc > 1 ? atoi(argv[1]) : -1, r, c;
    const size_t cap = (size_t)8 * 144 * 128 * 128 * 4;
    unsigned char *x = al(cap), *y0 = al(cap), *y1 = al(cap), *c0 = al(cap);
    size_t i;
    ab_cap_old(isa), ab_cap_new(isa);
    for (i = 0; i < cap; i++) x[i] = (unsigned char)(i * 2654435761u >> 24) & 0x3f; /* no NaN: bits move as they are */
    for (c = 0; c < 14; c++) {
        const int64_t C = cs[c], n = 8 * C * 128 * 128;
        const size_t bytes = (size_t)n * dnnlk_dtype_size((dnnlk_dtype)dts[c]);
        double bo = 1e9, bn = 1e9, bc = 1e9;
        for (r = 0; r < 7; r++) {
            double t0 = ab_old(x, y0, C, dts[c], 2), t1 = ab_new(x, y1, C, dts[c], 2), t = cpu();
            if (t0 < 0 || t1 < 0) return 1;
            nt_copy(c0, x, bytes);
            t = cpu() - t;
            if (t0 < bo) bo = t0;
            if (t1 < bn) bn = t1;
            if (t < bc) bc = t;
        }
        if (memcmp(y0, y1, bytes)) { printf("BYTES DIFFER (case %d)\n", c); return 1; }
        printf("tp %-4s C %3lld: old %.4f  new %.4f ns/elem  new/old %.3f  (copy %.4f: eff old %.2f new %.2f)\n",
               dnnlk_dtype_name((dnnlk_dtype)dts[c]), (long long)C, 1e9 * bo / n, 1e9 * bn / n, bn / bo, 1e9 * bc / n, bc / bo,
               bc / bn);
    }
    return 0;
}
