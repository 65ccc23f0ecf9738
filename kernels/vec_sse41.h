/* dnnl_kernels — vec_sse41.h: the vector layer (vec.h's API) at SSE4.1: 4 f32 / s32 lanes, masks
 * as lane vectors. No include guard: vec.h includes it inside the SSE4.1 target region
 * (DNNLK__ISA 1); vec_end.h removes the names. */

#if DNNLK__ISA != 1
#error "vec_sse41.h is included through vec.h with DNNLK__ISA 1"
#endif

#ifndef DNNLK__VEC_FUNCS_1
#define DNNLK__VEC_FUNCS_1
static DNNLK__FORCEINLINE __m128 dnnlk__vf_loadu_n_sse41(const float *p, size_t n) {
    float t[4] = {0, 0, 0, 0};
    memcpy(t, p, n * sizeof(float));
    return _mm_loadu_ps(t);
}
static DNNLK__FORCEINLINE void dnnlk__vf_storeu_n_sse41(float *p, __m128 v, size_t n) {
    float t[4];
    _mm_storeu_ps(t, v);
    memcpy(p, t, n * sizeof(float));
}
static DNNLK__FORCEINLINE __m128 dnnlk__vf_load_bf16_sse41(const uint16_t *p) {
    __m128i h = _mm_loadl_epi64((const __m128i *)(const void *)p);
    return _mm_castsi128_ps(_mm_slli_epi32(_mm_cvtepu16_epi32(h), 16));
}
/* Round to nearest even, NaN quieted (matches dnnlk_f32_to_bf16); result in the low 16 bits. */
static DNNLK__FORCEINLINE __m128i dnnlk__vf_to_bf16_bits_sse41(__m128 v) {
    __m128i u = _mm_castps_si128(v);
    __m128i lsb = _mm_and_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(1));
    __m128i r = _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(u, _mm_set1_epi32(0x7fff)), lsb), 16);
    __m128i nan = _mm_castps_si128(_mm_cmpunord_ps(v, v));
    __m128i q = _mm_or_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(0x40));
    return _mm_blendv_epi8(r, q, nan);
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_bf16_sse41(uint16_t *p, __m128 v) {
    __m128i b = dnnlk__vf_to_bf16_bits_sse41(v);
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi32(b, b));
}
/* a then b as 8 bf16 in memory order (the bits fit in 16, so packusdw is exact) */
static DNNLK__FORCEINLINE __m128i dnnlk__vf_pack2_bf16_sse41(__m128 a, __m128 b) {
    return _mm_packus_epi32(dnnlk__vf_to_bf16_bits_sse41(a), dnnlk__vf_to_bf16_bits_sse41(b));
}
/* 4 bytes -> 4 int32 lanes, sign- (sgn) or zero-extended. */
static DNNLK__FORCEINLINE __m128i dnnlk__vi_load_i8_sse41(const void *p, int sgn) {
    int32_t w;
    __m128i b;
    memcpy(&w, p, 4);
    b = _mm_cvtsi32_si128(w);
    return sgn ? _mm_cvtepi8_epi32(b) : _mm_cvtepu8_epi32(b);
}
/* No F16C at this level: convert lane by lane with the scalar routines. Through memcpy: p need
 * not be 2-byte aligned (convert's tensors may start at any byte, as the other levels allow). A
 * signalling NaN comes out quiet (quiet bit set, payload kept), as F16C's vcvtph2ps gives it. */
