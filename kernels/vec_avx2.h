/* dnnl_kernels — vec_avx2.h: the vector layer (vec.h's API) at AVX2 (+FMA, F16C): 8 f32 / s32
 * lanes, masks as lane vectors. No include guard: vec.h includes it inside the AVX2 target region
 * (DNNLK__ISA 2); vec_end.h removes the names. */

#if DNNLK__ISA != 2
#error "vec_avx2.h is included through vec.h with DNNLK__ISA 2"
#endif

#ifndef DNNLK__VEC_FUNCS_2
#define DNNLK__VEC_FUNCS_2
static DNNLK__FORCEINLINE __m256i dnnlk__lanes_below_avx2(size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static DNNLK__FORCEINLINE __m256 dnnlk__vf_loadu_n_avx2(const float *p, size_t n) {
    return _mm256_maskload_ps(p, dnnlk__lanes_below_avx2(n));
}
static DNNLK__FORCEINLINE void dnnlk__vf_storeu_n_avx2(float *p, __m256 v, size_t n) {
    _mm256_maskstore_ps(p, dnnlk__lanes_below_avx2(n), v);
}
static DNNLK__FORCEINLINE __m256 dnnlk__vf_load_bf16_avx2(const uint16_t *p) {
    __m128i h = _mm_loadu_si128((const __m128i *)(const void *)p);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}
static DNNLK__FORCEINLINE __m256i dnnlk__vf_to_bf16_bits_avx2(__m256 v) {
    __m256i u = _mm256_castps_si256(v);
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)), lsb), 16);
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    __m256i q = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
    return _mm256_blendv_epi8(r, q, nan);
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_bf16_avx2(uint16_t *p, __m256 v) {
    __m256i b = dnnlk__vf_to_bf16_bits_avx2(v);
    __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
    _mm_storeu_si128((__m128i *)(void *)p, packed);
}
/* a then b as 16 bf16 in memory order: packusdw within 128-bit halves (qwords a0 b0 a1 b1), then a
 * qword permute */
static DNNLK__FORCEINLINE __m256i dnnlk__vf_pack2_bf16_avx2(__m256 a, __m256 b) {
    __m256i p = _mm256_packus_epi32(dnnlk__vf_to_bf16_bits_avx2(a), dnnlk__vf_to_bf16_bits_avx2(b));
    return _mm256_permute4x64_epi64(p, 0xD8);
}
/* 8 bytes -> 8 int32 lanes, sign- (sgn) or zero-extended. */
static DNNLK__FORCEINLINE __m256i dnnlk__vi_load_i8_avx2(const void *p, int sgn) {
    __m128i b = _mm_loadl_epi64((const __m128i *)p);
    return sgn ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
}
static DNNLK__FORCEINLINE __m256 dnnlk__vf_load_f16_avx2(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_f16_avx2(uint16_t *p, __m256 v) {
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
static DNNLK__FORCEINLINE __m256i dnnlk__vf_pack2_f16_avx2(__m256 a, __m256 b) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)),
                                   _mm256_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), 1);
}

/* ---- beyond the f32/s32 basics, by kind (each section names the bodies that use it first) ---- */
/* == select: byte and 16-bit lanes == */
/* Byte lanes: a mask over es-byte lanes is a lane vector, all ones where the lane is NOT
 * selected (pcmpeqb against zero, widened with pmovsx), which drives pblendvb directly. */
