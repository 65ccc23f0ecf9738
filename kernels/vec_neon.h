/* dnnl_kernels — vec_neon.h: the vector layer (vec.h's API) on AArch64 Advanced SIMD: 4 f32 / s32
 * lanes, masks as lane vectors (all ones where true). No include guard: vec.h includes it with
 * DNNLK__ISA 4 on little-endian aarch64 builds (NEON is baseline there: no target region, no runtime
 * check); vec_end.h removes the names.
 *
 * The level gives SSE4.1's bits lane for lane, as the scalar level does: it takes SSE4.1's place
 * (dnnlk_isa_neon == dnnlk_isa_sse41 == 1, cpu.h), so the recorded-bits tables' SSE4.1 column
 * checks it and every "same bits as scalar" class holds on it. Where an instruction differs from
 * SSE4.1's, it is emulated:
 *   - min/max: x86's operand order (the second operand where either is NaN or both are zeros),
 *     a compare and a select instead of FMIN/FMAX (which return NaN, and order -0 < +0);
 *   - float -> s32: FCVTZS/FCVTNS saturate and give 0 for NaN; cvttps2dq gives INT32_MIN for NaN
 *     and out of range: one compare and select fix it;
 *   - products: FMLA would round once where SSE4.1 rounds twice, so DNNLK__VEC_FMA is 0 and
 *     dnnlk__vf_mul hides its product from the compiler (gcc contracts the intrinsics' mul and add
 *     into FMLA otherwise: they are plain vector * and + in its arm_neon.h);
 *   - packs: SQXTN/SQXTUN/SQADD saturate exactly as packssdw/packsswb/packuswb/paddsw.
 * Capability flags: no FMA (above: bits over a fused step), no 8-entry permute (TBL with two
 * registers reads 8 floats in one instruction, but that flag selects another gelu formula, so its
 * bits would leave SSE4.1's), no scalef, no 32-entry table, no masked bytes, no bit deposit, and
 * DNNLK__VEC_PROD_ERR 0 (a Dekker split on unfusable products, exact as SSE4.1's). */

#if DNNLK__ISA != 4
#error "vec_neon.h is included through vec.h with DNNLK__ISA 4"
#endif

#ifndef DNNLK__VEC_FUNCS_4
#define DNNLK__VEC_FUNCS_4
/* a product the compiler may not fuse into a following add (see the header comment) */
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_mul_neon(float32x4_t a, float32x4_t b) {
    float32x4_t p = vmulq_f32(a, b);
    __asm__("" : "+w"(p));
    return p;
}
/* minps / maxps: a < b ? a : b and a > b ? a : b (b when either is NaN) */
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_min_neon(float32x4_t a, float32x4_t b) {
    return vbslq_f32(vcltq_f32(a, b), a, b);
}
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_max_neon(float32x4_t a, float32x4_t b) {
    return vbslq_f32(vcgtq_f32(a, b), a, b);
}
/* cvttps2dq: INT32_MIN for NaN and out of range (FCVTZS gives 0 for NaN, INT32_MAX above); below
 * -2^31 both give INT32_MIN, so only "not below 2^31" needs the fix. */
static DNNLK__FORCEINLINE int32x4_t dnnlk__vf_to_vi_trunc_neon(float32x4_t a) {
    return vbslq_s32(vcltq_f32(a, vdupq_n_f32(2147483648.0f)), vcvtq_s32_f32(a), vdupq_n_s32(INT32_MIN));
}
static DNNLK__FORCEINLINE int32x4_t dnnlk__vf_to_vi_round_even_neon(float32x4_t a) {
    return vbslq_s32(vcltq_f32(a, vdupq_n_f32(2147483648.0f)), vcvtnq_s32_f32(a), vdupq_n_s32(INT32_MIN));
}
/* unordered / ordered: a NaN is the one value not equal to itself */
static DNNLK__FORCEINLINE uint32x4_t dnnlk__vf_cmpord_neon(float32x4_t a, float32x4_t b) {
    return vandq_u32(vceqq_f32(a, a), vceqq_f32(b, b));
}
static DNNLK__FORCEINLINE unsigned dnnlk__vmask_bits_neon(uint32x4_t m) {
    static const uint32_t w[4] = {1, 2, 4, 8};
    return (unsigned)vaddvq_u32(vandq_u32(m, vld1q_u32(w)));
}
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_loadu_n_neon(const float *p, size_t n) {
    float t[4] = {0, 0, 0, 0};
    memcpy(t, p, n * sizeof(float));
    return vld1q_f32(t);
}
static DNNLK__FORCEINLINE void dnnlk__vf_storeu_n_neon(float *p, float32x4_t v, size_t n) {
    float t[4];
    vst1q_f32(t, v);
    memcpy(p, t, n * sizeof(float));
}
/* Non-temporal store of 16 bytes: STNP of the two 64-bit halves ("Q": a base register, no offset,
 * an addressing mode STNP takes). */
