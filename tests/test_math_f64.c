/* f64 paths of erf, gelu (both forms), softmax, log_softmax, layer_norm and l2_norm
 * (kernels/math_f64.h, kernels/norm_f64.h).
 *
 * Oracles: plain long double references written here (x86-64: 64-bit significand; aarch64: quad),
 * used where their own error is far below an ulp of double, and mpmath known answers
 * (tools/f64_known_answers.py, 200 bits rounded once to double) for the places where a plain long
 * double formula would not be accurate enough: gelu's tails down to the subnormal results, a
 * softmax row with exp underflowing to subnormals, log_softmax of a dominant element, layer_norm
 * with a mean of 1e8 and a std of 2, l2_norm whose sum of squares overflows / underflows double.
 * Error: |got - ref| in units of the ulp of the double nearest ref (real-valued); every op is
 * required within 2 ulp (the README's claim) and the worst case is printed.
 * Each random case runs as 1, 2, 3 and 7 parts over random strides and checks the bits are the
 * same for every part count.
 * Built with DNNLK_NO_SIMD: the f64 paths are plain C, taken before the ISA dispatch, so there is
 * one code to test; the SIMD levels of the f32 kernels the same calls pull in tripled this
 * program's compile time (gcc -O2: 14 s user against 5), and every test compiles ~8 times in CI. */
#define DNNLK_NO_SIMD 1
#include <float.h>

#include "harness.h"
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#else
#define HAVE_MXCSR 0
#endif

/* ---- known answers (tools/f64_known_answers.py; pasted) ---- */
static const double ka_erf[][2] = {
    {0x0.0000000000001p-1022, 0x0.0000000000001p-1022},
    {0x0.012688b70e62bp-1022, 0x0.014c5898977c4p-1022},
    {0x1.87e92154ef7acp-665, 0x1.ba394ce53f796p-665},
    {0x1.5798ee2308c3ap-27, 0x1.83b547fb79514p-27},
    {0x1.0624dd2f1a9fcp-10, 0x1.27cc3804d374cp-10},
    {0x1.3333333333333p-2, 0x1.50838881dea0fp-2},
    {0x1.0000000000000p-1, 0x1.0a7ef5c18edd2p-1},
    {0x1.c5bf891b4ef6bp-1, 0x1.946ee638e52d9p-1},
    {0x1.0000000000000p+0, 0x1.af767a741088bp-1},
    {0x1.8000000000000p+0, 0x1.eea5557137ae0p-1},
    {0x1.4000000000000p+1, 0x1.ffcaa8f4c9beap-1},
    {0x1.a666666666666p+1, 0x1.ffff9966790c8p-1},
    {0x1.2cccccccccccdp+2, 0x1.ffffffffbe223p-1},
    {0x1.7333333333333p+2, 0x1.ffffffffffffep-1},
    {0x1.799999999999ap+2, 0x1.fffffffffffffp-1},
    {-0x1.6666666666666p-1, -0x1.5b08c21171646p-1},
    {-0x1.0000000000000p+2, -0x1.ffffff7b91176p-1},
};
static const double ka_gelu_erf[][2] = {
    {-0x1.34ccccccccccdp+5, -0x0.0p+0},
    {-0x1.3333333333333p+5, -0x0.0000000000201p-1022},
    {-0x1.3000000000000p+5, -0x0.0000084474d57p-1022},
    {-0x1.2c00000000000p+5, -0x1.367682a29e309p-1016},
    {-0x1.1800000000000p+5, -0x1.03ffd3d80de66p-885},
    {-0x1.e000000000000p+4, -0x1.601c52358b95dp-651},
    {-0x1.b4ccccccccccdp+4, -0x1.0aba8a78e5740p-539},
    {-0x1.4000000000000p+4, -0x1.1876296f504b2p-290},
    {-0x1.9000000000000p+3, -0x1.f02494d8a3f13p-115},
    {-0x1.0000000000000p+3, -0x1.669d2c90d55cep-48},
    {-0x1.4000000000000p+2, -0x1.80bcbae98063dp-20},
    {-0x1.a666666666666p+1, -0x1.a232bfa338b90p-10},
    {-0x1.0000000000000p+0, -0x1.44ed0bb7cb20bp-3},
    {-0x1.0000000000000p-1, -0x1.3bf143b9aa712p-3},
    {-0x1.0624dd2f1a9fcp-10, -0x1.05ef51a247ab0p-11},
    {-0x1.79ca10c924223p-67, -0x1.79ca10c924223p-68},
    {0x1.79ca10c924223p-67, 0x1.79ca10c924223p-68},
    {0x1.0000000000000p-1, 0x1.62075e232ac77p-2},
    {0x1.0000000000000p+0, 0x1.aec4bd120d37dp-1},
    {0x1.8000000000000p+1, 0x1.7f7b4cb426ddcp+1},
    {0x1.2000000000000p+3, 0x1.2000000000000p+3},
};
static const double ka_gelu_tanh[][2] = {
    {-0x1.599999999999ap+4, -0x0.0p+0},
    {-0x1.5800000000000p+4, -0x0.0000000000039p-1022},
    {-0x1.54ccccccccccdp+4, -0x0.00005f4200ee5p-1022},
    {-0x1.5000000000000p+4, -0x1.9c99db33e694cp-998},
    {-0x1.4000000000000p+4, -0x1.a927dc6157cb0p-866},
    {-0x1.e000000000000p+3, -0x1.eb41c83768019p-379},
    {-0x1.4000000000000p+3, -0x1.47c8fd5284feap-123},
    {-0x1.4000000000000p+2, -0x1.ec28d40db8458p-23},
    {-0x1.8000000000000p+1, -0x1.dcc2a011612b9p-9},
    {-0x1.0000000000000p+0, -0x1.453d22357147ap-3},
    {-0x1.0624dd2f1a9fcp-10, -0x1.05ef51a24868bp-11},
    {-0x1.79ca10c924223p-67, -0x1.79ca10c924223p-68},
    {0x1.79ca10c924223p-67, 0x1.79ca10c924223p-68},
    {0x1.0000000000000p-1, 0x1.6202da77df3f9p-2},
    {0x1.0000000000000p+1, 0x1.f46083b4f1aa6p+0},
    {0x1.4000000000000p+3, 0x1.4000000000000p+3},
};
static const double ka_sm_x[8] = {0x1.999999999999ap-4, -0x1.70ef54646d497p-57, 0x1.4000000000000p+1, -0x1.5e20000000000p+9, 0x1.8000000000001p+1, 0x1.8000000000000p+1, -0x1.7e43c8800759cp+996, -0x1.7440000000000p+9};
static const double ka_sm_y[8] = {0x1.4c7e123cb0421p-6, 0x1.2cda040bf8c80p-6, 0x1.ca23f065ed895p-3, 0x1.faf3c44b6edcep-1017, 0x1.79ac43343f557p-2, 0x1.79ac43343f554p-2, 0x0.0p+0, 0x0.0p+0};
static const double ka_lsm_y[8] = {-0x1.f2df6c466e261p+1, -0x1.ffac39133af2ep+1, -0x1.7f58722675e5cp+0, -0x1.601fac39133afp+9, -0x1.feb0e44cebcb4p-1, -0x1.feb0e44cebcb8p-1, -0x1.7e43c8800759cp+996, -0x1.763fac39133afp+9};
static const double ka_dom_x[3] = {0x0.0p+0, -0x1.4000000000000p+5, -0x1.4c00000000000p+5};
static const double ka_dom_y[3] = {-0x1.7f6b25a7e13f8p-58, -0x1.4000000000000p+5, -0x1.4c00000000000p+5};
static const double ka_ln_x[5] = {0x1.7d78402000000p+26, 0x1.7d783fb000000p+26, 0x1.7d7840c000000p+26, 0x1.7d78400800000p+26, 0x1.7d783f8000000p+26};
static const double ka_ln_y0[7] = {0x1.f9e8aba785c66p-3, -0x1.8a4fb2f746622p-1, 0x1.b33afd15c406ep+0, 0x1.dc26473441abap-6, -0x1.34c0d22be2955p+0, 0x1.7d784004ccccdp+26, 0x1.2997ec80a90b4p-1};
static const double ka_ln_y1[7] = {0x1.f9e822f31def8p-3, -0x1.8a4f486aaa27dp-1, 0x1.b33a877a90577p+0, 0x1.dc25c68a76871p-6, -0x1.34c07ebdc8db9p+0, 0x1.7d784004ccccdp+26, 0x1.29979c168a146p-1};
static const double ka_l2_big_x[3] = {0x1.f5aa543c31387p+665, -0x1.4e718d7d7625ap+666, 0x1.0b8e0acac4eafp+661};
static const double ka_l2_big_y[3] = {0x1.332379e02efdfp-1, -0x1.9984a2803ea7fp-1, 0x1.479d4eccfeeccp-6};
static const double ka_l2_tiny_x[3] = {0x1.87e92154ef7acp-665, 0x1.87e92154ef7acp-664, -0x1.87e92154ef7acp-666};
static const double ka_l2_tiny_y[3] = {0x1.bee9056fb9c39p-2, 0x1.bee9056fb9c39p-1, -0x1.bee9056fb9c39p-3};

