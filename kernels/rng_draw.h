/* dnnl_kernels — rng_draw.h: draws from the engines of rng_engine.h: raw outputs, uniform
 * floats, Bernoulli bits; the kernels are rng_simd.h's body, compiled at every level.
 *
 * DRAWS
 *   dnnlk_rng_u32          raw outputs (MCG31: 31-bit values in [1, m-1]).
 *   dnnlk_rng_uniform_f32  low + (high - low) * u, u = (top 24 bits of the output) * 2^-24 (the
 *                          output's bits 30..7 for MCG31), computed as an f32 multiply then an
 *                          f32 add (never fused), then limited to the largest float below high;
 *                          so every value is in [low, high) (low itself when low == high).
 *   dnnlk_rng_bernoulli    n bits, 1 with probability p, packed LSB-first into bytes (bit i of
 *                          the result is bit i%8 of byte i/8; bits past n in the last byte are 0):
 *                            MCG31:   VSL's viRngBernoulli (ICDF) bit for bit: 1 when
 *                                     (float)((double)x/m) < (float)p, VSL's single-precision
 *                                     rule (an integer threshold; at p = 1 the 64 states
 *                                     x >= 2^31 - 65, whose u rounds to 1, give 0);
 *                            Philox:  1 when r/2^32 < p, exactly;
 *                            MT19937: 1 when generate_canonical<double,53>() < p, i.e. exactly
 *                                     libstdc++'s std::bernoulli_distribution(p) on std::mt19937;
 *                                     each bit uses two outputs.
 *                          p = 0 gives all 0, p = 1 all 1 (MCG31 at p = 1: see above); p
 *                          outside [0, 1] or NaN is invalid_arguments (as dropout's rate).
 *   Each call reads the state `rng` (const) and, when `end` is not NULL, part 0 writes the state
 *   after the call's draws to `end` (n outputs; 2n for MT19937 Bernoulli bits). `end` may be `rng`
 *   itself for a single-part call; with several parts running at once keep them separate.
 *   Chained calls (n1 from s, then n2 from the returned end state) give the same values as one
 *   call of n1 + n2, and every part count and ISA gives the same values.
 *
 * PARTS: (ith, nth) splits the n draws into contiguous shares (multiples of 16 values, or of 8
 *   bits for Bernoulli, so no two parts write the same byte). Each part jumps ahead to its share.
 *
 * STATUS: invalid_arguments for NULL pointers, n < 0, a bad (ith, nth), a corrupt state, or bad
 *   low/high/p; nothing is written then. */
#ifndef DNNLK_RNG_DRAW_H
#define DNNLK_RNG_DRAW_H

#include "base.h"
#include "cpu.h"
#include "loop.h"
#include "rng_engine.h"

static DNNLK__FORCEINLINE float dnnlk__uniform_from24(uint32_t u24, float low, float width, float top) {
    float u = (float)u24 * (1.0f / 16777216.0f);
    float t = width * u, r;
    DNNLK__NOFUSE(t);
    r = low + t;
    return r < top ? r : top;
}

/* The largest float below h (h finite, not the smallest float). */
static inline float dnnlk__float_below(float h) {
    uint32_t u = dnnlk__f32_bits(h);
    if (h == 0) return -dnnlk__f32_from_bits(1u);
    return dnnlk__f32_from_bits(h > 0 ? u - 1u : u + 1u);
}

/* g++ 12 reports the self-initialised _mm512_undefined_epi32() inside its own AVX-512 intrinsics
 * as uninitialised when they are inlined into C++ code (GCC bug 105593, fixed in 12.3/13). */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define DNNLK__SIMD_BODY "rng_simd.h"
#include "simd_instantiate.h"
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* ---- block generators: advance the stream `r` by n outputs (n draws) into dst ---- */

static inline void dnnlk__rng_gen_u32(dnnlk_rng *r, uint32_t *dst, size_t n) {
    if (n == 0) return;
    if (r->alg == dnnlk_rng_mcg31m1) {
        r->x = DNNLK__DISPATCH(dnnlk__mcg_u32_v, (r->x, dst, n));
        return;
    }
    if (dnnlk__is_philox(r->alg)) {
        int ctr32 = r->alg == dnnlk_rng_philox4x32_10_ctr32;
        DNNLK__DISPATCH(dnnlk__philox_u32_v, (ctr32, r->seed, r->offset, r->index, dst, n));
        r->index += n;
        return;
    }
    /* MT19937: whole stretches of the state tempered with vectors */
    while (n > 0) {
        size_t take;
        if (r->mt_pos >= 624) { dnnlk__mt_twist(r->mt); r->mt_pos = 0; }
        take = 624u - r->mt_pos;
        if (take > n) take = n;
        DNNLK__DISPATCH(dnnlk__mt_temper_v, (r->mt + r->mt_pos, dst, take));
        r->mt_pos += (uint32_t)take;
        dst += take;
        n -= take;
    }
}

/* top: the largest value allowed (below high, or low when low == high). */
static inline void dnnlk__rng_gen_uniform(dnnlk_rng *r, float *dst, size_t n, float low, float width, float top) {
    if (n == 0) return;
    if (r->alg == dnnlk_rng_mcg31m1) {
        r->x = DNNLK__DISPATCH(dnnlk__mcg_uniform_v, (r->x, dst, n, low, width, top));
        return;
    }
    /* Philox and MT19937: raw outputs in place, then converted in place */
    dnnlk__rng_gen_u32(r, (uint32_t *)(void *)dst, n);
    DNNLK__DISPATCH(dnnlk__u32_to_uniform_v, (dst, n, low, width, top));
}

/* n bits starting at bit 0 of dst (ceil(n/8) bytes written; bits past n are 0). MT19937 uses two
 * outputs per bit. */
