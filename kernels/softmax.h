/* dnnl_kernels — softmax.h: softmax and log_softmax along one axis (ByteIR's byteir.softmax and
 * byteir.log_softmax; torch.softmax / torch.log_softmax).
 *
 *   dnnlk_softmax(src, axis, dst, ith, nth)       y = exp(x - max) / sum exp(x - max)
 *   dnnlk_log_softmax(src, axis, dst, ith, nth)   y = (x - max) - log(sum exp(x - max))
 *   and dnnlk_softmax_infer / dnnlk_log_softmax_infer (complete dst's dims and strides only).
 *
 * axis is in [-ndims, ndims - 1] (negative counts from the end); a 0-d tensor takes axis 0 or -1
 * and is a row of one element. x - max is carried exactly as a float pair into the exp. The sum:
 * element i of a row falls in block i / 32 and slot i % 16; each block forms exp[j] + exp[j + 16]
 * (one f32 rounding), blocks 2k and 2k + 1 add theirs (another), that goes into slot j in double,
 * and the 16 slots are summed in a fixed order, the same on every ISA. softmax = exp * (1 / sum); log_softmax = (x - c_hi) - c_lo, with c_hi + c_lo =
 * max + log(sum) as a float pair (no exp in its output pass); its sum leaves out the elements equal
 * to the max and counts them, log(sum) = log(count + rest) with that sum's rounding error
 * carried, so -log_softmax of a dominant element keeps its relative precision. Accuracy: within a
 * few ulp of a double-precision reference per element (tests check 4 on every element, rows up to
 * 32000 wide; measured 2).
 * Special values as PyTorch: a row holding NaN, or +inf, or only -inf gives NaN everywhere in the
 * row; -inf elements of other rows give 0 (log_softmax: -inf); huge finite values are handled (no
 * overflow).
 *
 * Layouts: any strides. The fast paths: f32 rows with unit stride (three passes per row: max,
 * exps and sum, output, a row's output done inside the next row's exp pass; softmax keeps the exps
 * of rows up to 2048 in two 8 KiB stack buffers in turns, of longer rows in dst), and an axis whose neighbouring rows are contiguous (e.g. softmax over dim 1 of
 * [N, C, H*W]): the lanes then run across rows (sums there: sequential per column, in double).
 * Other layouts go through a stack buffer in chunks, with the same bits as the f32 row path.
 * f32 outputs larger than DNNLK_SM_NT_BYTES are written with non-temporal stores (rows whose exps
 * sit in dst are scaled in place with plain stores). Parts split the rows; results do not depend on (ith, nth).
 * AVX2 and AVX-512 give identical bits, SSE4.1 and scalar identical bits (no FMA there; see
 * vmath.h), the two groups may differ in the last bit.
 *
 * dtypes: src f32, bf16 or f16; dst a float dtype (may differ); math in f32 (sums in f64).
 * dst may be src itself (same view). Uses log() from <math.h> (link with -lm).
 * f64: src and dst both, math_f64.h.
 * Status: invalid_arguments for NULL tensors or data, an axis out of range, bad (ith, nth), or a
 * dst overlapping src otherwise than in place; invalid_data_type for a non-float dtype;
 * invalid_shape for bad dims or strides. Nothing is written on error. */
#ifndef DNNLK_SOFTMAX_H
#define DNNLK_SOFTMAX_H

#include <math.h>
#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"
#include "gather.h" /* dnnlk__gather_f32 / dnnlk__scatter_f32, per level, for the body */
#include "vmath.h"
#include "eltwise.h" /* dnnlk__elt_check: the elementwise argument checks */
#include "math_f64.h" /* the f64 path */

#define DNNLK__SM_CHUNK 512 /* a multiple of 64 (the sum's pairs of blocks) */
#define DNNLK__SM_EBUF 2048 /* softmax rows up to this length keep their exps on the stack (two rows) */
#ifndef DNNLK_SM_NT_BYTES
#define DNNLK_SM_NT_BYTES ((int64_t)16 << 20)
#endif

