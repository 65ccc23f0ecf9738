/* dnnl_kernels — layer_norm_bwd.h: the backward pass of layer_norm (layer_norm.h).
 *
 *   dnnlk_layer_norm_bwd_infer(src, diff_dst, mean, inv_std_dev, weight, naxes, axes,
 *                              diff_src, diff_weight, diff_bias)
 *   dnnlk_layer_norm_bwd_workspace_bytes(src, naxes, axes, want_diff_weight, want_diff_bias,
 *                                        nth, &bytes)
 *   dnnlk_layer_norm_bwd(src, diff_dst, mean, inv_std_dev, weight, naxes, axes, eps_outside_sqrt,
 *                        diff_src, diff_weight, diff_bias, workspace, workspace_bytes, ith, nth)
 *   dnnlk_layer_norm_bwd_finish(src, naxes, axes, diff_weight, diff_bias, workspace,
 *                               workspace_bytes, ith, nth)
 *
 * Inputs as the forward takes and gives them: src (f32, bf16, f16), diff_dst (src's dims and
 * dtype, any strides), mean and inv_std_dev (f32, src's dims with the normalized axes 1: what
 * dnnlk_layer_norm wrote, or any statistics the caller wants the gradient at), weight (optional,
 * f32, broadcast one way to the normalized shape). The normalized axes are the trailing axes of
 * src, as in the forward (any other set: dnnlk_unimplemented). With x̂ = (x − mean)·s
 * (s = inv_std_dev) and g = diff_dst·w, per group of N elements:
 *   diff_src    = s·(g − mean(g)) − x̂·k,   k = s·mean(g·x̂)                       (eps in sqrt)
 *                                          k = s·mean(g·x̂) / sqrt(mean(x̂²))    (eps_outside_sqrt;
 *                                              k = 0 for a constant group, where σ = 0)
 *   diff_weight = Σ over groups of diff_dst·x̂,   diff_bias = Σ over groups of diff_dst
 * (the second form of k is the derivative of 1/(σ + eps): σ = sqrt(mean(x̂²))/s, so epsilon is
 * not an argument). diff_src has src's dims and dtype (completed like any output);
 * diff_weight and diff_bias are optional (NULL), f32, with the normalized shape (the dims of the
 * trailing naxes axes): a caller whose weight is broadcast sums them further.
 *
 * ACCURACY: x − mean is exact in f32 for |x − mean| within a factor of 2 of |x|, so rows with a
 * mean of 1e4 and a std of 1 keep full precision (no Σx·g − mean·Σg cancellation as in PyTorch's
 * formula); the three sums run in f32 lanes and are finished in double. A row whose sums, mean or
 * inv_std_dev are not finite (inf/NaN in src, diff_dst or the statistics, or f32 overflow) is
 * redone in double with PyTorch 1.13's CPU formula (dx = s·g + b·x + c, b = (Σg·mean − Σg·x)·s³/N,
 * c = −b·mean − Σg·s/N), so its inf/NaN pattern is PyTorch's.
 *
 * THREADING (the reduction over groups): the groups are cut into blocks of a FIXED number of rows
 * that depends only on the shape (at least DNNLK__LNB_MIN_BLOCK_ROWS rows, at most
 * DNNLK__LNB_MAX_BLOCKS blocks). Part ith of nth takes a contiguous range of whole blocks, writes
 * diff_src for their rows and the block's per-column partial sums (in row order) into the
 * workspace. dnnlk_layer_norm_bwd_finish then sums the blocks' partials in block order, in
 * double, for part ith's share of the columns, and writes diff_weight / diff_bias. So the bits of
 * every output are the same for every nth. A threaded caller runs
 *     for each ith in parallel: dnnlk_layer_norm_bwd(..., ws, ws_bytes, ith, nth);
 *     barrier;
 *     for each ith in parallel: dnnlk_layer_norm_bwd_finish(..., ws, ws_bytes, ith, nth);
 * With nth == 1 dnnlk_layer_norm_bwd does the finish itself (one call). The workspace needs
 * dnnlk_layer_norm_bwd_workspace_bytes bytes (the size does not depend on nth, which is checked
 * only), 4-byte aligned; with neither diff_weight nor diff_bias it is 0 bytes and may be NULL.
 * workspace_bytes must be at least that, and the workspace must not overlap any tensor.
 *
 * SPEED: contiguous rows (and weight) run on the vector layer, one row at a time: pass 1 reads
 * src and diff_dst (requested DNNLK__LNB_PF_BYTES ahead into L2), pass 2 finds the row in cache.
 * An f32 diff_src of at least DNNLK_NORM_NT_BYTES in a part, whose rows start on a vector
 * boundary, is written with non-temporal stores (the same bits as plain stores).
 *
 * Statuses: invalid_arguments for NULL tensors or data, a missing mean or inv_std_dev, a missing
 * or too small workspace, a workspace overlapping any tensor of the call, bad (ith, nth),
 * eps_outside_sqrt not 0/1, outputs overlapping inputs or each other (diff_src may be diff_dst or
 * src exactly); invalid_shape for dims that do not
 * match; invalid_data_type; unimplemented for non-trailing axes. Nothing is written on error. */
