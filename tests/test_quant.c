/* quant.h: quantize / dequantize against a double-precision reference, every ISA, every part count. */
/* Non-temporal stores from 256 KiB of output (the library's default is 8 MiB), so the recorded-bits
 * test streams without large buffers; the smaller cases here still take the cached stores. */
#define DNNLK_QUANT_NT_BYTES ((int64_t)256 << 10)
#include "harness.h"
#include "onnx_quant_cases.h"

/* ---- reference (ONNX QuantizeLinear / DequantizeLinear) ---- */

/* x / scale as one IEEE f32 division: the double quotient of two floats, rounded once to float, is
 * the correctly rounded f32 quotient (53 >= 2*24 + 2). Then round half to even, + zp, clip. */
static int ref_quantize(float x, float s, int zp, int sgn) {
    double lo = sgn ? -128 : 0, hi = sgn ? 127 : 255, v;
    float q;
    if (isnan(x)) return zp;
    q = (float)((double)x / (double)s);
    v = isinf(q) ? (double)q : nearbyint((double)q); /* default mode: half to even */
    v += zp;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (int)v;
}
/* (q - zp) * scale with one rounding: the double product is exact (9 + 24 bits). */
static float ref_dequantize(int q, int zp, float s) { return (float)((double)(q - zp) * (double)s); }

/* ---- small helpers ---- */

static dnnlk_tensor scalar_t(void *p, dnnlk_dtype t) { return th_tensor(p, t, 0, NULL); }

static int load_q(const void *p, dnnlk_dtype t) { return t == dnnlk_s8 ? *(const int8_t *)p : *(const uint8_t *)p; }

static void store_f(void *p, dnnlk_dtype t, float v) { dnnlk__store_from_f32(p, t, v); }

/* ---- hand-computed cases ---- */

TEST(quantize_hand_cases) {
    static const float xs[] = {2.5f, 3.5f, -2.5f, 0.5f, 1.5f, -0.5f, -1.5f, 2.4999998f, 126.5f, 127.5f, -128.5f,
                               1e30f, -1e30f, INFINITY, -INFINITY, NAN, 0.0f, -0.0f};
    static const int want_s8[] = {2, 4, -2, 0, 2, 0, -2, 2, 126, 127, -128, 127, -128, 127, -128, 0, 0, 0};
    int8_t y[18];
    float s = 1.0f;
    int64_t d = 18;
    dnnlk_tensor X = th_tensor((void *)xs, dnnlk_f32, 1, &d), S = scalar_t(&s, dnnlk_f32), Y = th_tensor(y, dnnlk_s8, 1, &d);
    int i;
    CHECK_EQ(dnnlk_quantize(&X, &S, NULL, 0, &Y, 0, 1), dnnlk_success);
    for (i = 0; i < 18; i++) CHECK_MSG(y[i] == want_s8[i], "x=%g: %d, want %d", xs[i], y[i], want_s8[i]);
    {
        /* u8 with zero point 128 and scale 0.5: x/0.5 = 2x. NaN gives the zero point. */
        static const float x2[] = {1.25f, 1.75f, -1.25f, 100.0f, -100.0f, NAN, 0.25f};
        static const int want[] = {130, 132, 126, 255, 0, 128, 128};
        uint8_t z = 128, yu[7];
        int64_t d2 = 7;
        dnnlk_tensor X2 = th_tensor((void *)x2, dnnlk_f32, 1, &d2), Z = scalar_t(&z, dnnlk_u8);
        dnnlk_tensor Y2 = th_tensor(yu, dnnlk_u8, 1, &d2);
        s = 0.5f;
        CHECK_EQ(dnnlk_quantize(&X2, &S, &Z, 0, &Y2, 0, 1), dnnlk_success);
        for (i = 0; i < 7; i++) CHECK_MSG(yu[i] == want[i], "x=%g: %d, want %d", x2[i], yu[i], want[i]);
    }
    {
        /* x / scale divides: 0.3/0.1 is 3.0000002 as f32 division, but x * (1/0.1f) gives 2.9999998;
         * with a tie below, 0.15/0.1 = 1.5 (rounds to 2) exactly in f32 division. */
        float x3[2] = {0.15f, 0.35f};
        int8_t y3[2];
        int64_t d3 = 2;
        dnnlk_tensor X3 = th_tensor(x3, dnnlk_f32, 1, &d3), Y3 = th_tensor(y3, dnnlk_s8, 1, &d3);
        s = 0.1f;
        CHECK_EQ(dnnlk_quantize(&X3, &S, NULL, 0, &Y3, 0, 1), dnnlk_success);
        CHECK_EQ(y3[0], ref_quantize(0.15f, 0.1f, 0, 1));
        CHECK_EQ(y3[1], ref_quantize(0.35f, 0.1f, 0, 1));
    }
}

TEST(dequantize_hand_cases) {
    int8_t q[5] = {-128, -1, 0, 5, 127};
    int8_t z[1] = {-1};
    float y[5], s = 0.5f;
    int64_t d = 5;
    dnnlk_tensor X = th_tensor(q, dnnlk_s8, 1, &d), S = scalar_t(&s, dnnlk_f32), Z = scalar_t(z, dnnlk_s8);
    dnnlk_tensor Y = th_tensor(y, dnnlk_f32, 1, &d);
    CHECK_EQ(dnnlk_dequantize(&X, &S, &Z, 0, &Y, 0, 1), dnnlk_success);
    CHECK(y[0] == -63.5f && y[1] == 0.0f && y[2] == 0.5f && y[3] == 3.0f && y[4] == 64.0f);
    {
        /* per-channel u8 [2,3], axis 1 (and -1) */
        uint8_t q2[6] = {0, 10, 255, 7, 128, 1}, z2[3] = {0, 10, 128};
        float s2[3] = {1.0f, 0.25f, 2.0f}, y2[6];
        float want[6] = {0, 0, 254, 7, 29.5f, -254};
        int64_t d2[2] = {2, 3}, d1 = 3;
        int a, i;
        dnnlk_tensor X2 = th_tensor(q2, dnnlk_u8, 2, d2), S2 = th_tensor(s2, dnnlk_f32, 1, &d1);
        dnnlk_tensor Z2 = th_tensor(z2, dnnlk_u8, 1, &d1), Y2 = th_tensor(y2, dnnlk_f32, 2, d2);
        for (a = -1; a <= 1; a += 2) {
            memset(y2, 0, sizeof y2);
            CHECK_EQ(dnnlk_dequantize(&X2, &S2, &Z2, a, &Y2, 0, 1), dnnlk_success);
            for (i = 0; i < 6; i++) CHECK_MSG(y2[i] == want[i], "axis %d [%d]: %g want %g", a, i, y2[i], want[i]);
        }
    }
}

/* ---- random layouts against the reference ---- */

typedef struct layout {
    int ndims;
    int64_t dims[4];
    int64_t strides[4];
    int64_t off;   /* element index of element 0 inside the buffer */
    int64_t span;  /* elements the buffer needs */
} layout;

/* A view of dims: dense, permuted, padded, reversed in one dim, or (inputs only) broadcast. */
static layout make_layout(int ndims, const int64_t *dims, int input) {
    layout L;
    int order[4], i, k = (int)th_randint(0, input ? 4 : 2);
    int64_t s = 1, lo = 0, hi = 0;
    L.ndims = ndims;
    for (i = 0; i < ndims; i++) L.dims[i] = dims[i], order[i] = i;
    if (k == 1 && ndims > 1) { /* permuted: a random dim innermost */
        int j = (int)th_randint(0, ndims - 1), t = order[j];
        order[j] = order[ndims - 1];
        order[ndims - 1] = t;
    }
    for (i = ndims - 1; i >= 0; i--) {
        int d = order[i];
        int64_t step = (k == 2 && i == ndims - 1) ? th_randint(2, 3) : 1;
        L.strides[d] = s * step;
        s *= (dims[d] > 0 ? dims[d] : 1) * step + (k == 2 ? th_randint(0, 2) : 0);
    }
    /* reversed dim: not one of stride 1, whose negation would read as DNNLK_UNKNOWN */
    if (k == 3 && ndims > 0) {
        int d = (int)th_randint(0, ndims - 1);
        if (L.strides[d] != 1) L.strides[d] *= -1;
    }
    if (k == 4 && ndims > 0) L.strides[th_randint(0, ndims - 1)] = 0;
    for (i = 0; i < ndims; i++) {
        int64_t e = (dims[i] > 0 ? dims[i] - 1 : 0) * L.strides[i];
        if (e < 0) lo += e;
        else hi += e;
    }
    L.off = -lo;
    L.span = hi - lo + 1;
    return L;
}

static int64_t offset_of(const layout *L, const int64_t *idx) {
    int64_t o = L->off;
    int i;
    for (i = 0; i < L->ndims; i++) o += idx[i] * L->strides[i];
    return o;
}

static dnnlk_tensor view(const layout *L, void *buf, dnnlk_dtype t) {
    return th_strided(buf, L->off, t, L->ndims, L->dims, L->strides);
}

static float special_or_random(float scale) {
    switch (th_randint(0, 24)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 1e-40f; /* denormal */
    case 4: return 3e38f;
    case 5: return (float)(th_randint(-300, 300) + 0.5) * scale; /* ties when scale is a power of 2 */
    default: return th_randf(-300.0f, 300.0f) * scale;
    }
}

