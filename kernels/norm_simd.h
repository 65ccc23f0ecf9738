/* dnnl_kernels — norm_simd.h: the contiguous-row kernels of layer_norm and l2_norm, written once
 * and compiled per ISA by simd_instantiate.h (no include guard).
 *
 * The canonical order (see norm.h) is defined on 16 lanes; an ISA with W lanes holds one 16-lane
 * "virtual vector" in K = 16/W registers, so every ISA adds the same numbers in the same order.
 * No multiply is fused into an add (dnnlk__vf_nofuse), since SSE4.1 cannot fuse. At the scalar
 * level (one lane) the same code is the canonical order written element by element. */

/* ---- row statistics and row output, shared by layer_norm (center: 1) and l2_norm (center: 0) ---- */

/* One W-lane register slice of a canonical chunk: the 8 values of each lane at p + 16·v
 * elements; layer_norm: d = x − m, q = d², l2_norm: q = x²; each tree added into its lane. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_slice)(const char *p, int dt, int center, dnnlk__vf vm,
                                                             dnnlk__vf *accd, dnnlk__vf *accq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
#define DNNLK__NORM_V(v)                                                       \
    dnnlk__vf d##v = dnnlk__vf_load_dt(p + 16 * v * es, dt), q##v; \
    if (center) d##v = dnnlk__vf_sub(d##v, vm);                               \
    q##v = dnnlk__vf_mul(d##v, d##v);                                         \
    dnnlk__vf_nofuse(q##v);
    DNNLK__NORM_V(0) DNNLK__NORM_V(1) DNNLK__NORM_V(2) DNNLK__NORM_V(3)
    DNNLK__NORM_V(4) DNNLK__NORM_V(5) DNNLK__NORM_V(6) DNNLK__NORM_V(7)
#undef DNNLK__NORM_V
    if (center)
        *accd = dnnlk__vf_add(*accd, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(d0, d1), dnnlk__vf_add(d2, d3)),
                                                   dnnlk__vf_add(dnnlk__vf_add(d4, d5), dnnlk__vf_add(d6, d7))));
    *accq = dnnlk__vf_add(*accq, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(q0, q1), dnnlk__vf_add(q2, q3)),
                                               dnnlk__vf_add(dnnlk__vf_add(q4, q5), dnnlk__vf_add(q6, q7))));
}

/* The 16 lanes of one chunk, in 16/W register slices. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_chunk)(const char *p, int dt, int center, dnnlk__vf vm,
                                                             dnnlk__vf *d, dnnlk__vf *q) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++)
        DNNLK__SFX(dnnlk__norm_slice)(p + (size_t)(k * DNNLK__VF_N) * es, dt, center, vm, d + k, q + k);
}

/* The last partial chunk as f32, padded with `pad` (the shift m, so d = m − m = +0 there, as the
 * canonical order's padding; 0 for l2). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_tail)(const char *p, int dt, int64_t left, float pad,
                                                            float *buf) {
    int64_t k;
    for (k = 0; k < DNNLK__NORM_CHUNK; k++) buf[k] = k < left ? dnnlk__norm_ld(p + k * (dt == dnnlk_f32 ? 4 : 2), dt) : pad;
}

/* A row being written with a row's m, r, s: y = ((x − m) − r)·s [·w] [+ b] (layer_norm) or x·s
 * (l2_norm). */
typedef struct DNNLK__SFX(dnnlk__norm_out) {
    const char *x;
    char *y;
    const float *w, *b;
    dnnlk__vf vm, vr, vs;
} DNNLK__SFX(dnnlk__norm_out);

