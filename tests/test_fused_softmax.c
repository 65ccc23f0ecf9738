/* fused_softmax.h: masked softmax + dropout, forward and backward, against the composition of this
 * library's unfused calls (masked fill -> dnnlk_softmax -> dnnlk_dropout_fwd; dnnlk_dropout_bwd ->
 * dnnlk_softmax_bwd), bit for bit, and against a plain double-precision reference; every level,
 * parts 1/2/3/7, the three engines, odd row lengths (1 .. 2100: the chunked long-row path too),
 * every cond broadcast, fully masked rows, NaN/Inf, chained streams, bad arguments. The
 * non-temporal threshold is lowered so that the streaming stores run on test-sized tensors. */
#define DNNLK_SM_NT_BYTES 16384
#include "harness.h"

/* cond kinds: how the mask broadcasts to [d0, d1, K] */
enum { C_NONE, C_COL, C_D0, C_ROW, C_FULL, C_NKINDS };

typedef struct fcase {
    int64_t d0, d1, K;
    int ck;
    double rate;
    dnnlk_rng_alg alg;
    int pitch; /* extra elements between rows of src/dst/diff tensors */
    size_t misalign;
} fcase;

static const fcase cases[] = {
    {3, 5, 1, C_ROW, 0.5, dnnlk_rng_mcg31m1, 0, 0},
    {2, 9, 7, C_FULL, 0.1, dnnlk_rng_philox4x32_10, 0, 4},
    {3, 4, 63, C_COL, 0.3, dnnlk_rng_mt19937, 2, 0},
    {2, 7, 65, C_ROW, 0.1, dnnlk_rng_mcg31m1, 0, 8},
    {2, 3, 512, C_D0, 0.25, dnnlk_rng_philox4x32_10, 0, 0},
    {3, 5, 1000, C_FULL, 0.1, dnnlk_rng_mt19937, 0, 4},
    {1, 3, 1000, C_NONE, 0.0, dnnlk_rng_mcg31m1, 5, 0},
    {1, 3, 2100, C_COL, 0.4, dnnlk_rng_mcg31m1, 0, 0},
    {2, 2, 2100, C_FULL, 1.0, dnnlk_rng_philox4x32_10, 3, 0},
    {4, 4, 33, C_NONE, 0.2, dnnlk_rng_mt19937, 0, 0},
    {2, 3, 200, C_ROW, 0.0, dnnlk_rng_philox4x32_10, 0, 0},
};

/* The cond byte for element (a, b, k) of the case. */
static uint8_t cond_of(const fcase *c, const uint8_t *cb, int64_t a, int64_t b, int64_t k) {
    switch (c->ck) {
    case C_COL: return cb[k];
    case C_D0: return cb[a * c->K + k];
    case C_ROW: return cb[a * c->d1 + b];
    case C_FULL: return cb[(a * c->d1 + b) * c->K + k];
    }
    return 0;
}

static float rand_val(int64_t row) {
    int r = (int)th_randint(0, 200);
    if (row % 9 == 4 && r < 3) return NAN; /* a few NaN rows (unless masked there) */
    if (row % 9 == 5 && r < 3) return INFINITY;
    if (r < 6) return -INFINITY;
    return th_randf(-8, 8);
}

static int same_bits(float a, float b) { return (a != a && b != b) || memcmp(&a, &b, 4) == 0; }

/* Whether mask bit j is set. */
static int bit(const uint8_t *m, int64_t j) { return (m[j >> 3] >> (j & 7)) & 1; }

/* Four draws of each state agree (the states continue one stream). */
static int states_agree(const dnnlk_rng *a, const dnnlk_rng *b) {
    uint32_t x[4], y[4];
    if (dnnlk_rng_u32(a, x, 4, NULL, 0, 1) != dnnlk_success || dnnlk_rng_u32(b, y, 4, NULL, 0, 1) != dnnlk_success)
        return 0;
    return memcmp(x, y, sizeof x) == 0;
}

