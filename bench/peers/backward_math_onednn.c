/* oneDNN 2.6 peer of the backward bench: softmax_v2 backward (accurate) and eltwise gelu_erf /
 * gelu_tanh backward (from src), f32, plain row-major layouts, at the bench's thread counts (a process each: see
 * peer_threads). Prints "CASE|THREADS<TAB>onednn<TAB>ns_per_elem". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onednn_common.h"

static void run_case(dnnl_engine_t eng, dnnl_stream_t st, const char *name, int kind, int64_t rows, int64_t cols,
                     int nth) {
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {rows, cols};
    dnnl_primitive_desc_t fpd, pd;
    dnnl_primitive_t p;
    dnnl_memory_t a, g, o;
    dnnl_exec_arg_t args[3];
    size_t n = (size_t)(rows * cols), i;
    float *x = (float *)aligned_alloc(64, n * 4), *dy = (float *)aligned_alloc(64, n * 4);
    float *dx = (float *)aligned_alloc(64, n * 4);
    double best;
    for (i = 0; i < n; i++) {
        x[i] = (float)((i * 2654435761u) % 2000) * 0.005f - 5.0f;
        dy[i] = (float)((i * 40503u) % 2000) * 0.001f - 1.0f;
        dx[i] = 0;
    }
    if (kind == 0) /* dst: softmax-like values (only their size matters to the timing) */
        for (i = 0; i < n; i++) x[i] = (x[i] + 5.0f) / (float)(cols * 10);
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    if (kind == 0) {
        dnnl_softmax_v2_desc_t fd, bd;
        ONEDNN_CHK(dnnl_softmax_v2_forward_desc_init(&fd, dnnl_forward_training, dnnl_softmax_accurate, &md, &md, 1));
        ONEDNN_CHK(dnnl_primitive_desc_create(&fpd, &fd, NULL, eng, NULL));
        ONEDNN_CHK(dnnl_softmax_v2_backward_desc_init(&bd, dnnl_softmax_accurate, &md, &md, &md, 1));
        ONEDNN_CHK(dnnl_primitive_desc_create(&pd, &bd, NULL, eng, fpd));
    } else {
        dnnl_eltwise_desc_t fd, bd;
        dnnl_alg_kind_t alg = kind == 1 ? dnnl_eltwise_gelu_erf : dnnl_eltwise_gelu_tanh;
        ONEDNN_CHK(dnnl_eltwise_forward_desc_init(&fd, dnnl_forward_training, alg, &md, 0.f, 0.f));
        ONEDNN_CHK(dnnl_primitive_desc_create(&fpd, &fd, NULL, eng, NULL));
        ONEDNN_CHK(dnnl_eltwise_backward_desc_init(&bd, alg, &md, &md, 0.f, 0.f));
        ONEDNN_CHK(dnnl_primitive_desc_create(&pd, &bd, NULL, eng, fpd));
    }
    ONEDNN_CHK(dnnl_primitive_create(&p, pd));
    ONEDNN_CHK(dnnl_memory_create(&a, &md, eng, x));
    ONEDNN_CHK(dnnl_memory_create(&g, &md, eng, dy));
    ONEDNN_CHK(dnnl_memory_create(&o, &md, eng, dx));
    args[0].arg = kind == 0 ? DNNL_ARG_DST : DNNL_ARG_SRC, args[0].memory = a;
    args[1].arg = DNNL_ARG_DIFF_DST, args[1].memory = g;
    args[2].arg = DNNL_ARG_DIFF_SRC, args[2].memory = o;
    best = peer_best(p, st, 3, args);
    printf("%s|%d\tonednn\t%.4f\n", name, nth, 1e9 * best / (double)n);
    fflush(stdout);
    dnnl_memory_destroy(a);
    dnnl_memory_destroy(g);
    dnnl_memory_destroy(o);
    dnnl_primitive_destroy(p);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(fpd);
    free(x);
    free(dy);
    free(dx);
}

int main(int argc, char **argv) {
    dnnl_engine_t eng;
    dnnl_stream_t st;
    int nth;
    if (!selected(argc, argv, "backward") || !(nth = peer_threads(argv))) return 0;
    ONEDNN_CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    ONEDNN_CHK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
    run_case(eng, st, "softmax_bwd 49152x512", 0, 49152, 512, nth);
    run_case(eng, st, "gelu_erf_bwd 4096x3072", 1, 4096, 3072, nth);
    run_case(eng, st, "gelu_tanh_bwd 4096x3072", 2, 4096, 3072, nth);
    dnnl_stream_destroy(st);
    dnnl_engine_destroy(eng);
    return 0;
}
