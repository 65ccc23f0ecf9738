/* Fused training epilogues (issue #26), part A: masked softmax + dropout on attention
 * probabilities [8,12,512,512] f32, mask [8,1,1,512] boolean, rate 0.1, 1 and 2 threads.
 * Two ways to feed the backward: the saved row stats (it recomputes p from src; "fwd", "bwd") or
 * the saved probabilities ("fwd+p" writes them, "bwd from p" reads them). Compulsory bytes per
 * element: forward src read + dst written + 1/8 drop-mask byte (8.125; the cond and the per-row
 * stats, 8 bytes a row, are under 0.02), fwd+p 4 more; backward src (or p) + diff_dst read +
 * diff_src written + 1/8 (12.125). eff = copy time of those bytes / ours. Notes:
 *   "x unfused": the time of this library's unfused sequence in the same run / ours: forward
 *     dnnlk_select(cond, -inf, x) + dnnlk_softmax + dnnlk_dropout_fwd; backward dnnlk_dropout_bwd
 *     + dnnlk_softmax_bwd (given the saved softmax output). Each call timed with the same threads,
 *     the sum taken (the calls of a sequence cannot overlap).
 *   "gen bound" (forward): max(copy time, time of the mask bits alone) / ours: the ceiling when the
 *     generator, not memory, limits (Philox and MT19937).
 *   peers: PyTorch's masked_fill + softmax + dropout, and native_dropout_backward +
 *     _softmax_backward_data (bench/peers/fused_torch.py). */

typedef struct bench_fsm_ctx {
    dnnlk_tensor x, y, cond, xm, p, dy, dx, g, ninf, pr;
    uint8_t *mask;
    float *stats;
    dnnlk_rng rng;
    int64_t n;
    int step; /* 0 fused fwd, 1 fused bwd, 2 select, 3 softmax, 4 dropout fwd, 5 dropout bwd, 6 softmax bwd, 7 bits,
                 8 fused fwd saving the probabilities (pr), 9 fused bwd from them */
} bench_fsm_ctx;

static inline void bench_fsm_part(void *p, int ith, int nth) {
    bench_fsm_ctx *c = (bench_fsm_ctx *)p;
    dnnlk_status s = dnnlk_success;
    switch (c->step) {
    case 0:
    case 8:
        s = dnnlk_masked_softmax_dropout_fwd(&c->x, &c->cond, -1, 0.1, &c->rng, NULL, &c->y, c->mask, c->stats,
                                             c->step == 8 ? &c->pr : NULL, ith, nth);
        break;
    case 1:
    case 9:
        s = dnnlk_masked_softmax_dropout_bwd(&c->x, &c->cond, -1, c->stats, c->step == 9 ? &c->pr : NULL, c->mask, 0.1,
                                             &c->dy, &c->dx, ith, nth);
        break;
    case 2: s = dnnlk_select(&c->cond, &c->ninf, &c->x, &c->xm, dnnlk_broadcast_numpy, ith, nth); break;
    case 3: s = dnnlk_softmax(&c->xm, -1, &c->p, ith, nth); break;
    case 4: s = dnnlk_dropout_fwd(&c->p, &c->y, c->mask, 0.1, 0, NULL, &c->rng, NULL, ith, nth); break;
    case 5: s = dnnlk_dropout_bwd(&c->dy, c->mask, &c->g, 0.1, 0, NULL, ith, nth); break;
    case 6: s = dnnlk_softmax_bwd(&c->p, &c->g, -1, &c->dx, ith, nth); break;
    case 7: s = dnnlk_rng_bernoulli(&c->rng, c->mask, c->n, 0.9, NULL, ith, nth); break;
    }
    if (s != dnnlk_success) bench_check(0, "fused status");
}

/* The first `rows` rows of every tensor: the slice the arithmetic floor is timed on. */
static inline bench_fsm_ctx bench_fsm_slice(const bench_fsm_ctx *c, int64_t rows) {
    bench_fsm_ctx s = *c;
    dnnlk_tensor *t[8];
    int i;
    t[0] = &s.x, t[1] = &s.y, t[2] = &s.xm, t[3] = &s.p, t[4] = &s.dy, t[5] = &s.dx, t[6] = &s.g, t[7] = &s.pr;
    for (i = 0; i < 8; i++)
        if (t[i]->ndims == 4) t[i]->dims[0] = t[i]->dims[1] = 1, t[i]->dims[2] = rows;
    s.cond.dims[0] = 1;
    s.n = rows * c->x.dims[3];
    return s;
}

static inline double bench_fsm_time(bench_fsm_ctx *c, int step, int nth) {
    c->step = step;
    return bench_time(bench_fsm_part, c, nth);
}

/* mode: 0 forward, 1 backward (saved stats: recomputes p from src), 2 forward saving the
 * probabilities too, 3 backward from them. */
