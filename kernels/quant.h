/* dnnl_kernels — quant.h: quantize (float -> s8/u8) and dequantize (s8/u8 -> float), as ONNX
 * QuantizeLinear / DequantizeLinear.
 *
 *   quantize:   y = saturate(round_half_even(x / scale) + zero_point)
 *   dequantize: y = (q - zero_point) * scale
 *
 * x / scale is an f32 division (not a multiplication by 1/scale, which rounds differently on some
 * inputs), the rounding is half to even (2.5 -> 2, 3.5 -> 4, -2.5 -> -2), saturation is to the
 * range of y's type; +-inf and any value beyond the range saturate, NaN gives zero_point.
 * Dequantize computes q - zero_point exactly in integers, converts it to f32 exactly and
 * multiplies once by scale (one rounding), then rounds to y's type (bf16/f16: nearest even).
 *
 * Tensors
 *   quantize:   x f32/bf16/f16 (any strides) -> y s8/u8 (y->dtype set by the caller)
 *   dequantize: x s8/u8 (any strides)        -> y f32/bf16/f16 (y->dtype set by the caller)
 *   scale       f32, bf16 or f16 (read as f32), every value finite and > 0
 *   zero_point  the quantized dtype (s8/u8, as ONNX), or NULL for 0; same shape as scale
 *   Per-tensor: scale 0-d (axis unused, but still in range). Per-channel: scale 1-d of length
 *   x.dims[axis] (or 1, which broadcasts). axis in [-ndims, ndims-1] (negative counts from the
 *   end; a 0-d x counts as 1-d: -1 or 0) in both modes.
 *   y has x's dims; its unknown dims/strides are completed (shape.h rules).
 *
 * Statuses: invalid_arguments for NULL tensors or data, a bad axis, a scale that is <= 0, NaN or
 * infinite, a bad (ith, nth), or y overlapping an input; invalid_data_type for a dtype outside
 * the lists above or a zero_point dtype other than the quantized one; invalid_shape for scale /
 * zero_point shapes that do not fit, or y dims that differ from x's. Nothing is written on error.
 * _infer checks the scale values too when scale->data is set.
 *
 * Results are exact and identical on every ISA and part count: each element is one IEEE division
 * (or multiplication) plus exact integer steps, with no FMA and rounding modes given explicitly.
 * (With one scale per row, the vector paths multiply by 1/scale instead and check per vector that
 * no rounding boundary lies near enough for the product to round differently from the quotient,
 * dividing the vectors where one does: the same results, proven in quant_simd.h.)
 * Like all float code here, the division assumes MXCSR's default round-to-nearest; with DAZ on, a
 * denormal x (or scale) counts as 0 on every path alike. */
#ifndef DNNLK_QUANT_H
#define DNNLK_QUANT_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"

/* ---- scalar element operations: the definition every path reproduces bit for bit ---- */

/* Round half to even of a float, exactly, whatever MXCSR's rounding mode: truncation and the
 * subtraction below are exact for |v| < 2^23, and larger floats are already integers. */
static DNNLK__FORCEINLINE float dnnlk__round_half_even_f32(float v) {
    int32_t t;
    float f, af;
    if (!(v < 8388608.0f && v > -8388608.0f)) return v;
    t = (int32_t)v;
    f = v - (float)t;
    af = f < 0 ? -f : f;
    if (af > 0.5f || (af == 0.5f && (t & 1))) t += f > 0 ? 1 : -1;
    return (float)t;
}

/* One quantized value (lo..hi is the range of the quantized type). */
static DNNLK__FORCEINLINE int32_t dnnlk__quant_q_one(float x, float scale, float zp, float lo, float hi) {
    float v;
    if (x != x) x = 0.0f;
    v = dnnlk__round_half_even_f32(x / scale) + zp;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (int32_t)v;
}

/* Whether the vector paths may quantize with r = 1/scale plus an exactness test (quant_simd.h):
 * scale and 1/scale both normal, so r carries a relative error of at most 2^-24 and DAZ/FTZ
 * cannot touch either. Other scales (1/scale subnormal or overflowing) always divide. */
static DNNLK__FORCEINLINE int dnnlk__quant_recip_ok(float scale) {
    return scale >= 1.17549435e-38f /* 2^-126 */ && scale <= 8.50705917e37f /* 2^126 */;
}

static DNNLK__FORCEINLINE float dnnlk__quant_dq_one(int32_t q, int32_t zp, float scale) {
    return (float)(q - zp) * scale;
}

