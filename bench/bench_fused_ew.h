/* Fused dropout epilogues (fused_dropout.h), f32, rate 0.1, 1 and 2 threads:
 *   bias + dropout + residual [4096,768]: fwd per engine, bwd with diff_bias (diff_residual aliased);
 *   gelu (erf form) + dropout [4096,3072]: fwd per engine, bwd.
 * Compulsory bytes per element (fused): bdr fwd x + residual + dst + 1/8 mask = 12.125; bdr bwd
 * diff_dst + diff_src + 1/8 = 8.125; gelu fwd x + dst + 1/8 = 8.125; gelu bwd x + diff_dst +
 * diff_src + 1/8 = 12.125. eff = copy time of those bytes / ours. Notes: "x unfused" = the same
 * result from the unfused sequence of this library's calls in the same run (bias and residual adds
 * and the diff_bias column sum as plain loops: the library has no binary add); "gen bound" =
 * max(copy, mask bits alone) / ours, the ceiling where the generator is slower than memory
 * (Philox, MT19937); the PyTorch peer runs its sequence (bench/peers/fused_ew_torch.py). Parts of
 * the unfused sequence take whole rows, each op on its rows' sub-tensor (the stream skipped to the
 * rows' first draw), so both threads run the sequence without a barrier. The 1-thread rows add
 * "cpu: eff, x unfused": the same ratios from thread CPU time, each call alternating with the
 * others (the steadiest numbers while other jobs share the host). */

typedef struct bench_fe_ctx {
    int gelu, bwd, fused;
    int64_t rows, cols;
    float *x, *bias, *res, *dst, *tmp, *dd, *ds, *db, *ws;
    size_t ws_bytes;
    uint8_t *mask;
    dnnlk_rng rng;
} bench_fe_ctx;

static inline void bench_fe_fused(bench_fe_ctx *c, int ith, int nth) {
    const int64_t dims[2] = {c->rows, c->cols};
    dnnlk_tensor tx = bench_dense_tensor(c->x, dnnlk_f32, 2, dims), td = bench_dense_tensor(c->dst, dnnlk_f32, 2, dims);
    dnnlk_tensor tr = bench_dense_tensor(c->res, dnnlk_f32, 2, dims), tb = bench_dense_tensor(c->bias, dnnlk_f32, 1, &c->cols);
    dnnlk_tensor tdd = bench_dense_tensor(c->dd, dnnlk_f32, 2, dims), tds = bench_dense_tensor(c->ds, dnnlk_f32, 2, dims);
    dnnlk_tensor tdb = bench_dense_tensor(c->db, dnnlk_f32, 1, &c->cols);
    dnnlk_status st;
    if (c->gelu && c->bwd) st = dnnlk_gelu_dropout_bwd(&tx, &tdd, c->mask, dnnlk_gelu_none, 0.1, &tds, ith, nth);
    else if (c->gelu) st = dnnlk_gelu_dropout_fwd(&tx, dnnlk_gelu_none, 0.1, &c->rng, NULL, &td, c->mask, ith, nth);
    else if (c->bwd)
        st = dnnlk_bias_dropout_residual_bwd(&tdd, c->mask, 0.1, &tds, &tdb, NULL, c->ws, c->ws_bytes, ith, nth);
    else st = dnnlk_bias_dropout_residual_fwd(&tx, &tb, &tr, 0.1, &c->rng, NULL, &td, c->mask, ith, nth);
    if (st != dnnlk_success) bench_check(0, "fused dropout status");
}

/* The unfused sequence on rows [r0, r1): each op on the rows' sub-tensor. */
static inline void bench_fe_unfused(bench_fe_ctx *c, int ith, int nth) {
    int64_t r0, r1, e0, n, dims[2], i, r, k;
    dnnlk_tensor a, b, g;
    dnnlk_rng rng = c->rng;
    dnnlk__part_range(c->rows, ith, nth, 1, &r0, &r1);
    e0 = r0 * c->cols, n = (r1 - r0) * c->cols;
    dims[0] = r1 - r0, dims[1] = c->cols;
    if (c->bwd) {
        a = bench_dense_tensor(c->dd + e0, dnnlk_f32, 2, dims);
        b = bench_dense_tensor(c->ds + e0, dnnlk_f32, 2, dims);
        dnnlk_dropout_bwd(&a, c->mask + e0 / 8, &b, 0.1, 0, NULL, 0, 1);
        if (c->gelu) {
            g = bench_dense_tensor(c->x + e0, dnnlk_f32, 2, dims);
            dnnlk_gelu_bwd(&g, &b, dnnlk_gelu_none, &b, 0, 1);
        } else if (ith == 0) { /* diff_bias: a column sum over every row (after this part's rows) */
            if (nth > 1) return; /* summed by the 1-thread row only: it needs every part's rows */
            for (k = 0; k < c->cols; k++) c->db[k] = 0;
            for (r = 0; r < c->rows; r++)
                for (k = 0; k < c->cols; k++) c->db[k] += c->ds[r * c->cols + k];
        }
        return;
    }
    dnnlk_rng_skip(&rng, (uint64_t)e0 * (rng.alg == dnnlk_rng_mt19937 ? 2 : 1));
    if (c->gelu) {
        a = bench_dense_tensor(c->x + e0, dnnlk_f32, 2, dims);
        b = bench_dense_tensor(c->tmp + e0, dnnlk_f32, 2, dims);
        g = bench_dense_tensor(c->dst + e0, dnnlk_f32, 2, dims);
        dnnlk_gelu(&a, dnnlk_gelu_none, &b, 0, 1);
        dnnlk_dropout_fwd(&b, &g, c->mask + e0 / 8, 0.1, 0, NULL, &rng, NULL, 0, 1);
        return;
    }
    for (r = r0; r < r1; r++) /* row by row: no division per element */
        for (k = 0; k < c->cols; k++) c->tmp[r * c->cols + k] = c->x[r * c->cols + k] + c->bias[k];
    a = bench_dense_tensor(c->tmp + e0, dnnlk_f32, 2, dims);
    b = bench_dense_tensor(c->dst + e0, dnnlk_f32, 2, dims);
    dnnlk_dropout_fwd(&a, &b, c->mask + e0 / 8, 0.1, 0, NULL, &rng, NULL, 0, 1);
    for (i = 0; i < n; i++) c->dst[e0 + i] = c->res[e0 + i] + c->dst[e0 + i];
}