/* ---- measuring ---- */

enum { OP_ERF, OP_GELU_ERF, OP_GELU_TANH, OP_SM, OP_LSM, OP_LN, OP_LN_STATS, OP_L2, OP_N };
static const char *const op_name[OP_N] = {"erf",        "gelu(erf)", "gelu(tanh)",       "softmax",
                                          "log_softmax", "layer_norm", "layer_norm stats", "l2_norm"};
static double worst[OP_N];

/* The ulp of the double nearest ref (2^-1074 at zero and among the subnormals). */
static long double ulp_of(long double ref) {
    double rd = (double)ref;
    int e;
    if (rd == 0) return 0x1p-1074L;
    (void)frexp(rd, &e);
    return ldexpl(1.0L, e - 53 < -1074 ? -1074 : e - 53);
}

/* |got - ref| in ulps of the double nearest ref; NaN matches NaN only, infinities match exactly. */
static double ulp_err(double got, long double ref) {
    double rd = (double)ref;
    if (ref != ref) return got != got ? 0 : HUGE_VAL;
    if (got != got) return HUGE_VAL;
    if (rd == HUGE_VAL || rd == -HUGE_VAL) return got == rd ? 0 : HUGE_VAL;
    return (double)(fabsl((long double)got - ref) / ulp_of(ref));
}

/* Records the error of one element, fails the case beyond 2 ulp + slack_ulp (slack for the
 * documented cancellation cases only). */
static int check_elem(int op, double got, long double ref, double slack_ulp, double x) {
    double err = ulp_err(got, ref);
    if (!(slack_ulp < HUGE_VAL)) slack_ulp = 0; /* NaN or inf terms: exact agreement wanted */
    if (err - slack_ulp > worst[op]) worst[op] = err - slack_ulp > 0 ? err - slack_ulp : 0;
    CHECK_MSG(err <= 2 + slack_ulp, "%s: x %a: got %a, want %a (%.2f ulp, slack %.2f)", op_name[op], x, got,
              (double)ref, err, slack_ulp);
    return err <= 2 + slack_ulp;
}

static double rand_unit(void) { return (double)(th_rand64() >> 11) * 0x1p-53; }
static double rand_range(double lo, double hi) { return lo + (hi - lo) * rand_unit(); }
/* ±(1 + f) 2^e, e uniform in [emin, emax]: every scale equally often. */
static double rand_wide(int emin, int emax) {
    double v = ldexp(1 + rand_unit(), (int)th_randint(emin, emax));
    return th_rand32() & 1 ? -v : v;
}

static const int nths[4] = {1, 2, 3, 7};

static dnnlk_tensor f64_tensor(void *p, int nd, const int64_t *dims) { return th_tensor(p, dnnlk_f64, nd, dims); }

