/* dnnl_kernels — l2_norm.h: l2_norm (ByteIR's additional op). What it shares with layer_norm
 * (dtypes, layouts, statuses, the canonical order, speed) is described in norm_common.h.
 *
 * L2 NORM
 *   dnnlk_l2_norm(src, axis, epsilon, eps_outside_sqrt, dst, ith, nth): over one axis,
 *     default (TF):                 dst = x / sqrt(max(Σx², eps))
 *     eps_outside_sqrt (F.normalize): dst = x / max(sqrt(Σx²), eps)
 *   Σx² never overflows: rows where it would in f32 are summed in double, so finite inputs always
 *   give finite, correct outputs (PyTorch and the TF formula return 0 for |x| >= ~1e19).
 *
 *   f64 src and dst: norm_f64.h.
 *
 * ACCURACY
 *   Rows holding ±inf or NaN: every output element is NaN (PyTorch and TensorFlow's l2 normalize
 *   give 0 for the finite elements of a row holding ±inf). l2_norm over a non-innermost axis sums
 *   and scales in double (about 0.5 ulp) and runs as plain C on every ISA. */
#ifndef DNNLK_L2_NORM_H
#define DNNLK_L2_NORM_H

#include "norm_common.h"
#include "norm_f64.h" /* the f64 path */

DNNLK__NOINLINE_BEGIN /* every static DNNLK__NOINLINE function below */

/* What the per-level row kernels need, a plain struct. */
typedef struct dnnlk__l2_job {
    dnnlk__loop inner; /* operands 0 x, 1 y (rows mode: the axis) */
    int64_t n;
    int dt;
    int eps_out;
    int nt;
    double eps;
} dnnlk__l2_job;

/* ---- per-row decisions, shared by every level (never inlined into a target region, so the
 * double math is compiled once); a rows-mode group is the axis ---- */

/* 1/denominator from a double sum of squares. A row holding NaN or ±inf has a NaN or +inf sum
 * (double squares of floats cannot overflow it): its factor is NaN, so every element of the row
 * is NaN, instead of max() turning a NaN sum into eps or 1/inf making the finite elements 0. */
static DNNLK__FORCEINLINE double dnnlk__l2_inv(const dnnlk__l2_job *j, double s) {
    if (!(s - s == 0)) return s - s;
    return j->eps_out ? 1.0 / (dnnlk__sqrt(s) > j->eps ? dnnlk__sqrt(s) : j->eps)
                      : 1.0 / dnnlk__sqrt(s > j->eps ? s : j->eps);
}

/* 1/denominator in double from the lane sums of x²; 0 when the row must go to double. */
static DNNLK__FORCEINLINE int dnnlk__l2_finish(const dnnlk__l2_job *j, const float *lq, float *scale) {
    double s = dnnlk__norm_hsum16(lq);
    if (!(s - s == 0)) return dnnlk__norm_fallback;
    if (s < (double)j->n * 0x1p-100) {
        /* Squares below f32's normal range were lost; fine only when eps dominates. */
        if (j->eps_out ? j->eps * j->eps < (double)j->n * 0x1p-74 : j->eps < (double)j->n * 0x1p-74)
            return dnnlk__norm_fallback;
    }
    *scale = (float)dnnlk__l2_inv(j, s);
    return dnnlk__norm_ok;
}

/* A row in double: exact squares, a sum that cannot overflow, the product rounded once. */
static DNNLK__NOINLINE void dnnlk__l2_group_double(const dnnlk__l2_job *j, void *const *base) {
    dnnlk__norm_stream st;
    char *p[2];
    double s = 0, inv;
    int64_t i;
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        double x;
        dnnlk__norm_stream_next(&st, p);
        x = (double)dnnlk__norm_ld(p[0], j->dt);
        s += x * x;
    }
    inv = dnnlk__l2_inv(j, s);
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n; i++) {
        dnnlk__norm_stream_next(&st, p);
        dnnlk__store_from_f32(p[1], (dnnlk_dtype)j->dt, (float)((double)dnnlk__norm_ld(p[0], j->dt) * inv));
    }
}

#define DNNLK__SIMD_BODY "l2_norm_simd.h"
#include "simd_instantiate.h"

