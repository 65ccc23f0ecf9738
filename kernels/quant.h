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

/* ---- the general path: s16/u16/s4/u4/fp8 (and s32 dequantize input), blocked scales ---- */

/* Quantized value ranges of the integer dtypes (as floats for the clamps). */
static inline void dnnlk__qint_range(dnnlk_dtype t, float *lo, float *hi) {
    switch (t) {
    case dnnlk_s8: *lo = -128.0f, *hi = 127.0f; break;
    case dnnlk_u8: *lo = 0.0f, *hi = 255.0f; break;
    case dnnlk_s16: *lo = -32768.0f, *hi = 32767.0f; break;
    case dnnlk_u16: *lo = 0.0f, *hi = 65535.0f; break;
    case dnnlk_s4: *lo = -8.0f, *hi = 7.0f; break;
    case dnnlk_u4: *lo = 0.0f, *hi = 15.0f; break;
    default: *lo = -2147483648.0f, *hi = 2147483520.0f; break;
    }
}


/* Element e of an integer (or fp8: its code) quantized tensor at base: e counts elements (for
 * s4/u4 the flat index of the dense tensor: byte e / 2, low nibble for even e). */
static DNNLK__FORCEINLINE int64_t dnnlk__qg_load(const void *base, int64_t e, dnnlk_dtype t) {
    const char *p = (const char *)base;
    switch (t) {
    case dnnlk_s4: { int32_t v = ((uint8_t)p[e >> 1] >> (4 * (int)(e & 1))) & 15; return v >= 8 ? v - 16 : v; }
    case dnnlk_u4: return ((uint8_t)p[e >> 1] >> (4 * (int)(e & 1))) & 15;
    case dnnlk_s8: return (int8_t)p[e];
    case dnnlk_s16: { int16_t v; memcpy(&v, p + 2 * e, 2); return v; }
    case dnnlk_u16: { uint16_t v; memcpy(&v, p + 2 * e, 2); return v; }
    case dnnlk_s32: { int32_t v; memcpy(&v, p + 4 * e, 4); return v; }
    default: return (uint8_t)p[e]; /* u8, fp8 codes */
    }
}

/* Stores v (in range) as element e. s4/u4: an even e writes its whole byte (high nibble 0), an
 * odd e then ors its nibble in; a part always holds both nibbles of its bytes (parts split at
 * multiples of 64 elements), and writes them in order. */
static DNNLK__FORCEINLINE void dnnlk__qg_store(void *base, int64_t e, dnnlk_dtype t, int32_t v) {
    char *p = (char *)base;
    switch (t) {
    case dnnlk_s4: case dnnlk_u4:
        if (e & 1) p[e >> 1] = (char)((uint8_t)p[e >> 1] | (uint8_t)((v & 15) << 4));
        else p[e >> 1] = (char)(v & 15);
        break;
    case dnnlk_s16: case dnnlk_u16: { uint16_t h = (uint16_t)v; memcpy(p + 2 * e, &h, 2); } break;
    default: p[e] = (char)v; break;
    }
}

/* The general path's work: rows along the last dim of x's shape; element strides of x and y,
 * and of scale / zero point over x's dims (0 where they repeat; along a blocked axis the stride
 * of the block index, which is the element index divided by block). Offsets count elements, so
 * for s4/u4 (dense) an offset is the nibble index. */
typedef struct dnnlk__qg_job {
    int nd, ax;          /* ax: the scale's axis in x (-1: one scale) */
    int64_t block;       /* > 0: blocked along ax */
    int64_t dims[DNNLK_MAX_NDIMS], xs[DNNLK_MAX_NDIMS], ys[DNNLK_MAX_NDIMS], ss[DNNLK_MAX_NDIMS],
        zs[DNNLK_MAX_NDIMS];
    const char *x, *s, *z; /* z NULL: zero point 0 */
    char *y;
    dnnlk_dtype xt, yt, st, qt;
    int dequant, saturate, stream;
    int64_t begin, end;  /* flat elements (row-major over dims) */
} dnnlk__qg_job;

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
/* The same for the fp8 quantize fast path, off by default: with its arithmetic cheaper (0.11 ns an
 * element in cache), [4096,4096] f32 -> e4m3 took 0.13 ns an element in thread CPU time without it
 * and 0.175 with the 4 KiB prefetch (tools/quant_cputime.c, one thread, loaded Zen 4 host). */
