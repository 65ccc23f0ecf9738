/* layer_norm.h and l2_norm.h: layer_norm and l2_norm against double-precision references written
 * for clarity here, on every ISA the CPU has, every part count, strided/broadcast layouts, special
 * values, and every bad-argument path. */
/* A small streaming threshold, so both the regular and the non-temporal store paths run here. */
#define DNNLK_NORM_NT_BYTES 8192
#include "harness.h"
#include <float.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

/* ---- layouts: a logical row-major array placed in memory with given strides ---- */

static int64_t off_of(int nd, const int64_t *dims, const int64_t *strides, int64_t flat) {
    int64_t off = 0;
    int i;
    for (i = nd - 1; i >= 0; i--) {
        int64_t d = dims[i] ? dims[i] : 1;
        off += (flat % d) * strides[i];
        flat /= d;
    }
    return off;
}

/* Elements spanned by a layout with non-negative strides. */
static int64_t span_of(int nd, const int64_t *dims, const int64_t *strides) {
    int64_t s = 1;
    int i;
    for (i = 0; i < nd; i++)
        if (dims[i] > 0) s += (dims[i] - 1) * strides[i];
    return s;
}

static void put(void *base, dnnlk_dtype dt, int64_t off, float v) {
    dnnlk__store_from_f32((char *)base + off * (int64_t)dnnlk_dtype_size(dt), dt, v);
}
static float get(const void *base, dnnlk_dtype dt, int64_t off) {
    return dnnlk__load_as_f32((const char *)base + off * (int64_t)dnnlk_dtype_size(dt), dt);
}
/* What the kernel sees after the input is stored in dt. */
static float rt(dnnlk_dtype dt, float v) {
    char b[4];
    dnnlk__store_from_f32(b, dt, v);
    return dnnlk__load_as_f32(b, dt);
}

static double ulp_of(double v, dnnlk_dtype dt) {
    int e;
    int mant = dt == dnnlk_f32 ? 24 : dt == dnnlk_bf16 ? 8 : 11;
    double a = fabs(v);
    double lo = dt == dnnlk_f16 ? 0x1p-24 : 0x1p-149; /* subnormal spacing */
    frexp(a, &e);
    return fmax(ldexp(1.0, e - mant), lo);
}

/* ---- references ---- */

/* x: g groups of n (logical, already rounded to the input dtype); w, b: n or NULL. */
static void ln_ref(const float *x, int64_t g, int64_t n, const float *w, const float *b, double eps, int eps_out,
                   double *y, double *mean, double *istd, double *scale_tol) {
    int64_t r, i;
    for (r = 0; r < g; r++) {
        const float *xr = x + r * n;
        double mu = 0, var = 0, s;
        for (i = 0; i < n; i++) mu += xr[i];
        mu /= (double)n;
        for (i = 0; i < n; i++) var += ((double)xr[i] - mu) * ((double)xr[i] - mu);
        var /= (double)n;
        s = eps_out ? 1.0 / (sqrt(var) + eps) : 1.0 / sqrt(var + eps);
        for (i = 0; i < n; i++) {
            double t = ((double)xr[i] - mu) * s;
            y[r * n + i] = t * (w ? w[i] : 1.0) + (b ? b[i] : 0.0);
            /* Absolute error the f32 path may add: ulp-level terms of the operands that cancel. */
            scale_tol[r * n + i] = 0x1p-21 * ((w ? fabs(w[i]) : 1.0) * (1.0 + fabs(t)) + (b ? fabs(b[i]) : 0.0));
        }
        mean[r] = mu; /* ONNX: the mean of the values, inf for [1, inf, 2, 3] */
        istd[r] = s;
    }
}

static void l2_ref(const float *x, int64_t g, int64_t n, double eps, int eps_out, double *y) {
    int64_t r, i;
    for (r = 0; r < g; r++) {
        double s = 0, d;
        for (i = 0; i < n; i++) s += (double)x[r * n + i] * x[r * n + i];
        d = eps_out ? (sqrt(s) > eps ? sqrt(s) : eps) : sqrt(s > eps ? s : eps);
        if (!isfinite(s)) d = NAN; /* a row holding NaN or ±inf is NaN throughout */
        for (i = 0; i < n; i++) y[r * n + i] = x[r * n + i] / d;
    }
}

static int close_to(double got, double ref, double abs_tol, dnnlk_dtype dt) {
    if (ref != ref) return got != got;
    if (isinf(ref)) return got == ref;
    if (got != got) return 0;
    return fabs(got - ref) <= 4 * ulp_of(ref, dnnlk_f32) + (dt == dnnlk_f32 ? 0 : ulp_of(ref, dt)) + abs_tol;
}

/* ---- one layer_norm case on a given layout ----
 * Logical shape: outer dims then normalized dims (nd total, k normalized). x_str/y_str: strides
 * (NULL: dense). Returns the number of mismatches. out_bits: optional copy of y as f32 (logical). */
typedef struct ln_case {
    int nd, k;
    int64_t dims[4];
    const int64_t *x_str, *y_str;
    dnnlk_dtype dt;
    int has_w, has_b, eps_out, want_stats;
    float eps;
    int nth;
    size_t mis;
} ln_case;

static int run_ln(const ln_case *c, const float *xlog, const float *wv, const float *bv, float *ylog, float *mlog,
                  float *ilog) {
    int64_t dense[4], xs[4], ys[4], kd[4], ks[4], G, i;
    int64_t ntot = th_numel(c->nd, c->dims);
    int axes[4], a, bad = 0, p;
    th_buf bx, by, bm, bi;
    dnnlk_tensor x, y, m, v, w, b;
    size_t es = dnnlk_dtype_size(c->dt);
    dnnlk_dense_strides(c->nd, c->dims, dense);
    memcpy(xs, c->x_str ? c->x_str : dense, (size_t)c->nd * 8);
    memcpy(ys, c->y_str ? c->y_str : dense, (size_t)c->nd * 8);
    G = th_numel(c->nd - c->k, c->dims);
    bx = th_alloc((size_t)span_of(c->nd, c->dims, xs) * es, c->mis);
    by = th_alloc((size_t)span_of(c->nd, c->dims, ys) * es, c->mis ^ 2);
    bm = th_alloc((size_t)(G ? G : 1) * 4, 4);
    bi = th_alloc((size_t)(G ? G : 1) * 4, 0);
    for (i = 0; i < ntot; i++) put(bx.p, c->dt, off_of(c->nd, c->dims, xs, i), xlog[i]);
    x = th_tensor(bx.p, c->dt, c->nd, c->dims);
    memcpy(x.strides, xs, sizeof xs);
    y = th_tensor(by.p, c->dt, c->nd, c->dims);
    memcpy(y.strides, ys, sizeof ys);
    for (a = 0; a < c->nd; a++) kd[a] = a < c->nd - c->k ? c->dims[a] : 1;
    m = th_tensor(bm.p, dnnlk_f32, c->nd, kd);
    v = th_tensor(bi.p, dnnlk_f32, c->nd, kd);
    memcpy(ks, m.strides, sizeof ks);
    w = th_tensor((void *)(uintptr_t)wv, dnnlk_f32, c->k, c->dims + c->nd - c->k);
    b = th_tensor((void *)(uintptr_t)bv, dnnlk_f32, c->k, c->dims + c->nd - c->k);
    for (a = 0; a < c->k; a++) axes[a] = (a % 2) ? c->nd - 1 - a : -1 - a; /* any order, some negative */
    for (p = 0; p < c->nth; p++) {
        dnnlk_status st = dnnlk_layer_norm(&x, c->has_w ? &w : NULL, c->has_b ? &b : NULL, c->k, axes, c->eps,
                                           c->eps_out, &y, c->want_stats ? &m : NULL, c->want_stats ? &v : NULL, p,
                                           c->nth);
        if (st != dnnlk_success) bad++;
    }
    bad += !th_guards_ok(&by) + !th_guards_ok(&bm) + !th_guards_ok(&bi);
    for (i = 0; i < ntot; i++) ylog[i] = get(by.p, c->dt, off_of(c->nd, c->dims, ys, i));
    if (c->want_stats)
        for (i = 0; i < G; i++) {
            mlog[i] = ((float *)bm.p)[off_of(c->nd, kd, ks, i)];
            ilog[i] = ((float *)bi.p)[i];
        }
    th_free(&bx);
    th_free(&by);
    th_free(&bm);
    th_free(&bi);
    return bad;
}

