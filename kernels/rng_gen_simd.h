/* dnnl_kernels — rng_gen_simd.h: the bit generators that rng_simd.h and dropout_simd.h share,
 * written once on the vector layer (vec.h's rng section) and compiled at every level by
 * rng_engine.h, whose users' bodies call them (no include guard here). DNNLK__RW and
 * DNNLK__MCG_STEP are rng_engine.h's.
 *
 * A generator register (dnnlk__vq) holds DNNLK__RW = 2 * DNNLK__VQ_N 32-bit words; a round makes
 * R = 4 * DNNLK__RW outputs (16 at SSE4.1 and at the scalar level, 32 at AVX2, 64 at AVX-512).
 * MCG31m1: a round produces 4 groups of RW words; word j of group g holds x*a^(g*RW+j), and every
 * group steps by a^(4RW). Four independent multiply chains hide the multiply latency. The product
 * of two 31-bit values (< 2^62) is reduced with one fold (2^31 = 1 mod m) to < 2m and one
 * conditional subtract done as an unsigned min on 32-bit words.
 * Philox4x32-10: RW counters per round, held as four word registers. Word 4q+r (q the 128-bit
 * chunk) runs counter r*RW/4 + q of the round, so the in-chunk 4x4 transpose (8 unpacks) leaves
 * the 4RW outputs in order without crossing chunks. The ctr32 layout differs only in the counter
 * words a lane starts from ({x, x+1, x+2, x+3} instead of {off_lo, off_hi, x_lo, x_hi}).
 * MT19937: the twist in vectors of DNNLK__VF_N words (the recurrence reads 1, 397 and 227 words
 * away, so chunks are independent; the two chunks at a wrap read a small ordered copy); Bernoulli
 * bits temper straight from the state and compare each output pair as a 64-bit lane. */



/* ---- MCG31m1 ---- */

/* x * c mod m per 32-bit word; c_even/c_odd hold the even/odd words' multipliers in the low
 * halves of the 64-bit lanes. Words of x are in [1, m-1]; so are the results. */
static DNNLK__FORCEINLINE dnnlk__vq DNNLK__SFX(dnnlk__mcg_mulmod_v)(dnnlk__vq x, dnnlk__vq c_even, dnnlk__vq c_odd) {
    const dnnlk__vq m64 = dnnlk__vq_set1_64(DNNLK_MCG31_M);
    dnnlk__vq pe = dnnlk__vq_mul_even_u32(x, c_even);
    dnnlk__vq po = dnnlk__vq_mul_even_u32(dnnlk__vq_srli64(x, 32), c_odd);
    dnnlk__vq re = dnnlk__vq_add64(dnnlk__vq_and(pe, m64), dnnlk__vq_srli64(pe, 31));
    dnnlk__vq ro = dnnlk__vq_add64(dnnlk__vq_and(po, m64), dnnlk__vq_srli64(po, 31));
    dnnlk__vq r = dnnlk__vq_or(re, dnnlk__vq_slli64(ro, 32));
    return dnnlk__vq_min32_u(r, dnnlk__vq_sub32(r, dnnlk__vq_set1_32(DNNLK_MCG31_M)));
}

/* The four groups of the round starting at value x. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__mcg_start)(uint32_t x, dnnlk__vq g[4]) {
    const uint32_t *pw = dnnlk__mcg_pow_table();
    dnnlk__vq xs = dnnlk__vq_set1_32(x);
    int k;
    for (k = 0; k < 4; k++) {
        dnnlk__vq c = dnnlk__vq_loadu(pw + k * DNNLK__RW);
        g[k] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(xs, c, dnnlk__vq_srli64(c, 32));
    }
}

/* Stores the low nbits (a multiple of 8, <= 64) of v little-endian. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__store_bits)(uint8_t *dst, uint64_t v, size_t nbits) {
    if (nbits == 64) memcpy(dst, &v, 8);
    else if (nbits == 32) { uint32_t w = (uint32_t)v; memcpy(dst, &w, 4); }
    else { uint16_t w = (uint16_t)v; memcpy(dst, &w, 2); }
}

/* The 4RW bits x < t of a round's groups (MCG31 values are below 2^31: a signed compare). */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__mcg_round_bits)(const dnnlk__vq g[4], dnnlk__vq vt) {
    return dnnlk__vq_cmplt32_bits(g[0], vt) | dnnlk__vq_cmplt32_bits(g[1], vt) << DNNLK__RW |
           dnnlk__vq_cmplt32_bits(g[2], vt) << (2 * DNNLK__RW) | dnnlk__vq_cmplt32_bits(g[3], vt) << (3 * DNNLK__RW);
}