#ifndef DNNLK_QUANT_FP8_PF_BYTES
#define DNNLK_QUANT_FP8_PF_BYTES 0
#endif

#define DNNLK__SIMD_BODY "quant_simd.h"
#include "simd_instantiate.h"

/* Outputs at least this large (bytes, whole tensor) are written with non-temporal stores: they
 * would not stay in the 4 MiB L2 anyway, and streaming skips the read-for-ownership. */
#ifndef DNNLK_QUANT_NT_BYTES
#define DNNLK_QUANT_NT_BYTES ((int64_t)8 << 20)
#endif

/* ---- validation shared by infer and execute ---- */

/* The quantized dtypes: quantize outputs and dequantize inputs (s32 only the latter). */
static inline int dnnlk__quant_qtype_ok(dnnlk_dtype t, int dequant) {
    return t == dnnlk_s8 || t == dnnlk_u8 || t == dnnlk_s16 || t == dnnlk_u16 || t == dnnlk_s4 || t == dnnlk_u4 ||
           dnnlk__is_fp8(t) || (dequant && t == dnnlk_s32);
}

/* t as the checks of shape.h see it: a byte type for fp8 and s4/u4 (whose strides must then be
 * dense: see dnnlk__dense_rowmajor), a 2-byte one for s16/u16. */
static inline dnnlk_tensor dnnlk__quant_geom(const dnnlk_tensor *t) {
    dnnlk_tensor g = *t;
    if (dnnlk__is_fp8(t->dtype) || dnnlk__is_packed4(t->dtype)) g.dtype = dnnlk_u8;
    else if (t->dtype == dnnlk_s16 || t->dtype == dnnlk_u16) g.dtype = dnnlk_f16;
    return g;
}

/* Packed tensors are read and written as ONNX stores them: dense row-major, element i in byte
 * i / 2 (dnnlk__dense_rowmajor). Their overlap checks use that byte range. */
static inline dnnlk_tensor dnnlk__quant_bytes_view(const dnnlk_tensor *t) {
    if (!dnnlk__is_packed4(t->dtype)) return dnnlk__quant_geom(t);
    return dnnlk__packed4_bytes(t);
}

/* Every scale positive and finite: by its bits, 0 < bits < the +inf pattern (sign clear, not zero,
 * exponent not all ones). A row holding an f32/bf16 denormal is judged again as a float compare,
 * which reads it as 0 where the denormals-are-zero mode is on (and refuses it then, as the
 * arithmetic would divide by 0). Every part of every call checks all the scales (blocked LLM scales
 * are 1/32 of the weight: 512K for [4096,4096]), so a row is a plain loop of integer compares, no
 * index arithmetic or conversion per element: it took 13% of the u4 row's time as a float loop
 * over a multi-index, 4% now. */
#define DNNLK__QSCALE_ROW(T, INF, MIN_NORMAL)                                           \
    do {                                                                                \
        T bad = 0, tiny = 0, u;                                                         \
        for (i = 0; i < inner; i++) {                                                   \
            memcpy(&u, p + i * step, sizeof u);                                         \
            bad |= (T)((T)(u - 1u) >= (T)((INF) - 1u));                                 \
            tiny |= (T)((T)(u - 1u) < (T)((MIN_NORMAL) - 1u));                          \
        }                                                                               \
        if (bad) return 0;                                                              \
        for (i = 0; tiny && i < inner; i++)                                             \
            if (!(dnnlk__load_as_f32(p + i * step, scale->dtype) > 0.0f)) return 0;     \
    } while (0)
