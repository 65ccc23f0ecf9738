/* Backward kernels that reduce (layer_norm_bwd.h, select_bwd.h, resize_bwd.h): against plain
 * double references written here, a finite-difference check of the forward layer_norm, the
 * adjoint identity of resize, bit equality over part counts 1/2/3/7, every ISA level, odd sizes,
 * strided layouts, NaN/inf rows, PyTorch 1.13 literals (backward_reduce_torch_cases.h, written by
 * tools/torch_backward_reduce_cases.py), and the bad-argument paths (status, outputs untouched). */
#define DNNLK_NORM_NT_BYTES 8192 /* layer_norm_bwd's streaming stores on these small shapes too */
#include "harness.h"
#include "backward_reduce_torch_cases.h"

static const int parts_list[] = {1, 2, 3, 7};
#define NPARTS 4

static float rt(dnnlk_dtype dt, float v) {
    char b[4];
    dnnlk__store_from_f32(b, dt, v);
    return dnnlk__load_as_f32(b, dt);
}
static double ulp_of(double v, dnnlk_dtype dt) {
    int e;
    int mant = dt == dnnlk_f32 ? 24 : dt == dnnlk_bf16 ? 8 : 11;
    frexp(fabs(v), &e);
    return fmax(ldexp(1.0, e - mant), dt == dnnlk_f16 ? 0x1p-24 : 0x1p-149);
}
static dnnlk_tensor mk(void *data, dnnlk_dtype dt, int nd, const int64_t *dims, const int64_t *strides) {
    dnnlk_tensor t = th_tensor(data, dt, nd, dims);
    if (strides) memcpy(t.strides, strides, (size_t)nd * sizeof(int64_t));
    return t;
}
/* Same value or both NaN (inf signs must match). */
static int same_or_nan(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

/* ======================= layer_norm backward ======================= */

/* The centered formula in double: x (g groups of n, logical, as the kernel reads them), dy, the
 * forward's mean and istd, w (n or NULL). */
static void lnb_ref(const float *x, const float *dy, const float *mean, const float *istd, const float *w, int64_t g,
                    int64_t n, int eps_out, double *dx, double *dw, double *db) {
    int64_t r, i;
    for (i = 0; i < n; i++) dw[i] = db[i] = 0;
    for (r = 0; r < g; r++) {
        double m = mean[r], s = istd[r], sg = 0, sgx = 0, sxx = 0, k;
        for (i = 0; i < n; i++) {
            double xh = ((double)x[r * n + i] - m) * s, gv = (double)dy[r * n + i] * (w ? w[i] : 1.0);
            sg += gv, sgx += gv * xh, sxx += xh * xh;
            dw[i] += (double)dy[r * n + i] * xh;
            db[i] += dy[r * n + i];
        }
        k = s * sgx / (double)n;
        if (eps_out) k = sxx > 0 ? k / sqrt(sxx / (double)n) : 0;
        for (i = 0; i < n; i++) {
            double xh = ((double)x[r * n + i] - m) * s, gv = (double)dy[r * n + i] * (w ? w[i] : 1.0);
            dx[r * n + i] = s * (gv - sg / (double)n) - xh * k;
        }
    }
}

/* PyTorch 1.13's CPU formula for one row, in double: what rows with inf/NaN follow. */
static void lnb_torch_row(const float *x, const float *dy, double m, double s, const float *w, int64_t n, double *dx) {
    double ds = 0, db = 0, b, c;
    int64_t i;
    for (i = 0; i < n; i++) {
        double gv = (double)dy[i] * (w ? w[i] : 1.0);
        ds += gv * x[i], db += gv;
    }
    b = (db * m - ds) * s * s * s / (double)n;
    c = -b * m - db * s / (double)n;
    for (i = 0; i < n; i++) dx[i] = s * ((double)dy[i] * (w ? w[i] : 1.0)) + b * x[i] + c;
}

typedef struct lnb_case {
    dnnlk_dtype dt;
    int64_t dims[3];
    int naxes; /* 1 or 2 trailing axes */
    int has_w, want_dw, want_db, eps_out;
    int layout; /* 0 dense, 1 padded rows and strided inner, 2 inner axis reversed in memory order */
    int big_mean; /* rows of mean 1e4, std 1 */
    int special;  /* inf/NaN rows */
} lnb_case;

static void lnb_strides(const lnb_case *c, int64_t *st) {
    if (c->layout == 0) {
        dnnlk_dense_strides(3, c->dims, st);
    } else if (c->layout == 1) {
        st[2] = 2;
        st[1] = c->dims[2] * 2 + 3;
        st[0] = c->dims[1] * st[1] + 5;
    } else { /* dims 1 and 2 swapped in memory: inner elements c->dims[1] apart */
        st[1] = 1;
        st[2] = c->dims[1];
        st[0] = c->dims[1] * c->dims[2];
    }
}

static int lnb_run(const lnb_case *c) {
    const int64_t *dims = c->dims;
    int64_t nel = dims[0] * dims[1] * dims[2], n = c->naxes == 1 ? dims[2] : dims[1] * dims[2], g = nel / n;
    int64_t st[3], span, kd[3], f, i, r;
    int axes[2] = {-1, -2}, k, fails = 0;
    size_t es = dnnlk_dtype_size(c->dt), wsb = 0;
    float *xl = (float *)calloc((size_t)nel, 4), *dyl = (float *)calloc((size_t)nel, 4);
    float *w = (float *)calloc((size_t)n, 4), *mean = (float *)calloc((size_t)g, 4), *istd = (float *)calloc((size_t)g, 4);
    double *ref = (double *)calloc((size_t)nel, 8), *rdw = (double *)calloc((size_t)n, 8), *rdb = (double *)calloc((size_t)n, 8);
    char *x, *dy, *dx0, *dxp;
    float *dw0 = (float *)calloc((size_t)n + 1, 4), *db0 = (float *)calloc((size_t)n + 1, 4);
    float *dwp = (float *)calloc((size_t)n + 1, 4), *dbp = (float *)calloc((size_t)n + 1, 4), *ws;
    dnnlk_tensor tx, tdy, tm, ti, tw, tdx, tdw, tdb, fy;
    float eps = c->eps_out ? 0.1f : 1e-5f;
    lnb_strides(c, st);
    span = 1;
    for (i = 0; i < 3; i++) span += (dims[i] - 1) * st[i];
    x = (char *)calloc((size_t)span, es), dy = (char *)calloc((size_t)span, es);
    /* 64-byte aligned, so that f32 rows of a multiple of 16 elements take the streaming stores */
    if (posix_memalign((void **)&dx0, 64, (size_t)span * es) || posix_memalign((void **)&dxp, 64, (size_t)span * es))
        abort();
    for (f = 0; f < nel; f++) {
        float base = c->big_mean ? 1e4f : 0.5f;
        xl[f] = rt(c->dt, base + th_randf(-1.7f, 1.7f));
        dyl[f] = rt(c->dt, th_randf(-1, 1));
    }
    if (c->special && g >= 3) {
        xl[0 * n + n / 2] = INFINITY;        /* row 0: inf in x */
        dyl[1 * n + n / 3] = -INFINITY;      /* row 1: inf in diff_dst */
        dyl[2 * n + (n > 1 ? 1 : 0)] = NAN;  /* row 2: NaN in diff_dst */
    }
    for (i = 0; i < n; i++) w[i] = th_randf(0.5f, 1.5f);
    for (f = 0; f < nel; f++) {
        int64_t o = th_offset(3, dims, st, f);
        dnnlk__store_from_f32(x + o * (int64_t)es, c->dt, xl[f]);
        dnnlk__store_from_f32(dy + o * (int64_t)es, c->dt, dyl[f]);
    }
    for (i = 0; i < 3; i++) kd[i] = i < 3 - c->naxes ? dims[i] : 1;
    tx = mk(x, c->dt, 3, dims, st);
    tdy = mk(dy, c->dt, 3, dims, st);
    tm = mk(mean, dnnlk_f32, 3, kd, NULL);
    ti = mk(istd, dnnlk_f32, 3, kd, NULL);
    tw = mk(w, dnnlk_f32, c->naxes, dims + 3 - c->naxes, NULL);
    { /* the forward's statistics */
        char *y = (char *)calloc((size_t)span, es);
        fy = mk(y, c->dt, 3, dims, st);
        CHECK_EQ(dnnlk_layer_norm(&tx, c->has_w ? &tw : NULL, NULL, c->naxes, axes, eps, c->eps_out, &fy, &tm, &ti, 0, 1),
                 dnnlk_success);
        free(y);
    }
    lnb_ref(xl, dyl, mean, istd, c->has_w ? w : NULL, g, n, c->eps_out, ref, rdw, rdb);
    CHECK_EQ(dnnlk_layer_norm_bwd_workspace_bytes(&tx, c->naxes, axes, c->want_dw, c->want_db, 3, &wsb), dnnlk_success);
    ws = (float *)malloc(wsb + 4);
    for (k = 0; k < NPARTS; k++) {
        int nth = parts_list[k], ith;
        char *dxo = k == 0 ? dx0 : dxp;
        float *dwo = k == 0 ? dw0 : dwp, *dbo = k == 0 ? db0 : dbp;
        memset(ws, 0xff, wsb + 4);
        memset(dxo, 0x7f, (size_t)span * es);
        tdx = mk(dxo, c->dt, 3, dims, st);
        tdw = mk(dwo, dnnlk_f32, c->naxes, dims + 3 - c->naxes, NULL);
        tdb = mk(dbo, dnnlk_f32, c->naxes, dims + 3 - c->naxes, NULL);
        for (ith = nth - 1; ith >= 0; ith--)
            CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &ti, c->has_w ? &tw : NULL, c->naxes, axes, c->eps_out, &tdx,
                                          c->want_dw ? &tdw : NULL, c->want_db ? &tdb : NULL, ws, wsb, ith, nth),
                     dnnlk_success);
        if (nth > 1)
            for (ith = 0; ith < nth; ith++)
                CHECK_EQ(dnnlk_layer_norm_bwd_finish(&tx, c->naxes, axes, c->want_dw ? &tdw : NULL,
                                                     c->want_db ? &tdb : NULL, ws, wsb, ith, nth),
                         dnnlk_success);
        if (k > 0) { /* the same bits for every part count */
            CHECK_MSG(memcmp(dx0, dxp, (size_t)span * es) == 0, "diff_src bits differ at nth %d", nth);
            if (c->want_dw) CHECK_MSG(memcmp(dw0, dwp, (size_t)n * 4) == 0, "diff_weight bits differ at nth %d", nth);
            if (c->want_db) CHECK_MSG(memcmp(db0, dbp, (size_t)n * 4) == 0, "diff_bias bits differ at nth %d", nth);
        }
    }
    for (r = 0; r < g; r++) {
        double rowmax = 0, tref[4096];
        int special_row = c->special && g >= 3 && r < 3;
        /* The row's gradient scale: its largest element, or s·max|g| where the terms cancel (a
         * row of 2 elements has a gradient of ~0 made of terms of that size). */
        for (i = 0; i < n; i++)
            rowmax = fmax(rowmax, fmax(fabs(ref[r * n + i]), istd[r] * fabs(dyl[r * n + i] * (c->has_w ? w[i] : 1.0f))));
        if (special_row) lnb_torch_row(xl + r * n, dyl + r * n, mean[r], istd[r], c->has_w ? w : NULL, n, tref);
        for (i = 0; i < n; i++) {
            int64_t o = th_offset(3, dims, st, r * n + i);
            double got = dnnlk__load_as_f32(dx0 + o * (int64_t)es, c->dt);
            if (special_row) {
                double want = (double)rt(c->dt, (float)tref[i]);
                if (!(same_or_nan(got, want) || fabs(got - want) <= 1e-5 * fabs(want)) && fails++ < 5)
                    CHECK_MSG(0, "special row %lld elem %lld: %g vs torch formula %g", (long long)r, (long long)i, got, want);
                continue;
            }
            if (!(fabs(got - ref[r * n + i]) <= 1e-5 * rowmax + ulp_of(ref[r * n + i], c->dt) + 1e-30) && fails++ < 5)
                CHECK_MSG(0, "dt %d g %lld n %lld row %lld elem %lld: %.9g vs %.9g (rowmax %g)", (int)c->dt,
                          (long long)g, (long long)n, (long long)r, (long long)i, got, ref[r * n + i], rowmax);
        }
    }
    if (!c->special) {
        for (i = 0; i < n; i++) {
            double aw = 0, ab = 0;
            for (r = 0; r < g; r++) {
                aw += fabs((double)dyl[r * n + i] * ((double)xl[r * n + i] - mean[r]) * istd[r]);
                ab += fabs((double)dyl[r * n + i]);
            }
            if (c->want_dw && !(fabs(dw0[i] - rdw[i]) <= 1e-5 * aw + 1e-30) && fails++ < 5)
                CHECK_MSG(0, "diff_weight[%lld]: %.9g vs %.9g", (long long)i, dw0[i], rdw[i]);
            if (c->want_db && !(fabs(db0[i] - rdb[i]) <= 1e-5 * ab + 1e-30) && fails++ < 5)
                CHECK_MSG(0, "diff_bias[%lld]: %.9g vs %.9g", (long long)i, db0[i], rdb[i]);
        }
    }
    CHECK(fails == 0);
    free(xl), free(dyl), free(w), free(mean), free(istd), free(ref), free(rdw), free(rdb);
    free(x), free(dy), free(dx0), free(dxp), free(dw0), free(db0), free(dwp), free(dbp), free(ws);
    return fails;
}

