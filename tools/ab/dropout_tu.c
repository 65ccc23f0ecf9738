/* tools/ab_inprocess.sh's dropout case, the side compiled once per header tree: dropout forward
 * at [8,512,768] (f32 or bf16, MT19937 or MCG31, part ith of nth), the best of reps calls (wall
 * clock) on the caller's buffers. AB_NAME names it per side. */
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
/* the best of reps calls of part (ith, nth) of dropout forward on the caller's buffers */
double AB_NAME(int bf16, int alg, char *s, char *d, unsigned char *m, int reps, int ith, int nth) {
    int64_t dims[3] = {8, 512, 768};
    dnnlk_tensor src, dst;
    dnnlk_rng r;
    double best = 1e9;
    int k;
    memset(&src, 0, sizeof src);
    src.data = s, src.dtype = bf16 ? dnnlk_bf16 : dnnlk_f32, src.ndims = 3;
    memcpy(src.dims, dims, sizeof dims);
    src.strides[2] = 1, src.strides[1] = 768, src.strides[0] = 512 * 768;
    dst = src, dst.data = d;
    dnnlk_rng_init(&r, (dnnlk_rng_alg)alg, 42, 0);
    for (k = 0; k < reps; k++) {
        double t = ab_now();
        if (dnnlk_dropout_fwd(&src, &dst, m, 0.1, 0, NULL, &r, NULL, ith, nth) != dnnlk_success) return -1;
        t = ab_now() - t;
        if (t < best) best = t;
    }
    return best;
}