/* ---- validation, shape inference, the column path, the entry ---- */

static inline dnnlk_status dnnlk__l2_prepare(const dnnlk_tensor *src, int axis, float epsilon, const dnnlk_tensor *dst,
                                             int exec, dnnlk_tensor *od, int *ax) {
    dnnlk_status st;
    if (!src || !dst) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, exec);
    if (st != dnnlk_success) return st;
    if (!dnnlk__norm_float_dt(src->dtype) && src->dtype != dnnlk_f64) return dnnlk_invalid_data_type;
    if (src->dtype == dnnlk_f64 && !DNNLK__F64_MATH) return dnnlk_unimplemented;
    if (src->ndims < 1 || axis < -src->ndims || axis >= src->ndims) return dnnlk_invalid_arguments;
    *ax = axis < 0 ? axis + src->ndims : axis;
    if (!dnnlk__norm_eps_ok(epsilon)) return dnnlk_invalid_arguments;
    if (dst->dtype != src->dtype) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(dst, src->ndims, src->dims, od);
    if (st != dnnlk_success) return st;
    return exec ? dnnlk__output_writable(od, src, NULL) : dnnlk_success;
}

/* Completes dst for l2_norm; writes nothing on error. */
static inline dnnlk_status dnnlk_l2_norm_infer(const dnnlk_tensor *src, int axis, float epsilon, int eps_outside_sqrt,
                                               dnnlk_tensor *dst) {
    dnnlk_tensor od;
    int ax;
    dnnlk_status st;
    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__l2_prepare(src, axis, epsilon, dst, 0, &od, &ax);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &od);
    return st;
}

typedef void (*dnnlk__l2_rows_fn)(const dnnlk__l2_job *, char *, int64_t, char *, int64_t, int64_t);

/* Columns mode (the axis is not innermost): groups (o, p) for outer index o and inner position p,
 * flat index o·P + p; each sums its x² over the axis in order, in double (exact squares, no
 * overflow; FMA or not gives the same double), and scales in double. Blocks of inner positions
 * walk the axis together so contiguous inner rows stream. */
static DNNLK__NOINLINE void dnnlk__l2_columns(const dnnlk__l2_job *j, const dnnlk__loop *outer, const dnnlk__loop *inner,
                                              void *const *obase, int64_t sax_x, int64_t sax_y, int64_t gb, int64_t ge) {
    enum { BLK = 256 };
    int64_t P = inner->total, K = j->n, g = gb;
    size_t es = dnnlk_dtype_size((dnnlk_dtype)j->dt);
    double acc[BLK];
    int64_t offx[BLK], offy[BLK];
    while (g < ge) {
        int64_t o = g / P, p = g % P, cnt = P - p, q, k;
        dnnlk__loop_iter oit;
        char *orow[2], *ibase[2];
        dnnlk__norm_stream st;
        char *pp[2];
        if (cnt > ge - g) cnt = ge - g;
        if (cnt > BLK) cnt = BLK;
        dnnlk__iter_init(&oit, outer, obase, o, o + 1);
        (void)dnnlk__iter_next(&oit, orow);
        ibase[0] = orow[0];
        ibase[1] = orow[1];
        dnnlk__norm_stream_init(&st, inner, (void *const *)ibase, p);
        for (q = 0; q < cnt; q++) {
            dnnlk__norm_stream_next(&st, pp);
            offx[q] = pp[0] - orow[0];
            offy[q] = pp[1] - orow[1];
            acc[q] = 0;
        }
        for (k = 0; k < K; k++) {
            const char *xr = orow[0] + k * sax_x;
            for (q = 0; q < cnt; q++) {
                double x = (double)dnnlk__norm_ld(xr + offx[q], j->dt);
                acc[q] += x * x;
            }
        }
        for (q = 0; q < cnt; q++) acc[q] = dnnlk__l2_inv(j, acc[q]);
        for (k = 0; k < K; k++) {
            const char *xr = orow[0] + k * sax_x;
            char *yr = orow[1] + k * sax_y;
            for (q = 0; q < cnt; q++)
                dnnlk__store_from_f32(yr + offy[q], (dnnlk_dtype)j->dt,
                                      (float)((double)dnnlk__norm_ld(xr + offx[q], j->dt) * acc[q]));
        }
        (void)es;
        g += cnt;
    }
}

