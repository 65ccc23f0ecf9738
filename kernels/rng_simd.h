/* dnnl_kernels — rng_simd.h: the RNG draw kernels, one body compiled at every level (the scalar
 * one included) by simd_instantiate.h (no include guard; see rng_engine.h and rng_draw.h for the
 * semantics). The generators themselves are in rng_gen_simd.h, shared with dropout
 * (compiled per level by rng_engine.h). */

/* n outputs from value x; returns the value after them. */
static DNNLK__NOINLINE uint32_t DNNLK__SFX(dnnlk__mcg_u32_v)(uint32_t x, uint32_t *dst, size_t n) {
    const size_t R = 4 * DNNLK__RW;
    if (n >= R) {
        dnnlk__vq g[4];
        const dnnlk__vq step = dnnlk__vq_set1_64(dnnlk__mcg_pow_table()[R]);
        DNNLK__SFX(dnnlk__mcg_start)(x, g);
        for (; n >= R; n -= R, dst += R) {
            dnnlk__vq_storeu(dst, g[0]);
            dnnlk__vq_storeu(dst + DNNLK__RW, g[1]);
            dnnlk__vq_storeu(dst + 2 * DNNLK__RW, g[2]);
            dnnlk__vq_storeu(dst + 3 * DNNLK__RW, g[3]);
            DNNLK__MCG_STEP(g, step);
        }
        x = dnnlk__vq_lane0_u32(g[0]);
    }
    for (; n > 0; n--) {
        *dst++ = x;
        x = dnnlk__mcg_mulmod(x, DNNLK_MCG31_A);
    }
    return x;
}

/* u = (v >> shift) * 2^-24, low + width*u (not fused), limited to top. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__uniform_v)(dnnlk__vi v, int shift, dnnlk__vf low,
                                                                  dnnlk__vf width, dnnlk__vf top) {
    dnnlk__vf u = dnnlk__vi_to_vf(shift == 7 ? dnnlk__vi_srli(v, 7) : dnnlk__vi_srli(v, 8));
    dnnlk__vf t = dnnlk__vf_mul(width, dnnlk__vf_mul(u, dnnlk__vf_set1(1.0f / 16777216.0f)));
    dnnlk__vf_nofuse(t);
    return dnnlk__vf_min(dnnlk__vf_add(low, t), top);
}

/* The RW uniform values of one MCG31 group at dst (DNNLK__VF_N at a time). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__mcg_uniform_group)(float *dst, dnnlk__vq g, dnnlk__vf vl, dnnlk__vf vw,
                                                                    dnnlk__vf vt) {
    int j;
    for (j = 0; j < DNNLK__RW; j += DNNLK__VF_N)
        dnnlk__vf_storeu(dst + j, DNNLK__SFX(dnnlk__uniform_v)(dnnlk__vq_part_vi(g, j), 7, vl, vw, vt));
}

static DNNLK__NOINLINE uint32_t DNNLK__SFX(dnnlk__mcg_uniform_v)(uint32_t x, float *dst, size_t n, float low,
                                                                 float width, float top) {
    const size_t R = 4 * DNNLK__RW;
    if (n >= R) {
        dnnlk__vq g[4];
        const dnnlk__vq step = dnnlk__vq_set1_64(dnnlk__mcg_pow_table()[R]);
        const dnnlk__vf vl = dnnlk__vf_set1(low), vw = dnnlk__vf_set1(width), vt = dnnlk__vf_set1(top);
        DNNLK__SFX(dnnlk__mcg_start)(x, g);
        for (; n >= R; n -= R, dst += R) {
            DNNLK__SFX(dnnlk__mcg_uniform_group)(dst, g[0], vl, vw, vt);
            DNNLK__SFX(dnnlk__mcg_uniform_group)(dst + DNNLK__RW, g[1], vl, vw, vt);
            DNNLK__SFX(dnnlk__mcg_uniform_group)(dst + 2 * DNNLK__RW, g[2], vl, vw, vt);
            DNNLK__SFX(dnnlk__mcg_uniform_group)(dst + 3 * DNNLK__RW, g[3], vl, vw, vt);
            DNNLK__MCG_STEP(g, step);
        }
        x = dnnlk__vq_lane0_u32(g[0]);
    }
    for (; n > 0; n--) {
        *dst++ = dnnlk__uniform_from24(x >> 7, low, width, top);
        x = dnnlk__mcg_mulmod(x, DNNLK_MCG31_A);
    }
    return x;
}

/* n bits (x < t) from value x into ceil(n/8) bytes (bits past n zero); returns the value after. */
static DNNLK__NOINLINE uint32_t DNNLK__SFX(dnnlk__mcg_bits_v)(uint32_t x, uint8_t *dst, size_t n, uint32_t t) {
    const size_t R = 4 * DNNLK__RW;
    uint64_t acc = 0;
    size_t i;
    if (n >= R) {
        dnnlk__vq g[4];
        const dnnlk__vq step = dnnlk__vq_set1_64(dnnlk__mcg_pow_table()[R]);
        const dnnlk__vq vt = dnnlk__vq_set1_32(t);
        DNNLK__SFX(dnnlk__mcg_start)(x, g);
        for (; n >= R; n -= R, dst += R / 8) {
            uint64_t b = DNNLK__SFX(dnnlk__mcg_round_bits)(g, vt);
            DNNLK__SFX(dnnlk__store_bits)(dst, b, R);
            DNNLK__MCG_STEP(g, step);
        }
        x = dnnlk__vq_lane0_u32(g[0]);
    }
    for (i = 0; i < n; i++) {
        acc |= (uint64_t)(x < t) << i;
        x = dnnlk__mcg_mulmod(x, DNNLK_MCG31_A);
    }
    for (i = 0; i < (n + 7) / 8; i++) dst[i] = (uint8_t)(acc >> (8 * i));
    return x;
}

