/* tools/ab_inprocess.sh's cmp case, the side compiled once per header tree: dnnlk_compare of two
 * f32 [rows, 4096] tensors into a boolean one with op, the best of reps calls in thread CPU time.
 * AB_NAME and AB_CAP name it per side. */
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static dnnlk_tensor dense(void *p, dnnlk_dtype dt, int64_t rows) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.data = p, t.dtype = dt, t.ndims = 2, t.dims[0] = rows, t.dims[1] = 4096, t.strides[0] = 4096, t.strides[1] = 1;
    return t;
}
static double ab_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
void AB_CAP(int isa) { if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa); }
double AB_NAME(const float *a, const float *b, unsigned char *d, int64_t rows, int op, int reps) {
    dnnlk_tensor ta = dense((void *)a, dnnlk_f32, rows), tb = dense((void *)b, dnnlk_f32, rows), td = dense(d, dnnlk_boolean, rows);
    double best = 1e9;
    int k;
    for (k = 0; k < reps; k++) {
        double t = ab_cpu();
        if (dnnlk_compare((dnnlk_compare_op)op, &ta, &tb, &td, 0, 1) != dnnlk_success) return -1;
        t = ab_cpu() - t;
        if (t < best) best = t;
    }
    return best;
}
