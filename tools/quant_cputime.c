/* The three issue #29 speed rows of bench/bench_quantresize.h (dequantize u4 blocked 32 with f16
 * scales -> f32, quantize f32 -> fp8 e4m3, dequantize s8 blocked 128 -> f32; [4096,4096], one
 * thread), timed as thread CPU time (CLOCK_THREAD_CPUTIME_ID) alternately with a memcpy of half the
 * compulsory traffic (the bench's copy: the same bytes read and written), best of REPS each. On a
 * loaded shared host this is steadier than the bench's wall clock.
 *   cc -O2 -I. tools/quant_cputime.c -o quant_cputime -lm && ./quant_cputime [REPS [ISA]]
 * ISA caps the level (0 scalar .. 3 AVX-512). eff = memcpy time / kernel time. */
#include "dnnl_kernels.h"
#include "tools/cputime.h"
typedef struct qc_call {
    int kind;
    int64_t B;
    dnnlk_tensor *x, *s, *y;
} qc_call;
static int qc_run(void *p) {
    const qc_call *q = (const qc_call *)p;
    return q->kind == 1 ? dnnlk_quantize_linear(q->x, q->s, NULL, 1, 0, 1, q->y, 0, 1)
                        : dnnlk_dequantize_linear(q->x, q->s, NULL, 1, q->B, q->y, 0, 1);
}
int main(int argc, char **argv) {
    const int64_t R = 4096, C = 4096, n = R * C;
    int kind, reps = argc > 1 ? atoi(argv[1]) : 8, isa = argc > 2 ? atoi(argv[2]) : -1;
    if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa);
    for (kind = 0; kind < 3; kind++) {
        const int64_t B = kind == 0 ? 32 : 128, ns = kind == 1 ? 1 : R * (C / B);
        size_t xb = kind == 0 ? (size_t)n / 2 : kind == 1 ? (size_t)n * 4 : (size_t)n;
        size_t yb = kind == 1 ? (size_t)n : (size_t)n * 4, sb = (size_t)ns * (kind == 0 ? 2 : 4);
        size_t cb = (xb + yb + sb) / 2;
        void *x = al(xb), *y = al(yb), *s = al(sb), *c0 = al(cb), *c1 = al(cb);
        dnnlk_tensor tx, ts, ty;
        double bk, bc;
        qc_call call;
        int64_t i;
        for (i = 0; i < (int64_t)xb; i++) ((uint8_t *)x)[i] = (uint8_t)((i * 2654435761u) >> 24);
        if (kind == 1) for (i = 0; i < n; i++) ((float *)x)[i] = (float)((i * 2654435761u) % 10007u) * 0.01f - 50.0f;
        for (i = 0; i < ns; i++) { float v = 0.25f + 0.001f * (float)(i % 100); if (kind == 0) ((uint16_t *)s)[i] = dnnlk_f32_to_f16(v); else ((float *)s)[i] = v; }
        tx = (dnnlk_tensor){x, kind == 0 ? dnnlk_u4 : kind == 1 ? dnnlk_f32 : dnnlk_s8, 2, {R, C}, {C, 1}};
        ty = (dnnlk_tensor){y, kind == 1 ? dnnlk_f8_e4m3 : dnnlk_f32, 2, {R, C}, {C, 1}};
        ts = kind == 1 ? (dnnlk_tensor){s, dnnlk_f32, 0, {0}, {0}} : (dnnlk_tensor){s, kind == 0 ? dnnlk_f16 : dnnlk_f32, 2, {R, C / B}, {C / B, 1}};
        call.kind = kind, call.B = B, call.x = &tx, call.s = &ts, call.y = &ty;
        if (cputime_vs_memcpy(qc_run, &call, c0, c1, cb, reps, &bk, &bc)) return 1;
        printf("%-28s %.3f ns/el  memcpy(%zu MiB) %.3f ns/el  eff %.2f\n",
               kind == 0 ? "dequantize u4 blk32 f16s" : kind == 1 ? "quantize f32->e4m3" : "dequantize s8 blk128",
               1e9 * bk / n, cb >> 20, 1e9 * bc / n, bc / bk);
        free(x); free(y); free(s); free(c0); free(c1);
    }
    return 0;
}
