/* dnnl_kernels — base.h: status codes, data types, the tensor descriptor, f16/bf16 conversion.
 *
 * Status and data-type values that oneDNN also has use oneDNN's numbers, so a plain cast converts
 * between `dnnlk_status`/`dnnl_status_t` and `dnnlk_dtype`/`dnnl_data_type_t`. */
#ifndef DNNLK_BASE_H
#define DNNLK_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
/* Forced inlining is what keeps vector helpers in registers, and specialises a row kernel on
 * constant arguments, in optimized builds. At -O0 (no __OPTIMIZE__) it only copies the vector math
 * into every caller at every level (gcc: 388 MB and 2-3 s for a gelu TU) and makes every
 * "specialised" call site a full copy (select's 32). There the helpers are plain static inline
 * functions, called: one copy each. */
#if defined(__OPTIMIZE__)
#define DNNLK__FORCEINLINE inline __attribute__((always_inline))
#else
#define DNNLK__FORCEINLINE inline
#endif
#define DNNLK__NOINLINE inline __attribute__((noinline))
#define DNNLK__ALIGN64 __attribute__((aligned(64))) /* after a declarator; elsewhere nothing */
#define DNNLK__LIKELY(x) __builtin_expect(!!(x), 1)
#define DNNLK__UNLIKELY(x) __builtin_expect(!!(x), 0)
#elif defined(_MSC_VER)
#define DNNLK__FORCEINLINE __forceinline
#define DNNLK__NOINLINE __inline __declspec(noinline)
#define DNNLK__ALIGN64
#define DNNLK__LIKELY(x) (x)
#define DNNLK__UNLIKELY(x) (x)
#else
#define DNNLK__FORCEINLINE inline
#define DNNLK__NOINLINE inline
#define DNNLK__ALIGN64
#define DNNLK__LIKELY(x) (x)
#define DNNLK__UNLIKELY(x) (x)
#endif

/* DNNLK__NOINLINE functions are `static inline` too: a static function that is not inline is
 * emitted in every translation unit at -O0 whether it is called or not (gcc: 10 MB of code and
 * 30 s per TU), an inline one only where it is used. gcc warns in C that an inline function was
 * given noinline (-Wattributes), so the definitions sit between these two markers, which silence
 * that warning there and nowhere else. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus)
#define DNNLK__NOINLINE_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wattributes\"")
#define DNNLK__NOINLINE_END _Pragma("GCC diagnostic pop")
#else
#define DNNLK__NOINLINE_BEGIN
#define DNNLK__NOINLINE_END
#endif

/* The library's one rule for boolean attributes (flags): 0 or 1, anything else is
 * dnnlk_invalid_arguments. */
static inline int dnnlk__flag_ok(int f) { return f == 0 || f == 1; }

/* Keeps the compiler from fusing the product held in v into a following add (GCC contracts across
 * statements, and through intrinsics, wherever FMA is enabled): kernels that promise the same bits
 * on every ISA pass such products through it. An empty asm with v as an in/out register. The
 * vector layer has the same for vectors (dnnlk__vf_nofuse). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define DNNLK__NOFUSE(v) __asm__("" : "+x"(v))
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
#define DNNLK__NOFUSE(v) __asm__("" : "+w"(v))
#elif defined(__GNUC__) || defined(__clang__)
#define DNNLK__NOFUSE(v) __asm__("" : "+m"(v)) /* any other target: through memory */
#else
#define DNNLK__NOFUSE(v) ((void)0)
#endif

#if defined(__cplusplus)
#define DNNLK__RESTRICT __restrict
#else
#define DNNLK__RESTRICT restrict
#endif

#define DNNLK_MAX_NDIMS 12
#define DNNLK_UNKNOWN (-1)

typedef enum dnnlk_status {
    dnnlk_success = 0,
    dnnlk_out_of_memory = 1,
    dnnlk_invalid_arguments = 2,
    dnnlk_unimplemented = 3,
    dnnlk_invalid_shape = 9,
    dnnlk_invalid_data_type = 10
} dnnlk_status;