static DNNLK__FORCEINLINE __m256i dnnlk__vb_set1_elem_avx2(const void *p, int es) {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (es) {
    case 1: memcpy(&u8, p, 1); return _mm256_set1_epi8((char)u8);
    case 2: memcpy(&u16, p, 2); return _mm256_set1_epi16((short)u16);
    case 4: memcpy(&u32, p, 4); return _mm256_set1_epi32((int)u32);
    default: memcpy(&u64, p, 8); return _mm256_set1_epi64x((long long)u64);
    }
}
/* The cond of the W/es lanes from W/es bytes at c. */
static DNNLK__FORCEINLINE __m256i dnnlk__vb_cond_elem_avx2(const unsigned char *c, int es) {
    uint32_t u32;
    __m128i x;
    switch (es) {
    case 1: return _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)c), _mm256_setzero_si256());
    case 2:
        x = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)c), _mm_setzero_si128());
        return _mm256_cvtepi8_epi16(x);
    case 4:
        x = _mm_cmpeq_epi8(_mm_loadl_epi64((const __m128i *)(const void *)c), _mm_setzero_si128());
        return _mm256_cvtepi8_epi32(x);
    default:
        memcpy(&u32, c, 4);
        x = _mm_cmpeq_epi8(_mm_cvtsi32_si128((int)u32), _mm_setzero_si128());
        return _mm256_cvtepi8_epi64(x);
    }
}
/* Partial vectors (no byte-granular masked access at this level): through a buffer. */
static DNNLK__FORCEINLINE __m256i dnnlk__vb_loadu_n_elem_avx2(const void *p, size_t n, int es) {
    unsigned char t[32] = {0};
    memcpy(t, p, n * (size_t)es);
    return _mm256_loadu_si256((const __m256i *)(const void *)(t));
}
static DNNLK__FORCEINLINE void dnnlk__vb_storeu_n_elem_avx2(void *p, __m256i v, size_t n, int es) {
    unsigned char t[32];
    _mm256_storeu_si256((__m256i *)(void *)t, v);
    memcpy(p, t, n * (size_t)es);
}
static DNNLK__FORCEINLINE __m256i dnnlk__vb_cond_n_elem_avx2(const unsigned char *c, size_t n, int es) {
    unsigned char t[32] = {0};
    memcpy(t, c, n);
    return dnnlk__vb_cond_elem_avx2(t, es);
}
static DNNLK__FORCEINLINE void dnnlk__vb_permute16_avx2(void *out, const void *in, const unsigned char *idx) {
    __m128i v = _mm_loadu_si128((const __m128i *)in);
    _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(v, _mm_loadu_si128((const __m128i *)(const void *)idx)));
}

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
static DNNLK__FORCEINLINE uint64_t dnnlk__vq_cmplt32_u_bits_avx2(__m256i a, __m256i b) {
    const __m256i bias = _mm256_set1_epi32(INT32_MIN);
    __m256i lt = _mm256_cmpgt_epi32(_mm256_xor_si256(b, bias), _mm256_xor_si256(a, bias));
    return (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(lt));
}
/* a < rhs on 64-bit lanes, rhs from dnnlk__vq_cmplt64_u_rhs (biased by 2^63: a signed compare). */
static DNNLK__FORCEINLINE uint64_t dnnlk__vq_cmplt64_u_bits_avx2(__m256i a, __m256i rhs) {
    const __m256i bias = _mm256_set1_epi64x(INT64_MIN);
    return (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(rhs, _mm256_xor_si256(a, bias))));
}
/* Eight masks of 4 qwords: their sign bits (32 of them) in a word, then byte j gets byte j / 8 of
 * it (the word is in every dword, so the in-lane shuffle reaches bytes 2 and 3 from the upper half
 * too) and keeps its bit j % 8. */
#define DNNLK__VQ_BITS4(k) ((uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(k)))
static DNNLK__FORCEINLINE __m256i dnnlk__vqmask_pack8_u8_avx2(__m256i m0, __m256i m1, __m256i m2, __m256i m3, __m256i m4,
                                                             __m256i m5, __m256i m6, __m256i m7) {
    const uint32_t m = DNNLK__VQ_BITS4(m0) | DNNLK__VQ_BITS4(m1) << 4 | DNNLK__VQ_BITS4(m2) << 8 | DNNLK__VQ_BITS4(m3) << 12 |
                       DNNLK__VQ_BITS4(m4) << 16 | DNNLK__VQ_BITS4(m5) << 20 | DNNLK__VQ_BITS4(m6) << 24 |
                       DNNLK__VQ_BITS4(m7) << 28;
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
                                            3, 3, 3, 3, 3, 3);
    __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)(uint32_t)m), spread);
    v = _mm256_and_si256(v, _mm256_set1_epi64x((long long)0x8040201008040201ull));
    return _mm256_min_epu8(v, _mm256_set1_epi8(1));
}
#undef DNNLK__VQ_BITS4
static DNNLK__FORCEINLINE __m256 dnnlk__vf_maskz_bits_avx2(uint32_t b, __m256 v) {
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i m = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(b & 0xffu)), sel), sel);
    return _mm256_and_ps(_mm256_castsi256_ps(m), v);
}
static DNNLK__FORCEINLINE __m256 dnnlk__vf_maskz_bits_even_avx2(uint32_t b, __m256 v) {
    const __m256i se = _mm256_setr_epi32(1, 4, 16, 64, 256, 1024, 4096, 16384);
    __m256i m = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(b & 0xffffu)), se), se);
    return _mm256_and_ps(_mm256_castsi256_ps(m), v);
}
static DNNLK__FORCEINLINE __m256 dnnlk__vf_maskz_bits_odd_avx2(uint32_t b, __m256 v) {
    const __m256i so = _mm256_slli_epi32(_mm256_setr_epi32(1, 4, 16, 64, 256, 1024, 4096, 16384), 1);
    __m256i m = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(b & 0xffffu)), so), so);
    return _mm256_and_ps(_mm256_castsi256_ps(m), v);
}

