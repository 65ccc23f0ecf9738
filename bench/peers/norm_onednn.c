/* oneDNN 2.6 peer of the norm bench cases: the layer normalization primitive (forward inference,
 * scale and shift), f32, the same shapes, at the bench's thread counts (a process each: see peer_threads).
 * Prints "KEY<TAB>onednn<TAB>ns_per_elem", KEY = "<case>|<threads>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onednn_common.h"

static void run_case(dnnl_engine_t eng, dnnl_stream_t s, const char *name, int64_t rows, int64_t n, int threads) {
    dnnl_memory_desc_t md, wd;
    dnnl_layer_normalization_desc_t ld;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t src, dst, sc, sh;
    dnnl_exec_arg_t args[4];
    dnnl_dims_t dims = {rows, n}, wdims = {n};
    float *p;
    int64_t i;
    double best;
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&wd, 1, wdims, dnnl_f32, dnnl_a));
    ONEDNN_CHK(dnnl_layer_normalization_forward_desc_init(&ld, dnnl_forward_inference, &md, NULL, 1e-5f,
                                                   dnnl_use_scale | dnnl_use_shift));
    ONEDNN_CHK(dnnl_primitive_desc_create(&pd, &ld, NULL, eng, NULL));
    ONEDNN_CHK(dnnl_primitive_create(&prim, pd));
    ONEDNN_CHK(dnnl_memory_create(&src, &md, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&dst, &md, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&sc, &wd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&sh, &wd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_get_data_handle(src, (void **)&p));
    for (i = 0; i < rows * n; i++) p[i] = (float)((i * 7919) % 1000) * 0.004f - 1.5f;
    ONEDNN_CHK(dnnl_memory_get_data_handle(dst, (void **)&p));
    memset(p, 0, (size_t)(rows * n) * 4);
    ONEDNN_CHK(dnnl_memory_get_data_handle(sc, (void **)&p));
    for (i = 0; i < n; i++) p[i] = 1.0f;
    ONEDNN_CHK(dnnl_memory_get_data_handle(sh, (void **)&p));
    for (i = 0; i < n; i++) p[i] = 0.0f;
    args[0].arg = DNNL_ARG_SRC; args[0].memory = src;
    args[1].arg = DNNL_ARG_DST; args[1].memory = dst;
    args[2].arg = DNNL_ARG_SCALE; args[2].memory = sc;
    args[3].arg = DNNL_ARG_SHIFT; args[3].memory = sh;
    best = peer_best(prim, s, 4, args);
    printf("%s|%d\tonednn\t%.4f\n", name, threads, 1e9 * best / (double)(rows * n));
    fflush(stdout);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_destroy(src);
    dnnl_memory_destroy(dst);
    dnnl_memory_destroy(sc);
    dnnl_memory_destroy(sh);
}

int main(int argc, char **argv) {
    dnnl_engine_t eng;
    dnnl_stream_t s;
    int threads;
    if (!selected(argc, argv, "norm") || !(threads = peer_threads(argv))) return 0;
    ONEDNN_CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    ONEDNN_CHK(dnnl_stream_create(&s, eng, dnnl_stream_default_flags));
    run_case(eng, s, "layer_norm 4096x768", 4096, 768, threads);
    run_case(eng, s, "layer_norm 2048x4096", 2048, 4096, threads);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(eng);
    return 0;
}
