/* dnnl_kernels — vec_scalar.h: the vector layer (vec.h's API) at the scalar level: one lane of
 * plain C types (dnnlk__vf = float, dnnlk__vi = int32_t, dnnlk__vmask = int holding 0 or 1), so a
 * body written for the vector levels also compiles as the scalar path, on every platform. No
 * include guard: vec.h includes it with DNNLK__ISA 0 (no target region: the includer's flags);
 * vec_end.h removes the names.
 *
 * Each operation gives the bits the SSE4.1 instruction gives for one lane (min/max return the
 * second operand when either is NaN, compares are ordered and quiet, truncation of NaN or an
 * out-of-range value gives INT32_MIN), independent of the rounding mode where the instruction
 * takes its mode explicitly. Products are passed through DNNLK__NOFUSE: compiled under the
 * includer's flags (-march=native, or aarch64, where FMA is always there) the compiler would
 * otherwise be free to fuse them into a following add, and the scalar level would no longer give
 * SSE4.1's bits. dnnlk__vf_fmadd is therefore a rounded multiply and a rounded add, as on SSE4.1. */

#if DNNLK__ISA != 0
#error "vec_scalar.h is included through vec.h with DNNLK__ISA 0"
#endif

#ifndef DNNLK__VEC_FUNCS_0
#define DNNLK__VEC_FUNCS_0
#if !defined(__GNUC__) && !defined(__clang__)
#include <math.h> /* sqrtf */

/* ---- sections of the families converted onto the layer (functions) ---- */
/* == select: byte and 16-bit lanes == */

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */

/* == softmax, norm: f64 lanes == */

/* == quant, resize: s32 lanes narrowed to bytes == */

/* == vmath: what the math bodies ask of a level == */
#endif
static DNNLK__FORCEINLINE float dnnlk__sf_mul(float a, float b) {
    float p = a * b;
    DNNLK__NOFUSE(p);
    return p;
}
static DNNLK__FORCEINLINE float dnnlk__sf_fmadd(float a, float b, float c) { return dnnlk__sf_mul(a, b) + c; }
static DNNLK__FORCEINLINE float dnnlk__sf_min(float a, float b) { return a < b ? a : b; }
static DNNLK__FORCEINLINE float dnnlk__sf_max(float a, float b) { return a > b ? a : b; }
static DNNLK__FORCEINLINE float dnnlk__sf_blend(int m, float t, float f) { return m ? t : f; }
static DNNLK__FORCEINLINE int32_t dnnlk__si_blend(int m, int32_t t, int32_t f) { return m ? t : f; }
static DNNLK__FORCEINLINE int32_t dnnlk__si_min(int32_t a, int32_t b) { return a < b ? a : b; }
static DNNLK__FORCEINLINE int32_t dnnlk__si_max(int32_t a, int32_t b) { return a > b ? a : b; }
static DNNLK__FORCEINLINE int dnnlk__sf_unord(float a, float b) { return a != a || b != b; }
static DNNLK__FORCEINLINE int dnnlk__sf_ord(float a, float b) { return a == a && b == b; }
static DNNLK__FORCEINLINE float dnnlk__sf_bitop(float a, float b, int op) {
    uint32_t x = dnnlk__f32_bits(a), y = dnnlk__f32_bits(b);
    return dnnlk__f32_from_bits(op == 0 ? (x & y) : op == 1 ? (x | y) : (x ^ y));
}
/* m with the sign of s (andps/orps in registers: no trip through an integer register). */
static DNNLK__FORCEINLINE float dnnlk__sf_copysign(float m, float s) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_copysignf(m, s);
#else
    return dnnlk__f32_from_bits((dnnlk__f32_bits(m) & 0x7fffffffu) | (dnnlk__f32_bits(s) & 0x80000000u));
#endif
}
/* Round half to even without the current rounding mode: |x| < 2^23 only matters. The sign is
 * x's, a zero's included (round(-0.3) = -0, round(-0) = -0, as roundps). */
