/* dnnl_kernels — l2_norm_simd.h: l2_norm's row kernels, written once on the shared row kernels
 * of norm_simd.h and compiled at every level by simd_instantiate.h from l2_norm.h (no include
 * guard). */

/* The scale of one row (into o->s; o->m = o->r = 0), or the fallback code. */
static DNNLK__NOINLINE int DNNLK__SFX(dnnlk__l2_row_stats)(const dnnlk__l2_job *j, const char *xr, dnnlk__norm_row *o) {
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
    dnnlk__norm_row cur = {0, 0, 0, 0, 0}, next = {0, 0, 0, 0, 0};
    int rc_cur = DNNLK__SFX(dnnlk__l2_row_stats)(j, x, &cur), rc_next = dnnlk__norm_ok;
    for (g = 0; g < rows; g++) {
        char *xr = x + g * xp, *yr = y + g * yp;
        if (g + 1 < rows && rc_cur == dnnlk__norm_ok) {
            float lq[16];
            DNNLK__SFX(dnnlk__norm_out) out;
            int64_t oi = DNNLK__SFX(dnnlk__norm_out_begin)(&out, xr, yr, n, &cur, NULL, NULL, dt, 0, 0, 0, nt);
            DNNLK__SFX(dnnlk__norm_stats)(xr + xp, n, 0, NULL, lq, &out, oi, dt, 0, 0, 0, nt);
            rc_next = dnnlk__l2_finish(j, lq, &next.s);
        } else {
            if (g + 1 < rows) rc_next = DNNLK__SFX(dnnlk__l2_row_stats)(j, xr + xp, &next);
            if (rc_cur == dnnlk__norm_ok) {
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
        dnnlk__norm_row o = {0, 0, 0, 0, 0};
        base[0] = x + g * xp;
        base[1] = y + g * yp;
        DNNLK__SFX(dnnlk__norm_stats_strided)(&j->inner, base, j->n, j->dt, 0, 0, NULL, lq);
        if (dnnlk__l2_finish(j, lq, &o.s) != dnnlk__norm_ok) dnnlk__l2_group_double(j, base);
        else DNNLK__SFX(dnnlk__norm_out_strided)(&j->inner, base, j->n, j->dt, &o, 0, 0, 0);
    }
}