/* ---- references (long double, plainly written) ---- */

static long double ref_elt(int op, double x) {
    long double X = x, z, e;
    if (op == OP_ERF) return erfl(X);
    if (op == OP_GELU_ERF) return X >= 0 ? 0.5L * X * (1 + erfl(X / sqrtl(2.0L))) : 0.5L * X * erfcl(-X / sqrtl(2.0L));
    z = sqrtl(2 / acosl(-1.0L)) * (X + 0.044715L * X * X * X);
    if (X >= 0) return 0.5L * X * (1 + tanhl(z));
    e = expl(2 * z); /* 0.5 (1 + tanh z) = e^2z / (1 + e^2z), no cancellation */
    return X * e / (1 + e);
}

/* ---- cases ---- */

TEST(known_answers) {
    const double(*tabs[3])[2] = {ka_erf, ka_gelu_erf, ka_gelu_tanh};
    const size_t lens[3] = {sizeof ka_erf / sizeof ka_erf[0], sizeof ka_gelu_erf / sizeof ka_gelu_erf[0],
                            sizeof ka_gelu_tanh / sizeof ka_gelu_tanh[0]};
    int op;
    size_t i;
    for (op = 0; op < 3; op++)
        for (i = 0; i < lens[op]; i++) {
            int64_t one = 1;
            double x = tabs[op][i][0], y = -1;
            dnnlk_tensor ts = f64_tensor(&x, 1, &one), td = f64_tensor(&y, 1, &one);
            dnnlk_status st = op == OP_ERF ? dnnlk_erf(&ts, &td, 0, 1)
                                           : dnnlk_gelu(&ts, op == OP_GELU_ERF ? dnnlk_gelu_erf : dnnlk_gelu_tanh, &td, 0, 1);
            CHECK_EQ(st, dnnlk_success);
            check_elem(op, y, tabs[op][i][1], 0, x);
        }
    {
        int64_t n8 = 8, n3 = 3, n5 = 5;
        double y[8];
        int log, k;
        for (log = 0; log < 2; log++) {
            dnnlk_tensor ts = f64_tensor((void *)(uintptr_t)ka_sm_x, 1, &n8), td = f64_tensor(y, 1, &n8);
            CHECK_EQ(log ? dnnlk_log_softmax(&ts, 0, &td, 0, 1) : dnnlk_softmax(&ts, 0, &td, 0, 1), dnnlk_success);
            for (k = 0; k < 8; k++) check_elem(log ? OP_LSM : OP_SM, y[k], log ? ka_lsm_y[k] : ka_sm_y[k], 0, ka_sm_x[k]);
        }
        {
            dnnlk_tensor ts = f64_tensor((void *)(uintptr_t)ka_dom_x, 1, &n3), td = f64_tensor(y, 1, &n3);
            CHECK_EQ(dnnlk_log_softmax(&ts, -1, &td, 0, 1), dnnlk_success);
            for (k = 0; k < 3; k++) check_elem(OP_LSM, y[k], ka_dom_y[k], 0, ka_dom_x[k]);
        }
        for (log = 0; log < 2; log++) { /* log: eps outside the sqrt */
            int ax = -1;
            double mean = 0, istd = 0;
            int64_t one = 1;
            const double *want = log ? ka_ln_y1 : ka_ln_y0;
            dnnlk_tensor ts = f64_tensor((void *)(uintptr_t)ka_ln_x, 1, &n5), td = f64_tensor(y, 1, &n5);
            dnnlk_tensor tm = f64_tensor(&mean, 1, &one), ti = f64_tensor(&istd, 1, &one);
            CHECK_EQ(dnnlk_layer_norm(&ts, NULL, NULL, 1, &ax, 1e-5f, log, &td, &tm, &ti, 0, 1), dnnlk_success);
            for (k = 0; k < 5; k++) check_elem(OP_LN, y[k], want[k], 0, ka_ln_x[k]);
            check_elem(OP_LN_STATS, mean, want[5], 0, 0);
            check_elem(OP_LN_STATS, istd, want[6], 0, 0);
        }
        for (log = 0; log < 2; log++) { /* big (sum of squares beyond double), tiny (below it) */
            const double *x = log ? ka_l2_tiny_x : ka_l2_big_x, *want = log ? ka_l2_tiny_y : ka_l2_big_y;
            dnnlk_tensor ts = f64_tensor((void *)(uintptr_t)x, 1, &n3), td = f64_tensor(y, 1, &n3);
            CHECK_EQ(dnnlk_l2_norm(&ts, 0, log ? 0.0f : 1e-12f, log, &td, 0, 1), dnnlk_success);
            for (k = 0; k < 3; k++) check_elem(OP_L2, y[k], want[k], 0, x[k]);
        }
    }
}

/* A random shape of nd dims (1..maxd each) and random layouts for src and dst. */
typedef struct layout {
    int nd;
    int64_t dims[3], ss[3], ds[3], soff, doff, sspan, dspan, n;
} layout;

static void random_layout(layout *L, int nd, const int64_t *dims, int src_zero) {
    L->nd = nd;
    memcpy(L->dims, dims, (size_t)nd * sizeof *dims);
    L->sspan = th_random_layout(nd, dims, L->ss, src_zero, &L->soff);
    L->dspan = th_random_layout(nd, dims, L->ds, 0, &L->doff);
    L->n = th_numel(nd, dims);
}

