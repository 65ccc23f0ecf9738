/* dnnl_kernels — convert.h: dst = src converted to dst's dtype, any layouts on both sides (also the
 * layout transform that oneDNN calls reorder: NCHW <-> NHWC, transposes).
 *
 *   dnnlk_status dnnlk_convert_infer(const dnnlk_tensor *src, dnnlk_tensor *dst);
 *   dnnlk_status dnnlk_convert(const dnnlk_tensor *src, dnnlk_tensor *dst, int ith, int nth);
 *
 * Semantics:
 *   - Every pair of the dtypes the library knows: f32, f64, f16, bf16, s64, u64, s32, s8, u8,
 *     boolean, and the quantized dtypes: fp8 f8_e4m3 (E4M3FN) and f8_e5m2, s16, u16, and s4/u4
 *     (two to a byte, low nibble first; that side dense row-major, dnnlk_invalid_shape
 *     otherwise, as quantize wants it: see "s4 / u4" below). (u64: by the same rules, read as
 *     the unsigned value it is: 2^63 and above saturate into s64 and narrower, never turn
 *     negative.) fp8 is a float format here (the raw cast, no scale: dnnlk_quantize_linear scales
 *     and has ONNX's saturate).
 *     dst's dtype dnnlk_dtype_undef is completed to src's (a plain copy / reorder).
 *   - Rules (the boolean RFC's, plus IEEE rounding):
 *       to boolean        zero (+0, -0) is false, anything else true, NaN included; written 0/1.
 *       from boolean      a nonzero byte is 1, zero is 0, in the destination type.
 *       float -> float    round to nearest even (one rounding, also f64 -> f16/bf16 and
 *                         f16 <-> bf16); overflow gives +-inf; NaN stays NaN (quieted; the top of
 *                         its payload kept, as the hardware conversions do).
 *                         fp8 targets: overflow gives +-inf for e5m2 and NaN for e4m3 (it has no
 *                         inf; a value rounding past 448 is NaN, as PyTorch's and ml_dtypes' casts
 *                         give; ONNX's Cast saturates by default: dnnlk_quantize_linear with
 *                         saturate = 1 does that); NaN gives the format's quiet NaN with its sign
 *                         (e4m3 S.1111.111, e5m2 S.11111.10), no payload. An fp8 NaN read into a
 *                         wider float keeps its mantissa as the payload, quieted.
 *       int -> float      round to nearest even, one rounding (s64 -> bf16 included).
 *       float -> int      toward zero, then SATURATED to the destination's range; NaN gives 0.
 *                         C leaves out-of-range and NaN undefined. numpy's astype and PyTorch's
 *                         .to() do what the C cast compiles to: on x86 a value out of s32/s64 range
 *                         and NaN give INT_MIN / INT64_MIN, and narrower targets take the low bits
 *                         of that s32 (f32 300.0 -> s8 44, NaN -> u8 0). oneDNN's reorder saturates,
 *                         and NaN -> 0 is what saturation of a "no value" gives in quantized
 *                         pipelines (PyTorch's quantize, oneDNN's reorder with f32 -> s8): we take
 *                         oneDNN's rule, which gives one defined answer on every platform.
 *       int -> int        narrower targets SATURATE (s32 300 -> s8 127, -1 -> u8 0). numpy and
 *                         PyTorch wrap (take the low bits); oneDNN's reorder saturates, and
 *                         saturating agrees with the float -> int rule above, so a value never
 *                         changes sign or wraps to its opposite end on conversion.
 *       same dtype        the bits are copied (NaN payloads kept), except boolean, which is
 *                         written 0/1 like every other conversion to boolean.
 *     The result is the same bits on every ISA level and for every (ith, nth).
 *   - Shapes: dst has src's shape (ndims and dims); its unknown ndims, dims and strides are
 *     completed (strides by shape.h's rules: all unknown = dense). src may have any strides (0 for
 *     broadcast, negative for flipped views), dst any non-overlapping ones.
 *   - In-place: dst may be src when it is exactly the same view with the same element size; any
 *     other overlap is dnnlk_invalid_arguments.
 *   - Parts: part ith of nth converts a contiguous share of dst's elements in dst's memory order.
 *   - Statuses: dnnlk_invalid_arguments (NULL pointers, NULL data on a non-empty tensor, overlap,
 *     bad (ith, nth)); dnnlk_invalid_shape (dims that differ, bad or overflowing shapes);
 *     dnnlk_invalid_data_type (an unknown dtype on either side). On any error nothing is written,
 *     neither dst's data nor its descriptor; the execute function writes the completed descriptor
 *     back only where it differs from what the caller passed.
 *
 * Speed: dimensions are coalesced and visited in dst's memory order. Rows contiguous on both sides
 * run on the vector layer for the pairs src in {f32, bf16, f16, u8, s8} -> dst in {f32, bf16, f16,
 * boolean}; same-dtype rows are copies (short 32-bit rows out of a padded source, [N,3] of rows of
 * 4, are packed a vector of rows at a time by two-register permutes); a transpose (dst contiguous along a dim where src is not,
 * src contiguous along another: NCHW <-> NHWC) is copied in tiles so that both sides move whole
 * cache lines. Every other pair and layout runs an element loop, one conversion per element. */