static inline int dnnlk__quant_scales_ok(const dnnlk_tensor *scale) {
    const int nd = scale->ndims, es = (int)dnnlk_dtype_size(scale->dtype);
    const int64_t inner = nd ? scale->dims[nd - 1] : 1;
    int64_t idx[DNNLK_MAX_NDIMS] = {0}, rows = 0, r, i, step;
    int d;
    (void)dnnlk_shape_numel(nd > 0 ? nd - 1 : 0, scale->dims, &rows);
    if (inner == 0 || rows == 0) return 1;
    /* The extent checks bound the inner stride only where that dim has more than one element (of
     * a non-empty tensor, as here): otherwise it may be anything, and is never stepped along. */
    step = inner > 1 ? scale->strides[nd - 1] * es : 0;
    for (r = 0; r < rows; r++) {
        int64_t off = 0;
        const char *p;
        for (d = 0; d + 1 < nd; d++) off += idx[d] * scale->strides[d];
        p = (const char *)scale->data + off * es;
        if (es == 4) DNNLK__QSCALE_ROW(uint32_t, 0x7f800000u, 0x00800000u);
        else if (scale->dtype == dnnlk_f16) DNNLK__QSCALE_ROW(uint16_t, 0x7c00u, 1u); /* f16 denormals: normal f32 */
        else DNNLK__QSCALE_ROW(uint16_t, 0x7f80u, 0x0080u);
        for (d = nd - 2; d >= 0 && ++idx[d] == scale->dims[d]; d--) idx[d] = 0;
    }
    return 1;
}
#undef DNNLK__QSCALE_ROW

