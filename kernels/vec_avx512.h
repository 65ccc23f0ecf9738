/* dnnl_kernels — vec_avx512.h: the vector layer (vec.h's API) at AVX-512 (F, BW, VL, DQ, CD): 16
 * f32 / s32 lanes, masks as k-registers (__mmask16). No include guard: vec.h includes it inside
 * the AVX-512 target region (DNNLK__ISA 3); vec_end.h removes the names. */

#if DNNLK__ISA != 3
#error "vec_avx512.h is included through vec.h with DNNLK__ISA 3"
#endif

#ifndef DNNLK__VEC_FUNCS_3
#define DNNLK__VEC_FUNCS_3
static DNNLK__FORCEINLINE __mmask16 dnnlk__lanes_below_avx512(size_t n) {
    return (__mmask16)((1u << n) - 1u);
}
static DNNLK__FORCEINLINE __m512 dnnlk__vf_loadu_n_avx512(const float *p, size_t n) {
    return _mm512_maskz_loadu_ps(dnnlk__lanes_below_avx512(n), p);
}
static DNNLK__FORCEINLINE void dnnlk__vf_storeu_n_avx512(float *p, __m512 v, size_t n) {
    _mm512_mask_storeu_ps(p, dnnlk__lanes_below_avx512(n), v);
}
static DNNLK__FORCEINLINE __m256 dnnlk__vs_load_bf16_avx512(const uint16_t *p) {
    __m128i h = _mm_loadu_si128((const __m128i *)(const void *)p);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}
static DNNLK__FORCEINLINE __m512 dnnlk__vf_load_bf16_avx512(const uint16_t *p) {
    __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)p);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
/* f32 bits rounded to bf16 in the high 16 bits (bit 16 as a lane mask: + 0x8000 where set, + 0x7fff
 * elsewhere); the low 16 bits are garbage */
static DNNLK__FORCEINLINE __m512i dnnlk__vi_bf16_rne_bits_avx512(__m512i u) {
    __mmask16 odd = _mm512_test_epi32_mask(u, _mm512_set1_epi32(0x10000));
    return _mm512_mask_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), odd, u, _mm512_set1_epi32(0x8000));
}
/* Round to nearest even, NaN quieted (matches dnnlk_f32_to_bf16), in the low 16 bits: the rounding
 * above with a NaN's quiet bit set instead (4 operations where shifting the lsb down and back took
 * 6), then the shift down. */
static DNNLK__FORCEINLINE __m512i dnnlk__vf_to_bf16_bits_avx512(__m512 v) {
    __m512i u = _mm512_castps_si512(v);
    __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    __m512i r = _mm512_mask_or_epi32(dnnlk__vi_bf16_rne_bits_avx512(u), nan, u, _mm512_set1_epi32(0x00400000));
    return _mm512_srli_epi32(r, 16);
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_bf16_avx512(uint16_t *p, __m512 v) {
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(dnnlk__vf_to_bf16_bits_avx512(v)));
}
/* a then b as 32 bf16 in memory order: packusdw works within 128-bit lanes (qwords a0 b0 a1 b1 ...),
 * one qword permute puts them in order; 2 operations where two vpmovdw took 4. */
static DNNLK__FORCEINLINE __m512i dnnlk__vf_pack2_bf16_avx512(__m512 a, __m512 b) {
    __m512i p = _mm512_packus_epi32(dnnlk__vf_to_bf16_bits_avx512(a), dnnlk__vf_to_bf16_bits_avx512(b));
    return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), p);
}
/* 16 bytes -> 16 int32 lanes, sign- (sgn) or zero-extended. */
static DNNLK__FORCEINLINE __m512i dnnlk__vi_load_i8_avx512(const void *p, int sgn) {
    __m128i b = _mm_loadu_si128((const __m128i *)p);
    return sgn ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
}
static DNNLK__FORCEINLINE __m512 dnnlk__vf_load_f16_avx512(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_f16_avx512(uint16_t *p, __m512 v) {
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
static DNNLK__FORCEINLINE __m512i dnnlk__vf_pack2_f16_avx512(__m512 a, __m512 b) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)),
                              _mm512_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), 1);
}

/* ---- beyond the f32/s32 basics, by kind (each section names the bodies that use it first) ---- */
/* == select: byte and 16-bit lanes == */
/* Byte lanes: a mask over es-byte lanes is a k-mask, bit j for lane j (vptestmb gives a bit per
 * byte, which is a bit per lane when the cond has a byte per lane). */
