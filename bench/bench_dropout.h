/* Dropout forward and backward at rate 0.1: [8,512,768] and [8,12,512,512], f32 and bf16, each
 * engine (backward does not depend on it), 1 and 2 threads. Compulsory bytes per element: src read
 * + dst written + 1/8 mask byte (f32 8.125, bf16 4.125). eff = copy time of those bytes / ours.
 * x naive = our scalar path (ISA capped to scalar), for the smaller shape. Peer: PyTorch's
 * F.dropout / native_dropout_backward (bench/peers/dropout_torch.py). */

typedef struct bench_dropout_ctx {
    dnnlk_tensor src, dst;
    uint8_t *mask;
    dnnlk_rng rng;
    int64_t n; /* elements (= mask draws) */
    int bwd;
} bench_dropout_ctx;

static inline void bench_dropout_part(void *p, int ith, int nth) {
    bench_dropout_ctx *c = (bench_dropout_ctx *)p;
    if (c->bwd) dnnlk_dropout_bwd(&c->src, c->mask, &c->dst, 0.1, 0, NULL, ith, nth);
    else dnnlk_dropout_fwd(&c->src, &c->dst, c->mask, 0.1, 0, NULL, &c->rng, NULL, ith, nth);
}

/* The mask bits alone: the same draws as a forward call, no data. copy time / this time is the
 * efficiency a forward call could reach if reading and writing the data cost nothing (the
 * generator's ceiling, printed as "RNG alone"). */
static inline void bench_dropout_gen_part(void *p, int ith, int nth) {
    bench_dropout_ctx *c = (bench_dropout_ctx *)p;
    if (dnnlk_rng_bernoulli(&c->rng, c->mask, c->n, 0.9, NULL, ith, nth) != dnnlk_success)
        bench_check(0, "rng bernoulli status");
}

static inline void bench_dropout_case(int nd, const int64_t *dims, dnnlk_dtype dt, int bwd, dnnlk_rng_alg alg,
                                      int naive) {
    static const char *alg_names[4] = {"mcg31", "philox", "mt19937", "philox_ctr32"};
    bench_dropout_ctx c;
    int64_t n = 1, i;
    size_t es = dnnlk_dtype_size(dt), mbytes = 0;
    char shape[48], name[48], key[96];
    int nth;
    double naive_t = 0;
    for (i = 0; i < nd; i++) n *= dims[i];
    bench_shape_str(shape, sizeof shape, nd, dims);
    if (bwd) snprintf(name, sizeof name, "dropout bwd");
    else snprintf(name, sizeof name, "dropout fwd %s", alg_names[alg]);
    /* the peers' key names dtype and shape too */
    if (bwd) snprintf(key, sizeof key, "dropout bwd %s %s", dnnlk_dtype_name(dt), shape);
    else snprintf(key, sizeof key, "dropout fwd %s %s %s", dnnlk_dtype_name(dt), shape, alg_names[alg]);
    c.src = bench_dense_tensor(bench_alloc((size_t)n * es), dt, nd, dims);
    c.dst = bench_dense_tensor(bench_alloc((size_t)n * es), dt, nd, dims);
    c.bwd = bwd;
    c.n = n;
    dnnlk_dropout_mask_bytes(&c.src, 0, NULL, &mbytes);
    c.mask = (uint8_t *)bench_alloc(mbytes);
    for (i = 0; i < n; i++) dnnlk__store_from_f32((char *)c.src.data + i * (int64_t)es, dt, (float)(i % 1000) - 500.0f);
    dnnlk_rng_init(&c.rng, alg, 42, 0);
    if (bwd) { /* a real mask */
        bench_dropout_ctx f = c;
        f.bwd = 0;
        bench_dropout_part(&f, 0, 1);
    }
    { /* check against the scalar path on a prefix (parts of 2 vs scalar single part) */
        dnnlk_isa top = dnnlk_max_isa();
        int64_t m = n < (1 << 16) ? n : (1 << 16);
        int64_t pd[1];
        bench_dropout_ctx s = c;
        uint8_t *m2 = (uint8_t *)bench_alloc((size_t)m / 8 + 1);
        char *d2 = (char *)bench_alloc((size_t)m * es);
        int ok;
        bench_dropout_part(&c, 0, 2);
        bench_dropout_part(&c, 1, 2);
        pd[0] = m;
        s.src = bench_dense_tensor(c.src.data, dt, 1, pd);
        s.dst = bench_dense_tensor(d2, dt, 1, pd);
        if (!bwd) s.mask = m2;
        dnnlk_set_max_isa(dnnlk_isa_scalar);
        bench_dropout_part(&s, 0, 1);
        dnnlk_set_max_isa(top);
        ok = memcmp(d2, c.dst.data, (size_t)m * es) == 0 && (bwd || memcmp(m2, c.mask, (size_t)m / 8) == 0);
        bench_check(ok, key);
        free(m2);
        free(d2);
    }
    if (naive) {
        dnnlk_isa top = dnnlk_max_isa();
        dnnlk_set_max_isa(dnnlk_isa_scalar);
        naive_t = bench_time(bench_dropout_part, &c, 1);
        dnnlk_set_max_isa(top);
    }
    for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
        double bytes = (double)n * (2.0 * (double)es + 0.125);
        double t = bench_time(bench_dropout_part, &c, nth);
        double copy_t = bench_copy_time((size_t)bytes, nth);
        char note[160] = "";
        if (!bwd) snprintf(note, sizeof note, "RNG alone %.2f", copy_t / bench_time(bench_dropout_gen_part, &c, nth));
        bench_peer_note(note, sizeof note, key, nth, 1e9 * t / (double)n);
        bench_row(name, shape, dnnlk_dtype_name(dt), nth, (double)n, bytes, t, copy_t, nth == 1 ? naive_t : 0, note);
    }
    free(c.src.data);
    free(c.dst.data);
    free(c.mask);
}

static inline void bench_dropout(void) {
    static const int64_t s1[3] = {8, 512, 768}, s2[4] = {8, 12, 512, 512};
    int t, a;
    if (!bench_selected("dropout")) return;
    for (t = 0; t < 2; t++) {
        dnnlk_dtype dt = t == 0 ? dnnlk_f32 : dnnlk_bf16;
        for (a = 0; a < 4; a++) bench_dropout_case(3, s1, dt, 0, (dnnlk_rng_alg)a, 1);
        bench_dropout_case(3, s1, dt, 1, dnnlk_rng_mcg31m1, 1);
        for (a = 0; a < 3; a++) bench_dropout_case(4, s2, dt, 0, (dnnlk_rng_alg)a, 0);
        bench_dropout_case(4, s2, dt, 1, dnnlk_rng_mcg31m1, 0);
    }
}
