/* fused_dropout.h: bias + dropout + residual and gelu + dropout, forward and backward, against the
 * composition of this library's own unfused calls (dnnlk_dropout_fwd / _bwd, dnnlk_gelu /
 * _gelu_bwd, plain f32 adds) on every level, parts 1/2/3/7 and all three engines: masks and rng_out
 * bit for bit, f32 values bit for bit (NaN: any NaN), diff_bias against a double reference and the
 * same bits for every nth; bf16/f16 against the f32 computation rounded once; bad arguments. The
 * streaming threshold is lowered so that the streamed paths (peel, stream stores, fence) run on
 * test-sized tensors. */
#define DNNLK_DROPOUT_NT_BYTES 16384
#include "harness.h"

static const dnnlk_rng_alg algs[3] = {dnnlk_rng_mcg31m1, dnnlk_rng_philox4x32_10, dnnlk_rng_mt19937};
static const int nths[4] = {1, 2, 3, 7};

/* Random data with specials sprinkled in. */
static float rand_val(void) {
    int r = (int)th_randint(0, 60);
    if (r == 0) return NAN;
    if (r == 1) return INFINITY;
    if (r == 2) return -INFINITY;
    if (r == 3) return -0.0f;
    if (r == 4) return 1e-40f;
    return th_randf(-6, 6);
}

static void fill(void *p, dnnlk_dtype dt, int64_t n) {
    int64_t i;
    size_t es = dnnlk_dtype_size(dt);
    for (i = 0; i < n; i++) dnnlk__store_from_f32((char *)p + i * (int64_t)es, dt, rand_val());
}

/* Equal bits, or both NaN (NaN payloads are not part of the contract). */
static int same_elem(const void *a, const void *b, dnnlk_dtype dt) {
    float x = dnnlk__load_as_f32(a, dt), y = dnnlk__load_as_f32(b, dt);
    if (x != x && y != y) return 1;
    return memcmp(a, b, dnnlk_dtype_size(dt)) == 0;
}

static int count_diff(const void *a, const void *b, dnnlk_dtype dt, int64_t n) {
    int64_t i;
    int bad = 0;
    size_t es = dnnlk_dtype_size(dt);
    for (i = 0; i < n; i++) bad += !same_elem((const char *)a + i * (int64_t)es, (const char *)b + i * (int64_t)es, dt);
    return bad;
}

/* Two states continue one stream when their next draws agree. */
static int same_stream(const dnnlk_rng *a, const dnnlk_rng *b) {
    uint32_t x[8], y[8];
    dnnlk_rng_u32(a, x, 8, NULL, 0, 1);
    dnnlk_rng_u32(b, y, 8, NULL, 0, 1);
    return memcmp(x, y, sizeof x) == 0;
}

/* ---- bias + dropout + residual ---- */

