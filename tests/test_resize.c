/* resize.h: ONNX examples by hand, a double-precision reference over random layouts and modes,
 * the same bits on every ISA and part count, and bad arguments. */
/* Non-temporal stores from 256 KiB of output (the library's default is larger), so the streaming
 * paths run in the larger cases here while the small ones take the cached stores. */
#define DNNLK_RESIZE_NT_BYTES ((int64_t)256 << 10)
#include "harness.h"
#include "resize_cases.h"

/* ---- the reference, from ONNX Resize's formulas, in double ---- */

typedef struct ref_axis {
    int64_t in, out;
    double scale, length;
    int resized;
} ref_axis;

static double ref_x(const ref_axis *a, int coord, int64_t o) {
    switch (coord) {
    case dnnlk_resize_half_pixel: return (o + 0.5) / a->scale - 0.5;
    case dnnlk_resize_pytorch_half_pixel: return a->length > 1 ? (o + 0.5) / a->scale - 0.5 : 0.0;
    case dnnlk_resize_align_corners: return a->length == 1 ? 0.0 : o * (a->in - 1.0) / (a->length - 1.0);
    default: return o / a->scale;
    }
}

/* ONNX's nearest rule: an integral x is itself; else by the fraction. Then clamp. */
static int64_t ref_nearest(const ref_axis *a, int coord, int rule, int64_t o) {
    double x = ref_x(a, coord, o), f = floor(x), r;
    if (x == f) r = x;
    else if (rule == dnnlk_resize_floor) r = f;
    else if (rule == dnnlk_resize_ceil) r = f + 1;
    else if (rule == dnnlk_resize_round_prefer_floor) r = x - f <= 0.5 ? f : f + 1;
    else r = x - f < 0.5 ? f : f + 1;
    if (r < 0) r = 0;
    if (r > a->in - 1) r = (double)(a->in - 1);
    return (int64_t)r;
}

static void ref_linear(const ref_axis *a, int coord, int64_t o, int64_t *i0, int64_t *i1, double *t) {
    double x = ref_x(a, coord, o);
    if (x < 0) x = 0;
    if (x > a->in - 1) x = (double)(a->in - 1);
    *i0 = (int64_t)floor(x);
    *i1 = *i0 + 1 < a->in ? *i0 + 1 : a->in - 1;
    *t = x - (double)*i0;
}

/* ---- tensors with arbitrary layouts ---- */

typedef struct layout {
    int ndims;
    int64_t dims[6], strides[6], off, span;
} layout;

static layout make_layout(int ndims, const int64_t *dims, int kind) {
    layout L;
    int order[6], i;
    int64_t s = 1, lo = 0, hi = 0;
    L.ndims = ndims;
    for (i = 0; i < ndims; i++) L.dims[i] = dims[i], order[i] = i;
    if (kind == 1 && ndims > 1) { /* channels-last style: dim 1 innermost */
        int t = order[1], k;
        for (k = 1; k < ndims - 1; k++) order[k] = order[k + 1];
        order[ndims - 1] = t;
    }
    for (i = ndims - 1; i >= 0; i--) {
        int d = order[i];
        int64_t step = (kind == 2 && i == ndims - 1) ? 2 : 1;
        L.strides[d] = s * step;
        s *= (dims[d] > 0 ? dims[d] : 1) * step + (kind == 2 ? 1 : 0);
    }
    if (kind == 3 && ndims > 0 && L.strides[0] != 1 && dims[0] > 1) L.strides[0] = -L.strides[0];
    for (i = 0; i < ndims; i++) {
        int64_t e = (dims[i] > 0 ? dims[i] - 1 : 0) * L.strides[i];
        if (e < 0) lo += e;
        else hi += e;
    }
    L.off = -lo;
    L.span = hi - lo + 1;
    return L;
}

static dnnlk_tensor view(const layout *L, void *buf, dnnlk_dtype t) {
    return th_strided(buf, L->off, t, L->ndims, L->dims, L->strides);
}

static float load_v(const void *p, dnnlk_dtype t) {
    return t == dnnlk_u8 ? (float)*(const uint8_t *)p : dnnlk__load_as_f32(p, t);
}

/* Reference value at output index idx (double), and the sum of |neighbours| for the tolerance. */
static double ref_value(const layout *ls, const void *src, dnnlk_dtype dt, const ref_axis *ax, const dnnlk_resize_desc *d,
                        const int64_t *idx, double *mag) {
    int nd = ls->ndims, i, nres = 0, res[6];
    int64_t base[6], i1s[6], q;
    double ts[6], acc = 0;
    *mag = 0;
    for (i = 0; i < nd; i++) {
        if (!ax[i].resized) { base[i] = idx[i]; continue; }
        if (d->mode == dnnlk_resize_nearest) {
            base[i] = ref_nearest(&ax[i], d->coord, d->nearest, idx[i]);
        } else {
            ref_linear(&ax[i], d->coord, idx[i], &base[i], &i1s[i], &ts[i]);
            res[nres++] = i;
        }
    }
    for (q = 0; q < ((int64_t)1 << nres); q++) {
        int64_t off = ls->off;
        double w = 1, v;
        int b;
        for (i = 0; i < nd; i++) off += base[i] * ls->strides[i];
        for (b = 0; b < nres; b++) {
            int a = res[b];
            if ((q >> b) & 1) off += (i1s[a] - base[a]) * ls->strides[a], w *= ts[a];
            else w *= 1 - ts[a];
        }
        v = load_v((const char *)src + off * (int64_t)dnnlk_dtype_size(dt), dt);
        acc += w * v;
        *mag += fabs(v);
    }
    return acc;
}

/* ---- hand cases (ONNX's backend test data for Resize, and ties) ---- */

static void run_1(const float *x, int nd, const int64_t *dims, dnnlk_resize_desc d, float *y, int64_t *ydims) {
    dnnlk_tensor X = th_tensor((void *)x, dnnlk_f32, nd, dims), Y;
    memset(&Y, 0, sizeof Y);
    Y.data = y;
    Y.dtype = dnnlk_f32;
    Y.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_resize(&X, &d, &Y, 0, 1), dnnlk_success);
    memcpy(ydims, Y.dims, (size_t)nd * sizeof(int64_t));
}

static int same(const float *a, const float *b, int n, float tol) {
    int i;
    for (i = 0; i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= tol)) return 0;
    return 1;
}