#ifndef DNNLK_CONVERT_H
#define DNNLK_CONVERT_H

#include "base.h"
#include "cpu.h"
#include "shape.h"
#include "loop.h"

/* ---- one element: the reading of a source element and the writing of a value ----
 * A float source is read as a double (every f32/f16/bf16/f64 value is one exactly), an integer or
 * boolean source as an int64_t (exact too); the writers round or saturate once. */

static DNNLK__FORCEINLINE int dnnlk__cvt_src_is_float(dnnlk_dtype t) {
    return t == dnnlk_f32 || t == dnnlk_f64 || t == dnnlk_f16 || t == dnnlk_bf16 || t == dnnlk_f8_e4m3 ||
           t == dnnlk_f8_e5m2;
}

/* An fp8 code as a double: exact; a NaN code keeps its mantissa as the payload (quieted), as the
 * wider formats' NaNs do through convert. */
static DNNLK__FORCEINLINE double dnnlk__cvt_read_fp8(uint32_t c, int e4m3) {
    const uint32_t m = c & (e4m3 ? 7u : 3u);
    if ((e4m3 && (c & 0x7fu) == 0x7fu) || (!e4m3 && (c & 0x7fu) > 0x7cu))
        return (double)dnnlk__f32_from_bits(((c & 0x80u) << 24) | 0x7fc00000u | (m << (e4m3 ? 20 : 21)));
    return (double)dnnlk__fp8_decode(c, e4m3);
}

static DNNLK__FORCEINLINE double dnnlk__cvt_read_f(const void *p, dnnlk_dtype t) {
    float f;
    double d;
    uint16_t h;
    switch (t) {
    case dnnlk_f32: memcpy(&f, p, 4); return (double)f;
    case dnnlk_bf16: memcpy(&h, p, 2); return (double)dnnlk_bf16_to_f32(h);
    case dnnlk_f16: memcpy(&h, p, 2); return (double)dnnlk_f16_to_f32(h);
    case dnnlk_f8_e4m3: return dnnlk__cvt_read_fp8(*(const unsigned char *)p, 1);
    case dnnlk_f8_e5m2: return dnnlk__cvt_read_fp8(*(const unsigned char *)p, 0);
    default: memcpy(&d, p, 8); return d;
    }
}

static DNNLK__FORCEINLINE int64_t dnnlk__cvt_read_i(const void *p, dnnlk_dtype t) {
    int32_t i32;
    int64_t i64;
    int16_t i16;
    uint16_t u16;
    switch (t) {
    case dnnlk_s16: memcpy(&i16, p, 2); return i16;
    case dnnlk_u16: memcpy(&u16, p, 2); return u16;
    case dnnlk_s8: return (int64_t)*(const signed char *)p;
    case dnnlk_u8: return (int64_t)*(const unsigned char *)p;
    case dnnlk_boolean: return *(const unsigned char *)p != 0;
    case dnnlk_s32: memcpy(&i32, p, 4); return i32;
    default: memcpy(&i64, p, 8); return i64;
    }
}