/* The output formula on one vector of x (w + i and b + i: a vector's worth of weights and biases,
 * read only where present): every element, the heads, tails and strided groups included, goes
 * through these operations in this order. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__norm_formula)(const DNNLK__SFX(dnnlk__norm_out) *a, dnnlk__vf u,
                                                                    const float *w, const float *b, int64_t i,
                                                                    int center, int has_w, int has_b) {
    if (center) u = dnnlk__vf_sub(dnnlk__vf_sub(u, a->vm), a->vr);
    u = dnnlk__vf_mul(u, a->vs);
    if (has_w) u = dnnlk__vf_mul(u, dnnlk__vf_loadu(w + i));
    if (has_b) {
        dnnlk__vf_nofuse(u);
        u = dnnlk__vf_add(u, dnnlk__vf_loadu(b + i));
    }
    return u;
}

/* Elements [i, i + cnt), cnt < DNNLK__VF_N: the heads and tails of the vector loop, as one vector
 * through buffers (kept out of line: rare, and one copy serves every row variant). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__norm_out_part)(const DNNLK__SFX(dnnlk__norm_out) *a, int64_t i,
                                                            int64_t cnt, int dt, int center, int has_w, int has_b) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    float buf[DNNLK__VF_N] = {0}, wb[DNNLK__VF_N] = {0}, bb[DNNLK__VF_N] = {0};
    dnnlk__vf u;
    int64_t k;
    for (k = 0; k < cnt; k++) {
        buf[k] = dnnlk__norm_ld(a->x + (size_t)(i + k) * es, dt);
        if (has_w) wb[k] = a->w[i + k];
        if (has_b) bb[k] = a->b[i + k];
    }
    u = DNNLK__SFX(dnnlk__norm_formula)(a, dnnlk__vf_loadu(buf), wb, bb, 0, center, has_w, has_b);
    dnnlk__vf_storeu(buf, u);
    for (k = 0; k < cnt; k++) dnnlk__store_from_f32(a->y + (size_t)(i + k) * es, (dnnlk_dtype)dt, buf[k]);
}

/* Starts writing row (x, y) of n elements; returns the element where its vector loop starts. nt:
 * f32 output streamed past the caches (y 4-byte aligned), so the head up to a vector boundary
 * is written apart. w and b: layer_norm's (contiguous; unused when absent). */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__norm_out_begin)(DNNLK__SFX(dnnlk__norm_out) *a, const char *x,
                                                                    char *y, int64_t n, const dnnlk__ln_row *o,
                                                                    const float *w, const float *b, int dt,
                                                                    int center, int has_w, int has_b, int nt) {
    int64_t h = 0;
    a->x = x;
    a->y = y;
    a->w = w;
    a->b = b;
    a->vm = dnnlk__vf_set1(o->m);
    a->vr = dnnlk__vf_set1(o->r);
    a->vs = dnnlk__vf_set1(o->s);
    if (nt) {
        h = (int64_t)((0u - (unsigned)(uintptr_t)y) & (DNNLK__VF_N * 4 - 1)) / 4;
        if (h > n) h = n;
        if (h > 0) DNNLK__SFX(dnnlk__norm_out_part)(a, 0, h, dt, center, has_w, has_b);
    }
    return h;
}

/* The full vectors from element i up to `end`; returns where they stopped. */
static DNNLK__FORCEINLINE int64_t DNNLK__SFX(dnnlk__norm_out_run)(const DNNLK__SFX(dnnlk__norm_out) *a, int64_t i,
                                                                  int64_t end, int dt, int center, int has_w,
                                                                  int has_b, int nt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    for (; i + DNNLK__VF_N <= end; i += DNNLK__VF_N) {
        dnnlk__vf u = DNNLK__SFX(dnnlk__norm_formula)(a, dnnlk__vf_load_dt(a->x + (size_t)i * es, dt), a->w, a->b, i,
                                                      center, has_w, has_b);
        dnnlk__vf_store_dt(a->y + (size_t)i * es, dt, u, nt);
    }
    return i;
}

