/* dnnl_kernels — fused_dropout.h: training epilogues with dropout fused in, one pass each way
 * (issue #26): bias + dropout + residual and gelu + dropout, forward and backward.
 *
 *   dnnlk_bias_dropout_residual_fwd(src, bias, residual, rate, rng_in, rng_out, dst, mask, ith, nth)
 *       dst = residual + dropout(src + bias)        (bias: 1-D, the length of src's last dim, or NULL)
 *   dnnlk_bias_dropout_residual_bwd(diff_dst, mask, rate, diff_src, diff_bias, diff_residual,
 *                                   workspace, workspace_bytes, ith, nth)
 *       diff_src = dropout_bwd(diff_dst); diff_bias = Σ over rows of diff_src (f32, or NULL);
 *       diff_residual = diff_dst (a copy; NULL, or diff_dst's own data: aliased, nothing written)
 *   dnnlk_bias_dropout_residual_bwd_workspace_bytes(diff_dst, want_diff_bias, nth, &bytes)
 *   dnnlk_bias_dropout_residual_bwd_finish(diff_dst, diff_bias, workspace, workspace_bytes, ith, nth)
 *   dnnlk_gelu_dropout_fwd(src, approximate, rate, rng_in, rng_out, dst, mask, ith, nth)
 *       dst = dropout(gelu(src))
 *   dnnlk_gelu_dropout_bwd(src, diff_dst, mask, approximate, rate, diff_src, ith, nth)
 *       diff_src = gelu_bwd(src, dropout_bwd(diff_dst)), reading src, mask and diff_dst once
 *   and the _infer functions, which complete the outputs' dims and strides only.
 *
 * SAME AS THE UNFUSED CALLS: the mask is dnnlk_dropout_fwd's for the same engine, state, rate and
 * element order (row-major; no noise shape), every rule there holds (the keep rules, one draw per
 * element, rng_out written by part 0 from the const rng_in, chained calls continue one stream,
 * parts split at multiples of 64 elements, rate outside [0, 1] or NaN refused). The values are
 * computed as the unfused sequence computes them: f32 x + bias, then dropout's one multiply by
 * (keep ? (float)(1/(1 - rate)) : 0), then residual + that (never fused into one rounding), so for
 * f32 dst equals residual + dnnlk_dropout_fwd(x + bias) bit for bit; gelu + dropout equals
 * dnnlk_gelu then dnnlk_dropout_fwd, and the backward dnnlk_dropout_bwd then dnnlk_gelu_bwd, bit
 * for bit on the same level (the same gelu bodies). One difference: at rate 0 dropout copies bits,
 * the fused ops multiply by 1, so a signalling NaN comes out quiet (NaN either way).
 * bf16 / f16: the math is f32 (inputs widened exactly) and the result is rounded once at the
 * store: the tests check it bit for bit against that f32 computation rounded once. The unfused
 * calls round after every step instead: gelu + dropout differs from dnnlk_gelu then
 * dnnlk_dropout_fwd (both bf16/f16) by at most 1 ulp (tested: one rounding fewer); bias + dropout
 * + residual rounds x + bias and the dropped value no more, so where residual cancels them the
 * unfused sequence's intermediate roundings are not bounded in ulps of dst (the fused value is the
 * more accurate one). The backward of gelu rounds once likewise; diff_bias sums diff_src as stored.
 * bf16/f16 run 32 elements at a time through f32 buffers (correct, not tuned for speed).
 *
 * diff_bias, THREADING: the fixed-order reduction of layer_norm_bwd.h (the same blocks of rows, the
 * same workspace layout, and its _finish): part ith takes whole blocks of rows, writes their
 * diff_src / diff_residual and each block's f32 column partials (rows in order) into the
 * workspace; dnnlk_bias_dropout_residual_bwd_finish sums the blocks in block order in double.
 * The bits are the same for every nth. With nth == 1 the bwd call finishes itself; otherwise
 *     for each ith in parallel: dnnlk_bias_dropout_residual_bwd(..., ws, ws_bytes, ith, nth);
 *     barrier;
 *     for each ith in parallel: dnnlk_bias_dropout_residual_bwd_finish(..., ws, ws_bytes, ith, nth);
 * Without diff_bias no workspace is needed (0 bytes, NULL allowed).
 *
 * TENSORS: src, residual, dst (diff_dst, diff_src, diff_residual) of one dtype, f32, bf16 or f16,
 * the same dims, dense row-major (other strides: dnnlk_unimplemented); bias of that dtype, dims
 * {last dim of src}, dense; diff_bias f32 with dims {last dim}, any strides. dst may be src or
 * residual itself (the same view), diff_src diff_dst or (gelu) src itself; a diff_residual that is
 * aliased (NULL or diff_dst's data) forbids diff_src == diff_dst (that would overwrite it). The
 * mask and the workspace overlap nothing. 0-d tensors take no bias.
 *
 * SPEED: one pass: the generator writes a block of DNNLK__FD_BLOCK keep bits into the mask, and
 * the same block of data is combined with them while the bits are in L1; outputs past
 * DNNLK_DROPOUT_NT_BYTES are streamed (f32), inputs prefetched as dropout does.
 *
 * STATUS: invalid_arguments (NULL pointers, bad rate, bad rng state, bad parts, bad approximate,
 * overlaps, missing or small workspace), invalid_data_type (dtypes), invalid_shape (dims),
 * unimplemented (non-dense layouts). On error nothing is written. */