static DNNLK__FORCEINLINE __m128 dnnlk__vf_load_f16_sse41(const uint16_t *p) {
    uint16_t h[4];
    __m128 v;
    memcpy(h, p, sizeof h);
    v = _mm_setr_ps(dnnlk_f16_to_f32(h[0]), dnnlk_f16_to_f32(h[1]), dnnlk_f16_to_f32(h[2]), dnnlk_f16_to_f32(h[3]));
    return _mm_or_ps(v, _mm_and_ps(_mm_cmpunord_ps(v, v), _mm_castsi128_ps(_mm_set1_epi32(0x00400000))));
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_f16_sse41(uint16_t *p, __m128 v) {
    float t[4];
    uint16_t h[4];
    int i;
    _mm_storeu_ps(t, v);
    for (i = 0; i < 4; i++) h[i] = dnnlk_f32_to_f16(t[i]);
    memcpy(p, h, sizeof h);
}
static DNNLK__FORCEINLINE __m128i dnnlk__vf_pack2_f16_sse41(__m128 a, __m128 b) {
    uint16_t h[8];
    dnnlk__vf_store_f16_sse41(h, a), dnnlk__vf_store_f16_sse41(h + 4, b);
    return _mm_loadu_si128((const __m128i *)(const void *)h);
}

/* ---- beyond the f32/s32 basics, by kind (each section names the bodies that use it first) ---- */
/* == select: byte and 16-bit lanes == */
/* Byte lanes: a mask over es-byte lanes is a lane vector, all ones where the lane is NOT
 * selected (pcmpeqb against zero, widened with pmovsx), which drives pblendvb directly. */
static DNNLK__FORCEINLINE __m128i dnnlk__vb_set1_elem_sse41(const void *p, int es) {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (es) {
    case 1: memcpy(&u8, p, 1); return _mm_set1_epi8((char)u8);
    case 2: memcpy(&u16, p, 2); return _mm_set1_epi16((short)u16);
    case 4: memcpy(&u32, p, 4); return _mm_set1_epi32((int)u32);
    default: memcpy(&u64, p, 8); return _mm_set1_epi64x((long long)u64);
    }
}
/* The cond of the W/es lanes from W/es bytes at c. */
static DNNLK__FORCEINLINE __m128i dnnlk__vb_cond_elem_sse41(const unsigned char *c, int es) {
    uint32_t u32;
    uint16_t u16;
    __m128i x;
    switch (es) {
    case 1: return _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)c), _mm_setzero_si128());
    case 2:
        x = _mm_cmpeq_epi8(_mm_loadl_epi64((const __m128i *)(const void *)c), _mm_setzero_si128());
        return _mm_cvtepi8_epi16(x);
    case 4:
        memcpy(&u32, c, 4);
        x = _mm_cmpeq_epi8(_mm_cvtsi32_si128((int)u32), _mm_setzero_si128());
        return _mm_cvtepi8_epi32(x);
    default:
        memcpy(&u16, c, 2);
        x = _mm_cmpeq_epi8(_mm_cvtsi32_si128((int)u16), _mm_setzero_si128());
        return _mm_cvtepi8_epi64(x);
    }
}
/* Partial vectors (no byte-granular masked access at this level): through a buffer. */
static DNNLK__FORCEINLINE __m128i dnnlk__vb_loadu_n_elem_sse41(const void *p, size_t n, int es) {
    unsigned char t[16] = {0};
    memcpy(t, p, n * (size_t)es);
    return _mm_loadu_si128((const __m128i *)(const void *)(t));
}
static DNNLK__FORCEINLINE void dnnlk__vb_storeu_n_elem_sse41(void *p, __m128i v, size_t n, int es) {
    unsigned char t[16];
    _mm_storeu_si128((__m128i *)(void *)t, v);
    memcpy(p, t, n * (size_t)es);
}
static DNNLK__FORCEINLINE __m128i dnnlk__vb_cond_n_elem_sse41(const unsigned char *c, size_t n, int es) {
    unsigned char t[16] = {0};
    memcpy(t, c, n);
    return dnnlk__vb_cond_elem_sse41(t, es);
}
static DNNLK__FORCEINLINE void dnnlk__vb_permute16_sse41(void *out, const void *in, const unsigned char *idx) {
    __m128i v = _mm_loadu_si128((const __m128i *)in);
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(v, _mm_loadu_si128((const __m128i *)(const void *)idx)));
}

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
/* SSE4.1 has no unsigned or 64-bit compare: both operands biased by 2^31 per 32-bit word. */
static DNNLK__FORCEINLINE uint64_t dnnlk__vq_cmplt32_u_bits_sse41(__m128i a, __m128i b) {
    const __m128i bias = _mm_set1_epi32(INT32_MIN);
    __m128i lt = _mm_cmpgt_epi32(_mm_xor_si128(b, bias), _mm_xor_si128(a, bias));
    return (uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(lt));
}
/* a < rhs on 64-bit lanes, rhs from dnnlk__vq_cmplt64_u_rhs (pre-biased): hi < thi, or hi == thi
 * and lo < tlo, each unsigned. */
static DNNLK__FORCEINLINE uint64_t dnnlk__vq_cmplt64_u_bits_sse41(__m128i a, __m128i rhs) {
    const __m128i bias = _mm_set1_epi32(INT32_MIN);
    __m128i vb = _mm_xor_si128(a, bias);
    __m128i lt = _mm_cmpgt_epi32(rhs, vb), eq = _mm_cmpeq_epi32(rhs, vb);
    __m128i r = _mm_or_si128(lt, _mm_and_si128(eq, _mm_shuffle_epi32(lt, 0xA0)));
    return (uint64_t)(unsigned)_mm_movemask_pd(_mm_castsi128_pd(r));
}
/* a < b on signed 64-bit lanes without SSE4.2's pcmpgtq: the high dwords signed, and where they
 * are equal the low dwords unsigned; the sign bit of each high dword is the lane's answer (all the
 * pack below reads). */
static DNNLK__FORCEINLINE __m128i dnnlk__vq_cmplt64_sse41(__m128i a, __m128i b) {
    const __m128i bias = _mm_set1_epi32(INT32_MIN);
    __m128i lt_hi = _mm_cmpgt_epi32(b, a), eq = _mm_cmpeq_epi32(a, b);
    __m128i lt_lo = _mm_cmpgt_epi32(_mm_xor_si128(b, bias), _mm_xor_si128(a, bias));
    return _mm_or_si128(lt_hi, _mm_and_si128(eq, _mm_shuffle_epi32(lt_lo, 0xA0)));
}
/* Eight masks of 2 qwords: their sign bits (16) in a word, then byte j gets byte j / 8 of it and
 * keeps its bit j % 8. */
