/* dnnl_kernels — norm_simd.h: the contiguous-row kernels of layer_norm and l2_norm, written once
 * and compiled per ISA by simd_instantiate.h (no include guard).
 *
 * The canonical order (see norm.h) is defined on 16 lanes; an ISA with W lanes holds one 16-lane
 * "virtual vector" in K = 16/W registers, so every ISA adds the same numbers in the same order.
 * No multiply is fused into an add (dnnlk__vf_nofuse), since SSE4.1 cannot fuse. */

#if DNNLK__ISA == 1
/* SSE4.1 has no F16C: its f16 conversions are scalar code, kept out of line so every inlined load
 * and store does not grow by a few hundred bytes. */
static DNNLK__NOINLINE dnnlk__vf DNNLK__SFX(dnnlk__norm_f16_in)(const char *p) {
    return dnnlk__vf_load_f16((const uint16_t *)(const void *)p);
}
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__norm_f16_out)(char *p, dnnlk__vf v) {
    dnnlk__vf_store_f16((uint16_t *)(void *)p, v);
}
#define DNNLK__NORM_F16_IN(p) DNNLK__SFX(dnnlk__norm_f16_in)(p)
#define DNNLK__NORM_F16_OUT(p, v) DNNLK__SFX(dnnlk__norm_f16_out)((p), (v))
#else
#define DNNLK__NORM_F16_IN(p) dnnlk__vf_load_f16((const uint16_t *)(const void *)(p))
#define DNNLK__NORM_F16_OUT(p, v) dnnlk__vf_store_f16((uint16_t *)(void *)(p), (v))
#endif

/* Full-vector load / store of dtype dt (a constant after inlining). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__norm_load)(const char *p, int dt) {
    if (dt == dnnlk_bf16) return dnnlk__vf_load_bf16((const uint16_t *)(const void *)p);
    if (dt == dnnlk_f16) return DNNLK__NORM_F16_IN(p);
    return dnnlk__vf_loadu((const float *)(const void *)p);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_store)(char *p, int dt, dnnlk__vf v) {
    if (dt == dnnlk_bf16) dnnlk__vf_store_bf16((uint16_t *)(void *)p, v);
    else if (dt == dnnlk_f16) DNNLK__NORM_F16_OUT(p, v);
    else dnnlk__vf_storeu((float *)(void *)p, v);
}

/* ---- layer_norm ---- */