/* == softmax, norm: f64 lanes == */
/* f32 lanes [4h, 4h + 4) of v as f64 (h a constant, 0 or 1). */
static DNNLK__FORCEINLINE __m256d dnnlk__vd_from_vf_avx2(__m256 v, int h) {
    return _mm256_cvtps_pd(h ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v));
}
/* A tree of shuffles (max is exact: any order gives the same value, up to the sign of a zero). */
static DNNLK__FORCEINLINE float dnnlk__vf_hmax_avx2(__m256 v) {
    __m128 a = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    a = _mm_max_ps(a, _mm_movehl_ps(a, a));
    a = _mm_max_ss(a, _mm_shuffle_ps(a, a, 1));
    return _mm_cvtss_f32(a);
}
/* p * 2^n, n integral in [-252, 252]: two normal power-of-2 factors, so a result in the subnormal
 * range is rounded once (by the second product), as scalef rounds it. */
static DNNLK__FORCEINLINE __m256 dnnlk__vf_scalef_avx2(__m256 p, __m256 n) {
    __m256i k = _mm256_cvttps_epi32(n), k1 = _mm256_srai_epi32(k, 1), k2 = _mm256_sub_epi32(k, k1);
    p = _mm256_mul_ps(p, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k1, _mm256_set1_epi32(127)), 23)));
    return _mm256_mul_ps(p, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k2, _mm256_set1_epi32(127)), 23)));
}
static DNNLK__FORCEINLINE void dnnlk__vec_prefetch_l1_avx2(const void *p, size_t bytes) {
    size_t k;
    for (k = 0; k < bytes; k += 64) _mm_prefetch((const char *)p + k, _MM_HINT_T0);
}

/* The four step-2 reads around p (vec.h's dnnlk__vd_load_x2): two loads and two broadcasts
 * where four dnnlk__vd_load_even are eight loads. */
static DNNLK__FORCEINLINE void dnnlk__vd_load_x2_avx2(const double *p, __m256d *r) {
    const __m256d a = _mm256_loadu_pd(p), b = _mm256_loadu_pd(p + 4);
    const __m256d ev = _mm256_permute4x64_pd(_mm256_unpacklo_pd(a, b), 0xd8); /* p0 p2 p4 p6 */
    const __m256d od = _mm256_permute4x64_pd(_mm256_unpackhi_pd(a, b), 0xd8); /* p1 p3 p5 p7 */
    r[0] = _mm256_blend_pd(_mm256_permute4x64_pd(od, 0x93), _mm256_broadcast_sd(p - 1), 1); /* p-1 p1 p3 p5 */
    r[1] = ev;
    r[2] = od;
    r[3] = _mm256_blend_pd(_mm256_permute4x64_pd(ev, 0x39), _mm256_broadcast_sd(p + 8), 8); /* p2 p4 p6 p8 */
}

/* == quant, resize: s32 lanes narrowed to bytes == */
/* as dnnlk__vi_pack4_u8_sse41; packs work within 128-bit halves (dwords a0 b0 c0 d0 a1 b1 c1 d1),
 * so a dword permute puts them in order */
