/* dnnl_kernels — dropout_simd.h: the row kernels of dropout, one body compiled at every level
 * (the scalar one included) by simd_instantiate.h from dropout.h (no include guard).
 *
 * dst[i] = src[i] * (bit(pos + i) ? scale : 0) over a contiguous row, the keep bits read from an
 * LSB-first bit array 32 at a time (one unaligned 8-byte read per 32 elements); bits == NULL means
 * every element uses `scale` itself (a broadcast mask bit). The per-lane factor is built from the
 * bits and multiplied in (not a masked zeroing), so dropped NaN/Inf stay NaN and -x gives -0.
 * The fused forward loops take their keep bits from rng_gen_simd.h's generators
 * (compiled per level by rng_engine.h, which dropout.h includes through rng_draw.h). */

/* The keep factors of DNNLK__VF_N elements: scale where the element's bit of b is set, +0 elsewhere. */
#define DNNLK__KEEP_FACTOR(b, vs) dnnlk__vf_maskz_bits((b), (vs))

#define DNNLK__DW DNNLK__VF_N

/* bf16 without widening: one integer vector holds 2W bf16 values; the even ones become f32 by a
 * shift (their lane's low half), the odd ones by clearing the low half. The f32 products of bf16
 * inputs have a zero low half when they are NaN (x86 returns the quieted input NaN or the default
 * NaN), so plain round-to-nearest-even on the bits, u + 0x7fff + bit16(u), never carries out of a
 * NaN and equals dnnlk_f32_to_bf16 (which quiets NaN: already quiet here). The two halves merge
 * back in element order with a shift and a mask, with no narrowing conversion. Keep bits: b holds
 * the 2W bits of the pair; even elements take the even bits. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__keep_factor2)(uint32_t b, dnnlk__vf vs, dnnlk__vf *fe, dnnlk__vf *fo) {
    *fe = dnnlk__vf_maskz_bits_even(b, vs);
    *fo = dnnlk__vf_maskz_bits_odd(b, vs);
}

/* Streaming (large) rows: src of elements [i, i + n) DNNLK_DROPOUT_PF_BYTES ahead, into L2. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__dropout_prefetch)(const void *src, size_t i, size_t n, int dt) {
    const char *p = (const char *)src + i * (dt == (int)dnnlk_f32 ? 4 : 2);
    size_t bytes = n * (dt == (int)dnnlk_f32 ? 4 : 2);
    (void)p, (void)bytes; /* the scalar level has no prefetch */
    dnnlk__vec_prefetch_l2(p + DNNLK_DROPOUT_PF_BYTES, bytes);
}

