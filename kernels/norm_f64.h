/* dnnl_kernels — norm_f64.h: the f64 paths of layer_norm and l2_norm (layer_norm.h and l2_norm.h
 * route f64 calls here; the definitions of both ops are in those headers).
 *
 * HOW
 *   Every group is computed in long double (see math_f64.h) and each output rounded to double
 *   once. No libm: the square root is the double one (dnnlk__sqrt, one instruction) refined by a
 *   Newton step in long double, on a value scaled by even powers of two into double's range.
 *   layer_norm: m1 = Σx / N, then r = Σ(x − m1) / N and Σ(x − m1)² compensated (Neumaier) in one
 *   pass, mean = m1 + r (a pair: x − mean is taken as (x − m1) − r, so a mean of 1e8 with std 1
 *   costs nothing), var = Σ(x − m1)² / N − r², y = ((x − m1) − r) · s · w + b rounded once.
 *   l2_norm: Σx² compensated in long double (never overflows: its range goes to 2^16384).
 *   Accuracy: within 2 ulp of the correctly rounded double, except where layer_norm's y = t + b
 *   cancels (|y| far below |t| or |b|): there the error is a few ulp of max(|t|, |b|) · 2^-11.
 *   Tensors: all f64 — src, dst, and layer_norm's weight, bias, mean, inv_std_dev (a mix is
 *   dnnlk_invalid_data_type). Special values as the f32 ops: rows holding ±inf or NaN give NaN
 *   outputs; layer_norm's mean output is then the mean of the values and inv_std_dev NaN; empty
 *   groups give NaN statistics. Plain scalar C at every level: same bits for every ISA and part
 *   count. dnnlk_unimplemented where long double has fewer than 64 significand bits. */
#ifndef DNNLK_NORM_F64_H
#define DNNLK_NORM_F64_H

#include "norm_common.h"
#include "math_f64.h"

DNNLK__NOINLINE_BEGIN /* every static DNNLK__NOINLINE function below */

/* sqrt in long double, for v >= 0, inf or NaN (no libm). */
static DNNLK__FORCEINLINE dnnlk__xd dnnlk__f64_sqrtl(dnnlk__xd v) {
    dnnlk__xd f = 1, y;
    if (!(v > 0) || v - v != 0) return v; /* 0, inf, NaN (negative never reaches here) */
    while (v > 0x1p1000L) v *= 0x1p-1000L, f *= 0x1p500L;
    while (v < 0x1p-1000L) v *= 0x1p1000L, f *= 0x1p-500L;
    y = dnnlk__sqrt((double)v);
    y += (v - y * y) / (2 * y); /* one Newton step: the double's 2^-53 becomes ~2^-64 */
    return y * f;
}

/* The groups of one row of layer_norm groups: n groups, group g at row[op] + g · rs[op] (op 0 x,
 * 1 y, 2 mean, 3 inv_std_dev); inner: the group's elements (operands 0 x, 1 y, 2 w, 3 b), w and b
 * the weight and bias bases; outs: bit 0 mean, bit 1 inv_std_dev wanted. */