/* d rounded to f32 by round-to-odd (toward zero, then the last bit set if anything was lost).
 * A second rounding of that to a format of at most 22 significant bits (f16, bf16) gives the
 * correctly rounded result of d, where rounding twice to nearest can be off by one ulp
 * (a double just above a half-way point of bf16 can first round down onto it). */
static DNNLK__FORCEINLINE float dnnlk__f64_to_f32_odd(double d) {
    float f = (float)d;
    uint32_t u;
    if ((double)f == d || d != d) return f;
    u = dnnlk__f32_bits(f);
    if ((f < 0 ? -(double)f : (double)f) > (d < 0 ? -d : d)) u -= 1; /* back toward zero; inf -> max */
    return dnnlk__f32_from_bits(u | 1u);
}

/* u as a double by round-to-odd (exact below 2^53), for the same reason. */
static DNNLK__FORCEINLINE double dnnlk__u64_to_f64_odd(uint64_t u) {
    uint64_t m;
    int shift = 0;
    if (u < (1ull << 53)) return (double)u;
    while ((u >> shift) >= (1ull << 53)) shift++;
    m = u >> shift;
    if (u & ((1ull << shift) - 1u)) m |= 1u;
    return (double)m * (double)(1ull << shift);
}

/* v as a double by round-to-odd: its magnitude's, signed. */
static DNNLK__FORCEINLINE double dnnlk__s64_to_f64_odd(int64_t v) {
    double r = dnnlk__u64_to_f64_odd(v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    return v < 0 ? -r : r;
}

static DNNLK__FORCEINLINE int64_t dnnlk__cvt_sat(int64_t v, dnnlk_dtype t) {
    int64_t lo, hi;
    switch (t) {
    case dnnlk_s8: lo = -128, hi = 127; break;
    case dnnlk_u8: lo = 0, hi = 255; break;
    case dnnlk_s16: lo = -32768, hi = 32767; break;
    case dnnlk_u16: lo = 0, hi = 65535; break;
    case dnnlk_s32: lo = INT32_MIN, hi = INT32_MAX; break;
    case dnnlk_u64: return v < 0 ? 0 : v;
    default: return v;
    }
    return v < lo ? lo : v > hi ? hi : v;
}

static DNNLK__FORCEINLINE void dnnlk__cvt_write_int(void *p, dnnlk_dtype t, int64_t v) {
    int32_t i32;
    uint16_t u16;
    switch (t) {
    case dnnlk_s8: case dnnlk_u8: *(unsigned char *)p = (unsigned char)v; break;
    case dnnlk_s16: case dnnlk_u16: u16 = (uint16_t)v; memcpy(p, &u16, 2); break;
    case dnnlk_s32: i32 = (int32_t)v; memcpy(p, &i32, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

static DNNLK__FORCEINLINE void dnnlk__cvt_write_f(void *p, dnnlk_dtype t, double d) {
    float f;
    uint16_t h;
    switch (t) {
    case dnnlk_boolean: *(unsigned char *)p = d != 0; break; /* NaN != 0: true */
    case dnnlk_f64: memcpy(p, &d, 8); break;
    case dnnlk_f32: f = (float)d; memcpy(p, &f, 4); break;
    case dnnlk_bf16: h = dnnlk_f32_to_bf16(dnnlk__f64_to_f32_odd(d)); memcpy(p, &h, 2); break;
    case dnnlk_f16: h = dnnlk_f32_to_f16(dnnlk__f64_to_f32_odd(d)); memcpy(p, &h, 2); break;
    case dnnlk_f8_e4m3: *(unsigned char *)p = (unsigned char)dnnlk__fp8_encode(dnnlk__f64_to_f32_odd(d), 1, 0); break;
    case dnnlk_f8_e5m2: *(unsigned char *)p = (unsigned char)dnnlk__fp8_encode(dnnlk__f64_to_f32_odd(d), 0, 0); break;
    case dnnlk_u64: {
        /* toward zero, saturated: (-1, 1) truncates to 0, 2^64 is the first double above */
        uint64_t u = d != d || d < 1.0 ? 0 : d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
        memcpy(p, &u, 8);
    } break;
    case dnnlk_s64:
        /* toward zero, saturated; 2^63 is the first double above the range */
        dnnlk__cvt_write_int(p, t, d != d ? 0 : d >= 9223372036854775808.0 ? INT64_MAX
                                    : d < -9223372036854775808.0           ? INT64_MIN
                                                                            : (int64_t)d);
        break;
    default: /* s32, s16, u16, s8, u8: saturate in the s64 range first (every bound is well inside it) */
        dnnlk__cvt_write_int(p, t, d != d ? 0 : d >= 4294967296.0 ? dnnlk__cvt_sat(INT64_MAX, t)
                                        : d <= -4294967296.0      ? dnnlk__cvt_sat(INT64_MIN, t)
                                                                  : dnnlk__cvt_sat((int64_t)d, t));
        break;
    }
}

static DNNLK__FORCEINLINE void dnnlk__cvt_write_i(void *p, dnnlk_dtype t, int64_t v) {
    float f;
    double d;
    uint16_t h;
    switch (t) {
    case dnnlk_boolean: *(unsigned char *)p = v != 0; break;
    case dnnlk_f64: d = (double)v; memcpy(p, &d, 8); break;
    case dnnlk_f32: f = (float)v; memcpy(p, &f, 4); break;
    case dnnlk_bf16: h = dnnlk_f32_to_bf16(dnnlk__f64_to_f32_odd(dnnlk__s64_to_f64_odd(v))); memcpy(p, &h, 2); break;
    case dnnlk_f16: h = dnnlk_f32_to_f16(dnnlk__f64_to_f32_odd(dnnlk__s64_to_f64_odd(v))); memcpy(p, &h, 2); break;
    case dnnlk_f8_e4m3: case dnnlk_f8_e5m2: dnnlk__cvt_write_f(p, t, dnnlk__s64_to_f64_odd(v)); break; /* odd, then once */
    default: dnnlk__cvt_write_int(p, t, dnnlk__cvt_sat(v, t)); break;
    }
}

/* A u64 source value (read by dnnlk__cvt_read_i as its bits): below 2^63 it is the int64 it reads
 * as; from 2^63 up (negative as an int64) it is above every signed range, so it saturates
 * there, and the float and boolean targets convert the unsigned value. */
static DNNLK__FORCEINLINE void dnnlk__cvt_write_u(void *p, dnnlk_dtype t, uint64_t v) {
    float f;
    double d;
    uint16_t h;
    if (v <= (uint64_t)INT64_MAX) {
        dnnlk__cvt_write_i(p, t, (int64_t)v);
        return;
    }
    switch (t) {
    case dnnlk_boolean: *(unsigned char *)p = 1; break;
    case dnnlk_f64: d = (double)v; memcpy(p, &d, 8); break; /* C's u64 conversions round once, to nearest */
    case dnnlk_f32: f = (float)v; memcpy(p, &f, 4); break;
    case dnnlk_bf16: h = dnnlk_f32_to_bf16(dnnlk__f64_to_f32_odd(dnnlk__u64_to_f64_odd(v))); memcpy(p, &h, 2); break;
    case dnnlk_f16: h = dnnlk_f32_to_f16(dnnlk__f64_to_f32_odd(dnnlk__u64_to_f64_odd(v))); memcpy(p, &h, 2); break;
    case dnnlk_u64: memcpy(p, &v, 8); break;
    case dnnlk_f8_e4m3: case dnnlk_f8_e5m2: dnnlk__cvt_write_f(p, t, dnnlk__u64_to_f64_odd(v)); break;
    default: dnnlk__cvt_write_int(p, t, dnnlk__cvt_sat(INT64_MAX, t)); break; /* s64, s32, s16, u16, s8, u8 */
    }
}

/* One block of rows as the row kernels see it (the layout of dnnlk__iter_next_block). */
typedef struct dnnlk__convert_blk {
    char *d;
    const char *s;
    int64_t n, rows;
    int64_t dp, sp; /* row pitches, bytes */
    int64_t ds, ss; /* element strides along a row, bytes */
    int ddt, sdt;   /* dnnlk_dtype */
    int nt;         /* stream dst's contiguous rows (convert_simd.h's vector rows) */
} dnnlk__convert_blk;

/* Transpose blocks (convert_simd.h) move tiles of this many rows by every column, and request the
 * src lines of the tile this many tiles ahead. */
#ifndef DNNLK__CONVERT_TILE_ROWS
#define DNNLK__CONVERT_TILE_ROWS 16
#endif
#ifndef DNNLK__CONVERT_TILE_AHEAD
#define DNNLK__CONVERT_TILE_AHEAD 2
#endif
/* The 32-bit transpose writing dst through the cache goes down bands of rows of about this many
 * dst bytes (they stay in L1 while every column block fills them). */
#ifndef DNNLK_CONVERT_BAND_BYTES
#define DNNLK_CONVERT_BAND_BYTES 16384
#endif

/* A part that writes at least this many bytes of contiguous dst rows streams them past the caches
 * (a plain store reads each line first; a result this large would not stay cached for a reader
 * anyway: it is a good share of the last level). Staged through an L1 buffer of
 * DNNLK__STAGE_BYTES. */
#ifndef DNNLK_CONVERT_NT_BYTES
#define DNNLK_CONVERT_NT_BYTES ((int64_t)4 << 20)
#endif
#define DNNLK__STAGE_BYTES 2048

/* Per-TU threshold cell (starts at DNNLK_CONVERT_NT_BYTES), so tests and the bench can move it at
 * run time; compare.h reads it too. */
static inline int64_t *dnnlk__convert_nt_cell(void) {
    static int64_t cell = (int64_t)(DNNLK_CONVERT_NT_BYTES);
    return &cell;
}

/* The pairs with a vector path (convert_simd.h): every such source value is an f32 exactly. */
static DNNLK__FORCEINLINE int dnnlk__convert_vec_src(int t) {
    return t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16 || t == dnnlk_u8 || t == dnnlk_s8;
}
static DNNLK__FORCEINLINE int dnnlk__convert_vec_dst(int t) {
    return t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16 || t == dnnlk_boolean;
}

#define DNNLK__SIMD_BODY "convert_simd.h"
#include "simd_instantiate.h"

/* ---- validation and shape inference ---- */

/* ---- s4 / u4 ----
 * A packed side is dense row-major, element i in byte i / 2, low nibble first (as ONNX and
 * quantize store it; dnnlk_invalid_shape otherwise); the other side has any strides. A nibble
 * reads as its integer (s4 -8..7, u4 0..15); written, a value saturates as for every integer
 * target (floats toward zero, NaN 0). Element by element in row-major order: a part (64-element
 * boundaries) owns whole bytes. */

static inline void dnnlk__convert_packed_run(const dnnlk_tensor *src, const dnnlk_tensor *dst, int ith, int nth) {
    const int nd = dst->ndims, sp = dnnlk__is_packed4(src->dtype), dp = dnnlk__is_packed4(dst->dtype);
    const int64_t ses = (int64_t)dnnlk_dtype_size(src->dtype), des = (int64_t)dnnlk_dtype_size(dst->dtype);
    const int64_t lo = dst->dtype == dnnlk_s4 ? -8 : 0, hi = dst->dtype == dnnlk_s4 ? 7 : 15;
    int64_t idx[DNNLK_MAX_NDIMS], n = 0, b, e, i, rem, so = 0, dof = 0;
    int d;
    (void)dnnlk_shape_numel(nd, dst->dims, &n);
    dnnlk__part_range(n, ith, nth, 64, &b, &e);
    for (rem = b, d = nd - 1; d >= 0; d--) {
        idx[d] = rem % dst->dims[d], rem /= dst->dims[d];
        so += idx[d] * src->strides[d], dof += idx[d] * dst->strides[d];
    }
    for (i = b; i < e; i++) {
        const char *p = (const char *)src->data + so * ses;
        int64_t v;
        if (sp) {
            v = (((const unsigned char *)src->data)[i >> 1] >> ((i & 1) * 4)) & 15;
            if (src->dtype == dnnlk_s4 && v >= 8) v -= 16;
        } else if (dnnlk__cvt_src_is_float(src->dtype)) { /* (dst packed) to s64 by convert's rule first */
            dnnlk__cvt_write_f(&v, dnnlk_s64, dnnlk__cvt_read_f(p, src->dtype));
        } else if (src->dtype == dnnlk_u64) {
            dnnlk__cvt_write_u(&v, dnnlk_s64, (uint64_t)dnnlk__cvt_read_i(p, src->dtype));
        } else {
            v = dnnlk__cvt_read_i(p, src->dtype);
        }
        if (dp) {
            unsigned char *q = (unsigned char *)dst->data + (i >> 1);
            const int sh = (int)(i & 1) * 4;
            v = v < lo ? lo : v > hi ? hi : v;
            *q = (unsigned char)((*q & ~(15 << sh)) | ((int)(v & 15) << sh));
        } else {
            dnnlk__cvt_write_i((char *)dst->data + dof * des, dst->dtype, v);
        }
        for (d = nd - 1; d >= 0; d--) { /* the next index, the offsets stepped along */
            so += src->strides[d], dof += dst->strides[d];
            if (++idx[d] < dst->dims[d]) break;
            so -= idx[d] * src->strides[d], dof -= idx[d] * dst->strides[d], idx[d] = 0;
        }
    }
}

/* A packed s4/u4 side is checked as the bytes it is (a byte dtype for shape.h, then dense
 * row-major), and overlap as its byte range; in place only packed onto the same packed bytes (each
 * nibble is read before it is written). */
static inline dnnlk_status dnnlk__convert_prepare(const dnnlk_tensor *src, const dnnlk_tensor *dst, int need_data,
                                                  dnnlk_tensor *out) {
    dnnlk_tensor g;
    const dnnlk_tensor *sc = src;
    dnnlk_dtype dt;
    dnnlk_status st;
    int sp, dp;
    if (!src || !dst || !out) return dnnlk_invalid_arguments;
    sp = dnnlk__is_packed4(src->dtype);
    if (sp) g = *src, g.dtype = dnnlk_u8, sc = &g;
    if ((st = dnnlk__check_input_dt(sc, need_data, 1)) != dnnlk_success) return st;
    if (sp && !dnnlk__dense_rowmajor(src)) return dnnlk_invalid_shape;
    if (dst->dtype != dnnlk_dtype_undef && dnnlk_dtype_size(dst->dtype) == 0 && !dnnlk__is_packed4(dst->dtype))
        return dnnlk_invalid_data_type;
    /* out is the caller's scratch descriptor (never dst itself): completed in place */
    dnnlk__desc_copy(out, dst);
    dt = out->dtype == dnnlk_dtype_undef ? src->dtype : out->dtype;
    dp = dnnlk__is_packed4(dt);
    out->dtype = dp ? dnnlk_u8 : dt;
    st = dnnlk__complete_output_dt(out, src->ndims, src->dims, out, 1);
    out->dtype = dt;
    if (st != dnnlk_success) return st;
    if (dp && !dnnlk__dense_rowmajor(out)) return dnnlk_invalid_shape;
    if (!need_data) return dnnlk_success;
    if (!sp && !dp) return dnnlk__output_writable(out, src, NULL);
    {
        int64_t n = 0;
        (void)dnnlk_shape_numel(out->ndims, out->dims, &n);
        if (n > 0) {
            dnnlk_tensor ob = dp ? dnnlk__packed4_bytes(out) : *out, sb = sp ? dnnlk__packed4_bytes(src) : *src;
            if (!out->data) return dnnlk_invalid_arguments;
            if (dnnlk__ranges_intersect(&ob, &sb) && !(out->data == src->data && sp && dp)) return dnnlk_invalid_arguments;
        }
    }
    return dnnlk_success;
}

/* Completes dst's unknown ndims/dims/strides (and an undef dtype) and checks the known ones. Data
 * pointers are not needed. On error *dst is unchanged. */
static inline dnnlk_status dnnlk_convert_infer(const dnnlk_tensor *src, dnnlk_tensor *dst) {
    dnnlk_tensor r;
    dnnlk_status st = dnnlk__convert_prepare(src, dst, 0, &r);
    if (st != dnnlk_success) return st;
    dnnlk__set_desc(dst, &r);
    return dnnlk_success;
}

/* dst = src in dst's dtype and layout, part ith of nth (see the top of the file). */
static inline dnnlk_status dnnlk_convert(const dnnlk_tensor *src, dnnlk_tensor *dst, int ith, int nth) {
    dnnlk_tensor r;
    dnnlk__loop plan;
    dnnlk__loop_iter it;
    dnnlk__convert_blk k;
    int64_t ss[DNNLK_MAX_NDIMS];
    const int64_t *strides[2];
    size_t esz[2];
    void *base[2];
    char *row[2];
    int64_t begin, end, len, rows, numel = 0;
    void (*fn)(const dnnlk__convert_blk *);
    dnnlk_status st;
    if (!dnnlk__part_ok(ith, nth)) return dnnlk_invalid_arguments;
    st = dnnlk__convert_prepare(src, dst, 1, &r);
    if (st != dnnlk_success) return st;
    (void)dnnlk_shape_numel(r.ndims, r.dims, &numel);
    if (numel > 0 && (dnnlk__is_packed4(r.dtype) || dnnlk__is_packed4(src->dtype))) {
        dnnlk__convert_packed_run(src, &r, ith, nth);
    } else if (numel > 0) {
        dnnlk__broadcast_strides(src, r.ndims, r.dims, ss);
        strides[0] = r.strides, strides[1] = ss;
        esz[0] = dnnlk_dtype_size(r.dtype), esz[1] = dnnlk_dtype_size(src->dtype);
        base[0] = r.data, base[1] = src->data;
        /* Elementwise: the order of visits does not matter, so walk dst's memory order. */
        dnnlk__loop_init(&plan, r.ndims, r.dims, 2, strides, esz, DNNLK__LOOP_REORDER);
        /* 64-element boundaries: parts never share a cache line of a contiguous dst. */
        dnnlk__part_range(plan.total, ith, nth, 64, &begin, &end);
        k.ddt = (int)r.dtype, k.sdt = (int)src->dtype;
        k.ds = dnnlk__row_stride(&plan, 0), k.ss = dnnlk__row_stride(&plan, 1);
        k.dp = dnnlk__row_pitch(&plan, 0), k.sp = dnnlk__row_pitch(&plan, 1);
        k.nt = (end - begin) * (int64_t)esz[0] >= *dnnlk__convert_nt_cell() && k.ds == (int64_t)esz[0];
        fn = DNNLK__DISPATCH(dnnlk__convert_rows, );
        dnnlk__iter_init(&it, &plan, base, begin, end);
        while ((len = dnnlk__iter_next_block(&it, row, &rows)) > 0) {
            k.d = row[0], k.s = row[1];
            k.n = len, k.rows = rows;
            fn(&k);
        }
    }
    dnnlk__set_desc(dst, &r);
    return dnnlk_success;
}

#endif /* DNNLK_CONVERT_H */
