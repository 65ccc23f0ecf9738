/* dnnl_kernels — rng_simd.h: the vector RNG kernels, one body compiled per ISA by
 * simd_instantiate.h (no include guard; see rng.h for the semantics).
 *
 * MCG31m1: a round produces 4 groups of W lanes; lane j of group g holds x*a^(gW+j), and every
 * group steps by a^(4W). Four independent multiply chains hide the multiply latency. The product
 * of two 31-bit values (< 2^62) is reduced with one fold (2^31 = 1 mod m) to < 2m and one
 * conditional subtract done as an unsigned min on 32-bit lanes.
 * Philox4x32-10: W counters per round, one per lane, held as four word vectors. Lane 4q+r (q the
 * 128-bit chunk) runs counter r*W/4 + q of the round, so the in-chunk 4x4 transpose (8 unpacks)
 * leaves the 4W outputs in order without crossing chunks.
 * MT19937: the twist in vectors (the recurrence reads 1, 397 and 227 words away, so W-lane chunks
 * that do not straddle index 227 are independent), tempering in vectors. */

#if DNNLK__ISA == 1
#define DNNLK__RW 4
#define dnnlk__rv __m128i
#define dnnlk__rv_set1_64(x) _mm_set1_epi64x((long long)(x))
#define dnnlk__rv_mul_epu32(a, b) _mm_mul_epu32((a), (b))
#define dnnlk__rv_srli64(a, n) _mm_srli_epi64((a), (n))
#define dnnlk__rv_slli64(a, n) _mm_slli_epi64((a), (n))
#define dnnlk__rv_add64(a, b) _mm_add_epi64((a), (b))
#define dnnlk__rv_min_epu32(a, b) _mm_min_epu32((a), (b))
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

/* ---- MCG31m1 ---- */

/* x * c mod m per 32-bit lane; c_even/c_odd hold the even/odd lanes' multipliers in the low
 * halves of the 64-bit lanes. Lanes of x are in [1, m-1]; so are the results. */
static DNNLK__FORCEINLINE dnnlk__rv DNNLK__SFX(dnnlk__mcg_mulmod_v)(dnnlk__rv x, dnnlk__rv c_even, dnnlk__rv c_odd) {
    const dnnlk__rv m64 = dnnlk__rv_set1_64(DNNLK_MCG31_M);
    dnnlk__rv pe = dnnlk__rv_mul_epu32(x, c_even);
    dnnlk__rv po = dnnlk__rv_mul_epu32(dnnlk__rv_srli64(x, 32), c_odd);
    dnnlk__rv re = dnnlk__rv_add64(dnnlk__vi_and(pe, m64), dnnlk__rv_srli64(pe, 31));
    dnnlk__rv ro = dnnlk__rv_add64(dnnlk__vi_and(po, m64), dnnlk__rv_srli64(po, 31));
    dnnlk__rv r = dnnlk__vi_or(re, dnnlk__rv_slli64(ro, 32));
    return dnnlk__rv_min_epu32(r, dnnlk__vi_sub(r, dnnlk__vi_set1((int)DNNLK_MCG31_M)));
}

/* The four groups of the round starting at value x. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__mcg_start)(uint32_t x, dnnlk__rv g[4]) {
    const uint32_t *pw = dnnlk__mcg_pow_table();
    dnnlk__rv xs = dnnlk__vi_set1((int)x);
    int k;
    for (k = 0; k < 4; k++) {
        dnnlk__rv c = dnnlk__vi_loadu(pw + k * DNNLK__RW);
        g[k] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(xs, c, dnnlk__rv_srli64(c, 32));
    }
}

#define DNNLK__MCG_STEP(g, step)                                       \
    do {                                                               \
        g[0] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[0], step, step);      \
        g[1] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[1], step, step);      \
        g[2] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[2], step, step);      \
        g[3] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[3], step, step);      \
    } while (0)

/* n outputs from value x; returns the value after them. */
static DNNLK__NOINLINE uint32_t DNNLK__SFX(dnnlk__mcg_u32_v)(uint32_t x, uint32_t *dst, size_t n) {
    const size_t R = 4 * DNNLK__RW;
    if (n >= R) {
        dnnlk__rv g[4];
        const dnnlk__rv step = dnnlk__rv_set1_64(dnnlk__mcg_pow_table()[R]);
        DNNLK__SFX(dnnlk__mcg_start)(x, g);
        for (; n >= R; n -= R, dst += R) {
            dnnlk__vi_storeu(dst, g[0]);
            dnnlk__vi_storeu(dst + DNNLK__RW, g[1]);
            dnnlk__vi_storeu(dst + 2 * DNNLK__RW, g[2]);
            dnnlk__vi_storeu(dst + 3 * DNNLK__RW, g[3]);
            DNNLK__MCG_STEP(g, step);
        }
        x = dnnlk__rv_lane0(g[0]);
    }
    for (; n > 0; n--) {
        *dst++ = x;
        x = dnnlk__mcg_mulmod(x, DNNLK_MCG31_A);
    }
    return x;
}

