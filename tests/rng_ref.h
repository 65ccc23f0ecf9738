/* Plain reference implementations of the RNG engines for the tests (written for clarity: one
 * output at a time, 64-bit % for MCG31, the textbook MT19937 and Philox4x32-10). */
#ifndef DNNLK_TEST_RNG_REF_H
#define DNNLK_TEST_RNG_REF_H
#include "harness.h"

#define M31 2147483647u
#define A31 1132489760u

/* The engines every RNG test runs, and their names in messages. */
#define NALGS 4
static const dnnlk_rng_alg algs[NALGS] = {dnnlk_rng_mcg31m1, dnnlk_rng_philox4x32_10, dnnlk_rng_mt19937,
                                          dnnlk_rng_philox4x32_10_ctr32};
static const char *alg_name(dnnlk_rng_alg a) {
    static const char *names[NALGS] = {"mcg31", "philox", "mt19937", "philox_ctr32"};
    return names[a];
}

/* ---- plain references ---- */

/* VSL's MCG31m1 Bernoulli bit, as written: its single-precision uniform u = x/m (division in
 * double, then rounded to float) compared with p rounded to float. */
static int ref_vsl_mcg31_bit(uint32_t x, double p) { return (float)((double)x / 2147483647.0) < (float)p; }

static uint32_t ref_mcg_next(uint32_t x) { return (uint32_t)(((uint64_t)x * A31) % M31); }

static void ref_philox(const uint32_t c[4], const uint32_t k[2], uint32_t out[4]) {
    uint32_t x0 = c[0], x1 = c[1], x2 = c[2], x3 = c[3], k0 = k[0], k1 = k[1];
    int r;
    for (r = 0; r < 10; r++) {
        uint64_t a = (uint64_t)0xD2511F53u * x0, b = (uint64_t)0xCD9E8D57u * x2;
        uint32_t n0 = (uint32_t)(b >> 32) ^ x1 ^ k0, n1 = (uint32_t)b, n2 = (uint32_t)(a >> 32) ^ x3 ^ k1, n3 = (uint32_t)a;
        x0 = n0, x1 = n1, x2 = n2, x3 = n3;
        k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    }
    out[0] = x0, out[1] = x1, out[2] = x2, out[3] = x3;
}

/* Output i of the documented layout. */
static uint32_t ref_philox_out(uint64_t seed, uint64_t offset, uint64_t i) {
    uint32_t c[4], k[2], o[4];
    uint64_t x = i & ~3ull;
    c[0] = (uint32_t)offset, c[1] = (uint32_t)(offset >> 32), c[2] = (uint32_t)x, c[3] = (uint32_t)(x >> 32);
    k[0] = (uint32_t)seed, k[1] = (uint32_t)(seed >> 32);
    ref_philox(c, k, o);
    return o[i & 3];
}

/* A plain port of oneDNN's 32-bit philox4x32(idx, seed) (src/common/math_utils.hpp, the layout
 * oneDNN v3.6-v3.9 draw with, and later versions' reference before v3.11): the counter is the four
 * indices of idx's group, the key the seed twice. */
static uint32_t ref_onednn_philox4x32(uint32_t idx, uint32_t seed) {
    uint32_t x = idx & ~3u;
    uint32_t ctr[4] = {x + 0, x + 1, x + 2, x + 3}, key[2] = {seed, seed}, o[4];
    ref_philox(ctr, key, o);
    return o[idx & 3];
}

/* The reference stream: n outputs by one-at-a-time stepping. */
static void ref_outputs(dnnlk_rng_alg alg, uint64_t seed, uint64_t offset, uint32_t *out, size_t n) {
    size_t i;
    if (alg == dnnlk_rng_mcg31m1) {
        uint32_t x = (uint32_t)(seed % M31);
        uint64_t k;
        if (!x) x = 1;
        for (k = 0; k < offset; k++) x = ref_mcg_next(x);
        for (i = 0; i < n; i++) out[i] = x, x = ref_mcg_next(x);
    } else if (alg == dnnlk_rng_philox4x32_10) {
        for (i = 0; i < n; i++) out[i] = ref_philox_out(seed, offset, i);
    } else if (alg == dnnlk_rng_philox4x32_10_ctr32) { /* offset: the first index */
        for (i = 0; i < n; i++) out[i] = ref_onednn_philox4x32((uint32_t)(offset + i), (uint32_t)seed);
    } else {
        uint32_t mt[624];
        int p = 624, j;
        uint64_t k;
        mt[0] = (uint32_t)seed;
        for (j = 1; j < 624; j++) mt[j] = 1812433253u * (mt[j - 1] ^ (mt[j - 1] >> 30)) + (uint32_t)j;
        for (k = 0; k < offset + n; k++) {
            uint32_t y;
            if (p == 624) {
                for (j = 0; j < 624; j++) {
                    uint32_t z = (mt[j] & 0x80000000u) | (mt[(j + 1) % 624] & 0x7fffffffu);
                    mt[j] = mt[(j + 397) % 624] ^ (z >> 1) ^ ((z & 1u) ? 0x9908b0dfu : 0u);
                }
                p = 0;
            }
            y = mt[p++];
            y ^= y >> 11;
            y ^= (y << 7) & 0x9d2c5680u;
            y ^= (y << 15) & 0xefc60000u;
            y ^= y >> 18;
            if (k >= offset) out[k - offset] = y;
        }
    }
}

/* libstdc++'s generate_canonical<double,53> on two outputs, as the library computes it. */
static double ref_canonical(uint32_t r0, uint32_t r1) {
    double s = (double)r0 + (double)r1 * 4294967296.0, ret = s / 18446744073709551616.0;
    return ret >= 1.0 ? nextafter(1.0, 0.0) : ret;
}


#endif