static void random_case(int dequant) {
    static const dnnlk_dtype fts[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    int ndims = (int)th_randint(0, 4), i, per_channel, axis = 0, ax = -1, nth_i;
    int64_t dims[4], n = 1, nc = 1, idx[4];
    dnnlk_dtype ft = fts[th_randint(0, 2)], qt = th_randint(0, 1) ? dnnlk_s8 : dnnlk_u8, st = fts[th_randint(0, 2)];
    int sgn = qt == dnnlk_s8, use_zp = (int)th_randint(0, 3) != 0;
    dnnlk_dtype xt = dequant ? qt : ft, yt = dequant ? ft : qt;
    size_t xe = dnnlk_dtype_size(xt), ye = dnnlk_dtype_size(yt);
    layout lx, ly, ls;
    th_buf xb, yb, sb, zb, want;
    float scale_base;
    int sstride;
    for (i = 0; i < ndims; i++) {
        dims[i] = th_randint(0, 9) == 0 ? th_randint(0, 1) : th_randint(1, i == ndims - 1 ? 70 : 6);
        n *= dims[i];
    }
    per_channel = ndims > 0 && th_randint(0, 1);
    if (per_channel) {
        ax = (int)th_randint(0, ndims - 1);
        axis = th_randint(0, 1) ? ax : ax - ndims;
        nc = th_randint(0, 5) == 0 ? 1 : dims[ax];
    }
    lx = make_layout(ndims, dims, 1);
    ly = make_layout(ndims, dims, 0);
    sstride = (int)th_randint(1, 2);
    {
        int64_t sd = nc;
        ls = make_layout(per_channel ? 1 : 0, &sd, 0);
        if (per_channel) ls.strides[0] = sstride, ls.span = (nc > 0 ? nc - 1 : 0) * sstride + 1;
    }
    xb = th_alloc((size_t)lx.span * xe, (size_t)th_randint(0, 7) * xe);
    yb = th_alloc((size_t)ly.span * ye, (size_t)th_randint(0, 7) * ye);
    sb = th_alloc((size_t)ls.span * dnnlk_dtype_size(st), (size_t)th_randint(0, 3) * dnnlk_dtype_size(st));
    zb = th_alloc((size_t)ls.span, (size_t)th_randint(0, 3));
    want = th_alloc((size_t)(n > 0 ? n : 1) * 4, 0);
    scale_base = th_randint(0, 1) ? 1.0f / (float)(1 << th_randint(0, 6)) : th_randf(0.001f, 3.0f);
    for (i = 0; i < ls.span; i++) {
        float s = scale_base * (th_randint(0, 1) ? 1.0f : 2.0f);
        store_f((char *)sb.p + i * (int64_t)dnnlk_dtype_size(st), st, s);
        ((uint8_t *)zb.p)[i] = (uint8_t)th_randint(0, 255);
    }
    for (i = 0; i < lx.span; i++) {
        if (dequant) ((uint8_t *)xb.p)[i] = (uint8_t)th_rand32();
        else store_f((char *)xb.p + i * (int64_t)xe, xt, special_or_random(scale_base));
    }
    /* expected values in row-major order */
    memset(idx, 0, sizeof idx);
    if (n > 0) {
        int64_t k = 0;
        do {
            int64_t c = per_channel && nc > 1 ? idx[ax] : 0;
            float s = dnnlk__load_as_f32((char *)sb.p + c * sstride * (int64_t)dnnlk_dtype_size(st), st);
            int zp = use_zp ? load_q((char *)zb.p + c * (per_channel ? sstride : 1), qt) : 0;
            const char *xp = (const char *)xb.p + offset_of(&lx, idx) * (int64_t)xe;
            float *w = (float *)want.p + k++;
            if (dequant) {
                float r = ref_dequantize(load_q(xp, qt), zp, s);
                if (yt == dnnlk_f32) *w = r;
                else if (yt == dnnlk_bf16) *w = dnnlk_bf16_to_f32(dnnlk_f32_to_bf16(r));
                else *w = dnnlk_f16_to_f32(dnnlk_f32_to_f16(r));
            } else {
                *w = (float)ref_quantize(dnnlk__load_as_f32(xp, xt), s, zp, sgn);
            }
        } while (th_next_index(ndims, dims, idx));
    }
    for (nth_i = 0; nth_i < 4; nth_i++) {
        static const int nths[4] = {1, 2, 3, 7};
        int nth = nths[nth_i], part, bad = 0;
        dnnlk_tensor X = view(&lx, xb.p, xt), Y = view(&ly, yb.p, yt), S, Z;
        dnnlk_tensor *Zp = NULL;
        S = view(&ls, sb.p, st);
        Z = view(&ls, zb.p, qt);
        if (use_zp) Zp = &Z;
        memset(yb.p, 0x5a, yb.bytes);
        for (part = nth - 1; part >= 0; part--) {
            dnnlk_status r = dequant ? dnnlk_dequantize(&X, &S, Zp, axis, &Y, part, nth)
                                     : dnnlk_quantize(&X, &S, Zp, axis, &Y, part, nth);
            CHECK_MSG(r == dnnlk_success, "status %d: x nd %d dims %lld st %lld, y st %lld, s nd %d", r, X.ndims, (long long)X.dims[0], (long long)X.strides[0], (long long)Y.strides[0], S.ndims);
        }
        memset(idx, 0, sizeof idx);
        if (n > 0) {
            int64_t k = 0;
            do {
                const char *yp = (const char *)yb.p + offset_of(&ly, idx) * (int64_t)ye;
                float got = dequant ? dnnlk__load_as_f32(yp, yt) : (float)load_q(yp, qt);
                float w = ((float *)want.p)[k++];
                if (!(got == w || (got != got && w != w)) && bad++ < 3)
                    CHECK_MSG(0, "%s %s->%s nd=%d per_channel=%d nth=%d elem %lld: got %g want %g",
                              dequant ? "dequantize" : "quantize", dnnlk_dtype_name(xt), dnnlk_dtype_name(yt),
                              ndims, per_channel, nth, (long long)(k - 1), got, w);
            } while (th_next_index(ndims, dims, idx));
        }
        CHECK(th_guards_ok(&yb));
    }
    th_free(&xb); th_free(&yb); th_free(&sb); th_free(&zb); th_free(&want);
}

TEST(quantize_random_layouts) {
    long i, n = th_scaled(400);
    th_seed(11 + (uint64_t)th_isa);
    for (i = 0; i < n; i++) random_case(0);
}

TEST(dequantize_random_layouts) {
    long i, n = th_scaled(400);
    th_seed(23 + (uint64_t)th_isa);
    for (i = 0; i < n; i++) random_case(1);
}

/* Every vector length and tail, with contiguous rows and per-channel along the row. */
TEST(tails_and_alignment) {
    int64_t len;
    th_seed(5);
    for (len = 0; len <= 2 * 64 + 3; len++) {
        int mis;
        for (mis = 0; mis < 4; mis++) {
            th_buf xb = th_alloc((size_t)len * 4, (size_t)mis * 4), yb = th_alloc((size_t)len, (size_t)mis);
            th_buf sb = th_alloc((size_t)len * 4, 0), db = th_alloc((size_t)len * 4, (size_t)mis * 4);
            float *x = (float *)xb.p, *s = (float *)sb.p;
            int8_t *y = (int8_t *)yb.p;
            int64_t i;
            dnnlk_tensor X = th_tensor(x, dnnlk_f32, 1, &len), S = th_tensor(s, dnnlk_f32, 1, &len);
            dnnlk_tensor Y = th_tensor(y, dnnlk_s8, 1, &len), D = th_tensor(db.p, dnnlk_f32, 1, &len);
            for (i = 0; i < len; i++) x[i] = special_or_random(0.25f), s[i] = 0.25f * (float)(1 + (i & 3));
            CHECK_EQ(dnnlk_quantize(&X, &S, NULL, 0, &Y, 0, 1), dnnlk_success);
            for (i = 0; i < len; i++) CHECK_EQ(y[i], ref_quantize(x[i], s[i], 0, 1));
            CHECK_EQ(dnnlk_dequantize(&Y, &S, NULL, 0, &D, 0, 1), dnnlk_success);
            for (i = 0; i < len; i++) CHECK(((float *)db.p)[i] == ref_dequantize(y[i], 0, s[i]));
            CHECK(th_guards_ok(&yb) && th_guards_ok(&db));
            th_free(&xb); th_free(&yb); th_free(&sb); th_free(&db);
        }
    }
}

/* Large enough to take the non-temporal path; odd offsets so the aligned head is exercised. */
TEST(streaming_path) {
    int64_t n = (int64_t)9 << 20, i;
    th_buf xb = th_alloc((size_t)n * 4, 4), yb = th_alloc((size_t)n, 3), db = th_alloc((size_t)n * 4, 8);
    float *x = (float *)xb.p, s = 0.125f, *d = (float *)db.p;
    uint8_t *y = (uint8_t *)yb.p, z = 7;
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 1, &n), S = scalar_t(&s, dnnlk_f32), Z = scalar_t(&z, dnnlk_u8);
    dnnlk_tensor Y = th_tensor(y, dnnlk_u8, 1, &n), D = th_tensor(d, dnnlk_f32, 1, &n);
    int nth, part, bad = 0;
    for (i = 0; i < n; i++) x[i] = (float)((i * 2654435761u) % 4096u) / 64.0f - 8.0f;
    for (nth = 1; nth <= 3; nth += 2) {
        for (part = 0; part < nth; part++) CHECK_EQ(dnnlk_quantize(&X, &S, &Z, 0, &Y, part, nth), dnnlk_success);
        for (part = 0; part < nth; part++) CHECK_EQ(dnnlk_dequantize(&Y, &S, &Z, 0, &D, part, nth), dnnlk_success);
        for (i = 0; i < n && bad < 3; i++) {
            int q = ref_quantize(x[i], s, 7, 0);
            if (y[i] != q || d[i] != ref_dequantize(q, 7, s)) {
                bad++;
                CHECK_MSG(0, "elem %lld", (long long)i);
            }
        }
    }
    CHECK(th_guards_ok(&yb) && th_guards_ok(&db));
    th_free(&xb); th_free(&yb); th_free(&db);
}


/* ---- the reciprocal fast path (x * (1/scale) plus an exactness test, else the division) ----
 * Inputs sit exactly at, and a few ulp around, fl(h * scale) for half-integers h (the rounding
 * boundaries, the saturation bounds included), for scales whose reciprocal is inexact, exact,
 * or at the edges of the range (1/scale subnormal or overflowing: those must divide). */

/* One quantize call over n contiguous elements of x (dtype xt) per tensor, or per channel over
 * [rows, n / rows] with axis 0; compared with the division reference for every part count. */
static void check_quantize_block(const void *x, dnnlk_dtype xt, int64_t n, int64_t rows, const float *sc,
                                 const uint8_t *zp, dnnlk_dtype qt, const char *what) {
    int64_t dims[2] = {rows, n / rows}, i;
    int sgn = qt == dnnlk_s8, nth, bad = 0;
    th_buf yb = th_alloc((size_t)n, (size_t)th_randint(0, 3));
    dnnlk_tensor X = th_tensor((void *)x, xt, 2, dims), Y = th_tensor(yb.p, qt, 2, dims);
    dnnlk_tensor S = rows > 1 ? th_tensor((void *)sc, dnnlk_f32, 1, &rows) : scalar_t((void *)sc, dnnlk_f32);
    dnnlk_tensor Z = rows > 1 ? th_tensor((void *)zp, qt, 1, &rows) : scalar_t((void *)zp, qt);
    for (nth = 1; nth <= 3; nth += 2) {
        int part;
        memset(yb.p, 0x5a, (size_t)n);
        for (part = 0; part < nth; part++) CHECK_EQ(dnnlk_quantize(&X, &S, &Z, 0, &Y, part, nth), dnnlk_success);
        for (i = 0; i < n && bad < 3; i++) {
            int64_t r = rows > 1 ? i / dims[1] : 0;
            float xv = dnnlk__load_as_f32((const char *)x + i * (int64_t)dnnlk_dtype_size(xt), xt);
            int want = ref_quantize(xv, sc[r], load_q(zp + r, qt), sgn);
            int got = load_q((const uint8_t *)yb.p + i, qt);
            if (got != want) {
                bad++;
                CHECK_MSG(0, "%s %s->%s scale %a x %a (x/s %a) nth %d: got %d want %d", what, dnnlk_dtype_name(xt),
                          dnnlk_dtype_name(qt), (double)sc[r], (double)xv, (double)(xv / sc[r]), nth, got, want);
            }
        }
    }
    CHECK(th_guards_ok(&yb));
    th_free(&yb);
}

/* A random scale: log-uniform over [2^e0, 2^e1] with a random mantissa (1/scale then inexact
 * for almost all), or occasionally a power of two. */
static float random_scale(int e0, int e1) {
    float m = th_randint(0, 7) == 0 ? 1.0f : th_randf(1.0f, 2.0f);
    return ldexpf(m, (int)th_randint(e0, e1));
}

/* n values of dtype xt at and around the half-integer boundaries times s. */
static void fill_boundaries(void *buf, dnnlk_dtype xt, int64_t n, float s) {
    int64_t i;
    for (i = 0; i < n; i++) {
        double h = (double)th_randint(-390, 390) + 0.5; /* past every saturation bound too */
        float b = (float)(h * (double)s), v = b;
        int k = (int)th_randint(-3, 3);
        if (th_randint(0, 15) == 0) v = th_randf(-400.0f, 400.0f) * s;
        if (xt == dnnlk_f32) {
            for (; k > 0; k--) v = nextafterf(v, INFINITY);
            for (; k < 0; k++) v = nextafterf(v, -INFINITY);
            ((float *)buf)[i] = v;
        } else {
            /* the nearest value of the narrow type, then k steps of its encoding (same sign) */
            uint16_t e = xt == dnnlk_bf16 ? dnnlk_f32_to_bf16(v) : dnnlk_f32_to_f16(v);
            if ((e & 0x7fff) > (uint16_t)(3 + (k < 0 ? -k : k)) && (e & 0x7fff) < 0x7c00 - 8) e = (uint16_t)(e + k);
            ((uint16_t *)buf)[i] = e;
        }
    }
}