typedef struct dnnlk__b16_neon { unsigned char b[16]; } dnnlk__b16_neon;
static DNNLK__FORCEINLINE void dnnlk__stream_neon(void *p, uint8x16_t v) {
    uint64x2_t q = vreinterpretq_u64_u8(v);
    uint64x1_t lo = vget_low_u64(q), hi = vget_high_u64(q);
    __asm__("stnp %d1, %d2, %0" : "=Q"(*(dnnlk__b16_neon *)p) : "w"(lo), "w"(hi));
}
static DNNLK__FORCEINLINE void dnnlk__vec_prefetch_neon(const void *p, size_t bytes, int l1) {
    size_t k;
    if (l1)
        for (k = 0; k < bytes; k += 64) __builtin_prefetch((const char *)p + k, 0, 3);
    else
        for (k = 0; k < bytes; k += 64) __builtin_prefetch((const char *)p + k, 0, 2);
}
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_load_bf16_neon(const uint16_t *p) {
    return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(p), 16));
}
/* Round to nearest even, NaN quieted (matches dnnlk_f32_to_bf16); result in the low 16 bits. */
static DNNLK__FORCEINLINE uint32x4_t dnnlk__vf_to_bf16_bits_neon(float32x4_t v) {
    uint32x4_t u = vreinterpretq_u32_f32(v);
    uint32x4_t lsb = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    uint32x4_t r = vshrq_n_u32(vaddq_u32(vaddq_u32(u, vdupq_n_u32(0x7fff)), lsb), 16);
    uint32x4_t q = vorrq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(0x40));
    return vbslq_u32(vceqq_f32(v, v), r, q);
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_bf16_neon(uint16_t *p, float32x4_t v) {
    vst1_u16(p, vmovn_u32(dnnlk__vf_to_bf16_bits_neon(v)));
}
/* a then b as 8 bf16 in memory order */
static DNNLK__FORCEINLINE int32x4_t dnnlk__vf_pack2_bf16_neon(float32x4_t a, float32x4_t b) {
    return vreinterpretq_s32_u16(vcombine_u16(vmovn_u32(dnnlk__vf_to_bf16_bits_neon(a)), vmovn_u32(dnnlk__vf_to_bf16_bits_neon(b))));
}
/* FCVTL / FCVTN: exact widening, and round to nearest even (FPCR's default mode) with overflow to
 * infinity and subnormal results, as dnnlk_f32_to_f16. */
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_load_f16_neon(const uint16_t *p) {
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_f16_neon(uint16_t *p, float32x4_t v) {
    vst1_u16(p, vreinterpret_u16_f16(vcvt_f16_f32(v)));
}
static DNNLK__FORCEINLINE int32x4_t dnnlk__vf_pack2_f16_neon(float32x4_t a, float32x4_t b) {
    return vreinterpretq_s32_f16(vcombine_f16(vcvt_f16_f32(a), vcvt_f16_f32(b)));
}
/* 4 bytes -> 4 int32 lanes, sign- (sgn) or zero-extended. */
static DNNLK__FORCEINLINE int32x4_t dnnlk__vi_load_i8_neon(const void *p, int sgn) {
    uint32_t w;
    uint8x8_t b;
    memcpy(&w, p, 4);
    b = vreinterpret_u8_u32(vdup_n_u32(w));
    if (sgn) return vmovl_s16(vget_low_s16(vmovl_s8(vreinterpret_s8_u8(b))));
    return vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(vmovl_u8(b))));
}

/* ---- beyond the f32/s32 basics, by kind (each section names the bodies that use it first) ---- */
/* == select: byte and 16-bit lanes == */
/* Byte lanes: a mask over es-byte lanes is all ones where the lane IS selected (CMTST, widened by
 * sign extension), which drives BSL directly. */