static void run_case(const fcase *c) {
    const int nths[4] = {1, 2, 3, 7};
    int64_t rows = c->d0 * c->d1, K = c->K, n = rows * K, pitch = K + c->pitch, span = rows * pitch;
    int64_t dims[3], str[3], cdims[3], r, k, i;
    int cnd = 0, t, ith, bad_p = 0, bad_dx2 = 0, bad_y = 0, bad_m = 0, bad_dx = 0, bad_ref = 0, bad_ref_b = 0, bad_state = 0, st_ok = 1;
    size_t nb = (size_t)((n + 7) / 8);
    float scale = c->rate < 1 ? (float)(1.0 / (1.0 - c->rate)) : 0.0f;
    th_buf bx = th_alloc((size_t)span * 4, 0), by = th_alloc((size_t)span * 4, c->misalign),
           bdy = th_alloc((size_t)span * 4, 0), bdx = th_alloc((size_t)span * 4, c->misalign),
           bmask = th_alloc(nb, 0), bst = th_alloc((size_t)rows * 8, 0), bc = th_alloc((size_t)n, 0),
           bpr = th_alloc((size_t)span * 4, 0), bdx2 = th_alloc((size_t)span * 4, c->misalign);
    float *x = (float *)bx.p, *y = (float *)by.p, *dy = (float *)bdy.p, *dx = (float *)bdx.p, *st = (float *)bst.p;
    uint8_t *mask = (uint8_t *)bmask.p, *cb = (uint8_t *)bc.p;
    float *pr = (float *)bpr.p, *dx2 = (float *)bdx2.p;
    float *xm = (float *)malloc((size_t)n * 4), *p = (float *)malloc((size_t)n * 4), *yr = (float *)malloc((size_t)n * 4);
    float *g = (float *)malloc((size_t)n * 4), *dxr = (float *)malloc((size_t)n * 4), *dyd = (float *)malloc((size_t)n * 4);
    uint8_t *mref = (uint8_t *)malloc(nb), *full = (uint8_t *)malloc((size_t)rows);
    dnnlk_tensor ts, td, tdy, tdx, tpr, tdx2, tc, *tcp = NULL, tm, tp, tyr, tg, tdyd, tdxr;
    dnnlk_rng in, out_ref, out;
    dims[0] = c->d0, dims[1] = c->d1, dims[2] = K;
    str[0] = c->d1 * pitch, str[1] = pitch, str[2] = 1;
    dnnlk_rng_init(&in, c->alg, 1234 + (uint64_t)K, 7);
    /* cond */
    switch (c->ck) {
    case C_COL: cnd = 1, cdims[0] = K; break;
    case C_D0: cnd = 3, cdims[0] = c->d0, cdims[1] = 1, cdims[2] = K; break;
    case C_ROW: cnd = 3, cdims[0] = c->d0, cdims[1] = c->d1, cdims[2] = 1; break;
    case C_FULL: cnd = 3, cdims[0] = c->d0, cdims[1] = c->d1, cdims[2] = K; break;
    }
    if (c->ck != C_NONE) {
        int64_t nc = th_numel(cnd, cdims);
        for (i = 0; i < nc; i++) cb[i] = th_rand32() % 10 < 3 ? (uint8_t)(1 + th_rand32() % 200) : 0;
        if (c->ck == C_ROW)
            for (i = 0; i < nc; i++) cb[i] = (uint8_t)(i % 4 == 1); /* rows 1, 5, ... fully masked */
        if (c->ck == C_FULL && rows > 2)
            for (k = 0; k < K; k++) cb[2 * K + k] = 1; /* row 2 fully masked */
        tc = th_tensor(cb, dnnlk_boolean, cnd, cdims);
        tcp = &tc;
    }
    /* data, the masked copy and which rows are fully masked */
    for (r = 0; r < rows; r++) {
        int64_t a = r / c->d1, b = r % c->d1;
        full[r] = 1;
        for (k = 0; k < K; k++) {
            float v = rand_val(r);
            uint8_t m = cond_of(c, cb, a, b, k);
            x[r * pitch + k] = v;
            xm[r * K + k] = m ? -INFINITY : v;
            dy[r * pitch + k] = dyd[r * K + k] = th_randf(-2, 2);
            if (!m) full[r] = 0;
        }
    }
    ts = th_strided(x, 0, dnnlk_f32, 3, dims, str);
    tdy = th_strided(dy, 0, dnnlk_f32, 3, dims, str);
    /* the composition of the unfused calls (dense) */
    tm = th_tensor(xm, dnnlk_f32, 3, dims);
    tp = th_tensor(p, dnnlk_f32, 3, dims);
    tyr = th_tensor(yr, dnnlk_f32, 3, dims);
    tg = th_tensor(g, dnnlk_f32, 3, dims);
    tdyd = th_tensor(dyd, dnnlk_f32, 3, dims);
    tdxr = th_tensor(dxr, dnnlk_f32, 3, dims);
    CHECK(dnnlk_softmax(&tm, -1, &tp, 0, 1) == dnnlk_success);
    CHECK(dnnlk_dropout_fwd(&tp, &tyr, mref, c->rate, 0, NULL, &in, &out_ref, 0, 1) == dnnlk_success);
    CHECK(dnnlk_dropout_bwd(&tdyd, mref, &tg, c->rate, 0, NULL, 0, 1) == dnnlk_success);
    CHECK(dnnlk_softmax_bwd(&tp, &tg, -1, &tdxr, 0, 1) == dnnlk_success);

    for (t = 0; t < 4; t++) {
        int nth = nths[t];
        memset(y, 0x5a, (size_t)span * 4);
        memset(dx, 0x5a, (size_t)span * 4);
        memset(mask, 0x5a, nb);
        memset(&out, 0, sizeof out);
        td = th_strided(y, 0, dnnlk_f32, 3, dims, str);
        tdx = th_strided(dx, 0, dnnlk_f32, 3, dims, str);
        memset(pr, 0x5a, (size_t)span * 4);
        memset(dx2, 0x5a, (size_t)span * 4);
        tpr = th_strided(pr, 0, dnnlk_f32, 3, dims, str);
        tdx2 = th_strided(dx2, 0, dnnlk_f32, 3, dims, str);
        /* odd part counts save the probabilities too, and their backward reads them */
        for (ith = 0; ith < nth; ith++)
            st_ok &= dnnlk_masked_softmax_dropout_fwd(&ts, tcp, -1, c->rate, &in, &out, &td, mask, st,
                                                      nth % 2 ? &tpr : NULL, ith, nth) == dnnlk_success;
        for (ith = 0; ith < nth; ith++)
            st_ok &= dnnlk_masked_softmax_dropout_bwd(&ts, tcp, 2, st, NULL, mask, c->rate, &tdy, &tdx, ith, nth) ==
                     dnnlk_success;
        if (nth % 2) {
            for (ith = 0; ith < nth; ith++)
                st_ok &= dnnlk_masked_softmax_dropout_bwd(&ts, tcp, 2, NULL, &tpr, mask, c->rate, &tdy, &tdx2, ith,
                                                          nth) == dnnlk_success;
            for (r = 0; r < rows; r++)
                for (k = 0; k < K; k++) {
                    float gp = pr[r * pitch + k], gx = dx2[r * pitch + k];
                    if (full[r]) {
                        bad_p += !(gp == 0.0f && !signbit(gp));
                        bad_dx2 += gx != 0.0f;
                    } else {
                        bad_p += !same_bits(gp, p[r * K + k]);
                        bad_dx2 += !same_bits(gx, dxr[r * K + k]);
                    }
                }
        }
        bad_m += memcmp(mask, mref, nb) != 0;
        bad_state += !states_agree(&out, &out_ref);
        for (r = 0; r < rows; r++)
            for (k = 0; k < K; k++) {
                float gy = y[r * pitch + k], gx = dx[r * pitch + k];
                if (full[r]) { /* fully masked: zeros, where the composition gives NaN */
                    bad_y += !(gy == 0.0f && !signbit(gy));
                    bad_dx += !(gx == 0.0f && !signbit(gx));
                } else {
                    bad_y += !same_bits(gy, yr[r * K + k]);
                    bad_dx += !same_bits(gx, dxr[r * K + k]);
                }
            }
        if (nth == 1) { /* the double reference, on the fused results */
            for (r = 0; r < rows; r++) {
                double mx = -INFINITY, s = 0, gp = 0, gpa = 0;
                int nan = 0;
                if (full[r]) continue;
                for (k = 0; k < K; k++) {
                    float v = xm[r * K + k];
                    if (v != v || v == INFINITY) nan = 1;
                    if (v > mx) mx = v;
                }
                if (nan || mx == -INFINITY) {
                    for (k = 0; k < K; k++) bad_ref += y[r * pitch + k] == y[r * pitch + k];
                    continue;
                }
                for (k = 0; k < K; k++) s += exp((double)xm[r * K + k] - mx);
                for (k = 0; k < K; k++) {
                    double pk = exp((double)xm[r * K + k] - mx) / s;
                    double gk = (double)dy[r * pitch + k] * (bit(mref, r * K + k) ? (double)scale : 0.0);
                    double want = pk * (c->rate > 0 ? (bit(mref, r * K + k) ? (double)scale : 0.0) : 1.0);
                    if (c->rate == 0) gk = dy[r * pitch + k];
                    bad_ref += th_ulp_diff(y[r * pitch + k], (float)want) > 5;
                    gp += gk * pk;
                    gpa += fabs(gk * pk);
                }
                for (k = 0; k < K; k++) {
                    double pk = exp((double)xm[r * K + k] - mx) / s;
                    double gk = c->rate == 0 ? (double)dy[r * pitch + k]
                                             : (double)dy[r * pitch + k] * (bit(mref, r * K + k) ? (double)scale : 0.0);
                    double want = pk * (gk - gp);
                    bad_ref_b += fabs(dx[r * pitch + k] - want) > 1e-5 * pk * (fabs(gk) + gpa) + 1e-37;
                }
            }
        }
    }
    CHECK_MSG(st_ok, "K=%lld: a call failed", (long long)K);
    CHECK_MSG(bad_m == 0, "K=%lld rate %g alg %d: %d drop masks differ from dnnlk_dropout_fwd's", (long long)K, c->rate,
              (int)c->alg, bad_m);
    CHECK_MSG(bad_state == 0, "K=%lld: %d end states differ from dnnlk_dropout_fwd's", (long long)K, bad_state);
    CHECK_MSG(bad_y == 0, "K=%lld cond %d rate %g: %d forward values differ from the composition", (long long)K, c->ck,
              c->rate, bad_y);
    CHECK_MSG(bad_dx == 0, "K=%lld cond %d rate %g: %d backward values differ from the composition", (long long)K,
              c->ck, c->rate, bad_dx);
    CHECK_MSG(bad_p == 0, "K=%lld: %d saved probabilities differ from dnnlk_softmax's", (long long)K, bad_p);
    CHECK_MSG(bad_dx2 == 0, "K=%lld: %d backward values from saved probabilities differ from the composition",
              (long long)K, bad_dx2);
    CHECK_MSG(bad_ref == 0, "K=%lld: %d forward values beyond 5 ulp of the double reference", (long long)K, bad_ref);
    CHECK_MSG(bad_ref_b == 0, "K=%lld: %d backward values off the double reference", (long long)K, bad_ref_b);
    CHECK(th_guards_ok(&by) && th_guards_ok(&bdx) && th_guards_ok(&bmask) && th_guards_ok(&bst) &&
          th_guards_ok(&bpr) && th_guards_ok(&bdx2));
    th_free(&bpr), th_free(&bdx2), th_free(&bx), th_free(&by), th_free(&bdy), th_free(&bdx), th_free(&bmask), th_free(&bst), th_free(&bc);
    free(xm), free(p), free(yr), free(g), free(dxr), free(dyd), free(mref), free(full);
}