static DNNLK__FORCEINLINE float dnnlk__sf_round_even(float x) {
    float a = x < 0 ? -x : x, r;
    if (!(a < 8388608.0f)) return x;
    r = (float)(int32_t)a; /* truncation, mode-independent */
    if (a - r > 0.5f || (a - r == 0.5f && ((int32_t)r & 1))) r += 1.0f;
    return dnnlk__sf_copysign(r, x);
}
/* Round toward -inf, mode-independent; keeps the sign of a zero (floor(-0) = -0) as roundps. */
static DNNLK__FORCEINLINE float dnnlk__sf_floor(float x) {
    float a = x < 0 ? -x : x, r;
    if (!(a < 8388608.0f)) return x;
    r = (float)(int32_t)x; /* truncation toward 0 */
    if (r > x) r -= 1.0f;
    return r == 0.0f ? dnnlk__sf_copysign(0.0f, x) : r;
}
/* Correctly rounded (as sqrtps); the builtin leaves errno to the compiler's -fmath-errno. */
static DNNLK__FORCEINLINE float dnnlk__sf_sqrt(float x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_sqrtf(x);
#else
    return sqrtf(x);
#endif
}
/* Truncation to int32 as cvttps2dq does it: NaN and out-of-range values give INT32_MIN (a plain
 * cast would be undefined behaviour there). */