#ifndef DNNLK_FUSED_DROPOUT_H
#define DNNLK_FUSED_DROPOUT_H

#include "dropout.h"
#include "eltwise.h"
#include "layer_norm_bwd.h"

DNNLK__NOINLINE_BEGIN

/* The kernels' op: bias + dropout + residual, or a gelu form (DNNLK__ELT_GELU_ERF / _TANH). */
#define DNNLK__FD_BDR (-1)
/* Keep bits generated per block: 64 mask bytes, L1-hot when the data pass reads them. Measured
 * (thread CPU time, [4096,768] bias+dropout+residual, 1 thread): 512 ran 0-10% faster than 1024 and
 * 4096; the data pass prefetches DNNLK_DROPOUT_PF_BYTES ahead, so the next blocks load while the
 * generator runs. */
#define DNNLK__FD_BLOCK 512

typedef struct dnnlk__fd_job {
    int op, dt, nt;
    float scale;
    int64_t cols;            /* bias length: src's last dim */
    const char *x, *bias, *res;
    char *dst;               /* forward */
    const char *dd;          /* backward: diff_dst, the mask */
    char *ds, *dres;
    const uint8_t *mask;
    size_t nbytes;
} dnnlk__fd_job;

#define DNNLK__SIMD_BODY "fused_dropout_simd.h"
#include "simd_instantiate.h"

/* ---- validation ---- */

/* A dense row-major tensor (dims of 1 may have any stride). */
static inline int dnnlk__fd_dense(const dnnlk_tensor *t) {
    int64_t s[DNNLK_MAX_NDIMS];
    int i;
    dnnlk_dense_strides(t->ndims, t->dims, s);
    for (i = 0; i < t->ndims; i++)
        if (t->dims[i] != 1 && t->strides[i] != s[i]) return 0;
    return 1;
}

/* An input of the data's dtype and dims (like: the data tensor), dense. */
static inline dnnlk_status dnnlk__fd_input(const dnnlk_tensor *t, const dnnlk_tensor *like, int exec) {
    dnnlk_status st;
    int i;
    if (!t) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(t, exec)) != dnnlk_success) return st;
    if (t->dtype != like->dtype) return dnnlk_invalid_data_type;
    if (t->ndims != like->ndims) return dnnlk_invalid_shape;
    for (i = 0; i < t->ndims; i++)
        if (t->dims[i] != like->dims[i]) return dnnlk_invalid_shape;
    return dnnlk__fd_dense(t) ? dnnlk_success : dnnlk_unimplemented;
}