/* One W-lane register slice of a canonical chunk: the 8 values of each lane at p + 16·v
 * elements, d = x − m, q = d²; each tree added into its lane. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_slice)(const char *p, int dt, dnnlk__vf vm, dnnlk__vf *accd,
                                                           dnnlk__vf *accq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
#define DNNLK__LN_V(v)                                                                \
    dnnlk__vf d##v = dnnlk__vf_sub(DNNLK__SFX(dnnlk__norm_load)(p + 16 * v * es, dt), vm); \
    dnnlk__vf q##v = dnnlk__vf_mul(d##v, d##v);                                       \
    dnnlk__vf_nofuse(q##v);
    DNNLK__LN_V(0) DNNLK__LN_V(1) DNNLK__LN_V(2) DNNLK__LN_V(3)
    DNNLK__LN_V(4) DNNLK__LN_V(5) DNNLK__LN_V(6) DNNLK__LN_V(7)
#undef DNNLK__LN_V
    *accd = dnnlk__vf_add(*accd, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(d0, d1), dnnlk__vf_add(d2, d3)),
                                               dnnlk__vf_add(dnnlk__vf_add(d4, d5), dnnlk__vf_add(d6, d7))));
    *accq = dnnlk__vf_add(*accq, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(q0, q1), dnnlk__vf_add(q2, q3)),
                                               dnnlk__vf_add(dnnlk__vf_add(q4, q5), dnnlk__vf_add(q6, q7))));
}

/* The 16 lanes of one chunk, in 16/W register slices. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_chunk)(const char *p, int dt, dnnlk__vf vm, dnnlk__vf *d,
                                                           dnnlk__vf *q) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++)
        DNNLK__SFX(dnnlk__ln_slice)(p + (size_t)(k * DNNLK__VF_N) * es, dt, vm, d + k, q + k);
}

/* The last partial chunk as f32, padded with `pad` (the shift m, so d = m − m = +0 there, as the
 * canonical order's padding; 0 for l2). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_tail)(const char *p, int dt, int64_t left, float pad,
                                                            float *buf) {
    int64_t k;
    for (k = 0; k < DNNLK__NORM_CHUNK; k++) buf[k] = k < left ? dnnlk__norm_ld(p + k * (dt == dnnlk_f32 ? 4 : 2), dt) : pad;
}

/* Lane sums of d = x − m and d² over a contiguous row, in the canonical order. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_stats)(const char *x, int dt, int64_t n, float m, float *ld,
                                                           float *lq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf vm = dnnlk__vf_set1(m), d[16 / DNNLK__VF_N], q[16 / DNNLK__VF_N];
    int64_t i = 0;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++) d[k] = q[k] = dnnlk__vf_zero();
    for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) DNNLK__SFX(dnnlk__ln_chunk)(x + (size_t)i * es, dt, vm, d, q);
    if (i < n) {
        float buf[DNNLK__NORM_CHUNK];
        DNNLK__SFX(dnnlk__norm_tail)(x + (size_t)i * es, dt, n - i, m, buf);
        DNNLK__SFX(dnnlk__ln_chunk)((const char *)buf, dnnlk_f32, vm, d, q);
    }
    for (k = 0; k < 16 / DNNLK__VF_N; k++) {
        dnnlk__vf_storeu(ld + k * DNNLK__VF_N, d[k]);
        dnnlk__vf_storeu(lq + k * DNNLK__VF_N, q[k]);
    }
}

/* y = ((x − m) − r)·s [·w] [+ b] for the full vector at element i of a contiguous row. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__ln_value)(const char *x, int64_t i, int dt, dnnlk__vf vm,
                                                                dnnlk__vf vr, dnnlk__vf vs, const float *w,
                                                                const float *b, int has_w, int has_b) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf u = dnnlk__vf_mul(dnnlk__vf_sub(dnnlk__vf_sub(DNNLK__SFX(dnnlk__norm_load)(x + (size_t)i * es, dt), vm), vr), vs);
    if (has_w) u = dnnlk__vf_mul(u, dnnlk__vf_loadu(w + i));
    if (has_b) {
        dnnlk__vf_nofuse(u);
        u = dnnlk__vf_add(u, dnnlk__vf_loadu(b + i));
    }
    return u;
}

/* y = ((x − m) − r)·s [·w] [+ b] over a contiguous row. nt: f32 output streamed past the caches
 * (the head up to a vector boundary and the tail go through the scalar routine). */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_apply)(const char *x, char *y, int dt, int64_t n,
                                                           const dnnlk__ln_row *o, const float *w, const float *b,
                                                           int has_w, int has_b, int nt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf vm = dnnlk__vf_set1(o->m), vr = dnnlk__vf_set1(o->r), vs = dnnlk__vf_set1(o->s);
    int64_t i = 0;
    if (nt && ((uintptr_t)y & 3) == 0) { /* whole elements reach a vector boundary */
        int64_t h = (int64_t)((0u - (unsigned)(uintptr_t)y) & (DNNLK__VF_N * 4 - 1)) / 4;
        if (h > n) h = n;
        if (h > 0) dnnlk__ln_apply_scalar(x, y, dt, h, o, w, b, has_w, has_b);
        for (i = h; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
            dnnlk__vf_stream((float *)(void *)(y + (size_t)i * es),
                             DNNLK__SFX(dnnlk__ln_value)(x, i, dt, vm, vr, vs, w, b, has_w, has_b));
    } else {
        for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
            DNNLK__SFX(dnnlk__norm_store)(y + (size_t)i * es, dt,
                                          DNNLK__SFX(dnnlk__ln_value)(x, i, dt, vm, vr, vs, w, b, has_w, has_b));
    }
    if (i < n)
        dnnlk__ln_apply_scalar(x + (size_t)i * es, y + (size_t)i * es, dt, n - i, o, w + i, b + i, has_w, has_b);
}

/* The shift of a row: its first 16 elements (zero-padded) into lanes. */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__ln_row_shift)(const char *x, int dt, int64_t n) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    float lanes[16];
    int k;
    if (n >= 16) {
        for (k = 0; k < 16 / DNNLK__VF_N; k++)
            dnnlk__vf_storeu(lanes + k * DNNLK__VF_N, DNNLK__SFX(dnnlk__norm_load)(x + (size_t)(k * DNNLK__VF_N) * es, dt));
    } else {
        for (k = 0; k < 16; k++) lanes[k] = k < n ? dnnlk__norm_ld(x + (size_t)k * es, dt) : 0.0f;
    }
    return dnnlk__ln_shift(lanes, n);
}

