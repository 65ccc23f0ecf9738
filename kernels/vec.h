/* dnnl_kernels — vec.h: the thin vector layer, mapped to the ISA being instantiated.
 *
 * No include guard: simd_instantiate.h includes it inside each target region with DNNLK__ISA set,
 * and vec_end.h removes the names again. Kernel bodies use only these names (or an `#if
 * DNNLK__ISA` for what one ISA does differently), so each kernel body is written once.
 *
 *   dnnlk__vf / dnnlk__vi     f32 / s32 vector of DNNLK__VF_N lanes (4, 8, 16)
 *   dnnlk__vmask              result of a compare, f32 or s32 (lane vector on SSE/AVX2, k-mask
 *                             on AVX-512); dnnlk__vmask_and / _or combine two
 *   dnnlk__vmask_bits(m)      the compare as an unsigned bit per lane, lane 0 in bit 0
 *   dnnlk__vf_blend(m, t, f)  m ? t : f per lane (dnnlk__vi_blend for s32 lanes)
 *   dnnlk__vf_cmpnle / nge    !(a <= b) / !(a >= b): true where either is NaN too
 *   dnnlk__vi_load_i8(p, sgn) DNNLK__VF_N bytes widened to s32 lanes, sign- or zero-extended
 *   dnnlk__vf_fmadd(a, b, c)  a*b + c: fused on AVX2/AVX-512, mul then add on SSE4.1 (a kernel
 *                             that must give the same bits on every ISA must not use it)
 *   dnnlk__vf_nofuse(v)       keeps the product in v from being fused into a following add
 *   _n variants               load/store only the first n lanes (0 <= n < lanes), never touching
 *                             memory past them; masked-off lanes load as 0
 * Rounding intrinsics take their mode explicitly: kernels never depend on MXCSR's mode. */

#if DNNLK__ISA == 1 /* ---------------------------------------------------------------- SSE4.1 */

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
/* 4 bytes -> 4 int32 lanes, sign- (sgn) or zero-extended. */
static DNNLK__FORCEINLINE __m128i dnnlk__vi_load_i8_sse41(const void *p, int sgn) {
    int32_t w;
    __m128i b;
    memcpy(&w, p, 4);
    b = _mm_cvtsi32_si128(w);
    return sgn ? _mm_cvtepi8_epi32(b) : _mm_cvtepu8_epi32(b);
}
/* No F16C at this level: convert lane by lane with the scalar routines. */
static DNNLK__FORCEINLINE __m128 dnnlk__vf_load_f16_sse41(const uint16_t *p) {
    return _mm_setr_ps(dnnlk_f16_to_f32(p[0]), dnnlk_f16_to_f32(p[1]), dnnlk_f16_to_f32(p[2]),
                       dnnlk_f16_to_f32(p[3]));
}
static DNNLK__FORCEINLINE void dnnlk__vf_store_f16_sse41(uint16_t *p, __m128 v) {
    float t[4];
    int i;
    _mm_storeu_ps(t, v);
    for (i = 0; i < 4; i++) p[i] = dnnlk_f32_to_f16(t[i]);
}
#endif

#define DNNLK__VF_N 4
#define dnnlk__vf __m128
#define dnnlk__vi __m128i
#define dnnlk__vmask __m128
#define dnnlk__vf_loadu(p) _mm_loadu_ps(p)
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
#define dnnlk__vf_load_f16 dnnlk__vf_load_f16_sse41
#define dnnlk__vf_store_f16 dnnlk__vf_store_f16_sse41
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

#elif DNNLK__ISA == 2 /* ------------------------------------------------------------- AVX2 */

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
#endif

#define DNNLK__VF_N 8
#define dnnlk__vf __m256
#define dnnlk__vi __m256i
#define dnnlk__vmask __m256
#define dnnlk__vf_loadu(p) _mm256_loadu_ps(p)
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
#define dnnlk__vf_load_f16 dnnlk__vf_load_f16_avx2
#define dnnlk__vf_store_f16 dnnlk__vf_store_f16_avx2
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

#elif DNNLK__ISA == 3 /* ----------------------------------------------------------- AVX-512 */

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
#endif

#define DNNLK__VF_N 16
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

#else
#error "vec.h is included by simd_instantiate.h with DNNLK__ISA set to 1, 2 or 3"
#endif
