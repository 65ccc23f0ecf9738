/* dnnl_kernels — rng_engine.h: the random number engines: state, seeding, jump-ahead, and the
 * exact Bernoulli thresholds (128-bit arithmetic) every draw of bits uses. The draw APIs are in
 * rng_draw.h, the ByteIR rng_uniform op in rng_uniform.h.
 *
 * ENGINES (dnnlk_rng holds the algorithm and its state; it is a plain value: copy it freely)
 *   dnnlk_rng_mcg31m1      Intel VSL's MCG31m1: x(n+1) = a*x(n) mod m, a = 1132489760,
 *                          m = 2^31 - 1. Seeding: x0 = seed mod m, 0 becomes 1; the first
 *                          output is x0 (std::linear_congruential_engine's first output is x1).
 *                          Outputs are in [1, m-1]; the period is m - 1 = 2^31 - 2, so streams
 *                          longer than that repeat. Jump-ahead is x*a^k mod m (O(log k)).
 *   dnnlk_rng_philox4x32_10  Random123's Philox4x32-10, counter-based: output i (a 64-bit index)
 *                          is word (i & 3) of Philox4x32-10 applied to the counter
 *                          {offset_lo, offset_hi, x_lo, x_hi} with x = i & ~3 and the key
 *                          {seed_lo, seed_hi}: oneDNN's dropout layout with an offset. Any
 *                          output is a pure function of (seed, offset, i); jump-ahead is free.
 *   dnnlk_rng_philox4x32_10_ctr32  the same cipher in the 32-bit layout that oneDNN's dropout uses
 *                          when its offset is 0 (v3.6-v3.9 have no offset and use only this
 *                          one): output i is word (i & 3) of the counter {x, x+1, x+2, x+3},
 *                          x = (i mod 2^32) & ~3, under the key {s, s}, s = seed mod 2^32. The
 *                          index wraps at 2^32 as oneDNN's 32-bit index does. dnnlk_rng_init's
 *                          offset is the index of the first output (outputs skipped).
 *   dnnlk_rng_mt19937      std::mt19937, output for output (seeded with seed mod 2^32).
 *                          Jump-ahead: a discard (twists only, no tempering, ~0.1 ns per
 *                          output skipped) below DNNLK_MT_JUMP_MIN outputs; from there the
 *                          polynomial jump (a fixed ~0.43 ms per set bit of n >> 21, from the
 *                          constant tables of rng_mt_jump_tables.h), leaving the same state.
 *
 * dnnlk_rng_init(rng, alg, seed, offset) initialises an engine; dnnlk_rng_skip(rng, n) jumps
 * ahead n outputs. STATUS: invalid_arguments for a NULL pointer, an unknown algorithm or a corrupt
 * state; nothing is written then. */
#ifndef DNNLK_RNG_ENGINE_H
#define DNNLK_RNG_ENGINE_H

#include "base.h"
#include "cpu.h"
#include "rng_mt_jump_tables.h"

typedef enum dnnlk_rng_alg {
    dnnlk_rng_mcg31m1 = 0,
    dnnlk_rng_philox4x32_10 = 1,
    dnnlk_rng_mt19937 = 2,
    dnnlk_rng_philox4x32_10_ctr32 = 3
} dnnlk_rng_alg;

#define DNNLK_MCG31_M 2147483647u
#define DNNLK_MCG31_A 1132489760u

typedef struct dnnlk_rng {
    dnnlk_rng_alg alg;
    uint32_t x;          /* MCG31: the next output */
    uint64_t seed;       /* Philox: the key (ctr32: both key words are its low 32 bits) */
    uint64_t offset;     /* Philox: the counter's first two words (ctr32: unused, 0) */
    uint64_t index;      /* Philox: the index of the next output (ctr32: taken mod 2^32) */
    uint32_t mt_pos;     /* MT19937: index of the next output in mt[] (624: twist first) */
    uint32_t mt[624];    /* MT19937: the untempered state */
} dnnlk_rng;

/* ------------------------------------------------------------------ scalar engine pieces */

