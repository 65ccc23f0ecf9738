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
#endif

static DNNLK__FORCEINLINE float dnnlk__sf_mul(float a, float b) {
    float p = a * b;
    DNNLK__NOFUSE(p);
    return p;
}
static DNNLK__FORCEINLINE float dnnlk__sf_fmadd(float a, float b, float c) { return dnnlk__sf_mul(a, b) + c; }
static DNNLK__FORCEINLINE float dnnlk__sf_min(float a, float b) { return a < b ? a : b; }
/* max / min that pass a NaN of either operand on (the scan vector's, see vec.h) */
static DNNLK__FORCEINLINE float dnnlk__sf_max_nan(float a, float b) { return a != a || a > b ? a : b; }
static DNNLK__FORCEINLINE float dnnlk__sf_min_nan(float a, float b) { return a != a || a < b ? a : b; }
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
/* a then b as two bf16 in memory order in one s32 lane (loaded through memcpy, as
 * dnnlk__vi_pack4_u8_scalar packs its bytes), as a vector level packs 2N of them into one register */
static DNNLK__FORCEINLINE int32_t dnnlk__sf_pack2_bf16(float a, float b) {
    uint16_t r[2];
    r[0] = dnnlk_f32_to_bf16(a), r[1] = dnnlk_f32_to_bf16(b);
    return dnnlk__si_loadu(r);
}
static DNNLK__FORCEINLINE int32_t dnnlk__sf_pack2_f16(float a, float b) {
    uint16_t r[2];
    r[0] = dnnlk_f32_to_f16(a), r[1] = dnnlk_f32_to_f16(b);
    return dnnlk__si_loadu(r);
}
/* A signalling NaN comes out quiet (its quiet bit set, the payload kept), as F16C's and NEON's
 * conversions give it, so every level loads the same bits. */
static DNNLK__FORCEINLINE float dnnlk__sf_load_f16(const uint16_t *p) {
    float f = dnnlk_f16_to_f32(dnnlk__sh_load(p));
    return f != f ? dnnlk__f32_from_bits(dnnlk__f32_bits(f) | 0x00400000u) : f;
}
static DNNLK__FORCEINLINE void dnnlk__sf_store_f16(uint16_t *p, float v) { dnnlk__sh_store(p, dnnlk_f32_to_f16(v)); }

/* ---- beyond the f32/s32 basics, by kind (each section names the bodies that use it first) ---- */
/* == select: byte and 16-bit lanes == */
/* Byte lanes: a vector of 8 bytes in a uint64_t (its byte order is memory's: every value goes
 * through memcpy), so an 8-byte element fits a vector too. A mask over es-byte lanes is all ones
 * in the selected lanes. */
