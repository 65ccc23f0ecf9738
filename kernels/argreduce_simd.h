/* argreduce_simd.h — the bodies of argreduce.h, compiled once per level (the scalar one included,
 * where a vector is one element) by simd_instantiate.h (no include guard). Results are exact, so
 * every level gives the same answer bit for bit.
 *
 * arg_max/arg_min along a contiguous axis run two passes: a vector max (or min) with a separate
 * NaN flag, then a search for the first (or last) element equal to it (or the first/last NaN).
 * The second pass reads a row that is still in cache and stops at the hit. Along a strided axis
 * with contiguous neighbours, each lane keeps its own best value and index (a "vertical" scan).
 * top_k filters the row with a vector compare against the current k-th best and hands the rare
 * survivors to the candidate buffer of argreduce.h. */

/* ---- loads and the min/max pick ---- */

/* s32, or s8/u8 widened to s32: DNNLK__VF_N elements. */
static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__argred_ld_i)(const char *p, int t) {
    if (t == dnnlk_s32) return dnnlk__vi_loadu(p);
    return dnnlk__vi_load_i8(p, t == dnnlk_s8);
}

static DNNLK__FORCEINLINE dnnlk__vi DNNLK__SFX(dnnlk__argred_imax)(dnnlk__vi a, dnnlk__vi b, int is_min) {
    return is_min ? dnnlk__vi_min(a, b) : dnnlk__vi_max(a, b);
}

static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__argred_top_bit)(unsigned b) { return 31 - __builtin_clz(b); }

/* ---- arg_max / arg_min along a contiguous axis (K >= DNNLK__VF_N) ---- */

/* The first (last) index whose element equals m, or is NaN when nan. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__argred_find_f)(const char *p, int64_t K, int t, float m, int nan,
                                                                 int last) {
    const int64_t W = DNNLK__VF_N, es = t == dnnlk_f32 ? 4 : 2;
    dnnlk__vf mv = dnnlk__vf_set1(m);
    int64_t i;
    if (!last) {
        for (i = 0; i + W <= K; i += W) {
            dnnlk__vf v = dnnlk__vf_load_dt(p + i * es, t);
            unsigned b = nan ? dnnlk__vmask_bits(dnnlk__vf_cmpunord(v, v)) : dnnlk__vmask_bits(dnnlk__vf_cmpeq(v, mv));
            if (b) return i + __builtin_ctz(b);
        }
        for (; i < K; i++) {
            float v = (float)dnnlk__argred_load(p + i * es, t);
            if (nan ? v != v : v == m) return i;
        }
    } else {
        for (i = K; i >= W; i -= W) {
            dnnlk__vf v = dnnlk__vf_load_dt(p + (i - W) * es, t);
            unsigned b = nan ? dnnlk__vmask_bits(dnnlk__vf_cmpunord(v, v)) : dnnlk__vmask_bits(dnnlk__vf_cmpeq(v, mv));
            if (b) return i - W + DNNLK__SFX(dnnlk__argred_top_bit)(b);
        }
        for (; i > 0; i--) {
            float v = (float)dnnlk__argred_load(p + (i - 1) * es, t);
            if (nan ? v != v : v == m) return i - 1;
        }
    }
    return 0; /* not reached: m is one of the elements */
}

/* Whether the block of four vectors at q may move the answer: an element above m (arg_max; below
 * for arg_min), or tied with it in last mode, or NaN. One compare per vector, NaN included (the
 * unordered "not <=" forms; last mode adds a NaN compare), and no max: the loop's only work besides
 * the loads. */
static DNNLK__FORCEINLINE unsigned DNNLK__SFX(dnnlk__argred_block_hit)(const char *q, int t, int is_min, int last,
                                                                     dnnlk__vf mv) {
    const int64_t W = DNNLK__VF_N, es = t == dnnlk_f32 ? 4 : 2;
    /* the scan load (vec.h: a stream read and compared; top_k's first pass measured no faster with it) */
    dnnlk__vf v0 = dnnlk__vf_load_dt_scan(q, t), v1 = dnnlk__vf_load_dt_scan(q + W * es, t);
    dnnlk__vf v2 = dnnlk__vf_load_dt_scan(q + 2 * W * es, t), v3 = dnnlk__vf_load_dt_scan(q + 3 * W * es, t);
#define DNNLK__AR_HIT(v)                                                                                      \
    (last ? dnnlk__vmask_or(is_min ? dnnlk__vf_cmple(v, mv) : dnnlk__vf_cmpge(v, mv), dnnlk__vf_cmpunord(v, v)) \
          : (is_min ? dnnlk__vf_cmpnge(v, mv) : dnnlk__vf_cmpnle(v, mv)))
    return dnnlk__vmask_bits(dnnlk__vmask_or(dnnlk__vmask_or(DNNLK__AR_HIT(v0), DNNLK__AR_HIT(v1)),
                                             dnnlk__vmask_or(DNNLK__AR_HIT(v2), DNNLK__AR_HIT(v3))));
#undef DNNLK__AR_HIT
}

/* The best of the block of four vectors at q, which holds no NaN (max, or min as -max(-x)). */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__argred_block_best)(const char *q, int t, int is_min) {
    const int64_t W = DNNLK__VF_N, es = t == dnnlk_f32 ? 4 : 2;
    dnnlk__vf neg = dnnlk__vf_set1(is_min ? -0.0f : 0.0f);
    dnnlk__vf v0 = dnnlk__vf_xor(dnnlk__vf_load_dt(q, t), neg), v1 = dnnlk__vf_xor(dnnlk__vf_load_dt(q + W * es, t), neg);
    dnnlk__vf v2 = dnnlk__vf_xor(dnnlk__vf_load_dt(q + 2 * W * es, t), neg);
    dnnlk__vf v3 = dnnlk__vf_xor(dnnlk__vf_load_dt(q + 3 * W * es, t), neg);
    float m = dnnlk__vf_hmax(dnnlk__vf_max(dnnlk__vf_max(v0, v1), dnnlk__vf_max(v2, v3)));
    return is_min ? -m : m;
}