/* l2_norm, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_l2_norm(const dnnlk_tensor *src, int axis, float epsilon, int eps_outside_sqrt,
                                         dnnlk_tensor *dst, int ith, int nth) {
    static const float dummy[1] = {0};
    dnnlk_tensor od;
    dnnlk_status st;
    dnnlk__l2_job j;
    int ax, nd, i, no = 0, ni = 0;
    /* zeroed: a 1-d src leaves them empty, and gcc -O2 -Wall then warns in the includer's build */
    int64_t odims[DNNLK_MAX_NDIMS] = {0}, oxs[DNNLK_MAX_NDIMS] = {0}, oys[DNNLK_MAX_NDIMS] = {0};
    int64_t idims[DNNLK_MAX_NDIMS] = {0}, ixs[DNNLK_MAX_NDIMS] = {0}, iys[DNNLK_MAX_NDIMS] = {0};
    const int64_t *str[2];
    size_t es[2];
    void *base[2];
    dnnlk__loop outer, inner;
    int64_t gb, ge, n, P;
    char *row[2];
    dnnlk__loop_iter it;

    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__l2_prepare(src, axis, epsilon, dst, 1, &od, &ax);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(dst, &od);

    nd = src->ndims;
    memset(&j, 0, sizeof j);
    j.dt = (int)src->dtype;
    j.eps_out = eps_outside_sqrt != 0;
    j.eps = (double)epsilon;
    j.n = src->dims[ax];
    es[0] = es[1] = dnnlk_dtype_size(src->dtype);
    base[0] = src->data ? src->data : (void *)(uintptr_t)dummy;
    base[1] = od.data ? od.data : (void *)(uintptr_t)dummy;
    for (i = 0; i < nd; i++) {
        if (i < ax) odims[no] = src->dims[i], oxs[no] = src->strides[i], oys[no] = od.strides[i], no++;
        if (i > ax) idims[ni] = src->dims[i], ixs[ni] = src->strides[i], iys[ni] = od.strides[i], ni++;
    }
    str[0] = oxs;
    str[1] = oys;
    dnnlk__loop_init(&outer, no, odims, 2, str, es, 0);
    str[0] = ixs;
    str[1] = iys;
    dnnlk__loop_init(&inner, ni, idims, 2, str, es, 0);
    P = inner.total;
    if (outer.total == 0 || P == 0 || j.n == 0) return dnnlk_success;
    if (j.dt == dnnlk_f64) { /* norm_f64.h: groups in the order of both paths below */
        dnnlk__part_range(outer.total * P, ith, nth, 1, &gb, &ge);
        dnnlk__f64_l2_groups(&outer, &inner, base, j.n, src->strides[ax] * 8, od.strides[ax] * 8, j.eps, j.eps_out, gb, ge);
        return dnnlk_success;
    }

    if (P == 1) {
        /* Rows mode: a group is the axis. The group plan is the 1-d axis; the others are outer. */
        int64_t gdims[DNNLK_MAX_NDIMS] = {0}, gxs[DNNLK_MAX_NDIMS] = {0}, gys[DNNLK_MAX_NDIMS] = {0};
        int ng = 0;
        dnnlk__loop groups;
        dnnlk__l2_rows_fn fn;
        for (i = 0; i < nd; i++)
            if (i != ax) gdims[ng] = src->dims[i], gxs[ng] = src->strides[i], gys[ng] = od.strides[i], ng++;
        str[0] = gxs;
        str[1] = gys;
        dnnlk__loop_init(&groups, ng, gdims, 2, str, es, 0);
        str[0] = src->strides + ax;
        str[1] = od.strides + ax;
        dnnlk__loop_init(&j.inner, 1, src->dims + ax, 2, str, es, 0);
        fn = dnnlk__row_kind(&j.inner, 0) == dnnlk__row_contig && dnnlk__row_kind(&j.inner, 1) == dnnlk__row_contig
                 ? DNNLK__DISPATCH(dnnlk__l2_rows, )
                 : DNNLK__DISPATCH(dnnlk__l2_rows_strided, );
        dnnlk__part_range(groups.total, ith, nth, 1, &gb, &ge);
        j.nt = j.dt == dnnlk_f32 && (double)(ge - gb) * (double)j.n * 4.0 >= (double)DNNLK_NORM_NT_BYTES;
        dnnlk__iter_init(&it, &groups, base, gb, ge);
        while ((n = dnnlk__iter_next(&it, row)) > 0)
            fn(&j, row[0], dnnlk__row_stride(&groups, 0), row[1], dnnlk__row_stride(&groups, 1), n);
        return dnnlk_success;
    }
    dnnlk__part_range(outer.total * P, ith, nth, 1, &gb, &ge);
    dnnlk__l2_columns(&j, &outer, &inner, base, src->strides[ax] * (int64_t)es[0], od.strides[ax] * (int64_t)es[1], gb, ge);
    return dnnlk_success;
}