static DNNLK__FORCEINLINE __m512i dnnlk__vb_set1_elem_avx512(const void *p, int es) {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (es) {
    case 1: memcpy(&u8, p, 1); return _mm512_set1_epi8((char)u8);
    case 2: memcpy(&u16, p, 2); return _mm512_set1_epi16((short)u16);
    case 4: memcpy(&u32, p, 4); return _mm512_set1_epi32((int)u32);
    default: memcpy(&u64, p, 8); return _mm512_set1_epi64((long long)u64);
    }
}
static DNNLK__FORCEINLINE __mmask64 dnnlk__vb_cond_elem_avx512(const unsigned char *c, int es) {
    __m128i x;
    switch (es) {
    case 1: { __m512i v = _mm512_loadu_si512(c); return _mm512_test_epi8_mask(v, v); }
    case 2: { __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)c); return _mm256_test_epi8_mask(v, v); }
    case 4: x = _mm_loadu_si128((const __m128i *)(const void *)c); break;
    default: x = _mm_loadl_epi64((const __m128i *)(const void *)c); break;
    }
    return _mm_test_epi8_mask(x, x);
}
static DNNLK__FORCEINLINE __m512i dnnlk__vb_blend_elem_avx512(__mmask64 m, __m512i t, __m512i f, int es) {
    switch (es) {
    case 1: return _mm512_mask_blend_epi8(m, f, t);
    case 2: return _mm512_mask_blend_epi16((__mmask32)m, f, t);
    case 4: return _mm512_mask_blend_epi32((__mmask16)m, f, t);
    default: return _mm512_mask_blend_epi64((__mmask8)m, f, t);
    }
}
/* The first n bits (n < 64), from a byte compare, born in a k register: built in a general
 * register by a shift, it made clang 14 crash ("Cannot emit physreg copy instruction") under
 * -fsanitize=address, which checks masked accesses lane by lane, once -fomit-frame-pointer let
 * the mask live in RBP. Lane j of es bytes is bit j, as the cond's byte j. */
static DNNLK__FORCEINLINE __mmask64 dnnlk__vb_lanes_avx512(size_t n) {
    const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44,
                                         43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24,
                                         23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm512_cmplt_epu8_mask(iota, _mm512_set1_epi8((char)n));
}
static DNNLK__FORCEINLINE __m512i dnnlk__vb_loadu_n_elem_avx512(const void *p, size_t n, int es) {
    __mmask64 m = dnnlk__vb_lanes_avx512(n);
    switch (es) {
    case 1: return _mm512_maskz_loadu_epi8(m, p);
    case 2: return _mm512_maskz_loadu_epi16((__mmask32)m, p);
    case 4: return _mm512_maskz_loadu_epi32((__mmask16)m, p);
    default: return _mm512_maskz_loadu_epi64((__mmask8)m, p);
    }
}
static DNNLK__FORCEINLINE void dnnlk__vb_storeu_n_elem_avx512(void *p, __m512i v, size_t n, int es) {
    __mmask64 m = dnnlk__vb_lanes_avx512(n);
    switch (es) {
    case 1: _mm512_mask_storeu_epi8(p, m, v); break;
    case 2: _mm512_mask_storeu_epi16(p, (__mmask32)m, v); break;
    case 4: _mm512_mask_storeu_epi32(p, (__mmask16)m, v); break;
    default: _mm512_mask_storeu_epi64(p, (__mmask8)m, v); break;
    }
}
static DNNLK__FORCEINLINE __mmask64 dnnlk__vb_cond_n_elem_avx512(const unsigned char *c, size_t n, int es) {
    __m512i v = _mm512_maskz_loadu_epi8(dnnlk__vb_lanes_avx512(n), c);
    (void)es;
    return _mm512_test_epi8_mask(v, v);
}
static DNNLK__FORCEINLINE void dnnlk__vb_permute16_avx512(void *out, const void *in, const unsigned char *idx) {
    __m128i v = _mm_loadu_si128((const __m128i *)in);
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(v, _mm_loadu_si128((const __m128i *)(const void *)idx)));
}

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
/* r ^ k in the lanes where t is odd. */
static DNNLK__FORCEINLINE __m512i dnnlk__vi_xor_if_odd_avx512(__m512i r, __m512i t, __m512i k) {
    __mmask16 odd = _mm512_test_epi32_mask(t, _mm512_set1_epi32(1));
    return _mm512_mask_xor_epi32(r, odd, r, k);
}

/* == softmax, norm: f64 lanes == */
/* f32 lanes [8h, 8h + 8) of v as f64 (h a constant, 0 or 1). */
static DNNLK__FORCEINLINE __m512d dnnlk__vd_from_vf_avx512(__m512 v, int h) {
    return _mm512_cvtps_pd(h ? _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))
                             : _mm512_castps512_ps256(v));
}
/* A tree of shuffles (max is exact: any order gives the same value, up to the sign of a zero). */
static DNNLK__FORCEINLINE float dnnlk__vf_hmax_avx512(__m512 v) {
    v = _mm512_max_ps(v, _mm512_shuffle_f32x4(v, v, 0x4E));
    v = _mm512_max_ps(v, _mm512_shuffle_f32x4(v, v, 0xB1));
    v = _mm512_max_ps(v, _mm512_permute_ps(v, 0x4E));
    v = _mm512_max_ps(v, _mm512_permute_ps(v, 0xB1));
    return _mm512_cvtss_f32(v);
}
static DNNLK__FORCEINLINE void dnnlk__vec_prefetch_l1_avx512(const void *p, size_t bytes) {
    size_t k;
    for (k = 0; k < bytes; k += 64) _mm_prefetch((const char *)p + k, _MM_HINT_T0);
}