TEST(onnx_examples) {
    static const float x22[4] = {1, 2, 3, 4}, x24[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int64_t d22[4] = {1, 1, 2, 2}, d24[4] = {1, 1, 2, 4}, yd[4];
    float y[64], sc4[4];
    dnnlk_resize_desc d;
    memset(&d, 0, sizeof d);
    d.naxes = 4;
    d.scales = sc4;
    { /* resize_upsample_scales_nearest: scales {1,1,2,3} */
        static const float want[24] = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
        sc4[0] = sc4[1] = 1, sc4[2] = 2, sc4[3] = 3;
        run_1(x22, 4, d22, d, y, yd);
        CHECK(yd[2] == 4 && yd[3] == 6 && same(y, want, 24, 0));
    }
    { /* resize_downsample_scales_nearest: scales 0.6 */
        sc4[2] = sc4[3] = 0.6f;
        run_1(x24, 4, d24, d, y, yd);
        CHECK(yd[2] == 1 && yd[3] == 2 && y[0] == 1 && y[1] == 3);
    }
    d.mode = dnnlk_resize_linear;
    { /* resize_upsample_scales_linear (half_pixel) */
        static const float want[16] = {1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f, 2.5f, 2.75f, 3.25f, 3.5f, 3, 3.25f, 3.75f, 4};
        sc4[2] = sc4[3] = 2;
        run_1(x22, 4, d22, d, y, yd);
        CHECK(yd[2] == 4 && yd[3] == 4 && same(y, want, 16, 0));
    }
    { /* resize_upsample_scales_linear_align_corners */
        static const float want[16] = {1, 1.33333333f, 1.66666667f, 2, 1.66666667f, 2, 2.33333333f, 2.66666667f,
                                       2.33333333f, 2.66666667f, 3, 3.33333333f, 3, 3.33333333f, 3.66666667f, 4};
        d.coord = dnnlk_resize_align_corners;
        run_1(x22, 4, d22, d, y, yd);
        CHECK(same(y, want, 16, 1e-6f));
    }
    { /* resize_downsample_scales_linear_align_corners: divides by in*scale - 1 = 1.4 */
        sc4[2] = sc4[3] = 0.6f;
        run_1(x24, 4, d24, d, y, yd);
        CHECK(yd[2] == 1 && yd[3] == 2 && fabsf(y[0] - 1) < 1e-6f && fabsf(y[1] - 3.142857143f) < 1e-6f);
    }
    { /* resize_downsample_scales_linear (half_pixel) */
        d.coord = dnnlk_resize_half_pixel;
        run_1(x24, 4, d24, d, y, yd);
        CHECK(fabsf(y[0] - 2.6666665f) < 1e-6f && fabsf(y[1] - 4.3333331f) < 1e-6f);
    }
}

TEST(nearest_tie_rules) {
    static const float x4[4] = {10, 20, 30, 40}, x2[2] = {1, 2};
    static const float want_half[4][2] = {{10, 30}, {20, 40}, {10, 30}, {20, 40}};
    static const float want_asym[4][4] = {{1, 1, 2, 2}, {1, 2, 2, 2}, {1, 1, 2, 2}, {1, 2, 2, 2}};
    int64_t d4 = 4, d2 = 2, yd;
    float y[8], s;
    int rule;
    dnnlk_resize_desc d;
    memset(&d, 0, sizeof d);
    d.naxes = 1;
    d.scales = &s;
    for (rule = 0; rule < 4; rule++) {
        d.nearest = (dnnlk_resize_nearest_round)rule;
        /* half_pixel, scale 0.5: x = 0.5 and 2.5, both ties */
        d.coord = dnnlk_resize_half_pixel;
        s = 0.5f;
        run_1(x4, 1, &d4, d, y, &yd);
        CHECK_MSG(yd == 2 && same(y, want_half[rule], 2, 0), "rule %d: %g %g", rule, y[0], y[1]);
        /* asymmetric, scale 2: x = 0, 0.5, 1, 1.5 (the last clamps for ceil) */
        d.coord = dnnlk_resize_asymmetric;
        s = 2;
        run_1(x2, 1, &d2, d, y, &yd);
        CHECK_MSG(yd == 4 && same(y, want_asym[rule], 4, 0), "rule %d: %g %g %g %g", rule, y[0], y[1], y[2], y[3]);
    }
    { /* pytorch_half_pixel with one output: x = 0 (half_pixel would say 1.5) */
        int64_t one = 1;
        d.sizes = &one;
        d.scales = NULL;
        d.nearest = dnnlk_resize_round_prefer_floor;
        d.coord = dnnlk_resize_pytorch_half_pixel;
        run_1(x4, 1, &d4, d, y, &yd);
        CHECK(yd == 1 && y[0] == 10);
        d.coord = dnnlk_resize_half_pixel;
        run_1(x4, 1, &d4, d, y, &yd);
        CHECK(yd == 1 && y[0] == 20);
    }
}

TEST(u8_linear_rounds_half_even) {
    static const uint8_t x[2][2] = {{0, 1}, {1, 2}};
    static const uint8_t want[2][8] = {{0, 0, 0, 1, 1, 1, 1, 1}, {1, 1, 2, 2, 2, 2, 2, 2}};
    int64_t dims[2] = {2, 2}, ax = 1;
    float s = 4;
    uint8_t y[16];
    dnnlk_resize_desc d;
    dnnlk_tensor X = th_tensor((void *)x, dnnlk_u8, 2, dims), Y;
    int i;
    (void)ax;
    memset(&d, 0, sizeof d);
    d.mode = dnnlk_resize_linear;
    d.coord = dnnlk_resize_asymmetric;
    d.naxes = 1;
    d.axes = (const int[]){-1};
    d.scales = &s;
    memset(&Y, 0, sizeof Y);
    Y.data = y;
    Y.dtype = dnnlk_u8;
    Y.ndims = DNNLK_UNKNOWN;
    CHECK_EQ(dnnlk_resize(&X, &d, &Y, 0, 1), dnnlk_success);
    CHECK(Y.dims[0] == 2 && Y.dims[1] == 8);
    for (i = 0; i < 16; i++) CHECK_MSG(y[i] == want[i / 8][i % 8], "[%d] %d", i, y[i]);
}

/* ---- random cases: reference, and identical bits on every ISA and part count ---- */

static void random_case(int big) {
    static const dnnlk_dtype dts[4] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_u8};
    static const float scale_set[10] = {0.5f, 0.6f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 0.333333343f, 0.75f, 1.7f};
    int nd = big ? 4 : (int)th_randint(1, 4), i, naxes = 0, axes[6], nth_i, isa;
    int64_t dims[6], odims[6], n = 1, idx[6];
    float scales[6];
    int64_t sizes[6];
    dnnlk_dtype dt = big ? dnnlk_f32 : dts[th_randint(0, 3)];
    size_t es = dnnlk_dtype_size(dt);
    dnnlk_resize_desc d;
    ref_axis ax[6];
    layout ls, ld;
    th_buf sb, db, canon;
    dnnlk_tensor S, D;
    int use_sizes = (int)th_randint(0, 2) == 0;
    memset(&d, 0, sizeof d);
    d.mode = (dnnlk_resize_mode)th_randint(0, 1);
    d.coord = (dnnlk_resize_coord)th_randint(0, 3);
    d.nearest = (dnnlk_resize_nearest_round)th_randint(0, 3);
    for (i = 0; i < nd; i++) {
        dims[i] = big ? (i < 2 ? th_randint(1, 3) : th_randint(20, 700)) : th_randint(1, i == nd - 1 ? 40 : 6);
        if (!big && th_randint(0, 15) == 0) dims[i] = 0;
    }
    if (big) dims[2] = th_randint(2, 9); /* rows short, columns long: several column blocks */
    for (i = 0; i < nd; i++) {
        ax[i].in = ax[i].out = dims[i];
        ax[i].scale = 1;
        ax[i].length = (double)dims[i];
        ax[i].resized = 0;
        if (th_randint(0, 2) != 0 || (big && i >= 2)) {
            int a = i;
            axes[naxes] = th_randint(0, 1) ? a : a - nd;
            if (use_sizes) {
                sizes[naxes] = dims[i] == 0 ? 0 : th_randint(1, 2 * dims[i] + 3);
                ax[i].out = sizes[naxes];
                ax[i].scale = dims[i] ? (double)sizes[naxes] / (double)dims[i] : 1.0;
                ax[i].length = (double)ax[i].out;
            } else {
                scales[naxes] = scale_set[th_randint(0, 9)];
                ax[i].scale = scales[naxes];
                ax[i].length = (double)dims[i] * ax[i].scale;
                ax[i].out = (int64_t)floor(ax[i].length);
            }
            ax[i].resized = !(ax[i].out == ax[i].in && ax[i].scale == 1.0) && ax[i].in > 0 && ax[i].out > 0;
            naxes++;
        }
    }
    /* shuffle the listed axes (the order must not matter) */
    for (i = naxes - 1; i > 0; i--) {
        int k = (int)th_randint(0, i), t = axes[i];
        float ts = scales[i];
        int64_t tz = sizes[i];
        axes[i] = axes[k], axes[k] = t;
        scales[i] = scales[k], scales[k] = ts;
        sizes[i] = sizes[k], sizes[k] = tz;
    }
    d.naxes = naxes;
    d.axes = axes;
    if (use_sizes) d.sizes = sizes;
    else d.scales = scales;
    for (i = 0; i < nd; i++) odims[i] = ax[i].out, n *= ax[i].out;
    ls = make_layout(nd, dims, big ? 0 : (int)th_randint(0, 3));
    ld = make_layout(nd, odims, big ? (int)th_randint(0, 1) : (int)th_randint(0, 2));
    sb = th_alloc((size_t)ls.span * es, (size_t)th_randint(0, 3) * es);
    db = th_alloc((size_t)ld.span * es, (size_t)th_randint(0, 3) * es);
    canon = th_alloc((size_t)ld.span * es, 0);
    for (i = 0; i < ls.span; i++) {
        if (dt == dnnlk_u8) ((uint8_t *)sb.p)[i] = (uint8_t)th_rand32();
        else dnnlk__store_from_f32((char *)sb.p + i * (int64_t)es, dt, th_randf(-100, 100));
    }
    /* canonical: scalar ISA, one part */
    memset(canon.p, 0x5a, canon.bytes);
    S = view(&ls, sb.p, dt);
    D = view(&ld, canon.p, dt);
    dnnlk_set_max_isa(dnnlk_isa_scalar);
    CHECK_EQ(dnnlk_resize(&S, &d, &D, 0, 1), dnnlk_success);
    dnnlk_set_max_isa(th_isa);
    /* against the reference */
    memset(idx, 0, sizeof idx);
    if (n > 0) {
        int bad = 0;
        do {
            int64_t off = ld.off;
            double mag, want = ref_value(&ls, sb.p, dt, ax, &d, idx, &mag), got, tol;
            for (i = 0; i < nd; i++) off += idx[i] * ld.strides[i];
            got = load_v((const char *)canon.p + off * (int64_t)es, dt);
            if (d.mode == dnnlk_resize_nearest) tol = 0;
            else if (dt == dnnlk_u8) tol = 0.5 + 1e-3;
            else if (dt == dnnlk_f32) tol = 4e-7 * mag * nd + 1e-30;
            else tol = (dt == dnnlk_bf16 ? 1.0 / 256 : 1.0 / 2048) * fabs(want) + 4e-7 * mag * nd;
            if (!(fabs(got - want) <= tol) && bad++ < 3)
                CHECK_MSG(0, "%s %s coord %d rule %d nd %d: got %.9g want %.9g", dnnlk_dtype_name(dt),
                          d.mode ? "linear" : "nearest", d.coord, d.nearest, nd, got, want);
        } while (th_next_index(nd, odims, idx));
    }
    /* this ISA, every part count: the canonical bits; nothing written outside dst */
    for (isa = 0; isa < 1; isa++) {
        for (nth_i = 0; nth_i < 4; nth_i++) {
            static const int nths[4] = {1, 2, 3, 7};
            int nth = nths[nth_i], part;
            memset(db.p, 0x5a, db.bytes);
            D = view(&ld, db.p, dt);
            for (part = 0; part < nth; part++) CHECK_EQ(dnnlk_resize(&S, &d, &D, part, nth), dnnlk_success);
            CHECK_MSG(memcmp(db.p, canon.p, db.bytes) == 0, "%s %s coord %d nd %d nth %d: differs from scalar",
                      dnnlk_dtype_name(dt), d.mode ? "linear" : "nearest", d.coord, nd, nth);
            CHECK(th_guards_ok(&db));
        }
    }
    th_free(&sb);
    th_free(&db);
    th_free(&canon);
}

TEST(random_against_reference) {
    long i, n = th_scaled(600);
    th_seed(7);
    for (i = 0; i < n; i++) random_case(0);
}

TEST(long_rows_against_reference) {
    long i, n = th_scaled(30);
    th_seed(8);
    for (i = 0; i < n; i++) random_case(1);
}

/* The benchmark's shapes, smaller: NCHW x2 and NHWC x2, nearest and linear, every part count. */
TEST(nchw_nhwc_x2) {
    int64_t dims[4] = {2, 19, 13, 37};
    int kind, mode, nth_i;
    th_seed(9);
    for (kind = 0; kind < 2; kind++) {
        for (mode = 0; mode < 2; mode++) {
            int64_t od[4] = {2, 19, 26, 74};
            layout ls = make_layout(4, dims, kind), ld = make_layout(4, od, kind);
            th_buf sb = th_alloc((size_t)ls.span * 4, 0), db = th_alloc((size_t)ld.span * 4, 4), cb = th_alloc((size_t)ld.span * 4, 0);
            float sc[2] = {2, 2};
            int ax[2] = {2, 3};
            dnnlk_resize_desc d;
            dnnlk_tensor S = view(&ls, sb.p, dnnlk_f32), D;
            int64_t i;
            memset(&d, 0, sizeof d);
            d.mode = (dnnlk_resize_mode)mode;
            d.naxes = 2;
            d.axes = ax;
            d.scales = sc;
            for (i = 0; i < ls.span; i++) ((float *)sb.p)[i] = th_randf(-1, 1);
            D = view(&ld, cb.p, dnnlk_f32);
            dnnlk_set_max_isa(dnnlk_isa_scalar);
            CHECK_EQ(dnnlk_resize(&S, &d, &D, 0, 1), dnnlk_success);
            dnnlk_set_max_isa(th_isa);
            for (nth_i = 0; nth_i < 4; nth_i++) {
                static const int nths[4] = {1, 2, 3, 7};
                int part;
                memset(db.p, 0, db.bytes);
                D = view(&ld, db.p, dnnlk_f32);
                for (part = nths[nth_i] - 1; part >= 0; part--)
                    CHECK_EQ(dnnlk_resize(&S, &d, &D, part, nths[nth_i]), dnnlk_success);
                CHECK_MSG(memcmp(db.p, cb.p, db.bytes) == 0, "layout %d mode %d nth %d", kind, mode, nths[nth_i]);
                CHECK(th_guards_ok(&db));
            }
            th_free(&sb);
            th_free(&db);
            th_free(&cb);
        }
    }
}