/* ---- backward ----
 *   dnnlk_l2_norm_bwd(src, diff_dst, axis, epsilon, eps_outside_sqrt, diff_src, ith, nth)
 *   and dnnlk_l2_norm_bwd_infer (completes diff_src only). src is the forward's input x.
 * With S = Σx², a = Σ diff_dst·x over the axis and r the forward's factor (1/sqrt(max(S, eps)),
 * or 1/max(sqrt(S), eps) with eps_outside_sqrt):
 *   where the max() takes the norm (S >= eps, or sqrt(S) >= eps):  diff_src = r diff_dst - x a r³
 *   where it takes eps (the row's norm below it):                  diff_src = r diff_dst
 * (the constant eps has no gradient: PyTorch's F.normalize, x / clamp_min(||x||, eps), passes the
 * gradient to the norm where ||x|| >= eps, so a tie takes the first line, as TensorFlow's
 * maximum does for the TF form). A row holding NaN or ±inf: every element NaN (as the forward).
 * Arithmetic: the sums in double in the order of the axis, each element r dy - x (a r³) in
 * double rounded once; plain C (one path for every level: the same bits on every level, layout and
 * part count; not vectorized). Tensors: src and diff_dst of the same dims, any strides, each a
 * float dtype of its own; diff_src completed from src's dims, any float dtype; diff_src may be
 * diff_dst or src itself (the same view). Parts split the rows. Status as the forward's, plus
 * invalid_shape for src and diff_dst dims that differ; nothing is written on error. */

static inline dnnlk_status dnnlk__l2b_prepare(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst, int axis,
                                              float epsilon, int eps_outside_sqrt, const dnnlk_tensor *diff_src,
                                              int exec, dnnlk_tensor *od, int *ax) {
    dnnlk_status st;
    int i;
    if (!src || !diff_dst || !diff_src) return dnnlk_invalid_arguments;
    if (!dnnlk__flag_ok(eps_outside_sqrt)) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, exec);
    if (st != dnnlk_success) return st;
    st = dnnlk__check_input(diff_dst, exec);
    if (st != dnnlk_success) return st;
    if (!dnnlk__norm_float_dt(src->dtype) || !dnnlk__norm_float_dt(diff_dst->dtype) ||
        !dnnlk__norm_float_dt(diff_src->dtype))
        return dnnlk_invalid_data_type;
    if (src->ndims < 1 || axis < -src->ndims || axis >= src->ndims) return dnnlk_invalid_arguments;
    *ax = axis < 0 ? axis + src->ndims : axis;
    if (!dnnlk__norm_eps_ok(epsilon)) return dnnlk_invalid_arguments;
    if (diff_dst->ndims != src->ndims) return dnnlk_invalid_shape;
    for (i = 0; i < src->ndims; i++)
        if (diff_dst->dims[i] != src->dims[i]) return dnnlk_invalid_shape;
    st = dnnlk__complete_output(diff_src, src->ndims, src->dims, od);
    if (st != dnnlk_success) return st;
    return exec ? dnnlk__output_writable(od, src, diff_dst) : dnnlk_success;
}

