/* rng.h: engines against plain references, known answers, exact thresholds, jump-ahead, parts,
 * chaining, every ISA, statistics and bad arguments. (libstdc++ oracles: test_rng_oracle.cpp.) */
/* MT19937 jumps by polynomials from 2^21 skipped outputs here (the default is 2^23), so that the
 * parts of a 4M-draw call take the jump: a smaller test of the same code. */
#define DNNLK_MT_JUMP_MIN ((uint64_t)1 << 21)
#include "harness.h"

#include "rng_ref.h"

/* x/c < p, exactly (Philox: c = 2^32): the product's rounding error is exact (fma), and x - prod is exact or
 * far from the error term. */
static int exact_lt_ratio(uint32_t x, uint64_t c, double p) {
    double prod = p * (double)c, err = fma(p, (double)c, -prod);
    if (isinf(p)) return p > 0;
    return ((double)x - prod) < err;
}

static int ref_bit(dnnlk_rng_alg alg, const uint32_t *out, size_t i, double p) {
    if (alg == dnnlk_rng_mt19937) return ref_canonical(out[2 * i], out[2 * i + 1]) < p;
    if (alg == dnnlk_rng_mcg31m1) return ref_vsl_mcg31_bit(out[i], p);
    return exact_lt_ratio(out[i], 4294967296ull, p);
}


/* ---- known answers ---- */

TEST(mcg_known_answers) {
    const uint32_t pw[16] = {1u, 1132489760u, 826537482u, 289798557u, 480863449u, 1381340036u, 1582925527u,
                             1918178478u, 1286028348u, 482167044u, 262060616u, 1856662125u, 839877947u,
                             1997268203u, 458714024u, 650347998u};
    const uint32_t *t = dnnlk__mcg_pow_table();
    dnnlk_rng r;
    uint32_t v[4];
    int j;
    for (j = 0; j < 16; j++) CHECK_EQ(dnnlk__mcg_pow((uint64_t)j), pw[j]);
    for (j = 0; j <= 64; j++) CHECK_EQ(t[j], dnnlk__mcg_pow((uint64_t)j));
    CHECK_EQ(dnnlk__mcg_pow(M31 - 1), 1); /* a^(m-1) = 1: period divides m - 1 */
    /* VSL seeding: x0 = seed mod m, 0 -> 1, first output x0 */
    CHECK_EQ(dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, 7, 0), dnnlk_success);
    CHECK_EQ(dnnlk_rng_u32(&r, v, 2, NULL, 0, 1), dnnlk_success);
    CHECK_EQ(v[0], 7);
    CHECK_EQ(v[1], (uint32_t)((7ull * A31) % M31));
    dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, 0, 0);
    CHECK_EQ(r.x, 1);
    dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, M31, 0);
    CHECK_EQ(r.x, 1);
    dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, (uint64_t)M31 + 5, 0);
    CHECK_EQ(r.x, 5);
    dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, 1, 3); /* offset skips: x3 = a^3 */
    CHECK_EQ(r.x, 289798557u);
}

TEST(philox_known_answers) {
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x408f276du, 0x41c83b0eu,
         0xa20bc7c6u, 0x6d5451fdu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0xd16cfe09u, 0x94fdccebu,
         0x5001e420u, 0x24126ea1u}};
    int i, w;
    for (i = 0; i < 3; i++) {
        uint32_t o[4], o2[4];
        dnnlk__philox4x32_10(kat[i], kat[i][4], kat[i][5], o);
        ref_philox(kat[i], kat[i] + 4, o2);
        for (w = 0; w < 4; w++) {
            CHECK_EQ(o[w], kat[i][6 + w]);
            CHECK_EQ(o2[w], kat[i][6 + w]);
        }
    }
    /* the stream layout: outputs 0..3 of (seed 0, offset 0) are the all-zero KAT; outputs
     * 4k..4k+3 of (seed, offset) are Philox of {off_lo, off_hi, 4k lo, 4k hi} */
    {
        dnnlk_rng r;
        uint32_t v[8], c[4], k[2], o[4];
        uint64_t off = 0x85a308d3243f6a88ull, seed = 0x299f31d0a4093822ull, x = 0x0370734413198a2cull;
        dnnlk_rng_init(&r, dnnlk_rng_philox4x32_10, 0, 0);
        CHECK_EQ(dnnlk_rng_u32(&r, v, 4, NULL, 0, 1), dnnlk_success);
        for (w = 0; w < 4; w++) CHECK_EQ(v[w], kat[0][6 + w]);
        dnnlk_rng_init(&r, dnnlk_rng_philox4x32_10, seed, off);
        dnnlk_rng_skip(&r, x);
        CHECK_EQ(dnnlk_rng_u32(&r, v, 4, NULL, 0, 1), dnnlk_success);
        c[0] = 0x243f6a88u, c[1] = 0x85a308d3u, c[2] = 0x13198a2cu, c[3] = 0x03707344u;
        k[0] = 0xa4093822u, k[1] = 0x299f31d0u;
        ref_philox(c, k, o);
        for (w = 0; w < 4; w++) CHECK_EQ(v[w], o[w]);
    }
}

TEST(mt19937_known_answer) {
    dnnlk_rng r;
    uint32_t v = 0;
    dnnlk_rng_init(&r, dnnlk_rng_mt19937, 5489, 9999);
    CHECK_EQ(dnnlk_rng_u32(&r, &v, 1, NULL, 0, 1), dnnlk_success);
    CHECK_EQ(v, 4123659995u); /* the C++ standard's check value for mt19937 */
}

/* ---- streams equal the references on every ISA, part count and chaining ---- */