#ifndef DNNLK_LAYER_NORM_BWD_H
#define DNNLK_LAYER_NORM_BWD_H

#include "layer_norm.h"

DNNLK__NOINLINE_BEGIN

/* Pass 1 requests src and diff_dst this far ahead into L2: from DRAM the hardware prefetchers
 * alone left the row loop waiting (4096 measured faster than 1024 and than none). */
#define DNNLK__LNB_PF_BYTES 4096
#define DNNLK__LNB_MIN_BLOCK_ROWS 32
#define DNNLK__LNB_MAX_BLOCKS 128

typedef struct dnnlk__lnb_job {
    int64_t n;
    int dt, has_w, eps_out;
    const float *w; /* contiguous weight (fast path), or NULL */
} dnnlk__lnb_job;

typedef struct dnnlk__lnb_rows_arg {
    const char *x, *dy, *mean, *istd;
    char *dx;
    int64_t xp, dyp, dxp, mp, ip; /* row pitches, bytes */
    int64_t rows;
    float *accw, *accb; /* the block's column partials, or NULL */
    int nt;             /* f32 diff_src streamed (non-temporal stores) */
} dnnlk__lnb_rows_arg;

/* a = mean(g) and k (see the top of the file) from the row's sums; 0 when the row must be done in
 * double (anything not finite). */
static DNNLK__FORCEINLINE int dnnlk__lnb_coeffs(const dnnlk__lnb_job *j, float m, float s, double s1, double s2,
                                                double s3, float *a, float *k) {
    double inv_n = 1.0 / (double)j->n, kk;
    if (!(m - m == 0) || !(s - s == 0) || !(s1 - s1 == 0) || !(s2 - s2 == 0) || !(s3 - s3 == 0)) return 0;
    kk = (double)s * s2 * inv_n;
    if (j->eps_out) kk = s3 > 0 ? kk / dnnlk__sqrt(s3 * inv_n) : 0;
    *a = (float)(s1 * inv_n);
    *k = (float)kk;
    return (*a - *a == 0) && (*k - *k == 0);
}

/* One contiguous row in double (PyTorch's formula with eps in the sqrt; the centered one with
 * eps_outside_sqrt, which PyTorch does not have). */
static DNNLK__NOINLINE void dnnlk__lnb_row_double(const dnnlk__lnb_job *j, const char *x, const char *dy, char *dx,
                                                  float mf, float sf) {
    const size_t es = j->dt == dnnlk_f32 ? 4 : 2;
    double ds = 0, db = 0, s3 = 0, s2 = 0, m = mf, s = sf, n = (double)j->n, b, c, k = 0;
    int64_t i;
    for (i = 0; i < j->n; i++) {
        double xv = dnnlk__norm_ld(x + (size_t)i * es, j->dt), g = dnnlk__norm_ld(dy + (size_t)i * es, j->dt);
        double xh = (xv - m) * s;
        if (j->has_w) g *= (double)j->w[i];
        ds += g * xv;
        db += g;
        s2 += g * xh;
        s3 += xh * xh;
    }
    b = (db * m - ds) * s * s * s / n;
    c = -b * m - db * s / n;
    if (j->eps_out) k = s3 > 0 ? s * (s2 / n) / dnnlk__sqrt(s3 / n) : 0;
    for (i = 0; i < j->n; i++) {
        double xv = dnnlk__norm_ld(x + (size_t)i * es, j->dt), g = dnnlk__norm_ld(dy + (size_t)i * es, j->dt), r;
        if (j->has_w) g *= (double)j->w[i];
        r = j->eps_out ? s * (g - db / n) - (xv - m) * s * k : s * g + b * xv + c;
        dnnlk__store_from_f32(dx + (size_t)i * es, (dnnlk_dtype)j->dt, (float)r);
    }
}