static DNNLK__FORCEINLINE int32_t dnnlk__si_to_int(float x) {
    return (x > -2147483648.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN;
}
/* Shift right keeping the sign, written without shifting a negative value (implementation-defined
 * in C): the complement of a negative value is non-negative. */
static DNNLK__FORCEINLINE int32_t dnnlk__si_srai(int32_t a, int n) {
    return a >= 0 ? (int32_t)((uint32_t)a >> n) : (int32_t)~(~(uint32_t)a >> n);
}
/* Loads and stores go through memcpy, as loadu/storeu: the pointers need only byte alignment. */
static DNNLK__FORCEINLINE float dnnlk__sf_load(const float *p) {
    float v;
    memcpy(&v, p, 4);
    return v;
}
static DNNLK__FORCEINLINE void dnnlk__sf_store(float *p, float v) { memcpy(p, &v, 4); }
static DNNLK__FORCEINLINE float dnnlk__sf_loadu_n(const float *p, size_t n) { return n ? dnnlk__sf_load(p) : 0.0f; }
static DNNLK__FORCEINLINE void dnnlk__sf_storeu_n(float *p, float v, size_t n) {
    if (n) dnnlk__sf_store(p, v);
}
static DNNLK__FORCEINLINE int32_t dnnlk__si_loadu(const void *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}
static DNNLK__FORCEINLINE void dnnlk__si_storeu(void *p, int32_t v) { memcpy(p, &v, 4); }
static DNNLK__FORCEINLINE int32_t dnnlk__si_load_i8(const void *p, int sgn) {
    unsigned char b = *(const unsigned char *)p;
    return sgn ? (int32_t)(signed char)b : (int32_t)b;
}
static DNNLK__FORCEINLINE uint16_t dnnlk__sh_load(const uint16_t *p) {
    uint16_t h;
    memcpy(&h, p, 2);
    return h;
}
static DNNLK__FORCEINLINE void dnnlk__sh_store(uint16_t *p, uint16_t h) { memcpy(p, &h, 2); }
static DNNLK__FORCEINLINE float dnnlk__sf_load_bf16(const uint16_t *p) { return dnnlk_bf16_to_f32(dnnlk__sh_load(p)); }
static DNNLK__FORCEINLINE void dnnlk__sf_store_bf16(uint16_t *p, float v) { dnnlk__sh_store(p, dnnlk_f32_to_bf16(v)); }
static DNNLK__FORCEINLINE float dnnlk__sf_load_f16(const uint16_t *p) { return dnnlk_f16_to_f32(dnnlk__sh_load(p)); }
static DNNLK__FORCEINLINE void dnnlk__sf_store_f16(uint16_t *p, float v) { dnnlk__sh_store(p, dnnlk_f32_to_f16(v)); }
#endif

#define DNNLK__VF_N 1
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 0          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 0  /* an 8-entry float table read by one register permute */
#define dnnlk__vf float
#define dnnlk__vi int32_t
#define dnnlk__vmask int
#define dnnlk__vf_loadu(p) dnnlk__sf_load(p)
#define dnnlk__vf_storeu(p, v) dnnlk__sf_store((p), (v))
#define dnnlk__vf_stream(p, v) dnnlk__sf_store((p), (v))
#define dnnlk__vf_loadu_n dnnlk__sf_loadu_n
#define dnnlk__vf_storeu_n dnnlk__sf_storeu_n
#define dnnlk__vf_set1(x) ((float)(x))
#define dnnlk__vf_zero() 0.0f
#define dnnlk__vf_add(a, b) ((a) + (b))
#define dnnlk__vf_sub(a, b) ((a) - (b))
#define dnnlk__vf_mul(a, b) dnnlk__sf_mul((a), (b))
#define dnnlk__vf_div(a, b) ((a) / (b))
#define dnnlk__vf_fmadd(a, b, c) dnnlk__sf_fmadd((a), (b), (c))
#define dnnlk__vf_nofuse(v) DNNLK__NOFUSE(v)
#define dnnlk__vf_min(a, b) dnnlk__sf_min((a), (b))
#define dnnlk__vf_max(a, b) dnnlk__sf_max((a), (b))
#define dnnlk__vf_sqrt(a) dnnlk__sf_sqrt(a)
#define dnnlk__vf_and(a, b) dnnlk__sf_bitop((a), (b), 0)
#define dnnlk__vf_or(a, b) dnnlk__sf_bitop((a), (b), 1)
#define dnnlk__vf_xor(a, b) dnnlk__sf_bitop((a), (b), 2)
#define dnnlk__vf_round_even(a) dnnlk__sf_round_even(a)
#define dnnlk__vf_floor(a) dnnlk__sf_floor(a)
#define dnnlk__vf_cmplt(a, b) ((a) < (b))
#define dnnlk__vf_cmple(a, b) ((a) <= (b))
#define dnnlk__vf_cmpgt(a, b) ((a) > (b))
#define dnnlk__vf_cmpge(a, b) ((a) >= (b))
#define dnnlk__vf_cmpeq(a, b) ((a) == (b))
#define dnnlk__vf_cmpunord(a, b) dnnlk__sf_unord((a), (b))
#define dnnlk__vmask_bits(m) ((unsigned)(m))
#define dnnlk__vf_blend(m, t, f) dnnlk__sf_blend((m), (t), (f))
#define dnnlk__vf_load_bf16 dnnlk__sf_load_bf16
#define dnnlk__vf_store_bf16 dnnlk__sf_store_bf16
#define dnnlk__vf_load_f16 dnnlk__sf_load_f16
#define dnnlk__vf_store_f16 dnnlk__sf_store_f16
#define dnnlk__vi_loadu(p) dnnlk__si_loadu(p)
#define dnnlk__vi_storeu(p, v) dnnlk__si_storeu((p), (v))
#define dnnlk__vi_set1(x) ((int32_t)(x))
#define dnnlk__vi_add(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define dnnlk__vi_sub(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)))
#define dnnlk__vi_mullo(a, b) ((int32_t)((uint32_t)(a) * (uint32_t)(b)))
#define dnnlk__vi_and(a, b) ((a) & (b))
#define dnnlk__vi_or(a, b) ((a) | (b))
#define dnnlk__vi_xor(a, b) ((a) ^ (b))
#define dnnlk__vi_slli(a, n) ((int32_t)((uint32_t)(a) << (n)))
#define dnnlk__vi_srli(a, n) ((int32_t)((uint32_t)(a) >> (n)))
#define dnnlk__vi_srai(a, n) dnnlk__si_srai((a), (n))
#define dnnlk__vf_as_vi(a) ((int32_t)dnnlk__f32_bits(a))
#define dnnlk__vi_as_vf(a) dnnlk__f32_from_bits((uint32_t)(a))
#define dnnlk__vi_to_vf(a) ((float)(a))
#define dnnlk__vf_to_vi_trunc(a) dnnlk__si_to_int(a)
#define dnnlk__vi_load_i8 dnnlk__si_load_i8
#define dnnlk__vi_min(a, b) dnnlk__si_min((a), (b))
#define dnnlk__vi_max(a, b) dnnlk__si_max((a), (b))
#define dnnlk__vi_cmpeq(a, b) ((a) == (b))
#define dnnlk__vi_cmpgt(a, b) ((a) > (b))
#define dnnlk__vi_blend(m, t, f) dnnlk__si_blend((m), (t), (f))
#define dnnlk__vf_cmpnle(a, b) (!((a) <= (b)))
#define dnnlk__vf_cmpnge(a, b) (!((a) >= (b)))
#define dnnlk__vf_cmpord(a, b) dnnlk__sf_ord((a), (b))
#define dnnlk__vmask_and(a, b) ((a) & (b))
#define dnnlk__vmask_or(a, b) ((a) | (b))
#define dnnlk__vi_store(p, v) dnnlk__si_storeu((p), (v))
#define dnnlk__vi_stream(p, v) dnnlk__si_storeu((p), (v))
#define dnnlk__vec_sfence() ((void)0)
#define dnnlk__vec_prefetch_l2(p, bytes) ((void)0)

/* ---- sections of the families converted onto the layer (names) ---- */
/* == select: byte and 16-bit lanes == */

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */

/* == softmax, norm: f64 lanes == */

/* == quant, resize: s32 lanes narrowed to bytes == */
/* (functions here, under their own guard: this level's functions section is compiled only by
 * compilers other than gcc/clang) */
#ifndef DNNLK__VEC_QUANT_FUNCS_0
#define DNNLK__VEC_QUANT_FUNCS_0
/* Four one-lane vectors packed: 4 bytes in order (a struct, so any endianness stores them so). */
typedef struct dnnlk__vb_scalar {
    uint8_t b[4];
} dnnlk__vb_scalar;
static DNNLK__FORCEINLINE dnnlk__vb_scalar dnnlk__vi_pack4_u8_scalar(int32_t a, int32_t b, int32_t c, int32_t d) {
    dnnlk__vb_scalar r;
    r.b[0] = (uint8_t)a, r.b[1] = (uint8_t)b, r.b[2] = (uint8_t)c, r.b[3] = (uint8_t)d;
    return r;
}
static DNNLK__FORCEINLINE int32_t dnnlk__si_clamp(int32_t v, int32_t lo, int32_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}
/* packssdw, then paddsw z, then packsswb (sgn) or packuswb, lane by lane */
static DNNLK__FORCEINLINE dnnlk__vb_scalar dnnlk__vi_pack4_sat_i8_scalar(int32_t a, int32_t b, int32_t c, int32_t d,
                                                                         int16_t z, int sgn) {
    const int32_t v[4] = {a, b, c, d};
    dnnlk__vb_scalar r;
    int k;
    for (k = 0; k < 4; k++) {
        int32_t s = dnnlk__si_clamp(dnnlk__si_clamp(v[k], -32768, 32767) + z, -32768, 32767);
        r.b[k] = (uint8_t)(sgn ? dnnlk__si_clamp(s, -128, 127) : dnnlk__si_clamp(s, 0, 255));
    }
    return r;
}
static DNNLK__FORCEINLINE void dnnlk__vb_storeu_scalar(void *p, dnnlk__vb_scalar v) { memcpy(p, v.b, 4); }
static DNNLK__FORCEINLINE void dnnlk__vi_store_u8_scalar(void *p, int32_t v) { *(uint8_t *)p = (uint8_t)v; }
/* a - rne(a): exact; NaN for +-inf, as on SSE4.1 */
static DNNLK__FORCEINLINE float dnnlk__sf_sub_round_even(float a) { return a - dnnlk__sf_round_even(a); }
static DNNLK__FORCEINLINE float dnnlk__sf_gather(const float *p, const int32_t *idx) { return dnnlk__sf_load(p + idx[0]); }
#endif
#define DNNLK__VB_N 4
#define DNNLK__VEC_REDUCE 0 /* dnnlk__vf_sub_round_even: a - round_even(a) (NaN for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 1 /* a division costs about a multiply and a rounding test (one lane) */
#define dnnlk__vb dnnlk__vb_scalar
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_scalar
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_scalar
#define dnnlk__vb_storeu(p, v) dnnlk__vb_storeu_scalar((p), (v))
#define dnnlk__vb_stream(p, v) dnnlk__vb_storeu_scalar((p), (v))
#define dnnlk__vi_store_u8(p, v) dnnlk__vi_store_u8_scalar((p), (v))
#define dnnlk__vf_sub_round_even(a) dnnlk__sf_sub_round_even(a)
#define dnnlk__vf_to_vi_round_even(a) dnnlk__si_to_int(dnnlk__sf_round_even(a))
#define dnnlk__vf_permute(v, idx) ((void)(idx), (v))
#define dnnlk__vf_gather(p, idx) dnnlk__sf_gather((p), (idx))

/* == vmath: what the math bodies ask of a level == */