TEST(quantize_recip_boundaries) {
    static const float fixed[] = {0.1f, 0.3f, 1.0f / 3.0f, 3.0f, 7.0f, 0.007f, 1e-3f, 12345.678f, 0.25f, 1.0f,
                                  1.17549435e-38f /* 2^-126: 1/s = 2^126, the smallest on the fast path */,
                                  1.7e-38f, 1.0e-38f /* 1/s overflows no longer, but s is subnormal */,
                                  1e-40f, 1.4e-45f, 8.50705917e37f /* 2^126 */, 9e37f /* 1/s subnormal */,
                                  3.4028235e38f, 1e-30f, 1e30f};
    static const dnnlk_dtype xts[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    const int64_t n = 1024;
    int nfixed = (int)(sizeof fixed / sizeof fixed[0]), k, nk = nfixed + (int)th_scaled(160);
    th_buf xb = th_alloc((size_t)n * 4, 4);
    th_seed(41 + (uint64_t)th_isa);
    for (k = 0; k < nk; k++) {
        float s = k < nfixed ? fixed[k] : random_scale(-24, 24);
        dnnlk_dtype qt = th_randint(0, 1) ? dnnlk_s8 : dnnlk_u8, xt = xts[k % 3];
        uint8_t z = (uint8_t)th_randint(0, 255);
        if (xt == dnnlk_f16 && !(s > 1e-3f && s < 0.1f)) xt = dnnlk_f32; /* f16 holds |x| <= 65504 */
        if (xt == dnnlk_bf16 && k < nfixed) xt = dnnlk_f32;
        fill_boundaries(xb.p, xt, n, s);
        check_quantize_block(xb.p, xt, n, 1, &s, &z, qt, "per-tensor");
    }
    /* per channel, axis 0: 16 rows with scales of every kind, zero points at the extremes too */
    for (k = 0; k < th_scaled(40); k++) {
        float sc[16];
        uint8_t zp[16];
        dnnlk_dtype qt = (k & 1) ? dnnlk_s8 : dnnlk_u8;
        int64_t r;
        for (r = 0; r < 16; r++) {
            sc[r] = th_randint(0, 5) == 0 ? fixed[th_randint(0, nfixed - 1)] : random_scale(-20, 20);
            zp[r] = (uint8_t)(th_randint(0, 3) == 0 ? (th_randint(0, 1) ? 0x80 : 0x7f) : th_randint(0, 255));
            fill_boundaries((float *)xb.p + r * (n / 16), dnnlk_f32, n / 16, sc[r]);
        }
        check_quantize_block(xb.p, dnnlk_f32, n, 16, sc, zp, qt, "per-channel");
    }
    th_free(&xb);
}

/* Many scales times a dense grid: x = fl(i * scale / 256), so x / scale walks [-300, 300] in steps
 * of 1/256, landing on and next to every boundary; plus specials in the same vectors. */
TEST(quantize_recip_bruteforce) {
    const int64_t n = 256 * 600 + 64;
    int k, nk = (int)th_scaled(40);
    th_buf xb = th_alloc((size_t)n * 4, 0);
    float *x = (float *)xb.p;
    th_seed(43 + (uint64_t)th_isa);
    for (k = 0; k < nk; k++) {
        float s = k == 0 ? 0.1f : random_scale(-30, 30);
        uint8_t z = (uint8_t)th_randint(0, 255);
        int64_t i;
        for (i = 0; i < n - 64; i++) x[i] = (float)((double)(i - 256 * 300) * (double)s / 256.0);
        for (; i < n; i++) x[i] = special_or_random(s);
        check_quantize_block(x, dnnlk_f32, n, 1, &s, &z, (k & 1) ? dnnlk_s8 : dnnlk_u8, "grid");
    }
    th_free(&xb);
}

#if DNNLK__X86
/* FTZ/DAZ on: every ISA gives what the scalar ISA gives (denormal x and scale count as 0). */
TEST(ftz_daz_matches_scalar) {
    unsigned csr = _mm_getcsr();
    float x[40], s[40];
    int8_t ys[40], yv[40];
    float ds[40], dv[40];
    int64_t n = 40, i;
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 1, &n), S = th_tensor(s, dnnlk_f32, 1, &n);
    dnnlk_tensor Ys = th_tensor(ys, dnnlk_s8, 1, &n), Yv = th_tensor(yv, dnnlk_s8, 1, &n);
    dnnlk_tensor Ds = th_tensor(ds, dnnlk_f32, 1, &n), Dv = th_tensor(dv, dnnlk_f32, 1, &n);
    dnnlk_isa top = dnnlk_max_isa();
    for (i = 0; i < n; i++) x[i] = (i & 1) ? 3e-39f * (float)i : 1.0f, s[i] = (i & 2) ? 2e-38f : 4e-38f;
    _mm_setcsr(csr | 0x8040);
    dnnlk_set_max_isa(dnnlk_isa_scalar);
    CHECK_EQ(dnnlk_quantize(&X, &S, NULL, 0, &Ys, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_dequantize(&Ys, &S, NULL, 0, &Ds, 0, 1), dnnlk_success);
    dnnlk_set_max_isa(top);
    CHECK_EQ(dnnlk_quantize(&X, &S, NULL, 0, &Yv, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_dequantize(&Yv, &S, NULL, 0, &Dv, 0, 1), dnnlk_success);
    _mm_setcsr(csr);
    CHECK(memcmp(ys, yv, sizeof ys) == 0);
    CHECK(memcmp(ds, dv, sizeof ds) == 0);
}
/* FTZ/DAZ on, one scale per tensor (the reciprocal path where 1/scale is normal): every ISA gives
 * what the scalar ISA gives, for scales at both ends of the range and denormal or tiny x. */
TEST(ftz_daz_per_tensor) {
    static const float scales[] = {1.17549435e-38f, 2e-38f, 4e-38f, 1e-38f, 1e-40f, 8.50705917e37f, 9e37f, 3e38f, 0.1f};
    unsigned csr = _mm_getcsr();
    float x[200];
    int8_t ys[200], yv[200];
    int64_t n = 200, i;
    unsigned k;
    dnnlk_isa top = dnnlk_max_isa();
    th_seed(47);
    for (k = 0; k < sizeof scales / sizeof scales[0]; k++) {
        float s = scales[k];
        dnnlk_tensor X = th_tensor(x, dnnlk_f32, 1, &n), S = scalar_t(&s, dnnlk_f32);
        dnnlk_tensor Ys = th_tensor(ys, dnnlk_s8, 1, &n), Yv = th_tensor(yv, dnnlk_s8, 1, &n);
        for (i = 0; i < n; i++) {
            switch (i % 5) {
            case 0: x[i] = 3e-39f * (float)(i - 100); break;            /* denormal */
            case 1: x[i] = s * ((float)(i - 100) * 0.5f + 0.25f); break;  /* away from boundaries */
            case 2: x[i] = (float)(i - 100) * 0.5f * s; break;            /* half-integers */
            case 3: x[i] = th_randf(-1e-37f, 1e-37f); break;
            default: x[i] = special_or_random(s); break;
            }
        }
        dnnlk_status st1, st2;
        memset(ys, 0, sizeof ys);
        memset(yv, 0, sizeof yv);
        _mm_setcsr(csr | 0x8040);
        dnnlk_set_max_isa(dnnlk_isa_scalar);
        st1 = dnnlk_quantize(&X, &S, NULL, 0, &Ys, 0, 1);
        dnnlk_set_max_isa(top);
        st2 = dnnlk_quantize(&X, &S, NULL, 0, &Yv, 0, 1);
        _mm_setcsr(csr);
        /* a denormal scale reads as 0 under DAZ: refused alike */
        CHECK_EQ(st1, st2);
        CHECK_EQ(st1, (s < 1.17549435e-38f ? dnnlk_invalid_arguments : dnnlk_success));
        CHECK_MSG(memcmp(ys, yv, sizeof ys) == 0, "scale %g", (double)s);
    }
}
#endif

/* ---- bad arguments: the right status and nothing written ---- */

TEST(bad_arguments) {
    float x[12], s = 1.0f, sv[3] = {1, 2, 3}, bads[5] = {0.0f, -1.0f, NAN, INFINITY, -0.0f};
    int64_t d[2] = {4, 3}, d3 = 3, d4 = 4;
    th_buf yb = th_alloc(12, 0), fb = th_alloc(48, 0);
    int8_t q[12] = {0}, z = 0;
    uint8_t zu = 0;
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 2, d), S = scalar_t(&s, dnnlk_f32), SV = th_tensor(sv, dnnlk_f32, 1, &d3);
    dnnlk_tensor Y = th_tensor(yb.p, dnnlk_s8, 2, d), Z = scalar_t(&z, dnnlk_s8), ZU = scalar_t(&zu, dnnlk_u8);
    dnnlk_tensor Q = th_tensor(q, dnnlk_s8, 2, d), F = th_tensor(fb.p, dnnlk_f32, 2, d), T;
    int i;
    memset(x, 0, sizeof x);
#define EXPECT_Q(call, status)                                                          \
    do {                                                                                \
        dnnlk_tensor y0 = Y, f0 = F;                                                    \
        CHECK_EQ(call, status);                                                         \
        CHECK(th_guards_ok(&yb) && th_guards_ok(&fb));                                  \
        for (i = 0; i < 12; i++) CHECK(((uint8_t *)yb.p)[i] == TH_GUARD_BYTE);          \
        for (i = 0; i < 48; i++) CHECK(((uint8_t *)fb.p)[i] == TH_GUARD_BYTE);          \
        CHECK(memcmp(&y0, &Y, sizeof Y) == 0 && memcmp(&f0, &F, sizeof F) == 0);         \
    } while (0)
    memset(yb.p, TH_GUARD_BYTE, 12);
    memset(fb.p, TH_GUARD_BYTE, 48);
    EXPECT_Q(dnnlk_quantize(NULL, &S, NULL, 0, &Y, 0, 1), dnnlk_invalid_arguments);
    EXPECT_Q(dnnlk_quantize(&X, NULL, NULL, 0, &Y, 0, 1), dnnlk_invalid_arguments);
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 0, NULL, 0, 1), dnnlk_invalid_arguments);
    for (i = 0; i < 5; i++) {
        s = bads[i];
        EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 0, &Y, 0, 1), dnnlk_invalid_arguments);
        EXPECT_Q(dnnlk_dequantize(&Q, &S, NULL, 0, &F, 0, 1), dnnlk_invalid_arguments);
        T = Y;
        EXPECT_Q(dnnlk_quantize_infer(&X, &S, NULL, 0, &T), dnnlk_invalid_arguments);
    }
    s = 1.0f;
    sv[2] = NAN;
    EXPECT_Q(dnnlk_quantize(&X, &SV, NULL, 1, &Y, 0, 1), dnnlk_invalid_arguments);
    sv[2] = 3;
    EXPECT_Q(dnnlk_quantize(&X, &SV, NULL, 2, &Y, 0, 1), dnnlk_invalid_arguments);  /* axis out of range */
    EXPECT_Q(dnnlk_quantize(&X, &SV, NULL, -3, &Y, 0, 1), dnnlk_invalid_arguments);
    /* per-tensor does not use axis, yet it must be in range too (the README's attribute rule) */
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 99, &Y, 0, 1), dnnlk_invalid_arguments);
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 2, &Y, 0, 1), dnnlk_invalid_arguments);
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, -3, &Y, 0, 1), dnnlk_invalid_arguments);
    EXPECT_Q(dnnlk_dequantize(&Q, &S, NULL, 99, &F, 0, 1), dnnlk_invalid_arguments);
    T = Y;
    EXPECT_Q(dnnlk_quantize_infer(&X, &S, NULL, 99, &T), dnnlk_invalid_arguments);
    {
        /* in range, per-tensor: any axis of x; a 0-d x counts as 1-d (axis -1 or 0) */
        float x0 = 2.0f;
        int8_t q0 = 0;
        dnnlk_tensor X0 = scalar_t(&x0, dnnlk_f32), Q0 = scalar_t(&q0, dnnlk_s8), T0 = Y;
        CHECK_EQ(dnnlk_quantize_infer(&X, &S, NULL, -2, &T0), dnnlk_success);
        T0 = Y;
        CHECK_EQ(dnnlk_quantize_infer(&X, &S, NULL, 1, &T0), dnnlk_success);
        CHECK_EQ(dnnlk_quantize(&X0, &S, NULL, -1, &Q0, 0, 1), dnnlk_success);
        CHECK_EQ(q0, 2);
        q0 = 0;
        CHECK_EQ(dnnlk_quantize(&X0, &S, NULL, 1, &Q0, 0, 1), dnnlk_invalid_arguments);
        CHECK_EQ(q0, 0);
    }
    EXPECT_Q(dnnlk_quantize(&X, &SV, NULL, 0, &Y, 0, 1), dnnlk_invalid_shape);      /* 3 scales, dim 4 */
    EXPECT_Q(dnnlk_quantize(&X, &S, &ZU, 0, &Y, 0, 1), dnnlk_invalid_data_type);    /* zp u8, y s8 */
    EXPECT_Q(dnnlk_quantize(&X, &SV, &Z, 1, &Y, 0, 1), dnnlk_invalid_shape);        /* zp 0-d, scale 1-d */
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 0, &Y, 1, 1), dnnlk_invalid_arguments);   /* bad parts */
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 0, &Y, -1, 2), dnnlk_invalid_arguments);
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 0, &Y, 0, 0), dnnlk_invalid_arguments);
    EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 0, &F, 0, 1), dnnlk_invalid_data_type);   /* y float */
    EXPECT_Q(dnnlk_quantize(&Q, &S, NULL, 0, &Y, 0, 1), dnnlk_invalid_data_type);   /* x s8 */
    EXPECT_Q(dnnlk_dequantize(&X, &S, NULL, 0, &F, 0, 1), dnnlk_invalid_data_type); /* x f32 */
    EXPECT_Q(dnnlk_dequantize(&Q, &S, NULL, 0, &Y, 0, 1), dnnlk_invalid_data_type); /* y s8 */
    EXPECT_Q(dnnlk_dequantize(&Q, &S, &ZU, 0, &F, 0, 1), dnnlk_invalid_data_type);
    {
        dnnlk_tensor Sb = S, Y2 = Y, X2 = X;
        Sb.dtype = dnnlk_s32;
        EXPECT_Q(dnnlk_quantize(&X, &Sb, NULL, 0, &Y, 0, 1), dnnlk_invalid_data_type);
        Y2.dims[0] = 5;
        EXPECT_Q(dnnlk_quantize(&X, &S, NULL, 0, &Y2, 0, 1), dnnlk_invalid_shape);
        X2.data = NULL;
        EXPECT_Q(dnnlk_quantize(&X2, &S, NULL, 0, &Y, 0, 1), dnnlk_invalid_arguments);
        Y2 = F; /* dequantize output over its own input */
        Y2.data = q;
        Y2.dtype = dnnlk_f32;
        Y2.dims[0] = 3;
        Y2.dims[1] = 1;
        {
            dnnlk_tensor Q1 = Q;
            Q1.dims[0] = 3;
            Q1.dims[1] = 1;
            EXPECT_Q(dnnlk_dequantize(&Q1, &S, NULL, 0, &Y2, 0, 1), dnnlk_invalid_arguments);
        }
        (void)d4;
    }