/* The four step-2 reads around p (vec.h's dnnlk__vd_load_x2): two loads and two broadcasts,
 * where four dnnlk__vd_load_even are eight loads, each across a cache line when p - 1 is. */
static DNNLK__FORCEINLINE void dnnlk__vd_load_x2_avx512(const double *p, __m512d *r) {
    const __m512d a = _mm512_loadu_pd(p), b = _mm512_loadu_pd(p + 8);
    const __m512d ev = _mm512_permutex2var_pd(a, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), b);
    const __m512d od = _mm512_permutex2var_pd(a, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), b);
    r[0] = _mm512_permutex2var_pd(od, _mm512_setr_epi64(8, 0, 1, 2, 3, 4, 5, 6), _mm512_set1_pd(p[-1]));
    r[1] = ev;
    r[2] = od;
    r[3] = _mm512_permutex2var_pd(ev, _mm512_setr_epi64(1, 2, 3, 4, 5, 6, 7, 8), _mm512_set1_pd(p[2 * 8]));
}

/* == quant, resize: s32 lanes narrowed to bytes == */
static DNNLK__FORCEINLINE __m512i dnnlk__vi_pack4_u8_avx512(__m512i a, __m512i b, __m512i c, __m512i d) {
    __m512i r = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(a));
    r = _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(b), 1);
    r = _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(c), 2);
    return _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(d), 3);
}
/* Four k-masks joined into one 64-bit mask (two kunpck steps), which selects the bytes set to 1:
 * 4 operations where four vpmovdb and three inserts of the blended lanes took 11. */
/* Eight 8-lane masks joined by a tree of mask unpacks (kept in mask registers: through general
 * registers, a move, a shift and an or each, it ran 1.36x slower on Zen 4), then spread to bytes. */
static DNNLK__FORCEINLINE __m512i dnnlk__vqmask_pack8_u8_avx512(__mmask8 m0, __mmask8 m1, __mmask8 m2, __mmask8 m3,
                                                               __mmask8 m4, __mmask8 m5, __mmask8 m6, __mmask8 m7) {
    __mmask32 lo = _mm512_kunpackw(_mm512_kunpackb(m3, m2), _mm512_kunpackb(m1, m0));
    __mmask32 hi = _mm512_kunpackw(_mm512_kunpackb(m7, m6), _mm512_kunpackb(m5, m4));
    return _mm512_maskz_mov_epi8(_mm512_kunpackd(hi, lo), _mm512_set1_epi8(1));
}
static DNNLK__FORCEINLINE __m512i dnnlk__vmask_pack4_u8_avx512(__mmask16 a, __mmask16 b, __mmask16 c, __mmask16 d) {
    __mmask64 k = _mm512_kunpackd((__mmask64)_mm512_kunpackw(d, c), (__mmask64)_mm512_kunpackw(b, a));
    return _mm512_maskz_mov_epi8(k, _mm512_set1_epi8(1));
}
/* Two packs of four vectors a, b, c, d leave, per 128-bit lane l, the dwords a_l b_l c_l d_l (x_l:
 * elements 4l..4l+3 of x): one dword permute puts them in order. */
static DNNLK__FORCEINLINE __m512i dnnlk__vi_pack4_order_avx512(__m512i r) {
    return _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), r);
}
static DNNLK__FORCEINLINE __m512i dnnlk__vi_pack4_sat_i8_avx512(__m512i a, __m512i b, __m512i c, __m512i d,
                                                                int16_t z, int sgn) {
    __m512i zz = _mm512_set1_epi16(z);
    __m512i ab = _mm512_adds_epi16(_mm512_packs_epi32(a, b), zz), cd = _mm512_adds_epi16(_mm512_packs_epi32(c, d), zz);
    return dnnlk__vi_pack4_order_avx512(sgn ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd));
}
/* The signs packed like the codes (signed saturation keeps each lane's sign bit), one bit select
 * and one permute: 11 operations for 64 codes, where sign k-masks (vpmovd2m, kunpck) and a
 * masked add took 15. */
static DNNLK__FORCEINLINE __m512i dnnlk__vi_pack4_u8_sign_avx512(__m512i a, __m512i b, __m512i c, __m512i d, __m512i ua,
                                                                 __m512i ub, __m512i uc, __m512i ud, int16_t z, int maxc) {
    const __m512i zz = _mm512_set1_epi16(z);
    __m512i ab = _mm512_adds_epi16(_mm512_packs_epi32(a, b), zz), cd = _mm512_adds_epi16(_mm512_packs_epi32(c, d), zz);
    __m512i code = _mm512_packus_epi16(ab, cd);
    if (maxc < 255) code = _mm512_min_epu8(code, _mm512_set1_epi8((char)maxc));
    __m512i sign = _mm512_packs_epi16(_mm512_packs_epi32(ua, ub), _mm512_packs_epi32(uc, ud));
    return dnnlk__vi_pack4_order_avx512(_mm512_ternarylogic_epi32(_mm512_set1_epi8((char)0x80), sign, code, 0xCA));
}
static DNNLK__FORCEINLINE __m512 dnnlk__vf_gather_avx512(const float *p, const int32_t *idx) {
    return _mm512_i32gather_ps(_mm512_loadu_si512((const void *)idx), p, 4);
}