static DNNLK__FORCEINLINE uint64_t dnnlk__vb_loadu_scalar(const void *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static DNNLK__FORCEINLINE void dnnlk__vb_storeu_scalar(void *p, uint64_t v) { memcpy(p, &v, 8); }
static DNNLK__FORCEINLINE uint64_t dnnlk__vb_set1_elem_scalar(const void *p, int es) {
    unsigned char t[8];
    int j;
    for (j = 0; j < 8; j += es) memcpy(t + j, p, (size_t)es);
    return dnnlk__vb_loadu_scalar(t);
}
static DNNLK__FORCEINLINE uint64_t dnnlk__vb_cond_elem_scalar(const unsigned char *c, int es) {
    unsigned char t[8];
    int j;
    for (j = 0; j < 8 / es; j++) memset(t + j * es, c[j] ? 0xff : 0, (size_t)es);
    return dnnlk__vb_loadu_scalar(t);
}
static DNNLK__FORCEINLINE uint64_t dnnlk__vb_loadu_n_elem_scalar(const void *p, size_t n, int es) {
    unsigned char t[8] = {0};
    memcpy(t, p, n * (size_t)es);
    return dnnlk__vb_loadu_scalar(t);
}
static DNNLK__FORCEINLINE void dnnlk__vb_storeu_n_elem_scalar(void *p, uint64_t v, size_t n, int es) {
    memcpy(p, &v, n * (size_t)es);
}
static DNNLK__FORCEINLINE uint64_t dnnlk__vb_cond_n_elem_scalar(const unsigned char *c, size_t n, int es) {
    unsigned char t[8] = {0};
    memcpy(t, c, n);
    return dnnlk__vb_cond_elem_scalar(t, es);
}
static DNNLK__FORCEINLINE void dnnlk__vb_permute16_scalar(void *out, const void *in, const unsigned char *idx) {
    unsigned char t[16];
    int j;
    for (j = 0; j < 16; j++) t[j] = ((const unsigned char *)in)[idx[j] & 15];
    memcpy(out, t, 16);
}

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
/* The generators' register: SSE4.1's lane structure (two 64-bit lanes, four 32-bit words, one
 * 128-bit chunk for the unpacks) in plain C, so the generator bodies run their SSE4.1 rounds here
 * and give its bits word for word. */
typedef struct dnnlk__sq { uint32_t w[4]; } dnnlk__sq;
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_make(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    dnnlk__sq r;
    r.w[0] = a, r.w[1] = b, r.w[2] = c, r.w[3] = d;
    return r;
}
static DNNLK__FORCEINLINE uint64_t dnnlk__sq_q(dnnlk__sq a, int i) { return a.w[2 * i] | (uint64_t)a.w[2 * i + 1] << 32; }
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_from_q(uint64_t q0, uint64_t q1) {
    return dnnlk__sq_make((uint32_t)q0, (uint32_t)(q0 >> 32), (uint32_t)q1, (uint32_t)(q1 >> 32));
}
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_loadu(const void *p) {
    dnnlk__sq r;
    memcpy(r.w, p, 16);
    return r;
}
static DNNLK__FORCEINLINE void dnnlk__sq_storeu(void *p, dnnlk__sq v) { memcpy(p, v.w, 16); }
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_set1_64(uint64_t x) { return dnnlk__sq_from_q(x, x); }
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_set1_32(uint32_t x) { return dnnlk__sq_make(x, x, x, x); }
/* op: 0 and, 1 or, 2 xor, 3 add, 4 sub, 5 unsigned min (32-bit words) */
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_op32(dnnlk__sq a, dnnlk__sq b, int op) {
    int i;
    for (i = 0; i < 4; i++) {
        uint32_t x = a.w[i], y = b.w[i];
        a.w[i] = op == 0 ? x & y : op == 1 ? x | y : op == 2 ? x ^ y : op == 3 ? x + y : op == 4 ? x - y : x < y ? x : y;
    }
    return a;
}
/* op: 0 shift right, 1 shift left (32-bit words) */
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_shift32(dnnlk__sq a, int n, int left) {
    int i;
    for (i = 0; i < 4; i++) a.w[i] = left ? a.w[i] << n : a.w[i] >> n;
    return a;
}
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_add64(dnnlk__sq a, dnnlk__sq b) {
    return dnnlk__sq_from_q(dnnlk__sq_q(a, 0) + dnnlk__sq_q(b, 0), dnnlk__sq_q(a, 1) + dnnlk__sq_q(b, 1));
}
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_shift64(dnnlk__sq a, int n, int left) {
    uint64_t q0 = dnnlk__sq_q(a, 0), q1 = dnnlk__sq_q(a, 1);
    return left ? dnnlk__sq_from_q(q0 << n, q1 << n) : dnnlk__sq_from_q(q0 >> n, q1 >> n);
}
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_mul_even_u32(dnnlk__sq a, dnnlk__sq b) {
    return dnnlk__sq_from_q((uint64_t)a.w[0] * b.w[0], (uint64_t)a.w[2] * b.w[2]);
}
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_hi_down32(dnnlk__sq a) { return dnnlk__sq_make(a.w[1], a.w[1], a.w[3], a.w[3]); }
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_blend_odd32(dnnlk__sq a, dnnlk__sq b) {
    return dnnlk__sq_make(a.w[0], b.w[1], a.w[2], b.w[3]);
}
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_pack_lo32(dnnlk__sq a, dnnlk__sq b) {
    return dnnlk__sq_make(a.w[0], b.w[0], a.w[2], b.w[2]);
}
/* which: 0 unpacklo32, 1 unpackhi32, 2 unpacklo64, 3 unpackhi64 */
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__sq_unpack(dnnlk__sq a, dnnlk__sq b, int which) {
    switch (which) {
    case 0: return dnnlk__sq_make(a.w[0], b.w[0], a.w[1], b.w[1]);
    case 1: return dnnlk__sq_make(a.w[2], b.w[2], a.w[3], b.w[3]);
    case 2: return dnnlk__sq_make(a.w[0], a.w[1], b.w[0], b.w[1]);
    default: return dnnlk__sq_make(a.w[2], a.w[3], b.w[2], b.w[3]);
    }
}
static DNNLK__FORCEINLINE uint64_t dnnlk__sq_cmplt32_bits(dnnlk__sq a, dnnlk__sq b, int sgn) {
    uint64_t r = 0;
    int i;
    for (i = 0; i < 4; i++)
        r |= (uint64_t)(sgn ? (int32_t)a.w[i] < (int32_t)b.w[i] : a.w[i] < b.w[i]) << i;
    return r;
}
static DNNLK__FORCEINLINE uint64_t dnnlk__sq_cmplt64_u_bits(dnnlk__sq a, dnnlk__sq b) {
    return (uint64_t)(dnnlk__sq_q(a, 0) < dnnlk__sq_q(b, 0)) | (uint64_t)(dnnlk__sq_q(a, 1) < dnnlk__sq_q(b, 1)) << 1;
}
/* The 64-bit elements of a register as they lay in memory (the generators' dnnlk__sq_q reads the
 * words little-endian: their own layout, not a tensor's). */
static DNNLK__FORCEINLINE uint64_t dnnlk__sq_elem64(dnnlk__sq a, int i) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint64_t)a.w[2 * i] << 32 | a.w[2 * i + 1];
#else
    return dnnlk__sq_q(a, i);