#define DNNLK__VQ_BITS2(k) ((uint32_t)_mm_movemask_pd(_mm_castsi128_pd(k)))
static DNNLK__FORCEINLINE __m128i dnnlk__vqmask_pack8_u8_sse41(__m128i m0, __m128i m1, __m128i m2, __m128i m3, __m128i m4,
                                                              __m128i m5, __m128i m6, __m128i m7) {
    const uint32_t m = DNNLK__VQ_BITS2(m0) | DNNLK__VQ_BITS2(m1) << 2 | DNNLK__VQ_BITS2(m2) << 4 | DNNLK__VQ_BITS2(m3) << 6 |
                       DNNLK__VQ_BITS2(m4) << 8 | DNNLK__VQ_BITS2(m5) << 10 | DNNLK__VQ_BITS2(m6) << 12 |
                       DNNLK__VQ_BITS2(m7) << 14;
    const __m128i spread = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
    __m128i v = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)(uint32_t)m), spread);
    v = _mm_and_si128(v, _mm_set1_epi64x((long long)0x8040201008040201ull));
    return _mm_min_epu8(v, _mm_set1_epi8(1));
}
#undef DNNLK__VQ_BITS2
/* Lane j of v where bit j of b is set, +0 elsewhere: the keep factors of dropout. */
static DNNLK__FORCEINLINE __m128 dnnlk__vf_maskz_bits_sse41(uint32_t b, __m128 v) {
    const __m128i sel = _mm_setr_epi32(1, 2, 4, 8);
    __m128i m = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(b & 0xfu)), sel), sel);
    return _mm_and_ps(_mm_castsi128_ps(m), v);
}
static DNNLK__FORCEINLINE __m128 dnnlk__vf_maskz_bits_even_sse41(uint32_t b, __m128 v) {
    const __m128i se = _mm_setr_epi32(1, 4, 16, 64);
    __m128i m = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(b & 0xffu)), se), se);
    return _mm_and_ps(_mm_castsi128_ps(m), v);
}
static DNNLK__FORCEINLINE __m128 dnnlk__vf_maskz_bits_odd_sse41(uint32_t b, __m128 v) {
    const __m128i so = _mm_setr_epi32(2, 8, 32, 128);
    __m128i m = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(b & 0xffu)), so), so);
    return _mm_and_ps(_mm_castsi128_ps(m), v);
}

/* == softmax, norm: f64 lanes == */
/* f32 lanes [2h, 2h + 2) of v as f64 (h a constant, 0 or 1). */
static DNNLK__FORCEINLINE __m128d dnnlk__vd_from_vf_sse41(__m128 v, int h) {
    return _mm_cvtps_pd(h ? _mm_movehl_ps(v, v) : v);
}
/* A tree of shuffles (max is exact: any order gives the same value, up to the sign of a zero). */
static DNNLK__FORCEINLINE float dnnlk__vf_hmax_sse41(__m128 v) {
    __m128 a = _mm_max_ps(v, _mm_movehl_ps(v, v));
    a = _mm_max_ss(a, _mm_shuffle_ps(a, a, 1));
    return _mm_cvtss_f32(a);
}
/* No POPCNT at this level: the count of each 4-bit mask from a nibble table. */
static DNNLK__FORCEINLINE unsigned dnnlk__vmask_count_sse41(__m128 m) {
    return (unsigned)((0x4332322132212110ull >> (4 * (unsigned)_mm_movemask_ps(m))) & 15);
}
/* p * 2^n, n integral in [-252, 252]: two normal power-of-2 factors, so a result in the subnormal
 * range is rounded once (by the second product), as scalef rounds it. */
static DNNLK__FORCEINLINE __m128 dnnlk__vf_scalef_sse41(__m128 p, __m128 n) {
    __m128i k = _mm_cvttps_epi32(n), k1 = _mm_srai_epi32(k, 1), k2 = _mm_sub_epi32(k, k1);
    p = _mm_mul_ps(p, _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(k1, _mm_set1_epi32(127)), 23)));
    return _mm_mul_ps(p, _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(k2, _mm_set1_epi32(127)), 23)));
}
static DNNLK__FORCEINLINE void dnnlk__vec_prefetch_l1_sse41(const void *p, size_t bytes) {
    size_t k;
    for (k = 0; k < bytes; k += 64) _mm_prefetch((const char *)p + k, _MM_HINT_T0);
}

/* The four step-2 reads around p (vec.h's dnnlk__vd_load_x2). */
static DNNLK__FORCEINLINE void dnnlk__vd_load_x2_sse41(const double *p, __m128d *r) {
    const __m128d a = _mm_loadu_pd(p), b = _mm_loadu_pd(p + 2);
    r[1] = _mm_unpacklo_pd(a, b);
    r[2] = _mm_unpackhi_pd(a, b);
    r[0] = _mm_unpacklo_pd(_mm_load_sd(p - 1), r[2]);
    r[3] = _mm_loadh_pd(b, p + 4);
}

/* == quant, resize: s32 lanes narrowed to bytes == */
/* Four vectors of s32 in [-128, 255] -> their low bytes, in order. packs_epi32 is exact on that
 * range; masking to the low byte makes packus a truncation. */