/* The rest of the row from element i: full vectors, then the tail. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_out_end)(const DNNLK__SFX(dnnlk__norm_out) *a, int64_t i,
                                                              int64_t n, int dt, int center, int has_w, int has_b,
                                                              int nt) {
    i = DNNLK__SFX(dnnlk__norm_out_run)(a, i, n, dt, center, has_w, has_b, nt);
    if (i < n) DNNLK__SFX(dnnlk__norm_out_part)(a, i, n - i, dt, center, has_w, has_b);
}

/* A whole row written alone. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_apply)(const char *x, char *y, int64_t n, const dnnlk__ln_row *o,
                                                             const float *w, const float *b, int dt, int center,
                                                             int has_w, int has_b, int nt) {
    DNNLK__SFX(dnnlk__norm_out) a;
    int64_t i = DNNLK__SFX(dnnlk__norm_out_begin)(&a, x, y, n, o, w, b, dt, center, has_w, has_b, nt);
    DNNLK__SFX(dnnlk__norm_out_end)(&a, i, n, dt, center, has_w, has_b, nt);
}

/* Lane sums of d = x − m and d² (layer_norm; l2_norm: of x² only, into lq) over a contiguous
 * row, in the canonical order. With `out` (NULL or not, a constant after inlining), another row of
 * the same length is written in the same loop, a chunk at a time from its element oi: reading
 * one row while writing the other keeps the read and the write streams busy together (measured
 * from memory, median of 15 interleaved rounds: a read pass and a write pass in turn per row ran
 * 12-26% slower, the same compute, on layer_norm [4096, 768] and [2048, 4096] and l2_norm
 * [4096, 768], one and two threads). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_stats)(const char *x, int64_t n, float m, float *ld, float *lq,
                                                             const DNNLK__SFX(dnnlk__norm_out) *out, int64_t oi,
                                                             int dt, int center, int has_w, int has_b, int nt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf vm = dnnlk__vf_set1(m), d[16 / DNNLK__VF_N], q[16 / DNNLK__VF_N];
    int64_t i = 0;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++) d[k] = q[k] = dnnlk__vf_zero();
    for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) {
        DNNLK__SFX(dnnlk__norm_chunk)(x + (size_t)i * es, dt, center, vm, d, q);
        if (out && oi + DNNLK__NORM_CHUNK <= n)
            oi = DNNLK__SFX(dnnlk__norm_out_run)(out, oi, oi + DNNLK__NORM_CHUNK, dt, center, has_w, has_b, nt);
    }
    if (out) DNNLK__SFX(dnnlk__norm_out_end)(out, oi, n, dt, center, has_w, has_b, nt);
    if (i < n) {
        float buf[DNNLK__NORM_CHUNK];
        DNNLK__SFX(dnnlk__norm_tail)(x + (size_t)i * es, dt, n - i, m, buf);
        DNNLK__SFX(dnnlk__norm_chunk)((const char *)buf, dnnlk_f32, center, vm, d, q);
    }
    for (k = 0; k < 16 / DNNLK__VF_N; k++) {
        if (center) dnnlk__vf_storeu(ld + k * DNNLK__VF_N, d[k]);
        dnnlk__vf_storeu(lq + k * DNNLK__VF_N, q[k]);
    }
}

/* ---- groups whose elements are not contiguous (a strided or broadcast operand): the same
 * canonical order and the same formula, the elements gathered into buffers and scattered back
 * (one copy per level, not inlined: dtype and operands vary at run time here) ---- */