static DNNLK__FORCEINLINE uint32_t dnnlk__mcg_mulmod(uint32_t x, uint32_t c) {
    /* Mersenne reduction: 2^31 = 1 (mod m), so fold the high bits onto the low ones. */
    uint64_t p = (uint64_t)x * c;
    uint32_t r = (uint32_t)(p & DNNLK_MCG31_M) + (uint32_t)(p >> 31);
    return r >= DNNLK_MCG31_M ? r - DNNLK_MCG31_M : r;
}

/* a^k mod m by square-and-multiply; the exponent is taken mod m - 1 (Fermat). */
static inline uint32_t dnnlk__mcg_pow(uint64_t k) {
    uint32_t r = 1, b = DNNLK_MCG31_A;
    k %= (DNNLK_MCG31_M - 1u);
    while (k) {
        if (k & 1) r = dnnlk__mcg_mulmod(r, b);
        b = dnnlk__mcg_mulmod(b, b);
        k >>= 1;
    }
    return r;
}

/* a^j mod m for j = 0..64: the lane powers of the vector kernels (lane j of a round holds x*a^j)
 * and the per-round multipliers a^16, a^32, a^64 (4 groups of W = 4, 8, 16 lanes). Generated with
 * Python's pow(a, j, m); the tests recompute them with dnnlk__mcg_pow. */
static inline const uint32_t *dnnlk__mcg_pow_table(void) {
    static const uint32_t t[65] = {
        1u, 1132489760u, 826537482u, 289798557u, 480863449u, 1381340036u, 1582925527u, 1918178478u,
        1286028348u, 482167044u, 262060616u, 1856662125u, 839877947u, 1997268203u, 458714024u, 650347998u,
        1918607382u, 2085354693u, 1261383659u, 1816347431u, 1783934141u, 285758602u, 279985208u, 1010574554u,
        30702993u, 469757411u, 1637715577u, 1187464119u, 1330445151u, 436034412u, 703704746u, 486810570u,
        837482658u, 798392200u, 1706415731u, 1968606305u, 2137751365u, 1003692128u, 2073629851u, 662837670u,
        753596838u, 459361368u, 986648931u, 1857770552u, 1566002675u, 1132829524u, 399935603u, 1534314615u,
        1472569047u, 914362312u, 795348828u, 779928485u, 203817745u, 267625473u, 328103190u, 1652824835u,
        173842903u, 366072057u, 1902437057u, 1536317309u, 1425941789u, 700394750u, 1843706813u, 1262432117u,
        286907447u};
    return t;
}

#define DNNLK__PHILOX_M0 0xD2511F53u
#define DNNLK__PHILOX_M1 0xCD9E8D57u
#define DNNLK__PHILOX_W0 0x9E3779B9u
#define DNNLK__PHILOX_W1 0xBB67AE85u

