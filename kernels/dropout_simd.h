/* dnnl_kernels — dropout_simd.h: the vector row kernel of dropout, one body per ISA (included by
 * simd_instantiate.h from dropout.h; no include guard).
 *
 * dst[i] = src[i] * (bit(pos + i) ? scale : 0) over a contiguous row, the keep bits read from an
 * LSB-first bit array 32 at a time (one unaligned 8-byte read per 32 elements); bits == NULL means
 * every element uses `scale` itself (a broadcast mask bit). The per-lane factor is built from the
 * bits and multiplied in (not a masked zeroing), so dropped NaN/Inf stay NaN and -x gives -0. */

#include "rng_vec.h"

#if DNNLK__ISA == 3
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__keep_factor)(uint32_t b, dnnlk__vf vs) {
    return _mm512_maskz_mov_ps((__mmask16)b, vs);
}
#elif DNNLK__ISA == 2
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__keep_factor)(uint32_t b, dnnlk__vf vs) {
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i m = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(b & 0xffu)), sel), sel);
    return _mm256_and_ps(_mm256_castsi256_ps(m), vs);
}
#else
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__keep_factor)(uint32_t b, dnnlk__vf vs) {
    const __m128i sel = _mm_setr_epi32(1, 2, 4, 8);
    __m128i m = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(b & 0xfu)), sel), sel);
    return _mm_and_ps(_mm_castsi128_ps(m), vs);
}
#endif

#define DNNLK__DW DNNLK__VF_N

/* bf16 without widening: one integer vector holds 2W bf16 values; the even ones become f32 by a
 * shift (their lane's low half), the odd ones by clearing the low half. The f32 products of bf16
 * inputs have a zero low half when they are NaN (x86 returns the quieted input NaN or the default
 * NaN), so plain round-to-nearest-even on the bits, u + 0x7fff + bit16(u), never carries out of a
 * NaN and equals dnnlk_f32_to_bf16 (which quiets NaN: already quiet here). The two halves merge
 * back in element order with a shift and a mask, with no narrowing conversion. Keep bits: b holds
 * the 2W bits of the pair; even elements take the even bits. */
#if DNNLK__ISA == 3
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__keep_factor2)(uint32_t b, dnnlk__vf vs, dnnlk__vf *fe, dnnlk__vf *fo) {
    *fe = _mm512_maskz_mov_ps((__mmask16)_pext_u32(b, 0x55555555u), vs);
    *fo = _mm512_maskz_mov_ps((__mmask16)_pext_u32(b, 0xaaaaaaaau), vs);
}
#elif DNNLK__ISA == 2
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__keep_factor2)(uint32_t b, dnnlk__vf vs, dnnlk__vf *fe, dnnlk__vf *fo) {
    const __m256i se = _mm256_setr_epi32(1, 4, 16, 64, 256, 1024, 4096, 16384);
    const __m256i so = _mm256_slli_epi32(se, 1);
    __m256i v = _mm256_set1_epi32((int)(b & 0xffffu));
    *fe = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(v, se), se)), vs);
    *fo = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(v, so), so)), vs);
}
#else
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__keep_factor2)(uint32_t b, dnnlk__vf vs, dnnlk__vf *fe, dnnlk__vf *fo) {
    const __m128i se = _mm_setr_epi32(1, 4, 16, 64), so = _mm_setr_epi32(2, 8, 32, 128);
    __m128i v = _mm_set1_epi32((int)(b & 0xffu));
    *fe = _mm_and_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(v, se), se)), vs);
    *fo = _mm_and_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(v, so), so)), vs);
}
#endif

static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__bf16_rne_bits)(dnnlk__vi u) {
#if DNNLK__ISA == 3 /* bit 16 as a lane mask: + 0x8000 where set, + 0x7fff elsewhere */
    __mmask16 odd = _mm512_test_epi32_mask(u, _mm512_set1_epi32(0x10000));
    return _mm512_mask_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), odd, u, _mm512_set1_epi32(0x8000));
#else
    dnnlk__vi lsb = dnnlk__vi_and(dnnlk__vi_srli(u, 16), dnnlk__vi_set1(1));
    return dnnlk__vi_add(dnnlk__vi_add(u, dnnlk__vi_set1(0x7fff)), lsb);
#endif
}