#undef EXPECT_Q
    th_free(&yb);
    th_free(&fb);
}

TEST(infer_completes_output) {
    float s[3] = {1, 2, 3};
    int64_t d[3] = {2, 3, 5}, d3 = 3;
    dnnlk_tensor X = th_tensor(NULL, dnnlk_f32, 3, d), S = th_tensor(s, dnnlk_f32, 1, &d3), Y;
    memset(&Y, 0, sizeof Y);
    Y.dtype = dnnlk_u8;
    Y.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_quantize_infer(&X, &S, NULL, 1, &Y), dnnlk_success);
    CHECK(Y.ndims == 3 && Y.dims[2] == 5 && Y.strides[0] == 15 && Y.strides[1] == 5 && Y.strides[2] == 1);
    Y.ndims = 3;
    Y.dims[0] = Y.dims[1] = Y.dims[2] = DNNLK_UNKNOWN;
    Y.strides[0] = DNNLK_UNKNOWN, Y.strides[1] = 1, Y.strides[2] = DNNLK_UNKNOWN;
    Y.dtype = dnnlk_f16;
    X.dtype = dnnlk_s8;
    CHECK_EQ(dnnlk_dequantize_infer(&X, &S, NULL, -2, &Y), dnnlk_success);
    CHECK(Y.strides[0] == 15 && Y.strides[1] == 1 && Y.strides[2] == 3);
}

/* ---- recorded bits: every level's outputs on fixed inputs, against hashes recorded on 8f1051f
 * (the hand-written scalar path and the per-ISA byte packing still in place). Quantize and
 * dequantize are exact: every level and every part count must give the same bytes. Inputs are
 * built without the harness's random state, so they cannot drift with it. DNNLK_TEST_RECORD=1
 * prints the table instead of checking it (rerun only when results change on purpose). ---- */

enum {
    qb_q_f32_s8_stream, qb_q_f32_u8_zp, qb_q_f32_s8_grid, qb_q_bf16_s8_chan, qb_q_f16_u8_chan_ax0_xstr,
    qb_q_f32_s8_ystr, qb_q_f32_u8_chan_sstr_bf16, qb_q_f32_s8_tiny_scale, qb_q_f16_s8_huge_scale,
    qb_dq_s8_f32_stream, qb_dq_u8_f32_zp, qb_dq_u8_bf16_chan, qb_dq_s8_f16_xstr, qb_dq_u8_f32_chan_sstr,
    qb_dq_s8_f32_ystr, qb_n_cases
};
static const char *const qb_name[qb_n_cases] = {
    "q f32->s8 streamed, misaligned", "q f32->u8 zp, odd n", "q f32->s8 near-tie grid", "q bf16->s8 per-channel",
    "q f16->u8 per-channel ax0, x stride 2", "q f32->s8 y stride 3", "q f32->u8 per-ch bf16 scale str",
    "q f32->s8 scale 1e-38 (divides)", "q f16->s8 scale 3e38 (divides)", "dq s8->f32 streamed, misaligned",
    "dq u8->f32 zp, odd n", "dq u8->bf16 per-channel", "dq s8->f16 x stride 2", "dq u8->f32 per-ch f16 scale str",
    "dq s8->f32 y stride 2"};

/* Recorded on 8f1051f (gcc and clang, -O2 and ASan, the same): scalar, sse41, avx2, avx512. */
static const uint64_t qb_recorded[qb_n_cases][4] = {
    /* q f32->s8 streamed, misaligned           */ {0xffeacb2c96eb12f6ull, 0xffeacb2c96eb12f6ull, 0xffeacb2c96eb12f6ull, 0xffeacb2c96eb12f6ull},
    /* q f32->u8 zp, odd n                      */ {0xf723afbc0d02a1fdull, 0xf723afbc0d02a1fdull, 0xf723afbc0d02a1fdull, 0xf723afbc0d02a1fdull},
    /* q f32->s8 near-tie grid                  */ {0xd085ce0c37a1f303ull, 0xd085ce0c37a1f303ull, 0xd085ce0c37a1f303ull, 0xd085ce0c37a1f303ull},
    /* q bf16->s8 per-channel                   */ {0x8686793449f49e05ull, 0x8686793449f49e05ull, 0x8686793449f49e05ull, 0x8686793449f49e05ull},
    /* q f16->u8 per-channel ax0, x stride 2    */ {0x8fffdb5fddd32e01ull, 0x8fffdb5fddd32e01ull, 0x8fffdb5fddd32e01ull, 0x8fffdb5fddd32e01ull},
    /* q f32->s8 y stride 3                     */ {0xc988d0d7a940fe2cull, 0xc988d0d7a940fe2cull, 0xc988d0d7a940fe2cull, 0xc988d0d7a940fe2cull},
    /* q f32->u8 per-ch bf16 scale str          */ {0xc59efad854e3484cull, 0xc59efad854e3484cull, 0xc59efad854e3484cull, 0xc59efad854e3484cull},
    /* q f32->s8 scale 1e-38 (divides)          */ {0x7c4ac32da07fc713ull, 0x7c4ac32da07fc713ull, 0x7c4ac32da07fc713ull, 0x7c4ac32da07fc713ull},
    /* q f16->s8 scale 3e38 (divides)           */ {0xf9c47e8885c1e811ull, 0xf9c47e8885c1e811ull, 0xf9c47e8885c1e811ull, 0xf9c47e8885c1e811ull},
    /* dq s8->f32 streamed, misaligned          */ {0x53a7cc092c7a079aull, 0x53a7cc092c7a079aull, 0x53a7cc092c7a079aull, 0x53a7cc092c7a079aull},
    /* dq u8->f32 zp, odd n                     */ {0x8c6687270c3aab93ull, 0x8c6687270c3aab93ull, 0x8c6687270c3aab93ull, 0x8c6687270c3aab93ull},
    /* dq u8->bf16 per-channel                  */ {0x9137516058cb78a9ull, 0x9137516058cb78a9ull, 0x9137516058cb78a9ull, 0x9137516058cb78a9ull},
    /* dq s8->f16 x stride 2                    */ {0x9410bd2f14ec445dull, 0x9410bd2f14ec445dull, 0x9410bd2f14ec445dull, 0x9410bd2f14ec445dull},
    /* dq u8->f32 per-ch f16 scale str          */ {0xead61c865589ab47ull, 0xead61c865589ab47ull, 0xead61c865589ab47ull, 0xead61c865589ab47ull},
    /* dq s8->f32 y stride 2                    */ {0x03f1662ded3630ccull, 0x03f1662ded3630ccull, 0x03f1662ded3630ccull, 0x03f1662ded3630ccull},
};

#define QB_N 4099      /* odd: every level has a tail */
#define QB_NS 300037   /* over DNNLK_QUANT_NT_BYTES (set below for this program) as u8 */

/* Specials first (zeros, infinities, NaNs, denormals, ties, the saturation bounds), then bit
 * patterns over every exponent, every third one a value on a grid of 1/64 in [-160, 160). */
static float qb_x(int64_t i, float s) {
    static const uint32_t special[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
                                       0x00000001u, 0x807fffffu, 0x7f7fffffu, 0xff7fffffu, 0x3f000000u,
                                       0xbf000000u, 0x3fc00000u, 0xc0200000u, 0x42fd0000u, 0x42ff0000u,
                                       0xc3008000u, 0x437f8000u, 0x437f0000u, 0x437e8000u};
    uint32_t u = (uint32_t)((uint64_t)i * 0x9E3779B1u);
    if (i < (int64_t)(sizeof special / sizeof special[0])) return dnnlk__f32_from_bits(special[i]) * s;
    if (i % 3 == 0) return (float)((int32_t)(u >> 8) % 20480 - 10240) * (1.0f / 64.0f) * s;
    if (i % 3 == 1) return (float)((int32_t)u >> 12) * (1.0f / 1024.0f) * s;
    return dnnlk__f32_from_bits(u);
}

/* Runs the case at the current level with nth parts (in reverse order) and hashes the output
 * bytes (y pre-filled, so bytes a stride skips are checked too; float outputs NaN-canonical). */
static th_buf qb_xb, qb_yb, qb_sb, qb_zb; /* allocated and freed by recorded_bits */
static uint64_t qb_case(int c, int nth) {
    int64_t dims[2], xst[2], yst[2], n, i, rows = 1, cols;
    dnnlk_tensor X, Y, S, Z, *Zp = NULL;
    dnnlk_dtype xt = dnnlk_f32, yt = dnnlk_s8, st = dnnlk_f32;
    int dq = c >= qb_dq_s8_f32_stream, chan = 0, axis = 1, part, nd = 1;
    int64_t xs = 1, ys = 1, ss = 1, xoff = 0, yoff = 0;
    float s1 = 0.37f;
    size_t ybytes;
    uint64_t h;
    th_buf xb = qb_xb, yb = qb_yb, sb = qb_sb, zb = qb_zb;
    n = QB_N;
    switch (c) {
    case qb_q_f32_s8_stream: n = QB_NS, yoff = 3, xoff = 1; break;
    case qb_q_f32_u8_zp: yt = dnnlk_u8, Zp = &Z; break;
    case qb_q_f32_s8_grid: s1 = 0.1f; break;
    case qb_q_bf16_s8_chan: xt = dnnlk_bf16, chan = 1, rows = 37, Zp = &Z; break;
    case qb_q_f16_u8_chan_ax0_xstr: xt = dnnlk_f16, yt = dnnlk_u8, chan = 1, rows = 29, axis = 0, xs = 2, Zp = &Z; break;
    case qb_q_f32_s8_ystr: ys = 3, Zp = &Z; break;
    case qb_q_f32_u8_chan_sstr_bf16: yt = dnnlk_u8, chan = 1, rows = 11, st = dnnlk_bf16, ss = 2, Zp = &Z; break;
    case qb_q_f32_s8_tiny_scale: s1 = 1e-38f; break;
    case qb_q_f16_s8_huge_scale: xt = dnnlk_f16, s1 = 3e38f; break;
    case qb_dq_s8_f32_stream: xt = dnnlk_s8, yt = dnnlk_f32, n = QB_NS / 4 + 3, yoff = 1, Zp = &Z; break;
    case qb_dq_u8_f32_zp: xt = dnnlk_u8, yt = dnnlk_f32, Zp = &Z; break;
    case qb_dq_u8_bf16_chan: xt = dnnlk_u8, yt = dnnlk_bf16, chan = 1, rows = 37, Zp = &Z; break;
    case qb_dq_s8_f16_xstr: xt = dnnlk_s8, yt = dnnlk_f16, xs = 2; break;
    case qb_dq_u8_f32_chan_sstr: xt = dnnlk_u8, yt = dnnlk_f32, chan = 1, rows = 13, axis = 0, st = dnnlk_f16, ss = 3, Zp = &Z; break;
    default: xt = dnnlk_s8, yt = dnnlk_f32, ys = 2, Zp = &Z; break;
    }
    cols = n / rows;
    n = rows * cols;
    if (rows > 1) nd = 2;
    dims[0] = rows, dims[1] = cols;
    if (nd == 1) dims[0] = n;
    /* x: contiguous or every xs-th element (the skipped ones never read) */
    for (i = 0; i < n; i++) {
        char *p = (char *)xb.p + (xoff + i * xs) * (int64_t)dnnlk_dtype_size(xt);
        if (!dq) {
            float v = qb_x(i, c == qb_q_f32_s8_grid ? 0.1f : 1.0f);
            if (c == qb_q_f32_s8_grid) v = (float)((i % 5120) - 2560) * 0.05f; /* x/0.1 near half-integers */
            store_f(p, xt, v);
        } else {
            *(uint8_t *)p = (uint8_t)(((uint64_t)i * 0x9E3779B97F4A7C15ull) >> 56);
        }
    }
    /* scales and zero points: per channel along axis, or one */
    {
        int64_t nc = chan ? dims[axis] : 1;
        for (i = 0; i < nc; i++) {
            float s = chan ? (float)(0.01 + 0.37 * (double)((i * 7) % 23)) : s1;
            store_f((char *)sb.p + i * ss * (int64_t)dnnlk_dtype_size(st), st, s);
            ((uint8_t *)zb.p)[i] = (uint8_t)(i * 37 + 5);
        }
        if (chan) {
            int64_t sdim = nc, sstr = ss, zstr = 1;
            S = th_strided(sb.p, 0, st, 1, &sdim, &sstr);
            Z = th_strided(zb.p, 0, dq ? xt : yt, 1, &sdim, &zstr);
        } else {
            S = th_tensor(sb.p, st, 0, NULL);
            Z = th_tensor(zb.p, dq ? xt : yt, 0, NULL);
        }
    }
    if (nd == 2) {
        xst[1] = xs, xst[0] = cols * xs, yst[1] = ys, yst[0] = cols * ys;
    } else {
        xst[0] = xs, yst[0] = ys;
    }
    X = th_strided(xb.p, xoff, xt, nd, dims, xst);
    ybytes = (size_t)(n * ys + yoff) * dnnlk_dtype_size(yt);
    memset(yb.p, 0x5a, ybytes);
    for (part = nth - 1; part >= 0; part--) {
        Y = th_strided(yb.p, yoff, yt, nd, dims, yst);
        CHECK_EQ(dq ? dnnlk_dequantize(&X, &S, Zp, chan ? axis : 0, &Y, part, nth)
                    : dnnlk_quantize(&X, &S, Zp, chan ? axis : 0, &Y, part, nth),
                 dnnlk_success);
    }
    if (yt == dnnlk_f32) h = th_fnv1a_f32((const float *)yb.p, ybytes / 4);
    else if (yt == dnnlk_bf16 || yt == dnnlk_f16) h = th_fnv1a_half((const uint16_t *)yb.p, ybytes / 2, yt == dnnlk_f16);
    else h = th_fnv1a(yb.p, ybytes);
    CHECK(th_guards_ok(&yb));
    return h;
}

