/* layer_norm and l2_norm on transformer hidden states. Compulsory traffic: one read and one write
 * per element (8 bytes in f32, 4 in bf16), plus weight and bias once. Checked once against a
 * double-precision scalar reference; "x naive" is a plain three-pass scalar f32 loop. */
#include <math.h>

typedef struct bench_norm_ctx {
    dnnlk_tensor x, y, w, b;
    int l2;
} bench_norm_ctx;

static inline void bench_norm_part(void *p, int ith, int nth) {
    bench_norm_ctx *c = (bench_norm_ctx *)p;
    int ax = -1;
    if (c->l2) dnnlk_l2_norm(&c->x, 1, 1e-12f, 1, &c->y, ith, nth);
    else dnnlk_layer_norm(&c->x, &c->w, &c->b, 1, &ax, 1e-5f, 0, &c->y, NULL, NULL, ith, nth);
}

static inline void bench_norm_naive(void *p, int ith, int nth) {
    bench_norm_ctx *c = (bench_norm_ctx *)p;
    int64_t rows = c->x.dims[0], n = c->x.dims[1], r, i;
    const float *x = (const float *)c->x.data, *w = (const float *)c->w.data, *b = (const float *)c->b.data;
    float *y = (float *)c->y.data;
    (void)ith;
    (void)nth;
    for (r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = y + r * n;
        float s = 0, v = 0, mean, rs;
        if (c->l2) {
            for (i = 0; i < n; i++) s += xr[i] * xr[i];
            rs = 1.0f / fmaxf(sqrtf(s), 1e-12f);
            for (i = 0; i < n; i++) yr[i] = xr[i] * rs;
            continue;
        }
        for (i = 0; i < n; i++) s += xr[i];
        mean = s / (float)n;
        for (i = 0; i < n; i++) v += (xr[i] - mean) * (xr[i] - mean);
        rs = 1.0f / sqrtf(v / (float)n + 1e-5f);
        for (i = 0; i < n; i++) yr[i] = (xr[i] - mean) * rs * w[i] + b[i];
    }
}

static inline int bench_norm_check(const bench_norm_ctx *c) {
    int64_t rows = c->x.dims[0], n = c->x.dims[1], r, i;
    const float *x = (const float *)c->x.data, *w = (const float *)c->w.data, *b = (const float *)c->b.data;
    const float *y = (const float *)c->y.data;
    for (r = 0; r < rows; r += 97) {
        double s = 0, v = 0, mean, rs;
        for (i = 0; i < n; i++) s += c->l2 ? (double)x[r * n + i] * x[r * n + i] : x[r * n + i];
        mean = s / (double)n;
        if (!c->l2) {
            for (i = 0; i < n; i++) v += (x[r * n + i] - mean) * (x[r * n + i] - mean);
            rs = 1.0 / sqrt(v / (double)n + 1e-5);
        } else {
            rs = 1.0 / fmax(sqrt(s), 1e-12);
        }
        for (i = 0; i < n; i++) {
            double want = c->l2 ? x[r * n + i] * rs : (x[r * n + i] - mean) * rs * w[i] + b[i];
            if (fabs(y[r * n + i] - want) > 1e-5 * (fabs(want) + 1)) return 0;
        }
    }
    return 1;
}

static inline void bench_norm_case(const char *name, int64_t rows, int64_t n, int l2) {
    bench_norm_ctx c;
    int64_t dims[2] = {rows, n}, i;
    size_t tot = (size_t)(rows * n);
    float *x = (float *)bench_alloc(tot * 4), *y = (float *)bench_alloc(tot * 4);
    float *w = (float *)bench_alloc((size_t)n * 4), *b = (float *)bench_alloc((size_t)n * 4);
    char shape[64], note[160] = "";
    double bytes = 8.0 * (double)tot + (l2 ? 0 : 8.0 * (double)n), naive_t;
    int nth;
    uint32_t s = 12345;
    for (i = 0; i < (int64_t)tot; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)(s >> 8) * (1.0f / 16777216.0f) * 4.0f - 2.0f + 0.5f;
    }
    for (i = 0; i < n; i++) w[i] = 1.0f + 0.001f * (float)(i % 7), b[i] = 0.01f * (float)(i % 5);
    memset(&c, 0, sizeof c);
    c.x = (dnnlk_tensor){x, dnnlk_f32, 2, {rows, n}, {n, 1}};
    c.y = (dnnlk_tensor){y, dnnlk_f32, 2, {rows, n}, {n, 1}};
    c.w = (dnnlk_tensor){w, dnnlk_f32, 1, {n}, {1}};
    c.b = (dnnlk_tensor){b, dnnlk_f32, 1, {n}, {1}};
    c.l2 = l2;
    (void)dims;
    bench_norm_part(&c, 0, 1);
    bench_check(bench_norm_check(&c), name);
    naive_t = bench_time(bench_norm_naive, &c, 1);
    snprintf(shape, sizeof shape, "%lldx%lld", (long long)rows, (long long)n);
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t = bench_time(bench_norm_part, &c, nth);
        double copy_t = bench_copy_time((size_t)bytes, nth);
        note[0] = 0;
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)tot);
        bench_row(name, shape, "f32", nth, (double)tot, bytes, t, copy_t, nth == 1 ? naive_t : 0, note);
    }
    free(x);
    free(y);
    free(w);
    free(b);
}

static inline void bench_norm(void) {
    if (!bench_selected("norm")) return;
    bench_norm_case("layer_norm 4096x768", 4096, 768, 0);
    bench_norm_case("layer_norm 2048x4096", 2048, 4096, 0);
    bench_norm_case("l2_norm 4096x768", 4096, 768, 1);
}
