/* oneDNN 2.6 peer of the backward group: layer normalization backward (dnnl_backward, use_scale |
 * use_shift: diff_src, diff_scale, diff_shift) on [4096,768] f32, and resampling backward (linear)
 * from diff_dst [4,32,128,128] to diff_src [4,32,64,64] NCHW, at the bench's thread counts (a process each: see
 * peer_threads). Prints "KEY<TAB>onednn<TAB>ns_per_elem" (KEY "<case>|<threads>", per diff_dst
 * element). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onednn_common.h"

static void fill(dnnl_memory_t m, size_t n, float lo, float span) {
    float *p;
    size_t i;
    ONEDNN_CHK(dnnl_memory_get_data_handle(m, (void **)&p));
    for (i = 0; i < n; i++) p[i] = lo + span * (float)((i * 7919) % 1000) * 0.001f;
}

static void layer_norm_bwd(dnnl_engine_t eng, dnnl_stream_t s, int threads) {
    const int64_t rows = 4096, n = 768;
    dnnl_memory_desc_t md, sd, wd;
    dnnl_layer_normalization_desc_t fd, bd;
    dnnl_primitive_desc_t fpd, bpd;
    dnnl_primitive_t prim;
    dnnl_memory_t src, dd, ds, mean, var, sc, sh, dsc, dsh;
    dnnl_exec_arg_t args[9];
    dnnl_dims_t dims = {rows, n}, sdims = {rows}, wdims = {n};
    unsigned flags = dnnl_use_scale | dnnl_use_shift;
    double best;
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&sd, 1, sdims, dnnl_f32, dnnl_a));
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&wd, 1, wdims, dnnl_f32, dnnl_a));
    ONEDNN_CHK(dnnl_layer_normalization_forward_desc_init(&fd, dnnl_forward_training, &md, &sd, 1e-5f, flags));
    ONEDNN_CHK(dnnl_primitive_desc_create(&fpd, &fd, NULL, eng, NULL));
    ONEDNN_CHK(dnnl_layer_normalization_backward_desc_init(&bd, dnnl_backward, &md, &md, &sd, 1e-5f, flags));
    ONEDNN_CHK(dnnl_primitive_desc_create(&bpd, &bd, NULL, eng, fpd));
    ONEDNN_CHK(dnnl_primitive_create(&prim, bpd));
    ONEDNN_CHK(dnnl_memory_create(&src, &md, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&dd, &md, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&ds, &md, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&mean, &sd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&var, &sd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&sc, &wd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&sh, &wd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&dsc, &wd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&dsh, &wd, eng, DNNL_MEMORY_ALLOCATE));
    fill(src, (size_t)(rows * n), -1.5f, 4.0f);
    fill(dd, (size_t)(rows * n), -1.0f, 2.0f);
    fill(ds, (size_t)(rows * n), 0.0f, 0.0f);
    fill(mean, (size_t)rows, 0.5f, 0.0f);
    fill(var, (size_t)rows, 1.3f, 0.0f);
    fill(sc, (size_t)n, 1.0f, 0.0f);
    fill(sh, (size_t)n, 0.0f, 0.0f);
    args[0].arg = DNNL_ARG_SRC, args[0].memory = src;
    args[1].arg = DNNL_ARG_DIFF_DST, args[1].memory = dd;
    args[2].arg = DNNL_ARG_MEAN, args[2].memory = mean;
    args[3].arg = DNNL_ARG_VARIANCE, args[3].memory = var;
    args[4].arg = DNNL_ARG_SCALE, args[4].memory = sc;
    args[5].arg = DNNL_ARG_DIFF_SRC, args[5].memory = ds;
    args[6].arg = DNNL_ARG_DIFF_SCALE, args[6].memory = dsc;
    args[7].arg = DNNL_ARG_DIFF_SHIFT, args[7].memory = dsh;
    args[8].arg = DNNL_ARG_SHIFT, args[8].memory = sh; /* 2.6 refuses the call without it */
    best = peer_best(prim, s, 9, args);
    printf("layer_norm_bwd 4096x768|%d\tonednn\t%.4f\n", threads, 1e9 * best / (double)(rows * n));
    fflush(stdout);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(bpd);
    dnnl_primitive_desc_destroy(fpd);
    dnnl_memory_destroy(src), dnnl_memory_destroy(dd), dnnl_memory_destroy(ds), dnnl_memory_destroy(mean);
    dnnl_memory_destroy(var), dnnl_memory_destroy(sc), dnnl_memory_destroy(sh), dnnl_memory_destroy(dsc), dnnl_memory_destroy(dsh);
}

static void resize_bwd(dnnl_engine_t eng, dnnl_stream_t s, int threads) {
    dnnl_memory_desc_t smd, dmd;
    dnnl_resampling_desc_t fd, bd;
    dnnl_primitive_desc_t fpd, bpd;
    dnnl_primitive_t prim;
    dnnl_memory_t dsm, ddm;
    dnnl_dims_t sd = {4, 32, 64, 64}, dd = {4, 32, 128, 128};
    float factors[2] = {2.0f, 2.0f};
    dnnl_exec_arg_t args[2];
    double best, out = 4.0 * 32 * 128 * 128;
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&smd, 4, sd, dnnl_f32, dnnl_nchw));
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&dmd, 4, dd, dnnl_f32, dnnl_nchw));
    ONEDNN_CHK(dnnl_resampling_forward_desc_init(&fd, dnnl_forward_training, dnnl_resampling_linear, factors, &smd, &dmd));
    ONEDNN_CHK(dnnl_primitive_desc_create(&fpd, &fd, NULL, eng, NULL));
    ONEDNN_CHK(dnnl_resampling_backward_desc_init(&bd, dnnl_resampling_linear, factors, &smd, &dmd));
    ONEDNN_CHK(dnnl_primitive_desc_create(&bpd, &bd, NULL, eng, fpd));
    ONEDNN_CHK(dnnl_primitive_create(&prim, bpd));
    ONEDNN_CHK(dnnl_memory_create(&dsm, &smd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&ddm, &dmd, eng, DNNL_MEMORY_ALLOCATE));
    fill(ddm, (size_t)out, -0.5f, 1.0f);
    fill(dsm, (size_t)out / 4, 0.0f, 0.0f);
    args[0].arg = DNNL_ARG_DIFF_DST, args[0].memory = ddm;
    args[1].arg = DNNL_ARG_DIFF_SRC, args[1].memory = dsm;
    best = peer_best(prim, s, 2, args);
    printf("resize_bwd linear x2 NCHW|%d\tonednn\t%.4f\n", threads, 1e9 * best / out);
    fflush(stdout);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(bpd);
    dnnl_primitive_desc_destroy(fpd);
    dnnl_memory_destroy(dsm), dnnl_memory_destroy(ddm);
}

int main(int argc, char **argv) {
    dnnl_engine_t eng;
    dnnl_stream_t s;
    int threads;
    if (!selected(argc, argv, "backward") || !(threads = peer_threads(argv))) return 0;
    ONEDNN_CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    ONEDNN_CHK(dnnl_stream_create(&s, eng, dnnl_stream_default_flags));
    layer_norm_bwd(eng, s, threads);
    resize_bwd(eng, s, threads);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(eng);
    return 0;
}