static DNNLK__FORCEINLINE __m256i dnnlk__vi_pack4_u8_avx2(__m256i a, __m256i b, __m256i c, __m256i d) {
    __m256i m = _mm256_set1_epi16(0xff);
    __m256i ab = _mm256_and_si256(_mm256_packs_epi32(a, b), m), cd = _mm256_and_si256(_mm256_packs_epi32(c, d), m);
    return _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
/* as dnnlk__vmask_pack4_u8_sse41, then the dword permute of dnnlk__vi_pack4_u8_avx2 */
static DNNLK__FORCEINLINE __m256i dnnlk__vmask_pack4_u8_avx2(__m256 a, __m256 b, __m256 c, __m256 d) {
    __m256i ab = _mm256_packs_epi32(_mm256_castps_si256(a), _mm256_castps_si256(b));
    __m256i cd = _mm256_packs_epi32(_mm256_castps_si256(c), _mm256_castps_si256(d));
    __m256i r = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(ab, cd), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    return _mm256_and_si256(r, _mm256_set1_epi8(1));
}
static DNNLK__FORCEINLINE __m256i dnnlk__vi_pack4_sat_i8_avx2(__m256i a, __m256i b, __m256i c, __m256i d, int16_t z,
                                                              int sgn) {
    __m256i zz = _mm256_set1_epi16(z);
    __m256i ab = _mm256_adds_epi16(_mm256_packs_epi32(a, b), zz), cd = _mm256_adds_epi16(_mm256_packs_epi32(c, d), zz);
    __m256i r = sgn ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd);
    return _mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
static DNNLK__FORCEINLINE void dnnlk__vi_store_u8_avx2(void *p, __m256i v) {
    __m256i s = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                        0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    __m128i b = _mm_unpacklo_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    _mm_storel_epi64((__m128i *)p, b);
}
static DNNLK__FORCEINLINE __m256 dnnlk__vf_sub_round_even_avx2(__m256 a) {
    return _mm256_sub_ps(a, _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
static DNNLK__FORCEINLINE __m256i dnnlk__vf_to_vi_round_even_avx2(__m256 a) {
    return _mm256_cvttps_epi32(_mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
/* Lanes of a:b: vpermd reads idx's low 3 bits, so permute both and take b's where idx >= 8. */
typedef struct dnnlk__vperm2_avx2 {
    __m256i idx, from_b;
} dnnlk__vperm2_avx2;
static DNNLK__FORCEINLINE dnnlk__vperm2_avx2 dnnlk__vperm2_index_avx2(const int32_t *p) {
    dnnlk__vperm2_avx2 ix;
    ix.idx = _mm256_loadu_si256((const __m256i *)(const void *)p);
    ix.from_b = _mm256_cmpgt_epi32(ix.idx, _mm256_set1_epi32(7));
    return ix;
}
static DNNLK__FORCEINLINE __m256i dnnlk__vi_permute2_avx2(__m256i a, __m256i b, dnnlk__vperm2_avx2 ix) {
    return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(a, ix.idx), _mm256_permutevar8x32_epi32(b, ix.idx), ix.from_b);
}
static DNNLK__FORCEINLINE __m256 dnnlk__vf_gather_avx2(const float *p, const int32_t *idx) {
    return _mm256_i32gather_ps(p, _mm256_loadu_si256((const __m256i *)(const void *)idx), 4);
}

/* == vmath: what the math bodies ask of a level == */
/* == convert: transposes of 32-bit elements == */
/* 8x8: interleaves of 32- and 64-bit elements within 128-bit halves (u_{4k + c}, half h: column
 * 4h + c of rows 4k..4k+3), then the halves of u_c and u_{4 + c} joined. On named values, not loops
 * over arrays, as the AVX-512 one (vec_avx512.h says why). */
static DNNLK__FORCEINLINE void dnnlk__v32_t8_quad_avx2(const char *s, int64_t sp, __m256i *u0, __m256i *u1, __m256i *u2,
                                                      __m256i *u3) {
    /* rows 0..3 of s: u0..u3 as above */
    __m256i r0 = _mm256_loadu_si256((const __m256i *)(const void *)s);
    __m256i r1 = _mm256_loadu_si256((const __m256i *)(const void *)(s + sp));
    __m256i r2 = _mm256_loadu_si256((const __m256i *)(const void *)(s + 2 * sp));
    __m256i r3 = _mm256_loadu_si256((const __m256i *)(const void *)(s + 3 * sp));
    __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
    __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
    *u0 = _mm256_unpacklo_epi64(t0, t2), *u1 = _mm256_unpackhi_epi64(t0, t2);
    *u2 = _mm256_unpacklo_epi64(t1, t3), *u3 = _mm256_unpackhi_epi64(t1, t3);
}
static DNNLK__FORCEINLINE void dnnlk__v32_t8_rows_avx2(char *d, int64_t dp, __m256i a, __m256i b, int nt) {
    /* dst rows 0 and 4 */
    __m256i lo = _mm256_permute2x128_si256(a, b, 0x20), hi = _mm256_permute2x128_si256(a, b, 0x31);
    if (nt) {
        _mm256_stream_si256((__m256i *)(void *)d, lo);
        _mm256_stream_si256((__m256i *)(void *)(d + 4 * dp), hi);
    } else {
        _mm256_storeu_si256((__m256i *)(void *)d, lo);
        _mm256_storeu_si256((__m256i *)(void *)(d + 4 * dp), hi);
    }
}
static DNNLK__FORCEINLINE void dnnlk__v32_transpose_avx2(void *d, int64_t dp, const void *s, int64_t sp, int nt) {
    const char *sc = (const char *)s;
    char *dc = (char *)d;
    __m256i u0, u1, u2, u3, u4, u5, u6, u7;
    dnnlk__v32_t8_quad_avx2(sc, sp, &u0, &u1, &u2, &u3);
    dnnlk__v32_t8_quad_avx2(sc + 4 * sp, sp, &u4, &u5, &u6, &u7);
    dnnlk__v32_t8_rows_avx2(dc, dp, u0, u4, nt);
    dnnlk__v32_t8_rows_avx2(dc + dp, dp, u1, u5, nt);
    dnnlk__v32_t8_rows_avx2(dc + 2 * dp, dp, u2, u6, nt);
    dnnlk__v32_t8_rows_avx2(dc + 3 * dp, dp, u3, u7, nt);
}
/* == convert: interleaves of 1-, 2- and 4-byte elements (hi: of the upper halves) == */
static DNNLK__FORCEINLINE __m256i dnnlk__vb_zip_avx2(__m256i a, __m256i b, int es, int hi) {
    __m256i l, h;
    switch (es) {
    case 1: l = _mm256_unpacklo_epi8(a, b), h = _mm256_unpackhi_epi8(a, b); break;
    case 2: l = _mm256_unpacklo_epi16(a, b), h = _mm256_unpackhi_epi16(a, b); break;
    default: l = _mm256_unpacklo_epi32(a, b), h = _mm256_unpackhi_epi32(a, b); break;
    }
    /* 128-bit half H of l / h: the interleave of the lower / upper half of half H of a and b */
    return hi ? _mm256_permute2x128_si256(l, h, 0x31) : _mm256_permute2x128_si256(l, h, 0x20);
}
#endif

#define DNNLK__VF_N 8
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 1          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 1  /* an 8-entry float table read by one register permute */
#define DNNLK__VEC_STREAM_LINES 1 /* streamed lines go out whole only if written back to back (x86 write-combining) */
#define dnnlk__vf __m256
#define dnnlk__vi __m256i
#define dnnlk__vmask __m256
#define dnnlk__vf_loadu(p) _mm256_loadu_ps(p)
#define dnnlk__vf_loadu_scan(p) _mm256_loadu_ps(p)
#define dnnlk__vf_storeu(p, v) _mm256_storeu_ps((p), (v))
#define dnnlk__vf_stream(p, v) _mm256_stream_ps((p), (v))
#define dnnlk__vf_loadu_n dnnlk__vf_loadu_n_avx2
#define dnnlk__vf_storeu_n dnnlk__vf_storeu_n_avx2
#define dnnlk__vf_set1(x) _mm256_set1_ps(x)
#define dnnlk__vf_zero() _mm256_setzero_ps()
#define dnnlk__vf_add(a, b) _mm256_add_ps((a), (b))
#define dnnlk__vf_sub(a, b) _mm256_sub_ps((a), (b))
#define dnnlk__vf_mul(a, b) _mm256_mul_ps((a), (b))
#define dnnlk__vf_div(a, b) _mm256_div_ps((a), (b))
#define dnnlk__vf_fmadd(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define dnnlk__vf_nofuse(v) __asm__("" : "+x"(v))
#define dnnlk__vf_min(a, b) _mm256_min_ps((a), (b))
#define dnnlk__vf_max(a, b) _mm256_max_ps((a), (b))
#define dnnlk__vf_sqrt(a) _mm256_sqrt_ps(a)
#define dnnlk__vf_and(a, b) _mm256_and_ps((a), (b))
#define dnnlk__vf_or(a, b) _mm256_or_ps((a), (b))
#define dnnlk__vf_xor(a, b) _mm256_xor_ps((a), (b))
#define dnnlk__vf_round_even(a) _mm256_round_ps((a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dnnlk__vf_floor(a) _mm256_round_ps((a), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define dnnlk__vf_cmplt(a, b) _mm256_cmp_ps((a), (b), _CMP_LT_OQ)
#define dnnlk__vf_cmple(a, b) _mm256_cmp_ps((a), (b), _CMP_LE_OQ)
#define dnnlk__vf_cmpgt(a, b) _mm256_cmp_ps((a), (b), _CMP_GT_OQ)
#define dnnlk__vf_cmpge(a, b) _mm256_cmp_ps((a), (b), _CMP_GE_OQ)
#define dnnlk__vf_cmpeq(a, b) _mm256_cmp_ps((a), (b), _CMP_EQ_OQ)
#define dnnlk__vf_cmpunord(a, b) _mm256_cmp_ps((a), (b), _CMP_UNORD_Q)
#define dnnlk__vmask_bits(m) ((unsigned)_mm256_movemask_ps(m))
#define dnnlk__vf_blend(m, t, f) _mm256_blendv_ps((f), (t), (m))
#define dnnlk__vf_load_bf16 dnnlk__vf_load_bf16_avx2
#define dnnlk__vf_store_bf16 dnnlk__vf_store_bf16_avx2
#define dnnlk__vf_pack2_bf16 dnnlk__vf_pack2_bf16_avx2
#define dnnlk__vf_load_f16 dnnlk__vf_load_f16_avx2
#define dnnlk__vf_store_f16 dnnlk__vf_store_f16_avx2
#define dnnlk__vf_pack2_f16 dnnlk__vf_pack2_f16_avx2
#define dnnlk__vi_loadu(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define dnnlk__vi_storeu(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define dnnlk__vi_set1(x) _mm256_set1_epi32(x)
#define dnnlk__vi_add(a, b) _mm256_add_epi32((a), (b))
#define dnnlk__vi_sub(a, b) _mm256_sub_epi32((a), (b))
#define dnnlk__vi_mullo(a, b) _mm256_mullo_epi32((a), (b))
#define dnnlk__vi_and(a, b) _mm256_and_si256((a), (b))
#define dnnlk__vi_or(a, b) _mm256_or_si256((a), (b))
#define dnnlk__vi_xor(a, b) _mm256_xor_si256((a), (b))
#define dnnlk__vi_slli(a, n) _mm256_slli_epi32((a), (n))
#define dnnlk__vi_srli(a, n) _mm256_srli_epi32((a), (n))
#define dnnlk__vi_srai(a, n) _mm256_srai_epi32((a), (n))
#define dnnlk__vf_as_vi(a) _mm256_castps_si256(a)
#define dnnlk__vi_as_vf(a) _mm256_castsi256_ps(a)
#define dnnlk__vi_to_vf(a) _mm256_cvtepi32_ps(a)
#define dnnlk__vf_to_vi_trunc(a) _mm256_cvttps_epi32(a)
#define dnnlk__vi_load_i8 dnnlk__vi_load_i8_avx2
#define dnnlk__vi_min(a, b) _mm256_min_epi32((a), (b))
#define dnnlk__vi_max(a, b) _mm256_max_epi32((a), (b))
#define dnnlk__vi_cmpeq(a, b) _mm256_castsi256_ps(_mm256_cmpeq_epi32((a), (b)))
#define dnnlk__vi_cmpgt(a, b) _mm256_castsi256_ps(_mm256_cmpgt_epi32((a), (b)))
#define dnnlk__vi_blend(m, t, f) _mm256_blendv_epi8((f), (t), _mm256_castps_si256(m))
#define dnnlk__vf_cmpnle(a, b) _mm256_cmp_ps((a), (b), _CMP_NLE_UQ)
#define dnnlk__vf_cmpnge(a, b) _mm256_cmp_ps((a), (b), _CMP_NGE_UQ)
#define dnnlk__vf_cmpord(a, b) _mm256_cmp_ps((a), (b), _CMP_ORD_Q)
#define dnnlk__vmask_and(a, b) _mm256_and_ps((a), (b))
#define dnnlk__vmask_or(a, b) _mm256_or_ps((a), (b))
#define dnnlk__vi_store(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define dnnlk__vi_stream(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (v))
#define dnnlk__vec_sfence() _mm_sfence()
#define dnnlk__vec_prefetch_l2(p, bytes) dnnlk__prefetch_l2((p), (bytes))
#define DNNLK__VT_N 8 /* the side of dnnlk__v32_transpose's tiles */
#define dnnlk__v32_transpose dnnlk__v32_transpose_avx2
#define dnnlk__vb_ziplo_elem(a, b, es) dnnlk__vb_zip_avx2((a), (b), (es), 0)
#define dnnlk__vb_ziphi_elem(a, b, es) dnnlk__vb_zip_avx2((a), (b), (es), 1)

/* ---- beyond the f32/s32 basics (names), in the sections above ---- */
/* == select: byte and 16-bit lanes == */
#define DNNLK__VB_N 32
#define DNNLK__VEC_MASKED_BYTES 0 /* byte-granular masked loads and stores (else: an emulation) */
#define dnnlk__vb __m256i
#define dnnlk__vmask_vb __m256i
#define dnnlk__vb_loadu(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define dnnlk__vb_storeu(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define dnnlk__vb_stream(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (v))
#define dnnlk__vb_set1_elem dnnlk__vb_set1_elem_avx2
#define dnnlk__vb_cond_elem dnnlk__vb_cond_elem_avx2
#define dnnlk__vb_blend_elem(m, t, f, es) _mm256_blendv_epi8((t), (f), (m))
#define dnnlk__vb_loadu_n_elem dnnlk__vb_loadu_n_elem_avx2
#define dnnlk__vb_storeu_n_elem dnnlk__vb_storeu_n_elem_avx2
#define dnnlk__vb_cond_n_elem dnnlk__vb_cond_n_elem_avx2
#define dnnlk__vb_permute16 dnnlk__vb_permute16_avx2

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */
#define DNNLK__VQ_N 4
#define DNNLK__VEC_CMP_TO_BITS 0 /* compares give bits and bits deposit cheaply (k-masks, pdep) */
#define dnnlk__vq __m256i
#define dnnlk__vq_loadu(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define dnnlk__vq_storeu(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define dnnlk__vq_part_vi(v, j) (v)
#define dnnlk__vq_set1_64(x) _mm256_set1_epi64x((long long)(x))
#define dnnlk__vq_set1_32(x) _mm256_set1_epi32((int)(x))
#define dnnlk__vq_and(a, b) _mm256_and_si256((a), (b))
#define dnnlk__vq_or(a, b) _mm256_or_si256((a), (b))
#define dnnlk__vq_xor(a, b) _mm256_xor_si256((a), (b))
#define dnnlk__vq_xor3(a, b, c) _mm256_xor_si256(_mm256_xor_si256((a), (b)), (c))
#define dnnlk__vq_add64(a, b) _mm256_add_epi64((a), (b))
#define dnnlk__vq_srli64(a, n) _mm256_srli_epi64((a), (n))
#define dnnlk__vq_slli64(a, n) _mm256_slli_epi64((a), (n))
#define dnnlk__vq_add32(a, b) _mm256_add_epi32((a), (b))
#define dnnlk__vq_sub32(a, b) _mm256_sub_epi32((a), (b))
#define dnnlk__vq_srli32(a, n) _mm256_srli_epi32((a), (n))
#define dnnlk__vq_slli32(a, n) _mm256_slli_epi32((a), (n))
#define dnnlk__vq_min32_u(a, b) _mm256_min_epu32((a), (b))
#define dnnlk__vq_mul_even_u32(a, b) _mm256_mul_epu32((a), (b))
#define dnnlk__vq_hi_down32(a) _mm256_shuffle_epi32((a), 0xF5)
#define dnnlk__vq_blend_odd32(a, b) _mm256_blend_epi32((a), (b), 0xAA)
#define dnnlk__vq_pack_lo32(a, b) _mm256_blend_epi32((a), _mm256_slli_epi64((b), 32), 0xAA)
#define dnnlk__vq_unpacklo32(a, b) _mm256_unpacklo_epi32((a), (b))
#define dnnlk__vq_unpackhi32(a, b) _mm256_unpackhi_epi32((a), (b))
#define dnnlk__vq_unpacklo64(a, b) _mm256_unpacklo_epi64((a), (b))
#define dnnlk__vq_unpackhi64(a, b) _mm256_unpackhi_epi64((a), (b))
#define dnnlk__vq_lane0_u32(a) ((uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(a)))
#define dnnlk__vq_cmplt32_bits(a, b) \
    ((uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32((b), (a)))))
#define dnnlk__vq_cmplt32_u_bits dnnlk__vq_cmplt32_u_bits_avx2
#define dnnlk__vq_cmplt64_u_rhs(t) _mm256_xor_si256(_mm256_set1_epi64x((long long)(t)), _mm256_set1_epi64x(INT64_MIN))
#define dnnlk__vq_cmplt64_u_bits dnnlk__vq_cmplt64_u_bits_avx2
#define dnnlk__vqmask __m256i
#define dnnlk__vq_cmpeq64(a, b) _mm256_cmpeq_epi64((a), (b))
#define dnnlk__vq_cmplt64(a, b) _mm256_cmpgt_epi64((b), (a))
#define dnnlk__vqmask_pack8_u8 dnnlk__vqmask_pack8_u8_avx2
#define dnnlk__vi_bitselect(m, a, b) _mm256_or_si256(_mm256_and_si256((a), (m)), _mm256_andnot_si256((m), (b)))
#define dnnlk__vi_xor_if_odd(r, t, k) \
    _mm256_xor_si256((r), _mm256_and_si256(_mm256_srai_epi32(_mm256_slli_epi32((t), 31), 31), (k)))
#define dnnlk__vi_bf16_rne_bits(u)                                           \
    _mm256_add_epi32(_mm256_add_epi32((u), _mm256_set1_epi32(0x7fff)),         \
                     _mm256_and_si256(_mm256_srli_epi32((u), 16), _mm256_set1_epi32(1)))
#define dnnlk__vf_maskz_bits dnnlk__vf_maskz_bits_avx2
#define dnnlk__vf_maskz_bits_even dnnlk__vf_maskz_bits_even_avx2
#define dnnlk__vf_maskz_bits_odd dnnlk__vf_maskz_bits_odd_avx2
#define dnnlk__u64_deposit(v, m) ((uint64_t)_pdep_u64((v), (m)))

/* == softmax, norm: f64 lanes == */
#define DNNLK__VD_N 4
#define DNNLK__VEC_SCALEF 0 /* dnnlk__vf_scalef is one instruction for any n (else n in [-252, 252]) */
#define dnnlk__vd __m256d
#define dnnlk__vd_zero() _mm256_setzero_pd()
#define dnnlk__vd_add(a, b) _mm256_add_pd((a), (b))
#define dnnlk__vd_storeu(p, v) _mm256_storeu_pd((p), (v))
#define dnnlk__vd_from_vf dnnlk__vd_from_vf_avx2
#define dnnlk__vd_loadu(p) _mm256_loadu_pd(p)
#define dnnlk__vd_set1(x) _mm256_set1_pd(x)
#define dnnlk__vd_mul(a, b) _mm256_mul_pd((a), (b))
#define dnnlk__vd_gather(p, idx) _mm256_i32gather_pd((p), _mm_loadu_si128((const __m128i *)(const void *)(idx)), 8)
#define dnnlk__vd_load_even(p) \
    _mm256_permute4x64_pd(_mm256_unpacklo_pd(_mm256_loadu_pd(p), _mm256_loadu_pd((p) + 4)), 0xd8) /* p0 p2 p4 p6 */
#define dnnlk__vd_load_x2 dnnlk__vd_load_x2_avx2
#define dnnlk__vd_load_f32(p) _mm256_cvtps_pd(_mm_loadu_ps(p))
#define dnnlk__vd_store_f32(p, v) _mm_storeu_ps((p), _mm256_cvtpd_ps(v))
#define dnnlk__vf_hmax dnnlk__vf_hmax_avx2
#define dnnlk__vf_cmpneq(a, b) _mm256_cmp_ps((a), (b), _CMP_NEQ_UQ)
#define dnnlk__vf_cmpnlt_in(m, a, b) _mm256_and_ps((m), _mm256_cmp_ps((a), (b), _CMP_NLT_US))
#define dnnlk__vmask_ones() _mm256_castsi256_ps(_mm256_set1_epi32(-1))
#define dnnlk__vi_test_in(m, a, b) \
    _mm256_andnot_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256((a), (b)), _mm256_setzero_si256())), (m))