/* The row in one pass: blocks of four vectors are compared with the best value m so far (a
 * broadcast), and only a block that holds something better (last mode: as good), or a NaN, is
 * looked at: m becomes its best and the block is remembered. On random data that happens about
 * ln(K / block) times a row, so the loop is loads and compares, as fast as the row can be read.
 * In first mode the remembered block is the first that holds the final m (a tie never moves it),
 * in last mode the last; the search for m in it runs in cache. A row of length not a multiple of
 * the block ends with a block overlapping the one before it: its elements already seen tie with
 * themselves, which changes neither answer. A NaN ends the scan in first mode (its block holds the
 * first one); in last mode the last NaN is searched from the row's end. m starts at the worst
 * value (-inf for arg_max), so a row of only -inf keeps block 0 and index 0. Needs K >= 4 vectors. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__argred_hrow_f_1pass)(const char *p, int64_t K, int t, int is_min,
                                                                       int last) {
    const int64_t W = DNNLK__VF_N, B = 4 * W, es = t == dnnlk_f32 ? 4 : 2;
    float m = dnnlk__f32_from_bits(is_min ? 0x7f800000u : 0xff800000u); /* +inf, -inf */
    dnnlk__vf mv = dnnlk__vf_set1(m);
    int64_t i = 0, best = 0, at;
    for (;;) {
        at = i + B <= K ? i : K - B; /* the overlapping last block */
        if (DNNLK__UNLIKELY(DNNLK__SFX(dnnlk__argred_block_hit)(p + at * es, t, is_min, last, mv))) {
            const char *q = p + at * es;
            int64_t l;
            for (l = 0; l < B; l += W) {
                dnnlk__vf v = dnnlk__vf_load_dt(q + l * es, t);
                if (dnnlk__vmask_bits(dnnlk__vf_cmpunord(v, v)))
                    return last ? at + DNNLK__SFX(dnnlk__argred_find_f)(q, K - at, t, 0.0f, 1, 1)
                                : at + DNNLK__SFX(dnnlk__argred_find_f)(q, B, t, 0.0f, 1, 0);
            }
            m = DNNLK__SFX(dnnlk__argred_block_best)(q, t, is_min);
            mv = dnnlk__vf_set1(m);
            best = at;
        }
        if (at + B == K) break;
        i += B;
    }
    return best + DNNLK__SFX(dnnlk__argred_find_f)(p + best * es, B, t, m, 0, last);
}

/* The same answer from a scan that only takes maxima (minima for arg_min): blocks of
 * DNNLK__AR_SCAN_VECS scan vectors (vec.h's dnnlk__vs), each block's elements folded into four running
 * maxima by one max per load, and the block's maximum compared once with the best value m so far.
 * On the Zen 4 development host that loop reads at the bound, where any loop that compares every
 * vector reads 8-12% below it (tools/scan_probe.c). A block that may move the answer (as in
 * dnnlk__argred_hrow_f_1pass: above m, or level with it in last mode) gives m its maximum and is
 * remembered; the search for m runs in that block at the end. The max may drop a NaN: the vector
 * layer's NaN watch, or the block's maximum where the max passes NaN on, tells, and the row then
 * returns -1 for dnnlk__argred_hrow_f_1pass to find the NaN. The row's last block overlaps the one
 * before it where K is not a multiple of the block (ties with itself change neither answer).
 * Needs K >= one block and a watch begun. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__argred_hrow_f_scan)(const char *p, int64_t K, int t, int is_min,
                                                                      int last, dnnlk__nanwatch *w) {
    const int64_t V = DNNLK__VS_N, B = DNNLK__AR_SCAN_VECS * V, es = t == dnnlk_f32 ? 4 : 2;
    float m = dnnlk__f32_from_bits(is_min ? 0x7f800000u : 0xff800000u), lanes[DNNLK__VS_N];
    dnnlk__vs mv = dnnlk__vs_set1(m);
    int64_t i = 0, best = 0, at, l;
    int j;
    for (;;) {
        const char *q;
        dnnlk__vs a0, a1, a2, a3;
        at = i + B <= K ? i : K - B;
        q = p + at * es;
        a0 = dnnlk__vs_load_dt(q, t), a1 = dnnlk__vs_load_dt(q + V * es, t);
        a2 = dnnlk__vs_load_dt(q + 2 * V * es, t), a3 = dnnlk__vs_load_dt(q + 3 * V * es, t);
        for (l = 4 * V; l < B; l += 4 * V) {
            const char *r = q + l * es;
            if (is_min) {
                a0 = dnnlk__vs_min(a0, dnnlk__vs_load_dt(r, t)), a1 = dnnlk__vs_min(a1, dnnlk__vs_load_dt(r + V * es, t));
                a2 = dnnlk__vs_min(a2, dnnlk__vs_load_dt(r + 2 * V * es, t));
                a3 = dnnlk__vs_min(a3, dnnlk__vs_load_dt(r + 3 * V * es, t));
            } else {
                a0 = dnnlk__vs_max(a0, dnnlk__vs_load_dt(r, t)), a1 = dnnlk__vs_max(a1, dnnlk__vs_load_dt(r + V * es, t));
                a2 = dnnlk__vs_max(a2, dnnlk__vs_load_dt(r + 2 * V * es, t));
                a3 = dnnlk__vs_max(a3, dnnlk__vs_load_dt(r + 3 * V * es, t));
            }
        }
        a0 = is_min ? dnnlk__vs_min(dnnlk__vs_min(a0, a1), dnnlk__vs_min(a2, a3))
                    : dnnlk__vs_max(dnnlk__vs_max(a0, a1), dnnlk__vs_max(a2, a3));
        /* max: a lane above m (last mode: not below it), or NaN; min mirrored */
        if (DNNLK__UNLIKELY(last ? (is_min ? dnnlk__vs_any_nlt(mv, a0) : dnnlk__vs_any_nlt(a0, mv))
                                 : (is_min ? dnnlk__vs_any_nle(mv, a0) : dnnlk__vs_any_nle(a0, mv)))) {
            dnnlk__vs_storeu(lanes, a0);
            for (j = 0; j < DNNLK__VS_N; j++) {
                if (lanes[j] != lanes[j]) return -1;
                if (is_min ? lanes[j] < m : lanes[j] > m) m = lanes[j];
            }
            mv = dnnlk__vs_set1(m);
            best = at;
        }
        if (at + B == K) break;
        i += B;
    }
    if (dnnlk__nanwatch_seen(w)) return -1;
    return best + DNNLK__SFX(dnnlk__argred_find_f)(p + best * es, B, t, m, 0, last);
}

