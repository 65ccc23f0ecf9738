/* dnnl_kernels — fused_softmax.h: masked softmax + dropout along the last axis, forward and
 * backward, one pass over memory each way (attention probabilities in training).
 *
 *   dnnlk_masked_softmax_dropout_fwd(src, cond, axis, rate, rng_in, rng_out, dst, drop_mask,
 *                                    stats, probs, ith, nth)
 *       p = softmax(cond ? -inf : src)  along the last axis
 *       dst = dropout(p) = p * (keep ? 1/(1 - rate) : 0),  drop_mask the keep bits
 *       stats (NULL: not saved): each row's max and 1/sum; probs (NULL: not saved): p itself
 *   dnnlk_masked_softmax_dropout_bwd(src, cond, axis, stats, probs, drop_mask, rate, diff_dst,
 *                                    diff_src, ith, nth)
 *       g = dropout_bwd(diff_dst),  diff_src = p (g - sum(g p)),  p from probs when given, else
 *       recomputed from src, cond and stats
 *   and _fwd_infer / _bwd_infer (complete dst / diff_src), dnnlk_masked_softmax_dropout_stats_size.
 *
 * MASK (cond): NULL, or a boolean (u8, s8) tensor that broadcasts one way to src (as select's
 *   cond); a nonzero byte MASKS the element out (PyTorch's masked_fill(cond, -inf) convention): it
 *   counts as -inf, whatever src holds there (NaN too). A row whose every element is masked gives
 *   zeros (not NaN as softmax of a row of -inf would: what attention wants for padded queries),
 *   and a zero gradient. Other rows are exactly dnnlk_softmax of the masked row: a NaN or +inf
 *   among the unmasked elements, or unmasked elements that are all -inf, make the row NaN.
 *
 * DROPOUT: exactly dnnlk_dropout_fwd's rule, mask and stream: draw j of *rng_in decides element j
 *   in row-major order (1 bit per element, LSB first; bits past the last element 0), the keep rule
 *   of each engine (MCG31, Philox, MT19937: see dropout.h), one draw per element (MT19937: two)
 *   whatever the rate, and part 0 writes the state after them to *rng_out (NULL: not written), so
 *   the fused and unfused calls can be mixed in one stream. rate 0: no dropout; dst equals
 *   dnnlk_softmax bit for bit, and drop_mask (may be NULL then; if given, written all ones) and
 *   rng_in/rng_out may be NULL (given, the stream still moves past the elements). rate 1: zeros
 *   (NaN rows stay NaN). A rate outside [0, 1] or NaN is invalid_arguments.
 *
 * VALUES: the forward is dnnlk_softmax's arithmetic on the masked row (same exps, same fixed-order
 *   double sum, same 1/sum; within 4 ulp of a double reference) and then dropout's one f32
 *   multiply: for f32 the result equals the unfused sequence select -> dnnlk_softmax ->
 *   dnnlk_dropout_fwd bit for bit on every level, rows of any length (fully masked rows aside).
 *   The backward equals dnnlk_dropout_bwd -> dnnlk_softmax_bwd (given softmax's output) bit for
 *   bit the same way.
 *
 * WHAT THE BACKWARD NEEDS: p at every element, dropped ones included (g p sums over all of
 *   them). Two ways, the caller's choice:
 *   - stats (2 floats per row: the max and 1/sum, 8 bytes per 512-element row): the forward
 *     writes nothing more, and the backward reads src (and cond) instead of p and recomputes
 *     p = exp(x - max) * (1/sum) in L1, bit for bit the forward's. Traffic per element, forward +
 *     backward (f32): 8 + 12 = 20 B (+ the 1-bit mask twice, + cond where it is not broadcast).
 *   - probs (p, a full f32 tensor): the forward writes 4 B/element more and the backward reads p
 *     and needs neither src, cond nor stats: 12 + 12 = 24 B.
 *   stats move the fewest bytes, so they are the memory-bound choice (many cores sharing the
 *   memory bus). But the recomputation costs the backward one more exp per element, and where a
 *   core is compute-bound (softmax is, on one core of the 2-core test host: about twice its copy
 *   time) probs are faster overall: measured there in thread CPU time, forward + backward
 *   0.67 + 0.45 ns/element with probs against 0.63 + 0.80 with stats (see the README). With
 *   stats the caller keeps src unchanged between the calls (so the forward may run in place only
 *   without stats); stats[2r], stats[2r + 1]: row r's max and 1/sum (max -inf: fully masked; NaN:
 *   a NaN row). From probs the backward is exactly dnnlk_softmax_bwd's on them (a fully masked
 *   row has p = 0, so a zero gradient, of either sign).
 *
 * LAYOUT: the softmax axis must be the last one (-1 or ndims - 1; another axis is
 *   dnnlk_unimplemented: its mask bits would run across rows) with unit stride in src, dst,
 *   diff_dst and diff_src (else dnnlk_unimplemented); the other dims any strides; cond any
 *   strides. dtype f32 (others: invalid_data_type). dst may be src (same view, no stats, no
 *   probs); diff_src may be diff_dst (same view); any other overlap among the tensors,
 *   drop_mask, stats and probs is invalid_arguments. dst (and probs) of DNNLK_SM_NT_BYTES or more
 *   (not in place) are written with non-temporal stores, as softmax's.
 *
 * PARTS: (ith, nth) split the rows so that every part's first element is a multiple of 64 (a
 *   mask byte belongs to one part); a part jumps the stream to its first element (MT19937:
 *   polynomial jumps for long skips). Results are bit-identical for every nth.
 *
 * STATUS: invalid_arguments (NULL pointers, bad rate, bad rng state, bad parts, overlaps, an axis
 *   out of range), invalid_data_type, invalid_shape (bad dims or strides, a cond that does not
 *   broadcast one way, diff_dst dims unlike src's), unimplemented (see LAYOUT). On error nothing is
 *   written. */