/* The data tensor (src or diff_dst) and an output completed for it into *done. */
static inline dnnlk_status dnnlk__fd_output(const dnnlk_tensor *data, const dnnlk_tensor *out, dnnlk_tensor *done,
                                            int exec) {
    dnnlk_tensor d;
    dnnlk_status st;
    if (!data || !out) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(data, exec)) != dnnlk_success) return st;
    if (!dnnlk__is_float_dtype(data->dtype)) return dnnlk_invalid_data_type;
    if (!dnnlk__fd_dense(data)) return dnnlk_unimplemented;
    dnnlk__desc_copy(&d, out);
    if (d.dtype == dnnlk_dtype_undef) d.dtype = data->dtype;
    if (d.dtype != data->dtype) return dnnlk_invalid_data_type;
    if ((st = dnnlk__complete_output(&d, data->ndims, data->dims, done)) != dnnlk_success) return st;
    if (!dnnlk__fd_dense(done)) return dnnlk_unimplemented;
    if (exec && (st = dnnlk__output_writable(done, data, NULL)) != dnnlk_success) return st;
    return dnnlk_success;
}

/* The mask of n elements as a byte tensor, for the overlap checks. */
static inline dnnlk_tensor dnnlk__fd_mask_tensor(const uint8_t *mask, int64_t n) {
    return dnnlk__byte_range(mask, n / 8 + (n % 8 != 0));
}

static inline int64_t dnnlk__fd_numel(const dnnlk_tensor *t) {
    int64_t n = 0;
    (void)dnnlk_shape_numel(t->ndims, t->dims, &n);
    return n;
}

static inline int64_t dnnlk__fd_cols(const dnnlk_tensor *t) { return t->ndims > 0 ? t->dims[t->ndims - 1] : 1; }

/* ---- the two passes ---- */

/* The forward of a checked job over n elements: per part, blocks of keep bits into the mask and
 * the same block of data (see the top of the file). */
static inline void dnnlk__fd_fwd_run(dnnlk__fd_job *j, double rate, const dnnlk_rng *rng_in, dnnlk_rng *rng_out,
                                     uint8_t *mask, int64_t n, int ith, int nth) {
    dnnlk__drow row;
    dnnlk__bern bern;
    dnnlk_rng cur;
    int64_t mb, me, blk;
    uint64_t per = rng_in->alg == dnnlk_rng_mt19937 ? 2 : 1;
    dnnlk__dropout_row_init(&row, (dnnlk_dtype)j->dt, rate, n); /* dropout's scale and streaming rule */
    j->scale = row.scale;
    j->nt = row.nt;
    memset(&bern, 0, sizeof bern);
    if (rate == 0) bern.kind = dnnlk__bern_always;
    else if (rate == 1) bern.kind = dnnlk__bern_never;
    else bern = dnnlk__bern_keep(rng_in->alg, rate);
    dnnlk__part_range(n, ith, nth, 64, &mb, &me);
    cur = *rng_in;
    dnnlk__rng_advance(&cur, per * (uint64_t)mb);
    for (blk = mb; blk < me; blk += DNNLK__FD_BLOCK) {
        int64_t len = me - blk < DNNLK__FD_BLOCK ? me - blk : DNNLK__FD_BLOCK;
        dnnlk__rng_gen_bits(&cur, mask + blk / 8, (size_t)len, &bern);
        DNNLK__DISPATCH(dnnlk__fd_fwd_v, (j, blk, blk + len, mask + blk / 8, (size_t)((len + 7) / 8)));
    }
    if (j->nt && me > mb) DNNLK__DISPATCH(dnnlk__dropout_fence, ());
    dnnlk__rng_write_end(&cur, rng_out, per * (uint64_t)(n - me), ith); /* cur: after [mb, me) */
}

