/* oneDNN 2.6 peer of the convert bench cases: the reorder primitive, f32 -> bf16 and f32 -> f16
 * [4096,4096] (same layout, dtype changed) and the NCHW -> NHWC f32 transpose [8,64,128,128]
 * (abcd -> acdb), at the bench's thread counts (a process each: see peer_threads). Prints
 * "KEY<TAB>onednn<TAB>ns_per_elem", KEY = "<case>|<threads>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onednn_common.h"

static void run_case(dnnl_engine_t eng, dnnl_stream_t s, const char *name, int nd, const dnnl_dims_t dims,
                     dnnl_format_tag_t src_tag, dnnl_data_type_t dst_dt, dnnl_format_tag_t dst_tag, int threads) {
    dnnl_memory_desc_t smd, dmd;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t src, dst;
    dnnl_exec_arg_t args[2];
    float *p;
    int64_t n = 1, i;
    int k;
    double best;
    for (k = 0; k < nd; k++) n *= dims[k];
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&smd, nd, dims, dnnl_f32, src_tag));
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&dmd, nd, dims, dst_dt, dst_tag));
    ONEDNN_CHK(dnnl_reorder_primitive_desc_create(&pd, &smd, eng, &dmd, eng, NULL));
    ONEDNN_CHK(dnnl_primitive_create(&prim, pd));
    ONEDNN_CHK(dnnl_memory_create(&src, &smd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&dst, &dmd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_get_data_handle(src, (void **)&p));
    for (i = 0; i < n; i++) p[i] = (float)((i * 7919) % 100003) * 1e-3f - 50.0f;
    ONEDNN_CHK(dnnl_memory_get_data_handle(dst, (void **)&p));
    memset(p, 0, (size_t)n * (dst_dt == dnnl_f32 ? 4 : 2));
    args[0].arg = DNNL_ARG_FROM; args[0].memory = src;
    args[1].arg = DNNL_ARG_TO; args[1].memory = dst;
    best = peer_best(prim, s, 2, args);
    printf("%s|%d\tonednn\t%.4f\n", name, threads, 1e9 * best / (double)n);
    fflush(stdout);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_destroy(src);
    dnnl_memory_destroy(dst);
}

int main(int argc, char **argv) {
    static const dnnl_dims_t big = {4096, 4096}, nchw = {8, 64, 128, 128};
    dnnl_engine_t eng;
    dnnl_stream_t s;
    int threads;
    if (!selected(argc, argv, "convert compare") || !(threads = peer_threads(argv))) return 0;
    ONEDNN_CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    ONEDNN_CHK(dnnl_stream_create(&s, eng, dnnl_stream_default_flags));
    run_case(eng, s, "convert f32->bf16", 2, big, dnnl_ab, dnnl_bf16, dnnl_ab, threads);
    run_case(eng, s, "convert f32->f16", 2, big, dnnl_ab, dnnl_f16, dnnl_ab, threads);
    run_case(eng, s, "convert NCHW->NHWC", 4, nchw, dnnl_abcd, dnnl_f32, dnnl_acdb, threads);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(eng);
    return 0;
}
