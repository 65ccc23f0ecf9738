/* Backward kernels: softmax_bwd on attention rows [49152, 512] (= [8,12,512,512]), gelu_bwd (erf and
 * tanh forms) on FFN activations [4096, 3072]. Compulsory bytes: 12 per element (two f32 reads,
 * dst / src and diff_dst, one f32 write; softmax rows stay in cache between their two passes).
 * Each case is checked once against a double-precision reference on sampled elements. */
#include <math.h>

typedef struct bench_bw_ctx {
    dnnlk_tensor a, g, o; /* a: dst (softmax) or src (gelu); g: diff_dst; o: diff_src */
    int op;               /* 0 softmax_bwd, 1 gelu_bwd erf form, 2 gelu_bwd tanh form */
} bench_bw_ctx;

static inline void bench_bw_part(void *p, int ith, int nth) {
    bench_bw_ctx *c = (bench_bw_ctx *)p;
    dnnlk_tensor o = c->o;
    if (c->op == 0) dnnlk_softmax_bwd(&c->a, &c->g, -1, &o, ith, nth);
    else dnnlk_gelu_bwd(&c->a, &c->g, c->op == 1 ? dnnlk_gelu_erf : dnnlk_gelu_tanh, &o, ith, nth);
}

/* The loops a user would write (libm float functions), one thread. */
static inline void bench_bw_naive(void *p, int ith, int nth) {
    bench_bw_ctx *c = (bench_bw_ctx *)p;
    const float *a = (const float *)c->a.data, *g = (const float *)c->g.data;
    float *o = (float *)c->o.data;
    int64_t rows = c->a.dims[0], cols = c->a.dims[1], r, i, n = rows * cols;
    (void)ith, (void)nth;
    if (c->op == 0) {
        for (r = 0; r < rows; r++) {
            const float *y = a + r * cols, *d = g + r * cols;
            float s = 0, *q = o + r * cols;
            for (i = 0; i < cols; i++) s += y[i] * d[i];
            for (i = 0; i < cols; i++) q[i] = y[i] * (d[i] - s);
        }
    } else if (c->op == 1) {
        for (i = 0; i < n; i++)
            o[i] = g[i] * (0.5f * (1.0f + erff(a[i] * 0.70710678f)) + a[i] * 0.39894228f * expf(-0.5f * a[i] * a[i]));
    } else {
        for (i = 0; i < n; i++) {
            float x = a[i], t = tanhf(0.7978845608f * (x + 0.044715f * x * x * x));
            o[i] = g[i] * (0.5f * (1 + t) + 0.5f * x * (1 - t * t) * 0.7978845608f * (1 + 3 * 0.044715f * x * x));
        }
    }
}

static inline int bench_bw_check(const bench_bw_ctx *c) {
    const float *a = (const float *)c->a.data, *g = (const float *)c->g.data, *o = (const float *)c->o.data;
    int64_t rows = c->a.dims[0], cols = c->a.dims[1], r, i;
    for (r = 0; r < rows; r += rows / 64 + 1) {
        const float *y = a + r * cols, *d = g + r * cols, *q = o + r * cols;
        double s = 0;
        if (c->op == 0)
            for (i = 0; i < cols; i++) s += (double)y[i] * d[i];
        for (i = 0; i < cols; i++) {
            double x = y[i], want, big;
            if (c->op == 0) want = x * (d[i] - s), big = fabs(x) * (fabs(d[i]) + fabs(s));
            else if (c->op == 1) {
                want = d[i] * (0.5 * erfc(-x / sqrt(2.0)) + x * exp(-x * x / 2) / sqrt(2 * M_PI));
                big = fabs(d[i]) * (1 + fabs(x));
            } else {
                double k1 = 2 * sqrt(2 / M_PI), k2 = 0.044715 * k1, z = x * (k1 + k2 * x * x);
                double sp = 1 / (1 + exp(-z)), sm = 1 / (1 + exp(z));
                want = d[i] * (sp + x * sp * sm * (k1 + 3 * k2 * x * x));
                big = fabs(d[i]) * (1 + fabs(x));
            }
            if (!(fabs(q[i] - want) <= 4 * 0x1p-24 * big + 1e-30)) return 0;
        }
    }
    return 1;
}

static inline void bench_bw_case(const char *name, int op, int64_t rows, int64_t cols) {
    int64_t dims[2] = {rows, cols}, n = rows * cols, i, r;
    float *a = (float *)bench_alloc((size_t)n * 4), *g = (float *)bench_alloc((size_t)n * 4);
    float *o = (float *)bench_alloc((size_t)n * 4);
    bench_bw_ctx c;
    char shape[64];
    double naive_t;
    int nth;
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < n; i++) { /* roughly N(0, 3) activations, gradients in [-1, 1) */
        double u1, u2;
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        u1 = ((double)(h >> 11) + 0.5) / 9007199254740992.0;
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        u2 = (double)(h >> 11) / 9007199254740992.0;
        a[i] = (float)(3.0 * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
        g[i] = (float)(2.0 * u2 - 1.0);
    }
    if (op == 0) /* dst: a softmax of those rows */
        for (r = 0; r < rows; r++) {
            float *y = a + r * cols, m = -INFINITY;
            double s = 0;
            for (i = 0; i < cols; i++) m = y[i] > m ? y[i] : m;
            for (i = 0; i < cols; i++) s += exp((double)y[i] - m);
            for (i = 0; i < cols; i++) y[i] = (float)(exp((double)y[i] - m) / s);
        }
    c.a = bench_mo_tensor(a, dims);
    c.g = bench_mo_tensor(g, dims);
    c.o = bench_mo_tensor(o, dims);
    c.op = op;
    bench_bw_part(&c, 0, 1);
    bench_check(bench_bw_check(&c), name);
    snprintf(shape, sizeof shape, "%lldx%lld", (long long)rows, (long long)cols);
    naive_t = bench_time(bench_bw_naive, &c, 1);
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t = bench_time(bench_bw_part, &c, nth);
        double copy_t = bench_copy_time((size_t)n * 12, nth);
        char note[160] = "";
        bench_bw_ctx slice = c;
        slice.a.dims[0] = slice.g.dims[0] = slice.o.dims[0] = bench_cached_rows(rows, cols);
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
        bench_compute_ceiling_note(note, sizeof note, (double)n, t, copy_t,
                                   bench_cached_time(bench_bw_part, &slice, (double)(slice.a.dims[0] * cols), nth), 0);
        bench_row(name, shape, "f32", nth, (double)n, (double)n * 12, t, copy_t, nth == 1 ? naive_t : 0, note);
    }
    free(a);
    free(g);
    free(o);
}

static inline void bench_backward_math(void) {
    if (!bench_selected("backward")) return;
    bench_bw_case("softmax_bwd 49152x512", 0, 49152, 512);
    bench_bw_case("gelu_erf_bwd 4096x3072", 1, 4096, 3072);
    bench_bw_case("gelu_tanh_bwd 4096x3072", 2, 4096, 3072);
}