/* The backward of a checked job over n elements, without a column reduction. */
static inline void dnnlk__fd_bwd_run(dnnlk__fd_job *j, double rate, int64_t n, int ith, int nth) {
    dnnlk__drow row;
    int64_t b, e;
    dnnlk__dropout_row_init(&row, (dnnlk_dtype)j->dt, rate, n);
    j->scale = row.scale;
    j->nt = row.nt;
    j->nbytes = (size_t)(n / 8 + (n % 8 != 0));
    dnnlk__part_range(n, ith, nth, 64, &b, &e);
    if (b >= e) return;
    DNNLK__DISPATCH(dnnlk__fd_bwd_v, (j, b, e, NULL));
    if (j->nt) DNNLK__DISPATCH(dnnlk__dropout_fence, ());
}

/* ================================================================ bias + dropout + residual */

static inline dnnlk_status dnnlk_bias_dropout_residual_fwd_infer(const dnnlk_tensor *src, dnnlk_tensor *dst) {
    dnnlk_tensor d;
    dnnlk_status st = dnnlk__fd_output(src, dst, &d, 0);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &d);
    return st;
}

/* Forward (see the top of the file). */
static inline dnnlk_status dnnlk_bias_dropout_residual_fwd(const dnnlk_tensor *src, const dnnlk_tensor *bias,
                                                           const dnnlk_tensor *residual, double rate,
                                                           const dnnlk_rng *rng_in, dnnlk_rng *rng_out,
                                                           dnnlk_tensor *dst, uint8_t *mask, int ith, int nth) {
    dnnlk_tensor out, m;
    dnnlk__fd_job j;
    dnnlk_status st;
    int64_t n;
    if (!dst || !dnnlk__rng_state_ok(rng_in) || !dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    if (!(rate >= 0 && rate <= 1)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__fd_output(src, dst, &out, 1)) != dnnlk_success) return st;
    if ((st = dnnlk__fd_input(residual, src, 1)) != dnnlk_success) return st;
    if (bias) {
        if ((st = dnnlk__check_input(bias, 1)) != dnnlk_success) return st;
        if (bias->dtype != src->dtype) return dnnlk_invalid_data_type;
        if (src->ndims == 0 || bias->ndims != 1 || bias->dims[0] != dnnlk__fd_cols(src)) return dnnlk_invalid_shape;
        if (!dnnlk__fd_dense(bias)) return dnnlk_unimplemented;
        if (dnnlk__ranges_intersect(&out, bias)) return dnnlk_invalid_arguments;
    }
    if (!dnnlk__alias_ok(&out, residual)) return dnnlk_invalid_arguments;
    n = dnnlk__fd_numel(src);
    if (n > 0) {
        if (!mask) return dnnlk_invalid_arguments;
        m = dnnlk__fd_mask_tensor(mask, n);
        if (dnnlk__ranges_intersect(&m, src) || dnnlk__ranges_intersect(&m, &out) ||
            dnnlk__ranges_intersect(&m, residual) || (bias && dnnlk__ranges_intersect(&m, bias)))
            return dnnlk_invalid_arguments;
    }
    dnnlk__set_desc(dst, &out);
    memset(&j, 0, sizeof j);
    j.op = DNNLK__FD_BDR;
    j.dt = (int)src->dtype;
    j.cols = dnnlk__fd_cols(src);
    j.x = (const char *)src->data;
    j.bias = bias && bias->dims[0] > 0 ? (const char *)bias->data : NULL;
    j.res = (const char *)residual->data;
    j.dst = (char *)out.data;
    dnnlk__fd_fwd_run(&j, rate, rng_in, rng_out, mask, n, ith, nth);
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_bias_dropout_residual_bwd_infer(const dnnlk_tensor *diff_dst, dnnlk_tensor *diff_src) {
    return dnnlk_bias_dropout_residual_fwd_infer(diff_dst, diff_src);
}

/* Workspace bytes of the backward with diff_bias (0 without); nth is checked only. */
static inline dnnlk_status dnnlk_bias_dropout_residual_bwd_workspace_bytes(const dnnlk_tensor *diff_dst,
                                                                           int want_diff_bias, int nth, size_t *bytes) {
    const int last_axis = -1;
    dnnlk_status st;
    if (!diff_dst || !bytes || nth < 1 || !dnnlk__flag_ok(want_diff_bias)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(diff_dst, 0)) != dnnlk_success) return st;
    if (!want_diff_bias) {
        *bytes = 0;
        return dnnlk_success;
    }
    if (diff_dst->ndims == 0) return dnnlk_invalid_shape;
    /* the blocks of layer_norm_bwd.h over a tensor normalized along its last axis */
    return dnnlk_layer_norm_bwd_workspace_bytes(diff_dst, 1, &last_axis, 0, 1, nth, bytes);
}