static DNNLK__FORCEINLINE uint8x16_t dnnlk__vb_set1_elem_neon(const void *p, int es) {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (es) {
    case 1: memcpy(&u8, p, 1); return vdupq_n_u8(u8);
    case 2: memcpy(&u16, p, 2); return vreinterpretq_u8_u16(vdupq_n_u16(u16));
    case 4: memcpy(&u32, p, 4); return vreinterpretq_u8_u32(vdupq_n_u32(u32));
    default: memcpy(&u64, p, 8); return vreinterpretq_u8_u64(vdupq_n_u64(u64));
    }
}
/* The cond of the 16/es lanes from 16/es bytes at c. */
static DNNLK__FORCEINLINE uint8x16_t dnnlk__vb_cond_elem_neon(const unsigned char *c, int es) {
    uint64_t u64 = 0;
    int16x8_t h;
    uint8x16_t x;
    if (es == 1) {
        x = vld1q_u8(c);
        return vtstq_u8(x, x);
    }
    memcpy(&u64, c, (size_t)(16 / es));
    h = vmovl_s8(vreinterpret_s8_u8(vtst_u8(vcreate_u8(u64), vcreate_u8(u64))));
    if (es == 2) return vreinterpretq_u8_s16(h);
    if (es == 4) return vreinterpretq_u8_s32(vmovl_s16(vget_low_s16(h)));
    return vreinterpretq_u8_s64(vmovl_s32(vget_low_s32(vmovl_s16(vget_low_s16(h)))));
}
/* Partial vectors (no byte-granular masked access): through a buffer. */
static DNNLK__FORCEINLINE uint8x16_t dnnlk__vb_loadu_n_elem_neon(const void *p, size_t n, int es) {
    unsigned char t[16] = {0};
    memcpy(t, p, n * (size_t)es);
    return vld1q_u8(t);
}
static DNNLK__FORCEINLINE void dnnlk__vb_storeu_n_elem_neon(void *p, uint8x16_t v, size_t n, int es) {
    unsigned char t[16];
    vst1q_u8(t, v);
    memcpy(p, t, n * (size_t)es);
}
static DNNLK__FORCEINLINE uint8x16_t dnnlk__vb_cond_n_elem_neon(const unsigned char *c, size_t n, int es) {
    unsigned char t[16] = {0};
    memcpy(t, c, n);
    return dnnlk__vb_cond_elem_neon(t, es);
}
static DNNLK__FORCEINLINE void dnnlk__vb_permute16_neon(void *out, const void *in, const unsigned char *idx) {
    vst1q_u8((uint8_t *)out, vqtbl1q_u8(vld1q_u8((const uint8_t *)in), vld1q_u8(idx)));
}

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
/* The generators' register is a uint32x4_t; its 64-bit lanes are reinterpretations. */
#define DNNLK__Q64(a) vreinterpretq_u64_u32(a)
#define DNNLK__Q32(a) vreinterpretq_u32_u64(a)
static DNNLK__FORCEINLINE uint32x4_t dnnlk__vq_mul_even_u32_neon(uint32x4_t a, uint32x4_t b) {
    return DNNLK__Q32(vmull_u32(vmovn_u64(DNNLK__Q64(a)), vmovn_u64(DNNLK__Q64(b))));
}
static DNNLK__FORCEINLINE uint32x4_t dnnlk__vq_blend_odd32_neon(uint32x4_t a, uint32x4_t b) {
    return vbslq_u32(DNNLK__Q32(vdupq_n_u64(0xffffffff00000000ull)), b, a);
}
static DNNLK__FORCEINLINE uint64_t dnnlk__vq_cmplt64_u_bits_neon(uint32x4_t a, uint32x4_t rhs) {
    uint64x2_t m = vcltq_u64(DNNLK__Q64(a), DNNLK__Q64(rhs));
    return (vgetq_lane_u64(m, 0) & 1u) | (vgetq_lane_u64(m, 1) & 2u);
}
/* Eight masks of 2 lanes narrowed (64 -> 32 -> 16 -> 8 bits) into 16 bytes in order, then 0/1. */
static DNNLK__FORCEINLINE uint32x4_t dnnlk__vqmask_pack8_u8_neon(uint64x2_t m0, uint64x2_t m1, uint64x2_t m2, uint64x2_t m3,
                                                                uint64x2_t m4, uint64x2_t m5, uint64x2_t m6, uint64x2_t m7) {
    uint16x8_t lo = vcombine_u16(vmovn_u32(vcombine_u32(vmovn_u64(m0), vmovn_u64(m1))),
                                 vmovn_u32(vcombine_u32(vmovn_u64(m2), vmovn_u64(m3))));
    uint16x8_t hi = vcombine_u16(vmovn_u32(vcombine_u32(vmovn_u64(m4), vmovn_u64(m5))),
                                 vmovn_u32(vcombine_u32(vmovn_u64(m6), vmovn_u64(m7))));
    return vreinterpretq_u32_u8(vandq_u8(vcombine_u8(vmovn_u16(lo), vmovn_u16(hi)), vdupq_n_u8(1)));
}
/* Lane j of v where bit j of b is set, +0 elsewhere: the keep factors of dropout. */
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_maskz_sel_neon(uint32_t b, float32x4_t v, uint32_t s0, uint32_t s1,
                                                                uint32_t s2, uint32_t s3) {
    const uint32_t s[4] = {s0, s1, s2, s3};
    uint32x4_t m = vtstq_u32(vdupq_n_u32(b), vld1q_u32(s));
    return vreinterpretq_f32_u32(vandq_u32(m, vreinterpretq_u32_f32(v)));
}

/* == softmax, norm: f64 lanes == */
/* SSE4.1's tree (max(v, v[2,3]), then lanes 0 and 1) with its max, so the sign of a zero result
 * is SSE4.1's too. */
static DNNLK__FORCEINLINE float dnnlk__vf_hmax_neon(float32x4_t v) {
    float32x4_t a = dnnlk__vf_max_neon(v, vextq_f32(v, v, 2));
    a = dnnlk__vf_max_neon(a, vextq_f32(a, a, 1));
    return vgetq_lane_f32(a, 0);
}
/* p * 2^n, n integral in [-252, 252]: two normal power-of-2 factors, so a result in the subnormal
 * range is rounded once (by the second product), as scalef rounds it. */
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_scalef_neon(float32x4_t p, float32x4_t n) {
    int32x4_t k = dnnlk__vf_to_vi_trunc_neon(n), k1 = vshrq_n_s32(k, 1), k2 = vsubq_s32(k, k1);
    int32x4_t bias = vdupq_n_s32(127);
    p = dnnlk__vf_mul_neon(p, vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(k1, bias), 23)));
    return dnnlk__vf_mul_neon(p, vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(k2, bias), 23)));
}

/* The four step-2 reads around p (vec.h's dnnlk__vd_load_x2). */
static DNNLK__FORCEINLINE void dnnlk__vd_load_x2_neon(const double *p, float64x2_t *r) {
    const float64x2x2_t v = vld2q_f64(p);
    r[0] = vcombine_f64(vld1_f64(p - 1), vld1_f64(p + 1));
    r[1] = v.val[0];
    r[2] = v.val[1];
    r[3] = vcombine_f64(vld1_f64(p + 2), vld1_f64(p + 4));
}