/* u = (v >> shift) * 2^-24, low + width*u (not fused), limited to top. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__uniform_v)(dnnlk__rv v, int shift, dnnlk__vf low,
                                                                  dnnlk__vf width, dnnlk__vf top) {
    dnnlk__vf u = dnnlk__vi_to_vf(shift == 7 ? dnnlk__vi_srli(v, 7) : dnnlk__vi_srli(v, 8));
    dnnlk__vf t = dnnlk__vf_mul(width, dnnlk__vf_mul(u, dnnlk__vf_set1(1.0f / 16777216.0f)));
    DNNLK__NOFUSE(t);
    return dnnlk__vf_min(dnnlk__vf_add(low, t), top);
}

static DNNLK__NOINLINE uint32_t DNNLK__SFX(dnnlk__mcg_uniform_v)(uint32_t x, float *dst, size_t n, float low,
                                                                 float width, float top) {
    const size_t R = 4 * DNNLK__RW;
    if (n >= R) {
        dnnlk__rv g[4];
        const dnnlk__rv step = dnnlk__rv_set1_64(dnnlk__mcg_pow_table()[R]);
        const dnnlk__vf vl = dnnlk__vf_set1(low), vw = dnnlk__vf_set1(width), vt = dnnlk__vf_set1(top);
        DNNLK__SFX(dnnlk__mcg_start)(x, g);
        for (; n >= R; n -= R, dst += R) {
            dnnlk__vf_storeu(dst, DNNLK__SFX(dnnlk__uniform_v)(g[0], 7, vl, vw, vt));
            dnnlk__vf_storeu(dst + DNNLK__RW, DNNLK__SFX(dnnlk__uniform_v)(g[1], 7, vl, vw, vt));
            dnnlk__vf_storeu(dst + 2 * DNNLK__RW, DNNLK__SFX(dnnlk__uniform_v)(g[2], 7, vl, vw, vt));
            dnnlk__vf_storeu(dst + 3 * DNNLK__RW, DNNLK__SFX(dnnlk__uniform_v)(g[3], 7, vl, vw, vt));
            DNNLK__MCG_STEP(g, step);
        }
        x = dnnlk__rv_lane0(g[0]);
    }
    for (; n > 0; n--) {
        *dst++ = dnnlk__uniform_from24(x >> 7, low, width, top);
        x = dnnlk__mcg_mulmod(x, DNNLK_MCG31_A);
    }
    return x;
}

/* Stores the low nbits (a multiple of 8, <= 64) of v little-endian. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__store_bits)(uint8_t *dst, uint64_t v, size_t nbits) {
    if (nbits == 64) memcpy(dst, &v, 8);
    else if (nbits == 32) { uint32_t w = (uint32_t)v; memcpy(dst, &w, 4); }
    else { uint16_t w = (uint16_t)v; memcpy(dst, &w, 2); }
}

/* n bits (x < t) from value x into ceil(n/8) bytes (bits past n zero); returns the value after. */
static DNNLK__NOINLINE uint32_t DNNLK__SFX(dnnlk__mcg_bits_v)(uint32_t x, uint8_t *dst, size_t n, uint32_t t) {
    const size_t R = 4 * DNNLK__RW;
    uint64_t acc = 0;
    size_t i;
    if (n >= R) {
        dnnlk__rv g[4];
        const dnnlk__rv step = dnnlk__rv_set1_64(dnnlk__mcg_pow_table()[R]);
        const dnnlk__rv vt = dnnlk__vi_set1((int)t);
        DNNLK__SFX(dnnlk__mcg_start)(x, g);
        for (; n >= R; n -= R, dst += R / 8) {
            uint64_t b = dnnlk__rv_lts_bits(g[0], vt) | dnnlk__rv_lts_bits(g[1], vt) << DNNLK__RW |
                         dnnlk__rv_lts_bits(g[2], vt) << (2 * DNNLK__RW) |
                         dnnlk__rv_lts_bits(g[3], vt) << (3 * DNNLK__RW);
            DNNLK__SFX(dnnlk__store_bits)(dst, b, R);
            DNNLK__MCG_STEP(g, step);
        }
        x = dnnlk__rv_lane0(g[0]);
    }
    for (i = 0; i < n; i++) {
        acc |= (uint64_t)(x < t) << i;
        x = dnnlk__mcg_mulmod(x, DNNLK_MCG31_A);
    }
    for (i = 0; i < (n + 7) / 8; i++) dst[i] = (uint8_t)(acc >> (8 * i));
    return x;
}