/* == vmath: what the math bodies ask of a level == */
static DNNLK__FORCEINLINE __m512 dnnlk__vf_lut8_avx512(const float *t, __m512i ix) {
    /* the permute reads index bits 0..3 and the table fills the low half: a lane with bit 3 set
     * reads the undefined upper half (callers have a NaN there, whose result is NaN anyway) */
    return _mm512_permutexvar_ps(ix, _mm512_castps256_ps512(_mm256_loadu_ps(t)));
}
/* 32 entries: a two-register permute, which reads index bits 0..4 */
static DNNLK__FORCEINLINE __m512 dnnlk__vf_lut32_avx512(const float *t, __m512i ix) {
    return _mm512_permutex2var_ps(_mm512_loadu_ps(t), ix, _mm512_loadu_ps(t + 16));
}
/* t 2^floor(k), the lanes of `off` -0 instead: masked off, they cost no underflow assist whatever
 * their values (one masked instruction, where a blend beforehand costs one more) */
static DNNLK__FORCEINLINE __m512 dnnlk__vf_scalef_off_avx512(__m512 t, __m512 k, __mmask16 off) {
    return _mm512_mask_scalef_ps(_mm512_set1_ps(-0.0f), (__mmask16)~off, t, k);
}
/* == convert: transposes of 32-bit elements == */
/* 16x16: interleaves of 32- and 64-bit elements within 128-bit lanes (u_{4k + c}, lane L: column
 * 4L + c of rows 4k..4k+3), then two rounds of 128-bit lane shuffles gather lane L of u_c,
 * u_{4 + c}, u_{8 + c}, u_{12 + c} into dst row 4L + c. Written as helpers on named values, not
 * loops over arrays: gcc -O2 does not unroll those loops, so the arrays stayed in memory, a store
 * and a reload per step (NCHW -> NHWC f32 [8,64,128,128]: 0.35 ns/element, against 0.24 for its
 * loads and streaming stores alone). */
static DNNLK__FORCEINLINE void dnnlk__v32_t16_quad_avx512(const char *s, int64_t sp, __m512i *u0, __m512i *u1,
                                                         __m512i *u2, __m512i *u3) {
    /* rows 0..3 of s: u0..u3 as above */
    __m512i r0 = _mm512_loadu_si512((const void *)s), r1 = _mm512_loadu_si512((const void *)(s + sp));
    __m512i r2 = _mm512_loadu_si512((const void *)(s + 2 * sp)), r3 = _mm512_loadu_si512((const void *)(s + 3 * sp));
    __m512i t0 = _mm512_unpacklo_epi32(r0, r1), t1 = _mm512_unpackhi_epi32(r0, r1);
    __m512i t2 = _mm512_unpacklo_epi32(r2, r3), t3 = _mm512_unpackhi_epi32(r2, r3);
    *u0 = _mm512_unpacklo_epi64(t0, t2), *u1 = _mm512_unpackhi_epi64(t0, t2);
    *u2 = _mm512_unpacklo_epi64(t1, t3), *u3 = _mm512_unpackhi_epi64(t1, t3);
}
static DNNLK__FORCEINLINE void dnnlk__v32_t16_rows_avx512(char *d, int64_t dp, __m512i a, __m512i b, __m512i c,
                                                         __m512i e, int nt) {
    /* v0: lanes 0, 2 of a then of b; v1: lanes 1, 3; v2, v3: the same of c, e; dst rows 0, 4, 8, 12 */
    __m512i v0 = _mm512_shuffle_i32x4(a, b, 0x88), v1 = _mm512_shuffle_i32x4(a, b, 0xDD);
    __m512i v2 = _mm512_shuffle_i32x4(c, e, 0x88), v3 = _mm512_shuffle_i32x4(c, e, 0xDD);
    __m512i o0 = _mm512_shuffle_i32x4(v0, v2, 0x88), o1 = _mm512_shuffle_i32x4(v1, v3, 0x88);
    __m512i o2 = _mm512_shuffle_i32x4(v0, v2, 0xDD), o3 = _mm512_shuffle_i32x4(v1, v3, 0xDD);
    if (nt) {
        _mm512_stream_si512((__m512i *)(void *)d, o0), _mm512_stream_si512((__m512i *)(void *)(d + 4 * dp), o1);
        _mm512_stream_si512((__m512i *)(void *)(d + 8 * dp), o2), _mm512_stream_si512((__m512i *)(void *)(d + 12 * dp), o3);
    } else {
        _mm512_storeu_si512((void *)d, o0), _mm512_storeu_si512((void *)(d + 4 * dp), o1);
        _mm512_storeu_si512((void *)(d + 8 * dp), o2), _mm512_storeu_si512((void *)(d + 12 * dp), o3);
    }
}
static DNNLK__FORCEINLINE void dnnlk__v32_transpose_avx512(void *d, int64_t dp, const void *s, int64_t sp, int nt) {
    const char *sc = (const char *)s;
    char *dc = (char *)d;
    __m512i u0, u1, u2, u3, u4, u5, u6, u7, u8, u9, u10, u11, u12, u13, u14, u15;
    dnnlk__v32_t16_quad_avx512(sc, sp, &u0, &u1, &u2, &u3);
    dnnlk__v32_t16_quad_avx512(sc + 4 * sp, sp, &u4, &u5, &u6, &u7);
    dnnlk__v32_t16_quad_avx512(sc + 8 * sp, sp, &u8, &u9, &u10, &u11);
    dnnlk__v32_t16_quad_avx512(sc + 12 * sp, sp, &u12, &u13, &u14, &u15);
    dnnlk__v32_t16_rows_avx512(dc, dp, u0, u4, u8, u12, nt);
    dnnlk__v32_t16_rows_avx512(dc + dp, dp, u1, u5, u9, u13, nt);
    dnnlk__v32_t16_rows_avx512(dc + 2 * dp, dp, u2, u6, u10, u14, nt);
    dnnlk__v32_t16_rows_avx512(dc + 3 * dp, dp, u3, u7, u11, u15, nt);
}
/* == convert: interleaves of 1-, 2- and 4-byte elements (hi: of the upper halves) == */
static DNNLK__FORCEINLINE __m512i dnnlk__vb_zip_avx512(__m512i a, __m512i b, int es, int hi) {
    __m512i l, h;
    switch (es) {
    case 1: l = _mm512_unpacklo_epi8(a, b), h = _mm512_unpackhi_epi8(a, b); break;
    case 2: l = _mm512_unpacklo_epi16(a, b), h = _mm512_unpackhi_epi16(a, b); break;
    default: l = _mm512_unpacklo_epi32(a, b), h = _mm512_unpackhi_epi32(a, b); break;
    }
    /* 128-bit lane L of l / h: the interleave of the lower / upper half of lane L of a and b */
    return hi ? _mm512_permutex2var_epi64(l, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), h)
              : _mm512_permutex2var_epi64(l, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), h);
}
#endif

