/* oneDNN 2.6 peer of the quantresize group: the resampling primitive (forward_inference, nearest
 * and linear) on [8,64,128,128] NCHW f32 x2. oneDNN's thread count is OpenMP's, fixed when its
 * runtime starts, so each thread count runs in a child process with OMP_NUM_THREADS set first.
 * Prints "KEY<TAB>onednn<TAB>ns_per_elem" (KEY "<case>|<threads>", per output element). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
    ONEDNN_CHK(dnnl_primitive_execute(prim, s, 2, args));
    ONEDNN_CHK(dnnl_stream_wait(s));
    for (r = 0; r < peer_reps(); r++) { /* min of peer_reps() samples, each >= 20 ms or 3 calls, as the harness */
        double start = now();
        int calls = 0;
        while (calls < 3 || now() - start < 0.02) {
            double t0 = now(), t;
            ONEDNN_CHK(dnnl_primitive_execute(prim, s, 2, args));
            ONEDNN_CHK(dnnl_stream_wait(s));
            t = now() - t0;
            if (t < best) best = t;
            calls++;
        }
    }
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
    int i, nth, sel = argc <= 1;
    for (i = 1; i < argc; i++)
        if (strstr("quantresize", argv[i])) sel = 1;
    if (!sel) return 0;
    for (nth = 1; nth <= 2; nth++) {
        pid_t pid = fork();
        if (pid == 0) {
            char v[8];
            snprintf(v, sizeof v, "%d", nth);
            setenv("OMP_NUM_THREADS", v, 1);
            run_case("resize nearest x2 NCHW", dnnl_resampling_nearest, nth);
            run_case("resize linear x2 NCHW", dnnl_resampling_linear, nth);
            _exit(0);
        }
        if (pid > 0) waitpid(pid, NULL, 0);
    }
    return 0;
}