/* One case at one level; 3 and 7 parts must give the bits of one. */
static uint64_t qb_case_at(int c, int cap, int *level) {
    static const int nths[] = {3, 7, 0};
    (void)cap;
    return th_bits_parts_agree(qb_case, c, nths, qb_name[c], *level);
}
static const char *qb_case_name(int c) { return qb_name[c]; }

TEST(recorded_bits) {
    uint64_t got[qb_n_cases][4];
    int ran[qb_n_cases][4], c, record;
    qb_xb = th_alloc((size_t)QB_NS * 4 * 2 + 64, 0);
    qb_yb = th_alloc((size_t)QB_NS * 4 * 3 + 64, 0);
    qb_sb = th_alloc(4096 * 4, 0);
    qb_zb = th_alloc(4096, 0);
    record = th_recorded_bits(qb_n_cases, qb_case_at, qb_case_name, 40, 0, qb_recorded, 0, got, ran);
    th_free(&qb_xb), th_free(&qb_yb), th_free(&qb_sb), th_free(&qb_zb);
    if (record) SKIP("DNNLK_TEST_RECORD: printed the table instead of checking it");
    for (c = 0; c < qb_n_cases; c++) th_bits_match_scalar(qb_name[c], got[c], ran[c]);
}

/* ==== issue #29: s16/u16/s4/u4, fp8 e4m3fn/e5m2, s32 dequantize input, blocked scales ==== */

/* The dtype numbers are oneDNN 3.x's (dnnl_common_types.h) where it has the type, so a cast
 * converts; s16/u16 (none there) sit far above its sequence. */
TEST(dtype_numbers) {
    CHECK_EQ((int)dnnlk_f8_e5m2, 9);
    CHECK_EQ((int)dnnlk_f8_e4m3, 10);
    CHECK_EQ((int)dnnlk_s4, 11);
    CHECK_EQ((int)dnnlk_u4, 12);
    CHECK_EQ((int)dnnlk_s64, 16);
    CHECK((int)dnnlk_s16 >= 256 && (int)dnnlk_u16 >= 256 && dnnlk_s16 != dnnlk_u16);
    CHECK_EQ(dnnlk_dtype_bits(dnnlk_u4), 4);
    CHECK_EQ(dnnlk_dtype_bits(dnnlk_s16), 16);
    CHECK_EQ((int)dnnlk_dtype_size(dnnlk_s4), 0); /* sub-byte: refused by every other op */
    CHECK(strcmp(dnnlk_dtype_name(dnnlk_f8_e4m3), "f8_e4m3") == 0 && strcmp(dnnlk_dtype_name(dnnlk_s64), "s64") == 0);
}

/* fp8 -> double, plainly from the bit fields (OCP FP8: E4M3FN bias 7, S.1111.111 NaN, no inf;
 * E5M2 bias 15, exponent 31 inf/NaN). */
static double ref_fp8_decode(unsigned c, int e4m3) {
    int sign = (c >> 7) & 1, mb = e4m3 ? 3 : 2, eb = e4m3 ? 4 : 5, bias = e4m3 ? 7 : 15;
    int e = (int)((c >> mb) & ((1u << eb) - 1)), m = (int)(c & ((1u << mb) - 1));
    double v;
    if (e4m3 && e == 15 && m == 7) return NAN;
    if (!e4m3 && e == 31) return m ? NAN : (sign ? -INFINITY : INFINITY);
    v = e == 0 ? ldexp((double)m, 1 - bias - mb) : ldexp(1.0 + (double)m / (1 << mb), e - bias);
    return sign ? -v : v;
}

/* f32 -> the fp8 value (as a double; NaN for NaN), round to nearest even: v / step rounded to an
 * integer in double (exact: a power-of-two scaling), step the fp8 ulp at v's binade (the subnormal
 * step below the smallest normal). Beyond the largest finite: +-max with saturate, else NaN
 * (e4m3) or +-inf (e5m2), as ONNX's saturate attribute says. */
static double ref_fp8_value(float v, int e4m3, int saturate) {
    const int mb = e4m3 ? 3 : 2, emin = e4m3 ? -6 : -14;
    const double maxv = e4m3 ? 448.0 : 57344.0;
    double a = fabs((double)v), r;
    int e;
    if (isnan(v)) return NAN;
    if (isinf(v)) r = INFINITY;
    else {
        (void)frexp(a, &e); /* a = f * 2^e, f in [0.5, 1): the binade's exponent is e - 1 */
        e = e - 1 < emin ? emin : e - 1;
        r = nearbyint(ldexp(a, mb - e)) * ldexp(1.0, e - mb);
    }
    if (r > maxv) r = saturate ? maxv : (e4m3 ? NAN : INFINITY);
    return signbit(v) ? -r : r;
}

static int is_packed(dnnlk_dtype t) { return t == dnnlk_s4 || t == dnnlk_u4; }
static int is_fp8(dnnlk_dtype t) { return t == dnnlk_f8_e4m3 || t == dnnlk_f8_e5m2; }

static void qrange(dnnlk_dtype t, int64_t *lo, int64_t *hi) {
    switch (t) {
    case dnnlk_s8: *lo = -128, *hi = 127; break;
    case dnnlk_u8: *lo = 0, *hi = 255; break;
    case dnnlk_s16: *lo = -32768, *hi = 32767; break;
    case dnnlk_u16: *lo = 0, *hi = 65535; break;
    case dnnlk_s4: *lo = -8, *hi = 7; break;
    case dnnlk_u4: *lo = 0, *hi = 15; break;
    default: *lo = INT32_MIN, *hi = INT32_MAX; break;
    }
}

/* Element e (element offset; for s4/u4 the nibble index) of a quantized buffer, as an integer or an fp8 code. */
static int64_t qget(const void *p, int64_t e, dnnlk_dtype t) {
    const uint8_t *b = (const uint8_t *)p;
    switch (t) {
    case dnnlk_s4: { int v = (b[e / 2] >> (4 * (e & 1))) & 15; return v >= 8 ? v - 16 : v; }
    case dnnlk_u4: return (b[e / 2] >> (4 * (e & 1))) & 15;
    case dnnlk_s8: return (int8_t)b[e];
    case dnnlk_s16: { int16_t v; memcpy(&v, b + 2 * e, 2); return v; }
    case dnnlk_u16: { uint16_t v; memcpy(&v, b + 2 * e, 2); return v; }
    case dnnlk_s32: { int32_t v; memcpy(&v, b + 4 * e, 4); return v; }
    default: return b[e];
    }
}
static void qput(void *p, int64_t e, dnnlk_dtype t, int64_t v) {
    uint8_t *b = (uint8_t *)p;
    switch (t) {
    case dnnlk_s4: case dnnlk_u4: b[e / 2] = (uint8_t)((b[e / 2] & (0xf0 >> (4 * (e & 1)))) | ((v & 15) << (4 * (e & 1)))); break;
    case dnnlk_s16: case dnnlk_u16: { uint16_t h = (uint16_t)v; memcpy(b + 2 * e, &h, 2); } break;
    case dnnlk_s32: { int32_t w = (int32_t)v; memcpy(b + 4 * e, &w, 4); } break;
    default: b[e] = (uint8_t)v; break;
    }
}

/* The quantized result of x / s as a double (an integer, or the fp8 value); NaN for an fp8 NaN. */
static double ref_q(float x, float s, int64_t zp, dnnlk_dtype qt, int saturate) {
    float q = isnan(x) ? 0.0f : (float)((double)x / (double)s); /* the f32 division, correctly rounded */
    int64_t lo, hi;
    double v;
    if (is_fp8(qt)) return ref_fp8_value(isnan(x) ? x : q, qt == dnnlk_f8_e4m3, saturate);
    qrange(qt, &lo, &hi);
    v = isinf(q) ? (double)q : nearbyint((double)q);
    v += (double)zp;
    return v < (double)lo ? (double)lo : v > (double)hi ? (double)hi : v;
}
static double ref_dq(int64_t q, int64_t zp, float s, dnnlk_dtype qt) {
    double d = is_fp8(qt) ? ref_fp8_decode((unsigned)q, qt == dnnlk_f8_e4m3) : (double)(float)(q - zp);
    return (double)(float)(d * (double)s); /* two floats' product is exact in double */
}
/* v rounded to the output dtype (nearest even) and read back. */
static float round_to(float v, dnnlk_dtype t) {
    if (t == dnnlk_bf16) return dnnlk_bf16_to_f32(dnnlk_f32_to_bf16(v));
    if (t == dnnlk_f16) return dnnlk_f16_to_f32(dnnlk_f32_to_f16(v));
    return v;
}

/* The quantized value stored (fp8: decoded), as a double: what ref_q gives. */
static double qval(const void *p, int64_t e, dnnlk_dtype t) {
    int64_t v = qget(p, e, t);
    return is_fp8(t) ? ref_fp8_decode((unsigned)v, t == dnnlk_f8_e4m3) : (double)v;
}
static int same_d(double a, double b) { return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b)); }

/* Every fp8 code dequantized (scale 1 and 0.75, f32 out) equals the plain decoder's value. */
TEST(fp8_all_codes_dequantize) {
    int t, c, si;
    for (t = 0; t < 2; t++) {
        dnnlk_dtype qt = t ? dnnlk_f8_e5m2 : dnnlk_f8_e4m3;
        uint8_t q[256];
        float y[256];
        int64_t n = 256;
        for (c = 0; c < 256; c++) q[c] = (uint8_t)c;
        for (si = 0; si < 2; si++) {
            float s = si ? 0.75f : 1.0f;
            dnnlk_tensor X = th_tensor(q, qt, 1, &n), S = scalar_t(&s, dnnlk_f32), Y = th_tensor(y, dnnlk_f32, 1, &n);
            CHECK_EQ(dnnlk_dequantize(&X, &S, NULL, 0, &Y, 0, 1), dnnlk_success);
            for (c = 0; c < 256; c++) {
                double want = ref_dq(c, 0, s, qt);
                CHECK_MSG(same_d((double)y[c], want), "%s code 0x%02x scale %g: got %a want %a", dnnlk_dtype_name(qt), c,
                          (double)s, (double)y[c], want);
            }
        }
        /* and each code's value quantizes back to that code (NaNs to a NaN, -0 to -0) */
        for (c = 0; c < 256; c++) {
            float v = (float)ref_fp8_decode((unsigned)c, !t), s = 1.0f;
            uint8_t back = 0x55;
            dnnlk_tensor X = scalar_t(&v, dnnlk_f32), S = scalar_t(&s, dnnlk_f32), Y = scalar_t(&back, qt);
            CHECK_EQ(dnnlk_quantize(&X, &S, NULL, 0, &Y, 0, 1), dnnlk_success);
            if (isnan(v)) CHECK_MSG(isnan(ref_fp8_decode(back, !t)), "code 0x%02x", c);
            else if (!isinf(v)) CHECK_MSG(back == c, "%s code 0x%02x -> 0x%02x", dnnlk_dtype_name(qt), c, back);
        }
    }
}