/* Nearest f32 along a contiguous inner axis: the x2 permute path (both phases: ceil-like rules
 * shift the pairs), the path that writes two equal output rows at once (rows equally or unequally
 * aligned: padded dst rows), other scales next to it, column blocks and tails, misaligned dst,
 * cached and streaming stores; every part count gives the scalar ISA's bits. */
TEST(nearest_x2_paths) {
    static const int64_t widths[] = {1, 2, 3, 7, 8, 9, 16, 17, 31, 64, 100, 255, 256, 300, 700};
    static const float scs[] = {2.0f, 4.0f, 3.0f, 2.5f, 1.5f};
    unsigned wi, k;
    int nth_i;
    th_seed(12);
    for (wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        for (k = 0; k < 12; k++) {
            int64_t W = widths[wi], H = (int64_t)th_randint(1, 4), C = widths[wi] >= 256 ? 24 : 3;
            int64_t dims[4] = {1, C, H, W}, od[4], dst_st[4], pad = th_randint(0, 1) ? 0 : th_randint(1, 5);
            float sc[2];
            int ax[2] = {2, 3};
            dnnlk_resize_desc d;
            th_buf sb, db, cb;
            size_t bytes;
            int64_t i, mis = th_randint(0, 3);
            dnnlk_tensor S, D;
            sc[0] = k < 8 ? 2.0f : scs[th_randint(0, 4)];
            sc[1] = k < 6 ? 2.0f : scs[th_randint(0, 4)];
            memset(&d, 0, sizeof d);
            d.mode = dnnlk_resize_nearest;
            d.coord = (dnnlk_resize_coord)th_randint(0, 3);
            d.nearest = (dnnlk_resize_nearest_round)(k & 3);
            d.naxes = 2;
            d.axes = ax;
            d.scales = sc;
            od[0] = 1, od[1] = C, od[2] = (int64_t)floor((double)H * sc[0]), od[3] = (int64_t)floor((double)W * sc[1]);
            dst_st[3] = 1, dst_st[2] = od[3] + pad, dst_st[1] = dst_st[2] * od[2], dst_st[0] = dst_st[1] * C;
            bytes = (size_t)(dst_st[0] * 4);
            sb = th_alloc((size_t)(C * H * W) * 4, 0);
            db = th_alloc(bytes, (size_t)mis * 4);
            cb = th_alloc(bytes, (size_t)mis * 4);
            for (i = 0; i < C * H * W; i++) ((float *)sb.p)[i] = th_randf(-1, 1);
            S = th_tensor(sb.p, dnnlk_f32, 4, dims);
            D = th_strided(cb.p, 0, dnnlk_f32, 4, od, dst_st);
            memset(cb.p, 0x5a, bytes);
            dnnlk_set_max_isa(dnnlk_isa_scalar);
            CHECK_EQ(dnnlk_resize(&S, &d, &D, 0, 1), dnnlk_success);
            dnnlk_set_max_isa(th_isa);
            for (nth_i = 0; nth_i < 4; nth_i++) {
                static const int nths[4] = {1, 2, 3, 7};
                int part;
                memset(db.p, 0x5a, bytes);
                D = th_strided(db.p, 0, dnnlk_f32, 4, od, dst_st);
                for (part = nths[nth_i] - 1; part >= 0; part--)
                    CHECK_EQ(dnnlk_resize(&S, &d, &D, part, nths[nth_i]), dnnlk_success);
                CHECK_MSG(memcmp(db.p, cb.p, bytes) == 0, "W %lld H %lld scales %g %g coord %d rule %d pad %lld mis %lld nth %d",
                          (long long)W, (long long)H, (double)sc[0], (double)sc[1], d.coord, d.nearest, (long long)pad,
                          (long long)mis, nths[nth_i]);
                CHECK(th_guards_ok(&db));
            }
            th_free(&sb);
            th_free(&db);
            th_free(&cb);
        }
    }
}

/* Large output: the non-temporal path (aligned and misaligned rows). */
TEST(streaming_path) {
    int64_t dims[4] = {1, 3, 250, 301}, od[4] = {1, 3, 500, 602};
    th_buf sb = th_alloc((size_t)(3 * 250 * 301) * 4, 0), db = th_alloc((size_t)(3 * 500 * 602) * 4, 4);
    th_buf cb = th_alloc((size_t)(3 * 500 * 602) * 4, 0);
    float sc[2] = {2, 2};
    int mode;
    int64_t i;
    for (i = 0; i < 3 * 250 * 301; i++) ((float *)sb.p)[i] = (float)(i % 1000) * 0.01f;
    for (mode = 0; mode < 2; mode++) {
        dnnlk_resize_desc d;
        dnnlk_tensor S = th_tensor(sb.p, dnnlk_f32, 4, dims), D = th_tensor(cb.p, dnnlk_f32, 4, od);
        memset(&d, 0, sizeof d);
        d.mode = (dnnlk_resize_mode)mode;
        d.naxes = 2;
        d.axes = (const int[]){2, 3};
        d.scales = sc;
        dnnlk_set_max_isa(dnnlk_isa_scalar);
        CHECK_EQ(dnnlk_resize(&S, &d, &D, 0, 1), dnnlk_success);
        dnnlk_set_max_isa(th_isa);
        D = th_tensor(db.p, dnnlk_f32, 4, od);
        CHECK_EQ(dnnlk_resize(&S, &d, &D, 0, 2), dnnlk_success);
        CHECK_EQ(dnnlk_resize(&S, &d, &D, 1, 2), dnnlk_success);
        CHECK(memcmp(db.p, cb.p, db.bytes) == 0);
        CHECK(th_guards_ok(&db));
    }
    th_free(&sb);
    th_free(&db);
    th_free(&cb);
}

#if DNNLK__X86
/* FTZ/DAZ on: linear over denormals and infinities gives the scalar ISA's bits on every ISA. */
TEST(ftz_daz_matches_scalar) {
    unsigned csr = _mm_getcsr();
    int64_t dims[2] = {5, 37}, od[2] = {10, 74}, i;
    float x[5 * 37], ys[10 * 74], yv[10 * 74], sc[2] = {2, 2};
    dnnlk_resize_desc d;
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 2, dims), Ys = th_tensor(ys, dnnlk_f32, 2, od), Yv = th_tensor(yv, dnnlk_f32, 2, od);
    dnnlk_isa top = dnnlk_max_isa();
    memset(&d, 0, sizeof d);
    d.mode = dnnlk_resize_linear;
    d.naxes = 2;
    d.scales = sc;
    for (i = 0; i < 5 * 37; i++) x[i] = (i % 5 == 0) ? 3e-39f * (float)(i % 7) : (i % 11 == 0 ? INFINITY : th_randf(-1e-37f, 1e-37f));
    _mm_setcsr(csr | 0x8040);
    dnnlk_set_max_isa(dnnlk_isa_scalar);
    CHECK_EQ(dnnlk_resize(&X, &d, &Ys, 0, 1), dnnlk_success);
    dnnlk_set_max_isa(top);
    CHECK_EQ(dnnlk_resize(&X, &d, &Yv, 0, 1), dnnlk_success);
    _mm_setcsr(csr);
    CHECK(memcmp(ys, yv, sizeof ys) == 0);
}
#endif

/* ---- the general path: cubic, antialias, tf_crop_and_resize, half_pixel_symmetric,
 * keep_aspect_ratio_policy, every dtype ---- */

/* PyTorch's and onnx.reference's outputs (tools/resize_cases.py) at every part count; the parts
 * give the bits of one. */
TEST(torch_and_onnx_cases) {
    size_t ci;
    for (ci = 0; ci < sizeof resize_cases / sizeof resize_cases[0]; ci++) {
        const resize_case *rc = &resize_cases[ci];
        int64_t n = rc->in[0] * rc->in[1] * rc->in[2] * rc->in[3], i;
        float *x = (float *)malloc((size_t)n * 4), *y = (float *)malloc((size_t)rc->n * 4), *y1 = (float *)malloc((size_t)rc->n * 4);
        dnnlk_resize_desc d;
        dnnlk_tensor X = th_tensor(x, dnnlk_f32, 4, rc->in), Y;
        int nth_i, bad = 0;
        for (i = 0; i < n; i++) x[i] = (float)((double)((37 * i) % 101) * 0.1 - 5.0);
        memset(&d, 0, sizeof d);
        d.mode = rc->mode;
        d.coord = rc->coord;
        d.nearest = rc->nearest;
        d.keep_aspect = rc->keep_aspect;
        d.naxes = 2;
        d.axes = (const int[]){2, 3};
        if (rc->use_sizes) d.sizes = rc->sizes;
        else d.scales = rc->scales;
        d.antialias = rc->antialias;
        d.exclude_outside = rc->exclude_outside;
        d.cubic_coeff_a = rc->cubic_coeff_a;
        d.extrapolation_value = rc->extrapolation_value;
        d.nroi = rc->nroi;
        d.roi = rc->nroi ? rc->roi : NULL;
        memset(&Y, 0, sizeof Y);
        Y.dtype = dnnlk_f32;
        Y.ndims = DNNLK_UNKNOWN;
        CHECK_EQ(dnnlk_resize_infer(&X, &d, &Y), dnnlk_success);
        CHECK_MSG(Y.dims[2] == rc->out[2] && Y.dims[3] == rc->out[3], "%s: dims %lld %lld", rc->name,
                  (long long)Y.dims[2], (long long)Y.dims[3]);
        if (Y.dims[2] != rc->out[2] || Y.dims[3] != rc->out[3]) continue;
        Y.data = y1;
        CHECK_EQ(dnnlk_resize(&X, &d, &Y, 0, 1), dnnlk_success);
        for (i = 0; i < rc->n; i++) {
            double tol = 2e-6 * (1.0 + fabs(rc->y[i])) * (rc->antialias ? 4 : 1);
            if (!(fabs((double)y1[i] - rc->y[i]) <= tol) && bad++ < 3)
                CHECK_MSG(0, "%s [%lld]: got %.9g want %.9g", rc->name, (long long)i, y1[i], rc->y[i]);
        }
        for (nth_i = 1; nth_i < 4; nth_i++) {
            static const int nths[4] = {1, 2, 3, 7};
            int part;
            memset(y, 0x5a, (size_t)rc->n * 4);
            Y.data = y;
            for (part = 0; part < nths[nth_i]; part++) CHECK_EQ(dnnlk_resize(&X, &d, &Y, part, nths[nth_i]), dnnlk_success);
            CHECK_MSG(memcmp(y, y1, (size_t)rc->n * 4) == 0, "%s: nth %d differs from one part", rc->name, nths[nth_i]);
        }
        free(x), free(y), free(y1);
    }
}