typedef struct dnnlk__sm_ctx {
    dnnlk__loop plan; /* over the row starts (axis removed); operand 0 dst, 1 src */
    void *base[2];
    int64_t K, sx, sy; /* axis length, axis byte strides of src and dst */
    dnnlk_dtype in_dt, out_dt;
    int log, nt;
} dnnlk__sm_ctx;

/* The 16 slots in a fixed order (tree of halves). */
static inline double dnnlk__sm_sum16(const double *s) {
    /* the tree written out on locals: as loops over s (w = 8, 4, 2, 1: s[i] += s[i + w]), gcc -O2
     * kept every partial sum in memory, each add waiting on the store before it, on the path
     * from a row's sum to its output; the same adds in the same order */
    double a0 = s[0] + s[8], a1 = s[1] + s[9], a2 = s[2] + s[10], a3 = s[3] + s[11];
    double a4 = s[4] + s[12], a5 = s[5] + s[13], a6 = s[6] + s[14], a7 = s[7] + s[15];
    double b0 = a0 + a4, b1 = a1 + a5, b2 = a2 + a6, b3 = a3 + a7;
    return (b0 + b2) + (b1 + b3);
}

/* log(count + rest): count (>= 1: the elements equal to the row max) apart, so that a rest tiny
 * beside it keeps its precision (log_softmax of the max element is -log1p(rest)). One log, not
 * log(count) + log1p(rest / count): u + e = count + rest exactly (TwoSum), log(count + rest) =
 * log(u) + log1p(e / u) with |e / u| <= 2^-53, so log(u) + e / u is within about an ulp of double
 * relative to the result, even where that is tiny (u near 1: log(u) is then u - 1 to its own
 * last bit). glibc's log1p had cost 60 cycles a row, a tenth of log_softmax [49152,512]. */
static inline double dnnlk__sm_logsum(double count, double rest) {
    double u = count + rest, b = u - count, e = (count - (u - b)) + (rest - b);
    return log(u) + e / u;
}

/* ch + cl = m + ls as a float pair (m - ch is exact in double wherever cl matters). */
static inline void dnnlk__sm_logpair(float m, double ls, float *ch, float *cl) {
    *ch = (float)((double)m + ls);
    *cl = (float)(((double)m - (double)*ch) + ls);
}

/* Whether Fast2Sum(-m, x) gives x - m exactly as a pair for every x of a row in [lo, m] whose exp
 * is not 0: it does where x's exponent is at most m's, so when |lo|'s is; an x beyond that has
 * x <= -2^(E+1) (2^E <= m < 2^(E+1)), so x - m <= -(2^(E+1) + m), and at or below -110 the exp is
 * 0 (dh < -103.98) whatever the low part. m <= 0: no (TwoSum). */
static inline int dnnlk__sm_fast2sum_ok(float m, float lo) {
    uint32_t em = dnnlk__f32_bits(m) >> 23, el = (dnnlk__f32_bits(lo) & 0x7fffffffu) >> 23;
    if (!(m > 0.0f)) return 0;
    if (el <= em) return 1;
    return dnnlk__f32_from_bits((em + 1) << 23) + m >= 110.0f;
}

/* The exp pass's variant for a clean row with max m and min lo (flags, constants inside the
 * body): DNNLK__SM_F2S where dnnlk__sm_fast2sum_ok; DNNLK__SM_NEAR where no element's x - m
 * (rounded: fl(x - m) >= fl(lo - m)) is below -103.98, where the exp starts to round to 0, so
 * the exp has no lane to flush (logits in a span under 104: every row of the bench). Only with
 * F2S: one variant of the loop fewer to compile, and rows with m <= 0 are rare. */
#define DNNLK__SM_F2S 1
#define DNNLK__SM_NEAR 2
static inline int dnnlk__sm_row_mode(float m, float lo) {
    if (!dnnlk__sm_fast2sum_ok(m, lo)) return 0;
    return lo - m >= -103.98f ? DNNLK__SM_F2S | DNNLK__SM_NEAR : DNNLK__SM_F2S;
}

