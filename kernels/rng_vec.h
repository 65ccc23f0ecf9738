/* dnnl_kernels — rng_vec.h: the 64-bit-lane and compare helpers the RNG bodies need beyond
 * vec.h (no include guard: included at the top of rng_simd.h and dropout_simd.h inside each
 * target region; rng_vec_end.h removes the names again). */

#if DNNLK__ISA == 1
#define DNNLK__RW 4
#define dnnlk__rv __m128i
#define dnnlk__rv_set1_64(x) _mm_set1_epi64x((long long)(x))
#define dnnlk__rv_mul_epu32(a, b) _mm_mul_epu32((a), (b))
#define dnnlk__rv_srli64(a, n) _mm_srli_epi64((a), (n))
#define dnnlk__rv_slli64(a, n) _mm_slli_epi64((a), (n))
#define dnnlk__rv_add64(a, b) _mm_add_epi64((a), (b))
#define dnnlk__rv_min_epu32(a, b) _mm_min_epu32((a), (b))
#define dnnlk__rv_hi_down(a) _mm_shuffle_epi32((a), 0xF5)
#define dnnlk__rv_xor3(a, b, c) _mm_xor_si128(_mm_xor_si128((a), (b)), (c))
#define dnnlk__rv_blend_odd(a, b) _mm_blend_epi16((a), (b), 0xCC)
#define dnnlk__rv_unpacklo32(a, b) _mm_unpacklo_epi32((a), (b))
#define dnnlk__rv_unpackhi32(a, b) _mm_unpackhi_epi32((a), (b))
#define dnnlk__rv_unpacklo64(a, b) _mm_unpacklo_epi64((a), (b))
#define dnnlk__rv_unpackhi64(a, b) _mm_unpackhi_epi64((a), (b))
#define dnnlk__rv_lane0(a) ((uint32_t)_mm_cvtsi128_si32(a))
#define dnnlk__rv_lts_bits(a, b) ((uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32((b), (a)))))
#define dnnlk__rv_ltu_vec(a, b) \
    _mm_cmpgt_epi32(_mm_xor_si128((b), _mm_set1_epi32(INT32_MIN)), _mm_xor_si128((a), _mm_set1_epi32(INT32_MIN)))
#define dnnlk__rv_ltu_bits(a, b) ((uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(dnnlk__rv_ltu_vec((a), (b)))))
#elif DNNLK__ISA == 2
#define DNNLK__RW 8
#define dnnlk__rv __m256i
#define dnnlk__rv_set1_64(x) _mm256_set1_epi64x((long long)(x))
#define dnnlk__rv_mul_epu32(a, b) _mm256_mul_epu32((a), (b))
#define dnnlk__rv_srli64(a, n) _mm256_srli_epi64((a), (n))
#define dnnlk__rv_slli64(a, n) _mm256_slli_epi64((a), (n))
#define dnnlk__rv_add64(a, b) _mm256_add_epi64((a), (b))
#define dnnlk__rv_min_epu32(a, b) _mm256_min_epu32((a), (b))
#define dnnlk__rv_hi_down(a) _mm256_shuffle_epi32((a), 0xF5)
#define dnnlk__rv_xor3(a, b, c) _mm256_xor_si256(_mm256_xor_si256((a), (b)), (c))
#define dnnlk__rv_blend_odd(a, b) _mm256_blend_epi32((a), (b), 0xAA)
#define dnnlk__rv_unpacklo32(a, b) _mm256_unpacklo_epi32((a), (b))
#define dnnlk__rv_unpackhi32(a, b) _mm256_unpackhi_epi32((a), (b))
#define dnnlk__rv_unpacklo64(a, b) _mm256_unpacklo_epi64((a), (b))
#define dnnlk__rv_unpackhi64(a, b) _mm256_unpackhi_epi64((a), (b))
#define dnnlk__rv_lane0(a) ((uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(a)))
#define dnnlk__rv_lts_bits(a, b) \
    ((uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32((b), (a)))))
#define dnnlk__rv_ltu_vec(a, b)                                            \
    _mm256_cmpgt_epi32(_mm256_xor_si256((b), _mm256_set1_epi32(INT32_MIN)), \
                       _mm256_xor_si256((a), _mm256_set1_epi32(INT32_MIN)))
#define dnnlk__rv_ltu_bits(a, b) \
    ((uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(dnnlk__rv_ltu_vec((a), (b)))))
#else
#define DNNLK__RW 16
#define dnnlk__rv __m512i
#define dnnlk__rv_set1_64(x) _mm512_set1_epi64((long long)(x))
#define dnnlk__rv_mul_epu32(a, b) _mm512_mul_epu32((a), (b))
#define dnnlk__rv_srli64(a, n) _mm512_srli_epi64((a), (n))
#define dnnlk__rv_slli64(a, n) _mm512_slli_epi64((a), (n))
#define dnnlk__rv_add64(a, b) _mm512_add_epi64((a), (b))
#define dnnlk__rv_min_epu32(a, b) _mm512_min_epu32((a), (b))
#define dnnlk__rv_hi_down(a) _mm512_shuffle_epi32((a), (_MM_PERM_ENUM)0xF5)
#define dnnlk__rv_xor3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define dnnlk__rv_blend_odd(a, b) _mm512_mask_blend_epi32((__mmask16)0xAAAA, (a), (b))
#define dnnlk__rv_unpacklo32(a, b) _mm512_unpacklo_epi32((a), (b))
#define dnnlk__rv_unpackhi32(a, b) _mm512_unpackhi_epi32((a), (b))
#define dnnlk__rv_unpacklo64(a, b) _mm512_unpacklo_epi64((a), (b))
#define dnnlk__rv_unpackhi64(a, b) _mm512_unpackhi_epi64((a), (b))
#define dnnlk__rv_lane0(a) ((uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(a)))
#define dnnlk__rv_lts_bits(a, b) ((uint64_t)_mm512_cmplt_epi32_mask((a), (b)))
#define dnnlk__rv_ltu_vec(a, b) _mm512_movm_epi32(_mm512_cmplt_epu32_mask((a), (b)))
#define dnnlk__rv_ltu_bits(a, b) ((uint64_t)_mm512_cmplt_epu32_mask((a), (b)))
#endif


/* One round of the four MCG31 lane groups (the helpers are in rng_simd.h). */
#define DNNLK__MCG_STEP(g, step)                                       \
    do {                                                               \
        g[0] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[0], step, step);      \
        g[1] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[1], step, step);      \
        g[2] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[2], step, step);      \
        g[3] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[3], step, step);      \
    } while (0)