static DNNLK__FORCEINLINE int32_t dnnlk__load_q8(const void *p, dnnlk_dtype t) {
    return t == dnnlk_s8 ? (int32_t) * (const int8_t *)p : (int32_t) * (const uint8_t *)p;
}

/* ---- the work of one part, handed to the per-ISA entries as a plain struct ---- */

typedef struct dnnlk__quant_job {
    dnnlk__loop plan;  /* operands: 0 y, 1 x, 2 scale, 3 zero point (strides 0 where broadcast) */
    void *base[4];
    int64_t begin, end; /* flat elements of the plan */
    dnnlk_dtype xt, yt, st, zt;
    int stream;         /* non-temporal stores for contiguous rows */
} dnnlk__quant_job;

/* Streaming (large) quantize rows prefetch x this many bytes ahead into L2, as dropout and eltwise
 * do: x is 4x the output, and one thread's hardware prefetchers alone left the read stream
 * latency-bound from DRAM. 0 turns it off. */
#ifndef DNNLK_QUANT_PF_BYTES
#define DNNLK_QUANT_PF_BYTES 4096
#endif

#define DNNLK__SIMD_BODY "quant_simd.h"
#include "simd_instantiate.h"

/* Outputs at least this large (bytes, whole tensor) are written with non-temporal stores: they
 * would not stay in the 4 MiB L2 anyway, and streaming skips the read-for-ownership. */
#ifndef DNNLK_QUANT_NT_BYTES
#define DNNLK_QUANT_NT_BYTES ((int64_t)8 << 20)
#endif

/* ---- validation shared by infer and execute ---- */

static inline dnnlk_status dnnlk__quant_prepare(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                const dnnlk_tensor *zp, int axis, const dnnlk_tensor *y,
                                                int dequant, int execute, dnnlk_tensor *yd, int *ax) {
    dnnlk_status st;
    dnnlk_dtype qt;
    int64_t n = 0, i;
    if (!x || !scale || !y) return dnnlk_invalid_arguments;
    if ((st = dnnlk__check_input(x, execute)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(scale, execute || scale->data != NULL)) != dnnlk_success) return st;
    if (zp && (st = dnnlk__check_input(zp, execute)) != dnnlk_success) return st;
    if (dequant) {
        if (x->dtype != dnnlk_s8 && x->dtype != dnnlk_u8) return dnnlk_invalid_data_type;
        if (!dnnlk__is_float_dtype(y->dtype)) return dnnlk_invalid_data_type;
        qt = x->dtype;
    } else {
        if (!dnnlk__is_float_dtype(x->dtype)) return dnnlk_invalid_data_type;
        if (y->dtype != dnnlk_s8 && y->dtype != dnnlk_u8) return dnnlk_invalid_data_type;
        qt = y->dtype;
    }
    if (!dnnlk__is_float_dtype(scale->dtype)) return dnnlk_invalid_data_type;
    if (zp && zp->dtype != qt) return dnnlk_invalid_data_type;
    if (scale->ndims > 1) return dnnlk_invalid_shape;
    if (zp && (zp->ndims != scale->ndims || (scale->ndims == 1 && zp->dims[0] != scale->dims[0])))
        return dnnlk_invalid_shape;
    *ax = -1;
    {
        /* in range even per-tensor, where it is unused: one rule for every attribute */
        int nd = x->ndims > 0 ? x->ndims : 1;
        if (axis < -nd || axis >= nd) return dnnlk_invalid_arguments;
    }
    if (scale->ndims == 1) {
        int a = axis < 0 ? axis + x->ndims : axis;
        if (axis < -x->ndims || axis >= x->ndims) return dnnlk_invalid_arguments;
        if (scale->dims[0] != 1 && scale->dims[0] != x->dims[a]) return dnnlk_invalid_shape;
        *ax = scale->dims[0] == 1 ? -1 : a;
    }
    if (scale->data) {
        (void)dnnlk_shape_numel(scale->ndims, scale->dims, &n);
        for (i = 0; i < n; i++) {
            float s = dnnlk__load_as_f32((const char *)scale->data +
                                             (scale->ndims ? i * scale->strides[0] : 0) * (int64_t)dnnlk_dtype_size(scale->dtype),
                                         scale->dtype);
            if (!(s > 0.0f && s <= 3.40282347e38f)) return dnnlk_invalid_arguments;
        }
    }
    if ((st = dnnlk__complete_output(y, x->ndims, x->dims, yd)) != dnnlk_success) return st;
    if (execute) {
        (void)dnnlk_shape_numel(yd->ndims, yd->dims, &n);
        if (n > 0 && !yd->data) return dnnlk_invalid_arguments;
        if (!dnnlk__alias_ok(yd, x) || !dnnlk__alias_ok(yd, scale) || (zp && !dnnlk__alias_ok(yd, zp)))
            return dnnlk_invalid_arguments;
        /* In-place is impossible here (the element sizes differ), so any overlap is refused. */
        if (dnnlk__ranges_intersect(yd, x)) return dnnlk_invalid_arguments;
    }
    return dnnlk_success;
}

