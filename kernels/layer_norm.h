/* dnnl_kernels — layer_norm.h: layer_norm (ByteIR's additional op). What it shares with
 * l2_norm (dtypes, layouts, statuses, the canonical order, speed) is described in norm_common.h.
 *
 * LAYER NORM
 *   dnnlk_layer_norm(src, weight, bias, naxes, axes, epsilon, eps_outside_sqrt,
 *                    dst, mean, inv_std_dev, ith, nth)
 *   Each group is the set of elements of src that share their indices outside `axes`; over it
 *     mean = Σx / N,  var = Σ(x − mean)² / N   (population variance)
 *     default:           dst = (x − mean) · (1 / sqrt(var + eps)) · w + b
 *     eps_outside_sqrt:  dst = (x − mean) · (1 / (sqrt(var) + eps)) · w + b
 *   - axes: naxes >= 1 distinct axes, negative values count from the end; they must be the
 *     trailing axes of src (any order). A set that is not trailing returns dnnlk_unimplemented.
 *   - weight, bias: optional (NULL); f32, broadcastable one-way to the normalized shape (the dims
 *     of the trailing axes), any strides.
 *   - mean, inv_std_dev: optional (NULL) outputs, f32, src's dims with the normalized axes set to
 *     1 (kept dims). inv_std_dev holds the factor that multiplies (x − mean): 1/sqrt(var + eps),
 *     or 1/(sqrt(var) + eps) in eps_outside_sqrt mode. An empty group (N = 0) gives NaN for both.
 *   - epsilon: finite and >= 0; eps_outside_sqrt: 0 or 1 (else dnnlk_invalid_arguments).
 *   - f64: src, dst, weight, bias, mean and inv_std_dev all f64 (norm_f64.h).
 *
 * ACCURACY
 *   A shifted two-pass method: a shift m (the mean of the first 16 elements), then Σ(x−m) and
 *   Σ(x−m)² in one pass, mean = m + r with r = Σ(x−m)/N, var = Σ(x−m)²/N − r², and the output as
 *   ((x − m) − r)·s·w + b, so a mean of 1e4 with std 1 keeps full f32 precision. When r is not
 *   small against the std the pass is redone with m + r as the shift. Rows whose sums overflow or
 *   underflow f32, or hold inf/NaN, are recomputed in double (rows of huge finite values give the
 *   correct finite result where PyTorch's f32 statistics overflow).
 *   Rows holding ±inf or NaN: every output element is NaN; the mean output is the mean of the
 *   values (inf for [1, inf, 2, 3], NaN with both infinities or a NaN) and inv_std_dev is NaN, as
 *   ONNX's LayerNormalization reference computes them. Elements that cancel to near 0 have an
 *   absolute error of a few ulp of the row's output scale. */
#ifndef DNNLK_LAYER_NORM_H
#define DNNLK_LAYER_NORM_H

#include "norm_common.h"
#include "norm_f64.h" /* the f64 path */

DNNLK__NOINLINE_BEGIN /* every static DNNLK__NOINLINE function below */

/* What the per-level row kernels need, a plain struct. */
typedef struct dnnlk__ln_job {
    dnnlk__loop inner; /* the normalized dims; operands 0 x, 1 y, 2 w, 3 b (bytes) */
    int64_t n;
    double inv_n;
    int dt; /* dtype of x and y */
    int has_w, has_b, eps_out;
    int nt; /* f32 output streamed past the caches (non-temporal stores) */
    double eps;
    const float *w, *b; /* group-independent bases (a dummy when absent) */
} dnnlk__ln_job;

/* ---- per-row decisions, shared by every level ---- */

/* Shift for a row: the mean of its first min(16, N) elements (lanes zero-padded). */
static DNNLK__FORCEINLINE float dnnlk__ln_shift(const float *first16, int64_t n) {
    return (float)(dnnlk__norm_hsum16(first16) / (double)(n < 16 ? n : 16));
}

/* From the lane sums of d = x − m and d², decides: accept (o filled), redo with o->m, or fall
 * back to double. Inlined into each level's row loop: out of line, each row's call (a vzeroupper,
 * every vector register the loop holds spilled around an SSE-only callee) made 15% of the time of
 * an in-cache row of 768 (tools/norm_cputime.c, [256,768] f32 in L2, best of 1500: AVX-512 0.174
 * ns/element called, 0.147 inlined; AVX2 0.200-0.204, 0.179-0.188). Inlined, it is compiled with
 * the level's flags: no product below may be fused into the add that follows it (FMA levels would
 * round once where SSE4.1 rounds twice), hence the DNNLK__NOFUSE on each. */