/* 2W bf16 elements: dst = bf16(src * f), fe/fo the even/odd elements' factors; nt: dst aligned,
 * streamed. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__dropout_bf16_pair)(uint16_t *dst, const uint16_t *src, dnnlk__vf fe,
                                                                 dnnlk__vf fo, int nt) {
    const dnnlk__vi hi = dnnlk__vi_set1((int)0xffff0000u);
    dnnlk__vi x = dnnlk__vi_loadu(src);
    dnnlk__vf ev = dnnlk__vi_as_vf(dnnlk__vi_slli(x, 16)), od = dnnlk__vi_as_vf(dnnlk__vi_and(x, hi));
    dnnlk__vi re = dnnlk__vi_bf16_rne_bits(dnnlk__vf_as_vi(dnnlk__vf_mul(ev, fe)));
    dnnlk__vi ro = dnnlk__vi_bf16_rne_bits(dnnlk__vf_as_vi(dnnlk__vf_mul(od, fo)));
    dnnlk__vi r = dnnlk__vi_or(dnnlk__vi_and(ro, hi), dnnlk__vi_srli(re, 16));
    if (nt) dnnlk__vf_stream((float *)(void *)dst, dnnlk__vi_as_vf(r));
    else dnnlk__vi_storeu(dst, r);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__dropout_store)(void *dst, size_t i, dnnlk__vf v, int dt, int nt) {
    if (dt == (int)dnnlk_f32) {
        if (nt) dnnlk__vf_stream((float *)dst + i, v);
        else dnnlk__vf_storeu((float *)dst + i, v);
    } else if (dt == (int)dnnlk_bf16) {
        dnnlk__vf_store_bf16((uint16_t *)dst + i, v);
    } else {
        dnnlk__vf_store_f16((uint16_t *)dst + i, v);
    }
}

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__dropout_load)(const void *src, size_t i, int dt) {
    if (dt == (int)dnnlk_f32) return dnnlk__vf_loadu((const float *)src + i);
    if (dt == (int)dnnlk_bf16) return dnnlk__vf_load_bf16((const uint16_t *)src + i);
    return dnnlk__vf_load_f16((const uint16_t *)src + i);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__dropout_one)(void *dst, const void *src, size_t i, int dt, float f) {
    size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    dnnlk__store_from_f32((char *)dst + i * es, (dnnlk_dtype)dt,
                          dnnlk__load_as_f32((const char *)src + i * es, (dnnlk_dtype)dt) * f);
}

/* The body for one dtype; dt is a constant in each call below, so the branches fold away. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__dropout_row_dt)(void *dst, const void *src, size_t n,
                                                                 const uint8_t *bits, uint64_t pos, size_t nbytes,
                                                                 float scale, int dt, int nt) {
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    size_t i = 0;
    const size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    nt = nt && dt != (int)dnnlk_f16;
    if (nt) /* aligned stores: peel to the vector boundary */
        while (i < n && ((uintptr_t)((char *)dst + i * es) & (sizeof(dnnlk__vf) - 1))) {
            float f = bits ? (((bits[(pos + i) >> 3] >> ((pos + i) & 7)) & 1) ? scale : 0.0f) : scale;
            DNNLK__SFX(dnnlk__dropout_one)(dst, src, i, dt, f);
            i++;
        }
    if (dt == (int)dnnlk_bf16 && !bits) {
        for (; i + 2 * DNNLK__DW <= n; i += 2 * DNNLK__DW) {
            if (nt) DNNLK__SFX(dnnlk__dropout_prefetch)(src, i, 2 * DNNLK__DW, dt);
            DNNLK__SFX(dnnlk__dropout_bf16_pair)((uint16_t *)dst + i, (const uint16_t *)src + i, vs, vs, nt);
        }
    } else if (!bits) {
        for (; i + DNNLK__DW <= n; i += DNNLK__DW) {
            if (nt) DNNLK__SFX(dnnlk__dropout_prefetch)(src, i, DNNLK__DW, dt);
            DNNLK__SFX(dnnlk__dropout_store)(dst, i, dnnlk__vf_mul(DNNLK__SFX(dnnlk__dropout_load)(src, i, dt), vs), dt, nt);
        }
    } else {
        for (; i + 32 <= n; i += 32) {
            uint64_t w;
            uint32_t b;
            int k;
            size_t byte = (size_t)((pos + i) >> 3);
            if (byte + 8 <= nbytes) memcpy(&w, bits + byte, 8);
            else { w = 0; memcpy(&w, bits + byte, nbytes - byte); }
            b = (uint32_t)(w >> ((pos + i) & 7));
            if (nt) DNNLK__SFX(dnnlk__dropout_prefetch)(src, i, 32, dt);
            if (dt == (int)dnnlk_bf16) {
                for (k = 0; k < 32; k += 2 * DNNLK__DW) {
                    dnnlk__vf fe, fo;
                    DNNLK__SFX(dnnlk__keep_factor2)(b >> k, vs, &fe, &fo);
                    DNNLK__SFX(dnnlk__dropout_bf16_pair)((uint16_t *)dst + i + k, (const uint16_t *)src + i + k, fe, fo, nt);
                }
                continue;
            }
            for (k = 0; k < 32; k += DNNLK__DW) {
                dnnlk__vf f = DNNLK__KEEP_FACTOR(b >> k, vs);
                DNNLK__SFX(dnnlk__dropout_store)(dst, i + (size_t)k,
                                              dnnlk__vf_mul(DNNLK__SFX(dnnlk__dropout_load)(src, i + (size_t)k, dt), f), dt, nt);
            }
        }
    }
    for (; i < n; i++) {
        float f = bits ? (((bits[(pos + i) >> 3] >> ((pos + i) & 7)) & 1) ? scale : 0.0f) : scale;
        DNNLK__SFX(dnnlk__dropout_one)(dst, src, i, dt, f);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__dropout_row_v)(void *dst, const void *src, size_t n, const uint8_t *bits,
                                                             uint64_t pos, size_t nbytes, float scale, int dt, int nt) {
    if (dt == (int)dnnlk_f32) DNNLK__SFX(dnnlk__dropout_row_dt)(dst, src, n, bits, pos, nbytes, scale, (int)dnnlk_f32, nt);
    else if (dt == (int)dnnlk_bf16)
        DNNLK__SFX(dnnlk__dropout_row_dt)(dst, src, n, bits, pos, nbytes, scale, (int)dnnlk_bf16, nt);
    else DNNLK__SFX(dnnlk__dropout_row_dt)(dst, src, n, bits, pos, nbytes, scale, (int)dnnlk_f16, 0);
}

