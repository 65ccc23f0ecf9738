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

/* ---- sections of the families converted onto the layer (functions) ---- */
/* == select: byte and 16-bit lanes == */

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */

/* == softmax, norm: f64 lanes == */

/* == quant, resize: s32 lanes narrowed to bytes == */
/* Four vectors of s32 in [-128, 255] -> their low bytes, in order. packs_epi32 is exact on that
 * range; masking to the low byte makes packus a truncation. */
static DNNLK__FORCEINLINE __m128i dnnlk__vi_pack4_u8_sse41(__m128i a, __m128i b, __m128i c, __m128i d) {
    __m128i m = _mm_set1_epi16(0xff);
    __m128i ab = _mm_and_si128(_mm_packs_epi32(a, b), m), cd = _mm_and_si128(_mm_packs_epi32(c, d), m);
    return _mm_packus_epi16(ab, cd);
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
static DNNLK__FORCEINLINE __m128 dnnlk__vf_gather_sse41(const float *p, const int32_t *idx) {
    return _mm_setr_ps(p[idx[0]], p[idx[1]], p[idx[2]], p[idx[3]]);
}

/* == vmath: what the math bodies ask of a level == */
#endif

#define DNNLK__VF_N 4
/* what a body may ask of this level, instead of asking which level it is */
#define DNNLK__VEC_FMA 0          /* dnnlk__vf_fmadd rounds once (else: a product, then a sum) */
#define DNNLK__VEC_PERMUTE_LUT 0  /* an 8-entry float table read by one register permute */
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
#define dnnlk__vi_store(p, v) _mm_store_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vi_stream(p, v) _mm_stream_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vec_sfence() _mm_sfence()
#define dnnlk__vec_prefetch_l2(p, bytes) dnnlk__prefetch_l2((p), (bytes))

/* ---- sections of the families converted onto the layer (names) ---- */
/* == select: byte and 16-bit lanes == */

/* == rng, dropout: 32x32->64 products, 64-bit lanes, bit packing == */

/* == softmax, norm: f64 lanes == */

/* == quant, resize: s32 lanes narrowed to bytes == */
#define DNNLK__VB_N 16
#define DNNLK__VEC_REDUCE 0 /* dnnlk__vf_sub_round_even: a - round_even(a) (NaN for +-inf) */
#define DNNLK__VEC_CHEAP_DIV 0 /* a vector division costs several multiplies */
#define dnnlk__vb __m128i
#define dnnlk__vi_pack4_u8 dnnlk__vi_pack4_u8_sse41
#define dnnlk__vi_pack4_sat_i8 dnnlk__vi_pack4_sat_i8_sse41
#define dnnlk__vb_storeu(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vb_stream(p, v) _mm_stream_si128((__m128i *)(void *)(p), (v))
#define dnnlk__vi_store_u8 dnnlk__vi_store_u8_sse41
#define dnnlk__vf_sub_round_even dnnlk__vf_sub_round_even_sse41
#define dnnlk__vf_to_vi_round_even dnnlk__vf_to_vi_round_even_sse41
#define dnnlk__vf_permute dnnlk__vf_permute_sse41
#define dnnlk__vf_gather dnnlk__vf_gather_sse41

/* == vmath: what the math bodies ask of a level == */