static inline void bench_fe_part(void *p, int ith, int nth) {
    bench_fe_ctx *c = (bench_fe_ctx *)p;
    if (c->fused) bench_fe_fused(c, ith, nth);
    else bench_fe_unfused(c, ith, nth);
}

static inline void bench_fe_gen_part(void *p, int ith, int nth) {
    bench_fe_ctx *c = (bench_fe_ctx *)p;
    if (dnnlk_rng_bernoulli(&c->rng, c->mask, c->rows * c->cols, 0.9, NULL, ith, nth) != dnnlk_success)
        bench_check(0, "rng bernoulli status");
}

/* Thread CPU time (CLOCK_THREAD_CPUTIME_ID) of one call, the steadiest number on a loaded host. */
static inline double bench_fe_cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 thread: the fused call, the unfused sequence and a memcpy moving the same bytes, taken in turn
 * 9 times; the best thread CPU time of each as "cpu: eff E, x unfused U". */
static inline void bench_fe_cpu_note(bench_fe_ctx *c, double bytes, char *note, size_t n) {
    size_t half = (size_t)(bytes / 2);
    char *a = (char *)bench_alloc(half), *b = (char *)bench_alloc(half);
    double tf = 1e30, tu = 1e30, tc = 1e30, t0;
    int k;
    memset(b, 1, half);
    for (k = 0; k < 9; k++) {
        c->fused = 1, t0 = bench_fe_cpu_now();
        bench_fe_part(c, 0, 1);
        t0 = bench_fe_cpu_now() - t0, tf = t0 < tf ? t0 : tf;
        c->fused = 0, t0 = bench_fe_cpu_now();
        bench_fe_part(c, 0, 1);
        t0 = bench_fe_cpu_now() - t0, tu = t0 < tu ? t0 : tu;
        t0 = bench_fe_cpu_now();
        memcpy(a, b, half);
        t0 = bench_fe_cpu_now() - t0, tc = t0 < tc ? t0 : tc;
    }
    snprintf(note + strlen(note), n - strlen(note), "%scpu: eff %.2f, x unfused %.2f", note[0] ? ", " : "", tc / tf, tu / tf);
    free(a), free(b);
}