#define DNNLK__VF_N 16
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 1          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 1  /* an 8-entry float table read by one register permute */
#define DNNLK__VEC_STREAM_LINES 1 /* streamed lines go out whole only if written back to back (x86 write-combining) */
#define dnnlk__vf __m512
#define dnnlk__vi __m512i
#define dnnlk__vmask __mmask16
#define dnnlk__vf_loadu(p) _mm512_loadu_ps(p)
#define dnnlk__vf_loadu_scan(p) _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(p)), _mm256_loadu_ps((p) + 8), 1)
#define dnnlk__vf_storeu(p, v) _mm512_storeu_ps((p), (v))
#define dnnlk__vf_stream(p, v) _mm512_stream_ps((p), (v))
#define dnnlk__vf_loadu_n dnnlk__vf_loadu_n_avx512
#define dnnlk__vf_storeu_n dnnlk__vf_storeu_n_avx512
#define dnnlk__vf_set1(x) _mm512_set1_ps(x)
#define dnnlk__vf_zero() _mm512_setzero_ps()
#define dnnlk__vf_add(a, b) _mm512_add_ps((a), (b))
#define dnnlk__vf_sub(a, b) _mm512_sub_ps((a), (b))
#define dnnlk__vf_mul(a, b) _mm512_mul_ps((a), (b))
#define dnnlk__vf_div(a, b) _mm512_div_ps((a), (b))
#define dnnlk__vf_fmadd(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define dnnlk__vf_nofuse(v) __asm__("" : "+v"(v)) /* "v": zmm16-31 too */
#define dnnlk__vf_min(a, b) _mm512_min_ps((a), (b))
#define dnnlk__vf_max(a, b) _mm512_max_ps((a), (b))
#define dnnlk__vf_sqrt(a) _mm512_sqrt_ps(a)
#define dnnlk__vf_and(a, b) _mm512_and_ps((a), (b))
#define dnnlk__vf_or(a, b) _mm512_or_ps((a), (b))
#define dnnlk__vf_xor(a, b) _mm512_xor_ps((a), (b))
#define dnnlk__vf_round_even(a) _mm512_roundscale_ps((a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dnnlk__vf_floor(a) _mm512_roundscale_ps((a), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define dnnlk__vf_cmplt(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_LT_OQ)
#define dnnlk__vf_cmple(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_LE_OQ)
#define dnnlk__vf_cmpgt(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GT_OQ)
#define dnnlk__vf_cmpge(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GE_OQ)
#define dnnlk__vf_cmpeq(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_EQ_OQ)
#define dnnlk__vf_cmpunord(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_UNORD_Q)
#define dnnlk__vmask_bits(m) ((unsigned)(m))
#define dnnlk__vf_blend(m, t, f) _mm512_mask_blend_ps((m), (f), (t))
#define dnnlk__vf_load_bf16 dnnlk__vf_load_bf16_avx512
#define dnnlk__vf_store_bf16 dnnlk__vf_store_bf16_avx512
#define dnnlk__vf_pack2_bf16 dnnlk__vf_pack2_bf16_avx512
#define dnnlk__vf_load_f16 dnnlk__vf_load_f16_avx512
#define dnnlk__vf_store_f16 dnnlk__vf_store_f16_avx512
#define dnnlk__vf_pack2_f16 dnnlk__vf_pack2_f16_avx512
#define dnnlk__vi_loadu(p) _mm512_loadu_si512((const void *)(p))
#define dnnlk__vi_storeu(p, v) _mm512_storeu_si512((void *)(p), (v))
#define dnnlk__vi_set1(x) _mm512_set1_epi32(x)
#define dnnlk__vi_add(a, b) _mm512_add_epi32((a), (b))
#define dnnlk__vi_sub(a, b) _mm512_sub_epi32((a), (b))
#define dnnlk__vi_mullo(a, b) _mm512_mullo_epi32((a), (b))
#define dnnlk__vi_and(a, b) _mm512_and_si512((a), (b))
#define dnnlk__vi_or(a, b) _mm512_or_si512((a), (b))
#define dnnlk__vi_xor(a, b) _mm512_xor_si512((a), (b))
#define dnnlk__vi_slli(a, n) _mm512_slli_epi32((a), (n))
#define dnnlk__vi_srli(a, n) _mm512_srli_epi32((a), (n))
#define dnnlk__vi_srai(a, n) _mm512_srai_epi32((a), (n))
#define dnnlk__vf_as_vi(a) _mm512_castps_si512(a)
#define dnnlk__vi_as_vf(a) _mm512_castsi512_ps(a)
#define dnnlk__vi_to_vf(a) _mm512_cvtepi32_ps(a)
#define dnnlk__vf_to_vi_trunc(a) _mm512_cvttps_epi32(a)
#define dnnlk__vi_load_i8 dnnlk__vi_load_i8_avx512
#define dnnlk__vi_min(a, b) _mm512_min_epi32((a), (b))
#define dnnlk__vi_max(a, b) _mm512_max_epi32((a), (b))
#define dnnlk__vi_cmpeq(a, b) _mm512_cmpeq_epi32_mask((a), (b))
#define dnnlk__vi_cmpgt(a, b) _mm512_cmpgt_epi32_mask((a), (b))
#define dnnlk__vi_blend(m, t, f) _mm512_mask_blend_epi32((m), (f), (t))
#define dnnlk__vf_cmpnle(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_NLE_UQ)
#define dnnlk__vf_cmpnge(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_NGE_UQ)
#define dnnlk__vf_cmpord(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_ORD_Q)
#define dnnlk__vmask_and(a, b) ((__mmask16)((a) & (b)))
#define dnnlk__vmask_or(a, b) ((__mmask16)((a) | (b)))
#define dnnlk__vi_store(p, v) _mm512_store_si512((void *)(p), (v))
#define dnnlk__vi_stream(p, v) _mm512_stream_si512((__m512i *)(void *)(p), (v))
#define dnnlk__vec_sfence() _mm_sfence()
#define dnnlk__vec_prefetch_l2(p, bytes) dnnlk__prefetch_l2((p), (bytes))
#define DNNLK__VT_N 16 /* the side of dnnlk__v32_transpose's tiles */
#define dnnlk__v32_transpose dnnlk__v32_transpose_avx512
#define dnnlk__vb_ziplo_elem(a, b, es) dnnlk__vb_zip_avx512((a), (b), (es), 0)
#define dnnlk__vb_ziphi_elem(a, b, es) dnnlk__vb_zip_avx512((a), (b), (es), 1)