/* Checks a layer_norm result against the double reference; returns mismatches (reports a few). */
static int check_ln(const ln_case *c, const float *xlog, const float *wv, const float *bv, const float *y,
                    const float *mo, const float *io) {
    int64_t G = th_numel(c->nd - c->k, c->dims), N = th_numel(c->k, c->dims + c->nd - c->k), i;
    int64_t tot = G * N;
    float *xr = (float *)malloc((size_t)(tot ? tot : 1) * 4);
    double *yr = (double *)malloc((size_t)(tot ? tot : 1) * 8), *tol = (double *)malloc((size_t)(tot ? tot : 1) * 8);
    double *mr = (double *)malloc((size_t)(G ? G : 1) * 8), *ir = (double *)malloc((size_t)(G ? G : 1) * 8);
    int bad = 0;
    for (i = 0; i < tot; i++) xr[i] = rt(c->dt, xlog[i]);
    ln_ref(xr, G, N, c->has_w ? wv : NULL, c->has_b ? bv : NULL, c->eps, c->eps_out, yr, mr, ir, tol);
    for (i = 0; i < tot; i++)
        if (!close_to(y[i], yr[i], tol[i], c->dt)) {
            if (bad++ < 3)
                CHECK_MSG(0, "ln %s N=%lld elem %lld: got %.9g want %.9g (x %.9g)", dnnlk_dtype_name(c->dt),
                          (long long)N, (long long)i, y[i], yr[i], xr[i]);
        }
    if (c->want_stats)
        for (i = 0; i < G; i++) {
            /* The mean is known to a few ulp of the spread, not of itself (it may cancel to ~0). */
            double mtol = ir[i] > 0 && isfinite(ir[i]) ? 0x1p-21 / ir[i] : 0;
            if (!close_to(mo[i], mr[i], mtol, dnnlk_f32) || !close_to(io[i], ir[i], 0, dnnlk_f32)) {
                if (bad++ < 3)
                    CHECK_MSG(0, "ln stats row %lld: mean %.9g/%.9g istd %.9g/%.9g", (long long)i, mo[i], mr[i], io[i],
                              ir[i]);
            }
        }
    free(xr);
    free(yr);
    free(tol);
    free(mr);
    free(ir);
    return bad;
}

static void fill_rows(float *x, int64_t tot, int kind) {
    int64_t i;
    for (i = 0; i < tot; i++) {
        switch (kind) {
        case 0: x[i] = th_randf(-3, 3); break;
        case 1: x[i] = 1e4f + th_randf(-1.7f, 1.7f); break;            /* mean 1e4, std 1 */
        case 2: x[i] = th_randf(-1, 1) * (float)ldexp(1, (int)th_randint(-20, 20)); break;
        default: x[i] = 0.5f + th_randf(0, 1e-3f); break;
        }
    }
}