/* Statistics of one row with shift m, redone once with a better shift when needed. Not inlined:
 * one copy per ISA serves every (dtype, weight, bias, store) variant of the row loop. */
static DNNLK__NOINLINE int DNNLK__SFX(dnnlk__ln_row_stats)(const dnnlk__ln_job *j, const char *xr, float m,
                                                           dnnlk__ln_row *o) {
    float ld[16], lq[16];
    int rc, attempt;
    for (attempt = 0;; attempt++) {
        if (j->dt == dnnlk_bf16) DNNLK__SFX(dnnlk__ln_stats)(xr, dnnlk_bf16, j->n, m, ld, lq);
        else if (j->dt == dnnlk_f16) DNNLK__SFX(dnnlk__ln_stats)(xr, dnnlk_f16, j->n, m, ld, lq);
        else DNNLK__SFX(dnnlk__ln_stats)(xr, dnnlk_f32, j->n, m, ld, lq);
        rc = dnnlk__ln_finish(j, m, ld, lq, attempt, o);
        if (rc != dnnlk__ln_redo) return rc;
        m = o->m;
    }
}

/* Rows are software-pipelined: the statistics of row g+1 are issued before row g is written, so
 * the latency of a row's reduction and its double-precision finish hides behind useful work. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_rows_t)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, char *mp, int64_t mpp, char *ip, int64_t ipp,
                                                            int64_t rows, int outs, int dt, int has_w, int has_b,
                                                            int nt) {
    int64_t g, n = j->n;
    dnnlk__ln_row cur, next = {0, 0, 0, 0, 0};
    int rc_cur, rc_next = dnnlk__ln_ok;
    float m_next;
    rc_cur = DNNLK__SFX(dnnlk__ln_row_stats)(j, x, DNNLK__SFX(dnnlk__ln_row_shift)(x, dt, n), &cur);
    m_next = rows > 1 ? DNNLK__SFX(dnnlk__ln_row_shift)(x + xp, dt, n) : 0;
    for (g = 0; g < rows; g++) {
        char *xr = x + g * xp, *yr = y + g * yp;
        if (g + 1 < rows) {
            rc_next = DNNLK__SFX(dnnlk__ln_row_stats)(j, xr + xp, m_next, &next);
            if (g + 2 < rows) m_next = DNNLK__SFX(dnnlk__ln_row_shift)(xr + 2 * xp, dt, n);
        }
        if (rc_cur == dnnlk__ln_ok) {
            DNNLK__SFX(dnnlk__ln_apply)(xr, yr, dt, n, &cur, j->w, j->b, has_w, has_b, nt);
        } else {
            void *base[4];
            base[0] = xr;
            base[1] = yr;
            base[2] = (void *)(uintptr_t)j->w;
            base[3] = (void *)(uintptr_t)j->b;
            dnnlk__ln_group_double(j, base, &cur);
        }
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
#define DNNLK__LN_CASE(DT, NT)                                                                                   \
    if (j->dt == DT && j->nt == NT) {                                                                            \
        if (j->has_w && j->has_b) DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, 1, 1, NT); \
        else DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, j->has_w, j->has_b, NT);        \
        if (NT) _mm_sfence();                                                                                    \
        return;                                                                                                  \
    }
    DNNLK__LN_CASE(dnnlk_f32, 0)
    DNNLK__LN_CASE(dnnlk_f32, 1)
    DNNLK__LN_CASE(dnnlk_bf16, 0)
    DNNLK__LN_CASE(dnnlk_f16, 0)
#undef DNNLK__LN_CASE
}

/* ---- l2_norm rows ---- */

