/* dnnl_kernels — norm_simd.h: the contiguous-row kernels of layer_norm and l2_norm, written once
 * and compiled per ISA by simd_instantiate.h (no include guard).
 *
 * The canonical order (see norm.h) is defined on 16 lanes; an ISA with W lanes holds one 16-lane
 * "virtual vector" in K = 16/W registers, so every ISA adds the same numbers in the same order.
 * No multiply is fused into an add (the barrier below), since SSE4.1 cannot fuse. */

#if DNNLK__ISA == 3
#define DNNLK__NORM_OPAQUE(v) __asm__("" : "+v"(v))
#else
#define DNNLK__NORM_OPAQUE(v) __asm__("" : "+x"(v))
#endif

/* Full-vector load / store of dtype dt (a constant after inlining). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__norm_load)(const char *p, int dt) {
    if (dt == dnnlk_bf16) return dnnlk__vf_load_bf16((const uint16_t *)(const void *)p);
    if (dt == dnnlk_f16) return dnnlk__vf_load_f16((const uint16_t *)(const void *)p);
    return dnnlk__vf_loadu((const float *)(const void *)p);
}

/* The first n (0 <= n <= lanes) elements; the others 0, memory past them untouched. */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__norm_load_n)(const char *p, int dt, int64_t n) {
    if (n >= DNNLK__VF_N) return DNNLK__SFX(dnnlk__norm_load)(p, dt);
    if (n <= 0) return dnnlk__vf_zero();
    if (dt == dnnlk_f32) return dnnlk__vf_loadu_n((const float *)(const void *)p, (size_t)n);
    {
        uint16_t t[DNNLK__VF_N];
        memset(t, 0, sizeof t);
        memcpy(t, p, (size_t)n * 2);
        return DNNLK__SFX(dnnlk__norm_load)((const char *)t, dt);
    }
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_store)(char *p, int dt, dnnlk__vf v) {
    if (dt == dnnlk_bf16) dnnlk__vf_store_bf16((uint16_t *)(void *)p, v);
    else if (dt == dnnlk_f16) dnnlk__vf_store_f16((uint16_t *)(void *)p, v);
    else dnnlk__vf_storeu((float *)(void *)p, v);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__norm_store_n)(char *p, int dt, dnnlk__vf v, int64_t n) {
    if (dt == dnnlk_f32) {
        dnnlk__vf_storeu_n((float *)(void *)p, v, (size_t)n);
    } else {
        uint16_t t[DNNLK__VF_N];
        DNNLK__SFX(dnnlk__norm_store)((char *)t, dt, v);
        memcpy(p, t, (size_t)n * 2);
    }
}

/* Lanes [0, n) all ones, the rest zero (n clamped to [0, lanes]). */
static DNNLK__FORCEINLINE dnnlk__vf DNNLK__SFX(dnnlk__norm_valid)(int64_t n) {
    if (n > DNNLK__VF_N) n = DNNLK__VF_N;
    if (n < 0) n = 0;
    return dnnlk__vf_loadu((const float *)(const void *)(dnnlk__norm_mask_tbl + 16 - n));
}


/* ---- layer_norm ---- */

