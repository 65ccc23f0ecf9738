/* Optional: rng.h against Intel's VSL (oneMKL's libmkl_rt, e.g. from PyPI's `mkl` wheel in a
 * virtualenv: python3 -m venv .venv && .venv/bin/pip install mkl). Loaded at run time with dlopen
 * from $DNNLK_MKL_RT, ./.venv/lib/libmkl_rt.so.{3,2}, or the loader path; without it every case
 * is reported as skipped. Compared: the MCG31m1 sequence (viRngUniformBits) and Bernoulli
 * masks (viRngBernoulli, ICDF method) with our MCG31m1 Bernoulli rule (1 when x/m < p). (VSL's
 * MT19937 seeds from its seed differently from std::mt19937, which ours follows, so its sequence
 * is not compared.) */
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

int main(void) {
    RUN_EACH_ISA(vsl_mcg31_sequence_isa);
    RUN_EACH_ISA(vsl_mcg31_bernoulli_isa);
    return th_summary();
}