TEST(eltwise_random) {
    int op, r, p;
    for (op = 0; op < 3; op++)
        for (r = 0; r < th_scaled(150); r++) {
            layout L;
            int64_t dims[3], i, f;
            int nd = (int)th_randint(1, 3), k;
            th_buf src, dst[4];
            double *x;
            for (k = 0; k < nd; k++) dims[k] = th_randint(1, 7);
            random_layout(&L, nd, dims, 1);
            src = th_alloc((size_t)L.sspan * 8, 8 * (size_t)th_randint(0, 3));
            x = (double *)src.p;
            for (i = 0; i < L.sspan; i++) {
                double v = r % 2 ? rand_range(-12, 12) : rand_wide(-1074, 11);
                /* where the plain long double reference is not accurate enough (the tails down to
                 * the underflow: known answers cover them), mirror to the positive side */
                if (op == OP_GELU_ERF && v < -8 && v > -40) v = -v;
                if (op == OP_GELU_TANH && v < -5 && v > -23) v = -v;
                if (r == 3 && i == 0) v = op == OP_ERF ? 0x1p-1074 : -0.0;
                x[i] = v;
            }
            for (p = 0; p < 4; p++) {
                dnnlk_tensor ts = th_strided(x, L.soff, dnnlk_f64, nd, dims, L.ss);
                dnnlk_tensor td;
                int part;
                dst[p] = th_alloc((size_t)L.dspan * 8, 0);
                td = th_strided(dst[p].p, L.doff, dnnlk_f64, nd, dims, L.ds);
                memset(dst[p].p, 0x5a, (size_t)L.dspan * 8);
                for (part = 0; part < nths[p]; part++) {
                    dnnlk_status st = op == OP_ERF ? dnnlk_erf(&ts, &td, part, nths[p])
                                                   : dnnlk_gelu(&ts, op == OP_GELU_ERF ? dnnlk_gelu_none : dnnlk_gelu_tanh,
                                                                &td, part, nths[p]);
                    CHECK_EQ(st, dnnlk_success);
                }
                CHECK(th_guards_ok(&dst[p]));
                if (p == 0) {
                    for (f = 0; f < L.n; f++) {
                        double xv = x[L.soff + th_offset(nd, dims, L.ss, f)];
                        double yv = ((double *)dst[0].p)[L.doff + th_offset(nd, dims, L.ds, f)];
                        if (!check_elem(op, yv, ref_elt(op, xv), 0, xv)) break;
                    }
                } else {
                    CHECK_MSG(memcmp(dst[p].p, dst[0].p, (size_t)L.dspan * 8) == 0, "%s: %d parts differ from 1",
                              op_name[op], nths[p]);
                }
            }
            for (p = 0; p < 4; p++) th_free(&dst[p]);
            th_free(&src);
        }
}

TEST(eltwise_specials) {
    static const double xs[] = {NAN, HUGE_VAL, -HUGE_VAL, 0.0, -0.0, 40.0, -40.0, 1e300, -1e300};
    double y[9];
    int64_t n = 9;
    int op, i;
    for (op = 0; op < 3; op++) {
        dnnlk_tensor ts = f64_tensor((void *)(uintptr_t)xs, 1, &n), td = f64_tensor(y, 1, &n);
        CHECK_EQ(op == OP_ERF ? dnnlk_erf(&ts, &td, 0, 1)
                              : dnnlk_gelu(&ts, op == OP_GELU_ERF ? dnnlk_gelu_erf : dnnlk_gelu_tanh, &td, 0, 1),
                 dnnlk_success);
        CHECK(y[0] != y[0]);
        CHECK(y[1] == (op == OP_ERF ? 1.0 : HUGE_VAL));
        CHECK(op == OP_ERF ? y[2] == -1.0 : (y[2] == 0 && signbit(y[2])));
        CHECK(y[3] == 0 && !signbit(y[3]));
        CHECK(y[4] == 0 && signbit(y[4]));
        CHECK(y[5] == (op == OP_ERF ? 1.0 : 40.0));
        CHECK(op == OP_ERF ? y[6] == -1.0 : (y[6] == 0 && signbit(y[6])));
        CHECK(y[7] == (op == OP_ERF ? 1.0 : 1e300));
        CHECK(op == OP_ERF ? y[8] == -1.0 : (y[8] == 0 && signbit(y[8])));
        for (i = 0; i < 9; i++) (void)i;
    }
}

/* Softmax / log_softmax reference of one row (K values at stride 1). */
static void ref_softmax(const double *x, int64_t K, int log, long double *y) {
    long double m = -HUGE_VALL, s = 0, rest = 0;
    int64_t k, kmax = -1;
    int bad = 0;
    for (k = 0; k < K; k++) {
        if (x[k] != x[k]) bad = 1;
        else if (kmax < 0 || x[k] > m) m = x[k], kmax = k;
    }
    if (bad || m == HUGE_VALL || m == -HUGE_VALL) {
        for (k = 0; k < K; k++) y[k] = NAN;
        return;
    }
    for (k = 0; k < K; k++) {
        long double e = expl((long double)x[k] - m);
        s += e;
        if (k != kmax) rest += e;
    }
    for (k = 0; k < K; k++) y[k] = log ? ((long double)x[k] - m) - log1pl(rest) : expl((long double)x[k] - m) / s;
}