/* The exp pass's loop over blocks of 32 (softmax's and the fused op's): two blocks a turn, so the
 * sum's pair parity (sm_acc in softmax_simd.h) is a constant (a branch on it cost gcc's AVX2 code
 * 8%), then a last unpaired block. step(a, b, odd) does block i and advances i by 32. */
#define DNNLK__SM_PAIRS(step, a, b)                                                                                 \
    {                                                                                                               \
        while (i + 64 <= n) {                                                                                       \
            step(a, b, 0)                                                                                           \
            step(a, b, 1)                                                                                           \
        }                                                                                                           \
        if (i + 32 <= n) step(a, b, 0)                                                                              \
    }

#define DNNLK__SIMD_BODY "softmax_simd.h"
#include "simd_instantiate.h"

typedef struct dnnlk__smb_ctx {
    dnnlk__loop plan; /* over the row starts (axis removed); operand 0 diff_src, 1 dst, 2 diff_dst */
    void *base[3];
    int64_t K, s[3]; /* axis length, axis byte strides of the three operands */
    dnnlk_dtype dt[3];
    int log, nt;
} dnnlk__smb_ctx;

#define DNNLK__SIMD_BODY "softmax_bwd_simd.h"
#include "simd_instantiate.h"

/* The elementwise checks (float dtypes, dst completed like src, no overlap), then the axis. */
static inline dnnlk_status dnnlk__sm_check(const dnnlk_tensor *src, int axis, const dnnlk_tensor *dst,
                                           dnnlk_tensor *done, int need_data) {
    int nd;
    dnnlk_status st = dnnlk__elt_check(src, dst, done, need_data);
    if (st != dnnlk_success) return st;
    nd = src->ndims > 0 ? src->ndims : 1;
    if (axis < -nd || axis >= nd) return dnnlk_invalid_arguments;
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__sm_exec(const dnnlk_tensor *src, int axis, dnnlk_tensor *dst, int log, int ith,
                                          int nth) {
    dnnlk_tensor done;
    dnnlk__sm_ctx c;
    int64_t b, e, sstr[DNNLK_MAX_NDIMS], dims[DNNLK_MAX_NDIMS], numel = 0;
    const int64_t *strides[2];
    size_t es[2];
    int nd, i;
    dnnlk_status st = dnnlk__sm_check(src, axis, dst, &done, 1);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(dst, &done);
    dnnlk_shape_numel(done.ndims, done.dims, &numel);
    if (numel == 0) return dnnlk_success;
    nd = done.ndims;
    if (axis < 0) axis += nd > 0 ? nd : 1;
    dnnlk__broadcast_strides(src, nd, done.dims, sstr);
    es[0] = dnnlk_dtype_size(done.dtype);
    es[1] = dnnlk_dtype_size(src->dtype);
    if (nd == 0) {
        c.K = 1;
        c.sx = (int64_t)es[1];
        c.sy = (int64_t)es[0];
    } else {
        c.K = done.dims[axis];
        c.sx = sstr[axis] * (int64_t)es[1];
        c.sy = done.strides[axis] * (int64_t)es[0];
        if (c.K == 1) c.sx = (int64_t)es[1], c.sy = (int64_t)es[0];
    }
    for (i = 0; i < nd; i++) dims[i] = i == axis ? 1 : done.dims[i];
    strides[0] = done.strides;
    strides[1] = sstr;
    dnnlk__loop_init(&c.plan, nd, dims, 2, strides, es, DNNLK__LOOP_REORDER);
    c.base[0] = done.data;
    c.base[1] = src->data;
    c.in_dt = src->dtype;
    c.out_dt = done.dtype;
    c.log = log;
    c.nt = done.dtype == dnnlk_f32 && numel * 4 >= DNNLK_SM_NT_BYTES && done.data != src->data;
    dnnlk__part_range(c.plan.total, ith, nth, dnnlk__part_grain(c.K), &b, &e);
    if (b >= e) return dnnlk_success;
    if (c.in_dt == dnnlk_f64) dnnlk__f64_sm_part(&c.plan, c.base, c.K, c.sx, c.sy, c.log, b, e);
    else DNNLK__DISPATCH(dnnlk__sm_part, (&c, b, e));
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_softmax_infer(const dnnlk_tensor *src, int axis, dnnlk_tensor *dst) {
    dnnlk_tensor done;
    dnnlk_status st = dnnlk__sm_check(src, axis, dst, &done, 0);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &done);
    return st;
}

static inline dnnlk_status dnnlk_log_softmax_infer(const dnnlk_tensor *src, int axis, dnnlk_tensor *dst) {
    return dnnlk_softmax_infer(src, axis, dst);
}

static inline dnnlk_status dnnlk_softmax(const dnnlk_tensor *src, int axis, dnnlk_tensor *dst, int ith, int nth) {
    return dnnlk__sm_exec(src, axis, dst, 0, ith, nth);
}

static inline dnnlk_status dnnlk_log_softmax(const dnnlk_tensor *src, int axis, dnnlk_tensor *dst, int ith, int nth) {
    return dnnlk__sm_exec(src, axis, dst, 1, ith, nth);
}

/* ---- backward ----
 *   dnnlk_softmax_bwd(dst, diff_dst, axis, diff_src, ith, nth)
 *       diff_src = dst (diff_dst - sum(diff_dst dst))      (sum along axis)
 *   dnnlk_log_softmax_bwd(dst, diff_dst, axis, diff_src, ith, nth)
 *       diff_src = diff_dst - exp(dst) sum(diff_dst)
 *   and their _infer (complete diff_src's dims and strides only).
 * dst is the forward's output (PyTorch's _softmax_backward_data / _log_softmax_backward_data take
 * the same). dst and diff_dst must have the same dims (no broadcasting); any strides; each of the
 * three a float dtype of its own (math in f32, sums in f64). diff_src may be dst or diff_dst
 * itself (the same view); other overlaps are refused.
 * The sum: softmax adds each product diff_dst dst exactly (as a float pair: hi into one set of
 * slots, lo into another), log_softmax each diff_dst, in double, element i of the row into slot
 * i % 16; the 16 slots are summed in a fixed order (as the forward's) and rounded to a float pair
 * s = sh + sl. softmax: dst ((diff_dst - sh) - sl), no fused step, so every level gives the same
 * bits (but where a product's operands exceed 2^115 without FMA, its low part is dropped); log_softmax: diff_dst - e sh - e sl with e = exp(dst) (vmath.h) and fused steps where the
 * level has FMA: AVX2 and AVX-512 agree, SSE4.1 and scalar agree. Parts split the rows; the bits
 * do not depend on (ith, nth) or on the layout (strided rows go through f32 buffers, same bits).
 * f32 diff_src of DNNLK_SM_NT_BYTES or more (not in place) is written with non-temporal stores.
 * Special values as PyTorch's formula: a NaN in a row's products (softmax) or in its diff_dst
 * (log_softmax) makes the sum and the whole row NaN; an infinite product is its own sum.
 * Status: as the forward (invalid_shape also for dst and diff_dst dims that differ). Nothing is
 * written on error. */

static inline dnnlk_status dnnlk__smb_check(const dnnlk_tensor *dst, const dnnlk_tensor *diff_dst, int axis,
                                            const dnnlk_tensor *diff_src, dnnlk_tensor *done, int need_data) {
    int i;
    dnnlk_status st;
    if (!dst || !diff_dst || !diff_src) return dnnlk_invalid_arguments;
    st = dnnlk__sm_check(dst, axis, diff_src, done, 0);
    if (st != dnnlk_success) return st;
    st = dnnlk__check_input(diff_dst, need_data);
    if (st != dnnlk_success) return st;
    if (!dnnlk__is_float_dtype(diff_dst->dtype)) return dnnlk_invalid_data_type;
    if (diff_dst->ndims != dst->ndims) return dnnlk_invalid_shape;
    for (i = 0; i < dst->ndims; i++)
        if (diff_dst->dims[i] != dst->dims[i]) return dnnlk_invalid_shape;
    if (need_data) {
        st = dnnlk__check_input(dst, 1);
        if (st != dnnlk_success) return st;
        st = dnnlk__output_writable(done, dst, diff_dst);
        if (st != dnnlk_success) return st;
    }
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__smb_exec(const dnnlk_tensor *dst, const dnnlk_tensor *diff_dst, int axis,
                                           dnnlk_tensor *diff_src, int log, int ith, int nth) {
    dnnlk_tensor done;
    dnnlk__smb_ctx c;
    int64_t b, e, dims[DNNLK_MAX_NDIMS], numel = 0;
    const int64_t *strides[3];
    size_t es[3];
    int nd, i, d;
    dnnlk_status st = dnnlk__smb_check(dst, diff_dst, axis, diff_src, &done, 1);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(diff_src, &done);
    dnnlk_shape_numel(done.ndims, done.dims, &numel);
    if (numel == 0) return dnnlk_success;
    nd = done.ndims;
    if (axis < 0) axis += nd > 0 ? nd : 1;
    strides[0] = done.strides;
    strides[1] = dst->strides;
    strides[2] = diff_dst->strides;
    c.dt[0] = done.dtype;
    c.dt[1] = dst->dtype;
    c.dt[2] = diff_dst->dtype;
    for (d = 0; d < 3; d++) {
        es[d] = dnnlk_dtype_size(c.dt[d]);
        c.s[d] = nd == 0 || done.dims[axis] == 1 ? (int64_t)es[d] : strides[d][axis] * (int64_t)es[d];
    }
    c.K = nd == 0 ? 1 : done.dims[axis];
    for (i = 0; i < nd; i++) dims[i] = i == axis ? 1 : done.dims[i];
    dnnlk__loop_init(&c.plan, nd, dims, 3, strides, es, DNNLK__LOOP_REORDER);
    c.base[0] = done.data;
    c.base[1] = dst->data;
    c.base[2] = diff_dst->data;
    c.log = log;
    /* f32 outputs of DNNLK_SM_NT_BYTES or more, apart from both inputs, are streamed */
    c.nt = done.dtype == dnnlk_f32 && numel * 4 >= DNNLK_SM_NT_BYTES && done.data != dst->data &&
           done.data != diff_dst->data;
    dnnlk__part_range(c.plan.total, ith, nth, 16, &b, &e);
    if (b >= e) return dnnlk_success;
    DNNLK__DISPATCH(dnnlk__smb_part, (&c, b, e));
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_softmax_bwd_infer(const dnnlk_tensor *dst, const dnnlk_tensor *diff_dst, int axis,
                                                   dnnlk_tensor *diff_src) {
    dnnlk_tensor done;
    dnnlk_status st = dnnlk__smb_check(dst, diff_dst, axis, diff_src, &done, 0);
    if (st == dnnlk_success) dnnlk__set_desc(diff_src, &done);
    return st;
}

static inline dnnlk_status dnnlk_log_softmax_bwd_infer(const dnnlk_tensor *dst, const dnnlk_tensor *diff_dst, int axis,
                                                       dnnlk_tensor *diff_src) {
    return dnnlk_softmax_bwd_infer(dst, diff_dst, axis, diff_src);
}

static inline dnnlk_status dnnlk_softmax_bwd(const dnnlk_tensor *dst, const dnnlk_tensor *diff_dst, int axis,
                                             dnnlk_tensor *diff_src, int ith, int nth) {
    return dnnlk__smb_exec(dst, diff_dst, axis, diff_src, 0, ith, nth);
}

static inline dnnlk_status dnnlk_log_softmax_bwd(const dnnlk_tensor *dst, const dnnlk_tensor *diff_dst, int axis,
                                                 dnnlk_tensor *diff_src, int ith, int nth) {
    return dnnlk__smb_exec(dst, diff_dst, axis, diff_src, 1, ith, nth);
}

#endif /* DNNLK_SOFTMAX_H */
