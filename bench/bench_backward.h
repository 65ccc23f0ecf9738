/* Backward kernels that reduce (#25 part B). layer_norm_bwd [4096,768] f32 with weight, diff_weight
 * and diff_bias: compulsory traffic reads src and diff_dst and writes diff_src (12 bytes per
 * element; mean, inv_std_dev, weight and the two gradients are < 0.1%); with more threads the
 * parts meet at a barrier before the finish step, inside the timed call. resize_bwd linear x2
 * (half_pixel) NCHW: reads diff_dst [4,32,128,128] and writes diff_src [4,32,64,64]. Elements
 * counted: diff_dst's. Each is checked once (layer_norm_bwd against a double reference on
 * sampled rows and diff_bias; resize_bwd by the adjoint identity with the forward resize). */
#include <math.h>

typedef struct bench_lnb_ctx {
    dnnlk_tensor x, dy, m, is, w, dx, dw, db;
    float *ws;
    size_t wsb;
    volatile int arrived, gen;
} bench_lnb_ctx;

/* The nth parts wait for each other (spin: each part runs on a core of its own). */
static inline void bench_lnb_barrier(bench_lnb_ctx *c, int nth) {
    int g = __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&c->arrived, 1, __ATOMIC_ACQ_REL) == nth) {
        __atomic_store_n(&c->arrived, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&c->gen, g + 1, __ATOMIC_RELEASE);
    } else {
        while (__atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) == g) {
        }
    }
}

static inline void bench_lnb_part(void *p, int ith, int nth) {
    bench_lnb_ctx *c = (bench_lnb_ctx *)p;
    int ax = -1;
    dnnlk_layer_norm_bwd(&c->x, &c->dy, &c->m, &c->is, &c->w, 1, &ax, 0, &c->dx, &c->dw, &c->db, c->ws, c->wsb, ith, nth);
    if (nth > 1) {
        bench_lnb_barrier(c, nth);
        dnnlk_layer_norm_bwd_finish(&c->x, 1, &ax, &c->dw, &c->db, c->ws, c->wsb, ith, nth);
    }
}

static inline int bench_lnb_check(const bench_lnb_ctx *c) {
    int64_t rows = c->x.dims[0], n = c->x.dims[1], r, i;
    const float *x = (const float *)c->x.data, *dy = (const float *)c->dy.data, *w = (const float *)c->w.data;
    const float *m = (const float *)c->m.data, *is = (const float *)c->is.data, *dx = (const float *)c->dx.data;
    const float *db = (const float *)c->db.data;
    for (r = 0; r < rows; r += 97) {
        double sg = 0, sgx = 0, s = is[r];
        for (i = 0; i < n; i++) {
            double xh = ((double)x[r * n + i] - m[r]) * s, g = (double)dy[r * n + i] * w[i];
            sg += g, sgx += g * xh;
        }
        for (i = 0; i < n; i++) {
            double xh = ((double)x[r * n + i] - m[r]) * s, g = (double)dy[r * n + i] * w[i];
            double want = s * (g - sg / (double)n) - xh * s * sgx / (double)n;
            if (fabs(dx[r * n + i] - want) > 1e-5 * (fabs(want) + s)) return 0;
        }
    }
    for (i = 0; i < n; i += 13) {
        double want = 0;
        for (r = 0; r < rows; r++) want += dy[r * n + i];
        if (fabs(db[i] - want) > 1e-4 * (1 + fabs(want))) return 0;
    }
    return 1;
}

static inline void bench_lnb_case(const char *name, int64_t rows, int64_t n) {
    bench_lnb_ctx c;
    size_t tot = (size_t)(rows * n);
    float *x = (float *)bench_alloc(tot * 4), *dy = (float *)bench_alloc(tot * 4), *dx = (float *)bench_alloc(tot * 4);
    float *w = (float *)bench_alloc((size_t)n * 4), *b = (float *)bench_alloc((size_t)n * 4);
    float *dw = (float *)bench_alloc((size_t)n * 4), *db = (float *)bench_alloc((size_t)n * 4);
    float *m = (float *)bench_alloc((size_t)rows * 4), *is = (float *)bench_alloc((size_t)rows * 4);
    double bytes = 12.0 * (double)tot;
    char shape[64], note[160];
    int nth, ax = -1;
    int64_t i;
    uint32_t s = 4242;
    for (i = 0; i < (int64_t)tot; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)(s >> 8) * (1.0f / 16777216.0f) * 4.0f - 1.5f;
        s = s * 1664525u + 1013904223u;
        dy[i] = (float)(s >> 8) * (1.0f / 16777216.0f) * 2.0f - 1.0f;
    }
    for (i = 0; i < n; i++) w[i] = 1.0f + 0.001f * (float)(i % 7), b[i] = 0.01f * (float)(i % 5);
    memset(&c, 0, sizeof c);
    c.x = (dnnlk_tensor){x, dnnlk_f32, 2, {rows, n}, {n, 1}};
    c.dy = (dnnlk_tensor){dy, dnnlk_f32, 2, {rows, n}, {n, 1}};
    c.dx = (dnnlk_tensor){dx, dnnlk_f32, 2, {rows, n}, {n, 1}};
    c.m = (dnnlk_tensor){m, dnnlk_f32, 2, {rows, 1}, {1, 1}};
    c.is = (dnnlk_tensor){is, dnnlk_f32, 2, {rows, 1}, {1, 1}};
    c.w = (dnnlk_tensor){w, dnnlk_f32, 1, {n}, {1}};
    c.dw = (dnnlk_tensor){dw, dnnlk_f32, 1, {n}, {1}};
    c.db = (dnnlk_tensor){db, dnnlk_f32, 1, {n}, {1}};
    { /* the forward's statistics (dx as its dst) */
        dnnlk_tensor bt = (dnnlk_tensor){b, dnnlk_f32, 1, {n}, {1}};
        dnnlk_layer_norm(&c.x, &c.w, &bt, 1, &ax, 1e-5f, 0, &c.dx, &c.m, &c.is, 0, 1);
    }
    dnnlk_layer_norm_bwd_workspace_bytes(&c.x, 1, &ax, 1, 1, 2, &c.wsb);
    c.ws = (float *)bench_alloc(c.wsb);
    bench_lnb_part(&c, 0, 1);
    bench_check(bench_lnb_check(&c), name);
    snprintf(shape, sizeof shape, "%lldx%lld", (long long)rows, (long long)n);
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t = bench_time(bench_lnb_part, &c, nth), copy_t = bench_copy_time((size_t)bytes, nth);
        note[0] = 0;
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)tot);
        bench_row(name, shape, "f32", nth, (double)tot, bytes, t, copy_t, 0, note);
    }
    free(x), free(dy), free(dx), free(w), free(b), free(dw), free(db), free(m), free(is), free(c.ws);
}