/* Two passes (a vector max, then the search for it): rows shorter than a block of four vectors. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__argred_hrow_f)(const char *p, int64_t K, int t, int is_min, int last) {
    const int64_t W = DNNLK__VF_N, es = t == dnnlk_f32 ? 4 : 2;
    float lanes[DNNLK__VF_N], m;
    int64_t i;
    int l;
    unsigned nb;
    dnnlk__vf a0 = dnnlk__vf_load_dt(p, t), a1 = a0, a2 = a0, a3 = a0;
    nb = dnnlk__vmask_bits(dnnlk__vf_cmpunord(a0, a0));
    /* Four accumulators hide the latency of max; one unordered compare checks two vectors. */
    for (i = W; i + 4 * W <= K; i += 4 * W) {
        dnnlk__vf v0 = dnnlk__vf_load_dt(p + i * es, t);
        dnnlk__vf v1 = dnnlk__vf_load_dt(p + (i + W) * es, t);
        dnnlk__vf v2 = dnnlk__vf_load_dt(p + (i + 2 * W) * es, t);
        dnnlk__vf v3 = dnnlk__vf_load_dt(p + (i + 3 * W) * es, t);
        nb |= dnnlk__vmask_bits(dnnlk__vf_cmpunord(v0, v1)) | dnnlk__vmask_bits(dnnlk__vf_cmpunord(v2, v3));
        a0 = is_min ? dnnlk__vf_min(a0, v0) : dnnlk__vf_max(a0, v0);
        a1 = is_min ? dnnlk__vf_min(a1, v1) : dnnlk__vf_max(a1, v1);
        a2 = is_min ? dnnlk__vf_min(a2, v2) : dnnlk__vf_max(a2, v2);
        a3 = is_min ? dnnlk__vf_min(a3, v3) : dnnlk__vf_max(a3, v3);
    }
    for (; i + W <= K; i += W) {
        dnnlk__vf v = dnnlk__vf_load_dt(p + i * es, t);
        nb |= dnnlk__vmask_bits(dnnlk__vf_cmpunord(v, v));
        a0 = is_min ? dnnlk__vf_min(a0, v) : dnnlk__vf_max(a0, v);
    }
    /* With a NaN anywhere the accumulators may hold garbage: only nb matters then. */
    a0 = is_min ? dnnlk__vf_min(dnnlk__vf_min(a0, a1), dnnlk__vf_min(a2, a3))
                : dnnlk__vf_max(dnnlk__vf_max(a0, a1), dnnlk__vf_max(a2, a3));
    dnnlk__vf_storeu(lanes, a0);
    m = lanes[0];
    for (l = 1; l < DNNLK__VF_N; l++)
        if (is_min ? lanes[l] < m : lanes[l] > m) m = lanes[l];
    for (; i < K; i++) {
        float v = (float)dnnlk__argred_load(p + i * es, t);
        if (v != v) nb = 1;
        else if (is_min ? v < m : v > m) m = v;
    }
    return DNNLK__SFX(dnnlk__argred_find_f)(p, K, t, m, nb != 0, last);
}

static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__argred_find_i)(const char *p, int64_t K, int t, int32_t m, int last) {
    const int64_t W = DNNLK__VF_N, es = t == dnnlk_s32 ? 4 : 1;
    dnnlk__vi mv = dnnlk__vi_set1(m);
    int64_t i;
    if (!last) {
        for (i = 0; i + W <= K; i += W) {
            unsigned b = dnnlk__vmask_bits(dnnlk__vi_cmpeq(DNNLK__SFX(dnnlk__argred_ld_i)(p + i * es, t), mv));
            if (b) return i + __builtin_ctz(b);
        }
        for (; i < K; i++)
            if ((int32_t)dnnlk__argred_load(p + i * es, t) == m) return i;
    } else {
        for (i = K; i >= W; i -= W) {
            unsigned b = dnnlk__vmask_bits(
                dnnlk__vi_cmpeq(DNNLK__SFX(dnnlk__argred_ld_i)(p + (i - W) * es, t), mv));
            if (b) return i - W + DNNLK__SFX(dnnlk__argred_top_bit)(b);
        }
        for (; i > 0; i--)
            if ((int32_t)dnnlk__argred_load(p + (i - 1) * es, t) == m) return i - 1;
    }
    return 0;
}

static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__argred_hrow_i)(const char *p, int64_t K, int t, int is_min, int last) {
    const int64_t W = DNNLK__VF_N, es = t == dnnlk_s32 ? 4 : 1;
    int32_t lanes[DNNLK__VF_N], m;
    int64_t i;
    int l;
    dnnlk__vi a0 = DNNLK__SFX(dnnlk__argred_ld_i)(p, t), a1 = a0, a2 = a0, a3 = a0;
    for (i = W; i + 4 * W <= K; i += 4 * W) {
        a0 = DNNLK__SFX(dnnlk__argred_imax)(a0, DNNLK__SFX(dnnlk__argred_ld_i)(p + i * es, t), is_min);
        a1 = DNNLK__SFX(dnnlk__argred_imax)(a1, DNNLK__SFX(dnnlk__argred_ld_i)(p + (i + W) * es, t), is_min);
        a2 = DNNLK__SFX(dnnlk__argred_imax)(a2, DNNLK__SFX(dnnlk__argred_ld_i)(p + (i + 2 * W) * es, t), is_min);
        a3 = DNNLK__SFX(dnnlk__argred_imax)(a3, DNNLK__SFX(dnnlk__argred_ld_i)(p + (i + 3 * W) * es, t), is_min);
    }
    for (; i + W <= K; i += W) a0 = DNNLK__SFX(dnnlk__argred_imax)(a0, DNNLK__SFX(dnnlk__argred_ld_i)(p + i * es, t), is_min);
    a0 = DNNLK__SFX(dnnlk__argred_imax)(DNNLK__SFX(dnnlk__argred_imax)(a0, a1, is_min), DNNLK__SFX(dnnlk__argred_imax)(a2, a3, is_min),
                                   is_min);
    dnnlk__vi_storeu(lanes, a0);
    m = lanes[0];
    for (l = 1; l < DNNLK__VF_N; l++)
        if (is_min ? lanes[l] < m : lanes[l] > m) m = lanes[l];
    for (; i < K; i++) {
        int32_t v = (int32_t)dnnlk__argred_load(p + i * es, t);
        if (is_min ? v < m : v > m) m = v;
    }
    return DNNLK__SFX(dnnlk__argred_find_i)(p, K, t, m, last);
}