/* ---- fused forward: generator, mask and data in one loop ----
 * Each round makes R = 4W keep bits in registers, stores them to the mask and scales the same R
 * elements, so the ALU work of the generator overlaps the memory traffic of the data. Both
 * kernels do floor(n / R) rounds; the caller finishes the rest. */

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fused_apply)(void *dst, const void *src, size_t i, uint64_t b,
                                                              dnnlk__vf vs, int dt, int nt) {
    int k;
    if (nt) DNNLK__SFX(dnnlk__dropout_prefetch)(src, i, 4 * DNNLK__RW, dt);
    if (dt == (int)dnnlk_bf16) {
        for (k = 0; k < 4 * DNNLK__RW; k += 2 * DNNLK__DW) {
            dnnlk__vf fe, fo;
            DNNLK__SFX(dnnlk__keep_factor2)((uint32_t)(b >> k), vs, &fe, &fo);
            DNNLK__SFX(dnnlk__dropout_bf16_pair)((uint16_t *)dst + i + k, (const uint16_t *)src + i + k, fe, fo, nt);
        }
        return;
    }
    for (k = 0; k < 4 * DNNLK__RW; k += DNNLK__DW) {
        dnnlk__vf f = DNNLK__KEEP_FACTOR((uint32_t)(b >> k), vs);
        DNNLK__SFX(dnnlk__dropout_store)(dst, i + (size_t)k,
                                      dnnlk__vf_mul(DNNLK__SFX(dnnlk__dropout_load)(src, i + (size_t)k, dt), f), dt, nt);
    }
}

/* MCG31 keep bits x < t from value x; returns the value after the rounds. */
static DNNLK__FORCEINLINE uint32_t DNNLK__SFX(dnnlk__fused_mcg_dt)(uint32_t x, uint32_t t, void *dst, const void *src,
                                                                 uint8_t *mask, size_t rounds, float scale, int dt,
                                                                 int nt) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__vq step = dnnlk__vq_set1_64(dnnlk__mcg_pow_table()[R]);
    const dnnlk__vq vt = dnnlk__vq_set1_32(t);
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    dnnlk__vq g[4];
    size_t r;
    DNNLK__SFX(dnnlk__mcg_start)(x, g);
    for (r = 0; r < rounds; r++) {
        uint64_t b = DNNLK__SFX(dnnlk__mcg_round_bits)(g, vt);
        DNNLK__MCG_STEP(g, step);
        DNNLK__SFX(dnnlk__store_bits)(mask + r * (R / 8), b, R);
        DNNLK__SFX(dnnlk__fused_apply)(dst, src, r * R, b, vs, dt, nt);
    }
    return dnnlk__vq_lane0_u32(g[0]);
}

/* Philox keep bits (v < t) ^ inv for outputs from index (a multiple of 4); ctr32 picks the layout. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fused_philox_dt)(int ctr32, uint64_t seed, uint64_t offset, uint64_t index,
                                                                uint32_t t, uint32_t inv, void *dst, const void *src,
                                                                uint8_t *mask, size_t rounds, float scale, int dt,
                                                                int nt) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    DNNLK__SFX(dnnlk__pbits) c;
    size_t r;
    DNNLK__SFX(dnnlk__pbits_init)(&c, ctr32, seed, offset, t, inv);
    for (r = 0; r < rounds; r++) {
        uint64_t b = DNNLK__SFX(dnnlk__philox_round_bits)(&c, index + r * R);
        DNNLK__SFX(dnnlk__store_bits)(mask + r * (R / 8), b, R);
        DNNLK__SFX(dnnlk__fused_apply)(dst, src, r * R, b, vs, dt, nt);
    }
}

/* MT19937 keep bits "pair < t64", each round tempering 8RW words straight from the state. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fused_mt_dt)(uint32_t *mt, uint32_t *pos, uint64_t t64, void *dst,
                                                            const void *src, uint8_t *mask, size_t rounds, float scale,
                                                            int dt, int nt) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__vq vt = dnnlk__vq_cmplt64_u_rhs(t64);
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    size_t r;
    for (r = 0; r < rounds; r++) {
        uint64_t b = DNNLK__SFX(dnnlk__mt_round_bits)(mt, pos, vt);
        DNNLK__SFX(dnnlk__store_bits)(mask + r * (R / 8), b, R);
        DNNLK__SFX(dnnlk__fused_apply)(dst, src, r * R, b, vs, dt, nt);
    }
}

/* The fused entries run floor(n / R) whole rounds of R = 4RW elements and return how many
 * elements they did; the caller finishes the rest. Streaming stores need aligned vectors: every
 * round starts R elements further, so an f32 dst aligned to R bytes (one f32 vector at the vector
 * levels) stays aligned; otherwise the rounds store normally. */
static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__fused_nt)(const void *dst, int nt) {
    return nt && ((uintptr_t)dst % (size_t)(4 * DNNLK__RW)) == 0;
}