static DNNLK__FORCEINLINE __m128i dnnlk__vi_pack4_u8_sse41(__m128i a, __m128i b, __m128i c, __m128i d) {
    __m128i m = _mm_set1_epi16(0xff);
    __m128i ab = _mm_and_si128(_mm_packs_epi32(a, b), m), cd = _mm_and_si128(_mm_packs_epi32(c, d), m);
    return _mm_packus_epi16(ab, cd);
}
/* Four compares' lanes (all ones / zero) as 0/1 bytes, in order: the saturating packs keep -1 and 0. */
static DNNLK__FORCEINLINE __m128i dnnlk__vmask_pack4_u8_sse41(__m128 a, __m128 b, __m128 c, __m128 d) {
    __m128i ab = _mm_packs_epi32(_mm_castps_si128(a), _mm_castps_si128(b));
    __m128i cd = _mm_packs_epi32(_mm_castps_si128(c), _mm_castps_si128(d));
    return _mm_and_si128(_mm_packs_epi16(ab, cd), _mm_set1_epi8(1));
}
/* Four vectors of s32 -> s16 saturated, + z saturated, -> s8 (sgn) or u8 saturated, in order. */
static DNNLK__FORCEINLINE __m128i dnnlk__vi_pack4_sat_i8_sse41(__m128i a, __m128i b, __m128i c, __m128i d, int16_t z,
                                                               int sgn) {
    __m128i zz = _mm_set1_epi16(z);
    __m128i ab = _mm_adds_epi16(_mm_packs_epi32(a, b), zz), cd = _mm_adds_epi16(_mm_packs_epi32(c, d), zz);
    return sgn ? _mm_packs_epi16(ab, cd) : _mm_packus_epi16(ab, cd);
}
/* The low byte of each of the 4 lanes -> 4 bytes at p. */
static DNNLK__FORCEINLINE void dnnlk__vi_store_u8_sse41(void *p, __m128i v) {
    __m128i b = _mm_shuffle_epi8(v, _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    int32_t w = _mm_cvtsi128_si32(b);
    memcpy(p, &w, 4);
}
static DNNLK__FORCEINLINE __m128 dnnlk__vf_sub_round_even_sse41(__m128 a) {
    return _mm_sub_ps(a, _mm_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
static DNNLK__FORCEINLINE __m128i dnnlk__vf_to_vi_round_even_sse41(__m128 a) {
    return _mm_cvttps_epi32(_mm_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
/* Lane l of the result is lane idx[l] of v: a byte shuffle taking bytes 4*idx .. 4*idx+3. */
static DNNLK__FORCEINLINE __m128 dnnlk__vf_permute_sse41(__m128 v, __m128i idx) {
    __m128i ctl = _mm_add_epi32(_mm_mullo_epi32(idx, _mm_set1_epi32(0x04040404)), _mm_set1_epi32(0x03020100));
    return _mm_castsi128_ps(_mm_shuffle_epi8(_mm_castps_si128(v), ctl));
}
/* Lanes of a:b: two byte shuffles, each zeroing (bit 7 of the control) the lanes the other one
 * takes (pshufb reads the low 4 bits of 4*idx+k, so b's lanes need no offset), then an or. */
typedef struct dnnlk__vperm2_sse41 {
    __m128i from_a, from_b;
} dnnlk__vperm2_sse41;
static DNNLK__FORCEINLINE dnnlk__vperm2_sse41 dnnlk__vperm2_index_sse41(const int32_t *p) {
    __m128i idx = _mm_loadu_si128((const __m128i *)(const void *)p), top = _mm_set1_epi32((int)0x80808080u);
    __m128i ctl = _mm_add_epi32(_mm_mullo_epi32(idx, _mm_set1_epi32(0x04040404)), _mm_set1_epi32(0x03020100));
    __m128i in_b = _mm_cmpgt_epi32(idx, _mm_set1_epi32(3));
    dnnlk__vperm2_sse41 ix;
    ix.from_a = _mm_or_si128(ctl, _mm_and_si128(in_b, top));
    ix.from_b = _mm_or_si128(ctl, _mm_andnot_si128(in_b, top));
    return ix;
}
static DNNLK__FORCEINLINE __m128i dnnlk__vi_permute2_sse41(__m128i a, __m128i b, dnnlk__vperm2_sse41 ix) {
    return _mm_or_si128(_mm_shuffle_epi8(a, ix.from_a), _mm_shuffle_epi8(b, ix.from_b));
}
static DNNLK__FORCEINLINE __m128 dnnlk__vf_gather_sse41(const float *p, const int32_t *idx) {
    return _mm_setr_ps(p[idx[0]], p[idx[1]], p[idx[2]], p[idx[3]]);
}

/* == vmath: what the math bodies ask of a level == */
/* An 8-entry table read by lane index (bits 0..2): pshufb picks bytes 4i..4i+3 of either half of
 * the table, a blend picks the half; the byte indices are prepared once for several tables. */
typedef struct dnnlk__vlut8_sse41 { __m128i b; __m128 hi; } dnnlk__vlut8_sse41;
static DNNLK__FORCEINLINE dnnlk__vlut8_sse41 dnnlk__vlut8_index_sse41(__m128i idx) {
    dnnlk__vlut8_sse41 r;
    idx = _mm_and_si128(idx, _mm_set1_epi32(7));
    r.b = _mm_add_epi32(_mm_mullo_epi32(_mm_and_si128(idx, _mm_set1_epi32(3)), _mm_set1_epi32(0x04040404)),
                        _mm_set1_epi32(0x03020100));
    r.hi = _mm_castsi128_ps(_mm_cmpgt_epi32(idx, _mm_set1_epi32(3)));
    return r;
}
static DNNLK__FORCEINLINE __m128 dnnlk__vf_lut8_sse41(const float *t, dnnlk__vlut8_sse41 ix) {
    __m128i lo = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)t), ix.b);
    __m128i hi = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(t + 4)), ix.b);
    return _mm_blendv_ps(_mm_castsi128_ps(lo), _mm_castsi128_ps(hi), ix.hi);
}
/* == convert: transposes of 32-bit elements == */
/* 4x4: two rounds of interleaves (integer ones: the bits move as they are, NaN payloads too). */
static DNNLK__FORCEINLINE void dnnlk__v32_transpose_sse41(void *d, int64_t dp, const void *s, int64_t sp, int nt) {
    const char *sc = (const char *)s;
    char *dc = (char *)d;
    __m128i r0 = _mm_loadu_si128((const __m128i *)(const void *)sc), r1 = _mm_loadu_si128((const __m128i *)(const void *)(sc + sp));
    __m128i r2 = _mm_loadu_si128((const __m128i *)(const void *)(sc + 2 * sp)), r3 = _mm_loadu_si128((const __m128i *)(const void *)(sc + 3 * sp));
    __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpackhi_epi32(r0, r1);
    __m128i t2 = _mm_unpacklo_epi32(r2, r3), t3 = _mm_unpackhi_epi32(r2, r3);
    /* named values, not a loop over an array (vec_avx512.h's transpose says why) */
    __m128i o0 = _mm_unpacklo_epi64(t0, t2), o1 = _mm_unpackhi_epi64(t0, t2);
    __m128i o2 = _mm_unpacklo_epi64(t1, t3), o3 = _mm_unpackhi_epi64(t1, t3);
    if (nt) {
        _mm_stream_si128((__m128i *)(void *)dc, o0), _mm_stream_si128((__m128i *)(void *)(dc + dp), o1);
        _mm_stream_si128((__m128i *)(void *)(dc + 2 * dp), o2), _mm_stream_si128((__m128i *)(void *)(dc + 3 * dp), o3);
    } else {
        _mm_storeu_si128((__m128i *)(void *)dc, o0), _mm_storeu_si128((__m128i *)(void *)(dc + dp), o1);
        _mm_storeu_si128((__m128i *)(void *)(dc + 2 * dp), o2), _mm_storeu_si128((__m128i *)(void *)(dc + 3 * dp), o3);
    }
}
/* == convert: interleaves of 1-, 2- and 4-byte elements (hi: of the upper halves) == */
static DNNLK__FORCEINLINE __m128i dnnlk__vb_zip_sse41(__m128i a, __m128i b, int es, int hi) {
    switch (es) {
    case 1: return hi ? _mm_unpackhi_epi8(a, b) : _mm_unpacklo_epi8(a, b);
    case 2: return hi ? _mm_unpackhi_epi16(a, b) : _mm_unpacklo_epi16(a, b);
    default: return hi ? _mm_unpackhi_epi32(a, b) : _mm_unpacklo_epi32(a, b);
    }
}
#endif