/* ---- Philox4x32-10 ---- */

/* One Philox round on the four words of a block, each in the low half of a 64-bit lane: one
 * 32x32->64 multiply gives a product's hi and lo halves, and the next multiply ignores the upper
 * halves. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__philox_step)(dnnlk__vq *x0, dnnlk__vq *x1, dnnlk__vq *x2, dnnlk__vq *x3,
                                                              dnnlk__vq m0, dnnlk__vq m1, dnnlk__vq k0, dnnlk__vq k1) {
    const dnnlk__vq p0 = dnnlk__vq_mul_even_u32(*x0, m0), p1 = dnnlk__vq_mul_even_u32(*x2, m1);
    *x0 = dnnlk__vq_xor3(dnnlk__vq_hi_down32(p1), *x1, k0);
    *x2 = dnnlk__vq_xor3(dnnlk__vq_hi_down32(p0), *x3, k1);
    *x1 = p1;
    *x3 = p0;
}

/* x offsets of the two halves (64-bit lanes): word l = 4q + r runs counter r*RW/4 + q. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__philox_lane_offs)(dnnlk__vq off[2]) {
    uint64_t t[2][DNNLK__RW / 2];
    int i, h;
    for (h = 0; h < 2; h++)
        for (i = 0; i < DNNLK__RW / 2; i++) {
            int l = 2 * i + h;
            t[h][i] = (uint64_t)(4 * ((l % 4) * (DNNLK__RW / 4) + l / 4));
        }
    off[0] = dnnlk__vq_loadu(t[0]);
    off[1] = dnnlk__vq_loadu(t[1]);
}

/* What every Bernoulli round of one stream shares: the round keys broadcast once, the first
 * round's counter words 0-1 (the offset, the same in every lane) folded into constants, the
 * lanes' counter offsets, the threshold and the inversion. The ctr32 layout has no word shared by
 * every lane, so its first round is a plain one under key1. */
typedef struct DNNLK__SFX(dnnlk__pbits) {
    int ctr32;
    dnnlk__vq key1;        /* ctr32: round 1's key (k0 = k1) */
    dnnlk__vq key[20];     /* rounds 2..10: k0, k1 of round r at 2(r-1), 2(r-1)+1 */
    dnnlk__vq r1_c0x;      /* round 1: c0 = hi(M1*x_lo) ^ (off_hi ^ k0) */
    dnnlk__vq r1_c2x;      /*          c2 = x_hi ^ (hi(M0*off_lo) ^ k1) */
    dnnlk__vq r1_c3;       /*          c3 = lo(M0*off_lo) */
    dnnlk__vq lane_off[2]; /* the two halves' counter offsets (64-bit lanes) */
    dnnlk__vq vt;
    uint64_t invm;
} DNNLK__SFX(dnnlk__pbits);

