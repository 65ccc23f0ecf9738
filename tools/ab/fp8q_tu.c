/* tools/ab_inprocess.sh's fp8q case, the side compiled once per header tree: dnnlk_quantize_linear
 * of f32 [rows, 4096] to fp8 e4m3 with saturate and one scale s, the best of reps calls in thread
 * CPU time. AB_NAME and AB_CAP name it per side. */
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
void AB_CAP(int isa) { if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa); }
double AB_NAME(const float *x, unsigned char *y, int64_t rows, float s, int reps) {
    dnnlk_tensor tx, ty, ts;
    double best = 1e9;
    int k;
    memset(&tx, 0, sizeof tx), memset(&ty, 0, sizeof ty), memset(&ts, 0, sizeof ts);
    tx.data = (void *)x, tx.dtype = dnnlk_f32, tx.ndims = 2, tx.dims[0] = rows, tx.dims[1] = 4096, tx.strides[0] = 4096, tx.strides[1] = 1;
    ty = tx, ty.data = y, ty.dtype = dnnlk_f8_e4m3;
    ts.data = &s, ts.dtype = dnnlk_f32;
    for (k = 0; k < reps; k++) {
        double t = ab_cpu();
        if (dnnlk_quantize_linear(&tx, &ts, NULL, 1, 0, 1, &ty, 0, 1) != dnnlk_success) return -1;
        t = ab_cpu() - t;
        if (t < best) best = t;
    }
    return best;
}