#endif
}
static DNNLK__FORCEINLINE unsigned dnnlk__sq_cmp64(dnnlk__sq a, dnnlk__sq b, int lt) {
    unsigned r = 0;
    int i;
    for (i = 0; i < 2; i++) {
        uint64_t x = dnnlk__sq_elem64(a, i), y = dnnlk__sq_elem64(b, i);
        r |= (unsigned)(lt ? (int64_t)x < (int64_t)y : x == y) << i;
    }
    return r;
}
/* 8 bits -> 8 bytes of 0/1 in memory order: m's byte copied to every byte, bit j kept in the byte
 * stored j-th, and each nonzero byte carried up to its bit 7 (+ 0x7f never carries out of a byte)
 * then down to bit 0. */
static DNNLK__FORCEINLINE uint64_t dnnlk__u8_bytes_from_bits(uint64_t m) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const uint64_t bit_of_byte = 0x0102040810204080ull;
#else
    const uint64_t bit_of_byte = 0x8040201008040201ull;
#endif
    uint64_t x = ((m & 0xffu) * 0x0101010101010101ull) & bit_of_byte;
    return ((x + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull;
}
/* Eight masks of 2 lanes (2 bits each) as 16 bytes of 0/1. */
static DNNLK__FORCEINLINE dnnlk__sq dnnlk__vqmask_pack8_u8_scalar(unsigned m0, unsigned m1, unsigned m2, unsigned m3,
                                                                unsigned m4, unsigned m5, unsigned m6, unsigned m7) {
    uint64_t b[2];
    b[0] = dnnlk__u8_bytes_from_bits(m0 | m1 << 2 | m2 << 4 | m3 << 6);
    b[1] = dnnlk__u8_bytes_from_bits(m4 | m5 << 2 | m6 << 4 | m7 << 6);
    return dnnlk__sq_loadu(b);
}
static DNNLK__FORCEINLINE int32_t dnnlk__si_bitselect(int32_t m, int32_t a, int32_t b) { return (a & m) | (b & ~m); }
static DNNLK__FORCEINLINE int32_t dnnlk__si_xor_if_odd(int32_t r, int32_t t, int32_t k) { return (t & 1) ? r ^ k : r; }
static DNNLK__FORCEINLINE int32_t dnnlk__si_bf16_rne_bits(int32_t u) {
    uint32_t x = (uint32_t)u;
    return (int32_t)(x + 0x7fffu + ((x >> 16) & 1u));
}

/* == softmax, norm: f64 lanes == */
static DNNLK__FORCEINLINE void dnnlk__sd_storeu(double *p, double v) { memcpy(p, &v, 8); }
static DNNLK__FORCEINLINE double dnnlk__sd_loadu(const double *p) {
    double v;
    memcpy(&v, p, 8);
    return v;
}
static DNNLK__FORCEINLINE void dnnlk__sd_load_x2(const double *p, double *r) {
    r[0] = p[-1], r[1] = p[0], r[2] = p[1], r[3] = p[2];
}
/* p * 2^n, n integral in [-252, 252], as SSE4.1 computes it: two normal power-of-2 factors, so
 * a result in the subnormal range is rounded once (by the second product), as scalef rounds it.
 * Written on base.h alone (this section precedes the primitives below): cvttps2dq's truncation
 * (NaN, out of range: INT32_MIN) and an arithmetic shift without shifting a negative value; the
 * integer steps wrap as the vector ones do (n out of range: a wrong value, no UB). The product is
 * kept from being fused into the caller's next add (the includer's FMA flags). */
static DNNLK__FORCEINLINE float dnnlk__sf_scalef(float p, float n) {
    int32_t k = (n > -2147483648.0f && n < 2147483648.0f) ? (int32_t)n : INT32_MIN;
    uint32_t k1 = k >= 0 ? (uint32_t)k >> 1 : ~(~(uint32_t)k >> 1), k2 = (uint32_t)k - k1;
    p = p * dnnlk__f32_from_bits((k1 + 127u) << 23);
    p = p * dnnlk__f32_from_bits((k2 + 127u) << 23);
    DNNLK__NOFUSE(p);
    return p;
}
static DNNLK__FORCEINLINE float dnnlk__sf_maskz_scalef(int m, float p, float n) {
    return m ? dnnlk__sf_scalef(p, n) : 0.0f;
}

/* == quant, resize: s32 lanes narrowed to bytes == */
/* Four one-lane vectors packed into one s32 lane holding their 4 bytes in memory order (loaded
 * through memcpy, so dnnlk__vi_storeu stores them in order on any endianness), as a vector level
 * packs 4N bytes into one integer register. */
static DNNLK__FORCEINLINE int32_t dnnlk__vi_pack4_u8_scalar(int32_t a, int32_t b, int32_t c, int32_t d) {
    uint8_t r[4];
    r[0] = (uint8_t)a, r[1] = (uint8_t)b, r[2] = (uint8_t)c, r[3] = (uint8_t)d;
    return dnnlk__si_loadu(r);
}
/* four compares (0/1) as their truth bytes, in order, as dnnlk__vi_pack4_u8 packs them */
static DNNLK__FORCEINLINE int32_t dnnlk__vmask_pack4_u8_scalar(int a, int b, int c, int d) {
    return dnnlk__vi_pack4_u8_scalar(a != 0, b != 0, c != 0, d != 0);
}
static DNNLK__FORCEINLINE int32_t dnnlk__si_clamp(int32_t v, int32_t lo, int32_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}
/* packssdw, then paddsw z, then packsswb (sgn) or packuswb, lane by lane */
static DNNLK__FORCEINLINE int32_t dnnlk__vi_pack4_sat_i8_scalar(int32_t a, int32_t b, int32_t c, int32_t d, int16_t z,
                                                                int sgn) {
    const int32_t v[4] = {a, b, c, d};
    uint8_t r[4];
    int k;
    for (k = 0; k < 4; k++) {
        int32_t s = dnnlk__si_clamp(dnnlk__si_clamp(v[k], -32768, 32767) + z, -32768, 32767);
        r[k] = (uint8_t)(sgn ? dnnlk__si_clamp(s, -128, 127) : dnnlk__si_clamp(s, 0, 255));
    }
    return dnnlk__si_loadu(r);
}
static DNNLK__FORCEINLINE void dnnlk__vi_store_u8_scalar(void *p, int32_t v) { *(uint8_t *)p = (uint8_t)v; }
/* a - rne(a): exact; NaN for +-inf, as on SSE4.1 */
static DNNLK__FORCEINLINE float dnnlk__sf_sub_round_even(float a) { return a - dnnlk__sf_round_even(a); }
static DNNLK__FORCEINLINE float dnnlk__sf_gather(const float *p, const int32_t *idx) { return dnnlk__sf_load(p + idx[0]); }

/* == vmath: what the math bodies ask of a level == */
/* max(-0, x) as maxps gives it (-0 for x < 0 and for -0, x otherwise: +0 and NaN kept), decided on
 * the bits: clang 14 -O1 with ASan rewrote the float compare-and-select against -0 as if the sign
 * of a zero did not matter (gelu(+0) came out -0). */
static DNNLK__FORCEINLINE float dnnlk__sf_max_neg0(float x) {
    uint32_t b = dnnlk__f32_bits(x);
    return (b > 0x80000000u && b <= 0xff800000u) ? -0.0f : x;
}
/* == convert: transposes of 32-bit elements == */
/* Plain C at this level: a 4x4 tile, 4 bytes at a time (any alignment, the bits as they are; no
 * streaming stores here). */
static DNNLK__FORCEINLINE void dnnlk__v32_transpose_scalar(void *d, int64_t dp, const void *s, int64_t sp, int nt) {
    int j, k;
    (void)nt;
    for (j = 0; j < 4; j++)
        for (k = 0; k < 4; k++) memcpy((char *)d + j * dp + k * 4, (const char *)s + k * sp + j * 4, 4);
}
/* == convert: interleaves of 1-, 2- and 4-byte elements (hi: of the upper halves) ==
 * The 8 bytes in memory order (a dnnlk__vb is what dnnlk__vb_loadu read), so on any byte order. */
static DNNLK__FORCEINLINE uint64_t dnnlk__vb_zip_scalar(uint64_t a, uint64_t b, int es, int hi) {
    unsigned char x[8], y[8], o[8];
    int j, half = 4 / es;
    uint64_t r;
    memcpy(x, &a, 8), memcpy(y, &b, 8);
    for (j = 0; j < half; j++) {
        memcpy(o + 2 * j * es, x + (hi * half + j) * es, (size_t)es);
        memcpy(o + (2 * j + 1) * es, y + (hi * half + j) * es, (size_t)es);
    }
    memcpy(&r, o, 8);
    return r;
}
#endif

#define DNNLK__VF_N 1
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 0          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 0  /* an 8-entry float table read by one register permute */
#define DNNLK__VEC_STREAM_LINES 0 /* streamed lines go out whole only if written back to back (x86 write-combining) */
#define dnnlk__vf float
#define dnnlk__vi int32_t
#define dnnlk__vmask int
#define dnnlk__vf_loadu(p) dnnlk__sf_load(p)
#define dnnlk__vf_loadu_scan(p) dnnlk__sf_load(p)
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
#define dnnlk__vf_pack2_bf16 dnnlk__sf_pack2_bf16
#define dnnlk__vf_pack2_f16 dnnlk__sf_pack2_f16
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
#define DNNLK__VT_N 4 /* the side of dnnlk__v32_transpose's tiles */
#define dnnlk__v32_transpose dnnlk__v32_transpose_scalar
#define dnnlk__vb_ziplo_elem(a, b, es) dnnlk__vb_zip_scalar((a), (b), (es), 0)
#define dnnlk__vb_ziphi_elem(a, b, es) dnnlk__vb_zip_scalar((a), (b), (es), 1)

/* ---- beyond the f32/s32 basics (names), in the sections above ---- */
/* == select: byte and 16-bit lanes == */
#define DNNLK__VB_N 8
#define DNNLK__VEC_MASKED_BYTES 0 /* byte-granular masked loads and stores (else: an emulation) */
#define dnnlk__vb uint64_t
#define dnnlk__vmask_vb uint64_t
#define dnnlk__vb_loadu(p) dnnlk__vb_loadu_scalar(p)
#define dnnlk__vb_storeu(p, v) dnnlk__vb_storeu_scalar((p), (v))
#define dnnlk__vb_stream(p, v) dnnlk__vb_storeu_scalar((p), (v))
#define dnnlk__vb_set1_elem dnnlk__vb_set1_elem_scalar
#define dnnlk__vb_cond_elem dnnlk__vb_cond_elem_scalar
#define dnnlk__vb_blend_elem(m, t, f, es) (((t) & (m)) | ((f) & ~(m)))
#define dnnlk__vb_loadu_n_elem dnnlk__vb_loadu_n_elem_scalar
#define dnnlk__vb_storeu_n_elem dnnlk__vb_storeu_n_elem_scalar
#define dnnlk__vb_cond_n_elem dnnlk__vb_cond_n_elem_scalar
#define dnnlk__vb_permute16 dnnlk__vb_permute16_scalar

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
#define DNNLK__VQ_N 2 /* the generators' register keeps SSE4.1's structure here (dnnlk__sq) */
#define DNNLK__VEC_CMP_TO_BITS 0 /* compares give bits and bits deposit cheaply (k-masks, pdep) */
#define dnnlk__vq dnnlk__sq
#define dnnlk__vq_loadu(p) dnnlk__sq_loadu(p)
#define dnnlk__vq_storeu(p, v) dnnlk__sq_storeu((p), (v))
#define dnnlk__vq_part_vi(v, j) ((int32_t)(v).w[j])
#define dnnlk__vq_set1_64(x) dnnlk__sq_set1_64((uint64_t)(x))
#define dnnlk__vq_set1_32(x) dnnlk__sq_set1_32((uint32_t)(x))
#define dnnlk__vq_and(a, b) dnnlk__sq_op32((a), (b), 0)
#define dnnlk__vq_or(a, b) dnnlk__sq_op32((a), (b), 1)
#define dnnlk__vq_xor(a, b) dnnlk__sq_op32((a), (b), 2)
#define dnnlk__vq_xor3(a, b, c) dnnlk__sq_op32(dnnlk__sq_op32((a), (b), 2), (c), 2)
#define dnnlk__vq_add64(a, b) dnnlk__sq_add64((a), (b))
#define dnnlk__vq_srli64(a, n) dnnlk__sq_shift64((a), (n), 0)
#define dnnlk__vq_slli64(a, n) dnnlk__sq_shift64((a), (n), 1)
#define dnnlk__vq_add32(a, b) dnnlk__sq_op32((a), (b), 3)
#define dnnlk__vq_sub32(a, b) dnnlk__sq_op32((a), (b), 4)
#define dnnlk__vq_srli32(a, n) dnnlk__sq_shift32((a), (n), 0)
#define dnnlk__vq_slli32(a, n) dnnlk__sq_shift32((a), (n), 1)
#define dnnlk__vq_min32_u(a, b) dnnlk__sq_op32((a), (b), 5)
#define dnnlk__vq_mul_even_u32(a, b) dnnlk__sq_mul_even_u32((a), (b))
#define dnnlk__vq_hi_down32(a) dnnlk__sq_hi_down32(a)
#define dnnlk__vq_blend_odd32(a, b) dnnlk__sq_blend_odd32((a), (b))
#define dnnlk__vq_pack_lo32(a, b) dnnlk__sq_pack_lo32((a), (b))
#define dnnlk__vq_unpacklo32(a, b) dnnlk__sq_unpack((a), (b), 0)
#define dnnlk__vq_unpackhi32(a, b) dnnlk__sq_unpack((a), (b), 1)
#define dnnlk__vq_unpacklo64(a, b) dnnlk__sq_unpack((a), (b), 2)
#define dnnlk__vq_unpackhi64(a, b) dnnlk__sq_unpack((a), (b), 3)
#define dnnlk__vq_lane0_u32(a) ((a).w[0])
#define dnnlk__vq_cmplt32_bits(a, b) dnnlk__sq_cmplt32_bits((a), (b), 1)
#define dnnlk__vq_cmplt32_u_bits(a, b) dnnlk__sq_cmplt32_bits((a), (b), 0)
#define dnnlk__vq_cmplt64_u_rhs(t) dnnlk__sq_set1_64((uint64_t)(t))
#define dnnlk__vq_cmplt64_u_bits(a, rhs) dnnlk__sq_cmplt64_u_bits((a), (rhs))
#define dnnlk__vqmask unsigned
#define dnnlk__vq_cmpeq64(a, b) dnnlk__sq_cmp64((a), (b), 0)
#define dnnlk__vq_cmplt64(a, b) dnnlk__sq_cmp64((a), (b), 1)
#define dnnlk__vqmask_pack8_u8 dnnlk__vqmask_pack8_u8_scalar
#define dnnlk__vi_bitselect(m, a, b) dnnlk__si_bitselect((m), (a), (b))
#define dnnlk__vi_xor_if_odd(r, t, k) dnnlk__si_xor_if_odd((r), (t), (k))
#define dnnlk__vi_bf16_rne_bits(u) dnnlk__si_bf16_rne_bits(u)
#define dnnlk__vf_maskz_bits(b, v) (((b) & 1u) ? (v) : 0.0f)
#define dnnlk__vf_maskz_bits_even(b, v) (((b) & 1u) ? (v) : 0.0f)
#define dnnlk__vf_maskz_bits_odd(b, v) (((b) & 2u) ? (v) : 0.0f)
#define dnnlk__u64_deposit dnnlk__u64_deposit_portable

/* == softmax, norm: f64 lanes == */
#define DNNLK__VD_N 1
#define DNNLK__VEC_SCALEF 0 /* dnnlk__vf_scalef is one instruction for any n (else n in [-252, 252]) */
#define dnnlk__vd double
#define dnnlk__vd_zero() 0.0
#define dnnlk__vd_add(a, b) ((a) + (b))
#define dnnlk__vd_storeu(p, v) dnnlk__sd_storeu((p), (v))
#define dnnlk__vd_from_vf(v, h) ((double)(v))
#define dnnlk__vd_loadu(p) dnnlk__sd_loadu(p)
#define dnnlk__vd_set1(x) ((double)(x))
#define dnnlk__vd_mul(a, b) ((a) * (b))
#define dnnlk__vd_gather(p, idx) dnnlk__sd_loadu((p) + (idx)[0])
#define dnnlk__vd_load_even(p) dnnlk__sd_loadu(p)
#define dnnlk__vd_load_x2 dnnlk__sd_load_x2
#define dnnlk__vd_load_f32(p) ((double)dnnlk__sf_load(p))
#define dnnlk__vd_store_f32(p, v) dnnlk__sf_store((p), (float)(v))
#define dnnlk__vf_hmax(v) (v)
#define dnnlk__vf_cmpneq(a, b) ((a) != (b))
#define dnnlk__vf_cmpnlt_in(m, a, b) ((m) & !((a) < (b)))
#define dnnlk__vmask_ones() 1
#define dnnlk__vi_test_in(m, a, b) ((m) & (((a) & (b)) != 0))
#define dnnlk__vi_cmpgt_in(m, a, b) ((m) & ((a) > (b)))
#define dnnlk__vmask_count(m) ((unsigned)(m))
#define dnnlk__vf_scalef(p, n) dnnlk__sf_scalef((p), (n))
#define dnnlk__vf_maskz_scalef(m, p, n) dnnlk__sf_maskz_scalef((m), (p), (n))
#define dnnlk__vec_prefetch_l1(p, bytes) ((void)0)

/* == quant, resize: s32 lanes narrowed to bytes == */
#define DNNLK__VEC_REDUCE 0 /* dnnlk__vf_sub_round_even: a - round_even(a) (NaN for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 1 /* a division costs about a multiply and a rounding test (one lane) */
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_scalar
#define dnnlk__vmask_pack4_u8 dnnlk__vmask_pack4_u8_scalar
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_scalar
#define dnnlk__vi_store_u8(p, v) dnnlk__vi_store_u8_scalar((p), (v))
#define dnnlk__vf_sub_round_even(a) dnnlk__sf_sub_round_even(a)
#define dnnlk__vf_to_vi_round_even(a) dnnlk__si_to_int(dnnlk__sf_round_even(a))
#define dnnlk__vf_permute(v, idx) ((void)(idx), (v))
#define dnnlk__vf_ziplo(a, b) ((void)(b), (a)) /* a0 b0 a1 b1 ...: lane 0 a0, the next vector b0 */
#define dnnlk__vf_ziphi(a, b) ((void)(a), (b))
#define dnnlk__vf_gather(p, idx) dnnlk__sf_gather((p), (idx))
#define dnnlk__vperm2 int32_t
#define dnnlk__vperm2_index(p) (*(const int32_t *)(p))
#define dnnlk__vi_permute2(a, b, ix) ((ix) ? (b) : (a))

/* == vmath: what the math bodies ask of a level == */
#define DNNLK__VEC_LUT32 0   /* no 32-entry register table */
#if defined(__FMA__) && (defined(__GNUC__) || defined(__clang__))
/* the includer's flags enable FMA (e.g. -march=native): the hardware is there, and the compiler
 * may fuse the products of a Dekker split, which breaks its exactness: take the error directly */
#define DNNLK__VEC_PROD_ERR 1
#define dnnlk__vf_prod_err(a, b, p) __builtin_fmaf((a), (b), -(p))
#else
#define DNNLK__VEC_PROD_ERR 0
#endif
#define dnnlk__vlut8 int32_t
#define dnnlk__vlut8_index(i) ((i) & 7) /* a NaN lane's index stays in the table */
#define dnnlk__vf_lut8(t, ix) ((t)[ix])
#define dnnlk__vf_fmsub(a, b, c) dnnlk__vf_sub(dnnlk__vf_mul((a), (b)), (c))
#define dnnlk__vf_fnmadd(a, b, c) dnnlk__vf_sub((c), dnnlk__vf_mul((a), (b)))
#define dnnlk__vf_fnmsub(a, b, c) dnnlk__vf_sub(dnnlk__vf_xor(dnnlk__vf_mul((a), (b)), dnnlk__vf_set1(-0.0f)), (c))
#define dnnlk__vf_max_neg0(x) dnnlk__sf_max_neg0(x)

/* == scans: NaN comes out in the result == */
#define dnnlk__vs_max(a, b) dnnlk__sf_max_nan((a), (b))
#define dnnlk__vs_min(a, b) dnnlk__sf_min_nan((a), (b))
#define dnnlk__vs_any_nle(a, b) (!((a) <= (b)))
#define dnnlk__vs_any_nlt(a, b) (!((a) < (b)))