/* One 16-lane register slice of a canonical chunk: the 8 values of each lane at p + 16·v
 * elements, d = x − m (masked to the row when `tail`), q = d²; each tree added into its lane. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_slice)(const char *p, int dt, int64_t left, int tail,
                                                           dnnlk__vf vm, dnnlk__vf *accd, dnnlk__vf *accq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
#define DNNLK__LN_V(v)                                                                                         \
    dnnlk__vf d##v = tail ? dnnlk__vf_and(dnnlk__vf_sub(DNNLK__SFX(dnnlk__norm_load_n)(p + 16 * v * es, dt, left - 16 * v), vm), \
                                          DNNLK__SFX(dnnlk__norm_valid)(left - 16 * v))                                       \
                          : dnnlk__vf_sub(DNNLK__SFX(dnnlk__norm_load)(p + 16 * v * es, dt), vm);                             \
    dnnlk__vf q##v = dnnlk__vf_mul(d##v, d##v);                                                                \
    DNNLK__NORM_OPAQUE(q##v);
    DNNLK__LN_V(0) DNNLK__LN_V(1) DNNLK__LN_V(2) DNNLK__LN_V(3)
    DNNLK__LN_V(4) DNNLK__LN_V(5) DNNLK__LN_V(6) DNNLK__LN_V(7)
#undef DNNLK__LN_V
    *accd = dnnlk__vf_add(*accd, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(d0, d1), dnnlk__vf_add(d2, d3)),
                                               dnnlk__vf_add(dnnlk__vf_add(d4, d5), dnnlk__vf_add(d6, d7))));
    *accq = dnnlk__vf_add(*accq, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(q0, q1), dnnlk__vf_add(q2, q3)),
                                               dnnlk__vf_add(dnnlk__vf_add(q4, q5), dnnlk__vf_add(q6, q7))));
}

/* Lane sums of d = x − m and d² over a contiguous row, in the canonical order. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_stats)(const char *x, int dt, int64_t n, float m, float *ld,
                                                           float *lq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    const int W = DNNLK__VF_N;
    dnnlk__vf vm = dnnlk__vf_set1(m), d0 = dnnlk__vf_zero(), q0 = d0;
#if DNNLK__VF_N <= 8
    dnnlk__vf d1 = d0, q1 = d0;
#endif
#if DNNLK__VF_N <= 4
    dnnlk__vf d2 = d0, q2 = d0, d3 = d0, q3 = d0;
#endif
    int64_t i = 0;
    (void)W;
    for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) {
        const char *p = x + (size_t)i * es;
        DNNLK__SFX(dnnlk__ln_slice)(p, dt, 0, 0, vm, &d0, &q0);
#if DNNLK__VF_N <= 8
        DNNLK__SFX(dnnlk__ln_slice)(p + W * es, dt, 0, 0, vm, &d1, &q1);
#endif
#if DNNLK__VF_N <= 4
        DNNLK__SFX(dnnlk__ln_slice)(p + 2 * W * es, dt, 0, 0, vm, &d2, &q2);
        DNNLK__SFX(dnnlk__ln_slice)(p + 3 * W * es, dt, 0, 0, vm, &d3, &q3);
#endif
    }
    if (i < n) {
        const char *p = x + (size_t)i * es;
        int64_t left = n - i;
        DNNLK__SFX(dnnlk__ln_slice)(p, dt, left, 1, vm, &d0, &q0);
#if DNNLK__VF_N <= 8
        DNNLK__SFX(dnnlk__ln_slice)(p + W * es, dt, left - W, 1, vm, &d1, &q1);
#endif
#if DNNLK__VF_N <= 4
        DNNLK__SFX(dnnlk__ln_slice)(p + 2 * W * es, dt, left - 2 * W, 1, vm, &d2, &q2);
        DNNLK__SFX(dnnlk__ln_slice)(p + 3 * W * es, dt, left - 3 * W, 1, vm, &d3, &q3);
#endif
    }
    dnnlk__vf_storeu(ld, d0);
    dnnlk__vf_storeu(lq, q0);
#if DNNLK__VF_N <= 8
    dnnlk__vf_storeu(ld + W, d1);
    dnnlk__vf_storeu(lq + W, q1);
#endif
#if DNNLK__VF_N <= 4
    dnnlk__vf_storeu(ld + 2 * W, d2);
    dnnlk__vf_storeu(lq + 2 * W, q2);
    dnnlk__vf_storeu(ld + 3 * W, d3);
    dnnlk__vf_storeu(lq + 3 * W, q3);
#endif
}

/* y = ((x − m) − r)·s [·w] [+ b] over a contiguous row. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_apply)(const char *x, char *y, int dt, int64_t n,
                                                           const dnnlk__ln_row *o, const float *w, const float *b,
                                                           int has_w, int has_b) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf vm = dnnlk__vf_set1(o->m), vr = dnnlk__vf_set1(o->r), vs = dnnlk__vf_set1(o->s);
    int64_t i = 0;
    for (; i + DNNLK__VF_N <= n; i += DNNLK__VF_N) {
        dnnlk__vf u = dnnlk__vf_mul(dnnlk__vf_sub(dnnlk__vf_sub(DNNLK__SFX(dnnlk__norm_load)(x + (size_t)i * es, dt), vm), vr), vs);
        if (has_w) u = dnnlk__vf_mul(u, dnnlk__vf_loadu(w + i));
        if (has_b) {
            DNNLK__NORM_OPAQUE(u);
            u = dnnlk__vf_add(u, dnnlk__vf_loadu(b + i));
        }
        DNNLK__SFX(dnnlk__norm_store)(y + (size_t)i * es, dt, u);
    }
    if (i < n) {
        size_t t = (size_t)(n - i);
        dnnlk__vf u = dnnlk__vf_mul(
            dnnlk__vf_sub(dnnlk__vf_sub(DNNLK__SFX(dnnlk__norm_load_n)(x + (size_t)i * es, dt, n - i), vm), vr), vs);
        if (has_w) u = dnnlk__vf_mul(u, dnnlk__vf_loadu_n(w + i, t));
        if (has_b) {
            DNNLK__NORM_OPAQUE(u);
            u = dnnlk__vf_add(u, dnnlk__vf_loadu_n(b + i, t));
        }
        DNNLK__SFX(dnnlk__norm_store_n)(y + (size_t)i * es, dt, u, n - i);
    }
}

/* The shift of a row: its first 16 elements (zero-padded) into lanes. */
static DNNLK__FORCEINLINE float DNNLK__SFX(dnnlk__ln_row_shift)(const char *x, int dt, int64_t n) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    float lanes[16];
    int k;
    for (k = 0; k < 16 / DNNLK__VF_N; k++)
        dnnlk__vf_storeu(lanes + k * DNNLK__VF_N,
                         DNNLK__SFX(dnnlk__norm_load_n)(x + (size_t)(k * DNNLK__VF_N) * es, dt, n - k * DNNLK__VF_N));
    return dnnlk__ln_shift(lanes, n);
}