/* Lane sums of a group walked by `inner` from base (operand 0: x), as dnnlk__norm_stats: each
 * chunk of 128 gathered as f32, padded with m (l2_norm: 0). ld: unused when !center. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__norm_stats_strided)(const dnnlk__loop *inner, void *const *base,
                                                                  int64_t n, int dt, int center, float m, float *ld,
                                                                  float *lq) {
    dnnlk__norm_stream st;
    char *p[4];
    float buf[DNNLK__NORM_CHUNK];
    dnnlk__vf vm = dnnlk__vf_set1(m), d[16 / DNNLK__VF_N], q[16 / DNNLK__VF_N];
    int64_t i, k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++) d[k] = q[k] = dnnlk__vf_zero();
    dnnlk__norm_stream_init(&st, inner, base, 0);
    for (i = 0; i < n; i += DNNLK__NORM_CHUNK) {
        for (k = 0; k < DNNLK__NORM_CHUNK; k++) {
            buf[k] = m;
            if (i + k < n) {
                dnnlk__norm_stream_next(&st, p);
                buf[k] = dnnlk__norm_ld(p[0], dt);
            }
        }
        DNNLK__SFX(dnnlk__norm_chunk)((const char *)buf, dnnlk_f32, center, vm, d, q);
    }
    for (k = 0; k < 16 / DNNLK__VF_N; k++) {
        if (center) dnnlk__vf_storeu(ld + k * DNNLK__VF_N, d[k]);
        dnnlk__vf_storeu(lq + k * DNNLK__VF_N, q[k]);
    }
}

/* Writes a group walked by `inner` from base (operands x, y, then layer_norm's w, b) with o. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__norm_out_strided)(const dnnlk__loop *inner, void *const *base,
                                                                int64_t n, int dt, const dnnlk__ln_row *o,
                                                                int center, int has_w, int has_b) {
    DNNLK__SFX(dnnlk__norm_out) a;
    dnnlk__norm_stream st;
    char *p[4], *yp[DNNLK__VF_N];
    float xb[DNNLK__VF_N], wb[DNNLK__VF_N], bb[DNNLK__VF_N];
    int64_t i, k;
    a.x = NULL;
    a.y = NULL;
    a.w = a.b = NULL;
    a.vm = dnnlk__vf_set1(o->m);
    a.vr = dnnlk__vf_set1(o->r);
    a.vs = dnnlk__vf_set1(o->s);
    dnnlk__norm_stream_init(&st, inner, base, 0);
    for (i = 0; i < n; i += DNNLK__VF_N) {
        int64_t cnt = n - i < DNNLK__VF_N ? n - i : DNNLK__VF_N;
        dnnlk__vf u;
        for (k = 0; k < DNNLK__VF_N; k++) {
            xb[k] = wb[k] = bb[k] = 0;
            yp[k] = NULL;
            if (k < cnt) {
                dnnlk__norm_stream_next(&st, p);
                xb[k] = dnnlk__norm_ld(p[0], dt);
                yp[k] = p[1];
                if (has_w) memcpy(&wb[k], p[2], 4);
                if (has_b) memcpy(&bb[k], p[3], 4);
            }
        }
        u = DNNLK__SFX(dnnlk__norm_formula)(&a, dnnlk__vf_loadu(xb), wb, bb, 0, center, has_w, has_b);
        dnnlk__vf_storeu(xb, u);
        for (k = 0; k < cnt; k++) dnnlk__store_from_f32(yp[k], (dnnlk_dtype)dt, xb[k]);
    }
}

/* ---- layer_norm rows ---- */

/* The shift of a row: its first 16 elements (zero-padded) into lanes. */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__ln_row_shift)(const char *x, int dt, int64_t n) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    float lanes[16];
    int k;
    if (n >= 16) {
        for (k = 0; k < 16 / DNNLK__VF_N; k++)
            dnnlk__vf_storeu(lanes + k * DNNLK__VF_N, dnnlk__vf_load_dt(x + (size_t)(k * DNNLK__VF_N) * es, dt));
    } else {
        for (k = 0; k < 16; k++) lanes[k] = k < n ? dnnlk__norm_ld(x + (size_t)k * es, dt) : 0.0f;
    }
    return dnnlk__ln_shift(lanes, n);
}

/* Statistics of one row with shift m, redone with a better shift when needed (attempt: the
 * attempts already made). Not inlined: one copy per ISA serves every (dtype, weight, bias, store)
 * variant of the row loop. */