/* As dnnlk__ln_slice with q = x² only. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_slice)(const char *p, int dt, dnnlk__vf *accq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
#define DNNLK__L2_V(v)                                                            \
    dnnlk__vf x##v = DNNLK__SFX(dnnlk__norm_load)(p + 16 * v * es, dt);          \
    dnnlk__vf q##v = dnnlk__vf_mul(x##v, x##v);                                   \
    dnnlk__vf_nofuse(q##v);
    DNNLK__L2_V(0) DNNLK__L2_V(1) DNNLK__L2_V(2) DNNLK__L2_V(3)
    DNNLK__L2_V(4) DNNLK__L2_V(5) DNNLK__L2_V(6) DNNLK__L2_V(7)
#undef DNNLK__L2_V
    *accq = dnnlk__vf_add(*accq, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(q0, q1), dnnlk__vf_add(q2, q3)),
                                               dnnlk__vf_add(dnnlk__vf_add(q4, q5), dnnlk__vf_add(q6, q7))));
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_chunk)(const char *p, int dt, dnnlk__vf *q) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++) DNNLK__SFX(dnnlk__l2_slice)(p + (size_t)(k * DNNLK__VF_N) * es, dt, q + k);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_stats)(const char *x, int dt, int64_t n, float *lq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf q[16 / DNNLK__VF_N];
    int64_t i = 0;
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++) q[k] = dnnlk__vf_zero();
    for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) DNNLK__SFX(dnnlk__l2_chunk)(x + (size_t)i * es, dt, q);
    if (i < n) {
        float buf[DNNLK__NORM_CHUNK];
        DNNLK__SFX(dnnlk__norm_tail)(x + (size_t)i * es, dt, n - i, 0.0f, buf);
        DNNLK__SFX(dnnlk__l2_chunk)((const char *)buf, dnnlk_f32, q);
    }
    for (k = 0; k < 16 / DNNLK__VF_N; k++) dnnlk__vf_storeu(lq + k * DNNLK__VF_N, q[k]);
}

static DNNLK__NOINLINE int DNNLK__SFX(dnnlk__l2_row_stats)(const dnnlk__l2_job *j, const char *xr, float *scale) {
    float lq[16];
    if (j->dt == dnnlk_bf16) DNNLK__SFX(dnnlk__l2_stats)(xr, dnnlk_bf16, j->n, lq);
    else if (j->dt == dnnlk_f16) DNNLK__SFX(dnnlk__l2_stats)(xr, dnnlk_f16, j->n, lq);
    else DNNLK__SFX(dnnlk__l2_stats)(xr, dnnlk_f32, j->n, lq);
    return dnnlk__l2_finish(j, lq, scale);
}

/* Pipelined like the layer_norm rows: the sum of row g+1 is issued before row g is scaled. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_rows_t)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, int64_t rows, int dt, int nt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int64_t g, n = j->n;
    float s_cur = 0, s_next = 0;
    int rc_cur = DNNLK__SFX(dnnlk__l2_row_stats)(j, x, &s_cur), rc_next = dnnlk__ln_ok;
    for (g = 0; g < rows; g++) {
        const char *xr = x + g * xp;
        char *yr = y + g * yp;
        if (g + 1 < rows) rc_next = DNNLK__SFX(dnnlk__l2_row_stats)(j, xr + xp, &s_next);
        if (rc_cur == dnnlk__ln_ok) {
            dnnlk__vf vs = dnnlk__vf_set1(s_cur);
            int64_t i = 0;
            if (nt && ((uintptr_t)yr & 3) == 0) {
                int64_t h = (int64_t)((0u - (unsigned)(uintptr_t)yr) & (DNNLK__VF_N * 4 - 1)) / 4;
                if (h > n) h = n;
                if (h > 0) dnnlk__l2_apply_scalar(xr, yr, dt, h, s_cur);
                for (i = h; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
                    dnnlk__vf_stream((float *)(void *)(yr + (size_t)i * es),
                                     dnnlk__vf_mul(DNNLK__SFX(dnnlk__norm_load)(xr + (size_t)i * es, dt), vs));
            }
            for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
                DNNLK__SFX(dnnlk__norm_store)(yr + (size_t)i * es, dt,
                                              dnnlk__vf_mul(DNNLK__SFX(dnnlk__norm_load)(xr + (size_t)i * es, dt), vs));
            if (i < n) dnnlk__l2_apply_scalar(xr + (size_t)i * es, yr + (size_t)i * es, dt, n - i, s_cur);
        } else {
            void *base[2];
            base[0] = (void *)(uintptr_t)xr;
            base[1] = yr;
            dnnlk__l2_group_double(j, base);
        }
        s_cur = s_next;
        rc_cur = rc_next;
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__l2_rows)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                       int64_t yp, int64_t rows) {
    if (j->dt == dnnlk_bf16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_bf16, 0);
    else if (j->dt == dnnlk_f16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f16, 0);
    else if (j->nt) {
        DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f32, 1);
        _mm_sfence();
    } else {
        DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f32, 0);
    }
}

#undef DNNLK__NORM_F16_IN
#undef DNNLK__NORM_F16_OUT