/* == quant, resize: s32 lanes narrowed to bytes == */
/* Four vectors of s32 in [-128, 255] -> their low bytes, in order: the even halves, then the even
 * bytes (little-endian: the low ones). */
static DNNLK__FORCEINLINE int32x4_t dnnlk__vi_pack4_u8_neon(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d) {
    uint16x8_t ab = vuzp1q_u16(vreinterpretq_u16_s32(a), vreinterpretq_u16_s32(b));
    uint16x8_t cd = vuzp1q_u16(vreinterpretq_u16_s32(c), vreinterpretq_u16_s32(d));
    return vreinterpretq_s32_u8(vuzp1q_u8(vreinterpretq_u8_u16(ab), vreinterpretq_u8_u16(cd)));
}
/* Four compares' lanes (all ones / zero) as 0/1 bytes, in order: the even halves, the even bytes,
 * each byte's top bit shifted down. */
static DNNLK__FORCEINLINE int32x4_t dnnlk__vmask_pack4_u8_neon(uint32x4_t a, uint32x4_t b, uint32x4_t c, uint32x4_t d) {
    uint16x8_t ab = vuzp1q_u16(vreinterpretq_u16_u32(a), vreinterpretq_u16_u32(b));
    uint16x8_t cd = vuzp1q_u16(vreinterpretq_u16_u32(c), vreinterpretq_u16_u32(d));
    return vreinterpretq_s32_u8(vshrq_n_u8(vuzp1q_u8(vreinterpretq_u8_u16(ab), vreinterpretq_u8_u16(cd)), 7));
}
/* Four vectors of s32 -> s16 saturated, + z saturated, -> s8 (sgn) or u8 saturated, in order. */
static DNNLK__FORCEINLINE int32x4_t dnnlk__vi_pack4_sat_i8_neon(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d,
                                                               int16_t z, int sgn) {
    int16x8_t zz = vdupq_n_s16(z);
    int16x8_t ab = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(a), b), zz);
    int16x8_t cd = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(c), d), zz);
    if (sgn) return vreinterpretq_s32_s8(vqmovn_high_s16(vqmovn_s16(ab), cd));
    return vreinterpretq_s32_u8(vqmovun_high_s16(vqmovun_s16(ab), cd));
}
/* The low byte of each of the 4 lanes -> 4 bytes at p. */
static DNNLK__FORCEINLINE void dnnlk__vi_store_u8_neon(void *p, int32x4_t v) {
    uint16x4_t h = vmovn_u32(vreinterpretq_u32_s32(v));
    uint32_t w = vget_lane_u32(vreinterpret_u32_u8(vmovn_u16(vcombine_u16(h, h))), 0);
    memcpy(p, &w, 4);
}
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_sub_round_even_neon(float32x4_t a) { return vsubq_f32(a, vrndnq_f32(a)); }
/* Byte indices 4 idx + {0, 1, 2, 3} of each lane, for TBL. */
static DNNLK__FORCEINLINE uint8x16_t dnnlk__lane_bytes_neon(int32x4_t idx) {
    return vreinterpretq_u8_u32(
        vmlaq_u32(vdupq_n_u32(0x03020100u), vreinterpretq_u32_s32(idx), vdupq_n_u32(0x04040404u)));
}
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_permute_neon(float32x4_t v, int32x4_t idx) {
    return vreinterpretq_f32_u8(vqtbl1q_u8(vreinterpretq_u8_f32(v), dnnlk__lane_bytes_neon(idx)));
}
/* Lanes of a:b: one TBL over the two registers (byte indices 0..31, prepared by dnnlk__vperm2_index). */
static DNNLK__FORCEINLINE int32x4_t dnnlk__vi_permute2_neon(int32x4_t a, int32x4_t b, uint8x16_t ix) {
    uint8x16x2_t t;
    t.val[0] = vreinterpretq_u8_s32(a), t.val[1] = vreinterpretq_u8_s32(b);
    return vreinterpretq_s32_u8(vqtbl2q_u8(t, ix));
}
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_gather_neon(const float *p, const int32_t *idx) {
    float t[4];
    t[0] = p[idx[0]], t[1] = p[idx[1]], t[2] = p[idx[2]], t[3] = p[idx[3]];
    return vld1q_f32(t);
}