static inline dnnlk_status dnnlk__quant_prepare(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                const dnnlk_tensor *zp, int axis, int64_t block, int saturate,
                                                const dnnlk_tensor *y, int dequant, int execute, dnnlk_tensor *yd,
                                                int *ax) {
    dnnlk_status st;
    dnnlk_dtype qt;
    dnnlk_tensor g, yg;
    int64_t n = 0, i;
    int d;
    if (!x || !scale || !y) return dnnlk_invalid_arguments;
    g = dnnlk__quant_geom(x);
    if ((st = dnnlk__check_input(&g, execute)) != dnnlk_success) return st;
    if ((st = dnnlk__check_input(scale, execute || scale->data != NULL)) != dnnlk_success) return st;
    if (zp) {
        g = dnnlk__quant_geom(zp);
        if ((st = dnnlk__check_input(&g, execute)) != dnnlk_success) return st;
    }
    if (dequant) {
        if (!dnnlk__quant_qtype_ok(x->dtype, 1)) return dnnlk_invalid_data_type;
        if (!dnnlk__is_float_dtype(y->dtype)) return dnnlk_invalid_data_type;
        qt = x->dtype;
    } else {
        if (!dnnlk__is_float_dtype(x->dtype)) return dnnlk_invalid_data_type;
        if (!dnnlk__quant_qtype_ok(y->dtype, 0)) return dnnlk_invalid_data_type;
        qt = y->dtype;
    }
    if (!dnnlk__is_float_dtype(scale->dtype)) return dnnlk_invalid_data_type;
    if (zp && zp->dtype != qt) return dnnlk_invalid_data_type;
    /* saturate is ONNX's fp8 attribute: 0 on any other quantized type is refused, not ignored */
    if (!dnnlk__flag_ok(saturate) || (!saturate && !dnnlk__is_fp8(qt))) return dnnlk_invalid_arguments;
    if (block < 0) return dnnlk_invalid_arguments;
    if (dnnlk__is_packed4(x->dtype) && !dnnlk__dense_rowmajor(x)) return dnnlk_invalid_shape;
    if (zp && dnnlk__is_packed4(zp->dtype) && !dnnlk__dense_rowmajor(zp)) return dnnlk_invalid_shape;
    if (zp && (zp->ndims != scale->ndims)) return dnnlk_invalid_shape;
    for (d = 0; zp && d < scale->ndims; d++)
        if (zp->dims[d] != scale->dims[d]) return dnnlk_invalid_shape;
    *ax = -1;
    {
        /* in range even per-tensor, where it is unused: one rule for every attribute */
        int nd = x->ndims > 0 ? x->ndims : 1;
        if (axis < -nd || axis >= nd) return dnnlk_invalid_arguments;
    }
    if (block > 0) {
        /* blocked: scale has x's shape, the axis divided by block_size rounded up (not as
         * (dim + block - 1) / block, which overflows for a block near INT64_MAX) */
        int a = axis < 0 ? axis + x->ndims : axis;
        if (x->ndims == 0) return dnnlk_invalid_arguments;
        if (scale->ndims != x->ndims) return dnnlk_invalid_shape;
        for (d = 0; d < x->ndims; d++)
            if (scale->dims[d] != (d == a ? x->dims[d] / block + (x->dims[d] % block != 0) : x->dims[d]))
                return dnnlk_invalid_shape;
        *ax = a;
    } else {
        if (scale->ndims > 1) return dnnlk_invalid_shape;
        if (scale->ndims == 1) {
            int a = axis < 0 ? axis + x->ndims : axis;
            if (axis < -x->ndims || axis >= x->ndims) return dnnlk_invalid_arguments;
            if (scale->dims[0] != 1 && scale->dims[0] != x->dims[a]) return dnnlk_invalid_shape;
            *ax = scale->dims[0] == 1 ? -1 : a;
        }
    }
    if (scale->data && !dnnlk__quant_scales_ok(scale)) return dnnlk_invalid_arguments;
    if (zp && zp->data && dnnlk__is_fp8(qt)) {
        /* ONNX: an fp8 zero point must be zero (+0 or -0 here) */
        int64_t idx[DNNLK_MAX_NDIMS] = {0};
        (void)dnnlk_shape_numel(zp->ndims, zp->dims, &n);
        for (i = 0; i < n; i++) {
            int64_t off = 0;
            for (d = 0; d < zp->ndims; d++) off += idx[d] * zp->strides[d];
            if ((((const uint8_t *)zp->data)[off] & 0x7f) != 0) return dnnlk_invalid_arguments;
            for (d = zp->ndims - 1; d >= 0 && ++idx[d] == zp->dims[d]; d--) idx[d] = 0;
        }
    }
    yg = dnnlk__quant_geom(y);
    if ((st = dnnlk__complete_output(&yg, x->ndims, x->dims, yd)) != dnnlk_success) return st;
    yd->dtype = y->dtype;
    if (dnnlk__is_packed4(yd->dtype) && !dnnlk__dense_rowmajor(yd)) return dnnlk_invalid_shape;
    if (execute) {
        dnnlk_tensor yb = dnnlk__quant_bytes_view(yd), xb = dnnlk__quant_bytes_view(x), sb = *scale, zb;
        (void)dnnlk_shape_numel(yd->ndims, yd->dims, &n);
        if (n > 0 && !yd->data) return dnnlk_invalid_arguments;
        if (zp) zb = dnnlk__quant_bytes_view(zp);
        /* In-place is impossible here (the element sizes differ), so any overlap is refused. */
        if (dnnlk__ranges_intersect(&yb, &xb) || dnnlk__ranges_intersect(&yb, &sb) ||
            (zp && dnnlk__ranges_intersect(&yb, &zb)))
            return dnnlk_invalid_arguments;
    }
    return dnnlk_success;
}

/* The general path (quant_simd.h's dnnlk__qg_run): everything but s8/u8 with one scale or one per
 * channel, which keeps the path below. */