/* ---- arg_max / arg_min along a strided axis, DNNLK__VF_N contiguous positions at once ---- */

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__argred_vert_f)(const dnnlk__argred_args *a, const char *p, char *ip, char *vp,
                                                            int t, int is_min, int last) {
    const char *q = p;
    int32_t lanes[DNNLK__VF_N];
    dnnlk__vf acc = dnnlk__vf_load_dt(p, t);
    dnnlk__vi bi = dnnlk__vi_set1(0), kv = bi, one = dnnlk__vi_set1(1);
    int64_t k;
    int l;
    for (k = 1; k < a->K; k++) {
        dnnlk__vf v;
        dnnlk__vmask u;
        q += a->sa;
        kv = dnnlk__vi_add(kv, one);
        v = dnnlk__vf_load_dt(q, t);
        /* The update rules of dnnlk__argred_scalar1, lane-wise. */
        if (!last)
            u = dnnlk__vmask_and(is_min ? dnnlk__vf_cmpnge(v, acc) : dnnlk__vf_cmpnle(v, acc),
                                          dnnlk__vf_cmpord(acc, acc));
        else
            u = dnnlk__vmask_or(is_min ? dnnlk__vf_cmple(v, acc) : dnnlk__vf_cmpge(v, acc),
                                         dnnlk__vf_cmpunord(v, v));
        acc = dnnlk__vf_blend(u, v, acc);
        bi = dnnlk__vi_blend(u, kv, bi);
    }
    dnnlk__vi_storeu(lanes, bi);
    for (l = 0; l < DNNLK__VF_N; l++)
        dnnlk__argred_put(a, p + l * a->esize, lanes[l], ip + l * a->si, vp ? vp + l * a->sv : NULL);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__argred_vert_i)(const dnnlk__argred_args *a, const char *p, char *ip, char *vp,
                                                            int t, int is_min, int last) {
    const char *q = p;
    int32_t lanes[DNNLK__VF_N];
    dnnlk__vi acc = DNNLK__SFX(dnnlk__argred_ld_i)(p, t);
    dnnlk__vi bi = dnnlk__vi_set1(0), kv = bi, one = dnnlk__vi_set1(1);
    int64_t k;
    int l;
    for (k = 1; k < a->K; k++) {
        dnnlk__vi v;
        q += a->sa;
        kv = dnnlk__vi_add(kv, one);
        v = DNNLK__SFX(dnnlk__argred_ld_i)(q, t);
        if (last) { /* keep the old one only where it is strictly better */
            dnnlk__vmask keep = is_min ? dnnlk__vi_cmpgt(v, acc) : dnnlk__vi_cmpgt(acc, v);
            acc = dnnlk__vi_blend(keep, acc, v);
            bi = dnnlk__vi_blend(keep, bi, kv);
        } else {
            dnnlk__vmask u = is_min ? dnnlk__vi_cmpgt(acc, v) : dnnlk__vi_cmpgt(v, acc);
            acc = dnnlk__vi_blend(u, v, acc);
            bi = dnnlk__vi_blend(u, kv, bi);
        }
    }
    dnnlk__vi_storeu(lanes, bi);
    for (l = 0; l < DNNLK__VF_N; l++)
        dnnlk__argred_put(a, p + l * a->esize, lanes[l], ip + l * a->si, vp ? vp + l * a->sv : NULL);
}

/* One specialisation per (dtype, op, tie rule), so the hot loops see constants. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__argred_rows_t)(const dnnlk__argred_args *a, const char *src, char *ip, char *vp,
                                                           int64_t n, int t, int is_min, int last) {
    const int64_t W = DNNLK__VF_N;
    int isf = t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16;
    int64_t j = 0;
    if (a->sa == a->esize && a->K >= W) {
        dnnlk__nanwatch w;
        /* rows of at least one scan block take the max-only scan while the NaN watch can run */
        int scan = isf && a->K >= DNNLK__AR_SCAN_VECS * DNNLK__VS_N && dnnlk__nanwatch_begin(&w);
        for (; j < n; j++) {
            const char *p = src + j * a->ss;
            int64_t k = scan ? DNNLK__SFX(dnnlk__argred_hrow_f_scan)(p, a->K, t, is_min, last, &w) : -1;
            if (k < 0) {
                k = isf ? (a->K >= 4 * W ? DNNLK__SFX(dnnlk__argred_hrow_f_1pass)(p, a->K, t, is_min, last)
                                         : DNNLK__SFX(dnnlk__argred_hrow_f)(p, a->K, t, is_min, last))
                        : DNNLK__SFX(dnnlk__argred_hrow_i)(p, a->K, t, is_min, last);
                /* a compare that signals on the NaN (SSE4.1's forms) must not count against the next row */
                if (scan) (void)dnnlk__nanwatch_seen(&w);
            }
            dnnlk__argred_put(a, p, k, ip + j * a->si, vp ? vp + j * a->sv : NULL);
        }
        if (scan) dnnlk__nanwatch_end(&w);
        return;
    }
    if (a->ss == a->esize && a->K <= INT32_MAX) {
        for (; j + W <= n; j += W) {
            if (isf) DNNLK__SFX(dnnlk__argred_vert_f)(a, src + j * a->ss, ip + j * a->si, vp ? vp + j * a->sv : NULL, t, is_min, last);
            else DNNLK__SFX(dnnlk__argred_vert_i)(a, src + j * a->ss, ip + j * a->si, vp ? vp + j * a->sv : NULL, t, is_min, last);
        }
    }
    dnnlk__argred_rows_elem(a, src + j * a->ss, ip + j * a->si, vp ? vp + j * a->sv : NULL, n - j);
}

#define DNNLK__AR_CASES(T)                                                                   \
    case T * 4 + 0: DNNLK__SFX(dnnlk__argred_rows_t)(a, src, ip, vp, n, T, 0, 0); break;          \
    case T * 4 + 1: DNNLK__SFX(dnnlk__argred_rows_t)(a, src, ip, vp, n, T, 0, 1); break;          \
    case T * 4 + 2: DNNLK__SFX(dnnlk__argred_rows_t)(a, src, ip, vp, n, T, 1, 0); break;          \
    case T * 4 + 3: DNNLK__SFX(dnnlk__argred_rows_t)(a, src, ip, vp, n, T, 1, 1); break;

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__argred_rows)(const dnnlk__argred_args *a, const char *src, char *ip, char *vp,
                                                           int64_t n) {
    switch (a->dtype * 4 + a->is_min * 2 + a->last) {
    DNNLK__AR_CASES(dnnlk_f32)
    DNNLK__AR_CASES(dnnlk_bf16)
    DNNLK__AR_CASES(dnnlk_f16)
    DNNLK__AR_CASES(dnnlk_s32)
    DNNLK__AR_CASES(dnnlk_s8)
    DNNLK__AR_CASES(dnnlk_u8)
    default: dnnlk__argred_rows_elem(a, src, ip, vp, n); break;
    }
}
#undef DNNLK__AR_CASES

/* ---- top_k on a contiguous row ---- */