/* == vmath: what the math bodies ask of a level == */
/* An 8-entry table read by lane index (bits 0..2): one TBL over the table's two registers. */
static DNNLK__FORCEINLINE float32x4_t dnnlk__vf_lut8_neon(const float *t, uint8x16_t ix) {
    uint8x16x2_t tb;
    tb.val[0] = vld1q_u8((const uint8_t *)(const void *)t);
    tb.val[1] = vld1q_u8((const uint8_t *)(const void *)(t + 4));
    return vreinterpretq_f32_u8(vqtbl2q_u8(tb, ix));
}
/* == convert: transposes of 32-bit elements == */
/* 4x4: trn1/trn2 of 32-bit, then of 64-bit elements. */
static DNNLK__FORCEINLINE void dnnlk__v32_transpose_neon(void *d, int64_t dp, const void *s, int64_t sp, int nt) {
    const char *sc = (const char *)s;
    char *dc = (char *)d;
    uint32x4_t r0 = vld1q_u32((const uint32_t *)(const void *)sc), r1 = vld1q_u32((const uint32_t *)(const void *)(sc + sp));
    uint32x4_t r2 = vld1q_u32((const uint32_t *)(const void *)(sc + 2 * sp)), r3 = vld1q_u32((const uint32_t *)(const void *)(sc + 3 * sp));
    uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1)), t1 = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1));
    uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3)), t3 = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));
    uint64x2_t o[4];
    int j;
    o[0] = vtrn1q_u64(t0, t2), o[1] = vtrn1q_u64(t1, t3), o[2] = vtrn2q_u64(t0, t2), o[3] = vtrn2q_u64(t1, t3);
    for (j = 0; j < 4; j++) {
        if (nt) dnnlk__stream_neon(dc + j * dp, vreinterpretq_u8_u64(o[j]));
        else vst1q_u8((uint8_t *)(void *)(dc + j * dp), vreinterpretq_u8_u64(o[j]));
    }
}
/* == convert: interleaves of 1-, 2- and 4-byte elements (hi: of the upper halves) == */
static DNNLK__FORCEINLINE uint8x16_t dnnlk__vb_zip_neon(uint8x16_t a, uint8x16_t b, int es, int hi) {
    switch (es) {
    case 1: return hi ? vzip2q_u8(a, b) : vzip1q_u8(a, b);
    case 2:
        return vreinterpretq_u8_u16(hi ? vzip2q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b))
                                       : vzip1q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
    default:
        return vreinterpretq_u8_u32(hi ? vzip2q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b))
                                       : vzip1q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)));
    }
}
#endif

#define DNNLK__VF_N 4
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 0          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 0  /* an 8-entry float table read by one register permute */
#define DNNLK__VEC_STREAM_LINES 0 /* streamed lines go out whole only if written back to back (x86 write-combining) */
#define dnnlk__vf float32x4_t
#define dnnlk__vi int32x4_t
#define dnnlk__vmask uint32x4_t
#define dnnlk__vf_loadu(p) vld1q_f32(p)
#define dnnlk__vf_loadu_scan(p) vld1q_f32(p)
#define dnnlk__vf_storeu(p, v) vst1q_f32((p), (v))
#define dnnlk__vf_stream(p, v) dnnlk__stream_neon((p), vreinterpretq_u8_f32(v))
#define dnnlk__vf_loadu_n dnnlk__vf_loadu_n_neon
#define dnnlk__vf_storeu_n dnnlk__vf_storeu_n_neon
#define dnnlk__vf_set1(x) vdupq_n_f32(x)
#define dnnlk__vf_zero() vdupq_n_f32(0.0f)
#define dnnlk__vf_add(a, b) vaddq_f32((a), (b))
#define dnnlk__vf_sub(a, b) vsubq_f32((a), (b))
#define dnnlk__vf_mul(a, b) dnnlk__vf_mul_neon((a), (b))
#define dnnlk__vf_div(a, b) vdivq_f32((a), (b))
#define dnnlk__vf_fmadd(a, b, c) vaddq_f32(dnnlk__vf_mul_neon((a), (b)), (c))
#define dnnlk__vf_nofuse(v) __asm__("" : "+w"(v))
#define dnnlk__vf_min(a, b) dnnlk__vf_min_neon((a), (b))
#define dnnlk__vf_max(a, b) dnnlk__vf_max_neon((a), (b))
#define dnnlk__vf_sqrt(a) vsqrtq_f32(a)
#define dnnlk__vf_and(a, b) vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)))
#define dnnlk__vf_or(a, b) vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)))
#define dnnlk__vf_xor(a, b) vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)))
#define dnnlk__vf_round_even(a) vrndnq_f32(a)
#define dnnlk__vf_floor(a) vrndmq_f32(a)
#define dnnlk__vf_cmplt(a, b) vcltq_f32((a), (b))
#define dnnlk__vf_cmple(a, b) vcleq_f32((a), (b))
#define dnnlk__vf_cmpgt(a, b) vcgtq_f32((a), (b))
#define dnnlk__vf_cmpge(a, b) vcgeq_f32((a), (b))
#define dnnlk__vf_cmpeq(a, b) vceqq_f32((a), (b))
#define dnnlk__vf_cmpunord(a, b) vmvnq_u32(dnnlk__vf_cmpord_neon((a), (b)))
#define dnnlk__vmask_bits(m) dnnlk__vmask_bits_neon(m)
#define dnnlk__vf_blend(m, t, f) vbslq_f32((m), (t), (f))
#define dnnlk__vf_load_bf16 dnnlk__vf_load_bf16_neon
#define dnnlk__vf_store_bf16 dnnlk__vf_store_bf16_neon
#define dnnlk__vf_pack2_bf16 dnnlk__vf_pack2_bf16_neon
#define dnnlk__vf_load_f16 dnnlk__vf_load_f16_neon
#define dnnlk__vf_store_f16 dnnlk__vf_store_f16_neon
#define dnnlk__vf_pack2_f16 dnnlk__vf_pack2_f16_neon
#define dnnlk__vi_loadu(p) vreinterpretq_s32_u8(vld1q_u8((const uint8_t *)(const void *)(p)))
#define dnnlk__vi_storeu(p, v) vst1q_u8((uint8_t *)(void *)(p), vreinterpretq_u8_s32(v))
#define dnnlk__vi_set1(x) vdupq_n_s32(x)
/* integer arithmetic on unsigned lanes: it wraps, as on x86 */
#define dnnlk__vi_add(a, b) vreinterpretq_s32_u32(vaddq_u32(vreinterpretq_u32_s32(a), vreinterpretq_u32_s32(b)))
#define dnnlk__vi_sub(a, b) vreinterpretq_s32_u32(vsubq_u32(vreinterpretq_u32_s32(a), vreinterpretq_u32_s32(b)))
#define dnnlk__vi_mullo(a, b) vreinterpretq_s32_u32(vmulq_u32(vreinterpretq_u32_s32(a), vreinterpretq_u32_s32(b)))
#define dnnlk__vi_and(a, b) vandq_s32((a), (b))
#define dnnlk__vi_or(a, b) vorrq_s32((a), (b))
#define dnnlk__vi_xor(a, b) veorq_s32((a), (b))
/* shifts by a count that need not be a literal (a body may pick it at run time): the vector
 * extension's shift, an immediate USHR/SHL/SSHR where the count is a constant */