TEST(layer_norm_matches_double_reference) {
    static const int64_t ns[] = {1, 2, 3, 5, 15, 16, 17, 31, 33, 63, 100, 127, 128, 129, 200, 255, 257, 300, 768};
    static const dnnlk_dtype dts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    size_t ni, di;
    th_seed(11);
    for (ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
        for (di = 0; di < 3; di++) {
            ln_case c;
            int64_t G = 3, tot, i;
            float *x, *y, *w, *b, mo[8], io[8];
            int kind = (int)th_randint(0, 3);
            memset(&c, 0, sizeof c);
            c.nd = 2;
            c.k = 1;
            c.dims[0] = G;
            c.dims[1] = ns[ni];
            c.dt = dts[di];
            c.has_w = (int)th_randint(0, 1);
            c.has_b = (int)th_randint(0, 1);
            c.eps_out = (int)th_randint(0, 1);
            c.want_stats = 1;
            c.eps = c.eps_out ? 1e-6f : 1e-5f;
            c.nth = 1;
            c.mis = (size_t)th_randint(0, 3) * 4;
            if (c.dt != dnnlk_f32 && kind == 1) kind = 0; /* 1e4 ± 1 is not representable in 16 bits */
            tot = G * ns[ni];
            x = (float *)malloc((size_t)tot * 4);
            y = (float *)malloc((size_t)tot * 4);
            w = (float *)malloc((size_t)ns[ni] * 4);
            b = (float *)malloc((size_t)ns[ni] * 4);
            fill_rows(x, tot, kind);
            for (i = 0; i < ns[ni]; i++) w[i] = th_randf(0.5f, 2), b[i] = th_randf(-1, 1);
            CHECK_EQ(run_ln(&c, x, w, b, y, mo, io), 0);
            CHECK_EQ(check_ln(&c, x, w, b, y, mo, io), 0);
            free(x);
            free(y);
            free(w);
            free(b);
        }
}

/* Mean 1e4 and std 1: the output keeps 1e-5 relative accuracy (the brief's stability bound). */
TEST(layer_norm_large_mean_is_stable) {
    int64_t n = 4096, i;
    float *x = (float *)malloc((size_t)n * 4), *y = (float *)malloc((size_t)n * 4), mo[1], io[1];
    double *yr = (double *)malloc((size_t)n * 8), *tol = (double *)malloc((size_t)n * 8), mr, ir, worst = 0;
    ln_case c;
    memset(&c, 0, sizeof c);
    c.nd = 1;
    c.k = 1;
    c.dims[0] = n;
    c.dt = dnnlk_f32;
    c.eps = 1e-5f;
    c.nth = 1;
    c.want_stats = 1;
    th_seed(5);
    for (i = 0; i < n; i++) x[i] = 1e4f + th_randf(-1.732f, 1.732f);
    CHECK_EQ(run_ln(&c, x, NULL, NULL, y, mo, io), 0);
    ln_ref(x, 1, n, NULL, NULL, c.eps, 0, yr, &mr, &ir, tol);
    for (i = 0; i < n; i++)
        if (fabs(yr[i]) > 0.1) worst = fmax(worst, fabs(y[i] - yr[i]) / fabs(yr[i]));
    CHECK_MSG(worst < 1e-6, "worst relative error %.3g", worst);
    CHECK(fabs(mo[0] - mr) <= ulp_of(mr, dnnlk_f32));
    free(x);
    free(y);
    free(yr);
    free(tol);
}

/* Results do not depend on the part count nor on the ISA: compare every run's bits with the
 * scalar single-part one. */
TEST(layer_norm_bit_identical_across_isa_and_parts) {
    static const int64_t ns[] = {7, 100, 129, 768, 1000};
    static const dnnlk_dtype dts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    static const int nths[] = {1, 2, 3, 7};
    size_t ni, di, t;
    int top = (int)dnnlk_cpu_isa(), l;
    th_seed(3);
    for (ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
        for (di = 0; di < 3; di++) {
            ln_case c;
            int64_t G = 9, tot = G * ns[ni], i;
            float *x = (float *)malloc((size_t)tot * 4), *y0 = (float *)malloc((size_t)tot * 4),
                  *y = (float *)malloc((size_t)tot * 4), *w = (float *)malloc((size_t)ns[ni] * 4),
                  *b = (float *)malloc((size_t)ns[ni] * 4), m0[9], i0[9], m[9], iv[9];
            memset(&c, 0, sizeof c);
            c.nd = 2;
            c.k = 1;
            c.dims[0] = G;
            c.dims[1] = ns[ni];
            c.dt = dts[di];
            c.has_w = c.has_b = 1;
            c.want_stats = 1;
            c.eps = 1e-5f;
            fill_rows(x, tot, di == 0 ? (int)(ni % 3) : 0);
            x[3] = 1e30f; /* one row through the double path */
            for (i = 0; i < 16 && i < ns[ni]; i++) /* one whose shift (its first 16) is far off: redone */
                x[5 * ns[ni] + i] = rt(c.dt, x[5 * ns[ni] + i] + 40 * (float)ldexp(1, (int)(ni % 3) * 10));
            for (i = 0; i < ns[ni]; i++) w[i] = th_randf(0.5f, 2), b[i] = th_randf(-1, 1);
            dnnlk_set_max_isa(dnnlk_isa_scalar);
            c.nth = 1;
            run_ln(&c, x, w, b, y0, m0, i0);
            for (l = 0; l <= top; l++) {
                dnnlk_set_max_isa((dnnlk_isa)l);
                for (t = 0; t < 4; t++) {
                    c.nth = nths[t];
                    c.mis = t * 4;
                    CHECK_EQ(run_ln(&c, x, w, b, y, m, iv), 0);
                    CHECK_MSG(memcmp(y, y0, (size_t)tot * 4) == 0 && memcmp(m, m0, sizeof m) == 0 &&
                                  memcmp(iv, i0, sizeof iv) == 0,
                              "%s N=%lld isa %s nth %d differs from scalar", dnnlk_dtype_name(c.dt), (long long)ns[ni],
                              dnnlk_isa_name(dnnlk_max_isa()), c.nth);
                }
            }
            dnnlk_set_max_isa(dnnlk_isa_avx512);
            free(x);
            free(y0);
            free(y);
            free(w);
            free(b);
        }
}

/* inf / NaN rows give NaN outputs, NaN inv_std_dev and the mean of the values as mean (ONNX's
 * reference: inf for [inf, 1, 2, 3], NaN when both infinities or a NaN are present); huge and tiny
 * finite rows give the correct finite result. */
TEST(layer_norm_special_rows) {
    static const float rows[][4] = {
        {INFINITY, 1, 2, 3}, {-INFINITY, 1, 2, 3}, {NAN, 1, 2, 3}, {INFINITY, -INFINITY, 1, 2},
        {3e38f, -3e38f, 1, 2}, {1e30f, -1e30f, 1, 2}, {1e19f, 2e19f, 3, 4}, {3.4e38f, 3.4e38f, 3.3e38f, 3.4e38f},
        {5, 5, 5, 5}, {1e-30f, 2e-30f, 0, 0}, {1e4f, 1e4f, 1e4f, 10000.001f}, {-3.4e38f, 3.4e38f, 3.4e38f, 0}};
    size_t r;
    int e;
    for (e = 0; e < 2; e++)
        for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            ln_case c;
            float y[4], mo[1], io[1];
            int nonfinite = !isfinite(rows[r][0]) || !isfinite(rows[r][1]);
            memset(&c, 0, sizeof c);
            c.nd = 1;
            c.k = 1;
            c.dims[0] = 4;
            c.dt = dnnlk_f32;
            c.eps = e ? 0.0f : 1e-5f;
            c.nth = 1;
            c.want_stats = 1;
            CHECK_EQ(run_ln(&c, rows[r], NULL, NULL, y, mo, io), 0);
            if (nonfinite) {
                float want_mean = r == 0 ? INFINITY : r == 1 ? -INFINITY : NAN;
                CHECK_MSG(isnan(y[0]) && isnan(y[1]) && isnan(y[2]) && isnan(y[3]) && isnan(io[0]),
                          "row %zu: want all NaN", r);
                CHECK_MSG(isnan(want_mean) ? isnan(mo[0]) : mo[0] == want_mean, "row %zu: mean %g", r, mo[0]);
            } else if (r == 8 && e == 1) {
                CHECK(isnan(y[0])); /* 0 · 1/sqrt(0): NaN, as PyTorch with eps = 0 */
            } else {
                CHECK_MSG(check_ln(&c, rows[r], NULL, NULL, y, mo, io) == 0, "row %zu eps %g", r, c.eps);
                CHECK(isfinite(y[0]) && isfinite(y[3]));
            }
        }
}

/* Strided, padded, transposed, broadcast, negative-stride and multi-axis layouts. */
TEST(layer_norm_layouts) {
    th_seed(21);
    {   /* normalized axis strided (transposed view): [G=5, N=37], x stored as [37][5] */
        static const int64_t xs[2] = {1, 5}, ys[2] = {40, 1};
        ln_case c;
        float x[185], y[185], w[37], b[37], mo[5], io[5];
        int i;
        memset(&c, 0, sizeof c);
        c.nd = 2; c.k = 1; c.dims[0] = 5; c.dims[1] = 37; c.x_str = xs; c.y_str = ys;
        c.dt = dnnlk_f32; c.has_w = c.has_b = 1; c.want_stats = 1; c.eps = 1e-5f; c.nth = 2;
        fill_rows(x, 185, 0);
        for (i = 0; i < 37; i++) w[i] = th_randf(0.5f, 2), b[i] = th_randf(-1, 1);
        CHECK_EQ(run_ln(&c, x, w, b, y, mo, io), 0);
        CHECK_EQ(check_ln(&c, x, w, b, y, mo, io), 0);
    }
    {   /* two normalized axes with a padded inner row: [3, 4, 70] in rows of 80, bf16 */
        static const int64_t xs[3] = {400, 80, 1};
        ln_case c;
        float x[840], y[840], w[280], b[280], mo[3], io[3];
        int i;
        memset(&c, 0, sizeof c);
        c.nd = 3; c.k = 2; c.dims[0] = 3; c.dims[1] = 4; c.dims[2] = 70; c.x_str = xs;
        c.dt = dnnlk_bf16; c.has_w = 1; c.want_stats = 1; c.eps = 1e-5f; c.nth = 3;
        fill_rows(x, 840, 0);
        for (i = 0; i < 280; i++) w[i] = th_randf(0.5f, 2), b[i] = 0;
        CHECK_EQ(run_ln(&c, x, w, b, y, mo, io), 0);
        CHECK_EQ(check_ln(&c, x, w, b, y, mo, io), 0);
    }
    {   /* broadcast source (outer stride 0), weight [70] broadcast over [4, 70], in place refused */
        float xv[280], *y = (float *)malloc(6 * 280 * 4), wv[70], mo[6];
        int64_t dims[3] = {6, 4, 70}, wd[1] = {70}, i;
        int axes[2] = {1, 2};
        dnnlk_tensor x = th_tensor(xv, dnnlk_f32, 3, dims), yt = th_tensor(y, dnnlk_f32, 3, dims);
        dnnlk_tensor w = th_tensor(wv, dnnlk_f32, 1, wd), m;
        double xr[280], yr[280], mr, ir, tol[280];
        float xf[280], wf[280];
        int64_t kd[3] = {6, 1, 1};
        m = th_tensor(mo, dnnlk_f32, 3, kd);
        x.strides[0] = 0;
        fill_rows(xv, 280, 0);
        for (i = 0; i < 70; i++) wv[i] = th_randf(0.5f, 2);
        CHECK_EQ(dnnlk_layer_norm(&x, &w, NULL, 2, axes, 1e-5f, 0, &yt, &m, NULL, 0, 1), dnnlk_success);
        for (i = 0; i < 280; i++) xf[i] = xv[i], wf[i] = wv[i % 70], xr[i] = 0;
        (void)xr;
        ln_ref(xf, 1, 280, wf, NULL, 1e-5, 0, yr, &mr, &ir, tol);
        for (i = 0; i < 6 * 280; i++) {
            if (!close_to(y[i], yr[i % 280], tol[i % 280], dnnlk_f32)) { CHECK_MSG(0, "bcast elem %lld", (long long)i); break; }
        }
        CHECK(close_to(mo[5], mr, 0, dnnlk_f32));
        free(y);
    }
    {   /* negative strides on the input (flipped, every other element; -1 means "unknown") */
        float buf[300], y[3 * 50], x[3 * 50], ylog[150];
        int64_t dims[2] = {3, 50}, i;
        int ax = 1;
        dnnlk_tensor xt, yt;
        double yr[150], mr[3], ir[3], tol[150];
        fill_rows(buf, 300, 0);
        xt = th_tensor(buf + 298, dnnlk_f32, 2, dims);
        xt.strides[0] = -100;
        xt.strides[1] = -2;
        yt = th_tensor(y, dnnlk_f32, 2, dims);
        CHECK_EQ(dnnlk_layer_norm(&xt, NULL, NULL, 1, &ax, 1e-5f, 0, &yt, NULL, NULL, 0, 1), dnnlk_success);
        for (i = 0; i < 150; i++) x[i] = buf[298 - 100 * (i / 50) - 2 * (i % 50)];
        ln_ref(x, 3, 50, NULL, NULL, 1e-5, 0, yr, mr, ir, tol);
        for (i = 0; i < 150; i++) CHECK(close_to(y[i], yr[i], tol[i], dnnlk_f32));
        /* in place: dst is the same view as src */
        memcpy(ylog, x, sizeof ylog);
        xt = th_tensor(ylog, dnnlk_f32, 2, dims);
        CHECK_EQ(dnnlk_layer_norm(&xt, NULL, NULL, 1, &ax, 1e-5f, 0, &xt, NULL, NULL, 1, 2), dnnlk_success);
        CHECK_EQ(dnnlk_layer_norm(&xt, NULL, NULL, 1, &ax, 1e-5f, 0, &xt, NULL, NULL, 0, 2), dnnlk_success);
        CHECK(memcmp(ylog, y, sizeof y) == 0);
    }
}

TEST(layer_norm_infer_and_empty) {
    float x[12], y[12];
    int64_t dims[3] = {2, 3, 2}, zd[2] = {0, 5}, ed[2] = {3, 0};
    int axes[1] = {2};
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 3, dims), d, m, v;
    memset(&d, 0, sizeof d);
    d.dtype = dnnlk_f32;
    d.ndims = DNNLK_UNKNOWN;
    m = d;
    v = d;
    v.ndims = 3;
    v.dims[0] = v.dims[1] = v.dims[2] = DNNLK_UNKNOWN;
    v.strides[0] = DNNLK_UNKNOWN; v.strides[1] = 1; v.strides[2] = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_layer_norm_infer(&s, NULL, NULL, 1, axes, 1e-5f, 0, &d, &m, &v), dnnlk_success);
    CHECK_EQ(d.ndims, 3);
    CHECK(d.dims[0] == 2 && d.dims[1] == 3 && d.dims[2] == 2 && d.strides[0] == 6 && d.strides[2] == 1);
    CHECK(m.dims[0] == 2 && m.dims[1] == 3 && m.dims[2] == 1 && m.strides[0] == 3 && m.strides[1] == 1);
    CHECK(v.strides[1] == 1 && v.strides[0] == 3 && v.strides[2] == 3);
    (void)y;
    {   /* no groups, and empty groups (stats NaN) */
        float mo[3] = {0, 0, 0};
        int64_t kd[2] = {3, 1};
        int ax = -1;
        dnnlk_tensor a = th_tensor(x, dnnlk_f32, 2, zd), o = th_tensor(y, dnnlk_f32, 2, zd);
        dnnlk_tensor e = th_tensor(x, dnnlk_f32, 2, ed), eo = th_tensor(y, dnnlk_f32, 2, ed), em = th_tensor(mo, dnnlk_f32, 2, kd);
        CHECK_EQ(dnnlk_layer_norm(&a, NULL, NULL, 1, &ax, 1e-5f, 0, &o, NULL, NULL, 0, 1), dnnlk_success);
        a.data = NULL;
        o.data = NULL;
        CHECK_EQ(dnnlk_layer_norm(&a, NULL, NULL, 1, &ax, 1e-5f, 0, &o, NULL, NULL, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_layer_norm(&e, NULL, NULL, 1, &ax, 1e-5f, 0, &eo, &em, NULL, 0, 1), dnnlk_success);
        CHECK(isnan(mo[0]) && isnan(mo[2]));
    }
}