typedef enum dnnlk_dtype {
    dnnlk_dtype_undef = 0,
    dnnlk_f16 = 1,
    dnnlk_bf16 = 2,
    dnnlk_f32 = 3,
    dnnlk_s32 = 4,
    dnnlk_s8 = 5,
    dnnlk_u8 = 6,
    dnnlk_f64 = 7,
    dnnlk_boolean = 8,  /* C bool: one byte, read as "nonzero is true", written as 0/1 */
    dnnlk_f8_e5m2 = 9,  /* OCP fp8 E5M2: bias 15, +-inf, NaN (quantize/dequantize and convert only) */
    dnnlk_f8_e4m3 = 10, /* OCP fp8 E4M3FN: bias 7, no inf, NaN = S.1111.111 (quantize/dequantize and convert only) */
    dnnlk_s4 = 11,      /* packed two per byte, low nibble first, dense (quantize/dequantize and convert only) */
    dnnlk_u4 = 12,
    dnnlk_s64 = 16,
    /* s16/u16 have no oneDNN number. oneDNN numbers its types one after another (16 at 3.x) below
     * its dnnl_data_type_max sentinel 0x7fff: 256 and 257 leave room for 240 more of its types
     * before any cast could confuse one for another. (quantize/dequantize and convert only) */
    dnnlk_s16 = 256,
    dnnlk_u16 = 257,
    /* u64 has no oneDNN number either: the next value after u16. ONNX's TopK, ArgMax/ArgMin and
     * Cast take uint64; here top_k, arg_max/arg_min, convert (both ways), compare, select and
     * nearest resize take it, every other op refuses it (dnnlk_invalid_data_type). */
    dnnlk_u64 = 258
} dnnlk_dtype;

/* A strided view. Dims and strides are in elements; a stride may be 0 or negative on inputs
 * (broadcast and flipped views). DNNLK_UNKNOWN marks a dim or stride that inference fills in
 * (ndims itself may be DNNLK_UNKNOWN on an output). data == NULL is a logical tensor. */
typedef struct dnnlk_tensor {
    void *data;
    dnnlk_dtype dtype;
    int ndims; /* 0 = scalar */
    int64_t dims[DNNLK_MAX_NDIMS];
    int64_t strides[DNNLK_MAX_NDIMS];
} dnnlk_tensor;

/* d[0, n) = s[0, n) for n <= DNNLK_MAX_NDIMS: dims and strides. A loop or memcpy of a variable few
 * elements is compiled by gcc into `rep movsq` (tens of cycles to start: descriptor checks run on
 * every call, and small calls feel them), a loop guarded by the count into twelve branches; a run
 * of stores that stops at n is neither (and, unlike a jump into it, needs no fall-through). */
static DNNLK__FORCEINLINE void dnnlk__copy_dims(int64_t *d, const int64_t *s, int n) {
    if (n <= 0) return;
    d[0] = s[0];
    if (n <= 1) return;
    d[1] = s[1];
    if (n <= 2) return;
    d[2] = s[2];
    if (n <= 3) return;
    d[3] = s[3];
    if (n <= 4) return;
    d[4] = s[4];
    if (n <= 5) return;
    d[5] = s[5];
    if (n <= 6) return;
    d[6] = s[6];
    if (n <= 7) return;
    d[7] = s[7];
    if (n <= 8) return;
    d[8] = s[8];
    if (n <= 9) return;
    d[9] = s[9];
    if (n <= 10) return;
    d[10] = s[10];
    if (n <= 11) return;
    d[11] = s[11];
}
#if DNNLK_MAX_NDIMS != 12
#error "dnnlk__copy_dims handles DNNLK_MAX_NDIMS == 12"
#endif

/* *d = *s for the parts a descriptor uses (data, dtype, ndims, and dims and strides up to ndims): a
 * whole-struct copy is 208 bytes, a rep movsq in gcc's hands. */