static inline void dnnlk__quant_general(const dnnlk_tensor *x, const dnnlk_tensor *scale, const dnnlk_tensor *zp,
                                        int ax, int64_t block, int saturate, const dnnlk_tensor *yd, int ith,
                                        int nth, int dequant) {
    dnnlk__qg_job j;
    int64_t total = 1;
    int d;
    memset(&j, 0, sizeof j);
    j.nd = x->ndims > 0 ? x->ndims : 1;
    j.ax = ax;
    j.block = block;
    for (d = 0; d < j.nd; d++) {
        int one = x->ndims == 0;
        j.dims[d] = one ? 1 : x->dims[d];
        j.xs[d] = one ? 0 : x->strides[d];
        j.ys[d] = one ? 0 : yd->strides[d];
        if (block > 0) j.ss[d] = scale->strides[d], j.zs[d] = zp ? zp->strides[d] : 0;
        else if (d == ax) j.ss[d] = scale->strides[0], j.zs[d] = zp ? zp->strides[0] : 0;
        total *= j.dims[d];
    }
    /* A block longer than the axis is one block of the whole axis (scale index 0 for each of its
     * elements): clamped, the block ends the rows compute ((b + 1) * block, end + block) stay
     * within twice the axis instead of overflowing for a block_size near INT64_MAX. */
    if (block > 0 && j.block > j.dims[ax]) j.block = j.dims[ax] > 0 ? j.dims[ax] : 1;
    if (total == 0) return;
    if (ax < 0 && block <= 0) {
        /* One scale: loop.h's plan (no reordering: parts split the row-major order) drops size-1
         * dims and merges those whose x and y strides nest, so a contiguous tensor runs as one
         * segment, not one per row: the setup of each row cost 5% of f32 -> e4m3 [4096,4096] at
         * one thread (tools/fp8_probe.c). Element strides (size 1): packed nibbles count as one. */
        static const size_t unit[2] = {1, 1};
        const int64_t *strides[2];
        dnnlk__loop plan;
        strides[0] = j.xs, strides[1] = j.ys;
        dnnlk__loop_init(&plan, j.nd, j.dims, 2, strides, unit, 0);
        j.nd = plan.ndims;
        for (d = 0; d < j.nd; d++)
            j.dims[d] = plan.dims[d], j.xs[d] = plan.bstrides[0][d], j.ys[d] = plan.bstrides[1][d];
    }
    j.x = (const char *)x->data;
    j.y = (char *)yd->data;
    j.s = (const char *)scale->data;
    j.z = zp ? (const char *)zp->data : NULL;
    j.xt = x->dtype;
    j.yt = yd->dtype;
    j.st = scale->dtype;
    j.qt = dequant ? x->dtype : yd->dtype;
    j.dequant = dequant;
    j.saturate = saturate;
    j.stream = total * (int64_t)(dequant ? dnnlk_dtype_size(yd->dtype) : 1) >= DNNLK_QUANT_NT_BYTES;
    /* Parts split at multiples of 64 elements: whole cache lines of the output, and both nibbles
     * of every packed byte in one part. */
    dnnlk__part_range(total, ith, nth, 64, &j.begin, &j.end);
    if (j.begin >= j.end) return;
    DNNLK__DISPATCH(dnnlk__qg_run, (&j));
}