#define dnnlk__vi_slli(a, n) vreinterpretq_s32_u32(vreinterpretq_u32_s32(a) << (n))
#define dnnlk__vi_srli(a, n) vreinterpretq_s32_u32(vreinterpretq_u32_s32(a) >> (n))
#define dnnlk__vi_srai(a, n) ((a) >> (n))
#define dnnlk__vf_as_vi(a) vreinterpretq_s32_f32(a)
#define dnnlk__vi_as_vf(a) vreinterpretq_f32_s32(a)
#define dnnlk__vi_to_vf(a) vcvtq_f32_s32(a)
#define dnnlk__vf_to_vi_trunc(a) dnnlk__vf_to_vi_trunc_neon(a)
#define dnnlk__vi_load_i8 dnnlk__vi_load_i8_neon
#define dnnlk__vi_min(a, b) vminq_s32((a), (b))
#define dnnlk__vi_max(a, b) vmaxq_s32((a), (b))
#define dnnlk__vi_cmpeq(a, b) vceqq_s32((a), (b))
#define dnnlk__vi_cmpgt(a, b) vcgtq_s32((a), (b))
#define dnnlk__vi_blend(m, t, f) vbslq_s32((m), (t), (f))
#define dnnlk__vf_cmpnle(a, b) vmvnq_u32(vcleq_f32((a), (b)))
#define dnnlk__vf_cmpnge(a, b) vmvnq_u32(vcgeq_f32((a), (b)))
#define dnnlk__vf_cmpord(a, b) dnnlk__vf_cmpord_neon((a), (b))
#define dnnlk__vmask_and(a, b) vandq_u32((a), (b))
#define dnnlk__vmask_or(a, b) vorrq_u32((a), (b))
#define dnnlk__vi_store(p, v) vst1q_u8((uint8_t *)(void *)(p), vreinterpretq_u8_s32(v))
#define dnnlk__vi_stream(p, v) dnnlk__stream_neon((p), vreinterpretq_u8_s32(v))
/* STNP is ordered by the barriers that publish any other store (AArch64 is weakly ordered for
 * every store alike); x86 needs sfence because its streaming stores leave TSO. */
#define dnnlk__vec_sfence() ((void)0)
#define dnnlk__vec_prefetch_l2(p, bytes) dnnlk__vec_prefetch_neon((p), (bytes), 0)
#define DNNLK__VT_N 4 /* the side of dnnlk__v32_transpose's tiles */
#define dnnlk__v32_transpose dnnlk__v32_transpose_neon
#define dnnlk__vb_ziplo_elem(a, b, es) dnnlk__vb_zip_neon((a), (b), (es), 0)
#define dnnlk__vb_ziphi_elem(a, b, es) dnnlk__vb_zip_neon((a), (b), (es), 1)