/* Every bad argument returns its status and writes nothing (outputs and descriptors). */
TEST(layer_norm_bad_arguments) {
    float x[24], w[4], yb[24], mb[6];
    int64_t dims[3] = {2, 3, 4}, wd[1] = {4}, bwd[1] = {3}, kd[3] = {2, 3, 1};
    int ax1[1] = {-1}, ax2[2] = {2, 2}, ax3[1] = {1}, ax4[1] = {3}, ax5[2] = {0, 2};
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 3, dims), wt = th_tensor(w, dnnlk_f32, 1, wd);
    dnnlk_tensor d0 = th_tensor(yb, dnnlk_f32, 3, dims), m0 = th_tensor(mb, dnnlk_f32, 3, kd), d, m, t;
    int i;
    memset(x, 0, sizeof x);
    memset(w, 0, sizeof w);
#define LN_BAD(expect, src, wgt, naxes, axes, eps, ith, nth)                                             \
    do {                                                                                             \
        memset(yb, 0xA5, sizeof yb);                                                                 \
        memset(mb, 0xA5, sizeof mb);                                                                 \
        d = d0;                                                                                      \
        m = m0;                                                                                      \
        CHECK_EQ(dnnlk_layer_norm(src, wgt, NULL, naxes, axes, eps, 0, &d, &m, NULL, ith, nth), expect); \
        for (i = 0; i < 24; i++) CHECK_EQ(((unsigned char *)yb)[i], 0xA5);                           \
        CHECK(memcmp(&d, &d0, sizeof d) == 0 && memcmp(&m, &m0, sizeof m) == 0);                     \
    } while (0)
    LN_BAD(dnnlk_invalid_arguments, NULL, NULL, 1, ax1, 1e-5f, 0, 1);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 0, ax1, 1e-5f, 0, 1);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, NULL, 1e-5f, 0, 1);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 2, ax2, 1e-5f, 0, 1);      /* duplicate */
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax4, 1e-5f, 0, 1);      /* out of range */
    LN_BAD(dnnlk_unimplemented, &s, NULL, 1, ax3, 1e-5f, 0, 1);          /* not trailing */
    LN_BAD(dnnlk_unimplemented, &s, NULL, 2, ax5, 1e-5f, 0, 1);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, -1.0f, 0, 1);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, NAN, 0, 1);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, INFINITY, 0, 1);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, 1e-5f, 1, 1);      /* bad part */
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, 1e-5f, 0, 0);
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, 1e-5f, -1, 2);
    t = th_tensor(w, dnnlk_f32, 1, bwd);
    LN_BAD(dnnlk_invalid_shape, &s, &t, 1, ax1, 1e-5f, 0, 1);            /* weight shape */
    t = wt;
    t.dtype = dnnlk_bf16;
    LN_BAD(dnnlk_invalid_data_type, &s, &t, 1, ax1, 1e-5f, 0, 1);
    t = wt;
    t.data = NULL;
    LN_BAD(dnnlk_invalid_arguments, &s, &t, 1, ax1, 1e-5f, 0, 1);
    t = s;
    t.dtype = dnnlk_s32;
    LN_BAD(dnnlk_invalid_data_type, &t, NULL, 1, ax1, 1e-5f, 0, 1);
    t = s;
    t.data = NULL;
    LN_BAD(dnnlk_invalid_arguments, &t, NULL, 1, ax1, 1e-5f, 0, 1);
    t = s;
    t.dims[0] = -2;
    LN_BAD(dnnlk_invalid_shape, &t, NULL, 1, ax1, 1e-5f, 0, 1);
    t = s;
    t.data = yb; /* overlaps dst with a different layout */
    t.strides[2] = 1; t.strides[1] = 5; t.strides[0] = 0;
    LN_BAD(dnnlk_invalid_arguments, &t, NULL, 1, ax1, 1e-5f, 0, 1);
    t = s;
    t.data = mb; /* src overlaps the mean output */
    LN_BAD(dnnlk_invalid_arguments, &t, NULL, 1, ax1, 1e-5f, 0, 1);
    /* dst dtype, dst shape, mean dtype, dst without data */
    d0.dtype = dnnlk_bf16;
    LN_BAD(dnnlk_invalid_data_type, &s, NULL, 1, ax1, 1e-5f, 0, 1);
    d0.dtype = dnnlk_f32;
    d0.dims[1] = 4;
    LN_BAD(dnnlk_invalid_shape, &s, NULL, 1, ax1, 1e-5f, 0, 1);
    d0.dims[1] = 3;
    m0.dtype = dnnlk_f16;
    LN_BAD(dnnlk_invalid_data_type, &s, NULL, 1, ax1, 1e-5f, 0, 1);
    m0.dtype = dnnlk_f32;
    m0.dims[2] = 4;
    LN_BAD(dnnlk_invalid_shape, &s, NULL, 1, ax1, 1e-5f, 0, 1);
    m0.dims[2] = 1;
    m0.data = yb + 2; /* mean overlaps dst */
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, 1e-5f, 0, 1);
    m0.data = mb;
    d0.data = NULL;
    LN_BAD(dnnlk_invalid_arguments, &s, NULL, 1, ax1, 1e-5f, 0, 1);
#undef LN_BAD
    /* infer checks the same things except data */
    d = th_tensor(NULL, dnnlk_f32, 3, dims);
    CHECK_EQ(dnnlk_layer_norm_infer(&s, NULL, NULL, 1, ax3, 1e-5f, 0, &d, NULL, NULL), dnnlk_unimplemented);
    CHECK_EQ(dnnlk_layer_norm_infer(&s, NULL, NULL, 1, ax1, 1e-5f, 0, &d, NULL, NULL), dnnlk_success);
}

/* ---- l2_norm ---- */

static int run_l2(int nd, const int64_t *dims, const int64_t *xs_in, int axis, dnnlk_dtype dt, float eps, int eps_out,
                  int nth, size_t mis, const float *xlog, float *ylog) {
    int64_t dense[4], xs[4], ntot = th_numel(nd, dims), i;
    size_t es = dnnlk_dtype_size(dt);
    th_buf bx, by;
    dnnlk_tensor x, y;
    int p, bad = 0;
    dnnlk_dense_strides(nd, dims, dense);
    memcpy(xs, xs_in ? xs_in : dense, (size_t)nd * 8);
    bx = th_alloc((size_t)span_of(nd, dims, xs) * es, mis);
    by = th_alloc((size_t)ntot * es + 1, mis ^ 4);
    for (i = 0; i < ntot; i++) put(bx.p, dt, off_of(nd, dims, xs, i), xlog[i]);
    x = th_tensor(bx.p, dt, nd, dims);
    memcpy(x.strides, xs, sizeof xs);
    y = th_tensor(by.p, dt, nd, dims);
    for (p = 0; p < nth; p++)
        if (dnnlk_l2_norm(&x, axis, eps, eps_out, &y, p, nth) != dnnlk_success) bad++;
    bad += !th_guards_ok(&by);
    for (i = 0; i < ntot; i++) ylog[i] = get(by.p, dt, i);
    th_free(&bx);
    th_free(&by);
    return bad;
}