/* Streaming (large) rows: src of elements [i, i + n) DNNLK_DROPOUT_PF_BYTES ahead, into L2. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__drop_prefetch)(const void *src, size_t i, size_t n, int dt) {
    size_t es = dt == (int)dnnlk_f32 ? 4 : 2;
    dnnlk__prefetch_l2((const char *)src + i * es + DNNLK_DROPOUT_PF_BYTES, n * es);
}

/* 2W bf16 elements: dst = bf16(src * f), fe/fo the even/odd elements' factors; nt: dst aligned,
 * streamed. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__drop_bf16_pair)(uint16_t *dst, const uint16_t *src, dnnlk__vf fe,
                                                                 dnnlk__vf fo, int nt) {
    const dnnlk__vi hi = dnnlk__vi_set1((int)0xffff0000u);
    dnnlk__vi x = dnnlk__vi_loadu(src);
    dnnlk__vf ev = dnnlk__vi_as_vf(dnnlk__vi_slli(x, 16)), od = dnnlk__vi_as_vf(dnnlk__vi_and(x, hi));
    dnnlk__vi re = DNNLK__SFX(dnnlk__bf16_rne_bits)(dnnlk__vf_as_vi(dnnlk__vf_mul(ev, fe)));
    dnnlk__vi ro = DNNLK__SFX(dnnlk__bf16_rne_bits)(dnnlk__vf_as_vi(dnnlk__vf_mul(od, fo)));
    dnnlk__vi r = dnnlk__vi_or(dnnlk__vi_and(ro, hi), dnnlk__vi_srli(re, 16));
    if (nt) dnnlk__vf_stream((float *)(void *)dst, dnnlk__vi_as_vf(r));
    else dnnlk__vi_storeu(dst, r);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__drop_store)(void *dst, size_t i, dnnlk__vf v, int dt, int nt) {
    if (dt == (int)dnnlk_f32) {
        if (nt) dnnlk__vf_stream((float *)dst + i, v);
        else dnnlk__vf_storeu((float *)dst + i, v);
    } else if (dt == (int)dnnlk_bf16) {
        dnnlk__vf_store_bf16((uint16_t *)dst + i, v);
    } else {
        dnnlk__vf_store_f16((uint16_t *)dst + i, v);
    }
}

static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__drop_load)(const void *src, size_t i, int dt) {
    if (dt == (int)dnnlk_f32) return dnnlk__vf_loadu((const float *)src + i);
    if (dt == (int)dnnlk_bf16) return dnnlk__vf_load_bf16((const uint16_t *)src + i);
    return dnnlk__vf_load_f16((const uint16_t *)src + i);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__drop_one)(void *dst, const void *src, size_t i, int dt, float f) {
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
            DNNLK__SFX(dnnlk__drop_one)(dst, src, i, dt, f);
            i++;
        }
    if (dt == (int)dnnlk_bf16 && !bits) {
        for (; i + 2 * DNNLK__DW <= n; i += 2 * DNNLK__DW) {
            if (nt) DNNLK__SFX(dnnlk__drop_prefetch)(src, i, 2 * DNNLK__DW, dt);
            DNNLK__SFX(dnnlk__drop_bf16_pair)((uint16_t *)dst + i, (const uint16_t *)src + i, vs, vs, nt);
        }
    } else if (!bits) {
        for (; i + DNNLK__DW <= n; i += DNNLK__DW) {
            if (nt) DNNLK__SFX(dnnlk__drop_prefetch)(src, i, DNNLK__DW, dt);
            DNNLK__SFX(dnnlk__drop_store)(dst, i, dnnlk__vf_mul(DNNLK__SFX(dnnlk__drop_load)(src, i, dt), vs), dt, nt);
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
            if (nt) DNNLK__SFX(dnnlk__drop_prefetch)(src, i, 32, dt);
            if (dt == (int)dnnlk_bf16) {
                for (k = 0; k < 32; k += 2 * DNNLK__DW) {
                    dnnlk__vf fe, fo;
                    DNNLK__SFX(dnnlk__keep_factor2)(b >> k, vs, &fe, &fo);
                    DNNLK__SFX(dnnlk__drop_bf16_pair)((uint16_t *)dst + i + k, (const uint16_t *)src + i + k, fe, fo, nt);
                }
                continue;
            }
            for (k = 0; k < 32; k += DNNLK__DW) {
                dnnlk__vf f = DNNLK__SFX(dnnlk__keep_factor)(b >> k, vs);
                DNNLK__SFX(dnnlk__drop_store)(dst, i + (size_t)k,
                                              dnnlk__vf_mul(DNNLK__SFX(dnnlk__drop_load)(src, i + (size_t)k, dt), f), dt, nt);
            }
        }
    }
    for (; i < n; i++) {
        float f = bits ? (((bits[(pos + i) >> 3] >> ((pos + i) & 7)) & 1) ? scale : 0.0f) : scale;
        DNNLK__SFX(dnnlk__drop_one)(dst, src, i, dt, f);
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
    if (nt) DNNLK__SFX(dnnlk__drop_prefetch)(src, i, 4 * DNNLK__RW, dt);
    if (dt == (int)dnnlk_bf16) {
        for (k = 0; k < 4 * DNNLK__RW; k += 2 * DNNLK__RW) {
            dnnlk__vf fe, fo;
            DNNLK__SFX(dnnlk__keep_factor2)((uint32_t)(b >> k), vs, &fe, &fo);
            DNNLK__SFX(dnnlk__drop_bf16_pair)((uint16_t *)dst + i + k, (const uint16_t *)src + i + k, fe, fo, nt);
        }
        return;
    }
    for (k = 0; k < 4 * DNNLK__RW; k += DNNLK__RW) {
        dnnlk__vf f = DNNLK__SFX(dnnlk__keep_factor)((uint32_t)(b >> k), vs);
        DNNLK__SFX(dnnlk__drop_store)(dst, i + (size_t)k,
                                      dnnlk__vf_mul(DNNLK__SFX(dnnlk__drop_load)(src, i + (size_t)k, dt), f), dt, nt);
    }
}

/* MCG31 keep bits x < t from value x; returns the value after the rounds. */
static DNNLK__FORCEINLINE uint32_t DNNLK__SFX(dnnlk__fused_mcg_dt)(uint32_t x, uint32_t t, void *dst, const void *src,
                                                                 uint8_t *mask, size_t rounds, float scale, int dt,
                                                                 int nt) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__rv step = dnnlk__rv_set1_64(dnnlk__mcg_pow_table()[R]);
    const dnnlk__rv vt = dnnlk__vi_set1((int)t);
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    dnnlk__rv g[4];
    size_t r;
    DNNLK__SFX(dnnlk__mcg_start)(x, g);
    for (r = 0; r < rounds; r++) {
        uint64_t b = dnnlk__rv_lts_bits(g[0], vt) | dnnlk__rv_lts_bits(g[1], vt) << DNNLK__RW |
                     dnnlk__rv_lts_bits(g[2], vt) << (2 * DNNLK__RW) | dnnlk__rv_lts_bits(g[3], vt) << (3 * DNNLK__RW);
        DNNLK__MCG_STEP(g, step);
        DNNLK__SFX(dnnlk__store_bits)(mask + r * (R / 8), b, R);
        DNNLK__SFX(dnnlk__fused_apply)(dst, src, r * R, b, vs, dt, nt);
    }
    return dnnlk__rv_lane0(g[0]);
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