TEST(matches_composition) {
    static const double rates[5] = {0.0, 0.1, 0.5, 0.9, 1.0};
    long i, extra = th_scaled(12);
    th_seed(26);
    for (i = 0; i < (long)(sizeof cases / sizeof cases[0]); i++) run_case(&cases[i]);
    for (i = 0; i < extra; i++) { /* random shapes, conds, rates, engines and layouts */
        fcase c;
        c.d0 = th_randint(1, 4), c.d1 = th_randint(1, 6), c.K = th_randint(1, 300);
        c.ck = (int)th_randint(0, C_NKINDS - 1);
        c.rate = rates[th_randint(0, 4)];
        c.alg = (dnnlk_rng_alg)th_randint(0, 3);
        c.pitch = (int)th_randint(0, 3);
        c.misalign = (size_t)(4 * th_randint(0, 3));
        run_case(&c);
    }
}

/* rate 0 with no drop mask and no stream: dnnlk_softmax's bits (and the softmax of the masked row). */
TEST(rate0_is_softmax) {
    int64_t dims[2] = {37, 300}, n = 37 * 300, i;
    float *x = (float *)malloc((size_t)n * 4), *y = (float *)malloc((size_t)n * 4), *z = (float *)malloc((size_t)n * 4);
    dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, dims), ty = th_tensor(y, dnnlk_f32, 2, dims), tz;
    th_seed(3);
    for (i = 0; i < n; i++) x[i] = th_randf(-30, 30);
    tz = th_tensor(z, dnnlk_f32, 2, dims);
    CHECK(dnnlk_softmax(&tx, 1, &tz, 0, 1) == dnnlk_success);
    CHECK(dnnlk_masked_softmax_dropout_fwd(&tx, NULL, 1, 0.0, NULL, NULL, &ty, NULL, NULL, NULL, 0, 1) == dnnlk_success);
    CHECK(memcmp(y, z, (size_t)n * 4) == 0);
    free(x), free(y), free(z);
}