TEST(streams_match_reference_isa) {
    static const size_t sizes[] = {0, 1, 3, 7, 8, 15, 16, 17, 31, 63, 64, 65, 127, 129, 255, 1000, 1249, 5000};
    static const int nths[] = {1, 2, 3, 7};
    uint64_t seeds[3] = {1, 0x123456789abcdefull, 4294967295ull};
    uint32_t ref[5000 + 64], got[5000 + 64];
    int a, si, ni;
    size_t k;
    for (a = 0; a < NALGS; a++)
        for (si = 0; si < 3; si++) {
            uint64_t offset = si == 0 ? 0 : si == 1 ? 5 : 1300;
            ref_outputs(algs[a], seeds[si], offset, ref, 5003);
            for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
                size_t n = sizes[k];
                for (ni = 0; ni < 4; ni++) {
                    int ith, nth = nths[ni];
                    dnnlk_rng r, end;
                    dnnlk_rng_init(&r, algs[a], seeds[si], offset);
                    memset(got, 0, sizeof got);
                    for (ith = 0; ith < nth; ith++)
                        CHECK_EQ(dnnlk_rng_u32(&r, got, (int64_t)n, &end, ith, nth), dnnlk_success);
                    CHECK_MSG(memcmp(got, ref, n * 4) == 0, "%s seed %d n %zu nth %d", alg_name(algs[a]), si, n, nth);
                    /* end state: the next outputs continue the stream */
                    CHECK_EQ(dnnlk_rng_u32(&end, got, 3, NULL, 0, 1), dnnlk_success);
                    CHECK_MSG(memcmp(got, ref + n, 12) == 0, "%s end state after %zu", alg_name(algs[a]), n);
                }
            }
            /* chained: n1 then n2 from the returned state */
            for (k = 0; k < 20; k++) {
                size_t n1 = (size_t)th_randint(0, 2500), n2 = (size_t)th_randint(0, 2500);
                dnnlk_rng r, mid;
                dnnlk_rng_init(&r, algs[a], seeds[si], offset);
                CHECK_EQ(dnnlk_rng_u32(&r, got, (int64_t)n1, &mid, 0, 1), dnnlk_success);
                CHECK_EQ(dnnlk_rng_u32(&mid, got + n1, (int64_t)n2, &mid, 0, 1), dnnlk_success);
                CHECK_MSG(memcmp(got, ref, (n1 + n2) * 4) == 0, "%s chained %zu+%zu", alg_name(algs[a]), n1, n2);
            }
        }
}

TEST(uniform_matches_reference_isa) {
    static const float ranges[][2] = {{0, 1}, {-1, 1}, {2.5f, 2.5f}, {-3e5f, 7.25f}, {1, 1.0000001f}, {-0.0f, 1e-30f}};
    uint32_t ref[3000];
    float got[3000];
    int a, ri, nth;
    size_t i;
    for (a = 0; a < NALGS; a++) {
        ref_outputs(algs[a], 99, 3, ref, 3000);
        for (ri = 0; ri < 6; ri++) {
            float lo = ranges[ri][0], hi = ranges[ri][1];
            float top = lo < hi ? nextafterf(hi, -INFINITY) : lo;
            for (nth = 1; nth <= 3; nth++) {
                dnnlk_rng r, end;
                int ith, bad = 0;
                size_t n = 2999;
                dnnlk_rng_init(&r, algs[a], 99, 3);
                for (ith = 0; ith < nth; ith++)
                    CHECK_EQ(dnnlk_rng_uniform_f32(&r, got, (int64_t)n, lo, hi, &end, ith, nth), dnnlk_success);
                for (i = 0; i < n; i++) {
                    uint32_t u24 = algs[a] == dnnlk_rng_mcg31m1 ? ref[i] >> 7 : ref[i] >> 8;
                    volatile float t = (hi - lo) * ((float)u24 / 16777216.0f);
                    float e = lo + t;
                    if (e > top) e = top;
                    if (memcmp(&e, &got[i], 4) != 0 || !(got[i] >= lo) || !(got[i] < hi || lo == hi)) bad++;
                }
                CHECK_MSG(bad == 0, "%s range %d nth %d: %d bad", alg_name(algs[a]), ri, nth, bad);
            }
        }
    }
}

/* The thresholds against the plain rules (MCG31: VSL's float rule; Philox: exact), at and around
 * k/m, k/2^32 and the floats next to them. */
TEST(bernoulli_thresholds_exact) {
    double ps[4200];
    int np = 0, i, k;
    ps[np++] = 0.0, ps[np++] = 1.0, ps[np++] = 0.5, ps[np++] = 0.1, ps[np++] = 0.9, ps[np++] = -0.5, ps[np++] = 2.0;
    ps[np++] = 1e-300, ps[np++] = 4.9e-324, ps[np++] = nextafter(1.0, 0.0), ps[np++] = INFINITY, ps[np++] = -INFINITY;
    for (k = 0; k < 300; k++) {
        uint64_t kk = k < 150 ? (uint64_t)k : (uint64_t)th_randint(1, M31 - 1);
        double q = (double)kk / (double)M31, q2 = (double)kk / 4294967296.0;
        ps[np++] = q, ps[np++] = nextafter(q, 0), ps[np++] = nextafter(q, 2);
        ps[np++] = q2, ps[np++] = nextafter(q2, 0), ps[np++] = nextafter(q2, 2);
        ps[np++] = (double)(float)q, ps[np++] = nextafter((double)(float)q, 0);
        ps[np++] = (double)nextafterf((float)q, 0) + 0x1p-60 * q; /* just above a float */
    }
    ps[np++] = 0x1p-32, ps[np++] = nextafter(0x1p-32, 0), ps[np++] = 0x1p-31, ps[np++] = 1 - 0x1p-25;
    ps[np++] = 1 - 0x1p-24, ps[np++] = nextafter(1 - 0x1p-25, 0), ps[np++] = 0x1p-24, ps[np++] = 4.66e-10;
    for (k = 0; k < 1000; k++) ps[np++] = (double)th_rand64() / 18446744073709551616.0;
    for (i = 0; i < np; i++) {
        double p = ps[i];
        dnnlk__bern b = dnnlk__bern_for_p(dnnlk_rng_mcg31m1, p);
        uint32_t lo_x, hi_x; /* the first x that is 0, by the brute-force rule around the threshold */
        if (b.kind == dnnlk__bern_never) {
            CHECK_MSG(!ref_vsl_mcg31_bit(1, p), "mcg never p=%a", p);
        } else if (b.kind == dnnlk__bern_always) {
            CHECK_MSG(ref_vsl_mcg31_bit(M31 - 1, p), "mcg always p=%a", p);
        } else {
            lo_x = b.t - 1, hi_x = b.t;
            CHECK_MSG(ref_vsl_mcg31_bit(lo_x, p) && !ref_vsl_mcg31_bit(hi_x, p), "mcg t=%u p=%a", b.t, p);
        }
        b = dnnlk__bern_for_p(dnnlk_rng_philox4x32_10, p);
        if (b.kind == dnnlk__bern_never) CHECK_MSG(!exact_lt_ratio(0, 4294967296ull, p), "philox never p=%a", p);
        else if (b.kind == dnnlk__bern_always)
            CHECK_MSG(exact_lt_ratio(0xffffffffu, 4294967296ull, p), "philox always p=%a", p);
        else
            CHECK_MSG(exact_lt_ratio(b.t - 1, 4294967296ull, p) && !exact_lt_ratio(b.t, 4294967296ull, p),
                      "philox t=%u p=%a", b.t, p);
        /* oneDNN's Philox keep rule: r > UINT32_MAX * rate in double (default rounding here) */
        if (p >= 0 && p <= 1) {
            double d = 4294967295.0 * p;
            CHECK_MSG((double)dnnlk__floor_rne_mul(p, 4294967295ull) == floor(d), "floor_rne p=%a", p);
        }
        /* MT19937: S < t64 against generate_canonical computed in double */
        b = dnnlk__bern_for_p(dnnlk_rng_mt19937, p);
        for (k = 0; k < 40; k++) {
            uint64_t s = k < 20 && b.kind == dnnlk__bern_lt ? b.t64 - 10 + (uint64_t)k : th_rand64();
            int want = ref_canonical((uint32_t)s, (uint32_t)(s >> 32)) < p;
            int got = b.kind == dnnlk__bern_always ? 1 : b.kind == dnnlk__bern_never ? 0 : s < b.t64;
            CHECK_MSG(want == got, "mt p=%a s=%llx", p, (unsigned long long)s);
        }
    }
}