#define DNNLK__VF_N 4
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 0          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 0  /* an 8-entry float table read by one register permute */
#define DNNLK__VEC_STREAM_LINES 1 /* streamed lines go out whole only if written back to back (x86 write-combining) */
#define dnnlk__vf __m128
#define dnnlk__vi __m128i
#define dnnlk__vmask __m128
#define dnnlk__vf_loadu(p) _mm_loadu_ps(p)
#define dnnlk__vf_loadu_scan(p) _mm_loadu_ps(p)
#define dnnlk__vf_storeu(p, v) _mm_storeu_ps((p), (v))
#define dnnlk__vf_stream(p, v) _mm_stream_ps((p), (v))
#define dnnlk__vf_loadu_n dnnlk__vf_loadu_n_sse41
#define dnnlk__vf_storeu_n dnnlk__vf_storeu_n_sse41
#define dnnlk__vf_set1(x) _mm_set1_ps(x)
#define dnnlk__vf_zero() _mm_setzero_ps()
#define dnnlk__vf_add(a, b) _mm_add_ps((a), (b))
#define dnnlk__vf_sub(a, b) _mm_sub_ps((a), (b))
#define dnnlk__vf_mul(a, b) _mm_mul_ps((a), (b))
#define dnnlk__vf_div(a, b) _mm_div_ps((a), (b))
#define dnnlk__vf_fmadd(a, b, c) _mm_add_ps(_mm_mul_ps((a), (b)), (c))
#define dnnlk__vf_nofuse(v) __asm__("" : "+x"(v))
#define dnnlk__vf_min(a, b) _mm_min_ps((a), (b))
#define dnnlk__vf_max(a, b) _mm_max_ps((a), (b))
#define dnnlk__vf_sqrt(a) _mm_sqrt_ps(a)
#define dnnlk__vf_and(a, b) _mm_and_ps((a), (b))
#define dnnlk__vf_or(a, b) _mm_or_ps((a), (b))
#define dnnlk__vf_xor(a, b) _mm_xor_ps((a), (b))
#define dnnlk__vf_round_even(a) _mm_round_ps((a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dnnlk__vf_floor(a) _mm_round_ps((a), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define dnnlk__vf_cmplt(a, b) _mm_cmplt_ps((a), (b))
#define dnnlk__vf_cmple(a, b) _mm_cmple_ps((a), (b))
#define dnnlk__vf_cmpgt(a, b) _mm_cmpgt_ps((a), (b))
#define dnnlk__vf_cmpge(a, b) _mm_cmpge_ps((a), (b))
#define dnnlk__vf_cmpeq(a, b) _mm_cmpeq_ps((a), (b))
#define dnnlk__vf_cmpunord(a, b) _mm_cmpunord_ps((a), (b))
#define dnnlk__vmask_bits(m) ((unsigned)_mm_movemask_ps(m))
#define dnnlk__vf_blend(m, t, f) _mm_blendv_ps((f), (t), (m))
#define dnnlk__vf_load_bf16 dnnlk__vf_load_bf16_sse41
#define dnnlk__vf_store_bf16 dnnlk__vf_store_bf16_sse41
#define dnnlk__vf_pack2_bf16 dnnlk__vf_pack2_bf16_sse41
#define dnnlk__vf_load_f16 dnnlk__vf_load_f16_sse41
#define dnnlk__vf_store_f16 dnnlk__vf_store_f16_sse41
#define dnnlk__vf_pack2_f16 dnnlk__vf_pack2_f16_sse41
#define dnnlk__vi_loadu(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define dnnlk__vi_storeu(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vi_set1(x) _mm_set1_epi32(x)
#define dnnlk__vi_add(a, b) _mm_add_epi32((a), (b))
#define dnnlk__vi_sub(a, b) _mm_sub_epi32((a), (b))
#define dnnlk__vi_mullo(a, b) _mm_mullo_epi32((a), (b))
#define dnnlk__vi_and(a, b) _mm_and_si128((a), (b))
#define dnnlk__vi_or(a, b) _mm_or_si128((a), (b))
#define dnnlk__vi_xor(a, b) _mm_xor_si128((a), (b))
#define dnnlk__vi_slli(a, n) _mm_slli_epi32((a), (n))
#define dnnlk__vi_srli(a, n) _mm_srli_epi32((a), (n))
#define dnnlk__vi_srai(a, n) _mm_srai_epi32((a), (n))
#define dnnlk__vf_as_vi(a) _mm_castps_si128(a)
#define dnnlk__vi_as_vf(a) _mm_castsi128_ps(a)
#define dnnlk__vi_to_vf(a) _mm_cvtepi32_ps(a)
#define dnnlk__vf_to_vi_trunc(a) _mm_cvttps_epi32(a)
#define dnnlk__vi_load_i8 dnnlk__vi_load_i8_sse41
#define dnnlk__vi_min(a, b) _mm_min_epi32((a), (b))
#define dnnlk__vi_max(a, b) _mm_max_epi32((a), (b))
#define dnnlk__vi_cmpeq(a, b) _mm_castsi128_ps(_mm_cmpeq_epi32((a), (b)))
#define dnnlk__vi_cmpgt(a, b) _mm_castsi128_ps(_mm_cmpgt_epi32((a), (b)))
#define dnnlk__vi_blend(m, t, f) _mm_blendv_epi8((f), (t), _mm_castps_si128(m))
#define dnnlk__vf_cmpnle(a, b) _mm_cmpnle_ps((a), (b))
#define dnnlk__vf_cmpnge(a, b) _mm_cmpnge_ps((a), (b))
#define dnnlk__vf_cmpord(a, b) _mm_cmpord_ps((a), (b))
#define dnnlk__vmask_and(a, b) _mm_and_ps((a), (b))
#define dnnlk__vmask_or(a, b) _mm_or_ps((a), (b))
#define dnnlk__vi_store(p, v) _mm_store_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vi_stream(p, v) _mm_stream_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vec_sfence() _mm_sfence()
#define dnnlk__vec_prefetch_l2(p, bytes) dnnlk__prefetch_l2((p), (bytes))
#define DNNLK__VT_N 4 /* the side of dnnlk__v32_transpose's tiles */
#define dnnlk__v32_transpose dnnlk__v32_transpose_sse41
#define dnnlk__vb_ziplo_elem(a, b, es) dnnlk__vb_zip_sse41((a), (b), (es), 0)
#define dnnlk__vb_ziphi_elem(a, b, es) dnnlk__vb_zip_sse41((a), (b), (es), 1)

