/* dnnl_kernels — rng_simd.h: the vector RNG kernels, one body compiled per ISA by
 * simd_instantiate.h (no include guard; see rng.h for the semantics).
 *
 * MCG31m1: a round produces 4 groups of W lanes; lane j of group g holds x*a^(gW+j), and every
 * group steps by a^(4W). Four independent multiply chains hide the multiply latency. The product
 * of two 31-bit values (< 2^62) is reduced with one fold (2^31 = 1 mod m) to < 2m and one
 * conditional subtract done as an unsigned min on 32-bit lanes.
 * Philox4x32-10: W counters per round, one per lane, held as four word vectors. Lane 4q+r (q the
 * 128-bit chunk) runs counter r*W/4 + q of the round, so the in-chunk 4x4 transpose (8 unpacks)
 * leaves the 4W outputs in order without crossing chunks. The ctr32 layout differs only in the
 * counter words a lane starts from ({x, x+1, x+2, x+3} instead of {off_lo, off_hi, x_lo, x_hi}).
 * MT19937: the twist in vectors (the recurrence reads 1, 397 and 227 words away, so W-lane chunks
 * are independent; the two chunks at a wrap read a small ordered copy), tempering in vectors;
 * Bernoulli bits temper straight from the state and compare each output pair as a 64-bit lane. */

#include "rng_vec.h"

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
    dnnlk__vf_nofuse(t);
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