/* The rank of each of n <= 64 distinct u64 at h (the number of them below it), counted on 64-bit
 * vector lanes (DNNLK__VQ_N >= 4): DNNLK__VQ_N compares and a popcount at a time, four elements
 * per load. The lanes past n read all-ones padding, which is below nothing. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__topk_ranks)(const uint64_t *h, int64_t n, int64_t *rank) {
    uint64_t in[64 + DNNLK__VQ_N];
    int64_t i, j;
    memcpy(in, h, (size_t)n * 8);
    for (i = n; i < n + DNNLK__VQ_N; i++) in[i] = ~(uint64_t)0;
    for (i = 0; i + 4 <= n; i += 4) { /* four independent counts */
        dnnlk__vq r0 = dnnlk__vq_cmplt64_u_rhs(in[i]), r1 = dnnlk__vq_cmplt64_u_rhs(in[i + 1]);
        dnnlk__vq r2 = dnnlk__vq_cmplt64_u_rhs(in[i + 2]), r3 = dnnlk__vq_cmplt64_u_rhs(in[i + 3]);
        int64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
        for (j = 0; j < n; j += DNNLK__VQ_N) {
            dnnlk__vq v = dnnlk__vq_loadu(in + j);
            c0 += __builtin_popcountll(dnnlk__vq_cmplt64_u_bits(v, r0));
            c1 += __builtin_popcountll(dnnlk__vq_cmplt64_u_bits(v, r1));
            c2 += __builtin_popcountll(dnnlk__vq_cmplt64_u_bits(v, r2));
            c3 += __builtin_popcountll(dnnlk__vq_cmplt64_u_bits(v, r3));
        }
        rank[i] = c0;
        rank[i + 1] = c1;
        rank[i + 2] = c2;
        rank[i + 3] = c3;
    }
    for (; i < n; i++) {
        dnnlk__vq rhs = dnnlk__vq_cmplt64_u_rhs(in[i]);
        int64_t r = 0;
        for (j = 0; j < n; j += DNNLK__VQ_N)
            r += __builtin_popcountll(dnnlk__vq_cmplt64_u_bits(dnnlk__vq_loadu(in + j), rhs));
        rank[i] = r;
    }
}

/* dnnlk__topk_sort_asc by those ranks (the plain rank count where two lanes make it as fast). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__topk_sort_asc_v)(uint64_t *h, int64_t n) {
    uint64_t out[64];
    int64_t rank[64], i;
    if (n > 64 || DNNLK__VQ_N < 4) {
        dnnlk__topk_sort_asc(h, n);
        return;
    }
    DNNLK__SFX(dnnlk__topk_ranks)(h, n, rank);
    for (i = 0; i < n; i++) out[rank[i]] = h[i];
    memcpy(h, out, (size_t)n * 8);
}

/* The selection and its order in one rank count: of the n <= 64 candidates in index order at h,
 * the k of rank n - k and up are the selection; sorted, each goes to place n - 1 - rank (the best
 * first), else they stay in index order. Where the rank count does not apply, a select and the
 * sort of the k. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__topk_emit_ranked)(const dnnlk__argred_args *a, const char *p,
                                                                   uint64_t *h, int64_t n, char *vp, char *ip) {
    uint64_t ix[65];
    int64_t rank[64], i, m = 0, k = a->k;
    if (n > 64 || DNNLK__VQ_N < 4) {
        if (n > k) dnnlk__topk_select(h, n, k);
        dnnlk__topk_emit(a, p, h, vp, ip, DNNLK__SFX(dnnlk__topk_sort_asc_v));
        return;
    }
    DNNLK__SFX(dnnlk__topk_ranks)(h, n, rank);
    for (i = 0; i < n; i++) { /* no branch: a candidate not kept goes to place k, not written out */
        int64_t keep = rank[i] >= n - k;
        ix[a->sorted ? (keep ? n - 1 - rank[i] : k) : m] = (uint64_t)dnnlk__topk_comp_index(h[i]);
        m += keep;
    }
    dnnlk__topk_put(a, p, ix, vp, ip);
}

/* Bits of the elements of one vector at p that may beat the threshold (a superset: the candidate
 * set decides). */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__topk_filter1)(const char *p, int t, int largest, dnnlk__vf tf,
                                                                 dnnlk__vi ti) {
    if (t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16) {
        dnnlk__vf v = dnnlk__vf_load_dt(p, t);
        return dnnlk__vmask_bits(largest ? dnnlk__vf_cmpnle(v, tf) : dnnlk__vf_cmpnge(v, tf));
    } else {
        dnnlk__vi v = DNNLK__SFX(dnnlk__argred_ld_i)(p, t);
        return dnnlk__vmask_bits(largest ? dnnlk__vi_cmpgt(v, ti) : dnnlk__vi_cmpgt(ti, v));
    }
}

/* The same for 4 vectors, one bit per element in a u64 (4 x 16 lanes at most). */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__topk_filter4)(const char *p, int t, int largest, dnnlk__vf tf,
                                                                 dnnlk__vi ti) {
    const int W = DNNLK__VF_N;
    int64_t es = (int64_t)(t == dnnlk_f32 || t == dnnlk_s32 ? 4 : (t == dnnlk_s8 || t == dnnlk_u8 ? 1 : 2));
    uint64_t b0 = DNNLK__SFX(dnnlk__topk_filter1)(p, t, largest, tf, ti);
    uint64_t b1 = DNNLK__SFX(dnnlk__topk_filter1)(p + W * es, t, largest, tf, ti);
    uint64_t b2 = DNNLK__SFX(dnnlk__topk_filter1)(p + 2 * W * es, t, largest, tf, ti);
    uint64_t b3 = DNNLK__SFX(dnnlk__topk_filter1)(p + 3 * W * es, t, largest, tf, ti);
    return b0 | (b1 << W) | (b2 << (2 * W)) | (b3 << (3 * W));
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__topk_scan)(const dnnlk__argred_args *a, const char *p, dnnlk__topk_set *s,
                                                          int t, int largest) {
    const int64_t W = DNNLK__VF_N, K = a->K, es = a->esize;
    int isf = t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16;
    int64_t i = a->k;
    dnnlk__vf tf = dnnlk__vf_zero();
    dnnlk__vi ti = dnnlk__vi_set1(0);
    for (;;) {
        /* Threshold: the value of the k-th best so far. With largest and k NaNs kept, nothing
         * later can get in (a NaN ties and has a higher index). */
        const char *r = p + dnnlk__topk_comp_index(s->thr) * es;
        int moved = 0;
        if (isf) {
            float tv = (float)dnnlk__argred_load(r, t);
            if (largest && (s->thr >> 32) == 0xffffffffu) return;
            /* A zero or denormal threshold widens to the whole band around 0, which the vector
             * compare may see as 0 under denormals-are-zero; the candidate set sorts it out. */
            if ((dnnlk__f32_bits(tv) & 0x7fffffffu) < 0x00800000u) tv = largest ? -1.17549435e-38f : 1.17549435e-38f;
            tf = dnnlk__vf_set1(tv);
        } else {
            ti = dnnlk__vi_set1((int32_t)dnnlk__argred_load(r, t));
        }
        for (; i + 4 * W <= K && !moved; i += 4 * W) {
            uint64_t bits = DNNLK__SFX(dnnlk__topk_filter4)(p + i * es, t, largest, tf, ti);
            while (DNNLK__UNLIKELY(bits != 0)) {
                int l = __builtin_ctzll(bits);
                bits &= bits - 1;
                moved |= dnnlk__topk_add(s, dnnlk__topk_comp(p + (i + l) * es, t, largest, i + l));
            }
        }
        if (!moved) break;
    }
    for (; i < K; i++) (void)dnnlk__topk_add(s, dnnlk__topk_comp(p + i * es, t, largest, i));
}

