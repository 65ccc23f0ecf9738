/* select: dst = cond ? src0 : src1 (kernels/select.h).
 *
 * Cases: same-shape f32 at 16K (L1/L2), 4M (L3) and 64M (DRAM) elements, bf16 and u8 at 4M; the
 * attention masked_fill x[8,12,512,512] with cond [8,1,1,512] and a 0-d src1; a short inner dim,
 * [1M,3] with cond [1M,1]. Compulsory bytes per element (BENCH.md): src0 + src1 + dst + cond, the
 * cond (one byte) and scalar operands divided by their broadcast factor.
 *
 * The naive loop is the plain C a user would write (`d[i] = c[i] ? a[i] : b[i]`, nested loops for
 * the broadcasts), built with the bench's flags. Peers: bench/peers/select_torch.py (torch.where,
 * np.where on the same shapes).
 *
 * DNNLK_BENCH_SELECT_NT=1 adds the sweep that sets DNNLK_SELECT_NT_BYTES: same-shape f32 at
 * growing sizes with regular and with non-temporal stores. */

static inline dnnlk_tensor bench_select_tensor(void *data, dnnlk_dtype dt, int nd, const int64_t *dims) {
    dnnlk_tensor t;
    memset(&t, 0, sizeof t);
    t.data = data, t.dtype = dt, t.ndims = nd;
    if (nd) memcpy(t.dims, dims, (size_t)nd * sizeof(int64_t));
    dnnlk_dense_strides(nd, t.dims, t.strides);
    return t;
}

typedef struct bench_select_ctx {
    dnnlk_tensor c, a, b, d;
    int kind; /* naive loop shape: 0 same-shape, 1 masked_fill, 2 per-row cond */
    int64_t rows, inner;
} bench_select_ctx;

static inline void bench_select_run(void *p, int ith, int nth) {
    bench_select_ctx *x = (bench_select_ctx *)p;
    if (dnnlk_select(&x->c, &x->a, &x->b, &x->d, dnnlk_broadcast_numpy, ith, nth) != dnnlk_success) {
        printf("select failed\n");
        exit(2);
    }
}

/* The naive loops, one per element size through a typed macro. */
#define BENCH_SELECT_NAIVE(T)                                                                              \
    static inline void bench_select_naive_##T(const bench_select_ctx *x, void *out) {                      \
        const unsigned char *c = (const unsigned char *)x->c.data;                                         \
        const T *a = (const T *)x->a.data, *b = (const T *)x->b.data;                                      \
        T *d = (T *)out;                                                                                   \
        int64_t i, r, n = x->rows * x->inner;                                                              \
        if (x->kind == 0) {                                                                                \
            for (i = 0; i < n; i++) d[i] = c[i] ? a[i] : b[i];                                             \
        } else if (x->kind == 1) { /* rows of T elements; cond [B,1,1,T] with B outer blocks */            \
            int64_t per_b = x->rows / x->c.dims[0];                                                        \
            for (r = 0; r < x->rows; r++) {                                                                \
                const unsigned char *cr = c + (r / per_b) * x->inner;                                      \
                for (i = 0; i < x->inner; i++) d[r * x->inner + i] = cr[i] ? a[r * x->inner + i] : b[0];   \
            }                                                                                              \
        } else {                                                                                           \
            for (r = 0; r < x->rows; r++)                                                                  \
                for (i = 0; i < x->inner; i++)                                                             \
                    d[r * x->inner + i] = c[r] ? a[r * x->inner + i] : b[r * x->inner + i];                \
        }                                                                                                  \
    }
BENCH_SELECT_NAIVE(uint8_t)
BENCH_SELECT_NAIVE(uint16_t)
BENCH_SELECT_NAIVE(uint32_t)
#undef BENCH_SELECT_NAIVE

typedef struct bench_select_naive_ctx {
    const bench_select_ctx *x;
    void *out;
} bench_select_naive_ctx;

static inline void bench_select_naive_run(void *p, int ith, int nth) {
    bench_select_naive_ctx *n = (bench_select_naive_ctx *)p;
    (void)ith, (void)nth;
    switch (dnnlk_dtype_size(n->x->d.dtype)) {
    case 1: bench_select_naive_uint8_t(n->x, n->out); break;
    case 2: bench_select_naive_uint16_t(n->x, n->out); break;
    default: bench_select_naive_uint32_t(n->x, n->out); break;
    }
}

static inline void bench_select_fill(void *p, size_t bytes, uint64_t seed, int is_cond) {
    unsigned char *u = (unsigned char *)p;
    size_t i;
    for (i = 0; i < bytes; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        u[i] = is_cond ? (unsigned char)((seed >> 40) & 1 ? (seed >> 48) | 1 : 0) : (unsigned char)(seed >> 56);
    }
}