/* ---- Philox4x32-10 ---- */

/* The 4W outputs of the round whose first counter is x (a multiple of 4), in order in o[0..3]. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__philox_round)(uint64_t x, uint32_t off_lo, uint32_t off_hi,
                                                               uint32_t k0, uint32_t k1, dnnlk__rv lane_off,
                                                               dnnlk__rv o[4]) {
    const dnnlk__rv m0 = dnnlk__rv_set1_64(DNNLK__PHILOX_M0), m1 = dnnlk__rv_set1_64(DNNLK__PHILOX_M1);
    dnnlk__rv c0 = dnnlk__vi_set1((int)off_lo), c1 = dnnlk__vi_set1((int)off_hi);
    dnnlk__rv c2 = dnnlk__vi_add(dnnlk__vi_set1((int)(uint32_t)x), lane_off);
    dnnlk__rv c3 = dnnlk__vi_sub(dnnlk__vi_set1((int)(uint32_t)(x >> 32)), dnnlk__rv_ltu_vec(c2, lane_off));
    dnnlk__rv t0, t1, t2, t3;
    int r;
    for (r = 0; r < 10; r++) {
        dnnlk__rv pe0 = dnnlk__rv_mul_epu32(c0, m0), po0 = dnnlk__rv_mul_epu32(dnnlk__rv_srli64(c0, 32), m0);
        dnnlk__rv pe1 = dnnlk__rv_mul_epu32(c2, m1), po1 = dnnlk__rv_mul_epu32(dnnlk__rv_srli64(c2, 32), m1);
        dnnlk__rv hi0 = dnnlk__rv_blend_odd(dnnlk__rv_srli64(pe0, 32), po0);
        dnnlk__rv lo0 = dnnlk__rv_blend_odd(pe0, dnnlk__rv_slli64(po0, 32));
        dnnlk__rv hi1 = dnnlk__rv_blend_odd(dnnlk__rv_srli64(pe1, 32), po1);
        dnnlk__rv lo1 = dnnlk__rv_blend_odd(pe1, dnnlk__rv_slli64(po1, 32));
        c0 = dnnlk__vi_xor(dnnlk__vi_xor(hi1, c1), dnnlk__vi_set1((int)k0));
        c1 = lo1;
        c2 = dnnlk__vi_xor(dnnlk__vi_xor(hi0, c3), dnnlk__vi_set1((int)k1));
        c3 = lo0;
        k0 += DNNLK__PHILOX_W0;
        k1 += DNNLK__PHILOX_W1;
    }
    t0 = dnnlk__rv_unpacklo32(c0, c1);
    t1 = dnnlk__rv_unpackhi32(c0, c1);
    t2 = dnnlk__rv_unpacklo32(c2, c3);
    t3 = dnnlk__rv_unpackhi32(c2, c3);
    o[0] = dnnlk__rv_unpacklo64(t0, t2);
    o[1] = dnnlk__rv_unpackhi64(t0, t2);
    o[2] = dnnlk__rv_unpacklo64(t1, t3);
    o[3] = dnnlk__rv_unpackhi64(t1, t3);
}

/* Lane 4q+r starts counter r*W/4 + q of the round: x offset 4*(r*W/4 + q). */
static DNNLK__FORCEINLINE dnnlk__rv DNNLK__SFX(dnnlk__philox_lane_off)(void) {
    uint32_t t[DNNLK__RW];
    int l;
    for (l = 0; l < DNNLK__RW; l++) t[l] = (uint32_t)(4 * ((l % 4) * (DNNLK__RW / 4) + l / 4));
    return dnnlk__vi_loadu(t);
}