/* Appends to h[0..n) the composites of the elements at + (set bits of bits); returns the new
 * count, or -1 when h's cap would overflow. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__topk_append)(const char *p, uint64_t bits, int64_t at, int64_t es,
                                                                int t, int largest, uint64_t *h, int64_t n,
                                                                int64_t cap) {
    while (DNNLK__UNLIKELY(bits != 0)) {
        int64_t e = at + __builtin_ctzll(bits);
        bits &= bits - 1;
        if (n == cap) return -1;
        h[n++] = dnnlk__topk_comp(p + e * es, t, largest, e);
    }
    return n;
}

/* The same for nw filter words: fw[w] holds the filter's bits of the elements from at[w] on. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__topk_append_words)(const char *p, const uint64_t *fw,
                                                                      const int64_t *at, int64_t nw, int64_t es,
                                                                      int t, int largest, uint64_t *h, int64_t n,
                                                                      int64_t cap) {
    int64_t w;
    for (w = 0; w < nw && n >= 0; w++) n = DNNLK__SFX(dnnlk__topk_append)(p, fw[w], at[w], es, t, largest, h, n, cap);
    return n;
}

/* The same for the elements of [from, to) that pass the filter against tf / ti, a vector at a
 * time; a last part-vector (to = K only) is the vector that ends at K, the elements it repeats
 * masked off. The count stays a local (kept through a pointer it cost 5% of the row). */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__topk_collect)(const char *p, int64_t from, int64_t to, int64_t K,
                                                                 int t, int largest, dnnlk__vf tf, dnnlk__vi ti,
                                                                 uint64_t *h, int64_t n, int64_t cap) {
    const int64_t W = DNNLK__VF_N, es = t == dnnlk_f32 || t == dnnlk_s32 ? 4 : (t == dnnlk_s8 || t == dnnlk_u8 ? 1 : 2);
    int64_t i;
    for (i = from; i + W <= to && n >= 0; i += W)
        n = DNNLK__SFX(dnnlk__topk_append)(p, DNNLK__SFX(dnnlk__topk_filter1)(p + i * es, t, largest, tf, ti), i, es, t,
                                           largest, h, n, cap);
    if (i < to && n >= 0)
        n = DNNLK__SFX(dnnlk__topk_append)(
            p, DNNLK__SFX(dnnlk__topk_filter1)(p + (K - W) * es, t, largest, tf, ti) & (~(uint64_t)0 << (i - (K - W))),
            K - W, es, t, largest, h, n, cap);
    return n;
}

/* The filter's bits of up to 64 elements at p (a multiple of DNNLK__VF_N, which divides 64), one
 * per element, element 0 in bit 0. */
static DNNLK__FORCEINLINE uint64_t DNNLK__SFX(dnnlk__topk_filter_word)(const char *p, int64_t len, int64_t es, int t,
                                                                      int largest, dnnlk__vf tf, dnnlk__vi ti) {
    const int64_t W = DNNLK__VF_N;
    uint64_t w = 0;
    int64_t j;
    if (len == 64) { /* a constant count: the loop unrolls */
        for (j = 0; j < 64; j += W) w |= DNNLK__SFX(dnnlk__topk_filter1)(p + j * es, t, largest, tf, ti) << j;
    } else {
        for (j = 0; j < len; j += W) w |= DNNLK__SFX(dnnlk__topk_filter1)(p + j * es, t, largest, tf, ti) << j;
    }
    return w;
}

/* The number of the M block keys at kv (padded with INT32_MIN to whole vectors) that are >= t,
 * t > INT32_MIN: vector compares and a popcount. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__topk_count_ge)(const int32_t *kv, int64_t M, int32_t t) {
    dnnlk__vi tv = dnnlk__vi_set1(t - 1);
    int64_t j, c = 0;
    for (j = 0; j < M; j += DNNLK__VF_N)
        c += __builtin_popcount(dnnlk__vmask_bits(dnnlk__vi_cmpgt(dnnlk__vi_loadu(kv + j), tv)));
    return c;
}

/* Two passes over a row that stays in cache between them. The first splits the row into M blocks
 * of G >= 4 vectors (as many as DNNLK__TOPK_MAX_BLOCKS allows) and takes each block's best element
 * (max, or min for smallest) at read speed: a vertical max, one horizontal reduction per block,
 * kept as an int32 order key. Any t that at least k block keys reach is at or below the row's k-th
 * best (k distinct elements reach it); a bisection on the keys, counted by vector compares, finds
 * one that at most about 1.25k + 8 block keys reach (or the k-th key itself), with no sort or
 * select (a quickselect of the ~500 keys cost more than the whole second pass). The second pass
 * filters only the blocks whose key reaches t (about k of them, from cache) and the tail the
 * blocks leave, collecting every element that reaches t, and one rank count of those candidates
 * selects and orders the k (dnnlk__topk_emit_ranked). The
 * one-pass filter's running threshold instead trails the k-th best: about 12k candidates and
 * several selections for k = 50 of 32000.
 * The candidates are the elements that pass the filter's compare with t: an upper set of the
 * row's order, as that compare is monotone in it (denormals-are-zero, which may flatten the band
 * around 0, included), so whenever they number at least k they hold the selection. A NaN in the
 * row breaks that (the block max may drop it, and for smallest it passes the filter without being
 * in the upper set): such a row, one with fewer than k candidates, or one whose candidates would
 * overflow h's cap (ties at t) goes to the one-pass filter instead, as does a threshold at an end
 * of the order (every element would pass): returns 0 then, with nothing written. h has room for
 * dnnlk__topk_cap(DNNLK_TOP_K_STACK_K) composites (the stack buffer: this path needs k <=
 * DNNLK_TOP_K_STACK_K); the block keys use it first as int32. */