/* ---- beyond the f32/s32 basics (names), in the sections above ---- */
/* == select: byte and 16-bit lanes == */
#define DNNLK__VB_N 64
#define DNNLK__VEC_MASKED_BYTES 1 /* byte-granular masked loads and stores (else: an emulation) */
#define dnnlk__vb __m512i
#define dnnlk__vmask_vb __mmask64
#define dnnlk__vb_loadu(p) _mm512_loadu_si512((const void *)(p))
#define dnnlk__vb_storeu(p, v) _mm512_storeu_si512((void *)(p), (v))
#define dnnlk__vb_stream(p, v) _mm512_stream_si512((__m512i *)(void *)(p), (v))
#define dnnlk__vb_set1_elem dnnlk__vb_set1_elem_avx512
#define dnnlk__vb_cond_elem dnnlk__vb_cond_elem_avx512
#define dnnlk__vb_blend_elem dnnlk__vb_blend_elem_avx512
#define dnnlk__vb_loadu_n_elem dnnlk__vb_loadu_n_elem_avx512
#define dnnlk__vb_storeu_n_elem dnnlk__vb_storeu_n_elem_avx512
#define dnnlk__vb_cond_n_elem dnnlk__vb_cond_n_elem_avx512
#define dnnlk__vb_permute16 dnnlk__vb_permute16_avx512

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
#define DNNLK__VQ_N 8
#define DNNLK__VEC_CMP_TO_BITS 1 /* compares give bits and bits deposit cheaply (k-masks, pdep) */
#define dnnlk__vq __m512i
#define dnnlk__vq_loadu(p) _mm512_loadu_si512((const void *)(p))
#define dnnlk__vq_storeu(p, v) _mm512_storeu_si512((void *)(p), (v))
#define dnnlk__vq_part_vi(v, j) (v)
#define dnnlk__vq_set1_64(x) _mm512_set1_epi64((long long)(x))
#define dnnlk__vq_set1_32(x) _mm512_set1_epi32((int)(x))
#define dnnlk__vq_and(a, b) _mm512_and_si512((a), (b))
#define dnnlk__vq_or(a, b) _mm512_or_si512((a), (b))
#define dnnlk__vq_xor(a, b) _mm512_xor_si512((a), (b))
#define dnnlk__vq_xor3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define dnnlk__vq_add64(a, b) _mm512_add_epi64((a), (b))
#define dnnlk__vq_srli64(a, n) _mm512_srli_epi64((a), (n))
#define dnnlk__vq_slli64(a, n) _mm512_slli_epi64((a), (n))
#define dnnlk__vq_add32(a, b) _mm512_add_epi32((a), (b))
#define dnnlk__vq_sub32(a, b) _mm512_sub_epi32((a), (b))
#define dnnlk__vq_srli32(a, n) _mm512_srli_epi32((a), (n))
#define dnnlk__vq_slli32(a, n) _mm512_slli_epi32((a), (n))
#define dnnlk__vq_min32_u(a, b) _mm512_min_epu32((a), (b))
#define dnnlk__vq_mul_even_u32(a, b) _mm512_mul_epu32((a), (b))
#define dnnlk__vq_hi_down32(a) _mm512_shuffle_epi32((a), (_MM_PERM_ENUM)0xF5)
#define dnnlk__vq_blend_odd32(a, b) _mm512_mask_blend_epi32((__mmask16)0xAAAA, (a), (b))
#define dnnlk__vq_pack_lo32(a, b) _mm512_mask_shuffle_epi32((a), (__mmask16)0xAAAA, (b), (_MM_PERM_ENUM)0xA0)
#define dnnlk__vq_unpacklo32(a, b) _mm512_unpacklo_epi32((a), (b))
#define dnnlk__vq_unpackhi32(a, b) _mm512_unpackhi_epi32((a), (b))
#define dnnlk__vq_unpacklo64(a, b) _mm512_unpacklo_epi64((a), (b))
#define dnnlk__vq_unpackhi64(a, b) _mm512_unpackhi_epi64((a), (b))
#define dnnlk__vq_lane0_u32(a) ((uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(a)))
#define dnnlk__vq_cmplt32_bits(a, b) ((uint64_t)_mm512_cmplt_epi32_mask((a), (b)))
#define dnnlk__vq_cmplt32_u_bits(a, b) ((uint64_t)_mm512_cmplt_epu32_mask((a), (b)))
#define dnnlk__vq_cmplt64_u_rhs(t) _mm512_set1_epi64((long long)(t))
#define dnnlk__vq_cmplt64_u_bits(a, rhs) ((uint64_t)_mm512_cmplt_epu64_mask((a), (rhs)))
#define dnnlk__vqmask __mmask8
#define dnnlk__vq_cmpeq64(a, b) _mm512_cmpeq_epi64_mask((a), (b))
#define dnnlk__vq_cmplt64(a, b) _mm512_cmplt_epi64_mask((a), (b))
#define dnnlk__vqmask_pack8_u8 dnnlk__vqmask_pack8_u8_avx512
#define dnnlk__vi_bitselect(m, a, b) _mm512_ternarylogic_epi32((m), (a), (b), 0xCA)
#define dnnlk__vi_xor_if_odd dnnlk__vi_xor_if_odd_avx512
#define dnnlk__vi_bf16_rne_bits dnnlk__vi_bf16_rne_bits_avx512
#define dnnlk__vf_maskz_bits(b, v) _mm512_maskz_mov_ps((__mmask16)(b), (v))
#define dnnlk__vf_maskz_bits_even(b, v) _mm512_maskz_mov_ps((__mmask16)_pext_u32((b), 0x55555555u), (v))
#define dnnlk__vf_maskz_bits_odd(b, v) _mm512_maskz_mov_ps((__mmask16)_pext_u32((b), 0xaaaaaaaau), (v))
#define dnnlk__u64_deposit(v, m) ((uint64_t)_pdep_u64((v), (m)))