static DNNLK__NOINLINE size_t DNNLK__SFX(dnnlk__dropout_fused_mt_v)(uint32_t *mt, uint32_t *pos, uint64_t t64, void *dst,
                                                                  const void *src, uint8_t *mask, size_t n,
                                                                  float scale, int dt, int nt) {
    const size_t rounds = n / (4 * DNNLK__RW);
    nt = DNNLK__SFX(dnnlk__fused_nt)(dst, nt);
    if (dt == (int)dnnlk_f32) DNNLK__SFX(dnnlk__fused_mt_dt)(mt, pos, t64, dst, src, mask, rounds, scale, (int)dnnlk_f32, nt);
    else if (dt == (int)dnnlk_bf16) DNNLK__SFX(dnnlk__fused_mt_dt)(mt, pos, t64, dst, src, mask, rounds, scale, (int)dnnlk_bf16, nt);
    else DNNLK__SFX(dnnlk__fused_mt_dt)(mt, pos, t64, dst, src, mask, rounds, scale, (int)dnnlk_f16, 0);
    return rounds * 4 * DNNLK__RW;
}

/* *x: the MCG31 value, moved past the rounds. */
static DNNLK__NOINLINE size_t DNNLK__SFX(dnnlk__dropout_fused_mcg_v)(uint32_t *x, uint32_t t, void *dst,
                                                                   const void *src, uint8_t *mask, size_t n,
                                                                   float scale, int dt, int nt) {
    const size_t rounds = n / (4 * DNNLK__RW);
    if (rounds == 0) return 0;
    nt = DNNLK__SFX(dnnlk__fused_nt)(dst, nt);
    if (dt == (int)dnnlk_f32) *x = DNNLK__SFX(dnnlk__fused_mcg_dt)(*x, t, dst, src, mask, rounds, scale, (int)dnnlk_f32, nt);
    else if (dt == (int)dnnlk_bf16) *x = DNNLK__SFX(dnnlk__fused_mcg_dt)(*x, t, dst, src, mask, rounds, scale, (int)dnnlk_bf16, nt);
    else *x = DNNLK__SFX(dnnlk__fused_mcg_dt)(*x, t, dst, src, mask, rounds, scale, (int)dnnlk_f16, 0);
    return rounds * 4 * DNNLK__RW;
}

static DNNLK__NOINLINE size_t DNNLK__SFX(dnnlk__dropout_fused_philox_v)(int ctr32, uint64_t seed, uint64_t offset, uint64_t index,
                                                                      uint32_t t, uint32_t inv, void *dst,
                                                                      const void *src, uint8_t *mask, size_t n,
                                                                      float scale, int dt, int nt) {
    const size_t rounds = n / (4 * DNNLK__RW);
    nt = DNNLK__SFX(dnnlk__fused_nt)(dst, nt);
    if (dt == (int)dnnlk_f32)
        DNNLK__SFX(dnnlk__fused_philox_dt)(ctr32, seed, offset, index, t, inv, dst, src, mask, rounds, scale, (int)dnnlk_f32, nt);
    else if (dt == (int)dnnlk_bf16)
        DNNLK__SFX(dnnlk__fused_philox_dt)(ctr32, seed, offset, index, t, inv, dst, src, mask, rounds, scale, (int)dnnlk_bf16, nt);
    else DNNLK__SFX(dnnlk__fused_philox_dt)(ctr32, seed, offset, index, t, inv, dst, src, mask, rounds, scale, (int)dnnlk_f16, 0);
    return rounds * 4 * DNNLK__RW;
}

/* A strided row (dstr, sstr element strides; mstr the mask's, 1 or 0 when broadcast): element by
 * element, one f32 multiply each, or a bitwise copy. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__dropout_row_strided_v)(char *dst, int64_t dstr, const char *src, int64_t sstr,
                                                                    int64_t n, const uint8_t *bits, uint64_t pos,
                                                                    size_t nbytes, int64_t mstr, float scale, int dt,
                                                                    int copy) {
    const int64_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    int64_t i;
    for (i = 0; i < n; i++) {
        const char *s = src + i * sstr * es;
        char *d = dst + i * dstr * es;
        if (copy) {
            memmove(d, s, (size_t)es);
        } else {
            uint64_t p = pos + (uint64_t)(i * mstr), v = 0;
            size_t byte = (size_t)(p >> 3);
            if (byte < nbytes) v = bits[byte] >> (p & 7);
            dnnlk__store_from_f32(d, (dnnlk_dtype)dt, dnnlk__load_as_f32(s, (dnnlk_dtype)dt) * ((v & 1) ? scale : 0.0f));
        }
    }
}

/* Orders the streaming stores before the entry returns. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__dropout_fence)(void) { dnnlk__vec_sfence(); }

#undef DNNLK__DW
#undef DNNLK__KEEP_FACTOR