static DNNLK__FORCEINLINE int dnnlk__ln_finish(const dnnlk__ln_job *j, float m, const float *ld, const float *lq,
                                              int attempt, dnnlk__norm_row *o) {
    double sd = dnnlk__norm_hsum16(ld), sq = dnnlk__norm_hsum16(lq), r, rr, sqn, var, s;
    if (!(m - m == 0) || !(sd - sd == 0) || !(sq - sq == 0)) return dnnlk__norm_fallback;
    r = sd * j->inv_n;
    DNNLK__NOFUSE(r);
    rr = r * r;
    DNNLK__NOFUSE(rr);
    sqn = sq * j->inv_n;
    DNNLK__NOFUSE(sqn);
    var = sqn - rr;
    if (rr > 0.25 * var) {
        /* The shift is far from the mean against the spread: var has lost bits to cancellation
         * and (x − m) − r would round badly. Shift by the better mean and do the pass again. */
        if (attempt > 0) return dnnlk__norm_fallback;
        o->m = (float)((double)m + r);
        return dnnlk__norm_redo;
    }
    if (var < 0x1p-100) {
        /* Squares below f32's normal range were lost; fine only when eps dominates. */
        if (j->eps_out ? j->eps < 0x1p-37 : j->eps < 0x1p-74) return dnnlk__norm_fallback;
    }
    if (var < 0) var = 0;
    s = j->eps_out ? 1.0 / (dnnlk__sqrt(var) + j->eps) : 1.0 / dnnlk__sqrt(var + j->eps);
    o->m = m;
    o->r = (float)r;
    o->s = (float)s;
    o->mean_out = (float)((double)m + r);
    o->istd_out = (float)s;
    return dnnlk__norm_ok;
}

/* The whole group in double, in logical order: rows the f32 path cannot do (overflow, inf/NaN,
 * vanishing variance). base: x and y of the group, w and b bases. */
static DNNLK__NOINLINE void dnnlk__ln_group_double(const dnnlk__ln_job *j, void *const *base, dnnlk__norm_row *o) {
    dnnlk__norm_stream st;
    char *p[4];
    double sum = 0, mu, sq = 0, s;
    int64_t i;
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        dnnlk__norm_stream_next(&st, p);
        sum += (double)dnnlk__norm_ld(p[0], j->dt);
    }
    mu = sum / (double)j->n;
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        double d;
        dnnlk__norm_stream_next(&st, p);
        d = (double)dnnlk__norm_ld(p[0], j->dt) - mu;
        sq += d * d;
    }
    sq /= (double)j->n;
    s = j->eps_out ? 1.0 / (dnnlk__sqrt(sq) + j->eps) : 1.0 / dnnlk__sqrt(sq + j->eps);
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        double y;
        dnnlk__norm_stream_next(&st, p);
        y = ((double)dnnlk__norm_ld(p[0], j->dt) - mu) * s;
        if (j->has_w) y *= (double)*(const float *)(const void *)p[2];
        DNNLK__NOFUSE(y);
        if (j->has_b) y += (double)*(const float *)(const void *)p[3];
        dnnlk__store_from_f32(p[1], (dnnlk_dtype)j->dt, (float)y);
    }
    /* A row with inf or NaN: mean is the mean of the values (inf, -inf, or NaN when both signs
     * of inf or a NaN are present) and inv_std_dev NaN (x - mean is NaN somewhere), as ONNX's
     * LayerNormalization reference computes them; every output element is NaN. */
    o->mean_out = (float)mu;
    o->istd_out = (float)s;
}

#define DNNLK__SIMD_BODY "layer_norm_simd.h"
#include "simd_instantiate.h"

/* ---- validation and shape inference ---- */

/* Checks and completes everything; on success od, om, oi hold the completed descriptors (om/oi
 * only when mean/inv_std_dev are given) and *kaxes the number of normalized (trailing) axes. */