TEST(bernoulli_matches_reference_isa) {
    static const double ps[] = {0.0, 1.0, 0.5, 0.1, 0.9, 1e-3, 0.999, 0.3333333333};
    static const size_t sizes[] = {0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200, 1000, 2049};
    uint32_t ref[2 * 2100 + 16];
    uint8_t got[400], want[400];
    int a, pi, nth, off;
    size_t k, i;
    for (a = 0; a < NALGS; a++)
        for (off = 0; off < 4; off++) { /* offsets 0..3 move Philox's start inside a counter */
            ref_outputs(algs[a], 77, (uint64_t)off, ref, 2 * 2100);
            for (pi = 0; pi < 8; pi++)
                for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
                    size_t n = sizes[k];
                    memset(want, 0, sizeof want);
                    for (i = 0; i < n; i++) want[i / 8] |= (uint8_t)(ref_bit(algs[a], ref, i, ps[pi]) << (i % 8));
                    for (nth = 1; nth <= 7; nth += 2) {
                        dnnlk_rng r, end;
                        uint32_t next[2] = {0, 0};
                        int ith;
                        size_t used = algs[a] == dnnlk_rng_mt19937 ? 2 * n : n;
                        dnnlk_rng_init(&r, algs[a], 77, (uint64_t)off);
                        memset(got, 0xA5, sizeof got);
                        for (ith = 0; ith < nth; ith++)
                            CHECK_EQ(dnnlk_rng_bernoulli(&r, got, (int64_t)n, ps[pi], &end, ith, nth), dnnlk_success);
                        CHECK_MSG(memcmp(got, want, (n + 7) / 8) == 0 && got[(n + 7) / 8] == 0xA5,
                                  "%s off %d p %g n %zu nth %d", alg_name(algs[a]), off, ps[pi], n, nth);
                        dnnlk_rng_u32(&end, next, 2, NULL, 0, 1);
                        CHECK_MSG(next[0] == ref[used] && next[1] == ref[used + 1], "%s end state after %zu bits",
                                  alg_name(algs[a]), n);
                    }
                }
        }
}

/* The ctr32 layout is oneDNN's 32-bit philox4x32(idx, seed): at index 2^32 it wraps to index 0
 * (oneDNN's idx is 32-bit), the seed's high word is dropped, and the four outputs of a counter
 * group are its four words (not one word four times, as oneDNN v3.11+ draws at offset 0). */
TEST(philox_ctr32_is_onednn_32bit_isa) {
    static const uint64_t seeds[3] = {1234, 0xfffffff9ull, 0x0123456789abcdefull};
    static const uint64_t starts[3] = {0, 4294967296ull - 37, 4294967296ull * 3 + 5};
    uint32_t got[300];
    uint8_t bits[38], want[38];
    int si, st, i, distinct = 0;
    for (si = 0; si < 3; si++)
        for (st = 0; st < 3; st++) {
            dnnlk_rng r;
            int ok = 1, okb = 1;
            dnnlk_rng_init(&r, dnnlk_rng_philox4x32_10_ctr32, seeds[si], starts[st]);
            CHECK_EQ(dnnlk_rng_u32(&r, got, 300, NULL, 0, 1), dnnlk_success);
            for (i = 0; i < 300; i++)
                ok &= got[i] == ref_onednn_philox4x32((uint32_t)(starts[st] + (uint64_t)i), (uint32_t)seeds[si]);
            CHECK_MSG(ok, "seed %d start %d", si, st);
            memset(want, 0, sizeof want);
            for (i = 0; i < 300; i++)
                want[i / 8] |= (uint8_t)((ref_onednn_philox4x32((uint32_t)(starts[st] + (uint64_t)i),
                                                                (uint32_t)seeds[si]) < 0x40000000u)
                                         << (i % 8));
            CHECK_EQ(dnnlk_rng_bernoulli(&r, bits, 300, 0.25, NULL, 0, 1), dnnlk_success);
            for (i = 0; i < 38; i++) okb &= bits[i] == want[i];
            CHECK_MSG(okb, "bits seed %d start %d", si, st);
        }
    {
        dnnlk_rng r;
        dnnlk_rng_init(&r, dnnlk_rng_philox4x32_10_ctr32, 99, 0);
        CHECK_EQ(dnnlk_rng_u32(&r, got, 300, NULL, 0, 1), dnnlk_success);
        for (i = 0; i < 300; i += 4) distinct += got[i] != got[i + 1] && got[i + 1] != got[i + 2] && got[i + 2] != got[i + 3];
        CHECK_EQ(distinct, 75);
    }
}