/* Lane mapping of the Bernoulli rounds. Where compares give bits cheaply (DNNLK__VEC_CMP_TO_BITS):
 * word l runs counter l (half a the even words, half b the odd), so after the halves merge
 * (dnnlk__vq_pack_lo32) the compare bits of word w have bit l = output 4l + w, and the 4RW bits
 * interleave with four deposits; no transpose. Elsewhere: the transposed layout of
 * dnnlk__philox_round. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__pbits_init)(DNNLK__SFX(dnnlk__pbits) *c, int ctr32, uint64_t seed,
                                                             uint64_t offset, uint32_t t, uint32_t inv) {
    const size_t R = 4 * DNNLK__RW;
    uint32_t k0 = (uint32_t)seed, k1 = ctr32 ? (uint32_t)seed : (uint32_t)(seed >> 32), ol = (uint32_t)offset,
             oh = (uint32_t)(offset >> 32);
    uint64_t p0 = (uint64_t)DNNLK__PHILOX_M0 * ol;
    int r;
    c->ctr32 = ctr32;
    c->key1 = dnnlk__vq_set1_32(k0);
    c->r1_c0x = dnnlk__vq_set1_32(oh ^ k0);
    c->r1_c2x = dnnlk__vq_set1_32((uint32_t)(p0 >> 32) ^ k1);
    c->r1_c3 = dnnlk__vq_set1_32((uint32_t)p0);
    /* round r's keys as k + r*W rather than two running sums: g++ 12.2 -O2 vectorizes the two
     * interleaved running sums of a plain-C register (the scalar level's) wrongly */
    for (r = 1; r < 10; r++) {
        c->key[2 * (r - 1)] = dnnlk__vq_set1_32(k0 + (uint32_t)r * DNNLK__PHILOX_W0);
        c->key[2 * (r - 1) + 1] = dnnlk__vq_set1_32(k1 + (uint32_t)r * DNNLK__PHILOX_W1);
    }
#if DNNLK__VEC_CMP_TO_BITS
    {
        uint64_t ta[DNNLK__VQ_N], tb[DNNLK__VQ_N];
        int i;
        for (i = 0; i < DNNLK__VQ_N; i++) ta[i] = (uint64_t)(4 * (2 * i)), tb[i] = (uint64_t)(4 * (2 * i + 1));
        c->lane_off[0] = dnnlk__vq_loadu(ta);
        c->lane_off[1] = dnnlk__vq_loadu(tb);
    }
#else
    DNNLK__SFX(dnnlk__philox_lane_offs)(c->lane_off);
#endif
    c->vt = dnnlk__vq_set1_32(t);
    c->invm = inv ? (R == 64 ? ~0ull : (1ull << R) - 1) : 0;
}