/* The second step of a threaded backward with diff_bias: part ith of nth of its columns. */
static inline dnnlk_status dnnlk_bias_dropout_residual_bwd_finish(const dnnlk_tensor *diff_dst, dnnlk_tensor *diff_bias,
                                                                  const void *workspace, size_t workspace_bytes,
                                                                  int ith, int nth) {
    const int last_axis = -1;
    if (!diff_dst || !diff_bias) return dnnlk_invalid_arguments;
    if (diff_dst->ndims == 0) return dnnlk_invalid_shape;
    return dnnlk_layer_norm_bwd_finish(diff_dst, 1, &last_axis, NULL, diff_bias, workspace, workspace_bytes,
                                       ith, nth);
}

/* Backward (see the top of the file). */
static inline dnnlk_status dnnlk_bias_dropout_residual_bwd(const dnnlk_tensor *diff_dst, const uint8_t *mask, double rate,
                                                           dnnlk_tensor *diff_src, dnnlk_tensor *diff_bias,
                                                           dnnlk_tensor *diff_residual, void *workspace,
                                                           size_t workspace_bytes, int ith, int nth) {
    dnnlk_tensor ods, odb, odr, m;
    dnnlk__fd_job j;
    dnnlk_status st;
    int64_t n, cols, rows, br, nb, b0, b1, blk;
    size_t need = 0;
    int aliased;
    if (!diff_src || !dnnlk__part_ok(ith, nth) || !(rate >= 0 && rate <= 1)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__fd_output(diff_dst, diff_src, &ods, 1)) != dnnlk_success) return st;
    aliased = !diff_residual || (diff_residual->data && diff_residual->data == diff_dst->data);
    if (!aliased) {
        if ((st = dnnlk__fd_output(diff_dst, diff_residual, &odr, 1)) != dnnlk_success) return st;
        if (dnnlk__ranges_intersect(&odr, &ods)) return dnnlk_invalid_arguments;
    } else if (dnnlk__ranges_intersect(&ods, diff_dst)) {
        return dnnlk_invalid_arguments; /* diff_src would overwrite the aliased diff_residual */
    }
    if (diff_bias) {
        int64_t c;
        if (diff_dst->ndims == 0) return dnnlk_invalid_shape;
        if (diff_bias->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
        c = dnnlk__fd_cols(diff_dst);
        if ((st = dnnlk__complete_output(diff_bias, 1, &c, &odb)) != dnnlk_success) return st;
        if ((st = dnnlk__output_writable(&odb, &odb, NULL)) != dnnlk_success) return st;
        if (dnnlk__ranges_intersect(&odb, diff_dst) || dnnlk__ranges_intersect(&odb, &ods) ||
            (!aliased && dnnlk__ranges_intersect(&odb, &odr)))
            return dnnlk_invalid_arguments;
        if ((st = dnnlk_bias_dropout_residual_bwd_workspace_bytes(diff_dst, 1, nth, &need)) != dnnlk_success)
            return st;
        if ((need > 0 && !workspace) || workspace_bytes < need || ((uintptr_t)workspace & 3) != 0)
            return dnnlk_invalid_arguments;
    }
    n = dnnlk__fd_numel(diff_dst);
    if (n > 0) {
        dnnlk_tensor w;
        if (!mask) return dnnlk_invalid_arguments;
        m = dnnlk__fd_mask_tensor(mask, n);
        if (dnnlk__ranges_intersect(&m, &ods) || (!aliased && dnnlk__ranges_intersect(&m, &odr)) ||
            (diff_bias && dnnlk__ranges_intersect(&m, &odb)))
            return dnnlk_invalid_arguments;
        if (need > 0) {
            w = dnnlk__fd_mask_tensor((const uint8_t *)workspace, (int64_t)need * 8);
            if (dnnlk__ranges_intersect(&w, diff_dst) || dnnlk__ranges_intersect(&w, &ods) ||
                (!aliased && dnnlk__ranges_intersect(&w, &odr)) || dnnlk__ranges_intersect(&w, &odb) ||
                dnnlk__ranges_intersect(&w, &m))
                return dnnlk_invalid_arguments;
        }
    }
    dnnlk__set_desc(diff_src, &ods);
    if (!aliased) dnnlk__set_desc(diff_residual, &odr);
    if (diff_bias) dnnlk__set_desc(diff_bias, &odb);
    memset(&j, 0, sizeof j);
    j.op = DNNLK__FD_BDR;
    j.dt = (int)diff_dst->dtype;
    j.dd = (const char *)diff_dst->data;
    j.ds = (char *)ods.data;
    j.dres = aliased ? NULL : (char *)odr.data;
    j.mask = mask;
    if (!diff_bias) {
        dnnlk__fd_bwd_run(&j, rate, n, ith, nth);
        return dnnlk_success;
    }
    /* with diff_bias: whole blocks of rows, each into its workspace partials (layer_norm_bwd.h) */
    cols = j.cols = dnnlk__fd_cols(diff_dst);
    rows = cols > 0 ? n / cols : 0;
    {
        dnnlk__drow row;
        dnnlk__dropout_row_init(&row, (dnnlk_dtype)j.dt, rate, n);
        j.scale = row.scale;
        j.nt = row.nt;
        j.nbytes = (size_t)(n / 8 + (n % 8 != 0));
    }
    dnnlk__lnb_blocks(rows, &br, &nb);
    if (cols == 0) nb = 0;
    dnnlk__part_range(nb, ith, nth, 1, &b0, &b1);
    for (blk = b0; blk < b1; blk++) {
        int64_t g0 = blk * br, g1 = g0 + br < rows ? g0 + br : rows;
        float *acc = (float *)workspace + blk * cols;
        memset(acc, 0, (size_t)cols * 4);
        DNNLK__DISPATCH(dnnlk__fd_bwd_v, (&j, g0 * cols, g1 * cols, acc));
    }
    if (j.nt && b1 > b0) DNNLK__DISPATCH(dnnlk__dropout_fence, ());
    if (nth == 1) return dnnlk_bias_dropout_residual_bwd_finish(diff_dst, diff_bias, workspace, workspace_bytes, 0, 1);
    return dnnlk_success;
}