TEST(layer_norm_bwd_isa) {
    static const dnnlk_dtype dts[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    long t, cases = th_scaled(60);
    th_seed(1000 + (uint64_t)th_isa);
    for (t = 0; t < cases; t++) {
        lnb_case c;
        memset(&c, 0, sizeof c);
        c.dt = dts[t % 3];
        c.naxes = 1 + (int)(t / 3 % 2);
        c.dims[0] = th_randint(1, 5);
        c.dims[1] = th_randint(1, 9);
        c.dims[2] = t % 7 == 0 ? th_randint(40, 200) : th_randint(1, 37);
        c.has_w = (int)(t % 4 != 1);
        c.want_dw = (int)(t % 5 != 2);
        c.want_db = (int)(t % 6 != 3);
        c.eps_out = (int)(t / 2 % 2);
        c.layout = (int)(t % 3 == 0 ? 0 : t % 3 == 1 ? 1 : (t / 3) % 3);
        c.big_mean = c.dt == dnnlk_f32 && t % 4 == 0;
        lnb_run(&c);
    }
    { /* many rows: several blocks of the reduction, each part owning a few */
        lnb_case c;
        memset(&c, 0, sizeof c);
        c.dt = dnnlk_f32, c.naxes = 1, c.dims[0] = 7, c.dims[1] = 100, c.dims[2] = 67;
        c.has_w = c.want_dw = c.want_db = 1, c.big_mean = 1;
        lnb_run(&c);
        c.dims[0] = 3, c.dims[1] = 1500, c.dims[2] = 19, c.big_mean = 0, c.eps_out = 1;
        lnb_run(&c);
        /* rows of 96 f32: whole vectors on every level, diff_src streamed (DNNLK_NORM_NT_BYTES above),
         * with and without the reductions */
        c.dims[0] = 4, c.dims[1] = 40, c.dims[2] = 96, c.eps_out = 0;
        lnb_run(&c);
        c.want_dw = c.want_db = 0, c.has_w = 0;
        lnb_run(&c);
    }
    { /* inf / NaN rows follow PyTorch's formula; the other rows are unaffected */
        lnb_case c;
        memset(&c, 0, sizeof c);
        c.dt = dnnlk_f32, c.naxes = 1, c.dims[0] = 1, c.dims[1] = 5, c.dims[2] = 45;
        c.has_w = c.want_dw = c.want_db = 1, c.special = 1;
        lnb_run(&c);
        c.layout = 1;
        lnb_run(&c);
    }
}

/* Loss L = Σ r·y of the forward layer_norm, in double from its f32 outputs. */
static double ln_loss(const float *x, const float *w, const float *b, int64_t g, int64_t n, float eps, int eps_out,
                      const float *r) {
    int64_t dims[2] = {g, n}, wd[1] = {n}, i;
    int ax = -1;
    float *y = (float *)malloc((size_t)(g * n) * 4);
    dnnlk_tensor tx = th_tensor((void *)(uintptr_t)x, dnnlk_f32, 2, dims), ty = th_tensor(y, dnnlk_f32, 2, dims);
    dnnlk_tensor tw = th_tensor((void *)(uintptr_t)w, dnnlk_f32, 1, wd), tb = th_tensor((void *)(uintptr_t)b, dnnlk_f32, 1, wd);
    double l = 0;
    (void)dnnlk_layer_norm(&tx, &tw, &tb, 1, &ax, eps, eps_out, &ty, NULL, NULL, 0, 1);
    for (i = 0; i < g * n; i++) l += (double)r[i] * y[i];
    free(y);
    return l;
}

/* The backward kernel against central differences of the forward kernel, both eps placements
 * with an eps that matters. */
TEST(layer_norm_bwd_finite_difference) {
    enum { G = 3, N = 7 };
    float x[G * N], w[N], b[N], r[G * N], mean[G], istd[G], dx[G * N], dw[N], db[N], y[G * N], ws[4096];
    int64_t dims[2] = {G, N}, kd[2] = {G, 1}, wd[1] = {N}, i;
    int ax = -1, eo, bad = 0;
    size_t wsb = 0;
    th_seed(77);
    for (i = 0; i < G * N; i++) x[i] = th_randf(-2, 2), r[i] = th_randf(-1, 1);
    for (i = 0; i < N; i++) w[i] = th_randf(0.5f, 1.5f), b[i] = th_randf(-1, 1);
    for (eo = 0; eo < 2; eo++) {
        float eps = 0.3f;
        dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, dims), ty = th_tensor(y, dnnlk_f32, 2, dims);
        dnnlk_tensor tw = th_tensor(w, dnnlk_f32, 1, wd), tb = th_tensor(b, dnnlk_f32, 1, wd);
        dnnlk_tensor tm = th_tensor(mean, dnnlk_f32, 2, kd), ti = th_tensor(istd, dnnlk_f32, 2, kd);
        dnnlk_tensor tr = th_tensor(r, dnnlk_f32, 2, dims), tdx = th_tensor(dx, dnnlk_f32, 2, dims);
        dnnlk_tensor tdw = th_tensor(dw, dnnlk_f32, 1, wd), tdb = th_tensor(db, dnnlk_f32, 1, wd);
        CHECK_EQ(dnnlk_layer_norm(&tx, &tw, &tb, 1, &ax, eps, eo, &ty, &tm, &ti, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_layer_norm_bwd_workspace_bytes(&tx, 1, &ax, 1, 1, 1, &wsb), dnnlk_success);
        CHECK(wsb <= sizeof ws);
        CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tr, &tm, &ti, &tw, 1, &ax, eo, &tdx, &tdw, &tdb, ws, wsb, 0, 1),
                 dnnlk_success);
        for (i = 0; i < G * N + 2 * N; i++) {
            float *p = i < G * N ? &x[i] : i < G * N + N ? &w[i - G * N] : &b[i - G * N - N];
            float keep = *p, h = 1e-2f, got = i < G * N ? dx[i] : i < G * N + N ? dw[i - G * N] : db[i - G * N - N];
            double lp, lm, fd;
            *p = keep + h;
            lp = ln_loss(x, w, b, G, N, eps, eo, r);
            *p = keep - h;
            lm = ln_loss(x, w, b, G, N, eps, eo, r);
            *p = keep;
            fd = (lp - lm) / ((double)(keep + h) - (double)(keep - h));
            if (!(fabs(got - fd) <= 2e-3 * (1 + fabs(fd))) && bad++ < 5)
                CHECK_MSG(0, "eps_out %d param %lld: analytic %.7g vs finite difference %.7g", eo, (long long)i, got, fd);
        }
    }
    CHECK(bad == 0);
}

