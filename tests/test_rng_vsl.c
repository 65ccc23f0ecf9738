/* Optional: rng.h against Intel's VSL (oneMKL's libmkl_rt, e.g. from PyPI's `mkl` wheel in a
 * virtualenv: python3 -m venv .venv && .venv/bin/pip install mkl). Loaded at run time with dlopen
 * from $DNNLK_MKL_RT, ./.venv/lib/libmkl_rt.so.{3,2}, or the loader path; without it every case
 * is reported as skipped (.ci/run installs the wheel, so CI runs them). Compared: the MCG31m1
 * sequence (viRngUniformBits) and Bernoulli masks (viRngBernoulli, ICDF method) with ours, on
 * sequences and on a band of states around each p's threshold, where a rule that differs from
 * VSL's shows; MCG31 dropout keep masks against viRngBernoulli(1 - rate); with
 * DNNLK_TEST_EXHAUSTIVE=1, every state of the period (2^31 - 2) for six p. (VSL's MT19937 seeds
 * from its seed differently from std::mt19937, which ours follows, so its sequence is not
 * compared.) */
#include <dlfcn.h>

#include "harness.h"

typedef int (*vsl_new_fn)(void **stream, int brng, unsigned seed);
typedef int (*vsl_del_fn)(void **stream);
typedef int (*vsl_bits_fn)(int method, void *stream, int n, unsigned *r);
typedef int (*vsl_bern_fn)(int method, void *stream, int n, int *r, double p);

#define VSL_MCG31 (1 << 20)

static vsl_new_fn vsl_new;
static vsl_del_fn vsl_del;
static vsl_bits_fn vsl_bits;
static vsl_bern_fn vsl_bern;

static int load_vsl(void) {
    static int state = -1;
    const char *paths[5];
    int i;
    void *h = NULL, *f;
    if (state >= 0) return state;
    /* MKL's own Bernoulli is not one rule on every CPU: on Intel CPUs its AVX2 / AVX-512 branches
     * draw the uniform in double and answer differently at the threshold (p = 0.1, state
     * 214748360: 1 there; 0 in its reproducible branch, on AMD CPUs, and here), so the comparison
     * pins the branch that is the same everywhere, before the library is loaded. */
    setenv("MKL_CBWR", "COMPATIBLE", 1);
    paths[0] = getenv("DNNLK_MKL_RT");
    paths[1] = ".venv/lib/libmkl_rt.so.3";
    paths[2] = ".venv/lib/libmkl_rt.so.2";
    paths[3] = "libmkl_rt.so.3";
    paths[4] = "libmkl_rt.so.2";
    for (i = 0; i < 5 && !h; i++)
        if (paths[i]) h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
    state = 0;
    if (!h) {
        printf("VSL (libmkl_rt) not found: the VSL comparisons are skipped\n");
        return 0;
    }
    /* object pointer -> function pointer through memcpy: ISO C has no cast between them */
    if (!(f = dlsym(h, "vslNewStream"))) return 0;
    memcpy(&vsl_new, &f, sizeof f);
    if (!(f = dlsym(h, "vslDeleteStream"))) return 0;
    memcpy(&vsl_del, &f, sizeof f);
    if (!(f = dlsym(h, "viRngUniformBits"))) return 0;
    memcpy(&vsl_bits, &f, sizeof f);
    if (!(f = dlsym(h, "viRngBernoulli"))) return 0;
    memcpy(&vsl_bern, &f, sizeof f);
    state = 1;
    return 1;
}

TEST(vsl_mcg31_sequence_isa) {
    static const unsigned seeds[] = {0, 1, 7, 123456789u, 2147483647u, 4294967295u};
    unsigned want[5000];
    uint32_t got[5000];
    int s;
    if (!load_vsl()) SKIP("libmkl_rt not found");
    for (s = 0; s < 6; s++) {
        void *st = NULL;
        dnnlk_rng r;
        CHECK_EQ(vsl_new(&st, VSL_MCG31, seeds[s]), 0);
        CHECK_EQ(vsl_bits(0, st, 5000, want), 0);
        vsl_del(&st);
        dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, seeds[s], 0);
        dnnlk_rng_u32(&r, got, 5000, NULL, 0, 1);
        CHECK_MSG(memcmp(want, got, sizeof got) == 0, "seed %u: first %u vs %u", seeds[s], want[0], got[0]);
    }
}