/* == softmax, norm: f64 lanes == */
#define DNNLK__VD_N 8
#define DNNLK__VEC_SCALEF 1 /* dnnlk__vf_scalef is one instruction for any n (else n in [-252, 252]) */
#define dnnlk__vd __m512d
#define dnnlk__vd_zero() _mm512_setzero_pd()
#define dnnlk__vd_add(a, b) _mm512_add_pd((a), (b))
#define dnnlk__vd_storeu(p, v) _mm512_storeu_pd((p), (v))
#define dnnlk__vd_from_vf dnnlk__vd_from_vf_avx512
#define dnnlk__vd_loadu(p) _mm512_loadu_pd(p)
#define dnnlk__vd_set1(x) _mm512_set1_pd(x)
#define dnnlk__vd_mul(a, b) _mm512_mul_pd((a), (b))
#define dnnlk__vd_gather(p, idx) _mm512_i32gather_pd(_mm256_loadu_si256((const __m256i *)(const void *)(idx)), (p), 8)
#define dnnlk__vd_load_even(p) \
    _mm512_permutex2var_pd(_mm512_loadu_pd(p), _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), _mm512_loadu_pd((p) + 8))
#define dnnlk__vd_load_x2 dnnlk__vd_load_x2_avx512
#define dnnlk__vd_load_f32(p) _mm512_cvtps_pd(_mm256_loadu_ps(p))
#define dnnlk__vd_store_f32(p, v) _mm256_storeu_ps((p), _mm512_cvtpd_ps(v))
#define dnnlk__vf_hmax dnnlk__vf_hmax_avx512
#define dnnlk__vf_cmpneq(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_NEQ_UQ)
#define dnnlk__vf_cmpnlt_in(m, a, b) _mm512_mask_cmp_ps_mask((m), (a), (b), _CMP_NLT_US)
#define dnnlk__vmask_ones() ((__mmask16)0xffff)
#define dnnlk__vi_test_in(m, a, b) _mm512_mask_test_epi32_mask((m), (a), (b))
#define dnnlk__vi_cmpgt_in(m, a, b) _mm512_mask_cmpgt_epi32_mask((m), (a), (b))
#define dnnlk__vmask_count(m) ((unsigned)_mm_popcnt_u32((unsigned)(m)))
#define dnnlk__vf_scalef(p, n) _mm512_scalef_ps((p), (n))
#define dnnlk__vf_maskz_scalef(m, p, n) _mm512_maskz_scalef_ps((m), (p), (n))
#define dnnlk__vec_prefetch_l1 dnnlk__vec_prefetch_l1_avx512