static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__topk_row_2pass)(const dnnlk__argred_args *a, const char *p, char *vp,
                                                                char *ip, uint64_t *h, int t, int largest) {
    const int64_t W = DNNLK__VF_N, K = a->K, k = a->k, es = a->esize, cap = dnnlk__topk_cap(a->k);
    const int64_t nv = K / W, G0 = (nv + DNNLK__TOPK_MAX_BLOCKS - 1) / DNNLK__TOPK_MAX_BLOCKS;
    const int64_t G = G0 > 64 / W ? G0 : 64 / W, M = nv / G; /* blocks of >= 64 elements */
    int isf = t == dnnlk_f32 || t == dnnlk_bf16 || t == dnnlk_f16;
    int64_t b, l, n = 0, lo, hi, clo, chi;
    uint64_t rescan[DNNLK__TOPK_MAX_BLOCKS / 64] = {0}; /* blocks whose key reaches t */
    int32_t *keys = (int32_t *)(void *)h, kmin, kmax;
    uint32_t tkey;
    dnnlk__vmask nan = dnnlk__vf_cmpunord(dnnlk__vf_zero(), dnnlk__vf_zero()); /* none */
    dnnlk__vf tf = dnnlk__vf_zero();
    dnnlk__vi ti = dnnlk__vi_set1(0);
    if (k > DNNLK_TOP_K_STACK_K || M < k) return 0; /* too few blocks for a threshold */
    for (b = 0; b < M; b++) {
        const char *q = p + b * G * W * es;
        uint32_t key;
        int32_t sk;
        if (isf) { /* four accumulators hide max's latency */
            dnnlk__vf a0 = dnnlk__vf_load_dt(q, t), a1 = dnnlk__vf_load_dt(q + W * es, t);
            dnnlk__vf a2 = dnnlk__vf_load_dt(q + 2 * W * es, t), a3 = dnnlk__vf_load_dt(q + 3 * W * es, t);
            nan = dnnlk__vmask_or(nan, dnnlk__vmask_or(dnnlk__vf_cmpunord(a0, a1), dnnlk__vf_cmpunord(a2, a3)));
            for (l = 4; l + 4 <= G; l += 4) {
                const char *r = q + l * W * es;
                dnnlk__vf v0 = dnnlk__vf_load_dt(r, t), v1 = dnnlk__vf_load_dt(r + W * es, t);
                dnnlk__vf v2 = dnnlk__vf_load_dt(r + 2 * W * es, t), v3 = dnnlk__vf_load_dt(r + 3 * W * es, t);
                nan = dnnlk__vmask_or(nan, dnnlk__vmask_or(dnnlk__vf_cmpunord(v0, v1), dnnlk__vf_cmpunord(v2, v3)));
                a0 = largest ? dnnlk__vf_max(a0, v0) : dnnlk__vf_min(a0, v0);
                a1 = largest ? dnnlk__vf_max(a1, v1) : dnnlk__vf_min(a1, v1);
                a2 = largest ? dnnlk__vf_max(a2, v2) : dnnlk__vf_min(a2, v2);
                a3 = largest ? dnnlk__vf_max(a3, v3) : dnnlk__vf_min(a3, v3);
            }
            for (; l < G; l++) {
                dnnlk__vf v = dnnlk__vf_load_dt(q + l * W * es, t);
                nan = dnnlk__vmask_or(nan, dnnlk__vf_cmpunord(v, v));
                a0 = largest ? dnnlk__vf_max(a0, v) : dnnlk__vf_min(a0, v);
            }
            if (largest) {
                key = dnnlk__topk_key_f32bits(
                    dnnlk__f32_bits(dnnlk__vf_hmax(dnnlk__vf_max(dnnlk__vf_max(a0, a1), dnnlk__vf_max(a2, a3)))));
            } else { /* min as -max(-x), the sign flipped back on the bits */
                dnnlk__vf neg = dnnlk__vf_set1(-0.0f);
                dnnlk__vf m = dnnlk__vf_xor(dnnlk__vf_min(dnnlk__vf_min(a0, a1), dnnlk__vf_min(a2, a3)), neg);
                key = ~dnnlk__topk_key_f32bits(dnnlk__f32_bits(dnnlk__vf_hmax(m)) ^ 0x80000000u);
            }
        } else {
            int32_t lanes[DNNLK__VF_N], m;
            int li;
            dnnlk__vi a0 = DNNLK__SFX(dnnlk__argred_ld_i)(q, t), a1 = DNNLK__SFX(dnnlk__argred_ld_i)(q + W * es, t);
            for (l = 2; l + 2 <= G; l += 2) {
                a0 = DNNLK__SFX(dnnlk__argred_imax)(a0, DNNLK__SFX(dnnlk__argred_ld_i)(q + l * W * es, t), !largest);
                a1 = DNNLK__SFX(dnnlk__argred_imax)(a1, DNNLK__SFX(dnnlk__argred_ld_i)(q + (l + 1) * W * es, t), !largest);
            }
            for (; l < G; l++)
                a0 = DNNLK__SFX(dnnlk__argred_imax)(a0, DNNLK__SFX(dnnlk__argred_ld_i)(q + l * W * es, t), !largest);
            dnnlk__vi_storeu(lanes, DNNLK__SFX(dnnlk__argred_imax)(a0, a1, !largest));
            for (m = lanes[0], li = 1; li < DNNLK__VF_N; li++)
                if (largest ? lanes[li] > m : lanes[li] < m) m = lanes[li];
            key = (uint32_t)m ^ 0x80000000u;
            if (!largest) key = ~key;
        }
        sk = (int32_t)(key ^ 0x80000000u); /* the same order, signed, for the vector compares */
        memcpy(keys + b, &sk, 4);
    }
    if (dnnlk__vmask_bits(nan)) return 0;
    { /* the key range, out of the streaming loop */
        dnnlk__vi mn = dnnlk__vi_set1(INT32_MAX), mx = dnnlk__vi_set1(INT32_MIN);
        int32_t lmn[DNNLK__VF_N], lmx[DNNLK__VF_N];
        for (b = 0; b + W <= M; b += W) {
            dnnlk__vi v = dnnlk__vi_loadu(keys + b);
            mn = dnnlk__vi_min(mn, v);
            mx = dnnlk__vi_max(mx, v);
        }
        dnnlk__vi_storeu(lmn, mn);
        dnnlk__vi_storeu(lmx, mx);
        for (kmin = lmn[0], kmax = lmx[0], l = 1; l < W; l++) {
            kmin = lmn[l] < kmin ? lmn[l] : kmin;
            kmax = lmx[l] > kmax ? lmx[l] : kmax;
        }
        for (; b < M; b++) {
            int32_t v;
            memcpy(&v, keys + b, 4);
            kmin = v < kmin ? v : kmin;
            kmax = v > kmax ? v : kmax;
        }
    }
    {
        const int32_t pad = INT32_MIN; /* reaches no threshold: the counts skip it */
        for (b = M; b % W; b++) memcpy(keys + b, &pad, 4);
    }
    /* t: the largest lo with count(keys >= lo) >= k, narrowing [lo, hi) (count(hi) < k), or any
     * lo on the way that at most k + k/8 + 2 keys reach. The steps alternate between the point
     * where the count, taken as linear in the key between lo and hi, would meet the middle of
     * that window, and the middle of [lo, hi) (a bound on the steps when the count is far from
     * linear). A threshold at the end of the order (INT32_MIN: every element passes) goes to one
     * pass. */
    if (kmin == INT32_MIN) return 0;
    lo = kmin;
    hi = (int64_t)kmax + 1;
    clo = M;
    chi = 0;
    for (l = 0; hi - lo > 1 && clo > k + k / 8 + 2; l++) {
        int64_t mid = lo + (hi - lo) / 2, c;
        if (!(l & 1)) {
            mid = lo + (int64_t)((double)(hi - lo) * (double)(clo - (k + k / 16 + 1)) / (double)(clo - chi));
            mid = mid <= lo ? lo + 1 : mid >= hi ? hi - 1 : mid;
        }
        c = DNNLK__SFX(dnnlk__topk_count_ge)(keys, M, (int32_t)mid);
        if (c >= k) lo = mid, clo = c;
        else hi = mid, chi = c;
    }
    {
        dnnlk__vi tv = dnnlk__vi_set1((int32_t)(lo - 1));
        for (b = 0; b < M; b += W)
            rescan[b / 64] |= (uint64_t)dnnlk__vmask_bits(dnnlk__vi_cmpgt(dnnlk__vi_loadu(keys + b), tv)) << (b % 64);
    }
    tkey = (uint32_t)lo ^ 0x80000000u;
    if (!largest) tkey = ~tkey;
    /* The filter's strict compare against the value just below t (above, for smallest); with t
     * at the end of the order everything would pass, so that row skips straight to one pass. */
    if (isf) {
        uint32_t u = (tkey & 0x80000000u) ? (tkey & 0x7fffffffu) : ~tkey; /* the f32 bits of t */
        if ((u & 0x7fffffffu) == 0x7f800000u && (u >> 31) == (unsigned)largest) return 0; /* -inf / +inf */
        if (u == 0 || u == 0x80000000u) u = largest ? 0x80000001u : 0x00000001u; /* across zero */
        else if ((u >> 31) == (unsigned)largest) u++; /* away from zero */
        else u--;
        tf = dnnlk__vf_set1(dnnlk__f32_from_bits(u));
    } else {
        int32_t tv = (int32_t)(tkey ^ 0x80000000u);
        if (tv == (largest ? INT32_MIN : INT32_MAX)) return 0;
        ti = dnnlk__vi_set1(largest ? tv - 1 : tv + 1);
    }
    /* The second pass, in index order: the chosen blocks (set bits of rescan), then the tail.
     * A chosen block holds its best, which passes: about one candidate per block, taken straight
     * from the block's filter bits. The filter words of up to 64 words of chosen blocks are taken
     * first, their candidates appended after: the blocks' loads (from L2) then overlap, where
     * appending each block before loading the next held every block's L2 trip behind the
     * append's data-dependent branch (k = 50 of 32000, ~55 blocks: about 22 TSC cycles a block,
     * now about 17, ~250 a row). */
    {
        uint64_t fw[64];
        int64_t at[64], nw = 0;
        for (b = 0; b * 64 < M; b++) {
            uint64_t set = rescan[b];
            if (G * W == 64) { /* blocks of one word (rows up to 2048 x 64): a bare loop, a constant length */
                for (nw = 0; set; nw++, set &= set - 1) {
                    at[nw] = (b * 64 + __builtin_ctzll(set)) * 64;
                    fw[nw] = DNNLK__SFX(dnnlk__topk_filter_word)(p + at[nw] * es, 64, es, t, largest, tf, ti);
                }
                n = DNNLK__SFX(dnnlk__topk_append_words)(p, fw, at, nw, es, t, largest, h, n, cap);
                if (n < 0) return 0;
                nw = 0;
                continue;
            }
            for (; set; set &= set - 1) {
                int64_t blk = b * 64 + __builtin_ctzll(set), e;
                for (e = blk * G * W; e < (blk + 1) * G * W; e += 64) {
                    int64_t len = (blk + 1) * G * W - e < 64 ? (blk + 1) * G * W - e : 64;
                    at[nw] = e;
                    fw[nw++] = DNNLK__SFX(dnnlk__topk_filter_word)(p + e * es, len, es, t, largest, tf, ti);
                    if (nw == 64) {
                        n = DNNLK__SFX(dnnlk__topk_append_words)(p, fw, at, nw, es, t, largest, h, n, cap);
                        if (n < 0) return 0;
                        nw = 0;
                    }
                }
            }
        }
        n = DNNLK__SFX(dnnlk__topk_append_words)(p, fw, at, nw, es, t, largest, h, n, cap);
    }
    if (n >= 0) n = DNNLK__SFX(dnnlk__topk_collect)(p, M * G * W, K, K, t, largest, tf, ti, h, n, cap);
    if (n < 0) return 0;
    if (n < k) return 0;
    DNNLK__SFX(dnnlk__topk_emit_ranked)(a, p, h, n, vp, ip);
    return 1;
}