static inline void dnnlk__philox4x32_10(const uint32_t in[4], uint32_t k0, uint32_t k1, uint32_t out[4]) {
    uint32_t c0 = in[0], c1 = in[1], c2 = in[2], c3 = in[3];
    int r;
    for (r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)DNNLK__PHILOX_M0 * c0, p1 = (uint64_t)DNNLK__PHILOX_M1 * c2;
        c0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        c1 = (uint32_t)p1;
        c2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c3 = (uint32_t)p0;
        k0 += DNNLK__PHILOX_W0;
        k1 += DNNLK__PHILOX_W1;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* Output i of the Philox stream (seed, offset). */
static inline uint32_t dnnlk__philox_at(uint64_t seed, uint64_t offset, uint64_t i) {
    uint32_t c[4], o[4];
    uint64_t x = i & ~(uint64_t)3;
    c[0] = (uint32_t)offset, c[1] = (uint32_t)(offset >> 32), c[2] = (uint32_t)x, c[3] = (uint32_t)(x >> 32);
    dnnlk__philox4x32_10(c, (uint32_t)seed, (uint32_t)(seed >> 32), o);
    return o[i & 3];
}

/* Output i of the 32-bit layout (dnnlk_rng_philox4x32_10_ctr32) under the 32-bit seed s. */
static inline uint32_t dnnlk__philox_ctr32_at(uint32_t s, uint64_t i) {
    uint32_t c[4], o[4], x = (uint32_t)i & ~3u;
    c[0] = x, c[1] = x + 1u, c[2] = x + 2u, c[3] = x + 3u;
    dnnlk__philox4x32_10(c, s, s, o);
    return o[i & 3];
}

/* Output i of either Philox layout: ctr32 selects the 32-bit one (offset unused there). */
static DNNLK__FORCEINLINE uint32_t dnnlk__philox_any_at(int ctr32, uint64_t seed, uint64_t offset, uint64_t i) {
    return ctr32 ? dnnlk__philox_ctr32_at((uint32_t)seed, i) : dnnlk__philox_at(seed, offset, i);
}

static inline int dnnlk__is_philox(dnnlk_rng_alg alg) {
    return alg == dnnlk_rng_philox4x32_10 || alg == dnnlk_rng_philox4x32_10_ctr32;
}

static inline int dnnlk__rng_alg_ok(dnnlk_rng_alg alg) {
    return alg == dnnlk_rng_mcg31m1 || dnnlk__is_philox(alg) || alg == dnnlk_rng_mt19937;
}

static DNNLK__FORCEINLINE uint32_t dnnlk__mt_temper(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* ------------------------------------------------------------ exact Bernoulli thresholds */

/* A 128-bit unsigned integer, enough for (53-bit mantissa) x (33-bit multiplier). */
typedef struct dnnlk__u128 { uint64_t hi, lo; } dnnlk__u128;

static inline dnnlk__u128 dnnlk__mul_53x33(uint64_t a, uint64_t b) {
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh, mid, lo;
    dnnlk__u128 r;
    mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    lo = (ll & 0xffffffffu) | (mid << 32);
    r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    r.lo = lo;
    return r;
}

/* floor(v / 2^k) (as 64 bits: callers keep it small) and whether the remainder is nonzero. */
static inline uint64_t dnnlk__u128_shr(dnnlk__u128 v, int k, int *inexact) {
    uint64_t q, rem;
    if (k == 0) { *inexact = 0; return v.lo; }
    if (k >= 128) { *inexact = (v.hi | v.lo) != 0; return 0; }
    if (k >= 64) {
        q = k == 64 ? v.hi : v.hi >> (k - 64);
        rem = (k == 64 ? 0 : v.hi & ((1ull << (k - 64)) - 1)) | v.lo;
    } else {
        q = (v.lo >> k) | (v.hi << (64 - k));
        rem = v.lo & ((1ull << k) - 1);
    }
    *inexact = rem != 0;
    return q;
}

/* p (0 < p < 1, finite) as M * 2^-k exactly, M < 2^53. */
static inline void dnnlk__dbl_split(double p, uint64_t *m, int *k) {
    uint64_t b;
    int e;
    memcpy(&b, &p, 8);
    e = (int)((b >> 52) & 0x7ff);
    *m = b & ((1ull << 52) - 1);
    if (e == 0) *k = 1074;
    else *m |= 1ull << 52, *k = 1075 - e;
}

/* ceil(p * c) for 0 < p < 1, c <= 2^32, exactly. */
static inline uint64_t dnnlk__ceil_mul(double p, uint64_t c) {
    uint64_t m;
    int k, inexact;
    uint64_t q;
    dnnlk__dbl_split(p, &m, &k);
    q = dnnlk__u128_shr(dnnlk__mul_53x33(m, c), k, &inexact);
    return q + (uint64_t)inexact;
}

/* floor(RNE(p * c)) for 0 <= p <= 1, c <= 2^32: the product rounded to a double as C computes
 * it in the default rounding mode, then floored, without depending on MXCSR. */
static inline uint64_t dnnlk__floor_rne_mul(double p, uint64_t c) {
    uint64_t m, q;
    int k, len = 0, d, inexact;
    dnnlk__u128 v;
    if (p <= 0) return 0;
    if (p >= 1) return c;
    dnnlk__dbl_split(p, &m, &k);
    v = dnnlk__mul_53x33(m, c);
    {   /* bit length of v */
        uint64_t t = v.hi ? v.hi : v.lo;
        int base = v.hi ? 64 : 0;
        while (t) len++, t >>= 1;
        len += base;
    }
    d = len - 53;
    if (d > 0) { /* round v to 53 significant bits, ties to even */
        dnnlk__u128 half, rem;
        int gt, eq;
        q = dnnlk__u128_shr(v, d, &inexact);
        rem.hi = d > 64 ? v.hi & ((1ull << (d - 64)) - 1) : 0;
        rem.lo = d >= 64 ? v.lo : v.lo & ((1ull << d) - 1);
        half.hi = d - 1 >= 64 ? 1ull << (d - 1 - 64) : 0;
        half.lo = d - 1 >= 64 ? 0 : 1ull << (d - 1);
        gt = rem.hi > half.hi || (rem.hi == half.hi && rem.lo > half.lo);
        eq = rem.hi == half.hi && rem.lo == half.lo;
        if (gt || (eq && (q & 1))) q++;
        /* value = q * 2^d; floor(value / 2^k) */
        if (d >= k) return q << (d - k);
        return (k - d) >= 64 ? 0 : q >> (k - d);
    }
    return dnnlk__u128_shr(v, k, &inexact);
}

/* How a block of raw outputs becomes bits. */
enum { dnnlk__bern_never = 0, dnnlk__bern_always = 1, dnnlk__bern_lt = 2, dnnlk__bern_ge = 3 };
typedef struct dnnlk__bern {
    int kind;      /* never, always, lt (bit = v < t), ge (bit = v >= t); MT19937: lt on pairs */
    uint32_t t;    /* MCG31 and Philox threshold */
    uint64_t t64;  /* MT19937: bit = (r0 + r1 * 2^32) < t64 */
} dnnlk__bern;

/* generate_canonical<double, 53> on the pair S = r0 + r1 * 2^32: S rounded to a double (ties to
 * even), scaled by 2^-64, and kept below 1; returned times 2^64 (2^64 - 2^11 for the kept-below-1
 * case), so comparisons stay in integers. */
static inline uint64_t dnnlk__canonical_scaled(uint64_t s, int *is_top) {
    int len = 0, d;
    uint64_t t = s, q, rem, half;
    *is_top = 0;
    while (t) len++, t >>= 1;
    if (len <= 53) return s;
    d = len - 53;
    q = s >> d;
    rem = s & ((1ull << d) - 1);
    half = 1ull << (d - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
    if (q >> 53 && d == 11) { *is_top = 1; return 0xfffffffffffff800ull; } /* rounded to 2^64 */
    return q << d;
}

/* MT19937's rule "canonical < p" as "S < t64": the canonical value is monotone in S, so the bits
 * are 1 exactly below the first S whose canonical value reaches p. Found by bisection. */
/* floor(p * 2^64) for 0 < p < 1, and whether it is inexact. */
static inline uint64_t dnnlk__floor_p64(double p, int *inexact) {
    uint64_t mlo;
    int k;
    dnnlk__dbl_split(p, &mlo, &k);
    *inexact = 0;
    if (k <= 64) return mlo << (64 - k);
    if (k - 64 >= 64) { *inexact = mlo != 0; return 0; }
    *inexact = (mlo & ((1ull << (k - 64)) - 1)) != 0;
    return mlo >> (k - 64);
}

/* Bits "canonical * 2^64 < tp" (0 < tp < 2^64) as "S < t64". */
static inline dnnlk__bern dnnlk__bern_mt_scaled(uint64_t tp) {
    dnnlk__bern b;
    uint64_t lo = 0, hi = ~0ull;
    int top;
    memset(&b, 0, sizeof b);
    if (dnnlk__canonical_scaled(~0ull, &top) < tp) { b.kind = dnnlk__bern_always; return b; }
    /* smallest S with canonical(S) >= tp lies in (lo, hi] with canonical(0) = 0 < tp */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (dnnlk__canonical_scaled(mid, &top) < tp) lo = mid;
        else hi = mid;
    }
    b.kind = dnnlk__bern_lt;
    b.t64 = hi;
    return b;
}

static inline dnnlk__bern dnnlk__bern_mt(double p) {
    dnnlk__bern b;
    uint64_t tp;
    int inexact;
    memset(&b, 0, sizeof b);
    if (!(p > 0)) { b.kind = dnnlk__bern_never; return b; }
    if (p >= 1) { b.kind = dnnlk__bern_always; return b; }
    /* canonical*2^64 < p*2^64  <=>  canonical*2^64 < ceil(p*2^64) (integers) */
    tp = dnnlk__floor_p64(p, &inexact);
    return dnnlk__bern_mt_scaled(tp + (uint64_t)inexact);
}

/* VSL's MCG31m1 Bernoulli rule (viRngBernoulli, BERNOULLI_ICDF), as measured against libmkl_rt
 * over the whole period: bit = u < (float)p with u = (float)((double)x / m), VSL's single-precision
 * uniform, both conversions rounded to nearest even. u is monotone in x, so the bits are 1 exactly
 * below the first x whose u reaches (float)p: one integer threshold, as fast as the exact rule.
 * The roughly 2^-25 relative difference from x/m < p shows at the states whose u rounds up to
 * (float)p (32 of the 2^31 - 2 states at p = 0.5), and at p = 1 the 64 states whose u rounds to 1
 * give 0, as they do in VSL. The threshold comes from an integer model of the two roundings, so
 * the includer's MXCSR mode and FTZ/DAZ do not change it. */

/* The bits of the positive normal float m53 * 2^(e - 127 - 52) rounded to nearest even, for a
 * 53-bit significand m53 in [2^52, 2^53] and a biased float exponent e: rounding up to 2^24
 * carries into the exponent. */
static inline uint32_t dnnlk__f32_bits_rne(uint64_t m53, uint32_t e) {
    uint64_t f = m53 >> 29, rem = m53 & ((1ull << 29) - 1);
    f += rem > (1ull << 28) || (rem == (1ull << 28) && (f & 1));
    return (e << 23) + (uint32_t)(f - (1ull << 23));
}

/* The bits of the positive float nearest (ties to even) to a double in [2^-32, 2]. */
static inline uint32_t dnnlk__mcg31_f32_bits(double p) {
    uint64_t b;
    memcpy(&b, &p, 8);
    /* the double's exponent rebiased for float: - 1023 + 127 */
    return dnnlk__f32_bits_rne((b & ((1ull << 52) - 1)) | (1ull << 52), (uint32_t)((b >> 52) - 896));
}

/* The bits of VSL's u for state x in [1, m-1]: (float)((double)x / m). */
static inline uint32_t dnnlk__mcg31_u_bits(uint32_t x) {
    uint64_t r = x, q = 0;
    int s = 0, k;
    while ((r << s) < DNNLK_MCG31_M) s++;          /* x/m in [2^-s, 2^(1-s)) */
    for (k = s + 53; k > 0;) {                     /* q = floor(x * 2^(s+53) / m), 54 bits */
        int c = k < 32 ? k : 32;
        r <<= c;
        q = (q << c) | (r / DNNLK_MCG31_M);
        r %= DNNLK_MCG31_M, k -= c;
    }
    /* to 53 bits (the double); the remainder is never 0 (m is prime), so a set guard bit always
     * rounds up; then to the float */
    return dnnlk__f32_bits_rne((q >> 1) + (q & 1), (uint32_t)(127 - s));
}

static inline dnnlk__bern dnnlk__bern_mcg31(double p) {
    dnnlk__bern b;
    uint32_t pf, lo = 1, hi = DNNLK_MCG31_M - 1;
    memset(&b, 0, sizeof b);
    /* u >= u(1) > 2^-31, and (float)p <= 2^-32 below 2^-32: no state gives 1 */
    if (!(p >= 0x1p-32)) { b.kind = dnnlk__bern_never; return b; }
    pf = dnnlk__mcg31_f32_bits(p < 2 ? p : 2.0);
    if (dnnlk__mcg31_u_bits(lo) >= pf) { b.kind = dnnlk__bern_never; return b; }
    /* u(m-1) rounds to 1, so only a p whose float is above 1 gives 1 everywhere */
    if (dnnlk__mcg31_u_bits(hi) < pf) { b.kind = dnnlk__bern_always; return b; }
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (dnnlk__mcg31_u_bits(mid) < pf) lo = mid;
        else hi = mid;
    }
    b.kind = dnnlk__bern_lt, b.t = hi;
    return b;
}

/* Bits that are 1 with probability p for an engine (the public Bernoulli rule). */
static inline dnnlk__bern dnnlk__bern_for_p(dnnlk_rng_alg alg, double p) {
    dnnlk__bern b;
    uint64_t t;
    memset(&b, 0, sizeof b);
    if (alg == dnnlk_rng_mt19937) return dnnlk__bern_mt(p);
    if (alg == dnnlk_rng_mcg31m1) return dnnlk__bern_mcg31(p);
    if (!(p > 0)) { b.kind = dnnlk__bern_never; return b; }
    if (p >= 1) { b.kind = dnnlk__bern_always; return b; }
    t = dnnlk__ceil_mul(p, 1ull << 32); /* r/2^32 < p  <=>  r < ceil(p*2^32) */
    if (t == 0) b.kind = dnnlk__bern_never;
    else if (t >> 32) b.kind = dnnlk__bern_always;
    else b.kind = dnnlk__bern_lt, b.t = (uint32_t)t;
    return b;
}


/* ------------------------------------------------------------------ the twist, per level */

/* g++ 12 reports the self-initialised _mm512_undefined_epi32() inside its own AVX-512 intrinsics
 * as uninitialised when they are inlined into C++ code (GCC bug 105593, fixed in 12.3/13). */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/* One MT19937 recurrence step in place: w[624] from w[0], w[1] and w[397]. The polynomial jump
 * walks a window along a buffer with it (here and in the bodies' jump). */
static DNNLK__FORCEINLINE void dnnlk__mt_step_word(uint32_t *w) {
    uint32_t y = (w[0] & 0x80000000u) | (w[1] & 0x7fffffffu);
    w[624] = w[397] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
}

/* Names the generator bodies use at each level (expanded there, so one definition serves all):
 * a generator register holds DNNLK__RW 32-bit words. */
#define DNNLK__RW (2 * DNNLK__VQ_N)
/* One round of the four MCG31 lane groups. */
#define DNNLK__MCG_STEP(g, step)                                       \
    do {                                                               \
        g[0] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[0], step, step);      \
        g[1] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[1], step, step);      \
        g[2] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[2], step, step);      \
        g[3] = DNNLK__SFX(dnnlk__mcg_mulmod_v)(g[3], step, step);      \
    } while (0)