/* Two chained fused calls give dnnlk_dropout_fwd's mask of the two tensors as one. */
TEST(chained_stream) {
    static const dnnlk_rng_alg algs[3] = {dnnlk_rng_mcg31m1, dnnlk_rng_philox4x32_10, dnnlk_rng_mt19937};
    int64_t dims[2] = {4, 64}, dims2[2] = {8, 64}, n = 256, i;
    float x[512], y[512], p[512];
    uint8_t m[64], mref[64];
    int a;
    dnnlk_rng in, mid, end, end_ref;
    for (i = 0; i < 512; i++) x[i] = th_randf(-3, 3);
    for (a = 0; a < 3; a++) {
        dnnlk_tensor t0 = th_tensor(x, dnnlk_f32, 2, dims), t1 = th_tensor(x + n, dnnlk_f32, 2, dims);
        dnnlk_tensor y0 = th_tensor(y, dnnlk_f32, 2, dims), y1 = th_tensor(y + n, dnnlk_f32, 2, dims);
        dnnlk_tensor tp = th_tensor(p, dnnlk_f32, 2, dims2), tpo = th_tensor(p, dnnlk_f32, 2, dims2);
        dnnlk_rng_init(&in, algs[a], 99, 3);
        CHECK(dnnlk_masked_softmax_dropout_fwd(&t0, NULL, -1, 0.3, &in, &mid, &y0, m, NULL, NULL, 0, 1) == dnnlk_success);
        CHECK(dnnlk_masked_softmax_dropout_fwd(&t1, NULL, -1, 0.3, &mid, &end, &y1, m + 32, NULL, NULL, 0, 1) == dnnlk_success);
        for (i = 0; i < 512; i++) p[i] = 1.0f;
        CHECK(dnnlk_dropout_fwd(&tp, &tpo, mref, 0.3, 0, NULL, &in, &end_ref, 0, 1) == dnnlk_success);
        CHECK_MSG(memcmp(m, mref, 64) == 0, "alg %d: chained masks differ", a);
        CHECK(states_agree(&end, &end_ref));
    }
}