#ifndef DNNLK_FUSED_SOFTMAX_H
#define DNNLK_FUSED_SOFTMAX_H

#include <math.h>
#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"
#include "rng_draw.h"
#include "dropout.h"
#include "softmax.h" /* softmax_simd.h / softmax_bwd_simd.h helpers, per level, for the body */

/* Row length up to which a row is done in one go in stack buffers (f32); longer rows go in chunks
 * of it (a multiple of 32, the softmax sum's block). */
#define DNNLK__FSM_BUF 2048 /* a multiple of 64: softmax's sum pairs blocks of 32 by position */
/* Rows per body call: the pipelined rows restart at each call. */
#define DNNLK__FSM_BATCH 32

#define DNNLK__SIMD_BODY "fused_softmax_simd.h"
#include "simd_instantiate.h"

/* Row walker: the rows of the shape with its last dim removed, in row-major order, with each
 * operand's element offset of the row start. */
#define DNNLK__FSM_OPS 5
typedef struct dnnlk__fsm_rows {
    int nd, nops; /* outer dims */
    int64_t dims[DNNLK_MAX_NDIMS], idx[DNNLK_MAX_NDIMS];
    int64_t str[DNNLK__FSM_OPS][DNNLK_MAX_NDIMS], off[DNNLK__FSM_OPS];
} dnnlk__fsm_rows;

static inline void dnnlk__fsm_rows_seek(dnnlk__fsm_rows *w, int64_t r) {
    int i, o;
    for (o = 0; o < w->nops; o++) w->off[o] = 0;
    for (i = w->nd - 1; i >= 0; i--) {
        w->idx[i] = w->dims[i] ? r % w->dims[i] : 0;
        r = w->dims[i] ? r / w->dims[i] : 0;
        for (o = 0; o < w->nops; o++) w->off[o] += w->idx[i] * w->str[o][i];
    }
}

static inline void dnnlk__fsm_rows_next(dnnlk__fsm_rows *w) {
    int i, o;
    for (i = w->nd - 1; i >= 0; i--) {
        for (o = 0; o < w->nops; o++) w->off[o] += w->str[o][i];
        if (++w->idx[i] < w->dims[i]) return;
        for (o = 0; o < w->nops; o++) w->off[o] -= w->idx[i] * w->str[o][i];
        w->idx[i] = 0;
    }
}

/* What both directions check and use. */
typedef struct dnnlk__fsm_plan {
    int nd;
    int64_t K, rows, numel;
    int64_t cstr[DNNLK_MAX_NDIMS]; /* cond's strides broadcast to src's shape */
} dnnlk__fsm_plan;