/* ---- beyond the f32/s32 basics (names), in the sections above ---- */
/* == select: byte and 16-bit lanes == */
#define DNNLK__VB_N 16
#define DNNLK__VEC_MASKED_BYTES 0 /* byte-granular masked loads and stores (else: an emulation) */
#define dnnlk__vb __m128i
#define dnnlk__vmask_vb __m128i
#define dnnlk__vb_loadu(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define dnnlk__vb_storeu(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vb_stream(p, v) _mm_stream_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vb_set1_elem dnnlk__vb_set1_elem_sse41
#define dnnlk__vb_cond_elem dnnlk__vb_cond_elem_sse41
#define dnnlk__vb_blend_elem(m, t, f, es) _mm_blendv_epi8((t), (f), (m))
#define dnnlk__vb_loadu_n_elem dnnlk__vb_loadu_n_elem_sse41
#define dnnlk__vb_storeu_n_elem dnnlk__vb_storeu_n_elem_sse41
#define dnnlk__vb_cond_n_elem dnnlk__vb_cond_n_elem_sse41
#define dnnlk__vb_permute16 dnnlk__vb_permute16_sse41

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
#define DNNLK__VQ_N 2
#define DNNLK__VEC_CMP_TO_BITS 0 /* compares give bits and bits deposit cheaply (k-masks, pdep) */
#define dnnlk__vq __m128i
#define dnnlk__vq_loadu(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define dnnlk__vq_storeu(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vq_part_vi(v, j) (v)
#define dnnlk__vq_set1_64(x) _mm_set1_epi64x((long long)(x))
#define dnnlk__vq_set1_32(x) _mm_set1_epi32((int)(x))
#define dnnlk__vq_and(a, b) _mm_and_si128((a), (b))
#define dnnlk__vq_or(a, b) _mm_or_si128((a), (b))
#define dnnlk__vq_xor(a, b) _mm_xor_si128((a), (b))
#define dnnlk__vq_xor3(a, b, c) _mm_xor_si128(_mm_xor_si128((a), (b)), (c))
#define dnnlk__vq_add64(a, b) _mm_add_epi64((a), (b))
#define dnnlk__vq_srli64(a, n) _mm_srli_epi64((a), (n))
#define dnnlk__vq_slli64(a, n) _mm_slli_epi64((a), (n))
#define dnnlk__vq_add32(a, b) _mm_add_epi32((a), (b))
#define dnnlk__vq_sub32(a, b) _mm_sub_epi32((a), (b))
#define dnnlk__vq_srli32(a, n) _mm_srli_epi32((a), (n))
#define dnnlk__vq_slli32(a, n) _mm_slli_epi32((a), (n))
#define dnnlk__vq_min32_u(a, b) _mm_min_epu32((a), (b))
#define dnnlk__vq_mul_even_u32(a, b) _mm_mul_epu32((a), (b))
#define dnnlk__vq_hi_down32(a) _mm_shuffle_epi32((a), 0xF5)
#define dnnlk__vq_blend_odd32(a, b) _mm_blend_epi16((a), (b), 0xCC)
#define dnnlk__vq_pack_lo32(a, b) _mm_blend_epi16((a), _mm_slli_epi64((b), 32), 0xCC)
#define dnnlk__vq_unpacklo32(a, b) _mm_unpacklo_epi32((a), (b))
#define dnnlk__vq_unpackhi32(a, b) _mm_unpackhi_epi32((a), (b))
#define dnnlk__vq_unpacklo64(a, b) _mm_unpacklo_epi64((a), (b))
#define dnnlk__vq_unpackhi64(a, b) _mm_unpackhi_epi64((a), (b))
#define dnnlk__vq_lane0_u32(a) ((uint32_t)_mm_cvtsi128_si32(a))
#define dnnlk__vq_cmplt32_bits(a, b) ((uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32((b), (a)))))
#define dnnlk__vq_cmplt32_u_bits dnnlk__vq_cmplt32_u_bits_sse41
#define dnnlk__vq_cmplt64_u_rhs(t) _mm_xor_si128(_mm_set1_epi64x((long long)(t)), _mm_set1_epi32(INT32_MIN))
#define dnnlk__vq_cmplt64_u_bits dnnlk__vq_cmplt64_u_bits_sse41
#define dnnlk__vqmask __m128i
#define dnnlk__vq_cmpeq64(a, b) _mm_cmpeq_epi64((a), (b))
#define dnnlk__vq_cmplt64 dnnlk__vq_cmplt64_sse41
#define dnnlk__vqmask_pack8_u8 dnnlk__vqmask_pack8_u8_sse41
#define dnnlk__vi_bitselect(m, a, b) _mm_or_si128(_mm_and_si128((a), (m)), _mm_andnot_si128((m), (b)))
#define dnnlk__vi_xor_if_odd(r, t, k) \
    _mm_xor_si128((r), _mm_and_si128(_mm_srai_epi32(_mm_slli_epi32((t), 31), 31), (k)))
