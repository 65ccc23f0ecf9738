/* dnnl_kernels — math_f64.h: the f64 paths of erf, gelu, softmax and log_softmax (eltwise.h and
 * softmax.h route f64 calls here; layer_norm and l2_norm have theirs in norm_f64.h).
 *
 * HOW
 *   Every element is computed in long double (x86-64: the x87 format, a 64-bit significand;
 *   aarch64: IEEE quad) with libm's long double functions (erfl, erfcl, expl, logl, log1pl)
 *   and rounded to double once, so the result is the correctly rounded double of a value carrying
 *   11 (x86) or 60 (aarch64) extra bits, except where the op's conditioning amplifies the error of
 *   its own argument. Those places are handled explicitly:
 *     - softmax / log_softmax: x - max is carried as an exact pair (a two-sum in long double) into
 *       exp(hi) * (1 + lo); the row sum is compensated (Neumaier); the elements equal to the max are
 *       counted apart (log_softmax: log(count) + log1p(rest / count), so -log_softmax of a dominant
 *       element keeps its relative precision).
 *     - gelu (erf form), x < 0: 0.5 x erfc(-x / sqrt 2) with the argument as an exact pair (Dekker's
 *       product and a three-double constant), first-order corrected: erfc(u + l) = erfc(u) - l (2 / sqrt pi)
 *       exp(-u^2). Without it the x87 argument's 2^-64 relative error, amplified ~2u^2 (u up to 27
 *       before the result underflows), would cost up to ~0.7 ulp of double.
 *     - gelu (tanh form): x / (1 + exp(w)), w = -2 sqrt(2/pi) (x + 0.044715 x^3) as an exact pair
 *       (|w| up to ~750 where the result is still a double).
 *   Intermediates never leave the long double range, so subnormal results are rounded once too.
 *   Accuracy: within 2 ulp of the correctly rounded double (tests/test_math_f64.c measures the
 *   worst case against long double references and mpmath known answers; see the README).
 *   Plain scalar C, the same code at every ISA level: results do not depend on the ISA or on
 *   (ith, nth). Where long double has fewer than 64 significand bits (MSVC, 32-bit ARM), the f64
 *   math ops return dnnlk_unimplemented instead of claiming an accuracy they would not have.
 *   Needs libm (-lm): erf, gelu, softmax and log_softmax reference these functions.
 *
 * SPECIAL VALUES: as the f32 ops document them (eltwise.h, softmax.h). */
#ifndef DNNLK_MATH_F64_H
#define DNNLK_MATH_F64_H

#include <float.h>
#include <math.h>
#include <string.h>
#include "base.h"
#include "loop.h"

#if LDBL_MANT_DIG >= 64
#define DNNLK__F64_MATH 1
#else
#define DNNLK__F64_MATH 0
#endif

DNNLK__NOINLINE_BEGIN /* every static DNNLK__NOINLINE function below */

typedef long double dnnlk__xd; /* the working precision of the f64 paths */

/* The op numbers: those of eltwise.h's DNNLK__ELT_* (eltwise.h passes its own through). */
enum { dnnlk__f64_erf = 0, dnnlk__f64_gelu_erf = 1, dnnlk__f64_gelu_tanh = 2 };

static DNNLK__FORCEINLINE double dnnlk__f64_load(const char *p) {
    double v;
    memcpy(&v, p, 8);
    return v;
}

static DNNLK__FORCEINLINE void dnnlk__f64_store(char *p, double v) { memcpy(p, &v, 8); }

/* A constant as hi + lo in long double, from three doubles whose sum holds it to ~2^-160 (the
 * same literals serve the x87 and the quad format). */
typedef struct dnnlk__xd2 {
    dnnlk__xd hi, lo;
} dnnlk__xd2;

static DNNLK__FORCEINLINE dnnlk__xd2 dnnlk__xd2_const(double c0, double c1, double c2) {
    dnnlk__xd2 r;
    r.hi = (dnnlk__xd)c0 + (dnnlk__xd)c1;
    r.lo = (((dnnlk__xd)c0 - r.hi) + (dnnlk__xd)c1) + (dnnlk__xd)c2; /* Fast2Sum's exact error, + c2 */
    return r;
}

/* a * b = *p + *e exactly (Dekker's product: Veltkamp halves of ceil(p/2) bits multiply exactly).
 * Not fmal: glibc's x87 fmal is software that switches the rounding mode (fesetround) and took
 * 2.2 us a call here; this is 17 operations, exact for every a, b this file passes (the products
 * stay far inside the long double range). */