/* src, cond and axis (need_data: data present). */
static inline dnnlk_status dnnlk__fsm_check_src(const dnnlk_tensor *src, const dnnlk_tensor *cond, int axis,
                                                int need_data, dnnlk__fsm_plan *pl) {
    dnnlk_status st;
    int nd;
    if (!src) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, need_data);
    if (st != dnnlk_success) return st;
    if (src->dtype != dnnlk_f32) return dnnlk_invalid_data_type;
    nd = src->ndims > 0 ? src->ndims : 1;
    if (axis < -nd || axis >= nd) return dnnlk_invalid_arguments;
    if (axis < 0) axis += nd;
    if (axis != nd - 1) return dnnlk_unimplemented;
    pl->nd = src->ndims;
    pl->numel = 0;
    pl->K = src->ndims ? src->dims[src->ndims - 1] : 1;
    dnnlk_shape_numel(src->ndims, src->dims, &pl->numel);
    pl->rows = pl->K ? pl->numel / pl->K : 0;
    if (src->ndims && pl->K > 1 && src->strides[src->ndims - 1] != 1) return dnnlk_unimplemented;
    if (cond) {
        st = dnnlk__check_input(cond, need_data);
        if (st != dnnlk_success) return st;
        if (cond->dtype != dnnlk_boolean && cond->dtype != dnnlk_u8 && cond->dtype != dnnlk_s8)
            return dnnlk_invalid_data_type;
        st = dnnlk_broadcast_oneway(cond->ndims, cond->dims, src->ndims, src->dims);
        if (st != dnnlk_success) return st;
        dnnlk__broadcast_strides(cond, src->ndims, src->dims, pl->cstr);
    }
    return dnnlk_success;
}

/* An f32 output like src (dtype undef: f32), completed into *done; unit inner stride. */
static inline dnnlk_status dnnlk__fsm_check_out(const dnnlk_tensor *src, const dnnlk_tensor *out, dnnlk_tensor *done) {
    dnnlk_tensor d;
    dnnlk_status st;
    if (!out) return dnnlk_invalid_arguments;
    dnnlk__desc_copy(&d, out);
    if (d.dtype == dnnlk_dtype_undef) d.dtype = src->dtype;
    if (d.dtype != src->dtype) return dnnlk_invalid_data_type;
    st = dnnlk__complete_output(&d, src->ndims, src->dims, done);
    if (st != dnnlk_success) return st;
    if (done->ndims && done->dims[done->ndims - 1] > 1 && done->strides[done->ndims - 1] != 1)
        return dnnlk_unimplemented;
    return dnnlk_success;
}

/* Do any two of the n tensors (NULL entries skipped) intersect? */
static inline int dnnlk__fsm_any_intersect(const dnnlk_tensor *const *t, int n) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if (t[i] && t[j] && dnnlk__ranges_intersect(t[i], t[j])) return 1;
    return 0;
}

/* The parts split rows in units of g rows, g * K a multiple of 64. */
static inline void dnnlk__fsm_part(const dnnlk__fsm_plan *pl, int ith, int nth, int64_t *rb, int64_t *re) {
    int64_t a = pl->K % 64, b = 64, t;
    while (a) t = b % a, b = a, a = t; /* b = gcd(K, 64) */
    dnnlk__part_range(pl->rows, ith, nth, 64 / b, rb, re);
}

static inline void dnnlk__fsm_walker(dnnlk__fsm_rows *w, const dnnlk__fsm_plan *pl, const dnnlk_tensor *const *ops,
                                     const dnnlk_tensor *cond, int nops) {
    int o, i;
    memset(w, 0, sizeof *w);
    w->nd = pl->nd > 0 ? pl->nd - 1 : 0;
    w->nops = nops + 1;
    for (i = 0; i < w->nd; i++) w->dims[i] = ops[0]->dims[i];
    for (o = 0; o < nops; o++)
        for (i = 0; i < w->nd; i++) w->str[o][i] = ops[o]->strides[i];
    for (i = 0; i < w->nd; i++) w->str[nops][i] = cond ? pl->cstr[i] : 0;
}