#define dnnlk__vi_bf16_rne_bits(u) \
    _mm_add_epi32(_mm_add_epi32((u), _mm_set1_epi32(0x7fff)), _mm_and_si128(_mm_srli_epi32((u), 16), _mm_set1_epi32(1)))
#define dnnlk__vf_maskz_bits dnnlk__vf_maskz_bits_sse41
#define dnnlk__vf_maskz_bits_even dnnlk__vf_maskz_bits_even_sse41
#define dnnlk__vf_maskz_bits_odd dnnlk__vf_maskz_bits_odd_sse41
#define dnnlk__u64_deposit dnnlk__u64_deposit_portable /* no BMI2 at this level */

/* == softmax, norm: f64 lanes == */
#define DNNLK__VD_N 2
#define DNNLK__VEC_SCALEF 0 /* dnnlk__vf_scalef is one instruction for any n (else n in [-252, 252]) */
#define dnnlk__vd __m128d
#define dnnlk__vd_zero() _mm_setzero_pd()
#define dnnlk__vd_add(a, b) _mm_add_pd((a), (b))
#define dnnlk__vd_storeu(p, v) _mm_storeu_pd((p), (v))
#define dnnlk__vd_from_vf dnnlk__vd_from_vf_sse41
#define dnnlk__vd_loadu(p) _mm_loadu_pd(p)
#define dnnlk__vd_set1(x) _mm_set1_pd(x)
#define dnnlk__vd_mul(a, b) _mm_mul_pd((a), (b))
#define dnnlk__vd_gather(p, idx) _mm_setr_pd((p)[(idx)[0]], (p)[(idx)[1]])
#define dnnlk__vd_load_even(p) _mm_unpacklo_pd(_mm_loadu_pd(p), _mm_loadu_pd((p) + 2))
#define dnnlk__vd_load_x2 dnnlk__vd_load_x2_sse41
#define dnnlk__vd_load_f32(p) _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)(p))))
#define dnnlk__vd_store_f32(p, v) _mm_storel_pi((__m64 *)(void *)(p), _mm_cvtpd_ps(v))
#define dnnlk__vf_hmax dnnlk__vf_hmax_sse41
#define dnnlk__vf_cmpneq(a, b) _mm_cmpneq_ps((a), (b))
#define dnnlk__vf_cmpnlt_in(m, a, b) _mm_and_ps((m), _mm_cmpnlt_ps((a), (b)))
#define dnnlk__vmask_ones() _mm_castsi128_ps(_mm_set1_epi32(-1))
#define dnnlk__vi_test_in(m, a, b) _mm_andnot_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128((a), (b)), _mm_setzero_si128())), (m))
#define dnnlk__vi_cmpgt_in(m, a, b) _mm_and_ps((m), _mm_castsi128_ps(_mm_cmpgt_epi32((a), (b))))
#define dnnlk__vmask_count dnnlk__vmask_count_sse41
#define dnnlk__vf_scalef dnnlk__vf_scalef_sse41
#define dnnlk__vf_maskz_scalef(m, p, n) _mm_blendv_ps(_mm_setzero_ps(), dnnlk__vf_scalef_sse41((p), (n)), (m))
#define dnnlk__vec_prefetch_l1 dnnlk__vec_prefetch_l1_sse41