static DNNLK__NOINLINE int DNNLK__SFX(dnnlk__ln_row_stats)(const dnnlk__ln_job *j, const char *xr, float m,
                                                           dnnlk__ln_row *o, int attempt) {
    float ld[16], lq[16];
    int rc;
    for (;; attempt++) {
#define DNNLK__LN_STATS(DT) DNNLK__SFX(dnnlk__norm_stats)(xr, j->n, m, ld, lq, NULL, 0, DT, 1, 0, 0, 0)
        if (j->dt == dnnlk_bf16) DNNLK__LN_STATS(dnnlk_bf16);
        else if (j->dt == dnnlk_f16) DNNLK__LN_STATS(dnnlk_f16);
        else DNNLK__LN_STATS(dnnlk_f32);
#undef DNNLK__LN_STATS
        rc = dnnlk__ln_finish(j, m, ld, lq, attempt, o);
        if (rc != dnnlk__ln_redo) return rc;
        m = o->m;
    }
}

/* The statistics of row xs (shift m, into o) while row (xa, ya) is written with oa: the first
 * attempt shares its loop with the writing; a redo, rare, runs alone. */
static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__ln_row_stats_out)(const dnnlk__ln_job *j, const char *xs, float m,
                                                                  dnnlk__ln_row *o, const char *xa, char *ya,
                                                                  const dnnlk__ln_row *oa, int dt, int has_w,
                                                                  int has_b, int nt) {
    float ld[16], lq[16];
    DNNLK__SFX(dnnlk__norm_out) out;
    int64_t oi = DNNLK__SFX(dnnlk__norm_out_begin)(&out, xa, ya, j->n, oa, j->w, j->b, dt, 1, has_w, has_b, nt);
    int rc;
    DNNLK__SFX(dnnlk__norm_stats)(xs, j->n, m, ld, lq, &out, oi, dt, 1, has_w, has_b, nt);
    rc = dnnlk__ln_finish(j, m, ld, lq, 0, o);
    return rc == dnnlk__ln_redo ? DNNLK__SFX(dnnlk__ln_row_stats)(j, xs, o->m, o, 1) : rc;
}

/* Rows are software-pipelined: the statistics of row g+1 are taken in the loop that writes row g,
 * so the next row's reads overlap this row's writes, and the latency of a row's reduction and its
 * double-precision finish hides behind useful work. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_rows_t)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, char *mp, int64_t mpp, char *ip, int64_t ipp,
                                                            int64_t rows, int outs, int dt, int has_w, int has_b,
                                                            int nt) {
    int64_t g, n = j->n;
    dnnlk__ln_row cur, next = {0, 0, 0, 0, 0};
    int rc_cur, rc_next = dnnlk__ln_ok;
    float m_next;
    rc_cur = DNNLK__SFX(dnnlk__ln_row_stats)(j, x, DNNLK__SFX(dnnlk__ln_row_shift)(x, dt, n), &cur, 0);
    m_next = rows > 1 ? DNNLK__SFX(dnnlk__ln_row_shift)(x + xp, dt, n) : 0;
    for (g = 0; g < rows; g++) {
        char *xr = x + g * xp, *yr = y + g * yp;
        if (g + 1 < rows && rc_cur == dnnlk__ln_ok) {
            rc_next = DNNLK__SFX(dnnlk__ln_row_stats_out)(j, xr + xp, m_next, &next, xr, yr, &cur, dt, has_w, has_b,
                                                          nt);
        } else {
            if (g + 1 < rows) rc_next = DNNLK__SFX(dnnlk__ln_row_stats)(j, xr + xp, m_next, &next, 0);
            if (rc_cur == dnnlk__ln_ok) {
                DNNLK__SFX(dnnlk__norm_apply)(xr, yr, n, &cur, j->w, j->b, dt, 1, has_w, has_b, nt);
            } else {
                void *base[4];
                base[0] = xr;
                base[1] = yr;
                base[2] = (void *)(uintptr_t)j->w;
                base[3] = (void *)(uintptr_t)j->b;
                dnnlk__ln_group_double(j, base, &cur);
            }
        }
        if (g + 2 < rows) m_next = DNNLK__SFX(dnnlk__ln_row_shift)(xr + 2 * xp, dt, n);
        if (outs & 1) memcpy(mp + g * mpp, &cur.mean_out, 4);
        if (outs & 2) memcpy(ip + g * ipp, &cur.istd_out, 4);
        cur = next;
        rc_cur = rc_next;
    }
}

/* Entry: `rows` groups, each a contiguous row of j->n elements (w and b contiguous too). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__ln_rows)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                       int64_t yp, char *mp, int64_t mpp, char *ip, int64_t ipp,
                                                       int64_t rows, int outs) {
    /* streaming stores write whole elements only: every row shares y's alignment mod 4 */
    int nt = j->nt && ((uintptr_t)y & 3) == 0;