#define DNNLK__SIMD_BODY "layer_norm_bwd_simd.h"
#include "simd_instantiate.h"

/* ---- validation and shape inference ---- */

/* The block geometry of the reduction over R groups (see the top of the file). */
static inline void dnnlk__lnb_blocks(int64_t groups, int64_t *block_rows, int64_t *nblocks) {
    int64_t br = (groups + DNNLK__LNB_MAX_BLOCKS - 1) / DNNLK__LNB_MAX_BLOCKS;
    if (br < DNNLK__LNB_MIN_BLOCK_ROWS) br = DNNLK__LNB_MIN_BLOCK_ROWS;
    *block_rows = br;
    *nblocks = (groups + br - 1) / br;
}

/* The normalized axes (trailing) of src: number of outer dims into *ko. */
static inline dnnlk_status dnnlk__lnb_axes(const dnnlk_tensor *src, int naxes, const int *axes, int *ko) {
    int seen[DNNLK_MAX_NDIMS] = {0};
    int nd = src->ndims, i;
    if (naxes < 1 || naxes > nd || !axes) return dnnlk_invalid_arguments;
    for (i = 0; i < naxes; i++) {
        int a = axes[i] < 0 ? axes[i] + nd : axes[i];
        if (a < 0 || a >= nd || seen[a]) return dnnlk_invalid_arguments;
        seen[a] = 1;
    }
    for (i = nd - naxes; i < nd; i++)
        if (!seen[i]) return dnnlk_unimplemented;
    *ko = nd - naxes;
    return dnnlk_success;
}

/* Workspace floats per block column set: groups R, columns C, accumulators nacc. */
static inline dnnlk_status dnnlk__lnb_ws_bytes(const dnnlk_tensor *src, int ko, int nacc, int64_t *bytes) {
    int64_t groups = 1, cols = 1, br, nb, t;
    int i;
    for (i = 0; i < src->ndims; i++) {
        if (i < ko) groups *= src->dims[i];
        else cols *= src->dims[i];
    }
    dnnlk__lnb_blocks(groups, &br, &nb);
    if (dnnlk__mul_overflows(nb, cols, &t) || dnnlk__mul_overflows(t, (int64_t)nacc * 4, &t)) return dnnlk_invalid_shape;
    *bytes = t;
    return dnnlk_success;
}

/* Bytes of workspace dnnlk_layer_norm_bwd needs (0 when neither diff_weight nor diff_bias is
 * wanted). nth is checked (>= 1) but does not change the size: the blocking is fixed. */
static inline dnnlk_status dnnlk_layer_norm_bwd_workspace_bytes(const dnnlk_tensor *src, int naxes, const int *axes,
                                                                int want_diff_weight, int want_diff_bias, int nth,
                                                                size_t *bytes) {
    int ko;
    int64_t b;
    dnnlk_status st;
    if (!src || !bytes || nth < 1 || !dnnlk__flag_ok(want_diff_weight) || !dnnlk__flag_ok(want_diff_bias))
        return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(src, 0)) != dnnlk_success) return st;
    if ((st = dnnlk__lnb_axes(src, naxes, axes, &ko)) != dnnlk_success) return st;
    if ((st = dnnlk__lnb_ws_bytes(src, ko, want_diff_weight + want_diff_bias, &b)) != dnnlk_success) return st;
    *bytes = (size_t)b;
    return dnnlk_success;
}