/* ================================================================ gelu + dropout */

static inline int dnnlk__fd_gelu_op(dnnlk_gelu_approx a) {
    if (a == dnnlk_gelu_none || a == dnnlk_gelu_erf) return DNNLK__ELT_GELU_ERF;
    if (a == dnnlk_gelu_tanh) return DNNLK__ELT_GELU_TANH;
    return -2; /* not an approximation */
}

static inline dnnlk_status dnnlk_gelu_dropout_fwd_infer(const dnnlk_tensor *src, dnnlk_gelu_approx approximate,
                                                        dnnlk_tensor *dst) {
    if (dnnlk__fd_gelu_op(approximate) < 0) return dnnlk_invalid_arguments;
    return dnnlk_bias_dropout_residual_fwd_infer(src, dst);
}

/* Forward (see the top of the file). */
static inline dnnlk_status dnnlk_gelu_dropout_fwd(const dnnlk_tensor *src, dnnlk_gelu_approx approximate, double rate,
                                                  const dnnlk_rng *rng_in, dnnlk_rng *rng_out, dnnlk_tensor *dst,
                                                  uint8_t *mask, int ith, int nth) {
    dnnlk_tensor out, m;
    dnnlk__fd_job j;
    dnnlk_status st;
    int64_t n;
    if (!dst || !dnnlk__rng_state_ok(rng_in) || !dnnlk__part_ok(ith, nth) || dnnlk__fd_gelu_op(approximate) < 0)
        return dnnlk_invalid_arguments;
    if (!(rate >= 0 && rate <= 1)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__fd_output(src, dst, &out, 1)) != dnnlk_success) return st;
    n = dnnlk__fd_numel(src);
    if (n > 0) {
        if (!mask) return dnnlk_invalid_arguments;
        m = dnnlk__fd_mask_tensor(mask, n);
        if (dnnlk__ranges_intersect(&m, src) || dnnlk__ranges_intersect(&m, &out)) return dnnlk_invalid_arguments;
    }
    dnnlk__set_desc(dst, &out);
    memset(&j, 0, sizeof j);
    j.op = dnnlk__fd_gelu_op(approximate);
    j.dt = (int)src->dtype;
    j.cols = dnnlk__fd_cols(src);
    j.x = (const char *)src->data;
    j.dst = (char *)out.data;
    dnnlk__fd_fwd_run(&j, rate, rng_in, rng_out, mask, n, ith, nth);
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_gelu_dropout_bwd_infer(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                                        dnnlk_gelu_approx approximate, dnnlk_tensor *diff_src) {
    dnnlk_status st;
    if (dnnlk__fd_gelu_op(approximate) < 0) return dnnlk_invalid_arguments;
    if ((st = dnnlk__fd_input(src, diff_dst, 0)) != dnnlk_success) return st;
    return dnnlk_bias_dropout_residual_fwd_infer(diff_dst, diff_src);
}