static DNNLK__NOINLINE void dnnlk__f64_ln_groups(const dnnlk__loop *inner, const void *w, const void *b, int has_w,
                                                int has_b, double eps, int eps_out, const dnnlk__loop *outer,
                                                char *const *row, int64_t n, int outs) {
    int64_t g, i, N = inner->total;
    for (g = 0; g < n; g++) {
        void *base[4];
        dnnlk__norm_stream st;
        char *p[4];
        dnnlk__xd sum = 0, m1 = 0, r = 0, var, s, mean;
        dnnlk__xd_acc sd = {0, 0}, sq = {0, 0};
        base[0] = row[0] + g * dnnlk__row_stride(outer, 0);
        base[1] = row[1] + g * dnnlk__row_stride(outer, 1);
        base[2] = (void *)(uintptr_t)w;
        base[3] = (void *)(uintptr_t)b;
        if (N == 0) {
            /* No elements: the statistics of nothing are NaN. */
            mean = (dnnlk__xd)NAN;
            s = mean;
        } else {
            dnnlk__norm_stream_init(&st, inner, base, 0);
            for (i = 0; i < N; i++) {
                dnnlk__norm_stream_next(&st, p);
                sum += dnnlk__f64_load(p[0]);
            }
            m1 = sum / (dnnlk__xd)N;
            if (m1 - m1 != 0) {
                /* ±inf or NaN in the group: the mean of the values, NaN everywhere else. */
                mean = m1;
                s = (dnnlk__xd)NAN;
            } else {
                dnnlk__norm_stream_init(&st, inner, base, 0);
                for (i = 0; i < N; i++) {
                    dnnlk__xd d;
                    dnnlk__norm_stream_next(&st, p);
                    d = dnnlk__f64_load(p[0]) - m1;
                    dnnlk__xd_acc_add(&sd, d);
                    dnnlk__xd_acc_add(&sq, d * d);
                }
                r = (sd.s + sd.c) / (dnnlk__xd)N;
                var = (sq.s + sq.c) / (dnnlk__xd)N - r * r;
                if (var < 0) var = 0;
                s = eps_out ? 1 / (dnnlk__f64_sqrtl(var) + eps) : 1 / dnnlk__f64_sqrtl(var + eps);
                mean = m1 + r;
            }
            dnnlk__norm_stream_init(&st, inner, base, 0);
            for (i = 0; i < N; i++) {
                dnnlk__xd y;
                dnnlk__norm_stream_next(&st, p);
                if (s != s) {
                    dnnlk__f64_store(p[1], (double)NAN);
                    continue;
                }
                y = ((dnnlk__f64_load(p[0]) - m1) - r) * s;
                if (has_w) y *= dnnlk__f64_load(p[2]);
                if (has_b) y += dnnlk__f64_load(p[3]);
                dnnlk__f64_store(p[1], (double)y);
            }
        }
        if (outs & 1) dnnlk__f64_store(row[2] + g * dnnlk__row_stride(outer, 2), (double)mean);
        if (outs & 2) dnnlk__f64_store(row[3] + g * dnnlk__row_stride(outer, 3), (double)s);
    }
}

/* l2_norm groups [gb, ge): group q = o · P + p takes outer position o (operands 0 x, 1 y) and
 * inner position p, its axis of N elements at byte strides ax (x) and ay (y). */
static DNNLK__NOINLINE void dnnlk__f64_l2_groups(const dnnlk__loop *outer, const dnnlk__loop *inner, void *const *base,
                                                int64_t N, int64_t ax, int64_t ay, double eps, int eps_out,
                                                int64_t gb, int64_t ge) {
    int64_t q, k, P = inner->total;
    for (q = gb; q < ge; q++) {
        dnnlk__loop_iter it;
        char *orow[2], *irow[2];
        void *ibase[2];
        dnnlk__xd_acc acc = {0, 0};
        dnnlk__xd ssq, den, inv;
        dnnlk__iter_init(&it, outer, base, q / P, q / P + 1);
        (void)dnnlk__iter_next(&it, orow);
        ibase[0] = orow[0];
        ibase[1] = orow[1];
        dnnlk__iter_init(&it, inner, ibase, q % P, q % P + 1);
        (void)dnnlk__iter_next(&it, irow);
        for (k = 0; k < N; k++) {
            dnnlk__xd x = dnnlk__f64_load(irow[0] + k * ax);
            dnnlk__xd_acc_add(&acc, x * x);
        }
        ssq = acc.s + acc.c;
        if (ssq - ssq != 0) inv = (dnnlk__xd)NAN; /* ±inf or NaN in the row: NaN everywhere */
        else if (eps_out) den = dnnlk__f64_sqrtl(ssq), inv = 1 / (den > eps ? den : (dnnlk__xd)eps);
        else inv = 1 / dnnlk__f64_sqrtl(ssq > eps ? ssq : (dnnlk__xd)eps);
        for (k = 0; k < N; k++) dnnlk__f64_store(irow[1] + k * ay, (double)(dnnlk__f64_load(irow[0] + k * ax) * inv));
    }
}

DNNLK__NOINLINE_END
#endif /* DNNLK_NORM_F64_H */