/* Checks everything; completes diff_src into *odx and diff_weight / diff_bias into *odw / *odb. */
static inline dnnlk_status dnnlk__lnb_prepare(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                              const dnnlk_tensor *mean, const dnnlk_tensor *istd,
                                              const dnnlk_tensor *weight, int naxes, const int *axes,
                                              const dnnlk_tensor *dx, const dnnlk_tensor *dw, const dnnlk_tensor *db,
                                              int exec, dnnlk_tensor *odx, dnnlk_tensor *odw, dnnlk_tensor *odb,
                                              int *ko_out) {
    int64_t kdims[DNNLK_MAX_NDIMS];
    const dnnlk_tensor *ins[5];
    int nd, i, ko, a;
    dnnlk_status st;
    if (!src || !diff_dst || !mean || !istd || !dx) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(src, exec)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(diff_dst, exec)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(mean, exec)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(istd, exec)) != dnnlk_success) return st;
    if (!dnnlk__norm_float_dt(src->dtype) || diff_dst->dtype != src->dtype) return dnnlk_invalid_data_type;
    if (mean->dtype != dnnlk_f32 || istd->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
    if ((st = dnnlk__lnb_axes(src, naxes, axes, &ko)) != dnnlk_success) return st;
    nd = src->ndims;
    if (diff_dst->ndims != nd || mean->ndims != nd || istd->ndims != nd) return dnnlk_invalid_shape;
    for (i = 0; i < nd; i++) {
        kdims[i] = i < ko ? src->dims[i] : 1;
        if (diff_dst->dims[i] != src->dims[i] || mean->dims[i] != kdims[i] || istd->dims[i] != kdims[i])
            return dnnlk_invalid_shape;
    }
    if (weight) {
        if ((st = dnnlk__check_input(weight, exec)) != dnnlk_success) return st;
        if (weight->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        if ((st = dnnlk_broadcast_oneway(weight->ndims, weight->dims, nd - ko, src->dims + ko)) != dnnlk_success)
            return st;
    }
    if (dx->dtype != src->dtype) return dnnlk_invalid_data_type;
    if ((st = dnnlk__complete_output(dx, nd, src->dims, odx)) != dnnlk_success) return st;
    if (dw) {
        if (dw->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        if ((st = dnnlk__complete_output(dw, nd - ko, src->dims + ko, odw)) != dnnlk_success) return st;
    }
    if (db) {
        if (db->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        if ((st = dnnlk__complete_output(db, nd - ko, src->dims + ko, odb)) != dnnlk_success) return st;
    }
    if (exec) {
        ins[0] = src, ins[1] = diff_dst, ins[2] = mean, ins[3] = istd, ins[4] = weight;
        if ((st = dnnlk__output_writable(odx, src, diff_dst)) != dnnlk_success) return st;
        for (a = 2; a < 5; a++)
            if (ins[a] && dnnlk__ranges_intersect(odx, ins[a])) return dnnlk_invalid_arguments;
        for (a = 0; a < 5; a++) {
            if (!ins[a]) continue;
            if (dw && dnnlk__ranges_intersect(odw, ins[a])) return dnnlk_invalid_arguments;
            if (db && dnnlk__ranges_intersect(odb, ins[a])) return dnnlk_invalid_arguments;
        }
        if (dw && dnnlk__output_writable(odw, odx, NULL) != dnnlk_success) return dnnlk_invalid_arguments;
        if (db && dnnlk__output_writable(odb, odx, dw ? odw : NULL) != dnnlk_success) return dnnlk_invalid_arguments;
        if (dw && dnnlk__ranges_intersect(odw, odx)) return dnnlk_invalid_arguments;
        if (db && (dnnlk__ranges_intersect(odb, odx) || (dw && dnnlk__ranges_intersect(odb, odw))))
            return dnnlk_invalid_arguments;
    }
    *ko_out = ko;
    return dnnlk_success;
}

/* Completes diff_src (and diff_weight / diff_bias when given); writes nothing on error. */
static inline dnnlk_status dnnlk_layer_norm_bwd_infer(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                                      const dnnlk_tensor *mean, const dnnlk_tensor *inv_std_dev,
                                                      const dnnlk_tensor *weight, int naxes, const int *axes,
                                                      dnnlk_tensor *diff_src, dnnlk_tensor *diff_weight,
                                                      dnnlk_tensor *diff_bias) {
    dnnlk_tensor odx, odw, odb;
    int ko;
    dnnlk_status st = dnnlk__lnb_prepare(src, diff_dst, mean, inv_std_dev, weight, naxes, axes, diff_src,
                                         diff_weight, diff_bias, 0, &odx, &odw, &odb, &ko);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(diff_src, &odx);
    if (diff_weight) dnnlk__set_desc(diff_weight, &odw);
    if (diff_bias) dnnlk__set_desc(diff_bias, &odb);
    return dnnlk_success;
}

/* Element offsets of logical column c of a layout over `nd` dims. */
static inline int64_t dnnlk__lnb_off(int nd, const int64_t *dims, const int64_t *strides, int64_t c) {
    int64_t off = 0;
    int i;
    for (i = nd - 1; i >= 0; i--) {
        off += (c % dims[i]) * strides[i];
        c /= dims[i];
    }
    return off;
}

/* The second step (see the top of the file): part ith of nth of the columns, summed over blocks
 * in block order. The shape arguments must be those given to dnnlk_layer_norm_bwd. */
static inline dnnlk_status dnnlk_layer_norm_bwd_finish(const dnnlk_tensor *src, int naxes, const int *axes,
                                                       dnnlk_tensor *diff_weight, dnnlk_tensor *diff_bias,
                                                       const void *workspace, size_t workspace_bytes, int ith,
                                                       int nth) {
    dnnlk_tensor odw, odb;
    int64_t groups = 1, cols = 1, br, nb, need, c0, c1, c, b;
    int ko, i, nacc, nd;
    dnnlk_status st;
    const float *ws = (const float *)workspace;
    if (!src || !dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(src, 0)) != dnnlk_success) return st;
    if ((st = dnnlk__lnb_axes(src, naxes, axes, &ko)) != dnnlk_success) return st;
    nd = src->ndims - ko;
    nacc = (diff_weight ? 1 : 0) + (diff_bias ? 1 : 0);
    if ((st = dnnlk__lnb_ws_bytes(src, ko, nacc, &need)) != dnnlk_success) return st;
    if ((need > 0 && !workspace) || workspace_bytes < (size_t)need) return dnnlk_invalid_arguments;
    if (diff_weight) {
        if (diff_weight->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        if ((st = dnnlk__complete_output(diff_weight, nd, src->dims + ko, &odw)) != dnnlk_success) return st;
        if ((st = dnnlk__output_writable(&odw, &odw, NULL)) != dnnlk_success) return st;
    }
    if (diff_bias) {
        if (diff_bias->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        if ((st = dnnlk__complete_output(diff_bias, nd, src->dims + ko, &odb)) != dnnlk_success) return st;
        if ((st = dnnlk__output_writable(&odb, &odb, NULL)) != dnnlk_success) return st;
        if (diff_weight && dnnlk__ranges_intersect(&odw, &odb)) return dnnlk_invalid_arguments;
    }
    if (need > 0) { /* the workspace is read while the outputs are written */
        const dnnlk_tensor wt = dnnlk__byte_range(workspace, need);
        if ((diff_weight && dnnlk__ranges_intersect(&wt, &odw)) || (diff_bias && dnnlk__ranges_intersect(&wt, &odb)))
            return dnnlk_invalid_arguments;
    }
    if (diff_weight) dnnlk__set_desc(diff_weight, &odw);
    if (diff_bias) dnnlk__set_desc(diff_bias, &odb);
    for (i = 0; i < src->ndims; i++) {
        if (i < ko) groups *= src->dims[i];
        else cols *= src->dims[i];
    }
    if (nacc == 0 || cols == 0) return dnnlk_success;
    dnnlk__lnb_blocks(groups, &br, &nb);
    dnnlk__part_range(cols, ith, nth, 16, &c0, &c1);
    for (c = c0; c < c1; c += 64) {
        double acc[2][64];
        int64_t ce = c + 64 < c1 ? c + 64 : c1, t;
        int q;
        memset(acc, 0, sizeof acc);
        for (b = 0; b < nb; b++)
            for (q = 0; q < nacc; q++) {
                const float *p = ws + (b * nacc + q) * cols;
                for (t = c; t < ce; t++) acc[q][t - c] += (double)p[t];
            }
        for (t = c; t < ce; t++) {
            q = 0;
            if (diff_weight) {
                float v = (float)acc[q++][t - c];
                memcpy((float *)odw.data + dnnlk__lnb_off(nd, odw.dims, odw.strides, t), &v, 4);
            }
            if (diff_bias) {
                float v = (float)acc[q][t - c];
                memcpy((float *)odb.data + dnnlk__lnb_off(nd, odb.dims, odb.strides, t), &v, 4);
            }
        }
    }
    return dnnlk_success;
}

/* One element of a strided group (p: x, dy, dx, w): x, dy, x-hat and g = dy * w, read the same
 * way by both passes of dnnlk__lnb_group_strided. */
static DNNLK__FORCEINLINE float dnnlk__lnb_strided_elem(const dnnlk__lnb_job *j, char *const *p, float m, float s,
                                                       float *xv, float *dv, float *xh) {
    *xv = dnnlk__norm_ld(p[0], j->dt), *dv = dnnlk__norm_ld(p[1], j->dt);
    *xh = (*xv - m) * s;
    return j->has_w ? *dv * *(const float *)(const void *)p[3] : *dv;
}

/* One group that is not a contiguous row (or whose weight is not): the same formulas, element by
 * element in logical order, sums in double. base: x, dy, dx, w of the group. */
static DNNLK__NOINLINE void dnnlk__lnb_group_strided(const dnnlk__lnb_job *j, const dnnlk__loop *inner,
                                                     void *const *base, float m, float s, float *accw, float *accb) {
    dnnlk__norm_stream st;
    char *p[4];
    double s1 = 0, s2 = 0, s3 = 0, ds = 0;
    float a, k;
    int64_t i;
    dnnlk__norm_stream_init(&st, inner, base, 0);
    for (i = 0; i < j->n; i++) {
        float xv, dv, xh, gv;
        dnnlk__norm_stream_next(&st, p);
        gv = dnnlk__lnb_strided_elem(j, p, m, s, &xv, &dv, &xh);
        s1 += gv, s2 += (double)(gv * xh), s3 += (double)(xh * xh), ds += (double)gv * xv;
        if (accw) accw[i] += dv * xh;
        if (accb) accb[i] += dv;
    }
    if (dnnlk__lnb_coeffs(j, m, s, s1, s2, s3, &a, &k)) {
        dnnlk__norm_stream_init(&st, inner, base, 0);
        for (i = 0; i < j->n; i++) {
            float xv, dv, xh, gv;
            dnnlk__norm_stream_next(&st, p);
            gv = dnnlk__lnb_strided_elem(j, p, m, s, &xv, &dv, &xh);
            dnnlk__store_from_f32(p[2], (dnnlk_dtype)j->dt, s * (gv - a) - xh * k);
        }
    } else {
        /* as dnnlk__lnb_row_double */
        double n = (double)j->n, dm = m, dsd = s, b = (s1 * dm - ds) * dsd * dsd * dsd / n, c = -b * dm - s1 * dsd / n;
        double kk = j->eps_out && s3 > 0 ? dsd * (s2 / n) / dnnlk__sqrt(s3 / n) : 0;
        dnnlk__norm_stream_init(&st, inner, base, 0);
        for (i = 0; i < j->n; i++) {
            double xv, g, r;
            dnnlk__norm_stream_next(&st, p);
            xv = dnnlk__norm_ld(p[0], j->dt), g = dnnlk__norm_ld(p[1], j->dt);
            if (j->has_w) g *= (double)*(const float *)(const void *)p[3];
            r = j->eps_out ? dsd * (g - s1 / n) - (xv - dm) * dsd * kk : dsd * g + b * xv + c;
            dnnlk__store_from_f32(p[2], (dnnlk_dtype)j->dt, (float)r);
        }
    }
}

/* layer_norm backward, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_layer_norm_bwd(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                                const dnnlk_tensor *mean, const dnnlk_tensor *inv_std_dev,
                                                const dnnlk_tensor *weight, int naxes, const int *axes,
                                                int eps_outside_sqrt, dnnlk_tensor *diff_src,
                                                dnnlk_tensor *diff_weight, dnnlk_tensor *diff_bias, void *workspace,
                                                size_t workspace_bytes, int ith, int nth) {
    static const float dummy[1] = {0};
    dnnlk_tensor odx, odw, odb;
    dnnlk__lnb_job j;
    dnnlk__loop outer, inner;
    dnnlk__loop_iter it;
    int64_t zeros[DNNLK_MAX_NDIMS] = {0}, wst[DNNLK_MAX_NDIMS], need, groups, cols, br, nb, b0, b1, blk;
    const int64_t *ostr[5], *istr[4];
    size_t oes[5], ies[4];
    void *obase[5];
    char *row[5];
    int ko, nacc, fast, nd, nt;
    dnnlk_status st;
    void (*fn)(const dnnlk__lnb_job *, const dnnlk__lnb_rows_arg *);
    float *ws = (float *)workspace;

    if (!dnnlk__flag_ok(eps_outside_sqrt) || !dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    st = dnnlk__lnb_prepare(src, diff_dst, mean, inv_std_dev, weight, naxes, axes, diff_src, diff_weight, diff_bias,
                            1, &odx, &odw, &odb, &ko);
    if (st != dnnlk_success) return st;
    nacc = (diff_weight ? 1 : 0) + (diff_bias ? 1 : 0);
    if ((st = dnnlk__lnb_ws_bytes(src, ko, nacc, &need)) != dnnlk_success) return st;
    if ((need > 0 && !workspace) || workspace_bytes < (size_t)need || ((uintptr_t)workspace & 3) != 0)
        return dnnlk_invalid_arguments;
    if (need > 0) { /* the workspace is written: it may overlap no tensor of the call */
        const dnnlk_tensor wt = dnnlk__byte_range(workspace, need);
        const dnnlk_tensor *all[8];
        int k;
        all[0] = src, all[1] = diff_dst, all[2] = mean, all[3] = inv_std_dev, all[4] = weight, all[5] = &odx;
        all[6] = diff_weight ? &odw : NULL, all[7] = diff_bias ? &odb : NULL;
        for (k = 0; k < 8; k++)
            if (all[k] && dnnlk__ranges_intersect(&wt, all[k])) return dnnlk_invalid_arguments;
    }
    dnnlk__set_desc(diff_src, &odx);
    if (diff_weight) dnnlk__set_desc(diff_weight, &odw);
    if (diff_bias) dnnlk__set_desc(diff_bias, &odb);

    nd = src->ndims;
    memset(&j, 0, sizeof j);
    j.dt = (int)src->dtype;
    j.has_w = weight != NULL;
    j.eps_out = eps_outside_sqrt;
    if (j.has_w) dnnlk__broadcast_strides(weight, nd - ko, src->dims + ko, wst);
    istr[0] = src->strides + ko, istr[1] = diff_dst->strides + ko, istr[2] = odx.strides + ko;
    istr[3] = j.has_w ? wst : zeros;
    ies[0] = ies[1] = ies[2] = dnnlk_dtype_size(src->dtype), ies[3] = 4;
    dnnlk__loop_init(&inner, nd - ko, src->dims + ko, 4, istr, ies, 0);
    j.n = cols = inner.total;
    ostr[0] = src->strides, ostr[1] = diff_dst->strides, ostr[2] = odx.strides;
    ostr[3] = mean->strides, ostr[4] = inv_std_dev->strides;
    oes[0] = oes[1] = oes[2] = dnnlk_dtype_size(src->dtype), oes[3] = oes[4] = 4;
    dnnlk__loop_init(&outer, ko, src->dims, 5, ostr, oes, 0);
    groups = outer.total;
    if (groups == 0) return dnnlk_success;
    obase[0] = src->data, obase[1] = diff_dst->data, obase[2] = odx.data;
    obase[3] = mean->data, obase[4] = inv_std_dev->data;
    fast = inner.ndims == 1 && dnnlk__row_kind(&inner, 0) == dnnlk__row_contig &&
           dnnlk__row_kind(&inner, 1) == dnnlk__row_contig && dnnlk__row_kind(&inner, 2) == dnnlk__row_contig &&
           (!j.has_w || dnnlk__row_kind(&inner, 3) == dnnlk__row_contig);
    j.w = j.has_w ? (const float *)weight->data : NULL;
    fn = DNNLK__DISPATCH(dnnlk__lnb_rows, );
    dnnlk__lnb_blocks(groups, &br, &nb);
    if (nacc > 0) dnnlk__part_range(nb, ith, nth, 1, &b0, &b1);
    else b0 = 0, b1 = 1;
    { /* an f32 diff_src of DNNLK_NORM_NT_BYTES or more in this part goes past the caches */
        int64_t g0, g1;
        if (nacc > 0) g0 = b0 * br, g1 = b1 * br < groups ? b1 * br : groups;
        else dnnlk__part_range(groups, ith, nth, 1, &g0, &g1);
        nt = j.dt == dnnlk_f32 && (double)(g1 - g0) * (double)cols * 4.0 >= (double)DNNLK_NORM_NT_BYTES;
    }
    for (blk = b0; blk < b1; blk++) {
        int64_t g0, g1, n;
        float *accw = NULL, *accb = NULL;
        if (nacc > 0) {
            g0 = blk * br, g1 = g0 + br < groups ? g0 + br : groups;
            if (diff_weight) accw = ws + (blk * nacc) * cols;
            if (diff_bias) accb = ws + (blk * nacc + (diff_weight ? 1 : 0)) * cols;
            if (cols > 0) memset(ws + blk * nacc * cols, 0, (size_t)(nacc * cols) * 4);
        } else {
            dnnlk__part_range(groups, ith, nth, 1, &g0, &g1);
        }
        if (cols == 0 || g0 >= g1) continue;
        dnnlk__iter_init(&it, &outer, obase, g0, g1);
        while ((n = dnnlk__iter_next(&it, row)) > 0) {
            if (fast) {
                dnnlk__lnb_rows_arg ra;
                ra.x = row[0], ra.dy = row[1], ra.dx = row[2], ra.mean = row[3], ra.istd = row[4];
                ra.xp = dnnlk__row_stride(&outer, 0), ra.dyp = dnnlk__row_stride(&outer, 1);
                ra.dxp = dnnlk__row_stride(&outer, 2), ra.mp = dnnlk__row_stride(&outer, 3);
                ra.ip = dnnlk__row_stride(&outer, 4);
                ra.rows = n, ra.accw = accw, ra.accb = accb, ra.nt = nt;
                fn(&j, &ra);
            } else {
                int64_t g;
                for (g = 0; g < n; g++) {
                    void *base[4];
                    float m, s;
                    base[0] = row[0] + g * dnnlk__row_stride(&outer, 0);
                    base[1] = row[1] + g * dnnlk__row_stride(&outer, 1);
                    base[2] = row[2] + g * dnnlk__row_stride(&outer, 2);
                    base[3] = j.has_w ? weight->data : (void *)(uintptr_t)dummy;
                    memcpy(&m, row[3] + g * dnnlk__row_stride(&outer, 3), 4);
                    memcpy(&s, row[4] + g * dnnlk__row_stride(&outer, 4), 4);
                    dnnlk__lnb_group_strided(&j, &inner, base, m, s, accw, accb);
                }
            }
        }
    }
    if (nth == 1 && nacc > 0)
        return dnnlk_layer_norm_bwd_finish(src, naxes, axes, diff_weight, diff_bias, workspace, workspace_bytes, 0, 1);
    return dnnlk_success;
}

DNNLK__NOINLINE_END
#endif /* DNNLK_LAYER_NORM_BWD_H */
