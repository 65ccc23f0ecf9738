/* tools/ab_inprocess.sh's small case, the side compiled once per header tree: calls on small
 * tensors, where the descriptor checks and the loop plan are a large share of the time. Case c:
 *   0 compare eq, s64 [8,1,1,512] against a 0-d 0 (the bench's `mask == 0` row)
 *   1 compare eq, s64 [1,1,1,8] against a 0-d 0 (8 elements: the call's fixed cost)
 *   2 select f32 [8,1,1,64] from cond [8,1,1,64] and a 0-d src1 (masked_fill, small)
 *   3 convert f32 -> bf16 [1,768]
 *   4 layer_norm f32 [1,768] with weight and bias
 *   5 softmax f32 [1,1000]
 *   6 gelu erf f32 [1,768]
 * Each timing: `calls` calls back to back, thread CPU time, the best of reps, in ns per call.
 * The outputs land in out (bytes, compared by the program). AB_NAME and AB_CAP name it per side. */
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static dnnlk_tensor ab_t(void *p, dnnlk_dtype dt, int nd, const int64_t *dims) {
    dnnlk_tensor t;
    int64_t s = 1;
    int i;
    memset(&t, 0, sizeof t);
    t.data = p, t.dtype = dt, t.ndims = nd;
    for (i = nd - 1; i >= 0; i--) t.dims[i] = dims[i], t.strides[i] = s, s *= dims[i];
    return t;
}
void AB_CAP(int isa) { if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa); }
static int ab_call(int c, const void *in, const void *in2, void *out) {
    static const int64_t d512[4] = {8, 1, 1, 512}, d8[4] = {1, 1, 1, 8}, d64[4] = {8, 1, 1, 64}, d768[2] = {1, 768},
                         d1000[2] = {1, 1000}, w768[1] = {768};
    static const int64_t zero = 0;
    static const float fzero = 0.0f;
    dnnlk_tensor a, b, d, w, bb;
    int ax = -1;
    switch (c) {
    case 0:
    case 1:
        a = ab_t((void *)in, dnnlk_s64, 4, c ? d8 : d512), b = ab_t((void *)&zero, dnnlk_s64, 0, NULL);
        d = ab_t(out, dnnlk_boolean, 4, c ? d8 : d512);
        return dnnlk_compare(dnnlk_compare_eq, &a, &b, &d, 0, 1);
    case 2:
        a = ab_t((void *)in2, dnnlk_boolean, 4, d64), b = ab_t((void *)in, dnnlk_f32, 4, d64);
        w = ab_t((void *)&fzero, dnnlk_f32, 0, NULL), d = ab_t(out, dnnlk_f32, 4, d64);
        return dnnlk_select(&a, &b, &w, &d, dnnlk_broadcast_numpy, 0, 1);
    case 3:
        a = ab_t((void *)in, dnnlk_f32, 2, d768), d = ab_t(out, dnnlk_bf16, 2, d768);
        return dnnlk_convert(&a, &d, 0, 1);
    case 4:
        a = ab_t((void *)in, dnnlk_f32, 2, d768), d = ab_t(out, dnnlk_f32, 2, d768);
        w = ab_t((float *)in + 1024, dnnlk_f32, 1, w768), bb = ab_t((float *)in + 2048, dnnlk_f32, 1, w768);
        return dnnlk_layer_norm(&a, &w, &bb, 1, &ax, 1e-5f, 0, &d, NULL, NULL, 0, 1);
    case 5:
        a = ab_t((void *)in, dnnlk_f32, 2, d1000), d = ab_t(out, dnnlk_f32, 2, d1000);
        return dnnlk_softmax(&a, -1, &d, 0, 1);
    default:
        a = ab_t((void *)in, dnnlk_f32, 2, d768), d = ab_t(out, dnnlk_f32, 2, d768);
        return dnnlk_gelu(&a, dnnlk_gelu_erf, &d, 0, 1);
    }
}
double AB_NAME(int c, const void *in, const void *in2, void *out, int calls, int reps) {
    double best = 1e9;
    int k, i;
    for (k = 0; k < reps; k++) {
        double t = ab_cpu();
        for (i = 0; i < calls; i++)
            if (ab_call(c, in, in2, out) != dnnlk_success) return -1;
        t = ab_cpu() - t;
        if (t < best) best = t;
    }
    return 1e9 * best / calls;
}