static DNNLK__FORCEINLINE void dnnlk__desc_copy(dnnlk_tensor *d, const dnnlk_tensor *s) {
    d->data = s->data, d->dtype = s->dtype, d->ndims = s->ndims;
    dnnlk__copy_dims(d->dims, s->dims, s->ndims);
    dnnlk__copy_dims(d->strides, s->strides, s->ndims);
}

/* Hands a completed output descriptor back: out's used parts = done's, written only where they differ. Parts of
 * one call running at once on an output descriptor completed beforehand (by _infer, or an earlier
 * call) then only read it: no two threads write the same object. */
static inline void dnnlk__set_desc(dnnlk_tensor *out, const dnnlk_tensor *done) {
    int i, same = out->data == done->data && out->dtype == done->dtype && out->ndims == done->ndims;
    for (i = 0; same && i < done->ndims && i < DNNLK_MAX_NDIMS; i++)
        same = out->dims[i] == done->dims[i] && out->strides[i] == done->strides[i];
    if (!same) dnnlk__desc_copy(out, done); /* the dims past ndims are nobody's: neither compared nor written */
}

static inline const char *dnnlk_status_str(dnnlk_status s) {
    switch (s) {
    case dnnlk_success: return "success";
    case dnnlk_out_of_memory: return "out_of_memory";
    case dnnlk_invalid_arguments: return "invalid_arguments";
    case dnnlk_unimplemented: return "unimplemented";
    case dnnlk_invalid_shape: return "invalid_shape";
    case dnnlk_invalid_data_type: return "invalid_data_type";
    }
    return "unknown_status";
}

static inline const char *dnnlk_dtype_name(dnnlk_dtype t) {
    switch (t) {
    case dnnlk_dtype_undef: return "undef";
    case dnnlk_f16: return "f16";
    case dnnlk_bf16: return "bf16";
    case dnnlk_f32: return "f32";
    case dnnlk_s32: return "s32";
    case dnnlk_s8: return "s8";
    case dnnlk_u8: return "u8";
    case dnnlk_f64: return "f64";
    case dnnlk_boolean: return "boolean";
    case dnnlk_s64: return "s64";
    case dnnlk_f8_e5m2: return "f8_e5m2";
    case dnnlk_f8_e4m3: return "f8_e4m3";
    case dnnlk_s4: return "s4";
    case dnnlk_u4: return "u4";
    case dnnlk_s16: return "s16";
    case dnnlk_u16: return "u16";
    case dnnlk_u64: return "u64";
    }
    return "unknown_dtype";
}

/* Bytes per element; 0 for undef, an unknown value, and the packed s4/u4 (half a byte each: see
 * dnnlk_dtype_bits), so every op that checks its tensors with this refuses them unless it knows
 * them (quantize/dequantize). */
static inline size_t dnnlk_dtype_size(dnnlk_dtype t) {
    /* A table for the values 0..16 and the three past it by hand: a switch over these sparse values
     * became an indirect jump, and every descriptor check asks this several times. */
    static const unsigned char size_of[17] = {
        0 /* undef */, 2 /* f16 */, 2 /* bf16 */, 4 /* f32 */, 4 /* s32 */, 1 /* s8 */, 1 /* u8 */, 8 /* f64 */,
        1 /* boolean */, 1 /* f8_e5m2 */, 1 /* f8_e4m3 */, 0 /* s4 */, 0 /* u4 */, 0, 0, 0, 8 /* s64 */};
    unsigned u = (unsigned)t;
    if (u <= 16) return size_of[u];
    return t == dnnlk_s16 || t == dnnlk_u16 ? 2 : t == dnnlk_u64 ? 8 : 0;
}

/* Bits per element (4 for s4/u4, 8 x dnnlk_dtype_size otherwise); 0 for undef or an unknown value. */
static inline int dnnlk_dtype_bits(dnnlk_dtype t) {
    return t == dnnlk_s4 || t == dnnlk_u4 ? 4 : 8 * (int)dnnlk_dtype_size(t);
}