/* One Philox round on the four words of a block, each in the low half of a 64-bit lane: one
 * vpmuludq gives a product's hi and lo halves, and the next multiply ignores the upper halves. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__philox_step)(dnnlk__rv *x0, dnnlk__rv *x1, dnnlk__rv *x2, dnnlk__rv *x3,
                                                              dnnlk__rv m0, dnnlk__rv m1, dnnlk__rv k0, dnnlk__rv k1) {
    const dnnlk__rv p0 = dnnlk__rv_mul_epu32(*x0, m0), p1 = dnnlk__rv_mul_epu32(*x2, m1);
    *x0 = dnnlk__rv_xor3(dnnlk__rv_hi_down(p1), *x1, k0);
    *x2 = dnnlk__rv_xor3(dnnlk__rv_hi_down(p0), *x3, k1);
    *x1 = p1;
    *x3 = p0;
}

/* The 4W outputs of the round whose first counter is x (a multiple of 4), in order in o[0..3].
 * The W counters run as two halves of W/2, one counter per 64-bit lane with its words in the low
 * halves: a 32x32->64 multiply then gives the high word (moved down by a shuffle) and the low
 * word (in place) without blends, and garbage in the upper halves never reaches a low half
 * (multiplies read only low halves, xors are lane-wise). The counters x + offset are 64-bit adds,
 * so a carry into x_hi is exact. Half a holds full lanes 0, 2, 4..., half b lanes 1, 3, 5...;
 * lane 4q+r runs counter r*W/4 + q (so the in-chunk transpose gives outputs in order).
 * ctr32: the lane's words are its 32-bit counter plus 0..3 (the low halves' adds wrap as the
 * 32-bit index does; the upper halves are never read). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__philox_round)(int ctr32, uint64_t x, uint32_t off_lo, uint32_t off_hi,
                                                               uint32_t k0, uint32_t k1, const dnnlk__rv *lane_off,
                                                               dnnlk__rv o[4]) {
    const dnnlk__rv m0 = dnnlk__rv_set1_64(DNNLK__PHILOX_M0), m1 = dnnlk__rv_set1_64(DNNLK__PHILOX_M1);
    dnnlk__rv xa = dnnlk__rv_add64(dnnlk__rv_set1_64(x), lane_off[0]);
    dnnlk__rv xb = dnnlk__rv_add64(dnnlk__rv_set1_64(x), lane_off[1]);
    dnnlk__rv a0, a1, a2, a3, b0, b1, b2, b3;
    dnnlk__rv c0, c1, c2, c3, t0, t1, t2, t3;
    int r;
    if (ctr32) {
        a0 = xa, a1 = dnnlk__vi_add(xa, dnnlk__vi_set1(1)), a2 = dnnlk__vi_add(xa, dnnlk__vi_set1(2));
        a3 = dnnlk__vi_add(xa, dnnlk__vi_set1(3));
        b0 = xb, b1 = dnnlk__vi_add(xb, dnnlk__vi_set1(1)), b2 = dnnlk__vi_add(xb, dnnlk__vi_set1(2));
        b3 = dnnlk__vi_add(xb, dnnlk__vi_set1(3));
    } else {
        a0 = dnnlk__vi_set1((int)off_lo), a1 = dnnlk__vi_set1((int)off_hi), a2 = xa, a3 = dnnlk__rv_srli64(xa, 32);
        b0 = a0, b1 = a1, b2 = xb, b3 = dnnlk__rv_srli64(xb, 32);
    }
    for (r = 0; r < 10; r++) {
        const dnnlk__rv vk0 = dnnlk__vi_set1((int)k0), vk1 = dnnlk__vi_set1((int)k1);
        DNNLK__SFX(dnnlk__philox_step)(&a0, &a1, &a2, &a3, m0, m1, vk0, vk1);
        DNNLK__SFX(dnnlk__philox_step)(&b0, &b1, &b2, &b3, m0, m1, vk0, vk1);
        k0 += DNNLK__PHILOX_W0;
        k1 += DNNLK__PHILOX_W1;
    }
    c0 = dnnlk__rv_blend_odd(a0, dnnlk__rv_slli64(b0, 32));
    c1 = dnnlk__rv_blend_odd(a1, dnnlk__rv_slli64(b1, 32));
    c2 = dnnlk__rv_blend_odd(a2, dnnlk__rv_slli64(b2, 32));
    c3 = dnnlk__rv_blend_odd(a3, dnnlk__rv_slli64(b3, 32));
    t0 = dnnlk__rv_unpacklo32(c0, c1);
    t1 = dnnlk__rv_unpackhi32(c0, c1);
    t2 = dnnlk__rv_unpacklo32(c2, c3);
    t3 = dnnlk__rv_unpackhi32(c2, c3);
    o[0] = dnnlk__rv_unpacklo64(t0, t2);
    o[1] = dnnlk__rv_unpackhi64(t0, t2);
    o[2] = dnnlk__rv_unpacklo64(t1, t3);
    o[3] = dnnlk__rv_unpackhi64(t1, t3);
}

/* x offsets of the two halves (64-bit lanes): full lane l = 4q + r runs counter r*W/4 + q. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__philox_lane_offs)(dnnlk__rv off[2]) {
    uint64_t t[2][DNNLK__RW / 2];
    int i, h;
    for (h = 0; h < 2; h++)
        for (i = 0; i < DNNLK__RW / 2; i++) {
            int l = 2 * i + h;
            t[h][i] = (uint64_t)(4 * ((l % 4) * (DNNLK__RW / 4) + l / 4));
        }
    off[0] = dnnlk__vi_loadu(t[0]);
    off[1] = dnnlk__vi_loadu(t[1]);
}

/* Outputs [index, index + n) of stream (seed, offset), or of the ctr32 layout under seed. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__philox_u32_v)(int ctr32, uint64_t seed, uint64_t offset, uint64_t index,
                                                            uint32_t *dst, size_t n) {
    const size_t R = 4 * DNNLK__RW;
    dnnlk__rv lane_off[2];
    DNNLK__SFX(dnnlk__philox_lane_offs)(lane_off);
    uint32_t k0 = (uint32_t)seed, k1 = ctr32 ? (uint32_t)seed : (uint32_t)(seed >> 32), ol = (uint32_t)offset,
             oh = (uint32_t)(offset >> 32);
    while (n > 0 && (index & 3)) *dst++ = dnnlk__philox_any_at(ctr32, seed, offset, index++), n--;
    for (; n >= R; n -= R, dst += R, index += R) {
        dnnlk__rv o[4];
        DNNLK__SFX(dnnlk__philox_round)(ctr32, index, ol, oh, k0, k1, lane_off, o);
        dnnlk__vi_storeu(dst, o[0]);
        dnnlk__vi_storeu(dst + DNNLK__RW, o[1]);
        dnnlk__vi_storeu(dst + 2 * DNNLK__RW, o[2]);
        dnnlk__vi_storeu(dst + 3 * DNNLK__RW, o[3]);
    }
    while (n > 0) *dst++ = dnnlk__philox_any_at(ctr32, seed, offset, index++), n--;
}

/* What every Bernoulli round of one stream shares: the round keys broadcast once, the first
 * round's counter words 0-1 (the offset, the same in every lane) folded into constants, the
 * lanes' counter offsets, the threshold and the inversion. The ctr32 layout has no word shared by
 * every lane, so its first round is a plain one under key1. */