/* Statistics of one row with shift m, redone once with a better shift when needed. */
static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__ln_row_stats)(const dnnlk__ln_job *j, const char *xr, int dt, float m,
                                                              dnnlk__ln_row *o) {
    float ld[16], lq[16];
    int rc;
    DNNLK__SFX(dnnlk__ln_stats)(xr, dt, j->n, m, ld, lq);
    rc = dnnlk__ln_finish(j, m, ld, lq, 0, o);
    if (rc == dnnlk__ln_redo) {
        m = o->m;
        DNNLK__SFX(dnnlk__ln_stats)(xr, dt, j->n, m, ld, lq);
        rc = dnnlk__ln_finish(j, m, ld, lq, 1, o);
    }
    return rc;
}

/* Rows are software-pipelined: the statistics of row g+1 are issued before row g is written, so
 * the latency of a row's reduction and its double-precision finish hides behind useful work. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_rows_t)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, char *mp, int64_t mpp, char *ip, int64_t ipp,
                                                            int64_t rows, int outs, int dt, int has_w, int has_b) {
    int64_t g, n = j->n;
    dnnlk__ln_row cur, next = {0, 0, 0, 0, 0};
    int rc_cur, rc_next = dnnlk__ln_ok;
    float m_next;
    rc_cur = DNNLK__SFX(dnnlk__ln_row_stats)(j, x, dt, DNNLK__SFX(dnnlk__ln_row_shift)(x, dt, n), &cur);
    m_next = rows > 1 ? DNNLK__SFX(dnnlk__ln_row_shift)(x + xp, dt, n) : 0;
    for (g = 0; g < rows; g++) {
        char *xr = x + g * xp, *yr = y + g * yp;
        if (g + 1 < rows) {
            rc_next = DNNLK__SFX(dnnlk__ln_row_stats)(j, xr + xp, dt, m_next, &next);
            if (g + 2 < rows) m_next = DNNLK__SFX(dnnlk__ln_row_shift)(xr + 2 * xp, dt, n);
        }
        if (rc_cur == dnnlk__ln_ok) {
            DNNLK__SFX(dnnlk__ln_apply)(xr, yr, dt, n, &cur, j->w, j->b, has_w, has_b);
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
#define DNNLK__LN_CASE(DT)                                                                              \
    if (j->dt == DT) {                                                                                  \
        if (j->has_w && j->has_b) DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, 1, 1); \
        else if (j->has_w) DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, 1, 0);      \
        else if (j->has_b) DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, 0, 1);      \
        else DNNLK__SFX(dnnlk__ln_rows_t)(j, x, xp, y, yp, mp, mpp, ip, ipp, rows, outs, DT, 0, 0);                    \
        return;                                                                                         \
    }
    DNNLK__LN_CASE(dnnlk_f32)
    DNNLK__LN_CASE(dnnlk_bf16)
    DNNLK__LN_CASE(dnnlk_f16)
#undef DNNLK__LN_CASE
}

/* ---- l2_norm rows ---- */