static inline void bench_fused_case(dnnlk_rng_alg alg, int mode) {
    static const char *alg_names[3] = {"mcg31", "philox", "mt19937"};
    static const char *mode_names[4] = {"fwd", "bwd", "fwd+p", "bwd from p"};
    static const int64_t dims[4] = {8, 12, 512, 512}, cdims[4] = {8, 1, 1, 512};
    static float ninf = -INFINITY;
    static const int fused_step[4] = {0, 1, 8, 9};
    bench_fsm_ctx c;
    int64_t n = 8 * 12 * 512 * 512, rows = n / 512, i;
    size_t mbytes = (size_t)(n / 8);
    char shape[48], name[64], key[112];
    int nth, bwd = mode & 1;
    bench_shape_str(shape, sizeof shape, 4, dims);
    if (bwd) snprintf(name, sizeof name, "fused masked_softmax_dropout %s", mode_names[mode]);
    else snprintf(name, sizeof name, "fused masked_softmax_dropout %s %s", mode_names[mode], alg_names[alg]);
    if (bwd) snprintf(key, sizeof key, "fused masked_softmax_dropout bwd f32 %s", shape);
    else snprintf(key, sizeof key, "fused masked_softmax_dropout fwd f32 %s %s", shape, alg_names[alg]);
    memset(&c, 0, sizeof c);
    c.n = n;
    c.x = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
    c.y = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
    c.p = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
    c.xm = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
    c.cond = bench_dense_tensor(bench_alloc(8 * 512), dnnlk_boolean, 4, cdims);
    c.ninf = bench_dense_tensor(&ninf, dnnlk_f32, 0, dims);
    c.mask = (uint8_t *)bench_alloc(mbytes);
    c.stats = (float *)bench_alloc((size_t)rows * 8);
    if (mode >= 2) c.pr = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
    if (bwd) {
        c.dy = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
        c.dx = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
        c.g = bench_dense_tensor(bench_alloc((size_t)n * 4), dnnlk_f32, 4, dims);
        for (i = 0; i < n; i++) ((float *)c.dy.data)[i] = (float)((i * 104729) % 1000) * 0.002f - 1.0f;
    }
    for (i = 0; i < n; i++) ((float *)c.x.data)[i] = (float)((i * 7919) % 2000) * 0.005f - 5.0f;
    for (i = 0; i < 8 * 512; i++) ((uint8_t *)c.cond.data)[i] = (uint8_t)(i % 512 >= 400 + (i / 512) * 10);
    dnnlk_rng_init(&c.rng, alg, 42, 0);
    { /* the check: fused (2 parts) against the unfused sequence, bit for bit (no row is fully masked) */
        uint8_t *m2 = (uint8_t *)bench_alloc(mbytes);
        float *y2 = (float *)bench_alloc((size_t)n * 4);
        int ok;
        bench_fsm_ctx u = c;
        u.y = bench_dense_tensor(y2, dnnlk_f32, 4, dims);
        u.mask = m2;
        bench_fsm_part((u.step = 2, &u), 0, 1);
        bench_fsm_part((u.step = 3, &u), 0, 1); /* p: the softmax output, for the unfused backward */
        bench_fsm_part((u.step = 4, &u), 0, 1);
        bench_fsm_part((c.step = fused_step[mode & 2], &c), 0, 2);
        bench_fsm_part((c.step = fused_step[mode & 2], &c), 1, 2);
        ok = memcmp(m2, c.mask, mbytes) == 0 && memcmp(y2, c.y.data, (size_t)n * 4) == 0;
        if (mode >= 2) ok = ok && memcmp(c.p.data, c.pr.data, (size_t)n * 4) == 0;
        if (bwd) {
            u.dx = bench_dense_tensor(y2, dnnlk_f32, 4, dims);
            bench_fsm_part((u.step = 5, &u), 0, 1);
            bench_fsm_part((u.step = 6, &u), 0, 1);
            bench_fsm_part((c.step = fused_step[mode], &c), 0, 2);
            bench_fsm_part((c.step = fused_step[mode], &c), 1, 2);
            ok = ok && memcmp(y2, c.dx.data, (size_t)n * 4) == 0;
        }
        bench_check(ok, name);
        free(m2);
        free(y2);
    }
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double bytes = (double)n * (mode == 0 ? 8.125 : 12.125);
        double t = bench_fsm_time(&c, fused_step[mode], nth), copy_t = bench_copy_time((size_t)bytes, nth), unf;
        char note[192];
        if (bwd) {
            unf = bench_fsm_time(&c, 5, nth) + bench_fsm_time(&c, 6, nth);
            snprintf(note, sizeof note, "x unfused %.2f", unf / t);
        } else {
            double gen = bench_fsm_time(&c, 7, nth);
            unf = bench_fsm_time(&c, 2, nth) + bench_fsm_time(&c, 3, nth) + bench_fsm_time(&c, 4, nth);
            snprintf(note, sizeof note, "x unfused %.2f, gen bound %.2f", unf / t, (gen > copy_t ? gen : copy_t) / t);
        }
        { /* softmax is compute-bound: the fused call's arithmetic alone, on the first rows */
            bench_fsm_ctx sl = bench_fsm_slice(&c, bench_cached_rows(rows, 512));
            sl.step = fused_step[mode];
            bench_compute_ceiling_note(note, sizeof note, (double)n, t, copy_t,
                                       bench_cached_time(bench_fsm_part, &sl, (double)sl.n, nth), unf);
        }
        bench_peer_note(note, sizeof note, key, nth, 1e9 * t / (double)n);
        bench_row(name, shape, "f32", nth, (double)n, bytes, t, copy_t, 0, note);
    }
    free(c.x.data), free(c.y.data), free(c.p.data), free(c.xm.data), free(c.cond.data), free(c.mask), free(c.stats);
    if (mode >= 2) free(c.pr.data);
    if (bwd) free(c.dy.data), free(c.dx.data), free(c.g.data);
}

static inline void bench_fused(void) {
    int a;
    if (!bench_selected("fused")) return;
    for (a = 0; a < 3; a++) bench_fused_case((dnnlk_rng_alg)a, 0);
    bench_fused_case(dnnlk_rng_mcg31m1, 2);
    bench_fused_case(dnnlk_rng_mcg31m1, 1);
    bench_fused_case(dnnlk_rng_mcg31m1, 3);
}
