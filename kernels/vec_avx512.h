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
static DNNLK__FORCEINLINE __m512 dnnlk__vf_load_bf16_avx512(const uint16_t *p) {
    __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)p);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
static DNNLK__FORCEINLINE __m512i dnnlk__vf_to_bf16_bits_avx512(__m512 v) {
    __m512i u = _mm512_castps_si512(v);
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    __m512i r = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), lsb), 16);
    __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    __m512i q = _mm512_or_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x40));
    return _mm512_mask_blend_epi32(nan, r, q);
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_bf16_avx512(uint16_t *p, __m512 v) {
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(dnnlk__vf_to_bf16_bits_avx512(v)));
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

/* ---- sections of the families converted onto the layer (functions) ---- */
/* == select: byte and 16-bit lanes == */

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */

/* == softmax, norm: f64 lanes == */

/* == quant, resize: s32 lanes narrowed to bytes == */
static DNNLK__FORCEINLINE __m512i dnnlk__vi_pack4_u8_avx512(__m512i a, __m512i b, __m512i c, __m512i d) {
    __m512i r = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(a));
    r = _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(b), 1);
    r = _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(c), 2);
    return _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(d), 3);
}
static DNNLK__FORCEINLINE __m512i dnnlk__vi_pack4_sat_i8_avx512(__m512i a, __m512i b, __m512i c, __m512i d,
                                                                int16_t z, int sgn) {
    __m512i zz = _mm512_set1_epi16(z);
    __m512i ab = _mm512_adds_epi16(_mm512_packs_epi32(a, b), zz), cd = _mm512_adds_epi16(_mm512_packs_epi32(c, d), zz);
    __m512i r = sgn ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd);
    /* per 128-bit lane l the dwords are a_l b_l c_l d_l (x_l: elements 4l..4l+3 of x) */
    return _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), r);
}
static DNNLK__FORCEINLINE __m512 dnnlk__vf_gather_avx512(const float *p, const int32_t *idx) {
    return _mm512_i32gather_ps(_mm512_loadu_si512((const void *)idx), p, 4);
}

/* == vmath: what the math bodies ask of a level == */
#endif

#define DNNLK__VF_N 16
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 1          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 1  /* an 8-entry float table read by one register permute */
#define dnnlk__vf __m512
#define dnnlk__vi __m512i
#define dnnlk__vmask __mmask16
#define dnnlk__vf_loadu(p) _mm512_loadu_ps(p)
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
#define dnnlk__vf_load_f16 dnnlk__vf_load_f16_avx512
#define dnnlk__vf_store_f16 dnnlk__vf_store_f16_avx512
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

/* ---- sections of the families converted onto the layer (names) ---- */
/* == select: byte and 16-bit lanes == */

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */

/* == softmax, norm: f64 lanes == */

/* == quant, resize: s32 lanes narrowed to bytes == */
#define DNNLK__VB_N 64
#define DNNLK__VEC_REDUCE 1 /* dnnlk__vf_sub_round_even: one vreduceps (0 for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 0 /* a vector division costs several multiplies */
#define dnnlk__vb __m512i
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_avx512
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_avx512
#define dnnlk__vb_storeu(p, v) _mm512_storeu_si512((void *)(p), (v))
#define dnnlk__vb_stream(p, v) _mm512_stream_si512((__m512i *)(void *)(p), (v))
#define dnnlk__vi_store_u8(p, v) _mm_storeu_si128((__m128i *)(void *)(p), _mm512_cvtepi32_epi8(v))
#define dnnlk__vf_sub_round_even(a) _mm512_reduce_ps((a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dnnlk__vf_to_vi_round_even(a) _mm512_cvt_roundps_epi32((a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dnnlk__vf_permute(v, idx) _mm512_permutexvar_ps((idx), (v))
#define dnnlk__vf_gather dnnlk__vf_gather_avx512

/* == vmath: what the math bodies ask of a level == */