/* Reference over any axis: permute the logical array so the axis is last. */
static int check_l2(int nd, const int64_t *dims, int axis, dnnlk_dtype dt, float eps, int eps_out, const float *xlog,
                    const float *y) {
    int64_t ntot = th_numel(nd, dims), K = dims[axis], P = 1, O = 1, o, p, k;
    float *xr = (float *)malloc((size_t)K * 4);
    double *yr = (double *)malloc((size_t)K * 8);
    int i, bad = 0;
    for (i = 0; i < axis; i++) O *= dims[i];
    for (i = axis + 1; i < nd; i++) P *= dims[i];
    (void)ntot;
    for (o = 0; o < O; o++)
        for (p = 0; p < P; p++) {
            for (k = 0; k < K; k++) xr[k] = rt(dt, xlog[(o * K + k) * P + p]);
            l2_ref(xr, 1, K, eps, eps_out, yr);
            for (k = 0; k < K; k++) {
                float g = y[(o * K + k) * P + p];
                if (!close_to(g, yr[k], 0, dt) && bad++ < 3)
                    CHECK_MSG(0, "l2 %s K=%lld axis %d (o %lld p %lld k %lld): got %.9g want %.9g", dnnlk_dtype_name(dt),
                              (long long)K, axis, (long long)o, (long long)p, (long long)k, g, yr[k]);
            }
        }
    free(xr);
    free(yr);
    return bad;
}

TEST(l2_norm_matches_double_reference) {
    static const int64_t ns[] = {1, 3, 15, 16, 17, 33, 127, 128, 129, 300, 768};
    static const dnnlk_dtype dts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    size_t ni, di;
    int em;
    th_seed(7);
    for (ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
        for (di = 0; di < 3; di++)
            for (em = 0; em < 2; em++) {
                int64_t dims[2] = {4, ns[ni]}, tot = 4 * ns[ni];
                float *x = (float *)malloc((size_t)tot * 4), *y = (float *)malloc((size_t)tot * 4);
                float eps = em ? 1e-12f : 1e-12f;
                fill_rows(x, tot, (int)(ni % 3) == 1 ? 0 : (int)(ni % 3));
                CHECK_EQ(run_l2(2, dims, NULL, 1, dts[di], eps, em, 1, (size_t)(ni % 4) * 2, x, y), 0);
                CHECK_EQ(check_l2(2, dims, 1, dts[di], eps, em, x, y), 0);
                /* the same data normalized over axis 0 (columns) */
                CHECK_EQ(run_l2(2, dims, NULL, -2, dts[di], eps, em, 2, 0, x, y), 0);
                CHECK_EQ(check_l2(2, dims, 0, dts[di], eps, em, x, y), 0);
                free(x);
                free(y);
            }
}

TEST(l2_norm_special_rows) {
    static const float rows[][4] = {{1e20f, 2e20f, 3, 4},       {3e38f, -3e38f, 3e38f, 1},  {1e-30f, 2e-30f, 0, 0},
                                    {1e-45f, 0, 0, 0},           {0, 0, 0, 0},               {INFINITY, 1, 2, 3},
                                    {NAN, 1, 2, 3},              {INFINITY, -INFINITY, 1, 2}, {1e19f, 1, 1, 1}};
    size_t r;
    int em, ep;
    for (r = 0; r < sizeof rows / sizeof rows[0]; r++)
        for (em = 0; em < 2; em++)
            for (ep = 0; ep < 2; ep++) {
                int64_t dims[1] = {4};
                float y[4], eps = ep ? 1e-12f : 0.0f;
                CHECK_EQ(run_l2(1, dims, NULL, 0, dnnlk_f32, eps, em, 1, 0, rows[r], y), 0);
                CHECK_MSG(check_l2(1, dims, 0, dnnlk_f32, eps, em, rows[r], y) == 0, "row %zu mode %d eps %g", r, em, eps);
                if (r < 2) CHECK(isfinite(y[0]) && y[0] != 0);
            }
    for (r = 5; r < 8; r++) /* rows holding inf or NaN are NaN throughout, both modes, any eps */
        for (em = 0; em < 2; em++)
            for (ep = 0; ep < 2; ep++) {
                int64_t dims[1] = {4};
                float y[4] = {0, 0, 0, 0};
                run_l2(1, dims, NULL, 0, dnnlk_f32, ep ? 1e-12f : 0.0f, em, 1, 0, rows[r], y);
                CHECK_MSG(isnan(y[0]) && isnan(y[1]) && isnan(y[2]) && isnan(y[3]), "row %zu mode %d", r, em);
            }
    {   /* {1, NaN, 2} over axis 0 gave {1e6, nan, 2e6} and {1e12, nan, 2e12}; also as the columns of
         * a [3, 5] tensor (the column path) and as rows of 1..300 elements (the SIMD rows) */
        static const float col[15] = {1, 1, 1, INFINITY, 1, NAN, 2, -INFINITY, 2, 2, 2, 3, 3, 3, NAN};
        int64_t d1[1] = {3}, d2[2] = {3, 5}, i;
        float y[15], x[300];
        for (em = 0; em < 2; em++) {
            float one_nan[3] = {1, NAN, 2};
            memset(y, 0, sizeof y);
            CHECK_EQ(run_l2(1, d1, NULL, 0, dnnlk_f32, 1e-12f, em, 1, 0, one_nan, y), 0);
            CHECK_MSG(isnan(y[0]) && isnan(y[1]) && isnan(y[2]), "{1, NaN, 2} mode %d: %g %g %g", em, y[0], y[1], y[2]);
            CHECK_EQ(run_l2(2, d2, NULL, 0, dnnlk_f32, 1e-12f, em, 2, 0, col, y), 0);
            for (i = 0; i < 15; i++) {
                int bad_col = (i % 5) != 1; /* only column 1 holds no NaN or inf */
                CHECK_MSG(bad_col ? isnan(y[i]) : isfinite(y[i]), "column path mode %d element %lld: %g", em,
                          (long long)i, y[i]);
            }
            for (i = 0; i < 300; i++) x[i] = (float)(i % 7) - 3;
            for (i = 1; i <= 300; i += 37) {
                int64_t dn[1] = {i}, k;
                float yy[300];
                x[i / 2] = i % 2 ? NAN : -INFINITY;
                CHECK_EQ(run_l2(1, dn, NULL, 0, dnnlk_f32, 1e-12f, em, 1, 0, x, yy), 0);
                for (k = 0; k < i; k++) CHECK_MSG(isnan(yy[k]), "n %lld mode %d element %lld: %g", (long long)i, em, (long long)k, yy[k]);
                x[i / 2] = 0;
            }
        }
    }
}

TEST(l2_norm_layouts_and_parts) {
    static const int nths[] = {1, 2, 3, 7};
    int64_t dims[3] = {3, 40, 5}, tdims[2] = {6, 70};
    int64_t ts[2] = {1, 6};                       /* axis strided (transposed) */
    float x[600], y0[600], y[600];
    int top = (int)dnnlk_cpu_isa(), l, t, a;
    th_seed(9);
    fill_rows(x, 600, 0);
    for (a = 0; a < 3; a++) {
        dnnlk_set_max_isa(dnnlk_isa_scalar);
        CHECK_EQ(run_l2(3, dims, NULL, a, dnnlk_f32, 1e-12f, a == 1, 1, 0, x, y0), 0);
        CHECK_EQ(check_l2(3, dims, a, dnnlk_f32, 1e-12f, a == 1, x, y0), 0);
        for (l = 0; l <= top; l++) {
            dnnlk_set_max_isa((dnnlk_isa)l);
            for (t = 0; t < 4; t++) {
                CHECK_EQ(run_l2(3, dims, NULL, a, dnnlk_f32, 1e-12f, a == 1, nths[t], (size_t)t * 4, x, y), 0);
                CHECK_MSG(memcmp(y, y0, sizeof y) == 0, "axis %d isa %d nth %d differs", a, l, nths[t]);
            }
        }
    }
    for (l = 0; l <= top; l++) {
        dnnlk_set_max_isa((dnnlk_isa)l);
        CHECK_EQ(run_l2(2, tdims, ts, 1, dnnlk_bf16, 1e-12f, 0, 3, 2, x, y), 0);
        CHECK_EQ(check_l2(2, tdims, 1, dnnlk_bf16, 1e-12f, 0, x, y), 0);
    }
    dnnlk_set_max_isa(dnnlk_isa_avx512);
    {   /* bit-identical rows across ISAs and parts, long rows with bf16/f16 too */
        static const dnnlk_dtype dts[] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
        int64_t rd[2] = {5, 1000};
        float *xr = (float *)malloc(5000 * 4), *r0 = (float *)malloc(5000 * 4), *r1 = (float *)malloc(5000 * 4);
        int di;
        fill_rows(xr, 5000, 2);
        xr[1500] = 1e25f;
        for (di = 0; di < 3; di++) {
            dnnlk_set_max_isa(dnnlk_isa_scalar);
            run_l2(2, rd, NULL, 1, dts[di], 1e-12f, 0, 1, 0, xr, r0);
            for (l = 0; l <= top; l++) {
                dnnlk_set_max_isa((dnnlk_isa)l);
                for (t = 0; t < 4; t++) {
                    run_l2(2, rd, NULL, 1, dts[di], 1e-12f, 0, nths[t], 0, xr, r1);
                    CHECK_MSG(memcmp(r0, r1, 5000 * 4) == 0, "rows %s isa %d nth %d", dnnlk_dtype_name(dts[di]), l, nths[t]);
                }
            }
        }
        dnnlk_set_max_isa(dnnlk_isa_avx512);
        free(xr);
        free(r0);
        free(r1);
    }
}

/* eps_outside_sqrt is a flag: 0 or 1, as every boolean attribute (the README's rule); anything
 * else is refused by the execute and _infer functions, with every output untouched. */
TEST(norm_flags_are_0_or_1) {
    static const int bad[] = {2, 7, -1};
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8];
    int64_t dims[2] = {2, 4};
    int ax[1] = {-1}, k, i;
    for (k = 0; k < 3; k++) {
        dnnlk_tensor s = th_tensor(x, dnnlk_f32, 2, dims), d0 = th_tensor(y, dnnlk_f32, 2, dims), d = d0;
        memset(y, 0xA5, sizeof y);
        CHECK_EQ(dnnlk_layer_norm(&s, NULL, NULL, 1, ax, 1e-5f, bad[k], &d, NULL, NULL, 0, 1), dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_layer_norm_infer(&s, NULL, NULL, 1, ax, 1e-5f, bad[k], &d, NULL, NULL),
                 dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_l2_norm(&s, 1, 1e-12f, bad[k], &d, 0, 1), dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_l2_norm_infer(&s, 1, 1e-12f, bad[k], &d), dnnlk_invalid_arguments);
        for (i = 0; i < 8; i++) CHECK_EQ(((unsigned char *)y)[i], 0xA5);
        CHECK(memcmp(&d, &d0, sizeof d) == 0);
    }
    {
        dnnlk_tensor s = th_tensor(x, dnnlk_f32, 2, dims), d = th_tensor(y, dnnlk_f32, 2, dims);
        CHECK_EQ(dnnlk_layer_norm(&s, NULL, NULL, 1, ax, 1e-5f, 1, &d, NULL, NULL, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_l2_norm(&s, 1, 1e-12f, 1, &d, 0, 1), dnnlk_success);
    }
}

TEST(l2_norm_bad_arguments) {
    float x[12], yb[12];
    int64_t dims[2] = {3, 4};
    dnnlk_tensor s = th_tensor(x, dnnlk_f32, 2, dims), d0 = th_tensor(yb, dnnlk_f32, 2, dims), d, t;
    int i;
    memset(x, 0, sizeof x);
#define L2_BAD(expect, src, axis, eps, ith, nth)                                  \
    do {                                                                      \
        memset(yb, 0xA5, sizeof yb);                                          \
        d = d0;                                                               \
        CHECK_EQ(dnnlk_l2_norm(src, axis, eps, 0, &d, ith, nth), expect);      \
        for (i = 0; i < 12; i++) CHECK_EQ(((unsigned char *)yb)[i], 0xA5);    \
        CHECK(memcmp(&d, &d0, sizeof d) == 0);                                \
    } while (0)
    L2_BAD(dnnlk_invalid_arguments, NULL, 0, 1e-12f, 0, 1);
    L2_BAD(dnnlk_invalid_arguments, &s, 2, 1e-12f, 0, 1);
    L2_BAD(dnnlk_invalid_arguments, &s, -3, 1e-12f, 0, 1);
    L2_BAD(dnnlk_invalid_arguments, &s, 1, -1e-12f, 0, 1);
    L2_BAD(dnnlk_invalid_arguments, &s, 1, NAN, 0, 1);
    L2_BAD(dnnlk_invalid_arguments, &s, 1, 1e-12f, 2, 2);
    t = s;
    t.dtype = dnnlk_u8;
    L2_BAD(dnnlk_invalid_data_type, &t, 1, 1e-12f, 0, 1);
    t = s;
    t.ndims = 0;
    L2_BAD(dnnlk_invalid_arguments, &t, 0, 1e-12f, 0, 1);
    t = s;
    t.data = yb + 1;
    L2_BAD(dnnlk_invalid_arguments, &t, 1, 1e-12f, 0, 1);
    d0.dtype = dnnlk_f16;
    L2_BAD(dnnlk_invalid_data_type, &s, 1, 1e-12f, 0, 1);
    d0.dtype = dnnlk_f32;
    d0.dims[0] = 2;
    L2_BAD(dnnlk_invalid_shape, &s, 1, 1e-12f, 0, 1);
#undef L2_BAD
    memset(&d, 0, sizeof d);
    d.dtype = dnnlk_f32;
    d.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_l2_norm_infer(&s, -1, 1e-12f, 1, &d), dnnlk_success);
    CHECK(d.ndims == 2 && d.dims[1] == 4 && d.strides[0] == 4);
}

