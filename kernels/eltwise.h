/* dnnl_kernels — eltwise.h: erf and gelu (ByteIR's byteir.erf and byteir.gelu).
 *
 *   dnnlk_erf(src, dst, ith, nth)                   dst = erf(src)
 *   dnnlk_gelu(src, approximate, dst, ith, nth)     dst = gelu(src)
 *     dnnlk_gelu_none, dnnlk_gelu_erf : 0.5 x (1 + erf(x / sqrt 2))          (the exact form)
 *     dnnlk_gelu_tanh                 : 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
 *   and dnnlk_erf_infer / dnnlk_gelu_infer, which only complete dst's dims and strides.
 *
 * Both forms keep the left tail: gelu(-10) = -7.6e-23 (erf form), not 0; gelu(-inf) = -0,
 * gelu(+inf) = +inf, NaN in gives NaN out; erf(+-inf) = +-1.
 * Accuracy (f32, against double references, every float tested by `make test-exhaustive`): within
 * 2 ulp for erf and both gelu forms. SSE4.1 and the scalar path may differ from AVX2/AVX-512 in the
 * last bit (no FMA there; see vmath.h; the tanh form is evaluated differently there, each within
 * 2 ulp); results never depend on (ith, nth).
 *
 * Tensors: src any float dtype (f32, bf16, f16), any strides (0 and negative allowed); dst has the
 * same dims, a float dtype (may differ from src's), and its unknown dims/strides are completed
 * (see shape.h). Math is f32; bf16/f16 outputs are rounded to nearest even. dst may be src itself
 * (same view); any other overlap is refused.
 * f64: src and dst both, math_f64.h (needs -lm).
 * Status: invalid_arguments for NULL tensors or data, a bad approximation, bad (ith, nth), or a
 * dst overlapping src; invalid_data_type for a non-float dtype; invalid_shape for bad dims or
 * strides. Nothing is written on error. */
#ifndef DNNLK_ELTWISE_H
#define DNNLK_ELTWISE_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"
#include "gather.h" /* dnnlk__gather_f32 / dnnlk__scatter_f32, per level, for the body */
#include "vmath.h"
#include "math_f64.h" /* the f64 path */

typedef enum dnnlk_gelu_approx {
    dnnlk_gelu_none = 0, /* exact (erf) form, the PyTorch/ByteIR default */
    dnnlk_gelu_tanh = 1,
    dnnlk_gelu_erf = 2   /* same as none */
} dnnlk_gelu_approx;

#define DNNLK__ELT_ERF 0
#define DNNLK__ELT_GELU_ERF 1
#define DNNLK__ELT_GELU_TANH 2
#define DNNLK__ELT_CHUNK 256
/* Outputs at least this large (bytes, f32 contiguous) are written with non-temporal stores (with the
 * src prefetch below; measured 1 thread: even at 3 MiB, 7% faster at 8 MiB, 15-40% at 15 MiB;
 * regular stores were 1.1-1.6x slower at 48 MiB, though the L3 is larger). */
#ifndef DNNLK_ELT_NT_BYTES
#define DNNLK_ELT_NT_BYTES ((int64_t)8 << 20)
#endif
/* How far ahead (bytes) streaming rows prefetch src (the dropout kernel's measured distance). */
#ifndef DNNLK_ELT_PF_BYTES
#define DNNLK_ELT_PF_BYTES 4096
#endif

typedef struct dnnlk__elt_ctx {
    dnnlk__loop plan; /* operand 0 dst, 1 src */
    void *base[2];
    dnnlk_dtype in_dt, out_dt;
    int op, nt;
} dnnlk__elt_ctx;

typedef struct dnnlk__eltb_ctx {
    dnnlk__loop plan; /* operand 0 diff_src, 1 src, 2 diff_dst */
    void *base[3];
    dnnlk_dtype dt[3];
    int op, nt;
} dnnlk__eltb_ctx;

#define DNNLK__SIMD_BODY "eltwise_simd.h"
#include "simd_instantiate.h"

