/* tools/ab_inprocess.sh's lnb case, the side compiled once per header tree: layer_norm_bwd f32
 * [rows, n] over the last axis with weight, diff_weight and diff_bias (the bench's row), one
 * thread, the best of reps calls in thread CPU time. AB_NAME and AB_CAP name it per side. */
#include "dnnl_kernels.h"
#include <string.h>
#include <time.h>
static double ab_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
void AB_CAP(int isa) { if (isa >= 0) dnnlk_set_max_isa((dnnlk_isa)isa); }
/* x, dy, dx [rows, n]; m, is [rows]; w, dw, db [n]; ws of wsb bytes (>= the library's need) */
double AB_NAME(float *x, float *dy, float *dx, float *m, float *is, float *w, float *dw, float *db, void *ws,
               size_t wsb, int64_t rows, int64_t n, int reps) {
    dnnlk_tensor tx = {x, dnnlk_f32, 2, {rows, n}, {n, 1}}, tdy = {dy, dnnlk_f32, 2, {rows, n}, {n, 1}};
    dnnlk_tensor tdx = {dx, dnnlk_f32, 2, {rows, n}, {n, 1}}, tm = {m, dnnlk_f32, 2, {rows, 1}, {1, 1}};
    dnnlk_tensor tis = {is, dnnlk_f32, 2, {rows, 1}, {1, 1}}, tw = {w, dnnlk_f32, 1, {n}, {1}};
    dnnlk_tensor tdw = {dw, dnnlk_f32, 1, {n}, {1}}, tdb = {db, dnnlk_f32, 1, {n}, {1}};
    int ax = -1, k;
    size_t need = 0;
    double best = 1e9;
    if (dnnlk_layer_norm_bwd_workspace_bytes(&tx, 1, &ax, 1, 1, 1, &need) != dnnlk_success || need > wsb) return -1;
    for (k = 0; k < reps; k++) {
        double t = ab_cpu();
        if (dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &tis, &tw, 1, &ax, 0, &tdx, &tdw, &tdb, ws, need, 0, 1)) return -1;
        t = ab_cpu() - t;
        if (t < best) best = t;
    }
    return best;
}