static inline dnnlk_status dnnlk__quant_execute(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                const dnnlk_tensor *zp, int axis, dnnlk_tensor *y, int ith,
                                                int nth, int dequant) {
    static const int8_t zero = 0;
    dnnlk_tensor yd;
    dnnlk__quant_job job;
    int64_t sy[DNNLK_MAX_NDIMS], sx[DNNLK_MAX_NDIMS], ss[DNNLK_MAX_NDIMS], sz[DNNLK_MAX_NDIMS];
    const int64_t *strides[4];
    size_t es[4];
    int ax = -1, i;
    dnnlk_status st = dnnlk__quant_prepare(x, scale, zp, axis, y, dequant, 1, &yd, &ax);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    *y = yd;
    for (i = 0; i < yd.ndims; i++) {
        sy[i] = yd.strides[i];
        sx[i] = x->strides[i];
        ss[i] = i == ax ? scale->strides[0] : 0;
        sz[i] = (zp && i == ax) ? zp->strides[0] : 0;
    }
    strides[0] = sy; strides[1] = sx; strides[2] = ss; strides[3] = sz;
    es[0] = dnnlk_dtype_size(yd.dtype);
    es[1] = dnnlk_dtype_size(x->dtype);
    es[2] = dnnlk_dtype_size(scale->dtype);
    es[3] = 1;
    dnnlk__loop_init(&job.plan, yd.ndims, yd.dims, 4, strides, es, DNNLK__LOOP_REORDER);
    if (job.plan.total == 0) return dnnlk_success;
    job.base[0] = yd.data;
    job.base[1] = x->data;
    job.base[2] = scale->data;
    job.base[3] = zp ? zp->data : (void *)(uintptr_t)&zero;
    job.xt = x->dtype;
    job.yt = yd.dtype;
    job.st = scale->dtype;
    job.zt = zp ? zp->dtype : (dequant ? x->dtype : yd.dtype);
    job.stream = job.plan.total * (int64_t)es[0] >= DNNLK_QUANT_NT_BYTES;
    /* Parts split at multiples of 64 elements: whole cache lines of the output. */
    dnnlk__part_range(job.plan.total, ith, nth, 64, &job.begin, &job.end);
    if (job.begin >= job.end) return dnnlk_success;
    DNNLK__DISPATCH(dnnlk__quant_run, (&job, dequant));
    return dnnlk_success;
}

/* ---- public API ---- */

/* Completes y's unknown dims/strides (y->dtype: s8 or u8) and checks everything else. */
static inline dnnlk_status dnnlk_quantize_infer(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y) {
    dnnlk_tensor yd;
    int ax;
    dnnlk_status st = dnnlk__quant_prepare(x, scale, zero_point, axis, y, 0, 0, &yd, &ax);
    if (st == dnnlk_success) *y = yd;
    return st;
}

/* y = saturate(round_half_even(x / scale) + zero_point); part ith of nth. */
static inline dnnlk_status dnnlk_quantize(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                          const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y, int ith,
                                          int nth) {
    return dnnlk__quant_execute(x, scale, zero_point, axis, y, ith, nth, 0);
}

/* Completes y's unknown dims/strides (y->dtype: f32, bf16 or f16) and checks everything else. */
static inline dnnlk_status dnnlk_dequantize_infer(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                  const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y) {
    dnnlk_tensor yd;
    int ax;
    dnnlk_status st = dnnlk__quant_prepare(x, scale, zero_point, axis, y, 1, 0, &yd, &ax);
    if (st == dnnlk_success) *y = yd;
    return st;
}

/* y = (x - zero_point) * scale; part ith of nth. */
static inline dnnlk_status dnnlk_dequantize(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                            const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y, int ith,
                                            int nth) {
    return dnnlk__quant_execute(x, scale, zero_point, axis, y, ith, nth, 1);
}

#endif /* DNNLK_QUANT_H */