typedef struct DNNLK__SFX(dnnlk__pbits) {
    int ctr32;
    dnnlk__rv key1;        /* ctr32: round 1's key (k0 = k1) */
    dnnlk__rv key[20];     /* rounds 2..10: k0, k1 of round r at 2(r-1), 2(r-1)+1 */
    dnnlk__rv r1_c0x;      /* round 1: c0 = hi(M1*x_lo) ^ (off_hi ^ k0) */
    dnnlk__rv r1_c2x;      /*          c2 = x_hi ^ (hi(M0*off_lo) ^ k1) */
    dnnlk__rv r1_c3;       /*          c3 = lo(M0*off_lo) */
    dnnlk__rv lane_off[2]; /* the two halves' counter offsets (64-bit lanes) */
    dnnlk__rv vt;
    uint64_t invm;
} DNNLK__SFX(dnnlk__pbits);

/* Lane mapping of the Bernoulli rounds. AVX-512: full 32-bit lane l runs counter l (half a the
 * even lanes, half b the odd), so after a merge of the halves by one masked shuffle, the compare
 * mask of word w has bit l = output 4l + w, and the 64 bits interleave with four pdep; no
 * transpose. Other ISAs: the transposed layout of dnnlk__philox_round. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__pbits_init)(DNNLK__SFX(dnnlk__pbits) *c, int ctr32, uint64_t seed,
                                                             uint64_t offset, uint32_t t, uint32_t inv) {
    const size_t R = 4 * DNNLK__RW;
    uint32_t k0 = (uint32_t)seed, k1 = ctr32 ? (uint32_t)seed : (uint32_t)(seed >> 32), ol = (uint32_t)offset,
             oh = (uint32_t)(offset >> 32);
    uint64_t p0 = (uint64_t)DNNLK__PHILOX_M0 * ol;
    int r;
    c->ctr32 = ctr32;
    c->key1 = dnnlk__vi_set1((int)k0);
    c->r1_c0x = dnnlk__vi_set1((int)(oh ^ k0));
    c->r1_c2x = dnnlk__vi_set1((int)((uint32_t)(p0 >> 32) ^ k1));
    c->r1_c3 = dnnlk__vi_set1((int)(uint32_t)p0);
    for (r = 1; r < 10; r++) {
        k0 += DNNLK__PHILOX_W0;
        k1 += DNNLK__PHILOX_W1;
        c->key[2 * (r - 1)] = dnnlk__vi_set1((int)k0);
        c->key[2 * (r - 1) + 1] = dnnlk__vi_set1((int)k1);
    }
#if DNNLK__ISA == 3
    {
        uint64_t ta[8], tb[8];
        int i;
        for (i = 0; i < 8; i++) ta[i] = (uint64_t)(4 * (2 * i)), tb[i] = (uint64_t)(4 * (2 * i + 1));
        c->lane_off[0] = dnnlk__vi_loadu(ta);
        c->lane_off[1] = dnnlk__vi_loadu(tb);
    }
#else
    DNNLK__SFX(dnnlk__philox_lane_offs)(c->lane_off);
#endif
    c->vt = dnnlk__vi_set1((int)t);
    c->invm = inv ? (R == 64 ? ~0ull : (1ull << R) - 1) : 0;
}

/* The 4W bits (v < t) ^ inv of the round at counter x (a multiple of 4), bit i for output x + i. */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__philox_round_bits)(const DNNLK__SFX(dnnlk__pbits) *c, uint64_t x) {
    const dnnlk__rv m0 = dnnlk__rv_set1_64(DNNLK__PHILOX_M0), m1 = dnnlk__rv_set1_64(DNNLK__PHILOX_M1);
    dnnlk__rv xa = dnnlk__rv_add64(dnnlk__rv_set1_64(x), c->lane_off[0]);
    dnnlk__rv xb = dnnlk__rv_add64(dnnlk__rv_set1_64(x), c->lane_off[1]);
    dnnlk__rv a0, a1, a2, a3, b0, b1, b2, b3;
    int r;
    if (c->ctr32) { /* round 1 on the words {x, x+1, x+2, x+3} of each lane */
        const dnnlk__rv one = dnnlk__vi_set1(1), two = dnnlk__vi_set1(2), three = dnnlk__vi_set1(3);
        a0 = xa, a1 = dnnlk__vi_add(xa, one), a2 = dnnlk__vi_add(xa, two), a3 = dnnlk__vi_add(xa, three);
        b0 = xb, b1 = dnnlk__vi_add(xb, one), b2 = dnnlk__vi_add(xb, two), b3 = dnnlk__vi_add(xb, three);
        DNNLK__SFX(dnnlk__philox_step)(&a0, &a1, &a2, &a3, m0, m1, c->key1, c->key1);
        DNNLK__SFX(dnnlk__philox_step)(&b0, &b1, &b2, &b3, m0, m1, c->key1, c->key1);
    } else { /* round 1: words 0-1 are the offset, the same in every lane */
        dnnlk__rv pa = dnnlk__rv_mul_epu32(xa, m1), pb = dnnlk__rv_mul_epu32(xb, m1);
        a0 = dnnlk__vi_xor(dnnlk__rv_hi_down(pa), c->r1_c0x);
        b0 = dnnlk__vi_xor(dnnlk__rv_hi_down(pb), c->r1_c0x);
        a1 = pa, b1 = pb;
        a2 = dnnlk__vi_xor(dnnlk__rv_srli64(xa, 32), c->r1_c2x);
        b2 = dnnlk__vi_xor(dnnlk__rv_srli64(xb, 32), c->r1_c2x);
        a3 = c->r1_c3, b3 = c->r1_c3;
    }
    for (r = 0; r < 9; r++) {
        const dnnlk__rv vk0 = c->key[2 * r], vk1 = c->key[2 * r + 1];
        DNNLK__SFX(dnnlk__philox_step)(&a0, &a1, &a2, &a3, m0, m1, vk0, vk1);
        DNNLK__SFX(dnnlk__philox_step)(&b0, &b1, &b2, &b3, m0, m1, vk0, vk1);
    }
#if DNNLK__ISA == 3
    {
        const __mmask16 odd = (__mmask16)0xAAAA;
        uint64_t w0 = _mm512_cmplt_epu32_mask(_mm512_mask_shuffle_epi32(a0, odd, b0, (_MM_PERM_ENUM)0xA0), c->vt);
        uint64_t w1 = _mm512_cmplt_epu32_mask(_mm512_mask_shuffle_epi32(a1, odd, b1, (_MM_PERM_ENUM)0xA0), c->vt);
        uint64_t w2 = _mm512_cmplt_epu32_mask(_mm512_mask_shuffle_epi32(a2, odd, b2, (_MM_PERM_ENUM)0xA0), c->vt);
        uint64_t w3 = _mm512_cmplt_epu32_mask(_mm512_mask_shuffle_epi32(a3, odd, b3, (_MM_PERM_ENUM)0xA0), c->vt);
        return (_pdep_u64(w0, 0x1111111111111111ull) | _pdep_u64(w1, 0x2222222222222222ull) |
                _pdep_u64(w2, 0x4444444444444444ull) | _pdep_u64(w3, 0x8888888888888888ull)) ^
               c->invm;
    }
#else
    {
        dnnlk__rv c0 = dnnlk__rv_blend_odd(a0, dnnlk__rv_slli64(b0, 32));
        dnnlk__rv c1 = dnnlk__rv_blend_odd(a1, dnnlk__rv_slli64(b1, 32));
        dnnlk__rv c2 = dnnlk__rv_blend_odd(a2, dnnlk__rv_slli64(b2, 32));
        dnnlk__rv c3 = dnnlk__rv_blend_odd(a3, dnnlk__rv_slli64(b3, 32));
        dnnlk__rv t0 = dnnlk__rv_unpacklo32(c0, c1), t1 = dnnlk__rv_unpackhi32(c0, c1);
        dnnlk__rv t2 = dnnlk__rv_unpacklo32(c2, c3), t3 = dnnlk__rv_unpackhi32(c2, c3);
        const dnnlk__rv vt = c->vt;
        return (dnnlk__rv_ltu_bits(dnnlk__rv_unpacklo64(t0, t2), vt) |
                dnnlk__rv_ltu_bits(dnnlk__rv_unpackhi64(t0, t2), vt) << DNNLK__RW |
                dnnlk__rv_ltu_bits(dnnlk__rv_unpacklo64(t1, t3), vt) << (2 * DNNLK__RW) |
                dnnlk__rv_ltu_bits(dnnlk__rv_unpackhi64(t1, t3), vt) << (3 * DNNLK__RW)) ^
               c->invm;
    }
#endif
}