TEST(softmax_random) {
    int r, p, log;
    for (log = 0; log < 2; log++)
        for (r = 0; r < th_scaled(150); r++) {
            layout L;
            int64_t dims[3], i, f, K, rows, sub[3];
            int nd = (int)th_randint(1, 3), k, axis, mode = r % 4;
            th_buf src, dst[4];
            double *x, *row;
            long double *ref;
            for (k = 0; k < nd; k++) dims[k] = th_randint(1, 6);
            axis = (int)th_randint(0, nd - 1);
            dims[axis] = r % 7 == 6 ? th_randint(100, 600) : th_randint(1, 40);
            random_layout(&L, nd, dims, 1);
            src = th_alloc((size_t)L.sspan * 8, 0);
            x = (double *)src.p;
            for (i = 0; i < L.sspan; i++)
                x[i] = mode == 0 ? rand_range(-30, 30)
                     : mode == 1 ? rand_range(-800, 50)                      /* exps underflowing, subnormal */
                     : mode == 2 ? rand_wide(-1074, 1023)                     /* x - max beyond double's range */
                                 : 1e6 + rand_range(-1, 1);                   /* x - max must be exact */
            K = dims[axis];
            rows = L.n / K;
            row = (double *)malloc((size_t)K * sizeof *row);
            ref = (long double *)malloc((size_t)K * sizeof *ref);
            for (p = 0; p < 4; p++) {
                dnnlk_tensor ts = th_strided(x, L.soff, dnnlk_f64, nd, dims, L.ss), td;
                int part;
                dst[p] = th_alloc((size_t)L.dspan * 8, 0);
                memset(dst[p].p, 0x5a, (size_t)L.dspan * 8);
                td = th_strided(dst[p].p, L.doff, dnnlk_f64, nd, dims, L.ds);
                for (part = 0; part < nths[p]; part++)
                    CHECK_EQ(log ? dnnlk_log_softmax(&ts, axis - nd * (int)(r % 2), &td, part, nths[p])
                                 : dnnlk_softmax(&ts, axis, &td, part, nths[p]),
                             dnnlk_success);
                CHECK(th_guards_ok(&dst[p]));
                if (p > 0) {
                    CHECK_MSG(memcmp(dst[p].p, dst[0].p, (size_t)L.dspan * 8) == 0, "softmax: %d parts differ", nths[p]);
                    continue;
                }
                for (f = 0; f < rows; f++) {
                    /* the row's multi-index with the axis at 0, then its K elements */
                    int64_t rem = f, off_s, off_d;
                    int ok = 1;
                    for (k = nd - 1; k >= 0; k--) {
                        int64_t d = k == axis ? 1 : dims[k];
                        sub[k] = rem % d;
                        rem /= d;
                    }
                    off_s = L.soff;
                    off_d = L.doff;
                    for (k = 0; k < nd; k++) off_s += sub[k] * L.ss[k], off_d += sub[k] * L.ds[k];
                    for (i = 0; i < K; i++) row[i] = x[off_s + i * L.ss[axis]];
                    ref_softmax(row, K, log, ref);
                    for (i = 0; i < K && ok; i++)
                        ok = check_elem(log ? OP_LSM : OP_SM, ((double *)dst[0].p)[off_d + i * L.ds[axis]], ref[i], 0, row[i]);
                    if (!ok) break;
                }
            }
            for (p = 0; p < 4; p++) th_free(&dst[p]);
            free(row);
            free(ref);
            th_free(&src);
        }
}