/* Rounding boundaries: the midpoint of every two adjacent fp8 values (a tie: to the even code),
 * one f32 ulp either side, and the same past the largest finite, both signs, saturate 1 and 0. */
TEST(fp8_quantize_ties) {
    float x[3 * 2 * 256], s = 1.0f;
    uint8_t y[3 * 2 * 256];
    int t, c, sat, k, n = 0;
    for (t = 0; t < 2; t++) {
        dnnlk_dtype qt = t ? dnnlk_f8_e5m2 : dnnlk_f8_e4m3;
        n = 0;
        for (c = 0; c < 127; c++) {
            double a = ref_fp8_decode((unsigned)c, !t), b = ref_fp8_decode((unsigned)c + 1, !t);
            float m;
            if (isnan(b) || isinf(b)) b = a + (a - ref_fp8_decode((unsigned)c - 1, !t)); /* the next step past max */
            if (isnan(a) || isinf(a)) continue;
            m = (float)((a + b) / 2); /* exact: a few bits */
            for (k = -1; k <= 1; k++) {
                float v = k < 0 ? nextafterf(m, 0.0f) : k > 0 ? nextafterf(m, INFINITY) : m;
                x[n++] = v, x[n++] = -v;
            }
        }
        for (sat = 0; sat <= 1; sat++) {
            int64_t nx = n;
            dnnlk_tensor X = th_tensor(x, dnnlk_f32, 1, &nx), S = scalar_t(&s, dnnlk_f32), Y = th_tensor(y, qt, 1, &nx);
            CHECK_EQ(dnnlk_quantize_linear(&X, &S, NULL, 0, 0, sat, &Y, 0, 1), dnnlk_success);
            for (k = 0; k < n; k++) {
                double w = ref_fp8_value(x[k], !t, sat), got = ref_fp8_decode(y[k], !t);
                CHECK_MSG(same_d(got, w), "%s sat %d x %a: got 0x%02x (%a) want %a", dnnlk_dtype_name(qt), sat, (double)x[k], y[k], got, w);
            }
        }
    }
}

/* fp8 quantize with one scale that is not a power of two: the vector levels multiply by 1/s and
 * divide only where a rounding step of x / s lies within a few bits (quant_simd.h's fp8 fast
 * path). x: every fp8 rounding step (the subnormal ones too) times s, nudged 0..6 ulps either way,
 * both signs, and specials; each value as ref_q says, and the bytes the scalar level's (NaN signs
 * too). Scales at both ends of the reciprocal path's range as well. */
TEST(fp8_quantize_scaled_steps) {
    static const float scales[] = {0.37f, 3.1f, 1.7e-3f, 2.9e-38f, 8.0e37f};
    static const float specials[] = {0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, FLT_MIN, 1e-30f, 3e-39f, -7.5e-3f};
    enum { W = 6, NX = 2 * 127 * (2 * W + 1) + 16 };
    static float x[NX];
    static uint8_t y[NX], ys[NX];
    const dnnlk_isa top = dnnlk_max_isa();
    unsigned k, e;
    int t, c, j, sat;
    for (k = 0; k < sizeof scales / sizeof scales[0]; k++) {
        float s = scales[k];
        for (t = 0; t < 2; t++) {
            dnnlk_dtype qt = t ? dnnlk_f8_e5m2 : dnnlk_f8_e4m3;
            int64_t n = 0, i;
            for (c = 0; c < 127; c++) {
                double a = ref_fp8_decode((unsigned)c, !t), b = ref_fp8_decode((unsigned)c + 1, !t);
                float m;
                if (isnan(b) || isinf(b)) b = a + (a - ref_fp8_decode((unsigned)c - 1, !t)); /* the step past max */
                if (isnan(a) || isinf(a)) continue;
                m = (float)((a + b) / 2 * (double)s);
                for (j = -W; j <= W; j++) {
                    float v = m;
                    for (e = 0; e < (unsigned)(j < 0 ? -j : j); e++) v = nextafterf(v, j < 0 ? 0.0f : INFINITY);
                    x[n++] = v, x[n++] = -v;
                }
            }
            for (e = 0; e < sizeof specials / sizeof specials[0]; e++) x[n++] = specials[e];
            for (sat = 0; sat <= 1; sat++) {
                dnnlk_tensor X = th_tensor(x, dnnlk_f32, 1, &n), S = scalar_t(&s, dnnlk_f32);
                dnnlk_tensor Y = th_tensor(y, qt, 1, &n), Ys = th_tensor(ys, qt, 1, &n);
                CHECK_EQ(dnnlk_quantize_linear(&X, &S, NULL, 0, 0, sat, &Y, 0, 1), dnnlk_success);
                dnnlk_set_max_isa(dnnlk_isa_scalar);
                CHECK_EQ(dnnlk_quantize_linear(&X, &S, NULL, 0, 0, sat, &Ys, 0, 1), dnnlk_success);
                dnnlk_set_max_isa(top);
                for (i = 0; i < n; i++) {
                    double w = ref_q(x[i], s, 0, qt, sat), got = ref_fp8_decode(y[i], !t);
                    CHECK_MSG(same_d(got, w) && y[i] == ys[i], "%s s %a sat %d x %a: got 0x%02x (%a) want %a (scalar 0x%02x)",
                              dnnlk_dtype_name(qt), (double)s, sat, (double)x[i], y[i], got, w, ys[i]);
                }
            }
        }
    }
}

/* ONNX's reference values (tests/onnx_quant_cases.h, from tools/onnx_quant_cases.py). */
TEST(onnx_reference_cases) {
    size_t c;
    for (c = 0; c < sizeof onnx_qcases / sizeof onnx_qcases[0]; c++) {
        const onnx_qcase *k = &onnx_qcases[c];
        int64_t n = 1, i;
        uint8_t qb[512];
        float fb[512];
        int nth, part;
        dnnlk_tensor S = th_tensor((void *)k->scale, dnnlk_f32, k->sndims, k->sdims);
        dnnlk_tensor Z = th_tensor((void *)k->zp, k->qt, k->sndims, k->sdims);
        for (i = 0; i < k->ndims; i++) n *= k->dims[i];
        for (nth = 1; nth <= 3; nth += 2) {
            memset(qb, 0xa5, sizeof qb), memset(fb, 0xa5, sizeof fb);
            for (part = 0; part < nth; part++) {
                dnnlk_status st;
                if (k->dequant) {
                    dnnlk_tensor X = th_tensor((void *)k->q, k->qt, k->ndims, k->dims), Y = th_tensor(fb, dnnlk_f32, k->ndims, k->dims);
                    st = dnnlk_dequantize_linear(&X, &S, k->zp ? &Z : NULL, k->axis, k->block, &Y, part, nth);
                } else {
                    dnnlk_tensor X = th_tensor((void *)k->f, dnnlk_f32, k->ndims, k->dims), Y = th_tensor(qb, k->qt, k->ndims, k->dims);
                    st = dnnlk_quantize_linear(&X, &S, k->zp ? &Z : NULL, k->axis, k->block, k->saturate, &Y, part, nth);
                }
                CHECK_MSG(st == dnnlk_success, "%s: %s", k->name, dnnlk_status_str(st));
            }
            for (i = 0; i < n; i++) {
                if (k->dequant) {
                    CHECK_MSG(same_d((double)fb[i], (double)k->f[i]) || (fb[i] == k->f[i]), "%s [%lld]: got %a want %a", k->name,
                              (long long)i, (double)fb[i], (double)k->f[i]);
                } else {
                    /* NaN codes: any NaN (ONNX writes 0x7f / 0xff for e4m3, 0x7f / 0xff for e5m2) */
                    double got = qval(qb, i, k->qt), want = qval(k->q, i, k->qt);
                    CHECK_MSG(same_d(got, want), "%s nth %d [%lld] x %a: got %g (0x%llx) want %g", k->name, nth, (long long)i,
                              (double)k->f[i], got, (unsigned long long)qget(qb, i, k->qt), want);
                }
            }
        }
    }
}

/* Random shapes, granularities (per-tensor, per-axis, blocked), layouts (packed types dense),
 * scale and output dtypes, every part count; against ref_q / ref_dq. */