/* In place (dst the src view, no stats) equals out of place; a 0-d tensor is a row of one. */
TEST(in_place_and_scalar) {
    int64_t dims[2] = {9, 77}, n = 9 * 77, i;
    float *x = (float *)malloc((size_t)n * 4), *y = (float *)malloc((size_t)n * 4), s0 = 3.0f, s1 = -1.0f;
    uint8_t m[90], m2[90], ms[1];
    dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, dims), ty = th_tensor(y, dnnlk_f32, 2, dims);
    dnnlk_tensor t0 = th_tensor(&s0, dnnlk_f32, 0, NULL), t1 = th_tensor(&s1, dnnlk_f32, 0, NULL);
    dnnlk_rng in;
    int ith;
    th_seed(5);
    for (i = 0; i < n; i++) x[i] = th_randf(-4, 4);
    dnnlk_rng_init(&in, dnnlk_rng_mt19937, 5, 1);
    CHECK(dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.3, &in, NULL, &ty, m, NULL, NULL, 0, 1) == dnnlk_success);
    for (ith = 0; ith < 2; ith++)
        CHECK(dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.3, &in, NULL, &tx, m2, NULL, NULL, ith, 2) == dnnlk_success);
    CHECK(memcmp(x, y, (size_t)n * 4) == 0 && memcmp(m, m2, (size_t)(n + 7) / 8) == 0);
    CHECK(dnnlk_masked_softmax_dropout_fwd(&t0, NULL, 0, 0.0, NULL, NULL, &t1, NULL, NULL, NULL, 0, 1) == dnnlk_success);
    CHECK(s1 == 1.0f);
    CHECK(dnnlk_masked_softmax_dropout_fwd(&t0, NULL, -1, 1.0, &in, NULL, &t1, ms, NULL, NULL, 0, 1) == dnnlk_success);
    CHECK(s1 == 0.0f && ms[0] == 0);
    free(x), free(y);
}