/* The quantized dtypes (fp8, s4/u4, s16/u16): quantize/dequantize and convert take them, compare
 * and logical the ones with a byte size (dnnlk__check_input_dt's quant_ok), every other op refuses
 * them through dnnlk__check_input / dnnlk__complete_output. */
static inline int dnnlk__dtype_quant_only(dnnlk_dtype t) {
    return t == dnnlk_f8_e5m2 || t == dnnlk_f8_e4m3 || t == dnnlk_s4 || t == dnnlk_u4 || t == dnnlk_s16 ||
           t == dnnlk_u16;
}

static DNNLK__FORCEINLINE int dnnlk__is_fp8(dnnlk_dtype t) { return t == dnnlk_f8_e4m3 || t == dnnlk_f8_e5m2; }
static DNNLK__FORCEINLINE int dnnlk__is_packed4(dnnlk_dtype t) { return t == dnnlk_s4 || t == dnnlk_u4; }

static inline int dnnlk__is_float_dtype(dnnlk_dtype t) {
    return t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16;
}

/* ---- f32 bit access (memcpy: the aliasing-safe spelling, compiled to a move) ---- */

static DNNLK__FORCEINLINE uint32_t dnnlk__f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static DNNLK__FORCEINLINE float dnnlk__f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- bf16: the top half of an f32 ---- */

/* pdep in portable C: the low bits of v moved, in order, to the set bits of m (the vector layer's
 * dnnlk__u64_deposit where a level has no BMI2). */
static DNNLK__FORCEINLINE uint64_t dnnlk__u64_deposit_portable(uint64_t v, uint64_t m) {
    uint64_t r = 0;
    for (; m; m &= m - 1, v >>= 1)
        if (v & 1) r |= m & (0 - m);
    return r;
}

static inline float dnnlk_bf16_to_f32(uint16_t h) { return dnnlk__f32_from_bits((uint32_t)h << 16); }

/* Round to nearest even. A NaN stays a NaN (quieted) even when its payload is only in the low
 * half, where plain truncation or rounding would turn it into an infinity. */