static void general_case(int dequant) {
    static const dnnlk_dtype qts[] = {dnnlk_s16, dnnlk_u16, dnnlk_s4, dnnlk_u4, dnnlk_f8_e4m3, dnnlk_f8_e5m2, dnnlk_s8, dnnlk_u8, dnnlk_s32};
    static const dnnlk_dtype fts[3] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16};
    dnnlk_dtype qt = qts[th_randint(0, dequant ? 8 : 7)], ft = fts[th_randint(0, 2)], st = fts[th_randint(0, 2)];
    int ndims = (int)th_randint(1, 3), gran = (int)th_randint(0, 2), ax = 0, i, nth_i;
    int sat = is_fp8(qt) ? (int)th_randint(0, 1) : 1, use_zp = (int)th_randint(0, 3) != 0;
    int64_t dims[3], sdims[3], block = 0, n = 1, ns = 1, idx[3];
    dnnlk_dtype xt = dequant ? qt : ft, yt = dequant ? ft : qt;
    int packed_x = is_packed(xt), packed_y = is_packed(yt);
    size_t xe = packed_x ? 1 : dnnlk_dtype_size(xt), ye = packed_y ? 1 : dnnlk_dtype_size(yt), se = dnnlk_dtype_size(st);
    size_t ze = is_packed(qt) ? 1 : dnnlk_dtype_size(qt);
    layout lx, ly;
    th_buf xb, yb, sb, zb, want;
    float sbase = th_randint(0, 1) ? 1.0f / (float)(1 << th_randint(0, 6)) : th_randf(0.01f, 3.0f);
    int64_t qlo, qhi;
    qrange(qt, &qlo, &qhi);
    if (is_fp8(qt) || qt == dnnlk_s32) qlo = -100, qhi = 100; /* zero points drawn from here */
    for (i = 0; i < ndims; i++) dims[i] = th_randint(0, 12) == 0 ? th_randint(0, 1) : th_randint(1, i == ndims - 1 ? 150 : 7);
    ax = (int)th_randint(0, ndims - 1);
    if (gran == 2) block = th_randint(0, 2) ? (int64_t)1 << th_randint(0, 6) : th_randint(1, 40);
    for (i = 0; i < ndims; i++) {
        sdims[i] = gran == 2 ? (i == ax ? (dims[i] + block - 1) / block : dims[i]) : dims[i];
        n *= dims[i];
    }
    lx = make_layout(ndims, dims, !packed_x);
    ly = make_layout(ndims, dims, 0);
    if (packed_x) lx = make_layout(ndims, dims, 0), lx.off = 0, lx.span = n;
    if (packed_y) ly = make_layout(ndims, dims, 0), ly.off = 0, ly.span = n;
    {   /* packed: dense row-major */
        int64_t s = 1;
        for (i = ndims - 1; i >= 0; i--) {
            if (packed_x) lx.strides[i] = s;
            if (packed_y) ly.strides[i] = s;
            s *= dims[i];
        }
    }
    {   /* scale (and zero point): dense over their shape */
        int sn = gran == 0 ? 0 : gran == 1 ? 1 : ndims;
        if (gran == 1) sdims[0] = dims[ax];
        for (i = 0; i < sn; i++) ns *= sdims[i];
        sb = th_alloc((size_t)(ns > 0 ? ns : 1) * se, 0);
        zb = th_alloc((size_t)(ns > 0 ? ns : 1) * ze, 0);
        for (i = 0; i < ns; i++) {
            store_f((char *)sb.p + i * (int64_t)se, st, sbase * (th_randint(0, 1) ? 1.0f : 2.0f));
            qput(zb.p, i, qt, is_fp8(qt) ? (th_randint(0, 1) ? 0x80 : 0) : th_randint(qlo, qhi));
        }
        xb = th_alloc((size_t)(packed_x ? (n + 1) / 2 : lx.span) * xe + 1, (size_t)th_randint(0, 3) * xe);
        yb = th_alloc((size_t)(packed_y ? (n + 1) / 2 : ly.span) * ye + 1, (size_t)th_randint(0, 3) * ye);
        want = th_alloc((size_t)(n > 0 ? n : 1) * 8, 0);
        for (i = 0; i < (packed_x ? n : lx.span); i++) {
            if (dequant) {
                if (qt == dnnlk_s32) qput(xb.p, i, qt, (int64_t)(int32_t)th_rand32() >> th_randint(0, 24));
                else qput(xb.p, i, qt, (int64_t)th_rand32());
            } else {
                store_f((char *)xb.p + i * (int64_t)xe, xt, special_or_random(sbase * (qt == dnnlk_s16 || qt == dnnlk_u16 ? 200.0f : is_fp8(qt) ? 2.0f : 1.0f)));
            }
        }
        memset(idx, 0, sizeof idx);
        if (n > 0) {
            int64_t k = 0;
            do {
                int64_t so = 0, str = 1, e;
                int d;
                float s;
                int64_t zp;
                for (d = sn - 1; d >= 0; d--) {
                    int64_t id = gran == 1 ? idx[ax] : (d == ax ? idx[d] / block : idx[d]);
                    so += id * str;
                    str *= sdims[d];
                }
                s = dnnlk__load_as_f32((char *)sb.p + so * (int64_t)se, st);
                zp = use_zp && !is_fp8(qt) ? qget(zb.p, so, qt) : 0;
                e = offset_of(&lx, idx);
                if (dequant) {
                    double r = ref_dq(qget(xb.p, e, qt), zp, s, qt);
                    ((double *)want.p)[k++] = isnan(r) ? r : (double)round_to((float)r, yt);
                } else {
                    ((double *)want.p)[k++] = ref_q(dnnlk__load_as_f32((char *)xb.p + e * (int64_t)xe, xt), s, zp, qt, sat);
                }
            } while (th_next_index(ndims, dims, idx));
        }
        for (nth_i = 0; nth_i < 4; nth_i++) {
            static const int nths[4] = {1, 2, 3, 7};
            int nth = nths[nth_i], part, bad = 0;
            dnnlk_tensor X = packed_x ? th_strided(xb.p, 0, xt, ndims, dims, lx.strides) : view(&lx, xb.p, xt);
            dnnlk_tensor Y = packed_y ? th_strided(yb.p, 0, yt, ndims, dims, ly.strides) : view(&ly, yb.p, yt);
            dnnlk_tensor S = th_tensor(sb.p, st, sn, sdims), Z = th_tensor(zb.p, qt, sn, sdims);
            memset(yb.p, 0x5a, yb.bytes);
            for (part = nth - 1; part >= 0; part--) {
                int axis = th_randint(0, 1) ? ax : ax - ndims;
                dnnlk_status r = dequant ? dnnlk_dequantize_linear(&X, &S, use_zp ? &Z : NULL, axis, block, &Y, part, nth)
                                         : dnnlk_quantize_linear(&X, &S, use_zp ? &Z : NULL, axis, block, sat, &Y, part, nth);
                CHECK_MSG(r == dnnlk_success, "%s %s: status %s", dequant ? "dq" : "q", dnnlk_dtype_name(qt), dnnlk_status_str(r));
            }
            memset(idx, 0, sizeof idx);
            if (n > 0) {
                int64_t k = 0;
                do {
                    int64_t e = offset_of(&ly, idx);
                    double got = dequant ? (double)dnnlk__load_as_f32((char *)yb.p + e * (int64_t)ye, yt) : qval(yb.p, e, qt);
                    double w = ((double *)want.p)[k++];
                    if (!same_d(got, w) && !(dequant && got == w) && bad++ < 3)
                        CHECK_MSG(0, "%s %s->%s gran %d block %lld ax %d nd %d dims %lld,%lld,%lld sat %d zp %d nth %d elem %lld: got %a want %a",
                                  dequant ? "dq" : "q", dnnlk_dtype_name(xt), dnnlk_dtype_name(yt), gran, (long long)block, ax,
                                  ndims, (long long)dims[0], (long long)(ndims > 1 ? dims[1] : 0),
                                  (long long)(ndims > 2 ? dims[2] : 0), sat, use_zp, nth, (long long)(k - 1), got, w);
                } while (th_next_index(ndims, dims, idx));
            }
            CHECK(th_guards_ok(&yb));
        }
    }
    th_free(&xb); th_free(&yb); th_free(&sb); th_free(&zb); th_free(&want);
}

TEST(general_quantize_random) {
    long i, n = th_scaled(300);
    th_seed(2901 + (uint64_t)th_isa);
    for (i = 0; i < n; i++) general_case(0);
}

TEST(general_dequantize_random) {
    long i, n = th_scaled(300);
    th_seed(2902 + (uint64_t)th_isa);
    for (i = 0; i < n; i++) general_case(1);
}

/* Blocked u4 -> f32 rows long enough for the vector and streaming paths, odd starts included:
 * [rows, K] blocks of 32 along K, f16 scales, u4 zero points. */
TEST(blocked_u4_rows) {
    int64_t dims[2] = {9, 1000}, sd[2] = {9, 32}, n = 9000, i;
    th_buf xb = th_alloc((size_t)n / 2, 0), yb = th_alloc((size_t)n * 4, 4), sb = th_alloc(9 * 32 * 2, 0), zb = th_alloc(9 * 16, 0);
    int nth, part, sgn;
    th_seed(2903);
    for (sgn = 0; sgn < 2; sgn++) {
        dnnlk_dtype qt = sgn ? dnnlk_s4 : dnnlk_u4;
        dnnlk_tensor X = th_tensor(xb.p, qt, 2, dims), Y = th_tensor(yb.p, dnnlk_f32, 2, dims);
        dnnlk_tensor S = th_tensor(sb.p, dnnlk_f16, 2, sd), Z = th_tensor(zb.p, qt, 2, sd);
        for (i = 0; i < n / 2; i++) ((uint8_t *)xb.p)[i] = (uint8_t)th_rand32();
        for (i = 0; i < 9 * 16; i++) ((uint8_t *)zb.p)[i] = (uint8_t)th_rand32();
        for (i = 0; i < 9 * 32; i++) ((uint16_t *)sb.p)[i] = dnnlk_f32_to_f16(th_randf(0.01f, 2.0f));
        for (nth = 1; nth <= 7; nth += 3) {
            memset(yb.p, 0, yb.bytes);
            for (part = 0; part < nth; part++) CHECK_EQ(dnnlk_dequantize_linear(&X, &S, &Z, 1, 32, &Y, part, nth), dnnlk_success);
            for (i = 0; i < n; i++) {
                int64_t r = i / 1000, c = i % 1000, so = r * 32 + c / 32;
                double w = ref_dq(qget(xb.p, i, qt), qget(zb.p, so, qt), dnnlk_f16_to_f32(((uint16_t *)sb.p)[so]), qt);
                if (((float *)yb.p)[i] != (float)w) {
                    CHECK_MSG(0, "%s nth %d elem %lld: got %a want %a", dnnlk_dtype_name(qt), nth, (long long)i, (double)((float *)yb.p)[i], w);
                    break;
                }
            }
        }
    }
    CHECK(th_guards_ok(&yb));
    th_free(&xb); th_free(&yb); th_free(&sb); th_free(&zb);
}

/* Bad input for the new attributes and dtypes: a status, and y untouched. */
TEST(general_bad_arguments) {
    float x[12] = {0}, s1 = 1.0f, s3[6] = {1, 1, 1, 1, 1, 1}, yf[12];
    uint8_t y[12], z3[3] = {0}, q[12] = {0};
    int64_t d[2] = {2, 6}, sd[2] = {2, 2}, sd_bad[2] = {2, 3}, d3 = 3;
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 2, d), S1 = scalar_t(&s1, dnnlk_f32);
    dnnlk_tensor SB = th_tensor(s3, dnnlk_f32, 2, sd), SBad = th_tensor(s3, dnnlk_f32, 2, sd_bad);
    dnnlk_tensor Y = th_tensor(y, dnnlk_u4, 2, d), Y8 = th_tensor(y, dnnlk_s8, 2, d), YF = th_tensor(yf, dnnlk_f32, 2, d);
    dnnlk_tensor Q = th_tensor(q, dnnlk_f8_e4m3, 2, d), Z = th_tensor(z3, dnnlk_u8, 2, sd), Z1 = th_tensor(z3, dnnlk_u8, 1, &d3);
#define EXPECT_U(call, want)                                                                           \
    do {                                                                                               \
        memset(y, 0x77, sizeof y), memset(yf, 0x77, sizeof yf);                                        \
        CHECK_EQ((call), (want));                                                                      \
        { int k_; for (k_ = 0; k_ < 12; k_++) CHECK(y[k_] == 0x77 && dnnlk__f32_bits(yf[k_]) == 0x77777777u); } \
    } while (0)
    /* blocked: scale's axis must be ceil(6 / block) (block 4 -> 2; block 2 needs 3), rank x's */
    CHECK_EQ(dnnlk_quantize_linear(&X, &SB, NULL, 1, 4, 1, &Y, 0, 1), dnnlk_success);
    EXPECT_U(dnnlk_quantize_linear(&X, &SB, NULL, 1, 2, 1, &Y, 0, 1), dnnlk_invalid_shape);
    EXPECT_U(dnnlk_quantize_linear(&X, &SBad, NULL, 1, 4, 1, &Y, 0, 1), dnnlk_invalid_shape);
    EXPECT_U(dnnlk_quantize_linear(&X, &SB, NULL, 0, 4, 1, &Y, 0, 1), dnnlk_invalid_shape);   /* wrong axis */
    EXPECT_U(dnnlk_quantize_linear(&X, &S1, NULL, 1, 4, 1, &Y, 0, 1), dnnlk_invalid_shape);   /* 0-d scale */
    EXPECT_U(dnnlk_quantize_linear(&X, &SB, NULL, 1, -1, 1, &Y, 0, 1), dnnlk_invalid_arguments);
    EXPECT_U(dnnlk_quantize_linear(&X, &SB, NULL, 2, 4, 1, &Y, 0, 1), dnnlk_invalid_arguments); /* axis */
    /* zero point dtype must be the quantized one (u8 against u4 here) */
    EXPECT_U(dnnlk_quantize_linear(&X, &SB, &Z, 1, 4, 1, &Y, 0, 1), dnnlk_invalid_data_type);
    EXPECT_U(dnnlk_dequantize_linear(&Q, &S1, &Z1, 1, 0, &YF, 0, 1), dnnlk_invalid_data_type);
    /* saturate: 0/1 only, and 0 only for fp8 */
    EXPECT_U(dnnlk_quantize_linear(&X, &S1, NULL, 1, 0, 0, &Y, 0, 1), dnnlk_invalid_arguments);
    EXPECT_U(dnnlk_quantize_linear(&X, &S1, NULL, 1, 0, 0, &Y8, 0, 1), dnnlk_invalid_arguments);
    EXPECT_U(dnnlk_quantize_linear(&X, &S1, NULL, 1, 0, 2, &Q, 0, 1), dnnlk_invalid_arguments);
    {   /* scale <= 0, NaN, inf: in a blocked scale too */
        static const float badv[4] = {0.0f, -1.0f, NAN, INFINITY};
        int b;
        for (b = 0; b < 4; b++) {
            s3[1] = badv[b];
            EXPECT_U(dnnlk_quantize_linear(&X, &SB, NULL, 1, 4, 1, &Y, 0, 1), dnnlk_invalid_arguments);
            EXPECT_U(dnnlk_dequantize_linear(&Q, &SB, NULL, 1, 4, &YF, 0, 1), dnnlk_invalid_arguments);
        }
        s3[1] = 1;
    }
    {   /* f16 / bf16 scales, judged by their bits at every position of a blocked [2, 2] scale (each
         * row of it): +-0, inf and NaN refused; a denormal (bits 1) and the largest finite accepted,
         * as is an f32 denormal scale (with denormals-are-zero off) */
        static const uint16_t bad[2][4] = {{0x0000, 0x8000, 0x7c00, 0x7e01}, {0x0000, 0xbf80, 0x7f80, 0x7fc1}};
        static const uint16_t one[2] = {0x3c00, 0x3f80}, good[2][2] = {{0x0001, 0x7bff}, {0x0001, 0x7f7f}};
        uint16_t h[4];
        int ty, pos, b;
        for (ty = 0; ty < 2; ty++)
            for (pos = 0; pos < 4; pos++) {
                dnnlk_tensor SH = th_tensor(h, ty ? dnnlk_bf16 : dnnlk_f16, 2, sd);
                for (b = 0; b < 4; b++) {
                    h[0] = h[1] = h[2] = h[3] = one[ty], h[pos] = bad[ty][b];
                    EXPECT_U(dnnlk_quantize_linear(&X, &SH, NULL, 1, 4, 1, &Y, 0, 1), dnnlk_invalid_arguments);
                }
                for (b = 0; b < 2; b++) {
                    h[0] = h[1] = h[2] = h[3] = one[ty], h[pos] = good[ty][b];
                    CHECK_EQ(dnnlk_quantize_linear(&X, &SH, NULL, 1, 4, 1, &Y, 0, 1), dnnlk_success);
                }
                s3[pos] = 1e-40f;
                CHECK_EQ(dnnlk_quantize_linear(&X, &SB, NULL, 1, 4, 1, &Y, 0, 1), dnnlk_success);
                s3[pos] = 1;
            }
    }
    {   /* an fp8 zero point must be +-0 */
        uint8_t zf[1] = {0x08};
        dnnlk_tensor ZF = scalar_t(zf, dnnlk_f8_e4m3);
        EXPECT_U(dnnlk_dequantize_linear(&Q, &S1, &ZF, 1, 0, &YF, 0, 1), dnnlk_invalid_arguments);
        zf[0] = 0x80;
        CHECK_EQ(dnnlk_dequantize_linear(&Q, &S1, &ZF, 1, 0, &YF, 0, 1), dnnlk_success);
    }
    {   /* packed tensors are dense; s32 is no quantize output; convert takes the quantized dtypes */
        dnnlk_tensor Yt = Y, Q32 = th_tensor(q, dnnlk_s32, 1, &d3), D = th_tensor(yf, dnnlk_f32, 1, &d3);
        Yt.strides[0] = 12, Yt.strides[1] = 2;
        EXPECT_U(dnnlk_quantize_linear(&X, &S1, NULL, 1, 0, 1, &Yt, 0, 1), dnnlk_invalid_shape);
        Yt = Y8, Yt.dtype = dnnlk_s32;
        EXPECT_U(dnnlk_quantize_linear(&X, &S1, NULL, 1, 0, 1, &Yt, 0, 1), dnnlk_invalid_data_type);
        CHECK_EQ(dnnlk_dequantize_linear(&Q32, &S1, NULL, 0, 0, &D, 0, 1), dnnlk_success);
        /* convert's infer here (its execute in test_convert: calling it would compile convert's
         * kernels into this test, ~20 s of -O2): it takes every quantized dtype, s4/u4 dense only */
        dnnlk_tensor kept;
        Yt = Y8, Yt.dtype = dnnlk_u4;
        CHECK_EQ(dnnlk_convert_infer(&X, &Yt), dnnlk_success);
        Yt = Y8, Yt.dtype = dnnlk_s4, Yt.strides[0] *= 2, kept = Yt;
        EXPECT_U(dnnlk_convert_infer(&X, &Yt), dnnlk_invalid_shape);
        CHECK(memcmp(&Yt, &kept, sizeof kept) == 0);
        Yt.dtype = dnnlk_f8_e5m2;
        CHECK_EQ(dnnlk_convert_infer(&X, &Yt), dnnlk_success);
        Yt = Y8, Yt.dtype = dnnlk_s16;
        CHECK_EQ(dnnlk_convert_infer(&X, &Yt), dnnlk_success);
    }