/* ---- beyond the f32/s32 basics (names), in the sections above ---- */
/* == select: byte and 16-bit lanes == */
#define DNNLK__VB_N 16
#define DNNLK__VEC_MASKED_BYTES 0 /* byte-granular masked loads and stores (else: an emulation) */
#define dnnlk__vb uint8x16_t
#define dnnlk__vmask_vb uint8x16_t
#define dnnlk__vb_loadu(p) vld1q_u8((const uint8_t *)(const void *)(p))
#define dnnlk__vb_storeu(p, v) vst1q_u8((uint8_t *)(void *)(p), (v))
#define dnnlk__vb_stream(p, v) dnnlk__stream_neon((p), (v))
#define dnnlk__vb_set1_elem dnnlk__vb_set1_elem_neon
#define dnnlk__vb_cond_elem dnnlk__vb_cond_elem_neon
#define dnnlk__vb_blend_elem(m, t, f, es) vbslq_u8((m), (t), (f))
#define dnnlk__vb_loadu_n_elem dnnlk__vb_loadu_n_elem_neon
#define dnnlk__vb_storeu_n_elem dnnlk__vb_storeu_n_elem_neon
#define dnnlk__vb_cond_n_elem dnnlk__vb_cond_n_elem_neon
#define dnnlk__vb_permute16 dnnlk__vb_permute16_neon

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
#define DNNLK__VQ_N 2
#define DNNLK__VEC_CMP_TO_BITS 0 /* compares give bits and bits deposit cheaply (k-masks, pdep) */
#define dnnlk__vq uint32x4_t
#define dnnlk__vq_loadu(p) vreinterpretq_u32_u8(vld1q_u8((const uint8_t *)(const void *)(p)))
#define dnnlk__vq_storeu(p, v) vst1q_u8((uint8_t *)(void *)(p), vreinterpretq_u8_u32(v))
#define dnnlk__vq_part_vi(v, j) vreinterpretq_s32_u32(v)
#define dnnlk__vq_set1_64(x) DNNLK__Q32(vdupq_n_u64((uint64_t)(x)))
#define dnnlk__vq_set1_32(x) vdupq_n_u32((uint32_t)(x))
#define dnnlk__vq_and(a, b) vandq_u32((a), (b))
#define dnnlk__vq_or(a, b) vorrq_u32((a), (b))
#define dnnlk__vq_xor(a, b) veorq_u32((a), (b))
#define dnnlk__vq_xor3(a, b, c) veorq_u32(veorq_u32((a), (b)), (c))
#define dnnlk__vq_add64(a, b) DNNLK__Q32(vaddq_u64(DNNLK__Q64(a), DNNLK__Q64(b)))
#define dnnlk__vq_srli64(a, n) DNNLK__Q32(DNNLK__Q64(a) >> (n))
#define dnnlk__vq_slli64(a, n) DNNLK__Q32(DNNLK__Q64(a) << (n))
#define dnnlk__vq_add32(a, b) vaddq_u32((a), (b))
#define dnnlk__vq_sub32(a, b) vsubq_u32((a), (b))
#define dnnlk__vq_srli32(a, n) ((a) >> (n))
#define dnnlk__vq_slli32(a, n) ((a) << (n))
#define dnnlk__vq_min32_u(a, b) vminq_u32((a), (b))
#define dnnlk__vq_mul_even_u32(a, b) dnnlk__vq_mul_even_u32_neon((a), (b))
#define dnnlk__vq_hi_down32(a) vtrn2q_u32((a), (a))
#define dnnlk__vq_blend_odd32(a, b) dnnlk__vq_blend_odd32_neon((a), (b))
#define dnnlk__vq_pack_lo32(a, b) vtrn1q_u32((a), (b))
#define dnnlk__vq_unpacklo32(a, b) vzip1q_u32((a), (b))
#define dnnlk__vq_unpackhi32(a, b) vzip2q_u32((a), (b))
#define dnnlk__vq_unpacklo64(a, b) DNNLK__Q32(vzip1q_u64(DNNLK__Q64(a), DNNLK__Q64(b)))
#define dnnlk__vq_unpackhi64(a, b) DNNLK__Q32(vzip2q_u64(DNNLK__Q64(a), DNNLK__Q64(b)))
#define dnnlk__vq_lane0_u32(a) vgetq_lane_u32((a), 0)
#define dnnlk__vq_cmplt32_bits(a, b) \
    ((uint64_t)dnnlk__vmask_bits_neon(vcltq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b))))
#define dnnlk__vq_cmplt32_u_bits(a, b) ((uint64_t)dnnlk__vmask_bits_neon(vcltq_u32((a), (b))))
#define dnnlk__vq_cmplt64_u_rhs(t) DNNLK__Q32(vdupq_n_u64((uint64_t)(t)))
#define dnnlk__vq_cmplt64_u_bits dnnlk__vq_cmplt64_u_bits_neon
#define dnnlk__vqmask uint64x2_t
#define dnnlk__vq_cmpeq64(a, b) vceqq_u64(DNNLK__Q64(a), DNNLK__Q64(b))
#define dnnlk__vq_cmplt64(a, b) vcltq_s64(vreinterpretq_s64_u32(a), vreinterpretq_s64_u32(b))
#define dnnlk__vqmask_pack8_u8 dnnlk__vqmask_pack8_u8_neon
#define dnnlk__vi_bitselect(m, a, b) vbslq_s32(vreinterpretq_u32_s32(m), (a), (b))
#define dnnlk__vi_xor_if_odd(r, t, k) \
    veorq_s32((r), vandq_s32(vreinterpretq_s32_u32(vtstq_s32((t), vdupq_n_s32(1))), (k)))
#define dnnlk__vi_bf16_rne_bits(u) \
    dnnlk__vi_add(dnnlk__vi_add((u), vdupq_n_s32(0x7fff)), vandq_s32(dnnlk__vi_srli((u), 16), vdupq_n_s32(1)))
#define dnnlk__vf_maskz_bits(b, v) dnnlk__vf_maskz_sel_neon((b), (v), 1, 2, 4, 8)
#define dnnlk__vf_maskz_bits_even(b, v) dnnlk__vf_maskz_sel_neon((b), (v), 1, 4, 16, 64)
#define dnnlk__vf_maskz_bits_odd(b, v) dnnlk__vf_maskz_sel_neon((b), (v), 2, 8, 32, 128)
#define dnnlk__u64_deposit dnnlk__u64_deposit_portable /* no bit deposit instruction */