/* The 4RW bits (v < t) ^ inv of the round at counter x (a multiple of 4), bit i for output x + i. */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__philox_round_bits)(const DNNLK__SFX(dnnlk__pbits) *c, uint64_t x) {
    const dnnlk__vq m0 = dnnlk__vq_set1_64(DNNLK__PHILOX_M0), m1 = dnnlk__vq_set1_64(DNNLK__PHILOX_M1);
    dnnlk__vq xa = dnnlk__vq_add64(dnnlk__vq_set1_64(x), c->lane_off[0]);
    dnnlk__vq xb = dnnlk__vq_add64(dnnlk__vq_set1_64(x), c->lane_off[1]);
    dnnlk__vq a0, a1, a2, a3, b0, b1, b2, b3;
    int r;
    if (c->ctr32) { /* round 1 on the words {x, x+1, x+2, x+3} of each lane */
        const dnnlk__vq one = dnnlk__vq_set1_32(1), two = dnnlk__vq_set1_32(2), three = dnnlk__vq_set1_32(3);
        a0 = xa, a1 = dnnlk__vq_add32(xa, one), a2 = dnnlk__vq_add32(xa, two), a3 = dnnlk__vq_add32(xa, three);
        b0 = xb, b1 = dnnlk__vq_add32(xb, one), b2 = dnnlk__vq_add32(xb, two), b3 = dnnlk__vq_add32(xb, three);
        DNNLK__SFX(dnnlk__philox_step)(&a0, &a1, &a2, &a3, m0, m1, c->key1, c->key1);
        DNNLK__SFX(dnnlk__philox_step)(&b0, &b1, &b2, &b3, m0, m1, c->key1, c->key1);
    } else { /* round 1: words 0-1 are the offset, the same in every lane */
        dnnlk__vq pa = dnnlk__vq_mul_even_u32(xa, m1), pb = dnnlk__vq_mul_even_u32(xb, m1);
        a0 = dnnlk__vq_xor(dnnlk__vq_hi_down32(pa), c->r1_c0x);
        b0 = dnnlk__vq_xor(dnnlk__vq_hi_down32(pb), c->r1_c0x);
        a1 = pa, b1 = pb;
        a2 = dnnlk__vq_xor(dnnlk__vq_srli64(xa, 32), c->r1_c2x);
        b2 = dnnlk__vq_xor(dnnlk__vq_srli64(xb, 32), c->r1_c2x);
        a3 = c->r1_c3, b3 = c->r1_c3;
    }
    for (r = 0; r < 9; r++) {
        const dnnlk__vq vk0 = c->key[2 * r], vk1 = c->key[2 * r + 1];
        DNNLK__SFX(dnnlk__philox_step)(&a0, &a1, &a2, &a3, m0, m1, vk0, vk1);
        DNNLK__SFX(dnnlk__philox_step)(&b0, &b1, &b2, &b3, m0, m1, vk0, vk1);
    }
#if DNNLK__VEC_CMP_TO_BITS
    {
        const uint64_t rmask = 4 * DNNLK__RW == 64 ? ~0ull : (1ull << (4 * DNNLK__RW)) - 1;
        uint64_t w0 = dnnlk__vq_cmplt32_u_bits(dnnlk__vq_pack_lo32(a0, b0), c->vt);
        uint64_t w1 = dnnlk__vq_cmplt32_u_bits(dnnlk__vq_pack_lo32(a1, b1), c->vt);
        uint64_t w2 = dnnlk__vq_cmplt32_u_bits(dnnlk__vq_pack_lo32(a2, b2), c->vt);
        uint64_t w3 = dnnlk__vq_cmplt32_u_bits(dnnlk__vq_pack_lo32(a3, b3), c->vt);
        return (dnnlk__u64_deposit(w0, 0x1111111111111111ull & rmask) | dnnlk__u64_deposit(w1, 0x2222222222222222ull & rmask) |
                dnnlk__u64_deposit(w2, 0x4444444444444444ull & rmask) | dnnlk__u64_deposit(w3, 0x8888888888888888ull & rmask)) ^
               c->invm;
    }
#else
    {
        dnnlk__vq c0 = dnnlk__vq_blend_odd32(a0, dnnlk__vq_slli64(b0, 32));
        dnnlk__vq c1 = dnnlk__vq_blend_odd32(a1, dnnlk__vq_slli64(b1, 32));
        dnnlk__vq c2 = dnnlk__vq_blend_odd32(a2, dnnlk__vq_slli64(b2, 32));
        dnnlk__vq c3 = dnnlk__vq_blend_odd32(a3, dnnlk__vq_slli64(b3, 32));
        dnnlk__vq t0 = dnnlk__vq_unpacklo32(c0, c1), t1 = dnnlk__vq_unpackhi32(c0, c1);
        dnnlk__vq t2 = dnnlk__vq_unpacklo32(c2, c3), t3 = dnnlk__vq_unpackhi32(c2, c3);
        const dnnlk__vq vt = c->vt;
        return (dnnlk__vq_cmplt32_u_bits(dnnlk__vq_unpacklo64(t0, t2), vt) |
                dnnlk__vq_cmplt32_u_bits(dnnlk__vq_unpackhi64(t0, t2), vt) << DNNLK__RW |
                dnnlk__vq_cmplt32_u_bits(dnnlk__vq_unpacklo64(t1, t3), vt) << (2 * DNNLK__RW) |
                dnnlk__vq_cmplt32_u_bits(dnnlk__vq_unpackhi64(t1, t3), vt) << (3 * DNNLK__RW)) ^
               c->invm;
    }
#endif
}

/* ---- MT19937 ---- */

/* One twist step on DNNLK__VF_N words: a = mt[i], b = mt[i + 1], f = the far word. y's low bit is
 * b's, so the matrix word goes in where b is odd. */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__mt_step_vv)(dnnlk__vi a, dnnlk__vi b, dnnlk__vi f) {
    dnnlk__vi y = dnnlk__vi_bitselect(dnnlk__vi_set1(INT32_MIN), a, b); /* top bit of a, rest of b */
    return dnnlk__vi_xor_if_odd(dnnlk__vi_xor(f, dnnlk__vi_srli(y, 1)), b, dnnlk__vi_set1((int)0x9908b0dfu));
}

