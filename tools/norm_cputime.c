/* The layer_norm speed rows of bench/bench_norm.h (f32 [4096,768] and [2048,4096], weight and
 * bias, eps 1e-5, one thread), plus [256,768] whose 1.5 MiB stay in L2 (the row kernel's compute
 * alone), timed as thread CPU time (CLOCK_THREAD_CPUTIME_ID) alternately with a memcpy of the
 * same bytes (the bench's copy: every element read and written once), best of REPS each. On a
 * loaded shared host this is steadier than the bench's wall clock. With -DWITH_ONEDNN (and
 * -ldnnl, run with OMP_NUM_THREADS=1 so oneDNN runs in this thread) oneDNN 2.6's layer
 * normalization primitive on the same buffers is timed in the same alternation.
 *   cc -O2 -I. tools/norm_cputime.c -o norm_cputime -lm && ./norm_cputime [REPS [ISA [CASE]]]
 *   cc -O2 -I. -DWITH_ONEDNN tools/norm_cputime.c -o norm_cputime -ldnnl -lm &&
 *     OMP_NUM_THREADS=1 ./norm_cputime [REPS [ISA [CASE]]]
 * ISA caps the level (0 scalar .. 3 AVX-512); CASE (0, 1, 2) runs one shape only. eff = memcpy time / kernel time. */
#include "dnnl_kernels.h"
#include "tools/cputime.h"
typedef struct nc_call {
    dnnlk_tensor x, y, w, b;
} nc_call;
static int nc_run(void *p) {
    nc_call *q = (nc_call *)p;
    int ax = -1;
    return dnnlk_layer_norm(&q->x, &q->w, &q->b, 1, &ax, 1e-5f, 0, &q->y, NULL, NULL, 0, 1);
}
#ifdef WITH_ONEDNN
typedef struct nc_onednn {
    dnnl_primitive_t prim;
    dnnl_stream_t s;
    dnnl_exec_arg_t args[4];
} nc_onednn;
static int nc_onednn_run(void *p) {
    nc_onednn *o = (nc_onednn *)p;
    if (dnnl_primitive_execute(o->prim, o->s, 4, o->args) != dnnl_success) return 1;
    return dnnl_stream_wait(o->s) != dnnl_success;
}
#endif
int main(int argc, char **argv) {
    static const int64_t shapes[3][2] = {{4096, 768}, {2048, 4096}, {256, 768}};
    int k, reps = argc > 1 ? atoi(argv[1]) : 8, isa = argc > 2 ? atoi(argv[2]) : -1, only = argc > 3 ? atoi(argv[3]) : -1;
#ifdef WITH_ONEDNN
    dnnl_engine_t eng;
    dnnl_stream_t s;
    onednn_open(&eng, &s);
#endif
    if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa);
    for (k = 0; k < 3; k++) {
        if (only >= 0 && k != only) continue;
        {
        const int64_t R = shapes[k][0], N = shapes[k][1], tot = R * N;
        const size_t cb = (size_t)tot * 4;
        float *x = al(cb), *y = al(cb), *w = al((size_t)N * 4), *b = al((size_t)N * 4);
        void *c0 = al(cb), *c1 = al(cb);
        double bk, bc, bo = 0, bc2;
        nc_call call;
        uint32_t r = 12345;
        int64_t i;
        for (i = 0; i < tot; i++) {
            r = r * 1664525u + 1013904223u;
            x[i] = (float)(r >> 8) * (1.0f / 16777216.0f) * 4.0f - 2.0f + 0.5f;
        }
        for (i = 0; i < N; i++) w[i] = 1.0f + 0.001f * (float)(i % 7), b[i] = 0.01f * (float)(i % 5);
        call.x = (dnnlk_tensor){x, dnnlk_f32, 2, {R, N}, {N, 1}};
        call.y = (dnnlk_tensor){y, dnnlk_f32, 2, {R, N}, {N, 1}};
        call.w = (dnnlk_tensor){w, dnnlk_f32, 1, {N}, {1}};
        call.b = (dnnlk_tensor){b, dnnlk_f32, 1, {N}, {1}};
        if (cputime_vs_memcpy(nc_run, &call, c0, c1, cb, reps, &bk, &bc)) return 1;
#ifdef WITH_ONEDNN
        {
            nc_onednn o;
            dnnl_memory_desc_t md, wd;
            dnnl_layer_normalization_desc_t ld;
            dnnl_primitive_desc_t pd;
            dnnl_memory_t mx, my, mw, mb;
            dnnl_dims_t dims = {R, N}, wdims = {N};
            CHK(dnnl_memory_desc_init_by_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
            CHK(dnnl_memory_desc_init_by_tag(&wd, 1, wdims, dnnl_f32, dnnl_a));
            CHK(dnnl_layer_normalization_forward_desc_init(&ld, dnnl_forward_inference, &md, NULL, 1e-5f,
                                                           dnnl_use_scale | dnnl_use_shift));
            CHK(dnnl_primitive_desc_create(&pd, &ld, NULL, eng, NULL));
            CHK(dnnl_primitive_create(&o.prim, pd));
            CHK(dnnl_memory_create(&mx, &md, eng, x));
            CHK(dnnl_memory_create(&my, &md, eng, y));
            CHK(dnnl_memory_create(&mw, &wd, eng, w));
            CHK(dnnl_memory_create(&mb, &wd, eng, b));
            o.s = s;
            o.args[0].arg = DNNL_ARG_SRC, o.args[0].memory = mx;
            o.args[1].arg = DNNL_ARG_DST, o.args[1].memory = my;
            o.args[2].arg = DNNL_ARG_SCALE, o.args[2].memory = mw;
            o.args[3].arg = DNNL_ARG_SHIFT, o.args[3].memory = mb;
            if (cputime_vs_memcpy(nc_onednn_run, &o, c0, c1, cb, reps, &bo, &bc2)) return 1;
            if (bc2 < bc) bc = bc2;
            dnnl_memory_destroy(mx), dnnl_memory_destroy(my), dnnl_memory_destroy(mw), dnnl_memory_destroy(mb);
            dnnl_primitive_destroy(o.prim);
            dnnl_primitive_desc_destroy(pd);
        }
#endif
        (void)bc2;
        printf("layer_norm %4lldx%-4lld %.3f ns/elem  memcpy(%zu KiB) %.3f  eff %.2f", (long long)R, (long long)N,
               1e9 * bk / tot, cb >> 10, 1e9 * bc / tot, bc / bk);
        if (bo > 0) printf("  onednn %.3f (onednn/ours %.2f)", 1e9 * bo / tot, bo / bk);
        printf("\n");
        free(x), free(y), free(w), free(b), free(c0), free(c1);
        }
    }
    return 0;
}