/* Bad input: a status, and neither the outputs nor their descriptors touched. */
TEST(layer_norm_bwd_bad_input) {
    float x[12], dy[12], m[3], is[3], dx[12], dw[4], db[4], ws[1024];
    int64_t dims[2] = {3, 4}, kd[2] = {3, 1}, wd[1] = {4}, bad_dims[2] = {3, 5};
    int ax = -1, ax0 = 0, i;
    size_t wsb = 0;
    dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, dims), tdy = th_tensor(dy, dnnlk_f32, 2, dims);
    dnnlk_tensor tm = th_tensor(m, dnnlk_f32, 2, kd), ti = th_tensor(is, dnnlk_f32, 2, kd);
    dnnlk_tensor tdx = th_tensor(dx, dnnlk_f32, 2, dims), tdw = th_tensor(dw, dnnlk_f32, 1, wd), tdb = th_tensor(db, dnnlk_f32, 1, wd);
    dnnlk_tensor tdy_bad = th_tensor(dy, dnnlk_f32, 2, bad_dims), tdy_bf = th_tensor(dy, dnnlk_bf16, 2, dims);
    dnnlk_tensor sdx = tdx, sdw = tdw, sdb = tdb;
    for (i = 0; i < 12; i++) x[i] = (float)i, dy[i] = 1;
    for (i = 0; i < 3; i++) m[i] = 1, is[i] = 1;
    CHECK_EQ(dnnlk_layer_norm_bwd_workspace_bytes(&tx, 1, &ax, 1, 1, 2, &wsb), dnnlk_success);
    CHECK_EQ(wsb, 1 * 2 * 4 * 4); /* one block of 3 rows, two accumulators, 4 columns */
    CHECK_EQ(dnnlk_layer_norm_bwd_workspace_bytes(&tx, 1, &ax, 1, 1, 0, &wsb), dnnlk_invalid_arguments);
    memset(dx, 0x5a, sizeof dx), memset(dw, 0x5a, sizeof dw), memset(db, 0x5a, sizeof db);