/* With FTZ/DAZ on, results stay correct for inputs and outputs in the normal range. */
TEST(ftz_daz_on) {
#if defined(__x86_64__) || defined(__SSE2__)
    unsigned csr = _mm_getcsr();
    int64_t dims[2] = {3, 300};
    float x[900], y[900], mo[3], io[3];
    ln_case c;
    memset(&c, 0, sizeof c);
    c.nd = 2; c.k = 1; c.dims[0] = 3; c.dims[1] = 300; c.dt = dnnlk_f32; c.eps = 1e-5f; c.nth = 2; c.want_stats = 1;
    th_seed(2);
    fill_rows(x, 900, 0);
    _mm_setcsr(csr | 0x8040);
    CHECK_EQ(run_ln(&c, x, NULL, NULL, y, mo, io), 0);
    _mm_setcsr(csr);
    CHECK_EQ(check_ln(&c, x, NULL, NULL, y, mo, io), 0);
    _mm_setcsr(csr | 0x8040);
    CHECK_EQ(run_l2(2, dims, NULL, 1, dnnlk_f32, 1e-12f, 1, 1, 0, x, y), 0);
    _mm_setcsr(csr);
    CHECK_EQ(check_l2(2, dims, 1, dnnlk_f32, 1e-12f, 1, x, y), 0);
#else
    SKIP("not x86: MXCSR's FTZ/DAZ do not exist here");
#endif
}

/* ---- recorded bits ----
 * Every level's output bits (dst, mean, inv_std_dev), on fixed inputs, against hashes recorded
 * from 8f1051f, before the norm bodies were compiled at the scalar level (the hand-written
 * scalar rows still in place): the README says the norms are bit-identical for every part count
 * and every ISA, so one hash per case holds for every level and every part count here. Inputs
 * come from a fixed generator (not the harness's random state) so they cannot drift. Rows cycle
 * through kinds that take each path: plain, mean 1e4 (shift), a step after the first 16 (the
 * redo), +inf, NaN, huge (double fallback), constant, tiny (underflow fallback).
 * DNNLK_TEST_RECORD=1 prints the table instead of checking it. */