#undef EXPECT_U
}

/* Every f32 (at make test-exhaustive) quantized to e4m3 and e5m2 with scale 1 (a power of two: the
 * fast path's flagged vectors take the product) and 0.3 (they divide), saturate 1 and 0, at every
 * level, against ref_fp8_value of the f32 quotient (computed once per chunk for all levels); at CI
 * scale a strided sample of about a million (DNNLK_TEST_SCALE scales it). */
TEST(fp8_quantize_every_float) {
    const int64_t CH = 1 << 16;
    /* CI: th_scaled(16) chunks spread over the bit patterns (an odd step, so every low bit varies) */
    int64_t step = getenv("DNNLK_TEST_EXHAUSTIVE") ? 1 : ((((int64_t)1 << 32) / (CH * th_scaled(16))) | 1), base, i;
    th_buf xb = th_alloc((size_t)CH * 4, 0), yb = th_alloc((size_t)CH, 0), wb = th_alloc((size_t)CH * 8, 0);
    float s = 1.0f, *x = (float *)xb.p;
    double *want = (double *)wb.p;
    uint8_t *y = (uint8_t *)yb.p;
    dnnlk_tensor S = scalar_t(&s, dnnlk_f32);
    int bad = 0, v, l, top = (int)dnnlk_cpu_isa();
    for (base = 0; base < ((int64_t)1 << 32) && bad < 5; base += CH * step) {
        for (i = 0; i < CH; i++) x[i] = dnnlk__f32_from_bits((uint32_t)(base + i * step));
        for (v = 0; v < 8; v++) {
            dnnlk_dtype qt = (v & 1) ? dnnlk_f8_e5m2 : dnnlk_f8_e4m3;
            int sat = (v & 3) < 2, e4m3 = !(v & 1);
            int64_t nx = CH;
            dnnlk_tensor X = th_tensor(x, dnnlk_f32, 1, &nx), Y = th_tensor(y, qt, 1, &nx);
            s = v < 4 ? 1.0f : 0.3f;
            for (i = 0; i < CH; i++) want[i] = ref_fp8_value(x[i] / s, e4m3, sat);
            for (l = 0; l <= top; l++) {
                dnnlk_set_max_isa((dnnlk_isa)l);
                CHECK_EQ(dnnlk_quantize_linear(&X, &S, NULL, 0, 0, sat, &Y, 0, 1), dnnlk_success);
                for (i = 0; i < CH; i++) {
                    double got = ref_fp8_decode(y[i], e4m3);
                    if (!same_d(got, want[i]) && bad++ < 5)
                        CHECK_MSG(0, "%s %s sat %d scale %g x %a (0x%08x): got 0x%02x (%a) want %a",
                                  dnnlk_isa_name(dnnlk_max_isa()), dnnlk_dtype_name(qt), sat, (double)s, (double)x[i],
                                  dnnlk__f32_bits(x[i]), y[i], got, want[i]);
                }
            }
        }
    }
    dnnlk_set_max_isa((dnnlk_isa)top);
    th_free(&xb); th_free(&yb); th_free(&wb);
}

/* Found by tests/fuzz/fuzz_ops.c: a scale whose innermost dim has one element may have any stride
 * there (the extent checks skip it), and the scale check multiplied it into a byte step before
 * looking: signed overflow, undefined (UBSan in the sanitizer build), in _infer and execute. */
TEST(scale_unused_huge_stride) {
    int8_t x[2] = {3, -4};
    float s = 0.5f, y[2] = {0, 0};
    uint8_t q[2] = {9, 9};
    int64_t d2 = 2, d1 = 1, d12[2] = {1, 1};
    dnnlk_tensor X = th_tensor(x, dnnlk_s8, 1, &d2), S = th_tensor(&s, dnnlk_f32, 1, &d1);
    dnnlk_tensor Y = th_tensor(y, dnnlk_f32, 1, &d2), Q, F;
    S.strides[0] = INT64_MAX;
    CHECK_EQ(dnnlk_dequantize_infer(&X, &S, NULL, 0, &Y), dnnlk_success);
    CHECK_EQ(dnnlk_dequantize(&X, &S, NULL, 0, &Y, 0, 1), dnnlk_success);
    CHECK(y[0] == 1.5f && y[1] == -2.0f);
    /* a 2-d (blocked) scale: the inner dim of one element, the outer one not */
    S = th_tensor(&s, dnnlk_f32, 2, d12);
    S.dims[0] = 1, S.strides[0] = INT64_MIN, S.strides[1] = INT64_MAX;
    F = th_tensor(y, dnnlk_f32, 2, d12);
    F.dims[1] = 2;
    F.strides[0] = 2, F.strides[1] = 1;
    y[0] = 2.0f, y[1] = -1.0f;
    Q = th_tensor(q, dnnlk_u8, 2, d12);
    Q.dims[1] = 2, Q.strides[0] = 2, Q.strides[1] = 1;
    CHECK_EQ(dnnlk_quantize_linear(&F, &S, NULL, 1, 2, 1, &Q, 0, 1), dnnlk_success);
    CHECK(q[0] == 4 && q[1] == 0);
}

/* Found by tests/fuzz/fuzz_ops.c: the blocked scale's expected length was computed as
 * (dim + block - 1) / block, which overflows (undefined; UBSan aborts the sanitizer build) for a
 * block_size near INT64_MAX. Such a block covers the whole axis: one scale per row. */
TEST(huge_block_size) {
    float x[12], s2[2] = {0.5f, 2.0f};
    uint8_t y[12], yr[12];
    int64_t d[2] = {2, 6}, sd[2] = {2, 1}, sd2[2] = {2, 2}, i;
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 2, d), S = th_tensor(s2, dnnlk_f32, 2, sd);
    dnnlk_tensor Y = th_tensor(y, dnnlk_u8, 2, d), YR = th_tensor(yr, dnnlk_u8, 2, d), S2 = th_tensor(s2, dnnlk_f32, 2, sd2);
    for (i = 0; i < 12; i++) x[i] = (float)i;
    CHECK_EQ(dnnlk_quantize_linear(&X, &S, NULL, 1, INT64_MAX, 1, &Y, 0, 1), dnnlk_success);
    CHECK_EQ(dnnlk_quantize_linear(&X, &S, NULL, 1, 6, 1, &YR, 0, 1), dnnlk_success);
    CHECK(memcmp(y, yr, sizeof y) == 0 && y[1] == 2 && y[7] == 4);
    CHECK_EQ(dnnlk_quantize_linear_infer(&X, &S2, NULL, -1, INT64_MAX - 1, 1, &Y), dnnlk_invalid_shape);
    {   /* dequantize, rows of 64 (the vector block path takes blocks that are a multiple of 32) */
        uint8_t q[128];
        float f[128], fr[128];
        int64_t qd[2] = {2, 64};
        dnnlk_tensor Q = th_tensor(q, dnnlk_u8, 2, qd), F = th_tensor(f, dnnlk_f32, 2, qd), FR = th_tensor(fr, dnnlk_f32, 2, qd);
        for (i = 0; i < 128; i++) q[i] = (uint8_t)(i * 7);
        CHECK_EQ(dnnlk_dequantize_linear(&Q, &S, NULL, 1, (int64_t)1 << 62, &F, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_dequantize_linear(&Q, &S, NULL, 1, 64, &FR, 0, 1), dnnlk_success);
        CHECK(memcmp(f, fr, sizeof f) == 0 && f[1] == 3.5f && f[65] == 2.0f * (float)(65 * 7 % 256));
        CHECK_EQ(dnnlk_dequantize_linear(&Q, &S, NULL, 1, INT64_MAX, &F, 0, 1), dnnlk_success);
        CHECK(memcmp(f, fr, sizeof f) == 0);
    }
}

int main(void) {
    RUN_EACH_ISA(quantize_hand_cases);
    RUN_EACH_ISA(dequantize_hand_cases);
    RUN_EACH_ISA(tails_and_alignment);
    RUN_EACH_ISA(quantize_random_layouts);
    RUN_EACH_ISA(dequantize_random_layouts);
    RUN_EACH_ISA(streaming_path);
    RUN_EACH_ISA(quantize_recip_boundaries);
    RUN_EACH_ISA(quantize_recip_bruteforce);
#if DNNLK__X86
    RUN(ftz_daz_matches_scalar);
    RUN(ftz_daz_per_tensor);
#endif
    RUN(bad_arguments);
    RUN(infer_completes_output);
    RUN(recorded_bits);
    RUN_EACH_ISA(fp8_all_codes_dequantize);
    RUN_EACH_ISA(fp8_quantize_ties);
    RUN_EACH_ISA(fp8_quantize_scaled_steps);
    RUN_EACH_ISA(onnx_reference_cases);
    RUN_EACH_ISA(general_quantize_random);
    RUN_EACH_ISA(general_dequantize_random);
    RUN_EACH_ISA(blocked_u4_rows);
    RUN(fp8_quantize_every_float);
    RUN(general_bad_arguments);
    RUN(scale_unused_huge_stride);
    RUN(huge_block_size);
    RUN(dtype_numbers);
    return th_summary();
}