/* MT19937 keep bits "pair < t64", each round tempering 8W words straight from the state. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__fused_mt_dt)(uint32_t *mt, uint32_t *pos, uint64_t t64, void *dst,
                                                            const void *src, uint8_t *mask, size_t rounds, float scale,
                                                            int dt, int nt) {
    const size_t R = 4 * DNNLK__RW;
    const dnnlk__rv vt = DNNLK__SFX(dnnlk__mt_pairs_t)(t64);
    const dnnlk__vf vs = dnnlk__vf_set1(scale);
    size_t r;
    for (r = 0; r < rounds; r++) {
        uint64_t b = DNNLK__SFX(dnnlk__mt_round_bits)(mt, pos, vt);
        DNNLK__SFX(dnnlk__store_bits)(mask + r * (R / 8), b, R);
        DNNLK__SFX(dnnlk__fused_apply)(dst, src, r * R, b, vs, dt, nt);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__dropout_fused_mt_v)(uint32_t *mt, uint32_t *pos, uint64_t t64, void *dst,
                                                                const void *src, uint8_t *mask, size_t rounds,
                                                                float scale, int dt, int nt) {
    if (dt == (int)dnnlk_f32) DNNLK__SFX(dnnlk__fused_mt_dt)(mt, pos, t64, dst, src, mask, rounds, scale, (int)dnnlk_f32, nt);
    else if (dt == (int)dnnlk_bf16) DNNLK__SFX(dnnlk__fused_mt_dt)(mt, pos, t64, dst, src, mask, rounds, scale, (int)dnnlk_bf16, nt);
    else DNNLK__SFX(dnnlk__fused_mt_dt)(mt, pos, t64, dst, src, mask, rounds, scale, (int)dnnlk_f16, 0);
}

static DNNLK__NOINLINE uint32_t DNNLK__SFX(dnnlk__dropout_fused_mcg_v)(uint32_t x, uint32_t t, void *dst,
                                                                     const void *src, uint8_t *mask, size_t rounds,
                                                                     float scale, int dt, int nt) {
    if (dt == (int)dnnlk_f32) return DNNLK__SFX(dnnlk__fused_mcg_dt)(x, t, dst, src, mask, rounds, scale, (int)dnnlk_f32, nt);
    if (dt == (int)dnnlk_bf16) return DNNLK__SFX(dnnlk__fused_mcg_dt)(x, t, dst, src, mask, rounds, scale, (int)dnnlk_bf16, nt);
    return DNNLK__SFX(dnnlk__fused_mcg_dt)(x, t, dst, src, mask, rounds, scale, (int)dnnlk_f16, 0);
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__dropout_fused_philox_v)(int ctr32, uint64_t seed, uint64_t offset, uint64_t index,
                                                                    uint32_t t, uint32_t inv, void *dst,
                                                                    const void *src, uint8_t *mask, size_t rounds,
                                                                    float scale, int dt, int nt) {
    if (dt == (int)dnnlk_f32)
        DNNLK__SFX(dnnlk__fused_philox_dt)(ctr32, seed, offset, index, t, inv, dst, src, mask, rounds, scale, (int)dnnlk_f32, nt);
    else if (dt == (int)dnnlk_bf16)
        DNNLK__SFX(dnnlk__fused_philox_dt)(ctr32, seed, offset, index, t, inv, dst, src, mask, rounds, scale, (int)dnnlk_bf16, nt);
    else DNNLK__SFX(dnnlk__fused_philox_dt)(ctr32, seed, offset, index, t, inv, dst, src, mask, rounds, scale, (int)dnnlk_f16, 0);
}

#undef DNNLK__DW
#include "rng_vec_end.h"