/* n bits ((v < t) xor inv) for outputs [index, index + n) into ceil(n/8) bytes, bits past n 0.
 * index need not be a multiple of 4: rounds start at the counter below it and the bits are
 * shifted down by s = index & 3 across rounds. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__philox_bits_v)(int ctr32, uint64_t seed, uint64_t offset, uint64_t index,
                                                             uint8_t *dst, size_t n, uint32_t t, uint32_t inv) {
    const size_t R = 4 * DNNLK__RW;
    const uint64_t rmask = R == 64 ? ~0ull : (1ull << R) - 1;
    DNNLK__SFX(dnnlk__pbits) c;
    unsigned s = (unsigned)(index & 3);
    uint64_t x = index - s, acc = 0;
    size_t i;
    DNNLK__SFX(dnnlk__pbits_init)(&c, ctr32, seed, offset, t, inv);
    if (n >= R) {
        uint64_t prev = DNNLK__SFX(dnnlk__philox_round_bits)(&c, x);
        for (; n >= R; n -= R, dst += R / 8, index += R) {
            uint64_t unit = prev;
            if (s) {
                uint64_t next;
                x += R;
                next = DNNLK__SFX(dnnlk__philox_round_bits)(&c, x);
                unit = ((prev >> s) | (next << (R - s))) & rmask;
                prev = next;
            } else if (n >= 2 * R) {
                x += R;
                prev = DNNLK__SFX(dnnlk__philox_round_bits)(&c, x);
            }
            DNNLK__SFX(dnnlk__store_bits)(dst, unit, R);
        }
    }
    for (i = 0; i < n; i++) {
        uint32_t v = dnnlk__philox_any_at(ctr32, seed, offset, index + i);
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

/* One twist step on W lanes: a = mt[i], b = mt[i + 1], f = the far word. */
static DNNLK__FORCEINLINE dnnlk__rv DNNLK__SFX(dnnlk__mt_step_vv)(dnnlk__rv a, dnnlk__rv b, dnnlk__rv f) {
#if DNNLK__ISA == 3
    /* y's low bit is b's: test b for the odd lanes, a masked xor adds the matrix word */
    __m512i y = _mm512_ternarylogic_epi32(_mm512_set1_epi32(INT32_MIN), a, b, 0xCA); /* top bit of a, rest of b */
    __mmask16 odd = _mm512_test_epi32_mask(b, _mm512_set1_epi32(1));
    __m512i r = _mm512_xor_si512(f, _mm512_srli_epi32(y, 1));
    return _mm512_mask_xor_epi32(r, odd, r, _mm512_set1_epi32((int)0x9908b0dfu));
#else
    dnnlk__rv y = dnnlk__vi_or(dnnlk__vi_and(a, dnnlk__vi_set1(INT32_MIN)), dnnlk__vi_and(b, dnnlk__vi_set1(0x7fffffff)));
    dnnlk__rv odd = dnnlk__vi_srai(dnnlk__vi_slli(y, 31), 31);
    return dnnlk__vi_xor(dnnlk__vi_xor(f, dnnlk__vi_srli(y, 1)), dnnlk__vi_and(odd, dnnlk__vi_set1((int)0x9908b0dfu)));
#endif
}