TEST(vsl_mcg31_bernoulli_isa) {
    static const double ps[] = {0.5, 0.1, 0.9, 0.123456789, 1e-6, 1 - 1e-6, 0.0, 1.0};
    int want[4000], s, k, i;
    uint8_t bits[500];
    if (!load_vsl()) SKIP("libmkl_rt not found");
    for (s = 0; s < 3; s++)
        for (k = 0; k < 8; k++) {
            void *st = NULL;
            dnnlk_rng r;
            int bad = 0;
            CHECK_EQ(vsl_new(&st, VSL_MCG31, 1000u + (unsigned)s), 0);
            CHECK_EQ(vsl_bern(0, st, 4000, want, ps[k]), 0);
            vsl_del(&st);
            dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, 1000u + (unsigned)s, 0);
            dnnlk_rng_bernoulli(&r, bits, 4000, ps[k], NULL, 0, 1);
            for (i = 0; i < 4000; i++) bad += want[i] != ((bits[i / 8] >> (i % 8)) & 1);
            CHECK_MSG(bad == 0, "seed %d p %g: %d of 4000 differ", 1000 + s, ps[k], bad);
        }
}

/* VSL's bit for state x: a stream seeded with x starts at x (x0 = seed mod m). */
static int vsl_bit_at(uint32_t x, double p) {
    void *st = NULL;
    int bit = -1;
    if (vsl_new(&st, VSL_MCG31, x) != 0) return -1;
    if (vsl_bern(0, st, 1, &bit, p) != 0) bit = -1;
    vsl_del(&st);
    return bit;
}

static const double band_ps[] = {0.1, 0.5, 0.9, 1.0, 0x1p-24, 1 - 0x1p-24, 0.123456789, 1 - 1e-6, 1e-7, 0.75};

/* Where the rule decides: every state within 300 of the threshold, and the last 300 states of
 * the range (p = 1 gives 0 there). The band holds states of both values, so a rule that differs
 * from VSL's anywhere near the threshold fails here. */
TEST(vsl_mcg31_bernoulli_band_isa) {
    size_t k;
    if (!load_vsl()) SKIP("libmkl_rt not found");
    for (k = 0; k < sizeof band_ps / sizeof *band_ps; k++) {
        double p = band_ps[k];
        dnnlk__bern b = dnnlk__bern_for_p(dnnlk_rng_mcg31m1, p);
        int64_t centre = b.kind == dnnlk__bern_lt ? (int64_t)b.t : (int64_t)(p * 2147483647.0), x;
        int bad = 0, ones = 0, zeros = 0, pass;
        for (pass = 0; pass < 2; pass++)
            for (x = pass ? 2147483646 - 299 : centre - 300; x <= (pass ? 2147483646 : centre + 300); x++) {
                dnnlk_rng r;
                uint8_t bit = 0;
                int want;
                if (x < 1 || x > 2147483646) continue;
                want = vsl_bit_at((uint32_t)x, p);
                dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, (uint64_t)x, 0);
                CHECK_EQ(dnnlk_rng_bernoulli(&r, &bit, 1, p, NULL, 0, 1), dnnlk_success);
                ones += want == 1, zeros += want == 0;
                if (want != bit && bad++ < 3) CHECK_MSG(0, "p %a state %lld: VSL %d, ours %d", p, (long long)x, want, bit);
            }
        CHECK_MSG(bad == 0 && ones > 0 && zeros > 0, "p %a: %d differ (%d ones, %d zeros)", p, bad, ones, zeros);
    }
}

/* MCG31 dropout keeps element j where viRngBernoulli(1 - rate) draws 1 at state j: one element per
 * stream, seeded at each state of the band around the keep threshold. */