static inline uint16_t dnnlk_f32_to_bf16(float f) {
    uint32_t u = dnnlk__f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* ---- f16 (IEEE binary16) ---- */

static inline float dnnlk_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) return dnnlk__f32_from_bits(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        /* Zero or subnormal: man * 2^-24 is exact in f32. */
        float v = (float)man * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
    return dnnlk__f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

/* Round to nearest even; overflow gives infinity; NaN stays NaN (quieted, top payload kept). */
static inline uint16_t dnnlk_f32_to_f16(float f) {
    uint32_t u = dnnlk__f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to >= 65536: infinity */
    if (a < 0x38800000u) {
        /* Result is subnormal or zero: scale so that the f16 subnormal ulp (2^-24) becomes one
         * unit, then round half to even by hand. a < 2^-14 here, so the shift is >= 14. */
        uint32_t shift, man, q, rem, half;
        if (a < 0x33000000u) return sign; /* below half of the smallest subnormal */
        man = (a & 0x7fffffu) | 0x800000u;
        /* value = man * 2^(e-150); in units of 2^-24 that is man >> (126 - e), 14 <= shift <= 24 */
        shift = 126u - (a >> 23);
        q = man >> shift;
        rem = man & ((1u << shift) - 1u);
        half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    /* Normal: rebias the exponent, round the 13 dropped bits to nearest even. */
    a = a - 0x38000000u;
    a += 0xfffu + ((a >> 13) & 1u);
    return (uint16_t)(sign | (a >> 13));
}

/* fp8 -> f32, exactly. e4m3 (E4M3FN): bias 7, subnormals m * 2^-9, S.1111.111 is NaN, no inf.
 * e5m2: bias 15, subnormals m * 2^-16, exponent 31 is inf (m = 0) or NaN. */
static DNNLK__FORCEINLINE float dnnlk__fp8_decode(uint32_t c, int e4m3) {
    uint32_t c7 = c & 0x7fu, sign = (c & 0x80u) << 24;
    float v;
    if (e4m3) {
        if (c7 == 0x7fu) return dnnlk__f32_from_bits(sign | 0x7fc00000u);
        v = c7 < 8u ? (float)c7 * (1.0f / 512.0f) : dnnlk__f32_from_bits((c7 << 20) + (120u << 23));
    } else {
        if (c7 > 0x7cu) return dnnlk__f32_from_bits(sign | 0x7fc00000u);
        if (c7 == 0x7cu) return dnnlk__f32_from_bits(sign | 0x7f800000u);
        v = c7 < 4u ? (float)c7 * (1.0f / 65536.0f) : dnnlk__f32_from_bits((c7 << 21) + (112u << 23));
    }
    return dnnlk__f32_from_bits(dnnlk__f32_bits(v) | sign);
}

/* f32 -> fp8, round to nearest even (ONNX's cast; the vector bodies do these steps lane by lane).
 * Normal results: the f32 bits rounded at the fp8 mantissa width (adding half an fp8 ulp minus one,
 * plus the kept lowest bit), then rebiased; subnormal results: |v| + C rounded by the FPU, where
 * C's ulp is the fp8 subnormal step (e4m3: 2^14, step 2^-9; e5m2: 2^7, step 2^-16), so C's bits
 * minus C's own are the code (the smallest normal included). Beyond the largest finite (448,
 * 57344), inf included: saturate gives +-max; otherwise NaN (e4m3, which has no inf) or +-inf
 * (e5m2). NaN gives NaN (0x7f/0x7e with x's sign). Assumes round-to-nearest, like all float code
 * here; DAZ/FTZ touch nothing that does not round to 0 anyway. */
static DNNLK__FORCEINLINE uint32_t dnnlk__fp8_encode(float v, int e4m3, int saturate) {
    uint32_t u = dnnlk__f32_bits(v), a = u & 0x7fffffffu, sign = (u >> 24) & 0x80u, code;
    const int mb = e4m3 ? 20 : 21;                                 /* f32 mantissa bits dropped */
    const uint32_t minnorm = e4m3 ? 0x3c800000u : 0x38800000u;     /* 2^-6, 2^-14 */
    const uint32_t rebias = e4m3 ? 960u : 448u;                    /* (127 - bias) << mantissa bits */
    const uint32_t maxc = e4m3 ? 0x7eu : 0x7bu, ovf = e4m3 ? 0x7fu : 0x7cu;
    const float C = e4m3 ? 16384.0f : 128.0f;
    if (a > 0x7f800000u) return sign | (e4m3 ? 0x7fu : 0x7eu);
    if (a < minnorm) {
        float t = dnnlk__f32_from_bits(a) + C;
        code = dnnlk__f32_bits(t) - dnnlk__f32_bits(C);
    } else {
        code = ((a + ((1u << (mb - 1)) - 1u) + ((a >> mb) & 1u)) >> mb) - rebias;
        if (code > maxc) code = saturate ? maxc : ovf;
    }
    return sign | code;
}

/* Load/store one element of a float dtype as f32 (scalar paths and references). */
static inline float dnnlk__load_as_f32(const void *p, dnnlk_dtype t) {
    switch (t) {
    case dnnlk_f32: { float v; memcpy(&v, p, 4); return v; }
    case dnnlk_bf16: { uint16_t h; memcpy(&h, p, 2); return dnnlk_bf16_to_f32(h); }
    case dnnlk_f16: { uint16_t h; memcpy(&h, p, 2); return dnnlk_f16_to_f32(h); }
    default: return 0.0f;
    }
}

static inline void dnnlk__store_from_f32(void *p, dnnlk_dtype t, float v) {
    switch (t) {
    case dnnlk_f32: memcpy(p, &v, 4); break;
    case dnnlk_bf16: { uint16_t h = dnnlk_f32_to_bf16(v); memcpy(p, &h, 2); } break;
    case dnnlk_f16: { uint16_t h = dnnlk_f32_to_f16(v); memcpy(p, &h, 2); } break;
    default: break;
    }
}

#endif /* DNNLK_BASE_H */