static void bdr_case(dnnlk_rng_alg alg, int64_t rows, int64_t cols, int with_bias, double rate) {
    const dnnlk_dtype dt = dnnlk_f32;
    const int64_t n = rows * cols, dims[2] = {rows, cols};
    const size_t nb = (size_t)(n / 8 + 1);
    th_buf bx = th_alloc((size_t)n * 4, 4), bb = th_alloc((size_t)cols * 4, 8), br = th_alloc((size_t)n * 4, 12);
    th_buf bt = th_alloc((size_t)n * 4, 0), bwant = th_alloc((size_t)n * 4, 0), bmr = th_alloc(nb, 0);
    th_buf bdst = th_alloc((size_t)n * 4, (n & 1) ? 4 : 0), bm = th_alloc(nb, 1);
    th_buf bdd = th_alloc((size_t)n * 4, 0), bds_ref = th_alloc((size_t)n * 4, 0);
    th_buf bds = th_alloc((size_t)n * 4, 8), bdres = th_alloc((size_t)n * 4, 0), bdb = th_alloc((size_t)cols * 4, 0);
    float *x = (float *)bx.p, *bias = (float *)bb.p, *res = (float *)br.p, *t = (float *)bt.p, *want = (float *)bwant.p;
    float db0[512];
    dnnlk_tensor tx = th_tensor(bx.p, dt, 2, dims), tb = th_tensor(bb.p, dt, 1, &cols), tr = th_tensor(br.p, dt, 2, dims);
    dnnlk_tensor tt = th_tensor(bt.p, dt, 2, dims), tw = th_tensor(bwant.p, dt, 2, dims);
    dnnlk_rng in, out_ref, out;
    int64_t i, r, c;
    int k, bad_mask = 0, bad_val = 0, bad_state = 0, bad_bwd = 0, bad_dres = 0, bad_db = 0;
    size_t wsb = 0;
    void *ws;
    dnnlk_rng_init(&in, alg, 777, 3);
    fill(x, dt, n), fill(bias, dt, cols), fill(res, dt, n);
    /* the composition: t = x + bias, dropout, + residual */
    for (i = 0; i < n; i++) t[i] = with_bias ? x[i] + bias[i % cols] : x[i];
    CHECK_EQ(dnnlk_dropout_fwd(&tt, &tw, (uint8_t *)bmr.p, rate, 2, NULL, &in, &out_ref, 0, 1), dnnlk_success);
    for (i = 0; i < n; i++) want[i] = res[i] + want[i];
    for (k = 0; k < 4; k++) {
        dnnlk_tensor td = th_tensor(bdst.p, dt, 2, dims);
        int ith;
        memset(bdst.p, 0x5a, (size_t)n * 4);
        memset(&out, 0, sizeof out);
        for (ith = 0; ith < nths[k]; ith++)
            CHECK_EQ(dnnlk_bias_dropout_residual_fwd(&tx, with_bias ? &tb : NULL, &tr, rate, &in, &out, &td,
                                                     (uint8_t *)bm.p, ith, nths[k]),
                     dnnlk_success);
        bad_mask += memcmp(bm.p, bmr.p, (size_t)(n / 8 + (n % 8 != 0))) != 0;
        bad_val += count_diff(bdst.p, want, dt, n);
        bad_state += !same_stream(&out, &out_ref);
    }
    /* backward: dropout_bwd; diff_bias = column sums (double reference, same bits for every nth) */
    fill(bdd.p, dt, n);
    {
        dnnlk_tensor tdd = th_tensor(bdd.p, dt, 2, dims), tref = th_tensor(bds_ref.p, dt, 2, dims);
        CHECK_EQ(dnnlk_dropout_bwd(&tdd, (const uint8_t *)bm.p, &tref, rate, 2, NULL, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_bias_dropout_residual_bwd_workspace_bytes(&tdd, 1, 7, &wsb), dnnlk_success);
        ws = malloc(wsb + 4);
        for (k = 0; k < 4; k++) {
            dnnlk_tensor tds = th_tensor(bds.p, dt, 2, dims), tdr = th_tensor(bdres.p, dt, 2, dims);
            dnnlk_tensor tdb = th_tensor(bdb.p, dnnlk_f32, 1, &cols);
            int ith, alias = k == 2; /* once with diff_residual aliased (NULL) */
            memset(bds.p, 0x5a, (size_t)n * 4), memset(bdres.p, 0x5a, (size_t)n * 4), memset(bdb.p, 0x5a, (size_t)cols * 4);
            for (ith = 0; ith < nths[k]; ith++)
                CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, (const uint8_t *)bm.p, rate, &tds, &tdb, alias ? NULL : &tdr,
                                                         ws, wsb, ith, nths[k]),
                         dnnlk_success);
            for (ith = 0; nths[k] > 1 && ith < nths[k]; ith++)
                CHECK_EQ(dnnlk_bias_dropout_residual_bwd_finish(&tdd, &tdb, ws, wsb, ith, nths[k]), dnnlk_success);
            bad_bwd += count_diff(bds.p, bds_ref.p, dt, n);
            if (!alias) bad_dres += memcmp(bdres.p, bdd.p, (size_t)n * 4) != 0;
            else bad_dres += ((unsigned char *)bdres.p)[0] != 0x5a && n > 0;
            if (k == 0) memcpy(db0, bdb.p, (size_t)cols * 4);
            else bad_db += memcmp(db0, bdb.p, (size_t)cols * 4) != 0;
        }
        for (c = 0; c < cols; c++) {
            double s = 0, sa = 0;
            float got = db0[c];
            int nonfinite = 0;
            for (r = 0; r < rows; r++) {
                float v = ((float *)bds_ref.p)[r * cols + c];
                if (!(v - v == 0)) nonfinite = 1;
                s += v, sa += fabs((double)v);
            }
            if (nonfinite) bad_db += got - got == 0; /* an inf or NaN column sums to inf or NaN */
            else bad_db += !(fabs((double)got - s) <= 1e-6 * sa + 1e-30);
        }
        free(ws);
    }
    k = th_guards_ok(&bdst) && th_guards_ok(&bm) && th_guards_ok(&bds) && th_guards_ok(&bdres) && th_guards_ok(&bdb);
    CHECK_MSG(!bad_mask && !bad_val && !bad_state && !bad_bwd && !bad_dres && !bad_db && k,
              "bdr alg %d [%lld,%lld] bias %d rate %g: mask %d val %d state %d bwd %d dres %d dbias %d guards %d",
              (int)alg, (long long)rows, (long long)cols, with_bias, rate, bad_mask, bad_val, bad_state, bad_bwd,
              bad_dres, bad_db, k);
    th_free(&bx), th_free(&bb), th_free(&br), th_free(&bt), th_free(&bwant), th_free(&bmr), th_free(&bdst);
    th_free(&bm), th_free(&bdd), th_free(&bds_ref), th_free(&bds), th_free(&bdres), th_free(&bdb);
}