/* As dnnlk__ln_slice with q = x² only. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_slice)(const char *p, int dt, int64_t left, int tail,
                                                           dnnlk__vf *accq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
#define DNNLK__L2_V(v)                                                                                      \
    dnnlk__vf x##v = tail ? DNNLK__SFX(dnnlk__norm_load_n)(p + 16 * v * es, dt, left - 16 * v)               \
                          : DNNLK__SFX(dnnlk__norm_load)(p + 16 * v * es, dt);                              \
    dnnlk__vf q##v = dnnlk__vf_mul(x##v, x##v);                                                             \
    DNNLK__NORM_OPAQUE(q##v);
    DNNLK__L2_V(0) DNNLK__L2_V(1) DNNLK__L2_V(2) DNNLK__L2_V(3)
    DNNLK__L2_V(4) DNNLK__L2_V(5) DNNLK__L2_V(6) DNNLK__L2_V(7)
#undef DNNLK__L2_V
    *accq = dnnlk__vf_add(*accq, dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(q0, q1), dnnlk__vf_add(q2, q3)),
                                               dnnlk__vf_add(dnnlk__vf_add(q4, q5), dnnlk__vf_add(q6, q7))));
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_stats)(const char *x, int dt, int64_t n, float *lq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    const int W = DNNLK__VF_N;
    dnnlk__vf q0 = dnnlk__vf_zero();
#if DNNLK__VF_N <= 8
    dnnlk__vf q1 = q0;
#endif
#if DNNLK__VF_N <= 4
    dnnlk__vf q2 = q0, q3 = q0;
#endif
    int64_t i = 0;
    (void)W;
    for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) {
        const char *p = x + (size_t)i * es;
        DNNLK__SFX(dnnlk__l2_slice)(p, dt, 0, 0, &q0);
#if DNNLK__VF_N <= 8
        DNNLK__SFX(dnnlk__l2_slice)(p + W * es, dt, 0, 0, &q1);
#endif
#if DNNLK__VF_N <= 4
        DNNLK__SFX(dnnlk__l2_slice)(p + 2 * W * es, dt, 0, 0, &q2);
        DNNLK__SFX(dnnlk__l2_slice)(p + 3 * W * es, dt, 0, 0, &q3);
#endif
    }
    if (i < n) {
        const char *p = x + (size_t)i * es;
        int64_t left = n - i;
        DNNLK__SFX(dnnlk__l2_slice)(p, dt, left, 1, &q0);
#if DNNLK__VF_N <= 8
        DNNLK__SFX(dnnlk__l2_slice)(p + W * es, dt, left - W, 1, &q1);
#endif
#if DNNLK__VF_N <= 4
        DNNLK__SFX(dnnlk__l2_slice)(p + 2 * W * es, dt, left - 2 * W, 1, &q2);
        DNNLK__SFX(dnnlk__l2_slice)(p + 3 * W * es, dt, left - 3 * W, 1, &q3);
#endif
    }
    dnnlk__vf_storeu(lq, q0);
#if DNNLK__VF_N <= 8
    dnnlk__vf_storeu(lq + W, q1);
#endif
#if DNNLK__VF_N <= 4
    dnnlk__vf_storeu(lq + 2 * W, q2);
    dnnlk__vf_storeu(lq + 3 * W, q3);
#endif
}

static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__l2_row_stats)(const dnnlk__l2_job *j, const char *xr, int dt,
                                                              float *scale) {
    float lq[16];
    DNNLK__SFX(dnnlk__l2_stats)(xr, dt, j->n, lq);
    return dnnlk__l2_finish(j, lq, scale);
}

/* Pipelined like the layer_norm rows: the sum of row g+1 is issued before row g is scaled. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_rows_t)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, int64_t rows, int dt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int64_t g, n = j->n;
    float s_cur = 0, s_next = 0;
    int rc_cur = DNNLK__SFX(dnnlk__l2_row_stats)(j, x, dt, &s_cur), rc_next = dnnlk__ln_ok;
    for (g = 0; g < rows; g++) {
        const char *xr = x + g * xp;
        char *yr = y + g * yp;
        if (g + 1 < rows) rc_next = DNNLK__SFX(dnnlk__l2_row_stats)(j, xr + xp, dt, &s_next);
        if (rc_cur == dnnlk__ln_ok) {
            dnnlk__vf vs = dnnlk__vf_set1(s_cur);
            int64_t i;
            for (i = 0; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
                DNNLK__SFX(dnnlk__norm_store)(yr + (size_t)i * es, dt,
                                              dnnlk__vf_mul(DNNLK__SFX(dnnlk__norm_load)(xr + (size_t)i * es, dt), vs));
            if (i < n)
                DNNLK__SFX(dnnlk__norm_store_n)(
                    yr + (size_t)i * es, dt,
                    dnnlk__vf_mul(DNNLK__SFX(dnnlk__norm_load_n)(xr + (size_t)i * es, dt, n - i), vs), n - i);
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
    if (j->dt == dnnlk_bf16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_bf16);
    else if (j->dt == dnnlk_f16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f16);
    else DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f32);
}

#undef DNNLK__NORM_OPAQUE