static uint32_t rb_state;
static float rb_uniform(float lo, float hi) {
    rb_state = rb_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rb_state >> 8) * 0x1p-24f;
}
static void rb_fill(float *x, int64_t rows, int64_t n, uint32_t seed) {
    int64_t r, i;
    rb_state = seed;
    for (r = 0; r < rows; r++) {
        float *xr = x + r * n;
        for (i = 0; i < n; i++) {
            switch (r % 8) {
            case 0: xr[i] = rb_uniform(-3, 3); break;
            case 1: xr[i] = 1e4f + rb_uniform(-1.7f, 1.7f); break;
            case 2: xr[i] = (i < 16 ? 0.0f : 100.0f) + rb_uniform(-1, 1); break;
            case 3: xr[i] = i == n / 2 ? INFINITY : rb_uniform(-2, 2); break;
            case 4: xr[i] = i == n - 1 ? NAN : rb_uniform(-2, 2); break;
            case 5: xr[i] = rb_uniform(-1, 1) * 3e30f; break;
            case 6: xr[i] = 0.75f; break;
            default: xr[i] = rb_uniform(-1, 1) * 1e-30f; break;
            }
        }
    }
}

typedef struct rb_ln {
    const char *name;
    int nd, k;
    int64_t dims[4];
    int x_strided; /* the last axis at stride 2: the strided-group path */
    dnnlk_dtype dt;
    int has_w, has_b, eps_out;
    float eps;
    size_t mis;
} rb_ln;

typedef struct rb_l2 {
    const char *name;
    int nd;
    int64_t dims[4];
    int axis, x_strided;
    dnnlk_dtype dt;
    int eps_out;
    float eps;
    size_t mis;
} rb_l2;

static const rb_ln rb_ln_cases[] = {
    {"ln f32 9x1 w b", 2, 1, {9, 1}, 0, dnnlk_f32, 1, 1, 0, 1e-5f, 0},
    {"ln f32 9x5 w b", 2, 1, {9, 5}, 0, dnnlk_f32, 1, 1, 0, 1e-5f, 0},
    {"ln f32 17x16 w b", 2, 1, {17, 16}, 0, dnnlk_f32, 1, 1, 0, 1e-5f, 0},
    {"ln f32 17x37 w", 2, 1, {17, 37}, 0, dnnlk_f32, 1, 0, 0, 1e-5f, 4},
    {"ln f32 17x128 b", 2, 1, {17, 128}, 0, dnnlk_f32, 0, 1, 0, 1e-5f, 0},
    {"ln f32 17x300 none", 2, 1, {17, 300}, 0, dnnlk_f32, 0, 0, 0, 1e-5f, 0},
    {"ln f32 17x1031 w b eps_out", 2, 1, {17, 1031}, 0, dnnlk_f32, 1, 1, 1, 1e-3f, 4},
    {"ln f32 17x1031 w b mis1", 2, 1, {17, 1031}, 0, dnnlk_f32, 1, 1, 0, 0.0f, 1},
    {"ln bf16 17x37 w b", 2, 1, {17, 37}, 0, dnnlk_bf16, 1, 1, 0, 1e-5f, 0},
    {"ln bf16 17x300 none eps_out", 2, 1, {17, 300}, 0, dnnlk_bf16, 0, 0, 1, 1e-5f, 2},
    {"ln f16 17x37 w b", 2, 1, {17, 37}, 0, dnnlk_f16, 1, 1, 0, 1e-5f, 0},
    {"ln f16 17x300 w", 2, 1, {17, 300}, 0, dnnlk_f16, 1, 0, 0, 1e-3f, 2},
    {"ln f32 3x8x6x25 k2 w b", 4, 2, {3, 8, 6, 25}, 0, dnnlk_f32, 1, 1, 0, 1e-5f, 0},
    {"ln f32 17x77 strided w b", 2, 1, {17, 77}, 1, dnnlk_f32, 1, 1, 0, 1e-5f, 0},
    {"ln bf16 17x150 strided w", 2, 1, {17, 150}, 1, dnnlk_bf16, 1, 0, 1, 1e-5f, 0},
    {"ln f16 9x5x30 k2 strided", 3, 2, {9, 5, 30}, 1, dnnlk_f16, 0, 1, 0, 1e-5f, 0},
};
#define RB_NLN ((int)(sizeof rb_ln_cases / sizeof rb_ln_cases[0]))

static const rb_l2 rb_l2_cases[] = {
    {"l2 f32 9x1", 2, {9, 1}, 1, 0, dnnlk_f32, 0, 1e-12f, 0},
    {"l2 f32 17x37", 2, {17, 37}, 1, 0, dnnlk_f32, 0, 1e-12f, 0},
    {"l2 f32 17x300 eps_out", 2, {17, 300}, -1, 0, dnnlk_f32, 1, 1e-12f, 4},
    {"l2 f32 17x1031 mis1", 2, {17, 1031}, 1, 0, dnnlk_f32, 0, 1e-6f, 1},
    {"l2 f32 17x1031 big eps", 2, {17, 1031}, 1, 0, dnnlk_f32, 1, 1.0f, 0},
    {"l2 bf16 17x300", 2, {17, 300}, 1, 0, dnnlk_bf16, 0, 1e-12f, 2},
    {"l2 f16 17x129 eps_out", 2, {17, 129}, 1, 0, dnnlk_f16, 1, 1e-6f, 0},
    {"l2 f32 17x77 strided", 2, {17, 77}, 1, 1, dnnlk_f32, 0, 1e-12f, 0},
    {"l2 bf16 17x50 strided eps_out", 2, {17, 50}, 1, 1, dnnlk_bf16, 1, 1e-12f, 0},
    {"l2 f32 columns 3x50x7", 3, {3, 50, 7}, 1, 0, dnnlk_f32, 0, 1e-12f, 0},
    {"l2 f16 columns 4x20x3x5", 4, {4, 20, 3, 5}, 1, 0, dnnlk_f16, 1, 1e-6f, 0},
    {"l2 bf16 columns axis0 40x9", 2, {40, 9}, 0, 0, dnnlk_bf16, 0, 1e-12f, 0},
};
#define RB_NL2 ((int)(sizeof rb_l2_cases / sizeof rb_l2_cases[0]))
#define RB_N (RB_NLN + RB_NL2)