TEST(bias_dropout_residual_matches_unfused_isa) {
    static const int64_t shapes[][2] = {{0, 5}, {3, 0}, {1, 1}, {7, 33}, {5, 64}, {13, 100}, {40, 200}, {3, 511}};
    static const double rates[] = {0.1, 0.0, 1.0, 0.3f};
    int s, a, r;
    for (s = 0; s < 8; s++)
        for (a = 0; a < 3; a++)
            for (r = 0; r < 4; r++) {
                if (r > 0 && s % 2 == 0 && a > 0) continue; /* keep the runtime modest */
                bdr_case(algs[a], shapes[s][0], shapes[s][1], 1, rates[r]);
                if (r == 0) bdr_case(algs[a], shapes[s][0], shapes[s][1], 0, rates[r]);
            }
}

/* ---- gelu + dropout ---- */

static void gelu_case(dnnlk_rng_alg alg, dnnlk_gelu_approx ap, int nd, const int64_t *dims, double rate) {
    const dnnlk_dtype dt = dnnlk_f32;
    const int64_t n = th_numel(nd, dims);
    const size_t nb = (size_t)(n / 8 + 1);
    th_buf bx = th_alloc((size_t)n * 4, 4), by = th_alloc((size_t)n * 4, 0), bwant = th_alloc((size_t)n * 4, 0);
    th_buf bmr = th_alloc(nb, 0), bm = th_alloc(nb, 3), bdst = th_alloc((size_t)n * 4, (n & 1) ? 4 : 0);
    th_buf bdd = th_alloc((size_t)n * 4, 8), bg = th_alloc((size_t)n * 4, 0), bds_ref = th_alloc((size_t)n * 4, 0);
    th_buf bds = th_alloc((size_t)n * 4, 0);
    dnnlk_tensor tx = th_tensor(bx.p, dt, nd, dims), ty = th_tensor(by.p, dt, nd, dims), tw = th_tensor(bwant.p, dt, nd, dims);
    dnnlk_tensor tdd = th_tensor(bdd.p, dt, nd, dims), tg = th_tensor(bg.p, dt, nd, dims);
    dnnlk_tensor tref = th_tensor(bds_ref.p, dt, nd, dims);
    dnnlk_rng in, out_ref, out;
    int k, bad_mask = 0, bad_val = 0, bad_state = 0, bad_bwd = 0;
    dnnlk_rng_init(&in, alg, 99, 1000);
    fill(bx.p, dt, n), fill(bdd.p, dt, n);
    CHECK_EQ(dnnlk_gelu(&tx, ap, &ty, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_dropout_fwd(&ty, &tw, (uint8_t *)bmr.p, rate, nd, NULL, &in, &out_ref, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_dropout_bwd(&tdd, (const uint8_t *)bmr.p, &tg, rate, nd, NULL, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_gelu_bwd(&tx, &tg, ap, &tref, 0, 1), dnnlk_success);
    for (k = 0; k < 4; k++) {
        dnnlk_tensor td = th_tensor(bdst.p, dt, nd, dims), tds = th_tensor(bds.p, dt, nd, dims);
        int ith;
        memset(bdst.p, 0x5a, (size_t)n * 4), memset(bds.p, 0x5a, (size_t)n * 4);
        for (ith = 0; ith < nths[k]; ith++) {
            CHECK_EQ(dnnlk_gelu_dropout_fwd(&tx, ap, rate, &in, &out, &td, (uint8_t *)bm.p, ith, nths[k]), dnnlk_success);
            CHECK_EQ(dnnlk_gelu_dropout_bwd(&tx, &tdd, (const uint8_t *)bmr.p, ap, rate, &tds, ith, nths[k]), dnnlk_success);
        }
        bad_mask += memcmp(bm.p, bmr.p, (size_t)(n / 8 + (n % 8 != 0))) != 0;
        bad_val += count_diff(bdst.p, bwant.p, dt, n);
        bad_state += n > 0 && !same_stream(&out, &out_ref);
        bad_bwd += count_diff(bds.p, bds_ref.p, dt, n);
    }
    k = th_guards_ok(&bdst) && th_guards_ok(&bm) && th_guards_ok(&bds);
    CHECK_MSG(!bad_mask && !bad_val && !bad_state && !bad_bwd && k,
              "gelu %d alg %d n %lld rate %g: mask %d val %d state %d bwd %d guards %d", (int)ap, (int)alg,
              (long long)n, rate, bad_mask, bad_val, bad_state, bad_bwd, k);
    th_free(&bx), th_free(&by), th_free(&bwant), th_free(&bmr), th_free(&bm), th_free(&bdst);
    th_free(&bdd), th_free(&bg), th_free(&bds_ref), th_free(&bds);
}

TEST(gelu_dropout_matches_unfused_isa) {
    static const int64_t sizes[] = {0, 1, 31, 33, 100, 1000, 4099, 9001};
    static const int64_t d3[3] = {3, 7, 129};
    static const double rates[] = {0.1, 0.5, 0.0, 1.0};
    int s, a, r, f;
    for (s = 0; s < 8; s++)
        for (a = 0; a < 3; a++)
            for (r = 0; r < 4; r++)
                for (f = 0; f < 2; f++) {
                    if ((r > 1 || f) && (s + a + r) % 3) continue; /* keep the runtime modest */
                    gelu_case(algs[a], f ? dnnlk_gelu_tanh : dnnlk_gelu_none, 1, &sizes[s], rates[r]);
                }
    gelu_case(dnnlk_rng_mcg31m1, dnnlk_gelu_erf, 3, d3, 0.2);
    gelu_case(dnnlk_rng_philox4x32_10, dnnlk_gelu_tanh, 3, d3, 0.2);
}

/* ---- chained calls: two fused calls continue one stream, as one dropout call ---- */

TEST(chained_state_isa) {
    int a;
    for (a = 0; a < 3; a++) {
        const int64_t n1 = 640, n2 = 333, n = n1 + n2;
        float x[973], y[973], want[973];
        uint8_t m[123], mw[123];
        dnnlk_rng in, mid, end, end_ref;
        dnnlk_tensor t1 = th_tensor(x, dnnlk_f32, 1, &n1), t2 = th_tensor(x + n1, dnnlk_f32, 1, &n2);
        dnnlk_tensor o1 = th_tensor(y, dnnlk_f32, 1, &n1), o2 = th_tensor(y + n1, dnnlk_f32, 1, &n2);
        dnnlk_tensor tg = th_tensor(want, dnnlk_f32, 1, &n), tw = th_tensor(want, dnnlk_f32, 1, &n);
        dnnlk_rng_init(&in, algs[a], 5, 0);
        fill(x, dnnlk_f32, n);
        memset(m, 0, sizeof m), memset(mw, 0, sizeof mw);
        CHECK_EQ(dnnlk_gelu_dropout_fwd(&t1, dnnlk_gelu_none, 0.25, &in, &mid, &o1, m, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_gelu_dropout_fwd(&t2, dnnlk_gelu_none, 0.25, &mid, &end, &o2, m + n1 / 8, 0, 1), dnnlk_success);
        {
            dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 1, &n);
            CHECK_EQ(dnnlk_gelu(&tx, dnnlk_gelu_none, &tg, 0, 1), dnnlk_success);
        }
        CHECK_EQ(dnnlk_dropout_fwd(&tg, &tw, mw, 0.25, 1, NULL, &in, &end_ref, 0, 1), dnnlk_success);
        CHECK_MSG(memcmp(m, mw, sizeof m) == 0 && count_diff(y, want, dnnlk_f32, n) == 0 && same_stream(&end, &end_ref),
                  "alg %d chained", (int)algs[a]);
    }
}

/* ---- bf16 / f16: the f32 computation rounded once ---- */

static void half_case(dnnlk_dtype dt, int64_t rows, int64_t cols) {
    const int64_t n = rows * cols, dims[2] = {rows, cols};
    const size_t es = 2;
    const double rate = 0.2;
    const float scale = (float)(1.0 / (1.0 - rate));
    uint16_t *x = (uint16_t *)malloc((size_t)n * es), *b = (uint16_t *)malloc((size_t)cols * es);
    uint16_t *r = (uint16_t *)malloc((size_t)n * es), *y = (uint16_t *)malloc((size_t)n * es);
    uint16_t *dd = (uint16_t *)malloc((size_t)n * es), *ds = (uint16_t *)malloc((size_t)n * es);
    float *xf = (float *)malloc((size_t)n * 4), *gf = (float *)malloc((size_t)n * 4);
    uint8_t *m = (uint8_t *)malloc((size_t)n / 8 + 1);
    dnnlk_tensor tx = th_tensor(x, dt, 2, dims), tb = th_tensor(b, dt, 1, &cols), tr = th_tensor(r, dt, 2, dims);
    dnnlk_tensor ty = th_tensor(y, dt, 2, dims), tdd = th_tensor(dd, dt, 2, dims), tds = th_tensor(ds, dt, 2, dims);
    dnnlk_tensor txf = th_tensor(xf, dnnlk_f32, 2, dims), tgf = th_tensor(gf, dnnlk_f32, 2, dims);
    dnnlk_rng in;
    int64_t i;
    int bad = 0, bad_g = 0, bad_gb = 0, ulp_unfused = 0;
    dnnlk_rng_init(&in, dnnlk_rng_mcg31m1, 1, 2);
    fill(x, dt, n), fill(b, dt, cols), fill(r, dt, n), fill(dd, dt, n);
    CHECK_EQ(dnnlk_bias_dropout_residual_fwd(&tx, &tb, &tr, rate, &in, NULL, &ty, m, 0, 1), dnnlk_success);
    for (i = 0; i < n; i++) {
        float t = dnnlk__load_as_f32(&x[i], dt) + dnnlk__load_as_f32(&b[i % cols], dt), p;
        uint16_t w;
        p = t * ((m[i / 8] >> (i % 8)) & 1 ? scale : 0.0f);
        DNNLK__NOFUSE(p);
        dnnlk__store_from_f32(&w, dt, dnnlk__load_as_f32(&r[i], dt) + p);
        bad += !same_elem(&w, &y[i], dt);
    }
    /* gelu + dropout: round(gelu_f32(x) * keep) exactly; within 1 ulp of the unfused bf16/f16 calls */
    for (i = 0; i < n; i++) xf[i] = dnnlk__load_as_f32(&x[i], dt);
    CHECK_EQ(dnnlk_gelu(&txf, dnnlk_gelu_none, &tgf, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_gelu_dropout_fwd(&tx, dnnlk_gelu_none, rate, &in, NULL, &ty, m, 0, 1), dnnlk_success);
    {
        uint16_t *u = (uint16_t *)malloc((size_t)n * es), *u2 = (uint16_t *)malloc((size_t)n * es);
        uint8_t *m2 = (uint8_t *)malloc((size_t)n / 8 + 1);
        dnnlk_tensor tu = th_tensor(u, dt, 2, dims), tu2 = th_tensor(u2, dt, 2, dims);
        CHECK_EQ(dnnlk_gelu(&tx, dnnlk_gelu_none, &tu, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_dropout_fwd(&tu, &tu2, m2, rate, 2, NULL, &in, NULL, 0, 1), dnnlk_success);
        for (i = 0; i < n; i++) {
            uint16_t w;
            int16_t d;
            dnnlk__store_from_f32(&w, dt, gf[i] * ((m[i / 8] >> (i % 8)) & 1 ? scale : 0.0f));
            bad_g += !same_elem(&w, &y[i], dt);
            d = (int16_t)(u2[i] - y[i]); /* neighbouring encodings of one sign */
            if (same_elem(&u2[i], &y[i], dt)) continue;
            if (d < -1 || d > 1) ulp_unfused++;
        }
        CHECK(memcmp(m, m2, (size_t)(n / 8 + (n % 8 != 0))) == 0);
        free(u), free(u2), free(m2);
    }
    /* gelu backward: round(gelu'(x) (dd keep)) with f32 math, as dnnlk_gelu_bwd of f32 copies */
    CHECK_EQ(dnnlk_gelu_dropout_bwd(&tx, &tdd, m, dnnlk_gelu_none, rate, &tds, 0, 1), dnnlk_success);
    for (i = 0; i < n; i++) gf[i] = dnnlk__load_as_f32(&dd[i], dt) * ((m[i / 8] >> (i % 8)) & 1 ? scale : 0.0f);
    CHECK_EQ(dnnlk_gelu_bwd(&txf, &tgf, dnnlk_gelu_none, &tgf, 0, 1), dnnlk_success);
    for (i = 0; i < n; i++) {
        uint16_t w;
        dnnlk__store_from_f32(&w, dt, gf[i]);
        bad_gb += !same_elem(&w, &ds[i], dt);
    }
    CHECK_MSG(!bad && !bad_g && !bad_gb && !ulp_unfused, "%s [%lld,%lld]: bdr %d gelu %d gelu_bwd %d unfused>1ulp %d",
              dnnlk_dtype_name(dt), (long long)rows, (long long)cols, bad, bad_g, bad_gb, ulp_unfused);
    free(x), free(b), free(r), free(y), free(dd), free(ds), free(xf), free(gf), free(m);
}

TEST(half_types_round_once_isa) {
    half_case(dnnlk_bf16, 9, 77);
    half_case(dnnlk_f16, 9, 77);
    half_case(dnnlk_bf16, 70, 128); /* past the streaming threshold */
    half_case(dnnlk_f16, 3, 5);
}

/* ---- bad arguments: a status, and nothing written ---- */

TEST(bad_arguments) {
    enum { R = 4, C = 16, N = R * C };
    const int64_t dims[2] = {R, C}, cols = C, c5 = 5, odd[2] = {R, C + 1};
    float x[N], b[C], r[N], y[N], dd[N], ds[N], dres[N], db[C], ws[64 * C];
    uint8_t m[N / 8], mcopy[N / 8];
    float ycopy[N];
    dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, dims), tb = th_tensor(b, dnnlk_f32, 1, &cols);
    dnnlk_tensor tr = th_tensor(r, dnnlk_f32, 2, dims), ty = th_tensor(y, dnnlk_f32, 2, dims);
    dnnlk_tensor tdd = th_tensor(dd, dnnlk_f32, 2, dims), tds = th_tensor(ds, dnnlk_f32, 2, dims);
    dnnlk_tensor tdr = th_tensor(dres, dnnlk_f32, 2, dims), tdb = th_tensor(db, dnnlk_f32, 1, &cols), t;
    dnnlk_tensor tb5 = th_tensor(b, dnnlk_f32, 1, &c5), trodd = th_tensor(r, dnnlk_f32, 2, odd);
    dnnlk_rng in, bad_state;
    size_t wsb = 0;
    fill(x, dnnlk_f32, N), fill(b, dnnlk_f32, C), fill(r, dnnlk_f32, N), fill(dd, dnnlk_f32, N);
    memset(y, 0x5a, sizeof y), memset(m, 0x5a, sizeof m), memset(ds, 0x5a, sizeof ds), memset(db, 0x5a, sizeof db);
    memcpy(ycopy, y, sizeof y), memcpy(mcopy, m, sizeof m);
    dnnlk_rng_init(&in, dnnlk_rng_mcg31m1, 1, 0);
    bad_state = in;
    bad_state.x = 0;
#define FWD(src, bias, res, rate, rng, dst, mask, ith, nth) \
    dnnlk_bias_dropout_residual_fwd(src, bias, res, rate, rng, NULL, dst, mask, ith, nth)
    CHECK_EQ(FWD(NULL, &tb, &tr, 0.1, &in, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, NULL, 0.1, &in, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &in, NULL, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &in, &ty, NULL, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, NULL, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &bad_state, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, NAN, &in, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, -0.1, &in, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, 1.5, &in, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &in, &ty, m, 2, 2), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb5, &tr, 0.1, &in, &ty, m, 0, 1), dnnlk_invalid_shape);   /* bias length != last dim */
    CHECK_EQ(FWD(&tx, &tb, &trodd, 0.1, &in, &ty, m, 0, 1), dnnlk_invalid_shape); /* residual's dims */
    t = tr, t.dtype = dnnlk_bf16;
    CHECK_EQ(FWD(&tx, &tb, &t, 0.1, &in, &ty, m, 0, 1), dnnlk_invalid_data_type);
    t = tx, t.dtype = dnnlk_s32;
    CHECK_EQ(FWD(&t, NULL, &tr, 0.1, &in, &ty, m, 0, 1), dnnlk_invalid_data_type);
    t = tr, t.strides[0] = 1, t.strides[1] = R; /* column-major residual */
    CHECK_EQ(FWD(&tx, &tb, &t, 0.1, &in, &ty, m, 0, 1), dnnlk_unimplemented);
    t = ty, t.data = r + 1; /* dst overlapping the residual, not the same view */
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &in, &t, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &in, &ty, (uint8_t *)(void *)y, 0, 1), dnnlk_invalid_arguments); /* mask in dst */
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &in, &ty, (uint8_t *)(void *)b, 0, 1), dnnlk_invalid_arguments); /* mask in bias */
    CHECK(memcmp(y, ycopy, sizeof y) == 0 && memcmp(m, mcopy, sizeof m) == 0);
    /* gelu + dropout forward */
    CHECK_EQ(dnnlk_gelu_dropout_fwd(&tx, (dnnlk_gelu_approx)7, 0.1, &in, NULL, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_gelu_dropout_fwd(&tx, dnnlk_gelu_none, 2.0, &in, NULL, &ty, m, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_gelu_dropout_fwd(&tx, dnnlk_gelu_none, 0.1, &in, NULL, &ty, (uint8_t *)(void *)x, 0, 1), dnnlk_invalid_arguments);
    t = ty, t.dims[1] = C + 1;
    CHECK_EQ(dnnlk_gelu_dropout_fwd(&tx, dnnlk_gelu_none, 0.1, &in, NULL, &t, m, 0, 1), dnnlk_invalid_shape);
    CHECK(memcmp(y, ycopy, sizeof y) == 0 && memcmp(m, mcopy, sizeof m) == 0);
    /* backward: workspace size, aliasing, overlaps */
    memcpy(ycopy, ds, sizeof ds);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd_workspace_bytes(&tdd, 1, 2, &wsb), dnnlk_success);
    CHECK(wsb > 0 && wsb <= sizeof ws);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tds, &tdb, &tdr, ws, wsb - 4, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tds, &tdb, &tdr, NULL, wsb, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tds, &tdb, &tdr, (char *)ws + 2, wsb, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tds, &tdb, &tdr, ds, wsb, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, NAN, &tds, &tdb, &tdr, ws, wsb, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, NULL, 0.1, &tds, &tdb, &tdr, ws, wsb, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tdd, &tdb, NULL, ws, wsb, 0, 1), dnnlk_invalid_arguments); /* in place, residual aliased */
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tds, &tdb, &tds, ws, wsb, 0, 1), dnnlk_invalid_arguments); /* two outputs one buffer */
    t = tdb, t.dims[0] = C - 1;
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tds, &t, &tdr, ws, wsb, 0, 1), dnnlk_invalid_shape);
    t = tdb, t.dtype = dnnlk_bf16;
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tds, &t, &tdr, ws, wsb, 0, 1), dnnlk_invalid_data_type);
    CHECK_EQ(dnnlk_gelu_dropout_bwd(&tx, &tdd, m, dnnlk_gelu_none, 0.1, &tds, 1, 1), dnnlk_invalid_arguments);
    t = tx, t.dims[0] = R - 1;
    CHECK_EQ(dnnlk_gelu_dropout_bwd(&t, &tdd, m, dnnlk_gelu_none, 0.1, &tds, 0, 1), dnnlk_invalid_shape);
    CHECK_EQ(dnnlk_gelu_dropout_bwd(&tx, &tdd, (const uint8_t *)(void *)ds, dnnlk_gelu_none, 0.1, &tds, 0, 1), dnnlk_invalid_arguments);
    CHECK(memcmp(ds, ycopy, sizeof ds) == 0);
    CHECK(((unsigned char *)db)[0] == 0x5a);
    /* in place is fine: dst = residual's view, diff_src = diff_dst with a separate diff_residual */
    CHECK_EQ(FWD(&tx, &tb, &tr, 0.1, &in, &tr, m, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_bias_dropout_residual_bwd(&tdd, m, 0.1, &tdd, NULL, &tdr, NULL, 0, 0, 1), dnnlk_success);
    /* inference completes unknown strides */
    t = ty, t.strides[0] = t.strides[1] = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_bias_dropout_residual_fwd_infer(&tx, &t), dnnlk_success);
    CHECK(t.strides[0] == C && t.strides[1] == 1);
    CHECK_EQ(dnnlk_gelu_dropout_bwd_infer(&tx, &tdd, dnnlk_gelu_tanh, &t), dnnlk_success);
    CHECK_EQ(dnnlk_gelu_dropout_fwd_infer(&tx, (dnnlk_gelu_approx)9, &t), dnnlk_invalid_arguments);
#undef FWD
}

int main(void) {
    RUN_EACH_ISA(bias_dropout_residual_matches_unfused_isa);
    RUN_EACH_ISA(gelu_dropout_matches_unfused_isa);
    RUN_EACH_ISA(chained_state_isa);
    RUN_EACH_ISA(half_types_round_once_isa);
    RUN(bad_arguments);
    return th_summary();
}