#define dnnlk__vi_cmpgt_in(m, a, b) _mm256_and_ps((m), _mm256_castsi256_ps(_mm256_cmpgt_epi32((a), (b))))
#define dnnlk__vmask_count(m) ((unsigned)_mm_popcnt_u32((unsigned)_mm256_movemask_ps(m)))
#define dnnlk__vf_scalef dnnlk__vf_scalef_avx2
#define dnnlk__vf_maskz_scalef(m, p, n) _mm256_blendv_ps(_mm256_setzero_ps(), dnnlk__vf_scalef_avx2((p), (n)), (m))
#define dnnlk__vec_prefetch_l1 dnnlk__vec_prefetch_l1_avx2

/* == quant, resize: s32 lanes narrowed to bytes == */
#define DNNLK__VEC_REDUCE 0 /* dnnlk__vf_sub_round_even: a - round_even(a) (NaN for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 0 /* a vector division costs several multiplies */
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_avx2
#define dnnlk__vmask_pack4_u8 dnnlk__vmask_pack4_u8_avx2
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_avx2
#define dnnlk__vi_store_u8 dnnlk__vi_store_u8_avx2
#define dnnlk__vf_sub_round_even dnnlk__vf_sub_round_even_avx2
#define dnnlk__vf_to_vi_round_even dnnlk__vf_to_vi_round_even_avx2
#define dnnlk__vf_permute(v, idx) _mm256_permutevar8x32_ps((v), (idx))
/* unpack interleaves within 128-bit halves: the halves are then put in order */
#define dnnlk__vf_ziplo(a, b) _mm256_permute2f128_ps(_mm256_unpacklo_ps((a), (b)), _mm256_unpackhi_ps((a), (b)), 0x20)
#define dnnlk__vf_ziphi(a, b) _mm256_permute2f128_ps(_mm256_unpacklo_ps((a), (b)), _mm256_unpackhi_ps((a), (b)), 0x31)
#define dnnlk__vf_gather dnnlk__vf_gather_avx2
#define dnnlk__vperm2 dnnlk__vperm2_avx2
#define dnnlk__vperm2_index dnnlk__vperm2_index_avx2
#define dnnlk__vi_permute2 dnnlk__vi_permute2_avx2