#define DNNLK__XD_SPLIT ((dnnlk__xd)((1ull << ((LDBL_MANT_DIG + 1) / 2)) + 1))
static DNNLK__FORCEINLINE void dnnlk__xd_two_prod(dnnlk__xd a, dnnlk__xd b, dnnlk__xd *p, dnnlk__xd *e) {
    dnnlk__xd ta = DNNLK__XD_SPLIT * a, tb = DNNLK__XD_SPLIT * b;
    dnnlk__xd ah = ta - (ta - a), al = a - ah, bh = tb - (tb - b), bl = b - bh;
    *p = a * b;
    *e = (((ah * bh - *p) + ah * bl) + al * bh) + al * bl;
}

/* Compensated (Neumaier) sum in long double. */
typedef struct dnnlk__xd_acc {
    dnnlk__xd s, c;
} dnnlk__xd_acc;

static DNNLK__FORCEINLINE void dnnlk__xd_acc_add(dnnlk__xd_acc *a, dnnlk__xd v) {
    dnnlk__xd t = a->s + v, as = a->s < 0 ? -a->s : a->s, av = v < 0 ? -v : v;
    a->c += as >= av ? (a->s - t) + v : (v - t) + a->s;
    a->s = t;
}

/* ---- elementwise: erf, gelu ---- */

/* 0.5 x (1 + erf(x / sqrt 2)). */
static inline double dnnlk__f64_gelu_erf_one(double x) {
    const dnnlk__xd2 c = dnnlk__xd2_const(0x1.6a09e667f3bcdp-1, -0x1.bdd3413b26456p-55, 0x1.57d3e3adec175p-109);
    const dnnlk__xd2 k = dnnlk__xd2_const(0x1.20dd750429b6dp+0, 0x1.1ae3a914fed80p-56, -0x1.3cbbebf65f145p-111);
    dnnlk__xd X = x, u, l, t, ue;
    if (x != x) return x + x;
    if (x >= 0) return (double)(0.5L * X * (1 + erfl(X * c.hi))); /* 1 + erf >= 1: no cancellation */
    if (x == -HUGE_VAL) return -0.0;
    /* u + l = -x / sqrt 2 exactly (to ~2^-120); erfc's relative sensitivity to u is ~2u^2. */
    dnnlk__xd_two_prod(-X, c.hi, &u, &ue);
    l = ue + -X * c.lo;
    t = erfcl(u);
    if (u > 2) t -= l * k.hi * expl(-u * u); /* below, 2u^2 |l/u| < 2^-60: under 2^-8 ulp */
    return (double)(0.5L * X * t);
}

/* x / (1 + exp(w)), w = -2 sqrt(2/pi) (x + 0.044715 x^3) = -x (k1 + k3 x^2). */
static inline double dnnlk__f64_gelu_tanh_one(double x) {
    const dnnlk__xd2 k1 = dnnlk__xd2_const(0x1.9884533d43651p+0, -0x1.cbc0d30ebfd15p-54, -0x1.c7402c7d60cfbp-110);
    const dnnlk__xd2 k3 = dnnlk__xd2_const(0x1.2444f2a4d8b4bp-4, -0x1.6c843a29d1c70p-61, -0x1.e59a5ef3f43e4p-115);
    dnnlk__xd X = x, a, ae, th, tl, sh, se, sl, wh, wl, e;
    if (x != x) return x + x;
    if (x == HUGE_VAL) return x;
    if (x == -HUGE_VAL) return -0.0;
    if (x >= 0) {
        /* exp(w) <= 1 beside the 1: its argument's rounding hardly shows. */
        e = expl(-X * (k1.hi + k3.hi * X * X));
        return (double)(X / (1 + e));
    }
    /* x < 0: w > 0 up to ~750 while the result is a double, so w is carried as the exact pair
     * wh + wl: x^2 = a + ae, k3 x^2 = th + tl, k1 + k3 x^2 = sh + sl, w = wh + wl. */
    dnnlk__xd_two_prod(X, X, &a, &ae);
    dnnlk__xd_two_prod(k3.hi, a, &th, &tl);
    tl += k3.hi * ae + k3.lo * a;
    sh = k1.hi + th;
    se = th > k1.hi ? (th - sh) + k1.hi : (k1.hi - sh) + th; /* Fast2Sum, larger term first */
    sl = se + k1.lo + tl;
    dnnlk__xd_two_prod(-X, sh, &wh, &wl);
    wl += -X * sl;
    e = expl(wh);
    if (e == HUGE_VALL) return -0.0; /* w beyond ~11356: the result is far below the smallest double */
    e += e * wl;
    return (double)(X / (1 + e));
}

static DNNLK__FORCEINLINE double dnnlk__f64_elt_one(int op, double x) {
    if (op == dnnlk__f64_erf) return (double)erfl((dnnlk__xd)x);
    if (op == dnnlk__f64_gelu_erf) return dnnlk__f64_gelu_erf_one(x);
    return dnnlk__f64_gelu_tanh_one(x);
}