typedef struct gref_axis {
    int64_t in, out;
    double scale, length, roi0, roi1;
    int resized;
} gref_axis;

typedef struct gref_params {
    int mode, coord, nearest, antialias, exclude;
    double a;
} gref_params;

/* ONNX's formulas for x_original (the spec's: pytorch_half_pixel gives 0 for one output). */
static double gref_x(const gref_axis *a, int coord, int64_t o) {
    switch (coord) {
    case dnnlk_resize_half_pixel_symmetric:
        return a->in / 2.0 * (1.0 - a->out / a->length) + (o + 0.5) / a->scale - 0.5;
    case dnnlk_resize_tf_crop_and_resize:
        if (a->length > 1) return a->roi0 * (a->in - 1) + o * (a->roi1 - a->roi0) * (a->in - 1) / (a->length - 1);
        return 0.5 * (a->roi0 + a->roi1) * (a->in - 1);
    default: {
        ref_axis r;
        r.in = a->in, r.out = a->out, r.scale = a->scale, r.length = a->length, r.resized = a->resized;
        return ref_x(&r, coord, o);
    }
    }
}

/* onnx.reference's 1-D taps, written from its description: the ratio is 1 at an integral x (the
 * pixel on the left preferred), the window is the n indices nearest x (ties to the smaller),
 * edge-padded; non-antialiased cubic by ONNX's polynomial form. Returns 1 outside the roi. */