/* Checks everything and completes dst into *done. */
static inline dnnlk_status dnnlk__elt_check(const dnnlk_tensor *src, const dnnlk_tensor *dst, dnnlk_tensor *done,
                                            int need_data) {
    dnnlk_status st;
    int64_t n = 0;
    if (!src || !dst) return dnnlk_invalid_arguments;
    st = dnnlk__check_input(src, need_data);
    if (st != dnnlk_success) return st;
    if (!dnnlk__is_float_dtype(src->dtype) || !dnnlk__is_float_dtype(dst->dtype)) {
        /* f64: src and dst both (math_f64.h), where long double is wider than double */
        if (src->dtype != dnnlk_f64 || dst->dtype != dnnlk_f64) return dnnlk_invalid_data_type;
        if (!DNNLK__F64_MATH) return dnnlk_unimplemented;
    }
    st = dnnlk__complete_output(dst, src->ndims, src->dims, done);
    if (st != dnnlk_success) return st;
    if (need_data) {
        dnnlk_shape_numel(done->ndims, done->dims, &n);
        if (n > 0 && !done->data) return dnnlk_invalid_arguments;
        if (!dnnlk__alias_ok(done, src)) return dnnlk_invalid_arguments;
    }
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__elt_exec(const dnnlk_tensor *src, dnnlk_tensor *dst, int op, int ith, int nth) {
    dnnlk_tensor done;
    dnnlk__elt_ctx c;
    int64_t b, e, sstr[DNNLK_MAX_NDIMS];
    const int64_t *strides[2];
    size_t es[2];
    dnnlk_status st = dnnlk__elt_check(src, dst, &done, 1);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(dst, &done);
    dnnlk__broadcast_strides(src, done.ndims, done.dims, sstr);
    strides[0] = done.strides;
    strides[1] = sstr;
    es[0] = dnnlk_dtype_size(done.dtype);
    es[1] = dnnlk_dtype_size(src->dtype);
    dnnlk__loop_init(&c.plan, done.ndims, done.dims, 2, strides, es, DNNLK__LOOP_REORDER);
    c.base[0] = done.data;
    c.base[1] = src->data;
    c.in_dt = src->dtype;
    c.out_dt = done.dtype;
    c.op = op;
    c.nt = done.dtype == dnnlk_f32 && c.plan.total * 4 >= DNNLK_ELT_NT_BYTES && done.data != src->data;
    dnnlk__part_range(c.plan.total, ith, nth, 16, &b, &e);
    if (b >= e) return dnnlk_success;
    if (c.in_dt == dnnlk_f64) dnnlk__f64_elt_part(&c.plan, c.base, c.op, b, e);
    else DNNLK__DISPATCH(dnnlk__elt_part, (&c, b, e));
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_erf_infer(const dnnlk_tensor *src, dnnlk_tensor *dst) {
    dnnlk_tensor done;
    dnnlk_status st = dnnlk__elt_check(src, dst, &done, 0);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &done);
    return st;
}

static inline dnnlk_status dnnlk_erf(const dnnlk_tensor *src, dnnlk_tensor *dst, int ith, int nth) {
    return dnnlk__elt_exec(src, dst, DNNLK__ELT_ERF, ith, nth);
}

static inline dnnlk_status dnnlk_gelu_infer(const dnnlk_tensor *src, dnnlk_gelu_approx approximate, dnnlk_tensor *dst) {
    dnnlk_tensor done;
    dnnlk_status st;
    if (approximate != dnnlk_gelu_none && approximate != dnnlk_gelu_erf && approximate != dnnlk_gelu_tanh)
        return dnnlk_invalid_arguments;
    st = dnnlk__elt_check(src, dst, &done, 0);
    if (st == dnnlk_success) dnnlk__set_desc(dst, &done);
    return st;
}

static inline dnnlk_status dnnlk_gelu(const dnnlk_tensor *src, dnnlk_gelu_approx approximate, dnnlk_tensor *dst,
                                      int ith, int nth) {
    if (approximate != dnnlk_gelu_none && approximate != dnnlk_gelu_erf && approximate != dnnlk_gelu_tanh)
        return dnnlk_invalid_arguments;
    return dnnlk__elt_exec(src, dst, approximate == dnnlk_gelu_tanh ? DNNLK__ELT_GELU_TANH : DNNLK__ELT_GELU_ERF, ith,
                           nth);
}

/* ---- backward ----
 *   dnnlk_erf_bwd(src, diff_dst, diff_src, ith, nth)                diff_src = diff_dst 2/sqrt(pi) exp(-src^2)
 *   dnnlk_gelu_bwd(src, diff_dst, approximate, diff_src, ith, nth)  diff_src = diff_dst gelu'(src)
 *   and dnnlk_erf_bwd_infer / dnnlk_gelu_bwd_infer (complete diff_src only).
 * src is the forward's input. gelu' (both forms) is within 4 ulp of the double result (tests: a
 * sample of all floats and every float near its zero at x = -0.752, where it keeps relative
 * accuracy too; every float under `make test-exhaustive`), erf' within 2 ulp; diff_src is the one f32
 * product diff_dst f'(src). gelu'(+-inf) and gelu'(NaN) are NaN (PyTorch's gelu_backward: inf
 * times a vanishing density), erf'(+-inf) = 0. The FMA levels (AVX2, AVX-512) give the same bits,
 * SSE4.1 and scalar the same bits; results never depend on (ith, nth) or the layout.
 * Tensors: src and diff_dst of the same dims (no broadcasting), any strides, each a float dtype
 * of its own; diff_src completed from src's dims, a float dtype; diff_src may be src or diff_dst
 * itself (the same view), any other overlap is refused. Outputs of DNNLK_ELT_NT_BYTES or more
 * (f32) are streamed. Status as the forward's, and invalid_shape for src and diff_dst dims that
 * differ; nothing is written on error. */

static inline dnnlk_status dnnlk__eltb_check(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                             const dnnlk_tensor *diff_src, dnnlk_tensor *done, int need_data) {
    dnnlk_status st;
    int i;
    if (!src || !diff_dst || !diff_src) return dnnlk_invalid_arguments;
    st = dnnlk__elt_check(src, diff_src, done, 0);
    if (st != dnnlk_success) return st;
    st = dnnlk__check_input(diff_dst, need_data);
    if (st != dnnlk_success) return st;
    if (!dnnlk__is_float_dtype(diff_dst->dtype)) return dnnlk_invalid_data_type;
    if (diff_dst->ndims != src->ndims) return dnnlk_invalid_shape;
    for (i = 0; i < src->ndims; i++)
        if (diff_dst->dims[i] != src->dims[i]) return dnnlk_invalid_shape;
    if (need_data) {
        st = dnnlk__check_input(src, 1);
        if (st != dnnlk_success) return st;
        st = dnnlk__output_writable(done, src, diff_dst);
        if (st != dnnlk_success) return st;
    }
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__eltb_exec(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                            dnnlk_tensor *diff_src, int op, int ith, int nth) {
    dnnlk_tensor done;
    dnnlk__eltb_ctx c;
    int64_t b, e;
    const int64_t *strides[3];
    size_t es[3];
    int d;
    dnnlk_status st = dnnlk__eltb_check(src, diff_dst, diff_src, &done, 1);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(diff_src, &done);
    strides[0] = done.strides;
    strides[1] = src->strides;
    strides[2] = diff_dst->strides;
    c.dt[0] = done.dtype;
    c.dt[1] = src->dtype;
    c.dt[2] = diff_dst->dtype;
    for (d = 0; d < 3; d++) es[d] = dnnlk_dtype_size(c.dt[d]);
    dnnlk__loop_init(&c.plan, done.ndims, done.dims, 3, strides, es, DNNLK__LOOP_REORDER);
    c.base[0] = done.data;
    c.base[1] = src->data;
    c.base[2] = diff_dst->data;
    c.op = op;
    c.nt = done.dtype == dnnlk_f32 && c.plan.total * 4 >= DNNLK_ELT_NT_BYTES && done.data != src->data &&
           done.data != diff_dst->data;
    dnnlk__part_range(c.plan.total, ith, nth, 16, &b, &e);
    if (b >= e) return dnnlk_success;
    DNNLK__DISPATCH(dnnlk__eltb_part, (&c, b, e));
    return dnnlk_success;
}

static inline dnnlk_status dnnlk_erf_bwd_infer(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                               dnnlk_tensor *diff_src) {
    dnnlk_tensor done;
    dnnlk_status st = dnnlk__eltb_check(src, diff_dst, diff_src, &done, 0);
    if (st == dnnlk_success) dnnlk__set_desc(diff_src, &done);
    return st;
}

static inline dnnlk_status dnnlk_erf_bwd(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst, dnnlk_tensor *diff_src,
                                         int ith, int nth) {
    return dnnlk__eltb_exec(src, diff_dst, diff_src, DNNLK__ELT_ERF, ith, nth);
}

static inline dnnlk_status dnnlk_gelu_bwd_infer(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                                dnnlk_gelu_approx approximate, dnnlk_tensor *diff_src) {
    if (approximate != dnnlk_gelu_none && approximate != dnnlk_gelu_erf && approximate != dnnlk_gelu_tanh)
        return dnnlk_invalid_arguments;
    return dnnlk_erf_bwd_infer(src, diff_dst, diff_src);
}

static inline dnnlk_status dnnlk_gelu_bwd(const dnnlk_tensor *src, const dnnlk_tensor *diff_dst,
                                          dnnlk_gelu_approx approximate, dnnlk_tensor *diff_src, int ith, int nth) {
    if (approximate != dnnlk_gelu_none && approximate != dnnlk_gelu_erf && approximate != dnnlk_gelu_tanh)
        return dnnlk_invalid_arguments;
    return dnnlk__eltb_exec(src, diff_dst, diff_src,
                            approximate == dnnlk_gelu_tanh ? DNNLK__ELT_GELU_TANH : DNNLK__ELT_GELU_ERF, ith, nth);
}

#endif /* DNNLK_ELTWISE_H */
