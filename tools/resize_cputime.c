/* The two resize x2 speed rows of bench/bench_quantresize.h (linear half_pixel and bicubic
 * pytorch_half_pixel a = -0.75, f32 NCHW [8,64,128,128] -> [8,64,256,256], one thread), timed as
 * thread CPU time (CLOCK_THREAD_CPUTIME_ID) alternately with a memcpy of half the compulsory
 * traffic (the bench's copy: 4 B per input + 4 B per output, read and written), best of REPS each.
 * On a loaded shared host this is steadier than the bench's wall clock.
 *   cc -O2 -I. tools/resize_cputime.c -o resize_cputime -lm && ./resize_cputime [REPS [ISA]]
 * ISA caps the level (0 scalar .. 3 AVX-512). eff = memcpy time / kernel time. */
#include "dnnl_kernels.h"
#include "tools/cputime.h"
typedef struct rc_call {
    const dnnlk_tensor *x;
    dnnlk_tensor *y;
    const dnnlk_resize_desc *d;
} rc_call;
static int rc_run(void *p) {
    const rc_call *q = (const rc_call *)p;
    return dnnlk_resize(q->x, q->d, q->y, 0, 1);
}
int main(int argc, char **argv) {
    const int64_t N = 8, C = 64, H = 128, W = 128, nin = N * C * H * W, nout = 4 * nin;
    static const int axes[2] = {2, 3};
    static const float scales[2] = {2, 2};
    int kind, reps = argc > 1 ? atoi(argv[1]) : 8, isa = argc > 2 ? atoi(argv[2]) : -1;
    size_t cb = (size_t)(nin + nout) * 4 / 2;
    float *x = al((size_t)nin * 4), *y = al((size_t)nout * 4);
    void *c0 = al(cb), *c1 = al(cb);
    int64_t i;
    if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa);
    for (i = 0; i < nin; i++) x[i] = (float)((i * 2654435761u) % 1000u) * 0.001f;
    for (kind = 0; kind < 2; kind++) {
        dnnlk_tensor tx = {x, dnnlk_f32, 4, {N, C, H, W}, {C * H * W, H * W, W, 1}};
        dnnlk_tensor ty = {y, dnnlk_f32, 4, {N, C, 2 * H, 2 * W}, {C * 4 * H * W, 4 * H * W, 2 * W, 1}};
        dnnlk_resize_desc rd;
        double bk, bc;
        rc_call call;
        memset(&rd, 0, sizeof rd);
        rd.mode = kind ? dnnlk_resize_cubic : dnnlk_resize_linear;
        rd.coord = kind ? dnnlk_resize_pytorch_half_pixel : dnnlk_resize_half_pixel;
        rd.naxes = 2;
        rd.axes = axes;
        rd.scales = scales;
        call.x = &tx, call.y = &ty, call.d = &rd;
        if (cputime_vs_memcpy(rc_run, &call, c0, c1, cb, reps, &bk, &bc)) return 1;
        printf("%-22s %.3f ns/out  memcpy(%zu MiB) %.3f ns/out  eff %.2f\n", kind ? "resize bicubic x2" : "resize linear x2",
               1e9 * bk / nout, cb >> 20, 1e9 * bc / nout, bc / bk);
    }
    free(x); free(y); free(c0); free(c1);
    return 0;
}