#define DNNLK__LN_CASE(DT, NT)                                                                                   \
    if (j->dt == DT && nt == NT) {                                                                               \
        if (j->has_w && j->has_b) DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, 1, 1, NT); \
        else DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, j->has_w, j->has_b, NT);        \
        if (NT) dnnlk__vec_sfence();                                                                                    \
        return;                                                                                                  \
    }
    DNNLK__LN_CASE(dnnlk_f32, 0)
    DNNLK__LN_CASE(dnnlk_f32, 1)
    DNNLK__LN_CASE(dnnlk_bf16, 0)
    DNNLK__LN_CASE(dnnlk_f16, 0)
#undef DNNLK__LN_CASE
}

/* A group that is not one contiguous row. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__ln_group_strided)(const dnnlk__ln_job *j, void *const *base,
                                                                dnnlk__ln_row *o) {
    dnnlk__norm_stream st;
    char *p[4];
    float lanes[16] = {0}, ld[16], lq[16];
    int64_t i;
    int attempt, rc;
    float m;
    dnnlk__norm_stream_init(&st, &j->inner, base, 0);
    for (i = 0; i < j->n && i < 16; i++) {
        dnnlk__norm_stream_next(&st, p);
        lanes[i] = dnnlk__norm_ld(p[0], j->dt);
    }
    m = dnnlk__ln_shift(lanes, j->n);
    for (attempt = 0;; attempt++) {
        DNNLK__SFX(dnnlk__norm_stats_strided)(&j->inner, base, j->n, j->dt, 1, m, ld, lq);
        rc = dnnlk__ln_finish(j, m, ld, lq, attempt, o);
        if (rc != dnnlk__ln_redo) break;
        m = o->m;
    }
    if (rc == dnnlk__ln_fallback) dnnlk__ln_group_double(j, base, o);
    else DNNLK__SFX(dnnlk__norm_out_strided)(&j->inner, base, j->n, j->dt, o, 1, j->has_w, j->has_b);
}

/* Entry: `rows` groups that are not contiguous rows (any strides, w and b broadcast). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__ln_rows_strided)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                               int64_t yp, char *mp, int64_t mpp, char *ip,
                                                               int64_t ipp, int64_t rows, int outs) {
    int64_t g;
    for (g = 0; g < rows; g++) {
        void *base[4];
        dnnlk__ln_row o;
        base[0] = x + g * xp;
        base[1] = y + g * yp;
        base[2] = (void *)(uintptr_t)j->w;
        base[3] = (void *)(uintptr_t)j->b;
        DNNLK__SFX(dnnlk__ln_group_strided)(j, base, &o);
        if (outs & 1) memcpy(mp + g * mpp, &o.mean_out, 4);
        if (outs & 2) memcpy(ip + g * ipp, &o.istd_out, 4);
    }
}

/* ---- l2_norm rows ---- */