/* kind 0: same shape [n]; 1: masked_fill [8,12,512,512]; 2: [rows,inner] with cond [rows,1]. */
static inline void bench_select_case(const char *name, dnnlk_dtype dt, int kind, int64_t rows, int64_t inner,
                                     double bytes_per_elem, int with_nt_note) {
    bench_select_ctx x;
    bench_select_naive_ctx nv;
    size_t es = dnnlk_dtype_size(dt);
    int64_t n = rows * inner;
    void *ref;
    char shape[64];
    int nth;
    memset(&x, 0, sizeof x);
    x.kind = kind, x.rows = rows, x.inner = inner;
    if (kind == 0) {
        x.a = bench_select_tensor(bench_alloc((size_t)n * es), dt, 1, &n);
        x.b = bench_select_tensor(bench_alloc((size_t)n * es), dt, 1, &n);
        x.c = bench_select_tensor(bench_alloc((size_t)n), dnnlk_boolean, 1, &n);
        snprintf(shape, sizeof shape, "%lld", (long long)n);
    } else if (kind == 1) {
        int64_t xd[4] = {8, 12, 512, 512}, cd[4] = {8, 1, 1, 512};
        x.a = bench_select_tensor(bench_alloc((size_t)n * es), dt, 4, xd);
        x.b = bench_select_tensor(bench_alloc(es), dt, 0, NULL);
        x.c = bench_select_tensor(bench_alloc(8 * 512), dnnlk_boolean, 4, cd);
        bench_shape_str(shape, sizeof shape, 4, xd);
    } else {
        int64_t xd[2] = {rows, inner}, cd[2] = {rows, 1};
        x.a = bench_select_tensor(bench_alloc((size_t)n * es), dt, 2, xd);
        x.b = bench_select_tensor(bench_alloc((size_t)n * es), dt, 2, xd);
        x.c = bench_select_tensor(bench_alloc((size_t)rows), dnnlk_boolean, 2, cd);
        bench_shape_str(shape, sizeof shape, 2, xd);
    }
    bench_select_fill(x.a.data, (size_t)n * es, 1, 0);
    bench_select_fill(x.b.data, kind == 1 ? es : (size_t)n * es, 2, 0);
    bench_select_fill(x.c.data, kind == 0 ? (size_t)n : kind == 1 ? 8 * 512 : (size_t)rows, 3, 1);
    memset(&x.d, 0, sizeof x.d);
    x.d.dtype = dt;
    x.d.ndims = DNNLK_UNKNOWN;
    if (dnnlk_select_infer(&x.c, &x.a, &x.b, &x.d, dnnlk_broadcast_numpy) != dnnlk_success) {
        printf("select infer failed\n");
        exit(2);
    }
    x.d.data = bench_alloc((size_t)n * es);
    ref = bench_alloc((size_t)n * es);
    nv.x = &x;
    nv.out = ref;
    bench_select_naive_run(&nv, 0, 1);
    bench_select_run(&x, 0, 1);
    bench_check(memcmp(ref, x.d.data, (size_t)n * es) == 0, name);
    {
        double naive_t = bench_time(bench_select_naive_run, &nv, 1);
        for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
            double t = bench_time(bench_select_run, &x, nth);
            double bytes = bytes_per_elem * (double)n;
            double copy_t = bench_copy_time((size_t)bytes, nth);
            char note[160] = "";
            if (with_nt_note && (double)n * (double)(3 * es + 1) / nth >= (double)*dnnlk__select_nt_cell())
                snprintf(note, sizeof note, "nt");
            bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
            bench_row(name, shape, dnnlk_dtype_name(dt), nth, (double)n, bytes, t, copy_t, nth == 1 ? naive_t : 0, note);
        }
    }
    free(x.a.data), free(x.b.data), free(x.c.data), free(x.d.data), free(ref);
}

/* Regular against non-temporal stores, same-shape f32, for the threshold. */
static inline void bench_select_nt_sweep(void) {
    static const int64_t sizes[] = {64 << 10, 96 << 10, 128 << 10, 160 << 10, 192 << 10, 256 << 10, 512 << 10,
                                    1 << 20, 4 << 20, 16 << 20};
    size_t k;
    int64_t *cell = dnnlk__select_nt_cell(), saved = *cell;
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int64_t n = sizes[k];
        bench_select_ctx x;
        int nth, nt;
        char shape[32], name[64];
        memset(&x, 0, sizeof x);
        x.a = bench_select_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 1, &n);
        x.b = bench_select_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 1, &n);
        x.c = bench_select_tensor(bench_alloc((size_t)n), dnnlk_boolean, 1, &n);
        x.d = bench_select_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 1, &n);
        bench_select_fill(x.c.data, (size_t)n, 3, 1);
        snprintf(shape, sizeof shape, "%lld", (long long)n);
        for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
            double copy_t = bench_copy_time((size_t)(13 * n), nth);
            for (nt = 0; nt < 2; nt++) {
                double t;
                *cell = nt ? 0 : INT64_MAX;
                t = bench_time(bench_select_run, &x, nth);
                snprintf(name, sizeof name, "select nt sweep %s", nt ? "stream" : "store");
                bench_row(name, shape, "f32", nth, (double)n, 13.0 * (double)n, t, copy_t, 0, "");
            }
        }
        free(x.a.data), free(x.b.data), free(x.c.data), free(x.d.data);
    }
    *cell = saved;
}

static inline void bench_select(void) {
    const char *sweep = getenv("DNNLK_BENCH_SELECT_NT");
    if (!bench_selected("select")) return;
    if (sweep && atoi(sweep)) bench_select_nt_sweep();
    bench_select_case("select f32 16K", dnnlk_f32, 0, 1, 16 << 10, 13, 0);
    bench_select_case("select f32 4M", dnnlk_f32, 0, 1, 4 << 20, 13, 1);
    bench_select_case("select f32 64M", dnnlk_f32, 0, 1, 64 << 20, 13, 1);
    bench_select_case("select bf16 4M", dnnlk_bf16, 0, 1, 4 << 20, 7, 1);
    bench_select_case("select u8 4M", dnnlk_u8, 0, 1, 4 << 20, 4, 1);
    /* masked_fill: 4 read + 4 written per element; the cond (4 KiB) and the scalar are noise. */
    bench_select_case("select masked_fill", dnnlk_f32, 1, 8 * 12 * 512, 512, 8.0 + 4096.0 / (8.0 * 12 * 512 * 512), 1);
    bench_select_case("select [1M,3] row cond", dnnlk_f32, 2, 1 << 20, 3, 12.0 + 1.0 / 3.0, 1);
}