/* == vmath: what the math bodies ask of a level == */
#define DNNLK__VEC_LUT32 0   /* no 32-entry register table */
#define DNNLK__VEC_PROD_ERR 1
#define dnnlk__vf_prod_err(a, b, p) _mm256_fmsub_ps((a), (b), (p))
#define dnnlk__vlut8 __m256i
#define dnnlk__vlut8_index(i) (i) /* vpermps reads index bits 0..2 */
#define dnnlk__vf_lut8(t, ix) _mm256_permutevar8x32_ps(_mm256_loadu_ps(t), (ix))
#define dnnlk__vf_fmsub(a, b, c) _mm256_fmsub_ps((a), (b), (c))
#define dnnlk__vf_fnmadd(a, b, c) _mm256_fnmadd_ps((a), (b), (c))
#define dnnlk__vf_fnmsub(a, b, c) _mm256_fnmsub_ps((a), (b), (c))
#define dnnlk__vf_max_neg0(x) _mm256_max_ps(_mm256_set1_ps(-0.0f), (x))

/* == scans == */
#define dnnlk__vs_max(a, b) _mm256_max_ps((a), (b))
#define dnnlk__vs_min(a, b) _mm256_min_ps((a), (b))
#define dnnlk__vs_any_nle(a, b) _mm256_movemask_ps(_mm256_cmp_ps((a), (b), _CMP_NLE_UQ))
#define dnnlk__vs_any_nlt(a, b) _mm256_movemask_ps(_mm256_cmp_ps((a), (b), _CMP_NLT_UQ))