/* == softmax, norm: f64 lanes == */
#define DNNLK__VD_N 2
#define DNNLK__VEC_SCALEF 0 /* dnnlk__vf_scalef is one instruction for any n (else n in [-252, 252]) */
#define dnnlk__vd float64x2_t
#define dnnlk__vd_zero() vdupq_n_f64(0.0)
#define dnnlk__vd_add(a, b) vaddq_f64((a), (b))
#define dnnlk__vd_storeu(p, v) vst1q_f64((p), (v))
#define dnnlk__vd_from_vf(v, h) ((h) ? vcvt_high_f64_f32(v) : vcvt_f64_f32(vget_low_f32(v)))
#define dnnlk__vd_loadu(p) vld1q_f64(p)
#define dnnlk__vd_set1(x) vdupq_n_f64(x)
#define dnnlk__vd_mul(a, b) vmulq_f64((a), (b))
#define dnnlk__vd_gather(p, idx) vcombine_f64(vld1_f64((p) + (idx)[0]), vld1_f64((p) + (idx)[1]))
#define dnnlk__vd_load_even(p) (vld2q_f64(p).val[0])
#define dnnlk__vd_load_x2 dnnlk__vd_load_x2_neon
#define dnnlk__vd_load_f32(p) vcvt_f64_f32(vld1_f32(p))
#define dnnlk__vd_store_f32(p, v) vst1_f32((p), vcvt_f32_f64(v))
#define dnnlk__vf_hmax dnnlk__vf_hmax_neon
#define dnnlk__vf_cmpneq(a, b) vmvnq_u32(vceqq_f32((a), (b)))
#define dnnlk__vf_cmpnlt_in(m, a, b) vbicq_u32((m), vcltq_f32((a), (b)))
#define dnnlk__vmask_ones() vdupq_n_u32(0xffffffffu)
#define dnnlk__vi_test_in(m, a, b) vandq_u32((m), vtstq_s32((a), (b)))
#define dnnlk__vi_cmpgt_in(m, a, b) vandq_u32((m), vcgtq_s32((a), (b)))
#define dnnlk__vmask_count(m) ((unsigned)vaddvq_u32(vshrq_n_u32((m), 31)))
#define dnnlk__vf_scalef dnnlk__vf_scalef_neon
#define dnnlk__vf_maskz_scalef(m, p, n) vbslq_f32((m), dnnlk__vf_scalef_neon((p), (n)), vdupq_n_f32(0.0f))
#define dnnlk__vec_prefetch_l1(p, bytes) dnnlk__vec_prefetch_neon((p), (bytes), 1)

/* == quant, resize: s32 lanes narrowed to bytes == */
#define DNNLK__VEC_REDUCE 0 /* dnnlk__vf_sub_round_even: a - round_even(a) (NaN for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 0 /* a vector division costs several multiplies */
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_neon
#define dnnlk__vmask_pack4_u8 dnnlk__vmask_pack4_u8_neon
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_neon
#define dnnlk__vi_store_u8 dnnlk__vi_store_u8_neon
#define dnnlk__vf_sub_round_even dnnlk__vf_sub_round_even_neon
#define dnnlk__vf_to_vi_round_even dnnlk__vf_to_vi_round_even_neon
#define dnnlk__vf_permute dnnlk__vf_permute_neon
#define dnnlk__vf_ziplo(a, b) vzip1q_f32((a), (b))
#define dnnlk__vf_ziphi(a, b) vzip2q_f32((a), (b))
#define dnnlk__vf_gather dnnlk__vf_gather_neon
#define dnnlk__vperm2 uint8x16_t
#define dnnlk__vperm2_index(p) dnnlk__lane_bytes_neon(vld1q_s32(p))
#define dnnlk__vi_permute2 dnnlk__vi_permute2_neon

/* == vmath: what the math bodies ask of a level == */
#define DNNLK__VEC_LUT32 0   /* no 32-entry register table */
#define DNNLK__VEC_PROD_ERR 0 /* the Dekker split on unfusable products, as SSE4.1 */
#define dnnlk__vlut8 uint8x16_t
#define dnnlk__vlut8_index(i) dnnlk__lane_bytes_neon(vandq_s32((i), vdupq_n_s32(7)))
#define dnnlk__vf_lut8 dnnlk__vf_lut8_neon
#define dnnlk__vf_fmsub(a, b, c) vsubq_f32(dnnlk__vf_mul_neon((a), (b)), (c))
#define dnnlk__vf_fnmadd(a, b, c) vsubq_f32((c), dnnlk__vf_mul_neon((a), (b)))
#define dnnlk__vf_fnmsub(a, b, c) vsubq_f32(vnegq_f32(dnnlk__vf_mul_neon((a), (b))), (c))
/* FMAX(-0, x) is maxps(-0, x): -0 for x < 0 and -0, +0 for +0 (FMAX orders -0 below +0), x for
 * x > 0, and NaN for NaN (its payload unspecified, as the layer allows) */
#define dnnlk__vf_max_neg0(x) vmaxq_f32(vdupq_n_f32(-0.0f), (x))

/* == scans: FMAX / FMIN pass a NaN of either operand on == */
#define dnnlk__vs_max(a, b) vmaxq_f32((a), (b))
#define dnnlk__vs_min(a, b) vminq_f32((a), (b))
#define dnnlk__vs_any_nle(a, b) (vmaxvq_u32(vmvnq_u32(vcleq_f32((a), (b)))) != 0)
#define dnnlk__vs_any_nlt(a, b) (vmaxvq_u32(vmvnq_u32(vcltq_f32((a), (b)))) != 0)