/* The 4RW outputs of the round whose first counter is x (a multiple of 4), in order in o[0..3].
 * The RW counters run as two halves of RW/2, one counter per 64-bit lane with its words in the
 * low halves: a 32x32->64 multiply then gives the high word (moved down by a shuffle) and the low
 * word (in place) without blends, and garbage in the upper halves never reaches a low half
 * (multiplies read only low halves, xors are lane-wise). The counters x + offset are 64-bit adds,
 * so a carry into x_hi is exact. Half a holds words 0, 2, 4..., half b words 1, 3, 5...; word
 * 4q+r runs counter r*RW/4 + q (so the in-chunk transpose gives outputs in order).
 * ctr32: the lane's words are its 32-bit counter plus 0..3 (the low halves' adds wrap as the
 * 32-bit index does; the upper halves are never read). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__philox_round)(int ctr32, uint64_t x, uint32_t off_lo, uint32_t off_hi,
                                                               uint32_t k0, uint32_t k1, const dnnlk__vq *lane_off,
                                                               dnnlk__vq o[4]) {
    const dnnlk__vq m0 = dnnlk__vq_set1_64(DNNLK__PHILOX_M0), m1 = dnnlk__vq_set1_64(DNNLK__PHILOX_M1);
    dnnlk__vq xa = dnnlk__vq_add64(dnnlk__vq_set1_64(x), lane_off[0]);
    dnnlk__vq xb = dnnlk__vq_add64(dnnlk__vq_set1_64(x), lane_off[1]);
    dnnlk__vq a0, a1, a2, a3, b0, b1, b2, b3;
    dnnlk__vq c0, c1, c2, c3, t0, t1, t2, t3;
    int r;
    if (ctr32) {
        a0 = xa, a1 = dnnlk__vq_add32(xa, dnnlk__vq_set1_32(1)), a2 = dnnlk__vq_add32(xa, dnnlk__vq_set1_32(2));
        a3 = dnnlk__vq_add32(xa, dnnlk__vq_set1_32(3));
        b0 = xb, b1 = dnnlk__vq_add32(xb, dnnlk__vq_set1_32(1)), b2 = dnnlk__vq_add32(xb, dnnlk__vq_set1_32(2));
        b3 = dnnlk__vq_add32(xb, dnnlk__vq_set1_32(3));
    } else {
        a0 = dnnlk__vq_set1_32(off_lo), a1 = dnnlk__vq_set1_32(off_hi), a2 = xa, a3 = dnnlk__vq_srli64(xa, 32);
        b0 = a0, b1 = a1, b2 = xb, b3 = dnnlk__vq_srli64(xb, 32);
    }
    for (r = 0; r < 10; r++) {
        const dnnlk__vq vk0 = dnnlk__vq_set1_32(k0), vk1 = dnnlk__vq_set1_32(k1);
        DNNLK__SFX(dnnlk__philox_step)(&a0, &a1, &a2, &a3, m0, m1, vk0, vk1);
        DNNLK__SFX(dnnlk__philox_step)(&b0, &b1, &b2, &b3, m0, m1, vk0, vk1);
        k0 += DNNLK__PHILOX_W0;
        k1 += DNNLK__PHILOX_W1;
    }
    c0 = dnnlk__vq_blend_odd32(a0, dnnlk__vq_slli64(b0, 32));
    c1 = dnnlk__vq_blend_odd32(a1, dnnlk__vq_slli64(b1, 32));
    c2 = dnnlk__vq_blend_odd32(a2, dnnlk__vq_slli64(b2, 32));
    c3 = dnnlk__vq_blend_odd32(a3, dnnlk__vq_slli64(b3, 32));
    t0 = dnnlk__vq_unpacklo32(c0, c1);
    t1 = dnnlk__vq_unpackhi32(c0, c1);
    t2 = dnnlk__vq_unpacklo32(c2, c3);
    t3 = dnnlk__vq_unpackhi32(c2, c3);
    o[0] = dnnlk__vq_unpacklo64(t0, t2);
    o[1] = dnnlk__vq_unpackhi64(t0, t2);
    o[2] = dnnlk__vq_unpacklo64(t1, t3);
    o[3] = dnnlk__vq_unpackhi64(t1, t3);
}

/* Outputs [index, index + n) of stream (seed, offset), or of the ctr32 layout under seed. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__philox_u32_v)(int ctr32, uint64_t seed, uint64_t offset, uint64_t index,
                                                            uint32_t *dst, size_t n) {
    const size_t R = 4 * DNNLK__RW;
    dnnlk__vq lane_off[2];
    uint32_t k0 = (uint32_t)seed, k1 = ctr32 ? (uint32_t)seed : (uint32_t)(seed >> 32), ol = (uint32_t)offset,
             oh = (uint32_t)(offset >> 32);
    DNNLK__SFX(dnnlk__philox_lane_offs)(lane_off);
    while (n > 0 && (index & 3)) *dst++ = dnnlk__philox_any_at(ctr32, seed, offset, index++), n--;
    for (; n >= R; n -= R, dst += R, index += R) {
        dnnlk__vq o[4];
        DNNLK__SFX(dnnlk__philox_round)(ctr32, index, ol, oh, k0, k1, lane_off, o);
        dnnlk__vq_storeu(dst, o[0]);
        dnnlk__vq_storeu(dst + DNNLK__RW, o[1]);
        dnnlk__vq_storeu(dst + 2 * DNNLK__RW, o[2]);
        dnnlk__vq_storeu(dst + 3 * DNNLK__RW, o[3]);
    }
    while (n > 0) *dst++ = dnnlk__philox_any_at(ctr32, seed, offset, index++), n--;
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
    for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
        dnnlk__vf_storeu(buf + i, DNNLK__SFX(dnnlk__uniform_v)(dnnlk__vi_loadu(buf + i), 8, vl, vw, vt));
    for (; i < n; i++) {
        uint32_t v;
        memcpy(&v, buf + i, 4);
        buf[i] = dnnlk__uniform_from24(v >> 8, low, width, top);
    }
}

/* n bits "pair < t64" into ceil(n/8) bytes (bits past n zero), advancing (mt, *pos) by 2n
 * outputs: whole rounds of 4RW bits tempered and compared in vectors straight from the state,
 * the rest one pair at a time. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_bits_v)(uint32_t *mt, uint32_t *pos, uint64_t t64, uint8_t *dst,
                                                         size_t n) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__vq vt = dnnlk__vq_cmplt64_u_rhs(t64);
    uint64_t acc = 0;
    size_t i;
    for (; n >= R; n -= R, dst += R / 8)
        DNNLK__SFX(dnnlk__store_bits)(dst, DNNLK__SFX(dnnlk__mt_round_bits)(mt, pos, vt), R);
    for (i = 0; i < n; i++) {
        uint64_t s;
        int k;
        for (k = 0, s = 0; k < 2; k++) {
            if (*pos >= 624) {
                DNNLK__SFX(dnnlk__mt_twist_v)(mt);
                *pos = 0;
            }
            s |= (uint64_t)dnnlk__mt_temper(mt[(*pos)++]) << (32 * k);
        }
        acc |= (uint64_t)(s < t64) << i;
    }
    for (i = 0; i < (n + 7) / 8; i++) dst[i] = (uint8_t)(acc >> (8 * i));
}

/* n outputs tempered from n state words (DNNLK__RW at a time). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__mt_temper_v)(const uint32_t *src, uint32_t *dst, size_t n) {
    size_t i = 0;
    for (; i + DNNLK__RW <= n; i += DNNLK__RW)
        dnnlk__vq_storeu(dst + i, DNNLK__SFX(dnnlk__mt_temper_vec)(dnnlk__vq_loadu(src + i)));
    for (; i < n; i++) dst[i] = dnnlk__mt_temper(src[i]);
}

