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
#define DNNLK__NORM_K (16 / DNNLK__VF_N)

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

#define DNNLK__NORM_TREE(v) \
    dnnlk__vf_add(dnnlk__vf_add(dnnlk__vf_add(v[0], v[1]), dnnlk__vf_add(v[2], v[3])), \
                  dnnlk__vf_add(dnnlk__vf_add(v[4], v[5]), dnnlk__vf_add(v[6], v[7])))

/* ---- layer_norm ---- */

/* Lane sums of d = x − m and d² over a contiguous row, in the canonical order. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_stats)(const char *x, int dt, int64_t n, float m, float *ld,
                                                           float *lq) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    dnnlk__vf accd[DNNLK__NORM_K], accq[DNNLK__NORM_K], vm = dnnlk__vf_set1(m);
    int64_t i = 0;
    int k, v;
    for (k = 0; k < DNNLK__NORM_K; k++) accd[k] = accq[k] = dnnlk__vf_zero();
    for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) {
        for (k = 0; k < DNNLK__NORM_K; k++) {
            dnnlk__vf d[8], q[8];
            for (v = 0; v < 8; v++) {
                d[v] = dnnlk__vf_sub(DNNLK__SFX(dnnlk__norm_load)(x + (size_t)(i + 16 * v + k * DNNLK__VF_N) * es, dt), vm);
                q[v] = dnnlk__vf_mul(d[v], d[v]);
                DNNLK__NORM_OPAQUE(q[v]);
            }
            accd[k] = dnnlk__vf_add(accd[k], DNNLK__NORM_TREE(d));
            accq[k] = dnnlk__vf_add(accq[k], DNNLK__NORM_TREE(q));
        }
    }
    if (i < n) {
        for (k = 0; k < DNNLK__NORM_K; k++) {
            dnnlk__vf d[8], q[8];
            for (v = 0; v < 8; v++) {
                int64_t e = i + 16 * v + k * DNNLK__VF_N;
                dnnlk__vf xv = DNNLK__SFX(dnnlk__norm_load_n)(x + (size_t)e * es, dt, n - e);
                d[v] = dnnlk__vf_and(dnnlk__vf_sub(xv, vm), DNNLK__SFX(dnnlk__norm_valid)(n - e));
                q[v] = dnnlk__vf_mul(d[v], d[v]);
                DNNLK__NORM_OPAQUE(q[v]);
            }
            accd[k] = dnnlk__vf_add(accd[k], DNNLK__NORM_TREE(d));
            accq[k] = dnnlk__vf_add(accq[k], DNNLK__NORM_TREE(q));
        }
    }
    for (k = 0; k < DNNLK__NORM_K; k++) {
        dnnlk__vf_storeu(ld + k * DNNLK__VF_N, accd[k]);
        dnnlk__vf_storeu(lq + k * DNNLK__VF_N, accq[k]);
    }
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
    for (k = 0; k < DNNLK__NORM_K; k++)
        dnnlk__vf_storeu(lanes + k * DNNLK__VF_N,
                         DNNLK__SFX(dnnlk__norm_load_n)(x + (size_t)(k * DNNLK__VF_N) * es, dt, n - k * DNNLK__VF_N));
    return dnnlk__ln_shift(lanes, n);
}

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_rows_t)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, char *mp, int64_t mpp, char *ip, int64_t ipp,
                                                            int64_t rows, int outs, int dt, int has_w, int has_b) {
    int64_t g, n = j->n;
    float m_next = DNNLK__SFX(dnnlk__ln_row_shift)(x, dt, n);
    for (g = 0; g < rows; g++) {
        char *xr = x + g * xp, *yr = y + g * yp;
        float ld[16], lq[16], m = m_next;
        dnnlk__ln_row o;
        int attempt, rc;
        for (attempt = 0;; attempt++) {
            DNNLK__SFX(dnnlk__ln_stats)(xr, dt, n, m, ld, lq);
            if (attempt == 0 && g + 1 < rows) m_next = DNNLK__SFX(dnnlk__ln_row_shift)(xr + xp, dt, n);
            rc = dnnlk__ln_finish(j, m, ld, lq, attempt, &o);
            if (rc == dnnlk__ln_redo) { m = o.m; continue; }
            break;
        }
        if (rc == dnnlk__ln_ok) {
            DNNLK__SFX(dnnlk__ln_apply)(xr, yr, dt, n, &o, j->w, j->b, has_w, has_b);
        } else {
            void *base[4];
            base[0] = xr;
            base[1] = yr;
            base[2] = (void *)(uintptr_t)j->w;
            base[3] = (void *)(uintptr_t)j->b;
            dnnlk__ln_group_double(j, base, &o);
        }
        if (outs & 1) memcpy(mp + g * mpp, &o.mean_out, 4);
        if (outs & 2) memcpy(ip + g * ipp, &o.istd_out, 4);
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

static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__l2_rows_t)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, int64_t rows, int dt) {
    const size_t es = dt == dnnlk_f32 ? 4 : 2;
    int64_t g, n = j->n;
    for (g = 0; g < rows; g++) {
        const char *xr = x + g * xp;
        char *yr = y + g * yp;
        dnnlk__vf accq[DNNLK__NORM_K], vs;
        float lq[16], scale;
        int64_t i = 0;
        int k, v;
        for (k = 0; k < DNNLK__NORM_K; k++) accq[k] = dnnlk__vf_zero();
        for (; i + DNNLK__NORM_CHUNK <= n; i += DNNLK__NORM_CHUNK) {
            for (k = 0; k < DNNLK__NORM_K; k++) {
                dnnlk__vf q[8];
                for (v = 0; v < 8; v++) {
                    dnnlk__vf xv = DNNLK__SFX(dnnlk__norm_load)(xr + (size_t)(i + 16 * v + k * DNNLK__VF_N) * es, dt);
                    q[v] = dnnlk__vf_mul(xv, xv);
                    DNNLK__NORM_OPAQUE(q[v]);
                }
                accq[k] = dnnlk__vf_add(accq[k], DNNLK__NORM_TREE(q));
            }
        }
        if (i < n) {
            for (k = 0; k < DNNLK__NORM_K; k++) {
                dnnlk__vf q[8];
                for (v = 0; v < 8; v++) {
                    int64_t e = i + 16 * v + k * DNNLK__VF_N;
                    dnnlk__vf xv = DNNLK__SFX(dnnlk__norm_load_n)(xr + (size_t)e * es, dt, n - e);
                    q[v] = dnnlk__vf_mul(xv, xv);
                    DNNLK__NORM_OPAQUE(q[v]);
                }
                accq[k] = dnnlk__vf_add(accq[k], DNNLK__NORM_TREE(q));
            }
        }
        for (k = 0; k < DNNLK__NORM_K; k++) dnnlk__vf_storeu(lq + k * DNNLK__VF_N, accq[k]);
        if (dnnlk__l2_finish(j, lq, &scale) != dnnlk__ln_ok) {
            void *base[2];
            base[0] = (void *)(uintptr_t)xr;
            base[1] = yr;
            dnnlk__l2_group_double(j, base);
            continue;
        }
        vs = dnnlk__vf_set1(scale);
        for (i = 0; i + DNNLK__VF_N <= n; i += DNNLK__VF_N)
            DNNLK__SFX(dnnlk__norm_store)(yr + (size_t)i * es, dt,
                                          dnnlk__vf_mul(DNNLK__SFX(dnnlk__norm_load)(xr + (size_t)i * es, dt), vs));
        if (i < n)
            DNNLK__SFX(dnnlk__norm_store_n)(
                yr + (size_t)i * es, dt, dnnlk__vf_mul(DNNLK__SFX(dnnlk__norm_load_n)(xr + (size_t)i * es, dt, n - i), vs),
                n - i);
    }
}

static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__l2_rows)(const dnnlk__l2_job *j, char *x, int64_t xp, char *y,
                                                       int64_t yp, int64_t rows) {
    if (j->dt == dnnlk_bf16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_bf16);
    else if (j->dt == dnnlk_f16) DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f16);
    else DNNLK__SFX(dnnlk__l2_rows_t)(j, x, xp, y, yp, rows, dnnlk_f32);
}

#undef DNNLK__NORM_TREE
#undef DNNLK__NORM_K
#undef DNNLK__NORM_OPAQUE