static inline dnnlk_status dnnlk__ln_prepare(const dnnlk_tensor *src, const dnnlk_tensor *weight,
                                             const dnnlk_tensor *bias, int naxes, const int *axes, float epsilon,
                                             const dnnlk_tensor *dst, const dnnlk_tensor *mean,
                                             const dnnlk_tensor *inv_std_dev, int exec, dnnlk_tensor *od,
                                             dnnlk_tensor *om, dnnlk_tensor *oi) {
    int seen[DNNLK_MAX_NDIMS] = {0};
    int64_t kdims[DNNLK_MAX_NDIMS];
    int nd, i, outer;
    dnnlk_status st;
    const dnnlk_tensor *wb[2];
    dnnlk_dtype pt; /* weight, bias, mean, inv_std_dev: f32, or f64 with an f64 src (norm_f64.h) */
    if (!src || !dst || (naxes > 0 && !axes)) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, exec);
    if (st != dnnlk_success) return st;
    if (!dnnlk__norm_float_dt(src->dtype) && src->dtype != dnnlk_f64) return dnnlk_invalid_data_type;
    if (src->dtype == dnnlk_f64 && !DNNLK__F64_MATH) return dnnlk_unimplemented;
    pt = src->dtype == dnnlk_f64 ? dnnlk_f64 : dnnlk_f32;
    nd = src->ndims;
    if (naxes < 1 || naxes > nd) return dnnlk_invalid_arguments;
    for (i = 0; i < naxes; i++) {
        int a = axes[i] < 0 ? axes[i] + nd : axes[i];
        if (a < 0 || a >= nd || seen[a]) return dnnlk_invalid_arguments;
        seen[a] = 1;
    }
    outer = nd - naxes;
    for (i = outer; i < nd; i++)
        if (!seen[i]) return dnnlk_unimplemented;
    if (!dnnlk__norm_eps_ok(epsilon)) return dnnlk_invalid_arguments;
    wb[0] = weight;
    wb[1] = bias;
    for (i = 0; i < 2; i++) {
        if (!wb[i]) continue;
        st = dnnlk__check_input(wb[i], exec);
        if (st != dnnlk_success) return st;
        if (wb[i]->dtype != pt) return dnnlk_invalid_data_type;
        st = dnnlk_broadcast_oneway(wb[i]->ndims, wb[i]->dims, naxes, src->dims + outer);
        if (st != dnnlk_success) return st;
    }
    if (dst->dtype != src->dtype) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(dst, nd, src->dims, od);
    if (st != dnnlk_success) return st;
    for (i = 0; i < nd; i++) kdims[i] = i < outer ? src->dims[i] : 1;
    if (mean) {
        if (mean->dtype != pt) return dnnlk_invalid_data_type;
        st = dnnlk__complete_output(mean, nd, kdims, om);
        if (st != dnnlk_success) return st;
    }
    if (inv_std_dev) {
        if (inv_std_dev->dtype != pt) return dnnlk_invalid_data_type;
        st = dnnlk__complete_output(inv_std_dev, nd, kdims, oi);
        if (st != dnnlk_success) return st;
    }
    if (exec) {
        const dnnlk_tensor *outs[3];
        int no = 0, a, b;
        outs[no++] = od;
        if (mean) outs[no++] = om;
        if (inv_std_dev) outs[no++] = oi;
        for (a = 0; a < no; a++) {
            if ((st = dnnlk__output_writable(outs[a], src, NULL)) != dnnlk_success) return st;
            if (a > 0 && dnnlk__ranges_intersect(outs[a], src)) return dnnlk_invalid_arguments;
            for (i = 0; i < 2; i++)
                if (wb[i] && dnnlk__ranges_intersect(outs[a], wb[i])) return dnnlk_invalid_arguments;
            for (b = 0; b < a; b++)
                if (dnnlk__ranges_intersect(outs[a], outs[b])) return dnnlk_invalid_arguments;
        }
    }
    return dnnlk_success;
}

/* Completes dst (and mean / inv_std_dev when given) for layer_norm; writes nothing on error. */
static inline dnnlk_status dnnlk_layer_norm_infer(const dnnlk_tensor *src, const dnnlk_tensor *weight,
                                                  const dnnlk_tensor *bias, int naxes, const int *axes,
                                                  float epsilon, int eps_outside_sqrt, dnnlk_tensor *dst,
                                                  dnnlk_tensor *mean, dnnlk_tensor *inv_std_dev) {
    dnnlk_tensor od, om, oi;
    dnnlk_status st;
    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__ln_prepare(src, weight, bias, naxes, axes, epsilon, dst, mean, inv_std_dev, 0, &od, &om, &oi);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(dst, &od);
    if (mean) dnnlk__set_desc(mean, &om);
    if (inv_std_dev) dnnlk__set_desc(inv_std_dev, &oi);
    return dnnlk_success;
}

typedef void (*dnnlk__ln_rows_fn)(const dnnlk__ln_job *, char *, int64_t, char *, int64_t, char *, int64_t, char *,
                                  int64_t, int64_t, int);