/* Elements [b, e) of plan (operand 0 dst, 1 src, byte strides). */
static DNNLK__NOINLINE void dnnlk__f64_elt_part(const dnnlk__loop *plan, void *const *base, int op, int64_t b,
                                               int64_t e) {
    dnnlk__loop_iter it;
    char *row[2];
    int64_t n, i, sy = dnnlk__row_stride(plan, 0), sx = dnnlk__row_stride(plan, 1);
    dnnlk__iter_init(&it, plan, base, b, e);
    while ((n = dnnlk__iter_next(&it, row)) > 0)
        for (i = 0; i < n; i++) dnnlk__f64_store(row[0] + i * sy, dnnlk__f64_elt_one(op, dnnlk__f64_load(row[1] + i * sx)));
}

/* ---- softmax, log_softmax ---- */

/* x - m as the exact pair *d + *dl (x, m finite doubles; TwoSum in long double). */
static DNNLK__FORCEINLINE void dnnlk__f64_sub_pair(double x, double m, dnnlk__xd *d, dnnlk__xd *dl) {
    dnnlk__xd X = x, M = -(dnnlk__xd)m, s = X + M, bb = s - X;
    *d = s;
    *dl = (X - (s - bb)) + (M - bb);
}

/* exp(x - m) for x <= m, m finite; x = -inf gives 0. */
static DNNLK__FORCEINLINE dnnlk__xd dnnlk__f64_exp_diff(double x, double m) {
    dnnlk__xd d, dl, e;
    if (x == -HUGE_VAL) return 0;
    dnnlk__f64_sub_pair(x, m, &d, &dl);
    e = expl(d);
    return e + e * dl;
}

/* One row of K elements (byte strides sx, sy); dst may be src itself. */
static DNNLK__NOINLINE void dnnlk__f64_sm_row(const char *x, int64_t sx, char *y, int64_t sy, int64_t K, int log) {
    double m = -HUGE_VAL, v;
    int64_t k, count = 0;
    int nan = 0;
    dnnlk__xd_acc rest = {0, 0};
    dnnlk__xd r, sum, lsum;
    for (k = 0; k < K; k++) {
        v = dnnlk__f64_load(x + k * sx);
        if (v != v) nan = 1;
        else if (v > m) m = v;
    }
    if (nan || m == HUGE_VAL || m == -HUGE_VAL) {
        /* NaN, +inf, or only -inf in the row: NaN everywhere, as the f32 op. */
        double q = (double)NAN;
        for (k = 0; k < K; k++) dnnlk__f64_store(y + k * sy, q);
        return;
    }
    for (k = 0; k < K; k++) {
        v = dnnlk__f64_load(x + k * sx);
        if (v == m) count++;
        else dnnlk__xd_acc_add(&rest, dnnlk__f64_exp_diff(v, m));
    }
    r = rest.s + rest.c;
    if (!log) {
        sum = (dnnlk__xd)count + r;
        for (k = 0; k < K; k++) {
            v = dnnlk__f64_load(x + k * sx);
            dnnlk__f64_store(y + k * sy, (double)((v == m ? (dnnlk__xd)1 : dnnlk__f64_exp_diff(v, m)) / sum));
        }
        return;
    }
    lsum = logl((dnnlk__xd)count) + log1pl(r / (dnnlk__xd)count);
    for (k = 0; k < K; k++) {
        dnnlk__xd d, dl;
        v = dnnlk__f64_load(x + k * sx);
        if (v == -HUGE_VAL) {
            dnnlk__f64_store(y + k * sy, v);
            continue;
        }
        dnnlk__f64_sub_pair(v, m, &d, &dl);
        dnnlk__f64_store(y + k * sy, (double)((d - lsum) + dl)); /* d <= 0 <= lsum: no cancellation */
    }
}

/* Rows [b, e) of plan (the row starts; operand 0 dst, 1 src), each K long with axis byte strides
 * sx (src) and sy (dst). */
static DNNLK__NOINLINE void dnnlk__f64_sm_part(const dnnlk__loop *plan, void *const *base, int64_t K, int64_t sx,
                                              int64_t sy, int log, int64_t b, int64_t e) {
    dnnlk__loop_iter it;
    char *row[2];
    int64_t n, i, ry = dnnlk__row_stride(plan, 0), rx = dnnlk__row_stride(plan, 1);
    dnnlk__iter_init(&it, plan, base, b, e);
    while ((n = dnnlk__iter_next(&it, row)) > 0)
        for (i = 0; i < n; i++) dnnlk__f64_sm_row(row[1] + i * rx, sx, row[0] + i * ry, sy, K, log);
}

DNNLK__NOINLINE_END
#endif /* DNNLK_MATH_F64_H */