static inline dnnlk_status dnnlk__quant_execute(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                const dnnlk_tensor *zp, int axis, int64_t block, int saturate,
                                                dnnlk_tensor *y, int ith, int nth, int dequant) {
    static const int8_t zero = 0;
    dnnlk_tensor yd;
    dnnlk__quant_job job;
    int64_t sy[DNNLK_MAX_NDIMS], sx[DNNLK_MAX_NDIMS], ss[DNNLK_MAX_NDIMS], sz[DNNLK_MAX_NDIMS];
    const int64_t *strides[4];
    size_t es[4];
    int ax = -1, i;
    dnnlk_dtype qt;
    dnnlk_status st = dnnlk__quant_prepare(x, scale, zp, axis, block, saturate, y, dequant, 1, &yd, &ax);
    if (st != dnnlk_success) return st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    dnnlk__set_desc(y, &yd);
    qt = dequant ? x->dtype : yd.dtype;
    if (block > 0 || (qt != dnnlk_s8 && qt != dnnlk_u8)) {
        dnnlk__quant_general(x, scale, zp, ax, block, saturate, &yd, ith, nth, dequant);
        return dnnlk_success;
    }
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

/* ONNX QuantizeLinear (opset 21): y = saturate(round_half_even(x / scale) + zero_point) for the
 * integer types, fp8(x / scale) (round to nearest even; saturate 1: +-max beyond the range,
 * 0: NaN (e4m3) / inf (e5m2)) for fp8. block_size 0: per-tensor (0-d scale) or per-axis (1-d);
 * block_size > 0: blocked along axis. Completes y's unknown dims/strides (y->dtype set). */
static inline dnnlk_status dnnlk_quantize_linear_infer(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                       const dnnlk_tensor *zero_point, int axis, int64_t block_size,
                                                       int saturate, dnnlk_tensor *y) {
    dnnlk_tensor yd;
    int ax;
    dnnlk_status st = dnnlk__quant_prepare(x, scale, zero_point, axis, block_size, saturate, y, 0, 0, &yd, &ax);
    if (st == dnnlk_success) dnnlk__set_desc(y, &yd);
    return st;
}

static inline dnnlk_status dnnlk_quantize_linear(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                 const dnnlk_tensor *zero_point, int axis, int64_t block_size,
                                                 int saturate, dnnlk_tensor *y, int ith, int nth) {
    return dnnlk__quant_execute(x, scale, zero_point, axis, block_size, saturate, y, ith, nth, 0);
}

/* ONNX DequantizeLinear (opset 21): y = (x - zero_point) * scale (fp8: x * scale), y f32/bf16/f16. */
static inline dnnlk_status dnnlk_dequantize_linear_infer(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                         const dnnlk_tensor *zero_point, int axis,
                                                         int64_t block_size, dnnlk_tensor *y) {
    dnnlk_tensor yd;
    int ax;
    dnnlk_status st = dnnlk__quant_prepare(x, scale, zero_point, axis, block_size, 1, y, 1, 0, &yd, &ax);
    if (st == dnnlk_success) dnnlk__set_desc(y, &yd);
    return st;
}

static inline dnnlk_status dnnlk_dequantize_linear(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                   const dnnlk_tensor *zero_point, int axis, int64_t block_size,
                                                   dnnlk_tensor *y, int ith, int nth) {
    return dnnlk__quant_execute(x, scale, zero_point, axis, block_size, 1, y, ith, nth, 1);
}

/* The per-tensor / per-axis forms: dnnlk_quantize_linear with block_size 0, saturate 1. */
static inline dnnlk_status dnnlk_quantize_infer(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y) {
    return dnnlk_quantize_linear_infer(x, scale, zero_point, axis, 0, 1, y);
}

/* y = saturate(round_half_even(x / scale) + zero_point); part ith of nth. */
static inline dnnlk_status dnnlk_quantize(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                          const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y, int ith,
                                          int nth) {
    return dnnlk_quantize_linear(x, scale, zero_point, axis, 0, 1, y, ith, nth);
}

static inline dnnlk_status dnnlk_dequantize_infer(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                                  const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y) {
    return dnnlk_dequantize_linear_infer(x, scale, zero_point, axis, 0, y);
}

/* y = (x - zero_point) * scale; part ith of nth. */
static inline dnnlk_status dnnlk_dequantize(const dnnlk_tensor *x, const dnnlk_tensor *scale,
                                            const dnnlk_tensor *zero_point, int axis, dnnlk_tensor *y, int ith,
                                            int nth) {
    return dnnlk_dequantize_linear(x, scale, zero_point, axis, 0, y, ith, nth);
}

#endif /* DNNLK_QUANT_H */