typedef struct bench_rsb_ctx {
    dnnlk_tensor g, dx;
    dnnlk_resize_desc d;
} bench_rsb_ctx;

static inline void bench_rsb_part(void *p, int ith, int nth) {
    bench_rsb_ctx *c = (bench_rsb_ctx *)p;
    dnnlk_resize_bwd(&c->g, &c->d, &c->dx, ith, nth);
}

static inline void bench_rsb_case(const char *name) {
    static const int axes[2] = {2, 3};
    static const float scales[2] = {2, 2};
    int64_t sd[4] = {4, 32, 64, 64}, dd[4] = {4, 32, 128, 128}, nin = 4 * 32 * 64 * 64, nout = 4 * nin, i;
    float *g = (float *)bench_alloc((size_t)nout * 4), *dx = (float *)bench_alloc((size_t)nin * 4);
    float *x = (float *)bench_alloc((size_t)nin * 4), *y = (float *)bench_alloc((size_t)nout * 4);
    bench_rsb_ctx c;
    char note[160];
    double bytes = 4.0 * (double)(nin + nout), lhs = 0, rhs = 0, mag = 0;
    int nth;
    uint32_t s = 99;
    for (i = 0; i < nout; i++) s = s * 1664525u + 1013904223u, g[i] = (float)(s >> 8) * (1.0f / 16777216.0f) - 0.5f;
    for (i = 0; i < nin; i++) s = s * 1664525u + 1013904223u, x[i] = (float)(s >> 8) * (1.0f / 16777216.0f) - 0.5f;
    memset(&c, 0, sizeof c);
    c.d.mode = dnnlk_resize_linear, c.d.coord = dnnlk_resize_half_pixel, c.d.naxes = 2, c.d.axes = axes;
    c.d.scales = scales;
    c.g = bench_dense_tensor(g, dnnlk_f32, 4, dd);
    c.dx = bench_dense_tensor(dx, dnnlk_f32, 4, sd);
    bench_rsb_part(&c, 0, 1);
    { /* <resize(x), g> == <x, resize_bwd(g)> */
        dnnlk_tensor tx = bench_dense_tensor(x, dnnlk_f32, 4, sd), ty = bench_dense_tensor(y, dnnlk_f32, 4, dd);
        dnnlk_resize(&tx, &c.d, &ty, 0, 1);
        for (i = 0; i < nout; i++) lhs += (double)y[i] * g[i], mag += fabs((double)y[i] * g[i]);
        for (i = 0; i < nin; i++) rhs += (double)x[i] * dx[i];
        bench_check(fabs(lhs - rhs) <= 1e-6 * mag, name);
    }
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t = bench_time(bench_rsb_part, &c, nth), copy_t = bench_copy_time((size_t)bytes, nth);
        bench_rsb_ctx sl = c; /* the arithmetic alone: one plane */
        sl.g.dims[0] = sl.g.dims[1] = sl.dx.dims[0] = sl.dx.dims[1] = 1;
        note[0] = 0;
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)nout);
        bench_compute_ceiling_note(note, sizeof note, (double)nout, t, copy_t,
                                   bench_cached_time(bench_rsb_part, &sl, (double)(dd[2] * dd[3]), nth), 0);
        bench_row(name, "4x32x128x128->64x64", "f32", nth, (double)nout, bytes, t, copy_t, 0, note);
    }
    free(g), free(dx), free(x), free(y);
}

static inline void bench_backward(void) {
    if (!bench_selected("backward")) return;
    bench_lnb_case("layer_norm_bwd 4096x768", 4096, 768);
    bench_rsb_case("resize_bwd linear x2 NCHW");
}