TEST(softmax_specials) {
    /* rows of 3: NaN, +inf, all -inf give NaN rows; -inf elements of a finite row give 0 / -inf;
     * in place on the last call */
    double x[5][3] = {{1, NAN, 2}, {1, HUGE_VAL, 2}, {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, {-HUGE_VAL, 0, 1},
                      {-1e308, 1e308, 0}};
    double y[5][3];
    int64_t dims[2] = {5, 3};
    int log, r, k;
    for (log = 0; log < 2; log++) {
        dnnlk_tensor ts = f64_tensor(x, 2, dims), td = f64_tensor(y, 2, dims);
        CHECK_EQ(log ? dnnlk_log_softmax(&ts, 1, &td, 0, 1) : dnnlk_softmax(&ts, 1, &td, 0, 1), dnnlk_success);
        for (r = 0; r < 3; r++)
            for (k = 0; k < 3; k++) CHECK(y[r][k] != y[r][k]);
        CHECK(log ? y[3][0] == -HUGE_VAL : (y[3][0] == 0 && !signbit(y[3][0])));
        CHECK(log ? y[4][0] == -HUGE_VAL : y[4][0] == 0); /* -2e308: beyond double, not beyond the kernel */
        CHECK(log ? y[4][1] == 0 : y[4][1] == 1);
        CHECK(log ? y[4][2] == -1e308 : y[4][2] == 0);
        check_elem(log ? OP_LSM : OP_SM, y[3][2], log ? -log1pl(expl(-1.0L)) : 1 / (1 + expl(-1.0L)), 0, 1);
    }
    {
        double z[3] = {0.5, -1.5, 2}, w[3];
        dnnlk_tensor tz = f64_tensor(z, 1, dims + 1), tw = f64_tensor(w, 1, dims + 1);
        CHECK_EQ(dnnlk_softmax(&tz, 0, &tw, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_softmax(&tz, 0, &tz, 0, 1), dnnlk_success); /* in place: same bits */
        CHECK(memcmp(z, w, sizeof z) == 0);
    }
}

/* ---- layer_norm ---- */

/* Kahan's compensated sum: the reference's sums over groups of up to 49000 elements. */
static void kahan(long double *sum, long double *c, long double v) {
    long double y = v - *c, t = *sum + y;
    *c = (t - *sum) - y;
    *sum = t;
}

TEST(layer_norm_random) {
    int r, p;
    for (r = 0; r < th_scaled(200); r++) {
        layout L;
        int64_t dims[3], i, f, N, G, nshape[3];
        int nd = (int)th_randint(1, 3), naxes = (int)th_randint(1, nd), k, axes[3], eps_out = (int)th_randint(0, 1);
        int has_w = (int)th_randint(0, 1), has_b = (int)th_randint(0, 1);
        float eps = r % 3 == 0 ? 0.0f : r % 3 == 1 ? 1e-5f : 1e-2f;
        double center = r % 4 == 0 ? 0 : r % 4 == 1 ? 1e3 : r % 4 == 2 ? -1e6 : 1e8;
        double spread = ldexp(1, (int)th_randint(-10, 10)), *x, *wv, *bv, *mean[4], *istd[4];
        th_buf src, dst[4];
        for (k = 0; k < nd; k++) dims[k] = th_randint(1, 7);
        if (r % 9 == 8) dims[nd - 1] = th_randint(100, 400);
        for (k = 0; k < naxes; k++) axes[k] = r % 2 ? nd - 1 - k : -1 - k; /* any order, negative too */
        random_layout(&L, nd, dims, 1);
        N = th_numel(naxes, dims + nd - naxes);
        G = L.n / N;
        memcpy(nshape, dims + nd - naxes, (size_t)naxes * sizeof *nshape);
        src = th_alloc((size_t)L.sspan * 8, 0);
        x = (double *)src.p;
        for (i = 0; i < L.sspan; i++) x[i] = center + spread * rand_range(-1, 1);
        wv = (double *)malloc((size_t)N * 8);
        bv = (double *)malloc((size_t)N * 8);
        for (i = 0; i < N; i++) wv[i] = rand_range(-2, 2), bv[i] = rand_range(-2, 2);
        for (p = 0; p < 4; p++) {
            dnnlk_tensor ts = th_strided(x, L.soff, dnnlk_f64, nd, dims, L.ss), td, tw = f64_tensor(wv, naxes, nshape);
            dnnlk_tensor tb = f64_tensor(bv, naxes, nshape), tm, ti;
            int64_t kd[3];
            int part;
            for (k = 0; k < nd; k++) kd[k] = k < nd - naxes ? dims[k] : 1;
            dst[p] = th_alloc((size_t)L.dspan * 8, 0);
            memset(dst[p].p, 0x5a, (size_t)L.dspan * 8);
            mean[p] = (double *)malloc((size_t)G * 8);
            istd[p] = (double *)malloc((size_t)G * 8);
            td = th_strided(dst[p].p, L.doff, dnnlk_f64, nd, dims, L.ds);
            tm = f64_tensor(mean[p], nd, kd);
            ti = f64_tensor(istd[p], nd, kd);
            for (part = 0; part < nths[p]; part++)
                CHECK_EQ(dnnlk_layer_norm(&ts, has_w ? &tw : NULL, has_b ? &tb : NULL, naxes, axes, eps, eps_out, &td, &tm,
                                          &ti, part, nths[p]),
                         dnnlk_success);
            CHECK(th_guards_ok(&dst[p]));
            if (p > 0) {
                CHECK_MSG(memcmp(dst[p].p, dst[0].p, (size_t)L.dspan * 8) == 0 && memcmp(mean[p], mean[0], (size_t)G * 8) == 0 &&
                              memcmp(istd[p], istd[0], (size_t)G * 8) == 0,
                          "layer_norm: %d parts differ", nths[p]);
                continue;
            }
            for (f = 0; f < G; f++) {
                /* plain two-pass statistics in long double, the mean refined once so that
                 * x - mean keeps its bits when the mean is 1e8 and the spread 2^-10 */
                long double m0 = 0, rr = 0, var = 0, s, xmax = 0, dmax = 0;
                int ok = 1;
                long double c0 = 0, c1 = 0, c2 = 0;
                for (i = 0; i < N; i++) kahan(&m0, &c0, x[L.soff + th_offset(nd, dims, L.ss, f * N + i)]);
                m0 /= N;
                for (i = 0; i < N; i++) kahan(&rr, &c1, x[L.soff + th_offset(nd, dims, L.ss, f * N + i)] - m0);
                rr /= N;
                for (i = 0; i < N; i++) {
                    long double xv = x[L.soff + th_offset(nd, dims, L.ss, f * N + i)], d = (xv - m0) - rr;
                    kahan(&var, &c2, d * d);
                    if (fabsl(xv) > xmax) xmax = fabsl(xv);
                    if (fabsl(d) > dmax) dmax = fabsl(d);
                }
                var /= N;
                s = eps_out ? 1 / (sqrtl(var) + eps) : 1 / sqrtl(var + eps);
                for (i = 0; i < N && ok; i++) {
                    double xv = x[L.soff + th_offset(nd, dims, L.ss, f * N + i)];
                    long double t = (((long double)xv - m0) - rr) * s * (has_w ? wv[i] : 1), b = has_b ? bv[i] : 0;
                    long double ref = t + b;
                    /* where y's terms cancel (x - mean near 0 against the group's spread, or t + b
                     * near 0), 2^-8 ulp of their size: norm_f64.h's claim. No method short of exact
                     * sums does better (the mean itself is only that close), this reference neither. */
                    double slack = (double)((dmax * s * (has_w ? fabsl(wv[i]) : 1) + fabsl(t) + fabsl(b)) * 0x1p-60L / ulp_of(ref));
                    ok = check_elem(OP_LN, ((double *)dst[0].p)[L.doff + th_offset(nd, dims, L.ds, f * N + i)], ref, slack, xv);
                }
                check_elem(OP_LN_STATS, mean[0][f], m0 + rr, (double)(xmax * 0x1p-60L / ulp_of(m0 + rr)), 0);
                check_elem(OP_LN_STATS, istd[0][f], s, 0, 0);
                if (!ok) break;
            }
        }
        for (p = 0; p < 4; p++) th_free(&dst[p]), free(mean[p]), free(istd[p]);
        free(wv);
        free(bv);
        th_free(&src);
    }
}

TEST(layer_norm_specials) {
    /* a group with inf: mean inf, inv_std_dev NaN, outputs NaN; both infinities: mean NaN; an empty
     * normalized axis: NaN statistics, no outputs */
    double x[3][4] = {{1, HUGE_VAL, 2, 3}, {HUGE_VAL, 0, -HUGE_VAL, 1}, {1, 2, 3, NAN}}, y[3][4], mean[3], istd[3];
    int64_t dims[2] = {3, 4}, kd[2] = {3, 1}, edims[2] = {3, 0};
    int ax = 1, k;
    dnnlk_tensor ts = f64_tensor(x, 2, dims), td = f64_tensor(y, 2, dims), tm = f64_tensor(mean, 2, kd),
                 ti = f64_tensor(istd, 2, kd);
    CHECK_EQ(dnnlk_layer_norm(&ts, NULL, NULL, 1, &ax, 1e-5f, 0, &td, &tm, &ti, 0, 1), dnnlk_success);
    for (k = 0; k < 12; k++) CHECK(y[k / 4][k % 4] != y[k / 4][k % 4]);
    CHECK(mean[0] == HUGE_VAL);
    CHECK(mean[1] != mean[1] && mean[2] != mean[2]);
    CHECK(istd[0] != istd[0] && istd[1] != istd[1] && istd[2] != istd[2]);
    ts = f64_tensor(x, 2, edims);
    td = f64_tensor(y, 2, edims);
    mean[0] = istd[0] = 7;
    CHECK_EQ(dnnlk_layer_norm(&ts, NULL, NULL, 1, &ax, 1e-5f, 0, &td, &tm, &ti, 0, 1), dnnlk_success);
    CHECK(mean[0] != mean[0] && istd[0] != istd[0] && mean[2] != mean[2]);
}

/* ---- l2_norm ---- */

TEST(l2_norm_random) {
    int r, p;
    for (r = 0; r < th_scaled(200); r++) {
        layout L;
        int64_t dims[3], i, f, K, rows, sub[3];
        int nd = (int)th_randint(1, 3), k, axis, eps_out = (int)th_randint(0, 1);
        int e0 = r % 3 == 0 ? (int)th_randint(-1000, 1000) : 0; /* sums beyond double's range both ways */
        float eps = r % 4 == 0 ? 0.0f : r % 4 == 1 ? 1e-12f : r % 4 == 2 ? 1e-3f : 1.0f;
        th_buf src, dst[4];
        double *x;
        for (k = 0; k < nd; k++) dims[k] = th_randint(1, 6);
        axis = (int)th_randint(0, nd - 1);
        dims[axis] = r % 7 == 6 ? th_randint(200, 1000) : th_randint(1, 30);
        random_layout(&L, nd, dims, 1);
        src = th_alloc((size_t)L.sspan * 8, 0);
        x = (double *)src.p;
        for (i = 0; i < L.sspan; i++) x[i] = r % 3 == 1 ? rand_range(-1e-2, 1e-2) : rand_wide(e0 - 20, e0 + 20);
        K = dims[axis];
        rows = L.n / K;
        for (p = 0; p < 4; p++) {
            dnnlk_tensor ts = th_strided(x, L.soff, dnnlk_f64, nd, dims, L.ss), td;
            int part;
            dst[p] = th_alloc((size_t)L.dspan * 8, 0);
            memset(dst[p].p, 0x5a, (size_t)L.dspan * 8);
            td = th_strided(dst[p].p, L.doff, dnnlk_f64, nd, dims, L.ds);
            for (part = 0; part < nths[p]; part++)
                CHECK_EQ(dnnlk_l2_norm(&ts, axis, eps, eps_out, &td, part, nths[p]), dnnlk_success);
            CHECK(th_guards_ok(&dst[p]));
            if (p > 0) {
                CHECK_MSG(memcmp(dst[p].p, dst[0].p, (size_t)L.dspan * 8) == 0, "l2_norm: %d parts differ", nths[p]);
                continue;
            }
            for (f = 0; f < rows; f++) {
                int64_t rem = f, off_s = L.soff, off_d = L.doff;
                long double ss = 0, den;
                int ok = 1;
                for (k = nd - 1; k >= 0; k--) {
                    int64_t d = k == axis ? 1 : dims[k];
                    sub[k] = rem % d;
                    rem /= d;
                }
                for (k = 0; k < nd; k++) off_s += sub[k] * L.ss[k], off_d += sub[k] * L.ds[k];
                for (i = 0; i < K; i++) ss += (long double)x[off_s + i * L.ss[axis]] * x[off_s + i * L.ss[axis]];
                den = eps_out ? (sqrtl(ss) > eps ? sqrtl(ss) : eps) : sqrtl(ss > eps ? ss : eps);
                for (i = 0; i < K && ok; i++) {
                    double xv = x[off_s + i * L.ss[axis]];
                    ok = check_elem(OP_L2, ((double *)dst[0].p)[off_d + i * L.ds[axis]], xv / den, 0, xv);
                }
                if (!ok) break;
            }
        }
        for (p = 0; p < 4; p++) th_free(&dst[p]);
        th_free(&src);
    }
}

TEST(l2_norm_specials) {
    double x[2][3] = {{1, HUGE_VAL, 2}, {1, 2, NAN}}, y[2][3];
    int64_t dims[2] = {2, 3};
    int k;
    dnnlk_tensor ts = f64_tensor(x, 2, dims), td = f64_tensor(y, 2, dims);
    CHECK_EQ(dnnlk_l2_norm(&ts, 1, 1e-12f, 0, &td, 0, 1), dnnlk_success);
    for (k = 0; k < 6; k++) CHECK(y[k / 3][k % 3] != y[k / 3][k % 3]);
}

/* ---- bad input: a status and nothing written ---- */

TEST(mixed_dtypes_refused) {
    double x[4] = {1, 2, 3, 4}, y[4] = {9, 9, 9, 9}, w[4] = {1, 1, 1, 1}, m[1] = {9}, s[1] = {9};
    float xf[4] = {1, 2, 3, 4}, yf[4] = {9, 9, 9, 9}, wf[4] = {1, 1, 1, 1}, mf[1] = {9};
    int64_t n = 4, one = 1;
    int ax = 0, i;
    dnnlk_tensor t64 = f64_tensor(x, 1, &n), d64 = f64_tensor(y, 1, &n), t32 = th_tensor(xf, dnnlk_f32, 1, &n),
                 d32 = th_tensor(yf, dnnlk_f32, 1, &n), w64 = f64_tensor(w, 1, &n), w32 = th_tensor(wf, dnnlk_f32, 1, &n),
                 m64 = f64_tensor(m, 1, &one), s64 = f64_tensor(s, 1, &one), m32 = th_tensor(mf, dnnlk_f32, 1, &one);
    dnnlk_tensor d16 = th_tensor(yf, dnnlk_bf16, 1, &n);
    for (i = 0; i < 2; i++) { /* f64 -> f32 and f32 -> f64 (bf16) */
        const dnnlk_tensor *src = i ? &t32 : &t64;
        dnnlk_tensor dst = i ? d64 : d32;
        CHECK_EQ(dnnlk_erf(src, &dst, 0, 1), dnnlk_invalid_data_type);
        CHECK_EQ(dnnlk_gelu(src, dnnlk_gelu_tanh, &dst, 0, 1), dnnlk_invalid_data_type);
        CHECK_EQ(dnnlk_softmax(src, 0, &dst, 0, 1), dnnlk_invalid_data_type);
        CHECK_EQ(dnnlk_log_softmax(src, 0, &dst, 0, 1), dnnlk_invalid_data_type);
        CHECK_EQ(dnnlk_l2_norm(src, 0, 0.0f, 0, &dst, 0, 1), dnnlk_invalid_data_type);
        CHECK_EQ(dnnlk_layer_norm(src, NULL, NULL, 1, &ax, 0.0f, 0, &dst, NULL, NULL, 0, 1), dnnlk_invalid_data_type);
    }
    CHECK_EQ(dnnlk_gelu(&t64, dnnlk_gelu_erf, &d16, 0, 1), dnnlk_invalid_data_type);
    /* layer_norm: weight / mean of the other width */
    CHECK_EQ(dnnlk_layer_norm(&t64, &w32, NULL, 1, &ax, 0.0f, 0, &d64, NULL, NULL, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(dnnlk_layer_norm(&t64, NULL, &w32, 1, &ax, 0.0f, 0, &d64, NULL, NULL, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(dnnlk_layer_norm(&t64, &w64, NULL, 1, &ax, 0.0f, 0, &d64, &m32, &s64, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(dnnlk_layer_norm(&t32, &w64, NULL, 1, &ax, 0.0f, 0, &d32, NULL, NULL, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(dnnlk_layer_norm(&t32, NULL, NULL, 1, &ax, 0.0f, 0, &d32, &m64, NULL, 0, 1), dnnlk_invalid_data_type);
    for (i = 0; i < 4; i++) CHECK(y[i] == 9 && yf[i] == 9);
    CHECK(m[0] == 9 && s[0] == 9 && mf[0] == 9);
    /* the f64 checks still refuse what f32 refuses: a bad axis, a bad part */
    CHECK_EQ(dnnlk_softmax(&t64, 1, &d64, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_gelu(&t64, dnnlk_gelu_erf, &d64, 1, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_l2_norm(&t64, 0, -1.0f, 0, &d64, 0, 1), dnnlk_invalid_arguments);
    for (i = 0; i < 4; i++) CHECK(y[i] == 9);
    /* and all-f64 layer_norm with every operand works */
    CHECK_EQ(dnnlk_layer_norm(&t64, &w64, &w64, 1, &ax, 0.0f, 0, &d64, &m64, &s64, 0, 1), dnnlk_success);
    CHECK(m[0] == 2.5 && y[0] < 0 && y[3] > 0);
}

/* FTZ and DAZ on give the same bits: the f64 paths compute in x87 long double and round to
 * double there, and their one SSE instruction (the norms' sqrt) sees only normal values. */
TEST(ftz_daz_same_bits) {
#if HAVE_MXCSR
    double x[6] = {0x1p-1074, -0x1.8p-1030, 0x1p-1022, -3.5, 0x1p-1060, 2.0}, y[2][8][6];
    int64_t n = 6;
    int daz, op;
    for (daz = 0; daz < 2; daz++) {
        unsigned old = _mm_getcsr();
        if (daz) _mm_setcsr(old | 0x8040u);
        for (op = 0; op < 7; op++) {
            dnnlk_tensor ts = f64_tensor(x, 1, &n), td = f64_tensor(y[daz][op], 1, &n);
            int ax = 0;
            dnnlk_status st = op == 0 ? dnnlk_erf(&ts, &td, 0, 1)
                            : op < 3  ? dnnlk_gelu(&ts, op == 1 ? dnnlk_gelu_erf : dnnlk_gelu_tanh, &td, 0, 1)
                            : op == 3 ? dnnlk_softmax(&ts, 0, &td, 0, 1)
                            : op == 4 ? dnnlk_log_softmax(&ts, 0, &td, 0, 1)
                            : op == 5 ? dnnlk_layer_norm(&ts, NULL, NULL, 1, &ax, 0.0f, 0, &td, NULL, NULL, 0, 1)
                                      : dnnlk_l2_norm(&ts, 0, 0.0f, 0, &td, 0, 1);
            CHECK_EQ(st, dnnlk_success);
        }
        _mm_setcsr(old);
    }
    for (op = 0; op < 7; op++) CHECK_MSG(memcmp(y[0][op], y[1][op], sizeof y[0][op]) == 0, "op %d: FTZ/DAZ changed bits", op);
    /* and the subnormal inputs were not read as zero: erf(2^-1074) is 2^-1074 */
    CHECK(y[1][0][0] == 0x1p-1074);
#else
    SKIP("no MXCSR here");
#endif
}

int main(void) {
    int op;
#if LDBL_MANT_DIG < 64
    /* the f64 math ops refuse to run where long double is no wider than double */
    {
        double x = 1, y = 0;
        int64_t one = 1;
        dnnlk_tensor ts = f64_tensor(&x, 1, &one), td = f64_tensor(&y, 1, &one);
        printf("long double has %d bits: f64 math ops unimplemented (%s)\n", LDBL_MANT_DIG,
               dnnlk_status_str(dnnlk_erf(&ts, &td, 0, 1)));
        return dnnlk_erf(&ts, &td, 0, 1) == dnnlk_unimplemented && y == 0 ? 0 : 1;
    }
#endif
    th_seed(0x5eed64);
    RUN(known_answers);
    RUN(eltwise_random);
    RUN(eltwise_specials);
    RUN(softmax_random);
    RUN(softmax_specials);
    RUN(layer_norm_random);
    RUN(layer_norm_specials);
    RUN(l2_norm_random);
    RUN(l2_norm_specials);
    RUN(mixed_dtypes_refused);
    RUN(ftz_daz_same_bits);
    printf("worst error (ulp, cancellation slack removed; long double %d bits):", LDBL_MANT_DIG);
    for (op = 0; op < OP_N; op++) printf(" %s %.3f%s", op_name[op], worst[op], op + 1 < OP_N ? "," : "\n");
    return th_summary();
}