static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__mt_step_v)(const uint32_t *cur, const uint32_t *far) {
    return DNNLK__SFX(dnnlk__mt_step_vv)(dnnlk__vi_loadu(cur), dnnlk__vi_loadu(cur + 1), dnnlk__vi_loadu(far));
}

/* Whole W-word chunks only (624 is a multiple of 1, 4, 8 and 16). Two chunks straddle a wrap: the
 * one holding i = 227, whose far words are old mt[621..623] then new mt[0..], and the last, whose
 * next word mt[624 % 624] is the new mt[0]; both read their words from a small copy laid out in
 * order, so no other steps remain. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_twist_v)(uint32_t *mt) {
    const int W = DNNLK__VF_N;
    const int s = 227 / DNNLK__VF_N * DNNLK__VF_N; /* the chunk holding i = 227 */
    uint32_t tmp[2 * DNNLK__VF_N + 1];
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

/* The MT19937 jump (rng_engine.h): win[0..624) := g(T) win, T the one-word step of the recurrence
 * and g the polynomial poly (DNNLK__MT_JUMP_WORDS words, bit i = coefficient of x^i), by Horner's
 * rule: from the top coefficient down, step the accumulator once and add win where the coefficient
 * is 1. The accumulator slides along buf one word a step and moves back every 624 steps; the adds
 * (about 10^4 of 624 words each) are the cost and run in vectors. win must lie in T's image (at
 * least one step past a seeded state), where the polynomial identity holds for every word. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_jump_apply_v)(uint32_t *win, const uint64_t *poly) {
    uint32_t buf[2 * 624];
    int top = DNNLK__MT_JUMP_WORDS * 64 - 1, i, j, p = 0;
    while (top >= 0 && !((poly[top >> 6] >> (top & 63)) & 1)) top--;
    if (top < 0) { memset(win, 0, 624 * sizeof(uint32_t)); return; }
    memcpy(buf, win, 624 * sizeof(uint32_t));
    for (i = top - 1; i >= 0; i--) {
        if (p == 624) { memcpy(buf, buf + 624, 624 * sizeof(uint32_t)); p = 0; }
        dnnlk__mt_step_word(buf + p++);
        if ((poly[i >> 6] >> (i & 63)) & 1)
            for (j = 0; j < 624; j += DNNLK__VF_N)
                dnnlk__vi_storeu(buf + p + j, dnnlk__vi_xor(dnnlk__vi_loadu(buf + p + j), dnnlk__vi_loadu(win + j)));
    }
    memcpy(win, buf + p, 624 * sizeof(uint32_t));
}

static DNNLK__FORCEINLINE dnnlk__vq DNNLK__SFX(dnnlk__mt_temper_vec)(dnnlk__vq y) {
    y = dnnlk__vq_xor(y, dnnlk__vq_srli32(y, 11));
    y = dnnlk__vq_xor(y, dnnlk__vq_and(dnnlk__vq_slli32(y, 7), dnnlk__vq_set1_32(0x9d2c5680u)));
    y = dnnlk__vq_xor(y, dnnlk__vq_and(dnnlk__vq_slli32(y, 15), dnnlk__vq_set1_32(0xefc60000u)));
    return dnnlk__vq_xor(y, dnnlk__vq_srli32(y, 18));
}

/* The 4RW bits of the next 8RW outputs from state (mt, *pos), twisting when the state runs out:
 * each pair (two outputs as a little-endian u64, a 64-bit lane) tempered and compared with
 * vt = dnnlk__vq_cmplt64_u_rhs(t64). */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__mt_round_bits)(uint32_t *mt, uint32_t *pos, dnnlk__vq vt) {
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
    for (k = 0; k < 8; k++)
        b |= dnnlk__vq_cmplt64_u_bits(DNNLK__SFX(dnnlk__mt_temper_vec)(dnnlk__vq_loadu(p + k * DNNLK__RW)), vt)
             << (k * (DNNLK__RW / 2));
    return b;
}