static int gref_taps(const gref_axis *a, const gref_params *p, int64_t o, int64_t *idx, double *w, int *n) {
    double x = gref_x(a, p->coord, o), fl = floor(x), ratio = x == fl ? 1.0 : x - fl, A = p->a, s = 1.0, sum = 0;
    int i, start;
    if (p->coord == dnnlk_resize_tf_crop_and_resize && (x < 0 || x > a->in - 1)) return 1;
    if (p->mode == dnnlk_resize_nearest) {
        ref_axis r;
        r.in = a->in, r.out = a->out, r.scale = a->scale, r.length = a->length, r.resized = 1;
        /* ref_nearest evaluates ref_x: give it x through asymmetric with scale 1/x... simpler here */
        {
            double f = floor(x), q;
            if (x == f) q = x;
            else if (p->nearest == dnnlk_resize_floor) q = f;
            else if (p->nearest == dnnlk_resize_ceil) q = f + 1;
            else if (p->nearest == dnnlk_resize_round_prefer_floor) q = x - f <= 0.5 ? f : f + 1;
            else q = x - f < 0.5 ? f : f + 1;
            if (q < 0) q = 0;
            if (q > r.in - 1) q = (double)(r.in - 1);
            idx[0] = (int64_t)q;
        }
        w[0] = 1;
        *n = 1;
        return 0;
    }
    if (p->antialias && a->scale < 1) s = a->scale;
    if (!p->antialias && p->mode == dnnlk_resize_cubic) {
        double r = ratio, t = 1 - ratio;
        *n = 4;
        w[0] = ((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A;
        w[1] = ((A + 2) * r - (A + 3)) * r * r + 1;
        w[2] = ((A + 2) * t - (A + 3)) * t * t + 1;
        w[3] = ((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A;
    } else if (!p->antialias) {
        *n = 2;
        w[0] = 1 - ratio;
        w[1] = ratio;
    } else {
        double h = p->mode == dnnlk_resize_cubic ? 2 : 1;
        start = (int)floor(-h / s) + 1;
        *n = 2 - 2 * start;
        for (i = 0; i < *n; i++) {
            double d = fabs(s * (start + i - ratio));
            if (p->mode == dnnlk_resize_cubic)
                w[i] = d <= 1 ? (A + 2) * d * d * d - (A + 3) * d * d + 1 : d < 2 ? A * d * d * d - 5 * A * d * d + 8 * A * d - 4 * A : 0;
            else
                w[i] = d < 1 ? 1 - d : 0;
            sum += w[i];
        }
        for (i = 0; i < *n; i++) w[i] /= sum;
    }
    /* the n nearest: even n, so the window starts n/2 - 1 left of floor(x), or n/2 at an integer */
    for (i = 0; i < *n; i++) idx[i] = (int64_t)fl - *n / 2 + (x == fl ? 0 : 1) + i;
    if (p->exclude) {
        sum = 0;
        for (i = 0; i < *n; i++) {
            if (idx[i] < 0 || idx[i] >= a->in) w[i] = 0;
            sum += w[i];
        }
        if (sum == 0) sum = 1;
        for (i = 0; i < *n; i++) w[i] /= sum;
    }
    for (i = 0; i < *n; i++) idx[i] = idx[i] < 0 ? 0 : idx[i] >= a->in ? a->in - 1 : idx[i];
    return 0;
}

static double gload(const void *p, dnnlk_dtype t) {
    switch (t) {
    case dnnlk_u8: return *(const uint8_t *)p;
    case dnnlk_s8: return *(const int8_t *)p;
    case dnnlk_f64: { double v; memcpy(&v, p, 8); return v; }
    default: return dnnlk__load_as_f32(p, t);
    }
}

/* The reference's value at idx: 1 when it extrapolates; else want (the weighted sum over the
 * product of every axis' taps) and mag (the sum of |weight * value|, for the tolerance), or for
 * nearest the source element's byte offset in *src_off. */
static int gref_value(const layout *ls, const void *src, dnnlk_dtype dt, const gref_axis *ax, const gref_params *p,
                      const int64_t *idx, double *want, double *mag, int64_t *src_off) {
    int nd = ls->ndims, i, n[6], dig[6];
    int64_t tidx[6][DNNLK__RESIZE_MAXTAPS];
    double tw[6][DNNLK__RESIZE_MAXTAPS];
    int64_t es = (int64_t)dnnlk_dtype_size(dt);
    *want = 0, *mag = 0;
    for (i = 0; i < nd; i++) {
        if (!ax[i].resized) {
            n[i] = 1, tidx[i][0] = idx[i], tw[i][0] = 1;
        } else if (gref_taps(&ax[i], p, idx[i], tidx[i], tw[i], &n[i])) {
            return 1;
        }
        dig[i] = 0;
    }
    for (;;) {
        int64_t off = ls->off;
        double w = 1, v;
        for (i = 0; i < nd; i++) off += tidx[i][dig[i]] * ls->strides[i], w *= tw[i][dig[i]];
        *src_off = off * es;
        v = gload((const char *)src + off * es, dt);
        *want += w * v;
        *mag += fabs(w * v);
        for (i = nd - 1; i >= 0; i--) {
            if (++dig[i] < n[i]) break;
            dig[i] = 0;
        }
        if (i < 0) break;
    }
    return 0;
}

static void random_general_case(int big) {
    static const dnnlk_dtype fdts[6] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_f64, dnnlk_u8, dnnlk_s8};
    static const dnnlk_dtype ndts[9] = {dnnlk_f32, dnnlk_bf16, dnnlk_f16, dnnlk_f64, dnnlk_u8, dnnlk_s8,
                                        dnnlk_s32, dnnlk_s64, dnnlk_boolean};
    static const float scale_set[12] = {0.5f, 0.6f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 0.333333343f, 0.75f, 1.7f, 0.3f, 0.2f};
    int nd = (int)th_randint(1, 4), i, naxes = 0, axes[6], nth_i, kind = (int)th_randint(0, 5), use_sizes = (int)th_randint(0, 2) == 0;
    int64_t dims[6], odims[6], n = 1, idx[6], sizes[6];
    float scales[6], roi[12];
    dnnlk_dtype dt;
    size_t es;
    dnnlk_resize_desc d;
    gref_axis ax[6];
    gref_params gp;
    layout ls, ld;
    th_buf sb, db, canon;
    dnnlk_tensor S, D;
    double aspect = 0;
    memset(&d, 0, sizeof d);
    /* kinds: cubic, antialiased linear, antialiased cubic, tf_crop_and_resize (nearest, linear),
     * half_pixel_symmetric linear/nearest through the two-tap paths */
    d.mode = kind == 0 || kind == 2 ? dnnlk_resize_cubic : kind == 3 && th_randint(0, 1) ? dnnlk_resize_nearest
           : kind == 5 ? (dnnlk_resize_mode)th_randint(0, 1) : dnnlk_resize_linear;
    d.antialias = kind == 1 || kind == 2;
    d.coord = kind == 3 ? dnnlk_resize_tf_crop_and_resize : kind == 5 ? dnnlk_resize_half_pixel_symmetric
            : (dnnlk_resize_coord)th_randint(0, 4);
    d.nearest = (dnnlk_resize_nearest_round)th_randint(0, 3);
    d.exclude_outside = (int)th_randint(0, 1);
    d.cubic_coeff_a = th_randint(0, 1) ? 0.0f : -0.5f;
    d.extrapolation_value = th_randf(-50, 50);
    if (use_sizes && th_randint(0, 1)) d.keep_aspect = (dnnlk_resize_aspect)th_randint(1, 2);
    dt = d.mode == dnnlk_resize_nearest ? ndts[th_randint(0, 8)] : fdts[th_randint(0, 5)];
    if (big) nd = (int)th_randint(2, 3), dt = dnnlk_f32; /* long rows: the vector paths' windows, permutes, gathers */
    es = dnnlk_dtype_size(dt);
    for (i = 0; i < nd; i++) dims[i] = th_randint(1, i == nd - 1 ? (big ? 400 : 40) : (big ? 4 : 7));
    for (i = 0; i < nd; i++) {
        ax[i].in = ax[i].out = dims[i];
        ax[i].scale = 1, ax[i].length = (double)dims[i], ax[i].roi0 = 0, ax[i].roi1 = 1, ax[i].resized = 0;
        if (th_randint(0, 2) != 0 || (naxes == 0 && i == nd - 1)) {
            axes[naxes] = th_randint(0, 1) ? i : i - nd;
            sizes[naxes] = th_randint(1, 2 * dims[i] + 3);
            scales[naxes] = scale_set[th_randint(0, 11)];
            naxes++;
        }
    }
    for (i = 0; i < naxes; i++) { /* starts, then ends */
        roi[i] = th_randint(0, 2) ? th_randf(-0.3f, 0.5f) : 0.0f;
        roi[naxes + i] = th_randint(0, 2) ? th_randf(0.5f, 1.3f) : 1.0f;
    }
    if (d.keep_aspect)
        for (i = 0; i < naxes; i++) {
            int a = axes[i] < 0 ? axes[i] + nd : axes[i];
            double r = (double)sizes[i] / (double)dims[a];
            if (i == 0 || (d.keep_aspect == dnnlk_resize_not_larger ? r < aspect : r > aspect)) aspect = r;
        }
    for (i = 0; i < naxes; i++) {
        gref_axis *g = &ax[axes[i] < 0 ? axes[i] + nd : axes[i]];
        if (d.keep_aspect) {
            g->scale = aspect, g->length = g->in * aspect, g->out = (int64_t)floor(g->length + 0.5);
        } else if (use_sizes) {
            g->out = sizes[i], g->scale = (double)g->out / (double)g->in, g->length = (double)g->out;
        } else {
            g->scale = scales[i], g->length = g->in * g->scale, g->out = (int64_t)floor(g->length);
        }
        if (d.coord == dnnlk_resize_tf_crop_and_resize) g->roi0 = roi[i], g->roi1 = roi[naxes + i];
        g->resized = !(g->out == g->in && g->scale == 1.0 && g->roi0 == 0 && g->roi1 == 1) && g->out > 0;
    }
    d.naxes = naxes;
    d.axes = axes;
    if (use_sizes) d.sizes = sizes;
    else d.scales = scales;
    if (d.coord == dnnlk_resize_tf_crop_and_resize) d.nroi = 2 * naxes, d.roi = roi;
    { /* the reference sums over every tap combination: keep that under 2048 per element (so
       * also under the 128 taps per axis an antialiased window may have), and a case's work */
        double combos = 1, outs = 1;
        for (i = 0; i < nd; i++) {
            outs *= (double)ax[i].out;
            double sc = ax[i].scale < 1 && d.antialias ? ax[i].scale : 1, h = d.mode == dnnlk_resize_cubic ? 2 : 1;
            if (ax[i].resized && d.mode != dnnlk_resize_nearest) combos *= 2 - 2 * (floor(-h / sc) + 1);
        }
        if (combos > 2048 || combos * outs > 300000) { /* and the work per case bounded */
            random_general_case(big);
            return;
        }
    }
    gp.mode = d.mode, gp.coord = d.coord, gp.nearest = d.nearest, gp.antialias = d.antialias;
    gp.exclude = d.exclude_outside, gp.a = d.cubic_coeff_a != 0 ? d.cubic_coeff_a : -0.75;
    for (i = 0; i < nd; i++) odims[i] = ax[i].out, n *= ax[i].out;
    ls = make_layout(nd, dims, big ? 0 : (int)th_randint(0, 3));
    ld = make_layout(nd, odims, big ? 0 : (int)th_randint(0, 2));
    sb = th_alloc((size_t)ls.span * es, 0);
    db = th_alloc((size_t)ld.span * es, (size_t)th_randint(0, 3) * es);
    canon = th_alloc((size_t)ld.span * es, 0);
    for (i = 0; i < ls.span; i++) {
        char *q = (char *)sb.p + i * (int64_t)es;
        if (dt == dnnlk_f64) { /* (two draws in sequence: the same values with every compiler) */
            double v = th_randf(-100, 100);
            v += th_randf(-1, 1) * 1e-6;
            memcpy(q, &v, 8);
        }
        else if (dt == dnnlk_boolean) *q = (char)(th_rand32() & 1);
        else if (dt == dnnlk_u8 || dt == dnnlk_s8 || dt == dnnlk_s32 || dt == dnnlk_s64)
            for (size_t b = 0; b < es; b++) q[b] = (char)th_rand32();
        else dnnlk__store_from_f32(q, dt, th_randf(-100, 100));
    }
    S = view(&ls, sb.p, dt);
    memset(canon.p, 0x5a, canon.bytes);
    D = view(&ld, canon.p, dt);
    dnnlk_set_max_isa(dnnlk_isa_scalar);
    CHECK_EQ(dnnlk_resize(&S, &d, &D, 0, 1), dnnlk_success);
    dnnlk_set_max_isa(th_isa);
    memset(idx, 0, sizeof idx);
    if (n > 0) {
        int bad = 0;
        unsigned char ext[8];
        dnnlk__resize_extrap_bytes(dt, d.extrapolation_value, ext);
        do {
            int64_t off = ld.off, soff = 0;
            double want, mag, got, tol = 0;
            int outside = gref_value(&ls, sb.p, dt, ax, &gp, idx, &want, &mag, &soff), ok;
            const char *gp_ = (const char *)canon.p;
            for (i = 0; i < nd; i++) off += idx[i] * ld.strides[i];
            gp_ += off * (int64_t)es;
            if (outside) {
                ok = memcmp(gp_, ext, es) == 0;
                got = want = 0;
            } else if (d.mode == dnnlk_resize_nearest) {
                ok = memcmp(gp_, (const char *)sb.p + soff, es) == 0;
                got = want = 0;
            } else {
                got = gload(gp_, dt);
                if (dt == dnnlk_u8 || dt == dnnlk_s8) {
                    double lo = dt == dnnlk_u8 ? 0 : -128, hi = dt == dnnlk_u8 ? 255 : 127;
                    want = want < lo ? lo : want > hi ? hi : want;
                    tol = 0.5 + 1e-3 * (1 + mag);
                } else if (dt == dnnlk_f64) {
                    tol = 1e-13 * mag * nd + 1e-300;
                } else if (dt == dnnlk_f32) {
                    tol = 1e-6 * mag * nd + 1e-30;
                } else {
                    tol = (dt == dnnlk_bf16 ? 1.0 / 256 : 1.0 / 2048) * fabs(want) + 1e-6 * mag * nd;
                }
                ok = fabs(got - want) <= tol;
            }
            if (!ok && bad++ < 3)
                CHECK_MSG(0, "%s mode %d coord %d aa %d excl %d aspect %d nd %d: got %.12g want %.12g (outside %d)",
                          dnnlk_dtype_name(dt), d.mode, d.coord, d.antialias, d.exclude_outside, d.keep_aspect, nd, got,
                          want, outside);
        } while (th_next_index(nd, odims, idx));
    }
    for (nth_i = 0; nth_i < 4; nth_i++) {
        static const int nths[4] = {1, 2, 3, 7};
        int nth = nths[nth_i], part;
        memset(db.p, 0x5a, db.bytes);
        D = view(&ld, db.p, dt);
        for (part = 0; part < nth; part++) CHECK_EQ(dnnlk_resize(&S, &d, &D, part, nth), dnnlk_success);
        CHECK_MSG(memcmp(db.p, canon.p, db.bytes) == 0, "%s mode %d coord %d aa %d nd %d nth %d: differs from scalar",
                  dnnlk_dtype_name(dt), d.mode, d.coord, d.antialias, nd, nth);
        CHECK(th_guards_ok(&db));
    }
    th_free(&sb);
    th_free(&db);
    th_free(&canon);
}

TEST(general_against_reference) {
    long i, n = th_scaled(400);
    th_seed(21);
    for (i = 0; i < n; i++) random_general_case(0);
}

TEST(general_long_rows) {
    long i, n = th_scaled(30);
    th_seed(22);
    for (i = 0; i < n; i++) random_general_case(1);
}

/* An integer upscale along the contiguous inner axis (x2, x4; x3 too, which keeps the column
 * table): the separable passes' periodic inner run (unaligned loads per phase, interleaved) must
 * give the bits of the element path, dnnlk__resize_tap_at, which an output with inner stride 2
 * takes. Cubic (both a, exclude_outside) and f32 linear, every coordinate mode without a roi,
 * widths around the vector widths and the border taps, padded rows in and out, misaligned
 * buffers, 1, 2, 3 and 7 parts. */
TEST(integer_upscale_matches_element_path) {
    static const int64_t widths[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 23, 31, 33, 64, 100, 129, 255, 300};
    static const float factors[] = {2.0f, 4.0f, 3.0f};
    static const dnnlk_resize_coord coords[] = {dnnlk_resize_half_pixel, dnnlk_resize_pytorch_half_pixel,
                                                dnnlk_resize_align_corners, dnnlk_resize_asymmetric,
                                                dnnlk_resize_half_pixel_symmetric};
    long n = th_scaled(120), it;
    int nth_i;
    th_seed(31);
    for (it = 0; it < n; it++) {
        const int64_t W = widths[it % (long)(sizeof widths / sizeof widths[0])], H = th_randint(1, 5), C = th_randint(1, 3);
        const int64_t ipad = th_randint(0, 1) ? 0 : th_randint(1, 5), opad = th_randint(0, 1) ? 0 : th_randint(1, 5);
        const int64_t mis = th_randint(0, 3);
        int64_t dims[4] = {1, C, H, W}, od[4], src_st[4], dst_st[4], ref_st[4], c, h, w;
        float sc[2];
        int ax[2] = {2, 3};
        dnnlk_resize_desc d;
        th_buf sb, db, rb;
        dnnlk_tensor S, D;
        sc[1] = factors[th_randint(0, 2)];
        sc[0] = th_randint(0, 2) ? sc[1] : (float)th_randint(1, 4);
        memset(&d, 0, sizeof d);
        d.mode = th_randint(0, 2) ? dnnlk_resize_cubic : dnnlk_resize_linear;
        d.coord = coords[th_randint(0, 4)];
        d.cubic_coeff_a = th_randint(0, 1) ? -0.5f : -0.75f;
        d.exclude_outside = (int)th_randint(0, 1);
        d.naxes = 2;
        d.axes = ax;
        d.scales = sc;
        od[0] = 1, od[1] = C, od[2] = (int64_t)((double)H * sc[0]), od[3] = (int64_t)((double)W * sc[1]);
        src_st[3] = 1, src_st[2] = W + ipad, src_st[1] = src_st[2] * H, src_st[0] = src_st[1] * C;
        dst_st[3] = 1, dst_st[2] = od[3] + opad, dst_st[1] = dst_st[2] * od[2], dst_st[0] = dst_st[1] * C;
        ref_st[3] = 2, ref_st[2] = 2 * od[3], ref_st[1] = ref_st[2] * od[2], ref_st[0] = ref_st[1] * C;
        sb = th_alloc((size_t)src_st[0] * 4, (size_t)th_randint(0, 3) * 4);
        db = th_alloc((size_t)dst_st[0] * 4, (size_t)mis * 4);
        rb = th_alloc((size_t)ref_st[0] * 4, 0);
        for (c = 0; c < src_st[0]; c++) ((float *)sb.p)[c] = th_randf(-1, 1);
        S = th_strided(sb.p, 0, dnnlk_f32, 4, dims, src_st);
        D = th_strided(rb.p, 0, dnnlk_f32, 4, od, ref_st);
        CHECK_EQ(dnnlk_resize(&S, &d, &D, 0, 1), dnnlk_success);
        for (nth_i = 0; nth_i < 4; nth_i++) {
            static const int nths[4] = {1, 2, 3, 7};
            int part, ok = 1;
            memset(db.p, 0x5a, db.bytes);
            D = th_strided(db.p, 0, dnnlk_f32, 4, od, dst_st);
            for (part = nths[nth_i] - 1; part >= 0; part--)
                CHECK_EQ(dnnlk_resize(&S, &d, &D, part, nths[nth_i]), dnnlk_success);
            for (c = 0; c < C && ok; c++)
                for (h = 0; h < od[2] && ok; h++)
                    for (w = 0; w < od[3] && ok; w++) {
                        const float *got = (const float *)db.p + c * dst_st[1] + h * dst_st[2] + w;
                        const float *want = (const float *)rb.p + c * ref_st[1] + h * ref_st[2] + 2 * w;
                        ok = !memcmp(got, want, 4);
                        CHECK_MSG(ok, "%s W %lld H %lld scales %g %g coord %d a %g excl %d pads %lld %lld nth %d: "
                                  "[%lld,%lld,%lld] %.9g, element path %.9g",
                                  d.mode == dnnlk_resize_cubic ? "cubic" : "linear", (long long)W, (long long)H,
                                  (double)sc[0], (double)sc[1], d.coord, (double)d.cubic_coeff_a, d.exclude_outside,
                                  (long long)ipad, (long long)opad, nths[nth_i], (long long)c, (long long)h,
                                  (long long)w, (double)*got, (double)*want);
                    }
            CHECK(th_guards_ok(&db));
        }
        th_free(&sb);
        th_free(&db);
        th_free(&rb);
    }
}

/* ---- bad arguments ---- */

TEST(bad_arguments) {
    float x[12] = {0}, sc[2] = {2, 2}, bad_s[4] = {0.0f, -1.0f, NAN, INFINITY};
    int64_t dims[2] = {3, 4}, od[2] = {6, 8}, sz[2] = {6, 8};
    int ax[2] = {0, 1};
    th_buf yb = th_alloc(48 * 4, 0);
    dnnlk_tensor X = th_tensor(x, dnnlk_f32, 2, dims), Y = th_tensor(yb.p, dnnlk_f32, 2, od), T;
    dnnlk_resize_desc d, e;
    int i;
    memset(&d, 0, sizeof d);
    d.naxes = 2;
    d.axes = ax;
    d.scales = sc;
    memset(yb.p, TH_GUARD_BYTE, yb.bytes);
#define EXPECT_R(desc, st)                                                              \
    do {                                                                                \
        dnnlk_tensor y0 = Y;                                                            \
        size_t b_;                                                                      \
        CHECK_EQ(dnnlk_resize(&X, &(desc), &Y, 0, 1), st);                              \
        T = Y;                                                                          \
        if ((st) != dnnlk_invalid_arguments || (desc).scales != sc) CHECK_EQ(dnnlk_resize_infer(&X, &(desc), &T), st); \
        CHECK(memcmp(&y0, &Y, sizeof Y) == 0 && memcmp(&T, &Y, sizeof Y) == 0);        \
        for (b_ = 0; b_ < yb.bytes; b_++) CHECK(((uint8_t *)yb.p)[b_] == TH_GUARD_BYTE); \
    } while (0)
    e = d; e.mode = (dnnlk_resize_mode)3; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.coord = (dnnlk_resize_coord)6; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.coord = (dnnlk_resize_coord)-1; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.nearest = (dnnlk_resize_nearest_round)4; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.naxes = 3; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.naxes = -1; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.axes = (const int[]){0, 2}; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.axes = (const int[]){0, -3}; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.axes = (const int[]){1, -1}; EXPECT_R(e, dnnlk_invalid_arguments); /* repeated */
    e = d; e.sizes = sz; EXPECT_R(e, dnnlk_invalid_arguments);                  /* both */
    e = d; e.scales = NULL; EXPECT_R(e, dnnlk_invalid_arguments);               /* neither */
    e = d; e.scales = NULL; e.sizes = (const int64_t[]){6, -1}; EXPECT_R(e, dnnlk_invalid_arguments);
    for (i = 0; i < 4; i++) {
        float s2[2];
        s2[0] = 2;
        s2[1] = bad_s[i];
        e = d;
        e.scales = s2;
        EXPECT_R(e, dnnlk_invalid_arguments);
    }
    /* the opset-19 attributes */
    e = d; e.mode = dnnlk_resize_cubic; e.cubic_coeff_a = NAN; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.mode = dnnlk_resize_cubic; e.cubic_coeff_a = -INFINITY; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.keep_aspect = (dnnlk_resize_aspect)3; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.mode = dnnlk_resize_linear; e.antialias = 2; EXPECT_R(e, dnnlk_invalid_arguments); /* flags are 0/1 */
    e = d; e.mode = dnnlk_resize_cubic; e.exclude_outside = -1; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.coord = dnnlk_resize_tf_crop_and_resize; EXPECT_R(e, dnnlk_invalid_arguments); /* no roi */
    e = d; e.coord = dnnlk_resize_tf_crop_and_resize; e.nroi = 2; e.roi = (const float[]){0, 0, 1, 1};
    EXPECT_R(e, dnnlk_invalid_arguments); /* roi of 2 values for 2 axes */
    e = d; e.coord = dnnlk_resize_tf_crop_and_resize; e.nroi = 6; e.roi = (const float[]){0, 0, 0, 1, 1, 1};
    EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.coord = dnnlk_resize_tf_crop_and_resize; e.nroi = 4; e.roi = (const float[]){0, NAN, 1, 1};
    EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.nroi = 4; e.roi = NULL; EXPECT_R(e, dnnlk_invalid_arguments);
    /* keep_aspect_ratio_policy acts on the listed axes' sizes: not with scales, nor no axes */
    e = d; e.keep_aspect = dnnlk_resize_not_larger; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.keep_aspect = dnnlk_resize_not_smaller; e.naxes = 0; e.scales = NULL; EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.keep_aspect = dnnlk_resize_not_larger; e.scales = NULL; e.sizes = (const int64_t[]){6, 0};
    EXPECT_R(e, dnnlk_invalid_arguments); /* a size of 0 (-1 is refused with any policy) */
    e = d; e.keep_aspect = dnnlk_resize_not_smaller; e.scales = NULL; e.sizes = (const int64_t[]){-2, 8};
    EXPECT_R(e, dnnlk_invalid_arguments);
    e = d; e.keep_aspect = dnnlk_resize_not_smaller; e.scales = NULL; e.sizes = (const int64_t[]){6, 9};
    EXPECT_R(e, dnnlk_invalid_shape); /* the one scale 9/4 gives 7 x 9, not dst's 6 x 8 */
    {
        dnnlk_tensor T2 = Y;
        e = d; e.keep_aspect = dnnlk_resize_not_larger; e.scales = NULL; e.sizes = (const int64_t[]){6, 9};
        CHECK_EQ(dnnlk_resize_infer(&X, &e, &T2), dnnlk_success); /* the one scale 2: dst's 6 x 8 */
    }
    { /* an antialiased window of 2000 taps (scale 1/1000): over DNNLK__RESIZE_MAXTAPS */
        int64_t wide[2] = {1, 4000};
        dnnlk_tensor Xw = th_tensor(NULL, dnnlk_f32, 2, wide), Tw;
        memset(&Tw, 0, sizeof Tw);
        Tw.dtype = dnnlk_f32;
        Tw.ndims = DNNLK_UNKNOWN;
        e = d; e.mode = dnnlk_resize_linear; e.antialias = 1; e.scales = (const float[]){1, 0.001f};
        CHECK_EQ(dnnlk_resize_infer(&Xw, &e, &Tw), dnnlk_unimplemented);
        e.antialias = 0;
        CHECK_EQ(dnnlk_resize_infer(&Xw, &e, &Tw), dnnlk_success);
    }
    e = d; e.scales = (const float[]){2, 3}; EXPECT_R(e, dnnlk_invalid_shape);  /* dst dims differ */
    e = d; e.scales = (const float[]){2, 3e38f}; EXPECT_R(e, dnnlk_invalid_shape); /* overflow */
    CHECK_EQ(dnnlk_resize(NULL, &d, &Y, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_resize(&X, NULL, &Y, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_resize(&X, &d, NULL, 0, 1), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_resize(&X, &d, &Y, 2, 2), dnnlk_invalid_arguments);
    CHECK_EQ(dnnlk_resize(&X, &d, &Y, 0, 0), dnnlk_invalid_arguments);
    {
        dnnlk_tensor Yb = Y, Xb = X;
        Yb.dtype = dnnlk_bf16;
        CHECK_EQ(dnnlk_resize(&X, &d, &Yb, 0, 1), dnnlk_invalid_data_type);
        Xb.dtype = dnnlk_s32; /* nearest copies s32; linear and cubic do not take it */
        Yb.dtype = dnnlk_s32;
        e = d;
        e.mode = dnnlk_resize_linear;
        CHECK_EQ(dnnlk_resize(&Xb, &e, &Yb, 0, 1), dnnlk_invalid_data_type);
        e.mode = dnnlk_resize_cubic;
        CHECK_EQ(dnnlk_resize(&Xb, &e, &Yb, 0, 1), dnnlk_invalid_data_type);
        Xb.dtype = Yb.dtype = dnnlk_f64;
        e.antialias = 1;
        e.mode = dnnlk_resize_nearest;
        CHECK_EQ(dnnlk_resize(&Xb, &e, &Yb, 0, 1), dnnlk_invalid_arguments); /* antialias filters only */
        Yb = Y;
        Yb.data = x; /* overlaps the source */
        Yb.dims[0] = 1;
        Yb.dims[1] = 2;
        e = d;
        e.scales = (const float[]){0.5f, 0.5f};
        CHECK_EQ(dnnlk_resize(&X, &e, &Yb, 0, 1), dnnlk_invalid_arguments);
        Xb = X;
        Xb.dims[0] = 0;
        e.scales = NULL;
        e.sizes = (const int64_t[]){1, 8};
        CHECK_EQ(dnnlk_resize(&Xb, &e, &Y, 0, 1), dnnlk_invalid_shape); /* size from an empty axis */
    }
    for (i = 0; i < (int)yb.bytes; i++) CHECK(((uint8_t *)yb.p)[i] == TH_GUARD_BYTE);
    CHECK(th_guards_ok(&yb));
#undef EXPECT_R
    th_free(&yb);
}

TEST(infer_layouts) {
    int64_t dims[4] = {2, 3, 5, 7};
    float sc[2] = {2, 0.5f};
    dnnlk_resize_desc d;
    dnnlk_tensor X = th_tensor(NULL, dnnlk_f16, 4, dims), Y;
    memset(&d, 0, sizeof d);
    d.naxes = 2;
    d.axes = (const int[]){-2, -1};
    d.scales = sc;
    memset(&Y, 0, sizeof Y);
    Y.dtype = dnnlk_f16;
    Y.ndims = 4;
    Y.dims[0] = Y.dims[1] = Y.dims[2] = Y.dims[3] = DNNLK_UNKNOWN;
    Y.strides[0] = Y.strides[2] = Y.strides[3] = DNNLK_UNKNOWN;
    Y.strides[1] = 1; /* channels last */
    CHECK_EQ(dnnlk_resize_infer(&X, &d, &Y), dnnlk_success);
    CHECK(Y.dims[2] == 10 && Y.dims[3] == 3);
    CHECK(Y.strides[1] == 1 && Y.strides[3] == 3 && Y.strides[2] == 9 && Y.strides[0] == 90);
}

/* ---- recorded bits: every level's outputs on fixed inputs, against hashes recorded on 8f1051f
 * (the hand-written scalar row and the per-ISA permutes, gathers and byte stores still in place).
 * The README's classes: nearest copies bits and linear never fuses, so for a given layout every
 * level and every part count give the same bytes. Each case chains the hashes of its mode
 * combinations (every coordinate mode; for nearest every rounding rule too). Inputs are built
 * without the harness's random state. DNNLK_TEST_RECORD=1 prints the table instead of checking it
 * (rerun only when results change on purpose). ---- */

enum {
    rb_near_x2, rb_near_odd, rb_near_stream, rb_lin_x2, rb_lin_down_sizes, rb_lin_3axes, rb_lin_stream,
    rb_lin_nhwc_f32, rb_lin_nhwc_bf16, rb_lin_nhwc_f16, rb_lin_nhwc_u8, rb_near_nhwc_u8, rb_lin_src_str,
    rb_lin_inner_bf16, rb_lin_1d, rb_near_inner_f16, rb_near_x2_wide, rb_n_cases
};
static const char *const rb_name[rb_n_cases] = {
    "nearest f32 NCHW x2", "nearest f32 NCHW 1.7/0.6", "nearest f32 NCHW x2 streamed", "linear f32 NCHW x2",
    "linear f32 NCHW sizes down", "linear f32 3 axes", "linear f32 NCHW x2 streamed", "linear f32 NHWC",
    "linear bf16 NHWC", "linear f16 NHWC", "linear u8 NHWC", "nearest u8 NHWC", "linear f32 src stride 2",
    "linear bf16 inner resized", "linear f32 1-D 3.3/0.3", "nearest f16 inner resized",
    "nearest f32 NCHW x2, 2 blocks"};

/* Recorded on 8f1051f (gcc and clang, -O2 and ASan, the same): scalar, sse41, avx2, avx512. */
static const uint64_t rb_recorded[rb_n_cases][4] = {
    /* nearest f32 NCHW x2              */ {0xc80247131f3279a7ull, 0xc80247131f3279a7ull, 0xc80247131f3279a7ull, 0xc80247131f3279a7ull},
    /* nearest f32 NCHW 1.7/0.6         */ {0x9815aba5cc88a400ull, 0x9815aba5cc88a400ull, 0x9815aba5cc88a400ull, 0x9815aba5cc88a400ull},
    /* nearest f32 NCHW x2 streamed     */ {0xca68fb0d704d143dull, 0xca68fb0d704d143dull, 0xca68fb0d704d143dull, 0xca68fb0d704d143dull},
    /* linear f32 NCHW x2               */ {0xe067b667b968e5b7ull, 0xe067b667b968e5b7ull, 0xe067b667b968e5b7ull, 0xe067b667b968e5b7ull},
    /* linear f32 NCHW sizes down       */ {0x0e7217d38b203dffull, 0x0e7217d38b203dffull, 0x0e7217d38b203dffull, 0x0e7217d38b203dffull},
    /* linear f32 3 axes                */ {0xc4fa12e10954c1cfull, 0xc4fa12e10954c1cfull, 0xc4fa12e10954c1cfull, 0xc4fa12e10954c1cfull},
    /* linear f32 NCHW x2 streamed      */ {0x65a62ffc4a03f80eull, 0x65a62ffc4a03f80eull, 0x65a62ffc4a03f80eull, 0x65a62ffc4a03f80eull},
    /* linear f32 NHWC                  */ {0xf1391c7457ce4cc3ull, 0xf1391c7457ce4cc3ull, 0xf1391c7457ce4cc3ull, 0xf1391c7457ce4cc3ull},
    /* linear bf16 NHWC                 */ {0x0d57644c557ac214ull, 0x0d57644c557ac214ull, 0x0d57644c557ac214ull, 0x0d57644c557ac214ull},
    /* linear f16 NHWC                  */ {0x2e0ea916df0e629bull, 0x2e0ea916df0e629bull, 0x2e0ea916df0e629bull, 0x2e0ea916df0e629bull},
    /* linear u8 NHWC                   */ {0x471376670c192ec3ull, 0x471376670c192ec3ull, 0x471376670c192ec3ull, 0x471376670c192ec3ull},
    /* nearest u8 NHWC                  */ {0x8b9fc25dd8732058ull, 0x8b9fc25dd8732058ull, 0x8b9fc25dd8732058ull, 0x8b9fc25dd8732058ull},
    /* linear f32 src stride 2          */ {0xe067b667b968e5b7ull, 0xe067b667b968e5b7ull, 0xe067b667b968e5b7ull, 0xe067b667b968e5b7ull},
    /* linear bf16 inner resized        */ {0xef0538ebf16c85e5ull, 0xef0538ebf16c85e5ull, 0xef0538ebf16c85e5ull, 0xef0538ebf16c85e5ull},
    /* linear f32 1-D 3.3/0.3           */ {0x8a922dae13b4f015ull, 0x8a922dae13b4f015ull, 0x8a922dae13b4f015ull, 0x8a922dae13b4f015ull},
    /* nearest f16 inner resized        */ {0xa3ccba20a9aceadfull, 0xa3ccba20a9aceadfull, 0xa3ccba20a9aceadfull, 0xa3ccba20a9aceadfull},
    /* nearest f32 NCHW x2, 2 blocks    */ {0x2c5511381a8447d7ull, 0x2c5511381a8447d7ull, 0x2c5511381a8447d7ull, 0x2c5511381a8447d7ull},
};

static th_buf rb_sb, rb_db; /* allocated and freed by recorded_bits */
#define RB_SRC_ELEMS (2 * 2 * 160 * 161)
#define RB_DST_BYTES ((size_t)4 * 2 * 330 * 330 + 256)

/* Source element i: a few specials (an infinity and a NaN: linear spreads them to neighbours),
 * then values of every magnitude class the dtypes hold. */
static float rb_val(int64_t i, dnnlk_dtype dt) {
    uint32_t u = (uint32_t)((uint64_t)i * 0x9E3779B1u);
    if (dt == dnnlk_u8) return (float)(u >> 24);
    if (i == 5) return INFINITY;
    if (i == 17) return NAN;
    if (i % 4 == 0) return dnnlk__f32_from_bits((u & 0x8fffffffu) | 0x30000000u); /* |x| in [2^-31, 2^2) */
    return (float)((int32_t)u >> 12) * (1.0f / 4096.0f);
}

/* One resize at the current level with nth parts (reverse order); the hash of the whole dst
 * buffer (pre-filled: bytes the layout skips are checked too; float NaNs canonical). */
static uint64_t rb_run(const dnnlk_tensor *S, const dnnlk_resize_desc *d, int nd, const int64_t *od,
                       const int64_t *ost, int64_t off, size_t bytes, int nth) {
    dnnlk_tensor D;
    dnnlk_dtype dt = S->dtype;
    int part;
    memset(rb_db.p, 0x5a, bytes);
    for (part = nth - 1; part >= 0; part--) {
        D = th_strided(rb_db.p, off, dt, nd, od, ost);
        CHECK_EQ(dnnlk_resize(S, d, &D, part, nth), dnnlk_success);
    }
    CHECK(th_guards_ok(&rb_db));
    if (dt == dnnlk_f32) return th_fnv1a_f32((const float *)rb_db.p, bytes / 4);
    if (dt == dnnlk_bf16 || dt == dnnlk_f16) return th_fnv1a_half((const uint16_t *)rb_db.p, bytes / 2, dt == dnnlk_f16);
    return th_fnv1a(rb_db.p, bytes);
}

static uint64_t rb_case(int c, int nth) {
    int64_t dims[4] = {1, 3, 13, 37}, sst[4], od[4], ost[4], n = 1, i, off = 0, sizes[3] = {0, 0, 0};
    int axes[3] = {2, 3, 0}, nd = 4, nax = 2, linear = 1, nhwc = 0, sstride = 1, coord, rule, nrules = 1, k;
    float sc[3] = {2.0f, 2.0f, 1.0f};
    dnnlk_dtype dt = dnnlk_f32;
    dnnlk_resize_desc d;
    dnnlk_tensor S;
    uint64_t h = 0xcbf29ce484222325ull;
    size_t es;
    switch (c) {
    case rb_near_x2: linear = 0; break;
    case rb_near_odd: linear = 0, sc[0] = 1.7f, sc[1] = 0.6f; break;
    case rb_near_stream: linear = 0, dims[1] = 2, dims[2] = 160, dims[3] = 161, off = 1; break;
    case rb_lin_x2: break;
    case rb_lin_down_sizes: dims[0] = 2, dims[2] = 29, dims[3] = 67, sizes[0] = 11, sizes[1] = 23; break;
    case rb_lin_3axes: dims[0] = 2, dims[1] = 5, dims[2] = 7, dims[3] = 19, nax = 3, axes[0] = 1, axes[1] = 2,
                       axes[2] = 3, sc[0] = 1.5f, sc[1] = 2.3f, sc[2] = 1.3f; break;
    case rb_lin_stream: dims[1] = 2, dims[2] = 160, dims[3] = 161, off = 1; break;
    case rb_lin_nhwc_f32: case rb_lin_nhwc_bf16: case rb_lin_nhwc_f16: case rb_lin_nhwc_u8: case rb_near_nhwc_u8:
        dt = c == rb_lin_nhwc_bf16 ? dnnlk_bf16 : c == rb_lin_nhwc_f16 ? dnnlk_f16 : c == rb_lin_nhwc_f32 ? dnnlk_f32 : dnnlk_u8;
        linear = c != rb_near_nhwc_u8, nhwc = 1, dims[0] = 2, dims[1] = 9, dims[2] = 11, dims[3] = 19;
        axes[0] = 1, axes[1] = 2, sc[0] = 1.6f, sc[1] = 0.7f;
        if (!linear) sc[0] = 2.0f, sc[1] = 1.5f;
        break;
    case rb_lin_src_str: sstride = 2; break;
    case rb_lin_inner_bf16: dt = dnnlk_bf16, dims[1] = 2, dims[2] = 7, dims[3] = 33, sc[0] = 1.7f, sc[1] = 1.3f; break;
    case rb_lin_1d: nd = 1, dims[0] = 1000, nax = 1, axes[0] = 0, sc[0] = 3.3f; break;
    /* the first column block of 512 holds the x2 pattern with either phase (no edge clamp in it) */
    case rb_near_x2_wide: linear = 0, dims[1] = 2, dims[2] = 5, dims[3] = 300; break;
    default: linear = 0, dt = dnnlk_f16, dims[3] = 41, sc[0] = 1.5f, sc[1] = 2.2f; break;
    }
    if (!linear) nrules = 4;
    es = dnnlk_dtype_size(dt);
    for (i = 0; i < nd; i++) n *= dims[i];
    /* src: row-major (with every element repeated sstride times along the inner axis) */
    sst[nd - 1] = sstride;
    for (i = nd - 2; i >= 0; i--) sst[i] = sst[i + 1] * dims[i + 1];
    for (i = 0; i < n * sstride; i++) {
        char *p = (char *)rb_sb.p + i * (int64_t)es;
        if (dt == dnnlk_u8) *(uint8_t *)p = (uint8_t)rb_val(i / sstride, dt);
        else dnnlk__store_from_f32(p, dt, rb_val(i / sstride, dt));
    }
    S = th_strided(rb_sb.p, 0, dt, nd, dims, sst);
    for (k = 0; k < (c == rb_lin_1d ? 2 : 1); k++) {
        if (k == 1) sc[0] = 0.3f;
        for (coord = 0; coord < 4; coord++)
            for (rule = 0; rule < nrules; rule++) {
                dnnlk_tensor Q;
                int64_t total = 1;
                memset(&d, 0, sizeof d);
                d.mode = linear ? dnnlk_resize_linear : dnnlk_resize_nearest;
                d.coord = (dnnlk_resize_coord)coord;
                d.nearest = (dnnlk_resize_nearest_round)rule;
                d.naxes = nax;
                d.axes = axes;
                if (sizes[0]) d.sizes = sizes;
                else d.scales = sc;
                memset(&Q, 0, sizeof Q);
                Q.dtype = dt;
                Q.ndims = DNNLK_UNKNOWN;
                for (i = 0; i < DNNLK_MAX_NDIMS; i++) Q.dims[i] = Q.strides[i] = DNNLK_UNKNOWN;
                CHECK_EQ(dnnlk_resize_infer(&S, &d, &Q), dnnlk_success);
                for (i = 0; i < nd; i++) od[i] = Q.dims[i], total *= od[i];
                if (nhwc) { /* dst strides N, C, H, W -> memory order N, H, W, C */
                    ost[1] = 1, ost[3] = od[1], ost[2] = od[3] * od[1], ost[0] = od[2] * ost[2];
                } else {
                    for (i = nd - 1; i >= 0; i--) ost[i] = i == nd - 1 ? 1 : ost[i + 1] * od[i + 1];
                }
                CHECK((size_t)(total + off) * es <= RB_DST_BYTES);
                {
                    uint64_t one = rb_run(&S, &d, nd, od, ost, off, (size_t)(total + off) * es, nth);
                    h = th_fnv1a_from(h, &one, 8);
                }
            }
    }
    return h;
}

/* One case at one level; 3 and 7 parts must give the bits of one. */
static uint64_t rb_case_at(int c, int cap, int *level) {
    static const int nths[] = {3, 7, 0};
    (void)cap;
    return th_bits_parts_agree(rb_case, c, nths, rb_name[c], *level);
}
static const char *rb_case_name(int c) { return rb_name[c]; }

TEST(recorded_bits) {
    uint64_t got[rb_n_cases][4];
    int ran[rb_n_cases][4], c, record;
    rb_sb = th_alloc((size_t)RB_SRC_ELEMS * 4 * 2, 0);
    rb_db = th_alloc(RB_DST_BYTES, 0);
    record = th_recorded_bits(rb_n_cases, rb_case_at, rb_case_name, 32, 0, rb_recorded, 0, got, ran);
    th_free(&rb_sb), th_free(&rb_db);
    if (record) SKIP("DNNLK_TEST_RECORD: printed the table instead of checking it");
    for (c = 0; c < rb_n_cases; c++) th_bits_match_scalar(rb_name[c], got[c], ran[c]);
}

/* Found by tests/fuzz/fuzz_ops.c: dst's dims were ordered by |stride|, computed by negating an
 * int64; the stride of a size-1 dim (or of an empty dst) may be anything, INT64_MIN too, whose
 * negation is undefined (UBSan aborts the sanitizer build). */
TEST(dst_int64_min_stride_each_isa) {
    uint8_t x[2] = {10, 20}, y[5] = {0, 0, 0, 0, 99};
    int64_t xd[2] = {1, 2}, yd[2] = {1, 4}, zd[1] = {0};
    float sc = 2.0f;
    dnnlk_resize_desc d;
    dnnlk_tensor X = th_tensor(x, dnnlk_u8, 2, xd), Y = th_tensor(y, dnnlk_u8, 2, yd);
    memset(&d, 0, sizeof d);
    d.naxes = 1;
    d.axes = (const int[]){1};
    d.scales = &sc;
    d.nearest = dnnlk_resize_floor;
    d.coord = dnnlk_resize_asymmetric;
    Y.strides[0] = INT64_MIN;
    CHECK_EQ(dnnlk_resize(&X, &d, &Y, 0, 1), dnnlk_success);
    CHECK(y[0] == 10 && y[1] == 10 && y[2] == 20 && y[3] == 20 && y[4] == 99);
    X = th_tensor(x, dnnlk_u8, 1, zd);
    Y = th_tensor(y, dnnlk_u8, 1, zd);
    Y.strides[0] = INT64_MIN;
    d.axes = (const int[]){0};
    CHECK_EQ(dnnlk_resize(&X, &d, &Y, 0, 1), dnnlk_success);
    CHECK(y[4] == 99);
}

/* Found by tests/fuzz/fuzz_ops.c: the stride of a size-1 src dim may be anything (the extent
 * checks skip it), and the rows multiplied it by the element size (INT64_MAX * 4: undefined;
 * UBSan aborts the sanitizer build) although only its index 0 is read. */
TEST(src_unused_huge_stride_each_isa) {
    float x[6] = {1, 2, 4, 8, 16, 32}, y[18], yr[18];
    int64_t xd[2] = {6, 1}, yd[2] = {18, 1};
    float sc = 3.0f;
    int mode;
    dnnlk_resize_desc d;
    memset(&d, 0, sizeof d);
    d.naxes = 1;
    d.scales = &sc;
    d.coord = dnnlk_resize_asymmetric;
    for (mode = 0; mode < 3; mode++) {
        dnnlk_tensor X = th_tensor(x, dnnlk_f32, 2, xd), Y = th_tensor(y, dnnlk_f32, 2, yd);
        dnnlk_tensor XR = th_tensor(x, dnnlk_f32, 2, xd), YR = th_tensor(yr, dnnlk_f32, 2, yd);
        d.mode = (dnnlk_resize_mode)mode;
        X.strides[1] = INT64_MAX; /* dst dense, {1, 1}: the size-1 dim is the innermost of dst */
        CHECK_EQ(dnnlk_resize(&X, &d, &Y, 0, 1), dnnlk_success);
        CHECK_EQ(dnnlk_resize(&XR, &d, &YR, 0, 1), dnnlk_success);
        CHECK(memcmp(y, yr, sizeof y) == 0 && y[3] == 2.0f);
    }
}

int main(void) {
    RUN(onnx_examples);
    RUN(nearest_tie_rules);
    RUN_EACH_ISA(u8_linear_rounds_half_even);
    RUN_EACH_ISA(random_against_reference);
    RUN_EACH_ISA(long_rows_against_reference);
    RUN_EACH_ISA(nchw_nhwc_x2);
    RUN_EACH_ISA(nearest_x2_paths);
    RUN_EACH_ISA(streaming_path);
#if DNNLK__X86
    RUN(ftz_daz_matches_scalar);
#endif
    RUN_EACH_ISA(torch_and_onnx_cases);
    RUN_EACH_ISA(general_against_reference);
    RUN_EACH_ISA(general_long_rows);
    RUN_EACH_ISA(integer_upscale_matches_element_path);
    RUN(bad_arguments);
    RUN(infer_layouts);
    RUN_EACH_ISA(dst_int64_min_stride_each_isa);
    RUN_EACH_ISA(src_unused_huge_stride_each_isa);
    RUN(recorded_bits);
    return th_summary();
}