#define DNNLK__SIMD_BODY "rng_gen_simd.h"
#include "simd_instantiate.h"
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* The MT19937 twist of the level in use. */
static inline void dnnlk__mt_twist(uint32_t *mt) { DNNLK__DISPATCH(dnnlk__mt_twist_v, (mt)); }

static inline void dnnlk__mt_seed(dnnlk_rng *r, uint32_t s) {
    int i;
    r->mt[0] = s;
    for (i = 1; i < 624; i++) r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->mt_pos = 624;
}

/* MT19937 from this many outputs skipped on: the polynomial jump instead of the discard. One
 * table applied costs about what a discard of 2^22 outputs does (README, "MT19937"), and a jump
 * applies one per set bit of n >> 21, so from 2^23 on the jump is the cheaper for every n. */
#ifndef DNNLK_MT_JUMP_MIN
#define DNNLK_MT_JUMP_MIN ((uint64_t)1 << 23)
#endif

/* The MT19937 state moved n outputs ahead by jump polynomials, into exactly the state the discard
 * reaches: block mt[] holds words x_b .. x_b+623 and the next output is x_(b+pos), so the discard
 * ends with the block of x_(b+t), t = pos + n, starting at b' = b + 624q, q = (t - 1) / 624, and
 * pos' = t - 624q in [1, 624]. From window x_b.. the jump takes 1 + r single steps (the first
 * one puts the window in T's image, where the polynomial identity holds), then one table per set
 * bit of h (a multiple of 2^KMIN), then whole twists: 1 + r + h + 624 * twists = 624q. */