/* Bad input: a status, and every output (data, descriptor, mask, stats, rng_out) untouched. */
TEST(bad_arguments) {
    int64_t dims[2] = {4, 16}, bd[2] = {4, 15}, cd[2] = {3, 16}, d3[3] = {2, 4, 16};
    float x[64], y[64], st[8], dd[64];
    uint8_t m[8], c[64];
    dnnlk_tensor tx = th_tensor(x, dnnlk_f32, 2, dims), ty, tc = th_tensor(c, dnnlk_boolean, 2, dims);
    dnnlk_tensor tbad = th_tensor(y, dnnlk_f32, 2, bd), tcb = th_tensor(c, dnnlk_boolean, 2, cd);
    dnnlk_tensor tc3 = th_tensor(c, dnnlk_boolean, 3, d3), tdd = th_tensor(dd, dnnlk_f32, 2, dims);
    dnnlk_tensor tx16 = th_tensor(x, dnnlk_bf16, 2, dims), tyo = th_tensor(x + 8, dnnlk_f32, 2, dims);
    dnnlk_rng in, out, sentinel;
    int i, bad = 0;
    dnnlk_status s[20];
    for (i = 0; i < 64; i++) x[i] = (float)i, c[i] = 0, dd[i] = 1;
    dnnlk_rng_init(&in, dnnlk_rng_mcg31m1, 1, 0);
    memset(&sentinel, 0x77, sizeof sentinel);
    memset(y, 0x3c, sizeof y), memset(m, 0x3c, sizeof m), memset(st, 0x3c, sizeof st);
    out = sentinel;
    ty = th_tensor(y, dnnlk_f32, 2, dims);
    s[0] = dnnlk_masked_softmax_dropout_fwd(NULL, NULL, -1, 0.1, &in, &out, &ty, m, st, NULL, 0, 1);
    s[1] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, NULL, m, st, NULL, 0, 1);
    s[2] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &ty, NULL, st, NULL, 0, 1);   /* no mask */
    s[3] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, NULL, &out, &ty, m, st, NULL, 0, 1);     /* no stream */
    s[4] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &tbad, m, st, NULL, 0, 1);    /* dims */
    s[5] = dnnlk_masked_softmax_dropout_fwd(&tx, &tcb, -1, 0.1, &in, &out, &ty, m, st, NULL, 0, 1);      /* cond */
    s[6] = dnnlk_masked_softmax_dropout_fwd(&tx, &tc3, -1, 0.1, &in, &out, &ty, m, st, NULL, 0, 1);      /* cond wider */
    s[7] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, -0.1, &in, &out, &ty, m, st, NULL, 0, 1);
    s[8] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 1.5, &in, &out, &ty, m, st, NULL, 0, 1);
    s[9] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, NAN, &in, &out, &ty, m, st, NULL, 0, 1);
    s[10] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &ty, (uint8_t *)(void *)y, st, NULL, 0, 1);
    s[11] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &ty, m, y + 60, NULL, 0, 1); /* stats in dst */
    s[12] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &tyo, m, st, NULL, 0, 1);    /* dst over src */
    s[13] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, 0, 0.1, &in, &out, &ty, m, st, NULL, 0, 1);      /* not the last axis */
    s[14] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, 2, 0.1, &in, &out, &ty, m, st, NULL, 0, 1);      /* no such axis */
    s[15] = dnnlk_masked_softmax_dropout_fwd(&tx16, NULL, -1, 0.1, &in, &out, &ty, m, st, NULL, 0, 1);   /* dtype */
    s[16] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &ty, m, st, NULL, 1, 1);     /* parts */
    s[17] = dnnlk_masked_softmax_dropout_fwd(&tx, &tc, -1, 0.1, &in, &out, &ty, c, st, NULL, 0, 1);      /* mask on cond */
    s[18] = dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &tx, m, st, NULL, 0, 1); /* in place + stats */
    s[19] = dnnlk_masked_softmax_dropout_bwd(&tx, NULL, -1, st, NULL, m, 0.1, &tdd, &tx, 0, 1);        /* diff_src on src */
    CHECK(s[0] == dnnlk_invalid_arguments && s[1] == dnnlk_invalid_arguments && s[2] == dnnlk_invalid_arguments);
    CHECK(s[3] == dnnlk_invalid_arguments && s[4] == dnnlk_invalid_shape && s[5] == dnnlk_invalid_shape);
    CHECK(s[6] == dnnlk_invalid_shape && s[7] == dnnlk_invalid_arguments && s[8] == dnnlk_invalid_arguments);
    CHECK(s[9] == dnnlk_invalid_arguments && s[10] == dnnlk_invalid_arguments && s[11] == dnnlk_invalid_arguments);
    CHECK(s[12] == dnnlk_invalid_arguments && s[13] == dnnlk_unimplemented && s[14] == dnnlk_invalid_arguments);
    CHECK(s[15] == dnnlk_invalid_data_type && s[16] == dnnlk_invalid_arguments && s[17] == dnnlk_invalid_arguments);
    CHECK(s[18] == dnnlk_invalid_arguments && s[19] == dnnlk_invalid_arguments);
    for (i = 0; i < 64; i++) bad += x[i] != (float)i || c[i] != 0;
    for (i = 0; i < 64; i++) {
        uint32_t u;
        memcpy(&u, &y[i], 4);
        bad += u != 0x3c3c3c3cu;
    }
    for (i = 0; i < 8; i++) bad += m[i] != 0x3c;
    CHECK_MSG(bad == 0, "%d output bytes written on error", bad);
    CHECK(memcmp(&out, &sentinel, sizeof out) == 0);
    CHECK(ty.dims[1] == 16 && tdd.dims[1] == 16);
    /* backward: diff_dst dims unlike src's, no stats, no mask at rate > 0 */
    {
        dnnlk_tensor tdb = th_tensor(dd, dnnlk_f32, 2, bd);
        CHECK(dnnlk_masked_softmax_dropout_bwd(&tx, NULL, -1, st, NULL, m, 0.1, &tdb, &ty, 0, 1) == dnnlk_invalid_shape);
        CHECK(dnnlk_masked_softmax_dropout_bwd(&tx, NULL, -1, NULL, NULL, m, 0.1, &tdd, &ty, 0, 1) == dnnlk_invalid_arguments);
        CHECK(dnnlk_masked_softmax_dropout_bwd(&tx, NULL, -1, st, NULL, NULL, 0.1, &tdd, &ty, 0, 1) == dnnlk_invalid_arguments);
        CHECK(dnnlk_masked_softmax_dropout_bwd(&tx, NULL, -1, st, NULL, m, 2.0, &tdd, &ty, 0, 1) == dnnlk_invalid_arguments);
        CHECK(dnnlk_masked_softmax_dropout_bwd(&tx, NULL, -1, NULL, &ty, m, 0.1, &tdd, &ty, 0, 1) ==
              dnnlk_invalid_arguments); /* diff_src on the probabilities */
        CHECK(dnnlk_masked_softmax_dropout_fwd(&tx, NULL, -1, 0.1, &in, &out, &ty, m, st, &ty, 0, 1) ==
              dnnlk_invalid_arguments); /* probabilities on dst */
    }
    for (i = 0; i < 64; i++) {
        uint32_t u;
        memcpy(&u, &y[i], 4);
        bad += u != 0x3c3c3c3cu;
    }
    CHECK_MSG(bad == 0, "%d diff_src bytes written on error", bad);
}

int main(void) {
    RUN_EACH_ISA(matches_composition);
    RUN_EACH_ISA(rate0_is_softmax);
    RUN_EACH_ISA(chained_stream);
    RUN_EACH_ISA(in_place_and_scalar);
    RUN(bad_arguments);
    return th_summary();
}