/* The number of floats of stats (2 per row) for src. */
static inline dnnlk_status dnnlk_masked_softmax_dropout_stats_size(const dnnlk_tensor *src, int axis, int64_t *nfloats) {
    dnnlk__fsm_plan pl;
    dnnlk_status st;
    if (!nfloats) return dnnlk_invalid_arguments;
    st = dnnlk__fsm_check_src(src, NULL, axis, 0, &pl);
    if (st != dnnlk_success) return st;
    *nfloats = 2 * pl.rows;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_masked_softmax_dropout_fwd_infer(const dnnlk_tensor *src, const dnnlk_tensor *cond,
                                                                  int axis, dnnlk_tensor *dst) {
    dnnlk__fsm_plan pl;
    dnnlk_tensor done;
    dnnlk_status st = dnnlk__fsm_check_src(src, cond, axis, 0, &pl);
    if (st != dnnlk_success) return st;
    st = dnnlk__fsm_check_out(src, dst, &done);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &done);
    return st;
}

/* Forward (see the top of the file). */
static inline dnnlk_status dnnlk_masked_softmax_dropout_fwd(const dnnlk_tensor *src, const dnnlk_tensor *cond, int axis,
                                                            double rate, const dnnlk_rng *rng_in, dnnlk_rng *rng_out,
                                                            dnnlk_tensor *dst, uint8_t *drop_mask, float *stats,
                                                            dnnlk_tensor *probs, int ith, int nth) {
    dnnlk__fsm_plan pl;
    dnnlk__fsm_rows w;
    dnnlk__bern bern;
    dnnlk_tensor out, pout, tm, ts;
    const dnnlk_tensor *ops[3];
    const dnnlk_tensor *all[5];
    dnnlk_rng cur;
    int64_t rb, re, eb, ee, r, gen, nb, cs_str;
    uint64_t per;
    float scale;
    int drop, nt;
    dnnlk_status st = dnnlk__fsm_check_src(src, cond, axis, 1, &pl);
    if (st != dnnlk_success) return st;
    st = dnnlk__fsm_check_out(src, dst, &out);
    if (st != dnnlk_success) return st;
    if (probs) {
        st = dnnlk__fsm_check_out(src, probs, &pout);
        if (st != dnnlk_success) return st;
        st = dnnlk__output_writable(&pout, src, NULL);
        if (st != dnnlk_success) return st;
        if (pout.data == src->data && pl.numel > 0) return dnnlk_invalid_arguments; /* dst then overlaps it */
    }
    if (!(rate >= 0 && rate <= 1)) return dnnlk_invalid_arguments;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    if ((drop_mask || rate > 0 || rng_out) && !dnnlk__rng_state_ok(rng_in)) return dnnlk_invalid_arguments;
    if (rng_in && !dnnlk__rng_state_ok(rng_in)) return dnnlk_invalid_arguments;
    if (rate > 0 && !drop_mask) return dnnlk_invalid_arguments;
    st = dnnlk__output_writable(&out, src, NULL);
    if (st != dnnlk_success) return st;
    nb = pl.numel / 8 + (pl.numel % 8 != 0);
    tm = dnnlk__byte_range(drop_mask, drop_mask ? nb : 0);
    ts = dnnlk__byte_range(stats, stats ? 8 * pl.rows : 0);
    if (stats && out.data == src->data && pl.numel > 0) return dnnlk_invalid_arguments; /* the backward reads src */
    all[0] = &out, all[1] = cond, all[2] = &tm, all[3] = &ts, all[4] = probs ? &pout : NULL;
    if (dnnlk__fsm_any_intersect(all, 5)) return dnnlk_invalid_arguments;
    if (dnnlk__ranges_intersect(&tm, src) || dnnlk__ranges_intersect(&ts, src)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(dst, &out);
    if (probs) dnnlk__set_desc(probs, &pout);

    per = rng_in && rng_in->alg == dnnlk_rng_mt19937 ? 2 : 1;
    dnnlk__fsm_part(&pl, ith, nth, &rb, &re);
    eb = rb * pl.K, ee = re * pl.K;
    memset(&bern, 0, sizeof bern);
    if (rate == 0) bern.kind = dnnlk__bern_always;
    else if (rate == 1) bern.kind = dnnlk__bern_never;
    else bern = dnnlk__bern_keep(rng_in->alg, rate);
    drop = rate > 0;
    scale = rate < 1 ? (float)(1.0 / (1.0 - rate)) : 0.0f;
    nt = pl.numel * 4 >= DNNLK_SM_NT_BYTES && out.data != src->data;
    if (rng_in) {
        cur = *rng_in;
        dnnlk__rng_advance(&cur, per * (uint64_t)eb);
    }
    cs_str = cond && pl.nd ? pl.cstr[pl.nd - 1] : 0;
    ops[0] = src, ops[1] = &out, ops[2] = probs ? &pout : &out;
    dnnlk__fsm_walker(&w, &pl, ops, cond, 3);
    dnnlk__fsm_rows_seek(&w, rb);
    gen = eb;
    for (r = rb; r < re;) { /* batches of rows: pointers from the walker, mask bits made ahead */
        const float *xs[DNNLK__FSM_BATCH];
        float *ys[DNNLK__FSM_BATCH], *ps[DNNLK__FSM_BATCH];
        const uint8_t *cs[DNNLK__FSM_BATCH];
        int64_t nr = re - r < DNNLK__FSM_BATCH ? re - r : DNNLK__FSM_BATCH, j;
        for (j = 0; j < nr; j++) {
            xs[j] = (const float *)src->data + w.off[0];
            ys[j] = (float *)out.data + w.off[1];
            ps[j] = probs ? (float *)pout.data + w.off[2] : NULL;
            cs[j] = cond ? (const uint8_t *)cond->data + w.off[3] : NULL;
            dnnlk__fsm_rows_next(&w);
        }
        if (drop_mask) /* the batch's keep bits into the mask, 4096 at a time (from a multiple of 64) */
            while (gen < (r + nr) * pl.K) {
                int64_t len = ee - gen < 4096 ? ee - gen : 4096;
                dnnlk__rng_gen_bits(&cur, drop_mask + gen / 8, (size_t)len, &bern);
                gen += len;
            }
        DNNLK__DISPATCH(dnnlk__fsm_fwd_rows,
                        (xs, cs, cs_str, ys, ps, nr, pl.K, drop_mask, (uint64_t)(r * pl.K), (size_t)((ee + 7) / 8), scale,
                         drop, stats ? stats + 2 * r : NULL, nt,
                         r + nr < re ? (const float *)src->data + w.off[0] : NULL));
        r += nr;
    }
    if (nt) DNNLK__DISPATCH(dnnlk__fsm_fence, ());
    if (rng_in) { /* cur: after [eb, ee) when the mask was made, else at eb */
        if (!drop_mask) dnnlk__rng_advance(&cur, per * (uint64_t)(ee - eb));
        dnnlk__rng_write_end(&cur, rng_out, per * (uint64_t)(pl.numel - ee), ith);
    }
    return dnnlk_success;
}

/* The backward's tensors: src and cond as the forward's, diff_dst like src (f32, same dims, unit
 * inner stride), diff_src completed into *done. */
static inline dnnlk_status dnnlk__fsm_like_src(const dnnlk_tensor *src, const dnnlk_tensor *t, int need_data) {
    int i;
    dnnlk_status st = dnnlk__check_input(t, need_data);
    if (st != dnnlk_success) return st;
    if (t->dtype != src->dtype) return dnnlk_invalid_data_type;
    if (t->ndims != src->ndims) return dnnlk_invalid_shape;
    for (i = 0; i < src->ndims; i++)
        if (t->dims[i] != src->dims[i]) return dnnlk_invalid_shape;
    if (src->ndims && src->dims[src->ndims - 1] > 1 && t->strides[src->ndims - 1] != 1) return dnnlk_unimplemented;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__fsm_bwd_check(const dnnlk_tensor *src, const dnnlk_tensor *cond, int axis,
                                                const dnnlk_tensor *probs, const dnnlk_tensor *diff_dst,
                                                const dnnlk_tensor *diff_src, int need_data, dnnlk__fsm_plan *pl,
                                                dnnlk_tensor *done) {
    /* with probs, src and cond are descriptors only */
    dnnlk_status st = dnnlk__fsm_check_src(src, cond, axis, need_data && !probs, pl);
    if (st != dnnlk_success) return st;
    if (!diff_dst || !diff_src) return dnnlk_invalid_arguments;
    st = dnnlk__fsm_like_src(src, diff_dst, need_data);
    if (st != dnnlk_success) return st;
    if (probs) {
        st = dnnlk__fsm_like_src(src, probs, need_data);
        if (st != dnnlk_success) return st;
    }
    return dnnlk__fsm_check_out(src, diff_src, done);
}

static inline dnnlk_status dnnlk_masked_softmax_dropout_bwd_infer(const dnnlk_tensor *src, const dnnlk_tensor *cond,
                                                                  int axis, const dnnlk_tensor *diff_dst,
                                                                  dnnlk_tensor *diff_src) {
    dnnlk__fsm_plan pl;
    dnnlk_tensor done;
    dnnlk_status st = dnnlk__fsm_bwd_check(src, cond, axis, NULL, diff_dst, diff_src, 0, &pl, &done);
    if (st == dnnlk_success) dnnlk__set_desc(diff_src, &done);
    return st;
}

/* Backward (see the top of the file): src, cond, rate and drop_mask as given to the forward, stats
 * as it wrote them. */
static inline dnnlk_status dnnlk_masked_softmax_dropout_bwd(const dnnlk_tensor *src, const dnnlk_tensor *cond, int axis,
                                                            const float *stats, const dnnlk_tensor *probs,
                                                            const uint8_t *drop_mask, double rate,
                                                            const dnnlk_tensor *diff_dst, dnnlk_tensor *diff_src,
                                                            int ith, int nth) {
    dnnlk__fsm_plan pl;
    dnnlk__fsm_rows w;
    dnnlk_tensor done, tm, ts;
    const dnnlk_tensor *ops[4];
    const dnnlk_tensor *all[6];
    int64_t rb, re, r, nb;
    float scale;
    int drop, nt;
    dnnlk_status st = dnnlk__fsm_bwd_check(src, cond, axis, probs, diff_dst, diff_src, 1, &pl, &done);
    if (st != dnnlk_success) return st;
    if (!(rate >= 0 && rate <= 1)) return dnnlk_invalid_arguments;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    if (pl.numel > 0 && ((!stats && !probs) || (rate > 0 && !drop_mask))) return dnnlk_invalid_arguments;
    st = dnnlk__output_writable(&done, diff_dst, NULL);
    if (st != dnnlk_success) return st;
    drop = rate > 0;
    nb = pl.numel / 8 + (pl.numel % 8 != 0);
    tm = dnnlk__byte_range(drop_mask, drop_mask && drop ? nb : 0);
    ts = dnnlk__byte_range(stats, stats ? 8 * pl.rows : 0);
    all[0] = &done, all[1] = probs ? NULL : src, all[2] = probs ? NULL : cond, all[3] = &tm, all[4] = &ts, all[5] = probs;
    for (r = 1; r < 6; r++)
        if (all[r] && dnnlk__ranges_intersect(&done, all[r])) return dnnlk_invalid_arguments;
    dnnlk__set_desc(diff_src, &done);

    scale = rate < 1 ? (float)(1.0 / (1.0 - rate)) : 0.0f;
    nt = pl.numel * 4 >= DNNLK_SM_NT_BYTES && done.data != diff_dst->data;
    dnnlk__fsm_part(&pl, ith, nth, &rb, &re);
    ops[0] = src, ops[1] = diff_dst, ops[2] = &done, ops[3] = probs ? probs : diff_dst;
    dnnlk__fsm_walker(&w, &pl, ops, cond, 4);
    dnnlk__fsm_rows_seek(&w, rb);
    for (r = rb; r < re; r++) {
        const uint8_t *c = cond && !probs ? (const uint8_t *)cond->data + w.off[4] : NULL;
        int64_t cs = cond && pl.nd ? pl.cstr[pl.nd - 1] : 0;
        DNNLK__DISPATCH(dnnlk__fsm_bwd_row,
                        (probs ? NULL : (const float *)src->data + w.off[0], c, cs,
                         probs ? (const float *)probs->data + w.off[3] : NULL, (const float *)diff_dst->data + w.off[1],
                         (float *)done.data + w.off[2], pl.K, drop_mask, (uint64_t)(r * pl.K), (size_t)nb, scale, drop,
                         probs ? NULL : stats + 2 * r, nt));
        dnnlk__fsm_rows_next(&w);
    }
    if (nt) DNNLK__DISPATCH(dnnlk__fsm_fence, ());
    return dnnlk_success;
}

#endif /* DNNLK_FUSED_SOFTMAX_H */