/* Recorded on 8f1051f (gcc and clang, -O2 and ASan, the same): scalar, sse41, avx2, avx512. */
static const uint64_t rb_recorded[RB_N][4] = {
    /* ln f32 9x1 w b                 */ {0x6d8d3d370a96cf4bull, 0x6d8d3d370a96cf4bull, 0x6d8d3d370a96cf4bull, 0x6d8d3d370a96cf4bull},
    /* ln f32 9x5 w b                 */ {0x0425fc4a87a0e9dfull, 0x0425fc4a87a0e9dfull, 0x0425fc4a87a0e9dfull, 0x0425fc4a87a0e9dfull},
    /* ln f32 17x16 w b               */ {0xfe902fbcd17fcac7ull, 0xfe902fbcd17fcac7ull, 0xfe902fbcd17fcac7ull, 0xfe902fbcd17fcac7ull},
    /* ln f32 17x37 w                 */ {0x7f4e40fcaee58cedull, 0x7f4e40fcaee58cedull, 0x7f4e40fcaee58cedull, 0x7f4e40fcaee58cedull},
    /* ln f32 17x128 b                */ {0xe557684d6d80db58ull, 0xe557684d6d80db58ull, 0xe557684d6d80db58ull, 0xe557684d6d80db58ull},
    /* ln f32 17x300 none             */ {0xc90fda4efec432a3ull, 0xc90fda4efec432a3ull, 0xc90fda4efec432a3ull, 0xc90fda4efec432a3ull},
    /* ln f32 17x1031 w b eps_out     */ {0x1c13652f352adfdbull, 0x1c13652f352adfdbull, 0x1c13652f352adfdbull, 0x1c13652f352adfdbull},
    /* ln f32 17x1031 w b mis1        */ {0x62d5e74e5d1f0d7aull, 0x62d5e74e5d1f0d7aull, 0x62d5e74e5d1f0d7aull, 0x62d5e74e5d1f0d7aull},
    /* ln bf16 17x37 w b              */ {0xd9f8d19a230673ddull, 0xd9f8d19a230673ddull, 0xd9f8d19a230673ddull, 0xd9f8d19a230673ddull},
    /* ln bf16 17x300 none eps_out    */ {0xf72030d6199242beull, 0xf72030d6199242beull, 0xf72030d6199242beull, 0xf72030d6199242beull},
    /* ln f16 17x37 w b               */ {0xa917c6972b74f812ull, 0xa917c6972b74f812ull, 0xa917c6972b74f812ull, 0xa917c6972b74f812ull},
    /* ln f16 17x300 w                */ {0x2a64d38a5afe9408ull, 0x2a64d38a5afe9408ull, 0x2a64d38a5afe9408ull, 0x2a64d38a5afe9408ull},
    /* ln f32 3x8x6x25 k2 w b         */ {0x8499327a03f4bae3ull, 0x8499327a03f4bae3ull, 0x8499327a03f4bae3ull, 0x8499327a03f4bae3ull},
    /* ln f32 17x77 strided w b       */ {0x9d2b6b235a0950e0ull, 0x9d2b6b235a0950e0ull, 0x9d2b6b235a0950e0ull, 0x9d2b6b235a0950e0ull},
    /* ln bf16 17x150 strided w       */ {0xa27e92a2bfbb1963ull, 0xa27e92a2bfbb1963ull, 0xa27e92a2bfbb1963ull, 0xa27e92a2bfbb1963ull},
    /* ln f16 9x5x30 k2 strided       */ {0x8626d39cca3097d0ull, 0x8626d39cca3097d0ull, 0x8626d39cca3097d0ull, 0x8626d39cca3097d0ull},
    /* l2 f32 9x1                     */ {0xcba613aa97924d07ull, 0xcba613aa97924d07ull, 0xcba613aa97924d07ull, 0xcba613aa97924d07ull},
    /* l2 f32 17x37                   */ {0xeea7ad0d54c34ee1ull, 0xeea7ad0d54c34ee1ull, 0xeea7ad0d54c34ee1ull, 0xeea7ad0d54c34ee1ull},
    /* l2 f32 17x300 eps_out          */ {0x22a42443778ed436ull, 0x22a42443778ed436ull, 0x22a42443778ed436ull, 0x22a42443778ed436ull},
    /* l2 f32 17x1031 mis1            */ {0x999821676c9f90caull, 0x999821676c9f90caull, 0x999821676c9f90caull, 0x999821676c9f90caull},
    /* l2 f32 17x1031 big eps         */ {0x218bd7605da50819ull, 0x218bd7605da50819ull, 0x218bd7605da50819ull, 0x218bd7605da50819ull},
    /* l2 bf16 17x300                 */ {0x9c9ab793182c0199ull, 0x9c9ab793182c0199ull, 0x9c9ab793182c0199ull, 0x9c9ab793182c0199ull},
    /* l2 f16 17x129 eps_out          */ {0x678be45dad9a47d2ull, 0x678be45dad9a47d2ull, 0x678be45dad9a47d2ull, 0x678be45dad9a47d2ull},
    /* l2 f32 17x77 strided           */ {0x98f57c19ea268e66ull, 0x98f57c19ea268e66ull, 0x98f57c19ea268e66ull, 0x98f57c19ea268e66ull},
    /* l2 bf16 17x50 strided eps_out  */ {0xc89a146575521817ull, 0xc89a146575521817ull, 0xc89a146575521817ull, 0xc89a146575521817ull},
    /* l2 f32 columns 3x50x7          */ {0x6772f5c62a8ea677ull, 0x6772f5c62a8ea677ull, 0x6772f5c62a8ea677ull, 0x6772f5c62a8ea677ull},
    /* l2 f16 columns 4x20x3x5        */ {0x86073ca5a4284942ull, 0x86073ca5a4284942ull, 0x86073ca5a4284942ull, 0x86073ca5a4284942ull},
    /* l2 bf16 columns axis0 40x9     */ {0xc60893045059c7d5ull, 0xc60893045059c7d5ull, 0xc60893045059c7d5ull, 0xc60893045059c7d5ull},
};

static uint64_t rb_hash(const float *y, int64_t n, uint64_t h) {
    uint64_t hy = th_fnv1a_f32(y, (size_t)n);
    return th_fnv1a_from(h, &hy, 8);
}

static void rb_strides(int nd, const int64_t *dims, int strided, int64_t *xs) {
    int a;
    dnnlk_dense_strides(nd, dims, xs);
    if (!strided) return;
    for (a = 0; a < nd; a++) xs[a] *= 2;
}

/* One case at the current level: the hash of its outputs, the same for every part count (a
 * differing count is a failure, reported as hash 1). */
static uint64_t rb_run(int c) {
    static const int parts[] = {1, 2, 3, 5};
    uint64_t first = 0;
    size_t pi;
    for (pi = 0; pi < sizeof parts / sizeof parts[0]; pi++) {
        uint64_t h = 0xcbf29ce484222325ull;
        int64_t xs[4];
        if (c < RB_NLN) {
            const rb_ln *d = &rb_ln_cases[c];
            int64_t ntot = th_numel(d->nd, d->dims), G = th_numel(d->nd - d->k, d->dims), K = ntot / G, i;
            float *x = (float *)malloc((size_t)ntot * 4), *y = (float *)malloc((size_t)ntot * 4);
            float *w = (float *)malloc((size_t)K * 4), *b = (float *)malloc((size_t)K * 4);
            float *m = (float *)malloc((size_t)G * 4), *v = (float *)malloc((size_t)G * 4);
            ln_case lc;
            rb_fill(x, G, K, 1234u + (uint32_t)c);
            for (i = 0; i < K; i++) w[i] = 0.5f + (float)(i % 7) * 0.25f, b[i] = (float)(i % 5) * 0.125f - 0.25f;
            memset(&lc, 0, sizeof lc);
            lc.nd = d->nd;
            lc.k = d->k;
            memcpy(lc.dims, d->dims, sizeof lc.dims);
            rb_strides(d->nd, d->dims, d->x_strided, xs);
            lc.x_str = xs;
            lc.dt = d->dt;
            lc.has_w = d->has_w;
            lc.has_b = d->has_b;
            lc.eps_out = d->eps_out;
            lc.want_stats = 1;
            lc.eps = d->eps;
            lc.nth = parts[pi];
            lc.mis = d->mis;
            CHECK_EQ(run_ln(&lc, x, w, b, y, m, v), 0);
            h = rb_hash(v, G, rb_hash(m, G, rb_hash(y, ntot, h)));
            free(x), free(y), free(w), free(b), free(m), free(v);
        } else {
            const rb_l2 *d = &rb_l2_cases[c - RB_NLN];
            int ax = d->axis < 0 ? d->axis + d->nd : d->axis;
            int64_t ntot = th_numel(d->nd, d->dims), K = d->dims[ax];
            float *x = (float *)malloc((size_t)ntot * 4), *y = (float *)malloc((size_t)ntot * 4);
            rb_fill(x, ntot / K, K, 4321u + (uint32_t)c); /* row kinds in logical order, the axis or not */
            rb_strides(d->nd, d->dims, d->x_strided, xs);
            CHECK_EQ(run_l2(d->nd, d->dims, xs, d->axis, d->dt, d->eps, d->eps_out, parts[pi], d->mis, x, y), 0);
            h = rb_hash(y, ntot, h);
            free(x), free(y);
        }
        if (pi == 0) first = h;
        else if (h != first) return 1;
    }
    return first;
}

static const char *rb_name(int c) { return c < RB_NLN ? rb_ln_cases[c].name : rb_l2_cases[c - RB_NLN].name; }

static uint64_t rb_run_at(int c, int cap, int *level) {
    (void)cap, (void)level;
    return rb_run(c);
}

TEST(norm_bits_match_recorded) {
    uint64_t got[RB_N][4];
    int ran[RB_N][4], c, l;
    if (th_recorded_bits(RB_N, rb_run_at, rb_name, 30, 0, rb_recorded, 0, got, ran))
        SKIP("DNNLK_TEST_RECORD: printed the table instead of checking it");
    for (c = 0; c < RB_N; c++) {
        for (l = 0; l < 4; l++)
            if (ran[c][l])
                CHECK_MSG(got[c][l] != 1, "%s on %s: the bits depend on the part count", rb_name(c),
                          dnnlk_isa_name((dnnlk_isa)l));
        th_bits_match_scalar(rb_name(c), got[c], ran[c]);
    }
}

int main(void) {
    RUN_EACH_ISA(layer_norm_matches_double_reference);
    RUN_EACH_ISA(layer_norm_large_mean_is_stable);
    RUN(layer_norm_bit_identical_across_isa_and_parts);
    RUN_EACH_ISA(layer_norm_special_rows);
    RUN_EACH_ISA(layer_norm_layouts);
    RUN(layer_norm_infer_and_empty);
    RUN(layer_norm_bad_arguments);
    RUN_EACH_ISA(l2_norm_matches_double_reference);
    RUN_EACH_ISA(l2_norm_special_rows);
    RUN(l2_norm_layouts_and_parts);
    RUN(l2_norm_bad_arguments);
    RUN(norm_flags_are_0_or_1);
    RUN_EACH_ISA(ftz_daz_on);
    RUN(norm_bits_match_recorded);
    return th_summary();
}