TEST(vsl_mcg31_dropout_band_isa) {
    static const double rates[] = {0.1, 0.5, 0.9, 0x1p-24};
    size_t k;
    if (!load_vsl()) SKIP("libmkl_rt not found");
    for (k = 0; k < sizeof rates / sizeof *rates; k++) {
        double p = 1.0 - rates[k];
        dnnlk__bern b = dnnlk__bern_for_p(dnnlk_rng_mcg31m1, p);
        int64_t x, dims[1] = {1};
        int bad = 0;
        CHECK_EQ(b.kind, dnnlk__bern_lt);
        for (x = (int64_t)b.t - 200; x <= (int64_t)b.t + 200; x++) {
            float src = 1.0f, dst = -1.0f;
            uint8_t mask = 0xff;
            dnnlk_rng r;
            dnnlk_tensor ts = th_tensor(&src, dnnlk_f32, 1, dims), td = th_tensor(&dst, dnnlk_f32, 1, dims);
            dnnlk_rng_init(&r, dnnlk_rng_mcg31m1, (uint64_t)x, 0);
            CHECK_EQ(dnnlk_dropout_fwd(&ts, &td, &mask, rates[k], 0, NULL, &r, NULL, 0, 1), dnnlk_success);
            bad += vsl_bit_at((uint32_t)x, p) != (mask & 1) || (dst != 0) != (mask & 1);
        }
        CHECK_MSG(bad == 0, "rate %a: %d of 401 states differ", rates[k], bad);
    }
}

/* Every state of the period, every ISA level: VSL's draws from seed 1 in chunks, packed to bits,
 * against our chained calls. */
TEST(vsl_mcg31_bernoulli_full_period) {
    static const double ps[] = {0.1, 0.5, 0.9, 1.0, 0x1p-24, 1 - 0x1p-24};
    enum { CHUNK = 1 << 22 };
    int *want = NULL;
    uint8_t *wbits = NULL, *got = NULL;
    size_t k;
    int top = (int)dnnlk_cpu_isa();
    if (!getenv("DNNLK_TEST_EXHAUSTIVE") || !atoi(getenv("DNNLK_TEST_EXHAUSTIVE"))) SKIP("DNNLK_TEST_EXHAUSTIVE not set");
    if (!load_vsl()) SKIP("libmkl_rt not found");
    want = (int *)malloc(CHUNK * sizeof *want), wbits = (uint8_t *)malloc(CHUNK / 8), got = (uint8_t *)malloc(CHUNK / 8);
    CHECK(want && wbits && got && top < 8);
    for (k = 0; want && wbits && got && k < sizeof ps / sizeof *ps; k++) {
        void *st = NULL;
        dnnlk_rng r[8]; /* one stream per ISA level */
        int64_t done = 0, total = 2147483646, bad = 0, ones = 0;
        int l;
        CHECK_EQ(vsl_new(&st, VSL_MCG31, 1), 0);
        for (l = 0; l <= top; l++) dnnlk_rng_init(&r[l], dnnlk_rng_mcg31m1, 1, 0);
        while (done < total) {
            int n = total - done < CHUNK ? (int)(total - done) : CHUNK, i;
            CHECK_EQ(vsl_bern(0, st, n, want, ps[k]), 0);
            memset(wbits, 0, CHUNK / 8);
            for (i = 0; i < n; i++) wbits[i >> 3] |= (uint8_t)((want[i] & 1) << (i & 7)), ones += want[i];
            for (l = 0; l <= top; l++) {
                dnnlk_set_max_isa((dnnlk_isa)l);
                memset(got, 0, CHUNK / 8);
                dnnlk_rng_bernoulli(&r[l], got, n, ps[k], &r[l], 0, 1);
                if (memcmp(got, wbits, (size_t)(n + 7) / 8) != 0) bad++;
            }
            done += n;
        }
        dnnlk_set_max_isa(dnnlk_isa_avx512);
        vsl_del(&st);
        printf("  full period, p = %a: %lld ones of %lld, %lld differing chunks\n", ps[k], (long long)ones,
               (long long)total, (long long)bad);
        CHECK_MSG(bad == 0, "p %a: %lld chunk comparisons differ", ps[k], (long long)bad);
    }
    free(want), free(wbits), free(got);
}

int main(void) {
    RUN_EACH_ISA(vsl_mcg31_sequence_isa);
    RUN_EACH_ISA(vsl_mcg31_bernoulli_isa);
    RUN_EACH_ISA(vsl_mcg31_bernoulli_band_isa);
    RUN_EACH_ISA(vsl_mcg31_dropout_band_isa);
    RUN(vsl_mcg31_bernoulli_full_period);
    return th_summary();
}
