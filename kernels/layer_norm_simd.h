/* dnnl_kernels — layer_norm_simd.h: layer_norm's row kernels, written once on the shared row
 * kernels of norm_simd.h and compiled at every level by simd_instantiate.h from layer_norm.h (no
 * include guard). */

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
                                                           dnnlk__norm_row *o, int attempt) {
    float ld[16], lq[16];
    int rc;
    for (;; attempt++) {
#define DNNLK__LN_STATS(DT) DNNLK__SFX(dnnlk__norm_stats)(xr, j->n, m, ld, lq, NULL, 0, DT, 1, 0, 0, 0)
        if (j->dt == dnnlk_bf16) DNNLK__LN_STATS(dnnlk_bf16);
        else if (j->dt == dnnlk_f16) DNNLK__LN_STATS(dnnlk_f16);
        else DNNLK__LN_STATS(dnnlk_f32);
#undef DNNLK__LN_STATS
        rc = dnnlk__ln_finish(j, m, ld, lq, attempt, o);
        if (rc != dnnlk__norm_redo) return rc;
        m = o->m;
    }
}

/* The statistics of row xs (shift m, into o) while row (xa, ya) is written with oa: the first
 * attempt shares its loop with the writing; a redo, rare, runs alone. */
static DNNLK__FORCEINLINE int DNNLK__SFX(dnnlk__ln_row_stats_out)(const dnnlk__ln_job *j, const char *xs, float m,
                                                                  dnnlk__norm_row *o, const char *xa, char *ya,
                                                                  const dnnlk__norm_row *oa, int dt, int has_w,
                                                                  int has_b, int nt) {
    float ld[16], lq[16];
    DNNLK__SFX(dnnlk__norm_out) out;
    int64_t oi = DNNLK__SFX(dnnlk__norm_out_begin)(&out, xa, ya, j->n, oa, j->w, j->b, dt, 1, has_w, has_b, nt);
    int rc;
    DNNLK__SFX(dnnlk__norm_stats)(xs, j->n, m, ld, lq, &out, oi, dt, 1, has_w, has_b, nt);
    rc = dnnlk__ln_finish(j, m, ld, lq, 0, o);
    return rc == dnnlk__norm_redo ? DNNLK__SFX(dnnlk__ln_row_stats)(j, xs, o->m, o, 1) : rc;
}

/* Rows are software-pipelined: the statistics of row g+1 are taken in the loop that writes row g,
 * so the next row's reads overlap this row's writes, and the latency of a row's reduction and its
 * double-precision finish hides behind useful work. */
static DNNLK__FORCEINLINE void DNNLK__SFX(dnnlk__ln_rows_t)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                            int64_t yp, char *mp, int64_t mpp, char *ip, int64_t ipp,
                                                            int64_t rows, int outs, int dt, int has_w, int has_b,
                                                            int nt) {
    int64_t g, n = j->n;
    dnnlk__norm_row cur, next = {0, 0, 0, 0, 0};
    int rc_cur, rc_next = dnnlk__norm_ok;
    float m_next;
    rc_cur = DNNLK__SFX(dnnlk__ln_row_stats)(j, x, DNNLK__SFX(dnnlk__ln_row_shift)(x, dt, n), &cur, 0);
    m_next = rows > 1 ? DNNLK__SFX(dnnlk__ln_row_shift)(x + xp, dt, n) : 0;
    for (g = 0; g < rows; g++) {
        char *xr = x + g * xp, *yr = y + g * yp;
        if (g + 1 < rows && rc_cur == dnnlk__norm_ok) {
            rc_next = DNNLK__SFX(dnnlk__ln_row_stats_out)(j, xr + xp, m_next, &next, xr, yr, &cur, dt, has_w, has_b,
                                                          nt);
        } else {
            if (g + 1 < rows) rc_next = DNNLK__SFX(dnnlk__ln_row_stats)(j, xr + xp, m_next, &next, 0);
            if (rc_cur == dnnlk__norm_ok) {
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
                                                                dnnlk__norm_row *o) {
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
        if (rc != dnnlk__norm_redo) break;
        m = o->m;
    }
    if (rc == dnnlk__norm_fallback) dnnlk__ln_group_double(j, base, o);
    else DNNLK__SFX(dnnlk__norm_out_strided)(&j->inner, base, j->n, j->dt, o, 1, j->has_w, j->has_b);
}

/* Entry: `rows` groups that are not contiguous rows (any strides, w and b broadcast). */
static DNNLK__NOINLINE void DNNLK__SFX(dnnlk__ln_rows_strided)(const dnnlk__ln_job *j, char *x, int64_t xp, char *y,
                                                               int64_t yp, char *mp, int64_t mpp, char *ip,
                                                               int64_t ipp, int64_t rows, int outs) {
    int64_t g;
    for (g = 0; g < rows; g++) {
        void *base[4];
        dnnlk__norm_row o;
        base[0] = x + g * xp;
        base[1] = y + g * yp;
        base[2] = (void *)(uintptr_t)j->w;
        base[3] = (void *)(uintptr_t)j->b;
        DNNLK__SFX(dnnlk__ln_group_strided)(j, base, &o);
        if (outs & 1) memcpy(mp + g * mpp, &o.mean_out, 4);
        if (outs & 2) memcpy(ip + g * ipp, &o.istd_out, 4);
    }
}