/* Outputs [index, index + n) of stream (seed, offset). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__philox_u32_v)(uint64_t seed, uint64_t offset, uint64_t index,
                                                            uint32_t *dst, size_t n) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__rv lane_off = DNNLK__SFX(dnnlk__philox_lane_off)();
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32), ol = (uint32_t)offset, oh = (uint32_t)(offset >> 32);
    while (n > 0 && (index & 3)) *dst++ = dnnlk__philox_at(seed, offset, index++), n--;
    for (; n >= R; n -= R, dst += R, index += R) {
        dnnlk__rv o[4];
        DNNLK__SFX(dnnlk__philox_round)(index, ol, oh, k0, k1, lane_off, o);
        dnnlk__vi_storeu(dst, o[0]);
        dnnlk__vi_storeu(dst + DNNLK__RW, o[1]);
        dnnlk__vi_storeu(dst + 2 * DNNLK__RW, o[2]);
        dnnlk__vi_storeu(dst + 3 * DNNLK__RW, o[3]);
    }
    while (n > 0) *dst++ = dnnlk__philox_at(seed, offset, index++), n--;
}

/* The 4W bits (v < t) ^ inv of the round at counter x. */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__philox_round_bits)(uint64_t x, uint32_t ol, uint32_t oh,
                                                                        uint32_t k0, uint32_t k1,
                                                                        dnnlk__rv lane_off, dnnlk__rv vt,
                                                                        uint64_t inv) {
    dnnlk__rv o[4];
    DNNLK__SFX(dnnlk__philox_round)(x, ol, oh, k0, k1, lane_off, o);
    return (dnnlk__rv_ltu_bits(o[0], vt) | dnnlk__rv_ltu_bits(o[1], vt) << DNNLK__RW |
            dnnlk__rv_ltu_bits(o[2], vt) << (2 * DNNLK__RW) | dnnlk__rv_ltu_bits(o[3], vt) << (3 * DNNLK__RW)) ^
           inv;
}

/* n bits ((v < t) xor inv) for outputs [index, index + n) into ceil(n/8) bytes, bits past n 0.
 * index need not be a multiple of 4: rounds start at the counter below it and the bits are
 * shifted down by s = index & 3 across rounds. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__philox_bits_v)(uint64_t seed, uint64_t offset, uint64_t index,
                                                             uint8_t *dst, size_t n, uint32_t t, uint32_t inv) {
    const size_t R = 4 * DNNLK__RW;
    const uint64_t rmask = R == 64 ? ~0ull : (1ull << R) - 1;
    const uint64_t invm = inv ? rmask : 0;
    const dnnlk__rv lane_off = DNNLK__SFX(dnnlk__philox_lane_off)();
    const dnnlk__rv vt = dnnlk__vi_set1((int)t);
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32), ol = (uint32_t)offset, oh = (uint32_t)(offset >> 32);
    unsigned s = (unsigned)(index & 3);
    uint64_t x = index - s, acc = 0;
    size_t i;
    if (n >= R) {
        uint64_t prev = DNNLK__SFX(dnnlk__philox_round_bits)(x, ol, oh, k0, k1, lane_off, vt, invm);
        for (; n >= R; n -= R, dst += R / 8, index += R) {
            uint64_t unit = prev;
            if (s) {
                uint64_t next;
                x += R;
                next = DNNLK__SFX(dnnlk__philox_round_bits)(x, ol, oh, k0, k1, lane_off, vt, invm);
                unit = ((prev >> s) | (next << (R - s))) & rmask;
                prev = next;
            } else if (n >= 2 * R) {
                x += R;
                prev = DNNLK__SFX(dnnlk__philox_round_bits)(x, ol, oh, k0, k1, lane_off, vt, invm);
            }
            DNNLK__SFX(dnnlk__store_bits)(dst, unit, R);
        }
    }
    for (i = 0; i < n; i++) {
        uint32_t v = dnnlk__philox_at(seed, offset, index + i);
        acc |= (uint64_t)((v < t) ^ inv) << i;
    }
    for (i = 0; i < (n + 7) / 8; i++) dst[i] = (uint8_t)(acc >> (8 * i));
}

/* In place: raw 32-bit outputs (as floats' storage) to uniform values (top 24 bits). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__u32_to_uniform_v)(float *buf, size_t n, float low, float width,
                                                                float top) {
    const dnnlk__vf vl = dnnlk__vf_set1(low), vw = dnnlk__vf_set1(width), vt = dnnlk__vf_set1(top);
    size_t i = 0;
    for (; i + DNNLK__RW <= n; i += DNNLK__RW)
        dnnlk__vf_storeu(buf + i, DNNLK__SFX(dnnlk__uniform_v)(dnnlk__vi_loadu(buf + i), 8, vl, vw, vt));
    for (; i < n; i++) {
        uint32_t v;
        memcpy(&v, buf + i, 4);
        buf[i] = dnnlk__uniform_from24(v >> 8, low, width, top);
    }
}

/* ---- MT19937 ---- */