static DNNLK__FORCEINLINE dnnlk__rv DNNLK__SFX(dnnlk__mt_step_v)(const uint32_t *cur, const uint32_t *far) {
    return DNNLK__SFX(dnnlk__mt_step_vv)(dnnlk__vi_loadu(cur), dnnlk__vi_loadu(cur + 1), dnnlk__vi_loadu(far));
}

/* Whole W-word chunks only (624 is a multiple of 4, 8 and 16). Two chunks straddle a wrap: the one
 * holding i = 227, whose far words are old mt[621..623] then new mt[0..], and the last, whose
 * next word mt[624 % 624] is the new mt[0]; both read their words from a small copy laid out in
 * order, so no scalar steps remain. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_twist_v)(uint32_t *mt) {
    const int W = DNNLK__RW;
    const int s = 227 / DNNLK__RW * DNNLK__RW; /* the chunk holding i = 227 */
    uint32_t tmp[2 * DNNLK__RW + 1];
    int i = 0;
    /* [0, s): the far word (i + 397) is still old */
    for (; i < s; i += W) dnnlk__vi_storeu(mt + i, DNNLK__SFX(dnnlk__mt_step_v)(mt + i, mt + i + 397));
    /* the far words of lanes i < 227 are old mt[i + 397], of the rest new mt[i - 227]: both in
     * order in old mt[624-W..624) followed by new mt[0..W) */
    memcpy(tmp, mt + 624 - W, (size_t)W * 4);
    memcpy(tmp + W, mt, (size_t)W * 4);
    dnnlk__vi_storeu(mt + i, DNNLK__SFX(dnnlk__mt_step_v)(mt + i, tmp + W - (227 - s)));
    /* [s + W, 624 - W): the far word (i - 227) is new, the next word still old */
    for (i += W; i < 624 - W; i += W)
        dnnlk__vi_storeu(mt + i, DNNLK__SFX(dnnlk__mt_step_v)(mt + i, mt + i - 227));
    /* the last chunk: its next words are old mt[625-W..624) then the new mt[0] */
    memcpy(tmp, mt + i, (size_t)W * 4);
    tmp[W] = mt[0];
    dnnlk__vi_storeu(mt + i, DNNLK__SFX(dnnlk__mt_step_v)(tmp, mt + i - 227));
}