/* Backward (see the top of the file). */
static inline dnnlk_status dnnlk_gelu_dropout_bwd(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                                  const uint8_t *mask, dnnlk_gelu_approx approximate, double rate,
                                                  dnnlk_tensor *diff_src, int ith, int nth) {
    dnnlk_tensor ods, m;
    dnnlk__fd_job j;
    dnnlk_status st;
    int64_t n;
    if (!diff_src || !dnnlk__part_ok(ith, nth) || dnnlk__fd_gelu_op(approximate) < 0) return dnnlk_invalid_arguments;
    if (!(rate >= 0 && rate <= 1)) return dnnlk_invalid_arguments;
    if ((st = dnnlk__fd_output(diff_dst, diff_src, &ods, 1)) != dnnlk_success) return st;
    if ((st = dnnlk__fd_input(src, diff_dst, 1)) != dnnlk_success) return st;
    if (!dnnlk__alias_ok(&ods, src)) return dnnlk_invalid_arguments;
    n = dnnlk__fd_numel(diff_dst);
    if (n > 0) {
        if (!mask) return dnnlk_invalid_arguments;
        m = dnnlk__fd_mask_tensor(mask, n);
        if (dnnlk__ranges_intersect(&m, &ods)) return dnnlk_invalid_arguments;
    }
    dnnlk__set_desc(diff_src, &ods);
    memset(&j, 0, sizeof j);
    j.op = dnnlk__fd_gelu_op(approximate);
    j.dt = (int)diff_dst->dtype;
    j.x = (const char *)src->data;
    j.dd = (const char *)diff_dst->data;
    j.ds = (char *)ods.data;
    j.mask = mask;
    dnnlk__fd_bwd_run(&j, rate, n, ith, nth);
    return dnnlk_success;
}

DNNLK__NOINLINE_END
#endif /* DNNLK_FUSED_DROPOUT_H */