/* == quant, resize: s32 lanes narrowed to bytes == */
#define DNNLK__VEC_REDUCE 0 /* dnnlk__vf_sub_round_even: a - round_even(a) (NaN for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 0 /* a vector division costs several multiplies */
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_sse41
#define dnnlk__vmask_pack4_u8 dnnlk__vmask_pack4_u8_sse41
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_sse41
#define dnnlk__vi_store_u8 dnnlk__vi_store_u8_sse41
#define dnnlk__vf_sub_round_even dnnlk__vf_sub_round_even_sse41
#define dnnlk__vf_to_vi_round_even dnnlk__vf_to_vi_round_even_sse41
#define dnnlk__vf_permute dnnlk__vf_permute_sse41
#define dnnlk__vf_ziplo(a, b) _mm_unpacklo_ps((a), (b))
#define dnnlk__vf_ziphi(a, b) _mm_unpackhi_ps((a), (b))
#define dnnlk__vf_gather dnnlk__vf_gather_sse41
#define dnnlk__vperm2 dnnlk__vperm2_sse41
#define dnnlk__vperm2_index dnnlk__vperm2_index_sse41
#define dnnlk__vi_permute2 dnnlk__vi_permute2_sse41

/* == vmath: what the math bodies ask of a level == */
#define DNNLK__VEC_LUT32 0   /* no 32-entry register table */
#if defined(__FMA__) && (defined(__GNUC__) || defined(__clang__))
/* the includer's flags enable FMA (e.g. -march=native): the hardware is there, and the compiler
 * may fuse the products of a Dekker split, which breaks its exactness: take the error directly */
#define DNNLK__VEC_PROD_ERR 1
#define dnnlk__vf_prod_err(a, b, p) _mm_fmadd_ps((a), (b), _mm_xor_ps((p), _mm_set1_ps(-0.0f)))
#else
#define DNNLK__VEC_PROD_ERR 0
#endif
#define dnnlk__vlut8 dnnlk__vlut8_sse41
#define dnnlk__vlut8_index dnnlk__vlut8_index_sse41
#define dnnlk__vf_lut8 dnnlk__vf_lut8_sse41
#define dnnlk__vf_fmsub(a, b, c) _mm_sub_ps(_mm_mul_ps((a), (b)), (c))
#define dnnlk__vf_fnmadd(a, b, c) _mm_sub_ps((c), _mm_mul_ps((a), (b)))
#define dnnlk__vf_fnmsub(a, b, c) _mm_sub_ps(_mm_xor_ps(_mm_mul_ps((a), (b)), _mm_set1_ps(-0.0f)), (c))
#define dnnlk__vf_max_neg0(x) _mm_max_ps(_mm_set1_ps(-0.0f), (x))

/* == scans == */
#define dnnlk__vs_max(a, b) _mm_max_ps((a), (b))
#define dnnlk__vs_min(a, b) _mm_min_ps((a), (b))
#define dnnlk__vs_any_nle(a, b) _mm_movemask_ps(_mm_cmpnle_ps((a), (b)))
#define dnnlk__vs_any_nlt(a, b) _mm_movemask_ps(_mm_cmpnlt_ps((a), (b)))