static DNNLK__FORCEINLINE dnnlk__rv DNNLK__SFX(dnnlk__mt_step_v)(const uint32_t *cur, const uint32_t *far) {
    dnnlk__rv a = dnnlk__vi_loadu(cur), b = dnnlk__vi_loadu(cur + 1), f = dnnlk__vi_loadu(far);
    dnnlk__rv y = dnnlk__vi_or(dnnlk__vi_and(a, dnnlk__vi_set1(INT32_MIN)), dnnlk__vi_and(b, dnnlk__vi_set1(0x7fffffff)));
    dnnlk__rv odd = dnnlk__vi_srai(dnnlk__vi_slli(y, 31), 31);
    return dnnlk__vi_xor(dnnlk__vi_xor(f, dnnlk__vi_srli(y, 1)), dnnlk__vi_and(odd, dnnlk__vi_set1((int)0x9908b0dfu)));
}

static DNNLK__FORCEINLINE uint32_t DNNLK__SFX(dnnlk__mt_step_s)(const uint32_t *mt, int i) {
    uint32_t y = (mt[i] & 0x80000000u) | (mt[(i + 1) % 624] & 0x7fffffffu);
    return mt[(i + 397) % 624] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_twist_v)(uint32_t *mt) {
    int i = 0;
    /* [0, 227): the far word (i + 397) is still old */
    for (; i + DNNLK__RW <= 227; i += DNNLK__RW) dnnlk__vi_storeu(mt + i, DNNLK__SFX(dnnlk__mt_step_v)(mt + i, mt + i + 397));
    for (; i < 227; i++) mt[i] = DNNLK__SFX(dnnlk__mt_step_s)(mt, i);
    /* [227, 623): the far word (i - 227) is new, at least 227 back; mt[i + 1] must still be old */
    for (; i + DNNLK__RW <= 623; i += DNNLK__RW) dnnlk__vi_storeu(mt + i, DNNLK__SFX(dnnlk__mt_step_v)(mt + i, mt + i - 227));
    for (; i < 624; i++) mt[i] = DNNLK__SFX(dnnlk__mt_step_s)(mt, i);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_temper_v)(const uint32_t *src, uint32_t *dst, size_t n) {
    size_t i = 0;
    for (; i + DNNLK__RW <= n; i += DNNLK__RW) {
        dnnlk__rv y = dnnlk__vi_loadu(src + i);
        y = dnnlk__vi_xor(y, dnnlk__vi_srli(y, 11));
        y = dnnlk__vi_xor(y, dnnlk__vi_and(dnnlk__vi_slli(y, 7), dnnlk__vi_set1((int)0x9d2c5680u)));
        y = dnnlk__vi_xor(y, dnnlk__vi_and(dnnlk__vi_slli(y, 15), dnnlk__vi_set1((int)0xefc60000u)));
        y = dnnlk__vi_xor(y, dnnlk__vi_srli(y, 18));
        dnnlk__vi_storeu(dst + i, y);
    }
    for (; i < n; i++) dst[i] = dnnlk__mt_temper(src[i]);
}

#undef DNNLK__MCG_STEP
#undef DNNLK__RW
#undef dnnlk__rv
#undef dnnlk__rv_set1_64
#undef dnnlk__rv_mul_epu32
#undef dnnlk__rv_srli64
#undef dnnlk__rv_slli64
#undef dnnlk__rv_add64
#undef dnnlk__rv_min_epu32
#undef dnnlk__rv_blend_odd
#undef dnnlk__rv_unpacklo32
#undef dnnlk__rv_unpackhi32
#undef dnnlk__rv_unpacklo64
#undef dnnlk__rv_unpackhi64
#undef dnnlk__rv_lane0
#undef dnnlk__rv_lts_bits
#undef dnnlk__rv_ltu_vec
#undef dnnlk__rv_ltu_bits