static DNNLK__FORCEINLINE dnnlk__rv DNNLK__SFX(dnnlk__mt_temper_vec)(dnnlk__rv y) {
    y = dnnlk__vi_xor(y, dnnlk__vi_srli(y, 11));
    y = dnnlk__vi_xor(y, dnnlk__vi_and(dnnlk__vi_slli(y, 7), dnnlk__vi_set1((int)0x9d2c5680u)));
    y = dnnlk__vi_xor(y, dnnlk__vi_and(dnnlk__vi_slli(y, 15), dnnlk__vi_set1((int)0xefc60000u)));
    return dnnlk__vi_xor(y, dnnlk__vi_srli(y, 18));
}

/* Bits "tempered pair < t64" of the W/2 pairs in the W untempered words at p (pair = the two
 * outputs as a little-endian u64, which is a 64-bit lane), in the low W/2 bits. */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__mt_pairs_lt)(const uint32_t *p, dnnlk__rv vt) {
    dnnlk__rv v = DNNLK__SFX(dnnlk__mt_temper_vec)(dnnlk__vi_loadu(p));
#if DNNLK__ISA == 3
    return (uint64_t)_mm512_cmplt_epu64_mask(v, vt);
#elif DNNLK__ISA == 2
    const __m256i bias = _mm256_set1_epi64x(INT64_MIN);
    return (uint64_t)(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(vt, _mm256_xor_si256(v, bias))));