/* layer_norm, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_layer_norm(const dnnlk_tensor *src, const dnnlk_tensor *weight,
                                            const dnnlk_tensor *bias, int naxes, const int *axes, float epsilon,
                                            int eps_outside_sqrt, dnnlk_tensor *dst, dnnlk_tensor *mean,
                                            dnnlk_tensor *inv_std_dev, int ith, int nth) {
    static const float dummy[1] = {0};
    dnnlk_tensor od, om, oi;
    dnnlk_status st;
    dnnlk__ln_job j;
    dnnlk__loop outer;
    int64_t zeros[DNNLK_MAX_NDIMS] = {0}, ws[DNNLK_MAX_NDIMS], bs[DNNLK_MAX_NDIMS];
    const int64_t *ostr[4], *istr[4];
    size_t oes[4], ies[4];
    void *obase[4], *ibase[4];
    int nd, ko, outs, fast;
    int64_t gb, ge, n;
    char *row[4];
    dnnlk__loop_iter it;
    dnnlk__ln_rows_fn fn;

    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__ln_prepare(src, weight, bias, naxes, axes, epsilon, dst, mean, inv_std_dev, 1, &od, &om, &oi);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(dst, &od);
    if (mean) dnnlk__set_desc(mean, &om);
    if (inv_std_dev) dnnlk__set_desc(inv_std_dev, &oi);

    nd = src->ndims;
    ko = nd - naxes;
    memset(&j, 0, sizeof j);
    j.dt = (int)src->dtype;
    j.has_w = weight != NULL;
    j.has_b = bias != NULL;
    j.eps_out = eps_outside_sqrt != 0;
    j.eps = (double)epsilon;
    j.w = j.has_w && weight->data ? (const float *)weight->data : dummy;
    j.b = j.has_b && bias->data ? (const float *)bias->data : dummy;
    if (j.has_w) dnnlk__broadcast_strides(weight, naxes, src->dims + ko, ws);
    if (j.has_b) dnnlk__broadcast_strides(bias, naxes, src->dims + ko, bs);
    istr[0] = src->strides + ko;
    istr[1] = od.strides + ko;
    istr[2] = j.has_w ? ws : zeros;
    istr[3] = j.has_b ? bs : zeros;
    ies[0] = ies[1] = dnnlk_dtype_size(src->dtype);
    ies[2] = ies[3] = j.dt == dnnlk_f64 ? 8 : 4;
    dnnlk__loop_init(&j.inner, naxes, src->dims + ko, 4, istr, ies, 0);
    j.n = j.inner.total;
    j.inv_n = j.n > 0 ? 1.0 / (double)j.n : 0;

    ostr[0] = src->strides;
    ostr[1] = od.strides;
    ostr[2] = mean ? om.strides : zeros;
    ostr[3] = inv_std_dev ? oi.strides : zeros;
    oes[0] = oes[1] = dnnlk_dtype_size(src->dtype);
    oes[2] = oes[3] = j.dt == dnnlk_f64 ? 8 : 4;
    dnnlk__loop_init(&outer, ko, src->dims, 4, ostr, oes, 0);
    if (outer.total == 0) return dnnlk_success;
    outs = (mean ? 1 : 0) | (inv_std_dev ? 2 : 0);
    obase[0] = src->data ? src->data : (void *)(uintptr_t)dummy;
    obase[1] = od.data ? od.data : (void *)(uintptr_t)dummy;
    obase[2] = mean && om.data ? om.data : (void *)(uintptr_t)dummy;
    obase[3] = inv_std_dev && oi.data ? oi.data : (void *)(uintptr_t)dummy;
    (void)ibase;

    fast = j.inner.ndims == 1 && dnnlk__row_kind(&j.inner, 0) == dnnlk__row_contig &&
           dnnlk__row_kind(&j.inner, 1) == dnnlk__row_contig &&
           (!j.has_w || dnnlk__row_kind(&j.inner, 2) == dnnlk__row_contig) &&
           (!j.has_b || dnnlk__row_kind(&j.inner, 3) == dnnlk__row_contig);
    fn = fast ? DNNLK__DISPATCH(dnnlk__ln_rows, ) : DNNLK__DISPATCH(dnnlk__ln_rows_strided, );
    dnnlk__part_range(outer.total, ith, nth, 1, &gb, &ge);
    j.nt = j.dt == dnnlk_f32 && (double)(ge - gb) * (double)j.n * 4.0 >= (double)DNNLK_NORM_NT_BYTES;
    dnnlk__iter_init(&it, &outer, obase, gb, ge);
    while ((n = dnnlk__iter_next(&it, row)) > 0) {
        if (j.dt == dnnlk_f64) {
            dnnlk__f64_ln_groups(&j.inner, j.w, j.b, j.has_w, j.has_b, j.eps, j.eps_out, &outer, row, n, outs);
            continue;
        }
        if (j.n == 0) {
            /* Empty groups: no output elements; the statistics of nothing are NaN. */
            float nanv = (float)NAN;
            int64_t g;
            for (g = 0; g < n; g++) {
                if (outs & 1) memcpy(row[2] + g * dnnlk__row_stride(&outer, 2), &nanv, 4);
                if (outs & 2) memcpy(row[3] + g * dnnlk__row_stride(&outer, 3), &nanv, 4);
            }
            continue;
        }
        fn(&j, row[0], dnnlk__row_stride(&outer, 0), row[1], dnnlk__row_stride(&outer, 1), row[2],
           dnnlk__row_stride(&outer, 2), row[3], dnnlk__row_stride(&outer, 3), n, outs);
    }
    return dnnlk_success;
}

DNNLK__NOINLINE_END
#endif /* DNNLK_LAYER_NORM_H */