static inline void dnnlk__mt_jump(dnnlk_rng *r, uint64_t n) {
    const uint64_t kmin_mask = ((uint64_t)1 << DNNLK__MT_JUMP_KMIN) - 1;
    uint64_t t = (uint64_t)r->mt_pos + n, q = (t - 1) / 624, steps = 624 * q - 1;
    uint64_t h = steps & ~kmin_mask, rest = steps - h, twists = rest / 624;
    uint32_t buf[2 * 624];
    int k, p;
    /* 1 + rest % 624 single steps along buf (at most 624: buf holds them) */
    memcpy(buf, r->mt, sizeof r->mt);
    for (p = 0; p < 1 + (int)(rest % 624); p++) dnnlk__mt_step_word(buf + p);
    memcpy(r->mt, buf + p, sizeof r->mt);
    for (k = DNNLK__MT_JUMP_KMIN; k < 64; k++) {
        int table = k > DNNLK__MT_JUMP_KMAX ? DNNLK__MT_JUMP_KMAX : k;
        uint64_t times = (uint64_t)1 << (k - table); /* 2^k past the last table: 2^KMAX repeated */
        if (!((h >> k) & 1)) continue;
        while (times--) DNNLK__DISPATCH(dnnlk__mt_jump_apply_v, (r->mt, dnnlk__mt_jump_table(table)));
    }
    while (twists--) dnnlk__mt_twist(r->mt);
    r->mt_pos = (uint32_t)(t - 624 * q);
}