/* Philox's SIMD path at a counter whose low word wraps inside a round. */
TEST(philox_counter_carry_isa) {
    dnnlk_rng r;
    uint32_t got[300];
    uint8_t bits[40];
    uint64_t base = 0xfffffff0ull - 64;
    int i, ok = 1, okb = 1;
    dnnlk_rng_init(&r, dnnlk_rng_philox4x32_10, 42, 7);
    dnnlk_rng_skip(&r, base);
    dnnlk_rng_u32(&r, got, 300, NULL, 0, 1);
    for (i = 0; i < 300; i++) ok &= got[i] == ref_philox_out(42, 7, base + (uint64_t)i);
    CHECK(ok);
    dnnlk_rng_bernoulli(&r, bits, 300, 0.5, NULL, 0, 1);
    for (i = 0; i < 300; i++) okb &= ((bits[i / 8] >> (i % 8)) & 1) == (ref_philox_out(42, 7, base + (uint64_t)i) < 0x80000000u);
    CHECK(okb);
}

/* Jump-ahead by k up to 2^40 equals stepping: x * (a^(2^20))^q * a^r with a^(2^20) found by
 * 2^20 single steps and q, r applied by repeated multiplication. */
TEST(mcg_jump_equals_stepping) {
    uint32_t a20 = 1, x;
    int c;
    long i;
    for (i = 0; i < (1L << 20); i++) a20 = ref_mcg_next(a20);
    for (c = 0; c < th_scaled(12); c++) {
        uint64_t k = c == 0 ? 0 : c == 1 ? 1 : (th_rand64() & ((1ull << 40) - 1));
        uint64_t q = k >> 20, r = k & ((1u << 20) - 1), j;
        dnnlk_rng g;
        uint32_t seed = (uint32_t)th_randint(1, M31 - 1);
        x = seed;
        for (j = 0; j < q; j++) x = (uint32_t)(((uint64_t)x * a20) % M31);
        for (j = 0; j < r; j++) x = ref_mcg_next(x);
        dnnlk_rng_init(&g, dnnlk_rng_mcg31m1, seed, 0);
        dnnlk_rng_skip(&g, k);
        CHECK_MSG(g.x == x, "k=%llu", (unsigned long long)k);
    }
    /* skips compose, for every engine */
    for (c = 0; c < NALGS; c++) {
        dnnlk_rng p, q;
        uint64_t k1 = (uint64_t)th_randint(0, 100000), k2 = (uint64_t)th_randint(0, 100000);
        dnnlk_rng_init(&p, algs[c], 5, 0);
        q = p;
        dnnlk_rng_skip(&p, k1);
        dnnlk_rng_skip(&p, k2);
        dnnlk_rng_skip(&q, k1 + k2);
        {
            uint32_t u[4], v[4];
            dnnlk_rng_u32(&p, u, 4, NULL, 0, 1);
            dnnlk_rng_u32(&q, v, 4, NULL, 0, 1);
            CHECK(memcmp(u, v, sizeof u) == 0);
        }
    }
}

/* Rates within 5 sigma, and a chi-square on 16 buckets of uniform values. */
TEST(statistics_isa) {
    int a, pi;
    long n = th_scaled(1000000);
    static const double ps[] = {0.1, 0.5, 0.9};
    uint8_t *bits = (uint8_t *)malloc((size_t)n / 8 + 8);
    float *u = (float *)malloc((size_t)n * 4);
    for (a = 0; a < NALGS; a++) {
        dnnlk_rng r;
        long i, cnt[16] = {0};
        double chi = 0;
        dnnlk_rng_init(&r, algs[a], 2024, 0);
        for (pi = 0; pi < 3; pi++) {
            long ones = 0;
            double sd = sqrt(n * ps[pi] * (1 - ps[pi]));
            dnnlk_rng_bernoulli(&r, bits, n, ps[pi], &r, 0, 1);
            for (i = 0; i < n; i++) ones += (bits[i / 8] >> (i % 8)) & 1;
            CHECK_MSG(fabs(ones - n * ps[pi]) < 5 * sd, "%s p %g: %ld ones of %ld", alg_name(algs[a]), ps[pi], ones, n);
        }
        dnnlk_rng_uniform_f32(&r, u, n, 0, 1, NULL, 0, 1);
        for (i = 0; i < n; i++) cnt[(int)(u[i] * 16)]++;
        for (i = 0; i < 16; i++) chi += (cnt[i] - n / 16.0) * (cnt[i] - n / 16.0) / (n / 16.0);
        CHECK_MSG(chi < 50, "%s chi-square %g (15 dof)", alg_name(algs[a]), chi); /* p ~ 1e-5 */
    }
    free(bits);
    free(u);
}

TEST(rng_uniform_op_isa) {
    int64_t dims[3] = {3, 5, 7};
    uint32_t ref[105];
    int a, dt, nth;
    for (a = 0; a < NALGS; a++) {
        ref_outputs(algs[a], 11, 17, ref, 105);
        for (dt = 0; dt < 3; dt++) {
            dnnlk_dtype t = dt == 0 ? dnnlk_f32 : dt == 1 ? dnnlk_bf16 : dnnlk_f16;
            size_t es = dnnlk_dtype_size(t);
            for (nth = 1; nth <= 7; nth += 3) {
                /* transposed layout: dims {3,5,7}, strides {1, 3, 15} */
                th_buf b = th_alloc(105 * es, 2);
                dnnlk_tensor d = th_tensor(b.p, t, 3, dims);
                int ith, bad = 0;
                int64_t i0, i1, i2;
                d.strides[0] = 1, d.strides[1] = 3, d.strides[2] = 15;
                for (ith = 0; ith < nth; ith++)
                    CHECK_EQ(dnnlk_rng_uniform(&d, -2.0f, 3.0f, 11, 17, algs[a], ith, nth), dnnlk_success);
                for (i0 = 0; i0 < 3; i0++)
                    for (i1 = 0; i1 < 5; i1++)
                        for (i2 = 0; i2 < 7; i2++) {
                            int64_t li = (i0 * 5 + i1) * 7 + i2;
                            uint32_t u24 = algs[a] == dnnlk_rng_mcg31m1 ? ref[li] >> 7 : ref[li] >> 8;
                            volatile float tt = 5.0f * ((float)u24 / 16777216.0f);
                            float e = -2.0f + tt, g;
                            char *p = (char *)b.p + (i0 + 3 * i1 + 15 * i2) * (int64_t)es;
                            g = dnnlk__load_as_f32(p, t);
                            if (t == dnnlk_f32) bad += memcmp(&e, &g, 4) != 0;
                            else {
                                uint16_t h;
                                memcpy(&h, p, 2);
                                bad += h != dnnlk__uniform_to_16(e, t, -2.0f, 3.0f) || !(g >= -2.0f && g < 3.0f);
                            }
                        }
                CHECK_MSG(bad == 0, "%s %s nth %d: %d bad", alg_name(algs[a]), dnnlk_dtype_name(t), nth, bad);
                CHECK(th_guards_ok(&b));
                th_free(&b);
            }
        }
    }
    { /* bf16 values never reach high */
        float v = nextafterf(1.0f, 0.0f);
        uint16_t h = dnnlk__uniform_to_16(v, dnnlk_bf16, 0.0f, 1.0f);
        CHECK(dnnlk_bf16_to_f32(h) < 1.0f);
        h = dnnlk__uniform_to_16(v, dnnlk_f16, 0.0f, 1.0f);
        CHECK(dnnlk_f16_to_f32(h) < 1.0f);
    }
    { /* unknown strides are deduced; the layout comes back */
        dnnlk_tensor d = th_tensor(NULL, dnnlk_f32, 3, dims);
        d.strides[0] = d.strides[1] = d.strides[2] = DNNLK_UNKNOWN;
        CHECK_EQ(dnnlk_rng_uniform_infer(&d), dnnlk_success);
        CHECK_EQ(d.strides[0], 35);
        CHECK_EQ(d.strides[2], 1);
    }
}