#else
    /* no 64-bit compare before SSE4.2: hi < thi, or hi == thi and lo < tlo (unsigned, biased) */
    const __m128i bias = _mm_set1_epi32(INT32_MIN);
    __m128i vb = _mm_xor_si128(v, bias);
    __m128i lt = _mm_cmpgt_epi32(vt, vb), eq = _mm_cmpeq_epi32(vt, vb);
    __m128i r = _mm_or_si128(lt, _mm_and_si128(eq, _mm_shuffle_epi32(lt, 0xA0)));
    return (uint64_t)(unsigned)_mm_movemask_pd(_mm_castsi128_pd(r));
#endif
}

/* The threshold vector for dnnlk__mt_pairs_lt. */
static DNNLK__FORCEINLINE dnnlk__rv DNNLK__SFX(dnnlk__mt_pairs_t)(uint64_t t64) {
#if DNNLK__ISA == 1
    return _mm_xor_si128(_mm_set1_epi64x((long long)t64), _mm_set1_epi32(INT32_MIN));
#elif DNNLK__ISA == 2
    return _mm256_xor_si256(_mm256_set1_epi64x((long long)t64), _mm256_set1_epi64x(INT64_MIN));
#else
    return dnnlk__rv_set1_64(t64);
#endif
}

/* The 4W bits of the next 8W outputs from state (mt, *pos), twisting when the state runs out. */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__mt_round_bits)(uint32_t *mt, uint32_t *pos, dnnlk__rv vt) {
    const uint32_t R2 = 8 * DNNLK__RW; /* outputs per round */
    uint32_t buf[8 * DNNLK__RW];
    const uint32_t *p;
    uint64_t b = 0;
    int k;
    if (*pos + R2 <= 624) {
        p = mt + *pos;
        *pos += R2;
    } else { /* straddles a twist: the old tail, then the new head */
        uint32_t n1 = 624 - *pos;
        memcpy(buf, mt + *pos, (size_t)n1 * 4);
        DNNLK__SFX(dnnlk__mt_twist_v)(mt);
        memcpy(buf + n1, mt, (size_t)(R2 - n1) * 4);
        *pos = R2 - n1;
        p = buf;
    }
    for (k = 0; k < 8; k++) b |= DNNLK__SFX(dnnlk__mt_pairs_lt)(p + k * DNNLK__RW, vt) << (k * (DNNLK__RW / 2));
    return b;
}

/* n bits (n a multiple of 4W) "pair < t64" into n/8 bytes, advancing (mt, *pos) by 2n outputs. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_bits_v)(uint32_t *mt, uint32_t *pos, uint64_t t64, uint8_t *dst,
                                                         size_t n) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__rv vt = DNNLK__SFX(dnnlk__mt_pairs_t)(t64);
    size_t i;
    for (i = 0; i < n; i += R) DNNLK__SFX(dnnlk__store_bits)(dst + i / 8, DNNLK__SFX(dnnlk__mt_round_bits)(mt, pos, vt), R);
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


#include "rng_vec_end.h"