/* Moves the state n outputs ahead. MT19937 discards by twisting only (the outputs skipped are
 * never tempered), or jumps by polynomials from DNNLK_MT_JUMP_MIN outputs on. */
static inline void dnnlk__rng_advance(dnnlk_rng *r, uint64_t n) {
    switch (r->alg) {
    case dnnlk_rng_mcg31m1:
        r->x = dnnlk__mcg_mulmod(r->x, dnnlk__mcg_pow(n));
        break;
    case dnnlk_rng_philox4x32_10:
    case dnnlk_rng_philox4x32_10_ctr32:
        r->index += n;
        break;
    default:
        if (n >= DNNLK_MT_JUMP_MIN) {
            dnnlk__mt_jump(r, n);
            break;
        }
        while (n > 0) {
            uint64_t left = 624u - r->mt_pos;
            if (n <= left) { r->mt_pos += (uint32_t)n; break; }
            n -= left;
            dnnlk__mt_twist(r->mt);
            r->mt_pos = 0;
        }
        break;
    }
}

static inline int dnnlk__rng_state_ok(const dnnlk_rng *r) {
    if (!r) return 0;
    switch (r->alg) {
    case dnnlk_rng_mcg31m1: return r->x >= 1 && r->x < DNNLK_MCG31_M;
    case dnnlk_rng_philox4x32_10: return 1;
    case dnnlk_rng_philox4x32_10_ctr32: return r->seed <= 0xffffffffu && r->offset == 0;
    case dnnlk_rng_mt19937: return r->mt_pos <= 624;
    }
    return 0;
}