#define DNNLK__TK_CASES(T)                                                 \
    case T * 2 + 0:                                                                                      \
        if (DNNLK__SFX(dnnlk__topk_row_2pass)(a, p, vpj, ipj, h, T, 0)) continue;                            \
        dnnlk__topk_start(a, p, h, &s);                                                                      \
        DNNLK__SFX(dnnlk__topk_scan)(a, p, &s, T, 0);                                                        \
        break;                                                                                               \
    case T * 2 + 1:                                                                                      \
        if (DNNLK__SFX(dnnlk__topk_row_2pass)(a, p, vpj, ipj, h, T, 1)) continue;                            \
        dnnlk__topk_start(a, p, h, &s);                                                                      \
        DNNLK__SFX(dnnlk__topk_scan)(a, p, &s, T, 1);                                                        \
        break;

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__topk_rows)(const dnnlk__argred_args *a, const char *src, char *ip, char *vp,
                                                         int64_t n, uint64_t *h) {
    dnnlk__topk_set s;
    int64_t j;
    if (a->sa != a->esize || a->K - a->k < 4 * DNNLK__VF_N) {
        dnnlk__topk_rows_elem(a, src, ip, vp, n, h, DNNLK__SFX(dnnlk__topk_sort_asc_v));
        return;
    }
    for (j = 0; j < n; j++) {
        const char *p = src + j * a->ss;
        char *vpj = vp ? vp + j * a->sv : NULL, *ipj = ip + j * a->si;
        switch (a->dtype * 2 + a->largest) {
        DNNLK__TK_CASES(dnnlk_f32)
        DNNLK__TK_CASES(dnnlk_bf16)
        DNNLK__TK_CASES(dnnlk_f16)
        DNNLK__TK_CASES(dnnlk_s32)
        DNNLK__TK_CASES(dnnlk_s8)
        DNNLK__TK_CASES(dnnlk_u8)
        default: continue; /* not reached: the dtypes above are all that come here */
        }
        dnnlk__topk_finish(a, p, &s, vpj, ipj, DNNLK__SFX(dnnlk__topk_sort_asc_v));
    }
}
#undef DNNLK__TK_CASES

