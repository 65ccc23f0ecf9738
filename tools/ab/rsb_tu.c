/* tools/ab_inprocess.sh's rsb case, the side compiled once per header tree: resize_bwd linear x2
 * half_pixel, diff_dst f32 [1,np,128,128] -> diff_src [1,np,64,64], part ith of nth, the best of
 * reps calls in thread CPU time (CLOCK_THREAD_CPUTIME_ID). AB_NAME and AB_CAP name it per side. */
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
void AB_CAP(int isa) { if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa); }
/* the best of reps calls of part (ith, nth) on the caller's buffers; the plane count np */
double AB_NAME(float *g, float *dx, int64_t np, int reps, int ith, int nth) {
    static const int axes[2] = {2, 3};
    static const float scales[2] = {2, 2};
    int64_t sd[4] = {1, np, 64, 64}, dd[4] = {1, np, 128, 128};
    dnnlk_tensor tg, tx;
    dnnlk_resize_desc d;
    double best = 1e9;
    int k;
    memset(&tg, 0, sizeof tg), memset(&tx, 0, sizeof tx), memset(&d, 0, sizeof d);
    d.mode = dnnlk_resize_linear, d.coord = dnnlk_resize_half_pixel, d.naxes = 2, d.axes = axes, d.scales = scales;
    tg.data = g, tg.dtype = dnnlk_f32, tg.ndims = 4, tx.data = dx, tx.dtype = dnnlk_f32, tx.ndims = 4;
    memcpy(tg.dims, dd, sizeof dd), memcpy(tx.dims, sd, sizeof sd);
    tg.strides[3] = 1, tg.strides[2] = 128, tg.strides[1] = 128 * 128, tg.strides[0] = np * 128 * 128;
    tx.strides[3] = 1, tx.strides[2] = 64, tx.strides[1] = 64 * 64, tx.strides[0] = np * 64 * 64;
    for (k = 0; k < reps; k++) {
        double t = ab_cpu();
        if (dnnlk_resize_bwd(&tg, &d, &tx, ith, nth) != dnnlk_success) return -1;
        t = ab_cpu() - t;
        if (t < best) best = t;
    }
    return best;
}