/* ------------------------------------------------------------------ public API */

/* Initialises an engine. MCG31m1: x0 = seed mod m (0 becomes 1), then `offset` outputs skipped.
 * Philox4x32-10: key = seed, counter words 0-1 = offset, next output index 0. Its ctr32 layout:
 * key {seed mod 2^32, seed mod 2^32}, next output index `offset`. MT19937:
 * std::mt19937(seed mod 2^32), then `offset` outputs skipped. */
static inline dnnlk_status dnnlk_rng_init(dnnlk_rng *rng, dnnlk_rng_alg alg, uint64_t seed, uint64_t offset) {
    dnnlk_rng r;
    if (!rng) return dnnlk_invalid_arguments;
    if (!dnnlk__rng_alg_ok(alg)) return dnnlk_invalid_arguments;
    memset(&r, 0, sizeof r);
    r.alg = alg;
    r.mt_pos = 624;
    switch (alg) {
    case dnnlk_rng_mcg31m1:
        r.x = (uint32_t)(seed % DNNLK_MCG31_M);
        if (r.x == 0) r.x = 1;
        dnnlk__rng_advance(&r, offset);
        break;
    case dnnlk_rng_philox4x32_10:
        r.seed = seed;
        r.offset = offset;
        break;
    case dnnlk_rng_philox4x32_10_ctr32:
        r.seed = (uint32_t)seed;
        r.index = offset;
        break;
    case dnnlk_rng_mt19937:
        dnnlk__mt_seed(&r, (uint32_t)seed);
        dnnlk__rng_advance(&r, offset);
        break;
    }
    *rng = r;
    return dnnlk_success;
}

/* Jump-ahead by n outputs (MCG31: O(log n); Philox: O(1); MT19937: a discard, O(n)). */
static inline dnnlk_status dnnlk_rng_skip(dnnlk_rng *rng, uint64_t n) {
    if (!dnnlk__rng_state_ok(rng)) return dnnlk_invalid_arguments;
    dnnlk__rng_advance(rng, n);
    return dnnlk_success;
}

#endif /* DNNLK_RNG_ENGINE_H */