static inline dnnlk_status dnnlk_l2_norm_bwd_infer(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst, int axis,
                                                   float epsilon, int eps_outside_sqrt, dnnlk_tensor *diff_src) {
    dnnlk_tensor od;
    int ax;
    dnnlk_status st = dnnlk__l2b_prepare(src, diff_dst, axis, epsilon, eps_outside_sqrt, diff_src, 0, &od, &ax);
    if (st == dnnlk_success) dnnlk__set_desc(diff_src, &od);
    return st;
}

/* One row of K elements: p[0] diff_src, p[1] src, p[2] diff_dst at byte strides s[], dtypes dt[]. */
static DNNLK__NOINLINE void dnnlk__l2b_row(char *const *p, const int64_t *s, const dnnlk_dtype *dt, int64_t K,
                                           double eps, int eps_out) {
    double sq = 0, a = 0, r, c, n;
    int64_t k;
    int through;
    for (k = 0; k < K; k++) {
        double x = (double)dnnlk__load_as_f32(p[1] + k * s[1], dt[1]), g = (double)dnnlk__load_as_f32(p[2] + k * s[2], dt[2]);
        sq += x * x;
        a += g * x;
    }
    if (!(sq - sq == 0) || !(a - a == 0)) { /* a NaN or ±inf in the row (or an infinite a) */
        for (k = 0; k < K; k++) dnnlk__store_from_f32(p[0] + k * s[0], dt[0], NAN);
        return;
    }
    n = dnnlk__sqrt(sq);
    through = eps_out ? n >= eps : sq >= eps;
    r = 1.0 / (eps_out ? (through ? n : eps) : dnnlk__sqrt(through ? sq : eps));
    c = through ? a * r * r * r : 0.0;
    for (k = 0; k < K; k++) {
        double x = (double)dnnlk__load_as_f32(p[1] + k * s[1], dt[1]), g = (double)dnnlk__load_as_f32(p[2] + k * s[2], dt[2]);
        dnnlk__store_from_f32(p[0] + k * s[0], dt[0], (float)(g * r - x * c));
    }
}

static inline dnnlk_status dnnlk_l2_norm_bwd(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst, int axis,
                                             float epsilon, int eps_outside_sqrt, dnnlk_tensor *diff_src, int ith,
                                             int nth) {
    dnnlk_tensor od;
    dnnlk__loop rows;
    dnnlk__loop_iter it;
    int64_t dims[DNNLK_MAX_NDIMS], s[3], b, e, n, r, numel = 0;
    const int64_t *strides[3];
    size_t es[3];
    void *base[3];
    char *row[3], *p[3];
    dnnlk_dtype dt[3];
    int ax, i, d;
    dnnlk_status st = dnnlk__l2b_prepare(src, diff_dst, axis, epsilon, eps_outside_sqrt, diff_src, 1, &od, &ax);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(diff_src, &od);
    dnnlk_shape_numel(od.ndims, od.dims, &numel);
    if (numel == 0) return dnnlk_success;
    dt[0] = od.dtype, dt[1] = src->dtype, dt[2] = diff_dst->dtype;
    strides[0] = od.strides, strides[1] = src->strides, strides[2] = diff_dst->strides;
    base[0] = od.data, base[1] = src->data, base[2] = diff_dst->data;
    for (d = 0; d < 3; d++) {
        es[d] = dnnlk_dtype_size(dt[d]);
        s[d] = strides[d][ax] * (int64_t)es[d];
    }
    for (i = 0; i < od.ndims; i++) dims[i] = i == ax ? 1 : od.dims[i];
    dnnlk__loop_init(&rows, od.ndims, dims, 3, strides, es, DNNLK__LOOP_REORDER);
    dnnlk__part_range(rows.total, ith, nth, 1, &b, &e);
    if (b >= e) return dnnlk_success;
    dnnlk__iter_init(&it, &rows, base, b, e);
    while ((n = dnnlk__iter_next(&it, row)) > 0)
        for (r = 0; r < n; r++) {
            for (d = 0; d < 3; d++) p[d] = row[d] + r * dnnlk__row_stride(&rows, d);
            dnnlk__l2b_row(p, s, dt, od.dims[ax], (double)epsilon, eps_outside_sqrt);
        }
    return dnnlk_success;
}

DNNLK__NOINLINE_END
#endif /* DNNLK_L2_NORM_H */
