/* The bench's NCHW -> NHWC f32 transpose row (bench/bench_convert.h: [8,64,128,128], one thread),
 * timed as thread CPU time (CLOCK_THREAD_CPUTIME_ID) alternately with a memcpy of the same bytes
 * (32 MiB: what the transpose reads, and writes) and with a copy by streaming stores (the bench's
 * copy bound is the faster of the two), best of REPS each; on a loaded shared host this is steadier
 * than the bench's wall clock. The result is checked against a plain loop.
 *   cc -O2 -I. tools/transpose_cputime.c -o transpose_cputime && ./transpose_cputime [REPS [ISA [C [ES]]]]
 * ISA caps the level (0 scalar .. 3 AVX-512); C (default 64) changes the channel count, HW stays
 * 128 x 128; ES (default 4) the element size: 1 u8, 2 bf16, 4 f32, 8 f64 (the copies move the
 * tensor's bytes). eff = copy time / kernel time. */
#include "dnnl_kernels.h"
#include "tools/cputime.h"
#include <immintrin.h>
/* The bench's streaming copy (bench/harness.h), on AVX-512 */
__attribute__((target("avx512f"))) static void nt_copy(void *d, const void *s, size_t bytes) {
    size_t i;
    for (i = 0; i < bytes; i += 64)
        _mm512_stream_si512((__m512i *)(void *)((char *)d + i), _mm512_loadu_si512((const char *)s + i));
    _mm_sfence();
}
typedef struct tc_call {
    const dnnlk_tensor *x;
    dnnlk_tensor *y;
} tc_call;
static int tc_run(void *p) {
    const tc_call *q = (const tc_call *)p;
    return dnnlk_convert(q->x, q->y, 0, 1);
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 8, isa = argc > 2 ? atoi(argv[2]) : -1;
    const int64_t N = 8, C = argc > 3 ? atoi(argv[3]) : 64, H = 128, W = 128, n = N * C * H * W;
    const int es = argc > 4 ? atoi(argv[4]) : 4;
    const dnnlk_dtype dt = es == 1 ? dnnlk_u8 : es == 2 ? dnnlk_bf16 : es == 8 ? dnnlk_f64 : dnnlk_f32;
    size_t cb = (size_t)n * es;
    unsigned char *x = al(cb), *y = al(cb);
    void *c0 = al(cb), *c1 = al(cb);
    int64_t b, c, p;
    double bk, bc, bn = 1e9;
    dnnlk_tensor tx = {x, dt, 4, {N, C, H, W}, {C * H * W, H * W, W, 1}};
    dnnlk_tensor ty = {y, dt, 4, {N, C, H, W}, {H * W * C, 1, W * C, C}}; /* NHWC strides */
    tc_call call;
    if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa);
    for (p = 0; p < (int64_t)cb; p++) x[p] = (unsigned char)(p * 2654435761u >> 24); /* no NaN changes bits: a copy */
    call.x = &tx, call.y = &ty;
    if (cputime_vs_memcpy(tc_run, &call, c0, c1, cb, reps, &bk, &bc)) return 1;
    if (dnnlk_cpu_isa() >= dnnlk_isa_avx512)
        for (p = 0; p < reps; p++) {
            double t = cpu();
            nt_copy(c0, c1, cb);
            t = cpu() - t;
            if (t < bn) bn = t;
        }
    for (b = 0; b < N; b++)
        for (c = 0; c < C; c++)
            for (p = 0; p < H * W; p++)
                if (memcmp(y + ((b * H * W + p) * C + c) * es, x + ((b * C + c) * H * W + p) * es, (size_t)es) != 0) {
                    printf("wrong at n %lld c %lld hw %lld\n", (long long)b, (long long)c, (long long)p);
                    return 1;
                }
    printf("NCHW->NHWC %s [8,%lld,128,128] %.3f ns/elem  memcpy(%zu MiB) %.3f  nt copy %.3f  eff %.2f (memcpy) %.2f "
           "(nt copy)\n", dnnlk_dtype_name(dt), (long long)C, 1e9 * bk / n, cb >> 20, 1e9 * bc / n, 1e9 * bn / n, bc / bk, bn / bk);
    free(x); free(y); free(c0); free(c1);
    return 0;
}
