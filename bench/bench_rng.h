/* RNG engines: draws per second per core for raw u32, uniform f32 and Bernoulli bits, per engine,
 * 1 and 2 threads (parts), next to libstdc++'s std::mt19937 (+ bernoulli_distribution,
 * + uniform_real_distribution<float>) measured by bench/peers/rng_stdcpp.cpp in the same run.
 * "x naive" is our own scalar path (ISA capped to scalar). No copy limit applies: eff is "-". */

typedef struct bench_rng_ctx {
    int kind; /* 0 u32, 1 uniform, 2 bernoulli */
    dnnlk_rng rng;
    int64_t n;
    uint32_t *u;
    float *f;
    uint8_t *bits;
} bench_rng_ctx;

static inline void bench_rng_part(void *p, int ith, int nth) {
    bench_rng_ctx *c = (bench_rng_ctx *)p;
    if (c->kind == 0) dnnlk_rng_u32(&c->rng, c->u, c->n, NULL, ith, nth);
    else if (c->kind == 1) dnnlk_rng_uniform_f32(&c->rng, c->f, c->n, 0.0f, 1.0f, NULL, ith, nth);
    else dnnlk_rng_bernoulli(&c->rng, c->bits, c->n, 0.9, NULL, ith, nth);
}

static inline void bench_rng(void) {
    static const char *alg_names[4] = {"mcg31", "philox", "mt19937", "philox_ctr32"};
    static const char *kind_names[3] = {"u32", "uniform", "bernoulli"};
    const int64_t n = 1 << 22;
    bench_rng_ctx c;
    int a, k, nth;
    if (!bench_selected("rng")) return;
    c.n = n;
    c.u = (uint32_t *)bench_alloc((size_t)n * 4);
    c.f = (float *)bench_alloc((size_t)n * 4);
    c.bits = (uint8_t *)bench_alloc((size_t)n / 8);
    for (a = 0; a < 4; a++)
        for (k = 0; k < 3; k++) {
            char name[64], shape[32];
            dnnlk_isa top = dnnlk_max_isa();
            double naive;
            snprintf(name, sizeof name, "rng %s %s", alg_names[a], kind_names[k]);
            snprintf(shape, sizeof shape, "%lld", (long long)n);
            c.kind = k;
            dnnlk_rng_init(&c.rng, (dnnlk_rng_alg)a, 2024, 0);
            { /* check: 2 parts equal one call, and the first values equal the scalar path */
                bench_rng_ctx d = c;
                uint32_t head[64];
                int ok;
                bench_rng_part(&c, 0, 1);
                memcpy(head, k == 0 ? (void *)c.u : k == 1 ? (void *)c.f : (void *)c.bits, sizeof head);
                dnnlk_set_max_isa(dnnlk_isa_scalar);
                d.n = k == 2 ? 64 * 32 : 64;
                bench_rng_part(&d, 0, 1);
                dnnlk_set_max_isa(top);
                ok = memcmp(head, k == 0 ? (void *)c.u : k == 1 ? (void *)c.f : (void *)c.bits, sizeof head) == 0;
                bench_check(ok, name);
                bench_rng_part(&c, 0, 1);
            }
            dnnlk_set_max_isa(dnnlk_isa_scalar);
            naive = bench_time(bench_rng_part, &c, 1);
            dnnlk_set_max_isa(top);
            for (nth = bench_threads_first(); nth; nth = bench_threads_next(nth)) {
                double t = bench_time(bench_rng_part, &c, nth);
                double bytes = k == 2 ? (double)n / 8 : (double)n * 4;
                char note[160] = "";
                bench_peer_note(note, sizeof note, name, nth, 1e9 * t / (double)n);
                bench_row(name, shape, k == 2 ? "bit" : k == 1 ? "f32" : "u32", nth, (double)n, bytes, t, 0,
                          nth == 1 ? naive : 0, note);
            }
        }
    { /* MT19937 skip per output, the cost a part pays to reach its share: 2^24 outputs by the
       * polynomial jump (one table), and 2^23 - 1 by the discard (twists), below the jump's
       * threshold */
        static const uint64_t ns[2] = {(uint64_t)1 << 24, ((uint64_t)1 << 23) - 1};
        static const char *notes[2] = {"jump: polynomial tables", "discard: twist only"};
        int which;
        for (which = 0; which < 2; which++) {
            dnnlk_rng r;
            double t0, best = 1e30;
            int rep;
            char shape[24];
            dnnlk_rng_init(&r, dnnlk_rng_mt19937, 1, 0);
            for (rep = 0; rep < 5; rep++) {
                t0 = bench_now();
                dnnlk_rng_skip(&r, ns[which]);
                t0 = bench_now() - t0;
                if (t0 < best) best = t0;
            }
            best = bench_history_min(best);
            snprintf(shape, sizeof shape, "%llu", (unsigned long long)ns[which]);
            bench_row("rng mt19937 skip", shape, "u32", 1, (double)ns[which], 0, best, 0, 0, notes[which]);
        }
    }
    free(c.u);
    free(c.f);
    free(c.bits);
}
