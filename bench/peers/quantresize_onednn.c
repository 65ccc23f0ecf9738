/* oneDNN 2.6 peer of the quantresize group: the resampling primitive (forward_inference, nearest
 * and linear) on [8,64,128,128] NCHW f32 x2, at the bench's thread counts (a process each: see peer_threads).
 * Prints "KEY<TAB>onednn<TAB>ns_per_elem" (KEY "<case>|<threads>", per output element). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onednn_common.h"

static void run_case(const char *name, dnnl_alg_kind_t alg, int nth) {
    dnnl_engine_t eng;
    dnnl_stream_t s;
    dnnl_memory_desc_t smd, dmd;
    dnnl_resampling_desc_t rd;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t sm, dm;
    dnnl_dims_t sd = {8, 64, 128, 128}, dd = {8, 64, 256, 256};
    float factors[2] = {2.0f, 2.0f};
    dnnl_exec_arg_t args[2];
    double best = 1e30, out = 8.0 * 64 * 256 * 256;
    int r;
    ONEDNN_CHK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    ONEDNN_CHK(dnnl_stream_create(&s, eng, dnnl_stream_default_flags));
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&smd, 4, sd, dnnl_f32, dnnl_nchw));
    ONEDNN_CHK(dnnl_memory_desc_init_by_tag(&dmd, 4, dd, dnnl_f32, dnnl_nchw));
    ONEDNN_CHK(dnnl_resampling_forward_desc_init(&rd, dnnl_forward_inference, alg, factors, &smd, &dmd));
    ONEDNN_CHK(dnnl_primitive_desc_create(&pd, &rd, NULL, eng, NULL));
    ONEDNN_CHK(dnnl_primitive_create(&prim, pd));
    ONEDNN_CHK(dnnl_memory_create(&sm, &smd, eng, DNNL_MEMORY_ALLOCATE));
    ONEDNN_CHK(dnnl_memory_create(&dm, &dmd, eng, DNNL_MEMORY_ALLOCATE));
    {
        void *p;
        ONEDNN_CHK(dnnl_memory_get_data_handle(sm, &p));
        for (r = 0; r < 8 * 64 * 128 * 128; r++) ((float *)p)[r] = (float)(r % 1000) * 0.001f;
        ONEDNN_CHK(dnnl_memory_get_data_handle(dm, &p));
        memset(p, 0, 8 * 64 * 256 * 256 * 4);
    }
    args[0].arg = DNNL_ARG_SRC;
    args[0].memory = sm;
    args[1].arg = DNNL_ARG_DST;
    args[1].memory = dm;
    best = peer_best(prim, s, 2, args);
    printf("%s|%d\tonednn\t%.4f\n", name, nth, 1e9 * best / out);
    fflush(stdout);
    dnnl_memory_destroy(sm);
    dnnl_memory_destroy(dm);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(eng);
}

int main(int argc, char **argv) {
    int nth;
    if (!selected(argc, argv, "quantresize") || !(nth = peer_threads(argv))) return 0;
    run_case("resize nearest x2 NCHW", dnnl_resampling_nearest, nth);
    run_case("resize linear x2 NCHW", dnnl_resampling_linear, nth);
    return 0;
}