#define LNB(DY, M, I, AXP, EO, WS, WSB, ITH, NTH) \
    dnnlk_layer_norm_bwd(&tx, DY, M, I, NULL, 1, AXP, EO, &tdx, &tdw, &tdb, WS, WSB, ITH, NTH)
    CHECK_EQ(LNB(&tdy_bad, &tm, &ti, &ax, 0, ws, sizeof ws, 0, 1), dnnlk_invalid_shape);
    CHECK_EQ(LNB(&tdy_bf, &tm, &ti, &ax, 0, ws, sizeof ws, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(LNB(&tdy, NULL, &ti, &ax, 0, ws, sizeof ws, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(LNB(&tdy, &tm, NULL, &ax, 0, ws, sizeof ws, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(LNB(NULL, &tm, &ti, &ax, 0, ws, sizeof ws, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(LNB(&tdy, &tm, &ti, &ax, 0, ws, 31, 0, 1), dnnlk_invalid_arguments);  /* workspace too small */
    CHECK_EQ(LNB(&tdy, &tm, &ti, &ax, 0, NULL, 32, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(LNB(&tdy, &tm, &ti, &ax, 2, ws, sizeof ws, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(LNB(&tdy, &tm, &ti, &ax, 0, ws, sizeof ws, 1, 1), dnnlk_invalid_arguments);
    CHECK_EQ(LNB(&tdy, &tm, &ti, &ax0, 0, ws, sizeof ws, 0, 1), dnnlk_unimplemented); /* not trailing */
    CHECK_EQ(LNB(&tdy, &tm, &tm, &ax, 0, ws, sizeof ws, 0, 1), dnnlk_success); /* shared statistics are fine */
    memset(dx, 0x5a, sizeof dx), memset(dw, 0x5a, sizeof dw), memset(db, 0x5a, sizeof db);
    { /* diff_src overlapping mean; diff_weight overlapping diff_src */
        dnnlk_tensor tdx_m = th_tensor(m, dnnlk_f32, 2, dims), tdw_x = th_tensor(dx + 2, dnnlk_f32, 1, wd);
        CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &ti, NULL, 1, &ax, 0, &tdx_m, NULL, NULL, NULL, 0, 0, 1),
                 dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &ti, NULL, 1, &ax, 0, &tdx, &tdw_x, NULL, ws, sizeof ws, 0, 1),
                 dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_layer_norm_bwd_finish(&tx, 1, &ax, &tdw, &tdb, ws, 31, 0, 1), dnnlk_invalid_arguments);
    }
    { /* a workspace overlapping diff_src, src or diff_weight; finish with a workspace overlapping diff_bias */
        CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &ti, NULL, 1, &ax, 0, &tdx, &tdw, &tdb, dx + 4, 32, 0, 1),
                 dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &ti, NULL, 1, &ax, 0, &tdx, &tdw, &tdb, x, 32, 0, 1),
                 dnnlk_invalid_arguments);
        dnnlk_tensor tdw_ws = th_tensor(ws + 6, dnnlk_f32, 1, wd), tdb_ws = th_tensor(ws + 2, dnnlk_f32, 1, wd);
        CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &ti, NULL, 1, &ax, 0, &tdx, &tdw_ws, &tdb, ws, 32, 0, 1),
                 dnnlk_invalid_arguments);
        CHECK_EQ(dnnlk_layer_norm_bwd_finish(&tx, 1, &ax, &tdw, &tdb_ws, ws, 32, 0, 1), dnnlk_invalid_arguments);
    }
#undef LNB
    for (i = 0; i < 12; i++) CHECK(((unsigned char *)dx)[i * 4] == 0x5a);
    for (i = 0; i < 4; i++) CHECK(((unsigned char *)dw)[i * 4] == 0x5a && ((unsigned char *)db)[i * 4] == 0x5a);
    CHECK(memcmp(&sdx, &tdx, sizeof sdx) == 0 && memcmp(&sdw, &tdw, sizeof sdw) == 0 && memcmp(&sdb, &tdb, sizeof sdb) == 0);
}

/* ======================= select backward ======================= */

/* Random shape of a source broadcast to dims (nd): some leading dims dropped, some set to 1. */
static int rand_bshape(int nd, const int64_t *dims, int64_t *out) {
    int drop = (int)th_randint(0, nd), k = nd - drop, i;
    if (th_randint(0, 2)) drop = 0, k = nd;
    for (i = 0; i < k; i++) out[i] = th_randint(0, 2) == 0 ? 1 : dims[drop + i];
    return k;
}

static void selb_case(dnnlk_dtype dt, int nd, const int64_t *dims, int strided, int specials) {
    int64_t cd[6], s0d[6], s1d[6], ds[6], nel = th_numel(nd, dims), span = 1, f, i;
    int cn = rand_bshape(nd, dims, cd), n0 = rand_bshape(nd, dims, s0d), n1 = rand_bshape(nd, dims, s1d), k, q;
    size_t es = dnnlk_dtype_size(dt);
    int64_t nc = th_numel(cn, cd), m0 = th_numel(n0, s0d), m1 = th_numel(n1, s1d);
    unsigned char *c = (unsigned char *)malloc((size_t)nc + 1);
    float *gl = (float *)malloc((size_t)nel * 4 + 4);
    char *g, *out[2][2];
    double *ref[2];
    int64_t m[2];
    int nn[2];
    const int64_t *sd[2];
    if (strided) {
        int64_t s = 1;
        for (i = nd - 1; i >= 0; i--) ds[i] = s * (i == nd - 1 ? 2 : 1), s = ds[i] * (dims[i] ? dims[i] : 1) + (i == nd - 1 ? 0 : 1);
    } else {
        dnnlk_dense_strides(nd, dims, ds);
    }
    for (i = 0; i < nd; i++) span += dims[i] > 0 ? (dims[i] - 1) * ds[i] : 0;
    g = (char *)calloc((size_t)span, es);
    for (f = 0; f < nc; f++) c[f] = th_randint(0, 2) == 0 ? 0 : (unsigned char)th_randint(1, 255);
    for (f = 0; f < nel; f++) {
        gl[f] = rt(dt, th_randf(-2, 2));
        if (specials && f % 7 == 3) gl[f] = f % 2 ? NAN : -INFINITY;
        if (specials && f % 11 == 5) gl[f] = -0.0f;
        dnnlk__store_from_f32(g + th_offset(nd, dims, ds, f) * (int64_t)es, dt, gl[f]);
    }
    m[0] = m0, m[1] = m1, nn[0] = n0, nn[1] = n1, sd[0] = s0d, sd[1] = s1d;
    for (q = 0; q < 2; q++) { /* references: sum in double over the dst elements mapping to each */
        ref[q] = (double *)calloc((size_t)m[q] + 1, 8);
        for (f = 0; f < nel; f++) {
            int64_t rem = f, oi = 0, ci = 0, mulo = 1, mulc = 1;
            for (i = nd - 1; i >= 0; i--) {
                int64_t v = rem % dims[i], io = nn[q] - nd + i, ic = cn - nd + i;
                rem /= dims[i];
                if (io >= 0) oi += (sd[q][io] == 1 ? 0 : v) * mulo, mulo *= sd[q][io];
                if (ic >= 0) ci += (cd[ic] == 1 ? 0 : v) * mulc, mulc *= cd[ic];
            }
            if (m[q] == nel) ref[q][oi] = (c[ci] != 0) == (q == 0) ? (double)gl[f] : 0.0; /* moved: -0, NaN kept */
            else if ((c[ci] != 0) == (q == 0)) ref[q][oi] += gl[f];
        }
        out[q][0] = (char *)malloc((size_t)m[q] * es + 8);
        out[q][1] = (char *)malloc((size_t)m[q] * es + 8);
    }
    for (k = 0; k < NPARTS; k++) {
        int nth = parts_list[k], ith;
        dnnlk_tensor tc = mk(c, dnnlk_u8, cn, cd, NULL), tg = mk(g, dt, nd, dims, ds);
        dnnlk_tensor t0 = mk(out[0][k > 0], dnnlk_dtype_undef, n0, s0d, NULL), t1 = mk(out[1][k > 0], dt, n1, s1d, NULL);
        for (i = 0; i < n0; i++) t0.strides[i] = DNNLK_UNKNOWN;
        memset(out[0][k > 0], 0x7f, (size_t)m0 * es), memset(out[1][k > 0], 0x7f, (size_t)m1 * es);
        for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_select_bwd(&tc, &tg, &t0, &t1, ith, nth), dnnlk_success);
        CHECK(t0.dtype == dt);
        if (k > 0)
            for (q = 0; q < 2; q++) CHECK_MSG(memcmp(out[q][0], out[q][1], (size_t)m[q] * es) == 0, "select_bwd bits differ at nth %d", nth);
    }
    for (q = 0; q < 2; q++) {
        int bad = 0;
        for (f = 0; f < m[q]; f++) {
            double got = dnnlk__load_as_f32(out[q][0] + f * (int64_t)es, dt), want = (double)rt(dt, (float)ref[q][f]);
            int ok = m[q] == nel ? same_or_nan(got, want) && signbit(got) == signbit(want)
                                 : same_or_nan(got, want) || fabs(got - want) <= ulp_of(want, dt);
            if (!ok && bad++ < 3) CHECK_MSG(0, "select_bwd src%d elem %lld: %g vs %g (nd %d)", q, (long long)f, got, want, nd);
        }
        CHECK(bad == 0);
        free(out[q][0]), free(out[q][1]), free(ref[q]);
    }
    free(c), free(gl), free(g);
}

TEST(select_bwd_isa) {
    static const dnnlk_dtype dts[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    long t, cases = th_scaled(150);
    th_seed(2000 + (uint64_t)th_isa);
    for (t = 0; t < cases; t++) {
        int nd = (int)th_randint(0, 4), i;
        int64_t dims[4];
        for (i = 0; i < nd; i++) dims[i] = t % 25 == 0 ? th_randint(0, 3) : th_randint(1, 9);
        if (t % 10 == 1 && nd > 0) dims[nd - 1] = th_randint(30, 70); /* full vectors and tails */
        selb_case(dts[t % 3], nd, dims, (int)(t % 4 == 2), (int)(t % 5 == 4));
    }
    { /* one big sum: 0-d sources of a [5, 333] diff_dst */
        int64_t dims[2] = {5, 333};
        for (t = 0; t < 4; t++) selb_case(dnnlk_f32, 2, dims, (int)(t & 1), 0);
    }
}

TEST(select_bwd_bad_input) {
    float g[6] = {1, 2, 3, 4, 5, 6}, a[6], b[6];
    unsigned char c[6] = {1, 0, 1, 0, 1, 0};
    int64_t d23[2] = {2, 3}, d13[2] = {1, 3}, d3[1] = {2}, i;
    dnnlk_tensor tc = th_tensor(c, dnnlk_u8, 2, d23), tg = th_tensor(g, dnnlk_f32, 2, d23);
    dnnlk_tensor ta = th_tensor(a, dnnlk_f32, 2, d13), tb = th_tensor(b, dnnlk_f32, 2, d23), keep_a, keep_b;
    dnnlk_tensor tbad = th_tensor(b, dnnlk_f32, 1, d3), tf = th_tensor(c, dnnlk_f32, 2, d23), tcf = th_tensor(g, dnnlk_f32, 2, d23);
    dnnlk_tensor ta_on_g = th_tensor(g, dnnlk_f32, 2, d13);
    memset(a, 0x5a, sizeof a), memset(b, 0x5a, sizeof b);
    keep_a = ta, keep_b = tb;
    CHECK_EQ(dnnlk_select_bwd(&tc, &tg, &ta, &tbad, 0, 1), dnnlk_invalid_shape);
    CHECK_EQ(dnnlk_select_bwd(&tc, &tg, NULL, NULL, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_select_bwd(NULL, &tg, &ta, &tb, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_select_bwd(&tcf, &tg, &ta, &tb, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(dnnlk_select_bwd(&tc, &tg, &ta, &tb, 2, 2), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_select_bwd(&tc, &tg, &ta_on_g, &tb, 0, 1), dnnlk_invalid_arguments); /* reduced output on its input */
    CHECK_EQ(dnnlk_select_bwd(&tc, &tg, &ta, &tf, 0, 1), dnnlk_invalid_arguments);      /* output on cond */
    for (i = 0; i < 6; i++) CHECK(((unsigned char *)a)[i * 4] == 0x5a && ((unsigned char *)b)[i * 4] == 0x5a);
    CHECK(memcmp(&keep_a, &ta, sizeof ta) == 0 && memcmp(&keep_b, &tb, sizeof tb) == 0);
    CHECK_EQ(dnnlk_select_bwd(&tc, &tg, &ta, &tb, 0, 1), dnnlk_success);
    CHECK(a[0] == 1 && a[1] == 5 && a[2] == 3 && b[0] == 0 && b[1] == 2 && b[5] == 6);
}

/* ======================= resize backward ======================= */

/* Scatter form of the adjoint, in double: each diff_dst element adds Π w · g to every source
 * element it read (the per-axis reads from resize.h's coordinate helpers). */
static void rsb_ref(int nd, const int64_t *sdims, const int64_t *ddims, const dnnlk__resize_axis *ax, int linear,
                    int coord, int nearest, const float *g, double *out) {
    int64_t nout = th_numel(nd, ddims), nin = th_numel(nd, sdims), o, q;
    int i;
    for (o = 0; o < nin; o++) out[o] = 0;
    for (o = 0; o < nout; o++) {
        int64_t f[6], l[6], rem = o;
        double w0[6], w1[6];
        for (i = nd - 1; i >= 0; i--) {
            int64_t v = rem % ddims[i];
            rem /= ddims[i];
            if (!ax[i].resized) f[i] = l[i] = v, w0[i] = 1, w1[i] = 0;
            else if (linear) {
                float a, b;
                dnnlk__resize_linear_coeffs(&ax[i], coord, v, &f[i], &l[i], &a, &b);
                w0[i] = a, w1[i] = b;
            } else {
                f[i] = l[i] = dnnlk__resize_nearest_index(&ax[i], coord, nearest, v);
                w0[i] = 1, w1[i] = 0;
            }
        }
        for (q = 0; q < (1 << nd); q++) { /* corners: bit i takes axis i's second read */
            int64_t si = 0;
            double w = 1;
            for (i = 0; i < nd; i++) {
                int hi = (int)(q >> i) & 1;
                if (hi && !(linear && ax[i].resized)) { w = 0; break; }
                si = si * sdims[i] + (hi ? l[i] : f[i]);
                w *= hi ? w1[i] : w0[i];
            }
            if (i == nd) out[si] += w * g[o];
        }
    }
}

static void rsb_case(dnnlk_dtype dt, int nd, const int64_t *sdims, dnnlk_resize_desc *desc, int strided, int specials) {
    dnnlk_tensor ts, td, tg, tb;
    dnnlk__resize_axis ax[6];
    int64_t ddims[6], gst[6], nin, nout, f, span = 1;
    int i, k, bad = 0;
    size_t es = dnnlk_dtype_size(dt);
    float *x, *y, *gl;
    char *g, *dx[2];
    double *ref, lhs = 0, rhs = 0, mag = 0;
    memset(&ts, 0, sizeof ts);
    ts = th_tensor(NULL, dt, nd, sdims);
    td = ts, td.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_resize_infer(&ts, desc, &td), dnnlk_success);
    for (i = 0; i < nd; i++) ddims[i] = td.dims[i];
    { dnnlk_tensor dd; (void)dnnlk__resize_prepare(&ts, desc, &td, 0, &dd, ax); }
    nin = th_numel(nd, sdims), nout = th_numel(nd, ddims);
    if (strided) { int64_t s = 3; for (i = nd - 1; i >= 0; i--) gst[i] = s, s *= ddims[i] ? ddims[i] + 1 : 1; }
    else dnnlk_dense_strides(nd, ddims, gst);
    for (i = 0; i < nd; i++) span += ddims[i] > 0 ? (ddims[i] - 1) * gst[i] : 0;
    x = (float *)malloc((size_t)nin * 4 + 4), y = (float *)malloc((size_t)nout * 4 + 4), gl = (float *)malloc((size_t)nout * 4 + 4);
    g = (char *)calloc((size_t)span, es);
    dx[0] = (char *)malloc((size_t)nin * es + 4), dx[1] = (char *)malloc((size_t)nin * es + 4);
    ref = (double *)malloc((size_t)nin * 8 + 8);
    for (f = 0; f < nin; f++) x[f] = th_randf(-1, 1);
    for (f = 0; f < nout; f++) {
        gl[f] = rt(dt, th_randf(-1, 1));
        if (specials && f == nout / 2) gl[f] = INFINITY;
        dnnlk__store_from_f32(g + th_offset(nd, ddims, gst, f) * (int64_t)es, dt, gl[f]);
    }
    rsb_ref(nd, sdims, ddims, ax, desc->mode == dnnlk_resize_linear, (int)desc->coord, (int)desc->nearest, gl, ref);
    tg = mk(g, dt, nd, ddims, gst);
    for (k = 0; k < NPARTS; k++) {
        int nth = parts_list[k], ith;
        char *o = dx[k > 0];
        tb = mk(o, dt, nd, sdims, NULL);
        for (i = 0; i < nd; i++) tb.strides[i] = DNNLK_UNKNOWN;
        memset(o, 0x7f, (size_t)nin * es);
        for (ith = 0; ith < nth; ith++) CHECK_EQ(dnnlk_resize_bwd(&tg, desc, &tb, ith, nth), dnnlk_success);
        if (k > 0) CHECK_MSG(memcmp(dx[0], dx[1], (size_t)nin * es) == 0, "resize_bwd bits differ at nth %d", nth);
    }
    for (f = 0; f < nin; f++) {
        double got = dnnlk__load_as_f32(dx[0] + f * (int64_t)es, dt), want = (double)rt(dt, (float)ref[f]);
        if (!(same_or_nan(got, want) || fabs(got - want) <= ulp_of(want, dt) + 1e-12) && bad++ < 3)
            CHECK_MSG(0, "resize_bwd mode %d coord %d elem %lld: %.9g vs %.9g", (int)desc->mode, (int)desc->coord,
                      (long long)f, got, want);
    }
    CHECK(bad == 0);
    if (dt == dnnlk_f32 && !specials && nout > 0) { /* the adjoint identity <resize(x), g> == <x, resize_bwd(g)> */
        dnnlk_tensor tx = th_tensor(x, dnnlk_f32, nd, sdims), ty = th_tensor(y, dnnlk_f32, nd, ddims);
        CHECK_EQ(dnnlk_resize(&tx, desc, &ty, 0, 1), dnnlk_success);
        for (f = 0; f < nout; f++) lhs += (double)y[f] * gl[f], mag += fabs((double)y[f] * gl[f]);
        for (f = 0; f < nin; f++) rhs += (double)x[f] * dnnlk__load_as_f32(dx[0] + f * 4, dt), mag += fabs(x[f] * ref[f]);
        CHECK_MSG(fabs(lhs - rhs) <= 1e-6 * mag + 1e-12, "adjoint: <resize(x), g> %.12g vs <x, resize_bwd(g)> %.12g", lhs, rhs);
    }
    free(x), free(y), free(gl), free(g), free(dx[0]), free(dx[1]), free(ref);
}

TEST(resize_bwd_isa) {
    static const float scl[7] = {2.0f, 0.5f, 0.6f, 1.5f, 3.0f, 1.0f, 0.34f};
    long t, cases = th_scaled(120);
    th_seed(3000 + (uint64_t)th_isa);
    for (t = 0; t < cases; t++) {
        int nd = (int)th_randint(1, 4), i, axes[4], na = 0;
        int64_t sd[4], sizes[4];
        float scales[4];
        dnnlk_resize_desc d;
        memset(&d, 0, sizeof d);
        for (i = 0; i < nd; i++) {
            sd[i] = th_randint(1, 7);
            if (th_randint(0, 2) || i == nd - 1) {
                axes[na] = i, scales[na] = scl[th_randint(0, 6)], sizes[na] = th_randint(1, 12), na++;
            }
        }
        d.mode = (dnnlk_resize_mode)(t % 2);
        d.coord = (dnnlk_resize_coord)(t / 2 % 4);
        d.nearest = (dnnlk_resize_nearest_round)(t / 8 % 4);
        d.naxes = na, d.axes = axes;
        if (t % 3 == 0) d.sizes = sizes;
        else d.scales = scales;
        rsb_case(t % 5 == 4 ? dnnlk_bf16 : t % 5 == 3 ? dnnlk_f16 : dnnlk_f32, nd, sd, &d, (int)(t % 4 == 1),
                 (int)(t % 9 == 5));
    }
    { /* columns read by more than DNNLK__RSB_ROW outputs: the element-wise box */
        int64_t sd[2] = {2, 3}, sizes[1] = {2600};
        int axes[1] = {1};
        dnnlk_resize_desc d;
        memset(&d, 0, sizeof d);
        d.mode = dnnlk_resize_linear, d.naxes = 1, d.axes = axes, d.sizes = sizes;
        rsb_case(dnnlk_f32, 2, sd, &d, 1, 0);
        d.mode = dnnlk_resize_nearest;
        rsb_case(dnnlk_f32, 2, sd, &d, 0, 1);
    }
    { /* an x2 bilinear NCHW image, odd sizes */
        int64_t sd[4] = {2, 3, 9, 13};
        int axes[2] = {2, 3};
        float scales[2] = {2, 2};
        dnnlk_resize_desc d;
        memset(&d, 0, sizeof d);
        d.mode = dnnlk_resize_linear, d.naxes = 2, d.axes = axes, d.scales = scales;
        rsb_case(dnnlk_f32, 4, sd, &d, 0, 0);
    }
}

TEST(resize_bwd_bad_input) {
    float g[8] = {0}, a[4];
    int64_t d8[1] = {8}, d4[1] = {4}, d5[1] = {5};
    int ax = 0;
    float sc = 2;
    dnnlk_resize_desc d;
    dnnlk_tensor tg = th_tensor(g, dnnlk_f32, 1, d8), ta = th_tensor(a, dnnlk_f32, 1, d4), keep;
    dnnlk_tensor t5 = th_tensor(a, dnnlk_f32, 1, d5), tbf = th_tensor(a, dnnlk_bf16, 1, d4), ton = th_tensor(g + 2, dnnlk_f32, 1, d4);
    int i;
    memset(&d, 0, sizeof d);
    d.mode = dnnlk_resize_linear, d.naxes = 1, d.axes = &ax, d.scales = &sc;
    memset(a, 0x5a, sizeof a);
    keep = ta;
    CHECK_EQ(dnnlk_resize_bwd(&tg, &d, &t5, 0, 1), dnnlk_invalid_shape); /* 5 * 2 != 8 */
    CHECK_EQ(dnnlk_resize_bwd(&tg, &d, &tbf, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(dnnlk_resize_bwd(NULL, &d, &ta, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_resize_bwd(&tg, NULL, &ta, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_resize_bwd(&tg, &d, &ta, 1, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_resize_bwd(&tg, &d, &ton, 0, 1), dnnlk_invalid_arguments); /* overlaps diff_dst */
    d.mode = (dnnlk_resize_mode)2;
    CHECK_EQ(dnnlk_resize_bwd(&tg, &d, &ta, 0, 1), dnnlk_invalid_arguments);
    for (i = 0; i < 4; i++) CHECK(((unsigned char *)a)[i * 4] == 0x5a);
    CHECK(memcmp(&keep, &ta, sizeof ta) == 0);
}

/* ======================= PyTorch 1.13 literals ======================= */

/* layer_norm backward at PyTorch's own mean/rstd: finite rows within 1e-5 of the row's scale
 * (PyTorch's f32 formula has its own rounding), inf/NaN rows with PyTorch's pattern. */
TEST(torch_layer_norm_bwd_isa) {
    float dx[LNT_G * LNT_N], dw[LNT_N], db[LNT_N], ws[4096];
    int64_t dims[2] = {LNT_G, LNT_N}, kd[2] = {LNT_G, 1}, wd[1] = {LNT_N}, r, i;
    int ax = -1, bad = 0;
    size_t wsb = 0;
    dnnlk_tensor tx = th_tensor((void *)(uintptr_t)lnt_x, dnnlk_f32, 2, dims), tdy = th_tensor((void *)(uintptr_t)lnt_dy, dnnlk_f32, 2, dims);
    dnnlk_tensor tm = th_tensor((void *)(uintptr_t)lnt_mean, dnnlk_f32, 2, kd), ti = th_tensor((void *)(uintptr_t)lnt_rstd, dnnlk_f32, 2, kd);
    dnnlk_tensor tw = th_tensor((void *)(uintptr_t)lnt_w, dnnlk_f32, 1, wd), tdx = th_tensor(dx, dnnlk_f32, 2, dims);
    dnnlk_tensor tdw = th_tensor(dw, dnnlk_f32, 1, wd), tdb = th_tensor(db, dnnlk_f32, 1, wd);
    CHECK_EQ(dnnlk_layer_norm_bwd_workspace_bytes(&tx, 1, &ax, 1, 1, 1, &wsb), dnnlk_success);
    CHECK_EQ(dnnlk_layer_norm_bwd(&tx, &tdy, &tm, &ti, &tw, 1, &ax, 0, &tdx, &tdw, &tdb, ws, wsb, 0, 1), dnnlk_success);
    for (r = 0; r < LNT_G; r++) {
        double scale = 0;
        for (i = 0; i < LNT_N; i++) { /* not fmax(): aarch64 gcc 12's vectorizer crashes on that reduction here */
            double v = fabs((double)lnt_rstd[r] * lnt_dy[r * LNT_N + i] * lnt_w[i]);
            if (v > scale) scale = v;
        }
        for (i = 0; i < LNT_N; i++) {
            double got = dx[r * LNT_N + i], want = lnt_dx[r * LNT_N + i];
            int ok = isfinite(want) ? fabs(got - want) <= 1e-5 * scale + 1e-7 : same_or_nan(got, want);
            if (!ok && bad++ < 5) CHECK_MSG(0, "torch layer_norm dx[%lld][%lld]: %.9g vs %.9g", (long long)r, (long long)i, got, want);
        }
    }
    for (i = 0; i < LNT_N; i++) {
        int okw = isfinite(lnt_dw[i]) ? fabs(dw[i] - lnt_dw[i]) <= 1e-5 * (1 + fabs(lnt_dw[i])) : same_or_nan(dw[i], lnt_dw[i]);
        int okb = isfinite(lnt_db[i]) ? fabs(db[i] - lnt_db[i]) <= 1e-5 * (1 + fabs(lnt_db[i])) : same_or_nan(db[i], lnt_db[i]);
        if (!(okw && okb) && bad++ < 5) CHECK_MSG(0, "torch layer_norm dw/db[%lld]: %g %g vs %g %g", (long long)i, dw[i], db[i], lnt_dw[i], lnt_db[i]);
    }
    CHECK(bad == 0);
}

/* upsample_{bilinear,nearest}2d_backward: resize_bwd with sizes (half_pixel or align_corners;
 * nearest: asymmetric + floor, PyTorch's "nearest"). */
TEST(torch_resize_bwd_isa) {
    size_t k;
    for (k = 0; k < sizeof rst_cases / sizeof rst_cases[0]; k++) {
        const rst_case *c = &rst_cases[k];
        int64_t dd[4] = {1, 2, c->oh, c->ow}, sd[4] = {1, 2, c->ih, c->iw}, sizes[2] = {c->oh, c->ow}, i, n = 2 * c->ih * c->iw;
        int axes[2] = {2, 3}, bad = 0;
        float dx[512];
        dnnlk_resize_desc d;
        dnnlk_tensor tg = th_tensor((void *)(uintptr_t)c->dy, dnnlk_f32, 4, dd), tb = th_tensor(dx, dnnlk_f32, 4, sd);
        memset(&d, 0, sizeof d);
        d.mode = c->mode ? dnnlk_resize_linear : dnnlk_resize_nearest;
        d.coord = c->mode ? (c->align_corners ? dnnlk_resize_align_corners : dnnlk_resize_half_pixel) : dnnlk_resize_asymmetric;
        d.nearest = dnnlk_resize_floor;
        d.naxes = 2, d.axes = axes, d.sizes = sizes;
        CHECK_EQ(dnnlk_resize_bwd(&tg, &d, &tb, 0, 1), dnnlk_success);
        for (i = 0; i < n; i++) {
            double got = dx[i], want = c->dx[i];
            int ok = isfinite(want) ? fabs(got - want) <= 1e-6 * (1 + fabs(want)) : same_or_nan(got, want);
            if (!ok && bad++ < 5) CHECK_MSG(0, "torch resize case %d elem %lld: %.9g vs %.9g", (int)k, (long long)i, got, want);
        }
        CHECK(bad == 0);
    }
}

/* The same bits on every level, as the README states: fixed inputs through each level up to the
 * CPU's, compared with the scalar level's bytes. The cases take both of dnnlk__rsb_rowsum's
 * forms: rows weighted by one resized outer axis (f32 weights, exact products that may fuse) and
 * by two (products of two weights, kept apart from their sums), and the x2 column windows. */
TEST(resize_bwd_levels_same_bits) {
    static const int ax2[2] = {2, 3}, ax3[3] = {1, 2, 3};
    static const float sc2[2] = {2.0f, 2.0f}, sc2b[2] = {1.5f, 0.6f}, sc3[3] = {1.7f, 2.0f, 0.75f};
    static const struct {
        dnnlk_dtype dt;
        int64_t sd[4];
        int naxes;
        const int *axes;
        const float *scales;
        dnnlk_resize_coord coord;
    } cs[5] = {{dnnlk_f32, {2, 3, 19, 37}, 2, ax2, sc2, dnnlk_resize_half_pixel},
               {dnnlk_f32, {1, 2, 11, 40}, 2, ax2, sc2b, dnnlk_resize_align_corners},
               {dnnlk_f32, {1, 5, 7, 21}, 3, ax3, sc3, dnnlk_resize_half_pixel},
               {dnnlk_bf16, {2, 2, 9, 33}, 2, ax2, sc2, dnnlk_resize_pytorch_half_pixel},
               {dnnlk_f16, {1, 4, 6, 17}, 3, ax3, sc3, dnnlk_resize_asymmetric}};
    int c, l, top = (int)dnnlk_cpu_isa();
    th_seed(4711);
    for (c = 0; c < 5; c++) {
        dnnlk_resize_desc d;
        dnnlk_tensor ts = th_tensor(NULL, cs[c].dt, 4, cs[c].sd), td, tg, tb;
        int64_t nin = th_numel(4, cs[c].sd), nout, f;
        size_t es = dnnlk_dtype_size(cs[c].dt);
        char *g, *ref, *got;
        memset(&d, 0, sizeof d);
        d.mode = dnnlk_resize_linear, d.coord = cs[c].coord, d.naxes = cs[c].naxes, d.axes = cs[c].axes;
        d.scales = cs[c].scales;
        td = ts, td.ndims = DNNLK_UNKNOWN;
        CHECK_EQ(dnnlk_resize_infer(&ts, &d, &td), dnnlk_success);
        nout = th_numel(4, td.dims);
        g = (char *)malloc((size_t)nout * es), ref = (char *)malloc((size_t)nin * es), got = (char *)malloc((size_t)nin * es);
        for (f = 0; f < nout; f++) dnnlk__store_from_f32(g + f * (int64_t)es, cs[c].dt, th_randf(-4, 4));
        tg = th_tensor(g, cs[c].dt, 4, td.dims);
        for (l = 0; l <= top; l++) {
            dnnlk_set_max_isa((dnnlk_isa)l);
            tb = th_tensor(l ? got : ref, cs[c].dt, 4, cs[c].sd);
            CHECK_EQ(dnnlk_resize_bwd(&tg, &d, &tb, 0, 1), dnnlk_success);
            if (l) CHECK_MSG(memcmp(ref, got, (size_t)nin * es) == 0, "resize_bwd case %d: level %s differs from scalar", c,
                             dnnlk_isa_name(dnnlk_max_isa()));
        }
        dnnlk_set_max_isa(dnnlk_isa_avx512);
        free(g), free(ref), free(got);
    }
}

int main(void) {
    RUN_EACH_ISA(layer_norm_bwd_isa);
    RUN(layer_norm_bwd_finite_difference);
    RUN(layer_norm_bwd_bad_input);
    RUN_EACH_ISA(select_bwd_isa);
    RUN(select_bwd_bad_input);
    RUN_EACH_ISA(resize_bwd_isa);
    RUN(resize_bwd_bad_input);
    RUN(resize_bwd_levels_same_bits);
    RUN_EACH_ISA(torch_layer_norm_bwd_isa);
    RUN_EACH_ISA(torch_resize_bwd_isa);
    return th_summary();
}
