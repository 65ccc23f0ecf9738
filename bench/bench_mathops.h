/* erf, gelu (erf and tanh forms), softmax and log_softmax on the shapes users run: attention rows
 * [49152, 512] (= [8,12,512,512]), LLM logits [256, 32000], FFN activations [4096, 3072].
 * Compulsory bytes: 8 per element for all (one f32 read, one f32 write; softmax rows stay in cache
 * between its passes). Each case is checked once against a double-precision reference (softmax:
 * 4 ulp, eltwise: 2 ulp on every element). */
#include <math.h>

static inline dnnlk_tensor bench_mo_tensor(float *p, const int64_t *dims) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.data = p;
    t.dtype = dnnlk_f32;
    t.ndims = 2;
    t.dims[0] = dims[0], t.dims[1] = dims[1];
    t.strides[0] = dims[1], t.strides[1] = 1;
    return t;
}

typedef struct bench_mo_ctx {
    dnnlk_tensor s, t;
    int op; /* 0 softmax, 1 log_softmax, 2 gelu erf, 3 gelu tanh, 4 erf */
} bench_mo_ctx;

static inline void bench_mo_part(void *p, int ith, int nth) {
    bench_mo_ctx *c = (bench_mo_ctx *)p;
    dnnlk_tensor t = c->t;
    switch (c->op) {
    case 0: dnnlk_softmax(&c->s, -1, &t, ith, nth); break;
    case 1: dnnlk_log_softmax(&c->s, -1, &t, ith, nth); break;
    case 2: dnnlk_gelu(&c->s, dnnlk_gelu_none, &t, ith, nth); break;
    case 3: dnnlk_gelu(&c->s, dnnlk_gelu_tanh, &t, ith, nth); break;
    default: dnnlk_erf(&c->s, &t, ith, nth); break;
    }
}

/* The naive loops a user would write (libm float functions), one thread. */
static inline void bench_mo_naive(void *p, int ith, int nth) {
    bench_mo_ctx *c = (bench_mo_ctx *)p;
    const float *x = (const float *)c->s.data;
    float *y = (float *)c->t.data;
    int64_t rows = c->s.dims[0], cols = c->s.dims[1], r, i, n = rows * cols;
    (void)ith, (void)nth;
    if (c->op <= 1) {
        for (r = 0; r < rows; r++) {
            const float *xr = x + r * cols;
            float *yr = y + r * cols, m = -INFINITY, s = 0;
            for (i = 0; i < cols; i++) m = xr[i] > m ? xr[i] : m;
            for (i = 0; i < cols; i++) s += expf(xr[i] - m);
            if (c->op == 0)
                for (i = 0; i < cols; i++) yr[i] = expf(xr[i] - m) / s;
            else
                for (i = 0; i < cols; i++) yr[i] = xr[i] - m - logf(s);
        }
    } else if (c->op == 2) {
        for (i = 0; i < n; i++) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678f));
    } else if (c->op == 3) {
        for (i = 0; i < n; i++)
            y[i] = 0.5f * x[i] * (1.0f + tanhf(0.7978845608f * (x[i] + 0.044715f * x[i] * x[i] * x[i])));
    } else {
        for (i = 0; i < n; i++) y[i] = erff(x[i]);
    }
}

static inline int bench_mo_check(const bench_mo_ctx *c) {
    const float *x = (const float *)c->s.data, *y = (const float *)c->t.data;
    int64_t rows = c->s.dims[0], cols = c->s.dims[1], r, i;
    if (c->op <= 1) {
        for (r = 0; r < rows; r += rows / 64 + 1) {
            const float *xr = x + r * cols, *yr = y + r * cols;
            double m = -INFINITY, s = 0, cnt = 0, ls;
            for (i = 0; i < cols; i++) m = xr[i] > m ? xr[i] : m;
            for (i = 0; i < cols; i++) {
                if (xr[i] == m) cnt += 1;
                else s += exp(xr[i] - m);
            }
            ls = log(cnt) + log1p(s / cnt);
            for (i = 0; i < cols; i++) {
                double want = c->op == 0 ? exp(xr[i] - m) / (cnt + s) : (xr[i] - m) - ls;
                float w = (float)want;
                int32_t a, b;
                memcpy(&a, &yr[i], 4);
                memcpy(&b, &w, 4);
                if (a < 0) a = (int32_t)(0x80000000u - (uint32_t)a);
                if (b < 0) b = (int32_t)(0x80000000u - (uint32_t)b);
                if ((a > b ? a - b : b - a) > 4) return 0;
            }
        }
        return 1;
    }
    for (i = 0; i < rows * cols; i++) {
        double v = x[i], want;
        float w;
        int32_t a, b;
        if (c->op == 2) want = 0.5 * v * erfc(-v / sqrt(2.0));
        else if (c->op == 3) want = v / (1.0 + exp(-2.0 * sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
        else want = erf(v);
        w = (float)want;
        memcpy(&a, &y[i], 4);
        memcpy(&b, &w, 4);
        if (a < 0) a = (int32_t)(0x80000000u - (uint32_t)a);
        if (b < 0) b = (int32_t)(0x80000000u - (uint32_t)b);
        if ((a > b ? a - b : b - a) > 2) return 0;
    }
    return 1;
}

static inline void bench_mo_case(const char *name, int op, int64_t rows, int64_t cols) {
    int64_t dims[2] = {rows, cols}, n = rows * cols, i;
    float *x = (float *)bench_alloc((size_t)n * 4), *y = (float *)bench_alloc((size_t)n * 4);
    bench_mo_ctx c;
    char shape[64];
    double naive_t;
    int nth;
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (i = 0; i < n; i++) { /* roughly N(0, 3): the range activations and logits take */
        double u1, u2;
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        u1 = ((double)(h >> 11) + 0.5) / 9007199254740992.0;
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        u2 = (double)(h >> 11) / 9007199254740992.0;
        x[i] = (float)(3.0 * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    }
    c.s = bench_mo_tensor(x, dims);
    c.t = bench_mo_tensor(y, dims);
    c.op = op;
    bench_mo_part(&c, 0, 1);
    bench_check(bench_mo_check(&c), name);
    snprintf(shape, sizeof shape, "%lldx%lld", (long long)rows, (long long)cols);
    naive_t = bench_time(bench_mo_naive, &c, 1);
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t = bench_time(bench_mo_part, &c, nth);
        double copy_t = bench_copy_time((size_t)n * 8, nth);
        char note[160] = "";
        bench_mo_ctx slice = c;
        slice.s.dims[0] = slice.t.dims[0] = bench_cached_rows(rows, cols);
        bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
        bench_compute_ceiling_note(note, sizeof note, (double)n, t, copy_t,
                                   bench_cached_time(bench_mo_part, &slice, (double)(slice.s.dims[0] * cols), nth), 0);
        bench_row(name, shape, "f32", nth, (double)n, (double)n * 8, t, copy_t, nth == 1 ? naive_t : 0, note);
    }
    free(x);
    free(y);
}

static inline void bench_mathops(void) {
    if (!bench_selected("mathops")) return;
    bench_mo_case("softmax 49152x512", 0, 49152, 512);
    bench_mo_case("log_softmax 49152x512", 1, 49152, 512);
    bench_mo_case("softmax 256x32000", 0, 256, 32000);
    bench_mo_case("log_softmax 256x32000", 1, 256, 32000);
    bench_mo_case("gelu_erf 4096x3072", 2, 4096, 3072);
    bench_mo_case("gelu_tanh 4096x3072", 3, 4096, 3072);
    bench_mo_case("erf 4096x3072", 4, 4096, 3072);
}