/* The scale of one row (into o->s; o->m = o->r = 0), or the fallback code. */
static DNNLK__NOINLINE int DNNLK__SFX(dnnlk__l2_row_stats)(const dnnlk__l2_job *j, const char *xr, dnnlk__ln_row *o) {
    float lq[16];
#define DNNLK__L2_STATS(DT) DNNLK__SFX(dnnlk__norm_stats)(xr, j->n, 0, NULL, lq, NULL, 0, DT, 0, 0, 0, 0)
    if (j->dt == dnnlk_bf16) DNNLK__L2_STATS(dnnlk_bf16);
    else if (j->dt == dnnlk_f16) DNNLK__L2_STATS(dnnlk_f16);
    else DNNLK__L2_STATS(dnnlk_f32);
#undef DNNLK__L2_STATS
    return dnnlk__l2_finish(j, lq, &o->s);
}

/* Pipelined like the layer_norm rows: the sum of row g+1 is taken in the loop that scales row g. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_rows_t)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, int64_t rows, int dt, int nt) {
    int64_t g, n = j->n;
    dnnlk__ln_row cur = {0, 0, 0, 0, 0}, next = {0, 0, 0, 0, 0};
    int rc_cur = DNNLK__SFX(dnnlk__l2_row_stats)(j, x, &cur), rc_next = dnnlk__ln_ok;
    for (g = 0; g < rows; g++) {
        char *xr = x + g * xp, *yr = y + g * yp;
        if (g + 1 < rows && rc_cur == dnnlk__ln_ok) {
            float lq[16];
            DNNLK__SFX(dnnlk__norm_out) out;
            int64_t oi = DNNLK__SFX(dnnlk__norm_out_begin)(&out, xr, yr, n, &cur, NULL, NULL, dt, 0, 0, 0, nt);
            DNNLK__SFX(dnnlk__norm_stats)(xr + xp, n, 0, NULL, lq, &out, oi, dt, 0, 0, 0, nt);
            rc_next = dnnlk__l2_finish(j, lq, &next.s);
        } else {
            if (g + 1 < rows) rc_next = DNNLK__SFX(dnnlk__l2_row_stats)(j, xr + xp, &next);
            if (rc_cur == dnnlk__ln_ok) {
                DNNLK__SFX(dnnlk__norm_apply)(xr, yr, n, &cur, NULL, NULL, dt, 0, 0, 0, nt);
            } else {
                void *base[2];
                base[0] = xr;
                base[1] = yr;
                dnnlk__l2_group_double(j, base);
            }
        }
        cur = next;
        rc_cur = rc_next;
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__l2_rows)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                       int64_t yp, int64_t rows) {
    if (j->dt == dnnlk_bf16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_bf16, 0);
    else if (j->dt == dnnlk_f16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f16, 0);
    else if (j->nt && ((uintptr_t)y & 3) == 0) { /* as in dnnlk__ln_rows */
        DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f32, 1);
        dnnlk__vec_sfence();
    } else {
        DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f32, 0);
    }
}


/* Entry: `rows` groups whose axis is not contiguous. */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__l2_rows_strided)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                               int64_t yp, int64_t rows) {
    int64_t g;
    for (g = 0; g < rows; g++) {
        void *base[2];
        float lq[16];
        dnnlk__ln_row o = {0, 0, 0, 0, 0};
        base[0] = x + g * xp;
        base[1] = y + g * yp;
        DNNLK__SFX(dnnlk__norm_stats_strided)(&j->inner, base, j->n, j->dt, 0, 0, NULL, lq);
        if (dnnlk__l2_finish(j, lq, &o.s) != dnnlk__ln_ok) dnnlk__l2_group_double(j, base);
        else DNNLK__SFX(dnnlk__norm_out_strided)(&j->inner, base, j->n, j->dt, &o, 0, 0, 0);
    }
}
