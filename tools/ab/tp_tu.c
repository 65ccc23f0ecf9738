/* tools/ab_inprocess.sh's tp case, the side compiled once per header tree: dnnlk_convert of an
 * NCHW tensor [8,C,128,128] into NHWC strides (the bench's transpose row at C = 64), the best of
 * reps calls in thread CPU time. AB_NAME and AB_CAP name it per side. */
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
void AB_CAP(int isa) { if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa); }
double AB_NAME(const void *x, void *y, int64_t C, int dtype, int reps) {
    const int64_t N = 8, H = 128, W = 128;
    dnnlk_tensor tx = {(void *)x, (dnnlk_dtype)dtype, 4, {N, C, H, W}, {C * H * W, H * W, W, 1}};
    dnnlk_tensor ty = {y, (dnnlk_dtype)dtype, 4, {N, C, H, W}, {H * W * C, 1, W * C, C}};
    double best = 1e9;
    int k;
    for (k = 0; k < reps; k++) {
        double t = ab_cpu();
        if (dnnlk_convert(&tx, &ty, 0, 1) != dnnlk_success) return -1;
        t = ab_cpu() - t;
        if (t < best) best = t;
    }
    return best;
}