static inline void bench_fe_case(int gelu, int bwd, dnnlk_rng_alg alg, int64_t rows, int64_t cols) {
    static const char *alg_names[3] = {"mcg31", "philox", "mt19937"};
    const int64_t n = rows * cols, dims[2] = {rows, cols};
    const double bytes = (double)n * (gelu != bwd ? 8.125 : 12.125);
    bench_fe_ctx c;
    char shape[48], name[48], key[96];
    float *keep_out, *keep_db = NULL;
    int64_t i;
    int nth;
    memset(&c, 0, sizeof c);
    c.gelu = gelu, c.bwd = bwd, c.rows = rows, c.cols = cols;
    c.x = (float *)bench_alloc((size_t)n * 4), c.res = (float *)bench_alloc((size_t)n * 4);
    c.dst = (float *)bench_alloc((size_t)n * 4), c.tmp = (float *)bench_alloc((size_t)n * 4);
    c.dd = (float *)bench_alloc((size_t)n * 4), c.ds = (float *)bench_alloc((size_t)n * 4);
    c.bias = (float *)bench_alloc((size_t)cols * 4), c.db = (float *)bench_alloc((size_t)cols * 4);
    c.mask = (uint8_t *)bench_alloc((size_t)n / 8 + 1);
    keep_out = (float *)bench_alloc((size_t)n * 4);
    for (i = 0; i < n; i++) c.x[i] = (float)(i % 1000) * 0.01f - 5.0f, c.res[i] = (float)(i % 77), c.dd[i] = (float)(i % 13) - 6.0f;
    for (i = 0; i < cols; i++) c.bias[i] = (float)i * 0.001f;
    {
        dnnlk_tensor t = bench_dense_tensor(c.dd, dnnlk_f32, 2, dims);
        dnnlk_bias_dropout_residual_bwd_workspace_bytes(&t, 1, 2, &c.ws_bytes);
        c.ws = (float *)bench_alloc(c.ws_bytes);
    }
    dnnlk_rng_init(&c.rng, alg, 42, 0);
    bench_shape_str(shape, sizeof shape, 2, dims);
    snprintf(name, sizeof name, "%s %s%s%s", gelu ? "gelu+dropout" : "bias+drop+resid", bwd ? "bwd" : "fwd",
             bwd ? "" : " ", bwd ? "" : alg_names[alg]);
    if (bwd) snprintf(key, sizeof key, "%s bwd f32 %s", gelu ? "gelu_dropout" : "bias_dropout_residual", shape);
    else snprintf(key, sizeof key, "%s fwd f32 %s %s", gelu ? "gelu_dropout" : "bias_dropout_residual", shape, alg_names[alg]);
    /* a real mask for the backward; the fused and unfused results must agree (2 parts vs 1) */
    {
        bench_fe_ctx f = c;
        f.bwd = 0, f.fused = 1;
        bench_fe_part(&f, 0, 1);
    }
    c.fused = 1;
    bench_fe_part(&c, 0, 2), bench_fe_part(&c, 1, 2);
    if (bwd) {
        dnnlk_tensor t = bench_dense_tensor(c.dd, dnnlk_f32, 2, dims), d = bench_dense_tensor(c.db, dnnlk_f32, 1, &cols);
        for (i = 0; i < 2; i++) /* finish the 2-part run */
            if (!gelu) dnnlk_bias_dropout_residual_bwd_finish(&t, &d, c.ws, c.ws_bytes, (int)i, 2);
        memcpy(keep_out, c.ds, (size_t)n * 4);
        keep_db = (float *)bench_alloc((size_t)cols * 4);
        memcpy(keep_db, c.db, (size_t)cols * 4);
    } else {
        memcpy(keep_out, c.dst, (size_t)n * 4);
    }
    c.fused = 0;
    bench_fe_part(&c, 0, 1);
    {
        int ok = memcmp(keep_out, bwd ? c.ds : c.dst, (size_t)n * 4) == 0;
        if (bwd && !gelu) /* diff_bias: fixed-order blocks vs a running f32 sum: close, not equal */
            for (i = 0; i < cols; i++) ok = ok && fabsf(keep_db[i] - c.db[i]) <= 1e-3f * (1.0f + fabsf(keep_db[i]));
        bench_check(ok, key);
    }
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double t, tu = 0, copy_t = bench_copy_time((size_t)bytes, nth);
        char note[240] = "";
        size_t k;
        c.fused = 0;
        if (!(bwd && !gelu && nth > 1)) tu = bench_time(bench_fe_part, &c, nth);
        c.fused = 1;
        t = bench_time(bench_fe_part, &c, nth);
        if (tu > 0) snprintf(note, sizeof note, "x unfused %.2f", tu / t);
        if (nth == 1) bench_fe_cpu_note(&c, bytes, note, sizeof note);
        k = strlen(note);
        if (!bwd) {
            double tg = bench_time(bench_fe_gen_part, &c, nth);
            k += (size_t)snprintf(note + k, sizeof note - k, "%sgen bound %.2f", k ? ", " : "", (tg > copy_t ? tg : copy_t) / t);
        }
        if (gelu) { /* compute-bound: the fused call's arithmetic alone, on the first rows */
            bench_fe_ctx s = c;
            s.rows = bench_cached_rows(rows, cols);
            bench_compute_ceiling_note(note, sizeof note, (double)n, t, copy_t,
                                       bench_cached_time(bench_fe_part, &s, (double)(s.rows * cols), nth), tu);
        }
        bench_peer_note(note, sizeof note, key, nth, 1e9 * t / (double)n);
        bench_row(name, shape, "f32", nth, (double)n, bytes, t, copy_t, 0, note);
    }
    free(c.x), free(c.res), free(c.dst), free(c.tmp), free(c.dd), free(c.ds), free(c.bias), free(c.db);
    free(c.mask), free(c.ws), free(keep_out), free(keep_db);
}

static inline void bench_fused_ew(void) {
    int a;
    if (!bench_selected("fused_ew")) return;
    for (a = 0; a < 3; a++) bench_fe_case(0, 0, (dnnlk_rng_alg)a, 4096, 768);
    bench_fe_case(0, 1, dnnlk_rng_mcg31m1, 4096, 768);
    for (a = 0; a < 3; a++) bench_fe_case(1, 0, (dnnlk_rng_alg)a, 4096, 3072);
    bench_fe_case(1, 1, dnnlk_rng_mcg31m1, 4096, 3072);
}