/* == quant, resize: s32 lanes narrowed to bytes == */
#define DNNLK__VEC_REDUCE 1 /* dnnlk__vf_sub_round_even: one vreduceps (0 for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 0 /* a vector division costs several multiplies */
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_avx512
#define dnnlk__vmask_pack4_u8 dnnlk__vmask_pack4_u8_avx512
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_avx512
#define dnnlk__vi_pack4_u8_sign dnnlk__vi_pack4_u8_sign_avx512
#define dnnlk__vi_store_u8(p, v) _mm_storeu_si128((__m128i *)(void *)(p), _mm512_cvtepi32_epi8(v))
#define dnnlk__vf_sub_round_even(a) _mm512_reduce_ps((a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dnnlk__vf_to_vi_round_even(a) _mm512_cvt_roundps_epi32((a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dnnlk__vf_permute(v, idx) _mm512_permutexvar_ps((idx), (v))
#define dnnlk__vf_ziplo(a, b) \
    _mm512_permutex2var_ps((a), _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), (b))
#define dnnlk__vf_ziphi(a, b) \
    _mm512_permutex2var_ps((a), _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31), (b))
#define dnnlk__vf_gather dnnlk__vf_gather_avx512
#define dnnlk__vperm2 __m512i
#define dnnlk__vperm2_index(p) _mm512_loadu_si512((const void *)(p))
#define dnnlk__vi_permute2(a, b, ix) _mm512_permutex2var_epi32((a), (ix), (b))

/* == vmath: what the math bodies ask of a level == */
#define DNNLK__VEC_LUT32 1   /* a 32-entry float table read by one two-register permute */
#define DNNLK__VEC_PROD_ERR 1
#define dnnlk__vf_prod_err(a, b, p) _mm512_fmsub_ps((a), (b), (p))
#define dnnlk__vlut8 __m512i
#define dnnlk__vlut8_index(i) (i)
#define dnnlk__vf_lut8 dnnlk__vf_lut8_avx512
#define dnnlk__vf_lut32 dnnlk__vf_lut32_avx512
#define dnnlk__vf_scalef_off dnnlk__vf_scalef_off_avx512
#define dnnlk__vf_fmsub(a, b, c) _mm512_fmsub_ps((a), (b), (c))
#define dnnlk__vf_fnmadd(a, b, c) _mm512_fnmadd_ps((a), (b), (c))
#define dnnlk__vf_fnmsub(a, b, c) _mm512_fnmsub_ps((a), (b), (c))
#define dnnlk__vf_max_neg0(x) _mm512_max_ps(_mm512_set1_ps(-0.0f), (x))

/* == scans: 256-bit (vec.h says why) == */
#define DNNLK__VS_N 8
#define dnnlk__vs __m256
#define dnnlk__vs_loadu(p) _mm256_loadu_ps(p)
#define dnnlk__vs_load_bf16 dnnlk__vs_load_bf16_avx512
#define dnnlk__vs_load_f16(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define dnnlk__vs_set1(x) _mm256_set1_ps(x)
#define dnnlk__vs_storeu(p, v) _mm256_storeu_ps((p), (v))
#define dnnlk__vs_max(a, b) _mm256_max_ps((a), (b))
#define dnnlk__vs_min(a, b) _mm256_min_ps((a), (b))
#define dnnlk__vs_any_nle(a, b) _mm256_movemask_ps(_mm256_cmp_ps((a), (b), _CMP_NLE_UQ))
#define dnnlk__vs_any_nlt(a, b) _mm256_movemask_ps(_mm256_cmp_ps((a), (b), _CMP_NLT_UQ))
