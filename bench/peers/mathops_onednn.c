/* oneDNN 2.6 peer of the mathops bench: softmax_v2 (accurate and log) and eltwise gelu_erf /
 * gelu_tanh, f32, plain row-major layouts, at the bench's thread counts (a process each: see peer_threads).
 * oneDNN has no plain erf eltwise: that case has no oneDNN row.
 * Prints "CASE|THREADS<TAB>onednn<TAB>ns_per_elem". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onednn_common.h"

static void run_case(dnnl_engine_t eng, dnnl_stream_t st, const char *name, int kind, int64_t rows, int64_t cols,
                     int nth) {
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {rows, cols};
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t p;
    dnnl_memory_t src, dst;
    dnnl_exec_arg_t args[2];
    size_t n = (size_t)(rows * cols), i;
    float *x = (float *)aligned_alloc(64, n * 4), *y = (float *)aligned_alloc(64, n * 4);
    double best;
    for (i = 0; i < n; i++) x[i] = (float)((i * 2654435761u) % 2000) * 0.005f - 5.0f, y[i] = 0;
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    if (kind <= 1) {
        dnnl_softmax_v2_desc_t d;
        ONEDNN_CHK(dnnl_softmax_v2_forward_desc_init(&d, dnnl_forward_inference, kind ? dnnl_softmax_log : dnnl_softmax_accurate,
                                              &md, &md, 1));
        ONEDNN_CHK(dnnl_primitive_desc_create(&pd, &d, NULL, eng, NULL));
    } else {
        dnnl_eltwise_desc_t d;
        ONEDNN_CHK(dnnl_eltwise_forward_desc_init(&d, dnnl_forward_inference,
                                           kind == 2 ? dnnl_eltwise_gelu_erf : dnnl_eltwise_gelu_tanh, &md, 0.f, 0.f));
        ONEDNN_CHK(dnnl_primitive_desc_create(&pd, &d, NULL, eng, NULL));
    }
    ONEDNN_CHK(dnnl_primitive_create(&p, pd));
    ONEDNN_CHK(dnnl_memory_create(&src, &md, eng, x));
    ONEDNN_CHK(dnnl_memory_create(&dst, &md, eng, y));
    args[0].arg = DNNL_ARG_SRC, args[0].memory = src;
    args[1].arg = DNNL_ARG_DST, args[1].memory = dst;
    best = peer_best(p, st, 2, args);
    printf("%s|%d\tonednn\t%.4f\n", name, nth, 1e9 * best / (double)n);
    fflush(stdout);
    dnnl_memory_destroy(src);
    dnnl_memory_destroy(dst);
    dnnl_primitive_destroy(p);
    dnnl_primitive_desc_destroy(pd);
    free(x);
    free(y);
}

int main(int argc, char **argv) {
    dnnl_engine_t eng;
    dnnl_stream_t st;
    int nth;
    if (!selected(argc, argv, "mathops") || !(nth = peer_threads(argv))) return 0;
    ONEDNN_CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    ONEDNN_CHK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
    run_case(eng, st, "softmax 49152x512", 0, 49152, 512, nth);
    run_case(eng, st, "log_softmax 49152x512", 1, 49152, 512, nth);
    run_case(eng, st, "softmax 256x32000", 0, 256, 32000, nth);
    run_case(eng, st, "log_softmax 256x32000", 1, 256, 32000, nth);
    run_case(eng, st, "gelu_erf 4096x3072", 2, 4096, 3072, nth);
    run_case(eng, st, "gelu_tanh 4096x3072", 3, 4096, 3072, nth);
    dnnl_stream_destroy(st);
    dnnl_engine_destroy(eng);
    return 0;
}