static inline void dnnlk__rng_gen_bits(dnnlk_rng *r, uint8_t *dst, size_t n, const dnnlk__bern *b) {
    size_t nbytes = (n + 7) / 8;
    if (n == 0) return;
    if (b->kind == dnnlk__bern_never || b->kind == dnnlk__bern_always) {
        memset(dst, b->kind == dnnlk__bern_always ? 0xff : 0, nbytes);
        if (n % 8) dst[nbytes - 1] &= (uint8_t)((1u << (n % 8)) - 1u);
        dnnlk__rng_advance(r, r->alg == dnnlk_rng_mt19937 ? 2 * (uint64_t)n : (uint64_t)n);
        return;
    }
    if (r->alg == dnnlk_rng_mcg31m1) {
        r->x = DNNLK__DISPATCH(dnnlk__mcg_bits_v, (r->x, dst, n, b->t));
    } else if (dnnlk__is_philox(r->alg)) {
        uint32_t inv = b->kind == dnnlk__bern_ge;
        int ctr32 = r->alg == dnnlk_rng_philox4x32_10_ctr32;
        DNNLK__DISPATCH(dnnlk__philox_bits_v, (ctr32, r->seed, r->offset, r->index, dst, n, b->t, inv));
        r->index += n;
    } else { /* MT19937: each bit from a pair of outputs */
        DNNLK__DISPATCH(dnnlk__mt_bits_v, (r->mt, &r->mt_pos, b->t64, dst, n));
    }
}

/* ------------------------------------------------------------------ public API */

/* Common checks and the part's share; *cur is the input state moved to the share's start. */
static inline dnnlk_status dnnlk__rng_part(const dnnlk_rng *rng, const void *dst, int64_t n, int ith, int nth,
                                           int64_t align, int64_t *b, int64_t *e) {
    if (!dnnlk__rng_state_ok(rng) || n < 0 || (n > 0 && !dst) || !dnnlk__part_ok(ith, nth))
        return dnnlk_invalid_arguments;
    dnnlk__part_range(n, ith, nth, align, b, e);
    return dnnlk_success;
}

/* Part 0 writes the end state: from its own state after its share (cur, `left` outputs before the
 * end) rather than from the input, so MT19937 twists past its share only once. */
static inline void dnnlk__rng_write_end(const dnnlk_rng *cur, dnnlk_rng *end, uint64_t left, int ith) {
    dnnlk_rng t;
    if (!end || ith != 0) return;
    t = *cur;
    dnnlk__rng_advance(&t, left);
    *end = t;
}

/* n raw outputs into dst (see the top of the file). */
static inline dnnlk_status dnnlk_rng_u32(const dnnlk_rng *rng, uint32_t *dst, int64_t n, dnnlk_rng *end, int ith,
                                         int nth) {
    int64_t b, e;
    dnnlk_rng cur;
    dnnlk_status st = dnnlk__rng_part(rng, dst, n, ith, nth, 16, &b, &e);
    if (st != dnnlk_success) return st;
    cur = *rng;
    dnnlk__rng_advance(&cur, (uint64_t)b);
    dnnlk__rng_gen_u32(&cur, dst + b, (size_t)(e - b));
    dnnlk__rng_write_end(&cur, end, (uint64_t)(n - e), ith);
    return dnnlk_success;
}

static inline int dnnlk__uniform_args_ok(float low, float high, float *width, float *top) {
    float w;
    if (!(low <= high) || low - low != 0 || high - high != 0) return 0;
    w = high - low;
    if (w - w != 0) return 0;
    *width = w;
    *top = low < high ? dnnlk__float_below(high) : low;
    return 1;
}

/* n uniform f32 values in [low, high) into dst. */
static inline dnnlk_status dnnlk_rng_uniform_f32(const dnnlk_rng *rng, float *dst, int64_t n, float low, float high,
                                                 dnnlk_rng *end, int ith, int nth) {
    int64_t b, e;
    float width, top;
    dnnlk_rng cur;
    dnnlk_status st = dnnlk__rng_part(rng, dst, n, ith, nth, 16, &b, &e);
    if (st != dnnlk_success) return st;
    if (!dnnlk__uniform_args_ok(low, high, &width, &top)) return dnnlk_invalid_arguments;
    cur = *rng;
    dnnlk__rng_advance(&cur, (uint64_t)b);
    dnnlk__rng_gen_uniform(&cur, dst + b, (size_t)(e - b), low, width, top);
    dnnlk__rng_write_end(&cur, end, (uint64_t)(n - e), ith);
    return dnnlk_success;
}

/* n Bernoulli(p) bits into dst, ceil(n/8) bytes (see the top of the file for each engine's rule). */
static inline dnnlk_status dnnlk_rng_bernoulli(const dnnlk_rng *rng, uint8_t *dst, int64_t n, double p,
                                               dnnlk_rng *end, int ith, int nth) {
    int64_t b, e;
    dnnlk_rng cur;
    dnnlk__bern bern;
    uint64_t per = 1;
    dnnlk_status st = dnnlk__rng_part(rng, dst, n, ith, nth, 8, &b, &e);
    if (st != dnnlk_success) return st;
    if (!(p >= 0 && p <= 1)) return dnnlk_invalid_arguments; /* a probability; NaN fails too */
    bern = dnnlk__bern_for_p(rng->alg, p);
    if (rng->alg == dnnlk_rng_mt19937) per = 2;
    cur = *rng;
    dnnlk__rng_advance(&cur, per * (uint64_t)b);
    dnnlk__rng_gen_bits(&cur, dst + b / 8, (size_t)(e - b), &bern);
    dnnlk__rng_write_end(&cur, end, per * (uint64_t)(n - e), ith);
    return dnnlk_success;
}

#endif /* DNNLK_RNG_DRAW_H */