TEST(bad_arguments) {
    dnnlk_rng r, end, keep;
    uint32_t v[4] = {1, 2, 3, 4};
    float f[4] = {0};
    uint8_t bits[4] = {9, 9, 9, 9};
    int64_t dims[1] = {4};
    dnnlk_tensor d;
    CHECK_EQ(dnnlk_rng_init(NULL, dnnlk_rng_mcg31m1, 1, 0), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_init(&r, (dnnlk_rng_alg)7, 1, 0), dnnlk_invalid_arguments);
    dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, 1, 0);
    memset(&end, 0x5a, sizeof end);
    keep = end;
    CHECK_EQ(dnnlk_rng_u32(&r, NULL, 4, &end, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_u32(&r, v, -1, &end, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_u32(&r, v, 4, &end, 1, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_u32(&r, v, 4, &end, 0, 0), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_u32(NULL, v, 4, &end, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_uniform_f32(&r, f, 4, 1.0f, 0.0f, &end, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_uniform_f32(&r, f, 4, 0.0f, INFINITY, &end, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_uniform_f32(&r, f, 4, NAN, 1.0f, &end, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_uniform_f32(&r, f, 4, -3e38f, 3e38f, &end, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_bernoulli(&r, bits, 4, NAN, &end, 0, 1), dnnlk_invalid_arguments);
    {
        /* a probability outside [0, 1] is refused, as dropout's rate (no clamping) */
        static const double bad_p[] = {-0.5, 1.5, -1e-300, 1.0000000000000002, INFINITY, -INFINITY, -NAN};
        int k, a;
        for (a = 0; a < 3; a++)
            for (k = 0; k < (int)(sizeof bad_p / sizeof *bad_p); k++) {
                dnnlk_rng ra;
                dnnlk_rng_init(&ra, algs[a], 1, 0);
                CHECK_MSG(dnnlk_rng_bernoulli(&ra, bits, 4, bad_p[k], &end, 0, 1) == dnnlk_invalid_arguments,
                          "%s p %g", alg_name(algs[a]), bad_p[k]);
            }
    }
    {
        dnnlk_rng bad = r;
        bad.x = 0;
        CHECK_EQ(dnnlk_rng_u32(&bad, v, 4, &end, 0, 1), dnnlk_invalid_arguments);
        bad.x = M31;
        CHECK_EQ(dnnlk_rng_skip(&bad, 1), dnnlk_invalid_arguments);
        dnnlk_rng_init(&bad, dnnlk_rng_philox4x32_10_ctr32, 1, 0);
        bad.seed = 1ull << 32; /* ctr32 keys are 32-bit: a wider one is a corrupt state */
        CHECK_EQ(dnnlk_rng_u32(&bad, v, 4, &end, 0, 1), dnnlk_invalid_arguments);
        bad = r;
        bad.alg = (dnnlk_rng_alg)4;
        CHECK_EQ(dnnlk_rng_bernoulli(&bad, bits, 4, 0.5, &end, 0, 1), dnnlk_invalid_arguments);
        dnnlk_rng_init(&bad, dnnlk_rng_mt19937, 1, 0);
        bad.mt_pos = 625;
        CHECK_EQ(dnnlk_rng_u32(&bad, v, 4, &end, 0, 1), dnnlk_invalid_arguments);
    }
    CHECK(v[0] == 1 && v[3] == 4 && f[0] == 0 && bits[0] == 9 && bits[3] == 9);
    CHECK(memcmp(&end, &keep, sizeof end) == 0);
    d = th_tensor(f, dnnlk_f32, 1, dims);
    CHECK_EQ(dnnlk_rng_uniform(&d, 0, 1, 1, 0, (dnnlk_rng_alg)5, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_uniform(&d, 2, 1, 1, 0, dnnlk_rng_mcg31m1, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_rng_uniform(&d, 0, 1, 1, 0, dnnlk_rng_mcg31m1, 2, 2 - 1), dnnlk_invalid_arguments);
    d.dtype = dnnlk_s32;
    CHECK_EQ(dnnlk_rng_uniform(&d, 0, 1, 1, 0, dnnlk_rng_mcg31m1, 0, 1), dnnlk_invalid_data_type);
    d.dtype = dnnlk_f32;
    d.dims[0] = -2;
    CHECK_EQ(dnnlk_rng_uniform(&d, 0, 1, 1, 0, dnnlk_rng_mcg31m1, 0, 1), dnnlk_invalid_shape);
    CHECK(f[0] == 0 && f[3] == 0);
    CHECK_EQ(dnnlk_rng_uniform(NULL, 0, 1, 1, 0, dnnlk_rng_mcg31m1, 0, 1), dnnlk_invalid_arguments);
}

/* ---- recorded bits ----
 * Every level's output bits on fixed arguments, against bits recorded on the code before the RNG
 * bodies moved onto the vector layer (8f1051f): every engine, every draw API, rng_uniform with
 * each dtype and layout, several part counts, the end states. Every value here is exact, so every
 * level must give the same bits. DNNLK_TEST_RECORD=1 prints the table instead of checking it. */
enum { rb_u32, rb_uniform, rb_bern_off3, rb_bern_off0, rb_ru_f32, rb_ru_f32_strided, rb_ru_bf16, rb_ru_f16_strided, rb_n };
static const char *const rb_name[rb_n] = {"u32 n4099 off3", "uniform_f32 n4099", "bernoulli p.3 off3", "bernoulli p.7 off0",
                                          "rng_uniform f32 7x601", "rng_uniform f32 transposed", "rng_uniform bf16",
                                          "rng_uniform f16 stride 2"};
#define RB_N 4099
static uint64_t rb_state_hash(uint64_t h, const dnnlk_rng *r) {
    h = th_fnv1a_from(h, &r->x, 4);
    h = th_fnv1a_from(h, &r->seed, 8);
    h = th_fnv1a_from(h, &r->offset, 8);
    h = th_fnv1a_from(h, &r->index, 8);
    h = th_fnv1a_from(h, &r->mt_pos, 4);
    return th_fnv1a_from(h, r->mt, sizeof r->mt);
}

/* One case by one engine: the outputs of one part and of three parts, hashed in turn. */
static uint64_t rb_case(dnnlk_rng_alg alg, int c) {
    static uint32_t buf[2 * RB_N + 64];
    uint64_t h = 0xcbf29ce484222325ull;
    int nth;
    for (nth = 1; nth <= 3; nth += 2) {
        dnnlk_rng r, end;
        int ith;
        memset(buf, 0x5a, sizeof buf);
        memset(&end, 0, sizeof end);
        CHECK_EQ(dnnlk_rng_init(&r, alg, 0x123456789abcull, c == rb_bern_off0 ? 0 : 3), dnnlk_success);
        for (ith = 0; ith < nth; ith++) {
            dnnlk_status st = dnnlk_success;
            switch (c) {
            case rb_u32: st = dnnlk_rng_u32(&r, buf + 1, RB_N, &end, ith, nth); break;
            case rb_uniform: st = dnnlk_rng_uniform_f32(&r, (float *)(buf + 1), RB_N, -1.5f, 2.5f, &end, ith, nth); break;
            case rb_bern_off3: st = dnnlk_rng_bernoulli(&r, (uint8_t *)buf + 1, RB_N, 0.3, &end, ith, nth); break;
            case rb_bern_off0: st = dnnlk_rng_bernoulli(&r, (uint8_t *)buf + 1, 2053, 0.7, &end, ith, nth); break;
            default: {
                int64_t dims[2] = {7, 601};
                dnnlk_dtype dt = c == rb_ru_bf16 ? dnnlk_bf16 : c == rb_ru_f16_strided ? dnnlk_f16 : dnnlk_f32;
                dnnlk_tensor d = th_tensor((char *)buf + (dt == dnnlk_f32 ? 4 : 2), dt, 2, dims); /* not vector-aligned */
                if (c == rb_ru_f32_strided) d.strides[0] = 1, d.strides[1] = 7;
                if (c == rb_ru_f16_strided) d.strides[0] = 2 * 601, d.strides[1] = 2;
                st = dnnlk_rng_uniform(&d, -0.75f, 3.0f, 0x123456789abcull, 5, alg, ith, nth);
            } break;
            }
            CHECK_EQ(st, dnnlk_success);
        }
        h = th_fnv1a_from(h, buf, sizeof buf);
        if (c < rb_ru_f32) h = rb_state_hash(h, &end);
    }
    return h;
}

static const uint64_t rb_recorded[NALGS][rb_n][4] = {
    {
        /* mcg31        u32 n4099 off3             */ {0xcfde2d472a4ec67dull, 0xcfde2d472a4ec67dull, 0xcfde2d472a4ec67dull, 0xcfde2d472a4ec67dull},
        /* mcg31        uniform_f32 n4099          */ {0xb4493474d37aae2dull, 0xb4493474d37aae2dull, 0xb4493474d37aae2dull, 0xb4493474d37aae2dull},
        /* mcg31        bernoulli p.3 off3         */ {0x86d95e4d2263807dull, 0x86d95e4d2263807dull, 0x86d95e4d2263807dull, 0x86d95e4d2263807dull},
        /* mcg31        bernoulli p.7 off0         */ {0x511e67b234cee00dull, 0x511e67b234cee00dull, 0x511e67b234cee00dull, 0x511e67b234cee00dull},
        /* mcg31        rng_uniform f32 7x601      */ {0x6ff88eb7678fe379ull, 0x6ff88eb7678fe379ull, 0x6ff88eb7678fe379ull, 0x6ff88eb7678fe379ull},
        /* mcg31        rng_uniform f32 transposed */ {0x189a1b4d23e949f1ull, 0x189a1b4d23e949f1ull, 0x189a1b4d23e949f1ull, 0x189a1b4d23e949f1ull},
        /* mcg31        rng_uniform bf16           */ {0x1fd38ee7a9fc6b45ull, 0x1fd38ee7a9fc6b45ull, 0x1fd38ee7a9fc6b45ull, 0x1fd38ee7a9fc6b45ull},
        /* mcg31        rng_uniform f16 stride 2   */ {0x451706be00956be1ull, 0x451706be00956be1ull, 0x451706be00956be1ull, 0x451706be00956be1ull},
    },
    {
        /* philox       u32 n4099 off3             */ {0x4f81d3c30655e135ull, 0x4f81d3c30655e135ull, 0x4f81d3c30655e135ull, 0x4f81d3c30655e135ull},
        /* philox       uniform_f32 n4099          */ {0xeac0959507417755ull, 0xeac0959507417755ull, 0xeac0959507417755ull, 0xeac0959507417755ull},
        /* philox       bernoulli p.3 off3         */ {0x67bd67095dcd1f45ull, 0x67bd67095dcd1f45ull, 0x67bd67095dcd1f45ull, 0x67bd67095dcd1f45ull},
        /* philox       bernoulli p.7 off0         */ {0x35ae0be8db8b0925ull, 0x35ae0be8db8b0925ull, 0x35ae0be8db8b0925ull, 0x35ae0be8db8b0925ull},
        /* philox       rng_uniform f32 7x601      */ {0x39bd3bae668aa509ull, 0x39bd3bae668aa509ull, 0x39bd3bae668aa509ull, 0x39bd3bae668aa509ull},
        /* philox       rng_uniform f32 transposed */ {0x2e472b287a9a4369ull, 0x2e472b287a9a4369ull, 0x2e472b287a9a4369ull, 0x2e472b287a9a4369ull},
        /* philox       rng_uniform bf16           */ {0x12c43f0e6d35a005ull, 0x12c43f0e6d35a005ull, 0x12c43f0e6d35a005ull, 0x12c43f0e6d35a005ull},
        /* philox       rng_uniform f16 stride 2   */ {0x9d28a9a8b48936a9ull, 0x9d28a9a8b48936a9ull, 0x9d28a9a8b48936a9ull, 0x9d28a9a8b48936a9ull},
    },
    {
        /* mt19937      u32 n4099 off3             */ {0x1e442d799f106865ull, 0x1e442d799f106865ull, 0x1e442d799f106865ull, 0x1e442d799f106865ull},
        /* mt19937      uniform_f32 n4099          */ {0x6bf15321dec3e9e9ull, 0x6bf15321dec3e9e9ull, 0x6bf15321dec3e9e9ull, 0x6bf15321dec3e9e9ull},
        /* mt19937      bernoulli p.3 off3         */ {0xa64c6931fc9ab04dull, 0xa64c6931fc9ab04dull, 0xa64c6931fc9ab04dull, 0xa64c6931fc9ab04dull},
        /* mt19937      bernoulli p.7 off0         */ {0x6cf28574df46cf25ull, 0x6cf28574df46cf25ull, 0x6cf28574df46cf25ull, 0x6cf28574df46cf25ull},
        /* mt19937      rng_uniform f32 7x601      */ {0xf9b1d39b5751ffddull, 0xf9b1d39b5751ffddull, 0xf9b1d39b5751ffddull, 0xf9b1d39b5751ffddull},
        /* mt19937      rng_uniform f32 transposed */ {0x8f533d9e31bfc30dull, 0x8f533d9e31bfc30dull, 0x8f533d9e31bfc30dull, 0x8f533d9e31bfc30dull},
        /* mt19937      rng_uniform bf16           */ {0x5e1d5ab0a2b43285ull, 0x5e1d5ab0a2b43285ull, 0x5e1d5ab0a2b43285ull, 0x5e1d5ab0a2b43285ull},
        /* mt19937      rng_uniform f16 stride 2   */ {0x65db605a21ca67b5ull, 0x65db605a21ca67b5ull, 0x65db605a21ca67b5ull, 0x65db605a21ca67b5ull},
    },
    {
        /* philox_ctr32 u32 n4099 off3             */ {0x02c577882295a9f9ull, 0x02c577882295a9f9ull, 0x02c577882295a9f9ull, 0x02c577882295a9f9ull},
        /* philox_ctr32 uniform_f32 n4099          */ {0x58f84dd32052f119ull, 0x58f84dd32052f119ull, 0x58f84dd32052f119ull, 0x58f84dd32052f119ull},
        /* philox_ctr32 bernoulli p.3 off3         */ {0x03a8d33da016a609ull, 0x03a8d33da016a609ull, 0x03a8d33da016a609ull, 0x03a8d33da016a609ull},
        /* philox_ctr32 bernoulli p.7 off0         */ {0x4207171a359294d1ull, 0x4207171a359294d1ull, 0x4207171a359294d1ull, 0x4207171a359294d1ull},
        /* philox_ctr32 rng_uniform f32 7x601      */ {0x5f5faca2d7de2da5ull, 0x5f5faca2d7de2da5ull, 0x5f5faca2d7de2da5ull, 0x5f5faca2d7de2da5ull},
        /* philox_ctr32 rng_uniform f32 transposed */ {0x54f932a674a13bd5ull, 0x54f932a674a13bd5ull, 0x54f932a674a13bd5ull, 0x54f932a674a13bd5ull},
        /* philox_ctr32 rng_uniform bf16           */ {0xdc52958d82cec8d5ull, 0xdc52958d82cec8d5ull, 0xdc52958d82cec8d5ull, 0xdc52958d82cec8d5ull},
        /* philox_ctr32 rng_uniform f16 stride 2   */ {0x0d90ebb44a9112b5ull, 0x0d90ebb44a9112b5ull, 0x0d90ebb44a9112b5ull, 0x0d90ebb44a9112b5ull},
    },
};

/* The cases flat: every case of algs[0], then of algs[1], ... */
static uint64_t rb_case_at(int c, int cap, int *level) {
    (void)cap, (void)level;
    return rb_case(algs[c / rb_n], c % rb_n);
}
static const char *rb_row_name(int c) {
    static char name[64];
    snprintf(name, sizeof name, "%-12s %s", alg_name(algs[c / rb_n]), rb_name[c % rb_n]);
    return name;
}

/* ---- MT19937 polynomial jump ---- */

/* n outputs ahead by the discard alone: skips below the jump threshold, which twist only. */
static void mt_discard(dnnlk_rng *r, uint64_t n) {
    while (n) {
        uint64_t c = n < DNNLK_MT_JUMP_MIN - 1 ? n : DNNLK_MT_JUMP_MIN - 1;
        dnnlk_rng_skip(r, c);
        n -= c;
    }
}

/* From DNNLK_MT_JUMP_MIN outputs on a skip jumps by polynomials; it must leave exactly the state
 * the discard leaves (the same block of words and position, not only the same stream), from a
 * fresh seed (position 624) and from inside a block. */
TEST(mt19937_jump_equals_discard_isa) {
    uint64_t ns[8] = {DNNLK_MT_JUMP_MIN, DNNLK_MT_JUMP_MIN + 1, DNNLK_MT_JUMP_MIN + 623, DNNLK_MT_JUMP_MIN + 624,
                      ((uint64_t)1 << 24) + 12345, ((uint64_t)3 << 23) + 999, 0, 0};
    int c, pre, full = th_scaled(10) >= 10; /* under the sanitizers: three sizes, two positions */
    ns[6] = DNNLK_MT_JUMP_MIN + (th_rand64() % ((uint64_t)1 << (full ? 25 : 22)));
    ns[7] = ((uint64_t)1 << 25) - 1; /* every table bit set from 21 to 24 */
    for (pre = 0; pre < 3; pre += full ? 1 : 2)
        for (c = 0; c < 8; c += full ? 1 : 3) {
            dnnlk_rng a, b;
            uint32_t tmp[700];
            dnnlk_rng_init(&a, dnnlk_rng_mt19937, 20260 + (uint64_t)c, 0);
            if (pre) dnnlk_rng_u32(&a, tmp, pre == 1 ? 1 : 700, &a, 0, 1);
            b = a;
            CHECK_EQ(dnnlk_rng_skip(&a, ns[c]), dnnlk_success);
            mt_discard(&b, ns[c]);
            CHECK_MSG(memcmp(a.mt, b.mt, sizeof a.mt) == 0 && a.mt_pos == b.mt_pos, "n=%llu after %d draws",
                      (unsigned long long)ns[c], pre == 1 ? 1 : pre ? 700 : 0);
        }
}

/* Each table is the square of the one below it: applying 2^(k-1) twice equals applying 2^k once,
 * for every k, so the tables are right from the lowest one up, and the lowest is checked against
 * the discard above. Skips past the last table repeat it; they compose as skips must. */
TEST(mt19937_jump_tables_chain_isa) {
    dnnlk_rng r;
    uint32_t w[624], twice[624], once[624];
    int k, full = th_scaled(10) >= 10;
    dnnlk_rng_init(&r, dnnlk_rng_mt19937, 99, 0);
    dnnlk__mt_twist(r.mt); /* a window in T's image */
    memcpy(w, r.mt, sizeof w);
    for (k = DNNLK__MT_JUMP_KMIN + 1; k <= DNNLK__MT_JUMP_KMAX; k++) {
        if (!full && k != DNNLK__MT_JUMP_KMIN + 1 && k != DNNLK__MT_JUMP_KMAX) continue; /* sanitizers: two */
        memcpy(twice, w, sizeof w);
        memcpy(once, w, sizeof w);
        DNNLK__DISPATCH(dnnlk__mt_jump_apply_v, (twice, dnnlk__mt_jump_table(k - 1)));
        DNNLK__DISPATCH(dnnlk__mt_jump_apply_v, (twice, dnnlk__mt_jump_table(k - 1)));
        DNNLK__DISPATCH(dnnlk__mt_jump_apply_v, (once, dnnlk__mt_jump_table(k)));
        CHECK_MSG(memcmp(twice, once, sizeof w) == 0, "table 2^%d", k);
    }
    if (full) {
        dnnlk_rng a, b;
        uint64_t big = ((uint64_t)1 << (DNNLK__MT_JUMP_KMAX + 2)) + ((uint64_t)1 << DNNLK__MT_JUMP_KMAX) + 12345;
        dnnlk_rng_init(&a, dnnlk_rng_mt19937, 7, 0);
        b = a;
        dnnlk_rng_skip(&a, big);
        dnnlk_rng_skip(&b, (uint64_t)1 << (DNNLK__MT_JUMP_KMAX + 1));
        dnnlk_rng_skip(&b, (uint64_t)1 << (DNNLK__MT_JUMP_KMAX + 1));
        dnnlk_rng_skip(&b, ((uint64_t)1 << DNNLK__MT_JUMP_KMAX) + 12345);
        CHECK(memcmp(a.mt, b.mt, sizeof a.mt) == 0 && a.mt_pos == b.mt_pos);
    }
}

/* Parts that start past the jump threshold (lowered for this program: top of file) give the bits
 * one part gives, for nth = 1..64 at the top level and a spread of counts at the others. */
TEST(mt19937_parts_jump_isa) {
    const int64_t n = (int64_t)1 << 22; /* draws: two outputs each, so part p of nth skips p 2^23/nth */
    uint8_t *one = (uint8_t *)malloc((size_t)n / 8), *got = (uint8_t *)malloc((size_t)n / 8);
    static const int some[6] = {2, 3, 5, 16, 63, 64};
    dnnlk_rng r;
    int c, full = th_scaled(10) >= 10, every = full && th_isa == dnnlk_cpu_isa();
    dnnlk_rng_init(&r, dnnlk_rng_mt19937, 31337, 5);
    CHECK_EQ(dnnlk_rng_bernoulli(&r, one, n, 0.3, NULL, 0, 1), dnnlk_success);
    for (c = full ? 0 : 2; c < (every ? 63 : full ? 6 : 3); c++) { /* sanitizers: 5 parts */
        int nth = every ? c + 2 : some[c], ith;
        memset(got, 0, (size_t)n / 8);
        for (ith = nth - 1; ith >= 0; ith--) dnnlk_rng_bernoulli(&r, got, n, 0.3, NULL, ith, nth);
        CHECK_MSG(memcmp(one, got, (size_t)n / 8) == 0, "nth=%d", nth);
    }
    free(one);
    free(got);
}

TEST(recorded_bits_every_level) {
    static uint64_t got[NALGS * rb_n][4];
    static int ran[NALGS * rb_n][4];
    if (th_recorded_bits(NALGS * rb_n, rb_case_at, rb_row_name, 39, rb_n, (const uint64_t(*)[4])&rb_recorded[0][0], 0,
                         got, ran))
        SKIP("DNNLK_TEST_RECORD: printed the table instead of checking it");
    CHECK(ran[0][(int)dnnlk_max_isa()]); /* with a compile-time level (make test-native) only that one runs */
}

int main(void) {
    RUN(mcg_known_answers);
    RUN(philox_known_answers);
    RUN(mt19937_known_answer);
    RUN_EACH_ISA(streams_match_reference_isa);
    RUN_EACH_ISA(uniform_matches_reference_isa);
    RUN(bernoulli_thresholds_exact);
    RUN_EACH_ISA(bernoulli_matches_reference_isa);
    RUN_EACH_ISA(philox_counter_carry_isa);
    RUN_EACH_ISA(philox_ctr32_is_onednn_32bit_isa);
    RUN(mcg_jump_equals_stepping);
    RUN_EACH_ISA(mt19937_jump_equals_discard_isa);
    RUN_EACH_ISA(mt19937_jump_tables_chain_isa);
    RUN_EACH_ISA(mt19937_parts_jump_isa);
    RUN_EACH_ISA(statistics_isa);
    RUN_EACH_ISA(rng_uniform_op_isa);
    RUN(bad_arguments);
    RUN(recorded_bits_every_level);
    return th_summary();
}
